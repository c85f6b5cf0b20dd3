// SPDX-License-Identifier: GPL-2.0-only
/*
 * model_train - training the statistical classifier, and grouped
 * cross-validation (see model_int.h)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "model_int.h"
#include "util.h"

/* ---- training ------------------------------------------------------------ */

/* model_train_new - an empty trainer (o NULL: defaults) */
struct model_trainer *model_train_new(const struct model_options *o)
{
	struct model_trainer *t = xcalloc(1, sizeof(*t));

	if (o)
		t->o = *o;
	else
		model_options_init(&t->o);
	if (md_options_check(&t->o) < 0) {
		free(t);
		return NULL;
	}
	md_conf_from_options(&t->conf, &t->o);
	t->seen = md_bitmap_new(t->o.table_bits);
	return t;
}

static void extract(const struct tok_conf *c, uint64_t *seen,
		    const struct model_input *in, struct example *ex)
{
	struct tok t;
	size_t i;

	md_tok_init(&t, c, seen);
	t.ids = xmalloc(64 * sizeof(*t.ids));
	t.alloc = 64;
	md_tokenize(&t, in);
	for (i = 0; i < t.nids; i++)
		seen[t.ids[i] >> 6] = 0;
	ex->ids = t.ids;
	ex->n = (uint32_t)t.nids;
	ex->nwords = t.nwords;
}

/* model_train_add - learn one report of class cls with weight (> 0) */
int model_train_add(struct model_trainer *t, const struct model_input *in,
		    int cls, double weight)
{
	return model_train_add_group(t, in, cls, weight, NULL);
}

/* model_train_add_group - the same, with a group for calibration folds */
int model_train_add_group(struct model_trainer *t, const struct model_input *in,
			  int cls, double weight, const char *group)
{
	struct example *ex;

	if (cls < 0 || cls >= MODEL_NCLASS)
		return error("model: no class %d", cls);
	if (!(weight > 0) || !isfinite(weight))
		return error("model: a weight must be positive");
	ALLOC_GROW(t->ex, t->nex, t->alloc);
	ex = &t->ex[t->nex++];
	memset(ex, 0, sizeof(*ex));
	extract(&t->conf, t->seen, in, ex);
	ex->cls = cls;
	ex->weight = weight;
	ex->group = group ? xstrdup(group) : NULL;
	return 0;
}

/* model_train_free - drop a trainer without building a model */
void model_train_free(struct model_trainer *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nex; i++) {
		free(t->ex[i].ids);
		free((char *)t->ex[i].group);
	}
	free(t->ex);
	free(t->seen);
	free(t);
}

static void train_nb(const struct model_options *o, const struct example *ex,
		     size_t n, const bool *use, float *w, float *bias,
		     uint32_t *nused)
{
	size_t nb = (size_t)1 << o->table_bits, i, b, vocab = 0;
	double *cnt = xcalloc(nb * MODEL_NCLASS, sizeof(double));
	double tot[MODEL_NCLASS] = { 0 }, docs[MODEL_NCLASS] = { 0 }, all = 0;
	double denom[MODEL_NCLASS], mean;
	int c;

	for (i = 0; i < n; i++) {
		if (use && !use[i])
			continue;
		for (b = 0; b < ex[i].n; b++) {
			cnt[(size_t)ex[i].ids[b] * MODEL_NCLASS + ex[i].cls] +=
				ex[i].weight;
		}
		tot[ex[i].cls] += ex[i].weight * ex[i].n;
		docs[ex[i].cls] += ex[i].weight;
		all += ex[i].weight;
	}
	for (b = 0; b < nb; b++)
		if (cnt[b * 3] || cnt[b * 3 + 1] || cnt[b * 3 + 2])
			vocab++;
	for (c = 0; c < MODEL_NCLASS; c++)
		denom[c] = tot[c] + o->alpha * (double)(vocab ? vocab : 1);
	*nused = 0;
	for (b = 0; b < nb; b++) {
		double lp[MODEL_NCLASS];
		const double *k = cnt + b * MODEL_NCLASS;

		if (!k[0] && !k[1] && !k[2])
			continue;
		(*nused)++;
		mean = 0;
		for (c = 0; c < MODEL_NCLASS; c++) {
			lp[c] = log((k[c] + o->alpha) / denom[c]);
			mean += lp[c] / MODEL_NCLASS;
		}
		for (c = 0; c < MODEL_NCLASS; c++)
			w[b * MODEL_NCLASS + c] = (float)(lp[c] - mean);
	}
	mean = 0;
	for (c = 0; c < MODEL_NCLASS; c++) {
		bias[c] = o->balanced ? 0.0f
				      : (float)log((docs[c] + 1) /
						   (all + MODEL_NCLASS));
		mean += bias[c] / MODEL_NCLASS;
	}
	for (c = 0; c < MODEL_NCLASS; c++)
		bias[c] -= (float)mean;
	free(cnt);
}

