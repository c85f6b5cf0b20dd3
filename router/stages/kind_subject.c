// SPDX-License-Identifier: GPL-2.0-only
/*
 * kind_subject - reading a subject: its reply and forward prefixes, its
 * "[...]" tags, its title, and a release announcement's title (see
 * kind.h)
 */
#include <ctype.h>
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
