// SPDX-License-Identifier: GPL-2.0-only
/*
 * claims_cited - a "file.c:LINE" the prose cites lies in the function
 * it names beside it (CLAIM_CITED; claims_int.h)
 *
 * DESCRIPTION
 *	A report that reasons about the source cites where: "Looking at
 *	drivers/net/usb/cdc_ncm.c:1781, the loop in cdc_ncm_rx_fixup()
 *	...", "i915_drm_resume() calls it directly (i915_driver.c:1187)".
 *	Someone who read the file gives a line of the function the sentence
 *	names; a composed analysis picks a file and a line that look right.
 *
 *	A citation is a "path.c:LINE" of the prose: not of a WARNING or
 *	"kernel BUG at" line (claims_site.c checks those), not of a line of
 *	a trace ("+0x", which claims.c's lines check), a compiler's
 *	"x.c:12:5:", a quoted ("> ") or a diff line.  The functions named
 *	are the "name()"s in kernel style of its sentence and of its line
 *	(claims_name_cited(): not a member called through a pointer, not
 *	the report's own).  One check per distinct citation, made only for
 *	a report of the tree's own release (claims_site.c's gate: the
 *	report's major.minor, not a vendor's x.y.0-N build) and when one
 *	of those functions is defined in that file: it holds when LINE is
 *	within a stable update's slack of such a function's body, or of a
 *	function of the file it reaches (claims_line_in()); it fails past
 *	the file's end, or in another function none of them reaches.  A
 *	basename alone ("i915_driver.c:1187") names the file of the tree
 *	with that name that the named functions are defined in, only when
 *	they give one (the index holds no list of files by name: two
 *	functions of two "core.c"s leave it unresolved).  At most
 *	CITED_MAX citations a report, CITED_NAMES names each.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "claims.h"
#include "claims_int.h"
#include "symbols.h"
#include "util.h"

#define CITED_MAX      4
#define CITED_NAMES    6
#define CITED_NAME_MAX 80
#define CITED_PATH_MAX 160
#define CITED_REACH    400 /* characters of a sentence either side */
#define CITED_FILES    16
#define CITED_LOOKUPS  64 /* as claims.c's CLAIMS_MAX_LOOKUPS */

struct cited {
	char path[CITED_PATH_MAX + 1];
	unsigned line;
	char names[CITED_NAMES][CITED_NAME_MAX + 1];
	size_t n;
};

static bool path_char(char ch)
{
	return claims_name_char(ch) || ch == '/' || ch == '.' || ch == '-' ||
	       ch == '+';
}

static const char *line_end(const char *p, const char *end)
{
	const char *e = memchr(p, '\n', (size_t)(end - p));

	return e ? e : end;
}

static bool has(const char *p, const char *e, const char *needle)
{
	size_t n = strlen(needle);

	return (size_t)(e - p) >= n && memmem(p, (size_t)(e - p), needle, n);
}

/*
 * prose_line - a line of prose: not a WARNING or BUG line, a trace's
 * frame, a quote or a diff
 */
static bool prose_line(const char *p, const char *e)
{
	const char *q = p;

	while (q < e && (*q == ' ' || *q == '\t'))
		q++;
	if (q < e && (*q == '>' || *q == '+' || *q == '-' || *q == '@'))
		return false;
	return !has(p, e, "+0x") && !has(p, e, "kernel BUG at") &&
	       !(has(p, e, "WARNING:") && has(p, e, " at "));
}

/* sentence_end - a sentence ends at ". ", "! ", "? ", or a blank line */
static bool sentence_end(const char *p, const char *begin, const char *end)
{
	if (p + 1 >= end)
		return true;
	if ((*p == '.' || *p == '!' || *p == '?') &&
	    (p[1] == ' ' || p[1] == '\n'))
		return true;
	return *p == '\n' && p > begin && p[-1] == '\n';
}

/*
 * sentence - [*b, *e) of the sentence around [p, q) (bounded by
 * CITED_REACH either side), widened to the whole of its line
 */
static void sentence(const char *text, const char *end, const char *p,
		     const char *q, const char **b, const char **e)
{
	const char *lb = p, *le = line_end(q, end);

	while (lb > text && lb[-1] != '\n')
		lb--;
	for (*b = p; *b > text && p - *b < CITED_REACH; (*b)--)
		if (sentence_end(*b - 1, text, end))
			break;
	for (*e = q; *e < end && *e - q < CITED_REACH; (*e)++)
		if (sentence_end(*e, text, end))
			break;
	if (lb < *b)
		*b = lb;
	if (le > *e)
		*e = le;
}

