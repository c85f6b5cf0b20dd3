// SPDX-License-Identifier: GPL-2.0-only
/*
 * crashlog_frame - guilty files and the evidence's stack frames (see
 * crashlog.h, crashlog_int.h)
 */
#include <ctype.h>
#include <stdlib.h>

#include "crashlog_int.h"

/* ---- guilty file ----------------------------------------------------- */

/* mini_match - cl_guilty_ignores pattern syntax, see above */
static bool mini_match(const char *pat, const char *s)
{
	for (; *pat; pat++, s++) {
		if (pat[0] == '.' && pat[1] == '*') {
			const char *t;

			for (t = s;; t++) {
				if (mini_match(pat + 2, t))
					return true;
				if (!*t)
					return false;
			}
		}
		if (!*s)
			return false;
		if (pat[0] == '\\' && pat[1]) {
			pat++;
			if (*s != *pat)
				return false;
		} else if (*pat != '.' && *pat != *s) {
			return false;
		}
	}
	return true;
}

/* match_any - path matches one of pats (cl_guilty_ignores[] syntax) */
static bool match_any(const char *const *pats, size_t n, const char *path)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const char *p = pats[i];

		if (*p == '^' && p[1] != path[0])
			continue;
		if (*p == '^') {
			if (mini_match(p + 1, path))
				return true;
		} else {
			const char *s;

			for (s = path; *s; s++)
				if (mini_match(p, s))
					return true;
		}
	}
	return false;
}

/* crashlog_guilty_ignored - path is one the guilty-file rules skip */
bool crashlog_guilty_ignored(const char *path)
{
	return match_any(cl_guilty_ignores, cl_nguilty_ignores, path);
}

/* crashlog_core_path - core code a maintainer looks past (cl_core_paths) */
bool crashlog_core_path(const char *path)
{
	static const char crypto[] = "crypto/", generic[] = "_generic.c";
	size_t i, n = strlen(path);

	/* an algorithm's generic C implementation, not crypto/'s API */
	if (!strncmp(path, crypto, sizeof(crypto) - 1) &&
	    !strchr(path + sizeof(crypto) - 1, '/') &&
	    n >= sizeof(generic) - 1 &&
	    !strcmp(path + n - (sizeof(generic) - 1), generic))
		return true;
	for (i = 0; i < cl_ncore_dirs; i++) {
		n = strlen(cl_core_dirs[i]);
		if (!strncmp(path, cl_core_dirs[i], n) && path[n] &&
		    !strchr(path + n, '/'))
			return true;
	}
	return match_any(cl_core_paths, cl_ncore_paths, path);
}

static bool path_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       is_digit(c) || c == '_' || c == '-' || c == '.' || c == '/';
}

static bool name_char(char c)
{
	return path_char(c) && c != '.' && c != '/';
}

/*
 * find_source - the first "dir/file.c:123" in a line (syzkaller's
 * filename pattern); sets start and length of the path
 */
static bool find_source(const char *s, size_t len, size_t *start, size_t *plen)
{
	const char *c = s;

	while ((c = memchr(c, ':', len - (size_t)(c - s)))) {
		size_t i = (size_t)(c++ - s), b;

		if (i < 3 || i + 1 >= len || !is_digit(s[i + 1]))
			continue;
		if ((s[i - 1] != 'c' && s[i - 1] != 'h') || s[i - 2] != '.' ||
		    !name_char(s[i - 3]))
			continue;
		for (b = i; b > 0 && path_char(s[b - 1]); b--)
			;
		*start = b;
		*plen = i - b;
		return true;
	}
	return false;
}

/* clean_path - Go's filepath.Clean for relative paths */
static char *clean_path(const char *p, size_t len)
{
	char *out = xmalloc(len + 2);
	size_t o = 0, i = 0, dotdot = 0;
	bool rooted = len && p[0] == '/';

	if (rooted) {
		out[o++] = '/';
		i = 1;
		dotdot = 1;
	}
	while (i < len) {
		size_t j = i;

		while (j < len && p[j] != '/')
			j++;
		if (j == i || (j - i == 1 && p[i] == '.')) {
			/* empty or "." */
		} else if (j - i == 2 && p[i] == '.' && p[i + 1] == '.') {
			if (o > dotdot) {
				while (o > dotdot && out[o - 1] != '/')
					o--;
				if (o > dotdot)
					o--;
				else if (o && out[o - 1] == '/' && !rooted)
					o--;
			} else if (!rooted) {
				if (o)
					out[o++] = '/';
				out[o++] = '.';
				out[o++] = '.';
				dotdot = o;
			}
		} else {
			if (o && out[o - 1] != '/')
				out[o++] = '/';
			memcpy(out + o, p + i, j - i);
			o += j - i;
		}
		i = j + 1;
	}
	if (!o)
		out[o++] = '.';
	out[o] = '\0';
	return out;
}

