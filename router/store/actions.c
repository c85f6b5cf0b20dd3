// SPDX-License-Identifier: GPL-2.0-only
/*
 * actions - a triager's action logged and applied to its report in one
 * transaction: approve, reject, digest, reroute, reclassify, dup, undup,
 * release, note, thread (see audit.h)
 *
 * Tables: actions; reports (state, class, same_crash_as); the outbox
 * rows a reject cancels; the decisions read for what came before.
 */
#include <stdlib.h>
#include <string.h>

#include "db.h"

static const char *const action_names[] = {
	"approve", "reroute",  "reclassify", "reject", "note",	       "digest",
	"dup",	   "undup",    "release",    "thread", "fix-proposed", "fixed",
	"notme",   "needinfo", "away",	     "cap",    "commands"
};

static const char sql_report_state_class[] =
	"SELECT state, class FROM reports WHERE id = ?1";
static const char sql_last_recipient[] =
	"SELECT recipient FROM decisions WHERE report = ?1"
	" ORDER BY at DESC, id DESC LIMIT 1";
static const char sql_last_decision_action[] =
	"SELECT action FROM decisions WHERE report = ?1"
	" ORDER BY at DESC, id DESC LIMIT 1";
static const char sql_outbox_cancel_report[] =
	"UPDATE outbox SET state = 'cancelled' WHERE report = ?1"
	" AND state IN ('queued', 'failed')";
static const char sql_set_same_crash[] =
	"UPDATE reports SET same_crash_as = ?2, updated_at = ?3 WHERE id = ?1";
static const char sql_regroup[] =
	"UPDATE reports SET same_crash_as = ?2, updated_at = ?3"
	" WHERE same_crash_as = ?1";
static const char sql_ins_action[] =
	"INSERT INTO actions (report, at, who, action, argument, previous,"
	" detail) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)";

/* the report as the action finds it */
struct before {
	char *state, *class;
};

static const struct db_col before_cols[] = {
	DB_COL(struct before, DUP, state),
	DB_COL(struct before, DUP, class),
};
static const struct db_row before_row = DB_ROW(struct before, before_cols);

/* last_text - column 0 of sql's first row for report (malloc'ed), or NULL */
static int last_text(struct audit *db, const char *sql, int64_t report,
		     const char *what, char **out)
{
	static const struct db_col col[] = { { DB_DUP, 0, sizeof(char *) } };
	static const struct db_row row = { col, 1, sizeof(char *) };

	*out = NULL;
	return db_get_id(db, sql, report, what, &row, out, NULL);
}

/* set_group - sql with ?1 = report, ?2 = group (0: none), ?3 = at */
static int set_group(struct audit *db, const char *sql, int64_t report,
		     int64_t group, int64_t at, const char *what)
{
	sqlite3_stmt *st = db_prep(db, sql);

	if (!st || db_bind_int(db, st, 1, report) ||
	    db_bind_id(db, st, 2, group) || db_bind_int(db, st, 3, at))
		return -1;
	return db_step(db, st, what);
}

/*
 * apply_undup - report leaves its group, and waits in pending for its
 * own assignment when it was only waiting as "seen again"
 */
static int apply_undup(struct audit *db, const struct audit_action *a,
		       int64_t at, const char *state, bool grouped)
{
	char *last;
	bool seen;

	if (!grouped)
		return db_bad(db, "report %lld is in no group",
			      (long long)a->report);
	if (set_group(db, sql_set_same_crash, a->report, 0, at, "undup") < 0)
		return -1;
	if (strcmp(state, "digest"))
		return 0;
	if (last_text(db, sql_last_decision_action, a->report, "read decision",
		      &last) < 0)
		return -1;
	seen = last && !strcmp(last, "seen-again");
	free(last);
	return seen ? audit_set_state(db, a->report, "held", at) : 0;
}

/*
 * apply_dup - dup: report joins argument's group (the group's first);
 * undup: see apply_undup()
 */
static int apply_dup(struct audit *db, const struct audit_action *a, int64_t at,
		     const char *state, char **previous)
{
	struct audit_links cur;
	int64_t other = 0, first;
	char *end;

	if (audit_get_links(db, a->report, &cur) <= 0)
		return db_bad(db, "no report %lld", (long long)a->report);
	if (cur.same_crash_as)
		*previous = xasprintf("%lld", (long long)cur.same_crash_as);
	audit_links_release(&cur);
	if (!strcmp(a->action, "undup"))
		return apply_undup(db, a, at, state, *previous != NULL);
	if (a->argument)
		other = strtoll(a->argument, &end, 10);
	if (!a->argument || !*a->argument || *end || other <= 0)
		return db_bad(db, "dup needs a report id, not '%s'",
			      a->argument ? a->argument : "");
	if (audit_get_links(db, other, &cur) <= 0)
		return db_bad(db, "no report %lld", (long long)other);
	first = cur.same_crash_as ? cur.same_crash_as : other;
	audit_links_release(&cur);
	if (first == a->report)
		return db_bad(db,
			      "report %lld is the first of that group already",
			      (long long)a->report);
	/* one level: what was grouped under report moves to first */
	if (set_group(db, sql_regroup, a->report, first, at, "regroup") < 0 ||
	    set_group(db, sql_set_same_crash, a->report, first, at, "dup") < 0)
		return -1;
	return 0;
}

