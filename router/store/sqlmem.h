/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sqlmem - a size-class allocator for SQLite in a short-lived process
 *
 * DESCRIPTION
 *	Part of the audit stage.  Debian's SQLite is built without
 *	lookaside (SQLITE_OMIT_LOOKASIDE), so parsing the schema and
 *	preparing the filter's statements makes about 2,000 calls to
 *	malloc() and as many to free(), a noticeable share of a one-shot
 *	delivery's instructions.  sqlmem serves them from free lists of
 *	size classes (every 16 bytes up to 256, then four classes per
 *	power of two up to 16 KB, which hold SQLite's page-cache slots
 *	closely), carved from 64 KB chunks.  Larger requests go to
 *	malloc().
 *
 *	Memory in chunks is reused but not given back before the process
 *	ends, which is what a one-message process wants and no long-lived
 *	program should use: only the one-shot triage-filter installs it,
 *	never a resident worker (triage-filter -l), which prepares its
 *	statements once and serves many messages.
 *
 *	Not thread-safe: SQLite must be used from one thread at a time
 *	(the filter has one).
 *
 * Ownership:
 *	sqlmem_install() registers the allocator with SQLite; it must run
 *	before SQLite initialises (before the first sqlite3_open*()).
 *	The chunks belong to sqlmem for the life of the process.
 *
 * Errors:
 *	sqlmem_install() returns -1 when SQLite refuses (already
 *	initialised); SQLite's own allocator stays in place.  An
 *	allocation fails (NULL to SQLite, which reports SQLITE_NOMEM) only
 *	when malloc() does.
 */
#ifndef TRIAGE_SQLMEM_H
#define TRIAGE_SQLMEM_H

#include <stddef.h>

int sqlmem_install(void);

/* the allocator itself, for tests */
void *sqlmem_malloc(int n);
void sqlmem_free(void *p);
void *sqlmem_realloc(void *p, int n);
int sqlmem_size(void *p);
int sqlmem_roundup(int n);

#endif
