// SPDX-License-Identifier: GPL-2.0-only
/*
 * command - the "#triage VERB ARGS" lines of a reply (see command.h)
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "command.h"
#include "util.h"

#define PREFIX	   "#triage"
#define PREFIX_LEN (sizeof(PREFIX) - 1)
#define ID_MAX	   250 /* a Message-ID or URL argument */

static const struct {
	const char *name, *usage;
} verbs[COMMAND_NVERBS] = {
	[COMMAND_REROUTE] = { "reroute", "reroute SECTION|ADDRESS" },
	[COMMAND_CLASS] = { "class", "class user|fuzzer|ai" },
	[COMMAND_DUP] = { "dup", "dup ID|MESSAGE-ID" },
	[COMMAND_UNDUP] = { "undup", "undup" },
	[COMMAND_INVALID] = { "invalid", "invalid [REASON]" },
	[COMMAND_NEEDINFO] = { "needinfo",
			       "needinfo [version|dmesg|reproducer|bisect|TEXT]" },
	[COMMAND_FIXED] = { "fixed", "fixed COMMIT" },
	[COMMAND_FIX_PROPOSED] = { "fix-proposed",
				   "fix-proposed MESSAGE-ID|URL" },
	[COMMAND_NOTE] = { "note", "note TEXT" },
	[COMMAND_NOTME] = { "notme", "notme" },
	[COMMAND_AWAY] = { "away", "away YYYY-MM-DD" },
	[COMMAND_CAP] = { "cap", "cap N/day" },
	[COMMAND_HELP] = { "help", "help" },
};

const char *command_verb_name(enum command_verb v)
{
	return v >= 0 && v < COMMAND_NVERBS ? verbs[v].name : "?";
}

const char *command_usage(enum command_verb v)
{
	return v >= 0 && v < COMMAND_NVERBS ? verbs[v].usage : "?";
}

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

/* fail - c becomes an error saying fmt */
static void fail(struct command *c, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void fail(struct command *c, const char *fmt, ...)
{
	va_list ap;

	c->verb = COMMAND_ERROR;
	va_start(ap, fmt);
	vsnprintf(c->error, sizeof(c->error), fmt, ap);
	va_end(ap);
}

/* clean_text - UTF-8 without control characters (a tab is allowed) */
static bool clean_text(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)s[i];

		if ((ch < 0x20 && ch != '\t') || ch == 0x7f)
			return false;
	}
	return utf8_valid(s, len);
}

static bool all_hex(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* one_word - s has no blank */
static bool one_word(const char *s)
{
	return !strpbrk(s, " \t");
}

/* parse_id - a report id, "12" or "#12"; 0 when s is none */
static int64_t parse_id(const char *s)
{
	int64_t v = 0;

	if (*s == '#')
		s++;
	if (!*s || strlen(s) > 15)
		return 0;
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s))
			return 0;
		v = v * 10 + (*s - '0');
	}
	return v;
}

/* msgid_like - "<local@domain>" or "local@domain", one word */
static bool msgid_like(const char *s)
{
	size_t n = strlen(s);
	const char *at;

	if (!n || n > ID_MAX || !one_word(s))
		return false;
	if (s[0] == '<') {
		if (n < 3 || s[n - 1] != '>')
			return false;
	} else if (strchr(s, '<') || strchr(s, '>')) {
		return false;
	}
	at = strchr(s, '@');
	return at && at > s + (s[0] == '<') && at[1] && at[1] != '>';
}

static bool url_like(const char *s)
{
	return strlen(s) <= ID_MAX && one_word(s) &&
	       ((!strncasecmp(s, "https://", 8) && s[8]) ||
		(!strncasecmp(s, "http://", 7) && s[7]));
}

/* parse_day - YYYY-MM-DD, a day that exists */
static bool parse_day(const char *s, int *y, int *m, int *d)
{
	static const int mdays[] = { 31, 29, 31, 30, 31, 30,
				     31, 31, 30, 31, 30, 31 };
	int i;

	if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
		return false;
	for (i = 0; i < 10; i++)
		if (i != 4 && i != 7 && !isdigit((unsigned char)s[i]))
			return false;
	*y = atoi(s);
	*m = atoi(s + 5);
	*d = atoi(s + 8);
	if (*y < 2000 || *m < 1 || *m > 12 || *d < 1 || *d > mdays[*m - 1])
		return false;
	/* 29 February only in a leap year */
	return !(*m == 2 && *d == 29 &&
		 !((*y % 4 == 0 && *y % 100 != 0) || *y % 400 == 0));
}

