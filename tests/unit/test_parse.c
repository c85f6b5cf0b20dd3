// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_parse - intake (caps, draining, identity), sha256, mimetext and
 * parse: the MIME corpus in tests/corpus/mime, generated hostile input,
 * and every labelled report in ../shared when it is there.
 *
 * Each tests/corpus/mime/NNNN-slug.eml has a NNNN-slug.expect of
 * "key: value" lines (values take the escapes \n \r \t \\):
 *	flags: none | NAME...		report flags (truncated malformed
 *					html_only not_mime oversized)
 *	subject, from, from_addr:	exact ("" when empty)
 *	message_id, in_reply_to, date:	exact, "(none)" for NULL
 *	when, nheaders, nparts, sha256:	exact
 *	header.NAME:			first header of that name
 *	part.N.path|mime_type|filename|flags|len|raw_size: the Nth part
 *	part.N.contains|lacks, body.contains|lacks: substring (repeatable)
 *	body.sha256, body.len:		the body
 * An unknown key fails the test, so a typo cannot pass silently.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <gmime/gmime.h>

#include "intake.h"
#include "mimetext.h"
#include "parse.h"
#include "report.h"
#include "sha256.h"
#include "strbuf.h"
#include "util.h"

/* ---- helpers ---------------------------------------------------------- */

static const char *srcdir(void)
{
	const char *s = getenv("TRIAGE_SRCDIR");

	return s && *s ? s : ".";
}

static struct report *parse_text(const char *text, size_t len,
				 const struct intake_limits *lim)
{
	struct report *r = report_new();

	assert_int_equal(intake_read_buf(text, len, lim, r), 0);
	assert_int_equal(parse_report_limits(r, lim), 0);
	return r;
}

static struct report *parse_str(const char *text)
{
	return parse_text(text, strlen(text), NULL);
}

static bool clean_line(const char *s)
{
	return !s || (utf8_valid(s, strlen(s)) && !strpbrk(s, "\r\n"));
}

/* check_invariants - what parse promises for any input at all */
static void check_invariants(const struct report *r)
{
	size_t i, total = 0;

	assert_true(clean_line(r->subject));
	assert_true(clean_line(r->from));
	assert_true(clean_line(r->from_addr));
	assert_true(clean_line(r->message_id));
	assert_true(clean_line(r->in_reply_to));
	assert_true(clean_line(r->date));
	for (i = 0; i < r->nheaders; i++) {
		assert_true(clean_line(r->headers[i].name));
		assert_true(clean_line(r->headers[i].value));
	}
	assert_true(r->nparts <= PARSE_MAX_PARTS);
	for (i = 0; i < r->nparts; i++) {
		const struct report_part *p = &r->parts[i];

		assert_non_null(p->path);
		assert_true(clean_line(p->mime_type));
		assert_true(clean_line(p->filename));
		if (!p->text) {
			assert_false(p->flags & PART_TEXT);
			continue;
		}
		assert_true(p->flags & PART_TEXT);
		assert_true(utf8_valid(p->text, p->len));
		assert_null(memchr(p->text, '\0', p->len));
		assert_int_equal(p->text[p->len], '\0');
		total += p->len;
	}
	assert_true(total <= REPORT_TEXT_MAX);
	assert_non_null(r->body);
	assert_int_equal(strlen(r->body), r->body_len);
	assert_true(utf8_valid(r->body, r->body_len));
}

/* ---- sha256 ----------------------------------------------------------- */

static void test_sha256_vectors(void **state)
{
	char hex[SHA256_HEX_SIZE];
	char *mb = xmalloc(1000000);

	sha256_hex("", 0, hex);
	assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb924"
				 "27ae41e4649b934ca495991b7852b855");
	sha256_hex("abc", 3, hex);
	assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223"
				 "b00361a396177a9cb410ff61f20015ad");
	sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		   56, hex);
	assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039"
				 "a33ce45964ff2167f6ecedd419db06c1");
	/* FIPS 180-2's one million "a": a 1 MB message */
	memset(mb, 'a', 1000000);
	sha256_hex(mb, 1000000, hex);
	assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67"
				 "f1809a48a497200e046d39ccc7112cd0");
	free(mb);
}

static void test_sha256_incremental(void **state)
{
	char msg[300], one[SHA256_HEX_SIZE], split[SHA256_HEX_SIZE];
	size_t i, cut;

	for (i = 0; i < sizeof(msg); i++)
		msg[i] = (char)(i * 7 + 3);
	sha256_hex(msg, sizeof(msg), one);
	/* every split point, including block and padding edges */
	for (cut = 0; cut <= sizeof(msg); cut++) {
		struct sha256_ctx c;
		uint8_t d[SHA256_DIGEST_SIZE];

		sha256_init(&c);
		sha256_update(&c, msg, cut);
		sha256_update(&c, msg + cut, sizeof(msg) - cut);
		sha256_final(&c, d);
		sha256_to_hex(d, split);
		assert_string_equal(one, split);
	}
	/* lengths around the 55/56/64-byte padding boundaries */
	sha256_hex(msg, 55, one);
	sha256_hex(msg, 56, split);
	assert_string_not_equal(one, split);
}

/* ---- intake ----------------------------------------------------------- */

static const char small_mail[] = "From: A <a@example.org>\n"
				 "Subject: s\n"
				 "\n"
				 "body\n";

static void test_intake_from_line_and_identity(void **state)
{
	const char *with = "From a@example.org  Thu Dec  3 07:36:38 2026\n"
			   "From: A <a@example.org>\n"
			   "Subject: s\n"
			   "\n"
			   "body\n";
	struct report *a = report_new(), *b = report_new(), *c = report_new();
	char hex[SHA256_HEX_SIZE];

	assert_int_equal(intake_read_buf(with, strlen(with), NULL, a), 0);
	assert_int_equal(
		intake_read_buf(small_mail, strlen(small_mail), NULL, b), 0);
	/* the From_ line is gone and not part of the identity */
	assert_int_equal(a->raw_len, strlen(small_mail));
	assert_memory_equal(a->raw, small_mail, a->raw_len);
	assert_string_equal(a->sha256, b->sha256);
	sha256_hex(small_mail, strlen(small_mail), hex);
	assert_string_equal(a->sha256, hex);
	/* one byte more is another report */
	assert_int_equal(
		intake_read_buf(small_mail, strlen(small_mail) - 1, NULL, c),
		0);
	assert_string_not_equal(b->sha256, c->sha256);
	assert_int_equal(a->flags, 0);
	/* "From:" is a header, not a From_ line */
	assert_int_equal(intake_from_line("From: x\n", 8), 0);
	assert_int_equal(intake_from_line("From x\n", 7), 7);
	assert_int_equal(intake_from_line("From x", 6), 0);
	report_free(a);
	report_free(b);
	report_free(c);
}

/* test_intake_drains - over the cap, everything is still read */
static void test_intake_drains(void **state)
{
	struct intake_limits lim;
	struct report *r = report_new();
	int fds[2], status;
	pid_t pid;

	intake_limits_init(&lim);
	lim.max_bytes = 4096;
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* the MTA: 1 MB; a write error (EPIPE) would exit 1 */
		char chunk[8192];
		int i;

		signal(SIGPIPE, SIG_DFL);
		close(fds[0]);
		memset(chunk, 'x', sizeof(chunk));
		memcpy(chunk, "Subject: big\n\n", 14);
		for (i = 0; i < 128; i++)
			if (write(fds[1], chunk, sizeof(chunk)) !=
			    (ssize_t)sizeof(chunk))
				_exit(1);
		_exit(0);
	}
	close(fds[1]);
	assert_int_equal(intake_read_fd(fds[0], &lim, r), 0);
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(r->raw_len, 4096);
	assert_true(r->flags & REPORT_OVERSIZED);
	assert_int_equal(r->raw[r->raw_len], '\0');
	report_free(r);
}

static void test_intake_small_reads(void **state)
{
	struct report *r = report_new();
	int fds[2];

	/* an empty stdin is an empty, non-mail report */
	assert_int_equal(pipe(fds), 0);
	close(fds[1]);
	assert_int_equal(intake_read_fd(fds[0], NULL, r), 0);
	close(fds[0]);
	assert_int_equal(r->raw_len, 0);
	assert_true(r->flags & REPORT_NOT_MIME);
	assert_string_equal(r->sha256, "e3b0c44298fc1c149afbf4c8996fb924"
				       "27ae41e4649b934ca495991b7852b855");
	report_free(r);

	r = report_new();
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], small_mail, strlen(small_mail)),
			 (ssize_t)strlen(small_mail));
	close(fds[1]);
	assert_int_equal(intake_read_fd(fds[0], NULL, r), 0);
	close(fds[0]);
	assert_int_equal(r->raw_len, strlen(small_mail));
	assert_int_equal(r->flags, 0);
	report_free(r);

	/* a closed descriptor is an error the filter turns into a deferral */
	r = report_new();
	assert_int_equal(intake_read_fd(-1, NULL, r), -1);
	assert_null(r->raw);
	report_free(r);
}

