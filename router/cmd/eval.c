// SPDX-License-Identifier: GPL-2.0-only
/*
 * triage eval - cross-validate the whole classifier on labelled reports
 *
 * DESCRIPTION
 *	triage eval --corpus DIR [--corpus DIR...] [--rules DIR]
 *		    [--local FILE] [--symbols FILE | --no-symbols]
 *		    [--folds K] [--seed N] [--no-model] [--ablate RULE]...
 *		    [--verbose]
 *
 *	Loads the labelled messages of every DIR (corpus.h: index.tsv or
 *	user/ fuzzer/ ai/), groups them by author and thread, and assigns
 *	the groups to K (5) folds (model_folds(): no author or thread is
 *	ever split, classes balanced; never leave-one-out, which lets an
 *	author's other messages teach the model their style).  For each
 *	fold it trains the statistical model on the other folds only, then
 *	runs the classifier exactly as the filter does (pipeline_run():
 *	evidence, the symbol index when there is one, the model's
 *	posteriors, the rules, the decision) on the held-out messages.
 *
 *	Printed:
 *	- precision, recall and F1 per class, macro-F1, the confusion
 *	  matrix (rows true user/fuzzer/ai; columns user/fuzzer/ai/
 *	  uncertain).  Uncertain goes to a human: it counts as a miss in
 *	  its true class's recall and in no class's precision
 *	  (corpus.h);
 *	- every user report sent to ai (the worst error) by name;
 *	- bot-sent reports (the sender is a known bot, corpus_bot_sender()):
 *	  recall of the certain header rules alone and of the final
 *	  verdict, and the precision of the certain rules over the whole
 *	  corpus;
 *	- the targets, met or not;
 *	- the model alone (argmax of its posteriors) on the same folds;
 *	- per rule, how often it fired on each true class, with every rule
 *	  evaluated (a tiny SpamAssassin hit-frequencies);
 *	- robustness: how many verdicts change when the transport and
 *	  archive headers (Received, Return-Path, Delivered-To, ARC-*,
 *	  DKIM, List-* ...: rules_header_hidden()) are removed from every
 *	  message, and the figures over the messages whose author/thread
 *	  group has at most two messages (no author dominates them);
 *	- the author/thread groups with errors, and every error;
 *	- with --verbose, every message.
 *
 *	--ablate RULE scores RULE 0 (repeatable): what the figures are
 *	without it, e.g. without the netdev AI-review disclaimer.
 *
 *	--rules/--local default to rules_dir/local_rules of routes.conf;
 *	--symbols defaults to STATE_DIR/symbols.idx when it exists.
 *	--no-model leaves the model out (rules alone).  Exit 0 when the
 *	evaluation ran, whatever the figures.
 */
#include <errno.h>
#include <getopt.h>
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

#define EVAL_MAX_CORPORA 16
#define EVAL_MAX_ABLATE	 64

struct outcome {
	int verdict;	 /* CLASS_* or CLASS_UNCERTAIN */
	bool certain;	 /* decided by a certain rule */
	int model_class; /* argmax of the posteriors, -1 when abstained */
	double score[CLASS_N];
	double model[CLASS_N];
	char *rules; /* "A,B,C": the rules that scored */
	unsigned fold;
	int stripped; /* the verdict without transport/archive headers */
};

struct hits {
	unsigned by_class[CLASS_N];
};

