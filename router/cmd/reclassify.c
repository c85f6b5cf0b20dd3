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

static int reclassify_one(struct cmd_bulk *b, const struct audit_record *r)
{
	struct reclassify *rc = (struct reclassify *)b;
	const char *before = r->class ? r->class : "unclassified";

	/*
	 * Not a fuzzer report any more: it does not wait for a digest
	 * (nor stay in a queued one) but for a triager, as the filter
	 * holds a report of that class.
	 */
	bool leaves =
		!strcmp(r->state, "digest") && strcmp(rc->class, "fuzzer");

	if (cmd_bulk_action(b, r, rc->class, NULL) < 0 ||
	    (leaves && (audit_set_state(b->db, r->id, "held", b->now) < 0 ||
			cmd_leave_digest(b, r) < 0)) ||
	    audit_commit(b->db) < 0)
		return -1;
	if (!strcmp(before, rc->class))
		printf("reclassify %lld: %s (unchanged; recorded)\n",
		       (long long)r->id, rc->class);
	else
		printf("reclassify %lld: %s -> %s\n", (long long)r->id, before,
		       rc->class);
	if (leaves)
		printf("  it no longer waits for a fuzzer digest: it is held\n");
	next_step(rc, r, leaves ? "held" : r->state);
	return CMD_BULK_DONE;
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
