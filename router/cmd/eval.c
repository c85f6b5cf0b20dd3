// SPDX-License-Identifier: GPL-2.0-only
/*
 * triage eval - measure the whole classifier on labelled reports
 *
 * DESCRIPTION
 *	triage eval --corpus DIR [--corpus DIR...] [--split FILE]
 *		    [--rules DIR] [--local FILE]
 *		    [--symbols FILE | --no-symbols] [--folds K] [--seed N]
 *		    [--no-model | --model FILE] [--fit-thresholds]
 *		    [--ablate RULE]... [--verbose]
 *
 *	Loads the labelled messages of every DIR (corpus.h: index.tsv or
 *	user/ fuzzer/ ai/) and groups them by author and thread.  It runs
 *	the classifier exactly as the filter does (pipeline_run():
 *	evidence, the symbol index when there is one, the model's
 *	posteriors, the rules, the decision) on every message, twice: with
 *	the rules alone, and with the rules and a statistical model.
 *
 *	With --split FILE (corpus_split(): tools/split-reports.py writes
 *	it, classifiers/split.tsv for ../shared/corpus/reports), every
 *	message must be marked "tune" or "held-out" by its Message-ID, and
 *	no author/thread group may have messages on both sides.  The
 *	figures are then given for each part:
 *	- tuning (in-sample): the rules and thresholds were written and
 *	  fitted on these messages, so their figures are optimistic.  The
 *	  model is trained on K (5) folds of the tuning part grouped by
 *	  author and thread (model_folds()), each fold scored by a model
 *	  that did not see it;
 *	- held out: scored by a model trained on the whole tuning part.
 *	  Nothing is ever trained or fitted on a held-out message: the
 *	  training sets are built from tuning messages only, and that is
 *	  checked message by message.  Held-out messages are never listed
 *	  by name (errors, rule hits, --verbose): reading their errors is
 *	  tuning on them.
 *	Without --split every message is in one part, "all": the model is
 *	cross-validated on K folds, the rules are in-sample for whatever
 *	messages they were written on.
 *
 *	Printed:
 *	- a summary, one line per classifier (rules only; rules and model;
 *	  the model alone, the argmax of its posteriors) and part:
 *	  macro-F1, precision and recall per class, user reports sent to
 *	  ai (the worst error), messages;
 *	- per classifier and part, the table of precision, recall and F1
 *	  per class and the confusion matrix (rows true user/fuzzer/ai;
 *	  columns user/fuzzer/ai/uncertain).  Uncertain goes to a human:
 *	  it counts as a miss in its true class's recall and in no class's
 *	  precision (corpus.h);
 *	- bot-sent reports (the sender is a known bot, corpus_bot_sender()):
 *	  recall of the certain header rules alone and of the final
 *	  verdict, the precision of the certain rules;
 *	- robustness: how many verdicts change when the transport and
 *	  archive headers (Received, Return-Path, Delivered-To, ARC-*,
 *	  DKIM, List-* ...: rules_header_hidden()) are removed;
 *	- of the tuning part only: every user report sent to ai, per rule
 *	  how often it fired on each true class (a tiny SpamAssassin
 *	  hit-frequencies, every rule evaluated), the figures over the
 *	  messages whose author/thread group has at most two messages, the
 *	  author/thread groups with errors, every error, and with --verbose
 *	  every message.
 *
 *	--fit-thresholds (needs --split) searches the thresholds, the
 *	uncertain band and the user bias of the decision (classify.h) over
 *	a grid, on the tuning part only, with the scores of the rules and
 *	the cross-validated model: no user report sent to ai, then the
 *	highest macro-F1, the highest user recall, the fewest uncertain,
 *	the nearest to the current values.  It prints the best settings as
 *	90_thresholds.rules lines; it changes nothing.
 *
 *	--model FILE scores every message with that one model (the shipped
 *	classifiers/model.bin, or a site's) instead of training one: what a
 *	site runs.  Its held-out figures are honest only when FILE was
 *	trained on none of the held-out messages (tools/train-model.sh
 *	trains the shipped model on tuning parts only); its tuning figures
 *	are in-sample.
 *
 *	--ablate RULE scores RULE 0 (repeatable): what the figures are
 *	without it, e.g. without the netdev AI-review disclaimer.
 *
 *	--rules/--local default to rules_dir/local_rules of routes.conf;
 *	--symbols defaults to STATE_DIR/symbols.idx when it exists.
 *	--no-model leaves the model out (rules alone).  Exit 0 when the
 *	evaluation ran, whatever the figures; EX_DATAERR when the split
 *	does not mark every message or crosses a group.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

#include "act.h"
#include "classify.h"
#include "cmd.h"
#include "config.h"
#include "corpus.h"
#include "evidence.h"
#include "model.h"
#include "parse.h"
#include "pipeline.h"
#include "report.h"
#include "rules.h"
#include "strbuf.h"
#include "symbols.h"
#include "util.h"

#define EVAL_MAX_CORPORA  16
#define EVAL_MAX_ABLATE	  64
#define EVAL_MAX_UNMARKED 10 /* unmarked messages named before giving up */

/* the two parts; without a split everything is TUNE, labelled "all" */
enum { TUNE = 0, HELD = 1, NSIDES = 2 };
/* the classifiers measured */
enum { RULES = 0, FULL = 1, MODEL = 2, NKINDS = 3 };

