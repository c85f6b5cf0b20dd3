// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_corpus - labelled corpora: loading, author/thread groups, bot
 * senders, the figures' uncertain rule, and triagers' corrections
 *
 * Messages are written to a scratch directory by the tests themselves,
 * plus the hand-written tests/corpus/classify (TRIAGE_SRCDIR).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "audit.h"
#include "corpus.h"
#include "model.h"
#include "parse.h"
#include "report.h"
#include "rules.h"
#include "util.h"

static char *scratch;

static void write_msg(const char *rel, const char *from, const char *mid,
		      const char *irt, const char *extra, const char *body)
{
	char *path = xasprintf("%s/%s", scratch, rel), *slash, *text;

	slash = strrchr(path, '/');
	*slash = '\0';
	assert_int_equal(mkdir_p(path, 0755), 0);
	*slash = '/';
	text = xasprintf("From: %s\nSubject: a report\nMessage-ID: <%s>\n"
			 "%s%s%s%s\n%s",
			 from, mid, irt ? "In-Reply-To: <" : "", irt ? irt : "",
			 irt ? ">\n" : "", extra ? extra : "", body);
	assert_int_equal(write_file_atomic(path, text, strlen(text), 0644), 0);
	free(text);
	free(path);
}

static const struct corpus_item *item(const struct corpus *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (strcmp(c->items[i].name, name) == 0)
			return &c->items[i];
	fail_msg("no item %s", name);
	return NULL;
}

static bool same_group(const struct corpus *c, const char *a, const char *b)
{
	return strcmp(item(c, a)->group, item(c, b)->group) == 0;
}

/* ---- loading and groups ------------------------------------------------- */

static void test_class_dirs_and_groups(void **state)
{
	struct corpus c;

	write_msg("dirs/user/a.eml", "Jane Roe <jane+lists@example.org>", "a@x",
		  NULL, NULL, "My laptop hangs.\n");
	/* the same address without +tag: one author */
	write_msg("dirs/user/b.eml", "J. <jane@example.org>", "b@x", NULL, NULL,
		  "It hangs again.\n");
	/* the same name, words swapped, another address */
	write_msg("dirs/ai/c.eml", "Roe Jane <jroe@example.net>", "c@x", NULL,
		  NULL, "A potential overflow.\n");
	/* a reply in b's thread by someone else */
	write_msg("dirs/fuzzer/d.eml", "Bot Person <bp@example.com>", "d@x",
		  "b@x", NULL, "Same crash in syzkaller.\n");
	/* a list that rewrote From: the list address joins nobody */
	write_msg("dirs/user/e.eml",
		  "'Kim Lee' via kasan-dev <kasan-dev@lists.example>", "e@x",
		  NULL, NULL, "Crash on boot.\n");
	write_msg("dirs/user/f.eml",
		  "'Ann Bo' via kasan-dev <kasan-dev@lists.example>", "f@x",
		  NULL, NULL, "Another crash.\n");
	write_msg("dirs/fuzzer/g.eml", "Kim Lee <kim@uni.example>", "g@x", NULL,
		  NULL, "Found by our fuzzer.\n");
	/* Bugzilla relays: the reporter is the author */
	write_msg("dirs/user/h.eml", "bugzilla-daemon@kernel.org", "bug-1@bz",
		  NULL, "X-Bugzilla-Who: pat@example.org\n", "Bug 1.\n");
	write_msg("dirs/user/i.eml", "bugzilla-daemon@kernel.org", "bug-2@bz",
		  NULL, NULL,
		  "          Reporter: pat@example.org\n\nBug 2.\n");
	write_msg("dirs/user/j.eml", "bugzilla-daemon@kernel.org", "bug-3@bz",
		  NULL, "X-Bugzilla-Who: quinn@example.org\n", "Bug 3.\n");
	write_msg("dirs/user/.hidden", "x <x@example.org>", "z@x", NULL, NULL,
		  "skipped\n");

	corpus_init(&c);
	assert_int_equal(corpus_load(&c, scratch), -1); /* no class dirs */
	{
		char *dir = xasprintf("%s/dirs", scratch);

		assert_int_equal(corpus_load(&c, dir), 0);
		free(dir);
	}
	assert_int_equal(c.n, 10);
	assert_int_equal(corpus_count(&c, CLASS_USER), 7);
	assert_int_equal(corpus_count(&c, CLASS_FUZZER), 2);
	assert_int_equal(corpus_count(&c, CLASS_AI), 1);
	/* sorted by name within a class directory */
	assert_string_equal(c.items[0].name, "user/a.eml");
	assert_int_equal(corpus_group(&c), 5);
	assert_true(same_group(&c, "user/a.eml", "user/b.eml"));
	assert_true(same_group(&c, "user/a.eml", "ai/c.eml"));
	assert_true(same_group(&c, "user/b.eml", "fuzzer/d.eml"));
	assert_false(same_group(&c, "user/e.eml", "user/f.eml"));
	assert_true(same_group(&c, "user/e.eml", "fuzzer/g.eml"));
	assert_true(same_group(&c, "user/h.eml", "user/i.eml"));
	assert_false(same_group(&c, "user/h.eml", "user/j.eml"));
	assert_false(same_group(&c, "user/a.eml", "user/h.eml"));
	corpus_release(&c);
}

