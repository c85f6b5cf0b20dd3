// SPDX-License-Identifier: GPL-2.0-only
/*
 * triage reroute - forward reports to another section or address
 *
 * DESCRIPTION
 *	triage reroute ID... SECTION|ADDR
 *
 *	The last argument is where the reports go: an address, or a
 *	MAINTAINERS section title (any case, or a part of one title:
 *	cmd_find_section(); quote it), whose recipient is
 *	picked as for a new report of that section alone (pick.h: its
 *	roster, B: mailto triager, M:, R:, then L:, with the load caps, so
 *	that several reports rerouted at once are spread over the people
 *	who can take them; experts are not asked: their files are the ones
 *	that led to the wrong section).  For each report, in its own
 *	transaction: the reroute is logged with the login name (and the
 *	previous recipient), forwards still queued or failed are
 *	cancelled, a report listed in a digest not sent yet is taken out
 *	of it (cmd_leave_digest()), a section becomes the report's section
 *	(first in its list: show, pending --section and stats count it
 *	there), a forward decision is recorded and the new forward is
 *	queued; the report's state becomes forwarded.  With 'transport =
 *	sendmail' the mail is sent at once.
 *
 *	Exit status as for approve; an unknown section is EX_DATAERR.
 */
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
	struct cmd_bulk b; /* first: one() casts */
	struct router_id rid;
	struct map *map;
	struct pick_config *pick;
	int section;	    /* map section, or -1 for an address */
	const char *target; /* section title or address */
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
	rq.load_ctx = rr->b.db;
	rq.now = rr->b.now;
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
		rc = audit_outbox_cancel(rr->b.db, b->id);
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

static int reroute_one(struct cmd_bulk *b, const struct audit_record *r)
{
	struct reroute *rr = (struct reroute *)b;
	struct pick_result res;
	struct strbuf cand = STRBUF_INIT(CANDIDATES_MAX);
	const char *addr = rr->target, *name = NULL, *section = NULL;
	long long id = (long long)r->id;
	char *reason = NULL;
	int64_t oid;
	size_t i;
	int nfu, rc, ret = -1;
	unsigned kept = 0;

	memset(&res, 0, sizeof(res));
	if (!strcmp(r->state, "duplicate")) {
		error("reroute %lld: a duplicate of report %lld; reroute that one",
		      id, (long long)r->duplicate_of);
		return CMD_BULK_REFUSED;
	}
	if (rr->section >= 0) {
		section = map_title(rr->map, (uint32_t)rr->section);
		rc = pick_for(rr, r, &res);
		if (rc == -2)
			goto out;
		if (rc < 0) {
			error("reroute %lld: nobody to send it to in %s: %s",
			      id, section, res.reason);
			ret = CMD_BULK_REFUSED;
			goto out;
		}
		addr = res.addr;
		name = res.name;
		reason = xasprintf("rerouted by %s to %s; %s", b->who, section,
				   res.reason);
		for (i = 0; i < res.ncand; i++)
			sb_addf(&cand, "%s %.2f %s: %s\n", res.cand[i].addr,
				res.cand[i].score,
				pick_status_name(res.cand[i].status),
				res.cand[i].why ? res.cand[i].why : "");
	} else {
		reason = xasprintf("rerouted by %s to %s", b->who, addr);
		section = r->nsections ? r->sections[0].name : NULL;
	}
	if (cmd_bulk_action(b, r, rr->section >= 0 ? section : addr, reason) <
		    0 ||
	    cancel_forwards(rr, r) < 0 || cmd_leave_digest(b, r) < 0 ||
	    (rr->section >= 0 &&
	     audit_set_section(b->db, r->id, section, reason) < 0))
		goto out;
	oid = desk_forward(b->db, &rr->rid, r, addr, name, desk_class_header(r),
			   section, reason, sb_str(&cand), b->now);
	if (oid < 0)
		goto out;
	/* the follow-ups that waited with it (held) go along */
	nfu = desk_forward_followups(b->db, &rr->rid, r->id, addr, name,
				     desk_class_header(r), section, reason,
				     b->now, &kept);
	if (nfu < 0 || audit_commit(b->db) < 0)
		goto out;
	b->queued += 1 + (unsigned)nfu;
	printf("reroute %lld: forwarded to %s (%s; outbox %lld)\n", id, addr,
	       rr->section >= 0 ? res.reason : "address given", (long long)oid);
	if (kept)
		printf("reroute %lld: %u follow-up%s from others stay%s held\n",
		       id, kept, kept == 1 ? "" : "s", kept == 1 ? "s" : "");
	ret = CMD_BULK_DONE;
out:
	pick_result_release(&res);
	sb_release(&cand);
	free(reason);
	return ret;
}

/* cmd_reroute - forward reports to a section or an address */
int cmd_reroute(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const char *const usage[] = {
		"triage reroute ID... SECTION|ADDR", NULL
	};
	static const struct opt opts[] = { OPT_END() };
	struct reroute rr;
	struct config *cfg;
	int ret;

	memset(&rr, 0, sizeof(rr));
	rr.section = -1;
	argc = parse_options(argc, argv, opts, usage, 0);
	if (argc < 2)
		usage_with_options(usage, opts);
	rr.target = argv[argc - 1];
	cfg = cmd_config(ctx);
	if (strchr(rr.target, '@')) {
		if (!addr_valid(rr.target)) {
			error("'%s' is not a valid address", rr.target);
			return EX_USAGE;
		}
	} else {
		rr.map = cmd_open_map(ctx, NULL, NULL, NULL);
		if (!rr.map)
			return EX_CONFIG;
		rr.section = cmd_find_section(rr.map, rr.target);
		if (rr.section < 0) {
			map_free(rr.map);
			return EX_DATAERR;
		}
		rr.pick = pick_config_load(cfg, rr.map);
	}
	rr.b.verb = "reroute";
	rr.b.past = "rerouted";
	rr.b.flags = AUDIT_GET_RAW;
	rr.b.one = reroute_one;
	ret = router_id_load(&rr.rid, cfg) < 0
		      ? EX_CONFIG
		      : cmd_bulk(ctx, &rr.b, argv, argc - 1);
	pick_config_free(rr.pick);
	map_free(rr.map);
	return ret;
}
