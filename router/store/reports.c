// SPDX-License-Identifier: GPL-2.0-only
/*
 * reports - a report written (the filter's transaction: the report and
 * its message, evidence, classification, sections and decision), its
 * stored bytes compressed later, and all of it read back (see audit.h)
 *
 * Tables: reports, messages, evidence, classification, decisions; the
 * outbox, delivery_attempts and actions rows of one report as read back
 * for 'triage show'.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "db.h"
#include "evidence.h"
#include "report.h"

/* ---- names --------------------------------------------------------------- */

static const char *const states[] = {
	"forwarded", "held",	 "digest", "replied",  "duplicate",
	"rejected",  "approved", "failed", "recorded", "fixed",
};
static const char *const classes[] = { "user", "fuzzer", "ai", "uncertain" };
static const char *const decision_actions[] = { "forward",    "hold",
						"digest",     "reply",
						"duplicate",  "follow-up",
						"seen-again", "record" };

/* audit_valid_state - s is a report state of the schema */
bool audit_valid_state(const char *s)
{
	return db_one_of(s, states, ARRAY_SIZE(states));
}

/* audit_valid_class - s is a class of the schema */
bool audit_valid_class(const char *s)
{
	return db_one_of(s, classes, ARRAY_SIZE(classes));
}

/* ---- duplicates ---------------------------------------------------------- */

static const char sql_find_dup[] =
	"SELECT id, 1 FROM reports WHERE sha256 = ?1 UNION ALL"
	" SELECT * FROM (SELECT id, 2 FROM reports"
	" WHERE message_id = ?2 AND duplicate_of IS NULL"
	" ORDER BY id LIMIT 1) LIMIT 1";

/* dup_row - the row a duplicate query found: 1 bytes, 2 Message-ID, 0, -1 */
static int dup_row(struct audit *db, sqlite3_stmt *st, int64_t *id)
{
	int rc = db_step_row(db, st, "find duplicate");

	if (rc != 1)
		return rc;
	*id = sqlite3_column_int64(st, 0);
	rc = sqlite3_column_int(st, 1);
	db_finish(st);
	return rc;
}

/* audit_find_duplicate - a stored report with these bytes or Message-ID */
int audit_find_duplicate(struct audit *db, const char *sha256,
			 const char *message_id, int64_t *id)
{
	sqlite3_stmt *st = db_prep(db, sql_find_dup);

	*id = 0;
	if (!st || db_bind_text(db, st, 1, sha256) ||
	    db_bind_text(db, st, 2, db_or_null(message_id)))
		return -1;
	return dup_row(db, st, id);
}

static const char sql_find_dup_from[] =
	"SELECT id, 1 FROM reports WHERE sha256 = ?1 UNION ALL"
	" SELECT * FROM (SELECT id, 2 FROM reports"
	" WHERE message_id = ?2 AND duplicate_of IS NULL"
	" AND source = ?3 AND (from_addr = ?4 COLLATE NOCASE"
	" OR envelope_from = ?5) ORDER BY id LIMIT 1) LIMIT 1";

/* audit_find_duplicate_from - the same, by the same sender and source */
int audit_find_duplicate_from(struct audit *db, const struct report *r,
			      int64_t *id)
{
	sqlite3_stmt *st = db_prep(db, sql_find_dup_from);

	*id = 0;
	if (!st || db_bind_text(db, st, 1, r->sha256) ||
	    db_bind_text(db, st, 2, db_or_null(r->message_id)) ||
	    db_bind_text(db, st, 3, r->source ? r->source : "mail") ||
	    db_bind_text(db, st, 4, db_or_null(r->from_addr)) ||
	    db_bind_text(db, st, 5, db_or_null(r->envelope_from)))
		return -1;
	return dup_row(db, st, id);
}

static const char sql_replies_to[] =
	"SELECT count(*) FROM outbox WHERE kind = 'reply'"
	" AND recipients = ?1 COLLATE NOCASE AND created_at >= ?2";

/* audit_replies_since - automatic replies queued to addr since */
long audit_replies_since(struct audit *db, const char *addr, int64_t since)
{
	sqlite3_stmt *st = db_prep(db, sql_replies_to);
	long n;

	if (!st || db_bind_text(db, st, 1, addr) ||
	    db_bind_int(db, st, 2, since))
		return -1;
	if (db_step_row(db, st, "replies") != 1)
		return -1;
	n = (long)sqlite3_column_int64(st, 0);
	db_finish(st);
	return n;
}

/* what went out: a forward, or a follow-up sent on to someone */
#define SQL_WENT_OUT                                        \
	" JOIN decisions d ON d.report = r.id AND"          \
	" (d.action = 'forward' OR (d.action = 'follow-up'" \
	" AND d.recipient IS NOT NULL))"

static const char sql_forwards_from[] =
	"SELECT count(*) FROM reports r" SQL_WENT_OUT
	" WHERE (r.from_addr = ?1 COLLATE NOCASE"
	" OR r.envelope_from = ?1 COLLATE NOCASE) AND r.received_at >= ?2";

static const char sql_forwards_from_net[] =
	"SELECT count(*) FROM reports r" SQL_WENT_OUT
	" WHERE r.client_net = ?1 AND r.received_at >= ?2";

