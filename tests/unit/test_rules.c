// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_rules - the rule engine: parser, targets, meta, lint, overrides,
 * match limits, the quote stripper and the literal prefilter
 *
 * The rules here use a small table of test hooks; the classify hooks
 * are tested in test_classify.c.
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

#include "report.h"
#include "rules.h"
#include "strbuf.h"
#include "util.h"

/* count_x([c]) - occurrences of c (default 'x') in the target text */
static double hook_count_x(const struct rules_input *in,
			   const struct rules_text *t,
			   const struct rules_args *a)
{
	char c = a->argc ? a->argv[0][0] : 'x';
	double n = 0;
	size_t i;

	for (i = 0; t && i < t->len; i++)
		n += t->text[i] == c;
	return n;
}

/* nheaders() - the number of headers */
static double hook_nheaders(const struct rules_input *in,
			    const struct rules_text *t,
			    const struct rules_args *a)
{
	return (double)in->report->nheaders;
}

static const char *check_one_char(const struct rules_args *a)
{
	return a->argc && strlen(a->argv[0]) != 1 ? "expected one character"
						  : NULL;
}

/* phrase_hits() - occurrences of its phrase list in the lower-cased text */
static double hook_phrase_hits(const struct rules_input *in,
			       const struct rules_text *t,
			       const struct rules_args *a)
{
	double n = 0;
	size_t k;

	if (!t || !a->phrases)
		return 0;
	for (k = 0; k < a->phrases->n; k++) {
		const char *p = t->lower;

		while ((p = strstr(p, a->phrases->v[k])) != NULL) {
			n++;
			p++;
		}
	}
	return n;
}

static const struct rules_hook test_hooks[] = {
	{ "count_x", RULES_ON(RULE_BODY) | RULES_ON(RULE_RAWBODY), 0, 1,
	  check_one_char, hook_count_x, false },
	{ "nheaders", RULES_ON(RULE_HEADER), 0, 0, NULL, hook_nheaders, false },
	{ "phrase_hits", RULES_ON(RULE_BODY), 0, 0, NULL, hook_phrase_hits,
	  true },
};

/* ---- helpers ------------------------------------------------------------- */

static struct ruleset *load(const char *text, int *errors)
{
	struct ruleset *rs = rules_new(test_hooks, ARRAY_SIZE(test_hooks));

	rules_add_text(rs, "t.rules", text, strlen(text));
	*errors = rules_compile(rs);
	return rs;
}

static struct ruleset *load_ok(const char *text)
{
	int errors;
	struct ruleset *rs = load(text, &errors);

	if (errors)
		rules_lint(rs, stderr);
	assert_int_equal(errors, 0);
	return rs;
}

/* lint_text - every problem, one per line */
static char *lint_text(struct ruleset *rs)
{
	static char buf[8192];
	char line[1024];
	size_t i;

	buf[0] = '\0';
	rules_compile(rs);
	for (i = 0; i < rules_nproblems(rs); i++) {
		rules_problem(rs, i, line, sizeof(line));
		strncat(buf, line, sizeof(buf) - strlen(buf) - 2);
		strcat(buf, "\n");
	}
	return buf;
}

static void expect_problem(const char *text, const char *want)
{
	int errors;
	struct ruleset *rs = load(text, &errors);
	const char *got = lint_text(rs);

	if (!strstr(got, want))
		fail_msg("expected \"%s\" in:\n%s", want, got);
	rules_free(rs);
}

static struct report *mk_report(const char *headers, const char *body)
{
	struct report *r = report_new();
	char *h = xstrdup(headers ? headers : ""), *line, *save = NULL;

