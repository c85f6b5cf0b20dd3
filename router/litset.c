// SPDX-License-Identifier: GPL-2.0-only
/*
 * litset - find many short literal strings in a line in one pass (see
 * litset.h)
 *
 * Patterns are indexed by a hash of their first four bytes; a line is
 * scanned once, and a bitmap of the occupied buckets rejects almost
 * every position with one load.  Case folding for the index ORs 0x20
 * into every byte, which folds letters and may merge a few other
 * bytes; the comparison that follows is exact.
 */
#include <stdlib.h>
#include <string.h>

#include "litset.h"
#include "util.h"

static unsigned char fold(unsigned char c)
{
	return (unsigned char)(c | ((unsigned)(c - 'A') < 26u) << 5);
}

static uint32_t key(const struct litset *ls, const char *s)
{
	uint32_t k;

	memcpy(&k, s, sizeof(k));
	return ls->nocase ? k | 0x20202020u : k;
}

/* load4 - four bytes ORed with fm (0x20202020 folds, see above) */
static inline uint32_t load4(const char *s, uint32_t fm)
{
	uint32_t k;

	memcpy(&k, s, sizeof(k));
	return k | fm;
}

static unsigned bucket(uint32_t k)
{
	return (k * 2654435761u) >> (32 - LITSET_BITS);
}

/* load2 - the first two bytes of s ORed with fm (0x2020 folds) */
static inline uint32_t load2(const char *s, uint32_t fm)
{
	uint16_t k;

	memcpy(&k, s, sizeof(k));
	return (uint32_t)k | fm;
}

/* bucket2 - the second index: every needle by its first two bytes */
static unsigned bucket2(uint32_t k)
{
	return (k * 2654435761u) >> (32 - LITSET_BITS2);
}

static bool bit(const uint64_t *map, unsigned h)
{
	return map[h / 64] & ((uint64_t)1 << (h % 64));
}

static void set_bit(uint64_t *map, unsigned h)
{
	map[h / 64] |= (uint64_t)1 << (h % 64);
}

/* litset_init - an empty set */
void litset_init(struct litset *ls, bool nocase)
{
	/*
	 * head[] (16 KB) is left as it is: a bucket is read only when its
	 * seen[] bit is set, and the first add to a bucket sets both.  The
	 * evidence stage makes twenty sets per process; clearing them all
	 * cost more than the rest of its start.
	 */
	ls->v = NULL;
	ls->n = ls->alloc = 0;
	ls->shorts = NULL;
	ls->nshorts = ls->salloc = 0;
	memset(ls->seen, 0, sizeof(ls->seen));
	memset(ls->seen2, 0, sizeof(ls->seen2));
	memset(ls->short2, 0, sizeof(ls->short2));
	ls->nocase = nocase;
}

/* litset_release - free the index */
void litset_release(struct litset *ls)
{
	free(ls->v);
	free(ls->shorts);
	litset_init(ls, ls->nocase);
}

/* litset_add - index pattern under id */
void litset_add(struct litset *ls, const char *pat, unsigned id)
{
	struct litset_entry e = { 0 };
	size_t len = strlen(pat);
	unsigned h;

	if (pat[0] == '^') {
		e.start = 1;
		pat++;
		len--;
	}
	if (len && pat[len - 1] == '$') {
		e.end = 1;
		len--;
	}
	if (len < 2 || len > UINT16_MAX)
		die("litset: bad pattern: %s", pat);
	e.s = pat;
	e.len = (uint16_t)len;
	e.id = (uint16_t)id;
	h = bucket2(load2(pat, ls->nocase ? 0x2020u : 0));
	set_bit(ls->seen2, h);
	if (len < 4) {
		/* too short for the index: see scan() */
		set_bit(ls->short2, h);
		e.next = -1;
		ALLOC_GROW(ls->shorts, ls->nshorts, ls->salloc);
		ls->shorts[ls->nshorts++] = e;
		return;
	}
	h = bucket(key(ls, pat));
	e.next = (ls->seen[h / 64] & ((uint64_t)1 << (h % 64))) ? ls->head[h]
								: -1;
	ls->seen[h / 64] |= (uint64_t)1 << (h % 64);
	ALLOC_GROW(ls->v, ls->n, ls->alloc);
	ls->v[ls->n] = e;
	ls->head[h] = (int32_t)ls->n++;
}

static bool same(const struct litset *ls, const char *a, const char *b,
		 size_t n)
{
	size_t i;

	if (!ls->nocase)
		return !memcmp(a, b, n);
	for (i = 0; i < n; i++)
		if (fold((unsigned char)a[i]) != fold((unsigned char)b[i]))
			return false;
	return true;
}

static bool find_short(const struct litset *ls, const struct litset_entry *e,
		       const char *s, size_t len)
{
	size_t i;

	if (e->len > len)
		return false;
	if (e->end)
		return (!e->start || e->len == len) &&
		       same(ls, s + len - e->len, e->s, e->len);
	if (e->start)
		return same(ls, s, e->s, e->len);
	if (!ls->nocase) {
		/* memmem is vectorised */
		return memmem(s, len, e->s, e->len) != NULL;
	}
	{
		unsigned char c0 = fold((unsigned char)e->s[0]);

		for (i = 0; i + e->len <= len; i++)
			if (fold((unsigned char)s[i]) == c0 &&
			    same(ls, s + i, e->s, e->len))
				return true;
	}
	return false;
}

