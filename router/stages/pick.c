// SPDX-License-Identifier: GPL-2.0-only
/*
 * pick - one right person for a report (see pick.h)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "config.h"
#include "evidence.h"
#include "experts.h"
#include "map.h"
#include "pick.h"
#include "strbuf.h"
#include "util.h"

#define REASON_MAX 2048

/* ---- configuration ----------------------------------------------------- */

static const char *const class_names[] = { "user", "fuzzer", "ai",
					   "uncertain" };

/* pick_class_bits - PICK_CLASS_* for a class name; 0 when unknown */
unsigned pick_class_bits(const char *class)
{
	size_t i;

	if (!class)
		return 0;
	for (i = 0; i < ARRAY_SIZE(class_names); i++)
		if (strcasecmp(class, class_names[i]) == 0)
			return 1u << i;
	return 0;
}

/* parse_day - "YYYY-MM-DD" to its local midnight; -1 when invalid */
static int parse_day(const char *s, time_t *out, int add_days)
{
	struct tm tm;
	int y, m, d;
	char extra;

	if (strlen(s) != 10 ||
	    sscanf(s, "%4d-%2d-%2d%c", &y, &m, &d, &extra) != 3 || y < 1970 ||
	    y > 9999 || m < 1 || m > 12 || d < 1 || d > 31)
		return -1;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = y - 1900;
	tm.tm_mon = m - 1;
	tm.tm_mday = d;
	tm.tm_isdst = -1;
	if (mktime(&tm) == (time_t)-1 || tm.tm_mday != d)
		return -1; /* 2026-02-31 */
	tm.tm_mday = d + add_days;
	tm.tm_hour = 0;
	tm.tm_min = 0;
	tm.tm_sec = 0;
	tm.tm_isdst = -1;
	*out = mktime(&tm);
	return *out == (time_t)-1 ? -1 : 0;
}

static bool bare_addr(const char *s, char *out, size_t outsz)
{
	return !strchr(s, '<') &&
	       experts_parse_addr(s, out, outsz, NULL, 0) == 0 &&
	       strcasecmp(s, out) == 0;
}

static void load_roster(struct pick_config *pc, const struct config_record *r,
			const struct map *map)
{
	struct pick_roster ro;
	int i;

	if (r->argc < 2) {
		warn("%s:%u: roster needs a section title and addresses",
		     r->file, r->line);
		return;
	}
	if (map && map_find_section(map, r->argv[0]) < 0) {
		warn("%s:%u: roster: no MAINTAINERS section '%s'; ignored",
		     r->file, r->line, r->argv[0]);
		return;
	}
	memset(&ro, 0, sizeof(ro));
	ro.section = xstrdup(r->argv[0]);
	ro.classes = PICK_CLASS_ALL;
	ro.file = r->file;
	ro.line = r->line;
	ro.addrs = xcalloc((size_t)r->argc, sizeof(*ro.addrs));
	for (i = 1; i < r->argc; i++) {
		char addr[EXPERTS_ADDR_MAX + 1];

		if (starts_with(r->argv[i], "class=")) {
			char *copy = xstrdup(r->argv[i] + 6), *save = NULL, *t;

			ro.classes = 0;
			for (t = strtok_r(copy, ",", &save); t;
			     t = strtok_r(NULL, ",", &save)) {
				unsigned bit = pick_class_bits(t);

				if (!bit)
					warn("%s:%u: roster: unknown class '%s' (user, fuzzer, ai, uncertain)",
					     r->file, r->line, t);
				ro.classes |= bit;
			}
			free(copy);
			continue;
		}
		if (!bare_addr(r->argv[i], addr, sizeof(addr))) {
			warn("%s:%u: roster: '%s' is not an address; ignored",
			     r->file, r->line, r->argv[i]);
			continue;
		}
		ro.addrs[ro.naddrs++] = xstrdup(addr);
	}
	if (!ro.naddrs || !ro.classes) {
		warn("%s:%u: roster for '%s' has no usable %s; ignored",
		     r->file, r->line, ro.section,
		     ro.naddrs ? "class" : "address");
		free(ro.section);
		for (i = 0; i < (int)ro.naddrs; i++)
			free(ro.addrs[i]);
		free(ro.addrs);
		return;
	}
	pc->rosters = xreallocarray(pc->rosters, pc->nrosters + 1,
				    sizeof(*pc->rosters));
	pc->rosters[pc->nrosters++] = ro;
}