static bool line_ignored(struct rx *x, const char *s, size_t len)
{
	uint64_t mk = litset_mask(&cl_g.lineset, s, len);

	cl_ensure_common();
	if (!(mk & (BIT(MK_IGN_IRQ) | BIT(MK_IGN_REG) | BIT(MK_IGN_AT))) &&
	    !memchr(s, '#', len))
		return false;
	return any_match(x, cl_g.line_ignore, ARRAY_SIZE(cl_g.line_ignore), s,
			 len);
}

/* path_dir - Go's filepath.Dir of a clean path */
static size_t path_dir(const char *p)
{
	const char *slash = strrchr(p, '/');

	return slash ? (size_t)(slash - p) : 0;
}

/* deeper - suffix is "/dir.../name.c|h" with at least one more level */
static bool deeper(const char *suffix)
{
	size_t n = strlen(suffix), i, last = 0;

	if (n < 5 || suffix[0] != '/')
		return false;
	if (suffix[n - 2] != '.' ||
	    (suffix[n - 1] != 'c' && suffix[n - 1] != 'h'))
		return false;
	for (i = 1; i < n; i++)
		if (suffix[i] == '/')
			last = i;
	if (last < 2)
		return false;
	for (i = 1; i < last; i++)
		if (!path_char(suffix[i]))
			return false;
	for (i = last + 1; i < n - 2; i++)
		if (!name_char(suffix[i]))
			return false;
	return last + 1 < n - 2;
}

/* under_dir - clean lies under the directory of guilty (cheap test) */
static bool under_dir(const char *guilty, const char *clean)
{
	size_t n = path_dir(guilty);

	return !strchr(guilty, '/') ? clean[0] == '.'
				    : !strncmp(clean, guilty, n);
}

/* refine - take a deeper file under the directory of *guilty */
static void refine(char **guilty, const char *clean)
{
	const char *dir = *guilty;
	size_t n = path_dir(*guilty);

	if (!strchr(*guilty, '/')) {
		dir = ".";
		n = 1;
	}
	if (!strncmp(clean, dir, n) && deeper(clean + n)) {
		free(*guilty);
		*guilty = xstrdup(clean);
	}
}

static char *guilty_impl(struct rx *x, const char *r, size_t len)
{
	const char *p = r, *end = r + len;
	char *guilty = NULL;
	bool accepted = false;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = nl ? (size_t)(nl - p) : (size_t)(end - p);
		size_t st, pl;
		char *clean;

		if (find_source(p, ll, &st, &pl)) {
			clean = clean_path(p + st, pl);
			if (!accepted) {
				if (!guilty)
					guilty = xmemdup0(p + st, pl);
				if (!crashlog_guilty_ignored(clean) &&
				    !line_ignored(x, p, ll)) {
					free(guilty);
					guilty = clean;
					clean = NULL;
					accepted = true;
				}
			} else if (under_dir(guilty, clean) &&
				   !crashlog_guilty_ignored(clean) &&
				   !line_ignored(x, p, ll)) {
				refine(&guilty, clean);
			}
			free(clean);
		}
		p = nl ? nl + 1 : end;
	}
	return guilty;
}

char *cl_guilty_of(struct rx *x, const char *title, const char *r, size_t len)
{
	static const char *const irq_entries[] = { "apic_timer_interrupt+0x",
						   "el1h_64_irq+0x",
						   "Exception stack" };
	size_t i;

	if (starts_with(title, "INFO: rcu detected stall")) {
		for (i = 0; i < ARRAY_SIZE(irq_entries); i++) {
			const char *pos = memmem(r, len, irq_entries[i],
						 strlen(irq_entries[i]));
			char *f;

			if (!pos)
				continue;
			f = guilty_impl(x, pos, len - (size_t)(pos - r));
			if (f)
				return f;
		}
	}
	return guilty_impl(x, r, len);
}

