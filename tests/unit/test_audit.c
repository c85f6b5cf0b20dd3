// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_audit - the SQLite database: schema, the filter's transaction,
 * outbox leases, the triager's desk, permissions and concurrency
 *
 * Everything runs on real databases: ":memory:" where the file does
 * not matter, a scratch directory where WAL, permissions, several
 * connections or several processes do.  AUDIT_WRITERS sets the number
 * of processes of the concurrency test (default 50).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <jansson.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "audit.h"
#include "audit_scratch.h"
#include "config.h"
#include "db.h"
#include "deliver.h"
#include "evidence.h"
#include "maintainers.h"
#include "map.h"
#include "pick.h"
#include "report.h"
#include "util.h"

#define T0	 1700000000 /* a fixed "now" for the fixtures */
#define BZ	 "https://bugzilla.example.org" /* the Bugzilla of the fixtures */
#define JSON_BIG 20000 /* longer than one stored string may be */

/* what the callbacks collect, one "|"-terminated item each */
struct textbuf {
	char buf[4096];
};

static void textbuf_add(struct textbuf *t, const char *fmt, ...)
	PRINTF_LIKE(2, 3);
static void textbuf_add(struct textbuf *t, const char *fmt, ...)
{
	size_t len = strlen(t->buf);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->buf + len, sizeof(t->buf) - len, fmt, ap);
	va_end(ap);
}

static struct audit *mem_db(void)
{
	return open_ok(":memory:", AUDIT_CREATE);
}

/* fake_report - a report numbered n (its sha256 is n in hex) */
static struct report *fake_report(int n, const char *message_id,
				  const char *subject)
{
	struct report *r = report_new();

	snprintf(r->sha256, sizeof(r->sha256), "%064x", n);
	r->raw = xasprintf("From: Rita <rita@example.org>\n"
			   "Subject: %s\n\nreport %d\n",
			   subject, n);
	r->raw_len = strlen(r->raw);
	r->message_id = message_id ? xstrdup(message_id) : NULL;
	free(r->subject);
	r->subject = xstrdup(subject);
	free(r->from);
	r->from = xstrdup("Rita <rita@example.org>");
	free(r->from_addr);
	r->from_addr = xstrdup("rita@example.org");
	r->envelope_from = xstrdup("rita@example.org");
	r->envelope_to = xstrdup("bugs@example.org");
	r->body = xasprintf("report %d\n", n);
	r->body_len = strlen(r->body);
	return r;
}

static int64_t insert(struct audit *db, int n, const char *mid, int64_t at,
		      const char *state)
{
	struct report *r = fake_report(n, mid, "a subject");
	int64_t id = 0;

	assert_int_equal(audit_insert_report(db, r, at, state, 0, &id), 0);
	assert_true(id > 0);
	report_free(r);
	return id;
}

/*
 * add - a report as the filter would record it: classified, mapped to
 * section (NULL: unmapped), decided (forward to recipient, or hold)
 */
static int64_t add(struct audit *db, int n, int64_t at, const char *state,
		   const char *class, const char *section,
		   const char *recipient)
{
	struct audit_classification c = { .class = class, .at = at };
	struct audit_section s = { .name = section,
				   .score = 1.0,
				   .why = "guilty file" };
	struct audit_decision d = {
		.at = at,
		.action = recipient ? "forward" : "hold",
		.recipient = recipient,
		.reason = recipient ? "B: triager" : "needs a human",
	};
	int64_t id = insert(db, n, NULL, at, state);

	assert_int_equal(audit_insert_classification(db, id, &c), 0);
	if (section)
		assert_int_equal(audit_insert_sections(db, id, &s, 1), 0);
	assert_int_equal(audit_insert_decision(db, id, &d, NULL), 0);
	return id;
}

