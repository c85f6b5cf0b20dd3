// SPDX-License-Identifier: GPL-2.0-only
/*
 * triage bugzilla - poll a Bugzilla for changed bugs; the ingest worker
 *
 * DESCRIPTION
 *	triage bugzilla poll [--url URL] [--product P]... [--component C]...
 *	                     [--since TIME] [--limit N] [--max-pages N]
 *
 *	Upstream Bugzilla (bugzilla.kernel.org) sends no webhooks, so this
 *	asks its REST API which bugs changed since the last poll:
 *	GET /rest/bug?include_fields=id,last_change_time&last_change_time=
 *	TIME&product=P&component=C&order=changeddate,bug_id&limit=N&offset=K,
 *	page by page in a stable order (small pages: N defaults to 50).
 *	Each bug not recorded yet is stored as
 *	an event (bugzilla_events, webhook_id 0, routing key "poll",
 *	event_time its last_change_time), exactly as 'triage serve' stores
 *	a webhook, and then every due event is handled as serve handles
 *	them (ingest_next()): the bug and its first comment are fetched,
 *	the pipeline runs, and the decision, the report, the bug and any
 *	mail are recorded in one transaction.  A bug recorded before
 *	(by a webhook, a poll or earlier run) never gives a second report:
 *	only its last_change_time is updated.  So polls may overlap and be
 *	run again after any failure.  A private bug (is_private, or in a
 *	group) or a private description is recorded but held, not mailed,
 *	unless bugzilla_forward_private = yes.
 *
 *	The cursor: after a complete poll, the newest last_change_time
 *	seen is kept in the bugs table under a reserved negative bug id
 *	derived from the URL, products and components (so different
 *	queries keep different cursors), and the next poll starts there
 *	(Bugzilla's last_change_time means "at or after": the bugs at the
 *	cursor come again and are skipped).  Server times are used, never
 *	the local clock.  --since TIME overrides it: an absolute time as
 *	Bugzilla writes it (2024-05-01T00:00:00Z) or a relative one (2d,
 *	12h, 30m).  Without either the first poll looks back 24 hours.
 *	A poll stopped by --max-pages (default 100) keeps the old cursor.
 *
 *	Exit: 0; 75 (EX_TEMPFAIL) when Bugzilla or the database failed
 *	for a reason that may pass (nothing is lost: run it again);
 *	69 (EX_UNAVAILABLE) when Bugzilla refused the query (bad key,
 *	unknown product); 78 for a bad configuration.
 *
 *	The ingest worker (cmd.h) is shared with 'triage serve'.
 */
#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sysexits.h>
#include <time.h>
#include <unistd.h>

#include "audit.h"
#include "bugzilla.h"
#include "cmd.h"
#include "config.h"
#include "deliver.h"
#include "hash.h"
#include "outbox.h"
#include "pipeline.h"
#include "record.h"
#include "report.h"
#include "strbuf.h"
#include "thread.h"
#include "util.h"

#define POLL_LIMIT     50
#define POLL_PAGES     100
#define POLL_LOOKBACK  86400
#define COMMENT_MAX    4096
#define FILTER_MAX     32 /* --product / --component values */
#define PROCESS_ROUNDS 100000

/* ---- the ingest worker ---------------------------------------------------- */

struct ingest {
	struct config *cfg;
	struct audit *db;
	struct pipeline p;
	struct router_id id;
	struct bugzilla_config bc;
	struct bugzilla_client *bz;
	struct bugzilla_writeback wb;
	bool forward_private;
	time_t max_age;
	int lease;
};