struct outcome {
	int verdict;	 /* CLASS_* or CLASS_UNCERTAIN */
	bool certain;	 /* decided by a certain rule */
	bool fixed;	 /* decided by certain rules, whatever the thresholds */
	int model_class; /* argmax of the posteriors, -1 when abstained */
	double score[CLASS_N];
	double model[CLASS_N];
	char *rules;  /* "A,B,C": the rules that scored */
	int stripped; /* the verdict without transport/archive headers */
};

struct hits {
	unsigned by_class[CLASS_N];
};

struct eval_run {
	const struct corpus *c;
	const int *side; /* TUNE or HELD per item */
	bool split;
	size_t n[NSIDES];
	struct outcome *out[NKINDS - 1]; /* RULES, FULL (MODEL: in FULL) */
	struct corpus_eval ev[NKINDS][NSIDES];
	unsigned abstained[NSIDES];
	unsigned folds;
};

static const char *side_label(const struct eval_run *e, int kind, int side)
{
	static const char *const split[NKINDS][NSIDES] = {
		{ "rules only, tuning (in-sample)", "rules only, held out" },
		{ "rules + model, tuning (in-sample; model CV)",
		  "rules + model, held out" },
		{ "model alone, tuning (CV)", "model alone, held out" },
	};
	static const char *const all[NKINDS] = {
		"rules only, all (no split)",
		"rules + model, all (no split; model CV)",
		"model alone, all (no split; CV)",
	};

	return e->split ? split[kind][side] : all[kind];
}

static char *rule_list(const struct verdict *v)
{
	struct strbuf sb = STRBUF_INIT(64 << 10);
	size_t i;

	for (i = 0; i < v->nrules; i++) {
		const struct verdict_rule *r = &v->rules[i];

		if (!r->score[CLASS_USER] && !r->score[CLASS_FUZZER] &&
		    !r->score[CLASS_AI])
			continue;
		sb_addf(&sb, "%s%s", sb.len ? "," : "", r->name);
	}
	return sb.buf ? sb_detach(&sb, NULL) : xstrdup("");
}

/*
 * train_on - a model trained on the items use[] marks.  The split's
 * promise is kept here: a held-out item is never trained on, whatever
 * the caller passed.
 */
static struct model *train_on(const struct corpus *c, const bool *use,
			      uint64_t seed)
{
	struct model_options o;
	struct model_trainer *t;
	size_t i;

	model_options_init(&o);
	o.seed = seed;
	t = model_train_new(&o);
	if (!t)
		return NULL;
	for (i = 0; i < c->n; i++) {
		struct model_input in;

		if (!use[i])
			continue;
		if (c->items[i].part == CORPUS_HELD_OUT)
			die("eval: %s is held out and may not be trained on",
			    c->items[i].name);
		corpus_model_input(&c->items[i], &in);
		model_train_add_group(t, &in, c->items[i].cls, 1,
				      c->items[i].group);
	}
	return model_train_finish(t);
}

static void count_hits(const struct ruleset *rs, const struct report *r,
		       const struct decision *d, int truth,
		       struct rules_result *res, struct hits *hits)
{
	struct claims_memo memo = { .done = false };
	struct rules_input in = { r,
				  d->ev,
				  d->model_voted ? d->model : NULL,
				  rules_symbols(rs),
				  &memo,
				  rules_history(rs) };
	size_t i;

	rules_eval(rs, &in, RULES_EVAL_ALL, res);
	for (i = 0; i < res->n; i++)
		if (res->value[i] != 0)
			hits[i].by_class[truth]++;
}

static const char *score_text(const struct rule_info *ri, char *buf,
			      size_t size)
{
	size_t len = 0;
	int c;

	buf[0] = '\0';
	for (c = 0; c < CLASS_N; c++)
		if (ri->score[c] != 0 && len < size)
			len += (size_t)snprintf(buf + len, size - len,
						"%s%s=%g", len ? " " : "",
						rules_class_name(c),
						ri->score[c]);
	if (!len)
		snprintf(buf, size, "0");
	return buf;
}

static void print_hits(const struct eval_run *e, const struct ruleset *rs,
		       const struct hits *hits)
{
	size_t i;

	printf("\nrule hits by true class, %s (every rule evaluated; helpers left out)\n",
	       e->split ? "tuning part" : "all messages");
	printf("%-28s %-20s %5s %6s %5s\n", "rule", "score", "user", "fuzzer",
	       "ai");
	for (i = 0; i < rules_count(rs); i++) {
		const struct rule_info *ri = rules_info(rs, i);
		char sc[96];

		if (ri->helper)
			continue;
		printf("%-28s %-20s %5u %6u %5u\n", ri->name,
		       score_text(ri, sc, sizeof(sc)),
		       hits[i].by_class[CLASS_USER],
		       hits[i].by_class[CLASS_FUZZER],
		       hits[i].by_class[CLASS_AI]);
	}
}

static void print_outcome(const struct corpus_item *it, const struct outcome *o)
{
	printf("  %-18s %-6s -> %-9s user %5.1f fuzzer %5.1f ai %5.1f",
	       it->name, rules_class_name(it->cls),
	       rules_class_name(o->verdict), o->score[CLASS_USER],
	       o->score[CLASS_FUZZER], o->score[CLASS_AI]);
	if (o->model_class >= 0)
		printf("  model %.2f/%.2f/%.2f", o->model[CLASS_USER],
		       o->model[CLASS_FUZZER], o->model[CLASS_AI]);
	printf("%s  [%s]  group %s\n", o->certain ? " certain" : "",
	       o->rules && *o->rules ? o->rules : "-", it->group);
}

