// SPDX-License-Identifier: GPL-2.0-only
/*
 * rules_prefilter - the literal prefilter of the rules engine
 * (see rules_int.h, classifiers/README "Speed")
 *
 * Two halves: the literals one of which every match of a regex must
 * contain, read from its source (a "reqset"), and the index that finds
 * all the ruleset's literals in one pass over a text (the "litindex").
 * The index is not lib's litset, which finds crash headers in a line:
 * a litset answers which needles occur, one case mode per set, where
 * the rules need every occurrence's offset (pcre2 starts near them,
 * windowed_match() in rules_eval.c) and mix caseless and exact
 * literals in one scan.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "rules_int.h"
#include "util.h"

/* ---- the literal prefilter --------------------------------------------- */

/*
 * A required-literal set: every match of the pattern contains at least
 * one of its literals, so when none occurs in the subject pcre2 need not
 * run.  It is read from the pattern source: literal runs of a sequence,
 * and groups that must match (an alternation gives the union of its
 * branches' sets).  Whatever the scanner does not understand yields no
 * set, which is always safe.
 */
struct reqset {
	int n;
	size_t score; /* reqset_score(), SCORE_UNKNOWN until computed */
	struct lit alt[PF_MAX_ALTS];
};

#define SCORE_UNKNOWN SIZE_MAX

/* only the count: the literals are a large array, filled as needed */
static void reqset_init(struct reqset *s)
{
	s->n = 0;
	s->score = SCORE_UNKNOWN;
}

static void reqset_free(struct reqset *s)
{
	int i;

	for (i = 0; i < s->n; i++)
		free(s->alt[i].s);
	reqset_init(s);
}

/*
 * Words so common in bug reports that a set holding one of them lets
 * pcre2 run on nearly every report: a set with such a literal is worth
 * less (the choice is a heuristic; any set found is correct).
 */
static const char *const common_words[] = {
	"the",	 "this",   "that",    "with",	"while",  "when",    "from",
	"have",	 "has",	   "was",     "for",	"and",	  "not",     "are",
	"test",	 "found",  "linux",   "kernel", "first",  "last",    "work",
	"works", "worked", "working", "fails",	"broken", "boot",    "error",
	"file",	 "code",   "driver",  "device", "issue",  "bug",     "report",
	"info",	 "during", "static",  "review", "system", "version", "of",
	"to",	 "in",	   "on",      "is",	"it",	  "as",	     "at",
	"be",	 "by",	   "or",      "if",	"an",	  "we",
};

static bool common_word(const struct lit *l)
{
	const char *a = l->s, *b = l->s + l->len;
	size_t i;

	while (a < b && !isalnum((unsigned char)*a))
		a++;
	while (b > a && !isalnum((unsigned char)b[-1]))
		b--;
	if (b - a > 7)
		return false; /* longer than any of them */
	for (i = 0; i < ARRAY_SIZE(common_words); i++)
		if (strnlen(common_words[i], 8) == (size_t)(b - a) &&
		    has_prefix_ci(a, b, common_words[i]))
			return true;
	return false;
}

/* reqset_score - how much a set is worth scanning for; 0 = useless */
static size_t reqset_score(struct reqset *s)
{
	size_t min = SIZE_MAX, score;
	bool common = false;
	int i;

	if (s->score != SCORE_UNKNOWN)
		return s->score;
	s->score = 0;
	if (!s->n)
		return 0;
	for (i = 0; i < s->n; i++) {
		if (s->alt[i].len < min)
			min = s->alt[i].len;
		common |= common_word(&s->alt[i]);
	}
	if (min < RULES_PREFILTER_MIN)
		return 0;
	if (min > 16)
		min = 16;
	score = min * min * 64 / (size_t)(s->n + 3);
	s->score = common ? (score + 7) / 8 : score;
	return s->score;
}

