/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * db - what the files of the store share: the connection, its errors,
 *	the statement cache, binding values and reading rows
 *
 * DESCRIPTION
 *	Internal to router/store/: the other layers call audit.h only.
 *	Each file of the store keeps the SQL of its concern as static
 *	strings beside the C that runs them (audit.h says which file has
 *	which tables).  db_prep() prepares a statement on its first use
 *	and keeps it for the life of the connection, keyed by the address
 *	of its text, so that a process prepares only what it runs (the
 *	filter: about a dozen).  Every value reaches SQLite through a
 *	db_bind_*() call; no SQL text is ever built from data.
 *
 *	Rows are read by description, not column by column in a loop of
 *	their own: a struct db_row lists, for each column in order, the
 *	type and offset of the struct field it fills (DB_COL()).  db_get()
 *	reads the first row, db_next() a statement one row at a time (for
 *	a callback), db_all() every row into a new array.
 *
 * Ownership:
 *	A DB_TEXT column read without a struct audit_owned is borrowed:
 *	valid until the statement steps again or is reset (db_next(),
 *	never db_get()).  With one, texts and arrays are copies the record
 *	frees (db_owned_release()).  DB_DUP columns are malloc'ed copies
 *	that the caller frees one by one.
 *
 * Errors:
 *	As audit.h: functions print, set db->errmsg and db->temporary, and
 *	return -1.  A statement that failed is reset; one left with a row
 *	(db_step_row() returned 1) is the caller's to db_finish().
 */
#ifndef TRIAGE_STORE_DB_H
#define TRIAGE_STORE_DB_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "audit.h"
#include "util.h"

/* statement slots per connection: a power of two, twice the statements */
#define DB_STMT_SLOTS 256

/*
 * forward_counts' slot: a forward at time t counts in slot t / 900
 * rounded down (schema.c, 12 -> 13, its triggers; desk.c's loads)
 */
#define AUDIT_LOAD_SLOT 900

struct db_stmt {
	const char *sql; /* the key: the address of a static text */
	sqlite3_stmt *st;
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
	struct db_stmt stmt[DB_STMT_SLOTS];
	size_t nstmt;
};

/* ---- errors (db.c) ------------------------------------------------------- */

/* db_fail - record and print a SQLite failure; returns -1 */
int db_fail(struct audit *db, int rc, const char *what);
/* db_bad - a permanent failure of our own (bad argument, missing row) */
int db_bad(struct audit *db, const char *fmt, ...) PRINTF_LIKE(2, 3);

/* ---- statements and values (db.c) ---------------------------------------- */

/* db_prep - the statement of static text sql, prepared once; NULL: error */
sqlite3_stmt *db_prep(struct audit *db, const char *sql);
/* db_finish - reset a statement and clear its bindings */
void db_finish(sqlite3_stmt *st);

/* db_bind_* - bind column i; 0, or -1 after an error */
int db_bind_text(struct audit *db, sqlite3_stmt *st, int i, const char *s);
int db_bind_textn(struct audit *db, sqlite3_stmt *st, int i, const char *s,
		  size_t n);
int db_bind_blob(struct audit *db, sqlite3_stmt *st, int i, const void *p,
		 size_t n);
int db_bind_zeroblob(struct audit *db, sqlite3_stmt *st, int i, size_t n);
int db_bind_int(struct audit *db, sqlite3_stmt *st, int i, int64_t v);
/* db_bind_id - an id or count where 0 means "none" (SQL NULL) */
int db_bind_id(struct audit *db, sqlite3_stmt *st, int i, int64_t v);
int db_bind_real(struct audit *db, sqlite3_stmt *st, int i, double v);

/* db_step - run a statement to completion; 0 or -1 (reset either way) */
int db_step(struct audit *db, sqlite3_stmt *st, const char *what);
/* db_step_row - 1 with a row (left unreset), 0 at the end (reset), -1 */
int db_step_row(struct audit *db, sqlite3_stmt *st, const char *what);
/* db_get_i64 - column 0 of the first row: 1 and *v, 0 when none, -1 */
int db_get_i64(struct audit *db, sqlite3_stmt *st, const char *what,
	       int64_t *v);
/* db_stop - a walk its callback stopped: reset st, return stop */
int db_stop(sqlite3_stmt *st, int stop);

const char *db_col_text(sqlite3_stmt *st, int i);
/* db_col_dup - a malloc'ed NUL-terminated copy of column i ("" for NULL) */
char *db_col_dup(sqlite3_stmt *st, int i, size_t *len);

/* ---- rows by description (db.c) ------------------------------------------ */

enum db_type {
	DB_I64,	  /* int64_t */
	DB_INT,	  /* int */
	DB_UINT,  /* unsigned */
	DB_LONG,  /* long */
	DB_ULONG, /* unsigned long */
	DB_SIZE,  /* size_t */
	DB_BOOL,  /* bool: the column is non-zero */
	DB_REAL,  /* double */
	DB_TEXT,  /* const char *: borrowed, or the record's copy */
	DB_DUP,	  /* char *: a malloc'ed copy (NULL stays NULL) */
	DB_CHARS, /* char[N]: a copy cut to fit ("" for NULL) */
};