static void test_index(void **state)
{
	char *dir = xasprintf("%s/idx", scratch), *index;
	const char *tsv = "file\tclass\tsource\twrapped\tnotes\n"
			  "m/1.eml\tuser\tx\tno\tregzbot\n"
			  "m/2.eml\tai\tx\tno\tgroup=same-person; audit\n"
			  "m/3.eml\tai\tx\tno\tgroup=same-person\n"
			  "m/4.eml\trobot\tx\tno\tbad class\n"
			  "m/5.eml\tfuzzer\tx\tno\tmissing file\n";
	struct corpus c;

	write_msg("idx/m/1.eml", "A <a@example.org>", "1@x", NULL, NULL, "1\n");
	write_msg("idx/m/2.eml", "B <b@example.org>", "2@x", NULL, NULL, "2\n");
	write_msg("idx/m/3.eml", "C <c@example.org>", "3@x", NULL, NULL, "3\n");
	index = xasprintf("%s/index.tsv", dir);
	assert_int_equal(write_file_atomic(index, tsv, strlen(tsv), 0644), 0);
	corpus_init(&c);
	assert_int_equal(corpus_load(&c, dir), 0);
	assert_int_equal(c.n, 3);
	assert_int_equal(c.skipped, 2);
	assert_int_equal(item(&c, "m/2.eml")->cls, CLASS_AI);
	assert_string_equal(item(&c, "m/1.eml")->notes, "regzbot");
	assert_int_equal(corpus_group(&c), 2);
	assert_true(same_group(&c, "m/2.eml", "m/3.eml"));
	corpus_release(&c);
	free(index);
	free(dir);
}

/* write_split - a split file in the scratch directory; its path */
static char *write_split(const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", scratch, name);

	assert_int_equal(write_file_atomic(path, text, strlen(text), 0644), 0);
	return path;
}