static long count_rows(const char *path, const char *sql_text)
{
	sqlite3 *s;
	sqlite3_stmt *st;
	long n;

	assert_int_equal(sqlite3_open_v2(path, &s, SQLITE_OPEN_READONLY, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(s, sql_text, -1, &st, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	n = (long)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(s);
	return n;
}

/* ---- schema ------------------------------------------------------------ */

static void test_schema_created(void **state)
{
	char *path = scratch_path("new/dir/triage.db");
	struct audit *db = open_ok(path, AUDIT_CREATE);

	assert_int_equal(audit_user_version(db), AUDIT_SCHEMA_VERSION);
	audit_close(db);
	/* WAL is persistent: a plain sqlite3 connection sees it */
	assert_int_equal(count_rows(path, "SELECT count(*) FROM"
					  " pragma_journal_mode"
					  " WHERE journal_mode = 'wal'"),
			 1);
	assert_int_equal(count_rows(path, "SELECT count(*) FROM sqlite_schema"
					  " WHERE type = 'table' AND name IN"
					  " ('reports', 'messages', 'evidence',"
					  " 'classification', 'decisions',"
					  " 'outbox', 'delivery_attempts',"
					  " 'actions', 'bugzilla_events',"
					  " 'bugs', 'digest_cursor')"),
			 11);
	/* reopening an up-to-date database changes nothing */
	db = open_ok(path, AUDIT_RDONLY);
	assert_int_equal(audit_user_version(db), AUDIT_SCHEMA_VERSION);
	audit_close(db);
	free(path);
}

static void test_migration_from_version_1(void **state)
{
	char *path = scratch_path("old.db");
	struct audit *db = open_ok(path, AUDIT_CREATE | AUDIT_NOMIGRATE);
	struct audit_event ev = { .webhook_id = 1,
				  .bug_id = 7,
				  .routing_key = "bug.create",
				  .payload = "{}",
				  .payload_len = 2 };
	struct audit_record rec;
	int64_t id, eid;

	assert_int_equal(audit_user_version(db), 0);
	assert_int_equal(audit_migrate(db, 1), 0);
	assert_int_equal(audit_user_version(db), 1);
	id = insert(db, 1, "m1@example.org", T0, "held");
	audit_close(db);
	assert_int_equal(count_rows(path, "SELECT count(*) FROM sqlite_schema"
					  " WHERE name = 'bugzilla_events'"),
			 0);

	/* a read-only open does not migrate and says why */
	{
		struct audit *ro = NULL;
		bool temp = true;

		assert_int_equal(audit_open(path, AUDIT_RDONLY, 0, &ro, &temp),
				 -1);
		assert_null(ro);
		assert_false(temp);
	}

	db = open_ok(path, 0);
	assert_int_equal(audit_user_version(db), AUDIT_SCHEMA_VERSION);
	assert_int_equal(audit_get_report(db, id, 0, &rec), 1);
	assert_string_equal(rec.message_id, "m1@example.org");
	assert_string_equal(rec.state, "held");
	audit_record_release(&rec);
	assert_int_equal(audit_event_store(db, &ev, &eid), 1);
	audit_close(db);
	free(path);
}

static void test_migration_from_version_2(void **state)
{
	char *path = scratch_path("v2.db");
	struct audit *db = open_ok(path, AUDIT_CREATE | AUDIT_NOMIGRATE);
	struct audit_action act = { .at = T0, .who = "alice" };
	struct audit_record rec;
	struct audit_links l;
	int64_t a, b;

	assert_int_equal(audit_migrate(db, 2), 0);
	a = add(db, 1, T0, "forwarded", "user", "XFS FILESYSTEM",
		"xfs@example.org");
	b = add(db, 2, T0 + 1, "held", "ai", "XFS FILESYSTEM", NULL);
	act.report = b;
	act.action = "note";
	act.detail = "before the migration";
	assert_int_equal(audit_record_action(db, &act, NULL), 0);
	audit_close(db);

	db = open_ok(path, 0);
	assert_int_equal(audit_user_version(db), AUDIT_SCHEMA_VERSION);
	/* decisions and actions were rebuilt: rows and ids kept */
	assert_int_equal(audit_get_report(db, a, 0, &rec), 1);
	assert_int_equal(rec.ndecisions, 1);
	assert_string_equal(rec.decisions[0].recipient, "xfs@example.org");
	audit_record_release(&rec);
	assert_int_equal(audit_get_report(db, b, 0, &rec), 1);
	assert_int_equal(rec.nactions, 1);
	assert_string_equal(rec.actions[0].detail, "before the migration");
	audit_record_release(&rec);
	/* and they take the new names */
	act.action = "dup";
	act.argument = "1";
	act.detail = NULL;
	assert_int_equal(audit_record_action(db, &act, NULL), 0);
	assert_int_equal(audit_get_links(db, b, &l), 1);
	assert_int_equal(l.same_crash_as, a);
	assert_null(l.crash_signature);
	audit_links_release(&l);
	act.action = "undup";
	act.argument = NULL;
	assert_int_equal(audit_record_action(db, &act, NULL), 0);
	assert_int_equal(audit_get_links(db, b, &l), 1);
	assert_int_equal(l.same_crash_as, 0);
	audit_links_release(&l);
	/* undup of a report in no group is refused */
	assert_int_equal(audit_record_action(db, &act, NULL), -1);
	audit_close(db);
	free(path);
}

static int count_related(const struct audit_related *r, void *arg)
{
	(void)r;
	(*(int *)arg)++;
	return 0;
}

static void test_links(void **state)
{
	char *path = scratch_path("links.db");
	struct audit *db = open_ok(path, AUDIT_CREATE);
	struct audit_links l = { 0 }, got;
	struct audit_decision d = { .at = T0 + 5, .action = "follow-up" };
	struct audit_root root;
	int64_t a, b, c, x;
	int n = 0;

	a = add(db, 1, T0, "forwarded", "user", "XFS FILESYSTEM",
		"xfs@example.org");
	b = insert(db, 2, "m2@example.org", T0 + 1, "digest");
	c = insert(db, 3, "m3@example.org", T0 + 2, "forwarded");
	l.crash_signature = "WARNING in foo|fs/xfs/foo.c|foo,bar";
	l.syzbot_id = "00aa11bb22cc";
	assert_int_equal(audit_set_links(db, a, &l), 0);
	/* same signature or same syzbot id: the first report */
	assert_int_equal(audit_same_crash(db, l.crash_signature, NULL, 0, &x),
			 1);
	assert_int_equal(x, a);
	assert_int_equal(audit_same_crash(db, "other", "00aa11bb22cc", 0, &x),
			 1);
	assert_int_equal(x, a);
	assert_int_equal(audit_same_crash(db, "other", NULL, 0, &x), 0);
	assert_int_equal(x, 0);
	assert_int_equal(audit_same_crash(db, NULL, NULL, 0, &x), 0);
	/* one key (an empty one is none): its own statement */
	assert_int_equal(audit_same_crash(db, NULL, "00aa11bb22cc", 0, &x), 1);
	assert_int_equal(x, a);
	assert_int_equal(audit_same_crash(db, "", "00aa11bb22cc", 0, &x), 1);
	assert_int_equal(x, a);
	assert_int_equal(audit_same_crash(db, NULL, "00aa11bb22cc", a, &x), 0);
	assert_int_equal(audit_same_crash(db, NULL, "ffff", 0, &x), 0);
	assert_int_equal(audit_same_crash(db, l.crash_signature, "", 0, &x), 1);
	assert_int_equal(x, a);
	assert_int_equal(audit_same_crash(db, l.crash_signature, NULL, a, &x),
			 0);

	memset(&l, 0, sizeof(l));
	l.same_crash_as = a;
	l.crash_signature = "WARNING in foo|fs/xfs/foo.c|foo,bar";
	assert_int_equal(audit_set_links(db, b, &l), 0);
	memset(&l, 0, sizeof(l));
	l.thread_root = a;
	l.regression = true;
	l.good = "6.1";
	l.bad = "6.2";
	assert_int_equal(audit_set_links(db, c, &l), 0);
	assert_int_equal(audit_get_links(db, c, &got), 1);
	assert_int_equal(got.thread_root, a);
	assert_true(got.regression);
	/* c has no evidence row: the versions had nowhere to go */
	assert_null(got.good);
	audit_links_release(&got);

	/* a grouped report is never the first of its crash */
	assert_int_equal(audit_same_crash(db, l.crash_signature, NULL, a, &x),
			 0);

	/* threads: by Message-ID, by id; a follow-up's replies find root */
	assert_int_equal(audit_thread_find(db, "m3@example.org", &x), 1);
	assert_int_equal(x, a);
	assert_int_equal(audit_thread_find(db, "nobody@example.org", &x), 0);
	assert_int_equal(audit_thread_of(db, c, &x), 1);
	assert_int_equal(x, a);
	assert_int_equal(audit_thread_of(db, 999, &x), 0);
	assert_int_equal(audit_thread_of_bug(db, 5, &x), 0);
	assert_int_equal(audit_bug_record(db, BZ, 5, b, "", T0), 0);
	assert_int_equal(audit_thread_of_bug(db, 5, &x), 1);
	assert_int_equal(x, b);

	/* the root: its last forward's recipient, class and section */
	assert_int_equal(audit_root_get(db, a, &root), 1);
	assert_string_equal(root.recipient, "xfs@example.org");
	assert_string_equal(root.state, "forwarded");
	assert_string_equal(root.class, "user");
	assert_int_equal(audit_root_get(db, 999, &root), 0);
	/* a follow-up decision does not count toward the load */
	d.recipient = "xfs@example.org";
	assert_int_equal(audit_insert_decision(db, c, &d, NULL), 0);
	assert_int_equal(audit_load(db, "xfs@example.org", 0), 1);

	/* related of a: its follow-up c and the group member b */
	assert_int_equal(audit_related(db, a, a, count_related, &n), 0);
	assert_int_equal(n, 2);
	n = 0;
	/* related of b: the group's first a (c is a's, not b's) */
	assert_int_equal(audit_related(db, b, a, count_related, &n), 0);
	assert_int_equal(n, 1);
	audit_close(db);
	free(path);
}

/* exec_on - run sql_text on the database at path (a connection of its own) */
static void exec_on(const char *path, const char *sql_text)
{
	sqlite3 *s;

	assert_int_equal(sqlite3_open(path, &s), SQLITE_OK);
	assert_int_equal(sqlite3_exec(s, sql_text, NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(s);
}

static void test_schema_refusals(void **state)
{
	char *newer = scratch_path("newer.db"), *foreign = scratch_path("f.db");
	struct audit *db = NULL;
	bool temp = true;
	char *q;

	q = xasprintf("PRAGMA user_version = %d", AUDIT_SCHEMA_VERSION + 1);
	exec_on(newer, q);
	free(q);
	assert_int_equal(audit_open(newer, AUDIT_CREATE, 0, &db, &temp), -1);
	assert_null(db);
	assert_false(temp);

	exec_on(foreign, "CREATE TABLE t (x)");
	temp = true;
	assert_int_equal(audit_open(foreign, AUDIT_CREATE, 0, &db, &temp), -1);
	assert_false(temp);
	free(newer);
	free(foreign);
}

/* ---- the filter's transaction -------------------------------------------- */

static void test_duplicates(void **state)
{
	struct audit *db = mem_db();
	struct report *r;
	int64_t a, b, id;

	a = insert(db, 1, "abc@example.org", T0, "forwarded");
	assert_int_equal(audit_find_duplicate(db, "00ff", NULL, &id),
			 AUDIT_DUP_NONE);
	/* the same bytes */
	r = fake_report(1, "abc@example.org", "x");
	assert_int_equal(
		audit_find_duplicate(db, r->sha256, r->message_id, &id),
		AUDIT_DUP_SHA256);
	assert_true(id == a);
	assert_int_equal(audit_note_redelivery(db, id, T0 + 5), 0);
	report_free(r);

	/* other bytes, same Message-ID: stored as a duplicate */
	r = fake_report(2, "abc@example.org", "x");
	assert_int_equal(
		audit_find_duplicate(db, r->sha256, r->message_id, &id),
		AUDIT_DUP_MESSAGE_ID);
	assert_true(id == a);
	assert_int_equal(audit_insert_report(db, r, T0, "duplicate", a, &b), 0);
	report_free(r);
	/* a third copy still points at the original, not the duplicate */
	assert_int_equal(
		audit_find_duplicate(db, "1234", "abc@example.org", &id),
		AUDIT_DUP_MESSAGE_ID);
	assert_true(id == a);
	/* no Message-ID: only the bytes count */
	assert_int_equal(audit_find_duplicate(db, "1234", NULL, &id),
			 AUDIT_DUP_NONE);
	assert_int_equal(
		audit_find_duplicate(db, "1234", "other@example.org", &id),
		AUDIT_DUP_NONE);

	/* the same sha256 twice is refused by the schema, permanently */
	r = fake_report(1, NULL, "x");
	assert_int_equal(audit_insert_report(db, r, T0, "held", 0, &id), -1);
	assert_false(audit_temporary(db));
	report_free(r);
	{
		struct audit_record rec;

		assert_int_equal(audit_get_report(db, a, 0, &rec), 1);
		assert_int_equal(rec.deliveries, 2);
		audit_record_release(&rec);
		assert_int_equal(audit_get_report(db, b, 0, &rec), 1);
		assert_string_equal(rec.state, "duplicate");
		assert_true(rec.duplicate_of == a);
		audit_record_release(&rec);
	}
	audit_close(db);
}

static struct evidence *fake_evidence(void)
{
	struct evidence *ev = xcalloc(1, sizeof(*ev));

	ev->title = xstrdup("KASAN: use-after-free Read in xfs_foo");
	ev->crash_type = xstrdup("KASAN");
	ev->guilty_file = xstrdup("fs/xfs/xfs_icache.c");
	ev->kernel_version = xstrdup("6.12.0-rc3");
	ev->tainted = xstrdup("G        W");
	ev->hardware = xstrdup("QEMU Standard PC");
	ev->hw_virtual = true;
	ev->reproducer = REPRO_C | REPRO_SYZ;
	ev->subject_prefix = xstrdup("xfs");
	ev->syzbot = true;
	ev->nframes = 2;
	ev->frames = xcalloc(2, sizeof(*ev->frames));
	ev->frames[0].function = xstrdup("xfs_foo");
	ev->frames[0].file = xstrdup("fs/xfs/xfs_icache.c");
	ev->frames[0].line = 123;
	ev->frames[0].module = xstrdup("xfs");
	ev->frames[0].offset = 0x1a2;
	ev->frames[0].size = 0x3c0;
	ev->frames[1].function = xstrdup("vfs_read");
	ev->frames[1].file = xstrdup("fs/read_write.c");
	ev->frames[1].from_index = true;
	ev->frames[1].unreliable = true;
	ev->nfiles = 2;
	ev->files = xcalloc(2, sizeof(char *));
	ev->files[0] = xstrdup("fs/xfs/xfs_icache.c");
	ev->files[1] = xstrdup("fs/read_write.c");
	ev->nfunctions = 1;
	ev->functions = xcalloc(1, sizeof(char *));
	ev->functions[0] = xstrdup("xfs_foo");
	ev->nreported_by = 1;
	ev->reported_by = xcalloc(1, sizeof(char *));
	ev->reported_by[0] = xstrdup("syzbot+abc@syzkaller.appspotmail.com");
	return ev;
}

static void free_evidence(struct evidence *ev)
{
	size_t i;

	for (i = 0; i < ev->nframes; i++) {
		free(ev->frames[i].function);
		free(ev->frames[i].file);
		free(ev->frames[i].module);
	}
	for (i = 0; i < ev->nfiles; i++)
		free(ev->files[i]);
	for (i = 0; i < ev->nfunctions; i++)
		free(ev->functions[i]);
	for (i = 0; i < ev->nreported_by; i++)
		free(ev->reported_by[i]);
	free(ev->frames);
	free(ev->files);
	free(ev->functions);
	free(ev->reported_by);
	free(ev->title);
	free(ev->crash_type);
	free(ev->guilty_file);
	free(ev->kernel_version);
	free(ev->tainted);
	free(ev->hardware);
	free(ev->subject_prefix);
	free(ev);
}

/* filter_transaction - everything the filter writes for one message */
static int filter_transaction(struct audit *db, struct report *r,
			      const struct evidence *ev, int64_t *id)
{
	static const struct audit_rule_hit hits[] = {
		{ "SYZBOT_SENDER", 3.5, "From: syzbot" },
		{ "KASAN_REPORT", 1.0, "a KASAN report" },
	};
	static const struct audit_section secs[] = {
		{ "XFS FILESYSTEM", 1.0, "guilty file fs/xfs/xfs_icache.c" },
		{ "FILESYSTEMS (VFS and infrastructure)", 0.5,
		  "frame 2: fs/read_write.c" },
	};
	struct audit_classification c = {
		.class = "fuzzer",
		.score_user = 0.1,
		.score_fuzzer = 4.5,
		.score_ai = 0.2,
		.confidence = 0.97,
		.certain = true,
		.model_version = "nb-1",
		.header = "fuzzer; score=4.5",
		.hits = hits,
		.nhits = ARRAY_SIZE(hits),
	};
	struct audit_decision d = {
		.action = "forward",
		.recipient = "triager@example.org",
		.recipient_name = "Tria Ger",
		.reason = "B: mailto in XFS FILESYSTEM",
		.candidates = "triager@example.org 1.0 B: mailto\n"
			      "dev@example.org 0.4 Reviewed-by\n",
	};
	struct audit_outbox_new m = {
		.kind = "forward",
		.envelope_from = "bugs-owner@example.org",
		.recipients = "triager@example.org",
		.message = r->raw,
		.message_len = r->raw_len,
	};

	if (audit_insert_report(db, r, T0, "forwarded", 0, id) ||
	    audit_insert_evidence(db, *id, ev) ||
	    audit_insert_classification(db, *id, &c) ||
	    audit_insert_sections(db, *id, secs, ARRAY_SIZE(secs)) ||
	    audit_insert_decision(db, *id, &d, NULL))
		return -1;
	m.report = *id;
	return audit_outbox_enqueue(db, &m, NULL);
}

static const char *const every_table[] = {
	"reports",   "messages", "evidence",	      "classification",
	"decisions", "outbox",	 "delivery_attempts",
};

static long total_rows(const char *path)
{
	long n = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(every_table); i++) {
		char *q = xasprintf("SELECT count(*) FROM %s", every_table[i]);

		n += count_rows(path, q);
		free(q);
	}
	return n;
}

static void test_one_transaction(void **state)
{
	char *path = scratch_path("txn.db");
	struct audit *db = open_ok(path, AUDIT_CREATE | AUDIT_FILTER);
	struct evidence *ev = fake_evidence();
	struct report *r = fake_report(42, "txn@example.org", "[BUG] xfs");
	struct audit_record rec;
	int64_t id;

	/* rolled back: nothing at all remains */
	assert_int_equal(audit_begin(db), 0);
	assert_int_equal(filter_transaction(db, r, ev, &id), 0);
	audit_rollback(db);
	assert_int_equal(total_rows(path), 0);

	/* a failing statement inside the transaction: roll back, nothing */
	assert_int_equal(audit_begin(db), 0);
	assert_int_equal(filter_transaction(db, r, ev, &id), 0);
	assert_int_equal(audit_insert_report(db, r, T0, "held", 0, &id), -1);
	assert_false(audit_temporary(db));
	audit_rollback(db);
	assert_int_equal(total_rows(path), 0);

	/* committed: every table has its rows, read back as written */
	assert_int_equal(audit_begin(db), 0);
	assert_int_equal(audit_begin(db), -1); /* no nesting */
	assert_int_equal(filter_transaction(db, r, ev, &id), 0);
	assert_int_equal(audit_commit(db), 0);
	assert_int_equal(total_rows(path), 6);
	audit_close(db);

	db = open_ok(path, AUDIT_RDONLY);
	assert_int_equal(audit_get_report(db, id, AUDIT_GET_RAW, &rec), 1);
	assert_string_equal(rec.sha256, r->sha256);
	assert_string_equal(rec.subject, "[BUG] xfs");
	assert_string_equal(rec.from_display, "Rita <rita@example.org>");
	assert_string_equal(rec.envelope_to, "bugs@example.org");
	assert_string_equal(rec.source, "mail");
	assert_string_equal(rec.class, "fuzzer");
	assert_int_equal(rec.raw_len, r->raw_len);
	assert_memory_equal(rec.raw, r->raw, r->raw_len);
	assert_string_equal(rec.body, r->body);
	assert_non_null(rec.evidence);
	assert_string_equal(rec.evidence->guilty_file, "fs/xfs/xfs_icache.c");
	assert_true(rec.evidence->hw_virtual);
	assert_int_equal(rec.evidence->reproducer, REPRO_C | REPRO_SYZ);
	assert_int_equal(rec.evidence->nframes, 2);
	assert_string_equal(rec.evidence->frames[0].module, "xfs");
	assert_int_equal(rec.evidence->frames[0].offset, 0x1a2);
	assert_int_equal(rec.evidence->frames[0].line, 123);
	assert_true(rec.evidence->frames[1].from_index);
	assert_null(rec.evidence->frames[1].module);
	assert_int_equal(rec.evidence->nfiles, 2);
	assert_string_equal(rec.evidence->files[1], "fs/read_write.c");
	assert_int_equal(rec.evidence->nreported_by, 1);
	assert_int_equal(rec.evidence->ntested_by, 0);
	assert_non_null(rec.classification);
	assert_string_equal(rec.classification->class, "fuzzer");
	assert_true(rec.classification->certain);
	assert_int_equal(rec.classification->nhits, 2);
	assert_string_equal(rec.classification->hits[0].name, "SYZBOT_SENDER");
	assert_true(rec.classification->hits[0].score == 3.5);
	assert_int_equal(rec.nsections, 2);
	assert_string_equal(rec.sections[0].name, "XFS FILESYSTEM");
	assert_int_equal(rec.ndecisions, 1);
	assert_string_equal(rec.decisions[0].recipient_name, "Tria Ger");
	assert_non_null(strstr(rec.decisions[0].candidates, "dev@example.org"));
	assert_int_equal(rec.noutbox, 1);
	assert_string_equal(rec.outbox[0].state, "queued");
	assert_int_equal(rec.outbox[0].message_len, r->raw_len);
	assert_int_equal(rec.nactions, 0);
	audit_record_release(&rec);
	assert_int_equal(audit_get_report(db, id + 100, 0, &rec), 0);
	audit_close(db);

	report_free(r);
	free_evidence(ev);
	free(path);
}

static void test_raw_bytes_and_compression(void **state)
{
	struct audit *db = mem_db();
	struct report *r = fake_report(7, NULL, "binary");
	struct audit_record rec;
	size_t i, n = 200000;
	int64_t id, small;
	long count;

	/* NUL, CR, 8-bit bytes and a long repetitive log: compressible */
	free(r->raw);
	r->raw = xmalloc(n);
	for (i = 0; i < n; i++)
		r->raw[i] = (char)(i % 97 == 0 ? 0 : (i * 7) % 256);
	memcpy(r->raw, "Subject: x\r\n\r\n", 14);
	r->raw_len = n;
	assert_int_equal(audit_insert_report(db, r, T0, "held", 0, &id), 0);
	small = insert(db, 8, NULL, T0, "held");

	/* not old enough, then too small, then compressed */
	assert_int_equal(audit_compress_messages(db, T0, 1000, &count), 0);
	assert_int_equal(count, 0);
	assert_int_equal(audit_compress_messages(db, T0 + 1, n + 1, &count), 0);
	assert_int_equal(count, 0);
	assert_int_equal(audit_compress_messages(db, T0 + 1, 1000, &count), 0);
	assert_int_equal(count, 1);
	assert_int_equal(audit_compress_messages(db, T0 + 1, 1000, &count), 0);
	assert_int_equal(count, 0);

	assert_int_equal(audit_get_report(db, id, AUDIT_GET_RAW, &rec), 1);
	assert_int_equal(rec.raw_len, n);
	assert_int_equal(rec.size, n);
	assert_memory_equal(rec.raw, r->raw, n);
	audit_record_release(&rec);
	/* without AUDIT_GET_RAW the bytes are not read */
	assert_int_equal(audit_get_report(db, small, 0, &rec), 1);
	assert_null(rec.raw);
	assert_string_equal(rec.body, "report 8\n");
	audit_record_release(&rec);
	report_free(r);
	audit_close(db);
}

/*
 * The filter's cache setting: a message larger than the cache and
 * below the spill threshold is kept whole in memory until COMMIT, and
 * its bytes come back identical from another connection.
 */
static void test_cache_no_spill(void **state)
{
	char *path = scratch_path("spill.db");
	struct audit *db = open_ok(path, AUDIT_CREATE | AUDIT_FILTER);
	struct report *r = fake_report(9, NULL, "big");
	struct audit_record rec;
	size_t i, n = 3u << 20;
	int64_t id;

	(void)state;
	assert_int_equal(audit_set_cache(db, 256, 8192), 0);
	assert_int_equal(audit_set_cache(db, 0, 0), 0); /* nothing to set */
	free(r->raw);
	r->raw = xmalloc(n);
	for (i = 0; i < n; i++)
		r->raw[i] = (char)((i * 131) ^ (i >> 12));
	memcpy(r->raw, "Subject: x\n\n", 12);
	r->raw_len = n;
	assert_int_equal(audit_begin(db), 0);
	assert_int_equal(audit_insert_report(db, r, T0, "held", 0, &id), 0);
	assert_int_equal(audit_commit(db), 0);
	audit_close(db);

	db = open_ok(path, 0);
	assert_int_equal(audit_get_report(db, id, AUDIT_GET_RAW, &rec), 1);
	assert_int_equal(rec.raw_len, n);
	assert_memory_equal(rec.raw, r->raw, n);
	audit_record_release(&rec);
	audit_close(db);
	report_free(r);
	free(path);
}

/*
 * big_report - report n whose raw is len pseudo-random bytes (NULs
 * among them) after a header, and whose body is body_len bytes of UTF-8
 */
static struct report *big_report(int n, size_t len, size_t body_len)
{
	static const char line[] = "[  1.000000] \xc3\xa9t\xc3\xa9 xfs_iget\n";
	struct report *r = fake_report(n, NULL, "big");
	uint64_t x = 0x9e3779b97f4a7c15ull ^ (uint64_t)n;
	size_t i;

	free(r->raw);
	r->raw = xmalloc(len);
	for (i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		r->raw[i] = (char)(i % 251 == 0 ? 0 : x >> 56);
	}
	memcpy(r->raw, "Subject: big\n\n", 14);
	r->raw_len = len;
	free(r->body);
	r->body = xmalloc(body_len + 1);
	for (i = 0; i < body_len; i++)
		r->body[i] = line[i % (sizeof(line) - 1)];
	r->body[body_len] = '\0';
	r->body_len = body_len;
	return r;
}

/* column_text - a text value of one row of the database at path */
static char *column_text(const char *path, const char *sql_text, int64_t id)
{
	sqlite3 *s;
	sqlite3_stmt *st;
	char *v;

	assert_int_equal(sqlite3_open_v2(path, &s, SQLITE_OPEN_READONLY, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(s, sql_text, -1, &st, NULL),
			 SQLITE_OK);
	sqlite3_bind_int64(st, 1, id);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	v = xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	sqlite3_close(s);
	return v;
}

/* same_message - report id, read by another connection, is r exactly */
static void same_message(const char *path, int64_t id, const struct report *r,
			 const char *body_type)
{
	struct audit *db = open_ok(path, AUDIT_RDONLY);
	struct audit_record rec;
	char *type;

	assert_int_equal(audit_get_report(db, id, AUDIT_GET_RAW, &rec), 1);
	assert_int_equal(rec.size, r->raw_len);
	assert_int_equal(rec.raw_len, r->raw_len);
	assert_memory_equal(rec.raw, r->raw, r->raw_len);
	assert_int_equal(rec.body_len, r->body_len);
	assert_memory_equal(rec.body, r->body, r->body_len);
	audit_record_release(&rec);
	audit_close(db);
	type = column_text(path,
			   "SELECT typeof(body) || ' ' || encoding || ' ' ||"
			   " length(raw) FROM messages WHERE report = ?1",
			   id);
	assert_true(!strncmp(type, body_type, strlen(body_type)));
	assert_int_equal(strtoul(strrchr(type, ' ') + 1, NULL, 10), r->raw_len);
	free(type);
}

/*
 * A message of AUDIT_MESSAGE_LATE_MIN bytes or more, stored in a
 * transaction, is inserted as zeros and written into its row: it reads
 * back byte for byte, as does one just below (bound to the INSERT, its
 * body stays TEXT), one of either size through the filter's
 * audit_insert_report_row(), and one stored outside a transaction.
 */
static void test_large_message_written_late(void **state)
{
	static const struct {
		size_t len, body_len;
		bool row, txn;
		const char *body_type;
	} cases[] = {
		{ 300000, 20000, false, true, "blob" },
		{ AUDIT_MESSAGE_LATE_MIN, 1, true, true, "blob" },
		{ AUDIT_MESSAGE_LATE_MIN - 1, 20000, false, true, "text" },
		{ AUDIT_MESSAGE_LATE_MIN - 1, 7, true, true, "text" },
		{ 300000, 20000, false, false, "text" },
		{ 300000, 0, true, true, "text" }, /* an empty body: '' */
	};
	char *path = scratch_path("late.db");
	struct audit *db = open_ok(path, AUDIT_CREATE | AUDIT_FILTER);
	size_t i;

	(void)state;
	assert_int_equal(audit_set_cache(db, 0, 16384), 0);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct report *r =
			big_report((int)i + 1, cases[i].len, cases[i].body_len);
		struct audit_report_row row = { .received_at = T0,
						.state = "held" };
		int64_t id = 0;

		if (cases[i].txn)
			assert_int_equal(audit_begin(db), 0);
		if (cases[i].row)
			assert_int_equal(
				audit_insert_report_row(db, r, &row, &id), 0);
		else
			assert_int_equal(
				audit_insert_report(db, r, T0, "held", 0, &id),
				0);
		if (cases[i].txn)
			assert_int_equal(audit_commit(db), 0);
		same_message(path, id, r, cases[i].body_type);
		report_free(r);
	}
	/* NULL body: NULL, and the message still goes in late */
	{
		struct report *r = big_report(50, 300000, 0);
		int64_t id = 0;
		char *type;

		free(r->body);
		r->body = NULL;
		assert_int_equal(audit_begin(db), 0);
		assert_int_equal(audit_insert_report(db, r, T0, "held", 0, &id),
				 0);
		assert_int_equal(audit_commit(db), 0);
		same_message(path, id, r, "null");
		type = column_text(path,
				   "SELECT count(*) FROM messages WHERE"
				   " report = ?1 AND body IS NULL",
				   id);
		assert_string_equal(type, "1");
		free(type);
		report_free(r);
	}
	audit_close(db);
	free(path);
}

/*
 * A large message whose row cannot take its bytes after the INSERT
 * (a trigger shrinks or deletes the new row): the insert fails, and
 * the rollback leaves no row of zeros, nor any other.
 */
static void test_large_message_late_failure(void **state)
{
	static const char *const triggers[] = {
		"CREATE TRIGGER t AFTER INSERT ON messages BEGIN"
		" UPDATE messages SET raw = x'00' WHERE report = new.report;"
		" END",
		"CREATE TRIGGER t AFTER INSERT ON messages BEGIN"
		" DELETE FROM messages WHERE report = new.report; END",
	};
	struct report *r = big_report(1, 300000, 20000);
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(triggers); i++) {
		char *path = scratch_path("late-fail.db");
		struct audit *db = open_ok(path, AUDIT_CREATE | AUDIT_FILTER);
		int64_t id = 0;

		exec_on(path, triggers[i]);
		assert_int_equal(audit_begin(db), 0);
		assert_int_equal(audit_insert_report(db, r, T0, "held", 0, &id),
				 -1);
		assert_int_equal(id, 0);
		assert_non_null(strstr(audit_errmsg(db), "message"));
		assert_false(audit_temporary(db));
		audit_rollback(db);
		assert_int_equal(total_rows(path), 0);
		/* the same without the trigger goes in */
		exec_on(path, "DROP TRIGGER t");
		assert_int_equal(audit_begin(db), 0);
		assert_int_equal(audit_insert_report(db, r, T0, "held", 0, &id),
				 0);
		assert_int_equal(audit_commit(db), 0);
		audit_close(db);
		same_message(path, id, r, "blob");
		free(path);
	}
	report_free(r);
}

/* ---- outbox ------------------------------------------------------------------ */

static int64_t enqueue(struct audit *db, int64_t report, int64_t created,
		       int64_t not_before)
{
	struct audit_outbox_new m = {
		.report = report,
		.kind = report ? "forward" : "digest",
		.created_at = created,
		.not_before = not_before,
		.envelope_from = "bugs-owner@example.org",
		.recipients = "a@example.org\nb@example.org",
		.message = "Subject: hi\n\nbody\n",
		.message_len = 18,
	};
	int64_t id;

	assert_int_equal(audit_outbox_enqueue(db, &m, &id), 0);
	return id;
}

/* The filter's sendmail drain takes mail only; write-backs wait. */
static void test_outbox_mail_only(void **state)
{
	struct audit *db = mem_db();
	struct audit_outbox_item it;
	struct audit_outbox_new m = {
		.kind = "bugzilla",
		.envelope_from = "",
		.recipients = "https://bugzilla.example.org/",
		.message = "{}",
		.message_len = 2,
		.created_at = T0,
	};
	int64_t id;

	assert_int_equal(audit_outbox_enqueue(db, &m, &id), 0);
	assert_int_equal(audit_outbox_claim_due(db, T0, 60, true, &it), 0);
	assert_int_equal(audit_outbox_claim_due(db, T0, 60, false, &it), 1);
	assert_true(it.id == id);
	assert_string_equal(it.kind, "bugzilla");
	audit_outbox_item_release(&it);
	audit_close(db);
}

static void test_outbox_lease_retry_done(void **state)
{
	struct audit *db = mem_db();
	struct audit_outbox_item a, b, c;
	struct audit_record rec;
	time_t next;
	int64_t rep = insert(db, 1, NULL, T0, "forwarded");
	int64_t first = enqueue(db, rep, T0, 0);
	int64_t later = enqueue(db, 0, T0, T0 + 1000);

	assert_int_equal(audit_outbox_claim_due(db, T0, 300, false, &a), 1);
	assert_true(a.id == first);
	assert_true(a.report == rep);
	assert_int_equal(a.attempts, 1);
	assert_string_equal(a.kind, "forward");
	assert_string_equal(a.recipients, "a@example.org\nb@example.org");
	assert_int_equal(a.message_len, 18);
	assert_string_equal(a.message, "Subject: hi\n\nbody\n");
	/* leased: nobody else gets it; the other row is not due yet */
	assert_int_equal(audit_outbox_claim_due(db, T0 + 299, 300, false, &b),
			 0);

	/* the lease runs out (worker died): the row is claimed again */
	assert_int_equal(audit_outbox_claim_due(db, T0 + 300, 300, false, &b),
			 1);
	assert_true(b.id == first);
	assert_int_equal(b.attempts, 2);
	/* the first worker comes back late: its outcome changes nothing */
	assert_int_equal(audit_outbox_done(db, &a, T0 + 301, 250, "late"), 1);
	/* the second worker's temporary failure: deliver's schedule */
	assert_true(deliver_backoff(b.created_at, T0 + 310,
				    (unsigned)b.attempts, 0, &next));
	assert_true(next > T0 + 310);
	assert_int_equal(audit_outbox_retry(db, &b, T0 + 310, 0, 451, "x"), -1);
	assert_false(audit_temporary(db));
	assert_int_equal(audit_outbox_retry(db, &b, T0 + 310, next, 451,
					    "4.3.0 try later"),
			 0);
	assert_int_equal(audit_outbox_claim_due(db, next - 1, 300, false, &c),
			 0);
	assert_int_equal(audit_outbox_claim_due(db, next, 300, false, &c), 1);
	assert_true(c.id == first);
	assert_int_equal(c.attempts, 3);
	assert_int_equal(audit_outbox_done(db, &c, next + 1, 250, "2.0.0 ok"),
			 0);
	audit_outbox_item_release(&a);
	audit_outbox_item_release(&b);
	audit_outbox_item_release(&c);

	/* sent: never claimed again; the later row when its time comes */
	assert_int_equal(audit_outbox_claim_due(db, T0 + 999, 300, false, &a),
			 0);
	assert_int_equal(
		audit_outbox_claim_due(db, T0 + 100000, 300, false, &a), 1);
	assert_true(a.id == later);
	assert_true(a.report == 0);
	audit_outbox_item_release(&a);

	assert_int_equal(audit_get_report(db, rep, 0, &rec), 1);
	assert_int_equal(rec.noutbox, 1);
	assert_string_equal(rec.outbox[0].state, "sent");
	assert_true(rec.outbox[0].sent_at == next + 1);
	assert_int_equal(rec.outbox[0].attempts, 3);
	assert_null(rec.outbox[0].last_error);
	/* every attempt is recorded, the lost lease's too, in time order */
	assert_int_equal(rec.outbox[0].ntries, 3);
	assert_true(rec.outbox[0].tries[0].ok);
	assert_string_equal(rec.outbox[0].tries[0].detail, "late");
	assert_false(rec.outbox[0].tries[1].ok);
	assert_int_equal(rec.outbox[0].tries[1].smtp_code, 451);
	assert_string_equal(rec.outbox[0].tries[1].detail, "4.3.0 try later");
	assert_true(rec.outbox[0].tries[2].ok);
	assert_string_equal(rec.state, "forwarded");
	audit_record_release(&rec);
	audit_close(db);
}

static int collect_pending(const struct audit_pending *p, void *arg)
{
	textbuf_add(arg, "%lld/%lld %s %s %s|", (long long)p->id,
		    (long long)p->outbox_id, p->state,
		    p->class[0] ? p->class : "-",
		    p->section ? p->section : "unmapped");
	return 0;
}

static void test_outbox_fail_and_requeue(void **state)
{
	struct audit *db = mem_db();
	struct audit_outbox_item it;
	struct audit_record rec;
	struct textbuf out = { "" };
	int64_t rep = add(db, 1, T0, "forwarded", "user", "XFS FILESYSTEM",
			  "x@example.org");
	int64_t ob = enqueue(db, rep, T0, 0), digest;
	char *expect;

	assert_int_equal(audit_outbox_claim_due(db, T0, 0, false, &it), 1);
	assert_int_equal(
		audit_outbox_fail(db, &it, T0 + 1, 550, "5.1.1 no such user"),
		0);
	audit_outbox_item_release(&it);
	assert_int_equal(audit_get_report(db, rep, 0, &rec), 1);
	assert_string_equal(rec.state, "failed");
	assert_string_equal(rec.outbox[0].state, "failed");
	assert_string_equal(rec.outbox[0].last_error, "5.1.1 no such user");
	audit_record_release(&rec);

	/* a failed digest (no report) also waits for a human */
	digest = enqueue(db, 0, T0 + 2, 0);
	assert_int_equal(audit_outbox_claim_due(db, T0 + 2, 0, false, &it), 1);
	assert_true(it.id == digest);
	assert_int_equal(audit_outbox_fail(db, &it, T0 + 3, 0, "refused"), 0);
	audit_outbox_item_release(&it);
	assert_int_equal(audit_pending_list(db, NULL, collect_pending, &out),
			 0);
	expect = xasprintf("%lld/%lld failed user XFS FILESYSTEM|"
			   "0/%lld failed - unmapped|",
			   (long long)rep, (long long)ob, (long long)digest);
	assert_string_equal(out.buf, expect);
	free(expect);

	/* approve: the failed row goes out again; the report leaves pending */
	assert_int_equal(audit_outbox_requeue(db, ob, T0 + 10), 0);
	assert_int_equal(audit_outbox_requeue(db, ob, T0 + 10), 1);
	assert_int_equal(audit_get_report(db, rep, 0, &rec), 1);
	assert_string_equal(rec.state, "forwarded");
	audit_record_release(&rec);
	assert_int_equal(audit_outbox_cancel(db, digest), 0);
	assert_int_equal(audit_outbox_cancel(db, digest), 1);
	out.buf[0] = '\0';
	assert_int_equal(audit_pending_list(db, NULL, collect_pending, &out),
			 0);
	assert_string_equal(out.buf, "");
	assert_int_equal(audit_outbox_claim_due(db, T0 + 10, 0, false, &it), 1);
	assert_true(it.id == ob);
	assert_int_equal(it.attempts, 2);
	audit_outbox_item_release(&it);
	audit_close(db);
}

/* claimer - a process that claims rows until none is due */
static void claimer(const char *path, int fd)
{
	struct audit *db;
	struct audit_outbox_item it;
	bool temp;
	int rc;

	if (audit_open(path, 0, 10000, &db, &temp) < 0)
		_exit(2);
	while ((rc = audit_outbox_claim_due(db, T0, 600, false, &it)) == 1) {
		int64_t id = it.id;

		if (write(fd, &id, sizeof(id)) != sizeof(id))
			_exit(3);
		audit_outbox_item_release(&it);
	}
	audit_close(db);
	_exit(rc == 0 ? 0 : 4);
}

static void test_concurrent_claims(void **state)
{
	enum { ROWS = 200, WORKERS = 4 };
	char *path = scratch_path("claims.db");
	struct audit *db = open_ok(path, AUDIT_CREATE), *db2;
	struct audit_outbox_item a, b;
	unsigned char seen[ROWS + 1] = { 0 };
	int64_t id, first;
	int fds[2], i, status, got = 0;

	/* two connections of one process, interleaved */
	first = enqueue(db, 0, T0, 0);
	enqueue(db, 0, T0, 0);
	db2 = open_ok(path, 0);
	assert_int_equal(audit_outbox_claim_due(db, T0, 600, false, &a), 1);
	assert_int_equal(audit_outbox_claim_due(db2, T0, 600, false, &b), 1);
	assert_true(a.id != b.id);
	audit_outbox_item_release(&a);
	audit_outbox_item_release(&b);
	assert_int_equal(audit_outbox_claim_due(db, T0, 600, false, &a), 0);
	assert_int_equal(audit_outbox_claim_due(db2, T0, 600, false, &b), 0);
	audit_close(db2);
	assert_int_equal(audit_outbox_cancel(db, first), 1); /* sending */

	/* WORKERS processes racing over ROWS rows */
	assert_int_equal(audit_begin(db), 0);
	for (i = 0; i < ROWS; i++)
		enqueue(db, 0, T0, 0);
	assert_int_equal(audit_commit(db), 0);
	audit_close(db);
	assert_int_equal(pipe(fds), 0);
	for (i = 0; i < WORKERS; i++) {
		pid_t pid = fork();

		assert_true(pid >= 0);
		if (pid == 0) {
			close(fds[0]);
			claimer(path, fds[1]);
		}
	}
	close(fds[1]);
	while (read(fds[0], &id, sizeof(id)) == sizeof(id)) {
		/* rows 3 .. ROWS + 2 */
		assert_true(id >= 3 && id <= ROWS + 2);
		assert_int_equal(seen[id - 2], 0);
		seen[id - 2] = 1;
		got++;
	}
	close(fds[0]);
	for (i = 0; i < WORKERS; i++) {
		assert_true(wait(&status) > 0);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
	assert_int_equal(got, ROWS);
	free(path);
}

/* ---- triager's desk ------------------------------------------------------ */

static void test_actions_and_pending(void **state)
{
	struct audit *db = mem_db();
	struct audit_pending_filter f = { 0 };
	struct audit_action act = { .who = "alice" };
	struct audit_record rec;
	struct textbuf out = { "" };
	int64_t ai, unc, fz, usr, dig;
	char *expect;

	/* inserted out of order: pending is oldest first */
	fz = add(db, 3, T0 + 30, "held", "fuzzer", "XFS FILESYSTEM", NULL);
	ai = add(db, 1, T0 + 10, "held", "ai", "XFS FILESYSTEM", NULL);
	unc = add(db, 2, T0 + 20, "held", "uncertain", NULL, NULL);
	usr = add(db, 4, T0 + 40, "forwarded", "user", "EXT4 FILE SYSTEM",
		  "ted@example.org");
	dig = add(db, 5, T0 + 50, "digest", "fuzzer", "XFS FILESYSTEM", NULL);

	assert_int_equal(audit_pending_list(db, &f, collect_pending, &out), 0);
	expect = xasprintf("%lld/0 held ai XFS FILESYSTEM|"
			   "%lld/0 held uncertain unmapped|"
			   "%lld/0 held fuzzer XFS FILESYSTEM|",
			   (long long)ai, (long long)unc, (long long)fz);
	assert_string_equal(out.buf, expect);
	free(expect);

	out.buf[0] = '\0';
	f.class = "fuzzer";
	assert_int_equal(audit_pending_list(db, &f, collect_pending, &out), 0);
	expect = xasprintf("%lld/0 held fuzzer XFS FILESYSTEM|", (long long)fz);
	assert_string_equal(out.buf, expect);
	free(expect);

	out.buf[0] = '\0';
	f.class = NULL;
	f.section = "xfs filesystem"; /* any case */
	assert_int_equal(audit_pending_list(db, &f, collect_pending, &out), 0);
	expect = xasprintf("%lld/0 held ai XFS FILESYSTEM|"
			   "%lld/0 held fuzzer XFS FILESYSTEM|",
			   (long long)ai, (long long)fz);
	assert_string_equal(out.buf, expect);
	free(expect);

	out.buf[0] = '\0';
	f.section = NULL;
	f.unmapped = true;
	assert_int_equal(audit_pending_list(db, &f, collect_pending, &out), 0);
	expect = xasprintf("%lld/0 held uncertain unmapped|", (long long)unc);
	assert_string_equal(out.buf, expect);
	free(expect);

	out.buf[0] = '\0';
	assert_int_equal(audit_digest_list(db, "XFS FILESYSTEM", T0,
					   collect_pending, &out),
			 0);
	expect = xasprintf("%lld/0 digest fuzzer XFS FILESYSTEM|",
			   (long long)dig);
	assert_string_equal(out.buf, expect);
	free(expect);

	/* reclassify ai -> user; approve; reject the fuzzer report */
	act.report = ai;
	act.at = T0 + 100;
	act.action = "reclassify";
	act.argument = "user";
	assert_int_equal(audit_record_action(db, &act, NULL), 0);
	act.action = "approve";
	act.argument = NULL;
	act.at = T0 + 110;
	assert_int_equal(audit_record_action(db, &act, NULL), 0);
	act.report = fz;
	act.action = "reject";
	act.at = T0 + 130;
	act.detail = "syzbot already sent it to the list";
	enqueue(db, fz, T0 + 30, 0);
	assert_int_equal(audit_record_action(db, &act, NULL), 0);
	act.report = unc;
	act.action = "reroute";
	act.argument = "EXT4 FILE SYSTEM";
	act.detail = NULL;
	act.at = T0 + 140;
	assert_int_equal(audit_record_action(db, &act, NULL), 0);
	act.report = usr;
	act.action = "note";
	act.argument = "asked for dmesg";
	act.at = T0 + 150;
	assert_int_equal(audit_record_action(db, &act, NULL), 0);

	/* refused: unknown action or class, missing report or login */
	act.action = "explode";
	assert_int_equal(audit_record_action(db, &act, NULL), -1);
	act.action = "reclassify";
	act.argument = "spam";
	assert_int_equal(audit_record_action(db, &act, NULL), -1);
	act.report = 999;
	act.argument = "ai";
	assert_int_equal(audit_record_action(db, &act, NULL), -1);
	assert_false(audit_temporary(db));
	act.report = usr;
	act.who = "";
	assert_int_equal(audit_record_action(db, &act, NULL), -1);

	out.buf[0] = '\0';
	f.unmapped = false;
	assert_int_equal(audit_pending_list(db, &f, collect_pending, &out), 0);
	assert_string_equal(out.buf, "");

	assert_int_equal(audit_get_report(db, ai, 0, &rec), 1);
	assert_string_equal(rec.state, "approved");
	assert_string_equal(rec.class, "user");
	assert_string_equal(rec.classification->class, "ai");
	assert_int_equal(rec.nactions, 2);
	assert_string_equal(rec.actions[0].action, "reclassify");
	assert_string_equal(rec.actions[0].previous, "ai");
	assert_string_equal(rec.actions[0].who, "alice");
	assert_string_equal(rec.actions[1].previous, "held");
	audit_record_release(&rec);

	assert_int_equal(audit_get_report(db, fz, 0, &rec), 1);
	assert_string_equal(rec.state, "rejected");
	assert_string_equal(rec.outbox[0].state, "cancelled");
	assert_string_equal(rec.actions[0].detail,
			    "syzbot already sent it to the list");
	audit_record_release(&rec);

	assert_int_equal(audit_get_report(db, unc, 0, &rec), 1);
	assert_string_equal(rec.state, "forwarded");
	assert_string_equal(rec.actions[0].argument, "EXT4 FILE SYSTEM");
	assert_null(rec.actions[0].previous); /* it was held: nobody */
	audit_record_release(&rec);
	audit_close(db);
}

static int collect_log(const struct audit_log_entry *e, void *arg)
{
	textbuf_add(arg, "%lld %lld %s %s %s|", (long long)(e->at - T0),
		    (long long)e->report, e->kind, e->who, e->what);
	return 0;
}

static int stop_at_second(const struct audit_log_entry *e, void *arg)
{
	int *n = arg;

	return ++*n == 2 ? 7 : 0;
}

static void test_log(void **state)
{
	struct audit *db = mem_db();
	struct audit_action act = { .who = "bob", .action = "approve" };
	struct audit_outbox_item it;
	struct textbuf out = { "" };
	int64_t a, b;
	int n = 0;
	char *expect;

	a = add(db, 1, T0, "held", "ai", NULL, NULL);
	b = add(db, 2, T0 + 5, "forwarded", "user", "X", "x@example.org");
	enqueue(db, b, T0 + 5, 0);
	assert_int_equal(audit_outbox_claim_due(db, T0 + 6, 0, false, &it), 1);
	assert_int_equal(audit_outbox_done(db, &it, T0 + 7, 250, "ok"), 0);
	audit_outbox_item_release(&it);
	act.report = a;
	act.at = T0 + 8;
	assert_int_equal(audit_record_action(db, &act, NULL), 0);

	assert_int_equal(audit_log_list(db, T0 + 1, collect_log, &out), 0);
	expect = xasprintf("5 %lld received mail forwarded|"
			   "5 %lld decision triage forward|"
			   "7 %lld delivery deliver sent|"
			   "8 %lld action bob approve|",
			   (long long)b, (long long)b, (long long)b,
			   (long long)a);
	assert_string_equal(out.buf, expect);
	free(expect);
	/* a callback's non-zero return stops the walk and is returned */
	assert_int_equal(audit_log_list(db, 0, stop_at_second, &n), 7);
	assert_int_equal(n, 2);
	audit_close(db);
}

static long find_count(const struct audit_count *v, size_t n, const char *k)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i].name, k))
			return v[i].count;
	return 0;
}