static void load_cap(struct pick_config *pc, const struct config_record *r)
{
	struct pick_cap cap = { NULL, PICK_UNLIMITED, PICK_UNLIMITED };
	char addr[EXPERTS_ADDR_MAX + 1];
	int i;

	if (r->argc < 2) {
		warn("%s:%u: cap needs an address (or *) and day=N or week=N",
		     r->file, r->line);
		return;
	}
	if (strcmp(r->argv[0], "*") != 0 &&
	    !bare_addr(r->argv[0], addr, sizeof(addr))) {
		warn("%s:%u: cap: '%s' is not an address; ignored", r->file,
		     r->line, r->argv[0]);
		return;
	}
	for (i = 1; i < r->argc; i++) {
		const char *a = r->argv[i];
		unsigned long n;
		int *slot = starts_with(a, "day=")    ? &cap.day
			    : starts_with(a, "week=") ? &cap.week
						      : NULL;

		if (!slot || parse_ulong(strchr(a, '=') + 1, &n) < 0 ||
		    n > 100000) {
			warn("%s:%u: cap: '%s' is not day=N or week=N; ignored",
			     r->file, r->line, a);
			continue;
		}
		*slot = (int)n;
	}
	if (strcmp(r->argv[0], "*") == 0) {
		if (cap.day != PICK_UNLIMITED)
			pc->def.day = cap.day;
		if (cap.week != PICK_UNLIMITED)
			pc->def.week = cap.week;
		return;
	}
	cap.addr = xstrdup(addr);
	pc->caps = xreallocarray(pc->caps, pc->ncaps + 1, sizeof(*pc->caps));
	pc->caps[pc->ncaps++] = cap;
}

static void load_away(struct pick_config *pc, const struct config_record *r)
{
	struct pick_away aw;
	char addr[EXPERTS_ADDR_MAX + 1];

	if (r->argc != 3) {
		warn("%s:%u: away needs an address, a first and a last day (YYYY-MM-DD)",
		     r->file, r->line);
		return;
	}
	if (!bare_addr(r->argv[0], addr, sizeof(addr))) {
		warn("%s:%u: away: '%s' is not an address; ignored", r->file,
		     r->line, r->argv[0]);
		return;
	}
	if (parse_day(r->argv[1], &aw.from, 0) < 0 ||
	    parse_day(r->argv[2], &aw.until, 1) < 0 || aw.until <= aw.from) {
		warn("%s:%u: away: '%s %s' is not a range of days YYYY-MM-DD YYYY-MM-DD; ignored",
		     r->file, r->line, r->argv[1], r->argv[2]);
		return;
	}
	aw.addr = xstrdup(addr);
	snprintf(aw.to, sizeof(aw.to), "%s", r->argv[2]);
	pc->aways =
		xreallocarray(pc->aways, pc->naways + 1, sizeof(*pc->aways));
	pc->aways[pc->naways++] = aw;
}

/*
 * pick_config_load - the roster, cap and away records and the pick
 * settings of routes.conf; map (may be NULL) validates section titles
 */
struct pick_config *pick_config_load(const struct config *cfg,
				     const struct map *map)
{
	struct pick_config *pc = xcalloc(1, sizeof(*pc));
	size_t i;

	pc->def.addr = NULL;
	pc->def.day = PICK_UNLIMITED;
	pc->def.week = PICK_UNLIMITED;
	pc->expert_min_score = config_number(cfg, "experts_min_score");
	if (!cfg)
		return pc;
	for (i = 0; i < cfg->nrec; i++) {
		const struct config_record *r = &cfg->rec[i];

		if (r->setting)
			continue;
		if (strcmp(r->name, "roster") == 0)
			load_roster(pc, r, map);
		else if (strcmp(r->name, "cap") == 0)
			load_cap(pc, r);
		else if (strcmp(r->name, "away") == 0)
			load_away(pc, r);
	}
	return pc;
}

/* pick_config_free - free a configuration (NULL is fine) */
void pick_config_free(struct pick_config *pc)
{
	size_t i, j;

	if (!pc)
		return;
	for (i = 0; i < pc->nrosters; i++) {
		for (j = 0; j < pc->rosters[i].naddrs; j++)
			free(pc->rosters[i].addrs[j]);
		free(pc->rosters[i].addrs);
		free(pc->rosters[i].section);
	}
	free(pc->rosters);
	for (i = 0; i < pc->ncaps; i++)
		free(pc->caps[i].addr);
	free(pc->caps);
	for (i = 0; i < pc->naways; i++)
		free(pc->aways[i].addr);
	free(pc->aways);
	free(pc);
}

/* ---- names ------------------------------------------------------------- */

/* pick_role_name - "roster", "triager", "expert", ... for display */
const char *pick_role_name(enum pick_role role)
{
	static const char *const n[] = {
		[PICK_ROSTER] = "roster",     [PICK_TRIAGER] = "triager",
		[PICK_EXPERT] = "expert",     [PICK_MAINTAINER] = "maintainer",
		[PICK_REVIEWER] = "reviewer", [PICK_LIST] = "list",
	};

	return (unsigned)role < ARRAY_SIZE(n) ? n[role] : "?";
}