static void test_intake_mail_or_log(void **state)
{
	static const struct {
		const char *text;
		bool mail;
	} cases[] = {
		{ "From: a@b\n\nx\n", true },
		{ "Received: from x\n\tby y\nSubject: s\n\nx\n", true },
		{ "X-Custom: 1\r\nMessage-ID: <a@b>\r\n\r\nx\r\n", true },
		{ "Subject : old syntax\n\nx\n", true },
		{ "To: bugs@example.org\n", true }, /* headers only */
		{ "[    0.000000] Linux version 6.12\n", false },
		{ "BUG: unable to handle page fault\nCPU: 0 PID: 1\n", false },
		{ "Oops: 0000 [#1] SMP\nRIP: 0010:x\n\nCall Trace:\n", false },
		{ "\nFrom: a@b\n", false },
		{ "", false },
		{ " From: continuation first\n", false },
		{ "\x00\x01\x02 binary", false },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct intake_scan s;

		intake_scan(cases[i].text, strlen(cases[i].text), NULL, &s);
		if (s.is_mail != cases[i].mail)
			fail_msg("case %zu: is_mail %d", i, s.is_mail);
	}
}

static char *repeat_lines(const char *head, const char *line, size_t n,
			  const char *tail, size_t *len)
{
	size_t hl = strlen(head), ll = strlen(line), tl = strlen(tail), i;
	char *buf = xmalloc(hl + ll * n + tl + 1), *p = buf;

	memcpy(p, head, hl);
	p += hl;
	for (i = 0; i < n; i++, p += ll)
		memcpy(p, line, ll);
	memcpy(p, tail, tl);
	p += tl;
	*p = '\0';
	*len = (size_t)(p - buf);
	return buf;
}

/* 700,000 header lines (9 MB): gmime would need 465 MB; only 1000 go in */
static void test_cap_header_flood(void **state)
{
	size_t len;
	char *text = repeat_lines("From: flood@example.org\n", "X-Flood: 1\n",
				  700000, "\nbody\n", &len);
	struct intake_scan s;
	struct report *r;

	intake_scan(text, len, NULL, &s);
	assert_true(s.is_mail);
	assert_int_equal(s.header_lines, 700001);
	assert_true(s.caps & INTAKE_CAP_HEADERS);
	r = parse_text(text, len, NULL);
	check_invariants(r);
	assert_true(r->flags & REPORT_OVERSIZED);
	assert_true(r->flags & REPORT_TRUNCATED);
	assert_int_equal(r->nheaders, INTAKE_MAX_HEADERS);
	assert_string_equal(r->from_addr, "flood@example.org");
	report_free(r);
	free(text);
}

/* 100,000 parts: gmime sees the first 500 boundaries only */
static void test_cap_part_flood(void **state)
{
	size_t len;
	char *text = repeat_lines("From: p@example.org\n"
				  "Content-Type: multipart/mixed; boundary=zz\n"
				  "\n",
				  "--zz\nContent-Type: text/plain\n\npart\n",
				  100000, "--zz--\n", &len);
	struct intake_scan s;
	struct report *r;

	intake_scan(text, len, NULL, &s);
	assert_int_equal(s.declared, 1);
	assert_int_equal(s.boundaries, 100001);
	assert_int_equal(s.part_headers, 100000);
	assert_true(s.caps & INTAKE_CAP_BOUNDARIES);
	assert_true(s.safe_len < len / 100);
	r = parse_text(text, len, NULL);
	check_invariants(r);
	assert_true(r->flags & REPORT_OVERSIZED);
	assert_int_equal(r->nparts, INTAKE_MAX_BOUNDARIES);
	/* the newline before a boundary belongs to the boundary */
	assert_string_equal(r->body, "part");
	report_free(r);
	free(text);
}

/* thousands of nested multiparts, each with its own boundary */
static void test_cap_deep_nesting(void **state)
{
	struct strbuf sb = STRBUF_INIT(8 << 20);
	struct intake_scan s;
	struct report *r;
	int i, depth = 5000;

	sb_adds(&sb, "From: deep@example.org\n"
		     "Content-Type: multipart/mixed; boundary=b0\n\n");
	for (i = 1; i < depth; i++)
		sb_addf(&sb,
			"--b%d\nContent-Type: multipart/mixed; boundary=b%d\n\n",
			i - 1, i);
	sb_addf(&sb, "--b%d\nContent-Type: text/plain\n\ndeepest\n", depth - 1);
	for (i = depth - 1; i >= 0; i--)
		sb_addf(&sb, "--b%d--\n", i);
	intake_scan(sb.buf, sb.len, NULL, &s);
	/* the depth cap cuts first; past the cut nothing more is learnt */
	assert_true(s.caps & INTAKE_CAP_DEPTH);
	assert_int_equal(s.depth, INTAKE_MAX_DEPTH + 1);
	r = parse_text(sb.buf, sb.len, NULL);
	check_invariants(r);
	assert_true(r->flags & REPORT_OVERSIZED);
	report_free(r);
	sb_release(&sb);
}

/* message/rfc822 nested past gmime's own 1024-level limit: cut at 64 */
static void test_deep_rfc822(void **state)
{
	size_t len;
	char *text = repeat_lines(
		"From: nest@example.org\n", "Content-Type: message/rfc822\n\n",
		3000, "Content-Type: text/plain\n\ninnermost\n", &len);
	struct report *r = parse_text(text, len, NULL);

	check_invariants(r);
	/* intake cuts it at INTAKE_MAX_DEPTH, before gmime's own limit */
	assert_true(r->flags & REPORT_OVERSIZED);
	report_free(r);
	free(text);
}

static void test_cap_long_header_line(void **state)
{
	size_t len;
	char *text = repeat_lines("From: long@example.org\nSubject: ", "A",
				  1 << 20, "\n\nbody\n", &len);
	struct intake_scan s;
	struct report *r;

	intake_scan(text, len, NULL, &s);
	assert_true(s.caps & INTAKE_CAP_HEADER_LINE);
	assert_int_equal(s.longest_line, (1 << 20) + 9);
	r = parse_text(text, len, NULL);
	check_invariants(r);
	assert_true(strlen(r->subject) < INTAKE_MAX_HEADER_LINE);
	assert_true(strlen(r->subject) > 1000);
	assert_string_equal(r->body, "body\n");
	report_free(r);
	free(text);
}

/* header lines inside a part, and inside a forwarded message */
static void test_cap_part_headers(void **state)
{
	size_t len;
	char *text = repeat_lines("From: ph@example.org\n"
				  "Content-Type: multipart/mixed; boundary=q\n"
				  "\n--q\nContent-Type: text/plain\n\nfirst\n"
				  "--q\nContent-Type: message/rfc822\n\n"
				  "Subject: inner\n",
				  "X-Inner: 1\n", 20000,
				  "\ninner body\n--q--\n", &len);
	struct intake_scan s;
	struct report *r;

	intake_scan(text, len, NULL, &s);
	assert_true(s.caps & INTAKE_CAP_PART_HEADERS);
	assert_int_equal(s.part_headers, 20003);
	r = parse_text(text, len, NULL);
	check_invariants(r);
	assert_true(r->flags & REPORT_OVERSIZED);
	assert_string_equal(r->body, "first");
	report_free(r);
	free(text);
}

/* "--" lines that are not boundaries never count */
static void test_no_false_caps(void **state)
{
	size_t len;
	char *text = repeat_lines(
		"From: log@example.org\n"
		"Content-Type: multipart/mixed; boundary=\"=_log\"\n\n"
		"--=_log\nContent-Type: text/plain\n\n",
		"------------[ cut here ]------------\n--- a/fs/x.c\n-- \n",
		2000, "--=_log--\n", &len);
	struct intake_scan s;
	struct report *r;

	intake_scan(text, len, NULL, &s);
	assert_int_equal(s.caps, 0);
	assert_int_equal(s.boundaries, 2);
	assert_int_equal(s.dash_lines, 6002);
	r = parse_text(text, len, NULL);
	check_invariants(r);
	assert_int_equal(r->flags, 0);
	assert_int_equal(r->nparts, 1);
	assert_int_equal(count_char(r->body, r->body_len, '\n'), 5999);
	report_free(r);
	free(text);
}

