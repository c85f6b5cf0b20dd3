// SPDX-License-Identifier: GPL-2.0-only
/*
 * model_lex - the tokenizer of the statistical classifier: text to hashed
 * features (see model_int.h)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "model_int.h"
#include "util.h"

/* ---- hashing ------------------------------------------------------------ */

/*
 * FNV-1a over the token's bytes, started from a namespace seed;
 * bucket_of() mixes the result again.  lex_word() runs the same steps
 * while it copies a word, so md_hash_bytes(seed, w, n) is its hash.
 */
#define HASH_INIT(seed) (FNV64_BASIS ^ (seed))
#define HASH_STEP(h, c) hash64_step(h, (unsigned char)(c))

uint64_t md_hash_bytes(uint64_t seed, const char *s, size_t n)
{
	return hash64_mem(HASH_INIT(seed), s, n);
}

static uint64_t hash_pair(uint64_t a, uint64_t b, unsigned d)
{
	return hash_mix64(a * 0x9e3779b97f4a7c15ull + b) ^
	       (d * 0xd6e8feb86659fd93ull);
}

static uint32_t bucket_of(uint64_t h, unsigned bits)
{
	return (uint32_t)(hash_mix64(h) >> (64 - bits));
}

/* ---- the tokenizer -------------------------------------------------------- */

static void top_add(struct tok *t, uint32_t b, const char *text)
{
	struct top_terms *top = t->top;
	const float *w = t->w + (size_t)b * MODEL_NCLASS;
	double others = 0, pull;
	size_t i, at;
	int c;

	for (c = 0; c < MODEL_NCLASS; c++)
		if (c != top->cls)
			others += w[c];
	pull = w[top->cls] - others / (MODEL_NCLASS - 1);
	if (pull <= 0 || !isfinite(pull))
		return;
	if (top->n == top->max &&
	    (!top->max || top->terms[top->n - 1].pull >= pull))
		return;
	at = top->n < top->max ? top->n : top->max - 1;
	while (at > 0 && top->terms[at - 1].pull < pull) {
		top->terms[at] = top->terms[at - 1];
		at--;
	}
	if (top->n < top->max)
		top->n++;
	memset(&top->terms[at], 0, sizeof(top->terms[at]));
	snprintf(top->terms[at].text, sizeof(top->terms[at].text), "%s", text);
	for (i = 0; i < MODEL_NCLASS; i++)
		top->terms[at].weight[i] = w[i];
	top->terms[at].pull = pull;
}

static void feature(struct tok *t, uint32_t b, const char *text)
{
	uint64_t bit = 1ull << (b & 63);

	if (t->seen[b >> 6] & bit)
		return;
	t->seen[b >> 6] |= bit;
	ALLOC_GROW(t->ids, t->nids, t->alloc);
	t->ids[t->nids++] = b;
	if (t->top)
		top_add(t, b, text);
}

/* emit_hashed - one token in the stream, paired with those before it */
static void emit_hashed(struct tok *t, const char *s, size_t len, uint64_t h)
{
	static const char *const gap[] = { " ", " _ ", " _ _ ", " _ _ _ " };
	char text[TEXT_BUF];
	unsigned d, slot;

	if (t->nwords >= t->c->tokens_max) {
		t->full = true;
		return;
	}
	t->nwords++;
	text[0] = '\0';
	if (t->want_text)
		snprintf(text, sizeof(text), "%s%.*s",
			 t->ns == NS_SUBJECT ? "s:" : "", (int)len, s);
	t->ntokens++;
	if (t->fn)
		t->fn(text, strlen(text), t->fn_data);
	feature(t, bucket_of(h, t->c->bits), text);
	for (d = 1; d < t->c->window && d <= t->nring; d++) {
		char pair[TEXT_BUF * 2 + 8];

		slot = (t->head + MODEL_WINDOW_MAX - d) % MODEL_WINDOW_MAX;
		pair[0] = '\0';
		if (t->want_text)
			snprintf(pair, sizeof(pair), "%s%s%s", t->ringtxt[slot],
				 gap[d - 1], text);
		feature(t,
			bucket_of(hash_pair(t->ring[slot], h, d), t->c->bits),
			pair);
	}
	t->ring[t->head] = h;
	if (t->want_text)
		memcpy(t->ringtxt[t->head], text, sizeof(text));
	t->head = (t->head + 1) % MODEL_WINDOW_MAX;
	if (t->nring < MODEL_WINDOW_MAX)
		t->nring++;
}

