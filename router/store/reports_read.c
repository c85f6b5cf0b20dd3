// SPDX-License-Identifier: GPL-2.0-only
/*
 * reports_read - one report read back with everything recorded about it:
 * its row and message, evidence, classification, sections, decisions,
 * triagers' actions, outbox rows and their delivery attempts ('triage
 * show', approve, reroute ...; see audit.h)
 */
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "evidence.h"

static const char sql_get_report[] =
	"SELECT r.sha256, r.message_id, r.received_at, r.updated_at,"
	" r.source, r.envelope_from, r.envelope_to, r.from_addr,"
	" r.from_display, r.subject, r.date_header,"
	" coalesce(r.bug_id, 0), r.bug_url, r.size, r.flags, r.state,"
	" r.class, coalesce(r.duplicate_of, 0), r.deliveries, r.kind,"
	" m.encoding, m.body, CASE WHEN ?2 THEN m.raw END"
	" FROM reports r LEFT JOIN messages m ON m.report = r.id"
	" WHERE r.id = ?1";
/* the columns before m.encoding, m.body and m.raw, read by hand */
static const struct db_col report_cols[] = {
	DB_COL(struct audit_record, CHARS, sha256),
	DB_COL(struct audit_record, TEXT, message_id),
	DB_COL(struct audit_record, I64, received_at),
	DB_COL(struct audit_record, I64, updated_at),
	DB_COL(struct audit_record, TEXT, source),
	DB_COL(struct audit_record, TEXT, envelope_from),
	DB_COL(struct audit_record, TEXT, envelope_to),
	DB_COL(struct audit_record, TEXT, from_addr),
	DB_COL(struct audit_record, TEXT, from_display),
	DB_COL(struct audit_record, TEXT, subject),
	DB_COL(struct audit_record, TEXT, date_header),
	DB_COL(struct audit_record, LONG, bug_id),
	DB_COL(struct audit_record, TEXT, bug_url),
	DB_COL(struct audit_record, SIZE, size),
	DB_COL(struct audit_record, UINT, flags),
	DB_COL(struct audit_record, TEXT, state),
	DB_COL(struct audit_record, TEXT, class),
	DB_COL(struct audit_record, I64, duplicate_of),
	DB_COL(struct audit_record, INT, deliveries),
	DB_COL(struct audit_record, TEXT, kind),
};
static const struct db_row report_row =
	DB_ROW(struct audit_record, report_cols);
/* m.encoding's column: m.body and m.raw follow it */
#define MSG_COL ((int)ARRAY_SIZE(report_cols))

static const char sql_get_evidence[] =
	"SELECT title, crash_type, guilty_file, kernel_version, tainted,"
	" hardware, hw_virtual, distro_kernel, dmesg_timestamps,"
	" reproducer, bisect_commit, subject_prefix, syzbot"
	" FROM evidence WHERE report = ?1";
static const struct db_col evidence_cols[] = {
	DB_COL(struct evidence, TEXT, title),
	DB_COL(struct evidence, TEXT, crash_type),
	DB_COL(struct evidence, TEXT, guilty_file),
	DB_COL(struct evidence, TEXT, kernel_version),
	DB_COL(struct evidence, TEXT, tainted),
	DB_COL(struct evidence, TEXT, hardware),
	DB_COL(struct evidence, BOOL, hw_virtual),
	DB_COL(struct evidence, TEXT, distro_kernel),
	DB_COL(struct evidence, BOOL, dmesg_timestamps),
	DB_COL(struct evidence, UINT, reproducer),
	DB_COL(struct evidence, TEXT, bisect_commit),
	DB_COL(struct evidence, TEXT, subject_prefix),
	DB_COL(struct evidence, BOOL, syzbot),
};
static const struct db_row evidence_row =
	DB_ROW(struct evidence, evidence_cols);

static const char sql_get_frames[] =
	"SELECT j.value ->> 'function', j.value ->> 'file',"
	" j.value ->> 'line', j.value ->> 'module',"
	" j.value ->> 'offset', j.value ->> 'size',"
	" j.value ->> 'inlined', j.value ->> 'unreliable',"
	" j.value ->> 'from_index'"
	" FROM evidence e, json_each(e.frames) j WHERE e.report = ?1"
	" ORDER BY j.key";