	for (line = strtok_r(h, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		*colon = '\0';
		report_add_header(r, line, trim(colon + 1));
	}
	free(h);
	if (body) {
		struct report_part *p = report_add_part(r);

		p->text = xstrdup(body);
		p->len = strlen(body);
		p->flags = PART_TEXT;
		r->body = xstrdup(body);
		r->body_len = strlen(body);
	}
	return r;
}

static void add_attachment(struct report *r, const char *name, const char *text)
{
	struct report_part *p = report_add_part(r);

	p->filename = xstrdup(name);
	p->text = xstrdup(text);
	p->len = strlen(text);
	p->flags = PART_TEXT | PART_ATTACHMENT;
}

/* value - a rule's value on a report, every rule evaluated */
static double value(const struct ruleset *rs, const struct report *r,
		    const char *name)
{
	struct rules_input in = { r, NULL, NULL, NULL, NULL, NULL };
	struct rules_result res;
	int i = rules_find(rs, name);
	double v;

	assert_true(i >= 0);
	rules_result_init(&res);
	rules_eval(rs, &in, RULES_EVAL_ALL, &res);
	v = res.value[i];
	rules_result_release(&res);
	return v;
}

/* ---- parsing ------------------------------------------------------------ */

static void test_directives(void **state)
{
	struct ruleset *rs = load_ok("# a comment\n"
				     "header   H_FROM  From =~ /bot/i\n"
				     "describe H_FROM  From a bot\n"
				     "score    H_FROM  fuzzer=3.5 ai=-1\n"
				     "tflags   H_FROM  certain\n"
				     "\n"
				     "   # an indented comment\n"
				     "body     B_WORD  /hello/\n"
				     "describe B_WORD  Says hello\n"
				     "score    B_WORD  user=1\n"
				     "rawbody  R_WORD  m{world}i\n"
				     "describe R_WORD  Says world\n"
				     "score    R_WORD  0\n"
				     "threshold ai 7.5\n"
				     "uncertain_band 2\n"
				     "user_bias 3\n");
	const struct rule_info *ri =
		rules_info(rs, (size_t)rules_find(rs, "H_FROM"));
	const struct rules_params *p = rules_params(rs);

	assert_int_equal(rules_count(rs), 3);
	assert_int_equal(ri->type, RULE_HEADER);
	assert_string_equal(ri->describe, "From a bot");
	assert_true(ri->score[CLASS_FUZZER] == 3.5);
	assert_true(ri->score[CLASS_AI] == -1);
	assert_true(ri->score[CLASS_USER] == 0);
	assert_true(ri->certain);
	assert_int_equal(ri->certain_class, CLASS_FUZZER);
	assert_string_equal(ri->file, "t.rules");
	assert_int_equal(ri->line, 2);
	ri = rules_info(rs, (size_t)rules_find(rs, "R_WORD"));
	assert_int_equal(ri->type, RULE_RAWBODY);
	assert_false(ri->helper);
	assert_true(p->threshold[CLASS_AI] == 7.5);
	assert_true(p->threshold[CLASS_FUZZER] == 5); /* the default */
	assert_true(p->band == 2);
	assert_true(p->user_bias == 3);
	rules_free(rs);
}

static void test_continuation_and_crlf(void **state)
{
	struct ruleset *rs = load_ok("body  LONG  /alpha\r\n"
				     "\tbeta/\r\n"
				     "describe LONG two\r\n"
				     "   lines\r\n"
				     "score LONG user=1\r\n");
	const struct rule_info *ri =
		rules_info(rs, (size_t)rules_find(rs, "LONG"));
	struct report *r = mk_report(NULL, "alpha beta");

	/* continuation lines join with one space */
	assert_string_equal(ri->describe, "two lines");
	assert_true(value(rs, r, "LONG") == 1);
	report_free(r);
	rules_free(rs);
}

static void test_syntax_errors(void **state)
{
	expect_problem("frobnicate X /a/\n",
		       "t.rules:1: unknown directive 'frobnicate'");
	expect_problem("body X /a/q\nscore X user=1\ndescribe X x\n",
		       "t.rules:1: body X: unknown regex flag");
	expect_problem("body X /(a/\nscore X user=1\ndescribe X x\n",
		       "t.rules:1: body X: bad regex at offset");
	expect_problem("body X a\n", "expected /regex/flags");
	expect_problem("header X From ~ /a/\n", "expected =~ or !~");
	expect_problem("header X From:name =~ /a/\n",
		       "unknown header modifier");
	expect_problem("body 9X /a/\n", "bad rule name '9X'");
	expect_problem("score X user=1\n", "t.rules:1: score: unknown rule X");
	expect_problem("body X /a/\nscore X robot=1\n",
		       "t.rules:2: score X: unknown class 'robot'");
	expect_problem("body X /a/\nscore X user=lots\n", "bad number");
	expect_problem("threshold robot 5\n", "threshold: unknown class");
	expect_problem("uncertain_band -1\n", "must not be negative");
	expect_problem("  body X /a/\n", "continuation line with nothing");
	expect_problem("tflags X sometimes\n", "unknown flag 'sometimes'");
	expect_problem("test X maybe hello\n", "expected ok or fail");
	expect_problem("test NOPE ok hello\n",
		       "t.rules:1: test: unknown rule NOPE");
	expect_problem("describe NOPE text\n", "describe: unknown rule NOPE");
}

static void test_lint_checks(void **state)
{
	int errors;
	struct ruleset *rs;

	expect_problem("body X /a/\ndescribe X x\n",
		       "t.rules:1: X has no score");
	expect_problem(
		"body __H /a/\nscore __H user=1\nmeta M __H\n"
		"score M user=1\ndescribe M m\n",
		"t.rules:2: score __H: helper rules (__NAME) are not scored");
	expect_problem(
		"body X /a/\nscore X user=1 fuzzer=1\ntflags X certain\n"
		"describe X x\n",
		"t.rules:3: tflags X certain: the rule needs a positive score");
	expect_problem("body X /a/\nbody X /b/\n",
		       "t.rules:2: duplicate definition of X (line 1)");
	expect_problem("body X /a/\nscore X user=1\nscore X ai=1\n",
		       "t.rules:3: duplicate score for X (line 2)");
	expect_problem("threshold ai 3\nthreshold ai 4\n",
		       "duplicate threshold for ai");
	expect_problem("body X eval:no_such_hook()\n", "unknown eval hook");
	expect_problem("header X eval:count_x()\n",
		       "cannot be used in this kind of rule");
	expect_problem("body X eval:count_x(a, b)\n",
		       "wrong number of arguments");
	expect_problem("body X eval:count_x(abc)\n", "expected one character");
	/* warnings do not count as errors */
	rs = load("body __H /a/\nbody X /b/\nscore X user=1\n", &errors);
	assert_int_equal(errors, 0);
	assert_non_null(strstr(lint_text(rs),
			       "t.rules:1: warning: helper __H is not used"));
	assert_non_null(strstr(lint_text(rs),
			       "t.rules:2: warning: X has no describe line"));
	rules_free(rs);
}

static void test_meta_errors(void **state)
{
	expect_problem("meta A B && \n", "meta expression ends too early");
	expect_problem("meta A (B\n", "missing ')'");
	expect_problem("meta A B & C\n", "use && and ||");
	expect_problem("meta A B C\n", "unexpected text after the meta");
	expect_problem("meta A NOPE\nscore A user=1\n",
		       "t.rules:1: meta: unknown rule NOPE");
	expect_problem("meta A B\nmeta B C\nmeta C A\n"
		       "score A user=1\nscore B user=1\nscore C user=1\n",
		       "depends on itself (a cycle)");
	expect_problem("meta A A\nscore A user=1\n",
		       "meta A: depends on itself");
}

/* ---- targets --------------------------------------------------------------- */

static const char *header_rules =
	"header __FROM_BOT  From:addr =~ /^bot\\@example\\.org$/m\n"
	"header __FROM_NAME From =~ /Robot/\n"
	"header __ALL_RECV  ALL =~ /^Received:/m\n"
	"header __ALL_LIST  ALL =~ /^List-Id:/mi\n"
	"header __RECV      Received =~ /mx\\.example/\n"
	"header __NO_SUBJ   Subject !~ /./\n"
	"header __HAS_MID   exists:Message-ID\n"
	"header __ENV       EnvelopeFrom:addr =~ /^bounce\\@/\n"
	"header __NHDR      eval:nheaders()\n"
	"header __CC_ADDRS  Cc:addr =~ /^c\\@x\\.org\\nd\\@y\\.org$/\n";

static void test_header_targets(void **state)
{
	int errors;
	struct ruleset *rs = load(header_rules, &errors);
	struct report *r = mk_report("Received: from mx.example by y\n"
				     "List-Id: <foo.lists.example>\n"
				     "From: \"Robot, The\" <BOT@Example.org>\n"
				     "Cc: C <c@x.org>, \"d, e\" <d@y.org>\n"
				     "Message-ID: <1@x>\n",
				     "body");

	assert_int_equal(errors, 0); /* unused helpers are only warnings */
	assert_true(value(rs, r, "__FROM_BOT") == 1);
	assert_true(value(rs, r, "__FROM_NAME") == 1);
	/* trace and list headers never reach ALL... */
	assert_true(value(rs, r, "__ALL_RECV") == 0);
	assert_true(value(rs, r, "__ALL_LIST") == 0);
	/* ...but a rule that names one sees it */
	assert_true(value(rs, r, "__RECV") == 1);
	/* a missing header reads as "", so !~ fires */
	assert_true(value(rs, r, "__NO_SUBJ") == 1);
	assert_true(value(rs, r, "__HAS_MID") == 1);
	assert_true(value(rs, r, "__ENV") == 0);
	r->envelope_from = xstrdup("Bounce@lists.example");
	assert_true(value(rs, r, "__ENV") == 1);
	assert_true(value(rs, r, "__NHDR") == 5);
	assert_true(value(rs, r, "__CC_ADDRS") == 1);
	report_free(r);
	rules_free(rs);
}

static void test_body_rawbody_targets(void **state)
{
	const char *rules = "body    __B_QUOTED /syzbot found/\n"
			    "rawbody __R_QUOTED /syzbot found/\n"
			    "body    __B_ATTACH /in the attachment/\n"
			    "rawbody __R_ATTACH /in the attachment/\n"
			    "body    __B_COUNT  eval:count_x()\n"
			    "rawbody __R_COUNT  eval:count_x()\n";
	int errors;
	struct ruleset *rs = load(rules, &errors);
	struct report *r =
		mk_report(NULL, "I think this is solved by x.\n\n"
				"On Mon, 1 Jan 2024, syzbot wrote:\n"
				"> syzbot found the following issue on:\n"
				"> xxxx\n");

	add_attachment(r, "dmesg.txt", "this is in the attachment\n");
	assert_int_equal(errors, 0);
	assert_true(value(rs, r, "__B_QUOTED") == 0);
	assert_true(value(rs, r, "__R_QUOTED") == 1);
	assert_true(value(rs, r, "__B_ATTACH") == 0);
	assert_true(value(rs, r, "__R_ATTACH") == 1);
	/* hooks get their rule's target: one x of the body's own words */
	assert_true(value(rs, r, "__B_COUNT") == 1);
	assert_true(value(rs, r, "__R_COUNT") == 5);
	report_free(r);
	rules_free(rs);
}

static void test_body_from_parts_and_cap(void **state)
{
	const char *rules = "body __B_END /END$/\nbody __B_START /^START/\n";
	int errors;
	struct ruleset *rs = load(rules, &errors);
	struct report *r = report_new();
	struct report_part *p;
	size_t n = RULES_BODY_MAX + 100;
	char *big = xmalloc(n + 1);

	memset(big, 'a', n);
	memcpy(big, "START", 5);
	memcpy(big + n - 3, "END", 3);
	big[n] = '\0';
	/* no report->body: the first inline text part is the body */
	p = report_add_part(r);
	p->text = big;
	p->len = n;
	p->flags = PART_TEXT;
	assert_true(value(rs, r, "__B_START") == 1);
	assert_true(value(rs, r, "__B_END") == 0); /* beyond RULES_BODY_MAX */
	report_free(r);
	rules_free(rs);
}

/* ---- meta ---------------------------------------------------------------- */

static const char *meta_rules = "body __A /aaa/\n"
				"body __B /bbb/\n"
				"body __C /ccc/\n"
				"body __X eval:count_x()\n"
				"meta __OR_AND __A || __B && __C\n"
				"meta __PAREN (__A || __B) && __C\n"
				"meta __NOT_AND !__A && __B\n"
				"meta __SUM __A + __B + __C >= 2\n"
				"meta __PLUS_CMP __A + __B > 1\n"
				"meta __ARITH __X * 2 - 1 == 5\n"
				"meta __LESS __X < 3 && __X <= 2 && __X != 0\n"
				"meta __NEG -__X + 4 > 0\n"
				"meta __VALUE __X + 10\n"
				"meta __NESTED __PAREN || __NOT_AND\n";

static double meta_value(const char *name, const char *body)
{
	int errors;
	struct ruleset *rs = load(meta_rules, &errors);
	struct report *r = mk_report(NULL, body);
	double v;

	assert_int_equal(errors, 0);
	v = value(rs, r, name);
	report_free(r);
	rules_free(rs);
	return v;
}

static void test_meta_precedence(void **state)
{
	/* && binds tighter than || */
	assert_true(meta_value("__OR_AND", "aaa") == 1);
	assert_true(meta_value("__OR_AND", "bbb") == 0);
	assert_true(meta_value("__OR_AND", "bbb ccc") == 1);
	assert_true(meta_value("__PAREN", "aaa") == 0);
	assert_true(meta_value("__PAREN", "aaa ccc") == 1);
	/* ! binds tighter than && */
	assert_true(meta_value("__NOT_AND", "bbb") == 1);
	assert_true(meta_value("__NOT_AND", "aaa bbb") == 0);
	/* + binds tighter than comparisons */
	assert_true(meta_value("__SUM", "aaa ccc") == 1);
	assert_true(meta_value("__SUM", "ccc") == 0);
	assert_true(meta_value("__PLUS_CMP", "aaa bbb") == 1);
	assert_true(meta_value("__PLUS_CMP", "aaa") == 0);
	/* hooks give numbers; * before -, comparisons */
	assert_true(meta_value("__ARITH", "xxx") == 1);
	assert_true(meta_value("__ARITH", "xx") == 0);
	assert_true(meta_value("__LESS", "xx") == 1);
	assert_true(meta_value("__LESS", "xxx") == 0);
	assert_true(meta_value("__LESS", "none") == 0);
	assert_true(meta_value("__NEG", "xxx") == 1);
	assert_true(meta_value("__NEG", "xxxxx") == 0);
	assert_true(meta_value("__VALUE", "xx") == 12);
	assert_true(meta_value("__NESTED", "bbb") == 1);
	assert_true(meta_value("__NESTED", "ddd") == 0);
}

/* ---- certain rules stop evaluation ------------------------------------------ */

static void test_certain_stops(void **state)
{
	struct ruleset *rs = load_ok("header BOT From =~ /bot/\n"
				     "describe BOT bot\n"
				     "score BOT fuzzer=10\n"
				     "tflags BOT certain\n"
				     "body WORD /word/\n"
				     "describe WORD word\n"
				     "score WORD user=1\n");
	struct report *r = mk_report("From: bot\n", "word");
	struct rules_input in = { r, NULL, NULL, NULL, NULL, NULL };
	struct rules_result res;

	rules_result_init(&res);
	rules_eval(rs, &in, 0, &res);
	assert_true(res.certain);
	assert_true(res.value[rules_find(rs, "BOT")] == 1);
	assert_true(res.value[rules_find(rs, "WORD")] == 0); /* not run */
	rules_eval(rs, &in, RULES_EVAL_ALL, &res);
	assert_true(res.value[rules_find(rs, "WORD")] == 1);
	rules_result_release(&res);
	report_free(r);
	rules_free(rs);
}

/* ---- the site file ---------------------------------------------------------- */

static void test_site_overrides(void **state)
{
	const char *shipped = "body WORD /word/\n"
			      "describe WORD shipped\n"
			      "score WORD ai=2\n"
			      "test WORD ok a word\n"
			      "body OTHER /other/\n"
			      "describe OTHER other\n"
			      "score OTHER user=1\n"
			      "threshold ai 5\n";
	const char *site = "score WORD ai=0.5 user=1\n"
			   "describe WORD local\n"
			   "body OTHER /different/\n"
			   "test OTHER ok something different\n"
			   "body LOCAL /local/\n"
			   "describe LOCAL added here\n"
			   "score LOCAL fuzzer=4\n"
			   "threshold ai 8\n";
	struct ruleset *rs = rules_new(test_hooks, ARRAY_SIZE(test_hooks));
	const struct rule_info *ri;
	struct report *r;
	unsigned ntests;
	char *out;
	size_t len;
	FILE *f;

	rules_add_text(rs, "10_shipped.rules", shipped, strlen(shipped));
	rules_add_text(rs, "local.rules", site, strlen(site));
	assert_int_equal(rules_compile(rs), 0);
	ri = rules_info(rs, (size_t)rules_find(rs, "WORD"));
	assert_true(ri->score[CLASS_AI] == 0.5);
	assert_true(ri->score[CLASS_USER] == 1);
	assert_string_equal(ri->describe, "local");
	/* the site file redefined OTHER: its rule, shipped score */
	ri = rules_info(rs, (size_t)rules_find(rs, "OTHER"));
	assert_string_equal(ri->file, "local.rules");
	assert_true(ri->score[CLASS_USER] == 1);
	r = mk_report(NULL, "other");
	assert_true(value(rs, r, "OTHER") == 0);
	report_free(r);
	assert_true(rules_params(rs)->threshold[CLASS_AI] == 8);
	assert_true(rules_find(rs, "LOCAL") >= 0);
	/* WORD's shipped test still runs, OTHER's too (it is local) */
	f = open_memstream(&out, &len);
	assert_int_equal(rules_run_tests(rs, f, &ntests), 0);
	fclose(f);
	free(out);
	assert_int_equal(ntests, 2);
	rules_free(rs);
}

static void test_redefinition_drops_old_tests(void **state)
{
	const char *shipped = "body WORD /word/\ndescribe WORD w\n"
			      "score WORD ai=2\ntest WORD ok a word\n";
	const char *site = "body WORD /other/\n";
	struct ruleset *rs = rules_new(test_hooks, ARRAY_SIZE(test_hooks));
	unsigned ntests;
	char *out;
	size_t len;
	FILE *f;

	rules_add_text(rs, "10_shipped.rules", shipped, strlen(shipped));
	rules_add_text(rs, "local.rules", site, strlen(site));
	assert_int_equal(rules_compile(rs), 0);
	f = open_memstream(&out, &len);
	assert_int_equal(rules_run_tests(rs, f, &ntests), 0);
	fclose(f);
	free(out);
	assert_int_equal(ntests, 0);
	rules_free(rs);
}

static void test_files_and_dir(void **state)
{
	char dir[] = "/tmp/test_rules.XXXXXX", path[256];
	struct ruleset *rs;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/20_b.rules", dir);
	f = fopen(path, "w");
	fputs("score A user=2\n", f); /* overrides 10_a, loaded first */
	fclose(f);
	snprintf(path, sizeof(path), "%s/10_a.rules", dir);
	f = fopen(path, "w");
	fputs("body A /a/\ndescribe A a\nscore A user=1\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/notes.txt", dir);
	f = fopen(path, "w");
	fputs("not rules\n", f);
	fclose(f);
	rs = rules_new(test_hooks, ARRAY_SIZE(test_hooks));
	assert_int_equal(rules_add_dir(rs, dir), 0);
	assert_int_equal(rules_compile(rs), 0);
	assert_int_equal(rules_nfiles(rs), 2);
	assert_true(rules_info(rs, 0)->score[CLASS_USER] == 2);
	snprintf(path, sizeof(path), "%s/missing.rules", dir);
	assert_int_equal(rules_add_file(rs, path), -1);
	assert_int_equal(rules_compile(rs), 1);
	assert_non_null(strstr(lint_text(rs), "missing.rules: cannot open"));
	rules_free(rs);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	assert_int_equal(system(path), 0);
}

/* ---- inline tests ------------------------------------------------------------ */

static void test_inline_tests(void **state)
{
	const char *text =
		"body B /hello\\s+world/i\ndescribe B b\nscore B user=1\n"
		"test B ok Hello\\n  World\n"
		"test B fail hello there\n"
		"test B fail hello world\n" /* wrong on purpose: line 6 */
		"header H Subject =~ /^\\[syzbot\\]/\ndescribe H h\n"
		"score H fuzzer=1\n"
		"test H ok Subject: [syzbot] KASAN: bug\\nFrom: x\n"
		"test H fail From: syzbot\n"
		"meta M B && H\ndescribe M m\nscore M user=1\n"
		"test M ok Subject: [syzbot] x\\n\\nhello world\n"
		"test M fail hello world\n";
	struct ruleset *rs = load_ok(text);
	unsigned ntests;
	char *out;
	size_t len;
	FILE *f = open_memstream(&out, &len);

	assert_int_equal(rules_run_tests(rs, f, &ntests), 1);
	fclose(f);
	assert_int_equal(ntests, 7);
	assert_non_null(strstr(out, "t.rules:6: test B fail: the rule fired"));
	free(out);
	rules_free(rs);
}

/* ---- pcre2 limits -------------------------------------------------------------- */

static void test_match_limit(void **state)
{
	struct ruleset *rs = load_ok("body CATASTROPHIC /(a+)+$/\n"
				     "describe CATASTROPHIC c\n"
				     "score CATASTROPHIC ai=1\n"
				     "body FINE /aaa/\ndescribe FINE f\n"
				     "score FINE ai=1\n");
	char body[64];
	struct report *r;
	struct rules_input in = { NULL, NULL, NULL, NULL, NULL, NULL };
	struct rules_result res;

	memset(body, 'a', 40);
	strcpy(body + 40, "b");
	r = mk_report(NULL, body);
	in.report = r;
	rules_result_init(&res);
	rules_eval(rs, &in, RULES_EVAL_ALL, &res);
	/* stopped by the match limit: no match, counted, and the rest runs */
	assert_true(res.value[rules_find(rs, "CATASTROPHIC")] == 0);
	assert_int_equal(res.limit_hits, 1);
	assert_true(res.value[rules_find(rs, "FINE")] == 1);
	rules_result_release(&res);
	report_free(r);
	rules_free(rs);
}

static void test_regex_flags(void **state)
{
	const char *rules = "body __I /HELLO/i\n"
			    "body __M /^second/m\n"
			    "body __NOM /^second/\n"
			    "body __S /first.second/s\n"
			    "body __X / s e c o n d  # comment\n"
			    "   /x\n"
			    "body __U /caf\\x{e9}/u\n"
			    "body __NOCAP /(a)(b)(c)/\n";
	int errors;
	struct ruleset *rs = load(rules, &errors);
	struct report *r =
		mk_report(NULL, "hello first\nsecond caf\xc3\xa9 abc");

	assert_int_equal(errors, 0);
	assert_true(value(rs, r, "__I") == 1);
	assert_true(value(rs, r, "__M") == 1);
	assert_true(value(rs, r, "__NOM") == 0);
	assert_true(value(rs, r, "__S") == 1);
	assert_true(value(rs, r, "__X") == 1);
	assert_true(value(rs, r, "__U") == 1);
	assert_true(value(rs, r, "__NOCAP") == 1);
	report_free(r);
	/* a u rule does not match text that is not UTF-8 */
	r = mk_report(NULL, "caf\xe9");
	assert_true(value(rs, r, "__U") == 0);
	report_free(r);
	rules_free(rs);
}

/* ---- the quote stripper ---------------------------------------------------------- */

static char *own(const char *text)
{
	static char buf[4096];
	struct strbuf sb = STRBUF_INIT(4000);

	rules_own_text(text, strlen(text), &sb);
	snprintf(buf, sizeof(buf), "%s", sb_str(&sb));
	sb_release(&sb);
	return buf;
}

static void test_quote_stripping(void **state)
{
	assert_string_equal(own("mine\n> theirs\nmine again\n"),
			    "mine\nmine again\n");
	/* the attribution line goes with its quote, also when wrapped */
	assert_string_equal(own("Reply.\n\nOn Mon, 1 Jan 2024 at 10:00, A B "
				"<a@b.org> wrote:\n> quoted\n"),
			    "Reply.\n\n");
	assert_string_equal(own("Reply.\nOn Mon, Jan 1, 2024 at 10:00 AM Some "
				"Body <\nsome@body.org> wrote:\n\n> q\nEnd\n"),
			    "Reply.\nEnd\n");
	assert_string_equal(own("Am Mo., 1. Jan. 2024 um 10:00 Uhr schrieb X "
				"<x@y.de>:\n> q\nja\n"),
			    "ja\n");
	assert_string_equal(own("Le lun. 1 janv. 2024, X a \xc3\xa9"
				"crit :\n"
				"> q\noui\n"),
			    "oui\n");
	/* "wrote:" not followed by a quote is the reporter's own text */
	assert_string_equal(own("The tool wrote:\nerror 5\n"),
			    "The tool wrote:\nerror 5\n");
	/* top posting */
	assert_string_equal(
		own("Top.\n-----Original Message-----\nFrom: x\nold\n"),
		"Top.\n");
	assert_string_equal(
		own("Top.\n________________________________\nFrom: x\nold\n"),
		"Top.\n");
	assert_string_equal(own("a\n________________\nb\n"),
			    "a\n________________\nb\n");
	/* inline replies keep every own line */
	assert_string_equal(own("> q1\na1\n> q2\na2"), "a1\na2");
	assert_string_equal(own(""), "");
}

static char *whole(const char *text)
{
	static char buf[4096];
	struct strbuf sb = STRBUF_INIT(4000);

	rules_whole_text(text, strlen(text), &sb);
	snprintf(buf, sizeof(buf), "%s", sb_str(&sb));
	sb_release(&sb);
	return buf;
}

/* the whole text keeps every line, quote marks removed (finding 3) */
static void test_whole_text(void **state)
{
	assert_string_equal(whole("mine\n> theirs\n>> deeper\n> > nested\n"
				  " > indented\n>\n"),
			    "mine\ntheirs\ndeeper\nnested\nindented\n\n");
	assert_string_equal(
		whole("Top.\n-----Original Message-----\nFrom: x\nold\n"),
		"Top.\n-----Original Message-----\nFrom: x\nold\n");
	/* code is not a quote: only marks at a line's start go */
	assert_string_equal(whole("if (a > b)\n    x >>= 1;\n"),
			    "if (a > b)\n    x >>= 1;\n");
	assert_string_equal(whole(""), "");
}

/* a body rule reads the whole text only with RULES_WHOLE_TEXT */
static void test_whole_text_target(void **state)
{
	struct ruleset *rs = rules_new(NULL, 0);
	struct report *r = report_new();
	struct report_part *p;
	struct rules_input in = { r, NULL, NULL, NULL, NULL, NULL };
	struct rules_result res;
	unsigned own, rest;
	static const char body[] = "Report attached.\n"
				   "> ## Summary quoted\n"
				   "-----Original Message-----\n"
				   "after the marker\n";

	static const char rules[] = "body Q /^## Summary quoted$/m\n"
				    "score Q ai=1\n"
				    "body M /^after the marker$/m\n"
				    "score M ai=1\n"
				    "body A /^attached words$/m\n"
				    "score A ai=1\n"
				    "body U /^attached words$/m\n"
				    "score U user=1\n"
				    "body __H /^more$/m\n"
				    "meta F __H\n"
				    "score F fuzzer=1\n"
				    "body D /^more$/m\n"
				    "score D user=1 fuzzer=-1\n";

	rules_add_text(rs, "t.rules", rules, strlen(rules));
	assert_int_equal(rules_compile(rs), 0);
	p = report_add_part(r);
	p->text = xstrdup(body);
	p->len = strlen(body);
	p->flags = PART_TEXT;
	r->body = xstrdup(body);
	r->body_len = p->len;
	p = report_add_part(r);
	p->text = xstrdup("attached words\nmore\n");
	p->len = strlen(p->text);
	p->flags = PART_TEXT | PART_ATTACHMENT;
	rules_result_init(&res);
	rules_eval(rs, &in, 0, &res);
	assert_true(res.value[0] == 0 && res.value[1] == 0 &&
		    res.value[2] == 0);
	rules_eval(rs, &in, RULES_WHOLE_TEXT, &res);
	assert_true(res.value[0] == 1 && res.value[1] == 1 &&
		    res.value[2] == 1);
	/* only what the whole text can earn: an ai or fuzzer score, and
	 * the helpers such a rule reads; a user rule is not evaluated */
	assert_true(res.value[rules_find(rs, "U")] == 0);
	assert_true(res.value[rules_find(rs, "__H")] == 1);
	assert_true(res.value[rules_find(rs, "F")] == 1);
	assert_true(res.value[rules_find(rs, "D")] == 1);
	/* and the own text again: the scratch is rebuilt */
	rules_eval(rs, &in, 0, &res);
	assert_true(res.value[0] == 0 && res.value[2] == 0);
	rules_text_lines(r, &own, &rest);
	assert_int_equal(own, 1);
	assert_int_equal(rest, 5);
	/* a forwarded message is its author's own, an HTML rendering
	 * counts for neither */
	p = report_add_part(r);
	p->text = xstrdup("forwarded report\n");
	p->len = strlen(p->text);
	p->flags = PART_TEXT | PART_ATTACHMENT | PART_NESTED;
	p = report_add_part(r);
	p->text = xstrdup("html\nrendering\n");
	p->len = strlen(p->text);
	p->flags = PART_TEXT | PART_HTML;
	rules_text_lines(r, &own, &rest);
	assert_int_equal(own, 2);
	assert_int_equal(rest, 5);
	rules_result_release(&res);
	report_free(r);
	rules_free(rs);
}

static void test_addresses(void **state)
{
	struct strbuf sb = STRBUF_INIT(1024);

	rules_addresses("\"Doe, John\" <John@Example.org>, jane@x.org (Jane), "
			"<b@c.d>, Name Only, e@f",
			&sb);
	assert_string_equal(sb_str(&sb),
			    "john@example.org\njane@x.org\nb@c.d\ne@f");
	sb_release(&sb);
	assert_true(rules_header_hidden("received"));
	assert_true(rules_header_hidden("ARC-Seal"));
	assert_true(rules_header_hidden("List-Id"));
	assert_true(rules_header_hidden("X-Triage-Class"));
	assert_false(rules_header_hidden("From"));
	assert_false(rules_header_hidden("X-Google-Appengine-App-Id"));
}

/* ---- the prefilter must never change a result ----------------------------------- */

static const char *const pattern_pieces[] = {
	"abc",	"a(bc|d)e", "(x|yz)+",	 "\\bword\\b", "[a-c]{2}", "q?r", "s*t",
	"\\d+", "u{2,3}",   "(?:vw|wv)", "\\.",	       "^ab",	   "cd$", ".",
	"\\s",	"(?=ab)a",  "z{0,2}y",	 "\\x41bc",    "(ab)?cd",  "e|f",
};
static const char *const text_pieces[] = {
	"abc", "ade", "xyz", "word", " ", "\n", "qr",  "r",   "st", "t", "123",
	"uu",  "uuu", "vw",  "wv",   ".", "cd", "Abc", "ABC", "e",  "f", "y",
};

static unsigned long rng = 12345;

static unsigned next_rand(unsigned n)
{
	rng = rng * 6364136223846793005ul + 1442695040888963407ul;
	return (unsigned)((rng >> 33) % n);
}

static void test_prefilter_never_changes_results(void **state)
{
	struct strbuf rules = STRBUF_INIT(1 << 20);
	struct rules_result a, b;
	int i, k, t, errors;
	struct ruleset *rs;
	unsigned pf = 0;

	for (i = 0; i < 300; i++) {
		int n = 1 + (int)next_rand(4);

		sb_addf(&rules, "body __R%d /", i);
		for (k = 0; k < n; k++)
			sb_adds(&rules, pattern_pieces[next_rand(
						ARRAY_SIZE(pattern_pieces))]);
		sb_adds(&rules, next_rand(2) ? "/i\n" : "/m\n");
	}
	rs = load(sb_str(&rules), &errors);
	assert_int_equal(errors, 0);
	rules_result_init(&a);
	rules_result_init(&b);
	for (t = 0; t < 300; t++) {
		struct strbuf text = STRBUF_INIT(4096);
		struct rules_input in = { NULL, NULL, NULL, NULL, NULL, NULL };
		struct report *r;
		int n = 1 + (int)next_rand(30);
		size_t j;

		for (k = 0; k < n; k++)
			sb_adds(&text, text_pieces[next_rand(
					       ARRAY_SIZE(text_pieces))]);
		r = mk_report(NULL, sb_str(&text));
		in.report = r;
		rules_eval(rs, &in, RULES_EVAL_ALL, &a);
		rules_eval(rs, &in, RULES_EVAL_ALL | RULES_NO_PREFILTER, &b);
		pf += a.prefiltered;
		for (j = 0; j < rules_count(rs); j++)
			if (a.value[j] != b.value[j])
				fail_msg(
					"rule %s on \"%s\": %g with the prefilter, %g without",
					rules_info(rs, j)->name, sb_str(&text),
					a.value[j], b.value[j]);
		report_free(r);
		sb_release(&text);
	}
	/* the prefilter did work: many rules were skipped */
	assert_true(pf > 1000);
	rules_result_release(&a);
	rules_result_release(&b);
	rules_free(rs);
	sb_release(&rules);
}

/* ---- windows around literal occurrences ------------------------------------ */

static void test_windows_many_occurrences(void **state)
{
	static const char *const rules =
		"body __W1 /\\bwidget\\s+\\d+\\s+broke/i\n"
		"body __W2 /^\\s*widget (ok|\\d+ broke)$/m\n"
		"rawbody __W3 /gadget.{0,40}failed/\n";
	static const unsigned counts[] = { 1, 5, 100, 127, 128, 129, 400 };
	struct rules_result a, b;
	struct ruleset *rs;
	int errors;
	size_t k, j;

	rs = load(rules, &errors);
	assert_int_equal(errors, 0);
	rules_result_init(&a);
	rules_result_init(&b);
	for (k = 0; k < ARRAY_SIZE(counts); k++) {
		for (int last = 0; last < 2; last++) {
			struct strbuf text = STRBUF_INIT(1 << 20);
			struct rules_input in = { NULL, NULL, NULL,
						  NULL, NULL, NULL };
			struct report *r;
			unsigned i;

			/* many occurrences that do not match, then one that may */
			for (i = 0; i < counts[k]; i++)
				sb_adds(&text, "Widget x  gadget y\n");
			sb_adds(&text,
				last ? "widget 7 broke\ngadget has failed\n"
				     : "the end\n");
			r = mk_report(NULL, sb_str(&text));
			in.report = r;
			rules_eval(rs, &in, RULES_EVAL_ALL, &a);
			rules_eval(rs, &in, RULES_EVAL_ALL | RULES_NO_PREFILTER,
				   &b);
			for (j = 0; j < rules_count(rs); j++) {
				assert_true(a.value[j] == b.value[j]);
				assert_true(a.value[j] == (last ? 1 : 0));
			}
			report_free(r);
			sb_release(&text);
		}
	}
	rules_result_release(&a);
	rules_result_release(&b);
	rules_free(rs);
}

/* ---- the snapshot's checksum -------------------------------------------------- */

static void test_crc32c(void **state)
{
	unsigned char buf[1000];
	size_t i, n;

	/* the check value of CRC-32C (RFC 3720, B.4) */
	assert_int_equal(rules_crc32c("123456789", 9), 0xe3069283u);
	assert_int_equal(rules_crc32c_portable("123456789", 9), 0xe3069283u);
	assert_int_equal(rules_crc32c("", 0), 0);
	memset(buf, 0, 32);
	assert_int_equal(rules_crc32c(buf, 32), 0x8a9136aau);
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)(i * 7 + 3);
	/* every length and alignment: the instruction and the table agree */
	for (n = 0; n < 40; n++)
		for (i = 0; i < 9; i++)
			assert_int_equal(rules_crc32c(buf + i, n),
					 rules_crc32c_portable(buf + i, n));
	assert_int_equal(rules_crc32c(buf, sizeof(buf)),
			 rules_crc32c_portable(buf, sizeof(buf)));
}