struct db_col {
	enum db_type type;
	size_t off;  /* offsetof the field */
	size_t size; /* sizeof the field */
};

/* a row: column i fills col[i] of a struct of size bytes */
struct db_row {
	const struct db_col *col;
	size_t ncol;
	size_t size;
};

#define DB_SIZE_I64   sizeof(int64_t)
#define DB_SIZE_INT   sizeof(int)
#define DB_SIZE_UINT  sizeof(unsigned)
#define DB_SIZE_LONG  sizeof(long)
#define DB_SIZE_ULONG sizeof(unsigned long)
#define DB_SIZE_SIZE  sizeof(size_t)
#define DB_SIZE_BOOL  sizeof(bool)
#define DB_SIZE_REAL  sizeof(double)
#define DB_SIZE_TEXT  sizeof(char *)
#define DB_SIZE_DUP   sizeof(char *)
#define DB_SIZE_CHARS 0
/* a compile-time check in an expression: 0, or an array of size -1 */
#define DB_CHECK(ok) (0 * sizeof(char[(ok) ? 1 : -1]))

/*
 * DB_COL(T, TYPE, field) - the column that fills T's field as DB_TYPE;
 * a field whose size is not TYPE's does not compile
 */
#define DB_COL(T, type, field)                                      \
	{                                                           \
		DB_##type, offsetof(T, field),                      \
			sizeof(((T *)0)->field) +                   \
				DB_CHECK(DB_##type == DB_CHARS ||   \
					 sizeof(((T *)0)->field) == \
						 DB_SIZE_##type)    \
	}
#define DB_ROW(T, cols)                           \
	{                                         \
		cols, ARRAY_SIZE(cols), sizeof(T) \
	}

/* db_fill - the current row of st into *out by r (texts into o, or borrowed) */
void db_fill(sqlite3_stmt *st, const struct db_row *r, void *out,
	     struct audit_owned *o);
/*
 * db_get - the first row of st into *out: 1, 0 when none, -1; st is
 * reset, so texts must be copies (o, DB_DUP or DB_CHARS)
 */
int db_get(struct audit *db, sqlite3_stmt *st, const char *what,
	   const struct db_row *r, void *out, struct audit_owned *o);
/* db_next - the next row into *out, texts borrowed: 1, 0 at the end, -1 */
int db_next(struct audit *db, sqlite3_stmt *st, const char *what,
	    const struct db_row *r, void *out);
/*
 * db_all - every row of st into a new zeroed array of r->size structs,
 * owned by o with the texts: stored at array (a T ** passed as void *),
 * its length in *n; 0 or -1 (the rows read so far are kept)
 */
int db_all(struct audit *db, sqlite3_stmt *st, const char *what,
	   const struct db_row *r, struct audit_owned *o, void *array,
	   size_t *n);

/*
 * db_get_id, db_all_id - db_get() and db_all() of the statement of
 * static text sql with ?1 bound to id (a report, a row, a time)
 */
int db_get_id(struct audit *db, const char *sql, int64_t id, const char *what,
	      const struct db_row *r, void *out, struct audit_owned *o);
int db_all_id(struct audit *db, const char *sql, int64_t id, const char *what,
	      const struct db_row *r, struct audit_owned *o, void *array,
	      size_t *n);
/* db_run2 - run sql with ?1 = a, ?2 = b to completion; 0 or -1 */
int db_run2(struct audit *db, const char *sql, int64_t a, int64_t b,
	    const char *what);

/* ---- records' allocations (db.c) ----------------------------------------- */

/* db_own - remember p (may be NULL) as the record's; returns p */
void *db_own(struct audit_owned *o, void *p);
void db_owned_release(struct audit_owned *o);

/* ---- transactions (db.c) ------------------------------------------------- */

/*
 * db_txn_enter/db_txn_leave - a function that writes several statements
 * runs them in the caller's transaction, or in its own: enter sets *own
 * when it began one; leave commits it (ret >= 0) or rolls it back, and
 * returns ret, or -1 when the commit failed
 */
int db_txn_enter(struct audit *db, bool *own);
int db_txn_leave(struct audit *db, bool own, int ret);

/* ---- shared by several files --------------------------------------------- */

/* db_set_wal - the journal mode to WAL (db.c; schema.c migrates after) */
int db_set_wal(struct audit *db);
/* db_now - t, or the current time when t is 0 */
int64_t db_now(int64_t t);
/* db_or_null - s, or NULL when s is NULL or "" */
const char *db_or_null(const char *s);
/* db_one_of - s is one of names[0..n) */
bool db_one_of(const char *s, const char *const *names, size_t n);
/*
 * store_inflate - report id's stored bytes p[0..n), zlib-compressed,
 * inflated to the size recorded for them (reports.c): a new
 * NUL-terminated buffer, or NULL after an error
 */
char *store_inflate(struct audit *db, int64_t id, const void *p, size_t n,
		    size_t size);
/* store_set_class - set reports.class and updated_at (reports.c) */
int store_set_class(struct audit *db, int64_t report, const char *class,
		    int64_t at, const char *what);

#endif
