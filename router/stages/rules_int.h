/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rules_int - what the parts of the rules engine share
 *
 * DESCRIPTION
 *	Private to the rules*.c files; rules.h is the interface.
 *
 *	  rules.c            loading: the parser, meta expressions, hooks,
 *	                     compiling and checking, inline tests
 *	  rules_prefilter.c  the literal prefilter: the literals a regex
 *	                     needs, all found in one pass over a text
 *	  rules_eval.c       the targets (body, rawbody, headers) and the
 *	                     evaluation of a ruleset over a report
 *	  rules_snapshot.c   a compiled ruleset saved to and read from one
 *	                     file (rules.idx)
 */
#ifndef TRIAGE_RULES_INT_H
#define TRIAGE_RULES_INT_H

#ifndef PCRE2_CODE_UNIT_WIDTH
#define PCRE2_CODE_UNIT_WIDTH 8
#endif
#include <pcre2.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hashmap.h"
#include "rules.h"
#include "strbuf.h"

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
	PARAM_QUOTED,
	PARAM_N,
};

/* "phrases NAME a, b, ...": the vocabulary of the eval hook NAME */
struct phrase_list {
	char *name;
	int file;
	unsigned line;
	struct rules_phrases pub;
	bool owned; /* name, pub.v and its strings: not a snapshot's */
	bool used;  /* a rule runs its hook */
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

	struct phrase_list *lists;
	size_t nlists, lists_alloc;

	struct rules_params params;
	int param_file[PARAM_N];
	unsigned param_line[PARAM_N];

	pcre2_match_context *mctx;
	struct litindex lix;
	const struct symbols *symbols;
	struct history *history; /* owned */
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

/* ---- shared functions --------------------------------------------------- */

/* rules.c */
bool rl_valid_name(const char *s);
const struct rules_hook *rl_hook_find(const struct ruleset *rs,
				      const char *name);
int rl_cmp_str(const void *a, const void *b); /* qsort() of char *[] */
int rl_rule_files(const char *dir, char ***names, size_t *n);

/* rules_prefilter.c */
/* rl_prefilter_build - the literals one of which every match must contain */
void rl_prefilter_build(struct rule *rule);
void rl_litindex_reset(struct litindex *ix);
uint32_t rl_litindex_add(struct litindex *ix, const struct lit *l, bool ci);
void rl_litindex_finish(struct litindex *ix);
/*
 * rl_litindex_scan - ls->first[id] = 1 + the offset of the first
 * occurrence of every literal in the text (lower: the same, lower-cased),
 * 0 for those that do not occur; every occurrence in ls->occ[], chained
 * from ls->head[id] (up to OCC_MAX of each kind, caseless or not, else
 * ls->full[kind])
 */
void rl_litindex_scan(const struct litindex *ix, const char *text,
		      const char *lower, size_t len, struct litscan *ls);

#endif
