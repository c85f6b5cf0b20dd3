// SPDX-License-Identifier: GPL-2.0-only
/*
 * triage stats - how many reports of what went where, and how fast
 *
 * DESCRIPTION
 *	triage stats [--since SPEC] [--json] [--color[=WHEN]] [--no-color]
 *	triage stats --people [--json]
 *
 *	Figures over the reports received since SPEC (Nh, Nd, Nw,
 *	YYYY-MM-DD or all; default 7d): how many were received and how
 *	many wait now, the median time from arrival to a triager's first
 *	approve, reroute or reject, delivery attempts and failures, and
 *	counts per class, state and best section; then, per recipient,
 *	the reports forwarded to them since SPEC, today and this week
 *	(since local midnight six days ago, as the pick stage counts)
 *	next to their cap (routes.conf "cap"), which shows the
 *	burnout-aware spreading at work.
 *
 *	--json prints one object: since, reports, pending, resolved,
 *	median_pending (seconds or null), by_class, by_state, by_section
 *	(objects name -> count, most first), recipients [{address, since,
 *	today, week, cap_day, cap_week}] and delivery {attempts, failures,
 *	outbox_failed, outbox_queued} and webhook {events, waiting,
 *	failed} (Bugzilla events received since SPEC; now waiting for a
 *	fetch again, given up on).
 *
 *	--people shows, for everyone who may get reports (a roster, cap
 *	or away line in routes.conf) or got some in the last four weeks,
 *	the forwards today, this week and in each of the three weeks
 *	before (weeks as the pick stage counts them), the caps, the next
 *	or current away dates and a status: "over cap", "at cap", "away"
 *	or "ok" (a person over a cap was given reports by hand: approve
 *	--to, reroute to an address).  --json: {"people": [{address,
 *	today, week, weeks [4], cap_day, cap_week, away {from, to, now}
 *	or null, status}]}.  Cancelled forwards count for nobody (here:
 *	the pick stage's caps still count them, store/desk.c).  What a
 *	person declared by mail ("#triage away", "#triage cap";
 *	triage-mail(7)) counts as the pick counts it: the smaller day cap,
 *	and away until the day given ("until DAY (mail)"; in JSON, away
 *	{from: null, to, now: true}).
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sysexits.h>

#include "audit.h"
#include "cmd.h"
#include "config.h"
#include "desk.h"
#include "pick.h"
#include "strbuf.h"
#include "util.h"

struct person {
	char *addr;
	long since, today, week;
	int cap_day, cap_week;
};

struct people {
	struct person *v;
	size_t n, alloc;
	int which; /* 0 since, 1 today, 2 week */
};

static struct person *person(struct people *p, const char *addr)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (!strcasecmp(p->v[i].addr, addr))
			return &p->v[i];
	ALLOC_GROW(p->v, p->n, p->alloc);
	memset(&p->v[p->n], 0, sizeof(p->v[0]));
	p->v[p->n].addr = xstrdup(addr);
	return &p->v[p->n++];
}

static int count_load(const char *recipient, long count, void *arg)
{
	struct people *p = arg;
	struct person *x = person(p, recipient);

	if (p->which == 1)
		x->today = count;
	else
		x->week = count;
	return 0;
}

static void caps(const struct pick_config *pc, struct person *x)
{
	size_t i;

	x->cap_day = pc ? pc->def.day : PICK_UNLIMITED;
	x->cap_week = pc ? pc->def.week : PICK_UNLIMITED;
	for (i = 0; pc && i < pc->ncaps; i++) {
		if (strcasecmp(pc->caps[i].addr, x->addr))
			continue;
		if (pc->caps[i].day != PICK_UNLIMITED)
			x->cap_day = pc->caps[i].day;
		if (pc->caps[i].week != PICK_UNLIMITED)
			x->cap_week = pc->caps[i].week;
	}
}

static int cmp_person(const void *a, const void *b)
{
	const struct person *x = a, *y = b;

	if (x->since != y->since)
		return x->since > y->since ? -1 : 1;
	if (x->week != y->week)
		return x->week > y->week ? -1 : 1;
	return strcmp(x->addr, y->addr);
}

static json_t *counts_json(const struct audit_count *v, size_t n)
{
	json_t *o = json_object();
	size_t i;

	for (i = 0; i < n; i++)
		json_object_set_new(o, v[i].name, json_integer(v[i].count));
	return o;
}

static json_t *cap_json(int cap)
{
	return cap == PICK_UNLIMITED ? json_null() : json_integer(cap);
}

