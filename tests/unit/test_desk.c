// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_desk - what the triager's commands share: safe terminal text,
 * widths, ages, arguments, login names, candidates, forwarding
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <time.h>
#include <unistd.h>

#include "audit.h"
#include "config.h"
#include "desk.h"
#include "map.h"
#include "record.h"
#include "report.h"
#include "strbuf.h"
#include "util.h"

static char *cleaned(const char *s, size_t len, unsigned flags)
{
	struct strbuf sb = STRBUF_INIT(4096);

	desk_clean(&sb, s, len, flags);
	return sb.buf ? sb_detach(&sb, NULL) : xstrdup("");
}

static void test_clean_controls(void **state)
{
	static const char evil[] = "a\033[2Jb\tc\r\nd\x7f"
				   "e\xc2\x9b"
				   "f";
	char *s = cleaned(evil, sizeof(evil) - 1, 0);

	/* ESC, DEL and the C1 CSI become "?"; tab, CR, LF a space */
	assert_string_equal(s, "a?[2Jb c  d?e?f");
	free(s);
	s = cleaned(evil, sizeof(evil) - 1, DESK_MULTILINE);
	assert_string_equal(s, "a?[2Jb\tc\nd?e?f");
	free(s);
}

static void test_clean_unicode(void **state)
{
	/* bidi overrides and isolates reorder what a terminal shows */
	static const char bidi[] = "x\xe2\x80\xaetxt.exe\xe2\x81\xa6y";
	/* invalid UTF-8: a lone continuation byte, an overlong "/", a
	 * surrogate, a cut sequence at the end */
	static const char bad[] = "\x80/\xc0\xaf/\xed\xa0\x80/\xe2\x82";
	char *s = cleaned(bidi, sizeof(bidi) - 1, 0);

	assert_string_equal(s, "x?txt.exe?y");
	free(s);
	s = cleaned(bad, sizeof(bad) - 1, 0);
	assert_string_equal(s, "?/?"
			       "?/?"
			       "?"
			       "?/?"
			       "?");
	free(s);
	/* good UTF-8 passes unchanged */
	s = cleaned("Ünïcödé 侯朋朋 ✓", strlen("Ünïcödé 侯朋朋 ✓"), 0);
	assert_string_equal(s, "Ünïcödé 侯朋朋 ✓");
	free(s);
}

static void test_width_and_fit(void **state)
{
	struct strbuf sb = STRBUF_INIT(256);

	assert_int_equal(desk_width("abc"), 3);
	assert_int_equal(desk_width("侯朋朋"), 6);
	assert_int_equal(desk_width("e\xcc\x81"), 1); /* e + combining acute */

	desk_fit(&sb, "abcdefghij", 6, false);
	assert_string_equal(sb_str(&sb), "abc...");
	sb_reset(&sb);
	desk_fit(&sb, "abc", 6, true);
	assert_string_equal(sb_str(&sb), "abc   ");
	sb_reset(&sb);
	/* a wide character never straddles the cut */
	desk_fit(&sb, "a侯朋朋", 6, true);
	assert_string_equal(sb_str(&sb), "a侯...");
	sb_reset(&sb);
	desk_fit(&sb, "ab侯朋x", 6, true);
	assert_string_equal(sb_str(&sb), "ab... ");
	assert_int_equal(desk_width(sb_str(&sb)), 6);
	sb_reset(&sb);
	desk_fit(&sb, "abcdef", 2, false);
	assert_string_equal(sb_str(&sb), "..");
	sb_release(&sb);
}