/* print_groups - the tuning part's author/thread groups with errors */
static void print_groups(const struct eval_run *e, const struct outcome *o)
{
	const struct corpus *c = e->c;
	bool *done = xcalloc(c->n + 1, sizeof(*done));
	unsigned shown = 0;
	size_t i, j;

	printf("\nauthor/thread groups with errors, %s (size, errors: names)\n",
	       e->split ? "tuning part" : "all messages");
	for (i = 0; i < c->n; i++) {
		unsigned size = 0, wrong = 0;

		if (done[i] || e->side[i] != TUNE)
			continue;
		for (j = i; j < c->n; j++) {
			if (strcmp(c->items[j].group, c->items[i].group))
				continue;
			done[j] = true;
			size++;
			wrong += o[j].verdict != c->items[j].cls;
		}
		if (!wrong)
			continue;
		shown++;
		printf("  %-18s size %2u, errors %2u:", c->items[i].group, size,
		       wrong);
		for (j = i; j < c->n; j++)
			if (!strcmp(c->items[j].group, c->items[i].group) &&
			    o[j].verdict != c->items[j].cls)
				printf(" %s", c->items[j].name);
		putchar('\n');
	}
	if (!shown)
		printf("  none\n");
	free(done);
}

/* print_bots - the bot-sent reports of one part; names for tuning only */
static void print_bots(const struct eval_run *e, const struct outcome *o,
		       int side)
{
	const struct corpus *c = e->c;
	unsigned bots = 0, bot_fuzzer = 0, by_certain = 0, final = 0;
	unsigned certain = 0, certain_right = 0, certain_fuzzer = 0;
	unsigned certain_fuzzer_right = 0;
	size_t i;

	for (i = 0; i < c->n; i++) {
		const struct corpus_item *it = &c->items[i];

		if (e->side[i] != side)
			continue;
		if (o[i].certain) {
			certain++;
			certain_right += o[i].verdict == it->cls;
			if (o[i].verdict == CLASS_FUZZER) {
				certain_fuzzer++;
				certain_fuzzer_right += it->cls == CLASS_FUZZER;
			}
		}
		if (!it->bot)
			continue;
		bots++;
		if (it->cls != CLASS_FUZZER)
			continue;
		bot_fuzzer++;
		by_certain +=
			o[i].certain && o[i].verdict == CLASS_FUZZER ? 1 : 0;
		final += o[i].verdict == CLASS_FUZZER;
	}
	printf("bot-sent reports (the sender is a known bot): %u, %u labelled fuzzer\n",
	       bots, bot_fuzzer);
	printf("  recall, certain header rules alone: %u/%u = %.2f\n",
	       by_certain, bot_fuzzer,
	       bot_fuzzer ? (double)by_certain / bot_fuzzer : 0);
	printf("  recall, final verdict fuzzer:       %u/%u = %.2f\n", final,
	       bot_fuzzer, bot_fuzzer ? (double) final / bot_fuzzer : 0);
	printf("  precision of the certain rules (all reports they decided): %u/%u = %.2f\n",
	       certain_right, certain,
	       certain ? (double)certain_right / certain : 1);
	printf("  precision of certain fuzzer verdicts: %u/%u = %.2f\n",
	       certain_fuzzer_right, certain_fuzzer,
	       certain_fuzzer ? (double)certain_fuzzer_right / certain_fuzzer
			      : 1);
	if (side != TUNE)
		return;
	for (i = 0; i < c->n; i++)
		if (e->side[i] == side && c->items[i].bot &&
		    c->items[i].cls == CLASS_FUZZER &&
		    o[i].verdict != CLASS_FUZZER)
			printf("  missed: %s (%s)\n", c->items[i].name,
			       c->items[i].bot);
	for (i = 0; i < c->n; i++)
		if (e->side[i] == side && o[i].certain &&
		    o[i].verdict != c->items[i].cls)
			printf("  wrong certain verdict: %s (%s -> %s)\n",
			       c->items[i].name,
			       rules_class_name(c->items[i].cls),
			       rules_class_name(o[i].verdict));
}

/*
 * verdict_stripped - the verdict for r without the transport and archive
 * headers: the header array is filtered in place, then restored
 */
static int verdict_stripped(struct pipeline *p, struct report *r)
{
	struct report_header *saved;
	struct decision d;
	size_t i, k = 0, n = r->nheaders;
	int cls;

	saved = xcalloc(n + 1, sizeof(*saved));
	memcpy(saved, r->headers, n * sizeof(*saved));
	for (i = 0; i < n; i++)
		if (!rules_header_hidden(saved[i].name))
			r->headers[k++] = saved[i];
	r->nheaders = k;
	pipeline_run(p, r, 0, &d);
	cls = d.verdict.cls;
	decision_release(&d);
	memcpy(r->headers, saved, n * sizeof(*saved));
	r->nheaders = n;
	free(saved);
	return cls;
}

/* load_rules - classify_load() plus "score RULE 0" for every ablation */
static struct ruleset *load_rules(const char *dir, const char *local,
				  const char *const *ablate, size_t nablate)
{
	struct ruleset *rs;
	struct strbuf sb = STRBUF_INIT(1 << 20);
	char first[1024] = "";
	size_t i;
	int errors;

	if (!nablate)
		return classify_load(dir, local);
	rs = classify_rules_new();
	rules_add_dir(rs, dir);
	if (local && *local && (access(local, F_OK) == 0 || errno != ENOENT))
		rules_add_file(rs, local);
	for (i = 0; i < nablate; i++)
		sb_addf(&sb, "score %s 0\n", ablate[i]);
	rules_add_text(rs, "--ablate", sb.buf, sb.len);
	sb_release(&sb);
	errors = rules_compile(rs);
	if (!errors)
		return rs;
	for (i = 0; i < rules_nproblems(rs); i++)
		if (rules_problem(rs, i, first, sizeof(first)) == 0)
			break;
	error("%s (%d errors in the rules)", first, errors);
	rules_free(rs);
	return NULL;
}

