// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_model_shared - the statistical model on the public labelled corpus
 *
 * Reads ../shared/corpus/reports (or $TRIAGE_SHARED/corpus/reports)
 * through corpus.c, which parses every message with parse.c as the
 * filter does and joins messages into author/thread groups (see
 * corpus.h), and marks each message by classifiers/split.tsv
 * ($TRIAGE_SRCDIR): "tune" or "held-out".  Naive Bayes and logistic
 * regression are trained on the tuning part only and judged on the
 * held-out part, which nothing was trained or fitted on; the floors are
 * just under the held-out figures measured when the split was made.
 * Grouped 5-fold cross-validation on the tuning part is printed too
 * (labelled so): the model's defaults were chosen that way, so it is no
 * held-out figure and has no floor.  Every figure is printed as "# "
 * lines.  Skipped with a message when the data is absent.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "corpus.h"
#include "model.h"
#include "parse.h"
#include "report.h"
#include "util.h"

static char *corpus_dir, *split_path;
static int unmarked; /* corpus_split() in setup() */

/*
 * Floors on the held-out part, just under what was measured when the
 * split was made (57 held-out messages, the model trained on the 106 of
 * the tuning part): LR macro-F1 0.815, accuracy 0.82 (47 of 57); NB
 * 0.69, 0.70 (40 of 57).  LR's were lowered when it came to be scored
 * as it is trained (model.h): 0.72, 0.74 (42 of 57) with so few
 * examples, its fuzzer recall 0.78 -> 0.61 (the unscaled sums of long
 * crash logs had made them certain); a trade model.h records.
 */
struct floors {
	double macro_f1, accuracy;
};
static const struct floors lr_floors = { 0.70, 0.72 };
static const struct floors nb_floors = { 0.65, 0.66 };

/* examples - the items of one part as model examples; *n their count */
static struct model_example *examples(const struct corpus *c, int part,
				      size_t *n)
{
	struct model_example *ex = xcalloc(c->n + 1, sizeof(*ex));
	size_t i;

	*n = 0;
	for (i = 0; i < c->n; i++) {
		if (c->items[i].part != part)
			continue;
		corpus_model_input(&c->items[i], &ex[*n].in);
		ex[*n].cls = c->items[i].cls;
		ex[*n].group = c->items[i].group;
		ex[*n].weight = 1;
		(*n)++;
	}
	return ex;
}

/* ---- tests ---------------------------------------------------------------------- */

static int setup(void **state)
{
	static struct corpus corpus;

	corpus_init(&corpus);
	if (corpus_load(&corpus, corpus_dir) < 0)
		return -1;
	corpus_group(&corpus);
	unmarked = corpus_split(&corpus, split_path);
	*state = &corpus;
	return 0;
}

static int teardown(void **state)
{
	corpus_release(*state);
	parse_shutdown();
	return 0;
}

static void test_corpus_loaded(void **state)
{
	const struct corpus *c = *state;
	size_t i, empty = 0;

	assert_true(c->n >= 100);
	assert_int_equal(c->skipped, 0);
	for (i = 0; i < c->n; i++)
		empty += !c->items[i].report->body_len;
	printf("# corpus: %zu messages in %zu author/thread groups, "
	       "%zu without a text body\n",
	       c->n, c->ngroups, empty);
	assert_true(c->ngroups > 50 && c->ngroups < c->n);
	assert_true(empty < c->n / 10);
}

/* every message is marked, no group crosses, each class is held out */
static void test_split(void **state)
{
	const struct corpus *c = *state;
	size_t held[MODEL_NCLASS] = { 0 }, all[MODEL_NCLASS] = { 0 }, i;
	int cls;

	assert_int_equal(unmarked, 0);
	assert_null(corpus_split_crossing(c));
	for (i = 0; i < c->n; i++) {
		all[c->items[i].cls]++;
		held[c->items[i].cls] += c->items[i].part == CORPUS_HELD_OUT;
	}
	for (cls = 0; cls < MODEL_NCLASS; cls++) {
		printf("# split: %s %zu of %zu held out\n",
		       model_class_name(cls), held[cls], all[cls]);
		assert_true(held[cls] * 100 >= all[cls] * 30);
		assert_true(held[cls] * 100 <= all[cls] * 40);
	}
}

