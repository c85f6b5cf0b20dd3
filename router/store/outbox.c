// SPDX-License-Identifier: GPL-2.0-only
/*
 * outbox - mail to send: queued in the transaction that decided it,
 * leased to one worker at a time, its attempts recorded, given up on,
 * sent again or cancelled (see audit.h)
 *
 * Tables: outbox, delivery_attempts (and a report's state when its
 * delivery fails or is retried).  router/app/outbox.c drains it through
 * a transport.
 */
#include <stdlib.h>
#include <string.h>

#include "db.h"

static const char *const outbox_kinds[] = { "forward", "digest", "reply",
					    "bugzilla" };

static const char sql_ins_outbox[] =
	"INSERT INTO outbox (report, kind, created_at, envelope_from,"
	" recipients, message, next_attempt_at) VALUES (?1, ?2, ?3,"
	" coalesce(?4, ''), ?5, ?6, ?7)";
/* the tail must be report ?8's stored bytes: same length */
static const char sql_ins_outbox_ref[] =
	"INSERT INTO outbox (report, kind, created_at, envelope_from,"
	" recipients, message, next_attempt_at, raw_report, raw_offset)"
	" SELECT ?1, ?2, ?3, coalesce(?4, ''), ?5, ?6, ?7, ?8, ?9"
	" FROM reports WHERE id = ?8 AND size = ?10";

/* check_new - what an outbox row needs before it is queued */
static int check_new(struct audit *db, const struct audit_outbox_new *m)
{
	if (!db_one_of(m->kind, outbox_kinds, ARRAY_SIZE(outbox_kinds)))
		return db_bad(db, "invalid outbox kind '%s'",
			      m->kind ? m->kind : "");
	if (!m->recipients || !*m->recipients)
		return db_bad(db, "outbox message without recipients");
	if (m->raw_report > 0 &&
	    (m->raw_offset > m->raw_len || m->raw_len > INT64_MAX))
		return db_bad(db,
			      "outbox message: offset %zu past the end (%zu)",
			      m->raw_offset, m->raw_len);
	return 0;
}

/* audit_outbox_enqueue - a message to send, in the caller's transaction */
int audit_outbox_enqueue(struct audit *db, const struct audit_outbox_new *m,
			 int64_t *id)
{
	sqlite3_stmt *st;
	int64_t created = db_now(m->created_at);
	bool ref = m->raw_report > 0;

	if (check_new(db, m) < 0)
		return -1;
	st = db_prep(db, ref ? sql_ins_outbox_ref : sql_ins_outbox);
	if (!st)
		return -1;
	if (db_bind_id(db, st, 1, m->report) ||
	    db_bind_text(db, st, 2, m->kind) ||
	    db_bind_int(db, st, 3, created) ||
	    db_bind_text(db, st, 4, m->envelope_from) ||
	    db_bind_text(db, st, 5, m->recipients) ||
	    db_bind_blob(db, st, 6, m->message, m->message_len) ||
	    db_bind_int(db, st, 7, m->not_before ? m->not_before : created) ||
	    (ref && (db_bind_int(db, st, 8, m->raw_report) ||
		     db_bind_int(db, st, 9, (int64_t)m->raw_offset) ||
		     db_bind_int(db, st, 10, (int64_t)m->raw_len)))) {
		db_finish(st);
		return -1;
	}
	if (db_step(db, st, "enqueue") < 0)
		return -1;
	if (!sqlite3_changes(db->db))
		return db_bad(db,
			      "outbox message: report %lld has no stored "
			      "message of %zu bytes",
			      (long long)m->raw_report, m->raw_len);
	if (id)
		*id = sqlite3_last_insert_rowid(db->db);
	return 0;
}

/* ---- claiming a row ------------------------------------------------------ */

static const char sql_outbox_raw[] =
	"SELECT m.encoding, m.raw, r.size FROM messages m"
	" JOIN reports r ON r.id = m.report WHERE m.report = ?1";

