/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * audit - the SQLite database every program shares
 *
 * DESCRIPTION
 *	The audit stage and the triager's desk.  triage-filter records a
 *	report, its evidence, scores, sections, the decision and any mail
 *	to send in ONE transaction and exits 0 only after the commit;
 *	'triage deliver' drains the outbox; 'triage serve' stores Bugzilla
 *	events; the triage commands read and annotate reports.  Every
 *	statement is prepared with bound parameters: no SQL text is ever
 *	built from data.
 *
 *	Many short-lived writer processes share the file, so every
 *	connection uses WAL (set once, persistent), synchronous=NORMAL (a
 *	commit survives a process crash; the newest commits may be lost on
 *	power loss), busy_timeout (default 5000 ms) and foreign_keys, and
 *	every writing transaction starts with BEGIN IMMEDIATE (a deferred
 *	read-then-write transaction fails with SQLITE_BUSY_SNAPSHOT under
 *	contention whatever the timeout).  Processes racing to create a
 *	new database retry the switch to WAL, which SQLite does not hand
 *	to the busy handler.
 *
 *	The filter's connection (AUDIT_FILTER: a one-shot filter, or a
 *	resident worker's) sets SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE: as the
 *	last connection a one-shot filter's close would checkpoint and
 *	delete the WAL, a cost on every message.  But a process that opens
 *	the database while no other connection is open rebuilds the WAL
 *	index by reading the whole WAL and forgets what was checkpointed,
 *	so with one process per message the WAL would grow without bound
 *	(and each message's CPU with it).  So an AUDIT_FILTER close still
 *	checkpoints once its commit left the WAL at
 *	AUDIT_FILTER_CKPT_FRAMES pages or more.  A resident process with
 *	the database open ('triage deliver', a resident filter) keeps the
 *	WAL index alive: then every filter process skips that rebuild and
 *	SQLite's own autocheckpoint keeps the WAL small.  audit_open()
 *	also turns off SQLite's allocation statistics
 *	(SQLITE_CONFIG_MEMSTATUS, process-wide), whose global mutex every
 *	malloc takes and nothing reads.
 *
 *	Permissions: the MTA runs the filter as nobody with umask 077, the
 *	triagers and the daemons as themselves.  They share a group.
 *	audit_open(AUDIT_CREATE) creates missing directories with mode
 *	02770 and the database file with mode 0660 whatever the umask
 *	(SQLite gives -wal and -shm the database file's mode), so files
 *	are group-writable; a reader needs write access to the directory
 *	to create -shm/-wal when they do not exist.  The group is the
 *	directory's (setgid): create the state directory once with the
 *	shared group (install -d -g triage -m 2770).  WAL does not work on
 *	network filesystems.
 *
 * FILES: where the SQL for each concern is
 *	db.[ch]         the connection: open, pragmas, WAL, close, errors,
 *	                transactions; the statement cache, binding values,
 *	                reading rows (db.h: internal to router/store/)
 *	schema.c        the tables (migrations) and user_version
 *	reports.c       the filter's transaction: a report, its message,
 *	                evidence, classification, sections, decision, a
 *	                fix proposed; duplicates; stored bytes compressed
 *	reports_read.c  a report read back with all that was recorded
 *	outbox.c        mail queued, leased, sent, retried, failed, cancelled
 *	actions.c       a triager's action applied to its report
 *	threads.c       threads, same-crash groups, regressions
 *	desk.c          pending, digests, log, figures, corrections, loads
 *	fixes.c         commits that fixed reports; reminders
 *	bugzilla.c      bugs and webhook events
 *	Each section below names its file.
 *
 * SCHEMA (PRAGMA user_version = AUDIT_SCHEMA_VERSION)
 *	Written once, as SQL: the migrations of schema.c (a new database
 *	runs them all).  triage(1), DATABASE, describes every
 *	table, column and value; tests/cli/t0150-schema-doc.sh compares it
 *	with a fresh database.  Per-report lists are JSON arrays in one
 *	column (one bound value per list, not one row per item: what the
 *	per-message process can afford), written with jansson and read
 *	with SQLite's json_each().
 *
 * Ownership:
 *	Input structs are borrowed for the call.  Output records
 *	(audit_record, audit_stats, audit_outbox_item, audit_event_item)
 *	own their strings until their release function; strings passed to
 *	callbacks are valid only during the callback.
 *
 * Errors:
 *	Functions print a message and return -1.  audit_temporary() (or
 *	audit_open()'s *temporary) tells whether the failure may pass by
 *	itself (BUSY, LOCKED, IOERR, FULL, CANTOPEN, READONLY, NOMEM):
 *	the filter then exits 75 and the MTA retries.  A failed statement
 *	inside audit_begin()..audit_commit() leaves the transaction open:
 *	call audit_rollback().
 */
#ifndef TRIAGE_AUDIT_H
#define TRIAGE_AUDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

struct audit;
struct audit_links;
struct report;
struct evidence;

#define AUDIT_SCHEMA_VERSION	 13
#define AUDIT_BUSY_TIMEOUT_MS	 5000
#define AUDIT_LEASE_SECONDS	 600 /* default: see audit_outbox_claim_due() */
#define AUDIT_FILTER_CKPT_FRAMES 128 /* AUDIT_FILTER: checkpoint on close */

enum {
	AUDIT_CREATE = 1 << 0,	  /* create directory and database */
	AUDIT_RDONLY = 1 << 1,	  /* read only: never migrates */
	AUDIT_FILTER = 1 << 2,	  /* the filter's: no ckpt on close */
	AUDIT_NOMIGRATE = 1 << 3, /* keep an older schema (tests) */
};

/* ---- lifecycle (db.c; migrations: schema.c) ------------------------------ */

int audit_open(const char *path, unsigned flags, int busy_timeout_ms,
	       struct audit **out, bool *temporary);
void audit_close(struct audit *db);
/*
 * audit_end - audit_close() for a process that ends right after: the
 * close only when it has something to write (a checkpoint due, or a
 * transaction open), else the connection is left to the process's end
 */
void audit_end(struct audit *db);
bool audit_temporary(const struct audit *db);
const char *audit_errmsg(const struct audit *db);
int audit_set_cache(struct audit *db, unsigned cache_kib, unsigned spill_kib);
int audit_user_version(struct audit *db);
int audit_migrate(struct audit *db, int target);

/* the writing transaction: BEGIN IMMEDIATE ... COMMIT */
int audit_begin(struct audit *db);
int audit_commit(struct audit *db);
void audit_rollback(struct audit *db);
/*
 * audit_savepoint - a step inside the open transaction;
 * audit_savepoint_end(db, keep) keeps it, or undoes it alone (the
 * failure that made the caller undo stays audit_errmsg()); 0 or -1
 */
int audit_savepoint(struct audit *db);
int audit_savepoint_end(struct audit *db, bool keep);

/* ---- the filter's transaction (reports.c) -------------------------------- */

enum {
	AUDIT_DUP_NONE = 0,
	AUDIT_DUP_SHA256 = 1,	  /* the very same bytes */
	AUDIT_DUP_MESSAGE_ID = 2, /* other bytes, same Message-ID */
};

/*
 * audit_find_duplicate - the report with this sha256, else the first
 * non-duplicate report with this Message-ID (NULL: sha256 only); returns
 * AUDIT_DUP_*, *id set when found.  Call it inside the transaction that
 * inserts, so that two deliveries of one message cannot both miss.
 */
int audit_find_duplicate(struct audit *db, const char *sha256,
			 const char *message_id, int64_t *id);
/*
 * audit_find_duplicate_from - audit_find_duplicate() where a Message-ID
 * counts only from the same source ("mail", "bugzilla") and the same
 * sender (From or envelope): anyone can write any Message-ID, and one
 * seen first must not make someone else's mail a duplicate
 */
int audit_find_duplicate_from(struct audit *db, const struct report *r,
			      int64_t *id);
/* audit_replies_since - automatic replies queued to addr since; -1 */
long audit_replies_since(struct audit *db, const char *addr, int64_t since);

/*
 * audit_set_sendable - keep, beside report's message as it came, the
 * copy that can go over SMTP (messages.sendable: parse_sendable());
 * audit_sendable - that copy in a new buffer *out (the caller frees):
 * 1, 0 when there is none, -1
 */
int audit_set_sendable(struct audit *db, int64_t report, const void *p,
		       size_t len);
int audit_sendable(struct audit *db, int64_t report, char **out, size_t *len);
/*
 * audit_forwards_from - messages received since whose From address or
 * envelope sender is addr (any case) and that went out to someone: a
 * "forward" decision, or a follow-up sent on (sender_cap); -1
 */
long audit_forwards_from(struct audit *db, const char *addr, int64_t since);
/*
 * audit_forwards_from_net - the same for the messages whose client
 * network (reports.client_net, "192.0.2.0/24") is net (client_cap); -1
 */
long audit_forwards_from_net(struct audit *db, const char *net, int64_t since);
/*
 * audit_find_duplicate_from - audit_find_duplicate() where a Message-ID
 * counts only from the same source ("mail", "bugzilla") and the same
 * sender (From or envelope): anyone can write any Message-ID, and one
 * seen first must not make someone else's mail a duplicate
 */
int audit_find_duplicate_from(struct audit *db, const struct report *r,
			      int64_t *id);
/* audit_replies_since - automatic replies queued to addr since; -1 */
long audit_replies_since(struct audit *db, const char *addr, int64_t since);
/* audit_note_redelivery - the MTA delivered report id's bytes again */
int audit_note_redelivery(struct audit *db, int64_t id, int64_t now);

/*
 * AUDIT_MESSAGE_LATE_MIN: a message of at least these many bytes, stored
 * inside a transaction (audit_begin()), is inserted as zeros and then
 * written into its row (incremental blob I/O), which spares SQLite's
 * copy of it; its body is then stored as a BLOB of the same UTF-8
 * bytes.  A smaller message, or one stored outside a transaction, goes
 * in with the INSERT.
 */
#define AUDIT_MESSAGE_LATE_MIN (256u << 10)

/*
 * audit_insert_report - store r (identity, headers, raw bytes, body);
 * state is a report state, duplicate_of 0 or the original's id
 */
int audit_insert_report(struct audit *db, const struct report *r,
			int64_t received_at, const char *state,
			int64_t duplicate_of, int64_t *id);
int audit_set_state(struct audit *db, int64_t report, const char *state,
		    int64_t now);
int audit_insert_evidence(struct audit *db, int64_t report,
			  const struct evidence *ev);

struct audit_rule_hit {
	const char *name;
	double score;
	const char *describe;
};

struct audit_classification {
	const char *class; /* user, fuzzer, ai, uncertain */
	double score_user, score_fuzzer, score_ai;
	double confidence;
	bool certain;
	const char *model_version;
	const char *header; /* X-Triage-Class value */
	int64_t at;	    /* 0: now */
	const struct audit_rule_hit *hits;
	size_t nhits;
	bool class_stored; /* reports.class already is class: no UPDATE */
};

/*
 * audit_insert_classification - scores and hits; also sets reports.class
 * (and updated_at to at) unless c->class_stored
 */
int audit_insert_classification(struct audit *db, int64_t report,
				const struct audit_classification *c);

struct audit_section {
	const char *name; /* MAINTAINERS section title */
	double score;
	const char *why;
};

/* audit_insert_sections - v[0] is the best section (rank 0) */
int audit_insert_sections(struct audit *db, int64_t report,
			  const struct audit_section *v, size_t n);

/*
 * struct audit_report_row - a new report row with what would otherwise
 * be UPDATEd into it after audit_insert_report(): its links (as
 * audit_set_links() sets them in reports), its class (as
 * audit_insert_classification()) and its sections (as
 * audit_insert_sections()).  One INSERT writes the row once: a row
 * that grows after its INSERT makes SQLite rebalance the last leaves
 * of reports (more than twice the pages of reports written per
 * filtered report).  Schema 3 or later.
 */
struct audit_report_row {
	int64_t received_at; /* 0: now; also updated_at */
	const char *state;
	const char *kind;		 /* kind.h's name; NULL: "report" */
	int64_t duplicate_of;		 /* 0: none */
	const struct audit_links *links; /* NULL: none */
	const char *class;		 /* NULL: unclassified */
	bool has_sections; /* false: sections NULL, as never set */
	const struct audit_section *sections; /* best first */
	size_t nsections;
};

/*
 * audit_insert_report_row - audit_insert_report() with the row's later
 * columns set by the INSERT: the same row as audit_insert_report(),
 * then audit_set_links() (its reports columns only: the regression
 * versions go to the evidence row, see audit_set_regression()),
 * audit_insert_classification() and audit_insert_sections() would
 * leave, with updated_at = received_at
 */
int audit_insert_report_row(struct audit *db, const struct report *r,
			    const struct audit_report_row *row, int64_t *id);

struct audit_decision {
	int64_t id;	    /* set when read back */
	int64_t at;	    /* 0: now */
	const char *action; /* forward, hold, digest, reply, duplicate */
	const char *recipient;
	const char *recipient_name;
	const char *reason;
	const char *candidates; /* "address score why\n" per candidate */
	/*
	 * the filter found the report security-sensitive: why ("KASAN
	 * memory-safety crash"); NULL, it did not (or not the filter's)
	 */
	const char *security;
};

int audit_insert_decision(struct audit *db, int64_t report,
			  const struct audit_decision *d, int64_t *id);

/* ---- outbox (outbox.c) --------------------------------------------------- */

struct audit_outbox_new {
	int64_t report;	    /* 0: none (a digest) */
	const char *kind;   /* forward, digest, reply, bugzilla */
	int64_t created_at; /* 0: now */
	int64_t not_before; /* first attempt; 0: at once */
	const char *envelope_from;
	const char *recipients; /* one address per line */
	const void *message;	/* the whole message, or its head */
	size_t message_len;
	/*
	 * raw_report: 0, or the report whose stored bytes end the message
	 * (a forward: the original is stored once).  message is then only
	 * the head, and the message sent is the head followed by the
	 * report's bytes from raw_offset on; raw_len is their whole length
	 * (checked against the stored report).
	 */
	int64_t raw_report;
	size_t raw_offset, raw_len;
};

/*
 * audit_outbox_enqueue - queue a message; every reader (claim, show)
 * sees the whole message, head and stored bytes put together
 */
int audit_outbox_enqueue(struct audit *db, const struct audit_outbox_new *m,
			 int64_t *id);

struct audit_outbox_item {
	int64_t id, report, created_at;
	int attempts; /* including this one: the claim's token */
	int64_t lease_until;
	char *kind, *envelope_from, *recipients;
	char *message; /* NUL-terminated copy */
	size_t message_len;
};

/*
 * audit_outbox_claim_due - take the oldest due row (queued and due, or
 * sending with an expired lease), mark it sending for lease_seconds
 * and count the attempt; returns 1 and fills item, 0 when nothing is
 * due.  Two workers never hold the same row while a lease runs, so the
 * lease must outlast the whole send: with libcurl, one transaction
 * (SMTP_TIMEOUT_MS) per recipient of the row, plus a margin.
 */
int audit_outbox_claim_due(struct audit *db, int64_t now, int lease_seconds,
			   bool mail_only, struct audit_outbox_item *item);
void audit_outbox_item_release(struct audit_outbox_item *item);

/*
 * Outcome of a claimed row; each records a delivery attempt.  They
 * return 0, or 1 when the lease had expired and another worker claimed
 * the row since (the state is then left to that worker).
 * audit_outbox_retry() queues the row again for next_at (from
 * deliver_backoff(), the one retry schedule); audit_outbox_fail() gives
 * up and marks the report failed, so that it shows in pending.
 */
int audit_outbox_done(struct audit *db, const struct audit_outbox_item *it,
		      int64_t now, int smtp_code, const char *detail);
int audit_outbox_retry(struct audit *db, const struct audit_outbox_item *it,
		       int64_t now, int64_t next_at, int smtp_code,
		       const char *error);
int audit_outbox_fail(struct audit *db, const struct audit_outbox_item *it,
		      int64_t now, int smtp_code, const char *error);
/* audit_outbox_requeue - a failed row goes back to queued (approve) */
int audit_outbox_requeue(struct audit *db, int64_t outbox, int64_t now);
/* audit_outbox_cancel - a queued or failed row will never be sent */
int audit_outbox_cancel(struct audit *db, int64_t outbox);

/*
 * Rows a temporary failure left waiting (queued, tried, next attempt
 * after now): audit_outbox_waiting_list() walks them, soonest first
 * (texts borrowed for the callback); audit_outbox_retry_now() makes
 * them all due now ('triage deliver --retry-now') and returns how many.
 */
struct audit_outbox_waiting {
	int64_t id;
	const char *kind, *recipients;
	int attempts;
	int64_t next_attempt_at;
	const char *last_error;
};

int audit_outbox_waiting_list(struct audit *db, int64_t now,
			      int (*cb)(const struct audit_outbox_waiting *w,
					void *arg),
			      void *arg);
int audit_outbox_retry_now(struct audit *db, int64_t now);
/*
 * audit_outbox_set_message - new bytes for a queued row (a digest that
 * lost a report); 0, or 1 when the row is not queued any more
 */
int audit_outbox_set_message(struct audit *db, int64_t outbox,
			     const void *message, size_t len);

/* ---- triager actions (actions.c) ----------------------------------------- */

struct audit_action {
	int64_t id;	 /* set when read back */
	int64_t report;	 /* 0: none */
	int64_t at;	 /* 0: now */
	const char *who; /* login name */
	/*
	 * approve reroute reclassify reject note digest; dup (argument:
	 * the other report's id: report joins its crash group), undup
	 * (report leaves its group; back to held when it only waited as
	 * "seen again"), release (argument: the new class, set by the
	 * router, not a triager's correction), thread (a follow-up merged)
	 */
	const char *action;
	const char *argument; /* new class, section or address, or NULL */
	const char *previous; /* filled in by audit_record_action() */
	const char *detail;
};

/*
 * audit_record_action - log a triager's action and apply it to the
 * report in the same transaction: approve -> state approved, reject ->
 * state rejected and its queued or failed outbox rows cancelled,
 * digest -> state digest, reroute -> state forwarded (the caller adds
 * the new decision and outbox row), reclassify -> class = argument.
 * "previous" records the state, class or last recipient before.
 */
int audit_record_action(struct audit *db, const struct audit_action *a,
			int64_t *id);

/* ---- fixes (reports.c; schema 7) --------------------------------------- */

/*
 * A fix proposed for a report (a patch mail that names it, kind.h and
 * thread.h), or a commit that fixed it.  Every field but report, at
 * and state may be NULL.
 */
/*
 * how a fix proposed by someone who is not one of the report's people
 * ends (its reporter, recipient, its section's M: or R:, checked by
 * authserv_id when the site names one): recorded and shown, but the
 * report's reminders go on (anyone can write "Closes:")
 */
#define AUDIT_FIX_NOT_A_PARTY " (not a party)"

struct audit_fix {
	int64_t report;	       /* the report fixed */
	int64_t at;	       /* 0: now */
	const char *state;     /* "proposed" or "fixed" */
	int64_t source_report; /* the patch's own row, or 0 */
	const char *message_id, *subject;
	const char *commit_sha, *tree;
	const char *how; /* "In-Reply-To", "Closes:", "Reported-by:" ... */
};

int audit_insert_fix(struct audit *db, const struct audit_fix *f, int64_t *id);

/* ---- fixes from git, reminders (fixes.c; schema 10) ---------------------- */

/*
 * audit_message_id - the Message-ID of report id, a mail (not a Bugzilla
 * bug: its Message-ID is made up), into out: 1, 0 (none), -1
 */
int audit_message_id(struct audit *db, int64_t id, char *out, size_t size);

/*
 * audit_mark_fixed - f (its report and commit_sha set) fixed its report:
 * the fix row, the report's state 'fixed' and an action 'fixed' by who
 * (argument: the short commit; detail: the tree), in one transaction.
 * 1 when recorded, 0 when that commit is already recorded as its fix
 * (an import read twice changes nothing), -1 on error.
 */
int audit_mark_fixed(struct audit *db, const struct audit_fix *f,
		     const char *who);

/*
 * audit_fix_proposed_by - the report the patch mail `patch` (its row)
 * is a fix proposed for: 1 and *report, 0 when none, -1
 */
int audit_fix_proposed_by(struct audit *db, int64_t patch, int64_t *report);

struct audit_fixed {
	int64_t report, at;
	const char *commit_sha, *tree, *subject, *how;
	const char *state; /* the report's state now */
};

/* audit_fixed_list - the commits that fixed reports since, oldest first */
int audit_fixed_list(struct audit *db, int64_t since,
		     int (*cb)(const struct audit_fixed *f, void *arg),
		     void *arg);

/* a report that waits for the person it was forwarded to */
struct audit_remind {
	int64_t id, received_at;
	int64_t forwarded_at; /* its last forward to a person */
	const char *recipient, *subject, *message_id, *section, *class;
	bool regression;
};

/*
 * audit_remind_list - reports whose last forward to a person was at or
 * before `before`, still forwarded or approved (no fix, verdict or
 * duplicate), with no fix proposed or made, no message of that person
 * in their thread and no notme, reject, dup or fixed action since that
 * forward; by recipient, then regressions first, then oldest forward
 * first.  Nothing here closes anything.
 */
int audit_remind_list(struct audit *db, int64_t before,
		      int (*cb)(const struct audit_remind *r, void *arg),
		      void *arg);
/* audit_reminder_last - when recipient was last reminded: 1, 0, -1 */
int audit_reminder_last(struct audit *db, const char *recipient, int64_t *at);
/* audit_reminder_record - a reminder queued (outbox row) for the reports */
int audit_reminder_record(struct audit *db, const char *recipient, int64_t at,
			  int64_t outbox, const char *reports_json);

/* ---- reply commands (people.c; schema 9) ------------------------------- */

/*
 * "#triage notme" (triage-mail(7)): audit_decline() records that addr
 * gave report back (never picked for it again); audit_declined() lists
 * who did (free with audit_strings_free()).  "#triage away UNTIL" and
 * "#triage cap N/day" are a person's own declarations: away_until is
 * the unix time the person is back (the local midnight after the last
 * day away; 0: not away), cap_day the most reports a day (-1: none).
 * audit_pick_person() is pick's person callback (pick.h) over them:
 * .person = audit_pick_person with .load_ctx = db.  Each returns 0 (or
 * 1 with a row), -1 on error.
 */
int audit_decline(struct audit *db, int64_t report, const char *addr,
		  int64_t at);
int audit_declined(struct audit *db, int64_t report, char ***addrs, size_t *n);
void audit_strings_free(char **v, size_t n);
int audit_person_away(struct audit *db, const char *addr, int64_t until,
		      int64_t at);
int audit_person_cap(struct audit *db, const char *addr, int cap_day,
		     int64_t at);
int audit_pick_person(void *ctx, const char *addr, time_t *away_until,
		      int *cap_day);
/* audit_people_all - cb for every person with declarations (stats) */
int audit_people_all(struct audit *db,
		     int (*cb)(const char *addr, time_t away_until, int cap_day,
			       void *arg),
		     void *arg);

/* ---- threads, same-crash groups, regressions (threads.c; schema 3) ------- */

/*
 * A follow-up (a reply naming a known report) is its own row whose
 * thread_root is the first report of its thread; a report of a crash
 * already reported has same_crash_as = the group's first report (one
 * level: a group is its first report and the rows that name it).
 * crash_signature and syzbot_id (crashsig.h) find the group;
 * regression marks a regression, with its good and bad versions and
 * culprit commit in the evidence row (regression.h).
 */
struct audit_links {
	int64_t thread_root;	     /* 0: not a follow-up */
	int64_t same_crash_as;	     /* 0: first of its crash (or no crash) */
	const char *crash_signature; /* NULL or "": none */
	const char *syzbot_id;
	bool regression;
	const char *good, *bad, *commit; /* NULL or "": not known */
};

/* audit_set_links - store l for a recorded report (and its evidence) */
int audit_set_links(struct audit *db, int64_t report,
		    const struct audit_links *l);
/*
 * audit_set_regression - the evidence part of audit_set_links(): the
 * versions and culprit of l (when l->regression) into report's evidence
 */
int audit_set_regression(struct audit *db, int64_t report,
			 const struct audit_links *l);
/* audit_mark_regression - set report's regression flag */
int audit_mark_regression(struct audit *db, int64_t report, int64_t now);
/* audit_get_links - 1 and *out filled (audit_links_release()), 0: none */
int audit_get_links(struct audit *db, int64_t id, struct audit_links *out);
void audit_links_release(struct audit_links *l);

/*
 * The thread a message joins: audit_thread_find() by a Message-ID it
 * names (In-Reply-To, References), audit_thread_of() by a report id (a
 * "[triage #ID]" subject tag), audit_thread_of_bug() by a Bugzilla bug
 * the database knows.  Each returns 1 and *root (the thread's first
 * report), 0 when nothing matches, -1 on error.
 */
int audit_thread_find(struct audit *db, const char *message_id, int64_t *root);
int audit_thread_of(struct audit *db, int64_t id, int64_t *root);
int audit_thread_of_bug(struct audit *db, long bug_id, int64_t *root);

/* what a follow-up needs to know of its thread's root */
struct audit_root {
	int64_t id, received_at;
	char state[16], class[16];
	char kind[16]; /* kind.h's name: "report", "patch", ... */
	char from_addr[320];
	char section[256];
	char header[1024];   /* X-Triage-Class of the root (current class) */
	char recipient[320]; /* of the last forward decision, or "" */
	char recipient_name[256];
};

/* audit_root_get - 1 and *out filled, 0 when there is no such report */
int audit_root_get(struct audit *db, int64_t id, struct audit_root *out);

/*
 * audit_same_crash - 1 and *first: the oldest report (not self, not a
 * follow-up, not grouped under another, not rejected or a Message-ID
 * duplicate) with the same signature or syzbot id; 0 when none
 */
int audit_same_crash(struct audit *db, const char *signature,
		     const char *syzbot_id, int64_t self, int64_t *first);

/*
 * audit_better_evidence - 1 when report a's evidence weighs more than
 * b's (a stack trace, a reproducer, the kernel version, a real machine,
 * a bisection: one point each), 0 when not, -1 on error
 */
int audit_better_evidence(struct audit *db, int64_t a, int64_t b);

/*
 * audit_merge_evidence - a follow-up's evidence fills what the root's
 * lacks (title, guilty file, versions, hardware, bisection, regression;
 * dmesg time stamps and reproducers add up)
 */
int audit_merge_evidence(struct audit *db, int64_t root, int64_t from);

struct audit_related {
	int64_t id, received_at;
	/*
	 * "follow-up", "first", "same crash", "fix proposed" (a patch in
	 * the thread, or naming the report), or another kind in the thread
	 */
	const char *relation;
	const char *from, *state, *subject;
};

/*
 * audit_related - the follow-ups of report id (when it is a thread's
 * root) and the other members of crash group `group` (its first
 * report's id; 0: none), by id
 */
int audit_related(struct audit *db, int64_t id, int64_t group,
		  int (*cb)(const struct audit_related *r, void *arg),
		  void *arg);

/* ---- loads (desk.c) ------------------------------------------------------ */

/* audit_load - forward decisions to recipient since (any case); -1 error */
long audit_load(struct audit *db, const char *recipient, int64_t since);
/*
 * audit_pick_load - pick's load callback (pick.h): forwards to addr
 * since day_start (*day) and since week_start (*week), summed from the
 * per-quarter-hour counts of forward_counts (schema 13); 0, or -1 when the query failed (printed): the pick then
 * fails, and so does what was to record it, so that a database error
 * never reads as "no load" and a cap never fails open.
 * .load = audit_pick_load, .load_ctx = db.  A caller that records the
 * assignment calls the pick inside that transaction (audit_begin()):
 * two processes then cannot both see a person under a cap.
 */
int audit_pick_load(void *db, const char *addr, time_t day_start,
		    time_t week_start, unsigned *day, unsigned *week);
int audit_load_all(struct audit *db, int64_t since,
		   int (*cb)(const char *recipient, long count, void *arg),
		   void *arg);

/* ---- Bugzilla (bugzilla.c) ----------------------------------------------- */

struct audit_bug {
	int64_t report;
	char last_change_time[64];
	int64_t updated_at;
};

/*
 * audit_bug_seen - 1 and *bug filled when bug_id of the Bugzilla at url
 * (its base URL; a trailing '/' does not count) is known, else 0.
 * audit_bug_record - remember that bug (insert or update).  Use both in
 * the transaction that forwards, so one bug never gives two forwards.
 * A bug is (Bugzilla, id), never a Message-ID a mail could carry.
 */
int audit_bug_seen(struct audit *db, const char *url, long bug_id,
		   struct audit_bug *bug);
int audit_bug_record(struct audit *db, const char *url, long bug_id,
		     int64_t report, const char *last_change_time, int64_t now);

struct audit_event {
	int64_t received_at; /* 0: now */
	long webhook_id;
	long bug_id;
	const char *routing_key;	/* "bug.modify:status" */
	const char *event_time;		/* as Bugzilla wrote it */
	long comment_id, attachment_id; /* 0: none */
	const char *payload;
	size_t payload_len;
};

/* audit_event_store - 1: stored, 0: already stored (*id: that row) */
int audit_event_store(struct audit *db, const struct audit_event *ev,
		      int64_t *id);

struct audit_event_item {
	int64_t id, received_at;
	long webhook_id, bug_id, comment_id, attachment_id;
	char *routing_key, *event_time, *payload;
	size_t payload_len;
	int attempts;
};

/* audit_event_claim - oldest received event, leased; 1, or 0 if none */
int audit_event_claim(struct audit *db, int64_t now, int lease_seconds,
		      struct audit_event_item *item);
void audit_event_item_release(struct audit_event_item *item);
int audit_event_done(struct audit *db, int64_t id, int64_t report, int64_t now);
int audit_event_retry(struct audit *db, int64_t id, int64_t next_at,
		      const char *error);
int audit_event_fail(struct audit *db, int64_t id, int64_t now,
		     const char *error);

/* ---- digests (desk.c) ---------------------------------------------------- */

/* digest cursor: 1 and *at when the section has one, else 0 */
int audit_digest_cursor(struct audit *db, const char *section, int64_t *at);
int audit_digest_cursor_set(struct audit *db, const char *section, int64_t at);
/*
 * A queued digest a report leaves (digest_withdraw()): the ids it still
 * lists (reports in state digest; *ids malloc'ed), its row (1, 0 when
 * there is no digest row of that id; strings malloc'ed) and when the
 * section's digest before it went out (0: none).
 */
int audit_digest_members(struct audit *db, int64_t outbox, int64_t **ids,
			 size_t *n);
int audit_digest_row(struct audit *db, int64_t outbox, char **state,
		     int64_t *created_at, char **recipients);
int audit_digest_before(struct audit *db, const char *section, int64_t at,
			int64_t *prev);
/* audit_set_section - a triager's section for a report (reroute) */
int audit_set_section(struct audit *db, int64_t report, const char *section,
		      const char *why);

/* ---- the triager's desk: what waits (desk.c) ----------------------------- */

struct audit_pending {
	int64_t id;	   /* report id; 0 for an outbox row of no report */
	int64_t outbox_id; /* the failed delivery, or 0 */
	int64_t received_at;
	const char *state;   /* held, failed, digest */
	const char *class;   /* "" when unclassified */
	const char *section; /* best section, or NULL (unmapped) */
	const char *subject;
	const char *from;
	const char *reason;	/* of the last decision */
	const char *last_error; /* of the failed delivery */
	bool regression;	/* schema 3: listed first */
	long followups;		/* replies joined to its thread */
	long seen_again;	/* later reports of the same crash */
	int64_t event_id;	/* a Bugzilla event that waits, or 0 */
	int64_t thread_root;	/* a follow-up's first report, or 0 */
	const char *root_state; /* that report's state, or NULL */
};

struct audit_pending_filter {
	const char *class;   /* NULL: any */
	const char *section; /* best section, any case; NULL: any */
	bool unmapped;	     /* only reports without sections */
};

/*
 * audit_pending_list - what waits for a human, regressions first,
 * then oldest first: held reports (ai, uncertain, unmapped, held
 * fuzzer; follow-ups only when their thread's root does not wait
 * itself: rejected, forwarded ...), reports whose delivery failed,
 * failed outbox rows of no report, and Bugzilla events whose fetch
 * failed (state "received" or "failed"; event_id set).  A callback
 * returning non-zero stops the walk; that value is returned.
 */
int audit_pending_list(struct audit *db, const struct audit_pending_filter *f,
		       int (*cb)(const struct audit_pending *p, void *arg),
		       void *arg);
/* audit_digest_list - reports in state digest since (section: best) */
int audit_digest_list(struct audit *db, const char *section, int64_t since,
		      int (*cb)(const struct audit_pending *p, void *arg),
		      void *arg);

/* ---- a report read back (reports_read.c) --------------------------------- */

struct audit_attempt {
	int64_t at;
	bool ok;
	int smtp_code;
	const char *detail;
};

struct audit_outbox_info {
	int64_t id, created_at, next_attempt_at, sent_at;
	const char *kind, *state, *envelope_from, *recipients, *last_error;
	int attempts;
	size_t message_len;
	struct audit_attempt *tries;
	size_t ntries;
};

/* the allocations behind a record's strings and arrays */
struct audit_owned {
	void **v;
	size_t n, alloc;
};

enum {
	AUDIT_GET_RAW = 1 << 0, /* also read the raw message bytes */
};

struct audit_record {
	int64_t id;
	char sha256[65];
	const char *message_id;
	int64_t received_at, updated_at;
	const char *source, *envelope_from, *envelope_to;
	const char *from_addr, *from_display, *subject, *date_header;
	long bug_id;
	const char *bug_url;
	size_t size;
	unsigned flags;
	const char *state, *class; /* class NULL when unclassified */
	const char *kind;	   /* kind.h's name of the message */
	int64_t duplicate_of;
	int deliveries;

	const char *raw; /* with AUDIT_GET_RAW: byte for byte */
	size_t raw_len;
	const char *body;
	size_t body_len;

	struct evidence *evidence; /* NULL when none recorded */
	struct audit_classification *classification;
	struct audit_section *sections;
	size_t nsections;
	struct audit_decision *decisions; /* oldest first */
	size_t ndecisions;
	struct audit_outbox_info *outbox;
	size_t noutbox;
	struct audit_action *actions;
	size_t nactions;

	struct audit_owned owned; /* freed by audit_record_release() */
};

/* audit_get_report - 1 and rec filled, 0 when there is no such report */
int audit_get_report(struct audit *db, int64_t id, unsigned flags,
		     struct audit_record *rec);
void audit_record_release(struct audit_record *rec);

/* ---- the log, figures, corrections (desk.c) ------------------------------ */

struct audit_log_entry {
	int64_t at;
	int64_t report;	  /* 0: none */
	const char *kind; /* received, decision, delivery, action */
	const char *who;  /* source, "triage", "deliver", or a login */
	const char *what; /* forward, approve, sent, failed, ... */
	const char *argument;
	const char *detail;
	const char *msg_kind; /* the report's kind (kind.h), or NULL */
};

/* audit_log_list - everything that happened since, oldest first */
int audit_log_list(struct audit *db, int64_t since,
		   int (*cb)(const struct audit_log_entry *e, void *arg),
		   void *arg);

struct audit_count {
	const char *name;
	long count;
};

struct audit_stats {
	int64_t since;
	long reports; /* received since */
	long pending; /* waiting now (any age) */
	struct audit_count *by_state, *by_class, *by_section, *by_recipient;
	size_t nby_state, nby_class, nby_section, nby_recipient;
	struct audit_count *by_kind; /* every message, by kind.h's kind */
	size_t nby_kind;
	long resolved;		/* reports with a first approve/reject/... */
	double median_pending;	/* seconds to that action; -1: none */
	long delivery_attempts; /* since */
	long delivery_failures; /* attempts that failed, since */
	long outbox_failed;	/* rows given up on, now */
	long outbox_queued;	/* rows waiting or being sent, now */
	long events;		/* Bugzilla events received since */
	long events_waiting;	/* their fetch failed: retried, now */
	long events_failed;	/* given up on, now */

	struct audit_owned owned; /* freed by audit_stats_release() */
};

/*
 * audit_stats - figures over reports received since: counts per state,
 * per kind of message, current class ("unclassified") and best
 * section ("unmapped") of reports (neither counts duplicates,
 * follow-ups nor other kinds), and forward decisions per recipient;
 * most frequent first
 */
int audit_stats(struct audit *db, int64_t since, struct audit_stats *st);
void audit_stats_release(struct audit_stats *st);

struct audit_correction {
	int64_t report;
	const char *old_class; /* the classifier's */
	const char *new_class; /* the triager's */
	const char *who;
	int64_t at;
	const char *subject;
	const char *body;
	size_t body_len;
};

/* audit_corrections - reports whose class a triager changed, by id */
int audit_corrections(struct audit *db,
		      int (*cb)(const struct audit_correction *c, void *arg),
		      void *arg);

/* ---- maintenance (reports.c) --------------------------------------------- */

/*
 * audit_compress_messages - zlib-compress the raw bytes of reports
 * received before `before` and at least min_size long (off the mail
 * path: one short transaction per row); *count gets the rows changed
 */
int audit_compress_messages(struct audit *db, int64_t before, size_t min_size,
			    long *count);

/* names (reports.c): true when s is one of the schema's values */
bool audit_valid_state(const char *s);
bool audit_valid_class(const char *s);

#endif
