// SPDX-License-Identifier: GPL-2.0-only
/*
 * maintainers - parse kernel-format MAINTAINERS files (see maintainers.h)
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "maintainers.h"
#include "util.h"

/* A MAINTAINERS file is under 1 MB today; allow generous growth. */
#define MAINTAINERS_MAX (64u << 20)

void maintainers_init(struct maintainers *m)
{
	memset(m, 0, sizeof(*m));
}

void maintainers_release(struct maintainers *m)
{
	size_t i, j;

	for (i = 0; i < m->nsections; i++) {
		struct mnt_section *s = &m->sections[i];

		for (j = 0; j < s->nentries; j++)
			free(s->entries[j].value);
		free(s->entries);
		free(s->title);
	}
	free(m->sections);
	for (i = 0; i < m->nsources; i++)
		free(m->sources[i]);
	free(m->sources);
	free(m->pending_title);
	maintainers_init(m);
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' ||
	       c == '\v';
}

/* is_tag - get_maintainer.pl's m/^([A-Z]):\s*(.*)/ */
static bool is_tag(const char *line, size_t len)
{
	return len >= 2 && line[0] >= 'A' && line[0] <= 'Z' && line[1] == ':';
}

/* is_ignored - m/^\s*$/ or m/^\s*#/ */
static bool is_ignored(const char *line, size_t len)
{
	size_t i = 0;

	while (i < len && is_space(line[i]))
		i++;
	return i == len || line[i] == '#';
}

static void add_entry(struct maintainers *m, const char *source,
		      const char *line, size_t len, unsigned lineno)
{
	struct mnt_section *s;
	struct mnt_entry *e;
	size_t i = 2;

	if (!m->in_run) {
		ALLOC_GROW(m->sections, m->nsections, m->alloc);
		s = &m->sections[m->nsections++];
		memset(s, 0, sizeof(*s));
		s->source = source;
		if (m->pending_title) {
			s->title = m->pending_title;
			s->line = m->pending_line;
			m->pending_title = NULL;
		} else {
			/* Tags before any title: nothing names them. */
			s->title = xstrdup("");
			s->line = lineno;
		}
		m->in_run = true;
	}
	s = &m->sections[m->nsections - 1];
	while (i < len && is_space(line[i]))
		i++;
	ALLOC_GROW(s->entries, s->nentries, s->alloc);
	e = &s->entries[s->nentries++];
	e->tag = line[0];
	e->value = xmemdup0(line + i, len - i);
	e->line = lineno;
}

/* maintainers_parse - append the sections found in one file's text */
void maintainers_parse(struct maintainers *m, const char *text, size_t len,
		       const char *source)
{
	const char *p = text, *end = text + len;
	unsigned lineno = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		lineno++;
		if (n && p[n - 1] == '\r')
			n--;
		if (is_tag(p, n)) {
			add_entry(m, source, p, n, lineno);
		} else if (!is_ignored(p, n)) {
			m->in_run = false;
			free(m->pending_title);
			m->pending_title = xmemdup0(p, n);
			m->pending_line = lineno;
		}
		p = nl ? nl + 1 : end;
	}
}

static const char *add_source(struct maintainers *m, const char *path)
{
	ALLOC_GROW(m->sources, m->nsources, m->sources_alloc);
	m->sources[m->nsources] = xstrdup(path);
	return m->sources[m->nsources++];
}

static int load_file(struct maintainers *m, const char *path)
{
	char *text;
	size_t len;

	if (read_file(path, MAINTAINERS_MAX, &text, &len) < 0)
		return -1;
	maintainers_parse(m, text, len, add_source(m, path));
	free(text);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* find_files - collect files named MAINTAINERS below dir (skips .git) */
static int find_files(const char *dir, char ***out, size_t *n, size_t *alloc,
		      int depth)
{
	DIR *d;
	struct dirent *de;

	if (depth > 64)
		return error("'%s': directories nested too deeply", dir);
	d = opendir(dir);
	if (!d)
		return error("cannot open directory '%s': %s", dir,
			     strerror(errno));
	while ((de = readdir(d))) {
		struct stat st;
		char *p;

		if (de->d_name[0] == '.')
			continue;
		p = xasprintf("%s/%s", dir, de->d_name);
		if (lstat(p, &st) < 0) {
			free(p);
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			if (find_files(p, out, n, alloc, depth + 1) < 0) {
				free(p);
				closedir(d);
				return -1;
			}
			free(p);
		} else if (S_ISREG(st.st_mode) &&
			   strcmp(de->d_name, "MAINTAINERS") == 0) {
			ALLOC_GROW(*out, *n, *alloc);
			(*out)[(*n)++] = p;
		} else {
			free(p);
		}
	}
	closedir(d);
	return 0;
}

/*
 * maintainers_load - read a MAINTAINERS file, or every file named
 * MAINTAINERS below a directory, in sorted order
 */
int maintainers_load(struct maintainers *m, const char *path)
{
	char **files = NULL;
	size_t n = 0, alloc = 0, i;
	int ret = 0;

	if (!is_dir(path))
		return load_file(m, path);
	if (find_files(path, &files, &n, &alloc, 0) < 0)
		ret = -1;
	else if (n == 0)
		ret = error("no MAINTAINERS files below '%s'", path);
	if (ret == 0)
		qsort(files, n, sizeof(*files), cmp_str);
	for (i = 0; i < n; i++) {
		if (ret == 0 && load_file(m, files[i]) < 0)
			ret = -1;
		free(files[i]);
	}
	free(files);
	return ret;
}

static void copy_entries(struct maintainers *m, struct mnt_section *dst,
			 const struct mnt_section *src)
{
	size_t i;

	(void)m;
	for (i = 0; i < src->nentries; i++) {
		struct mnt_entry *e;

		ALLOC_GROW(dst->entries, dst->nentries, dst->alloc);
		e = &dst->entries[dst->nentries++];
		e->tag = src->entries[i].tag;
		e->value = xstrdup(src->entries[i].value);
		e->line = src->entries[i].line;
	}
}

void maintainers_overlay(struct maintainers *m, const struct maintainers *ov)
{
	size_t i, j;

	for (i = 0; i < ov->nsections; i++) {
		const struct mnt_section *o = &ov->sections[i];
		struct mnt_section *dst = NULL;
		const char *src = add_source(m, o->source ? o->source : "-");

		for (j = 0; j < m->nsections && !dst; j++)
			if (strcmp(m->sections[j].title, o->title) == 0)
				dst = &m->sections[j];
		if (!dst) {
			ALLOC_GROW(m->sections, m->nsections, m->alloc);
			dst = &m->sections[m->nsections++];
			memset(dst, 0, sizeof(*dst));
			dst->title = xstrdup(o->title);
			dst->source = src;
			dst->line = o->line;
		}
		copy_entries(m, dst, o);
	}
	/* The overlay's tags never continue a section of the base. */
	m->in_run = false;
}

/* mnt_section_value - first value of a tag in a section, or NULL */
const char *mnt_section_value(const struct mnt_section *s, char tag)
{
	size_t i;

	for (i = 0; i < s->nentries; i++)
		if (s->entries[i].tag == tag)
			return s->entries[i].value;
	return NULL;
}

size_t maintainers_count_tag(const struct maintainers *m, char tag)
{
	size_t i, j, n = 0;

	for (i = 0; i < m->nsections; i++)
		for (j = 0; j < m->sections[i].nentries; j++)
			n += m->sections[i].entries[j].tag == tag;
	return n;
}
