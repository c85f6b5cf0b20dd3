// SPDX-License-Identifier: GPL-2.0-only
/*
 * sections - the map stage for a report (see sections.h)
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bzcomponent.h"
#include "crashlog.h"
#include "evidence.h"
#include "map.h"
#include "prefixes.h"
#include "printk.h"
#include "sections.h"
#include "sections_tree.h"
#include "util.h"

#define W_GUILTY    1.5
#define W_FRAME	    0.5
#define W_FRAME_MIN 0.2
#define W_MODULE    0.45
/* a log naming more drivers than this is a boot log: they share
 * MODULE_SPREAD times W_MODULE */
#define MODULE_SPREAD 4
#define W_TEXT	      0.4
#define W_TEXT_MIN    0.15
#define W_STEP	      0.05
#define W_PREFIX      0.6
#define PREFIX_TIES   4 /* sections sharing a prefix's weight, at most */
/* sections of one list name a prefix is weighed against, at most (the
 * most, linux-kernel@, is in some 300 of Linux's) */
#define LIST_SECTIONS_MAX 1024
#define W_CULPRIT	  0.5
#define W_SYZ_FS	  0.4
#define W_KEYWORD	  0.15
/* a driver the subject names ("rtw89: ..."): as strong as a prefix */
#define W_NAMED_SUBJECT 0.6
/* one the prose names, a function it names ("ucsi_acpi", "foo()",
 * "ext4_find_extent:936:"): all of them at most W_TEXT a section */
#define W_NAMED_TEXT 0.3
#define W_FUNC_TEXT  0.3
/* the Bugzilla component the bug was filed under: broad, like a list */
#define W_COMPONENT 0.5
/* To/Cc: an address's weight, times the share its section covers */
#define W_ADDR_LIST	0.4
#define W_ADDR_PERSON	0.5
#define W_ADDR_REVIEWER 0.3
#define W_ADDR_CC	0.75 /* in Cc rather than To */
/*
 * a kernel log line the text carries matches a format of the index
 * (printk.h): the files that print it share the weight; all lines give
 * a section at most W_LOG_POOL.  Weak: the file that printed a line is
 * often not where the fault is (a RAID error under a failing NVMe
 * disk, the USB core's line about an xHCI controller); at 0.45 it cost
 * tuning reports as many top-1 answers as it won, at 0.2 it only breaks
 * ties and names a section when nothing else does.
 */
#define W_LOG	   0.2
#define W_LOG_POOL 0.4
/* an info line (pr_info(), dev_notice() ...): what ran, not what broke */
#define W_LOG_INFO (W_LOG / 3)
/* printk() without a KERN_* level */
#define W_LOG_UNKNOWN (W_LOG / 2)
/* the least evidence of its own that lets a section inherit */
#define W_NESTED_MIN 0.25
/* a toolchain's list or people, when only a build line names it */
#define W_TOOLCHAIN 0.25
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

/* the strongest contributions each section keeps for its "why" */
#define WHY_PARTS 3

struct part {
	double w;
	char text[SECTION_WHY_MAX];
};

/*
 * Pools: a kind of evidence that counts once per section however often
 * it comes (ten paths of one driver named in a syzbot report, five
 * netdev maintainers in Cc): a section takes at most the pool's cap.
 */
enum pool {
	POOL_NONE = -1,
	POOL_TEXT,   /* paths named in the text */
	POOL_LIST,   /* lists in To/Cc */
	POOL_PERSON, /* people in To/Cc */
	POOL_NAMED,  /* drivers and functions the prose names */
	POOL_FRAMES, /* stack frames: many callers in one framework (net/core,
		      * fs/) say once that the path went through it, and not
		      * more than the guilty file says where it broke */
	POOL_LOG,    /* log lines that match a format of the source */
	POOL_N,
};

struct acc {
	struct section_score *v;
	struct part (*parts)[WHY_PARTS]; /* strongest first */
	double *broad;			 /* what a section inside may inherit */
	double *specific;	/* path, driver and function evidence */
	double (*pool)[POOL_N]; /* what each pool gave */
	size_t n, alloc;
};

/* find_or_add - the accumulator slot of a section */
static size_t find_or_add(struct acc *a, uint32_t section)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		if (a->v[i].section == section)
			return i;
	if (a->n == a->alloc) {
		a->alloc = a->alloc ? a->alloc * 2 : 16;
		a->v = xreallocarray(a->v, a->alloc, sizeof(*a->v));
		a->parts = xreallocarray(a->parts, a->alloc, sizeof(*a->parts));
		a->broad = xreallocarray(a->broad, a->alloc, sizeof(*a->broad));
		a->specific = xreallocarray(a->specific, a->alloc,
					    sizeof(*a->specific));
		a->pool = xreallocarray(a->pool, a->alloc, sizeof(*a->pool));
	}
	memset(&a->pool[i], 0, sizeof(a->pool[i]));
	memset(&a->v[i], 0, sizeof(a->v[i]));
	memset(&a->parts[i], 0, sizeof(a->parts[i]));
	a->v[i].section = section;
	a->broad[i] = a->specific[i] = 0;
	a->n++;
	return i;
}

/* note - keep a contribution among a section's strongest */
static void note(struct acc *a, size_t i, double w, const char *why)
{
	struct part *p = a->parts[i];
	size_t k, j;

	for (k = 0; k < WHY_PARTS; k++)
		if (!strcmp(p[k].text, why) && p[k].w > 0) {
			/* the same source again (frames of one file) */
			p[k].w += w;
			for (; k > 0 && p[k].w > p[k - 1].w; k--) {
				struct part t = p[k];

				p[k] = p[k - 1];
				p[k - 1] = t;
			}
			return;
		}
	for (k = 0; k < WHY_PARTS && p[k].w >= w; k++)
		;
	if (k == WHY_PARTS)
		return;
	for (j = WHY_PARTS - 1; j > k; j--)
		p[j] = p[j - 1];
	p[k].w = w;
	snprintf(p[k].text, sizeof(p[k].text), "%s", why);
}

enum credit_kind {
	C_SPECIFIC, /* a path, a driver, a function: where the fault is */
	C_BROAD,    /* a list, a person, a component, a subject prefix */
	C_KEYWORD,  /* a K: keyword: never decides alone */
};

static const double pool_cap[POOL_N] = {
	[POOL_TEXT] = W_TEXT,	       [POOL_LIST] = W_ADDR_LIST,
	[POOL_PERSON] = W_ADDR_PERSON, [POOL_NAMED] = W_TEXT,
	[POOL_FRAMES] = W_GUILTY / 2,  [POOL_LOG] = W_LOG_POOL,
};

static void credit_pool(struct acc *a, uint32_t section, double w,
			const char *why, enum credit_kind kind, enum pool pool)
{
	size_t i = find_or_add(a, section);

	if (pool != POOL_NONE) {
		double room = pool_cap[pool] - a->pool[i][pool];

		if (w > room)
			w = room;
		if (w <= 1e-9)
			return;
		a->pool[i][pool] += w;
	}
	a->v[i].score += w;
	if (kind == C_BROAD)
		a->broad[i] += w;
	else if (kind == C_SPECIFIC)
		a->specific[i] += w;
	note(a, i, w, why);
}

static void credit_as(struct acc *a, uint32_t section, double w,
		      const char *why, enum credit_kind kind)
{
	credit_pool(a, section, w, why, kind, POOL_NONE);
}

/* is_umbrella - whether u strictly holds s (map_umbrellas()) */
static bool is_umbrella(const struct map *map, uint32_t s, uint32_t u)
{
	return map_holds(map, s, u);
}

/*
 * credit_path_as - map one path; the most specific sections get w, each
 * broader level half of the one before; "why" names shown.  Specific
 * first: a section strictly inside another that owns the path comes
 * before it whatever the depth get_maintainer.pl gives (a section with
 * an N: line takes that line's depth 0: "QUALCOMM ATH12K" under
 * "NETWORKING DRIVERS (WIRELESS)"), then the deeper pattern.
 */
