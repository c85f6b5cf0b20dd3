/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rules - SpamAssassin-style classification rules, kept as data
 *
 * DESCRIPTION
 *	The engine of the classify stage.  Rule files (classifiers/NN_name.rules,
 *	loaded in lexical order, then an optional site file such as
 *	/etc/triage/local.rules) hold one directive per line; a line whose
 *	first non-blank character is '#' is a comment and a line starting
 *	with white space continues the previous one.  classifiers/README is
 *	the full reference; in short:
 *
 *	  header NAME Field =~ /re/flags    also !~, Field:addr, ALL,
 *	  header NAME exists:Field          EnvelopeFrom, EnvelopeTo
 *	  header NAME eval:hook(args)
 *	  body NAME /re/flags               the report's own text
 *	  body NAME eval:hook(args)
 *	  rawbody NAME /re/flags            every text part, quotes kept
 *	  rawbody NAME eval:hook(args)
 *	  meta NAME expr                    && || ! ( ) + - * < <= > >= == !=
 *	  score NAME user=X fuzzer=Y ai=Z   any subset, the rest 0; "0" = all 0
 *	  describe NAME text
 *	  tflags NAME certain               a firing rule decides the class
 *	  test NAME ok|fail TEXT            inline regression test
 *	  phrases HOOK a, b, ...            the phrase list of eval hook HOOK
 *	  threshold CLASS N
 *	  uncertain_band N
 *	  user_bias N
 *	  quoted_weight N
 *
 *	Flags are i, m, s, x and u (UTF-8 mode; the subject must be valid
 *	UTF-8).  Every regex is compiled on its own at load time and matched
 *	with a match limit of RULES_MATCH_LIMIT and a depth limit; a match
 *	stopped by a limit counts as no match and is counted in
 *	rules_result.limit_hits.  Body and rawbody rules first look for a
 *	literal the pattern requires (extracted from the pattern source) and
 *	skip pcre2 when it is absent.
 *
 *	Targets.  "body" is the main text with quoted reply lines ("> ...",
 *	the "On ... wrote:" line before them, everything after "-----Original
 *	Message-----") removed, at most RULES_BODY_MAX bytes; "rawbody" is
 *	every decoded text part, attachments included, quotes kept, at most
 *	RULES_RAWBODY_MAX bytes.  Header rules see top-level headers only.
 *	Transport and archive headers (Received, Return-Path, Delivered-To,
 *	X-Original-To, ARC-*, DKIM-Signature, Authentication-Results, List-*,
 *	Precedence, ...: rules_header_hidden()) are never part of ALL; a rule
 *	sees them only by naming the field.  A missing header reads as "".
 *
 *	Overrides.  A later file may redefine a rule, or give it a new
 *	score, describe or tflags line: the last one wins.  The same file
 *	may not say the same thing twice.  Tests of a rule that a later file
 *	redefines are dropped.
 *
 *	Snapshot.  rules_save() writes a clean ruleset, compiled, to one
 *	file (the regexes as pcre2_serialize_encode() blobs) and
 *	rules_open() reads it back in a tenth of the time parsing takes,
 *	as long as it still matches the rule files it was made from.
 *
 * Ownership:
 *	struct ruleset owns everything it loaded; strings in rule_info are
 *	valid until rules_free().  struct rules_result is the caller's;
 *	rules_result_release() frees its arrays.  Hooks borrow their input.
 *	A compiled ruleset is only read by rules_eval(): threads may share
 *	one, each with its own rules_result.
 *
 * Errors:
 *	Loading never stops at a bad line: every problem is recorded with
 *	its file and line, the offending rule is left out, and
 *	rules_compile()/rules_lint() return the number of errors.
 *	rules_add_file() and rules_add_dir() return -1 when a file cannot be
 *	read (also recorded as a problem).
 */
#ifndef TRIAGE_RULES_H
#define TRIAGE_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct report;
struct evidence;
struct symbols;
struct history;
struct ruleset;
struct rules_scratch;

/* The classes rules score, and the verdict that goes to a human. */
enum {
	CLASS_USER,
	CLASS_FUZZER,
	CLASS_AI,
	CLASS_N,
	CLASS_UNCERTAIN = CLASS_N,
};

#define RULES_BODY_MAX (64u << 10)
/* quoted_weight when the rules set none */
#define RULES_QUOTED_WEIGHT 0.5
#define RULES_RAWBODY_MAX   (128u << 10)
/* the whole text the forward carries, read by the second pass
 * (RULES_WHOLE_TEXT): past RULES_RAWBODY_MAX too, so that a long log
 * cannot push an AI text out of the rules' sight */
#define RULES_WHOLE_MAX	     (1u << 20)
#define RULES_HEADER_MAX     (8u << 10)
#define RULES_ALL_MAX	     (32u << 10)
#define RULES_FILE_MAX	     (1u << 20)
#define RULES_MATCH_LIMIT    100000
#define RULES_DEPTH_LIMIT    5000
#define RULES_HEAP_LIMIT_KIB 20000
#define RULES_NAME_MAX	     64
#define RULES_MAX_ARGS	     16
#define RULES_META_MAX_DEPTH 64
#define RULES_PREFILTER_MIN  3
#define RULES_PHRASES_MAX    64 /* phrases in one list */
#define RULES_PHRASE_MAX     64 /* bytes of one phrase */

enum rule_type {
	RULE_NONE,
	RULE_HEADER,
	RULE_BODY,
	RULE_RAWBODY,
	RULE_META,
};

/* what a hook may be used in: 1 << RULE_HEADER | 1 << RULE_BODY ... */
#define RULES_ON(type) (1u << (type))

/*
 * A hook's phrase list: "phrases NAME a, b, ..." in the rule files gives
 * the hook NAME its vocabulary (lower case, at most RULES_PHRASES_MAX
 * phrases of 2 to RULES_PHRASE_MAX bytes each), so that the words a hook
 * counts are rules data, not C.
 */
struct rules_phrases {
	size_t n;
	const char *const *v;
};

struct rules_args {
	int argc;
	const char *argv[RULES_MAX_ARGS];
	const struct rules_phrases
		*phrases; /* a hook's list, if it reads one */
};

/* What is being classified; evidence, model and symbols may be NULL. */
struct rules_input {
	const struct report *report;
	const struct evidence *evidence;
	const double *model; /* [CLASS_N] posterior probabilities */
	const struct symbols *symbols;
	/*
	 * the report's claims (claims.h), checked once by the first hook
	 * that weighs them; NULL: each such hook checks them itself
	 */
	struct claims_memo *claims;
	/* the commit history the claims' commit ids are checked against */
	const struct history *history;
};

/* A rule's target text as hooks see it (NUL-terminated, lower: ASCII) */
struct rules_text {
	const char *text;
	const char *lower;
	size_t len;
};

/*
 * An eval: hook.  fn returns the rule's value, 0 meaning "did not
 * fire"; text is the body/rawbody target, NULL for header hooks.
 * check validates the arguments at load time and returns NULL or a
 * message; it may be NULL.
 */
struct rules_hook {
	const char *name;
	unsigned on; /* RULES_ON(...) */
	int min_args, max_args;
	const char *(*check)(const struct rules_args *args);
	double (*fn)(const struct rules_input *in, const struct rules_text *t,
		     const struct rules_args *args);
	bool phrases; /* reads the phrase list of its name (args->phrases) */
};

/* The public view of one rule. */
struct rule_info {
	const char *name;
	const char *describe; /* "" when none */
	const char *file;
	unsigned line;
	enum rule_type type;
	double score[CLASS_N];
	bool helper;	   /* "__NAME": never scored */
	bool certain;	   /* tflags certain */
	int certain_class; /* the class a certain rule decides, or -1 */
	const char *hook;  /* eval hook name, or NULL */
};

struct rules_params {
	double threshold[CLASS_N];
	double band;	  /* uncertain_band */
	double user_bias; /* user_bias */
	/* quoted_weight: what the AI and fuzzer rules' score counts for
	 * that only the quoted, after-a-marker or attached text earns */
	double quoted_weight;
};

struct rules_result {
	double *value;	      /* per rule; 0 = did not fire */
	unsigned char *state; /* private */
	size_t n;
	bool certain;		 /* stopped after a certain rule fired */
	unsigned limit_hits;	 /* matches stopped by a pcre2 limit */
	unsigned regex_runs;	 /* pcre2_match() calls made */
	unsigned prefiltered;	 /* regex rules skipped by the prefilter */
	struct rules_scratch *s; /* private */
};

enum {
	RULES_EVAL_ALL = 1 << 0,     /* do not stop after a certain rule */
	RULES_NO_PREFILTER = 1 << 1, /* always run pcre2 (tests) */
	/* "body" reads the whole text: rules_whole_text() of the main
	 * text, then of every other text part; only the rules with an ai
	 * or fuzzer score (and the rules they read) are evaluated, what
	 * the quoted text may earn: every other rule's value is 0 */
	RULES_WHOLE_TEXT = 1 << 2,
};

/* loading */
struct ruleset *rules_new(const struct rules_hook *hooks, size_t nhooks);
void rules_free(struct ruleset *rs);
int rules_add_text(struct ruleset *rs, const char *name, const char *text,
		   size_t len);
int rules_add_file(struct ruleset *rs, const char *path);
int rules_add_dir(struct ruleset *rs, const char *dir);
int rules_compile(struct ruleset *rs);

/*
 * rules_lint - compile if needed and print every problem as
 * "file:line: message" (warnings with "warning: "); returns the number
 * of errors
 */
int rules_lint(struct ruleset *rs, FILE *out);

/*
 * rules_run_tests - run every inline test (each also without the
 * prefilter, which must not change any rule's value); prints failures
 * as "file:line: ..." and returns their number; *ntests gets the count
 */
int rules_run_tests(struct ruleset *rs, FILE *out, unsigned *ntests);

/*
 * rules_problem - problem i as "file:line: message" in buf; returns 1 for
 * a warning, 0 for an error
 */
size_t rules_nproblems(const struct ruleset *rs);
int rules_problem(const struct ruleset *rs, size_t i, char *buf, size_t size);

/*
 * rules_save - write a clean ruleset that was loaded from dir and the
 * site file local (or NULL) to path, as a compiled snapshot that
 * rules_open() reads back without parsing or compiling; -1 after a
 * message
 */
int rules_save(struct ruleset *rs, const char *dir, const char *local,
	       const char *path);

/*
 * rules_open - the snapshot at path, if it is intact, was built by this
 * pcre2 and still matches the rule files of dir and the site file local
 * (same names, sizes, times and inodes); NULL, silently, otherwise
 */
struct ruleset *rules_open(const char *path, const char *dir, const char *local,
			   const struct rules_hook *hooks, size_t nhooks);

/* queries */
size_t rules_count(const struct ruleset *rs);
const struct rule_info *rules_info(const struct ruleset *rs, size_t i);
int rules_find(const struct ruleset *rs, const char *name);
const struct rules_params *rules_params(const struct ruleset *rs);
size_t rules_nfiles(const struct ruleset *rs);
void rules_set_symbols(struct ruleset *rs, const struct symbols *symbols);

/*
 * rules_set_evidence - how rules_run_tests() gets evidence for a test's
 * report (evidence_extract/evidence_free); without it tests run with
 * no evidence, so evidence hooks never fire in inline tests
 */
void rules_set_evidence(struct ruleset *rs,
			struct evidence *(*extract)(const struct report *r),
			void (*release)(struct evidence *ev));
const struct symbols *rules_symbols(const struct ruleset *rs);

/*
 * rules_own_history - the commit history (experts_history.h) the claims
 * are checked against; the ruleset frees it (rules_free())
 */
void rules_own_history(struct ruleset *rs, struct history *h);
const struct history *rules_history(const struct ruleset *rs);

/* rules_phrases - the phrase list of hook name ("phrases name ..."), or NULL */
const struct rules_phrases *rules_phrases(const struct ruleset *rs,
					  const char *name);

/* evaluation */
void rules_result_init(struct rules_result *res);
void rules_result_release(struct rules_result *res);
void rules_eval(const struct ruleset *rs, const struct rules_input *in,
		unsigned flags, struct rules_result *res);

/*
 * rules_crc32c - CRC-32C (Castagnoli) of data, the snapshot's check:
 * the SSE4.2 crc32 instruction when the CPU has it, else a table;
 * rules_crc32c_portable() always uses the table (tests)
 */
uint32_t rules_crc32c(const void *data, size_t len);
uint32_t rules_crc32c_portable(const void *data, size_t len);

/* helpers (exported for hooks and tests) */
const char *rules_class_name(int cls);
int rules_class_parse(const char *s);
bool rules_header_hidden(const char *name);

/*
 * rules_own_text - the report's own words: text without quoted reply
 * lines, their "On ... wrote:" attribution, and anything after an
 * "-----Original Message-----" line; appends to out (bounded by its cap)
 */
struct strbuf;
void rules_own_text(const char *text, size_t len, struct strbuf *out);

/*
 * rules_whole_text - all of text, quote marks (">", "> > ") removed from
 * each line: what the forward carries, read as the sender's own words;
 * appends to out (bounded by its cap)
 */
void rules_whole_text(const char *text, size_t len, struct strbuf *out);

/*
 * rules_text_lines - the nonblank lines of r's own text (the body
 * target up to a "-- " signature line, other inline text parts, a
 * forwarded message/rfc822) and of the rest: what the main text quotes
 * or has after an "-----Original Message-----" line, and its text
 * attachments
 */
void rules_text_lines(const struct report *r, unsigned *own, unsigned *rest);

/*
 * rules_whole_differs - the whole text (RULES_WHOLE_TEXT) is more than
 * the own text: something is quoted, follows a marker or is another
 * text part
 */
bool rules_whole_differs(const struct report *r);

/*
 * rules_addresses - the bare addresses of an address header value, lower
 * case, one per line, appended to out
 */
void rules_addresses(const char *value, struct strbuf *out);

#endif
