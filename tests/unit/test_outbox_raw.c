// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_outbox_raw - a forward stores the original once (schema 4): its
 * outbox row keeps the head and names the stored message; every reader
 * gets exactly the bytes deliver_compose_forward() composes
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <ftw.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audit.h"
#include "audit_scratch.h"
#include "deliver.h"
#include "forward.h"
#include "report.h"
#include "strbuf.h"
#include "util.h"

#define T0 1700000000

/*
 * a report of n bytes of body or more: an mbox From_ line (dropped by
 * the forward), CRLF line ends, a Subject after other headers
 */
static struct report *big_report(int n, size_t body)
{
	struct report *r = report_new();
	struct strbuf sb = STRBUF_INIT(body + 4096);
	size_t i;

	snprintf(r->sha256, sizeof(r->sha256), "%064x", n);
	sb_addf(&sb,
		"From rita@example.org Mon Dec  9 07:00:00 2024\r\n"
		"Received: from a.example.org by b.example.org\r\n"
		"From: Rita <rita@example.org>\r\n"
		"Subject:  xfs: oops number %d\r\n"
		"Message-ID: <r%d@example.org>\r\n\r\n",
		n, n);
	for (i = 0; sb.len < body; i++)
		sb_addf(&sb, "[%6zu.000000] line %zu of the log\r\n", i, i);
	r->raw = sb_detach(&sb, &r->raw_len);
	r->message_id = xasprintf("r%d@example.org", n);
	free(r->subject);
	r->subject = xasprintf("xfs: oops number %d", n);
	free(r->from_addr);
	r->from_addr = xstrdup("rita@example.org");
	free(r->body);
	r->body = xstrdup("the log");
	r->body_len = strlen(r->body);
	return r;
}

static const struct router_id rid_tag = {
	.address = "triage@example.org",
	.name = "triage",
	.bounce = "triage-bounces@example.org",
	.tag = DELIVER_TAG_ALWAYS,
};

/* expected - what the forward of report id with tag must be */
static void expected(const struct report *r, int64_t id, int tag,
		     struct strbuf *out)
{
	struct forward_headers h;

	memset(&h, 0, sizeof(h));
	h.router_name = rid_tag.name;
	h.router_addr = rid_tag.address;
	h.to_name = "Ted";
	h.to_addr = "ted@example.org";
	h.sha256 = r->sha256;
	h.date = T0;
	h.cls = "user; score=9.0";
	h.section = "XFS FILESYSTEM";
	h.reason = "the map's best section";
	h.report = id;
	h.tag = (enum deliver_tag)tag;
	assert_int_equal(deliver_compose_forward(r->raw, r->raw_len, &h, out),
			 0);
}

static int64_t queue(struct audit *db, const struct report *r, int64_t id,
		     int tag)
{
	struct router_id rid = rid_tag;
	int64_t oid;

	rid.tag = tag;
	oid = forward_queue(db, &rid, id, r->raw, r->raw_len, r->sha256,
			    "ted@example.org", "Ted", "user; score=9.0",
			    "XFS FILESYSTEM", "the map's best section", T0);
	assert_true(oid > 0);
	return oid;
}

/* claim - the next due row's bytes must be want's */
static void claim(struct audit *db, int64_t oid, const struct strbuf *want)
{
	struct audit_outbox_item it;

	assert_int_equal(audit_outbox_claim_due(db, T0 + 1, 60, false, &it), 1);
	assert_int_equal(it.id, oid);
	assert_int_equal(it.message_len, want->len);
	assert_memory_equal(it.message, want->buf, want->len);
	assert_int_equal(it.message[it.message_len], '\0');
	assert_int_equal(audit_outbox_done(db, &it, T0 + 2, 250, "ok"), 0);
	audit_outbox_item_release(&it);
}

