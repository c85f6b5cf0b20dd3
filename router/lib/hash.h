/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hash - the one string hash of triage: FNV-1a
 *
 * DESCRIPTION
 *	FNV-1a (Fowler, Noll, Vo) over bytes, in its 32-bit form for the
 *	tables of hashmap.h and the buckets of the compiled MAINTAINERS
 *	index (map.idx stores these hashes: they must not change), and in
 *	its 64-bit form where a hash names something outside the process:
 *	the features of the trained model (model.bin) and the recipient
 *	part of a forward's Message-ID.  The _ci variants fold ASCII
 *	letters to lower case first, so that "Foo@Example.ORG" and
 *	"foo@example.org" hash alike.
 *
 *	hash_step() and hash64_step() are one byte's step, for a caller
 *	that hashes while it copies (the model's tokenizer).
 *
 *	hash_mix64() is the one mixer of 64-bit values (splitmix64's
 *	finalizer): the model's feature buckets and random numbers
 *	(model.bin depends on it: it must not change), and hash_u64(),
 *	which folds a 64-bit integer key (two 32-bit ids side by side) into
 *	32 bits: FNV-1a over the eight bytes would do, but its low bits,
 *	which pick the slot, mix the high bytes of the key poorly.
 *
 *	FNV-1a is not keyed: whoever chooses the keys can make them
 *	collide.  A table that holds keys from a message is bounded (the
 *	MIME boundaries of one message), so collisions cost probes in a
 *	small table, never memory.
 */
#ifndef TRIAGE_HASH_H
#define TRIAGE_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define FNV32_BASIS 2166136261u
#define FNV32_PRIME 16777619u
#define FNV64_BASIS 0xcbf29ce484222325ull
#define FNV64_PRIME 0x100000001b3ull

static inline unsigned char hash_fold(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

static inline uint32_t hash_step(uint32_t h, unsigned char c)
{
	return (h ^ c) * FNV32_PRIME;
}

static inline uint64_t hash64_step(uint64_t h, unsigned char c)
{
	return (h ^ c) * FNV64_PRIME;
}

/* fnv1a - the one loop: n bytes from h, ASCII case folded when fold */
static inline uint64_t fnv1a(uint64_t h, uint64_t prime, const void *p,
			     size_t n, bool fold)
{
	const unsigned char *s = p;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (fold ? hash_fold(s[i]) : s[i])) * prime;
	return h;
}

/* hash_mem - FNV-1a 32 of n bytes; _ci: ASCII letters folded */
static inline uint32_t hash_mem(const void *p, size_t n)
{
	return (uint32_t)fnv1a(FNV32_BASIS, FNV32_PRIME, p, n, false);
}

static inline uint32_t hash_mem_ci(const void *p, size_t n)
{
	return (uint32_t)fnv1a(FNV32_BASIS, FNV32_PRIME, p, n, true);
}

static inline uint32_t hash_str(const char *s)
{
	return hash_mem(s, strlen(s));
}

static inline uint32_t hash_str_ci(const char *s)
{
	return hash_mem_ci(s, strlen(s));
}

/* hash64_mem - FNV-1a 64 of n bytes, from init (FNV64_BASIS, or seeded) */
static inline uint64_t hash64_mem(uint64_t init, const void *p, size_t n)
{
	return fnv1a(init, FNV64_PRIME, p, n, false);
}

static inline uint64_t hash64_str_ci(const char *s)
{
	return fnv1a(FNV64_BASIS, FNV64_PRIME, s, strlen(s), true);
}

/* hash_mix64 - every bit of x spread over the result (splitmix64's) */
static inline uint64_t hash_mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	x ^= x >> 31;
	return x;
}

/* hash_u64 - a 64-bit integer key to 32 bits */
static inline uint32_t hash_u64(uint64_t x)
{
	return (uint32_t)(hash_mix64(x) >> 32);
}

#endif
