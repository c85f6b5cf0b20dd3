// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_authres - a sender authenticated by the site's own server
 * (Authentication-Results, RFC 8601), and only by it
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "authres.h"
#include "report.h"
#include "util.h"

#define MX "mx.example.org"

/* a report whose headers are ar[] in order, the topmost first */
static struct report *with(const char *const *ar, size_t n)
{
	struct report *r = report_new();
	size_t i;

	for (i = 0; i < n; i++)
		report_add_header(r, "Authentication-Results", ar[i]);
	return r;
}

static void expect(const char *const *ar, size_t n, const char *sender,
		   bool pass)
{
	struct report *r = with(ar, n);
	const char *why = authres_check(r, MX, sender);

	if (pass && why)
		fail_msg("%s: refused (%s)", n ? ar[0] : "(none)", why);
	if (!pass && !why)
		fail_msg("%s: passed", n ? ar[0] : "(none)");
	report_free(r);
}

static void test_not_configured(void **state)
{
	struct report *r = with(NULL, 0);

	(void)state;
	assert_null(authres_check(r, NULL, "a@example.org"));
	assert_null(authres_check(r, "", "a@example.org"));
	assert_non_null(authres_check(r, MX, "a@example.org"));
	report_free(r);
}

static void test_pass_and_alignment(void **state)
{
	static const char *dkim[] = {
		MX "; dkim=pass (2048-bit key) header.d=example.org header.s=s1"
	};
	static const char *spf[] = {
		MX " 1; spf=pass smtp.mailfrom=bounce@example.org"
	};
	static const char *fail[] = {
		MX "; dkim=fail header.d=example.org; "
		   "spf=softfail smtp.mailfrom=example.org"
	};
	static const char *other[] = { MX "; dkim=pass header.d=evil.example" };

	(void)state;
	expect(dkim, 1, "maint@example.org", true);
	/* a parent domain signs for its subdomain's sender */
	expect(dkim, 1, "maint@lists.example.org", true);
	/* not a suffix that is no parent */
	expect(dkim, 1, "maint@badexample.org", false);
	expect(spf, 1, "maint@example.org", true);
	expect(fail, 1, "maint@example.org", false);
	expect(other, 1, "maint@example.org", false);
}

static void test_only_our_server_topmost(void **state)
{
	/* another server's header says what its writer wants */
	static const char *forged[] = {
		"mx.evil.example; dkim=pass header.d=example.org"
	};
	/* below ours, an older one of our id: the sender's own */
	static const char *below[] = {
		MX "; dkim=none; spf=none smtp.mailfrom=example.org",
		MX "; dkim=pass header.d=example.org",
	};

	(void)state;
	expect(forged, 1, "maint@example.org", false);
	expect(below, 2, "maint@example.org", false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_not_configured),
		cmocka_unit_test(test_pass_and_alignment),
		cmocka_unit_test(test_only_our_server_topmost),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
