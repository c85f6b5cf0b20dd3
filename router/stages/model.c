// SPDX-License-Identifier: GPL-2.0-only
/*
 * model - the trained statistical classifier (see model.h)
 *
 * The tokenizer emits features (a token or an OSB pair), each hashed to
 * a bucket; a bitmap keeps each bucket once per report and the bucket
 * list grows as tokens come.  Training keeps each report's list;
 * scoring sums the weights of the list in one tight loop at the end,
 * so that the loads from the 3 MB table overlap.
 *
 * Defaults were chosen by grouped 5-fold cross-validation on the
 * public 163-message corpus (figures in model.h; the test
 * tests/unit/test_model_shared.c prints them); they are round numbers,
 * not fitted to the corpus.
 *
 * This file holds options and input, the model file and scoring; the
 * tokenizer is model_lex.c, training and cross-validation model_train.c
 * (model_int.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "image.h"
#include "model_int.h"
#include "report.h"
#include "util.h"

/* ---- options, input, classes ------------------------------------------ */

/* model_options_init - the defaults (see model.h) */
void model_options_init(struct model_options *o)
{
	memset(o, 0, sizeof(*o));
	o->kind = DEFAULT_KIND;
	o->table_bits = DEFAULT_BITS;
	o->window = DEFAULT_WINDOW;
	o->attachments = true;
	o->balanced = true;
	o->min_examples = 10;
	o->min_tokens = 11;
	o->alpha = 0.1;
	o->l2 = 1e-5;
	o->rate = 0.5;
	o->epochs = 20;
	o->seed = 1;
	o->temperature = 1.0;
	o->calibrate = true;
}

/* model_input_init - an input with a subject and a body, no attachments */
void model_input_init(struct model_input *in, const char *subject,
		      const char *body, size_t body_len)
{
	memset(in, 0, sizeof(*in));
	in->subject = subject;
	in->body = body;
	in->body_len = body ? body_len : 0;
}

/* model_input_add_attachment - borrow one more text; -1 when full */
int model_input_add_attachment(struct model_input *in, const char *text,
			       size_t len)
{
	if (!text || in->nattach >= MODEL_MAX_ATTACH)
		return -1;
	in->attach[in->nattach] = text;
	in->attach_len[in->nattach] = len;
	in->nattach++;
	return 0;
}

/* model_input_from_report - subject, body and text attachments of r */
void model_input_from_report(struct model_input *in, const struct report *r)
{
	size_t i;

	model_input_init(in, r->subject, r->body, r->body_len);
	for (i = 0; i < r->nparts; i++) {
		const struct report_part *p = &r->parts[i];

		if (!(p->flags & PART_TEXT) || !(p->flags & PART_ATTACHMENT) ||
		    (p->flags & PART_HTML) || !p->text)
			continue;
		if (model_input_add_attachment(in, p->text, p->len) < 0)
			break;
	}
}

static const char *const class_names[MODEL_NCLASS] = { "user", "fuzzer", "ai" };

/* model_class_name - "user", "fuzzer", "ai", or "?" */
const char *model_class_name(int cls)
{
	if (cls < 0 || cls >= MODEL_NCLASS)
		return "?";
	return class_names[cls];
}

/* model_class_parse - class index of a name, or -1 */
int model_class_parse(const char *name)
{
	int c;

	for (c = 0; c < MODEL_NCLASS; c++)
		if (!strcmp(name, class_names[c]))
			return c;
	return -1;
}

/* ---- the model file -------------------------------------------------------- */

static struct model *refuse(unsigned char *base, size_t size, bool mapped,
			    const char *name, const char *why)
{
	error("'%s': not a usable triage model (%s)", name, why);
	if (mapped)
		img_unmap(base, size);
	else
		free(base);
	return NULL;
}

uint32_t md_header_crc(const struct model_header *h)
{
	struct model_header copy = *h;

	copy.header_crc = 0;
	return (uint32_t)crc32(0L, (const Bytef *)&copy, sizeof(copy));
}

uint32_t md_table_crc(const unsigned char *p, uint64_t size)
{
	uLong crc = crc32(0L, Z_NULL, 0);

	while (size) {
		uInt n = size > (1u << 30) ? (1u << 30) : (uInt)size;

		crc = crc32(crc, p, n);
		p += n;
		size -= n;
	}
	return (uint32_t)crc;
}

