// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_sha256 - both SHA-256 implementations against known digests
 *
 * sha256.c uses the processor's SHA extensions when it has them and
 * portable code otherwise (or with TRIAGE_NO_SHA_NI set): the program
 * runs its tests, then runs itself again with TRIAGE_NO_SHA_NI=1, so
 * that both are checked on a machine that has the extensions.  The
 * expected digests come from Python's hashlib.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sha256.h"
#include "util.h"

#define BIG 2000003

static unsigned char *pattern(size_t n)
{
	unsigned char *p = xmalloc(n);
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)(i * 7 + 3);
	return p;
}

static void test_lengths_around_blocks(void **state)
{
	static const struct {
		size_t len;
		const char *hex;
	} v[] = {
		{ 63,
		  "81c80242132f230c3bd41b3e63bbcff16107339549214a99614ff26664625055" },
		{ 64,
		  "39e3d7b6b5d075d37d053ad89b24b41bef4f3c29760c84447cab3f3be1882241" },
		{ 65,
		  "aacca6ff74fdbb296d165a45cecfa04e5127bc008770fbbdd48006f2d2fae95e" },
		{ 119,
		  "9ce7368e4daf32341631b492e80359dc9f594b48453cd0dd5bf0b19279cc177e" },
		{ 120,
		  "7836b787757e95e58b3ca5aec90b1b004e8deba1e50e9675af9cabf1a13a04b5" },
		{ 128,
		  "d2742f1f4ac6bb7ca2b239ee18402ba8b3f9f8e652d2a72973c2b9ba11c08cf6" },
		{ 1000,
		  "1e9bc38cbf860b9ec31918b065f9b52476c549a782e0e7990bed8ce3868d2371" },
		{ BIG,
		  "350cad732836c4c671c2cac6b201b5596d6666767d3fd35eabe60273f8a05754" },
	};
	unsigned char *p = pattern(BIG);
	char hex[SHA256_HEX_SIZE];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(v); i++) {
		sha256_hex(p, v[i].len, hex);
		assert_string_equal(hex, v[i].hex);
	}
	free(p);
}

static void test_uneven_pieces(void **state)
{
	unsigned char *p = pattern(BIG);
	struct sha256_ctx c;
	uint8_t d[SHA256_DIGEST_SIZE];
	char hex[SHA256_HEX_SIZE];
	size_t i = 0, step = 7;

	(void)state;
	sha256_init(&c);
	while (i < BIG) {
		size_t k = BIG - i < step ? BIG - i : step;

		sha256_update(&c, p + i, k);
		i += k;
		step = step * 3 % 1000 + 1;
	}
	sha256_final(&c, d);
	sha256_to_hex(d, hex);
	assert_string_equal(
		hex,
		"350cad732836c4c671c2cac6b201b5596d6666767d3fd35eabe60273f8a05754");
	free(p);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lengths_around_blocks),
		cmocka_unit_test(test_uneven_pieces),
	};
	int failed = cmocka_run_group_tests(tests, NULL, NULL);

	(void)argc;
	if (failed || getenv("TRIAGE_NO_SHA_NI"))
		return failed;
	fflush(NULL);
	setenv("TRIAGE_NO_SHA_NI", "1", 1);
	execv("/proc/self/exe", argv);
	perror("test_sha256: cannot run again without SHA-NI");
	return 1;
}
