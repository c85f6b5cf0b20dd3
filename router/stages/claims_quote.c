// SPDX-License-Identifier: GPL-2.0-only
/*
 * claims_quote - source code a report quotes is in the tree's file
 * (CLAIM_QUOTE; claims_int.h)
 *
 * DESCRIPTION
 *	An AI-written "code review" quotes the function it reviews; the
 *	quote reads like kernel C and is often not in the kernel at all.
 *	A quote is a "```" block, or a block of indented lines after a
 *	line ending in ":", whose introduction (the last sentence of the
 *	last up to QUOTE_INTRO lines of the paragraph above it) names a
 *	file of the tree
 *	("In fs/ext4/inode.c:") or a function ("ext4_iget()", "`ext4_iget`";
 *	its one clear file, symbols_best()).  Not quotes: code the
 *	introduction proposes ("the fix:", "should be", "instead"), a diff
 *	(a patch: "@@", "+"/"-" lines, which are skipped everywhere), logs
 *	and traces ("[  12.3]", "+0x"), commands and prose (fewer than half
 *	the lines end like C: ";", "{", "}", ")" or ","), call chains
 *	drawn ("-> foo()", no line ending in ";", "{" or "}").
 *
 *	Each quote is one check: it holds when any of its lines of code
 *	(QUOTE_MIN characters or more without whitespace and comments) is
 *	in a line of the file, whitespace removed on both sides (a quote
 *	re-indents and re-wraps); it fails when none is.  The file is read
 *	only from the tree the index recorded (symbols_tree_open(): a
 *	relative path, no "..", no link followed), at most QUOTE_FILE_MAX
 *	bytes; a file the tree lacks, or a function without one clear
 *	file, is not checkable, and a quote not found in the tree is
 *	counted as not checked (newer) when the report's kernel is newer
 *	than the tree.  At most QUOTE_MAX quotes per report.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "claims.h"
#include "claims_int.h"
#include "symbols.h"
#include "util.h"

#define QUOTE_MAX	 4	    /* quotes checked per report */
#define QUOTE_INTRO	 3	    /* lines of introduction read */
#define QUOTE_LINES	 200	    /* lines of one quote read */
#define QUOTE_CODE_LINES 24	    /* lines of code looked for */
#define QUOTE_MIN	 8	    /* characters of a line of code */
#define QUOTE_FILE_MAX	 (2u << 20) /* bytes of a file read */
#define QUOTE_PATH_MAX	 160
#define QUOTE_LINE_MAX	 512 /* characters of one line of code */

struct line {
	const char *p;
	size_t n;
};

/* next_line - the line at *p (without "\n"), *p moved past it */
static bool next_line(const char **p, const char *end, struct line *l)
{
	const char *nl;

	if (*p >= end)
		return false;
	nl = memchr(*p, '\n', (size_t)(end - *p));
	l->p = *p;
	l->n = (size_t)((nl ? nl : end) - *p);
	*p = nl ? nl + 1 : end;
	return true;
}

static bool blank_line(const struct line *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (!isspace((unsigned char)l->p[i]))
			return false;
	return true;
}

static bool fence(const struct line *l)
{
	size_t i = 0;

	while (i < l->n && (l->p[i] == ' ' || l->p[i] == '\t'))
		i++;
	return l->n - i >= 3 && !memcmp(l->p + i, "```", 3);
}

static bool indented(const struct line *l)
{
	return l->n > 0 && (l->p[0] == '\t' ||
			    (l->n > 2 && l->p[0] == ' ' && l->p[1] == ' '));
}

/*
 * squeeze - a line of code without whitespace and without a trailing
 * "//" or "/ *" comment, into out (size QUOTE_LINE_MAX + 1); its length
 */
static size_t squeeze(const struct line *l, char *out)
{
	size_t i, n = 0;

	for (i = 0; i < l->n && n < QUOTE_LINE_MAX; i++) {
		char ch = l->p[i];

		if (ch == '/' && i + 1 < l->n &&
		    (l->p[i + 1] == '/' || l->p[i + 1] == '*'))
			break;
		if (!isspace((unsigned char)ch))
			out[n++] = ch;
	}
	out[n] = '\0';
	return n;
}

/* diff_line - a line of a patch: the block is one, not a quote */
static bool diff_line(const struct line *l)
{
	return (l->n >= 2 && !memcmp(l->p, "@@", 2)) ||
	       (l->n >= 10 && !memcmp(l->p, "diff --git", 10)) ||
	       (l->n >= 4 &&
		(!memcmp(l->p, "+++ ", 4) || !memcmp(l->p, "--- a/", 4)));
}

