// SPDX-License-Identifier: GPL-2.0-only
/*
 * mimetext - decoded bytes to clean UTF-8 text (see mimetext.h)
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

#include "mimetext.h"
#include "util.h"

/*
 * utf8_seq - length of the well-formed UTF-8 sequence at p (1-4), or 0;
 * *incomplete is set when p[0..n) is a valid but unfinished prefix.
 */
static size_t utf8_seq(const unsigned char *p, size_t n, uint32_t *cp,
		       bool *incomplete)
{
	size_t k, len;
	uint32_t v;

	*incomplete = false;
	if (p[0] < 0x80) {
		*cp = p[0];
		return 1;
	} else if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		len = 2;
		v = p[0] & 0x1f;
	} else if ((p[0] & 0xf0) == 0xe0) {
		len = 3;
		v = p[0] & 0x0f;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		len = 4;
		v = p[0] & 0x07;
	} else {
		return 0;
	}
	for (k = 1; k < len; k++) {
		if (k >= n) {
			*incomplete = true;
			return 0;
		}
		if ((p[k] & 0xc0) != 0x80)
			return 0;
		v = (v << 6) | (p[k] & 0x3f);
		/* reject overlongs and surrogates as early as possible */
		if (k == 1 && len == 3 &&
		    ((p[0] == 0xe0 && p[1] < 0xa0) ||
		     (p[0] == 0xed && p[1] >= 0xa0)))
			return 0;
		if (k == 1 && len == 4 &&
		    ((p[0] == 0xf0 && p[1] < 0x90) ||
		     (p[0] == 0xf4 && p[1] >= 0x90)))
			return 0;
	}
	*cp = v;
	return len;
}

/*
 * bad_len - bytes of the invalid sequence at p, replaced by one U+FFFD:
 * the lead byte and the continuation bytes that could still have
 * completed it (WHATWG's "maximal subpart"); 1 for a byte that cannot
 * start a character.
 */
static size_t bad_len(const unsigned char *p, size_t n)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t want, k = 1;

	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		want = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		want = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		want = 4;
	else
		return 1;
	/* the second byte's range excludes overlongs and surrogates */
	if (p[0] == 0xe0)
		lo = 0xa0;
	else if (p[0] == 0xed)
		hi = 0x9f;
	else if (p[0] == 0xf0)
		lo = 0x90;
	else if (p[0] == 0xf4)
		hi = 0x8f;
	if (n < 2 || p[1] < lo || p[1] > hi)
		return 1;
	for (k = 2; k < want && k < n && (p[k] & 0xc0) == 0x80; k++)
		;
	return k;
}

/* mimetext_utf8_cut - largest n <= max that ends on a character boundary */
size_t mimetext_utf8_cut(const char *s, size_t len, size_t max)
{
	size_t n = len < max ? len : max, back = 0;

	if (n == len)
		return n;
	/* step back over continuation bytes of a character that is cut */
	while (n > 0 && back < 4 && ((unsigned char)s[n] & 0xc0) == 0x80) {
		n--;
		back++;
	}
	return n;
}

/* mimetext_utf8_mostly - more well-formed multibyte characters than errors */
bool mimetext_utf8_mostly(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, good = 0, bad = 0, k;
	uint32_t cp;
	bool inc;

	while (i < len) {
		if (p[i] < 0x80) {
			i++;
			continue;
		}
		k = utf8_seq(p + i, len - i, &cp, &inc);
		if (k) {
			good++;
			i += k;
		} else if (inc && good) {
			break; /* UTF-8 cut at the end, not wrong */
		} else {
			bad++;
			i += bad_len(p + i, len - i);
		}
	}
	return bad == 0 || good > bad;
}

/*
 * mimetext_looks_text - valid UTF-8 (a cut last character allowed), no
 * NUL, and at most 1% other control characters: a log or a config.
 */
bool mimetext_looks_text(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, ctl = 0, k;
	uint32_t cp;
	bool inc;

	while (i < len) {
		unsigned char c = p[i];

		if (c < 0x80) {
			if (c == 0)
				return false;
			if ((c < 0x20 && !strchr("\t\n\r\f\v\b\x1b", c)) ||
			    c == 0x7f)
				ctl++;
			i++;
			continue;
		}
		k = utf8_seq(p + i, len - i, &cp, &inc);
		if (!k)
			return inc; /* a character cut at the end is fine */
		i += k;
	}
	return ctl * 100 <= len;
}