/* limits come from the caller (routes.conf later) */
static void test_custom_limits(void **state)
{
	struct intake_limits lim;
	struct report *r;
	const char *text = "From: c@example.org\n"
			   "X-1: 1\nX-2: 2\nX-3: 3\nX-4: 4\n"
			   "Content-Type: multipart/mixed; boundary=c\n\n"
			   "--c\n\none\n--c\n\ntwo\n--c\n\nthree\n--c--\n";

	intake_limits_init(&lim);
	r = parse_text(text, strlen(text), &lim);
	assert_int_equal(r->flags, 0);
	assert_int_equal(r->nheaders, 6);
	assert_int_equal(r->nparts, 3);
	report_free(r);

	lim.max_headers = 3;
	lim.max_boundaries = 2;
	r = parse_text(text, strlen(text), &lim);
	check_invariants(r);
	assert_true(r->flags & REPORT_OVERSIZED);
	assert_int_equal(r->nheaders, 3);
	assert_string_equal(r->from_addr, "c@example.org");
	report_free(r);

	/* the size cap: what is kept is hashed and parsed */
	intake_limits_init(&lim);
	lim.max_bytes = 30;
	r = parse_text(text, strlen(text), &lim);
	check_invariants(r);
	assert_int_equal(r->raw_len, 30);
	assert_true(r->flags & REPORT_OVERSIZED);
	assert_true(r->flags & REPORT_TRUNCATED);
	report_free(r);
}

/*
 * gmime_from - the From header of text as GMime writes it itself, each
 * domain through idn2 (what parse did before it skipped ASCII domains)
 */
static char *gmime_from(const char *text)
{
	GMimeStream *stream =
		g_mime_stream_mem_new_with_buffer(text, strlen(text));
	GMimeParser *parser = g_mime_parser_new_with_stream(stream);
	GMimeMessage *msg = g_mime_parser_construct_message(parser, NULL);
	char *s, *out;

	assert_non_null(msg);
	s = internet_address_list_to_string(g_mime_message_get_from(msg), NULL,
					    FALSE);
	out = xstrdup(s ? s : ""); /* none: NULL, and parse leaves "" */
	g_free(s);
	g_object_unref(msg);
	g_object_unref(parser);
	g_object_unref(stream);
	return out;
}

/* r->from is GMime's rendering of From, ASCII domains or not */
static void test_from_idn(void **state)
{
	static const char *const from[] = {
		"Dana Admin <dana@example.com>",
		"<Dana@EXAMPLE.Com>",
		"plain@Example.ORG",
		"\"Last, First\" <first.last@sub.example.net>",
		"x@XN--BCHER-KVA.example",
		"x@xn--bcher-kva.example",
		"x@xn--invalid--.example",
		"x@-lead.example",
		"x@under_score.example",
		"x@a..b.example",
		"x@example.com.",
		"x@[127.0.0.1]",
		"=?UTF-8?B?SsO8cmdlbg==?= <j@b\xc3\xbc"
		"cher.example>",
		"j@B\xc3\x9c"
		"CHER.example",
		"team: a@one.example, \"Q, R\" <r@two.example>;",
		"team: a@b\xc3\xbc"
		"cher.example;, c@three.example",
		"a@one.example, b@ex\xc3\xa4"
		"mple.org, c@TWO.example",
		"nodomain",
	};
	size_t i;

	for (i = 0; i < sizeof(from) / sizeof(from[0]); i++) {
		char *text =
			xasprintf("From: %s\nSubject: s\n\nbody\n", from[i]);
		char *want = gmime_from(text);
		struct report *r = parse_text(text, strlen(text), NULL);

		if (strcmp(r->from, want))
			fail_msg("From: %s: parsed \"%s\", GMime \"%s\"",
				 from[i], r->from, want);
		report_free(r);
		free(want);
		free(text);
	}
}

static void test_envelope(void **state)
{
	struct report *r = report_new();
	char long_addr[INTAKE_MAX_ADDRESS + 2];

	assert_int_equal(
		intake_envelope(r, "alice@example.org", "bugs@example.org"), 0);
	assert_string_equal(r->envelope_from, "alice@example.org");
	assert_string_equal(r->envelope_to, "bugs@example.org");
	/* the null sender of a bounce is kept as "" */
	assert_int_equal(intake_envelope(r, "", "bugs@example.org"), 0);
	assert_string_equal(r->envelope_from, "");
	/* CR/LF would become SMTP commands in libcurl 7.88 */
	assert_int_equal(intake_envelope(r, "a@b\r\nRSET", "bugs@x"), -1);
	assert_null(r->envelope_from);
	assert_string_equal(r->envelope_to, "bugs@x");
	assert_int_equal(intake_envelope(r, "<a@b>", NULL), -1);
	assert_null(r->envelope_from);
	assert_null(r->envelope_to);
	memset(long_addr, 'a', sizeof(long_addr) - 1);
	long_addr[sizeof(long_addr) - 1] = '\0';
	assert_int_equal(intake_envelope(r, long_addr, "x@y"), -1);
	assert_int_equal(intake_envelope(r, "caf\xc3@x", "x@y"), -1);

	setenv("SENDER", "reporter@example.org", 1);
	setenv("RECIPIENT", "bugs@localhost", 1);
	unsetenv("ORIGINAL_RECIPIENT");
	assert_int_equal(intake_envelope_env(r), 0);
	assert_string_equal(r->envelope_from, "reporter@example.org");
	assert_string_equal(r->envelope_to, "bugs@localhost");
	setenv("ORIGINAL_RECIPIENT", "bugs@example.org", 1);
	assert_int_equal(intake_envelope_env(r), 0);
	assert_string_equal(r->envelope_to, "bugs@example.org");
	setenv("CLIENT_ADDRESS", "198.51.100.23", 1);
	assert_int_equal(intake_envelope_env(r), 0);
	assert_string_equal(r->client_net, "198.51.100.0/24");
	unsetenv("SENDER");
	unsetenv("RECIPIENT");
	unsetenv("ORIGINAL_RECIPIENT");
	unsetenv("CLIENT_ADDRESS");
	assert_int_equal(intake_envelope_env(r), 0);
	assert_null(r->envelope_from);
	assert_null(r->envelope_to);
	assert_null(r->client_net);
	report_free(r);
}

/*
 * The client's network, what client_cap counts: a /24 or a /64, never
 * loopback or local mail, and nothing that is no address
 */
static void test_client_net(void **state)
{
	static const struct {
		const char *addr, *net;
		int rc;
	} cases[] = {
		{ "192.0.2.77", "192.0.2.0/24", 0 },
		{ "192.0.2.1", "192.0.2.0/24", 0 },
		{ "2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64", 0 },
		{ "2001:DB8:1:2::9", "2001:db8:1:2::/64", 0 },
		/* an IPv4-mapped address is its IPv4 network */
		{ "::ffff:203.0.113.9", "203.0.113.0/24", 0 },
		/* local mail: no network to count */
		{ "127.0.0.1", NULL, 0 },
		{ "127.9.9.9", NULL, 0 },
		{ "::1", NULL, 0 },
		{ "::", NULL, 0 },
		{ "0.0.0.0", NULL, 0 },
		{ "unknown", NULL, 0 },
		{ "", NULL, 0 },
		/* no address: refused, nothing kept */
		{ "192.0.2", NULL, -1 },
		{ "192.0.2.1/24", NULL, -1 },
		{ "[192.0.2.1]", NULL, -1 },
		{ "192.0.2.1\n", NULL, -1 },
		{ "host.example.org", NULL, -1 },
		{ "2001:db8::1::2", NULL, -1 },
		{ "2001:0db8:0000:0000:0000:0000:0000:0001:0000", NULL, -1 },
	};
	struct report *r = report_new();
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		/* a value left from before never survives */
		assert_int_equal(intake_client(r, "198.51.100.1"), 0);
		assert_int_equal(intake_client(r, cases[i].addr), cases[i].rc);
		if (cases[i].net)
			assert_string_equal(r->client_net, cases[i].net);
		else
			assert_null(r->client_net);
	}
	assert_int_equal(intake_client(r, NULL), 0);
	assert_null(r->client_net);
	report_free(r);
}

/* ---- a sendable copy --------------------------------------------------- */

