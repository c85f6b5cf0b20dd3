// SPDX-License-Identifier: GPL-2.0-only
/*
 * claims_commits - the commit ids a report cites, checked against the
 * history 'triage experts import' read (experts_history.h)
 *
 * DESCRIPTION
 *	A report names commits where it bisected ("first bad commit: SHA",
 *	"# first bad commit: [SHA] subject", "SHA is the first bad commit"
 *	with git's commit header after it), where it blames one ("Fixes:
 *	SHA (\"subject\")", "since commit SHA (\"subject\")") and what it
 *	reverted ("reverting SHA").  Each distinct id (7 to 40 hex digits,
 *	regression_is_sha()) is one CLAIM_COMMIT check:
 *
 *	- the history has one commit with that prefix: it holds, unless
 *	  the report gives a subject and the commit's differs (a cut
 *	  subject, "...", is compared by its first bytes);
 *	- several commits share the prefix: not checkable;
 *	- none: false only when the history covers the report: imported
 *	  back to the root commit (not a shallow clone), and the report's
 *	  kernel is a mainline version (6.12, 6.12.0-rc3, a local build of
 *	  one: "-00045-gSHA", "+") no newer than the newest release commit
 *	  the history has.  A stable, distribution or linux-next kernel
 *	  has commits of its own tree, and a newer kernel commits the
 *	  history has not seen: not checkable.
 *
 *	The ids not checkable are counted (commits_unchecked) for
 *	explanations, as the history checked against is described.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "claims.h"
#include "claims_int.h"
#include "evidence.h"
#include "experts_history.h"
#include "regression.h"

#define COMMITS_MAX	   16  /* distinct ids checked per report */
#define COMMITS_SUBJECT	   300 /* bytes of a quoted subject read */
#define COMMITS_HEADER_MAX 8   /* lines of git's header before the subject */

struct cited {
	const char *sha, *subject;
	size_t n, sublen;
	bool cut;
};

static const char *find_ci(const char *p, const char *end, const char *lit)
{
	size_t k = strlen(lit);

	for (; p + k <= end; p++)
		if ((*p | 0x20) == lit[0] && !strncasecmp(p, lit, k))
			return p;
	return NULL;
}

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

static const char *line_end(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));

	return nl ? nl : end;
}

/* sha_at - the length of a commit id at p (then not a word), or 0 */
static size_t sha_at(const char *p, const char *end)
{
	const char *t = p;

	while (t < end && t - p <= 40 &&
	       ((*t >= '0' && *t <= '9') || (*t >= 'a' && *t <= 'f')))
		t++;
	if (t < end && claims_name_char(*t))
		return 0;
	return regression_is_sha(p, (size_t)(t - p)) ? (size_t)(t - p) : 0;
}

/* cut_mark - the subject ends with "..." or "…": its length without it */
static size_t cut_mark(const char *s, size_t n, bool *cut)
{
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	*cut = true;
	if (n >= 3 && !memcmp(s + n - 3, "...", 3))
		return n - 3;
	if (n >= 3 && !memcmp(s + n - 3, "\xe2\x80\xa6", 3))
		return n - 3;
	*cut = false;
	return n;
}

/* quoted_subject - ("subject") or (“subject”) at p, across wrapped lines */
static void quoted_subject(const char *p, const char *end, struct cited *c)
{
	const char *s, *e, *lim;

	p = skip_blanks(p, end);
	if (p + 2 < end && p[0] == '(' && p[1] == '"')
		s = p + 2;
	else if (p + 4 < end && p[0] == '(' &&
		 !memcmp(p + 1, "\xe2\x80\x9c", 3))
		s = p + 4;
	else
		return;
	lim = end - s > COMMITS_SUBJECT ? s + COMMITS_SUBJECT : end;
	for (e = s; e + 1 < lim; e++) {
		if ((e[0] == '"' && e[1] == ')') ||
		    (e + 3 < lim && !memcmp(e, "\xe2\x80\x9d)", 4)))
			break;
		if (e[0] == '\n' && e + 1 < lim && e[1] == '\n')
			return; /* a paragraph ended: not a quoted subject */
	}
	if (e + 1 >= lim)
		return;
	c->subject = s;
	c->sublen = cut_mark(s, (size_t)(e - s), &c->cut);
}

