// SPDX-License-Identifier: GPL-2.0-only
/*
 * desk - what the triager's desk reads: what waits for a human, the
 * digests, the log, the figures, the corrections to learn from, and each
 * person's load (see audit.h)
 *
 * Tables: read across reports, decisions, outbox, delivery_attempts,
 * actions, classification, messages; digest_cursor written.
 */
#include <stdlib.h>
#include <string.h>

#include "db.h"

/* ---- what waits, and digests --------------------------------------------- */

/*
 * columns: those of pending_cols.  A follow-up waits with its thread's
 * first report while that one waits (it goes along when approved); one
 * held after the first report was closed (rejected, forwarded, replied
 * to) carries news nobody will see unless it is listed, as does one
 * whose own delivery failed.  A follow-up from the person the report
 * went to is not sent back to them and needs nobody.  A Bugzilla event
 * whose fetch failed (state received with an error: retried later) or
 * that was given up on waits too.
 */
static const char sql_pending[] =
	"SELECT r.id, (SELECT id FROM outbox o WHERE o.report = r.id"
	"   AND o.state = 'failed' ORDER BY o.id DESC LIMIT 1),"
	" r.received_at, r.state, coalesce(r.class, ''), r.section,"
	" r.subject, r.from_display,"
	" (SELECT reason FROM decisions d WHERE d.report = r.id"
	"   ORDER BY d.at DESC, d.id DESC LIMIT 1),"
	" (SELECT last_error FROM outbox o WHERE o.report = r.id"
	"   AND o.state = 'failed' ORDER BY o.id DESC LIMIT 1),"
	" r.regression,"
	" (SELECT count(*) FROM reports t WHERE t.thread_root = r.id),"
	" (SELECT count(*) FROM reports t WHERE t.same_crash_as = r.id),"
	" 0, coalesce(r.thread_root, 0), root.state"
	" FROM reports r LEFT JOIN reports root ON root.id = r.thread_root"
	" WHERE r.state IN ('held', 'failed')"
	" AND (r.thread_root IS NULL OR r.state = 'failed'"
	"  OR (root.state NOT IN ('held', 'failed', 'digest')"
	"   AND NOT EXISTS (SELECT 1 FROM decisions d"
	"    WHERE d.report = root.id AND d.recipient = r.from_addr"
	"    COLLATE NOCASE)))"
	" AND (?1 IS NULL OR r.class = ?1)"
	" AND (?2 IS NULL OR r.section = ?2)"
	" AND (?3 = 0 OR r.section IS NULL)"
	" UNION ALL"
	" SELECT 0, o.id, o.created_at, 'failed', '', NULL,"
	" o.kind || ' to ' || replace(o.recipients, char(10), ', '),"
	" '', '', o.last_error, 0, 0, 0, 0, 0, NULL FROM outbox o"
	" WHERE o.state = 'failed'"
	" AND o.report IS NULL AND ?1 IS NULL AND ?2 IS NULL AND ?3 = 0"
	" UNION ALL"
	" SELECT 0, 0, e.received_at, e.state, '', NULL,"
	" 'Bugzilla bug ' || e.bug_id || ' event ' ||"
	"  CASE e.routing_key WHEN '' THEN '?' ELSE e.routing_key END,"
	" '', CASE e.state WHEN 'failed' THEN 'webhook event given up on'"
	"  ELSE 'webhook event not fetched yet: retried from '"
	"  || datetime(e.not_before, 'unixepoch') || ' UTC' END,"
	" e.last_error, 0, 0, 0, e.id, 0, NULL FROM bugzilla_events e"
	" WHERE (e.state = 'failed' OR (e.state = 'received'"
	"  AND e.last_error IS NOT NULL))"
	" AND ?1 IS NULL AND ?2 IS NULL AND ?3 = 0"
	" ORDER BY 11 DESC, 3, 1, 2";
/* the same columns */
static const char sql_digest_list[] =
	"SELECT r.id, 0, r.received_at, r.state, coalesce(r.class, ''),"
	" r.section, r.subject, r.from_display,"
	" (SELECT reason FROM decisions d WHERE d.report = r.id"
	"   ORDER BY d.at DESC, d.id DESC LIMIT 1), NULL, r.regression,"
	" (SELECT count(*) FROM reports t WHERE t.thread_root = r.id),"
	" (SELECT count(*) FROM reports t WHERE t.same_crash_as = r.id),"
	" 0, 0, NULL"
	" FROM reports r WHERE r.received_at >= ?2 AND r.state = 'digest'"
	" AND (?1 IS NULL OR r.section = ?1)"
	" ORDER BY r.received_at, r.id";
