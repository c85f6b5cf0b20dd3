// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_deliver - addresses, forward and message composition, loops,
 * RFC 3834 rules, line endings, retry schedule and the sendmail
 * transport (against a fake sendmail written into a temporary directory)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "deliver.h"
#include "report.h"
#include "strbuf.h"
#include "util.h"

#define SHA "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

/* ---- helpers -------------------------------------------------------- */

static size_t longest_line(const char *s)
{
	size_t max = 0, n = 0;

	for (; *s; s++) {
		if (*s == '\n') {
			n = 0;
			continue;
		}
		if (*s != '\r' && ++n > max)
			max = n;
	}
	return max;
}

/* unfold - remove the line breaks that precede white space */
static char *unfold(const char *s)
{
	char *out = xmalloc(strlen(s) + 1), *o = out;

	while (*s) {
		if (s[0] == '\r' && s[1] == '\n' &&
		    (s[2] == ' ' || s[2] == '\t'))
			s += 2;
		else if (s[0] == '\n' && (s[1] == ' ' || s[1] == '\t'))
			s++;
		else
			*o++ = *s++;
	}
	*o = '\0';
	return out;
}

static int b64val(char c)
{
	const char *t = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			"0123456789+/";
	const char *p = strchr(t, c);

	return c && p ? (int)(p - t) : -1;
}

/*
 * decode_2047 - decode an unfolded value made of =?UTF-8?B?...?= words
 * (white space between adjacent words dropped); asserts each word <= 75
 */
static char *decode_2047(const char *v)
{
	char *out = xmalloc(strlen(v) + 1), *o = out;
	bool prev_word = false;

	while (*v) {
		if (strncmp(v, "=?UTF-8?B?", 10) == 0) {
			const char *e = strstr(v + 10, "?=");
			const char *p;
			unsigned acc = 0;
			int bits = 0;

			assert_non_null(e);
			assert_true(e + 2 - v <= 75);
			for (p = v + 10; p < e && *p != '='; p++) {
				int x = b64val(*p);

				assert_true(x >= 0);
				acc = (acc << 6) | (unsigned)x;
				bits += 6;
				if (bits >= 8) {
					bits -= 8;
					*o++ = (char)((acc >> bits) & 0xff);
				}
			}
			v = e + 2;
			prev_word = true;
			continue;
		}
		if (*v == ' ' && prev_word) {
			const char *n = v;

			while (*n == ' ')
				n++;
			if (strncmp(n, "=?", 2) == 0) {
				v = n;
				continue;
			}
		}
		prev_word = false;
		*o++ = *v++;
	}
	*o = '\0';
	return out;
}

static bool all_ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s > 0x7e)
			return false;
	return true;
}

/* the value of the only header in s ("Name: value\n...") */
static char *header_value(const char *s, const char *name)
{
	char *u = unfold(s), *v;
	size_t n = strlen(name);

	assert_true(strncmp(u, name, n) == 0 && u[n] == ':');
	v = u + n + 1;
	if (*v == ' ')
		v++;
	v = xstrndup(v, strcspn(v, "\r\n"));
	free(u);
	return v;
}

/* ---- addresses ------------------------------------------------------ */

static void test_addr_valid(void **state)
{
	static const char *const good[] = {
		"alice@example.org",
		"a.b-c_d+tag@sub.example.co.uk",
		"o'brien@example.ie",
		"x@localhost",
		"1234@xn--bcher-kva.example",
		"a#b$c&d*e=f?g^h`i{j}k~l@example.org",
		"x@a-b.c0",
	};
	static const char *const bad[] = {
		"",
		"alice",
		"@example.org",
		"alice@",
		"alice@@example.org",
		"a@b@example.org",
		"alice@example.org\r\nRSET",
		"alice@example.org\n",
		"alice@exa\rmple.org",
		"<alice@example.org>",
		"Alice <alice@example.org>",
		"a lice@example.org",
		"alice@example.org,bob@example.org",
		"\"alice\"@example.org",
		"al\\ice@example.org",
		"-oQ/tmp/x@example.org",
		".alice@example.org",
		"alice.@example.org",
		"al..ice@example.org",
		"a!b@example.org",
		"a%b@example.org",
		"a/b@example.org",
		"|cmd@example.org",
		"alice@-example.org",
		"alice@example-.org",
		"alice@example..org",
		"alice@example.org.",
		"alice@.example.org",
		"alice@[192.0.2.1]",
		"alice@192.0.2.1",
		"alice@ex_ample.org",
		"j\xc3\xb6rg@example.de",
		"joerg@b\303\274cher.de",
		"a\tb@example.org",
		"a\x7f@example.org",
	};
	char local65[80], label64[80], longaddr[300];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(good); i++)
		assert_true(addr_valid(good[i]));
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		if (addr_valid(bad[i]))
			fail_msg("accepted: %s", bad[i]);
	}
	assert_false(addr_valid(NULL));

	/* length limits: local 64, label 63, whole 254 */
	memset(local65, 'a', 64);
	strcpy(local65 + 64, "@example.org");
	assert_true(addr_valid(local65));
	memmove(local65 + 1, local65, strlen(local65) + 1);
	assert_false(addr_valid(local65));
	strcpy(label64, "a@");
	memset(label64 + 2, 'b', 63);
	strcpy(label64 + 65, ".org");
	assert_true(addr_valid(label64));
	memmove(label64 + 3, label64 + 2, strlen(label64 + 2) + 1);
	assert_false(addr_valid(label64));
	/* 254 bytes is the most: "a@" and a 252-byte domain */
	strcpy(longaddr, "a@");
	for (i = 0; i < 3; i++) {
		memset(longaddr + strlen(longaddr), 'd', 63);
		strcpy(longaddr + 2 + 64 * i + 63, ".");
	}
	memset(longaddr + strlen(longaddr), 'e', 60);
	longaddr[2 + 192 + 60] = '\0';
	assert_int_equal(strlen(longaddr), 254);
	assert_true(addr_valid(longaddr));
	strcat(longaddr, "e");
	assert_false(addr_valid(longaddr));
}

