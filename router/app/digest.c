// SPDX-License-Identifier: GPL-2.0-only
/*
 * digest - the periodic fuzzer digest of a MAINTAINERS section (see
 * digest.h)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "act.h"
#include "archive.h"
#include "audit.h"
#include "config.h"
#include "deliver.h"
#include "desk.h"
#include "digest.h"
#include "evidence.h"
#include "map.h"
#include "pick.h"
#include "forward.h"
#include "sha256.h"
#include "token.h"
#include "strbuf.h"
#include "util.h"

#define IDS_SHOWN 20 /* report ids listed per group */

/* one waiting report, before grouping */
struct item {
	int64_t id, received_at;
	char *section, *subject, *from;
	char *message_id, *syzbot_id; /* set by item_links() */
};

struct items {
	struct item *v;
	size_t n, alloc;
};

static int add_item(const struct audit_pending *p, void *arg)
{
	struct items *it = arg;
	struct item *x;

	if (!p->section)
		return 0; /* a digest needs a section: never happens */
	ALLOC_GROW(it->v, it->n, it->alloc);
	x = &it->v[it->n++];
	x->id = p->id;
	x->received_at = p->received_at;
	x->section = xstrdup(p->section);
	x->subject = xstrdup(p->subject ? p->subject : "");
	x->from = xstrdup(p->from ? p->from : "");
	x->message_id = x->syzbot_id = NULL;
	return 0;
}

static void items_release(struct items *it)
{
	size_t i;

	for (i = 0; i < it->n; i++) {
		free(it->v[i].section);
		free(it->v[i].subject);
		free(it->v[i].from);
		free(it->v[i].message_id);
		free(it->v[i].syzbot_id);
	}
	free(it->v);
	memset(it, 0, sizeof(*it));
}

/* grace - how far before a cursor a late-committed report can be */
static int64_t grace(const struct config *cfg)
{
	long t = config_int(cfg, "filter_timeout");

	/* the filter's deadline applies only within (0, 900) seconds */
	if (t <= 0 || t >= 900)
		t = 900;
	return (int64_t)t + DIGEST_GRACE;
}

static unsigned period(const struct config *cfg)
{
	struct act_config ac;

	act_config_load(&ac, cfg);
	return ac.rule[ACT_FUZZER].period ? ac.rule[ACT_FUZZER].period : 86400;
}

static struct digest_section *find_section(struct digest *d, const char *name)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (!strcasecmp(d->v[i].section, name))
			return &d->v[i];
	d->v = xreallocarray(d->v, d->n + 1, sizeof(*d->v));
	memset(&d->v[d->n], 0, sizeof(d->v[0]));
	d->v[d->n].section = xstrdup(name);
	d->v[d->n].last_sent_at = -1; /* not read yet */
	return &d->v[d->n++];
}

static void add_to_group(struct digest_section *s, const struct item *x,
			 const char *title)
{
	struct digest_group *g = NULL;
	const char *key = title && *title ? title : x->subject;
	size_t i;

	for (i = 0; i < s->ngroups; i++)
		if (!strcmp(s->groups[i].title, key)) {
			g = &s->groups[i];
			break;
		}
	if (!g) {
		s->groups = xreallocarray(s->groups, s->ngroups + 1,
					  sizeof(*s->groups));
		g = &s->groups[s->ngroups++];
		memset(g, 0, sizeof(*g));
		g->title = xstrdup(key);
		g->has_title = title && *title;
		g->subject = xstrdup(x->subject);
		g->from = xstrdup(x->from);
		g->message_id = x->message_id ? xstrdup(x->message_id) : NULL;
		g->syzbot_id = x->syzbot_id ? xstrdup(x->syzbot_id) : NULL;
		g->first_seen = x->received_at;
	}
	g->reports =
		xreallocarray(g->reports, g->count + 1, sizeof(*g->reports));
	g->reports[g->count++] = x->id;
	if (x->received_at < g->first_seen)
		g->first_seen = x->received_at;
	if (x->received_at > g->last_seen)
		g->last_seen = x->received_at;
	s->nreports++;
}

