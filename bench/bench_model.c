// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench_model - costs of the statistical model (router/stages/model.c)
 *
 *	cc -O2 -std=gnu11 -D_GNU_SOURCE -Irouter/lib -Irouter/stages \
 *		-o build/bench/bench_model bench/bench_model.c \
 *		build/stages.a build/lib.a -lz -lm
 *	build/bench/bench_model [DIR]
 *
 * For a few table sizes and windows, trains a model on synthetic
 * reports, saves it in DIR (default build/bench), and reports medians
 * of the calling thread's CPU time for a 6 KB synthetic report:
 *	score            model_score(), model warm
 *	open             model_open() + model_free()
 *	open+score+free  what a process started per message pays: page
 *	                 tables of the mapping are built again each time
 * The 2^10 table fits in L1, so its score is the tokenizer's cost.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "model.h"
#include "strbuf.h"
#include "util.h"

static double cpu_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[n / 2];
}

/* a report of about size bytes: prose, a trace and dmesg lines */
static char *report(int kind, unsigned seed, size_t size)
{
	static const char *const prose[] = {
		"After upgrading my laptop to the new kernel the touchpad stops "
		"working after resume, and I have to reload the module.\n",
		"syzbot found the following issue on a test machine; a C "
		"reproducer and the kernel config are linked below.\n",
		"## Summary\n\nA potential use-after-free could lead to "
		"privilege escalation when a malicious device sends a crafted "
		"descriptor.\n",
	};
	struct strbuf sb = STRBUF_INIT(size + 4096);
	unsigned i = 0;

	while (sb.len < size) {
		sb_adds(&sb, prose[kind]);
		sb_addf(&sb,
			"[ %5u.%06u] usb 1-%u: device descriptor read/64, "
			"error -%u\n",
			seed + i, (i * 7919) % 1000000, i % 9, 71 + i % 3);
		sb_addf(&sb, " foo_bar_handler+0x%x/0x%x [foo]\n", 16 + i,
			400 + i);
		sb_addf(&sb,
			"Kernel 6.%u.%u-rc%u on a ThinkPad X%u, BIOS "
			"N%uET%u, commit %08x%04x.\n",
			i % 13, i % 7, i % 8, 200 + i, i, 30 + i,
			seed * 2654435761u, i);
		i++;
	}
	return sb.buf;
}

static void count(const char *tok, size_t len, void *data)
{
	(void)tok;
	(void)len;
	(*(size_t *)data)++;
}

/* train - a model on 60 synthetic reports, saved to path */
static int train(const struct model_options *o, const char *path)
{
	struct model_trainer *tr = model_train_new(o);
	struct model_input in;
	struct model *m;
	size_t i;
	int c, ret;

	if (!tr)
		return -1;
	for (c = 0; c < MODEL_NCLASS; c++) {
		for (i = 0; i < 20; i++) {
			char *r = report(c, (unsigned)(i * 3 + 1), 2000);

			model_input_init(&in, "report", r, strlen(r));
			model_train_add(tr, &in, c, 1);
			free(r);
		}
	}
	m = model_train_finish(tr);
	if (!m)
		return -1;
	ret = model_save(m, path);
	model_free(m);
	return ret;
}

/* bench - median CPU us of score (warm), open, and open+score+free */
static void bench(const char *what, const char *path,
		  const struct model_input *in)
{
	enum { N = 2000, NOPEN = 1000 };
	static double t[N];
	struct model *m = model_open(path);
	double p[MODEL_NCLASS], t0, score_us, open_us, first_us;
	size_t i;

	if (!m)
		exit(1);
	for (i = 0; i < N; i++) {
		t0 = cpu_us();
		model_score(m, in, p);
		t[i] = cpu_us() - t0;
	}
	score_us = median(t, N);
	model_free(m);
	for (i = 0; i < NOPEN; i++) {
		t0 = cpu_us();
		m = model_open(path);
		model_free(m);
		t[i] = cpu_us() - t0;
	}
	open_us = median(t, NOPEN);
	for (i = 0; i < NOPEN; i++) {
		t0 = cpu_us();
		m = model_open(path);
		model_score(m, in, p);
		model_free(m);
		t[i] = cpu_us() - t0;
	}
	first_us = median(t, NOPEN);
	printf("%-28s score %6.1f us   open %5.1f us   open+score+free "
	       "%6.1f us\n",
	       what, score_us, open_us, first_us);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "build/bench";
	struct model_options o;
	struct model_input in;
	char *text, *path;
	size_t ntok = 0;
	static const struct {
		const char *what;
		unsigned bits, window;
	} cases[] = {
		{ "default (2^18, words)", 18, 1 },
		{ "2^18, bigrams (window 2)", 18, 2 },
		{ "2^18, OSB window 5", 18, 5 },
		{ "2^10 (table in L1)", 10, 1 },
	};
	size_t i;

	msg_setup("bench_model", 1, false);
	text = report(0, 12345, 6 * 1024);
	model_input_init(&in, "Re: touchpad dead after resume on 6.12", text,
			 strlen(text));
	model_tokenize(&in, NULL, count, &ntok);
	printf("report: %zu bytes, %zu tokens; medians of CPU time\n",
	       strlen(text), ntok);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		model_options_init(&o);
		o.table_bits = cases[i].bits;
		o.window = cases[i].window;
		path = xasprintf("%s/model-%u-%u.bin", dir, cases[i].bits,
				 cases[i].window);
		if (train(&o, path) < 0)
			return 1;
		bench(cases[i].what, path, &in);
		unlink(path);
		free(path);
	}
	free(text);
	return 0;
}