static void test_stats(void **state)
{
	struct audit *db = mem_db();
	struct audit_action act = { .who = "carol" };
	struct audit_outbox_item it;
	struct audit_stats st;
	int64_t old, r1, r2, r3, r4, dup;

	/* before the window: counted nowhere but in pending */
	old = add(db, 1, T0 - 1000, "held", "ai", NULL, NULL);
	r1 = add(db, 2, T0, "held", "ai", "XFS FILESYSTEM", NULL);
	r2 = add(db, 3, T0 + 10, "held", "uncertain", NULL, NULL);
	r3 = add(db, 4, T0 + 20, "forwarded", "user", "XFS FILESYSTEM",
		 "dave@example.org");
	r4 = add(db, 5, T0 + 30, "forwarded", "user", "EXT4 FILE SYSTEM",
		 "ted@example.org");
	add(db, 6, T0 + 40, "forwarded", "user", "XFS FILESYSTEM",
	    "dave@example.org");
	dup = insert(db, 7, NULL, T0 + 50, "duplicate");
	assert_true(dup > 0);
	/* waits: r1 approved after 100 s, r2 rejected after 400 s (first
	 * resolving action counts), r3 rerouted after 60 s; the note and
	 * the reclassify of old do not resolve anything */
	act.action = "approve";
	act.report = r1;
	act.at = T0 + 100;
	assert_int_equal(audit_record_action(db, &act, NULL), 0);
	act.action = "reject";
	act.report = r2;
	act.at = T0 + 410;
	assert_int_equal(audit_record_action(db, &act, NULL), 0);
	act.action = "approve";
	act.at = T0 + 900;
	assert_int_equal(audit_record_action(db, &act, NULL), 0);
	act.action = "reroute";
	act.report = r3;
	act.argument = "EXT4 FILE SYSTEM";
	act.at = T0 + 80;
	assert_int_equal(audit_record_action(db, &act, NULL), 0);
	act.action = "note";
	act.report = old;
	act.at = T0 + 5;
	assert_int_equal(audit_record_action(db, &act, NULL), 0);
	/* deliveries: one failure then success */
	enqueue(db, r4, T0 + 30, 0);
	assert_int_equal(audit_outbox_claim_due(db, T0 + 31, 0, false, &it), 1);
	assert_int_equal(
		audit_outbox_retry(db, &it, T0 + 31, T0 + 91, 421, "busy"), 0);
	audit_outbox_item_release(&it);
	assert_int_equal(audit_outbox_claim_due(db, T0 + 100, 0, false, &it),
			 1);
	assert_int_equal(audit_outbox_done(db, &it, T0 + 100, 250, "ok"), 0);
	audit_outbox_item_release(&it);
	enqueue(db, 0, T0 + 200, 0);

	assert_int_equal(audit_stats(db, T0, &st), 0);
	assert_int_equal(st.reports, 6);
	assert_int_equal(st.pending, 1); /* old; r1, r2 resolved */
	assert_int_equal(find_count(st.by_state, st.nby_state, "forwarded"),
			 3); /* r3 (rerouted), r4, the sixth */
	assert_int_equal(find_count(st.by_state, st.nby_state, "approved"), 2);
	assert_int_equal(find_count(st.by_state, st.nby_state, "duplicate"), 1);
	assert_int_equal(find_count(st.by_class, st.nby_class, "user"), 3);
	assert_int_equal(find_count(st.by_class, st.nby_class, "ai"), 1);
	assert_int_equal(find_count(st.by_class, st.nby_class, "uncertain"), 1);
	assert_int_equal(find_count(st.by_class, st.nby_class, "unclassified"),
			 0); /* the duplicate is not counted */
	assert_string_equal(st.by_section[0].name, "XFS FILESYSTEM");
	assert_int_equal(st.by_section[0].count, 3);
	assert_int_equal(find_count(st.by_section, st.nby_section, "unmapped"),
			 1);
	assert_string_equal(st.by_recipient[0].name, "dave@example.org");
	assert_int_equal(st.by_recipient[0].count, 2);
	assert_int_equal(st.nby_recipient, 2);
	assert_int_equal(st.resolved, 3);
	assert_true(st.median_pending == 100.0); /* of 60, 100, 400 */
	assert_int_equal(st.delivery_attempts, 2);
	assert_int_equal(st.delivery_failures, 1);
	assert_int_equal(st.outbox_failed, 0);
	assert_int_equal(st.outbox_queued, 1);
	audit_stats_release(&st);

	/* an empty window */
	assert_int_equal(audit_stats(db, T0 + 100000, &st), 0);
	assert_int_equal(st.reports, 0);
	assert_int_equal(st.resolved, 0);
	assert_true(st.median_pending == -1);
	audit_stats_release(&st);

	/* load: forward decisions per recipient (any case) since a time */
	assert_int_equal(audit_load(db, "DAVE@example.org", T0), 2);
	assert_int_equal(audit_load(db, "dave@example.org", T0 + 21), 1);
	assert_int_equal(audit_load(db, "nobody@example.org", 0), 0);
	audit_close(db);
}