/* rest_subject - the rest of the line at p ("[sha] subject") */
static void rest_subject(const char *p, const char *end, struct cited *c)
{
	const char *e = line_end(p, end);

	p = skip_blanks(p, e);
	if (e - p > COMMITS_SUBJECT)
		e = p + COMMITS_SUBJECT;
	if (e > p && e[-1] == '\r')
		e--;
	if (e == p)
		return;
	c->subject = p;
	c->sublen = cut_mark(p, (size_t)(e - p), &c->cut);
}

/*
 * header_subject - git's "commit SHA / Author: / Date: / (blank) /
 * subject" after "SHA is the first bad commit"
 */
static void header_subject(const char *p, const char *end, struct cited *c)
{
	const char *e;
	int i;
	bool dated = false;

	for (i = 0; i < COMMITS_HEADER_MAX && p < end; i++) {
		e = line_end(p, end);
		if (!strncmp(p, "Date:", 5))
			dated = true;
		else if (dated && skip_blanks(p, e) == e && e < end) {
			rest_subject(e + 1, end, c);
			return;
		}
		p = e + (e < end);
	}
}

/* add - one cited commit, unless its id was cited already */
static void add(struct cited *list, size_t *n, const char *sha, size_t len,
		const struct cited *c)
{
	size_t i, k;

	for (i = 0; i < *n; i++) {
		k = len < list[i].n ? len : list[i].n;
		if (!memcmp(list[i].sha, sha, k)) {
			if (!list[i].subject && c->subject) {
				list[i].subject = c->subject;
				list[i].sublen = c->sublen;
				list[i].cut = c->cut;
			}
			return;
		}
	}
	if (*n == COMMITS_MAX)
		return;
	list[*n] = *c;
	list[*n].sha = sha;
	list[*n].n = len;
	(*n)++;
}

/* after - a commit id after p: past blanks, ":", "is", "[" or "commit " */
static const char *after(const char *p, const char *end, bool *bracket)
{
	p = skip_blanks(p, end);
	if (p < end && *p == ':')
		p = skip_blanks(p + 1, end);
	else if (end - p > 3 && !strncasecmp(p, "is ", 3))
		p = skip_blanks(p + 3, end);
	*bracket = p < end && *p == '[';
	if (*bracket)
		p++;
	if (end - p > 7 && !strncasecmp(p, "commit ", 7))
		p = skip_blanks(p + 7, end);
	return p;
}

/* cite - the id at p (and a subject after it, as form says) */
static void cite(struct cited *list, size_t *n, const char *p, const char *end,
		 bool bracket)
{
	struct cited c = { NULL, NULL, 0, 0, false };
	size_t len = sha_at(p, end);

	if (!len)
		return;
	if (bracket && p + len < end && p[len] == ']')
		rest_subject(p + len + 1, end, &c);
	else if (!bracket)
		quoted_subject(p + len, end, &c);
	add(list, n, p, len, &c);
}

/* bisected - "first bad commit: SHA" and "SHA is the first bad commit" */
static void bisected(struct cited *list, size_t *n, const char *text,
		     const char *end)
{
	const char *p = text, *q, *b;
	bool bracket;

	while ((p = find_ci(p, end, "first bad commit"))) {
		q = p + 16;
		if (p - text >= 7 && !strncasecmp(p - 7, "is the ", 7)) {
			/* git bisect: "SHA is the first bad commit" */
			for (b = p - 7; b > text && b[-1] == ' '; b--)
				;
			q = b;
			while (b > text && q - b < 41 &&
			       claims_name_char(b[-1]))
				b--;
			if (sha_at(b, q) == (size_t)(q - b) &&
			    (b == text || b[-1] == '\n' || b[-1] == ' ')) {
				struct cited c = { NULL, NULL, 0, 0, false };

				header_subject(line_end(p, end), end, &c);
				add(list, n, b, (size_t)(q - b), &c);
			}
			p += 16;
			continue;
		}
		q = after(q, end, &bracket);
		cite(list, n, q, end, bracket);
		p += 16;
	}
}

