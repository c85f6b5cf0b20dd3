// SPDX-License-Identifier: GPL-2.0-only
/*
 * regression - worked before, broke since (see regression.h)
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "regression.h"
#include "report.h"
#include "util.h"

/* find_ci - first occurrence of word (lower case) in a lowered line */
static const char *find_ci(const char *p, const char *end, const char *word)
{
	if (p >= end)
		return NULL;
	return memmem(p, (size_t)(end - p), word, strlen(word));
}

/* console_line - "[   12.345678] ...": kernel output, not a statement */
static bool console_line(const char *p, const char *end)
{
	const char *q = p + 1;

	if (p >= end || *p != '[')
		return false;
	while (q < end && q - p < 24 &&
	       (*q == ' ' || *q == '.' || *q == 'T' || *q == 'C' ||
		isdigit((unsigned char)*q)))
		q++;
	return q < end && *q == ']' && q > p + 1;
}

static bool is_word_char(int c)
{
	return isalnum(c) || c == '_';
}

static void copy(char *dst, size_t size, const char *s, size_t len)
{
	if (len >= size)
		len = size - 1;
	memcpy(dst, s, len);
	dst[len] = '\0';
}

/* regression_is_sha - 7 to 40 hex digits that look like a commit id */
bool regression_is_sha(const char *s, size_t len)
{
	bool letter = false;
	size_t i;

	if (len < 7 || len > 40)
		return false;
	for (i = 0; i < len; i++) {
		if (!isxdigit((unsigned char)s[i]))
			return false;
		if (isalpha((unsigned char)s[i]))
			letter = true;
	}
	return letter || len >= 12;
}

static const char *skip_blank(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == ':'))
		p++;
	return p;
}

/* token - [p, *tend) up to white space or a quote/bracket */
static const char *token(const char *p, const char *end)
{
	while (p < end && !isspace((unsigned char)*p) && *p != '(' &&
	       *p != '"' && *p != ',' && *p != ';')
		p++;
	return p;
}

/* take_sha - a commit id at p (after an optional "commit "), or false */
static bool take_sha(const char *p, const char *end, char *out, size_t size)
{
	const char *t;

	p = skip_blank(p, end);
	if (end - p > 7 && strncasecmp(p, "commit", 6) == 0 &&
	    (p[6] == ' ' || p[6] == ':')) {
		p = skip_blank(p + 6, end);
	}
	t = p;
	while (t < end && isxdigit((unsigned char)*t))
		t++;
	if (t < end && is_word_char((unsigned char)*t))
		return false;
	if (!regression_is_sha(p, (size_t)(t - p)))
		return false;
	copy(out, size, p, (size_t)(t - p));
	return true;
}

/* version_at - length of a kernel version at p ([v]N.N...), else 0 */
static size_t version_at(const char *line, const char *p, const char *end)
{
	const char *q = p, *s;

	if (p > line && (is_word_char((unsigned char)p[-1]) || p[-1] == '.' ||
			 p[-1] == '-'))
		return 0;
	if (q < end && (*q == 'v' || *q == 'V'))
		q++;
	s = q;
	while (q < end && isdigit((unsigned char)*q))
		q++;
	if (q == s || q - s > 2 || q >= end || *q != '.')
		return 0;
	/* 2.6 onwards: "1.5" is no kernel version worth a regression */
	if (q - s == 1 && *s < '2')
		return 0;
	q++;
	if (q >= end || !isdigit((unsigned char)*q))
		return 0;
	while (q < end && (isalnum((unsigned char)*q) || *q == '.' ||
			   *q == '-' || *q == '+' || *q == '~' || *q == '_'))
		q++;
	while (q > p && (q[-1] == '.' || q[-1] == '-'))
		q--;
	return (size_t)(q - p);
}

/* take_version - the first version within REGRESSION_NEAR bytes of p */
static bool take_version(const char *line, const char *p, const char *end,
			 char *out, size_t size)
{
	const char *stop =
		end - p > REGRESSION_NEAR ? p + REGRESSION_NEAR : end;
	size_t n;

	for (; p < stop; p++) {
		n = version_at(line, p, end);
		if (n) {
			copy(out, size, p, n);
			return true;
		}
	}
	return false;
}

static void set_how(struct regression *r, const char *how)
{
	if (!r->how)
		r->how = how;
}

/* regzbot - "#regzbot introduced: X", "#regzbot ^introduced X" */
static void regzbot(const char *line, const char *end, struct regression *r)
{
	const char *p = find_ci(line, end, "#regzbot"), *t, *dots;

	if (!p)
		return;
	p = skip_blank(p + 8, end);
	if (p < end && *p == '^')
		p++;
	if (end - p < 10 || strncasecmp(p, "introduced", 10) != 0)
		return;
	p = skip_blank(p + 10, end);
	t = token(p, end);
	if (t == p)
		return;
	set_how(r, "regzbot");
	r->found = true;
	dots = find_ci(p, t, "..");
	if (dots) {
		if (!r->good[0])
			copy(r->good, sizeof(r->good), p, (size_t)(dots - p));
		if (!r->bad[0])
			copy(r->bad, sizeof(r->bad), dots + 2,
			     (size_t)(t - dots - 2));
	} else if (regression_is_sha(p, (size_t)(t - p))) {
		if (!r->commit[0])
			copy(r->commit, sizeof(r->commit), p, (size_t)(t - p));
	} else if (!r->bad[0] && version_at(line, p, end)) {
		copy(r->bad, sizeof(r->bad), p, version_at(line, p, end));
	}
}

