// SPDX-License-Identifier: GPL-2.0-only
/*
 * triage dup, triage undup - correct the grouping of reports by crash
 *
 * DESCRIPTION
 *	triage dup ID OTHER
 *	triage undup ID
 *
 *	The filter groups a report with the first report of the same crash
 *	signature or syzbot id (crashsig.h): the later one waits as "seen
 *	again" for the first one's recipient instead of being assigned.
 *	'triage dup' puts report ID in the group of report OTHER (the
 *	group's first report, when OTHER is itself grouped under one; what
 *	was grouped under ID moves along).  'triage undup' takes ID out of
 *	its group; a report that only waited as "seen again" goes back to
 *	held, so that 'triage pending' shows it and approve or reroute
 *	assign it.  Both are recorded as actions (who, when, the group
 *	before) and shown by 'triage show' and 'triage log'.
 *
 *	Exit status: 0; EX_NOINPUT when a report does not exist;
 *	EX_DATAERR when the change makes no sense (ID is OTHER's group
 *	already, or in no group); EX_TEMPFAIL when the database stayed
 *	busy.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "actions.h"
#include "audit.h"
#include "cmd.h"
#include "config.h"
#include "desk.h"
#include "strbuf.h"
#include "util.h"

/* run - action_dup() (actions.h), what "#triage dup" runs too */
static int run(struct cmd_ctx *ctx, const char *verb, int64_t id, int64_t other)
{
	struct strbuf out = STRBUF_INIT(4096), err = STRBUF_INIT(4096);
	struct audit_record r;
	struct action_ctx a;
	struct audit *db;
	char who[DESK_LOGIN_MAX + 1];
	int rc, ret;

	if (desk_who(who, sizeof(who)) < 0)
		return EX_CONFIG;
	ret = desk_open(cmd_config(ctx), DESK_WRITE, &db);
	if (ret)
		return ret;
	if (audit_begin(db) < 0)
		goto fail;
	rc = audit_get_report(db, id, 0, &r);
	if (rc < 0)
		goto rollback;
	if (rc == 0) {
		audit_rollback(db);
		error("%s %lld: no such report", verb, (long long)id);
		ret = EX_NOINPUT;
		goto out;
	}
	memset(&a, 0, sizeof(a));
	a.db = db;
	a.who = who;
	a.verb = verb;
	a.now = desk_now();
	a.out = &out;
	a.err = &err;
	rc = action_dup(&a, &r, other);
	audit_record_release(&r);
	if (rc < 0)
		goto rollback;
	if (rc != ACTION_DONE) {
		audit_rollback(db);
		error("%s", sb_str(&err));
		ret = rc == ACTION_UNKNOWN ? EX_NOINPUT : EX_DATAERR;
		goto out;
	}
	if (audit_commit(db) < 0)
		goto rollback;
	fputs(sb_str(&out), stdout);
	goto out;
rollback:
	audit_rollback(db);
fail:
	ret = desk_busy(db, other ? "nothing was grouped"
				  : "nothing was ungrouped");
out:
	audit_close(db);
	sb_release(&out);
	sb_release(&err);
	return ret;
}

/* parse - exactly want report ids: 0, or EX_USAGE */
static int parse(int argc, char **argv, int want, const char *use, int64_t *ids)
{
	const char *const usage[] = { use, NULL };
	static const struct opt opts[] = { OPT_END() };
	int i;

	argc = parse_options(argc, argv, opts, usage, OPTIONS_STOP_AT_ARG);
	if (argc != want)
		usage_with_options(usage, opts);
	for (i = 0; i < want; i++)
		if (desk_parse_id(argv[i], &ids[i]) < 0) {
			error("'%s' is not a report id", argv[i]);
			return EX_USAGE;
		}
	return 0;
}

/* cmd_dup - put a report in another's crash group */
int cmd_dup(int argc, char **argv, struct cmd_ctx *ctx)
{
	int64_t ids[2];
	int ret = parse(argc, argv, 2, "triage dup ID OTHER", ids);

	if (ret)
		return ret;
	if (ids[0] == ids[1]) {
		error("dup %" PRId64 ": a report is no duplicate of itself",
		      ids[0]);
		return EX_USAGE;
	}
	return run(ctx, "dup", ids[0], ids[1]);
}

/* cmd_undup - take a report out of its crash group */
int cmd_undup(int argc, char **argv, struct cmd_ctx *ctx)
{
	int64_t id;
	int ret = parse(argc, argv, 1, "triage undup ID", &id);

	if (ret)
		return ret;
	return run(ctx, "undup", id, 0);
}
