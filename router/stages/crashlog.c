// SPDX-License-Identifier: GPL-2.0-only
/*
 * crashlog - kernel crash reports in console logs (see crashlog.h)
 *
 * The parser follows the shape of syzkaller's pkg/report Linux reporter
 * (a header table, a list of title formats per header, stack "parts"
 * that walk the report to the frame naming the crash) so that titles
 * and guilty files agree with the ones syzbot mails carry.  The tables
 * (crashlog_table.c) are written for this program from the kernel's own
 * messages; crashlog_int.h lists the other parts.
 *
 * Speed matters (the filter runs once per message): a line is tested
 * against all crash headers at once through a bigram index, generic
 * frame names likewise, and pcre2 only runs on the extracted report.
 */
#define PCRE2_CODE_UNIT_WIDTH 8

#include <ctype.h>
#include <pcre2.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "crashlog_int.h"
#include "litset.h"
#include "strbuf.h"
#include "util.h"

/* ---- console lines --------------------------------------------------- */

enum { CTX_NONE = 0, CTX_CONSOLE = 1 };

struct cline {
	const char *s; /* the line without quote markers */
	size_t len;
	const char *c; /* content after the console prefix */
	size_t clen;
	uint64_t ctx; /* CTX_*, or a task/CPU context */
	bool questionable;
	size_t next;	/* offset of the following line in the input */
	uint64_t mask;	/* cl_g.lineset matches: crash headers and MK_* */
	uint64_t cmask; /* the same for c[0..clen), if cmask_ok */
	bool cmask_ok;	/* c[0..clen) ends s: cmask is known */
	int oops;	/* oops_match() once known, else OOPS_UNKNOWN */
};

#define OOPS_UNKNOWN (-2)

/* try_stamp - "<N>[  12.345678][ T123] " at s; end of prefix or 0 */
static size_t try_stamp(const char *s, size_t len, uint64_t *ctx)
{
	size_t i = 0;
	uint64_t n = 0;
	char kind;

	if (i < len && s[i] == '<') {
		for (i++; i < len && is_digit(s[i]); i++)
			;
		if (i == 1 || i >= len || s[i] != '>')
			return 0;
		i++;
	}
	if (i >= len || s[i] != '[')
		return 0;
	for (i++; i < len && s[i] == ' '; i++)
		;
	if (i >= len || !is_digit(s[i]))
		return 0;
	while (i < len && is_digit(s[i]))
		i++;
	if (i >= len || s[i] != '.')
		return 0;
	if (++i >= len || !is_digit(s[i]))
		return 0;
	while (i < len && is_digit(s[i]))
		i++;
	if (i >= len || s[i] != ']')
		return 0;
	i++;
	*ctx = CTX_CONSOLE;
	if (i < len && s[i] == '[') {
		size_t j = i + 1;

		while (j < len && s[j] == ' ')
			j++;
		if (j < len && (s[j] == 'C' || s[j] == 'T')) {
			kind = s[j++];
			if (j < len && is_digit(s[j])) {
				while (j < len && is_digit(s[j]) &&
				       n < 1u << 30)
					n = n * 10 + (uint64_t)(s[j++] - '0');
				if (j < len && s[j] == ']') {
					i = j + 1;
					*ctx = 2 +
					       ((uint64_t)(kind == 'T') << 32) +
					       n;
				}
			}
		}
	}
	if (i >= len || s[i] != ' ')
		return 0;
	return i + 1;
}

static bool ctx_is_task(uint64_t ctx)
{
	return ctx >= 2 && ((ctx - 2) >> 32) == 1;
}

static bool ctx_is_cpu(uint64_t ctx)
{
	return ctx >= 2 && ((ctx - 2) >> 32) == 0;
}

/* console_prefix - syzkaller's console line prefix; sets ctx */
static bool console_prefix(const char *s, size_t len, uint64_t *ctx)
{
	static const char dropped[] = "printk messages dropped ** ";
	const char *p = s;
	size_t n = len, k;

	if (n > 3 && has_prefix(p, p + n, "** ")) {
		const char *d = memmem(p, n, dropped, sizeof(dropped) - 1);

		if (d) {
			size_t skip = (size_t)(d - p) + sizeof(dropped) - 1;

			for (k = 3; k < skip - sizeof(dropped) + 1; k++)
				if (!is_digit(p[k]) && p[k] != ' ')
					break;
			if (k == skip - sizeof(dropped) + 1) {
				p += skip;
				n -= skip;
			}
		}
	}
	{
		/* greedy ".* login: ": the last occurrence that works */
		const char *pos[16];
		size_t np = 0;
		const char *q = p;

		while (np < ARRAY_SIZE(pos) &&
		       (q = memchr(q, ':', n - (size_t)(q - p)))) {
			if (has_suffix(p, q, " login") && q + 1 < p + n &&
			    q[1] == ' ')
				pos[np++] = q + 2;
			q++;
		}
		while (np--)
			if (try_stamp(pos[np], n - (size_t)(pos[np] - p), ctx))
				return true;
	}
	return try_stamp(p, n, ctx) != 0;
}

static const char *const months[] = {
	"Jan", "Feb", "Mar", "Apr", "May", "Jun",
	"Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
};

/* dmesg_t_prefix - "[Mon Oct  7 12:00:01 2024] " (dmesg -T) length */
static size_t dmesg_t_prefix(const char *s, size_t len)
{
	size_t i;

	if (len < 26 || s[0] != '[' || s[4] != ' ')
		return 0;
	for (i = 0; i < ARRAY_SIZE(months); i++)
		if (has_prefix(s + 5, s + len, months[i]))
			break;
	if (i == ARRAY_SIZE(months))
		return 0;
	for (i = 9; i < len && i < 40 && s[i] != ']'; i++)
		;
	if (i + 1 >= len || s[i] != ']' || s[i + 1] != ' ' || s[i - 5] != ' ')
		return 0;
	return i + 2;
}

/*
 * wrap_piece - a line that is only "path/x.c:12" (want_func false) or
 * "func+0x1/0x2" with an optional " [module]" (want_func true)
 */
