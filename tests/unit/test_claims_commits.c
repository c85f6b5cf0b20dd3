// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_claims_commits - the commit ids a report cites, checked against
 * a small commit history (experts_history.c, claims_commits.c)
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

#include "claims.h"
#include "evidence.h"
#include "experts_history.h"
#include "util.h"

#define FIX   "1234567890abcdef1234567890abcdef12345678"
#define BAD   "abcdef0123456789abcdef0123456789abcdef01"
#define LONG  "fe00112233445566778899aabbccddeeff001122"
#define TWIN1 "dead0be00000000000000000000000000000000a"
#define TWIN2 "dead0be11111111111111111111111111111111b"
#define LONG_SUBJECT                                                     \
	"ext4: stop the journal before the last reference to the inode " \
	"goes away"

static char tmpdir[64];
static struct history *full, *shallow;

static void add(struct history_builder *b, const char *sha, int64_t when,
		const char *subject)
{
	history_builder_add(b, sha, strlen(sha), when, subject,
			    strlen(subject));
}

static struct history *build(bool complete, const char *name)
{
	struct history_builder *b = history_builder_new();
	struct history_stats st;
	struct history *h;
	char *path = xasprintf("%s/%s", tmpdir, name);

	add(b, FIX, 100, "mm/slub: fix the race in the freelist");
	add(b, BAD, 200, "ext4: make the journal   commit\tasync");
	add(b, LONG, 300, LONG_SUBJECT);
	add(b, TWIN1, 400, "xfs: one");
	add(b, TWIN2, 500, "xfs: two");
	add(b, "1111111111111111111111111111111111111111", 600, "Linux 6.11");
	add(b, "2222222222222222222222222222222222222222", 700,
	    "Linux 6.12-rc1");
	add(b, "3333333333333333333333333333333333333333", 800, "Linux 6.12");
	add(b, "not hex", 900, "skipped");
	assert_int_equal(history_builder_write(b, complete, path, &st), 0);
	assert_int_equal(st.commits, 8);
	assert_int_equal(st.releases, 3);
	history_builder_free(b);
	h = history_open(path);
	assert_non_null(h);
	free(path);
	return h;
}

static int setup(void **state)
{
	(void)state;
	strcpy(tmpdir, "/tmp/triage-commits-XXXXXX");
	assert_non_null(mkdtemp(tmpdir));
	full = build(true, "full.history");
	shallow = build(false, "shallow.history");
	return 0;
}

static int teardown(void **state)
{
	char *cmd = xasprintf("rm -rf '%s'", tmpdir);

	(void)state;
	history_free(full);
	history_free(shallow);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	return 0;
}

static void test_find(void **state)
{
	uint32_t s = 0;
	unsigned v = 0, rc = 0;

	(void)state;
	assert_int_equal(history_ncommits(full), 8);
	assert_true(history_complete(full));
	assert_false(history_complete(shallow));
	assert_true(history_newest_release(full, &v, &rc));
	assert_int_equal(v, HISTORY_VERSION(6, 12));
	assert_int_equal(rc, HISTORY_FINAL_RC);
	/* by a prefix of 7, 12, or all 40 digits */
	assert_int_equal(history_find(full, FIX, 7, &s), 1);
	assert_int_equal(
		history_subject_cmp(s, "mm/slub: fix the race in the freelist",
				    37, false),
		1);
	assert_int_equal(history_find(full, FIX, 12, &s), 1);
	assert_int_equal(history_find(full, FIX, 40, &s), 1);
	assert_int_equal(history_find(full, "1234567890abcdef0", 17, &s), 1);
	/* too short, not hex, absent, shared by two */
	assert_int_equal(history_find(full, FIX, 6, &s), 0);
	assert_int_equal(history_find(full, "123456x", 7, &s), 0);
	assert_int_equal(history_find(full, "1234568", 7, &s), 0);
	assert_int_equal(history_find(full, "dead0be", 7, &s), -1);
	assert_int_equal(history_find(full, "dead0be0", 8, &s), 1);
	assert_int_equal(history_find(NULL, FIX, 12, &s), 0);
}

static void test_subjects(void **state)
{
	uint32_t s = 0;

	(void)state;
	assert_int_equal(history_find(full, BAD, 12, &s), 1);
	/* blanks collapsed: a subject a mail client wrapped is the same */
	assert_int_equal(
		history_subject_cmp(s, "ext4: make the journal\n  commit async",
				    37, false),
		1);
	assert_int_equal(
		history_subject_cmp(s, "ext4: make the journal", 22, false), 0);
	assert_int_equal(history_subject_cmp(s, "ext4: make the journal sync",
					     27, false),
			 0);
	/* a cut subject: its first 48 bytes, when it has them */
	assert_int_equal(history_subject_cmp(s, "ext4: make", 10, true), -1);
	assert_int_equal(history_find(full, LONG, 12, &s), 1);
	assert_int_equal(history_subject_cmp(s, LONG_SUBJECT,
					     strlen(LONG_SUBJECT), false),
			 1);
	assert_int_equal(history_subject_cmp(s, LONG_SUBJECT, 50, true), 1);
	assert_int_equal(
		history_subject_cmp(
			s, "ext4: stop the journal after the last reference!!!",
			50, true),
		0);
}

static void check(const char *text, const char *kernel, const struct history *h,
		  struct claims *c)
{
	struct evidence ev;