/* print_robustness - the verdicts headers change; small groups (tuning) */
static void print_robustness(const struct eval_run *e, const struct outcome *o)
{
	const struct corpus *c = e->c;
	struct corpus_eval small;
	unsigned changed[NSIDES] = { 0, 0 };
	size_t i, j, size;
	int s;

	memset(&small, 0, sizeof(small));
	for (i = 0; i < c->n; i++) {
		changed[e->side[i]] += o[i].stripped != o[i].verdict;
		if (e->side[i] != TUNE)
			continue;
		for (size = 0, j = 0; j < c->n; j++)
			size += !strcmp(c->items[i].group, c->items[j].group);
		if (size <= 2)
			corpus_eval_add(&small, c->items[i].cls, o[i].verdict);
	}
	corpus_eval_finish(&small);
	printf("\nrobustness\n");
	for (s = 0; s < (e->split ? NSIDES : 1); s++)
		printf("  verdicts changed by removing transport/archive headers%s: %u of %zu\n",
		       !e->split   ? ""
		       : s == TUNE ? ", tuning part"
				   : ", held out",
		       changed[s], e->n[s]);
	for (i = 0; i < c->n; i++)
		if (e->side[i] == TUNE && o[i].stripped != o[i].verdict)
			printf("    %s: %s -> %s\n", c->items[i].name,
			       rules_class_name(o[i].verdict),
			       rules_class_name(o[i].stripped));
	printf("  messages of the %s whose author/thread group has at most 2 messages: %zu\n",
	       e->split ? "tuning part" : "corpus", small.n);
	corpus_eval_print(stdout, "    ", &small);
}

/* run_item - the classifier on one item: its outcome, its rule hits */
static void run_item(struct pipeline *p, const struct corpus_item *it,
		     struct outcome *o, struct hits *hits,
		     struct rules_result *res)
{
	struct decision d;
	int c;

	pipeline_run(p, it->report, 0, &d);
	o->verdict = d.verdict.cls;
	o->certain = d.verdict.certain;
	o->fixed = d.verdict.certain ||
		   (d.verdict.reason &&
		    strcmp(d.verdict.reason, "certain rules disagree") == 0);
	memcpy(o->score, d.verdict.score, sizeof(o->score));
	o->model_class = -1;
	if (d.model_voted) {
		memcpy(o->model, d.model, sizeof(o->model));
		o->model_class = 0;
		for (c = 1; c < CLASS_N; c++)
			if (d.model[c] > d.model[o->model_class])
				o->model_class = c;
	}
	o->rules = rule_list(&d.verdict);
	if (hits)
		count_hits(p->rules, it->report, &d, it->cls, res, hits);
	decision_release(&d);
	o->stripped = verdict_stripped(p, it->report);
}

/*
 * run_model - the rules with a model: the tuning part on folds grouped
 * by author and thread within it, the held-out part by a model trained
 * on the whole tuning part; rule hits of the tuning part
 */
static int run_fixed_model(struct eval_run *e, struct pipeline *p,
			   const char *path, struct hits *hits)
{
	struct rules_result res;
	size_t i;

	p->model = model_open(path);
	if (!p->model)
		return -1;
	rules_result_init(&res);
	for (i = 0; i < e->c->n; i++) {
		run_item(p, &e->c->items[i], &e->out[FULL][i],
			 e->side[i] == TUNE ? hits : NULL, &res);
		if (e->out[FULL][i].model_class < 0)
			e->abstained[e->side[i]]++;
	}
	rules_result_release(&res);
	model_free(p->model);
	p->model = NULL;
	return 0;
}

static int run_model(struct eval_run *e, struct pipeline *p, unsigned k,
		     uint64_t seed, struct hits *hits)
{
	const struct corpus *c = e->c;
	struct outcome *out = e->out[FULL];
	const char **groups = xcalloc(c->n + 1, sizeof(*groups));
	int *cls = xcalloc(c->n + 1, sizeof(*cls));
	unsigned *sub = xcalloc(c->n + 1, sizeof(*sub));
	unsigned *fold = xcalloc(c->n + 1, sizeof(*fold));
	size_t *idx = xcalloc(c->n + 1, sizeof(*idx));
	bool *use = xcalloc(c->n + 1, sizeof(*use));
	struct rules_result res;
	size_t i, nt = 0;
	unsigned f;
	int ret = 0;

	for (i = 0; i < c->n; i++) {
		fold[i] = k; /* held out: in no fold */
		if (e->side[i] != TUNE)
			continue;
		idx[nt] = i;
		groups[nt] = c->items[i].group;
		cls[nt] = c->items[i].cls;
		nt++;
	}
	if (model_folds(groups, cls, nt, k, seed, sub) < 0) {
		ret = -1;
		goto out;
	}
	for (i = 0; i < nt; i++)
		fold[idx[i]] = sub[i];
	rules_result_init(&res);
	for (f = 0; f < k + (e->n[HELD] ? 1 : 0); f++) {
		/* f < k: a fold of the tuning part; f == k: the held out */
		for (i = 0; i < c->n; i++)
			use[i] = e->side[i] == TUNE && fold[i] != f;
		p->model = train_on(c, use, seed);
		for (i = 0; i < c->n; i++) {
			if (fold[i] != f)
				continue;
			run_item(p, &c->items[i], &out[i],
				 e->side[i] == TUNE ? hits : NULL, &res);
			if (out[i].model_class < 0 && p->model)
				e->abstained[e->side[i]]++;
		}
		model_free(p->model);
		p->model = NULL;
	}
	rules_result_release(&res);
out:
	free(groups);
	free(cls);
	free(sub);
	free(fold);
	free(idx);
	free(use);
	return ret;
}