/* crashlog_guilty - syzkaller's guilty-file choice over report text */
char *crashlog_guilty(const char *title, const char *report, size_t len)
{
	struct rx x;
	char *f;

	cl_init_once();
	x.md = pcre2_match_data_create(32, NULL);
	x.lim = NULL;
	if (!x.md)
		die("crashlog: out of memory");
	f = cl_guilty_of(&x, title ? title : "", report, len);
	pcre2_match_data_free(x.md);
	pcre2_match_context_free(x.lim);
	return f;
}

/* crashlog_guilty_pick - the guilty-file rules over candidate paths */
long crashlog_guilty_pick(const char *const *paths, size_t n)
{
	char *guilty;
	long first = -1, pick = -1;
	size_t i;

	for (i = 0; i < n; i++) {
		if (first < 0)
			first = (long)i;
		if (!crashlog_guilty_ignored(paths[i])) {
			pick = (long)i;
			break;
		}
	}
	if (pick < 0)
		return first;
	guilty = xstrdup(paths[pick]);
	for (i = (size_t)pick + 1; i < n; i++) {
		if (crashlog_guilty_ignored(paths[i]))
			continue;
		refine(&guilty, paths[i]);
		if (!strcmp(guilty, paths[i]))
			pick = (long)i;
	}
	free(guilty);
	return pick;
}

/* crashlog_skip_function - a generic frame that never names a crash */
bool crashlog_skip_function(const char *name)
{
	cl_init_once();
	return litset_any(&cl_g.generic, name, strlen(name));
}

/* ---- stack frames for the evidence ----------------------------------- */

static bool func_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool func_char(char c)
{
	return func_start(c) || is_digit(c) || c == '.' || c == '$';
}

static bool parse_hex(const char **pp, const char *end, unsigned long *out)
{
	const char *p = *pp;
	unsigned long v = 0;
	size_t n = 0;

	if (end - p < 3 || p[0] != '0' || p[1] != 'x')
		return false;
	for (p += 2; p < end; p++, n++) {
		char c = *p;
		unsigned d;

		if (is_digit(c))
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			break;
		if (n < 16)
			v = v * 16 + d;
	}
	if (!n)
		return false;
	*out = v;
	*pp = p;
	return true;
}

/* skip_pc - "[<ffffffff81234567>] " or "[c0000000012345]" */
static const char *skip_pc(const char *p, const char *end)
{
	const char *q = p;

	if (q >= end || *q != '[')
		return p;
	q++;
	if (q < end && *q == '<')
		q++;
	if (q + 1 < end && q[0] == '0' && q[1] == 'x')
		q += 2;
	if (q >= end || !isxdigit((unsigned char)*q))
		return p;
	while (q < end && isxdigit((unsigned char)*q))
		q++;
	if (q < end && *q == '>')
		q++;
	if (q >= end || *q != ']')
		return p;
	q++;
	while (q < end && *q == ' ')
		q++;
	return q;
}

/*
 * source_at - "path/file.c:123" at p (after spaces, optionally in
 * parentheses); sets file and line
 */
static bool source_at(const char *p, const char *end, struct frame *f,
		      const char **after)
{
	const char *q, *b;
	unsigned long line = 0;

	while (p < end && *p == ' ')
		p++;
	if (p < end && *p == '(')
		p++;
	for (b = p; p < end && path_char(*p); p++)
		;
	if (p >= end || *p != ':' || p == b || p + 1 >= end || !is_digit(p[1]))
		return false;
	for (q = b; q < p && *q != '.'; q++)
		;
	if (q == p)
		return false; /* no extension: not a file */
	for (q = p + 1; q < end && is_digit(*q) && line < 10000000; q++)
		line = line * 10 + (unsigned long)(*q - '0');
	while (q < end && (*q == ':' || is_digit(*q)))
		q++; /* ":12:5" columns */
	if (q < end && *q == ')')
		q++;
	free(f->file);
	f->file = clean_path(b, (size_t)(p - b));
	f->line = (int)line;
	*after = q;
	return true;
}

void cl_frame_release(struct frame *f)
{
	free(f->function);
	free(f->module);
	free(f->file);
}

/*
 * trailer_only - after a symbolised frame's source only more sources,
 * "[inline]", "[module]", "(P)"-style marks and, last, a bare module
 * name (decode_stacktrace.sh) may follow, not prose; sets the module
 */