static const struct db_col pending_cols[] = {
	DB_COL(struct audit_pending, I64, id),
	DB_COL(struct audit_pending, I64, outbox_id),
	DB_COL(struct audit_pending, I64, received_at),
	DB_COL(struct audit_pending, TEXT, state),
	DB_COL(struct audit_pending, TEXT, class),
	DB_COL(struct audit_pending, TEXT, section),
	DB_COL(struct audit_pending, TEXT, subject),
	DB_COL(struct audit_pending, TEXT, from),
	DB_COL(struct audit_pending, TEXT, reason),
	DB_COL(struct audit_pending, TEXT, last_error),
	DB_COL(struct audit_pending, BOOL, regression),
	DB_COL(struct audit_pending, LONG, followups),
	DB_COL(struct audit_pending, LONG, seen_again),
	DB_COL(struct audit_pending, I64, event_id),
	DB_COL(struct audit_pending, I64, thread_root),
	DB_COL(struct audit_pending, TEXT, root_state),
};
static const struct db_row pending_row =
	DB_ROW(struct audit_pending, pending_cols);

static int walk_pending(struct audit *db, sqlite3_stmt *st,
			int (*cb)(const struct audit_pending *p, void *arg),
			void *arg)
{
	struct audit_pending p;
	int rc, stop;

	while ((rc = db_next(db, st, "list pending", &pending_row, &p)) == 1)
		if ((stop = cb(&p, arg)))
			return db_stop(st, stop);
	return rc;
}

/* audit_pending_list - what waits for a human, oldest first */
int audit_pending_list(struct audit *db, const struct audit_pending_filter *f,
		       int (*cb)(const struct audit_pending *p, void *arg),
		       void *arg)
{
	static const struct audit_pending_filter none;
	sqlite3_stmt *st = db_prep(db, sql_pending);

	if (!f)
		f = &none;
	if (!st || db_bind_text(db, st, 1, f->class) ||
	    db_bind_text(db, st, 2, f->section) ||
	    db_bind_int(db, st, 3, f->unmapped))
		return -1;
	return walk_pending(db, st, cb, arg);
}

/* audit_digest_list - reports waiting for a digest since, oldest first */
int audit_digest_list(struct audit *db, const char *section, int64_t since,
		      int (*cb)(const struct audit_pending *p, void *arg),
		      void *arg)
{
	sqlite3_stmt *st = db_prep(db, sql_digest_list);

	if (!st || db_bind_text(db, st, 1, section) ||
	    db_bind_int(db, st, 2, since))
		return -1;
	return walk_pending(db, st, cb, arg);
}

static const char sql_digest_get[] =
	"SELECT last_sent_at FROM digest_cursor WHERE section = ?1";
static const char sql_digest_put[] =
	"INSERT INTO digest_cursor (section, last_sent_at) VALUES (?1, ?2)"
	" ON CONFLICT (section) DO UPDATE"
	" SET last_sent_at = excluded.last_sent_at";

/* audit_digest_cursor - when the section's last digest went out */
int audit_digest_cursor(struct audit *db, const char *section, int64_t *at)
{
	sqlite3_stmt *st = db_prep(db, sql_digest_get);

	*at = 0;
	if (!st || db_bind_text(db, st, 1, section))
		return -1;
	return db_get_i64(db, st, "read digest cursor", at);
}

/* audit_digest_cursor_set - the section's digest went out at `at` */
int audit_digest_cursor_set(struct audit *db, const char *section, int64_t at)
{
	sqlite3_stmt *st = db_prep(db, sql_digest_put);

	if (!st || db_bind_text(db, st, 1, section) ||
	    db_bind_int(db, st, 2, at))
		return -1;
	return db_step(db, st, "set digest cursor");
}

/*
 * A digest's members: the reports whose digest action names its outbox
 * row ("outbox N to ADDR", digest.c's detail) and that still wait in
 * state digest (one taken out since left that state).
 */