static unsigned need_item(const char *w, size_t n)
{
	static const struct {
		const char *name;
		unsigned bit;
	} items[] = {
		{ "version", COMMAND_NEED_VERSION },
		{ "dmesg", COMMAND_NEED_DMESG },
		{ "reproducer", COMMAND_NEED_REPRODUCER },
		{ "bisect", COMMAND_NEED_BISECT },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(items); i++)
		if (strlen(items[i].name) == n &&
		    !strncasecmp(w, items[i].name, n))
			return items[i].bit;
	return 0;
}

/* needinfo - known items (commas or blanks between), else free text */
static void parse_needinfo(struct command *c)
{
	const char *p = c->arg;
	unsigned bits = 0, b;
	size_t n;

	if (!*p) {
		c->items = COMMAND_NEED_VERSION | COMMAND_NEED_DMESG;
		return;
	}
	while (*p) {
		p += strspn(p, " \t,");
		n = strcspn(p, " \t,");
		if (!n)
			break;
		b = need_item(p, n);
		if (!b) {
			c->items = 0; /* free text, sent as written */
			return;
		}
		bits |= b;
		p += n;
	}
	c->items = bits;
}

static void parse_cap(struct command *c)
{
	const char *p = c->arg;
	long v = 0;
	size_t n = 0;

	while (isdigit((unsigned char)p[n]) && n < 5)
		v = v * 10 + (p[n++] - '0');
	if (!n || v > COMMAND_CAP_MAX ||
	    (p[n] && strcasecmp(p + n, "/day") && strcasecmp(p + n, " /day")))
		return fail(c, "cap takes N/day (N from 0 to %d), not '%.60s'",
			    COMMAND_CAP_MAX, c->arg);
	c->cap = (int)v;
}

/* check_arg - the argument c->arg suits c->verb, else c is an error */
static void check_arg(struct command *c)
{
	const char *a = c->arg;
	size_t n = strlen(a);
	const char *name = verbs[c->verb].name;

	switch (c->verb) {
	case COMMAND_UNDUP:
	case COMMAND_NOTME:
	case COMMAND_HELP:
		if (n)
			fail(c, "%s takes no argument", name);
		break;
	case COMMAND_REROUTE:
		if (!n)
			fail(c,
			     "reroute needs a MAINTAINERS section or an address");
		else if (n > 256)
			fail(c,
			     "reroute: a section or address of at most 256 bytes");
		c->is_addr = strchr(a, '@') != NULL;
		if (c->verb != COMMAND_ERROR && c->is_addr && !one_word(a))
			fail(c, "reroute: '%.60s' is not an address", a);
		break;
	case COMMAND_CLASS:
		if (strcasecmp(a, "user") && strcasecmp(a, "fuzzer") &&
		    strcasecmp(a, "ai"))
			fail(c, "class is user, fuzzer or ai, not '%.60s'", a);
		else
			for (n = 0; c->arg[n]; n++)
				c->arg[n] = (char)tolower((unsigned char)a[n]);
		break;
	case COMMAND_DUP:
		c->id = parse_id(a);
		if (!c->id && !msgid_like(a))
			fail(c,
			     "dup needs a report id or a Message-ID, not '%.60s'",
			     a);
		break;
	case COMMAND_FIXED:
		if (n < 7 || n > 40 || !all_hex(a, n))
			fail(c,
			     "fixed needs a commit id (7 to 40 hex digits), not '%.60s'",
			     a);
		break;
	case COMMAND_FIX_PROPOSED:
		c->is_url = url_like(a);
		if (!c->is_url && !msgid_like(a))
			fail(c,
			     "fix-proposed needs a Message-ID or an http(s) URL, not '%.60s'",
			     a);
		break;
	case COMMAND_NOTE:
		if (!n)
			fail(c, "note needs a text");
		break;
	case COMMAND_NEEDINFO:
		parse_needinfo(c);
		break;
	case COMMAND_AWAY:
		if (!parse_day(a, &c->y, &c->m, &c->d))
			fail(c,
			     "away needs the last day away as YYYY-MM-DD, not '%.60s'",
			     a);
		break;
	case COMMAND_CAP:
		parse_cap(c);
		break;
	case COMMAND_INVALID:
	case COMMAND_ERROR:
	case COMMAND_NVERBS:
		break;
	}
}