/* count_since - the count sql (?1 key, ?2 since) returns */
static long count_since(struct audit *db, const char *sql, const char *key,
			int64_t since, const char *what)
{
	sqlite3_stmt *st = db_prep(db, sql);
	long n;

	if (!st || db_bind_text(db, st, 1, key) ||
	    db_bind_int(db, st, 2, since))
		return -1;
	if (db_step_row(db, st, what) != 1)
		return -1;
	n = (long)sqlite3_column_int64(st, 0);
	db_finish(st);
	return n;
}

/* audit_forwards_from - what addr had sent out since (sender_cap) */
long audit_forwards_from(struct audit *db, const char *addr, int64_t since)
{
	return count_since(db, sql_forwards_from, addr, since,
			   "forwards from a sender");
}

/* audit_forwards_from_net - what net had sent out since (client_cap) */
long audit_forwards_from_net(struct audit *db, const char *net, int64_t since)
{
	return count_since(db, sql_forwards_from_net, net, since,
			   "forwards from a network");
}

static const char sql_set_sendable[] =
	"UPDATE messages SET sendable = ?2 WHERE report = ?1";

/* audit_set_sendable - keep the sendable copy of report's message */
int audit_set_sendable(struct audit *db, int64_t report, const void *p,
		       size_t len)
{
	sqlite3_stmt *st = db_prep(db, sql_set_sendable);

	if (!st || db_bind_int(db, st, 1, report) ||
	    db_bind_blob(db, st, 2, p, len))
		return -1;
	if (db_step(db, st, "keep a sendable copy") < 0)
		return -1;
	if (!sqlite3_changes(db->db))
		return db_bad(db, "no message of report %lld",
			      (long long)report);
	return 0;
}

static const char sql_sendable[] =
	"SELECT sendable FROM messages WHERE report = ?1"
	" AND sendable IS NOT NULL";

/* audit_sendable - the sendable copy of report's message: 1, 0 or -1 */
int audit_sendable(struct audit *db, int64_t report, char **out, size_t *len)
{
	sqlite3_stmt *st = db_prep(db, sql_sendable);
	int rc;

	*out = NULL;
	*len = 0;
	if (!st || db_bind_int(db, st, 1, report))
		return -1;
	rc = db_step_row(db, st, "read a sendable copy");
	if (rc != 1)
		return rc;
	*len = (size_t)sqlite3_column_bytes(st, 0);
	*out = xmemdup0(*len ? sqlite3_column_blob(st, 0) : "", *len);
	db_finish(st);
	return 1;
}

static const char sql_redelivery[] =
	"UPDATE reports SET deliveries = deliveries + 1, updated_at = ?2"
	" WHERE id = ?1";

/* audit_note_redelivery - count one more delivery of report id's bytes */
int audit_note_redelivery(struct audit *db, int64_t id, int64_t now)
{
	return db_run2(db, sql_redelivery, id, db_now(now), "note redelivery");
}

/* ---- the report row and its message -------------------------------------- */

static const char sql_ins_message[] =
	"INSERT INTO messages (report, encoding, raw, body)"
	" VALUES (?1, 'identity', ?2, ?3)";

static bool is_sha256(const char *s)
{
	size_t i;

	for (i = 0; i < 64; i++)
		if (!s[i] || !strchr("0123456789abcdef", s[i]))
			return false;
	return s[64] == '\0';
}

/*
 * blob_fill - write n bytes from p over the start of column col (zeros
 * of at least n bytes) of messages row rid, through an incremental blob
 * handle; 0 or -1
 */
static int blob_fill(struct audit *db, int64_t rid, const char *col,
		     const void *p, size_t n)
{
	sqlite3_blob *b = NULL;
	int rc;

	if (!n)
		return 0;
	if (n > INT_MAX)
		return db_bad(db, "message %lld: %zu bytes of %s",
			      (long long)rid, n, col);
	rc = sqlite3_blob_open(db->db, "main", "messages", col, rid, 1, &b);
	if (rc != SQLITE_OK)
		return db_fail(db, rc, "open message");
	rc = sqlite3_blob_write(b, p, (int)n, 0);
	if (rc != SQLITE_OK) {
		db_fail(db, rc, "write message");
		sqlite3_blob_close(b);
		return -1;
	}
	rc = sqlite3_blob_close(b);
	return rc == SQLITE_OK ? 0 : db_fail(db, rc, "write message");
}

/*
 * message_late - whether r's bytes go into its messages row after the
 * INSERT (see AUDIT_MESSAGE_LATE_MIN).  Only inside the caller's
 * transaction: a failure after the INSERT must roll the zeros back with
 * it, and an INSERT on its own would commit them at once.
 */
static bool message_late(struct audit *db, const struct report *r)
{
	return r->raw_len >= AUDIT_MESSAGE_LATE_MIN &&
	       !sqlite3_get_autocommit(db->db);
}