static int credit_path_as(struct acc *a, const struct map *map,
			  const char *path, const char *shown, double w,
			  const char *kind, enum pool pool)
{
	struct map_hit hits[MAP_MAX_HITS];
	size_t n = map_lookup(map, path, hits, ARRAY_SIZE(hits)), i, j, m = 0;
	int level = 0, credited = 0;
	unsigned inside[MAP_MAX_HITS];
	char why[SECTION_WHY_MAX];

	for (i = 0; i < n; i++)
		if (!sections_is_catchall(map, hits[i].section))
			hits[m++] = hits[i];
	n = m;
	/* how many of the path's sections lie inside each */
	for (i = 0; i < n; i++) {
		inside[i] = 0;
		for (j = 0; j < n; j++)
			if (j != i &&
			    is_umbrella(map, hits[j].section, hits[i].section))
				inside[i]++;
	}
	/* stable insertion by (inside, -depth): the handful of a path */
	for (i = 1; i < n; i++) {
		struct map_hit h = hits[i];
		unsigned in = inside[i];

		for (j = i; j > 0 && (inside[j - 1] > in ||
				      (inside[j - 1] == in &&
				       hits[j - 1].depth < h.depth));
		     j--) {
			hits[j] = hits[j - 1];
			inside[j] = inside[j - 1];
		}
		hits[j] = h;
		inside[j] = in;
	}
	for (i = 0; i < n; i++) {
		if (i > 0 &&
		    (hits[i].depth != hits[i - 1].depth ||
		     inside[i] != inside[i - 1]) &&
		    level < 30)
			level++;
		snprintf(why, sizeof(why), "%s %s", kind, shown);
		credit_pool(a, hits[i].section, w / (double)(1 << level), why,
			    C_SPECIFIC, pool);
		credited++;
	}
	return credited;
}

static int credit_path(struct acc *a, const struct map *map, const char *path,
		       double w, const char *kind)
{
	return credit_path_as(a, map, path, path, w, kind, POOL_NONE);
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

/*
 * credit_file_named - a name no title or list has, but the directory or
 * file of a driver does ("net: wireless: ralink: RT2X00:", "ath6kl:"):
 * the sections with the shallowest such F: pattern share the weight;
 * with prefixed, when none ends in it, the files named after it
 * ("igen6" for igen6_edac.c: map_file_prefixed()); a name more than
 * PREFIX_TIES sections share names none
 */
static bool credit_file_named(struct acc *a, const struct map *map,
			      const char *name, bool prefixed, double weight,
			      const char *why)
{
	uint32_t best[PREFIX_TIES];
	size_t nbest, total, k;

	if (strlen(name) < 3)
		return false;
	nbest = map_file_named(map, name, best, ARRAY_SIZE(best), &total);
	if (!nbest && prefixed)
		nbest = map_file_prefixed(map, name, best, ARRAY_SIZE(best),
					  &total);
	if (!nbest || total > PREFIX_TIES)
		return false;
	for (k = 0; k < nbest; k++)
		credit_as(a, best[k], weight / (double)nbest, why, C_SPECIFIC);
	return true;
}

/* title_matches - "XFS FILESYSTEM" for prefix "xfs", "8250/16?50 (AND
 * CLONE UARTS) SERIAL DRIVER" for "8250" */
static bool title_matches(const char *title, const char *p)
{
	size_t pl = strlen(p);

	return strncasecmp(title, p, pl) == 0 &&
	       (title[pl] == ' ' || title[pl] == '/' || title[pl] == '\0');
}

/* word_in - name is a whole word of s (any case; words end at what is
 * not a letter or a digit): "ROCKCHIP" of "ARM/Rockchip SoC support" */
static bool word_in(const char *s, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	if (!n)
		return false;
	for (p = s; *p; p++)
		if ((p == s || !isalnum((unsigned char)p[-1])) &&
		    !strncasecmp(p, name, n) && !isalnum((unsigned char)p[n]))
			return true;
	return false;
}

/* pattern_named - a component of F: pattern v is name, a file's without
 * its ".c"/".h" ("drivers/gpu/drm/nouveau/" for "nouveau") */
static bool pattern_named(const char *v, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = v; *p; p = *p ? p + 1 : p) {
		if (!strncasecmp(p, name, n) &&
		    (p[n] == '/' || p[n] == '\0' ||
		     ((p[n] == '.') && (p[n + 1] == 'c' || p[n + 1] == 'h') &&
		      !p[n + 2])))
			return true;
		p += strcspn(p, "/");
	}
	return false;
}

/*
 * list_home - name (a list's, as a subject prefix names it) is sec's
 * own: a word of its title or a directory or file of its F: ("nouveau"
 * is DRM DRIVER FOR NVIDIA GEFORCE/QUADRO GPUS', drivers/gpu/drm/
 * nouveau/; MMIOTRACE only Cc's nouveau@)
 */
static bool list_home(const struct map *map, uint32_t sec, const char *name)
{
	uint32_t e, ne = map_nentries(map, sec);

	if (strlen(name) < 3)
		return false;
	if (word_in(map_title(map, sec), name))
		return true;
	for (e = 0; e < ne; e++)
		if (map_entry_tag(map, sec, e) == 'F' &&
		    pattern_named(map_entry_value(map, sec, e), name))
			return true;
	return false;
}

/*
 * breadth - how much of the tree a section's broadest code pattern
 * (F: outside Documentation/) holds, smaller is broader:
 * get_maintainer.pl's depth d as 2d, a directory 2d - 1 (broader than a
 * file as deep: "fs/overlayfs/" before "fs/backing-file.c"); SIZE_MAX
 * when it has none
 */
static size_t breadth(const struct map *map, uint32_t sec)
{
	uint32_t i, n = map_nentries(map, sec);
	size_t best = SIZE_MAX;

	for (i = 0; i < n; i++) {
		const char *v = map_entry_value(map, sec, i);
		size_t len = strlen(v), d;

		if (map_entry_tag(map, sec, i) != 'F' || !len ||
		    starts_with(v, "Documentation/"))
			continue;
		d = count_char(v, len, '/') + (v[len - 1] != '/');
		d = 2 * d - (v[len - 1] == '/');
		if (d < best)
			best = d;
	}
	return best;
}

/*
 * code_depth - the depth of a section's broadest F: pattern outside
 * Documentation/ (shallowest() when it has none): how much of the tree
 * a section a prefix may name holds; breadth()'s order, a directory and
 * a file as deep the same
 */
static size_t code_depth(const struct map *map, uint32_t sec)
{
	size_t b = breadth(map, sec);

	return b == SIZE_MAX ? shallowest(map, sec) : (b + 1) / 2;
}

/* path_depth - the depth of the deepest pattern of a section (not THE
 * REST) that owns path; -1 when none does */
static int path_depth(const struct map *map, const char *path)
{
	struct map_hit hits[MAP_MAX_HITS];
	size_t n = map_lookup(map, path, hits, ARRAY_SIZE(hits)), i;
	int best = -1;

	for (i = 0; i < n; i++)
		if (!sections_is_catchall(map, hits[i].section) &&
		    hits[i].depth > best)
			best = hits[i].depth;
	return best;
}

static bool credit_prefix(struct acc *a, const struct map *map,
			  const char *prefix, double weight, const char *label);

/*
 * pattern_parts_depth - the depth of F: pattern v when its last name is
 * the last of parts (a directory, a .c/.h file, or a directory's "*")
 * and at least one other part comes before it, in order, as a whole
 * component ("arch/x86/kernel/cpu/mce/" and its "*" for "x86", "mce";
 * "drivers/net/ethernet/microsoft/mana/" for "net", "mana"); -1 when
 * not
 */
static int pattern_parts_depth(const char *v, const char *const *parts,
			       size_t nparts)
{
	char buf[256], *comp[32], *q;
	size_t len = strlen(v), n = 0, k, j, from, matched = 0;

	if (nparts < 2 || len >= sizeof(buf) ||
	    starts_with(v, "Documentation/"))
		return -1;
	memcpy(buf, v, len + 1);
	if (len >= 2 && !strcmp(buf + len - 2, "/*"))
		buf[len -= 2] = '\0';
	while (len && buf[len - 1] == '/')
		buf[--len] = '\0';
	if (len > 2 && buf[len - 2] == '.' &&
	    (buf[len - 1] == 'c' || buf[len - 1] == 'h'))
		buf[len -= 2] = '\0';
	if (strpbrk(buf, "*?[]\\"))
		return -1;
	for (q = buf; q && n < ARRAY_SIZE(comp);) {
		comp[n++] = q;
		q = strchr(q, '/');
		if (q)
			*q++ = '\0';
	}
	if (!n || strcasecmp(comp[n - 1], parts[nparts - 1]))
		return -1;
	/* the earlier parts in order; one a tree has no directory for
	 * ("wifi", "ASoC") is passed over */
	for (j = 0, from = 0; j + 1 < nparts; j++)
		for (k = from; k + 1 < n; k++)
			if (!strcasecmp(comp[k], parts[j])) {
				matched++;
				from = k + 1;
				break;
			}
	return matched ? (int)n : -1;
}