	memset(&ev, 0, sizeof(ev));
	ev.kernel_version = (char *)kernel;
	claims_check_history(text, strlen(text), &ev, NULL, h, c);
}

static void test_cited(void **state)
{
	struct claims c;

	(void)state;
	/* a Fixes: tag, wrapped, with its subject: holds */
	check("Fixes: 1234567890ab (\"mm/slub: fix the race in\n"
	      "  the freelist\")\n",
	      "6.12.0", full, &c);
	assert_int_equal(c.checks_kind[CLAIM_COMMIT], 1);
	assert_int_equal(c.failed_kind[CLAIM_COMMIT], 0);
	assert_int_equal(c.history_commits, 8);
	assert_int_equal(c.history_release, HISTORY_VERSION(6, 12));
	/* the id exists with another subject: false */
	check("This started with commit 1234567890ab (\"mm/slub: add a "
	      "freelist cache\").\n",
	      "6.12.0", full, &c);
	assert_int_equal(c.checks_kind[CLAIM_COMMIT], 1);
	assert_int_equal(c.failed_kind[CLAIM_COMMIT], 1);
	assert_non_null(strstr(c.first, "1234567890ab"));
	/* git bisect's own lines, and a revert */
	check("# first bad commit: [abcdef012345] ext4: make the journal "
	      "commit async\n"
	      "Reverting fe0011223344 fixes it.\n",
	      "6.12.0-rc3-00045-gabcdef0", full, &c);
	assert_int_equal(c.checks_kind[CLAIM_COMMIT], 2);
	assert_int_equal(c.failed_kind[CLAIM_COMMIT], 0);
	check("abcdef0123456789abcdef0123456789abcdef01 is the first bad "
	      "commit\ncommit abcdef0123456789abcdef0123456789abcdef01\n"
	      "Author: A <a@example.org>\nDate:   Mon Oct 7 2024\n\n"
	      "    ext4: flush the journal on unmount\n",
	      "6.12", full, &c);
	assert_int_equal(c.checks_kind[CLAIM_COMMIT], 1);
	assert_int_equal(c.failed_kind[CLAIM_COMMIT], 1);
}

static void test_missing(void **state)
{
	static const char text[] =
		"I bisected it, first bad commit: 9a8b7c6d5e4f (\"mm: x\").\n";
	struct claims c;

	(void)state;
	/* a mainline kernel the history covers: an id it lacks is false */
	check(text, "6.12.0-rc1", full, &c);
	assert_int_equal(c.checks_kind[CLAIM_COMMIT], 1);
	assert_int_equal(c.failed_kind[CLAIM_COMMIT], 1);
	assert_int_equal(claims_failed(&c, CLAIMS_FACTS), 1);
	check(text, "v6.11+", full, &c);
	assert_int_equal(c.failed_kind[CLAIM_COMMIT], 1);
	/*
	 * not checkable: a newer kernel than the history, a stable, distro
	 * or linux-next kernel, no version, a shallow history, none at all
	 */
	check(text, "6.13.0-rc1", full, &c);
	assert_int_equal(c.checks_kind[CLAIM_COMMIT], 0);
	assert_int_equal(c.commits_unchecked, 1);
	check(text, "6.12.3", full, &c);
	assert_int_equal(c.checks_kind[CLAIM_COMMIT], 0);
	check(text, "6.8.0-45-generic", full, &c);
	assert_int_equal(c.checks_kind[CLAIM_COMMIT], 0);
	check(text, "6.12.0-rc3-next-20241010", full, &c);
	assert_int_equal(c.checks_kind[CLAIM_COMMIT], 0);
	check(text, NULL, full, &c);
	assert_int_equal(c.checks_kind[CLAIM_COMMIT], 0);
	check(text, "6.12.0", shallow, &c);
	assert_int_equal(c.checks_kind[CLAIM_COMMIT], 0);
	assert_int_equal(c.commits_unchecked, 1);
	check(text, "6.12.0", NULL, &c);
	assert_int_equal(c.checks, 0);
	assert_int_equal(c.commits_unchecked, 0);
	/* two commits share the prefix: not checkable */
	check("Fixes: dead0be (\"xfs: one\")\n", "6.12", full, &c);
	assert_int_equal(c.checks_kind[CLAIM_COMMIT], 0);
	assert_int_equal(c.commits_unchecked, 1);
}

static void test_not_ids(void **state)
{
	struct claims c;

	(void)state;
	/* numbers, words and ids glued to words are no commit ids */
	check("This fixes 1234567 crashes; commit deadline missed; "
	      "recommit 9a8b7c6d5e4f; the commit 9a8b7c6d5e4fz.\n",
	      "6.12", full, &c);
	assert_int_equal(c.checks_kind[CLAIM_COMMIT], 0);
	assert_int_equal(c.commits_unchecked, 0);
	/* one id cited twice is one check */
	check("Fixes: 1234567890ab (\"mm/slub: fix the race in the "
	      "freelist\")\nSince commit 1234567890abcdef the box hangs.\n",
	      "6.12", full, &c);
	assert_int_equal(c.checks_kind[CLAIM_COMMIT], 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find),	cmocka_unit_test(test_subjects),
		cmocka_unit_test(test_cited),	cmocka_unit_test(test_missing),
		cmocka_unit_test(test_not_ids),
	};

	msg_setup("test_claims_commits", 1, false);
	return cmocka_run_group_tests(tests, setup, teardown);
}