/* parse_line - s (n bytes) is what follows "#triage" and its blanks */
static void parse_line(const char *s, size_t n, struct command *c)
{
	size_t vlen, i;
	const char *arg;

	memset(c, 0, sizeof(*c));
	while (n && blank(s[n - 1]))
		n--;
	if (!clean_text(s, n)) {
		/* the quoted line must not carry what was refused */
		snprintf(c->line, sizeof(c->line), "(unreadable)");
		return fail(c, "not UTF-8 text");
	}
	/* quoted up to 80 bytes, never half a character */
	i = n > 80 ? 80 : n;
	while (i < n && i && ((unsigned char)s[i] & 0xc0) == 0x80)
		i--;
	memcpy(c->line, s, i);
	c->line[i] = '\0';
	vlen = 0;
	while (vlen < n && !blank(s[vlen]))
		vlen++;
	if (!vlen)
		return fail(c, "no verb (try '#triage help')");
	c->verb = COMMAND_ERROR;
	for (i = 0; i < COMMAND_NVERBS; i++)
		if (strlen(verbs[i].name) == vlen &&
		    !strncasecmp(s, verbs[i].name, vlen))
			c->verb = (enum command_verb)i;
	if (c->verb == COMMAND_ERROR)
		return fail(c, "unknown verb '%.*s' (try '#triage help')",
			    (int)(vlen > 40 ? 40 : vlen), s);
	arg = s + vlen;
	n -= vlen;
	while (n && blank(*arg)) {
		arg++;
		n--;
	}
	memcpy(c->arg, arg, n);
	c->arg[n] = '\0';
	check_arg(c);
}

/*
 * command_start - line (n bytes) is a command line: its text after
 * "#triage" and the blanks, in *rest; NULL when it is none
 */
static const char *command_start(const char *line, size_t n, size_t *rest)
{
	size_t i = 0;

	while (i < n && blank(line[i]))
		i++;
	if (n - i < PREFIX_LEN || strncasecmp(line + i, PREFIX, PREFIX_LEN))
		return NULL;
	i += PREFIX_LEN;
	if (i < n && !blank(line[i]))
		return NULL; /* "#triaged", "#triage:" */
	while (i < n && blank(line[i]))
		i++;
	*rest = n - i;
	return line + i;
}

static bool quoted(const char *line, size_t n)
{
	size_t i = 0;

	while (i < n && blank(line[i]))
		i++;
	return i < n && line[i] == '>';
}

void command_parse(const char *text, size_t len, struct command_list *out)
{
	const char *p = text, *end = text + len, *nl, *s;
	size_t n, rest;

	out->n = 0;
	out->dropped = 0;
	while (text && p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		s = p;
		p = nl ? nl + 1 : end;
		if (n && s[n - 1] == '\r')
			n--;
		if (n == 3 && !memcmp(s, "-- ", 3))
			break; /* the signature: nothing after it is ours */
		if (quoted(s, n))
			continue;
		if (n > COMMAND_LINE_MAX) {
			/* only the start of an overlong line is looked at */
			if (!command_start(s, 64, &rest))
				continue;
			if (out->n >= COMMAND_MAX) {
				out->dropped++;
				continue;
			}
			memset(&out->cmd[out->n], 0, sizeof(out->cmd[0]));
			snprintf(out->cmd[out->n].line,
				 sizeof(out->cmd[0].line), "(too long)");
			fail(&out->cmd[out->n++],
			     "a line of more than %d bytes", COMMAND_LINE_MAX);
			continue;
		}
		s = command_start(s, n, &rest);
		if (!s)
			continue;
		if (out->n >= COMMAND_MAX) {
			out->dropped++;
			continue;
		}
		parse_line(s, rest, &out->cmd[out->n++]);
	}
}