/* set_class - reclassify and release: class = argument */
static int set_class(struct audit *db, const struct audit_action *a, int64_t at,
		     struct before *b, char **previous)
{
	if (!audit_valid_class(a->argument))
		return db_bad(db, "invalid class '%s'",
			      a->argument ? a->argument : "");
	*previous = b->class;
	b->class = NULL;
	return store_set_class(db, a->report, a->argument, at, a->action);
}

/* cancel_outbox - reject: the report's mail not sent yet never will be */
static int cancel_outbox(struct audit *db, int64_t report)
{
	sqlite3_stmt *st = db_prep(db, sql_outbox_cancel_report);

	if (!st || db_bind_int(db, st, 1, report))
		return -1;
	return db_step(db, st, "cancel outbox");
}

/* new_state - the state an action moves its report to, or NULL */
static const char *new_state(const char *action)
{
	static const char *const moves[][2] = {
		{ "reroute", "forwarded" }, { "approve", "approved" },
		{ "reject", "rejected" },   { "digest", "digest" },
		{ "fixed", "fixed" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(moves); i++)
		if (!strcmp(action, moves[i][0]))
			return moves[i][1];
	return NULL;
}

/*
 * apply_action - what a->action does to its report; *previous: the
 * state, class, last recipient or group before
 */
static int apply_action(struct audit *db, const struct audit_action *a,
			int64_t at, char **previous)
{
	struct before b = { NULL, NULL };
	const char *to = new_state(a->action);
	int rc;

	rc = db_get_id(db, sql_report_state_class, a->report, "read report",
		       &before_row, &b, NULL);
	if (rc <= 0)
		return rc < 0 ? -1
			      : db_bad(db, "no report %lld",
				       (long long)a->report);
	if (!strcmp(a->action, "reclassify") || !strcmp(a->action, "release"))
		rc = set_class(db, a, at, &b, previous);
	else if (!strcmp(a->action, "dup") || !strcmp(a->action, "undup"))
		rc = apply_dup(db, a, at, b.state, previous);
	else if (!strcmp(a->action, "reroute"))
		rc = last_text(db, sql_last_recipient, a->report,
			       "read last recipient", previous);
	else if (!strcmp(a->action, "reject"))
		rc = cancel_outbox(db, a->report);
	if (rc >= 0 && to) {
		if (strcmp(a->action, "reroute")) {
			*previous = b.state;
			b.state = NULL;
		}
		rc = audit_set_state(db, a->report, to, at);
	}
	free(b.state);
	free(b.class);
	return rc < 0 ? -1 : 0;
}

/* audit_record_action - log a triager's action and apply it to the report */
int audit_record_action(struct audit *db, const struct audit_action *a,
			int64_t *id)
{
	sqlite3_stmt *st;
	int64_t at = db_now(a->at);
	char *previous = NULL;
	bool own;
	int rc = -1;

	if (!db_one_of(a->action, action_names, ARRAY_SIZE(action_names)))
		return db_bad(db, "invalid action '%s'",
			      a->action ? a->action : "");
	if (!a->who || !*a->who)
		return db_bad(db, "action without a login name");
	if (!a->report && strcmp(a->action, "note") &&
	    strcmp(a->action, "digest"))
		return db_bad(db, "%s needs a report", a->action);
	if (db_txn_enter(db, &own) < 0)
		return -1;
	if (a->report && apply_action(db, a, at, &previous) < 0)
		goto out;
	st = db_prep(db, sql_ins_action);
	if (!st || db_bind_id(db, st, 1, a->report) ||
	    db_bind_int(db, st, 2, at) || db_bind_text(db, st, 3, a->who) ||
	    db_bind_text(db, st, 4, a->action) ||
	    db_bind_text(db, st, 5, a->argument) ||
	    db_bind_text(db, st, 6, previous) ||
	    db_bind_text(db, st, 7, a->detail) ||
	    db_step(db, st, "insert action") < 0)
		goto out;
	if (id)
		*id = sqlite3_last_insert_rowid(db->db);
	rc = 0;
out:
	free(previous);
	return db_txn_leave(db, own, rc);
}
