// SPDX-License-Identifier: GPL-2.0-only
/*
 * map_people - the umbrellas and the address index of the compiled map
 * (map_people.h)
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hash.h"
#include "maintainers.h"
#include "map.h"
#include "map_people.h"
#include "strbuf.h"
#include "util.h"

/*
 * Format 5 adds two tables that map_compile() derives from the parsed
 * MAINTAINERS once, so that no report pays for them:
 *
 *	nest	  for each section, its umbrellas: the sections whose F:
 *		  patterns hold every F: pattern of it (its Documentation/,
 *		  and its include/ and tools/ beside code of its own, left
 *		  out: umbrellas_of()), but not the other way round ("USB XHCI DRIVER", drivers/usb/host/xhci*, is
 *		  strictly inside "USB SUBSYSTEM", drivers/usb/).  Decided
 *		  with get_maintainer.pl's own matching: a pattern's
 *		  representative path (its text with "x" for wildcards,
 *		  "x" under a directory) is looked up, and the umbrellas
 *		  are the sections every such path of the section falls in.
 *	addrs	  each list and person of an L:, M:, R: or B: mailto:
 *		  entry, lower case, with the sections naming it and the
 *		  share of the address's weight each section gets: the
 *		  sections of the address it covers (itself and those
 *		  strictly inside it), over all its sections.  A list of
 *		  59 sections gives USB SUBSYSTEM, the umbrella of 39 of
 *		  them, 40/59 and a driver of its own 1/59.
 *
 * Addresses that say nothing about the code get no entry: those of a
 * catch-all section (THE REST: linux-kernel@vger.kernel.org, Linus),
 * those in more than MAP_ADDR_SECTIONS_MAX sections, and a section
 * that owns no source (F: only under Documentation/, or none: the
 * stable@, regressions@ and linux-next@ process sections) lends its
 * addresses nothing.
 */

struct people {
	char **addr;	 /* lower case */
	uint32_t *sec;	 /* the section of each record */
	char *tag;	 /* its tag */
	size_t n, alloc; /* records, sorted by (addr, section) */
	uint32_t **umb;	 /* per section: sorted umbrella ids */
	size_t *numb;	 /* per section: how many */
	bool *owns;	 /* per section: counts for addresses */
	bool *rest;	 /* per section: a catch-all */
};

static bool mnt_catchall(const struct mnt_section *s)
{
	size_t i, f = 0;

	for (i = 0; i < s->nentries; i++) {
		const char *v = s->entries[i].value;

		if (s->entries[i].tag != 'F')
			continue;
		if (strcmp(v, "*") != 0 && strcmp(v, "*/") != 0)
			return false;
		f++;
	}
	return f > 0;
}

