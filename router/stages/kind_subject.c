// SPDX-License-Identifier: GPL-2.0-only
/*
 * kind_subject - reading a subject: its reply and forward prefixes, its
 * "[...]" tags, its title, and a release announcement's title (see
 * kind.h)
 */
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "kind.h"
#include "util.h"

static const char *skip_blank(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/*
 * A forward is no reply: someone passing a report on to the bugs alias
 * sends a new report.
 */
size_t kind_subject_prefix(const char *p, bool *reply)
{
	static const struct {
		const char *text;
		bool reply;
	} pre[] = {
		{ "re:", true },
		{ "aw:", true },
		{ "sv:", true },
		{ "vs:", true },
		{ "odp:", true },
		{ "r:", true },
		{ "antw:", true },
		{ "fwd:", false },
		{ "fw:", false },
		{ "wg:", false },
		{ "tr:", false },
		/* 回复: 答复: as UTF-8, with an ASCII or a full-width colon */
		{ "\xe5\x9b\x9e\xe5\xa4\x8d:", true },
		{ "\xe7\xad\x94\xe5\xa4\x8d:", true },
		{ "\xe5\x9b\x9e\xe5\xa4\x8d\xef\xbc\x9a", true },
		{ "\xe7\xad\x94\xe5\xa4\x8d\xef\xbc\x9a", true },
		/* 转发: a forward */
		{ "\xe8\xbd\xac\xe5\x8f\x91:", false },
		{ "\xe8\xbd\xac\xe5\x8f\x91\xef\xbc\x9a", false },
	};
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(pre); i++) {
		n = strlen(pre[i].text);
		if (!strncasecmp(p, pre[i].text, n)) {
			*reply = pre[i].reply;
			return n;
		}
	}
	return 0;
}

void kind_subject_tags(const char *subject, char *buf, size_t size,
		       unsigned *replies)
{
	const char *p = skip_blank(subject ? subject : "");
	size_t used = 0, n;
	const char *e;
	bool reply;

	*replies = 0;
	if (size)
		buf[0] = '\0';
	for (;;) {
		if ((n = kind_subject_prefix(p, &reply))) {
			*replies += reply;
			p = skip_blank(p + n);
			continue;
		}
		if (*p != '[' || !(e = strchr(p, ']')))
			break;
		n = (size_t)(e - p - 1);
		if (size && used + n + 2 <= size) {
			if (used)
				buf[used++] = '|';
			memcpy(buf + used, p + 1, n);
			used += n;
			buf[used] = '\0';
		}
		p = skip_blank(e + 1);
	}
}

const char *kind_subject_rest(const char *subject)
{
	const char *p = skip_blank(subject ? subject : "");
	const char *e;
	size_t n;
	bool reply;

	for (;;) {
		if ((n = kind_subject_prefix(p, &reply)))
			p = skip_blank(p + n);
		else if (*p == '[' && (e = strchr(p, ']')))
			p = skip_blank(e + 1);
		else
			return p;
	}
}

const char *kind_subject_title(const char *subject)
{
	const char *p = kind_subject_rest(subject);

	return strncmp(p, "New: ", 5) ? p : skip_blank(p + 5);
}

/* version - [p, e) is a version: "1.0-rc2", "v2.3", "4.6.0", "6.18-rc3" */
static bool version(const char *p, const char *e)
{
	static const char *const tails[] = { "rc", "beta", "alpha", "pre" };
	size_t i, n, dots = 0;

	if (p < e && (*p == 'v' || *p == 'V'))
		p++;
	if (p == e || !isdigit((unsigned char)*p))
		return false;
	while (p < e && (isdigit((unsigned char)*p) ||
			 (*p == '.' && p + 1 < e &&
			  isdigit((unsigned char)p[1]) && ++dots)))
		p++;
	if (!dots)
		return false;
	if (p < e && (*p == '-' || *p == '.' || *p == '~'))
		p++;
	else if (p == e)
		return true;
	for (i = 0; i < ARRAY_SIZE(tails); i++) {
		n = strlen(tails[i]);
		if ((size_t)(e - p) >= n && !strncasecmp(p, tails[i], n))
			break;
	}
	if (i == ARRAY_SIZE(tails))
		return false;
	for (p += n; p < e && isdigit((unsigned char)*p); p++)
		;
	return p == e;
}

bool kind_subject_release(const char *rest)
{
	const char *p = skip_blank(rest ? rest : ""), *name, *e;

	name = p;
	if (!isalpha((unsigned char)*p))
		return false;
	while (*p && (isalnum((unsigned char)*p) || strchr("._+-", *p)))
		p++;
	if (*p != ' ' || p - name < 2)
		return false;
	p = skip_blank(p);
	e = p + strcspn(p, " \t\r\n");
	if (*skip_blank(e))
		return false; /* more than a name and a version */
	return version(p, e);
}

/* ---- what a question shows of a system ---------------------------------- */

static bool word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* a printk timestamp at p: "[   12.345678]" */
static bool at_timestamp(const char *p, const char *e)
{
	const char *q = p + 1;

	while (q < e && *q == ' ')
		q++;
	if (q >= e || !isdigit((unsigned char)*q))
		return false;
	while (q < e && isdigit((unsigned char)*q))
		q++;
	if (q >= e || *q != '.' || q + 1 >= e || !isdigit((unsigned char)q[1]))
		return false;
	for (q++; q < e && isdigit((unsigned char)*q); q++)
		;
	return q < e && *q == ']';
}