static json_t *to_json(const struct audit_stats *st, const struct people *p)
{
	json_t *o = json_object(), *rc = json_array();
	size_t i;

	for (i = 0; i < p->n; i++)
		json_array_append_new(
			rc, json_pack("{s:s, s:I, s:I, s:I, s:o, s:o}",
				      "address", p->v[i].addr, "since",
				      (json_int_t)p->v[i].since, "today",
				      (json_int_t)p->v[i].today, "week",
				      (json_int_t)p->v[i].week, "cap_day",
				      cap_json(p->v[i].cap_day), "cap_week",
				      cap_json(p->v[i].cap_week)));
	json_object_set_new(o, "since", json_integer(st->since));
	json_object_set_new(o, "reports", json_integer(st->reports));
	json_object_set_new(o, "pending", json_integer(st->pending));
	json_object_set_new(o, "resolved", json_integer(st->resolved));
	json_object_set_new(o, "median_pending",
			    st->median_pending < 0
				    ? json_null()
				    : json_real(st->median_pending));
	json_object_set_new(o, "by_kind",
			    counts_json(st->by_kind, st->nby_kind));
	json_object_set_new(o, "by_class",
			    counts_json(st->by_class, st->nby_class));
	json_object_set_new(o, "by_state",
			    counts_json(st->by_state, st->nby_state));
	json_object_set_new(o, "by_section",
			    counts_json(st->by_section, st->nby_section));
	json_object_set_new(o, "recipients", rc);
	json_object_set_new(o, "webhook",
			    json_pack("{s:I, s:I, s:I}", "events",
				      (json_int_t)st->events, "waiting",
				      (json_int_t)st->events_waiting, "failed",
				      (json_int_t)st->events_failed));
	json_object_set_new(
		o, "delivery",
		json_pack("{s:I, s:I, s:I, s:I}", "attempts",
			  (json_int_t)st->delivery_attempts, "failures",
			  (json_int_t)st->delivery_failures, "outbox_failed",
			  (json_int_t)st->outbox_failed, "outbox_queued",
			  (json_int_t)st->outbox_queued));
	return o;
}

static void print_counts(const struct desk_term *t, const char *title,
			 const struct audit_count *v, size_t n, bool classes)
{
	struct strbuf sb = STRBUF_INIT(4096);
	size_t i;

	printf("\n%s%s%s\n", desk_color(t, DESK_BOLD), title, desk_reset(t));
	for (i = 0; i < n; i++) {
		sb_reset(&sb);
		desk_clean(&sb, v[i].name, strlen(v[i].name), 0);
		printf("%6ld  %s%s%s\n", v[i].count,
		       desk_color(t,
				  classes ? desk_class_color(v[i].name) : ""),
		       sb_str(&sb), desk_reset(t));
	}
	sb_release(&sb);
}

static void cap_text(char *buf, size_t size, int cap)
{
	if (cap == PICK_UNLIMITED)
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%d", cap);
}

static void print_text(const struct desk_term *t, const struct audit_stats *st,
		       const struct people *p, const char *since_text)
{
	char age[32], cd[16], cw[16];
	size_t i, w = 20;

	printf("%sreports since %s%s\n", desk_color(t, DESK_BOLD), since_text,
	       desk_reset(t));
	printf("%6ld  received\n", st->reports);
	printf("%6ld  waiting now (triage pending)\n", st->pending);
	if (st->median_pending >= 0) {
		desk_format_age((time_t)st->median_pending, age, sizeof(age));
		printf("%6s  median time until a triager acted (%ld report%s)\n",
		       age, st->resolved, st->resolved == 1 ? "" : "s");
	}
	printf("%6ld  delivery attempts, %ld failed; outbox: %ld failed, %ld queued\n",
	       st->delivery_attempts, st->delivery_failures, st->outbox_failed,
	       st->outbox_queued);
	if (st->events || st->events_waiting || st->events_failed)
		printf("%6ld  Bugzilla events; now %ld waiting for a fetch again, %ld given up (triage pending)\n",
		       st->events, st->events_waiting, st->events_failed);
	print_counts(t, "by kind", st->by_kind, st->nby_kind, false);
	print_counts(t, "by class", st->by_class, st->nby_class, true);
	print_counts(t, "by state", st->by_state, st->nby_state, false);
	print_counts(t, "by section", st->by_section, st->nby_section, false);
	if (!p->n)
		return;
	for (i = 0; i < p->n; i++)
		if (strlen(p->v[i].addr) > w)
			w = strlen(p->v[i].addr);
	printf("\n%s%-*s  %6s  %5s  %4s  %7s%s\n", desk_color(t, DESK_BOLD),
	       (int)w, "by recipient", "since", "today", "week", "cap d/w",
	       desk_reset(t));
	for (i = 0; i < p->n; i++) {
		const struct person *x = &p->v[i];
		bool full = (x->cap_day != PICK_UNLIMITED &&
			     x->today >= x->cap_day) ||
			    (x->cap_week != PICK_UNLIMITED &&
			     x->week >= x->cap_week);

		cap_text(cd, sizeof(cd), x->cap_day);
		cap_text(cw, sizeof(cw), x->cap_week);
		printf("%-*s  %6ld  %s%5ld  %4ld%s  %3s/%s\n", (int)w, x->addr,
		       x->since, desk_color(t, full ? DESK_RED : ""), x->today,
		       x->week, desk_reset(t), cd, cw);
	}
}

