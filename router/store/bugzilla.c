// SPDX-License-Identifier: GPL-2.0-only
/*
 * bugzilla - Bugzilla's side of the database: the bugs already turned
 * into reports, and the webhook events stored before they are handled,
 * leased to one worker at a time (see audit.h)
 *
 * Tables: bugs, bugzilla_events.  router/net/bugzilla.c speaks to
 * Bugzilla; 'triage serve' and 'triage bugzilla' handle the events.
 */
#include <stdlib.h>
#include <string.h>

#include "db.h"

/*
 * a bug is (Bugzilla, id), never a Message-ID a mail could carry; a row
 * of schema 7 ('' for its Bugzilla) is the bug of whichever Bugzilla
 * asks first, and becomes its
 */
static const char sql_bug_get[] =
	"SELECT report, last_change_time, updated_at FROM bugs"
	" WHERE bug_id = ?1 AND bugzilla_url IN (?2, '')"
	" ORDER BY bugzilla_url = '' LIMIT 1";
static const char sql_bug_adopt[] =
	"UPDATE bugs SET bugzilla_url = ?2 WHERE bug_id = ?1"
	" AND bugzilla_url = '' AND ?2 != '' AND NOT EXISTS (SELECT 1"
	" FROM bugs WHERE bug_id = ?1 AND bugzilla_url = ?2)";
static const struct db_col bug_cols[] = {
	DB_COL(struct audit_bug, I64, report),
	DB_COL(struct audit_bug, CHARS, last_change_time),
	DB_COL(struct audit_bug, I64, updated_at),
};
static const struct db_row bug_row = DB_ROW(struct audit_bug, bug_cols);

static const char sql_bug_put[] =
	"INSERT INTO bugs (bug_id, report, last_change_time, updated_at,"
	" bugzilla_url) VALUES (?1, ?2, coalesce(?3, ''), ?4, ?5)"
	" ON CONFLICT (bugzilla_url, bug_id)"
	" DO UPDATE SET report = coalesce(excluded.report, report),"
	" last_change_time = excluded.last_change_time,"
	" updated_at = excluded.updated_at";

/* bz_url - a Bugzilla's base URL as stored: no trailing '/' ("" none) */
static char *bz_url(const char *url)
{
	size_t n = url ? strlen(url) : 0;

	while (n > 0 && url[n - 1] == '/')
		n--;
	return xstrndup(url ? url : "", n);
}

/* audit_bug_seen - what is known about bug_id of the Bugzilla at url */
int audit_bug_seen(struct audit *db, const char *url, long bug_id,
		   struct audit_bug *bug)
{
	sqlite3_stmt *st = db_prep(db, sql_bug_get);
	char *u = bz_url(url);
	int rc = -1;

	memset(bug, 0, sizeof(*bug));
	if (st && !db_bind_int(db, st, 1, bug_id) &&
	    !db_bind_text(db, st, 2, u))
		rc = db_get(db, st, "read bug", &bug_row, bug, NULL);
	free(u);
	return rc;
}

/* audit_bug_record - remember a bug, its report and its last change */
int audit_bug_record(struct audit *db, const char *url, long bug_id,
		     int64_t report, const char *last_change_time, int64_t now)
{
	sqlite3_stmt *st = db_prep(db, sql_bug_adopt);
	char *u = bz_url(url);
	int rc = -1;

	if (!st || db_bind_int(db, st, 1, bug_id) ||
	    db_bind_text(db, st, 2, u) || db_step(db, st, "adopt bug") < 0)
		goto out;
	st = db_prep(db, sql_bug_put);
	if (!st || db_bind_int(db, st, 1, bug_id) ||
	    db_bind_id(db, st, 2, report) ||
	    db_bind_text(db, st, 3, last_change_time) ||
	    db_bind_int(db, st, 4, db_now(now)) || db_bind_text(db, st, 5, u))
		goto out;
	rc = db_step(db, st, "record bug");
out:
	free(u);
	return rc;
}

/* ---- webhook events ------------------------------------------------------ */

static const char sql_event_ins[] =
	"INSERT INTO bugzilla_events (received_at, webhook_id, bug_id,"
	" routing_key, event_time, comment_id, attachment_id, payload)"
	" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT DO NOTHING";
/* the dedupe key: ?1..?6 as the INSERT's ?2..?7 */
static const char sql_event_find[] =
	"SELECT id FROM bugzilla_events WHERE webhook_id = ?1 AND bug_id = ?2"
	" AND routing_key = ?3 AND event_time = ?4 AND comment_id = ?5"
	" AND attachment_id = ?6";

/* bind_key - the event's dedupe key from parameter first on */
static int bind_key(struct audit *db, sqlite3_stmt *st, int first,
		    const struct audit_event *ev)
{
	return db_bind_int(db, st, first, ev->webhook_id) ||
	       db_bind_int(db, st, first + 1, ev->bug_id) ||
	       db_bind_text(db, st, first + 2,
			    ev->routing_key ? ev->routing_key : "") ||
	       db_bind_text(db, st, first + 3,
			    ev->event_time ? ev->event_time : "") ||
	       db_bind_int(db, st, first + 4, ev->comment_id) ||
	       db_bind_int(db, st, first + 5, ev->attachment_id);
}

