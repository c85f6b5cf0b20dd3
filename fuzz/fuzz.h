/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz - what every harness in fuzz/ shares
 *
 * DESCRIPTION
 *	Each fuzz/fuzz_TARGET.c defines LLVMFuzzerTestOneInput() and calls
 *	the real module code on one input.  'make fuzz' links each with
 *	clang's libFuzzer (-fsanitize=fuzzer,address,undefined); 'make
 *	check-fuzz-replay' links each with fuzz/replay.c instead (gcc, no
 *	libFuzzer), which feeds every file of the directories it is given
 *	to the same function: the seed corpora and the reproducers kept in
 *	tests/corpus/fuzz/TARGET/ run in every 'make check-run'.
 *
 * Ownership:
 *	A harness frees everything it allocates for one input (libFuzzer's
 *	leak check runs after every input); global state it sets up once
 *	(gmime, a compiled ruleset) lives for the process.
 *
 * Errors:
 *	None: a harness returns 0 for every input; a bug is a crash, a
 *	sanitizer report, a leak or a timeout.
 */
#ifndef TRIAGE_FUZZ_H
#define TRIAGE_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * fuzz_memfd - an anonymous file holding data, at offset 0: for the
 * readers that take a descriptor, or a path ("/proc/self/fd/N", see
 * fuzz_fd_path()); no file system is written.  Aborts on failure.
 */
static inline int fuzz_memfd(const void *data, size_t size)
{
	int fd = memfd_create("fuzz", MFD_CLOEXEC);

	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size) ||
	    lseek(fd, 0, SEEK_SET) != 0)
		abort();
	return fd;
}

static inline void fuzz_fd_path(int fd, char *buf, size_t size)
{
	snprintf(buf, size, "/proc/self/fd/%d", fd);
}

/*
 * fuzz_tmpdir - a directory of this process's own, made once, for the
 * code that writes files (under /dev/shm when there is one: memory); a
 * harness removes what it wrote there after each input, and the
 * directory goes at exit
 */
static inline char *fuzz_dir(void)
{
	static char dir[64];

	return dir;
}

static inline void fuzz_tmpdir_remove(void)
{
	rmdir(fuzz_dir());
}

static inline const char *fuzz_tmpdir(void)
{
	char *dir = fuzz_dir();

	if (!dir[0]) {
		const char *base =
			access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";

		snprintf(dir, 64, "%s/triage-fuzz.XXXXXX", base);
		if (!mkdtemp(dir))
			abort();
		atexit(fuzz_tmpdir_remove);
	}
	return dir;
}

#endif
