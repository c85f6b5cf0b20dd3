// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_audit_row - a report row written once (audit_insert_report_row)
 * is the row the INSERT and its later UPDATEs leave; schema 5 -> 6
 * (decisions_recipient dropped) upgrades a database in place, and so
 * do the later migrations (12 -> 13: forward_counts)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "audit_scratch.h"
#include "evidence.h"
#include "report.h"
#include "util.h"

#define T0 1700000000 /* a fixed "now" for the fixtures */

/* a report numbered n: its sha256 is n in hex, its bytes are all alike */
static struct report *fake_report(int n, const char *message_id)
{
	struct report *r = report_new();

	snprintf(r->sha256, sizeof(r->sha256), "%064x", n);
	r->raw = xstrdup("From: Rita <rita@example.org>\n"
			 "Subject: oops\n\nxfs_iget oopsed\n");
	r->raw_len = strlen(r->raw);
	r->message_id = message_id ? xstrdup(message_id) : NULL;
	free(r->subject);
	r->subject = xstrdup("oops");
	free(r->from);
	r->from = xstrdup("Rita <rita@example.org>");
	free(r->from_addr);
	r->from_addr = xstrdup("rita@example.org");
	r->envelope_from = xstrdup("rita@example.org");
	r->body = xstrdup("xfs_iget oopsed\n");
	r->body_len = strlen(r->body);
	return r;
}

static sqlite3 *open_raw(const char *path)
{
	sqlite3 *s;

	assert_int_equal(sqlite3_open_v2(path, &s, SQLITE_OPEN_READONLY, NULL),
			 SQLITE_OK);
	return s;
}

