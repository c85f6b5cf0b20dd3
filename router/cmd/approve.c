// SPDX-License-Identifier: GPL-2.0-only
/*
 * triage approve - forward held reports now, or resend failed ones
 *
 * DESCRIPTION
 *	triage approve [--to ADDR] ID...
 *
 *	For each report, in its own transaction: a held report (or one
 *	waiting for a digest, or a rejected one) is forwarded to the
 *	recipient the pick stage chose for it, or to ADDR; a report whose
 *	delivery failed has its failed forward queued again (or, with
 *	--to, a new forward to ADDR).  The forward carries the stored
 *	X-Triage-Class (the triager's class after a reclassify), the best
 *	section and "approved by LOGIN" as the reason.  The action is
 *	logged with the login name and the time, and the report's state
 *	becomes approved.  The follow-ups that waited with it (replies
 *	joined to its thread while it was held) go to the same address.
 *
 *	A duplicate is refused (approve the original), as is a report
 *	already forwarded (unless --to: a copy to ADDR) and a report that
 *	has nobody to go to (unmapped: use --to or 'triage reroute').
 *	After the commits, with 'transport = sendmail', the queued mail is
 *	sent at once; otherwise 'triage deliver' sends it.
 *
 *	One line per ID on standard output; problems on standard error.
 *	Exit status: 0, EX_NOINPUT when an ID is unknown, EX_DATAERR when
 *	the action did not apply to some report, EX_TEMPFAIL when the
 *	database stayed busy (the IDs after it were not touched).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sysexits.h>

#include "audit.h"
#include "cmd.h"
#include "config.h"
#include "deliver.h"
#include "desk.h"
#include "forward.h"
#include "strbuf.h"
#include "util.h"

struct approve {
	struct audit *db;
	const struct config *cfg;
	struct router_id rid;
	const char *to;
	char who[DESK_LOGIN_MAX + 1];
	time_t now;
	unsigned queued;
	struct desk_status st;
};

/* last_decision - the decision with a recipient, latest first */
static const struct audit_decision *recipient_of(const struct audit_record *r)
{
	size_t i;

	for (i = r->ndecisions; i-- > 0;)
		if (r->decisions[i].recipient && *r->decisions[i].recipient)
			return &r->decisions[i];
	return NULL;
}

/* chosen_why - why the pick stage chose addr, from the candidates */
static char *chosen_why(const struct audit_decision *d, const char *addr)
{
	struct desk_candidate *cv;
	size_t n = desk_candidates(d->candidates, &cv), i;
	char *why = NULL;

	for (i = 0; i < n && !why; i++)
		if (!strcmp(cv[i].status, "chosen") &&
		    !strcasecmp(cv[i].addr, addr) && *cv[i].why)
			why = xstrdup(cv[i].why);
	desk_candidates_free(cv, n);
	return why;
}

/* requeue - send the report's failed forwards again; how many */
static int requeue(struct approve *a, const struct audit_record *r)
{
	size_t i;
	int n = 0;

	for (i = 0; i < r->noutbox; i++) {
		const struct audit_outbox_info *b = &r->outbox[i];
		int rc;

		if (strcmp(b->state, "failed") || strcmp(b->kind, "forward"))
			continue;
		rc = audit_outbox_requeue(a->db, b->id, a->now);
		if (rc < 0)
			return -1;
		if (rc == 0) {
			printf("approve %lld: sending outbox %lld to %s again\n",
			       (long long)r->id, (long long)b->id,
			       b->recipients);
			n++;
		}
	}
	return n;
}

/*
 * approve_one - one report in one transaction; 0 done, 1 refused or
 * unknown (counted), -1 database failure
 */
