// SPDX-License-Identifier: GPL-2.0-only
/*
 * names - the words of a report that may name a driver or a module (see
 * names.h)
 *
 * Plain byte scanning over one line or the subject; the symbol index,
 * not this file, says which candidates name something.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "kind.h"
#include "names.h"
#include "util.h"

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

static bool is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || is_digit(c) || c == '_';
}

/*
 * module_parameter - q (after a word) is ".param" of a module parameter
 * as the kernel's command line spells it: "psmouse.synaptics_intertouch",
 * "usbcore.autosuspend=-1"; the parameter has a "_" or is set with "=".
 * A file name ("btusb.ko", "dmesg.txt") or a host ("x.org") is not.
 */
static bool module_parameter(const char *q, const char *end)
{
	const char *r = q + 1;
	bool under = false;

	if (q >= end || *q != '.')
		return false;
	for (; r < end && is_ident(*r); r++)
		under |= *r == '_';
	if (r == q + 1 || !(q[1] >= 'a' && q[1] <= 'z'))
		return false;
	if (r < end && (*r == '.' || *r == '/' || *r == '@' || is_alnum(*r)))
		return false;
	return under || (r < end && *r == '=');
}

/*
 * named_word - a word that may be a driver's or module's name: lower
 * case letters, digits, "_" and "-", a letter first, 3 to 32 long, not
 * inside a path, an address or a file name (those are read as such);
 * *marked when it has a digit, "_" or "-", or names a module's
 * parameter ("psmouse.proto=imps")
 */
static size_t named_word(const char *s, const char *p, const char *end,
			 bool *marked)
{
	const char *q = p;
	bool param;

	*marked = false;
	if (p > s && (is_alnum(p[-1]) || strchr("/._-@=+<", p[-1])))
		return 0;
	if (!(*p >= 'a' && *p <= 'z'))
		return 0;
	for (; q < end && ((*q >= 'a' && *q <= 'z') || is_digit(*q) ||
			   *q == '_' || *q == '-');
	     q++)
		*marked |= is_digit(*q) || *q == '_' || *q == '-';
	if (q - p < 3 || q - p > NAMES_WORD_MAX || q[-1] == '-' || q[-1] == '_')
		return 0;
	param = module_parameter(q, end);
	if (q < end && (strchr("/@(+", *q) || (*q >= 'A' && *q <= 'Z') ||
			(*q == '.' && q + 1 < end && is_alnum(q[1]) && !param)))
		return 0;
	*marked |= param;
	return (size_t)(q - p);
}

/* english - a word of a sentence that no module is named */
static bool english(const char *w, size_t n)
{
	static const char *const words[] = {
		"the", "and", "with", "a",  "i",  "is",	 "it",	"to",	"of",
		"in",  "on",  "for",  "my", "or", "but", "not", "when", "was",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(words); i++)
		if (strlen(words[i]) == n && !memcmp(w, words[i], n))
			return true;
	return false;
}

/*
 * module_list - a line of nothing but module names, four or more, half
 * of them with a "_" or a digit (six or more, a third), no English word
 * among them, after a console's prefix ("kern.warn:
 * [581015.89]"): the "Modules linked in:" list the console wrapped
 * over several lines; it names every module loaded
 */
static bool module_list(const char *s, size_t len)
{
	const char *p = s, *end = s + len;
	size_t words = 0, marked = 0, lead = 0;

	while (p < end) {
		const char *w;
		bool mark = false, ok = true;

		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p == end)
			break;
		for (w = p; p < end && *p != ' ' && *p != '\t'; p++) {
			mark |= is_digit(*p) || *p == '_';
			ok &= is_ident(*p) || *p == '-';
		}
		/* "[  12.345]", "kern.warn:": the console's, before the list */
		if (!words && lead < 3 &&
		    (*w == '[' || memchr(w, ']', (size_t)(p - w)) ||
		     (p[-1] == ':' && p - w > 1))) {
			lead++;
			continue;
		}
		/* "btusb(E)", "rtw89_pci(OE)": a module's taint flags */
		if (!ok && p[-1] == ')') {
			const char *c = memchr(w, '(', (size_t)(p - w)), *f;

			for (ok = c && c > w && c + 2 < p, f = w; ok && f < c;
			     f++)
				ok = is_ident(*f) || *f == '-';
			for (f = c ? c + 1 : p; ok && f < p - 1; f++)
				ok = *f >= 'A' && *f <= 'Z';
		}
		if (!ok || !(*w >= 'a' && *w <= 'z') ||
		    english(w, (size_t)(p - w)))
			return false;
		words++;
		marked += mark;
	}
	return (words >= 4 && 2 * marked >= words) ||
	       (words >= 6 && 3 * marked >= words);
}