/*
 * credit_parts_in_tree - names that are no path of the tree but name a
 * directory or file deeper in it, its last name with one before it:
 * the prefix "x86/mce" is arch/x86/kernel/cpu/mce/, "drm/i915"
 * drivers/gpu/drm/i915/, the chain "net: mana" the driver of
 * drivers/net/ethernet/microsoft/mana/ (not the RDMA driver of
 * drivers/infiniband/hw/mana/).  The sections with the shallowest such
 * F: pattern share the weight; more than PREFIX_TIES of them name none.
 */
static bool credit_parts_in_tree(struct acc *a, const struct map *map,
				 const char *const *parts, size_t nparts,
				 double weight, const char *why)
{
	uint32_t best[PREFIX_TIES], s, e, ns = map_nsections(map);
	size_t nbest = 0, ntied = 0, k;
	int depth = INT_MAX, d;

	if (nparts < 2 || strlen(parts[nparts - 1]) < 3)
		return false;
	for (s = 0; s < ns; s++) {
		uint32_t ne = map_nentries(map, s);

		for (e = 0, d = -1; e < ne && d < 0; e++)
			if (map_entry_tag(map, s, e) == 'F')
				d = pattern_parts_depth(
					map_entry_value(map, s, e), parts,
					nparts);
		if (d < 0 || d > depth || sections_is_catchall(map, s))
			continue;
		if (d < depth) {
			depth = d;
			nbest = ntied = 0;
		}
		ntied++;
		if (nbest < PREFIX_TIES)
			best[nbest++] = s;
	}
	if (!nbest || ntied > PREFIX_TIES)
		return false;
	for (k = 0; k < nbest; k++)
		credit_as(a, best[k], weight / (double)nbest, why, C_SPECIFIC);
	return true;
}

/* split - s cut at each sep into at most max parts (in place) */
static size_t split(char *s, const char *sep, const char **parts, size_t max)
{
	size_t n = 0, l = strlen(sep);
	char *q;

	while (s && *s && n < max) {
		parts[n++] = s;
		q = strstr(s, sep);
		if (q) {
			*q = '\0';
			q += l;
		}
		s = q;
	}
	return n;
}

/*
 * credit_path_prefix - a prefix with a "/": the file ("mm/slub" is
 * mm/slub.c), the directory ("net/can" is net/can/) or the path itself,
 * whichever a deeper pattern owns.  When no pattern covers all of it
 * ("x86/mce", "drm/i915" are no paths; "net/mlx5" only reaches net/),
 * a pattern deeper in the tree with those names (credit_parts_in_tree())
 * or else its parts name the subsystem as a chain's components do, the
 * most specific first; the path's own sections are the last resort.
 */
static bool credit_path_prefix(struct acc *a, const struct map *map,
			       const char *p, double weight, const char *label)
{
	/* shown as written ("net/mana:"), not as the path tried */
	char *forms[3], *shown = xasprintf("\"%s:\"", p);
	char parts[PREFIX_MAX], *slash;
	int best = -1, depth = -1, d, k;
	size_t ncomp = count_char(p, strlen(p), '/') + 1;
	bool ok = false;

	/* the directory first: at equal depth its own pattern ("lib/crypto/"
	 * of CRYPTO API) says more than a glob ("lib/" and a "*") that happens to
	 * take a file of that name */
	forms[0] = xasprintf("%s/x.c", p);
	forms[1] = xasprintf("%s.c", p);
	forms[2] = xstrdup(p);
	for (k = 0; k < 3; k++) {
		d = path_depth(map, forms[k]);
		if (d > depth) {
			depth = d;
			best = k;
		}
	}
	if (best >= 0 && (size_t)depth >= ncomp)
		ok = credit_path_as(a, map, forms[best], shown, weight, label,
				    POOL_NONE);
	if (!ok) {
		const char *names[PREFIX_CHAIN_MAX];
		char why[SECTION_WHY_MAX];
		size_t n;

		snprintf(parts, sizeof(parts), "%s", p);
		n = split(parts, "/", names, ARRAY_SIZE(names));
		snprintf(why, sizeof(why), "%s %s", label, shown);
		ok = credit_parts_in_tree(a, map, names, n, weight, why);
	}
	snprintf(parts, sizeof(parts), "%s", p);
	while (!ok && (slash = strrchr(parts, '/'))) {
		ok = slash[1] &&
		     credit_prefix(a, map, slash + 1, weight, label);
		*slash = '\0';
		if (!ok && !strchr(parts, '/') && *parts && best < 0)
			ok = credit_prefix(a, map, parts, weight, label);
	}
	if (!ok && best >= 0)
		ok = credit_path_as(a, map, forms[best], shown, weight, label,
				    POOL_NONE);
	for (k = 0; k < 3; k++)
		free(forms[k]);
	free(shown);
	return ok;
}

/*
 * credit_prefix - a subject prefix names a subsystem: as a path when it
 * has a "/" (credit_path_prefix()), else by title or list, preferring
 * the broadest section: the shallowest code, then the fewest words in
 * the title ("iio" is IIO SUBSYSTEM AND DRIVERS, drivers/iio/, not IIO
 * MULTIPLEXER); a directory named so that is broader than any such
 * section wins ("ata" is drivers/ata/, LIBATA, not ATA OVER ETHERNET);
 * a name more than PREFIX_TIES sections answer to equally (a vendor:
 * "qcom") names none, nor does a section with no F: line ("next:" is
 * linux-next@'s, a tree and not a subsystem)
 */
static bool credit_prefix(struct acc *a, const struct map *map,
			  const char *prefix, double weight, const char *label)
{
	char p[PREFIX_MAX], why[SECTION_WHY_MAX];
	uint32_t s, best[PREFIX_TIES], lists[LIST_SECTIONS_MAX];
	size_t best_words = SIZE_MAX, best_depth = SIZE_MAX, nbest = 0, k;
	size_t ntied = 0, homes;
	bool list_best = false;
	int pass;

	if (strlen(prefix) >= sizeof(p) || !*prefix)
		return false;
	snprintf(p, sizeof(p), "%s", prefix);
	if (strchr(p, '/'))
		return credit_path_prefix(a, map, p, weight, label);
	/*
	 * Titles first; a list match counts 8 words more, so it can only
	 * win over a title of more than 9 words: the lists are read only
	 * then (the sections of a list name: map_list_named()).
	 */
	for (pass = 0; pass < 2; pass++) {
		/* titles: only those of p's initial (map_titled()) */
		const uint32_t *run;
		size_t n, depth, total;

		if (pass == 1 && best_words <= 9)
			break;
		if (pass == 0) {
			run = map_titled(map, p[0], &n);
		} else {
			n = map_list_named(map, p, lists, ARRAY_SIZE(lists),
					   &total);
			run = lists;
			/* the list's own sections (list_home()), when it
			 * has some: "nouveau:" is the NVIDIA driver's, not
			 * MMIOTRACE's, which only Cc's the list */
			for (k = 0, homes = 0; k < n; k++)
				if (list_home(map, lists[k], p))
					lists[homes++] = lists[k];
			if (homes)
				n = homes;
		}
		for (k = 0; k < n; k++) {
			const char *title;
			size_t words;

			s = run[k];
			title = map_title(map, s);
			/* a section without files (LINUX-NEXT TREE for
			 * "next:") is a process, no subsystem */
			if (shallowest(map, s) == SIZE_MAX)
				continue;

			if (pass == 0) {
				if ((title[0] | 0x20) != (p[0] | 0x20) ||
				    !title_matches(title, p))
					continue;
				words = title_words(title);
				/* the broadest code first, then the
				 * fewest words; sections equal in both
				 * share the weight ("Bluetooth:" is
				 * BLUETOOTH SUBSYSTEM's prefix as much as
				 * BLUETOOTH DRIVERS') */
				depth = code_depth(map, s);
				if (depth < best_depth ||
				    (depth == best_depth &&
				     words < best_words)) {
					best_words = words;
					best_depth = depth;
					nbest = ntied = 0;
				} else if (depth != best_depth ||
					   words != best_words) {
					continue;
				}
				ntied++;
				if (nbest < PREFIX_TIES)
					best[nbest++] = s;
				continue;
			}
			if (title_matches(title, p))
				continue;
			words = title_words(title) + 8;
			/*
			 * Fewest words, then the shallowest F: pattern
			 */
			depth = shallowest(map, s);
			/* a list's sections: the broadest first ("kbuild:"
			 * is KERNEL BUILD's Makefile before KCONFIG's
			 * scripts/kconfig/, though that title is shorter) */
			if (list_best && depth != best_depth) {
				if (depth > best_depth)
					continue;
				best_words = SIZE_MAX;
			}
			if (words < best_words ||
			    (words == best_words && depth < best_depth)) {
				list_best = true;
				best_words = words;
				best_depth = depth;
				nbest = ntied = 0;
			} else if (words != best_words || depth != best_depth) {
				continue;
			}
			ntied++;
			if (nbest < PREFIX_TIES)
				best[nbest++] = s;
		}
	}
	snprintf(why, sizeof(why), "%s \"%s:\"", label, p);
	if (ntied > PREFIX_TIES)
		nbest = 0;
	if (nbest && !list_best) {
		/* a directory of that name holding more of the tree */
		uint32_t dir[PREFIX_TIES];
		size_t nd, tied;

		nd = strlen(p) >= 3 ? map_file_named(map, p, dir,
						     ARRAY_SIZE(dir), &tied)
				    : 0;
		if (nd && tied <= PREFIX_TIES &&
		    code_depth(map, dir[0]) < best_depth)
			nbest = 0;
	}
	if (!nbest)
		return credit_file_named(a, map, p, false, weight, why);
	for (k = 0; k < nbest; k++)
		credit_as(a, best[k], weight / (double)nbest, why, C_BROAD);
	return true;
}