static void test_split(void **state)
{
	char *dir = xasprintf("%s/split", scratch), *good, *crossing, *bad;
	struct corpus c;
	size_t i;

	/* s1 and s2 one thread; s3 alone; s4 alone */
	write_msg("split/user/s1.eml", "A <a@example.org>", "s1@x", NULL, NULL,
		  "1\n");
	write_msg("split/user/s2.eml", "B <b@example.org>", "s2@x", "s1@x",
		  NULL, "2\n");
	write_msg("split/ai/s3.eml", "C <c@example.org>", "s3@x", NULL, NULL,
		  "3\n");
	write_msg("split/fuzzer/s4.eml", "D <d@example.org>", "s4@x", NULL,
		  NULL, "4\n");
	good = write_split("good.tsv",
			   "# comment\n\n"
			   "s1@x\ttune\treports\tuser/s1.eml\tuser\tg1\n"
			   "s2@x\ttune\n"
			   "s3@x\theld-out\treports\tai/s3.eml\n"
			   "elsewhere@y\theld-out\tother\n");
	crossing = write_split("crossing.tsv", "s1@x\ttune\n"
					       "s2@x\theld-out\n");
	corpus_init(&c);
	assert_int_equal(corpus_load(&c, dir), 0);
	corpus_group(&c);
	for (i = 0; i < c.n; i++)
		assert_int_equal(c.items[i].part, CORPUS_UNSPLIT);

	/* s4 is not in the file: unmarked; a mark for no item is ignored */
	assert_int_equal(corpus_split(&c, good), 1);
	assert_int_equal(item(&c, "user/s1.eml")->part, CORPUS_TUNE);
	assert_int_equal(item(&c, "user/s2.eml")->part, CORPUS_TUNE);
	assert_int_equal(item(&c, "ai/s3.eml")->part, CORPUS_HELD_OUT);
	assert_int_equal(item(&c, "fuzzer/s4.eml")->part, CORPUS_UNSPLIT);
	assert_null(corpus_split_crossing(&c));
	assert_string_equal(corpus_part_name(CORPUS_HELD_OUT), "held-out");

	/* one thread on both sides */
	assert_int_equal(corpus_split(&c, crossing), 2);
	assert_non_null(corpus_split_crossing(&c));
	assert_string_equal(corpus_split_crossing(&c)->group, "user/s1.eml");

	/* bad files: the marks are left as they were */
	bad = write_split("dup.tsv",
			  "s1@x\ttune\ns3@x\theld-out\ns1@x\ttune\n");
	assert_int_equal(corpus_split(&c, bad), -1);
	free(bad);
	bad = write_split("part.tsv", "s1@x\ttest\n");
	assert_int_equal(corpus_split(&c, bad), -1);
	free(bad);
	bad = write_split("noid.tsv", "\ttune\n");
	assert_int_equal(corpus_split(&c, bad), -1);
	free(bad);
	bad = write_split("nopart.tsv", "s1@x\n");
	assert_int_equal(corpus_split(&c, bad), -1);
	free(bad);
	bad = xasprintf("%s/absent.tsv", scratch);
	assert_int_equal(corpus_split(&c, bad), -1);
	free(bad);
	assert_int_equal(item(&c, "user/s2.eml")->part, CORPUS_HELD_OUT);

	/* dropping the held-out part keeps the order of the rest */
	assert_int_equal(corpus_split(&c, good), 1);
	assert_int_equal(corpus_drop_part(&c, CORPUS_HELD_OUT), 1);
	assert_int_equal(c.n, 3);
	for (i = 0; i < c.n; i++)
		assert_int_not_equal(c.items[i].part, CORPUS_HELD_OUT);
	assert_string_equal(c.items[0].name, "user/s1.eml");
	assert_string_equal(c.items[2].name, "fuzzer/s4.eml");
	assert_int_equal(corpus_group(&c), 2);
	corpus_release(&c);
	free(good);
	free(crossing);
	free(dir);
}