static int approve_one(void *arg, int64_t id)
{
	struct approve *a = arg;
	struct audit_record r;
	struct audit_action act;
	const struct audit_decision *d;
	const char *addr = a->to, *name = NULL, *state;
	char *why = NULL, *reason = NULL;
	int64_t oid;
	int rc, ret = -1;

	if (audit_begin(a->db) < 0)
		return -1;
	rc = audit_get_report(a->db, id, AUDIT_GET_RAW, &r);
	if (rc <= 0) {
		audit_rollback(a->db);
		if (rc < 0)
			return -1;
		error("approve %lld: no such report", (long long)id);
		a->st.unknown++;
		return 1;
	}
	state = r.state;
	d = recipient_of(&r);
	if (!strcmp(state, "duplicate")) {
		error("approve %lld: a duplicate of report %lld; approve that one",
		      (long long)id, (long long)r.duplicate_of);
		goto refused;
	}
	if (!a->to &&
	    (!strcmp(state, "forwarded") || !strcmp(state, "approved") ||
	     !strcmp(state, "replied"))) {
		error("approve %lld: already %s%s%s; 'triage reroute %lld ADDR' sends it elsewhere",
		      (long long)id, state, d ? " to " : "",
		      d ? d->recipient : "", (long long)id);
		goto refused;
	}
	memset(&act, 0, sizeof(act));
	act.report = id;
	act.at = a->now;
	act.who = a->who;
	act.action = "approve";

	if (!a->to && !strcmp(state, "failed")) {
		act.detail = "failed delivery queued again";
		if (audit_record_action(a->db, &act, NULL) < 0)
			goto fail;
		rc = requeue(a, &r);
		if (rc < 0)
			goto fail;
		if (rc == 0) {
			error("approve %lld: no failed forward to send again; use --to ADDR",
			      (long long)id);
			audit_rollback(a->db);
			goto refused_rolled;
		}
		a->queued += (unsigned)rc;
		goto commit;
	}

	if (!addr) {
		if (!d) {
			error("approve %lld: nobody to send it to (%s); use --to ADDR or 'triage reroute %lld SECTION'",
			      (long long)id,
			      r.nsections ? "no recipient" : "unmapped",
			      (long long)id);
			goto refused;
		}
		addr = d->recipient;
		name = d->recipient_name;
		why = chosen_why(d, addr);
	} else if (d && !strcasecmp(d->recipient, addr)) {
		name = d->recipient_name;
	}
	reason = why ? xasprintf("approved by %s; %s", a->who, why)
		     : xasprintf("approved by %s", a->who);
	act.argument = addr;
	act.detail = reason;
	if (audit_record_action(a->db, &act, NULL) < 0)
		goto fail;
	oid = desk_forward(
		a->db, &a->rid, &r, addr, name, desk_class_header(&r),
		r.nsections ? r.sections[0].name : NULL, reason, "", a->now);
	if (oid < 0)
		goto fail;
	a->queued++;
	/* the follow-ups that waited with it go along */
	rc = desk_forward_followups(
		a->db, &a->rid, id, addr, name, desk_class_header(&r),
		r.nsections ? r.sections[0].name : NULL, reason, a->now);
	if (rc < 0)
		goto fail;
	a->queued += (unsigned)rc;
	printf("approve %lld: forwarded to %s (was %s; outbox %lld)\n",
	       (long long)id, addr, state, (long long)oid);
	if (rc)
		printf("approve %lld: and %d follow-up%s that waited with it\n",
		       (long long)id, rc, rc == 1 ? "" : "s");
commit:
	if (audit_commit(a->db) < 0)
		goto out;
	a->st.done++;
	ret = 0;
	goto out;
refused:
	audit_rollback(a->db);
refused_rolled:
	a->st.refused++;
	ret = 1;
	goto out;
fail:
	audit_rollback(a->db);
out:
	free(why);
	free(reason);
	audit_record_release(&r);
	return ret;
}

static void usage(void)
{
	fprintf(stderr, "usage: triage approve [--to ADDR] ID...\n");
}

/* cmd_approve - forward held reports, resend failed ones */
int cmd_approve(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const struct option opts[] = {
		{ "to", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct approve a;
	int64_t *ids;
	int c, n, ret;

	memset(&a, 0, sizeof(a));
	while ((c = getopt_long(argc, argv, "t:h", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			a.to = optarg;
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
	if (a.to && !addr_valid(a.to)) {
		error("--to '%s' is not a valid address", a.to);
		return EX_USAGE;
	}
	n = argc - optind;
	if (desk_parse_ids(argv + optind, n, &ids))
		return EX_USAGE;
	a.cfg = cmd_config(ctx);
	a.now = desk_now();
	if (desk_who(a.who, sizeof(a.who)) < 0 ||
	    router_id_load(&a.rid, a.cfg) < 0) {
		free(ids);
		return EX_CONFIG;
	}
	ret = desk_open(a.cfg, DESK_WRITE, &a.db);
	if (ret) {
		free(ids);
		return ret;
	}
	ret = desk_each(a.db, ids, n, "approved", approve_one, &a);
	desk_drain(a.cfg, a.db, a.queued, stdout);
	if (!ret)
		ret = desk_status_exit(&a.st);
	audit_close(a.db);
	free(ids);
	return ret;
}