/*
 * driver_in_subject - name is a driver the subject names that the
 * symbol index places in a file ("hid-sensor-hub"): credit_names()
 * gives that file the subject's weight
 */
static bool driver_in_subject(const struct evidence *ev, const char *name)
{
	size_t i;

	for (i = 0; ev && ev->named_files && i < ev->nnamed_subject; i++)
		if (ev->named_files[i] && !strcasecmp(ev->named[i], name) &&
		    !crashlog_guilty_ignored(ev->named_files[i]))
			return true;
	return false;
}

/*
 * credit_chain - a prefix chain ("wifi: mac80211") from its most
 * specific end: the first component that names a section gets the
 * weight (MAC80211, not NETWORKING DRIVERS (WIRELESS)); first, when
 * given, stands for the chain's first component.  A component that is
 * a driver of the subject (ev: driver_in_subject()) ends the walk: its
 * file speaks for the chain ("IIO: hid-sensor-hub: ..." is the HID
 * sensor hub's, not IIO's, whichever way the reporter filed it).
 */
static void credit_chain(struct acc *a, const struct map *map,
			 const struct evidence *ev, const char *chain,
			 const char *first, double weight, const char *label)
{
	const char *comp[PREFIX_CHAIN_MAX];
	size_t n, k;
	char *copy = chain ? xstrdup(chain) : NULL;
	char why[SECTION_WHY_MAX];

	n = split(copy, ": ", comp, ARRAY_SIZE(comp));
	for (k = n; k-- > 1;) {
		/* "net: mana" is drivers/net/.../mana/ before a "mana"
		 * elsewhere; a component with a "/" is a path of its own */
		snprintf(why, sizeof(why), "%s \"%s:\"", label, comp[k]);
		if (!strchr(comp[k], '/') &&
		    credit_parts_in_tree(a, map, comp, k + 1, weight, why))
			goto out;
		if (credit_prefix(a, map, comp[k], weight, label))
			goto out;
		if (driver_in_subject(ev, comp[k]))
			goto out;
	}
	if (first || n)
		credit_prefix(a, map, first ? first : comp[0], weight, label);
out:
	free(copy);
}

/* held_by_own - another section of the same address holds hit k's */
static bool held_by_own(const struct map *map, const struct map_addr_hit *hits,
			size_t n, size_t k)
{
	size_t j;

	for (j = 0; j < n; j++)
		if (j != k &&
		    is_umbrella(map, hits[k].section, hits[j].section))
			return true;
	return false;
}

/*
 * credit_addresses - the lists and people the report was sent to: each
 * section naming one gets the address's weight times its share (the
 * part of the address's sections it covers, map_address())
 */
/* listed_as - an L: value ("a@b (moderated ...)") is address addr */
static bool listed_as(const char *v, const char *addr)
{
	size_t n = strlen(addr);

	return !strncasecmp(v, addr, n) && (v[n] == '\0' || v[n] == ' ');
}

/*
 * list_stem - the name of a list without its kind's suffix
 * ("uvc-devel" -> "uvc", "v9fs-developer" -> "v9fs"): true when one was
 * cut
 */
static bool list_stem(char *name)
{
	static const char *const suffix[] = {
		"-devel",   "-developers", "-developer", "-dev",
		"-discuss", "-users",	   "-general",
	};
	size_t n = strlen(name), k;

	for (k = 0; k < ARRAY_SIZE(suffix); k++) {
		size_t l = strlen(suffix[k]);

		if (n >= l + 3 && !strcasecmp(name + n - l, suffix[k])) {
			name[n - l] = '\0';
			return true;
		}
	}
	return false;
}

/*
 * credit_list_named - an address MAINTAINERS does not have, whose local
 * part is a list's or a patchwork project's name: the list moved
 * (alsa-devel@alsa-project.org is SOUND's Q: project; its L: is now
 * linux-sound@; v9fs-developer@ is v9fs@).  Its broadest sections share
 * the weight; a name more than PREFIX_TIES such sections share names
 * none, and a person's address ("jane@") names no list.  A list's
 * address ("linux-" first or a "-devel" kind last) that no list is
 * named like may be named after its driver's directory instead
 * (linux-uvc-devel@ is drivers/media/usb/uvc/'s: credit_file_named()).
 */
static void credit_list_named(struct acc *a, const struct map *map,
			      const char *addr, double w, const char *why)
{
	uint32_t secs[LIST_SECTIONS_MAX], best[PREFIX_TIES];
	const char *at = strchr(addr, '@'), *p = addr;
	size_t n, total, k, nbest = 0, depth, best_depth = SIZE_MAX;
	char name[PREFIX_MAX];
	bool linux_list = false, stem = false;

	if (!strncasecmp(p, "linux-", 6)) {
		p += 6;
		linux_list = true;
	}
	if (!at || at - p < 3 || (size_t)(at - p) >= sizeof(name))
		return;
	memcpy(name, p, (size_t)(at - p));
	name[at - p] = '\0';
	n = map_list_named(map, name, secs, ARRAY_SIZE(secs), &total);
	if (!n && !total && (stem = list_stem(name)))
		n = map_list_named(map, name, secs, ARRAY_SIZE(secs), &total);
	if (!n && !total && (linux_list || stem)) {
		char dwhy[SECTION_WHY_MAX];

		snprintf(dwhy, sizeof(dwhy), "%.160s, after directory %.40s",
			 why, name);
		credit_file_named(a, map, name, false, w, dwhy);
		return;
	}
	if (!n || total > n)
		return;
	for (k = 0; k < n; k++) {
		uint32_t e, ne = map_nentries(map, secs[k]);

		/* the address itself is there: the address index left
		 * it out on purpose (a section without code: linux-next) */
		for (e = 0; e < ne; e++)
			if (map_entry_tag(map, secs[k], e) == 'L' &&
			    listed_as(map_entry_value(map, secs[k], e), addr))
				return;
	}
	for (k = 0; k < n; k++) {
		depth = shallowest(map, secs[k]);
		if (depth < best_depth) {
			best_depth = depth;
			nbest = 0;
		} else if (depth != best_depth) {
			continue;
		}
		if (nbest < ARRAY_SIZE(best))
			best[nbest++] = secs[k];
		else
			return;
	}
	for (k = 0; k < nbest; k++)
		credit_pool(a, best[k], w / (double)nbest, why, C_BROAD,
			    POOL_LIST);
}

/* in_set - whether sec is one of set[0..n) */
static bool in_set(const uint32_t *set, size_t n, uint32_t sec)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (set[i] == sec)
			return true;
	return false;
}

/*
 * credit_addresses (the lists and people, above): toolchain[0..ntool) are the sections of the
 * compiler a build line names and the prose does not (toolchain_of()):
 * a test robot Cc's the compiler's list on every build it made with it,
 * so that list and its people say how the kernel was built, not what
 * broke, and count W_TOOLCHAIN of their weight
 */
