/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * model_int - what the parts of the statistical classifier share
 *
 * DESCRIPTION
 *	Private to the model*.c files; model.h is the interface.
 *
 *	  model.c        options and input, the model file, scoring
 *	  model_lex.c    the tokenizer: text to hashed features
 *	  model_train.c  training, and grouped cross-validation
 */
#ifndef TRIAGE_MODEL_INT_H
#define TRIAGE_MODEL_INT_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"

#define MODEL_MAGIC   "TRIAGEMB"
#define MODEL_VERSION 1
#define MODEL_ENDIAN  0x01020304u
#define HEADER_SIZE   128

#define DEFAULT_KIND   MODEL_LR
#define DEFAULT_BITS   18
#define DEFAULT_WINDOW 1
#define WORD_MAX       40 /* longer words become __longword */
#define TEXT_BUF       64 /* token text kept for explanations */
#define NS_BODY	       0
#define NS_SUBJECT     0x5375626a65637431ull

enum {
	MF_ATTACHMENTS = 1, /* attachment text was tokenized */
	MF_SCALED = 2,	    /* LR: fitted and scored with md_lr_scale() */
};

struct model_header {
	char magic[8];
	uint32_t version, endian, header_size;
	uint32_t kind, table_bits, nclass, window, flags;
	uint32_t min_examples, min_tokens, text_max, tokens_max;
	uint32_t nexamples[MODEL_NCLASS];
	uint32_t nused;
	float bias[MODEL_NCLASS];
	float temperature;
	uint64_t table_off, table_size, file_size;
	uint32_t table_crc, header_crc;
	uint32_t reserved[2];
};

_Static_assert(sizeof(struct model_header) == HEADER_SIZE,
	       "the model header is 128 bytes");
/* the offsets documented in model.h */
_Static_assert(offsetof(struct model_header, kind) == 20, "kind at 20");
_Static_assert(offsetof(struct model_header, table_bits) == 24, "bits at 24");
_Static_assert(offsetof(struct model_header, min_examples) == 40, "at 40");
_Static_assert(offsetof(struct model_header, nexamples) == 56, "at 56");
_Static_assert(offsetof(struct model_header, bias) == 72, "bias at 72");
_Static_assert(offsetof(struct model_header, table_off) == 88, "at 88");
_Static_assert(offsetof(struct model_header, table_crc) == 112, "at 112");
_Static_assert(offsetof(struct model_header, header_crc) == 116, "at 116");

struct model {
	unsigned char *base;
	size_t size;
	bool mapped;
	const struct model_header *h;
	const float *w; /* [nbuckets][MODEL_NCLASS] */
	unsigned min_examples;
};

/* what the tokenizer needs to know; from options or a model header */
struct tok_conf {
	unsigned bits, window;
	bool attachments;
	size_t text_max, tokens_max;
};

struct example {
	uint32_t *ids; /* distinct buckets */
	uint32_t n;
	int cls;
	double weight;
	size_t nwords;
	const char *group; /* NULL: its own group */
};

struct model_trainer {
	struct model_options o;
	struct tok_conf conf;
	struct example *ex;
	size_t nex, alloc;
	uint64_t *seen; /* reused bitmap, clear between reports */
};

struct top_terms {
	int cls;
	struct model_term *terms;
	size_t n, max;
};

struct tok {
	const struct tok_conf *c;
	uint64_t ns; /* namespace seed: body or subject */
	uint64_t ring[MODEL_WINDOW_MAX];
	char ringtxt[MODEL_WINDOW_MAX][TEXT_BUF];
	unsigned nring, head; /* ring[head - d] is d tokens back */
	size_t nwords, body_words;
	bool full;
	bool want_text;

	/* sinks */
	void (*fn)(const char *tok, size_t len, void *data);
	void *fn_data;
	size_t ntokens;
	uint64_t *seen;
	uint32_t *ids;
	size_t nids, alloc;
	const float *w; /* for explanations */
	struct top_terms *top;

	/* structure of the body */
	unsigned quoted, trace_lines, dmesg, patch, headings, bullets;
	unsigned table, fence, long_lines, line_frames;
};

/* softmax - p[] the softmax of z[] (MODEL_NCLASS each) */
static inline void softmax(const double *z, double *p)
{
	double mx = z[0], sum = 0;
	int c;

	for (c = 1; c < MODEL_NCLASS; c++)
		if (z[c] > mx)
			mx = z[c];
	for (c = 0; c < MODEL_NCLASS; c++) {
		p[c] = exp(z[c] - mx);
		sum += p[c];
	}
	for (c = 0; c < MODEL_NCLASS; c++)
		p[c] /= sum;
}

/* model.c */
uint32_t md_header_crc(const struct model_header *h);
uint32_t md_table_crc(const unsigned char *p, uint64_t size);
struct model *md_model_from_image(unsigned char *base, size_t size, bool mapped,
				  const char *name);
/*
 * md_lr_scale - what each of a report's n distinct features counts for in
 * the sum of a logistic-regression model with header h: train_lr() fits
 * with it and scoring applies it, so a report is scored as it was learned
 */
double md_lr_scale(const struct model_header *h, size_t n);
/* md_score_ids - the posteriors of pre-tokenized features */
int md_score_ids(const struct model *m, const struct example *ex, double *out);

/* model_lex.c */
uint64_t md_hash_bytes(uint64_t seed, const char *s, size_t n);
/* md_tokenize - run the whole report through t's sinks */
void md_tokenize(struct tok *t, const struct model_input *in);
void md_tok_init(struct tok *t, const struct tok_conf *c, uint64_t *seen);
uint64_t *md_bitmap_new(unsigned bits);
void md_conf_from_options(struct tok_conf *c, const struct model_options *o);
int md_options_check(const struct model_options *o);

#endif
