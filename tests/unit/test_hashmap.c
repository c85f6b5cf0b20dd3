// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_hashmap - the one hash table and the one hash function
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "hashmap.h"
#include "util.h"

/* FNV-1a's published test vectors (Landon Curt Noll's fnv test suite) */
static void test_fnv_vectors(void **state)
{
	assert_int_equal(hash_str(""), 0x811c9dc5u);
	assert_int_equal(hash_str("a"), 0xe40c292cu);
	assert_int_equal(hash_str("foobar"), 0xbf9cf968u);
	assert_int_equal(hash_mem("foobar", 6), 0xbf9cf968u);
	assert_true(hash64_mem(FNV64_BASIS, "", 0) == 0xcbf29ce484222325ull);
	assert_true(hash64_mem(FNV64_BASIS, "a", 1) == 0xaf63dc4c8601ec8cull);
	assert_true(hash64_mem(FNV64_BASIS, "foobar", 6) ==
		    0x85944171f73967e8ull);
	/* the case-folded forms hash the lower-case text */
	assert_int_equal(hash_str_ci("FooBar"), hash_str("foobar"));
	assert_int_equal(hash_mem_ci("FOO@X.ORG", 9), hash_str("foo@x.org"));
	assert_true(hash64_str_ci("FooBar") ==
		    hash64_mem(FNV64_BASIS, "foobar", 6));
	/* only ASCII letters fold */
	assert_int_equal(hash_str_ci("\xc3\x89"), hash_str("\xc3\x89"));
	assert_int_not_equal(hash_str_ci("["), hash_str("{"));
}

struct words {
	char **v;
	size_t n, alloc;
	unsigned compares;
};

static bool word_equal(const void *data, uint32_t id, const void *key)
{
	struct words *w = (struct words *)data;

	w->compares++;
	return strcmp(w->v[id], key) == 0;
}

/* interning: ids in insertion order, found again after the array moved */
static void test_intern(void **state)
{
	struct words w = { NULL, 0, 0, 0 };
	struct hashmap m;
	char buf[32];
	size_t i;

	hashmap_init(&m, word_equal, &w, 0);
	assert_int_equal(hashmap_get(&m, hash_str("x"), "x"), HASHMAP_NONE);
	for (i = 0; i < 5000; i++) {
		uint32_t id;

		snprintf(buf, sizeof(buf), "word%zu", i % 2500);
		id = hashmap_put(&m, hash_str(buf), buf, (uint32_t)w.n);
		if (i < 2500) {
			assert_int_equal(id, i);
			ALLOC_GROW(w.v, w.n, w.alloc); /* moves the entries */
			w.v[w.n++] = xstrdup(buf);
		} else {
			assert_int_equal(id, i - 2500);
		}
	}
	assert_int_equal(hashmap_count(&m), 2500);
	/* at most half full */
	assert_true(m.size >= 2 * hashmap_count(&m));
	for (i = 0; i < 2500; i++) {
		snprintf(buf, sizeof(buf), "word%zu", i);
		assert_int_equal(hashmap_get(&m, hash_str(buf), buf), i);
	}
	assert_int_equal(hashmap_get(&m, hash_str("word2500"), "word2500"),
			 HASHMAP_NONE);
	hashmap_release(&m);
	assert_int_equal(hashmap_count(&m), 0);
	assert_int_equal(hashmap_get(&m, hash_str("word1"), "word1"),
			 HASHMAP_NONE);
	for (i = 0; i < w.n; i++)
		free(w.v[i]);
	free(w.v);
}

/*
 * Every key with one hash: each is still found, and the compare
 * function decides (a table that trusted the hash alone would mix them).
 */
static void test_collisions(void **state)
{
	struct words w = { NULL, 0, 0, 0 };
	struct hashmap m;
	char buf[32];
	size_t i;

	hashmap_init(&m, word_equal, &w, 100);
	assert_int_equal(m.size, 256);
	for (i = 0; i < 100; i++) {
		snprintf(buf, sizeof(buf), "k%zu", i);
		ALLOC_GROW(w.v, w.n, w.alloc);
		w.v[w.n] = xstrdup(buf);
		assert_int_equal(hashmap_put(&m, 7, buf, (uint32_t)w.n), w.n);
		w.n++;
	}
	assert_int_equal(m.size, 256); /* the size asked for: no growth */
	for (i = 0; i < 100; i++) {
		snprintf(buf, sizeof(buf), "k%zu", i);
		assert_int_equal(hashmap_get(&m, 7, buf), i);
	}
	assert_int_equal(hashmap_get(&m, 7, "k100"), HASHMAP_NONE);
	/* a different hash is never compared */
	w.compares = 0;
	assert_int_equal(hashmap_get(&m, 8, "k1"), HASHMAP_NONE);
	assert_int_equal(w.compares, 0);
	hashmap_release(&m);
	for (i = 0; i < w.n; i++)
		free(w.v[i]);
	free(w.v);
}

/* hashmap_add() and integer keys (hash_u64) */
struct pairs {
	uint64_t *key;
};

static bool pair_equal(const void *data, uint32_t id, const void *key)
{
	const struct pairs *p = data;

	return p->key[id] == *(const uint64_t *)key;
}

static void test_integer_keys(void **state)
{
	uint64_t keys[1000];
	struct pairs p = { keys };
	struct hashmap m;
	uint32_t i;

	hashmap_init(&m, pair_equal, &p, 0);
	for (i = 0; i < 1000; i++) {
		keys[i] = (uint64_t)(i % 37) << 32 | (i / 37);
		hashmap_add(&m, hash_u64(keys[i]), i);
	}
	for (i = 0; i < 1000; i++)
		assert_int_equal(hashmap_get(&m, hash_u64(keys[i]), &keys[i]),
				 i);
	/* hash_u64 spreads keys that differ only in their high half */
	assert_int_not_equal(hash_u64(1ull << 32) & 1023,
			     hash_u64(2ull << 32) & 1023);
	hashmap_release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fnv_vectors),
		cmocka_unit_test(test_intern),
		cmocka_unit_test(test_collisions),
		cmocka_unit_test(test_integer_keys),
	};

	msg_setup("test_hashmap", 1, false);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