static void credit_addresses(struct acc *a, const struct map *map,
			     const struct evidence *ev, bool bz,
			     const uint32_t *toolchain, size_t ntool)
{
	struct map_addr_hit hits[MAP_ADDR_SECTIONS_MAX];
	char why[SECTION_WHY_MAX];
	size_t i, k, n;

	for (i = 0; i < ev->nrecipients; i++) {
		bool to = i < ev->nrecipients_to;

		bool tool_list = false;

		n = map_address(map, ev->recipients[i], hits, ARRAY_SIZE(hits));
		for (k = 0; k < n; k++)
			if (hits[k].tag == 'L' &&
			    in_set(toolchain, ntool, hits[k].section))
				tool_list = true;
		if (!n && !bz) {
			snprintf(why, sizeof(why),
				 "list or patchwork project named %s in %s",
				 ev->recipients[i], to ? "To" : "Cc");
			credit_list_named(a, map, ev->recipients[i],
					  W_ADDR_LIST * (to ? 1 : W_ADDR_CC),
					  why);
		}
		for (k = 0; k < n; k++) {
			bool list = hits[k].tag == 'L';
			double w;

			/* Bugzilla mails the list its component forwards to:
			 * the component, credited once (W_COMPONENT) */
			if (list && bz)
				continue;
			w = list		 ? W_ADDR_LIST
			    : hits[k].tag == 'R' ? W_ADDR_REVIEWER
						 : W_ADDR_PERSON;

			if (!to)
				w *= W_ADDR_CC;
			/* syzbot mails the people of its own guess */
			if (ev->syzbot && ev->guilty_file)
				w *= 0.5;
			snprintf(why, sizeof(why), "%c: %s in %s", hits[k].tag,
				 ev->recipients[i], to ? "To" : "Cc");
			if (tool_list ||
			    in_set(toolchain, ntool, hits[k].section)) {
				w *= W_TOOLCHAIN;
				snprintf(why, sizeof(why),
					 "%c: %s in %s (the build's compiler)",
					 hits[k].tag, ev->recipients[i],
					 to ? "To" : "Cc");
			}
			/* a list, and the person of a whole subsystem,
			 * are the subsystem's: a section inside inherits
			 * them; a person of this section only is its own
			 * evidence, but not one who also looks after a
			 * section holding it (HID CORE's maintainer is
			 * USB HID's too: no sign of USB HID) */
			credit_pool(a, hits[k].section, w * hits[k].share, why,
				    list || hits[k].umbrella ||
						    held_by_own(map, hits, n, k)
					    ? C_BROAD
					    : C_SPECIFIC,
				    list ? POOL_LIST : POOL_PERSON);
		}
	}
}

/*
 * generic_path - core code a driver's trace or text passes through
 * (crashlog_core_path(): the device model, IRQ and entry code, the
 * IOMMU and DMA glue, netlink, the LSM hooks, timers, the mmap lock's
 * wrappers ...) beyond what syzkaller's guilty-file rules skip: it says
 * less than the driver beside it, so it counts half.  One list with the
 * guilty-file choice, which looks past the same code.
 */
static bool generic_path(const char *f)
{
	return crashlog_core_path(f);
}

/* weigh - w, or half of it for generic core code */
static double weigh(const char *f, double w)
{
	return generic_path(f) ? w / 2 : w;
}

/* credit_named - a file, or a directory ("fs/xfs/") as a file in it */
static int credit_named(struct acc *a, const struct map *map, const char *f,
			const char *shown, double w, const char *kind,
			enum pool pool)
{
	char *p = ends_with(f, "/") ? xasprintf("%sx", f) : xstrdup(f);
	int n = credit_path_as(a, map, p, shown, w, kind, pool);

	free(p);
	return n;
}

/* in_chain - name is a component of the prefix chain ("arm64" of
 * "arm64: dts: qcom"): credit_chain() reads those */
static bool in_chain(const char *chain, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = chain; p && *p; p++) {
		if (p != chain &&
		    !(p[-1] == ' ' && p - 1 > chain && p[-2] == ':'))
			continue;
		if (!strncasecmp(p, name, n) && (p[n] == ':' || !p[n]))
			return true;
	}
	return false;
}

/*
 * subject_name_in_map - a driver the subject names (with a digit or a
 * '_') that the symbol index does not know as a module: its directory
 * or file in F: ("rtw89" for .../realtek/rtw89/), else the files named
 * after it ("EDAC igen6 MC0:" is drivers/edac/igen6_edac.c's); a name
 * more than PREFIX_TIES sections share names none
 */
static void subject_name_in_map(struct acc *a, const struct map *map,
				const char *name)
{
	char why[SECTION_WHY_MAX];

	/* a plain word ("crypto", "amd") is the subject's prefix or
	 * English: credit_chain() reads those */
	if (strlen(name) < 4 || !strpbrk(name, "0123456789_"))
		return;
	snprintf(why, sizeof(why), "driver in the subject: %s (F: %s*)", name,
		 name);
	credit_file_named(a, map, name, true, W_NAMED_SUBJECT, why);
}

/*
 * credit_names - the drivers the subject and prose name and the
 * functions the prose names, through the symbol index.  Generic files
 * (lib/, the allocators, ...: crashlog_guilty_ignored()) say nothing of
 * the subsystem, as in frames.
 */
static void credit_names(struct acc *a, const struct map *map,
			 const struct evidence *ev)
{
	char shown[SECTION_WHY_MAX];
	size_t i;

	for (i = 0; ev->named_files && i < ev->nnamed; i++) {
		const char *f = ev->named_files[i];
		bool subj = i < ev->nnamed_subject;

		if (!f && subj) {
			if (!in_chain(ev->subject_chain, ev->named[i]))
				subject_name_in_map(a, map, ev->named[i]);
			continue;
		}
		if (!f || crashlog_guilty_ignored(f))
			continue;
		snprintf(shown, sizeof(shown), "%s (%s)", ev->named[i], f);
		credit_named(a, map, f, shown,
			     weigh(f, subj ? W_NAMED_SUBJECT : W_NAMED_TEXT),
			     subj ? "driver in the subject:"
				  : "driver named in text:",
			     subj ? POOL_NONE : POOL_NAMED);
	}
	for (i = 0; ev->text_function_files && i < ev->ntext_functions; i++) {
		const char *f = ev->text_function_files[i];

		if (!f || crashlog_guilty_ignored(f))
			continue;
		snprintf(shown, sizeof(shown), "%s() (%s)",
			 ev->text_functions[i], f);
		credit_named(a, map, f, shown, weigh(f, W_FUNC_TEXT),
			     "function named in text:", POOL_NAMED);
	}
}

/*
 * log_printer - a file whose log lines come with every crash or every
 * boot, whatever broke: the register dump (arch/.../process*.c, um/),
 * "Modules linked in:" (kernel/module/), the hung-task and watchdog
 * reports, show_mem()'s memory report, an architecture's boot code
 */
static bool log_printer(const char *f)
{
	static const char *const arch_parts[] = { "/kernel/process", "/um/",
						  "/boot/",
						  "/kernel/dumpstack" };
	static const char *const core[] = {
		"kernel/module/",
		"kernel/hung_task.c",
		"kernel/watchdog",
		/* the memory report of an OOM or an allocation failure */
		"mm/show_mem.c",
		"mm/swap_state.c",
	};
	const char *slash;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(core); i++)
		if (starts_with(f, core[i]))
			return true;
	if (!starts_with(f, "arch/") || !(slash = strchr(f + 5, '/')))
		return false;
	for (i = 0; i < ARRAY_SIZE(arch_parts); i++)
		if (starts_with(slash, arch_parts[i]))
			return true;
	return false;
}

/*
 * credit_logs - the log lines that match a format of the source: each
 * file that prints it takes W_LOG over the files that do (a format
 * printed in many files says little of where), times the share of a
 * line that matched several formats equally, times its level's weight
 * (an info line says what ran, not what broke); generic files (lib/,
 * the allocators, the crash printers: crashlog_guilty_ignored(),
 * log_printer()) say nothing of the subsystem, as in frames
 */
static void credit_logs(struct acc *a, const struct map *map,
			const struct evidence *ev)
{
	char shown[SECTION_WHY_MAX];
	size_t i, k;

	for (i = 0; i < ev->nlog_matches; i++) {
		const struct log_match *m = &ev->log_matches[i];
		double w = m->level == PRINTK_INFO	? W_LOG_INFO
			   : m->level == PRINTK_UNKNOWN ? W_LOG_UNKNOWN
							: W_LOG;

		if (!m->nfiles || m->total > m->nfiles || w <= 0)
			continue;
		w *= m->share / (double)m->total;
		for (k = 0; k < m->nfiles; k++) {
			const char *f = m->files[k];

			if (crashlog_guilty_ignored(f) || log_printer(f))
				continue;
			snprintf(shown, sizeof(shown), "%s() format in %s",
				 m->call, f);
			credit_path_as(a, map, f, shown, weigh(f, w),
				       "log line matches", POOL_LOG);
		}
	}
}

