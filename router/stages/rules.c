// SPDX-License-Identifier: GPL-2.0-only
/*
 * rules - SpamAssassin-style classification rules, kept as data
 * (see rules.h; the syntax reference is classifiers/README)
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <pcre2.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "hash.h"
#include "hashmap.h"
#include "report.h"
#include "rules.h"
#include "strbuf.h"
#include "util.h"

#define PF_MAX_ALTS   64
#define META_MAX_OPS  512
#define PATTERN_MAX   4096
#define DESCRIBE_MAX  200
#define TEST_TEXT_MAX (16u << 10)
#define OWN_INPUT_MAX (1u << 20)

/* ---- data ------------------------------------------------------------ */

struct problem {
	int file; /* index in rs->files, -1 for none */
	unsigned line;
	bool warning;
	bool compile_stage; /* recomputed by every rules_compile() */
	char *msg;
};

struct lit {
	char *s;
	size_t len;
	size_t maxpre; /* most bytes a match spans before it, or WIDTH_INF */
};

#define WIDTH_INF SIZE_MAX

/* Any one of alt[] must occur in the subject for the regex to match. */
struct prefilter {
	int n; /* 0: no prefilter */
	bool ci;
	struct lit *alt;
	uint32_t *ids; /* the literals' ids in the ruleset's litindex */
};

/*
 * All prefilter literals of a ruleset, case-sensitive and caseless ones
 * (whose literals are lower case), found in one pass over the lower-cased
 * text: a table of their first two bytes and a bitmap of a hash of their
 * first three (both lower-cased), then the literals in that hash's
 * bucket, compared with the lower-cased text when caseless and with the
 * text itself when not.
 */
struct litkey {
	uint16_t key; /* the first two bytes, lower-cased */
	uint16_t h;   /* lit_hash3() of the first three, lower-cased */
	bool ci;
	uint32_t id;
};

#define LIT_BUCKETS   (1u << 10) /* by the top bits of lit_hash3() */
#define LIT_BUCKET(h) ((h) >> 6)

/* Where a litindex's literals occur in one text. */
struct occ {
	uint32_t pos;
	uint32_t next; /* the literal's next occurrence + 1, 0 = none */
};

#define OCC_MAX (1u << 16)

struct litscan {
	bool done;
	bool full[2];	       /* [ci] more than OCC_MAX occurrences of that
				kind of literal: occ[] partial */
	size_t nkind[2];       /* [ci] occurrences in occ[] */
	uint32_t *first;       /* [id] 1 + offset of the first occurrence */
	uint32_t *head, *tail; /* [id] its occurrences in occ[], + 1 */
	size_t alloc;
	struct occ *occ; /* in order of offset */
	size_t nocc, occ_alloc;
};

struct litindex {
	const struct lit **lits;
	bool *ci; /* [id] the literal is caseless */
	size_t n, alloc, ci_alloc;
	/* bit [first two bytes, host order]: a literal starts so (8 KB: a
	 * byte per pair made 64 KB to clear and 16 more pages per process) */
	uint64_t pair[65536 / 64];
	uint8_t bits3[8192]; /* a hash of the first three bytes */
	struct litkey *keys; /* sorted by bucket, then id */
	uint32_t *bucket;    /* [LIT_BUCKETS + 1] where each starts in keys */
};

enum meta_opcode {
	OP_NUM,
	OP_RULE,
	OP_NOT,
	OP_NEG,
	OP_ADD,
	OP_SUB,
	OP_MUL,
	OP_LT,
	OP_LE,
	OP_GT,
	OP_GE,
	OP_EQ,
	OP_NE,
	OP_AND,
	OP_OR,
};

struct meta_op {
	enum meta_opcode op;
	size_t idx;
	double num;
};

enum hdr_mode {
	HDR_VALUE,
	HDR_ADDR,
	HDR_ALL,
	HDR_EXISTS,
};

struct test {
	size_t rule;
	bool ok;
	char *text;
	size_t len;
	int file;
	unsigned line;
};

struct rule {
	char *name;
	enum rule_type type;
	int def_file; /* -1 until defined */
	unsigned def_line;

	/* header rules */
	char *field;
	enum hdr_mode hmode;
	bool negate;

	/* regex rules */
	char *pattern;
	uint32_t options;
	bool utf;
	pcre2_code *code;
	struct prefilter pf;

	/* eval rules */
	const struct rules_hook *hook;
	struct rules_args args;
	char *argbuf;

	/* meta rules */
	struct meta_op *ops;
	size_t nops;

	/* attributes, each with the file that set it last */
	double score[CLASS_N];
	bool scored;
	int score_file;
	unsigned score_line;
	char *describe;
	int describe_file;
	unsigned describe_line;
	bool certain;
	int tflags_file;
	unsigned tflags_line;

	/* first mention, for "unknown rule" */
	int ref_file;
	unsigned ref_line;
	const char *ref_what;

	bool used; /* named by a meta */
	int certain_class;
	struct rule_info info;
};

enum param_slot {
	PARAM_THRESHOLD, /* + class */
	PARAM_BAND = CLASS_N,
	PARAM_BIAS,
	PARAM_N,
};

struct ruleset {
	const struct rules_hook *hooks;
	size_t nhooks;

	char **files;
	size_t nfiles, files_alloc;

	struct rule *rules;
	size_t nrules, rules_alloc;
	struct hashmap names; /* rule name to index */

	struct test *tests;
	size_t ntests, tests_alloc;

	struct problem *problems;
	size_t nproblems, problems_alloc;

	struct rules_params params;
	int param_file[PARAM_N];
	unsigned param_line[PARAM_N];

	pcre2_match_context *mctx;
	struct litindex lix;
	const struct symbols *symbols;
	struct evidence *(*extract)(const struct report *r);
	void (*release)(struct evidence *ev);
	bool compiled;
	int errors;

	/*
	 * A ruleset rules_open() read: names, strings and literals point
	 * into snap, meta ops and literal arrays into arena chunks;
	 * prefilter ids of every ruleset are in one block, ids.
	 */
	char *snap;
	struct arena *arena;
	uint32_t *ids;
};

struct arena {
	struct arena *next;
	size_t used, size;
	max_align_t data[];
};

struct rules_scratch {
	pcre2_match_data *md;
	pcre2_match_context *wctx; /* the ruleset's limits + an offset limit */
	struct litscan scan[2];	   /* [raw] */
	struct strbuf body, raw, all, hdr;
	bool have_body, have_raw, have_all;
	char *body_lower, *raw_lower;
	size_t body_lower_alloc, raw_lower_alloc;
	bool have_body_lower, have_raw_lower;
	int body_utf, raw_utf; /* -1 unknown */
};

struct eval_ctx {
	const struct ruleset *rs;
	const struct rules_input *in;
	struct rules_result *res;
	struct rules_scratch *s;
	unsigned flags;
};

static const char *const class_names[CLASS_N + 1] = {
	[CLASS_USER] = "user",
	[CLASS_FUZZER] = "fuzzer",
	[CLASS_AI] = "ai",
	[CLASS_UNCERTAIN] = "uncertain",
};

static const char *const type_names[] = {
	[RULE_NONE] = "(undefined)", [RULE_HEADER] = "header",
	[RULE_BODY] = "body",	     [RULE_RAWBODY] = "rawbody",
	[RULE_META] = "meta",
};

/* rules_class_name - "user", "fuzzer", "ai", "uncertain" */
const char *rules_class_name(int cls)
{
	if (cls < 0 || cls > CLASS_UNCERTAIN)
		return "?";
	return class_names[cls];
}

/* rules_class_parse - a scored class by name, or -1 */
int rules_class_parse(const char *s)
{
	int c;

	for (c = 0; c < CLASS_N; c++)
		if (strcmp(s, class_names[c]) == 0)
			return c;
	return -1;
}

/* ---- problems ---------------------------------------------------------- */

static void PRINTF_LIKE(5, 6)
	problem(struct ruleset *rs, int file, unsigned line, bool warning,
		const char *fmt, ...)
{
	struct problem *p;
	va_list ap;
	char buf[512];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	ALLOC_GROW(rs->problems, rs->nproblems, rs->problems_alloc);
	p = &rs->problems[rs->nproblems++];
	p->file = file;
	p->line = line;
	p->warning = warning;
	p->compile_stage = rs->compiled;
	p->msg = xstrdup(buf);
}

/* ---- names ------------------------------------------------------------- */

static bool name_equal(const void *rs, uint32_t id, const void *name)
{
	return !strcmp(((const struct ruleset *)rs)->rules[id].name, name);
}

/* rules_find - index of a rule by name, or -1 */
int rules_find(const struct ruleset *rs, const char *name)
{
	uint32_t id = hashmap_get(&rs->names, hash_str(name), name);

	return id == HASHMAP_NONE ? -1 : (int)id;
}