/* ---- --people: each person's load against caps and away dates ----------- */

#define WEEKS 4 /* weeks shown, this one first */

struct load {
	char *addr;
	long today, week[WEEKS];
	int cap_day, cap_week;
	const struct pick_away *away; /* covering today, else the next one */
	bool away_now;
	time_t mail_away; /* "#triage away": back at this time, or 0 */
	int mail_cap;	  /* "#triage cap": a day, or -1 */
	const char *status;
};

struct loads {
	struct load *v;
	size_t n, alloc;
	int slot; /* -1: today, else the week counted into */
	const struct pick_config *pc;
};

static struct load *load_of(struct loads *l, const char *addr)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (!strcasecmp(l->v[i].addr, addr))
			return &l->v[i];
	ALLOC_GROW(l->v, l->n, l->alloc);
	memset(&l->v[l->n], 0, sizeof(l->v[0]));
	l->v[l->n].addr = xstrdup(addr);
	l->v[l->n].mail_cap = -1;
	return &l->v[l->n++];
}

/* cumulative counts: week[k] holds those since the start of week k */
static int count_into(const char *recipient, long count, void *arg)
{
	struct loads *l = arg;
	struct load *x = load_of(l, recipient);

	if (l->slot < 0)
		x->today = count;
	else
		x->week[l->slot] = count;
	return 0;
}

static int cmp_load(const void *a, const void *b)
{
	const struct load *x = a, *y = b;

	if (x->week[0] != y->week[0])
		return x->week[0] > y->week[0] ? -1 : 1;
	return strcasecmp(x->addr, y->addr);
}

/* finish_load - caps, away dates and a verdict for one person */
static void finish_load(const struct pick_config *pc, struct load *x,
			time_t now)
{
	struct person cp;
	size_t i;

	memset(&cp, 0, sizeof(cp));
	cp.addr = x->addr;
	caps(pc, &cp);
	x->cap_day = cp.cap_day;
	x->cap_week = cp.cap_week;
	/* declared by mail: the smaller day cap holds, as in the pick */
	if (x->mail_cap >= 0 &&
	    (x->cap_day == PICK_UNLIMITED || x->mail_cap < x->cap_day))
		x->cap_day = x->mail_cap;
	if (x->mail_away && x->mail_away > now)
		x->away_now = true;
	else
		x->mail_away = 0;
	for (i = 0; pc && i < pc->naways; i++) {
		const struct pick_away *a = &pc->aways[i];

		if (strcasecmp(a->addr, x->addr) || a->until <= now ||
		    x->mail_away)
			continue;
		if (now >= a->from) {
			x->away = a;
			x->away_now = true;
			break;
		}
		if (!x->away || a->from < x->away->from)
			x->away = a;
	}
	if (x->away_now)
		x->status = "away";
	else if ((x->cap_day != PICK_UNLIMITED && x->today > x->cap_day) ||
		 (x->cap_week != PICK_UNLIMITED && x->week[0] > x->cap_week))
		x->status = "over cap";
	else if ((x->cap_day != PICK_UNLIMITED && x->today >= x->cap_day) ||
		 (x->cap_week != PICK_UNLIMITED && x->week[0] >= x->cap_week))
		x->status = "at cap";
	else
		x->status = "ok";
}

/* declared - a person's "#triage away" and "#triage cap" */
static int declared(const char *addr, time_t away_until, int cap_day, void *arg)
{
	struct load *x = load_of(arg, addr);

	x->mail_away = away_until;
	x->mail_cap = cap_day;
	return 0;
}

/*
 * collect_loads - everyone who may get reports (rosters, caps, away
 * dates) and everyone who got some in the last WEEKS weeks
 */