static void print_summary(const struct eval_run *e, bool model)
{
	int k, s;

	printf("%-44s %8s     user       fuzzer        ai\n", "", "");
	printf("%-44s %8s  %4s  %4s  %4s  %4s  %4s  %4s  %8s %5s\n",
	       "figures (P precision, R recall)", "macro-F1", "P", "R", "P",
	       "R", "P", "R", "user->ai", "n");
	for (k = 0; k < NKINDS; k++) {
		if (k != RULES && !model)
			continue;
		for (s = 0; s < (e->split ? NSIDES : 1); s++) {
			const struct corpus_eval *ev = &e->ev[k][s];

			if (!ev->n) {
				printf("%-44s %8s  (the model abstained on all %zu)\n",
				       side_label(e, k, s), "-", e->n[s]);
				continue;
			}
			printf("%-44s %8.3f  %4.2f  %4.2f  %4.2f  %4.2f  %4.2f  %4.2f  %8u %5zu\n",
			       side_label(e, k, s), ev->macro_f1,
			       ev->precision[CLASS_USER],
			       ev->recall[CLASS_USER],
			       ev->precision[CLASS_FUZZER],
			       ev->recall[CLASS_FUZZER],
			       ev->precision[CLASS_AI], ev->recall[CLASS_AI],
			       ev->confusion[CLASS_USER][CLASS_AI], ev->n);
		}
	}
}

static void print_section(const struct eval_run *e, int kind, int side)
{
	const struct corpus *c = e->c;
	const struct outcome *o = e->out[kind == MODEL ? FULL : kind];
	const struct corpus_eval *ev = &e->ev[kind][side];
	size_t i;

	printf("\n== %s: %zu messages", side_label(e, kind, side), e->n[side]);
	if (kind == MODEL)
		printf(" (argmax of its posteriors; abstained on %u)",
		       e->abstained[side]);
	putchar('\n');
	if (!ev->n)
		return;
	corpus_eval_print(stdout, "", ev);
	if (kind == MODEL)
		return;
	printf("user reports sent to ai: %u\n",
	       ev->confusion[CLASS_USER][CLASS_AI]);
	if (side == TUNE)
		for (i = 0; i < c->n; i++)
			if (e->side[i] == TUNE &&
			    c->items[i].cls == CLASS_USER &&
			    o[i].verdict == CLASS_AI)
				print_outcome(&c->items[i], &o[i]);
	print_bots(e, o, side);
}

/* ---- --fit-thresholds ------------------------------------------------------ */

struct fit {
	struct rules_params p;
	struct corpus_eval ev;
	double distance; /* from the current settings, L1 */
};

static void fit_eval(const struct eval_run *e, const struct outcome *o,
		     struct fit *fit, const struct rules_params *cur)
{
	const char *reason;
	size_t i;
	int c;

	memset(&fit->ev, 0, sizeof(fit->ev));
	for (i = 0; i < e->c->n; i++) {
		int v;

		if (e->side[i] != TUNE)
			continue;
		v = o[i].fixed ? o[i].verdict
			       : classify_decide(&fit->p, o[i].score, &reason);
		corpus_eval_add(&fit->ev, e->c->items[i].cls, v);
	}
	corpus_eval_finish(&fit->ev);
	fit->distance = fabs(fit->p.band - cur->band) +
			fabs(fit->p.user_bias - cur->user_bias);
	for (c = 0; c < CLASS_N; c++)
		fit->distance += fabs(fit->p.threshold[c] - cur->threshold[c]);
}

/* fit_better - a is better than b (the objective of the DESCRIPTION) */
static bool fit_better(const struct fit *a, const struct fit *b)
{
	unsigned ua = a->ev.confusion[CLASS_USER][CLASS_AI];
	unsigned ub = b->ev.confusion[CLASS_USER][CLASS_AI];
	const double eps = 1e-9;

	if (ua != ub)
		return ua < ub;
	if (fabs(a->ev.macro_f1 - b->ev.macro_f1) > eps)
		return a->ev.macro_f1 > b->ev.macro_f1;
	if (fabs(a->ev.recall[CLASS_USER] - b->ev.recall[CLASS_USER]) > eps)
		return a->ev.recall[CLASS_USER] > b->ev.recall[CLASS_USER];
	if (a->ev.uncertain != b->ev.uncertain)
		return a->ev.uncertain < b->ev.uncertain;
	return a->distance < b->distance - eps;
}

