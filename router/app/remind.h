/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * remind - at most one mail a week to a person about the reports that
 * wait for them
 *
 * DESCRIPTION
 *	remind_run() lists, for each person, the reports forwarded to them
 *	at least `days` days ago that nobody has answered: still forwarded
 *	or approved, no fix proposed or made, no message of theirs in the
 *	report's thread, no notme, reject, dup or fixed since the forward
 *	(audit_remind_list()): regressions first, then the oldest forward
 *	first, each with its archive link (archive.h) and the reply
 *	commands that settle it.  A person an away record of routes.conf
 *	covers today (pick.h) gets nothing.  Nothing is ever closed
 *	because it is old.
 *
 *	Without send it only prints what it would send.  With send it
 *	queues one plain-text mail per person (outbox kind "reply", from
 *	the router, X-Loop and Auto-Submitted: auto-generated) and records
 *	it in reminders, in one transaction per person; a person reminded
 *	less than REMIND_EVERY ago gets none (said so).
 *
 * Errors:
 *	remind_run() prints a message and returns -1 on a database error.
 */
#ifndef TRIAGE_REMIND_H
#define TRIAGE_REMIND_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

struct audit;
struct config;

#define REMIND_EVERY   (7 * 86400) /* one reminder a week at most */
#define REMIND_MAX_IDS 50	   /* reports listed in one reminder */

struct remind_stats {
	unsigned people;  /* people with reports that wait */
	unsigned reports; /* reports listed */
	unsigned queued;  /* reminders queued (send) */
	unsigned skipped; /* reminded this week already, or away */
};

int remind_run(struct audit *db, const struct config *cfg, time_t now,
	       unsigned days, bool send, FILE *out, struct remind_stats *st);

#endif
