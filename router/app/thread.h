/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * thread - the thread a message joins, and the crash it repeats
 *
 * DESCRIPTION
 *	Real bugs aliases receive more follow-ups than new reports.
 *	link_find() runs inside the filter's transaction, after the
 *	pipeline and before the report is recorded, and looks for:
 *
 *	A thread.  The first of these that names a known report wins:
 *	In-Reply-To, then References from the newest (last) to the oldest,
 *	each looked up among the Message-IDs of recorded reports (a
 *	forward keeps the original Message-ID, so a maintainer's reply to
 *	a forward names it too); then the report's own address
 *	"bugs+ID-TOKEN@" (forward.h) as the envelope recipient (or in To,
 *	Cc, Delivered-To) with a valid token; then a "[triage #ID-TOKEN]" tag in the
 *	subject (the router's own mail carries it; token.h); then a bare
 *	"[triage #ID]" tag or a Bugzilla "[Bug N]" subject of a bug the
 *	database knows, but only from one of the report's people (anyone
 *	can write those, and IDs are sequential).  The root is the thread's
 *	first report: replies to a follow-up join the same root.  What a
 *	message names is link.h's (a stage, which reads no database);
 *	looking it up in the store is this file's.
 *
 *	The same crash.  When the message joins no thread, the oldest
 *	report with the same crash signature or syzbot id (crashsig.h),
 *	which is not itself grouped under another.
 *
 *	A patch that joins no thread joins the report its trailers name
 *	(kind.h collects them): a Closes: or Link: archive link (of
 *	routes.conf's archive_url pattern, or lore's forms), the report's
 *	own address bugs+ID-TOKEN@ (its token checked) or a Bugzilla
 *	link of a known report, or a "Reported-by: syzbot+ID" of a known
 *	syzbot crash.  Such a patch, and one posted in the
 *	report's own thread, is a fix proposed for it.
 *
 *	link_thread() runs before anything is classified, and settles the
 *	message's kind by the thread's: a reply under a patch, a series or
 *	a review is a review; under a report, a follow-up (a patch stays a
 *	patch: the fix proposed); under a pull request, a stable notice or
 *	a discussion, the same as its root.  Only a message that is still
 *	a report is classified and routed (the same crash is looked up
 *	after that, link_crash()).
 *
 *	record_decision() (record.h) then acts on what was found: a
 *	follow-up goes to the root's recipient without a verdict of its
 *	own, a repeated crash waits as "seen again" for the first one's
 *	recipient, a fix proposed is noted on its report.
 *
 * Ownership:
 *	struct link is plain data.
 *
 * Errors:
 *	link_find() returns -1 on a database error (printed).
 */
#ifndef TRIAGE_THREAD_H
#define TRIAGE_THREAD_H

#include <stdint.h>

#include "audit.h"

struct decision;
struct map;
struct report;
struct token_key;

struct link {
	int64_t thread_root;	/* the thread joined, or 0 */
	bool fix;		/* a patch proposed as the root's fix */
	const char *how;	/* "In-Reply-To", "References", ... */
	char via[256];		/* the Message-ID, tag or bug matched */
	int64_t same_crash_as;	/* first report of the same crash, or 0 */
	struct audit_root root; /* facts of thread_root or same_crash_as */
	const char *hold;	/* set by the caller: why nothing is sent */
	/*
	 * the sender is not one of the root's people (its reporter, its
	 * recipient, an M: or R: of its section): a follow-up is then
	 * classified like new mail (record.h)
	 */
	bool stranger;
	/*
	 * stranger too: the From is the root's recipient's or its
	 * section's (addresses MAINTAINERS publishes), but only a subject
	 * anyone can write (a bare tag, "[Bug N]") joined it and no
	 * authserv_id lets the router check that From: a forged reviewer's
	 * From must not open every report's thread
	 */
	bool unverified;
};

/* what link_thread_trusted() trusts a message by */
struct link_trust {
	const struct token_key *key; /* checks "[triage #ID-TOKEN]" tags */
	const struct map *map;	     /* the section's people */
	const char *archive; /* archive_url (archive.h) a link is read by */
	/*
	 * router_address' local part: "LOCAL+ID-TOKEN@" in a patch's
	 * trailers, or in the envelope recipient, To, Cc or Delivered-To
	 * of any message, joins report ID when TOKEN checks
	 */
	const char *local;
	/*
	 * routes.conf's authserv_id, or NULL: a sender is one of a report's
	 * people only when our server authenticated its From (authres.h)
	 */
	const char *authserv_id;
};

int link_find(struct audit *db, const struct report *r,
	      const struct decision *d, struct link *out);

/*
 * link_thread - the thread half of link_find(), and the kind the
 * message has in it: d->kind.kind may change (see above); -1 on error
 */
int link_thread(struct audit *db, const struct report *r, struct decision *d,
		struct link *out);

/*
 * link_thread_trusted - link_thread() that checks subject tags' tokens
 * with t->key and knows the section's people from t->map: a subject tag
 * without a valid token, and a Bugzilla "[Bug N]" subject, join only a
 * message from one of the report's people (anyone can write them); and
 * out->stranger says whether the sender is one.  link_thread() is
 * link_thread_trusted() with t NULL: no token checks, and the reporter
 * and the recipient are the report's only people.
 */
int link_thread_trusted(struct audit *db, const struct link_trust *t,
			const struct report *r, struct decision *d,
			struct link *out);

/*
 * link_crash - only the crash half of link_find(): out->same_crash_as
 * and out->root when an earlier report has d's crash signature or
 * syzbot id (a new Bugzilla bug joins no mail thread); -1 on error
 */
int link_crash(struct audit *db, const struct decision *d, struct link *out);

#endif
