// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_model - tokenizer, naive Bayes and logistic regression, model file
 *
 * All texts are synthetic, written for these tests: three small
 * vocabularies (a user describing a machine, a fuzzer's crash report,
 * a template-style security "analysis") mixed with common words.
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
#include <unistd.h>
#include <zlib.h>

#include "model.h"
#include "report.h"
#include "strbuf.h"
#include "util.h"

/* ---- helpers ------------------------------------------------------------- */

static void join(const char *tok, size_t len, void *data)
{
	struct strbuf *sb = data;

	if (sb->len)
		sb_addc(sb, ' ');
	sb_add(sb, tok, len);
}

/* tokens - every token of (subject, body) joined by spaces (static) */
static const char *tokens(const char *subject, const char *body)
{
	static struct strbuf sb = STRBUF_INIT(1 << 20);
	struct model_input in;

	sb_reset(&sb);
	model_input_init(&in, subject, body, body ? strlen(body) : 0);
	model_tokenize(&in, NULL, join, &sb);
	return sb.buf ? sb.buf : "";
}

static bool has_token(const char *list, const char *tok)
{
	size_t n = strlen(tok);
	const char *p = list;

	while ((p = strstr(p, tok))) {
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
		p += n;
	}
	return false;
}

static const char *const common[] = {
	"the kernel", "on this system",	   "in the driver",
	"we see",     "this happens when", "with the",
	"and then",   "for the device",	   "it is",
	"after that",
};

static const char *const words[MODEL_NCLASS][10] = {
	{ "my laptop freezes after resume", "since upgrading the distro kernel",
	  "it worked fine last week", "the touchpad stops responding",
	  "I reverted and it is fine again", "my wifi drops every morning",
	  "our office desktops show it too", "I can test a patch tonight",
	  "the fan runs loud after suspend", "I bisected it on my box" },
	{ "found by our fuzzer", "syzkaller reproducer attached",
	  "KASAN slab-use-after-free read", "call trace follows",
	  "crash log from the fuzzing run", "reproducer triggers it in qemu",
	  "the instance crashed under syz-executor", "console output attached",
	  "kernel config and repro linked", "bisection log attached" },
	{ "## Summary", "a potential vulnerability could lead to",
	  "**Impact**: privilege escalation", "a malicious device may exploit",
	  "## Suggested Fix", "this analysis is based on static review",
	  "severity is high \xe2\x80\x94 attackers can", "## Root Cause",
	  "the recommended mitigation is", "**Affected Versions**: all" },
};

/* synth - a report of class cls from its vocabulary and common words */
static char *synth(int cls, unsigned seed, size_t sentences)
{
	struct strbuf sb = STRBUF_INIT(1 << 20);
	uint64_t x = seed * 2654435761u + 12345u;
	size_t i;

	for (i = 0; i < sentences; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		if ((x >> 33) % 3 == 0)
			sb_adds(&sb, common[(x >> 40) % ARRAY_SIZE(common)]);
		else
			sb_adds(&sb, words[cls][(x >> 40) % 10]);
		sb_adds(&sb, (x >> 20) % 4 ? ". " : ".\n");
	}
	return sb.buf;
}

static struct model *train_synth(const struct model_options *o, size_t per,
				 unsigned seed)
{
	struct model_trainer *t = model_train_new(o);
	struct model_input in;
	size_t i;
	int c;

	assert_non_null(t);
	for (i = 0; i < per; i++) {
		for (c = 0; c < MODEL_NCLASS; c++) {
			char *text = synth(c, seed + (unsigned)(i * 3 + c), 12);

			model_input_init(&in, "report", text, strlen(text));
			assert_int_equal(model_train_add(t, &in, c, 1), 0);
			free(text);
		}
	}
	return model_train_finish(t);
}

static int argmax3(const double *p)
{
	return p[0] >= p[1] && p[0] >= p[2] ? 0 : p[1] >= p[2] ? 1 : 2;
}

static char *tmp_path(void)
{
	char path[] = "/tmp/triage-model-XXXXXX";
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	return xstrdup(path);
}

static void write_bytes(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, n, f), n);
	fclose(f);
}

/* ---- tokenizer ------------------------------------------------------------ */

