// SPDX-License-Identifier: GPL-2.0-only
/*
 * token - an unguessable, checkable token per report (see token.h)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sha256.h"
#include "token.h"
#include "util.h"

void hmac_sha256(const uint8_t *key, size_t key_len, const void *msg,
		 size_t msg_len, uint8_t out[32])
{
	uint8_t k[64], pad[64], inner[SHA256_DIGEST_SIZE];
	struct sha256_ctx c;
	size_t i;

	memset(k, 0, sizeof(k));
	if (key_len > sizeof(k)) {
		sha256_init(&c);
		sha256_update(&c, key, key_len);
		sha256_final(&c, k);
	} else if (key_len) {
		memcpy(k, key, key_len);
	}
	for (i = 0; i < sizeof(k); i++)
		pad[i] = k[i] ^ 0x36;
	sha256_init(&c);
	sha256_update(&c, pad, sizeof(pad));
	sha256_update(&c, msg, msg_len);
	sha256_final(&c, inner);
	for (i = 0; i < sizeof(k); i++)
		pad[i] = k[i] ^ 0x5c;
	sha256_init(&c);
	sha256_update(&c, pad, sizeof(pad));
	sha256_update(&c, inner, sizeof(inner));
	sha256_final(&c, out);
}

void token_make(const struct token_key *key, int64_t id, char out[TOKEN_SIZE])
{
	static const char b32[] = "abcdefghijklmnopqrstuvwxyz234567";
	uint8_t mac[SHA256_DIGEST_SIZE];
	char msg[40];
	uint64_t bits = 0;
	int n = snprintf(msg, sizeof(msg), "report:%lld", (long long)id);
	size_t i;

	hmac_sha256(key->k, sizeof(key->k), msg, (size_t)n, mac);
	for (i = 0; i < 5; i++)
		bits = bits << 8 | mac[i];
	for (i = 0; i < TOKEN_LEN; i++)
		out[i] = b32[(bits >> (35 - 5 * i)) & 31];
	out[TOKEN_LEN] = '\0';
}

bool token_check(const struct token_key *key, int64_t id, const char *tok,
		 size_t len)
{
	char want[TOKEN_SIZE];
	unsigned diff = 0;
	size_t i;

	if (len != TOKEN_LEN || !tok)
		return false;
	token_make(key, id, want);
	for (i = 0; i < TOKEN_LEN; i++) {
		char c =
			tok[i] >= 'A' && tok[i] <= 'Z' ? tok[i] | 0x20 : tok[i];

		diff |= (unsigned char)(want[i] ^ c);
	}
	return diff == 0;
}

/* read_key - exactly TOKEN_KEY_SIZE bytes of a regular file; -1 otherwise */
static int read_key(const char *path, struct token_key *key)
{
	struct stat st;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size != TOKEN_KEY_SIZE) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	n = read(fd, key->k, sizeof(key->k));
	close(fd);
	if (n != (ssize_t)sizeof(key->k)) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* make_key - 32 random bytes linked to path; 1 when another was first */
static int make_key(const char *dir, const char *path)
{
	uint8_t k[TOKEN_KEY_SIZE];
	char *tmp = xasprintf("%s/.token.key.XXXXXX", dir);
	int fd, ret = -1;

	if (getrandom(k, sizeof(k), 0) != (ssize_t)sizeof(k)) {
		error("token key: no random bytes: %s", strerror(errno));
		free(tmp);
		return -1;
	}
	/* mkstemp: O_CREAT|O_EXCL, mode 0600 */
	fd = mkstemp(tmp);
	if (fd < 0) {
		error("token key: cannot create a file in '%s': %s", dir,
		      strerror(errno));
		free(tmp);
		return -1;
	}
	if (fchmod(fd, 0640) < 0 ||
	    write(fd, k, sizeof(k)) != (ssize_t)sizeof(k) || fsync(fd) < 0) {
		error("token key: cannot write '%s': %s", tmp, strerror(errno));
		goto out;
	}
	/* link, not rename: a key another process made first is kept */
	if (link(tmp, path) == 0)
		ret = 0;
	else if (errno == EEXIST)
		ret = 1;
	else
		error("token key: cannot make '%s': %s", path, strerror(errno));
out:
	close(fd);
	unlink(tmp);
	free(tmp);
	explicit_bzero(k, sizeof(k));
	return ret;
}

int token_key_load(const char *dir, struct token_key *key)
{
	char *path = xasprintf("%s/token.key", dir);
	int ret = -1;

	if (read_key(path, key) == 0) {
		ret = 0;
	} else if (errno != ENOENT) {
		error("token key '%s': %s", path,
		      errno == EINVAL ? "not a file of 32 bytes"
				      : strerror(errno));
	} else if (make_key(dir, path) >= 0) {
		if (read_key(path, key) == 0)
			ret = 0;
		else
			error("token key '%s': %s", path, strerror(errno));
	}
	free(path);
	return ret;
}