static void test_age_and_time(void **state)
{
	char b[64];

	desk_format_age(-5, b, sizeof(b));
	assert_string_equal(b, "0s");
	desk_format_age(119, b, sizeof(b));
	assert_string_equal(b, "119s");
	desk_format_age(120, b, sizeof(b));
	assert_string_equal(b, "2m");
	desk_format_age(3 * 3600, b, sizeof(b));
	assert_string_equal(b, "3h");
	desk_format_age(47 * 3600 + 3599, b, sizeof(b));
	assert_string_equal(b, "47h");
	desk_format_age(2 * 86400, b, sizeof(b));
	assert_string_equal(b, "2d");
	setenv("TZ", "UTC", 1);
	tzset();
	desk_format_time(1704283200, b, sizeof(b));
	assert_string_equal(b, "2024-01-03 12:00:00 +0000");
}

static void test_arguments(void **state)
{
	time_t now = 1704283200, t;
	int64_t id;

	assert_int_equal(desk_parse_id("12", &id), 0);
	assert_int_equal(id, 12);
	assert_int_equal(desk_parse_id("#7", &id), 0);
	assert_int_equal(id, 7);
	assert_int_equal(desk_parse_id("0", &id), -1);
	assert_int_equal(desk_parse_id("012", &id), -1);
	assert_int_equal(desk_parse_id("-3", &id), -1);
	assert_int_equal(desk_parse_id("12a", &id), -1);
	assert_int_equal(desk_parse_id("", &id), -1);

	setenv("TZ", "UTC", 1);
	tzset();
	assert_int_equal(desk_parse_since("7d", now, &t), 0);
	assert_int_equal(t, now - 7 * 86400);
	assert_int_equal(desk_parse_since("3h", now, &t), 0);
	assert_int_equal(t, now - 3 * 3600);
	assert_int_equal(desk_parse_since("2w", now, &t), 0);
	assert_int_equal(t, now - 14 * 86400);
	assert_int_equal(desk_parse_since("2024-01-02", now, &t), 0);
	assert_int_equal(t, 1704153600);
	assert_int_equal(desk_parse_since("all", now, &t), 0);
	assert_int_equal(t, 0);
	assert_int_equal(desk_parse_since("2024-02-31", now, &t), -1);
	assert_int_equal(desk_parse_since("yesterday", now, &t), -1);
	assert_int_equal(desk_parse_since("7", now, &t), -1);
	assert_int_equal(desk_parse_since("7dd", now, &t), -1);
	assert_int_equal(desk_midnight(now, 0), 1704240000);
	assert_int_equal(desk_midnight(now, 6), 1704240000 - 6 * 86400);
}

static void test_login_and_clock(void **state)
{
	char who[DESK_LOGIN_MAX + 1];

	assert_true(desk_login_valid("alice"));
	assert_true(desk_login_valid("a.b-c_9"));
	assert_false(desk_login_valid(""));
	assert_false(desk_login_valid("-rf"));
	assert_false(desk_login_valid("alice bob"));
	assert_false(desk_login_valid("alice;id"));
	assert_false(desk_login_valid("a23456789012345678901234567890123"));

	setenv("TRIAGE_USER", "carol", 1);
	assert_int_equal(desk_who(who, sizeof(who)), 0);
	assert_string_equal(who, "carol");
	setenv("TRIAGE_USER", "carol\nmallory", 1);
	assert_int_equal(desk_who(who, sizeof(who)), -1);
	unsetenv("TRIAGE_USER");

	setenv("TRIAGE_NOW", "1704283200", 1);
	assert_int_equal(desk_now(), 1704283200);
	setenv("TRIAGE_NOW", "soon", 1);
	assert_true(desk_now() > 1704283200);
	unsetenv("TRIAGE_NOW");
}

static void test_candidates(void **state)
{
	struct desk_candidate *v;
	size_t n = desk_candidates("alice@x.example 1.25 chosen: roster for X\n"
				   "list@x.example 0.00 not needed: L: of X\n"
				   "garbage\n"
				   "bob@x.example 0.00 saturated:\n",
				   &v);

	assert_int_equal(n, 3);
	assert_string_equal(v[0].addr, "alice@x.example");
	assert_true(v[0].score > 1.24 && v[0].score < 1.26);
	assert_string_equal(v[0].status, "chosen");
	assert_string_equal(v[0].why, "roster for X");
	assert_string_equal(v[1].status, "not needed");
	assert_string_equal(v[1].why, "L: of X");
	assert_string_equal(v[2].status, "saturated");
	assert_string_equal(v[2].why, "");
	desk_candidates_free(v, n);
	assert_int_equal(desk_candidates("", &v), 0);
	assert_int_equal(desk_candidates(NULL, &v), 0);
}