static bool trailer_only(const char *p, const char *end, struct frame *f)
{
	while (p < end) {
		const char *t, *q;

		while (p < end && *p == ' ')
			p++;
		if (p >= end)
			break;
		t = p;
		while (p < end && *p != ' ')
			p++;
		if (*t == '[' || *t == '(' || *t == '?')
			continue;
		if (memchr(t, ':', (size_t)(p - t)))
			continue;
		for (q = p; q < end && *q == ' '; q++)
			;
		if (q < end || !func_start(*t))
			return false;
		for (q = t; q < p && (func_char(*q) || *q == '-'); q++)
			;
		if (q < p)
			return false;
		if (!f->module)
			f->module = xmemdup0(t, (size_t)(p - t));
	}
	return true;
}

/*
 * crash_bt_lead - past the "#7 [ffffc90006b6fe38] " that the crash(8)
 * utility's "bt" puts before each frame of a kdump's stack; NULL when
 * the line has no such lead.  Its frames read "func at ffffffff8106af4e"
 * with " [module]" after them, no offset/size.
 */
const char *crashlog_bt_lead(const char *p, const char *end)
{
	const char *q;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p >= end || *p != '#')
		return NULL;
	for (q = ++p; q < end && is_digit(*q); q++)
		;
	if (q == p || q - p > 4 || q >= end || *q != ' ')
		return NULL;
	while (q < end && *q == ' ')
		q++;
	p = skip_pc(q, end);
	return p == q ? NULL : p;
}

/*
 * exception_rip - past the "[exception RIP: " of a crash(8) "bt" before
 * the function an exception stopped in, or NULL
 */
static const char *exception_rip(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return has_prefix(p, end, "[exception RIP: ") ? p + 16 : NULL;
}

/*
 * bt_address - " at ffffffff8106af4e" after a crash(8) frame's name:
 * past it, or NULL
 */
static const char *bt_address(const char *p, const char *end)
{
	const char *q;

	if (!has_prefix(p, end, " at "))
		return NULL;
	p += 4;
	for (q = p; q < end && isxdigit((unsigned char)*q); q++)
		;
	return q - p >= 8 ? q : NULL;
}

/*
 * frame_lead - past what comes before a frame's function: indentation,
 * "(inlined by) ", a crash-site register ("RIP: 0010:", "pc : "), an
 * "<IRQ>"-style marker, "? " and the addresses; sets f->inlined and
 * f->unreliable
 */
static const char *frame_lead(const char *p, const char *end, struct frame *f)
{
	const char *q;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (has_prefix(p, end, "(inlined by) ")) {
		f->inlined = true;
		p += 13;
	}
	/* crash site registers: "RIP: 0010:", "pc : ", "PC is at ", "NIP " */
	if (has_prefix(p, end, "RIP: ") || has_prefix(p, end, "EIP: ")) {
		p += 5;
		q = memchr(p, ':', (size_t)(end - p));
		if (q && q - p <= 6)
			p = q + 1;
		p = skip_pc(p, end);
	} else if (has_prefix(p, end, "pc : ")) {
		p += 5;
	} else if (has_prefix(p, end, "PC is at ")) {
		p += 9;
	} else if (has_prefix(p, end, "NIP ")) {
		p = skip_pc(p + 4, end);
	} else if (has_prefix(p, end, "IP: ")) {
		p = skip_pc(p + 4, end);
	}
	/* "<IRQ>", "<EOI>", "<TASK>" markers before a frame */
	if (p < end && *p == '<' && p + 1 < end &&
	    isupper((unsigned char)p[1])) {
		q = p + 1;
		while (q < end && (isupper((unsigned char)*q) || *q == '_'))
			q++;
		if (q < end && *q == '>') {
			p = q + 1;
			while (p < end && *p == ' ')
				p++;
		}
	}
	if (p < end && *p == '?' && p + 1 < end && p[1] == ' ') {
		f->unreliable = true;
		for (p += 2; p < end && *p == ' '; p++)
			;
	}
	p = skip_pc(p, end);
	p = skip_pc(p, end);
	if (p < end && *p == '?' && p + 1 < end && p[1] == ' ') {
		f->unreliable = true;
		for (p += 2; p < end && *p == ' '; p++)
			;
	}
	return p;
}