/* ---- phrase lists ---------------------------------------------------------- */

static void test_phrase_lists(void **state)
{
	const char *shipped = "phrases phrase_hits  could lead to,\n"
			      "        may allow ,an attacker\n"
			      "body    __PH  eval:phrase_hits()\n"
			      "meta    AI_PH __PH >= 2\n"
			      "describe AI_PH ph\n"
			      "score   AI_PH ai=1\n";
	const char *site = "phrases phrase_hits  in theory, my laptop\n";
	struct ruleset *rs = load_ok(shipped);
	struct report *r = mk_report(
		NULL,
		"This COULD LEAD TO a leak; it may allow an attacker in.");
	char many[4096] = "phrases phrase_hits aa";
	int i;

	/* continuation lines, blanks around the commas; matched caseless */
	assert_true(value(rs, r, "__PH") == 3);
	assert_true(value(rs, r, "AI_PH") == 1);
	report_free(r);
	rules_free(rs);

	/* a later file's list replaces the earlier one */
	rs = rules_new(test_hooks, ARRAY_SIZE(test_hooks));
	rules_add_text(rs, "20_ai.rules", shipped, strlen(shipped));
	rules_add_text(rs, "local.rules", site, strlen(site));
	assert_int_equal(rules_compile(rs), 0);
	r = mk_report(NULL, "In theory my laptop could lead to trouble.");
	assert_true(value(rs, r, "__PH") == 2);
	report_free(r);
	rules_free(rs);

	expect_problem("body __PH eval:phrase_hits()\nmeta P __PH\n"
		       "describe P p\nscore P ai=1\n",
		       "t.rules:1: body __PH: eval:phrase_hits() needs its "
		       "phrase list (phrases phrase_hits ...)");
	expect_problem("phrases count_x ab, cd\n",
		       "t.rules:1: phrases count_x: no eval hook of that name "
		       "reads a phrase list");
	expect_problem("phrases nosuch ab, cd\n",
		       "t.rules:1: phrases nosuch: no eval hook");
	expect_problem("phrases phrase_hits ab\n",
		       "t.rules:1: warning: phrases phrase_hits: no rule uses "
		       "phrase_hits()");
	expect_problem("phrases phrase_hits ab, Could\n",
		       "t.rules:1: phrases phrase_hits: phrase 2 has capitals");
	expect_problem("phrases phrase_hits ab, c\n",
		       "t.rules:1: phrases phrase_hits: phrase 2 shorter than "
		       "2 bytes");
	expect_problem("phrases phrase_hits ab,, cd\n",
		       "phrase 2 shorter than 2 bytes");
	expect_problem("phrases phrase_hits ab\nphrases phrase_hits cd\n",
		       "t.rules:2: duplicate phrases phrase_hits (line 1)");
	for (i = 1; i <= RULES_PHRASES_MAX; i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many),
			 ", p%d", i);
	strcat(many, "\n");
	expect_problem(many, "phrases phrase_hits: more than 64 phrases");
}