static int collect_correction(const struct audit_correction *c, void *arg)
{
	textbuf_add(arg, "%lld %s->%s %s %.*s|", (long long)c->report,
		    c->old_class, c->new_class, c->who, (int)c->body_len,
		    c->body);
	return 0;
}

static void test_corrections(void **state)
{
	struct audit *db = mem_db();
	struct audit_action act = { .who = "erin", .action = "reclassify" };
	struct textbuf out = { "" };
	int64_t a, b, c;
	char *expect;

	a = add(db, 1, T0, "held", "ai", NULL, NULL);
	b = add(db, 2, T0, "held", "uncertain", NULL, NULL);
	c = add(db, 3, T0, "held", "fuzzer", NULL, NULL);
	add(db, 4, T0, "held", "user", NULL, NULL);
	/* a: ai -> fuzzer -> user (the last word counts) */
	act.report = a;
	act.argument = "fuzzer";
	assert_int_equal(audit_record_action(db, &act, NULL), 0);
	act.argument = "user";
	assert_int_equal(audit_record_action(db, &act, NULL), 0);
	/* b: uncertain -> ai */
	act.report = b;
	act.argument = "ai";
	assert_int_equal(audit_record_action(db, &act, NULL), 0);
	/* c: fuzzer -> user -> fuzzer: not a correction */
	act.report = c;
	act.argument = "user";
	assert_int_equal(audit_record_action(db, &act, NULL), 0);
	act.argument = "fuzzer";
	assert_int_equal(audit_record_action(db, &act, NULL), 0);

	assert_int_equal(audit_corrections(db, collect_correction, &out), 0);
	expect = xasprintf("%lld ai->user erin report 1\n|"
			   "%lld uncertain->ai erin report 2\n|",
			   (long long)a, (long long)b);
	assert_string_equal(out.buf, expect);
	free(expect);
	audit_close(db);
}

