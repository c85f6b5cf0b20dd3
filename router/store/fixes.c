// SPDX-License-Identifier: GPL-2.0-only
/*
 * fixes - commits that fixed reports, and the reminders of what waits
 * for a person (see audit.h, "fixes from git, reminders")
 *
 * Tables: fixes, reminders (schema 10); reports, decisions, actions
 * read for what waits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"

/* a Bugzilla bug's Message-ID is the router's own: no archive has it */
static const char sql_message_id[] =
	"SELECT message_id FROM reports WHERE id = ?1 AND source = 'mail'";

/* audit_message_id - report id's Message-ID: 1, 0 (none), -1 */
int audit_message_id(struct audit *db, int64_t id, char *out, size_t size)
{
	sqlite3_stmt *st = db_prep(db, sql_message_id);
	const char *v;
	int rc;

	if (size)
		*out = '\0';
	if (!st || db_bind_int(db, st, 1, id))
		return -1;
	rc = db_step_row(db, st, "read message id");
	if (rc != 1)
		return rc;
	v = db_col_text(st, 0);
	rc = v && *v && strlen(v) < size;
	if (rc)
		memcpy(out, v, strlen(v) + 1);
	db_finish(st);
	return rc;
}

static const char sql_proposed_by[] =
	"SELECT report FROM fixes WHERE source_report = ?1"
	" AND state = 'proposed' ORDER BY id LIMIT 1";

/* audit_fix_proposed_by - the report patch (a row) was proposed for */
int audit_fix_proposed_by(struct audit *db, int64_t patch, int64_t *report)
{
	sqlite3_stmt *st = db_prep(db, sql_proposed_by);

	*report = 0;
	if (!st || db_bind_int(db, st, 1, patch))
		return -1;
	return db_get_i64(db, st, "read fixes", report);
}

static const char sql_fixed_by[] =
	"SELECT id FROM fixes WHERE report = ?1 AND commit_sha = ?2"
	" AND state = 'fixed'";

/* audit_mark_fixed - f's commit fixed its report, recorded once */
int audit_mark_fixed(struct audit *db, const struct audit_fix *f,
		     const char *who)
{
	struct audit_action a;
	sqlite3_stmt *st;
	char arg[16];
	int64_t had;
	bool own;
	int rc;

	if (!f->commit_sha || !*f->commit_sha || !f->report)
		return db_bad(db, "a fix needs a report and a commit");
	if (db_txn_enter(db, &own) < 0)
		return -1;
	st = db_prep(db, sql_fixed_by);
	rc = !st || db_bind_int(db, st, 1, f->report) ||
			     db_bind_text(db, st, 2, f->commit_sha)
		     ? -1
		     : db_get_i64(db, st, "read fixes", &had);
	if (rc != 0)
		return db_txn_leave(db, own, rc < 0 ? -1 : 0);
	snprintf(arg, sizeof(arg), "%.12s", f->commit_sha);
	memset(&a, 0, sizeof(a));
	a.report = f->report;
	a.at = f->at;
	a.who = who;
	a.action = "fixed";
	a.argument = arg;
	a.detail = f->tree;
	rc = audit_insert_fix(db, f, NULL) < 0 ||
			     audit_record_action(db, &a, NULL) < 0
		     ? -1
		     : 1;
	return db_txn_leave(db, own, rc);
}

static const char sql_fixed_list[] =
	"SELECT f.report, f.at, coalesce(f.commit_sha, ''),"
	" coalesce(f.tree, ''), r.subject, coalesce(f.how, ''), r.state"
	" FROM fixes f JOIN reports r ON r.id = f.report"
	" WHERE f.state = 'fixed' AND f.at >= ?1 ORDER BY f.at, f.id";
static const struct db_col fixed_cols[] = {
	DB_COL(struct audit_fixed, I64, report),
	DB_COL(struct audit_fixed, I64, at),
	DB_COL(struct audit_fixed, TEXT, commit_sha),
	DB_COL(struct audit_fixed, TEXT, tree),
	DB_COL(struct audit_fixed, TEXT, subject),
	DB_COL(struct audit_fixed, TEXT, how),
	DB_COL(struct audit_fixed, TEXT, state),
};
static const struct db_row fixed_row = DB_ROW(struct audit_fixed, fixed_cols);

int audit_fixed_list(struct audit *db, int64_t since,
		     int (*cb)(const struct audit_fixed *f, void *arg),
		     void *arg)
{
	sqlite3_stmt *st = db_prep(db, sql_fixed_list);
	struct audit_fixed f;
	int rc, stop;

	if (!st || db_bind_int(db, st, 1, since))
		return -1;
	while ((rc = db_next(db, st, "list fixes", &fixed_row, &f)) == 1)
		if ((stop = cb(&f, arg)))
			return db_stop(st, stop);
	return rc;
}