static int cmp_group(const void *a, const void *b)
{
	const struct digest_group *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (x->first_seen != y->first_seen)
		return x->first_seen < y->first_seen ? -1 : 1;
	return strcmp(x->title, y->title);
}

static int cmp_section(const void *a, const void *b)
{
	const struct digest_section *x = a, *y = b;

	return strcmp(x->section, y->section);
}

/*
 * item_links - what a digest links a report by: its own Message-ID (mail
 * only: the archive's page) and, when syzbot reported it, the crash's
 * page
 */
static int item_links(struct audit *db, struct item *x,
		      const struct audit_record *rec)
{
	struct audit_links l;
	int rc;

	if (rec->message_id && *rec->message_id && rec->source &&
	    !strcmp(rec->source, "mail"))
		x->message_id = xstrdup(rec->message_id);
	rc = audit_get_links(db, x->id, &l);
	if (rc < 0)
		return -1;
	if (rc == 1 && l.syzbot_id && *l.syzbot_id)
		x->syzbot_id = xstrdup(l.syzbot_id);
	if (rc == 1)
		audit_links_release(&l);
	return 0;
}

/* examine - whether a digest listed the report already, and its title */
static int examine(struct audit *db, struct item *x, bool *listed, char **title)
{
	struct audit_record rec;
	size_t i;
	int rc = audit_get_report(db, x->id, 0, &rec);

	*listed = false;
	*title = NULL;
	if (rc <= 0)
		return rc < 0 ? -1 : 0;
	for (i = 0; i < rec.nactions; i++)
		if (!strcmp(rec.actions[i].action, "digest"))
			*listed = true;
	if (rec.evidence && rec.evidence->title)
		*title = xstrdup(rec.evidence->title);
	rc = item_links(db, x, &rec);
	audit_record_release(&rec);
	return rc;
}

/* digest_collect - what the next digest of a section (or of each) holds */
int digest_collect(struct audit *db, const struct config *cfg,
		   const char *section, struct digest *out)
{
	struct items it = { NULL, 0, 0 };
	int64_t back = grace(cfg), since = 0;
	unsigned per = period(cfg);
	size_t i, k;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (section) {
		int rc = audit_digest_cursor(db, section, &since);

		if (rc < 0)
			return -1;
		since = rc == 1 && since > back ? since - back : 0;
	}
	if (audit_digest_list(db, section, since, add_item, &it) < 0)
		goto out;

	for (i = 0; i < it.n; i++) {
		struct item *x = &it.v[i];
		struct digest_section *s = find_section(out, x->section);
		bool listed;
		char *title;

		if (s->last_sent_at < 0) {
			int64_t at;
			int rc = audit_digest_cursor(db, s->section, &at);

			if (rc < 0)
				goto out;
			s->last_sent_at = rc == 1 ? at : 0;
			s->period = per;
		}
		if (s->last_sent_at && x->received_at < s->last_sent_at - back)
			continue;
		if (examine(db, x, &listed, &title) < 0)
			goto out;
		if (!listed)
			add_to_group(s, x, title);
		free(title);
	}

	/* drop sections with nothing new; order the rest */
	for (i = 0, k = 0; i < out->n; i++) {
		struct digest_section *s = &out->v[i];
		int64_t oldest = 0;
		size_t g;

		if (!s->nreports) {
			free(s->section);
			continue;
		}
		for (g = 0; g < s->ngroups; g++)
			if (!oldest || s->groups[g].first_seen < oldest)
				oldest = s->groups[g].first_seen;
		s->due_at = (s->last_sent_at ? s->last_sent_at : oldest) +
			    (int64_t)s->period;
		qsort(s->groups, s->ngroups, sizeof(*s->groups), cmp_group);
		out->v[k++] = *s;
	}
	out->n = k;
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), cmp_section);
	ret = 0;
out:
	items_release(&it);
	if (ret < 0)
		digest_release(out);
	return ret;
}

/* digest_release - free a collected digest */
void digest_release(struct digest *d)
{
	size_t i, g;

	for (i = 0; i < d->n; i++) {
		struct digest_section *s = &d->v[i];

		for (g = 0; g < s->ngroups; g++) {
			free(s->groups[g].title);
			free(s->groups[g].reports);
			free(s->groups[g].subject);
			free(s->groups[g].from);
			free(s->groups[g].message_id);
			free(s->groups[g].syzbot_id);
		}
		free(s->groups);
		free(s->section);
	}
	free(d->v);
	memset(d, 0, sizeof(*d));
}