/* ---- the compiled snapshot ------------------------------------------------------ */

static const char *snap_rules =
	"header   S_FROM  From:addr =~ /^bot\\@ci\\.example$/m\n"
	"describe S_FROM  A bot\nscore S_FROM fuzzer=10\ntflags S_FROM certain\n"
	"header   S_EXISTS exists:X-Mailer\ndescribe S_EXISTS mailer\n"
	"score    S_EXISTS user=0.5\n"
	"header   S_NOT   Subject !~ /bug/i\ndescribe S_NOT nb\nscore S_NOT ai=1\n"
	"header   S_NH    eval:nheaders()\ndescribe S_NH n\nscore S_NH ai=0.1\n"
	"body     __WORDS /\\b(could|may) (lead to|allow)\\b/i\n"
	"body     __X     eval:count_x(y)\n"
	"rawbody  S_RAW   /attached log/\ndescribe S_RAW raw\nscore S_RAW user=1\n"
	"body     S_UTF   /caf\\x{e9}/u\ndescribe S_UTF utf\nscore S_UTF user=1\n"
	"meta     S_META  __WORDS && __X >= 2 || S_RAW\n"
	"describe S_META  meta\nscore S_META ai=2.5 user=-1\n"
	"phrases  phrase_hits  could lead, may allow\n"
	"body     S_PH    eval:phrase_hits()\ndescribe S_PH ph\n"
	"score    S_PH    ai=0.5\n"
	"threshold ai 6\nuncertain_band 0.5\nuser_bias 3\n";