/*
 * mimetext_binary_start - true when the first len bytes of some data
 * already make mimetext_looks_text() false for the whole of it: a NUL,
 * or a malformed UTF-8 sequence that is not merely cut at the end
 */
bool mimetext_binary_start(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, k;
	uint32_t cp;
	bool inc;

	while (i < len) {
		if (p[i] < 0x80) {
			if (p[i] == 0)
				return true;
			i++;
			continue;
		}
		k = utf8_seq(p + i, len - i, &cp, &inc);
		if (!k)
			return !inc;
		i += k;
	}
	return false;
}

/* ---- copying ---------------------------------------------------------- */

/* put - append n bytes or, when they do not fit, what fits; -1 if cut */
static int put(struct strbuf *out, const char *p, size_t n)
{
	size_t room = out->max - out->len;

	if (n <= room)
		return sb_add(out, p, n);
	sb_add(out, p, mimetext_utf8_cut(p, n, room));
	return -1;
}

/* encode - UTF-8 for a code point (U+FFFD for an invalid one) */
static size_t encode(uint32_t cp, char b[4])
{
	if (cp == 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		cp = 0xfffd;
	if (cp < 0x80) {
		b[0] = (char)cp;
		return 1;
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | (cp >> 6));
		b[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | (cp >> 12));
		b[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	b[0] = (char)(0xf0 | (cp >> 18));
	b[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	b[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	b[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

static int put_cp(struct strbuf *out, uint32_t cp)
{
	char b[4];

	return put(out, b, encode(cp, b));
}

/*
 * special - how an ASCII byte is written under how: 0 copy it, else
 * the code point to write instead (with *skip set for a CRLF pair).
 */
static uint32_t special(const unsigned char *p, size_t i, size_t len,
			unsigned how, size_t *skip)
{
	unsigned char c = p[i];

	*skip = 1;
	if (c == 0)
		return 0xfffd;
	if (how & MIMETEXT_LINE) {
		if (c == '\t' || c == '\r' || c == '\n')
			return ' ';
		if (c < 0x20 || c == 0x7f)
			return 0xfffd;
		return 0;
	}
	if (!(how & MIMETEXT_LF))
		return 0;
	if (c == '\r') {
		if (i + 1 < len && p[i + 1] == '\n')
			*skip = 2;
		return '\n';
	}
	if ((c < 0x20 && c != '\t' && c != '\n' && c != '\f') || c == 0x7f)
		return 0xfffd;
	return 0;
}

/* mimetext_repair - copy UTF-8, U+FFFD for each invalid byte and NUL */
int mimetext_repair(struct strbuf *out, const char *in, size_t len,
		    unsigned how)
{
	const unsigned char *p = (const unsigned char *)in;
	size_t i = 0, run = 0, k, skip;
	uint32_t cp, repl;
	bool inc;

	while (i < len) {
		if (p[i] >= 0x20 && p[i] < 0x7f) {
			i++; /* the common case */
			continue;
		} else if (p[i] < 0x80) {
			repl = special(p, i, len, how, &skip);
			if (!repl) {
				i++;
				continue;
			}
		} else {
			k = utf8_seq(p + i, len - i, &cp, &inc);
			/* C1 controls could drive a terminal */
			if (k && !(how && cp < 0xa0)) {
				i += k;
				continue;
			}
			repl = 0xfffd;
			skip = k ? k : bad_len(p + i, len - i);
		}
		if (put(out, in + run, i - run) < 0 || put_cp(out, repl) < 0)
			return -1;
		i += skip;
		run = i;
	}
	return put(out, in + run, len - run);
}

static const uint16_t cp1252_high[32] = {
	0x20ac, 0xfffd, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021,
	0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0xfffd, 0x017d, 0xfffd,
	0xfffd, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014,
	0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0xfffd, 0x017e, 0x0178,
};

/* mimetext_cp1252 - windows-1252 (so also ISO-8859-1) to UTF-8 */
int mimetext_cp1252(struct strbuf *out, const char *in, size_t len,
		    unsigned how)
{
	const unsigned char *p = (const unsigned char *)in;
	size_t i = 0, run = 0, skip;
	uint32_t repl;

	while (i < len) {
		if (p[i] >= 0x20 && p[i] < 0x7f) {
			i++;
			continue;
		} else if (p[i] < 0x80) {
			repl = special(p, i, len, how, &skip);
			if (!repl) {
				i++;
				continue;
			}
		} else {
			repl = p[i] < 0xa0 ? cp1252_high[p[i] - 0x80] : p[i];
			if ((how & MIMETEXT_LINE) && repl < 0xa0)
				repl = 0xfffd;
			skip = 1;
		}
		if (put(out, in + run, i - run) < 0 || put_cp(out, repl) < 0)
			return -1;
		i += skip;
		run = i;
	}
	return put(out, in + run, len - run);
}

/* mimetext_decode - UTF-8 if it mostly is, else windows-1252 */
int mimetext_decode(struct strbuf *out, const char *in, size_t len,
		    unsigned how)
{
	if (mimetext_utf8_mostly(in, len))
		return mimetext_repair(out, in, len, how);
	return mimetext_cp1252(out, in, len, how);
}

/* ---- HTML ------------------------------------------------------------- */

static const struct entity {
	const char *name;
	uint32_t cp;
} entities[] = {
	{ "amp", '&' },	      { "lt", '<' },	   { "gt", '>' },
	{ "quot", '"' },      { "apos", '\'' },	   { "nbsp", ' ' }, /* kept */
	{ "ensp", ' ' },      { "emsp", ' ' },	   { "thinsp", ' ' },
	{ "shy", 0 },	      { "zwnj", 0 },	   { "zwj", 0 },
	{ "copy", 0xa9 },     { "reg", 0xae },	   { "trade", 0x2122 },
	{ "hellip", 0x2026 }, { "mdash", 0x2014 }, { "ndash", 0x2013 },
	{ "lsquo", 0x2018 },  { "rsquo", 0x2019 }, { "ldquo", 0x201c },
	{ "rdquo", 0x201d },  { "bull", 0x2022 },  { "middot", 0xb7 },
	{ "laquo", 0xab },    { "raquo", 0xbb },   { "euro", 0x20ac },
	{ "pound", 0xa3 },    { "cent", 0xa2 },	   { "yen", 0xa5 },
	{ "sect", 0xa7 },     { "para", 0xb6 },	   { "deg", 0xb0 },
	{ "plusmn", 0xb1 },   { "times", 0xd7 },   { "divide", 0xf7 },
	{ "micro", 0xb5 },    { "larr", 0x2190 },  { "rarr", 0x2192 },
	{ "uarr", 0x2191 },   { "darr", 0x2193 },  { "le", 0x2264 },
	{ "ge", 0x2265 },     { "ne", 0x2260 },	   { "auml", 0xe4 },
	{ "ouml", 0xf6 },     { "uuml", 0xfc },	   { "Auml", 0xc4 },
	{ "Ouml", 0xd6 },     { "Uuml", 0xdc },	   { "szlig", 0xdf },
	{ "eacute", 0xe9 },   { "egrave", 0xe8 },  { "agrave", 0xe0 },
	{ "ccedil", 0xe7 },
};

/* the elements whose contents are not text */
static const char *const dropped[] = { "script", "style", "title" };

/* elements that end a paragraph (blank line) or a line */
static const char *const paragraphs[] = {
	"p",  "pre", "h1",    "h2",	    "h3", "h4",
	"h5", "h6",  "table", "blockquote", "hr",
};
static const char *const lines[] = {
	"div",	   "li",     "tr",	"ul",	   "ol",     "dl",
	"dt",	   "dd",     "section", "article", "header", "footer",
	"address", "center", "form",	"body",
};

static bool is_alpha(char c)
{
	return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
}

/* is_plain - a byte that continues a run of ordinary HTML text */
static bool is_plain(char c)
{
	switch (c) {
	case '<':
	case '&':
	case ' ':
	case '\t':
	case '\n':
	case '\r':
	case '\f':
	case '\0':
	case '\xc2': /* perhaps U+00A0 */
		return false;
	}
	return true;
}

struct html {
	struct strbuf *out;
	int pre;	/* inside <pre> */
	bool space;	/* white space pending */
	bool pre_start; /* just after <pre> */
	int newlines;	/* newlines at the end of out */
	bool full;
};

static bool in_list(const char *const *list, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcasecmp(list[i], name) == 0)
			return true;
	return false;
}

static void h_put(struct html *h, const char *p, size_t n)
{
	h->pre_start = false;
	if (h->full || !n)
		return;
	if (put(h->out, p, n) < 0)
		h->full = true;
	h->newlines = 0;
}

static void h_text(struct html *h, const char *p, size_t n)
{
	if (h->space && h->newlines == 0 && h->out->len)
		h_put(h, " ", 1);
	h->space = false;
	h_put(h, p, n);
}

/* h_break - end the line; want 2 for a paragraph break */
static void h_break(struct html *h, int want)
{
	h->space = false;
	if (h->out->len == 0)
		return;
	/* no trailing blanks on a line */
	while (h->out->len && h->newlines == 0 &&
	       (h->out->buf[h->out->len - 1] == ' ' ||
		h->out->buf[h->out->len - 1] == '\t'))
		sb_truncate(h->out, h->out->len - 1);
	while (h->newlines < want && !h->full) {
		if (sb_addc(h->out, '\n') < 0)
			h->full = true;
		else
			h->newlines++;
	}
}

/* entity - decode "&...;" at p; returns bytes used, 0 if not an entity */
static size_t entity(const char *p, size_t n, uint32_t *cp)
{
	size_t i = 1, j;
	uint32_t v = 0;

	if (n > 2 && p[1] == '#') {
		bool hex = n > 3 && (p[2] == 'x' || p[2] == 'X');
		size_t digits = 0;

		for (i = hex ? 3 : 2; i < n; i++, digits++) {
			char c = p[i];
			int d;

			if (c >= '0' && c <= '9')
				d = c - '0';
			else if (hex && (c | 0x20) >= 'a' && (c | 0x20) <= 'f')
				d = (c | 0x20) - 'a' + 10;
			else
				break;
			/* saturate: anything past U+10FFFF is invalid */
			if (v <= 0x10ffff)
				v = v * (hex ? 16 : 10) + (uint32_t)d;
		}
		if (!digits)
			return 0;
		if (i < n && p[i] == ';')
			i++;
		/* the C1 range means windows-1252 in HTML */
		if (v >= 0x80 && v < 0xa0)
			v = cp1252_high[v - 0x80];
		*cp = v ? v : 0xfffd;
		return i;
	}
	while (i < n && i < 10 && is_alpha(p[i]))
		i++;
	for (j = 0; j < ARRAY_SIZE(entities); j++) {
		size_t len = strlen(entities[j].name);

		if (len != i - 1 || !has_prefix(p + 1, p + i, entities[j].name))
			continue;
		*cp = entities[j].cp;
		return i < n && p[i] == ';' ? i + 1 : i;
	}
	return 0;
}

/* skip_past - offset just after the first "</name" ... ">" from i, or n */
static size_t skip_past(const char *p, size_t n, size_t i, const char *name)
{
	size_t nl = strlen(name);

	for (; i + 2 + nl <= n; i++) {
		if (p[i] != '<' || p[i + 1] != '/' ||
		    !has_prefix_ci(p + i + 2, p + n, name))
			continue;
		while (i < n && p[i] != '>')
			i++;
		return i < n ? i + 1 : n;
	}
	return n;
}

/* tag_end - offset just after the ">" closing a tag, quotes respected */
static size_t tag_end(const char *p, size_t n, size_t i)
{
	char quote = 0;

	for (; i < n; i++) {
		if (quote) {
			if (p[i] == quote)
				quote = 0;
		} else if (p[i] == '"' || p[i] == '\'') {
			quote = p[i];
		} else if (p[i] == '>') {
			return i + 1;
		}
	}
	return n;
}

/*
 * style_at - the CSS declaration at a (within end) is "prop:value" with
 * value one of vals (white space around ':' allowed, any case), followed
 * by neither a digit, '.', nor a letter ("font-size:0" but not
 * "font-size:0.9em" or "font-size:0px" alone: "0px" is listed apart)
 */
static bool style_at(const char *a, const char *end, const char *prop,
		     const char *const *vals)
{
	size_t n = strlen(prop);

	if (!has_prefix_ci(a, end, prop))
		return false;
	for (a += n; a < end && (*a == ' ' || *a == '\t'); a++)
		;
	if (a >= end || *a++ != ':')
		return false;
	while (a < end && (*a == ' ' || *a == '\t'))
		a++;
	for (; *vals; vals++) {
		const char *e = a + strlen(*vals);

		if (has_prefix_ci(a, end, *vals) &&
		    (e >= end ||
		     !(is_alpha(*e) || (*e >= '0' && *e <= '9') || *e == '.')))
			return true;
	}
	return false;
}

/* off_page - "left: -9999px" at a: 1000 pixels or more off the page */
static bool off_page(const char *a, const char *end, const char *prop)
{
	size_t k;

	if (!has_prefix_ci(a, end, prop))
		return false;
	for (a += strlen(prop); a < end && (*a == ' ' || *a == ':'); a++)
		;
	if (end - a < 5 || *a++ != '-' || *a == '0')
		return false;
	for (k = 0; k < 4; k++)
		if (a[k] < '0' || a[k] > '9')
			return false;
	return true;
}

/*
 * hidden_tag - an opening tag p[i..j) whose style hides its content from
 * the reader: "display:none", "visibility:hidden", "font-size:0",
 * "opacity:0", "max-height:0", or a place far off the page ("left:
 * -9999px").  Junk hides a decoy paragraph so to slip past filters;
 * a mail client shows none of it, and neither does the rendering.
 */
static bool hidden_tag(const char *p, size_t i, size_t j)
{
	static const char *const none[] = { "none", NULL };
	static const char *const hid[] = { "hidden", NULL };
	static const char *const zero[] = { "0", "0px", "0pt", "0em", NULL };
	const char *a, *end = p + j;

	for (a = p + i; a < end; a++) {
		if (a > p + i && (is_alpha(a[-1]) || a[-1] == '-'))
			continue;
		if (style_at(a, end, "display", none) ||
		    style_at(a, end, "visibility", hid) ||
		    style_at(a, end, "font-size", zero) ||
		    style_at(a, end, "opacity", zero) ||
		    style_at(a, end, "max-height", zero))
			return true;
		if (off_page(a, end, "left") || off_page(a, end, "top"))
			return true;
	}
	return false;
}

/*
 * skip_element - offset just after the end tag that closes the element
 * name opened before i, elements of the same name nested in it counted
 * (one pass; n when it never closes)
 */
static size_t skip_element(const char *p, size_t n, size_t i, const char *name)
{
	size_t nl = strlen(name);
	unsigned depth = 1;

	for (; i + 1 + nl <= n; i++) {
		bool closing;
		const char *q;

		if (p[i] != '<')
			continue;
		closing = p[i + 1] == '/';
		q = p + i + 1 + closing;
		if (q + nl > p + n || strncasecmp(q, name, nl) ||
		    (q + nl < p + n &&
		     (is_alpha(q[nl]) || (q[nl] >= '0' && q[nl] <= '9'))))
			continue;
		i = tag_end(p, n, (size_t)(q - p) + nl);
		if (closing && !--depth)
			return i;
		if (!closing && !(i >= 2 && p[i - 2] == '/'))
			depth++;
		i--;
	}
	return n;
}

static void h_tag(struct html *h, const char *name, bool closing)
{
	if (strcasecmp(name, "pre") == 0) {
		h_break(h, 2);
		if (closing && h->pre)
			h->pre--;
		else if (!closing)
			h->pre++;
		h->pre_start = !closing;
		return;
	}
	if (in_list(paragraphs, ARRAY_SIZE(paragraphs), name)) {
		h_break(h, 2);
	} else if (strcasecmp(name, "br") == 0) {
		/* every <br> ends a line, but at most one blank line */
		h_break(h, h->newlines < 2 ? h->newlines + 1 : 2);
	} else if (in_list(lines, ARRAY_SIZE(lines), name)) {
		h_break(h, 1);
		if (!closing && strcasecmp(name, "li") == 0)
			h_put(h, "- ", 2);
	} else if (strcasecmp(name, "td") == 0 || strcasecmp(name, "th") == 0) {
		h->space = true;
	}
}

/* letters - the letters of the text in p[from..to), tags and entities
 * ("&zwnj;", a preview line's padding) left out */
static size_t letters(const char *p, size_t from, size_t to)
{
	size_t n = 0;
	char in = 0; /* '<' in a tag, '&' in an entity */

	for (; from < to; from++) {
		char c = p[from];

		if (in == '<')
			in = c == '>' ? 0 : in;
		else if (in == '&')
			in = c == ';' || c == ' ' ? 0 : in;
		else if (c == '<' || c == '&')
			in = c;
		else
			n += is_alpha(c);
	}
	return n;
}

/* elements without content: hidden, they hide nothing */
static const char *const voids[] = {
	"area", "base",	 "br",	 "col",	 "hr",
	"img",	"input", "link", "meta", "wbr",
};

/* mimetext_html - render HTML as plain text (see mimetext.h) */
int mimetext_html(struct strbuf *out, const char *p, size_t n)
{
	return mimetext_html_hidden(out, p, n, NULL);
}

/* ... and the letters of the text the styles hid into *hidden */
int mimetext_html_hidden(struct strbuf *out, const char *p, size_t n,
			 size_t *hidden)
{
	struct html h = { .out = out, .newlines = 0 };
	size_t i = 0;

	if (hidden)
		*hidden = 0;

	while (i < n && !h.full) {
		unsigned char c = (unsigned char)p[i];

		if (c == '<' && i + 1 < n) {
			char name[16];
			size_t j = i + 1, k = 0;
			bool closing = false;

			if (has_prefix(p + i, p + n, "<!--")) {
				const char *e =
					memmem(p + i + 4, n - i - 4, "-->", 3);

				i = e ? (size_t)(e - p) + 3 : n;
				continue;
			}
			if (p[j] == '!' || p[j] == '?') {
				i = tag_end(p, n, j);
				continue;
			}
			if (p[j] == '/') {
				closing = true;
				j++;
			}
			while (j < n && k < sizeof(name) - 1 &&
			       (is_alpha(p[j]) || (p[j] >= '0' && p[j] <= '9')))
				name[k++] = p[j++];
			name[k] = '\0';
			if (!k || !is_alpha(name[0])) {
				h_text(&h, "<", 1); /* a literal "<" */
				i++;
				continue;
			}
			i = tag_end(p, n, j);
			if (!closing &&
			    in_list(dropped, ARRAY_SIZE(dropped), name) &&
			    !(i >= 2 && p[i - 2] == '/'))
				i = skip_past(p, n, i, name);
			else if (!closing && hidden_tag(p, j, i)) {
				size_t from = i;

				if (!(i >= 2 && p[i - 2] == '/') &&
				    !in_list(voids, ARRAY_SIZE(voids), name))
					i = skip_element(p, n, i, name);
				if (hidden)
					*hidden += letters(p, from, i);
			} else
				h_tag(&h, name, closing);
			continue;
		}
		if (c == '&') {
			uint32_t cp;
			size_t used = entity(p + i, n - i, &cp);

			if (used) {
				i += used;
				if (cp) {
					char b[4];

					h_text(&h, b, encode(cp, b));
				}
				continue;
			}
		}
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
		    c == '\f') {
			if (h.pre) {
				if (c == '\r' && i + 1 < n && p[i + 1] == '\n')
					i++;
				if ((c == '\n' || c == '\r') && h.pre_start) {
					/* the newline just after <pre> */
				} else if (c == '\n' || c == '\r') {
					int nl = h.newlines;

					h_put(&h, "\n", 1);
					h.newlines = nl + 1;
				} else {
					h_put(&h, p + i, 1);
				}
			} else {
				h.space = true;
			}
			h.pre_start = false;
			i++;
			continue;
		}
		if (c == '\0') {
			i++; /* never in the output */
			continue;
		}
		if (c == 0xc2 && i + 1 < n && (unsigned char)p[i + 1] == 0xa0) {
			h_text(&h, " ", 1); /* U+00A0 keeps its width */
			i += 2;
			continue;
		}
		/* a run of ordinary text */
		{
			size_t j = i + 1;

			while (j < n && is_plain(p[j]))
				j++;
			h_text(&h, p + i, j - i);
			i = j;
		}
	}
	/* no trailing blank lines */
	while (out->len && (out->buf[out->len - 1] == '\n' ||
			    out->buf[out->len - 1] == ' '))
		sb_truncate(out, out->len - 1);
	return h.full ? -1 : 0;
}

/* ---- gzip ------------------------------------------------------------- */

/* mimetext_is_gzip - the gzip magic and the deflate method */
bool mimetext_is_gzip(const void *data, size_t len)
{
	const unsigned char *p = data;

	return len >= 10 && p[0] == 0x1f && p[1] == 0x8b && p[2] == 8;
}

/*
 * mimetext_gunzip - inflate at most max bytes into a new buffer (with a
 * NUL after them); *truncated when output was cut at max or the input
 * ended early or went bad after some output.
 */
/*
 * mimetext_gunzip_peek - inflate the first bytes of gzip data into out
 * (at most max); returns how many, or -1 when the data is not gzip or
 * went bad before any output
 */
long mimetext_gunzip_peek(const void *data, size_t len, char *out, size_t max)
{
	z_stream zs;
	int rc;
	long n;

	if (!mimetext_is_gzip(data, len))
		return -1;
	memset(&zs, 0, sizeof(zs));
	if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK)
		return -1;
	zs.next_in = (unsigned char *)data;
	zs.avail_in = len > UINT32_MAX ? UINT32_MAX : (unsigned)len;
	zs.next_out = (unsigned char *)out;
	zs.avail_out = max > UINT32_MAX ? UINT32_MAX : (unsigned)max;
	do
		rc = inflate(&zs, Z_NO_FLUSH);
	while (rc == Z_OK && zs.avail_out && zs.avail_in);
	n = (long)(zs.next_out - (unsigned char *)out);
	inflateEnd(&zs);
	if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR && !n)
		return -1;
	return n;
}

int mimetext_gunzip(const void *data, size_t len, size_t max, char **out,
		    size_t *out_len, bool *truncated)
{
	z_stream zs;
	size_t n = 0, alloc;
	char *buf;
	int ret;

	*truncated = false;
	*out = NULL;
	*out_len = 0;
	if (!mimetext_is_gzip(data, len))
		return -1;
	memset(&zs, 0, sizeof(zs));
	if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK)
		return -1;
	alloc = 65536;
	if (alloc > max + 1)
		alloc = max + 1;
	buf = xmalloc(alloc + 1);
	zs.next_in = (unsigned char *)data;
	zs.avail_in = len > UINT32_MAX ? UINT32_MAX : (unsigned)len;
	for (;;) {
		size_t before_in = zs.avail_in, before_out;

		if (n == alloc) {
			if (alloc > max) {
				*truncated = true; /* more than max: a bomb */
				break;
			}
			alloc = alloc * 2 > max + 1 ? max + 1 : alloc * 2;
			buf = xrealloc(buf, alloc + 1);
		}
		zs.next_out = (unsigned char *)buf + n;
		zs.avail_out = (unsigned)(alloc - n);
		before_out = zs.avail_out;
		ret = inflate(&zs, Z_NO_FLUSH);
		n += before_out - zs.avail_out;
		if (ret == Z_STREAM_END) {
			/* another member may follow (cat a.gz b.gz) */
			if (zs.avail_in >= 10 &&
			    mimetext_is_gzip(zs.next_in, zs.avail_in) &&
			    inflateReset(&zs) == Z_OK)
				continue;
			break;
		}
		if (ret != Z_OK && ret != Z_BUF_ERROR) {
			*truncated = true; /* corrupt data */
			break;
		}
		if (zs.avail_out &&
		    (zs.avail_in == 0 || (before_in == zs.avail_in &&
					  before_out == zs.avail_out))) {
			*truncated = true; /* the input ended early */
			break;
		}
	}
	inflateEnd(&zs);
	if (n > max) {
		n = max;
		*truncated = true;
	}
	if (n == 0 && *truncated) {
		free(buf);
		return -1;
	}
	buf[n] = '\0';
	*out = buf;
	*out_len = n;
	return 0;
}

/* mimetext_unsendable - NUL bytes or lines over 998 bytes, or NULL */
const char *mimetext_unsendable(const char *p, size_t len)
{
	const char *end = p ? p + len : NULL, *nl;
	size_t n;

	if (!p)
		return NULL;
	if (memchr(p, '\0', len))
		return "it carries NUL bytes";
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		n = (size_t)((nl ? nl : end) - p);
		if (n && p[n - 1] == '\r')
			n--;
		if (n > 998)
			return "a line of it is longer than 998 bytes";
		if (!nl)
			break;
		p = nl + 1;
	}
	return NULL;
}