/* add_names - the "name()"s of [b, e) into ct */
static void add_names(struct cited *ct, const char *text, size_t len,
		      const char *b, const char *e)
{
	const char *p;
	size_t i;

	for (p = b; p + 1 < e && ct->n < CITED_NAMES &&
		    (p = memchr(p, '(', (size_t)(e - p))) != NULL;
	     p++) {
		const char *nb = p;
		size_t n;
		bool dup = false;

		if (p + 1 >= e || p[1] != ')')
			continue;
		while (nb > text && claims_name_char(nb[-1]))
			nb--;
		n = (size_t)(p - nb);
		if (!n || n > CITED_NAME_MAX || isdigit((unsigned char)*nb) ||
		    !claims_kernel_style(nb, n) ||
		    !claims_name_cited(text, len, nb, n))
			continue;
		for (i = 0; i < ct->n && !dup; i++)
			dup = strlen(ct->names[i]) == n &&
			      !memcmp(ct->names[i], nb, n);
		if (dup)
			continue;
		memcpy(ct->names[ct->n], nb, n);
		ct->names[ct->n++][n] = '\0';
	}
}

/*
 * parse_one - a "path.c:LINE" token at colon (the ':'), into ct; false
 * when it is none (a compiler's "x.c:12:5", a header)
 */
static bool parse_one(const char *ls, const char *le, const char *colon,
		      struct cited *ct)
{
	const char *b = colon, *d = colon + 1;
	unsigned long line = 0;

	while (b > ls && path_char(b[-1]) && colon - b < CITED_PATH_MAX)
		b--;
	if (b > ls && path_char(b[-1]))
		return false;
	while (b < colon && (*b == '.' || *b == '/'))
		b++; /* "./fs/x.c", a sentence's "...x.c" */
	if (colon - b < 3 || colon[-2] != '.' || colon[-1] != 'c')
		return false;
	for (; d < le && isdigit((unsigned char)*d) && d - colon < 8; d++)
		line = line * 10 + (unsigned long)(*d - '0');
	if (d == colon + 1 || !line || (d < le && isdigit((unsigned char)*d)))
		return false;
	if (d + 1 < le && *d == ':' && isdigit((unsigned char)d[1]))
		return false;
	memcpy(ct->path, b, (size_t)(colon - b));
	ct->path[colon - b] = '\0';
	ct->line = (unsigned)line;
	ct->n = 0;
	return true;
}

static bool same_cited(const struct cited *a, const struct cited *b)
{
	return a->line == b->line && !strcmp(a->path, b->path);
}

/* parse_cited - the prose's citations with their names, at most max */
static size_t parse_cited(const char *text, size_t len, struct cited *out,
			  size_t max)
{
	const char *end = text + len, *p = text;
	size_t n = 0, i;

	while (p < end && n < max) {
		const char *e = line_end(p, end), *q = p;

		while (prose_line(p, e) && n < max && q + 3 < e &&
		       (q = memmem(q, (size_t)(e - q), ".c:", 3)) != NULL) {
			const char *b, *se;
			bool dup = false;

			q += 2;
			if (!parse_one(p, e, q, &out[n]))
				continue;
			for (i = 0; i < n && !dup; i++)
				dup = same_cited(&out[i], &out[n]);
			if (dup)
				continue;
			sentence(text, end, q - strlen(out[n].path), q, &b,
				 &se);
			add_names(&out[n], text, len, b, se);
			n += out[n].n > 0;
		}
		p = e + 1;
	}
	return n;
}

static const char *base_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/*
 * resolve_base - a basename alone: the one file of that name the named
 * functions are defined in, into path; false when none or several
 */
static bool resolve_base(const struct symbols *s, struct cited *ct,
			 unsigned *lookups)
{
	struct symbols_span spans[CITED_FILES];
	const char *found = NULL;
	size_t k, i, n;

	for (k = 0; k < ct->n && *lookups < CITED_LOOKUPS; k++) {
		(*lookups)++;
		n = symbols_spans(s, ct->names[k], spans, CITED_FILES);
		if (n > CITED_FILES)
			return false;
		for (i = 0; i < n; i++) {
			if (strcmp(base_of(spans[i].file), ct->path))
				continue;
			if (found && strcmp(found, spans[i].file))
				return false;
			found = spans[i].file;
		}
	}
	if (!found || strlen(found) > CITED_PATH_MAX)
		return false;
	strcpy(ct->path, found);
	return true;
}

void claims_check_cited(struct claims *c, const char *text, size_t len,
			const struct evidence *ev, const struct symbols *s)
{
	struct cited cited[CITED_MAX];
	size_t n, i, k;

	if (!s || !text || !claims_same_release(ev, s))
		return;
	n = parse_cited(text, len, cited, CITED_MAX);
	for (i = 0; i < n; i++) {
		const char *funcs[CITED_NAMES];
		char why[200] = "", claimed[CITED_PATH_MAX + 1];
		int r;

		if (c->lookups >= CITED_LOOKUPS)
			break;
		strcpy(claimed, cited[i].path);
		if (!strchr(cited[i].path, '/') &&
		    !resolve_base(s, &cited[i], &c->lookups))
			continue;
		for (k = 0; k < cited[i].n; k++)
			funcs[k] = cited[i].names[k];
		c->lookups++;
		r = claims_line_in(s, cited[i].path, cited[i].line, funcs,
				   cited[i].n, true, why, sizeof(why));
		if (r < 0)
			continue;
		claims_count(
			c, CLAIM_CITED, r,
			"%s:%u (cited beside %s()): %s in the tree indexed",
			claimed, cited[i].line, cited[i].names[0], why);
	}
}