static int collect_loads(struct audit *db, const struct pick_config *pc,
			 time_t now, struct loads *l)
{
	size_t i, k;
	int w;

	for (i = 0; pc && i < pc->nrosters; i++)
		for (k = 0; k < pc->rosters[i].naddrs; k++)
			load_of(l, pc->rosters[i].addrs[k]);
	for (i = 0; pc && i < pc->ncaps; i++)
		if (strcmp(pc->caps[i].addr, "*"))
			load_of(l, pc->caps[i].addr);
	for (i = 0; pc && i < pc->naways; i++)
		load_of(l, pc->aways[i].addr);
	l->slot = -1;
	if (audit_people_all(db, declared, l) < 0 ||
	    audit_load_all(db, desk_midnight(now, 0), count_into, l) < 0)
		return -1;
	/* a week as the pick stage counts it: since midnight six days ago */
	for (w = 0; w < WEEKS; w++) {
		l->slot = w;
		if (audit_load_all(db, desk_midnight(now, 7 * w + 6),
				   count_into, l) < 0)
			return -1;
	}
	for (i = 0; i < l->n; i++) {
		for (w = WEEKS - 1; w > 0; w--)
			l->v[i].week[w] -= l->v[i].week[w - 1];
		finish_load(pc, &l->v[i], now);
	}
	if (l->n)
		qsort(l->v, l->n, sizeof(*l->v), cmp_load);
	return 0;
}

static void loads_release(struct loads *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i].addr);
	free(l->v);
}

/* mail_day - the last day away of one back at t (a local midnight) */
static void mail_day(time_t t, char *buf, size_t size)
{
	struct tm tm;

	t -= 12 * 3600; /* the day before, whatever its length */
	localtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%d", &tm);
}

static json_t *away_json(const struct load *x)
{
	char from[16];
	struct tm tm;

	if (x->mail_away) {
		mail_day(x->mail_away, from, sizeof(from));
		return json_pack("{s:n, s:s, s:b}", "from", "to", from, "now",
				 1);
	}
	if (!x->away)
		return json_null();
	localtime_r(&x->away->from, &tm);
	strftime(from, sizeof(from), "%Y-%m-%d", &tm);
	return json_pack("{s:s, s:s, s:b}", "from", from, "to", x->away->to,
			 "now", x->away_now);
}

static json_t *loads_json(const struct loads *l)
{
	json_t *a = json_array();
	size_t i;
	int w;

	for (i = 0; i < l->n; i++) {
		const struct load *x = &l->v[i];
		json_t *weeks = json_array();

		for (w = 0; w < WEEKS; w++)
			json_array_append_new(weeks, json_integer(x->week[w]));
		json_array_append_new(
			a, json_pack("{s:s, s:I, s:I, s:o, s:o, s:o, s:o, s:s}",
				     "address", x->addr, "today",
				     (json_int_t)x->today, "week",
				     (json_int_t)x->week[0], "weeks", weeks,
				     "cap_day", cap_json(x->cap_day),
				     "cap_week", cap_json(x->cap_week), "away",
				     away_json(x), "status", x->status));
	}
	return json_pack("{s:o}", "people", a);
}

static void print_loads(const struct desk_term *t, const struct loads *l)
{
	char cd[16], cw[16], prev[64], away[48], from[16];
	size_t i, w = 6;
	struct tm tm;

	for (i = 0; i < l->n; i++)
		if (desk_width(l->v[i].addr) > w)
			w = desk_width(l->v[i].addr);
	printf("%s%-*s  %5s  %4s  %7s  %-11s  %-8s  %s%s\n",
	       desk_color(t, DESK_BOLD), (int)w, "PERSON", "TODAY", "WEEK",
	       "CAP D/W", "WEEKS BEFORE", "STATUS", "AWAY", desk_reset(t));
	for (i = 0; i < l->n; i++) {
		const struct load *x = &l->v[i];
		const char *color = !strcmp(x->status, "ok")	 ? ""
				    : !strcmp(x->status, "away") ? DESK_DIM
								 : DESK_RED;

		cap_text(cd, sizeof(cd), x->cap_day);
		cap_text(cw, sizeof(cw), x->cap_week);
		snprintf(prev, sizeof(prev), "%ld %ld %ld", x->week[1],
			 x->week[2], x->week[3]);
		away[0] = '\0';
		if (x->mail_away) {
			mail_day(x->mail_away, from, sizeof(from));
			snprintf(away, sizeof(away), "until %s (mail)", from);
		} else if (x->away && x->away_now) {
			snprintf(away, sizeof(away), "until %s", x->away->to);
		} else if (x->away) {
			localtime_r(&x->away->from, &tm);
			strftime(from, sizeof(from), "%Y-%m-%d", &tm);
			snprintf(away, sizeof(away), "%s to %s", from,
				 x->away->to);
		}
		printf("%-*s  %5ld  %4ld  %3s/%-3s  %-12s  %s%-*s%s%s%s\n",
		       (int)w, x->addr, x->today, x->week[0], cd, cw, prev,
		       desk_color(t, color), *away ? 8 : 0, x->status,
		       desk_reset(t), *away ? "  " : "", away);
	}
	if (!l->n)
		printf("nobody: no roster, cap or away line in routes.conf, and no forward in %d weeks\n",
		       WEEKS);
}

