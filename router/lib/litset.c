// SPDX-License-Identifier: GPL-2.0-only
/*
 * litset - find many short literal strings in a line in one pass (see
 * litset.h)
 *
 * Patterns are indexed by a hash of their first four bytes; a line is
 * scanned once, and a bitmap of the occupied buckets rejects almost
 * every position with one load.  The table is sized to the needles
 * (see struct litset): the evidence stage makes some twenty sets, most
 * of a few needles, and a fixed 16 KB table each cost more in page
 * faults per process than scanning with them.  Case folding for the
 * index ORs 0x20 into every byte, which folds letters and may merge a
 * few other bytes; the comparison that follows is exact.
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

/* bucket - k's bucket in a table of 1 << bits */
static inline unsigned bucket(uint32_t k, unsigned bits)
{
	return (k * 2654435761u) >> (32 - bits);
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

/* the table of a set with no long needle: no bucket is used */
static uint64_t no_buckets[1];
static uint16_t no_rank[1];
_Static_assert(LITSET_MAXBITS < 16, "rank[] holds bucket counts in 16 bits");

/*
 * popcount64 - the bits set in x; the baseline x86-64 has no popcnt,
 * and __builtin_popcountll() is a call into libgcc
 */
static inline unsigned popcount64(uint64_t x)
{
	x -= (x >> 1) & 0x5555555555555555u;
	x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fu;
	return (unsigned)((x * 0x0101010101010101u) >> 56);
}

/* litset_init - an empty set */
void litset_init(struct litset *ls, bool nocase)
{
	/* nothing is allocated until a needle is added */
	ls->v = NULL;
	ls->n = ls->alloc = 0;
	ls->shorts = NULL;
	ls->nshorts = ls->salloc = 0;
	ls->bits = LITSET_MINBITS;
	ls->seen = no_buckets;
	ls->rank = no_rank;
	ls->head = NULL;
	ls->nhead = ls->halloc = 0;
	ls->seen2 = ls->short2 = NULL;
	ls->nocase = nocase;
}

/* free_table - free the index of the long needles */
static void free_table(struct litset *ls)
{
	if (ls->seen != no_buckets)
		free(ls->seen); /* and rank[], allocated with it */
	free(ls->head);
	ls->seen = no_buckets;
	ls->rank = no_rank;
	ls->head = NULL;
	ls->nhead = ls->halloc = 0;
}

/* litset_release - free the index */
void litset_release(struct litset *ls)
{
	free(ls->v);
	free(ls->shorts);
	free_table(ls);
	free(ls->seen2); /* and short2[] */
	litset_init(ls, ls->nocase);
}

/*
 * rebuild - index v[0..n) in a table of 1 << bits buckets: mark the
 * buckets, count the bits before each word, then chain each bucket's
 * entries, the last added first (as adding them one by one does)
 */
static void rebuild(struct litset *ls, unsigned bits)
{
	size_t nw = ((size_t)1 << bits) / 64, i, w;
	uint16_t r = 0;

	free_table(ls);
	ls->bits = bits;
	/* one block: seen[nw] then rank[nw] */
	ls->seen = xcalloc(nw, sizeof(uint64_t) + sizeof(uint16_t));
	ls->rank = (uint16_t *)(ls->seen + nw);
	for (i = 0; i < ls->n; i++) {
		unsigned h = bucket(key(ls, ls->v[i].s), bits);

		ls->seen[h / 64] |= (uint64_t)1 << (h % 64);
	}
	for (w = 0; w < nw; w++) {
		ls->rank[w] = r;
		r = (uint16_t)(r + popcount64(ls->seen[w]));
	}
	ls->nhead = r;
	ls->halloc = 2 * (size_t)r; /* room for some more buckets */
	ls->head = xmalloc(ls->halloc * sizeof(*ls->head));
	memset(ls->head, 0xff, r * sizeof(*ls->head)); /* all -1 */
	for (i = 0; i < ls->n; i++) {
		unsigned h = bucket(key(ls, ls->v[i].s), bits);
		uint64_t b = (uint64_t)1 << (h % 64);
		int32_t *hp = &ls->head[ls->rank[h / 64] +
					popcount64(ls->seen[h / 64] & (b - 1))];

		ls->v[i].next = *hp;
		*hp = (int32_t)i;
	}
}

/* insert - chain v[i] in its bucket, making room for a new bucket */
static void insert(struct litset *ls, size_t i)
{
	unsigned h = bucket(key(ls, ls->v[i].s), ls->bits);
	size_t w = h / 64, nw = ((size_t)1 << ls->bits) / 64, r, x;
	uint64_t b = (uint64_t)1 << (h % 64);

	r = ls->rank[w] + popcount64(ls->seen[w] & (b - 1));
	if (ls->seen[w] & b) {
		ls->v[i].next = ls->head[r];
		ls->head[r] = (int32_t)i;
		return;
	}
	ALLOC_GROW(ls->head, ls->nhead, ls->halloc);
	memmove(ls->head + r + 1, ls->head + r,
		(ls->nhead - r) * sizeof(*ls->head));
	ls->nhead++;
	ls->head[r] = (int32_t)i;
	ls->v[i].next = -1;
	ls->seen[w] |= b;
	/* ranks are below 4096: add to four at a time */
	for (x = w + 1; x < nw && x % 4; x++)
		ls->rank[x]++;
	for (; x < nw; x += 4) {
		uint64_t q;

		memcpy(&q, ls->rank + x, sizeof(q));
		q += 0x0001000100010001u;
		memcpy(ls->rank + x, &q, sizeof(q));
	}
}

/* append - parse pattern into v[] or shorts[]; the index is left to come */
static void append(struct litset *ls, const char *pat, unsigned id)
{
	struct litset_entry e = { 0 };
	size_t len = strlen(pat);
	unsigned h = 0;

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
	e.next = -1;
	if (ls->nocase) {
		/* the two-byte index serves the scan of nocase sets only */
		if (!ls->seen2) {
			ls->seen2 = xcalloc(2 * (1u << LITSET_BITS2) / 64,
					    sizeof(uint64_t));
			ls->short2 = ls->seen2 + (1u << LITSET_BITS2) / 64;
		}
		h = bucket2(load2(pat, 0x2020u));
		set_bit(ls->seen2, h);
	}
	if (len < 4) {
		/* too short for the index: see scan() */
		if (ls->nocase)
			set_bit(ls->short2, h);
		ALLOC_GROW(ls->shorts, ls->nshorts, ls->salloc);
		ls->shorts[ls->nshorts++] = e;
		return;
	}
	ALLOC_GROW(ls->v, ls->n, ls->alloc);
	ls->v[ls->n++] = e;
}

/*
 * index_from - index v[from..n): insert them one by one, or rebuild
 * the table when it must grow (four times over: a rebuild costs more
 * than a few bits) or when many were added at once
 */
static void index_from(struct litset *ls, size_t from)
{
	unsigned bits = ls->bits;

	while (bits < LITSET_MAXBITS &&
	       ((size_t)1 << bits) < ls->n << LITSET_LOAD)
		bits += 2;
	if (bits != ls->bits || ls->seen == no_buckets || ls->n - from > 8) {
		rebuild(ls, bits);
		return;
	}
	for (; from < ls->n; from++)
		insert(ls, from);
}

/* litset_add - index pattern under id */
void litset_add(struct litset *ls, const char *pat, unsigned id)
{
	size_t from = ls->n;

	append(ls, pat, id);
	if (ls->n > from)
		index_from(ls, from);
}

/* litset_add_all - index the n patterns of pats[] under id */
void litset_add_all(struct litset *ls, const char *const *pats, size_t n,
		    unsigned id)
{
	size_t from = ls->n, i;

	for (i = 0; i < n; i++)
		append(ls, pats[i], id);
	if (ls->n > from)
		index_from(ls, from);
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

/* the state of one scan, for the out-of-line steps of scan() */
struct hits {
	const struct litset *ls;
	const char *s;
	size_t len;
	bool first; /* stop at the first needle (litset_any) */
	void (*fn)(void *, unsigned);
	void *ctx;
	uint64_t mask;	/* found, or 1 if first found one */
	uint64_t found; /* short needles found, for the nocase loop */
	bool two;	/* also the needles of s[off..len) (litset_mask2) */
	size_t off;
	uint64_t tmask;	 /* found in s[off..len) */
	uint64_t tfound; /* short needles found there, nocase loop */
};

/* report - one needle found; true to stop (first) */
static inline bool report(struct hits *st, const struct litset_entry *e)
{
	if (st->first) {
		st->mask = 1;
		return true;
	}
	if (st->fn)
		st->fn(st->ctx, e->id);
	else if (e->id < 64)
		st->mask |= (uint64_t)1 << e->id;
	return false;
}

/* matches - e occurs at position i */
static inline bool matches(const struct hits *st, const struct litset_entry *e,
			   size_t i)
{
	return !(e->start && i) && e->len <= st->len - i &&
	       !(e->end && i + e->len != st->len) &&
	       same(st->ls, st->s + i, e->s, e->len);
}

/*
 * tail_matches - e occurs at position i of s[off..len), m telling
 * whether it occurs there in s (the same but for a "^" needle)
 */
static inline bool tail_matches(const struct hits *st,
				const struct litset_entry *e, size_t i, bool m)
{
	if (i < st->off)
		return false;
	if (!e->start || !st->off)
		return m;
	return i == st->off && e->len <= st->len - i &&
	       !(e->end && i + e->len != st->len) &&
	       same(st->ls, st->s + i, e->s, e->len);
}

static inline void tail_report(struct hits *st, const struct litset_entry *e)
{
	if (e->id < 64)
		st->tmask |= (uint64_t)1 << e->id;
}

/*
 * walk - the long needles at position i, whose four bytes fall in
 * bucket h (bit set in w, its word of seen[]); true to stop.  Out of
 * line: few positions get here, and the scan loops keep their
 * registers.
 */
static __attribute__((noinline)) bool walk(struct hits *st, size_t i,
					   unsigned h, uint64_t w)
{
	const struct litset *ls = st->ls;
	uint64_t below = w & (((uint64_t)1 << (h % 64)) - 1);
	int32_t j = ls->head[ls->rank[h / 64] + popcount64(below)];

	for (; j >= 0; j = ls->v[j].next) {
		const struct litset_entry *e = &ls->v[j];
		bool m = matches(st, e, i);

		if (m && report(st, e))
			return true;
		if (st->two && tail_matches(st, e, i, m))
			tail_report(st, e);
	}
	return false;
}

/*
 * at2 - position i of a nocase set whose first two bytes begin some
 * needle: the four-byte index, then the short needles not found yet;
 * true to stop
 */
static __attribute__((noinline)) bool at2(struct hits *st, size_t i,
					  unsigned h2)
{
	const struct litset *ls = st->ls;
	size_t k;

	if (i + 4 <= st->len && ls->n) {
		unsigned h = bucket(load4(st->s + i, 0x20202020u), ls->bits);
		uint64_t w = ls->seen[h / 64];

		if ((w >> (h % 64) & 1) && walk(st, i, h, w))
			return true;
	}
	if (!bit(ls->short2, h2))
		return false;
	for (k = 0; k < ls->nshorts; k++) {
		const struct litset_entry *e = &ls->shorts[k];
		uint64_t b = (uint64_t)1 << k;
		bool m;

		if (!st->two) {
			if ((st->found & b) || !matches(st, e, i))
				continue;
		} else {
			m = matches(st, e, i);
			if (!(st->tfound & b) && tail_matches(st, e, i, m))
				st->tfound |= b;
			if ((st->found & b) || !m)
				continue;
		}
		if (st->first) {
			st->mask = 1;
			return true;
		}
		st->found |= b;
	}
	return false;
}

/*
 * scan - the needles in s[0..len): every occurrence of a long one, in
 * order, then each short one found, once.  In a nocase set with short
 * needles (64 at most), a position whose first two bytes begin no
 * needle (seen2) is passed with one test; one that does is tried
 * against the four-byte index and the short needles.  Comparing every
 * byte with each short needle's first was the costly part of scanning
 * with the three of the MAINTAINERS K: set.  Other sets test the
 * four-byte index only (the two-byte test first made the crash-header
 * set, whose needles start with common pairs, slower), and
 * find_short() finds their short needles.
 */
/*
 * scan4 - the four-byte index over s; fm is a constant where inlined,
 * so that each kind of set gets its own loop; true to stop (first)
 */
static inline __attribute__((always_inline)) bool scan4(struct hits *st,
							uint32_t fm)
{
	const uint64_t *seen = st->ls->seen;
	unsigned bits = st->ls->bits;
	const char *s = st->s;
	size_t len = st->len, i;

	for (i = 0; i + 4 <= len; i++) {
		unsigned h = bucket(load4(s + i, fm), bits);
		uint64_t w = seen[h / 64];

		if ((w >> (h % 64) & 1) && walk(st, i, h, w))
			return true;
	}
	return false;
}

static uint64_t scan(struct hits *sp)
{
	struct hits st = *sp;
	const struct litset *ls = st.ls;
	const char *s = st.s;
	size_t len = st.len;
	bool inloop = ls->nocase && ls->nshorts && ls->nshorts <= 64;
	size_t i, k;

	if (inloop) {
		const uint64_t *seen2 = ls->seen2;

		for (i = 0; i + 2 <= len; i++) {
			unsigned h2 = bucket2(load2(s + i, 0x2020u));

			if (bit(seen2, h2) && at2(&st, i, h2))
				return st.mask;
		}
	} else if (ls->n) { /* else short needles only */
		if (ls->nocase ? scan4(&st, 0x20202020u) : scan4(&st, 0))
			return st.mask;
	}
	for (k = 0; k < ls->nshorts; k++) {
		const struct litset_entry *e = &ls->shorts[k];

		if (st.two &&
		    (inloop ? (st.tfound & ((uint64_t)1 << k))
			    : find_short(ls, e, s + st.off, len - st.off)))
			tail_report(&st, e);
		if (inloop ? !(st.found & ((uint64_t)1 << k))
			   : !find_short(ls, e, s, len))
			continue;
		if (report(&st, e))
			return st.mask;
	}
	sp->tmask = st.tmask;
	return st.mask;
}

/* litset_mask - bit id set for every pattern found (ids below 64) */
uint64_t litset_mask(const struct litset *ls, const char *s, size_t len)
{
	struct hits st = {
		ls, s, len, false, NULL, NULL, 0, 0, false, 0, 0, 0
	};

	return scan(&st);
}

/* litset_mask2 - litset_mask() of s and of its tail s[off..len) at once */
uint64_t litset_mask2(const struct litset *ls, const char *s, size_t len,
		      size_t off, uint64_t *tail)
{
	struct hits st = { ls, s, len,	   false, NULL, NULL,
			   0,  0, off > 0, off,	  0,	0 };
	uint64_t mask;

	if (off > len)
		die("litset_mask2: offset %zu past %zu bytes", off, len);
	mask = scan(&st);
	*tail = off ? st.tmask : mask;
	return mask;
}

/* litset_each - call fn(ctx, id) for every occurrence of a pattern */
void litset_each(const struct litset *ls, const char *s, size_t len,
		 void (*fn)(void *ctx, unsigned id), void *ctx)
{
	struct hits st = { ls, s, len, false, fn, ctx, 0, 0, false, 0, 0, 0 };

	scan(&st);
}

/* litset_any - some pattern occurs in s */
bool litset_any(const struct litset *ls, const char *s, size_t len)
{
	struct hits st = { ls, s, len, true, NULL, NULL, 0, 0, false, 0, 0, 0 };

	return scan(&st) != 0;
}
