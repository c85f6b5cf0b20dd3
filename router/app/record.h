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
 *	The forward itself is composed and queued by forward_queue()
 *	(forward.h), with the router's identity from router_id_load().
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

#include "forward.h"

struct audit;
struct config;
struct decision;
struct pipeline;
struct report;

struct record_result {
	int64_t report;	   /* reports.id */
	int64_t outbox;	   /* forward queued, or 0 */
	int64_t reply;	   /* auto-reply queued, or non-zero when reply
			    * commands queued mail; 0: none */
	const char *state; /* forwarded, held, digest */
};

/*
 * record_kind_act - the action and reason of a message that is no report
 * (d's kind), as record_decision() writes it and 'triage explain' shows
 * it: routes.conf's "action KIND" (act_kind()), held whatever it says
 * when the caller must hold it (d->hold: "WHY (a KIND)") or when its kind
 * rests on its words alone and it is in no known thread (in_thread false;
 * act_subject_only())
 */
struct act_decision;
void record_kind_act(const struct pipeline *p, const struct decision *d,
		     bool in_thread, struct act_decision *out);

int record_decision(struct audit *db, const struct pipeline *p,
		    const struct router_id *id, const struct report *r,
		    const struct decision *d, time_t now,
		    struct record_result *out);

#endif
