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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