/* reqset_keep_better - keep the better of *best and *cand; empties cand */
static void reqset_keep_better(struct reqset *best, struct reqset *cand)
{
	if (reqset_score(cand) > reqset_score(best)) {
		reqset_free(best);
		best->n = cand->n;
		best->score = cand->score;
		memcpy(best->alt, cand->alt,
		       (size_t)cand->n * sizeof(*cand->alt));
		cand->n = 0;
	} else {
		reqset_free(cand);
	}
	reqset_init(cand);
}

static size_t wadd(size_t a, size_t b)
{
	if (a == WIDTH_INF || b == WIDTH_INF || a + b > (1u << 30))
		return WIDTH_INF;
	return a + b;
}

static size_t wmul(size_t a, size_t m)
{
	if (!a || !m)
		return 0;
	if (a == WIDTH_INF || m == WIDTH_INF || a > (1u << 30) / m)
		return WIDTH_INF;
	return a * m;
}

/*
 * quant_len - length of a quantifier at p (*, +, ?, {n}, {n,}, {n,m}),
 * 0 when there is none; *min and *max get its bounds
 */
static size_t quant_len(const char *p, const char *end, size_t *min,
			size_t *max)
{
	const char *q = p;
	size_t lo = 0, hi = 0;

	*min = *max = 1;
	if (q >= end)
		return 0;
	if (*q == '*' || *q == '?' || *q == '+') {
		lo = *q == '+';
		hi = *q == '?' ? 1 : WIDTH_INF;
		q++;
	} else if (*q == '{') {
		q++;
		if (q >= end || !isdigit((unsigned char)*q))
			return 0;
		while (q < end && isdigit((unsigned char)*q) && lo < 100000)
			lo = lo * 10 + (size_t)(*q++ - '0');
		hi = lo;
		if (q < end && *q == ',') {
			q++;
			hi = q < end && isdigit((unsigned char)*q) ? 0
								   : WIDTH_INF;
			while (q < end && isdigit((unsigned char)*q) &&
			       hi < 100000)
				hi = hi * 10 + (size_t)(*q++ - '0');
		}
		if (q >= end || *q != '}')
			return 0;
		q++;
	} else {
		return 0;
	}
	if (q < end && (*q == '?' || *q == '+'))
		q++;
	*min = lo;
	*max = hi;
	return (size_t)(q - p);
}

/* skip_class - p at '['; returns the position after the closing ']' */
static const char *skip_class(const char *p, const char *end)
{
	p++;
	if (p < end && *p == '^')
		p++;
	if (p < end && *p == ']')
		p++;
	while (p < end && *p != ']') {
		if (*p == '\\') {
			p += 2;
		} else if (*p == '[' && p + 1 < end && p[1] == ':') {
			const char *c =
				memmem(p + 2, (size_t)(end - p - 2), ":]", 2);

			p = c ? c + 2 : p + 1;
		} else {
			p++;
		}
	}
	return p < end ? p + 1 : NULL;
}

/* skip_group - p at '('; returns the position after the matching ')' */
static const char *skip_group(const char *p, const char *end)
{
	int depth = 0;

	while (p < end) {
		if (*p == '\\') {
			p += 2;
			continue;
		}
		if (*p == '[') {
			p = skip_class(p, end);
			if (!p)
				return NULL;
			continue;
		}
		if (*p == '(')
			depth++;
		else if (*p == ')' && --depth == 0)
			return p + 1;
		p++;
	}
	return NULL;
}

/*
 * group_inner - the part of group [p, after) a match must contain:
 * 1 with [*ib, *ie), 0 for lookarounds (which consume nothing), -1 for
 * groups the scanner does not know
 */
