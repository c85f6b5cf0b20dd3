// SPDX-License-Identifier: GPL-2.0-only
/*
 * actions - the desk actions shared by the CLI and the reply commands
 * (see actions.h)
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions.h"
#include "audit.h"
#include "config.h"
#include "desk.h"
#include "digest.h"
#include "forward.h"
#include "map.h"
#include "mimetext.h"
#include "pick.h"
#include "strbuf.h"
#include "util.h"

#define CANDIDATES_MAX	(16u << 10)
#define SECTION_SUGGEST 8 /* titles named when a name is ambiguous */

/* lower - s in lower case, at most size - 1 bytes */
static void lower(char *buf, size_t size, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len && i + 1 < size; i++)
		buf[i] = (char)tolower((unsigned char)s[i]);
	buf[i] = '\0';
}

/* near_title - a typo of the title, or of one word of it */
static bool near_title(const char *title, const char *name)
{
	char n[128], w[128];
	const char *p = title, *e;
	size_t max;

	lower(n, sizeof(n), name, strlen(name));
	max = strlen(n) / 4 + 1;
	lower(w, sizeof(w), title, strlen(title));
	if (edit_distance(n, w) <= max)
		return true;
	while (*p) {
		while (*p == ' ')
			p++;
		e = p + strcspn(p, " ");
		if (e > p) {
			lower(w, sizeof(w), p, (size_t)(e - p));
			if (strlen(w) > 2 && edit_distance(n, w) <= max)
				return true;
		}
		p = e;
	}
	return false;
}

/* action_find_section - a section named as a person would (actions.h) */
int action_find_section(const struct map *map, const char *name,
			struct strbuf *err)
{
	uint32_t n = map_nsections(map), i, hits[SECTION_SUGGEST], nhits = 0;
	uint32_t nsug = 0;
	int sec = map_find_section(map, name);

	if (sec >= 0)
		return sec;
	for (i = 0; i < n; i++)
		if (strcasestr(map_title(map, i), name)) {
			if (nhits < SECTION_SUGGEST)
				hits[nhits] = i;
			nhits++;
		}
	if (nhits == 1)
		return (int)hits[0];
	if (nhits > 1) {
		sb_addf(err,
			"'%s' is in %u MAINTAINERS section titles; which one?\n",
			name, nhits);
		for (i = 0; i < nhits && i < SECTION_SUGGEST; i++)
			sb_addf(err, "\t%s\n", map_title(map, hits[i]));
		if (nhits > SECTION_SUGGEST)
			sb_addf(err, "\t... and %u more\n",
				nhits - SECTION_SUGGEST);
		return -1;
	}
	/* a typo: titles near the name, or with a word near it */
	for (i = 0; i < n; i++)
		if (near_title(map_title(map, i), name)) {
			if (!nsug++)
				sb_addf(err,
					"no MAINTAINERS section '%s'; did you mean\n",
					name);
			if (nsug <= SECTION_SUGGEST)
				sb_addf(err, "\t%s\n", map_title(map, i));
		}
	if (!nsug)
		sb_addf(err,
			"no MAINTAINERS section '%s' (give a title as in MAINTAINERS, any case, or a part of one)\n",
			name);
	return -1;
}

int action_record(struct action_ctx *a, const struct audit_record *r,
		  const char *verb, const char *argument, const char *detail)
{
	struct audit_action act;

	memset(&act, 0, sizeof(act));
	act.report = r->id;
	act.at = a->now;
	act.who = a->who;
	act.action = verb;
	act.argument = argument;
	act.detail = detail;
	return audit_record_action(a->db, &act, NULL);
}

int action_leave_digest(struct action_ctx *a, const struct audit_record *r)
{
	struct digest_withdrawn w;
	long long id = (long long)r->id;
	int rc;

	if (strcmp(r->state, "digest"))
		return 0;
	rc = digest_withdraw(a->db, a->cfg, r, &w);
	if (rc <= 0)
		return rc;
	if (w.cancelled)
		sb_addf(a->out,
			"%s %lld: the digest it was in (outbox %lld) listed only it: cancelled\n",
			a->verb, id, (long long)w.outbox);
	else if (w.recomposed)
		sb_addf(a->out,
			"%s %lld: taken out of the queued digest (outbox %lld; %zu report%s left in it)\n",
			a->verb, id, (long long)w.outbox, w.left,
			w.left == 1 ? "" : "s");
	else if (w.sent && strcmp(a->verb, "approve"))
		sb_addf(a->out,
			"%s %lld: the digest that listed it (outbox %lld) has gone out already\n",
			a->verb, id, (long long)w.outbox);
	return 0;
}

