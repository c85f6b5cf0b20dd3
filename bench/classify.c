// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench/classify - the classification cost of one report
 *
 *	cc -O2 -std=gnu11 -D_GNU_SOURCE -Irouter/lib -Irouter/stages \
 *		-Irouter/store -Irouter/net -Irouter/app \
 *		$(pkg-config --cflags gmime-3.0) -o build/bench/bench_classify \
 *		bench/classify.c build/app.a build/net.a build/store.a \
 *		build/stages.a build/lib.a \
 *		$(pkg-config --libs gmime-3.0 libpcre2-8 sqlite3 zlib) -lm
 *	build/bench/bench_classify RULES_DIR [--symbols IDX] [--model FILE]
 *		[--dir DIR] [FILE...]
 *
 * Medians of the calling thread's CPU time, per message, of what the
 * filter does to classify a parsed report (pipeline_run()'s classify
 * part): evidence_extract() (+ symbols_resolve() with --symbols),
 * model_score() and classify_report() (every rule, the model's
 * pseudo-rules, the decision), and their sum.  Parsing (intake +
 * parse) is shown apart.  Everything is loaded once beforehand, as in a
 * process that already started.
 *
 * The claim checks (claims.c) are measured alone on a report whose
 * decoded call trace has 40 frames (func+0xOFF/0xSIZE file.c:LINE, real
 * functions of Linux 6.12): the frame sizes, each function in its file,
 * each frame's line in its function and each frame's caller calling it,
 * and the prose's names and CONFIG_ options, with the symbol index
 * mapped, then read with pread() as the filter reads it (the blocks and
 * call lists read are kept: the median run reads none), then with
 * pread() from a fresh open each time (every block read once).
 *
 * The report: a synthetic 6 KB mail (a user report's prose, dmesg lines
 * and a call trace), then each FILE given, then, with --dir, every
 * message of a corpus (index.tsv or user/ fuzzer/ ai/), summed up as
 * the median and the worst message.  Without --model a model is
 * trained on the synthetic reports of the three kinds (the cost of
 * scoring depends on the table size and the text, not the weights).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "claims.h"
#include "classify.h"
#include "corpus.h"
#include "evidence.h"
#include "intake.h"
#include "model.h"
#include "parse.h"
#include "report.h"
#include "rules.h"
#include "strbuf.h"
#include "symbols.h"
#include "util.h"

#define RUNS 400

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

/* synthetic - a mail of about size bytes of the given kind */
static char *synthetic(int kind, unsigned seed, size_t size)
{
	static const char *const prose[] = {
		"After upgrading my ThinkPad to 6.12 the touchpad stops "
		"working after resume; reloading psmouse brings it back. "
		"It worked fine with 6.11 on Fedora 41.\n",
		"syzbot found the following issue on a test machine; the C "
		"reproducer and the kernel config are linked below.\n",
		"## Summary\n\nA potential use-after-free in foo_remove() could "
		"lead to privilege escalation when a malicious device sends a "
		"crafted descriptor.\n\n## Impact\n\nAn attacker may corrupt "
		"kernel memory.\n",
	};
	struct strbuf sb = STRBUF_INIT(size + 8192);
	unsigned i = 0;

	sb_addf(&sb,
		"From: Jane Reporter <jane@example.org>\n"
		"To: bugs@example.org\n"
		"Subject: touchpad dead after resume on 6.12 (%u)\n"
		"Date: Mon, 2 Sep 2024 10:00:00 +0000\n"
		"Message-ID: <bench-%u-%d@example.org>\n"
		"MIME-Version: 1.0\n"
		"Content-Type: text/plain; charset=utf-8\n\n",
		seed, seed, kind);
	while (sb.len < size) {
		sb_adds(&sb, prose[kind]);
		sb_addf(&sb,
			"[ %5u.%06u] psmouse serio1: synaptics: device "
			"%u failed to respond, error -%u\n",
			seed + i, (i * 7919) % 1000000, i % 9, 71 + i % 3);
		sb_addf(&sb, "  psmouse_reconnect+0x%x/0x%x [psmouse]\n",
			16 + i, 400 + i);
		sb_addf(&sb,
			"Hardware name: LENOVO 21CBCTO1WW/21CBCTO1WW, BIOS "
			"N3AET7%uW 06/%02u/2024\n",
			i % 10, 1 + i % 28);
		i++;
	}
	return sb.buf;
}

static struct model *train_synthetic(void)
{
	struct model_trainer *t = model_train_new(NULL);
	struct model_input in;
	size_t i;
	int c;

	for (c = 0; c < MODEL_NCLASS; c++) {
		for (i = 0; i < 20; i++) {
			char *r = synthetic(c, (unsigned)(i * 3 + 1), 3000);

			model_input_init(&in, "report", r, strlen(r));
			model_train_add(t, &in, c, 1);
			free(r);
		}
	}
	return model_train_finish(t);
}