static int group_inner(const char *p, const char *after, const char **ib,
		       const char **ie)
{
	const char *b = p + 1, *e = after - 1, *q;

	*ie = e;
	if (b >= e || *b != '?') {
		*ib = b;
		return 1;
	}
	if (b + 2 > e)
		return -1;
	switch (b[1]) {
	case ':':
	case '>':
		*ib = b + 2;
		return 1;
	case '=':
	case '!':
		return 0;
	case '<':
		if (b + 2 < e && (b[2] == '=' || b[2] == '!'))
			return 0;
		q = memchr(b + 2, '>', (size_t)(e - b - 2));
		break;
	case 'P':
		q = b + 2 < e && b[2] == '<'
			    ? memchr(b + 3, '>', (size_t)(e - b - 3))
			    : NULL;
		break;
	case '\'':
		q = memchr(b + 2, '\'', (size_t)(e - b - 2));
		break;
	default:
		return -1;
	}
	if (!q)
		return -1;
	*ib = q + 1;
	return 1;
}

/* escape kinds: literal punctuation, \xHH, zero width, one character */
static const char zero_width_escapes[] = "bBAzZGK";
static const char class_escapes[] = "dDsSwWhHvVntrfae";

static size_t alt_width(const char *p, const char *end, int depth);

/* seq_width - the most bytes one branch [p, end) can match */
static size_t seq_width(const char *p, const char *end, int depth)
{
	size_t w = 0, min, max, q, one;

	while (p < end && w != WIDTH_INF) {
		char c = *p;

		one = 1;
		if (c == '\\') {
			char n = p + 1 < end ? p[1] : '\0';

			if (n == 'x' && p + 3 < end) {
				p += 4;
			} else {
				if (n && strchr(zero_width_escapes, n))
					one = 0;
				else if (n == 'R')
					one = 2;
				else if (!n || (!ispunct((unsigned char)n) &&
						!strchr(class_escapes, n)))
					return WIDTH_INF;
				p += 2;
			}
		} else if (c == '[') {
			p = skip_class(p, end);
			if (!p)
				return WIDTH_INF;
		} else if (c == '(') {
			const char *after = skip_group(p, end), *ib, *ie;
			int k;

			if (!after || depth > 16)
				return WIDTH_INF;
			k = group_inner(p, after, &ib, &ie);
			if (k < 0)
				return WIDTH_INF;
			one = k ? alt_width(ib, ie, depth + 1) : 0;
			p = after;
		} else if (c == '^' || c == '$') {
			one = 0;
			p++;
		} else {
			p++;
		}
		q = quant_len(p, end, &min, &max);
		p += q;
		w = wadd(w, wmul(one, max));
	}
	return w;
}

/* alt_width - the most bytes the alternation [p, end) can match */
static size_t alt_width(const char *p, const char *end, int depth)
{
	const char *alt = p;
	size_t w = 0, b;
	int d = 0;

	for (;; p++) {
		if (p < end && *p == '\\') {
			if (p + 1 < end)
				p++;
			continue;
		}
		if (p < end && *p == '[') {
			p = skip_class(p, end);
			if (!p)
				return WIDTH_INF;
			p--;
			continue;
		}
		if (p < end && *p == '(')
			d++;
		else if (p < end && *p == ')')
			d--;
		if (p < end && !(*p == '|' && d == 0))
			continue;
		b = seq_width(alt, p, depth);
		if (b > w)
			w = b;
		if (p >= end || w == WIDTH_INF)
			break;
		alt = p + 1;
	}
	return w;
}

struct run {
	char buf[256];
	size_t len;
	size_t pre;
};

static void run_add(struct run *r, char c, size_t pre)
{
	if (!r->len)
		r->pre = pre;
	if (r->len < sizeof(r->buf))
		r->buf[r->len++] = c;
}

static void run_flush(struct run *r, struct reqset *best)
{
	struct reqset cand;

	if (!r->len)
		return;
	reqset_init(&cand);
	cand.n = 1;
	cand.alt[0].s = xmemdup0(r->buf, r->len);
	cand.alt[0].len = r->len;
	cand.alt[0].maxpre = r->pre;
	reqset_keep_better(best, &cand);
	r->len = 0;
}

static bool req_alt(const char *p, const char *end, int depth,
		    struct reqset *out);

/*
 * req_seq - the best literal set of one branch [p, end), each literal
 * with the most bytes a match can span before it; false when the branch
 * uses something this scanner does not understand
 */