/* audit_event_store - keep a webhook event once (its dedupe key) */
int audit_event_store(struct audit *db, const struct audit_event *ev,
		      int64_t *id)
{
	sqlite3_stmt *st = db_prep(db, sql_event_ins);

	if (!ev->payload)
		return db_bad(db, "event without payload");
	if (!st || db_bind_int(db, st, 1, db_now(ev->received_at)) ||
	    bind_key(db, st, 2, ev) ||
	    db_bind_textn(db, st, 8, ev->payload, ev->payload_len) ||
	    db_step(db, st, "store event") < 0)
		return -1;
	if (sqlite3_changes(db->db)) {
		*id = sqlite3_last_insert_rowid(db->db);
		return 1;
	}
	st = db_prep(db, sql_event_find);
	if (!st || bind_key(db, st, 1, ev) ||
	    db_get_i64(db, st, "find event", id) != 1)
		return -1;
	return 0;
}

static const char sql_event_due[] =
	"SELECT id FROM bugzilla_events WHERE state = 'received'"
	" AND not_before <= ?1 ORDER BY not_before, id LIMIT 1";
/* payload last: read by hand, with its length */
static const char sql_event_take[] =
	"UPDATE bugzilla_events SET attempts = attempts + 1,"
	" not_before = ?2 WHERE id = ?1 RETURNING received_at, webhook_id,"
	" bug_id, routing_key, event_time, comment_id, attachment_id,"
	" attempts, payload";
static const struct db_col take_cols[] = {
	DB_COL(struct audit_event_item, I64, received_at),
	DB_COL(struct audit_event_item, LONG, webhook_id),
	DB_COL(struct audit_event_item, LONG, bug_id),
	DB_COL(struct audit_event_item, DUP, routing_key),
	DB_COL(struct audit_event_item, DUP, event_time),
	DB_COL(struct audit_event_item, LONG, comment_id),
	DB_COL(struct audit_event_item, LONG, attachment_id),
	DB_COL(struct audit_event_item, INT, attempts),
};
static const struct db_row take_row =
	DB_ROW(struct audit_event_item, take_cols);

/* take - lease event id until lease and fill item; 1, or -1 */
static int take(struct audit *db, int64_t id, int64_t lease,
		struct audit_event_item *item)
{
	sqlite3_stmt *st = db_prep(db, sql_event_take);
	int rc;

	if (!st || db_bind_int(db, st, 1, id) || db_bind_int(db, st, 2, lease))
		return -1;
	rc = db_step_row(db, st, "claim event");
	if (rc != 1)
		return rc < 0 ? -1
			      : db_bad(db, "event %lld vanished",
				       (long long)id);
	item->id = id;
	db_fill(st, &take_row, item, NULL);
	item->payload = db_col_dup(st, 8, &item->payload_len);
	/* RETURNING: the update is complete only once the statement ends */
	return db_step(db, st, "claim event") < 0 ? -1 : 1;
}

/* audit_event_claim - lease the oldest received event */
int audit_event_claim(struct audit *db, int64_t now, int lease_seconds,
		      struct audit_event_item *item)
{
	sqlite3_stmt *st;
	bool own;
	int64_t id;
	int rc = -1;

	memset(item, 0, sizeof(*item));
	now = db_now(now);
	if (db_txn_enter(db, &own) < 0)
		return -1;
	st = db_prep(db, sql_event_due);
	if (st && !db_bind_int(db, st, 1, now)) {
		rc = db_get_i64(db, st, "find due event", &id);
		if (rc == 1)
			rc = take(db, id,
				  now + (lease_seconds > 0
						 ? lease_seconds
						 : AUDIT_LEASE_SECONDS),
				  item);
	}
	rc = db_txn_leave(db, own, rc);
	if (rc != 1)
		audit_event_item_release(item);
	return rc;
}

/* audit_event_item_release - free a claimed event's copies */
void audit_event_item_release(struct audit_event_item *item)
{
	free(item->routing_key);
	free(item->event_time);
	free(item->payload);
	memset(item, 0, sizeof(*item));
}

static const char sql_event_done[] =
	"UPDATE bugzilla_events SET state = 'processed', report = ?2,"
	" processed_at = ?3, last_error = NULL WHERE id = ?1";
static const char sql_event_retry[] =
	"UPDATE bugzilla_events SET state = 'received', not_before = ?2,"
	" last_error = ?3 WHERE id = ?1";
static const char sql_event_fail[] =
	"UPDATE bugzilla_events SET state = 'failed', processed_at = ?2,"
	" last_error = ?3 WHERE id = ?1";

/* audit_event_done - processed; report is what it produced (0: none) */
int audit_event_done(struct audit *db, int64_t id, int64_t report, int64_t now)
{
	sqlite3_stmt *st = db_prep(db, sql_event_done);

	if (!st || db_bind_int(db, st, 1, id) ||
	    db_bind_id(db, st, 2, report) ||
	    db_bind_int(db, st, 3, db_now(now)))
		return -1;
	return db_step(db, st, "event done");
}

/* event_set - sql with ?1 = id, ?2 = at, ?3 = error */
static int event_set(struct audit *db, const char *sql, int64_t id, int64_t at,
		     const char *error, const char *what)
{
	sqlite3_stmt *st = db_prep(db, sql);

	if (!st || db_bind_int(db, st, 1, id) || db_bind_int(db, st, 2, at) ||
	    db_bind_text(db, st, 3, error))
		return -1;
	return db_step(db, st, what);
}

/* audit_event_retry - back to received, not before next_at */
int audit_event_retry(struct audit *db, int64_t id, int64_t next_at,
		      const char *error)
{
	return event_set(db, sql_event_retry, id, next_at, error,
			 "event retry");
}

/* audit_event_fail - give up on an event */
int audit_event_fail(struct audit *db, int64_t id, int64_t now,
		     const char *error)
{
	return event_set(db, sql_event_fail, id, db_now(now), error,
			 "event failed");
}
