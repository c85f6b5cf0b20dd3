/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * forward - the router's identity, and a forward queued in the outbox
 *
 * DESCRIPTION
 *	Command-layer glue of the deliver stage, shared by the filter
 *	(record.c), the triager's approve and reroute (desk.c) and the
 *	digests: forward_queue() composes the forwarded copy of a recorded
 *	report (deliver_compose_forward(): a resent block and the triage
 *	headers prepended, the original bytes untouched) and queues it in
 *	the outbox, inside the caller's transaction.  Nothing is sent here.
 *	The outbox row holds only the head (deliver_forward_head()) and
 *	names the report's stored bytes for the rest: raw must be those
 *	very bytes (audit_outbox_enqueue() checks their length).
 *
 *	The router's identity comes from routes.conf (routes.conf(5)):
 *
 *	  router_address   From of the resent block and the X-Loop value
 *	  router_name      display name (default "triage")
 *	  bounce_address   envelope sender of everything sent (default
 *	                   router_address)
 *	  forward_subject_tag  unsigned (default), always or never: when a
 *	                   forward's Subject gains "[triage #ID] "
 *
 *	This file depends on deliver.c and the store only, so that triage's
 *	triager commands do not pull in the classification pipeline.
 *
 * Ownership:
 *	struct router_id holds borrowed configuration strings.
 *
 * Errors:
 *	router_id_load() and forward_queue() print a message and return -1.
 */
#ifndef TRIAGE_FORWARD_H
#define TRIAGE_FORWARD_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

struct audit;
struct config;

struct router_id {
	const char *address;
	const char *name;
	const char *bounce;
	int tag; /* enum deliver_tag: forward_subject_tag */
	/*
	 * where token.key is (state_dir); NULL: no key, and subject tags
	 * are bare "[triage #ID]" (unit tests)
	 */
	const char *state_dir;
	const char *archive; /* archive_url (archive.h); NULL: none */
	char local[65];	     /* address' local part: bugs+ID-TOKEN@ */
	/* routes.conf reply_address: forwards carry Reply-To bugs+ID-TOKEN@ */
	int reply_address;
};

/*
 * router_report_address - the report's own address into out: the local
 * part of id->address, "+ID-TOKEN", its domain; 0, 1 and out "" when
 * there is no token (no state_dir), -1 when the key cannot be read
 */
int router_report_address(const struct router_id *id, int64_t report, char *out,
			  size_t size);

int router_id_load(struct router_id *id, const struct config *cfg);

/*
 * router_token_key - the token key (token.h) of id->state_dir, read (or
 * made) the first time and kept for the process; NULL without a
 * state_dir, or after printing why it cannot be read
 */
const struct token_key *router_token_key(const struct router_id *id);

/*
 * router_token - report's token (token.h) into out: 0; 1 and out ""
 * when id has no state_dir; -1 when the key cannot be read (printed).
 * Forwards and automatic replies tag their subject "[triage #ID-TOKEN]"
 * with it, and only such a tag joins a stranger's mail to the report.
 */
int router_token(const struct router_id *id, int64_t report, char *out,
		 size_t size);

/*
 * forward_can_send - report's message (raw, len) can be forwarded: it
 * can go out as it came, or the filter kept a re-encoded copy of it
 * (messages.sendable); -1 on a database error
 */
int forward_can_send(struct audit *db, int64_t report, const char *raw,
		     size_t len);

/*
 * forward_queue - compose the forward of recorded report (reports.id
 * report; its raw bytes and sha256) to addr and queue it; cls is the
 * X-Triage-Class value ("ai; score=7.4; rules=..." or a bare class);
 * returns the outbox id or -1
 */
int64_t forward_queue(struct audit *db, const struct router_id *id,
		      int64_t report, const char *raw, size_t raw_len,
		      const char *sha256, const char *addr, const char *name,
		      const char *cls, const char *section, const char *reason,
		      time_t now);

/*
 * forward_queue_cc - forward_queue(), also delivered to cc (a second
 * envelope recipient, e.g. the regressions list; NULL: none), and
 * marked "X-Triage-Security: SECURITY" when security is not NULL (a
 * security-looking report sent privately: the caller gives no cc).
 * The Resent-Message-ID stays that of the forward to addr.
 */
int64_t forward_queue_cc(struct audit *db, const struct router_id *id,
			 int64_t report, const char *raw, size_t raw_len,
			 const char *sha256, const char *addr, const char *name,
			 const char *cc, const char *cls, const char *section,
			 const char *reason, const char *security, time_t now);

#endif