static const char *period_name(unsigned p)
{
	return p == 3600 ? "hourly" : p == 7 * 86400 ? "weekly" : "daily";
}

/* one_line - s cleaned to one printable line */
static void one_line(struct strbuf *sb, const char *s)
{
	desk_clean(sb, s, strlen(s), 0);
}

/*
 * where_to_read - the crash's page: syzbot's dashboard when syzbot
 * reported it, else the first report's archive link (archive.h); and
 * the address that takes reply commands for it (bugs+ID-TOKEN@)
 */
static int where_to_read(const struct digest_group *gr,
			 const struct router_id *id, struct strbuf *b)
{
	char tok[TOKEN_SIZE], *link = NULL;
	const char *at = strchr(id->address, '@');
	int err = 0;

	if (gr->syzbot_id)
		err |= sb_addf(
			b, "   https://syzkaller.appspot.com/bug?extid=%s\n",
			gr->syzbot_id);
	else if ((link = archive_url(id->archive, gr->message_id)))
		err |= sb_addf(b, "   %s\n", link);
	free(link);
	/* without its key (printed) the digest still names the crashes */
	if (router_token(id, gr->reports[0], tok, sizeof(tok)) < 0)
		tok[0] = '\0';
	if (tok[0] && id->local[0] && at)
		err |= sb_addf(b, "   commands to %s+%lld-%s%s\n", id->local,
			       (long long)gr->reports[0], tok, at);
	return err ? -1 : 0;
}

static int compose_body(const struct digest_section *s,
			const struct router_id *id, struct strbuf *b)
{
	char t1[64], t2[64];
	size_t g, k;

	sb_addf(b, "Fuzzer digest for ");
	one_line(b, s->section);
	sb_addf(b, ": %zu report%s, %zu crash title%s", s->nreports,
		s->nreports == 1 ? "" : "s", s->ngroups,
		s->ngroups == 1 ? "" : "s");
	if (s->last_sent_at) {
		desk_format_time((time_t)s->last_sent_at, t1, sizeof(t1));
		sb_addf(b, " since the last digest (%s)", t1);
	}
	sb_adds(b, ".\n");
	for (g = 0; g < s->ngroups; g++) {
		const struct digest_group *gr = &s->groups[g];
		size_t before = b->len;

		if (g == DIGEST_MAX_GROUPS) {
			sb_addf(b, "\n... and %zu more crash titles.\n",
				s->ngroups - g);
			break;
		}
		sb_addf(b, "\n%zu. ", g + 1);
		if (!gr->has_title)
			sb_adds(b, "(no crash title) ");
		one_line(b, gr->title);
		desk_format_time((time_t)gr->first_seen, t1, sizeof(t1));
		desk_format_time((time_t)gr->last_seen, t2, sizeof(t2));
		if (gr->count == 1)
			sb_addf(b, "\n   1 report, %s\n   report ", t1);
		else
			sb_addf(b,
				"\n   %zu reports, first %s, last %s\n   reports ",
				gr->count, t1, t2);
		for (k = 0; k < gr->count && k < IDS_SHOWN; k++)
			sb_addf(b, "%s%lld", k ? ", " : "",
				(long long)gr->reports[k]);
		if (gr->count > IDS_SHOWN)
			sb_addf(b, " and %zu more", gr->count - IDS_SHOWN);
		sb_adds(b, "\n   e.g. \"");
		one_line(b, gr->subject);
		sb_adds(b, "\"\n   from ");
		one_line(b, gr->from);
		if (sb_addc(b, '\n') < 0 || where_to_read(gr, id, b) < 0) {
			/* full: say so in what still fits */
			sb_truncate(b, before);
			sb_addf(b, "\n... and %zu more crash titles.\n",
				s->ngroups - g);
			break;
		}
	}
	sb_addf(b,
		"\nTo act on a crash, mail its commands address (or reply to this\n"
		"mail, keeping its crash's lines) with one command per line:\n\n"
		"    #triage fixed COMMIT     the commit that fixed it\n"
		"    #triage fix-proposed URL a patch for it (its archive link)\n"
		"    #triage dup ID           the same crash as report ID\n"
		"    #triage invalid [WHY]    not a bug\n"
		"    #triage notme            not this section's: route it on\n"
		"\n-- \n"
		"Sent by triage, the bug-report router, once %s for the fuzzer\n"
		"reports of this section (action fuzzer digest %s).\n",
		s->period == 3600	 ? "an hour"
		: s->period == 7 * 86400 ? "a week"
					 : "a day",
		period_name(s->period));
	return 0;
}

