// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_evidence_shared - the evidence stage against syzkaller's own data
 *
 * Reads ../shared/corpus/syzkaller (or $TRIAGE_SHARED/corpus/syzkaller;
 * skipped when absent):
 *   guilty/N      "FILE: path", a blank line, a symbolised crash log;
 *                 the guilty file must match (the issue asks >= 66/68)
 *   report/N      header lines up to a blank line ("TITLE: ..."), the
 *                 log, optionally "REPORT:" and the expected report;
 *                 the title must match, and a log without TITLE must
 *                 not be taken for a crash
 *   guilty-sections.tsv
 *                 each expected file mapped by get_maintainer.pl; the
 *                 guilty file found here is mapped through map.h and the
 *                 section sets compared
 * Figures are printed as "# ..." lines.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence.h"
#include "map.h"
#include "strbuf.h"
#include "util.h"

#define MAX_CASES 4096

static char shared[4096];

static bool find_shared(void)
{
	const char *env = getenv("TRIAGE_SHARED");
	const char *src = getenv("TRIAGE_SRCDIR");

	if (env && *env)
		snprintf(shared, sizeof(shared), "%s", env);
	else
		snprintf(shared, sizeof(shared), "%s/../shared",
			 src && *src ? src : ".");
	return is_dir(shared);
}

static int setup(void **state)
{
	if (!find_shared())
		printf("# %s is absent: skipping the real-data evidence tests\n",
		       shared);
	return 0;
}

/* numbered_files - "dir/0", "dir/1", ... sorted numerically */
static size_t numbered_files(const char *dir, long *ids, size_t max)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t n = 0, i, j;

	if (!d)
		return 0;
	while ((de = readdir(d)) && n < max) {
		unsigned long v;

		if (de->d_name[0] < '0' || de->d_name[0] > '9' ||
		    parse_ulong(de->d_name, &v))
			continue;
		ids[n++] = (long)v;
	}
	closedir(d);
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && ids[j - 1] > ids[j]; j--) {
			long t = ids[j];

			ids[j] = ids[j - 1];
			ids[j - 1] = t;
		}
	return n;
}

static char *guilty_found[MAX_CASES];

static void test_guilty(void **state)
{
	char dir[4200], path[4300];
	long ids[MAX_CASES];
	size_t n, i, right = 0, right_text = 0;

	if (!is_dir(shared))
		skip();
	snprintf(dir, sizeof(dir), "%s/corpus/syzkaller/guilty", shared);
	n = numbered_files(dir, ids, ARRAY_SIZE(ids));
	assert_true(n > 0);
	for (i = 0; i < n; i++) {
		char *buf, *want, *log, *got;
		size_t len;
		struct evidence *ev;

		snprintf(path, sizeof(path), "%s/%ld", dir, ids[i]);
		assert_int_equal(read_file(path, 16 << 20, &buf, &len), 0);
		assert_true(starts_with(buf, "FILE: "));
		log = strstr(buf, "\n\n");
		assert_non_null(log);
		want = xmemdup0(buf + 6, (size_t)(strchr(buf, '\n') - buf - 6));
		got = evidence_guilty_file(log, len - (size_t)(log - buf));
		if (!strcmp(want, got ? got : ""))
			right++;
		else
			printf("# guilty/%ld: want \"%s\", got \"%s\"\n",
			       ids[i], want, got ? got : "");
		/* the mail path must agree */
		ev = evidence_extract_text(log, len - (size_t)(log - buf));
		if (!strcmp(want, ev->guilty_file ? ev->guilty_file : ""))
			right_text++;
		evidence_free(ev);
		if (ids[i] >= 0 && ids[i] < MAX_CASES)
			guilty_found[ids[i]] = got;
		else
			free(got);
		free(want);
		free(buf);
	}
	printf("# guilty file: %zu/%zu\n", right, n);
	printf("# guilty file (evidence_extract_text): %zu/%zu\n", right_text,
	       n);
	assert_true(right >= 66);
	assert_true(right_text >= 66);
}

