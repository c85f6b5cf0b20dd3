/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * crashsig - the identity of a crash, to group reports of the same bug
 *
 * DESCRIPTION
 *	Two reports are of the same bug when they carry the same crash
 *	signature, or the same syzbot bug id.
 *
 *	The signature is "TITLE|GUILTY|F1,F2,F3": the crash title in
 *	syzkaller's style (evidence.h) normalised by crashsig_title(), the
 *	guilty file as syzkaller chooses it (evidence.h sig_guilty, not
 *	the maintainer's reading, which may change), and the first
 *	CRASHSIG_FRAMES functions of the stack that are reliable ("? "
 *	frames are not) and not generic
 *	(crashlog_skip_function()), normalised by crashsig_function().
 *	Normalising: numbers standing alone (":123", "#2", "0x1a2", a hex
 *	run of 8 or more) become "N", runs of white space one space, and a
 *	function's compiler suffixes (".isra.0", ".constprop.3",
 *	".part.1", ".cold", ".llvm.123") are dropped, so that the same
 *	crash on two builds or two machines gives the same signature.  No
 *	crash title, no signature.
 *
 *	The syzbot bug id is the hex id of "Reported-by: syzbot+ID@...",
 *	of a From: syzbot+ID@ address, or of a dashboard link "extid=ID".
 *
 * Ownership:
 *	Results are written to caller buffers.
 *
 * Errors:
 *	None: the functions return false when there is no signature.
 */
#ifndef TRIAGE_CRASHSIG_H
#define TRIAGE_CRASHSIG_H

#include <stdbool.h>
#include <stddef.h>

#define CRASHSIG_MAX	 512
#define CRASHSIG_FRAMES	 3
#define CRASHSIG_SYZ_MAX 41 /* hex digits of a syzbot id, and a NUL */

struct evidence;
struct report;

/* crashsig_title - the normalised crash title (out: at most size bytes) */
void crashsig_title(const char *title, char *out, size_t size);

/* crashsig_function - a function name without compiler suffixes */
void crashsig_function(const char *name, char *out, size_t size);

/* crashsig_compute - the signature of ev's crash; false when no title */
bool crashsig_compute(const struct evidence *ev, char *out, size_t size);

/* crashsig_syzbot_id - the syzbot bug id of a report; false when none */
bool crashsig_syzbot_id(const struct report *r, const struct evidence *ev,
			char *out, size_t size);

/*
 * crashsig_syzbot_in - the syzbot bug id of an address or trailer
 * naming "syzbot+ID@..." (a patch's Reported-by:); false when none
 */
bool crashsig_syzbot_in(const char *s, char *out, size_t size);

#endif