static bool req_seq(const char *p, const char *end, int depth,
		    struct reqset *best)
{
	size_t pre = 0, min, max, q, one;
	struct run r;

	r.len = r.pre = 0;

	while (p < end) {
		char c = *p;

		if (c == '\\') {
			char n = p + 1 < end ? p[1] : '\0';

			if (n && ispunct((unsigned char)n)) {
				c = n;
				p += 2;
				goto literal;
			}
			if (n == 'x' && p + 3 < end &&
			    isxdigit((unsigned char)p[2]) &&
			    isxdigit((unsigned char)p[3])) {
				char h[3] = { p[2], p[3], '\0' };

				c = (char)strtol(h, NULL, 16);
				p += 4;
				goto literal;
			}
			if (!n || (!strchr(zero_width_escapes, n) &&
				   !strchr(class_escapes, n) && n != 'R'))
				return false;
			run_flush(&r, best);
			one = strchr(zero_width_escapes, n) ? 0
			      : n == 'R'		    ? 2
							    : 1;
			p += 2;
			q = quant_len(p, end, &min, &max);
			pre = wadd(pre, wmul(one, max));
			p += q;
			continue;
		}
		if (c == '[') {
			run_flush(&r, best);
			p = skip_class(p, end);
			if (!p)
				return false;
			q = quant_len(p, end, &min, &max);
			if (!q && p < end && *p == '{')
				return false;
			pre = wadd(pre, max);
			p += q;
			continue;
		}
		if (c == '(') {
			const char *after = skip_group(p, end), *ib, *ie;
			int k, i;

			run_flush(&r, best);
			if (!after)
				return false;
			q = quant_len(after, end, &min, &max);
			if (!q && after < end && *after == '{')
				return false;
			k = group_inner(p, after, &ib, &ie);
			if (k < 0)
				return false;
			if (k > 0 && min > 0 && depth < 16) {
				struct reqset cand;

				if (req_alt(ib, ie, depth + 1, &cand)) {
					for (i = 0; i < cand.n; i++)
						cand.alt[i].maxpre = wadd(
							pre,
							cand.alt[i].maxpre);
					reqset_keep_better(best, &cand);
				}
			}
			one = k ? alt_width(ib, ie, depth + 1) : 0;
			pre = wadd(pre, wmul(one, max));
			p = after + q;
			continue;
		}
		if (c == '.' || c == '^' || c == '$') {
			run_flush(&r, best);
			p++;
			q = quant_len(p, end, &min, &max);
			pre = wadd(pre, c == '.' ? max : 0);
			p += q;
			continue;
		}
		if (c == '*' || c == '+' || c == '?' || c == '{' || c == ')' ||
		    c == '|')
			return false;
		p++;
literal:
		q = quant_len(p, end, &min, &max);
		if (!q && p < end && *p == '{')
			return false;
		if (q) {
			if (min > 0)
				run_add(&r, c, pre);
			run_flush(&r, best);
			pre = wadd(pre, max);
			p += q;
			continue;
		}
		run_add(&r, c, pre);
		pre = wadd(pre, 1);
	}
	run_flush(&r, best);
	return true;
}

/* req_alt - the union of the branches' sets of the alternation [p, end) */
static bool req_alt(const char *p, const char *end, int depth,
		    struct reqset *out)
{
	const char *alt = p;
	int d = 0;

	reqset_init(out);
	for (;; p++) {
		struct reqset s;

		if (p < end && *p == '\\') {
			if (p + 1 < end)
				p++;
			continue;
		}
		if (p < end && *p == '[') {
			p = skip_class(p, end);
			if (!p)
				goto fail;
			p--;
			continue;
		}
		if (p < end && *p == '(')
			d++;
		else if (p < end && *p == ')')
			d--;
		if (p < end && !(*p == '|' && d == 0))
			continue;
		reqset_init(&s);
		if (!req_seq(alt, p, depth, &s) || !reqset_score(&s) ||
		    out->n + s.n > PF_MAX_ALTS) {
			reqset_free(&s);
			goto fail;
		}
		memcpy(out->alt + out->n, s.alt, (size_t)s.n * sizeof(*s.alt));
		out->n += s.n;
		out->score = SCORE_UNKNOWN;
		if (p >= end)
			break;
		alt = p + 1;
	}
	return true;
fail:
	reqset_free(out);
	return false;
}