static bool wrap_piece(const struct cline *l, bool want_func)
{
	const char *p = l->c, *end = l->c + l->clen, *t;
	bool colon = false;

	if (l->ctx != CTX_NONE || !l->clen || *p == ' ' || *p == '\t')
		return false;
	for (t = p; t < end && *t != ' '; t++) {
		if (*t == ':')
			colon = true;
		else if (!isalnum((unsigned char)*t) && !strchr("_./-+", *t))
			return false;
	}
	if (t < end && (end - t < 4 || t[1] != '[' || end[-1] != ']'))
		return false;
	if (want_func)
		return !colon && memmem(p, (size_t)(t - p), "+0x", 3);
	return colon && t == end && is_digit(end[-1]);
}

/*
 * wrap_state - how a WARNING line a mail client wrapped ends: 1 after
 * "at", 2 after "at path:line", 0 when it is complete
 */
static int wrap_state(const struct cline *l)
{
	const char *end = l->c + l->clen, *t;

	int st = 0;

	if (l->clen < 12)
		return 0;
	if (has_suffix(l->c, end, " at")) {
		st = 1;
	} else if (is_digit(end[-1])) {
		for (t = end; t > l->c && t[-1] != ' '; t--)
			;
		if (t - l->c > 4 && has_suffix(l->c, t, " at ") &&
		    end - t > 4 && memchr(t, ':', (size_t)(end - t)))
			st = 2;
	}
	return st && memmem(l->c, l->clen, "WARNING: ", 9) ? st : 0;
}

/*
 * unwrap - join a WARNING line broken by a mail client after "at" with
 * the "path:line" and "func+0x.." pieces that follow; joined lines are
 * kept in owned
 */
static size_t unwrap(struct cline *lines, size_t n, char ***owned,
		     size_t *nowned)
{
	size_t i, o = 0;

	for (i = 0; i < n; i++) {
		struct cline c = lines[i];
		int st;

		while ((st = wrap_state(&c)) && i + 1 < n &&
		       wrap_piece(&lines[i + 1], st == 2)) {
			const struct cline *w = &lines[i + 1];
			size_t body = (size_t)(c.c - c.s);
			char *buf = xmalloc(c.len + w->clen + 2);

			memcpy(buf, c.s, c.len);
			buf[c.len] = ' ';
			memcpy(buf + c.len + 1, w->c, w->clen);
			c.len += w->clen + 1;
			buf[c.len] = '\0';
			c.s = buf;
			c.c = buf + body;
			c.clen = c.len - body;
			c.next = w->next;
			*owned = xreallocarray(*owned, *nowned + 1,
					       sizeof(**owned));
			(*owned)[(*nowned)++] = buf;
			i++;
		}
		lines[o++] = c;
	}
	return o;
}

/*
 * host_kernel - "qay kernel: ": a journal or syslog line with its date
 * cut off, the host's name first (lower case letters, digits, "-", "."
 * and "_", a letter or digit first, 2 to 63 long); not prose that says
 * whose kernel ("the kernel: 6.12", "host kernel: 6.1" of a guest's
 * report, "debian kernel: ..."): the length of the prefix, else 0
 */
static size_t host_kernel(const char *s, size_t len)
{
	/* sorted (sorted_words_has()) */
	static const char *const prose[] = {
		"arch",	    "booted",  "broken",   "centos",   "current",
		"custom",   "debian",  "default",  "distro",   "every",
		"fedora",   "generic", "gentoo",   "guest",    "host",
		"its",	    "latest",  "linux",	   "mainline", "my",
		"new",	    "old",     "opensuse", "our",      "previous",
		"rhel",	    "running", "same",	   "stable",   "stock",
		"suse",	    "that",    "the",	   "this",     "ubuntu",
		"upstream", "vanilla", "which",	   "working",  "your",
	};
	char host[64];
	size_t h;

	if (!len || !((s[0] >= 'a' && s[0] <= 'z') || is_digit(s[0])))
		return 0;
	for (h = 0; h < len && h < sizeof(host) &&
		    ((s[h] >= 'a' && s[h] <= 'z') || is_digit(s[h]) ||
		     s[h] == '-' || s[h] == '.' || s[h] == '_');
	     h++)
		;
	if (h < 2 || h == sizeof(host) || len - h < 9 ||
	    memcmp(s + h, " kernel: ", 9))
		return 0;
	memcpy(host, s, h);
	host[h] = '\0';
	return sorted_words_has(prose, ARRAY_SIZE(prose), host) ? 0 : h + 9;
}

/*
 * crashlog_journal_prefix - see crashlog.h.  Byte compares only: a
 * line costs a look at its first bytes unless it starts with a date.
 */
size_t crashlog_journal_prefix(const char *s, size_t len)
{
	static const char *const marks[] = { " kernel: ", " [kernel] " };
	size_t lim = len < 80 ? len : 80, t, i, m;

	if (len >= 8 && !memcmp(s, "kernel: ", 8))
		return 8;
	if ((t = host_kernel(s, len)))
		return t;
	/* "Dec  5 " or "2024-12-05" */
	if (len < 20 ||
	    !((s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'a' && s[1] <= 'z' &&
	       s[2] >= 'a' && s[2] <= 'z' && s[3] == ' ') ||
	      (is_digit(s[0]) && is_digit(s[3]) && s[4] == '-')))
		return 0;
	/* its time, "09:12:01" */
	for (t = 4; t + 8 <= lim; t++)
		if (is_digit(s[t]) && s[t + 2] == ':' && is_digit(s[t + 4]) &&
		    s[t + 5] == ':' && is_digit(s[t + 7]))
			break;
	for (i = t + 8; i < lim; i++)
		for (m = 0; m < ARRAY_SIZE(marks); m++) {
			size_t l = strlen(marks[m]);

			if (l <= lim - i && !memcmp(s + i, marks[m], l))
				return i + l;
		}
	return 0;
}

/*
 * normalise - split text into lines, dropping mail quoting, indentation
 * before a console stamp and syslog/journal prefixes
 */
