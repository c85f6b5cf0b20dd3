// SPDX-License-Identifier: GPL-2.0-only
/*
 * triage train - train the statistical model the classifier consults
 *
 * DESCRIPTION
 *	triage train [--dir DIR]... [--from-corrections] [--db FILE]
 *		     [--split FILE] [--output FILE] [--kind lr|nb]
 *		     [--bits N] [--folds K] [--seed N] [--no-cv] [--force]
 *
 *	Learns from labelled reports and writes the model file the filter
 *	loads (STATE_DIR/model.bin by default; written atomically, so a
 *	filter running meanwhile reads the old or the new model):
 *
 *	- --dir DIR: DIR/index.tsv, or the messages in DIR/user, DIR/fuzzer
 *	  and DIR/ai (corpus.h); repeatable;
 *	- --from-corrections: every report whose class a triager changed
 *	  with 'triage reclassify', labelled with the triager's class, from
 *	  the database (STATE_DIR/triage.db, or --db FILE).  The raw message
 *	  is parsed again when the database kept it, else its stored subject
 *	  and decoded body are used.  Corrections to "uncertain" teach
 *	  nothing and are skipped.
 *
 *	--split FILE (corpus_split(), e.g. classifiers/split.tsv for
 *	../shared/corpus/reports): every message of the directories must
 *	be marked "tune" or "held-out" by its Message-ID, and no
 *	author/thread group may cross the split; the held-out messages,
 *	and any correction whose Message-ID is held out, are left out of
 *	training, so that 'triage eval --split' can still judge the model
 *	on them.
 *
 *	Training never forgets.  The directories and the split a model
 *	was trained on are written next to it (OUTPUT.sources, one
 *	"dir PATH" or "split PATH" line each, absolute).  --from-corrections
 *	without --dir trains on those base directories again plus every
 *	correction, the corrections weighing TRAIN_CORRECTION_WEIGHT
 *	examples each; a model trained on a few corrections alone would
 *	abstain or forget what the base data taught.  The new model then
 *	replaces the current one only when it votes (model_ready()) and,
 *	when the split holds messages out, scores them no worse (macro-F1
 *	of its argmax) than the current model: both are printed, BEFORE and
 *	AFTER on the held-out part.  --force replaces it anyway.
 *
 *	--bits N: 2^N feature buckets (default 18); the shipped model
 *	(tools/train-model.sh) uses 16, which the model.h measurements
 *	found as good, at a quarter of the size.
 *
 *	Reports are grouped by author and thread (corpus_group()); the
 *	groups keep the model's temperature calibration honest
 *	(model_train_add_group()).
 *
 *	Printed: the examples per class and source, the groups, then, on
 *	K (5) folds grouped by author and thread, the figures BEFORE (the
 *	current model file, unchanged, scoring every held-out fold) and
 *	AFTER (a model retrained on the other folds scoring the same
 *	fold), for all examples and for the corrections alone.  The
 *	current model may have learned some of these reports: its figures
 *	are then optimistic.  --no-cv skips the comparison.  The figures
 *	are the model's alone (argmax of its posteriors); 'triage eval'
 *	measures the whole classifier.
 *
 *	Exit 0 when the model was written, EX_CANTCREAT too when a worse
 *	or abstaining model was not written (the current one is kept),
 *	EX_NOINPUT when there was
 *	nothing to learn from or a source could not be read, EX_DATAERR
 *	when the split does not mark every message of the directories or
 *	crosses a group, EX_CANTCREAT when the file could not be written.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

#include "audit.h"
#include "cmd.h"
#include "config.h"
#include "corpus.h"
#include "model.h"
#include "parse.h"
#include "rules.h"
#include "strbuf.h"
#include "util.h"

#define TRAIN_MAX_DIRS	   16
#define TRAIN_MAX_UNMARKED 10 /* unmarked messages named */
/*
 * A correction is a triager's considered verdict on a report this site
 * really received, against a few hundred base examples: it counts as
 * this many examples so that a handful of them move the model.
 */
#define TRAIN_CORRECTION_WEIGHT 3.0
#define TRAIN_SOURCES_MAX	(64u << 10)

/* what a model was trained on: OUTPUT.sources */
struct sources {
	char *dir[TRAIN_MAX_DIRS];
	size_t ndirs;
	char *split;
};

static void sources_release(struct sources *s)
{
	size_t i;

	for (i = 0; i < s->ndirs; i++)
		free(s->dir[i]);
	free(s->split);
	memset(s, 0, sizeof(*s));
}