static struct report *parse_mail(const char *raw, size_t len)
{
	struct report *r = report_new();

	if (intake_read_buf(raw, len, NULL, r) < 0 || parse_report(r) < 0) {
		report_free(r);
		return NULL;
	}
	return r;
}

struct costs {
	double parse, evidence, model, rules, total;
};

/* measure - median costs of classifying r (raw: also of parsing it) */
static void measure(const struct ruleset *rs, const struct model *m,
		    const struct symbols *syms, const struct report *r,
		    const char *raw, size_t len, unsigned runs,
		    struct costs *out)
{
	double *tp = xcalloc(runs, sizeof(double));
	double *te = xcalloc(runs, sizeof(double));
	double *tm = xcalloc(runs, sizeof(double));
	double *tr = xcalloc(runs, sizeof(double));
	double *tt = xcalloc(runs, sizeof(double));
	unsigned i;

	for (i = 0; i < runs; i++) {
		double post[MODEL_NCLASS], t0, t1, t2, t3;
		struct model_input in;
		struct evidence *ev;
		struct verdict v;
		bool voted = false;

		if (raw) {
			struct report *p;

			t0 = cpu_us();
			p = parse_mail(raw, len);
			tp[i] = cpu_us() - t0;
			report_free(p);
		}
		t0 = cpu_us();
		ev = evidence_extract(r);
		if (syms)
			symbols_resolve(syms, ev);
		t1 = cpu_us();
		if (m) {
			model_input_from_report(&in, r);
			voted = model_score(m, &in, post) == 1;
		}
		t2 = cpu_us();
		classify_report(rs, r, ev, voted ? post : NULL, &v);
		t3 = cpu_us();
		verdict_release(&v);
		evidence_free(ev);
		te[i] = t1 - t0;
		tm[i] = t2 - t1;
		tr[i] = t3 - t2;
		tt[i] = t3 - t0;
	}
	out->parse = raw ? median(tp, runs) : 0;
	out->evidence = median(te, runs);
	out->model = median(tm, runs);
	out->rules = median(tr, runs);
	out->total = median(tt, runs);
	free(tp);
	free(te);
	free(tm);
	free(tr);
	free(tt);
}

static void print_costs(const char *what, size_t bytes, const struct costs *c)
{
	printf("%-34s %6zu B  evidence %6.1f  model %6.1f  rules %6.1f  "
	       "classify %6.1f us  (parse %6.1f us)\n",
	       what, bytes, c->evidence, c->model, c->rules, c->total,
	       c->parse);
}

static int bench_file(const struct ruleset *rs, const struct model *m,
		      const struct symbols *syms, const char *path)
{
	struct report *r;
	struct costs c;
	char *raw;
	size_t len;

	if (read_file(path, 64u << 20, &raw, &len) < 0)
		return -1;
	r = parse_mail(raw, len);
	if (!r) {
		free(raw);
		return error("cannot parse %s", path);
	}
	measure(rs, m, syms, r, raw, len, RUNS / 4, &c);
	print_costs(path, len, &c);
	report_free(r);
	free(raw);
	return 0;
}

static void bench_dir(const struct ruleset *rs, const struct model *m,
		      const struct symbols *syms, const char *dir)
{
	struct corpus corpus;
	double *tot, *ev, *mo, *ru, worst = 0;
	const char *worst_name = "";
	size_t i, bytes = 0;

	corpus_init(&corpus);
	if (corpus_load(&corpus, dir) < 0 || !corpus.n) {
		corpus_release(&corpus);
		return;
	}
	tot = xcalloc(corpus.n, sizeof(double));
	ev = xcalloc(corpus.n, sizeof(double));
	mo = xcalloc(corpus.n, sizeof(double));
	ru = xcalloc(corpus.n, sizeof(double));
	for (i = 0; i < corpus.n; i++) {
		struct costs c;

		measure(rs, m, syms, corpus.items[i].report, NULL, 0, 21, &c);
		tot[i] = c.total;
		ev[i] = c.evidence;
		mo[i] = c.model;
		ru[i] = c.rules;
		bytes += corpus.items[i].report->raw_len;
		if (c.total > worst) {
			worst = c.total;
			worst_name = corpus.items[i].name;
		}
	}
	printf("%s: %zu messages, mean %zu B; per message: median evidence "
	       "%.1f, model %.1f, rules %.1f, classify %.1f us; worst %.1f us "
	       "(%s)\n",
	       dir, corpus.n, bytes / corpus.n, median(ev, corpus.n),
	       median(mo, corpus.n), median(ru, corpus.n),
	       median(tot, corpus.n), worst, worst_name);
	free(tot);
	free(ev);
	free(mo);
	free(ru);
	corpus_release(&corpus);
}