/* a report's words and English in capitals: no driver's name */
static const char *const common[] = {
	"bug",	    "rfc",    "patch", "warning", "error",  "null",
	"fail",	    "failed", "help",  "the",	  "and",    "not",
	"for",	    "new",    "issue", "oops",	  "panic",  "regression",
	"question", "report", "build", "crash",	  "hang",   "all",
	"with",	    "from",   "does",  "can",	  "after",  "before",
	"broken",   "stable", "next",  "fix",	  "urgent", "info",
};

/* common_word - w[0..n) in lower case is one of common[] */
static bool common_word(const char *w, size_t n)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(common); i++)
		if (strlen(common[i]) == n && !memcmp(w, common[i], n))
			return true;
	return false;
}

/*
 * capital_word - a driver's name as a subject or a sentence writes it
 * in capitals: "UAS" (uas), "XHCI", "USB4", or with a capital and a
 * generation, "Thunderbolt-5" (thunderbolt), "Wifi-6": its lower-case
 * form in out (the generation dropped), the length of the word in the
 * text in *len; 0 when it is no such word.  All capitals but for digits,
 * "_" and "-", three letters or more, not a report's tag or an English
 * word; the symbol index keeps those that name a module or a driver's
 * directory (symbols_resolve()).
 */
static size_t capital_word(const char *s, const char *p, const char *end,
			   char *out, size_t size, size_t *len)
{
	const char *q = p, *gen = NULL;
	size_t n, letters = 0, i;
	bool lower = false;

	*len = 0;
	if (p > s && (is_alnum(p[-1]) || strchr("/._-@=+<", p[-1])))
		return 0;
	if (!(*p >= 'A' && *p <= 'Z'))
		return 0;
	for (; q < end && (is_alnum(*q) || *q == '_' || *q == '-'); q++) {
		if (*q == '-' && q + 1 < end && is_digit(q[1]) && !gen)
			gen = q;
		else if (gen && !is_digit(*q))
			return 0;
		lower |= *q >= 'a' && *q <= 'z';
		letters += (*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z');
	}
	if (q < end && (strchr("/@(+", *q) ||
			(*q == '.' && q + 1 < end && is_alnum(q[1]))))
		return 0;
	n = (size_t)((gen ? gen : q) - p);
	/* "Thunderbolt-5": a capital and a generation; "Unreliable" is not */
	if ((lower && (!gen || p[1] < 'a' || p[1] > 'z')) || letters < 3 ||
	    n < 3 || n >= size || n > NAMES_WORD_MAX || p[n - 1] == '-' ||
	    p[n - 1] == '_')
		return 0;
	for (i = 0; i < n; i++)
		out[i] = (char)tolower((unsigned char)p[i]);
	out[n] = '\0';
	if (common_word(out, n))
		return 0;
	*len = (size_t)(q - p);
	return n;
}

/*
 * title_word - a driver's name written as a proper noun: a capital and
 * lower-case letters only, "Nouveau", "Thunderbolt" (3 to
 * NAMES_WORD_MAX long, not in a path, an address or a file name): its
 * lower-case form in out, its length returned; 0 when it is no such
 * word.  Most such words are English at a sentence's start: the caller
 * takes one only when the next word calls it a driver or a module
 * (noun_follows(): "Nouveau driver", not "See drivers/" or "driver
 * Warns").
 */
static size_t title_word(const char *s, const char *p, const char *end,
			 char *out, size_t size)
{
	const char *q = p + 1;
	size_t n, i;

	if (p > s && (is_alnum(p[-1]) || strchr("/._-@=+<", p[-1])))
		return 0;
	if (!(*p >= 'A' && *p <= 'Z'))
		return 0;
	while (q < end && *q >= 'a' && *q <= 'z')
		q++;
	n = (size_t)(q - p);
	if (n < 3 || n > NAMES_WORD_MAX || n >= size ||
	    (q < end && (is_alnum(*q) || strchr("/@(+_-", *q) ||
			 (*q == '.' && q + 1 < end && is_alnum(q[1])))))
		return 0;
	for (i = 0; i < n; i++)
		out[i] = (char)tolower((unsigned char)p[i]);
	out[n] = '\0';
	return n;
}

/*
 * configurator - "menuconfig", "xconfig": a word that may name a make
 * target of Kconfig's configurators (the symbol index knows which,
 * from scripts/kconfig/Makefile)
 */
static bool configurator(const char *p, size_t n)
{
	return n > 6 && !memcmp(p + n - 6, "config", 6);
}

/* after_make - "make xconfig", "make O=out ARCH=arm menuconfig" */
static bool after_make(const char *s, const char *p)
{
	const char *b = p, *w;

	for (;;) {
		while (b > s && b[-1] == ' ')
			b--;
		for (w = b; w > s && w[-1] != ' '; w--)
			;
		while (w < b && !is_alnum(*w))
			w++; /* "`make" */
		if (w == b)
			return false;
		if (b - w == 4 && !memcmp(w, "make", 4))
			return true;
		/* variables set on the command line */
		if (!memchr(w, '=', (size_t)(b - w)))
			return false;
		b = w;
	}
}

/*
 * called_driver - "the hidraw driver", "hidraw module", "module
 * btusb": a plain word a person calls a driver or a module
 */
static bool called_driver(const char *s, const char *p, size_t n,
			  const char *end)
{
	static const char *const nouns[] = { "driver", "module" };
	/* "the driver", "driver for", "module is": not names */
	static const char *const words[] = {
		"the",	   "this",   "that",  "these",	"those",   "some",
		"any",	   "each",   "every", "which",	"new",	   "old",
		"our",	   "your",   "its",   "their",	"same",	   "other",
		"another", "kernel", "linux", "for",	"and",	   "was",
		"has",	   "had",    "not",   "with",	"from",	   "but",
		"does",	   "did",    "will",  "should", "can",	   "fails",
		"failed",  "loaded", "code",  "name",	"version",
	};
	const char *q = p + n, *b = p;
	size_t i;

	/* any case: "The driver", "This module" */
	for (i = 0; i < ARRAY_SIZE(words); i++)
		if (strlen(words[i]) == n && !strncasecmp(p, words[i], n))
			return false;

	if (q < end && *q == ' ')
		q++;
	while (b > s && b[-1] == ' ')
		b--;
	for (i = 0; i < ARRAY_SIZE(nouns); i++) {
		size_t l = strlen(nouns[i]);

		if (q > p + n && (size_t)(end - q) >= l &&
		    !memcmp(q, nouns[i], l) &&
		    (q + l == end || !is_alnum(q[l]) || q[l] == 's'))
			return true;
		if (b < p && (size_t)(b - s) >= l &&
		    !memcmp(b - l, nouns[i], l) &&
		    (b - l == s || !is_alnum(*(b - l - 1))))
			return true;
	}
	return false;
}

/*
 * noun_follows - "driver" or "module" (or their plurals) is the word
 * after p[0..n): "Nouveau driver", not "driver warns" nor "See
 * drivers/usb/"
 */
static bool noun_follows(const char *p, size_t n, const char *end)
{
	static const char *const nouns[] = { "driver", "module" };
	const char *q = p + n;
	size_t i;

	if (q >= end || *q != ' ')
		return false;
	q++;
	for (i = 0; i < ARRAY_SIZE(nouns); i++) {
		size_t l = strlen(nouns[i]);
		const char *r = q + l;

		if ((size_t)(end - q) < l || memcmp(q, nouns[i], l))
			continue;
		if (r < end && *r == 's')
			r++;
		if (r == end || (!is_alnum(*r) && *r != '/' && *r != '_' &&
				 *r != '-' && *r != '.'))
			return true;
		if (*r == '.' && (r + 1 == end || !is_alnum(r[1])))
			return true;
	}
	return false;
}

/*
 * prefix_position - p starts a word of the subject's leading chain of
 * "word: " prefixes ("wifi: rtw89: ..."): after the tags, nothing but
 * such words before it.  "include/net/ip6_fib.h:663:33: error: ..." has
 * none: "error" there is a compiler's word, not a driver's name.  A
 * commit title quoted in the subject starts a chain of its own.
 */
static bool chain_reaches(const char *q, const char *p)
{
	while (q < p) {
		while (q < p && (isalnum((unsigned char)*q) || *q == '_' ||
				 *q == '-' || *q == '/'))
			q++;
		if (q + 2 > p || q[0] != ':' || q[1] != ' ')
			return false;
		q += 2;
	}
	return q == p;
}

static bool prefix_position(const char *subject, const char *p)
{
	const char *rest = kind_subject_title(subject), *q;

	if (chain_reaches(rest, p))
		return true;
	/* a commit's title quoted in the subject ("\"i2c: muxes: pca954x:
	 * ...\" breaks I2C"): its own chain */
	for (q = p; q > rest && q[-1] != '"' && q[-1] != '\''; q--)
		;
	return q > rest && chain_reaches(q, p);
}

/*
 * names_in_line - a prose line's candidates; not a stack frame's line or
 * "Modules linked in": those name every module loaded
 */
void names_in_line(const char *s, size_t len, names_add_fn *add, void *ctx)
{
	const char *end = s + len, *p;

	if (memmem(s, len, "+0x", 3) ||
	    memmem(s, len, "Modules linked in", 17) || module_list(s, len))
		return;
	for (p = s; p < end; p++) {
		bool marked;
		size_t n = named_word(s, p, end, &marked), wlen;
		char low[NAMES_WORD_MAX + 8];

		/* "ext4_find_extent:936:" is a function's error prefix */
		if (n &&
		    (marked || called_driver(s, p, n, end) ||
		     (configurator(p, n) && after_make(s, p))) &&
		    !(p + n + 1 < end && p[n] == ':' && is_digit(p[n + 1])))
			add(ctx, p, n);
		/* in capitals, when called a driver: "the UAS driver" */
		if (!n &&
		    (n = capital_word(s, p, end, low, sizeof(low), &wlen))) {
			if (called_driver(s, p, wlen, end))
				add(ctx, low, n);
			n = wlen;
		}
		/* a proper noun called a driver: "the Nouveau driver" */
		if (!n && (n = title_word(s, p, end, low, sizeof(low))) &&
		    noun_follows(p, n, end) && called_driver(s, p, n, end))
			add(ctx, low, n);
		if (n)
			p += n - 1;
	}
}

void names_in_subject(const char *subject, names_add_fn *add, void *ctx)
{
	const char *s = subject ? subject : "", *end = s + strlen(s), *p;

	for (p = s; p < end; p++) {
		bool marked;
		size_t n = named_word(s, p, end, &marked), len;
		char low[NAMES_WORD_MAX + 8];

		if (n && (marked || (p[n] == ':' && prefix_position(s, p)) ||
			  called_driver(s, p, n, end) || configurator(p, n)))
			add(ctx, p, n);
		/* "Thunderbolt-5", "USB4", "the UAS driver": as a word in
		 * lower case; a plain acronym ("USB", "RTC", "HID: amd_sfh:")
		 * is the subsystem's, not a driver's */
		if (!n &&
		    (n = capital_word(s, p, end, low, sizeof(low), &len))) {
			/* "O_TRUNC", "INTEL_VSEC": a macro's or a Kconfig
			 * symbol's name, no module's as written */
			if (!memchr(p, '_', len) &&
			    (strcspn(p, "0123456789-") < len ||
			     called_driver(s, p, len, end)))
				add(ctx, low, n);
			n = len;
		}
		/* "Nouveau driver warns ...": a proper noun called a driver */
		if (!n && (n = title_word(s, p, end, low, sizeof(low))) &&
		    noun_follows(p, n, end) && called_driver(s, p, n, end))
			add(ctx, low, n);
		if (n)
			p += n - 1;
	}
}

/* the kinds of a word of a pair (names_pairs_in_subject()) */
enum { PAIR_PLAIN, PAIR_MARKED, PAIR_CAPITALS };

/*
 * pair_word - a word a pair may be made of at p (names.h): its length,
 * its lower-case form in out (NAMES_WORD_MAX + 1 bytes) and its kind in
 * *kind; 0 when it is none
 */
static size_t pair_word(const char *s, const char *p, const char *end,
			char *out, int *kind)
{
	const char *q = p;
	bool lower = false, upper = false, marked = false;
	size_t n, i;

	if (p > s && (is_alnum(p[-1]) || strchr("/._-@=+<", p[-1])))
		return 0;
	if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
		return 0;
	for (; q < end && (is_alnum(*q) || *q == '_' || *q == '-'); q++) {
		lower |= *q >= 'a' && *q <= 'z';
		upper |= *q >= 'A' && *q <= 'Z';
		marked |= is_digit(*q) || *q == '_' || *q == '-';
	}
	n = (size_t)(q - p);
	if (n < 3 || n > NAMES_WORD_MAX || q[-1] == '-' || q[-1] == '_')
		return 0;
	/* a path, an address, a file name, a function: read as such */
	if (q < end && (strchr("/@(+", *q) ||
			(*q == '.' && q + 1 < end && is_alnum(q[1]))))
		return 0;
	for (i = 0; i < n; i++)
		out[i] = (char)tolower((unsigned char)p[i]);
	out[n] = '\0';
	if (english(out, n) || common_word(out, n))
		return 0;
	*kind = marked		  ? PAIR_MARKED
		: upper && !lower ? PAIR_CAPITALS
				  : PAIR_PLAIN;
	return n;
}

void names_pairs_in_subject(const char *subject, names_add_fn *add, void *ctx)
{
	const char *s = subject ? subject : "", *end = s + strlen(s);
	const char *p = kind_subject_title(s), *prev = NULL;
	char a[NAMES_WORD_MAX + 1], b[NAMES_WORD_MAX + 1];
	char pair[NAMES_PAIR_MAX + 1];
	size_t na = 0;
	int ka = PAIR_PLAIN;

	if (!p || p < s || p > end)
		p = s;
	for (; p < end; p++) {
		int kb = PAIR_PLAIN;
		size_t nb = pair_word(s, p, end, b, &kb);
		bool chain;

		if (!nb) {
			/* a word of another kind breaks the pair */
			if (is_alnum(*p) || *p == '_' || *p == '-')
				prev = NULL;
			continue;
		}
		chain = prev && p - prev == (ptrdiff_t)na + 2 &&
			prev[na] == ':' && prev[na + 1] == ' ' &&
			prefix_position(s, p);
		if (prev &&
		    (chain ||
		     (p - prev == (ptrdiff_t)na + 1 && prev[na] == ' ' &&
		      (ka != PAIR_PLAIN || kb != PAIR_PLAIN)))) {
			memcpy(pair, a, na);
			pair[na] = ' ';
			memcpy(pair + na + 1, b, nb + 1);
			add(ctx, pair, na + 1 + nb);
		}
		memcpy(a, b, nb + 1);
		na = nb;
		ka = kb;
		prev = p;
		p += nb - 1;
	}
}