/* digest_compose - the digest mail of one section */
int digest_compose(const struct digest_section *s, const struct router_id *id,
		   const char *to, time_t now, struct strbuf *out)
{
	struct strbuf body = STRBUF_INIT(DIGEST_MAX_BYTES - 8192);
	struct strbuf subject = STRBUF_INIT(1024);
	struct deliver_message m;
	struct deliver_header extra[2];
	const char *tos[2] = { to, NULL };
	char msgid[DELIVER_MSGID_MAX + 1], hex[SHA256_HEX_SIZE], count[64];
	int ret;

	sha256_hex(s->section, strlen(s->section), hex);
	snprintf(msgid, sizeof(msgid), "triage-digest.%lld.%.16s@%s",
		 (long long)now, hex, strchr(id->address, '@') + 1);
	sb_adds(&subject, "[fuzzer digest] ");
	one_line(&subject, s->section);
	sb_addf(&subject, ": %zu report%s, %zu crash title%s", s->nreports,
		s->nreports == 1 ? "" : "s", s->ngroups,
		s->ngroups == 1 ? "" : "s");
	if (compose_body(s, id, &body) < 0) {
		sb_release(&body);
		sb_release(&subject);
		return -1;
	}
	snprintf(count, sizeof(count), "%zu", s->nreports);
	extra[0].name = "X-Triage-Section";
	extra[0].value = s->section;
	extra[1].name = "X-Triage-Digest";
	extra[1].value = count;

	memset(&m, 0, sizeof(m));
	m.from_name = id->name;
	m.from_addr = id->address;
	m.to = tos;
	m.subject = sb_str(&subject);
	m.message_id = msgid;
	m.auto_submitted = DELIVER_AUTO_GENERATED;
	m.extra = extra;
	m.nextra = ARRAY_SIZE(extra);
	m.body = body.buf;
	m.body_len = body.len;
	m.date = now;
	ret = deliver_compose_message(&m, out);
	sb_release(&body);
	sb_release(&subject);
	return ret;
}

/* digest_recipient - the person (or list) a section's digest goes to */
int digest_recipient(struct audit *db, const struct config *cfg,
		     const struct map *map, const char *section, time_t now,
		     char *addr, size_t size)
{
	struct pick_config *pc;
	struct pick_request rq;
	struct pick_result res;
	struct pick_section ps;
	int sec, ret = -1;

	if (!map)
		return error(
			"no MAINTAINERS map: cannot find who gets the %s digest",
			section);
	sec = map_find_section(map, section);
	if (sec < 0)
		return error("no MAINTAINERS section '%s' for its digest",
			     section);
	pc = pick_config_load(cfg, NULL);
	ps.section = (uint32_t)sec;
	ps.score = 1;
	memset(&rq, 0, sizeof(rq));
	rq.map = map;
	rq.sections = &ps;
	rq.nsections = 1;
	rq.class = "fuzzer";
	rq.cfg = pc;
	rq.load = db ? audit_pick_load : NULL;
	rq.load_ctx = db;
	/* what people declared by mail ("#triage away", "cap") counts too */
	rq.person = db ? audit_pick_person : NULL;
	rq.now = now;
	if (pick_recipient(&rq, &res) < 0)
		ret = -2; /* a load unread: printed */
	else if ((res.outcome == PICK_PERSON || res.outcome == PICK_TO_LIST) &&
		 res.addr && strlen(res.addr) < size) {
		strcpy(addr, res.addr);
		ret = 0;
	} else {
		error("nobody to send the %s digest to: %s", section,
		      res.reason);
	}
	pick_result_release(&res);
	pick_config_free(pc);
	return ret;
}