static const struct db_col frame_cols[] = {
	DB_COL(struct frame, TEXT, function),
	DB_COL(struct frame, TEXT, file),
	DB_COL(struct frame, INT, line),
	DB_COL(struct frame, TEXT, module),
	DB_COL(struct frame, ULONG, offset),
	DB_COL(struct frame, ULONG, size),
	DB_COL(struct frame, BOOL, inlined),
	DB_COL(struct frame, BOOL, unreliable),
	DB_COL(struct frame, BOOL, from_index),
};
static const struct db_row frame_row = DB_ROW(struct frame, frame_cols);

static const char sql_get_list[] =
	"SELECT j.value FROM evidence e, json_each(CASE ?2"
	" WHEN 'file' THEN e.files WHEN 'function' THEN"
	" e.functions WHEN 'reported_by' THEN e.reported_by"
	" ELSE e.tested_by END) j WHERE e.report = ?1 ORDER BY j.key";
/* a list of strings: an array of char * */
static const struct db_col item_col[] = { { DB_TEXT, 0, sizeof(char *) } };
static const struct db_row item_row = { item_col, 1, sizeof(char *) };

static const char sql_get_class[] =
	"SELECT class, score_user, score_fuzzer, score_ai, confidence,"
	" certain, model_version, header, classified_at"
	" FROM classification WHERE report = ?1";
static const struct db_col class_cols[] = {
	DB_COL(struct audit_classification, TEXT, class),
	DB_COL(struct audit_classification, REAL, score_user),
	DB_COL(struct audit_classification, REAL, score_fuzzer),
	DB_COL(struct audit_classification, REAL, score_ai),
	DB_COL(struct audit_classification, REAL, confidence),
	DB_COL(struct audit_classification, BOOL, certain),
	DB_COL(struct audit_classification, TEXT, model_version),
	DB_COL(struct audit_classification, TEXT, header),
	DB_COL(struct audit_classification, I64, at),
};
static const struct db_row class_row =
	DB_ROW(struct audit_classification, class_cols);

static const char sql_get_hits[] =
	"SELECT j.value ->> 'name', j.value ->> 'score',"
	" j.value ->> 'describe' FROM classification c,"
	" json_each(c.rule_hits) j WHERE c.report = ?1 ORDER BY j.key";
static const struct db_col hit_cols[] = {
	DB_COL(struct audit_rule_hit, TEXT, name),
	DB_COL(struct audit_rule_hit, REAL, score),
	DB_COL(struct audit_rule_hit, TEXT, describe),
};
static const struct db_row hit_row = DB_ROW(struct audit_rule_hit, hit_cols);

static const char sql_get_sections[] =
	"SELECT j.value ->> 'name', j.value ->> 'score', j.value ->> 'why'"
	" FROM reports r, json_each(r.sections) j WHERE r.id = ?1"
	" ORDER BY j.key";
static const struct db_col section_cols[] = {
	DB_COL(struct audit_section, TEXT, name),
	DB_COL(struct audit_section, REAL, score),
	DB_COL(struct audit_section, TEXT, why),
};
static const struct db_row section_row =
	DB_ROW(struct audit_section, section_cols);

static const char sql_get_decisions[] =
	"SELECT id, at, action, recipient, recipient_name, reason,"
	" candidates, security FROM decisions WHERE report = ?1"
	" ORDER BY at, id";
static const struct db_col decision_cols[] = {
	DB_COL(struct audit_decision, I64, id),
	DB_COL(struct audit_decision, I64, at),
	DB_COL(struct audit_decision, TEXT, action),
	DB_COL(struct audit_decision, TEXT, recipient),
	DB_COL(struct audit_decision, TEXT, recipient_name),
	DB_COL(struct audit_decision, TEXT, reason),
	DB_COL(struct audit_decision, TEXT, candidates),
	DB_COL(struct audit_decision, TEXT, security),
};
static const struct db_row decision_row =
	DB_ROW(struct audit_decision, decision_cols);

static const char sql_get_actions[] =
	"SELECT id, report, at, who, action, argument, previous, detail"
	" FROM actions WHERE report = ?1 ORDER BY at, id";