static bool valid_name(const char *s)
{
	size_t n = 0;

	if (!isalpha((unsigned char)*s) && *s != '_')
		return false;
	for (; *s; s++, n++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return n <= RULES_NAME_MAX;
}

/* rule_get - the rule of that name, created undefined on first mention */
static size_t rule_get(struct ruleset *rs, const char *name, int file,
		       unsigned line, const char *what)
{
	int found = rules_find(rs, name);
	struct rule *r;

	if (found >= 0)
		return (size_t)found;
	ALLOC_GROW(rs->rules, rs->nrules, rs->rules_alloc);
	r = &rs->rules[rs->nrules];
	memset(r, 0, sizeof(*r));
	r->name = xstrdup(name);
	r->def_file = r->score_file = r->describe_file = r->tflags_file = -1;
	r->ref_file = file;
	r->ref_line = line;
	r->ref_what = what;
	r->certain_class = -1;
	hashmap_add(&rs->names, hash_str(name), (uint32_t)rs->nrules);
	return rs->nrules++;
}

/* ---- lifecycle --------------------------------------------------------- */

/* rules_new - an empty ruleset that knows these eval: hooks */
struct ruleset *rules_new(const struct rules_hook *hooks, size_t nhooks)
{
	struct ruleset *rs = xcalloc(1, sizeof(*rs));
	int i;

	rs->hooks = hooks;
	rs->nhooks = nhooks;
	hashmap_init(&rs->names, name_equal, rs, 0);
	rs->mctx = pcre2_match_context_create(NULL);
	if (!rs->mctx)
		die("out of memory");
	pcre2_set_match_limit(rs->mctx, RULES_MATCH_LIMIT);
	pcre2_set_depth_limit(rs->mctx, RULES_DEPTH_LIMIT);
	pcre2_set_heap_limit(rs->mctx, RULES_HEAP_LIMIT_KIB);
	rs->params.threshold[CLASS_USER] = 1.0;
	rs->params.threshold[CLASS_FUZZER] = 5.0;
	rs->params.threshold[CLASS_AI] = 5.0;
	rs->params.band = 1.0;
	rs->params.user_bias = 1.0;
	for (i = 0; i < PARAM_N; i++)
		rs->param_file[i] = -1;
	return rs;
}

/* arena_alloc - zeroed memory that lives as long as the ruleset */
static void *arena_alloc(struct ruleset *rs, size_t n)
{
	struct arena *a = rs->arena;
	void *p;

	n = (n + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
	if (!a || a->size - a->used < n) {
		size_t size = n > (16u << 10) ? n : 16u << 10;

		a = xmalloc(sizeof(*a) + size);
		a->size = size;
		a->used = 0;
		a->next = rs->arena;
		rs->arena = a;
	}
	p = (char *)a->data + a->used;
	a->used += n;
	return memset(p, 0, n);
}

/* prefilter_free - its ids are the ruleset's (rs->ids) */
static void prefilter_free(struct prefilter *pf)
{
	int i;

	for (i = 0; i < pf->n; i++)
		free(pf->alt[i].s);
	free(pf->alt);
	pf->alt = NULL;
	pf->ids = NULL;
	pf->n = 0;
}

/* rule_clear_definition - forget how a rule matches (not its attributes) */
static void rule_clear_definition(struct rule *r)
{
	free(r->field);
	free(r->pattern);
	pcre2_code_free(r->code);
	prefilter_free(&r->pf);
	free(r->argbuf);
	free(r->ops);
	r->field = r->pattern = r->argbuf = NULL;
	r->code = NULL;
	r->ops = NULL;
	r->nops = 0;
	r->hook = NULL;
	memset(&r->args, 0, sizeof(r->args));
	r->options = 0;
	r->utf = r->negate = false;
	r->hmode = HDR_VALUE;
	r->type = RULE_NONE;
}

void rules_free(struct ruleset *rs)
{
	size_t i;

	if (!rs)
		return;
	for (i = 0; i < rs->nrules && rs->snap; i++)
		pcre2_code_free(rs->rules[i].code);
	for (i = 0; i < rs->nrules && !rs->snap; i++) {
		rule_clear_definition(&rs->rules[i]);
		free(rs->rules[i].name);
		free(rs->rules[i].describe);
	}
	while (rs->arena) {
		struct arena *next = rs->arena->next;

		free(rs->arena);
		rs->arena = next;
	}
	free(rs->snap);
	free(rs->ids);
	free(rs->rules);
	hashmap_release(&rs->names);
	for (i = 0; i < rs->ntests; i++)
		free(rs->tests[i].text);
	free(rs->tests);
	for (i = 0; i < rs->nproblems; i++)
		free(rs->problems[i].msg);
	free(rs->problems);
	for (i = 0; i < rs->nfiles && !rs->snap; i++)
		free(rs->files[i]);
	free(rs->files);
	pcre2_match_context_free(rs->mctx);
	free(rs->lix.lits);
	free(rs->lix.ci);
	free(rs->lix.keys);
	free(rs->lix.bucket);
	free(rs);
}

/* ---- small parsing helpers -------------------------------------------- */

static char *skip_ws(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* next_word - cut the next blank-separated word out of *sp */
static char *next_word(char **sp)
{
	char *s = skip_ws(*sp), *w = s;

	if (!*s)
		return NULL;
	while (*s && *s != ' ' && *s != '\t')
		s++;
	if (*s)
		*s++ = '\0';
	*sp = s;
	return w;
}

static void rtrim(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = '\0';
}

static int parse_number(const char *s, double *out)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(d) || d < -1000 || d > 1000)
		return -1;
	*out = d;
	return 0;
}

/* ---- regexes ----------------------------------------------------------- */

/*
 * parse_regex - "/re/flags" or "m{re}flags" (any delimiter after m):
 * the pattern runs to the last closing delimiter on the line
 */
static const char *parse_regex(char *s, char **pattern, uint32_t *options,
			       bool *utf)
{
	char close, *end, *f;

	s = skip_ws(s);
	if (*s == '/') {
		close = '/';
		s++;
	} else if (*s == 'm' && s[1] && ispunct((unsigned char)s[1])) {
		close = s[1] == '{'   ? '}'
			: s[1] == '(' ? ')'
			: s[1] == '<' ? '>'
			: s[1] == '[' ? ']'
				      : s[1];
		s += 2;
	} else {
		return "expected /regex/flags";
	}
	rtrim(s);
	end = strrchr(s, close);
	if (!end)
		return "regex has no closing delimiter";
	*end = '\0';
	*options = 0;
	*utf = false;
	for (f = end + 1; *f; f++) {
		switch (*f) {
		case 'i':
			*options |= PCRE2_CASELESS;
			break;
		case 'm':
			*options |= PCRE2_MULTILINE;
			break;
		case 's':
			*options |= PCRE2_DOTALL;
			break;
		case 'x':
			*options |= PCRE2_EXTENDED;
			break;
		case 'u':
			*options |= PCRE2_UTF;
			*utf = true;
			break;
		default:
			return "unknown regex flag (use i, m, s, x, u)";
		}
	}
	if (!*s)
		return "empty regex";
	if (strlen(s) > PATTERN_MAX)
		return "regex too long";
	*pattern = s;
	return NULL;
}

/* ---- the literal prefilter --------------------------------------------- */

/*
 * A required-literal set: every match of the pattern contains at least
 * one of its literals, so when none occurs in the subject pcre2 need not
 * run.  It is read from the pattern source: literal runs of a sequence,
 * and groups that must match (an alternation gives the union of its
 * branches' sets).  Whatever the scanner does not understand yields no
 * set, which is always safe.
 */
struct litset {
	int n;
	size_t score; /* litset_score(), SCORE_UNKNOWN until computed */
	struct lit alt[PF_MAX_ALTS];
};

#define SCORE_UNKNOWN SIZE_MAX

/* only the count: the literals are a large array, filled as needed */
static void litset_init(struct litset *s)
{
	s->n = 0;
	s->score = SCORE_UNKNOWN;
}

static void litset_free(struct litset *s)
{
	int i;

	for (i = 0; i < s->n; i++)
		free(s->alt[i].s);
	litset_init(s);
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

/* litset_score - how much a set is worth scanning for; 0 = useless */
static size_t litset_score(struct litset *s)
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

/* litset_keep_better - keep the better of *best and *cand; empties cand */
static void litset_keep_better(struct litset *best, struct litset *cand)
{
	if (litset_score(cand) > litset_score(best)) {
		litset_free(best);
		best->n = cand->n;
		best->score = cand->score;
		memcpy(best->alt, cand->alt,
		       (size_t)cand->n * sizeof(*cand->alt));
		cand->n = 0;
	} else {
		litset_free(cand);
	}
	litset_init(cand);
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

static void run_flush(struct run *r, struct litset *best)
{
	struct litset cand;

	if (!r->len)
		return;
	litset_init(&cand);
	cand.n = 1;
	cand.alt[0].s = xmemdup0(r->buf, r->len);
	cand.alt[0].len = r->len;
	cand.alt[0].maxpre = r->pre;
	litset_keep_better(best, &cand);
	r->len = 0;
}

static bool req_alt(const char *p, const char *end, int depth,
		    struct litset *out);

/*
 * req_seq - the best literal set of one branch [p, end), each literal
 * with the most bytes a match can span before it; false when the branch
 * uses something this scanner does not understand
 */
static bool req_seq(const char *p, const char *end, int depth,
		    struct litset *best)
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
				struct litset cand;

				if (req_alt(ib, ie, depth + 1, &cand)) {
					for (i = 0; i < cand.n; i++)
						cand.alt[i].maxpre = wadd(
							pre,
							cand.alt[i].maxpre);
					litset_keep_better(best, &cand);
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
		    struct litset *out)
{
	const char *alt = p;
	int d = 0;

	litset_init(out);
	for (;; p++) {
		struct litset s;

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
		litset_init(&s);
		if (!req_seq(alt, p, depth, &s) || !litset_score(&s) ||
		    out->n + s.n > PF_MAX_ALTS) {
			litset_free(&s);
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
	litset_free(out);
	return false;
}

/* prefilter_build - the literals one of which every match must contain */
static void prefilter_build(struct rule *rule)
{
	const char *pat = rule->pattern, *p, *end = pat + strlen(pat);
	struct litset s;
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
	if (!litset_score(&s)) {
		litset_free(&s);
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

static void litindex_reset(struct litindex *ix)
{
	if (!ix->lits && !ix->keys)
		return; /* never filled: all zero */
	free(ix->lits);
	free(ix->ci);
	free(ix->keys);
	free(ix->bucket);
	memset(ix, 0, sizeof(*ix));
}

static uint32_t litindex_add(struct litindex *ix, const struct lit *l, bool ci)
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

static void litindex_finish(struct litindex *ix)
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
		memcpy(&pair, low, 2); /* as litindex_scan() reads it */
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
 * litindex_scan - ls->first[id] = 1 + the offset of the first occurrence
 * of every literal in the text (lower: the same, lower-cased), 0 for
 * those that do not occur; every occurrence in ls->occ[], chained from
 * ls->head[id] (up to OCC_MAX of each kind, caseless or not, else
 * ls->full[kind])
 */
static void litindex_scan(const struct litindex *ix, const char *text,
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

		memcpy(&le, s + i, 2); /* as litindex_finish() */
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

static const char *compile_regex(struct rule *r)
{
	static char msg[256];
	PCRE2_SIZE off;
	int err;
	char e[200];

	/*
	 * Rules never need captures, and the interpreter copies every
	 * capture slot with each backtracking frame: plain (...) groups do
	 * not capture (a backreference needs a named group).
	 */
	r->code = pcre2_compile((PCRE2_SPTR)r->pattern, PCRE2_ZERO_TERMINATED,
				r->options | PCRE2_NO_AUTO_CAPTURE |
					PCRE2_USE_OFFSET_LIMIT,
				&err, &off, NULL);
	if (!r->code) {
		pcre2_get_error_message(err, (PCRE2_UCHAR *)e, sizeof(e));
		snprintf(msg, sizeof(msg), "bad regex at offset %zu: %s",
			 (size_t)off, e);
		return msg;
	}
	prefilter_build(r);
	return NULL;
}

/* ---- eval: hooks ------------------------------------------------------- */

static const struct rules_hook *hook_find(const struct ruleset *rs,
					  const char *name)
{
	size_t i;

	for (i = 0; i < rs->nhooks; i++)
		if (strcmp(rs->hooks[i].name, name) == 0)
			return &rs->hooks[i];
	return NULL;
}

/* parse_eval - "eval:name(a, 'b', 3)" into the rule */
static const char *parse_eval(struct ruleset *rs, struct rule *r,
			      enum rule_type type, char *s)
{
	char *name, *open, *close, *a;
	const struct rules_hook *h;
	const char *msg;
	char *buf;
	int argc = 0;

	rtrim(s);
	name = s + strlen("eval:");
	open = strchr(name, '(');
	close = strrchr(name, ')');
	if (!open || !close || close < open || close[1])
		return "expected eval:name(args)";
	*open = '\0';
	h = hook_find(rs, name);
	if (!h)
		return "unknown eval hook";
	if (!(h->on & RULES_ON(type)))
		return "this eval hook cannot be used in this kind of rule";
	*close = '\0';
	buf = xstrdup(open + 1);
	a = buf;
	memset(&r->args, 0, sizeof(r->args));
	if (*skip_ws(a)) {
		for (;;) {
			char *comma = strchr(a, ',');
			char *v;
			size_t n;

			if (comma)
				*comma = '\0';
			v = skip_ws(a);
			rtrim(v);
			n = strlen(v);
			if (n >= 2 && (v[0] == '\'' || v[0] == '"') &&
			    v[n - 1] == v[0]) {
				v[n - 1] = '\0';
				v++;
			}
			if (argc == RULES_MAX_ARGS) {
				free(buf);
				return "too many arguments";
			}
			r->args.argv[argc++] = v;
			if (!comma)
				break;
			a = comma + 1;
		}
	}
	r->args.argc = argc;
	if (argc < h->min_args || argc > h->max_args) {
		free(buf);
		return "wrong number of arguments for this eval hook";
	}
	if (h->check && (msg = h->check(&r->args)) != NULL) {
		free(buf);
		return msg;
	}
	r->argbuf = buf;
	r->hook = h;
	return NULL;
}

/* ---- meta expressions --------------------------------------------------- */

struct meta_parser {
	struct ruleset *rs;
	const char *p;
	int file;
	unsigned line;
	struct meta_op *ops;
	size_t nops, alloc;
	int depth;
	const char *err;
};

static void emit(struct meta_parser *mp, enum meta_opcode op, size_t idx,
		 double num)
{
	if (mp->nops >= META_MAX_OPS) {
		mp->err = "meta expression too long";
		return;
	}
	ALLOC_GROW(mp->ops, mp->nops, mp->alloc);
	mp->ops[mp->nops].op = op;
	mp->ops[mp->nops].idx = idx;
	mp->ops[mp->nops].num = num;
	mp->nops++;
}

static void mp_ws(struct meta_parser *mp)
{
	while (*mp->p == ' ' || *mp->p == '\t')
		mp->p++;
}

static bool mp_eat(struct meta_parser *mp, const char *tok)
{
	size_t n = strlen(tok);

	mp_ws(mp);
	if (strncmp(mp->p, tok, n) != 0)
		return false;
	/* "<" must not take the first half of "<=", "!" of "!=" ... */
	if (n == 1 && (*tok == '<' || *tok == '>' || *tok == '!') &&
	    mp->p[1] == '=')
		return false;
	mp->p += n;
	return true;
}

static void mp_or(struct meta_parser *mp);

static void mp_primary(struct meta_parser *mp)
{
	mp_ws(mp);
	if (mp->err)
		return;
	if (*mp->p == '(') {
		mp->p++;
		if (++mp->depth > RULES_META_MAX_DEPTH) {
			mp->err = "meta expression nested too deeply";
			return;
		}
		mp_or(mp);
		mp->depth--;
		if (!mp->err && !mp_eat(mp, ")"))
			mp->err = "missing ')'";
		return;
	}
	if (isdigit((unsigned char)*mp->p)) {
		char *end;
		double d = strtod(mp->p, &end);

		mp->p = end;
		emit(mp, OP_NUM, 0, d);
		return;
	}
	if (isalpha((unsigned char)*mp->p) || *mp->p == '_') {
		char name[RULES_NAME_MAX + 2];
		size_t n = 0;

		while (isalnum((unsigned char)*mp->p) || *mp->p == '_') {
			if (n < sizeof(name) - 1)
				name[n++] = *mp->p;
			mp->p++;
		}
		name[n] = '\0';
		if (n > RULES_NAME_MAX) {
			mp->err = "rule name too long";
			return;
		}
		emit(mp, OP_RULE,
		     rule_get(mp->rs, name, mp->file, mp->line, "meta"), 0);
		return;
	}
	mp->err = *mp->p ? "unexpected character in meta expression"
			 : "meta expression ends too early";
}

static void mp_unary(struct meta_parser *mp)
{
	if (mp->err)
		return;
	if (mp_eat(mp, "!")) {
		if (++mp->depth > RULES_META_MAX_DEPTH) {
			mp->err = "meta expression nested too deeply";
			return;
		}
		mp_unary(mp);
		mp->depth--;
		emit(mp, OP_NOT, 0, 0);
	} else if (mp_eat(mp, "-")) {
		if (++mp->depth > RULES_META_MAX_DEPTH) {
			mp->err = "meta expression nested too deeply";
			return;
		}
		mp_unary(mp);
		mp->depth--;
		emit(mp, OP_NEG, 0, 0);
	} else {
		mp_primary(mp);
	}
}

static void mp_prod(struct meta_parser *mp)
{
	mp_unary(mp);
	while (!mp->err && mp_eat(mp, "*")) {
		mp_unary(mp);
		emit(mp, OP_MUL, 0, 0);
	}
}

static void mp_sum(struct meta_parser *mp)
{
	mp_prod(mp);
	while (!mp->err) {
		if (mp_eat(mp, "+")) {
			mp_prod(mp);
			emit(mp, OP_ADD, 0, 0);
		} else if (mp_eat(mp, "-")) {
			mp_prod(mp);
			emit(mp, OP_SUB, 0, 0);
		} else {
			break;
		}
	}
}

static void mp_cmp(struct meta_parser *mp)
{
	static const struct {
		const char *tok;
		enum meta_opcode op;
	} ops[] = {
		{ "<=", OP_LE }, { ">=", OP_GE }, { "==", OP_EQ },
		{ "!=", OP_NE }, { "<", OP_LT },  { ">", OP_GT },
	};
	size_t i;

	mp_sum(mp);
	if (mp->err)
		return;
	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		if (mp_eat(mp, ops[i].tok)) {
			mp_sum(mp);
			emit(mp, ops[i].op, 0, 0);
			return;
		}
	}
}

static void mp_and(struct meta_parser *mp)
{
	mp_cmp(mp);
	while (!mp->err && mp_eat(mp, "&&")) {
		mp_cmp(mp);
		emit(mp, OP_AND, 0, 0);
	}
}

static void mp_or(struct meta_parser *mp)
{
	mp_and(mp);
	while (!mp->err && mp_eat(mp, "||")) {
		mp_and(mp);
		emit(mp, OP_OR, 0, 0);
	}
}

static const char *parse_meta(struct ruleset *rs, size_t idx, char *expr,
			      int file, unsigned line)
{
	struct meta_parser mp = { 0 };

	mp.rs = rs;
	mp.p = expr;
	mp.file = file;
	mp.line = line;
	mp_ws(&mp);
	if (!*mp.p)
		return "empty meta expression";
	mp_or(&mp);
	mp_ws(&mp);
	if (!mp.err && *mp.p)
		mp.err = *mp.p == '&' || *mp.p == '|'
				 ? "use && and || in meta expressions"
				 : "unexpected text after the meta expression";
	if (mp.err) {
		free(mp.ops);
		return mp.err;
	}
	rs->rules[idx].ops = mp.ops;
	rs->rules[idx].nops = mp.nops;
	return NULL;
}

/* ---- directives ---------------------------------------------------------- */

/*
 * set_once - note that file sets attribute *slot_file; complain if the
 * same file already did
 */
static bool set_once(struct ruleset *rs, int *slot_file, unsigned *slot_line,
		     int file, unsigned line, const char *what,
		     const char *name)
{
	if (*slot_file == file) {
		problem(rs, file, line, false, "duplicate %s for %s (line %u)",
			what, name, *slot_line);
		return false;
	}
	*slot_file = file;
	*slot_line = line;
	return true;
}

static void define_rule(struct ruleset *rs, enum rule_type type,
			const char *name, char *rest, int file, unsigned line)
{
	size_t idx = rule_get(rs, name, file, line, type_names[type]);
	struct rule *r = &rs->rules[idx];
	const char *msg = NULL;
	char *pattern = NULL;

	if (r->def_file == file) {
		problem(rs, file, line, false,
			"duplicate definition of %s (line %u)", name,
			r->def_line);
		return;
	}
	rule_clear_definition(r);
	r->def_file = file;
	r->def_line = line;
	rest = skip_ws(rest);
	if (type == RULE_META) {
		msg = parse_meta(rs, idx, rest, file, line);
		r = &rs->rules[idx]; /* rule_get() may have moved it */
	} else if (starts_with(rest, "eval:")) {
		msg = parse_eval(rs, r, type, rest);
	} else if (type == RULE_HEADER && starts_with(rest, "exists:")) {
		char *f = rest + strlen("exists:");

		rtrim(f);
		if (!*f || strpbrk(f, " \t:"))
			msg = "expected exists:Field";
		else {
			r->field = xstrdup(f);
			r->hmode = HDR_EXISTS;
		}
	} else if (type == RULE_HEADER) {
		char *field = next_word(&rest), *op = next_word(&rest), *colon;

		if (!field || !op)
			msg = "expected: header NAME Field =~ /regex/flags";
		else if (strcmp(op, "=~") != 0 && strcmp(op, "!~") != 0)
			msg = "expected =~ or !~ after the header field";
		else {
			r->negate = op[0] == '!';
			colon = strchr(field, ':');
			r->hmode = HDR_VALUE;
			if (colon) {
				if (strcmp(colon, ":addr") != 0)
					msg = "unknown header modifier (only :addr)";
				*colon = '\0';
				r->hmode = HDR_ADDR;
			}
			if (strcmp(field, "ALL") == 0) {
				if (colon)
					msg = "ALL takes no modifier";
				r->hmode = HDR_ALL;
			}
			if (!msg)
				msg = parse_regex(rest, &pattern, &r->options,
						  &r->utf);
			if (!msg)
				r->field = xstrdup(field);
		}
	} else {
		msg = parse_regex(rest, &pattern, &r->options, &r->utf);
	}
	if (!msg && pattern) {
		r->pattern = xstrdup(pattern);
		msg = compile_regex(r);
	}
	if (msg) {
		problem(rs, file, line, false, "%s %s: %s", type_names[type],
			name, msg);
		rule_clear_definition(r);
		r->def_file = file; /* still a duplicate if repeated */
		return;
	}
	r->type = type;
}

static void do_score(struct ruleset *rs, const char *name, char *rest, int file,
		     unsigned line)
{
	size_t idx = rule_get(rs, name, file, line, "score");
	struct rule *r = &rs->rules[idx];
	double score[CLASS_N] = { 0 };
	char *w;
	int n = 0;

	while ((w = next_word(&rest)) != NULL) {
		char *eq = strchr(w, '=');
		int c;
		double d;

		if (!eq && strcmp(w, "0") == 0 && n == 0) {
			n = -1;
			continue;
		}
		if (!eq || n < 0) {
			problem(rs, file, line, false,
				"score %s: expected CLASS=N, not '%s'", name,
				w);
			return;
		}
		*eq = '\0';
		c = rules_class_parse(w);
		if (c < 0) {
			problem(rs, file, line, false,
				"score %s: unknown class '%s'", name, w);
			return;
		}
		if (parse_number(eq + 1, &d) < 0) {
			problem(rs, file, line, false,
				"score %s: bad number '%s'", name, eq + 1);
			return;
		}
		score[c] = d;
		n++;
	}
	if (n == 0) {
		problem(rs, file, line, false,
			"score %s: give CLASS=N (user, fuzzer, ai) or 0", name);
		return;
	}
	if (!set_once(rs, &r->score_file, &r->score_line, file, line, "score",
		      name))
		return;
	memcpy(r->score, score, sizeof(score));
	r->scored = true;
}

/* unescape - \n \t \\ and \xHH in test texts */
static char *unescape(const char *s, size_t *len)
{
	char *out = xmalloc(strlen(s) + 1), *o = out;

	while (*s) {
		if (s[0] == '\\' && s[1]) {
			s++;
			switch (*s) {
			case 'n':
				*o++ = '\n';
				break;
			case 't':
				*o++ = '\t';
				break;
			case 'x':
				if (isxdigit((unsigned char)s[1]) &&
				    isxdigit((unsigned char)s[2])) {
					char h[3] = { s[1], s[2], 0 };

					*o++ = (char)strtol(h, NULL, 16);
					s += 2;
					break;
				}
				/* fall through */
			default:
				*o++ = *s;
			}
			s++;
			continue;
		}
		*o++ = *s++;
	}
	*o = '\0';
	*len = (size_t)(o - out);
	return out;
}

static void do_param(struct ruleset *rs, const char *directive, const char *arg,
		     char *rest, int file, unsigned line)
{
	int slot;
	double d, *dst;
	char *v;

	if (strcmp(directive, "threshold") == 0) {
		int c = rules_class_parse(arg);

		if (c < 0) {
			problem(rs, file, line, false,
				"threshold: unknown class '%s'", arg);
			return;
		}
		slot = PARAM_THRESHOLD + c;
		dst = &rs->params.threshold[c];
		v = next_word(&rest);
	} else {
		slot = strcmp(directive, "uncertain_band") == 0 ? PARAM_BAND
								: PARAM_BIAS;
		dst = slot == PARAM_BAND ? &rs->params.band
					 : &rs->params.user_bias;
		v = (char *)arg;
	}
	if (!v || next_word(&rest) || parse_number(v, &d) < 0) {
		problem(rs, file, line, false, "%s: expected a number",
			directive);
		return;
	}
	if ((slot == PARAM_BAND || slot == PARAM_BIAS) && d < 0) {
		problem(rs, file, line, false, "%s must not be negative",
			directive);
		return;
	}
	if (!set_once(rs, &rs->param_file[slot], &rs->param_line[slot], file,
		      line, directive, arg))
		return;
	*dst = d;
}

static void parse_line(struct ruleset *rs, int file, unsigned line, char *s)
{
	char *directive = next_word(&s), *name;
	size_t idx;

	if (!directive)
		return;
	name = next_word(&s);
	if (!name) {
		problem(rs, file, line, false, "%s: missing argument",
			directive);
		return;
	}
	if (strcmp(directive, "threshold") == 0 ||
	    strcmp(directive, "uncertain_band") == 0 ||
	    strcmp(directive, "user_bias") == 0) {
		do_param(rs, directive, name, s, file, line);
		return;
	}
	if (!valid_name(name)) {
		problem(rs, file, line, false,
			"%s: bad rule name '%s' (letters, digits, _; at most %d)",
			directive, name, RULES_NAME_MAX);
		return;
	}
	if (strcmp(directive, "header") == 0)
		define_rule(rs, RULE_HEADER, name, s, file, line);
	else if (strcmp(directive, "body") == 0)
		define_rule(rs, RULE_BODY, name, s, file, line);
	else if (strcmp(directive, "rawbody") == 0)
		define_rule(rs, RULE_RAWBODY, name, s, file, line);
	else if (strcmp(directive, "meta") == 0)
		define_rule(rs, RULE_META, name, s, file, line);
	else if (strcmp(directive, "score") == 0)
		do_score(rs, name, s, file, line);
	else if (strcmp(directive, "describe") == 0) {
		struct rule *r;

		s = skip_ws(s);
		rtrim(s);
		idx = rule_get(rs, name, file, line, "describe");
		r = &rs->rules[idx];
		if (!*s)
			problem(rs, file, line, false, "describe %s: no text",
				name);
		else if (strlen(s) > DESCRIBE_MAX)
			problem(rs, file, line, false,
				"describe %s: longer than %d characters", name,
				DESCRIBE_MAX);
		else if (set_once(rs, &r->describe_file, &r->describe_line,
				  file, line, "describe", name)) {
			free(r->describe);
			r->describe = xstrdup(s);
		}
	} else if (strcmp(directive, "tflags") == 0) {
		struct rule *r;
		bool certain = false;
		char *w;

		idx = rule_get(rs, name, file, line, "tflags");
		r = &rs->rules[idx];
		while ((w = next_word(&s)) != NULL) {
			if (strcmp(w, "certain") != 0) {
				problem(rs, file, line, false,
					"tflags %s: unknown flag '%s'", name,
					w);
				return;
			}
			certain = true;
		}
		if (set_once(rs, &r->tflags_file, &r->tflags_line, file, line,
			     "tflags", name))
			r->certain = certain;
	} else if (strcmp(directive, "test") == 0) {
		char *kind = next_word(&s);
		struct test *t;

		if (!kind ||
		    (strcmp(kind, "ok") != 0 && strcmp(kind, "fail") != 0)) {
			problem(rs, file, line, false,
				"test %s: expected ok or fail", name);
			return;
		}
		if (strlen(s) > TEST_TEXT_MAX) {
			problem(rs, file, line, false, "test %s: text too long",
				name);
			return;
		}
		idx = rule_get(rs, name, file, line, "test");
		ALLOC_GROW(rs->tests, rs->ntests, rs->tests_alloc);
		t = &rs->tests[rs->ntests++];
		t->rule = idx;
		t->ok = kind[0] == 'o';
		t->text = unescape(skip_ws(s), &t->len);
		t->file = file;
		t->line = line;
	} else {
		problem(rs, file, line, false, "unknown directive '%s'",
			directive);
	}
}

/* add_file_name - a new file index; the ruleset needs compiling again */
static int add_file_name(struct ruleset *rs, const char *name)
{
	ALLOC_GROW(rs->files, rs->nfiles, rs->files_alloc);
	rs->files[rs->nfiles] = xstrdup(name);
	rs->compiled = false;
	return (int)rs->nfiles++;
}

/* rules_add_text - parse one rules file's text (name for messages) */
int rules_add_text(struct ruleset *rs, const char *name, const char *text,
		   size_t len)
{
	const char *p = text, *end = text + len;
	struct strbuf logical = STRBUF_INIT(64u << 10);
	unsigned lineno = 0, start = 0;
	int file;
	bool overflow = false;

	if (rs->snap)
		return error("%s: a compiled snapshot takes no more rules",
			     name);
	file = add_file_name(rs, name);

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end, *q = p;
		bool cont;

		lineno++;
		if (eol > p && eol[-1] == '\r')
			eol--;
		while (q < eol && (*q == ' ' || *q == '\t'))
			q++;
		cont = q > p;
		if (q == eol || *q == '#') {
			p = nl ? nl + 1 : end;
			continue; /* blank or comment */
		}
		if (!cont && logical.len) {
			if (!overflow)
				parse_line(rs, file, start, logical.buf);
			sb_reset(&logical);
			overflow = false;
		}
		if (cont && !logical.len) {
			problem(rs, file, lineno, false,
				"continuation line with nothing to continue");
			p = nl ? nl + 1 : end;
			continue;
		}
		if (!logical.len)
			start = lineno;
		else if (sb_addc(&logical, ' ') < 0)
			overflow = true;
		if (memchr(q, '\0', (size_t)(eol - q)) ||
		    sb_add(&logical, q, (size_t)(eol - q)) < 0) {
			if (!overflow)
				problem(rs, file, start, false,
					"line too long or contains NUL");
			overflow = true;
		}
		p = nl ? nl + 1 : end;
	}
	if (logical.len && !overflow)
		parse_line(rs, file, start, logical.buf);
	sb_release(&logical);
	return 0;
}

/* rules_add_file - parse one rules file */
int rules_add_file(struct ruleset *rs, const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	size_t n;
	int ret;

	if (!f) {
		int e = errno;

		problem(rs, add_file_name(rs, path), 0, false,
			"cannot open: %s", strerror(e));
		return -1;
	}
	buf = xmalloc(RULES_FILE_MAX + 1);
	n = fread(buf, 1, RULES_FILE_MAX + 1, f);
	if (ferror(f) || n > RULES_FILE_MAX) {
		problem(rs, add_file_name(rs, path), 0, false,
			ferror(f) ? "read error" : "larger than 1 MB");
		fclose(f);
		free(buf);
		return -1;
	}
	fclose(f);
	ret = rules_add_text(rs, path, buf, n);
	free(buf);
	return ret;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* rules_add_dir - every *.rules file of dir, in lexical (C locale) order */
int rules_add_dir(struct ruleset *rs, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, alloc = 0, i;
	int ret = 0;

	if (!d) {
		int e = errno;

		problem(rs, add_file_name(rs, dir), 0, false, "cannot open: %s",
			strerror(e));
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' || !ends_with(de->d_name, ".rules"))
			continue;
		ALLOC_GROW(names, n, alloc);
		names[n++] = xasprintf("%s/%s", dir, de->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_str);
	for (i = 0; i < n; i++) {
		if (rules_add_file(rs, names[i]) < 0)
			ret = -1;
		free(names[i]);
	}
	free(names);
	return ret;
}

/* ---- compile: resolve names, check, fill the public view ---------------- */

/* meta_dfs - cycle and depth check; colour 0 white, 1 grey, 2 black */
static int meta_dfs(struct ruleset *rs, size_t i, unsigned char *colour,
		    int *depth)
{
	struct rule *r = &rs->rules[i];
	size_t k;
	int d = 0;

	if (colour[i] == 2)
		return depth[i];
	if (colour[i] == 1)
		return -1;
	colour[i] = 1;
	for (k = 0; k < r->nops; k++) {
		int sub;

		if (r->ops[k].op != OP_RULE)
			continue;
		if (rs->rules[r->ops[k].idx].type != RULE_META)
			continue;
		sub = meta_dfs(rs, r->ops[k].idx, colour, depth);
		if (sub < 0) {
			colour[i] = 2;
			depth[i] = -1;
			return -1;
		}
		if (sub + 1 > d)
			d = sub + 1;
	}
	colour[i] = 2;
	depth[i] = d;
	return d;
}

/* rules_compile - resolve names and check every rule; returns errors */
int rules_compile(struct ruleset *rs)
{
	unsigned char *colour;
	int *depth;
	size_t i, k, w;

	if (rs->compiled)
		return rs->errors;
	/* drop the previous compile's findings */
	for (i = w = 0; i < rs->nproblems; i++) {
		if (rs->problems[i].compile_stage)
			free(rs->problems[i].msg);
		else
			rs->problems[w++] = rs->problems[i];
	}
	rs->nproblems = w;
	rs->compiled = true;

	for (i = 0; i < rs->nrules; i++) {
		struct rule *r = &rs->rules[i];

		r->used = false;
		if (r->type == RULE_NONE && r->def_file < 0)
			problem(rs, r->ref_file, r->ref_line, false,
				"%s: unknown rule %s", r->ref_what, r->name);
	}
	for (i = 0; i < rs->nrules; i++) {
		struct rule *r = &rs->rules[i];

		for (k = 0; k < r->nops; k++)
			if (r->ops[k].op == OP_RULE)
				rs->rules[r->ops[k].idx].used = true;
	}
	colour = xcalloc(rs->nrules + 1, 1);
	depth = xcalloc(rs->nrules + 1, sizeof(*depth));
	for (i = 0; i < rs->nrules; i++) {
		struct rule *r = &rs->rules[i];
		int d;

		if (r->type != RULE_META)
			continue;
		d = meta_dfs(rs, i, colour, depth);
		if (d < 0)
			problem(rs, r->def_file, r->def_line, false,
				"meta %s: depends on itself (a cycle)",
				r->name);
		else if (d >= RULES_META_MAX_DEPTH)
			problem(rs, r->def_file, r->def_line, false,
				"meta %s: metas nested deeper than %d", r->name,
				RULES_META_MAX_DEPTH);
	}
	free(colour);
	free(depth);

	/* one literal index over every body and rawbody prefilter */
	litindex_reset(&rs->lix);
	free(rs->ids);
	for (i = k = 0; i < rs->nrules; i++)
		k += (size_t)rs->rules[i].pf.n;
	rs->ids = xcalloc(k + 1, sizeof(*rs->ids));
	for (i = k = 0; i < rs->nrules; i++) {
		struct prefilter *pf = &rs->rules[i].pf;
		int j;

		pf->ids = NULL;
		if (!pf->n || (rs->rules[i].type != RULE_BODY &&
			       rs->rules[i].type != RULE_RAWBODY))
			continue;
		pf->ids = rs->ids + k;
		k += (size_t)pf->n;
		for (j = 0; j < pf->n; j++)
			pf->ids[j] =
				litindex_add(&rs->lix, &pf->alt[j], pf->ci);
	}
	litindex_finish(&rs->lix);

	for (i = 0; i < rs->nrules; i++) {
		struct rule *r = &rs->rules[i];
		bool helper = starts_with(r->name, "__");
		int c, pos = 0;

		r->certain_class = -1;
		if (r->type == RULE_NONE)
			continue;
		if (helper && r->scored)
			problem(rs, r->score_file, r->score_line, false,
				"score %s: helper rules (__NAME) are not scored",
				r->name);
		if (!helper && !r->scored)
			problem(rs, r->def_file, r->def_line, false,
				"%s has no score (score it, or call it __%s)",
				r->name, r->name);
		if (!helper && !r->describe)
			problem(rs, r->def_file, r->def_line, true,
				"%s has no describe line", r->name);
		if (helper && !r->used)
			problem(rs, r->def_file, r->def_line, true,
				"helper %s is not used by any meta", r->name);
		if (r->certain) {
			for (c = 0; c < CLASS_N; c++)
				if (r->score[c] > 0) {
					pos++;
					r->certain_class = c;
				}
			if (pos != 1) {
				problem(rs, r->tflags_file, r->tflags_line,
					false,
					"tflags %s certain: the rule needs a positive score for exactly one class",
					r->name);
				r->certain_class = -1;
			}
		}
		r->info.name = r->name;
		r->info.describe = r->describe ? r->describe : "";
		r->info.file = r->def_file >= 0 ? rs->files[r->def_file] : "";
		r->info.line = r->def_line;
		r->info.type = r->type;
		memcpy(r->info.score, r->score, sizeof(r->score));
		r->info.helper = helper;
		r->info.certain = r->certain && r->certain_class >= 0;
		r->info.certain_class = r->certain_class;
		r->info.hook = r->hook ? r->hook->name : NULL;
	}
	rs->errors = 0;
	for (i = 0; i < rs->nproblems; i++)
		if (!rs->problems[i].warning)
			rs->errors++;
	return rs->errors;
}

size_t rules_nproblems(const struct ruleset *rs)
{
	return rs->nproblems;
}

int rules_problem(const struct ruleset *rs, size_t i, char *buf, size_t size)
{
	const struct problem *p = &rs->problems[i];
	const char *file = p->file >= 0 ? rs->files[p->file] : "rules";
	const char *w = p->warning ? "warning: " : "";

	if (p->line)
		snprintf(buf, size, "%s:%u: %s%s", file, p->line, w, p->msg);
	else
		snprintf(buf, size, "%s: %s%s", file, w, p->msg);
	return p->warning;
}

/* rules_lint - compile if needed and print every problem; returns errors */
int rules_lint(struct ruleset *rs, FILE *out)
{
	int errors = rules_compile(rs);
	char buf[1024];
	size_t i;

	for (i = 0; i < rs->nproblems; i++) {
		rules_problem(rs, i, buf, sizeof(buf));
		fprintf(out, "%s\n", buf);
	}
	return errors;
}

/* ---- queries ------------------------------------------------------------ */

size_t rules_count(const struct ruleset *rs)
{
	return rs->nrules;
}

/* rules_info - the public view of rule i (valid after rules_compile()) */
const struct rule_info *rules_info(const struct ruleset *rs, size_t i)
{
	return &rs->rules[i].info;
}

const struct rules_params *rules_params(const struct ruleset *rs)
{
	return &rs->params;
}

size_t rules_nfiles(const struct ruleset *rs)
{
	return rs->nfiles;
}

void rules_set_symbols(struct ruleset *rs, const struct symbols *symbols)
{
	rs->symbols = symbols;
}

void rules_set_evidence(struct ruleset *rs,
			struct evidence *(*extract)(const struct report *r),
			void (*release)(struct evidence *ev))
{
	rs->extract = extract;
	rs->release = release;
}

const struct symbols *rules_symbols(const struct ruleset *rs)
{
	return rs->symbols;
}

/* ---- targets -------------------------------------------------------------- */

/*
 * Headers the transport or a list archive adds: they say nothing about
 * who wrote the report, and a public corpus delivered through an
 * archive carries the archive's, so ALL never includes them.
 */
static const char *const hidden_headers[] = {
	"Received",
	"Return-Path",
	"Delivered-To",
	"X-Original-To",
	"X-Received",
	"DKIM-Signature",
	"X-Google-DKIM-Signature",
	"Authentication-Results",
	"Received-SPF",
	"X-Google-Smtp-Source",
	"X-Forwarded-Encrypted",
	"X-Mailing-List",
	"Precedence",
	"Mailing-List",
};

static const char *const hidden_prefixes[] = {
	"ARC-", "List-", "X-Gm-", "X-Spam-", "X-Triage-",
};

/* rules_header_hidden - a transport/archive header that ALL leaves out */
bool rules_header_hidden(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(hidden_headers); i++)
		if (strcasecmp(name, hidden_headers[i]) == 0)
			return true;
	for (i = 0; i < ARRAY_SIZE(hidden_prefixes); i++)
		if (starts_with_ci(name, hidden_prefixes[i]))
			return true;
	return false;
}

/* sb_add_some - append as much of data as the cap allows */
static void sb_add_some(struct strbuf *sb, const char *data, size_t len)
{
	size_t room = sb->max > sb->len ? sb->max - sb->len : 0;

	sb_add(sb, data, len < room ? len : room);
}

/* rules_addresses - bare addresses of an address header, one per line */
void rules_addresses(const char *v, struct strbuf *out)
{
	bool first = true;

	while (*v) {
		const char *start = v, *lt = NULL, *gt = NULL, *a, *b;
		int quote = 0, paren = 0;

		/* one element: up to a comma outside quotes, <> and () */
		for (; *v; v++) {
			if (quote) {
				if (*v == '\\' && v[1])
					v++;
				else if (*v == '"')
					quote = 0;
			} else if (*v == '"') {
				quote = 1;
			} else if (*v == '(') {
				paren++;
			} else if (*v == ')' && paren) {
				paren--;
			} else if (*v == '<' && !paren && !lt) {
				lt = v;
			} else if (*v == '>' && lt && !gt) {
				gt = v;
			} else if (*v == ',' && !paren && (!lt || gt)) {
				break;
			}
		}
		if (lt && gt) {
			a = lt + 1;
			b = gt;
		} else {
			/* bare: the word holding '@' */
			const char *at =
				memchr(start, '@', (size_t)(v - start));

			a = b = NULL;
			if (at) {
				a = at;
				while (a > start && !strchr(" \t<(\"", a[-1]))
					a--;
				b = at;
				while (b < v && !strchr(" \t>)\",", *b))
					b++;
			}
		}
		while (a && a < b && (*a == ' ' || *a == '\t'))
			a++;
		while (a && b > a && (b[-1] == ' ' || b[-1] == '\t'))
			b--;
		if (a && b > a) {
			const char *c;

			if (!first)
				sb_add_some(out, "\n", 1);
			for (c = a; c < b; c++) {
				char lc = (char)tolower((unsigned char)*c);

				sb_add_some(out, &lc, 1);
			}
			first = false;
		}
		if (*v == ',')
			v++;
	}
}

/*
 * is_attribution - "On ..., X wrote:", "Am ... schrieb X <x@y>:", "Le ...,
 * X a écrit :": a line ending in ':' that holds a verb of writing (it is
 * dropped only when a quote follows)
 */
static bool is_attribution(const char *s, size_t n)
{
	/* UTF-8 in octal escapes, which end after three digits */
	static const char *const verbs[] = {
		"wrote",	  "writes",	     "schrieb",
		"a \303\251crit", "escribi\303\263", "scrisse",
		"napisa\305\202",
	};
	size_t i;

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	if (!n || s[n - 1] != ':')
		return false;
	for (i = 0; i < ARRAY_SIZE(verbs); i++)
		if (memmem(s, n, verbs[i], strlen(verbs[i])))
			return true;
	return false;
}

static bool opens_attribution(const char *s, size_t n)
{
	const char *end = s + n;

	return n > 3 &&
	       (has_prefix(s, end, "On ") || has_prefix(s, end, "Am ") ||
		has_prefix(s, end, "Le ") || has_prefix(s, end, "El "));
}

/*
 * original_message - the line after which a top-posted reply quotes:
 * "-----Original Message-----", or a line of underscores followed by
 * "From:" (Outlook)
 */
static bool original_message(const char *s, size_t n, const char *next,
			     const char *end)
{
	static const char om[] = "-----Original Message-----";
	size_t i = 0, u = 0;

	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (has_prefix_ci(s + i, s + n, om))
		return true;
	for (; i < n && s[i] == '_'; i++)
		u++;
	while (i < n && (s[i] == ' ' || s[i] == '\r'))
		i++;
	return u >= 10 && i == n && has_prefix(next, end, "From:");
}

/*
 * rules_own_text - the report without the quoted text it replies to
 *
 * Drops lines starting with '>', the attribution line ("On Mon, ...
 * X wrote:", possibly wrapped over two lines) right before a quoted
 * block, and everything from an "-----Original Message-----" line or an
 * Outlook "______" separator followed by "From:".
 */
void rules_own_text(const char *text, size_t len, struct strbuf *out)
{
	const char *p = text, *end;
	size_t last = SIZE_MAX, prev = SIZE_MAX; /* nonblank line starts */
	size_t last_len = 0;
	bool last_quoted = false;

	if (len > OWN_INPUT_MAX)
		len = OWN_INPUT_MAX;
	end = text + len;
	while (p < end && out->len < out->max) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		size_t n = (size_t)(eol - p);
		bool blank = true;
		size_t i;

		for (i = 0; i < n; i++)
			if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r') {
				blank = false;
				break;
			}
		if (n && p[0] == '>') {
			/* the attribution before a quote goes with it */
			if (!last_quoted && last != SIZE_MAX &&
			    is_attribution(out->buf + last, last_len)) {
				size_t cut = last;

				if (!opens_attribution(out->buf + last,
						       last_len) &&
				    prev != SIZE_MAX &&
				    opens_attribution(out->buf + prev,
						      last - prev))
					cut = prev;
				sb_truncate(out, cut);
				last = prev = SIZE_MAX;
			}
			last_quoted = true;
			p = nl ? nl + 1 : end;
			continue;
		}
		if (original_message(p, n, nl ? nl + 1 : end, end))
			break;
		if (!blank) {
			last_quoted = false;
			prev = last;
			last = out->len;
			last_len = n;
		}
		sb_add_some(out, p, n);
		if (nl)
			sb_add_some(out, "\n", 1);
		p = nl ? nl + 1 : end;
	}
	if (!out->buf)
		sb_add(out, "", 0);
}

static void build_body(const struct report *r, struct strbuf *sb)
{
	const char *text = r->body;
	size_t len = r->body_len, i;

	if (!text) {
		for (i = 0; i < r->nparts; i++) {
			const struct report_part *p = &r->parts[i];

			if ((p->flags & PART_TEXT) && p->text &&
			    !(p->flags & PART_ATTACHMENT)) {
				text = p->text;
				len = p->len;
				break;
			}
		}
	}
	if (text)
		rules_own_text(text, len, sb);
	else
		sb_add(sb, "", 0);
}

static void build_rawbody(const struct report *r, struct strbuf *sb)
{
	size_t i;
	bool any = false;

	for (i = 0; i < r->nparts; i++) {
		const struct report_part *p = &r->parts[i];

		if (!(p->flags & PART_TEXT) || !p->text)
			continue;
		if (any)
			sb_add_some(sb, "\n", 1);
		sb_add_some(sb, p->text, p->len);
		any = true;
	}
	if (!any && r->body)
		sb_add_some(sb, r->body, r->body_len);
	if (!sb->buf)
		sb_add(sb, "", 0);
}

static void build_all(const struct report *r, struct strbuf *sb)
{
	size_t i;

	for (i = 0; i < r->nheaders; i++) {
		const struct report_header *h = &r->headers[i];

		if (rules_header_hidden(h->name))
			continue;
		sb_add_some(sb, h->name, strlen(h->name));
		sb_add_some(sb, ": ", 2);
		sb_add_some(sb, h->value, strlen(h->value));
		sb_add_some(sb, "\n", 1);
	}
	if (!sb->buf)
		sb_add(sb, "", 0);
}

/* build_header - every value of field, joined by newlines */
static bool build_header(const struct report *r, const char *field,
			 enum hdr_mode mode, struct strbuf *sb)
{
	const char *pseudo = NULL;
	bool found = false;
	size_t i;

	sb_reset(sb);
	if (strcmp(field, "EnvelopeFrom") == 0)
		pseudo = r->envelope_from ? r->envelope_from : NULL;
	else if (strcmp(field, "EnvelopeTo") == 0)
		pseudo = r->envelope_to ? r->envelope_to : NULL;
	if (pseudo) {
		found = true;
		if (mode == HDR_ADDR)
			rules_addresses(pseudo, sb);
		else
			sb_add_some(sb, pseudo, strlen(pseudo));
	}
	for (i = 0; !pseudo && i < r->nheaders; i++) {
		const struct report_header *h = &r->headers[i];

		if (strcasecmp(h->name, field) != 0)
			continue;
		if (found)
			sb_add_some(sb, "\n", 1);
		found = true;
		if (mode == HDR_ADDR)
			rules_addresses(h->value, sb);
		else
			sb_add_some(sb, h->value, strlen(h->value));
	}
	if (!sb->buf)
		sb_add(sb, "", 0);
	return found;
}

/* ---- evaluation ---------------------------------------------------------- */

static struct rules_scratch *scratch_get(struct rules_result *res)
{
	struct rules_scratch *s = res->s;

	if (!s) {
		s = res->s = xcalloc(1, sizeof(*s));
		s->md = pcre2_match_data_create(1, NULL);
		s->wctx = pcre2_match_context_create(NULL);
		if (!s->md || !s->wctx)
			die("out of memory");
		pcre2_set_match_limit(s->wctx, RULES_MATCH_LIMIT);
		pcre2_set_depth_limit(s->wctx, RULES_DEPTH_LIMIT);
		pcre2_set_heap_limit(s->wctx, RULES_HEAP_LIMIT_KIB);
		sb_init(&s->body, RULES_BODY_MAX);
		sb_init(&s->raw, RULES_RAWBODY_MAX);
		sb_init(&s->all, RULES_ALL_MAX);
		sb_init(&s->hdr, RULES_HEADER_MAX);
	}
	s->have_body = s->have_raw = s->have_all = false;
	s->have_body_lower = s->have_raw_lower = false;
	s->scan[0].done = s->scan[1].done = false;
	s->body_utf = s->raw_utf = -1;
	sb_reset(&s->body);
	sb_reset(&s->raw);
	sb_reset(&s->all);
	return s;
}

/* lower_copy - ASCII lower case only, as pcre2's default tables */
static void lower_copy(const struct strbuf *sb, char **dst, size_t *alloc)
{
	const uint64_t ones = 0x0101010101010101ull;
	size_t i = 0;

	if (*alloc < sb->len + 1) {
		free(*dst);
		*alloc = sb->len + 1;
		*dst = xmalloc(*alloc);
	}
	/* eight bytes at a time: 0x20 added to each byte in 'A'..'Z' */
	for (; i + 8 <= sb->len; i += 8) {
		uint64_t w, low7, ge_a, gt_z, upper;

		memcpy(&w, sb->buf + i, 8);
		low7 = w & (0x7f * ones);
		ge_a = low7 + (0x80 - 'A') * ones; /* bit 7: >= 'A' */
		gt_z = low7 + (0x7f - 'Z') * ones; /* bit 7: > 'Z' */
		upper = ge_a & ~gt_z & ~w & (0x80 * ones);
		w |= upper >> 2;
		memcpy(*dst + i, &w, 8);
	}
	for (; i < sb->len; i++) {
		unsigned char ch = (unsigned char)sb->buf[i];

		(*dst)[i] = (char)(ch + ((unsigned char)(ch - 'A') < 26u) * 32);
	}
	(*dst)[sb->len] = '\0';
}

/* target - the body or rawbody text, built on first use */
static void target(struct eval_ctx *c, enum rule_type type, bool lower,
		   struct rules_text *t)
{
	struct rules_scratch *s = c->s;

	if (type == RULE_BODY) {
		if (!s->have_body) {
			build_body(c->in->report, &s->body);
			s->have_body = true;
		}
		if (lower && !s->have_body_lower) {
			lower_copy(&s->body, &s->body_lower,
				   &s->body_lower_alloc);
			s->have_body_lower = true;
		}
		t->text = sb_str(&s->body);
		t->lower = s->have_body_lower ? s->body_lower : NULL;
		t->len = s->body.len;
	} else {
		if (!s->have_raw) {
			build_rawbody(c->in->report, &s->raw);
			s->have_raw = true;
		}
		if (lower && !s->have_raw_lower) {
			lower_copy(&s->raw, &s->raw_lower, &s->raw_lower_alloc);
			s->have_raw_lower = true;
		}
		t->text = sb_str(&s->raw);
		t->lower = s->have_raw_lower ? s->raw_lower : NULL;
		t->len = s->raw.len;
	}
}

/*
 * prefilter_start - where pcre2 may start looking: no match can begin
 * before the first occurrence of one of the rule's literals less the
 * most a match spans before that literal; SIZE_MAX when none occurs
 */
static size_t prefilter_start(struct eval_ctx *c, const struct rule *r,
			      const struct rules_text *t)
{
	const struct prefilter *pf = &r->pf;
	struct rules_scratch *s = c->s;
	int raw = r->type == RULE_RAWBODY, i;
	size_t start = SIZE_MAX;

	if (!pf->ids)
		return 0;
	if (!s->scan[raw].done)
		litindex_scan(&c->rs->lix, t->text, t->lower, t->len,
			      &s->scan[raw]);
	for (i = 0; i < pf->n; i++) {
		uint32_t at = s->scan[raw].first[pf->ids[i]];
		size_t pre = pf->alt[i].maxpre, from;

		if (!at)
			continue;
		from = pre == WIDTH_INF || pre >= at - 1 ? 0 : at - 1 - pre;
		if (from < start)
			start = from;
	}
	return start;
}

static bool regex_match(struct eval_ctx *c, const struct rule *r, const char *s,
			size_t len, size_t start, int *utf_ok)
{
	uint32_t opts = 0;
	int rc;

	if (!r->code)
		return false;
	if (r->utf) {
		if (*utf_ok < 0)
			*utf_ok = utf8_valid(s, len);
		if (!*utf_ok)
			return false;
		opts |= PCRE2_NO_UTF_CHECK;
	}
	c->res->regex_runs++;
	rc = pcre2_match(r->code, (PCRE2_SPTR)s, len, start, opts, c->s->md,
			 c->rs->mctx);
	if (rc >= 0)
		return true;
	if (rc != PCRE2_ERROR_NOMATCH)
		c->res->limit_hits++;
	return false;
}

struct window {
	size_t from, to; /* the first and last offsets a match may start at */
};

#define WINDOWS_MAX 128

static int cmp_window(const void *pa, const void *pb)
{
	const struct window *a = pa, *b = pb;

	if (a->from != b->from)
		return a->from < b->from ? -1 : 1;
	return a->to < b->to ? -1 : a->to > b->to;
}

/*
 * windowed_match - run the regex only where a match can start: a match
 * holds one of the rule's literals, at most maxpre bytes after its
 * start, so every occurrence q of a literal allows starts in
 * [q - maxpre, q].  One pcre2_match() per merged window, its offset
 * limit at the window's end: 1 match, 0 none, -1 too many windows
 * (the caller scans instead)
 */
static int windowed_match(struct eval_ctx *c, const struct rule *r,
			  const struct rules_text *t)
{
	const struct prefilter *pf = &r->pf;
	const struct litscan *ls = &c->s->scan[r->type == RULE_RAWBODY];
	struct window w[WINDOWS_MAX];
	size_t nw = 0, k, from, to;
	int i, rc;

	if (ls->full[pf->ci])
		return -1;
	for (i = 0; i < pf->n; i++) {
		size_t pre = pf->alt[i].maxpre;
		uint32_t o;

		for (o = ls->head[pf->ids[i]]; o; o = ls->occ[o - 1].next) {
			size_t q = ls->occ[o - 1].pos;

			if (nw == WINDOWS_MAX)
				return -1;
			w[nw].from = pre == WIDTH_INF || pre >= q ? 0 : q - pre;
			w[nw++].to = q;
		}
	}
	qsort(w, nw, sizeof(*w), cmp_window);
	for (k = 0; k < nw;) {
		from = w[k].from;
		to = w[k].to;
		for (k++; k < nw && w[k].from <= to + 1; k++)
			if (w[k].to > to)
				to = w[k].to;
		pcre2_set_offset_limit(c->s->wctx, to);
		c->res->regex_runs++;
		rc = pcre2_match(r->code, (PCRE2_SPTR)t->text, t->len, from, 0,
				 c->s->md, c->s->wctx);
		if (rc >= 0)
			return 1;
		if (rc != PCRE2_ERROR_NOMATCH) {
			c->res->limit_hits++;
			return 0;
		}
	}
	return 0;
}

static double eval_rule(struct eval_ctx *c, size_t i);

static double eval_meta(struct eval_ctx *c, const struct rule *r)
{
	double st[META_MAX_OPS];
	size_t sp = 0, k;

	for (k = 0; k < r->nops; k++) {
		const struct meta_op *op = &r->ops[k];
		double a, b;

		if (op->op == OP_NUM) {
			st[sp++] = op->num;
			continue;
		}
		if (op->op == OP_RULE) {
			st[sp++] = eval_rule(c, op->idx);
			continue;
		}
		if (op->op == OP_NOT || op->op == OP_NEG) {
			if (!sp)
				return 0;
			st[sp - 1] =
				op->op == OP_NOT ? !st[sp - 1] : -st[sp - 1];
			continue;
		}
		if (sp < 2)
			return 0;
		b = st[--sp];
		a = st[sp - 1];
		switch (op->op) {
		case OP_ADD:
			a = a + b;
			break;
		case OP_SUB:
			a = a - b;
			break;
		case OP_MUL:
			a = a * b;
			break;
		case OP_LT:
			a = a < b;
			break;
		case OP_LE:
			a = a <= b;
			break;
		case OP_GT:
			a = a > b;
			break;
		case OP_GE:
			a = a >= b;
			break;
		case OP_EQ:
			a = a == b;
			break;
		case OP_NE:
			a = a != b;
			break;
		case OP_AND:
			a = a != 0 && b != 0;
			break;
		case OP_OR:
			a = a != 0 || b != 0;
			break;
		default:
			a = 0;
		}
		st[sp - 1] = a;
	}
	return sp == 1 ? st[0] : 0;
}

static double eval_header(struct eval_ctx *c, const struct rule *r)
{
	const struct report *rep = c->in->report;
	struct rules_scratch *s = c->s;
	const char *subject;
	size_t len;
	int utf = -1;
	bool m;

	if (r->hook)
		return r->hook->fn(c->in, NULL, &r->args);
	if (r->hmode == HDR_EXISTS) {
		size_t i;

		if (strcmp(r->field, "EnvelopeFrom") == 0)
			return rep->envelope_from != NULL;
		if (strcmp(r->field, "EnvelopeTo") == 0)
			return rep->envelope_to != NULL;
		for (i = 0; i < rep->nheaders; i++)
			if (strcasecmp(rep->headers[i].name, r->field) == 0)
				return 1;
		return 0;
	}
	if (r->hmode == HDR_ALL) {
		if (!s->have_all) {
			build_all(rep, &s->all);
			s->have_all = true;
		}
		subject = sb_str(&s->all);
		len = s->all.len;
	} else {
		build_header(rep, r->field, r->hmode, &s->hdr);
		subject = sb_str(&s->hdr);
		len = s->hdr.len;
	}
	m = regex_match(c, r, subject, len, 0, &utf);
	return m != r->negate;
}

static double eval_text(struct eval_ctx *c, const struct rule *r)
{
	bool use_pf = r->pf.n && !(c->flags & RULES_NO_PREFILTER);
	struct rules_text t;
	size_t start = 0;

	/* the literal scan reads the lower-cased text, hooks may */
	target(c, r->type, use_pf || r->hook, &t);
	if (r->hook)
		return r->hook->fn(c->in, &t, &r->args);
	if (use_pf) {
		int m;

		start = prefilter_start(c, r, &t);
		if (start == SIZE_MAX) {
			c->res->prefiltered++;
			return 0;
		}
		if (r->code && !r->utf && (m = windowed_match(c, r, &t)) >= 0)
			return m;
	}
	return regex_match(c, r, t.text, t.len, start,
			   r->type == RULE_BODY ? &c->s->body_utf
						: &c->s->raw_utf);
}

static double eval_rule(struct eval_ctx *c, size_t i)
{
	const struct rule *r = &c->rs->rules[i];
	struct rules_result *res = c->res;
	double v = 0;

	if (res->state[i] == 2)
		return res->value[i];
	if (res->state[i] == 1)
		return 0; /* a cycle: rules_compile() reported it */
	res->state[i] = 1;
	switch (r->type) {
	case RULE_HEADER:
		v = eval_header(c, r);
		break;
	case RULE_BODY:
	case RULE_RAWBODY:
		v = eval_text(c, r);
		break;
	case RULE_META:
		v = eval_meta(c, r);
		break;
	default:
		break;
	}
	if (!isfinite(v))
		v = 0;
	res->value[i] = v;
	res->state[i] = 2;
	return v;
}

void rules_result_init(struct rules_result *res)
{
	memset(res, 0, sizeof(*res));
}

void rules_result_release(struct rules_result *res)
{
	struct rules_scratch *s = res->s;

	if (s) {
		pcre2_match_data_free(s->md);
		pcre2_match_context_free(s->wctx);
		sb_release(&s->body);
		sb_release(&s->raw);
		sb_release(&s->all);
		sb_release(&s->hdr);
		free(s->body_lower);
		free(s->raw_lower);
		for (int k = 0; k < 2; k++) {
			free(s->scan[k].first);
			free(s->scan[k].occ);
		}
		free(s);
	}
	free(res->value);
	free(res->state);
	memset(res, 0, sizeof(*res));
}

/*
 * rules_eval - evaluate every rule on one report
 *
 * Certain rules go first; when one fires, evaluation stops there
 * (res->certain) unless RULES_EVAL_ALL.  A res may be reused.
 */
void rules_eval(const struct ruleset *rs, const struct rules_input *in,
		unsigned flags, struct rules_result *res)
{
	struct eval_ctx c;
	size_t i;

	if (!res->value || res->n != rs->nrules) {
		/* (a fresh result for a ruleset without rules has none) */
		free(res->value);
		free(res->state);
		res->value = xcalloc(rs->nrules + 1, sizeof(*res->value));
		res->state = xcalloc(rs->nrules + 1, 1);
		res->n = rs->nrules;
	} else {
		memset(res->value, 0, rs->nrules * sizeof(*res->value));
		memset(res->state, 0, rs->nrules);
	}
	res->certain = false;
	res->limit_hits = res->regex_runs = res->prefiltered = 0;
	c.rs = rs;
	c.in = in;
	c.res = res;
	c.flags = flags;
	c.s = scratch_get(res);
	for (i = 0; i < rs->nrules; i++) {
		if (!rs->rules[i].info.certain)
			continue;
		if (eval_rule(&c, i) != 0)
			res->certain = true;
	}
	if (res->certain && !(flags & RULES_EVAL_ALL))
		return;
	for (i = 0; i < rs->nrules; i++)
		eval_rule(&c, i);
}

/* ---- the compiled snapshot -------------------------------------------------- */

/*
 * A snapshot is a clean, compiled ruleset in one file, so that a program
 * run once per message neither parses the rule files nor compiles every
 * regex (pcre2_compile() is about half of loading the text).  Host byte
 * order, with an endian mark:
 *
 *	"TRIAGERS", u32 version, u32 endian mark
 *	sources: str dir, str local, u32 n, n x (str path, u64 size,
 *		 u64 mtime s, u64 mtime ns, u64 inode)
 *	params: 5 x f64
 *	files: u32 n, n x str
 *	regexes: u32 n, u64 size, pcre2_serialize_encode() blob
 *	rules: u32 n, n x rule (put_rule())
 *	u32 CRC-32C of everything before it (rules_crc32c())
 *
 * (str: u32 length, UINT32_MAX for none, then the bytes and a NUL; a
 * literal: u32 length, the bytes and a NUL, u64 maxpre.)  rules_open()
 * reads the file into one buffer that the ruleset keeps: its strings
 * are used in place.  A snapshot is
 * used only when it is intact, the directory still holds the same rule
 * files (names, sizes, times, inodes) and the site file is the same (or
 * still absent), every hook it names exists and pcre2 accepts the blob
 * (the same pcre2 build); otherwise rules_open() returns NULL and the
 * caller parses the text.
 */
#define SNAP_MAGIC   "TRIAGERS"
#define SNAP_VERSION 2
#define SNAP_ENDIAN  0x01020304u
#define SNAP_MAX     (64u << 20)

/* CRC-32C (Castagnoli, reflected polynomial 0x82f63b78), a byte at a time */
static const uint32_t crc32c_table[256] = {
	0x00000000u, 0xf26b8303u, 0xe13b70f7u, 0x1350f3f4u, 0xc79a971fu,
	0x35f1141cu, 0x26a1e7e8u, 0xd4ca64ebu, 0x8ad958cfu, 0x78b2dbccu,
	0x6be22838u, 0x9989ab3bu, 0x4d43cfd0u, 0xbf284cd3u, 0xac78bf27u,
	0x5e133c24u, 0x105ec76fu, 0xe235446cu, 0xf165b798u, 0x030e349bu,
	0xd7c45070u, 0x25afd373u, 0x36ff2087u, 0xc494a384u, 0x9a879fa0u,
	0x68ec1ca3u, 0x7bbcef57u, 0x89d76c54u, 0x5d1d08bfu, 0xaf768bbcu,
	0xbc267848u, 0x4e4dfb4bu, 0x20bd8edeu, 0xd2d60dddu, 0xc186fe29u,
	0x33ed7d2au, 0xe72719c1u, 0x154c9ac2u, 0x061c6936u, 0xf477ea35u,
	0xaa64d611u, 0x580f5512u, 0x4b5fa6e6u, 0xb93425e5u, 0x6dfe410eu,
	0x9f95c20du, 0x8cc531f9u, 0x7eaeb2fau, 0x30e349b1u, 0xc288cab2u,
	0xd1d83946u, 0x23b3ba45u, 0xf779deaeu, 0x05125dadu, 0x1642ae59u,
	0xe4292d5au, 0xba3a117eu, 0x4851927du, 0x5b016189u, 0xa96ae28au,
	0x7da08661u, 0x8fcb0562u, 0x9c9bf696u, 0x6ef07595u, 0x417b1dbcu,
	0xb3109ebfu, 0xa0406d4bu, 0x522bee48u, 0x86e18aa3u, 0x748a09a0u,
	0x67dafa54u, 0x95b17957u, 0xcba24573u, 0x39c9c670u, 0x2a993584u,
	0xd8f2b687u, 0x0c38d26cu, 0xfe53516fu, 0xed03a29bu, 0x1f682198u,
	0x5125dad3u, 0xa34e59d0u, 0xb01eaa24u, 0x42752927u, 0x96bf4dccu,
	0x64d4cecfu, 0x77843d3bu, 0x85efbe38u, 0xdbfc821cu, 0x2997011fu,
	0x3ac7f2ebu, 0xc8ac71e8u, 0x1c661503u, 0xee0d9600u, 0xfd5d65f4u,
	0x0f36e6f7u, 0x61c69362u, 0x93ad1061u, 0x80fde395u, 0x72966096u,
	0xa65c047du, 0x5437877eu, 0x4767748au, 0xb50cf789u, 0xeb1fcbadu,
	0x197448aeu, 0x0a24bb5au, 0xf84f3859u, 0x2c855cb2u, 0xdeeedfb1u,
	0xcdbe2c45u, 0x3fd5af46u, 0x7198540du, 0x83f3d70eu, 0x90a324fau,
	0x62c8a7f9u, 0xb602c312u, 0x44694011u, 0x5739b3e5u, 0xa55230e6u,
	0xfb410cc2u, 0x092a8fc1u, 0x1a7a7c35u, 0xe811ff36u, 0x3cdb9bddu,
	0xceb018deu, 0xdde0eb2au, 0x2f8b6829u, 0x82f63b78u, 0x709db87bu,
	0x63cd4b8fu, 0x91a6c88cu, 0x456cac67u, 0xb7072f64u, 0xa457dc90u,
	0x563c5f93u, 0x082f63b7u, 0xfa44e0b4u, 0xe9141340u, 0x1b7f9043u,
	0xcfb5f4a8u, 0x3dde77abu, 0x2e8e845fu, 0xdce5075cu, 0x92a8fc17u,
	0x60c37f14u, 0x73938ce0u, 0x81f80fe3u, 0x55326b08u, 0xa759e80bu,
	0xb4091bffu, 0x466298fcu, 0x1871a4d8u, 0xea1a27dbu, 0xf94ad42fu,
	0x0b21572cu, 0xdfeb33c7u, 0x2d80b0c4u, 0x3ed04330u, 0xccbbc033u,
	0xa24bb5a6u, 0x502036a5u, 0x4370c551u, 0xb11b4652u, 0x65d122b9u,
	0x97baa1bau, 0x84ea524eu, 0x7681d14du, 0x2892ed69u, 0xdaf96e6au,
	0xc9a99d9eu, 0x3bc21e9du, 0xef087a76u, 0x1d63f975u, 0x0e330a81u,
	0xfc588982u, 0xb21572c9u, 0x407ef1cau, 0x532e023eu, 0xa145813du,
	0x758fe5d6u, 0x87e466d5u, 0x94b49521u, 0x66df1622u, 0x38cc2a06u,
	0xcaa7a905u, 0xd9f75af1u, 0x2b9cd9f2u, 0xff56bd19u, 0x0d3d3e1au,
	0x1e6dcdeeu, 0xec064eedu, 0xc38d26c4u, 0x31e6a5c7u, 0x22b65633u,
	0xd0ddd530u, 0x0417b1dbu, 0xf67c32d8u, 0xe52cc12cu, 0x1747422fu,
	0x49547e0bu, 0xbb3ffd08u, 0xa86f0efcu, 0x5a048dffu, 0x8ecee914u,
	0x7ca56a17u, 0x6ff599e3u, 0x9d9e1ae0u, 0xd3d3e1abu, 0x21b862a8u,
	0x32e8915cu, 0xc083125fu, 0x144976b4u, 0xe622f5b7u, 0xf5720643u,
	0x07198540u, 0x590ab964u, 0xab613a67u, 0xb831c993u, 0x4a5a4a90u,
	0x9e902e7bu, 0x6cfbad78u, 0x7fab5e8cu, 0x8dc0dd8fu, 0xe330a81au,
	0x115b2b19u, 0x020bd8edu, 0xf0605beeu, 0x24aa3f05u, 0xd6c1bc06u,
	0xc5914ff2u, 0x37faccf1u, 0x69e9f0d5u, 0x9b8273d6u, 0x88d28022u,
	0x7ab90321u, 0xae7367cau, 0x5c18e4c9u, 0x4f48173du, 0xbd23943eu,
	0xf36e6f75u, 0x0105ec76u, 0x12551f82u, 0xe03e9c81u, 0x34f4f86au,
	0xc69f7b69u, 0xd5cf889du, 0x27a40b9eu, 0x79b737bau, 0x8bdcb4b9u,
	0x988c474du, 0x6ae7c44eu, 0xbe2da0a5u, 0x4c4623a6u, 0x5f16d052u,
	0xad7d5351u,
};

static uint32_t crc32c_sw(uint32_t crc, const unsigned char *p, size_t n)
{
	for (; n; p++, n--)
		crc = crc32c_table[(crc ^ *p) & 0xff] ^ (crc >> 8);
	return crc;
}

#if defined(__x86_64__) && defined(__GNUC__)
#define HAVE_CRC32C_HW 1
/* the same with the SSE4.2 crc32 instruction, eight bytes at a time */
__attribute__((target("sse4.2"))) static uint32_t crc32c_hw(
	uint32_t crc, const unsigned char *p, size_t n)
{
	uint64_t c = crc, w;

	for (; n >= 8; p += 8, n -= 8) {
		memcpy(&w, p, 8);
		c = __builtin_ia32_crc32di(c, w);
	}
	crc = (uint32_t)c;
	for (; n; p++, n--)
		crc = __builtin_ia32_crc32qi(crc, *p);
	return crc;
}
#endif

/* rules_crc32c - CRC-32C of data (the SSE4.2 instruction when present) */
uint32_t rules_crc32c(const void *data, size_t len)
{
	const unsigned char *p = data;

#ifdef HAVE_CRC32C_HW
	if (__builtin_cpu_supports("sse4.2"))
		return ~crc32c_hw(~0u, p, len);
#endif
	return ~crc32c_sw(~0u, p, len);
}

/* rules_crc32c_portable - the same without the instruction (tests) */
uint32_t rules_crc32c_portable(const void *data, size_t len)
{
	return ~crc32c_sw(~0u, data, len);
}

static void put(struct strbuf *sb, const void *p, size_t n)
{
	sb_add(sb, p, n);
}

static void put_u32(struct strbuf *sb, uint32_t v)
{
	put(sb, &v, sizeof(v));
}

static void put_u64(struct strbuf *sb, uint64_t v)
{
	put(sb, &v, sizeof(v));
}

static void put_f64(struct strbuf *sb, double v)
{
	put(sb, &v, sizeof(v));
}

static void put_str(struct strbuf *sb, const char *str)
{
	size_t n = str ? strlen(str) : 0;

	put_u32(sb, str ? (uint32_t)n : UINT32_MAX);
	if (str)
		put(sb, str, n + 1); /* with its NUL, read in place */
}

struct cursor {
	const unsigned char *p, *end;
	bool bad;
};

static void get(struct cursor *c, void *out, size_t n)
{
	if (c->bad || (size_t)(c->end - c->p) < n) {
		c->bad = true;
		memset(out, 0, n);
		return;
	}
	memcpy(out, c->p, n);
	c->p += n;
}

static uint32_t get_u32(struct cursor *c)
{
	uint32_t v;

	get(c, &v, sizeof(v));
	return v;
}

static uint64_t get_u64(struct cursor *c)
{
	uint64_t v;

	get(c, &v, sizeof(v));
	return v;
}

static double get_f64(struct cursor *c)
{
	double v;

	get(c, &v, sizeof(v));
	return v;
}

/*
 * get_str - a string in the snapshot's buffer (not a copy); NULL when
 * written as none or on error
 */
static char *get_str(struct cursor *c)
{
	uint32_t n = get_u32(c);
	char *str;

	if (c->bad || n == UINT32_MAX)
		return NULL;
	if ((size_t)(c->end - c->p) <= n || c->p[n] != '\0') {
		c->bad = true;
		return NULL;
	}
	str = (char *)c->p;
	c->p += n + 1;
	return str;
}

struct source {
	char *path;
	uint64_t size, ino, sec, nsec;
};

/* sources - the files rules_add_dir(dir) and the site file would read */
static int sources(const char *dir, const char *local, struct source **out,
		   size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t alloc = 0, k = 0, i;
	struct stat st;
	int ret = 0;

	*out = NULL;
	*n = 0;
	if (!d)
		return -1;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' || !ends_with(de->d_name, ".rules"))
			continue;
		ALLOC_GROW(names, k, alloc);
		names[k++] = xasprintf("%s/%s", dir, de->d_name);
	}
	closedir(d);
	qsort(names, k, sizeof(*names), cmp_str);
	if (local && *local && stat(local, &st) == 0) {
		ALLOC_GROW(names, k, alloc);
		names[k++] = xstrdup(local);
	}
	*out = xcalloc(k + 1, sizeof(**out));
	for (i = 0; i < k; i++) {
		(*out)[i].path = names[i];
		if (stat(names[i], &st) < 0) {
			ret = -1;
			continue;
		}
		(*out)[i].size = (uint64_t)st.st_size;
		(*out)[i].ino = (uint64_t)st.st_ino;
		(*out)[i].sec = (uint64_t)st.st_mtim.tv_sec;
		(*out)[i].nsec = (uint64_t)st.st_mtim.tv_nsec;
	}
	free(names);
	*n = k;
	return ret;
}

static void sources_free(struct source *src, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(src[i].path);
	free(src);
}

enum {
	SNAP_NEGATE = 1 << 8,
	SNAP_UTF = 1 << 9,
	SNAP_SCORED = 1 << 10,
	SNAP_CERTAIN = 1 << 11,
	SNAP_PF_CI = 1 << 16,
};

static void put_rule(struct strbuf *sb, const struct rule *r, int32_t code)
{
	size_t k;
	int i;

	put_str(sb, r->name);
	put_u32(sb, (uint32_t)r->type);
	put_u32(sb, (uint32_t)r->def_file);
	put_u32(sb, r->def_line);
	put_str(sb, r->field);
	put_u32(sb, (uint32_t)r->hmode | (r->negate ? SNAP_NEGATE : 0) |
			    (r->utf ? SNAP_UTF : 0) |
			    (r->scored ? SNAP_SCORED : 0) |
			    (r->certain ? SNAP_CERTAIN : 0));
	put_str(sb, r->pattern);
	put_u32(sb, r->options);
	put_u32(sb, (uint32_t)code);
	put_str(sb, r->hook ? r->hook->name : NULL);
	put_u32(sb, (uint32_t)r->args.argc);
	for (i = 0; i < r->args.argc; i++)
		put_str(sb, r->args.argv[i]);
	put_u32(sb, (uint32_t)r->nops);
	for (k = 0; k < r->nops; k++) {
		put_u32(sb, (uint32_t)r->ops[k].op);
		put_u64(sb, r->ops[k].idx);
		put_f64(sb, r->ops[k].num);
	}
	for (i = 0; i < CLASS_N; i++)
		put_f64(sb, r->score[i]);
	put_str(sb, r->describe);
	put_u32(sb, (uint32_t)r->pf.n | (r->pf.ci ? SNAP_PF_CI : 0));
	for (i = 0; i < r->pf.n; i++) {
		put_u32(sb, (uint32_t)r->pf.alt[i].len);
		put(sb, r->pf.alt[i].s, r->pf.alt[i].len);
		put(sb, "", 1);
		put_u64(sb, r->pf.alt[i].maxpre);
	}
}

/*
 * rules_save - write a clean ruleset, loaded from dir (and the site file
 * local, or NULL), to path atomically; -1 after a message
 */
int rules_save(struct ruleset *rs, const char *dir, const char *local,
	       const char *path)
{
	struct strbuf sb = STRBUF_INIT(SNAP_MAX);
	const pcre2_code **codes;
	int32_t *index;
	struct source *src;
	uint8_t *blob = NULL;
	PCRE2_SIZE blob_len = 0;
	size_t nsrc, i, ncodes = 0;
	int ret = -1;

	if (rules_compile(rs))
		return error("%s: the rules have errors; not saved", path);
	if (sources(dir, local, &src, &nsrc) < 0) {
		sources_free(src, nsrc);
		return error("%s: cannot read the rule files", dir);
	}
	codes = xcalloc(rs->nrules + 1, sizeof(*codes));
	index = xcalloc(rs->nrules + 1, sizeof(*index));
	for (i = 0; i < rs->nrules; i++) {
		index[i] = rs->rules[i].code ? (int32_t)ncodes : -1;
		if (rs->rules[i].code)
			codes[ncodes++] = rs->rules[i].code;
	}
	if (ncodes && pcre2_serialize_encode(codes, (int32_t)ncodes, &blob,
					     &blob_len, NULL) < 0) {
		error("%s: pcre2 cannot serialize the regexes", path);
		goto out;
	}
	put(&sb, SNAP_MAGIC, 8);
	put_u32(&sb, SNAP_VERSION);
	put_u32(&sb, SNAP_ENDIAN);
	put_str(&sb, dir);
	put_str(&sb, local && *local ? local : "");
	put_u32(&sb, (uint32_t)nsrc);
	for (i = 0; i < nsrc; i++) {
		put_str(&sb, src[i].path);
		put_u64(&sb, src[i].size);
		put_u64(&sb, src[i].sec);
		put_u64(&sb, src[i].nsec);
		put_u64(&sb, src[i].ino);
	}
	for (i = 0; i < CLASS_N; i++)
		put_f64(&sb, rs->params.threshold[i]);
	put_f64(&sb, rs->params.band);
	put_f64(&sb, rs->params.user_bias);
	put_u32(&sb, (uint32_t)rs->nfiles);
	for (i = 0; i < rs->nfiles; i++)
		put_str(&sb, rs->files[i]);
	put_u32(&sb, (uint32_t)ncodes);
	put_u64(&sb, blob_len);
	put(&sb, blob, blob_len);
	put_u32(&sb, (uint32_t)rs->nrules);
	for (i = 0; i < rs->nrules; i++)
		put_rule(&sb, &rs->rules[i], index[i]);
	put_u32(&sb, rules_crc32c(sb.buf, sb.len));
	if (sb.len + 1 >= SNAP_MAX) {
		error("%s: the rules are too large to save", path);
		goto out;
	}
	ret = write_file_atomic(path, sb.buf, sb.len, 0644);
out:
	if (blob)
		pcre2_serialize_free(blob);
	free(codes);
	free(index);
	sources_free(src, nsrc);
	sb_release(&sb);
	return ret;
}

/* get_args - a rule's eval arguments, in the snapshot's buffer */
static bool get_args(struct cursor *c, struct rule *r)
{
	uint32_t n = get_u32(c), k;

	if (n > RULES_MAX_ARGS)
		return false;
	for (k = 0; k < n; k++) {
		const char *a = get_str(c);

		r->args.argv[k] = a ? a : "";
	}
	r->args.argc = (int)n;
	return !c->bad;
}

/* get_rule - one rule; takes its regex out of codes[] */
static bool get_rule(struct cursor *c, struct ruleset *rs, struct rule *r,
		     pcre2_code **codes, uint32_t ncodes)
{
	uint32_t flags, n, k;
	int32_t code;
	char *hook;
	int i;

	r->name = get_str(c);
	r->type = (enum rule_type)get_u32(c);
	r->def_file = (int)get_u32(c);
	r->def_line = get_u32(c);
	r->field = get_str(c);
	flags = get_u32(c);
	r->hmode = (enum hdr_mode)(flags & 0xff);
	r->negate = flags & SNAP_NEGATE;
	r->utf = flags & SNAP_UTF;
	r->scored = flags & SNAP_SCORED;
	r->certain = flags & SNAP_CERTAIN;
	r->pattern = get_str(c);
	r->options = get_u32(c);
	code = (int32_t)get_u32(c);
	hook = get_str(c);
	r->score_file = r->describe_file = r->tflags_file = r->ref_file = -1;
	r->certain_class = -1;
	if (c->bad || !r->name || !valid_name(r->name) ||
	    r->type < RULE_HEADER || r->type > RULE_META || r->def_file < 0 ||
	    (size_t)r->def_file >= rs->nfiles || r->hmode > HDR_EXISTS ||
	    code < -1 ||
	    (code >= 0 && ((uint32_t)code >= ncodes || !codes[code])))
		return false;
	if (code >= 0) {
		r->code = codes[code];
		codes[code] = NULL; /* the rule owns it now */
	}
	if (hook) {
		r->hook = hook_find(rs, hook);
		if (!r->hook)
			return false;
	}
	if (!get_args(c, r))
		return false;
	n = get_u32(c);
	if (n > META_MAX_OPS)
		return false;
	r->nops = n;
	r->ops = n ? arena_alloc(rs, n * sizeof(*r->ops)) : NULL;
	for (k = 0; k < n; k++) {
		r->ops[k].op = (enum meta_opcode)get_u32(c);
		r->ops[k].idx = get_u64(c);
		r->ops[k].num = get_f64(c);
		if (r->ops[k].op > OP_OR ||
		    (r->ops[k].op == OP_RULE && r->ops[k].idx >= rs->nrules))
			return false;
	}
	for (i = 0; i < CLASS_N; i++)
		r->score[i] = get_f64(c);
	r->describe = get_str(c);
	flags = get_u32(c);
	n = flags & 0xffff;
	if (n > PF_MAX_ALTS)
		return false;
	r->pf.ci = flags & SNAP_PF_CI;
	r->pf.alt = n ? arena_alloc(rs, n * sizeof(*r->pf.alt)) : NULL;
	for (k = 0; k < n; k++) {
		uint32_t len = get_u32(c);

		if (c->bad || len < RULES_PREFILTER_MIN ||
		    (size_t)(c->end - c->p) <= len || c->p[len] != '\0')
			return false;
		r->pf.alt[k].s = (char *)c->p;
		r->pf.alt[k].len = len;
		c->p += len + 1;
		r->pf.alt[k].maxpre = get_u64(c);
		r->pf.n = (int)k + 1;
	}
	/* each kind of rule has what it needs to run */
	if (r->type == RULE_META)
		return r->nops > 0 && !c->bad;
	if (r->hook)
		return !c->bad;
	if (r->hmode == HDR_EXISTS)
		return r->type == RULE_HEADER && r->field && !c->bad;
	return r->code && (r->type != RULE_HEADER || r->field) && !c->bad;
}

/*
 * rules_open - the ruleset rules_save() wrote to path, when it is intact
 * and still matches the rule files of dir and the site file local;
 * NULL (silently) otherwise
 */
struct ruleset *rules_open(const char *path, const char *dir, const char *local,
			   const struct rules_hook *hooks, size_t nhooks)
{
	struct ruleset *rs = NULL;
	struct source *src = NULL;
	pcre2_code **codes = NULL;
	char *buf;
	const char *sdir, *slocal;
	size_t len, nsrc = 0, i;
	uint32_t n, crc, ncodes = 0;
	uint64_t blob_len;
	struct cursor c;
	struct stat st;
	bool ok = false;
	FILE *f = fopen(path, "r");

	if (!f)
		return NULL;
	if (fstat(fileno(f), &st) < 0 || st.st_size < 8 + 3 * 4 ||
	    st.st_size >= SNAP_MAX) {
		fclose(f);
		return NULL;
	}
	buf = xmalloc((size_t)st.st_size + 1);
	len = fread(buf, 1, (size_t)st.st_size + 1, f);
	fclose(f);
	if (len != (size_t)st.st_size)
		goto out;
	memcpy(&crc, buf + len - 4, 4);
	if (crc != rules_crc32c(buf, len - 4) ||
	    memcmp(buf, SNAP_MAGIC, 8) != 0)
		goto out;
	c.p = (const unsigned char *)buf + 8;
	c.end = (const unsigned char *)buf + len - 4;
	c.bad = false;
	if (get_u32(&c) != SNAP_VERSION || get_u32(&c) != SNAP_ENDIAN)
		goto out;

	/* the same sources, unchanged */
	sdir = get_str(&c);
	slocal = get_str(&c);
	if (!sdir || !slocal || strcmp(sdir, dir) != 0 ||
	    strcmp(slocal, local && *local ? local : "") != 0 ||
	    sources(dir, local, &src, &nsrc) < 0 || get_u32(&c) != nsrc)
		goto out;
	for (i = 0; i < nsrc; i++) {
		const char *p = get_str(&c);

		if (!p || strcmp(p, src[i].path) != 0 ||
		    get_u64(&c) != src[i].size || get_u64(&c) != src[i].sec ||
		    get_u64(&c) != src[i].nsec || get_u64(&c) != src[i].ino)
			goto out;
	}

	rs = rules_new(hooks, nhooks);
	rs->snap = buf; /* the rules point into it from here on */
	buf = NULL;
	for (i = 0; i < CLASS_N; i++)
		rs->params.threshold[i] = get_f64(&c);
	rs->params.band = get_f64(&c);
	rs->params.user_bias = get_f64(&c);
	n = get_u32(&c);
	if (c.bad || n > 10000)
		goto out;
	for (i = 0; i < n; i++) {
		char *file = get_str(&c);

		if (!file)
			goto out;
		ALLOC_GROW(rs->files, rs->nfiles, rs->files_alloc);
		rs->files[rs->nfiles++] = file;
	}

	ncodes = get_u32(&c);
	blob_len = get_u64(&c);
	if (c.bad || ncodes > 1000000 || blob_len > (uint64_t)(c.end - c.p) ||
	    (ncodes && !blob_len))
		goto out;
	codes = xcalloc(ncodes + 1, sizeof(*codes));
	if (ncodes && pcre2_serialize_decode(codes, (int32_t)ncodes, c.p,
					     NULL) != (int32_t)ncodes)
		goto out;
	c.p += blob_len;

	n = get_u32(&c);
	if (c.bad || n > 1000000)
		goto out;
	rs->rules = xcalloc(n + 1, sizeof(*rs->rules));
	rs->rules_alloc = n + 1;
	rs->nrules = n;
	for (i = 0; i < n; i++)
		if (!get_rule(&c, rs, &rs->rules[i], codes, ncodes))
			goto out;
	if (c.p != c.end)
		goto out;
	for (i = 0; i < n; i++)
		if (hashmap_put(&rs->names, hash_str(rs->rules[i].name),
				rs->rules[i].name, (uint32_t)i) != i)
			goto out; /* a name twice */
	ok = rules_compile(rs) == 0;
out:
	if (!ok && rs) {
		rules_free(rs);
		rs = NULL;
	}
	for (i = 0; codes && i < ncodes; i++)
		pcre2_code_free(codes[i]);
	free(codes);
	sources_free(src, nsrc);
	free(buf);
	return rs;
}

/* ---- inline tests ----------------------------------------------------------- */

static bool looks_like_header_line(const char *s)
{
	if (!isalpha((unsigned char)*s))
		return false;
	while (isalnum((unsigned char)*s) || *s == '-')
		s++;
	return s[0] == ':' && (s[1] == ' ' || s[1] == '\0' || s[1] == '\n');
}

/* add_header_lines - "Name: value" lines into the report */
static void add_header_lines(struct report *r, const char *s, size_t len)
{
	const char *end = s + len;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *eol = nl ? nl : end;
		char *line = xmemdup0(s, (size_t)(eol - s));
		char *colon = strchr(line, ':');

		if (colon) {
			*colon = '\0';
			report_add_header(r, trim(line), trim(colon + 1));
		}
		free(line);
		s = nl ? nl + 1 : end;
	}
	if (report_header(r, "Subject")) {
		free(r->subject);
		r->subject = xstrdup(report_header(r, "Subject"));
	}
	if (report_header(r, "From")) {
		struct strbuf a = STRBUF_INIT(1024);

		free(r->from);
		r->from = xstrdup(report_header(r, "From"));
		rules_addresses(r->from, &a);
		free(r->from_addr);
		r->from_addr = sb_detach(&a, NULL);
	}
}

static void set_body(struct report *r, const char *s, size_t len)
{
	struct report_part *p = report_add_part(r);

	p->path = xstrdup("1");
	p->mime_type = xstrdup("text/plain");
	p->text = xmemdup0(s, len);
	p->len = len;
	p->flags = PART_TEXT;
	r->body = xmemdup0(s, len);
	r->body_len = len;
}

/*
 * test_report - the report a test TEXT stands for: header lines for a
 * header rule, body text for the others; a meta test whose TEXT starts
 * with a "Name: value" line has headers up to the first empty line
 */
static struct report *test_report(const struct rule *rule, const struct test *t)
{
	struct report *r = report_new();
	const char *split;

	if (rule->type == RULE_HEADER) {
		add_header_lines(r, t->text, t->len);
	} else if (rule->type == RULE_META && looks_like_header_line(t->text)) {
		split = strstr(t->text, "\n\n");
		if (split) {
			add_header_lines(r, t->text, (size_t)(split - t->text));
			set_body(r, split + 2,
				 t->len - (size_t)(split + 2 - t->text));
		} else {
			add_header_lines(r, t->text, t->len);
		}
	} else {
		set_body(r, t->text, t->len);
	}
	r->source = "test";
	return r;
}

/* rules_run_tests - run the inline tests; returns the number that failed */
int rules_run_tests(struct ruleset *rs, FILE *out, unsigned *ntests)
{
	struct rules_result a, b;
	unsigned ran = 0;
	int failed = 0;
	size_t i, k;

	rules_compile(rs);
	rules_result_init(&a);
	rules_result_init(&b);
	for (i = 0; i < rs->ntests; i++) {
		const struct test *t = &rs->tests[i];
		const struct rule *rule = &rs->rules[t->rule];
		struct rules_input in = { 0 };
		struct evidence *ev;
		struct report *r;
		bool fired;

		if (rule->type == RULE_NONE || t->file < rule->def_file)
			continue; /* unknown (linted) or redefined later */
		r = test_report(rule, t);
		in.report = r;
		in.symbols = rs->symbols;
		ev = rs->extract ? rs->extract(r) : NULL;
		in.evidence = ev;
		rules_eval(rs, &in, RULES_EVAL_ALL, &a);
		rules_eval(rs, &in, RULES_EVAL_ALL | RULES_NO_PREFILTER, &b);
		ran++;
		fired = a.value[t->rule] != 0;
		if (fired != t->ok) {
			fprintf(out, "%s:%u: test %s %s: the rule %s\n",
				rs->files[t->file], t->line, rule->name,
				t->ok ? "ok" : "fail",
				fired ? "fired" : "did not fire");
			failed++;
		}
		for (k = 0; k < rs->nrules; k++) {
			if (a.value[k] == b.value[k])
				continue;
			fprintf(out,
				"%s:%u: test %s: the prefilter changes the value of %s\n",
				rs->files[t->file], t->line, rule->name,
				rs->rules[k].name);
			failed++;
			break;
		}
		if (a.limit_hits) {
			fprintf(out,
				"%s:%u: test %s: a regex hit the pcre2 match limit\n",
				rs->files[t->file], t->line, rule->name);
			failed++;
		}
		if (ev && rs->release)
			rs->release(ev);
		report_free(r);
	}
	rules_result_release(&a);
	rules_result_release(&b);
	if (ntests)
		*ntests = ran;
	return failed;
}