static const char sql_digest_members[] =
	"SELECT a.report FROM actions a JOIN reports r ON r.id = a.report"
	" WHERE a.action = 'digest' AND r.state = 'digest'"
	" AND a.detail LIKE 'outbox ' || ?1 || ' to %'"
	" ORDER BY r.received_at, r.id";
static const char sql_digest_row[] =
	"SELECT state, created_at, recipients FROM outbox"
	" WHERE id = ?1 AND kind = 'digest'";
static const char sql_digest_before[] =
	"SELECT max(at) FROM actions WHERE action = 'digest'"
	" AND argument = ?1 AND at < ?2";

/* audit_digest_members - ids of the reports a digest row still lists */
int audit_digest_members(struct audit *db, int64_t outbox, int64_t **ids,
			 size_t *n)
{
	sqlite3_stmt *st = db_prep(db, sql_digest_members);
	size_t alloc = 0;
	int rc;

	*ids = NULL;
	*n = 0;
	if (!st || db_bind_int(db, st, 1, outbox))
		return -1;
	while ((rc = db_step_row(db, st, "list a digest")) == 1) {
		ALLOC_GROW(*ids, *n, alloc);
		(*ids)[(*n)++] = sqlite3_column_int64(st, 0);
	}
	if (rc < 0) {
		free(*ids);
		*ids = NULL;
		*n = 0;
	}
	return rc;
}

/* audit_digest_row - a digest outbox row: 1, 0 when none, -1 */
int audit_digest_row(struct audit *db, int64_t outbox, char **state,
		     int64_t *created_at, char **recipients)
{
	sqlite3_stmt *st = db_prep(db, sql_digest_row);
	int rc;

	*state = *recipients = NULL;
	*created_at = 0;
	if (!st || db_bind_int(db, st, 1, outbox))
		return -1;
	rc = db_step_row(db, st, "read a digest");
	if (rc != 1)
		return rc;
	*state = db_col_dup(st, 0, NULL);
	*created_at = sqlite3_column_int64(st, 1);
	*recipients = db_col_dup(st, 2, NULL);
	db_finish(st);
	return 1;
}

/* audit_digest_before - when the section's digest before `at` went out */
int audit_digest_before(struct audit *db, const char *section, int64_t at,
			int64_t *prev)
{
	sqlite3_stmt *st = db_prep(db, sql_digest_before);

	*prev = 0;
	if (!st || db_bind_text(db, st, 1, section) ||
	    db_bind_int(db, st, 2, at))
		return -1;
	return db_get_i64(db, st, "read the digest before", prev);
}

/*
 * A triager's reroute to a section makes it the report's section:
 * first in its list (any older entry of that name dropped), the others
 * kept after it.
 */
static const char sql_set_section[] =
	"UPDATE reports SET section = ?2, sections = ("
	" SELECT json_group_array(json(v)) FROM ("
	"  SELECT -1 AS k, json_object('name', ?2, 'score', 1.0,"
	"   'why', ?3) AS v"
	"  UNION ALL SELECT j.key, j.value FROM"
	"   json_each(coalesce(reports.sections, '[]')) j"
	"   WHERE j.value ->> 'name' IS NOT ?2 ORDER BY k))"
	" WHERE id = ?1";

/* audit_set_section - the report's section is now `section` */
int audit_set_section(struct audit *db, int64_t report, const char *section,
		      const char *why)
{
	sqlite3_stmt *st = db_prep(db, sql_set_section);

	if (!st || db_bind_int(db, st, 1, report) ||
	    db_bind_text(db, st, 2, section) || db_bind_text(db, st, 3, why) ||
	    db_step(db, st, "set the section") < 0)
		return -1;
	return sqlite3_changes(db->db)
		       ? 0
		       : db_bad(db, "no report %lld", (long long)report);
}

/* ---- the log ------------------------------------------------------------- */

