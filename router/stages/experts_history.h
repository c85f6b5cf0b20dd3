/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * experts_history - every commit id of a tree's history, with a hash of
 * its subject, for checking the commits a report cites
 *
 * DESCRIPTION
 *	'triage experts import' also runs
 *
 *		git -C DIR log --no-color --format=%H %ct %s HEAD
 *
 *	(all of HEAD's history, merges included: a bisection can end on a
 *	merge) and writes INDEX.history (history_path()) next to the
 *	experts index: per commit the first 16 hex digits of its id and a
 *	24-bit hash and the length of its subject, 12 bytes, sorted by id;
 *	and the release commits ("Linux 6.12", "Linux 6.13-rc1") with
 *	their dates.  The experts table itself reads only experts_since of
 *	history; the id table is complete back to the root commit unless
 *	the repository is shallow, so that an id the table lacks is known
 *	not to be in the tree (up to the newest release it has).
 *
 *	A subject is compared by its normalized form (blanks collapsed
 *	into one space, trimmed): its length (up to 255) and the hash of
 *	its first HISTORY_SUBJECT_HASHED bytes.  A subject a report cut
 *	("mm: fix the ...") is compared by those bytes only, when it has
 *	that many.
 *
 * Ownership:
 *	history_open() maps the file; history_free() unmaps it.
 *
 * Errors:
 *	history_import() prints a message and returns -1 when git fails,
 *	-2 when the table cannot be written; history_open() returns NULL
 *	(a message printed unless the file does not exist).
 */
#ifndef TRIAGE_EXPERTS_HISTORY_H
#define TRIAGE_EXPERTS_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define HISTORY_SUBJECT_HASHED 48
/* a kernel version as the history keeps it: major << 16 | minor << 8 */
#define HISTORY_VERSION(a, b) ((unsigned)(a) << 16 | (unsigned)(b) << 8)
#define HISTORY_FINAL_RC      100 /* a release after all its -rcN */

struct history;
struct history_builder;

struct history_stats {
	unsigned long commits, releases;
	bool complete; /* back to the root commit (not a shallow clone) */
	size_t bytes;
	double seconds;
};

/* history_path - INDEX.history, next to the experts index (caller frees) */
char *history_path(const char *index);

/* building: one commit at a time, then written sorted (atomically) */
struct history_builder *history_builder_new(void);
void history_builder_add(struct history_builder *b, const char *sha,
			 size_t shalen, int64_t when, const char *subject,
			 size_t sublen);
int history_builder_write(struct history_builder *b, bool complete,
			  const char *out, struct history_stats *st);
void history_builder_free(struct history_builder *b);

/* history_import - the table of the git repository in dir, written to out */
int history_import(const char *dir, const char *out, struct history_stats *st);

/* reading */
struct history *history_open(const char *path);
void history_free(struct history *h);
unsigned long history_ncommits(const struct history *h);
bool history_complete(const struct history *h);

/*
 * history_newest_release - the newest release commit's version and -rc
 * (HISTORY_FINAL_RC: the release itself); false when there is none
 */
bool history_newest_release(const struct history *h, unsigned *version,
			    unsigned *rc);

/*
 * history_find - the commit whose id starts with hex[0..n) (7 to 40
 * lower-case hex digits; past 16 only the first 16 are compared): 1
 * found (*subject: its hash and length, for history_subject_cmp()), 0
 * not in the table, -1 several commits share the prefix
 */
int history_find(const struct history *h, const char *hex, size_t n,
		 uint32_t *subject);

/*
 * history_subject_cmp - does the subject s[0..n) (normalized here; cut:
 * the report marked it as cut) name the commit whose hash is subject?
 * 1 yes, 0 no, -1 cannot tell (a cut subject shorter than
 * HISTORY_SUBJECT_HASHED)
 */
int history_subject_cmp(uint32_t subject, const char *s, size_t n, bool cut);

#endif