/* ---- Bugzilla, digests ---------------------------------------------------- */

static void test_bugzilla_events_and_bugs(void **state)
{
	struct audit *db = mem_db();
	struct audit_event ev = {
		.received_at = T0,
		.webhook_id = 23,
		.bug_id = 1629704,
		.routing_key = "comment.create",
		.event_time = "2020-10-16T06:28:41",
		.comment_id = 14748073,
		.payload = "{\"bug\":{\"id\":1629704}}",
	};
	struct audit_event_item it, it2, none;
	struct audit_bug bug;
	int64_t id, id2, id3, rep;

	ev.payload_len = strlen(ev.payload);
	assert_int_equal(audit_event_store(db, &ev, &id), 1);
	/* BMO retries the same event: stored once */
	assert_int_equal(audit_event_store(db, &ev, &id2), 0);
	assert_true(id2 == id);
	/* no comment/attachment (0) and no event time ("") dedupe too:
	 * NULLs would not, since UNIQUE treats NULLs as distinct */
	ev.comment_id = 0;
	ev.routing_key = "bug.modify:status";
	ev.event_time = NULL;
	assert_int_equal(audit_event_store(db, &ev, &id2), 1);
	assert_int_equal(audit_event_store(db, &ev, &id3), 0);
	assert_true(id3 == id2);

	assert_int_equal(audit_event_claim(db, T0, 60, &it), 1);
	assert_true(it.id == id);
	assert_int_equal(it.webhook_id, 23);
	assert_int_equal(it.comment_id, 14748073);
	assert_string_equal(it.event_time, "2020-10-16T06:28:41");
	assert_int_equal(it.payload_len, ev.payload_len);
	assert_int_equal(audit_event_claim(db, T0, 60, &it2), 1);
	assert_true(it2.id == id2);
	assert_string_equal(it2.event_time, "");
	/* both leased: nothing more */
	assert_int_equal(audit_event_claim(db, T0 + 59, 60, &none), 0);

	rep = insert(db, 1, NULL, T0, "forwarded");
	assert_int_equal(audit_bug_seen(db, BZ, 1629704, &bug), 0);
	assert_int_equal(audit_begin(db), 0);
	assert_int_equal(audit_bug_record(db, BZ, 1629704, rep,
					  "2020-10-16T06:26:21", T0),
			 0);
	assert_int_equal(audit_event_done(db, it.id, rep, T0 + 1), 0);
	assert_int_equal(audit_commit(db), 0);
	assert_int_equal(audit_bug_seen(db, BZ, 1629704, &bug), 1);
	assert_true(bug.report == rep);
	assert_string_equal(bug.last_change_time, "2020-10-16T06:26:21");
	/* the same Bugzilla with a trailing '/': the same bug */
	assert_int_equal(audit_bug_seen(db, BZ "/", 1629704, &bug), 1);
	/* another Bugzilla's bug 1629704 is another bug */
	assert_int_equal(
		audit_bug_seen(db, "https://other.example.net", 1629704, &bug),
		0);
	/* a later change keeps the report that was forwarded */
	assert_int_equal(audit_bug_record(db, BZ, 1629704, 0,
					  "2020-10-17T00:00:00", T0 + 9),
			 0);
	assert_int_equal(audit_bug_seen(db, BZ, 1629704, &bug), 1);
	assert_true(bug.report == rep);
	assert_string_equal(bug.last_change_time, "2020-10-17T00:00:00");
	assert_true(bug.updated_at == T0 + 9);

	/* retry later, then give up */
	assert_int_equal(audit_event_retry(db, it2.id, T0 + 500, "REST 503"),
			 0);
	audit_event_item_release(&it2);
	assert_int_equal(audit_event_claim(db, T0 + 499, 60, &it2), 0);
	assert_int_equal(audit_event_claim(db, T0 + 500, 60, &it2), 1);
	assert_int_equal(it2.attempts, 2);
	assert_int_equal(audit_event_fail(db, it2.id, T0 + 501, "bug gone"), 0);
	audit_event_item_release(&it2);
	assert_int_equal(audit_event_claim(db, T0 + 10000, 60, &none), 0);
	audit_event_item_release(&it);
	audit_close(db);
}