/* bisect - the culprit commit, however the bisection was reported */
static void bisect(const char *line, const char *end, struct regression *r)
{
	static const char *const after[] = { "first bad commit",
					     "bisected it to", "bisected to",
					     "bisected this to" };
	const char *p = skip_blank(line, end), *t;
	size_t i;

	if (r->commit[0])
		return;
	/* git bisect: "<sha> is the first bad commit" */
	t = p;
	while (t < end && isxdigit((unsigned char)*t))
		t++;
	if (t > p && end - t >= 24 &&
	    strncasecmp(t, " is the first bad commit", 24) == 0 &&
	    regression_is_sha(p, (size_t)(t - p))) {
		copy(r->commit, sizeof(r->commit), p, (size_t)(t - p));
		set_how(r, "bisect");
		r->found = true;
		return;
	}
	for (i = 0; i < ARRAY_SIZE(after); i++) {
		p = find_ci(line, end, after[i]);
		if (p && take_sha(p + strlen(after[i]), end, r->commit,
				  sizeof(r->commit))) {
			set_how(r, "bisect");
			r->found = true;
			return;
		}
	}
	/* a Fixes: tag names the commit that introduced the bug */
	p = skip_blank(line, end);
	if (end - p > 6 && strncasecmp(p, "Fixes:", 6) == 0 &&
	    take_sha(p + 6, end, r->commit, sizeof(r->commit))) {
		set_how(r, "fixes");
		r->found = true;
	}
}

/* versions - "worked in 6.1 ... broke in 6.2" */
static void versions(const char *line, const char *end, struct regression *r)
{
	static const char *const good[] = { "worked",	   "works fine",
					    "was working", "was fine",
					    "last good",   "last known good" };
	static const char *const bad[] = { "broke",	      "breaks",
					   "broken",	      "fails",
					   "failing",	      "failed",
					   "stopped working", "regressed",
					   "regression" };
	const char *p;
	size_t i;

	for (i = 0; !r->good[0] && i < ARRAY_SIZE(good); i++) {
		p = find_ci(line, end, good[i]);
		if (p && take_version(line, p + strlen(good[i]), end, r->good,
				      sizeof(r->good)))
			set_how(r, "versions");
	}
	for (i = 0; !r->bad[0] && i < ARRAY_SIZE(bad); i++) {
		p = find_ci(line, end, bad[i]);
		if (p)
			take_version(line, p + strlen(bad[i]), end, r->bad,
				     sizeof(r->bad));
	}
}

/* regression_parse - scan text for regression statements (merges into r) */
void regression_parse(const char *text, size_t len, struct regression *r)
{
	const char *p = text, *end, *nl;
	char low[REGRESSION_LINE_MAX];
	size_t n, i;

	if (!text)
		return;
	if (len > REGRESSION_SCAN_MAX)
		len = REGRESSION_SCAN_MAX;
	end = text + len;
	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		/* a quoted line is what someone else wrote: still evidence */
		while (p < nl && (*p == '>' || *p == ' '))
			p++;
		if (!console_line(p, nl)) {
			/* one lower-case copy per line: matches are memmem() */
			n = (size_t)(nl - p) < sizeof(low) ? (size_t)(nl - p)
							   : sizeof(low);
			for (i = 0; i < n; i++)
				low[i] = (char)tolower((unsigned char)p[i]);
			regzbot(low, low + n, r);
			bisect(low, low + n, r);
			versions(low, low + n, r);
		}
		if (nl == end)
			break;
	}
}

/* regression_from_report - regression_parse() over every text part */
void regression_from_report(const struct report *rep, struct regression *r)
{
	size_t i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < rep->nparts; i++)
		if (rep->parts[i].text)
			regression_parse(rep->parts[i].text, rep->parts[i].len,
					 r);
	if (!rep->nparts && rep->body)
		regression_parse(rep->body, rep->body_len, r);
}

/* regression_finish - decide found; fill a missing bad version */
void regression_finish(struct regression *r, const char *kernel_version)
{
	const char *g = r->good + (r->good[0] == 'v' || r->good[0] == 'V');
	size_t n = strlen(g);

	/* "worked on 6.1", crashed on 6.12.3: 6.12.3 is the bad one */
	if (r->good[0] && !r->bad[0] && kernel_version && *kernel_version &&
	    (strncmp(g, kernel_version, n) != 0 ||
	     isdigit((unsigned char)kernel_version[n])))
		copy(r->bad, sizeof(r->bad), kernel_version,
		     strlen(kernel_version));
	if (r->good[0] && r->bad[0] && strcmp(r->good, r->bad) != 0)
		r->found = true;
	if (r->commit[0])
		r->found = true;
	if (!r->found) {
		r->how = NULL;
		r->good[0] = r->bad[0] = r->commit[0] = '\0';
	}
}