static void emit(struct tok *t, const char *s, size_t len)
{
	emit_hashed(t, s, len, md_hash_bytes(t->ns, s, len));
}

static void emits(struct tok *t, const char *s)
{
	emit(t, s, strlen(s));
}

/* structural - a once-per-report token, outside the stream */
static void structural(struct tok *t, const char *s)
{
	uint64_t h = md_hash_bytes(NS_BODY, s, strlen(s));

	t->ntokens++;
	if (t->fn)
		t->fn(s, strlen(s), t->fn_data);
	feature(t, bucket_of(h, t->c->bits), s);
}

static void stream_reset(struct tok *t, uint64_t ns)
{
	t->ns = ns;
	t->nring = 0;
}

/* ---- lexing ------------------------------------------------------------- */

enum cp_kind {
	CP_INVALID,
	CP_SPACE,
	CP_LETTER,
	CP_SYMBOL, /* a typographic token, name in *name */
};

/* utf8_next - decode one code point at s (n > 0, s[0] >= 0x80) */
static size_t utf8_next(const unsigned char *s, size_t n, uint32_t *cp)
{
	size_t len, i;
	uint32_t v;

	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		v = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		v = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		v = s[0] & 0x07;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = (v << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && v < 0x800) ||
	    (len == 4 && (v < 0x10000 || v > 0x10ffff)) ||
	    (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return len;
}

static enum cp_kind cp_classify(uint32_t cp, const char **name)
{
	if (cp == 0xa0 || cp == 0x3000 || (cp >= 0x2000 && cp <= 0x200b) ||
	    cp == 0x202f || cp == 0xfeff)
		return CP_SPACE;
	if (cp == 0x2014) {
		*name = "__emdash";
		return CP_SYMBOL;
	}
	if (cp == 0x2013) {
		*name = "__endash";
		return CP_SYMBOL;
	}
	if (cp >= 0x2018 && cp <= 0x201f) {
		*name = "__quote";
		return CP_SYMBOL;
	}
	if (cp == 0x2022 || cp == 0x25cf || cp == 0x25aa || cp == 0x25e6) {
		*name = "__bullet";
		return CP_SYMBOL;
	}
	if (cp == 0x2026) {
		*name = "__ellipsis";
		return CP_SYMBOL;
	}
	if ((cp >= 0x2190 && cp <= 0x21ff) || (cp >= 0x27f0 && cp <= 0x27ff) ||
	    (cp >= 0x2900 && cp <= 0x297f)) {
		*name = "__arrow";
		return CP_SYMBOL;
	}
	if (cp >= 0x2700 && cp <= 0x27bf) {
		*name = "__check";
		return CP_SYMBOL;
	}
	if (cp >= 0x1f000 && cp <= 0x1faff) {
		*name = "__emoji";
		return CP_SYMBOL;
	}
	if ((cp >= 0x2010 && cp <= 0x2bff) || (cp >= 0x80 && cp <= 0xbf) ||
	    cp == 0xd7 || cp == 0xf7 || (cp >= 0xfe00 && cp <= 0xfe0f)) {
		*name = "__symbol";
		return CP_SYMBOL;
	}
	return CP_LETTER;
}

/* ASCII classes without the locale (ctype.h costs a call per byte) */
enum {
	C_ALPHA = 1,
	C_DIGIT = 2,
	C_XDIGIT = 4,
	C_UPPER = 8,
	C_WORD = 16,
	C_START = 32, /* may start a token: word, digit, "[+*`", non-ASCII */
};

static const unsigned char ctab[256] = {
	['0' ... '9'] = C_DIGIT | C_XDIGIT | C_WORD | C_START,
	['a' ... 'f'] = C_ALPHA | C_XDIGIT | C_WORD | C_START,
	['g' ... 'z'] = C_ALPHA | C_WORD | C_START,
	['A' ... 'F'] = C_ALPHA | C_XDIGIT | C_UPPER | C_WORD | C_START,
	['G' ... 'Z'] = C_ALPHA | C_UPPER | C_WORD | C_START,
	['_'] = C_WORD | C_START,
	['['] = C_START,
	['+'] = C_START,
	['*'] = C_START,
	['`'] = C_START,
	[0x80 ... 0xff] = C_START,
};

static inline bool a_alpha(unsigned char c)
{
	return ctab[c] & C_ALPHA;
}

static inline bool a_digit(unsigned char c)
{
	return ctab[c] & C_DIGIT;
}

static inline bool a_xdigit(unsigned char c)
{
	return ctab[c] & C_XDIGIT;
}

static inline unsigned char a_lower(unsigned char c)
{
	return c |
	       (unsigned char)((ctab[c] & C_UPPER) << 2); /* 8 << 2 = 0x20 */
}

static inline bool is_word(unsigned char c)
{
	return ctab[c] & C_WORD;
}

static size_t skip_hex(const unsigned char *s, size_t n, size_t i)
{
	while (i < n && a_xdigit(s[i]))
		i++;
	return i;
}

static size_t skip_digits(const unsigned char *s, size_t n, size_t i)
{
	while (i < n && a_digit(s[i]))
		i++;
	return i;
}

/* a token ends at i: no letter, digit or '_' follows */
static bool boundary(const unsigned char *s, size_t n, size_t i)
{
	return i >= n || !is_word(s[i]);
}

/* "[   12.345678]" at i: the index after "]", or 0 */
static size_t match_dmesg_ts(const unsigned char *s, size_t n, size_t i)
{
	size_t j = i + 1, k;

	while (j < n && s[j] == ' ')
		j++;
	k = skip_digits(s, n, j);
	if (k == j || k >= n || s[k] != '.')
		return 0;
	j = skip_digits(s, n, k + 1);
	if (j - k - 1 < 3 || j >= n || s[j] != ']')
		return 0;
	return j + 1;
}

/* "+0x1a/0x40" at i: the index after it, or 0 */
static size_t match_frame(const unsigned char *s, size_t n, size_t i)
{
	size_t j, k;

	if (i + 3 >= n || s[i + 1] != '0' || (s[i + 2] | 0x20) != 'x')
		return 0;
	j = skip_hex(s, n, i + 3);
	if (j == i + 3 || j + 3 >= n || s[j] != '/' || s[j + 1] != '0' ||
	    (s[j + 2] | 0x20) != 'x')
		return 0;
	k = skip_hex(s, n, j + 3);
	if (k == j + 3)
		return 0;
	return k;
}

/* digits and dots at i (i is a digit): emit a version or decimal shape */
static size_t lex_dotted(struct tok *t, const unsigned char *s, size_t n,
			 size_t i, bool v_prefix)
{
	size_t j = skip_digits(s, n, i);
	unsigned dots = 0;
	bool rc = false;

	while (j + 1 < n && s[j] == '.' && a_digit(s[j + 1])) {
		j = skip_digits(s, n, j + 1);
		dots++;
	}
	if (j + 3 < n && s[j] == '-' && s[j + 1] == 'r' && s[j + 2] == 'c' &&
	    a_digit(s[j + 3])) {
		j = skip_digits(s, n, j + 3);
		rc = true;
	}
	emits(t, dots >= 2 || rc || (v_prefix && dots) ? "__version"
		 : dots				       ? "__decimal"
						       : "__num1");
	return j;
}

static size_t lex_number(struct tok *t, const unsigned char *s, size_t n,
			 size_t i)
{
	static const char *const num[] = { "__num1", "__num2", "__num3",
					   "__num4", "__num5" };
	size_t j, k, nd;

	if (s[i] == '0' && i + 2 < n && (s[i + 1] | 0x20) == 'x' &&
	    a_xdigit(s[i + 2])) {
		j = skip_hex(s, n, i + 2);
		nd = j - i - 2;
		emits(t, nd <= 4 ? "__hex_s" : nd <= 8 ? "__hex_m" : "__hex_l");
		return j;
	}
	j = skip_digits(s, n, i);
	nd = j - i;
	k = skip_hex(s, n, i);
	if (k > j && k - i >= 7 && boundary(s, n, k)) {
		emits(t, k - i >= 16 ? "__hex_l" : "__sha");
		return k;
	}
	if (k - i == 4 && k < n && s[k] == ':' &&
	    skip_hex(s, n, k + 1) == k + 5 && boundary(s, n, k + 5)) {
		emits(t, "__hwid");
		return k + 5;
	}
	if (nd == 4 && j + 5 < n && s[j] == '-' && a_digit(s[j + 1]) &&
	    a_digit(s[j + 2]) && s[j + 3] == '-' && a_digit(s[j + 4]) &&
	    a_digit(s[j + 5])) {
		emits(t, "__date");
		return j + 6;
	}
	if (nd <= 2 && j + 2 < n && s[j] == ':' && a_digit(s[j + 1]) &&
	    a_digit(s[j + 2])) {
		j += 3;
		if (j + 2 < n && s[j] == ':' && a_digit(s[j + 1]) &&
		    a_digit(s[j + 2]))
			j += 3;
		if (j + 1 < n && (s[j] == '.' || s[j] == ',') &&
		    a_digit(s[j + 1]))
			j = skip_digits(s, n, j + 1);
		emits(t, "__time");
		return j;
	}
	if (j + 1 < n && s[j] == '.' && a_digit(s[j + 1]))
		return lex_dotted(t, s, n, i, false);
	emits(t, num[nd < 5 ? nd - 1 : 4]);
	return j;
}

static size_t lex_word(struct tok *t, const unsigned char *s, size_t n,
		       size_t i)
{
	char w[WORD_MAX + 8];
	size_t j = i, len = 0, k;
	bool hex, digit = false;
	uint64_t h = HASH_INIT(t->ns);

	if ((s[i] | 0x20) == 'v' && i + 1 < n && a_digit(s[i + 1])) {
		k = skip_digits(s, n, i + 1);
		if (k + 1 < n && s[k] == '.' && a_digit(s[k + 1]))
			return lex_dotted(t, s, n, i + 1, true);
	}
	for (;;) {
		uint32_t cp;
		const char *name;
		size_t l;

		while (j < n && is_word(s[j])) {
			unsigned char c = a_lower(s[j]);

			if (len < WORD_MAX)
				w[len] = (char)c;
			h = HASH_STEP(h, c);
			len++;
			j++;
		}
		if (j >= n)
			break;
		if (s[j] == '\'' && len && j + 1 < n && a_alpha(s[j + 1])) {
			if (len < WORD_MAX)
				w[len] = '\'';
			h = HASH_STEP(h, '\'');
			len++;
			j++;
			continue;
		}
		if (s[j] < 0x80)
			break;
		l = utf8_next(s + j, n - j, &cp);
		if (!l || cp_classify(cp, &name) != CP_LETTER)
			break;
		if (len + l <= WORD_MAX)
			memcpy(w + len, s + j, l);
		else
			len = WORD_MAX + 1; /* too long in any case */
		for (k = 0; k < l; k++)
			h = HASH_STEP(h, s[j + k]);
		len += l;
		j += l;
	}
	if (j == i)
		return i + 1;
	if (len > WORD_MAX) {
		emits(t, "__longword");
		return j;
	}
	hex = len >= 7;
	for (k = 0; hex && k < len; k++) {
		hex = a_xdigit((unsigned char)w[k]);
		digit |= a_digit((unsigned char)w[k]);
	}
	if (hex && digit)
		emits(t, len >= 16 ? "__hex_l" : "__sha");
	else
		emit_hashed(t, w, len, h);
	return j;
}

/* lex - the tokens of one line (or of the subject) */
static void lex(struct tok *t, const unsigned char *s, size_t n)
{
	size_t i = 0, j;

	while (i < n && !t->full) {
		unsigned char c;

		while (i < n && !(ctab[s[i]] & C_START))
			i++;
		if (i >= n)
			break;
		c = s[i];
		if (c < 0x80) {
			if (is_word(c) && !a_digit(c)) {
				i = lex_word(t, s, n, i);
			} else if (a_digit(c)) {
				i = lex_number(t, s, n, i);
			} else if (c == '[' && (j = match_dmesg_ts(s, n, i))) {
				emits(t, "__dmesg_ts");
				t->dmesg++;
				i = j;
			} else if (c == '+' && (j = match_frame(s, n, i))) {
				emits(t, "__frame_off");
				t->line_frames++;
				i = j;
			} else if (c == '*' && i + 1 < n && s[i + 1] == '*') {
				emits(t, "__bold");
				while (i < n && s[i] == '*')
					i++;
			} else if (c == '`') {
				emits(t, "__code");
				while (i < n && s[i] == '`')
					i++;
			} else {
				i++;
			}
		} else {
			uint32_t cp;
			const char *name = NULL;
			size_t l = utf8_next(s + i, n - i, &cp);
			enum cp_kind k;

			if (!l) {
				i++;
				continue;
			}
			k = cp_classify(cp, &name);
			if (k == CP_LETTER) {
				i = lex_word(t, s, n, i);
				continue;
			}
			i += l;
			if (k != CP_SYMBOL)
				continue;
			emits(t, name);
			/* a run of one symbol ("━━━━") is one token */
			while (i < n && s[i] >= 0x80) {
				const char *next = NULL;

				l = utf8_next(s + i, n - i, &cp);
				if (!l || cp_classify(cp, &next) != CP_SYMBOL ||
				    next != name)
					break;
				i += l;
			}
		}
	}
}

static bool line_starts(const char *s, size_t n, const char *prefix)
{
	size_t l = strlen(prefix);

	return n >= l && !memcmp(s, prefix, l);
}

/* line_shape - count the markdown/log structure of one body line */
static void line_shape(struct tok *t, const char *s, size_t n)
{
	size_t i = 0, spaces = 0, k;

	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	s += i;
	n -= i;
	if (!n)
		return;
	for (k = 0; k < n && k < 7 && s[k] == '#'; k++)
		;
	if (k >= 1 && k <= 6 && k < n && s[k] == ' ')
		t->headings++;
	if ((n >= 2 && (s[0] == '-' || s[0] == '*') && s[1] == ' ') ||
	    line_starts(s, n, "\xe2\x80\xa2")) {
		t->bullets++;
	} else {
		for (k = 0; k < n && k < 3 && a_digit((unsigned char)s[k]); k++)
			;
		if (k && k + 1 < n && (s[k] == '.' || s[k] == ')') &&
		    s[k + 1] == ' ')
			t->bullets++;
	}
	if (s[0] == '|' && count_char(s, n, '|') >= 3)
		t->table++;
	if (line_starts(s, n, "```"))
		t->fence++;
	if (line_starts(s, n, "diff --git ") || line_starts(s, n, "@@ -") ||
	    line_starts(s, n, "+++ b/"))
		t->patch++;
	if (n > 100) {
		spaces = count_char(s, n, ' ');
		if (spaces >= 12 && !memmem(s, n, "/0x", 3))
			t->long_lines++;
	}
}

static bool is_attribution(const char *s, size_t n)
{
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return n >= 6 && n < 300 && !memcmp(s + n - 6, "wrote:", 6);
}

static bool is_quoted(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && i < 4 && s[i] == ' ')
		i++;
	return i < n && s[i] == '>';
}