/* a line of code as C ends one */
static bool c_like(const char *sq, size_t n)
{
	char last = n ? sq[n - 1] : 0;

	return last == ';' || last == '{' || last == '}' || last == ')' ||
	       last == ',';
}

/* log_line - a line of a log or a trace: the block is no quote */
static bool log_line(const char *sq, size_t n)
{
	return (n > 1 && sq[0] == '[' &&
		(isdigit((unsigned char)sq[1]) || sq[1] == ']')) ||
	       memmem(sq, n, "+0x", 3);
}

/* a line worth looking for: long enough, has a letter, not a log line */
static bool code_line(const struct line *l, const char *sq, size_t n)
{
	size_t i;
	bool letter = false;

	/* a patch's line, or a call chain drawn "-> foo()" or "|-" */
	if (n < QUOTE_MIN || (l->n && (l->p[0] == '+' || l->p[0] == '-')) ||
	    sq[0] == '-' || sq[0] == '|' || sq[0] == '`')
		return false;
	for (i = 0; i < n && !letter; i++)
		letter = isalpha((unsigned char)sq[i]);
	return letter;
}

struct quote {
	struct line lines[QUOTE_LINES];
	size_t n;
	char path[QUOTE_PATH_MAX + 1];
};

static const char *const proposals[] = {
	"fix",	   "patch",	 "suggest",   "propos", "should",    "could",
	"would",   "instead",	 "replac",    "change", "something", "e.g.",
	"mitigat", "workaround", "recommend", "add ",	"adding",    "example",
};

/* has_word - does [p, p + n) hold w, any case? */
static bool has_word(const char *p, size_t n, const char *w)
{
	size_t k = strlen(w), i, j;

	for (i = 0; i + k <= n; i++) {
		for (j = 0; j < k && tolower((unsigned char)p[i + j]) == w[j];
		     j++)
			;
		if (j == k)
			return true;
	}
	return false;
}

static bool path_char(char ch)
{
	return claims_name_char(ch) || ch == '/' || ch == '.' || ch == '-' ||
	       ch == '+';
}

/*
 * intro_target - the file the introduction [p, p + n) names: a path
 * "dir/x.c" (first), else a function "name()" or "`name`" with one clear
 * file; false when it names neither or proposes code
 */
static bool intro_target(const char *p, size_t n, const struct symbols *s,
			 char *out)
{
	const char *end = p + n, *q;
	char name[QUOTE_PATH_MAX + 1];
	size_t i;

	/* the last sentence only: what an earlier one names is not quoted */
	for (q = end - 1; q > p; q--)
		if (q[-1] == '.' && isspace((unsigned char)*q)) {
			n -= (size_t)(q - p);
			p = q;
			break;
		}
	for (i = 0; i < ARRAY_SIZE(proposals); i++)
		if (has_word(p, n, proposals[i]))
			return false;
	for (q = p; q < end; q++) {
		const char *e = q;

		if (q > p && path_char(q[-1]))
			continue;
		while (e < end && path_char(*e) && e - q < QUOTE_PATH_MAX)
			e++;
		while (e > q && (e[-1] == '.' || e[-1] == '-'))
			e--;
		if (e - q > 3 && e[-2] == '.' &&
		    (e[-1] == 'c' || e[-1] == 'h') &&
		    memchr(q, '/', (size_t)(e - q))) {
			memcpy(out, q, (size_t)(e - q));
			out[e - q] = '\0';
			return true;
		}
	}
	/* the function named last: the one right above the code */
	name[0] = '\0';
	for (q = p; q < end; q++) {
		const char *b = q, *e = q;

		if (*q == '`')
			b = e = q + 1;
		else if (q > p && claims_name_char(q[-1]))
			continue;
		while (e < end && claims_name_char(*e) && e - b < 80)
			e++;
		if (e == b || !claims_kernel_style(b, (size_t)(e - b)) ||
		    e >= end ||
		    !((*q == '`' && *e == '`') ||
		      (*e == '(' && e + 1 < end && e[1] == ')')))
			continue;
		/* "ops->card_busy()" names a member, not a function */
		if (*q != '`' && q - p >= 2 &&
		    ((q[-1] == '>' && q[-2] == '-') || q[-1] == '.'))
			continue;
		memcpy(name, b, (size_t)(e - b));
		name[e - b] = '\0';
	}
	if (name[0]) {
		const char *f = symbols_best(s, name);

		if (f && strlen(f) <= QUOTE_PATH_MAX) {
			strcpy(out, f);
			return true;
		}
	}
	return false;
}

