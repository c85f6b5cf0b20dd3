// SPDX-License-Identifier: GPL-2.0-only
/*
 * schema - the database's tables, written once as SQL migrations, and
 * the migration of an older database (see audit.h, SCHEMA)
 *
 * triage(1), DATABASE, describes every table, column and value;
 * tests/cli/t0150-schema-doc.sh compares it with a fresh database.
 */
#include <stdio.h>
#include <stdlib.h>

#include "db.h"

/*
 * migrations[i] takes a database from user_version i to i + 1.  Never
 * edit one that has shipped: add the next.
 */
static const char *const migrations[] = {
	/* 0 -> 1: the mail pipeline and the triager's desk */
	"CREATE TABLE reports (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  sha256 TEXT NOT NULL UNIQUE,\n"
	"  message_id TEXT,\n"
	"  received_at INTEGER NOT NULL,\n"
	"  source TEXT NOT NULL CHECK (source IN ('mail', 'bugzilla', 'file')),\n"
	"  envelope_from TEXT,\n"
	"  envelope_to TEXT,\n"
	"  from_addr TEXT NOT NULL DEFAULT '',\n"
	"  from_display TEXT NOT NULL DEFAULT '',\n"
	"  subject TEXT NOT NULL DEFAULT '',\n"
	"  date_header TEXT,\n"
	"  bug_id INTEGER,\n"
	"  bug_url TEXT,\n"
	"  size INTEGER NOT NULL,\n"
	"  flags INTEGER NOT NULL DEFAULT 0,\n"
	"  class TEXT CHECK (class IN ('user', 'fuzzer', 'ai', 'uncertain')),\n"
	"  section TEXT COLLATE NOCASE,\n"
	"  sections TEXT,\n"
	"  state TEXT NOT NULL CHECK (state IN ('forwarded', 'held', 'digest',\n"
	"    'replied', 'duplicate', 'rejected', 'approved', 'failed')),\n"
	"  duplicate_of INTEGER REFERENCES reports(id),\n"
	"  deliveries INTEGER NOT NULL DEFAULT 1,\n"
	"  updated_at INTEGER NOT NULL\n"
	");\n"
	"CREATE INDEX reports_message_id ON reports(message_id)\n"
	"  WHERE message_id IS NOT NULL;\n"
	"CREATE INDEX reports_pending ON reports(received_at)\n"
	"  WHERE state IN ('held', 'failed');\n"
	"CREATE TABLE messages (\n"
	"  report INTEGER PRIMARY KEY REFERENCES reports(id) ON DELETE CASCADE,\n"
	"  encoding TEXT NOT NULL DEFAULT 'identity',\n"
	"  raw BLOB NOT NULL,\n"
	"  body TEXT\n"
	");\n"
	"CREATE TABLE evidence (\n"
	"  report INTEGER PRIMARY KEY REFERENCES reports(id) ON DELETE CASCADE,\n"
	"  title TEXT, crash_type TEXT, guilty_file TEXT,\n"
	"  kernel_version TEXT, tainted TEXT, hardware TEXT,\n"
	"  hw_virtual INTEGER NOT NULL DEFAULT 0,\n"
	"  distro_kernel TEXT,\n"
	"  dmesg_timestamps INTEGER NOT NULL DEFAULT 0,\n"
	"  reproducer INTEGER NOT NULL DEFAULT 0,\n"
	"  bisect_commit TEXT, subject_prefix TEXT,\n"
	"  syzbot INTEGER NOT NULL DEFAULT 0,\n"
	"  frames TEXT NOT NULL DEFAULT '[]',\n"
	"  files TEXT NOT NULL DEFAULT '[]',\n"
	"  functions TEXT NOT NULL DEFAULT '[]',\n"
	"  reported_by TEXT NOT NULL DEFAULT '[]',\n"
	"  tested_by TEXT NOT NULL DEFAULT '[]'\n"
	");\n"
	"CREATE TABLE classification (\n"
	"  report INTEGER PRIMARY KEY REFERENCES reports(id) ON DELETE CASCADE,\n"
	"  class TEXT NOT NULL,\n"
	"  score_user REAL NOT NULL DEFAULT 0,\n"
	"  score_fuzzer REAL NOT NULL DEFAULT 0,\n"
	"  score_ai REAL NOT NULL DEFAULT 0,\n"
	"  confidence REAL NOT NULL DEFAULT 0,\n"
	"  certain INTEGER NOT NULL DEFAULT 0,\n"
	"  model_version TEXT,\n"
	"  header TEXT,\n"
	"  classified_at INTEGER NOT NULL,\n"
	"  rule_hits TEXT NOT NULL DEFAULT '[]'\n"
	");\n"
	"CREATE TABLE decisions (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  report INTEGER NOT NULL REFERENCES reports(id) ON DELETE CASCADE,\n"
	"  at INTEGER NOT NULL,\n"
	"  action TEXT NOT NULL CHECK (action IN ('forward', 'hold', 'digest',\n"
	"    'reply', 'duplicate')),\n"
	"  recipient TEXT COLLATE NOCASE,\n"
	"  recipient_name TEXT,\n"
	"  reason TEXT NOT NULL DEFAULT '',\n"
	"  candidates TEXT NOT NULL DEFAULT ''\n"
	");\n"
	"CREATE INDEX decisions_report ON decisions(report);\n"
	"CREATE INDEX decisions_recipient ON decisions(recipient, at);\n"
	"CREATE TABLE outbox (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  report INTEGER REFERENCES reports(id) ON DELETE SET NULL,\n"
	"  kind TEXT NOT NULL\n"
	"    CHECK (kind IN ('forward', 'digest', 'reply', 'bugzilla')),\n"
	"  created_at INTEGER NOT NULL,\n"
	"  envelope_from TEXT NOT NULL DEFAULT '',\n"
	"  recipients TEXT NOT NULL,\n"
	"  message BLOB NOT NULL,\n"
	"  state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued',\n"
	"    'sending', 'sent', 'failed', 'cancelled')),\n"
	"  attempts INTEGER NOT NULL DEFAULT 0,\n"
	"  next_attempt_at INTEGER NOT NULL,\n"
	"  last_error TEXT,\n"
	"  sent_at INTEGER\n"
	");\n"
	"CREATE INDEX outbox_due ON outbox(next_attempt_at)\n"
	"  WHERE state IN ('queued', 'sending');\n"
	"CREATE INDEX outbox_report ON outbox(report);\n"
	"CREATE TABLE delivery_attempts (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  outbox INTEGER NOT NULL REFERENCES outbox(id) ON DELETE CASCADE,\n"
	"  at INTEGER NOT NULL,\n"
	"  ok INTEGER NOT NULL,\n"
	"  smtp_code INTEGER NOT NULL DEFAULT 0,\n"
	"  detail TEXT NOT NULL DEFAULT ''\n"
	");\n"
	"CREATE INDEX delivery_attempts_outbox ON delivery_attempts(outbox);\n"
	"CREATE TABLE actions (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  report INTEGER REFERENCES reports(id) ON DELETE CASCADE,\n"
	"  at INTEGER NOT NULL,\n"
	"  who TEXT NOT NULL,\n"
	"  action TEXT NOT NULL CHECK (action IN ('approve', 'reroute',\n"
	"    'reclassify', 'reject', 'note', 'digest')),\n"
	"  argument TEXT,\n"
	"  previous TEXT,\n"
	"  detail TEXT\n"
	");\n"
	"CREATE INDEX actions_report ON actions(report);\n",

	/* 1 -> 2: Bugzilla ingestion and digests */
	"CREATE TABLE bugzilla_events (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  received_at INTEGER NOT NULL,\n"
	"  webhook_id INTEGER NOT NULL DEFAULT 0,\n"
	"  bug_id INTEGER NOT NULL,\n"
	"  routing_key TEXT NOT NULL DEFAULT '',\n"
	"  event_time TEXT NOT NULL DEFAULT '',\n"
	"  comment_id INTEGER NOT NULL DEFAULT 0,\n"
	"  attachment_id INTEGER NOT NULL DEFAULT 0,\n"
	"  payload TEXT NOT NULL,\n"
	"  state TEXT NOT NULL DEFAULT 'received'\n"
	"    CHECK (state IN ('received', 'processed', 'failed')),\n"
	"  attempts INTEGER NOT NULL DEFAULT 0,\n"
	"  not_before INTEGER NOT NULL DEFAULT 0,\n"
	"  last_error TEXT,\n"
	"  processed_at INTEGER,\n"
	"  report INTEGER REFERENCES reports(id) ON DELETE SET NULL,\n"
	"  UNIQUE (webhook_id, bug_id, routing_key, event_time, comment_id,\n"
	"    attachment_id)\n"
	");\n"
	"CREATE INDEX bugzilla_events_due ON bugzilla_events(not_before, id)\n"
	"  WHERE state = 'received';\n"
	"CREATE TABLE bugs (\n"
	"  bug_id INTEGER PRIMARY KEY,\n"
	"  report INTEGER REFERENCES reports(id) ON DELETE SET NULL,\n"
	"  last_change_time TEXT NOT NULL DEFAULT '',\n"
	"  updated_at INTEGER NOT NULL\n"
	");\n"
	"CREATE TABLE digest_cursor (\n"
	"  section TEXT PRIMARY KEY COLLATE NOCASE,\n"
	"  last_sent_at INTEGER NOT NULL\n"
	") WITHOUT ROWID;\n",

	/*
	 * 2 -> 3: threads, same-crash groups and regressions.  decisions
	 * and actions are rebuilt for their wider CHECK lists (no table
	 * references them); reports only gains columns.
	 */
	"ALTER TABLE reports ADD COLUMN thread_root INTEGER\n"
	"  REFERENCES reports(id);\n"
	"ALTER TABLE reports ADD COLUMN same_crash_as INTEGER\n"
	"  REFERENCES reports(id);\n"
	"ALTER TABLE reports ADD COLUMN crash_signature TEXT;\n"
	"ALTER TABLE reports ADD COLUMN syzbot_id TEXT;\n"
	"ALTER TABLE reports ADD COLUMN regression INTEGER NOT NULL DEFAULT 0;\n"
	"CREATE INDEX reports_thread_root ON reports(thread_root)\n"
	"  WHERE thread_root IS NOT NULL;\n"
	"CREATE INDEX reports_same_crash ON reports(same_crash_as)\n"
	"  WHERE same_crash_as IS NOT NULL;\n"
	/* only the first report of a crash is looked up */
	"CREATE INDEX reports_crash_signature ON reports(crash_signature)\n"
	"  WHERE crash_signature IS NOT NULL AND same_crash_as IS NULL\n"
	"  AND thread_root IS NULL;\n"
	"CREATE INDEX reports_syzbot_id ON reports(syzbot_id)\n"
	"  WHERE syzbot_id IS NOT NULL AND same_crash_as IS NULL\n"
	"  AND thread_root IS NULL;\n"
	"ALTER TABLE evidence ADD COLUMN regression_good TEXT;\n"
	"ALTER TABLE evidence ADD COLUMN regression_bad TEXT;\n"
	"ALTER TABLE evidence ADD COLUMN regression_commit TEXT;\n"
	"CREATE TABLE decisions_v3 (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  report INTEGER NOT NULL REFERENCES reports(id) ON DELETE CASCADE,\n"
	"  at INTEGER NOT NULL,\n"
	"  action TEXT NOT NULL CHECK (action IN ('forward', 'hold', 'digest',\n"
	"    'reply', 'duplicate', 'follow-up', 'seen-again')),\n"
	"  recipient TEXT COLLATE NOCASE,\n"
	"  recipient_name TEXT,\n"
	"  reason TEXT NOT NULL DEFAULT '',\n"
	"  candidates TEXT NOT NULL DEFAULT ''\n"
	");\n"
	"INSERT INTO decisions_v3 SELECT id, report, at, action, recipient,\n"
	"  recipient_name, reason, candidates FROM decisions;\n"
	"DROP TABLE decisions;\n"
	"ALTER TABLE decisions_v3 RENAME TO decisions;\n"
	"CREATE INDEX decisions_report ON decisions(report);\n"
	"CREATE INDEX decisions_recipient ON decisions(recipient, at);\n"
	/* a candidate's load: counted in the index alone */
	"CREATE INDEX decisions_forwarded ON decisions(recipient, at)\n"
	"  WHERE action = 'forward';\n"
	"CREATE TABLE actions_v3 (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  report INTEGER REFERENCES reports(id) ON DELETE CASCADE,\n"
	"  at INTEGER NOT NULL,\n"
	"  who TEXT NOT NULL,\n"
	"  action TEXT NOT NULL CHECK (action IN ('approve', 'reroute',\n"
	"    'reclassify', 'reject', 'note', 'digest', 'dup', 'undup',\n"
	"    'release', 'thread')),\n"
	"  argument TEXT,\n"
	"  previous TEXT,\n"
	"  detail TEXT\n"
	");\n"
	"INSERT INTO actions_v3 SELECT id, report, at, who, action, argument,\n"
	"  previous, detail FROM actions;\n"
	"DROP TABLE actions;\n"
	"ALTER TABLE actions_v3 RENAME TO actions;\n"
	"CREATE INDEX actions_report ON actions(report);\n",
	/*
	 * 3 -> 4: a candidate's load counted in decisions_forwarded alone.
	 * Without action in the index, SQLite read every counted row of
	 * the table too, a cost that grew with the recipient's forwards.
	 */
	"DROP INDEX decisions_forwarded;\n"
	"CREATE INDEX decisions_forwarded ON decisions(recipient, at, action)\n"
	"  WHERE action = 'forward';\n",
	/*
	 * 4 -> 5: a forward stores its bytes once.  Its outbox row keeps
	 * only the head it adds (resent block, triage headers, a tagged
	 * Subject line) in message; raw_report names the messages row
	 * whose bytes from raw_offset on end it.  Rows with raw_report
	 * NULL (every older row, digests, replies) hold the whole message.
	 * Nothing deletes a messages row; no foreign key or trigger guards
	 * it: each filter process parses the schema and compiles its
	 * statements, and each one more would add to that on every
	 * message.
	 */
	("ALTER TABLE outbox ADD COLUMN raw_report INTEGER;\n"
	 "ALTER TABLE outbox ADD COLUMN raw_offset INTEGER NOT NULL DEFAULT 0;\n"),
	/*
	 * 5 -> 6: decisions_recipient goes.  No statement uses it since
	 * schema 3 (decisions_forwarded serves the loads and the per
	 * recipient counts, decisions_report the rest; EXPLAIN QUERY PLAN
	 * of every statement is the same without it), and every decision
	 * wrote one more page of it to the WAL: about 1 of 22 pages per
	 * filtered report.
	 */
	"DROP INDEX IF EXISTS decisions_recipient;\n",
	/*
	 * 6 -> 7: what a message is (kind.h).  Every message is a row of
	 * reports with its kind; one that is no report is "recorded" (or
	 * held), never classified.  The new state widens reports' CHECK
	 * list, which SQLite cannot ALTER: rebuilding reports would
	 * cascade into every table that references it, so the CHECK text
	 * is widened in place (migrate_widen_state(), before this runs).
	 * decisions and actions, which no table references, are rebuilt
	 * for their wider lists.  fixes: the fixes proposed for a report
	 * (a patch that names it), and later the commits that fixed it.
	 */
	"ALTER TABLE reports ADD COLUMN kind TEXT NOT NULL DEFAULT 'report'\n"
	"  CHECK (kind IN ('report', 'follow-up', 'patch', 'cover-letter',\n"
	"    'review', 'pull-request', 'stable', 'bot', 'bz-update',\n"
	"    'discussion', 'spam'));\n"
	"CREATE TABLE decisions_v7 (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  report INTEGER NOT NULL REFERENCES reports(id) ON DELETE CASCADE,\n"
	"  at INTEGER NOT NULL,\n"
	"  action TEXT NOT NULL CHECK (action IN ('forward', 'hold', 'digest',\n"
	"    'reply', 'duplicate', 'follow-up', 'seen-again', 'record')),\n"
	"  recipient TEXT COLLATE NOCASE,\n"
	"  recipient_name TEXT,\n"
	"  reason TEXT NOT NULL DEFAULT '',\n"
	"  candidates TEXT NOT NULL DEFAULT ''\n"
	");\n"
	"INSERT INTO decisions_v7 SELECT id, report, at, action, recipient,\n"
	"  recipient_name, reason, candidates FROM decisions;\n"
	"DROP TABLE decisions;\n"
	"ALTER TABLE decisions_v7 RENAME TO decisions;\n"
	"CREATE INDEX decisions_report ON decisions(report);\n"
	"CREATE INDEX decisions_forwarded ON decisions(recipient, at, action)\n"
	"  WHERE action = 'forward';\n"
	"CREATE TABLE actions_v7 (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  report INTEGER REFERENCES reports(id) ON DELETE CASCADE,\n"
	"  at INTEGER NOT NULL,\n"
	"  who TEXT NOT NULL,\n"
	"  action TEXT NOT NULL CHECK (action IN ('approve', 'reroute',\n"
	"    'reclassify', 'reject', 'note', 'digest', 'dup', 'undup',\n"
	"    'release', 'thread', 'fix-proposed', 'fixed')),\n"
	"  argument TEXT,\n"
	"  previous TEXT,\n"
	"  detail TEXT\n"
	");\n"
	"INSERT INTO actions_v7 SELECT id, report, at, who, action, argument,\n"
	"  previous, detail FROM actions;\n"
	"DROP TABLE actions;\n"
	"ALTER TABLE actions_v7 RENAME TO actions;\n"
	"CREATE INDEX actions_report ON actions(report);\n"
	"CREATE TABLE fixes (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  report INTEGER NOT NULL REFERENCES reports(id) ON DELETE CASCADE,\n"
	"  at INTEGER NOT NULL,\n"
	"  state TEXT NOT NULL CHECK (state IN ('proposed', 'fixed')),\n"
	"  source_report INTEGER REFERENCES reports(id) ON DELETE SET NULL,\n"
	"  message_id TEXT,\n"
	"  subject TEXT,\n"
	"  commit_sha TEXT,\n"
	"  tree TEXT,\n"
	"  how TEXT\n"
	");\n"
	"CREATE INDEX fixes_report ON fixes(report);\n",

	/*
	 * 7 -> 8: what one sender had forwarded today (sender_cap); a bug
	 * is (Bugzilla, bug id): two Bugzillas' bug 5000 are two bugs.  A
	 * bug recorded before takes its Bugzilla from its report's link,
	 * else '' (the one Bugzilla of the time: adopted by the first
	 * lookup that names one)
	 */
	"CREATE INDEX reports_from ON reports(from_addr COLLATE NOCASE,\n"
	"  received_at);\n"
	"CREATE TABLE bugs_v8 (\n"
	"  bugzilla_url TEXT NOT NULL DEFAULT '',\n"
	"  bug_id INTEGER NOT NULL,\n"
	"  report INTEGER REFERENCES reports(id) ON DELETE SET NULL,\n"
	"  last_change_time TEXT NOT NULL DEFAULT '',\n"
	"  updated_at INTEGER NOT NULL,\n"
	"  PRIMARY KEY (bugzilla_url, bug_id)\n"
	");\n"
	"INSERT INTO bugs_v8 SELECT coalesce((SELECT substr(r.bug_url, 1,\n"
	"  length(r.bug_url) - length('/show_bug.cgi?id=' || b.bug_id))\n"
	"  FROM reports r WHERE r.id = b.report AND r.bug_url =\n"
	"  substr(r.bug_url, 1, length(r.bug_url) - length('/show_bug.cgi?id='\n"
	"  || b.bug_id)) || '/show_bug.cgi?id=' || b.bug_id), ''),\n"
	"  b.bug_id, b.report, b.last_change_time, b.updated_at FROM bugs b;\n"
	"DROP TABLE bugs;\n"
	"ALTER TABLE bugs_v8 RENAME TO bugs;\n"
	"CREATE INDEX bugs_bug_id ON bugs(bug_id);\n",

	/*
	 * 8 -> 9: reply commands (issue 23; triage-mail(7)).  actions is
	 * rebuilt for its wider CHECK list (no table references it).
	 * declined: who said "#triage notme" for a report, never picked
	 * for it again.  people: what a person declared by mail ("away",
	 * "cap"), beside routes.conf's roster values, which pick honours
	 * alike.
	 */
	"CREATE TABLE actions_v9 (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  report INTEGER REFERENCES reports(id) ON DELETE CASCADE,\n"
	"  at INTEGER NOT NULL,\n"
	"  who TEXT NOT NULL,\n"
	"  action TEXT NOT NULL CHECK (action IN ('approve', 'reroute',\n"
	"    'reclassify', 'reject', 'note', 'digest', 'dup', 'undup',\n"
	"    'release', 'thread', 'fix-proposed', 'fixed', 'notme',\n"
	"    'needinfo', 'away', 'cap', 'commands')),\n"
	"  argument TEXT,\n"
	"  previous TEXT,\n"
	"  detail TEXT\n"
	");\n"
	"INSERT INTO actions_v9 SELECT id, report, at, who, action, argument,\n"
	"  previous, detail FROM actions;\n"
	"DROP TABLE actions;\n"
	"ALTER TABLE actions_v9 RENAME TO actions;\n"
	"CREATE INDEX actions_report ON actions(report);\n"
	"CREATE TABLE declined (\n"
	"  report INTEGER NOT NULL REFERENCES reports(id) ON DELETE CASCADE,\n"
	"  addr TEXT NOT NULL COLLATE NOCASE,\n"
	"  at INTEGER NOT NULL,\n"
	"  PRIMARY KEY (report, addr)\n"
	") WITHOUT ROWID;\n"
	"CREATE TABLE people (\n"
	"  addr TEXT PRIMARY KEY COLLATE NOCASE,\n"
	"  away_until INTEGER NOT NULL DEFAULT 0,\n"
	"  cap_day INTEGER NOT NULL DEFAULT -1,\n"
	"  updated_at INTEGER NOT NULL\n"
	") WITHOUT ROWID;\n",

	/*
	 * 9 -> 10: fixes from git ('triage fixes import'): a report's
	 * state may be 'fixed' (widened in place, migrate_widen_state());
	 * one commit fixes a report once, whatever the imports; and the
	 * reminders sent (at most one a week to a person: 'triage remind')
	 */
	"CREATE UNIQUE INDEX fixes_commit ON fixes(report, commit_sha)\n"
	"  WHERE state = 'fixed';\n"
	"CREATE TABLE reminders (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  recipient TEXT NOT NULL COLLATE NOCASE,\n"
	"  at INTEGER NOT NULL,\n"
	"  outbox INTEGER REFERENCES outbox(id) ON DELETE SET NULL,\n"
	"  reports TEXT NOT NULL DEFAULT '[]'\n"
	");\n"
	"CREATE INDEX reminders_recipient ON reminders(recipient, at);\n",

	/*
	 * 10 -> 11: one sender counted by every identity the MTA vouches
	 * for (sender_cap, client_cap): its envelope sender beside its From,
	 * and the network of the client that connected (CLIENT_ADDRESS).
	 * messages.sendable: the copy of a message that cannot go out as it
	 * came (NUL bytes, lines over 998 bytes) with its offending parts
	 * re-encoded, which a forward of it sends.  The envelope index is
	 * whole (not WHERE envelope_from <> ''): SQLite searches an OR of
	 * the From and envelope terms by both indexes only then, and scans
	 * every decision otherwise (EXPLAIN QUERY PLAN).
	 */
	"ALTER TABLE reports ADD COLUMN client_net TEXT;\n"
	"ALTER TABLE messages ADD COLUMN sendable BLOB;\n"
	"CREATE INDEX reports_envelope_from ON reports(envelope_from\n"
	"  COLLATE NOCASE, received_at);\n"
	"CREATE INDEX reports_client_net ON reports(client_net, received_at)\n"
	"  WHERE client_net IS NOT NULL;\n",

	/*
	 * 11 -> 12: whether the filter found a report security-sensitive,
	 * as data (decisions.security: NULL, it did not; else why, "KASAN
	 * memory-safety crash"), which approve and reroute read from the
	 * report's first decision, never from a reason's words a sender
	 * can write (issue 21).  Older rows stay NULL.
	 */
	"ALTER TABLE decisions ADD COLUMN security TEXT;\n",

	/*
	 * 12 -> 13: a recipient's forwards counted per quarter hour (slot:
	 * the UTC time divided by 900, rounded down), so that the pick's
	 * loads (audit_pick_load) sum at most a week's slots instead of
	 * reading every forward of the week from decisions_forwarded.
	 * Every local midnight of every time zone starts a slot.  Kept by
	 * triggers, whatever writes decisions: a program of an older
	 * schema still running, or a person's SQL that moves a decision
	 * in time.  They cost each filter process their parse with the
	 * schema (about 0.15M instructions for the three), against the
	 * 1M and more that counting a busy recipient's week in
	 * decisions_forwarded did.  Recipients compare in any case, as
	 * in decisions.
	 */
	"CREATE TABLE forward_counts (\n"
	"  recipient TEXT NOT NULL COLLATE NOCASE,\n"
	"  slot INTEGER NOT NULL,\n"
	"  n INTEGER NOT NULL,\n"
	"  PRIMARY KEY (recipient, slot)\n"
	") WITHOUT ROWID;\n"
	"INSERT INTO forward_counts SELECT recipient,\n"
	"  (at - ((at % 900) + 900) % 900) / 900 AS s, count(*)\n"
	"  FROM decisions WHERE action = 'forward' AND recipient IS NOT NULL\n"
	"  GROUP BY recipient, s;\n"
	"CREATE TRIGGER forward_counted AFTER INSERT ON decisions\n"
	"  WHEN NEW.action = 'forward' AND NEW.recipient IS NOT NULL BEGIN\n"
	"  INSERT INTO forward_counts VALUES (NEW.recipient,\n"
	"    (NEW.at - ((NEW.at % 900) + 900) % 900) / 900, 1)\n"
	"    ON CONFLICT DO UPDATE SET n = n + 1;\n"
	"END;\n"
	"CREATE TRIGGER forward_uncounted AFTER DELETE ON decisions\n"
	"  WHEN OLD.action = 'forward' AND OLD.recipient IS NOT NULL BEGIN\n"
	"  UPDATE forward_counts SET n = n - 1 WHERE recipient = OLD.recipient\n"
	"    AND slot = (OLD.at - ((OLD.at % 900) + 900) % 900) / 900;\n"
	"END;\n"
	"CREATE TRIGGER forward_recounted AFTER UPDATE OF at, action,\n"
	"  recipient ON decisions BEGIN\n"
	"  UPDATE forward_counts SET n = n - 1 WHERE OLD.action = 'forward'\n"
	"    AND recipient = OLD.recipient\n"
	"    AND slot = (OLD.at - ((OLD.at % 900) + 900) % 900) / 900;\n"
	"  INSERT INTO forward_counts SELECT NEW.recipient,\n"
	"    (NEW.at - ((NEW.at % 900) + 900) % 900) / 900, 1\n"
	"    WHERE NEW.action = 'forward' AND NEW.recipient IS NOT NULL\n"
	"    ON CONFLICT DO UPDATE SET n = n + 1;\n"
	"END;\n",
};