struct model *md_model_from_image(unsigned char *base, size_t size, bool mapped,
				  const char *name)
{
	const struct model_header *h = (const struct model_header *)base;
	struct model *m;
	uint64_t table;
	int c;

	if (size < HEADER_SIZE)
		return refuse(base, size, mapped, name, "too short");
	if (memcmp(h->magic, MODEL_MAGIC, 8))
		return refuse(base, size, mapped, name, "bad magic");
	if (h->endian != MODEL_ENDIAN)
		return refuse(base, size, mapped, name, "other byte order");
	if (h->version != MODEL_VERSION)
		return refuse(base, size, mapped, name, "unknown version");
	if (h->header_size != HEADER_SIZE || md_header_crc(h) != h->header_crc)
		return refuse(base, size, mapped, name, "damaged header");
	if ((h->kind != MODEL_NB && h->kind != MODEL_LR) ||
	    h->nclass != MODEL_NCLASS || h->table_bits < MODEL_BITS_MIN ||
	    h->table_bits > MODEL_BITS_MAX || h->window < 1 ||
	    h->window > MODEL_WINDOW_MAX || h->text_max == 0 ||
	    h->text_max > MODEL_TEXT_MAX || h->tokens_max == 0 ||
	    h->tokens_max > MODEL_TOKENS_MAX)
		return refuse(base, size, mapped, name, "bad parameters");
	table = ((uint64_t)1 << h->table_bits) * MODEL_NCLASS * sizeof(float);
	if (h->table_off != HEADER_SIZE || h->table_size != table ||
	    h->file_size != size || h->table_off + h->table_size != size)
		return refuse(base, size, mapped, name, "sizes do not match");
	if (!(h->temperature > 0) || !isfinite(h->temperature))
		return refuse(base, size, mapped, name, "bad temperature");
	for (c = 0; c < MODEL_NCLASS; c++)
		if (!isfinite(h->bias[c]))
			return refuse(base, size, mapped, name, "bad bias");
	m = xcalloc(1, sizeof(*m));
	m->base = base;
	m->size = size;
	m->mapped = mapped;
	m->h = h;
	m->w = (const float *)(base + h->table_off);
	m->min_examples = h->min_examples;
	return m;
}

/* model_save - write the model file atomically (mode 0644) */
int model_save(const struct model *m, const char *path)
{
	return write_file_atomic(path, m->base, m->size, 0644);
}

/* model_open - mmap and check a model file written by model_save() */
struct model *model_open(const char *path)
{
	size_t size;
	void *p = img_map(path, "model", HEADER_SIZE,
			  (size_t)HEADER_SIZE + ((size_t)1 << MODEL_BITS_MAX) *
							MODEL_NCLASS *
							sizeof(float),
			  &size);

	return p ? md_model_from_image(p, size, true, path) : NULL;
}

/* model_from_buffer - a model from a copy of an image in memory */
struct model *model_from_buffer(const void *data, size_t len)
{
	unsigned char *copy = xmalloc(len ? len : 1);

	memcpy(copy, data, len);
	return md_model_from_image(copy, len, false, "buffer");
}

/* model_verify - check the table's CRC and that every weight is finite */
int model_verify(const struct model *m)
{
	size_t i, n = (size_t)m->h->table_size / sizeof(float);

	if (md_table_crc((const unsigned char *)m->w, m->h->table_size) !=
	    m->h->table_crc)
		return error("model: table checksum mismatch");
	for (i = 0; i < n; i++)
		if (!isfinite(m->w[i]))
			return error("model: non-finite weight");
	return 0;
}

/* model_free - unmap or free the model */
void model_free(struct model *m)
{
	if (!m)
		return;
	if (m->mapped)
		img_unmap(m->base, m->size);
	else
		free(m->base);
	free(m);
}

/* ---- queries ---------------------------------------------------------------- */

/* model_kind - MODEL_NB or MODEL_LR */
enum model_kind model_kind(const struct model *m)
{
	return (enum model_kind)m->h->kind;
}

/* model_examples - training examples of class cls */
unsigned model_examples(const struct model *m, int cls)
{
	if (cls < 0 || cls >= MODEL_NCLASS)
		return 0;
	return m->h->nexamples[cls];
}

/* model_window - the OSB window the model was trained with */
unsigned model_window(const struct model *m)
{
	return m->h->window;
}

/* model_table_bits - log2 of the number of buckets */
unsigned model_table_bits(const struct model *m)
{
	return m->h->table_bits;
}