/*
 * inherit - a section strictly inside another (map_umbrellas()) that
 * has evidence of its own takes the umbrella's broad credit too (its
 * lists, people, component, subject prefix): "USB SUBSYSTEM" by the
 * list, "USB ATTACHED SCSI" by the list and "uas" is the driver's,
 * not the umbrella's.  The umbrella keeps what points at its own files.
 */
static void inherit(struct acc *a, const struct map *map)
{
	double *add = xcalloc(a->n + 1, sizeof(*add));
	char why[SECTION_WHY_MAX];
	size_t i, k, j;

	for (i = 0; i < a->n; i++) {
		const uint32_t *ids;
		size_t n;

		if (a->specific[i] < W_NESTED_MIN)
			continue;
		n = map_umbrellas(map, a->v[i].section, &ids);
		for (k = 0; k < n; k++)
			for (j = 0; j < a->n; j++)
				if (a->v[j].section == ids[k] &&
				    a->broad[j] > 0) {
					add[i] += a->broad[j];
					snprintf(why, sizeof(why), "within %s",
						 map_title(map, ids[k]));
					note(a, i, a->broad[j], why);
				}
	}
	for (i = 0; i < a->n; i++)
		a->v[i].score += add[i];
	free(add);
}

/* lists_addr - whether section sec has addr among its L: lines */
static bool lists_addr(const struct map *map, uint32_t sec, const char *addr)
{
	uint32_t e, ne = map_nentries(map, sec);

	for (e = 0; e < ne; e++)
		if (map_entry_tag(map, sec, e) == 'L' &&
		    listed_as(map_entry_value(map, sec, e), addr))
			return true;
	return false;
}

/* catchall_list - addr is a catch-all section's list (LKML: THE REST) */
static bool catchall_list(const struct map *map, const char *addr)
{
	uint32_t s, ns = map_nsections(map);

	for (s = 0; s < ns; s++)
		if (lists_addr(map, s, addr) && sections_is_catchall(map, s))
			return true;
	return false;
}

/*
 * component_siblings - a Bugzilla component is the reporter's pick from
 * a coarse menu ("Drivers/USB"), and the bug goes to the component's
 * list.  A section on that list with evidence of its own (a driver the
 * text names: "thunderbolt" under Drivers/USB) is the specific owner
 * the menu had no entry for: it takes the component's credit, as a
 * section strictly inside does (inherit()).  Never by a catch-all
 * list (LKML).
 */
static void component_siblings(struct acc *a, const struct map *map,
			       uint32_t comp, const char *comp_why)
{
	double *add = xcalloc(a->n + 1, sizeof(*add));
	char why[SECTION_WHY_MAX];
	uint32_t e, ne = map_nentries(map, comp);
	size_t i;

	for (e = 0; e < ne; e++) {
		const char *v = map_entry_value(map, comp, e);
		char addr[256];
		size_t l;

		if (map_entry_tag(map, comp, e) != 'L' || !v)
			continue;
		l = strcspn(v, " \t");
		if (!l || l >= sizeof(addr))
			continue;
		memcpy(addr, v, l);
		addr[l] = '\0';
		if (catchall_list(map, addr))
			continue;
		for (i = 0; i < a->n; i++) {
			uint32_t sec = a->v[i].section;

			if (add[i] > 0 || sec == comp ||
			    a->specific[i] < W_NESTED_MIN ||
			    is_umbrella(map, sec, comp) ||
			    !lists_addr(map, sec, addr))
				continue;
			add[i] = W_COMPONENT;
			snprintf(why, sizeof(why),
				 "on the list of %.80s: %.80s", comp_why, addr);
			note(a, i, W_COMPONENT, why);
		}
	}
	for (i = 0; i < a->n; i++)
		a->v[i].score += add[i];
	free(add);
}

/* why - the strongest contributions with their weights */
static void format_why(struct section_score *v, const struct part *p)
{
	size_t k, len = 0;

	v->why[0] = '\0';
	for (k = 0; k < WHY_PARTS && p[k].w > 0; k++) {
		int n = snprintf(v->why + len, sizeof(v->why) - len,
				 "%s%s %.2f", k ? "; " : "", p[k].text, p[k].w);

		if (n < 0 || (size_t)n >= sizeof(v->why) - len)
			break;
		len += (size_t)n;
	}
}

/* a section being ranked: its score and what breaks a tie */
struct rank {
	struct section_score v;
	double specific;
	size_t breadth;
	bool capped; /* a pool of its evidence reached its cap */
};

/*
 * cmp_rank - the higher score first (equal within rounding); at equal
 * scores the one with more evidence of its own (paths, drivers,
 * functions, log lines: a file named in the text over a list the
 * report was sent to), then the broader one (two sections of one list
 * and nothing else: the list's subsystem, KERNEL BUILD's Makefile
 * before KCONFIG's scripts/kconfig/), then MAINTAINERS order
 */
static int cmp_rank(const void *x, const void *y)
{
	const struct rank *a = x, *b = y;

	if (a->v.score > b->v.score + 1e-9 || a->v.score < b->v.score - 1e-9)
		return a->v.score < b->v.score ? 1 : -1;
	if (a->specific > b->specific + 1e-9 ||
	    a->specific < b->specific - 1e-9)
		return a->specific < b->specific ? 1 : -1;
	if (a->breadth != b->breadth)
		return a->breadth < b->breadth ? -1 : 1;
	return a->v.section < b->v.section ? -1 : a->v.section > b->v.section;
}

static bool same(double x, double y)
{
	return x - y < 1e-9 && y - x < 1e-9;
}

/*
 * inner_first - at equal scores and equal evidence of their own, a
 * section strictly inside another (map_umbrellas()) comes before it:
 * "uas" in the subject and "usb-storage" in the text give USB ATTACHED
 * SCSI (drivers/usb/storage/uas.c) and USB MASS STORAGE (all of
 * drivers/usb/storage/, uas.c at half) the same, and the report is
 * about the driver inside.  Not where a pool's cap made them equal (a
 * dozen sound modules in the text: SOUND, ASoC and SOF all at the
 * cap), nor for sections of one list with nothing of their own: there
 * cmp_rank()'s order stands (the broader, the list's subsystem).
 */
static void inner_first(struct rank *r, size_t n, const struct map *map)
{
	size_t pass, i;
	bool moved = true;

	for (pass = 0; moved && pass < n; pass++) {
		moved = false;
		for (i = 1; i < n; i++) {
			struct rank t;

			if (!same(r[i].v.score, r[i - 1].v.score) ||
			    !same(r[i].specific, r[i - 1].specific) ||
			    r[i].specific <= 0 || r[i].capped ||
			    r[i - 1].capped ||
			    !is_umbrella(map, r[i].v.section,
					 r[i - 1].v.section))
				continue;
			t = r[i];
			r[i] = r[i - 1];
			r[i - 1] = t;
			moved = true;
		}
	}
}

/* capped - whether a pool of a section's own evidence reached its cap */
static bool capped(const struct acc *a, size_t i)
{
	int p;

	for (p = 0; p < POOL_N; p++)
		if (p != POOL_LIST && p != POOL_PERSON &&
		    a->pool[i][p] >= pool_cap[p] - 1e-9)
			return true;
	return false;
}

/*
 * rank_sections - best first (cmp_rank()), each with its "why"; K:
 * keywords never decide alone: a section with nothing else goes
 */
static void rank_sections(struct acc *a, const struct map *map)
{
	struct rank *rank = xcalloc(a->n + 1, sizeof(*rank));
	size_t i, n;

	for (i = 0, n = 0; i < a->n; i++) {
		if (a->specific[i] <= 0 && a->broad[i] <= 0)
			continue;
		format_why(&a->v[i], a->parts[i]);
		rank[n].v = a->v[i];
		rank[n].specific = a->specific[i];
		rank[n].breadth = breadth(map, a->v[i].section);
		rank[n].capped = capped(a, i);
		n++;
	}
	a->n = n;
	if (a->n)
		qsort(rank, a->n, sizeof(*rank), cmp_rank);
	inner_first(rank, a->n, map);
	for (i = 0; i < a->n; i++)
		a->v[i] = rank[i].v;
	free(rank);
}

/*
 * build_line - a line that says how the kernel was built: a test
 * robot's "compiler: clang version 17", "make CC=clang ...", LLVM=1
 */