/* sources_read - OUTPUT.sources: 0 read, 1 absent, -1 bad (printed) */
static int sources_read(const char *output, struct sources *s)
{
	char *path = xasprintf("%s.sources", output), *text, *line,
	     *save = NULL;
	size_t len;
	int ret = 0;

	memset(s, 0, sizeof(*s));
	if (access(path, R_OK) < 0) {
		free(path);
		return 1;
	}
	if (read_file(path, TRAIN_SOURCES_MAX, &text, &len) < 0) {
		free(path);
		return -1;
	}
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "dir ", 4) == 0 && s->ndirs < TRAIN_MAX_DIRS)
			s->dir[s->ndirs++] = xstrdup(line + 4);
		else if (strncmp(line, "split ", 6) == 0 && !s->split)
			s->split = xstrdup(line + 6);
		else if (line[0] != '#')
			ret = error("%s: bad line '%.40s'", path, line);
	}
	free(text);
	free(path);
	if (ret < 0)
		sources_release(s);
	return ret;
}

/* sources_write - OUTPUT.sources for the next --from-corrections */
static void sources_write(const char *output, const struct opt_list *dirs,
			  const char *split)
{
	char *path = xasprintf("%s.sources", output), *abs;
	struct strbuf sb = STRBUF_INIT(TRAIN_SOURCES_MAX);
	size_t i;

	sb_adds(&sb, "# what triage train learned from (train.c)\n");
	for (i = 0; i < dirs->n; i++) {
		abs = realpath(dirs->v[i], NULL);
		sb_addf(&sb, "dir %s\n", abs ? abs : dirs->v[i]);
		free(abs);
	}
	if (split) {
		abs = realpath(split, NULL);
		sb_addf(&sb, "split %s\n", abs ? abs : split);
		free(abs);
	}
	if (write_file_atomic(path, sb_str(&sb), sb.len, 0660) < 0)
		warn("could not write %s: the next --from-corrections will not know the base data",
		     path);
	sb_release(&sb);
	free(path);
}

static int load_corrections(struct corpus *c, struct cmd_ctx *ctx,
			    const char *db_path)
{
	char *path = db_path ? xstrdup(db_path)
			     : config_state_path(cmd_config(ctx), "triage.db");
	struct audit *db = NULL;
	size_t skipped = 0;
	bool temporary;
	int n;

	if (access(path, R_OK) < 0) {
		error("no database '%s' to read corrections from", path);
		free(path);
		return -1;
	}
	if (audit_open(path, AUDIT_RDONLY, AUDIT_BUSY_TIMEOUT_MS, &db,
		       &temporary) < 0) {
		free(path);
		return -1;
	}
	n = corpus_add_corrections(c, db, &skipped);
	audit_close(db);
	if (n >= 0)
		printf("corrections: %d from %s%s", n, path,
		       skipped ? "" : "\n");
	if (n >= 0 && skipped)
		printf(" (%zu to uncertain or unreadable, skipped)\n", skipped);
	free(path);
	return n < 0 ? -1 : 0;
}

/*
 * leave_out - mark c by the split at path and drop its held-out
 * messages; every message of the directories (before *first_correction)
 * must be marked; *first_correction follows the drop.  0, or an exit code
 */
static int leave_out(struct corpus *c, const char *path,
		     size_t *first_correction)
{
	size_t i, dirs_held = 0, dropped;

	if (corpus_split_check(c, path, *first_correction, TRAIN_MAX_UNMARKED) <
	    0)
		return EX_DATAERR;
	for (i = 0; i < *first_correction; i++)
		if (c->items[i].part == CORPUS_HELD_OUT)
			dirs_held++;
	dropped = corpus_drop_part(c, CORPUS_HELD_OUT);
	*first_correction -= dirs_held;
	corpus_group(c);
	printf("split %s: %zu held-out messages left out (%zu corrections)\n",
	       path, dropped, dropped - dirs_held);
	return 0;
}

static void print_counts(const struct corpus *c, size_t first_correction)
{
	size_t i, dirs[CLASS_N] = { 0 }, corr[CLASS_N] = { 0 };
	int k;

	for (i = 0; i < c->n; i++) {
		if (i < first_correction)
			dirs[c->items[i].cls]++;
		else
			corr[c->items[i].cls]++;
	}
	printf("%-14s %6s %6s %6s\n", "examples", "user", "fuzzer", "ai");
	if (first_correction)
		printf("%-14s %6zu %6zu %6zu\n", "directories", dirs[0],
		       dirs[1], dirs[2]);
	if (c->n > first_correction)
		printf("%-14s %6zu %6zu %6zu\n", "corrections", corr[0],
		       corr[1], corr[2]);
	printf("%-14s", "total");
	for (k = 0; k < CLASS_N; k++)
		printf(" %6zu", dirs[k] + corr[k]);
	printf("\n%zu author/thread groups", c->ngroups);
	if (c->skipped)
		printf("; %zu messages skipped", c->skipped);
	putchar('\n');
}