static void usage(void)
{
	fprintf(stderr,
		"usage: triage eval --corpus DIR [--corpus DIR...] [--rules DIR] [--local FILE]\n"
		"                   [--symbols FILE | --no-symbols] [--folds K] [--seed N]\n"
		"                   [--no-model] [--ablate RULE]... [--verbose]\n");
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

static struct model *train_fold(const struct corpus *c, const unsigned *fold,
				unsigned f, uint64_t seed)
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

		if (fold[i] == f)
			continue;
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
	struct rules_input in = { r, d->ev, d->model_voted ? d->model : NULL,
				  rules_symbols(rs) };
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

static void print_hits(const struct ruleset *rs, const struct hits *hits)
{
	size_t i;

	printf("\nrule hits by true class (every rule evaluated; helpers left out)\n");
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

static void print_groups(const struct corpus *c, const struct outcome *o)
{
	bool *done = xcalloc(c->n + 1, sizeof(*done));
	unsigned shown = 0;
	size_t i, j;

	printf("\nauthor/thread groups with errors (size, errors: names)\n");
	for (i = 0; i < c->n; i++) {
		unsigned size = 0, wrong = 0;

		if (done[i])
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

static const char *yes(bool ok)
{
	return ok ? "met" : "NOT met";
}

static void print_bots(const struct corpus *c, const struct outcome *o)
{
	unsigned bots = 0, bot_fuzzer = 0, by_certain = 0, final = 0;
	unsigned certain = 0, certain_right = 0, certain_fuzzer = 0;
	unsigned certain_fuzzer_right = 0;
	size_t i;

	for (i = 0; i < c->n; i++) {
		const struct corpus_item *it = &c->items[i];

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
	printf("\nbot-sent reports (the sender is a known bot): %u, %u labelled fuzzer\n",
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
	for (i = 0; i < c->n; i++)
		if (c->items[i].bot && c->items[i].cls == CLASS_FUZZER &&
		    o[i].verdict != CLASS_FUZZER)
			printf("  missed: %s (%s)\n", c->items[i].name,
			       c->items[i].bot);
	for (i = 0; i < c->n; i++)
		if (o[i].certain && o[i].verdict != c->items[i].cls)
			printf("  wrong certain verdict: %s (%s -> %s)\n",
			       c->items[i].name,
			       rules_class_name(c->items[i].cls),
			       rules_class_name(o[i].verdict));
}

static void print_targets(const struct corpus *c, const struct outcome *o,
			  const struct corpus_eval *ev)
{
	unsigned bot_fuzzer = 0, final = 0, cf = 0, cf_right = 0;
	double bp, br;
	size_t i;

	for (i = 0; i < c->n; i++) {
		if (o[i].certain && o[i].verdict == CLASS_FUZZER) {
			cf++;
			cf_right += c->items[i].cls == CLASS_FUZZER;
		}
		if (c->items[i].bot && c->items[i].cls == CLASS_FUZZER) {
			bot_fuzzer++;
			final += o[i].verdict == CLASS_FUZZER;
		}
	}
	bp = cf ? (double)cf_right / cf : 1;
	br = bot_fuzzer ? (double) final / bot_fuzzer : 1;
	printf("\ntargets (issue 4)\n");
	printf("  macro-F1 >= 0.90:                 %.3f  %s\n", ev->macro_f1,
	       yes(ev->macro_f1 >= 0.90));
	printf("  user recall >= 0.97:              %.3f  %s\n",
	       ev->recall[CLASS_USER], yes(ev->recall[CLASS_USER] >= 0.97));
	printf("  bot-sent fuzzer precision = 1.00: %.3f  %s\n", bp,
	       yes(bp >= 1.0));
	printf("  bot-sent fuzzer recall >= 0.98:   %.3f  %s\n", br,
	       yes(br >= 0.98));
	printf("  ai precision >= 0.90:             %.3f  %s\n",
	       ev->precision[CLASS_AI], yes(ev->precision[CLASS_AI] >= 0.90));
	printf("  user reports sent to ai:          %u\n",
	       ev->confusion[CLASS_USER][CLASS_AI]);
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

static void print_robustness(const struct corpus *c, const struct outcome *o)
{
	struct corpus_eval small;
	unsigned changed = 0;
	size_t i, j, size;

	memset(&small, 0, sizeof(small));
	for (i = 0; i < c->n; i++) {
		changed += o[i].stripped != o[i].verdict;
		for (size = 0, j = 0; j < c->n; j++)
			size += !strcmp(c->items[i].group, c->items[j].group);
		if (size <= 2)
			corpus_eval_add(&small, c->items[i].cls, o[i].verdict);
	}
	corpus_eval_finish(&small);
	printf("\nrobustness\n");
	printf("  verdicts changed by removing transport/archive headers: %u of %zu\n",
	       changed, c->n);
	for (i = 0; i < c->n; i++)
		if (o[i].stripped != o[i].verdict)
			printf("    %s: %s -> %s\n", c->items[i].name,
			       rules_class_name(o[i].verdict),
			       rules_class_name(o[i].stripped));
	printf("  messages whose author/thread group has at most 2 messages: %zu\n",
	       small.n);
	corpus_eval_print(stdout, "    ", &small);
}

int cmd_eval(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const struct option opts[] = {
		{ "corpus", required_argument, NULL, 'C' },
		{ "rules", required_argument, NULL, 'r' },
		{ "local", required_argument, NULL, 'l' },
		{ "symbols", required_argument, NULL, 's' },
		{ "no-symbols", no_argument, NULL, 'S' },
		{ "folds", required_argument, NULL, 'k' },
		{ "seed", required_argument, NULL, 'e' },
		{ "no-model", no_argument, NULL, 'M' },
		{ "ablate", required_argument, NULL, 'A' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dirs[EVAL_MAX_CORPORA], *rules_dir = NULL, *local = NULL;
	const char *syms_path = NULL, *ablate[EVAL_MAX_ABLATE];
	size_t nablate = 0;
	char *state_syms = NULL, *syms_owned = NULL;
	bool no_syms = false, no_model = false, verbose = false;
	bool local_given = false;
	unsigned long k = 5, seed = 1;
	size_t ndirs = 0, i;
	struct config *cfg;
	struct corpus corpus;
	struct corpus_eval ev, mev;
	struct pipeline p;
	struct outcome *out;
	struct hits *hits;
	struct rules_result res;
	const char **groups;
	int *cls, c, ret = 0;
	unsigned *fold, f, model_abstained = 0;
	double t0 = now_seconds();

	while ((c = getopt_long(argc, argv, "C:r:l:s:Sk:e:MA:vh", opts,
				NULL)) != -1) {
		switch (c) {
		case 'C':
			if (ndirs == EVAL_MAX_CORPORA) {
				error("at most %d corpora", EVAL_MAX_CORPORA);
				return EX_USAGE;
			}
			dirs[ndirs++] = optarg;
			break;
		case 'r':
			rules_dir = optarg;
			break;
		case 'l':
			local = optarg;
			local_given = true;
			break;
		case 's':
			syms_path = optarg;
			break;
		case 'S':
			no_syms = true;
			break;
		case 'k':
			if (parse_ulong(optarg, &k) < 0 || k < 2 || k > 100) {
				error("--folds: expected 2..100");
				return EX_USAGE;
			}
			break;
		case 'e':
			if (parse_ulong(optarg, &seed) < 0) {
				error("--seed: expected a number");
				return EX_USAGE;
			}
			break;
		case 'M':
			no_model = true;
			break;
		case 'A':
			if (nablate == EVAL_MAX_ABLATE) {
				error("at most %d --ablate", EVAL_MAX_ABLATE);
				return EX_USAGE;
			}
			ablate[nablate++] = optarg;
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			usage();
			return 0;
		default:
			usage();
			return EX_USAGE;
		}
	}
	if (optind != argc || !ndirs || (syms_path && no_syms)) {
		usage();
		return EX_USAGE;
	}
	cfg = cmd_config(ctx);
	if (!rules_dir)
		rules_dir = classify_rules_dir(cfg);
	if (!local_given)
		local = classify_local_rules(cfg);

	corpus_init(&corpus);
	for (i = 0; i < ndirs; i++) {
		if (corpus_load(&corpus, dirs[i]) < 0) {
			corpus_release(&corpus);
			parse_shutdown();
			return EX_NOINPUT;
		}
	}
	if (corpus.n < k) {
		error("%zu messages cannot fill %lu folds", corpus.n, k);
		corpus_release(&corpus);
		parse_shutdown();
		return EX_DATAERR;
	}
	corpus_group(&corpus);

	memset(&p, 0, sizeof(p));
	p.cfg = cfg;
	act_config_load(&p.act, cfg);
	p.rules = load_rules(rules_dir, local, ablate, nablate);
	if (!p.rules) {
		corpus_release(&corpus);
		parse_shutdown();
		return EX_CONFIG;
	}
	if (!syms_path && !no_syms) {
		state_syms = config_state_path(cfg, "symbols.idx");
		if (access(state_syms, R_OK) == 0)
			syms_path = syms_owned = state_syms;
		else
			free(state_syms);
	}
	if (syms_path) {
		p.syms = symbols_open(syms_path);
		if (!p.syms) {
			rules_free(p.rules);
			free(syms_owned);
			corpus_release(&corpus);
			parse_shutdown();
			return EX_NOINPUT;
		}
		rules_set_symbols(p.rules, p.syms);
	}

	groups = xcalloc(corpus.n + 1, sizeof(*groups));
	cls = xcalloc(corpus.n + 1, sizeof(*cls));
	fold = xcalloc(corpus.n + 1, sizeof(*fold));
	for (i = 0; i < corpus.n; i++) {
		groups[i] = corpus.items[i].group;
		cls[i] = corpus.items[i].cls;
	}
	if (model_folds(groups, cls, corpus.n, (unsigned)k, seed, fold) < 0) {
		ret = EX_DATAERR;
		goto out;
	}

	out = xcalloc(corpus.n + 1, sizeof(*out));
	hits = xcalloc(rules_count(p.rules) + 1, sizeof(*hits));
	rules_result_init(&res);
	memset(&ev, 0, sizeof(ev));
	memset(&mev, 0, sizeof(mev));
	for (f = 0; f < k; f++) {
		p.model = no_model ? NULL : train_fold(&corpus, fold, f, seed);
		for (i = 0; i < corpus.n; i++) {
			const struct corpus_item *it = &corpus.items[i];
			struct outcome *o = &out[i];
			struct decision d;

			if (fold[i] != f)
				continue;
			pipeline_run(&p, it->report, 0, &d);
			o->fold = f;
			o->verdict = d.verdict.cls;
			o->certain = d.verdict.certain;
			memcpy(o->score, d.verdict.score, sizeof(o->score));
			o->model_class = -1;
			if (d.model_voted) {
				memcpy(o->model, d.model, sizeof(o->model));
				o->model_class = 0;
				for (c = 1; c < CLASS_N; c++)
					if (d.model[c] >
					    d.model[o->model_class])
						o->model_class = c;
				corpus_eval_add(&mev, it->cls, o->model_class);
			} else if (p.model) {
				model_abstained++;
			}
			o->rules = rule_list(&d.verdict);
			corpus_eval_add(&ev, it->cls, o->verdict);
			count_hits(p.rules, it->report, &d, it->cls, &res,
				   hits);
			decision_release(&d);
			o->stripped = verdict_stripped(&p, it->report);
		}
		model_free(p.model);
		p.model = NULL;
	}
	rules_result_release(&res);
	corpus_eval_finish(&ev);
	corpus_eval_finish(&mev);

	printf("triage eval: %zu messages (user %zu, fuzzer %zu, ai %zu) in %zu author/thread groups",
	       corpus.n, corpus_count(&corpus, CLASS_USER),
	       corpus_count(&corpus, CLASS_FUZZER),
	       corpus_count(&corpus, CLASS_AI), corpus.ngroups);
	if (corpus.skipped)
		printf(", %zu skipped", corpus.skipped);
	printf("\n%lu folds grouped by author and thread (seed %lu); rules %s (%zu); symbol index %s; model %s\n",
	       k, seed, rules_dir, rules_count(p.rules),
	       syms_path ? syms_path : "none",
	       no_model ? "none" : "trained on the other folds");
	for (i = 0; i < nablate; i++)
		printf("%s%s", i ? ", " : "ablated (scored 0): ", ablate[i]);
	if (nablate)
		putchar('\n');
	printf("uncertain counts as a miss in recall and in no precision\n\n");
	corpus_eval_print(stdout, "", &ev);

	printf("\nuser reports sent to ai: %u\n",
	       ev.confusion[CLASS_USER][CLASS_AI]);
	for (i = 0; i < corpus.n; i++)
		if (corpus.items[i].cls == CLASS_USER &&
		    out[i].verdict == CLASS_AI)
			print_outcome(&corpus.items[i], &out[i]);
	print_bots(&corpus, out);
	print_targets(&corpus, out, &ev);
	if (!no_model) {
		printf("\nthe model alone (argmax of its posteriors, same folds; abstained on %u)\n",
		       model_abstained);
		corpus_eval_print(stdout, "  ", &mev);
	}
	print_hits(p.rules, hits);
	print_robustness(&corpus, out);
	print_groups(&corpus, out);
	printf("\n%s (name, true -> verdict, scores, model user/fuzzer/ai, rules)\n",
	       verbose ? "every message" : "errors");
	for (i = 0; i < corpus.n; i++)
		if (verbose || out[i].verdict != corpus.items[i].cls)
			print_outcome(&corpus.items[i], &out[i]);
	printf("\n%.1f s\n", now_seconds() - t0);

	for (i = 0; i < corpus.n; i++)
		free(out[i].rules);
	free(out);
	free(hits);
out:
	free(groups);
	free(cls);
	free(fold);
	symbols_free(p.syms);
	free(syms_owned);
	rules_free(p.rules);
	corpus_release(&corpus);
	parse_shutdown();
	return ret;
}