static bool build_line(const char *s, size_t l)
{
	static const char *const build[] = { "CC=", "LLVM=", "CROSS_COMPILE" };
	size_t i;

	while (l && (*s == ' ' || *s == '\t' || *s == '>')) {
		s++;
		l--;
	}
	if ((l >= 9 && !strncasecmp(s, "compiler:", 9)) ||
	    (l >= 5 && !strncmp(s, "make ", 5)) ||
	    (l >= 7 && !strncmp(s, "$ make ", 7)))
		return true;
	for (i = 0; i < ARRAY_SIZE(build); i++)
		if (memmem(s, l, build[i], strlen(build[i])))
			return true;
	return false;
}

/*
 * prose_line - a line a person wrote: not console output or a stack
 * frame, not a build or shell command line ("make CC=clang ...",
 * "$ ..."), nor one that says how it was built (build_line()), not a
 * diff, config or link line.  K: keywords are matched
 * in these only: "CC=clang" in a build line names no subsystem.
 */
static bool prose_line(const char *s, size_t l)
{
	static const char *const not_prose[] = {
		"+0x",
		"Call Trace",
		"RIP:",
		"Modules linked in",
		"CC=",
		"LLVM=",
		"ARCH=",
		"CROSS_COMPILE",
		"CONFIG_",
		"http://",
		"https://",
		" kernel: ",
		"Hardware name:",
		"Comm:",
		"Tainted:",
	};
	size_t i;

	while (l && (*s == ' ' || *s == '\t' || *s == '>')) {
		s++;
		l--;
	}
	if (!l || build_line(s, l))
		return false;
	/* "+foo"/"-foo" of a diff, not "- a point" of a list */
	if (((*s == '+' || *s == '-') && (l == 1 || s[1] != ' ')) ||
	    *s == '[' || *s == '<' || *s == '$' || *s == '#' || *s == '@' ||
	    (l >= 5 && !strncmp(s, "make ", 5)) ||
	    (l >= 8 && !strncmp(s, "kernel: ", 8)))
		return false;
	for (i = 0; i < ARRAY_SIZE(not_prose); i++)
		if (memmem(s, l, not_prose[i], strlen(not_prose[i])))
			return false;
	return true;
}

/* lines_where - the text's lines keep() accepts, joined; each ends in
 * '\n', the last one too when the text does not: len + 2 bytes */
static char *lines_where(const char *text, size_t len,
			 bool (*keep)(const char *, size_t), size_t *out_len)
{
	char *out = xmalloc(len + 2);
	const char *p = text, *end = text + len;
	size_t n = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (keep(p, l)) {
			memcpy(out + n, p, l);
			n += l;
			out[n++] = '\n';
		}
		p = nl ? nl + 1 : end;
	}
	out[n] = '\0';
	*out_len = n;
	return out;
}

/* prose - the text's prose lines (prose_line()) */
static char *prose(const char *text, size_t len, size_t *out_len)
{
	return lines_where(text, len, prose_line, out_len);
}

/*
 * toolchain_of - the sections whose K: keywords a build line matches
 * (build_line(): "compiler: clang version 17") and the prose does not
 * (prose_hits[0..nprose)): the compiler that built the kernel, which
 * the report is not about when its own words never name it.  Up to max
 * into out; their number returned.
 */
static size_t toolchain_of(const struct map *map, const char *text, size_t len,
			   const struct map_hit *prose_hits, size_t nprose,
			   uint32_t *out, size_t max)
{
	struct map_hit hits[MAP_MAX_HITS];
	size_t blen, nb, i, j, n = 0;
	char *bt = lines_where(text, len, build_line, &blen);

	nb = blen ? map_keywords(map, bt, blen, hits, ARRAY_SIZE(hits)) : 0;
	free(bt);
	for (i = 0; i < nb && n < max; i++) {
		for (j = 0; j < nprose; j++)
			if (prose_hits[j].section == hits[i].section)
				break;
		if (j == nprose && !in_set(out, n, hits[i].section))
			out[n++] = hits[i].section;
	}
	return n;
}

/*
 * config_value_only - the text names path only as a kernel config
 * option's value (CONFIG_MODULE_SIG_KEY="certs/signing_key.pem", an
 * initramfs source, a firmware directory): the build's setting, which
 * a config dump carries whatever broke.  A path the text does not hold
 * (an attachment's) is kept.
 */
static bool config_value_only(const char *text, size_t len, const char *f)
{
	size_t n = strlen(f);
	const char *p = text, *end = text + len, *hit;
	bool seen = false;

	if (!text || !n)
		return false;
	while (p < end && (hit = memmem(p, (size_t)(end - p), f, n))) {
		const char *b = hit, *q = hit, *c;

		while (b > text && b[-1] != '\n')
			b--;
		while (b < hit && (*b == ' ' || *b == '\t' || *b == '>'))
			b++;
		/* CONFIG_FOO=" or CONFIG_FOO= right before the path */
		if (q > b && q[-1] == '"')
			q--;
		if (!(q > b && q[-1] == '='))
			return false;
		q--;
		if (q - b < 8 || strncmp(b, "CONFIG_", 7))
			return false;
		for (c = b + 7; c < q; c++)
			if (!isupper((unsigned char)*c) &&
			    !isdigit((unsigned char)*c) && *c != '_')
				return false;
		seen = true;
		p = hit + n;
	}
	return seen;
}

/*
 * credit_trees - the trees a test robot's lines name (sections_tree.h):
 * W_TREE times each section's share, broad as a list is (a driver
 * inside inherits it)
 */
#define W_TREE 0.75

static void credit_trees(struct acc *a, const struct map *map, const char *text,
			 size_t len)
{
	struct tree_credit c[SECTIONS_TREE_MAX];
	size_t n = sections_trees(map, text, len, c, ARRAY_SIZE(c)), k;
	char why[SECTION_WHY_MAX];

	for (k = 0; k < n; k++) {
		snprintf(why, sizeof(why), "T: tree the report built: %.180s",
			 c[k].tree);
		credit_as(a, c[k].section, W_TREE * c[k].share, why, C_BROAD);
	}
}

/*
 * sections_for_report - rank the sections a report belongs to
 *
 * text (may be NULL) is searched for K: keywords, in its prose lines
 * only (prose_line()).
 */
static void for_report(const struct map *map, const struct config *cfg,
		       bool bz_own, const struct evidence *ev, const char *text,
		       size_t text_len, struct section_list *out);

/* stacking - a stacking filesystem's code: it calls a lower one's */
static bool stacking(const char *f)
{
	return starts_with(f, "fs/overlayfs/") ||
	       starts_with(f, "fs/ecryptfs/") ||
	       !strcmp(f, "fs/backing-file.c");
}

/*
 * stacking_caller - the file of a stacking filesystem's frame that
 * called the guilty file's, when that is another filesystem's
 * ("ovl_llseek" under "ext4_llseek": overlayfs over ext4); NULL when
 * none did
 */
static const char *stacking_caller(const struct evidence *ev)
{
	const char *g = ev->guilty_file;
	size_t i, j;

	if (!g || !starts_with(g, "fs/") || !strchr(g + 3, '/') || stacking(g))
		return NULL;
	for (i = 0; i < ev->nframes; i++)
		if (ev->frames[i].file && !strcmp(ev->frames[i].file, g))
			break;
	for (j = i + 1; j < ev->nframes; j++)
		if (ev->frames[j].file && stacking(ev->frames[j].file))
			return ev->frames[j].file;
	return NULL;
}

void sections_for_report(const struct map *map, const struct evidence *ev,
			 const char *text, size_t text_len,
			 struct section_list *out)
{
	for_report(map, NULL, true, ev, text, text_len, out);
}

void sections_for_report_site(const struct map *map, const struct config *cfg,
			      const struct report *r, const struct evidence *ev,
			      const char *text, size_t text_len,
			      struct section_list *out)
{
	for_report(map, cfg, bzcomponent_from_bugzilla(r, cfg), ev, text,
		   text_len, out);
}

/*
 * for_report - bz_own: ev's Bugzilla product and component are the
 * Bugzilla's own (bzcomponent_from_bugzilla())
 */
/*
 * subject_driver_frame - a frame's file in the directory of a driver the
 * subject names ("Nouveau driver warns ...": drivers/gpu/drm/nouveau/),
 * when the guilty file is outside it: a framework's check (a WARN in
 * drm_atomic.c, drivers/base/) that the named driver tripped.  NULL
 * when there is none.
 */