/* model_ready - every class has min_examples examples */
bool model_ready(const struct model *m)
{
	int c;

	for (c = 0; c < MODEL_NCLASS; c++)
		if (m->h->nexamples[c] < m->min_examples)
			return false;
	return true;
}

/* model_set_min_examples - override the trained min_examples */
void model_set_min_examples(struct model *m, unsigned n)
{
	m->min_examples = n;
}

static void conf_from_model(struct tok_conf *c, const struct model *m)
{
	c->bits = m->h->table_bits;
	c->window = m->h->window;
	c->attachments = m->h->flags & MF_ATTACHMENTS;
	c->text_max = m->h->text_max;
	c->tokens_max = m->h->tokens_max;
}

/* posteriors - softmax of the scores; false when not finite */
static bool posteriors(const struct model *m, const double *acc, double *out)
{
	double z[MODEL_NCLASS];
	int c;

	for (c = 0; c < MODEL_NCLASS; c++) {
		z[c] = (m->h->bias[c] + acc[c]) / m->h->temperature;
		if (!isfinite(z[c])) {
			for (c = 0; c < MODEL_NCLASS; c++)
				out[c] = 1.0 / MODEL_NCLASS;
			return false;
		}
	}
	softmax(z, out);
	return true;
}

/*
 * md_lr_scale - a feature's share of an LR model's sum (model_int.h):
 * 1/sqrt(n), the report's boolean features at unit length, so that a
 * long log does not outvote the bias and the other reports by its
 * length alone.  A model without MF_SCALED (every one trained before
 * scoring applied it) was calibrated on unscaled sums and is scored so;
 * NB sums log-probabilities and is never scaled.
 */
double md_lr_scale(const struct model_header *h, size_t n)
{
	if (h->kind != MODEL_LR || !(h->flags & MF_SCALED) || !n)
		return 1;
	return 1 / sqrt((double)n);
}

/* sum_weights - add the weights of n buckets (loads overlap), scaled */
static void sum_weights(const struct model *m, const uint32_t *ids, size_t n,
			double *acc)
{
	double a0 = 0, a1 = 0, a2 = 0, scale;
	size_t i;

	for (i = 0; i < n; i++) {
		const float *w = m->w + (size_t)ids[i] * MODEL_NCLASS;

		if (i + 8 < n)
			__builtin_prefetch(m->w +
					   (size_t)ids[i + 8] * MODEL_NCLASS);
		a0 += w[0];
		a1 += w[1];
		a2 += w[2];
	}
	scale = md_lr_scale(m->h, n);
	acc[0] = a0 * scale;
	acc[1] = a1 * scale;
	acc[2] = a2 * scale;
}

static int score_run(const struct model *m, const struct model_input *in,
		     double *out, struct top_terms *top)
{
	double acc[MODEL_NCLASS];
	struct tok_conf c;
	struct tok t;
	uint64_t *seen;
	bool ok;

	conf_from_model(&c, m);
	seen = md_bitmap_new(c.bits);
	md_tok_init(&t, &c, seen);
	t.alloc = 1024;
	t.ids = xmalloc(t.alloc * sizeof(*t.ids));
	t.w = m->w;
	t.top = top;
	t.want_text = top != NULL;
	md_tokenize(&t, in);
	sum_weights(m, t.ids, t.nids, acc);
	free(t.ids);
	free(seen);
	ok = posteriors(m, acc, out);
	return ok && model_ready(m) && t.nwords >= m->h->min_tokens;
}

/* model_score - per-class posteriors; 1 when the model votes */
int model_score(const struct model *m, const struct model_input *in,
		double out[MODEL_NCLASS])
{
	return score_run(m, in, out, NULL);
}

/* model_explain - the features pulling hardest towards cls */
size_t model_explain(const struct model *m, const struct model_input *in,
		     int cls, struct model_term *terms, size_t max)
{
	struct top_terms top = { cls, terms, 0, max };
	double out[MODEL_NCLASS];

	if (cls < 0 || cls >= MODEL_NCLASS || !max)
		return 0;
	score_run(m, in, out, &top);
	return top.n;
}

/* md_score_ids - the posteriors of pre-tokenized features */
int md_score_ids(const struct model *m, const struct example *ex, double *out)
{
	double acc[MODEL_NCLASS];

	sum_weights(m, ex->ids, ex->n, acc);
	return posteriors(m, acc, out) && model_ready(m) &&
	       ex->nwords >= m->h->min_tokens;
}