static int argmax(const double *p)
{
	int c, best = 0;

	for (c = 1; c < MODEL_NCLASS; c++)
		if (p[c] > p[best])
			best = c;
	return best;
}

/* tally - count one prediction with its posteriors (log-loss too) */
static void tally(struct model_eval *ev, int truth, const double *p)
{
	double q = p[truth] > 1e-300 ? p[truth] : 1e-300;

	/* running sum; tally_finish() divides */
	ev->log_loss -= log(q);
	model_eval_add(ev, truth, argmax(p));
}

static void tally_finish(struct model_eval *ev)
{
	ev->log_loss = ev->n ? ev->log_loss / (double)ev->n : 0;
	ev->log_loss_fitted = ev->log_loss;
	ev->temperature_factor = 1;
	model_eval_finish(ev);
}

static unsigned right(const struct model_eval *ev)
{
	unsigned n = 0;
	int c;

	for (c = 0; c < MODEL_NCLASS; c++)
		n += ev->confusion[c][c];
	return n;
}

/*
 * compare - the current model against models retrained on grouped
 * folds, over all examples and over the corrections (from index first)
 */
static int compare(const struct corpus *c, size_t first_correction,
		   const struct model_options *o, unsigned k,
		   const char *current_path)
{
	struct model_example *ex = xcalloc(c->n + 1, sizeof(*ex));
	struct model_eval after, before, after_c, before_c;
	double(*post)[MODEL_NCLASS] = xcalloc(c->n + 1, sizeof(*post));
	struct model *cur = NULL;
	size_t i, abstained = 0;
	int ret = 0;

	for (i = 0; i < c->n; i++) {
		corpus_model_input(&c->items[i], &ex[i].in);
		ex[i].cls = c->items[i].cls;
		ex[i].group = c->items[i].group;
		ex[i].weight = 1;
	}
	printf("\nmodel figures on %u folds grouped by author and thread (argmax of the posteriors)\n",
	       k);
	if (model_cross_validate(ex, c->n, k, o, &after, NULL, post) < 0) {
		printf("(no cross-validation: too few groups)\n");
		ret = -1;
		goto out;
	}
	if (current_path && access(current_path, R_OK) == 0)
		cur = model_open(current_path);
	memset(&before, 0, sizeof(before));
	memset(&before_c, 0, sizeof(before_c));
	memset(&after_c, 0, sizeof(after_c));
	for (i = 0; i < c->n; i++) {
		double p[MODEL_NCLASS];

		if (i >= first_correction)
			tally(&after_c, ex[i].cls, post[i]);
		if (!cur)
			continue;
		if (model_score(cur, &ex[i].in, p) != 1)
			abstained++;
		tally(&before, ex[i].cls, p);
		if (i >= first_correction)
			tally(&before_c, ex[i].cls, p);
	}
	tally_finish(&before);
	tally_finish(&before_c);
	tally_finish(&after_c);
	if (cur) {
		printf("before: the current model %s, unchanged (abstained on %zu; it may have learned these reports)\n",
		       current_path, abstained);
		model_eval_print(stdout, "before", &before);
	} else {
		printf("before: no current model%s%s\n",
		       current_path ? " at " : "",
		       current_path ? current_path : "");
	}
	printf("after: retrained on the other folds\n");
	model_eval_print(stdout, "after", &after);
	if (c->n > first_correction) {
		if (cur)
			printf("the %zu corrections alone: before %u right, after %u right\n",
			       c->n - first_correction, right(&before_c),
			       right(&after_c));
		else
			printf("the %zu corrections alone: after %u right (no current model)\n",
			       c->n - first_correction, right(&after_c));
		if (cur)
			model_eval_print(stdout, "corrections before",
					 &before_c);
		model_eval_print(stdout, "corrections after", &after_c);
	}
out:
	model_free(cur);
	free(post);
	free(ex);
	return ret;
}

/* kind_option - --kind lr|nb */
static int kind_option(const struct opt *opt, const char *arg)
{
	enum model_kind *kind = opt->value;

	if (strcmp(arg, "lr") == 0)
		*kind = MODEL_LR;
	else if (strcmp(arg, "nb") == 0)
		*kind = MODEL_NB;
	else
		return error("--kind: lr or nb");
	return 0;
}

