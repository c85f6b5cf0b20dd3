// SPDX-License-Identifier: GPL-2.0-only
/*
 * symbols_facts - the index's records of what a report may cite besides
 * functions (symbols_int.h): module parameters, sysctl names and ioctl
 * request macros, found in each source file the index scans
 *
 * DESCRIPTION
 *	- "param:NAME": the first argument of module_param(),
 *	  module_param_named(), _array, _string, _cb, _hw ..., core_param(),
 *	  torture_param() and a driver's own wrappers
 *	  named "*_param_named*" (i915_param_named_unsafe()), at the start
 *	  of a line (not their own #define);
 *	- "sysctl:NAME": '.procname = "NAME"' of a ctl_table, and the string
 *	  argument of a *SYSCTL*() macro on one line (net's
 *	  DEVINET_SYSCTL_RW_ENTRY(RP_FILTER, "rp_filter"));
 *	- "ioctl:NAME": "#define NAME _IO(...)", _IOR, _IOW, _IOWR, _IOC and
 *	  wrappers ending so (DRM_IOWR) in a header, "#define NAME 0x..."
 *	  of a uapi header or include/scsi/ (the older requests are
 *	  numbers: SG_IO 0x2285),
 *	  and every "#define NAME" of a header whose name says ioctl
 *	  (asm-generic/ioctls.h: TCGETS 0x5401) or sockios (SIOCGIFADDR).
 *
 *	Each is looked for with memmem() of a rare word ("param" and
 *	"procname", "SYSCTL" in .c files, "#" and "_IO" in the headers
 *	named), not a parse: the records only say that a name is defined
 *	somewhere in the tree.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols.h"
#include "symbols_int.h"
#include "util.h"

#define FACT_NAME_MAX 120

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

struct facts {
	const char *text, *end;
	/* the line of p, counted forward from the last position asked */
	const char *at;
	unsigned line;
	void (*fn)(void *arg, const char *key, size_t n, unsigned line);
	void *arg;
};

static unsigned line_of(struct facts *f, const char *p)
{
	if (p < f->at) {
		f->at = f->text;
		f->line = 1;
	}
	for (; f->at < p; f->at++)
		f->line += *f->at == '\n';
	return f->line;
}

static void emit(struct facts *f, const char *kind, const char *name, size_t n,
		 const char *where)
{
	char key[FACT_NAME_MAX + 16];
	size_t k = strlen(kind);

	if (!n || n > FACT_NAME_MAX)
		return;
	memcpy(key, kind, k);
	memcpy(key + k, name, n);
	f->fn(f->arg, key, k + n, line_of(f, where));
}

/* line_start - the first non-blank character of p's line */
static const char *line_start(const struct facts *f, const char *p)
{
	const char *b = p;

	while (b > f->text && b[-1] != '\n')
		b--;
	while (b < p && blank(*b))
		b++;
	return b;
}

/* param_macro - does the identifier [b, e) name a parameter macro? */
static bool param_macro(const char *b, const char *e)
{
	size_t n = (size_t)(e - b);

	return (n >= 12 && !memcmp(b, "module_param", 12)) ||
	       (n >= 10 && !memcmp(b, "core_param", 10)) ||
	       (n == 13 && !memcmp(b, "torture_param", 13)) ||
	       memmem(b, n, "_param_named", 12);
}

/*
 * opened - past blanks at p, the character open, then (after blanks
 * inside parentheses) a run of identifier characters ('-' too when
 * dash): *name is its start, its end is returned; NULL: no open
 */
static const char *opened(const char *p, const char *end, char open, bool dash,
			  const char **name)
{
	while (p < end && blank(*p))
		p++;
	if (p >= end || *p != open)
		return NULL;
	for (p++; open == '(' && p < end && blank(*p); p++)
		;
	*name = p;
	while (p < end && (ident_char(*p) || (dash && *p == '-')))
		p++;
	return p;
}

/* first_arg - the identifier after "(" at p, as in "macro(name, ..." */
static size_t first_arg(const char *p, const char *end, const char **name)
{
	const char *b, *e = opened(p, end, '(', false, &b);

	if (!e)
		return 0;
	while (e < end && blank(*e))
		e++;
	if (e >= end || (*e != ',' && *e != ')') || e == b)
		return 0;
	*name = b;
	while (e > b && !ident_char(e[-1]))
		e--;
	return (size_t)(e - b);
}