static struct cline *normalise(struct rx *x, const char *text, size_t len,
			       size_t *nlines)
{
	struct cline *lines = NULL;
	size_t n = 0, alloc = 0, pos = 0;

	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;
		const char *s = text + pos;
		size_t l = end - pos, k, skip;
		struct cline *c;

		pos = end + 1;
		if (l && s[l - 1] == '\r')
			l--;
		/* printk lines are at most 1 KB: longer ones are cut */
		if (l > LINE_MAX_LEN)
			l = LINE_MAX_LEN;
		/* "> ", ">> ", "> > " quoting */
		for (;;) {
			k = 0;
			while (k < l && k < 3 && s[k] == ' ')
				k++;
			if (k < l && s[k] == '>') {
				k++;
				if (k < l && s[k] == ' ')
					k++;
				s += k;
				l -= k;
				continue;
			}
			break;
		}
		ALLOC_GROW(lines, n, alloc);
		c = &lines[n++];
		memset(c, 0, sizeof(*c));
		c->next = pos;
		/* pasted with indentation: "    [   12.3] ..." */
		for (k = 0; k < l && (s[k] == ' ' || s[k] == '\t'); k++)
			;
		if (k && k < l && (s[k] == '[' || s[k] == '<')) {
			uint64_t dummy;

			if (try_stamp(s + k, l - k, &dummy)) {
				s += k;
				l -= k;
			}
		}
		/* "Oct  1 12:00:00 host kernel: " from syslog or journalctl;
		 * "kernel: " alone from "journalctl -o cat" */
		skip = crashlog_journal_prefix(s, l);
		if (skip) {
			uint64_t ctx = CTX_CONSOLE;

			s += skip;
			l -= skip;
			c->s = s;
			c->len = l;
			if (console_prefix(s, l, &ctx)) {
				c->ctx = ctx;
			} else {
				c->ctx = CTX_CONSOLE;
				c->c = s;
				c->clen = l;
				continue;
			}
		} else if ((k = dmesg_t_prefix(s, l))) {
			c->s = s;
			c->len = l;
			c->ctx = CTX_CONSOLE;
			c->c = s + k;
			c->clen = l - k;
			continue;
		} else {
			c->s = s;
			c->len = l;
			if (!console_prefix(s, l, &c->ctx))
				c->ctx = CTX_NONE;
		}
		if (c->ctx == CTX_NONE) {
			c->c = s;
			c->clen = l;
			continue;
		}
		/* content after the first "] ", as syzkaller strips it */
		{
			const char *b = cl_mem_find(s, l, "] ", 2, 0);
			const char *q;
			size_t cl;

			if (!b)
				b = s - 2;
			c->c = b + 2;
			c->clen = l - (size_t)(c->c - s);
			cl = c->clen;
			if (!cl_mem_find(c->c, cl, "<EOI>", 5, 1)) {
				q = cl_mem_find(c->c, cl, " ? ", 3, 1);
				if (q) {
					c->clen -= (size_t)(q + 2 - c->c);
					c->c = q + 2;
					c->questionable = true;
				} else if (has_suffix(c->c, c->c + cl,
						      " (unreliable)")) {
					c->clen -= 13;
					c->questionable = true;
				}
			}
		}
	}
	*nlines = n;
	return lines;
}

/* ---- finding the report ---------------------------------------------- */

/* oops_match - index of the crash header line l is taken for, or -1 */
static int oops_match_uncached(struct rx *x, const struct cline *l,
			       uint64_t mask)
{
	size_t i, j;

	if (!(mask & HEADER_BITS))
		return -1;
	for (i = 0; i < ARRAY_SIZE(cl_oopses); i++) {
		const struct oops_def *o = &cl_oopses[i];
		bool supp = false;

		if (!(mask & ((uint64_t)1 << i)))
			continue;
		if (o->flags & O_LINE_START) {
			const char *c = l->c;
			size_t cl = l->clen;

			while (cl && (*c == ' ' || *c == '\t')) {
				c++;
				cl--;
			}
			if (!has_prefix(c, c + cl, o->header))
				continue;
		}
		cl_ensure_oops(o);
		for (j = 0; j < o->nsupp && !supp; j++)
			supp = rx_search(x, o->supp[j], l->s, l->len, 0);
		if (!supp)
			return (int)i;
	}
	return -1;
}

/* oops_match - index of the crash header line l is taken for, or -1 */
static int oops_match(struct rx *x, struct cline *l)
{
	if (l->oops == OOPS_UNKNOWN)
		l->oops = oops_match_uncached(x, l, l->mask);
	return l->oops;
}

/*
 * The lines copied from a cline's content into a buffer, with the mask
 * of that content, in buffer order: the walks over the buffer look a
 * line up instead of scanning it again.
 */
struct linemask {
	size_t off, len; /* in the buffer, without the newline */
	uint64_t mask;
};

struct linemasks {
	const char *base; /* the buffer, once complete */
	struct linemask *v;
	size_t n, alloc;
	size_t hint; /* the entry after the last one found */
};

/* linemask_add - the line l->c was copied at off, if its mask is known */
static void linemask_add(struct linemasks *lm, size_t off,
			 const struct cline *l)
{
	if (!l->cmask_ok)
		return;
	ALLOC_GROW(lm->v, lm->n, lm->alloc);
	lm->v[lm->n].off = off;
	lm->v[lm->n].len = l->clen;
	lm->v[lm->n++].mask = l->cmask;
}

/*
 * line_mask - litset_mask(&cl_g.lineset, ln, ll), looked up when ln is a
 * line recorded in lm (which may be NULL)
 */
static uint64_t line_mask(struct linemasks *lm, const char *ln, size_t ll)
{
	if (lm && lm->n && ln >= lm->base) {
		size_t off = (size_t)(ln - lm->base), lo = 0, hi = lm->n;

		/* the walks go line by line: try the next entry first */
		if (lm->hint < lm->n && lm->v[lm->hint].off == off) {
			lo = lm->hint;
			hi = lo;
		}
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (lm->v[mid].off < off)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < lm->n && lm->v[lo].off == off && lm->v[lo].len == ll) {
			lm->hint = lo + 1;
			return lm->v[lo].mask;
		}
	}
	return litset_mask(&cl_g.lineset, ln, ll);
}