/* pick_status_name - "chosen", "saturated", "away", ... for display */
const char *pick_status_name(enum pick_status status)
{
	static const char *const n[] = {
		[PICK_UNCHECKED] = "not needed",
		[PICK_AVAILABLE] = "available",
		[PICK_CHOSEN] = "chosen",
		[PICK_SATURATED] = "saturated",
		[PICK_AWAY] = "away",
		[PICK_DECLINED] = "declined",
		[PICK_REPORTER] = "reporter",
		[PICK_SUGGESTED] = "suggested",
	};

	return (unsigned)status < ARRAY_SIZE(n) ? n[status] : "?";
}

/* pick_outcome_name - "person", "list", "unmapped", "nobody" */
const char *pick_outcome_name(enum pick_outcome outcome)
{
	static const char *const n[] = {
		[PICK_PERSON] = "person",
		[PICK_TO_LIST] = "list",
		[PICK_UNMAPPED] = "unmapped",
		[PICK_NOBODY] = "nobody",
	};

	return (unsigned)outcome < ARRAY_SIZE(n) ? n[outcome] : "?";
}

/* ---- the stage --------------------------------------------------------- */

struct pick_state {
	const struct pick_request *rq;
	struct pick_result *res;
	size_t alloc;
	char reporter[EXPERTS_ADDR_MAX + 1];
	unsigned class_bits;
	time_t now, day_start, week_start;
	/* tiers that had no candidate at all, for the reason */
	bool no_triager, no_expert;
	bool experts_done;
	bool load_failed; /* rq->load failed: the pick fails */
};

static bool is_catchall(const struct map *map, uint32_t sec)
{
	return strcasecmp(map_title(map, sec), "THE REST") == 0;
}

static void cand_init(struct pick_candidate *c, const char *addr,
		      const char *name, enum pick_role role, int section,
		      char *why)
{
	memset(c, 0, sizeof(*c));
	c->addr = xstrdup(addr);
	c->name = xstrdup(name);
	c->role = role;
	c->section = section;
	c->cap_day = PICK_UNLIMITED;
	c->cap_week = PICK_UNLIMITED;
	c->status = PICK_UNCHECKED;
	c->why = why;
}

/*
 * add_cand - a new candidate, or NULL when the address is already one
 * (or is not a valid address)
 */
static struct pick_candidate *add_cand(struct pick_state *st, const char *text,
				       const char *name_given,
				       enum pick_role role, int section,
				       double score, char *why)
{
	struct pick_result *res = st->res;
	char addr[EXPERTS_ADDR_MAX + 1], name[EXPERTS_NAME_MAX];
	struct pick_candidate *c;
	size_t i;

	if (experts_parse_addr(text, addr, sizeof(addr), name, sizeof(name)) <
	    0) {
		free(why);
		return NULL;
	}
	for (i = 0; i < res->ncand; i++)
		if (strcmp(res->cand[i].addr, addr) == 0) {
			free(why);
			return NULL;
		}
	ALLOC_GROW(res->cand, res->ncand, st->alloc);
	c = &res->cand[res->ncand++];
	cand_init(c, addr, name_given ? name_given : name, role, section, why);
	c->score = score;
	return c;
}

/*
 * pick_suggest - after the pick, addr becomes a suggested candidate for
 * the reason why (a triager may choose it); when addr is a candidate
 * already, why is put before its reason
 */
void pick_suggest(struct pick_result *res, const char *addr, const char *why)
{
	struct pick_candidate *c;
	char *old;
	size_t i;

	for (i = 0; i < res->ncand; i++) {
		if (strcasecmp(res->cand[i].addr, addr))
			continue;
		c = &res->cand[i];
		old = c->why;
		c->why = xasprintf("%s; %s", why, old ? old : "");
		free(old);
		return;
	}
	res->cand = xrealloc(res->cand, (res->ncand + 1) * sizeof(*c));
	c = &res->cand[res->ncand++];
	cand_init(c, addr, "", PICK_EXPERT, -1, xstrdup(why));
	c->status = PICK_SUGGESTED;
}

static const struct pick_away *away_for(const struct pick_config *pc,
					const char *addr, time_t now)
{
	size_t i;

	for (i = 0; pc && i < pc->naways; i++)
		if (strcmp(pc->aways[i].addr, addr) == 0 &&
		    now >= pc->aways[i].from && now < pc->aways[i].until)
			return &pc->aways[i];
	return NULL;
}

static void caps_for(const struct pick_config *pc, const char *addr, int *day,
		     int *week)
{
	size_t i;

	*day = pc ? pc->def.day : PICK_UNLIMITED;
	*week = pc ? pc->def.week : PICK_UNLIMITED;
	/* The last record for the person wins, field by field. */
	for (i = 0; pc && i < pc->ncaps; i++) {
		if (strcmp(pc->caps[i].addr, addr) != 0)
			continue;
		if (pc->caps[i].day != PICK_UNLIMITED)
			*day = pc->caps[i].day;
		if (pc->caps[i].week != PICK_UNLIMITED)
			*week = pc->caps[i].week;
	}
}