_Static_assert(ARRAY_SIZE(migrations) == AUDIT_SCHEMA_VERSION,
	       "one migration per schema version");
static const char sql_user_version[] = "PRAGMA user_version";

/* audit_user_version - the schema version of the open database, or -1 */
int audit_user_version(struct audit *db)
{
	sqlite3_stmt *st = db_prep(db, sql_user_version);
	int64_t v;

	if (!st || db_get_i64(db, st, "read user_version", &v) != 1)
		return -1;
	return (int)v;
}

/*
 * read_schema - user_version and whether a version-0 database already
 * has tables (someone else's), read in one statement so that both come
 * from the same snapshot while another process may be migrating
 */
static int read_schema(struct audit *db, int *version, bool *foreign)
{
	sqlite3_stmt *st;
	int rc;

	rc = sqlite3_prepare_v2(
		db->db,
		"SELECT user_version, (SELECT count(*) FROM"
		" sqlite_schema WHERE name NOT LIKE 'sqlite\\_%'"
		" ESCAPE '\\') FROM pragma_user_version",
		-1, &st, NULL);
	if (rc != SQLITE_OK)
		return db_fail(db, rc, "read schema");
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		db_fail(db, rc, "read schema");
		sqlite3_finalize(st);
		return -1;
	}
	*version = sqlite3_column_int(st, 0);
	*foreign = *version == 0 && sqlite3_column_int(st, 1) > 0;
	sqlite3_finalize(st);
	return 0;
}