/* held_eval - a model's argmax on the held-out messages */
static void held_eval(const struct model *m, const struct corpus *held,
		      struct model_eval *ev, size_t *abstained)
{
	size_t i;

	memset(ev, 0, sizeof(*ev));
	*abstained = 0;
	for (i = 0; i < held->n; i++) {
		struct model_input in;
		double p[MODEL_NCLASS];

		corpus_model_input(&held->items[i], &in);
		if (model_score(m, &in, p) != 1)
			(*abstained)++;
		tally(ev, held->items[i].cls, p);
	}
	tally_finish(ev);
}

/*
 * gate - may m replace the model at output?  Prints why not; the
 * held-out part (may be empty) judges both
 */
static bool gate(const struct model *m, const char *output,
		 const struct corpus *held, bool force)
{
	struct model *cur = NULL;
	struct model_eval before, after;
	size_t ab_before = 0, ab_after = 0;
	bool ok = true;

	if (access(output, R_OK) == 0)
		cur = model_open(output);
	if (!model_ready(m) && cur && model_ready(cur)) {
		printf("the new model abstains (every class needs enough examples), the current one votes\n");
		ok = false;
	}
	if (held->n) {
		printf("\nheld-out part, %zu messages (argmax of the posteriors)\n",
		       held->n);
		if (cur) {
			held_eval(cur, held, &before, &ab_before);
			printf("before: %s (abstained on %zu)\n", output,
			       ab_before);
			model_eval_print(stdout, "before", &before);
		}
		held_eval(m, held, &after, &ab_after);
		printf("after: the new model (abstained on %zu)\n", ab_after);
		model_eval_print(stdout, "after", &after);
		if (cur && (after.macro_f1 < before.macro_f1 - 1e-9 ||
			    ab_after > ab_before)) {
			printf("the new model is worse on the held-out part: macro-F1 %.3f, was %.3f\n",
			       after.macro_f1, before.macro_f1);
			ok = false;
		}
	} else if (cur) {
		printf("note: no held-out part (--split): the new model is only checked to vote\n");
	}
	model_free(cur);
	if (ok)
		return true;
	if (force) {
		printf("--force: replacing it anyway\n");
		return true;
	}
	printf("not written: %s stays as it is (--force replaces it)\n",
	       output);
	return false;
}

/*
 * base_data - the directories (and split) the model at output was
 * trained on, from its .sources, added to dirs; none is no error (the
 * corrections alone); -1 when it cannot be read
 */
static int base_data(const char *output, struct sources *base,
		     struct opt_list *dirs, const char **split)
{
	int r = sources_read(output, base);
	size_t i;

	if (r < 0)
		return -1;
	if (r > 0) {
		printf("note: no %s.sources: no base data, the corrections alone\n",
		       output);
		return 0;
	}
	for (i = 0; i < base->ndirs; i++)
		dirs->v[dirs->n++] = base->dir[i];
	if (!*split)
		*split = base->split;
	printf("base data of %s: %zu directories%s%s\n", output, base->ndirs,
	       *split ? ", split " : "", *split ? *split : "");
	return 0;
}

/* train_all - a model of the corpus, corrections weighed up; NULL: *ret */
static struct model *train_all(const struct corpus *corpus,
			       size_t first_correction,
			       const struct model_options *o, int *ret)
{
	struct model_trainer *t = model_train_new(o);
	struct model *m;
	size_t i;

	if (!t) {
		*ret = EX_USAGE;
		return NULL;
	}
	for (i = 0; i < corpus->n; i++) {
		struct model_input in;

		corpus_model_input(&corpus->items[i], &in);
		model_train_add_group(
			t, &in, corpus->items[i].cls,
			i >= first_correction ? TRAIN_CORRECTION_WEIGHT : 1,
			corpus->items[i].group);
	}
	m = model_train_finish(t);
	if (!m)
		*ret = EX_SOFTWARE;
	return m;
}

