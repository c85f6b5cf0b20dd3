// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_walbuf - a commit's WAL frames written with one call, and in the
 * file (readable by another connection, recoverable from the WAL alone)
 * when the commit returns
 *
 * Under walbuf sits a counting VFS, registered as the default before
 * walbuf registers: it counts the writes that reach the WAL files.
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
#include <sys/wait.h>
#include <unistd.h>

#include "audit_scratch.h"
#include "util.h"
#include "walbuf.h"

/* ---- the counting VFS ---------------------------------------------------- */

static sqlite3_vfs *unix_vfs;
static sqlite3_vfs count_vfs;
static sqlite3_io_methods count_io;
static const sqlite3_io_methods *unix_io;
static int wal_writes;

static int count_write(sqlite3_file *f, const void *d, int n, sqlite3_int64 o)
{
	wal_writes++;
	return unix_io->xWrite(f, d, n, o);
}

static int count_open(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *f,
		      int flags, int *out)
{
	int rc = unix_vfs->xOpen(unix_vfs, name, f, flags, out);

	(void)vfs;
	if (rc == SQLITE_OK && (flags & SQLITE_OPEN_WAL) && f->pMethods) {
		unix_io = f->pMethods;
		count_io = *unix_io;
		count_io.xWrite = count_write;
		f->pMethods = &count_io;
	}
	return rc;
}

static int setup(void **state)
{
	(void)state;
	unix_vfs = sqlite3_vfs_find(NULL);
	count_vfs = *unix_vfs;
	count_vfs.zName = "count";
	count_vfs.xOpen = count_open;
	if (sqlite3_vfs_register(&count_vfs, 1) != SQLITE_OK)
		return -1;
	return scratch_make("test_walbuf");
}

static int teardown(void **state)
{
	(void)state;
	scratch_remove();
	return 0;
}

/* ---- helpers ------------------------------------------------------------- */

