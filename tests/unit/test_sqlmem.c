// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_sqlmem - the filter's SQLite allocator: sizes, reuse, realloc,
 * and a real database used through it
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

#include "sqlmem.h"

/* every size up to past the largest class: enough room, 16-aligned */
static void test_sizes(void **state)
{
	int n, prev = 0;

	(void)state;
	for (n = 1; n <= 40000; n += (n < 20000 ? 1 : 97)) {
		int r = sqlmem_roundup(n);
		void *p = sqlmem_malloc(n);

		assert_non_null(p);
		assert_true(r >= n);
		assert_true(r >= prev); /* classes grow with n */
		prev = r;
		assert_int_equal(sqlmem_size(p), r);
		assert_int_equal((uintptr_t)p % 16, 0);
		memset(p, 0xa5, (size_t)n); /* the whole of it is ours */
		sqlmem_free(p);
	}
	/* the class boundaries */
	assert_int_equal(sqlmem_roundup(16), 16);
	assert_int_equal(sqlmem_roundup(17), 32);
	assert_int_equal(sqlmem_roundup(256), 256);
	assert_int_equal(sqlmem_roundup(257), 320);
	assert_int_equal(sqlmem_roundup(512), 512);
	assert_int_equal(sqlmem_roundup(513), 640);
	assert_int_equal(sqlmem_roundup(4097), 5120);
	assert_int_equal(sqlmem_roundup(16384), 16384);
	assert_int_equal(sqlmem_roundup(16385), 16392);
	/* not more than a quarter wasted past 256 bytes */
	for (n = 257; n <= 16384; n++)
		assert_true(sqlmem_roundup(n) - n < n / 4 + 16);
	assert_int_equal(sqlmem_size(NULL), 0);
	sqlmem_free(NULL);
}

/* a freed block is given again for its class, and blocks never overlap */
static void test_reuse_and_overlap(void **state)
{
	enum { N = 3000 };
	unsigned char **v = calloc(N, sizeof(*v));
	int *len = calloc(N, sizeof(*len));
	void *a, *b;
	int i, k;

	(void)state;
	a = sqlmem_malloc(100);
	sqlmem_free(a);
	b = sqlmem_malloc(97);
	assert_ptr_equal(a, b); /* same class, taken from its free list */
	sqlmem_free(b);

	srand(7);
	for (i = 0; i < N; i++) {
		len[i] = 1 + rand() % (i % 10 ? 600 : 20000);
		v[i] = sqlmem_malloc(len[i]);
		assert_non_null(v[i]);
		memset(v[i], i & 0xff, (size_t)len[i]);
		if (i % 3 == 0 && i) { /* free some, to be reused */
			k = rand() % i;
			sqlmem_free(v[k]);
			v[k] = NULL;
		}
	}
	for (i = 0; i < N; i++) {
		if (!v[i])
			continue;
		for (k = 0; k < len[i]; k++)
			if (v[i][k] != (i & 0xff))
				fail_msg("block %d byte %d overwritten", i, k);
		sqlmem_free(v[i]);
	}
	free(v);
	free(len);
}

static void test_resize(void **state)
{
	char *p = sqlmem_realloc(NULL, 10), *q;
	int i;

	(void)state;
	assert_non_null(p);
	memcpy(p, "0123456789", 10);
	q = sqlmem_realloc(p, 12); /* still fits its class */
	assert_ptr_equal(p, q);
	for (i = 50; i < 100000; i *= 3) {
		q = sqlmem_realloc(p, i);
		assert_non_null(q);
		assert_memory_equal(q, "0123456789", 10);
		assert_true(sqlmem_size(q) >= i);
		memset(q + 10, 'x', (size_t)i - 10);
		p = q;
	}
	q = sqlmem_realloc(p, 5); /* shrinking a large block moves it */
	assert_non_null(q);
	assert_memory_equal(q, "01234", 5);
	assert_true(sqlmem_size(q) >= 5);
	sqlmem_free(q);
}

/* SQLite itself, through the allocator: a table, a blob, a query */
static void test_sqlite(void **state)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	static char blob[300000];
	int i;

	(void)state;
	assert_int_equal(sqlmem_install(), 0);
	assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db,
				      "CREATE TABLE t (id INTEGER PRIMARY KEY,"
				      " s TEXT, b BLOB);"
				      "CREATE INDEX t_s ON t(s);",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	for (i = 0; i < (int)sizeof(blob); i++)
		blob[i] = (char)(i * 7);
	assert_int_equal(
		sqlite3_prepare_v2(db, "INSERT INTO t (s, b) VALUES (?, ?)", -1,
				   &st, NULL),
		SQLITE_OK);
	for (i = 0; i < 200; i++) {
		char s[32];

		snprintf(s, sizeof(s), "row %d", i);
		sqlite3_bind_text(st, 1, s, -1, SQLITE_TRANSIENT);
		sqlite3_bind_blob(st, 2, blob, i == 100 ? (int)sizeof(blob) : i,
				  SQLITE_STATIC);
		assert_int_equal(sqlite3_step(st), SQLITE_DONE);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	assert_int_equal(
		sqlite3_prepare_v2(db,
				   "SELECT count(*), sum(length(b)),"
				   " (SELECT b FROM t WHERE s = 'row 100')"
				   " FROM t",
				   -1, &st, NULL),
		SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(st, 0), 200);
	assert_int_equal(sqlite3_column_int64(st, 1),
			 199 * 200 / 2 - 100 + (int)sizeof(blob));
	assert_int_equal(sqlite3_column_bytes(st, 2), (int)sizeof(blob));
	assert_memory_equal(sqlite3_column_blob(st, 2), blob, sizeof(blob));
	sqlite3_finalize(st);
	assert_int_equal(sqlite3_close(db), SQLITE_OK);
	/* too late once SQLite runs: refused, and nothing breaks */
	assert_int_equal(sqlmem_install(), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_reuse_and_overlap),
		cmocka_unit_test(test_resize),
		cmocka_unit_test(test_sqlite),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