static uint64_t rng_next(uint64_t *s)
{
	*s += 0x9e3779b97f4a7c15ull;
	return hash_mix64(*s);
}

static void train_lr(const struct model_options *o, const struct example *ex,
		     size_t n, const bool *use, float *w,
		     struct model_header *h)
{
	float *bias = h->bias;
	size_t nb = (size_t)1 << o->table_bits, i, b, m = 0, step = 0;
	double *W = xcalloc(nb * MODEL_NCLASS, sizeof(double));
	double bw[MODEL_NCLASS] = { 0 }, cw[MODEL_NCLASS], s = 1, mean;
	size_t ncls[MODEL_NCLASS] = { 0 },
	       *order = xmalloc((n + 1) * sizeof(*order));
	uint64_t rng = o->seed;
	unsigned e;
	int c, present = 0;

	for (i = 0; i < n; i++) {
		if (use && !use[i])
			continue;
		order[m++] = i;
		ncls[ex[i].cls]++;
	}
	for (c = 0; c < MODEL_NCLASS; c++)
		present += ncls[c] > 0;
	for (c = 0; c < MODEL_NCLASS; c++)
		cw[c] = o->balanced && ncls[c] ? (double)m / ((double)present *
							      (double)ncls[c])
					       : 1.0;
	for (e = 0; e < o->epochs; e++) {
		for (i = m; i > 1; i--) {
			size_t j = rng_next(&rng) % i, tmp = order[i - 1];

			order[i - 1] = order[j];
			order[j] = tmp;
		}
		for (i = 0; i < m; i++) {
			const struct example *x = &ex[order[i]];
			double xv = md_lr_scale(h, x->n);
			double eta =
				o->rate / (1 + o->rate * o->l2 * (double)step);
			double z[MODEL_NCLASS], p[MODEL_NCLASS],
				g[MODEL_NCLASS];
			double shrink = 1 - eta * o->l2;

			for (c = 0; c < MODEL_NCLASS; c++)
				z[c] = 0;
			for (b = 0; b < x->n; b++) {
				const double *wb =
					W + (size_t)x->ids[b] * MODEL_NCLASS;

				for (c = 0; c < MODEL_NCLASS; c++)
					z[c] += wb[c];
			}
			for (c = 0; c < MODEL_NCLASS; c++)
				z[c] = bw[c] + s * xv * z[c];
			softmax(z, p);
			for (c = 0; c < MODEL_NCLASS; c++)
				g[c] = (p[c] - (c == x->cls)) * x->weight *
				       cw[x->cls];
			s *= shrink > 1e-3 ? shrink : 1e-3;
			for (b = 0; b < x->n; b++) {
				double *wb =
					W + (size_t)x->ids[b] * MODEL_NCLASS;

				for (c = 0; c < MODEL_NCLASS; c++)
					wb[c] -= eta * g[c] * xv / s;
			}
			for (c = 0; c < MODEL_NCLASS; c++)
				bw[c] -= eta * g[c];
			if (s < 1e-6) {
				for (b = 0; b < nb * MODEL_NCLASS; b++)
					W[b] *= s;
				s = 1;
			}
			step++;
		}
	}
	h->nused = 0;
	for (b = 0; b < nb; b++) {
		const double *wb = W + b * MODEL_NCLASS;

		if (!wb[0] && !wb[1] && !wb[2])
			continue;
		h->nused++;
		mean = (wb[0] + wb[1] + wb[2]) / MODEL_NCLASS;
		for (c = 0; c < MODEL_NCLASS; c++)
			w[b * MODEL_NCLASS + c] = (float)(s * (wb[c] - mean));
	}
	mean = (bw[0] + bw[1] + bw[2]) / MODEL_NCLASS;
	for (c = 0; c < MODEL_NCLASS; c++)
		bias[c] = (float)(bw[c] - mean);
	free(order);
	free(W);
}

