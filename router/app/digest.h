/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * digest - the periodic fuzzer digest of a MAINTAINERS section
 *
 * DESCRIPTION
 *	Fuzzer reports whose action is "digest" (act.h: "action fuzzer
 *	digest daily|hourly|weekly") are not forwarded one by one: they
 *	wait in state digest, and once per period each section gets one
 *	mail listing them, grouped by crash title (evidence title; the
 *	subject when a report has none), with a count, first and last
 *	seen, the report ids and one representative subject per group.
 *	'triage digest' shows what the next digests hold and, with
 *	--send, queues those that are due; the outbox worker ('triage
 *	deliver') calls digest_enqueue_due() on its own.
 *
 *	What a digest holds.  The reports in state digest whose best
 *	section is the section, received since the section's last digest
 *	(digest_cursor), that no digest has listed yet.  Every report a
 *	digest lists gets a "digest" action (audit.h) naming the section
 *	and the outbox row, so that the triager's log shows it, and so
 *	that a report is never listed twice nor skipped: the filter
 *	stamps received_at when it starts and commits up to filter_timeout
 *	seconds later, so a report can commit with a received_at before
 *	the cursor just moved.  digest_collect() therefore looks back
 *	DIGEST_GRACE seconds (plus filter_timeout) before the cursor and
 *	leaves out the reports that carry a digest action already.
 *
 *	When a digest is due.  The period is that of "action fuzzer
 *	digest PERIOD" (daily when fuzzer reports are not digested any
 *	more but some still wait).  A section's digest is due one period
 *	after its last digest, or, for its first digest, one period after
 *	its oldest waiting report.
 *
 *	Where it goes.  To the person pick_recipient() picks for a fuzzer
 *	report of that section alone (its roster, B: mailto triager, M:
 *	or R:, with the load caps; pick.h), else to its L: list.  The
 *	message comes from router_address (record.h), Auto-Submitted:
 *	auto-generated, with a Message-ID made of the time and the
 *	section, and is queued in the outbox (kind digest) in the same
 *	transaction that records the digest actions and moves the cursor:
 *	one transaction per section.
 *
 * Ownership:
 *	struct digest owns every string and array in it; digest_release().
 *
 * Errors:
 *	Functions print a message and return -1; a database failure may
 *	be temporary (audit_temporary()).
 */
#ifndef TRIAGE_DIGEST_H
#define TRIAGE_DIGEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

struct audit;
struct config;
struct map;
struct router_id;
struct strbuf;

#define DIGEST_GRACE	  60	     /* seconds, beyond filter_timeout */
#define DIGEST_MAX_BYTES  (1u << 20) /* of one digest message */
#define DIGEST_MAX_GROUPS 500	     /* listed in one mail; more summed */

struct digest_group {
	char *title; /* crash title, or the subject */
	bool has_title;
	size_t count;
	int64_t first_seen, last_seen;
	int64_t *reports; /* ids, oldest first */
	char *subject;	  /* the first report's subject */
	char *from;	  /* its sender */
	char *message_id; /* the first report's, or NULL: its archive link */
	char *syzbot_id;  /* the first report's syzbot id, or NULL */
};

struct digest_section {
	char *section;
	int64_t last_sent_at; /* 0: never */
	int64_t due_at;
	unsigned period; /* seconds */
	size_t nreports;
	struct digest_group *groups; /* most reports first */
	size_t ngroups;
};

struct digest {
	struct digest_section *v; /* by section title */
	size_t n;
};

/*
 * digest_collect - what the next digest of section (NULL: of every
 * section with reports waiting) holds
 */
int digest_collect(struct audit *db, const struct config *cfg,
		   const char *section, struct digest *out);
void digest_release(struct digest *d);

/* digest_compose - the digest mail of one section to `to`, at now */
int digest_compose(const struct digest_section *s, const struct router_id *id,
		   const char *to, time_t now, struct strbuf *out);

/*
 * digest_recipient - who gets a section's digest; -1 when nobody, -2
 * when a candidate's load cannot be read (a database error, printed)
 */
int digest_recipient(struct audit *db, const struct config *cfg,
		     const struct map *map, const char *section, time_t now,
		     char *addr, size_t size);

/* what digest_enqueue() did for one section */
struct digest_sent {
	const struct digest_section *s;
	bool due;
	int64_t outbox;	 /* queued row, or 0 */
	const char *to;	 /* recipient, or NULL */
	const char *why; /* why nothing was queued, or NULL */
};

/*
 * digest_enqueue - queue the digest of each due section (section NULL:
 * all), one transaction each; who is recorded with the digest actions;
 * cb (may be NULL) hears about every section looked at.  Returns the
 * number of digests queued, or -1 on a database error (the sections
 * before it stay queued).
 */
int digest_enqueue(struct audit *db, const struct config *cfg,
		   const struct map *map, const char *section, const char *who,
		   time_t now, void (*cb)(const struct digest_sent *, void *),
		   void *arg);

/*
 * digest_enqueue_now - digest_enqueue(), but with force the sections'
 * digests go now, due or not ('triage digest --send --now'); the next
 * one is due a period later
 */
int digest_enqueue_now(struct audit *db, const struct config *cfg,
		       const struct map *map, const char *section,
		       const char *who, time_t now, bool force,
		       void (*cb)(const struct digest_sent *, void *),
		       void *arg);

/* digest_enqueue_due - digest_enqueue() of every section, as "triage" */
int digest_enqueue_due(struct audit *db, const struct config *cfg,
		       const struct map *map, time_t now);

/*
 * digest_withdraw - a report that leaves state digest (reclassify,
 * reroute, approve, reject; the caller changed its state first, in its
 * transaction) is taken out of the digest that listed it if that one
 * is still queued: the digest is composed again without it (same
 * Message-ID and date), or cancelled when it lists nothing else, so
 * that nobody gets the report twice.  Returns 1 when a digest listed
 * the report (*w says what happened), 0 when none did, -1 on a
 * database error.
 */
struct audit_record;

struct digest_withdrawn {
	int64_t outbox;	 /* the digest row */
	size_t left;	 /* reports it still lists */
	bool recomposed; /* queued still, without the report */
	bool cancelled;	 /* it listed only this report */
	bool sent;	 /* too late: it went out (or is being sent) */
};

int digest_withdraw(struct audit *db, const struct config *cfg,
		    const struct audit_record *r, struct digest_withdrawn *w);

#endif