/* rl_prefilter_build - the literals one of which every match must contain */
void rl_prefilter_build(struct rule *rule)
{
	const char *pat = rule->pattern, *p, *end = pat + strlen(pat);
	struct reqset s;
	int i;
	size_t k;

	if (rule->options & (PCRE2_EXTENDED | PCRE2_UTF))
		return;
	for (p = pat; (p = strchr(p, '(')) != NULL; p++)
		if (p[1] == '*' ||
		    (p[1] == '?' && !strchr(":=!><|P'", p[2] ? p[2] : 'x')))
			return; /* verbs, inline options, comments */
	if (strstr(pat, "\\Q") || !req_alt(pat, end, 0, &s))
		return;
	if (!reqset_score(&s)) {
		reqset_free(&s);
		return;
	}
	rule->pf.ci = rule->options & PCRE2_CASELESS;
	rule->pf.alt = xcalloc((size_t)s.n, sizeof(*rule->pf.alt));
	for (i = 0; i < s.n; i++) {
		rule->pf.alt[i] = s.alt[i];
		if (rule->pf.ci)
			for (k = 0; k < s.alt[i].len; k++)
				rule->pf.alt[i].s[k] = (char)tolower(
					(unsigned char)s.alt[i].s[k]);
	}
	rule->pf.n = s.n;
}

void rl_litindex_reset(struct litindex *ix)
{
	if (!ix->lits && !ix->keys)
		return; /* never filled: all zero */
	free(ix->lits);
	free(ix->ci);
	free(ix->keys);
	free(ix->bucket);
	memset(ix, 0, sizeof(*ix));
}

uint32_t rl_litindex_add(struct litindex *ix, const struct lit *l, bool ci)
{
	ALLOC_GROW(ix->lits, ix->n, ix->alloc);
	ALLOC_GROW(ix->ci, ix->n, ix->ci_alloc);
	ix->lits[ix->n] = l;
	ix->ci[ix->n] = ci;
	return (uint32_t)ix->n++;
}

/* ascii_lower - ASCII lower case only, as lower_copy() */
static inline unsigned char ascii_lower(char c)
{
	unsigned char ch = (unsigned char)c;

	return (unsigned char)(ch + ((unsigned char)(ch - 'A') < 26u) * 32);
}

/* lit_key - the first two bytes; s is lower case (the scanned text) */
static uint16_t lit_key(const char *s)
{
	return (uint16_t)((unsigned char)s[0] << 8 | (unsigned char)s[1]);
}

static uint16_t lit_hash3(const char *s)
{
	uint32_t k = (uint32_t)(unsigned char)s[0] << 16 |
		     (uint32_t)(unsigned char)s[1] << 8 | (unsigned char)s[2];

	return (uint16_t)((k * 2654435761u) >> 16);
}