static void test_addr_parse(void **state)
{
	static const struct {
		const char *in, *out;
	} ok[] = {
		{ "alice@example.org", "alice@example.org" },
		{ "  alice@example.org  ", "alice@example.org" },
		{ "<alice@example.org>", "alice@example.org" },
		{ "Alice Example <alice@example.org>", "alice@example.org" },
		{ "\"Example, Alice\" <alice@example.org>",
		  "alice@example.org" },
		{ "\"a <b@evil.org>\" <alice@example.org>",
		  "alice@example.org" },
		{ "alice@example.org (Alice, the one)", "alice@example.org" },
		{ "(c) Alice <alice@example.org> (work)", "alice@example.org" },
		{ "=?UTF-8?B?VXdlIEtsZWluZS1Lw7ZuaWc=?= <uwe@example.de>",
		  "uwe@example.de" },
	};
	static const char *const bad[] = {
		"",
		"Alice",
		"<>",
		"Alice <>",
		"alice@example.org, bob@example.org",
		"Alice <alice@example.org>, Bob <bob@example.org>",
		"undisclosed-recipients:;",
		"Alice <alice@example.org\r\nRCPT TO:<evil@example.org>>",
		"alice@example.org\r\nRSET",
		"Alice <alice@example.org",
		"alice@example.org bob@example.org",
		"\"unterminated <alice@example.org>",
		"(unterminated alice@example.org",
		"Alice <\"a b\"@example.org>",
	};
	char buf[DELIVER_ADDR_MAX + 1], small[8];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		if (addr_parse(ok[i].in, buf, sizeof(buf)) != 0)
			fail_msg("rejected: %s", ok[i].in);
		assert_string_equal(buf, ok[i].out);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		if (addr_parse(bad[i], buf, sizeof(buf)) == 0)
			fail_msg("accepted: %s -> %s", bad[i], buf);
	assert_int_equal(addr_parse("alice@example.org", small, sizeof(small)),
			 -1);
	/* the display name too, for Resent-To from MAINTAINERS */
	{
		char name[64];

		assert_int_equal(addr_split("Darrick J. Wong <djwong@kernel."
					    "org>",
					    name, sizeof(name), buf,
					    sizeof(buf)),
				 0);
		assert_string_equal(name, "Darrick J. Wong");
		assert_string_equal(buf, "djwong@kernel.org");
		assert_int_equal(addr_split("\"Wysocki, Rafael \\\"J\\\"\"  "
					    "<rafael@kernel.org>",
					    name, sizeof(name), buf,
					    sizeof(buf)),
				 0);
		assert_string_equal(name, "Wysocki, Rafael \"J\"");
		assert_int_equal(addr_split("linux-xfs@vger.kernel.org", name,
					    sizeof(name), buf, sizeof(buf)),
				 0);
		assert_string_equal(name, "");
		assert_int_equal(addr_split("A <a@x.org>, B <b@x.org>", name,
					    sizeof(name), buf, sizeof(buf)),
				 -1);
	}
	assert_true(msgid_valid("abc.123@example.org"));
	assert_false(msgid_valid("a b@example.org"));
	assert_false(msgid_valid("<a@example.org>"));
	assert_false(msgid_valid("a@example.org\r\nBcc: x"));
	assert_false(msgid_valid(""));
}

/* ---- header values -------------------------------------------------- */

static void test_header_injection(void **state)
{
	struct strbuf sb = STRBUF_INIT(1 << 16);
	char *v;

	assert_int_equal(deliver_add_header(&sb, "X-Triage-Reason",
					    "ok\r\nBcc: victim@example.org\r\n"
					    "\r\nbody\x01\x7f end",
					    "\n"),
			 0);
	/* one line, one header: the injected text is a plain value */
	assert_string_equal(sb.buf, "X-Triage-Reason: ok Bcc: "
				    "victim@example.org body end\n");
	sb_reset(&sb);
	/* a bare LF and a NUL-free tab-only value */
	assert_int_equal(deliver_add_header(&sb, "X-A", "a\nb\tc", "\r\n"), 0);
	assert_string_equal(sb.buf, "X-A: a b c\r\n");
	sb_reset(&sb);
	assert_int_equal(deliver_add_header(&sb, "X-A", "  \r\n ", "\n"), 0);
	assert_string_equal(sb.buf, "X-A:\n");
	sb_reset(&sb);
	/* names are fixed strings: anything else is refused */
	assert_int_equal(deliver_add_header(&sb, "X-A\r\nBcc", "v", "\n"), -1);
	assert_int_equal(deliver_add_header(&sb, "X A", "v", "\n"), -1);
	assert_int_equal(deliver_add_header(&sb, "X:A", "v", "\n"), -1);
	assert_int_equal(deliver_add_header(&sb, "", "v", "\n"), -1);
	assert_int_equal(deliver_add_header(&sb, "X-A", "v", "\r"), -1);
	assert_int_equal(sb.len, 0);
	/* C1 controls and invalid UTF-8 do not survive either */
	assert_int_equal(deliver_add_header(&sb, "X-A", "a\xc2\x85z\xff", "\n"),
			 0);
	v = header_value(sb.buf, "X-A");
	assert_string_equal(v, "a z?");
	free(v);
	sb_release(&sb);
}

static void test_header_folding(void **state)
{
	struct strbuf sb = STRBUF_INIT(1 << 16);
	const char *text =
		"the quick brown fox jumps over the lazy dog and then "
		"keeps running through fs/xfs/libxfs/xfs_bmap.c and "
		"fs/xfs/xfs_inode.c until the sun goes down over the hills "
		"far away";
	char longword[200];
	char *u;

	assert_int_equal(
		deliver_add_header(&sb, "X-Triage-Reason", text, "\r\n"), 0);
	assert_true(longest_line(sb.buf) <= 78);
	assert_non_null(strstr(sb.buf, "\r\n "));
	/* every break is CRLF followed by a space; unfolding restores it */
	u = unfold(sb.buf);
	assert_true(strncmp(u, "X-Triage-Reason: ", 17) == 0);
	assert_true(strncmp(u + 17, text, strlen(text)) == 0);
	assert_string_equal(u + 17 + strlen(text), "\r\n");
	assert_int_equal(count_char(u, strlen(u), '\n'), 1);
	free(u);

	/* a word longer than a line stays whole on its own line */
	sb_reset(&sb);
	memset(longword, 'w', 150);
	longword[150] = '\0';
	{
		char *v = xasprintf("short %s tail", longword);

		assert_int_equal(deliver_add_header(&sb, "X-A", v, "\n"), 0);
		assert_non_null(strstr(sb.buf, "X-A: short\n www"));
		assert_non_null(strstr(sb.buf, "w\n tail\n"));
		free(v);
	}

	/* the value is capped at DELIVER_VALUE_MAX bytes */
	sb_reset(&sb);
	{
		char *big = xmalloc(5000);
		char *v;
		size_t i;

		for (i = 0; i < 4999; i++)
			big[i] = i % 10 == 9 ? ' ' : 'x';
		big[4999] = '\0';
		assert_int_equal(deliver_add_header(&sb, "X-A", big, "\n"), 0);
		v = header_value(sb.buf, "X-A");
		assert_true(strlen(v) <= DELIVER_VALUE_MAX);
		assert_true(strlen(v) >= DELIVER_VALUE_MAX - 10);
		assert_true(longest_line(sb.buf) <= 78);
		free(v);
		free(big);
	}
	sb_release(&sb);
}

static void test_rfc2047(void **state)
{
	struct strbuf sb = STRBUF_INIT(1 << 16);
	const char *name = "Uwe Kleine-K\xc3\xb6nig";
	const char *longtext =
		"\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x81\xae\xe3\x83"
		"\x90\xe3\x82\xb0\xe5\xa0\xb1\xe5\x91\x8a: Stra\xc3\x9f"
		"e und Gr\xc3\xbc\xc3\x9f"
		"e aus M\xc3\xbcnchen, "
		"\xf0\x9f\x90\x9b emoji and more text to force several "
		"encoded words \xe2\x80\x94 ok \xe2\x80\x94 done";
	char *v, *d;

	assert_int_equal(
		deliver_add_header(&sb, "X-Triage-Section", name, "\n"), 0);
	assert_string_equal(sb.buf, "X-Triage-Section: "
				    "=?UTF-8?B?VXdlIEtsZWluZS1Lw7ZuaWc=?=\n");
	sb_reset(&sb);

	assert_int_equal(
		deliver_add_header(&sb, "X-Triage-Reason", longtext, "\n"), 0);
	assert_true(all_ascii(sb.buf));
	assert_true(longest_line(sb.buf) <= 78);
	assert_true(count_char(sb.buf, sb.len, '\n') > 2);
	v = header_value(sb.buf, "X-Triage-Reason");
	d = decode_2047(v);
	/* whole characters per word: decoding gives the text back */
	assert_string_equal(d, longtext);
	free(v);
	free(d);

	/* ASCII that looks like an encoded word is encoded itself */
	sb_reset(&sb);
	assert_int_equal(deliver_add_header(&sb, "X-A",
					    "=?UTF-8?B?DQpCY2M6IHg=?=", "\n"),
			 0);
	assert_true(strncmp(sb.buf, "X-A: =?UTF-8?B?PT9VVEYtOD9CP0RR", 31) ==
		    0);
	v = header_value(sb.buf, "X-A");
	d = decode_2047(v);
	assert_string_equal(d, "=?UTF-8?B?DQpCY2M6IHg=?=");
	free(v);
	free(d);
	sb_release(&sb);
}