/* sendable_msg - a multipart whose parts 2 and 3 cannot go out as they are */
static char *sendable_msg(size_t *len, bool long_header)
{
	struct strbuf sb = STRBUF_INIT(1 << 20);
	char line[1300];
	size_t i;

	memset(line, 'x', 1200);
	line[1200] = '\0';
	sb_addf(&sb,
		"From: Dana <dana@example.com>\n"
		"Subject: oops%s%s\n"
		"MIME-Version: 1.0\n"
		"Content-Type: multipart/mixed; boundary=\"b1\"\n\n"
		"--b1\nContent-Type: text/plain; charset=utf-8\n\n"
		"Hello, this part is fine.\n"
		"--b1\nContent-Type: text/plain; name=\"dmesg.txt\"\n"
		"Content-Disposition: attachment; filename=\"dmesg.txt\"\n"
		"Content-Transfer-Encoding: 8bit\n\n%s\nbefore a NUL ",
		long_header ? " " : "", long_header ? line : "", line);
	sb_add(&sb, "\0", 1);
	sb_adds(&sb, " after it\n"
		     "--b1\nContent-Type: application/octet-stream\n"
		     "Content-Transfer-Encoding: base64\n\n");
	/* base64 of 900 bytes on one line of 1200 */
	for (i = 0; i < 300; i++)
		sb_adds(&sb, "QUJD");
	sb_adds(&sb, "\n--b1--\n");
	*len = sb.len;
	return sb.buf;
}

/*
 * parse_sendable(): what approving a held NUL or over-long-line message
 * sends; each part decodes to what it was, only the bad ones re-encoded
 */
static void test_sendable(void **state)
{
	struct strbuf out = STRBUF_INIT(1 << 20);
	struct report *r, *back;
	size_t len, i;
	char *raw = sendable_msg(&len, false);

	r = parse_text(raw, len, NULL);
	assert_non_null(mimetext_unsendable(r->raw, r->raw_len));
	assert_int_equal(parse_sendable(r, &out), 0);
	assert_null(mimetext_unsendable(out.buf, out.len));
	/* the good part as it came, the NUL part base64 */
	assert_non_null(strstr(out.buf, "\n\nHello, this part is fine.\n"));
	assert_non_null(strstr(out.buf, "Content-Transfer-Encoding: base64"));
	assert_null(strstr(out.buf, "Content-Transfer-Encoding: 8bit"));
	back = parse_text(out.buf, out.len, NULL);
	assert_int_equal(back->nparts, r->nparts);
	assert_int_equal(r->nparts, 3);
	for (i = 0; i < r->nparts; i++) {
		assert_string_equal(back->parts[i].mime_type,
				    r->parts[i].mime_type);
		assert_int_equal(back->parts[i].len, r->parts[i].len);
		if (r->parts[i].text)
			assert_memory_equal(back->parts[i].text,
					    r->parts[i].text, r->parts[i].len);
	}
	assert_string_equal(back->subject, r->subject);
	report_free(back);
	report_free(r);
	free(raw);

	/* a header line that still cannot go out: no copy */
	sb_reset(&out);
	raw = sendable_msg(&len, true);
	r = parse_text(raw, len, NULL);
	assert_int_equal(parse_sendable(r, &out), 1);
	assert_int_equal(out.len, 0);
	report_free(r);
	free(raw);

	/* nothing to re-encode: no copy */
	r = parse_str("From: a@example.org\nSubject: s\n\nfine\n");
	assert_int_equal(parse_sendable(r, &out), 1);
	report_free(r);
	sb_release(&out);
}

/*
 * parse_sendable() and parse_report() open a message the same way
 * (loose RFC 2047, address and parameter parsing, fallback charsets):
 * the copy of a message with broken encoded words, loose addresses,
 * raw 8-bit and unquoted parameters keeps every header as it came,
 * only the bad part's Content-Transfer-Encoding and body re-encoded
 */
static void test_sendable_loose_headers(void **state)
{
	static const char head[] =
		"From: Dana Q. Public dana@example.com\n"
		"To: <john.doe.@example.org>, \"unterminated <x@example.org>\n"
		"Cc: =?utf-8?q?B=C3=A4r?= <baer@example.org>, =?bogus?x?y?=\n"
		"Subject: =?utf-8?q?broken_word =?iso-8859-1?B?////?= "
		"caf\xe9 =?utf-8?B?w6k=?=tail\n"
		"MIME-Version: 1.0\n"
		"Content-Type: multipart/mixed; boundary=b1; x=a b\n\n";
	static const char part1[] =
		"--b1\nContent-Type: text/plain; charset=utf-8; format=flowed\n\n"
		"Hello.\n";
	static const char part2_head[] =
		"--b1\nContent-Type: text/plain; name=my dmesg.txt\n"
		"Content-Disposition: attachment; filename=my dmesg.txt\n";
	struct strbuf in = STRBUF_INIT(1 << 16), out = STRBUF_INIT(1 << 16);
	struct report *r;
	const char *p;

	sb_adds(&in, head);
	sb_adds(&in, part1);
	sb_adds(&in, part2_head);
	sb_adds(&in, "Content-Transfer-Encoding: 8bit\n\nbefore a NUL ");
	sb_add(&in, "\0", 1);
	sb_adds(&in, " after\n--b1--\n");
	r = parse_text(in.buf, in.len, NULL);
	assert_int_equal(parse_sendable(r, &out), 0);
	assert_null(mimetext_unsendable(out.buf, out.len));
	/* the top-level headers and the good part byte for byte */
	assert_true(out.len > sizeof(head));
	assert_memory_equal(out.buf, head, sizeof(head) - 1);
	assert_non_null(strstr(out.buf, part1));
	/* the bad part's own headers too, its encoding changed */
	p = strstr(out.buf, part2_head);
	assert_non_null(p);
	p += strlen(part2_head);
	assert_true(!strncmp(p, "Content-Transfer-Encoding: base64\n\n", 35));
	report_free(r);
	sb_release(&in);
	sb_release(&out);
}

/* ---- mimetext --------------------------------------------------------- */

static char *decode_with(int (*fn)(struct strbuf *, const char *, size_t,
				   unsigned),
			 const char *in, size_t len, unsigned how, size_t max,
			 int *ret)
{
	struct strbuf sb = STRBUF_INIT(max);

	*ret = fn(&sb, in, len, how);
	return sb_detach(&sb, NULL);
}

