// SPDX-License-Identifier: GPL-2.0-only
/*
 * triage reroute - forward reports to another section or address
 *
 * DESCRIPTION
 *	triage reroute [--force] ID... SECTION|ADDR
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
 *	A report the filter found security-sensitive goes to no
 *	MAINTAINERS list nor security contact (action_reroute()): a
 *	section resolves to a person of it, else security_address, else
 *	it is refused, as is such an address; --force sends it all the
 *	same.
 *
 *	Exit status as for approve; an unknown section is EX_DATAERR.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "actions.h"
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

struct reroute {
	struct cmd_bulk b; /* first: one() casts */
	struct router_id rid;
	struct map *map;
	struct pick_config *pick;
	int section;	    /* map section, or -1 for an address */
	const char *target; /* section title or address */
	bool force;	    /* --force: past the security guard */
	bool map_tried;	    /* an address: the map opened when needed */
	struct cmd_ctx *ctx;
};

/* reroute_one - action_reroute() (actions.h), the CLI's way */
static int reroute_one(struct cmd_bulk *b, const struct audit_record *r)
{
	struct reroute *rr = (struct reroute *)b;
	struct strbuf out = STRBUF_INIT(1u << 16), err = STRBUF_INIT(4096);
	struct action_ctx a;
	int rc, ret = -1;

	/* an address: the map tells a list from a person (security) */
	if (!rr->map && !rr->map_tried && desk_security(r)) {
		rr->map_tried = true;
		rr->map = cmd_open_map(rr->ctx, NULL, NULL, NULL);
	}
	memset(&a, 0, sizeof(a));
	a.db = b->db;
	a.force = rr->force;
	a.cfg = b->cfg;
	a.rid = &rr->rid;
	a.map = rr->map;
	a.pick = rr->pick;
	a.who = b->who;
	a.verb = "reroute";
	a.now = b->now;
	a.out = &out;
	a.err = &err;
	rc = action_reroute(&a, r, rr->section, rr->target, NULL);
	if (rc == ACTION_REFUSED) {
		error("%s", sb_str(&err));
		ret = CMD_BULK_REFUSED;
	} else if (rc == ACTION_DONE && audit_commit(b->db) == 0) {
		b->queued += a.queued;
		fputs(sb_str(&out), stdout);
		ret = CMD_BULK_DONE;
	}
	sb_release(&out);
	sb_release(&err);
	return ret;
}

/* cmd_reroute - forward reports to a section or an address */
int cmd_reroute(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const char *const usage[] = {
		"triage reroute [--force] ID... SECTION|ADDR", NULL
	};
	struct reroute rr;
	const struct opt opts[] = {
		OPT_BOOL(0, "force", &rr.force,
			 "send a security-looking report to a list or a "
			 "security contact all the same"),
		OPT_END(),
	};
	struct config *cfg;
	int ret;

	memset(&rr, 0, sizeof(rr));
	rr.ctx = ctx;
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
