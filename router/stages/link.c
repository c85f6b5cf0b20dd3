// SPDX-License-Identifier: GPL-2.0-only
/*
 * link - the references and subject tags a message links by (see link.h)
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "archive.h"
#include "link.h"
#include "report.h"
#include "util.h"

#define MSGID_MAX 998

static bool seen(char **v, size_t n, const char *id, size_t len)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strlen(v[i]) == len && !memcmp(v[i], id, len))
			return true;
	return false;
}

/* link_refs - In-Reply-To, then References newest first */
size_t link_refs(const struct report *r, char **out, size_t max)
{
	const char *refs = report_header(r, "References");
	const char *starts[LINK_REFS_MAX * 4];
	size_t lens[LINK_REFS_MAX * 4], n = 0, k = 0, len;
	const char *p, *e;

	if (!max)
		return 0;
	if (r->in_reply_to && *r->in_reply_to)
		out[n++] = xstrdup(r->in_reply_to);
	/* collect every <id>, keep the newest ARRAY_SIZE(starts) */
	for (p = refs; p && (p = strchr(p, '<')); p = e + 1) {
		e = strchr(p + 1, '>');
		if (!e)
			break;
		len = (size_t)(e - p - 1);
		if (!len || len > MSGID_MAX || memchr(p + 1, '<', len))
			continue;
		if (k == ARRAY_SIZE(starts)) {
			memmove(starts, starts + 1,
				sizeof(starts[0]) * (k - 1));
			memmove(lens, lens + 1, sizeof(lens[0]) * (k - 1));
			k--;
		}
		starts[k] = p + 1;
		lens[k++] = len;
	}
	while (k-- > 0 && n < max)
		if (!seen(out, n, starts[k], lens[k]))
			out[n++] = xstrndup(starts[k], lens[k]);
	return n;
}

/*
 * link_subject_tag - the ID of a "[triage #ID]" or "[triage #ID-TOKEN]"
 * subject tag, and its TOKEN ("" when bare)
 */
bool link_subject_tag(const char *subject, int64_t *id, char *tok,
		      size_t toksize)
{
	const char *p, *e;
	char *end;
	long long v;
	size_t n;

	for (p = subject ? strcasestr(subject, "[triage #") : NULL; p;
	     p = strcasestr(p + 1, "[triage #")) {
		if (!isdigit((unsigned char)p[9]))
			continue;
		v = strtoll(p + 9, &end, 10);
		if (v <= 0)
			continue;
		n = 0;
		e = end;
		if (*e == '-') {
			n = strspn(e + 1, "abcdefghijklmnopqrstuvwxyz234567");
			if (!n || n >= toksize)
				continue;
			memcpy(tok, e + 1, n);
			e += n + 1;
		}
		if (*e == ']') {
			if (toksize)
				tok[n] = '\0';
			*id = v;
			return true;
		}
	}
	return false;
}

/* link_subject_bug - N of a Bugzilla "[Bug N]" subject */
bool link_subject_bug(const char *subject, long *bug)
{
	const char *p;
	char *end;
	long v;

	for (p = subject ? strstr(subject, "[Bug ") : NULL; p;
	     p = strstr(p + 1, "[Bug ")) {
		if (!isdigit((unsigned char)p[5]))
			continue;
		v = strtol(p + 5, &end, 10);
		if (*end == ']' && v > 0) {
			*bug = v;
			return true;
		}
	}
	return false;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* id_part - copy [p, e) %-decoded to out when it is a Message-ID */
static bool id_part(const char *p, const char *e, char *out, size_t size)
{
	size_t n = 0;
	bool at = false;
	int hi, lo;

	for (; p < e; p++) {
		char c = *p;

		if (c == '%' && e - p >= 3 && (hi = hexval(p[1])) >= 0 &&
		    (lo = hexval(p[2])) >= 0) {
			c = (char)(hi * 16 + lo);
			p += 2;
		}
		if ((unsigned char)c <= ' ' || c == '<' || c == '>' ||
		    n + 1 >= size)
			return false;
		if (c == '@')
			at = true;
		out[n++] = c;
	}
	out[n] = '\0';
	return at && n > 2 && out[0] != '@' && out[n - 1] != '@';
}

bool link_url_msgid(const char *value, char *out, size_t size)
{
	const char *p = value, *e, *start;

	if (!value || !size)
		return false;
	p += strspn(p, " \t");
	if (*p == '<') {
		e = strchr(p, '>');
		return e && id_part(p + 1, e, out, size);
	}
	if (!strncmp(p, "https://", 8))
		p += 8;
	else if (!strncmp(p, "http://", 7))
		p += 7;
	else
		return false;
	/* the path parts after the host, the last one with an '@' */
	p = strchr(p, '/');
	for (start = NULL; p && *p == '/';) {
		const char *q = p + 1;

		e = q + strcspn(q, "/?# \t>");
		if (memchr(q, '@', (size_t)(e - q)) ||
		    memmem(q, (size_t)(e - q), "%40", 3))
			start = q;
		if (start == q && id_part(q, e, out, size))
			return true;
		p = *e == '/' ? e : NULL;
	}
	return false;
}

/* memchr_any - one of the bytes of set is in [p, e) */
static bool memchr_any(const char *p, const char *e, const char *set)
{
	for (; p < e; p++)
		if (strchr(set, *p))
			return true;
	return false;
}

bool link_archive_msgid(const char *pattern, const char *value, char *out,
			size_t size)
{
	const char *s, *p, *e;
	size_t pre;

	if (!value || !size)
		return false;
	s = archive_pattern_ok(pattern) ? strstr(pattern, "%s") : NULL;
	p = value + strspn(value, " \t<");
	e = p + strcspn(p, " \t>");
	pre = s ? (size_t)(s - pattern) : 0;
	if (s && (size_t)(e - p) > pre && !strncmp(p, pattern, pre) &&
	    has_suffix(p + pre, e, s + 2) &&
	    /* an escaped id has no path, query or fragment of its own */
	    !memchr_any(p + pre, e - strlen(s + 2), "/?#") &&
	    id_part(p + pre, e - strlen(s + 2), out, size))
		return true;
	return link_url_msgid(value, out, size);
}

bool link_url_bug(const char *value, long *bug)
{
	const char *p = value ? strstr(value, "show_bug.cgi?id=") : NULL;
	char *end;
	long v;

	if (!p || !isdigit((unsigned char)p[16]))
		return false;
	v = strtol(p + 16, &end, 10);
	if (v <= 0 || isalnum((unsigned char)*end))
		return false;
	*bug = v;
	return true;
}