static void test_titles(void **state)
{
	char dir[4200], path[4300];
	long ids[MAX_CASES];
	size_t n, i, titled = 0, exact = 0, untitled = 0, quiet = 0;

	if (!is_dir(shared))
		skip();
	snprintf(dir, sizeof(dir), "%s/corpus/syzkaller/report", shared);
	n = numbered_files(dir, ids, ARRAY_SIZE(ids));
	assert_true(n > 0);
	for (i = 0; i < n; i++) {
		char *buf, *p, *log, *end, *title = NULL;
		size_t len;
		struct evidence *ev;

		snprintf(path, sizeof(path), "%s/%ld", dir, ids[i]);
		assert_int_equal(read_file(path, 16 << 20, &buf, &len), 0);
		/* header lines up to the first blank line */
		for (p = buf; *p && *p != '\n';) {
			char *nl = strchr(p, '\n');

			if (!nl)
				break;
			if (starts_with(p, "TITLE:"))
				title = xmemdup0(p + 6, (size_t)(nl - p - 6));
			p = nl + 1;
		}
		log = *p == '\n' ? p + 1 : p;
		end = strstr(log, "\n\nREPORT:\n");
		end = end ? end + 1 : buf + len;
		ev = evidence_extract_text(log, (size_t)(end - log));
		if (title) {
			char *t = title;

			titled++;
			while (*t == ' ')
				t++;
			if (!strcmp(t, ev->title ? ev->title : ""))
				exact++;
			else
				printf("# report/%ld: want \"%s\", got \"%s\"\n",
				       ids[i], t, ev->title ? ev->title : "");
		} else {
			untitled++;
			if (!ev->title)
				quiet++;
			else
				printf("# report/%ld: no crash expected, got \"%s\"\n",
				       ids[i], ev->title);
		}
		evidence_free(ev);
		free(title);
		free(buf);
	}
	printf("# titles: %zu/%zu exact\n", exact, titled);
	printf("# no-crash logs: %zu/%zu not detected\n", quiet, untitled);
	assert_int_equal(quiet, untitled);
	/* a floor against regressions, not the figure itself */
	assert_true(exact * 100 >= titled * 95);
}

static void sort_names(const char **v, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++)
		for (j = i; j > 0 && strcmp(v[j - 1], v[j]) > 0; j--) {
			const char *t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}

/* split_sections - "A | B | C" into a sorted list; returns the count */
static size_t split_sections(char *s, const char **out, size_t max)
{
	size_t n = 0;
	char *tok = s;

	while (tok && *tok && n < max) {
		char *sep = strstr(tok, " | ");

		if (sep)
			*sep = '\0';
		out[n++] = tok;
		tok = sep ? sep + 3 : NULL;
	}
	sort_names(out, n);
	return n;
}

static void test_sections(void **state)
{
	char path[4300], *buf, *line, *save = NULL;
	size_t len, agree = 0, total = 0;
	struct map *map;
	bool header = true;

	if (!is_dir(shared))
		skip();
	snprintf(path, sizeof(path), "%s/data/linux/MAINTAINERS", shared);
	map = map_load_text(path, NULL);
	assert_non_null(map);
	snprintf(path, sizeof(path), "%s/corpus/syzkaller/guilty-sections.tsv",
		 shared);
	assert_int_equal(read_file(path, 16 << 20, &buf, &len), 0);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *col[6] = { 0 };
		const char *want[MAP_MAX_HITS], *got[MAP_MAX_HITS];
		struct map_hit hits[MAP_MAX_HITS];
		size_t nc = 0, nw, ng = 0, i;
		unsigned long id;
		char *p = line;
		bool same;

		if (header) {
			header = false;
			continue;
		}
		while (nc < ARRAY_SIZE(col)) {
			col[nc++] = p;
			p = strchr(p, '\t');
			if (!p)
				break;
			*p++ = '\0';
		}
		if (nc < 4 || !*col[1] || parse_ulong(col[0], &id) ||
		    id >= MAX_CASES)
			continue;
		total++;
		nw = split_sections(col[3], want, ARRAY_SIZE(want));
		if (guilty_found[id]) {
			size_t nh = map_lookup(map, guilty_found[id], hits,
					       ARRAY_SIZE(hits));

			for (i = 0; i < nh; i++)
				got[ng++] = map_title(map, hits[i].section);
			sort_names(got, ng);
		}
		same = nw == ng;
		for (i = 0; same && i < nw; i++)
			same = !strcmp(want[i], got[i]);
		if (same)
			agree++;
		else
			printf("# sections of guilty/%lu (%s): differ\n", id,
			       guilty_found[id] ? guilty_found[id] : "none");
	}
	printf("# sections: %zu/%zu\n", agree, total);
	assert_true(total > 0);
	assert_true(agree * 100 >= total * 95);
	free(buf);
	map_free(map);
}

static int teardown(void **state)
{
	size_t i;

	for (i = 0; i < MAX_CASES; i++)
		free(guilty_found[i]);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_guilty),
		cmocka_unit_test(test_titles),
		cmocka_unit_test(test_sections),
	};

	msg_setup("test_evidence_shared", 1, false);
	return cmocka_run_group_tests(tests, setup, teardown);
}
