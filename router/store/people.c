// SPDX-License-Identifier: GPL-2.0-only
/*
 * people - what people said by mail of themselves and of a report:
 * "#triage notme" (declined), "#triage away" and "#triage cap"
 * (people); schema 9 (see audit.h)
 */
#include <stdlib.h>
#include <string.h>

#include "db.h"

static const char sql_decline[] =
	"INSERT OR IGNORE INTO declined (report, addr, at) VALUES (?1, ?2, ?3)";
static const char sql_declined[] =
	"SELECT addr FROM declined WHERE report = ?1 ORDER BY at, addr";
static const char sql_set_away[] =
	"INSERT INTO people (addr, away_until, updated_at) VALUES (?1, ?2, ?3)"
	" ON CONFLICT (addr) DO UPDATE SET away_until = ?2, updated_at = ?3";
static const char sql_set_cap[] =
	"INSERT INTO people (addr, cap_day, updated_at) VALUES (?1, ?2, ?3)"
	" ON CONFLICT (addr) DO UPDATE SET cap_day = ?2, updated_at = ?3";
static const char sql_people[] =
	"SELECT addr, away_until, cap_day FROM people ORDER BY addr";
static const char sql_person[] =
	"SELECT away_until, cap_day FROM people WHERE addr = ?1";

int audit_decline(struct audit *db, int64_t report, const char *addr,
		  int64_t at)
{
	sqlite3_stmt *st = db_prep(db, sql_decline);

	if (!st || db_bind_int(db, st, 1, report) ||
	    db_bind_text(db, st, 2, addr) || db_bind_int(db, st, 3, db_now(at)))
		return -1;
	return db_step(db, st, "record notme");
}

int audit_declined(struct audit *db, int64_t report, char ***addrs, size_t *n)
{
	sqlite3_stmt *st = db_prep(db, sql_declined);
	int rc;

	*addrs = NULL;
	*n = 0;
	if (!st || db_bind_int(db, st, 1, report))
		return -1;
	while ((rc = db_step_row(db, st, "read notme")) == 1) {
		*addrs = xreallocarray(*addrs, *n + 1, sizeof(**addrs));
		(*addrs)[(*n)++] = db_col_dup(st, 0, NULL);
	}
	if (rc < 0) {
		audit_strings_free(*addrs, *n);
		*addrs = NULL;
		*n = 0;
	}
	return rc;
}

void audit_strings_free(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static int set_person(struct audit *db, const char *sql, const char *addr,
		      int64_t v, int64_t at, const char *what)
{
	sqlite3_stmt *st = db_prep(db, sql);

	if (!st || db_bind_text(db, st, 1, addr) || db_bind_int(db, st, 2, v) ||
	    db_bind_int(db, st, 3, db_now(at)))
		return -1;
	return db_step(db, st, what);
}

int audit_person_away(struct audit *db, const char *addr, int64_t until,
		      int64_t at)
{
	return set_person(db, sql_set_away, addr, until, at, "record away");
}

int audit_person_cap(struct audit *db, const char *addr, int cap_day,
		     int64_t at)
{
	return set_person(db, sql_set_cap, addr, cap_day, at, "record cap");
}

/* audit_pick_person - pick's person callback (pick.h; audit.h) */
int audit_pick_person(void *ctx, const char *addr, time_t *away_until,
		      int *cap_day)
{
	struct audit *db = ctx;
	sqlite3_stmt *st = db_prep(db, sql_person);
	int rc;

	*away_until = 0;
	*cap_day = -1;
	if (!st || db_bind_text(db, st, 1, addr))
		return -1;
	rc = db_step_row(db, st, "read person");
	if (rc == 1) {
		*away_until = (time_t)sqlite3_column_int64(st, 0);
		*cap_day = sqlite3_column_int(st, 1);
		db_finish(st);
	}
	return rc < 0 ? -1 : 0;
}

/* audit_people_all - every person's declarations, cb(...) each */
int audit_people_all(struct audit *db,
		     int (*cb)(const char *addr, time_t away_until, int cap_day,
			       void *arg),
		     void *arg)
{
	sqlite3_stmt *st = db_prep(db, sql_people);
	int rc, stop;

	if (!st)
		return -1;
	while ((rc = db_step_row(db, st, "read people")) == 1) {
		stop = cb(db_col_text(st, 0),
			  (time_t)sqlite3_column_int64(st, 1),
			  sqlite3_column_int(st, 2), arg);
		if (stop)
			return db_stop(st, stop);
	}
	return rc;
}