static void test_status_exit(void **state)
{
	struct desk_status st = { 3, 0, 0 };

	assert_int_equal(desk_status_exit(&st), 0);
	st.refused = 1;
	assert_int_equal(desk_status_exit(&st), EX_DATAERR);
	st.unknown = 1;
	assert_int_equal(desk_status_exit(&st), EX_NOINPUT);
}

/* desk_forward: a forward decision (the load counts it) and the message */
static void test_forward(void **state)
{
	struct audit *db = NULL;
	struct report *r = report_new();
	struct audit_record rec;
	struct router_id rid = { .address = "triage@router.example",
				 .name = "triage",
				 .bounce = "bounce@router.example" };
	struct audit_outbox_item it;
	struct audit_classification c = { .class = "ai",
					  .header = "ai; score=7.0; rules=X",
					  .at = 1000 };
	struct audit_action a = { .report = 0,
				  .at = 3000,
				  .who = "me",
				  .action = "reclassify",
				  .argument = "user" };
	bool temp;
	int64_t id, oid;

	assert_int_equal(audit_open(":memory:", AUDIT_CREATE, 0, &db, &temp),
			 0);
	snprintf(r->sha256, sizeof(r->sha256), "%064x", 42);
	r->raw = xstrdup("From: Rita <rita@example.org>\n"
			 "Subject: oops\n\nbody\n");
	r->raw_len = strlen(r->raw);
	assert_int_equal(audit_insert_report(db, r, 1000, "held", 0, &id), 0);
	assert_int_equal(audit_insert_classification(db, id, &c), 0);
	assert_int_equal(audit_get_report(db, id, AUDIT_GET_RAW, &rec), 1);

	/* an invalid address is refused before anything is written */
	assert_int_equal(desk_forward(db, &rid, &rec, "bad address", NULL,
				      "user", NULL, "r", "", NULL, 2000),
			 -1);
	oid = desk_forward(db, &rid, &rec, "alice@x.example", "Alice A",
			   "ai; score=7.0", "XFS FILESYSTEM", "approved by me",
			   "", NULL, 2000);
	assert_true(oid > 0);
	assert_int_equal(audit_load(db, "alice@x.example", 1500), 1);
	assert_int_equal(audit_outbox_claim_due(db, 2000, 60, false, &it), 1);
	assert_int_equal(it.id, oid);
	assert_string_equal(it.kind, "forward");
	assert_string_equal(it.envelope_from, "bounce@router.example");
	assert_string_equal(it.recipients, "alice@x.example");
	assert_non_null(
		strstr(it.message, "Resent-To: Alice A <alice@x.example>\n"));
	assert_non_null(strstr(it.message, "X-Triage-Class: ai; score=7.0\n"));
	assert_non_null(
		strstr(it.message, "X-Triage-Section: XFS FILESYSTEM\n"));
	assert_non_null(
		strstr(it.message, "X-Triage-Reason: approved by me\n"));
	/* the original bytes follow, the subject tagged (not DKIM-signed) */
	assert_non_null(strstr(it.message, "\nFrom: Rita <rita@example.org>\n"
					   "Subject: [triage #"));
	assert_non_null(strstr(it.message, "] oops\n\nbody\n"));
	audit_outbox_item_release(&it);

	/* the header: the classifier's, unless a triager changed the class */
	assert_string_equal(desk_class_header(&rec), "ai; score=7.0; rules=X");
	audit_record_release(&rec);
	a.report = id;
	assert_int_equal(audit_record_action(db, &a, NULL), 0);
	assert_int_equal(audit_get_report(db, id, 0, &rec), 1);
	assert_string_equal(desk_class_header(&rec), "user");
	audit_record_release(&rec);
	report_free(r);
	audit_close(db);
}