/* report - one needle found: for scan(); true to stop (first) */
static inline bool report(const struct litset_entry *e, bool first,
			  void (*fn)(void *, unsigned), void *ctx,
			  uint64_t *mask)
{
	if (first) {
		*mask = 1;
		return true;
	}
	if (fn)
		fn(ctx, e->id);
	else if (e->id < 64)
		*mask |= (uint64_t)1 << e->id;
	return false;
}

/*
 * scan - the needles in s[0..len): every occurrence of a long one, in
 * order, then each short one found, once.  In a nocase set with short
 * needles (64 at most), a position whose first two bytes begin no
 * needle (seen2) is passed with one test; one that does is tried
 * against the four-byte index and the short needles.  Comparing every
 * byte with each short needle's first cost 30 instructions a byte for
 * the three of the MAINTAINERS K: set.  Other sets test the four-byte
 * index only (the two-byte test first made the crash-header set, whose
 * needles start with common pairs, slower), and find_short() finds
 * their short needles.
 */
/*
 * scan4 - the four-byte index over s; fm is a constant where inlined,
 * so that each kind of set gets its own loop; true to stop (first)
 */
static inline __attribute__((always_inline)) bool scan4(
	const struct litset *ls, const char *s, size_t len, uint32_t fm,
	bool first, void (*fn)(void *, unsigned), void *ctx, uint64_t *mask)
{
	size_t i;

	for (i = 0; i + 4 <= len; i++) {
		unsigned h = bucket(load4(s + i, fm));
		int32_t j;

		if (!bit(ls->seen, h))
			continue;
		for (j = ls->head[h]; j >= 0; j = ls->v[j].next) {
			const struct litset_entry *e = &ls->v[j];

			if ((e->start && i) || e->len > len - i ||
			    (e->end && i + e->len != len) ||
			    !same(ls, s + i, e->s, e->len))
				continue;
			if (report(e, first, fn, ctx, mask))
				return true;
		}
	}
	return false;
}

static uint64_t scan(const struct litset *ls, const char *s, size_t len,
		     bool first, void (*fn)(void *, unsigned), void *ctx)
{
	uint64_t mask = 0, found = 0;
	bool inloop = ls->nocase && ls->nshorts && ls->nshorts <= 64;
	size_t i, k;

	if (inloop) {
		for (i = 0; i + 2 <= len; i++) {
			unsigned h2 = bucket2(load2(s + i, 0x2020u)), h;
			int32_t j;

			if (!bit(ls->seen2, h2))
				continue;
			if (i + 4 <= len) {
				h = bucket(load4(s + i, 0x20202020u));
				if (bit(ls->seen, h))
					for (j = ls->head[h]; j >= 0;
					     j = ls->v[j].next) {
						const struct litset_entry *e =
							&ls->v[j];

						if ((e->start && i) ||
						    e->len > len - i ||
						    (e->end &&
						     i + e->len != len) ||
						    !same(ls, s + i, e->s,
							  e->len))
							continue;
						if (report(e, first, fn, ctx,
							   &mask))
							return mask;
					}
			}
			if (!bit(ls->short2, h2))
				continue;
			for (k = 0; k < ls->nshorts; k++) {
				const struct litset_entry *e = &ls->shorts[k];

				if ((found & ((uint64_t)1 << k)) ||
				    (e->start && i) || e->len > len - i ||
				    (e->end && i + e->len != len) ||
				    !same(ls, s + i, e->s, e->len))
					continue;
				if (first)
					return 1;
				found |= (uint64_t)1 << k;
			}
		}
	} else if (ls->nocase) {
		if (scan4(ls, s, len, 0x20202020u, first, fn, ctx, &mask))
			return mask;
	} else {
		if (scan4(ls, s, len, 0, first, fn, ctx, &mask))
			return mask;
	}
	for (k = 0; k < ls->nshorts; k++) {
		const struct litset_entry *e = &ls->shorts[k];

		if (inloop ? !(found & ((uint64_t)1 << k))
			   : !find_short(ls, e, s, len))
			continue;
		if (report(e, first, fn, ctx, &mask))
			return mask;
	}
	return mask;
}

/* litset_mask - bit id set for every pattern found (ids below 64) */
uint64_t litset_mask(const struct litset *ls, const char *s, size_t len)
{
	return scan(ls, s, len, false, NULL, NULL);
}

/* litset_each - call fn(ctx, id) for every occurrence of a pattern */
void litset_each(const struct litset *ls, const char *s, size_t len,
		 void (*fn)(void *ctx, unsigned id), void *ctx)
{
	scan(ls, s, len, false, fn, ctx);
}

/* litset_any - some pattern occurs in s */
bool litset_any(const struct litset *ls, const char *s, size_t len)
{
	return scan(ls, s, len, true, NULL, NULL) != 0;
}