static double calibrate(const struct model_options *o, const struct example *ex,
			size_t n, const bool *use);

/* build - a model from the examples selected by use (NULL: all) */
static struct model *build(const struct model_options *o,
			   const struct example *ex, size_t n, const bool *use)
{
	size_t nb = (size_t)1 << o->table_bits, i;
	size_t table = nb * MODEL_NCLASS * sizeof(float);
	unsigned char *base = xcalloc(1, HEADER_SIZE + table);
	struct model_header *h = (struct model_header *)base;
	float *w = (float *)(base + HEADER_SIZE);

	memcpy(h->magic, MODEL_MAGIC, 8);
	h->version = MODEL_VERSION;
	h->endian = MODEL_ENDIAN;
	h->header_size = HEADER_SIZE;
	h->kind = o->kind;
	h->table_bits = o->table_bits;
	h->nclass = MODEL_NCLASS;
	h->window = o->window;
	h->flags = (o->attachments ? MF_ATTACHMENTS : 0) |
		   (o->kind == MODEL_LR ? MF_SCALED : 0);
	h->min_examples = o->min_examples;
	h->min_tokens = o->min_tokens;
	h->text_max = MODEL_TEXT_MAX;
	h->tokens_max = MODEL_TOKENS_MAX;
	for (i = 0; i < n; i++)
		if (!use || use[i])
			h->nexamples[ex[i].cls]++;
	if (o->kind == MODEL_NB)
		train_nb(o, ex, n, use, w, h->bias, &h->nused);
	else
		train_lr(o, ex, n, use, w, h);
	h->temperature = (float)(o->temperature *
				 (o->calibrate ? calibrate(o, ex, n, use) : 1));
	h->table_off = HEADER_SIZE;
	h->table_size = table;
	h->file_size = HEADER_SIZE + table;
	h->table_crc = md_table_crc((const unsigned char *)w, table);
	h->header_crc = md_header_crc(h);
	return md_model_from_image(base, HEADER_SIZE + table, false, "model");
}

/* model_train_finish - build the model and free the trainer */
struct model *model_train_finish(struct model_trainer *t)
{
	struct model *m = build(&t->o, t->ex, t->nex, NULL);

	model_train_free(t);
	return m;
}

/* ---- evaluation ------------------------------------------------------------ */

struct group {
	const char *name;
	size_t first; /* index into the sorted order */
	size_t size;
	unsigned cls[MODEL_NCLASS];
	uint64_t tie;
};

static int cmp_by_name(const void *a, const void *b, void *names)
{
	const char *const *sort_names = names;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int r = strcmp(sort_names[x], sort_names[y]);

	return r ? r : (x > y) - (x < y);
}