/* join - head, then n bytes from p: a new NUL-terminated buffer */
static char *join(const void *head, size_t head_len, const void *p, size_t n)
{
	char *buf = xmalloc(head_len + n + 1);

	if (head_len)
		memcpy(buf, head, head_len);
	if (n)
		memcpy(buf + head_len, p, n);
	buf[head_len + n] = '\0';
	return buf;
}

/*
 * outbox_message - the one place an outbox row's bytes are put together:
 * its message column (head, head_len), then, when raw_report is set, the
 * stored bytes of that report from offset on (inflated when compressed).
 * Returns a new NUL-terminated buffer in *out.
 */
static int outbox_message(struct audit *db, const void *head, size_t head_len,
			  int64_t raw_report, int64_t offset, char **out,
			  size_t *out_len)
{
	sqlite3_stmt *st;
	const char *enc;
	const unsigned char *p;
	char *z = NULL;
	size_t n, size;
	int rc;

	*out = NULL;
	*out_len = 0;
	if (!raw_report) {
		*out = join(head, head_len, NULL, 0);
		*out_len = head_len;
		return 0;
	}
	st = db_prep(db, sql_outbox_raw);
	if (!st || db_bind_int(db, st, 1, raw_report))
		return -1;
	rc = db_step_row(db, st, "read a forward's message");
	if (rc != 1)
		return rc < 0 ? -1
			      : db_bad(db, "outbox: report %lld has no message",
				       (long long)raw_report);
	enc = db_col_text(st, 0);
	p = sqlite3_column_blob(st, 1);
	n = (size_t)sqlite3_column_bytes(st, 1);
	size = (size_t)sqlite3_column_int64(st, 2);
	if (enc && !strcmp(enc, "zlib")) {
		z = store_inflate(db, raw_report, p, n, size);
		if (!z) {
			db_finish(st);
			return -1;
		}
		p = (const unsigned char *)z;
		n = size;
	}
	if (offset < 0 || (uint64_t)offset > n) {
		rc = db_bad(db,
			    "outbox: offset %lld past report %lld's message",
			    (long long)offset, (long long)raw_report);
	} else {
		*out = join(head, head_len, p + offset, n - (size_t)offset);
		*out_len = head_len + n - (size_t)offset;
		rc = 0;
	}
	free(z);
	db_finish(st);
	return rc;
}

static const char sql_outbox_due[] =
	"SELECT id FROM outbox WHERE state IN ('queued', 'sending')"
	" AND next_attempt_at <= ?1 AND (?2 = 0 OR kind != 'bugzilla')"
	" ORDER BY next_attempt_at, id LIMIT 1";
/* message (the head) last: read by hand, with its length */
static const char sql_outbox_take[] =
	"UPDATE outbox SET state = 'sending', attempts = attempts + 1,"
	" next_attempt_at = ?2 WHERE id = ?1 RETURNING report, kind,"
	" created_at, envelope_from, recipients, attempts, raw_report,"
	" raw_offset, message";
static const struct db_col take_cols[] = {
	DB_COL(struct audit_outbox_item, I64, report),
	DB_COL(struct audit_outbox_item, DUP, kind),
	DB_COL(struct audit_outbox_item, I64, created_at),
	DB_COL(struct audit_outbox_item, DUP, envelope_from),
	DB_COL(struct audit_outbox_item, DUP, recipients),
	DB_COL(struct audit_outbox_item, INT, attempts),
};
static const struct db_row take_row =
	DB_ROW(struct audit_outbox_item, take_cols);

/* take - mark row id sending until lease and fill item; 1, or -1 */
static int take(struct audit *db, int64_t id, int64_t lease,
		struct audit_outbox_item *item)
{
	sqlite3_stmt *st = db_prep(db, sql_outbox_take);
	int64_t raw_report, raw_offset;
	char *head;
	size_t head_len;
	int rc;