struct extracted {
	struct strbuf text;	       /* prefix lines, then the report */
	struct strbuf frames;	       /* the report with "? " frames kept */
	struct linemasks tmask, fmask; /* lines of text and frames */
	size_t prefix_len;
	size_t report_end; /* end of the part titles are taken from */
	size_t first_line, end_line;
};

/*
 * symbolized_dup - a symbolised log repeats the crash header once per
 * inlined function ("BUG: KASAN: ... in foo lib/x.h:12 [inline]", then
 * "... in bar+0x1/0x2 lib/x.c:34"); such a repeat starts no new report
 */
static bool symbolized_dup(const struct cline *first, const struct cline *prev,
			   const struct cline *l)
{
	const char *in = memmem(first->c, first->clen, " in ", 4);
	size_t n;

	if (!in || !has_suffix(prev->c, prev->c + prev->clen, "[inline]"))
		return false;
	n = (size_t)(in - first->c) + 4;
	return l->clen > n && !memcmp(l->c, first->c, n);
}

static void find_report(struct rx *x, struct cline *lines, size_t nlines,
			size_t start, struct extracted *e)
{
	uint64_t ctx = lines[start].ctx;
	size_t max_prefix = ctx_is_task(ctx) ? 50 : 5;
	size_t prefix[50], nprefix = 0;
	size_t i, text_lines = 0, min_lines;
	bool second = false, skip_text = false, cpu_traceback = false;
	bool in_dups = true, continue_dup = false;

	min_lines = mem_has(lines[start].s, lines[start].len, "BUG: KMSAN:")
			    ? 16
			    : 22;
	for (i = start; i-- > 0 && nprefix < max_prefix;) {
		const struct cline *l = &lines[i];

		if (l->ctx != ctx || !l->clen || l->questionable)
			continue;
		prefix[nprefix++] = i;
	}
	while (nprefix--) {
		const struct cline *l = &lines[prefix[nprefix]];

		size_t off = e->text.len;

		if (!sb_add(&e->text, l->c, l->clen) &&
		    !sb_addc(&e->text, '\n'))
			linemask_add(&e->tmask, off, l);
	}
	e->prefix_len = e->text.len;
	e->first_line = start;
	e->end_line = start;
	if (nlines - start > REPORT_LINES_MAX)
		nlines = start + REPORT_LINES_MAX;
	for (i = start; i < nlines; i++) {
		struct cline *l = &lines[i];
		bool is_oops = i == start, skip_line;
		uint64_t mk = l->mask;
		size_t off;

		if (oops_match(x, l) >= 0) {
			e->end_line = i;
			if (!is_oops && in_dups &&
			    symbolized_dup(&lines[start], &lines[i - 1], l))
				continue_dup = true;
			else if (!is_oops)
				in_dups = false;
			if (!is_oops && !second && !continue_dup &&
			    !(mk & BIT(MK_START_IGNORE)))
				second = true;
			continue_dup = false;
		} else if (!is_oops && !second && (mk & BIT(MK_INFO_STACK))) {
			second = true;
		}
		if (!is_oops && (l->questionable ||
				 (l->ctx != ctx &&
				  (!cpu_traceback || !ctx_is_cpu(l->ctx))))) {
			/* unreliable frames are no part of the report */
			if (l->questionable && l->ctx == ctx &&
			    !sb_add(&e->frames, "? ", 2) &&
			    !sb_add(&e->frames, l->c, l->clen))
				sb_addc(&e->frames, '\n');
			continue;
		}
		text_lines++;
		skip_line = skip_text;
		if (mk & BIT(MK_DISABLING)) {
			skip_line = true;
		} else if (mk & BIT(MK_NMI)) {
			cpu_traceback = true;
		} else if ((mk & (BIT(MK_PANIC) | BIT(MK_CIRCULAR))) &&
			   text_lines > min_lines) {
			skip_text = true;
			skip_line = true;
		}
		if (!is_oops && skip_line)
			continue;
		off = e->text.len;
		if (sb_add(&e->text, l->c, l->clen) || sb_addc(&e->text, '\n'))
			break;
		linemask_add(&e->tmask, off, l);
		off = e->frames.len;
		if (!sb_add(&e->frames, l->c, l->clen) &&
		    !sb_addc(&e->frames, '\n'))
			linemask_add(&e->fmask, off, l);
		if (!second || (ctx != CTX_NONE && ctx != CTX_CONSOLE))
			e->report_end = e->text.len;
	}
}

/* ---- titles ---------------------------------------------------------- */

static bool skipped(const struct stack_def *st, const char *s, size_t len)
{
	return litset_any(&cl_g.generic, s, len) ||
	       (st && st->skipset.n && litset_any(&st->skipset, s, len));
}

static void append_frame(struct sv f, const struct stack_def *st,
			 struct frames *raw)
{
	cl_demangle(f.s, f.len, raw, &f);
	if (skipped(st, f.s, f.len))
		return;
	if (raw->n < MAX_RAW_FRAMES)
		raw->v[raw->n++] = f;
}

/* append_frames - the groups of the last match of re in s */
static void append_frames(struct rx *x, const pcre2_code *re, const char *s,
			  const struct stack_def *st, struct frames *raw)
{
	PCRE2_SIZE *ov = rx_ov(x);
	uint32_t g, n = rx_groups(re);

	for (g = 1; g <= n; g++) {
		struct sv f;

		if (ov[2 * g] == PCRE2_UNSET)
			continue;
		f.s = s + ov[2 * g];
		f.len = ov[2 * g + 1] - ov[2 * g];
		append_frame(f, st, raw);
	}
}

/*
 * decoded_source - " (fs/x.c:12" as scripts/decode_stacktrace.sh puts it
 * after a function name (the FUNC pattern accepts it too)
 */
