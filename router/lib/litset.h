/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * litset - find many short literal strings in a line in one pass
 *
 * DESCRIPTION
 *	Part of the evidence stage: crash headers, generic frame names and
 *	the markers the evidence scan looks for are tested against every
 *	line of a report.  One memmem() per needle and line costs more
 *	than the whole per-message budget, so the needles are indexed by
 *	their first two and first four bytes and a line is scanned once.
 *
 *	Pattern syntax: "^x" must start the string, "x$" must end it,
 *	otherwise x may occur anywhere.  Needles of two or three bytes are
 *	allowed: a case-sensitive one is searched with memmem(); those of
 *	a set made with nocase are looked for in the same pass.  Such a needle is reported once per
 *	call, however often it occurs (a longer one, at each occurrence).
 *	A set made with nocase compares ASCII letters without case.
 *
 * Ownership:
 *	The set keeps pointers to the pattern strings, which must outlive
 *	it (string literals in practice); litset_release() frees the index.
 *
 * Errors:
 *	A pattern shorter than two bytes is a programming error and dies.
 */
#ifndef TRIAGE_LITSET_H
#define TRIAGE_LITSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LITSET_MINBITS 6  /* one word of seen[] */
#define LITSET_MAXBITS 12 /* 512 bytes of seen[] */
#define LITSET_LOAD    6  /* buckets >= needles << LITSET_LOAD */
#define LITSET_BITS2   11 /* a needle's first two bytes */

struct litset_entry {
	const char *s;
	uint16_t len;
	uint8_t start, end;
	uint16_t id;
	int32_t next;
};

/*
 * The index of the needles of four bytes or more has 1 << bits buckets,
 * enough to keep it at most 1/64 full (LITSET_LOAD) up to 4096 buckets
 * (LITSET_MAXBITS, reached at 64 needles); it grows four times over,
 * and is rebuilt, as needles are added.  Only the occupancy bitmap
 * seen[] has a bit per bucket: the heads of the buckets that are not
 * empty are stored in bucket order, found by counting the bits before
 * a bucket's (rank[] per word of seen[]), so that a set of a few
 * needles takes a few hundred bytes, not 16 KB.
 */
struct litset {
	struct litset_entry *v;
	size_t n, alloc;
	struct litset_entry *shorts; /* patterns under four bytes */
	size_t nshorts, salloc;
	unsigned bits;	/* log2 of the buckets */
	uint64_t *seen; /* buckets that are not empty */
	uint16_t *rank; /* per word of seen[]: set bits before it */
	int32_t *head;	/* first entry of each bucket that is not empty */
	size_t nhead, halloc;
	uint64_t *seen2;  /* nocase sets: first 2 bytes, all (2048 bits) */
	uint64_t *short2; /* of short needles */
	bool nocase;
};

void litset_init(struct litset *ls, bool nocase);
void litset_release(struct litset *ls);
void litset_add(struct litset *ls, const char *pattern, unsigned id);

/*
 * litset_add_all - litset_add() each of pats[0..n) under id; cheaper
 * than adding them one by one (the table is rebuilt once)
 */
void litset_add_all(struct litset *ls, const char *const *pats, size_t n,
		    unsigned id);

/* litset_mask - bit id set for every pattern found (ids below 64) */
uint64_t litset_mask(const struct litset *ls, const char *s, size_t len);

/*
 * litset_mask2 - litset_mask() of s[0..len) and, in *tail, of its tail
 * s[off..len) (off <= len), in one pass: a "^" needle matches the tail
 * only at off, one that is not anchored only at or after off
 */
uint64_t litset_mask2(const struct litset *ls, const char *s, size_t len,
		      size_t off, uint64_t *tail);

/* litset_each - call fn(ctx, id) for every occurrence found (any id) */
void litset_each(const struct litset *ls, const char *s, size_t len,
		 void (*fn)(void *ctx, unsigned id), void *ctx);

/* litset_any - some pattern occurs in s */
bool litset_any(const struct litset *ls, const char *s, size_t len);

#endif