/*
 * pick_for - the section's recipient for r, never one who declined it;
 * -1 when nobody, -2 on a database error
 */
static int pick_for(struct action_ctx *a, const struct audit_record *r,
		    int section, struct pick_result *res)
{
	struct pick_request rq;
	struct pick_section ps;
	char **declined = NULL;
	size_t ndeclined = 0;
	int rc = -1;

	if (audit_declined(a->db, r->id, &declined, &ndeclined) < 0)
		return -2;
	ps.section = (uint32_t)section;
	ps.score = 1;
	memset(&rq, 0, sizeof(rq));
	rq.map = a->map;
	rq.sections = &ps;
	rq.nsections = 1;
	rq.reporter = r->from_addr;
	rq.class = r->class ? r->class : "uncertain";
	rq.cfg = a->pick;
	rq.load = audit_pick_load;
	rq.person = audit_pick_person;
	rq.load_ctx = a->db;
	rq.declined = declined;
	rq.ndeclined = ndeclined;
	rq.now = a->now;
	if (pick_recipient(&rq, res) < 0)
		rc = -2;
	else if (res->outcome == PICK_PERSON || res->outcome == PICK_TO_LIST)
		rc = 0;
	audit_strings_free(declined, ndeclined);
	return rc;
}

/* cancel_forwards - forwards of the report not sent yet; how many */
static int cancel_forwards(struct action_ctx *a, const struct audit_record *r)
{
	size_t i;
	int n = 0, rc;

	for (i = 0; i < r->noutbox; i++) {
		const struct audit_outbox_info *b = &r->outbox[i];

		if (strcmp(b->kind, "forward") ||
		    (strcmp(b->state, "queued") && strcmp(b->state, "failed")))
			continue;
		rc = audit_outbox_cancel(a->db, b->id);
		if (rc < 0)
			return -1;
		if (rc == 0) {
			sb_addf(a->out,
				"%s %lld: cancelled the %s forward to %s (outbox %lld)\n",
				a->verb, (long long)r->id, b->state,
				b->recipients, (long long)b->id);
			n++;
		}
	}
	return n;
}

static void candidates(const struct pick_result *res, struct strbuf *cand)
{
	size_t i;

	for (i = 0; i < res->ncand; i++)
		sb_addf(cand, "%s %.2f %s: %s\n", res->cand[i].addr,
			res->cand[i].score,
			pick_status_name(res->cand[i].status),
			res->cand[i].why ? res->cand[i].why : "");
}

/* public_target - desk_public_target(), security_address aside */
static const char *public_target(const struct action_ctx *a, const char *addr)
{
	const char *secaddr =
		a->cfg ? config_get(a->cfg, "security_address") : NULL;

	if (secaddr && *secaddr && !strcasecmp(addr, secaddr))
		return NULL;
	return desk_public_target(a->map, addr);
}