static const char sql_log[] =
	"SELECT at, report, kind, who, what, argument, detail,"
	" (SELECT r.kind FROM reports r WHERE r.id = report) FROM ("
	" SELECT received_at AS at, 0 AS k, id AS seq, id AS report,"
	"  'received' AS kind, source AS who, state AS what,"
	"  from_addr AS argument, subject AS detail"
	"  FROM reports WHERE received_at >= ?1"
	" UNION ALL"
	" SELECT at, 1, id, report, 'decision', 'triage', action,"
	"  recipient, reason FROM decisions WHERE at >= ?1"
	" UNION ALL"
	" SELECT a.at, 2, a.id, coalesce(o.report, 0), 'delivery',"
	"  'deliver', CASE WHEN a.ok THEN 'sent' ELSE 'failed' END,"
	"  replace(o.recipients, char(10), ', '),"
	/* the peer's reply often starts with its code already */
	"  CASE WHEN a.smtp_code AND coalesce(a.detail, '')"
	"   NOT LIKE a.smtp_code || '%'"
	"  THEN a.smtp_code || ' ' || a.detail ELSE a.detail END"
	"  FROM delivery_attempts a JOIN outbox o ON o.id = a.outbox"
	"  WHERE a.at >= ?1"
	" UNION ALL"
	" SELECT at, 3, id, coalesce(report, 0), 'action', who, action,"
	"  argument, detail FROM actions WHERE at >= ?1"
	/* a webhook event, with why it waits when its fetch failed */
	" UNION ALL"
	" SELECT received_at, 4, id, coalesce(report, 0), 'webhook',"
	"  'serve', CASE state WHEN 'received' THEN CASE WHEN last_error"
	"  IS NULL THEN 'received' ELSE 'retrying' END ELSE state END,"
	"  'bug ' || bug_id, coalesce(last_error, routing_key)"
	"  FROM bugzilla_events WHERE received_at >= ?1"
	") ORDER BY at, k, seq";
static const struct db_col log_cols[] = {
	DB_COL(struct audit_log_entry, I64, at),
	DB_COL(struct audit_log_entry, I64, report),
	DB_COL(struct audit_log_entry, TEXT, kind),
	DB_COL(struct audit_log_entry, TEXT, who),
	DB_COL(struct audit_log_entry, TEXT, what),
	DB_COL(struct audit_log_entry, TEXT, argument),
	DB_COL(struct audit_log_entry, TEXT, detail),
	DB_COL(struct audit_log_entry, TEXT, msg_kind),
};
static const struct db_row log_row = DB_ROW(struct audit_log_entry, log_cols);

/* audit_log_list - reports, decisions, deliveries and actions since */
int audit_log_list(struct audit *db, int64_t since,
		   int (*cb)(const struct audit_log_entry *e, void *arg),
		   void *arg)
{
	sqlite3_stmt *st = db_prep(db, sql_log);
	struct audit_log_entry e;
	int rc, stop;

	if (!st || db_bind_int(db, st, 1, since))
		return -1;
	while ((rc = db_next(db, st, "read log", &log_row, &e)) == 1)
		if ((stop = cb(&e, arg)))
			return db_stop(st, stop);
	return rc;
}

/* ---- figures ------------------------------------------------------------- */

static const char sql_st_reports[] =
	"SELECT count(*) FROM reports WHERE received_at >= ?1";
static const char sql_st_state[] =
	"SELECT state, count(*) FROM reports WHERE received_at >= ?1"
	" GROUP BY state ORDER BY 2 DESC, 1";
static const char sql_st_class[] =
	"SELECT coalesce(class, 'unclassified'), count(*) FROM reports"
	" WHERE received_at >= ?1 AND state != 'duplicate'"
	" AND thread_root IS NULL AND kind = 'report'"
	" GROUP BY 1 ORDER BY 2 DESC, 1";
static const char sql_st_kind[] =
	"SELECT kind, count(*) FROM reports"
	" WHERE received_at >= ?1 AND state != 'duplicate'"
	" GROUP BY 1 ORDER BY 2 DESC, 1";
static const char sql_st_section[] =
	"SELECT coalesce(section, 'unmapped'), count(*) FROM reports"
	" WHERE received_at >= ?1 AND state != 'duplicate'"
	" AND thread_root IS NULL AND kind = 'report'"
	" GROUP BY 1 ORDER BY 2 DESC, 1";
/* also the loads of every recipient (audit_load_all()) */
/*
 * A forward cancelled before it went out (reject, reroute) reached
 * nobody: stats counts it for no one.  The pick stage's sql_load does
 * not look: it runs in the filter's write transaction, where a lookup
 * of each counted forward's outbox row would read every row the index
 * answers alone now (schema 3 -> 4), so a cancelled forward still
 * counts toward a cap until its day or week is over.
 */
