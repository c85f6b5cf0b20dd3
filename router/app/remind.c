// SPDX-License-Identifier: GPL-2.0-only
/*
 * remind - one mail a week at most about the reports that wait for a
 * person (see remind.h)
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "archive.h"
#include "audit.h"
#include "config.h"
#include "deliver.h"
#include "desk.h"
#include "forward.h"
#include "pick.h"
#include "remind.h"
#include "strbuf.h"
#include "token.h"
#include "util.h"

#define BODY_MAX (256u << 10)

/* one waiting report, copied out of the walk */
struct waiting {
	int64_t id, forwarded_at;
	char *subject, *message_id, *section;
	bool regression;
};

struct person {
	char *addr;
	struct waiting *v;
	size_t n, alloc;
};

struct people {
	struct person *v;
	size_t n, alloc;
};

static int add_waiting(const struct audit_remind *r, void *arg)
{
	struct people *pp = arg;
	struct person *p = pp->n ? &pp->v[pp->n - 1] : NULL;
	struct waiting *w;

	/* the rows come by recipient: a new address starts a person */
	if (!p || strcasecmp(p->addr, r->recipient)) {
		ALLOC_GROW(pp->v, pp->n, pp->alloc);
		p = &pp->v[pp->n++];
		memset(p, 0, sizeof(*p));
		p->addr = xstrdup(r->recipient);
	}
	ALLOC_GROW(p->v, p->n, p->alloc);
	w = &p->v[p->n++];
	w->id = r->id;
	w->forwarded_at = r->forwarded_at;
	w->subject = xstrdup(r->subject ? r->subject : "");
	w->message_id = r->message_id ? xstrdup(r->message_id) : NULL;
	w->section = xstrdup(r->section ? r->section : "");
	w->regression = r->regression;
	return 0;
}

static void people_release(struct people *pp)
{
	size_t i, j;

	for (i = 0; i < pp->n; i++) {
		for (j = 0; j < pp->v[i].n; j++) {
			free(pp->v[i].v[j].subject);
			free(pp->v[i].v[j].message_id);
			free(pp->v[i].v[j].section);
		}
		free(pp->v[i].v);
		free(pp->v[i].addr);
	}
	free(pp->v);
	memset(pp, 0, sizeof(*pp));
}

/*
 * away - an away record of routes.conf, or one the person declared by
 * mail ("#triage away UNTIL": audit_pick_person()), covers now for addr;
 * -1 on a database error
 */
static int away(struct audit *db, const struct pick_config *pc,
		const char *addr, time_t now)
{
	time_t until = 0;
	int cap = 0;
	size_t i;

	for (i = 0; pc && i < pc->naways; i++)
		if (!strcasecmp(pc->aways[i].addr, addr) &&
		    now >= pc->aways[i].from && now < pc->aways[i].until)
			return 1;
	if (audit_pick_person(db, addr, &until, &cap) < 0)
		return -1;
	return until > now;
}

/* clean - s as one line of plain text (controls out) */
static void clean(struct strbuf *sb, const char *s)
{
	desk_clean(sb, s, strlen(s), 0);
}

/* list - the reminder's text about p's reports */
static int list(struct strbuf *b, const struct router_id *rid,
		const struct person *p, unsigned days, time_t now)
{
	char tok[TOKEN_SIZE], date[64];
	size_t i;

	sb_addf(b,
		"Hello,\n\n"
		"%zu report%s forwarded to you %u or more days ago %s no answer\n"
		"yet: no reply from you in %s thread, and no fix.  Nothing is\n"
		"closed because it is old; this reminder comes at most once a\n"
		"week, and stops for a report once you answer it.\n\n",
		p->n, p->n == 1 ? " was" : "s were", days,
		p->n == 1 ? "and has" : "and have",
		p->n == 1 ? "its" : "their");
	for (i = 0; i < p->n && i < REMIND_MAX_IDS; i++) {
		const struct waiting *w = &p->v[i];
		char *link = archive_url(rid->archive, w->message_id);

		if (router_token(rid, w->id, tok, sizeof(tok)) < 0) {
			free(link);
			return -1;
		}
		desk_format_time((time_t)w->forwarded_at, date, sizeof(date));
		sb_addf(b, "%zu. [triage #%lld%s%s] ", i + 1, (long long)w->id,
			tok[0] ? "-" : "", tok);
		clean(b, w->subject);
		sb_addf(b, "\n   %sforwarded %.10s (%ld days ago)%s",
			w->regression ? "a regression, " : "", date,
			(long)((now - w->forwarded_at) / 86400),
			w->section[0] ? ", " : "");
		clean(b, w->section);
		sb_adds(b, "\n");
		if (link)
			sb_addf(b, "   %s\n", link);
		sb_adds(b, "\n");
		free(link);
	}
	if (p->n > REMIND_MAX_IDS)
		sb_addf(b, "... and %zu more.\n\n", p->n - REMIND_MAX_IDS);
	sb_adds(b,
		"To settle one, reply to its forward (or to this mail, keeping\n"
		"its [triage #ID-TOKEN] line) with one of these lines:\n\n"
		"    #triage notme            not yours: the next person gets it\n"
		"    #triage fixed COMMIT     the commit that fixed it\n"
		"    #triage invalid [WHY]    not a bug, or not a kernel bug\n\n"
		"Any reply of yours to a report also counts as an answer.\n");
	return 0;
}