int action_reroute(struct action_ctx *a, const struct audit_record *r,
		   int section, const char *addr, const char *note)
{
	struct pick_result res;
	struct strbuf cand = STRBUF_INIT(CANDIDATES_MAX);
	const char *name = NULL, *title = NULL;
	long long id = (long long)r->id;
	char *reason = NULL, *private = NULL, *security = NULL;
	const char *sec = desk_security(r), *what = NULL;
	const char *secaddr =
		a->cfg ? config_get(a->cfg, "security_address") : NULL;
	int64_t oid;
	int nfu, rc, ret = -1;
	unsigned kept = 0;

	if (secaddr && !*secaddr)
		secaddr = NULL;
	memset(&res, 0, sizeof(res));
	if (!strcmp(r->state, "duplicate")) {
		sb_addf(a->err,
			"%s %lld: a duplicate of report %lld; reroute that one",
			a->verb, id, (long long)r->duplicate_of);
		return ACTION_REFUSED;
	}
	rc = r->raw ? forward_can_send(a->db, r->id, r->raw, r->raw_len) : 1;
	if (rc < 0)
		return -1;
	if (rc == 0) {
		sb_addf(a->err,
			"%s %lld: %s, and it has no re-encoded copy: it cannot "
			"be sent",
			a->verb, id, mimetext_unsendable(r->raw, r->raw_len));
		return ACTION_REFUSED;
	}
	if (section >= 0) {
		title = map_title(a->map, (uint32_t)section);
		rc = pick_for(a, r, section, &res);
		if (rc == -2)
			goto out;
		if (rc < 0) {
			sb_addf(a->err,
				"%s %lld: nobody to send it to in %s: %s",
				a->verb, id, title, res.reason);
			ret = ACTION_REFUSED;
			goto out;
		}
		addr = res.addr;
		name = res.name;
		if (sec && !a->force &&
		    (res.outcome != PICK_PERSON ||
		     (what = public_target(a, addr)))) {
			if (!secaddr) {
				sb_addf(a->err,
					"%s %lld: it looks security-sensitive "
					"(%s): %s has no person to send it to "
					"privately (%s is %s) and there is no "
					"security_address; 'triage reroute "
					"%lld ADDR' with a person's address "
					"(--force if you mean it)",
					a->verb, id, sec, title, addr,
					what ? what : "a MAINTAINERS list", id);
				ret = ACTION_REFUSED;
				goto out;
			}
			addr = secaddr;
			name = NULL;
			private =
				xasprintf("; it looks security-sensitive (%s) "
					  "and %s has no person to send it "
					  "to: sent privately to "
					  "security_address",
					  sec, title);
		}
		reason = xasprintf("%s by %s to %s%s%s; %s",
				   !strcmp(a->verb, "reroute") ? "rerouted"
							       : a->verb,
				   a->who, title, note ? "; " : "",
				   note ? note : "", res.reason);
		candidates(&res, &cand);
	} else {
		if (sec && !a->force && (what = public_target(a, addr))) {
			sb_addf(a->err,
				"%s %lld: it looks security-sensitive (%s): "
				"never sent to %s (%s); give a person's "
				"address (--force if you mean it)",
				a->verb, id, sec, addr, what);
			ret = ACTION_REFUSED;
			goto out;
		}
		reason = xasprintf("rerouted by %s to %s", a->who, addr);
		title = r->nsections ? r->sections[0].name : NULL;
	}
	if (private) {
		char *both = xasprintf("%s%s", reason, private);

		free(reason);
		reason = both;
	}
	if (sec)
		security = xasprintf("yes (%s)", sec);
	if (action_record(a, r, "reroute", section >= 0 ? title : addr,
			  reason) < 0 ||
	    cancel_forwards(a, r) < 0 || action_leave_digest(a, r) < 0 ||
	    (section >= 0 &&
	     audit_set_section(a->db, r->id, title, reason) < 0))
		goto out;
	/* a security-looking report's decision names no candidates */
	oid = desk_forward(a->db, a->rid, r, addr, name, desk_class_header(r),
			   title, reason, security ? "" : sb_str(&cand),
			   security, a->now);
	if (oid < 0)
		goto out;
	/* the follow-ups that waited with it (held) go along */
	nfu = desk_forward_followups(a->db, a->rid, r->id, addr, name,
				     desk_class_header(r), title, reason,
				     a->now, &kept);
	if (nfu < 0)
		goto out;
	a->queued += 1 + (unsigned)nfu;
	sb_addf(a->out, "%s %lld: forwarded to %s (%s; outbox %lld)\n", a->verb,
		id, addr,
		private	       ? "security_address: the section has no person"
		: section >= 0 ? res.reason
			       : "address given",
		(long long)oid);
	if (kept)
		sb_addf(a->out,
			"%s %lld: %u follow-up%s from others stay%s held\n",
			a->verb, id, kept, kept == 1 ? "" : "s",
			kept == 1 ? "s" : "");
	ret = ACTION_DONE;
out:
	pick_result_release(&res);
	sb_release(&cand);
	free(reason);
	free(private);
	free(security);
	return ret;
}