	if (!st || db_bind_int(db, st, 1, id) || db_bind_int(db, st, 2, lease))
		return -1;
	rc = db_step_row(db, st, "claim outbox row");
	if (rc != 1)
		return rc < 0 ? -1
			      : db_bad(db, "outbox row %lld vanished",
				       (long long)id);
	item->id = id;
	item->lease_until = lease;
	db_fill(st, &take_row, item, NULL);
	raw_report = sqlite3_column_int64(st, 6);
	raw_offset = sqlite3_column_int64(st, 7);
	head = db_col_dup(st, 8, &head_len);
	/* RETURNING: the update is complete only once the statement ends */
	rc = db_step(db, st, "claim outbox row");
	if (rc == 0)
		rc = outbox_message(db, head, head_len, raw_report, raw_offset,
				    &item->message, &item->message_len);
	free(head);
	return rc < 0 ? -1 : 1;
}

/* audit_outbox_claim_due - lease the oldest due row to this worker */
int audit_outbox_claim_due(struct audit *db, int64_t now, int lease_seconds,
			   bool mail_only, struct audit_outbox_item *item)
{
	sqlite3_stmt *st;
	bool own;
	int64_t id, lease;
	int rc = -1;

	memset(item, 0, sizeof(*item));
	now = db_now(now);
	lease = now + (lease_seconds > 0 ? lease_seconds : AUDIT_LEASE_SECONDS);
	if (db_txn_enter(db, &own) < 0)
		return -1;
	st = db_prep(db, sql_outbox_due);
	if (st && !db_bind_int(db, st, 1, now) &&
	    !db_bind_int(db, st, 2, mail_only)) {
		rc = db_get_i64(db, st, "find due outbox row", &id);
		if (rc == 1)
			rc = take(db, id, lease, item);
	}
	rc = db_txn_leave(db, own, rc);
	if (rc != 1)
		audit_outbox_item_release(item);
	return rc;
}

/* audit_outbox_item_release - free a claimed item's copies */
void audit_outbox_item_release(struct audit_outbox_item *item)
{
	free(item->kind);
	free(item->envelope_from);
	free(item->recipients);
	free(item->message);
	memset(item, 0, sizeof(*item));
}

/* ---- outcomes ------------------------------------------------------------ */

static const char sql_ins_attempt[] =
	"INSERT INTO delivery_attempts (outbox, at, ok, smtp_code, detail)"
	" VALUES (?1, ?2, ?3, ?4, coalesce(?5, ''))";
/* ?1 the row, ?2 the claim's attempts; ?3 and ?4 as each needs */
static const char sql_outbox_sent[] =
	"UPDATE outbox SET state = 'sent', sent_at = ?3, last_error = NULL"
	" WHERE id = ?1 AND state = 'sending' AND attempts = ?2";
static const char sql_outbox_retry[] =
	"UPDATE outbox SET state = 'queued', next_attempt_at = ?3,"
	" last_error = ?4 WHERE id = ?1 AND state = 'sending'"
	" AND attempts = ?2";
static const char sql_outbox_fail[] =
	"UPDATE outbox SET state = 'failed', last_error = ?3"
	" WHERE id = ?1 AND state = 'sending' AND attempts = ?2";
static const char sql_outbox_fail_report[] =
	"UPDATE reports SET state = 'failed', updated_at = ?2"
	" WHERE id IN (SELECT report FROM outbox WHERE id = ?1"
	" AND kind IN ('forward', 'reply'))"
	" AND state NOT IN ('rejected', 'duplicate')";

static int insert_attempt(struct audit *db, int64_t outbox, int64_t at, bool ok,
			  int smtp_code, const char *detail)
{
	sqlite3_stmt *st = db_prep(db, sql_ins_attempt);

	if (!st || db_bind_int(db, st, 1, outbox) ||
	    db_bind_int(db, st, 2, at) || db_bind_int(db, st, 3, ok) ||
	    db_bind_int(db, st, 4, smtp_code) ||
	    db_bind_text(db, st, 5, detail))
		return -1;
	return db_step(db, st, "record delivery attempt");
}

