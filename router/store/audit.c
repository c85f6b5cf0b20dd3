// SPDX-License-Identifier: GPL-2.0-only
/*
 * audit - the SQLite database every program shares (see audit.h)
 *
 * Statements are prepared on first use and kept for the life of the
 * connection (the filter prepares only the few it runs).  Every value
 * reaches SQLite through sqlite3_bind_*(); the only SQL text assembled
 * at run time is "PRAGMA user_version = N" from the migration number.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "audit.h"
#include "evidence.h"
#include "report.h"
#include "strbuf.h"
#include "util.h"

#define DIR_MODE  02770
#define FILE_MODE 0660

/* Bounds on the JSON lists stored per report (untrusted text) */
#define JSON_MAX     (1u << 20) /* bytes of one list; later items dropped */
#define JSON_STR_MAX 2048	/* bytes of one string; the rest cut */

/* ---- schema ----------------------------------------------------------- */

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
};

_Static_assert(ARRAY_SIZE(migrations) == AUDIT_SCHEMA_VERSION,
	       "one migration per schema version");

/* ---- statements ---------------------------------------------------------- */

enum sid {
	S_BEGIN,
	S_COMMIT,
	S_ROLLBACK,
	S_USER_VERSION,
	S_INS_FIX,
	S_FIND_DUP,
	S_FIND_DUP_FROM,
	S_REPLIES_TO,
	S_REDELIVERY,
	S_INS_REPORT,
	S_INS_REPORT_ROW,
	S_INS_MESSAGE,
	S_SET_STATE,
	S_INS_EVIDENCE,
	S_INS_CLASS,
	S_SET_CLASS,
	S_SET_SECTIONS,
	S_INS_DECISION,
	S_INS_OUTBOX,
	S_INS_OUTBOX_REF,
	S_OUTBOX_RAW,
	S_OUTBOX_DUE,
	S_OUTBOX_TAKE,
	S_OUTBOX_SENT,
	S_OUTBOX_RETRY,
	S_OUTBOX_FAIL,
	S_OUTBOX_FAIL_REPORT,
	S_INS_ATTEMPT,
	S_OUTBOX_REQUEUE,
	S_OUTBOX_REQUEUE_REPORT,
	S_OUTBOX_CANCEL,
	S_OUTBOX_CANCEL_REPORT,
	S_REPORT_STATE_CLASS,
	S_LAST_RECIPIENT,
	S_INS_ACTION,
	S_LOAD,
	S_LOAD_ALL,
	S_BUG_GET,
	S_BUG_PUT,
	S_EVENT_INS,
	S_EVENT_FIND,
	S_EVENT_DUE,
	S_EVENT_TAKE,
	S_EVENT_DONE,
	S_EVENT_RETRY,
	S_EVENT_FAIL,
	S_DIGEST_GET,
	S_DIGEST_PUT,
	S_PENDING,
	S_DIGEST_LIST,
	S_GET_REPORT,
	S_GET_EVIDENCE,
	S_GET_FRAMES,
	S_GET_LIST,
	S_GET_CLASS,
	S_GET_HITS,
	S_GET_SECTIONS,
	S_GET_DECISIONS,
	S_GET_OUTBOX,
	S_GET_ATTEMPTS,
	S_GET_ACTIONS,
	S_LOG,
	S_ST_REPORTS,
	S_ST_STATE,
	S_ST_CLASS,
	S_ST_KIND,
	S_ST_SECTION,
	S_ST_RECIPIENT,
	S_ST_PENDING,
	S_ST_WAIT,
	S_ST_DELIVERY,
	S_ST_OUTBOX,
	S_CORRECTIONS,
	S_COMPRESS_LIST,
	S_COMPRESS_GET,
	S_COMPRESS_PUT,
	S_SET_LINKS,
	S_SET_REGRESSION,
	S_THREAD_BY_MSGID,
	S_THREAD_BY_ID,
	S_THREAD_BY_BUG,
	S_ROOT_GET,
	S_SAME_CRASH,
	S_MERGE_EVIDENCE,
	S_GET_LINKS,
	S_RELATED,
	S_SET_SAME_CRASH,
	S_REGROUP,
	S_LAST_DECISION_ACTION,
	S_MARK_REGRESSION,
	S_COUNT
};