static void test_mimetext_repair(void **state)
{
	int ret;
	char *s;

	s = decode_with(mimetext_repair,
			"a\0b\xff"
			"c\r\nd\re",
			10, MIMETEXT_LF, 100, &ret);
	assert_int_equal(ret, 0);
	assert_string_equal(s, "a\xef\xbf\xbd"
			       "b\xef\xbf\xbd"
			       "c\nd\ne");
	free(s);
	/* one U+FFFD per broken sequence; overlong and surrogates are broken */
	s = decode_with(mimetext_repair, "\xe2\x82|\xc0\xaf|\xed\xa0\x80", 9, 0,
			100, &ret);
	assert_true(utf8_valid(s, strlen(s)));
	assert_string_equal(s, "\xef\xbf\xbd|\xef\xbf\xbd\xef\xbf\xbd|"
			       "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	free(s);
	/* header values: one line, no terminal controls */
	s = decode_with(mimetext_repair, "a\tb\nc\x1b[31md\xc2\x9b", 13,
			MIMETEXT_LINE, 100, &ret);
	assert_string_equal(s, "a b c\xef\xbf\xbd[31md\xef\xbf\xbd");
	free(s);
	/* the cap cuts between characters, never inside one */
	s = decode_with(mimetext_repair, "ab\xc3\xa9\xc3\xa9", 6, 0, 5, &ret);
	assert_int_equal(ret, -1);
	assert_string_equal(s, "ab\xc3\xa9");
	free(s);
	assert_int_equal(mimetext_utf8_cut("ab\xe2\x82\xac", 5, 4), 2);
	assert_int_equal(mimetext_utf8_cut("ab\xe2\x82\xac", 5, 5), 5);
}

static void test_mimetext_charsets(void **state)
{
	int ret;
	char *s;

	s = decode_with(mimetext_cp1252, "caf\xe9 \x80 \x93q\x94 \x81", 12, 0,
			100, &ret);
	assert_string_equal(s, "caf\xc3\xa9 \xe2\x82\xac \xe2\x80\x9cq"
			       "\xe2\x80\x9d \xef\xbf\xbd");
	free(s);
	/* mostly UTF-8 stays UTF-8; mostly not is windows-1252 */
	assert_true(mimetext_utf8_mostly("caf\xc3\xa9 na\xc3\xafve \xff", 14));
	assert_false(mimetext_utf8_mostly("caf\xe9", 4));
	s = decode_with(mimetext_decode, "caf\xe9", 4, 0, 100, &ret);
	assert_string_equal(s, "caf\xc3\xa9");
	free(s);
	s = decode_with(mimetext_decode, "caf\xc3\xa9", 5, 0, 100, &ret);
	assert_string_equal(s, "caf\xc3\xa9");
	free(s);
	{
		size_t len;
		char *cfg = repeat_lines("\x1b[0m", "CONFIG_X=y\n\t# ok\n", 20,
					 "", &len);

		/* one escape in 300 bytes: a coloured log is still text */
		assert_true(mimetext_looks_text(cfg, len));
		assert_false(mimetext_looks_text("\x1b[0mCONFIG_X=y", 15));
		free(cfg);
	}
	assert_true(mimetext_looks_text("cut \xe2\x82", 6));
	assert_false(mimetext_looks_text("a\0b", 3));
	assert_false(mimetext_looks_text("\x01\x02\x03\x04", 4));
	assert_false(mimetext_looks_text("caf\xe9 au lait", 12));
}

static char *html(const char *in, size_t max, int *ret)
{
	struct strbuf sb = STRBUF_INIT(max);

	*ret = mimetext_html(&sb, in, strlen(in));
	return sb_detach(&sb, NULL);
}

static void test_mimetext_html(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "a<br>b<br/>c<BR >d", "a\nb\nc\nd" },
		{ "<p>one</p><p>two</p>", "one\n\ntwo" },
		{ "x<br><br><br><br>y", "x\n\ny" },
		{ "  lots   of\n\n space  ", "lots of space" },
		{ "<div>a</div><div>b</div>", "a\nb" },
		{ "<pre>\n  keep\n    this</pre>after",
		  "  keep\n    this\n\nafter" },
		{ "&lt;&gt;&amp;&quot;&#39;&#x41;&#66;&eacute;&unknown;",
		  "<>&\"'AB\xc3\xa9&unknown;" },
		{ "a&nbsp;&nbsp;b &#0; &#xD800; &#99999999999;",
		  "a  b \xef\xbf\xbd \xef\xbf\xbd \xef\xbf\xbd" },
		{ "<script>if (a<b) x();</script>ok<style>p{}</style>", "ok" },
		{ "<title>t</title><!-- c -->shown<!-- unclosed", "shown" },
		{ "<a href=\"x>y\">link</a> 3 < 4 <3", "link 3 < 4 <3" },
		{ "<ul><li>one<li>two</ul>", "- one\n- two" },
		{ "<table><tr><td>a</td><td>b</td></tr><tr><td>c</td></tr>",
		  "a b\nc" },
		{ "<p", "" },
		{ "&", "&" },
		{ "<script>never closed", "" },
	};
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		char *s = html(cases[i].in, 1000, &ret);

		if (strcmp(s, cases[i].out))
			fail_msg("case %zu: got \"%s\"", i, s);
		assert_int_equal(ret, 0);
		free(s);
	}
	/* bounded: a huge page is cut at the cap, on a character */
	{
		size_t len;
		char *big = repeat_lines("", "<p>\xc3\xa9t\xc3\xa9</p>", 100000,
					 "", &len);
		struct strbuf sb = STRBUF_INIT(1001);

		assert_int_equal(mimetext_html(&sb, big, len), -1);
		assert_true(sb.len <= 1001);
		assert_true(utf8_valid(sb.buf, sb.len));
		sb_release(&sb);
		free(big);
	}
}

/* what a style hides from the reader is not rendered, and its letters
 * are counted; what it only shapes is */
