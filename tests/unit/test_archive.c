// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_archive - archive links made from a pattern and read back, and
 * the trailers that name a report (a fix's Closes:, Link:, Reported-by:)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive.h"
#include "crashsig.h"
#include "experts.h"
#include "link.h"
#include "util.h"

#define SITE "https://mail.example.org/view?m=%s"

static void test_pattern(void **state)
{
	(void)state;
	assert_true(archive_pattern_ok(ARCHIVE_DEFAULT));
	assert_true(archive_pattern_ok(SITE));
	assert_true(archive_off(NULL));
	assert_true(archive_off(""));
	assert_true(archive_off("none"));
	assert_false(archive_pattern_ok("none"));
	/* one %s, nothing else a format string would read */
	assert_false(archive_pattern_ok("https://x.example/%s/%s"));
	assert_false(archive_pattern_ok("https://x.example/%d"));
	assert_false(archive_pattern_ok("https://x.example/%n%s"));
	assert_false(archive_pattern_ok("https://x.example/%s%%"));
	assert_false(archive_pattern_ok("https://x.example/"));
	/* a URL of the web, printable */
	assert_false(archive_pattern_ok("ftp://x.example/%s"));
	assert_false(archive_pattern_ok("https://x.example/a b/%s"));
	assert_false(archive_pattern_ok("https://x.example/\n%s"));
}

static void test_make(void **state)
{
	char *u;

	(void)state;
	u = archive_url(ARCHIVE_DEFAULT, "<20261130.abc@example.com>");
	assert_string_equal(
		u, "https://lore.kernel.org/r/20261130.abc@example.com");
	free(u);
	/* what would end the path, start a query or escape is escaped */
	u = archive_url(SITE, "a/b?c#d%e\"f@x.example");
	assert_string_equal(
		u,
		"https://mail.example.org/view?m=a%2Fb%3Fc%23d%25e%22f@x.example");
	free(u);
	u = archive_url("https://x.example/%s/T/", "id+1=2@x");
	assert_string_equal(u, "https://x.example/id+1=2@x/T/");
	free(u);
	assert_null(archive_url("none", "a@b"));
	assert_null(archive_url("https://x.example/%s/%s", "a@b"));
	assert_null(archive_url(ARCHIVE_DEFAULT, "<>"));
	assert_null(archive_url(ARCHIVE_DEFAULT, NULL));
	assert_null(archive_url(ARCHIVE_DEFAULT, "a b@c"));
	assert_null(archive_url(ARCHIVE_DEFAULT, "caf\xc3\xa9@c"));
}

/* read - the Message-ID value names with pattern, or "" */
static const char *read_id(const char *pattern, const char *value)
{
	static char id[256];

	if (!link_archive_msgid(pattern, value, id, sizeof(id)))
		return "";
	return id;
}

static void test_read_back(void **state)
{
	const char *ids[] = { "fix-01/a@example.com", "a?b#c%d@x.example",
			      "plain.1@x" };
	size_t i;

	(void)state;
	/* every link made reads back as its Message-ID */
	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		char *u = archive_url(SITE, ids[i]);

		assert_string_equal(read_id(SITE, u), ids[i]);
		free(u);
		u = archive_url(ARCHIVE_DEFAULT, ids[i]);
		assert_string_equal(read_id(ARCHIVE_DEFAULT, u), ids[i]);
		free(u);
	}
	/* lore's forms, whatever the site's pattern */
	assert_string_equal(read_id(SITE, "https://lore.kernel.org/all/x.1@y/"),
			    "x.1@y");
	assert_string_equal(read_id(SITE, "https://lore.kernel.org/r/x.1%40y"),
			    "x.1@y");
	assert_string_equal(read_id(NULL, " <x.1@y>"), "x.1@y");
	/* a link of the pattern's site with a path after the id is not it */
	assert_string_equal(
		read_id(SITE, "https://mail.example.org/view?m=a@b/c"), "");
	/* the pattern without an id, or with one that is no Message-ID */
	assert_string_equal(read_id(SITE, "https://mail.example.org/view?m="),
			    "");
	assert_string_equal(
		read_id(SITE, "https://mail.example.org/view?m=abc"), "");
	assert_string_equal(read_id(SITE, "https://example.org/"), "");
}

static void test_report_addr(void **state)
{
	char tok[16];
	int64_t id = 0;

	(void)state;
	assert_true(archive_report_addr("<bugs+12-abcdefgh@example.org>",
					"bugs", &id, tok, sizeof(tok)));
	assert_int_equal(id, 12);
	assert_string_equal(tok, "abcdefgh");
	assert_true(archive_report_addr("Triage <BUGS+7-k3f7x2ab@example.org>",
					"bugs", &id, tok, sizeof(tok)));
	assert_int_equal(id, 7);
	/* another local part, no id, no token, a token of other letters */
	assert_false(archive_report_addr("mybugs+12-abcdefgh@x", "bugs", &id,
					 tok, sizeof(tok)));
	assert_false(archive_report_addr("bugs+-abcdefgh@x", "bugs", &id, tok,
					 sizeof(tok)));
	assert_false(archive_report_addr("bugs+12@x", "bugs", &id, tok,
					 sizeof(tok)));
	assert_false(archive_report_addr("bugs+12-ABC18@x", "bugs", &id, tok,
					 sizeof(tok)));
	assert_false(archive_report_addr("bugs+0-abcdefgh@x", "bugs", &id, tok,
					 sizeof(tok)));
	/* a token longer than the buffer is not cut to fit */
	assert_false(archive_report_addr("bugs+1-abcdefghabcdefghabcdefgh@x",
					 "bugs", &id, tok, 9));
	assert_false(archive_report_addr("bugs+99999999999999999999-ab@x",
					 "bugs", &id, tok, sizeof(tok)));
}

/* the trailers of a commit as git prints them: "Key: value" by 0x1f */
static void test_trailers(void **state)
{
	char list[] =
		"Reported-by: syzbot+0a1b2c3d4e5f6071@syzkaller.appspotmail.com"
		"\x1f"
		"Closes:   https://lore.kernel.org/r/a@b"
		"\x1f"
		"no colon here"
		"\x1f"
		"Fixes: 0123456789ab (\"x: y\")";
	char *p = list, *key, *value, hash[CRASHSIG_SYZ_MAX];

	(void)state;
	assert_true(experts_next_trailer(&p, &key, &value));
	assert_string_equal(key, "Reported-by");
	assert_true(crashsig_syzbot_in(value, hash, sizeof(hash)));
	assert_string_equal(hash, "0a1b2c3d4e5f6071");
	assert_true(experts_next_trailer(&p, &key, &value));
	assert_string_equal(key, "Closes");
	assert_string_equal(value, "https://lore.kernel.org/r/a@b");
	assert_true(experts_next_trailer(&p, &key, &value));
	assert_string_equal(key, "Fixes");
	assert_false(experts_next_trailer(&p, &key, &value));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pattern),
		cmocka_unit_test(test_make),
		cmocka_unit_test(test_read_back),
		cmocka_unit_test(test_report_addr),
		cmocka_unit_test(test_trailers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
