// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_config - routes.conf syntax, and the bounded string buffer
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "strbuf.h"
#include "util.h"

static void test_settings_and_records(void **state)
{
	const char *text = "# comment\n"
			   "state_dir = /var/lib/x\n"
			   "maintainers=/a/MAINTAINERS\n"
			   "limit = 5   # trailing comment\n"
			   "roster \"XFS FILESYSTEM\" alice@example.org\n"
			   "\tbob@example.org\n"
			   "flag = yes\r\n"
			   "empty =\n"
			   "state_dir = /srv/triage\n";
	struct config *cfg;

	unsetenv("TRIAGE_STATE_DIR");
	cfg = config_parse(text, "test.conf");
	assert_non_null(cfg);
	/* The last setting wins. */
	assert_string_equal(config_get(cfg, "state_dir", NULL), "/srv/triage");
	assert_string_equal(config_get(cfg, "maintainers", NULL),
			    "/a/MAINTAINERS");
	assert_int_equal(config_get_long(cfg, "limit", 0), 5);
	assert_true(config_get_bool(cfg, "flag", false));
	/* An empty value means "not set". */
	assert_string_equal(config_get(cfg, "empty", "dflt"), "dflt");
	assert_string_equal(config_get(cfg, "absent", "dflt"), "dflt");
	/* A record with a quoted argument and a continuation line. */
	assert_int_equal(cfg->nrec, 7);
	assert_string_equal(cfg->rec[3].name, "roster");
	assert_int_equal(cfg->rec[3].argc, 3);
	assert_string_equal(cfg->rec[3].argv[0], "XFS FILESYSTEM");
	assert_string_equal(cfg->rec[3].argv[2], "bob@example.org");
	assert_int_equal(cfg->rec[3].line, 5);
	config_free(cfg);
}

static void test_environment_overrides_state_dir(void **state)
{
	struct config *cfg = config_parse("state_dir = /a\n", "t");
	char *p;

	setenv("TRIAGE_STATE_DIR", "/tmp/x", 1);
	p = config_state_path(cfg, "db");
	assert_string_equal(p, "/tmp/x/db");
	free(p);
	unsetenv("TRIAGE_STATE_DIR");
	p = config_state_path(cfg, "db");
	assert_string_equal(p, "/a/db");
	free(p);
	config_free(cfg);
}

static void test_syntax_errors(void **state)
{
	assert_null(config_parse("roster \"unterminated\n", "t"));
	assert_null(config_parse("a b c d e f g h i j k l m n o p q r s t u v "
				 "w x y z 1 2 3 4 5 6 7 8\n",
				 "t"));
}

static void test_builtin_default_parses(void **state)
{
	struct config *cfg = config_parse(config_default_text, "(built-in)");

	assert_non_null(cfg);
	assert_non_null(config_get(cfg, "maintainers", NULL));
	config_free(cfg);
}

static void test_strbuf_cap(void **state)
{
	struct strbuf sb = STRBUF_INIT(8);

	assert_int_equal(sb_adds(&sb, "1234"), 0);
	assert_int_equal(sb_addf(&sb, "%d", 567), 0);
	assert_string_equal(sb_str(&sb), "1234567");
	/* Past the cap: refused, buffer unchanged. */
	assert_int_equal(sb_adds(&sb, "89"), -1);
	assert_string_equal(sb_str(&sb), "1234567");
	assert_int_equal(sb_addc(&sb, '8'), 0);
	assert_int_equal(sb_addc(&sb, '9'), -1);
	assert_int_equal(sb.len, 8);
	sb_release(&sb);
}

static void test_utf8(void **state)
{
	assert_true(utf8_valid("plain", 5));
	assert_true(utf8_valid("caf\xc3\xa9", 5));
	assert_false(utf8_valid("caf\xc3", 4));
	assert_false(utf8_valid("\xc0\xaf", 2));     /* overlong */
	assert_false(utf8_valid("\xed\xa0\x80", 3)); /* surrogate */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_settings_and_records),
		cmocka_unit_test(test_environment_overrides_state_dir),
		cmocka_unit_test(test_syntax_errors),
		cmocka_unit_test(test_builtin_default_parses),
		cmocka_unit_test(test_strbuf_cap),
		cmocka_unit_test(test_utf8),
	};

	msg_setup("test_config", 1, false);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