static bool decoded_source(const char *s, size_t len)
{
	size_t i = 2;
	bool dot = false;

	if (len < 6 || s[0] != ' ' || s[1] != '(')
		return false;
	while (i < len && (isalnum((unsigned char)s[i]) || s[i] == '_' ||
			   s[i] == '/' || s[i] == '.' || s[i] == '-')) {
		dot |= s[i] == '.';
		i++;
	}
	return dot && i + 1 < len && s[i] == ':' && is_digit(s[i + 1]) &&
	       isalpha((unsigned char)s[i - 1]);
}

static bool hex_digit(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f');
}

/*
 * plain_frame - cl_frame_res[0] by hand, the hot path of every stack:
 * "^[ \t]*(?:PC ){0,2}FUNC", the name before a "." or "+"
 */
static bool plain_frame(const char *s, size_t len, struct sv *f)
{
	size_t i = 0, k, pcs;
	const char *bt;

	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	bt = crashlog_bt_lead(s + i, s + len);
	if (bt)
		i = (size_t)(bt - s);
	for (pcs = 0; !bt && pcs < 2 && i < len && s[i] == '['; pcs++) {
		k = i + 1;
		if (k < len && s[k] == '<')
			k++;
		if (k + 1 < len && s[k] == '0' && s[k + 1] == 'x')
			k += 2;
		if (k >= len || !hex_digit(s[k]))
			break;
		while (k < len && hex_digit(s[k]))
			k++;
		if (k < len && s[k] == '>')
			k++;
		if (k + 1 >= len || s[k] != ']' || s[k + 1] != ' ')
			break;
		i = k + 2;
	}
	for (k = i; k < len && (isalnum((unsigned char)s[k]) || s[k] == '_');
	     k++)
		;
	if (k == i || k >= len)
		return false;
	/* after the name: an offset, or crash(8)'s " at ADDR", or a
	 * decode_stacktrace.sh source */
	if (s[k] != '.' && s[k] != '+' &&
	    !(bt ? has_prefix(s + k, s + len, " at ")
		 : decoded_source(s + k, len - k)))
		return false;
	f->s = s + i;
	f->len = k - i;
	return true;
}

/* strip_frame - the shortest name left after one syscall prefix */
static struct sv strip_frame(struct sv f)
{
	struct sv best = f;
	size_t i;

	for (i = 0; i < cl_nframe_prefixes; i++) {
		size_t pl = strlen(cl_frame_prefixes[i]);

		if (has_prefix(f.s, f.s + f.len, cl_frame_prefixes[i]) &&
		    f.len - pl < best.len) {
			best.s = f.s + pl;
			best.len = f.len - pl;
		}
	}
	return best;
}

static bool sv_has(struct sv f, const char *needle)
{
	return memmem(f.s, f.len, needle, strlen(needle)) != NULL;
}

/* extract_key - the frame that names the title; len 0 when none */
static struct sv extract_key(const struct stack_def *st,
			     const struct frames *raw)
{
	static const char *const hang_anchors[] = {
		"rtnl_lock", "synchronize_rcu", "synchronize_srcu",
		"synchronize_net", "synchronize_sched"
	};
	struct sv none = { "", 0 }, prev;
	size_t i, j;

	if (!raw->n)
		return none;
	switch (st->extractor) {
	case EXT_FIRST:
		return strip_frame(raw->v[0]);
	case EXT_STALL:
		prev = strip_frame(raw->v[0]);
		for (i = 0; i < raw->n; i++) {
			struct sv f = strip_frame(raw->v[i]);

			if (litset_any(&cl_g.anchors, f.s, f.len)) {
				if (sv_has(f, "smp_call_function")) {
					prev.s = "smp_call_function";
					prev.len = strlen(prev.s);
				}
				return prev;
			}
			prev = f;
		}
		return none;
	case EXT_HANG:
		for (i = 0; i < raw->n; i++) {
			struct sv f = strip_frame(raw->v[i]);

			for (j = 0; j < ARRAY_SIZE(hang_anchors); j++) {
				if (!sv_has(f, hang_anchors[j]))
					continue;
				if (strcmp(hang_anchors[j], "rtnl_lock")) {
					f.s = "synchronize_rcu";
					f.len = strlen(f.s);
				}
				return f;
			}
		}
		for (i = 0; i < raw->n; i++) {
			struct sv f = strip_frame(raw->v[i]);

			if (!litset_any(&cl_g.hang, f.s, f.len))
				return f;
		}
		return none;
	}
	return none;
}

/*
 * stack_walk - run the parts of a stack format over the report from the
 * title on; the key frames found go to keys; false when one is missing
 */
static bool stack_walk(struct rx *x, const struct stack_def *st,
		       pcre2_code *const *parts, size_t nparts, const char *out,
		       size_t len, struct linemasks *lm, struct sv *keys,
		       size_t *nkeys, struct frames *raw)
{
	size_t pos = 0, part, nstacks = 0;

	cl_ensure_common();
	bool ok = true, more = true;

	raw->n = 0;
	raw->used = 0;
	*nkeys = 0;
	for (part = 0;; part++) {
		if (part == nparts || (!parts[part] && nstacks > 0)) {
			struct sv k = extract_key(st, raw);

			if (!k.len) {
				k.s = "corrupted";
				k.len = strlen(k.s);
				ok = false;
			}
			if (*nkeys < 4)
				keys[(*nkeys)++] = k;
			raw->n = 0;
		}
		if (part == nparts)
			break;
		if (!parts[part])
			nstacks++;
		while (more) {
			const char *ln = out + pos;
			const char *nl = memchr(ln, '\n', len - pos);
			size_t ll = nl ? (size_t)(nl - ln) : len - pos;
			uint64_t mk;
			struct sv f;
			bool is_frame;

			if (nl)
				pos += ll + 1;
			else
				more = false;
			/*
			 * A fault injection line is a frame line whose name
			 * starts with should_fail; a frame line never starts
			 * a stack: the line markers are needed for the rest.
			 */
			is_frame = plain_frame(ln, ll, &f);
			if (is_frame &&
			    has_prefix(f.s, f.s + f.len, "should_fail") &&
			    rx_search(x, cl_g.corrupted_line, ln, ll, 0)) {
				ok = false;
				break;
			}
			if (parts[part]) {
				if (!rx_search(x, parts[part], ln, ll, 0))
					continue;
				append_frames(x, parts[part], ln, st, raw);
				break;
			}
			mk = is_frame ? 0 : line_mask(lm, ln, ll);
			if ((mk & BIT(MK_STACK_START)) &&
			    any_match(x, cl_g.stack_start,
				      ARRAY_SIZE(cl_g.stack_start), ln, ll))
				break;
			if (part + 1 < nparts && parts[part + 1] &&
			    rx_search(x, parts[part + 1], ln, ll, 0)) {
				append_frames(x, parts[part + 1], ln, st, raw);
				part++;
				break;
			}
			if (is_frame)
				append_frame(f, st, raw);
			else if ((mk & BIT(MK_ARM_FROM)) &&
				 rx_search(x, cl_g.frame_re[1], ln, ll, 0))
				append_frames(x, cl_g.frame_re[1], ln, st, raw);
		}
	}
	return ok;
}

