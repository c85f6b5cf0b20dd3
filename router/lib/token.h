/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * token - an unguessable, checkable token per report
 *
 * DESCRIPTION
 *	Report ids are sequential: anyone can write "[triage #123]".  A
 *	token that only the router can compute makes a reference to a
 *	report something a stranger cannot forge: the subject tag
 *	"[triage #123-k3f9x2ab]" and the per-report reply address
 *	"bugs+123-k3f9x2ab@..." carry one, and a message naming a report
 *	joins it with the router's trust only when the token checks.
 *
 *	The token is the first 40 bits of HMAC-SHA256(key, "report:ID"),
 *	in 8 lower-case base32 letters (a-z, 2-7: safe in an address's
 *	local part and a subject).  The key is 32 random bytes in
 *	STATE_DIR/token.key, made once by whichever program first needs it
 *	(mode 0640: the router's group reads it); every program that
 *	shares the state directory computes the same tokens, and they stay
 *	valid across restarts and upgrades.  Deleting the file revokes
 *	every token handed out.
 *
 *	token_key_load() creates the key without a window in which another
 *	process could read half of it: the bytes go to a temporary file
 *	(O_EXCL, O_NOFOLLOW), are synced, and are linked to the final name,
 *	which fails if another process made one first (then its key is
 *	read).  A key file that is not a regular file of exactly 32 bytes
 *	is refused.
 *
 * Ownership:
 *	The caller owns every buffer.
 *
 * Errors:
 *	token_key_load() returns -1 after printing why.
 */
#ifndef TRIAGE_TOKEN_H
#define TRIAGE_TOKEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TOKEN_KEY_SIZE 32
#define TOKEN_LEN      8
#define TOKEN_SIZE     (TOKEN_LEN + 1) /* with the NUL */

struct token_key {
	uint8_t k[TOKEN_KEY_SIZE];
};

/* token_key_load - the key of dir/token.key, made first when absent */
int token_key_load(const char *dir, struct token_key *key);

/* token_make - the token of report id */
void token_make(const struct token_key *key, int64_t id, char out[TOKEN_SIZE]);

/*
 * token_check - tok (len bytes, not NUL-terminated needed) is report
 * id's token; the comparison takes the same time whatever tok is
 */
bool token_check(const struct token_key *key, int64_t id, const char *tok,
		 size_t len);

/* hmac_sha256 - RFC 2104 HMAC with SHA-256 (exported for tests) */
void hmac_sha256(const uint8_t *key, size_t key_len, const void *msg,
		 size_t msg_len, uint8_t out[32]);

#endif