static bool is_original_message(const char *s, size_t n)
{
	return n >= 20 && s[0] == '-' && s[1] == '-' &&
	       memmem(s, n, "Original Message", 16);
}

/* unquote - the line past its quote marks ("> ", "> > ") */
static size_t unquote(const char *s, size_t n)
{
	size_t i = 0;

	while (is_quoted(s + i, n - i)) {
		while (s[i] != '>')
			i++;
		i++;
		if (i < n && s[i] == ' ')
			i++;
	}
	return i;
}

/*
 * lex_text - a body (quotes stripped, or with whole their words read
 * and nothing cut) or an attachment, line by line
 */
static size_t lex_text(struct tok *t, const char *text, size_t len,
		       size_t budget, bool body, bool whole)
{
	const char *p = text, *end;

	if (len > budget)
		len = budget;
	end = text + len;
	while (p < end && !t->full) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (nl ? nl : end) - p;
		const char *next = nl ? nl + 1 : end;

		if (n && p[n - 1] == '\r')
			n--;
		if (body) {
			if (is_quoted(p, n)) {
				size_t q = unquote(p, n);

				t->quoted++;
				if (!whole) {
					p = next;
					continue;
				}
				p += q;
				n -= q;
			} else if (!whole &&
				   ((n == 3 && !memcmp(p, "-- ", 3)) ||
				    is_original_message(p, n))) {
				break;
			} else if (is_attribution(p, n)) {
				p = next;
				continue;
			}
			line_shape(t, p, n);
		}
		t->line_frames = 0;
		lex(t, (const unsigned char *)p, n);
		if (t->line_frames)
			t->trace_lines++;
		p = next;
	}
	return len;
}