static const char *const sql[S_COUNT] = {
	[S_BEGIN] = "BEGIN IMMEDIATE",
	[S_COMMIT] = "COMMIT",
	[S_ROLLBACK] = "ROLLBACK",
	[S_USER_VERSION] = "PRAGMA user_version",
	[S_INS_FIX] = "INSERT INTO fixes (report, at, state, source_report,"
		      " message_id, subject, commit_sha, tree, how)"
		      " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
	[S_FIND_DUP] = "SELECT id, 1 FROM reports WHERE sha256 = ?1 UNION ALL"
		       " SELECT * FROM (SELECT id, 2 FROM reports"
		       " WHERE message_id = ?2 AND duplicate_of IS NULL"
		       " ORDER BY id LIMIT 1) LIMIT 1",
	[S_FIND_DUP_FROM] =
		"SELECT id, 1 FROM reports WHERE sha256 = ?1 UNION ALL"
		" SELECT * FROM (SELECT id, 2 FROM reports"
		" WHERE message_id = ?2 AND duplicate_of IS NULL"
		" AND source = ?3 AND (from_addr = ?4 COLLATE NOCASE"
		" OR envelope_from = ?5) ORDER BY id LIMIT 1) LIMIT 1",
	[S_REPLIES_TO] = "SELECT count(*) FROM outbox WHERE kind = 'reply'"
			 " AND recipients = ?1 COLLATE NOCASE"
			 " AND created_at >= ?2",
	[S_REDELIVERY] = "UPDATE reports SET deliveries = deliveries + 1,"
			 " updated_at = ?2 WHERE id = ?1",
	[S_INS_REPORT] =
		"INSERT INTO reports (sha256, message_id, received_at, source,"
		" envelope_from, envelope_to, from_addr, from_display, subject,"
		" date_header, bug_id, bug_url, size, flags, state,"
		" duplicate_of, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7,"
		" ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?3)",
	[S_INS_REPORT_ROW] =
		"INSERT INTO reports (sha256, message_id, received_at, source,"
		" envelope_from, envelope_to, from_addr, from_display, subject,"
		" date_header, bug_id, bug_url, size, flags, state,"
		" duplicate_of, updated_at, thread_root, same_crash_as,"
		" crash_signature, syzbot_id, regression, class, section,"
		" sections, kind) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9,"
		" ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?3, ?17, ?18, ?19, ?20,"
		" ?21, ?22, ?23, ?24, ?25)",
	[S_INS_MESSAGE] = "INSERT INTO messages (report, encoding, raw, body)"
			  " VALUES (?1, 'identity', ?2, ?3)",
	[S_SET_STATE] = "UPDATE reports SET state = ?2, updated_at = ?3"
			" WHERE id = ?1",
	[S_INS_EVIDENCE] =
		"INSERT INTO evidence (report, title, crash_type, guilty_file,"
		" kernel_version, tainted, hardware, hw_virtual, distro_kernel,"
		" dmesg_timestamps, reproducer, bisect_commit, subject_prefix,"
		" syzbot, frames, files, functions, reported_by, tested_by)"
		" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13,"
		" ?14, ?15, ?16, ?17, ?18, ?19)",
	[S_INS_CLASS] =
		"INSERT INTO classification (report, class, score_user,"
		" score_fuzzer, score_ai, confidence, certain, model_version,"
		" header, classified_at, rule_hits) VALUES (?1, ?2, ?3, ?4, ?5,"
		" ?6, ?7, ?8, ?9, ?10, ?11)",
	[S_SET_CLASS] = "UPDATE reports SET class = ?2, updated_at = ?3"
			" WHERE id = ?1",
	[S_SET_SECTIONS] = "UPDATE reports SET section = ?2, sections = ?3"
			   " WHERE id = ?1",
	[S_INS_DECISION] =
		"INSERT INTO decisions (report, at, action, recipient,"
		" recipient_name, reason, candidates) VALUES (?1, ?2, ?3, ?4,"
		" ?5, coalesce(?6, ''), coalesce(?7, ''))",
	[S_INS_OUTBOX] =
		"INSERT INTO outbox (report, kind, created_at, envelope_from,"
		" recipients, message, next_attempt_at) VALUES (?1, ?2, ?3,"
		" coalesce(?4, ''), ?5, ?6, ?7)",
	/* the tail must be report ?8's stored bytes: same length */
	[S_INS_OUTBOX_REF] =
		"INSERT INTO outbox (report, kind, created_at, envelope_from,"
		" recipients, message, next_attempt_at, raw_report, raw_offset)"
		" SELECT ?1, ?2, ?3, coalesce(?4, ''), ?5, ?6, ?7, ?8, ?9"
		" FROM reports WHERE id = ?8 AND size = ?10",
	[S_OUTBOX_RAW] = "SELECT m.encoding, m.raw, r.size FROM messages m"
			 " JOIN reports r ON r.id = m.report"
			 " WHERE m.report = ?1",
	[S_OUTBOX_DUE] = "SELECT id FROM outbox WHERE state IN ('queued',"
			 " 'sending') AND next_attempt_at <= ?1"
			 " AND (?2 = 0 OR kind != 'bugzilla')"
			 " ORDER BY next_attempt_at, id LIMIT 1",
	[S_OUTBOX_TAKE] =
		"UPDATE outbox SET state = 'sending', attempts = attempts + 1,"
		" next_attempt_at = ?2 WHERE id = ?1 RETURNING report, kind,"
		" created_at, envelope_from, recipients, message, attempts,"
		" raw_report, raw_offset",
	[S_OUTBOX_SENT] = "UPDATE outbox SET state = 'sent', sent_at = ?3,"
			  " last_error = NULL WHERE id = ?1"
			  " AND state = 'sending' AND attempts = ?2",
	[S_OUTBOX_RETRY] = "UPDATE outbox SET state = 'queued',"
			   " next_attempt_at = ?3, last_error = ?4"
			   " WHERE id = ?1 AND state = 'sending'"
			   " AND attempts = ?2",
	[S_OUTBOX_FAIL] = "UPDATE outbox SET state = 'failed', last_error = ?3"
			  " WHERE id = ?1 AND state = 'sending'"
			  " AND attempts = ?2",
	[S_OUTBOX_FAIL_REPORT] =
		"UPDATE reports SET state = 'failed', updated_at = ?2"
		" WHERE id IN (SELECT report FROM outbox WHERE id = ?1"
		" AND kind IN ('forward', 'reply'))"
		" AND state NOT IN ('rejected', 'duplicate')",
	[S_INS_ATTEMPT] = "INSERT INTO delivery_attempts (outbox, at, ok,"
			  " smtp_code, detail) VALUES (?1, ?2, ?3, ?4,"
			  " coalesce(?5, ''))",
	[S_OUTBOX_REQUEUE] = "UPDATE outbox SET state = 'queued',"
			     " next_attempt_at = ?2 WHERE id = ?1"
			     " AND state = 'failed'",
	[S_OUTBOX_REQUEUE_REPORT] =
		"UPDATE reports SET state = 'forwarded', updated_at = ?2"
		" WHERE id IN (SELECT report FROM outbox WHERE id = ?1)"
		" AND state = 'failed'",
	[S_OUTBOX_CANCEL] = "UPDATE outbox SET state = 'cancelled'"
			    " WHERE id = ?1 AND state IN ('queued', 'failed')",
	[S_OUTBOX_CANCEL_REPORT] =
		"UPDATE outbox SET state = 'cancelled' WHERE report = ?1"
		" AND state IN ('queued', 'failed')",
	[S_REPORT_STATE_CLASS] =
		"SELECT state, class FROM reports WHERE id = ?1",
	[S_LAST_RECIPIENT] = "SELECT recipient FROM decisions WHERE report = ?1"
			     " ORDER BY at DESC, id DESC LIMIT 1",
	[S_INS_ACTION] = "INSERT INTO actions (report, at, who, action,"
			 " argument, previous, detail) VALUES (?1, ?2, ?3, ?4,"
			 " ?5, ?6, ?7)",
	/*
	 * One range of decisions_forwarded for both counts: the pick asks
	 * for every candidate, and a busy recipient has hundreds a week.
	 */
	[S_LOAD] = "SELECT count(*) FILTER (WHERE at >= ?2), count(*)"
		   " FROM decisions WHERE recipient = ?1"
		   " AND at >= min(?2, ?3) AND action = 'forward'",
	[S_LOAD_ALL] = "SELECT recipient, count(*) FROM decisions"
		       " WHERE at >= ?1 AND action = 'forward'"
		       " AND recipient IS NOT NULL GROUP BY recipient"
		       " ORDER BY 2 DESC, 1",
	[S_BUG_GET] = "SELECT report, last_change_time, updated_at FROM bugs"
		      " WHERE bug_id = ?1",
	[S_BUG_PUT] = "INSERT INTO bugs (bug_id, report, last_change_time,"
		      " updated_at) VALUES (?1, ?2, coalesce(?3, ''), ?4)"
		      " ON CONFLICT (bug_id) DO UPDATE SET"
		      " report = coalesce(excluded.report, report),"
		      " last_change_time = excluded.last_change_time,"
		      " updated_at = excluded.updated_at",
	[S_EVENT_INS] = "INSERT INTO bugzilla_events (received_at, webhook_id,"
			" bug_id, routing_key, event_time, comment_id,"
			" attachment_id, payload) VALUES (?1, ?2, ?3, ?4, ?5,"
			" ?6, ?7, ?8) ON CONFLICT DO NOTHING",
	[S_EVENT_FIND] = "SELECT id FROM bugzilla_events WHERE webhook_id = ?1"
			 " AND bug_id = ?2 AND routing_key = ?3"
			 " AND event_time = ?4 AND comment_id = ?5"
			 " AND attachment_id = ?6",
	[S_EVENT_DUE] =
		"SELECT id FROM bugzilla_events WHERE state = 'received'"
		" AND not_before <= ?1 ORDER BY not_before, id LIMIT 1",
	[S_EVENT_TAKE] =
		"UPDATE bugzilla_events SET attempts = attempts + 1,"
		" not_before = ?2 WHERE id = ?1 RETURNING received_at,"
		" webhook_id, bug_id, routing_key, event_time, comment_id,"
		" attachment_id, payload, attempts",
	[S_EVENT_DONE] = "UPDATE bugzilla_events SET state = 'processed',"
			 " report = ?2, processed_at = ?3, last_error = NULL"
			 " WHERE id = ?1",
	[S_EVENT_RETRY] = "UPDATE bugzilla_events SET state = 'received',"
			  " not_before = ?2, last_error = ?3 WHERE id = ?1",
	[S_EVENT_FAIL] = "UPDATE bugzilla_events SET state = 'failed',"
			 " processed_at = ?2, last_error = ?3 WHERE id = ?1",
	[S_DIGEST_GET] = "SELECT last_sent_at FROM digest_cursor"
			 " WHERE section = ?1",
	[S_DIGEST_PUT] = "INSERT INTO digest_cursor (section, last_sent_at)"
			 " VALUES (?1, ?2) ON CONFLICT (section) DO UPDATE"
			 " SET last_sent_at = excluded.last_sent_at",
	[S_PENDING] =
		"SELECT r.id, (SELECT id FROM outbox o WHERE o.report = r.id"
		"   AND o.state = 'failed' ORDER BY o.id DESC LIMIT 1),"
		" r.received_at, r.state, coalesce(r.class, ''),"
		" r.section,"
		" r.subject, r.from_display,"
		" (SELECT reason FROM decisions d WHERE d.report = r.id"
		"   ORDER BY d.at DESC, d.id DESC LIMIT 1),"
		" (SELECT last_error FROM outbox o WHERE o.report = r.id"
		"   AND o.state = 'failed' ORDER BY o.id DESC LIMIT 1),"
		" r.regression,"
		" (SELECT count(*) FROM reports t WHERE t.thread_root = r.id),"
		" (SELECT count(*) FROM reports t WHERE t.same_crash_as = r.id)"
		" FROM reports r WHERE r.state IN ('held', 'failed')"
		" AND r.thread_root IS NULL"
		" AND (?1 IS NULL OR r.class = ?1)"
		" AND (?2 IS NULL OR r.section = ?2)"
		" AND (?3 = 0 OR r.section IS NULL)"
		" UNION ALL"
		" SELECT 0, o.id, o.created_at, 'failed', '', NULL,"
		" o.kind || ' to ' || replace(o.recipients, char(10), ', '),"
		" '', '', o.last_error, 0, 0, 0 FROM outbox o"
		" WHERE o.state = 'failed'"
		" AND o.report IS NULL AND ?1 IS NULL AND ?2 IS NULL AND ?3 = 0"
		" ORDER BY 11 DESC, 3, 1, 2",
	[S_DIGEST_LIST] =
		"SELECT r.id, 0, r.received_at, r.state, coalesce(r.class, ''),"
		" r.section,"
		" r.subject, r.from_display,"
		" (SELECT reason FROM decisions d WHERE d.report = r.id"
		"   ORDER BY d.at DESC, d.id DESC LIMIT 1), NULL, r.regression,"
		" (SELECT count(*) FROM reports t WHERE t.thread_root = r.id),"
		" (SELECT count(*) FROM reports t WHERE t.same_crash_as = r.id)"
		" FROM reports r WHERE r.received_at >= ?2"
		" AND r.state = 'digest'"
		" AND (?1 IS NULL OR r.section = ?1)"
		" ORDER BY r.received_at, r.id",
	[S_GET_REPORT] =
		"SELECT r.sha256, r.message_id, r.received_at, r.updated_at,"
		" r.source, r.envelope_from, r.envelope_to, r.from_addr,"
		" r.from_display, r.subject, r.date_header,"
		" coalesce(r.bug_id, 0), r.bug_url, r.size, r.flags, r.state,"
		" r.class, coalesce(r.duplicate_of, 0), r.deliveries,"
		" m.encoding, m.body, CASE WHEN ?2 THEN m.raw END, r.kind"
		" FROM reports r LEFT JOIN messages m ON m.report = r.id"
		" WHERE r.id = ?1",
	[S_GET_EVIDENCE] =
		"SELECT title, crash_type, guilty_file, kernel_version, tainted,"
		" hardware, hw_virtual, distro_kernel, dmesg_timestamps,"
		" reproducer, bisect_commit, subject_prefix, syzbot"
		" FROM evidence WHERE report = ?1",
	[S_GET_FRAMES] =
		"SELECT j.value ->> 'function', j.value ->> 'file',"
		" j.value ->> 'line', j.value ->> 'module',"
		" j.value ->> 'offset', j.value ->> 'size',"
		" j.value ->> 'inlined', j.value ->> 'unreliable',"
		" j.value ->> 'from_index'"
		" FROM evidence e, json_each(e.frames) j WHERE e.report = ?1"
		" ORDER BY j.key",
	[S_GET_LIST] = "SELECT j.value FROM evidence e, json_each(CASE ?2"
		       " WHEN 'file' THEN e.files WHEN 'function' THEN"
		       " e.functions WHEN 'reported_by' THEN e.reported_by"
		       " ELSE e.tested_by END) j WHERE e.report = ?1"
		       " ORDER BY j.key",
	[S_GET_CLASS] = "SELECT class, score_user, score_fuzzer, score_ai,"
			" confidence, certain, model_version, header,"
			" classified_at FROM classification WHERE report = ?1",
	[S_GET_HITS] = "SELECT j.value ->> 'name', j.value ->> 'score',"
		       " j.value ->> 'describe' FROM classification c,"
		       " json_each(c.rule_hits) j WHERE c.report = ?1"
		       " ORDER BY j.key",
	[S_GET_SECTIONS] = "SELECT j.value ->> 'name', j.value ->> 'score',"
			   " j.value ->> 'why' FROM reports r,"
			   " json_each(r.sections) j WHERE r.id = ?1"
			   " ORDER BY j.key",
	[S_GET_DECISIONS] = "SELECT id, at, action, recipient, recipient_name,"
			    " reason, candidates FROM decisions"
			    " WHERE report = ?1 ORDER BY at, id",
	[S_GET_OUTBOX] =
		"SELECT id, created_at, next_attempt_at,"
		" coalesce(sent_at, 0), kind, state, envelope_from,"
		" recipients, last_error, attempts, length(message)"
		" + coalesce((SELECT r.size - o.raw_offset FROM reports r"
		" WHERE r.id = o.raw_report), 0)"
		" FROM outbox o WHERE report = ?1 ORDER BY id",
	[S_GET_ATTEMPTS] = "SELECT at, ok, smtp_code, detail"
			   " FROM delivery_attempts WHERE outbox = ?1"
			   " ORDER BY at, id",
	[S_GET_ACTIONS] = "SELECT id, at, who, action, argument, previous,"
			  " detail FROM actions WHERE report = ?1"
			  " ORDER BY at, id",
	[S_LOG] =
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
		"  CASE WHEN a.smtp_code THEN a.smtp_code || ' ' || a.detail"
		"  ELSE a.detail END"
		"  FROM delivery_attempts a JOIN outbox o ON o.id = a.outbox"
		"  WHERE a.at >= ?1"
		" UNION ALL"
		" SELECT at, 3, id, coalesce(report, 0), 'action', who, action,"
		"  argument, detail FROM actions WHERE at >= ?1"
		") ORDER BY at, k, seq",
	[S_ST_REPORTS] = "SELECT count(*) FROM reports WHERE received_at >= ?1",
	[S_ST_STATE] = "SELECT state, count(*) FROM reports"
		       " WHERE received_at >= ?1 GROUP BY state"
		       " ORDER BY 2 DESC, 1",
	[S_ST_CLASS] = "SELECT coalesce(class, 'unclassified'), count(*)"
		       " FROM reports WHERE received_at >= ?1"
		       " AND state != 'duplicate' AND thread_root IS NULL"
		       " AND kind = 'report' GROUP BY 1 ORDER BY 2 DESC, 1",
	[S_ST_KIND] = "SELECT kind, count(*) FROM reports"
		      " WHERE received_at >= ?1 AND state != 'duplicate'"
		      " GROUP BY 1 ORDER BY 2 DESC, 1",
	[S_ST_SECTION] = "SELECT coalesce(section, 'unmapped'), count(*)"
			 " FROM reports WHERE received_at >= ?1"
			 " AND state != 'duplicate' AND thread_root IS NULL"
			 " AND kind = 'report' GROUP BY 1 ORDER BY 2 DESC, 1",
	[S_ST_RECIPIENT] = "SELECT recipient, count(*) FROM decisions"
			   " WHERE at >= ?1 AND action = 'forward'"
			   " AND recipient IS NOT NULL GROUP BY recipient"
			   " ORDER BY 2 DESC, 1",
	[S_ST_PENDING] = "SELECT (SELECT count(*) FROM reports"
			 " WHERE state IN ('held', 'failed')) +"
			 " (SELECT count(*) FROM outbox WHERE state = 'failed'"
			 " AND report IS NULL)",
	[S_ST_WAIT] = "SELECT min(a.at) - r.received_at FROM reports r"
		      " JOIN actions a ON a.report = r.id"
		      " WHERE r.received_at >= ?1"
		      " AND a.action IN ('approve', 'reject', 'reroute')"
		      " GROUP BY r.id ORDER BY 1",
	[S_ST_DELIVERY] = "SELECT count(*), coalesce(sum(ok = 0), 0)"
			  " FROM delivery_attempts WHERE at >= ?1",
	[S_ST_OUTBOX] = "SELECT coalesce(sum(state = 'failed'), 0),"
			" coalesce(sum(state IN ('queued', 'sending')), 0)"
			" FROM outbox",
	[S_CORRECTIONS] =
		"SELECT r.id, c.class, r.class, a.who, a.at, r.subject, m.body"
		" FROM reports r JOIN classification c ON c.report = r.id"
		" JOIN actions a ON a.id = (SELECT max(id) FROM actions"
		"   WHERE report = r.id AND action = 'reclassify')"
		" LEFT JOIN messages m ON m.report = r.id"
		" WHERE r.class IS NOT c.class ORDER BY r.id",
	[S_COMPRESS_LIST] = "SELECT m.report FROM messages m JOIN reports r"
			    " ON r.id = m.report WHERE m.encoding = 'identity'"
			    " AND r.received_at < ?1 AND length(m.raw) >= ?2"
			    " ORDER BY m.report",
	[S_COMPRESS_GET] = "SELECT raw FROM messages WHERE report = ?1"
			   " AND encoding = 'identity'",
	[S_COMPRESS_PUT] = "UPDATE messages SET encoding = 'zlib', raw = ?2"
			   " WHERE report = ?1 AND encoding = 'identity'",
	[S_SET_LINKS] = "UPDATE reports SET thread_root = ?2,"
			" same_crash_as = ?3, crash_signature = ?4,"
			" syzbot_id = ?5, regression = ?6 WHERE id = ?1",
	[S_SET_REGRESSION] = "UPDATE evidence SET regression_good = ?2,"
			     " regression_bad = ?3, regression_commit = ?4"
			     " WHERE report = ?1",
	[S_THREAD_BY_MSGID] = "SELECT coalesce(thread_root, id) FROM reports"
			      " WHERE message_id = ?1 ORDER BY id LIMIT 1",
	[S_THREAD_BY_ID] = "SELECT coalesce(thread_root, id) FROM reports"
			   " WHERE id = ?1",
	[S_THREAD_BY_BUG] = "SELECT coalesce(r.thread_root, r.id) FROM bugs b"
			    " JOIN reports r ON r.id = b.report"
			    " WHERE b.bug_id = ?1",
	[S_ROOT_GET] =
		"SELECT r.state, coalesce(r.class, ''), r.from_addr,"
		" coalesce(r.section, ''), CASE WHEN c.class IS r.class"
		" THEN coalesce(c.header, '') ELSE coalesce(r.class, '') END,"
		" d.recipient, d.recipient_name, r.received_at, r.kind"
		" FROM reports r LEFT JOIN classification c ON c.report = r.id"
		" LEFT JOIN decisions d ON d.id = (SELECT id FROM decisions"
		"   WHERE report = r.id AND action = 'forward'"
		"   AND recipient IS NOT NULL ORDER BY at DESC, id DESC LIMIT 1)"
		" WHERE r.id = ?1",
	/* two index searches (an OR would scan reports in id order) */
	[S_SAME_CRASH] =
		"SELECT min(id) FROM (SELECT id FROM reports"
		" WHERE crash_signature = ?1"
		" AND same_crash_as IS NULL AND thread_root IS NULL"
		" AND id != ?3 AND state NOT IN ('duplicate', 'rejected')"
		" UNION ALL SELECT id FROM reports WHERE syzbot_id = ?2"
		" AND same_crash_as IS NULL AND thread_root IS NULL"
		" AND id != ?3 AND state NOT IN ('duplicate', 'rejected'))",
	[S_MERGE_EVIDENCE] =
		"UPDATE evidence SET (title, crash_type, guilty_file,"
		" kernel_version, tainted, hardware, distro_kernel,"
		" bisect_commit, regression_good, regression_bad,"
		" regression_commit, dmesg_timestamps, reproducer) = (SELECT"
		" coalesce(e.title, f.title), coalesce(e.crash_type,"
		" f.crash_type), coalesce(e.guilty_file, f.guilty_file),"
		" coalesce(e.kernel_version, f.kernel_version),"
		" coalesce(e.tainted, f.tainted), coalesce(e.hardware,"
		" f.hardware), coalesce(e.distro_kernel, f.distro_kernel),"
		" coalesce(e.bisect_commit, f.bisect_commit),"
		" coalesce(e.regression_good, f.regression_good),"
		" coalesce(e.regression_bad, f.regression_bad),"
		" coalesce(e.regression_commit, f.regression_commit),"
		" e.dmesg_timestamps OR f.dmesg_timestamps,"
		" e.reproducer | f.reproducer"
		" FROM evidence e, evidence f WHERE e.report = ?1"
		" AND f.report = ?2) WHERE report = ?1"
		" AND EXISTS (SELECT 1 FROM evidence WHERE report = ?2)",
	[S_GET_LINKS] =
		"SELECT coalesce(r.thread_root, 0), coalesce(r.same_crash_as, 0),"
		" r.crash_signature, r.syzbot_id, r.regression,"
		" e.regression_good, e.regression_bad, e.regression_commit"
		" FROM reports r LEFT JOIN evidence e ON e.report = r.id"
		" WHERE r.id = ?1",
	[S_RELATED] =
		"SELECT id, CASE WHEN thread_root IS NOT NULL THEN"
		" CASE kind WHEN 'patch' THEN 'fix proposed'"
		" WHEN 'follow-up' THEN 'follow-up' ELSE kind END"
		" WHEN same_crash_as IS NOT NULL THEN 'same crash'"
		" ELSE 'first' END, received_at, from_display, state, subject"
		" FROM reports WHERE id != ?1 AND (thread_root = ?1"
		" OR (?2 != 0 AND (id = ?2 OR same_crash_as = ?2)))"
		" ORDER BY id",
	[S_SET_SAME_CRASH] = "UPDATE reports SET same_crash_as = ?2,"
			     " updated_at = ?3 WHERE id = ?1",
	[S_REGROUP] = "UPDATE reports SET same_crash_as = ?2, updated_at = ?3"
		      " WHERE same_crash_as = ?1",
	[S_LAST_DECISION_ACTION] = "SELECT action FROM decisions"
				   " WHERE report = ?1"
				   " ORDER BY at DESC, id DESC LIMIT 1",
	[S_MARK_REGRESSION] = "UPDATE reports SET regression = 1,"
			      " updated_at = ?2 WHERE id = ?1",
};

struct audit {
	sqlite3 *db;
	char *path;
	unsigned flags;
	int busy_timeout_ms;
	int wal_frames;	 /* frames in the WAL after our last commit */
	int ckpt_frames; /* ... when we last checkpointed: see wal_hook() */
	bool temporary;
	char errmsg[512];
	sqlite3_stmt *st[S_COUNT];
};

/* ---- errors ------------------------------------------------------------ */

static bool rc_temporary(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
	case SQLITE_IOERR:
	case SQLITE_FULL:
	case SQLITE_CANTOPEN:
	case SQLITE_READONLY:
	case SQLITE_NOMEM:
	case SQLITE_PROTOCOL:
	case SQLITE_INTERRUPT:
		return true;
	}
	return false;
}

static bool errno_temporary(int e)
{
	switch (e) {
	case EACCES:
	case EPERM:
	case EROFS:
	case ENOSPC:
	case EDQUOT:
	case EIO:
	case EMFILE:
	case ENFILE:
	case ENOMEM:
	case EINTR:
	case EAGAIN:
		return true;
	}
	return false;
}

/* db_fail - record and print a SQLite failure; returns -1 */
static int db_fail(struct audit *db, int rc, const char *what)
{
	db->temporary = rc_temporary(rc);
	snprintf(db->errmsg, sizeof(db->errmsg), "%s: %s", what,
		 sqlite3_errmsg(db->db));
	return error("database %s: %s", db->path, db->errmsg);
}

/* bad - a permanent failure of our own (bad argument, missing row) */
static int bad(struct audit *db, const char *fmt, ...) PRINTF_LIKE(2, 3);
static int bad(struct audit *db, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(db->errmsg, sizeof(db->errmsg), fmt, ap);
	va_end(ap);
	db->temporary = false;
	return error("database %s: %s", db->path, db->errmsg);
}

/* audit_temporary - whether the last failure may pass by itself */
bool audit_temporary(const struct audit *db)
{
	return db->temporary;
}

/* audit_errmsg - the last failure, without the database path */
const char *audit_errmsg(const struct audit *db)
{
	return db->errmsg;
}

/* ---- statements and binding -------------------------------------------- */

static sqlite3_stmt *prep(struct audit *db, enum sid id)
{
	int rc;

	if (!db->st[id]) {
		rc = sqlite3_prepare_v3(db->db, sql[id], -1,
					SQLITE_PREPARE_PERSISTENT, &db->st[id],
					NULL);
		if (rc != SQLITE_OK) {
			db->st[id] = NULL;
			db_fail(db, rc, "prepare");
			return NULL;
		}
	}
	return db->st[id];
}

static void finish(sqlite3_stmt *st)
{
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
}

static int bind_rc(struct audit *db, int rc)
{
	return rc == SQLITE_OK ? 0 : db_fail(db, rc, "bind");
}

static int bind_text(struct audit *db, sqlite3_stmt *st, int i, const char *s)
{
	if (!s)
		return bind_rc(db, sqlite3_bind_null(st, i));
	return bind_rc(db, sqlite3_bind_text(st, i, s, -1, SQLITE_STATIC));
}

static int bind_textn(struct audit *db, sqlite3_stmt *st, int i, const char *s,
		      size_t n)
{
	if (!s)
		return bind_rc(db, sqlite3_bind_null(st, i));
	return bind_rc(db, sqlite3_bind_text64(st, i, s, n, SQLITE_STATIC,
					       SQLITE_UTF8));
}