/* ingest_open - the worker for one Bugzilla (url, or bugzilla_url) */
struct ingest *ingest_open(struct config *cfg, struct audit *db,
			   const char *url)
{
	struct ingest *in = xcalloc(1, sizeof(*in));

	in->cfg = cfg;
	in->db = db;
	if (router_id_load(&in->id, cfg) < 0 ||
	    bugzilla_config_load(&in->bc, cfg, url) < 0)
		goto fail;
	in->bz = bugzilla_client_new(&in->bc);
	if (!in->bz) {
		error("cannot start libcurl");
		goto fail;
	}
	if (pipeline_open(&in->p, cfg) < 0)
		goto fail;
	if (in->p.missing[0])
		warn("%s", in->p.missing);
	in->p.load = audit_pick_load;
	in->p.load_ctx = db;
	in->p.person = audit_pick_person;
	bugzilla_writeback_config(&in->wb, cfg);
	in->forward_private = config_bool(cfg, "bugzilla_forward_private");
	in->max_age = outbox_max_age(cfg);
	/* two requests and the pipeline must fit in the lease */
	in->lease = (int)(in->bc.timeout_ms / 1000) * 3 + 60;
	return in;
fail:
	bugzilla_client_free(in->bz);
	bugzilla_config_release(&in->bc);
	free(in);
	return NULL;
}

void ingest_close(struct ingest *in)
{
	if (!in)
		return;
	pipeline_close(&in->p);
	bugzilla_client_free(in->bz);
	bugzilla_config_release(&in->bc);
	free(in);
}

/* later - retry a temporary failure on the outbox schedule, else give up */
static int later(struct ingest *in, const struct audit_event_item *it,
		 const struct bugzilla_result *res, time_t now)
{
	time_t next;

	if (res->status == DELIVER_TEMPORARY &&
	    deliver_backoff(it->received_at, now, (unsigned)it->attempts,
			    in->max_age, &next)) {
		warn("bug %ld: %s; retrying in %lds", it->bug_id, res->detail,
		     (long)(next - now));
		return audit_event_retry(in->db, it->id, next, res->detail);
	}
	warn("bug %ld: %s; giving up on event %lld", it->bug_id, res->detail,
	     (long long)it->id);
	return audit_event_fail(in->db, it->id, now, res->detail);
}

/* writeback_comment - what the bug is told about the forward */
static char *writeback_comment(const struct decision *d, const char *section)
{
	struct strbuf sb = STRBUF_INIT(COMMENT_MAX);

	sb_addf(&sb, "triage forwarded this bug to %s%s<%s>%s%s.\n",
		d->pick.name && *d->pick.name ? d->pick.name : "",
		d->pick.name && *d->pick.name ? " " : "", d->pick.addr,
		section ? " for " : "", section ? section : "");
	sb_addf(&sb, "Class: %s\n", d->class_header);
	if (d->pick.reason)
		sb_addf(&sb, "Why: %s\n", d->pick.reason);
	return sb.buf ? sb_detach(&sb, NULL) : xstrdup("");
}

/* queue_writeback - the opt-in Bugzilla write-back job of a forward */
static int queue_writeback(struct ingest *in, const struct report *r,
			   int64_t report, const struct decision *d, time_t now)
{
	struct audit_outbox_new m;
	char *comment, *job;
	int rc;

	if (!bugzilla_writeback_wanted(&in->wb) ||
	    d->act.action != ACT_FORWARD || !d->pick.addr)
		return 0;
	comment = writeback_comment(d, decision_section(&in->p, d));
	job = bugzilla_writeback_json(&in->wb, in->bc.url, r->bug_id, comment,
				      d->pick.addr);
	free(comment);
	if (!job)
		return error("cannot make the write-back job");
	memset(&m, 0, sizeof(m));
	m.report = report;
	m.kind = "bugzilla";
	m.created_at = now;
	m.envelope_from = "";
	m.recipients = r->bug_url;
	m.message = job;
	m.message_len = strlen(job);
	rc = audit_outbox_enqueue(in->db, &m, NULL);
	free(job);
	return rc;
}

/* as_duplicate - the bug's Message-ID was seen before (e.g. by mail) */
static int as_duplicate(struct audit *db, const struct report *r, int64_t orig,
			time_t now, int64_t *id)
{
	struct audit_decision dec;

	if (audit_insert_report(db, r, now, "duplicate", orig, id) < 0)
		return -1;
	memset(&dec, 0, sizeof(dec));
	dec.at = now;
	dec.action = "duplicate";
	dec.reason =
		"same Message-ID as an earlier report; not forwarded again";
	return audit_insert_decision(db, *id, &dec, NULL);
}