int cmd_train(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const char *const usage[] = {
		"triage train [--dir DIR]... [--from-corrections [--db FILE]] [OPTIONS]",
		NULL
	};
	const char *dirs_v[TRAIN_MAX_DIRS], *db_path = NULL, *output = NULL;
	struct opt_list dirs = { dirs_v, 0, TRAIN_MAX_DIRS };
	const char *split = NULL;
	bool corrections = false, cv = true, force = false;
	unsigned long k = 5, seed = 1, bits = 0;
	struct model_options o;
	const struct opt opts[] = {
		OPT_LIST(0, "dir", &dirs, "DIR",
			 "labelled messages (index.tsv, or user/ fuzzer/ ai/)"),
		OPT_BOOL(0, "from-corrections", &corrections,
			 "the reports whose class a triager changed"),
		OPT_STRING(0, "db", &db_path, "FILE",
			   "their database (default: STATE_DIR/triage.db)"),
		OPT_STRING(0, "split", &split, "FILE",
			   "leave the held-out messages out"),
		OPT_STRING(0, "output", &output, "FILE",
			   "write here, not to STATE_DIR/model.bin"),
		OPT_CALLBACK(0, "kind", &o.kind, "lr|nb",
			     "logistic regression (default) or naive Bayes", 0,
			     kind_option),
		OPT_ULONG(0, "bits", &bits, "N",
			  "2^N feature buckets (default 18)", MODEL_BITS_MIN,
			  MODEL_BITS_MAX),
		OPT_CMD_FOLDS(&k, &seed),
		OPT_NEGBOOL(0, "no-cv", &cv,
			    "no comparison of the current and the new model"),
		OPT_BOOL(0, "force", &force,
			 "replace the model even by a worse or abstaining one"),
		OPT_END(),
	};
	struct model *m;
	struct corpus corpus, held;
	struct sources base;
	char *out_owned = NULL;
	size_t i, first_correction;
	int ret = 0;

	model_options_init(&o);
	memset(&base, 0, sizeof(base));
	if (parse_options(argc, argv, opts, usage, 0) ||
	    (!dirs.n && !corrections) || (db_path && !corrections))
		usage_with_options(usage, opts);
	o.seed = seed;
	if (bits)
		o.table_bits = (unsigned)bits;
	corpus_init(&corpus);
	corpus_init(&held);
	if (!output) {
		const char *sd = config_get(cmd_config(ctx), "state_dir");

		out_owned = config_state_path(cmd_config(ctx), "model.bin");
		output = out_owned;
		if (sd && mkdir_p(sd, 02770) < 0) {
			ret = EX_CANTCREAT;
			goto out;
		}
	}
	/* corrections alone: learn them on top of the base data again */
	if (corrections && !dirs.n &&
	    base_data(output, &base, &dirs, &split) < 0) {
		ret = EX_NOINPUT;
		goto out;
	}

	for (i = 0; i < dirs.n; i++) {
		if (corpus_load(&corpus, dirs.v[i]) < 0 ||
		    (split && corpus_load(&held, dirs.v[i]) < 0)) {
			ret = EX_NOINPUT;
			goto out;
		}
	}
	first_correction = corpus.n;
	if (corrections && load_corrections(&corpus, ctx, db_path) < 0) {
		ret = EX_NOINPUT;
		goto out;
	}
	corpus_group(&corpus);
	if (split && (ret = leave_out(&corpus, split, &first_correction)))
		goto out;
	if (split) {
		/* the held-out messages of the directories judge the gate */
		corpus_group(&held);
		if (corpus_split_check(&held, split, held.n,
				       TRAIN_MAX_UNMARKED) < 0) {
			ret = EX_DATAERR;
			goto out;
		}
		corpus_drop_part(&held, CORPUS_TUNE);
	}
	if (!corpus.n) {
		error("nothing to learn from");
		ret = EX_NOINPUT;
		goto out;
	}
	print_counts(&corpus, first_correction);
	if (corpus.n > first_correction)
		printf("each correction weighs %.0f examples\n",
		       TRAIN_CORRECTION_WEIGHT);

	if (cv)
		compare(&corpus, first_correction, &o, (unsigned)k, output);

	m = train_all(&corpus, first_correction, &o, &ret);
	if (!m)
		goto out;
	if (!gate(m, output, &held, force)) {
		ret = EX_CANTCREAT;
	} else if (model_save(m, output) < 0) {
		ret = EX_CANTCREAT;
	} else {
		printf("\nwrote %s: %s, %u user, %u fuzzer, %u ai examples\n",
		       output,
		       model_kind(m) == MODEL_NB ? "naive Bayes"
						 : "logistic regression",
		       model_examples(m, MODEL_USER),
		       model_examples(m, MODEL_FUZZER),
		       model_examples(m, MODEL_AI));
		if (!model_ready(m))
			printf("note: the model abstains until every class has enough examples\n");
		if (base.ndirs == 0 && dirs.n)
			sources_write(output, &dirs, split);
	}
	model_free(m);
out:
	free(out_owned);
	sources_release(&base);
	corpus_release(&corpus);
	corpus_release(&held);
	parse_shutdown();
	return ret;
}
