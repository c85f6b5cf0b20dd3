// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_classify - the classify hooks, the decision, the verdict header,
 * and the shipped rules on hand-written reports
 *
 * Reports and evidence are built by hand (report_add_header(),
 * report_add_part(), xcalloc'd struct evidence): the evidence stage is
 * tested on its own.
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

#include "classify.h"
#include "evidence.h"
#include "report.h"
#include "rules.h"
#include "strbuf.h"
#include "symbols.h"
#include "util.h"

/* ---- helpers ------------------------------------------------------------- */

struct text {
	struct rules_text t;
	char *lower;
};

static struct text *mk_text(const char *s)
{
	struct text *x = xcalloc(1, sizeof(*x));
	size_t i, n = strlen(s);

	x->lower = xstrdup(s);
	for (i = 0; i < n; i++)
		if (x->lower[i] >= 'A' && x->lower[i] <= 'Z')
			x->lower[i] += 32;
	x->t.text = s;
	x->t.lower = x->lower;
	x->t.len = n;
	return x;
}

static void free_text(struct text *x)
{
	free(x->lower);
	free(x);
}

static struct ruleset *shipped(void);

/*
 * hook_phrases - the shipped phrase list of a hook that reads one, loaded
 * once from classifiers/ (the lists are rules data)
 */
static const struct rules_phrases *hook_phrases(const struct rules_hook *h)
{
	static struct ruleset *rs;

	if (!h->phrases)
		return NULL;
	if (!rs)
		rs = shipped();
	assert_non_null(rules_phrases(rs, h->name));
	return rules_phrases(rs, h->name);
}

/* hook - call a classify hook by name with string arguments */
static double hook(const char *name, const struct report *r,
		   const struct evidence *ev, const double *model,
		   const char *text, int argc, ...)
{
	const struct rules_hook *h = classify_hook(name);
	struct rules_input in = { r, ev, model, NULL, NULL, NULL };
	struct rules_args a = { 0 };
	struct text *x = text ? mk_text(text) : NULL;
	va_list ap;
	double v;
	int i;

	assert_non_null(h);
	va_start(ap, argc);
	for (i = 0; i < argc; i++)
		a.argv[i] = va_arg(ap, const char *);
	va_end(ap);
	a.argc = argc;
	a.phrases = hook_phrases(h);
	if (h->check)
		assert_null(h->check(&a));
	v = h->fn(&in, x ? &x->t : NULL, &a);
	if (x)
		free_text(x);
	return v;
}

static const char *check(const char *name, int argc, ...)
{
	const struct rules_hook *h = classify_hook(name);
	struct rules_args a = { 0 };
	va_list ap;
	int i;

	va_start(ap, argc);
	for (i = 0; i < argc; i++)
		a.argv[i] = va_arg(ap, const char *);
	va_end(ap);
	a.argc = argc;
	return h->check ? h->check(&a) : NULL;
}

static struct evidence *ev_new(void)
{
	return xcalloc(1, sizeof(struct evidence));
}

static void ev_free(struct evidence *ev)
{
	free(ev->crash_type);
	free(ev->hardware);
	free(ev->distro_kernel);
	free(ev->kernel_version);
	free(ev->bisect_commit);
	free(ev);
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

/* ---- evidence hooks ------------------------------------------------------ */

static void test_evidence_hooks(void **state)
{
	struct evidence *ev = ev_new();
	struct report *r = report_new();

	/* without evidence no evidence hook fires */
	assert_true(hook("has_oops_trace", r, NULL, NULL, NULL, 0) == 0);
	assert_true(hook("real_hardware", r, NULL, NULL, NULL, 0) == 0);
	assert_true(hook("has_reproducer", r, NULL, NULL, NULL, 0) == 0);

	assert_true(hook("has_oops_trace", r, ev, NULL, NULL, 0) == 0);
	ev->crash_type = xstrdup("KASAN");
	assert_true(hook("has_oops_trace", r, ev, NULL, NULL, 0) == 1);

	assert_true(hook("real_hardware", r, ev, NULL, NULL, 0) == 0);
	ev->hardware = xstrdup("LENOVO 21CB/21CB, BIOS N3AET74W 02/23/2023");
	assert_true(hook("real_hardware", r, ev, NULL, NULL, 0) == 1);
	assert_true(hook("qemu_hardware", r, ev, NULL, NULL, 0) == 0);
	ev->hw_virtual = true;
	assert_true(hook("real_hardware", r, ev, NULL, NULL, 0) == 0);
	assert_true(hook("qemu_hardware", r, ev, NULL, NULL, 0) == 1);

	ev->reproducer = REPRO_SYZ;
	assert_true(hook("has_reproducer", r, ev, NULL, NULL, 0) == 1);
	assert_true(hook("has_reproducer", r, ev, NULL, NULL, 1, "syz") == 1);
	assert_true(hook("has_reproducer", r, ev, NULL, NULL, 1, "c") == 0);
	assert_true(hook("has_reproducer", r, ev, NULL, NULL, 2, "c",
			 "steps") == 0);
	ev->reproducer |= REPRO_STEPS;
	assert_true(hook("has_reproducer", r, ev, NULL, NULL, 2, "c",
			 "steps") == 1);
	assert_non_null(check("has_reproducer", 1, "python"));

	assert_true(hook("has_bisect", r, ev, NULL, NULL, 0) == 0);
	ev->bisect_commit = xstrdup("0123456789ab");
	assert_true(hook("has_bisect", r, ev, NULL, NULL, 0) == 1);
	assert_true(hook("distro_kernel", r, ev, NULL, NULL, 0) == 0);
	ev->distro_kernel = xstrdup("6.1.0-42-amd64");
	assert_true(hook("distro_kernel", r, ev, NULL, NULL, 0) == 1);
	assert_true(hook("kernel_version_given", r, ev, NULL, NULL, 0) == 0);
	ev->kernel_version = xstrdup("");
	assert_true(hook("kernel_version_given", r, ev, NULL, NULL, 0) == 0);
	free(ev->kernel_version);
	ev->kernel_version = xstrdup("6.12.0-rc3");
	assert_true(hook("kernel_version_given", r, ev, NULL, NULL, 0) == 1);
	assert_true(hook("dmesg_timestamps", r, ev, NULL, NULL, 0) == 0);
	ev->dmesg_timestamps = true;
	assert_true(hook("dmesg_timestamps", r, ev, NULL, NULL, 0) == 1);
	assert_true(hook("syzbot_report", r, ev, NULL, NULL, 0) == 0);
	ev->syzbot = true;
	assert_true(hook("syzbot_report", r, ev, NULL, NULL, 0) == 1);
	ev_free(ev);
	report_free(r);
}

static void test_attachment_named(void **state)
{
	struct report *r = mk_report(NULL, "see attached");
	struct report_part *p;

	assert_true(hook("attachment_named", r, NULL, NULL, NULL, 2, "dmesg",
			 "lspci") == 0);
	p = report_add_part(r);
	p->filename = xstrdup("Screenshot.png");
	assert_true(hook("attachment_named", r, NULL, NULL, NULL, 2, "dmesg",
			 "lspci") == 0);
	p = report_add_part(r);
	p->filename = xstrdup("DMESG-6.12.txt");
	assert_true(hook("attachment_named", r, NULL, NULL, NULL, 2, "dmesg",
			 "lspci") == 1);
	report_free(r);
}

static void test_model_hook(void **state)
{
	struct report *r = report_new();
	double p[CLASS_N] = { 0.10, 0.05, 0.85 };

	assert_true(hook("model", r, NULL, NULL, NULL, 3, "ai", "0.80",
			 "0.95") == 0);
	assert_true(hook("model", r, NULL, p, NULL, 3, "ai", "0.80", "0.95") ==
		    1);
	assert_true(hook("model", r, NULL, p, NULL, 3, "ai", "0.95", "1.00") ==
		    0);
	assert_true(hook("model", r, NULL, p, NULL, 3, "user", "0.0", "0.5") ==
		    1);
	/* hi = 1 includes a posterior of exactly 1 */
	p[CLASS_AI] = 1.0;
	assert_true(hook("model", r, NULL, p, NULL, 3, "ai", "0.99", "1") == 1);
	assert_non_null(check("model", 3, "robot", "0.5", "0.8"));
	assert_non_null(check("model", 3, "ai", "0.8", "0.5"));
	assert_non_null(check("model", 3, "ai", "0.8", "1.5"));
	assert_null(check("model", 3, "fuzzer", "0.5", "0.8"));
	report_free(r);
}

/* ---- text hooks -------------------------------------------------------------- */

static void test_cvss_impact_template(void **state)
{
	struct evidence *ev = ev_new();
	const char *advisory = "Summary: overflow\n"
			       "CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H\n"
			       "CWE-787: Out-of-bounds Write\n"
			       "Attack Vector: Local\n"
			       "**Impact**: privilege escalation\n";

	assert_true(hook("cvss_impact_template", NULL, NULL, NULL, advisory,
			 0) == 4);
	assert_true(hook("cvss_impact_template", NULL, NULL, NULL, advisory, 1,
			 "5") == 0);
	/* a crash shown: the template does not count */
	ev->crash_type = xstrdup("KASAN");
	assert_true(hook("cvss_impact_template", NULL, ev, NULL, advisory, 0) ==
		    0);
	/* "Impact:" opening a line counts, inside a sentence it does not */
	assert_true(hook("cvss_impact_template", NULL, NULL, NULL,
			 "text\n  Impact: data loss\n", 0) == 1);
	assert_true(hook("cvss_impact_template", NULL, NULL, NULL,
			 "The impact: small.\n", 0) == 0);
	/* Bugzilla's "Severity:" field is not an advisory template */
	assert_true(hook("cvss_impact_template", NULL, NULL, NULL,
			 "          Severity: normal\n          Priority: P3\n",
			 0) == 0);
	assert_true(hook("cvss_impact_template", NULL, NULL, NULL,
			 "Fixes CWE-x and CVE-2024-1\n", 0) == 0);
	ev_free(ev);
}

static void test_theoretical_language(void **state)
{
	const char *text =
		"A malicious server could lead to memory corruption. "
		"This may allow an attacker to escalate. It is "
		"potentially exploitable.";

	/* 5 phrases in 20 words (counted as 100): 50 per 1000 */
	assert_true(hook("theoretical_language", NULL, NULL, NULL, text, 0) ==
		    50);
	assert_true(hook("theoretical_language", NULL, NULL, NULL, text, 1,
			 "6") == 0);
	assert_true(hook("theoretical_language", NULL, NULL, NULL, text, 2, "1",
			 "60") == 0);
	assert_true(hook("theoretical_language", NULL, NULL, NULL,
			 "My laptop hangs after resume, could you help?",
			 0) == 0);
	/* phrases start at a word: "impotential" is not "potential" */
	assert_true(hook("theoretical_language", NULL, NULL, NULL,
			 "impotential impotential", 1, "1") == 0);
}

static void test_llm_headings(void **state)
{
	assert_true(hook("llm_headings", NULL, NULL, NULL,
			 "## Summary\ntext\n## Root Cause Analysis\ntext\n"
			 "## Impact\n### Suggested Fix\n",
			 0) == 4);
	assert_true(hook("llm_headings", NULL, NULL, NULL,
			 "**Summary:** a race\n**Impact**: a crash\n"
			 "**Proposed Fix:** a lock\n",
			 0) == 3);
	assert_true(hook("llm_headings", NULL, NULL, NULL,
			 "1. ROOT CAUSE\n\n2. IMPACT\n\n3. AFFECTED VERSIONS\n",
			 0) == 3);
	assert_true(hook("llm_headings", NULL, NULL, NULL,
			 "Problem Analysis\n\ntext\n\nSuggestions for Fix\n\n"
			 "== Timeline ==\n",
			 0) == 3);
	/* repeated headings count once; min 3 by default */
	assert_true(hook("llm_headings", NULL, NULL, NULL,
			 "## Impact\n## Impact\n## Summary\n", 0) == 0);
	assert_true(hook("llm_headings", NULL, NULL, NULL,
			 "## Impact\n## Impact\n## Summary\n", 1, "1") == 2);
	/* fields with values, sentences and unknown headings are not */
	assert_true(hook("llm_headings", NULL, NULL, NULL,
			 "           Summary: Noname webcam used to work\n"
			 "Impact is that my disk is gone.\n"
			 "## Hardware\n## Kernel log\nsummary\n",
			 1, "1") == 1);
}

static void test_first_person_observation(void **state)
{
	assert_true(hook("first_person_observation", NULL, NULL, NULL,
			 "After upgrading to 6.12 my laptop no longer works on "
			 "every boot.",
			 0) == 4);
	assert_true(hook("first_person_observation", NULL, NULL, NULL,
			 "It happens since 6.8, since kernel 6.1 and since "
			 "v6.12; not since 2019.",
			 0) == 3);
	/* whole words: "my pc" is not "my pcie" */
	assert_true(hook("first_person_observation", NULL, NULL, NULL,
			 "my pcie card", 0) == 0);
	assert_true(hook("first_person_observation", NULL, NULL, NULL,
			 "An attacker could exploit this.", 0) == 0);
	assert_true(hook("first_person_observation", NULL, NULL, NULL,
			 "my laptop", 1, "2") == 0);
}

static void test_source_lines(void **state)
{
	/* kernel style, diff lines, numbered excerpts, trailing comments */
	assert_true(hook("source_lines", NULL, NULL, NULL,
			 "\tlbtf_free_cmd_buffer(priv);\n"
			 "+\tif (skb->len < ETH_ZLEN && eth_skb_pad(skb)) {\n"
			 "1137 :  const u8 *rp = (const u8 *)key;\n"
			 "  cancel_work_sync(&w->work); /* only this */\n"
			 "\tret = foo(); // may fail\n"
			 "\t}\n",
			 0) == 5);
	/* prose, logs, lone braces and plain statements are not source */
	assert_true(
		hook("source_lines", NULL, NULL, NULL,
		     "The driver frees the buffer (see below); then it "
		     "crashes when the device is removed again;\n"
		     "[   12.345678] foo: probe of 1-1 failed with error -22;\n"
		     "}\n"
		     "return;\n"
		     "Fix it with a lock (or two).\n",
		     0) == 0);
	assert_true(hook("source_lines", NULL, NULL, NULL, "a = b;\nc = d;\n",
			 1, "3") == 0);
	assert_true(hook("source_lines", NULL, NULL, NULL, "a = b;\nc = d;\n",
			 1, "2") == 2);
	assert_null(check("source_lines", 1, "3"));
	assert_non_null(check("source_lines", 1, "x"));
}

/*
 * trace_hook - false_trace() over an invented trace of bt.c's two
 * functions: both lines far outside their bodies, and hci_rx_work does
 * not call btusb_probe
 */
static void trace_hook(const struct symbols *sym)
{
	struct frame f[2];
	struct evidence ev;
	struct rules_input in = { NULL, &ev, NULL, sym, NULL, NULL };
	struct rules_args a = { 0 };
	struct text *x = mk_text("a trace");

	memset(f, 0, sizeof(f));
	memset(&ev, 0, sizeof(ev));
	f[0].function = (char *)"btusb_probe";
	f[0].file = (char *)"drivers/bt.c";
	f[0].line = 900;
	f[1].function = (char *)"hci_rx_work";
	f[1].file = (char *)"drivers/bt.c";
	f[1].line = 950;
	ev.frames = f;
	ev.nframes = 2;
	assert_true(classify_hook_false_trace(&in, &x->t, &a) == 3);
	/* the facts cited are weighed apart: nothing false there */
	assert_true(classify_hook_false_claims(&in, &x->t, &a) == 0);
	a.argc = 1;
	a.argv[0] = "4";
	assert_true(classify_hook_false_trace(&in, &x->t, &a) == 0);
	a.argc = 0;
	f[0].line = 3;
	f[1].line = 7;
	assert_true(classify_hook_false_trace(&in, &x->t, &a) == 0);
	in.symbols = NULL;
	assert_true(classify_hook_false_trace(&in, &x->t, &a) == 0);
	free_text(x);
}

static void test_unknown_functions(void **state)
{
	char dir[] = "/tmp/test_classify.XXXXXX";
	char *src, *idx, *cmd;
	struct symbols *sym;
	struct rules_input in = { NULL, NULL, NULL, NULL, NULL, NULL };
	struct rules_args a = { 0 };
	struct text *x;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	src = xasprintf("%s/drivers", dir);
	assert_int_equal(mkdir(src, 0700), 0);
	free(src);
	src = xasprintf("%s/drivers/bt.c", dir);
	f = fopen(src, "w");
	assert_non_null(f);
	fputs("int btusb_probe(void)\n{\n\treturn 0;\n}\n"
	      "static void hci_rx_work(int x)\n{\n}\n",
	      f);
	fclose(f);
	idx = xasprintf("%s/symbols.idx", dir);
	assert_int_equal(symbols_build(dir, idx, NULL), 0);
	sym = symbols_open(idx);
	assert_non_null(sym);

	x = mk_text("btusb_probe() calls btusb_write(), and btusb_write() "
		    "again; hci_rx_work() is fine; pthread_create() and "
		    "main() are not kernel names; nor is syz_open_dev().");
	/* no index: never fires */
	assert_true(classify_hook_unknown_functions(&in, &x->t, &a) == 0);
	in.symbols = sym;
	assert_true(classify_hook_unknown_functions(&in, &x->t, &a) == 1);
	a.argc = 1;
	a.argv[0] = "2";
	assert_true(classify_hook_unknown_functions(&in, &x->t, &a) == 0);
	/* a MIN_CHECKABLE or MIN_SHARE that is no whole number or no share
	 * is taken as absent, never cast ("-1" is no huge minimum) */
	a.argc = 3;
	a.argv[0] = "1";
	a.argv[1] = "-1";
	a.argv[2] = "-0.5";
	assert_true(classify_hook_unknown_functions(&in, &x->t, &a) == 1);
	a.argv[1] = "1e30";
	a.argv[2] = "nan";
	assert_true(classify_hook_unknown_functions(&in, &x->t, &a) == 1);
	a.argv[1] = "3";
	a.argv[2] = "0.5";
	assert_true(classify_hook_unknown_functions(&in, &x->t, &a) == 0);
	a.argv[2] = "0.3";
	assert_true(classify_hook_unknown_functions(&in, &x->t, &a) == 1);
	free_text(x);
	/* one "_" away from a real function: a typo, not an invention */
	a.argc = 0;
	x = mk_text("_btusb_probe() and _hci_rx_work() are typos; "
		    "___btusb_probe() is two away and btusb_prob() is not "
		    "one of those.");
	assert_true(classify_hook_unknown_functions(&in, &x->t, &a) == 2);
	free_text(x);
	/* a driver the tree lacks (newer) is not invented: btusb_ is */
	x = mk_text("newsmc_hwmon_read() and newsmc_hwmon_probe() of "
		    "drivers/hwmon/newsmc-hwmon.c, and btusb_write()");
	assert_true(classify_hook_unknown_functions(&in, &x->t, &a) == 1);
	free_text(x);
	trace_hook(sym);
	symbols_free(sym);
	cmd = xasprintf("rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(src);
	free(idx);
}

/*
 * names a tree cannot refute: a report of a kernel far from the tree's,
 * a member called through a pointer, a macro, the report's own
 * function, a slip of the pen beside the real name
 */
static void test_unknown_functions_not_claims(void **state)
{
	char dir[] = "/tmp/test_classify.XXXXXX";
	char *path, *idx, *cmd;
	struct symbols *sym;
	struct rules_input in = { NULL, NULL, NULL, NULL, NULL, NULL };
	struct rules_args a = { 0 };
	struct evidence ev;
	struct report r;
	struct text *x;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	path = xasprintf("%s/drivers", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	free(path);
	path = xasprintf("%s/drivers/nvme.c", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("int nvme_poll_cq(void)\n{\n\treturn 0;\n}\n"
	      "int nvme_create_queue(void)\n{\n\treturn 0;\n}\n",
	      f);
	fclose(f);
	free(path);
	path = xasprintf("%s/Makefile", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 3\n", f);
	fclose(f);
	free(path);
	idx = xasprintf("%s/symbols.idx", dir);
	assert_int_equal(symbols_build(dir, idx, NULL), 0);
	sym = symbols_open(idx);
	assert_non_null(sym);
	memset(&ev, 0, sizeof(ev));
	memset(&r, 0, sizeof(r));
	in.symbols = sym;
	in.evidence = &ev;
	in.report = &r;

	/* of the tree's own kernel, or of none: an invention */
	x = mk_text("nvme_process_cq() then nvme_poll_cq()");
	assert_true(classify_hook_unknown_functions(&in, &x->t, &a) == 1);
	ev.kernel_version = (char *)"6.12.9";
	assert_true(classify_hook_unknown_functions(&in, &x->t, &a) == 1);
	ev.kernel_version = (char *)"6.10.0";
	assert_true(classify_hook_unknown_functions(&in, &x->t, &a) == 1);
	/* 5.7, three or more releases older: renamed since */
	ev.kernel_version = (char *)"5.7.0-rc5+";
	assert_true(classify_hook_unknown_functions(&in, &x->t, &a) == 0);
	/* 7.0, newer than the tree: added since */
	ev.kernel_version = (char *)"7.0.0-rc3";
	assert_true(classify_hook_unknown_functions(&in, &x->t, &a) == 0);
	/* no version: a Date of 2020 is a year before 6.12's release */
	ev.kernel_version = NULL;
	r.when = 1583020800; /* 2020-03-01 */
	assert_true(classify_hook_unknown_functions(&in, &x->t, &a) == 0);
	r.when = 1735689600; /* 2025-01-01 */
	assert_true(classify_hook_unknown_functions(&in, &x->t, &a) == 1);
	free_text(x);
	/* prose of a development tree: its names may be newer than the
	 * tree's; the same name in a report of no such tree counts */
	x = mk_text("On net-next, nvme_process_cq() then nvme_poll_cq()");
	assert_true(classify_hook_unknown_functions(&in, &x->t, &a) == 0);
	free_text(x);
	x = mk_text("with next-20250110 nvme_process_cq() hangs");
	assert_true(classify_hook_unknown_functions(&in, &x->t, &a) == 0);
	free_text(x);
	x = mk_text("On the net tree, nvme_process_cq() then nvme_poll_cq()");
	assert_true(classify_hook_unknown_functions(&in, &x->t, &a) == 1);
	ev.kernel_version = (char *)"6.13.0-rc2-next-20241210";
	assert_true(classify_hook_unknown_functions(&in, &x->t, &a) == 0);
	ev.kernel_version = NULL;
	free_text(x);

	/* a member, a macro, the report's own function */
	x = mk_text("the driver's ->nvme_busy_wait() and ops.nvme_request() "
		    "hooks; NVME_WARN_ONCE() fires; nvme_open_poc() fails:\n"
		    "static int nvme_open_poc(void)\n{\n\treturn -1;\n}\n");
	assert_true(classify_hook_unknown_functions(&in, &x->t, &a) == 0);
	free_text(x);
	x = mk_text("nvme_request() and nvme_busy_wait() are named alone; "
		    "nvme_open_poc() is called: nvme_open_poc(fd);\n"
		    "nvme_Warn_once() fires");
	assert_true(classify_hook_unknown_functions(&in, &x->t, &a) == 4);
	free_text(x);

	/* two edits from a real name the report cites: a typo */
	x = mk_text("nvme_create_qeue() fails after nvme_create_queue()");
	assert_true(classify_hook_unknown_functions(&in, &x->t, &a) == 0);
	free_text(x);
	x = mk_text("nvme_create_qeue() fails, the queue is gone");
	assert_true(classify_hook_unknown_functions(&in, &x->t, &a) == 1);
	free_text(x);
	x = mk_text("nvme_create_queue_v3x() fails after nvme_create_queue()");
	assert_true(classify_hook_unknown_functions(&in, &x->t, &a) == 1);
	free_text(x);

	symbols_free(sym);
	cmd = xasprintf("rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(idx);
}

/*
 * the claim hooks check a report's claims once: the first stores them in
 * the memo, the others (and explain) read them from it
 */
static void test_claims_memo(void **state)
{
	struct claims_memo memo;
	struct rules_input in = { NULL, NULL, NULL, NULL, &memo, NULL };
	struct rules_args a = { 0 };
	struct text *x = mk_text("nothing claimed here");

	(void)state;
	memset(&memo, 0, sizeof(memo));
	assert_true(classify_hook_false_claims(&in, &x->t, &a) == 0);
	assert_true(memo.done);
	/* what the memo holds is what the next hook weighs */
	memo.c.checks = memo.c.checks_kind[CLAIM_KCONFIG] = 3;
	memo.c.failed = memo.c.failed_kind[CLAIM_KCONFIG] = 3;
	assert_true(classify_hook_false_claims(&in, &x->t, &a) == 3);
	/* without a memo each hook checks the text itself */
	in.claims = NULL;
	assert_true(classify_hook_false_claims(&in, &x->t, &a) == 0);
	free_text(x);
}

/* ---- the decision ------------------------------------------------------------ */

static void test_decide(void **state)
{
	struct rules_params p = {
		.threshold = { 1, 5, 5 },
		.band = 1.5,
		.user_bias = 2,
	};
	const char *why;
	struct {
		double s[CLASS_N];
		int cls;
		const char *why;
	} cases[] = {
		/* nothing at all: user */
		{ { 0, 0, 0 }, CLASS_USER, "no threshold reached" },
		/* a little user evidence and nothing else is not a contest */
		{ { 1, 0, 0 }, CLASS_USER, "threshold" },
		{ { 1, 0, -1 }, CLASS_USER, "threshold" },
		/* user reached its threshold, fuzzer nearly reached its own */
		{ { 4, 4.5, 0 }, CLASS_UNCERTAIN, "within the uncertain band" },
		/* clear wins */
		{ { 0, 9, 0 }, CLASS_FUZZER, "threshold" },
		{ { 0, 0, 8 }, CLASS_AI, "threshold" },
		{ { 4, 0, 1 }, CLASS_USER, "threshold" },
		/* ai must lead user by user_bias */
		{ { 4.5, 0, 6 }, CLASS_USER, "user bias" },
		{ { 4, 0, 6 }, CLASS_AI, "threshold" },
		/* user leading ai slightly stays user */
		{ { 6, 0, 5.5 }, CLASS_USER, "user bias" },
		/* fuzzer and user close: a human decides */
		{ { 5, 6, 0 }, CLASS_UNCERTAIN, "within the uncertain band" },
		{ { 0, 6, 5 }, CLASS_UNCERTAIN, "within the uncertain band" },
		{ { 0, 7, 5 }, CLASS_FUZZER, "threshold" },
		/* below every threshold, but fuzzer or ai near theirs */
		{ { 0, 4, 0 }, CLASS_UNCERTAIN, "near a threshold" },
		{ { 0, 3, 0 }, CLASS_USER, "no threshold reached" },
		{ { 0.5, 0, 4 }, CLASS_UNCERTAIN, "near a threshold" },
		/* user reaches its threshold and is close behind ai */
		{ { 2.5, 0, 4 }, CLASS_USER, "user bias" },
		{ { 0, 0, 4.5 }, CLASS_UNCERTAIN, "near a threshold" },
		/* negative scores are allowed */
		{ { -2, 0, 4 }, CLASS_UNCERTAIN, "near a threshold" },
	};
	size_t i;

	double near_ai[CLASS_N] = { 2.5, 0, 4 };

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		int c = classify_decide(&p, cases[i].s, &why);

		if (c != cases[i].cls || strcmp(why, cases[i].why) != 0)
			fail_msg("case %zu: got %s (%s), expected %s (%s)", i,
				 rules_class_name(c), why,
				 rules_class_name(cases[i].cls), cases[i].why);
	}
	/*
	 * Nothing reaches a threshold and ai is near its own, but it does
	 * not lead user by user_bias: user.
	 */
	p.threshold[CLASS_USER] = 3;
	assert_int_equal(classify_decide(&p, near_ai, &why), CLASS_USER);
	assert_string_equal(why, "no threshold reached");
	near_ai[CLASS_USER] = 1.5;
	assert_int_equal(classify_decide(&p, near_ai, &why), CLASS_UNCERTAIN);
}

static const char *small_rules =
	"header BOT From:addr =~ /^bot\\@ci\\.example$/m\n"
	"describe BOT A CI bot\nscore BOT fuzzer=10\ntflags BOT certain\n"
	"header AIBOT From:addr =~ /^ai\\@bot\\.example$/m\n"
	"describe AIBOT An AI bot\nscore AIBOT ai=10\ntflags AIBOT certain\n"
	"body WORDY /could lead to/\ndescribe WORDY theoretical\n"
	"score WORDY ai=3\n"
	"body HEADINGS /## Impact/\ndescribe HEADINGS headings\n"
	"score HEADINGS ai=2.5\n"
	"body MINE /my laptop/\ndescribe MINE mine\nscore MINE user=2\n"
	"body NEG /not an attack/\ndescribe NEG neg\nscore NEG ai=-1\n"
	"body MODEL_AI_95 eval:model(ai, 0.95, 1.00)\n"
	"describe MODEL_AI_95 model\nscore MODEL_AI_95 ai=3\n"
	"body __HELPER /laptop/\nmeta META_MINE __HELPER && MINE\n"
	"describe META_MINE both\nscore META_MINE user=0.5\n"
	"threshold user 1\nthreshold fuzzer 5\nthreshold ai 5\n"
	"uncertain_band 1.5\nuser_bias 2\n";

static struct ruleset *small(void)
{
	struct ruleset *rs = classify_rules_new();

	rules_add_text(rs, "small.rules", small_rules, strlen(small_rules));
	assert_int_equal(rules_compile(rs), 0);
	return rs;
}

static void test_classify_certain(void **state)
{
	struct ruleset *rs = small();
	struct report *r = mk_report("From: CI <bot@ci.example>",
				     "could lead to ## Impact my laptop");
	struct verdict v;
	char hdr[VERDICT_HEADER_MAX];

	assert_int_equal(classify_report(rs, r, NULL, NULL, &v), 0);
	assert_int_equal(v.cls, CLASS_FUZZER);
	assert_true(v.certain);
	assert_true(v.confidence == 1.0);
	assert_string_equal(v.reason, "certain rule");
	/* evaluation stopped: only the certain rule fired */
	assert_int_equal(v.nrules, 1);
	assert_string_equal(v.rules[0].name, "BOT");
	verdict_format(&v, hdr, sizeof(hdr));
	assert_string_equal(hdr, "fuzzer; score=10.0; certain; rules=BOT");
	verdict_release(&v);
	report_free(r);

	/* certain rules of two classes: a human decides */
	r = mk_report("From: CI <bot@ci.example>\nFrom: <ai@bot.example>",
		      "text");
	classify_report(rs, r, NULL, NULL, &v);
	assert_int_equal(v.cls, CLASS_UNCERTAIN);
	assert_false(v.certain);
	assert_string_equal(v.reason, "certain rules disagree");
	verdict_release(&v);
	report_free(r);
	rules_free(rs);
}

static void test_classify_scores(void **state)
{
	struct ruleset *rs = small();
	double model[CLASS_N] = { 0.01, 0.01, 0.98 };
	struct report *r =
		mk_report("From: someone <a@b.org>",
			  "This could lead to trouble.\n## Impact\n");
	struct verdict v;
	char hdr[VERDICT_HEADER_MAX];

	classify_report(rs, r, NULL, NULL, &v);
	assert_int_equal(v.cls, CLASS_AI);
	assert_true(v.score[CLASS_AI] == 5.5);
	assert_true(v.model[CLASS_AI] == 0);
	assert_true(v.confidence > 0.8 && v.confidence < 1);
	/* strongest first */
	assert_int_equal(v.nrules, 2);
	assert_string_equal(v.rules[0].name, "WORDY");
	verdict_format(&v, hdr, sizeof(hdr));
	assert_string_equal(hdr, "ai; score=5.5; rules=WORDY,HEADINGS");
	verdict_release(&v);

	/* the model's graded pseudo-rule adds its score, and says so */
	classify_report(rs, r, NULL, model, &v);
	assert_true(v.score[CLASS_AI] == 8.5);
	assert_true(v.model[CLASS_AI] == 3);
	assert_string_equal(v.rules[0].name, "MODEL_AI_95");
	verdict_release(&v);
	report_free(r);

	/* user evidence close to the ai score: user bias */
	r = mk_report(NULL, "This could lead to trouble on my laptop.\n"
			    "## Impact\n");
	classify_report(rs, r, NULL, NULL, &v);
	assert_true(v.score[CLASS_USER] == 2.5);
	assert_int_equal(v.cls, CLASS_AI); /* 5.5 - 2.5 >= 2 */
	verdict_release(&v);
	report_free(r);
	r = mk_report(NULL, "It could lead to trouble on my laptop, but it "
			    "is not an attack.\n## Impact\n");
	classify_report(rs, r, NULL, NULL, &v);
	assert_true(v.score[CLASS_AI] == 4.5);
	assert_int_equal(v.cls, CLASS_USER);
	assert_int_equal(v.leaning, CLASS_AI);
	verdict_release(&v);
	report_free(r);

	/* near the ai threshold, nothing for user: uncertain */
	r = mk_report(NULL, "It could lead to trouble.");
	classify_report(rs, r, NULL, NULL, &v);
	assert_int_equal(v.cls, CLASS_USER); /* 3 < 5 - 1.5 */
	verdict_release(&v);
	report_free(r);
	r = mk_report(NULL, "## Impact\nIt could lead to trouble, not an "
			    "attack.");
	classify_report(rs, r, NULL, NULL, &v);
	assert_true(v.score[CLASS_AI] == 4.5);
	assert_int_equal(v.cls, CLASS_UNCERTAIN);
	assert_int_equal(v.leaning, CLASS_AI);
	verdict_format(&v, hdr, sizeof(hdr));
	assert_string_equal(
		hdr,
		"uncertain; score=4.5; leaning=ai; rules=WORDY,HEADINGS,NEG");
	verdict_release(&v);
	report_free(r);

	/* an empty report is user, and says no rule fired */
	r = mk_report(NULL, "hello");
	classify_report(rs, r, NULL, NULL, &v);
	assert_int_equal(v.cls, CLASS_USER);
	verdict_format(&v, hdr, sizeof(hdr));
	assert_string_equal(hdr, "user; score=0.0; rules=none");
	verdict_release(&v);
	report_free(r);
	rules_free(rs);
}

/*
 * The AI and fuzzer rules read the quoted, after-a-marker and attached
 * text too, at quoted_weight (0.5 unless set), never for user points,
 * never below the own text's score (issue 21, finding 3)
 */
static void test_classify_quoted(void **state)
{
	static const char site[] = "threshold ai 2\nuser_bias 1\n";
	struct ruleset *rs = small();
	struct report *r = mk_report(
		NULL, "See below.\n-----Original Message-----\n"
		      "This could lead to trouble.\n## Impact\nmy laptop\n");
	struct verdict v, v2;
	size_t i, quoted = 0;

	classify_report(rs, r, NULL, NULL, &v);
	assert_true(v.score[CLASS_AI] == 2.75); /* (3 + 2.5) x 0.5 */
	assert_true(v.quoted[CLASS_AI] == 5.5);
	assert_true(v.score[CLASS_USER] == 0); /* a quote is no evidence */
	for (i = 0; i < v.nrules; i++) {
		assert_true(v.rules[i].quoted);
		assert_true(v.rules[i].score[CLASS_USER] == 0);
		quoted++;
	}
	assert_int_equal(quoted, 2);
	/* shown weighted, in order of the user score, then by name */
	assert_string_equal(v.rules[1].name, "WORDY");
	assert_true(v.rules[1].score[CLASS_AI] == 1.5);

	/* the model's posteriors of the whole text vote the same way */
	{
		const double whole_ai[CLASS_N] = { 0.01, 0.01, 0.98 };
		const double own_user[CLASS_N] = { 0.98, 0.01, 0.01 };

		classify_report_whole(rs, r, NULL, own_user, whole_ai, &v2);
		assert_true(v2.quoted[CLASS_AI] == 5.5 + 3);
		assert_true(v2.score[CLASS_AI] == (5.5 + 3) * 0.5);
		verdict_release(&v2);
	}
	verdict_release(&v);
	report_free(r);

	/* every line quoted: the same */
	r = mk_report(NULL, "> This could lead to trouble.\n> ## Impact\n");
	classify_report(rs, r, NULL, NULL, &v);
	assert_true(v.score[CLASS_AI] == 2.75);
	verdict_release(&v);
	report_free(r);

	/* what the own text scored stands: a quoted "not an attack"
	 * takes nothing off */
	r = mk_report(NULL, "It could lead to trouble.\n> not an attack\n");
	classify_report(rs, r, NULL, NULL, &v);
	assert_true(v.score[CLASS_AI] == 3);
	assert_true(v.quoted[CLASS_AI] == 0);
	verdict_release(&v);
	report_free(r);
	rules_free(rs);

	/* own user evidence, an ai report quoted that would be ai on its
	 * own: a triager decides */
	rs = classify_rules_new();
	rules_add_text(rs, "small.rules", small_rules, strlen(small_rules));
	rules_add_text(rs, "site.rules", site, strlen(site));
	assert_int_equal(rules_compile(rs), 0);
	r = mk_report(NULL, "It broke my laptop.\n> This could lead to "
			    "trouble.\n> ## Impact\n");
	classify_report(rs, r, NULL, NULL, &v);
	assert_true(v.score[CLASS_USER] == 2.5); /* MINE, META_MINE */
	assert_true(v.score[CLASS_AI] == 2.75);
	assert_int_equal(v.cls, CLASS_UNCERTAIN);
	assert_string_equal(v.reason,
			    "its quoted or attached text reads as ai");
	verdict_release(&v);
	report_free(r);
	/* less than threshold + user_bias quoted: still user */
	r = mk_report(NULL, "It broke my laptop.\n> ## Impact\n");
	classify_report(rs, r, NULL, NULL, &v);
	assert_int_equal(v.cls, CLASS_USER);
	verdict_release(&v);
	report_free(r);
	rules_free(rs);
}

static void test_verdict_format_bounds(void **state)
{
	struct verdict v = { 0 };
	struct verdict_rule rules[40];
	char names[40][RULES_NAME_MAX + 1];
	char hdr[VERDICT_HEADER_MAX], tiny[24];
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(rules); i++) {
		memset(names[i], 'A' + (int)(i % 26), RULES_NAME_MAX);
		names[i][RULES_NAME_MAX] = '\0';
		rules[i].name = names[i];
		rules[i].describe = "";
		rules[i].score[CLASS_AI] = 1;
		rules[i].score[CLASS_USER] = rules[i].score[CLASS_FUZZER] = 0;
	}
	names[0][3] = '\n'; /* never reaches a header */
	v.cls = CLASS_AI;
	v.score[CLASS_AI] = 40;
	v.rules = rules;
	v.nrules = ARRAY_SIZE(rules);
	n = verdict_format(&v, hdr, sizeof(hdr));
	assert_int_equal(n, strlen(hdr));
	assert_true(n < VERDICT_HEADER_MAX);
	assert_true(n > VERDICT_HEADER_MAX - RULES_NAME_MAX - 8);
	assert_non_null(strstr(hdr, ",..."));
	for (i = 0; i < n; i++)
		assert_true(hdr[i] >= 0x20 && hdr[i] < 0x7f);
	n = verdict_format(&v, tiny, sizeof(tiny));
	assert_int_equal(n, strlen(tiny));
	assert_true(n < sizeof(tiny));
	assert_true(strncmp(tiny, "ai; score=40.0", 14) == 0);
}

/* ---- the shipped rules ---------------------------------------------------------- */

static struct ruleset *shipped(void)
{
	const char *src = getenv("TRIAGE_SRCDIR");
	char *dir = xasprintf("%s/classifiers", src ? src : ".");
	struct ruleset *rs = classify_load(dir, NULL);

	free(dir);
	assert_non_null(rs);
	return rs;
}

static int classify_text(struct ruleset *rs, const char *headers,
			 const char *body, const struct evidence *ev, char *hdr)
{
	struct report *r = mk_report(headers, body);
	struct verdict v;
	int cls;

	classify_report(rs, r, ev, NULL, &v);
	verdict_format(&v, hdr, VERDICT_HEADER_MAX);
	cls = v.cls;
	verdict_release(&v);
	report_free(r);
	return cls;
}

static void test_shipped_bots(void **state)
{
	struct ruleset *rs = shipped();
	char hdr[VERDICT_HEADER_MAX];

	assert_int_equal(
		classify_text(
			rs,
			"From: syzbot <syzbot+0123abcd@syzkaller.appspotmail.com>\n"
			"Subject: [syzbot] [xfs?] KASAN: use-after-free",
			"Hello,\n\nsyzbot found the following issue on:", NULL,
			hdr),
		CLASS_FUZZER);
	assert_non_null(strstr(hdr, "certain"));
	assert_int_equal(
		classify_text(
			rs,
			"From: kernel test robot <lkp@intel.com>\n"
			"Message-ID: <202501011200.abcdefgh-lkp@intel.com>",
			"Hi,\n\nkernel test robot noticed...", NULL, hdr),
		CLASS_FUZZER);
	/* a bugzilla relay is not a bot reporter */
	assert_int_equal(
		classify_text(
			rs,
			"From: bugzilla-daemon@kernel.org\n"
			"Auto-Submitted: auto-generated\n"
			"Subject: [Bug 1] New: touchpad dead after resume",
			"After upgrading to 6.12 my laptop's touchpad no "
			"longer works after resume.\n",
			NULL, hdr),
		CLASS_USER);
	/* archive headers do not make a report a bot's */
	assert_int_equal(
		classify_text(rs,
			      "Received: from syzkaller.appspotmail.com\n"
			      "List-Id: <syzkaller-bugs.googlegroups.com>\n"
			      "From: Jane <jane@example.org>",
			      "My desktop freezes every boot since 6.11.", NULL,
			      hdr),
		CLASS_USER);
	rules_free(rs);
}

static void test_shipped_ai_and_user(void **state)
{
	struct ruleset *rs = shipped();
	struct evidence *ev = ev_new();
	char hdr[VERDICT_HEADER_MAX];
	const char *llm =
		"Dear Linux Kernel Maintainers,\n\n"
		"I hope this email finds you well.\n\n"
		"## Summary\nWhile reviewing the source of drivers/foo, I "
		"identified a use-after-free in foo_remove().\n\n"
		"## Root Cause\nThe work item is not cancelled, which could "
		"lead to a use-after-free. A malicious device could trigger "
		"it and potentially allow privilege escalation. This may "
		"allow an attacker to corrupt memory.\n\n"
		"## Impact\nCVSS:3.1/AV:P/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:H\n\n"
		"## Suggested Fix\nCancel the work.\n\n"
		"I have not been able to trigger this on real hardware.\n";
	const char *polished =
		"## Summary\nNo sound from the speakers of my laptop after "
		"upgrading to 6.12.\n\n## Root Cause\nMissing quirk.\n\n"
		"## Impact\nSpeakers dead.\n\nlspci -nn:\n00:1f.3 Audio "
		"device [0403]: Intel Corporation [8086:7e28]\n";

	assert_int_equal(
		classify_text(rs, "From: A <a@example.org>", llm, NULL, hdr),
		CLASS_AI);
	/* an LLM-formatted report of a real system stays user */
	ev->hardware = xstrdup("Dell Inc. XPS 13 9340/0KFW1Y, BIOS 1.2.0");
	ev->distro_kernel = xstrdup("6.12.9-200.fc41.x86_64");
	ev->kernel_version = xstrdup("6.12.9-200.fc41.x86_64");
	ev->dmesg_timestamps = true;
	assert_int_equal(
		classify_text(rs, "From: B <b@example.org>", polished, ev, hdr),
		CLASS_USER);
	assert_non_null(strstr(hdr, "USER_LLM_POLISHED_REAL"));
	ev_free(ev);
	rules_free(rs);
}

static bool verdict_has(const struct verdict *v, const char *name)
{
	size_t i;

	for (i = 0; i < v->nrules; i++)
		if (!strcmp(v->rules[i].name, name))
			return true;
	return false;
}

/*
 * hardware IDs in an attached text part (lspci -nn sent as "gpu.txt")
 * are the reporter's machine as much as IDs in the text are; counted
 * once: not when the text already gives them
 */
static void test_shipped_attached_hardware_ids(void **state)
{
	struct ruleset *rs = shipped();
	struct report *r = mk_report("From: A <a@example.org>",
				     "The screen turns off at boot. The "
				     "lspci output is attached.\n");
	struct report_part *p;
	struct verdict v;

	(void)state;
	classify_report(rs, r, NULL, NULL, &v);
	assert_false(verdict_has(&v, "USER_ATTACHED_HARDWARE_IDS"));
	verdict_release(&v);
	p = report_add_part(r);
	p->filename = xstrdup("gpu.txt");
	p->text = xstrdup("01:00.0 VGA compatible controller [0300]: NVIDIA "
			  "Corporation GM107 [GeForce GTX 750] [10de:1381]\n");
	p->len = strlen(p->text);
	p->flags = PART_TEXT;
	classify_report(rs, r, NULL, NULL, &v);
	assert_true(verdict_has(&v, "USER_ATTACHED_HARDWARE_IDS"));
	assert_false(verdict_has(&v, "USER_HARDWARE_IDS"));
	assert_true(v.score[CLASS_USER] >= 1);
	verdict_release(&v);
	report_free(r);

	r = mk_report("From: A <a@example.org>",
		      "03:00.0 Network controller [0280]: MEDIATEK Corp. "
		      "MT7921 [14c3:0608]\n");
	classify_report(rs, r, NULL, NULL, &v);
	assert_true(verdict_has(&v, "USER_HARDWARE_IDS"));
	assert_false(verdict_has(&v, "USER_ATTACHED_HARDWARE_IDS"));
	verdict_release(&v);
	report_free(r);
	rules_free(rs);
}

/*
 * a fabricated log (a hardware line, a distro kernel, a timestamped
 * dmesg) around an invented function: user until the model reads it as
 * ai at 75 % or more with the invented name one of few (one of the two
 * names judged: AI_WEIGHED_AND_MODEL), or at 85 % or more
 * (AI_REFUTED_AND_MODEL); then they take the log's points.  One
 * unknown name among six judged (a typo) stays user at 75-85 %.
 */
static void test_shipped_refuted_and_model(void **state)
{
	char dir[] = "/tmp/test_classify.XXXXXX";
	char *path, *idx, *cmd;
	struct ruleset *rs = shipped();
	struct evidence *ev = ev_new();
	struct symbols *sym;
	struct report *r;
	struct verdict v;
	const double ai99[CLASS_N] = {
		[CLASS_USER] = 0.005, [CLASS_FUZZER] = 0.005, [CLASS_AI] = 0.99
	};
	const double ai80[CLASS_N] = {
		[CLASS_USER] = 0.1, [CLASS_FUZZER] = 0.1, [CLASS_AI] = 0.80
	};
	const double ai60[CLASS_N] = {
		[CLASS_USER] = 0.3, [CLASS_FUZZER] = 0.1, [CLASS_AI] = 0.60
	};
	const char *body =
		"After upgrading my laptop to 6.12.9 the nvme drive times out "
		"every boot.\n\n[   12.345678] nvme nvme0: I/O tag 12 "
		"timeout\n\nnvme_pci_requeue_locked() drops the request "
		"before nvme_poll_cq() sees it.\n";
	FILE *f;
	int cls;

	(void)state;
	assert_non_null(mkdtemp(dir));
	path = xasprintf("%s/nvme.c", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("int nvme_poll_cq(void)\n{\n\treturn 0;\n}\n"
	      "int nvme_irq_check(void)\n{\n\treturn 0;\n}\n"
	      "int nvme_timeout_check(void)\n{\n\treturn 0;\n}\n"
	      "int nvme_reset_ctrl_sync(void)\n{\n\treturn 0;\n}\n"
	      "int nvme_queue_rq_check(void)\n{\n\treturn 0;\n}\n",
	      f);
	fclose(f);
	free(path);
	idx = xasprintf("%s/symbols.idx", dir);
	assert_int_equal(symbols_build(dir, idx, NULL), 0);
	sym = symbols_open(idx);
	assert_non_null(sym);
	rules_set_symbols(rs, sym);
	ev->hardware = xstrdup("LENOVO 21KC/21KC, BIOS N3YET61W 04/01/2024");
	ev->distro_kernel = xstrdup("6.12.9-arch1-1");
	ev->kernel_version = xstrdup("6.12.9-arch1-1");
	ev->dmesg_timestamps = true;
	r = mk_report("From: M <m@example.org>", body);

	assert_int_equal(classify_report(rs, r, ev, ai60, &v), 0);
	cls = v.cls;
	assert_false(verdict_has(&v, "AI_WEIGHED_AND_MODEL"));
	assert_true(verdict_has(&v, "AI_UNKNOWN_FUNCTION"));
	verdict_release(&v);
	assert_int_equal(cls, CLASS_USER);
	assert_int_equal(classify_report(rs, r, ev, ai80, &v), 0);
	cls = v.cls;
	assert_false(verdict_has(&v, "AI_REFUTED_AND_MODEL"));
	assert_true(verdict_has(&v, "AI_WEIGHED_AND_MODEL"));
	verdict_release(&v);
	assert_int_equal(cls, CLASS_AI);
	report_free(r);
	/* one unknown name among six the tree judged: a typo */
	r = mk_report("From: M <m@example.org>",
		      "After upgrading my laptop to 6.12.9 the nvme drive "
		      "times out every boot.\n\n[   12.345678] nvme nvme0: "
		      "I/O tag 12 timeout\n\nnvme_pci_requeue_locked() "
		      "drops the request before nvme_poll_cq() sees it; "
		      "nvme_irq_check(), nvme_timeout_check(), "
		      "nvme_reset_ctrl_sync() and nvme_queue_rq_check() "
		      "run first.\n");
	assert_int_equal(classify_report(rs, r, ev, ai80, &v), 0);
	cls = v.cls;
	assert_true(verdict_has(&v, "AI_UNKNOWN_FUNCTION"));
	assert_false(verdict_has(&v, "AI_WEIGHED_AND_MODEL"));
	verdict_release(&v);
	assert_int_equal(cls, CLASS_USER);
	report_free(r);
	r = mk_report("From: M <m@example.org>", body);
	assert_int_equal(classify_report(rs, r, ev, ai99, &v), 0);
	cls = v.cls;
	assert_true(verdict_has(&v, "AI_REFUTED_AND_MODEL"));
	verdict_release(&v);
	assert_int_equal(cls, CLASS_AI);
	report_free(r);
	/* every function real: the model alone does not outweigh the log */
	r = mk_report("From: M <m@example.org>",
		      "After upgrading my laptop to 6.12.9 the nvme drive "
		      "times out every boot.\n\n[   12.345678] nvme nvme0: "
		      "I/O tag 12 timeout in nvme_poll_cq().\n");
	assert_int_equal(classify_report(rs, r, ev, ai99, &v), 0);
	cls = v.cls;
	assert_false(verdict_has(&v, "AI_REFUTED_AND_MODEL"));
	verdict_release(&v);
	assert_int_equal(cls, CLASS_USER);
	report_free(r);
	/*
	 * one refuted name (a typo, perhaps) and a model that is not sure:
	 * the model's 50-75 % bin needs a second tell, so not ai
	 */
	ev_free(ev);
	ev = ev_new();
	r = mk_report("From: M <m@example.org>",
		      "The nvme drive times out.\n\n"
		      "nvme_pci_requeue_locked() drops the request before "
		      "nvme_poll_cq() sees it.\n");
	assert_int_equal(classify_report(rs, r, ev, ai60, &v), 0);
	cls = v.cls;
	assert_true(verdict_has(&v, "AI_UNKNOWN_FUNCTION"));
	assert_false(verdict_has(&v, "MODEL_AI_50"));
	verdict_release(&v);
	assert_int_not_equal(cls, CLASS_AI);
	report_free(r);

	ev_free(ev);
	rules_free(rs);
	symbols_free(sym);
	cmd = xasprintf("rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(idx);
}

/*
 * an oops cut short as a composed log is (a RIP line without its Code:
 * line, a register dump that stops after RDX) on a report the model
 * reads as ai at 85 % or more: the log's hardware, distro kernel and
 * timestamps no longer speak for a user.  The same oops printed whole,
 * or a model below 85 %, leaves the report user.
 */
static void test_shipped_abridged_and_model(void **state)
{
	struct ruleset *rs = shipped();
	struct evidence *ev = ev_new();
	struct report *r;
	struct verdict v;
	const double ai99[CLASS_N] = {
		[CLASS_USER] = 0.005, [CLASS_FUZZER] = 0.005, [CLASS_AI] = 0.99
	};
	const double ai80[CLASS_N] = {
		[CLASS_USER] = 0.1, [CLASS_FUZZER] = 0.1, [CLASS_AI] = 0.80
	};
	static const char head[] =
		"After resume my laptop oopses when I press Fn+F4:\n\n"
		"[ 3382.119870] BUG: kernel NULL pointer dereference, address: "
		"0000000000000210\n"
		"[ 3382.119899] CPU: 1 UID: 0 PID: 121 Comm: kworker/1:2 Not "
		"tainted 6.12.4-1-MANJARO #1\n"
		"[ 3382.119905] Hardware name: LENOVO 20L7002AUS/20L7002AUS, "
		"BIOS N22ET80W (1.57 ) 03/26/2024\n"
		"[ 3382.119921] RIP: 0010:tpacpi_input_send_key+0x2d/0x120 "
		"[thinkpad_acpi]\n";
	static const char code[] =
		"[ 3382.119930] Code: 48 89 e5 41 57 41 56 <48> 8b 87 10 02 00 00\n";
	static const char regs[] =
		"[ 3382.119955] RSP: 0018:ffffb4c840657d58 EFLAGS: 00010246\n"
		"[ 3382.119960] RAX: 0000000000000000 RBX: 0000000000000013 "
		"RCX: 0000000000000000\n"
		"[ 3382.119962] RDX: 0000000000000000 RSI: 0000000000000000 "
		"RDI: 0000000000000000\n";
	static const char rest[] =
		"[ 3382.119963] RBP: ffffb4c840657d70 R08: 0000000000000000 "
		"R09: 0000000000000000\n"
		"[ 3382.119964] R10: 0000000000000000 R11: 0000000000000000 "
		"R12: 0000000000000013\n"
		"[ 3382.119965] R13: 0000000000000001 R14: 0000000000000000 "
		"R15: 0000000000000000\n";
	static const char tail[] = "[ 3382.119968] Call Trace:\n"
				   "[ 3382.119980]  hotkey_notify+0x8e/0x300 "
				   "[thinkpad_acpi]\n";
	char *cut = xasprintf("%s%s%s", head, regs, tail);
	char *whole = xasprintf("%s%s%s%s%s", head, code, regs, rest, tail);
	int cls;

	(void)state;
	ev->hardware = xstrdup("LENOVO 20L7002AUS/20L7002AUS, BIOS N22ET80W");
	ev->distro_kernel = xstrdup("6.12.4-1-MANJARO");
	ev->kernel_version = xstrdup("6.12.4-1-MANJARO");
	ev->dmesg_timestamps = true;
	r = mk_report("From: M <m@example.org>", cut);
	assert_int_equal(classify_report(rs, r, ev, ai99, &v), 0);
	cls = v.cls;
	assert_true(verdict_has(&v, "AI_ABRIDGED_OOPS"));
	assert_true(verdict_has(&v, "AI_ABRIDGED_AND_MODEL"));
	verdict_release(&v);
	assert_int_equal(cls, CLASS_AI);
	/* the model below 85 %: the log's points stand */
	assert_int_equal(classify_report(rs, r, ev, ai80, &v), 0);
	cls = v.cls;
	assert_true(verdict_has(&v, "AI_ABRIDGED_OOPS"));
	assert_false(verdict_has(&v, "AI_ABRIDGED_AND_MODEL"));
	verdict_release(&v);
	assert_int_equal(cls, CLASS_USER);
	report_free(r);
	/* the oops as the kernel prints it: the model alone does not decide */
	r = mk_report("From: M <m@example.org>", whole);
	assert_int_equal(classify_report(rs, r, ev, ai99, &v), 0);
	cls = v.cls;
	assert_false(verdict_has(&v, "AI_ABRIDGED_OOPS"));
	assert_false(verdict_has(&v, "AI_ABRIDGED_AND_MODEL"));
	verdict_release(&v);
	assert_int_equal(cls, CLASS_USER);
	report_free(r);
	free(cut);
	free(whole);
	ev_free(ev);
	rules_free(rs);
}

/*
 * a crash log under a diagnosis-and-fix template (two headings) on a
 * report the model reads as ai at 85 % or more: the log no longer
 * speaks for a user; one heading, or no model, leaves it user
 */
static void test_shipped_diagnosed_log_and_model(void **state)
{
	struct ruleset *rs = shipped();
	struct evidence *ev = ev_new();
	struct report *r;
	struct verdict v;
	const double ai99[CLASS_N] = {
		[CLASS_USER] = 0.005, [CLASS_FUZZER] = 0.005, [CLASS_AI] = 0.99
	};
	static const char log[] =
		"Deleting old snapshots made my btrfs go read-only:\n\n"
		"[ 8814.502296] BTRFS: Transaction aborted (error -28)\n"
		"[ 8814.502321] WARNING: CPU: 1 PID: 731 at "
		"fs/btrfs/extent-tree.c:3412 __btrfs_free_extent+0x81e/0xfb0\n"
		"[ 8814.502487] Hardware name: ASRock X570 Phantom Gaming 4, "
		"BIOS P5.61 02/22/2024\n\n"
		"Root cause analysis:\n\nThe global reserve is exhausted.\n\n";
	char *two =
		xasprintf("%sSuggested fix:\n\nReserve space first.\n", log);
	int cls;

	(void)state;
	ev->crash_type = xstrdup("WARNING");
	ev->hardware = xstrdup("ASRock X570 Phantom Gaming 4, BIOS P5.61");
	ev->distro_kernel = xstrdup("6.12.12-arch1-1");
	ev->kernel_version = xstrdup("6.12.12-arch1-1");
	ev->dmesg_timestamps = true;
	r = mk_report("From: G <g@example.org>", two);
	assert_int_equal(classify_report(rs, r, ev, ai99, &v), 0);
	cls = v.cls;
	assert_true(verdict_has(&v, "AI_DIAGNOSED_LOG_AND_MODEL"));
	verdict_release(&v);
	assert_int_equal(cls, CLASS_AI);
	/* no model: the headings alone decide nothing */
	assert_int_equal(classify_report(rs, r, ev, NULL, &v), 0);
	cls = v.cls;
	assert_false(verdict_has(&v, "AI_DIAGNOSED_LOG_AND_MODEL"));
	verdict_release(&v);
	assert_int_equal(cls, CLASS_USER);
	report_free(r);
	/* one heading: a reporter's own guess at the cause */
	r = mk_report("From: G <g@example.org>", log);
	assert_int_equal(classify_report(rs, r, ev, ai99, &v), 0);
	cls = v.cls;
	assert_false(verdict_has(&v, "AI_DIAGNOSED_LOG_AND_MODEL"));
	verdict_release(&v);
	assert_int_equal(cls, CLASS_USER);
	report_free(r);
	free(two);
	ev_free(ev);
	rules_free(rs);
}

/*
 * the model's ai vote needs the rules' own AI evidence: alone (a genuine
 * list report the model reads as 80 % or 98 % ai) it moves nothing;
 * beside a strong AI rule it still counts
 */
static void test_shipped_model_needs_evidence(void **state)
{
	struct ruleset *rs = shipped();
	struct evidence *ev = ev_new();
	struct report *r;
	struct verdict v;
	const double ai80[CLASS_N] = {
		[CLASS_USER] = 0.1, [CLASS_FUZZER] = 0.1, [CLASS_AI] = 0.80
	};
	const double ai98[CLASS_N] = {
		[CLASS_USER] = 0.01, [CLASS_FUZZER] = 0.01, [CLASS_AI] = 0.98
	};
	int cls;

	(void)state;
	r = mk_report("From: S <s@example.org>",
		      "The console on the second UART stays silent after "
		      "resume until the port is reopened; the first port "
		      "works.\n");
	assert_int_equal(classify_report(rs, r, ev, ai80, &v), 0);
	cls = v.cls;
	assert_false(verdict_has(&v, "MODEL_AI_80"));
	verdict_release(&v);
	assert_int_equal(cls, CLASS_USER);
	/* nor below 99 % (the 85-99 % bin needs the rules' evidence too) */
	assert_int_equal(classify_report(rs, r, ev, ai98, &v), 0);
	cls = v.cls;
	assert_false(verdict_has(&v, "MODEL_AI_95"));
	verdict_release(&v);
	assert_int_equal(cls, CLASS_USER);
	report_free(r);
	/* a strong AI rule (nothing reproduced) and the model: ai */
	r = mk_report("From: S <s@example.org>",
		      "The console on the second UART stays silent after "
		      "resume until the port is reopened.  I have not been "
		      "able to reproduce this on real hardware yet.\n");
	assert_int_equal(classify_report(rs, r, ev, ai80, &v), 0);
	cls = v.cls;
	assert_true(verdict_has(&v, "AI_NOT_REPRODUCED"));
	assert_true(verdict_has(&v, "MODEL_AI_80"));
	verdict_release(&v);
	assert_int_equal(cls, CLASS_AI);
	report_free(r);
	ev_free(ev);
	rules_free(rs);
}

/*
 * issue 20: what a tool found, relayed by a person, is the fuzzer/tool
 * class; the rules alone (no model, no evidence) must say so.  The
 * reports are composed after real ones of the tuning lists.
 */
static void test_shipped_tool_output(void **state)
{
	struct ruleset *rs = shipped();
	struct evidence *ev = ev_new();
	char hdr[VERDICT_HEADER_MAX];
	/* a userspace tool built with AddressSanitizer and fuzzed */
	const char *asan =
		"Hello maintainers! Fuzzing foo-restore with AFL++ found a "
		"SEGV in foo-restore.c\n\n"
		"It occurs on the following line:\n"
		"*strchr(line, '\\n') = '\\0';\n\nOutput:\n\n"
		"==1234==ERROR: AddressSanitizer: SEGV on unknown address "
		"0x000000000000 (pc 0x5f3c49f0cfcd bp 0x7ffe7f3ebb60 sp "
		"0x7ffe7f3eb940 T0)\n"
		"    #0 0x5f3c49f0cfcd in main /src/foo-restore.c:79:26\n"
		"SUMMARY: AddressSanitizer: SEGV /src/foo-restore.c:79:26 in "
		"main\n==1234==ABORTING\n\n"
		"Reproduction:\nprintf '0' | ./foo-restore\n";
	/* a graphics CI's regression, bisected, relayed by its engineer */
	const char *ci =
		"Hello,\n\nThis mail is regarding a regression we are seeing "
		"in our CI runs on linux-next.\n\nSince next-20250708 the "
		"power management test fails:\n\n"
		"(kms_pm:5821) CRITICAL: Failed assertion: write(fd, "
		"\"min_power\\n\", 10) == 10\n(kms_pm:5821) CRITICAL: Last "
		"errno: 95, Operation not supported\n\nAfter bisecting the "
		"tree, the following patch seems to be the culprit.\n";
	/* a crash in syzkaller's executor, nothing else said */
	const char *syz =
		"Hi there,\n\nWe found an out-of-bounds write in "
		"foo_pio_sector(), which can cause the kernel to crash.\n\n"
		"[   80.519176] BUG: kernel NULL pointer dereference, address: "
		"0000000000000030\n"
		"[   80.547027] CPU: 0 PID: 195 Comm: syz-executor Not tainted "
		"6.1.0-rc7 #774\n";
	/* frames mutated and injected over the air by a fuzzing harness */
	const char *harness =
		"Injecting mutated 802.11 management frames via a monitor "
		"mode interface crashes the firmware of the card.\n\n"
		"Tools: fuzz_wifi_bridge.py loads seed frames, applies "
		"byte-level mutation and injects them; the fuzzing run "
		"triggers a firmware error every few minutes.\n";
	/* a user who rebuilt a crashing daemon with ASan to see why */
	const char *rebuilt =
		"bluetoothd crashes every time I pair my headphones since "
		"the upgrade to 6.18. I rebuilt bluez with -fsanitize=address "
		"to see why, and got:\n\n"
		"==12345==ERROR: AddressSanitizer: heap-use-after-free on "
		"address 0x602000000010\n"
		"    #0 0x55d0c0 in device_free src/device.c:812\n"
		"I can test patches.\n";
	/* a user's own system: none of these words makes it a tool's */
	const char *user =
		"After upgrading to 6.12 my laptop no longer resumes: the "
		"screen stays black. We probably need to add this selection "
		"of options to the CI. The kernel flags the device as broken "
		"after resume.\n";

	(void)state;
	assert_int_equal(
		classify_text(rs, "From: A <a@example.org>", asan, ev, hdr),
		CLASS_FUZZER);
	assert_non_null(strstr(hdr, "FUZZ_USERSPACE_SANITIZER"));
	assert_int_not_equal(
		classify_text(rs, "From: G <g@example.org>", rebuilt, ev, hdr),
		CLASS_FUZZER);
	assert_non_null(strstr(hdr, "FUZZ_USERSPACE_SANITIZER"));
	assert_int_equal(
		classify_text(rs, "From: B <b@example.org>", ci, ev, hdr),
		CLASS_FUZZER);
	assert_non_null(strstr(hdr, "FUZZ_CI_RELAYED"));
	assert_int_equal(
		classify_text(rs, "From: D <d@example.org>", syz, ev, hdr),
		CLASS_FUZZER);
	assert_non_null(strstr(hdr, "FUZZ_SYZ_EXECUTOR"));
	assert_int_equal(
		classify_text(rs, "From: E <e@example.org>", harness, ev, hdr),
		CLASS_FUZZER);
	assert_non_null(strstr(hdr, "FUZZ_FUZZING_SETUP"));
	assert_int_equal(
		classify_text(rs, "From: F <f@example.org>", user, ev, hdr),
		CLASS_USER);
	assert_null(strstr(hdr, "FUZZ_"));
	ev_free(ev);
	rules_free(rs);
}

/*
 * issue 20: what a checker, a script or a harness found is the tool
 * class, though nothing ran on anyone's system; a user's failed build
 * is the user's
 */
static void test_shipped_checker_findings(void **state)
{
	struct ruleset *rs = shipped();
	struct evidence *ev = ev_new();
	char hdr[VERDICT_HEADER_MAX];
	/* a static check the writer runs, the code it flagged quoted */
	const char *check =
		"Hi all,\n\nI have been running a small static check for "
		"list_for_each_entry past-the-end patterns. The check flagged "
		"foo_ep_dequeue() in drivers/usb/gadget/udc/foo_udc.c, around "
		"line 691:\n\n"
		"\tlist_for_each_entry(req, &ep->queue, queue) {\n"
		"\t\tif (&req->req == _req) {\n"
		"\t\t\tlist_del_init(&req->queue);\n"
		"\t\t\tbreak;\n\t\t}\n\t}\n"
		"\tif (&req->req != _req)\n\t\trc = -EINVAL;\n\n"
		"Do you consider this a defect worth fixing?\n";
	/* a userspace library's function fed by a reproducer's main() */
	const char *harness =
		"Hello maintainers! I have found a global buffer overflow in "
		"util.c, in parse_mask(): it writes p[16].\n\n"
		"==4013==ERROR: AddressSanitizer: global-buffer-overflow on "
		"address 0x55972a77b5f0\n"
		"WRITE of size 1 at 0x55972a77b5f0 thread T0\n"
		"    #0 0x559729dd1d12 in parse_mask /src/pkg/util.c:368:15\n"
		"    #1 0x559729dcfdc2 in main /src/pkg/reproduction.c:40:5\n";
	/* a script's listing of the tree */
	const char *listing =
		"The bug entry includes a Perl script and a shell script. "
		"This is the edited result of running them.\n\n"
		"FOO_HOLES ---\narch/arm/mach-foo/Kconfig:7:\tselect FOO_HOLES\n\n"
		"BAR_ERRATA ---\narch/arm/mach-bar/Kconfig:33:\tselect "
		"BAR_ERRATA\n\nBAZ_MBOX ---\narch/arm64/Kconfig.platforms:375:"
		"\tselect BAZ_MBOX\n\nQUX_FCH ---\nsound/soc/qux/Kconfig:11:"
		"\tselect QUX_FCH\nsound/soc/qux/Kconfig:48:\tselect QUX_FCH\n";
	/* a model of Kconfig in an SMT solver */
	const char *formal =
		"Hi Arnd,\n\nMy SMT model for Kconfig is complete. It detected "
		"2 type errors in arch/Kconfig: two int options are used "
		"directly as conditions for defaults.\n";
	/* a user's randconfig build that fails to link */
	const char *build =
		"I played with make randconfig and got a link error with "
		"CONFIG_FOO_HAPTIC=m and CONFIG_FOO_TOUCH=y.\n\n"
		"  LD      .tmp_vmlinux1\n"
		"ld: vmlinux.o: in function `mt_probe':\n"
		"foo-touch.c:(.text+0xbff996): undefined reference to "
		"`foo_haptic_init'\n"
		"make[2]: *** [scripts/Makefile.vmlinux:72: "
		"vmlinux.unstripped] Error 1\n";

	(void)state;
	assert_int_equal(
		classify_text(rs, "From: A <a@example.org>", check, ev, hdr),
		CLASS_FUZZER);
	assert_non_null(strstr(hdr, "FUZZ_CHECKER_CODE_FINDING"));
	assert_non_null(strstr(hdr, "FUZZ_STATIC_TOOL"));
	assert_int_equal(
		classify_text(rs, "From: B <b@example.org>", harness, ev, hdr),
		CLASS_FUZZER);
	assert_non_null(strstr(hdr, "FUZZ_SANITIZER_HARNESS"));
	assert_int_equal(
		classify_text(rs, "From: C <c@example.org>", listing, ev, hdr),
		CLASS_FUZZER);
	assert_non_null(strstr(hdr, "FUZZ_SCRIPT_LISTING"));
	assert_int_equal(
		classify_text(rs, "From: D <d@example.org>", formal, ev, hdr),
		CLASS_FUZZER);
	assert_non_null(strstr(hdr, "FUZZ_FORMAL_TOOL"));
	assert_int_equal(
		classify_text(rs, "From: E <e@example.org>", build, ev, hdr),
		CLASS_USER);
	assert_non_null(strstr(hdr, "USER_BUILD_LOG"));
	assert_null(strstr(hdr, "FUZZ_"));
	ev_free(ev);
	rules_free(rs);
}

/* what a user's text shows without a crash the evidence stage parses */
static void test_shipped_user_signs_in_prose(void **state)
{
	struct ruleset *rs = shipped();
	struct evidence *ev = ev_new();
	char hdr[VERDICT_HEADER_MAX];
	/* a command run on the writer's machine and what it printed */
	const char *session =
		"Hello,\n\nthe share stopped mounting here:\n\n"
		"$ sudo mount -t nfs4 srv:/data /mnt\n"
		"mount.nfs4: Protocol not supported\n\nAny idea?\n";
	/* the same command as a how-to gives it: no output */
	const char *howto = "Hello,\n\nto mount the share, run:\n\n"
			    "$ sudo mount -t nfs4 srv:/data /mnt\n\n"
			    "and list it afterwards.\n";
	/* the culprit named in words, and a revert asked for */
	const char *culprit =
		"Hi,\n\nsince commit 0123456789ab (\"foo: rework probe\") the "
		"bar device no longer enumerates.\n";
	const char *revert = "Please revert commit\xc2\xa0 0123456789ab.\n";
	const char *fixes = "Fixes: 0123456789ab (\"foo: rework probe\")\n";
	/* a crash dump read with the crash utility */
	const char *vmcore =
		"Hi,\n\ncrash> bt\nPID: 4242   TASK: ffff88810a2b3c40  CPU: 3"
		"   COMMAND: \"jbd2/sda1-8\"\n";
	/* an analysis naming where the code came from */
	const char *origin =
		"The check was introduced by commit 0123456789ab (\"foo: "
		"rework probe\").\n";

	(void)state;
	assert_int_equal(
		classify_text(rs, "From: A <a@example.org>", session, ev, hdr),
		CLASS_USER);
	assert_non_null(strstr(hdr, "USER_SHELL_FAILURE"));
	classify_text(rs, "From: A <a@example.org>", howto, ev, hdr);
	assert_null(strstr(hdr, "USER_SHELL_FAILURE"));
	assert_int_equal(
		classify_text(rs, "From: B <b@example.org>", culprit, ev, hdr),
		CLASS_USER);
	assert_non_null(strstr(hdr, "USER_CULPRIT_IN_WORDS"));
	classify_text(rs, "From: B <b@example.org>", revert, ev, hdr);
	assert_non_null(strstr(hdr, "USER_CULPRIT_IN_WORDS"));
	classify_text(rs, "From: B <b@example.org>", fixes, ev, hdr);
	assert_null(strstr(hdr, "USER_CULPRIT_IN_WORDS"));
	classify_text(rs, "From: B <b@example.org>", origin, ev, hdr);
	assert_null(strstr(hdr, "USER_CULPRIT_IN_WORDS"));
	classify_text(rs,
		      "From: B <b@example.org>\nSubject: Duplicate page "
		      "fault accounting after commit 0123456789ab",
		      "Some architectures count a fault twice.\n", ev, hdr);
	assert_non_null(strstr(hdr, "USER_CULPRIT_IN_WORDS"));
	assert_int_equal(
		classify_text(rs, "From: C <c@example.org>", vmcore, ev, hdr),
		CLASS_USER);
	assert_non_null(strstr(hdr, "USER_VMCORE_ANALYSIS"));
	ev_free(ev);
	rules_free(rs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_evidence_hooks),
		cmocka_unit_test(test_attachment_named),
		cmocka_unit_test(test_shipped_attached_hardware_ids),
		cmocka_unit_test(test_model_hook),
		cmocka_unit_test(test_cvss_impact_template),
		cmocka_unit_test(test_theoretical_language),
		cmocka_unit_test(test_llm_headings),
		cmocka_unit_test(test_first_person_observation),
		cmocka_unit_test(test_source_lines),
		cmocka_unit_test(test_unknown_functions),
		cmocka_unit_test(test_unknown_functions_not_claims),
		cmocka_unit_test(test_claims_memo),
		cmocka_unit_test(test_decide),
		cmocka_unit_test(test_classify_certain),
		cmocka_unit_test(test_classify_scores),
		cmocka_unit_test(test_classify_quoted),
		cmocka_unit_test(test_verdict_format_bounds),
		cmocka_unit_test(test_shipped_bots),
		cmocka_unit_test(test_shipped_ai_and_user),
		cmocka_unit_test(test_shipped_refuted_and_model),
		cmocka_unit_test(test_shipped_abridged_and_model),
		cmocka_unit_test(test_shipped_diagnosed_log_and_model),
		cmocka_unit_test(test_shipped_model_needs_evidence),
		cmocka_unit_test(test_shipped_tool_output),
		cmocka_unit_test(test_shipped_checker_findings),
		cmocka_unit_test(test_shipped_user_signs_in_prose),
	};

	msg_setup("test_classify", 1, false);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