static void test_mimetext_html_hidden(void **state)
{
	static const struct {
		const char *in, *out;
		size_t hidden;
	} cases[] = {
		{ "<div style=\"display:none\">decoy</div>shown", "shown", 5 },
		{ "<DIV STYLE='Display : None; color:red'>decoy</DIV>shown",
		  "shown", 5 },
		/* nested elements of the same name stay hidden */
		{ "<div style=\"visibility:hidden\">a<div>b</div>c</div>d", "d",
		  3 },
		{ "<span style=\"font-size:0px\">x y</span>z", "z", 2 },
		{ "<p style=\"opacity:0\">gone</p>here", "here", 4 },
		{ "<div style=\"position:absolute; left:-9999px\">off</div>on",
		  "on", 3 },
		/* tags and entities are not letters: a preview's padding */
		{ "<div style=\"max-height:0\">&zwnj;&nbsp;<b>ab</b></div>c",
		  "c", 2 },
		/* shaped, not hidden */
		{ "<span style=\"font-size:0.9em\">small</span>", "small", 0 },
		{ "<span style=\"opacity:0.5\">dim</span>", "dim", 0 },
		{ "<div style=\"margin-left:-1000px\">kept</div>", "kept", 0 },
		{ "<div style=\"padding-top:-12px\">kept</div>", "kept", 0 },
		{ "<p>display:none is a style</p>", "display:none is a style",
		  0 },
		/* a hidden element without content hides nothing after it */
		{ "<img style=\"display:none\" src=x>after", "after", 0 },
		{ "<div style=\"display:none\"/>after", "after", 0 },
		/* never closed: hidden to the end */
		{ "a<div style=\"display:none\">rest", "a", 4 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct strbuf sb = STRBUF_INIT(1000);
		size_t hidden = 99;

		assert_int_equal(mimetext_html_hidden(&sb, cases[i].in,
						      strlen(cases[i].in),
						      &hidden),
				 0);
		if (strcmp(sb_str(&sb), cases[i].out) ||
		    hidden != cases[i].hidden)
			fail_msg("case %zu: got \"%s\", %zu hidden", i,
				 sb_str(&sb), hidden);
		sb_release(&sb);
	}
}

/* an HTML part that hides a sentence or more is PART_HIDDEN; one that
 * hides a newsletter's preview line is not */
static void test_parse_hidden_part(void **state)
{
	static const char head[] =
		"From: Shop <shop@example.com>\n"
		"Subject: offer\n"
		"MIME-Version: 1.0\n"
		"Content-Type: text/html; charset=utf-8\n\n"
		"<p>Your points expire today.</p><div style=\"display:none\">";
	char mail[1024];
	struct report *r;

	(void)state;
	snprintf(mail, sizeof(mail), "%s%s</div>", head,
		 "I took the dog for a walk earlier and the weather was "
		 "gorgeous; I hope it stays nice for the weekend because "
		 "the garden needs work.");
	r = parse_str(mail);
	assert_int_equal(r->nparts, 1);
	assert_true(r->parts[0].flags & PART_HIDDEN);
	assert_null(strstr(r->body, "dog"));
	report_free(r);
	snprintf(mail, sizeof(mail), "%s%s</div>", head, "Preview: points");
	r = parse_str(mail);
	assert_false(r->parts[0].flags & PART_HIDDEN);
	report_free(r);
}

static void *gz(const void *data, size_t len, size_t *out_len)
{
	z_stream zs;
	uLong bound;
	unsigned char *out;

	memset(&zs, 0, sizeof(zs));
	assert_int_equal(deflateInit2(&zs, 9, Z_DEFLATED, 16 + MAX_WBITS, 8,
				      Z_DEFAULT_STRATEGY),
			 Z_OK);
	bound = deflateBound(&zs, len) + 32;
	out = xmalloc(bound);
	zs.next_in = (unsigned char *)data;
	zs.avail_in = (unsigned)len;
	zs.next_out = out;
	zs.avail_out = (unsigned)bound;
	assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
	*out_len = zs.total_out;
	deflateEnd(&zs);
	return out;
}

static void test_mimetext_gunzip(void **state)
{
	const char *text = "[ 1.0] hello from a gzipped dmesg\n";
	size_t zlen, zlen2, n;
	char *z = gz(text, strlen(text), &zlen), *out, *two, *zeros;
	bool cut;

	assert_true(mimetext_is_gzip(z, zlen));
	assert_int_equal(mimetext_gunzip(z, zlen, 1000, &out, &n, &cut), 0);
	assert_false(cut);
	assert_string_equal(out, text);
	free(out);
	/* two members, as from "cat a.gz b.gz" */
	two = xmalloc(2 * zlen);
	memcpy(two, z, zlen);
	memcpy(two + zlen, z, zlen);
	assert_int_equal(mimetext_gunzip(two, 2 * zlen, 1000, &out, &n, &cut),
			 0);
	assert_int_equal(n, 2 * strlen(text));
	free(out);
	free(two);
	/* an input cut short keeps what inflated, flagged */
	assert_int_equal(mimetext_gunzip(z, zlen - 12, 1000, &out, &n, &cut),
			 0);
	assert_true(cut);
	assert_true(n < strlen(text) + 1);
	free(out);
	/* a bomb: 64 MB of zeros stops at max */
	zeros = xcalloc(64 << 20, 1);
	free(z);
	z = gz(zeros, 64 << 20, &zlen2);
	free(zeros);
	assert_true(zlen2 < (1 << 20));
	assert_int_equal(mimetext_gunzip(z, zlen2, 1 << 20, &out, &n, &cut), 0);
	assert_true(cut);
	assert_int_equal(n, 1 << 20);
	free(out);
	/* not gzip, and garbage after a gzip header */
	assert_int_equal(
		mimetext_gunzip("plain text here", 15, 100, &out, &n, &cut),
		-1);
	assert_int_equal(mimetext_gunzip("\x1f\x8b\x08\0\0\0\0\0\0\x03garbage!",
					 18, 100, &out, &n, &cut),
			 -1);
	free(z);
}

/* ---- the MIME corpus -------------------------------------------------- */

static char *unescape(const char *s)
{
	char *out = xmalloc(strlen(s) + 1), *p = out;

	for (; *s; s++) {
		if (*s != '\\' || !s[1]) {
			*p++ = *s;
			continue;
		}
		s++;
		*p++ = *s == 'n'   ? '\n'
		       : *s == 'r' ? '\r'
		       : *s == 't' ? '\t'
				   : *s;
	}
	*p = '\0';
	return out;
}

static const char *report_flag_names(unsigned f, char *buf, size_t n)
{
	static const struct {
		unsigned bit;
		const char *name;
	} names[] = {
		{ REPORT_TRUNCATED, "truncated" },
		{ REPORT_MALFORMED, "malformed" },
		{ REPORT_HTML_ONLY, "html_only" },
		{ REPORT_NOT_MIME, "not_mime" },
		{ REPORT_OVERSIZED, "oversized" },
	};
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (f & names[i].bit) {
			if (buf[0])
				strncat(buf, " ", n - strlen(buf) - 1);
			strncat(buf, names[i].name, n - strlen(buf) - 1);
		}
	return buf[0] ? buf : "none";
}

static const char *part_flag_names(unsigned f, char *buf, size_t n)
{
	static const struct {
		unsigned bit;
		const char *name;
	} names[] = {
		{ PART_TEXT, "text" },	   { PART_ATTACHMENT, "attachment" },
		{ PART_HTML, "html" },	   { PART_GZIP, "gzip" },
		{ PART_NESTED, "nested" }, { PART_TRUNCATED, "truncated" },
	};
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (f & names[i].bit) {
			if (buf[0])
				strncat(buf, " ", n - strlen(buf) - 1);
			strncat(buf, names[i].name, n - strlen(buf) - 1);
		}
	return buf[0] ? buf : "none";
}

static const char *or_none(const char *s)
{
	return s ? s : "(none)";
}

static const char *num(char buf[80], long long v)
{
	snprintf(buf, 80, "%lld", v);
	return buf;
}

static const char *hex(char buf[80], const char *text, size_t len)
{
	sha256_hex(text, len, buf);
	return buf;
}

/* check_key - one expectation; returns an error text or NULL */
static char *check_key(const struct report *r, const char *key,
		       const char *want)
{
	char buf[256], got_num[80];
	const char *got = NULL;
	const char *text = NULL;
	size_t text_len = 0, idx;
	const struct report_part *p = NULL;
	const char *sub = key;

	if (starts_with(key, "part.")) {
		char *end;

		idx = strtoul(key + 5, &end, 10);
		if (end == key + 5 || *end != '.' || idx < 1 || idx > r->nparts)
			return xasprintf("%s: no such part (%zu parts)", key,
					 r->nparts);
		p = &r->parts[idx - 1];
		sub = end + 1;
		text = p->text ? p->text : "";
		text_len = p->text ? p->len : 0;
	} else if (starts_with(key, "body.")) {
		sub = key + 5;
		text = r->body;
		text_len = r->body_len;
	}

	if (!strcmp(key, "flags"))
		got = report_flag_names(r->flags, buf, sizeof(buf));
	else if (!strcmp(key, "subject"))
		got = r->subject;
	else if (!strcmp(key, "from"))
		got = r->from;
	else if (!strcmp(key, "from_addr"))
		got = r->from_addr;
	else if (!strcmp(key, "message_id"))
		got = or_none(r->message_id);
	else if (!strcmp(key, "in_reply_to"))
		got = or_none(r->in_reply_to);
	else if (!strcmp(key, "date"))
		got = or_none(r->date);
	else if (!strcmp(key, "sha256"))
		got = r->sha256;
	else if (!strcmp(key, "when"))
		got = num(got_num, (long long)r->when);
	else if (!strcmp(key, "nheaders"))
		got = num(got_num, (long long)r->nheaders);
	else if (!strcmp(key, "nparts"))
		got = num(got_num, (long long)r->nparts);
	else if (starts_with(key, "header."))
		got = or_none(report_header(r, key + 7));
	else if (p && !strcmp(sub, "path"))
		got = p->path;
	else if (p && !strcmp(sub, "mime_type"))
		got = p->mime_type;
	else if (p && !strcmp(sub, "filename"))
		got = or_none(p->filename);
	else if (p && !strcmp(sub, "flags"))
		got = part_flag_names(p->flags, buf, sizeof(buf));
	else if (p && !strcmp(sub, "raw_size"))
		got = num(got_num, (long long)p->raw_size);
	else if (text && !strcmp(sub, "len"))
		got = num(got_num, (long long)text_len);
	else if (text && !strcmp(sub, "sha256"))
		got = hex(got_num, text, text_len);
	else if (text && !strcmp(sub, "contains"))
		return memmem(text, text_len, want, strlen(want))
			       ? NULL
			       : xasprintf("%s: \"%s\" not found", key, want);
	else if (text && !strcmp(sub, "lacks"))
		return !memmem(text, text_len, want, strlen(want))
			       ? NULL
			       : xasprintf("%s: \"%s\" found", key, want);
	else
		return xasprintf("unknown key '%s'", key);
	if (strcmp(got, want))
		return xasprintf("%s: want \"%s\", got \"%s\"", key, want, got);
	return NULL;
}

static int check_expect(const struct report *r, const char *path)
{
	char *text, *line, *save = NULL;
	unsigned lineno = 0;
	int failures = 0, checks = 0;

	assert_int_equal(read_file(path, 1 << 20, &text, NULL), 0);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *colon, *want, *err;

		lineno++;
		if (line[0] == '#' || line[0] == '\0')
			continue;
		colon = strchr(line, ':');
		if (!colon) {
			printf("%s:%u: not a key: value line\n", path, lineno);
			failures++;
			continue;
		}
		*colon = '\0';
		want = unescape(colon[1] == ' ' ? colon + 2 : colon + 1);
		err = check_key(r, line, want);
		checks++;
		if (err) {
			printf("%s:%u: %s\n", path, lineno, err);
			failures++;
			free(err);
		}
		free(want);
	}
	free(text);
	if (!checks) {
		printf("%s: no expectations\n", path);
		failures++;
	}
	return failures;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* list_eml - sorted *.eml paths in dir; returns the count */
static size_t list_eml(const char *dir, char ***out)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, alloc = 0;

	*out = NULL;
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (!ends_with(de->d_name, ".eml"))
			continue;
		ALLOC_GROW(names, n, alloc);
		names[n++] = xasprintf("%s/%s", dir, de->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_names);
	*out = names;
	return n;
}

static struct report *parse_file(const char *path)
{
	struct report *r = report_new();
	char *text;
	size_t len;

	assert_int_equal(read_file(path, 64 << 20, &text, &len), 0);
	assert_int_equal(intake_read_buf(text, len, NULL, r), 0);
	assert_int_equal(parse_report(r), 0);
	free(text);
	return r;
}

static void test_mime_corpus(void **state)
{
	char *dir = xasprintf("%s/tests/corpus/mime", srcdir());
	char **files;
	size_t n = list_eml(dir, &files), i;
	int failures = 0;

	if (!n)
		fail_msg("no messages in %s", dir);
	for (i = 0; i < n; i++) {
		struct report *r = parse_file(files[i]);
		char *expect = xasprintf("%.*s.expect",
					 (int)(strlen(files[i]) - 4), files[i]);

		check_invariants(r);
		failures += check_expect(r, expect);
		report_free(r);
		free(expect);
		free(files[i]);
	}
	free(files);
	printf("# mime corpus: %zu messages, %d failed expectations\n", n,
	       failures);
	free(dir);
	assert_int_equal(failures, 0);
}

/* ---- generated hostile input ------------------------------------------ */

static uint32_t rnd_state = 12345;

static uint32_t rnd(void)
{
	/* xorshift32: deterministic, so a failure reproduces */
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 17;
	rnd_state ^= rnd_state << 5;
	return rnd_state;
}