/*
 * insert_message - the messages row of report rid: r's raw bytes and
 * main text.  Bound to the INSERT, SQLite copies both into one record
 * buffer (OP_MakeRecord) before the B-tree copies them again into the
 * page cache: 2.1 MB of malloc for a 2 MB report, on top of the dirty
 * pages the filter keeps unspilled.  So a message of
 * AUDIT_MESSAGE_LATE_MIN bytes or more is inserted as zeros of its
 * lengths, which take no bytes of the record, and then written into the
 * row's overflow pages (blob_fill()).  Zeros stay out of the record only
 * when every column after them does too, so the body (the column after
 * raw) goes the same way and is stored as a BLOB of its UTF-8 bytes;
 * sqlite3_column_text() reads it as before.  A NULL or empty body stays
 * as it is.  Any failure leaves the zeros to the caller's rollback.
 * Below 256 KiB the copy is a small part of the filter's resident set
 * (which keeps the one statement), and the CPU the same either way.
 */
static int insert_message(struct audit *db, const struct report *r, int64_t rid)
{
	sqlite3_stmt *st = db_prep(db, sql_ins_message);
	size_t body_len = r->body ? r->body_len : 0;
	bool late = message_late(db, r);
	int err;

	if (!st)
		return -1;
	err = db_bind_int(db, st, 1, rid);
	if (!err && late)
		err = db_bind_zeroblob(db, st, 2, r->raw_len) ||
		      (body_len ? db_bind_zeroblob(db, st, 3, body_len)
				: db_bind_textn(db, st, 3, r->body, 0));
	else if (!err)
		err = db_bind_blob(db, st, 2, r->raw, r->raw_len) ||
		      db_bind_textn(db, st, 3, r->body, body_len);
	if (err) {
		db_finish(st);
		return -1;
	}
	if (db_step(db, st, "insert message") < 0)
		return -1;
	if (late && (blob_fill(db, rid, "raw", r->raw, r->raw_len) < 0 ||
		     blob_fill(db, rid, "body", r->body, body_len) < 0))
		return -1;
	return 0;
}

static const char sql_ins_report[] =
	"INSERT INTO reports (sha256, message_id, received_at, source,"
	" envelope_from, envelope_to, from_addr, from_display, subject,"
	" date_header, bug_id, bug_url, size, flags, state,"
	" duplicate_of, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7,"
	" ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?3)";
/* the same row with schema 3's columns */
static const char sql_ins_report_row[] =
	"INSERT INTO reports (sha256, message_id, received_at, source,"
	" envelope_from, envelope_to, from_addr, from_display, subject,"
	" date_header, bug_id, bug_url, size, flags, state,"
	" duplicate_of, updated_at, thread_root, same_crash_as,"
	" crash_signature, syzbot_id, regression, class, section,"
	" sections, kind, client_net) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7,"
	" ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?3, ?17, ?18, ?19,"
	" ?20, ?21, ?22, ?23, ?24, ?25, ?26)";

/* bind_report - the report's own columns ?1..?16 */
static int bind_report(struct audit *db, sqlite3_stmt *st,
		       const struct report *r,
		       const struct audit_report_row *row)
{
	return db_bind_text(db, st, 1, r->sha256) ||
	       db_bind_text(db, st, 2, r->message_id) ||
	       db_bind_int(db, st, 3, db_now(row->received_at)) ||
	       db_bind_text(db, st, 4, r->source ? r->source : "mail") ||
	       db_bind_text(db, st, 5, r->envelope_from) ||
	       db_bind_text(db, st, 6, r->envelope_to) ||
	       db_bind_text(db, st, 7, r->from_addr ? r->from_addr : "") ||
	       db_bind_text(db, st, 8, r->from ? r->from : "") ||
	       db_bind_text(db, st, 9, r->subject ? r->subject : "") ||
	       db_bind_text(db, st, 10, r->date) ||
	       db_bind_id(db, st, 11, r->bug_id) ||
	       db_bind_text(db, st, 12, r->bug_url) ||
	       db_bind_int(db, st, 13, (int64_t)r->raw_len) ||
	       db_bind_int(db, st, 14, r->flags) ||
	       db_bind_text(db, st, 15, row->state) ||
	       db_bind_id(db, st, 16, row->duplicate_of);
}

/*
 * bind_row - schema 3's columns ?17..?24, schema 7's kind ?25, schema
 * 11's client_net ?26 (a duplicate, which goes nowhere, has none)
 */
static int bind_row(struct audit *db, sqlite3_stmt *st, const struct report *r,
		    const struct audit_report_row *row,
		    const char *sections_json)
{
	static const struct audit_links none;
	const struct audit_links *l = row->links ? row->links : &none;

	return db_bind_id(db, st, 17, l->thread_root) ||
	       db_bind_id(db, st, 18, l->same_crash_as) ||
	       db_bind_text(db, st, 19, db_or_null(l->crash_signature)) ||
	       db_bind_text(db, st, 20, db_or_null(l->syzbot_id)) ||
	       db_bind_int(db, st, 21, l->regression) ||
	       db_bind_text(db, st, 22, row->class) ||
	       db_bind_text(db, st, 23,
			    row->nsections ? row->sections[0].name : NULL) ||
	       db_bind_text(db, st, 24, sections_json) ||
	       db_bind_text(db, st, 25, row->kind ? row->kind : "report") ||
	       db_bind_text(db, st, 26, r->client_net);
}