/*
 * What waits for its recipient: the report's last forward went to a
 * person before ?1; it is still forwarded or approved (not fixed,
 * rejected, a duplicate); no fix is known (made, or proposed by one of
 * its people: a stranger's Closes: silences nothing); its
 * recipient never wrote in its thread; nobody said it is not theirs,
 * invalid, a duplicate or fixed since that forward.
 */
static const char sql_remind[] =
	"SELECT r.id, r.received_at, d.at, d.recipient, r.subject,"
	" CASE r.source WHEN 'mail' THEN r.message_id END,"
	" coalesce(r.section, ''), r.regression,"
	" coalesce(r.class, '')"
	" FROM reports r JOIN decisions d ON d.id = (SELECT id FROM decisions"
	"   WHERE report = r.id AND action = 'forward'"
	"   AND recipient IS NOT NULL ORDER BY at DESC, id DESC LIMIT 1)"
	" WHERE r.state IN ('forwarded', 'approved') AND r.kind = 'report'"
	" AND r.thread_root IS NULL AND d.at <= ?1"
	" AND NOT EXISTS (SELECT 1 FROM fixes f WHERE f.report = r.id"
	"   AND (f.state = 'fixed' OR f.how IS NULL"
	"   OR f.how NOT LIKE '%" AUDIT_FIX_NOT_A_PARTY "'))"
	" AND NOT EXISTS (SELECT 1 FROM reports x WHERE x.thread_root = r.id"
	"   AND x.from_addr = d.recipient COLLATE NOCASE)"
	" AND NOT EXISTS (SELECT 1 FROM actions a WHERE a.report = r.id"
	"   AND a.at >= d.at AND a.action IN ('reject', 'dup', 'notme',"
	"   'fixed', 'invalid'))"
	" ORDER BY d.recipient COLLATE NOCASE, r.regression DESC, d.at, r.id";
static const struct db_col remind_cols[] = {
	DB_COL(struct audit_remind, I64, id),
	DB_COL(struct audit_remind, I64, received_at),
	DB_COL(struct audit_remind, I64, forwarded_at),
	DB_COL(struct audit_remind, TEXT, recipient),
	DB_COL(struct audit_remind, TEXT, subject),
	DB_COL(struct audit_remind, TEXT, message_id),
	DB_COL(struct audit_remind, TEXT, section),
	DB_COL(struct audit_remind, BOOL, regression),
	DB_COL(struct audit_remind, TEXT, class),
};
static const struct db_row remind_row =
	DB_ROW(struct audit_remind, remind_cols);

int audit_remind_list(struct audit *db, int64_t before,
		      int (*cb)(const struct audit_remind *r, void *arg),
		      void *arg)
{
	sqlite3_stmt *st = db_prep(db, sql_remind);
	struct audit_remind r;
	int rc, stop;

	if (!st || db_bind_int(db, st, 1, before))
		return -1;
	while ((rc = db_next(db, st, "list reminders", &remind_row, &r)) == 1)
		if ((stop = cb(&r, arg)))
			return db_stop(st, stop);
	return rc;
}

static const char sql_reminder_last[] =
	"SELECT max(at) FROM reminders WHERE recipient = ?1";
static const char sql_reminder_ins[] =
	"INSERT INTO reminders (recipient, at, outbox, reports)"
	" VALUES (?1, ?2, ?3, ?4)";

int audit_reminder_last(struct audit *db, const char *recipient, int64_t *at)
{
	sqlite3_stmt *st = db_prep(db, sql_reminder_last);
	int rc;

	*at = 0;
	if (!st || db_bind_text(db, st, 1, recipient))
		return -1;
	rc = db_step_row(db, st, "read reminders");
	if (rc != 1)
		return rc;
	rc = sqlite3_column_type(st, 0) != SQLITE_NULL;
	if (rc)
		*at = sqlite3_column_int64(st, 0);
	db_finish(st);
	return rc;
}

int audit_reminder_record(struct audit *db, const char *recipient, int64_t at,
			  int64_t outbox, const char *reports_json)
{
	sqlite3_stmt *st = db_prep(db, sql_reminder_ins);

	if (!st || db_bind_text(db, st, 1, recipient) ||
	    db_bind_int(db, st, 2, db_now(at)) ||
	    db_bind_id(db, st, 3, outbox) ||
	    db_bind_text(db, st, 4, reports_json ? reports_json : "[]"))
		return -1;
	return db_step(db, st, "record reminder");
}