/* trace40 - a user's report with a 40-frame decoded call trace */
static char *trace40(void)
{
	static const char *const frames[][2] = {
		{ "dump_stack_lvl", "lib/dump_stack.c" },
		{ "kasan_report", "mm/kasan/report.c" },
		{ "__rmqueue_pcplist", "mm/page_alloc.c" },
		{ "rmqueue_bulk", "mm/page_alloc.c" },
		{ "get_page_from_freelist", "mm/page_alloc.c" },
		{ "__alloc_pages_noprof", "mm/page_alloc.c" },
		{ "alloc_pages_mpol_noprof", "mm/mempolicy.c" },
		{ "allocate_slab", "mm/slub.c" },
		{ "new_slab", "mm/slub.c" },
		{ "___slab_alloc", "mm/slub.c" },
		{ "__slab_alloc", "mm/slub.c" },
		{ "kmem_cache_alloc_noprof", "mm/slub.c" },
		{ "__es_insert_extent", "fs/ext4/extents_status.c" },
		{ "ext4_da_map_blocks", "fs/ext4/inode.c" },
		{ "ext4_da_get_block_prep", "fs/ext4/inode.c" },
		{ "__block_write_begin_int", "fs/buffer.c" },
		{ "block_write_begin", "fs/buffer.c" },
		{ "ext4_da_write_begin", "fs/ext4/inode.c" },
		{ "generic_perform_write", "mm/filemap.c" },
		{ "ext4_buffered_write_iter", "fs/ext4/file.c" },
		{ "vfs_write", "fs/read_write.c" },
		{ "ksys_write", "fs/read_write.c" },
		{ "__x64_sys_write", "fs/read_write.c" },
		{ "x64_sys_call", "arch/x86/entry/syscall_64.c" },
		{ "do_syscall_64", "arch/x86/entry/common.c" },
		{ "ext4_mark_iloc_dirty", "fs/ext4/inode.c" },
		{ "ext4_do_update_inode", "fs/ext4/inode.c" },
		{ "ext4_dirty_inode", "fs/ext4/inode.c" },
		{ "__mark_inode_dirty", "fs/fs-writeback.c" },
		{ "generic_write_end", "fs/buffer.c" },
		{ "ext4_da_write_end", "fs/ext4/inode.c" },
		{ "file_update_time", "fs/inode.c" },
		{ "inode_needs_update_time", "fs/inode.c" },
		{ "__filemap_get_folio", "mm/filemap.c" },
	};
	struct strbuf sb = STRBUF_INIT(1u << 20);
	size_t i;

	sb_adds(&sb,
		"From: Jane Doe <jane@example.org>\n"
		"To: linux-ext4@vger.kernel.org\n"
		"Subject: KASAN: slab-out-of-bounds in ext4_da_map_blocks\n"
		"Message-ID: <trace40@example.org>\n\n"
		"Hi, writing to a file on ext4 with CONFIG_EXT4_FS=y and "
		"CONFIG_KASAN=y crashes, since ext4_da_map_blocks() in "
		"fs/ext4/inode.c\nlooks at the extent status tree.  "
		"Decoded with scripts/decode_stacktrace.sh:\n\n"
		"BUG: KASAN: slab-out-of-bounds in "
		"ext4_da_map_blocks+0x120/0x4c0\n"
		"Read of size 8 at addr ffff888012345678 by task dd/1234\n\n"
		"CPU: 1 UID: 0 PID: 1234 Comm: dd Not tainted 6.12.0 #1\n"
		"Hardware name: LENOVO 20XW0055US/20XW0055US, BIOS "
		"N32ET86W (1.62 ) 03/15/2024\n"
		"Call Trace:\n <TASK>\n");
	for (i = 0; i < 40; i++)
		sb_addf(&sb, " %s+0x%zx/0x%zx %s:%zu\n",
			frames[i % ARRAY_SIZE(frames)][0], 0x20 + 8 * i,
			0x400 + 0x40 * (i % ARRAY_SIZE(frames)),
			frames[i % ARRAY_SIZE(frames)][1], 100 + 7 * i);
	sb_adds(&sb, " </TASK>\n\nThanks, Jane\n");
	return sb_detach(&sb, NULL);
}

/*
 * bench_claims - the claim checks alone on the 40-frame report, then
 * (rs given) the report classified: every hook that weighs claims
 */
