// SPDX-License-Identifier: GPL-2.0-only
/*
 * sections_tree - the tree a test robot built, as a section's T: (see
 * sections_tree.h)
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "map.h"
#include "sections.h"
#include "sections_tree.h"
#include "util.h"

#define TREE_SHARE_MIN 0.25 /* the least share that names a section */
#define TREES_MAX      2
/* sections of one tree read, at most (media.git is in some 170) */
#define TREE_SECTIONS_MAX 1024

/*
 * tree_norm - a git URL as compared: no scheme, no trailing "/" or
 * ".git", "git.kernel.org/pub/scm/linux/kernel/git/arm64/linux"; false
 * when s[0..len) is no such URL (no host and path)
 */
static bool tree_norm(const char *s, size_t len, char *out, size_t size)
{
	const char *end = s + len, *sep;

	sep = len > 3 ? memmem(s, len < 12 ? len : 12, "://", 3) : NULL;
	if (sep)
		s = sep + 3;
	while (end > s && (end[-1] == '/' || end[-1] == '.' || end[-1] == ','))
		end--;
	if (has_suffix(s, end, ".git"))
		end -= 4;
	while (end > s && end[-1] == '/')
		end--;
	if (end - s < 4 || (size_t)(end - s) >= size ||
	    !memchr(s, '/', (size_t)(end - s)) || *s == '/')
		return false;
	memcpy(out, s, (size_t)(end - s));
	out[end - s] = '\0';
	return true;
}

/* catchall_tree - mainline, linux-next and stable, whoever lists them */
static bool catchall_tree(const char *t)
{
	static const char *const all[] = {
		"/torvalds/linux",	   "/next/linux-next",
		"/stable/linux",	   "/stable/linux-stable",
		"/stable/linux-stable-rc", "/stable/stable-queue",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(all); i++)
		if (ends_with(t, all[i]))
			return true;
	return false;
}

/*
 * tree_line - the URL of a bot's tree line s[0..l) ("tree:", "Kernel
 * repo:", "Git URL:", "URL:", then spaces and the URL), normalised
 * (tree_norm()) into out; false when the line is none
 */
static bool tree_line(const char *s, size_t l, char *out, size_t size)
{
	static const char *const labels[] = { "tree:", "kernel repo:",
					      "git url:", "url:", "git tree:" };
	const char *end = s + l, *u;
	size_t i;

	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	for (i = 0; i < ARRAY_SIZE(labels); i++)
		if (has_prefix_ci(s, end, labels[i]))
			break;
	if (i == ARRAY_SIZE(labels))
		return false;
	s += strlen(labels[i]);
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	for (u = s; u < end && *u != ' ' && *u != '\t' && *u != '\r'; u++)
		;
	return has_prefix_ci(s, u, "git://") ||
			       has_prefix_ci(s, u, "https://") ||
			       has_prefix_ci(s, u, "http://")
		       ? tree_norm(s, (size_t)(u - s), out, size)
		       : false;
}

/* section_has_tree - a T: line of sec ("git URL [branch]") is tree t */
static bool section_has_tree(const struct map *map, uint32_t sec, const char *t)
{
	uint32_t e, ne = map_nentries(map, sec);
	char norm[TREE_URL_MAX];

	for (e = 0; e < ne; e++) {
		const char *v, *u;

		if (map_entry_tag(map, sec, e) != 'T')
			continue;
		v = map_entry_value(map, sec, e);
		if (!starts_with(v, "git "))
			continue;
		v += 4;
		while (*v == ' ' || *v == '\t')
			v++;
		u = v + strcspn(v, " \t");
		if (tree_norm(v, (size_t)(u - v), norm, sizeof(norm)) &&
		    !strcasecmp(norm, t))
			return true;
	}
	return false;
}

/* is_umbrella - whether u strictly holds s (map_umbrellas()) */
static bool is_umbrella(const struct map *map, uint32_t s, uint32_t u)
{
	return map_holds(map, s, u);
}

/* has_code - sec has an F: pattern outside Documentation/ */
static bool has_code(const struct map *map, uint32_t sec)
{
	uint32_t e, ne = map_nentries(map, sec);

	for (e = 0; e < ne; e++)
		if (map_entry_tag(map, sec, e) == 'F' &&
		    *map_entry_value(map, sec, e) &&
		    !starts_with(map_entry_value(map, sec, e),
				 "Documentation/"))
			return true;
	return false;
}

/* tree_sections - the sections whose T: is tree t, each with its share
 * (from *out on, at most max in all); how many it added */
static size_t tree_sections(const struct map *map, const char *t,
			    struct tree_credit *out, size_t max)
{
	uint32_t secs[TREE_SECTIONS_MAX], s, ns = map_nsections(map);
	size_t n = 0, i, j, got = 0;

	for (s = 0; s < ns && n < ARRAY_SIZE(secs); s++)
		if (section_has_tree(map, s, t)) {
			/* a tree of THE REST, or one with no code, is
			 * everyone's */
			if (sections_is_catchall(map, s))
				return 0;
			if (has_code(map, s))
				secs[n++] = s;
		}
	for (i = 0; i < n && got < max; i++) {
		size_t covered = 0;
		double share;

		for (j = 0; j < n; j++)
			if (j == i || is_umbrella(map, secs[j], secs[i]))
				covered++;
		share = (double)covered / (double)n;
		if (share + 1e-9 < TREE_SHARE_MIN)
			continue;
		out[got].section = secs[i];
		out[got].share = share;
		snprintf(out[got].tree, sizeof(out[got].tree), "%s", t);
		got++;
	}
	return got;
}

/* sections_trees - the trees the text's lines name (tree_line()), each
 * once, at most TREES_MAX (see sections_tree.h) */
size_t sections_trees(const struct map *map, const char *text, size_t len,
		      struct tree_credit *out, size_t max)
{
	char seen[TREES_MAX][TREE_URL_MAX];
	const char *p = text, *end = text + len;
	size_t nseen = 0, k, n = 0;

	while (text && p < end && nseen < TREES_MAX && n < max) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char t[TREE_URL_MAX];

		if (tree_line(p, l, t, sizeof(t)) && !catchall_tree(t)) {
			for (k = 0; k < nseen && strcasecmp(seen[k], t); k++)
				;
			if (k == nseen) {
				snprintf(seen[nseen++], TREE_URL_MAX, "%s", t);
				n += tree_sections(map, t, out + n, max - n);
			}
		}
		p = nl ? nl + 1 : end;
	}
	return n;
}