/* send_one - queue one section's digest in its own transaction */
static int send_one(struct audit *db, const struct config *cfg,
		    const struct map *map, const struct router_id *rid,
		    const char *section, const char *who, time_t now,
		    bool force, void (*cb)(const struct digest_sent *, void *),
		    void *arg)
{
	struct digest d;
	struct digest_sent sent;
	struct strbuf msg = STRBUF_INIT(DIGEST_MAX_BYTES);
	struct audit_outbox_new m;
	char to[DELIVER_ADDR_MAX + 1], detail[DELIVER_ADDR_MAX + 64];
	size_t g, k;
	int rc, ret = -1;

	if (audit_begin(db) < 0)
		return -1;
	if (digest_collect(db, cfg, section, &d) < 0)
		goto rollback;
	memset(&sent, 0, sizeof(sent));
	if (!d.n) {
		audit_rollback(db);
		digest_release(&d);
		return 0;
	}
	sent.s = &d.v[0];
	sent.due = now >= d.v[0].due_at;
	if (!sent.due && !force) {
		sent.why = "not due yet";
		goto nothing;
	}
	rc = digest_recipient(db, cfg, map, section, now, to, sizeof(to));
	if (rc == -2)
		goto rollback;
	if (rc < 0) {
		sent.why = "nobody to send it to";
		goto nothing;
	}
	sent.to = to;
	if (digest_compose(&d.v[0], rid, to, now, &msg) < 0) {
		sent.why = "cannot compose the message";
		goto nothing;
	}
	memset(&m, 0, sizeof(m));
	m.kind = "digest";
	m.created_at = now;
	m.envelope_from = rid->bounce;
	m.recipients = to;
	m.message = msg.buf;
	m.message_len = msg.len;
	if (audit_outbox_enqueue(db, &m, &sent.outbox) < 0)
		goto rollback;
	snprintf(detail, sizeof(detail), "outbox %lld to %s",
		 (long long)sent.outbox, to);
	for (g = 0; g < d.v[0].ngroups; g++) {
		const struct digest_group *gr = &d.v[0].groups[g];

		for (k = 0; k < gr->count; k++) {
			struct audit_action a;

			memset(&a, 0, sizeof(a));
			a.report = gr->reports[k];
			a.at = now;
			a.who = who;
			a.action = "digest";
			a.argument = d.v[0].section;
			a.detail = detail;
			if (audit_record_action(db, &a, NULL) < 0)
				goto rollback;
		}
	}
	if (audit_digest_cursor_set(db, d.v[0].section, now) < 0 ||
	    audit_commit(db) < 0)
		goto rollback;
	if (cb)
		cb(&sent, arg);
	ret = 1;
	goto out;
nothing:
	audit_rollback(db);
	if (cb)
		cb(&sent, arg);
	ret = 0;
	goto out;
rollback:
	audit_rollback(db);
out:
	digest_release(&d);
	sb_release(&msg);
	return ret;
}

/* digest_enqueue_now - queue the digest of each section, due or not */
int digest_enqueue_now(struct audit *db, const struct config *cfg,
		       const struct map *map, const char *section,
		       const char *who, time_t now, bool force,
		       void (*cb)(const struct digest_sent *, void *),
		       void *arg)
{
	struct router_id rid;
	struct digest all;
	size_t i;
	int n = 0, rc;

	if (router_id_load(&rid, cfg) < 0)
		return -1;
	if (digest_collect(db, cfg, section, &all) < 0)
		return -1;
	for (i = 0; i < all.n; i++) {
		rc = send_one(db, cfg, map, &rid, all.v[i].section, who, now,
			      force, cb, arg);
		if (rc < 0) {
			n = -1;
			break;
		}
		n += rc;
	}
	digest_release(&all);
	return n;
}

/* digest_enqueue - queue the digest of each due section */
int digest_enqueue(struct audit *db, const struct config *cfg,
		   const struct map *map, const char *section, const char *who,
		   time_t now, void (*cb)(const struct digest_sent *, void *),
		   void *arg)
{
	return digest_enqueue_now(db, cfg, map, section, who, now, false, cb,
				  arg);
}