static const char *subject_driver_frame(const struct evidence *ev)
{
	const char *g = ev->guilty_file;
	size_t i, j;

	for (i = 0; g && ev->named_files && i < ev->nnamed_subject; i++) {
		const char *f = ev->named_files[i], *slash;
		size_t dir;

		if (!f || crashlog_guilty_ignored(f) ||
		    !(slash = strrchr(f, '/')))
			continue;
		dir = (size_t)(slash - f) + 1;
		/* a driver's own directory, not "drivers/" or "fs/" */
		if (count_char(f, dir, '/') < 3 || !strncmp(g, f, dir))
			continue;
		for (j = 0; j < ev->nframes; j++) {
			const char *ff = ev->frames[j].file;

			if (ff && !strncmp(ff, f, dir))
				return ff;
		}
	}
	return NULL;
}

/*
 * credit_guilty - the crash's guilty file, syzbot's title's, and a
 * stacking filesystem that called the guilty one
 */
static void credit_guilty(struct acc *a, const struct map *map,
			  const struct evidence *ev)
{
	double guilty_w = W_GUILTY;
	const char *stack, *drv;

	/*
	 * syzkaller's rule keeps the first file it saw when every file was
	 * a generic one ("kernel BUG at lib/list_debug.c" in a log whose
	 * frames carry no files): that names the checker, not the fault
	 */
	/*
	 * syzbot titles a crash by its own guilty frame, from rules that
	 * skip more generic code than ours (a lockdep report's first frames
	 * are the lock chain, not the caller): where the two differ,
	 * syzbot's speaks first and ours counts half
	 */
	if (ev->title_file && !crashlog_guilty_ignored(ev->title_file) &&
	    !(ev->guilty_file && !strcmp(ev->guilty_file, ev->title_file))) {
		credit_path(a, map, ev->title_file, W_GUILTY,
			    "function in syzbot's title, in");
		guilty_w = W_GUILTY / 2;
	}
	/*
	 * A lower filesystem reached through a stacking one (overlayfs,
	 * ecryptfs) broke on what the stacking layer handed it: the two
	 * share the guilty file's weight
	 */
	stack = stacking_caller(ev);
	if (stack) {
		guilty_w /= 2;
		credit_path(a, map, stack, guilty_w,
			    "the stacking filesystem calling the guilty file:");
	}
	/*
	 * A framework's check the driver the subject names tripped, its
	 * frames below: the two share the guilty file's weight
	 */
	drv = subject_driver_frame(ev);
	if (drv) {
		guilty_w /= 2;
		credit_path(a, map, drv, guilty_w,
			    "the subject's driver under the guilty file, in");
	}
	if (ev->guilty_file && !crashlog_guilty_ignored(ev->guilty_file))
		credit_path(a, map, ev->guilty_file,
			    weigh(ev->guilty_file, guilty_w), "guilty file");
}

static void for_report(const struct map *map, const struct config *cfg,
		       bool bz_own, const struct evidence *ev, const char *text,
		       size_t text_len, struct section_list *out)
{
	struct acc a = { NULL, NULL, NULL, NULL, NULL, 0, 0 };
	double wf = W_FRAME, wt = W_TEXT, wm = W_MODULE;
	uint32_t toolchain[MAP_MAX_HITS];
	size_t i, ntool = 0, nmod = 0;
	int bz_sec = -1;
	char bz_why[SECTION_WHY_MAX] = "";
	bool bz = bz_own && ev && ev->bz_product && ev->bz_component;

	if (ev)
		credit_guilty(&a, map, ev);
	for (i = 0; ev && i < ev->nfiles; i++)
		nmod += module_file(ev, ev->files[i]) &&
			!(ev->guilty_file &&
			  !strcmp(ev->files[i], ev->guilty_file));
	if (nmod > MODULE_SPREAD)
		wm = W_MODULE * MODULE_SPREAD / (double)nmod;
	for (i = 0; ev && i < ev->nfiles; i++) {
		const char *f = ev->files[i];

		if (ev->guilty_file && strcmp(f, ev->guilty_file) == 0)
			continue;
		if (module_file(ev, f)) {
			/* "fs/xfs/" stands for its directory: look up a file
			 * directly in it */
			char *p = ends_with(f, "/") ? xasprintf("%sx", f)
						    : xstrdup(f);

			credit_path_as(&a, map, p, f, wm,
				       "driver in the log:", POOL_NONE);
			free(p);
		} else if (frame_file(ev, f)) {
			/* Generic frames (lib/, mm/kasan/, locking...) say
			 * nothing about the subsystem: syzkaller's rules. */
			if (crashlog_guilty_ignored(f))
				continue;
			credit_path_as(&a, map, f, f, weigh(f, wf),
				       "stack frame in", POOL_FRAMES);
			wf = wf - W_STEP < W_FRAME_MIN ? W_FRAME_MIN
						       : wf - W_STEP;
		} else {
			/* In a crash report, paths come from the traces around
			 * it (allocation and free stacks): generic ones are
			 * noise there, as they are in frames. */
			if (ev->title && crashlog_guilty_ignored(f))
				continue;
			if (config_value_only(text, text_len, f))
				continue;
			credit_path_as(&a, map, f, f, weigh(f, wt),
				       "path named in text:", POOL_TEXT);
			wt = wt - W_STEP < W_TEXT_MIN ? W_TEXT_MIN
						      : wt - W_STEP;
		}
	}
	/*
	 * syzbot's subsystem tag ("[syzbot] [btrfs?]") is its own guess
	 * from the crash, often from what the reproducer set up: where the
	 * crash names its guilty file, that file speaks first
	 */
	/* "linux-next: build failure after merge of the kbuild tree": the
	 * tree's subsystem, not linux-next's */
	if (ev && ev->merged_tree &&
	    credit_prefix(&a, map, ev->merged_tree, W_PREFIX,
			  "tree merged in linux-next"))
		;
	else if (ev && (ev->subject_prefix || ev->subject_chain))
		credit_chain(&a, map, ev, ev->subject_chain, ev->subject_prefix,
			     ev->syzbot && ev->guilty_file ? W_PREFIX / 2
							   : W_PREFIX,
			     "subject prefix");
	/* the filesystem a syzkaller reproducer mounts */
	if (ev && ev->syz_fs) {
		char *f = xasprintf("%s/x.c", ev->syz_fs);
		char *shown = xasprintf("%s/", ev->syz_fs);

		credit_path_as(&a, map, f, shown, W_SYZ_FS,
			       "the reproducer mounts", POOL_NONE);
		free(f);
		free(shown);
	}
	/* a bot's report that names only the commit it blames */
	if (ev && ev->culprit_chain)
		credit_chain(&a, map, NULL, ev->culprit_chain, NULL, W_CULPRIT,
			     "prefix of the culprit commit");
	if (text && text_len) {
		struct map_hit hits[MAP_MAX_HITS];
		size_t plen, nk;
		char *pt = prose(text, text_len, &plen);

		nk = plen ? map_keywords(map, pt, plen, hits, ARRAY_SIZE(hits))
			  : 0;
		free(pt);
		ntool = toolchain_of(map, text, text_len, hits, nk, toolchain,
				     ARRAY_SIZE(toolchain));

		for (i = 0; i < nk; i++)
			if (!sections_is_catchall(map, hits[i].section))
				credit_as(&a, hits[i].section, W_KEYWORD,
					  "K: keyword in the text", C_KEYWORD);
		credit_trees(&a, map, text, text_len);
	}
	if (bz) {
		const char *t = bzcomponent_site_section(cfg, ev->bz_product,
							 ev->bz_component);
		int sec = t ? map_find_section(map, t) : -1;

		if (sec >= 0) {
			snprintf(bz_why, sizeof(bz_why), "Bugzilla %s/%s",
				 ev->bz_product, ev->bz_component);
			credit_as(&a, (uint32_t)sec, W_COMPONENT, bz_why,
				  C_BROAD);
			bz_sec = sec;
		}
	}
	if (ev) {
		credit_names(&a, map, ev);
		credit_logs(&a, map, ev);
		credit_addresses(&a, map, ev, bz, toolchain, ntool);
	}
	if (bz_sec >= 0)
		component_siblings(&a, map, (uint32_t)bz_sec, bz_why);
	inherit(&a, map);
	rank_sections(&a, map);
	if (a.n > SECTIONS_MAX)
		a.n = SECTIONS_MAX;
	free(a.parts);
	free(a.broad);
	free(a.specific);
	free(a.pool);
	out->v = a.v;
	out->n = a.n;
}

void section_list_release(struct section_list *l)
{
	free(l->v);
	l->v = NULL;
	l->n = 0;
}
