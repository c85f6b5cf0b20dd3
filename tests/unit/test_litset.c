// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_litset - the one-pass literal scan against a naive search
 *
 * Random sets (long and short needles, anchored or not, with and
 * without case, from one needle to past the index's largest size) over
 * random texts drawn from a small alphabet, so that needles occur
 * often: litset_mask(), litset_each() and litset_any() must report
 * exactly what comparing every needle at every position reports.  The
 * same needles added in chunks with litset_add_all() (one id for all)
 * must be found as often.  litset_mask2() must give the mask of the
 * text and of a random tail of it, "^" needles anchored at the tail.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "litset.h"
#include "util.h"

#define NPAT 300 /* past 64 long needles, the index's largest size */

struct pat {
	char text[16]; /* as given to litset_add(), with anchors */
	const char *s; /* the needle itself */
	size_t len;
	bool start, end;
};

static unsigned char fold(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') ? (unsigned char)(c + 32) : c;
}

/* naive_at - the needle matches at position i of s */
static bool naive_at(const struct pat *p, bool nocase, const char *s,
		     size_t len, size_t i)
{
	size_t k;

	if (p->len > len - i || (p->start && i) ||
	    (p->end && i + p->len != len))
		return false;
	for (k = 0; k < p->len; k++) {
		unsigned char a = (unsigned char)s[i + k],
			      b = (unsigned char)p->s[k];

		if (nocase ? fold(a) != fold(b) : a != b)
			return false;
	}
	return true;
}

/* naive_count - how often litset_each() must report the needle */
static unsigned naive_count(const struct pat *p, bool nocase, const char *s,
			    size_t len)
{
	unsigned n = 0;
	size_t i;

	for (i = 0; i < len; i++)
		n += naive_at(p, nocase, s, len, i);
	/* a short needle is reported once */
	return p->len < 4 && n ? 1 : n;
}

static void count_id(void *ctx, unsigned id)
{
	((unsigned *)ctx)[id]++;
}

static const char alphabet[] = "abAB_- .x\n";

static void random_text(char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = alphabet[rand() % (sizeof(alphabet) - 1)];
}

static void check_random_sets(bool nocase, unsigned seed)
{
	struct pat pats[NPAT];
	const char *texts[NPAT];
	struct litset ls, all;
	char text[200];
	unsigned round, i, counts[NPAT], hits = 0, tails = 0;

	srand(seed);
	for (round = 0; round < 200; round++) {
		unsigned npat = 1 + (unsigned)rand() % (round % 4 ? 80 : NPAT);

		litset_init(&ls, nocase);
		litset_init(&all, nocase);
		for (i = 0; i < npat; i++) {
			struct pat *p = &pats[i];
			char *t = p->text;

			p->start = rand() % 6 == 0;
			p->end = rand() % 6 == 0;
			p->len = 2 + (size_t)rand() % 6;
			if (p->start)
				*t++ = '^';
			p->s = t;
			random_text(t, p->len);
			/* "^" and "$" are anchors, never needle bytes */
			t += p->len;
			if (p->end)
				*t++ = '$';
			*t = '\0';
			litset_add(&ls, p->text, i);
			texts[i] = p->text;
		}
		for (i = 0; i < npat;) {
			unsigned chunk = 1 + (unsigned)rand() % 40;

			if (chunk > npat - i)
				chunk = npat - i;
			litset_add_all(&all, texts + i, chunk, 0);
			i += chunk;
		}
		for (i = 0; i < 20; i++) {
			size_t len = (size_t)rand() % sizeof(text), k;
			uint64_t want = 0;
			unsigned total = 0, all_count = 0;
			bool any = false;

			random_text(text, len);
			memset(counts, 0, sizeof(counts));
			litset_each(&ls, text, len, count_id, counts);
			for (k = 0; k < npat; k++) {
				unsigned n = naive_count(&pats[k], nocase, text,
							 len);

				assert_int_equal(counts[k], n);
				if (n && k < 64)
					want |= (uint64_t)1 << k;
				any |= n > 0;
				hits += n;
				total += n;
			}
			assert_true(litset_mask(&ls, text, len) == want);
			/* the mask of a tail, in the same pass */
			{
				size_t off = (size_t)rand() % (len + 1);
				uint64_t tail = 0, want_tail = 0;

				for (k = 0; k < npat && k < 64; k++)
					if (naive_count(&pats[k], nocase,
							text + off, len - off))
						want_tail |= (uint64_t)1 << k;
				assert_true(litset_mask2(&ls, text, len, off,
							 &tail) == want);
				assert_true(tail == want_tail);
				tails += want_tail != want;
			}
			assert_int_equal(litset_any(&ls, text, len), any);
			litset_each(&all, text, len, count_id, &all_count);
			assert_int_equal(all_count, total);
			assert_true(litset_mask(&all, text, len) == any);
			assert_int_equal(litset_any(&all, text, len), any);
		}
		litset_release(&ls);
		litset_release(&all);
	}
	/* the texts are made to hit: a test that found nothing is void */
	assert_true(hits > 1000);
	/* and tails whose needles differ from the whole text's */
	assert_true(tails > 100);
}

static void test_case_sensitive(void **state)
{
	check_random_sets(false, 1);
}

static void test_nocase(void **state)
{
	check_random_sets(true, 2);
}

/* The K: kind of set: many needles, three of them short, no case. */
static void test_nocase_shorts_in_text(void **state)
{
	const char *text = "Found a BPF bug; xdp_do() and PTP.\n"
			   "bpf again, ptp_clock";
	struct litset ls;
	unsigned counts[8] = { 0 };

	litset_init(&ls, true);
	litset_add(&ls, "bpf", 0);
	litset_add(&ls, "xdp", 1);
	litset_add(&ls, "ptp", 2);
	litset_add(&ls, "clock", 3);
	litset_add(&ls, "^found", 4);
	litset_add(&ls, "clock$", 5);
	litset_add(&ls, "zz", 6);
	litset_each(&ls, text, strlen(text), count_id, counts);
	assert_int_equal(counts[0], 1); /* twice in the text, once reported */
	assert_int_equal(counts[1], 1);
	assert_int_equal(counts[2], 1);
	assert_int_equal(counts[3], 1);
	assert_int_equal(counts[4], 1);
	assert_int_equal(counts[5], 1);
	assert_int_equal(counts[6], 0);
	assert_true(litset_mask(&ls, "xD", 2) == 0);
	assert_true(litset_mask(&ls, "xDp", 3) == 2);
	assert_true(litset_any(&ls, "PtP", 3));
	assert_true(litset_any(&ls, "found", 5));
	assert_false(litset_any(&ls, "a found", 7));
	litset_release(&ls);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_case_sensitive),
		cmocka_unit_test(test_nocase),
		cmocka_unit_test(test_nocase_shorts_in_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
