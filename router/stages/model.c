// SPDX-License-Identifier: GPL-2.0-only
/*
 * model - the trained statistical classifier (see model.h)
 *
 * The tokenizer emits features (a token or an OSB pair), each hashed to
 * a bucket; a bitmap keeps each bucket once per report and the bucket
 * list grows as tokens come.  Training keeps each report's list;
 * scoring sums the weights of the list in one tight loop at the end,
 * so that the loads from the 3 MB table overlap.
 *
 * Defaults were chosen by grouped 5-fold cross-validation on the
 * public 163-message corpus (figures in model.h; the test
 * tests/unit/test_model_shared.c prints them); they are round numbers,
 * not fitted to the corpus.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "hash.h"
#include "image.h"
#include "model.h"
#include "report.h"
#include "util.h"

#define MODEL_MAGIC   "TRIAGEMB"
#define MODEL_VERSION 1
#define MODEL_ENDIAN  0x01020304u
#define HEADER_SIZE   128

#define DEFAULT_KIND   MODEL_LR
#define DEFAULT_BITS   18
#define DEFAULT_WINDOW 1
#define WORD_MAX       40 /* longer words become __longword */
#define TEXT_BUF       64 /* token text kept for explanations */
#define NS_BODY	       0
#define NS_SUBJECT     0x5375626a65637431ull

enum {
	MF_ATTACHMENTS = 1, /* attachment text was tokenized */
};

struct model_header {
	char magic[8];
	uint32_t version, endian, header_size;
	uint32_t kind, table_bits, nclass, window, flags;
	uint32_t min_examples, min_tokens, text_max, tokens_max;
	uint32_t nexamples[MODEL_NCLASS];
	uint32_t nused;
	float bias[MODEL_NCLASS];
	float temperature;
	uint64_t table_off, table_size, file_size;
	uint32_t table_crc, header_crc;
	uint32_t reserved[2];
};

_Static_assert(sizeof(struct model_header) == HEADER_SIZE,
	       "the model header is 128 bytes");
/* the offsets documented in model.h */
_Static_assert(offsetof(struct model_header, kind) == 20, "kind at 20");
_Static_assert(offsetof(struct model_header, table_bits) == 24, "bits at 24");
_Static_assert(offsetof(struct model_header, min_examples) == 40, "at 40");
_Static_assert(offsetof(struct model_header, nexamples) == 56, "at 56");
_Static_assert(offsetof(struct model_header, bias) == 72, "bias at 72");
_Static_assert(offsetof(struct model_header, table_off) == 88, "at 88");
_Static_assert(offsetof(struct model_header, table_crc) == 112, "at 112");
_Static_assert(offsetof(struct model_header, header_crc) == 116, "at 116");

struct model {
	unsigned char *base;
	size_t size;
	bool mapped;
	const struct model_header *h;
	const float *w; /* [nbuckets][MODEL_NCLASS] */
	unsigned min_examples;
};

/* what the tokenizer needs to know; from options or a model header */
struct tok_conf {
	unsigned bits, window;
	bool attachments;
	size_t text_max, tokens_max;
};

struct example {
	uint32_t *ids; /* distinct buckets */
	uint32_t n;
	int cls;
	double weight;
	size_t nwords;
	const char *group; /* NULL: its own group */
};

struct model_trainer {
	struct model_options o;
	struct tok_conf conf;
	struct example *ex;
	size_t nex, alloc;
	uint64_t *seen; /* reused bitmap, clear between reports */
};

/* ---- options, input, classes ------------------------------------------ */

/* model_options_init - the defaults (see model.h) */
void model_options_init(struct model_options *o)
{
	memset(o, 0, sizeof(*o));
	o->kind = DEFAULT_KIND;
	o->table_bits = DEFAULT_BITS;
	o->window = DEFAULT_WINDOW;
	o->attachments = true;
	o->balanced = true;
	o->min_examples = 10;
	o->min_tokens = 11;
	o->alpha = 0.1;
	o->l2 = 1e-3;
	o->rate = 0.5;
	o->epochs = 20;
	o->seed = 1;
	o->temperature = 1.0;
	o->calibrate = true;
}

/* model_input_init - an input with a subject and a body, no attachments */
void model_input_init(struct model_input *in, const char *subject,
		      const char *body, size_t body_len)
{
	memset(in, 0, sizeof(*in));
	in->subject = subject;
	in->body = body;
	in->body_len = body ? body_len : 0;
}

/* model_input_add_attachment - borrow one more text; -1 when full */
int model_input_add_attachment(struct model_input *in, const char *text,
			       size_t len)
{
	if (!text || in->nattach >= MODEL_MAX_ATTACH)
		return -1;
	in->attach[in->nattach] = text;
	in->attach_len[in->nattach] = len;
	in->nattach++;
	return 0;
}

/* model_input_from_report - subject, body and text attachments of r */
void model_input_from_report(struct model_input *in, const struct report *r)
{
	size_t i;

	model_input_init(in, r->subject, r->body, r->body_len);
	for (i = 0; i < r->nparts; i++) {
		const struct report_part *p = &r->parts[i];

		if (!(p->flags & PART_TEXT) || !(p->flags & PART_ATTACHMENT) ||
		    (p->flags & PART_HTML) || !p->text)
			continue;
		if (model_input_add_attachment(in, p->text, p->len) < 0)
			break;
	}
}

static const char *const class_names[MODEL_NCLASS] = { "user", "fuzzer", "ai" };