/* stats_people - triage stats --people */
static int stats_people(struct config *cfg, const struct cmd_output *view)
{
	struct loads l;
	struct pick_config *pc;
	struct desk_term term;
	struct audit *db;
	time_t now = desk_now();
	int ret;

	memset(&l, 0, sizeof(l));
	ret = desk_open(cfg, DESK_READ, &db);
	if (ret)
		return ret;
	pc = pick_config_load(cfg, NULL);
	if (collect_loads(db, pc, now, &l) < 0) {
		ret = EX_IOERR;
	} else if (view->json) {
		cmd_print_json(loads_json(&l));
	} else {
		cmd_term_setup(&term, view, false);
		print_loads(&term, &l);
		desk_term_finish(&term);
	}
	loads_release(&l);
	pick_config_free(pc);
	audit_close(db);
	return ret;
}

/* cmd_stats - figures per class, section, recipient */
int cmd_stats(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const char *const usage[] = { "triage stats [OPTIONS]", NULL };
	struct cmd_output view = CMD_OUTPUT_INIT;
	const char *spec = "7d";
	bool people = false;
	const struct opt opts[] = {
		OPT_STRING(
			0, "since", &spec, "SPEC",
			"from Nh, Nd (7d: the default), Nw ago, YYYY-MM-DD or all"),
		OPT_BOOL(
			0, "people", &people,
			"each person's load: today, this week and the weeks before against their caps, and away dates"),
		OPT_CMD_JSON(&view),
		OPT_CMD_COLOR(&view),
		OPT_END(),
	};
	struct config *cfg;
	struct people p = { NULL, 0, 0, 0 };
	struct pick_config *pc;
	struct audit_stats st;
	struct desk_term term;
	struct audit *db;
	time_t now = desk_now(), since;
	char since_text[96], ts[64];
	size_t i;
	int ret;

	if (parse_options(argc, argv, opts, usage, 0))
		usage_with_options(usage, opts);
	if (cmd_parse_since(spec, now, &since) < 0)
		return EX_USAGE;
	cfg = cmd_config(ctx);
	if (people)
		return stats_people(cfg, &view);
	ret = desk_open(cfg, DESK_READ, &db);
	if (ret)
		return ret;
	if (audit_stats(db, since, &st) < 0) {
		audit_close(db);
		return EX_IOERR;
	}
	for (i = 0; i < st.nby_recipient; i++)
		person(&p, st.by_recipient[i].name)->since =
			st.by_recipient[i].count;
	p.which = 1;
	if (audit_load_all(db, desk_midnight(now, 0), count_load, &p) < 0)
		ret = EX_IOERR;
	p.which = 2;
	if (!ret &&
	    audit_load_all(db, desk_midnight(now, 6), count_load, &p) < 0)
		ret = EX_IOERR;
	pc = pick_config_load(cfg, NULL);
	for (i = 0; i < p.n; i++)
		caps(pc, &p.v[i]);
	pick_config_free(pc);
	if (p.n)
		qsort(p.v, p.n, sizeof(*p.v), cmp_person);

	if (ret) {
		/* the query printed why */
	} else if (view.json) {
		cmd_print_json(to_json(&st, &p));
	} else {
		desk_format_time(since, ts, sizeof(ts));
		if (since)
			snprintf(since_text, sizeof(since_text), "%s (%s)", ts,
				 spec);
		else
			snprintf(since_text, sizeof(since_text),
				 "the beginning");
		cmd_term_setup(&term, &view, false);
		print_text(&term, &st, &p, since_text);
		desk_term_finish(&term);
	}
	for (i = 0; i < p.n; i++)
		free(p.v[i].addr);
	free(p.v);
	audit_stats_release(&st);
	audit_close(db);
	return ret;
}