static const struct db_col action_cols[] = {
	DB_COL(struct audit_action, I64, id),
	DB_COL(struct audit_action, I64, report),
	DB_COL(struct audit_action, I64, at),
	DB_COL(struct audit_action, TEXT, who),
	DB_COL(struct audit_action, TEXT, action),
	DB_COL(struct audit_action, TEXT, argument),
	DB_COL(struct audit_action, TEXT, previous),
	DB_COL(struct audit_action, TEXT, detail),
};
static const struct db_row action_row =
	DB_ROW(struct audit_action, action_cols);

static const char sql_get_outbox[] =
	"SELECT id, created_at, next_attempt_at, coalesce(sent_at, 0), kind,"
	" state, envelope_from, recipients, last_error, attempts,"
	" length(message) + coalesce((SELECT r.size - o.raw_offset"
	" FROM reports r WHERE r.id = o.raw_report), 0)"
	" FROM outbox o WHERE report = ?1 ORDER BY id";
static const struct db_col outbox_cols[] = {
	DB_COL(struct audit_outbox_info, I64, id),
	DB_COL(struct audit_outbox_info, I64, created_at),
	DB_COL(struct audit_outbox_info, I64, next_attempt_at),
	DB_COL(struct audit_outbox_info, I64, sent_at),
	DB_COL(struct audit_outbox_info, TEXT, kind),
	DB_COL(struct audit_outbox_info, TEXT, state),
	DB_COL(struct audit_outbox_info, TEXT, envelope_from),
	DB_COL(struct audit_outbox_info, TEXT, recipients),
	DB_COL(struct audit_outbox_info, TEXT, last_error),
	DB_COL(struct audit_outbox_info, INT, attempts),
	DB_COL(struct audit_outbox_info, SIZE, message_len),
};
static const struct db_row outbox_row =
	DB_ROW(struct audit_outbox_info, outbox_cols);

static const char sql_get_attempts[] =
	"SELECT at, ok, smtp_code, detail FROM delivery_attempts"
	" WHERE outbox = ?1 ORDER BY at, id";
static const struct db_col attempt_cols[] = {
	DB_COL(struct audit_attempt, I64, at),
	DB_COL(struct audit_attempt, BOOL, ok),
	DB_COL(struct audit_attempt, INT, smtp_code),
	DB_COL(struct audit_attempt, TEXT, detail),
};
static const struct db_row attempt_row =
	DB_ROW(struct audit_attempt, attempt_cols);

/* get_items - evidence list kind ("file", "function", ...) */
static int get_items(struct audit *db, struct audit_record *rec,
		     const char *kind, char ***out, size_t *n)
{
	sqlite3_stmt *st = db_prep(db, sql_get_list);

	*n = 0;
	if (!st || db_bind_int(db, st, 1, rec->id) ||
	    db_bind_text(db, st, 2, kind))
		return -1;
	return db_all(db, st, "read evidence list", &item_row, &rec->owned, out,
		      n);
}

/* get_one - the row of sql for rec into a new struct of the record */
static int get_one(struct audit *db, struct audit_record *rec, const char *sql,
		   const char *what, const struct db_row *r, void *out)
{
	void *p = db_own(&rec->owned, xcalloc(1, r->size));
	int rc = db_get_id(db, sql, rec->id, what, r, p, &rec->owned);

	if (rc == 1)
		memcpy(out, &p, sizeof(p));
	return rc;
}

static int get_evidence(struct audit *db, struct audit_record *rec)
{
	struct evidence *ev;
	int rc;

	rc = get_one(db, rec, sql_get_evidence, "read evidence", &evidence_row,
		     &rec->evidence);
	if (rc != 1)
		return rc;
	ev = rec->evidence;
	if (db_all_id(db, sql_get_frames, rec->id, "read frames", &frame_row,
		      &rec->owned, &ev->frames, &ev->nframes) < 0 ||
	    get_items(db, rec, "file", &ev->files, &ev->nfiles) < 0 ||
	    get_items(db, rec, "function", &ev->functions, &ev->nfunctions) <
		    0 ||
	    get_items(db, rec, "reported_by", &ev->reported_by,
		      &ev->nreported_by) < 0 ||
	    get_items(db, rec, "tested_by", &ev->tested_by, &ev->ntested_by) <
		    0)
		return -1;
	return 1;
}