#define NOT_CANCELLED                                                \
	" AND NOT EXISTS (SELECT 1 FROM outbox o"                    \
	"  WHERE o.report = decisions.report AND o.kind = 'forward'" \
	"  AND o.recipients = decisions.recipient COLLATE NOCASE"    \
	"  AND o.state = 'cancelled')"
static const char sql_st_recipient[] =
	"SELECT recipient, count(*) FROM decisions WHERE at >= ?1"
	" AND action = 'forward' AND recipient IS NOT NULL" NOT_CANCELLED
	" GROUP BY recipient ORDER BY 2 DESC, 1";
/* what audit_pending_list() lists, counted */
static const char sql_st_pending[] =
	"SELECT (SELECT count(*) FROM reports r"
	"  LEFT JOIN reports root ON root.id = r.thread_root"
	"  WHERE r.state IN ('held', 'failed')"
	"  AND (r.thread_root IS NULL OR r.state = 'failed'"
	"   OR (root.state NOT IN ('held', 'failed', 'digest')"
	"    AND NOT EXISTS (SELECT 1 FROM decisions d"
	"     WHERE d.report = root.id AND d.recipient = r.from_addr"
	"     COLLATE NOCASE))))"
	" + (SELECT count(*) FROM outbox WHERE state = 'failed'"
	" AND report IS NULL)"
	" + (SELECT count(*) FROM bugzilla_events WHERE state = 'failed'"
	" OR (state = 'received' AND last_error IS NOT NULL))";
/* Bugzilla events: received since, waiting for a fetch again, given up */
static const char sql_st_events[] =
	"SELECT count(*) FILTER (WHERE received_at >= ?1),"
	" count(*) FILTER (WHERE state = 'received'"
	"  AND last_error IS NOT NULL),"
	" count(*) FILTER (WHERE state = 'failed') FROM bugzilla_events";
static const char sql_st_wait[] =
	"SELECT min(a.at) - r.received_at FROM reports r"
	" JOIN actions a ON a.report = r.id WHERE r.received_at >= ?1"
	" AND a.action IN ('approve', 'reject', 'reroute')"
	" GROUP BY r.id ORDER BY 1";
static const char sql_st_delivery[] =
	"SELECT count(*), coalesce(sum(ok = 0), 0) FROM delivery_attempts"
	" WHERE at >= ?1";
static const char sql_st_outbox[] =
	"SELECT coalesce(sum(state = 'failed'), 0),"
	" coalesce(sum(state IN ('queued', 'sending')), 0) FROM outbox";

static const struct db_col count_cols[] = {
	DB_COL(struct audit_count, TEXT, name),
	DB_COL(struct audit_count, LONG, count),
};
static const struct db_row count_row = DB_ROW(struct audit_count, count_cols);

/* two figures in a row */
struct pair {
	long a, b;
};

static const struct db_col pair_cols[] = {
	DB_COL(struct pair, LONG, a),
	DB_COL(struct pair, LONG, b),
};
static const struct db_row pair_row = DB_ROW(struct pair, pair_cols);

static const struct db_col wait_col[] = { { DB_I64, 0, sizeof(int64_t) } };
static const struct db_row wait_row = { wait_col, 1, sizeof(int64_t) };

/* stat_pair - the first row of sql (for since, if it asks): its figures */
static int stat_pair(struct audit *db, const char *sql, int64_t since, long *a,
		     long *b)
{
	sqlite3_stmt *st = db_prep(db, sql);
	struct db_row r = pair_row;
	struct pair p = { 0, 0 };

	if (!st ||
	    (sqlite3_bind_parameter_count(st) && db_bind_int(db, st, 1, since)))
		return -1;
	if (sqlite3_column_count(st) < 2)
		r.ncol = 1;
	if (db_get(db, st, "stats", &r, &p, NULL) != 1)
		return -1;
	*a = p.a;
	if (b)
		*b = p.b;
	return 0;
}