static int64_t column(const char *path, const char *sql)
{
	sqlite3 *s;
	sqlite3_stmt *st;
	int64_t v = -1;

	assert_int_equal(sqlite3_open(path, &s), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(s, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(s);
	return v;
}

static int run(const char *path, const char *sql)
{
	sqlite3 *s;
	int rc;

	assert_int_equal(sqlite3_open(path, &s), SQLITE_OK);
	rc = sqlite3_exec(s, sql, NULL, NULL, NULL);
	sqlite3_close(s);
	return rc;
}

/* the size the show command prints: the whole message's */
static size_t shown_len(struct audit *db, int64_t id, size_t i)
{
	struct audit_record rec;
	size_t n;

	assert_int_equal(audit_get_report(db, id, 0, &rec), 1);
	assert_true(i < rec.noutbox);
	n = rec.outbox[i].message_len;
	audit_record_release(&rec);
	return n;
}

static void test_forward_bytes(void **state)
{
	char *path = scratch_path("fwd.db");
	struct audit *db = open_ok(path, AUDIT_CREATE);
	struct report *r = big_report(1, 200000);
	struct strbuf tagged = STRBUF_INIT(1 << 20);
	struct strbuf plain = STRBUF_INIT(1 << 20);
	int64_t id, o1, o2;

	(void)state;
	assert_int_equal(audit_begin(db), 0);
	assert_int_equal(audit_insert_report(db, r, T0, "forwarded", 0, &id),
			 0);
	o1 = queue(db, r, id, DELIVER_TAG_ALWAYS);
	o2 = queue(db, r, id, DELIVER_TAG_NEVER);
	assert_int_equal(audit_commit(db), 0);
	expected(r, id, DELIVER_TAG_ALWAYS, &tagged);
	expected(r, id, DELIVER_TAG_NEVER, &plain);
	assert_non_null(strstr(sb_str(&tagged), "Subject:  [triage #1] xfs"));
	assert_null(strstr(sb_str(&plain), "[triage #"));

	/* stored once: each row holds its head only */
	assert_true(column(path, "SELECT max(length(message)) FROM outbox") <
		    4096);
	assert_int_equal(column(path, "SELECT count(*) FROM outbox"
				      " WHERE raw_report = 1"),
			 2);
	assert_int_equal(shown_len(db, id, 0), tagged.len);
	assert_int_equal(shown_len(db, id, 1), plain.len);
	claim(db, o1, &tagged);
	claim(db, o2, &plain);

	/* compressed, the stored bytes still end the forward */
	assert_int_equal(run(path, "UPDATE outbox SET state = 'queued',"
				   " next_attempt_at = 0"
				   " WHERE id = 1"),
			 SQLITE_OK);
	{
		long count = 0;

		assert_int_equal(audit_compress_messages(db, T0 + 1, 0, &count),
				 0);
		assert_int_equal(count, 1);
	}
	claim(db, o1, &tagged);

	audit_close(db);
	report_free(r);
	sb_release(&tagged);
	sb_release(&plain);
	free(path);
}

/*
 * Nothing in triage deletes a stored message; if someone does by hand,
 * a forward that needs it is refused whole, never sent cut short.
 */
static void test_missing_body_not_sent(void **state)
{
	char *path = scratch_path("del.db");
	struct audit *db = open_ok(path, AUDIT_CREATE);
	struct report *r = big_report(2, 30000);
	struct audit_outbox_item it;
	int64_t id;

	(void)state;
	assert_int_equal(audit_begin(db), 0);
	assert_int_equal(audit_insert_report(db, r, T0, "forwarded", 0, &id),
			 0);
	queue(db, r, id, DELIVER_TAG_ALWAYS);
	assert_int_equal(audit_commit(db), 0);

	assert_int_equal(run(path, "DELETE FROM messages"), SQLITE_OK);
	assert_int_equal(audit_outbox_claim_due(db, T0 + 1, 60, false, &it),
			 -1);
	assert_null(it.message);
	/* still queued: nothing was taken */
	assert_int_equal(column(path, "SELECT count(*) FROM outbox"
				      " WHERE state = 'queued'"),
			 1);
	audit_close(db);
	report_free(r);
	free(path);
}

static void test_wrong_bytes_refused(void **state)
{
	struct audit *db = open_ok(":memory:", AUDIT_CREATE);
	struct report *r = big_report(3, 1000);
	struct router_id rid = rid_tag;
	int64_t id;

	(void)state;
	assert_int_equal(audit_insert_report(db, r, T0, "forwarded", 0, &id),
			 0);
	/* not the stored message: its length differs */
	assert_int_equal(forward_queue(db, &rid, id, r->raw, r->raw_len - 1,
				       r->sha256, "ted@example.org", NULL,
				       "user", NULL, NULL, T0),
			 -1);
	assert_int_equal(forward_queue(db, &rid, id + 1, r->raw, r->raw_len,
				       r->sha256, "ted@example.org", NULL,
				       "user", NULL, NULL, T0),
			 -1);
	audit_close(db);
	report_free(r);
}

static void test_migration_from_version_3(void **state)
{
	char *path = scratch_path("v3.db");
	struct audit *db = open_ok(path, AUDIT_CREATE | AUDIT_NOMIGRATE);
	struct report *r = big_report(4, 5000);
	struct strbuf want = STRBUF_INIT(1 << 20);
	struct audit_outbox_new m;
	int64_t id, old, fresh;

	(void)state;
	assert_int_equal(audit_migrate(db, 3), 0);
	assert_int_equal(audit_user_version(db), 3);
	assert_int_equal(audit_insert_report(db, r, T0, "forwarded", 0, &id),
			 0);
	expected(r, id, DELIVER_TAG_ALWAYS, &want);
	/* a version 3 row: the whole forward in message */
	memset(&m, 0, sizeof(m));
	m.report = id;
	m.kind = "forward";
	m.created_at = T0;
	m.envelope_from = "triage-bounces@example.org";
	m.recipients = "ted@example.org";
	m.message = want.buf;
	m.message_len = want.len;
	assert_int_equal(audit_outbox_enqueue(db, &m, &old), 0);
	audit_close(db);

	db = open_ok(path, 0);
	assert_int_equal(audit_user_version(db), AUDIT_SCHEMA_VERSION);
	assert_int_equal(shown_len(db, id, 0), want.len);
	claim(db, old, &want);
	/* a new forward of the same report refers to the stored bytes */
	fresh = queue(db, r, id, DELIVER_TAG_ALWAYS);
	assert_int_equal(column(path, "SELECT count(*) FROM outbox"
				      " WHERE raw_report IS NOT NULL"),
			 1);
	claim(db, fresh, &want);
	audit_close(db);
	report_free(r);
	sb_release(&want);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forward_bytes),
		cmocka_unit_test(test_missing_body_not_sent),
		cmocka_unit_test(test_wrong_bytes_refused),
		cmocka_unit_test(test_migration_from_version_3),
	};
	int rc;

	if (scratch_make("test_outbox_raw") < 0)
		die_errno("mkdtemp");
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	scratch_remove();
	return rc;
}