static int get_classification(struct audit *db, struct audit_record *rec)
{
	struct audit_classification *c;
	struct audit_rule_hit *hits;
	int rc;

	rc = get_one(db, rec, sql_get_class, "read classification", &class_row,
		     &rec->classification);
	if (rc != 1)
		return rc;
	c = rec->classification;
	rc = db_all_id(db, sql_get_hits, rec->id, "read rule hits", &hit_row,
		       &rec->owned, &hits, &c->nhits);
	c->hits = hits;
	return rc < 0 ? -1 : 1;
}

/* get_lists - sections, decisions, actions, outbox rows and attempts */
static int get_lists(struct audit *db, struct audit_record *rec)
{
	size_t i;

	if (db_all_id(db, sql_get_sections, rec->id, "read sections",
		      &section_row, &rec->owned, &rec->sections,
		      &rec->nsections) < 0 ||
	    db_all_id(db, sql_get_decisions, rec->id, "read decisions",
		      &decision_row, &rec->owned, &rec->decisions,
		      &rec->ndecisions) < 0 ||
	    db_all_id(db, sql_get_actions, rec->id, "read actions", &action_row,
		      &rec->owned, &rec->actions, &rec->nactions) < 0 ||
	    db_all_id(db, sql_get_outbox, rec->id, "read outbox", &outbox_row,
		      &rec->owned, &rec->outbox, &rec->noutbox) < 0)
		return -1;
	for (i = 0; i < rec->noutbox; i++) {
		struct audit_outbox_info *b = &rec->outbox[i];

		if (db_all_id(db, sql_get_attempts, b->id, "read attempts",
			      &attempt_row, &rec->owned, &b->tries,
			      &b->ntries) < 0)
			return -1;
	}
	return 0;
}

/* get_message - the body, and with raw the stored bytes as they arrived */
static int get_message(struct audit *db, struct audit_record *rec,
		       sqlite3_stmt *st, bool raw)
{
	const char *enc = db_col_text(st, MSG_COL);
	const void *p;
	size_t n;
	char *out;

	if (db_col_text(st, MSG_COL + 1)) {
		rec->body_len = (size_t)sqlite3_column_bytes(st, MSG_COL + 1);
		rec->body = db_own(
			&rec->owned,
			xmemdup0(db_col_text(st, MSG_COL + 1), rec->body_len));
	}
	if (!raw || !enc)
		return 0;
	p = sqlite3_column_blob(st, MSG_COL + 2);
	n = (size_t)sqlite3_column_bytes(st, MSG_COL + 2);
	if (strcmp(enc, "zlib")) {
		rec->raw = db_own(&rec->owned, xmemdup0(p ? p : "", n));
		rec->raw_len = n;
		return 0;
	}
	out = store_inflate(db, rec->id, p, n, rec->size);
	if (!out)
		return -1;
	rec->raw = db_own(&rec->owned, out);
	rec->raw_len = rec->size;
	return 0;
}

/* audit_get_report - everything known about one report */
int audit_get_report(struct audit *db, int64_t id, unsigned flags,
		     struct audit_record *rec)
{
	sqlite3_stmt *st = db_prep(db, sql_get_report);
	int rc;

	memset(rec, 0, sizeof(*rec));
	if (!st || db_bind_int(db, st, 1, id) ||
	    db_bind_int(db, st, 2, !!(flags & AUDIT_GET_RAW)))
		return -1;
	rc = db_step_row(db, st, "read report");
	if (rc != 1)
		return rc;
	rec->id = id;
	db_fill(st, &report_row, rec, &rec->owned);
	rc = get_message(db, rec, st, flags & AUDIT_GET_RAW);
	db_finish(st);
	if (rc < 0 || get_evidence(db, rec) < 0 ||
	    get_classification(db, rec) < 0 || get_lists(db, rec) < 0) {
		audit_record_release(rec);
		return -1;
	}
	return 1;
}

/* audit_record_release - free everything a record holds */
void audit_record_release(struct audit_record *rec)
{
	db_owned_release(&rec->owned);
	memset(rec, 0, sizeof(*rec));
}
