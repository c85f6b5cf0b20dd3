// SPDX-License-Identifier: GPL-2.0-only
/*
 * claims_site - the site a WARNING or BUG line names is in the function
 * it names (CLAIM_SITE; claims_int.h)
 *
 * DESCRIPTION
 *	The kernel prints where a warning or BUG fired from its own
 *	tables: "WARNING: CPU: 5 PID: 41 at fs/x.c:2261 func+0x2a1/0x340"
 *	and "kernel BUG at fs/x.c:3379!" (the function then is RIP's, or
 *	arm64's "pc : func+0x").  A log pasted from a machine has a file
 *	and line that lie in that function, or in one it calls that the
 *	compiler inlined into it; a composed log picks a file and line that
 *	look right and are not.
 *
 *	Each distinct site is one check, made only when the report states
 *	a kernel of the tree's own release (major.minor: a stable update
 *	moves a file's lines by a few, another release by hundreds; not a
 *	vendor's "x.y.0-N" build, whose backports move them too), the
 *	file is a .c of the tree (a header's inline function may be
 *	anyone's) and the index knows the function.  It holds when LINE is
 *	within SITE_SLACK lines of the function's body in that file, or of
 *	the body of a function of that file the named one reaches there
 *	(names in its body, a call or a function passed as a value, up to
 *	SITE_DEPTH deep: what the compiler may inline into it; inlining
 *	stays within one file).  It fails when LINE is past the file's
 *	end, or when function bodies lie within SITE_SLACK lines of it and
 *	none is reached (the function defined in another file reaches
 *	none); else it is not checkable.  At most SITE_MAX sites a report;
 *	the file is read only from the tree the index recorded
 *	(symbols_tree_open()), at most SITE_FILE_MAX bytes, SITE_DEFS_MAX
 *	definitions.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "claims.h"
#include "claims_int.h"
#include "evidence.h"
#include "symbols.h"
#include "util.h"

#define SITE_MAX       4
#define SITE_SLACK     40	  /* lines a stable update moves */
#define SITE_FILE_MAX  (4u << 20) /* bytes of a file read */
#define SITE_PATH_MAX  160
#define SITE_NAME_MAX  80
#define SITE_RIP_LINES 40 /* lines after "kernel BUG at" to its RIP */
#define SITE_FILES     16
#define SITE_DEPTH     4    /* nested inlined calls within the file */
#define SITE_DEFS_MAX  8192 /* definitions of one file */
#define SITE_LOOKUPS   64   /* as claims.c's CLAIMS_MAX_LOOKUPS */
#define SITE_WHY_NAMES 96   /* the functions named, in a reason */
#define SITE_WHY_MAX   200  /* a reason */

struct site {
	char path[SITE_PATH_MAX + 1];
	char func[SITE_NAME_MAX + 1];
	unsigned line;
};

static bool path_char(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_' || ch == '/' ||
	       ch == '.' || ch == '-' || ch == '+';
}

