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

static unsigned bucket(uint32_t k)
{
	return (k * 2654435761u) >> (32 - LITSET_BITS);
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
	if (len < 4) {
		/* too short for the index: tried one by one */
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

static uint64_t scan(const struct litset *ls, const char *s, size_t len,
		     bool first, void (*fn)(void *, unsigned), void *ctx)
{
	uint64_t mask = 0;
	size_t i, k;

	for (i = 0; i + 4 <= len; i++) {
		unsigned h = bucket(key(ls, s + i));
		int32_t j;

		if (!(ls->seen[h / 64] & ((uint64_t)1 << (h % 64))))
			continue;
		for (j = ls->head[h]; j >= 0; j = ls->v[j].next) {
			const struct litset_entry *e = &ls->v[j];

			if ((e->start && i) || e->len > len - i ||
			    (e->end && i + e->len != len) ||
			    !same(ls, s + i, e->s, e->len))
				continue;
			if (first)
				return 1;
			if (fn)
				fn(ctx, e->id);
			else if (e->id < 64)
				mask |= (uint64_t)1 << e->id;
		}
	}
	for (k = 0; k < ls->nshorts; k++) {
		const struct litset_entry *e = &ls->shorts[k];

		if (!find_short(ls, e, s, len))
			continue;
		if (first)
			return 1;
		if (fn)
			fn(ctx, e->id);
		else if (e->id < 64)
			mask |= (uint64_t)1 << e->id;
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
