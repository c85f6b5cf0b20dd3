/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * record - write one decision to the audit database, with its mail
 *
 * DESCRIPTION
 *	Command-layer glue shared by triage-filter, 'triage serve' and the
 *	triager's 'approve': inside the caller's transaction, it inserts
 *	the report, its evidence, classification, sections and decision,
 *	and, when the action sends mail, the composed message into the
 *	outbox.  The caller commits; nothing is sent here.
 *
 *	The router's identity comes from routes.conf (routes.conf(5)):
 *
 *	  router_address   From of the resent block and the X-Loop value
 *	  router_name      display name (default "triage")
 *	  bounce_address   envelope sender of everything sent (default
 *	                   router_address)
 *
 * Ownership:
 *	struct router_id holds borrowed configuration strings.
 *
 * Errors:
 *	record_decision() returns -1 after printing; the caller rolls
 *	back and (in the filter) exits 75.
 */
#ifndef TRIAGE_RECORD_H
#define TRIAGE_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

struct audit;
struct config;
struct decision;
struct pipeline;
struct report;

struct router_id {
	const char *address;
	const char *name;
	const char *bounce;
};

struct record_result {
	int64_t report;	   /* reports.id */
	int64_t outbox;	   /* forward queued, or 0 */
	int64_t reply;	   /* reply queued, or 0 */
	const char *state; /* forwarded, held, digest */
};

int router_id_load(struct router_id *id, const struct config *cfg);

int record_decision(struct audit *db, const struct pipeline *p,
		    const struct router_id *id, const struct report *r,
		    const struct decision *d, time_t now,
		    struct record_result *out);

/*
 * record_forward - compose a forward of recorded report r (reports.id
 * report) to addr and queue it (approve and reroute use it too); cls is
 * the X-Triage-Class value ("ai; score=7.4; rules=..." or a bare class);
 * returns the outbox id or -1
 */
int64_t record_forward(struct audit *db, const struct router_id *id,
		       const struct report *r, int64_t report, const char *addr,
		       const char *name, const char *cls, const char *section,
		       const char *reason, time_t now);

#endif
