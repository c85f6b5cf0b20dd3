// SPDX-License-Identifier: GPL-2.0-only
/*
 * sha256 - SHA-256 digest, written from FIPS 180-4 (see sha256.h)
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sha256.h"

/* the first 32 bits of the fractional parts of the cube roots of primes */
static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t ror(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

static inline uint32_t load_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static inline void store_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

#define S0(x) (ror(x, 2) ^ ror(x, 13) ^ ror(x, 22))
#define S1(x) (ror(x, 6) ^ ror(x, 11) ^ ror(x, 25))
#define s0(x) (ror(x, 7) ^ ror(x, 18) ^ ((x) >> 3))
#define s1(x) (ror(x, 17) ^ ror(x, 19) ^ ((x) >> 10))

/* one round; the eight working variables rotate through the arguments */
#define ROUND(a, b, c, d, e, f, g, h, i)                                      \
	do {                                                                  \
		uint32_t t1 = h + S1(e) + ((e & f) ^ (~e & g)) + K[i] + w[i]; \
		uint32_t t2 = S0(a) + ((a & b) ^ (a & c) ^ (b & c));          \
		d += t1;                                                      \
		h = t1 + t2;                                                  \
	} while (0)

static void compress(uint32_t state[8], const uint8_t *block)
{
	uint32_t w[64], a, b, c, d, e, f, g, h;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = load_be32(block + 4 * i);
	for (i = 16; i < 64; i++)
		w[i] = w[i - 16] + s0(w[i - 15]) + w[i - 7] + s1(w[i - 2]);
	a = state[0];
	b = state[1];
	c = state[2];
	d = state[3];
	e = state[4];
	f = state[5];
	g = state[6];
	h = state[7];
	for (i = 0; i < 64; i += 8) {
		ROUND(a, b, c, d, e, f, g, h, i);
		ROUND(h, a, b, c, d, e, f, g, i + 1);
		ROUND(g, h, a, b, c, d, e, f, i + 2);
		ROUND(f, g, h, a, b, c, d, e, i + 3);
		ROUND(e, f, g, h, a, b, c, d, i + 4);
		ROUND(d, e, f, g, h, a, b, c, i + 5);
		ROUND(c, d, e, f, g, h, a, b, i + 6);
		ROUND(b, c, d, e, f, g, h, a, i + 7);
	}
	state[0] += a;
	state[1] += b;
	state[2] += c;
	state[3] += d;
	state[4] += e;
	state[5] += f;
	state[6] += g;
	state[7] += h;
}

/* compress_blocks - compress n consecutive 64-byte blocks, portably */
static void compress_blocks_c(uint32_t state[8], const uint8_t *p, size_t n)
{
	for (; n; n--, p += 64)
		compress(state, p);
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#include <immintrin.h>

/*
 * The SHA extensions (SHA-NI, in every x86-64 processor of the last
 * years): sha256rnds2 does two rounds on the state held as ABEF and
 * CDGH, sha256msg1/msg2 extend the message schedule four words at a
 * time.  Several times faster than the portable code, which a 2 MB
 * report's digest makes noticeable.
 */
__attribute__((target("sha,sse4.1,ssse3"))) static void compress_blocks_ni(
	uint32_t state[8], const uint8_t *p, size_t n)
{
	const __m128i bswap =
		_mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
	__m128i abef, cdgh, t, m[4];
	int g;

	/* state[0..3] = A B C D, state[4..7] = E F G H (lane 0 first) */
	t = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[0]),
			      0xB1); /* B A D C */
	cdgh = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[4]),
				 0x1B);	       /* H G F E */
	abef = _mm_alignr_epi8(t, cdgh, 8);    /* F E B A */
	cdgh = _mm_blend_epi16(cdgh, t, 0xF0); /* H G D C */
	for (; n; n--, p += 64) {
		__m128i abef0 = abef, cdgh0 = cdgh;

		for (g = 0; g < 16; g++) {
			__m128i wk;

			if (g < 4) {
				m[g] = _mm_shuffle_epi8(
					_mm_loadu_si128(
						(const __m128i *)(p + 16 * g)),
					bswap);
			} else {
				/* W[t-16] + s0(W[t-15]) + W[t-7] + s1(W[t-2]) */
				t = _mm_sha256msg1_epu32(m[g & 3],
							 m[(g + 1) & 3]);
				t = _mm_add_epi32(
					t, _mm_alignr_epi8(m[(g + 3) & 3],
							   m[(g + 2) & 3], 4));
				m[g & 3] =
					_mm_sha256msg2_epu32(t, m[(g + 3) & 3]);
			}
			wk = _mm_add_epi32(
				m[g & 3],
				_mm_loadu_si128((const __m128i *)&K[4 * g]));
			cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
			abef = _mm_sha256rnds2_epu32(
				abef, cdgh, _mm_shuffle_epi32(wk, 0x0E));
		}
		abef = _mm_add_epi32(abef, abef0);
		cdgh = _mm_add_epi32(cdgh, cdgh0);
	}
	t = _mm_shuffle_epi32(abef, 0x1B);     /* A B E F */
	cdgh = _mm_shuffle_epi32(cdgh, 0xB1);  /* G H C D */
	abef = _mm_blend_epi16(t, cdgh, 0xF0); /* A B C D */
	cdgh = _mm_alignr_epi8(cdgh, t, 8);    /* E F G H */
	_mm_storeu_si128((__m128i *)&state[0], abef);
	_mm_storeu_si128((__m128i *)&state[4], cdgh);
}