/*
 * insert_report - the report row and its message bytes; with full, also
 * row's links, class, sections_json and kind (schemas 3 and 7)
 */
static int insert_report(struct audit *db, const struct report *r,
			 const struct audit_report_row *row, bool full,
			 const char *sections_json, int64_t *id)
{
	sqlite3_stmt *st;
	int64_t rid;

	if (!audit_valid_state(row->state))
		return db_bad(db, "invalid report state '%s'",
			      row->state ? row->state : "");
	if (!is_sha256(r->sha256))
		return db_bad(db, "report has no sha256");
	if (row->class && !audit_valid_class(row->class))
		return db_bad(db, "invalid class '%s'", row->class);
	st = db_prep(db, full ? sql_ins_report_row : sql_ins_report);
	if (!st)
		return -1;
	if (bind_report(db, st, r, row) ||
	    (full && bind_row(db, st, r, row, sections_json))) {
		db_finish(st);
		return -1;
	}
	if (db_step(db, st, "insert report") < 0)
		return -1;
	rid = sqlite3_last_insert_rowid(db->db);
	if (insert_message(db, r, rid) < 0)
		return -1;
	*id = rid;
	return 0;
}

/* audit_insert_report - store the report row and its message bytes */
int audit_insert_report(struct audit *db, const struct report *r,
			int64_t received_at, const char *state,
			int64_t duplicate_of, int64_t *id)
{
	struct audit_report_row row;

	memset(&row, 0, sizeof(row));
	row.received_at = received_at;
	row.state = state;
	row.duplicate_of = duplicate_of;
	return insert_report(db, r, &row, false, NULL, id);
}

static const char sql_set_state[] =
	"UPDATE reports SET state = ?2, updated_at = ?3 WHERE id = ?1";

/* audit_set_state - change a report's state */
int audit_set_state(struct audit *db, int64_t report, const char *state,
		    int64_t now)
{
	sqlite3_stmt *st;

	if (!audit_valid_state(state))
		return db_bad(db, "invalid report state '%s'",
			      state ? state : "");
	st = db_prep(db, sql_set_state);
	if (!st || db_bind_int(db, st, 1, report) ||
	    db_bind_text(db, st, 2, state) ||
	    db_bind_int(db, st, 3, db_now(now)))
		return -1;
	if (db_step(db, st, "set state") < 0)
		return -1;
	if (!sqlite3_changes(db->db))
		return db_bad(db, "no report %lld", (long long)report);
	return 0;
}

/* ---- JSON lists ---------------------------------------------------------
 *
 * Per-report lists (frames, files, rule hits, sections) are JSON arrays
 * in one column: one bound value instead of one row (and one B-tree
 * insert) per item, which is what the per-message process can afford.
 * Written here, straight into the text, the same bytes as jansson's
 * json_dumps(array, JSON_COMPACT) (test_json_lists compares them): no
 * jansson object built per item and dumped.  Why by hand: a hash table
 * per frame, hit and section, then a dump, cost 357K of the filter's
 * 14.66M instructions for a 6 KB report with a trace (callgrind), and
 * the filter no longer loads libjansson at all (19 shared objects, not
 * 20); the writer is small, and the test holds it to jansson's bytes.
 * SQLite's json_each() reads
 * them back, in C and in SQL.  Their strings are untrusted text: cut to
 * JSON_STR_MAX bytes (between characters) and, unless valid UTF-8, with
 * '?' for every byte of 0x80 or more.  A list keeps the items that fit
 * in JSON_MAX bytes.
 */
#define JSON_MAX     (1u << 20) /* bytes of one list; later items dropped */
#define JSON_STR_MAX 2048	/* bytes of one string; the rest cut */

struct json_list {
	char *s;
	size_t len;   /* its bytes so far: '[' and the items */
	size_t alloc; /* s's size */
	size_t item;  /* len before the item being written */
	bool failed;  /* out of memory */
};

static void list_init(struct json_list *l)
{
	l->alloc = 1024;
	l->s = malloc(l->alloc);
	l->failed = !l->s;
	if (l->s)
		l->s[0] = '[';
	l->len = 1;
	l->item = 1;
}

/* put - append n bytes, with room for the ']' and NUL list_end() adds */
static void put(struct json_list *l, const char *p, size_t n)
{
	char *s;
	size_t want;

	if (l->failed)
		return;
	if (l->len + n + 2 > l->alloc) {
		want = l->alloc * 2 > l->len + n + 2 ? l->alloc * 2
						     : l->len + n + 2 + 1024;
		s = realloc(l->s, want);
		if (!s) {
			l->failed = true;
			return;
		}
		l->s = s;
		l->alloc = want;
	}
	memcpy(l->s + l->len, p, n);
	l->len += n;
}

static void put_c(struct json_list *l, char c)
{
	put(l, &c, 1);
}

/*
 * put_text - s as a bounded JSON string (NULL: null), escaped as
 * jansson escapes: '"', '\\' and the control characters, those with a
 * short form by it, the others as \u00XX
 */
