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
 *	said to be user that waits (held or in a digest) gets a line
 *	saying how to forward it.  Exit status as for approve.
 */
#include <getopt.h>
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
	struct audit *db;
	const char *class;
	char who[DESK_LOGIN_MAX + 1];
	time_t now;
	struct desk_status st;
};

static const char *recipient_of(const struct audit_record *r)
{
	size_t i;

	for (i = r->ndecisions; i-- > 0;)
		if (r->decisions[i].recipient && *r->decisions[i].recipient)
			return r->decisions[i].recipient;
	return NULL;
}

/* next_step - what a triager may do with a report that still waits */
static void next_step(const struct reclassify *rc, const struct audit_record *r)
{
	const char *to = recipient_of(r);
	long long id = (long long)r->id;
	bool waits = !strcmp(r->state, "held") || !strcmp(r->state, "digest");

	if (!waits)
		return;
	if (!strcmp(rc->class, "user") && !strcmp(r->state, "digest")) {
		printf("  it still waits for its section's fuzzer digest: 'triage approve %lld' forwards it now%s%s\n",
		       id, to ? " to " : "", to ? to : "");
	} else if (!strcmp(rc->class, "user")) {
		if (to)
			printf("  it is still held: 'triage approve %lld' forwards it to %s\n",
			       id, to);
		else
			printf("  it is still held and unmapped: 'triage reroute %lld SECTION' or 'triage approve --to ADDR %lld' forwards it\n",
			       id, id);
	} else if (!strcmp(r->state, "held")) {
		printf("  it is still held: 'triage reject %lld' closes it\n",
		       id);
	}
}

static int reclassify_one(void *arg, int64_t id)
{
	struct reclassify *rc = arg;
	struct audit_record r;
	struct audit_action act;
	char *before = NULL;
	int ret = -1, got;

	if (audit_begin(rc->db) < 0)
		return -1;
	got = audit_get_report(rc->db, id, 0, &r);
	if (got <= 0) {
		audit_rollback(rc->db);
		if (got < 0)
			return -1;
		error("reclassify %lld: no such report", (long long)id);
		rc->st.unknown++;
		return 1;
	}
	before = xstrdup(r.class ? r.class : "unclassified");
	memset(&act, 0, sizeof(act));
	act.report = id;
	act.at = rc->now;
	act.who = rc->who;
	act.action = "reclassify";
	act.argument = rc->class;
	if (audit_record_action(rc->db, &act, NULL) < 0 ||
	    audit_commit(rc->db) < 0) {
		audit_rollback(rc->db);
		goto out;
	}
	rc->st.done++;
	if (!strcmp(before, rc->class))
		printf("reclassify %lld: %s (unchanged; recorded)\n",
		       (long long)id, rc->class);
	else
		printf("reclassify %lld: %s -> %s\n", (long long)id, before,
		       rc->class);
	next_step(rc, &r);
	ret = 0;
out:
	free(before);
	audit_record_release(&r);
	return ret;
}

static void usage(void)
{
	fprintf(stderr, "usage: triage reclassify ID... user|fuzzer|ai\n");
}

/* cmd_reclassify - record a triager's class for reports */
int cmd_reclassify(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct reclassify rc;
	int64_t *ids;
	int c, n, ret;

	memset(&rc, 0, sizeof(rc));
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'h') {
			usage();
			return 0;
		}
		usage();
		return EX_USAGE;
	}
	if (argc - optind < 2) {
		usage();
		return EX_USAGE;
	}
	rc.class = argv[argc - 1];
	if (strcmp(rc.class, "user") && strcmp(rc.class, "fuzzer") &&
	    strcmp(rc.class, "ai")) {
		error("the class is user, fuzzer or ai, not '%s'", rc.class);
		return EX_USAGE;
	}
	n = argc - optind - 1;
	if (desk_parse_ids(argv + optind, n, &ids))
		return EX_USAGE;
	rc.now = desk_now();
	if (desk_who(rc.who, sizeof(rc.who)) < 0) {
		free(ids);
		return EX_CONFIG;
	}
	ret = desk_open(cmd_config(ctx), DESK_WRITE, &rc.db);
	if (ret) {
		free(ids);
		return ret;
	}
	ret = desk_each(rc.db, ids, n, "reclassified", reclassify_one, &rc);
	if (!ret)
		ret = desk_status_exit(&rc.st);
	audit_close(rc.db);
	free(ids);
	return ret;
}