/* tagged - "Fixes: SHA", "commit SHA", "revert(ing) SHA" */
static void tagged(struct cited *list, size_t *n, const char *text,
		   const char *end, const char *word)
{
	const char *p = text, *q;
	size_t k = strlen(word);
	bool bracket;

	while ((p = find_ci(p, end, word))) {
		q = p + k;
		if (p > text && claims_name_char(p[-1])) {
			p = q;
			continue;
		}
		/* "reverted", "reverting", "reverts" */
		while (q < end && q - p < (long)k + 3 &&
		       ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z')))
			q++;
		if (q == end || (*q != ' ' && *q != ':' && *q != '\t')) {
			p = q;
			continue;
		}
		q = after(q, end, &bracket);
		cite(list, n, q, end, false);
		p = q;
	}
}

/* mainline - "6.12", "6.12.0-rc3", "6.12.0-rc3-00045-gabc+": version, rc */
static bool mainline(const char *v, unsigned *version, unsigned *rc)
{
	unsigned long a, b, z = 0, r = HISTORY_FINAL_RC;
	char *e;

	if (!v)
		return false;
	if (*v == 'v')
		v++;
	if (*v < '1' || *v > '9')
		return false;
	a = strtoul(v, &e, 10);
	if (*e != '.' || e[1] < '0' || e[1] > '9')
		return false;
	b = strtoul(e + 1, &e, 10);
	if (*e == '.' && e[1] >= '0' && e[1] <= '9')
		z = strtoul(e + 1, &e, 10);
	if (!strncmp(e, "-rc", 3) && e[3] >= '1' && e[3] <= '9')
		r = strtoul(e + 3, &e, 10);
	if (*e == '-' && e[1] >= '0' && e[1] <= '9') {
		/* git describe: -NNNNN-gHEX, commits on top of the tag */
		e += 1 + strspn(e + 1, "0123456789");
		if (strncmp(e, "-g", 2))
			return false;
		e += 2 + strspn(e + 2, "0123456789abcdef");
	}
	if (*e == '+')
		e++;
	else if (!strncmp(e, "-dirty", 6))
		e += 6;
	if (*e || z || a > 255 || b > 255 || r > HISTORY_FINAL_RC)
		return false;
	*version = HISTORY_VERSION(a, b);
	*rc = (unsigned)r;
	return true;
}

/* covered - would the history have every commit the report's kernel has? */
static bool covered(const struct evidence *ev, const struct history *h)
{
	unsigned v, rc, hv, hrc;

	if (!history_complete(h) || !ev ||
	    !mainline(ev->kernel_version, &v, &rc) ||
	    !history_newest_release(h, &hv, &hrc))
		return false;
	return v < hv || (v == hv && rc <= hrc);
}

void claims_check_commits(struct claims *c, const char *text, size_t len,
			  const struct evidence *ev, const struct history *h)
{
	struct cited list[COMMITS_MAX];
	const char *end = text + len;
	size_t n = 0, i;
	bool cover;

	if (!h || !text)
		return;
	bisected(list, &n, text, end);
	tagged(list, &n, text, end, "fixes");
	tagged(list, &n, text, end, "commit");
	tagged(list, &n, text, end, "revert");
	cover = covered(ev, h);
	for (i = 0; i < n; i++) {
		const struct cited *k = &list[i];
		uint32_t subject = 0;
		int r = history_find(h, k->sha, k->n, &subject);

		if (r < 0 || (!r && !cover)) {
			c->commits_unchecked++;
			continue;
		}
		if (!r) {
			claims_count(
				c, CLAIM_COMMIT, false,
				"commit %.*s is not in the history imported (%lu commits)",
				(int)(k->n < 16 ? k->n : 16), k->sha,
				history_ncommits(h));
			continue;
		}
		r = k->subject ? history_subject_cmp(subject, k->subject,
						     k->sublen, k->cut)
			       : 1;
		claims_count(
			c, CLAIM_COMMIT, r != 0,
			"commit %.*s is not \"%.*s\" in the history imported",
			(int)(k->n < 16 ? k->n : 16), k->sha,
			(int)(k->sublen < 80 ? k->sublen : 80),
			k->subject ? k->subject : "");
	}
}
