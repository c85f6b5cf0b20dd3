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
 *
 *	What a harness prints on standard error (the warnings of the code
 *	under test, by the thousand over a corpus) goes to /dev/null unless
 *	REPLAY_VERBOSE is set; a sanitizer's report still comes out, and so
 *	does, when an input crashes, "replay: crashed on PATH".
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "util.h"

#define REPLAY_INPUT_MAX (64u << 20)

/* the sanitizers' run-time, when linked in (SANITIZE) */
void __sanitizer_set_report_fd(void *fd) __attribute__((weak));
void __sanitizer_set_death_callback(void (*cb)(void)) __attribute__((weak));

static const char *current; /* the input being run */
static int err_fd = 2;	    /* the real standard error */
static int null_fd = -1;    /* the harness's, unless REPLAY_VERBOSE */

static void say_current(void)
{
	if (current) {
		/* write(): from a signal handler too */
		if (write(err_fd, "replay: crashed on ", 19) < 0 ||
		    write(err_fd, current, strlen(current)) < 0 ||
		    write(err_fd, "\n", 1) < 0)
			return;
	}
}

static void on_fatal_signal(int sig)
{
	say_current();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void setup_output(void)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL };
	size_t i;

	err_fd = dup(2);
	if (err_fd < 0)
		die_errno("dup");
	if (!getenv("REPLAY_VERBOSE")) {
		null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (null_fd < 0)
			die_errno("/dev/null");
	}
	if (__sanitizer_set_report_fd)
		__sanitizer_set_report_fd((void *)(intptr_t)err_fd);
	if (__sanitizer_set_death_callback)
		__sanitizer_set_death_callback(say_current);
	else
		for (i = 0; i < ARRAY_SIZE(sigs); i++)
			signal(sigs[i], on_fatal_signal);
}

/* run - one input, the harness's standard error muted */
static void run(const char *path, const uint8_t *data, size_t len)
{
	current = path;
	if (null_fd >= 0)
		dup2(null_fd, 2);
	LLVMFuzzerTestOneInput(data, len);
	if (null_fd >= 0)
		dup2(err_fd, 2);
	current = NULL;
}

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
	run(path, data, len);
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
	setup_output();
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