/* stack_frames - the key frames; they may point into raw->names */
static bool stack_frames(struct rx *x, const struct stack_def *st,
			 const char *out, size_t len, struct linemasks *lm,
			 struct sv *keys, size_t *nkeys, struct frames *raw)
{
	bool ok;

	ok = stack_walk(x, st, st->p, st->np, out, len, lm, keys, nkeys, raw);
	if (!ok && st->np2)
		ok = stack_walk(x, st, st->p2, st->np2, out, len, lm, keys,
				nkeys, raw);
	return ok;
}

/* format_title - expand "$N" from args */
static void format_title(struct strbuf *sb, const char *fmt,
			 const struct sv *args, size_t nargs)
{
	const char *p;

	for (p = fmt; *p; p++) {
		if (*p == '$' && p[1] >= '1' && p[1] <= '9') {
			size_t k = (size_t)(p[1] - '1');

			if (k < nargs)
				sb_add(sb, args[k].s, args[k].len);
			p++;
			continue;
		}
		sb_addc(sb, *p);
	}
}

struct desc {
	struct strbuf title;
	bool corrupted, fallback;
};

static void describe(struct rx *x, const struct oops_def *o, const char *out,
		     size_t len, struct linemasks *lm, struct desc *d)
{
	size_t startpos = len, i;
	bool matched_title = false, have = false;
	unsigned fmt_flags = 0;
	struct frames *raw = NULL;
	struct occ oc;

	cl_ensure_oops(o);
	cl_ensure_common();
	cl_occ_find(&oc, o->header, out, len);
	for (i = 0; i < o->nfmts; i++) {
		const struct fmt_def *f = &o->fmts[i];
		struct sv args[MAX_ARGS];
		size_t nargs = 0, nkeys = 0, m0;
		struct sv keys[4];
		struct pmatch m;
		uint32_t g;
		bool corrupted = false;

		/*
		 * A title that starts after the best so far is not used:
		 * do not look for one past it (the first search runs over
		 * the whole text, which can be a 100 KB log; later ones
		 * stop at the title found, usually the first line).
		 */
		if (!cl_pat_search_before(x, &cl_g.title_re[o->base + i], out,
					  len, startpos, &oc, &m))
			continue;
		if (m.start > startpos || (m.start == startpos && have))
			continue;
		if (m.start < startpos) {
			have = false;
			sb_reset(&d->title);
			fmt_flags = 0;
			startpos = m.start;
		}
		matched_title = true;
		if (f->report &&
		    !cl_pat_search_before(x, &cl_g.report_re[o->base + i], out,
					  len, len, &oc, &m))
			continue;
		m0 = m.start;
		for (g = 0; g < m.ngroups && nargs < MAX_ARGS; g++) {
			if (!m.set[g]) {
				args[nargs].s = "";
				args[nargs++].len = 0;
			} else {
				args[nargs].s = out + m.gs[g];
				args[nargs++].len = m.ge[g] - m.gs[g];
			}
		}
		if (f->stack) {
			if (!raw)
				raw = xmalloc(sizeof(*raw));
			if (!stack_frames(x, f->stack, out + m0, len - m0, lm,
					  keys, &nkeys, raw))
				corrupted = true;
			for (g = 0; g < nkeys && nargs < MAX_ARGS; g++)
				args[nargs++] = keys[g];
		}
		sb_reset(&d->title);
		format_title(&d->title, f->fmt, args, nargs);
		d->corrupted = corrupted;
		have = true;
		fmt_flags = f->flags;
	}
	free(raw);
	if (!have) {
		const char *h = memmem(out, len, o->header, strlen(o->header));
		const char *nl;

		d->corrupted = matched_title;
		d->fallback = true;
		if (!h)
			return;
		nl = memchr(h, '\n', len - (size_t)(h - out));
		sb_add(&d->title, h,
		       nl ? (size_t)(nl - h) : len - (size_t)(h - out));
	}
	if (fmt_flags & F_CORRUPTED)
		d->corrupted = true;
}

/* rewrite_title - syzkaller's replacements of variable parts */
static char *rewrite_title(struct rx *x, const char *title)
{
	size_t cap = 4 * strlen(title) + 64, i;
	char *cur = xstrdup(title);
	char *out = xmalloc(cap);

	cl_ensure_common();
	for (i = 0; i < ARRAY_SIZE(cl_title_rewrites); i++) {
		int rounds;

		for (rounds = 0; rounds < 16; rounds++) {
			PCRE2_SIZE olen = cap;
			int rc = pcre2_substitute(
				cl_g.rewrite[i], (PCRE2_SPTR)cur,
				PCRE2_ZERO_TERMINATED, 0,
				PCRE2_SUBSTITUTE_GLOBAL, x->md, cl_g.mctx,
				(PCRE2_SPTR)cl_title_rewrites[i].with,
				PCRE2_ZERO_TERMINATED, (PCRE2_UCHAR *)out,
				&olen);

			if (rc <= 0 || !strcmp(out, cur))
				break;
			free(cur);
			cur = xstrdup(out);
		}
	}
	free(out);
	return cur;
}