static void test_tokenizer_shapes(void **state)
{
	const char *t = tokens(
		NULL,
		"RIP: 0010:xfs_iget+0x1a2/0x3c0 [xfs] at ffff888012345678\n"
		"[   12.345678] usb 1-1: reset 0x3f, 0x1234abcd, 0xdeadbeef12\n"
		"Linux 6.12.3-rc4 and v6.1 since 2024-01-02 at 13:45:07, 3.5 s\n"
		"commit 83c375840835 id 8086:a0f0 7 42 512MB 1234567\n"
		"Don't PANIC \xe2\x80\x94 caf\xc3\xa9 \xf0\x9f\x9a\x80 "
		"**Impact** `x` \xe2\x86\x92 \xe2\x80\x9cq\xe2\x80\x9d\n"
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n");

	assert_string_equal(
		t,
		"rip __num4 xfs_iget __frame_off xfs at __hex_l "
		"__dmesg_ts usb __num1 __num1 reset __hex_s __hex_m __hex_l "
		"linux __version and __version since __date at __time "
		"__decimal s "
		"commit __sha id __hwid __num1 __num2 __num3 mb __num5 "
		"don't panic __emdash caf\xc3\xa9 __emoji __bold impact __bold "
		"__code x __code __arrow __quote q __quote "
		"__longword "
		"__len_5");
}

static void test_quotes_and_signature_stripped(void **state)
{
	const char *t = tokens(NULL, "Hello,\n"
				     "On Mon, 1 Jan 2024, Someone wrote:\n"
				     "> quotedsecret line\n"
				     ">> deeper quotedsecret\n"
				     "  > indented quotedsecret\n"
				     "my reply\n"
				     "-- \n"
				     "signatureword\n");

	assert_false(has_token(t, "quotedsecret"));
	assert_false(has_token(t, "wrote"));
	assert_false(has_token(t, "someone"));
	assert_false(has_token(t, "signatureword"));
	assert_true(has_token(t, "reply"));
	assert_true(has_token(t, "__quoted"));

	t = tokens(NULL, "top posted answer\r\n"
			 "-----Original Message-----\r\n"
			 "From: outlookquoted\r\n");
	assert_true(has_token(t, "answer"));
	assert_false(has_token(t, "outlookquoted"));
	assert_false(has_token(t, "__quoted"));
}

/* whole_tokens - tokens() of the body read whole (model_input.whole) */
static const char *whole_tokens(const char *body)
{
	static struct strbuf sb = STRBUF_INIT(1 << 20);
	struct model_input in;

	sb_reset(&sb);
	model_input_init(&in, NULL, body, strlen(body));
	in.whole = true;
	model_tokenize(&in, NULL, join, &sb);
	return sb.buf ? sb.buf : "";
}

/* read whole, nothing is cut: quoted words without their marks, and
 * what follows a marker or a signature line (issue 21, finding 3) */
static void test_whole_reads_quotes(void **state)
{
	const char *t = whole_tokens("Hello,\n"
				     "> quotedsecret line\n"
				     ">> deeper quotedsecret\n"
				     "> ## Impact\n"
				     "-----Original Message-----\n"
				     "outlookquoted\n"
				     "-- \n"
				     "aftersignature\n");

	assert_true(has_token(t, "quotedsecret"));
	assert_true(has_token(t, "deeper"));
	assert_true(has_token(t, "outlookquoted"));
	assert_true(has_token(t, "aftersignature"));
	assert_true(has_token(t, "__quoted"));
	/* a quoted heading is a heading */
	assert_true(has_token(t, "__md_heading"));
	assert_false(
		has_token(tokens(NULL, "> ## Impact\nmine\n"), "__md_heading"));
}

static void test_structure_tokens(void **state)
{
	const char *t = tokens("Re: Fwd: [BUG] foo: Crash",
			       "## Summary\n## Impact\n### Fix\n"
			       "- one\n- two\n* three\n1. four\n2) five\n"
			       "| a | b |\n|---|---|\n"
			       "```\ncode\n```\n"
			       "diff --git a/x b/x\n"
			       " foo+0x10/0x20\n bar+0x30/0x40\n"
			       "[    1.000001] a\n[    2.000002] b\n");

	assert_true(has_token(t, "__subj_re"));
	assert_true(has_token(t, "__subj_fwd"));
	assert_true(has_token(t, "__subj_tag"));
	assert_true(has_token(t, "s:bug"));
	assert_true(has_token(t, "s:crash"));
	assert_false(has_token(t, "s:re"));
	assert_true(has_token(t, "__md_heading"));
	assert_true(has_token(t, "__md_headings_many"));
	assert_true(has_token(t, "__bullets_many"));
	assert_true(has_token(t, "__md_table"));
	assert_true(has_token(t, "__md_fence"));
	assert_true(has_token(t, "__has_patch"));
	assert_true(has_token(t, "__has_trace"));
	assert_true(has_token(t, "__has_dmesg"));
	/* plain prose has none of them */
	t = tokens("a question", "I have a question about the driver.\n");
	assert_false(has_token(t, "__md_heading"));
	assert_false(has_token(t, "__bullets_some"));
	assert_false(has_token(t, "__has_trace"));
	assert_false(has_token(t, "__subj_re"));
	assert_true(has_token(t, "__len_2")); /* 7 words */
}

static void test_token_caps(void **state)
{
	struct strbuf sb = STRBUF_INIT(1 << 20);
	struct model_input in;
	size_t n, i;
	char *text;

	/* 70,000 bytes of words, a marker past 64 KB */
	while (sb.len < MODEL_TEXT_MAX)
		sb_adds(&sb, "alpha beta ");
	sb_adds(&sb, "pastthecap\n");
	text = sb_detach(&sb, NULL);
	assert_false(has_token(tokens(NULL, text), "pastthecap"));
	free(text);
	/* 30,000 one-letter words in 60 KB: the word cap applies first */
	for (i = 0; i < 30000; i++)
		sb_adds(&sb, "a ");
	text = sb_detach(&sb, NULL);
	model_input_init(&in, NULL, text, strlen(text));
	n = model_tokenize(&in, NULL, NULL, NULL);
	/* words capped, plus a few structural tokens */
	assert_true(n >= MODEL_TOKENS_MAX);
	assert_true(n <= MODEL_TOKENS_MAX + 20);
	free(text);

	/* attachments share the cap and can be switched off */
	model_input_init(&in, NULL, "body words here", 15);
	assert_int_equal(model_input_add_attachment(&in, "attachedword", 12),
			 0);
	for (i = 1; i < MODEL_MAX_ATTACH; i++)
		assert_int_equal(model_input_add_attachment(&in, "x", 1), 0);
	assert_int_equal(model_input_add_attachment(&in, "x", 1), -1);
	{
		struct strbuf out = STRBUF_INIT(4096);
		struct model_options o;

		model_tokenize(&in, NULL, join, &out);
		assert_true(has_token(out.buf, "attachedword"));
		assert_true(has_token(out.buf, "__has_attach"));
		sb_reset(&out);
		model_options_init(&o);
		o.attachments = false;
		model_tokenize(&in, &o, join, &out);
		assert_false(has_token(out.buf, "attachedword"));
		sb_release(&out);
	}
}

static void test_hostile_bytes(void **state)
{
	unsigned char buf[4096];
	struct model_input in;
	size_t i;
	uint64_t x = 7;

	/* invalid UTF-8, NULs, lone continuation bytes: no crash */
	for (i = 0; i < sizeof(buf); i++) {
		x = x * 6364136223846793005ull + 1;
		buf[i] = (unsigned char)(x >> 56);
	}
	model_input_init(&in, "\xff\xfe subject", (const char *)buf,
			 sizeof(buf));
	assert_true(model_tokenize(&in, NULL, NULL, NULL) > 0);
	model_input_init(&in, NULL, "\xe2\x80", 2);
	model_tokenize(&in, NULL, NULL, NULL);
	model_input_init(&in, NULL, "[  12.", 6);
	model_tokenize(&in, NULL, NULL, NULL);
	model_input_init(&in, NULL, "+0x1/0x", 7);
	model_tokenize(&in, NULL, NULL, NULL);
	model_input_init(&in, NULL, "2024-01-", 8);
	model_tokenize(&in, NULL, NULL, NULL);
	model_input_init(&in, NULL, NULL, 0);
	assert_int_equal(model_tokenize(&in, NULL, NULL, NULL),
			 1); /* __len_0 */
}

/* ---- training and scoring ------------------------------------------------------- */

static void check_separates(enum model_kind kind)
{
	struct model_options o;
	struct model *m;
	unsigned i;
	int c;

	model_options_init(&o);
	o.kind = kind;
	o.min_examples = 5;
	m = train_synth(&o, 15, 1);
	assert_non_null(m);
	assert_int_equal(model_kind(m), kind);
	assert_true(model_ready(m));
	for (c = 0; c < MODEL_NCLASS; c++) {
		assert_int_equal(model_examples(m, c), 15);
		for (i = 0; i < 5; i++) {
			char *text = synth(c, 1000 + i, 12);
			struct model_input in;
			double p[MODEL_NCLASS];

			model_input_init(&in, "report", text, strlen(text));
			assert_int_equal(model_score(m, &in, p), 1);
			assert_true(fabs(p[0] + p[1] + p[2] - 1) < 1e-9);
			assert_int_equal(argmax3(p), c);
			assert_true(p[c] > 0.5);
			free(text);
		}
	}
	model_free(m);
}

static void test_nb_separates(void **state)
{
	check_separates(MODEL_NB);
}

static void test_lr_separates(void **state)
{
	check_separates(MODEL_LR);
}

static void test_min_examples_and_tokens(void **state)
{
	struct model_trainer *t;
	struct model_input in;
	struct model_options o;
	struct model *m;
	double p[MODEL_NCLASS];
	char *text;
	int c, i;

	model_options_init(&o);
	o.min_examples = 5;
	t = model_train_new(&o);
	for (c = 0; c < MODEL_NCLASS; c++) {
		for (i = 0; i < (c == MODEL_AI ? 3 : 6); i++) {
			text = synth(c, (unsigned)(c * 100 + i), 12);
			model_input_init(&in, NULL, text, strlen(text));
			model_train_add(t, &in, c, 1);
			free(text);
		}
	}
	assert_int_equal(model_train_add(t, &in, 3, 1), -1);
	assert_int_equal(model_train_add(t, &in, MODEL_USER, 0), -1);
	assert_int_equal(model_train_add(t, &in, MODEL_USER, NAN), -1);
	m = model_train_finish(t);
	assert_non_null(m);
	assert_int_equal(model_examples(m, MODEL_AI), 3);
	assert_false(model_ready(m));
	text = synth(MODEL_USER, 77, 12);
	model_input_init(&in, NULL, text, strlen(text));
	/* too few ai examples: the model abstains but still fills out[] */
	assert_int_equal(model_score(m, &in, p), 0);
	assert_true(fabs(p[0] + p[1] + p[2] - 1) < 1e-9);
	model_set_min_examples(m, 3);
	assert_true(model_ready(m));
	assert_int_equal(model_score(m, &in, p), 1);
	/* too few words: abstain */
	model_input_init(&in, NULL, "my laptop", 9);
	assert_int_equal(model_score(m, &in, p), 0);
	free(text);
	model_free(m);

	/* an empty model never votes */
	m = model_train_finish(model_train_new(NULL));
	assert_non_null(m);
	assert_false(model_ready(m));
	text = synth(MODEL_AI, 78, 12);
	model_input_init(&in, NULL, text, strlen(text));
	assert_int_equal(model_score(m, &in, p), 0);
	assert_true(fabs(p[0] - 1.0 / 3) < 1e-12);
	free(text);
	model_free(m);

	/* bad options are refused */
	model_options_init(&o);
	o.table_bits = 30;
	assert_null(model_train_new(&o));
	model_options_init(&o);
	o.window = 0;
	assert_null(model_train_new(&o));
}

static void test_calibration(void **state)
{
	struct model_options o;
	struct model_trainer *t;
	struct model_input in;
	struct model *cal = NULL, *raw = NULL;
	double p[MODEL_NCLASS], q[MODEL_NCLASS];
	char group[16], *text;
	size_t i;
	int c;

	/* a quarter of the labels are wrong: calibrated posteriors are
	 * less extreme than raw ones, and rank the classes the same */
	model_options_init(&o);
	o.kind = MODEL_NB;
	for (int pass = 0; pass < 2; pass++) {
		o.calibrate = pass == 0;
		t = model_train_new(&o);
		for (i = 0; i < 20; i++) {
			for (c = 0; c < MODEL_NCLASS; c++) {
				text = synth(c, (unsigned)(i * 3 + c), 4);
				snprintf(group, sizeof(group), "g%zu", i / 2);
				model_input_init(&in, NULL, text, strlen(text));
				assert_int_equal(model_train_add_group(
							 t, &in, c, 1, group),
						 0);
				free(text);
			}
		}
		if (pass == 0)
			cal = model_train_finish(t);
		else
			raw = model_train_finish(t);
	}
	text = synth(MODEL_USER, 4242, 8);
	model_input_init(&in, NULL, text, strlen(text));
	model_score(cal, &in, p);
	model_score(raw, &in, q);
	assert_int_equal(argmax3(p), MODEL_USER);
	assert_int_equal(argmax3(q), MODEL_USER);
	/* the log-odds against the runner-up shrink */
	assert_true(log(p[MODEL_USER]) - log(fmax(p[1], p[2])) <
		    log(q[MODEL_USER]) - log(fmax(q[1], q[2])));
	free(text);
	model_free(cal);
	model_free(raw);
}

static void test_save_open_same_scores(void **state)
{
	struct model_options o;
	struct model *m, *m2;
	char *path = tmp_path();
	struct stat st;
	unsigned i;

	model_options_init(&o);
	o.table_bits = 14;
	m = train_synth(&o, 10, 3);
	assert_int_equal(model_save(m, path), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 128 + (1 << 14) * MODEL_NCLASS * 4);
	m2 = model_open(path);
	assert_non_null(m2);
	assert_int_equal(model_verify(m2), 0);
	assert_int_equal(model_table_bits(m2), 14);
	assert_int_equal(model_window(m2), o.window);
	assert_int_equal(model_kind(m2), model_kind(m));
	for (i = 0; i < 9; i++) {
		char *text = synth((int)(i % 3), 500 + i, 10);
		struct model_input in;
		double p[MODEL_NCLASS], q[MODEL_NCLASS];

		model_input_init(&in, "subject", text, strlen(text));
		assert_int_equal(model_score(m, &in, p),
				 model_score(m2, &in, q));
		assert_memory_equal(p, q, sizeof(p));
		free(text);
	}
	model_free(m);
	model_free(m2);
	unlink(path);
	free(path);
}

/* header layout (model.h): table_bits at 24, header CRC at 116 */
static void fix_header_crc(unsigned char *img)
{
	uint32_t crc;

	memset(img + 116, 0, 4);
	crc = (uint32_t)crc32(0L, img, 128);
	memcpy(img + 116, &crc, 4);
}

/* log_odds - log of p[cls] over the likeliest other class */
static double log_odds(const double *p, int cls)
{
	double other = 0;
	int c;

	for (c = 0; c < MODEL_NCLASS; c++)
		if (c != cls && p[c] > other)
			other = p[c];
	return log(p[cls]) - log(other);
}

/*
 * score_padded - the log-odds of cls for text followed by pad words no
 * report was trained on (their buckets weigh nothing)
 */
static double score_padded(const struct model *m, const char *text, size_t pad,
			   int cls)
{
	struct strbuf sb = STRBUF_INIT(1 << 20);
	struct model_input in;
	double p[MODEL_NCLASS];
	char w[32];
	size_t i;

	sb_adds(&sb, text);
	for (i = 0; i < pad; i++) {
		snprintf(w, sizeof(w), " qzxpad%zu", i);
		sb_adds(&sb, w);
	}
	model_input_init(&in, "report", sb.buf, sb.len);
	assert_int_equal(model_score(m, &in, p), 1);
	sb_release(&sb);
	return log_odds(p, cls);
}

/*
 * LR is scored as it was trained, each of a report's n features counting
 * 1/sqrt(n): the same weighed words among 1000 words that weigh nothing
 * are less certain than among 50, about sqrt(1/6) as much (scored
 * unscaled, as before, both were the same and a long log's few weighed
 * words decided it alone).  A model file written before (no flag 2 at
 * header offset 36) keeps the unscaled scores its temperature was
 * fitted on; NB sums log-probabilities and is never scaled.
 */
static void test_lr_scored_as_trained(void **state)
{
	char *text = synth(MODEL_AI, 4242, 12), *path = tmp_path(), *img;
	struct model_options o;
	struct model *m, *old, *nb;
	double a, b;
	uint32_t flags;
	size_t size;

	model_options_init(&o);
	o.min_examples = 5;
	o.calibrate = false;
	m = train_synth(&o, 15, 7);
	a = score_padded(m, text, 50, MODEL_AI);
	b = score_padded(m, text, 1000, MODEL_AI);
	assert_true(a > 0 && b > 0);
	assert_true(b < 0.7 * a);
	/* the same table and header, flag 2 cleared: unscaled, as before */
	assert_int_equal(model_save(m, path), 0);
	assert_int_equal(read_file(path, 8 << 20, &img, &size), 0);
	memcpy(&flags, img + 36, 4);
	assert_true(flags & 2);
	flags &= ~2u;
	memcpy(img + 36, &flags, 4);
	fix_header_crc((unsigned char *)img);
	old = model_from_buffer(img, size);
	assert_non_null(old);
	a = score_padded(old, text, 50, MODEL_AI);
	b = score_padded(old, text, 1000, MODEL_AI);
	assert_true(a > 0 && fabs(a - b) < 1e-9 * a);
	o.kind = MODEL_NB;
	nb = train_synth(&o, 15, 7);
	a = score_padded(nb, text, 50, MODEL_AI);
	b = score_padded(nb, text, 1000, MODEL_AI);
	assert_true(a > 0 && fabs(a - b) < 1e-9 * a);
	model_free(nb);
	model_free(old);
	model_free(m);
	free(img);
	free(text);
	unlink(path);
	free(path);
}

static void test_corrupt_files_refused(void **state)
{
	struct model_options o;
	struct model *m, *bad;
	char *path = tmp_path(), *text;
	unsigned char *img;
	size_t size, cut[] = { 0, 1, 8, 64, 127, 128, 129, 4096 }, i;
	struct model_input in;
	double p[MODEL_NCLASS];
	uint64_t x = 99;

	/* hundreds of refusals follow: print only the first */
	msg_setup("test_model", 1, true);
	model_options_init(&o);
	o.table_bits = 12;
	m = train_synth(&o, 8, 5);
	assert_int_equal(model_save(m, path), 0);
	model_free(m);
	assert_int_equal(read_file(path, 1 << 20, (char **)&img, &size), 0);
	assert_int_equal(size, 128 + 4096 * 12);

	/* truncated: refused at every length */
	for (i = 0; i < ARRAY_SIZE(cut); i++) {
		write_bytes(path, img, cut[i]);
		assert_null(model_open(path));
	}
	write_bytes(path, img, size - 1);
	assert_null(model_open(path));
	/* appended garbage */
	{
		unsigned char *longer = xcalloc(1, size + 16);

		memcpy(longer, img, size);
		write_bytes(path, longer, size + 16);
		assert_null(model_open(path));
		free(longer);
	}
	/* a directory, a missing file */
	assert_null(model_open("/tmp"));
	assert_null(model_open("/nonexistent/triage-model"));

	/* any flipped header byte: the CRC refuses it */
	for (i = 0; i < 128; i++) {
		img[i] ^= 0x40;
		assert_null(model_from_buffer(img, size));
		img[i] ^= 0x40;
	}
	/* consistent CRC but impossible sizes */
	img[24] = 30;
	fix_header_crc(img);
	assert_null(model_from_buffer(img, size));
	img[24] = 12;
	fix_header_crc(img);
	bad = model_from_buffer(img, size);
	assert_non_null(bad);
	model_free(bad);

	/* random header damage with a fixed CRC: refused, or usable */
	text = synth(MODEL_AI, 4, 12);
	model_input_init(&in, "s", text, strlen(text));
	for (i = 0; i < 2000; i++) {
		unsigned char save[128];
		size_t at;

		memcpy(save, img, 128);
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		at = (x >> 33) % 116;
		img[at] = (unsigned char)(x >> 13);
		fix_header_crc(img);
		bad = model_from_buffer(img, size);
		if (bad) {
			model_score(bad, &in, p);
			assert_true(isfinite(p[0]) && isfinite(p[1]) &&
				    isfinite(p[2]));
			model_free(bad);
		}
		memcpy(img, save, 128);
	}

	/* a damaged table opens (checking 3 MB costs too much per message)
	 * but model_verify() finds it, and NaN weights make it abstain */
	{
		float nan = NAN;

		for (i = 0; i < 4096 * 3; i++)
			memcpy(img + 128 + i * 4, &nan, 4);
		write_bytes(path, img, size);
		bad = model_open(path);
		assert_non_null(bad);
		assert_int_equal(model_verify(bad), -1);
		assert_int_equal(model_score(bad, &in, p), 0);
		assert_true(fabs(p[0] - 1.0 / 3) < 1e-12);
		model_free(bad);
	}
	free(text);
	free(img);
	unlink(path);
	free(path);
	msg_setup("test_model", 1, false);
}

static void test_deterministic(void **state)
{
	struct model_options o;
	struct model *a, *b, *c2;
	char *pa = tmp_path(), *pb = tmp_path(), *pc = tmp_path();
	char *da, *db, *dc;
	size_t la, lb, lc;
	int kind;

	for (kind = MODEL_NB; kind <= MODEL_LR; kind++) {
		model_options_init(&o);
		o.kind = (enum model_kind)kind;
		o.table_bits = 12;
		a = train_synth(&o, 10, 11);
		b = train_synth(&o, 10, 11);
		o.seed = 2;
		c2 = train_synth(&o, 10, 11);
		model_save(a, pa);
		model_save(b, pb);
		model_save(c2, pc);
		read_file(pa, 1 << 20, &da, &la);
		read_file(pb, 1 << 20, &db, &lb);
		read_file(pc, 1 << 20, &dc, &lc);
		assert_int_equal(la, lb);
		assert_memory_equal(da, db, la);
		/* another seed shuffles SGD differently; NB has no randomness
		 * beyond the calibration folds' tie order */
		if (kind == MODEL_LR)
			assert_true(memcmp(da + 128, dc + 128, la - 128) != 0);
		free(da);
		free(db);
		free(dc);
		model_free(a);
		model_free(b);
		model_free(c2);
	}
	unlink(pa);
	unlink(pb);
	unlink(pc);
	free(pa);
	free(pb);
	free(pc);
}

static void test_explain(void **state)
{
	struct model_options o;
	struct model_term terms[5];
	struct model_input in;
	struct model *m;
	const char *text = "found by our fuzzer, syzkaller reproducer attached";
	size_t n, i;

	model_options_init(&o);
	m = train_synth(&o, 12, 21);
	model_input_init(&in, NULL, text, strlen(text));
	n = model_explain(m, &in, MODEL_FUZZER, terms, ARRAY_SIZE(terms));
	assert_true(n > 0 && n <= ARRAY_SIZE(terms));
	for (i = 0; i < n; i++) {
		assert_true(terms[i].pull > 0);
		if (i)
			assert_true(terms[i - 1].pull >= terms[i].pull);
		/* every term is one of the text's words or pairs */
		assert_true(strstr("found by our fuzzer syzkaller reproducer "
				   "attached __len_3",
				   strtok(terms[i].text, " ")) != NULL);
	}
	assert_int_equal(model_explain(m, &in, 7, terms, 5), 0);
	model_free(m);
}

static void test_input_from_report(void **state)
{
	struct report *r = report_new();
	struct report_part *p;
	struct model_input in;

	free(r->subject);
	r->subject = xstrdup("subject");
	r->body = xstrdup("body text");
	r->body_len = 9;
	p = report_add_part(r);
	p->text = xstrdup("body text");
	p->len = 9;
	p->flags = PART_TEXT;
	p = report_add_part(r);
	p->text = xstrdup("dmesg lines");
	p->len = 11;
	p->flags = PART_TEXT | PART_ATTACHMENT;
	p = report_add_part(r);
	p->text = xstrdup("<b>html</b>");
	p->len = 11;
	p->flags = PART_TEXT | PART_ATTACHMENT | PART_HTML;
	p = report_add_part(r);
	p->flags = PART_ATTACHMENT; /* binary */
	model_input_from_report(&in, r);
	assert_string_equal(in.subject, "subject");
	assert_int_equal(in.body_len, 9);
	assert_int_equal(in.nattach, 1);
	assert_string_equal(in.attach[0], "dmesg lines");
	report_free(r);
}

/* ---- evaluation ------------------------------------------------------------------ */

static void test_folds_keep_groups(void **state)
{
	enum { N = 60 };
	const char *groups[N];
	char names[N][16];
	int cls[N];
	unsigned fold[N], again[N], k = 5, f;
	size_t i, j, per[5] = { 0 };
	int ng;

	for (i = 0; i < N; i++) {
		/* 17 groups of uneven size; group i % 17, class by group */
		snprintf(names[i], sizeof(names[i]), "author%zu", (i * i) % 17);
		groups[i] = names[i];
		cls[i] = (int)(((i * i) % 17) % 3);
	}
	ng = model_folds(groups, cls, N, k, 1, fold);
	assert_true(ng > 0 && ng <= 17);
	for (i = 0; i < N; i++) {
		assert_true(fold[i] < k);
		per[fold[i]]++;
		for (j = 0; j < N; j++)
			if (!strcmp(groups[i], groups[j]))
				assert_int_equal(fold[i], fold[j]);
	}
	for (f = 0; f < k; f++)
		assert_true(per[f] > 0);
	assert_int_equal(model_folds(groups, cls, N, k, 1, again), ng);
	assert_memory_equal(fold, again, sizeof(fold));
	/* NULL groups: every example alone */
	assert_int_equal(model_folds(NULL, cls, N, k, 1, fold), N);
	/* too few groups or folds */
	for (i = 0; i < N; i++)
		groups[i] = i < 30 ? "a" : "b";
	assert_int_equal(model_folds(groups, cls, N, 3, 1, fold), -1);
	assert_int_equal(model_folds(groups, cls, N, 1, 1, fold), -1);
}

static void test_cross_validate(void **state)
{
	enum { PER = 12 };
	struct model_example ex[PER * MODEL_NCLASS];
	char *texts[PER * MODEL_NCLASS], groups[PER * MODEL_NCLASS][16];
	struct model_options o;
	struct model_eval ev;
	int pred[PER * MODEL_NCLASS], c, kind;
	double post[PER * MODEL_NCLASS][MODEL_NCLASS];
	size_t i, n = 0, sum;

	for (i = 0; i < PER; i++) {
		for (c = 0; c < MODEL_NCLASS; c++) {
			texts[n] = synth(c, (unsigned)(i * 7 + c), 12);
			snprintf(groups[n], sizeof(groups[n]), "g%d-%zu", c,
				 i / 2);
			model_input_init(&ex[n].in, "report", texts[n],
					 strlen(texts[n]));
			ex[n].cls = c;
			ex[n].group = groups[n];
			ex[n].weight = 0;
			n++;
		}
	}
	for (kind = MODEL_NB; kind <= MODEL_LR; kind++) {
		model_options_init(&o);
		o.kind = (enum model_kind)kind;
		o.min_examples = 3;
		assert_int_equal(
			model_cross_validate(ex, n, 4, &o, &ev, pred, post), 0);
		assert_int_equal(ev.n, n);
		sum = 0;
		for (c = 0; c < MODEL_NCLASS; c++)
			sum += ev.confusion[c][0] + ev.confusion[c][1] +
			       ev.confusion[c][2];
		assert_int_equal(sum, n);
		for (i = 0; i < n; i++) {
			assert_true(pred[i] >= 0 && pred[i] < MODEL_NCLASS);
			assert_int_equal(pred[i], argmax3(post[i]));
		}
		assert_true(ev.macro_f1 > 0.8);
		/* better than uniform posteriors, log(3) */
		assert_true(ev.log_loss >= 0 && ev.log_loss < log(3.0));
	}
	/* one group cannot make 4 folds */
	for (i = 0; i < n; i++)
		ex[i].group = "same";
	assert_int_equal(model_cross_validate(ex, n, 4, NULL, &ev, NULL, NULL),
			 -1);
	for (i = 0; i < n; i++)
		free(texts[i]);
}

static void test_eval_metrics(void **state)
{
	struct model_eval ev;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int i;

	memset(&ev, 0, sizeof(ev));
	/* user: 8 right, 2 called ai; fuzzer: 5 right; ai: 4 right, 1 user */
	for (i = 0; i < 8; i++)
		model_eval_add(&ev, MODEL_USER, MODEL_USER);
	for (i = 0; i < 2; i++)
		model_eval_add(&ev, MODEL_USER, MODEL_AI);
	for (i = 0; i < 5; i++)
		model_eval_add(&ev, MODEL_FUZZER, MODEL_FUZZER);
	for (i = 0; i < 4; i++)
		model_eval_add(&ev, MODEL_AI, MODEL_AI);
	model_eval_add(&ev, MODEL_AI, MODEL_USER);
	model_eval_add(&ev, 5, MODEL_USER); /* ignored */
	model_eval_finish(&ev);
	assert_int_equal(ev.n, 20);
	assert_true(fabs(ev.precision[MODEL_USER] - 8.0 / 9) < 1e-12);
	assert_true(fabs(ev.recall[MODEL_USER] - 0.8) < 1e-12);
	assert_true(fabs(ev.precision[MODEL_AI] - 4.0 / 6) < 1e-12);
	assert_true(fabs(ev.recall[MODEL_AI] - 0.8) < 1e-12);
	assert_true(fabs(ev.f1[MODEL_FUZZER] - 1) < 1e-12);
	assert_true(fabs(ev.accuracy - 17.0 / 20) < 1e-12);
	f = open_memstream(&buf, &len);
	model_eval_print(f, "model NB 5-fold grouped", &ev);
	fclose(f);
	assert_non_null(strstr(buf, "# model NB 5-fold grouped: macro-F1 "));
	assert_non_null(strstr(buf, "user P/R 0.89/0.80"));
	free(buf);
	assert_string_equal(model_class_name(MODEL_AI), "ai");
	assert_string_equal(model_class_name(9), "?");
	assert_int_equal(model_class_parse("fuzzer"), MODEL_FUZZER);
	assert_int_equal(model_class_parse("bot"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tokenizer_shapes),
		cmocka_unit_test(test_quotes_and_signature_stripped),
		cmocka_unit_test(test_whole_reads_quotes),
		cmocka_unit_test(test_structure_tokens),
		cmocka_unit_test(test_token_caps),
		cmocka_unit_test(test_hostile_bytes),
		cmocka_unit_test(test_nb_separates),
		cmocka_unit_test(test_lr_separates),
		cmocka_unit_test(test_min_examples_and_tokens),
		cmocka_unit_test(test_calibration),
		cmocka_unit_test(test_save_open_same_scores),
		cmocka_unit_test(test_corrupt_files_refused),
		cmocka_unit_test(test_lr_scored_as_trained),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_explain),
		cmocka_unit_test(test_input_from_report),
		cmocka_unit_test(test_folds_keep_groups),
		cmocka_unit_test(test_cross_validate),
		cmocka_unit_test(test_eval_metrics),
	};

	msg_setup("test_model", 1, false);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
