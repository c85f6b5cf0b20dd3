// SPDX-License-Identifier: GPL-2.0-only
/*
 * triage reroute - forward reports to another section or address
 *
 * DESCRIPTION
 *	triage reroute ID... SECTION|ADDR
 *
 *	The last argument is where the reports go: an address, or a
 *	MAINTAINERS section title (any case; quote it), whose recipient is
 *	picked as for a new report of that section alone (pick.h: its
 *	roster, B: mailto triager, M:, R:, then L:, with the load caps, so
 *	that several reports rerouted at once are spread over the people
 *	who can take them; experts are not asked: their files are the ones
 *	that led to the wrong section).  For each report, in its own
 *	transaction: the reroute is logged with the login name (and the
 *	previous recipient), forwards still queued or failed are
 *	cancelled, a forward decision is recorded and the new forward is
 *	queued; the report's state becomes forwarded.  With 'transport =
 *	sendmail' the mail is sent at once.
 *
 *	Exit status as for approve; an unknown section is EX_DATAERR.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "audit.h"
#include "cmd.h"
#include "config.h"
#include "deliver.h"
#include "desk.h"
#include "forward.h"
#include "map.h"
#include "pick.h"
#include "strbuf.h"
#include "util.h"

#define CANDIDATES_MAX (16u << 10)

struct reroute {
	struct audit *db;
	const struct config *cfg;
	struct router_id rid;
	struct map *map;
	struct pick_config *pick;
	int section;	    /* map section, or -1 for an address */
	const char *target; /* section title or address */
	char who[DESK_LOGIN_MAX + 1];
	time_t now;
	unsigned queued;
	struct desk_status st;
};

/*
 * pick_for - the section's recipient for this report; -1 when nobody,
 * -2 when a load cannot be read (a database error)
 */
static int pick_for(struct reroute *rr, const struct audit_record *r,
		    struct pick_result *res)
{
	struct pick_request rq;
	struct pick_section ps;

	ps.section = (uint32_t)rr->section;
	ps.score = 1;
	memset(&rq, 0, sizeof(rq));
	rq.map = rr->map;
	rq.sections = &ps;
	rq.nsections = 1;
	rq.reporter = r->from_addr;
	rq.class = r->class ? r->class : "uncertain";
	rq.cfg = rr->pick;
	rq.load = audit_pick_load;
	rq.load_ctx = rr->db;
	rq.now = rr->now;
	if (pick_recipient(&rq, res) < 0)
		return -2;
	if (res->outcome == PICK_PERSON || res->outcome == PICK_TO_LIST)
		return 0;
	return -1;
}

/* cancel_forwards - forwards of the report not sent yet; how many */
static int cancel_forwards(struct reroute *rr, const struct audit_record *r)
{
	size_t i;
	int n = 0, rc;

	for (i = 0; i < r->noutbox; i++) {
		const struct audit_outbox_info *b = &r->outbox[i];

		if (strcmp(b->kind, "forward") ||
		    (strcmp(b->state, "queued") && strcmp(b->state, "failed")))
			continue;
		rc = audit_outbox_cancel(rr->db, b->id);
		if (rc < 0)
			return -1;
		if (rc == 0) {
			printf("reroute %lld: cancelled the %s forward to %s (outbox %lld)\n",
			       (long long)r->id, b->state, b->recipients,
			       (long long)b->id);
			n++;
		}
	}
	return n;
}