static void find_params(struct facts *f, const char *word, size_t wn)
{
	const char *p = f->text;

	while (p < f->end &&
	       (p = memmem(p, (size_t)(f->end - p), word, wn)) != NULL) {
		const char *b = p, *e = p + wn, *name;
		size_t n;

		p = e;
		while (b > f->text && ident_char(b[-1]))
			b--;
		while (e < f->end && ident_char(*e))
			e++;
		p = e;
		if (line_start(f, b) != b || !param_macro(b, e))
			continue;
		n = first_arg(e, f->end, &name);
		if (n)
			emit(f, "param:", name, n, b);
	}
}

/* string_at - the "NAME" at p (after blanks), its length or 0 */
static size_t string_at(const char *p, const char *end, const char **name)
{
	const char *b, *e = opened(p, end, '"', true, &b);

	if (!e || e >= end || *e != '"')
		return 0;
	*name = b;
	return (size_t)(e - b);
}

static void find_sysctls(struct facts *f)
{
	const char *p = f->text, *name;
	size_t n;

	while (p < f->end &&
	       (p = memmem(p, (size_t)(f->end - p), ".procname", 9)) != NULL) {
		const char *q = p + 9;

		p = q;
		while (q < f->end && blank(*q))
			q++;
		if (q < f->end && *q == '=' &&
		    (n = string_at(q + 1, f->end, &name)))
			emit(f, "sysctl:", name, n, p);
	}
	p = f->text;
	while (p < f->end &&
	       (p = memmem(p, (size_t)(f->end - p), "SYSCTL", 6)) != NULL) {
		const char *q = p + 6;

		p = q;
		while (q < f->end && ident_char(*q))
			q++;
		if (q >= f->end || *q != '(')
			continue;
		/* the first string argument on the same line */
		for (; q < f->end && *q != '\n' && *q != ')' && *q != '"'; q++)
			;
		if (q < f->end && *q == '"' &&
		    (n = string_at(q, f->end, &name)))
			emit(f, "sysctl:", name, n, p);
	}
}

/* ioctl_macro - "_IO", "_IOR", "_IOW", "_IOWR", "_IOC", "DRM_IOWR" ... */
static bool ioctl_macro(const char *b, const char *e)
{
	static const char *const ends[] = { "_IO", "_IOR", "_IOW", "_IOWR",
					    "_IOC" };
	size_t n = (size_t)(e - b), i;

	for (i = 0; i < ARRAY_SIZE(ends); i++) {
		size_t k = strlen(ends[i]);

		if (n >= k && !memcmp(e - k, ends[i], k))
			return true;
	}
	return false;
}

/*
 * define_at - "#define NAME VALUE" whose "#" starts the line at p: NAME
 * (its length, 0 if none) and where VALUE starts
 */
static size_t define_at(const char *p, const char *end, const char **name,
			const char **value)
{
	const char *e;

	if (end - p < 8 || *p != '#')
		return 0;
	for (p++; p < end && blank(*p); p++)
		;
	if (end - p < 7 || memcmp(p, "define", 6) || !blank(p[6]))
		return 0;
	for (p += 7; p < end && blank(*p); p++)
		;
	for (e = p; e < end && ident_char(*e); e++)
		;
	*name = p;
	*value = e;
	if (e < end && *e == '(') /* "#define HIDIOCSFEATURE(len) _IOC(" */
		while (*value < end && **value != ')' && **value != '\n')
			(*value)++;
	if (*value < end && **value == ')')
		(*value)++;
	if (e == p || *value >= end || !blank(**value))
		return 0;
	while (*value < end && blank(**value))
		(*value)++;
	return (size_t)(e - p);
}

/*
 * find_ioctls - the ioctl request macros of a header; with defines
 * (a uapi header), also "#define NAME 0x..." (SG_IO 0x2285, and any
 * hexadecimal constant: the records say only that the name is defined),
 * every "#define NAME" with all (a header named for ioctls)
 */
static void find_ioctls(struct facts *f, bool defines, bool all)
{
	const char *p = f->text, *name, *value;
	size_t n;

	for (; defines && p < f->end; p++) {
		/* a line-start "#" only: memchr() for the next one */
		p = memchr(p, '#', (size_t)(f->end - p));
		if (!p)
			break;
		if (line_start(f, p) == p &&
		    (n = define_at(p, f->end, &name, &value)) &&
		    (all || (f->end - value > 2 && value[0] == '0' &&
			     (value[1] == 'x' || value[1] == 'X'))))
			emit(f, "ioctl:", name, n, p);
	}
	p = f->text;
	while (p < f->end &&
	       (p = memmem(p, (size_t)(f->end - p), "_IO", 3)) != NULL) {
		const char *b = p, *e = p + 3, *s;

		p = e;
		while (b > f->text && ident_char(b[-1]))
			b--;
		while (e < f->end && ident_char(*e))
			e++;
		p = e;
		if (!ioctl_macro(b, e))
			continue;
		while (e < f->end && blank(*e)) /* "_IO (MD_MAJOR, 0x32)" */
			e++;
		if (e >= f->end || *e != '(')
			continue;
		s = line_start(f, b);
		if ((n = define_at(s, f->end, &name, &value)) && value == b)
			emit(f, "ioctl:", name, n, s);
	}
}