/*
 * migrate_widen_state - reports.state's CHECK list gains a value (schema
 * 7: 'recorded', schema 10: 'fixed'), written into the table's
 * definition in place, SQLite's documented way to relax a CHECK
 * constraint (lang_altertable.html, "Making Other Kinds Of Table Schema
 * Changes"): no row is touched, so nothing cascades.  Inside the
 * migration's transaction.  from and to are the list's end before and
 * after, as SQL string literals.
 */
static int migrate_widen_state(struct audit *db, const char *from,
			       const char *to)
{
	static const char sql_text[] =
		"UPDATE sqlite_master SET sql = replace(sql, ?1, ?2)"
		" WHERE type = 'table' AND name = 'reports'"
		" AND instr(sql, ?1) > 0";
	sqlite3_stmt *st;
	int64_t version;
	char pragma[64];
	int rc, changed = 0;

	rc = sqlite3_prepare_v2(db->db, "PRAGMA schema_version", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return db_fail(db, rc, "read schema_version");
	rc = sqlite3_step(st);
	version = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return db_fail(db, rc, "read schema_version");
	rc = sqlite3_exec(db->db, "PRAGMA writable_schema = ON", NULL, NULL,
			  NULL);
	if (rc != SQLITE_OK)
		return db_fail(db, rc, "writable schema");
	rc = sqlite3_prepare_v2(db->db, sql_text, -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(st, 1, from, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, to, -1, SQLITE_STATIC);
		rc = sqlite3_step(st);
		rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
		changed = sqlite3_changes(db->db);
		sqlite3_finalize(st);
	}
	snprintf(pragma, sizeof(pragma), "PRAGMA schema_version = %lld",
		 (long long)version + 1);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db->db, pragma, NULL, NULL, NULL);
	sqlite3_exec(db->db, "PRAGMA writable_schema = OFF", NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		return db_fail(db, rc, "widen reports.state");
	if (changed != 1)
		return db_bad(db, "reports.state: its CHECK list is not the "
				  "one expected; not migrated");
	return 0;
}

/*
 * migrate_locked - inside the migration's transaction: the schema read
 * again (another process may have migrated meanwhile) and brought from
 * its version up to target; 1 when there was nothing to do
 */
static int migrate_locked(struct audit *db, int target)
{
	bool foreign;
	char *pragma;
	int v, rc;

	if (read_schema(db, &v, &foreign) < 0)
		return -1;
	if (foreign)
		return db_bad(db, "not a triage database (tables without a "
				  "schema version)");
	if (v > AUDIT_SCHEMA_VERSION)
		return db_bad(db,
			      "schema version %d is newer than this program's "
			      "(%d)",
			      v, AUDIT_SCHEMA_VERSION);
	if (v >= target)
		return 1;
	for (; v < target; v++) {
		if (v == 6 && migrate_widen_state(db, "'approved', 'failed'))",
						  "'approved', 'failed', "
						  "'recorded'))") < 0)
			return -1;
		if (v == 9 && migrate_widen_state(db, "'failed', 'recorded'))",
						  "'failed', 'recorded', "
						  "'fixed'))") < 0)
			return -1;
		rc = sqlite3_exec(db->db, migrations[v], NULL, NULL, NULL);
		if (rc != SQLITE_OK)
			return db_fail(db, rc, "migrate schema");
	}
	pragma = xasprintf("PRAGMA user_version = %d", target);
	rc = sqlite3_exec(db->db, pragma, NULL, NULL, NULL);
	free(pragma);
	return rc == SQLITE_OK ? 0 : db_fail(db, rc, "set user_version");
}

/*
 * audit_migrate - bring the schema up to target in one transaction; two
 * processes may race here on a new database: the loser finds the work
 * done once it gets the write lock
 */
int audit_migrate(struct audit *db, int target)
{
	bool foreign;
	int v, rc;

	if (target < 1 || target > AUDIT_SCHEMA_VERSION)
		return db_bad(db, "no schema version %d", target);
	if (db->flags & AUDIT_RDONLY)
		return db_bad(db, "read-only: cannot migrate the schema");
	/* Leave someone else's database alone, even its journal mode. */
	if (read_schema(db, &v, &foreign) < 0)
		return -1;
	if (foreign)
		return db_bad(db, "not a triage database (tables without a "
				  "schema version)");
	/* WAL cannot be switched on inside a transaction. */
	if (db_set_wal(db) < 0 || audit_begin(db) < 0)
		return -1;
	rc = migrate_locked(db, target);
	if (rc < 0) {
		audit_rollback(db);
		return -1;
	}
	if (rc == 1) {
		audit_rollback(db);
		return 0;
	}
	return audit_commit(db);
}