/* bind_outcome - the parameters ?3 (and ?4) of sql's outcome */
static int bind_outcome(struct audit *db, sqlite3_stmt *st, const char *sql,
			int64_t now, int64_t next_at, const char *detail)
{
	if (sql == sql_outbox_sent)
		return db_bind_int(db, st, 3, now);
	if (sql == sql_outbox_retry)
		return db_bind_int(db, st, 3, next_at) ||
		       db_bind_text(db, st, 4, detail);
	return db_bind_text(db, st, 3, detail);
}

/*
 * outcome - record one attempt and move a claimed row on by sql; the
 * row changes only while this worker's claim (id, attempts) still holds
 */
static int outcome(struct audit *db, const struct audit_outbox_item *it,
		   const char *sql, int64_t now, int64_t next_at, bool ok,
		   int smtp_code, const char *detail)
{
	sqlite3_stmt *st;
	bool own, lost;
	int rc = -1;

	now = db_now(now);
	if (db_txn_enter(db, &own) < 0)
		return -1;
	if (insert_attempt(db, it->id, now, ok, smtp_code, detail) < 0)
		goto out;
	st = db_prep(db, sql);
	if (!st || db_bind_int(db, st, 1, it->id) ||
	    db_bind_int(db, st, 2, it->attempts) ||
	    bind_outcome(db, st, sql, now, next_at, detail) ||
	    db_step(db, st, "update outbox row") < 0)
		goto out;
	lost = sqlite3_changes(db->db) == 0;
	if (!lost && sql == sql_outbox_fail) {
		st = db_prep(db, sql_outbox_fail_report);
		if (!st || db_bind_int(db, st, 1, it->id) ||
		    db_bind_int(db, st, 2, now) ||
		    db_step(db, st, "mark report failed") < 0)
			goto out;
	}
	rc = lost ? 1 : 0;
out:
	return db_txn_leave(db, own, rc);
}

/* audit_outbox_done - the message went out */
int audit_outbox_done(struct audit *db, const struct audit_outbox_item *it,
		      int64_t now, int smtp_code, const char *detail)
{
	return outcome(db, it, sql_outbox_sent, now, 0, true, smtp_code,
		       detail);
}

/* audit_outbox_retry - failed for now: try again at next_at */
int audit_outbox_retry(struct audit *db, const struct audit_outbox_item *it,
		       int64_t now, int64_t next_at, int smtp_code,
		       const char *error)
{
	if (next_at <= 0)
		return db_bad(db, "retry of outbox row %lld without a time",
			      (long long)it->id);
	return outcome(db, it, sql_outbox_retry, now, next_at, false, smtp_code,
		       error);
}

/* audit_outbox_fail - give up; the report shows in pending as failed */
int audit_outbox_fail(struct audit *db, const struct audit_outbox_item *it,
		      int64_t now, int smtp_code, const char *error)
{
	return outcome(db, it, sql_outbox_fail, now, 0, false, smtp_code,
		       error);
}

/* ---- a triager's say ----------------------------------------------------- */

static const char sql_outbox_requeue[] =
	"UPDATE outbox SET state = 'queued', next_attempt_at = ?2"
	" WHERE id = ?1 AND state = 'failed'";
static const char sql_outbox_requeue_report[] =
	"UPDATE reports SET state = 'forwarded', updated_at = ?2"
	" WHERE id IN (SELECT report FROM outbox WHERE id = ?1)"
	" AND state = 'failed'";