static void print_fit(const char *label, const struct fit *f)
{
	printf("%-8s %5.1f %6.1f %4.1f %5.1f %5.1f   %8.3f %6.2f %5.2f %5.2f %8u %9u\n",
	       label, f->p.threshold[CLASS_USER], f->p.threshold[CLASS_FUZZER],
	       f->p.threshold[CLASS_AI], f->p.band, f->p.user_bias,
	       f->ev.macro_f1, f->ev.recall[CLASS_USER],
	       f->ev.precision[CLASS_AI], f->ev.recall[CLASS_AI],
	       f->ev.confusion[CLASS_USER][CLASS_AI], f->ev.uncertain);
}

#define FIT_TOP 5

static void fit_thresholds(const struct eval_run *e, const struct outcome *o,
			   const struct rules_params *cur, bool model)
{
	/* the grid, in half points */
	static const int tu[] = { 1, 2, 3, 4 };			    /* 0.5..2 */
	static const int tf[] = { 6, 7, 8, 9, 10, 11, 12, 13, 14 }; /* 3..7 */
	static const int ta[] = { 4, 5, 6, 7, 8, 9, 10, 11, 12 };   /* 2..6 */
	static const int band[] = { 1, 2, 3, 4 };		    /* 0.5..2 */
	static const int bias[] = { 0, 1, 2, 3, 4, 5, 6 };	    /* 0..3 */
	struct fit top[FIT_TOP], now, f;
	size_t a, b, d, g, h, i, ntop = 0, tried = 0;

	now.p = *cur;
	fit_eval(e, o, &now, cur);
	memset(&f, 0, sizeof(f));
	for (a = 0; a < ARRAY_SIZE(tu); a++)
		for (b = 0; b < ARRAY_SIZE(tf); b++)
			for (d = 0; d < ARRAY_SIZE(ta); d++)
				for (g = 0; g < ARRAY_SIZE(band); g++)
					for (h = 0; h < ARRAY_SIZE(bias); h++) {
						f.p.threshold[CLASS_USER] =
							tu[a] / 2.0;
						f.p.threshold[CLASS_FUZZER] =
							tf[b] / 2.0;
						f.p.threshold[CLASS_AI] =
							ta[d] / 2.0;
						f.p.band = band[g] / 2.0;
						f.p.user_bias = bias[h] / 2.0;
						fit_eval(e, o, &f, cur);
						tried++;
						/* insert into the sorted top */
						for (i = ntop;
						     i > 0 &&
						     fit_better(&f,
								&top[i - 1]);
						     i--)
							if (i < FIT_TOP)
								top[i] = top[i -
									     1];
						if (i < FIT_TOP) {
							top[i] = f;
							if (ntop < FIT_TOP)
								ntop++;
						}
					}
	printf("\n== thresholds fitted on the tuning part: %zu messages, %s, %zu settings tried\n",
	       e->n[TUNE],
	       model ? "rules and the cross-validated model" : "rules only",
	       tried);
	printf("objective: no user report sent to ai, then the highest macro-F1, the highest\n"
	       "user recall, the fewest uncertain, the nearest to the current settings\n");
	printf("%-8s %5s %6s %4s %5s %5s   %8s %6s %5s %5s %8s %9s\n", "",
	       "user", "fuzzer", "ai", "band", "bias", "macro-F1", "user R",
	       "ai P", "ai R", "user->ai", "uncertain");
	print_fit("current", &now);
	for (i = 0; i < ntop; i++) {
		char label[24];

		snprintf(label, sizeof(label), "#%zu", i + 1);
		print_fit(label, &top[i]);
	}
	if (!ntop)
		return;
	printf("as 90_thresholds.rules lines:\n");
	printf("threshold      user    %g\n", top[0].p.threshold[CLASS_USER]);
	printf("threshold      fuzzer  %g\n", top[0].p.threshold[CLASS_FUZZER]);
	printf("threshold      ai      %g\n", top[0].p.threshold[CLASS_AI]);
	printf("uncertain_band %g\n", top[0].p.band);
	printf("user_bias      %g\n", top[0].p.user_bias);
}

/* ---- the command -------------------------------------------------------- */

struct eval_opts {
	const char *dirs_v[EVAL_MAX_CORPORA], *ablate_v[EVAL_MAX_ABLATE];
	struct opt_list dirs, ablate;
	const char *split, *rules_dir, *local, *syms;
	const char *model_path;
	bool local_given, no_syms, no_model, verbose, fit;
	unsigned long k, seed;
};

static const char *const eval_usage[] = {
	"triage eval --corpus DIR [--corpus DIR...] [OPTIONS]", NULL
};

static void eval_options(int argc, char **argv, struct eval_opts *o)
{
	const struct opt opts[] = {
		OPT_LIST(0, "corpus", &o->dirs, "DIR",
			 "labelled messages (index.tsv, or user/ fuzzer/ ai/)"),
		OPT_STRING(0, "split", &o->split, "FILE",
			   "figures for the tuning and the held-out part"),
		OPT_STRING(0, "rules", &o->rules_dir, "DIR",
			   "the rule files (default: rules_dir)"),
		OPT_STRING(0, "local", &o->local, "FILE",
			   "the site's rule file (default: local_rules)"),
		OPT_STRING(0, "symbols", &o->syms, "FILE",
			   "the symbol index (default: STATE_DIR's, if any)"),
		OPT_BOOL(0, "no-symbols", &o->no_syms, "no symbol index"),
		OPT_CMD_FOLDS(&o->k, &o->seed),
		OPT_BOOL(0, "no-model", &o->no_model, "the rules alone"),
		OPT_STRING(0, "model", &o->model_path, "FILE",
			   "score with this model, trained on nothing here"),
		OPT_BOOL(0, "fit-thresholds", &o->fit,
			 "search the thresholds on the tuning part (--split)"),
		OPT_LIST(0, "ablate", &o->ablate, "RULE",
			 "score RULE 0 (repeatable)"),
		OPT_BOOL(0, "verbose", &o->verbose,
			 "every message of the tuning part, not only errors"),
		OPT_END(),
	};

	memset(o, 0, sizeof(*o));
	o->dirs.v = o->dirs_v;
	o->dirs.max = EVAL_MAX_CORPORA;
	o->ablate.v = o->ablate_v;
	o->ablate.max = EVAL_MAX_ABLATE;
	o->k = 5;
	o->seed = 1;
	if (parse_options(argc, argv, opts, eval_usage, 0) || !o->dirs.n ||
	    (o->syms && o->no_syms) || (o->model_path && o->no_model))
		usage_with_options(eval_usage, opts);
	o->local_given = o->local != NULL;
	if (o->fit && !o->split) {
		error("--fit-thresholds needs --split: nothing is fitted without a held-out part to judge it");
		exit(EX_USAGE);
	}
}