static bool have_sha_ni(void)
{
	unsigned a, b, c, d;

	if (getenv("TRIAGE_NO_SHA_NI"))
		return false;
	/* CPUID.(EAX=7,ECX=0):EBX bit 29 = SHA; SSE4.1: CPUID.1:ECX bit 19 */
	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 19)))
		return false;
	return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 29));
}

static void compress_blocks(uint32_t state[8], const uint8_t *p, size_t n)
{
	static _Atomic int ni = -1; /* serve parses in threads */
	int v = atomic_load_explicit(&ni, memory_order_relaxed);

	if (v < 0) {
		v = have_sha_ni();
		atomic_store_explicit(&ni, v, memory_order_relaxed);
	}
	if (v)
		compress_blocks_ni(state, p, n);
	else
		compress_blocks_c(state, p, n);
}
#else
#define compress_blocks compress_blocks_c
#endif

/* sha256_init - start a digest */
void sha256_init(struct sha256_ctx *c)
{
	static const uint32_t iv[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(c->h, iv, sizeof(iv));
	c->nbytes = 0;
	c->nblock = 0;
}

/* sha256_update - add len bytes of data */
void sha256_update(struct sha256_ctx *c, const void *data, size_t len)
{
	const uint8_t *p = data;

	c->nbytes += len;
	if (c->nblock) {
		size_t take = 64 - c->nblock;

		if (take > len)
			take = len;
		memcpy(c->block + c->nblock, p, take);
		c->nblock += take;
		p += take;
		len -= take;
		if (c->nblock < 64)
			return;
		compress_blocks(c->h, c->block, 1);
		c->nblock = 0;
	}
	if (len >= 64) {
		compress_blocks(c->h, p, len / 64);
		p += len / 64 * 64;
		len %= 64;
	}
	if (len) {
		memcpy(c->block, p, len);
		c->nblock = len;
	}
}

/* sha256_final - pad, finish and write the 32-byte digest */
void sha256_final(struct sha256_ctx *c, uint8_t digest[SHA256_DIGEST_SIZE])
{
	uint64_t bits = c->nbytes * 8;
	int i;

	c->block[c->nblock++] = 0x80;
	if (c->nblock > 56) {
		memset(c->block + c->nblock, 0, 64 - c->nblock);
		compress_blocks(c->h, c->block, 1);
		c->nblock = 0;
	}
	memset(c->block + c->nblock, 0, 56 - c->nblock);
	for (i = 0; i < 8; i++)
		c->block[56 + i] = (uint8_t)(bits >> (56 - 8 * i));
	compress_blocks(c->h, c->block, 1);
	for (i = 0; i < 8; i++)
		store_be32(digest + 4 * i, c->h[i]);
	memset(c, 0, sizeof(*c));
}

/* sha256_to_hex - 64 lower-case hex digits and a NUL */
void sha256_to_hex(const uint8_t digest[SHA256_DIGEST_SIZE],
		   char out[SHA256_HEX_SIZE])
{
	static const char hex[] = "0123456789abcdef";
	int i;

	for (i = 0; i < SHA256_DIGEST_SIZE; i++) {
		out[2 * i] = hex[digest[i] >> 4];
		out[2 * i + 1] = hex[digest[i] & 15];
	}
	out[64] = '\0';
}

/* sha256_hex - digest of data[0..len) as hex */
void sha256_hex(const void *data, size_t len, char out[SHA256_HEX_SIZE])
{
	struct sha256_ctx c;
	uint8_t d[SHA256_DIGEST_SIZE];

	sha256_init(&c);
	sha256_update(&c, data, len);
	sha256_final(&c, d);
	sha256_to_hex(d, out);
}
