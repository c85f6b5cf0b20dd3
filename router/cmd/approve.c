// SPDX-License-Identifier: GPL-2.0-only
/*
 * triage approve - forward held reports now, or resend failed ones
 *
 * DESCRIPTION
 *	triage approve [--force] [--to ADDR] ID...
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
 *	A report the filter found security-sensitive (its first decision's
 *	security column: data, never a reason's words) never goes to a
 *	MAINTAINERS list or a security contact (desk_public_target()),
 *	whether recorded or given with --to: without --to it goes to its
 *	recorded recipient when that is a person, else to security_address
 *	when routes.conf has one, and is refused otherwise ('triage
 *	reroute ID ADDR' with a person's address is the private path);
 *	--force sends it all the same.  Its forward is marked
 *	X-Triage-Security and copied to no list.
 *	After the commits, with 'transport = sendmail', the queued mail is
 *	sent at once; otherwise 'triage deliver' sends it.
 *
 *	One line per ID on standard output; problems on standard error.
 *	Exit status: 0, EX_NOINPUT when an ID is unknown, EX_DATAERR when
 *	the action did not apply to some report, EX_TEMPFAIL when the
 *	database stayed busy (the IDs after it were not touched).
 */
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
#include "map.h"
#include "mimetext.h"
#include "strbuf.h"
#include "util.h"

struct approve {
	struct cmd_bulk b; /* first: one() casts */
	struct router_id rid;
	const char *to;
	const char *security_address; /* routes.conf's, or NULL */
	bool force;		      /* --force: no security guard */
	struct cmd_ctx *ctx;
	struct map *map; /* opened for the first security-looking report */
	bool map_tried;
};

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

/* public_target - desk_public_target(), the map opened once, lazily */
static const char *public_target(struct approve *a, const char *addr)
{
	if (a->security_address && !strcasecmp(addr, a->security_address))
		return NULL;
	if (!a->map_tried) {
		a->map_tried = true;
		a->map = cmd_open_map(a->ctx, NULL, NULL, NULL);
	}
	return desk_public_target(a->map, addr);
}

/*
 * private_target - where a report that looks security-sensitive (sec:
 * why, from the filter's own decision) may go: --to ADDR, or the
 * recorded recipient d, when neither is a list nor a security contact
 * (public_target()); else security_address (no --to); else refused
 * (CMD_BULK_REFUSED), naming 'triage reroute ID ADDR'.  0 when *addr is
 * set.
 */
static int private_target(struct approve *a, const struct audit_record *r,
			  const struct audit_decision *d, const char **addr,
			  const char **name, char **why, const char *sec)
{
	long long id = (long long)r->id;
	const char *to = *addr ? *addr : d ? d->recipient : NULL;
	const char *what = to ? public_target(a, to) : NULL;

	if (to && !what) {
		*addr = to;
		if (d && !strcasecmp(d->recipient, to)) {
			*name = d->recipient_name;
			if (!a->to)
				*why = chosen_why(d, to);
		}
		return 0;
	}
	if (!a->to && a->security_address && *a->security_address) {
		*addr = a->security_address;
		*why = xasprintf("it looks security-sensitive (%s) and has no "
				 "person to go to: sent privately to "
				 "security_address",
				 sec);
		return 0;
	}
	/* a list or a security contact: never, but with --force */
	error("approve %lld: it looks security-sensitive (%s) and had no "
	      "person to go to: never sent to %s%s%s%s; 'triage reroute %lld "
	      "ADDR' with a person's address sends it privately (or set "
	      "security_address; --force if you mean it)",
	      id, sec, to ? to : "a list", what ? " (" : "", what ? what : "",
	      what ? ")" : "", id);
	return CMD_BULK_REFUSED;
}

/* requeue - send the report's failed forwards again; how many */
static int requeue(struct approve *a, const struct audit_record *r)
{
	size_t i;
	int n = 0;

	for (i = 0; i < r->noutbox; i++) {
		const struct audit_outbox_info *o = &r->outbox[i];
		int rc;

		if (strcmp(o->state, "failed") || strcmp(o->kind, "forward"))
			continue;
		rc = audit_outbox_requeue(a->b.db, o->id, a->b.now);
		if (rc < 0)
			return -1;
		if (rc == 0) {
			printf("approve %lld: sending outbox %lld to %s again\n",
			       (long long)r->id, (long long)o->id,
			       o->recipients);
			n++;
		}
	}
	return n;
}

/* resend - a failed report: its failed forwards queued again */
static int resend(struct approve *a, const struct audit_record *r)
{
	int rc;

	if (cmd_bulk_action(&a->b, r, NULL, "failed delivery queued again") <
		    0 ||
	    (rc = requeue(a, r)) < 0)
		return -1;
	if (rc == 0) {
		error("approve %lld: no failed forward to send again; use --to ADDR",
		      (long long)r->id);
		return CMD_BULK_REFUSED;
	}
	a->b.queued += (unsigned)rc;
	return audit_commit(a->b.db) < 0 ? -1 : CMD_BULK_DONE;
}

/*
 * forward - the report (and the follow-ups that waited) to addr;
 * security: it looks security-sensitive, the forward is marked so
 * ("yes (WHY)") and copied to no list
 */