int action_reclassify(struct action_ctx *a, const struct audit_record *r,
		      const char *cls)
{
	const char *before = r->class ? r->class : "unclassified";
	long long id = (long long)r->id;
	/*
	 * Not a fuzzer report any more: it does not wait for a digest
	 * (nor stay in a queued one) but for a triager, as the filter
	 * holds a report of that class.
	 */
	bool leaves = !strcmp(r->state, "digest") && strcmp(cls, "fuzzer");

	/* recorded: 'triage train --from-corrections' learns from it */
	if (action_record(a, r, "reclassify", cls, NULL) < 0 ||
	    (leaves && (audit_set_state(a->db, r->id, "held", a->now) < 0 ||
			action_leave_digest(a, r) < 0)))
		return -1;
	if (!strcmp(before, cls))
		sb_addf(a->out, "%s %lld: %s (unchanged; recorded)\n", a->verb,
			id, cls);
	else
		sb_addf(a->out, "%s %lld: %s -> %s\n", a->verb, id, before,
			cls);
	if (leaves)
		sb_adds(a->out,
			"  it no longer waits for a fuzzer digest: it is held\n");
	return ACTION_DONE;
}

int action_reject(struct action_ctx *a, const struct audit_record *r,
		  const char *reason)
{
	size_t i, cancelled = 0;

	if (!strcmp(r->state, "rejected")) {
		sb_addf(a->out, "%s %lld: already rejected\n", a->verb,
			(long long)r->id);
		return ACTION_SAME;
	}
	for (i = 0; i < r->noutbox; i++)
		if (!strcmp(r->outbox[i].state, "queued") ||
		    !strcmp(r->outbox[i].state, "failed"))
			cancelled++;
	if (action_record(a, r, "reject", NULL, reason) < 0 ||
	    action_leave_digest(a, r) < 0)
		return -1;
	sb_addf(a->out, "%s %lld: rejected (was %s)", a->verb, (long long)r->id,
		r->state);
	if (cancelled)
		sb_addf(a->out, "; %zu unsent message%s cancelled", cancelled,
			cancelled == 1 ? "" : "s");
	sb_addc(a->out, '\n');
	return ACTION_DONE;
}

int action_note(struct action_ctx *a, const struct audit_record *r,
		const char *text)
{
	if (action_record(a, r, "note", NULL, text) < 0)
		return -1;
	sb_addf(a->out, "%s %lld: added\n", a->verb, (long long)r->id);
	return ACTION_DONE;
}

/* group_of - 1 and the group's first report of id (itself if none) */
static int group_of(struct audit *db, int64_t id, int64_t *first,
		    int64_t *grouped)
{
	struct audit_links l;
	int rc = audit_get_links(db, id, &l);

	if (rc <= 0)
		return rc;
	*grouped = l.same_crash_as;
	*first = l.same_crash_as ? l.same_crash_as : id;
	audit_links_release(&l);
	return 1;
}

int action_dup(struct action_ctx *a, const struct audit_record *r,
	       int64_t other)
{
	int64_t id = r->id, first = 0, grouped = 0, ofirst = 0, ogrouped = 0;
	char arg[32], detail[400];
	int rc;

	rc = group_of(a->db, id, &first, &grouped);
	if (rc > 0 && other)
		rc = group_of(a->db, other, &ofirst, &ogrouped);
	if (rc < 0)
		return -1;
	if (rc == 0) {
		sb_addf(a->err, "%s %" PRId64 ": no such report", a->verb,
			other ? other : id);
		return ACTION_UNKNOWN;
	}
	if (other &&
	    (other == id || ofirst == id || (grouped && grouped == ofirst))) {
		sb_addf(a->err,
			"%s %" PRId64
			": already in the group of report %" PRId64,
			a->verb, id, grouped ? grouped : id);
		return ACTION_REFUSED;
	}
	if (!other && !grouped) {
		sb_addf(a->err, "%s %" PRId64 ": in no group", a->verb, id);
		return ACTION_REFUSED;
	}
	if (other) {
		snprintf(arg, sizeof(arg), "%" PRId64, other);
		snprintf(detail, sizeof(detail),
			 "same crash as report %" PRId64 ", by %.300s", ofirst,
			 a->who);
	} else {
		snprintf(detail, sizeof(detail),
			 "not the crash of report %" PRId64 ", by %.300s",
			 grouped, a->who);
	}
	if (action_record(a, r, other ? "dup" : "undup", other ? arg : NULL,
			  detail) < 0)
		return -1;
	if (other)
		sb_addf(a->out,
			"dup %" PRId64 ": same crash as report %" PRId64 "\n",
			id, ofirst);
	else
		sb_addf(a->out,
			"undup %" PRId64 ": out of the group of report %" PRId64
			"\n",
			id, grouped);
	return ACTION_DONE;
}