static const char *const snap_texts[] = {
	"This could lead to yy.",
	"this may allow y",
	"the attached log, could allow",
	"caf\xc3\xa9 yyy may allow",
	"nothing here",
};

static char *snap_dir(void)
{
	char *dir = xstrdup("/tmp/test_rules_snap.XXXXXX");
	char *path;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	path = xasprintf("%s/10_a.rules", dir);
	f = fopen(path, "w");
	fputs(snap_rules, f);
	fclose(f);
	free(path);
	return dir;
}

static void rm_rf(const char *dir)
{
	char *cmd = xasprintf("rm -rf %s", dir);

	assert_int_equal(system(cmd), 0);
	free(cmd);
}

static struct ruleset *dir_rules(const char *dir, const char *local)
{
	struct ruleset *rs = rules_new(test_hooks, ARRAY_SIZE(test_hooks));

	rules_add_dir(rs, dir);
	if (local && access(local, F_OK) == 0)
		rules_add_file(rs, local);
	assert_int_equal(rules_compile(rs), 0);
	return rs;
}

static void test_snapshot_round_trip(void **state)
{
	char *dir = snap_dir(), *snap = xasprintf("%s/rules.idx", dir);
	char *local = xasprintf("%s/local.rules", dir);
	struct ruleset *a = dir_rules(dir, local), *b;
	struct rules_result ra, rb;
	size_t i, k;

	assert_int_equal(rules_save(a, dir, local, snap), 0);
	b = rules_open(snap, dir, local, test_hooks, ARRAY_SIZE(test_hooks));
	assert_non_null(b);
	assert_int_equal(rules_count(a), rules_count(b));
	assert_memory_equal(rules_params(a), rules_params(b),
			    sizeof(struct rules_params));
	for (i = 0; i < rules_count(a); i++) {
		const struct rule_info *x = rules_info(a, i),
				       *y = rules_info(b, i);

		assert_string_equal(x->name, y->name);
		assert_string_equal(x->describe, y->describe);
		assert_string_equal(x->file, y->file);
		assert_int_equal(x->line, y->line);
		assert_int_equal(x->type, y->type);
		assert_memory_equal(x->score, y->score, sizeof(x->score));
		assert_int_equal(x->certain, y->certain);
		assert_int_equal(x->certain_class, y->certain_class);
		assert_int_equal(x->helper, y->helper);
		assert_true((x->hook == NULL) == (y->hook == NULL));
		assert_int_equal(rules_find(b, x->name), (int)i);
	}
	rules_result_init(&ra);
	rules_result_init(&rb);
	for (k = 0; k < ARRAY_SIZE(snap_texts); k++) {
		struct report *r = mk_report("From: CI <BOT@ci.example>\n"
					     "X-Mailer: m\nSubject: hello",
					     snap_texts[k]);
		struct rules_input in = { r, NULL, NULL, NULL, NULL, NULL };

		add_attachment(r, "log.txt", "see the attached log");
		rules_eval(a, &in, RULES_EVAL_ALL, &ra);
		rules_eval(b, &in, RULES_EVAL_ALL, &rb);
		assert_memory_equal(ra.value, rb.value,
				    rules_count(a) * sizeof(double));
		/* and without the prefilter, the same again */
		rules_eval(b, &in, RULES_EVAL_ALL | RULES_NO_PREFILTER, &rb);
		assert_memory_equal(ra.value, rb.value,
				    rules_count(a) * sizeof(double));
		report_free(r);
	}
	rules_result_release(&ra);
	rules_result_release(&rb);
	rules_free(b);
	rules_free(a);
	rm_rf(dir);
	free(dir);
	free(snap);
	free(local);
}