/* the version prefix that ends just before p: "v", "linux-", "kernel " */
static bool version_prefix(const char *s, const char *p)
{
	static const char *const pre[] = { "linux-", "linux ", "kernel-",
					   "kernel " };
	size_t i, n;

	if (p > s && (p[-1] == 'v' || p[-1] == 'V'))
		return p - 1 == s || !word_char(p[-2]);
	for (i = 0; i < ARRAY_SIZE(pre); i++) {
		n = strlen(pre[i]);
		if ((size_t)(p - s) >= n && !strncasecmp(p - n, pre[i], n) &&
		    (p - n == s || !word_char(p[-(ptrdiff_t)n - 1])))
			return true;
	}
	return false;
}

/*
 * a kernel version at p: "6.12", "v6.1", "Linux 5.4", "6.19-rc2",
 * "5.10.8" (3 to 6, a two-digit minor, or a prefix, an -rc or a patch
 * level for a one-digit one: "USB 3.0" is none)
 */
static bool at_version(const char *s, const char *p, const char *e)
{
	const char *q = p + 2;
	size_t minor = 0;

	if (*p < '3' || *p > '6' || p + 2 >= e || p[1] != '.')
		return false;
	if (p > s && (word_char(p[-1]) || p[-1] == '.') &&
	    !((p[-1] == 'v' || p[-1] == 'V') &&
	      (p - 1 == s || !word_char(p[-2]))))
		return false;
	while (q < e && isdigit((unsigned char)*q) && minor < 3) {
		q++;
		minor++;
	}
	if (!minor || minor > 2 || (q < e && word_char(*q)))
		return false;
	return minor == 2 || version_prefix(s, p) ||
	       (e - q >= 3 && !strncmp(q, "-rc", 3)) ||
	       (e - q >= 2 && q[0] == '.' && isdigit((unsigned char)q[1]));
}

/* a PCI or USB device id at p: "8086:7d1a", "0582:0120" */
static bool at_device_id(const char *s, const char *p, const char *e)
{
	int i;

	if (e - p < 9 || (p > s && (word_char(p[-1]) || p[-1] == ':')) ||
	    p[4] != ':' || (e - p > 9 && (word_char(p[9]) || p[9] == ':')))
		return false;
	for (i = 0; i < 9; i++)
		if (i != 4 && !isxdigit((unsigned char)p[i]))
			return false;
	return true;
}

/* "()" at p after a name of four characters or more: "probe_one()" */
static bool at_call(const char *s, const char *p, const char *e)
{
	const char *b = p;

	if (e - p < 2 || p[1] != ')')
		return false;
	while (b > s && word_char(b[-1]))
		b--;
	return p - b >= 4 && !isdigit((unsigned char)*b);
}

/* ".c" or ".h" at p ending a file name: "quirks.c", "8250_rsa.c:120" */
static bool at_source(const char *s, const char *p, const char *e)
{
	return p > s && (word_char(p[-1]) || p[-1] == '-') && e - p >= 2 &&
	       (p[1] == 'c' || p[1] == 'h') && (e - p == 2 || !word_char(p[2]));
}

/* a hex value at p: "0xffff"; or a C function's name: "foo_get_stats"
 * (lower case, two '_' or more) */
static bool at_code(const char *s, const char *p, const char *e)
{
	const char *q;
	unsigned under = 0;

	if (p > s && word_char(p[-1]))
		return false;
	if (e - p >= 3 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
	    isxdigit((unsigned char)p[2]))
		return true;
	if (!islower((unsigned char)*p))
		return false;
	for (q = p; q < e && (islower((unsigned char)*q) ||
			      isdigit((unsigned char)*q) || *q == '_');
	     q++)
		under += *q == '_';
	return under >= 2 && q[-1] != '_' && (q == e || !word_char(*q));
}

static bool shows_in(const char *s, const char *e)
{
	static const char *const tools[] = { "dmesg", "journalctl",
					     "kernel: " };
	const char *p;
	size_t i, n;

	for (p = s; p < e; p++) {
		switch (*p) {
		case '[':
			if (at_timestamp(p, e))
				return true;
			continue;
		case '(':
			if (at_call(s, p, e))
				return true;
			continue;
		case '.':
			if (at_source(s, p, e))
				return true;
			continue;
		default:
			break;
		}
		if (at_code(s, p, e))
			return true;
		if (isdigit((unsigned char)*p)) {
			if (at_version(s, p, e) || at_device_id(s, p, e))
				return true;
		} else if (isxdigit((unsigned char)*p)) {
			if (at_device_id(s, p, e))
				return true;
		}
		if (*p != 'd' && *p != 'j' && *p != 'k' && *p != 'D' &&
		    *p != 'J' && *p != 'K')
			continue;
		if (p > s && word_char(p[-1]))
			continue;
		for (i = 0; i < ARRAY_SIZE(tools); i++) {
			n = strlen(tools[i]);
			if ((size_t)(e - p) >= n &&
			    !strncasecmp(p, tools[i], n) &&
			    ((size_t)(e - p) == n || !word_char(p[n]) ||
			     tools[i][n - 1] == ' '))
				return true;
		}
	}
	return false;
}

/* kind_shows_system - see kind.h */
bool kind_shows_system(const char *subject, const char *body, size_t len)
{
	const char *p, *e, *end;

	if (subject && shows_in(subject, subject + strlen(subject)))
		return true;
	if (!body)
		return false;
	if (len > KIND_SHOWS_MAX)
		len = KIND_SHOWS_MAX;
	end = body + len;
	for (p = body; p < end; p = e + 1) {
		e = memchr(p, '\n', (size_t)(end - p));
		if (!e)
			e = end;
		if (p < e && *p != '>' && shows_in(p, e))
			return true;
		if (e == end)
			break;
	}
	return false;
}
