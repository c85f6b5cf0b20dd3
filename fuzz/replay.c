// SPDX-License-Identifier: GPL-2.0-only
/*
 * replay - run a fuzz harness without libFuzzer (see fuzz.h)
 *
 * DESCRIPTION
 *	replay PATH...
 *
 *	Feeds every regular file named, and every regular file directly
 *	inside every directory named, to LLVMFuzzerTestOneInput(), in
 *	name order, and prints "replay: N inputs".  Built with gcc and
 *	linked with one harness: 'make check-fuzz-replay' runs the seed
 *	corpora and the reproducers of tests/corpus/fuzz/TARGET/ this way,
 *	so a bug the fuzzer found stays fixed without clang.  A crash is
 *	the test failing; so is a path that cannot be read, and so is a
 *	harness that writes to its input (libFuzzer's "fuzz target
 *	overwrites its const input").
 *
 *	Each input is handed over as libFuzzer hands it: a copy in a
 *	malloc'd block of exactly its size, no NUL after it.  read_file()'s
 *	buffer has a NUL and slack behind the bytes, where an overread of
 *	the input lands unseen even under AddressSanitizer.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"
#include "util.h"

#define REPLAY_INPUT_MAX (64u << 20)

static int run_file(const char *path, unsigned *count)
{
	char *buf;
	uint8_t *data;
	size_t len;
	int ret = 0;

	if (read_file(path, REPLAY_INPUT_MAX, &buf, &len) < 0)
		return -1;
	/* malloc(0) is a block of its own too: any read of it is reported */
	data = malloc(len);
	if (!data && len)
		die("out of memory");
	if (len)
		memcpy(data, buf, len);
	LLVMFuzzerTestOneInput(data, len);
	if (len && memcmp(data, buf, len) != 0)
		ret = error("'%s': the harness wrote to its const input", path);
	free(data);
	free(buf);
	(*count)++;
	return ret;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir, unsigned *count)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, alloc = 0, i;
	int ret = 0;

	if (!d)
		return error("cannot open '%s': %s", dir, strerror(errno));
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		ALLOC_GROW(names, n, alloc);
		names[n++] = xasprintf("%s/%s", dir, e->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_names);
	for (i = 0; i < n; i++) {
		struct stat st;

		if (ret == 0 && stat(names[i], &st) == 0 &&
		    S_ISREG(st.st_mode) && run_file(names[i], count) < 0)
			ret = -1;
		free(names[i]);
	}
	free(names);
	return ret;
}

int main(int argc, char **argv)
{
	unsigned count = 0;
	int i;

	msg_setup("replay", 1, false);
	for (i = 1; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st) < 0)
			die("cannot stat '%s': %s", argv[i], strerror(errno));
		if (S_ISDIR(st.st_mode) ? run_dir(argv[i], &count) < 0
					: run_file(argv[i], &count) < 0)
			return 1;
	}
	printf("replay: %u inputs\n", count);
	return 0;
}