static void put_text(struct json_list *l, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t len, n, i, run;
	bool ascii;

	if (!s) {
		put(l, "null", 4);
		return;
	}
	len = strlen(s);
	n = len < JSON_STR_MAX ? len : JSON_STR_MAX;
	while (n < len && ((unsigned char)s[n] & 0xc0) == 0x80)
		n++;
	ascii = !utf8_valid(s, len);
	put_c(l, '"');
	for (i = 0; i < n; i = run) {
		unsigned char c = (unsigned char)s[i];
		char esc[6] = { '\\', 'u', '0', '0', 0, 0 };

		/* the bytes that need nothing, in one piece */
		for (run = i; run < n; run++) {
			c = (unsigned char)s[run];
			if (c < 0x20 || c == '"' || c == '\\' ||
			    (ascii && c >= 0x80))
				break;
		}
		put(l, s + i, run - i);
		if (run == n)
			break;
		run++;
		switch (c) {
		case '"':
			put(l, "\\\"", 2);
			break;
		case '\\':
			put(l, "\\\\", 2);
			break;
		case '\b':
			put(l, "\\b", 2);
			break;
		case '\f':
			put(l, "\\f", 2);
			break;
		case '\n':
			put(l, "\\n", 2);
			break;
		case '\r':
			put(l, "\\r", 2);
			break;
		case '\t':
			put(l, "\\t", 2);
			break;
		default:
			if (c >= 0x80) {
				put_c(l, '?');
				break;
			}
			esc[4] = hex[c >> 4];
			esc[5] = hex[c & 15];
			put(l, esc, 6);
		}
	}
	put_c(l, '"');
}

static void put_int(struct json_list *l, long long v)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%lld", v);

	put(l, buf, (size_t)n);
}

/*
 * put_real - v as jansson writes a real: "%.17g", with ".0" added when
 * that has neither '.' nor 'e', and an exponent without '+' or leading
 * zeros; not finite: 0.0 (JSON has no such number)
 */
static void put_real(struct json_list *l, double v)
{
	char buf[40], *e, *start, *end;
	size_t n;

	if (!isfinite(v))
		v = 0.0;
	n = (size_t)snprintf(buf, sizeof(buf) - 3, "%.17g", v);
	if (!strchr(buf, '.') && !strchr(buf, 'e')) {
		memcpy(buf + n, ".0", 3);
		n += 2;
	}
	e = strchr(buf, 'e');
	if (e) {
		start = e + 1;
		end = start + 1;
		if (*start == '-')
			start++;
		while (*end == '0')
			end++;
		if (end != start) {
			memmove(start, end, n - (size_t)(end - buf) + 1);
			n -= (size_t)(end - start);
		}
	}
	put(l, buf, n);
}

/* put_key - ,"key": (the first key without the comma) */
static void put_key(struct json_list *l, const char *key, bool first)
{
	if (!first)
		put_c(l, ',');
	put_c(l, '"');
	put(l, key, strlen(key));
	put(l, "\":", 2);
}

/* item_begin - the next item's start: a ',' after the items so far */
static void item_begin(struct json_list *l)
{
	l->item = l->len;
	if (l->len > 1)
		put_c(l, ',');
}

/*
 * item_end - keep the item written since item_begin() when the list
 * with it and its ']' fits in JSON_MAX bytes; false (the item undone)
 * when it does not or memory ran out: the list ends there
 */
static bool item_end(struct json_list *l)
{
	if (l->failed)
		return false;
	if (l->len + 1 > JSON_MAX) {
		l->len = l->item;
		return false;
	}
	return true;
}

/* list_end - the list as text (free() it), or NULL when out of memory */
static char *list_end(struct json_list *l)
{
	char *s = l->s;

	l->s = NULL;
	if (l->failed) {
		free(s);
		return NULL;
	}
	/* put() kept room for both */
	s[l->len] = ']';
	s[l->len + 1] = '\0';
	return s;
}

static char *strings_json(char *const *v, size_t n)
{
	struct json_list l;
	size_t i;

	list_init(&l);
	for (i = 0; i < n; i++) {
		if (!v[i])
			continue;
		item_begin(&l);
		put_text(&l, v[i]);
		if (!item_end(&l))
			break;
	}
	return list_end(&l);
}

static char *frames_json(const struct frame *f, size_t n)
{
	struct json_list l;
	size_t i;

	list_init(&l);
	for (i = 0; i < n; i++) {
		item_begin(&l);
		put_c(&l, '{');
		put_key(&l, "function", true);
		put_text(&l, f[i].function);
		put_key(&l, "file", false);
		put_text(&l, f[i].file);
		put_key(&l, "line", false);
		put_int(&l, f[i].line);
		put_key(&l, "module", false);
		put_text(&l, f[i].module);
		put_key(&l, "offset", false);
		put_int(&l, (long long)f[i].offset);
		put_key(&l, "size", false);
		put_int(&l, (long long)f[i].size);
		put_key(&l, "inlined", false);
		put_int(&l, f[i].inlined);
		put_key(&l, "unreliable", false);
		put_int(&l, f[i].unreliable);
		put_key(&l, "from_index", false);
		put_int(&l, f[i].from_index);
		put_c(&l, '}');
		if (!item_end(&l))
			break;
	}
	return list_end(&l);
}