/* declined - addr gave this report back */
static bool declined(const struct pick_request *rq, const char *addr)
{
	size_t i;

	for (i = 0; i < rq->ndeclined; i++)
		if (rq->declined[i] && !strcasecmp(rq->declined[i], addr))
			return true;
	return false;
}

/* evaluate - is the candidate available? */
static void evaluate(struct pick_state *st, struct pick_candidate *c)
{
	const struct pick_request *rq = st->rq;
	time_t away = 0;
	int cap_day = PICK_UNLIMITED;

	if (*st->reporter && strcmp(c->addr, st->reporter) == 0) {
		c->status = PICK_REPORTER;
		return;
	}
	if (c->role == PICK_LIST) {
		c->status = PICK_AVAILABLE;
		return;
	}
	if (declined(rq, c->addr)) {
		c->status = PICK_DECLINED;
		return;
	}
	if (away_for(rq->cfg, c->addr, st->now)) {
		c->status = PICK_AWAY;
		return;
	}
	caps_for(rq->cfg, c->addr, &c->cap_day, &c->cap_week);
	if (rq->person &&
	    (st->load_failed ||
	     rq->person(rq->load_ctx, c->addr, &away, &cap_day) < 0)) {
		st->load_failed = true;
		c->status = PICK_UNCHECKED;
		return;
	}
	if (rq->person && away && st->now < away) {
		c->status = PICK_AWAY;
		return;
	}
	if (rq->person && cap_day != PICK_UNLIMITED && cap_day >= 0 &&
	    (c->cap_day == PICK_UNLIMITED || cap_day < c->cap_day))
		c->cap_day = cap_day;
	if (rq->load && (st->load_failed ||
			 rq->load(rq->load_ctx, c->addr, st->day_start,
				  st->week_start, &c->day, &c->week) < 0)) {
		/* unknown is not zero: nobody is available, the pick fails */
		st->load_failed = true;
		c->status = PICK_UNCHECKED;
		return;
	}
	if ((c->cap_day != PICK_UNLIMITED && c->day >= (unsigned)c->cap_day) ||
	    (c->cap_week != PICK_UNLIMITED && c->week >= (unsigned)c->cap_week))
		c->status = PICK_SATURATED;
	else
		c->status = PICK_AVAILABLE;
}

static double load_ratio(const struct pick_candidate *c)
{
	double r = 0;

	if (c->cap_day > 0)
		r = (double)c->day / c->cap_day;
	if (c->cap_week > 0 && (double)c->week / c->cap_week > r)
		r = (double)c->week / c->cap_week;
	return r;
}

/* less_loaded - does a carry less load than b? */
static bool less_loaded(const struct pick_candidate *a,
			const struct pick_candidate *b)
{
	double ra = load_ratio(a), rb = load_ratio(b);

	if (ra != rb)
		return ra < rb;
	if (a->day != b->day)
		return a->day < b->day;
	return a->week < b->week;
}

/*
 * choose - evaluate the tier's candidates [from, to) and pick one:
 * the first eligible when available and prefer_first, else the least
 * loaded available; -1 when none is available
 */
static long choose(struct pick_state *st, size_t from, size_t to,
		   bool prefer_first)
{
	struct pick_candidate *cand = st->res->cand;
	long best = -1;
	size_t i;
	bool first = true;

	for (i = from; i < to; i++)
		evaluate(st, &cand[i]);
	for (i = from; i < to; i++) {
		if (cand[i].status == PICK_REPORTER)
			continue;
		if (first && prefer_first && cand[i].status == PICK_AVAILABLE)
			return (long)i;
		first = false;
		if (cand[i].status != PICK_AVAILABLE)
			continue;
		if (best < 0 || less_loaded(&cand[i], &cand[best]))
			best = (long)i;
	}
	return best;
}

/* ---- reasons ----------------------------------------------------------- */

static void add_load(struct strbuf *sb, const struct pick_candidate *c)
{
	if (c->cap_day != PICK_UNLIMITED)
		sb_addf(sb, "%u/%d today", c->day, c->cap_day);
	else
		sb_addf(sb, "%u today", c->day);
	if (c->cap_week != PICK_UNLIMITED)
		sb_addf(sb, ", %u/%d this week", c->week, c->cap_week);
}