static void bench_claims(const struct ruleset *rs, const struct model *m,
			 const struct symbols *syms, const char *how)
{
	double *t = xcalloc(RUNS, sizeof(double));
	char *raw = trace40();
	struct report *r = parse_mail(raw, strlen(raw));
	struct evidence *ev;
	struct claims c;
	unsigned i;

	if (!r) {
		free(raw);
		free(t);
		return;
	}
	ev = evidence_extract(r);
	if (syms)
		symbols_resolve(syms, ev);
	for (i = 0; i < RUNS; i++) {
		double t0 = cpu_us();

		claims_check(r->body, r->body_len, ev, syms, &c);
		t[i] = cpu_us() - t0;
	}
	printf("%-34s %6zu B  %zu frames, %u checks (%u failed; lines %u, "
	       "calls %u), %u lookups%s: claims %6.1f us\n",
	       "claim checks, 40-frame trace", strlen(raw), ev->nframes,
	       c.checks, c.failed, c.checks_kind[CLAIM_LINE],
	       c.checks_kind[CLAIM_CALLS], c.lookups, how, median(t, RUNS));
	if (rs) {
		struct costs k;

		measure(rs, m, syms, r, NULL, 0, RUNS, &k);
		print_costs("classify, 40-frame trace", strlen(raw), &k);
	}
	evidence_free(ev);
	report_free(r);
	free(raw);
	free(t);
}

/*
 * bench_claims_cold - the same claim checks in a fresh open of the index
 * each time (pread(), nothing read before): what a filter process that
 * handles one report pays, the open and the frames' files included
 */
static void bench_claims_cold(const char *path)
{
	double *t = xcalloc(RUNS / 4, sizeof(double));
	char *raw = trace40();
	struct report *r = parse_mail(raw, strlen(raw));
	struct evidence *ev = r ? evidence_extract(r) : NULL;
	struct symbols *p;
	struct claims c;
	unsigned i;

	for (i = 0; ev && i < RUNS / 4; i++) {
		double t0 = cpu_us();

		if (!(p = symbols_open_pread(path)))
			break;
		symbols_resolve(p, ev);
		claims_check(r->body, r->body_len, ev, p, &c);
		symbols_free(p);
		t[i] = cpu_us() - t0;
	}
	if (ev && i == RUNS / 4)
		printf("%-34s %6zu B  %u checks (%u failed), open + resolve + claims, pread, cold: %6.1f us\n",
		       "claim checks, 40-frame trace", strlen(raw), c.checks,
		       c.failed, median(t, RUNS / 4));
	evidence_free(ev);
	report_free(r);
	free(raw);
	free(t);
}

int main(int argc, char **argv)
{
	const char *rules_dir, *syms_path = NULL, *model_path = NULL;
	const char *dir = NULL;
	struct symbols *syms = NULL;
	struct ruleset *rs;
	struct model *m;
	struct report *r;
	struct costs c;
	char *raw;
	int i = 2, ret = 0;

	msg_setup("bench_classify", 1, false);
	if (argc < 2) {
		fprintf(stderr,
			"usage: bench_classify RULES_DIR [--symbols IDX] [--model FILE] [--dir DIR] [FILE...]\n");
		return 64;
	}
	rules_dir = argv[1];
	for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (!strcmp(argv[i], "--symbols"))
			syms_path = argv[i + 1];
		else if (!strcmp(argv[i], "--model"))
			model_path = argv[i + 1];
		else if (!strcmp(argv[i], "--dir"))
			dir = argv[i + 1];
		else
			break;
	}
	if (parse_init() < 0)
		return 1;
	rs = classify_load(rules_dir, NULL);
	if (!rs)
		return 1;
	if (syms_path) {
		syms = symbols_open(syms_path);
		if (!syms)
			return 1;
		rules_set_symbols(rs, syms);
	}
	m = model_path ? model_open(model_path) : train_synthetic();
	if (!m)
		return 1;
	printf("rules %s (%zu), model %s, symbol index %s; medians of CPU time\n",
	       rules_dir, rules_count(rs),
	       model_path ? model_path : "synthetic",
	       syms_path ? syms_path : "none");

	raw = synthetic(0, 12345, 6 * 1024);
	r = parse_mail(raw, strlen(raw));
	if (!r)
		return 1;
	measure(rs, m, syms, r, raw, strlen(raw), RUNS, &c);
	print_costs("synthetic 6 KB user report", strlen(raw), &c);
	report_free(r);
	free(raw);
	bench_claims(rs, m, syms, syms ? ", mapped" : "");
	if (syms_path) {
		struct symbols *p = symbols_open_pread(syms_path);

		if (!p)
			return 1;
		bench_claims(NULL, NULL, p, ", pread");
		symbols_free(p);
		bench_claims_cold(syms_path);
	}
	for (; i < argc; i++)
		if (bench_file(rs, m, syms, argv[i]) < 0)
			ret = 1;
	if (dir)
		bench_dir(rs, m, syms, dir);

	model_free(m);
	symbols_free(syms);
	rules_free(rs);
	parse_shutdown();
	return ret;
}