static void test_snapshot_stale(void **state)
{
	char *dir = snap_dir(), *snap = xasprintf("%s/rules.idx", dir);
	char *local = xasprintf("%s/local.rules", dir);
	char *other = xasprintf("%s/20_b.rules", dir);
	struct ruleset *a = dir_rules(dir, local), *b;
	static const struct rules_hook fewer[] = {
		{ "nheaders", RULES_ON(RULE_HEADER), 0, 0, NULL, hook_nheaders,
		  false },
	};
	FILE *f;

#define OPEN() rules_open(snap, dir, local, test_hooks, ARRAY_SIZE(test_hooks))
	assert_int_equal(rules_save(a, dir, local, snap), 0);
	rules_free(a);
	b = OPEN();
	assert_non_null(b);
	rules_free(b);
	/* another directory string, another site file, missing hooks */
	assert_null(rules_open(snap, "/tmp", local, test_hooks,
			       ARRAY_SIZE(test_hooks)));
	assert_null(rules_open(snap, dir, NULL, test_hooks,
			       ARRAY_SIZE(test_hooks)));
	assert_null(rules_open(snap, dir, local, fewer, ARRAY_SIZE(fewer)));
	/* a site file appears */
	f = fopen(local, "w");
	fputs("score S_RAW user=2\n", f);
	fclose(f);
	assert_null(OPEN());
	a = dir_rules(dir, local);
	assert_int_equal(rules_save(a, dir, local, snap), 0);
	rules_free(a);
	b = OPEN();
	assert_non_null(b);
	assert_true(rules_info(b, (size_t)rules_find(b, "S_RAW"))
			    ->score[CLASS_USER] == 2);
	rules_free(b);
	/* a rule file is added, changed or removed */
	f = fopen(other, "w");
	fputs("\n", f);
	fclose(f);
	assert_null(OPEN());
	assert_int_equal(unlink(other), 0);
	b = OPEN();
	assert_non_null(b);
	rules_free(b);
	f = fopen(local, "a");
	fputs("# a comment\n", f);
	fclose(f);
	assert_null(OPEN());
	assert_int_equal(unlink(local), 0);
	assert_null(OPEN());
#undef OPEN
	assert_null(rules_open("/nonexistent/rules.idx", dir, NULL, test_hooks,
			       ARRAY_SIZE(test_hooks)));
	rm_rf(dir);
	free(dir);
	free(snap);
	free(local);
	free(other);
}