static int cmp_groups(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	if (x->tie != y->tie)
		return x->tie < y->tie ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int assign_folds(const char *const *groups, const int *cls, size_t n,
			unsigned k, uint64_t seed, unsigned *fold, bool quiet);

/* model_folds - grouped, class-balanced fold assignment */
int model_folds(const char *const *groups, const int *cls, size_t n, unsigned k,
		uint64_t seed, unsigned *fold)
{
	return assign_folds(groups, cls, n, k, seed, fold, false);
}

static int assign_folds(const char *const *groups, const int *cls, size_t n,
			unsigned k, uint64_t seed, unsigned *fold, bool quiet)
{
	size_t *idx, i, j, ng = 0, best;
	const char **names;
	char **owned;
	struct group *g;
	double tot[MODEL_NCLASS] = { 0 }, (*cnt)[MODEL_NCLASS];
	size_t *fsize;
	int c;

	if (k < 2)
		return quiet ? -1 : error("model: need at least 2 folds");
	names = xcalloc(n + 1, sizeof(*names));
	owned = xcalloc(n + 1, sizeof(*owned));
	for (i = 0; i < n; i++) {
		if (groups && groups[i]) {
			names[i] = groups[i];
		} else {
			/* no group: the example is its own group */
			owned[i] = xasprintf("\x01#%zu", i);
			names[i] = owned[i];
		}
	}
	idx = xmalloc((n + 1) * sizeof(*idx));
	for (i = 0; i < n; i++)
		idx[i] = i;
	qsort_r(idx, n, sizeof(*idx), cmp_by_name, names);
	g = xcalloc(n + 1, sizeof(*g));
	for (i = 0; i < n; i = j) {
		struct group *gr = &g[ng++];

		gr->name = names[idx[i]];
		gr->first = i;
		for (j = i; j < n && !strcmp(names[idx[j]], gr->name); j++) {
			int cl = cls[idx[j]];

			if (cl >= 0 && cl < MODEL_NCLASS)
				gr->cls[cl]++;
		}
		gr->size = j - i;
		gr->tie = hash_mix64(
			md_hash_bytes(seed, gr->name, strlen(gr->name)));
	}
	if (ng < k) {
		for (i = 0; i < n; i++)
			free(owned[i]);
		free(owned);
		free(names);
		free(idx);
		free(g);
		if (quiet)
			return -1;
		return error("model: %zu groups cannot fill %u folds", ng, k);
	}
	/*
	 * Largest groups first, each to the fold whose class shares grow
	 * least (sum of squared shares), ties to the smaller fold: every
	 * fold gets a group while empty ones remain.  A group's members
	 * are idx[first .. first + size - 1].
	 */
	qsort(g, ng, sizeof(*g), cmp_groups);
	for (i = 0; i < n; i++)
		if (cls[i] >= 0 && cls[i] < MODEL_NCLASS)
			tot[cls[i]]++;
	cnt = xcalloc(k, sizeof(*cnt));
	fsize = xcalloc(k, sizeof(*fsize));
	for (i = 0; i < ng; i++) {
		double best_cost = 0;

		best = 0;
		for (j = 0; j < k; j++) {
			double cost = 0;

			for (c = 0; c < MODEL_NCLASS; c++) {
				double after, before;

				if (!tot[c])
					continue;
				after = (cnt[j][c] + g[i].cls[c]) / tot[c];
				before = cnt[j][c] / tot[c];
				cost += after * after - before * before;
			}
			if (j == 0 || cost < best_cost - 1e-12 ||
			    (cost < best_cost + 1e-12 &&
			     fsize[j] < fsize[best])) {
				best = j;
				best_cost = cost;
			}
		}
		for (c = 0; c < MODEL_NCLASS; c++)
			cnt[best][c] += g[i].cls[c];
		fsize[best] += g[i].size;
		for (j = 0; j < g[i].size; j++)
			fold[idx[g[i].first + j]] = (unsigned)best;
	}
	for (i = 0; i < n; i++)
		free(owned[i]);
	free(owned);
	free(names);
	free(idx);
	free(g);
	free(cnt);
	free(fsize);
	return (int)ng;
}

/* model_eval_add - count one prediction */
void model_eval_add(struct model_eval *ev, int truth, int predicted)
{
	if (truth < 0 || truth >= MODEL_NCLASS || predicted < 0 ||
	    predicted >= MODEL_NCLASS)
		return;
	ev->confusion[truth][predicted]++;
	ev->n++;
}

/* model_eval_finish - precision, recall, F1, macro-F1 and accuracy */
void model_eval_finish(struct model_eval *ev)
{
	unsigned right = 0;
	int c, d;

	ev->macro_f1 = 0;
	for (c = 0; c < MODEL_NCLASS; c++) {
		unsigned tp = ev->confusion[c][c], pp = 0, ap = 0;

		for (d = 0; d < MODEL_NCLASS; d++) {
			pp += ev->confusion[d][c];
			ap += ev->confusion[c][d];
		}
		ev->precision[c] = pp ? (double)tp / pp : 0;
		ev->recall[c] = ap ? (double)tp / ap : 0;
		ev->f1[c] = ev->precision[c] + ev->recall[c] > 0
				    ? 2 * ev->precision[c] * ev->recall[c] /
					      (ev->precision[c] + ev->recall[c])
				    : 0;
		ev->macro_f1 += ev->f1[c] / MODEL_NCLASS;
		right += tp;
	}
	ev->accuracy = ev->n ? (double)right / (double)ev->n : 0;
}

static int argmax(const double *p)
{
	int c, best = 0;

	for (c = 1; c < MODEL_NCLASS; c++)
		if (p[c] > p[best])
			best = c;
	return best;
}

/* fit_temperature - the factor f minimising the log-loss of z/f */
static double fit_temperature(double (*z)[MODEL_NCLASS], const int *cls,
			      size_t n, double *best_loss)
{
	double best = 1;
	size_t i;
	int step;

	*best_loss = INFINITY;
	for (step = -8; step <= 40; step++) {
		double f = pow(2.0, step / 4.0), loss = 0;

		for (i = 0; i < n; i++) {
			double s[MODEL_NCLASS], p[MODEL_NCLASS];
			int c;

			for (c = 0; c < MODEL_NCLASS; c++)
				s[c] = z[i][c] / f;
			softmax(s, p);
			loss -= log(p[cls[i]] > 1e-300 ? p[cls[i]] : 1e-300);
		}
		loss /= (double)(n ? n : 1);
		if (loss < *best_loss - 1e-12) {
			*best_loss = loss;
			best = f;
		}
	}
	return best;
}

#define CAL_FOLDS 5

/*
 * calibrate - the temperature factor for a model trained on the used
 * examples: fitted on out-of-fold scores of CAL_FOLDS grouped folds;
 * 1 when there are too few examples or groups
 */
static double calibrate(const struct model_options *o, const struct example *ex,
			size_t n, const bool *use)
{
	struct model_options sub = *o;
	const char **groups = xcalloc(n + 1, sizeof(*groups));
	size_t *idx = xcalloc(n + 1, sizeof(*idx)), m = 0, i;
	unsigned *fold = xcalloc(n + 1, sizeof(*fold)), f;
	bool *use2 = xcalloc(n + 1, sizeof(*use2));
	int *cls = xcalloc(n + 1, sizeof(*cls));
	double(*z)[MODEL_NCLASS] = xcalloc(n + 1, sizeof(*z));
	double factor = 1, loss;

	for (i = 0; i < n; i++) {
		if (use && !use[i])
			continue;
		groups[m] = ex[i].group;
		cls[m] = ex[i].cls;
		idx[m++] = i;
	}
	if (m < 2 * CAL_FOLDS ||
	    assign_folds(groups, cls, m, CAL_FOLDS, o->seed, fold, true) < 0)
		goto out;
	sub.calibrate = false;
	sub.temperature = 1;
	for (f = 0; f < CAL_FOLDS; f++) {
		struct model *sm;

		memset(use2, 0, n * sizeof(*use2));
		for (i = 0; i < m; i++)
			use2[idx[i]] = fold[i] != f;
		sm = build(&sub, ex, n, use2);
		for (i = 0; i < m; i++) {
			double p[MODEL_NCLASS];
			int c;

			if (fold[i] != f)
				continue;
			md_score_ids(sm, &ex[idx[i]], p);
			for (c = 0; c < MODEL_NCLASS; c++)
				z[i][c] = log(p[c] > 1e-300 ? p[c] : 1e-300);
		}
		model_free(sm);
	}
	factor = fit_temperature(z, cls, m, &loss);
out:
	free(groups);
	free(idx);
	free(fold);
	free(use2);
	free(cls);
	free(z);
	return factor;
}

/* model_cross_validate - grouped k-fold cross-validation */
int model_cross_validate(const struct model_example *ex, size_t n, unsigned k,
			 const struct model_options *o, struct model_eval *ev,
			 int *pred, double (*post)[MODEL_NCLASS])
{
	struct model_options def;
	struct tok_conf conf;
	struct example *fx;
	double(*z)[MODEL_NCLASS];
	const char **groups;
	unsigned *fold, f;
	uint64_t *seen;
	bool *use;
	int *cls, ret = 0;
	double loss = 0;
	size_t i;

	if (!o) {
		model_options_init(&def);
		o = &def;
	}
	if (md_options_check(o) < 0)
		return -1;
	memset(ev, 0, sizeof(*ev));
	ev->k = k;
	for (i = 0; i < n; i++)
		if (ex[i].cls < 0 || ex[i].cls >= MODEL_NCLASS)
			return error("model: example %zu has no class", i);
	groups = xcalloc(n + 1, sizeof(*groups));
	cls = xcalloc(n + 1, sizeof(*cls));
	fold = xcalloc(n + 1, sizeof(*fold));
	for (i = 0; i < n; i++) {
		groups[i] = ex[i].group;
		cls[i] = ex[i].cls;
	}
	if (model_folds(groups, cls, n, k, o->seed, fold) < 0) {
		ret = -1;
		goto out;
	}
	md_conf_from_options(&conf, o);
	seen = md_bitmap_new(o->table_bits);
	fx = xcalloc(n + 1, sizeof(*fx));
	for (i = 0; i < n; i++) {
		extract(&conf, seen, &ex[i].in, &fx[i]);
		fx[i].cls = ex[i].cls;
		fx[i].weight = ex[i].weight > 0 ? ex[i].weight : 1;
		fx[i].group = ex[i].group;
	}
	free(seen);
	use = xcalloc(n + 1, sizeof(*use));
	z = xcalloc(n + 1, sizeof(*z));
	for (f = 0; f < k; f++) {
		struct model *m;

		for (i = 0; i < n; i++)
			use[i] = fold[i] != f;
		m = build(o, fx, n, use);
		for (i = 0; i < n; i++) {
			double p[MODEL_NCLASS];
			int c;

			if (fold[i] != f)
				continue;
			if (!md_score_ids(m, &fx[i], p))
				ev->abstained++;
			for (c = 0; c < MODEL_NCLASS; c++)
				z[i][c] = log(p[c] > 1e-300 ? p[c] : 1e-300);
			c = argmax(p);
			model_eval_add(ev, ex[i].cls, c);
			loss -= log(p[ex[i].cls] > 1e-300 ? p[ex[i].cls]
							  : 1e-300);
			if (pred)
				pred[i] = c;
			if (post)
				memcpy(post[i], p, sizeof(p));
		}
		model_free(m);
	}
	ev->log_loss = n ? loss / (double)n : 0;
	ev->temperature_factor =
		fit_temperature(z, cls, n, &ev->log_loss_fitted);
	model_eval_finish(ev);
	free(z);
	for (i = 0; i < n; i++)
		free(fx[i].ids);
	free(fx);
	free(use);
out:
	free(groups);
	free(cls);
	free(fold);
	return ret;
}

/* model_eval_print - the figures as "# " lines */
void model_eval_print(FILE *fp, const char *label, const struct model_eval *ev)
{
	int c, d;

	fprintf(fp, "# %s: macro-F1 %.2f", label, ev->macro_f1);
	for (c = 0; c < MODEL_NCLASS; c++)
		fprintf(fp, "; %s P/R %.2f/%.2f", model_class_name(c),
			ev->precision[c], ev->recall[c]);
	fprintf(fp,
		"\n# %s: accuracy %.2f, n=%zu, abstained %zu, log-loss %.3f "
		"(%.3f with temperatures x %.3g)\n",
		label, ev->accuracy, ev->n, ev->abstained, ev->log_loss,
		ev->log_loss_fitted, ev->temperature_factor);
	fprintf(fp, "# %s: confusion, rows true class, columns predicted\n",
		label);
	fprintf(fp, "#%9s", "");
	for (c = 0; c < MODEL_NCLASS; c++)
		fprintf(fp, " %6s", model_class_name(c));
	fprintf(fp, "\n");
	for (c = 0; c < MODEL_NCLASS; c++) {
		fprintf(fp, "#   %-6s", model_class_name(c));
		for (d = 0; d < MODEL_NCLASS; d++)
			fprintf(fp, " %6u", ev->confusion[c][d]);
		fprintf(fp, "\n");
	}
}
