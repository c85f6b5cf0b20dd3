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
#include <getopt.h>
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
	bugzilla_writeback_config(&in->wb, cfg);
	in->forward_private =
		config_get_bool(cfg, "bugzilla_forward_private", false);
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
 * record - one transaction: the report and its decision (or the bug
 * recorded meanwhile), the bug, the event done
 */
static int record(struct ingest *in, const struct audit_event_item *it,
		  const struct report *r, const struct bugzilla_bug *bug,
		  struct decision *d, time_t now, bool *queued)
{
	struct audit *db = in->db;
	struct audit_bug seen;
	struct record_result rec;
	int64_t report = 0, orig = 0;
	int rc, kind;

	if (audit_begin(db) < 0)
		return -1;
	rc = audit_bug_seen(db, bug->id, &seen);
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
			if (!d->link.hold && link_crash(db, d, &d->link) < 0)
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
	if (audit_bug_record(db, bug->id, report, bug->last_change_time, now) <
		    0 ||
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

	rc = audit_bug_seen(in->db, it->bug_id, &seen);
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
	pipeline_run(&in->p, r, now, &d);
	if ((bug.is_private || first.is_private) && !in->forward_private &&
	    d.act.action == ACT_FORWARD) {
		/* restricted text does not go out by mail unless allowed */
		d.act.action = ACT_HOLD;
		snprintf(d.act.reason, sizeof(d.act.reason),
			 "private bug: held for a triager "
			 "(bugzilla_forward_private = no)");
	}
	rc = record(in, it, r, &bug, &d, now, queued);
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
static long cursor_key(const char *url, char *const *products, size_t np,
		       char *const *components, size_t nc)
{
	uint32_t h = 2166136261u;
	const char *parts[2 * FILTER_MAX + 1];
	size_t i, n = 0;

	parts[n++] = url;
	for (i = 0; i < np; i++)
		parts[n++] = products[i];
	for (i = 0; i < nc; i++)
		parts[n++] = components[i];
	for (i = 0; i < n; i++) {
		const unsigned char *p = (const unsigned char *)parts[i];

		for (; *p; p++) {
			h ^= *p;
			h *= 16777619u;
		}
		h ^= (i == np ? 0xfe : 0xff); /* keep the lists apart */
		h *= 16777619u;
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
static int poll_hit(struct audit *db, const struct bugzilla_hit *h, time_t now,
		    struct poll_stats *st)
{
	struct audit_bug seen;
	struct audit_event ev;
	int64_t id;
	char *payload;
	int rc;

	st->changed++;
	rc = audit_bug_seen(db, h->id, &seen);
	if (rc < 0)
		return -1;
	if (rc == 1) {
		st->known++;
		if (!strcmp(seen.last_change_time, h->last_change_time))
			return 0;
		return audit_bug_record(db, h->id, 0, h->last_change_time, now);
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

static const char *const poll_usage =
	"usage: triage bugzilla poll [--url URL] [--product P]... "
	"[--component C]... [--since TIME] [--limit N] [--max-pages N]";

static int cmd_poll(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const struct option opts[] = {
		{ "url", required_argument, NULL, 'u' },
		{ "product", required_argument, NULL, 'p' },
		{ "component", required_argument, NULL, 'C' },
		{ "since", required_argument, NULL, 's' },
		{ "limit", required_argument, NULL, 'l' },
		{ "max-pages", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *products[FILTER_MAX + 1], *components[FILTER_MAX + 1];
	size_t np = 0, nc = 0;
	const char *url = NULL, *since = NULL;
	unsigned long limit = POLL_LIMIT, pages = POLL_PAGES, page;
	struct config *cfg;
	struct audit *db = NULL;
	struct ingest *in = NULL;
	struct audit_bug cur;
	struct poll_stats st = { 0, 0, 0, 0 };
	struct bugzilla_query q;
	char from[64], newest[64] = "";
	bool temporary = false, complete = false, queued = false;
	unsigned handled = 0;
	time_t now = time(NULL);
	long key;
	char *dbpath;
	int c, rc = 0, ret = 0;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'u':
			url = optarg;
			break;
		case 'p':
		case 'C':
			if ((c == 'p' ? np : nc) >= FILTER_MAX) {
				error("at most %d --product/--component values",
				      FILTER_MAX);
				return EX_USAGE;
			}
			if (c == 'p')
				products[np++] = optarg;
			else
				components[nc++] = optarg;
			break;
		case 's':
			since = optarg;
			break;
		case 'l':
			if (parse_ulong(optarg, &limit) < 0 || !limit ||
			    limit > 1000) {
				error("--limit: 1 to 1000");
				return EX_USAGE;
			}
			break;
		case 'm':
			if (parse_ulong(optarg, &pages) < 0 || !pages ||
			    pages > 100000) {
				error("--max-pages: 1 to 100000");
				return EX_USAGE;
			}
			break;
		case 'h':
			puts(poll_usage);
			return 0;
		default:
			error("%s", poll_usage);
			return EX_USAGE;
		}
	}
	if (optind < argc) {
		error("%s", poll_usage);
		return EX_USAGE;
	}
	products[np] = NULL;
	components[nc] = NULL;
	if (since && parse_since(since, now, from, sizeof(from)) < 0) {
		error("--since '%s': give 2d, 12h, 30m or a time such as 2024-05-01T00:00:00Z",
		      since);
		return EX_USAGE;
	}

	cfg = cmd_config(ctx);
	dbpath = config_state_path(cfg, "triage.db");
	if (audit_open(dbpath, AUDIT_CREATE,
		       (int)config_get_long(cfg, "db_busy_timeout", 5000), &db,
		       &temporary) < 0) {
		error("cannot open the database '%s'", dbpath);
		free(dbpath);
		return EX_TEMPFAIL;
	}
	free(dbpath);
	in = ingest_open(cfg, db, url);
	if (!in) {
		audit_close(db);
		return EX_CONFIG;
	}
	key = cursor_key(in->bc.url, products, np, components, nc);
	if (!since) {
		rc = audit_bug_seen(db, key, &cur);
		if (rc < 0)
			goto dberr;
		if (rc == 1 && cur.last_change_time[0])
			snprintf(from, sizeof(from), "%s",
				 cur.last_change_time);
		else
			parse_since("24h", now, from, sizeof(from));
	}

	memset(&q, 0, sizeof(q));
	q.products = (const char *const *)products;
	q.components = (const char *const *)components;
	q.since = from;
	q.limit = (unsigned)limit;
	for (page = 0; page < pages; page++) {
		struct bugzilla_hit *hits;
		struct bugzilla_result res;
		size_t n, i;

		q.offset = (unsigned)(page * limit);
		if (bugzilla_search(in->bz, &q, &hits, &n, &res) < 0) {
			error("%s", res.detail);
			ret = res.status == DELIVER_TEMPORARY ? EX_TEMPFAIL
							      : EX_UNAVAILABLE;
			break;
		}
		if (audit_begin(db) < 0) {
			free(hits);
			goto dberr;
		}
		for (i = 0; i < n; i++) {
			if (poll_hit(db, &hits[i], now, &st) < 0) {
				audit_rollback(db);
				free(hits);
				goto dberr;
			}
			if (strcmp(hits[i].last_change_time, newest) > 0)
				snprintf(newest, sizeof(newest), "%s",
					 hits[i].last_change_time);
		}
		free(hits);
		if (audit_commit(db) < 0) {
			audit_rollback(db);
			goto dberr;
		}
		if (n < limit) {
			complete = true;
			break;
		}
	}
	if (!complete && !ret)
		warn("stopped after %lu pages; the cursor stays at %s", pages,
		     from);

	/* the events are stored: handle every due one (serve's too) */
	while (handled < PROCESS_ROUNDS && (rc = ingest_next(in, &queued)) == 1)
		handled++;
	if (rc < 0)
		goto dberr;

	if (complete && newest[0] && strcmp(newest, from) >= 0 &&
	    audit_bug_record(db, key, 0, newest, now) < 0)
		goto dberr;
	printf("poll: %u changed since %s: %u new, %u known, %u pending; %u events handled\n",
	       st.changed, from, st.stored, st.known, st.again, handled);
	goto out;
dberr:
	error("database: %s", audit_errmsg(db));
	ret = EX_TEMPFAIL;
out:
	ingest_close(in);
	audit_close(db);
	return ret;
}

int cmd_bugzilla(int argc, char **argv, struct cmd_ctx *ctx)
{
	umask(007);
	if (argc < 2 || strcmp(argv[1], "poll") != 0) {
		error("%s", poll_usage);
		return EX_USAGE;
	}
	return cmd_poll(argc - 1, argv + 1, ctx);
}
