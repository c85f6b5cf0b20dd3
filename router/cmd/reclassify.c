// SPDX-License-Identifier: GPL-2.0-only
/*
 * triage reclassify - correct the class of reports
 *
 * DESCRIPTION
 *	triage reclassify ID... user|fuzzer|ai
 *
 *	Records, for each report in its own transaction, that a triager
 *	says it is of that class: the report's class changes (the
 *	classifier's verdict stays in its classification row) and the
 *	action is logged with the login name and the class before.
 *	'triage train --from-corrections' learns from these
 *	(audit_corrections()).
 *
 *	Nothing is forwarded: a held report stays held, and a report now
 *	said to be user that waits gets a line saying how to forward it.
 *	A report waiting for a fuzzer digest that is no longer said to be
 *	a fuzzer report is held instead (it waits for a triager, as the
 *	filter holds one of that class) and taken out of a digest queued
 *	but not sent yet (cmd_leave_digest()).  Exit status as for
 *	approve.
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

struct reclassify {
	struct cmd_bulk b; /* first: one() casts */
	const char *class;
};

/* next_step - what a triager may do with a report that still waits */
static void next_step(const struct reclassify *rc, const struct audit_record *r,
		      const char *state)
{
	const struct audit_decision *d = cmd_recipient(r);
	const char *to = d ? d->recipient : NULL;
	long long id = (long long)r->id;
	bool waits = !strcmp(state, "held") || !strcmp(state, "digest");

	if (!waits)
		return;
	if (!strcmp(rc->class, "user") && !strcmp(state, "digest")) {
		printf("  it still waits for its section's fuzzer digest: 'triage approve %lld' forwards it now%s%s\n",
		       id, to ? " to " : "", to ? to : "");
	} else if (!strcmp(rc->class, "user")) {
		if (to)
			printf("  it is still held: 'triage approve %lld' forwards it to %s\n",
			       id, to);
		else
			printf("  it is still held and unmapped: 'triage reroute %lld SECTION' or 'triage approve --to ADDR %lld' forwards it\n",
			       id, id);
	} else if (!strcmp(state, "held")) {
		printf("  it is still held: 'triage reject %lld' closes it\n",
		       id);
	}
}

static int reclassify_act(struct action_ctx *a, const struct audit_record *r,
			  const char *cls)
{
	return action_reclassify(a, r, cls);
}

static int reclassify_one(struct cmd_bulk *b, const struct audit_record *r)
{
	struct reclassify *rc = (struct reclassify *)b;
	bool leaves =
		!strcmp(r->state, "digest") && strcmp(rc->class, "fuzzer");
	int ret = cmd_bulk_run(b, r, reclassify_act, rc->class);

	if (ret == CMD_BULK_DONE)
		next_step(rc, r, leaves ? "held" : r->state);
	return ret;
}

/* cmd_reclassify - record a triager's class for reports */
int cmd_reclassify(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const char *const usage[] = {
		"triage reclassify ID... user|fuzzer|ai", NULL
	};
	static const struct opt opts[] = { OPT_END() };
	struct reclassify rc;

	memset(&rc, 0, sizeof(rc));
	argc = parse_options(argc, argv, opts, usage, 0);
	if (argc < 2)
		usage_with_options(usage, opts);
	rc.class = argv[argc - 1];
	if (strcmp(rc.class, "user") && strcmp(rc.class, "fuzzer") &&
	    strcmp(rc.class, "ai")) {
		error("the class is user, fuzzer or ai, not '%s'", rc.class);
		return EX_USAGE;
	}
	rc.b.verb = "reclassify";
	rc.b.past = "reclassified";
	rc.b.one = reclassify_one;
	return cmd_bulk(ctx, &rc.b, argv, argc - 1);
}