/*
 * eval_corpus - the corpora, grouped and split, and each item's side;
 * 0 or an exit status
 */
static int eval_corpus(const struct eval_opts *o, struct corpus *c,
		       struct eval_run *e, int **side)
{
	size_t i;

	corpus_init(c);
	for (i = 0; i < o->dirs.n; i++)
		if (corpus_load(c, o->dirs.v[i]) < 0)
			return EX_NOINPUT;
	corpus_group(c);
	memset(e, 0, sizeof(*e));
	e->c = c;
	e->split = o->split != NULL;
	e->folds = (unsigned)o->k;
	*side = xcalloc(c->n + 1, sizeof(**side));
	e->side = *side;
	if (o->split &&
	    corpus_split_check(c, o->split, c->n, EVAL_MAX_UNMARKED) < 0)
		return EX_DATAERR;
	for (i = 0; i < c->n; i++) {
		(*side)[i] = c->items[i].part == CORPUS_HELD_OUT ? HELD : TUNE;
		e->n[(*side)[i]]++;
	}
	if (e->n[TUNE] < o->k) {
		error("%zu messages to tune on cannot fill %lu folds",
		      e->n[TUNE], o->k);
		return EX_DATAERR;
	}
	if (o->split && !e->n[HELD]) {
		error("%s holds no message out", o->split);
		return EX_DATAERR;
	}
	return 0;
}

/*
 * eval_pipeline - the classifier as the filter runs it: rules (with
 * the ablations) and symbol index; 0 or an exit status
 */
static int eval_pipeline(struct eval_opts *o, struct config *cfg,
			 struct pipeline *p, char **syms_owned)
{
	char *state_syms;

	memset(p, 0, sizeof(*p));
	p->cfg = cfg;
	act_config_load(&p->act, cfg);
	if (!o->rules_dir)
		o->rules_dir = classify_rules_dir(cfg);
	if (!o->local_given)
		o->local = classify_local_rules(cfg);
	p->rules = load_rules(o->rules_dir, o->local, o->ablate.v, o->ablate.n);
	if (!p->rules)
		return EX_CONFIG;
	if (!o->syms && !o->no_syms) {
		state_syms = config_state_path(cfg, "symbols.idx");
		if (access(state_syms, R_OK) == 0)
			o->syms = *syms_owned = state_syms;
		else
			free(state_syms);
	}
	if (!o->syms)
		return 0;
	p->syms = symbols_open(o->syms);
	if (!p->syms)
		return EX_NOINPUT;
	rules_set_symbols(p->rules, p->syms);
	return 0;
}

/* eval_classify - every message by the rules, then with a model */
static int eval_classify(struct eval_run *e, struct pipeline *p,
			 const struct eval_opts *o, struct hits *hits)
{
	const struct corpus *c = e->c;
	struct rules_result res;
	size_t i;
	int k, s;

	rules_result_init(&res);
	e->out[RULES] = xcalloc(c->n + 1, sizeof(*e->out[RULES]));
	for (i = 0; i < c->n; i++)
		run_item(p, &c->items[i], &e->out[RULES][i],
			 o->no_model && e->side[i] == TUNE ? hits : NULL, &res);
	rules_result_release(&res);
	/* the rules and the model, trained on tuning messages only */
	if (!o->no_model) {
		e->out[FULL] = xcalloc(c->n + 1, sizeof(*e->out[FULL]));
		if (o->model_path) {
			if (run_fixed_model(e, p, o->model_path, hits) < 0)
				return EX_NOINPUT;
		} else if (run_model(e, p, (unsigned)o->k, o->seed, hits) < 0) {
			return EX_DATAERR;
		}
	}
	for (i = 0; i < c->n; i++) {
		const struct corpus_item *it = &c->items[i];
		int side = e->side[i];

		corpus_eval_add(&e->ev[RULES][side], it->cls,
				e->out[RULES][i].verdict);
		if (o->no_model)
			continue;
		corpus_eval_add(&e->ev[FULL][side], it->cls,
				e->out[FULL][i].verdict);
		if (e->out[FULL][i].model_class >= 0)
			corpus_eval_add(&e->ev[MODEL][side], it->cls,
					e->out[FULL][i].model_class);
	}
	for (k = 0; k < NKINDS; k++)
		for (s = 0; s < NSIDES; s++)
			corpus_eval_finish(&e->ev[k][s]);
	return 0;
}