static void test_digest_cursor(void **state)
{
	struct audit *db = mem_db();
	int64_t at = 1;

	assert_int_equal(audit_digest_cursor(db, "XFS FILESYSTEM", &at), 0);
	assert_true(at == 0);
	assert_int_equal(audit_digest_cursor_set(db, "XFS FILESYSTEM", T0), 0);
	assert_int_equal(
		audit_digest_cursor_set(db, "xfs filesystem", T0 + 86400), 0);
	assert_int_equal(audit_digest_cursor(db, "XFS FILESYSTEM", &at), 1);
	assert_true(at == T0 + 86400);
	audit_close(db);
}

static int collect_load(const char *recipient, long count, void *arg)
{
	textbuf_add(arg, "%s %ld|", recipient, count);
	return 0;
}

static void test_load(void **state)
{
	struct audit *db = mem_db();
	struct textbuf out = { "" };
	unsigned day, week;

	add(db, 1, T0, "forwarded", "user", "X", "dave@example.org");
	add(db, 2, T0 + 60, "forwarded", "user", "X", "Dave@Example.org");
	add(db, 3, T0 + 86400, "forwarded", "user", "X", "dave@example.org");
	add(db, 4, T0 + 86400, "forwarded", "user", "X", "ted@example.org");
	add(db, 5, T0 + 86400, "held", "ai", "X", NULL);
	/* the last day, the last week */
	assert_int_equal(audit_load(db, "dave@example.org", T0 + 86400), 1);
	assert_int_equal(audit_load(db, "dave@example.org", T0 - 6 * 86400), 3);
	/* both in one look, whatever the order of the two starts */
	assert_int_equal(audit_pick_load(db, "DAVE@example.org",
					 (time_t)(T0 + 86400),
					 (time_t)(T0 - 6 * 86400), &day, &week),
			 0);
	assert_int_equal(day, 1);
	assert_int_equal(week, 3);
	assert_int_equal(audit_pick_load(db, "dave@example.org",
					 (time_t)(T0 + 60), (time_t)T0, &day,
					 &week),
			 0);
	assert_int_equal(day, 2);
	assert_int_equal(week, 3);
	assert_int_equal(audit_pick_load(db, "ted@example.org",
					 (time_t)(T0 + 86401),
					 (time_t)(T0 + 86400), &day, &week),
			 0);
	assert_int_equal(day, 0);
	assert_int_equal(week, 1);
	assert_int_equal(
		audit_pick_load(db, "nobody@example.org", 0, 0, &day, &week),
		0);
	assert_int_equal(day, 0);
	assert_int_equal(week, 0);
	assert_int_equal(audit_load_all(db, T0, collect_load, &out), 0);
	assert_string_equal(out.buf, "dave@example.org 3|ted@example.org 1|");
	audit_close(db);
}

/*
 * The pick's load query failing (here: its table gone under the open
 * connection) is an error, never a load of zero: audit_pick_load()
 * returns -1 and a pick that reads loads with it fails, so that its
 * caller records nothing (the filter defers: t0610-dbfaults).
 */
/* xfs_map - one section: chandan its maintainer, linux-xfs its list */
static struct map *xfs_map(void)
{
	static const char text[] = "XFS FILESYSTEM\n"
				   "M:\tChandan Maint <chandan@example.org>\n"
				   "L:\tlinux-xfs@vger.kernel.org\n"
				   "F:\tfs/xfs/\n";
	struct maintainers m;
	struct map *map;

	maintainers_init(&m);
	maintainers_parse(&m, text, strlen(text), "MAINTAINERS");
	map = map_compile(&m, NULL);
	maintainers_release(&m);
	assert_non_null(map);
	return map;
}

/* xfs_request - a user report of XFS, loads read from db */
static void xfs_request(struct pick_request *rq, struct pick_section *ps,
			const struct map *map, struct audit *db)
{
	memset(rq, 0, sizeof(*rq));
	ps->section = (uint32_t)map_find_section(map, "XFS FILESYSTEM");
	ps->score = 1.0;
	rq->map = map;
	rq->sections = ps;
	rq->nsections = 1;
	rq->class = "user";
	rq->load = audit_pick_load;
	rq->load_ctx = db;
	rq->now = (time_t)T0 + 60;
}

static void test_pick_load_query_fails(void **state)
{
	char *path = scratch_path("load.db");
	struct audit *db = open_ok(path, AUDIT_CREATE);
	struct map *map = xfs_map();
	struct pick_section ps;
	struct pick_request rq;
	struct pick_result res;
	unsigned day = 7, week = 7;

	xfs_request(&rq, &ps, map, db);
	add(db, 1, T0, "forwarded", "user", "XFS FILESYSTEM",
	    "chandan@example.org");
	/* readable: chandan has one, and is picked (no cap) */
	assert_int_equal(pick_recipient(&rq, &res), 0);
	assert_int_equal(res.outcome, PICK_PERSON);
	assert_string_equal(res.addr, "chandan@example.org");
	assert_int_equal(res.cand[0].day, 1);
	pick_result_release(&res);

	/* the loads are read from forward_counts (schema 13) */
	exec_on(path,
		"ALTER TABLE forward_counts RENAME TO forward_counts_gone");
	assert_int_equal(
		audit_pick_load(db, "chandan@example.org", 0, 0, &day, &week),
		-1);
	assert_int_equal(day, 0);
	assert_int_equal(week, 0);
	assert_non_null(strstr(audit_errmsg(db), "forward_counts"));
	assert_int_equal(pick_recipient(&rq, &res), -1);
	assert_int_equal(res.outcome, PICK_NOBODY);
	assert_null(res.addr);
	pick_result_release(&res);
	map_free(map);
	audit_close(db);
	free(path);
}

/*
 * claim - one filter's transaction for report n: BEGIN IMMEDIATE, the
 * pick with its loads read inside it, the forward recorded, COMMIT.
 * The pick's address into to; -1 when the transaction cannot begin
 * (the filter defers) or the pick fails.
 */
static int claim(struct audit *db, struct pick_request *rq, int n, char *to,
		 size_t size)
{
	struct pick_result res;
	struct audit_decision d = { .at = T0 + n, .action = "forward" };
	int64_t id;

	if (audit_begin(db) < 0)
		return -1;
	rq->load_ctx = db;
	if (pick_recipient(rq, &res) < 0) {
		audit_rollback(db);
		return -1;
	}
	assert_non_null(res.addr);
	snprintf(to, size, "%s", res.addr);
	id = insert(db, n, NULL, T0 + n, "forwarded");
	d.recipient = res.addr;
	assert_int_equal(audit_insert_decision(db, id, &d, NULL), 0);
	pick_result_release(&res);
	return audit_commit(db);
}

/*
 * Two filters race for the last place under chandan's cap of one a
 * day.  Each reads the loads inside the BEGIN IMMEDIATE that records
 * its choice, so the second cannot read them until the first has
 * committed, and then sees the first's forward: chandan gets one
 * report, the list the other.  (Read outside, as pick once did, the
 * second's snapshot would still say 0 while the first is recording.)
 */