/* symbols_facts_scan - the records of one source text (symbols_int.h) */
void symbols_facts_scan(const char *path, const char *text, size_t len,
			void (*fn)(void *arg, const char *key, size_t n,
				   unsigned line),
			void *arg)
{
	struct facts f = { text, text + len, text, 1, fn, arg };
	const char *base = strrchr(path, '/');
	bool header = ends_with(path, ".h"), named;

	base = base ? base + 1 : path;
	named = strstr(base, "ioctl") || strstr(base, "sockios");
	if (!header) {
		find_params(&f, "param", 5);
		find_sysctls(&f);
	} else if (named || strstr(path, "/uapi/") ||
		   starts_with(path, "include/scsi/")) {
		/* include/scsi/sg.h is user space's too (SG_IO) */
		find_ioctls(&f, true, named);
	}
}

/* ---- the tree itself ---------------------------------------------------- */

/* makefile_number - "KEY = N" of the top Makefile's text, or -1 */
static long makefile_number(const char *text, const char *key)
{
	size_t k = strlen(key);
	const char *p = text;

	for (; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *q = p + k;
		long v = 0;

		if (strncmp(p, key, k) || (!blank(*q) && *q != '='))
			continue;
		while (blank(*q))
			q++;
		if (*q++ != '=')
			continue;
		while (blank(*q))
			q++;
		if (*q < '0' || *q > '9')
			return -1;
		while (*q >= '0' && *q <= '9' && v < 1000)
			v = v * 10 + (*q++ - '0');
		return v < 256 ? v : -1;
	}
	return -1;
}

/* symbols_tree_identity - the tree's absolute path and version */
void symbols_tree_identity(const char *tree, char path[SYMBOLS_TREE_MAX],
			   uint32_t *version)
{
	char *real = realpath(tree, NULL), *mk, *text;
	size_t len;
	long a, b, c;

	path[0] = '\0';
	*version = 0;
	if (real && strlen(real) < SYMBOLS_TREE_MAX)
		strcpy(path, real);
	free(real);
	mk = xasprintf("%s/Makefile", tree);
	/* quietly: a tree without one (a test's) has no version */
	if (access(mk, R_OK) == 0 &&
	    read_file(mk, 1u << 20, &text, &len) == 0) {
		a = makefile_number(text, "VERSION");
		b = makefile_number(text, "PATCHLEVEL");
		c = makefile_number(text, "SUBLEVEL");
		if (a > 0 && b >= 0)
			*version = SYMBOLS_VERSION(a, b, c > 0 ? c : 0);
		free(text);
	}
	free(mk);
}

/*
 * tree_path_ok - a relative path of the tree as a report may cite it:
 * no "..", no hidden component, no empty one, nothing but
 * [A-Za-z0-9_./+-]
 */
static bool tree_path_ok(const char *rel)
{
	const char *p;

	if (!*rel || *rel == '/' || strlen(rel) > SYMBOLS_TREE_MAX)
		return false;
	for (p = rel; *p; p++) {
		if (!ident_char(*p) && *p != '/' && *p != '.' && *p != '-' &&
		    *p != '+')
			return false;
		if ((p == rel || p[-1] == '/') && (*p == '.' || *p == '/'))
			return false;
	}
	return p[-1] != '/';
}

/* symbols_tree_open - open a file of the tree (symbols.h) */
int symbols_tree_open(const struct symbols *s, const char *rel)
{
	const char *tree = s ? symbols_tree(s) : NULL, *p = rel;
	char part[SYMBOLS_TREE_MAX + 1];
	int dir, fd = -1;

	if (!tree || !tree_path_ok(rel)) {
		errno = EINVAL;
		return -1;
	}
	dir = open(tree, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	/* one component at a time, following no symbolic link */
	while (dir >= 0) {
		size_t n = strcspn(p, "/");
		bool last = !p[n];

		memcpy(part, p, n);
		part[n] = '\0';
		fd = openat(dir, part,
			    O_RDONLY | O_NOFOLLOW | O_CLOEXEC |
				    (last ? O_NONBLOCK : O_DIRECTORY));
		close(dir);
		dir = -1;
		if (fd < 0 || last)
			break;
		dir = fd;
		fd = -1;
		p += n + 1;
	}
	if (fd >= 0) {
		struct stat st;

		if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
			close(fd);
			fd = -1;
		}
	}
	return fd;
}