static void lex_subject(struct tok *t, const char *subj)
{
	size_t n = strlen(subj);
	bool again = true;

	while (again) {
		again = false;
		while (n && (*subj == ' ' || *subj == '\t')) {
			subj++;
			n--;
		}
		if (n >= 3 && !strncasecmp(subj, "re:", 3)) {
			structural(t, "__subj_re");
			subj += 3;
			n -= 3;
			again = true;
		} else if (n >= 4 && (!strncasecmp(subj, "fwd:", 4))) {
			structural(t, "__subj_fwd");
			subj += 4;
			n -= 4;
			again = true;
		} else if (n >= 3 && (!strncasecmp(subj, "fw:", 3))) {
			structural(t, "__subj_fwd");
			subj += 3;
			n -= 3;
			again = true;
		}
	}
	if (n && *subj == '[')
		structural(t, "__subj_tag");
	stream_reset(t, NS_SUBJECT);
	lex(t, (const unsigned char *)subj, n);
	stream_reset(t, NS_BODY);
}

static unsigned log2_bucket(size_t n)
{
	unsigned b = 0;

	while (n > 1 && b < 16) {
		n >>= 1;
		b++;
	}
	return b;
}

/* md_tokenize - run the whole report through t's sinks */
void md_tokenize(struct tok *t, const struct model_input *in)
{
	size_t budget = t->c->text_max, i, subject_words;
	char name[32];

	if (in->subject)
		lex_subject(t, in->subject);
	subject_words = t->nwords;
	if (in->body && in->body_len)
		budget -= lex_text(t, in->body, in->body_len, budget, true,
				   in->whole);
	if (t->c->attachments) {
		for (i = 0; i < in->nattach && i < MODEL_MAX_ATTACH; i++) {
			if (!in->attach[i] || !budget)
				continue;
			stream_reset(t, NS_BODY);
			budget -= lex_text(t, in->attach[i], in->attach_len[i],
					   budget, false, false);
		}
	}
	t->body_words = t->nwords - subject_words;
	if (t->quoted)
		structural(t, "__quoted");
	if (t->trace_lines >= 2)
		structural(t, "__has_trace");
	if (t->dmesg >= 2)
		structural(t, "__has_dmesg");
	if (t->patch)
		structural(t, "__has_patch");
	if (t->headings)
		structural(t, "__md_heading");
	if (t->headings >= 3)
		structural(t, "__md_headings_many");
	if (t->table >= 2)
		structural(t, "__md_table");
	if (t->fence)
		structural(t, "__md_fence");
	if (t->bullets >= 5)
		structural(t, "__bullets_many");
	else if (t->bullets >= 2)
		structural(t, "__bullets_some");
	if (t->long_lines >= 3)
		structural(t, "__long_lines");
	if (in->nattach && t->c->attachments)
		structural(t, "__has_attach");
	snprintf(name, sizeof(name), "__len_%u", log2_bucket(t->body_words));
	structural(t, name);
}