/* stat_wait - how many were resolved since, and their median wait */
static int stat_wait(struct audit *db, struct audit_stats *s)
{
	struct audit_owned o = { 0 };
	int64_t *v;
	size_t n;
	int rc;

	s->median_pending = -1;
	rc = db_all_id(db, sql_st_wait, s->since, "stats", &wait_row, &o, &v,
		       &n);
	/* sorted by the query */
	if (rc == 0 && n)
		s->median_pending = n % 2 ? (double)v[n / 2]
					  : (v[n / 2 - 1] + v[n / 2]) / 2.0;
	s->resolved = (long)n;
	db_owned_release(&o);
	return rc;
}

/* stat_events - the Bugzilla events' figures */
static int stat_events(struct audit *db, int64_t since, struct audit_stats *s)
{
	sqlite3_stmt *st = db_prep(db, sql_st_events);
	int rc;

	if (!st || db_bind_int(db, st, 1, since))
		return -1;
	rc = db_step_row(db, st, "stats");
	if (rc != 1)
		return rc < 0 ? -1 : 0;
	s->events = (long)sqlite3_column_int64(st, 0);
	s->events_waiting = (long)sqlite3_column_int64(st, 1);
	s->events_failed = (long)sqlite3_column_int64(st, 2);
	db_finish(st);
	return 0;
}

/* audit_stats - figures over the reports received since */
int audit_stats(struct audit *db, int64_t since, struct audit_stats *s)
{
	struct audit_owned *o = &s->owned;

	memset(s, 0, sizeof(*s));
	s->since = since;
	if (stat_pair(db, sql_st_reports, since, &s->reports, NULL) < 0 ||
	    stat_pair(db, sql_st_pending, since, &s->pending, NULL) < 0 ||
	    db_all_id(db, sql_st_state, since, "stats", &count_row, o,
		      &s->by_state, &s->nby_state) < 0 ||
	    db_all_id(db, sql_st_class, since, "stats", &count_row, o,
		      &s->by_class, &s->nby_class) < 0 ||
	    db_all_id(db, sql_st_kind, since, "stats", &count_row, o,
		      &s->by_kind, &s->nby_kind) < 0 ||
	    db_all_id(db, sql_st_section, since, "stats", &count_row, o,
		      &s->by_section, &s->nby_section) < 0 ||
	    db_all_id(db, sql_st_recipient, since, "stats", &count_row, o,
		      &s->by_recipient, &s->nby_recipient) < 0 ||
	    stat_wait(db, s) < 0 ||
	    stat_pair(db, sql_st_delivery, since, &s->delivery_attempts,
		      &s->delivery_failures) < 0 ||
	    stat_pair(db, sql_st_outbox, since, &s->outbox_failed,
		      &s->outbox_queued) < 0 ||
	    stat_events(db, since, s) < 0) {
		audit_stats_release(s);
		return -1;
	}
	return 0;
}

/* audit_stats_release - free the count arrays */
void audit_stats_release(struct audit_stats *s)
{
	db_owned_release(&s->owned);
	memset(s, 0, sizeof(*s));
}

/* ---- corrections --------------------------------------------------------- */

static const char sql_corrections[] =
	"SELECT r.id, c.class, r.class, a.who, a.at, r.subject, m.body"
	" FROM reports r JOIN classification c ON c.report = r.id"
	" JOIN actions a ON a.id = (SELECT max(id) FROM actions"
	"   WHERE report = r.id AND action = 'reclassify')"
	" LEFT JOIN messages m ON m.report = r.id"
	" WHERE r.class IS NOT c.class ORDER BY r.id";
static const struct db_col correction_cols[] = {
	DB_COL(struct audit_correction, I64, report),
	DB_COL(struct audit_correction, TEXT, old_class),
	DB_COL(struct audit_correction, TEXT, new_class),
	DB_COL(struct audit_correction, TEXT, who),
	DB_COL(struct audit_correction, I64, at),
	DB_COL(struct audit_correction, TEXT, subject),
	DB_COL(struct audit_correction, TEXT, body),
};
static const struct db_row correction_row =
	DB_ROW(struct audit_correction, correction_cols);