static void add_note(struct pick_state *st, struct strbuf *sb,
		     const struct pick_candidate *c)
{
	const struct pick_away *aw;

	switch (c->status) {
	case PICK_SATURATED:
		if (c->cap_day != PICK_UNLIMITED &&
		    c->day >= (unsigned)c->cap_day)
			sb_addf(sb, "; %s saturated %u/%d today", c->addr,
				c->day, c->cap_day);
		else
			sb_addf(sb, "; %s saturated %u/%d this week", c->addr,
				c->week, c->cap_week);
		break;
	case PICK_AWAY:
		aw = away_for(st->rq->cfg, c->addr, st->now);
		if (aw)
			sb_addf(sb, "; %s away until %s", c->addr, aw->to);
		else /* declared by mail ("#triage away") */
			sb_addf(sb, "; %s away (said by mail)", c->addr);
		break;
	case PICK_DECLINED:
		sb_addf(sb, "; %s gave it back", c->addr);
		break;
	case PICK_REPORTER:
		sb_addf(sb, "; %s is the reporter", c->addr);
		break;
	default:
		break;
	}
}

/* notes - the unavailable people ranked before the choice */
static void add_notes(struct pick_state *st, struct strbuf *sb, size_t upto)
{
	size_t i, shown = 0, more = 0;

	for (i = 0; i < upto; i++) {
		const struct pick_candidate *c = &st->res->cand[i];

		if (c->status != PICK_SATURATED && c->status != PICK_AWAY &&
		    c->status != PICK_REPORTER && c->status != PICK_DECLINED)
			continue;
		if (shown < PICK_REASON_NOTES) {
			add_note(st, sb, c);
			shown++;
		} else {
			more++;
		}
	}
	if (more)
		sb_addf(sb, "; %zu more unavailable", more);
}

/* add_missing - the tiers that had nobody at all, for M:/R: and L: */
static void add_missing(struct pick_state *st, struct strbuf *sb,
			enum pick_role role)
{
	if (role == PICK_LIST) {
		sb_adds(sb, st->res->list_why == PICK_LIST_NO_PERSON
				    ? " (the section names no person)"
			    : st->res->list_why == PICK_LIST_REPORTER
				    ? " (no person but the reporter)"
				    : " (no person available)");
		return;
	}
	if (role != PICK_MAINTAINER && role != PICK_REVIEWER)
		return;
	if (st->no_triager && st->no_expert)
		sb_adds(sb, " (no triager, no expert)");
	else if (st->no_triager)
		sb_adds(sb, " (no triager)");
	else if (st->no_expert)
		sb_adds(sb, " (no expert)");
}

static void expert_counts(struct strbuf *sb, const struct expert *e)
{
	static const char *const what[EXPERTS_NKINDS] = { "review", "ack",
							  "sign-off",
							  "commit authored" };
	int k;

	for (k = 0; k < EXPERTS_NKINDS; k++)
		if (e->count[k])
			sb_addf(sb, ", %u %s%s", e->count[k], what[k],
				e->count[k] == 1 ? "" : "s");
}

/* ---- tiers ------------------------------------------------------------- */

struct group {
	size_t first, n; /* indexes into the request's sections */
};

static void tier_roster(struct pick_state *st, const struct group *g)
{
	const struct pick_request *rq = st->rq;
	size_t i, j, k;

	for (i = g->first; i < g->first + g->n; i++) {
		uint32_t sec = rq->sections[i].section;
		const char *title = map_title(rq->map, sec);

		for (j = 0; rq->cfg && j < rq->cfg->nrosters; j++) {
			const struct pick_roster *ro = &rq->cfg->rosters[j];

			if (strcasecmp(ro->section, title) != 0 ||
			    (ro->classes != PICK_CLASS_ALL &&
			     !(ro->classes & st->class_bits)))
				continue;
			for (k = 0; k < ro->naddrs; k++)
				add_cand(st, ro->addrs[k], NULL, PICK_ROSTER,
					 (int)sec, 0,
					 xasprintf("roster for %s", title));
		}
	}
}

/* section_list - the value of sec's L: entry for addr, or NULL */
static const char *section_list(const struct map *map, uint32_t sec,
				const char *addr)
{
	uint32_t i, n = map_nentries(map, sec);
	char a[EXPERTS_ADDR_MAX + 1];

	for (i = 0; i < n; i++)
		if (map_entry_tag(map, sec, i) == 'L' &&
		    experts_parse_addr(map_entry_value(map, sec, i), a,
				       sizeof(a), NULL, 0) == 0 &&
		    strcmp(a, addr) == 0)
			return map_entry_value(map, sec, i);
	return NULL;
}

static void tier_bmailto(struct pick_state *st, const struct group *g)
{
	const struct pick_request *rq = st->rq;
	size_t i;
	uint32_t k;

	for (i = g->first; i < g->first + g->n; i++) {
		uint32_t sec = rq->sections[i].section;
		const char *title = map_title(rq->map, sec);

		for (k = 0; k < map_nentries(rq->map, sec); k++) {
			const char *v = map_entry_value(rq->map, sec, k);
			struct pick_candidate *c;

			if (map_entry_tag(rq->map, sec, k) != 'B' ||
			    !starts_with_ci(v, "mailto:"))
				continue;
			c = add_cand(
				st, v, NULL, PICK_TRIAGER, (int)sec, 0,
				xasprintf("B: mailto: triager for %s", title));
			/* A list named as the triager is not a person. */
			if (c && section_list(rq->map, sec, c->addr))
				c->role = PICK_LIST;
		}
	}
}