/* model_class_name - "user", "fuzzer", "ai", or "?" */
const char *model_class_name(int cls)
{
	if (cls < 0 || cls >= MODEL_NCLASS)
		return "?";
	return class_names[cls];
}

/* model_class_parse - class index of a name, or -1 */
int model_class_parse(const char *name)
{
	int c;

	for (c = 0; c < MODEL_NCLASS; c++)
		if (!strcmp(name, class_names[c]))
			return c;
	return -1;
}

/* ---- hashing ------------------------------------------------------------ */

/*
 * FNV-1a over the token's bytes, started from a namespace seed;
 * bucket_of() mixes the result again.  lex_word() runs the same steps
 * while it copies a word, so hash_bytes(seed, w, n) is its hash.
 */
#define HASH_INIT(seed) (FNV64_BASIS ^ (seed))
#define HASH_STEP(h, c) hash64_step(h, (unsigned char)(c))

static uint64_t hash_bytes(uint64_t seed, const char *s, size_t n)
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

struct top_terms {
	int cls;
	struct model_term *terms;
	size_t n, max;
};

struct tok {
	const struct tok_conf *c;
	uint64_t ns; /* namespace seed: body or subject */
	uint64_t ring[MODEL_WINDOW_MAX];
	char ringtxt[MODEL_WINDOW_MAX][TEXT_BUF];
	unsigned nring, head; /* ring[head - d] is d tokens back */
	size_t nwords, body_words;
	bool full;
	bool want_text;

	/* sinks */
	void (*fn)(const char *tok, size_t len, void *data);
	void *fn_data;
	size_t ntokens;
	uint64_t *seen;
	uint32_t *ids;
	size_t nids, alloc;
	const float *w; /* for explanations */
	struct top_terms *top;

	/* structure of the body */
	unsigned quoted, trace_lines, dmesg, patch, headings, bullets;
	unsigned table, fence, long_lines, line_frames;
};

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
	emit_hashed(t, s, len, hash_bytes(t->ns, s, len));
}

static void emits(struct tok *t, const char *s)
{
	emit(t, s, strlen(s));
}