/* where the name, score and text of a rule hit or a section are */
struct scored {
	const char *key; /* the text's */
	size_t size, name, score, text;
};

static const struct scored hit_layout = {
	"describe", sizeof(struct audit_rule_hit),
	offsetof(struct audit_rule_hit, name),
	offsetof(struct audit_rule_hit, score),
	offsetof(struct audit_rule_hit, describe)
};
static const struct scored section_layout = {
	"why", sizeof(struct audit_section),
	offsetof(struct audit_section, name),
	offsetof(struct audit_section, score),
	offsetof(struct audit_section, why)
};

/* scored_json - [{"name":..,"score":..,KEY:..}] of n hits or sections */
static char *scored_json(const struct scored *s, const void *v, size_t n)
{
	struct json_list l;
	const char *name, *text;
	double score;
	size_t i;

	list_init(&l);
	for (i = 0; i < n; i++) {
		const char *p = (const char *)v + i * s->size;

		memcpy(&name, p + s->name, sizeof(name));
		memcpy(&score, p + s->score, sizeof(score));
		memcpy(&text, p + s->text, sizeof(text));
		item_begin(&l);
		put_c(&l, '{');
		put_key(&l, "name", true);
		put_text(&l, name);
		put_key(&l, "score", false);
		put_real(&l, score);
		put_key(&l, s->key, false);
		put_text(&l, text);
		put_c(&l, '}');
		if (!item_end(&l))
			break;
	}
	return list_end(&l);
}

/* no_memory - a list that could not be written */
static int no_memory(struct audit *db, const char *what)
{
	db_bad(db, "%s: out of memory", what);
	db->temporary = true;
	return -1;
}

/* ---- evidence, classification, sections, decision ------------------------ */

static const char sql_ins_evidence[] =
	"INSERT INTO evidence (report, title, crash_type, guilty_file,"
	" kernel_version, tainted, hardware, hw_virtual, distro_kernel,"
	" dmesg_timestamps, reproducer, bisect_commit, subject_prefix,"
	" syzbot, frames, files, functions, reported_by, tested_by)"
	" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13,"
	" ?14, ?15, ?16, ?17, ?18, ?19)";

static int bind_evidence(struct audit *db, sqlite3_stmt *st, int64_t report,
			 const struct evidence *ev)
{
	return db_bind_int(db, st, 1, report) ||
	       db_bind_text(db, st, 2, ev->title) ||
	       db_bind_text(db, st, 3, ev->crash_type) ||
	       db_bind_text(db, st, 4, ev->guilty_file) ||
	       db_bind_text(db, st, 5, ev->kernel_version) ||
	       db_bind_text(db, st, 6, ev->tainted) ||
	       db_bind_text(db, st, 7, ev->hardware) ||
	       db_bind_int(db, st, 8, ev->hw_virtual) ||
	       db_bind_text(db, st, 9, ev->distro_kernel) ||
	       db_bind_int(db, st, 10, ev->dmesg_timestamps) ||
	       db_bind_int(db, st, 11, ev->reproducer) ||
	       db_bind_text(db, st, 12, ev->bisect_commit) ||
	       db_bind_text(db, st, 13, ev->subject_prefix) ||
	       db_bind_int(db, st, 14, ev->syzbot);
}

/* audit_insert_evidence - the evidence row with its lists */
int audit_insert_evidence(struct audit *db, int64_t report,
			  const struct evidence *ev)
{
	sqlite3_stmt *st = db_prep(db, sql_ins_evidence);
	char *lists[5];
	size_t i;
	int rc = -1;

	if (!st)
		return -1;
	lists[0] = frames_json(ev->frames, ev->nframes);
	lists[1] = strings_json(ev->files, ev->nfiles);
	lists[2] = strings_json(ev->functions, ev->nfunctions);
	lists[3] = strings_json(ev->reported_by, ev->nreported_by);
	lists[4] = strings_json(ev->tested_by, ev->ntested_by);
	for (i = 0; i < ARRAY_SIZE(lists); i++)
		if (!lists[i]) {
			no_memory(db, "evidence");
			goto out;
		}
	if (bind_evidence(db, st, report, ev))
		goto out;
	for (i = 0; i < ARRAY_SIZE(lists); i++)
		if (db_bind_text(db, st, 15 + (int)i, lists[i]))
			goto out;
	rc = db_step(db, st, "insert evidence");
out:
	db_finish(st);
	for (i = 0; i < ARRAY_SIZE(lists); i++)
		free(lists[i]);
	return rc;
}

static const char sql_ins_class[] =
	"INSERT INTO classification (report, class, score_user,"
	" score_fuzzer, score_ai, confidence, certain, model_version,"
	" header, classified_at, rule_hits) VALUES (?1, ?2, ?3, ?4, ?5,"
	" ?6, ?7, ?8, ?9, ?10, ?11)";
static const char sql_set_class[] =
	"UPDATE reports SET class = ?2, updated_at = ?3 WHERE id = ?1";

