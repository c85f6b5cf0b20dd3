/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * claims_int - what claims.c shares with claims_quote.c and
 * claims_facts.c: counting a check, and the checks those files make
 */
#ifndef TRIAGE_CLAIMS_INT_H
#define TRIAGE_CLAIMS_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "claims.h"

/*
 * claims_count - one check of kind: passed when ok, else failed, and the
 * first failed one's text (fmt: a constant; the report's words only as
 * its arguments) kept for explanations
 */
void claims_count(struct claims *c, enum claims_kind kind, bool ok,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * claims_check_quotes - source code the text quotes from a file or a
 * function of the tree is in that file (claims_quote.c); older: as
 * claims_check_facts()'s
 */
void claims_check_quotes(struct claims *c, const char *text, size_t len,
			 const struct symbols *s, bool older);

/*
 * claims_check_facts - sysctl names, module parameters and ioctl names
 * the text cites exist in the tree (claims_facts.c); older: the
 * report's kernel is newer than the tree (a failure is not counted:
 * claims.c passes it for a newer version alone)
 */
void claims_check_facts(struct claims *c, const char *text, size_t len,
			const struct symbols *s, bool older);

/*
 * claims_check_commits - the commit ids the text cites are in the
 * history h, with the subjects it gives (claims_commits.c)
 */
void claims_check_commits(struct claims *c, const char *text, size_t len,
			  const struct evidence *ev, const struct history *h);

/*
 * claims_check_sites - the file:line of a "WARNING: ... at" or "kernel
 * BUG at" line is in the function it names, or in one that function
 * calls, for a report of the tree's own release (claims_site.c)
 */
struct evidence;
void claims_check_sites(struct claims *c, const char *text, size_t len,
			const struct evidence *ev, const struct symbols *s);

/*
 * claims_line_in - does line of the tree's file path (a path suffix:
 * "/build/fs/x.c" names fs/x.c) lie within a stable update's slack of
 * the body of one of funcs[0..nfuncs) there, or of a function of that
 * file they reach (inlined)?  1 yes, 0 no (why: the reason: past the
 * file's end, or in a function none of them reaches), -1 cannot tell
 * (none of funcs is known, the file is not in the tree, no function
 * lies near the line; with defined, also when none of funcs is defined
 * in that file)
 * (claims_site.c)
 */
int claims_line_in(const struct symbols *s, const char *path, unsigned line,
		   const char *const *funcs, size_t nfuncs, bool defined,
		   char *why, size_t whylen);

/*
 * claims_same_release - does the report state a kernel of the tree's
 * own release (major.minor), and not a vendor's "x.y.0-N" build on it
 * (claims_site.c)?
 */
bool claims_same_release(const struct evidence *ev, const struct symbols *s);

/*
 * claims_check_cited - a "file.c:LINE" of the prose lies in a function
 * its sentence names, for a report of the tree's own release
 * (claims_cited.c)
 */
void claims_check_cited(struct claims *c, const char *text, size_t len,
			const struct evidence *ev, const struct symbols *s);

/* claims_name_char - a character of a C name */
bool claims_name_char(char ch);

#endif