static int forward(struct approve *a, const struct audit_record *r,
		   const char *addr, const char *name, const char *why,
		   const char *security)
{
	const char *section = r->nsections ? r->sections[0].name : NULL;
	char *reason = why ? xasprintf("approved by %s; %s", a->b.who, why)
			   : xasprintf("approved by %s", a->b.who);
	int64_t oid = -1;
	unsigned kept = 0;
	int rc = -1;

	if (cmd_bulk_action(&a->b, r, addr, reason) < 0 ||
	    cmd_leave_digest(&a->b, r) < 0)
		goto out;
	oid = desk_forward(a->b.db, &a->rid, r, addr, name,
			   desk_class_header(r), section, reason, "", security,
			   a->b.now);
	if (oid < 0)
		goto out;
	a->b.queued++;
	rc = desk_forward_followups(a->b.db, &a->rid, r->id, addr, name,
				    desk_class_header(r), section, reason,
				    a->b.now, &kept);
	if (rc < 0)
		goto out;
	a->b.queued += (unsigned)rc;
	printf("approve %lld: forwarded to %s (was %s; outbox %lld)\n",
	       (long long)r->id, addr, r->state, (long long)oid);
	if (rc)
		printf("approve %lld: and %d follow-up%s that waited with it\n",
		       (long long)r->id, rc, rc == 1 ? "" : "s");
	if (kept)
		printf("approve %lld: %u follow-up%s from others stay%s held: "
		       "approve each on its own (triage pending)\n",
		       (long long)r->id, kept, kept == 1 ? "" : "s",
		       kept == 1 ? "s" : "");
	if (audit_commit(a->b.db) < 0)
		rc = -1;
out:
	free(reason);
	return rc < 0 ? -1 : CMD_BULK_DONE;
}

/* approve_one - one report (cmd_bulk()) */
static int approve_one(struct cmd_bulk *b, const struct audit_record *r)
{
	struct approve *a = (struct approve *)b;
	const struct audit_decision *d = cmd_recipient(r);
	const char *addr = a->to, *name = NULL;
	long long id = (long long)r->id;
	char *why = NULL, *security = NULL;
	const char *sec;
	int rc;

	if (!strcmp(r->state, "duplicate")) {
		error("approve %lld: a duplicate of report %lld; approve that one",
		      id, (long long)r->duplicate_of);
		return CMD_BULK_REFUSED;
	}
	if (!a->to &&
	    (!strcmp(r->state, "forwarded") || !strcmp(r->state, "approved") ||
	     !strcmp(r->state, "replied"))) {
		error("approve %lld: already %s%s%s; 'triage reroute %lld ADDR' sends it elsewhere",
		      id, r->state, d ? " to " : "", d ? d->recipient : "", id);
		return CMD_BULK_REFUSED;
	}
	if (!a->to && !strcmp(r->state, "failed"))
		return resend(a, r);
	rc = r->raw ? forward_can_send(a->b.db, r->id, r->raw, r->raw_len) : 1;
	if (rc < 0)
		return -1;
	if (rc == 0) {
		error("approve %lld: %s, and it has no re-encoded copy (the "
		      "line is in its headers, or it is not MIME): it cannot "
		      "be sent; reject it, or pass on what it says by hand",
		      id, mimetext_unsendable(r->raw, r->raw_len));
		return CMD_BULK_REFUSED;
	}
	sec = desk_security(r);
	if (sec && !a->force) {
		rc = private_target(a, r, d, &addr, &name, &why, sec);
		if (rc)
			return rc;
	} else if (!addr) {
		if (!d) {
			error("approve %lld: nobody to send it to (%s); use --to ADDR or 'triage reroute %lld SECTION'",
			      id, r->nsections ? "no recipient" : "unmapped",
			      id);
			return CMD_BULK_REFUSED;
		}
		addr = d->recipient;
		name = d->recipient_name;
		why = chosen_why(d, addr);
	} else if (d && !strcasecmp(d->recipient, addr)) {
		name = d->recipient_name;
	}
	if (sec)
		security = xasprintf("yes (%s)", sec);
	rc = forward(a, r, addr, name, why, security);
	free(security);
	free(why);
	return rc;
}

/* cmd_approve - forward held reports, resend failed ones */
int cmd_approve(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const char *const usage[] = {
		"triage approve [--force] [--to ADDR] ID...", NULL
	};
	struct approve a;
	int ret;
	const struct opt opts[] = {
		OPT_STRING(0, "to", &a.to, "ADDR",
			   "forward to ADDR instead of the recipient picked"),
		OPT_BOOL(0, "force", &a.force,
			 "send a security-looking report to a list or a "
			 "security contact all the same"),
		OPT_END(),
	};

	memset(&a, 0, sizeof(a));
	argc = parse_options(argc, argv, opts, usage, 0);
	if (argc < 1)
		usage_with_options(usage, opts);
	if (a.to && !addr_valid(a.to)) {
		error("--to '%s' is not a valid address", a.to);
		return EX_USAGE;
	}
	a.b.verb = "approve";
	a.b.past = "approved";
	a.b.flags = AUDIT_GET_RAW;
	a.b.one = approve_one;
	if (router_id_load(&a.rid, cmd_config(ctx)) < 0)
		return EX_CONFIG;
	a.security_address = config_get(cmd_config(ctx), "security_address");
	a.ctx = ctx;
	ret = cmd_bulk(ctx, &a.b, argv, argc);
	map_free(a.map);
	return ret;
}