/* crashlog_parse_frame - parse one stack-trace line; false if not one */
bool crashlog_parse_frame(const char *line, size_t len, struct frame *f)
{
	const char *p = line, *end = line + len, *name, *q, *after, *bt, *exc;
	size_t nlen;
	bool offsets = false, src = false;

	memset(f, 0, sizeof(*f));
	bt = crashlog_bt_lead(p, end);
	exc = !bt ? exception_rip(p, end) : NULL;
	p = bt ? bt : exc ? exc : frame_lead(p, end, f);
	/* arm: "[<c0123>] (func [mod]) from [<c0456>] (caller+0x10/0x14)" */
	if (p < end && *p == '(') {
		const char *m = NULL, *me = NULL;

		q = p + 1;
		while (q < end && func_char(*q))
			q++;
		name = p + 1;
		nlen = (size_t)(q - name);
		if (q + 2 < end && q[0] == ' ' && q[1] == '[') {
			m = q + 2;
			me = memchr(m, ']', (size_t)(end - m));
			q = me ? me + 1 : end;
		}
		if (nlen && func_start(*name) &&
		    has_prefix(q, end, ") from ")) {
			if (m && me > m)
				f->module = xmemdup0(m, (size_t)(me - m));
			goto named;
		}
		return false;
	}
	if (p >= end || !func_start(*p))
		return false;
	if (has_suffix(p, end, " (unreliable)")) {
		f->unreliable = true; /* powerpc */
		end -= 13;
	}
	name = p;
	while (p < end && func_char(*p))
		p++;
	nlen = (size_t)(p - name);
	if (exc) {
		/* crash(8): "[exception RIP: func+111]", a decimal offset */
		if (p >= end || *p != '+')
			return false;
		for (q = p + 1; q < end && is_digit(*q) && q - p <= 16; q++)
			f->offset = f->offset * 10 + (unsigned long)(*q - '0');
		if (q == p + 1 || q >= end || *q != ']')
			return false;
		offsets = true;
		p = q + 1;
	} else if (p < end && *p == '+') {
		const char *r = p + 1;

		if (parse_hex(&r, end, &f->offset) && r < end && *r == '/' &&
		    (r++, parse_hex(&r, end, &f->size))) {
			offsets = true;
			p = r;
		} else {
			return false;
		}
	} else if (bt) {
		/* crash(8): "func at ffffffff8106af4e [module]" */
		q = bt_address(p, end);
		if (!q)
			return false;
		offsets = true;
		p = q;
	}
	/* " [xfs]" or " [xfs 1234abcd]": module */
	while (p < end && *p == ' ')
		p++;
	if (p < end && *p == '[' && end - p > 2 && p[1] != '<') {
		q = p + 1;
		while (q < end && (func_char(*q) || *q == '-'))
			q++;
		if (q > p + 1 && q < end && (*q == ']' || *q == ' ') &&
		    !has_prefix(p, end, "[inline]")) {
			f->module = xmemdup0(p + 1, (size_t)(q - p - 1));
			while (q < end && *q != ']')
				q++;
			p = q < end ? q + 1 : end;
		}
	}
	/* symbolised: " fs/xfs/xfs_icache.c:123 [inline]" or "(file:line)" */
	after = p;
	if (source_at(p, end, f, &after)) {
		src = true;
		if (end - p >= 8 && end[-1] == ']' &&
		    memmem(p, (size_t)(end - p), "[inline]", 8))
			f->inlined = true;
	} else if (has_prefix(p, end, "at ") &&
		   source_at(p + 3, end, f, &after)) {
		src = true; /* addr2line: "func at file.c:12" */
	}
	if (!offsets && (!src || !trailer_only(after, end, f))) {
		cl_frame_release(f);
		memset(f, 0, sizeof(*f));
		return false;
	}
	if (!f->module) {
		/* the module may follow the source: "(fs/x.c:12) [xfs]" */
		q = memrchr(p, '[', (size_t)(end - p));
		if (q && q + 1 < end && func_start(q[1]) &&
		    !has_prefix(q, end, "[inline]")) {
			const char *r = q + 1;

			while (r < end && (func_char(*r) || *r == '-'))
				r++;
			if (r < end && *r == ']')
				f->module =
					xmemdup0(q + 1, (size_t)(r - q - 1));
		}
	}
named:
	/* "xfs_iget.part.0", "foo.isra.12", "bar.cold": the C name */
	q = memchr(name, '.', nlen);
	if (q && q > name)
		nlen = (size_t)(q - name);
	if (nlen > FRAME_NAME_MAX)
		nlen = FRAME_NAME_MAX;
	f->function = xmemdup0(name, nlen);
	/* a kdump's own frames are not the crash's call chain, as the
	 * "? " ones of a console trace */
	if (bt && crashlog_skip_function(f->function))
		f->unreliable = true;
	return true;
}
