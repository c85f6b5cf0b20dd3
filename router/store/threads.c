// SPDX-License-Identifier: GPL-2.0-only
/*
 * threads - threads, same-crash groups and regressions: the links of a
 * report, the thread a message joins, the first report of a crash, and
 * what is related to a report (see audit.h)
 *
 * Tables: reports (thread_root, same_crash_as, crash_signature,
 * syzbot_id, regression), evidence (regression_*), bugs (a bug's
 * report).  router/app/thread.c decides what joins what.
 */
#include <stdlib.h>
#include <string.h>

#include "db.h"

static const char sql_set_links[] =
	"UPDATE reports SET thread_root = ?2, same_crash_as = ?3,"
	" crash_signature = ?4, syzbot_id = ?5, regression = ?6"
	" WHERE id = ?1";
static const char sql_set_regression[] =
	"UPDATE evidence SET regression_good = ?2, regression_bad = ?3,"
	" regression_commit = ?4 WHERE report = ?1";
static const char sql_mark_regression[] =
	"UPDATE reports SET regression = 1, updated_at = ?2 WHERE id = ?1";

/* audit_set_regression - a regression's versions into report's evidence */
int audit_set_regression(struct audit *db, int64_t report,
			 const struct audit_links *l)
{
	sqlite3_stmt *st;

	if (!l->regression)
		return 0;
	st = db_prep(db, sql_set_regression);
	if (!st || db_bind_int(db, st, 1, report) ||
	    db_bind_text(db, st, 2, db_or_null(l->good)) ||
	    db_bind_text(db, st, 3, db_or_null(l->bad)) ||
	    db_bind_text(db, st, 4, db_or_null(l->commit)))
		return -1;
	return db_step(db, st, "set regression");
}

/* audit_set_links - a recorded report's thread, group and regression */
int audit_set_links(struct audit *db, int64_t report,
		    const struct audit_links *l)
{
	sqlite3_stmt *st = db_prep(db, sql_set_links);

	if (!st || db_bind_int(db, st, 1, report) ||
	    db_bind_id(db, st, 2, l->thread_root) ||
	    db_bind_id(db, st, 3, l->same_crash_as) ||
	    db_bind_text(db, st, 4, db_or_null(l->crash_signature)) ||
	    db_bind_text(db, st, 5, db_or_null(l->syzbot_id)) ||
	    db_bind_int(db, st, 6, l->regression) ||
	    db_step(db, st, "set links") < 0)
		return -1;
	return audit_set_regression(db, report, l);
}

/* audit_mark_regression - a thread learned that its report is one */
int audit_mark_regression(struct audit *db, int64_t report, int64_t now)
{
	return db_run2(db, sql_mark_regression, report, now, "mark regression");
}

static const char sql_get_links[] =
	"SELECT coalesce(r.thread_root, 0), coalesce(r.same_crash_as, 0),"
	" r.crash_signature, r.syzbot_id, r.regression,"
	" e.regression_good, e.regression_bad, e.regression_commit"
	" FROM reports r LEFT JOIN evidence e ON e.report = r.id"
	" WHERE r.id = ?1";
static const struct db_col links_cols[] = {
	DB_COL(struct audit_links, I64, thread_root),
	DB_COL(struct audit_links, I64, same_crash_as),
	DB_COL(struct audit_links, DUP, crash_signature),
	DB_COL(struct audit_links, DUP, syzbot_id),
	DB_COL(struct audit_links, BOOL, regression),
	DB_COL(struct audit_links, DUP, good),
	DB_COL(struct audit_links, DUP, bad),
	DB_COL(struct audit_links, DUP, commit),
};
static const struct db_row links_row = DB_ROW(struct audit_links, links_cols);