/* store_set_class - reports.class (actions.c reclassifies with it too) */
int store_set_class(struct audit *db, int64_t report, const char *class,
		    int64_t at, const char *what)
{
	sqlite3_stmt *st = db_prep(db, sql_set_class);

	if (!st || db_bind_int(db, st, 1, report) ||
	    db_bind_text(db, st, 2, class) || db_bind_int(db, st, 3, at))
		return -1;
	return db_step(db, st, what);
}

/* audit_insert_classification - verdict, scores, rule hits; reports.class */
int audit_insert_classification(struct audit *db, int64_t report,
				const struct audit_classification *c)
{
	sqlite3_stmt *st;
	int64_t at = db_now(c->at);
	char *hits;
	int rc;

	if (!audit_valid_class(c->class))
		return db_bad(db, "invalid class '%s'",
			      c->class ? c->class : "");
	st = db_prep(db, sql_ins_class);
	if (!st)
		return -1;
	hits = scored_json(&hit_layout, c->hits, c->nhits);
	if (!hits)
		return no_memory(db, "rule hits");
	rc = db_bind_int(db, st, 1, report) ||
	     db_bind_text(db, st, 2, c->class) ||
	     db_bind_real(db, st, 3, c->score_user) ||
	     db_bind_real(db, st, 4, c->score_fuzzer) ||
	     db_bind_real(db, st, 5, c->score_ai) ||
	     db_bind_real(db, st, 6, c->confidence) ||
	     db_bind_int(db, st, 7, c->certain) ||
	     db_bind_text(db, st, 8, c->model_version) ||
	     db_bind_text(db, st, 9, c->header) ||
	     db_bind_int(db, st, 10, at) || db_bind_text(db, st, 11, hits) ||
	     db_step(db, st, "insert classification") < 0;
	db_finish(st);
	free(hits);
	if (rc)
		return -1;
	if (c->class_stored)
		return 0;
	return store_set_class(db, report, c->class, at, "set class");
}

static const char sql_set_sections[] =
	"UPDATE reports SET section = ?2, sections = ?3 WHERE id = ?1";

/* audit_insert_sections - ranked sections, best first (reports.section) */
int audit_insert_sections(struct audit *db, int64_t report,
			  const struct audit_section *v, size_t n)
{
	sqlite3_stmt *st = db_prep(db, sql_set_sections);
	char *list;
	int rc;

	if (!st)
		return -1;
	list = scored_json(&section_layout, v, n);
	if (!list)
		return no_memory(db, "sections");
	rc = db_bind_int(db, st, 1, report) ||
	     db_bind_text(db, st, 2, n ? v[0].name : NULL) ||
	     db_bind_text(db, st, 3, list) ||
	     db_step(db, st, "set sections") < 0;
	db_finish(st);
	free(list);
	if (rc)
		return -1;
	if (!sqlite3_changes(db->db))
		return db_bad(db, "no report %lld", (long long)report);
	return 0;
}

/* audit_insert_report_row - the report row, written once (see audit.h) */
int audit_insert_report_row(struct audit *db, const struct report *r,
			    const struct audit_report_row *row, int64_t *id)
{
	struct audit_report_row own = *row;
	char *list;
	int rc;

	if (!row->has_sections) {
		own.nsections = 0;
		return insert_report(db, r, &own, true, NULL, id);
	}
	list = scored_json(&section_layout, row->sections, row->nsections);
	if (!list)
		return no_memory(db, "sections");
	rc = insert_report(db, r, &own, true, list, id);
	free(list);
	return rc;
}

static const char sql_ins_decision[] =
	"INSERT INTO decisions (report, at, action, recipient,"
	" recipient_name, reason, candidates) VALUES (?1, ?2, ?3, ?4,"
	" ?5, coalesce(?6, ''), coalesce(?7, ''))";
/* the same with its security verdict (schema 12 on) */
static const char sql_ins_decision_security[] =
	"INSERT INTO decisions (report, at, action, recipient,"
	" recipient_name, reason, candidates, security) VALUES (?1, ?2, ?3,"
	" ?4, ?5, coalesce(?6, ''), coalesce(?7, ''), ?8)";

/*
 * audit_insert_decision - what act decided, with the candidates (a
 * forward counted in forward_counts by its trigger, schema 13)
 */
int audit_insert_decision(struct audit *db, int64_t report,
			  const struct audit_decision *d, int64_t *id)
{
	sqlite3_stmt *st;

	if (!db_one_of(d->action, decision_actions,
		       ARRAY_SIZE(decision_actions)))
		return db_bad(db, "invalid decision '%s'",
			      d->action ? d->action : "");
	st = db_prep(db, d->security ? sql_ins_decision_security
				     : sql_ins_decision);
	if (!st || db_bind_int(db, st, 1, report) ||
	    db_bind_int(db, st, 2, db_now(d->at)) ||
	    db_bind_text(db, st, 3, d->action) ||
	    db_bind_text(db, st, 4, d->recipient) ||
	    db_bind_text(db, st, 5, d->recipient_name) ||
	    db_bind_text(db, st, 6, d->reason) ||
	    db_bind_text(db, st, 7, d->candidates) ||
	    (d->security && db_bind_text(db, st, 8, d->security)) ||
	    db_step(db, st, "insert decision") < 0)
		return -1;
	if (id)
		*id = sqlite3_last_insert_rowid(db->db);
	return 0;
}