/* owns_source - an F: or N: pattern outside Documentation/ */
static bool owns_source(const struct mnt_section *s)
{
	size_t i;

	for (i = 0; i < s->nentries; i++)
		if ((s->entries[i].tag == 'F' || s->entries[i].tag == 'N') &&
		    !starts_with(s->entries[i].value, "Documentation/"))
			return true;
	return false;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static bool has_u32(const uint32_t *v, size_t n, uint32_t x)
{
	return n && bsearch(&x, v, n, sizeof(*v), cmp_u32) != NULL;
}

/*
 * umbrellas_of - the sections holding every F: path of section t, its
 * Documentation/ paths left out (none when it has no other)
 */
/*
 * beside_code - headers and selftests that sit apart from a section's
 * code: "PACKET SOCKETS" is net/packet/af_packet.c and its uapi
 * header, inside "NETWORKING [GENERAL]" for all that the header is not
 */
static bool beside_code(const char *v)
{
	return !strncmp(v, "include/", 8) || !strncmp(v, "tools/", 6);
}

static void umbrellas_of(const struct map *map, const struct maintainers *m,
			 struct people *pp, uint32_t t)
{
	const struct mnt_section *s = &m->sections[t];
	struct map_hit hits[MAP_MAX_HITS];
	uint32_t *cand = NULL;
	size_t ncand = 0, i, j, k, nf = 0, ncode = 0;

	for (i = 0; i < s->nentries; i++)
		if (s->entries[i].tag == 'F' &&
		    strncmp(s->entries[i].value, "Documentation/", 14) &&
		    !beside_code(s->entries[i].value))
			ncode++;
	for (i = 0; i < s->nentries; i++) {
		char *rep;
		size_t n, keep = 0;

		if (s->entries[i].tag != 'F')
			continue;
		/*
		 * Documentation says nothing of whose code it is: the ABI
		 * file of "USB TYPEC CLASS" kept it out of "USB SUBSYSTEM";
		 * nor do headers and selftests beside code of its own
		 */
		if (!strncmp(s->entries[i].value, "Documentation/", 14) ||
		    (ncode && beside_code(s->entries[i].value)))
			continue;
		rep = map_rep_path(s->entries[i].value);
		if (!rep) /* a pattern with no plain path: no umbrella */
			goto none;
		n = map_lookup(map, rep, hits, ARRAY_SIZE(hits));
		free(rep);
		if (nf++ == 0) {
			cand = xcalloc(n + 1, sizeof(*cand));
			for (j = 0; j < n; j++)
				if (hits[j].section != t &&
				    !pp->rest[hits[j].section])
					cand[ncand++] = hits[j].section;
			qsort(cand, ncand, sizeof(*cand), cmp_u32);
			continue;
		}
		for (k = 0; k < ncand; k++) {
			for (j = 0; j < n; j++)
				if (hits[j].section == cand[k])
					break;
			if (j < n)
				cand[keep++] = cand[k];
		}
		ncand = keep;
	}
	if (!nf)
		goto none;
	pp->umb[t] = cand;
	pp->numb[t] = ncand;
	return;
none:
	free(cand);
	pp->umb[t] = NULL;
	pp->numb[t] = 0;
}

/* bare_addr - "Name <a@b>", "a@b (moderated ...)", "mailto:a@b": a@b */
static char *bare_addr(const char *v)
{
	const char *lt = strchr(v, '<'), *b, *e;
	char *a;
	size_t i;

	if (starts_with_ci(v, "mailto:"))
		v += 7;
	if (lt) {
		b = lt + 1;
		e = strchr(b, '>');
		if (!e)
			return NULL;
	} else {
		b = v;
		while (*b == ' ' || *b == '\t')
			b++;
		for (e = b; *e && *e != ' ' && *e != '\t' && *e != ','; e++)
			;
	}
	if (e - b < 3 || e - b > 254 || !memchr(b, '@', (size_t)(e - b)))
		return NULL;
	a = xmemdup0(b, (size_t)(e - b));
	for (i = 0; a[i]; i++) {
		if ((unsigned char)a[i] <= ' ') {
			free(a);
			return NULL;
		}
		if (a[i] >= 'A' && a[i] <= 'Z')
			a[i] = (char)(a[i] | 0x20);
	}
	return a;
}

/*
 * list_named_after - "linux-ext4@..." or "ext4@..." and a title that
 * starts with the word "EXT4"
 */
static bool list_named_after(const char *list, const char *title)
{
	const char *at = strchr(list, '@'), *w;
	size_t n;

	if (starts_with(list, "linux-"))
		list += 6;
	n = at && at > list ? (size_t)(at - list) : 0;
	if (n < 2)
		return false;
	/* any plain word of the title: linux-serial@ is "TTY LAYER AND
	 * SERIAL DRIVERS"' as much as "SERIAL DEVICE BUS"' (the covering
	 * one wins); not a qualifier: "(WIRELESS)", "CLANG/LLVM" */
	for (w = title; *w; w++) {
		if (w > title && w[-1] != ' ')
			continue;
		if (strncasecmp(w, list, n) == 0 &&
		    (w[n] == ' ' || w[n] == '\0'))
			return true;
	}
	return false;
}

/*
 * list_named_in_code - "nouveau@..." and an F: pattern with a directory
 * or file of that name (drivers/gpu/drm/nouveau/, a ".c"/".h" file's
 * name without it): the list of the code it is named after
 */
static bool list_named_in_code(const char *list, const struct mnt_section *s)
{
	const char *at = strchr(list, '@');
	size_t n, i;

	if (starts_with(list, "linux-"))
		list += 6;
	n = at && at > list ? (size_t)(at - list) : 0;
	if (n < 3)
		return false;
	for (i = 0; i < s->nentries; i++) {
		const char *p = s->entries[i].value;

		if (s->entries[i].tag != 'F' ||
		    starts_with(p, "Documentation/"))
			continue;
		for (; *p; p += strcspn(p, "/"), p += *p == '/') {
			const char *e = p + n;

			if (strncasecmp(p, list, n) == 0 &&
			    (*e == '/' || *e == '\0' ||
			     (e[0] == '.' && (e[1] == 'c' || e[1] == 'h') &&
			      e[2] == '\0')))
				return true;
		}
	}
	return false;
}

static struct people *people_sort_ctx;

static int cmp_record(const void *x, const void *y)
{
	const struct people *pp = people_sort_ctx;
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	int c = strcmp(pp->addr[a], pp->addr[b]);

	if (c)
		return c;
	return pp->sec[a] < pp->sec[b] ? -1 : pp->sec[a] > pp->sec[b];
}

/* nest_of - the umbrellas, strictly: two sections with the same paths
 * hold each other, and neither is the other's umbrella.  Decided on the
 * sets as found, then applied. */
static void nest_of(struct people *pp, size_t ns, struct map_people *out)
{
	bool **drop = xcalloc(ns + 1, sizeof(*drop));
	size_t i, j, k, nnest = 0;

	for (i = 0; i < ns; i++) {
		drop[i] = xcalloc(pp->numb[i] + 1, sizeof(**drop));
		for (j = 0; j < pp->numb[i]; j++) {
			uint32_t u = pp->umb[i][j];

			drop[i][j] =
				has_u32(pp->umb[u], pp->numb[u], (uint32_t)i);
		}
	}
	for (i = 0; i < ns; i++) {
		size_t keep = 0;

		for (j = 0; j < pp->numb[i]; j++)
			if (!drop[i][j])
				pp->umb[i][keep++] = pp->umb[i][j];
		pp->numb[i] = keep;
		nnest += keep;
		free(drop[i]);
	}
	free(drop);
	out->nest_start = xcalloc(ns + 1, sizeof(*out->nest_start));
	out->nest = xcalloc(nnest + 1, sizeof(*out->nest));
	for (i = 0, k = 0; i < ns; i++) {
		out->nest_start[i] = (uint32_t)k;
		for (j = 0; j < pp->numb[i]; j++)
			out->nest[k++] = pp->umb[i][j];
	}
	out->nest_start[ns] = (uint32_t)k;
	out->nnest = nnest;
}

/* records_of - (addr, section, tag), one per L:, M:, R:, B: mailto: */
static void records_of(struct people *pp, const struct maintainers *m)
{
	size_t i, j;

	for (i = 0; i < m->nsections; i++) {
		const struct mnt_section *s = &m->sections[i];

		for (j = 0; j < s->nentries; j++) {
			char tag = s->entries[j].tag;
			const char *v = s->entries[j].value;
			char *a;

			if (tag != 'L' && tag != 'M' && tag != 'R' &&
			    !(tag == 'B' && starts_with_ci(v, "mailto:")))
				continue;
			if (!(a = bare_addr(v)))
				continue;
			if (pp->n == pp->alloc) {
				pp->alloc = pp->alloc ? 2 * pp->alloc : 1024;
				pp->addr = xreallocarray(pp->addr, pp->alloc,
							 sizeof(*pp->addr));
				pp->sec = xreallocarray(pp->sec, pp->alloc,
							sizeof(*pp->sec));
				pp->tag = xreallocarray(pp->tag, pp->alloc, 1);
			}
			pp->addr[pp->n] = a;
			pp->sec[pp->n] = (uint32_t)i;
			pp->tag[pp->n++] = tag;
		}
	}
}

/*
 * shares_of - each section's share of address a (its hits
 * ahits[first..last)): the sections of a it covers; one that covers
 * others is the address's umbrella there (the list or person of a
 * whole subsystem).  The list's own section takes the whole: of those
 * named after the list (a plain word of the title: linux-serial@ and
 * "TTY LAYER AND SERIAL DRIVERS"), the one covering most, when one does
 * (linux-ext4@ is EXT4 FILE SYSTEM's list, and EXT2's and JBD2's too;
 * linux-usb@ is USB SUBSYSTEM's, not USB STORAGE DRIVER's;
 * linux-mediatek@ names many MEDIATEK sections, none over the others:
 * no one's own); with none by the title, the one section with code of
 * the list's name (list_named_in_code()).
 */
static void shares_of(const struct people *pp, const struct maintainers *m,
		      const char *a, struct img_ahit *ahits, size_t first,
		      size_t last)
{
	size_t home = SIZE_MAX, home_cover = 0, nsec = last - first, k, q;
	bool tie = false;

	for (k = first; k < last; k++) {
		size_t cover = 1;

		for (q = first; q < last; q++)
			if (q != k && has_u32(pp->umb[ahits[q].section],
					      pp->numb[ahits[q].section],
					      ahits[k].section))
				cover++;
		ahits[k].share =
			(uint16_t)(65535.0 * (double)cover / (double)nsec);
		if (cover > 1)
			ahits[k].tag |= AHIT_UMBRELLA;
		if ((ahits[k].tag & 0xff) != 'L' ||
		    !list_named_after(a, m->sections[ahits[k].section].title) ||
		    cover < home_cover)
			continue;
		tie = cover == home_cover;
		home = k;
		home_cover = cover;
	}
	if (home != SIZE_MAX && !tie) {
		ahits[home].share = 65535;
		return;
	}
	/* none by its title: the one section whose code the list is named
	 * after (nouveau@ is drivers/gpu/drm/nouveau/'s, DRM DRIVER FOR
	 * NVIDIA GEFORCE/QUADRO GPUS; MMIOTRACE only Cc's it) */
	for (k = first, home = SIZE_MAX; k < last; k++) {
		if ((ahits[k].tag & 0xff) != 'L' ||
		    !list_named_in_code(a, &m->sections[ahits[k].section]))
			continue;
		if (home != SIZE_MAX)
			return;
		home = k;
	}
	if (home != SIZE_MAX)
		ahits[home].share = 65535;
}

/* index_of - the address index over the sorted records ord[] */
static void index_of(const struct people *pp, const struct maintainers *m,
		     const size_t *ord, struct map_people *out)
{
	struct strbuf astr = STRBUF_INIT(UINT32_MAX / 4);
	size_t i, j, nrec = 0, naddr = 0, nbuckets, nahits = 0;
	struct img_addr *addrs;
	struct img_ahit *ahits;

	for (i = 0; i < pp->n; i = j) {
		for (j = i + 1;
		     j < pp->n && !strcmp(pp->addr[ord[i]], pp->addr[ord[j]]);
		     j++)
			;
		naddr++;
		nrec += j - i;
	}
	for (nbuckets = 16; nbuckets < 2 * naddr + 16; nbuckets *= 2)
		;
	addrs = xcalloc(nbuckets, sizeof(*addrs));
	ahits = xcalloc(nrec + 1, sizeof(*ahits));
	sb_add(&astr, "", 1);
	for (i = 0; i < pp->n; i = j) {
		const char *a = pp->addr[ord[i]];
		size_t first = nahits, nsec = 0, slot;
		bool rest = false;
		uint32_t hv;

		for (j = i; j < pp->n && !strcmp(a, pp->addr[ord[j]]); j++) {
			uint32_t s = pp->sec[ord[j]];

			if (j > i && pp->sec[ord[j - 1]] == s)
				continue; /* the first tag of a section */
			rest |= pp->rest[s];
			if (!pp->owns[s])
				continue;
			ahits[nahits].section = s;
			ahits[nahits].tag = (uint16_t)pp->tag[ord[j]];
			nahits++;
			nsec++;
		}
		if (rest || !nsec || nsec > MAP_ADDR_SECTIONS_MAX) {
			nahits = first;
			continue;
		}
		shares_of(pp, m, a, ahits, first, nahits);
		hv = hash_str(a);
		slot = hv & (nbuckets - 1);
		while (addrs[slot].count)
			slot = (slot + 1) & (nbuckets - 1);
		addrs[slot].hash = hv;
		addrs[slot].text = (uint32_t)astr.len;
		addrs[slot].first = (uint32_t)first;
		addrs[slot].count = (uint32_t)(nahits - first);
		if (sb_add(&astr, a, strlen(a) + 1) < 0)
			die("MAINTAINERS index: address table too large");
	}
	out->addrs = addrs;
	out->naddrs = nbuckets;
	out->ahits = ahits;
	out->nahits = nahits;
	out->astrings_size = astr.len;
	out->astrings = sb_detach(&astr, NULL);
}

/*
 * fname_of - the lower-case name an F: pattern ends in, into buf: a
 * directory ("a/b/rt2x00/") or a .c/.h file without its suffix; false
 * for wildcards, regexes, other files and Documentation/; *depth the "/"
 * before it
 */
static bool fname_of(const char *v, char *buf, size_t size, uint32_t *depth)
{
	size_t len = strlen(v), i;
	const char *e = v + len, *b;

	/* a prefix names code: not the documents that describe it */
	if (strpbrk(v, "*?[]\\") || !strncmp(v, "Documentation/", 14))
		return false;
	if (len && e[-1] == '/')
		e--;
	else if (len > 2 && e[-2] == '.' && (e[-1] == 'c' || e[-1] == 'h'))
		e -= 2;
	else
		return false;
	for (b = e; b > v && b[-1] != '/'; b--)
		;
	if (e - b < 3 || (size_t)(e - b) >= size)
		return false;
	for (i = 0; b + i < e; i++)
		buf[i] = (char)tolower((unsigned char)b[i]);
	buf[i] = '\0';
	*depth = 0;
	for (; b > v; b--)
		*depth += b[-1] == '/';
	return true;
}

static const char *fname_sort_strings;

static int cmp_fname(const void *x, const void *y)
{
	const struct img_fname *a = x, *b = y;
	int c;

	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	c = strcmp(fname_sort_strings + a->text, fname_sort_strings + b->text);
	if (c)
		return c;
	if (a->depth != b->depth)
		return a->depth < b->depth ? -1 : 1;
	return a->section < b->section ? -1 : a->section > b->section;
}

/*
 * list_name_of - the name of an L: list as a subject prefix names it:
 * its local part in lower case, without "linux-" (as list_matches() in
 * sections.c read them)
 */
static bool list_name_of(const char *v, char *buf, size_t size)
{
	const char *at = strchr(v, '@');
	size_t i;

	if (!strncasecmp(v, "linux-", 6))
		v += 6;
	if (!at || at <= v || (size_t)(at - v) >= size)
		return false;
	for (i = 0; v + i < at; i++)
		buf[i] = (char)tolower((unsigned char)v[i]);
	buf[i] = '\0';
	return true;
}

/*
 * project_name_of - the list a Q: patchwork project is named after
 * ("https://patchwork.kernel.org/project/alsa-devel/list/": "alsa-devel",
 * as list_name_of() names lists): a list that left MAINTAINERS
 * (alsa-devel@alsa-project.org, now linux-sound@) keeps its project
 */
static bool project_name_of(const char *v, char *buf, size_t size)
{
	const char *p = strstr(v, "/project/"), *e;
	size_t i;

	if (!p)
		return false;
	p += 9;
	if (!strncasecmp(p, "linux-", 6))
		p += 6;
	for (e = p; *e && *e != '/' && *e != ' '; e++)
		;
	if (e == p || (size_t)(e - p) >= size)
		return false;
	for (i = 0; p + i < e; i++)
		buf[i] = (char)tolower((unsigned char)p[i]);
	buf[i] = '\0';
	return true;
}

/* fnames_of - the names of F: patterns and L: lists, and of Q: patchwork
 * projects as lists (struct img_fname) */
static void fnames_of(const struct maintainers *m, struct map_people *out)
{
	struct strbuf fs = STRBUF_INIT(UINT32_MAX / 4);
	size_t i, j, n = 0, cap = 0;
	char name[256], rest[8][256];
	size_t nrest = 0, r;
	uint32_t depth;

	/* a catch-all's list (LKML) names no subsystem */
	for (i = 0; i < m->nsections; i++)
		for (j = 0; mnt_catchall(&m->sections[i]) &&
			    j < m->sections[i].nentries && nrest < 8;
		     j++)
			if (m->sections[i].entries[j].tag == 'L' &&
			    list_name_of(m->sections[i].entries[j].value,
					 rest[nrest], sizeof(rest[0])))
				nrest++;

	for (i = 0; i < m->nsections; i++) {
		const struct mnt_section *s = &m->sections[i];

		for (j = 0; j < s->nentries; j++) {
			const char *v = s->entries[j].value;
			uint32_t kind = FNAME_FILE;

			depth = 0;
			if (s->entries[j].tag == 'L') {
				if (!list_name_of(v, name, sizeof(name)))
					continue;
				for (r = 0; r < nrest && strcmp(rest[r], name);
				     r++)
					;
				if (r < nrest)
					continue;
				kind = FNAME_LIST;
			} else if (s->entries[j].tag == 'Q') {
				if (!project_name_of(v, name, sizeof(name)))
					continue;
				kind = FNAME_LIST;
			} else if (s->entries[j].tag != 'F' ||
				   !fname_of(v, name, sizeof(name), &depth)) {
				continue;
			}
			if (n == cap) {
				cap = cap ? 2 * cap : 1024;
				out->fnames = xreallocarray(
					out->fnames, cap, sizeof(*out->fnames));
			}
			out->fnames[n].kind = kind;
			out->fnames[n].text = (uint32_t)fs.len;
			out->fnames[n].section = (uint32_t)i;
			out->fnames[n].depth = depth;
			n++;
			sb_add(&fs, name, strlen(name) + 1);
		}
	}
	fname_sort_strings = fs.buf;
	if (n)
		qsort(out->fnames, n, sizeof(*out->fnames), cmp_fname);
	fname_sort_strings = NULL;
	out->nfnames = n;
	out->fstrings_size = fs.len;
	out->fstrings = sb_detach(&fs, NULL);
}

/* map_people_build - the tables after the first ones, compiled from m */
void map_people_build(const struct map *map, const struct maintainers *m,
		      struct map_people *out)
{
	size_t ns = m->nsections, i, *ord;
	struct people pp;

	memset(out, 0, sizeof(*out));
	memset(&pp, 0, sizeof(pp));
	pp.umb = xcalloc(ns + 1, sizeof(*pp.umb));
	pp.numb = xcalloc(ns + 1, sizeof(*pp.numb));
	pp.owns = xcalloc(ns + 1, sizeof(*pp.owns));
	pp.rest = xcalloc(ns + 1, sizeof(*pp.rest));
	for (i = 0; i < ns; i++) {
		pp.rest[i] = mnt_catchall(&m->sections[i]);
		pp.owns[i] = !pp.rest[i] && owns_source(&m->sections[i]);
	}
	for (i = 0; i < ns; i++)
		if (!pp.rest[i])
			umbrellas_of(map, m, &pp, (uint32_t)i);
	nest_of(&pp, ns, out);
	records_of(&pp, m);
	ord = xcalloc(pp.n + 1, sizeof(*ord));
	for (i = 0; i < pp.n; i++)
		ord[i] = i;
	people_sort_ctx = &pp;
	qsort(ord, pp.n, sizeof(*ord), cmp_record);
	people_sort_ctx = NULL;
	index_of(&pp, m, ord, out);
	fnames_of(m, out);
	for (i = 0; i < ns; i++)
		free(pp.umb[i]);
	for (i = 0; i < pp.n; i++)
		free(pp.addr[i]);
	free(pp.addr);
	free(pp.sec);
	free(pp.tag);
	free(pp.umb);
	free(pp.numb);
	free(pp.owns);
	free(pp.rest);
	free(ord);
}

void map_people_release(struct map_people *pp)
{
	free(pp->nest_start);
	free(pp->nest);
	free(pp->addrs);
	free(pp->ahits);
	free(pp->astrings);
	free(pp->fnames);
	free(pp->fstrings);
	memset(pp, 0, sizeof(*pp));
}