static void test_date(void **state)
{
	char buf[64];

	setenv("TZ", "UTC", 1);
	tzset();
	assert_int_equal(deliver_format_date(1700000000, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "Tue, 14 Nov 2023 22:13:20 +0000");
	setenv("TZ", "America/St_Johns", 1); /* -03:30 in November */
	tzset();
	assert_int_equal(deliver_format_date(1700000000, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "Tue, 14 Nov 2023 18:43:20 -0330");
	assert_int_equal(deliver_format_date(1700000000, buf, 10), -1);
	setenv("TZ", "UTC", 1);
	tzset();
}

/* ---- forwarding ----------------------------------------------------- */

static const char original_lf[] =
	"Return-Path: <reporter@example.net>\n"
	"Delivered-To: bugs@triage.example.org\n"
	"DKIM-Signature: v=1; a=rsa-sha256; d=example.net; s=s1;\n"
	"\th=from:to:subject; bh=abc=; b=def=\n"
	"From: Reporter <reporter@example.net>\n"
	"To: bugs@triage.example.org\n"
	"Subject: [BUG] xfs: hang in xfs_inode.c\n"
	"Message-ID: <r1@example.net>\n"
	"\n"
	"Hello,\n"
	".\n"
	"From the log:\n"
	"  BUG: soft lockup\n";

static void forward_headers_init(struct forward_headers *h)
{
	memset(h, 0, sizeof(*h));
	h->router_name = "Triage Router";
	h->router_addr = "triage@triage.example.org";
	h->to_name = "Alice Example";
	h->to_addr = "alice@example.org";
	h->sha256 = SHA;
	h->date = 1700000000;
	h->cls = "user";
	h->section = "XFS FILESYSTEM";
	h->reason = "F: fs/xfs/ matched fs/xfs/xfs_inode.c";
}

static void test_forward_golden(void **state)
{
	struct strbuf sb = STRBUF_INIT(1 << 20);
	struct forward_headers h;
	const char *expect =
		"Resent-Date: Tue, 14 Nov 2023 22:13:20 +0000\n"
		"Resent-From: Triage Router <triage@triage.example.org>\n"
		"Resent-To: Alice Example <alice@example.org>\n"
		"Resent-Message-ID: <fwd.0123456789abcdef0123456789abcdef.fe0b59c46c41d4d1"
		"@triage.example.org>\n"
		"X-Loop: triage@triage.example.org\n"
		"Auto-Submitted: auto-generated\n"
		"X-Triage-Class: user\n"
		"X-Triage-Section: XFS FILESYSTEM\n"
		"X-Triage-Reason: F: fs/xfs/ matched fs/xfs/xfs_inode.c\n";
	size_t n = strlen(expect);

	setenv("TZ", "UTC", 1);
	tzset();
	forward_headers_init(&h);
	assert_int_equal(deliver_compose_forward(original_lf,
						 strlen(original_lf), &h, &sb),
			 0);
	if (strncmp(sb.buf, expect, n) != 0)
		fail_msg("got:\n%s", sb.buf);
	/* the original follows byte for byte */
	assert_int_equal(sb.len, n + strlen(original_lf));
	assert_memory_equal(sb.buf + n, original_lf, strlen(original_lf));
	sb_release(&sb);
}

/* compose a forward of msg for report 42 under tag mode t */
static char *forward_tagged(const char *msg, enum deliver_tag t)
{
	struct strbuf sb = STRBUF_INIT(1 << 20);
	struct forward_headers h;
	char *out;

	forward_headers_init(&h);
	h.report = 42;
	h.tag = t;
	assert_int_equal(deliver_compose_forward(msg, strlen(msg), &h, &sb), 0);
	out = xstrdup(sb.buf);
	sb_release(&sb);
	return out;
}

static void test_forward_subject_tag(void **state)
{
	const char *plain = "From: Reporter <reporter@example.net>\n"
			    "Subject:  xfs: oops in xfs_inactive\n"
			    "Message-ID: <r1@example.net>\n"
			    "\n"
			    "Subject: not a header, the body\n";
	const char *tagged = "From: r@example.net\n"
			     "Subject: Re: [triage #7] xfs: oops\n\nbody\n";
	const char *folded = "Subject:\n  =?UTF-8?Q?caf=C3=A9?= hangs\n"
			     "From: r@example.net\n\nbody\n";
	char *out;

	/* unsigned: the tag after "Subject:" and its blanks, body untouched */
	out = forward_tagged(plain, DELIVER_TAG_UNSIGNED);
	assert_non_null(strstr(out, "\nX-Triage-Report: 42\n"));
	assert_non_null(strstr(
		out, "\nSubject:  [triage #42] xfs: oops in xfs_inactive\n"));
	assert_non_null(strstr(out, "\n\nSubject: not a header, the body\n"));
	assert_null(strstr(out, "[triage #42] not a header"));
	free(out);
	/* DKIM-signed: Subject kept by default, tagged only when always */
	out = forward_tagged(original_lf, DELIVER_TAG_UNSIGNED);
	assert_non_null(strstr(out, "\nX-Triage-Report: 42\n"));
	assert_null(strstr(out, "[triage #"));
	assert_non_null(strstr(out, original_lf));
	free(out);
	out = forward_tagged(original_lf, DELIVER_TAG_ALWAYS);
	assert_non_null(strstr(out, "\nSubject: [triage #42] "));
	free(out);
	out = forward_tagged(plain, DELIVER_TAG_NEVER);
	assert_null(strstr(out, "[triage #"));
	assert_non_null(strstr(out, plain));
	free(out);
	/* a subject that carries a tag already keeps it, and only it */
	out = forward_tagged(tagged, DELIVER_TAG_ALWAYS);
	assert_non_null(strstr(out, tagged));
	assert_null(strstr(out, "#42]"));
	free(out);
	/* a folded subject: the tag before the fold stays a valid field */
	out = forward_tagged(folded, DELIVER_TAG_UNSIGNED);
	assert_non_null(strstr(
		out, "Subject:[triage #42] \n  =?UTF-8?Q?caf=C3=A9?= hangs\n"));
	free(out);
}

/*
 * inbound fields that would pass for ours are renamed X-Original-*:
 * X-Triage-* always, Resent-* and X-Loop unless a DKIM signature covers
 * them; the rest of the original is untouched
 */
static void test_forward_renames_ours(void **state)
{
	const char *plain = "X-Triage-Class: user; score=99\n"
			    "From: m@evil.example\n"
			    "X-triage-reason: approved by alice\n"
			    "Subject: hi\n"
			    "Resent-From: relay@elsewhere.example\n"
			    "X-Loop: list@lists.example.org\n"
			    "X-Loopy: not ours\n"
			    "\n"
			    "X-Triage-Class: in the body, untouched\n";
	const char *bodyless = "X-Triage-Class: user\n";
	const char *signed_ =
		"DKIM-Signature: v=1; a=rsa-sha256; d=lists.example;\n"
		" h=From:To:Subject:\n  X-Loop:resent-from; bh=x; b=y\n"
		"X-Triage-Status: approved\n"
		"From: m@lists.example\n"
		"Subject: hi\n"
		"Resent-From: relay@lists.example\n"
		"Resent-To: someone@lists.example\n"
		"X-Loop: list@lists.example\n"
		"\nbody\n";
	char *out;

	(void)state;
	out = forward_tagged(plain, DELIVER_TAG_UNSIGNED);
	assert_non_null(
		strstr(out, "\nX-Triage-Report: 42\n"
			    "X-Original-Triage-Class: user; score=99\n"
			    "From: m@evil.example\n"
			    "X-Original-triage-reason: approved by alice\n"
			    "Subject: [triage #42] hi\n"
			    "X-Original-Resent-From: relay@elsewhere.example\n"
			    "X-Original-Loop: list@lists.example.org\n"
			    "X-Loopy: not ours\n"
			    "\n"
			    "X-Triage-Class: in the body, untouched\n"));
	free(out);
	out = forward_tagged(bodyless, DELIVER_TAG_NEVER);
	assert_non_null(strstr(out, "\nX-Original-Triage-Class: user\n"));
	free(out);
	/* signed: X-Loop and Resent-From kept, Resent-To and ours renamed */
	out = forward_tagged(signed_, DELIVER_TAG_UNSIGNED);
	assert_non_null(strstr(out,
			       "\nX-Original-Triage-Status: approved\n"
			       "From: m@lists.example\n"
			       "Subject: hi\n"
			       "Resent-From: relay@lists.example\n"
			       "X-Original-Resent-To: someone@lists.example\n"
			       "X-Loop: list@lists.example\n"
			       "\nbody\n"));
	free(out);
}

/*
 * the report's own address: "Reply-To: REPORTER, bugs+ID-TOKEN@" in our
 * block, before the X-Triage-* fields; none when the original has a
 * Reply-To of its own, or when the address is not valid
 */
static void test_forward_reply_to(void **state)
{
	const char *plain = "From: Dana Admin <dana@example.com>\n"
			    "Subject: oops\n\nbody\n";
	const char *own = "From: Dana <dana@example.com>\n"
			  "reply-to: list@example.com\n"
			  "Subject: oops\n\nbody\n";
	const char *nofrom = "Subject: oops\n\nbody\n";
	struct strbuf sb = STRBUF_INIT(1 << 20);
	struct forward_headers h;

	(void)state;
	forward_headers_init(&h);
	h.report = 42;
	h.reply_to = "bugs+42-abcdefgh@example.org";
	assert_int_equal(deliver_compose_forward(plain, strlen(plain), &h, &sb),
			 0);
	assert_non_null(strstr(sb.buf, "\nAuto-Submitted: auto-generated\n"
				       "Reply-To: dana@example.com, "
				       "bugs+42-abcdefgh@example.org\n"
				       "X-Triage-"));
	sb_reset(&sb);
	assert_int_equal(deliver_compose_forward(own, strlen(own), &h, &sb), 0);
	assert_null(strstr(sb.buf, "\nReply-To:"));
	assert_non_null(strstr(sb.buf, "\nreply-to: list@example.com\n"));
	sb_reset(&sb);
	assert_int_equal(
		deliver_compose_forward(nofrom, strlen(nofrom), &h, &sb), 0);
	assert_non_null(
		strstr(sb.buf, "\nReply-To: bugs+42-abcdefgh@example.org\n"));
	sb_reset(&sb);
	h.reply_to = "bugs+42@@example.org\nBcc: x@evil.example";
	assert_int_equal(deliver_compose_forward(plain, strlen(plain), &h, &sb),
			 0);
	assert_null(strstr(sb.buf, "Reply-To:"));
	assert_null(strstr(sb.buf, "Bcc:"));
	sb_release(&sb);
}

static void test_forward_crlf_and_from_line(void **state)
{
	struct strbuf lf = STRBUF_INIT(1 << 20), sb = STRBUF_INIT(1 << 20);
	struct strbuf mbox = STRBUF_INIT(1 << 20);
	struct forward_headers h;
	const char *body;
	size_t i;

	forward_headers_init(&h);
	h.status = "routed; class=user; score=0.91";
	h.to_name = "Rafael J. Wysocki";
	h.router_name = NULL;
	assert_int_equal(deliver_to_crlf(original_lf, strlen(original_lf), &lf),
			 0);
	assert_int_equal(deliver_compose_forward(lf.buf, lf.len, &h, &sb), 0);
	/* the added block uses the message's CRLF: no bare LF anywhere */
	for (i = 0; i < sb.len; i++)
		if (sb.buf[i] == '\n')
			assert_int_equal(sb.buf[i - 1], '\r');
	assert_non_null(strstr(sb.buf, "Resent-From: triage@triage.example."
				       "org\r\n"));
	assert_non_null(strstr(sb.buf, "Resent-To: \"Rafael J. Wysocki\" "
				       "<alice@example.org>\r\n"));
	assert_non_null(strstr(sb.buf, "X-Triage-Status: routed; class=user; "
				       "score=0.91\r\n"));
	body = strstr(sb.buf, "Return-Path:");
	assert_non_null(body);
	assert_int_equal(sb.len - (size_t)(body - sb.buf), lf.len);
	assert_memory_equal(body, lf.buf, lf.len);

	/* an mbox From_ line is not part of the message */
	sb_reset(&sb);
	sb_adds(&mbox, "From reporter@example.net  Tue Nov 14 22:13:20 2023\n");
	sb_adds(&mbox, original_lf);
	assert_int_equal(deliver_compose_forward(mbox.buf, mbox.len, &h, &sb),
			 0);
	assert_null(strstr(sb.buf, "From reporter@example.net  Tue"));
	assert_true(sb.len > strlen(original_lf));
	assert_string_equal(sb.buf + sb.len - strlen(original_lf), original_lf);

	/* a bare text (console log) becomes the body of the forward */
	sb_reset(&sb);
	assert_int_equal(
		deliver_compose_forward("[  1.0] BUG: oops\n", 18, &h, &sb), 0);
	assert_non_null(strstr(sb.buf, "auto-generated\nX-Triage-Class"));
	assert_non_null(strstr(sb.buf, "\n\n[  1.0] BUG: oops\n"));
	sb_release(&lf);
	sb_release(&sb);
	sb_release(&mbox);
}

static void test_forward_id_and_errors(void **state)
{
	struct strbuf sb = STRBUF_INIT(1 << 20), small = STRBUF_INIT(64);
	struct forward_headers h;
	char a[DELIVER_MSGID_MAX + 1], b[DELIVER_MSGID_MAX + 1];

	forward_headers_init(&h);
	/* a retry gives the same id; another recipient a different one */
	assert_int_equal(deliver_forward_id(SHA, "alice@example.org",
					    "r.example", a, sizeof(a)),
			 0);
	assert_int_equal(deliver_forward_id(SHA, "ALICE@example.org",
					    "r.example", b, sizeof(b)),
			 0);
	assert_string_equal(a, b);
	assert_int_equal(deliver_forward_id(SHA, "bob@example.org", "r.example",
					    b, sizeof(b)),
			 0);
	assert_string_not_equal(a, b);
	assert_true(msgid_valid(a));
	assert_int_equal(deliver_forward_id("0123", "bob@example.org",
					    "r.example", b, sizeof(b)),
			 -1);
	assert_int_equal(deliver_forward_id(SHA, "bob@example.org",
					    "bad domain", b, sizeof(b)),
			 -1);

	/* invalid input leaves the buffer alone */
	sb_adds(&sb, "keep");
	h.to_addr = "alice@example.org\r\nRCPT TO:<x@evil.org>";
	assert_int_equal(deliver_compose_forward(original_lf,
						 strlen(original_lf), &h, &sb),
			 -1);
	h.to_addr = "alice@example.org";
	h.sha256 = "not hex";
	assert_int_equal(deliver_compose_forward(original_lf,
						 strlen(original_lf), &h, &sb),
			 -1);
	assert_string_equal(sb.buf, "keep");
	/* and so does reaching the cap */
	h.sha256 = SHA;
	sb_adds(&small, "keep");
	assert_int_equal(deliver_compose_forward(
				 original_lf, strlen(original_lf), &h, &small),
			 -1);
	assert_string_equal(small.buf, "keep");
	sb_release(&sb);
	sb_release(&small);
}

static void test_loop_detection(void **state)
{
	const char *router = "triage@triage.example.org";
	struct strbuf sb = STRBUF_INIT(1 << 20);
	struct forward_headers h;

#define LOOP(s) deliver_is_loop((s), strlen(s), router)
	assert_false(LOOP(original_lf));
	assert_true(LOOP("X-Loop: triage@triage.example.org\n\nb"));
	assert_true(LOOP("Subject: x\r\nx-loop:\r\n TRIAGE@Triage.Example.Org"
			 "\r\n\r\nb"));
	assert_true(LOOP("Resent-From: Triage <triage@triage.example.org>\n"
			 "Subject: x\n\n"));
	/* our own forward is recognised */
	forward_headers_init(&h);
	assert_int_equal(deliver_compose_forward(original_lf,
						 strlen(original_lf), &h, &sb),
			 0);
	assert_true(deliver_is_loop(sb.buf, sb.len, router));
	/* after a From_ line too */
	assert_true(
		LOOP("From x@y Tue\nX-Loop: triage@triage.example.org\n\n"));
	/* not: another address, a longer one, the body, a nested message */
	assert_false(LOOP("X-Loop: owner@bugs.debian.org\n\n"));
	assert_false(LOOP("X-Loop: xtriage@triage.example.org\n\n"));
	assert_false(LOOP("X-Loop: triage@triage.example.org.uk\n\n"));
	assert_false(LOOP("Subject: x\n\nX-Loop: triage@triage.example.org\n"));
	assert_false(LOOP("Content-Type: message/rfc822\n\n"
			  "X-Loop: triage@triage.example.org\n"));
	assert_false(LOOP("To: triage@triage.example.org\n\n"));
#undef LOOP
	assert_false(deliver_is_loop(original_lf, strlen(original_lf), ""));
	sb_release(&sb);
}

/* ---- new messages --------------------------------------------------- */

static char *qp_decode(const char *s)
{
	char *out = xmalloc(strlen(s) + 1), *o = out;

	while (*s) {
		if (s[0] == '=' && s[1] == '\n') {
			s += 2;
		} else if (s[0] == '=') {
			unsigned x;

			assert_int_equal(sscanf(s + 1, "%2X", &x), 1);
			*o++ = (char)x;
			s += 3;
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
	return out;
}

static void test_message_reply_golden(void **state)
{
	const char *to[] = { "reporter@example.net", NULL };
	const char *refs[] = { "r0@example.net", "bad id", "r1@example.net",
			       NULL };
	const struct deliver_header extra[] = {
		{ "X-Triage-Report", "42" },
	};
	struct deliver_message m = {
		.from_name = "Triage Router",
		.from_addr = "triage@triage.example.org",
		.to = to,
		.subject = "Re: [BUG] xfs: hang in xfs_inode.c",
		.message_id = "ack.42@triage.example.org",
		.in_reply_to = "r1@example.net",
		.references = refs,
		.auto_submitted = DELIVER_AUTO_REPLIED,
		.extra = extra,
		.nextra = 1,
		.body = "Thank you.\r\nIt went to XFS.\n",
		.date = 1700000000,
	};
	struct strbuf sb = STRBUF_INIT(1 << 20);

	setenv("TZ", "UTC", 1);
	tzset();
	m.body_len = strlen(m.body);
	assert_int_equal(deliver_compose_message(&m, &sb), 0);
	assert_string_equal(sb.buf,
			    "From: Triage Router <triage@triage.example.org>\n"
			    "To: reporter@example.net\n"
			    "Subject: Re: [BUG] xfs: hang in xfs_inode.c\n"
			    "Date: Tue, 14 Nov 2023 22:13:20 +0000\n"
			    "Message-ID: <ack.42@triage.example.org>\n"
			    "In-Reply-To: <r1@example.net>\n"
			    "References: <r0@example.net> <r1@example.net>\n"
			    "Auto-Submitted: auto-replied\n"
			    "X-Auto-Response-Suppress: All\n"
			    "X-Triage-Report: 42\n"
			    "MIME-Version: 1.0\n"
			    "Content-Type: text/plain; charset=utf-8\n"
			    "Content-Transfer-Encoding: 7bit\n"
			    "\n"
			    "Thank you.\n"
			    "It went to XFS.\n");
	sb_release(&sb);
}

static void test_message_encodings(void **state)
{
	const char *to[] = { "a@example.org", "b@example.org", NULL };
	struct deliver_message m = {
		.from_addr = "triage@triage.example.org",
		.to = to,
		.subject = "Fuzzer digest: 3 reports \xe2\x80\x94 syzbot",
		.auto_submitted = DELIVER_AUTO_GENERATED,
	};
	struct strbuf sb = STRBUF_INIT(1 << 20), body = STRBUF_INIT(1 << 20);
	const char *p;
	char *dec, *subj, *id;
	size_t i;

	/* 8-bit text with short lines: 8bit, and a generated Message-ID */
	m.body = "Gr\xc3\xbc\xc3\x9f"
		 "e\nbad \xff byte and a \x01 control\n";
	m.body_len = strlen(m.body);
	assert_int_equal(deliver_compose_message(&m, &sb), 0);
	assert_non_null(strstr(sb.buf, "To: a@example.org, b@example.org\n"));
	assert_non_null(strstr(sb.buf, "Auto-Submitted: auto-generated\n"));
	assert_non_null(strstr(sb.buf, "Content-Transfer-Encoding: 8bit\n"));
	assert_non_null(strstr(sb.buf, "\nbad ? byte and a ? control\n"));
	id = strstr(sb.buf, "Message-ID: <triage.");
	assert_non_null(id);
	assert_non_null(strstr(id, "@triage.example.org>\n"));
	assert_null(strstr(sb.buf, "In-Reply-To"));
	subj = strstr(sb.buf, "Subject: ");
	assert_non_null(subj);
	subj = header_value(subj, "Subject");
	dec = decode_2047(subj);
	assert_string_equal(dec, m.subject);
	free(subj);
	free(dec);

	/* a line over 998 bytes: quoted-printable that decodes back */
	sb_reset(&sb);
	sb_adds(&body, "From the start\nshort line with trailing space \n");
	for (i = 0; i < 1200; i++)
		sb_addc(&body, i % 100 == 99 ? '=' : 'k');
	sb_adds(&body, "\n\xc3\xa9t\xc3\xa9\n");
	m.body = body.buf;
	m.body_len = body.len;
	assert_int_equal(deliver_compose_message(&m, &sb), 0);
	assert_non_null(strstr(sb.buf, "Content-Transfer-Encoding: "
				       "quoted-printable\n"));
	p = strstr(sb.buf, "\n\n") + 2;
	assert_true(longest_line(p) <= 76);
	assert_true(all_ascii(p));
	assert_non_null(strstr(p, "=46rom the start\n"));
	assert_non_null(strstr(p, "trailing space=20\n"));
	dec = qp_decode(p);
	assert_string_equal(dec, body.buf);
	free(dec);
	sb_release(&sb);
	sb_release(&body);
}

static void test_message_errors(void **state)
{
	const char *to[] = { "a@example.org", NULL };
	const char *bad_to[] = { "a@example.org\nRCPT TO:<b@x.org>", NULL };
	const char *none[] = { NULL };
	const struct deliver_header bcc[] = { { "bcc", "x@example.org" } };
	const struct deliver_header badname[] = { { "X-A: b", "c" } };
	struct deliver_message m = {
		.from_addr = "triage@triage.example.org",
		.to = to,
		.subject = "s",
		.body = "b\n",
		.body_len = 2,
	};
	struct strbuf sb = STRBUF_INIT(1 << 20);

	assert_int_equal(deliver_compose_message(&m, &sb), 0);
	sb_reset(&sb);
	m.to = bad_to;
	assert_int_equal(deliver_compose_message(&m, &sb), -1);
	m.to = none;
	assert_int_equal(deliver_compose_message(&m, &sb), -1);
	m.to = to;
	m.extra = bcc;
	m.nextra = 1;
	assert_int_equal(deliver_compose_message(&m, &sb), -1);
	m.extra = badname;
	assert_int_equal(deliver_compose_message(&m, &sb), -1);
	m.extra = NULL;
	m.nextra = 0;
	m.message_id = "<x@y>";
	assert_int_equal(deliver_compose_message(&m, &sb), -1);
	m.message_id = NULL;
	m.from_addr = "Triage <triage@triage.example.org>";
	assert_int_equal(deliver_compose_message(&m, &sb), -1);
	assert_int_equal(sb.len, 0);
	/* an invalid In-Reply-To from the reporter is dropped, not fatal */
	m.from_addr = "triage@triage.example.org";
	m.in_reply_to = "x@y>\nBcc: z@example.org";
	assert_int_equal(deliver_compose_message(&m, &sb), 0);
	assert_null(strstr(sb.buf, "In-Reply-To"));
	assert_null(strstr(sb.buf, "Bcc"));
	sb_release(&sb);
}

/* ---- RFC 3834 ------------------------------------------------------- */

static void test_autoreply_rules(void **state)
{
	static const char *const bots[] = {
		"syzbot@syzkaller.appspotmail.com",
		"@lkp.intel.com",
		"kernelci@",
		NULL,
	};
	struct report_header plain[] = {
		{ (char *)"From", (char *)"Reporter <reporter@example.net>" },
		{ (char *)"Subject", (char *)"bug" },
	};
	static const struct {
		const char *name, *value, *env;
		bool ok;
	} cases[] = {
		{ NULL, NULL, "reporter@example.net", true },
		{ "Auto-Submitted", "no", "reporter@example.net", true },
		{ "Auto-Submitted", "No (comment)", "reporter@example.net",
		  true },
		{ "Precedence", "first-class", "reporter@example.net", true },
		{ NULL, NULL, "", false },
		{ NULL, NULL, "<>", false },
		{ NULL, NULL, "not an address", false },
		{ "Auto-Submitted", "auto-replied", "reporter@example.net",
		  false },
		{ "auto-submitted", "Auto-Generated; owner-email=x@y",
		  "reporter@example.net", false },
		{ "Precedence", "bulk", "reporter@example.net", false },
		{ "Precedence", " List", "reporter@example.net", false },
		{ "Precedence", "junk", "reporter@example.net", false },
		{ "List-Id", "<linux-xfs.vger.kernel.org>",
		  "reporter@example.net", false },
		{ "List-Unsubscribe", "<mailto:x@example.org>",
		  "reporter@example.net", false },
		{ "X-Auto-Response-Suppress", "OOF, AutoReply",
		  "reporter@example.net", false },
		{ NULL, NULL, "MAILER-DAEMON@example.net", false },
		{ NULL, NULL, "postmaster@example.net", false },
		{ NULL, NULL, "noreply@example.net", false },
		{ NULL, NULL, "no-reply-builds@example.net", false },
		{ NULL, NULL, "owner-linux-kernel@vger.kernel.org", false },
		{ NULL, NULL, "linux-xfs-request@vger.kernel.org", false },
		{ NULL, NULL, "xfs-bounces+x=y@lists.example.org", false },
		{ NULL, NULL,
		  "syzbot+0123456789abcdef@syzkaller.appspotmail.com", false },
		{ NULL, NULL, "Syzbot@SYZKALLER.appspotmail.com", false },
		{ NULL, NULL, "robot@lkp.intel.com", false },
		{ NULL, NULL, "kernelci@example.org", false },
		{ NULL, NULL, "kernelcibot@example.org", true },
	};
	struct report_header h[3];
	const char *why;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		size_t n = 2;
		bool got;

		memcpy(h, plain, sizeof(plain));
		if (cases[i].name) {
			h[2].name = (char *)cases[i].name;
			h[2].value = (char *)cases[i].value;
			n = 3;
		}
		got = deliver_may_autoreply(h, n, cases[i].env, bots, &why);
		if (got != cases[i].ok)
			fail_msg("case %zu (%s: %s, %s): got %d", i,
				 cases[i].name ? cases[i].name : "-",
				 cases[i].value ? cases[i].value : "-",
				 cases[i].env, got);
		if (!got)
			assert_non_null(why);
	}
	/* a no-reply From: forbids it even with a personal envelope */
	h[0].name = (char *)"From";
	h[0].value = (char *)"Builds <noreply@ci.example.org>";
	assert_false(
		deliver_may_autoreply(h, 1, "person@example.org", bots, &why));
	assert_string_equal(why, "system or no-reply sender");
	assert_false(deliver_may_autoreply(h, 0, NULL, NULL, NULL));
}

/* ---- line endings and backoff --------------------------------------- */

static void test_line_endings(void **state)
{
	struct strbuf sb = STRBUF_INIT(1 << 16);
	const char *in = "a\nb\r\nc\rd\n.\n..x\r\n.\rz";
	const char *out = "a\r\nb\r\nc\r\nd\r\n.\r\n..x\r\n.\r\nz\r\n";

	/* every line end is CRLF; nothing is dot-stuffed here */
	assert_int_equal(deliver_to_crlf(in, strlen(in), &sb), 0);
	assert_string_equal(sb.buf, out);
	sb_reset(&sb);
	assert_int_equal(deliver_to_crlf("x\r\n", 3, &sb), 0);
	assert_string_equal(sb.buf, "x\r\n");
	sb_reset(&sb);
	assert_int_equal(deliver_to_crlf("", 0, &sb), 0);
	assert_int_equal(sb.len, 0);
	sb_reset(&sb);
	assert_int_equal(deliver_to_lf("a\r\nb\nc\rd\r\n", 11, &sb), 0);
	assert_string_equal(sb.buf, "a\nb\nc\rd\n");
	sb_reset(&sb);
	assert_int_equal(deliver_to_lf("no newline", 10, &sb), 0);
	assert_string_equal(sb.buf, "no newline\n");
	sb_release(&sb);
	{
		struct strbuf tiny = STRBUF_INIT(4);

		assert_int_equal(deliver_to_crlf("a\nb\nc\n", 6, &tiny), -1);
		assert_int_equal(tiny.len, 0);
		sb_release(&tiny);
	}
}

static void test_backoff(void **state)
{
	const time_t q = 1700000000;
	const long expect[] = { 60, 300, 900, 3600, 14400, 14400, 14400 };
	time_t next = 0, now = q;
	unsigned f;
	int tries = 0;

	assert_true(deliver_backoff(q, q, 0, 0, &next));
	assert_int_equal(next, q);
	for (f = 1; f <= ARRAY_SIZE(expect); f++) {
		assert_true(deliver_backoff(q, q + 10, f, 0, &next));
		assert_int_equal(next - (q + 10), expect[f - 1]);
	}
	/* the last try is at the deadline, then it gives up */
	assert_true(deliver_backoff(q, q + DELIVER_MAX_AGE - 100, 9, 0, &next));
	assert_int_equal(next, q + DELIVER_MAX_AGE);
	assert_false(deliver_backoff(q, q + DELIVER_MAX_AGE, 10, 0, &next));
	assert_false(deliver_backoff(q, q + 3600, 2, 3600, &next));
	/* following the schedule from the first failure: 5 days of tries */
	for (f = 1; deliver_backoff(q, now, f, 0, &next); f++) {
		assert_true(next > now);
		now = next;
		tries++;
	}
	assert_int_equal(now, q + DELIVER_MAX_AGE);
	/* 1m+5m+15m+1h = 4860 s, then every 4 h until the deadline */
	assert_int_equal(tries, 4 + (DELIVER_MAX_AGE - 4860 + 14399) / 14400);
}

/* ---- the sendmail transport ----------------------------------------- */

static char tmpdir[64];
static char script[128];

static const char fake_sendmail[] =
	"#!/bin/sh\n"
	"d=$(dirname \"$0\")\n"
	"printf '%s\\n' \"$@\" >\"$d/argv\"\n"
	"mode=$(cat \"$d/mode\")\n"
	"[ \"$mode\" = noread ] && exit 0\n"
	"cat >\"$d/stdin\"\n"
	"case \"$mode\" in\n"
	"ok) echo queued as ABC123; exit 0 ;;\n"
	"temp) echo 'sendmail: fatal: queue file write error' >&2; exit 75 ;;\n"
	"unavail) echo 'sendmail: fatal: no such service' >&2; exit 69 ;;\n"
	"hang) sleep 30 & echo $! >\"$d/sleep.pid\"; wait ;;\n"
	"signal) kill -9 $$ ;;\n"
	"esac\n"
	"exit 70\n";

static void set_mode(const char *mode)
{
	char path[160];

	snprintf(path, sizeof(path), "%s/mode", tmpdir);
	assert_int_equal(write_file_atomic(path, mode, strlen(mode), 0644), 0);
	snprintf(path, sizeof(path), "%s/argv", tmpdir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/stdin", tmpdir);
	unlink(path);
}

static char *slurp(const char *name, size_t *len)
{
	char path[160], *buf;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	if (read_file(path, 64 << 20, &buf, len) < 0)
		return NULL;
	return buf;
}

static void assert_no_children(void)
{
	/* every child was reaped: nothing left to wait for */
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

static int sendmail_setup(void **state)
{
	int fd;

	strcpy(tmpdir, "/tmp/triage-deliver-XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	snprintf(script, sizeof(script), "%s/sendmail", tmpdir);
	fd = open(script, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (fd < 0 || write(fd, fake_sendmail, strlen(fake_sendmail)) < 0)
		return -1;
	close(fd);
	return 0;
}

static int sendmail_teardown(void **state)
{
	char *cmd = xasprintf("rm -rf '%s'", tmpdir);
	int rc = system(cmd);

	free(cmd);
	return rc == 0 ? 0 : -1;
}

static void test_sendmail_ok(void **state)
{
	const char *rcpts[] = { "alice@example.org", "bob@example.org", NULL };
	const char *msg = "Subject: t\n\nbody\n.\nend\n";
	struct deliver_result res;
	char *argv, *in;
	size_t n;

	set_mode("ok");
	assert_int_equal(deliver_sendmail(script, 5000,
					  "bounces@triage.example.org", rcpts,
					  msg, strlen(msg), &res),
			 0);
	assert_int_equal(res.status, DELIVER_OK);
	assert_int_equal(res.exit_status, 0);
	assert_string_equal(res.detail, "queued by sendmail: queued as ABC123");
	argv = slurp("argv", &n);
	assert_non_null(argv);
	assert_string_equal(argv, "-i\n-f\nbounces@triage.example.org\n--\n"
				  "alice@example.org\nbob@example.org\n");
	in = slurp("stdin", &n);
	assert_non_null(in);
	assert_int_equal(n, strlen(msg));
	assert_memory_equal(in, msg, n);
	free(argv);
	free(in);
	assert_no_children();

	/* the null sender, and a message larger than a pipe buffer */
	{
		struct strbuf big = STRBUF_INIT(8 << 20);
		size_t i;

		for (i = 0; i < 40000; i++)
			sb_addf(&big, "line %zu of a large crash log\n", i);
		set_mode("ok");
		assert_int_equal(deliver_sendmail(script, 10000, "", rcpts,
						  big.buf, big.len, &res),
				 0);
		argv = slurp("argv", &n);
		assert_string_equal(argv, "-i\n-f\n<>\n--\nalice@example.org\n"
					  "bob@example.org\n");
		in = slurp("stdin", &n);
		assert_int_equal(n, big.len);
		assert_memory_equal(in, big.buf, n);
		free(argv);
		free(in);
		sb_release(&big);
	}
	assert_no_children();
}

/*
 * A bare CR never reaches sendmail (issue 21): the message goes as the
 * SMTP transport's CRLF lines, so that no server downstream reads a
 * "<CR>.<CR>" as the end of the data; a message without one goes as is
 */
static void test_sendmail_bare_cr(void **state)
{
	const char *rcpts[] = { "alice@example.org", NULL };
	const char *msg = "Subject: t\n\nbody\r.\rMAIL FROM:<x@evil.example>"
			  "\r\nend\n";
	const char *want = "Subject: t\r\n\r\nbody\r\n.\r\n"
			   "MAIL FROM:<x@evil.example>\r\nend\r\n";
	const char *crlf = "Subject: t\r\n\r\nbody\r\n";
	struct deliver_result res;
	char *in;
	size_t n;

	set_mode("ok");
	assert_int_equal(deliver_sendmail(script, 5000, "b@example.org", rcpts,
					  msg, strlen(msg), &res),
			 0);
	in = slurp("stdin", &n);
	assert_non_null(in);
	assert_int_equal(n, strlen(want));
	assert_memory_equal(in, want, n);
	free(in);
	/* CRLF ends alone are no bare CR: the bytes as they are */
	assert_int_equal(deliver_sendmail(script, 5000, "b@example.org", rcpts,
					  crlf, strlen(crlf), &res),
			 0);
	in = slurp("stdin", &n);
	assert_int_equal(n, strlen(crlf));
	assert_memory_equal(in, crlf, n);
	free(in);
	assert_no_children();
}

static void test_sendmail_failures(void **state)
{
	const char *rcpts[] = { "alice@example.org", NULL };
	const char *msg = "Subject: t\n\nbody\n";
	struct deliver_result res;

	set_mode("temp");
	assert_int_equal(deliver_sendmail(script, 5000, "b@example.org", rcpts,
					  msg, strlen(msg), &res),
			 -1);
	assert_int_equal(res.status, DELIVER_TEMPORARY);
	assert_int_equal(res.exit_status, 75);
	assert_string_equal(res.detail, "sendmail exit 75 (EX_TEMPFAIL): "
					"sendmail: fatal: queue file write "
					"error");

	set_mode("unavail");
	assert_int_equal(deliver_sendmail(script, 5000, "b@example.org", rcpts,
					  msg, strlen(msg), &res),
			 -1);
	assert_int_equal(res.status, DELIVER_PERMANENT);
	assert_int_equal(res.exit_status, 69);
	assert_non_null(strstr(res.detail, "EX_UNAVAILABLE"));

	set_mode("signal");
	assert_int_equal(deliver_sendmail(script, 5000, "b@example.org", rcpts,
					  msg, strlen(msg), &res),
			 -1);
	assert_int_equal(res.status, DELIVER_TEMPORARY);
	assert_int_equal(res.exit_status, 128 + SIGKILL);

	/* no such program: temporary (a configuration to fix, not a bounce) */
	assert_int_equal(deliver_sendmail("/nonexistent/sendmail", 5000,
					  "b@example.org", rcpts, msg,
					  strlen(msg), &res),
			 -1);
	assert_int_equal(res.status, DELIVER_TEMPORARY);
	assert_non_null(strstr(res.detail, "cannot execute"));
	assert_int_equal(deliver_sendmail("sendmail", 5000, "b@example.org",
					  rcpts, msg, strlen(msg), &res),
			 -1);
	assert_int_equal(res.status, DELIVER_TEMPORARY);
	assert_no_children();
}

static void test_sendmail_injection(void **state)
{
	const char *evil[] = { "alice@example.org\nbob@evil.org", NULL };
	const char *opt[] = { "-oQ/tmp@example.org", NULL };
	const char *good[] = { "alice@example.org", NULL };
	const char *none[] = { NULL };
	struct deliver_result res;
	size_t n;
	char *argv;

	set_mode("ok");
	assert_int_equal(deliver_sendmail(script, 5000, "b@example.org", evil,
					  "x\n", 2, &res),
			 -1);
	assert_int_equal(res.status, DELIVER_PERMANENT);
	/* the detail is one printable line even with hostile input */
	assert_null(strchr(res.detail, '\n'));
	assert_int_equal(deliver_sendmail(script, 5000, "b@example.org", opt,
					  "x\n", 2, &res),
			 -1);
	assert_int_equal(
		deliver_sendmail(script, 5000, "-bs", good, "x\n", 2, &res),
		-1);
	assert_int_equal(res.status, DELIVER_PERMANENT);
	assert_int_equal(deliver_sendmail(script, 5000, "b@example.org", none,
					  "x\n", 2, &res),
			 -1);
	/* none of these ran the program */
	argv = slurp("argv", &n);
	assert_null(argv);
}

static void test_sendmail_timeout_and_epipe(void **state)
{
	const char *rcpts[] = { "alice@example.org", NULL };
	struct strbuf big = STRBUF_INIT(8 << 20);
	struct deliver_result res;
	sigset_t pending;
	char *pid, path[64], *stat;
	size_t n, i;

	/* a hanging sendmail is killed, with what it started (the time
	 * allows the script to start its sleep on a loaded machine) */
	set_mode("hang");
	assert_int_equal(deliver_sendmail(script, 1500, "b@example.org", rcpts,
					  "x\n", 2, &res),
			 -1);
	assert_int_equal(res.status, DELIVER_TEMPORARY);
	assert_string_equal(res.detail, "sendmail timed out after 1500 ms");
	assert_no_children();
	pid = slurp("sleep.pid", &n);
	assert_non_null(pid);
	snprintf(path, sizeof(path), "/proc/%ld/stat", atol(pid));
	/* gone, or a zombie waiting for init: not running either way */
	for (i = 0; i < 100; i++) {
		if (read_file(path, 4096, &stat, &n) < 0)
			break;
		if (strstr(stat, ") Z ")) {
			free(stat);
			break;
		}
		free(stat);
		usleep(10000);
	}
	assert_true(i < 100);
	free(pid);

	/* a sendmail that exits 0 without reading: EPIPE, not SIGPIPE */
	for (i = 0; i < 20000; i++)
		sb_addf(&big, "line %zu of a large crash log\n", i);
	set_mode("noread");
	assert_int_equal(deliver_sendmail(script, 5000, "b@example.org", rcpts,
					  big.buf, big.len, &res),
			 -1);
	assert_int_equal(res.status, DELIVER_TEMPORARY);
	assert_non_null(strstr(res.detail, "exited before reading"));
	sigpending(&pending);
	assert_false(sigismember(&pending, SIGPIPE));
	assert_no_children();
	sb_release(&big);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_addr_valid),
		cmocka_unit_test(test_addr_parse),
		cmocka_unit_test(test_header_injection),
		cmocka_unit_test(test_header_folding),
		cmocka_unit_test(test_rfc2047),
		cmocka_unit_test(test_date),
		cmocka_unit_test(test_forward_golden),
		cmocka_unit_test(test_forward_subject_tag),
		cmocka_unit_test(test_forward_renames_ours),
		cmocka_unit_test(test_forward_reply_to),
		cmocka_unit_test(test_forward_crlf_and_from_line),
		cmocka_unit_test(test_forward_id_and_errors),
		cmocka_unit_test(test_loop_detection),
		cmocka_unit_test(test_message_reply_golden),
		cmocka_unit_test(test_message_encodings),
		cmocka_unit_test(test_message_errors),
		cmocka_unit_test(test_autoreply_rules),
		cmocka_unit_test(test_line_endings),
		cmocka_unit_test(test_backoff),
	};
	const struct CMUnitTest sendmail_tests[] = {
		cmocka_unit_test(test_sendmail_ok),
		cmocka_unit_test(test_sendmail_bare_cr),
		cmocka_unit_test(test_sendmail_failures),
		cmocka_unit_test(test_sendmail_injection),
		cmocka_unit_test(test_sendmail_timeout_and_epipe),
	};
	int rc;

	msg_setup("test_deliver", 1, false);
	setenv("TZ", "UTC", 1);
	tzset();
	rc = cmocka_run_group_tests_name("deliver", tests, NULL, NULL);
	rc |= cmocka_run_group_tests_name("sendmail", sendmail_tests,
					  sendmail_setup, sendmail_teardown);
	return rc;
}
