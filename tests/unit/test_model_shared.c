// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_model_shared - the statistical model on the public labelled corpus
 *
 * Reads ../shared/corpus/reports (or $TRIAGE_SHARED/corpus/reports)
 * through corpus.c, which parses every message with parse.c as the
 * filter does and joins messages into author/thread groups (see
 * corpus.h), runs grouped 5-fold cross-validation of naive Bayes and
 * logistic regression and prints the figures as "# " lines.  Skipped
 * with a message when the data is absent.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "corpus.h"
#include "model.h"
#include "parse.h"
#include "report.h"
#include "util.h"

static char *corpus_dir;

static struct model_example *examples(const struct corpus *c)
{
	struct model_example *ex = xcalloc(c->n + 1, sizeof(*ex));
	size_t i;

	for (i = 0; i < c->n; i++) {
		corpus_model_input(&c->items[i], &ex[i].in);
		ex[i].cls = c->items[i].cls;
		ex[i].group = c->items[i].group;
		ex[i].weight = 1;
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
	*state = &corpus;
	return 0;
}

static int teardown(void **state)
{
	corpus_release(*state);
	parse_shutdown();
	return 0;
}

static void run_cv(const struct corpus *c, enum model_kind kind,
		   const char *name)
{
	struct model_example *ex = examples(c);
	struct model_options o;
	struct model_eval ev;
	char label[64];
	size_t cls[MODEL_NCLASS] = { 0 }, i, majority = 0;

	model_options_init(&o);
	o.kind = kind;
	assert_int_equal(model_cross_validate(ex, c->n, 5, &o, &ev, NULL, NULL),
			 0);
	snprintf(label, sizeof(label), "model %s 5-fold grouped", name);
	model_eval_print(stdout, label, &ev);
	fflush(stdout);
	assert_int_equal(ev.n, c->n);
	/* above chance: uniform guessing gives a macro-F1 near 1/3, the
	 * majority class an accuracy of its share */
	for (i = 0; i < c->n; i++)
		cls[c->items[i].cls]++;
	for (i = 0; i < MODEL_NCLASS; i++)
		if (cls[i] > majority)
			majority = cls[i];
	assert_true(ev.macro_f1 > 1.0 / MODEL_NCLASS);
	assert_true(ev.accuracy > (double)majority / (double)c->n);
	free(ex);
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

static void test_cv_nb(void **state)
{
	run_cv(*state, MODEL_NB, "NB");
}

static void test_cv_lr(void **state)
{
	run_cv(*state, MODEL_LR, "LR");
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
	return true;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus_loaded),
		cmocka_unit_test(test_cv_nb),
		cmocka_unit_test(test_cv_lr),
	};
	int ret;

	if (!find_corpus())
		return 0;
	ret = cmocka_run_group_tests(tests, setup, teardown);
	free(corpus_dir);
	return ret;
}