static void test_snapshot_damaged(void **state)
{
	char *dir = snap_dir(), *snap = xasprintf("%s/rules.idx", dir);
	char *cut = xasprintf("%s/cut.idx", dir);
	struct ruleset *a = dir_rules(dir, NULL), *b;
	char *data;
	size_t len, n;

	assert_int_equal(rules_save(a, dir, NULL, snap), 0);
	rules_free(a);
	assert_int_equal(read_file(snap, 1u << 20, &data, &len), 0);
	/* every truncation is refused, without reading out of bounds */
	for (n = 0; n < len; n += n < 64 ? 1 : 7) {
		assert_int_equal(write_file_atomic(cut, data, n, 0600), 0);
		assert_null(rules_open(cut, dir, NULL, test_hooks,
				       ARRAY_SIZE(test_hooks)));
	}
	/* and so is a flipped byte anywhere */
	for (n = 0; n < len; n += 13) {
		data[n] ^= 0x20;
		assert_int_equal(write_file_atomic(cut, data, len, 0600), 0);
		assert_null(rules_open(cut, dir, NULL, test_hooks,
				       ARRAY_SIZE(test_hooks)));
		data[n] ^= 0x20;
	}
	assert_int_equal(write_file_atomic(cut, data, len, 0600), 0);
	b = rules_open(cut, dir, NULL, test_hooks, ARRAY_SIZE(test_hooks));
	assert_non_null(b);
	rules_free(b);
	/* a snapshot of another format version is refused, checksum or not */
	{
		uint32_t v, crc;

		memcpy(&v, data + 8, 4);
		v -= 1;
		memcpy(data + 8, &v, 4);
		crc = rules_crc32c(data, len - 4);
		memcpy(data + len - 4, &crc, 4);
		assert_int_equal(write_file_atomic(cut, data, len, 0600), 0);
		assert_null(rules_open(cut, dir, NULL, test_hooks,
				       ARRAY_SIZE(test_hooks)));
		v += 1;
		memcpy(data + 8, &v, 4);
		crc = rules_crc32c(data, len - 4);
		memcpy(data + len - 4, &crc, 4);
		assert_int_equal(write_file_atomic(cut, data, len, 0600), 0);
		b = rules_open(cut, dir, NULL, test_hooks,
			       ARRAY_SIZE(test_hooks));
		assert_non_null(b);
		/* its strings live in the snapshot: no more rules */
		assert_int_equal(rules_add_text(b, "more.rules", "\n", 1), -1);
		rules_free(b);
	}
	/* a ruleset with errors is not saved */
	a = rules_new(test_hooks, ARRAY_SIZE(test_hooks));
	rules_add_text(a, "bad.rules", "body X /(/\n", 11);
	assert_int_equal(rules_save(a, dir, NULL, cut), -1);
	rules_free(a);
	free(data);
	rm_rf(dir);
	free(dir);
	free(snap);
	free(cut);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_directives),
		cmocka_unit_test(test_continuation_and_crlf),
		cmocka_unit_test(test_syntax_errors),
		cmocka_unit_test(test_lint_checks),
		cmocka_unit_test(test_meta_errors),
		cmocka_unit_test(test_header_targets),
		cmocka_unit_test(test_body_rawbody_targets),
		cmocka_unit_test(test_body_from_parts_and_cap),
		cmocka_unit_test(test_meta_precedence),
		cmocka_unit_test(test_certain_stops),
		cmocka_unit_test(test_site_overrides),
		cmocka_unit_test(test_redefinition_drops_old_tests),
		cmocka_unit_test(test_files_and_dir),
		cmocka_unit_test(test_inline_tests),
		cmocka_unit_test(test_match_limit),
		cmocka_unit_test(test_regex_flags),
		cmocka_unit_test(test_quote_stripping),
		cmocka_unit_test(test_whole_text),
		cmocka_unit_test(test_whole_text_target),
		cmocka_unit_test(test_addresses),
		cmocka_unit_test(test_prefilter_never_changes_results),
		cmocka_unit_test(test_windows_many_occurrences),
		cmocka_unit_test(test_crc32c),
		cmocka_unit_test(test_phrase_lists),
		cmocka_unit_test(test_snapshot_round_trip),
		cmocka_unit_test(test_snapshot_stale),
		cmocka_unit_test(test_snapshot_damaged),
	};

	msg_setup("test_rules", 1, false);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
