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

#include "audit.h"
#include "cmd.h"
#include "config.h"
#include "desk.h"
#include "util.h"

struct reject {
	struct cmd_bulk b; /* first: one() casts */
	const char *reason;
};

static int reject_one(struct cmd_bulk *b, const struct audit_record *r)
{
	struct reject *rj = (struct reject *)b;
	size_t i, cancelled = 0;

	if (!strcmp(r->state, "rejected")) {
		printf("reject %lld: already rejected\n", (long long)r->id);
		return CMD_BULK_SAME;
	}
	for (i = 0; i < r->noutbox; i++)
		if (!strcmp(r->outbox[i].state, "queued") ||
		    !strcmp(r->outbox[i].state, "failed"))
			cancelled++;
	if (cmd_bulk_action(b, r, NULL, rj->reason) < 0 ||
	    cmd_leave_digest(b, r) < 0 || audit_commit(b->db) < 0)
		return -1;
	printf("reject %lld: rejected (was %s)", (long long)r->id, r->state);
	if (cancelled)
		printf("; %zu unsent message%s cancelled", cancelled,
		       cancelled == 1 ? "" : "s");
	putchar('\n');
	return CMD_BULK_DONE;
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