static long column(const char *path, const char *text)
{
	sqlite3 *s = open_raw(path);
	sqlite3_stmt *st;
	long n;

	assert_int_equal(sqlite3_prepare_v2(s, text, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	n = (long)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(s);
	return n;
}

static bool skipped(const char *name, const char *const *skip)
{
	for (; *skip; skip++)
		if (!strcmp(name, *skip))
			return true;
	return false;
}

/*
 * same_rows - the rows of table whose key is a and b hold the same
 * values (type and bytes) in every column but those of skip; returns
 * the number of columns compared
 */
static int same_rows(const char *path, const char *table, const char *key,
		     int64_t a, int64_t b, const char *const *skip)
{
	char *text = xasprintf("SELECT * FROM %s WHERE %s = ?1", table, key);
	sqlite3 *s = open_raw(path);
	sqlite3_stmt *sa, *sb;
	int i, n = 0;

	assert_int_equal(sqlite3_prepare_v2(s, text, -1, &sa, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(s, text, -1, &sb, NULL), SQLITE_OK);
	sqlite3_bind_int64(sa, 1, a);
	sqlite3_bind_int64(sb, 1, b);
	assert_int_equal(sqlite3_step(sa), SQLITE_ROW);
	assert_int_equal(sqlite3_step(sb), SQLITE_ROW);
	for (i = 0; i < sqlite3_column_count(sa); i++) {
		const char *name = sqlite3_column_name(sa, i);
		int type = sqlite3_column_type(sa, i), len;

		if (skipped(name, skip))
			continue;
		if (type != sqlite3_column_type(sb, i))
			fail_msg("%s.%s: type %d, then %d", table, name, type,
				 sqlite3_column_type(sb, i));
		len = sqlite3_column_bytes(sa, i);
		if (len != sqlite3_column_bytes(sb, i) ||
		    (len && memcmp(sqlite3_column_blob(sa, i),
				   sqlite3_column_blob(sb, i), (size_t)len)))
			fail_msg("%s.%s: '%s', then '%s'", table, name,
				 (const char *)sqlite3_column_text(sa, i),
				 (const char *)sqlite3_column_text(sb, i));
		n++;
	}
	sqlite3_finalize(sa);
	sqlite3_finalize(sb);
	sqlite3_close(s);
	free(text);
	return n;
}

/* a case: what record_decision() or a follow-up stores with a report */
struct row_case {
	const char *state;
	const char *class; /* NULL: not classified (a follow-up) */
	bool sections;	   /* audit_insert_sections() called */
	size_t nsections;
	struct audit_links links;
	bool no_links; /* links NULL, audit_set_links() not called */
};

static const struct audit_section secs[] = {
	{ "XFS FILESYSTEM", 12.5, "guilty file fs/xfs/xfs_inode.c" },
	{ "FILESYSTEMS (VFS and infrastructure)", 3.0, "path \"fs/\"" },
};

static const struct audit_rule_hit hits[] = {
	{ "DMESG_TIMESTAMPS", 2.5, "a time-stamped kernel log" },
};

static void evidence_of(struct evidence *ev)
{
	static char title[] = "BUG: unable to handle page fault in xfs_iget";
	static char type[] = "BUG", version[] = "6.12.3";

	memset(ev, 0, sizeof(*ev));
	ev->title = title;
	ev->crash_type = type;
	ev->kernel_version = version;
	ev->dmesg_timestamps = true;
}

/* the classification both ways store; stored: reports.class is set */
static struct audit_classification classification_of(const struct row_case *k,
						     bool stored)
{
	struct audit_classification c = { .class = k->class,
					  .score_user = 12.75,
					  .confidence = 0.9,
					  .header = "user; score=12.8",
					  .at = T0,
					  .hits = hits,
					  .nhits = ARRAY_SIZE(hits),
					  .class_stored = stored };

	return c;
}

/* the old way: INSERT, then the UPDATEs of links, class and sections */
static int64_t by_updates(struct audit *db, int n, const struct row_case *k)
{
	struct report *r = fake_report(n, "same@example.org");
	struct audit_classification c = classification_of(k, false);
	struct evidence ev;
	int64_t id;

	evidence_of(&ev);
	assert_int_equal(audit_insert_report(db, r, T0, k->state, 0, &id), 0);
	assert_int_equal(audit_insert_evidence(db, id, &ev), 0);
	if (!k->no_links)
		assert_int_equal(audit_set_links(db, id, &k->links), 0);
	if (k->class)
		assert_int_equal(audit_insert_classification(db, id, &c), 0);
	if (k->sections)
		assert_int_equal(
			audit_insert_sections(db, id, secs, k->nsections), 0);
	report_free(r);
	return id;
}

/* the new way: one INSERT with them, as record.c does */
static int64_t by_row(struct audit *db, int n, const struct row_case *k)
{
	struct report *r = fake_report(n, "same@example.org");
	struct audit_classification c = classification_of(k, true);
	struct audit_report_row row = {
		.received_at = T0,
		.state = k->state,
		.links = k->no_links ? NULL : &k->links,
		.class = k->class,
		.has_sections = k->sections,
		.sections = secs,
		.nsections = k->nsections,
	};
	struct evidence ev;
	int64_t id;

	evidence_of(&ev);
	assert_int_equal(audit_insert_report_row(db, r, &row, &id), 0);
	assert_int_equal(audit_insert_evidence(db, id, &ev), 0);
	if (!k->no_links)
		assert_int_equal(audit_set_regression(db, id, &k->links), 0);
	if (k->class)
		assert_int_equal(audit_insert_classification(db, id, &c), 0);
	report_free(r);
	return id;
}

static void test_row_as_updates(void **state)
{
	static const char *const skip_report[] = { "id", "sha256", NULL };
	static const char *const skip_child[] = { "report", NULL };
	char *path = scratch_path("row.db");
	struct audit *db = open_ok(path, AUDIT_CREATE);
	struct row_case cases[6];
	int64_t root, a, b;
	size_t i;
	int n = 1;

	(void)state;
	memset(cases, 0, sizeof(cases));
	root = by_updates(
		db, 99,
		&(struct row_case){ .state = "forwarded", .no_links = true });
	/* a new report: classified, mapped, a crash signature */
	cases[0].state = "forwarded";
	cases[0].class = "user";
	cases[0].sections = true;
	cases[0].nsections = 2;
	cases[0].links.crash_signature = "BUG in xfs_iget|fs/xfs/xfs_icache.c";
	/* a regression with its versions; a syzbot id; unmapped */
	cases[1].state = "held";
	cases[1].class = "fuzzer";
	cases[1].sections = true;
	cases[1].links.syzbot_id = "00aa11bb22cc";
	cases[1].links.regression = true;
	cases[1].links.good = "6.1";
	cases[1].links.bad = "6.12.3";
	cases[1].links.commit = "";
	/* the same crash as root, "+1" */
	cases[2].state = "digest";
	cases[2].class = "uncertain";
	cases[2].sections = true;
	cases[2].nsections = 1;
	cases[2].links.same_crash_as = root;
	cases[2].links.crash_signature = "BUG in xfs_iget|fs/xfs/xfs_icache.c";
	/* a follow-up: no class, no sections of its own */
	cases[3].state = "forwarded";
	cases[3].links.thread_root = root;
	cases[3].links.regression = true;
	cases[3].links.bad = "6.13";
	/* nothing but the row */
	cases[4].state = "held";
	cases[4].no_links = true;
	/* empty strings are no signature */
	cases[5].state = "held";
	cases[5].class = "ai";
	cases[5].links.crash_signature = "";
	cases[5].links.syzbot_id = "";
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		a = by_updates(db, n++, &cases[i]);
		b = by_row(db, n++, &cases[i]);
		/* every column but id and sha256 */
		assert_int_equal(
			same_rows(path, "reports", "id", a, b, skip_report),
			27);
		assert_int_equal(
			same_rows(path, "evidence", "report", a, b, skip_child),
			21);
		if (cases[i].class)
			assert_int_equal(same_rows(path, "classification",
						   "report", a, b, skip_child),
					 10);
	}
	/* and the rows say what was meant */
	assert_int_equal(column(path, "SELECT count(*) FROM reports WHERE"
				      " class = 'user' AND section ="
				      " 'XFS FILESYSTEM' AND json_array_length("
				      "sections) = 2 AND crash_signature ="
				      " 'BUG in xfs_iget|fs/xfs/xfs_icache.c'"
				      " AND same_crash_as IS NULL AND"
				      " updated_at = received_at"),
			 2);
	assert_int_equal(column(path, "SELECT count(*) FROM evidence WHERE"
				      " regression_good = '6.1' AND"
				      " regression_bad = '6.12.3' AND"
				      " regression_commit IS NULL"),
			 2);
	assert_int_equal(column(path, "SELECT count(*) FROM reports WHERE"
				      " thread_root IS NOT NULL AND class IS"
				      " NULL AND sections IS NULL AND"
				      " regression = 1"),
			 2);
	assert_int_equal(column(path, "SELECT count(*) FROM reports WHERE"
				      " sections = '[]' AND section IS NULL"),
			 2);
	audit_close(db);
	free(path);
}

static void test_row_refusals(void **state)
{
	char *path = scratch_path("refuse.db");
	struct audit *db = open_ok(path, AUDIT_CREATE);
	struct report *r = fake_report(1, NULL);
	struct audit_report_row row = { .received_at = T0,
					.state = "held",
					.class = "robot" };
	int64_t id = 0;

	(void)state;
	assert_int_equal(audit_insert_report_row(db, r, &row, &id), -1);
	row.class = "user";
	row.state = "lost";
	assert_int_equal(audit_insert_report_row(db, r, &row, &id), -1);
	assert_int_equal(id, 0);
	assert_int_equal(column(path, "SELECT count(*) FROM reports"), 0);
	/* a valid one goes in, and the same bytes again do not */
	row.state = "held";
	assert_int_equal(audit_insert_report_row(db, r, &row, &id), 0);
	assert_true(id > 0);
	assert_int_equal(audit_insert_report_row(db, r, &row, &id), -1);
	assert_int_equal(column(path, "SELECT count(*) FROM messages"), 1);
	audit_close(db);
	report_free(r);
	free(path);
}

static int64_t forward(struct audit *db, int n, int64_t at, const char *to)
{
	struct report *r = fake_report(n, NULL);
	struct audit_decision d = {
		.at = at,
		.action = to ? "forward" : "hold",
		.recipient = to,
		.reason = "test",
	};
	int64_t id;

	assert_int_equal(audit_insert_report(db, r, at, "forwarded", 0, &id),
			 0);
	assert_int_equal(audit_insert_decision(db, id, &d, NULL), 0);
	report_free(r);
	return id;
}

static void test_migration_from_version_5(void **state)
{
	static const char has_index[] =
		"SELECT count(*) FROM sqlite_schema"
		" WHERE type = 'index' AND name = 'decisions_recipient'";
	char *path = scratch_path("v5.db");
	struct audit *db = open_ok(path, AUDIT_CREATE | AUDIT_NOMIGRATE);
	struct audit_record rec;
	unsigned day = 0, week = 0;
	int64_t a;

	(void)state;
	assert_int_equal(audit_migrate(db, 5), 0);
	assert_int_equal(audit_user_version(db), 5);
	a = forward(db, 1, T0, "dave@example.org");
	forward(db, 2, T0 + 60, "Dave@Example.org");
	forward(db, 3, T0 + 86400, "ted@example.org");
	forward(db, 4, T0 + 86400, NULL);
	audit_close(db);
	assert_int_equal(column(path, has_index), 1);

	/* a writer's open upgrades it in place */
	db = open_ok(path, 0);
	assert_int_equal(audit_user_version(db), AUDIT_SCHEMA_VERSION);
	assert_int_equal(column(path, has_index), 0);
	assert_int_equal(column(path, "PRAGMA user_version"),
			 AUDIT_SCHEMA_VERSION);
	assert_int_equal(column(path, "SELECT count(*) FROM decisions"), 4);
	/* the loads read decisions_forwarded, as before */
	assert_int_equal(audit_load(db, "dave@example.org", T0), 2);
	assert_int_equal(audit_pick_load(db, "DAVE@example.org",
					 (time_t)(T0 + 60), (time_t)T0, &day,
					 &week),
			 0);
	assert_int_equal(day, 1);
	assert_int_equal(week, 2);
	assert_int_equal(audit_get_report(db, a, 0, &rec), 1);
	assert_int_equal(rec.ndecisions, 1);
	assert_string_equal(rec.decisions[0].recipient, "dave@example.org");
	audit_record_release(&rec);
	/* and the new schema takes new rows */
	forward(db, 5, T0 + 120, "dave@example.org");
	assert_int_equal(audit_load(db, "dave@example.org", T0), 3);
	audit_close(db);
	/* reopening an up-to-date database changes nothing */
	db = open_ok(path, AUDIT_RDONLY);
	assert_int_equal(audit_user_version(db), AUDIT_SCHEMA_VERSION);
	audit_close(db);
	free(path);
}

/* exec_raw - run text on the database at path, outside the store */
static void exec_raw(const char *path, const char *text)
{
	sqlite3 *s;

	assert_int_equal(sqlite3_open_v2(path, &s, SQLITE_OPEN_READWRITE, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_exec(s, text, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(s);
}

/*
 * schema 8: a bug is (Bugzilla, id); a bug of schema 7 takes its
 * Bugzilla from its report's link, else is adopted by the first
 * Bugzilla that records it
 */
static void test_migration_bugs_from_version_7(void **state)
{
	static const char url[] = "https://bz.example.org";
	static const char other[] = "https://other.example.net";
	char *path = scratch_path("v7.db"), *sql;
	struct audit *db = open_ok(path, AUDIT_CREATE | AUDIT_NOMIGRATE);
	struct audit_bug bug;
	int64_t a;

	(void)state;
	assert_int_equal(audit_migrate(db, 7), 0);
	a = forward(db, 1, T0, "dave@example.org");
	audit_close(db);
	sql = xasprintf("UPDATE reports SET bug_url ="
			" 'https://bz.example.org/show_bug.cgi?id=5000'"
			" WHERE id = %lld;"
			" INSERT INTO bugs (bug_id, report, last_change_time,"
			" updated_at) VALUES (5000, %lld, 'x', %d),"
			" (6000, NULL, 'y', %d)",
			(long long)a, (long long)a, T0, T0);
	exec_raw(path, sql);
	free(sql);

	db = open_ok(path, 0);
	assert_int_equal(audit_user_version(db), AUDIT_SCHEMA_VERSION);
	assert_int_equal(column(path, "SELECT count(*) FROM bugs WHERE bug_id"
				      " = 5000 AND bugzilla_url ="
				      " 'https://bz.example.org'"),
			 1);
	assert_int_equal(audit_bug_seen(db, url, 5000, &bug), 1);
	assert_true(bug.report == a);
	/* another Bugzilla's bug 5000 is not that bug */
	assert_int_equal(audit_bug_seen(db, other, 5000, &bug), 0);
	/* a bug without a report: the first Bugzilla to record it owns it */
	assert_int_equal(audit_bug_seen(db, other, 6000, &bug), 1);
	assert_int_equal(audit_bug_record(db, other, 6000, 0, "z", T0 + 1), 0);
	assert_int_equal(audit_bug_seen(db, url, 6000, &bug), 0);
	assert_int_equal(audit_bug_seen(db, other, 6000, &bug), 1);
	assert_string_equal(bug.last_change_time, "z");
	assert_int_equal(column(path, "SELECT count(*) FROM bugs"), 2);
	audit_close(db);
	free(path);
}

/*
 * schema 12: decisions.security, the filter's verdict as data; the rows
 * of an older database stay NULL (not security-looking), new ones keep
 * theirs, and it reads back with the report (issue 21)
 */
static void test_migration_security_from_version_11(void **state)
{
	static const char has_column[] =
		"SELECT count(*) FROM pragma_table_info('decisions')"
		" WHERE name = 'security'";
	char *path = scratch_path("v11.db");
	struct audit *db = open_ok(path, AUDIT_CREATE | AUDIT_NOMIGRATE);
	struct report *r = fake_report(9, NULL);
	struct audit_decision d = {
		.at = T0 + 1,
		.action = "hold",
		.reason = "it looks security-sensitive (x); no person",
		.security = "KASAN memory-safety crash",
	};
	struct audit_record rec;
	int64_t a, b;

	(void)state;
	assert_int_equal(audit_migrate(db, 11), 0);
	a = forward(db, 1, T0, "dave@example.org");
	audit_close(db);
	assert_int_equal(column(path, has_column), 0);

	db = open_ok(path, 0);
	assert_int_equal(audit_user_version(db), AUDIT_SCHEMA_VERSION);
	assert_int_equal(column(path, has_column), 1);
	assert_int_equal(column(path, "SELECT count(*) FROM decisions"
				      " WHERE security IS NULL"),
			 1);
	assert_int_equal(audit_get_report(db, a, 0, &rec), 1);
	assert_int_equal(rec.ndecisions, 1);
	assert_null(rec.decisions[0].security);
	audit_record_release(&rec);
	/* a new decision keeps its verdict */
	assert_int_equal(audit_insert_report(db, r, T0 + 1, "held", 0, &b), 0);
	assert_int_equal(audit_insert_decision(db, b, &d, NULL), 0);
	assert_int_equal(audit_get_report(db, b, 0, &rec), 1);
	assert_int_equal(rec.ndecisions, 1);
	assert_string_equal(rec.decisions[0].security,
			    "KASAN memory-safety crash");
	audit_record_release(&rec);
	report_free(r);
	audit_close(db);
	free(path);
}

/* sql_on - run text on the database at path, in a connection of its own */
static void sql_on(const char *path, const char *text)
{
	sqlite3 *s;

	assert_int_equal(sqlite3_open(path, &s), SQLITE_OK);
	assert_int_equal(sqlite3_exec(s, text, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(s);
}

/*
 * load_ok - audit_pick_load() since day and week against the forwards
 * to addr counted in decisions itself (any case)
 */
static void load_ok(struct audit *db, const char *path, const char *addr,
		    int64_t day, int64_t week)
{
	char *q;
	unsigned d, w;

	assert_int_equal(
		audit_pick_load(db, addr, (time_t)day, (time_t)week, &d, &w),
		0);
	q = xasprintf("SELECT count(*) FROM decisions WHERE action ="
		      " 'forward' AND recipient = '%s' AND at >= %lld",
		      addr, (long long)day);
	assert_int_equal(d, column(path, q));
	free(q);
	q = xasprintf("SELECT count(*) FROM decisions WHERE action ="
		      " 'forward' AND recipient = '%s' AND at >= %lld",
		      addr, (long long)week);
	assert_int_equal(w, column(path, q));
	free(q);
}

/*
 * schema 13: forward_counts, a recipient's forwards per quarter hour,
 * filled from an older database's decisions by the migration and kept
 * by every forward inserted after it, and by any SQL that moves,
 * re-addresses or deletes one; the loads the pick reads from it are the
 * forwards in decisions, from a slot's start or from any other time
 */
static void test_migration_forward_counts_from_version_12(void **state)
{
	static const char sum[] =
		"SELECT coalesce(sum(n), 0) FROM forward_counts";
	static const char rows[] = "SELECT count(*) FROM forward_counts";
	char *path = scratch_path("v12.db");
	struct audit *db = open_ok(path, AUDIT_CREATE | AUDIT_NOMIGRATE);
	/* a slot's start, as a local midnight is */
	const int64_t s0 = (T0 / 900) * 900;
	int n = 1, i;

	(void)state;
	assert_int_equal(audit_migrate(db, 12), 0);
	/* two in one quarter hour, in two cases; one in the next; a hold */
	forward(db, n++, s0, "dave@example.org");
	forward(db, n++, s0 + 899, "DAVE@example.org");
	forward(db, n++, s0 + 900, "dave@example.org");
	forward(db, n++, s0 + 5, "ted@example.org");
	forward(db, n++, s0 + 6, NULL);
	audit_close(db);
	assert_int_equal(column(path, "SELECT count(*) FROM sqlite_schema"
				      " WHERE name = 'forward_counts'"),
			 0);

	db = open_ok(path, 0);
	assert_int_equal(audit_user_version(db), AUDIT_SCHEMA_VERSION);
	assert_int_equal(column(path, sum), 4);
	assert_int_equal(column(path, rows), 3);
	assert_int_equal(column(path, "SELECT n FROM forward_counts WHERE"
				      " recipient = 'dave@example.org'"
				      " ORDER BY slot LIMIT 1"),
			 2);
	load_ok(db, path, "dave@example.org", s0, s0);
	load_ok(db, path, "dave@example.org", s0 + 900, s0);
	/* from inside a quarter hour: its forwards after that time only */
	load_ok(db, path, "dave@example.org", s0 + 1, s0 - 3 * 86400 + 7);
	load_ok(db, path, "dave@example.org", s0 + 899, s0 + 1);
	load_ok(db, path, "Ted@example.org", s0 + 6, s0 + 5);

	/* forwards after the migration are counted as they go in */
	for (i = 0; i < 40; i++)
		forward(db, n++, s0 + 1000 + i * 377,
			i % 3 ? "dave@example.org" : "Dave@Example.ORG");
	forward(db, n++, s0 + 2000, NULL);
	assert_int_equal(column(path, sum), 44);
	assert_int_equal(column(path, sum),
			 column(path, "SELECT count(*) FROM decisions WHERE"
				      " action = 'forward'"));
	for (i = 0; i < 20; i++)
		load_ok(db, path, "dave@example.org", s0 + i * 811,
			s0 - 86400 + i * 113);

	/* decisions moved in time, re-addressed or deleted by SQL */
	sql_on(path, "UPDATE decisions SET at = at - 86400"
		     " WHERE id % 3 = 0");
	sql_on(path, "UPDATE decisions SET recipient = 'ted@example.org'"
		     " WHERE id % 5 = 0");
	sql_on(path, "UPDATE decisions SET action = 'hold' WHERE id % 7 = 0");
	sql_on(path, "DELETE FROM decisions WHERE id % 11 = 0");
	assert_int_equal(column(path, sum),
			 column(path, "SELECT count(*) FROM decisions WHERE"
				      " action = 'forward'"));
	for (i = 0; i < 20; i++) {
		load_ok(db, path, "dave@example.org", s0 + i * 811,
			s0 - 86400 + i * 113);
		load_ok(db, path, "ted@example.org", s0 + i * 811,
			s0 - 2 * 86400 + i * 113);
	}
	audit_close(db);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_row_as_updates),
		cmocka_unit_test(test_row_refusals),
		cmocka_unit_test(test_migration_from_version_5),
		cmocka_unit_test(test_migration_bugs_from_version_7),
		cmocka_unit_test(test_migration_security_from_version_11),
		cmocka_unit_test(test_migration_forward_counts_from_version_12),
	};
	int rc;

	if (scratch_make("test_audit_row") < 0)
		die_errno("mkdtemp");
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	scratch_remove();
	return rc;
}