static int bind_blob(struct audit *db, sqlite3_stmt *st, int i, const void *p,
		     size_t n)
{
	/* A NULL pointer would bind SQL NULL: an empty blob is a blob. */
	return bind_rc(
		db, sqlite3_bind_blob64(st, i, p ? p : "", n, SQLITE_STATIC));
}

static int bind_zeroblob(struct audit *db, sqlite3_stmt *st, int i, size_t n)
{
	return bind_rc(db, sqlite3_bind_zeroblob64(st, i, n));
}

static int bind_int(struct audit *db, sqlite3_stmt *st, int i, int64_t v)
{
	return bind_rc(db, sqlite3_bind_int64(st, i, v));
}

/* bind_id - an id or count where 0 means "none" (SQL NULL) */
static int bind_id(struct audit *db, sqlite3_stmt *st, int i, int64_t v)
{
	if (!v)
		return bind_rc(db, sqlite3_bind_null(st, i));
	return bind_int(db, st, i, v);
}

static int bind_real(struct audit *db, sqlite3_stmt *st, int i, double v)
{
	return bind_rc(db, sqlite3_bind_double(st, i, v));
}

/* step_done - run a statement to completion; 0 or -1 */
static int step_done(struct audit *db, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st), ret = 0;

	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		ret = db_fail(db, rc, what);
	finish(st);
	return ret;
}

/* step_row - 1 with a row (left unreset), 0 at the end (reset), -1 */
static int step_row(struct audit *db, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st);

	if (rc == SQLITE_ROW)
		return 1;
	if (rc != SQLITE_DONE)
		db_fail(db, rc, what);
	finish(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

static const char *col_text(sqlite3_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(st, i);
}

static int64_t now_or(int64_t t)
{
	return t ? t : (int64_t)time(NULL);
}

/* ---- names --------------------------------------------------------------- */

static bool one_of(const char *s, const char *const *names, size_t n)
{
	size_t i;

	if (!s)
		return false;
	for (i = 0; i < n; i++)
		if (!strcmp(s, names[i]))
			return true;
	return false;
}

static const char *const states[] = {
	"forwarded", "held",	 "digest", "replied",  "duplicate",
	"rejected",  "approved", "failed", "recorded",
};
static const char *const classes[] = { "user", "fuzzer", "ai", "uncertain" };
static const char *const decision_actions[] = { "forward",    "hold",
						"digest",     "reply",
						"duplicate",  "follow-up",
						"seen-again", "record" };
static const char *const outbox_kinds[] = { "forward", "digest", "reply",
					    "bugzilla" };
static const char *const action_names[] = {
	"approve", "reroute", "reclassify", "reject", "note",	      "digest",
	"dup",	   "undup",   "release",    "thread", "fix-proposed", "fixed"
};

/* audit_valid_state - s is a report state of the schema */
bool audit_valid_state(const char *s)
{
	return one_of(s, states, ARRAY_SIZE(states));
}

/* audit_valid_class - s is a class of the schema */
bool audit_valid_class(const char *s)
{
	return one_of(s, classes, ARRAY_SIZE(classes));
}

/* ---- opening ------------------------------------------------------------- */

/*
 * make_dirs - create the missing directories of path's parent with mode
 * 02770 (chmod after mkdir: the umask and mkdir(2) drop the setgid bit)
 */
static int make_dirs(const char *path, bool *temporary)
{
	char buf[PATH_MAX];
	size_t i, n;
	char *slash;

	if (strlen(path) >= sizeof(buf))
		return error("database path too long: '%s'", path);
	strcpy(buf, path);
	slash = strrchr(buf, '/');
	if (!slash || slash == buf)
		return 0;
	*slash = '\0';
	n = strlen(buf);
	for (i = 1; i <= n; i++) {
		if (buf[i] != '/' && buf[i] != '\0')
			continue;
		buf[i] = '\0';
		if (mkdir(buf, 0700) == 0) {
			if (chmod(buf, DIR_MODE) < 0) {
				*temporary = errno_temporary(errno);
				return error("cannot chmod '%s': %s", buf,
					     strerror(errno));
			}
		} else if (errno != EEXIST) {
			*temporary = errno_temporary(errno);
			return error("cannot create directory '%s': %s", buf,
				     strerror(errno));
		}
		buf[i] = i < n ? '/' : '\0';
	}
	return 0;
}

/*
 * create_file - make the database file 0660 whatever the umask: SQLite
 * creates -wal and -shm with the database file's mode, so this one
 * mode makes all three group-writable
 */
static int create_file(const char *path, bool *temporary)
{
	struct stat sb;
	int fd;

	if (stat(path, &sb) == 0)
		return 0;
	if (errno != ENOENT) {
		*temporary = errno_temporary(errno);
		return error("cannot stat '%s': %s", path, strerror(errno));
	}
	if (make_dirs(path, temporary) < 0)
		return -1;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
		  FILE_MODE);
	if (fd < 0) {
		if (errno == EEXIST)
			return 0;
		*temporary = errno_temporary(errno);
		return error("cannot create database '%s': %s", path,
			     strerror(errno));
	}
	if (fchmod(fd, FILE_MODE) < 0) {
		*temporary = errno_temporary(errno);
		close(fd);
		return error("cannot chmod '%s': %s", path, strerror(errno));
	}
	close(fd);
	return 0;
}

/* audit_user_version - the schema version of the open database, or -1 */
int audit_user_version(struct audit *db)
{
	sqlite3_stmt *st = prep(db, S_USER_VERSION);
	int v;

	if (!st)
		return -1;
	if (step_row(db, st, "read user_version") != 1)
		return -1;
	v = sqlite3_column_int(st, 0);
	finish(st);
	return v;
}

