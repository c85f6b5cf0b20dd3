/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * audit_scratch - a scratch directory of databases for the audit tests
 * (test_audit, test_outbox_raw): include after cmocka.h
 *
 *	scratch_make("test_audit")	mkdtemp /tmp/test_audit.XXXXXX
 *	scratch_path("wal.db")		a fresh path in it (caller frees)
 *	open_ok(path, flags)		audit_open() that must succeed,
 *					on a real file (not temporary)
 *	scratch_remove()		the directory and all below it
 */
#ifndef TRIAGE_TEST_AUDIT_SCRATCH_H
#define TRIAGE_TEST_AUDIT_SCRATCH_H

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "audit.h"
#include "util.h"

static char scratch[64];

static inline int scratch_make(const char *prog)
{
	snprintf(scratch, sizeof(scratch), "/tmp/%s.XXXXXX", prog);
	return mkdtemp(scratch) ? 0 : -1;
}

static inline char *scratch_path(const char *name)
{
	static int seq;

	return xasprintf("%s/%d-%s", scratch, seq++, name);
}

static inline struct audit *open_ok(const char *path, unsigned flags)
{
	struct audit *db = NULL;
	bool temp = true;

	assert_int_equal(audit_open(path, flags, 0, &db, &temp), 0);
	assert_non_null(db);
	assert_false(temp);
	return db;
}

static inline int scratch_rm_entry(const char *path, const struct stat *sb,
				   int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static inline void scratch_remove(void)
{
	nftw(scratch, scratch_rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

#endif