void md_tok_init(struct tok *t, const struct tok_conf *c, uint64_t *seen)
{
	memset(t, 0, sizeof(*t));
	t->c = c;
	t->seen = seen;
	t->ns = NS_BODY;
}

uint64_t *md_bitmap_new(unsigned bits)
{
	return xcalloc(((size_t)1 << bits) / 64 + 1, sizeof(uint64_t));
}

void md_conf_from_options(struct tok_conf *c, const struct model_options *o)
{
	c->bits = o->table_bits;
	c->window = o->window;
	c->attachments = o->attachments;
	c->text_max = MODEL_TEXT_MAX;
	c->tokens_max = MODEL_TOKENS_MAX;
}

int md_options_check(const struct model_options *o)
{
	if (o->kind != MODEL_NB && o->kind != MODEL_LR)
		return error("model: unknown kind %d", (int)o->kind);
	if (o->table_bits < MODEL_BITS_MIN || o->table_bits > MODEL_BITS_MAX)
		return error("model: table_bits must be %d..%d", MODEL_BITS_MIN,
			     MODEL_BITS_MAX);
	if (o->window < 1 || o->window > MODEL_WINDOW_MAX)
		return error("model: window must be 1..%d", MODEL_WINDOW_MAX);
	if (!(o->alpha > 0) || !(o->l2 >= 0) || !(o->rate > 0) ||
	    !(o->temperature > 0) || !isfinite(o->alpha) || !isfinite(o->l2) ||
	    !isfinite(o->rate) || !isfinite(o->temperature))
		return error(
			"model: smoothing, rates and temperature must be positive");
	return 0;
}

/* model_tokenize - call fn for every token (see model.h) */
size_t model_tokenize(const struct model_input *in,
		      const struct model_options *o,
		      void (*fn)(const char *tok, size_t len, void *data),
		      void *data)
{
	struct model_options def;
	struct tok_conf c;
	struct tok t;
	uint64_t *seen;

	if (!o) {
		model_options_init(&def);
		o = &def;
	}
	md_conf_from_options(&c, o);
	if (c.bits < MODEL_BITS_MIN || c.bits > MODEL_BITS_MAX)
		c.bits = DEFAULT_BITS;
	if (c.window < 1 || c.window > MODEL_WINDOW_MAX)
		c.window = 1;
	seen = md_bitmap_new(c.bits);
	md_tok_init(&t, &c, seen);
	t.fn = fn;
	t.fn_data = data;
	t.want_text = true;
	md_tokenize(&t, in);
	free(t.ids);
	free(seen);
	return t.ntokens;
}
