/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * regression - does a report say something worked before and broke since?
 *
 * DESCRIPTION
 *	The kernel treats regressions first.  regression_parse() scans a
 *	report's text line by line for what kernel reporters write when
 *	something regressed, and returns the known-good version, the bad
 *	version and the culprit commit, each when it was named:
 *
 *	  #regzbot introduced: <sha>     commit (regzbot's own command;
 *	  #regzbot ^introduced <sha>     also "A..B": good A, bad B)
 *	  <sha> is the first bad commit  commit (git bisect's output)
 *	  first bad commit: <sha>        commit
 *	  bisected (it) to (commit) <sha> commit
 *	  Fixes: <sha> ("subject")       commit
 *	  worked (fine) in|on|with 6.x   good
 *	  broke|fails|regressed ... 6.y  bad (the first version within
 *	                                 REGRESSION_NEAR bytes of the word)
 *
 *	A commit is 7 to 40 hex digits (at least one a-f or a long run, so
 *	that a plain number is not taken for one).  A version is
 *	[v]N.N[...] with N.N from 2.6 on.  The first of each kind wins.
 *	A report is a regression when a commit was named, or a good
 *	version; regression_finish() then takes the crash's kernel version
 *	for a missing bad one ("worked on 6.1", crash on 6.12.3).
 *	At most REGRESSION_SCAN_MAX bytes of text are read, the first
 *	REGRESSION_LINE_MAX bytes of a line, matched in lower case (so the
 *	versions and ids returned are lower case); console lines ("[
 *	12.345678] ...") are kernel output, not statements, and skipped.
 *	Every copy is bounded by its field.
 *
 * Ownership:
 *	struct regression is plain data (fixed arrays).
 *
 * Errors:
 *	None: text that says nothing leaves found false.
 */
#ifndef TRIAGE_REGRESSION_H
#define TRIAGE_REGRESSION_H

#include <stdbool.h>
#include <stddef.h>

#define REGRESSION_SCAN_MAX (1u << 20)
#define REGRESSION_NEAR	    48 /* bytes from the word to the version */
#define REGRESSION_VER_MAX  64
#define REGRESSION_SHA_MAX  41
#define REGRESSION_LINE_MAX 1024 /* bytes of a line looked at */

struct report;

struct regression {
	bool found;
	char good[REGRESSION_VER_MAX];	 /* "6.1", "v6.6-rc3", or "" */
	char bad[REGRESSION_VER_MAX];	 /* "6.12.3", or "" */
	char commit[REGRESSION_SHA_MAX]; /* "0123abcd...", or "" */
	const char *how; /* what said so: "regzbot", "bisect", ... */
};

/* regression_parse - scan text for regression statements (merges into r) */
void regression_parse(const char *text, size_t len, struct regression *r);

/* regression_from_report - regression_parse() over every text part */
void regression_from_report(const struct report *rep, struct regression *r);

/*
 * regression_finish - decide found; a good version without a bad one
 * takes kernel_version (may be NULL) when it differs
 */
void regression_finish(struct regression *r, const char *kernel_version);

/* regression_is_sha - 7 to 40 hex digits that look like a commit id */
bool regression_is_sha(const char *s, size_t len);

#endif
