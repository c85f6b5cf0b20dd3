// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_limits - every input limit just under and just over: intake's caps
 * (size, header lines, header line length, boundary lines, part header
 * lines, "--" lines, nesting depth) as the filter meets them (scan,
 * parse, REPORT_OVERSIZED, intake_why's reason), the text body and
 * rawbody rules see, and the webhook JSON nesting depth.  A message
 * exactly at a limit is within it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bugzilla.h"
#include "intake.h"
#include "parse.h"
#include "report.h"
#include "rules.h"
#include "strbuf.h"
#include "util.h"

#define HEAD                                              \
	"From: limit@example.org\nTo: bugs@example.org\n" \
	"Subject: limits\nMessage-ID: <limit@example.org>\n"

/*
 * at_limit - run a message through intake and parse; check that the scan
 * flagged cap (or not), and what the filter would record
 */
static void at_limit(const struct strbuf *sb, unsigned cap, bool over,
		     const char *reason)
{
	struct intake_scan s;
	struct report *r = report_new();
	char why[200];
	unsigned caps;

	intake_scan(sb->buf, sb->len, NULL, &s);
	if (over)
		assert_true(s.caps & cap);
	else
		assert_int_equal(s.caps, 0);
	assert_int_equal(intake_read_buf(sb->buf, sb->len, NULL, r), 0);
	assert_int_equal(parse_report(r), 0);
	assert_int_equal(!!(r->flags & REPORT_OVERSIZED), over);
	caps = intake_why(r, NULL, why, sizeof(why));
	if (over) {
		assert_true(caps & cap);
		assert_non_null(strstr(why, reason));
		assert_int_equal(strncmp(why, "oversize: ", 10), 0);
	} else {
		assert_int_equal(caps, 0);
	}
	report_free(r);
}

static void header_lines(size_t n, bool over)
{
	struct strbuf sb = STRBUF_INIT(1 << 20);
	size_t i;

	sb_adds(&sb, HEAD); /* 4 lines */
	for (i = 4; i < n; i++)
		sb_addf(&sb, "X-Line-%zu: v\n", i);
	sb_adds(&sb, "\nbody\n");
	at_limit(&sb, INTAKE_CAP_HEADERS, over, "more header lines than 1000");
	sb_release(&sb);
}

static void test_header_lines(void **state)
{
	header_lines(INTAKE_MAX_HEADERS, false);
	header_lines(INTAKE_MAX_HEADERS + 1, true);
}

static void header_line(size_t n, bool over)
{
	struct strbuf sb = STRBUF_INIT(1 << 20);
	size_t i;

	sb_adds(&sb, HEAD "X-Long: ");
	for (i = strlen("X-Long: "); i < n; i++)
		sb_addc(&sb, 'a');
	sb_adds(&sb, "\n\nbody\n");
	at_limit(&sb, INTAKE_CAP_HEADER_LINE, over,
		 "a header line longer than 16384 bytes");
	sb_release(&sb);
}

static void test_header_line(void **state)
{
	header_line(INTAKE_MAX_HEADER_LINE, false);
	header_line(INTAKE_MAX_HEADER_LINE + 1, true);
}

/* n boundary lines: n - 1 parts and the closing line */
static void boundaries(size_t n, bool over)
{
	struct strbuf sb = STRBUF_INIT(1 << 20);
	size_t i;

	sb_adds(&sb, HEAD "Content-Type: multipart/mixed; boundary=p\n\n");
	for (i = 1; i < n; i++)
		sb_adds(&sb, "--p\n\npart\n");
	sb_adds(&sb, "--p--\n");
	at_limit(&sb, INTAKE_CAP_BOUNDARIES, over,
		 "more MIME boundary lines than 500");
	sb_release(&sb);
}

static void test_parts(void **state)
{
	struct report *r = report_new();
	struct strbuf sb = STRBUF_INIT(1 << 20);
	size_t i;

	boundaries(INTAKE_MAX_BOUNDARIES, false);
	boundaries(INTAKE_MAX_BOUNDARIES + 1, true);

	/* the most parts a message within the limits has all reach rules */
	sb_adds(&sb, HEAD "Content-Type: multipart/mixed; boundary=p\n\n");
	for (i = 1; i < INTAKE_MAX_BOUNDARIES; i++)
		sb_addf(&sb, "--p\n\npart %zu\n", i);
	sb_adds(&sb, "--p--\n");
	intake_read_buf(sb.buf, sb.len, NULL, r);
	parse_report(r);
	assert_int_equal(r->nparts, INTAKE_MAX_BOUNDARIES - 1);
	assert_true(r->nparts < PARSE_MAX_PARTS);
	report_free(r);
	sb_release(&sb);
}

static void part_headers(size_t n, bool over)
{
	struct strbuf sb = STRBUF_INIT(1 << 20);
	size_t i;

	sb_adds(&sb, HEAD "Content-Type: multipart/mixed; boundary=p\n\n--p\n");
	for (i = 0; i < n; i++)
		sb_addf(&sb, "X-Part-%zu: v\n", i);
	sb_adds(&sb, "\npart\n--p--\n");
	at_limit(&sb, INTAKE_CAP_PART_HEADERS, over,
		 "more part header lines than 5000");
	sb_release(&sb);
}

static void test_part_headers(void **state)
{
	part_headers(INTAKE_MAX_PART_HEADERS, false);
	part_headers(INTAKE_MAX_PART_HEADERS + 1, true);
}

/* n lines starting with "--": two boundaries and n - 2 in the text */
static void dash_lines(size_t n, bool over)
{
	struct strbuf sb = STRBUF_INIT(1 << 20);
	size_t i;

	sb_adds(&sb,
		HEAD "Content-Type: multipart/mixed; boundary=p\n\n--p\n\n");
	for (i = 2; i < n; i++)
		sb_adds(&sb, "-- a signature or a diff line\n");
	sb_adds(&sb, "--p--\n");
	at_limit(&sb, INTAKE_CAP_DASH_LINES, over, "more \"--\" lines than");
	sb_release(&sb);
}

static void test_dash_lines(void **state)
{
	dash_lines(INTAKE_MAX_DASH_LINES, false);
	dash_lines(INTAKE_MAX_DASH_LINES + 1, true);
}

/* depth multiparts, each inside the one before */
static void nested_multiparts(size_t depth, bool over)
{
	struct strbuf sb = STRBUF_INIT(1 << 20);
	size_t i;

	sb_adds(&sb, HEAD "Content-Type: multipart/mixed; boundary=b0\n\n");
	for (i = 1; i < depth; i++)
		sb_addf(&sb,
			"--b%zu\nContent-Type: multipart/mixed; boundary=b%zu\n\n",
			i - 1, i);
	sb_addf(&sb, "--b%zu\nContent-Type: text/plain\n\ndeepest\n",
		depth - 1);
	for (i = depth; i-- > 0;)
		sb_addf(&sb, "--b%zu--\n", i);
	at_limit(&sb, INTAKE_CAP_DEPTH, over,
		 "MIME parts nested deeper than 64");
	sb_release(&sb);
}

/* depth message/rfc822 parts, each inside the one before */
static void nested_messages(size_t depth, bool over)
{
	struct strbuf sb = STRBUF_INIT(1 << 20);
	size_t i;

	sb_adds(&sb, HEAD "Content-Type: message/rfc822\n\n");
	for (i = 1; i < depth; i++)
		sb_adds(&sb,
			"From: n@example.org\nContent-Type: message/rfc822\n\n");
	sb_adds(&sb, "From: n@example.org\n\ninnermost\n");
	at_limit(&sb, INTAKE_CAP_DEPTH, over,
		 "MIME parts nested deeper than 64");
	sb_release(&sb);
}

static void test_depth(void **state)
{
	struct strbuf sb = STRBUF_INIT(1 << 20);
	struct intake_scan s;
	size_t i;

	nested_multiparts(INTAKE_MAX_DEPTH, false);
	nested_multiparts(INTAKE_MAX_DEPTH + 1, true);
	nested_messages(INTAKE_MAX_DEPTH, false);
	nested_messages(INTAKE_MAX_DEPTH + 1, true);

	/* siblings are not depth: 200 forwarded messages side by side */
	sb_adds(&sb, HEAD "Content-Type: multipart/digest; boundary=d\n\n");
	for (i = 0; i < 200; i++)
		sb_adds(&sb, "--d\nContent-Type: message/rfc822\n\n"
			     "From: f@example.org\nSubject: s\n\nforwarded\n");
	sb_adds(&sb, "--d--\n");
	intake_scan(sb.buf, sb.len, NULL, &s);
	assert_int_equal(s.caps, 0);
	assert_int_equal(s.depth, 2);
	sb_release(&sb);
}

static void test_size(void **state)
{
	size_t n = INTAKE_MAX_BYTES + 1, hl = strlen(HEAD "\n");
	char *buf = xmalloc(n);
	struct report *r;
	char why[200];

	memcpy(buf, HEAD "\n", hl);
	memset(buf + hl, 'x', n - hl);

	/* exactly INTAKE_MAX_BYTES: all of it, not oversize */
	r = report_new();
	intake_read_buf(buf, INTAKE_MAX_BYTES, NULL, r);
	assert_int_equal(r->raw_len, INTAKE_MAX_BYTES);
	assert_false(r->flags & REPORT_OVERSIZED);
	report_free(r);

	/* one byte more: the first INTAKE_MAX_BYTES kept, oversize */
	r = report_new();
	intake_read_buf(buf, n, NULL, r);
	assert_int_equal(r->raw_len, INTAKE_MAX_BYTES);
	assert_true(r->flags & REPORT_OVERSIZED);
	assert_true(intake_why(r, NULL, why, sizeof(why)) & INTAKE_CAP_SIZE);
	assert_string_equal(why, "oversize: message cut at 10485760 bytes");
	report_free(r);
	free(buf);
}

/* ---- the text the rules see ------------------------------------------ */

/* does a TYPE rule find "ZQMARK" ending at byte end of the body? */
static bool rules_see(const char *type, size_t end)
{
	char *text = xasprintf("%s MARK /ZQMARK/\nscore MARK user=1\n", type);
	struct ruleset *rs = rules_new(NULL, 0);
	struct rules_input in = { 0 };
	struct rules_result res;
	struct report *r = report_new();
	bool seen;

	/* no parts: rawbody is the body too */
	r->body = xmalloc(end + 1);
	memset(r->body, 'a', end - 6);
	memcpy(r->body + end - 6, "ZQMARK", 6);
	r->body[end] = '\0';
	r->body_len = end;
	assert_int_equal(rules_add_text(rs, "t.rules", text, strlen(text)), 0);
	assert_int_equal(rules_compile(rs), 0);
	in.report = r;
	rules_result_init(&res);
	rules_eval(rs, &in, RULES_EVAL_ALL | RULES_NO_PREFILTER, &res);
	seen = res.value[rules_find(rs, "MARK")] != 0;
	rules_result_release(&res);
	rules_free(rs);
	report_free(r);
	free(text);
	return seen;
}

static void test_rules_text(void **state)
{
	assert_true(rules_see("body", RULES_BODY_MAX));
	assert_false(rules_see("body", RULES_BODY_MAX + 1));
	assert_true(rules_see("rawbody", RULES_RAWBODY_MAX));
	assert_false(rules_see("rawbody", RULES_RAWBODY_MAX + 1));
}

/* ---- webhook JSON ------------------------------------------------------ */

/* an event whose "changes" holds arrays nested to depth in all */
static int event_at_depth(size_t depth)
{
	struct strbuf sb = STRBUF_INIT(1 << 20);
	struct bugzilla_event ev;
	char err[BUGZILLA_ERR_MAX];
	size_t i, inner = depth - 3; /* root, event, changes */
	int rc;

	sb_adds(&sb, "{\"webhook_id\": 1, \"event\": {\"action\": \"create\","
		     " \"target\": \"bug\", \"routing_key\": \"bug.create\","
		     " \"time\": \"2026-12-03T07:36:38\", \"changes\": [");
	for (i = 0; i < inner; i++)
		sb_addc(&sb, '[');
	for (i = 0; i < inner; i++)
		sb_addc(&sb, ']');
	sb_adds(&sb, "]}, \"bug\": {\"id\": 7}}");
	rc = bugzilla_parse_event(sb.buf, sb.len, &ev, err, sizeof(err));
	if (rc == 0)
		bugzilla_event_release(&ev);
	sb_release(&sb);
	return rc;
}

static void test_json_depth(void **state)
{
	assert_int_equal(event_at_depth(BUGZILLA_JSON_DEPTH_MAX), 0);
	assert_int_equal(event_at_depth(BUGZILLA_JSON_DEPTH_MAX + 1), -1);
}

static int setup(void **state)
{
	return parse_init();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_lines),
		cmocka_unit_test(test_header_line),
		cmocka_unit_test(test_parts),
		cmocka_unit_test(test_part_headers),
		cmocka_unit_test(test_dash_lines),
		cmocka_unit_test(test_depth),
		cmocka_unit_test(test_size),
		cmocka_unit_test(test_rules_text),
		cmocka_unit_test(test_json_depth),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