/* sanitize_title - printable ASCII, single spaces, at most 120 bytes */
static char *sanitize_title(const char *t)
{
	size_t n = strlen(t), i, o = 0;
	char *r = xmalloc(n + 1), prev = ' ';

	for (i = 0; i < n && i < TITLE_MAX; i++) {
		char c = t[i];

		if (c == '\t')
			c = ' ';
		else if ((unsigned char)c < 0x20 || (unsigned char)c >= 0x7f)
			continue;
		if (c == ' ' && prev == ' ')
			continue;
		r[o++] = c;
		prev = c;
	}
	while (o && r[o - 1] == ' ')
		o--;
	r[o] = '\0';
	return r;
}

/* crashlog_crash_type - the crash_type word for a title */
const char *crashlog_crash_type(const char *t)
{
	static const struct {
		const char *prefix, *type;
	} map[] = {
		{ "KASAN:", "KASAN" },
		{ "KMSAN:", "KMSAN" },
		{ "KCSAN:", "KCSAN" },
		{ "UBSAN:", "UBSAN" },
		{ "KFENCE:", "KFENCE" },
		{ "memory leak", "LEAK" },
		{ "possible deadlock", "LOCKDEP" },
		{ "inconsistent lock state", "LOCKDEP" },
		{ "WARNING: locking bug", "LOCKDEP" },
		{ "WARNING: bad unlock balance", "LOCKDEP" },
		{ "BUG: bad unlock balance", "LOCKDEP" },
		{ "WARNING: held lock freed", "LOCKDEP" },
		{ "BUG: held lock freed", "LOCKDEP" },
		{ "WARNING: nested lock", "LOCKDEP" },
		{ "WARNING: still has locks held", "LOCKDEP" },
		{ "BUG: still has locks held", "LOCKDEP" },
		{ "WARNING: lock held when returning", "LOCKDEP" },
		{ "BUG: lock held when returning", "LOCKDEP" },
		{ "INFO: trying to register non-static key", "LOCKDEP" },
		{ "WARNING: suspicious RCU usage", "LOCKDEP" },
		{ "INFO: suspicious RCU usage", "LOCKDEP" },
		{ "INFO: task hung", "HANG" },
		{ "INFO: task can't die", "HANG" },
		{ "INFO: rcu detected stall", "STALL" },
		{ "BUG: soft lockup", "STALL" },
		{ "BUG: workqueue lockup", "STALL" },
		{ "BUG: spinlock lockup", "STALL" },
		{ "general protection fault", "OOPS" },
		{ "BUG: unable to handle", "OOPS" },
		{ "stack segment fault", "OOPS" },
		{ "divide error", "OOPS" },
		{ "invalid opcode", "OOPS" },
		{ "int3", "OOPS" },
		{ "PANIC: double fault", "OOPS" },
		{ "Internal error", "OOPS" },
		{ "Unhandled fault", "OOPS" },
		{ "Alignment trap", "OOPS" },
		{ "kernel panic", "PANIC" },
		{ "crash dump", "OOPS" },
		{ "kernel stack overflow", "PANIC" },
		{ "unexpected kernel reboot", "REBOOT" },
		{ "kernel BUG", "BUG" },
		{ "BUG", "BUG" },
		{ "WARNING", "WARNING" },
		{ "INFO", "INFO" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(map); i++)
		if (starts_with(t, map[i].prefix))
			return map[i].type;
	return "OTHER";
}

static void collect_frames(struct crashlog *c, const char *text, size_t len,
			   struct linemasks *lm)
{
	const char *p = text, *end = text + len;
	size_t alloc = 0;

	while (p < end && c->nframes < CRASHLOG_FRAMES_MAX) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct frame f;
		bool stop = false;

		if (crashlog_parse_frame(p, ll, &f)) {
			ALLOC_GROW(c->frames, c->nframes, alloc);
			c->frames[c->nframes++] = f;
		} else {
			stop = line_mask(lm, p, ll) &
			       (BIT(MK_FRAME_STOP) | BIT(MK_END_TRACE));
			if (stop)
				break;
		}
		p = nl ? nl + 1 : end;
	}
}

/* ---- entry points ---------------------------------------------------- */

struct crashlog_scan {
	const char *log;
	size_t len;
	struct rx x;
	struct cline *lines;
	size_t nlines;
	char **owned; /* lines joined by unwrap() */
	size_t nowned;
	size_t next;  /* first line the next crash may start on */
	char *spaced; /* the log with U+00A0 as two spaces, or NULL */
};

/*
 * nbsp_spaced - a copy of log with each U+00A0 (NO-BREAK SPACE, what a
 * mail client such as Thunderbird puts for runs of spaces in a pasted
 * log) as two ASCII spaces, the same length, so offsets into the log
 * still hold; NULL when the log has none
 */
static char *nbsp_spaced(const char *log, size_t len)
{
	const char *p = memmem(log, len, "\xc2\xa0", 2);
	char *copy;
	size_t i;

	if (!p)
		return NULL;
	copy = xmemdup0(log, len);
	for (i = (size_t)(p - log); i + 1 < len; i++)
		if ((unsigned char)copy[i] == 0xc2 &&
		    (unsigned char)copy[i + 1] == 0xa0) {
			copy[i] = ' ';
			copy[++i] = ' ';
		}
	return copy;
}

/* crashlog_scan_new - split and normalise a log once for several parses */
struct crashlog_scan *crashlog_scan_new(const char *log, size_t len)
{
	struct crashlog_scan *sc = xcalloc(1, sizeof(*sc));
	size_t i;

