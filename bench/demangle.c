// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench/demangle - the cost of one symbol name: crashlog's demangler
 * against libiberty's cplus_demangle(DMGL_AUTO), which handles Rust v0
 * and legacy names too (Debian's libiberty-dev)
 *
 *	cc -O2 -std=gnu11 -D_GNU_SOURCE -Irouter/lib -Irouter/stages \
 *		-o build/bench/bench_demangle bench/demangle.c \
 *		build/stages.a build/lib.a -liberty
 *	build/bench/bench_demangle [ROUNDS]
 *
 * Prints each name as both give it, then the CPU nanoseconds per name
 * of each over ROUNDS (default 100,000) rounds of the names.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "crashlog_int.h"
#undef ARRAY_SIZE /* libiberty.h has its own */
#include <libiberty/demangle.h>

/* names as kernel stacks show them (Rust v0, legacy Rust, C++) */
static const char *const names[] = {
	"_RNvCscSpY9Juk0HT_7___rustc17rust_begin_unwind",
	"_RNvMs0_NtCshgDM7dBCdno_11rust_binder4nodeNtB5_4Node3inc",
	"_RNvNtCs1234_6kernel5alloc7realloc",
	"_ZN4core9panicking5panic17h0123456789abcdefE",
	"_ZN6kernel4sync4lock4Lock4lockEv",
	"_ZN3foo3barEv",
};
#define NNAMES (sizeof(names) / sizeof(names[0]))

static double cpu_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 100000, i;
	static struct frames raw;
	struct sv out;
	double t0, t1, t2;
	unsigned long found = 0;
	size_t k;

	if (rounds <= 0)
		rounds = 1;
	for (k = 0; k < NNAMES; k++) {
		char *l = cplus_demangle(names[k], DMGL_AUTO | DMGL_PARAMS);
		bool ok;

		raw.used = 0;
		ok = cl_demangle(names[k], strlen(names[k]), &raw, &out);
		printf("%s\n  triage:    %.*s\n  libiberty: %s\n", names[k],
		       ok ? (int)out.len : 6, ok ? out.s : "(none)",
		       l ? l : "(none)");
		free(l);
	}
	t0 = cpu_now();
	for (i = 0; i < rounds; i++)
		for (k = 0; k < NNAMES; k++) {
			raw.used = 0;
			found += cl_demangle(names[k], strlen(names[k]), &raw,
					     &out);
		}
	t1 = cpu_now();
	for (i = 0; i < rounds; i++)
		for (k = 0; k < NNAMES; k++) {
			char *l = cplus_demangle(names[k],
						 DMGL_AUTO | DMGL_PARAMS);

			found += l != NULL;
			free(l);
		}
	t2 = cpu_now();
	printf("CPU ns per name: triage %.0f, libiberty %.0f (%lu names)\n",
	       (t1 - t0) * 1e9 / (double)(rounds * (long)NNAMES),
	       (t2 - t1) * 1e9 / (double)(rounds * (long)NNAMES), found);
	return 0;
}