/* print_setup - what was measured, and how */
static void print_setup(const struct eval_run *e, const struct eval_opts *o,
			const struct pipeline *p)
{
	const struct corpus *c = e->c;
	size_t i;

	printf("triage eval: %zu messages (user %zu, fuzzer %zu, ai %zu) in %zu author/thread groups",
	       c->n, corpus_count(c, CLASS_USER), corpus_count(c, CLASS_FUZZER),
	       corpus_count(c, CLASS_AI), c->ngroups);
	if (c->skipped)
		printf(", %zu skipped", c->skipped);
	putchar('\n');
	if (o->split) {
		size_t cnt[NSIDES][CLASS_N] = { { 0 } };

		for (i = 0; i < c->n; i++)
			cnt[e->side[i]][c->items[i].cls]++;
		printf("split %s: tuning part %zu (user %zu, fuzzer %zu, ai %zu), held out %zu (user %zu, fuzzer %zu, ai %zu); no author/thread group on both sides\n",
		       o->split, e->n[TUNE], cnt[TUNE][CLASS_USER],
		       cnt[TUNE][CLASS_FUZZER], cnt[TUNE][CLASS_AI], e->n[HELD],
		       cnt[HELD][CLASS_USER], cnt[HELD][CLASS_FUZZER],
		       cnt[HELD][CLASS_AI]);
	}
	printf("rules %s (%zu); symbol index %s\n", o->rules_dir,
	       rules_count(p->rules), o->syms ? o->syms : "none");
	if (o->no_model)
		printf("model: none (--no-model)\n");
	else if (o->model_path)
		printf("model: %s for every message, trained on nothing here (its tuning figures are in-sample when it was trained on the tuning part)\n",
		       o->model_path);
	else if (o->split)
		printf("model: trained on the tuning part only; its tuning figures (CV) on %lu folds of the tuning part grouped by author and thread (seed %lu), its held-out figures by a model trained on the whole tuning part\n",
		       o->k, o->seed);
	else
		printf("model: cross-validated (CV) on %lu folds grouped by author and thread (seed %lu)\n",
		       o->k, o->seed);
	for (i = 0; i < o->ablate.n; i++)
		printf("%s%s",
		       i ? ", " : "ablated (scored 0): ", o->ablate.v[i]);
	if (o->ablate.n)
		putchar('\n');
	if (o->split)
		printf("tuning (in-sample): the rules and thresholds were fitted on these messages; held out: no model here is trained on them, and nothing may be fitted on them\n");
	else
		printf("no split (--split FILE): the rules are in-sample for every message they were written or fitted on\n");
	printf("uncertain counts as a miss in recall and in no precision\n\n");
}

/* print_all - the figures, then what may be read of the tuning part */
static void print_all(const struct eval_run *e, const struct eval_opts *o,
		      const struct pipeline *p, const struct hits *hits)
{
	static const int sections[] = { FULL, RULES, MODEL };
	const struct outcome *final = e->out[o->no_model ? RULES : FULL];
	const struct corpus *c = e->c;
	size_t i;
	int s;

	print_setup(e, o, p);
	print_summary(e, !o->no_model);
	for (i = 0; i < ARRAY_SIZE(sections); i++)
		for (s = o->split ? HELD : TUNE; s >= TUNE; s--)
			if (sections[i] == RULES || !o->no_model)
				print_section(e, sections[i], s);
	if (o->fit)
		fit_thresholds(e, final, rules_params(p->rules), !o->no_model);
	if (o->split)
		printf("\nthe held-out messages are left out of what follows: reading their errors is tuning on them\n");
	print_hits(e, p->rules, hits);
	print_robustness(e, final);
	print_groups(e, final);
	printf("\n%s of the %s (name, true -> verdict, scores, model user/fuzzer/ai, rules)\n",
	       o->verbose ? "every message" : "errors",
	       o->split ? "tuning part" : "corpus");
	for (i = 0; i < c->n; i++)
		if (e->side[i] == TUNE &&
		    (o->verbose || final[i].verdict != c->items[i].cls))
			print_outcome(&c->items[i], &final[i]);
}

static void eval_release(struct eval_run *e)
{
	size_t i;
	int k;

	for (k = 0; k < NKINDS - 1; k++) {
		if (!e->out[k])
			continue;
		for (i = 0; i < e->c->n; i++)
			free(e->out[k][i].rules);
		free(e->out[k]);
	}
}

int cmd_eval(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct eval_opts o;
	struct config *cfg;
	struct corpus corpus;
	struct eval_run e;
	struct pipeline p;
	struct hits *hits = NULL;
	char *syms_owned = NULL;
	int *side = NULL, ret;
	double t0 = now_seconds();

	eval_options(argc, argv, &o);
	cfg = cmd_config(ctx);
	memset(&p, 0, sizeof(p));
	memset(&e, 0, sizeof(e));
	ret = eval_corpus(&o, &corpus, &e, &side);
	if (!ret)
		ret = eval_pipeline(&o, cfg, &p, &syms_owned);
	if (!ret) {
		hits = xcalloc(rules_count(p.rules) + 1, sizeof(*hits));
		ret = eval_classify(&e, &p, &o, hits);
	}
	if (!ret) {
		print_all(&e, &o, &p, hits);
		printf("\n%.1f s\n", now_seconds() - t0);
	}
	if (e.c)
		eval_release(&e);
	free(hits);
	free(side);
	symbols_free(p.syms);
	free(syms_owned);
	rules_free(p.rules);
	corpus_release(&corpus);
	parse_shutdown();
	return ret;
}