static bool name_char(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

/* line_end - the end of the line at p */
static const char *line_end(const char *p, const char *end)
{
	const char *e = memchr(p, '\n', (size_t)(end - p));

	return e ? e : end;
}

/* find - needle in [p, e), or NULL */
static const char *find(const char *p, const char *e, const char *needle)
{
	size_t n = strlen(needle);

	if (p >= e || (size_t)(e - p) < n)
		return NULL;
	return memmem(p, (size_t)(e - p), needle, n);
}

/*
 * parse_path_line - "dir/x.c:123" at p: path and line into st; the
 * pointer after the digits, or NULL
 */
static const char *parse_path_line(const char *p, const char *e,
				   struct site *st)
{
	const char *b = p, *d;
	unsigned long line = 0;

	while (p < e && path_char(*p) && p - b < SITE_PATH_MAX)
		p++;
	if (p - b < 3 || p >= e || *p != ':' || p[-2] != '.' ||
	    (p[-1] != 'c' && p[-1] != 'h'))
		return NULL;
	memcpy(st->path, b, (size_t)(p - b));
	st->path[p - b] = '\0';
	for (d = ++p; p < e && isdigit((unsigned char)*p) && p - d < 7; p++)
		line = line * 10 + (unsigned long)(*p - '0');
	if (p == d || !line)
		return NULL;
	st->line = (unsigned)line;
	return p;
}

/* parse_func - "func+0x" at p (after spaces) into st->func */
static bool parse_func(const char *p, const char *e, struct site *st)
{
	const char *b;
	size_t n;

	while (p < e && *p == ' ')
		p++;
	for (b = p; p < e && (name_char(*p) || *p == '.'); p++)
		;
	if (e - p < 3 || memcmp(p, "+0x", 3))
		return false;
	n = symbols_name_len(b);
	if (n < 3 || n > SITE_NAME_MAX || n > (size_t)(p - b))
		return false;
	memcpy(st->func, b, n);
	st->func[n] = '\0';
	return true;
}

/* rip_func - the function of the first "RIP: 0010:f+0x" or "pc : f+0x" */
static bool rip_func(const char *p, const char *end, struct site *st)
{
	unsigned k;

	for (k = 0; k < SITE_RIP_LINES && p < end; k++) {
		const char *e = line_end(p, end), *q;

		if ((q = find(p, e, "RIP: ")) != NULL) {
			q += 5;
			while (q < e && (isxdigit((unsigned char)*q)))
				q++;
			if (q < e && *q == ':')
				return parse_func(q + 1, e, st);
		} else if ((q = find(p, e, "pc : ")) != NULL) {
			return parse_func(q + 5, e, st);
		}
		p = e + 1;
	}
	return false;
}

/* parse_sites - the WARNING and BUG sites of the text, at most max */
static size_t parse_sites(const char *text, size_t len, struct site *sites,
			  size_t max)
{
	const char *end = text + len, *p = text;
	size_t n = 0, i;

	while (p < end && n < max) {
		const char *e = line_end(p, end), *q, *r;
		struct site st;
		bool ok = false;

		if ((q = find(p, e, "WARNING: ")) != NULL &&
		    (q = find(q, e, " at ")) != NULL &&
		    (r = parse_path_line(q + 4, e, &st)) != NULL)
			ok = parse_func(r, e, &st);
		else if ((q = find(p, e, "kernel BUG at ")) != NULL &&
			 (r = parse_path_line(q + 14, e, &st)) != NULL &&
			 r < e && *r == '!')
			ok = rip_func(e < end ? e + 1 : end, end, &st);
		for (i = 0; ok && i < n; i++)
			ok = strcmp(sites[i].path, st.path) ||
			     strcmp(sites[i].func, st.func) ||
			     sites[i].line != st.line;
		if (ok)
			sites[n++] = st;
		p = e + 1;
	}
	return n;
}

bool claims_same_release(const struct evidence *ev, const struct symbols *s)
{
	unsigned tree = symbols_tree_version(s);
	const char *v = ev ? ev->kernel_version : NULL;
	unsigned long a, b;
	char *e;

	if (!tree || !v || !isdigit((unsigned char)*v))
		return false;
	a = strtoul(v, &e, 10);
	if (*e != '.' || !isdigit((unsigned char)e[1]))
		return false;
	b = strtoul(e + 1, &e, 10);
	/*
	 * "6.12.0-55.el10", "6.12.0-31-generic": upstream never ships an
	 * x.y.0 with a build number; a vendor's kernel on that base carries
	 * its own backports, which move a file's lines by hundreds
	 */
	if (!strncmp(e, ".0-", 3) && isdigit((unsigned char)e[3]))
		return false;
	return a == tree >> 16 && b == ((tree >> 8) & 0xffu);
}

static bool path_matches(const char *claimed, const char *indexed)
{
	size_t cn = strlen(claimed), in = strlen(indexed);

	if (cn == in)
		return !strcmp(claimed, indexed);
	if (cn > in)
		return claimed[cn - in - 1] == '/' &&
		       !strcmp(claimed + cn - in, indexed);
	return indexed[in - cn - 1] == '/' &&
	       !strcmp(indexed + in - cn, claimed);
}

/* site_read_file - the tree's file rel, NUL-terminated; NULL if none */
static char *site_read_file(const struct symbols *s, const char *rel,
			    size_t *len)
{
	int fd = symbols_tree_open(s, rel);
	char *buf = util_read_fd(fd, SITE_FILE_MAX, len);

	if (fd >= 0)
		close(fd);
	return buf;
}

/* the tree file's function definitions, for the calls within it */
struct defs {
	struct def {
		char name[SITE_NAME_MAX + 1];
		size_t len;
		unsigned first, last;
		const char *body;
		size_t body_len;
		unsigned char depth; /* 0: not reached; else depth + 1 */
	} * v;
	size_t n, cap;
};

static void add_def(void *arg, const struct symbols_def *d)
{
	struct defs *ds = arg;
	struct def *e;

	if ((d->flags & SYM_DEFINE) || !d->body || ds->n >= SITE_DEFS_MAX ||
	    d->len > SITE_NAME_MAX)
		return;
	if (ds->n == ds->cap) {
		ds->cap = ds->cap ? 2 * ds->cap : 256;
		ds->v = xrealloc(ds->v, ds->cap * sizeof(*ds->v));
	}
	e = &ds->v[ds->n++];
	memcpy(e->name, d->name, d->len);
	e->name[d->len] = '\0';
	e->len = d->len;
	e->first = d->line < d->first ? d->line : d->first;
	e->last = d->last;
	e->body = d->body;
	e->body_len = d->body_len;
	e->depth = 0;
}

static bool def_is(const struct def *e, const char *name, size_t n)
{
	return e->len == n && !memcmp(e->name, name, n);
}

static int cmp_def(const void *a, const void *b)
{
	const struct def *x = a, *y = b;

	return strcmp(x->name, y->name);
}

/* find_def - the first definition named name[0..n) (ds sorted), or -1 */
static long find_def(const struct defs *ds, const char *name, size_t n)
{
	size_t lo = 0, hi = ds->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int r = strncmp(ds->v[mid].name, name, n);

		if (r < 0 || (r == 0 && ds->v[mid].len < n))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ds->n && def_is(&ds->v[lo], name, n) ? (long)lo : -1;
}

/*
 * reach - mark the definitions the ones marked at depth d name in their
 * bodies (a call, or a function passed as a value: either may be
 * inlined); returns how many were newly marked (ds sorted by name)
 */
static size_t reach(struct defs *ds, unsigned char d)
{
	size_t i, marked = 0;

	for (i = 0; i < ds->n; i++) {
		const struct def *e = &ds->v[i];
		const char *p = e->body, *end = e->body + e->body_len;

		if (e->depth != d)
			continue;
		while (p < end) {
			const char *b;
			long j;

			if (!name_char(*p) || isdigit((unsigned char)*p)) {
				p++;
				continue;
			}
			for (b = p; p < end && name_char(*p); p++)
				;
			for (j = find_def(ds, b, (size_t)(p - b));
			     j >= 0 && (size_t)j < ds->n &&
			     def_is(&ds->v[j], b, (size_t)(p - b));
			     j++)
				if (!ds->v[j].depth) {
					ds->v[j].depth = d + 1;
					marked++;
				}
		}
	}
	return marked;
}

static unsigned count_lines(const char *t, size_t n)
{
	unsigned lines = 0;
	const char *p = t, *end = t + n;

	while (p < end && (p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		lines++;
		p++;
	}
	return lines + (n && t[n - 1] != '\n');
}

/* near - is LINE within SITE_SLACK lines of e's lines? */
static bool near(const struct def *e, unsigned line)
{
	return line + SITE_SLACK >= e->first && line <= e->last + SITE_SLACK;
}

/* name_list - "f()", "f() or g()", "f(), g() or h()" into buf */
static void name_list(char *buf, size_t size, const char *const *funcs,
		      size_t n)
{
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < n && used < size; i++) {
		int w = snprintf(buf + used, size - used, "%s%s()",
				 !i	      ? ""
				 : i + 1 == n ? " or "
					      : ", ",
				 funcs[i]);

		if (w < 0)
			break;
		used += (size_t)w;
	}
}

int claims_line_in(const struct symbols *s, const char *path, unsigned line,
		   const char *const *funcs, size_t nfuncs, bool defined,
		   char *why, size_t whylen)
{
	struct symbols_span spans[SITE_FILES];
	struct defs ds = { NULL, 0, 0 };
	const char *file = NULL, *other = NULL;
	char names[SITE_WHY_NAMES];
	size_t n, i, k, tlen;
	unsigned char d;
	unsigned lines;
	char *text;
	int r = -1;
	bool known = false;

	for (k = 0; k < nfuncs; k++) {
		n = symbols_spans(s, funcs[k], spans, SITE_FILES);
		if (!n || n > SITE_FILES)
			continue;
		known = true;
		for (i = 0; i < n; i++) {
			if (!path_matches(path, spans[i].file))
				continue;
			if (!file)
				file = spans[i].file;
			if (line + SITE_SLACK >= spans[i].first &&
			    line <= spans[i].last + SITE_SLACK)
				return 1;
		}
	}
	if (!known || (!file && defined))
		return -1;
	/* the file as the tree has it (a claimed "/build/fs/x.c") */
	text = site_read_file(s, file ? file : path, &tlen);
	if (!text)
		return -1;
	lines = count_lines(text, tlen);
	if (line > lines + SITE_SLACK) {
		free(text);
		snprintf(why, whylen, "past its end (%u lines)", lines);
		return 0;
	}
	symbols_scan_defs(text, tlen, add_def, &ds);
	if (ds.n)
		qsort(ds.v, ds.n, sizeof(*ds.v), cmp_def);
	/* inlining stays within the file: what the functions reach there */
	for (i = 0; i < ds.n; i++)
		for (k = 0; k < nfuncs; k++)
			if (def_is(&ds.v[i], funcs[k], strlen(funcs[k])))
				ds.v[i].depth = 1;
	for (d = 1; d <= SITE_DEPTH && reach(&ds, d); d++)
		;
	for (i = 0; i < ds.n && r != 1; i++) {
		if (!near(&ds.v[i], line))
			continue;
		if (ds.v[i].depth) {
			r = 1;
		} else if (r < 0 ||
			   (ds.v[i].first <= line && line <= ds.v[i].last)) {
			r = 0; /* the one holding LINE named, if any */
			other = ds.v[i].name;
		}
	}
	if (!r) {
		name_list(names, sizeof(names), funcs, nfuncs);
		snprintf(why, whylen, "in or near %s(), which %s%s", other,
			 names,
			 file ? " does not reach within the file"
			      : " (not defined in that file) cannot inline");
	}
	free(ds.v);
	free(text);
	return r;
}

void claims_check_sites(struct claims *c, const char *text, size_t len,
			const struct evidence *ev, const struct symbols *s)
{
	struct site sites[SITE_MAX];
	size_t n, i;

	if (!s || !text || !claims_same_release(ev, s))
		return;
	n = parse_sites(text, len, sites, SITE_MAX);
	for (i = 0; i < n; i++) {
		size_t pl = strlen(sites[i].path);
		char why[SITE_WHY_MAX] = "";
		const char *func;
		int r;

		if (pl < 3 || sites[i].path[pl - 1] != 'c' ||
		    c->lookups >= SITE_LOOKUPS)
			continue;
		c->lookups++;
		func = sites[i].func;
		r = claims_line_in(s, sites[i].path, sites[i].line, &func, 1,
				   false, why, sizeof(why));
		if (r < 0)
			continue;
		claims_count(
			c, CLAIM_SITE, r,
			"%s:%u (the report's %s() site): %s in the tree indexed",
			sites[i].path, sites[i].line, sites[i].func, why);
	}
}