/* audit_outbox_requeue - send a failed row again; 0, or 1 if not failed */
int audit_outbox_requeue(struct audit *db, int64_t outbox, int64_t now)
{
	bool own;
	int rc;

	now = db_now(now);
	if (db_txn_enter(db, &own) < 0)
		return -1;
	rc = db_run2(db, sql_outbox_requeue, outbox, now, "requeue");
	if (rc == 0 && !sqlite3_changes(db->db))
		rc = 1; /* not failed */
	else if (rc == 0)
		rc = db_run2(db, sql_outbox_requeue_report, outbox, now,
			     "requeue report");
	return db_txn_leave(db, own, rc);
}

static const char sql_outbox_cancel[] =
	"UPDATE outbox SET state = 'cancelled'"
	" WHERE id = ?1 AND state IN ('queued', 'failed')";

/* audit_outbox_cancel - never send this row; 0, or 1 if already gone */
int audit_outbox_cancel(struct audit *db, int64_t outbox)
{
	sqlite3_stmt *st = db_prep(db, sql_outbox_cancel);

	if (!st || db_bind_int(db, st, 1, outbox) ||
	    db_step(db, st, "cancel") < 0)
		return -1;
	return sqlite3_changes(db->db) ? 0 : 1;
}

static const char sql_outbox_set_message[] =
	"UPDATE outbox SET message = ?2 WHERE id = ?1 AND state = 'queued'"
	" AND raw_report IS NULL";

/* audit_outbox_set_message - a queued row's new bytes; 0, or 1 if not queued */
int audit_outbox_set_message(struct audit *db, int64_t outbox,
			     const void *message, size_t len)
{
	sqlite3_stmt *st = db_prep(db, sql_outbox_set_message);

	if (!st || db_bind_int(db, st, 1, outbox) ||
	    db_bind_blob(db, st, 2, message, len) ||
	    db_step(db, st, "replace a message") < 0)
		return -1;
	return sqlite3_changes(db->db) ? 0 : 1;
}

static const char sql_outbox_waiting[] =
	"SELECT id, kind, replace(recipients, char(10), ', '), attempts,"
	" next_attempt_at, coalesce(last_error, '') FROM outbox"
	" WHERE state = 'queued' AND attempts > 0 AND next_attempt_at > ?1"
	" ORDER BY next_attempt_at, id";
static const struct db_col waiting_cols[] = {
	DB_COL(struct audit_outbox_waiting, I64, id),
	DB_COL(struct audit_outbox_waiting, TEXT, kind),
	DB_COL(struct audit_outbox_waiting, TEXT, recipients),
	DB_COL(struct audit_outbox_waiting, INT, attempts),
	DB_COL(struct audit_outbox_waiting, I64, next_attempt_at),
	DB_COL(struct audit_outbox_waiting, TEXT, last_error),
};
static const struct db_row waiting_row =
	DB_ROW(struct audit_outbox_waiting, waiting_cols);

/* audit_outbox_waiting_list - rows that failed and wait for a retry */
int audit_outbox_waiting_list(struct audit *db, int64_t now,
			      int (*cb)(const struct audit_outbox_waiting *w,
					void *arg),
			      void *arg)
{
	sqlite3_stmt *st = db_prep(db, sql_outbox_waiting);
	struct audit_outbox_waiting w;
	int rc, stop;

	if (!st || db_bind_int(db, st, 1, db_now(now)))
		return -1;
	while ((rc = db_next(db, st, "list retries", &waiting_row, &w)) == 1)
		if ((stop = cb(&w, arg)))
			return db_stop(st, stop);
	return rc;
}

static const char sql_outbox_retry_now[] =
	"UPDATE outbox SET next_attempt_at = ?1"
	" WHERE state = 'queued' AND next_attempt_at > ?1";

/* audit_outbox_retry_now - every row waiting for a retry is due now */
int audit_outbox_retry_now(struct audit *db, int64_t now)
{
	sqlite3_stmt *st = db_prep(db, sql_outbox_retry_now);

	if (!st || db_bind_int(db, st, 1, db_now(now)) ||
	    db_step(db, st, "retry now") < 0)
		return -1;
	return sqlite3_changes(db->db);
}