/* digest_enqueue_due - what the outbox worker calls on each round */
int digest_enqueue_due(struct audit *db, const struct config *cfg,
		       const struct map *map, time_t now)
{
	return digest_enqueue(db, cfg, map, NULL, "triage", now, NULL, NULL);
}

/* section_release - what a digest_section on the stack owns */
static void section_release(struct digest_section *s)
{
	struct digest d = { NULL, 0 };

	d.v = xmalloc(sizeof(*s));
	*d.v = *s;
	d.n = 1;
	digest_release(&d);
	memset(s, 0, sizeof(*s));
}

/*
 * recompose - the queued digest row `outbox` again, without the reports
 * that left it; cancelled when none is left
 */
static int recompose(struct audit *db, const struct config *cfg, int64_t outbox,
		     const char *section, int64_t created, const char *to,
		     struct digest_withdrawn *w)
{
	struct router_id rid;
	struct digest_section s;
	struct strbuf msg = STRBUF_INIT(DIGEST_MAX_BYTES);
	int64_t *ids = NULL;
	size_t n = 0, i;
	int rc, ret = -1;

	memset(&s, 0, sizeof(s));
	if (audit_digest_members(db, outbox, &ids, &n) < 0)
		return -1;
	w->left = n;
	if (!n) {
		rc = audit_outbox_cancel(db, outbox);
		w->cancelled = rc == 0;
		return rc < 0 ? -1 : 0;
	}
	s.section = xstrdup(section);
	s.period = period(cfg);
	if (router_id_load(&rid, cfg) < 0 ||
	    audit_digest_before(db, section, created, &s.last_sent_at) < 0)
		goto out;
	for (i = 0; i < n; i++) {
		struct audit_record rec;
		struct item x;

		rc = audit_get_report(db, ids[i], 0, &rec);
		if (rc < 0)
			goto out;
		if (!rc)
			continue;
		memset(&x, 0, sizeof(x));
		x.id = rec.id;
		x.received_at = rec.received_at;
		x.section = s.section;
		x.subject = (char *)(rec.subject ? rec.subject : "");
		x.from = (char *)(rec.from_display ? rec.from_display : "");
		rc = item_links(db, &x, &rec);
		if (!rc)
			add_to_group(&s, &x,
				     rec.evidence ? rec.evidence->title : NULL);
		free(x.message_id);
		free(x.syzbot_id);
		audit_record_release(&rec);
		if (rc < 0)
			goto out;
	}
	qsort(s.groups, s.ngroups, sizeof(*s.groups), cmp_group);
	if (digest_compose(&s, &rid, to, (time_t)created, &msg) < 0)
		goto out;
	rc = audit_outbox_set_message(db, outbox, msg.buf, msg.len);
	if (rc < 0)
		goto out;
	w->recomposed = rc == 0;
	ret = 0;
out:
	free(ids);
	section_release(&s);
	sb_release(&msg);
	return ret;
}

/* digest_withdraw - take a report out of the queued digest that lists it */
int digest_withdraw(struct audit *db, const struct config *cfg,
		    const struct audit_record *r, struct digest_withdrawn *w)
{
	size_t i;

	memset(w, 0, sizeof(*w));
	for (i = r->nactions; i-- > 0;) {
		const struct audit_action *a = &r->actions[i];
		char *state = NULL, *to = NULL;
		long long id;
		int64_t created;
		int rc;

		if (strcmp(a->action, "digest") || !a->detail ||
		    sscanf(a->detail, "outbox %lld to ", &id) != 1 || id <= 0)
			continue;
		rc = audit_digest_row(db, id, &state, &created, &to);
		if (rc < 0)
			return -1;
		w->outbox = id;
		if (rc == 1 && !strcmp(state, "queued"))
			rc = recompose(db, cfg, id,
				       a->argument ? a->argument : "", created,
				       to, w);
		else
			w->sent = rc == 1 && strcmp(state, "cancelled");
		free(state);
		free(to);
		return rc < 0 ? -1 : 1;
	}
	return 0;
}