static void test_pick_race_for_the_last_place(void **state)
{
	char *path = scratch_path("race.db");
	struct audit *a = open_ok(path, AUDIT_CREATE), *b = NULL;
	struct config *cfg =
		config_parse("cap chandan@example.org day=1\n", "routes.conf");
	struct map *map = xfs_map();
	struct pick_config *pc = pick_config_load(cfg, map);
	struct pick_section ps;
	struct pick_request rq;
	struct pick_result res;
	char to_a[128], to_b[128];
	unsigned day = 7, week = 7;
	bool temp = true;

	(void)state;
	assert_non_null(cfg);
	assert_non_null(pc);
	xfs_request(&rq, &ps, map, a);
	rq.cfg = pc;
	assert_int_equal(audit_open(path, 0, 50, &b, &temp), 0);

	/* a holds the write lock, its pick made, its forward not yet in */
	assert_int_equal(audit_begin(a), 0);
	assert_int_equal(pick_recipient(&rq, &res), 0);
	assert_string_equal(res.addr, "chandan@example.org");
	pick_result_release(&res);
	/* b cannot begin: busy, a temporary error (the filter defers) */
	assert_int_equal(audit_begin(b), -1);
	assert_true(audit_temporary(b));
	/* what b would have read outside the lock: no load yet */
	assert_int_equal(audit_pick_load(b, "chandan@example.org", (time_t)T0,
					 (time_t)T0, &day, &week),
			 0);
	assert_int_equal(day, 0);
	audit_rollback(a);

	/* the race itself: a first, then b (after its deferral) */
	assert_int_equal(claim(a, &rq, 1, to_a, sizeof(to_a)), 0);
	assert_int_equal(claim(b, &rq, 2, to_b, sizeof(to_b)), 0);
	assert_string_equal(to_a, "chandan@example.org");
	assert_string_equal(to_b, "linux-xfs@vger.kernel.org");
	assert_int_equal(count_rows(path, "SELECT count(*) FROM decisions"
					  " WHERE recipient ="
					  " 'chandan@example.org'"),
			 1);

	pick_config_free(pc);
	config_free(cfg);
	map_free(map);
	audit_close(b);
	audit_close(a);
	free(path);
}

/* ---- the store's row reader (db.h) ---------------------------------------- */

struct some_row {
	int64_t i64;
	int i;
	unsigned u;
	long l;
	unsigned long ul;
	size_t z;
	bool b;
	double d;
	const char *text;
	char *dup;
	char chars[4];
};

static const struct db_col some_cols[] = {
	DB_COL(struct some_row, I64, i64),
	DB_COL(struct some_row, INT, i),
	DB_COL(struct some_row, UINT, u),
	DB_COL(struct some_row, LONG, l),
	DB_COL(struct some_row, ULONG, ul),
	DB_COL(struct some_row, SIZE, z),
	DB_COL(struct some_row, BOOL, b),
	DB_COL(struct some_row, REAL, d),
	DB_COL(struct some_row, TEXT, text),
	DB_COL(struct some_row, DUP, dup),
	DB_COL(struct some_row, CHARS, chars),
};
static const struct db_row some_row = DB_ROW(struct some_row, some_cols);

/* ten rows, n from ?1 on, each with a column of every type */
static const char sql_some[] =
	"WITH RECURSIVE k(n) AS (SELECT ?1 UNION ALL SELECT n + 1 FROM k"
	" WHERE n < ?1 + 9) SELECT -5000000000 * n, -n, n, -n, n, n, n % 2,"
	" n / 4.0, 'text ' || n, CASE WHEN n > 1 THEN 'dup' END, 'abcdef'"
	" FROM k";

static void test_rows_by_description(void **state)
{
	struct audit *db = mem_db();
	struct audit_owned o = { 0 };
	struct some_row one, *all;
	size_t n, k;

	memset(&one, 0, sizeof(one));
	/* the first row, copied: it outlives the statement's reset */
	assert_int_equal(
		db_get_id(db, sql_some, 2, "some", &some_row, &one, &o), 1);
	assert_true(one.i64 == -10000000000LL);
	assert_int_equal(one.i, -2);
	assert_int_equal(one.u, 2);
	assert_int_equal(one.l, -2);
	assert_int_equal(one.ul, 2);
	assert_int_equal(one.z, 2);
	assert_false(one.b);
	assert_true(one.d == 0.5);
	assert_string_equal(one.text, "text 2");
	assert_string_equal(one.dup, "dup");
	assert_string_equal(one.chars, "abc"); /* cut to fit */
	free(one.dup);
	/* every row, in an array grown past its first 8 */
	assert_int_equal(
		db_all_id(db, sql_some, 1, "some", &some_row, &o, &all, &n), 0);
	assert_int_equal(n, 10);
	for (k = 0; k < n; k++) {
		assert_int_equal(all[k].i, -(int)(k + 1));
		assert_int_equal(all[k].b, (k + 1) % 2);
		assert_string_equal(all[k].chars, "abc");
		if (k)
			assert_string_equal(all[k].dup, "dup");
		else
			assert_null(all[k].dup);
		free(all[k].dup);
	}
	assert_string_equal(all[9].text, "text 10");
	db_owned_release(&o);
	audit_close(db);
}

/* column_of - the text of SQL's one value for report id (free() it) */
static char *column_of(struct audit *db, const char *sql, int64_t id)
{
	sqlite3_stmt *st;
	char *s;

	assert_int_equal(sqlite3_prepare_v2(db->db, sql, -1, &st, NULL),
			 SQLITE_OK);
	sqlite3_bind_int64(st, 1, id);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	s = xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return s;
}

/*
 * stored_lists_are_jansson_s - the lists test_json_lists() stored are,
 * byte for byte, what jansson writes for the same arrays (JSON_COMPACT),
 * and the sections list stopped at the first item past 1 MiB
 */
static void stored_lists_are_jansson_s(struct audit *db, int64_t id,
				       size_t nsections)
{
	json_t *a = json_array(), *item;
	char *want, *got, *why;
	size_t len, n;

	json_array_append_new(a, json_pack("{s:s, s:f, s:s}", "name", "QUOTE",
					   "score", -1.25, "describe",
					   "says \"hi\" \\ back\tslash\n"));
	json_array_append_new(a,
			      json_pack("{s:s, s:f, s:s}", "name", "BAD_UTF8",
					"score", 1e-3, "describe", "caf? ?"));
	json_array_append_new(a,
			      json_pack("{s:s, s:f, s:n}", "name", "NULL_TEXT",
					"score", 0.0, "describe"));
	json_array_append_new(a, json_pack("{s:s, s:f, s:s}", "name", "REALS",
					   "score", 1e20, "describe",
					   "\x01\x1f\x7f\b\f\r"));
	json_array_append_new(a, json_pack("{s:s, s:f, s:s}", "name", "TINY",
					   "score", -1.5e-7, "describe",
					   "\xe2\x82\xac"));
	json_array_append_new(a, json_pack("{s:s, s:f, s:s}", "name", "THIRD",
					   "score", 1.0 / 3, "describe", ""));
	json_array_append_new(a, json_pack("{s:s, s:f, s:s}", "name", "WHOLE",
					   "score", 3.0, "describe", "/"));
	/* not finite: stored as 0 (JSON has no such number) */
	json_array_append_new(a,
			      json_pack("{s:s, s:f, s:s}", "name", "NOT_FINITE",
					"score", 0.0, "describe", "x"));
	want = json_dumps(a, JSON_COMPACT);
	got = column_of(db,
			"SELECT rule_hits FROM classification WHERE report = ?",
			id);
	assert_string_equal(got, want);
	free(got);
	free(want);
	json_decref(a);

	a = json_array();
	json_array_append_new(
		a, json_pack("{s:s, s:s, s:i, s:n, s:I, s:I, s:i, s:i, s:i}",
			     "function", "f\"x", "file", "a/\xe2\x82\xac.c",
			     "line", 7, "module", "offset", (json_int_t)0,
			     "size", (json_int_t)0, "inlined", 0, "unreliable",
			     0, "from_index", 0));
	json_array_append_new(
		a, json_pack("{s:n, s:n, s:i, s:s, s:I, s:I, s:i, s:i, s:i}",
			     "function", "file", "line", 0, "module", "m\x01",
			     "offset", (json_int_t)0, "size", (json_int_t)0,
			     "inlined", 0, "unreliable", 0, "from_index", 0));
	want = json_dumps(a, JSON_COMPACT);
	got = column_of(db, "SELECT frames FROM evidence WHERE report = ?", id);
	assert_string_equal(got, want);
	free(got);
	free(want);
	json_decref(a);

	/* the items that fit in 1 MiB, and not one more */
	got = column_of(db, "SELECT sections FROM reports WHERE id = ?", id);
	len = strlen(got);
	assert_true(len <= 1u << 20);
	why = xmalloc(2048 + 1);
	memset(why, 'x', 2048);
	why[2048] = '\0';
	item = json_pack("{s:s, s:f, s:s}", "name", "S", "score",
			 1.0 / (double)(nsections + 1), "why", why);
	n = json_dumpb(item, NULL, 0, JSON_COMPACT);
	assert_true(len + 1 + n > 1u << 20);
	/* and each item as jansson writes it */
	a = json_loads(got, 0, NULL);
	assert_non_null(a);
	assert_int_equal(json_array_size(a), nsections);
	want = json_dumps(a, JSON_COMPACT);
	assert_string_equal(got, want);
	free(want);
	json_decref(a);
	json_decref(item);
	free(why);
	free(got);
}

static void test_json_lists(void **state)
{
	static const struct audit_rule_hit hits[] = {
		{ "QUOTE", -1.25, "says \"hi\" \\ back\tslash\n" },
		{ "BAD_UTF8", 1e-3, "caf\xc3 \xff" },
		{ "NULL_TEXT", 0, NULL },
		/* reals as jansson writes them, and every control byte */
		{ "REALS", 1e20, "\x01\x1f\x7f\b\f\r" },
		{ "TINY", -1.5e-7, "\xe2\x82\xac" },
		{ "THIRD", 1.0 / 3, "" },
		{ "WHOLE", 3.0, "/" },
		{ "NOT_FINITE", 1.0 / 0.0, "x" },
	};
	struct audit *db = mem_db();
	struct audit_classification c = { .class = "ai",
					  .hits = hits,
					  .nhits = ARRAY_SIZE(hits) };
	struct audit_section secs[1000];
	struct evidence ev = { 0 };
	static char fn0[] = "f\"x", file0[] = "a/\xe2\x82\xac.c",
		    mod1[] = "m\x01";
	struct frame fr[2] = {
		{ .function = fn0, .file = file0, .line = 7 },
		{ .function = NULL, .module = mod1 },
	};
	char *big = xmalloc(JSON_BIG + 1);
	struct audit_record rec;
	int64_t id = insert(db, 1, NULL, T0, "held");
	size_t i;

	ev.frames = fr;
	ev.nframes = 2;
	memset(big, 'x', JSON_BIG);
	big[JSON_BIG] = '\0';
	for (i = 0; i < ARRAY_SIZE(secs); i++) {
		secs[i].name = i ? "S" : "FIRST \"ONE\"";
		secs[i].score = 1.0 / (double)(i + 1);
		secs[i].why = big;
	}
	assert_int_equal(audit_insert_evidence(db, id, &ev), 0);
	assert_int_equal(audit_insert_classification(db, id, &c), 0);
	assert_int_equal(audit_insert_sections(db, id, secs, ARRAY_SIZE(secs)),
			 0);
	assert_int_equal(audit_get_report(db, id, 0, &rec), 1);
	assert_int_equal(rec.evidence->nframes, 2);
	assert_string_equal(rec.evidence->frames[0].function, "f\"x");
	assert_string_equal(rec.evidence->frames[0].file, "a/\xe2\x82\xac.c");
	assert_int_equal(rec.evidence->frames[0].line, 7);
	assert_null(rec.evidence->frames[1].function);
	assert_string_equal(rec.evidence->frames[1].module, "m\x01");
	assert_int_equal(rec.evidence->nfiles, 0);
	assert_int_equal(rec.classification->nhits, 8);
	assert_true(rec.classification->hits[3].score == 1e20);
	assert_true(rec.classification->hits[4].score == -1.5e-7);
	assert_true(rec.classification->hits[5].score == 1.0 / 3);
	assert_string_equal(rec.classification->hits[3].describe,
			    "\x01\x1f\x7f\b\f\r");
	assert_string_equal(rec.classification->hits[0].describe,
			    "says \"hi\" \\ back\tslash\n");
	assert_true(rec.classification->hits[0].score == -1.25);
	assert_true(rec.classification->hits[1].score == 1e-3);
	/* invalid UTF-8 is not stored as such */
	assert_string_equal(rec.classification->hits[1].describe, "caf? ?");
	assert_null(rec.classification->hits[2].describe);
	/* strings are cut, lists keep the items that fit, and stay JSON */
	assert_string_equal(rec.sections[0].name, "FIRST \"ONE\"");
	assert_true(rec.nsections > 100 && rec.nsections < ARRAY_SIZE(secs));
	assert_true(strlen(rec.sections[0].why) < JSON_BIG);
	assert_string_equal(rec.sections[1].name, "S");
	stored_lists_are_jansson_s(db, id, rec.nsections);
	audit_record_release(&rec);
	free(big);
	audit_close(db);
}