static const char sql_ins_fix[] =
	"INSERT INTO fixes (report, at, state, source_report, message_id,"
	" subject, commit_sha, tree, how)"
	" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)";

/* audit_insert_fix - a fix proposed for a report, or its commit */
int audit_insert_fix(struct audit *db, const struct audit_fix *f, int64_t *id)
{
	sqlite3_stmt *st;

	if (!f->state ||
	    (strcmp(f->state, "proposed") && strcmp(f->state, "fixed")))
		return db_bad(db, "invalid fix state '%s'",
			      f->state ? f->state : "");
	st = db_prep(db, sql_ins_fix);
	if (!st || db_bind_int(db, st, 1, f->report) ||
	    db_bind_int(db, st, 2, db_now(f->at)) ||
	    db_bind_text(db, st, 3, f->state) ||
	    db_bind_id(db, st, 4, f->source_report) ||
	    db_bind_text(db, st, 5, f->message_id) ||
	    db_bind_text(db, st, 6, f->subject) ||
	    db_bind_text(db, st, 7, f->commit_sha) ||
	    db_bind_text(db, st, 8, f->tree) ||
	    db_bind_text(db, st, 9, f->how) ||
	    db_step(db, st, "insert fix") < 0)
		return -1;
	if (id)
		*id = sqlite3_last_insert_rowid(db->db);
	return 0;
}

/* ---- stored bytes, compressed -------------------------------------------- */

char *store_inflate(struct audit *db, int64_t id, const void *p, size_t n,
		    size_t size)
{
	uLongf got = size;
	char *out = xmalloc(size + 1);

	if (uncompress((Bytef *)out, &got, p, n) != Z_OK || got != size) {
		free(out);
		db_bad(db, "report %lld: compressed message is corrupt",
		       (long long)id);
		return NULL;
	}
	out[got] = '\0';
	return out;
}

static const char sql_compress_list[] =
	"SELECT m.report FROM messages m JOIN reports r ON r.id = m.report"
	" WHERE m.encoding = 'identity' AND r.received_at < ?1"
	" AND length(m.raw) >= ?2 ORDER BY m.report";
static const char sql_compress_get[] =
	"SELECT raw FROM messages WHERE report = ?1 AND encoding = 'identity'";
static const char sql_compress_put[] =
	"UPDATE messages SET encoding = 'zlib', raw = ?2"
	" WHERE report = ?1 AND encoding = 'identity'";

/* compress_put - store out as report id's compressed bytes */
static int compress_put(struct audit *db, int64_t id, const Bytef *out,
			uLongf out_len)
{
	sqlite3_stmt *st = db_prep(db, sql_compress_put);

	if (!st || db_bind_int(db, st, 1, id) ||
	    db_bind_blob(db, st, 2, out, out_len))
		return -1;
	return db_step(db, st, "store compressed message");
}

/* compress_one - one message in its own transaction; *done if stored */
static int compress_one(struct audit *db, int64_t id, bool *done)
{
	sqlite3_stmt *st;
	const void *p;
	uLongf n, out_len;
	Bytef *out = NULL;
	int rc = -1;

	*done = false;
	if (audit_begin(db) < 0)
		return -1;
	st = db_prep(db, sql_compress_get);
	if (!st || db_bind_int(db, st, 1, id))
		goto out;
	rc = db_step_row(db, st, "read message");
	if (rc != 1)
		goto out;
	p = sqlite3_column_blob(st, 0);
	n = (uLongf)sqlite3_column_bytes(st, 0);
	out_len = compressBound(n);
	out = xmalloc(out_len);
	rc = compress2(out, &out_len, p ? p : (const Bytef *)"", n, 6);
	db_finish(st);
	if (rc != Z_OK) {
		rc = db_bad(db, "report %lld: zlib error %d", (long long)id,
			    rc);
		goto out;
	}
	/* Keep the bytes as they are unless compression saves a tenth. */
	rc = 0;
	if (out_len < n - n / 10) {
		rc = compress_put(db, id, out, out_len);
		*done = rc == 0;
	}
out:
	free(out);
	if (rc < 0) {
		audit_rollback(db);
		return -1;
	}
	return audit_commit(db);
}

static const struct db_col id_col[] = { { DB_I64, 0, sizeof(int64_t) } };
static const struct db_row id_row = { id_col, 1, sizeof(int64_t) };

/* audit_compress_messages - compress old large messages, one per commit */
int audit_compress_messages(struct audit *db, int64_t before, size_t min_size,
			    long *count)
{
	sqlite3_stmt *st = db_prep(db, sql_compress_list);
	struct audit_owned o = { 0 };
	int64_t *ids;
	size_t n, i;
	int rc;

	*count = 0;
	if (!st || db_bind_int(db, st, 1, before) ||
	    db_bind_int(db, st, 2, (int64_t)min_size))
		return -1;
	rc = db_all(db, st, "list messages", &id_row, &o, &ids, &n);
	for (i = 0; rc == 0 && i < n; i++) {
		bool done;

		rc = compress_one(db, ids[i], &done);
		if (done)
			(*count)++;
	}
	db_owned_release(&o);
	return rc;
}
