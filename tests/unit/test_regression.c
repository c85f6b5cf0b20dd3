// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_regression - what reporters write when something regressed
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "regression.h"

static void parse(const char *text, const char *kver, struct regression *r)
{
	memset(r, 0, sizeof(*r));
	regression_parse(text, strlen(text), r);
	regression_finish(r, kver);
}

static void test_regzbot(void **state)
{
	struct regression r;

	(void)state;
	parse("Thanks.\n#regzbot introduced: 1a2b3c4d5e6f\n", NULL, &r);
	assert_true(r.found);
	assert_string_equal(r.commit, "1a2b3c4d5e6f");
	assert_string_equal(r.how, "regzbot");

	parse("#regzbot ^introduced v6.5..v6.6-rc1\n", NULL, &r);
	assert_true(r.found);
	assert_string_equal(r.good, "v6.5");
	assert_string_equal(r.bad, "v6.6-rc1");
	assert_string_equal(r.commit, "");

	/* other regzbot commands are no regression statement */
	parse("#regzbot fix: foo\n", NULL, &r);
	assert_false(r.found);
}

static void test_bisect(void **state)
{
	struct regression r;

	(void)state;
	parse("0123456789abcdef0123456789abcdef01234567 is the first bad commit\n"
	      "commit 0123456789abcdef0123456789abcdef01234567\n",
	      NULL, &r);
	assert_true(r.found);
	assert_string_equal(r.commit,
			    "0123456789abcdef0123456789abcdef01234567");
	assert_string_equal(r.how, "bisect");

	parse("I bisected it to commit deadbeef1234 (\"mm: foo\").\n", NULL,
	      &r);
	assert_string_equal(r.commit, "deadbeef1234");

	parse("> first bad commit: [cafe0123babe] net: bar\n", NULL, &r);
	assert_false(r.found); /* a bracketed id is not taken */

	parse("first bad commit: cafe0123babe net: bar\n", NULL, &r);
	assert_string_equal(r.commit, "cafe0123babe");

	parse("Fixes: 89abcdef0123 (\"xfs: baz\")\n", NULL, &r);
	assert_true(r.found);
	assert_string_equal(r.commit, "89abcdef0123");
	assert_string_equal(r.how, "fixes");

	/* a plain number is not a commit */
	parse("bisected to 1234567 steps\n", NULL, &r);
	assert_false(r.found);
}

static void test_versions(void **state)
{
	struct regression r;

	(void)state;
	parse("Suspend worked fine in 6.6.8, but broke in 6.7-rc1.\n", NULL,
	      &r);
	assert_true(r.found);
	assert_string_equal(r.good, "6.6.8");
	assert_string_equal(r.bad, "6.7-rc1");

	/* a good version alone takes the crash's kernel as the bad one */
	parse("It worked fine on 6.1.0-28-amd64.\n", "6.12.3-amd64", &r);
	assert_true(r.found);
	assert_string_equal(r.good, "6.1.0-28-amd64");
	assert_string_equal(r.bad, "6.12.3-amd64");

	/* "worked on 6.1", running 6.1.5: not a prefix of another version */
	parse("It worked on 6.1\n", "6.12.3", &r);
	assert_true(r.found);
	assert_string_equal(r.bad, "6.12.3");
	parse("It worked on 6.1\n", "6.1", &r);
	assert_false(r.found);

	/* without a good version, a failure is no regression */
	parse("The driver fails on 6.12 too.\n", "6.12.0", &r);
	assert_false(r.found);
	assert_string_equal(r.bad, "");

	/* versions are kernel versions: 1.2 and identifiers are not */
	parse("It worked with firmware 1.2 and ver6.1\n", "6.12", &r);
	assert_false(r.found);
}

static void test_is_sha(void **state)
{
	(void)state;
	assert_true(regression_is_sha("abcdef1", 7));
	assert_false(regression_is_sha("abcde", 5));
	assert_false(regression_is_sha("1234567", 7));
	assert_true(regression_is_sha("123456789012", 12));
	assert_false(regression_is_sha("abcdefg", 7));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_regzbot),
		cmocka_unit_test(test_bisect),
		cmocka_unit_test(test_versions),
		cmocka_unit_test(test_is_sha),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
