// SPDX-License-Identifier: GPL-2.0-only
/*
 * sections - the map stage for a report (see sections.h)
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "crashlog.h"
#include "evidence.h"
#include "map.h"
#include "sections.h"
#include "util.h"

#define W_GUILTY    1.0
#define W_FRAME	    0.5
#define W_FRAME_MIN 0.2
#define W_MODULE    0.45
#define W_TEXT	    0.4
#define W_TEXT_MIN  0.15
#define W_STEP	    0.05
#define W_PREFIX    0.6
#define W_KEYWORD   0.15
#define PREFIX_MAX  64

/* sections_is_catchall - only "*" and "*" + "/" patterns, like THE REST */
int sections_is_catchall(const struct map *map, uint32_t section)
{
	uint32_t i, n = map_nentries(map, section);
	int f = 0;

	for (i = 0; i < n; i++) {
		char tag = map_entry_tag(map, section, i);
		const char *v = map_entry_value(map, section, i);

		if (tag != 'F')
			continue;
		if (strcmp(v, "*") != 0 && strcmp(v, "*/") != 0)
			return 0;
		f++;
	}
	return f > 0;
}

struct acc {
	struct section_score *v;
	double *best; /* strongest single contribution, for "why" */
	size_t n, alloc;
};

static void credit(struct acc *a, uint32_t section, double w, const char *why)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		if (a->v[i].section == section)
			break;
	if (i == a->n) {
		if (a->n == a->alloc) {
			a->alloc = a->alloc ? a->alloc * 2 : 16;
			a->v = xreallocarray(a->v, a->alloc, sizeof(*a->v));
			a->best = xreallocarray(a->best, a->alloc,
						sizeof(*a->best));
		}
		memset(&a->v[i], 0, sizeof(a->v[i]));
		a->v[i].section = section;
		a->best[i] = 0;
		a->n++;
	}
	a->v[i].score += w;
	if (w > a->best[i]) {
		a->best[i] = w;
		snprintf(a->v[i].why, sizeof(a->v[i].why), "%s", why);
	}
}

/*
 * credit_path_as - map one path; the most specific sections get w, each
 * broader depth level half of the one before; "why" names shown
 */
static int credit_path_as(struct acc *a, const struct map *map,
			  const char *path, const char *shown, double w,
			  const char *kind)
{
	struct map_hit hits[MAP_MAX_HITS];
	size_t n = map_lookup(map, path, hits, ARRAY_SIZE(hits)), i;
	int level = 0, credited = 0;
	char why[SECTION_WHY_MAX];

	for (i = 0; i < n; i++) {
		if (sections_is_catchall(map, hits[i].section))
			continue;
		if (i > 0 && hits[i].depth != hits[i - 1].depth && credited)
			level++;
		snprintf(why, sizeof(why), "%s %s", kind, shown);
		credit(a, hits[i].section, w / (double)(1 << level), why);
		credited++;
	}
	return credited;
}

static int credit_path(struct acc *a, const struct map *map, const char *path,
		       double w, const char *kind)
{
	return credit_path_as(a, map, path, path, w, kind);
}

static bool module_file(const struct evidence *ev, const char *file)
{
	size_t i;

	for (i = 0; i < ev->nmodule_files; i++)
		if (strcmp(ev->module_files[i], file) == 0)
			return true;
	return false;
}

static bool frame_file(const struct evidence *ev, const char *file)
{
	size_t i;

	for (i = 0; i < ev->nframes; i++)
		if (ev->frames[i].file && strcmp(ev->frames[i].file, file) == 0)
			return true;
	return false;
}

/* shallowest - the depth of a section's broadest F: pattern */
static size_t shallowest(const struct map *map, uint32_t sec)
{
	uint32_t i, n = map_nentries(map, sec);
	size_t best = SIZE_MAX;

	for (i = 0; i < n; i++) {
		const char *v = map_entry_value(map, sec, i);
		size_t len = strlen(v), d;

		if (map_entry_tag(map, sec, i) != 'F' || !len)
			continue;
		d = count_char(v, len, '/') + (v[len - 1] != '/');
		if (d < best)
			best = d;
	}
	return best;
}

static size_t title_words(const char *t)
{
	size_t n = 0;
	bool in = false;

	for (; *t; t++) {
		bool sp = *t == ' ' || *t == '\t';

		if (!sp && !in)
			n++;
		in = !sp;
	}
	return n;
}

/* list_matches - L: "linux-xfs@..." or "xfs@..." for prefix "xfs" */
static bool list_matches(const struct map *map, uint32_t sec, const char *p)
{
	uint32_t i, n = map_nentries(map, sec);
	size_t pl = strlen(p);

	for (i = 0; i < n; i++) {
		const char *v = map_entry_value(map, sec, i);

		if (map_entry_tag(map, sec, i) != 'L')
			continue;
		if (starts_with_ci(v, "linux-"))
			v += 6;
		if (strncasecmp(v, p, pl) == 0 && v[pl] == '@')
			return true;
	}
	return false;
}

/* title_matches - "XFS FILESYSTEM" for prefix "xfs" */
static bool title_matches(const char *title, const char *p)
{
	size_t pl = strlen(p);

	return strncasecmp(title, p, pl) == 0 &&
	       (title[pl] == ' ' || title[pl] == '\0');
}

