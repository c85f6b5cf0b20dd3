// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_link - which Message-IDs and tags a follow-up names
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "link.h"
#include "report.h"
#include "util.h"

static void test_refs_order(void **state)
{
	struct report *r = report_new();
	char *v[LINK_REFS_MAX];
	size_t n, i;

	(void)state;
	r->in_reply_to = xstrdup("c@x");
	report_add_header(r, "References", "<a@x> <b@x>\n <c@x> junk <>");
	n = link_refs(r, v, ARRAY_SIZE(v));
	/* In-Reply-To first, then References newest first, no repeats */
	assert_int_equal(n, 3);
	assert_string_equal(v[0], "c@x");
	assert_string_equal(v[1], "b@x");
	assert_string_equal(v[2], "a@x");
	for (i = 0; i < n; i++)
		free(v[i]);

	/* bounded by max */
	n = link_refs(r, v, 2);
	assert_int_equal(n, 2);
	for (i = 0; i < n; i++)
		free(v[i]);
	report_free(r);
}

static void test_refs_none(void **state)
{
	struct report *r = report_new();
	char *v[4];

	(void)state;
	assert_int_equal(link_refs(r, v, ARRAY_SIZE(v)), 0);
	report_add_header(r, "References", "<unterminated");
	assert_int_equal(link_refs(r, v, ARRAY_SIZE(v)), 0);
	report_free(r);
}

static void test_refs_long(void **state)
{
	struct report *r = report_new();
	char refs[LINK_REFS_MAX * 4 * 16 + 64], *v[LINK_REFS_MAX];
	size_t n, i, len = 0;

	(void)state;
	/* more ids than kept: the newest are the ones looked up */
	for (i = 0; i < LINK_REFS_MAX * 4 + 10; i++)
		len += (size_t)snprintf(refs + len, sizeof(refs) - len,
					"<%zu@x> ", i);
	report_add_header(r, "References", refs);
	n = link_refs(r, v, ARRAY_SIZE(v));
	assert_int_equal(n, LINK_REFS_MAX);
	snprintf(refs, sizeof(refs), "%zu@x", (size_t)LINK_REFS_MAX * 4 + 9);
	assert_string_equal(v[0], refs);
	for (i = 0; i < n; i++)
		free(v[i]);
	report_free(r);
}

static void test_tags(void **state)
{
	int64_t id = 0;
	long bug = 0;
	char tok[9];

	(void)state;
	assert_true(link_subject_tag("Re: [triage #42] xfs: oops", &id, tok,
				     sizeof(tok)));
	assert_int_equal(id, 42);
	assert_string_equal(tok, "");
	assert_true(link_subject_tag("[TRIAGE #7]", &id, tok, sizeof(tok)));
	assert_int_equal(id, 7);
	assert_true(link_subject_tag("Re: [triage #43-k3f7x2ab] xfs", &id, tok,
				     sizeof(tok)));
	assert_int_equal(id, 43);
	assert_string_equal(tok, "k3f7x2ab");
	/* a token too long for tok, or not base32, is no tag */
	assert_false(link_subject_tag("[triage #4-k3f9x2abc]", &id, tok,
				      sizeof(tok)));
	assert_false(
		link_subject_tag("[triage #4-K3F9]", &id, tok, sizeof(tok)));
	assert_false(link_subject_tag("[triage #4-]", &id, tok, sizeof(tok)));
	assert_false(link_subject_tag("[triage #] x", &id, tok, sizeof(tok)));
	assert_false(link_subject_tag("[triage #12 x", &id, tok, sizeof(tok)));
	assert_false(link_subject_tag("[triage #0]", &id, tok, sizeof(tok)));
	assert_false(link_subject_tag(NULL, &id, tok, sizeof(tok)));
	assert_true(link_subject_bug("[Bug 219876] New: oops", &bug));
	assert_int_equal(bug, 219876);
	assert_false(link_subject_bug("[Bug x] y", &bug));
	assert_false(link_subject_bug("[bug 12]", &bug));
}

static void test_url_msgid(void **state)
{
	char id[64];
	long bug = 0;

	(void)state;
	assert_true(link_url_msgid("https://lore.kernel.org/r/abc@example.org/",
				   id, sizeof(id)));
	assert_string_equal(id, "abc@example.org");
	assert_true(link_url_msgid(
		"https://lore.kernel.org/linux-xfs/20261130.abc%40example.org/T/#u",
		id, sizeof(id)));
	assert_string_equal(id, "20261130.abc@example.org");
	assert_true(link_url_msgid("https://patch.msgid.link/x@y.z", id,
				   sizeof(id)));
	assert_string_equal(id, "x@y.z");
	assert_true(link_url_msgid("  <m.1@host>", id, sizeof(id)));
	assert_string_equal(id, "m.1@host");
	/* no Message-ID in it, or one that does not fit */
	assert_false(
		link_url_msgid("https://bugzilla.kernel.org/show_bug.cgi?id=5",
			       id, sizeof(id)));
	assert_false(link_url_msgid("Reported by a friend", id, sizeof(id)));
	assert_false(
		link_url_msgid("https://lore.kernel.org/r/@/", id, sizeof(id)));
	assert_false(link_url_msgid("https://lore.kernel.org/r/a@b", id, 3));
	assert_false(link_url_msgid("https://x/a%40b%0ac", id, sizeof(id)));
	/* a bare scheme, the end of the value right after it */
	assert_false(link_url_msgid("http://", id, sizeof(id)));
	assert_false(link_url_msgid("https://", id, sizeof(id)));
	assert_true(link_url_msgid("http://h/a@b.c", id, sizeof(id)));
	assert_string_equal(id, "a@b.c");
	assert_true(link_url_bug(
		"https://bugzilla.kernel.org/show_bug.cgi?id=220818", &bug));
	assert_int_equal(bug, 220818);
	assert_false(link_url_bug("https://x/show_bug.cgi?id=12abc", &bug));
	assert_false(link_url_bug("https://x/show_bug.cgi?id=", &bug));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refs_order),
		cmocka_unit_test(test_refs_none),
		cmocka_unit_test(test_refs_long),
		cmocka_unit_test(test_tags),
		cmocka_unit_test(test_url_msgid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