static void test_bot_sender(void **state)
{
	static const struct {
		const char *from, *bot;
	} cases[] = {
		{ "syzbot <syzbot+0123abcd@syzkaller.appspotmail.com>",
		  "syzbot" },
		{ "kernel test robot <lkp@intel.com>", "kernel test robot" },
		{ "kernel test robot <oliver.sang@intel.com>",
		  "kernel test robot" },
		{ "\"kernelci.org bot\" <bot@kernelci.org>", "KernelCI" },
		{ "coverity-bot <keescook@chromium.org>", "coverity-bot" },
		{ "CKI Project <cki-project@redhat.com>", "CKI" },
		{ "bot+bpf-ci@kernel.org", "BPF CI" },
		/* not bots */
		{ "Oliver Sang <oliver.sang@intel.com>", NULL },
		{ "kernel test robot <robot@example.org>", NULL },
		{ "Kees Cook <keescook@chromium.org>", NULL },
		{ "bugzilla-daemon@kernel.org", NULL },
		{ "\"syzbot\" <spoof@example.org>", NULL },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		char *raw = xasprintf("From: %s\nSubject: x\n\nbody\n",
				      cases[i].from);
		struct corpus c;
		const char *bot;

		corpus_init(&c);
		assert_int_equal(corpus_add_message(&c, "m", raw, strlen(raw),
						    CLASS_FUZZER, NULL),
				 0);
		bot = c.items[0].bot;
		if (cases[i].bot)
			assert_string_equal(bot, cases[i].bot);
		else if (bot)
			fail_msg("%s: bot %s", cases[i].from, bot);
		corpus_release(&c);
		free(raw);
	}
}

/* ---- figures -------------------------------------------------------------- */

static void test_eval_uncertain_rule(void **state)
{
	struct corpus_eval ev;
	int i;

	memset(&ev, 0, sizeof(ev));
	/* user: 8 right, 1 uncertain, 1 sent to ai */
	for (i = 0; i < 8; i++)
		corpus_eval_add(&ev, CLASS_USER, CLASS_USER);
	corpus_eval_add(&ev, CLASS_USER, CLASS_UNCERTAIN);
	corpus_eval_add(&ev, CLASS_USER, CLASS_AI);
	/* ai: 3 right, 1 uncertain */
	for (i = 0; i < 3; i++)
		corpus_eval_add(&ev, CLASS_AI, CLASS_AI);
	corpus_eval_add(&ev, CLASS_AI, CLASS_UNCERTAIN);
	/* fuzzer: 4 right */
	for (i = 0; i < 4; i++)
		corpus_eval_add(&ev, CLASS_FUZZER, CLASS_FUZZER);
	corpus_eval_add(&ev, 7, CLASS_USER); /* ignored */
	corpus_eval_finish(&ev);
	assert_int_equal(ev.n, 18);
	assert_int_equal(ev.uncertain, 2);
	/* uncertain: a miss for recall ... */
	assert_float_equal(ev.recall[CLASS_USER], 0.8, 1e-9);
	assert_float_equal(ev.recall[CLASS_AI], 0.75, 1e-9);
	/* ... and no verdict for precision */
	assert_float_equal(ev.precision[CLASS_USER], 1.0, 1e-9);
	assert_float_equal(ev.precision[CLASS_AI], 0.75, 1e-9);
	assert_float_equal(ev.f1[CLASS_FUZZER], 1.0, 1e-9);
	assert_float_equal(ev.accuracy, 15.0 / 18, 1e-9);
	assert_float_equal(ev.macro_f1, (2 * 0.8 / 1.8 + 1 + 0.75) / 3, 1e-9);
}

/* ---- corrections ------------------------------------------------------------ */

static int64_t record(struct audit *db, const char *raw, const char *cls)
{
	struct report *r = report_new();
	struct audit_classification k = { .class = cls, .at = 1 };
	static unsigned serial;
	int64_t id = 0;

	r->raw = xstrdup(raw);
	r->raw_len = strlen(raw);
	snprintf(r->sha256, sizeof(r->sha256), "%064x", ++serial);
	assert_int_equal(parse_report(r), 0);
	assert_int_equal(audit_insert_report(db, r, 1, "held", 0, &id), 0);
	assert_int_equal(audit_insert_classification(db, id, &k), 0);
	report_free(r);
	return id;
}