/* read_tree_file - the file of the tree, whitespace removed; NULL if none */
static char *read_tree_file(const struct symbols *s, const char *path,
			    size_t *len)
{
	int fd = symbols_tree_open(s, path);
	size_t n = 0, i;
	char *buf = util_read_fd(fd, QUOTE_FILE_MAX, &n), *w;

	if (fd >= 0)
		close(fd);
	if (!buf)
		return NULL;
	for (i = 0, w = buf; i < n; i++)
		if (buf[i] == '\n' || !isspace((unsigned char)buf[i]))
			*w++ = buf[i];
	*w = '\0';
	*len = (size_t)(w - buf);
	return buf;
}

/* check_quote - one quote against its file: 1 holds, 0 fails, -1 cannot tell */
static int check_quote(const struct quote *q, const struct symbols *s,
		       unsigned *lines)
{
	char sq[QUOTE_LINE_MAX + 1], *file = NULL;
	size_t i, n, flen = 0, code = 0, clike = 0, nonblank = 0, stmt = 0;
	int r = 0;

	*lines = 0;
	for (i = 0; i < q->n; i++) {
		if (diff_line(&q->lines[i]))
			return -1;
		n = squeeze(&q->lines[i], sq);
		if (log_line(sq, n))
			return -1;
		if (!n)
			continue;
		nonblank++;
		clike += c_like(sq, n);
		code += code_line(&q->lines[i], sq, n);
		stmt += sq[n - 1] == ';' || sq[n - 1] == '{' ||
			sq[n - 1] == '}';
	}
	/* code has a statement or a brace: a call chain drawn has none */
	if (!code || !stmt || clike * 2 < nonblank)
		return -1;
	if (!(file = read_tree_file(s, q->path, &flen)))
		return -1;
	for (i = 0; i < q->n && r != 1 && *lines < QUOTE_CODE_LINES; i++) {
		n = squeeze(&q->lines[i], sq);
		if (!code_line(&q->lines[i], sq, n))
			continue;
		(*lines)++;
		if (memmem(file, flen, sq, n))
			r = 1;
	}
	free(file);
	return r;
}

/*
 * block_at - the quote that starts at line l (a fence, or indented
 * after a line ending in ":"), read up to its end; false if none
 */
static bool block_at(const struct line *l, const struct line *prev,
		     const char **p, const char *end, struct quote *q)
{
	struct line x;
	const char *save;

	q->n = 0;
	if (fence(l)) {
		while (next_line(p, end, &x) && !fence(&x))
			if (q->n < QUOTE_LINES)
				q->lines[q->n++] = x;
		return true;
	}
	if (!indented(l) || !prev || !prev->n || prev->p[prev->n - 1] != ':')
		return false;
	q->lines[q->n++] = *l;
	for (save = *p; next_line(p, end, &x) && indented(&x); save = *p)
		if (q->n < QUOTE_LINES)
			q->lines[q->n++] = x;
	*p = save;
	return true;
}

void claims_check_quotes(struct claims *c, const char *text, size_t len,
			 const struct symbols *s, bool older)
{
	const char *p = text, *end = text + len;
	struct line intro[QUOTE_INTRO], l;
	size_t nintro = 0, checked = 0;
	struct quote *q = xmalloc(sizeof(*q));
	bool ended = false; /* a blank line ended the introduction */

	while (checked < QUOTE_MAX && next_line(&p, end, &l)) {
		const char *from;
		unsigned lines;
		int r;

		if (!block_at(&l, nintro ? &intro[nintro - 1] : NULL, &p, end,
			      q)) {
			if (blank_line(&l)) {
				ended = true;
				continue;
			}
			if (ended)
				nintro = 0;
			ended = false;
			if (nintro == QUOTE_INTRO) {
				memmove(intro, intro + 1,
					sizeof(intro[0]) * (QUOTE_INTRO - 1));
				intro[QUOTE_INTRO - 1] = l;
			} else {
				intro[nintro++] = l;
			}
			continue;
		}
		from = nintro ? intro[0].p : NULL;
		if (!from || !intro_target(from,
					   (size_t)(intro[nintro - 1].p +
						    intro[nintro - 1].n - from),
					   s, q->path)) {
			nintro = 0;
			ended = false;
			continue;
		}
		nintro = 0;
		ended = false;
		r = check_quote(q, s, &lines);
		if (r < 0)
			continue;
		checked++;
		if (r != 1 && older) {
			c->newer++; /* the quote may be of the newer code */
			continue;
		}
		claims_count(
			c, CLAIM_QUOTE, r == 1,
			"the code quoted from %.80s (%u lines) is in no line of it in the tree indexed",
			q->path, lines);
	}
	free(q);
}