static void run_held_out(const struct corpus *c, enum model_kind kind,
			 const char *name, const struct floors *floor)
{
	size_t ntune, nheld, i;
	struct model_example *tune = examples(c, CORPUS_TUNE, &ntune);
	struct model_example *held = examples(c, CORPUS_HELD_OUT, &nheld);
	struct model_options o;
	struct model_trainer *t;
	struct model *m;
	struct model_eval ev;
	char label[96];

	assert_true(ntune > 0 && nheld > 0);
	model_options_init(&o);
	o.kind = kind;
	t = model_train_new(&o);
	assert_non_null(t);
	for (i = 0; i < ntune; i++)
		assert_int_equal(model_train_add_group(t, &tune[i].in,
						       tune[i].cls, 1,
						       tune[i].group),
				 0);
	m = model_train_finish(t);
	assert_non_null(m);
	memset(&ev, 0, sizeof(ev));
	for (i = 0; i < nheld; i++) {
		double p[MODEL_NCLASS];
		int best = 0, k;

		if (model_score(m, &held[i].in, p) != 1)
			ev.abstained++;
		for (k = 1; k < MODEL_NCLASS; k++)
			if (p[k] > p[best])
				best = k;
		model_eval_add(&ev, held[i].cls, best);
		ev.log_loss -=
			log(p[held[i].cls] > 1e-300 ? p[held[i].cls] : 1e-300);
	}
	model_eval_finish(&ev);
	ev.log_loss /= (double)nheld;
	ev.log_loss_fitted = ev.log_loss; /* no temperature refitted */
	ev.temperature_factor = 1;
	snprintf(label, sizeof(label),
		 "model %s trained on the tuning part, held out", name);
	model_eval_print(stdout, label, &ev);
	fflush(stdout);
	assert_int_equal(ev.n, nheld);
	assert_int_equal(ev.abstained, 0);
	assert_true(ev.macro_f1 >= floor->macro_f1);
	assert_true(ev.accuracy >= floor->accuracy);
	model_free(m);
	free(tune);
	free(held);
}

static void run_cv_tuning(const struct corpus *c, enum model_kind kind,
			  const char *name)
{
	size_t n;
	struct model_example *ex = examples(c, CORPUS_TUNE, &n);
	struct model_options o;
	struct model_eval ev;
	char label[96];

	model_options_init(&o);
	o.kind = kind;
	assert_int_equal(model_cross_validate(ex, n, 5, &o, &ev, NULL, NULL),
			 0);
	snprintf(label, sizeof(label),
		 "model %s, tuning part, 5-fold grouped CV", name);
	model_eval_print(stdout, label, &ev);
	fflush(stdout);
	assert_int_equal(ev.n, n);
	free(ex);
}

static void test_held_out_lr(void **state)
{
	run_held_out(*state, MODEL_LR, "LR", &lr_floors);
}

static void test_held_out_nb(void **state)
{
	run_held_out(*state, MODEL_NB, "NB", &nb_floors);
}

static void test_cv_tuning_lr(void **state)
{
	run_cv_tuning(*state, MODEL_LR, "LR");
}

static void test_cv_tuning_nb(void **state)
{
	run_cv_tuning(*state, MODEL_NB, "NB");
}

static bool find_corpus(void)
{
	const char *shared = getenv("TRIAGE_SHARED");
	const char *src = getenv("TRIAGE_SRCDIR");
	char *dir;
	struct stat st;

	if (shared && *shared)
		dir = xasprintf("%s/corpus/reports", shared);
	else
		dir = xasprintf("%s/../shared/corpus/reports",
				src && *src ? src : ".");
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		printf("# %s is absent: skipping the real-data model test\n",
		       dir);
		free(dir);
		return false;
	}
	corpus_dir = dir;
	split_path =
		xasprintf("%s/classifiers/split.tsv", src && *src ? src : ".");
	return true;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus_loaded),
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_held_out_lr),
		cmocka_unit_test(test_held_out_nb),
		cmocka_unit_test(test_cv_tuning_lr),
		cmocka_unit_test(test_cv_tuning_nb),
	};
	int ret;

	if (!find_corpus())
		return 0;
	ret = cmocka_run_group_tests(tests, setup, teardown);
	free(corpus_dir);
	free(split_path);
	return ret;
}