/*
 * credit_prefix - a subject prefix names a subsystem: as a path when it
 * has a "/", else by title or list, preferring the broadest section
 */
static void credit_prefix(struct acc *a, const struct map *map,
			  const char *prefix)
{
	char p[PREFIX_MAX], why[SECTION_WHY_MAX];
	uint32_t s, best = UINT32_MAX;
	size_t best_words = SIZE_MAX, best_depth = SIZE_MAX;
	int pass;

	if (strlen(prefix) >= sizeof(p) || !*prefix)
		return;
	snprintf(p, sizeof(p), "%s", prefix);
	if (strchr(p, '/')) {
		char *q = xasprintf("%s.c", p), *d = xasprintf("%s/x.c", p);

		if (!credit_path(a, map, q, W_PREFIX, "subject prefix") &&
		    !credit_path(a, map, d, W_PREFIX, "subject prefix"))
			credit_path(a, map, p, W_PREFIX, "subject prefix");
		free(q);
		free(d);
		return;
	}
	/*
	 * Titles first; a list match counts 8 words more, so it can only
	 * win over a title of more than 9 words: the lists (every entry of
	 * every section) are read only then.
	 */
	for (pass = 0; pass < 2; pass++) {
		/* titles: only those of p's initial (map_titled()) */
		const uint32_t *run = NULL;
		size_t n = map_nsections(map), k;

		if (pass == 1 && best_words <= 9)
			break;
		if (pass == 0)
			run = map_titled(map, p[0], &n);
		for (k = 0; k < n; k++) {
			const char *title;
			size_t words;

			s = run ? run[k] : (uint32_t)k;
			title = map_title(map, s);

			if (pass == 0) {
				if ((title[0] | 0x20) != (p[0] | 0x20) ||
				    !title_matches(title, p))
					continue;
				words = title_words(title);
			} else {
				if (title_matches(title, p) ||
				    !list_matches(map, s, p))
					continue;
				words = title_words(title) + 8;
			}
			/* Fewest words, then the shallowest F: pattern. */
			if (words < best_words ||
			    (words == best_words &&
			     shallowest(map, s) < best_depth)) {
				best_words = words;
				best_depth = shallowest(map, s);
				best = s;
			}
		}
	}
	if (best != UINT32_MAX) {
		snprintf(why, sizeof(why), "subject prefix \"%s:\"", p);
		credit(a, best, W_PREFIX, why);
	}
}

static int cmp_score(const void *x, const void *y)
{
	const struct section_score *a = x, *b = y;

	if (a->score != b->score)
		return a->score < b->score ? 1 : -1;
	return a->section < b->section ? -1 : a->section > b->section;
}

/*
 * sections_for_report - rank the sections a report belongs to
 *
 * text (may be NULL) is searched for K: keywords.
 */
void sections_for_report(const struct map *map, const struct evidence *ev,
			 const char *text, size_t text_len,
			 struct section_list *out)
{
	struct acc a = { NULL, NULL, 0, 0 };
	double wf = W_FRAME, wt = W_TEXT;
	size_t i;

	if (ev && ev->guilty_file)
		credit_path(&a, map, ev->guilty_file, W_GUILTY, "guilty file");
	for (i = 0; ev && i < ev->nfiles; i++) {
		const char *f = ev->files[i];

		if (ev->guilty_file && strcmp(f, ev->guilty_file) == 0)
			continue;
		if (module_file(ev, f)) {
			/* "fs/xfs/" stands for its directory: look up a file
			 * directly in it */
			char *p = ends_with(f, "/") ? xasprintf("%sx", f)
						    : xstrdup(f);

			credit_path_as(&a, map, p, f, W_MODULE,
				       "driver in the log:");
			free(p);
		} else if (frame_file(ev, f)) {
			/* Generic frames (lib/, mm/kasan/, locking...) say
			 * nothing about the subsystem: syzkaller's rules. */
			if (crashlog_guilty_ignored(f))
				continue;
			credit_path(&a, map, f, wf, "stack frame in");
			wf = wf - W_STEP < W_FRAME_MIN ? W_FRAME_MIN
						       : wf - W_STEP;
		} else {
			/* In a crash report, paths come from the traces around
			 * it (allocation and free stacks): generic ones are
			 * noise there, as they are in frames. */
			if (ev->title && crashlog_guilty_ignored(f))
				continue;
			credit_path(&a, map, f, wt, "path named in text:");
			wt = wt - W_STEP < W_TEXT_MIN ? W_TEXT_MIN
						      : wt - W_STEP;
		}
	}
	if (ev && ev->subject_prefix)
		credit_prefix(&a, map, ev->subject_prefix);
	if (text && text_len) {
		struct map_hit hits[MAP_MAX_HITS];
		size_t n = map_keywords(map, text, text_len, hits,
					ARRAY_SIZE(hits));

		for (i = 0; i < n; i++)
			if (!sections_is_catchall(map, hits[i].section))
				credit(&a, hits[i].section, W_KEYWORD,
				       "K: keyword in the text");
	}
	if (a.n)
		qsort(a.v, a.n, sizeof(*a.v), cmp_score);
	if (a.n > SECTIONS_MAX)
		a.n = SECTIONS_MAX;
	free(a.best);
	out->v = a.v;
	out->n = a.n;
}

void section_list_release(struct section_list *l)
{
	free(l->v);
	l->v = NULL;
	l->n = 0;
}