/* structural - a once-per-report token, outside the stream */
static void structural(struct tok *t, const char *s)
{
	uint64_t h = hash_bytes(NS_BODY, s, strlen(s));

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

/* lex_text - a body (quotes stripped) or an attachment, line by line */
static size_t lex_text(struct tok *t, const char *text, size_t len,
		       size_t budget, bool body)
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
				t->quoted++;
				p = next;
				continue;
			}
			if ((n == 3 && !memcmp(p, "-- ", 3)) ||
			    is_original_message(p, n))
				break;
			if (is_attribution(p, n)) {
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

/* tokenize - run the whole report through t's sinks */
static void tokenize(struct tok *t, const struct model_input *in)
{
	size_t budget = t->c->text_max, i, subject_words;
	char name[32];

	if (in->subject)
		lex_subject(t, in->subject);
	subject_words = t->nwords;
	if (in->body && in->body_len)
		budget -= lex_text(t, in->body, in->body_len, budget, true);
	if (t->c->attachments) {
		for (i = 0; i < in->nattach && i < MODEL_MAX_ATTACH; i++) {
			if (!in->attach[i] || !budget)
				continue;
			stream_reset(t, NS_BODY);
			budget -= lex_text(t, in->attach[i], in->attach_len[i],
					   budget, false);
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

static void tok_init(struct tok *t, const struct tok_conf *c, uint64_t *seen)
{
	memset(t, 0, sizeof(*t));
	t->c = c;
	t->seen = seen;
	t->ns = NS_BODY;
}

static uint64_t *bitmap_new(unsigned bits)
{
	return xcalloc(((size_t)1 << bits) / 64 + 1, sizeof(uint64_t));
}

static void conf_from_options(struct tok_conf *c, const struct model_options *o)
{
	c->bits = o->table_bits;
	c->window = o->window;
	c->attachments = o->attachments;
	c->text_max = MODEL_TEXT_MAX;
	c->tokens_max = MODEL_TOKENS_MAX;
}

static int options_check(const struct model_options *o)
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
	conf_from_options(&c, o);
	if (c.bits < MODEL_BITS_MIN || c.bits > MODEL_BITS_MAX)
		c.bits = DEFAULT_BITS;
	if (c.window < 1 || c.window > MODEL_WINDOW_MAX)
		c.window = 1;
	seen = bitmap_new(c.bits);
	tok_init(&t, &c, seen);
	t.fn = fn;
	t.fn_data = data;
	t.want_text = true;
	tokenize(&t, in);
	free(t.ids);
	free(seen);
	return t.ntokens;
}

/* ---- training ------------------------------------------------------------ */

/* model_train_new - an empty trainer (o NULL: defaults) */
struct model_trainer *model_train_new(const struct model_options *o)
{
	struct model_trainer *t = xcalloc(1, sizeof(*t));

	if (o)
		t->o = *o;
	else
		model_options_init(&t->o);
	if (options_check(&t->o) < 0) {
		free(t);
		return NULL;
	}
	conf_from_options(&t->conf, &t->o);
	t->seen = bitmap_new(t->o.table_bits);
	return t;
}

static void extract(const struct tok_conf *c, uint64_t *seen,
		    const struct model_input *in, struct example *ex)
{
	struct tok t;
	size_t i;

	tok_init(&t, c, seen);
	t.ids = xmalloc(64 * sizeof(*t.ids));
	t.alloc = 64;
	tokenize(&t, in);
	for (i = 0; i < t.nids; i++)
		seen[t.ids[i] >> 6] = 0;
	ex->ids = t.ids;
	ex->n = (uint32_t)t.nids;
	ex->nwords = t.nwords;
}

/* model_train_add - learn one report of class cls with weight (> 0) */
int model_train_add(struct model_trainer *t, const struct model_input *in,
		    int cls, double weight)
{
	return model_train_add_group(t, in, cls, weight, NULL);
}

/* model_train_add_group - the same, with a group for calibration folds */
int model_train_add_group(struct model_trainer *t, const struct model_input *in,
			  int cls, double weight, const char *group)
{
	struct example *ex;

	if (cls < 0 || cls >= MODEL_NCLASS)
		return error("model: no class %d", cls);
	if (!(weight > 0) || !isfinite(weight))
		return error("model: a weight must be positive");
	ALLOC_GROW(t->ex, t->nex, t->alloc);
	ex = &t->ex[t->nex++];
	memset(ex, 0, sizeof(*ex));
	extract(&t->conf, t->seen, in, ex);
	ex->cls = cls;
	ex->weight = weight;
	ex->group = group ? xstrdup(group) : NULL;
	return 0;
}

/* model_train_free - drop a trainer without building a model */
void model_train_free(struct model_trainer *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nex; i++) {
		free(t->ex[i].ids);
		free((char *)t->ex[i].group);
	}
	free(t->ex);
	free(t->seen);
	free(t);
}

static void train_nb(const struct model_options *o, const struct example *ex,
		     size_t n, const bool *use, float *w, float *bias,
		     uint32_t *nused)
{
	size_t nb = (size_t)1 << o->table_bits, i, b, vocab = 0;
	double *cnt = xcalloc(nb * MODEL_NCLASS, sizeof(double));
	double tot[MODEL_NCLASS] = { 0 }, docs[MODEL_NCLASS] = { 0 }, all = 0;
	double denom[MODEL_NCLASS], mean;
	int c;

	for (i = 0; i < n; i++) {
		if (use && !use[i])
			continue;
		for (b = 0; b < ex[i].n; b++) {
			cnt[(size_t)ex[i].ids[b] * MODEL_NCLASS + ex[i].cls] +=
				ex[i].weight;
		}
		tot[ex[i].cls] += ex[i].weight * ex[i].n;
		docs[ex[i].cls] += ex[i].weight;
		all += ex[i].weight;
	}
	for (b = 0; b < nb; b++)
		if (cnt[b * 3] || cnt[b * 3 + 1] || cnt[b * 3 + 2])
			vocab++;
	for (c = 0; c < MODEL_NCLASS; c++)
		denom[c] = tot[c] + o->alpha * (double)(vocab ? vocab : 1);
	*nused = 0;
	for (b = 0; b < nb; b++) {
		double lp[MODEL_NCLASS];
		const double *k = cnt + b * MODEL_NCLASS;

		if (!k[0] && !k[1] && !k[2])
			continue;
		(*nused)++;
		mean = 0;
		for (c = 0; c < MODEL_NCLASS; c++) {
			lp[c] = log((k[c] + o->alpha) / denom[c]);
			mean += lp[c] / MODEL_NCLASS;
		}
		for (c = 0; c < MODEL_NCLASS; c++)
			w[b * MODEL_NCLASS + c] = (float)(lp[c] - mean);
	}
	mean = 0;
	for (c = 0; c < MODEL_NCLASS; c++) {
		bias[c] = o->balanced ? 0.0f
				      : (float)log((docs[c] + 1) /
						   (all + MODEL_NCLASS));
		mean += bias[c] / MODEL_NCLASS;
	}
	for (c = 0; c < MODEL_NCLASS; c++)
		bias[c] -= (float)mean;
	free(cnt);
}

static uint64_t rng_next(uint64_t *s)
{
	*s += 0x9e3779b97f4a7c15ull;
	return hash_mix64(*s);
}

static void softmax(const double *z, double *p)
{
	double mx = z[0], sum = 0;
	int c;

	for (c = 1; c < MODEL_NCLASS; c++)
		if (z[c] > mx)
			mx = z[c];
	for (c = 0; c < MODEL_NCLASS; c++) {
		p[c] = exp(z[c] - mx);
		sum += p[c];
	}
	for (c = 0; c < MODEL_NCLASS; c++)
		p[c] /= sum;
}

static void train_lr(const struct model_options *o, const struct example *ex,
		     size_t n, const bool *use, float *w, float *bias,
		     uint32_t *nused)
{
	size_t nb = (size_t)1 << o->table_bits, i, b, m = 0, step = 0;
	double *W = xcalloc(nb * MODEL_NCLASS, sizeof(double));
	double bw[MODEL_NCLASS] = { 0 }, cw[MODEL_NCLASS], s = 1, mean;
	size_t ncls[MODEL_NCLASS] = { 0 },
	       *order = xmalloc((n + 1) * sizeof(*order));
	uint64_t rng = o->seed;
	unsigned e;
	int c, present = 0;

	for (i = 0; i < n; i++) {
		if (use && !use[i])
			continue;
		order[m++] = i;
		ncls[ex[i].cls]++;
	}
	for (c = 0; c < MODEL_NCLASS; c++)
		present += ncls[c] > 0;
	for (c = 0; c < MODEL_NCLASS; c++)
		cw[c] = o->balanced && ncls[c] ? (double)m / ((double)present *
							      (double)ncls[c])
					       : 1.0;
	for (e = 0; e < o->epochs; e++) {
		for (i = m; i > 1; i--) {
			size_t j = rng_next(&rng) % i, tmp = order[i - 1];

			order[i - 1] = order[j];
			order[j] = tmp;
		}
		for (i = 0; i < m; i++) {
			const struct example *x = &ex[order[i]];
			double xv = x->n ? 1.0 / sqrt((double)x->n) : 0;
			double eta =
				o->rate / (1 + o->rate * o->l2 * (double)step);
			double z[MODEL_NCLASS], p[MODEL_NCLASS],
				g[MODEL_NCLASS];
			double shrink = 1 - eta * o->l2;

			for (c = 0; c < MODEL_NCLASS; c++)
				z[c] = 0;
			for (b = 0; b < x->n; b++) {
				const double *wb =
					W + (size_t)x->ids[b] * MODEL_NCLASS;

				for (c = 0; c < MODEL_NCLASS; c++)
					z[c] += wb[c];
			}
			for (c = 0; c < MODEL_NCLASS; c++)
				z[c] = bw[c] + s * xv * z[c];
			softmax(z, p);
			for (c = 0; c < MODEL_NCLASS; c++)
				g[c] = (p[c] - (c == x->cls)) * x->weight *
				       cw[x->cls];
			s *= shrink > 1e-3 ? shrink : 1e-3;
			for (b = 0; b < x->n; b++) {
				double *wb =
					W + (size_t)x->ids[b] * MODEL_NCLASS;

				for (c = 0; c < MODEL_NCLASS; c++)
					wb[c] -= eta * g[c] * xv / s;
			}
			for (c = 0; c < MODEL_NCLASS; c++)
				bw[c] -= eta * g[c];
			if (s < 1e-6) {
				for (b = 0; b < nb * MODEL_NCLASS; b++)
					W[b] *= s;
				s = 1;
			}
			step++;
		}
	}
	*nused = 0;
	for (b = 0; b < nb; b++) {
		const double *wb = W + b * MODEL_NCLASS;

		if (!wb[0] && !wb[1] && !wb[2])
			continue;
		(*nused)++;
		mean = (wb[0] + wb[1] + wb[2]) / MODEL_NCLASS;
		for (c = 0; c < MODEL_NCLASS; c++)
			w[b * MODEL_NCLASS + c] = (float)(s * (wb[c] - mean));
	}
	mean = (bw[0] + bw[1] + bw[2]) / MODEL_NCLASS;
	for (c = 0; c < MODEL_NCLASS; c++)
		bias[c] = (float)(bw[c] - mean);
	free(order);
	free(W);
}

static uint32_t header_crc(const struct model_header *h)
{
	struct model_header copy = *h;

	copy.header_crc = 0;
	return (uint32_t)crc32(0L, (const Bytef *)&copy, sizeof(copy));
}

static uint32_t table_crc(const unsigned char *p, uint64_t size)
{
	uLong crc = crc32(0L, Z_NULL, 0);

	while (size) {
		uInt n = size > (1u << 30) ? (1u << 30) : (uInt)size;

		crc = crc32(crc, p, n);
		p += n;
		size -= n;
	}
	return (uint32_t)crc;
}

static struct model *model_from_image(unsigned char *base, size_t size,
				      bool mapped, const char *name);
static double calibrate(const struct model_options *o, const struct example *ex,
			size_t n, const bool *use);

/* build - a model from the examples selected by use (NULL: all) */
static struct model *build(const struct model_options *o,
			   const struct example *ex, size_t n, const bool *use)
{
	size_t nb = (size_t)1 << o->table_bits, i;
	size_t table = nb * MODEL_NCLASS * sizeof(float);
	unsigned char *base = xcalloc(1, HEADER_SIZE + table);
	struct model_header *h = (struct model_header *)base;
	float *w = (float *)(base + HEADER_SIZE);

	memcpy(h->magic, MODEL_MAGIC, 8);
	h->version = MODEL_VERSION;
	h->endian = MODEL_ENDIAN;
	h->header_size = HEADER_SIZE;
	h->kind = o->kind;
	h->table_bits = o->table_bits;
	h->nclass = MODEL_NCLASS;
	h->window = o->window;
	h->flags = o->attachments ? MF_ATTACHMENTS : 0;
	h->min_examples = o->min_examples;
	h->min_tokens = o->min_tokens;
	h->text_max = MODEL_TEXT_MAX;
	h->tokens_max = MODEL_TOKENS_MAX;
	for (i = 0; i < n; i++)
		if (!use || use[i])
			h->nexamples[ex[i].cls]++;
	if (o->kind == MODEL_NB)
		train_nb(o, ex, n, use, w, h->bias, &h->nused);
	else
		train_lr(o, ex, n, use, w, h->bias, &h->nused);
	h->temperature = (float)(o->temperature *
				 (o->calibrate ? calibrate(o, ex, n, use) : 1));
	h->table_off = HEADER_SIZE;
	h->table_size = table;
	h->file_size = HEADER_SIZE + table;
	h->table_crc = table_crc((const unsigned char *)w, table);
	h->header_crc = header_crc(h);
	return model_from_image(base, HEADER_SIZE + table, false, "model");
}

/* model_train_finish - build the model and free the trainer */
struct model *model_train_finish(struct model_trainer *t)
{
	struct model *m = build(&t->o, t->ex, t->nex, NULL);

	model_train_free(t);
	return m;
}

/* ---- the model file -------------------------------------------------------- */

static struct model *refuse(unsigned char *base, size_t size, bool mapped,
			    const char *name, const char *why)
{
	error("'%s': not a usable triage model (%s)", name, why);
	if (mapped)
		img_unmap(base, size);
	else
		free(base);
	return NULL;
}

static struct model *model_from_image(unsigned char *base, size_t size,
				      bool mapped, const char *name)
{
	const struct model_header *h = (const struct model_header *)base;
	struct model *m;
	uint64_t table;
	int c;

	if (size < HEADER_SIZE)
		return refuse(base, size, mapped, name, "too short");
	if (memcmp(h->magic, MODEL_MAGIC, 8))
		return refuse(base, size, mapped, name, "bad magic");
	if (h->endian != MODEL_ENDIAN)
		return refuse(base, size, mapped, name, "other byte order");
	if (h->version != MODEL_VERSION)
		return refuse(base, size, mapped, name, "unknown version");
	if (h->header_size != HEADER_SIZE || header_crc(h) != h->header_crc)
		return refuse(base, size, mapped, name, "damaged header");
	if ((h->kind != MODEL_NB && h->kind != MODEL_LR) ||
	    h->nclass != MODEL_NCLASS || h->table_bits < MODEL_BITS_MIN ||
	    h->table_bits > MODEL_BITS_MAX || h->window < 1 ||
	    h->window > MODEL_WINDOW_MAX || h->text_max == 0 ||
	    h->text_max > MODEL_TEXT_MAX || h->tokens_max == 0 ||
	    h->tokens_max > MODEL_TOKENS_MAX)
		return refuse(base, size, mapped, name, "bad parameters");
	table = ((uint64_t)1 << h->table_bits) * MODEL_NCLASS * sizeof(float);
	if (h->table_off != HEADER_SIZE || h->table_size != table ||
	    h->file_size != size || h->table_off + h->table_size != size)
		return refuse(base, size, mapped, name, "sizes do not match");
	if (!(h->temperature > 0) || !isfinite(h->temperature))
		return refuse(base, size, mapped, name, "bad temperature");
	for (c = 0; c < MODEL_NCLASS; c++)
		if (!isfinite(h->bias[c]))
			return refuse(base, size, mapped, name, "bad bias");
	m = xcalloc(1, sizeof(*m));
	m->base = base;
	m->size = size;
	m->mapped = mapped;
	m->h = h;
	m->w = (const float *)(base + h->table_off);
	m->min_examples = h->min_examples;
	return m;
}

/* model_save - write the model file atomically (mode 0644) */
int model_save(const struct model *m, const char *path)
{
	return write_file_atomic(path, m->base, m->size, 0644);
}

/* model_open - mmap and check a model file written by model_save() */
struct model *model_open(const char *path)
{
	size_t size;
	void *p = img_map(path, "model", HEADER_SIZE,
			  (size_t)HEADER_SIZE + ((size_t)1 << MODEL_BITS_MAX) *
							MODEL_NCLASS *
							sizeof(float),
			  &size);

	return p ? model_from_image(p, size, true, path) : NULL;
}

/* model_from_buffer - a model from a copy of an image in memory */
struct model *model_from_buffer(const void *data, size_t len)
{
	unsigned char *copy = xmalloc(len ? len : 1);

	memcpy(copy, data, len);
	return model_from_image(copy, len, false, "buffer");
}

/* model_verify - check the table's CRC and that every weight is finite */
int model_verify(const struct model *m)
{
	size_t i, n = (size_t)m->h->table_size / sizeof(float);

	if (table_crc((const unsigned char *)m->w, m->h->table_size) !=
	    m->h->table_crc)
		return error("model: table checksum mismatch");
	for (i = 0; i < n; i++)
		if (!isfinite(m->w[i]))
			return error("model: non-finite weight");
	return 0;
}

/* model_free - unmap or free the model */
void model_free(struct model *m)
{
	if (!m)
		return;
	if (m->mapped)
		img_unmap(m->base, m->size);
	else
		free(m->base);
	free(m);
}

/* ---- queries ---------------------------------------------------------------- */

/* model_kind - MODEL_NB or MODEL_LR */
enum model_kind model_kind(const struct model *m)
{
	return (enum model_kind)m->h->kind;
}

/* model_examples - training examples of class cls */
unsigned model_examples(const struct model *m, int cls)
{
	if (cls < 0 || cls >= MODEL_NCLASS)
		return 0;
	return m->h->nexamples[cls];
}

/* model_window - the OSB window the model was trained with */
unsigned model_window(const struct model *m)
{
	return m->h->window;
}

/* model_table_bits - log2 of the number of buckets */
unsigned model_table_bits(const struct model *m)
{
	return m->h->table_bits;
}

/* model_ready - every class has min_examples examples */
bool model_ready(const struct model *m)
{
	int c;

	for (c = 0; c < MODEL_NCLASS; c++)
		if (m->h->nexamples[c] < m->min_examples)
			return false;
	return true;
}

/* model_set_min_examples - override the trained min_examples */
void model_set_min_examples(struct model *m, unsigned n)
{
	m->min_examples = n;
}

static void conf_from_model(struct tok_conf *c, const struct model *m)
{
	c->bits = m->h->table_bits;
	c->window = m->h->window;
	c->attachments = m->h->flags & MF_ATTACHMENTS;
	c->text_max = m->h->text_max;
	c->tokens_max = m->h->tokens_max;
}

/* posteriors - softmax of the scores; false when not finite */
static bool posteriors(const struct model *m, const double *acc, double *out)
{
	double z[MODEL_NCLASS];
	int c;

	for (c = 0; c < MODEL_NCLASS; c++) {
		z[c] = (m->h->bias[c] + acc[c]) / m->h->temperature;
		if (!isfinite(z[c])) {
			for (c = 0; c < MODEL_NCLASS; c++)
				out[c] = 1.0 / MODEL_NCLASS;
			return false;
		}
	}
	softmax(z, out);
	return true;
}

/* sum_weights - add the weights of n buckets (loads overlap) */
static void sum_weights(const struct model *m, const uint32_t *ids, size_t n,
			double *acc)
{
	double a0 = 0, a1 = 0, a2 = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		const float *w = m->w + (size_t)ids[i] * MODEL_NCLASS;

		if (i + 8 < n)
			__builtin_prefetch(m->w +
					   (size_t)ids[i + 8] * MODEL_NCLASS);
		a0 += w[0];
		a1 += w[1];
		a2 += w[2];
	}
	acc[0] = a0;
	acc[1] = a1;
	acc[2] = a2;
}

static int score_run(const struct model *m, const struct model_input *in,
		     double *out, struct top_terms *top)
{
	double acc[MODEL_NCLASS];
	struct tok_conf c;
	struct tok t;
	uint64_t *seen;
	bool ok;

	conf_from_model(&c, m);
	seen = bitmap_new(c.bits);
	tok_init(&t, &c, seen);
	t.alloc = 1024;
	t.ids = xmalloc(t.alloc * sizeof(*t.ids));
	t.w = m->w;
	t.top = top;
	t.want_text = top != NULL;
	tokenize(&t, in);
	sum_weights(m, t.ids, t.nids, acc);
	free(t.ids);
	free(seen);
	ok = posteriors(m, acc, out);
	return ok && model_ready(m) && t.nwords >= m->h->min_tokens;
}

/* model_score - per-class posteriors; 1 when the model votes */
int model_score(const struct model *m, const struct model_input *in,
		double out[MODEL_NCLASS])
{
	return score_run(m, in, out, NULL);
}

/* model_explain - the features pulling hardest towards cls */
size_t model_explain(const struct model *m, const struct model_input *in,
		     int cls, struct model_term *terms, size_t max)
{
	struct top_terms top = { cls, terms, 0, max };
	double out[MODEL_NCLASS];

	if (cls < 0 || cls >= MODEL_NCLASS || !max)
		return 0;
	score_run(m, in, out, &top);
	return top.n;
}

/* score_ids - the posteriors of pre-tokenized features */
static int score_ids(const struct model *m, const struct example *ex,
		     double *out)
{
	double acc[MODEL_NCLASS];

	sum_weights(m, ex->ids, ex->n, acc);
	return posteriors(m, acc, out) && model_ready(m) &&
	       ex->nwords >= m->h->min_tokens;
}

/* ---- evaluation ------------------------------------------------------------ */

struct group {
	const char *name;
	size_t first; /* index into the sorted order */
	size_t size;
	unsigned cls[MODEL_NCLASS];
	uint64_t tie;
};

static int cmp_by_name(const void *a, const void *b, void *names)
{
	const char *const *sort_names = names;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int r = strcmp(sort_names[x], sort_names[y]);

	return r ? r : (x > y) - (x < y);
}

static int cmp_groups(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	if (x->tie != y->tie)
		return x->tie < y->tie ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int assign_folds(const char *const *groups, const int *cls, size_t n,
			unsigned k, uint64_t seed, unsigned *fold, bool quiet);

/* model_folds - grouped, class-balanced fold assignment */
int model_folds(const char *const *groups, const int *cls, size_t n, unsigned k,
		uint64_t seed, unsigned *fold)
{
	return assign_folds(groups, cls, n, k, seed, fold, false);
}

static int assign_folds(const char *const *groups, const int *cls, size_t n,
			unsigned k, uint64_t seed, unsigned *fold, bool quiet)
{
	size_t *idx, i, j, ng = 0, best;
	const char **names;
	char **owned;
	struct group *g;
	double tot[MODEL_NCLASS] = { 0 }, (*cnt)[MODEL_NCLASS];
	size_t *fsize;
	int c;

	if (k < 2)
		return quiet ? -1 : error("model: need at least 2 folds");
	names = xcalloc(n + 1, sizeof(*names));
	owned = xcalloc(n + 1, sizeof(*owned));
	for (i = 0; i < n; i++) {
		if (groups && groups[i]) {
			names[i] = groups[i];
		} else {
			/* no group: the example is its own group */
			owned[i] = xasprintf("\x01#%zu", i);
			names[i] = owned[i];
		}
	}
	idx = xmalloc((n + 1) * sizeof(*idx));
	for (i = 0; i < n; i++)
		idx[i] = i;
	qsort_r(idx, n, sizeof(*idx), cmp_by_name, names);
	g = xcalloc(n + 1, sizeof(*g));
	for (i = 0; i < n; i = j) {
		struct group *gr = &g[ng++];

		gr->name = names[idx[i]];
		gr->first = i;
		for (j = i; j < n && !strcmp(names[idx[j]], gr->name); j++) {
			int cl = cls[idx[j]];

			if (cl >= 0 && cl < MODEL_NCLASS)
				gr->cls[cl]++;
		}
		gr->size = j - i;
		gr->tie = hash_mix64(
			hash_bytes(seed, gr->name, strlen(gr->name)));
	}
	if (ng < k) {
		for (i = 0; i < n; i++)
			free(owned[i]);
		free(owned);
		free(names);
		free(idx);
		free(g);
		if (quiet)
			return -1;
		return error("model: %zu groups cannot fill %u folds", ng, k);
	}
	/*
	 * Largest groups first, each to the fold whose class shares grow
	 * least (sum of squared shares), ties to the smaller fold: every
	 * fold gets a group while empty ones remain.  A group's members
	 * are idx[first .. first + size - 1].
	 */
	qsort(g, ng, sizeof(*g), cmp_groups);
	for (i = 0; i < n; i++)
		if (cls[i] >= 0 && cls[i] < MODEL_NCLASS)
			tot[cls[i]]++;
	cnt = xcalloc(k, sizeof(*cnt));
	fsize = xcalloc(k, sizeof(*fsize));
	for (i = 0; i < ng; i++) {
		double best_cost = 0;

		best = 0;
		for (j = 0; j < k; j++) {
			double cost = 0;

			for (c = 0; c < MODEL_NCLASS; c++) {
				double after, before;

				if (!tot[c])
					continue;
				after = (cnt[j][c] + g[i].cls[c]) / tot[c];
				before = cnt[j][c] / tot[c];
				cost += after * after - before * before;
			}
			if (j == 0 || cost < best_cost - 1e-12 ||
			    (cost < best_cost + 1e-12 &&
			     fsize[j] < fsize[best])) {
				best = j;
				best_cost = cost;
			}
		}
		for (c = 0; c < MODEL_NCLASS; c++)
			cnt[best][c] += g[i].cls[c];
		fsize[best] += g[i].size;
		for (j = 0; j < g[i].size; j++)
			fold[idx[g[i].first + j]] = (unsigned)best;
	}
	for (i = 0; i < n; i++)
		free(owned[i]);
	free(owned);
	free(names);
	free(idx);
	free(g);
	free(cnt);
	free(fsize);
	return (int)ng;
}

/* model_eval_add - count one prediction */
void model_eval_add(struct model_eval *ev, int truth, int predicted)
{
	if (truth < 0 || truth >= MODEL_NCLASS || predicted < 0 ||
	    predicted >= MODEL_NCLASS)
		return;
	ev->confusion[truth][predicted]++;
	ev->n++;
}

/* model_eval_finish - precision, recall, F1, macro-F1 and accuracy */
void model_eval_finish(struct model_eval *ev)
{
	unsigned right = 0;
	int c, d;

	ev->macro_f1 = 0;
	for (c = 0; c < MODEL_NCLASS; c++) {
		unsigned tp = ev->confusion[c][c], pp = 0, ap = 0;

		for (d = 0; d < MODEL_NCLASS; d++) {
			pp += ev->confusion[d][c];
			ap += ev->confusion[c][d];
		}
		ev->precision[c] = pp ? (double)tp / pp : 0;
		ev->recall[c] = ap ? (double)tp / ap : 0;
		ev->f1[c] = ev->precision[c] + ev->recall[c] > 0
				    ? 2 * ev->precision[c] * ev->recall[c] /
					      (ev->precision[c] + ev->recall[c])
				    : 0;
		ev->macro_f1 += ev->f1[c] / MODEL_NCLASS;
		right += tp;
	}
	ev->accuracy = ev->n ? (double)right / (double)ev->n : 0;
}

static int argmax(const double *p)
{
	int c, best = 0;

	for (c = 1; c < MODEL_NCLASS; c++)
		if (p[c] > p[best])
			best = c;
	return best;
}

/* fit_temperature - the factor f minimising the log-loss of z/f */
static double fit_temperature(double (*z)[MODEL_NCLASS], const int *cls,
			      size_t n, double *best_loss)
{
	double best = 1;
	size_t i;
	int step;

	*best_loss = INFINITY;
	for (step = -8; step <= 40; step++) {
		double f = pow(2.0, step / 4.0), loss = 0;

		for (i = 0; i < n; i++) {
			double s[MODEL_NCLASS], p[MODEL_NCLASS];
			int c;

			for (c = 0; c < MODEL_NCLASS; c++)
				s[c] = z[i][c] / f;
			softmax(s, p);
			loss -= log(p[cls[i]] > 1e-300 ? p[cls[i]] : 1e-300);
		}
		loss /= (double)(n ? n : 1);
		if (loss < *best_loss - 1e-12) {
			*best_loss = loss;
			best = f;
		}
	}
	return best;
}

#define CAL_FOLDS 5

/*
 * calibrate - the temperature factor for a model trained on the used
 * examples: fitted on out-of-fold scores of CAL_FOLDS grouped folds;
 * 1 when there are too few examples or groups
 */
static double calibrate(const struct model_options *o, const struct example *ex,
			size_t n, const bool *use)
{
	struct model_options sub = *o;
	const char **groups = xcalloc(n + 1, sizeof(*groups));
	size_t *idx = xcalloc(n + 1, sizeof(*idx)), m = 0, i;
	unsigned *fold = xcalloc(n + 1, sizeof(*fold)), f;
	bool *use2 = xcalloc(n + 1, sizeof(*use2));
	int *cls = xcalloc(n + 1, sizeof(*cls));
	double(*z)[MODEL_NCLASS] = xcalloc(n + 1, sizeof(*z));
	double factor = 1, loss;

	for (i = 0; i < n; i++) {
		if (use && !use[i])
			continue;
		groups[m] = ex[i].group;
		cls[m] = ex[i].cls;
		idx[m++] = i;
	}
	if (m < 2 * CAL_FOLDS ||
	    assign_folds(groups, cls, m, CAL_FOLDS, o->seed, fold, true) < 0)
		goto out;
	sub.calibrate = false;
	sub.temperature = 1;
	for (f = 0; f < CAL_FOLDS; f++) {
		struct model *sm;

		memset(use2, 0, n * sizeof(*use2));
		for (i = 0; i < m; i++)
			use2[idx[i]] = fold[i] != f;
		sm = build(&sub, ex, n, use2);
		for (i = 0; i < m; i++) {
			double p[MODEL_NCLASS];
			int c;

			if (fold[i] != f)
				continue;
			score_ids(sm, &ex[idx[i]], p);
			for (c = 0; c < MODEL_NCLASS; c++)
				z[i][c] = log(p[c] > 1e-300 ? p[c] : 1e-300);
		}
		model_free(sm);
	}
	factor = fit_temperature(z, cls, m, &loss);
out:
	free(groups);
	free(idx);
	free(fold);
	free(use2);
	free(cls);
	free(z);
	return factor;
}

/* model_cross_validate - grouped k-fold cross-validation */
int model_cross_validate(const struct model_example *ex, size_t n, unsigned k,
			 const struct model_options *o, struct model_eval *ev,
			 int *pred, double (*post)[MODEL_NCLASS])
{
	struct model_options def;
	struct tok_conf conf;
	struct example *fx;
	double(*z)[MODEL_NCLASS];
	const char **groups;
	unsigned *fold, f;
	uint64_t *seen;
	bool *use;
	int *cls, ret = 0;
	double loss = 0;
	size_t i;

	if (!o) {
		model_options_init(&def);
		o = &def;
	}
	if (options_check(o) < 0)
		return -1;
	memset(ev, 0, sizeof(*ev));
	ev->k = k;
	for (i = 0; i < n; i++)
		if (ex[i].cls < 0 || ex[i].cls >= MODEL_NCLASS)
			return error("model: example %zu has no class", i);
	groups = xcalloc(n + 1, sizeof(*groups));
	cls = xcalloc(n + 1, sizeof(*cls));
	fold = xcalloc(n + 1, sizeof(*fold));
	for (i = 0; i < n; i++) {
		groups[i] = ex[i].group;
		cls[i] = ex[i].cls;
	}
	if (model_folds(groups, cls, n, k, o->seed, fold) < 0) {
		ret = -1;
		goto out;
	}
	conf_from_options(&conf, o);
	seen = bitmap_new(o->table_bits);
	fx = xcalloc(n + 1, sizeof(*fx));
	for (i = 0; i < n; i++) {
		extract(&conf, seen, &ex[i].in, &fx[i]);
		fx[i].cls = ex[i].cls;
		fx[i].weight = ex[i].weight > 0 ? ex[i].weight : 1;
		fx[i].group = ex[i].group;
	}
	free(seen);
	use = xcalloc(n + 1, sizeof(*use));
	z = xcalloc(n + 1, sizeof(*z));
	for (f = 0; f < k; f++) {
		struct model *m;

		for (i = 0; i < n; i++)
			use[i] = fold[i] != f;
		m = build(o, fx, n, use);
		for (i = 0; i < n; i++) {
			double p[MODEL_NCLASS];
			int c;

			if (fold[i] != f)
				continue;
			if (!score_ids(m, &fx[i], p))
				ev->abstained++;
			for (c = 0; c < MODEL_NCLASS; c++)
				z[i][c] = log(p[c] > 1e-300 ? p[c] : 1e-300);
			c = argmax(p);
			model_eval_add(ev, ex[i].cls, c);
			loss -= log(p[ex[i].cls] > 1e-300 ? p[ex[i].cls]
							  : 1e-300);
			if (pred)
				pred[i] = c;
			if (post)
				memcpy(post[i], p, sizeof(p));
		}
		model_free(m);
	}
	ev->log_loss = n ? loss / (double)n : 0;
	ev->temperature_factor =
		fit_temperature(z, cls, n, &ev->log_loss_fitted);
	model_eval_finish(ev);
	free(z);
	for (i = 0; i < n; i++)
		free(fx[i].ids);
	free(fx);
	free(use);
out:
	free(groups);
	free(cls);
	free(fold);
	return ret;
}

/* model_eval_print - the figures as "# " lines */
void model_eval_print(FILE *fp, const char *label, const struct model_eval *ev)
{
	int c, d;

	fprintf(fp, "# %s: macro-F1 %.2f", label, ev->macro_f1);
	for (c = 0; c < MODEL_NCLASS; c++)
		fprintf(fp, "; %s P/R %.2f/%.2f", class_names[c],
			ev->precision[c], ev->recall[c]);
	fprintf(fp,
		"\n# %s: accuracy %.2f, n=%zu, abstained %zu, log-loss %.3f "
		"(%.3f with temperatures x %.3g)\n",
		label, ev->accuracy, ev->n, ev->abstained, ev->log_loss,
		ev->log_loss_fitted, ev->temperature_factor);
	fprintf(fp, "# %s: confusion, rows true class, columns predicted\n",
		label);
	fprintf(fp, "#%9s", "");
	for (c = 0; c < MODEL_NCLASS; c++)
		fprintf(fp, " %6s", class_names[c]);
	fprintf(fp, "\n");
	for (c = 0; c < MODEL_NCLASS; c++) {
		fprintf(fp, "#   %-6s", class_names[c]);
		for (d = 0; d < MODEL_NCLASS; d++)
			fprintf(fp, " %6u", ev->confusion[c][d]);
		fprintf(fp, "\n");
	}
}
