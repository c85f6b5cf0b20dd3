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

#define LITSET_BITS    12
#define LITSET_BUCKETS (1u << LITSET_BITS)
#define LITSET_BITS2   11 /* a needle's first two bytes */

struct litset_entry {
	const char *s;
	uint16_t len;
	uint8_t start, end;
	uint16_t id;
	int32_t next;
};

struct litset {
	struct litset_entry *v;
	size_t n, alloc;
	struct litset_entry *shorts; /* patterns under four bytes */
	size_t nshorts, salloc;
	bool nocase;
	int32_t head[LITSET_BUCKETS];
	uint64_t seen[LITSET_BUCKETS / 64]; /* buckets that are not empty */
	uint64_t seen2[(1u << LITSET_BITS2) / 64];  /* first 2 bytes, all */
	uint64_t short2[(1u << LITSET_BITS2) / 64]; /* of short needles */
};

void litset_init(struct litset *ls, bool nocase);
void litset_release(struct litset *ls);
void litset_add(struct litset *ls, const char *pattern, unsigned id);

/* litset_mask - bit id set for every pattern found (ids below 64) */
uint64_t litset_mask(const struct litset *ls, const char *s, size_t len);

/* litset_each - call fn(ctx, id) for every occurrence found (any id) */
void litset_each(const struct litset *ls, const char *s, size_t len,
		 void (*fn)(void *ctx, unsigned id), void *ctx);

/* litset_any - some pattern occurs in s */
bool litset_any(const struct litset *ls, const char *s, size_t len);

#endif