void rl_litindex_finish(struct litindex *ix)
{
	size_t i;

	ix->keys = xcalloc(ix->n + 1, sizeof(*ix->keys));
	ix->bucket = xcalloc(LIT_BUCKETS + 1, sizeof(*ix->bucket));
	for (i = 0; i < ix->n; i++) {
		const char *ls = ix->lits[i]->s; /* literals have 3+ bytes */
		char low[3] = { (char)ascii_lower(ls[0]),
				(char)ascii_lower(ls[1]),
				(char)ascii_lower(ls[2]) };
		uint16_t pair;
		uint16_t h = lit_hash3(low);

		ix->bucket[LIT_BUCKET(h) + 1]++;
		memcpy(&pair, low, 2); /* as rl_litindex_scan() reads it */
		ix->pair[pair >> 6] |= (uint64_t)1 << (pair & 63);
		ix->bits3[h >> 3] |= (uint8_t)(1u << (h & 7));
	}
	for (i = 0; i < LIT_BUCKETS; i++)
		ix->bucket[i + 1] += ix->bucket[i];
	/* a counting sort by bucket, ids in order within one */
	for (i = 0; i < ix->n; i++) {
		const char *ls = ix->lits[i]->s;
		char low[3] = { (char)ascii_lower(ls[0]),
				(char)ascii_lower(ls[1]),
				(char)ascii_lower(ls[2]) };
		uint16_t h = lit_hash3(low);
		struct litkey *k = &ix->keys[ix->bucket[LIT_BUCKET(h)]++];

		k->key = lit_key(low);
		k->h = h;
		k->ci = ix->ci[i];
		k->id = (uint32_t)i;
	}
	/* each bucket[b] is now where b + 1 starts: shift them back */
	memmove(ix->bucket + 1, ix->bucket, LIT_BUCKETS * sizeof(*ix->bucket));
	ix->bucket[0] = 0;
}

/*
 * rl_litindex_scan - ls->first[id] = 1 + the offset of the first occurrence
 * of every literal in the text (lower: the same, lower-cased), 0 for
 * those that do not occur; every occurrence in ls->occ[], chained from
 * ls->head[id] (up to OCC_MAX of each kind, caseless or not, else
 * ls->full[kind])
 */
void rl_litindex_scan(const struct litindex *ix, const char *text,
		      const char *lower, size_t len, struct litscan *ls)
{
	const char *s = lower;
	uint16_t key;
	size_t i;

	if (ls->alloc < ix->n + 1) {
		free(ls->first);
		ls->alloc = ix->n + 1;
		ls->first = xcalloc(3 * ls->alloc, sizeof(*ls->first));
		ls->head = ls->first + ls->alloc;
		ls->tail = ls->head + ls->alloc;
	}
	memset(ls->first, 0, 3 * ls->alloc * sizeof(*ls->first));
	ls->nocc = 0;
	ls->full[0] = ls->full[1] = false;
	ls->nkind[0] = ls->nkind[1] = 0;
	ls->done = true;
	if (len < 3)
		return;
	for (i = 0; i + 2 < len; i++) {
		uint32_t lo, hi;
		uint16_t h, le;

		memcpy(&le, s + i, 2); /* as rl_litindex_finish() */
		if (!(ix->pair[le >> 6] >> (le & 63) & 1))
			continue;
		key = lit_key(s + i);
		h = lit_hash3(s + i);
		if (!(ix->bits3[h >> 3] & (1u << (h & 7))))
			continue;
		lo = ix->bucket[LIT_BUCKET(h)];
		hi = ix->bucket[LIT_BUCKET(h) + 1];
		for (; lo < hi; lo++) {
			uint32_t id = ix->keys[lo].id, k;
			const struct lit *l = ix->lits[id];
			bool ci = ix->keys[lo].ci;
			const char *base = ci ? s : text, *at = base + i;

			if (ix->keys[lo].h != h || ix->keys[lo].key != key ||
			    at[0] != l->s[0] ||
			    !mem_has_prefix(at, base + len, l->s, l->len,
					    false))
				continue;
			if (!ls->first[id])
				ls->first[id] = (uint32_t)i + 1;
			if (ls->nkind[ci] == OCC_MAX) {
				ls->full[ci] = true;
				continue;
			}
			ls->nkind[ci]++;
			ALLOC_GROW(ls->occ, ls->nocc, ls->occ_alloc);
			k = (uint32_t)ls->nocc++;
			ls->occ[k].pos = (uint32_t)i;
			ls->occ[k].next = 0;
			if (ls->tail[id])
				ls->occ[ls->tail[id] - 1].next = k + 1;
			else
				ls->head[id] = k + 1;
			ls->tail[id] = k + 1;
		}
	}
}