static void test_corrections(void **state)
{
	const char *a = "From: Una <una@example.org>\nSubject: wifi dead\n"
			"Message-ID: <u1@x>\n\nMy laptop lost wifi.\n";
	const char *b =
		"From: Ari <ari@example.org>\nSubject: overflow\n"
		"Message-ID: <a1@x>\n\nThis could lead to an overflow.\n";
	const char *c3 = "From: Cy <cy@example.org>\nSubject: hang\n"
			 "Message-ID: <c1@x>\n\nA hang.\n";
	struct audit_action act = { .who = "tri", .action = "reclassify" };
	struct audit *db = NULL;
	struct corpus c;
	size_t skipped = 9;
	int64_t ia, ib, ic;
	bool temp;

	assert_int_equal(audit_open(":memory:", AUDIT_CREATE, 0, &db, &temp),
			 0);
	ia = record(db, a, "ai");
	ib = record(db, b, "uncertain");
	ic = record(db, c3, "user");
	act.report = ia;
	act.argument = "user";
	assert_int_equal(audit_record_action(db, &act, NULL), 0);
	act.report = ib;
	act.argument = "ai";
	assert_int_equal(audit_record_action(db, &act, NULL), 0);
	act.report = ic;
	act.argument = "uncertain";
	assert_int_equal(audit_record_action(db, &act, NULL), 0);

	corpus_init(&c);
	assert_int_equal(corpus_add_corrections(&c, db, &skipped), 2);
	assert_int_equal(skipped, 1);
	assert_int_equal(c.n, 2);
	assert_int_equal(c.items[0].cls, CLASS_USER);
	assert_int_equal(c.items[0].old_class, CLASS_AI);
	assert_int_equal(c.items[0].report_id, ia);
	/* the raw message was parsed again */
	assert_string_equal(c.items[0].report->subject, "wifi dead");
	assert_non_null(strstr(c.items[0].report->body, "lost wifi"));
	assert_string_equal(c.items[0].report->from_addr, "una@example.org");
	assert_int_equal(c.items[1].cls, CLASS_AI);
	assert_int_equal(c.items[1].old_class, CLASS_UNCERTAIN);
	assert_int_equal(corpus_group(&c), 2);
	corpus_release(&c);
	audit_close(db);
}

/* ---- the shipped test corpus -------------------------------------------------- */

static void test_shipped_fixtures(void **state)
{
	const char *src = getenv("TRIAGE_SRCDIR");
	char *dir =
		xasprintf("%s/tests/corpus/classify", src && *src ? src : ".");
	struct model_input in;
	struct corpus c;
	size_t i, bots = 0;

	corpus_init(&c);
	assert_int_equal(corpus_load(&c, dir), 0);
	assert_int_equal(c.n, 15);
	assert_int_equal(c.skipped, 0);
	/* user/03 replies in user/02's thread: 14 groups */
	assert_int_equal(corpus_group(&c), 14);
	assert_true(same_group(&c, "user/02-wifi-drop.eml",
			       "user/03-followup.eml"));
	for (i = 0; i < c.n; i++) {
		corpus_model_input(&c.items[i], &in);
		assert_non_null(in.body);
		assert_true(in.body_len > 0);
		bots += c.items[i].bot != NULL;
	}
	assert_int_equal(bots, 3); /* syzbot, lkp, KernelCI */
	corpus_release(&c);
	free(dir);
}

static int setup(void **state)
{
	char tmpl[] = "/tmp/test_corpus.XXXXXX";

	if (!mkdtemp(tmpl))
		return -1;
	scratch = xstrdup(tmpl);
	return parse_init();
}

static int teardown(void **state)
{
	char *cmd = xasprintf("rm -rf '%s'", scratch);
	int rc = system(cmd);

	free(cmd);
	free(scratch);
	parse_shutdown();
	return rc == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_class_dirs_and_groups),
		cmocka_unit_test(test_index),
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_bot_sender),
		cmocka_unit_test(test_eval_uncertain_rule),
		cmocka_unit_test(test_corrections),
		cmocka_unit_test(test_shipped_fixtures),
	};

	msg_setup("test_corpus", 1, false);
	return cmocka_run_group_tests(tests, setup, teardown);
}
