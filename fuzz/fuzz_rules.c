// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_rules - a rules file through the rules parser and compiler (with
 * the classifier's hooks), then evaluated over a fixed report
 */
#include <stdio.h>
#include <stdlib.h>

#include "classify.h"
#include "evidence.h"
#include "fuzz.h"
#include "report.h"
#include "rules.h"
#include "util.h"

static const char body[] =
	"Hello,\n\nxfs_inode_free crashes every night on 6.12:\n\n"
	"BUG: KASAN: use-after-free in xfs_inode_free+0x12/0x40 [xfs]\n"
	"Call Trace:\n xfs_reclaim_inode+0x1f/0x90\n\n"
	"> quoted reply line\nOn Mon, A wrote:\n-- \nsignature\n";

static struct report *fixed_report(void)
{
	struct report *r = report_new();

	report_add_header(r, "From", "Reporter <reporter@example.com>");
	report_add_header(r, "To", "bugs@example.org");
	report_add_header(r, "Subject", "[BUG] xfs: use-after-free");
	report_add_header(r, "X-Mailer", "fuzz");
	free(r->subject);
	r->subject = xstrdup("[BUG] xfs: use-after-free");
	free(r->from_addr);
	r->from_addr = xstrdup("reporter@example.com");
	r->raw = xstrdup(body);
	r->raw_len = sizeof(body) - 1;
	r->body = xstrdup(body);
	r->body_len = sizeof(body) - 1;
	return r;
}

/* LLVMFuzzerTestOneInput - one rules text, compiled and evaluated */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct report *r;
	static struct evidence *ev;
	static FILE *null;
	struct ruleset *rs = classify_rules_new();
	struct rules_input in = { 0 };
	struct rules_result res;

	if (!r) {
		r = fixed_report();
		ev = evidence_extract(r);
		null = fopen("/dev/null", "w");
		if (!null)
			abort();
	}
	if (rules_add_text(rs, "fuzz.rules", (const char *)data, size) == 0 &&
	    rules_compile(rs) == 0) {
		in.report = r;
		in.evidence = ev;
		rules_result_init(&res);
		rules_eval(rs, &in, RULES_EVAL_ALL, &res);
		rules_result_release(&res);
		rules_result_init(&res);
		rules_eval(rs, &in, RULES_NO_PREFILTER, &res);
		rules_result_release(&res);
	}
	rules_lint(rs, null);
	rules_free(rs);
	return 0;
}