/* audit_get_links - a report's thread, group and regression */
int audit_get_links(struct audit *db, int64_t id, struct audit_links *out)
{
	memset(out, 0, sizeof(*out));
	return db_get_id(db, sql_get_links, id, "read links", &links_row, out,
			 NULL);
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

/* ---- the thread a message joins ------------------------------------------ */

static const char sql_thread_by_msgid[] =
	"SELECT coalesce(thread_root, id) FROM reports"
	" WHERE message_id = ?1 ORDER BY id LIMIT 1";
static const char sql_thread_by_id[] =
	"SELECT coalesce(thread_root, id) FROM reports WHERE id = ?1";
static const char sql_thread_by_bug[] =
	"SELECT coalesce(r.thread_root, r.id) FROM bugs b"
	" JOIN reports r ON r.id = b.report WHERE b.bug_id = ?1";

/* one_id - the id sql finds for key (text, or else the number) */
static int one_id(struct audit *db, const char *sql, int64_t key,
		  const char *text, int64_t *out)
{
	sqlite3_stmt *st = db_prep(db, sql);

	*out = 0;
	if (!st || (text ? db_bind_text(db, st, 1, text)
			 : db_bind_int(db, st, 1, key)))
		return -1;
	return db_get_i64(db, st, "find thread", out);
}

/* audit_thread_find - the root of the thread a Message-ID belongs to */
int audit_thread_find(struct audit *db, const char *message_id, int64_t *root)
{
	if (!message_id || !*message_id) {
		*root = 0;
		return 0;
	}
	return one_id(db, sql_thread_by_msgid, 0, message_id, root);
}

/* audit_thread_of - the root of report id's thread; 0 when no report */
int audit_thread_of(struct audit *db, int64_t id, int64_t *root)
{
	return one_id(db, sql_thread_by_id, id, NULL, root);
}

/* audit_thread_of_bug - the root of a known Bugzilla bug's report */
int audit_thread_of_bug(struct audit *db, long bug_id, int64_t *root)
{
	return one_id(db, sql_thread_by_bug, bug_id, NULL, root);
}

static const char sql_root_get[] =
	"SELECT r.state, coalesce(r.class, ''), r.from_addr,"
	" coalesce(r.section, ''), CASE WHEN c.class IS r.class"
	" THEN coalesce(c.header, '') ELSE coalesce(r.class, '') END,"
	" d.recipient, d.recipient_name, r.received_at, r.kind"
	" FROM reports r LEFT JOIN classification c ON c.report = r.id"
	" LEFT JOIN decisions d ON d.id = (SELECT id FROM decisions"
	"   WHERE report = r.id AND action = 'forward'"
	"   AND recipient IS NOT NULL ORDER BY at DESC, id DESC LIMIT 1)"
	" WHERE r.id = ?1";
static const struct db_col root_cols[] = {
	DB_COL(struct audit_root, CHARS, state),
	DB_COL(struct audit_root, CHARS, class),
	DB_COL(struct audit_root, CHARS, from_addr),
	DB_COL(struct audit_root, CHARS, section),
	DB_COL(struct audit_root, CHARS, header),
	DB_COL(struct audit_root, CHARS, recipient),
	DB_COL(struct audit_root, CHARS, recipient_name),
	DB_COL(struct audit_root, I64, received_at),
	DB_COL(struct audit_root, CHARS, kind),
};
static const struct db_row root_row = DB_ROW(struct audit_root, root_cols);

/* audit_root_get - what a follow-up needs of its thread's root */
int audit_root_get(struct audit *db, int64_t id, struct audit_root *out)
{
	int rc;

	memset(out, 0, sizeof(*out));
	rc = db_get_id(db, sql_root_get, id, "read thread root", &root_row, out,
		       NULL);
	if (rc == 1)
		out->id = id;
	return rc;
}

/* ---- the same crash ------------------------------------------------------ */

/* two index searches (an OR would scan reports in id order) */
static const char sql_same_crash[] =
	"SELECT min(id) FROM (SELECT id FROM reports"
	" WHERE crash_signature = ?1"
	" AND same_crash_as IS NULL AND thread_root IS NULL"
	" AND id != ?3 AND state NOT IN ('duplicate', 'rejected')"
	" UNION ALL SELECT id FROM reports WHERE syzbot_id = ?2"
	" AND same_crash_as IS NULL AND thread_root IS NULL"
	" AND id != ?3 AND state NOT IN ('duplicate', 'rejected'))";

/*
 * the same with one key: the other's half finds nothing when its key is
 * NULL, and one statement is half as much to prepare (most reports have
 * a crash signature and no syzbot id)
 */
static const char sql_same_crash_sig[] =
	"SELECT min(id) FROM reports WHERE crash_signature = ?1"
	" AND same_crash_as IS NULL AND thread_root IS NULL"
	" AND id != ?3 AND state NOT IN ('duplicate', 'rejected')";
static const char sql_same_crash_syz[] =
	"SELECT min(id) FROM reports WHERE syzbot_id = ?2"
	" AND same_crash_as IS NULL AND thread_root IS NULL"
	" AND id != ?3 AND state NOT IN ('duplicate', 'rejected')";

/* audit_same_crash - the first report of the same crash, or 0 */
int audit_same_crash(struct audit *db, const char *signature,
		     const char *syzbot_id, int64_t self, int64_t *first)
{
	sqlite3_stmt *st;
	int rc;

	*first = 0;
	signature = db_or_null(signature);
	syzbot_id = db_or_null(syzbot_id);
	if (!signature && !syzbot_id)
		return 0;
	st = db_prep(db, !syzbot_id   ? sql_same_crash_sig
			 : !signature ? sql_same_crash_syz
				      : sql_same_crash);
	if (!st || db_bind_text(db, st, 1, signature) ||
	    db_bind_text(db, st, 2, syzbot_id) || db_bind_int(db, st, 3, self))
		return -1;
	rc = db_get_i64(db, st, "find same crash", first);
	/* min() of no rows is NULL: no earlier report */
	return rc == 1 && !*first ? 0 : rc;
}

/*
 * what a triager needs to act on a crash, one point each: a stack
 * trace, a reproducer, the kernel version, a real machine, a bisection
 */
static const char sql_better_evidence[] =
	"WITH w(report, n) AS (SELECT report, (frames != '[]')"
	" + (reproducer != 0) + (kernel_version IS NOT NULL)"
	" + (hardware IS NOT NULL AND hw_virtual = 0)"
	" + (bisect_commit IS NOT NULL) FROM evidence"
	" WHERE report IN (?1, ?2))"
	" SELECT coalesce((SELECT n FROM w WHERE report = ?1), 0)"
	" > coalesce((SELECT n FROM w WHERE report = ?2), 0)";

/* audit_better_evidence - 1 when a's evidence weighs more than b's */
int audit_better_evidence(struct audit *db, int64_t a, int64_t b)
{
	sqlite3_stmt *st = db_prep(db, sql_better_evidence);
	int64_t more = 0;
	int rc;

	if (!st || db_bind_int(db, st, 1, a) || db_bind_int(db, st, 2, b))
		return -1;
	rc = db_get_i64(db, st, "weigh evidence", &more);
	return rc < 0 ? -1 : more != 0;
}

static const char sql_merge_evidence[] =
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
	" AND EXISTS (SELECT 1 FROM evidence WHERE report = ?2)";

/* audit_merge_evidence - fill root's missing evidence from another's */
int audit_merge_evidence(struct audit *db, int64_t root, int64_t from)
{
	return db_run2(db, sql_merge_evidence, root, from, "merge evidence");
}

/* ---- what is related to a report ----------------------------------------- */

static const char sql_related[] =
	"SELECT id, CASE WHEN thread_root IS NOT NULL THEN"
	" CASE kind WHEN 'patch' THEN 'fix proposed'"
	" WHEN 'follow-up' THEN 'follow-up' ELSE kind END"
	" WHEN same_crash_as IS NOT NULL THEN 'same crash'"
	" ELSE 'first' END, received_at, from_display, state, subject"
	" FROM reports WHERE id != ?1 AND (thread_root = ?1"
	" OR (?2 != 0 AND (id = ?2 OR same_crash_as = ?2))) ORDER BY id";
static const struct db_col related_cols[] = {
	DB_COL(struct audit_related, I64, id),
	DB_COL(struct audit_related, TEXT, relation),
	DB_COL(struct audit_related, I64, received_at),
	DB_COL(struct audit_related, TEXT, from),
	DB_COL(struct audit_related, TEXT, state),
	DB_COL(struct audit_related, TEXT, subject),
};
static const struct db_row related_row =
	DB_ROW(struct audit_related, related_cols);

/* audit_related - the thread's follow-ups and the crash group of a report */
int audit_related(struct audit *db, int64_t id, int64_t group,
		  int (*cb)(const struct audit_related *r, void *arg),
		  void *arg)
{
	sqlite3_stmt *st = db_prep(db, sql_related);
	struct audit_related r;
	int rc, stop;

	if (!st || db_bind_int(db, st, 1, id) || db_bind_int(db, st, 2, group))
		return -1;
	while ((rc = db_next(db, st, "list related", &related_row, &r)) == 1)
		if ((stop = cb(&r, arg)))
			return db_stop(st, stop);
	return rc;
}
