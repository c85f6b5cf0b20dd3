/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hashmap - the one in-memory hash table of triage
 *
 * DESCRIPTION
 *	A table from keys to ids: an id is a small integer naming an entry
 *	the caller keeps in its own array (a rule, an interned string, a
 *	(path, person) pair, a keyword).  Each slot holds an id and its
 *	key's hash (hash.h); a lookup compares hashes first and calls the
 *	table's compare function only when they are equal.
 *
 *		struct hashmap m;
 *
 *		hashmap_init(&m, name_equal, rs, 0);
 *		id = hashmap_put(&m, hash_str(name), name, rs->n);
 *		if (id == rs->n)
 *			... name was new: store entry rs->n ...
 *		id = hashmap_get(&m, hash_str(name), name);
 *
 *	Open addressing with linear probing, a power-of-two size, at most
 *	half full: a slot is 8 bytes, an entry 16 to 32, and nothing is
 *	allocated per entry.  Entries are never removed (no table needs
 *	it): hashmap_release() frees the table.
 *
 *	Why not git's hashmap.c or GLib's GHashTable.  The shape is git's
 *	(a hash kept with every entry, a compare function given once),
 *	but git's entries are structs linked through a pointer inside
 *	them, and every table here keeps its entries in an array that
 *	moves when it grows (ALLOC_GROW): an entry is named by its index
 *	instead, which also keeps a slot at 8 bytes instead of git's 16
 *	per entry plus a bucket pointer.  GHashTable is linked only into
 *	the filter (through GMime), not into triage, and keeps a key
 *	pointer, a value pointer and a hash per slot (20 bytes).
 *
 * Ownership:
 *	The table owns its slots only; keys and entries are the caller's.
 *
 * Errors:
 *	None: allocation failure dies (util.h); more than HASHMAP_MAX
 *	entries is a programming error and dies too.
 */
#ifndef TRIAGE_HASHMAP_H
#define TRIAGE_HASHMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HASHMAP_NONE UINT32_MAX
#define HASHMAP_MAX  (UINT32_MAX - 2)

/*
 * hashmap_equal_fn - does entry id (of data) have this key?  key is
 * what the caller passed to hashmap_get() or hashmap_put().
 */
typedef bool (*hashmap_equal_fn)(const void *data, uint32_t id,
				 const void *key);

struct hashmap_slot {
	uint32_t hash;
	uint32_t id1; /* id + 1; 0 is an empty slot */
};

struct hashmap {
	struct hashmap_slot *slot;
	size_t size; /* a power of two, or 0 before the first entry */
	size_t n;
	hashmap_equal_fn equal;
	const void *data;
};

void hashmap_init(struct hashmap *m, hashmap_equal_fn equal, const void *data,
		  size_t expect);
void hashmap_release(struct hashmap *m);

/* hashmap_get - the id of key (hash is its hash), or HASHMAP_NONE */
uint32_t hashmap_get(const struct hashmap *m, uint32_t hash, const void *key);

/*
 * hashmap_put - the id of key if present, else adds key as id and
 * returns id (so "== id" tells that it was added)
 */
uint32_t hashmap_put(struct hashmap *m, uint32_t hash, const void *key,
		     uint32_t id);

/* hashmap_add - add id under hash; the caller knows its key is new */
void hashmap_add(struct hashmap *m, uint32_t hash, uint32_t id);

static inline size_t hashmap_count(const struct hashmap *m)
{
	return m->n;
}

#endif
