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

struct reject {
	struct audit *db;
	const char *reason;
	char who[DESK_LOGIN_MAX + 1];
	time_t now;
	struct desk_status st;
};

static int reject_one(void *arg, int64_t id)
{
	struct reject *rj = arg;
	struct audit_record r;
	struct audit_action act;
	size_t i, cancelled = 0;
	int got, ret = -1;

	if (audit_begin(rj->db) < 0)
		return -1;
	got = audit_get_report(rj->db, id, 0, &r);
	if (got <= 0) {
		audit_rollback(rj->db);
		if (got < 0)
			return -1;
		error("reject %lld: no such report", (long long)id);
		rj->st.unknown++;
		return 1;
	}
	if (!strcmp(r.state, "rejected")) {
		audit_rollback(rj->db);
		printf("reject %lld: already rejected\n", (long long)id);
		rj->st.done++;
		ret = 0;
		goto out;
	}
	for (i = 0; i < r.noutbox; i++)
		if (!strcmp(r.outbox[i].state, "queued") ||
		    !strcmp(r.outbox[i].state, "failed"))
			cancelled++;
	memset(&act, 0, sizeof(act));
	act.report = id;
	act.at = rj->now;
	act.who = rj->who;
	act.action = "reject";
	act.detail = rj->reason;
	if (audit_record_action(rj->db, &act, NULL) < 0 ||
	    audit_commit(rj->db) < 0) {
		audit_rollback(rj->db);
		goto out;
	}
	rj->st.done++;
	printf("reject %lld: rejected (was %s)", (long long)id, r.state);
	if (cancelled)
		printf("; %zu unsent message%s cancelled", cancelled,
		       cancelled == 1 ? "" : "s");
	putchar('\n');
	ret = 0;
out:
	audit_record_release(&r);
	return ret;
}

static void usage(void)
{
	fprintf(stderr, "usage: triage reject [--reason TEXT] ID...\n");
}

/* cmd_reject - close reports without forwarding them */
int cmd_reject(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const struct option opts[] = {
		{ "reason", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct reject rj;
	int64_t *ids;
	int c, n, ret;

	memset(&rj, 0, sizeof(rj));
	while ((c = getopt_long(argc, argv, "r:h", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			rj.reason = optarg;
			break;
		case 'h':
			usage();
			return 0;
		default:
			usage();
			return EX_USAGE;
		}
	}
	if (optind >= argc) {
		usage();
		return EX_USAGE;
	}
	if (rj.reason && (strlen(rj.reason) > DESK_TEXT_MAX ||
			  !utf8_valid(rj.reason, strlen(rj.reason)))) {
		error("--reason must be UTF-8 text of at most %d bytes",
		      DESK_TEXT_MAX);
		return EX_USAGE;
	}
	n = argc - optind;
	if (desk_parse_ids(argv + optind, n, &ids))
		return EX_USAGE;
	rj.now = desk_now();
	if (desk_who(rj.who, sizeof(rj.who)) < 0) {
		free(ids);
		return EX_CONFIG;
	}
	ret = desk_open(cmd_config(ctx), DESK_WRITE, &rj.db);
	if (ret) {
		free(ids);
		return ret;
	}
	ret = desk_each(rj.db, ids, n, "rejected", reject_one, &rj);
	if (!ret)
		ret = desk_status_exit(&rj.st);
	audit_close(rj.db);
	free(ids);
	return ret;
}