/*
 * decide - pick and act, inside record()'s transaction (the loads the
 * pick weighs are read where its choice is recorded); a private bug is
 * held unless allowed; -1 when a load cannot be read
 */
static int decide(struct ingest *in, const struct report *r, bool private,
		  struct decision *d, time_t now)
{
	if (pipeline_route(&in->p, r, now, d) < 0)
		return -1;
	if (private && !in->forward_private && d->act.action == ACT_FORWARD) {
		/* restricted text does not go out by mail unless allowed */
		d->act.action = ACT_HOLD;
		snprintf(d->act.reason, sizeof(d->act.reason),
			 "private bug: held for a triager "
			 "(bugzilla_forward_private = no)");
	}
	return 0;
}

/*
 * record - one transaction: the report and its decision (or the bug
 * recorded meanwhile), the bug, the event done
 */
static int record(struct ingest *in, const struct audit_event_item *it,
		  const struct report *r, const struct bugzilla_bug *bug,
		  bool private, struct decision *d, time_t now, bool *queued)
{
	struct audit *db = in->db;
	struct audit_bug seen;
	struct record_result rec;
	int64_t report = 0, orig = 0;
	int rc, kind;

	if (audit_begin(db) < 0)
		return -1;
	rc = audit_bug_seen(db, in->bc.url, bug->id, &seen);
	if (rc < 0)
		goto fail;
	if (rc == 1) {
		/* a webhook retry or an overlapping poll got here first */
		report = seen.report;
	} else {
		/* a bug is its id, never a Message-ID a mail could carry */
		kind = audit_find_duplicate(db, r->sha256, NULL, &orig);
		if (kind < 0)
			goto fail;
		if (kind == AUDIT_DUP_SHA256) {
			if (audit_note_redelivery(db, orig, now) < 0)
				goto fail;
			report = orig;
		} else if (kind == AUDIT_DUP_MESSAGE_ID) {
			if (as_duplicate(db, r, orig, now, &report) < 0)
				goto fail;
		} else {
			/* a crash seen before waits as "seen again" */
			if (decide(in, r, private, d, now) < 0 ||
			    (!d->link.hold && link_crash(db, d, &d->link) < 0))
				goto fail;
			if (record_decision(db, &in->p, &in->id, r, d, now,
					    &rec) < 0 ||
			    (!(d->link.same_crash_as && !rec.outbox) &&
			     queue_writeback(in, r, rec.report, d, now) < 0))
				goto fail;
			report = rec.report;
			if (rec.outbox > 0 || rec.reply > 0)
				*queued = true;
		}
	}
	if (audit_bug_record(db, in->bc.url, bug->id, report,
			     bug->last_change_time, now) < 0 ||
	    audit_event_done(db, it->id, report, now) < 0 ||
	    audit_commit(db) < 0)
		goto fail;
	return 0;
fail:
	audit_rollback(db);
	return -1;
}

/* handle - one claimed event */
static int handle(struct ingest *in, const struct audit_event_item *it,
		  bool *queued)
{
	struct audit_bug seen;
	struct bugzilla_bug bug;
	struct bugzilla_comment first;
	struct bugzilla_result res;
	struct decision d;
	struct report *r;
	time_t now = time(NULL);
	int rc;

	rc = audit_bug_seen(in->db, in->bc.url, it->bug_id, &seen);
	if (rc < 0)
		return -1;
	if (rc == 1) /* known bug: a change, not a new report */
		return audit_event_done(in->db, it->id, seen.report, now);

	/* the payload is a hint: the bug is whatever Bugzilla says now */
	if (bugzilla_fetch_bug(in->bz, it->bug_id, &bug, &res) < 0)
		return later(in, it, &res, time(NULL));
	if (bugzilla_fetch_first_comment(in->bz, it->bug_id, &first, &res) <
	    0) {
		bugzilla_bug_release(&bug);
		return later(in, it, &res, time(NULL));
	}
	r = bugzilla_report(&bug, &first, in->bc.url, in->id.address);
	now = time(NULL);
	/* judged before the write lock; picked under it (decide()) */
	pipeline_begin(r, &d);
	pipeline_judge(&in->p, r, &d);
	rc = record(in, it, r, &bug, bug.is_private || first.is_private, &d,
		    now, queued);
	if (rc < 0) {
		struct bugzilla_result dbres;

		memset(&dbres, 0, sizeof(dbres));
		dbres.status = audit_temporary(in->db) ? DELIVER_TEMPORARY
						       : DELIVER_PERMANENT;
		snprintf(dbres.detail, sizeof(dbres.detail),
			 "cannot record: %s", audit_errmsg(in->db));
		rc = later(in, it, &dbres, now);
	}
	decision_release(&d);
	report_free(r);
	bugzilla_comment_release(&first);
	bugzilla_bug_release(&bug);
	return rc;
}