/* audit_corrections - classifier's class vs triager's, for retraining */
int audit_corrections(struct audit *db,
		      int (*cb)(const struct audit_correction *c, void *arg),
		      void *arg)
{
	sqlite3_stmt *st = db_prep(db, sql_corrections);
	struct audit_correction c;
	int rc, stop;

	if (!st)
		return -1;
	while ((rc = db_next(db, st, "read corrections", &correction_row,
			     &c)) == 1) {
		c.body_len = (size_t)sqlite3_column_bytes(st, 6);
		if ((stop = cb(&c, arg)))
			return db_stop(st, stop);
	}
	return rc;
}

/* ---- loads --------------------------------------------------------------- */

/*
 * A recipient's forwards since day and since week (schema 13): the
 * quarter hours from the first slot that starts at or after each,
 * summed in forward_counts (at most 672 rows a week, whatever the
 * forwards), and only for a time that starts no slot (never a local
 * midnight) the forwards before that slot's start, read from
 * decisions_forwarded.  Both used to be counted there alone: a row
 * read per forward of the week.
 */
static const char sql_load[] =
	"SELECT coalesce(sum(n) FILTER (WHERE slot >= ?2), 0),"
	" coalesce(sum(n) FILTER (WHERE slot >= ?3), 0) FROM forward_counts"
	" WHERE recipient = ?1 AND slot >= min(?2, ?3)";
static const char sql_load_part[] =
	"SELECT count(*) FROM decisions WHERE recipient = ?1"
	" AND action = 'forward' AND at >= ?2 AND at < ?3";

/* next_slot - the first forward_counts slot that starts at t or after */
static int64_t next_slot(int64_t t)
{
	int64_t q = t / AUDIT_LOAD_SLOT, r = t % AUDIT_LOAD_SLOT;

	return r > 0 ? q + 1 : q; /* division truncates toward zero */
}

/* load_part - add the forwards from t to its next slot's start to *n */
static int load_part(struct audit *db, const char *recipient, int64_t t,
		     long *n)
{
	int64_t end = next_slot(t) * AUDIT_LOAD_SLOT, k;
	sqlite3_stmt *st;

	if (end == t)
		return 0;
	st = db_prep(db, sql_load_part);
	if (!st || db_bind_text(db, st, 1, recipient) ||
	    db_bind_int(db, st, 2, t) || db_bind_int(db, st, 3, end) ||
	    db_get_i64(db, st, "load", &k) != 1)
		return -1;
	*n += (long)k;
	return 0;
}

/* load - forwards to recipient since day and since week; 0 or -1 */
static int load(struct audit *db, const char *recipient, int64_t day,
		int64_t week, struct pair *n)
{
	sqlite3_stmt *st = db_prep(db, sql_load);

	if (!st || db_bind_text(db, st, 1, recipient) ||
	    db_bind_int(db, st, 2, next_slot(day)) ||
	    db_bind_int(db, st, 3, next_slot(week)) ||
	    db_get(db, st, "load", &pair_row, n, NULL) != 1 ||
	    load_part(db, recipient, day, &n->a) < 0 ||
	    load_part(db, recipient, week, &n->b) < 0)
		return -1;
	return 0;
}

/* audit_load - how many reports were forwarded to recipient since */
long audit_load(struct audit *db, const char *recipient, int64_t since)
{
	struct pair n;

	return load(db, recipient, since, since, &n) < 0 ? -1 : n.a;
}

/* audit_pick_load - forwards to addr since day_start and week_start */
int audit_pick_load(void *ctx, const char *addr, time_t day_start,
		    time_t week_start, unsigned *day, unsigned *week)
{
	struct pair n;

	*day = 0;
	*week = 0;
	if (load(ctx, addr, (int64_t)day_start, (int64_t)week_start, &n) < 0)
		return -1;
	*day = (unsigned)n.a;
	*week = (unsigned)n.b;
	return 0;
}

/* audit_load_all - forwards per recipient since, busiest first */
int audit_load_all(struct audit *db, int64_t since,
		   int (*cb)(const char *recipient, long count, void *arg),
		   void *arg)
{
	sqlite3_stmt *st = db_prep(db, sql_st_recipient);
	struct audit_count c;
	int rc, stop;

	if (!st || db_bind_int(db, st, 1, since))
		return -1;
	while ((rc = db_next(db, st, "load", &count_row, &c)) == 1)
		if ((stop = cb(c.name, c.count, arg)))
			return db_stop(st, stop);
	return rc;
}
