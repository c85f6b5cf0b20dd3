// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_bzcomponent - whose word a Bugzilla product/component is
 * (bzcomponent_from_bugzilla()): Bugzilla's own mail only
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "bzcomponent.h"
#include "config.h"
#include "report.h"
#include "util.h"

/* from_bugzilla - bzcomponent_from_bugzilla() of mail From addr */
static bool from_bugzilla(const char *addr, const struct config *cfg)
{
	struct report *r = report_new();
	bool yes;

	free(r->from_addr);
	r->from_addr = xstrdup(addr);
	r->source = "mail";
	yes = bzcomponent_from_bugzilla(r, cfg);
	report_free(r);
	return yes;
}

static void test_daemon_domain(void **state)
{
	struct config *uk = config_parse(
		"bugzilla_url = https://bugzilla.example.co.uk/\n", "test");
	struct config *org = config_parse(
		"bugzilla_url = https://bugs.example.org/\n", "test");

	(void)state;
	assert_non_null(uk);
	assert_non_null(org);
	/* kernel.org's daemon writes from the parent of its host */
	assert_true(from_bugzilla("bugzilla-daemon@kernel.org", NULL));
	assert_true(from_bugzilla("bugzilla-daemon@bugzilla.kernel.org", NULL));
	assert_false(from_bugzilla("bugzilla-daemon@org", NULL));
	assert_false(from_bugzilla("bugzilla-daemon@example.org", NULL));
	assert_false(from_bugzilla("someone@kernel.org", NULL));
	/* a site's Bugzilla: its host or a parent of it ... */
	assert_true(
		from_bugzilla("bugzilla-daemon@bugzilla.example.co.uk", uk));
	assert_true(from_bugzilla("bugzilla-daemon@example.co.uk", uk));
	assert_true(from_bugzilla("bugzilla-daemon@example.org", org));
	/* ... never a registry's suffix, under which anyone registers */
	assert_false(from_bugzilla("bugzilla-daemon@co.uk", uk));
	assert_false(from_bugzilla("bugzilla-daemon@uk", uk));
	assert_false(from_bugzilla("bugzilla-daemon@other.co.uk", uk));
	config_free(uk);
	config_free(org);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_daemon_domain),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