/* ids_json - the reports of p as a JSON array of ids (malloc'ed) */
static char *ids_json(const struct person *p)
{
	json_t *a = json_array();
	char *s;
	size_t i;

	for (i = 0; i < p->n; i++)
		json_array_append_new(a, json_integer(p->v[i].id));
	s = json_dumps(a, JSON_COMPACT);
	json_decref(a);
	return s ? s : xstrdup("[]");
}

/* queue - p's reminder into the outbox and reminders; 0 or -1 */
static int queue(struct audit *db, const struct router_id *rid,
		 const struct person *p, const struct strbuf *body, time_t now,
		 int64_t *oid)
{
	struct deliver_message m;
	struct deliver_header extra[1];
	struct audit_outbox_new o;
	struct strbuf msg = STRBUF_INIT(2 * BODY_MAX);
	const char *to[2] = { p->addr, NULL };
	char subject[128], *ids = NULL;
	int ret = -1;

	snprintf(subject, sizeof(subject),
		 "[triage] %zu report%s wait%s for you", p->n,
		 p->n == 1 ? "" : "s", p->n == 1 ? "s" : "");
	extra[0].name = "X-Loop";
	extra[0].value = rid->address;
	memset(&m, 0, sizeof(m));
	m.from_name = rid->name;
	m.from_addr = rid->address;
	m.to = to;
	m.subject = subject;
	m.auto_submitted = DELIVER_AUTO_GENERATED;
	m.extra = extra;
	m.nextra = ARRAY_SIZE(extra);
	m.body = body->buf;
	m.body_len = body->len;
	m.date = now;
	if (deliver_compose_message(&m, &msg) < 0)
		goto out;
	memset(&o, 0, sizeof(o));
	o.kind = "reply";
	o.created_at = now;
	o.envelope_from = rid->bounce;
	o.recipients = p->addr;
	o.message = msg.buf;
	o.message_len = msg.len;
	ids = ids_json(p);
	if (audit_begin(db) < 0)
		goto out;
	if (audit_outbox_enqueue(db, &o, oid) < 0 ||
	    audit_reminder_record(db, p->addr, now, *oid, ids) < 0 ||
	    audit_commit(db) < 0) {
		audit_rollback(db);
		goto out;
	}
	ret = 0;
out:
	free(ids);
	sb_release(&msg);
	return ret;
}

/* one - p's reminder: printed, or queued once a week; 0 or -1 */
static int one(struct audit *db, const struct router_id *rid,
	       const struct pick_config *pc, const struct person *p,
	       unsigned days, bool send, time_t now, FILE *out,
	       struct remind_stats *st)
{
	struct strbuf body = STRBUF_INIT(BODY_MAX);
	char date[64];
	int64_t last = 0, oid = 0;
	int rc, ret = 0;

	st->people++;
	rc = away(db, pc, p->addr, now);
	if (rc < 0)
		return -1;
	if (rc) {
		fprintf(out, "remind %s: away, no reminder\n", p->addr);
		st->skipped++;
		return 0;
	}
	rc = send ? audit_reminder_last(db, p->addr, &last) : 0;
	if (rc < 0)
		return -1;
	if (rc == 1 && now - last < REMIND_EVERY) {
		desk_format_time((time_t)last, date, sizeof(date));
		fprintf(out, "remind %s: reminded %s, none before a week\n",
			p->addr, date);
		st->skipped++;
		return 0;
	}
	st->reports += (unsigned)p->n;
	if (list(&body, rid, p, days, now) < 0) {
		ret = -1;
	} else if (!send) {
		fprintf(out, "remind %s: %zu report%s\n\n%s\n", p->addr, p->n,
			p->n == 1 ? "" : "s", sb_str(&body));
	} else if (queue(db, rid, p, &body, now, &oid) < 0) {
		ret = -1;
	} else {
		st->queued++;
		fprintf(out, "remind %s: %zu report%s (outbox %lld)\n", p->addr,
			p->n, p->n == 1 ? "" : "s", (long long)oid);
	}
	sb_release(&body);
	return ret;
}

int remind_run(struct audit *db, const struct config *cfg, time_t now,
	       unsigned days, bool send, FILE *out, struct remind_stats *st)
{
	struct people pp = { NULL, 0, 0 };
	struct pick_config *pc;
	struct router_id rid;
	size_t i;
	int ret = 0;

	memset(st, 0, sizeof(*st));
	if (router_id_load(&rid, cfg) < 0)
		return -1;
	if (audit_remind_list(db, (int64_t)now - (int64_t)days * 86400,
			      add_waiting, &pp) < 0) {
		people_release(&pp);
		return -1;
	}
	pc = pick_config_load(cfg, NULL);
	for (i = 0; i < pp.n && ret == 0; i++)
		ret = one(db, &rid, pc, &pp.v[i], days, send, now, out, st);
	pick_config_free(pc);
	people_release(&pp);
	return ret;
}
