// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_token - per-report tokens: HMAC-SHA256 (RFC 4231), the key file
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sha256.h"
#include "token.h"
#include "util.h"

static void test_hmac_rfc4231(void **state)
{
	uint8_t mac[32], key[131];
	char hex[SHA256_HEX_SIZE];

	(void)state;
	/* test case 2 */
	hmac_sha256((const uint8_t *)"Jefe", 4, "what do ya want for nothing?",
		    28, mac);
	sha256_to_hex(mac, hex);
	assert_string_equal(
		hex,
		"5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
	/* test case 6: a key longer than a block is hashed first */
	memset(key, 0xaa, sizeof(key));
	hmac_sha256(key, sizeof(key),
		    "Test Using Larger Than Block-Size Key - Hash Key First",
		    54, mac);
	sha256_to_hex(mac, hex);
	assert_string_equal(
		hex,
		"60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

static void test_tokens(void **state)
{
	struct token_key a, b;
	char t1[TOKEN_SIZE], t2[TOKEN_SIZE], t3[TOKEN_SIZE];
	size_t i;

	(void)state;
	memset(&a, 1, sizeof(a));
	memset(&b, 2, sizeof(b));
	token_make(&a, 123, t1);
	token_make(&a, 124, t2);
	token_make(&b, 123, t3);
	assert_int_equal(strlen(t1), TOKEN_LEN);
	for (i = 0; i < TOKEN_LEN; i++)
		assert_non_null(
			strchr("abcdefghijklmnopqrstuvwxyz234567", t1[i]));
	assert_string_not_equal(t1, t2);
	assert_string_not_equal(t1, t3);
	assert_true(token_check(&a, 123, t1, TOKEN_LEN));
	assert_false(token_check(&a, 124, t1, TOKEN_LEN));
	assert_false(token_check(&b, 123, t1, TOKEN_LEN));
	assert_false(token_check(&a, 123, t1, TOKEN_LEN - 1));
	assert_false(token_check(&a, 123, NULL, TOKEN_LEN));
	/* a mail client may upper-case it */
	for (i = 0; i < TOKEN_LEN; i++)
		t2[i] = t1[i] >= 'a' && t1[i] <= 'z' ? t1[i] - 32 : t1[i];
	t2[TOKEN_LEN] = '\0';
	assert_true(token_check(&a, 123, t2, TOKEN_LEN));
}

static void test_key_file(void **state)
{
	char dir[] = "/tmp/test_token.XXXXXX", *path, *link_path;
	struct token_key k1, k2;
	struct stat st;
	int fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	path = xasprintf("%s/token.key", dir);
	/* made once, 32 bytes, group-readable, then read back the same */
	assert_int_equal(token_key_load(dir, &k1), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, TOKEN_KEY_SIZE);
	assert_int_equal(st.st_mode & 0777, 0640);
	assert_int_equal(token_key_load(dir, &k2), 0);
	assert_memory_equal(k1.k, k2.k, TOKEN_KEY_SIZE);
	/* no temporary file left behind: empty once the key goes */
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
	assert_int_equal(mkdir(dir, 0700), 0);

	/* a key file that is a link is refused, never followed */
	link_path = xasprintf("%s/elsewhere", dir);
	fd = open(link_path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, k1.k, sizeof(k1.k)), (int)sizeof(k1.k));
	close(fd);
	assert_int_equal(symlink(link_path, path), 0);
	assert_int_equal(token_key_load(dir, &k2), -1);
	unlink(path);
	/* and so is one of the wrong size */
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "short", 5), 5);
	close(fd);
	assert_int_equal(token_key_load(dir, &k2), -1);
	unlink(path);
	unlink(link_path);
	assert_int_equal(rmdir(dir), 0);
	free(path);
	free(link_path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hmac_rfc4231),
		cmocka_unit_test(test_tokens),
		cmocka_unit_test(test_key_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