static void tier_maintainers(struct pick_state *st, const struct group *g)
{
	const struct pick_request *rq = st->rq;
	static const char tags[] = { 'M', 'R' };
	size_t t, i;
	uint32_t k;

	for (t = 0; t < ARRAY_SIZE(tags); t++)
		for (i = g->first; i < g->first + g->n; i++) {
			uint32_t sec = rq->sections[i].section;
			const char *title = map_title(rq->map, sec);

			for (k = 0; k < map_nentries(rq->map, sec); k++)
				if (map_entry_tag(rq->map, sec, k) == tags[t])
					add_cand(st,
						 map_entry_value(rq->map, sec,
								 k),
						 NULL,
						 t ? PICK_REVIEWER
						   : PICK_MAINTAINER,
						 (int)sec, 0,
						 xasprintf("%c: of %s", tags[t],
							   title));
		}
}

static void tier_lists(struct pick_state *st, const struct group *g)
{
	const struct pick_request *rq = st->rq;
	size_t i;
	uint32_t k;

	for (i = g->first; i < g->first + g->n; i++) {
		uint32_t sec = rq->sections[i].section;
		const char *title = map_title(rq->map, sec);

		for (k = 0; k < map_nentries(rq->map, sec); k++)
			if (map_entry_tag(rq->map, sec, k) == 'L')
				add_cand(st, map_entry_value(rq->map, sec, k),
					 NULL, PICK_LIST, (int)sec, 0,
					 xasprintf("L: of %s", title));
	}
}

/* expert_files - the guilty file, then files[], without repeats */
static size_t expert_files(const struct evidence *ev, const char **files,
			   size_t max)
{
	size_t n = 0, i, j;

	if (!ev)
		return 0;
	if (ev->guilty_file && *ev->guilty_file)
		files[n++] = ev->guilty_file;
	for (i = 0; i < ev->nfiles && n < max; i++) {
		bool dup = false;

		if (!ev->files[i] || !*ev->files[i])
			continue;
		for (j = 0; j < n; j++)
			dup |= strcmp(files[j], ev->files[i]) == 0;
		if (!dup)
			files[n++] = ev->files[i];
	}
	return n;
}

/*
 * inside_section - whether an expert's path (a file, or a directory
 * "dir/") lies in the top section's F: patterns: experts_for_path()
 * climbs to the nearest directory with history, and one found above
 * the section (drivers/) knows another part of the tree
 */
static bool inside_section(const struct pick_request *rq, const char *path)
{
	struct map_hit hits[MAP_MAX_HITS];
	char *p;
	size_t n, i;

	if (!rq->map || !rq->nsections)
		return true;
	p = ends_with(path, "/") ? xasprintf("%sx", path) : xstrdup(path);
	n = map_lookup(rq->map, p, hits, ARRAY_SIZE(hits));
	free(p);
	for (i = 0; i < n; i++)
		if (hits[i].section == rq->sections[0].section)
			return true;
	return false;
}

/* tier_experts - the top experts of the first file that has some */
static size_t tier_experts(struct pick_state *st, const char **file)
{
	const struct pick_request *rq = st->rq;
	const char *files[PICK_FILES];
	size_t nf, i, j, n, nfound = 0;

	*file = NULL;
	if (!rq->ex)
		return 0;
	nf = expert_files(rq->ev, files, PICK_FILES);
	for (i = 0; i < nf; i++) {
		struct expert e[PICK_EXPERTS];

		n = experts_for_path(rq->ex, files[i], e, ARRAY_SIZE(e));
		for (j = 0; j < n; j++) {
			struct strbuf why = STRBUF_INIT(REASON_MAX);

			if (e[j].score <
			    (rq->cfg ? rq->cfg->expert_min_score : 1.0))
				break;
			if (!inside_section(rq, e[j].path)) {
				sb_release(&why);
				continue;
			}
			if (nfound == 0)
				sb_addf(&why, "top Reviewed-by expert for ");
			else
				sb_addf(&why, "Reviewed-by expert #%zu for ",
					nfound + 1);
			if (strcmp(e[j].path, files[i]) == 0)
				sb_adds(&why, files[i]);
			else
				sb_addf(&why, "%s (nearest to %s)", e[j].path,
					files[i]);
			sb_addf(&why, " (score %.1f", e[j].score);
			expert_counts(&why, &e[j]);
			sb_adds(&why, ")");
			if (add_cand(st, e[j].addr, e[j].name, PICK_EXPERT, -1,
				     e[j].score, sb_detach(&why, NULL)))
				nfound++;
		}
		if (nfound) {
			*file = files[i];
			return nfound;
		}
	}
	return 0;
}

