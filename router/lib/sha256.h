/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sha256 - SHA-256 digest (FIPS 180-4), the identity of a report
 *
 * DESCRIPTION
 *	A small self-contained SHA-256: intake hashes the message bytes
 *	(without the mbox From_ line) so that a message the MTA delivers
 *	twice is recognised as the same report.  Incremental use:
 *
 *		struct sha256_ctx c;
 *		sha256_init(&c);
 *		sha256_update(&c, data, len);  (any number of times)
 *		sha256_final(&c, digest);
 *
 *	sha256_hex() does all three and writes 64 lower-case hex digits.
 *	libc only; no allocation.
 *
 * Ownership:
 *	The caller owns the context and every buffer.
 *
 * Errors:
 *	None: every input length is valid.
 */
#ifndef TRIAGE_SHA256_H
#define TRIAGE_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_DIGEST_SIZE 32
#define SHA256_HEX_SIZE	   65 /* 64 hex digits and a NUL */

struct sha256_ctx {
	uint32_t h[8];
	uint64_t nbytes;   /* message length so far */
	uint8_t block[64]; /* pending input */
	size_t nblock;	   /* bytes in block */
};

void sha256_init(struct sha256_ctx *c);
void sha256_update(struct sha256_ctx *c, const void *data, size_t len);
void sha256_final(struct sha256_ctx *c, uint8_t digest[SHA256_DIGEST_SIZE]);
void sha256_hex(const void *data, size_t len, char out[SHA256_HEX_SIZE]);
void sha256_to_hex(const uint8_t digest[SHA256_DIGEST_SIZE],
		   char out[SHA256_HEX_SIZE]);

#endif
