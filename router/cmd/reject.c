// SPDX-License-Identifier: GPL-2.0-only
/*
 * triage reject - close reports without forwarding them
 *
 * DESCRIPTION
 *	triage reject [--reason TEXT] ID...
 *
 *	For each report, in its own transaction: the report's state
 *	becomes rejected, its forwards and replies not sent yet (queued
 *	or failed) are cancelled, and the action is logged with the login
 *	name, the state before and the reason.  A report already rejected
 *	is left alone.  Exit status as for approve.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "actions.h"
#include "audit.h"
#include "cmd.h"
#include "config.h"
#include "desk.h"
#include "util.h"

struct reject {
	struct cmd_bulk b; /* first: one() casts */
	const char *reason;
};

static int reject_act(struct action_ctx *a, const struct audit_record *r,
		      const char *reason)
{
	return action_reject(a, r, reason);
}

static int reject_one(struct cmd_bulk *b, const struct audit_record *r)
{
	return cmd_bulk_run(b, r, reject_act, ((struct reject *)b)->reason);
}

/* cmd_reject - close reports without forwarding them */
int cmd_reject(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const char *const usage[] = {
		"triage reject [--reason TEXT] ID...", NULL
	};
	struct reject rj;
	const struct opt opts[] = {
		OPT_STRING(0, "reason", &rj.reason, "TEXT",
			   "why, logged with the action"),
		OPT_END(),
	};

	memset(&rj, 0, sizeof(rj));
	argc = parse_options(argc, argv, opts, usage, 0);
	if (argc < 1)
		usage_with_options(usage, opts);
	if (rj.reason && (strlen(rj.reason) > DESK_TEXT_MAX ||
			  !utf8_valid(rj.reason, strlen(rj.reason)))) {
		error("--reason must be UTF-8 text of at most %d bytes",
		      DESK_TEXT_MAX);
		return EX_USAGE;
	}
	rj.b.verb = "reject";
	rj.b.past = "rejected";
	rj.b.one = reject_one;
	return cmd_bulk(ctx, &rj.b, argv, argc);
}
