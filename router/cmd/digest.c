// SPDX-License-Identifier: GPL-2.0-only
/*
 * triage digest - what the next fuzzer digests hold; --send queues them
 *
 * DESCRIPTION
 *	triage digest [--section SECTION] [--send [--now]] [--json]
 *		      [--color[=WHEN]] [--no-color] [--no-pager]
 *
 *	For each MAINTAINERS section with fuzzer reports waiting for a
 *	digest (digest.h), one block: the section, how many reports and
 *	crash titles, who would get it, when it is due; then one entry
 *	per crash title, most reports first, with the count, first and
 *	last seen, the report ids and one representative subject.
 *
 *	--send queues the digest of every section that is due (one mail
 *	each, one transaction each: the outbox row, a "digest" action per
 *	report and the section's cursor), as the outbox worker does on
 *	its own, and says what it did; with 'transport = sendmail' the
 *	mail is sent at once.  --json prints an array with one object per
 *	section (with --send, each says "queued": the outbox id or null).
 *	--send --now queues every section's digest at once, due or not
 *	(the next one is due a period later).  SECTION is a title in any
 *	case or a part of one (cmd_find_section()); an unknown or
 *	ambiguous one is EX_DATAERR.
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
#include "deliver.h"
#include "desk.h"
#include "digest.h"
#include "map.h"
#include "strbuf.h"
#include "util.h"

#define IDS_SHOWN 20

struct dg {
	struct audit *db;
	const struct config *cfg;
	struct map *map;
	const struct desk_term *t;
	time_t now;
	bool json;
	json_t *array;
	unsigned queued;
	struct strbuf sb;
};

static const char *clean(struct dg *g, const char *s)
{
	sb_reset(&g->sb);
	desk_clean(&g->sb, s, strlen(s), 0);
	return sb_str(&g->sb);
}

static const char *period_name(unsigned p)
{
	return p == 3600 ? "hourly" : p == 7 * 86400 ? "weekly" : "daily";
}

static json_t *section_json(const struct digest_section *s, const char *to,
			    time_t now)
{
	json_t *o = json_object(), *groups = json_array();
	size_t i, k;

	for (i = 0; i < s->ngroups; i++) {
		const struct digest_group *gr = &s->groups[i];
		json_t *go = json_object(), *ids = json_array();

		for (k = 0; k < gr->count; k++)
			json_array_append_new(ids,
					      json_integer(gr->reports[k]));
		json_object_set_new(go, "title", json_string(gr->title));
		json_object_set_new(go, "has_title",
				    json_boolean(gr->has_title));
		json_object_set_new(go, "count",
				    json_integer((json_int_t)gr->count));
		json_object_set_new(go, "first_seen",
				    json_integer(gr->first_seen));
		json_object_set_new(go, "last_seen",
				    json_integer(gr->last_seen));
		json_object_set_new(go, "reports", ids);
		json_object_set_new(go, "subject", json_string(gr->subject));
		json_object_set_new(go, "from", json_string(gr->from));
		json_array_append_new(groups, go);
	}
	json_object_set_new(o, "section", json_string(s->section));
	json_object_set_new(o, "recipient", to ? json_string(to) : json_null());
	json_object_set_new(o, "period", json_string(period_name(s->period)));
	json_object_set_new(o, "last_sent_at",
			    s->last_sent_at ? json_integer(s->last_sent_at)
					    : json_null());
	json_object_set_new(o, "due_at", json_integer(s->due_at));
	json_object_set_new(o, "due", json_boolean(now >= s->due_at));
	json_object_set_new(o, "reports",
			    json_integer((json_int_t)s->nreports));
	json_object_set_new(o, "groups", groups);
	return o;
}

static void print_section(struct dg *g, const struct digest_section *s,
			  const char *to)
{
	const struct desk_term *t = g->t;
	char ts[64], t2[64], age[32];
	size_t i, k;

	printf("%s%s%s", desk_color(t, DESK_BOLD), clean(g, s->section),
	       desk_reset(t));
	printf(": %zu report%s, %zu crash title%s, to %s\n", s->nreports,
	       s->nreports == 1 ? "" : "s", s->ngroups,
	       s->ngroups == 1 ? "" : "s", to ? to : "(nobody)");
	desk_format_time((time_t)s->due_at, ts, sizeof(ts));
	if (g->now >= s->due_at) {
		printf("  %sdue now%s", desk_color(t, DESK_GREEN),
		       desk_reset(t));
	} else {
		desk_format_age((time_t)s->due_at - g->now, age, sizeof(age));
		printf("  due %s (in %s)", ts, age);
	}
	if (s->last_sent_at) {
		desk_format_time((time_t)s->last_sent_at, t2, sizeof(t2));
		printf("; %s, last digest %s\n", period_name(s->period), t2);
	} else {
		printf("; %s, first digest\n", period_name(s->period));
	}
	for (i = 0; i < s->ngroups; i++) {
		const struct digest_group *gr = &s->groups[i];

		printf("%5zu  %s%s%s%s\n", gr->count,
		       desk_color(t, DESK_YELLOW),
		       gr->has_title ? "" : "(no crash title) ",
		       clean(g, gr->title), desk_reset(t));
		desk_format_time((time_t)gr->first_seen, ts, sizeof(ts));
		desk_format_time((time_t)gr->last_seen, t2, sizeof(t2));
		if (gr->count == 1)
			printf("       seen %s; report", ts);
		else
			printf("       first %s, last %s; reports", ts, t2);
		for (k = 0; k < gr->count && k < IDS_SHOWN; k++)
			printf("%s%lld", k ? ", " : " ",
			       (long long)gr->reports[k]);
		if (gr->count > IDS_SHOWN)
			printf(" and %zu more", gr->count - IDS_SHOWN);
		printf("\n       %s\n", clean(g, gr->subject));
	}
}

static void show_all(struct dg *g, const struct digest *d)
{
	char to[DELIVER_ADDR_MAX + 1];
	size_t i;

	for (i = 0; i < d->n; i++) {
		const struct digest_section *s = &d->v[i];
		bool found = digest_recipient(g->db, g->cfg, g->map, s->section,
					      g->now, to, sizeof(to)) == 0;

		if (g->json) {
			json_array_append_new(
				g->array,
				section_json(s, found ? to : NULL, g->now));
			continue;
		}
		if (i)
			putchar('\n');
		print_section(g, s, found ? to : NULL);
	}
}

static void sent_one(const struct digest_sent *d, void *arg)
{
	struct dg *g = arg;

	if (d->outbox)
		g->queued++;
	if (g->json) {
		json_t *o = section_json(d->s, d->to, g->now);

		json_object_set_new(o, "queued",
				    d->outbox ? json_integer(d->outbox)
					      : json_null());
		json_object_set_new(o, "why",
				    d->why ? json_string(d->why) : json_null());
		json_array_append_new(g->array, o);
		return;
	}
	if (d->outbox) {
		printf("digest %s: %zu report%s to %s (outbox %lld)\n",
		       clean(g, d->s->section), d->s->nreports,
		       d->s->nreports == 1 ? "" : "s", d->to,
		       (long long)d->outbox);
	} else {
		char ts[64];

		desk_format_time((time_t)d->s->due_at, ts, sizeof(ts));
		printf("digest %s: %zu report%s, not sent: %s%s%s%s\n",
		       clean(g, d->s->section), d->s->nreports,
		       d->s->nreports == 1 ? "" : "s", d->why,
		       d->due ? "" : "; due ", d->due ? "" : ts,
		       d->due ? ""
			      : " ('triage digest --send --now' sends it now)");
	}
}

/* cmd_digest - show, or queue, the next fuzzer digests */
int cmd_digest(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const char *const usage[] = { "triage digest [OPTIONS]", NULL };
	struct cmd_output view = CMD_OUTPUT_INIT;
	const char *section = NULL;
	bool send = false, now = false;
	const struct opt opts[] = {
		OPT_STRING(0, "section", &section, "SECTION",
			   "only the digest of a MAINTAINERS section"),
		OPT_BOOL(0, "send", &send, "queue the digests that are due"),
		OPT_BOOL(0, "now", &now,
			 "with --send: queue them now, due or not"),
		OPT_CMD_OUTPUT(&view),
		OPT_END(),
	};
	struct desk_term term;
	struct digest d;
	struct dg g;
	char who[DESK_LOGIN_MAX + 1];
	int ret, n;

	memset(&g, 0, sizeof(g));
	if (parse_options(argc, argv, opts, usage, 0))
		usage_with_options(usage, opts);
	if (now && !send) {
		error("--now goes with --send: 'triage digest --send --now'");
		return EX_USAGE;
	}
	g.json = view.json;
	g.cfg = cmd_config(ctx);
	g.now = desk_now();
	if (send && desk_who(who, sizeof(who)) < 0)
		return EX_CONFIG;
	ret = desk_open(g.cfg, send ? DESK_WRITE : DESK_READ, &g.db);
	if (ret)
		return ret;
	g.map = cmd_open_map(ctx, NULL, NULL, NULL);
	if (g.map && section) {
		int sec = cmd_find_section(g.map, section);

		if (sec < 0) {
			map_free(g.map);
			audit_close(g.db);
			return EX_DATAERR;
		}
		section = map_title(g.map, (uint32_t)sec);
	}
	sb_init(&g.sb, 64 * 1024);
	if (g.json)
		g.array = json_array();
	memset(&term, 0, sizeof(term));
	if (!g.json)
		cmd_term_setup(&term, &view, !send);
	g.t = &term;

	if (send) {
		n = digest_enqueue_now(g.db, g.cfg, g.map, section, who, g.now,
				       now, sent_one, &g);
		if (n < 0)
			ret = desk_busy(g.db,
					"digests not queued yet stay waiting");
		else
			desk_drain(g.cfg, g.db, g.queued,
				   g.json ? NULL : stdout);
	} else if (digest_collect(g.db, g.cfg, section, &d) < 0) {
		ret = EX_IOERR;
	} else {
		show_all(&g, &d);
		digest_release(&d);
	}
	if (g.json) {
		cmd_print_json(g.array);
	} else {
		desk_term_finish(&term);
	}
	sb_release(&g.sb);
	map_free(g.map);
	audit_close(g.db);
	return ret;
}