static sqlite3 *open_db(const char *path, const char *vfs)
{
	sqlite3 *db = NULL;

	assert_int_equal(
		sqlite3_open_v2(path, &db,
				SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
				vfs),
		SQLITE_OK);
	assert_int_equal(sqlite3_exec(db,
				      "PRAGMA journal_mode = WAL;"
				      "PRAGMA synchronous = NORMAL;"
				      "CREATE TABLE IF NOT EXISTS t(k INTEGER "
				      "PRIMARY KEY, v BLOB)",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	return db;
}

static void exec_ok(sqlite3 *db, const char *sql)
{
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
}

static long long one(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	long long v;

	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* insert n rows of size bytes each, from key k on, in one transaction */
static void insert(sqlite3 *db, int k, int n, int size)
{
	char *sql = xasprintf("BEGIN; WITH RECURSIVE c(i) AS (SELECT %d UNION "
			      "ALL SELECT i + 1 FROM c WHERE i < %d) INSERT "
			      "INTO t SELECT i, randomblob(%d) FROM c; COMMIT",
			      k, k + n - 1, size);

	exec_ok(db, sql);
	free(sql);
}

/* ---- tests --------------------------------------------------------------- */

/* twenty pages committed: one write to the WAL, not forty-odd */
static void test_one_write_per_commit(void **state)
{
	char *a = scratch_path("a.db"), *b = scratch_path("b.db");
	const char *vfs = walbuf_vfs();
	sqlite3 *db;

	(void)state;
	assert_non_null(vfs);
	db = open_db(a, vfs);
	insert(db, 1, 1, 10); /* the WAL's header, and a first commit */
	wal_writes = 0;
	insert(db, 100, 20, 3000);
	assert_int_equal(wal_writes, 1);
	sqlite3_close(db);

	/* without walbuf: a header and a page for each frame */
	db = open_db(b, "count");
	insert(db, 1, 1, 10);
	wal_writes = 0;
	insert(db, 100, 20, 3000);
	assert_true(wal_writes > 20);
	sqlite3_close(db);
	free(a);
	free(b);
}

/*
 * What a commit returned is in the file: another connection reads it at
 * once, and so does one that must rebuild the WAL index from the WAL
 * file alone (its -shm removed) after the writer died without closing
 * (kill -9 once the client had its answer).  A small commit (one frame,
 * written at once), a long one (more than the buffer) and one whose
 * cache spilled (frames written twice, their checksums rewritten).
 */
static void test_commit_is_in_the_file(void **state)
{
	char *path = scratch_path("c.db"), *shm = xasprintf("%s-shm", path);
	sqlite3 *db, *other;
	pid_t pid;
	int status;

	(void)state;
	db = open_db(path, walbuf_vfs());
	other = open_db(path, "count");
	insert(db, 1, 1, 10);
	assert_int_equal(one(other, "SELECT count(*) FROM t"), 1);
	insert(db, 2, 20, 3000);
	assert_int_equal(one(other, "SELECT count(*) FROM t"), 21);
	sqlite3_close(other);
	sqlite3_close(db);

	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* no cmocka here: a failure is the exit status */
		char *sql = xasprintf(
			"PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;"
			"PRAGMA wal_autocheckpoint = 0;"
			"INSERT INTO t VALUES (100, randomblob(10));"
			"WITH RECURSIVE c(i) AS (SELECT 200 UNION ALL SELECT "
			"i + 1 FROM c WHERE i < %d) INSERT INTO t SELECT i, "
			"randomblob(3000) FROM c;"
			"PRAGMA cache_size = 2; BEGIN;"
			"UPDATE t SET v = randomblob(3000) WHERE k >= 200;"
			"UPDATE t SET v = randomblob(2900) WHERE k >= 200;"
			"INSERT INTO t VALUES (999, randomblob(10));"
			"COMMIT",
			199 + 2 * WALBUF_MAX / 3000);

		if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE,
				    walbuf_vfs()) != SQLITE_OK ||
		    sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
			_exit(1);
		_exit(0); /* no close: as a kill */
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	unlink(shm);
	db = open_db(path, "count");
	assert_int_equal(one(db, "SELECT count(*) FROM t WHERE k = 999"), 1);
	assert_int_equal(one(db, "SELECT count(*) FROM t WHERE k = 100"), 1);
	assert_int_equal(one(db, "SELECT min(length(v)) FROM t WHERE k >= 200 "
				 "AND k < 999"),
			 2900);
	assert_int_equal(one(db, "SELECT count(*) FROM t WHERE k >= 200 AND "
				 "k < 999"),
			 2 * WALBUF_MAX / 3000);
	assert_int_equal(one(db, "SELECT count(*) FROM t WHERE k < 100"), 21);
	assert_int_equal(one(db, "SELECT count(*) FROM pragma_integrity_check "
				 "WHERE integrity_check = 'ok'"),
			 1);
	sqlite3_close(db);
	free(shm);
	free(path);
}

/* a transaction rolled back after its cache spilled leaves nothing */
static void test_rollback_after_spill(void **state)
{
	char *path = scratch_path("r.db");
	sqlite3 *db, *other;

	(void)state;
	db = open_db(path, walbuf_vfs());
	other = open_db(path, "count");
	insert(db, 1, 5, 100);
	exec_ok(db, "PRAGMA cache_size = 2; BEGIN;"
		    "INSERT INTO t SELECT k + 1000, randomblob(3000) FROM t;"
		    "INSERT INTO t SELECT k + 2000, randomblob(3000) FROM t;"
		    "ROLLBACK");
	insert(db, 10, 3, 3000);
	assert_int_equal(one(other, "SELECT count(*) FROM t"), 8);
	assert_int_equal(one(db, "SELECT count(*) FROM t"), 8);
	sqlite3_close(other);
	sqlite3_close(db);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_write_per_commit),
		cmocka_unit_test(test_commit_is_in_the_file),
		cmocka_unit_test(test_rollback_after_spill),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