/*
 * Whether a report looks security-sensitive is the filter's verdict as
 * data: its first decision's security column; a reason's words (which
 * carry a sender's From) and later decisions never count (issue 21)
 */
static void test_security(void **state)
{
	struct audit_decision d[2];
	struct audit_record rec;

	(void)state;
	memset(&rec, 0, sizeof(rec));
	memset(d, 0, sizeof(d));
	rec.decisions = d;
	assert_null(desk_security(&rec));
	rec.ndecisions = 1;
	d[0].reason = "user: it looks security-sensitive (KASAN memory-safety "
		      "crash); no person, no security_address";
	assert_null(desk_security(&rec));
	d[0].security = "";
	assert_null(desk_security(&rec));
	d[0].security = "KASAN memory-safety crash";
	d[0].reason = "held";
	assert_string_equal(desk_security(&rec), "KASAN memory-safety crash");
	/* a later decision (approve, reroute) neither adds nor removes it */
	rec.ndecisions = 2;
	d[1].security = "exploit in its text";
	assert_string_equal(desk_security(&rec), "KASAN memory-safety crash");
	d[0].security = NULL;
	assert_null(desk_security(&rec));
}

/* Lists and security contacts, where a security report never goes */
static void test_public_target(void **state)
{
	static const char text[] =
		"List of maintainers\n\n"
		"8390 NETWORK DRIVERS\n"
		"L:\tnetdev@vger.example.org\n"
		"S:\tOrphan\n"
		"F:\tdrivers/net/ethernet/8390/\n\n"
		"SECURITY CONTACT\n"
		"M:\tSecurity Officers <sec@kernel.example.org>\n"
		"S:\tSupported\n"
		"F:\tDocumentation/process/security-bugs.rst\n\n"
		"USB SUBSYSTEM\n"
		"M:\tUli Usb <uli@usb.example.org>\n"
		"L:\tlinux-usb@vger.example.org (moderated for non-subscribers)\n"
		"S:\tSupported\n"
		"F:\tdrivers/usb/\n";
	char path[] = "/tmp/test_desk_MAINTAINERS.XXXXXX";
	int fd = mkstemp(path);
	struct map *map;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	map = map_load_text(path, NULL);
	unlink(path);
	assert_non_null(map);
	assert_string_equal(desk_public_target(map, "netdev@vger.example.org"),
			    "a MAINTAINERS list");
	assert_string_equal(
		desk_public_target(map, "Linux-USB@vger.example.org"),
		"a MAINTAINERS list");
	assert_string_equal(desk_public_target(map, "sec@kernel.example.org"),
			    "a security contact");
	assert_string_equal(desk_public_target(map, "security@example.net"),
			    "a security contact");
	assert_null(desk_public_target(map, "uli@usb.example.org"));
	/* a part of an address is not the address */
	assert_null(desk_public_target(map, "dev@vger.example.org"));
	assert_null(desk_public_target(map, "xavier@xfs.example.org"));
	/* without a map only a person's word would tell: not a person */
	assert_non_null(desk_public_target(NULL, "uli@usb.example.org"));
	map_free(map);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean_controls),
		cmocka_unit_test(test_clean_unicode),
		cmocka_unit_test(test_width_and_fit),
		cmocka_unit_test(test_age_and_time),
		cmocka_unit_test(test_arguments),
		cmocka_unit_test(test_login_and_clock),
		cmocka_unit_test(test_candidates),
		cmocka_unit_test(test_status_exit),
		cmocka_unit_test(test_forward),
		cmocka_unit_test(test_security),
		cmocka_unit_test(test_public_target),
	};

	msg_setup("test_desk", 1, false);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