static int reroute_one(void *arg, int64_t id)
{
	struct reroute *rr = arg;
	struct audit_record r;
	struct audit_action act;
	struct pick_result res;
	struct strbuf cand = STRBUF_INIT(CANDIDATES_MAX);
	const char *addr = rr->target, *name = NULL, *section = NULL;
	char *reason = NULL;
	int64_t oid;
	size_t i;
	int rc, nfu, ret = -1;

	memset(&res, 0, sizeof(res));
	if (audit_begin(rr->db) < 0)
		return -1;
	rc = audit_get_report(rr->db, id, AUDIT_GET_RAW, &r);
	if (rc <= 0) {
		audit_rollback(rr->db);
		if (rc < 0)
			return -1;
		error("reroute %lld: no such report", (long long)id);
		rr->st.unknown++;
		return 1;
	}
	if (!strcmp(r.state, "duplicate")) {
		error("reroute %lld: a duplicate of report %lld; reroute that one",
		      (long long)id, (long long)r.duplicate_of);
		goto refused;
	}
	if (rr->section >= 0) {
		section = map_title(rr->map, (uint32_t)rr->section);
		rc = pick_for(rr, &r, &res);
		if (rc == -2)
			goto fail;
		if (rc < 0) {
			error("reroute %lld: nobody to send it to in %s: %s",
			      (long long)id, section, res.reason);
			goto refused;
		}
		addr = res.addr;
		name = res.name;
		reason = xasprintf("rerouted by %s to %s; %s", rr->who, section,
				   res.reason);
		for (i = 0; i < res.ncand; i++)
			sb_addf(&cand, "%s %.2f %s: %s\n", res.cand[i].addr,
				res.cand[i].score,
				pick_status_name(res.cand[i].status),
				res.cand[i].why ? res.cand[i].why : "");
	} else {
		reason = xasprintf("rerouted by %s to %s", rr->who, addr);
		section = r.nsections ? r.sections[0].name : NULL;
	}

	memset(&act, 0, sizeof(act));
	act.report = id;
	act.at = rr->now;
	act.who = rr->who;
	act.action = "reroute";
	act.argument = rr->section >= 0 ? section : addr;
	act.detail = reason;
	if (audit_record_action(rr->db, &act, NULL) < 0 ||
	    cancel_forwards(rr, &r) < 0)
		goto fail;
	oid = desk_forward(rr->db, &rr->rid, &r, addr, name,
			   desk_class_header(&r), section, reason,
			   sb_str(&cand), rr->now);
	if (oid < 0)
		goto fail;
	/* the follow-ups that waited with it (held) go along */
	nfu = desk_forward_followups(rr->db, &rr->rid, id, addr, name,
				     desk_class_header(&r), section, reason,
				     rr->now);
	if (nfu < 0 || audit_commit(rr->db) < 0)
		goto fail;
	rr->queued += 1 + (unsigned)nfu;
	rr->st.done++;
	printf("reroute %lld: forwarded to %s (%s; outbox %lld)\n",
	       (long long)id, addr,
	       rr->section >= 0 ? res.reason : "address given", (long long)oid);
	ret = 0;
	goto out;
refused:
	audit_rollback(rr->db);
	rr->st.refused++;
	ret = 1;
	goto out;
fail:
	audit_rollback(rr->db);
out:
	pick_result_release(&res);
	sb_release(&cand);
	free(reason);
	audit_record_release(&r);
	return ret;
}

static void usage(void)
{
	fprintf(stderr, "usage: triage reroute ID... SECTION|ADDR\n");
}

/* cmd_reroute - forward reports to a section or an address */
int cmd_reroute(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct reroute rr;
	int64_t *ids;
	int c, n, ret;

	memset(&rr, 0, sizeof(rr));
	rr.section = -1;
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
	n = argc - optind - 1;
	rr.target = argv[argc - 1];
	if (desk_parse_ids(argv + optind, n, &ids))
		return EX_USAGE;
	rr.cfg = cmd_config(ctx);
	rr.now = desk_now();
	if (strchr(rr.target, '@')) {
		if (!addr_valid(rr.target)) {
			error("'%s' is not a valid address", rr.target);
			free(ids);
			return EX_USAGE;
		}
	} else {
		rr.map = cmd_open_map(ctx, NULL, NULL, NULL);
		if (!rr.map) {
			free(ids);
			return EX_CONFIG;
		}
		rr.section = map_find_section(rr.map, rr.target);
		if (rr.section < 0) {
			error("no MAINTAINERS section '%s' (give its title as in MAINTAINERS, or an address)",
			      rr.target);
			map_free(rr.map);
			free(ids);
			return EX_DATAERR;
		}
		rr.pick = pick_config_load(rr.cfg, rr.map);
	}
	if (desk_who(rr.who, sizeof(rr.who)) < 0 ||
	    router_id_load(&rr.rid, rr.cfg) < 0) {
		ret = EX_CONFIG;
		goto out;
	}
	ret = desk_open(rr.cfg, DESK_WRITE, &rr.db);
	if (ret)
		goto out;
	ret = desk_each(rr.db, ids, n, "rerouted", reroute_one, &rr);
	desk_drain(rr.cfg, rr.db, rr.queued, stdout);
	if (!ret)
		ret = desk_status_exit(&rr.st);
	audit_close(rr.db);
out:
	pick_config_free(rr.pick);
	map_free(rr.map);
	free(ids);
	return ret;
}