/*
 * list_why - why the pick ends on the list cand[idx] (pick.h), and the
 * annotation of its L: line: the people ranked before it were passed
 * over (saturated, away, gave it back), were only the reporter, or there
 * were none; a B: mailto: naming the list asks for reports there
 */
static void list_why(struct pick_state *st, long idx)
{
	struct pick_result *res = st->res;
	const struct pick_candidate *c = &res->cand[idx];
	const char *l, *note;
	bool passed = false, reporter = false;
	long i;

	for (i = 0; i < idx; i++) {
		if (res->cand[i].role == PICK_LIST)
			continue;
		if (res->cand[i].status == PICK_REPORTER)
			reporter = true;
		else
			passed = true;
	}
	res->list_why = passed			    ? PICK_LIST_PASSED
			: starts_with(c->why, "B:") ? PICK_LIST_ASKED
			: reporter		    ? PICK_LIST_REPORTER
						    : PICK_LIST_NO_PERSON;
	l = c->section >= 0
		    ? section_list(st->rq->map, (uint32_t)c->section, c->addr)
		    : NULL;
	note = l ? strchr(l, '(') : NULL;
	res->list_note = note ? xstrdup(note) : NULL;
}

/* finish - record the choice and its reason */
static void finish(struct pick_state *st, long idx, int section)
{
	struct pick_result *res = st->res;
	struct pick_candidate *c = &res->cand[idx];
	struct strbuf sb = STRBUF_INIT(REASON_MAX);

	c->status = PICK_CHOSEN;
	res->addr = xstrdup(c->addr);
	res->name = xstrdup(c->name);
	res->section = c->section >= 0 ? c->section : section;
	if (c->role == PICK_LIST)
		list_why(st, idx);
	if (c->role == PICK_LIST && starts_with(c->why, "B:")) {
		/* B: mailto: naming the section's own list */
		res->outcome = PICK_TO_LIST;
		sb_addf(&sb, "%s (%s, a list)", c->why, c->addr);
	} else if (c->role == PICK_LIST) {
		res->outcome = PICK_TO_LIST;
		sb_addf(&sb, "L: %s", c->addr);
		add_missing(st, &sb, c->role);
	} else {
		res->outcome = PICK_PERSON;
		sb_adds(&sb, c->why);
		add_missing(st, &sb, c->role);
	}
	if (c->role == PICK_ROSTER || c->role == PICK_TRIAGER) {
		sb_addf(&sb, "; %s at ", c->addr);
		add_load(&sb, c);
	}
	add_notes(st, &sb, (size_t)idx);
	res->reason = sb_detach(&sb, NULL);
}

static void set_bug_url(struct pick_state *st)
{
	const struct pick_request *rq = st->rq;
	struct pick_result *res = st->res;
	uint32_t k, sec;

	if (res->section < 0)
		return;
	sec = (uint32_t)res->section;
	for (k = 0; k < map_nentries(rq->map, sec); k++) {
		const char *v = map_entry_value(rq->map, sec, k);

		if (map_entry_tag(rq->map, sec, k) == 'B' &&
		    !starts_with_ci(v, "mailto:")) {
			res->bug_url = xstrdup(v);
			return;
		}
	}
}

static void local_midnights(struct pick_state *st)
{
	struct tm tm;

	localtime_r(&st->now, &tm);
	tm.tm_hour = 0;
	tm.tm_min = 0;
	tm.tm_sec = 0;
	tm.tm_isdst = -1;
	st->day_start = mktime(&tm);
	localtime_r(&st->now, &tm);
	tm.tm_hour = 0;
	tm.tm_min = 0;
	tm.tm_sec = 0;
	tm.tm_mday -= 6;
	tm.tm_isdst = -1;
	st->week_start = mktime(&tm);
}

static void unmapped(struct pick_state *st, bool rest)
{
	struct pick_result *res = st->res;
	struct strbuf sb = STRBUF_INIT(REASON_MAX);
	const char *file;
	size_t i, k;

	res->outcome = PICK_UNMAPPED;
	tier_experts(st, &file);
	sb_adds(&sb, rest ? "unmapped: only THE REST"
			  : "unmapped: no MAINTAINERS section");
	for (i = 0, k = 0; i < res->ncand; i++) {
		struct pick_candidate *c = &res->cand[i];

		if (*st->reporter && strcmp(c->addr, st->reporter) == 0) {
			c->status = PICK_REPORTER;
			continue;
		}
		c->status = PICK_SUGGESTED;
		if (!k++)
			sb_addf(&sb, "; experts for %s:", file);
		sb_addf(&sb, "%s %s", k > 1 ? "," : "", c->addr);
	}
	res->reason = sb_detach(&sb, NULL);
}