	cl_init_once();
	if (len > CRASHLOG_TEXT_MAX)
		len = CRASHLOG_TEXT_MAX;
	sc->spaced = nbsp_spaced(log, len);
	if (sc->spaced)
		log = sc->spaced;
	sc->log = log;
	sc->len = len;
	sc->x.md = pcre2_match_data_create(32, NULL);
	if (!sc->x.md)
		die("crashlog: out of memory");
	sc->lines = normalise(&sc->x, log, len, &sc->nlines);
	sc->nlines = unwrap(sc->lines, sc->nlines, &sc->owned, &sc->nowned);
	for (i = 0; i < sc->nlines; i++) {
		struct cline *l = &sc->lines[i];

		/* content is a suffix of the line but after " (unreliable)" */
		l->cmask_ok = l->c >= l->s && l->c + l->clen == l->s + l->len;
		if (l->cmask_ok)
			l->mask =
				litset_mask2(&cl_g.lineset, l->s, l->len,
					     (size_t)(l->c - l->s), &l->cmask);
		else
			l->mask = litset_mask(&cl_g.lineset, l->s, l->len);
		l->oops = OOPS_UNKNOWN;
	}
	return sc;
}

/* crashlog_scan_free - release a scan */
void crashlog_scan_free(struct crashlog_scan *sc)
{
	size_t i;

	if (!sc)
		return;
	for (i = 0; i < sc->nowned; i++)
		free(sc->owned[i]);
	free(sc->owned);
	free(sc->lines);
	free(sc->spaced);
	pcre2_match_data_free(sc->x.md);
	pcre2_match_context_free(sc->x.lim);
	free(sc);
}

/*
 * header_starts_line - the header begins the line, after indentation or
 * after a dev_printk() prefix such as "usb 5-1: " or "ath10k_usb 1-1:1.0: "
 */
static bool header_starts_line(const struct cline *l, const char *h, bool *dev)
{
	const char *p = l->c, *end = l->c + l->clen, *at;
	int tokens = 0;
	bool digit = false;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	at = memmem(p, (size_t)(end - p), h, strlen(h));
	if (!at)
		return false;
	*dev = false;
	if (at == p)
		return true;
	/* one or two tokens, the last naming a device and ending in ": " */
	while (p < at && tokens < 3) {
		const char *t = p;

		digit = false;
		while (p < at && *p != ' ') {
			if (!isalnum((unsigned char)*p) && !strchr("_.:-", *p))
				return false;
			digit |= is_digit(*p);
			p++;
		}
		tokens++;
		if (p == at || (p + 1 == at && *p == ' ')) {
			*dev = p - t >= 2 && p[-1] == ':' && digit &&
			       tokens <= 2;
			return *dev;
		}
		p++;
	}
	return false;
}

/*
 * crashlog_scan_next - the next crash report, starting after the header
 * line of the previous one; NULL when there is none
 */
struct crashlog *crashlog_scan_next(struct crashlog_scan *sc)
{
	struct rx *x = &sc->x;
	struct cline *lines = sc->lines;
	size_t nlines = sc->nlines, i, start = 0;
	int oops = -1;
	struct crashlog *c;
	struct extracted e;
	struct desc d;
	char *t;

	for (i = sc->next; i < nlines && oops < 0; i++) {
		oops = oops_match(x, &lines[i]);
		start = i;
	}
	if (oops < 0) {
		sc->next = nlines;
		return NULL;
	}
	sc->next = start + 1;

	memset(&e, 0, sizeof(e));
	sb_init(&e.text, REPORT_MAX);
	sb_init(&e.frames, REPORT_MAX);
	/* a line each, and the prefix lines */
	e.tmask.alloc = (nlines - start < REPORT_LINES_MAX ? nlines - start
							   : REPORT_LINES_MAX) +
			50;
	e.fmask.alloc = e.tmask.alloc;
	e.tmask.v = xreallocarray(NULL, e.tmask.alloc, sizeof(*e.tmask.v));
	e.fmask.v = xreallocarray(NULL, e.fmask.alloc, sizeof(*e.fmask.v));
	find_report(x, lines, nlines, start, &e);
	e.tmask.base = e.text.buf;
	e.fmask.base = e.frames.buf;
	memset(&d, 0, sizeof(d));
	sb_init(&d.title, 4096);
	describe(x, &cl_oopses[oops], e.text.buf + e.prefix_len,
		 e.report_end - e.prefix_len, &e.tmask, &d);
	if (!d.title.len) {
		/* no header in the report: take the raw lines */
		sb_reset(&e.text);
		for (i = e.first_line; i <= e.end_line; i++) {
			sb_add(&e.text, lines[i].s, lines[i].len);
			sb_addc(&e.text, '\n');
		}
		e.prefix_len = 0;
		describe(x, &cl_oopses[oops], e.text.buf, e.text.len, NULL, &d);
	}

	c = xcalloc(1, sizeof(*c));
	t = rewrite_title(x, sb_str(&d.title));
	c->title = sanitize_title(t);
	free(t);
	c->type = xstrdup(crashlog_crash_type(c->title));
	c->corrupted = d.corrupted;
	c->fallback = d.fallback;
	c->line_start = header_starts_line(
		&lines[start], cl_oopses[oops].header, &c->dev_prefix);
	c->stamped = lines[start].ctx != CTX_NONE;
	c->resume = lines[start].next < sc->len ? lines[start].next : sc->len;
	c->len = e.text.len;
	c->prefix_len = e.prefix_len;
	c->text = sb_detach(&e.text, NULL);
	if (!c->text)
		c->text = xstrdup("");
	c->guilty_file = cl_guilty_of(x, c->title, c->text + c->prefix_len,
				      c->len - c->prefix_len);
	collect_frames(c, e.frames.buf ? e.frames.buf : "", e.frames.len,
		       &e.fmask);
	sb_release(&e.frames);
	free(e.tmask.v);
	free(e.fmask.v);
	sb_release(&d.title);
	return c;
}

/* crashlog_parse - the first crash report in a log; NULL when none */
struct crashlog *crashlog_parse(const char *log, size_t len)
{
	struct crashlog_scan *sc = crashlog_scan_new(log, len);
	struct crashlog *c = crashlog_scan_next(sc);

	crashlog_scan_free(sc);
	return c;
}

/* crashlog_free - release a parse result */
void crashlog_free(struct crashlog *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->nframes; i++)
		cl_frame_release(&c->frames[i]);
	free(c->frames);
	free(c->title);
	free(c->type);
	free(c->text);
	free(c->guilty_file);
	free(c);
}