/* ingest_next - claim and handle one due event (see cmd.h) */
int ingest_next(struct ingest *in, bool *queued)
{
	struct audit_event_item it;
	int rc = audit_event_claim(in->db, time(NULL), in->lease, &it);

	if (rc <= 0)
		return rc;
	rc = handle(in, &it, queued);
	audit_event_item_release(&it);
	return rc < 0 ? -1 : 1;
}

/* ---- poll ---------------------------------------------------------------- */

/* cursor_key - a negative bug id naming this query's cursor */
static long cursor_key(const char *url, const char *const *products, size_t np,
		       const char *const *components, size_t nc)
{
	uint32_t h = FNV32_BASIS;
	const char *parts[2 * FILTER_MAX + 1];
	size_t i, n = 0;

	parts[n++] = url;
	for (i = 0; i < np; i++)
		parts[n++] = products[i];
	for (i = 0; i < nc; i++)
		parts[n++] = components[i];
	for (i = 0; i < n; i++) {
		const unsigned char *p = (const unsigned char *)parts[i];

		for (; *p; p++)
			h = hash_step(h, *p);
		h = hash_step(h,
			      i == np ? 0xfe : 0xff); /* keep the lists apart */
	}
	return -1L - (long)(h & 0x3fffffff);
}

/* parse_since - "2d", "12h", "30m" before now, or a Bugzilla time */
static int parse_since(const char *s, time_t now, char *out, size_t size)
{
	char *end;
	long n = strtol(s, &end, 10);
	const char *p;

	if (end != s && n > 0 && end[0] && !end[1] && strchr("dhm", end[0])) {
		time_t t = now - n * (end[0] == 'd'   ? 86400
				      : end[0] == 'h' ? 3600
						      : 60);
		struct tm tm;

		gmtime_r(&t, &tm);
		strftime(out, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
		return 0;
	}
	if (!*s || strlen(s) >= size || !isdigit((unsigned char)s[0]))
		return -1;
	for (p = s; *p; p++)
		if (!isdigit((unsigned char)*p) && !strchr("-T:Z ", *p))
			return -1;
	snprintf(out, size, "%s", s);
	return 0;
}

/* poll_payload - the event stored for a changed bug (webhook-shaped) */
static char *poll_payload(const struct bugzilla_hit *h)
{
	json_t *j = json_pack(
		"{s:i, s:s, s:{s:s, s:s, s:s, s:s}, s:{s:I, s:s}}",
		"webhook_id", 0, "webhook_name", "poll", "event", "action",
		"poll", "target", "bug", "routing_key", "poll", "time",
		h->last_change_time, "bug", "id", (json_int_t)h->id,
		"last_change_time", h->last_change_time);
	char *s = j ? json_dumps(j, JSON_COMPACT) : NULL;

	json_decref(j);
	return s;
}

struct poll_stats {
	unsigned changed, stored, known, again;
};

/* poll_hit - store an event for a new bug, or note a known bug's change */
static int poll_hit(struct audit *db, const char *url,
		    const struct bugzilla_hit *h, time_t now,
		    struct poll_stats *st)
{
	struct audit_bug seen;
	struct audit_event ev;
	int64_t id;
	char *payload;
	int rc;

	st->changed++;
	rc = audit_bug_seen(db, url, h->id, &seen);
	if (rc < 0)
		return -1;
	if (rc == 1) {
		st->known++;
		if (!strcmp(seen.last_change_time, h->last_change_time))
			return 0;
		return audit_bug_record(db, url, h->id, 0, h->last_change_time,
					now);
	}
	payload = poll_payload(h);
	if (!payload)
		return error("cannot make the event for bug %ld", h->id);
	memset(&ev, 0, sizeof(ev));
	ev.received_at = now;
	ev.webhook_id = 0;
	ev.bug_id = h->id;
	ev.routing_key = "poll";
	ev.event_time = h->last_change_time;
	ev.payload = payload;
	ev.payload_len = strlen(payload);
	rc = audit_event_store(db, &ev, &id);
	free(payload);
	if (rc < 0)
		return -1;
	if (rc == 1)
		st->stored++;
	else
		st->again++; /* stored by an earlier poll, still pending */
	return 0;
}

/* what one poll asks and where it is */
struct poll {
	const char *prod_v[FILTER_MAX + 1], *comp_v[FILTER_MAX + 1];
	struct opt_list products, components;
	const char *url, *since;
	unsigned long limit, pages;
	struct audit *db;
	struct ingest *in;
	char from[64], newest[64];
	bool complete;
	struct poll_stats st;
};

static const char *const poll_usage[] = {
	"triage bugzilla poll [--url URL] [--product P]... [--component C]... [OPTIONS]",
	NULL
};

static void poll_options(int argc, char **argv, struct poll *pl)
{
	const struct opt opts[] = {
		OPT_STRING(0, "url", &pl->url, "URL",
			   "the Bugzilla (default: bugzilla_url)"),
		OPT_LIST(0, "product", &pl->products, "P",
			 "only bugs of product P (repeatable)"),
		OPT_LIST(0, "component", &pl->components, "C",
			 "only bugs of component C (repeatable)"),
		OPT_STRING(
			0, "since", &pl->since, "TIME",
			"changed since 2d, 12h, 30m ago or a Bugzilla time (default: the last poll)"),
		OPT_ULONG(0, "limit", &pl->limit, "N", "bugs per page (50)", 1,
			  1000),
		OPT_ULONG(0, "max-pages", &pl->pages, "N",
			  "pages at most (100)", 1, 100000),
		OPT_END(),
	};

	pl->products.v = pl->prod_v;
	pl->products.max = FILTER_MAX;
	pl->components.v = pl->comp_v;
	pl->components.max = FILTER_MAX;
	pl->limit = POLL_LIMIT;
	pl->pages = POLL_PAGES;
	if (parse_options(argc, argv, opts, poll_usage, 0))
		usage_with_options(poll_usage, opts);
	pl->prod_v[pl->products.n] = NULL;
	pl->comp_v[pl->components.n] = NULL;
}

/* poll_pages - store an event per changed bug, page by page; -1: database */
static int poll_pages(struct poll *pl, time_t now, int *ret)
{
	struct bugzilla_query q;
	unsigned long page;

	memset(&q, 0, sizeof(q));
	q.products = pl->prod_v;
	q.components = pl->comp_v;
	q.since = pl->from;
	q.limit = (unsigned)pl->limit;
	for (page = 0; page < pl->pages; page++) {
		struct bugzilla_hit *hits;
		struct bugzilla_result res;
		size_t n, i;

		q.offset = (unsigned)(page * pl->limit);
		if (bugzilla_search(pl->in->bz, &q, &hits, &n, &res) < 0) {
			error("%s", res.detail);
			*ret = res.status == DELIVER_TEMPORARY ? EX_TEMPFAIL
							       : EX_UNAVAILABLE;
			return 0;
		}
		if (audit_begin(pl->db) < 0) {
			free(hits);
			return -1;
		}
		for (i = 0; i < n; i++) {
			if (poll_hit(pl->db, pl->in->bc.url, &hits[i], now,
				     &pl->st) < 0) {
				audit_rollback(pl->db);
				free(hits);
				return -1;
			}
			if (strcmp(hits[i].last_change_time, pl->newest) > 0)
				snprintf(pl->newest, sizeof(pl->newest), "%s",
					 hits[i].last_change_time);
		}
		free(hits);
		if (audit_commit(pl->db) < 0) {
			audit_rollback(pl->db);
			return -1;
		}
		if (n < pl->limit) {
			pl->complete = true;
			return 0;
		}
	}
	warn("stopped after %lu pages; the cursor stays at %s", pl->pages,
	     pl->from);
	return 0;
}

/* poll_run - from the cursor (or --since), the pages, the events; -1: database */
static int poll_run(struct poll *pl, time_t now, int *ret)
{
	long key = cursor_key(pl->in->bc.url, pl->prod_v, pl->products.n,
			      pl->comp_v, pl->components.n);
	struct audit_bug cur;
	unsigned handled = 0;
	bool queued = false;
	int rc = 0;

	if (!pl->since) {
		rc = audit_bug_seen(pl->db, pl->in->bc.url, key, &cur);
		if (rc < 0)
			return -1;
		if (rc == 1 && cur.last_change_time[0])
			snprintf(pl->from, sizeof(pl->from), "%s",
				 cur.last_change_time);
		else
			parse_since("24h", now, pl->from, sizeof(pl->from));
	}
	if (poll_pages(pl, now, ret) < 0)
		return -1;
	if (*ret) {
		/* nothing on standard output: no figures that read as done */
		error("poll of %s failed (%u changed bugs stored before); the cursor stays at %s: the next poll asks again",
		      pl->in->bc.url, pl->st.stored, pl->from);
		return 0;
	}
	/* the events are stored: handle every due one (serve's too) */
	while (handled < PROCESS_ROUNDS &&
	       (rc = ingest_next(pl->in, &queued)) == 1)
		handled++;
	if (rc < 0)
		return -1;
	if (pl->complete && pl->newest[0] &&
	    strcmp(pl->newest, pl->from) >= 0 &&
	    audit_bug_record(pl->db, pl->in->bc.url, key, 0, pl->newest, now) <
		    0)
		return -1;
	printf("poll: %u changed since %s: %u new, %u known, %u pending; %u events handled\n",
	       pl->st.changed, pl->from, pl->st.stored, pl->st.known,
	       pl->st.again, handled);
	return 0;
}

static int cmd_poll(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct poll pl;
	struct config *cfg;
	time_t now = time(NULL);
	int ret = 0;

	memset(&pl, 0, sizeof(pl));
	poll_options(argc, argv, &pl);
	if (pl.since &&
	    parse_since(pl.since, now, pl.from, sizeof(pl.from)) < 0) {
		error("--since '%s': give 2d, 12h, 30m or a time such as 2024-05-01T00:00:00Z",
		      pl.since);
		return EX_USAGE;
	}
	cfg = cmd_config(ctx);
	if (cmd_open_db(cfg, &pl.db) < 0)
		return EX_TEMPFAIL;
	pl.in = ingest_open(cfg, pl.db, pl.url);
	if (!pl.in) {
		audit_close(pl.db);
		return EX_CONFIG;
	}
	if (poll_run(&pl, now, &ret) < 0) {
		error("database: %s", audit_errmsg(pl.db));
		ret = EX_TEMPFAIL;
	}
	ingest_close(pl.in);
	audit_close(pl.db);
	return ret;
}

int cmd_bugzilla(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const struct opt none[] = {
		OPT_GROUP("'triage bugzilla poll --help' gives its options."),
		OPT_END(),
	};

	umask(007);
	if (argc >= 2 && strcmp(argv[1], "poll") == 0)
		return cmd_poll(argc - 1, argv + 1, ctx);
	argc = parse_options(argc, argv, none, poll_usage, OPTIONS_STOP_AT_ARG);
	if (argc)
		error("'%s' is not a bugzilla subcommand (poll)", argv[0]);
	usage_with_options(poll_usage, none);
}
