/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tree_scratch - a small fake source tree in a scratch directory, for
 * the symbol index and claim tests (test_symbols, test_symbols_calls,
 * test_claims): include after cmocka.h
 *
 *	tree_make(dir, "triage-calls")	mkdtemp /tmp/triage-calls-XXXXXX
 *					into char dir[64]
 *	tree_write(dir, "fs/x/a.c", text)	a file, its directories made
 *	tree_remove(dir)		the directory and all below it
 */
#ifndef TRIAGE_TEST_TREE_SCRATCH_H
#define TRIAGE_TEST_TREE_SCRATCH_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define TREE_DIR_MAX 64

static inline void tree_make(char dir[TREE_DIR_MAX], const char *prog)
{
	assert_true((size_t)snprintf(dir, TREE_DIR_MAX, "/tmp/%s-XXXXXX",
				     prog) < TREE_DIR_MAX);
	assert_non_null(mkdtemp(dir));
}

static inline void tree_write(const char *dir, const char *rel,
			      const char *text)
{
	char *path = xasprintf("%s/%s", dir, rel);
	char *parent = xstrdup(path);
	FILE *f;

	*strrchr(parent, '/') = '\0';
	assert_int_equal(mkdir_p(parent, 0755), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
	free(parent);
	free(path);
}

static inline void tree_remove(const char *dir)
{
	char *cmd = xasprintf("rm -rf '%s'", dir);

	assert_int_equal(system(cmd), 0);
	free(cmd);
}

#endif