static int exec(struct audit *db, const char *text, const char *what)
{
	int rc = sqlite3_exec(db->db, text, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : db_fail(db, rc, what);
}

/*
 * migrate_widen_state - schema 7: reports.state's CHECK list gains
 * 'recorded', written into the table's definition in place, SQLite's
 * documented way to relax a CHECK constraint (lang_altertable.html,
 * "Making Other Kinds Of Table Schema Changes"): no row is touched, so
 * nothing cascades.  Inside the migration's transaction.
 */
static int migrate_widen_state(struct audit *db)
{
	static const char sql_text[] =
		"UPDATE sqlite_master SET sql = replace(sql,"
		" '''approved'', ''failed''))',"
		" '''approved'', ''failed'', ''recorded''))')"
		" WHERE type = 'table' AND name = 'reports'"
		" AND instr(sql, '''approved'', ''failed''))') > 0";
	sqlite3_stmt *st;
	int64_t version;
	char pragma[64];
	int rc, changed;

	rc = sqlite3_prepare_v2(db->db, "PRAGMA schema_version", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return db_fail(db, rc, "read schema_version");
	rc = sqlite3_step(st);
	version = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return db_fail(db, rc, "read schema_version");
	if (exec(db, "PRAGMA writable_schema = ON", "writable schema") < 0)
		return -1;
	rc = sqlite3_exec(db->db, sql_text, NULL, NULL, NULL);
	changed = sqlite3_changes(db->db);
	snprintf(pragma, sizeof(pragma), "PRAGMA schema_version = %lld",
		 (long long)version + 1);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db->db, pragma, NULL, NULL, NULL);
	sqlite3_exec(db->db, "PRAGMA writable_schema = OFF", NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		return db_fail(db, rc, "widen reports.state");
	if (changed != 1)
		return bad(db, "reports.state: its CHECK list is not schema "
			       "6's; not migrated");
	return 0;
}

static bool in_memory(const char *path)
{
	return !strcmp(path, ":memory:");
}

/*
 * set_wal - switch to WAL (a no-op once done: the mode is persistent).
 * The switch needs an exclusive lock and SQLite does not call the busy
 * handler for it when that could deadlock, so processes racing to
 * create a new database get SQLITE_BUSY at once: retry with a growing
 * pause until the busy timeout runs out.
 */
static int set_wal(struct audit *db)
{
	double deadline = now_seconds() + db->busy_timeout_ms / 1000.0;
	useconds_t pause = 500 + (useconds_t)(getpid() % 500);
	sqlite3_stmt *st;
	const char *mode;
	bool wal;
	int rc;

	for (;;) {
		rc = sqlite3_prepare_v2(db->db, "PRAGMA journal_mode = WAL", -1,
					&st, NULL);
		if (rc != SQLITE_OK)
			return db_fail(db, rc, "journal_mode");
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW)
			break;
		sqlite3_finalize(st);
		if (((rc & 0xff) != SQLITE_BUSY &&
		     (rc & 0xff) != SQLITE_LOCKED) ||
		    now_seconds() > deadline)
			return db_fail(db, rc, "journal_mode = WAL");
		usleep(pause);
		if (pause < 50000)
			pause *= 2;
	}
	mode = col_text(st, 0);
	/* An in-memory database (tests) keeps journal mode "memory". */
	wal = mode &&
	      (!sqlite3_stricmp(mode, "wal") ||
	       (in_memory(db->path) && !sqlite3_stricmp(mode, "memory")));
	sqlite3_finalize(st);
	if (!wal)
		return bad(db, "cannot switch to WAL journal mode");
	return 0;
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
 * audit_migrate - bring the schema up to target in one transaction; two
 * processes may race here on a new database: the loser finds the work
 * done once it gets the write lock
 */
int audit_migrate(struct audit *db, int target)
{
	char *pragma;
	bool foreign;
	int v, rc;

	if (target < 1 || target > AUDIT_SCHEMA_VERSION)
		return bad(db, "no schema version %d", target);
	if (db->flags & AUDIT_RDONLY)
		return bad(db, "read-only: cannot migrate the schema");
	/* Leave someone else's database alone, even its journal mode. */
	if (read_schema(db, &v, &foreign) < 0)
		return -1;
	if (foreign)
		return bad(db, "not a triage database (tables without a "
			       "schema version)");
	/* WAL cannot be switched on inside a transaction. */
	if (set_wal(db) < 0)
		return -1;
	if (audit_begin(db) < 0)
		return -1;
	if (read_schema(db, &v, &foreign) < 0)
		goto fail;
	if (foreign) {
		bad(db, "not a triage database (tables without a schema "
			"version)");
		goto fail;
	}
	if (v > AUDIT_SCHEMA_VERSION) {
		bad(db, "schema version %d is newer than this program's (%d)",
		    v, AUDIT_SCHEMA_VERSION);
		goto fail;
	}
	if (v >= target) {
		audit_rollback(db);
		return 0;
	}
	for (; v < target; v++) {
		if (v == 6 && migrate_widen_state(db) < 0)
			goto fail;
		if (exec(db, migrations[v], "migrate schema") < 0)
			goto fail;
	}
	pragma = xasprintf("PRAGMA user_version = %d", target);
	rc = exec(db, pragma, "set user_version");
	free(pragma);
	if (rc < 0)
		goto fail;
	return audit_commit(db);
fail:
	audit_rollback(db);
	return -1;
}

/*
 * wal_hook - after each commit of an AUDIT_FILTER connection (its write
 * lock released): note the WAL's size for audit_close(), and checkpoint
 * at 1000 pages as SQLite's default hook, which this one replaces,
 * would, but only every 1000 more pages.
 *
 * While another connection reads (the other resident worker, between
 * its transactions), a checkpoint cannot copy the frames after that
 * reader's snapshot, so the WAL never starts over: the default hook
 * then checkpoints, with two fdatasync(), after nearly every commit
 * of two busy workers, and the WAL still grows.  So a connection that has
 * checkpointed before and sees the WAL past WAL_RESTART_FRAMES asks
 * for a RESTART checkpoint: it waits WAL_RESTART_WAIT_MS at most for
 * those readers to move on (not the busy timeout: it holds the write
 * lock meanwhile, and a reader may be a person's query that lasts),
 * and the next commit writes the WAL from its start.
 */
#define WAL_CKPT_FRAMES	    1000
#define WAL_RESTART_FRAMES  4000
#define WAL_RESTART_WAIT_MS 50

static int wal_hook(void *arg, sqlite3 *sdb, const char *name, int frames)
{
	struct audit *db = arg;
	bool restart;

	db->wal_frames = frames;
	if (frames < db->ckpt_frames)
		db->ckpt_frames = 0; /* the WAL started over */
	if (frames < WAL_CKPT_FRAMES ||
	    frames - db->ckpt_frames < WAL_CKPT_FRAMES)
		return SQLITE_OK;
	restart = db->ckpt_frames > 0 && frames >= WAL_RESTART_FRAMES;
	if (restart)
		sqlite3_busy_timeout(sdb, WAL_RESTART_WAIT_MS);
	sqlite3_wal_checkpoint_v2(sdb, name,
				  restart ? SQLITE_CHECKPOINT_RESTART
					  : SQLITE_CHECKPOINT_PASSIVE,
				  NULL, NULL);
	if (restart)
		sqlite3_busy_timeout(sdb, db->busy_timeout_ms);
	db->ckpt_frames = frames;
	return SQLITE_OK;
}

static bool configured;

/* audit_open - open (and with AUDIT_CREATE create) the database at path */
int audit_open(const char *path, unsigned flags, int busy_timeout_ms,
	       struct audit **out, bool *temporary)
{
	struct audit *db;
	int rc, oflags, v;
	bool ignored;

	if (!temporary)
		temporary = &ignored; /* the caller does not care */
	*out = NULL;
	*temporary = false;
	if ((flags & AUDIT_CREATE) && !(flags & AUDIT_RDONLY) &&
	    !in_memory(path) && create_file(path, temporary) < 0)
		return -1;

	/*
	 * SQLite's allocation statistics take a global mutex around every
	 * malloc (a measurable part of the filter's audit stage); nothing
	 * reads them.  Only possible before SQLite initialises: later
	 * calls fail harmlessly.
	 */
	if (!configured) {
		sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
		configured = true;
	}
	db = xcalloc(1, sizeof(*db));
	db->path = xstrdup(path);
	db->flags = flags;
	oflags = (flags & AUDIT_RDONLY) ? SQLITE_OPEN_READONLY
					: SQLITE_OPEN_READWRITE;
	oflags |= SQLITE_OPEN_NOMUTEX;
	rc = sqlite3_open_v2(path, &db->db, oflags, NULL);
	if (rc != SQLITE_OK) {
		if (db->db)
			db_fail(db, rc, "open");
		else
			error("database %s: cannot open: out of memory", path);
		goto fail;
	}
	sqlite3_extended_result_codes(db->db, 1);
	/*
	 * SQLite opens a file it may not write read-only, silently, and
	 * the first read then creates -wal and -shm with the database
	 * file's mode: read-only too.  Once the file's mode was put
	 * right, the read-only -shm failed every write ("attempt to write
	 * a readonly database") until someone removed it.  A writer stops
	 * here, before anything is created.
	 */
	if (!(flags & AUDIT_RDONLY) &&
	    sqlite3_db_readonly(db->db, "main") == 1) {
		error("database %s: opened read-only: the file (or its "
		      "directory) is not writable",
		      path);
		goto fail;
	}
	if (flags & AUDIT_FILTER) {
		sqlite3_db_config(db->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1,
				  NULL);
		sqlite3_wal_hook(db->db, wal_hook, db);
	}
	db->busy_timeout_ms =
		busy_timeout_ms > 0 ? busy_timeout_ms : AUDIT_BUSY_TIMEOUT_MS;
	sqlite3_busy_timeout(db->db, db->busy_timeout_ms);
	if (exec(db, "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON",
		 "set pragmas") < 0)
		goto fail;

	v = audit_user_version(db);
	if (v < 0)
		goto fail;
	if (v > AUDIT_SCHEMA_VERSION) {
		bad(db, "schema version %d is newer than this program's (%d)",
		    v, AUDIT_SCHEMA_VERSION);
		goto fail;
	}
	if (v < AUDIT_SCHEMA_VERSION && !(flags & AUDIT_NOMIGRATE)) {
		if (flags & AUDIT_RDONLY) {
			bad(db,
			    v ? "schema version %d is older than this "
				"program's: run a writing triage command first"
			      : "no triage database here yet (version %d)",
			    v);
			goto fail;
		}
		if (audit_migrate(db, AUDIT_SCHEMA_VERSION) < 0)
			goto fail;
	}
	*out = db;
	return 0;
fail:
	*temporary = db->temporary;
	audit_close(db);
	return -1;
}

/*
 * audit_set_cache - the page cache: at most cache_kib KiB kept (0: leave
 * SQLite's default), and dirty pages spilled to the WAL in the middle of
 * a transaction only past spill_kib KiB (0: leave the default)
 */
int audit_set_cache(struct audit *db, unsigned cache_kib, unsigned spill_kib)
{
	char text[96];
	int n = 0;

	if (cache_kib)
		n += snprintf(text + n, sizeof(text) - (size_t)n,
			      "PRAGMA cache_size = -%u;", cache_kib);
	if (spill_kib) {
		sqlite3_stmt *st;
		int page = 4096;

		if (sqlite3_prepare_v2(db->db, "PRAGMA page_size", -1, &st,
				       NULL) == SQLITE_OK) {
			if (sqlite3_step(st) == SQLITE_ROW &&
			    sqlite3_column_int(st, 0) > 0)
				page = sqlite3_column_int(st, 0);
			sqlite3_finalize(st);
		}
		n += snprintf(text + n, sizeof(text) - (size_t)n,
			      "PRAGMA cache_spill = %u;",
			      (unsigned)(((uint64_t)spill_kib << 10) / page));
	}
	return n ? exec(db, text, "set the page cache") : 0;
}

/* audit_close - finalize statements and close (NULL is fine) */
void audit_close(struct audit *db)
{
	size_t i;

	if (!db)
		return;
	for (i = 0; i < S_COUNT; i++)
		sqlite3_finalize(db->st[i]);
	/*
	 * When the filter's process is the last connection, the next one
	 * rebuilds the WAL index by reading the whole WAL (its cost grows
	 * with the WAL) and forgets how much was checkpointed, so SQLite can
	 * never restart the WAL and it grows without bound.  Once the WAL
	 * is past a threshold, let this close checkpoint and delete it
	 * (it does so only if no other connection is open).
	 */
	if ((db->flags & AUDIT_FILTER) &&
	    db->wal_frames >= AUDIT_FILTER_CKPT_FRAMES)
		sqlite3_db_config(db->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 0,
				  NULL);
	if (db->db && sqlite3_close(db->db) != SQLITE_OK)
		warn("database %s: close: %s", db->path,
		     sqlite3_errmsg(db->db));
	free(db->path);
	free(db);
}

/* ---- transactions ---------------------------------------------------------- */

static int run_simple(struct audit *db, enum sid id, const char *what)
{
	sqlite3_stmt *st = prep(db, id);

	return st ? step_done(db, st, what) : -1;
}

/* audit_begin - BEGIN IMMEDIATE: take the write lock now (busy_timeout) */
int audit_begin(struct audit *db)
{
	if (!sqlite3_get_autocommit(db->db))
		return bad(db, "a transaction is already open");
	return run_simple(db, S_BEGIN, "begin");
}

/* audit_commit - commit; on failure the transaction is rolled back */
int audit_commit(struct audit *db)
{
	if (run_simple(db, S_COMMIT, "commit") < 0) {
		bool temp = db->temporary;

		audit_rollback(db);
		db->temporary = temp;
		return -1;
	}
	return 0;
}

/* audit_rollback - abandon the open transaction, if any */
void audit_rollback(struct audit *db)
{
	sqlite3_stmt *st;

	if (sqlite3_get_autocommit(db->db))
		return;
	st = prep(db, S_ROLLBACK);
	if (st) {
		sqlite3_step(st);
		finish(st);
	}
}

/*
 * txn_enter/txn_leave - functions that write several statements run
 * them in the caller's transaction, or in their own
 */
static int txn_enter(struct audit *db, bool *own)
{
	*own = sqlite3_get_autocommit(db->db);
	return *own ? audit_begin(db) : 0;
}

static int txn_leave(struct audit *db, bool own, int ret)
{
	if (!own)
		return ret;
	if (ret < 0) {
		bool temp = db->temporary;

		audit_rollback(db);
		db->temporary = temp;
		return ret;
	}
	return audit_commit(db) < 0 ? -1 : ret;
}

/* ---- the filter's transaction ---------------------------------------------- */

/* audit_find_duplicate - a stored report with these bytes or Message-ID */
int audit_find_duplicate(struct audit *db, const char *sha256,
			 const char *message_id, int64_t *id)
{
	sqlite3_stmt *st = prep(db, S_FIND_DUP);
	int rc;

	*id = 0;
	if (!st || bind_text(db, st, 1, sha256) ||
	    bind_text(db, st, 2, message_id && *message_id ? message_id : NULL))
		return -1;
	rc = step_row(db, st, "find duplicate");
	if (rc != 1)
		return rc;
	*id = sqlite3_column_int64(st, 0);
	rc = sqlite3_column_int(st, 1);
	finish(st);
	return rc;
}

/* audit_find_duplicate_from - the same, by the same sender and source */
int audit_find_duplicate_from(struct audit *db, const struct report *r,
			      int64_t *id)
{
	sqlite3_stmt *st = prep(db, S_FIND_DUP_FROM);
	const char *mid =
		r->message_id && *r->message_id ? r->message_id : NULL;
	int rc;

	*id = 0;
	if (!st || bind_text(db, st, 1, r->sha256) ||
	    bind_text(db, st, 2, mid) ||
	    bind_text(db, st, 3, r->source ? r->source : "mail") ||
	    bind_text(db, st, 4,
		      r->from_addr && *r->from_addr ? r->from_addr : NULL) ||
	    bind_text(db, st, 5,
		      r->envelope_from && *r->envelope_from ? r->envelope_from
							    : NULL))
		return -1;
	rc = step_row(db, st, "find duplicate");
	if (rc != 1)
		return rc;
	*id = sqlite3_column_int64(st, 0);
	rc = sqlite3_column_int(st, 1);
	finish(st);
	return rc;
}

/* audit_replies_since - automatic replies queued to addr since */
long audit_replies_since(struct audit *db, const char *addr, int64_t since)
{
	sqlite3_stmt *st = prep(db, S_REPLIES_TO);
	long n;

	if (!st || bind_text(db, st, 1, addr) || bind_int(db, st, 2, since))
		return -1;
	if (step_row(db, st, "replies") != 1)
		return -1;
	n = (long)sqlite3_column_int64(st, 0);
	finish(st);
	return n;
}

/* audit_note_redelivery - count one more delivery of report id's bytes */
int audit_note_redelivery(struct audit *db, int64_t id, int64_t now)
{
	sqlite3_stmt *st = prep(db, S_REDELIVERY);

	if (!st || bind_int(db, st, 1, id) || bind_int(db, st, 2, now_or(now)))
		return -1;
	return step_done(db, st, "note redelivery");
}

static bool is_sha256(const char *s)
{
	size_t i;

	for (i = 0; i < 64; i++)
		if (!s[i] || !strchr("0123456789abcdef", s[i]))
			return false;
	return s[64] == '\0';
}

static const char *or_null(const char *s)
{
	return s && *s ? s : NULL;
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
		return bad(db, "message %lld: %zu bytes of %s", (long long)rid,
			   n, col);
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
	sqlite3_stmt *st = prep(db, S_INS_MESSAGE);
	size_t body_len = r->body ? r->body_len : 0;
	bool late = message_late(db, r);
	int err;

	if (!st)
		return -1;
	err = bind_int(db, st, 1, rid);
	if (!err && late)
		err = bind_zeroblob(db, st, 2, r->raw_len) ||
		      (body_len ? bind_zeroblob(db, st, 3, body_len)
				: bind_textn(db, st, 3, r->body, 0));
	else if (!err)
		err = bind_blob(db, st, 2, r->raw, r->raw_len) ||
		      bind_textn(db, st, 3, r->body, body_len);
	if (err) {
		finish(st);
		return -1;
	}
	if (step_done(db, st, "insert message") < 0)
		return -1;
	if (late && (blob_fill(db, rid, "raw", r->raw, r->raw_len) < 0 ||
		     blob_fill(db, rid, "body", r->body, body_len) < 0))
		return -1;
	return 0;
}

/*
 * insert_report - the report row and its message bytes; with full, also
 * row's links and class and sections_json (schema 3's columns)
 */
static int insert_report(struct audit *db, const struct report *r,
			 const struct audit_report_row *row, bool full,
			 const char *sections_json, int64_t *id)
{
	const struct audit_links *l = row->links;
	static const struct audit_links none;
	sqlite3_stmt *st;
	const char *source = r->source ? r->source : "mail";
	int64_t rid;

	if (!audit_valid_state(row->state))
		return bad(db, "invalid report state '%s'",
			   row->state ? row->state : "");
	if (!is_sha256(r->sha256))
		return bad(db, "report has no sha256");
	if (row->class && !audit_valid_class(row->class))
		return bad(db, "invalid class '%s'", row->class);
	if (!l)
		l = &none;
	st = prep(db, full ? S_INS_REPORT_ROW : S_INS_REPORT);
	if (!st)
		return -1;
	if (bind_text(db, st, 1, r->sha256) ||
	    bind_text(db, st, 2, r->message_id) ||
	    bind_int(db, st, 3, now_or(row->received_at)) ||
	    bind_text(db, st, 4, source) ||
	    bind_text(db, st, 5, r->envelope_from) ||
	    bind_text(db, st, 6, r->envelope_to) ||
	    bind_text(db, st, 7, r->from_addr ? r->from_addr : "") ||
	    bind_text(db, st, 8, r->from ? r->from : "") ||
	    bind_text(db, st, 9, r->subject ? r->subject : "") ||
	    bind_text(db, st, 10, r->date) || bind_id(db, st, 11, r->bug_id) ||
	    bind_text(db, st, 12, r->bug_url) ||
	    bind_int(db, st, 13, (int64_t)r->raw_len) ||
	    bind_int(db, st, 14, r->flags) ||
	    bind_text(db, st, 15, row->state) ||
	    bind_id(db, st, 16, row->duplicate_of))
		goto fail;
	if (full && (bind_id(db, st, 17, l->thread_root) ||
		     bind_id(db, st, 18, l->same_crash_as) ||
		     bind_text(db, st, 19, or_null(l->crash_signature)) ||
		     bind_text(db, st, 20, or_null(l->syzbot_id)) ||
		     bind_int(db, st, 21, l->regression) ||
		     bind_text(db, st, 22, row->class) ||
		     bind_text(db, st, 23,
			       row->nsections ? row->sections[0].name : NULL) ||
		     bind_text(db, st, 24, sections_json) ||
		     bind_text(db, st, 25, row->kind ? row->kind : "report")))
		goto fail;
	if (step_done(db, st, "insert report") < 0)
		return -1;
	rid = sqlite3_last_insert_rowid(db->db);
	if (insert_message(db, r, rid) < 0)
		return -1;
	*id = rid;
	return 0;
fail:
	finish(st);
	return -1;
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

/* audit_set_state - change a report's state */
int audit_set_state(struct audit *db, int64_t report, const char *state,
		    int64_t now)
{
	sqlite3_stmt *st;

	if (!audit_valid_state(state))
		return bad(db, "invalid report state '%s'", state ? state : "");
	st = prep(db, S_SET_STATE);
	if (!st || bind_int(db, st, 1, report) || bind_text(db, st, 2, state) ||
	    bind_int(db, st, 3, now_or(now)))
		return -1;
	if (step_done(db, st, "set state") < 0)
		return -1;
	if (!sqlite3_changes(db->db))
		return bad(db, "no report %lld", (long long)report);
	return 0;
}

/* ---- JSON lists ---------------------------------------------------------
 *
 * Per-report lists (frames, files, rule hits, sections) are stored as
 * JSON arrays in one column: one bound value instead of one row (and
 * one B-tree insert) per item, which is what the per-message process
 * can afford.  SQLite's json_each() reads them back, in C and in SQL.
 * This writer only escapes strings; a list that would pass JSON_MAX
 * keeps the items that fit and stays valid JSON.
 */
struct json {
	struct strbuf sb;
	size_t good; /* length after the last complete item */
	bool full;
};

static void json_begin(struct json *j)
{
	sb_init(&j->sb, JSON_MAX + 1);
	sb_addc(&j->sb, '[');
	j->good = j->sb.len;
	j->full = false;
}

/* json_item - start an item; false once the list is full */
static bool json_item(struct json *j)
{
	if (j->full)
		return false;
	if (j->sb.len > 1)
		sb_addc(&j->sb, ',');
	return true;
}

/* json_item_end - keep the item if it fit, else drop it and stop */
static void json_item_end(struct json *j, int rc)
{
	if (rc < 0 || j->sb.len > JSON_MAX) {
		sb_truncate(&j->sb, j->good);
		j->full = true;
		return;
	}
	j->good = j->sb.len;
}

static const char *json_end(struct json *j)
{
	sb_truncate(&j->sb, j->good);
	sb_addc(&j->sb, ']'); /* room kept by the cap's extra byte */
	return sb_str(&j->sb);
}

/* json_str - s as a JSON string (NULL: null); invalid UTF-8 -> '?' */
static int json_str(struct strbuf *sb, const char *s)
{
	const unsigned char *p;
	size_t n;
	bool valid;
	int rc = 0;

	if (!s)
		return sb_adds(sb, "null");
	n = strlen(s);
	valid = utf8_valid(s, n);
	rc |= sb_addc(sb, '"');
	for (p = (const unsigned char *)s; *p; p++) {
		/* cut long strings between characters, not inside one */
		if ((size_t)(p - (const unsigned char *)s) >= JSON_STR_MAX &&
		    (*p & 0xc0) != 0x80)
			break;
		if (*p == '"' || *p == '\\') {
			rc |= sb_addc(sb, '\\');
			rc |= sb_addc(sb, (char)*p);
		} else if (*p < 0x20 || *p == 0x7f) {
			rc |= sb_addf(sb, "\\u%04x", *p);
		} else if (*p >= 0x80 && !valid) {
			rc |= sb_addc(sb, '?');
		} else {
			rc |= sb_addc(sb, (char)*p);
		}
	}
	rc |= sb_addc(sb, '"');
	return rc ? -1 : 0;
}

static int json_key(struct strbuf *sb, const char *key)
{
	return sb_addc(sb, '"') | sb_adds(sb, key) | sb_adds(sb, "\":");
}

static int json_key_str(struct strbuf *sb, const char *key, const char *s)
{
	return json_key(sb, key) | json_str(sb, s);
}

static int json_num(struct strbuf *sb, const char *key, double v)
{
	return json_key(sb, key) | sb_addf(sb, "%.17g", isfinite(v) ? v : 0.0);
}

static int json_int(struct strbuf *sb, const char *key, long long v)
{
	char buf[24], *p = buf + sizeof(buf);
	unsigned long long u =
		v < 0 ? -(unsigned long long)v : (unsigned long long)v;

	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--p = '-';
	return json_key(sb, key) |
	       sb_add(sb, p, (size_t)(buf + sizeof(buf) - p));
}

static void json_strings(struct json *j, char *const *v, size_t n)
{
	size_t i;

	json_begin(j);
	for (i = 0; i < n; i++)
		if (v[i] && json_item(j))
			json_item_end(j, json_str(&j->sb, v[i]));
}

static void json_frames(struct json *j, const struct frame *f, size_t n)
{
	struct strbuf *sb = &j->sb;
	size_t i;
	int rc;

	json_begin(j);
	for (i = 0; i < n && json_item(j); i++) {
		rc = sb_addc(sb, '{');
		rc |= json_key_str(sb, "function", f[i].function);
		rc |= sb_addc(sb, ',') | json_key_str(sb, "file", f[i].file);
		rc |= sb_addc(sb, ',') | json_int(sb, "line", f[i].line);
		rc |= sb_addc(sb, ',') |
		      json_key_str(sb, "module", f[i].module);
		rc |= sb_addc(sb, ',') |
		      json_int(sb, "offset", (long long)f[i].offset);
		rc |= sb_addc(sb, ',') |
		      json_int(sb, "size", (long long)f[i].size);
		rc |= sb_addc(sb, ',') | json_int(sb, "inlined", f[i].inlined);
		rc |= sb_addc(sb, ',') |
		      json_int(sb, "unreliable", f[i].unreliable);
		rc |= sb_addc(sb, ',') |
		      json_int(sb, "from_index", f[i].from_index);
		rc |= sb_addc(sb, '}');
		json_item_end(j, rc ? -1 : 0);
	}
}

/* json_scored - [{"name":..,"score":..,KEY:..}] for hits and sections */
static void json_scored(struct json *j, const char *key, size_t n,
			const char *(*name)(const void *, size_t),
			double (*score)(const void *, size_t),
			const char *(*text)(const void *, size_t),
			const void *v)
{
	struct strbuf *sb = &j->sb;
	size_t i;
	int rc;

	json_begin(j);
	for (i = 0; i < n && json_item(j); i++) {
		rc = sb_addc(sb, '{') | json_key_str(sb, "name", name(v, i));
		rc |= sb_addc(sb, ',') | json_num(sb, "score", score(v, i));
		rc |= sb_addc(sb, ',') | json_key_str(sb, key, text(v, i));
		rc |= sb_addc(sb, '}');
		json_item_end(j, rc ? -1 : 0);
	}
}

static const char *hit_name(const void *v, size_t i)
{
	return ((const struct audit_rule_hit *)v)[i].name;
}

static double hit_score(const void *v, size_t i)
{
	return ((const struct audit_rule_hit *)v)[i].score;
}

static const char *hit_text(const void *v, size_t i)
{
	return ((const struct audit_rule_hit *)v)[i].describe;
}

static const char *section_name(const void *v, size_t i)
{
	return ((const struct audit_section *)v)[i].name;
}

static double section_score(const void *v, size_t i)
{
	return ((const struct audit_section *)v)[i].score;
}

static const char *section_text(const void *v, size_t i)
{
	return ((const struct audit_section *)v)[i].why;
}

/* audit_insert_evidence - the evidence row with its lists */
int audit_insert_evidence(struct audit *db, int64_t report,
			  const struct evidence *ev)
{
	sqlite3_stmt *st = prep(db, S_INS_EVIDENCE);
	struct json lists[5];
	size_t i;
	int rc = -1;

	if (!st)
		return -1;
	json_frames(&lists[0], ev->frames, ev->nframes);
	json_strings(&lists[1], ev->files, ev->nfiles);
	json_strings(&lists[2], ev->functions, ev->nfunctions);
	json_strings(&lists[3], ev->reported_by, ev->nreported_by);
	json_strings(&lists[4], ev->tested_by, ev->ntested_by);
	if (bind_int(db, st, 1, report) || bind_text(db, st, 2, ev->title) ||
	    bind_text(db, st, 3, ev->crash_type) ||
	    bind_text(db, st, 4, ev->guilty_file) ||
	    bind_text(db, st, 5, ev->kernel_version) ||
	    bind_text(db, st, 6, ev->tainted) ||
	    bind_text(db, st, 7, ev->hardware) ||
	    bind_int(db, st, 8, ev->hw_virtual) ||
	    bind_text(db, st, 9, ev->distro_kernel) ||
	    bind_int(db, st, 10, ev->dmesg_timestamps) ||
	    bind_int(db, st, 11, ev->reproducer) ||
	    bind_text(db, st, 12, ev->bisect_commit) ||
	    bind_text(db, st, 13, ev->subject_prefix) ||
	    bind_int(db, st, 14, ev->syzbot))
		goto out;
	for (i = 0; i < ARRAY_SIZE(lists); i++)
		if (bind_text(db, st, 15 + (int)i, json_end(&lists[i])))
			goto out;
	rc = step_done(db, st, "insert evidence");
out:
	finish(st);
	for (i = 0; i < ARRAY_SIZE(lists); i++)
		sb_release(&lists[i].sb);
	return rc;
}

/* audit_insert_classification - verdict, scores, rule hits; reports.class */
int audit_insert_classification(struct audit *db, int64_t report,
				const struct audit_classification *c)
{
	sqlite3_stmt *st;
	int64_t at = now_or(c->at);
	struct json hits;
	int rc;

	if (!audit_valid_class(c->class))
		return bad(db, "invalid class '%s'", c->class ? c->class : "");
	st = prep(db, S_INS_CLASS);
	if (!st)
		return -1;
	json_scored(&hits, "describe", c->nhits, hit_name, hit_score, hit_text,
		    c->hits);
	rc = bind_int(db, st, 1, report) || bind_text(db, st, 2, c->class) ||
	     bind_real(db, st, 3, c->score_user) ||
	     bind_real(db, st, 4, c->score_fuzzer) ||
	     bind_real(db, st, 5, c->score_ai) ||
	     bind_real(db, st, 6, c->confidence) ||
	     bind_int(db, st, 7, c->certain) ||
	     bind_text(db, st, 8, c->model_version) ||
	     bind_text(db, st, 9, c->header) || bind_int(db, st, 10, at) ||
	     bind_text(db, st, 11, json_end(&hits)) ||
	     step_done(db, st, "insert classification") < 0;
	finish(st);
	sb_release(&hits.sb);
	if (rc)
		return -1;
	if (c->class_stored)
		return 0;
	st = prep(db, S_SET_CLASS);
	if (!st || bind_int(db, st, 1, report) ||
	    bind_text(db, st, 2, c->class) || bind_int(db, st, 3, at))
		return -1;
	return step_done(db, st, "set class");
}

/* audit_insert_sections - ranked sections, best first (reports.section) */
int audit_insert_sections(struct audit *db, int64_t report,
			  const struct audit_section *v, size_t n)
{
	sqlite3_stmt *st = prep(db, S_SET_SECTIONS);
	struct json list;
	int rc;

	if (!st)
		return -1;
	json_scored(&list, "why", n, section_name, section_score, section_text,
		    v);
	rc = bind_int(db, st, 1, report) ||
	     bind_text(db, st, 2, n ? v[0].name : NULL) ||
	     bind_text(db, st, 3, json_end(&list)) ||
	     step_done(db, st, "set sections") < 0;
	finish(st);
	sb_release(&list.sb);
	if (rc)
		return -1;
	if (!sqlite3_changes(db->db))
		return bad(db, "no report %lld", (long long)report);
	return 0;
}

/* audit_insert_report_row - the report row, written once (see audit.h) */
int audit_insert_report_row(struct audit *db, const struct report *r,
			    const struct audit_report_row *row, int64_t *id)
{
	struct audit_report_row own = *row;
	struct json list;
	int rc;

	if (!row->has_sections) {
		own.nsections = 0;
		return insert_report(db, r, &own, true, NULL, id);
	}
	json_scored(&list, "why", row->nsections, section_name, section_score,
		    section_text, row->sections);
	rc = insert_report(db, r, &own, true, json_end(&list), id);
	sb_release(&list.sb);
	return rc;
}

/* audit_insert_decision - what act decided, with the candidates */
int audit_insert_decision(struct audit *db, int64_t report,
			  const struct audit_decision *d, int64_t *id)
{
	sqlite3_stmt *st;

	if (!one_of(d->action, decision_actions, ARRAY_SIZE(decision_actions)))
		return bad(db, "invalid decision '%s'",
			   d->action ? d->action : "");
	st = prep(db, S_INS_DECISION);
	if (!st || bind_int(db, st, 1, report) ||
	    bind_int(db, st, 2, now_or(d->at)) ||
	    bind_text(db, st, 3, d->action) ||
	    bind_text(db, st, 4, d->recipient) ||
	    bind_text(db, st, 5, d->recipient_name) ||
	    bind_text(db, st, 6, d->reason) ||
	    bind_text(db, st, 7, d->candidates) ||
	    step_done(db, st, "insert decision") < 0)
		return -1;
	if (id)
		*id = sqlite3_last_insert_rowid(db->db);
	return 0;
}

/* ---- outbox ---------------------------------------------------------------- */

/* audit_outbox_enqueue - a message to send, in the caller's transaction */
int audit_outbox_enqueue(struct audit *db, const struct audit_outbox_new *m,
			 int64_t *id)
{
	sqlite3_stmt *st;
	int64_t created = now_or(m->created_at);
	bool ref = m->raw_report > 0;

	if (!one_of(m->kind, outbox_kinds, ARRAY_SIZE(outbox_kinds)))
		return bad(db, "invalid outbox kind '%s'",
			   m->kind ? m->kind : "");
	if (!m->recipients || !*m->recipients)
		return bad(db, "outbox message without recipients");
	if (ref && (m->raw_offset > m->raw_len || m->raw_len > INT64_MAX))
		return bad(db, "outbox message: offset %zu past the end (%zu)",
			   m->raw_offset, m->raw_len);
	st = prep(db, ref ? S_INS_OUTBOX_REF : S_INS_OUTBOX);
	if (!st || bind_id(db, st, 1, m->report) ||
	    bind_text(db, st, 2, m->kind) || bind_int(db, st, 3, created) ||
	    bind_text(db, st, 4, m->envelope_from) ||
	    bind_text(db, st, 5, m->recipients) ||
	    bind_blob(db, st, 6, m->message, m->message_len) ||
	    bind_int(db, st, 7, m->not_before ? m->not_before : created))
		goto fail;
	if (ref && (bind_int(db, st, 8, m->raw_report) ||
		    bind_int(db, st, 9, (int64_t)m->raw_offset) ||
		    bind_int(db, st, 10, (int64_t)m->raw_len)))
		goto fail;
	if (step_done(db, st, "enqueue") < 0)
		return -1;
	if (!sqlite3_changes(db->db))
		return bad(db,
			   "outbox message: report %lld has no stored message "
			   "of %zu bytes",
			   (long long)m->raw_report, m->raw_len);
	if (id)
		*id = sqlite3_last_insert_rowid(db->db);
	return 0;
fail:
	finish(st);
	return -1;
}

static char *dup_col(sqlite3_stmt *st, int i, size_t *len)
{
	const void *p = sqlite3_column_blob(st, i);
	size_t n = (size_t)sqlite3_column_bytes(st, i);

	if (len)
		*len = n;
	return p ? xmemdup0(p, n) : xstrdup("");
}

/*
 * unzip_stored - report id's stored bytes p[0..n), compressed, inflated
 * to the size recorded for it: a new NUL-terminated buffer, or NULL
 * after an error
 */
static char *unzip_stored(struct audit *db, int64_t id, const void *p, size_t n,
			  size_t size)
{
	uLongf got = size;
	char *out = xmalloc(size + 1);

	if (uncompress((Bytef *)out, &got, p, n) != Z_OK || got != size) {
		free(out);
		bad(db, "report %lld: compressed message is corrupt",
		    (long long)id);
		return NULL;
	}
	out[got] = '\0';
	return out;
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
	char *buf;
	int rc;

	*out = NULL;
	*out_len = 0;
	if (!raw_report) {
		*out = xmemdup0(head_len ? head : "", head_len);
		*out_len = head_len;
		return 0;
	}
	st = prep(db, S_OUTBOX_RAW);
	if (!st || bind_int(db, st, 1, raw_report))
		return -1;
	rc = step_row(db, st, "read a forward's message");
	if (rc != 1)
		return rc < 0 ? -1
			      : bad(db, "outbox: report %lld has no message",
				    (long long)raw_report);
	enc = col_text(st, 0);
	p = sqlite3_column_blob(st, 1);
	n = (size_t)sqlite3_column_bytes(st, 1);
	size = (size_t)sqlite3_column_int64(st, 2);
	if (enc && !strcmp(enc, "zlib")) {
		z = unzip_stored(db, raw_report, p, n, size);
		if (!z) {
			finish(st);
			return -1;
		}
		p = (const unsigned char *)z;
		n = size;
	}
	if (offset < 0 || (uint64_t)offset > n) {
		free(z);
		finish(st);
		return bad(db, "outbox: offset %lld past report %lld's message",
			   (long long)offset, (long long)raw_report);
	}
	n -= (size_t)offset;
	buf = xmalloc(head_len + n + 1);
	if (head_len)
		memcpy(buf, head, head_len);
	if (n)
		memcpy(buf + head_len, p + offset, n);
	buf[head_len + n] = '\0';
	free(z);
	finish(st);
	*out = buf;
	*out_len = head_len + n;
	return 0;
}

/* audit_outbox_claim_due - lease the oldest due row to this worker */
int audit_outbox_claim_due(struct audit *db, int64_t now, int lease_seconds,
			   bool mail_only, struct audit_outbox_item *item)
{
	sqlite3_stmt *st;
	bool own;
	int64_t id, lease, raw_report, raw_offset;
	char *head = NULL;
	size_t head_len;
	int rc;

	memset(item, 0, sizeof(*item));
	now = now_or(now);
	lease = now + (lease_seconds > 0 ? lease_seconds : AUDIT_LEASE_SECONDS);
	if (txn_enter(db, &own) < 0)
		return -1;
	st = prep(db, S_OUTBOX_DUE);
	if (!st || bind_int(db, st, 1, now) || bind_int(db, st, 2, mail_only)) {
		rc = -1;
		goto out;
	}
	rc = step_row(db, st, "find due outbox row");
	if (rc != 1)
		goto out;
	id = sqlite3_column_int64(st, 0);
	finish(st);

	st = prep(db, S_OUTBOX_TAKE);
	if (!st || bind_int(db, st, 1, id) || bind_int(db, st, 2, lease)) {
		rc = -1;
		goto out;
	}
	rc = step_row(db, st, "claim outbox row");
	if (rc != 1) {
		if (rc == 0)
			rc = bad(db, "outbox row %lld vanished", (long long)id);
		goto out;
	}
	item->id = id;
	item->report = sqlite3_column_int64(st, 0);
	item->kind = dup_col(st, 1, NULL);
	item->created_at = sqlite3_column_int64(st, 2);
	item->envelope_from = dup_col(st, 3, NULL);
	item->recipients = dup_col(st, 4, NULL);
	head = dup_col(st, 5, &head_len);
	item->attempts = sqlite3_column_int(st, 6);
	raw_report = sqlite3_column_int64(st, 7);
	raw_offset = sqlite3_column_int64(st, 8);
	item->lease_until = lease;
	/* RETURNING: the update is complete only once the statement ends */
	if (step_done(db, st, "claim outbox row") < 0)
		rc = -1;
	else if (outbox_message(db, head, head_len, raw_report, raw_offset,
				&item->message, &item->message_len) < 0)
		rc = -1;
out:
	free(head);
	rc = txn_leave(db, own, rc);
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

static int insert_attempt(struct audit *db, int64_t outbox, int64_t at, bool ok,
			  int smtp_code, const char *detail)
{
	sqlite3_stmt *st = prep(db, S_INS_ATTEMPT);

	if (!st || bind_int(db, st, 1, outbox) || bind_int(db, st, 2, at) ||
	    bind_int(db, st, 3, ok) || bind_int(db, st, 4, smtp_code) ||
	    bind_text(db, st, 5, detail))
		return -1;
	return step_done(db, st, "record delivery attempt");
}

/*
 * outcome - record one attempt and move a claimed row on; the row
 * changes only while this worker's claim (id, attempts) still holds
 */
static int outcome(struct audit *db, const struct audit_outbox_item *it,
		   enum sid id, int64_t now, int64_t next_at, bool ok,
		   int smtp_code, const char *detail)
{
	sqlite3_stmt *st;
	bool own, lost;
	int rc = -1;

	now = now_or(now);
	if (txn_enter(db, &own) < 0)
		return -1;
	if (insert_attempt(db, it->id, now, ok, smtp_code, detail) < 0)
		goto out;
	st = prep(db, id);
	if (!st || bind_int(db, st, 1, it->id) ||
	    bind_int(db, st, 2, it->attempts))
		goto out;
	if (id == S_OUTBOX_SENT && bind_int(db, st, 3, now))
		goto out;
	if (id == S_OUTBOX_RETRY &&
	    (bind_int(db, st, 3, next_at) || bind_text(db, st, 4, detail)))
		goto out;
	if (id == S_OUTBOX_FAIL && bind_text(db, st, 3, detail))
		goto out;
	if (step_done(db, st, "update outbox row") < 0)
		goto out;
	lost = sqlite3_changes(db->db) == 0;
	if (!lost && id == S_OUTBOX_FAIL) {
		st = prep(db, S_OUTBOX_FAIL_REPORT);
		if (!st || bind_int(db, st, 1, it->id) ||
		    bind_int(db, st, 2, now) ||
		    step_done(db, st, "mark report failed") < 0)
			goto out;
	}
	rc = lost ? 1 : 0;
out:
	return txn_leave(db, own, rc);
}

/* audit_outbox_done - the message went out */
int audit_outbox_done(struct audit *db, const struct audit_outbox_item *it,
		      int64_t now, int smtp_code, const char *detail)
{
	return outcome(db, it, S_OUTBOX_SENT, now, 0, true, smtp_code, detail);
}

/* audit_outbox_retry - failed for now: try again at next_at */
int audit_outbox_retry(struct audit *db, const struct audit_outbox_item *it,
		       int64_t now, int64_t next_at, int smtp_code,
		       const char *error)
{
	if (next_at <= 0)
		return bad(db, "retry of outbox row %lld without a time",
			   (long long)it->id);
	return outcome(db, it, S_OUTBOX_RETRY, now, next_at, false, smtp_code,
		       error);
}

/* audit_outbox_fail - give up; the report shows in pending as failed */
int audit_outbox_fail(struct audit *db, const struct audit_outbox_item *it,
		      int64_t now, int smtp_code, const char *error)
{
	return outcome(db, it, S_OUTBOX_FAIL, now, 0, false, smtp_code, error);
}

/* audit_outbox_requeue - send a failed row again; 0, or 1 if not failed */
int audit_outbox_requeue(struct audit *db, int64_t outbox, int64_t now)
{
	sqlite3_stmt *st;
	bool own;
	int rc = -1;

	now = now_or(now);
	if (txn_enter(db, &own) < 0)
		return -1;
	st = prep(db, S_OUTBOX_REQUEUE);
	if (!st || bind_int(db, st, 1, outbox) || bind_int(db, st, 2, now) ||
	    step_done(db, st, "requeue") < 0)
		goto out;
	if (!sqlite3_changes(db->db)) {
		rc = 1;
		goto out;
	}
	st = prep(db, S_OUTBOX_REQUEUE_REPORT);
	if (!st || bind_int(db, st, 1, outbox) || bind_int(db, st, 2, now) ||
	    step_done(db, st, "requeue report") < 0)
		goto out;
	rc = 0;
out:
	return txn_leave(db, own, rc);
}

/* audit_outbox_cancel - never send this row; 0, or 1 if already gone */
int audit_outbox_cancel(struct audit *db, int64_t outbox)
{
	sqlite3_stmt *st = prep(db, S_OUTBOX_CANCEL);

	if (!st || bind_int(db, st, 1, outbox) ||
	    step_done(db, st, "cancel") < 0)
		return -1;
	return sqlite3_changes(db->db) ? 0 : 1;
}

/* ---- threads, same-crash groups, regressions ------------------------------ */

static int one_id(struct audit *db, enum sid id, int64_t key, const char *text,
		  int64_t *out)
{
	sqlite3_stmt *st = prep(db, id);
	int rc;

	*out = 0;
	if (!st ||
	    (text ? bind_text(db, st, 1, text) : bind_int(db, st, 1, key)))
		return -1;
	rc = step_row(db, st, "find thread");
	if (rc == 1) {
		*out = sqlite3_column_int64(st, 0);
		finish(st);
	}
	return rc;
}

/*
 * apply_dup - dup: report joins argument's group (the group's first);
 * undup: report leaves its group, and waits in pending for its own
 * assignment when it was only waiting as "seen again"
 */
static int apply_dup(struct audit *db, const struct audit_action *a, int64_t at,
		     const char *state, char **previous)
{
	struct audit_links cur;
	sqlite3_stmt *st;
	int64_t other = 0, first = 0;
	char *end;
	int rc;

	if (audit_get_links(db, a->report, &cur) <= 0)
		return bad(db, "no report %lld", (long long)a->report);
	if (cur.same_crash_as)
		*previous = xasprintf("%lld", (long long)cur.same_crash_as);
	audit_links_release(&cur);
	if (!strcmp(a->action, "undup")) {
		if (!*previous)
			return bad(db, "report %lld is in no group",
				   (long long)a->report);
		st = prep(db, S_SET_SAME_CRASH);
		if (!st || bind_int(db, st, 1, a->report) ||
		    bind_id(db, st, 2, 0) || bind_int(db, st, 3, at) ||
		    step_done(db, st, "undup") < 0)
			return -1;
		if (strcmp(state, "digest"))
			return 0;
		st = prep(db, S_LAST_DECISION_ACTION);
		if (!st || bind_int(db, st, 1, a->report))
			return -1;
		rc = step_row(db, st, "read decision");
		if (rc < 0)
			return -1;
		if (rc == 1) {
			bool seen = col_text(st, 0) &&
				    !strcmp(col_text(st, 0), "seen-again");

			finish(st);
			if (seen)
				return audit_set_state(db, a->report, "held",
						       at);
		}
		return 0;
	}
	if (a->argument)
		other = strtoll(a->argument, &end, 10);
	if (!a->argument || !*a->argument || *end || other <= 0)
		return bad(db, "dup needs a report id, not '%s'",
			   a->argument ? a->argument : "");
	if (audit_get_links(db, other, &cur) <= 0)
		return bad(db, "no report %lld", (long long)other);
	first = cur.same_crash_as ? cur.same_crash_as : other;
	audit_links_release(&cur);
	if (first == a->report)
		return bad(db, "report %lld is the first of that group already",
			   (long long)a->report);
	/* one level: what was grouped under report moves to first */
	st = prep(db, S_REGROUP);
	if (!st || bind_int(db, st, 1, a->report) ||
	    bind_int(db, st, 2, first) || bind_int(db, st, 3, at) ||
	    step_done(db, st, "regroup") < 0)
		return -1;
	st = prep(db, S_SET_SAME_CRASH);
	if (!st || bind_int(db, st, 1, a->report) ||
	    bind_int(db, st, 2, first) || bind_int(db, st, 3, at) ||
	    step_done(db, st, "dup") < 0)
		return -1;
	return 0;
}

/* audit_set_regression - a regression's versions into report's evidence */
int audit_set_regression(struct audit *db, int64_t report,
			 const struct audit_links *l)
{
	sqlite3_stmt *st;

	if (!l->regression)
		return 0;
	st = prep(db, S_SET_REGRESSION);
	if (!st || bind_int(db, st, 1, report) ||
	    bind_text(db, st, 2, or_null(l->good)) ||
	    bind_text(db, st, 3, or_null(l->bad)) ||
	    bind_text(db, st, 4, or_null(l->commit)) ||
	    step_done(db, st, "set regression") < 0)
		return -1;
	return 0;
}

/* audit_set_links - a recorded report's thread, group and regression */
int audit_set_links(struct audit *db, int64_t report,
		    const struct audit_links *l)
{
	sqlite3_stmt *st = prep(db, S_SET_LINKS);

	if (!st || bind_int(db, st, 1, report) ||
	    bind_id(db, st, 2, l->thread_root) ||
	    bind_id(db, st, 3, l->same_crash_as) ||
	    bind_text(db, st, 4, or_null(l->crash_signature)) ||
	    bind_text(db, st, 5, or_null(l->syzbot_id)) ||
	    bind_int(db, st, 6, l->regression) ||
	    step_done(db, st, "set links") < 0)
		return -1;
	return audit_set_regression(db, report, l);
}

/* audit_thread_find - the root of the thread a Message-ID belongs to */
int audit_thread_find(struct audit *db, const char *message_id, int64_t *root)
{
	if (!message_id || !*message_id) {
		*root = 0;
		return 0;
	}
	return one_id(db, S_THREAD_BY_MSGID, 0, message_id, root);
}

/* audit_thread_of - the root of report id's thread; 0 when no report */
int audit_thread_of(struct audit *db, int64_t id, int64_t *root)
{
	return one_id(db, S_THREAD_BY_ID, id, NULL, root);
}

/* audit_thread_of_bug - the root of a known Bugzilla bug's report */
int audit_thread_of_bug(struct audit *db, long bug_id, int64_t *root)
{
	return one_id(db, S_THREAD_BY_BUG, bug_id, NULL, root);
}

static void fixed(char *dst, size_t size, const char *s)
{
	snprintf(dst, size, "%s", s ? s : "");
}

/* audit_root_get - what a follow-up needs of its thread's root */
int audit_root_get(struct audit *db, int64_t id, struct audit_root *out)
{
	sqlite3_stmt *st = prep(db, S_ROOT_GET);
	int rc;

	memset(out, 0, sizeof(*out));
	if (!st || bind_int(db, st, 1, id))
		return -1;
	rc = step_row(db, st, "read thread root");
	if (rc != 1)
		return rc;
	out->id = id;
	fixed(out->state, sizeof(out->state), col_text(st, 0));
	fixed(out->class, sizeof(out->class), col_text(st, 1));
	fixed(out->from_addr, sizeof(out->from_addr), col_text(st, 2));
	fixed(out->section, sizeof(out->section), col_text(st, 3));
	fixed(out->header, sizeof(out->header), col_text(st, 4));
	fixed(out->recipient, sizeof(out->recipient), col_text(st, 5));
	fixed(out->recipient_name, sizeof(out->recipient_name),
	      col_text(st, 6));
	out->received_at = sqlite3_column_int64(st, 7);
	fixed(out->kind, sizeof(out->kind), col_text(st, 8));
	finish(st);
	return 1;
}

/* audit_same_crash - the first report of the same crash, or 0 */
int audit_same_crash(struct audit *db, const char *signature,
		     const char *syzbot_id, int64_t self, int64_t *first)
{
	sqlite3_stmt *st;
	int rc;

	*first = 0;
	if ((!signature || !*signature) && (!syzbot_id || !*syzbot_id))
		return 0;
	st = prep(db, S_SAME_CRASH);
	if (!st ||
	    bind_text(db, st, 1, signature && *signature ? signature : NULL) ||
	    bind_text(db, st, 2, syzbot_id && *syzbot_id ? syzbot_id : NULL) ||
	    bind_int(db, st, 3, self))
		return -1;
	rc = step_row(db, st, "find same crash");
	if (rc == 1) {
		/* min() of no rows is NULL: no earlier report */
		*first = sqlite3_column_int64(st, 0);
		finish(st);
		rc = *first ? 1 : 0;
	}
	return rc;
}

/* audit_merge_evidence - fill root's missing evidence from another's */
int audit_merge_evidence(struct audit *db, int64_t root, int64_t from)
{
	sqlite3_stmt *st = prep(db, S_MERGE_EVIDENCE);

	if (!st || bind_int(db, st, 1, root) || bind_int(db, st, 2, from) ||
	    step_done(db, st, "merge evidence") < 0)
		return -1;
	return 0;
}

static char *dup_text(sqlite3_stmt *st, int i)
{
	return col_text(st, i) ? xstrdup(col_text(st, i)) : NULL;
}

/* audit_mark_regression - a thread learned that its report is one */
int audit_mark_regression(struct audit *db, int64_t report, int64_t now)
{
	sqlite3_stmt *st = prep(db, S_MARK_REGRESSION);

	if (!st || bind_int(db, st, 1, report) || bind_int(db, st, 2, now) ||
	    step_done(db, st, "mark regression") < 0)
		return -1;
	return 0;
}

/* audit_get_links - a report's thread, group and regression */
int audit_get_links(struct audit *db, int64_t id, struct audit_links *out)
{
	sqlite3_stmt *st = prep(db, S_GET_LINKS);
	int rc;

	memset(out, 0, sizeof(*out));
	if (!st || bind_int(db, st, 1, id))
		return -1;
	rc = step_row(db, st, "read links");
	if (rc != 1)
		return rc;
	out->thread_root = sqlite3_column_int64(st, 0);
	out->same_crash_as = sqlite3_column_int64(st, 1);
	out->crash_signature = dup_text(st, 2);
	out->syzbot_id = dup_text(st, 3);
	out->regression = sqlite3_column_int(st, 4) != 0;
	out->good = dup_text(st, 5);
	out->bad = dup_text(st, 6);
	out->commit = dup_text(st, 7);
	finish(st);
	return 1;
}

/* audit_links_release - free what audit_get_links() read */
void audit_links_release(struct audit_links *l)
{
	free((char *)l->crash_signature);
	free((char *)l->syzbot_id);
	free((char *)l->good);
	free((char *)l->bad);
	free((char *)l->commit);
	memset(l, 0, sizeof(*l));
}

/* audit_related - the thread's follow-ups and the crash group of a report */
int audit_related(struct audit *db, int64_t id, int64_t group,
		  int (*cb)(const struct audit_related *r, void *arg),
		  void *arg)
{
	sqlite3_stmt *st = prep(db, S_RELATED);
	struct audit_related r;
	int rc, stop;

	if (!st || bind_int(db, st, 1, id) || bind_int(db, st, 2, group))
		return -1;
	while ((rc = step_row(db, st, "list related")) == 1) {
		r.id = sqlite3_column_int64(st, 0);
		r.relation = col_text(st, 1);
		r.received_at = sqlite3_column_int64(st, 2);
		r.from = col_text(st, 3);
		r.state = col_text(st, 4);
		r.subject = col_text(st, 5);
		stop = cb(&r, arg);
		if (stop) {
			finish(st);
			return stop;
		}
	}
	return rc;
}

/* ---- triager actions ------------------------------------------------------ */

static int apply_action(struct audit *db, const struct audit_action *a,
			int64_t at, char **previous)
{
	sqlite3_stmt *st;
	char *state, *class;
	const char *new_state = NULL;
	bool keep_state = true; /* previous = the state before */
	int rc;

	st = prep(db, S_REPORT_STATE_CLASS);
	if (!st || bind_int(db, st, 1, a->report))
		return -1;
	rc = step_row(db, st, "read report");
	if (rc <= 0)
		return rc < 0 ? -1
			      : bad(db, "no report %lld", (long long)a->report);
	state = xstrdup(col_text(st, 0));
	class = col_text(st, 1) ? xstrdup(col_text(st, 1)) : NULL;
	finish(st);

	rc = 0;
	if (!strcmp(a->action, "reclassify")) {
		if (!audit_valid_class(a->argument)) {
			rc = bad(db, "invalid class '%s'",
				 a->argument ? a->argument : "");
			goto out;
		}
		*previous = class;
		class = NULL;
		st = prep(db, S_SET_CLASS);
		if (!st || bind_int(db, st, 1, a->report) ||
		    bind_text(db, st, 2, a->argument) ||
		    bind_int(db, st, 3, at) ||
		    step_done(db, st, "reclassify") < 0)
			rc = -1;
		goto out;
	}
	if (!strcmp(a->action, "reroute")) {
		st = prep(db, S_LAST_RECIPIENT);
		if (!st || bind_int(db, st, 1, a->report)) {
			rc = -1;
			goto out;
		}
		rc = step_row(db, st, "read last recipient");
		if (rc < 0)
			goto out;
		if (rc == 1) {
			if (col_text(st, 0))
				*previous = xstrdup(col_text(st, 0));
			finish(st);
		}
		rc = 0;
		new_state = "forwarded";
		keep_state = false;
	} else if (!strcmp(a->action, "approve")) {
		new_state = "approved";
	} else if (!strcmp(a->action, "reject")) {
		new_state = "rejected";
		st = prep(db, S_OUTBOX_CANCEL_REPORT);
		if (!st || bind_int(db, st, 1, a->report) ||
		    step_done(db, st, "cancel outbox") < 0) {
			rc = -1;
			goto out;
		}
	} else if (!strcmp(a->action, "digest")) {
		new_state = "digest";
	} else if (!strcmp(a->action, "dup") || !strcmp(a->action, "undup")) {
		rc = apply_dup(db, a, at, state, previous);
		goto out;
	} else if (!strcmp(a->action, "release")) {
		if (!audit_valid_class(a->argument)) {
			rc = bad(db, "invalid class '%s'",
				 a->argument ? a->argument : "");
			goto out;
		}
		*previous = class;
		class = NULL;
		st = prep(db, S_SET_CLASS);
		if (!st || bind_int(db, st, 1, a->report) ||
		    bind_text(db, st, 2, a->argument) ||
		    bind_int(db, st, 3, at) || step_done(db, st, "release") < 0)
			rc = -1;
		goto out;
	}
	if (new_state) {
		if (keep_state) {
			*previous = state;
			state = NULL;
		}
		rc = audit_set_state(db, a->report, new_state, at);
	}
out:
	free(state);
	free(class);
	return rc;
}

/* audit_record_action - log a triager's action and apply it to the report */
int audit_record_action(struct audit *db, const struct audit_action *a,
			int64_t *id)
{
	sqlite3_stmt *st;
	int64_t at = now_or(a->at);
	char *previous = NULL;
	bool own;
	int rc = -1;

	if (!one_of(a->action, action_names, ARRAY_SIZE(action_names)))
		return bad(db, "invalid action '%s'",
			   a->action ? a->action : "");
	if (!a->who || !*a->who)
		return bad(db, "action without a login name");
	if (!a->report && strcmp(a->action, "note") &&
	    strcmp(a->action, "digest"))
		return bad(db, "%s needs a report", a->action);
	if (txn_enter(db, &own) < 0)
		return -1;
	if (a->report && apply_action(db, a, at, &previous) < 0)
		goto out;
	st = prep(db, S_INS_ACTION);
	if (!st || bind_id(db, st, 1, a->report) || bind_int(db, st, 2, at) ||
	    bind_text(db, st, 3, a->who) || bind_text(db, st, 4, a->action) ||
	    bind_text(db, st, 5, a->argument) ||
	    bind_text(db, st, 6, previous) || bind_text(db, st, 7, a->detail) ||
	    step_done(db, st, "insert action") < 0)
		goto out;
	if (id)
		*id = sqlite3_last_insert_rowid(db->db);
	rc = 0;
out:
	free(previous);
	return txn_leave(db, own, rc);
}

/* audit_insert_fix - a fix proposed for a report, or its commit */
int audit_insert_fix(struct audit *db, const struct audit_fix *f, int64_t *id)
{
	sqlite3_stmt *st;

	if (!f->state ||
	    (strcmp(f->state, "proposed") && strcmp(f->state, "fixed")))
		return bad(db, "invalid fix state '%s'",
			   f->state ? f->state : "");
	st = prep(db, S_INS_FIX);
	if (!st || bind_int(db, st, 1, f->report) ||
	    bind_int(db, st, 2, now_or(f->at)) ||
	    bind_text(db, st, 3, f->state) ||
	    bind_id(db, st, 4, f->source_report) ||
	    bind_text(db, st, 5, f->message_id) ||
	    bind_text(db, st, 6, f->subject) ||
	    bind_text(db, st, 7, f->commit_sha) ||
	    bind_text(db, st, 8, f->tree) || bind_text(db, st, 9, f->how) ||
	    step_done(db, st, "insert fix") < 0)
		return -1;
	if (id)
		*id = sqlite3_last_insert_rowid(db->db);
	return 0;
}

/* ---- load, Bugzilla, digests ---------------------------------------------- */

/*
 * load - forwards to recipient since day and since week, in one range of
 * decisions_forwarded; -1 after an error
 */
static int load(struct audit *db, const char *recipient, int64_t day,
		int64_t week, long *nday, long *nweek)
{
	sqlite3_stmt *st = prep(db, S_LOAD);

	if (!st || bind_text(db, st, 1, recipient) ||
	    bind_int(db, st, 2, day) || bind_int(db, st, 3, week))
		return -1;
	if (step_row(db, st, "load") != 1)
		return -1;
	*nday = (long)sqlite3_column_int64(st, 0);
	*nweek = (long)sqlite3_column_int64(st, 1);
	finish(st);
	return 0;
}

/* audit_load - how many reports were forwarded to recipient since */
long audit_load(struct audit *db, const char *recipient, int64_t since)
{
	long n, same;

	return load(db, recipient, since, since, &n, &same) < 0 ? -1 : n;
}

/* audit_pick_load - forwards to addr since day_start and week_start */
unsigned audit_pick_load(void *ctx, const char *addr, time_t day_start,
			 time_t week_start, unsigned *week)
{
	long day, nweek;

	*week = 0;
	if (load(ctx, addr, (int64_t)day_start, (int64_t)week_start, &day,
		 &nweek) < 0)
		return 0;
	*week = (unsigned)nweek;
	return (unsigned)day;
}

/* audit_load_all - forwards per recipient since, busiest first */
int audit_load_all(struct audit *db, int64_t since,
		   int (*cb)(const char *recipient, long count, void *arg),
		   void *arg)
{
	sqlite3_stmt *st = prep(db, S_LOAD_ALL);
	int rc;

	if (!st || bind_int(db, st, 1, since))
		return -1;
	while ((rc = step_row(db, st, "load")) == 1) {
		int stop = cb(col_text(st, 0),
			      (long)sqlite3_column_int64(st, 1), arg);

		if (stop) {
			finish(st);
			return stop;
		}
	}
	return rc;
}

/* audit_bug_seen - what is known about bug_id */
int audit_bug_seen(struct audit *db, long bug_id, struct audit_bug *bug)
{
	sqlite3_stmt *st = prep(db, S_BUG_GET);
	int rc;

	memset(bug, 0, sizeof(*bug));
	if (!st || bind_int(db, st, 1, bug_id))
		return -1;
	rc = step_row(db, st, "read bug");
	if (rc != 1)
		return rc;
	bug->report = sqlite3_column_int64(st, 0);
	snprintf(bug->last_change_time, sizeof(bug->last_change_time), "%s",
		 col_text(st, 1) ? col_text(st, 1) : "");
	bug->updated_at = sqlite3_column_int64(st, 2);
	finish(st);
	return 1;
}

/* audit_bug_record - remember a bug, its report and its last change */
int audit_bug_record(struct audit *db, long bug_id, int64_t report,
		     const char *last_change_time, int64_t now)
{
	sqlite3_stmt *st = prep(db, S_BUG_PUT);

	if (!st || bind_int(db, st, 1, bug_id) || bind_id(db, st, 2, report) ||
	    bind_text(db, st, 3, last_change_time) ||
	    bind_int(db, st, 4, now_or(now)))
		return -1;
	return step_done(db, st, "record bug");
}

/* audit_event_store - keep a webhook event once (its dedupe key) */
int audit_event_store(struct audit *db, const struct audit_event *ev,
		      int64_t *id)
{
	sqlite3_stmt *st = prep(db, S_EVENT_INS);
	const char *rk = ev->routing_key ? ev->routing_key : "";
	const char *et = ev->event_time ? ev->event_time : "";

	if (!ev->payload)
		return bad(db, "event without payload");
	if (!st || bind_int(db, st, 1, now_or(ev->received_at)) ||
	    bind_int(db, st, 2, ev->webhook_id) ||
	    bind_int(db, st, 3, ev->bug_id) || bind_text(db, st, 4, rk) ||
	    bind_text(db, st, 5, et) || bind_int(db, st, 6, ev->comment_id) ||
	    bind_int(db, st, 7, ev->attachment_id) ||
	    bind_textn(db, st, 8, ev->payload, ev->payload_len) ||
	    step_done(db, st, "store event") < 0)
		return -1;
	if (sqlite3_changes(db->db)) {
		*id = sqlite3_last_insert_rowid(db->db);
		return 1;
	}
	st = prep(db, S_EVENT_FIND);
	if (!st || bind_int(db, st, 1, ev->webhook_id) ||
	    bind_int(db, st, 2, ev->bug_id) || bind_text(db, st, 3, rk) ||
	    bind_text(db, st, 4, et) || bind_int(db, st, 5, ev->comment_id) ||
	    bind_int(db, st, 6, ev->attachment_id))
		return -1;
	if (step_row(db, st, "find event") != 1)
		return -1;
	*id = sqlite3_column_int64(st, 0);
	finish(st);
	return 0;
}

/* audit_event_claim - lease the oldest received event */
int audit_event_claim(struct audit *db, int64_t now, int lease_seconds,
		      struct audit_event_item *item)
{
	sqlite3_stmt *st;
	bool own;
	int64_t id;
	int rc;

	memset(item, 0, sizeof(*item));
	now = now_or(now);
	if (txn_enter(db, &own) < 0)
		return -1;
	st = prep(db, S_EVENT_DUE);
	if (!st || bind_int(db, st, 1, now)) {
		rc = -1;
		goto out;
	}
	rc = step_row(db, st, "find due event");
	if (rc != 1)
		goto out;
	id = sqlite3_column_int64(st, 0);
	finish(st);
	st = prep(db, S_EVENT_TAKE);
	if (!st || bind_int(db, st, 1, id) ||
	    bind_int(db, st, 2,
		     now + (lease_seconds > 0 ? lease_seconds
					      : AUDIT_LEASE_SECONDS))) {
		rc = -1;
		goto out;
	}
	rc = step_row(db, st, "claim event");
	if (rc != 1) {
		if (rc == 0)
			rc = bad(db, "event %lld vanished", (long long)id);
		goto out;
	}
	item->id = id;
	item->received_at = sqlite3_column_int64(st, 0);
	item->webhook_id = (long)sqlite3_column_int64(st, 1);
	item->bug_id = (long)sqlite3_column_int64(st, 2);
	item->routing_key = dup_col(st, 3, NULL);
	item->event_time = dup_col(st, 4, NULL);
	item->comment_id = (long)sqlite3_column_int64(st, 5);
	item->attachment_id = (long)sqlite3_column_int64(st, 6);
	item->payload = dup_col(st, 7, &item->payload_len);
	item->attempts = sqlite3_column_int(st, 8);
	if (step_done(db, st, "claim event") < 0)
		rc = -1;
out:
	rc = txn_leave(db, own, rc);
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

/* audit_event_done - processed; report is what it produced (0: none) */
int audit_event_done(struct audit *db, int64_t id, int64_t report, int64_t now)
{
	sqlite3_stmt *st = prep(db, S_EVENT_DONE);

	if (!st || bind_int(db, st, 1, id) || bind_id(db, st, 2, report) ||
	    bind_int(db, st, 3, now_or(now)))
		return -1;
	return step_done(db, st, "event done");
}

/* audit_event_retry - back to received, not before next_at */
int audit_event_retry(struct audit *db, int64_t id, int64_t next_at,
		      const char *error)
{
	sqlite3_stmt *st = prep(db, S_EVENT_RETRY);

	if (!st || bind_int(db, st, 1, id) || bind_int(db, st, 2, next_at) ||
	    bind_text(db, st, 3, error))
		return -1;
	return step_done(db, st, "event retry");
}

/* audit_event_fail - give up on an event */
int audit_event_fail(struct audit *db, int64_t id, int64_t now,
		     const char *error)
{
	sqlite3_stmt *st = prep(db, S_EVENT_FAIL);

	if (!st || bind_int(db, st, 1, id) ||
	    bind_int(db, st, 2, now_or(now)) || bind_text(db, st, 3, error))
		return -1;
	return step_done(db, st, "event failed");
}

/* audit_digest_cursor - when the section's last digest went out */
int audit_digest_cursor(struct audit *db, const char *section, int64_t *at)
{
	sqlite3_stmt *st = prep(db, S_DIGEST_GET);
	int rc;

	*at = 0;
	if (!st || bind_text(db, st, 1, section))
		return -1;
	rc = step_row(db, st, "read digest cursor");
	if (rc != 1)
		return rc;
	*at = sqlite3_column_int64(st, 0);
	finish(st);
	return 1;
}

/* audit_digest_cursor_set - the section's digest went out at `at` */
int audit_digest_cursor_set(struct audit *db, const char *section, int64_t at)
{
	sqlite3_stmt *st = prep(db, S_DIGEST_PUT);

	if (!st || bind_text(db, st, 1, section) || bind_int(db, st, 2, at))
		return -1;
	return step_done(db, st, "set digest cursor");
}

/* ---- the triager's desk --------------------------------------------------- */

static int walk_pending(struct audit *db, sqlite3_stmt *st,
			int (*cb)(const struct audit_pending *p, void *arg),
			void *arg)
{
	struct audit_pending p;
	int rc;

	while ((rc = step_row(db, st, "list pending")) == 1) {
		int stop;

		p.id = sqlite3_column_int64(st, 0);
		p.outbox_id = sqlite3_column_int64(st, 1);
		p.received_at = sqlite3_column_int64(st, 2);
		p.state = col_text(st, 3);
		p.class = col_text(st, 4);
		p.section = col_text(st, 5);
		p.subject = col_text(st, 6);
		p.from = col_text(st, 7);
		p.reason = col_text(st, 8);
		p.last_error = col_text(st, 9);
		p.regression = sqlite3_column_int(st, 10) != 0;
		p.followups = sqlite3_column_int64(st, 11);
		p.seen_again = sqlite3_column_int64(st, 12);
		stop = cb(&p, arg);
		if (stop) {
			finish(st);
			return stop;
		}
	}
	return rc;
}

/* audit_pending_list - what waits for a human, oldest first */
int audit_pending_list(struct audit *db, const struct audit_pending_filter *f,
		       int (*cb)(const struct audit_pending *p, void *arg),
		       void *arg)
{
	static const struct audit_pending_filter none;
	sqlite3_stmt *st = prep(db, S_PENDING);

	if (!f)
		f = &none;
	if (!st || bind_text(db, st, 1, f->class) ||
	    bind_text(db, st, 2, f->section) ||
	    bind_int(db, st, 3, f->unmapped))
		return -1;
	return walk_pending(db, st, cb, arg);
}

/* audit_digest_list - reports waiting for a digest since, oldest first */
int audit_digest_list(struct audit *db, const char *section, int64_t since,
		      int (*cb)(const struct audit_pending *p, void *arg),
		      void *arg)
{
	sqlite3_stmt *st = prep(db, S_DIGEST_LIST);

	if (!st || bind_text(db, st, 1, section) || bind_int(db, st, 2, since))
		return -1;
	return walk_pending(db, st, cb, arg);
}

/* own - remember an allocation in a record */
static void *own(struct audit_owned *o, void *p)
{
	if (!p)
		return NULL;
	ALLOC_GROW(o->v, o->n, o->alloc);
	o->v[o->n++] = p;
	return p;
}

static void owned_release(struct audit_owned *o)
{
	size_t i;

	for (i = 0; i < o->n; i++)
		free(o->v[i]);
	free(o->v);
	memset(o, 0, sizeof(*o));
}

/* own_col - a copy of a text column (NULL stays NULL) */
static char *own_col(struct audit_owned *o, sqlite3_stmt *st, int i)
{
	const char *s = col_text(st, i);

	return s ? own(o, xmemdup0(s, (size_t)sqlite3_column_bytes(st, i)))
		 : NULL;
}

static void *own_array(struct audit_owned *o, size_t n, size_t size)
{
	return own(o, xcalloc(n ? n : 1, size));
}

/* inflate_raw - the stored bytes as they arrived */
static int inflate_raw(struct audit *db, struct audit_record *rec,
		       sqlite3_stmt *st, int col, bool zlib)
{
	const void *p = sqlite3_column_blob(st, col);
	size_t n = (size_t)sqlite3_column_bytes(st, col);
	char *out;

	if (!zlib) {
		rec->raw = own(&rec->owned, xmemdup0(p ? p : "", n));
		rec->raw_len = n;
		return 0;
	}
	out = unzip_stored(db, rec->id, p, n, rec->size);
	if (!out)
		return -1;
	rec->raw = own(&rec->owned, out);
	rec->raw_len = rec->size;
	return 0;
}

static int get_items(struct audit *db, struct audit_record *rec,
		     const char *kind, char ***out, size_t *n)
{
	sqlite3_stmt *st = prep(db, S_GET_LIST);
	size_t alloc = 0;
	char **v = NULL;
	int rc;

	*n = 0;
	if (!st || bind_int(db, st, 1, rec->id) || bind_text(db, st, 2, kind))
		return -1;
	while ((rc = step_row(db, st, "read evidence list")) == 1) {
		ALLOC_GROW(v, *n, alloc);
		v[(*n)++] = own_col(&rec->owned, st, 0);
	}
	*out = own(&rec->owned, v);
	return rc;
}

static int get_evidence(struct audit *db, struct audit_record *rec)
{
	struct audit_owned *o = &rec->owned;
	sqlite3_stmt *st = prep(db, S_GET_EVIDENCE);
	struct evidence *ev;
	size_t alloc = 0;
	int rc;

	if (!st || bind_int(db, st, 1, rec->id))
		return -1;
	rc = step_row(db, st, "read evidence");
	if (rc != 1)
		return rc;
	ev = own_array(o, 1, sizeof(*ev));
	ev->title = own_col(o, st, 0);
	ev->crash_type = own_col(o, st, 1);
	ev->guilty_file = own_col(o, st, 2);
	ev->kernel_version = own_col(o, st, 3);
	ev->tainted = own_col(o, st, 4);
	ev->hardware = own_col(o, st, 5);
	ev->hw_virtual = sqlite3_column_int(st, 6);
	ev->distro_kernel = own_col(o, st, 7);
	ev->dmesg_timestamps = sqlite3_column_int(st, 8);
	ev->reproducer = (unsigned)sqlite3_column_int(st, 9);
	ev->bisect_commit = own_col(o, st, 10);
	ev->subject_prefix = own_col(o, st, 11);
	ev->syzbot = sqlite3_column_int(st, 12);
	finish(st);
	rec->evidence = ev;

	st = prep(db, S_GET_FRAMES);
	if (!st || bind_int(db, st, 1, rec->id))
		return -1;
	while ((rc = step_row(db, st, "read frames")) == 1) {
		struct frame *f;

		ALLOC_GROW(ev->frames, ev->nframes, alloc);
		f = &ev->frames[ev->nframes++];
		memset(f, 0, sizeof(*f));
		f->function = own_col(o, st, 0);
		f->file = own_col(o, st, 1);
		f->line = sqlite3_column_int(st, 2);
		f->module = own_col(o, st, 3);
		f->offset = (unsigned long)sqlite3_column_int64(st, 4);
		f->size = (unsigned long)sqlite3_column_int64(st, 5);
		f->inlined = sqlite3_column_int(st, 6);
		f->unreliable = sqlite3_column_int(st, 7);
		f->from_index = sqlite3_column_int(st, 8);
	}
	own(o, ev->frames);
	if (rc < 0)
		return -1;
	if (get_items(db, rec, "file", &ev->files, &ev->nfiles) < 0 ||
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
	struct audit_owned *o = &rec->owned;
	sqlite3_stmt *st = prep(db, S_GET_CLASS);
	struct audit_classification *c;
	struct audit_rule_hit *hits = NULL;
	size_t n = 0, alloc = 0;
	int rc;

	if (!st || bind_int(db, st, 1, rec->id))
		return -1;
	rc = step_row(db, st, "read classification");
	if (rc != 1)
		return rc;
	c = own_array(o, 1, sizeof(*c));
	c->class = own_col(o, st, 0);
	c->score_user = sqlite3_column_double(st, 1);
	c->score_fuzzer = sqlite3_column_double(st, 2);
	c->score_ai = sqlite3_column_double(st, 3);
	c->confidence = sqlite3_column_double(st, 4);
	c->certain = sqlite3_column_int(st, 5);
	c->model_version = own_col(o, st, 6);
	c->header = own_col(o, st, 7);
	c->at = sqlite3_column_int64(st, 8);
	finish(st);
	rec->classification = c;

	st = prep(db, S_GET_HITS);
	if (!st || bind_int(db, st, 1, rec->id))
		return -1;
	while ((rc = step_row(db, st, "read rule hits")) == 1) {
		ALLOC_GROW(hits, n, alloc);
		hits[n].name = own_col(o, st, 0);
		hits[n].score = sqlite3_column_double(st, 1);
		hits[n].describe = own_col(o, st, 2);
		n++;
	}
	c->hits = own(o, hits);
	c->nhits = n;
	return rc < 0 ? -1 : 1;
}

static int get_lists(struct audit *db, struct audit_record *rec)
{
	struct audit_owned *o = &rec->owned;
	sqlite3_stmt *st;
	size_t alloc;
	int rc;

	st = prep(db, S_GET_SECTIONS);
	if (!st || bind_int(db, st, 1, rec->id))
		return -1;
	alloc = 0;
	while ((rc = step_row(db, st, "read sections")) == 1) {
		struct audit_section *s;

		ALLOC_GROW(rec->sections, rec->nsections, alloc);
		s = &rec->sections[rec->nsections++];
		s->name = own_col(o, st, 0);
		s->score = sqlite3_column_double(st, 1);
		s->why = own_col(o, st, 2);
	}
	own(o, rec->sections);
	if (rc < 0)
		return -1;

	st = prep(db, S_GET_DECISIONS);
	if (!st || bind_int(db, st, 1, rec->id))
		return -1;
	alloc = 0;
	while ((rc = step_row(db, st, "read decisions")) == 1) {
		struct audit_decision *d;

		ALLOC_GROW(rec->decisions, rec->ndecisions, alloc);
		d = &rec->decisions[rec->ndecisions++];
		d->id = sqlite3_column_int64(st, 0);
		d->at = sqlite3_column_int64(st, 1);
		d->action = own_col(o, st, 2);
		d->recipient = own_col(o, st, 3);
		d->recipient_name = own_col(o, st, 4);
		d->reason = own_col(o, st, 5);
		d->candidates = own_col(o, st, 6);
	}
	own(o, rec->decisions);
	if (rc < 0)
		return -1;

	st = prep(db, S_GET_ACTIONS);
	if (!st || bind_int(db, st, 1, rec->id))
		return -1;
	alloc = 0;
	while ((rc = step_row(db, st, "read actions")) == 1) {
		struct audit_action *a;

		ALLOC_GROW(rec->actions, rec->nactions, alloc);
		a = &rec->actions[rec->nactions++];
		a->id = sqlite3_column_int64(st, 0);
		a->report = rec->id;
		a->at = sqlite3_column_int64(st, 1);
		a->who = own_col(o, st, 2);
		a->action = own_col(o, st, 3);
		a->argument = own_col(o, st, 4);
		a->previous = own_col(o, st, 5);
		a->detail = own_col(o, st, 6);
	}
	own(o, rec->actions);
	return rc < 0 ? -1 : 0;
}

static int get_outbox(struct audit *db, struct audit_record *rec)
{
	struct audit_owned *o = &rec->owned;
	sqlite3_stmt *st = prep(db, S_GET_OUTBOX);
	size_t alloc = 0, i;
	int rc;

	if (!st || bind_int(db, st, 1, rec->id))
		return -1;
	while ((rc = step_row(db, st, "read outbox")) == 1) {
		struct audit_outbox_info *b;

		ALLOC_GROW(rec->outbox, rec->noutbox, alloc);
		b = &rec->outbox[rec->noutbox++];
		memset(b, 0, sizeof(*b));
		b->id = sqlite3_column_int64(st, 0);
		b->created_at = sqlite3_column_int64(st, 1);
		b->next_attempt_at = sqlite3_column_int64(st, 2);
		b->sent_at = sqlite3_column_int64(st, 3);
		b->kind = own_col(o, st, 4);
		b->state = own_col(o, st, 5);
		b->envelope_from = own_col(o, st, 6);
		b->recipients = own_col(o, st, 7);
		b->last_error = own_col(o, st, 8);
		b->attempts = sqlite3_column_int(st, 9);
		b->message_len = (size_t)sqlite3_column_int64(st, 10);
	}
	own(o, rec->outbox);
	if (rc < 0)
		return -1;
	for (i = 0; i < rec->noutbox; i++) {
		struct audit_outbox_info *b = &rec->outbox[i];

		alloc = 0;
		st = prep(db, S_GET_ATTEMPTS);
		if (!st || bind_int(db, st, 1, b->id))
			return -1;
		while ((rc = step_row(db, st, "read attempts")) == 1) {
			struct audit_attempt *t;

			ALLOC_GROW(b->tries, b->ntries, alloc);
			t = &b->tries[b->ntries++];
			t->at = sqlite3_column_int64(st, 0);
			t->ok = sqlite3_column_int(st, 1);
			t->smtp_code = sqlite3_column_int(st, 2);
			t->detail = own_col(o, st, 3);
		}
		own(o, b->tries);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* audit_get_report - everything known about one report */
int audit_get_report(struct audit *db, int64_t id, unsigned flags,
		     struct audit_record *rec)
{
	struct audit_owned *o = &rec->owned;
	sqlite3_stmt *st = prep(db, S_GET_REPORT);
	const char *sha, *enc;
	int rc;

	memset(rec, 0, sizeof(*rec));
	if (!st || bind_int(db, st, 1, id) ||
	    bind_int(db, st, 2, !!(flags & AUDIT_GET_RAW)))
		return -1;
	rc = step_row(db, st, "read report");
	if (rc != 1)
		return rc;
	rec->id = id;
	sha = col_text(st, 0);
	snprintf(rec->sha256, sizeof(rec->sha256), "%s", sha ? sha : "");
	rec->message_id = own_col(o, st, 1);
	rec->received_at = sqlite3_column_int64(st, 2);
	rec->updated_at = sqlite3_column_int64(st, 3);
	rec->source = own_col(o, st, 4);
	rec->envelope_from = own_col(o, st, 5);
	rec->envelope_to = own_col(o, st, 6);
	rec->from_addr = own_col(o, st, 7);
	rec->from_display = own_col(o, st, 8);
	rec->subject = own_col(o, st, 9);
	rec->date_header = own_col(o, st, 10);
	rec->bug_id = (long)sqlite3_column_int64(st, 11);
	rec->bug_url = own_col(o, st, 12);
	rec->size = (size_t)sqlite3_column_int64(st, 13);
	rec->flags = (unsigned)sqlite3_column_int(st, 14);
	rec->state = own_col(o, st, 15);
	rec->class = own_col(o, st, 16);
	rec->duplicate_of = sqlite3_column_int64(st, 17);
	rec->deliveries = sqlite3_column_int(st, 18);
	rec->kind = own_col(o, st, 22);
	enc = col_text(st, 19);
	if (col_text(st, 20)) {
		rec->body = own_col(o, st, 20);
		rec->body_len = (size_t)sqlite3_column_bytes(st, 20);
	}
	rc = 0;
	if ((flags & AUDIT_GET_RAW) && enc)
		rc = inflate_raw(db, rec, st, 21, !strcmp(enc, "zlib"));
	finish(st);
	if (rc < 0 || get_evidence(db, rec) < 0 ||
	    get_classification(db, rec) < 0 || get_lists(db, rec) < 0 ||
	    get_outbox(db, rec) < 0) {
		audit_record_release(rec);
		return -1;
	}
	return 1;
}

/* audit_record_release - free everything a record holds */
void audit_record_release(struct audit_record *rec)
{
	owned_release(&rec->owned);
	memset(rec, 0, sizeof(*rec));
}

/* audit_log_list - reports, decisions, deliveries and actions since */
int audit_log_list(struct audit *db, int64_t since,
		   int (*cb)(const struct audit_log_entry *e, void *arg),
		   void *arg)
{
	sqlite3_stmt *st = prep(db, S_LOG);
	struct audit_log_entry e;
	int rc;

	if (!st || bind_int(db, st, 1, since))
		return -1;
	while ((rc = step_row(db, st, "read log")) == 1) {
		int stop;

		e.at = sqlite3_column_int64(st, 0);
		e.report = sqlite3_column_int64(st, 1);
		e.kind = col_text(st, 2);
		e.who = col_text(st, 3);
		e.what = col_text(st, 4);
		e.argument = col_text(st, 5);
		e.detail = col_text(st, 6);
		e.msg_kind = col_text(st, 7);
		stop = cb(&e, arg);
		if (stop) {
			finish(st);
			return stop;
		}
	}
	return rc;
}

static int stat_counts(struct audit *db, enum sid id, int64_t since,
		       struct audit_owned *o, struct audit_count **out,
		       size_t *n)
{
	sqlite3_stmt *st = prep(db, id);
	struct audit_count *v = NULL;
	size_t alloc = 0;
	int rc;

	*n = 0;
	if (!st || bind_int(db, st, 1, since))
		return -1;
	while ((rc = step_row(db, st, "stats")) == 1) {
		ALLOC_GROW(v, *n, alloc);
		v[*n].name = own_col(o, st, 0);
		v[*n].count = (long)sqlite3_column_int64(st, 1);
		(*n)++;
	}
	*out = own(o, v);
	return rc;
}

/* stat_row - the first row of a statement, columns as longs */
static int stat_row(struct audit *db, enum sid id, int64_t since, bool bind,
		    long *a, long *b)
{
	sqlite3_stmt *st = prep(db, id);

	if (!st || (bind && bind_int(db, st, 1, since)))
		return -1;
	if (step_row(db, st, "stats") != 1)
		return -1;
	*a = (long)sqlite3_column_int64(st, 0);
	if (b)
		*b = (long)sqlite3_column_int64(st, 1);
	finish(st);
	return 0;
}

static int stat_wait(struct audit *db, struct audit_stats *s)
{
	sqlite3_stmt *st = prep(db, S_ST_WAIT);
	int64_t *v = NULL;
	size_t n = 0, alloc = 0;
	int rc;

	s->median_pending = -1;
	if (!st || bind_int(db, st, 1, s->since))
		return -1;
	while ((rc = step_row(db, st, "stats")) == 1) {
		ALLOC_GROW(v, n, alloc);
		v[n++] = sqlite3_column_int64(st, 0);
	}
	/* sorted by the query */
	if (rc == 0 && n)
		s->median_pending = n % 2 ? (double)v[n / 2]
					  : (v[n / 2 - 1] + v[n / 2]) / 2.0;
	s->resolved = (long)n;
	free(v);
	return rc;
}

/* audit_stats - figures over the reports received since */
int audit_stats(struct audit *db, int64_t since, struct audit_stats *s)
{
	struct audit_owned *o = &s->owned;

	memset(s, 0, sizeof(*s));
	s->since = since;
	if (stat_row(db, S_ST_REPORTS, since, true, &s->reports, NULL) < 0 ||
	    stat_row(db, S_ST_PENDING, since, false, &s->pending, NULL) < 0 ||
	    stat_counts(db, S_ST_STATE, since, o, &s->by_state, &s->nby_state) <
		    0 ||
	    stat_counts(db, S_ST_CLASS, since, o, &s->by_class, &s->nby_class) <
		    0 ||
	    stat_counts(db, S_ST_KIND, since, o, &s->by_kind, &s->nby_kind) <
		    0 ||
	    stat_counts(db, S_ST_SECTION, since, o, &s->by_section,
			&s->nby_section) < 0 ||
	    stat_counts(db, S_ST_RECIPIENT, since, o, &s->by_recipient,
			&s->nby_recipient) < 0 ||
	    stat_wait(db, s) < 0 ||
	    stat_row(db, S_ST_DELIVERY, since, true, &s->delivery_attempts,
		     &s->delivery_failures) < 0 ||
	    stat_row(db, S_ST_OUTBOX, since, false, &s->outbox_failed,
		     &s->outbox_queued) < 0) {
		audit_stats_release(s);
		return -1;
	}
	return 0;
}

/* audit_stats_release - free the count arrays */
void audit_stats_release(struct audit_stats *s)
{
	owned_release(&s->owned);
	memset(s, 0, sizeof(*s));
}

/* audit_corrections - classifier's class vs triager's, for retraining */
int audit_corrections(struct audit *db,
		      int (*cb)(const struct audit_correction *c, void *arg),
		      void *arg)
{
	sqlite3_stmt *st = prep(db, S_CORRECTIONS);
	struct audit_correction c;
	int rc;

	if (!st)
		return -1;
	while ((rc = step_row(db, st, "read corrections")) == 1) {
		int stop;

		c.report = sqlite3_column_int64(st, 0);
		c.old_class = col_text(st, 1);
		c.new_class = col_text(st, 2);
		c.who = col_text(st, 3);
		c.at = sqlite3_column_int64(st, 4);
		c.subject = col_text(st, 5);
		c.body = col_text(st, 6);
		c.body_len = (size_t)sqlite3_column_bytes(st, 6);
		stop = cb(&c, arg);
		if (stop) {
			finish(st);
			return stop;
		}
	}
	return rc;
}

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
	st = prep(db, S_COMPRESS_GET);
	if (!st || bind_int(db, st, 1, id))
		goto out;
	rc = step_row(db, st, "read message");
	if (rc != 1)
		goto out;
	p = sqlite3_column_blob(st, 0);
	n = (uLongf)sqlite3_column_bytes(st, 0);
	out_len = compressBound(n);
	out = xmalloc(out_len);
	rc = compress2(out, &out_len, p ? p : (const Bytef *)"", n, 6);
	finish(st);
	if (rc != Z_OK) {
		rc = bad(db, "report %lld: zlib error %d", (long long)id, rc);
		goto out;
	}
	rc = 0;
	/* Keep the bytes as they are unless compression saves a tenth. */
	if (out_len >= n - n / 10)
		goto out;
	st = prep(db, S_COMPRESS_PUT);
	if (!st || bind_int(db, st, 1, id) ||
	    bind_blob(db, st, 2, out, out_len) ||
	    step_done(db, st, "store compressed message") < 0) {
		rc = -1;
		goto out;
	}
	*done = true;
out:
	free(out);
	if (rc < 0) {
		audit_rollback(db);
		return -1;
	}
	return audit_commit(db);
}

/* audit_compress_messages - compress old large messages, one per commit */
int audit_compress_messages(struct audit *db, int64_t before, size_t min_size,
			    long *count)
{
	sqlite3_stmt *st = prep(db, S_COMPRESS_LIST);
	int64_t *ids = NULL;
	size_t n = 0, alloc = 0, i;
	int rc;

	*count = 0;
	if (!st || bind_int(db, st, 1, before) ||
	    bind_int(db, st, 2, (int64_t)min_size))
		return -1;
	while ((rc = step_row(db, st, "list messages")) == 1) {
		ALLOC_GROW(ids, n, alloc);
		ids[n++] = sqlite3_column_int64(st, 0);
	}
	for (i = 0; rc == 0 && i < n; i++) {
		bool done;

		rc = compress_one(db, ids[i], &done);
		if (done)
			(*count)++;
	}
	free(ids);
	return rc;
}