/* mutate - flip, drop, duplicate or splice MIME-ish tokens into text */
static char *mutate(const char *in, size_t len, size_t *out_len)
{
	static const char *const tokens[] = {
		"\n--",
		"\r\n",
		"\0",
		"=?utf-8?b?",
		"=?x?q?=FF=",
		"Content-Type: multipart/mixed; boundary=\"\"\n",
		"Content-Transfer-Encoding: base64\n",
		"Content-Type: message/rfc822\n\n",
		"charset=\"utf-7\"",
		"\xff\xfe\xc3",
		"=\n",
		"<br><pre>&#x110000;",
		"\n\n",
	};
	size_t cap = len * 2 + 256, n = 0, i = 0;
	char *out = xmalloc(cap + 1);
	int edits = 1 + (int)(rnd() % 8);
	size_t *at = xcalloc((size_t)edits, sizeof(*at));
	int e;

	for (e = 0; e < edits; e++)
		at[e] = len ? rnd() % len : 0;
	while (i < len && n < cap - 64) {
		bool edited = false;

		for (e = 0; e < edits && n < cap - 64; e++) {
			const char *t;

			if (at[e] != i)
				continue;
			edited = true;
			switch (rnd() % 4) {
			case 0: /* flip a byte */
				out[n++] = (char)(in[i] ^ (1 << (rnd() % 8)));
				break;
			case 1: /* drop a span */
				i += rnd() % 32;
				break;
			case 2: /* insert a token */
				t = tokens[rnd() % ARRAY_SIZE(tokens)];
				if (!*t)
					out[n++] = '\0';
				else {
					memcpy(out + n, t, strlen(t));
					n += strlen(t);
				}
				break;
			default: /* truncate here */
				i = len;
				break;
			}
		}
		if (i < len && !edited)
			out[n++] = in[i];
		i++;
	}
	free(at);
	out[n] = '\0';
	*out_len = n;
	return out;
}

static void test_hostile_mutations(void **state)
{
	char *dir = xasprintf("%s/tests/corpus/mime", srcdir());
	char **files;
	size_t n = list_eml(dir, &files), i, runs = 0;
	int k;

	assert_true(n > 0);
	for (i = 0; i < n; i++) {
		char *text;
		size_t len;

		assert_int_equal(read_file(files[i], 1 << 20, &text, &len), 0);
		for (k = 0; k < 40; k++) {
			size_t mlen;
			char *m = mutate(text, len, &mlen);
			struct report *r = parse_text(m, mlen, NULL);

			check_invariants(r);
			report_free(r);
			free(m);
			runs++;
		}
		free(text);
		free(files[i]);
	}
	free(files);
	free(dir);
	printf("# hostile mutations: %zu parsed\n", runs);
}

/*
 * base64 bodies: well-formed ones are decoded in place (parse.c's own
 * decoder), anything else by GMime; both give the same text
 */