/* walk - the tiers of st's request, in pick.h's order, to a result */
static void walk(struct pick_state *st)
{
	const struct pick_request *rq = st->rq;
	struct pick_result *res = st->res;
	struct group *groups;
	size_t ngroups = 0, i, g;
	bool rest = false;

	/* Groups of equal score, THE REST left out. */
	groups = xcalloc(rq->nsections + 1, sizeof(*groups));
	for (i = 0; rq->map && i < rq->nsections; i++) {
		const struct pick_section *s = &rq->sections[i];

		if (s->section >= map_nsections(rq->map))
			continue;
		if (is_catchall(rq->map, s->section)) {
			rest = true;
			continue;
		}
		if (ngroups &&
		    fabs(rq->sections[groups[ngroups - 1].first].score -
			 s->score) < 1e-9 &&
		    groups[ngroups - 1].first + groups[ngroups - 1].n == i) {
			groups[ngroups - 1].n++;
			continue;
		}
		groups[ngroups].first = i;
		groups[ngroups++].n = 1;
	}
	if (!ngroups) {
		unmapped(st, rest);
		free(groups);
		return;
	}

	for (g = 0; g < ngroups; g++) {
		const struct group *gr = &groups[g];
		int sec = (int)rq->sections[gr->first].section;
		size_t from;
		long c;

		from = res->ncand;
		tier_roster(st, gr);
		if (res->ncand > from &&
		    (c = choose(st, from, res->ncand, false)) >= 0)
			goto chosen;
		st->no_triager = res->ncand == from;
		from = res->ncand;
		tier_bmailto(st, gr);
		if (res->ncand > from) {
			st->no_triager = false;
			if ((c = choose(st, from, res->ncand, true)) >= 0)
				goto chosen;
		}
		if (g == 0) {
			const char *file;

			from = res->ncand;
			tier_experts(st, &file);
			st->experts_done = true;
			st->no_expert = res->ncand == from;
			if (res->ncand > from &&
			    (c = choose(st, from, res->ncand, true)) >= 0)
				goto chosen;
		}
		from = res->ncand;
		tier_maintainers(st, gr);
		if (res->ncand > from &&
		    (c = choose(st, from, res->ncand, true)) >= 0)
			goto chosen;
		from = res->ncand;
		tier_lists(st, gr);
		if (res->ncand > from &&
		    (c = choose(st, from, res->ncand, true)) >= 0)
			goto chosen;
		continue;
chosen:
		finish(st, c, sec);
		/* Show what the lower tiers would have offered. */
		if (g == 0) {
			if (!st->experts_done) {
				const char *file;

				tier_experts(st, &file);
			}
			tier_maintainers(st, gr);
			tier_lists(st, gr);
		}
		set_bug_url(st);
		free(groups);
		return;
	}
	{
		struct strbuf sb = STRBUF_INIT(REASON_MAX);

		res->outcome = PICK_NOBODY;
		res->section = (int)rq->sections[groups[0].first].section;
		sb_addf(&sb, "nobody available for %s and no list",
			map_title(rq->map, (uint32_t)res->section));
		add_notes(st, &sb, res->ncand);
		res->reason = sb_detach(&sb, NULL);
		set_bug_url(st);
	}
	free(groups);
}

/*
 * pick_recipient - the recipient of a report, the reason and every
 * candidate considered (pick.h gives the order)
 */
int pick_recipient(const struct pick_request *rq, struct pick_result *res)
{
	struct pick_state st;

	memset(res, 0, sizeof(*res));
	res->section = -1;
	memset(&st, 0, sizeof(st));
	st.rq = rq;
	st.res = res;
	st.now = rq->now ? rq->now : time(NULL);
	st.class_bits = pick_class_bits(rq->class);
	local_midnights(&st);
	if (rq->reporter &&
	    experts_parse_addr(rq->reporter, st.reporter, sizeof(st.reporter),
			       NULL, 0) < 0)
		st.reporter[0] = '\0';
	walk(&st);
	if (!st.load_failed)
		return 0;
	pick_result_release(res);
	res->outcome = PICK_NOBODY;
	res->reason = xstrdup("the candidates' loads cannot be read");
	return -1;
}

/* pick_result_release - free a result's strings and candidates */
void pick_result_release(struct pick_result *res)
{
	size_t i;

	for (i = 0; i < res->ncand; i++) {
		free(res->cand[i].addr);
		free(res->cand[i].name);
		free(res->cand[i].why);
	}
	free(res->cand);
	free(res->addr);
	free(res->name);
	free(res->reason);
	free(res->bug_url);
	free(res->list_note);
	memset(res, 0, sizeof(*res));
	res->section = -1;
}