/* ---- files, permissions, failures ------------------------------------------ */

static mode_t mode_of(const char *path)
{
	struct stat sb;

	assert_int_equal(stat(path, &sb), 0);
	return sb.st_mode & 07777;
}

static void test_permissions_under_umask_077(void **state)
{
	char *dir = scratch_path("state"), *path, *wal, *shm;
	struct audit *db;
	mode_t old = umask(077);

	path = xasprintf("%s/sub/triage.db", dir);
	wal = xasprintf("%s-wal", path);
	shm = xasprintf("%s-shm", path);
	db = open_ok(path, AUDIT_CREATE | AUDIT_FILTER);
	insert(db, 1, NULL, T0, "held");
	assert_int_equal(mode_of(dir), 02770);
	*strrchr(path, '/') = '\0';
	assert_int_equal(mode_of(path), 02770);
	path[strlen(path)] = '/';
	assert_int_equal(mode_of(path), 0660);
	assert_int_equal(mode_of(wal), 0660);
	assert_int_equal(mode_of(shm), 0660);
	audit_close(db);
	/* AUDIT_FILTER: no checkpoint on close, the WAL stays */
	assert_int_equal(access(wal, F_OK), 0);
	umask(old);
	free(dir);
	free(path);
	free(wal);
	free(shm);
}

/*
 * end_in_child - in a child process, as the one-shot filter: open path
 * (AUDIT_FILTER), record report n with a raw message of bytes random
 * bytes (0: a small one), audit_end() and _exit(); the child's status
 */
static int end_in_child(const char *path, int n, size_t bytes)
{
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		struct report *r = fake_report(n, NULL, "a subject");
		struct audit *db;
		int64_t id;
		bool temp;
		size_t i;

		if (bytes) {
			free(r->raw);
			r->raw = xmalloc(bytes + 1);
			srand(7);
			for (i = 0; i < bytes; i++)
				r->raw[i] = (char)(rand() & 0xff);
			r->raw[bytes] = '\0';
			r->raw_len = bytes;
		}
		if (audit_open(path, AUDIT_CREATE | AUDIT_FILTER, 0, &db,
			       &temp) < 0)
			_exit(2);
		if (audit_insert_report(db, r, T0, "held", 0, &id) < 0)
			_exit(3);
		audit_end(db);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 100;
}

/*
 * audit_end(): a filter's commit left in the WAL (no checkpoint due:
 * nothing for a close to write) survives the process's end; a commit
 * past AUDIT_FILTER_CKPT_FRAMES is checkpointed, as audit_close() does
 */
static void test_end_without_close(void **state)
{
	char *dir = scratch_path("end"), *path, *wal;
	struct stat sb;

	path = xasprintf("%s/triage.db", dir);
	wal = xasprintf("%s-wal", path);
	assert_int_equal(end_in_child(path, 1, 0), 0);
	assert_int_equal(stat(wal, &sb), 0);
	assert_true(sb.st_size > 0);
	assert_int_equal(end_in_child(path, 2, 0), 0);
	assert_int_equal(count_rows(path, "SELECT count(*) FROM reports"), 2);
	/* some 170 pages: the close checkpoints and removes the WAL */
	assert_int_equal(end_in_child(path, 3, 700000), 0);
	assert_int_not_equal(access(wal, F_OK), 0);
	assert_int_equal(count_rows(path, "SELECT count(*) FROM reports"), 3);
	assert_int_equal(count_rows(path, "SELECT length(raw) FROM messages"
					  " WHERE report = 3"),
			 700000);
	free(wal);
	free(path);
	free(dir);
}

/*
 * try_open_as_nobody - open in a child that cannot write the directory
 * (as root: switch to nobody; otherwise the directory is made 0555);
 * the child exits 10 + temporary on failure, 0 on success
 */
static int try_open_unwritable(const char *dir, const char *path,
			       unsigned flags)
{
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		struct audit *db;
		bool temp;

		if (geteuid() == 0) {
			if (setgid(65534) < 0 || setuid(65534) < 0)
				_exit(3);
		} else if (chmod(dir, 0555) < 0) {
			_exit(3);
		}
		if (audit_open(path, flags, 0, &db, &temp) < 0)
			_exit(10 + temp);
		audit_close(db);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (geteuid() != 0)
		chmod(dir, 0755);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static void test_unwritable_is_temporary(void **state)
{
	char *dir = scratch_path("ro"), *path, *file;
	struct audit *db = NULL;
	bool temp = false;
	int fd;

	assert_int_equal(mkdir(dir, 0755), 0);
	path = xasprintf("%s/triage.db", dir);
	/* cannot create the database: temporary (the MTA retries) */
	assert_int_equal(try_open_unwritable(dir, path, AUDIT_CREATE), 11);
	/* cannot create a directory inside it: temporary */
	free(path);
	path = xasprintf("%s/sub/triage.db", dir);
	assert_int_equal(try_open_unwritable(dir, path, AUDIT_CREATE), 11);

	/* no database and no AUDIT_CREATE: temporary (CANTOPEN) */
	free(path);
	path = xasprintf("%s/none.db", dir);
	assert_int_equal(audit_open(path, 0, 0, &db, &temp), -1);
	assert_null(db);
	assert_true(temp);

	/* a file where a directory should be: permanent */
	file = xasprintf("%s/file", dir);
	fd = open(file, O_WRONLY | O_CREAT, 0644);
	assert_true(fd >= 0);
	close(fd);
	free(path);
	path = xasprintf("%s/file/triage.db", dir);
	temp = true;
	assert_int_equal(audit_open(path, AUDIT_CREATE, 0, &db, &temp), -1);
	assert_false(temp);

	/* a read-only connection cannot write: temporary (READONLY) */
	free(path);
	path = xasprintf("%s/ok.db", dir);
	db = open_ok(path, AUDIT_CREATE);
	audit_close(db);
	db = open_ok(path, AUDIT_RDONLY);
	{
		struct report *r = fake_report(1, NULL, "x");
		int64_t id;

		assert_int_equal(audit_insert_report(db, r, T0, "held", 0, &id),
				 -1);
		assert_true(audit_temporary(db));
		report_free(r);
	}
	audit_close(db);
	free(path);
	free(file);
	free(dir);
}

/* writer - one short-lived writer: open, BEGIN IMMEDIATE, insert, commit */
static int writer(const char *path, int n)
{
	struct audit *db;
	struct report *r;
	int64_t id;
	bool temp;
	int rc = 1;

	if (audit_open(path, AUDIT_CREATE | AUDIT_FILTER, 0, &db, &temp) < 0)
		return 1;
	r = fake_report(n, NULL, "concurrent");
	if (audit_begin(db) == 0 &&
	    audit_insert_report(db, r, T0, "held", 0, &id) == 0 &&
	    audit_commit(db) == 0)
		rc = 0;
	else
		audit_rollback(db);
	report_free(r);
	audit_close(db);
	return rc;
}

static void test_concurrent_writers(void **state)
{
	const char *env = getenv("AUDIT_WRITERS");
	int n = env ? atoi(env) : 50, i, failures = 0, status, go[2];
	char *path = scratch_path("conc/triage.db"), *q;
	pid_t *pids;

	assert_true(n > 0 && n <= 5000);
	pids = xcalloc((size_t)n, sizeof(*pids));
	assert_int_equal(pipe(go), 0);
	/* The database does not exist yet: the writers also race to
	 * create the directory, the file and the schema. */
	for (i = 0; i < n; i++) {
		pids[i] = fork();
		assert_true(pids[i] >= 0);
		if (pids[i] == 0) {
			char c;

			close(go[1]);
			/* wait until every writer exists */
			if (read(go[0], &c, 1) != 0)
				_exit(2);
			_exit(writer(path, i + 1));
		}
	}
	close(go[0]);
	close(go[1]); /* go */
	for (i = 0; i < n; i++) {
		assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			failures++;
	}
	printf("# %d concurrent writers: %d failures\n", n, failures);
	assert_int_equal(failures, 0);
	q = xasprintf("SELECT count(*) FROM reports");
	assert_int_equal(count_rows(path, q), n);
	free(q);
	free(pids);
	free(path);
}

/* count - column 0 of sql's first row */
static int count(struct audit *db, const char *sql)
{
	sqlite3_stmt *st;
	int n = -1;

	assert_int_equal(sqlite3_prepare_v2(db->db, sql, -1, &st, NULL),
			 SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return n;
}

/*
 * a step undone alone (a reply command that failed for good): what the
 * transaction did before it stays, and so does the failure's message
 */
static void test_savepoint(void **state)
{
	struct audit *db = mem_db();
	struct audit_action act;

	(void)state;
	memset(&act, 0, sizeof(act));
	act.at = T0;
	act.who = "alice@example.org";
	act.action = "note";
	assert_int_equal(audit_savepoint(db), -1); /* no transaction */
	assert_int_equal(audit_begin(db), 0);
	act.detail = "kept";
	assert_int_equal(audit_record_action(db, &act, NULL), 0);
	assert_int_equal(audit_savepoint(db), 0);
	act.detail = "undone";
	assert_int_equal(audit_record_action(db, &act, NULL), 0);
	act.action = "explode";
	assert_int_equal(audit_record_action(db, &act, NULL), -1);
	assert_false(audit_temporary(db));
	assert_int_equal(audit_savepoint_end(db, false), 0);
	assert_string_equal(audit_errmsg(db), "invalid action 'explode'");
	assert_int_equal(audit_savepoint(db), 0);
	act.action = "note";
	act.detail = "also kept";
	assert_int_equal(audit_record_action(db, &act, NULL), 0);
	assert_int_equal(audit_savepoint_end(db, true), 0);
	assert_int_equal(audit_commit(db), 0);
	assert_int_equal(count(db, "SELECT count(*) FROM actions"), 2);
	assert_int_equal(
		count(db,
		      "SELECT count(*) FROM actions WHERE detail = 'undone'"),
		0);
	audit_close(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_schema_created),
		cmocka_unit_test(test_migration_from_version_1),
		cmocka_unit_test(test_migration_from_version_2),
		cmocka_unit_test(test_links),
		cmocka_unit_test(test_schema_refusals),
		cmocka_unit_test(test_duplicates),
		cmocka_unit_test(test_one_transaction),
		cmocka_unit_test(test_raw_bytes_and_compression),
		cmocka_unit_test(test_cache_no_spill),
		cmocka_unit_test(test_large_message_written_late),
		cmocka_unit_test(test_large_message_late_failure),
		cmocka_unit_test(test_outbox_lease_retry_done),
		cmocka_unit_test(test_outbox_mail_only),
		cmocka_unit_test(test_outbox_fail_and_requeue),
		cmocka_unit_test(test_concurrent_claims),
		cmocka_unit_test(test_actions_and_pending),
		cmocka_unit_test(test_log),
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_corrections),
		cmocka_unit_test(test_bugzilla_events_and_bugs),
		cmocka_unit_test(test_digest_cursor),
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_pick_load_query_fails),
		cmocka_unit_test(test_pick_race_for_the_last_place),
		cmocka_unit_test(test_rows_by_description),
		cmocka_unit_test(test_json_lists),
		cmocka_unit_test(test_permissions_under_umask_077),
		cmocka_unit_test(test_end_without_close),
		cmocka_unit_test(test_unwritable_is_temporary),
		cmocka_unit_test(test_concurrent_writers),
		cmocka_unit_test(test_savepoint),
	};
	int rc;

	/* the errors the tests provoke are expected: keep the log short */
	msg_setup("test_audit", 1, false);
	if (scratch_make("test_audit") < 0) {
		perror("mkdtemp");
		return 1;
	}
	/* nobody must reach the scratch area in the unwritable test */
	chmod(scratch, 0755);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	scratch_remove();
	return rc;
}