static void test_base64_forms(void **state)
{
	static const struct {
		const char *body, *text;
	} v[] = {
		{ "bGluZSBvbmUK\r\nbGluZSB0d28K\r\n", "line one\nline two\n" },
		{ "YWJj ZA==\n", "abcd" },
		{ "YWJjZGU=\n\n", "abcde" },
		{ "YWJjZA\n", "abc" },	   /* no padding: GMime drops "ZA" */
		{ "YW#JjZA==\n", "abcd" }, /* a stray character: GMime's */
		{ "YQ==YQ==\n", "a" },	   /* data after the padding */
		{ "\n", "" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(v); i++) {
		char *msg = xasprintf(
			"From: a@b\nContent-Type: text/plain; charset=utf-8\n"
			"Content-Transfer-Encoding: base64\n\n%s",
			v[i].body);
		struct report *r = parse_str(msg);

		assert_int_equal(r->nparts, 1);
		assert_non_null(r->parts[0].text);
		assert_string_equal(r->parts[0].text, v[i].text);
		report_free(r);
		free(msg);
	}
}

static void test_hostile_shapes(void **state)
{
	static const char *const cases[] = {
		/* boundary is a prefix of another, empty boundary */
		"From: a@b\nContent-Type: multipart/mixed; boundary=a\n\n"
		"--a\nContent-Type: multipart/mixed; boundary=ab\n\n--ab\n\nx\n"
		"--a\n\ny\n--ab--\n--a--\n",
		"From: a@b\nContent-Type: multipart/mixed; boundary=\"\"\n\n"
		"--\n\nx\n----\n",
		/* conflicting headers */
		"From: a@b\nContent-Type: text/plain\nContent-Type: text/html\n"
		"Content-Transfer-Encoding: base64\n"
		"Content-Transfer-Encoding: quoted-printable\n\n=41=4\n",
		/* a parameter flood and a long non-ASCII parameter (#165) */
		"From: a@b\nContent-Type: text/plain; a=1; a=2; a=3; a=4; "
		"charset*=utf-8''%C3%A9%C3; "
		"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		"*=utf-8''%E2%82%AC%E2%82%AC%E2%82%AC\n\nbody\n",
		/* uuencode, yenc-ish and an unknown encoding */
		"From: a@b\nContent-Transfer-Encoding: x-uuencode\n\n"
		"begin 644 f\n#86)C\n`\nend\n",
		"From: a@b\nContent-Transfer-Encoding: x-bogus\n\nraw\n",
		/* address soup */
		"From: \"unterminated <a@b>, ,,, <<>> @@@, g: ; =?utf-8?q?=FF?=\n"
		"Subject: =?utf-8?q?=00=1b[2J?= =?bogus?b?////?=\n\nx\n",
		/* a gzip magic on a text part and a bad gzip attachment */
		"From: a@b\nContent-Type: application/gzip\n"
		"Content-Transfer-Encoding: base64\n\nH4sIAAAAAAAAA/////8=\n",
		/* dates */
		"From: a@b\nDate: Mon, 99 Foo 99999 99:99:99 +9999\n\nx\n",
		"From: a@b\nDate: \n\nx\n",
		/* headers only, no newline at the end */
		"From: a@b\nSubject: x",
		/* CR-only line ends */
		"From: a@b\rSubject: x\r\rbody\r",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct report *r = parse_str(cases[i]);

		check_invariants(r);
		report_free(r);
	}
	/* random bytes, some starting like mail */
	for (i = 0; i < 200; i++) {
		size_t len = rnd() % 4096, j;
		char *buf = xmalloc(len + 16);
		struct report *r;

		for (j = 0; j < len; j++)
			buf[j] = (char)rnd();
		if (i % 2 && len > 10)
			memcpy(buf, "From: a@b\n", 10);
		r = parse_text(buf, len, NULL);
		check_invariants(r);
		report_free(r);
		free(buf);
	}
}

/* ---- parse details not covered by the corpus -------------------------- */

/* runs first, before any parse_init() */
/*
 * test_scan_once - the filter's path (intake_read_fd_scan, then
 * parse_report_scanned with intake's pre-scan) gives the same report as
 * parsing with a scan of its own, over the MIME and hostile corpora,
 * with the default limits and with limits small enough to cap many
 */
static void same_report(const struct report *a, const struct report *b,
			const char *name)
{
	size_t i;

	if (a->flags != b->flags || a->nparts != b->nparts ||
	    a->nheaders != b->nheaders || a->body_len != b->body_len ||
	    strcmp(a->subject, b->subject) || strcmp(a->from, b->from) ||
	    memcmp(a->body ? a->body : "", b->body ? b->body : "", a->body_len))
		fail_msg("%s: the two paths parse differently", name);
	for (i = 0; i < a->nparts; i++)
		if (a->parts[i].len != b->parts[i].len ||
		    a->parts[i].flags != b->parts[i].flags ||
		    memcmp(a->parts[i].text ? a->parts[i].text : "",
			   b->parts[i].text ? b->parts[i].text : "",
			   a->parts[i].len))
			fail_msg("%s: part %zu differs", name, i);
}

static void test_scan_once(void **state)
{
	static const char *const dirs[] = { "mime", "hostile", "explain" };
	size_t d, i, n, total = 0, capped = 0;

	(void)state;
	for (d = 0; d < ARRAY_SIZE(dirs); d++) {
		char *dir = xasprintf("%s/tests/corpus/%s", srcdir(), dirs[d]);
		char **files;

		n = list_eml(dir, &files);
		for (i = 0; i < n; i++) {
			int tight;

			for (tight = 0; tight < 2; tight++) {
				struct intake_limits lim;
				struct intake_scan scan;
				struct report *a = report_new();
				struct report *b = report_new();
				char *text;
				size_t len;
				int fd;

				intake_limits_init(&lim);
				if (tight) {
					lim.max_headers = 8;
					lim.max_boundaries = 3;
					lim.max_part_headers = 6;
					lim.max_depth = 1;
				}
				assert_int_equal(read_file(files[i], 64 << 20,
							   &text, &len),
						 0);
				assert_int_equal(
					intake_read_buf(text, len, &lim, a), 0);
				assert_int_equal(parse_report_limits(a, &lim),
						 0);
				fd = open(files[i], O_RDONLY);
				assert_true(fd >= 0);
				assert_int_equal(
					intake_read_fd_scan(fd, &lim, b, &scan),
					0);
				close(fd);
				assert_int_equal(
					parse_report_scanned(b, &lim, &scan),
					0);
				same_report(a, b, files[i]);
				total++;
				capped += !!(b->flags & REPORT_OVERSIZED);
				report_free(a);
				report_free(b);
				free(text);
			}
			free(files[i]);
		}
		free(files);
		free(dir);
	}
	printf("# scan once: %zu parses compared, %zu capped\n", total, capped);
	assert_true(total >= 80); /* the three corpora, twice */
	assert_true(capped >= 5); /* the tight limits were reached */
}

static void test_parse_requires_init(void **state)
{
	struct report *r = report_new();

	assert_int_equal(
		intake_read_buf(small_mail, strlen(small_mail), NULL, r), 0);
	assert_int_equal(parse_report(r), -1);
	assert_int_equal(parse_init(), 0);
	assert_int_equal(parse_init(), 0); /* idempotent */
	assert_int_equal(parse_report(r), 0);
	assert_string_equal(r->subject, "s");
	report_free(r);

	r = report_new();
	assert_int_equal(parse_report(r), -1); /* no raw */
	report_free(r);
}

static void test_text_budget(void **state)
{
	/* three 2 MB text parts: the third does not fit REPORT_TEXT_MAX */
	struct strbuf sb = STRBUF_INIT(16 << 20);
	struct report *r;
	size_t i, total = 0;
	int k;

	sb_adds(&sb, "From: big@example.org\n"
		     "Content-Type: multipart/mixed; boundary=big\n\n");
	for (k = 0; k < 3; k++) {
		sb_adds(&sb, "--big\nContent-Type: text/plain\n\n");
		for (i = 0; i < (2u << 20) / 64; i++)
			sb_adds(&sb, "0123456789012345678901234567890123456789"
				     "01234567890123456789012\n");
	}
	sb_adds(&sb, "--big--\n");
	r = parse_text(sb.buf, sb.len, NULL);
	check_invariants(r);
	assert_int_equal(r->nparts, 3);
	for (i = 0; i < r->nparts; i++)
		total += r->parts[i].len;
	assert_int_equal(total, REPORT_TEXT_MAX);
	assert_true(r->flags & REPORT_TRUNCATED);
	assert_false(r->parts[0].flags & PART_TRUNCATED);
	assert_true(r->parts[2].flags & PART_TRUNCATED);
	report_free(r);
	sb_release(&sb);
}

static char *base64(const unsigned char *p, size_t n)
{
	static const char a[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		"0123456789+/";
	char *out = xmalloc(n / 3 * 4 + 8), *o = out;
	size_t i;

	for (i = 0; i + 2 < n; i += 3) {
		*o++ = a[p[i] >> 2];
		*o++ = a[((p[i] & 3) << 4) | (p[i + 1] >> 4)];
		*o++ = a[((p[i + 1] & 15) << 2) | (p[i + 2] >> 6)];
		*o++ = a[p[i + 2] & 63];
	}
	if (i < n) {
		*o++ = a[p[i] >> 2];
		if (i + 1 < n) {
			*o++ = a[((p[i] & 3) << 4) | (p[i + 1] >> 4)];
			*o++ = a[(p[i + 1] & 15) << 2];
		} else {
			*o++ = a[(p[i] & 3) << 4];
			*o++ = '=';
		}
		*o++ = '=';
	}
	*o = '\0';
	return out;
}

/* gzip data labelled text/plain is inflated, not mangled as text */
static void test_gzip_labelled_text(void **state)
{
	const char *log = "[ 5.0] EXT4-fs (sda1): mounted filesystem\n";
	size_t zlen;
	unsigned char *z = gz(log, strlen(log), &zlen);
	char *b64 = base64(z, zlen);
	char *text = xasprintf("From: a@example.org\n"
			       "Content-Type: text/plain; name=dmesg.gz\n"
			       "Content-Transfer-Encoding: base64\n\n%s\n",
			       b64);
	struct report *r = parse_str(text);

	check_invariants(r);
	assert_int_equal(r->nparts, 1);
	assert_true(r->parts[0].flags & PART_GZIP);
	assert_string_equal(r->parts[0].text, log);
	assert_string_equal(r->body, log);
	report_free(r);
	free(text);
	free(b64);
	free(z);
}

/* ---- the labelled reports in ../shared -------------------------------- */

static char *shared_dir(void)
{
	const char *env = getenv("TRIAGE_SHARED");

	if (env && *env)
		return xstrdup(env);
	return xasprintf("%s/../shared", srcdir());
}

static void test_shared_reports(void **state)
{
	static const char *const classes[] = { "user", "fuzzer", "ai" };
	char *shared = shared_dir();
	size_t total = 0, ok = 0, flagged[5] = { 0 }, c, i, b;
	double t0, spent = 0;

	if (!is_dir(shared)) {
		printf("# %s is absent: skipping the shared-report test\n",
		       shared);
		free(shared);
		skip();
	}
	for (c = 0; c < ARRAY_SIZE(classes); c++) {
		char *dir =
			xasprintf("%s/corpus/reports/%s", shared, classes[c]);
		char **files;
		size_t n = list_eml(dir, &files);

		for (i = 0; i < n; i++) {
			struct report *r;

			t0 = now_seconds();
			r = parse_file(files[i]);
			spent += now_seconds() - t0;
			check_invariants(r);
			total++;
			if (r->body_len &&
			    strspn(r->body, " \t\n") < r->body_len)
				ok++;
			else
				printf("# %s: empty body\n", files[i]);
			for (b = 0; b < 5; b++)
				if (r->flags & (1u << b))
					flagged[b]++;
			report_free(r);
			free(files[i]);
		}
		free(files);
		free(dir);
	}
	free(shared);
	printf("# parsed %zu/%zu shared reports (non-empty UTF-8 body), "
	       "%.2f ms each\n",
	       ok, total, total ? spent * 1000 / (double)total : 0.0);
	printf("# shared report flags: truncated %zu, malformed %zu, "
	       "html_only %zu, not_mime %zu, oversized %zu\n",
	       flagged[0], flagged[1], flagged[2], flagged[3], flagged[4]);
	assert_true(total >= 163);
	assert_int_equal(ok, total);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_requires_init),
		cmocka_unit_test(test_scan_once),
		cmocka_unit_test(test_sha256_vectors),
		cmocka_unit_test(test_sha256_incremental),
		cmocka_unit_test(test_intake_from_line_and_identity),
		cmocka_unit_test(test_intake_drains),
		cmocka_unit_test(test_intake_small_reads),
		cmocka_unit_test(test_intake_mail_or_log),
		cmocka_unit_test(test_cap_header_flood),
		cmocka_unit_test(test_cap_part_flood),
		cmocka_unit_test(test_cap_deep_nesting),
		cmocka_unit_test(test_deep_rfc822),
		cmocka_unit_test(test_cap_long_header_line),
		cmocka_unit_test(test_cap_part_headers),
		cmocka_unit_test(test_no_false_caps),
		cmocka_unit_test(test_custom_limits),
		cmocka_unit_test(test_envelope),
		cmocka_unit_test(test_from_idn),
		cmocka_unit_test(test_client_net),
		cmocka_unit_test(test_sendable),
		cmocka_unit_test(test_sendable_loose_headers),
		cmocka_unit_test(test_mimetext_repair),
		cmocka_unit_test(test_mimetext_charsets),
		cmocka_unit_test(test_mimetext_html),
		cmocka_unit_test(test_mimetext_html_hidden),
		cmocka_unit_test(test_parse_hidden_part),
		cmocka_unit_test(test_mimetext_gunzip),
		cmocka_unit_test(test_mime_corpus),
		cmocka_unit_test(test_base64_forms),
		cmocka_unit_test(test_hostile_shapes),
		cmocka_unit_test(test_hostile_mutations),
		cmocka_unit_test(test_text_budget),
		cmocka_unit_test(test_gzip_labelled_text),
		cmocka_unit_test(test_shared_reports),
	};

	int ret;

	msg_setup("test_parse", 1, false);
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	parse_shutdown();
	if (parse_init() != -1) /* gmime cannot start twice */
		ret = 1;
	return ret;
}
