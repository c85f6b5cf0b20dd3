/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * classify - the classify stage: rules and model to user|fuzzer|ai|uncertain
 *
 * DESCRIPTION
 *	classify_report() evaluates a ruleset (rules.h) on a report and its
 *	evidence and decides its class:
 *
 *	  user       a human hit the problem on a real system (an LLM-polished
 *	             report that carries real logs is still user)
 *	  fuzzer     sent by a bot, or a human relaying what a fuzzer, a CI or
 *	             a static checker found
 *	  ai         mostly LLM-written text about a problem nobody hit
 *	  uncertain  too close to call: a human decides
 *
 *	The rules read the sender's own text (rules.h "body"); the AI and
 *	fuzzer rules then read the whole text the forward carries, quoted
 *	lines, what follows an "-----Original Message-----" marker and
 *	every other text part included (RULES_WHOLE_TEXT, the model's
 *	posteriors of that text), and what fires only there adds its ai and
 *	fuzzer score times "quoted_weight" (never user points, never below
 *	what the own text scored): one marker line or a quote prefix no
 *	longer hides a report from them.
 *
 *	Decision, with s[c] the sum of the scores of the rules that fired,
 *	T[c] = "threshold c", B = "uncertain_band", U = "user_bias":
 *
 *	  1. A rule with "tflags certain" that fires decides its class (bot
 *	     senders, from headers) and evaluation stops.  If certain rules of
 *	     several classes fire, the class with the larger sum of their
 *	     scores wins; a tie is uncertain.
 *	  2. If no class reaches its threshold: uncertain when fuzzer or ai
 *	     is "in contention" and "beats user" (below), else user.
 *	  3. Otherwise W, the class with the highest score among those that
 *	     reach their threshold (ties go to user, then fuzzer), is
 *	     compared with R, the best other class:
 *	       W = ai and s[ai] - s[user] < U      -> user   (user bias)
 *	       W = user and R = ai                 -> user   (user bias)
 *	       R in contention, s[W] - s[R] < B    -> uncertain
 *	       otherwise                           -> W
 *	  "In contention" means s[c] >= T[c] - B: the class came within the
 *	  band of its own threshold.  "Beats user" means s[c] > s[user], and
 *	  for ai s[ai] - s[user] >= U: a genuine user report sent to the AI
 *	  quarantine is the worst error.
 *
 *	Confidence is 1 for a certain rule, else the softmax weight of the
 *	decided class over the three scores at a temperature of
 *	CLASSIFY_TEMPERATURE points (for uncertain: of the class the scores
 *	lean to).
 *
 *	The statistical model votes through graded pseudo-rules, as Bayes
 *	does in SpamAssassin: the caller passes its posterior probabilities
 *	(double[CLASS_N], or NULL when there is no trained model) and rules
 *	such as "body MODEL_AI_95 eval:model(ai, 0.95, 1.00)" fire when the
 *	posterior of the class lies in [lo, hi).  Their scores live in the
 *	rule files; verdict.model[] is their share of verdict.score[].
 *
 *	Eval hooks (classify_hooks[], small pure functions of the report,
 *	its evidence and the rule's target text; a hook returns 0 when it
 *	does not fire and its value otherwise, which meta rules may compare):
 *
 *	  has_oops_trace()          the evidence holds a crash report
 *	  real_hardware()           a "Hardware name:" that is not virtual
 *	  qemu_hardware()           a virtual machine's "Hardware name:"
 *	  has_reproducer([c|syz|steps]...)  a reproducer of those kinds (any)
 *	  has_bisect()              a "first bad commit"
 *	  distro_kernel()           a distribution kernel version
 *	  kernel_version_given()    a kernel version the reporter ran
 *	  dmesg_timestamps()        timestamped dmesg lines
 *	  syzbot_report()           a syzbot report or a reply to one
 *	  attachment_named(word...) an attachment whose file name contains
 *	                            one of the words (any case)
 *	  cvss_impact_template([n]) n+ (1) distinct CVSS/CWE/"Attack Vector"/
 *	                            "Impact:" markers, when no crash is shown
 *	  theoretical_language([n[, d]])  n+ (2) "could lead to", "may allow",
 *	                            "malicious server"... and at least d per
 *	                            1000 words; the value is the density
 *	  llm_headings([n])         n+ (3) distinct LLM-style section headings
 *	                            (Summary, Root Cause, Impact, Suggested
 *	                            Fix ...) as markdown, bold, numbered, ALL
 *	                            CAPS or "Heading:" lines
 *	  first_person_observation([n])  n+ (1) "my laptop", "after
 *	                            upgrading", "since 6.x", "every boot" ...
 *	  hardware_ids()            vendor:device IDs ("[14c3:0608]", "VID
 *	                            17e9:6000"); the value is the count
 *	  source_lines([n])         n+ (1) lines of C source (ending in ';',
 *	                            '{' or '}', with C punctuation, few words)
 *	  model(class, lo, hi)      the model's posterior for class in [lo, hi)
 *	  unknown_functions([n[, c[, share]]])
 *	                            n+ (1) functions written as name() that the
 *	                            symbol index does not know and could,
 *	                            of c+ (1) names it could judge, the
 *	                            unknown ones share+ (0) of them
 *	                            (needs rules_set_symbols(); in
 *	                            classify_symbols.c)
 *
 *	The words cvss_impact_template(), theoretical_language(),
 *	llm_headings() and first_person_observation() look for are rules
 *	data: each reads the phrase list of its name ("phrases
 *	llm_headings summary, root cause, ..." in classifiers/), which a site
 *	file may replace.
 *
 *	Configuration (routes.conf): rules_dir (default DATADIR/classifiers)
 *	and local_rules (default SYSCONFDIR/local.rules, optional).  Loading
 *	the text costs a program that runs once per message most of a
 *	millisecond; 'triage check-rules --compile' writes a snapshot,
 *	STATE_DIR/rules.idx, that classify_open() reads instead while it
 *	matches the rule files (rules_save(), rules_open()).
 *
 * Ownership:
 *	struct verdict owns its rules array (verdict_release()); the names
 *	and descriptions in it are borrowed from the ruleset.
 *
 * Errors:
 *	classify_load() prints one line naming the first problem and how
 *	many there are, and returns NULL.
 */
#ifndef TRIAGE_CLASSIFY_H
#define TRIAGE_CLASSIFY_H

#include <stdbool.h>
#include <stddef.h>

#include "claims.h"
#include "rules.h"

struct config;
struct evidence;
struct report;

#define CLASSIFY_TEMPERATURE 2.0
#define VERDICT_HEADER_MAX   400

struct verdict_rule {
	const char *name;
	const char *describe;
	double score[CLASS_N];
	double value; /* the rule's value (1 for a regex, a hook's number) */
	/* fired only on the whole text (quotes, attachments): its score
	 * is weighted by quoted_weight, user 0 */
	bool quoted;
};

struct verdict {
	int cls;     /* CLASS_USER, CLASS_FUZZER, CLASS_AI, CLASS_UNCERTAIN */
	int leaning; /* the class with the highest score */
	double score[CLASS_N];
	double model[CLASS_N]; /* the model pseudo-rules' share of score[] */
	/* what only the quoted and attached text earned, before
	 * quoted_weight (score[] holds it weighted) */
	double quoted[CLASS_N];
	double confidence;  /* 0..1 */
	bool certain;	    /* decided by a certain rule */
	const char *reason; /* static text: "certain rule", "user bias" ... */
	struct verdict_rule *rules; /* fired, not helpers, strongest first */
	size_t nrules;
	unsigned limit_hits; /* regexes stopped by the pcre2 limits */
	/* the claims the rules checked (claims.h), done when any hook did */
	struct claims_memo claims;
};

extern const struct rules_hook classify_hooks[];
extern const size_t classify_nhooks;

/* classify_rules_new - an empty ruleset that knows the classify hooks */
struct ruleset *classify_rules_new(void);

/*
 * classify_load - rules from dir, then the site file local (skipped
 * when NULL, "" or absent), compiled; NULL after printing on any error
 */
struct ruleset *classify_load(const char *dir, const char *local);

/* the configured rules directory and site file (see DESCRIPTION) */
const char *classify_rules_dir(const struct config *cfg);
const char *classify_local_rules(const struct config *cfg);
/*
 * the shipped model, RULES_DIR/model.bin, unless routes.conf says
 * shipped_model = no, when it is readable (caller frees), else NULL:
 * pipeline_open() loads it when STATE_DIR has no model.bin
 */
#define CLASSIFY_DEFAULT_MODEL "model.bin"
char *classify_default_model(const struct config *cfg);

/*
 * classify_open - the configured rules: the compiled snapshot
 * STATE_DIR/rules.idx ('triage check-rules --compile') when it still
 * matches the rule files, else classify_load() of the text; with them
 * STATE_DIR/experts.idx.history ('triage experts import'), when there,
 * the commit history the claims' commit ids are checked against
 */
#define CLASSIFY_SNAPSHOT "rules.idx"
#define CLASSIFY_HISTORY  "experts.idx.history"
struct ruleset *classify_open(const struct config *cfg);

int classify_report(const struct ruleset *rs, const struct report *r,
		    const struct evidence *ev, const double *model,
		    struct verdict *v);
int classify_report_whole(const struct ruleset *rs, const struct report *r,
			  const struct evidence *ev, const double *model,
			  const double *model_whole, struct verdict *v);
void verdict_release(struct verdict *v);

/*
 * classify_decide - steps 2 and 3 of the decision for these scores;
 * returns the class and sets *reason
 */
int classify_decide(const struct rules_params *p, const double *score,
		    const char **reason);

/*
 * verdict_format - the X-Triage-Class header value, e.g.
 * "ai; score=7.4; rules=AI_CVSS_TEMPLATE,AI_HEADINGS": printable ASCII,
 * at most VERDICT_HEADER_MAX - 1 bytes (a rule list that does not fit
 * ends in ",..."); returns the length written
 */
size_t verdict_format(const struct verdict *v, char *buf, size_t size);

/* classify_hook - a hook of classify_hooks[] by name, or NULL */
const struct rules_hook *classify_hook(const char *name);

/* in classify_symbols.c: the hook that reads the symbol index */
double classify_hook_unknown_functions(const struct rules_input *in,
				       const struct rules_text *t,
				       const struct rules_args *args);
/* and the one that checks a report's claims (claims.c) */
double classify_hook_false_claims(const struct rules_input *in,
				  const struct rules_text *t,
				  const struct rules_args *args);
/* and the one that checks a trace's lines and calls against it */
double classify_hook_false_trace(const struct rules_input *in,
				 const struct rules_text *t,
				 const struct rules_args *args);
/* false_sites(MIN_FAILED): failed WARNING/BUG sites (classify_symbols.c) */
double classify_hook_false_sites(const struct rules_input *in,
				 const struct rules_text *t,
				 const struct rules_args *args);
/* false_cited(MIN_FAILED): failed file.c:LINE of the prose (the same) */
double classify_hook_false_cited(const struct rules_input *in,
				 const struct rules_text *t,
				 const struct rules_args *args);

#endif
