// SPDX-License-Identifier: GPL-2.0-only
/*
 * map - file paths to MAINTAINERS sections (see map.h)
 *
 * The image is a header followed by arrays, each 8-byte aligned, in
 * the order a message reads them:
 *
 *	regex     pcre2_serialize_encode() blob     (decoded by map_open)
 *	titles    uint32_t[257], uint32_t[nsections] (sections by initial)
 *	buckets   struct img_bucket[nbuckets]       (open addressing)
 *	patterns  struct img_pattern[npatterns]     (lookup order)
 *	kpats     uint32_t[nkpats]                  (K: patterns, file order)
 *	klits     struct img_klit[nklits]           (K: prefilter literals)
 *	strings   NUL-terminated, referenced by offset
 *	sections  struct img_section[nsections]
 *	entries   struct img_entry[nentries]        (section order)
 *	nest, addrs, ahits, astrings                (format 5: map_people.c)
 *	fnames    struct img_fname[nfnames]         (format 6: the names
 *	fstrings  NUL-terminated                     F: patterns end in and
 *	                                             of lists, sorted)
 *
 * A bucket's key is a directory ("" or "drivers/net/") that is the
 * literal start of each of its patterns.  A pattern can only match a
 * path if that directory is one of the path's directory prefixes, so a
 * lookup probes one bucket per directory level of the path and tries
 * only those patterns plus the always list (N: regexes and patterns
 * that start with a wildcard).
 *
 * The patterns are stored in the order a lookup tries them, not in
 * MAINTAINERS order (which each keeps as seq): the always list first,
 * then each bucket's patterns together, then the K: patterns; their
 * texts lie in the strings in that order, after the titles, which are
 * grouped by initial (titles: where each initial's run starts, then
 * the runs).  A message then reads a few runs of the image, not pages
 * all over it: the kernel maps a file's pages 64 KB at a time
 * (fault-around), and format 3, in MAINTAINERS order, had the filter
 * map all 2.1 MB of Linux's index to read 138 pages of it.
 *
 * kpats and klits are what map_keywords() needs, derived once here
 * rather than in every process: the K: patterns in file order, and the
 * lower-case literals of their prefilter (see required_literals()),
 * each naming its pattern by position in kpats.  A K: pattern whose
 * literals cannot prefilter it has PAT_KALWAYS: its regex always runs.
 */
#define PCRE2_CODE_UNIT_WIDTH 8

#include <errno.h>
#include <fcntl.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hash.h"
#include "hashmap.h"
#include "image.h"
#include "litset.h"
#include "maintainers.h"
#include "map.h"
#include "map_glob.h"
#include "map_people.h"
#include "strbuf.h"
#include "util.h"

#define MAP_MAGIC   "TRIAGEMX"
#define MAP_VERSION 6
#define MAP_ENDIAN  0x01020304u
#define NONE	    UINT32_MAX

/* Regex limits: MAINTAINERS is trusted, paths and report text are not. */
#define REGEX_MATCH_LIMIT 100000
#define REGEX_DEPTH_LIMIT 10000
#define KEYWORD_TEXT_MAX  (64u << 10)
#define PATH_MAX_LEN	  4096

enum {
	MAPF_TREE = 1, /* directory patterns were resolved on disk */
};

enum {
	PAT_SLASH = 1,	     /* ends in "/": subtree match */
	PAT_REGEX = 2,	     /* needs pcre2 (not a plain glob) */
	PAT_FILE_OR_DIR = 4, /* no tree: may name a file or a directory */
	PAT_BAD = 8,	     /* regex did not compile: never matches */
	PAT_KALWAYS = 16,    /* K: without a usable literal prefilter */
};

struct img_header {
	char magic[8];
	uint32_t version, endian, size, flags;
	uint32_t nsections, nentries, npatterns, nbuckets, nalways, nregex;
	uint32_t off_sections, off_entries, off_patterns, off_buckets;
	uint32_t off_titles, off_strings, strings_size;
	uint32_t off_regex, regex_size;
	uint32_t nkpats, off_kpats, nklits, off_klits;
	/* format 5: umbrellas and the address index (see add_people()) */
	uint32_t nnest, off_nest_start, off_nest;
	uint32_t naddrs, off_addrs, nahits, off_ahits;
	uint32_t off_astrings, astrings_size;
	/* format 6: the names F: patterns end in (see add_people()) */
	uint32_t nfnames, off_fnames, off_fstrings, fstrings_size;
	uint32_t pad;
	uint64_t regex_sum; /* img_sum() of the regex blob */
};

/* titles: TITLE_RUNS + 1 run starts, then the section ids */
#define TITLE_RUNS 256

struct img_section {
	uint32_t title, source, line;
	uint32_t first_entry, nentries;
};

struct img_entry {
	uint32_t value, line, tag;
};

struct img_pattern {
	uint32_t section;
	uint32_t text;	 /* glob as written, "/" appended for directories */
	uint32_t regex;	 /* index into the regex table, or NONE */
	int32_t depth;	 /* get_maintainer.pl depth (F/X) */
	uint16_t kind;	 /* 'F', 'X', 'N' or 'K' */
	uint16_t flags;	 /* PAT_* */
	uint32_t nslash; /* "/" in the pattern */
	uint32_t lit;	 /* K: literals one of which every match contains */
	uint32_t seq;	 /* position in MAINTAINERS order */
};

struct img_klit {
	uint32_t text; /* string offset: a literal of at least 2 bytes */
	uint32_t kpat; /* index into kpats, the pattern it prefilters */
};

struct img_bucket {
	uint32_t hash;	       /* hash_mem() of the key (hash.h) */
	uint32_t len;	       /* the key: the first len bytes of each text */
	uint32_t first, count; /* patterns[first..]; count 0: empty */
};

struct map {
	unsigned char *base;
	size_t size;
	bool mapped;
	const struct img_header *h;
	const struct img_section *sections;
	const struct img_entry *entries;
	const struct img_pattern *patterns;
	const struct img_bucket *buckets;
	const uint32_t *titles, *kpats; /* titles: run starts, then ids */
	const struct img_klit *klits_img;
	const char *strings;
	const uint32_t *nest_start, *nest; /* umbrellas of each section */
	const struct img_addr *addrs;
	const struct img_ahit *ahits;
	const char *astrings;
	const struct img_fname *fnames;
	const char *fstrings;
	pcre2_code **regex;
	uint32_t nregex;
	pcre2_match_data *md;
	pcre2_match_context *mctx;
	/* K: prefilter over the image's literals, built on first use */
	struct litset *klits;
	bool *kfound; /* per kpats entry, for one map_keywords() call */
	bool warned;  /* a damaged element was met */
};

/* ---- pattern analysis ------------------------------------------------ */

/*
 * glob_prefix - does some prefix of s match the glob p?
 *
 * This is the regex m@^CONVERTED@ for globs of literals, "*", "?" and
 * simple classes: "*" (".*") may cross "/", "?" (".") is one character.
 */
static bool glob_prefix(const char *p, const char *s)
{
	for (;;) {
		switch (*p) {
		case '\0':
			return true;
		case '*':
			while (*p == '*')
				p++;
			if (!*p)
				return true;
			for (;; s++) {
				if (glob_prefix(p, s))
					return true;
				if (!*s)
					return false;
			}
		case '?':
			if (!*s)
				return false;
			p++;
			s++;
			break;
		case '[': {
			const char *e = glob_class_end(p), *q = p + 1;
			bool neg = false, hit = false;
			unsigned char c = (unsigned char)*s;

			if (!*s || !e)
				return false;
			if (*q == '^') {
				neg = true;
				q++;
			}
			if (q < e && *q == ']') {
				hit = c == ']';
				q++;
			}
			for (; q < e; q++) {
				if (q + 2 < e && q[1] == '-') {
					hit |= c >= (unsigned char)q[0] &&
					       c <= (unsigned char)q[2];
					q += 2;
				} else {
					hit |= c == (unsigned char)*q;
				}
			}
			if (hit == neg)
				return false;
			p = e + 1;
			s++;
			break;
		}
		default:
			if (*p != *s)
				return false;
			p++;
			s++;
		}
	}
}

/* ---- building the image ---------------------------------------------- */

struct builder {
	struct strbuf strings;
	struct img_section *sections;
	size_t nsections, sections_alloc;
	struct img_entry *entries;
	size_t nentries, entries_alloc;
	struct img_pattern *patterns;
	size_t npatterns, patterns_alloc;
	/* per pattern: glob_bucket_key_len(), its text and K: literals */
	long *keylen;
	char **text, **lit;
	size_t keylen_alloc;
	pcre2_code **regex;
	size_t nregex, regex_alloc;
};

static uint32_t add_string(struct builder *b, const char *s)
{
	uint32_t off = (uint32_t)b->strings.len;

	if (sb_add(&b->strings, s, strlen(s) + 1) < 0)
		die("MAINTAINERS index: string table too large");
	return off;
}

static uint32_t compile_regex(struct builder *b, const char *re,
			      uint32_t options, const char *where)
{
	int err;
	PCRE2_SIZE off;
	pcre2_code *code;

	code = pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED,
			     options | PCRE2_NO_UTF_CHECK, &err, &off, NULL);
	if (!code) {
		PCRE2_UCHAR msg[256];

		pcre2_get_error_message(err, msg, sizeof(msg));
		warn("%s: pattern '%s' does not compile (%s); ignored", where,
		     re, (const char *)msg);
		return NONE;
	}
	ALLOC_GROW(b->regex, b->nregex, b->regex_alloc);
	b->regex[b->nregex] = code;
	return (uint32_t)b->nregex++;
}

/*
 * Required literals of K: regexes (Perl /x).  For each top-level branch
 * of the pattern, the longest run of literal characters every match of
 * that branch contains -- or, when the branch has none, the words of a
 * mandatory group that is a plain alternation ("(pstore|ramoops)").
 * The pattern's set is the union over its branches, kept lower-case and
 * matched against a lower-cased copy of the text, which is right for
 * case-sensitive and (?i) patterns alike.  A branch without either gives
 * no set (pcre2 always runs).  Groups, classes and escapes break a run;
 * a character or group made optional by "?", "*" or "{" does not count.
 * map_keywords() then skips pcre2 for a text containing none of the
 * set: without it, a pattern such as "[^@]sifive" alone costs more than
 * the rest of the mapping of a report.
 */
#define LIT_MAX	   128
#define LITSET_MAX 512

struct litacc {
	char set[LITSET_MAX]; /* "a\nb\n" */
	size_t len;
	bool ok;
};

static void lit_add(struct litacc *a, const char *w, size_t n)
{
	size_t i;

	if (a->len + n + 2 > sizeof(a->set)) {
		a->ok = false;
		return;
	}
	for (i = 0; i < n; i++) {
		char c = w[i];

		a->set[a->len++] =
			(c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
	}
	a->set[a->len++] = '\n';
	a->set[a->len] = '\0';
}

/* group_words - "(?:a|bc)" or "(?i:a|b)" of plain words, else -1 */
static int group_words(const char *g, size_t n, struct litacc *a)
{
	const char *p = g, *end = g + n, *w;

	if (n >= 2 && p[0] == '?') {
		if (p[1] == ':')
			p += 2;
		else if (n >= 3 && p[1] == 'i' && p[2] == ':')
			p += 3;
		else
			return -1;
	}
	for (w = p; p <= end; p++) {
		if (p == end || *p == '|') {
			if (p - w < 3)
				return -1;
			lit_add(a, w, (size_t)(p - w));
			w = p + 1;
			continue;
		}
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
			return -1;
	}
	return 0;
}

/* branch_literal - add one top-level branch's literal; false if none */
static bool branch_literal(const char *b, size_t n, struct litacc *a)
{
	char best[LIT_MAX], run[LIT_MAX];
	size_t rl = 0, bl = 0, i;
	const char *grp = NULL;
	size_t grplen = 0;

#define FLUSH()                                \
	do {                                   \
		if (rl > bl) {                 \
			memcpy(best, run, rl); \
			bl = rl;               \
		}                              \
		rl = 0;                        \
	} while (0)

	for (i = 0; i < n; i++) {
		char c = b[i];

		if (c == ' ' || c == '\t' || c == '\n')
			continue; /* /x: white space is not part of the pattern */
		if (c == '#')
			break;
		if (c == '(') {
			size_t depth = 1, j = i + 1;

			FLUSH();
			while (j < n && depth) {
				if (b[j] == '\\' && j + 1 < n)
					j++;
				else if (b[j] == '(')
					depth++;
				else if (b[j] == ')')
					depth--;
				j++;
			}
			if (depth)
				return false;
			/* a mandatory group of words, if nothing better */
			if (!(j < n &&
			      (b[j] == '?' || b[j] == '*' || b[j] == '{')) &&
			    !grp) {
				grp = b + i + 1;
				grplen = j - i - 2;
			}
			i = j - 1;
			continue;
		}
		if (c == '[') {
			FLUSH();
			i++;
			if (i < n && b[i] == '^')
				i++;
			if (i < n && b[i] == ']')
				i++;
			while (i < n && b[i] != ']') {
				if (b[i] == '\\')
					i++;
				i++;
			}
			if (i >= n)
				return false;
			continue;
		}
		if (c == '?' || c == '*' || c == '{') {
			if (rl)
				rl--; /* the character before is optional */
			FLUSH();
			if (c == '{')
				while (i + 1 < n && b[i] != '}')
					i++;
			continue;
		}
		if (c == '+' || c == '.' || c == '^' || c == '$' || c == ')') {
			FLUSH();
			continue;
		}
		if (c == '\\') {
			char e = i + 1 < n ? b[i + 1] : '\0';

			if (!e)
				break;
			i++;
			if ((e >= 'a' && e <= 'z') || (e >= 'A' && e <= 'Z') ||
			    (e >= '0' && e <= '9')) {
				FLUSH(); /* \b \s \w \d ...: not a character */
				continue;
			}
			c = e;
		}
		if (rl + 1 < sizeof(run))
			run[rl++] = c;
	}
	FLUSH();
#undef FLUSH
	if (bl >= 3) {
		lit_add(a, best, bl);
		return true;
	}
	return grp && group_words(grp, grplen, a) == 0;
}

/* required_literals - the set for a K: regex ("" when there is none) */
static char *required_literals(const char *re)
{
	struct litacc a;
	const char *p = re, *b = re;
	int depth = 0;
	bool cls = false;

	a.len = 0;
	a.set[0] = '\0';
	a.ok = true;
	for (;; p++) {
		if (*p == '\\' && p[1]) {
			p++;
			continue;
		}
		if (cls) {
			cls = *p != ']';
			if (!*p)
				return xstrdup("");
			continue;
		}
		if (*p == '[')
			cls = true;
		else if (*p == '(')
			depth++;
		else if (*p == ')')
			depth--;
		if (*p == '\0' || (*p == '|' && depth == 0)) {
			if (!branch_literal(b, (size_t)(p - b), &a) || !a.ok)
				return xstrdup("");
			if (!*p)
				break;
			b = p + 1;
		}
	}
	return xstrdup(a.set);
}

/*
 * build_keywords - the K: patterns in file order and the literals that
 * prefilter them.  A set that litset cannot take as it is (a literal
 * with "^" or "$", which it reads as anchors, an empty line, one under
 * two bytes) or a pattern past litset's 16-bit ids makes the pattern
 * PAT_KALWAYS; literals before a short one stay, as harmless as before.
 */
static void build_keywords(struct builder *b, uint32_t **kpats_out,
			   size_t *nkpats_out, struct img_klit **klits_out,
			   size_t *nklits_out)
{
	uint32_t *kpats = NULL;
	struct img_klit *klits = NULL;
	size_t nk = 0, kalloc = 0, nl = 0, lalloc = 0, i;

	for (i = 0; i < b->npatterns; i++) {
		struct img_pattern *p = &b->patterns[i];
		char *set, *q;
		const char *w;
		bool usable;

		if (p->kind != 'K')
			continue;
		ALLOC_GROW(kpats, nk, kalloc);
		kpats[nk] = (uint32_t)i;
		/* add_string() may move the table: work on a copy */
		set = xstrdup(b->strings.buf + p->lit);
		usable = *set && nk < UINT16_MAX;
		for (q = set; usable && *q; q++)
			if (*q == '^' || *q == '$' ||
			    (*q == '\n' && (q == set || q[-1] == '\n')))
				usable = false;
		if (!usable)
			p->flags |= PAT_KALWAYS;
		for (w = set; usable && *w;) {
			const char *nl_at = strchr(w, '\n');
			size_t n = nl_at ? (size_t)(nl_at - w) : strlen(w);
			char *lit;

			if (n < 2) {
				p->flags |= PAT_KALWAYS;
				break;
			}
			lit = xmemdup0(w, n);
			ALLOC_GROW(klits, nl, lalloc);
			klits[nl].text = add_string(b, lit);
			klits[nl].kpat = (uint32_t)nk;
			nl++;
			free(lit);
			w += n + (nl_at ? 1 : 0);
		}
		free(set);
		nk++;
	}
	*kpats_out = kpats;
	*nkpats_out = nk;
	*klits_out = klits;
	*nklits_out = nl;
}

/* dir_on_disk - get_maintainer.pl's "-d $value" for a converted pattern */
static bool dir_on_disk(const char *tree, const char *glob)
{
	char *p;
	bool d;

	/* After conversion only a pattern without . * ? can name a dir. */
	if (strpbrk(glob, ".*?"))
		return false;
	p = xasprintf("%s/%s", tree, glob);
	d = is_dir(p);
	free(p);
	return d;
}

static void add_pattern(struct builder *b, uint32_t sec,
			const struct mnt_entry *e, const char *tree,
			const char *source)
{
	struct img_pattern *pt;
	char where[512];
	char *glob = NULL, *conv = NULL;
	const char *v = e->value;
	long key = -1;

	snprintf(where, sizeof(where), "%s:%u", source, e->line);
	ALLOC_GROW(b->patterns, b->npatterns, b->patterns_alloc);
	if (b->npatterns >= b->keylen_alloc) {
		b->keylen_alloc = b->patterns_alloc;
		b->keylen = xreallocarray(b->keylen, b->keylen_alloc,
					  sizeof(*b->keylen));
		b->text = xreallocarray(b->text, b->keylen_alloc,
					sizeof(*b->text));
		b->lit =
			xreallocarray(b->lit, b->keylen_alloc, sizeof(*b->lit));
	}
	pt = &b->patterns[b->npatterns];
	memset(pt, 0, sizeof(*pt));
	pt->section = sec;
	pt->kind = (uint16_t)e->tag;
	pt->regex = NONE;
	b->lit[b->npatterns] = NULL;

	if (e->tag == 'N' || e->tag == 'K') {
		b->text[b->npatterns] = xstrdup(v);
		if (e->tag == 'K')
			b->lit[b->npatterns] = required_literals(v);
		pt->regex = compile_regex(b, v, PCRE2_EXTENDED, where);
		if (pt->regex == NONE)
			pt->flags |= PAT_BAD;
		b->keylen[b->npatterns++] = -1;
		return;
	}

	/* F: or X: */
	size_t n = strlen(v);

	if (n && v[n - 1] == '/') {
		glob = xstrdup(v);
		pt->flags |= PAT_SLASH;
	} else if (tree && dir_on_disk(tree, v)) {
		glob = xasprintf("%s/", v);
		pt->flags |= PAT_SLASH;
	} else {
		glob = xstrdup(v);
		if (!tree && !strpbrk(v, ".*?"))
			pt->flags |= PAT_FILE_OR_DIR;
	}
	b->text[b->npatterns] = xstrdup(glob);
	pt->nslash = (uint32_t)count_char(glob, strlen(glob), '/');
	pt->depth = (int32_t)pt->nslash + !(pt->flags & PAT_SLASH);
	if (glob[0] == '*')
		pt->depth = -1;
	if (glob_needs_regex(glob)) {
		char *re;

		conv = glob_to_regex(glob);
		re = xasprintf("^%s", conv);
		pt->flags |= PAT_REGEX;
		pt->regex = compile_regex(b, re, 0, where);
		if (pt->regex == NONE)
			pt->flags |= PAT_BAD;
		free(re);
		key = glob_bucket_key_len(glob, true);
	} else {
		key = glob_bucket_key_len(glob, false);
	}
	b->keylen[b->npatterns++] = key;
	free(glob);
	free(conv);
}

static struct map *map_from_buffer(unsigned char *base, size_t size,
				   bool mapped, const char *what);
static struct map *add_people(struct map *map, const struct maintainers *m);

/* title_run - the run of the title index a title or name belongs to:
 * its first byte with bit 5 set, so that either case of a letter falls
 * in one run (a superset of what strcasecmp() equates) */
static unsigned title_run(const char *t)
{
	return (unsigned char)t[0] | 0x20;
}

/* key_equal - pattern texts a and b start with the same len bytes */
static bool key_equal(const char *a, const char *b, size_t len)
{
	return strlen(a) >= len && strlen(b) >= len && memcmp(a, b, len) == 0;
}

/* What map_compile() lays out besides the builder's own arrays. */
struct layout {
	uint32_t *tindex; /* TITLE_RUNS + 1 run starts, then section ids */
	uint32_t *titles; /* per section: its title in the strings */
	struct img_bucket *buckets;
	size_t nbuckets, nalways;
	uint32_t *kpats;
	struct img_klit *klits;
	size_t nkpats, nklits;
};

/*
 * lay_titles - the title index: sections by title_run(), in MAINTAINERS
 * order within a run, and their titles in the strings in that order (a
 * subject prefix such as "xfs:" reads only the titles of its run)
 */
static void lay_titles(struct builder *b, const struct maintainers *m,
		       struct layout *lo)
{
	size_t i, ns = m->nsections;
	uint32_t *tindex, *titles, *pos;

	tindex = xcalloc(TITLE_RUNS + 1 + ns, sizeof(*tindex));
	titles = xcalloc(ns ? ns : 1, sizeof(*titles));
	for (i = 0; i < ns; i++)
		tindex[title_run(m->sections[i].title) + 1]++;
	for (i = 0; i < TITLE_RUNS; i++)
		tindex[i + 1] += tindex[i];
	pos = xcalloc(TITLE_RUNS, sizeof(*pos));
	memcpy(pos, tindex, TITLE_RUNS * sizeof(*pos));
	for (i = 0; i < ns; i++)
		tindex[TITLE_RUNS + 1 +
		       pos[title_run(m->sections[i].title)]++] = (uint32_t)i;
	free(pos);
	for (i = 0; i < ns; i++) {
		uint32_t sec = tindex[TITLE_RUNS + 1 + i];

		titles[sec] = add_string(b, m->sections[sec].title);
	}
	lo->tindex = tindex;
	lo->titles = titles;
}

/* the keys seen, by the pattern that first had each (key_ids) */
struct keyrep {
	const struct builder *b;
	const uint32_t *keyrep;
};

/* same_key - key id has the key of pattern *pat */
static bool same_key(const void *data, uint32_t id, const void *pat)
{
	const struct keyrep *kr = data;
	uint32_t i = *(const uint32_t *)pat, r = kr->keyrep[id];

	return kr->b->keylen[r] == kr->b->keylen[i] &&
	       key_equal(kr->b->text[r], kr->b->text[i],
			 (size_t)kr->b->keylen[i]);
}

/*
 * key_ids - bucket keys: each keyed pattern gets the id of its key
 * (*keyof, NONE for the others), each key the pattern that first had it
 * (*keyrep), through a scratch table; returns the number of keys
 */
static size_t key_ids(const struct builder *b, uint32_t **keyof_out,
		      uint32_t **keyrep_out)
{
	uint32_t *keyof, *keyrep;
	struct hashmap keys;
	struct keyrep kr;
	size_t i, nkeys = 0, nkeyed = 0;

	for (i = 0; i < b->npatterns; i++)
		if (b->patterns[i].kind != 'K' && b->keylen[i] >= 0)
			nkeyed++;
	keyof = xcalloc(b->npatterns ? b->npatterns : 1, sizeof(*keyof));
	keyrep = xcalloc(nkeyed ? nkeyed : 1, sizeof(*keyrep));
	kr.b = b;
	kr.keyrep = keyrep;
	hashmap_init(&keys, same_key, &kr, nkeyed);
	for (i = 0; i < b->npatterns; i++) {
		uint32_t pat = (uint32_t)i;

		if (b->patterns[i].kind == 'K' || b->keylen[i] < 0) {
			keyof[i] = NONE;
			continue;
		}
		keyof[i] = hashmap_put(
			&keys, hash_mem(b->text[i], (size_t)b->keylen[i]), &pat,
			(uint32_t)nkeys);
		if (keyof[i] == nkeys)
			keyrep[nkeys++] = pat;
	}
	hashmap_release(&keys);
	*keyof_out = keyof;
	*keyrep_out = keyrep;
	return nkeys;
}

/*
 * lay_buckets - the image's table of keys, at most half full, each
 * bucket with the count of its patterns; returns each key's bucket
 */
static uint32_t *lay_buckets(const struct builder *b, const uint32_t *keyof,
			     const uint32_t *keyrep, size_t nkeys,
			     struct layout *lo)
{
	struct img_bucket *buckets;
	uint32_t *keyslot;
	size_t i, slot, nbuckets;

	for (nbuckets = 16; nbuckets < 2 * nkeys + 16; nbuckets *= 2)
		;
	buckets = xcalloc(nbuckets, sizeof(*buckets));
	keyslot = xcalloc(nkeys ? nkeys : 1, sizeof(*keyslot)); /* bucket */
	for (i = 0; i < nkeys; i++) {
		const char *t = b->text[keyrep[i]];
		size_t len = (size_t)b->keylen[keyrep[i]];
		uint32_t hv = hash_mem(t, len);

		slot = hv & (nbuckets - 1);
		while (buckets[slot].count)
			slot = (slot + 1) & (nbuckets - 1);
		buckets[slot].hash = hv;
		buckets[slot].len = (uint32_t)len;
		buckets[slot].count = 1; /* taken; counted below */
		keyslot[i] = (uint32_t)slot;
	}
	for (i = 0; i < nbuckets; i++)
		buckets[i].count = 0;
	for (i = 0; i < b->npatterns; i++)
		if (keyof[i] != NONE)
			buckets[keyslot[keyof[i]]].count++;
		else if (b->patterns[i].kind != 'K')
			lo->nalways++;
	lo->buckets = buckets;
	lo->nbuckets = nbuckets;
	return keyslot;
}

/*
 * lay_patterns - lookup order: the always list, then the buckets'
 * patterns in table order, then the K: patterns; MAINTAINERS order
 * within each; their texts (and K: literals) in the same order
 */
static void lay_patterns(struct builder *b, const uint32_t *keyof,
			 const uint32_t *keyslot, struct layout *lo)
{
	struct img_bucket *buckets = lo->buckets;
	struct img_pattern *order;
	uint32_t *pos;
	size_t i, slot, next = lo->nalways;

	for (i = 0; i < lo->nbuckets; i++) {
		buckets[i].first = (uint32_t)next;
		next += buckets[i].count;
	}
	pos = xcalloc(lo->nbuckets, sizeof(*pos));
	order = xcalloc(b->npatterns ? b->npatterns : 1, sizeof(*order));
	{
		size_t na = 0, nk = next;

		for (i = 0; i < b->npatterns; i++) {
			size_t at;

			if (keyof[i] != NONE) {
				slot = keyslot[keyof[i]];
				at = buckets[slot].first + pos[slot]++;
			} else if (b->patterns[i].kind != 'K') {
				at = na++;
			} else {
				at = nk++;
			}
			order[at] = b->patterns[i];
			order[at].seq = (uint32_t)i;
		}
	}
	free(pos);
	for (i = 0; i < b->npatterns; i++) {
		uint32_t seq = order[i].seq;

		order[i].text = add_string(b, b->text[seq]);
		order[i].lit = b->lit[seq] ? add_string(b, b->lit[seq]) : 0;
	}
	for (i = 0; i < b->npatterns; i++) {
		free(b->text[i]);
		free(b->lit[i]);
	}
	free(b->patterns);
	b->patterns = order;
}

/* add_sections - the sections and their entries, as the image has them */
static void add_sections(struct builder *b, const struct maintainers *m,
			 const uint32_t *titles)
{
	uint32_t source = 0;
	const char *last_source = NULL;
	size_t i, j;

	for (i = 0; i < m->nsections; i++) {
		const struct mnt_section *s = &m->sections[i];
		const char *src = s->source ? s->source : "";
		struct img_section *is;

		ALLOC_GROW(b->sections, b->nsections, b->sections_alloc);
		is = &b->sections[b->nsections++];
		is->title = titles[i];
		/* one copy of each file's name where sections repeat it */
		if (!last_source || strcmp(last_source, src) != 0)
			source = add_string(b, src);
		last_source = src;
		is->source = source;
		is->line = s->line;
		is->first_entry = (uint32_t)b->nentries;
		is->nentries = (uint32_t)s->nentries;
		for (j = 0; j < s->nentries; j++) {
			const struct mnt_entry *e = &s->entries[j];
			struct img_entry *ie;

			ALLOC_GROW(b->entries, b->nentries, b->entries_alloc);
			ie = &b->entries[b->nentries++];
			ie->value = add_string(b, e->value);
			ie->line = e->line;
			ie->tag = (uint32_t)(unsigned char)e->tag;
		}
	}
}

/*
 * write_image - the header and the arrays, in the order the file has
 * them (see the top of this file), into img; frees what b and lo hold
 */
static void write_image(struct builder *b, struct layout *lo, size_t ns,
			const char *tree, struct strbuf *img)
{
	struct img_header h;
	unsigned char *regex_blob = NULL;
	PCRE2_SIZE regex_size = 0;
	size_t i;

	if (b->nregex) {
		int rc = pcre2_serialize_encode((const pcre2_code **)b->regex,
						(int32_t)b->nregex, &regex_blob,
						&regex_size, NULL);
		if (rc < 0)
			die("cannot serialise MAINTAINERS regexes (%d)", rc);
	}

	memset(&h, 0, sizeof(h));
	memcpy(h.magic, MAP_MAGIC, 8);
	h.version = MAP_VERSION;
	h.endian = MAP_ENDIAN;
	h.flags = tree ? MAPF_TREE : 0;
	h.nsections = (uint32_t)b->nsections;
	h.nentries = (uint32_t)b->nentries;
	h.npatterns = (uint32_t)b->npatterns;
	h.nbuckets = (uint32_t)lo->nbuckets;
	h.nalways = (uint32_t)lo->nalways;
	h.nregex = (uint32_t)b->nregex;
	h.nkpats = (uint32_t)lo->nkpats;
	h.nklits = (uint32_t)lo->nklits;
	sb_add(img, &h, sizeof(h));
	h.off_regex = img_place(img, regex_blob ? (void *)regex_blob : "",
				regex_size, "MAINTAINERS index");
	h.regex_size = (uint32_t)regex_size;
	h.regex_sum = img_sum(regex_blob ? (void *)regex_blob : "", regex_size);
	h.off_titles = img_place(img, lo->tindex,
				 (TITLE_RUNS + 1 + ns) * sizeof(*lo->tindex),
				 "MAINTAINERS index");
	h.off_buckets =
		img_place(img, lo->buckets, lo->nbuckets * sizeof(*lo->buckets),
			  "MAINTAINERS index");
	h.off_patterns =
		img_place(img, b->patterns, b->npatterns * sizeof(*b->patterns),
			  "MAINTAINERS index");
	h.off_kpats =
		img_place(img, lo->kpats ? (void *)lo->kpats : "",
			  lo->nkpats * sizeof(*lo->kpats), "MAINTAINERS index");
	h.off_klits =
		img_place(img, lo->klits ? (void *)lo->klits : "",
			  lo->nklits * sizeof(*lo->klits), "MAINTAINERS index");
	h.off_strings = img_place(img, b->strings.buf, b->strings.len,
				  "MAINTAINERS index");
	h.strings_size = (uint32_t)b->strings.len;
	h.off_sections =
		img_place(img, b->sections, b->nsections * sizeof(*b->sections),
			  "MAINTAINERS index");
	h.off_entries =
		img_place(img, b->entries, b->nentries * sizeof(*b->entries),
			  "MAINTAINERS index");
	h.size = (uint32_t)img->len;
	memcpy(img->buf, &h, sizeof(h));

	if (regex_blob)
		pcre2_serialize_free(regex_blob);
	for (i = 0; i < b->nregex; i++)
		pcre2_code_free(b->regex[i]);
	free(b->regex);
	free(lo->tindex);
	free(lo->titles);
	free(lo->buckets);
	free(lo->kpats);
	free(lo->klits);
	free(b->keylen);
	free(b->text);
	free(b->lit);
	free(b->sections);
	free(b->entries);
	free(b->patterns);
	sb_release(&b->strings);
}

/*
 * map_compile - build the image for a parsed MAINTAINERS model
 *
 * tree, when not NULL, is the source tree used to decide whether a
 * pattern without a trailing "/" names a directory.
 */
struct map *map_compile(const struct maintainers *m, const char *tree)
{
	struct builder b;
	struct layout lo = { 0 };
	uint32_t *keyof, *keyrep, *keyslot;
	size_t i, j, nkeys;
	struct strbuf img = STRBUF_INIT(UINT32_MAX / 2);

	memset(&b, 0, sizeof(b));
	sb_init(&b.strings, UINT32_MAX / 4);
	add_string(&b, ""); /* offset 0 is the empty string */

	lay_titles(&b, m, &lo);
	for (i = 0; i < m->nsections; i++) {
		const struct mnt_section *s = &m->sections[i];

		for (j = 0; j < s->nentries; j++)
			if (strchr("FXNK", s->entries[j].tag))
				add_pattern(&b, (uint32_t)i, &s->entries[j],
					    tree, s->source ? s->source : "-");
	}
	nkeys = key_ids(&b, &keyof, &keyrep);
	keyslot = lay_buckets(&b, keyof, keyrep, nkeys, &lo);
	lay_patterns(&b, keyof, keyslot, &lo);
	free(keyslot);
	free(keyrep);
	free(keyof);
	build_keywords(&b, &lo.kpats, &lo.nkpats, &lo.klits, &lo.nklits);
	add_sections(&b, m, lo.titles);
	write_image(&b, &lo, m->nsections, tree, &img);
	{
		size_t len;
		unsigned char *buf = (unsigned char *)sb_detach(&img, &len);

		return add_people(
			map_from_buffer(buf, len, false, "compiled index"), m);
	}
}

/* map_load_text - parse MAINTAINERS text (file or directory) and compile */
struct map *map_load_text(const char *path, const char *tree)
{
	struct maintainers m;
	struct map *map = NULL;

	maintainers_init(&m);
	if (maintainers_load(&m, path) == 0)
		map = map_compile(&m, tree);
	maintainers_release(&m);
	return map;
}

int map_save(const struct map *map, const char *path)
{
	return write_file_atomic(path, map->base, map->size, 0644);
}

/* ---- opening and validating ------------------------------------------ */

static struct map *map_from_buffer(unsigned char *base, size_t size,
				   bool mapped, const char *what)
{
	struct map *map = xcalloc(1, sizeof(*map));
	const struct img_header *h = (const void *)base;

	map->base = base;
	map->size = size;
	map->mapped = mapped;
	if (size < 8 || memcmp(h->magic, MAP_MAGIC, 8) != 0) {
		error("%s: not a triage MAINTAINERS index", what);
		goto fail;
	}
	if (size < sizeof(*h)) {
		error("%s: truncated index; run 'triage update'", what);
		goto fail;
	}
	if (h->version != MAP_VERSION || h->endian != MAP_ENDIAN) {
		error("%s: index format %u is not %u; run 'triage update'",
		      what, h->version, MAP_VERSION);
		goto fail;
	}
	if (h->size != size ||
	    !img_range_ok(size, h->off_sections, h->nsections,
			  sizeof(struct img_section), 4) ||
	    !img_range_ok(size, h->off_entries, h->nentries,
			  sizeof(struct img_entry), 4) ||
	    !img_range_ok(size, h->off_patterns, h->npatterns,
			  sizeof(struct img_pattern), 4) ||
	    !img_range_ok(size, h->off_buckets, h->nbuckets,
			  sizeof(struct img_bucket), 4) ||
	    !img_range_ok(size, h->off_titles,
			  (size_t)TITLE_RUNS + 1 + h->nsections, 4, 4) ||
	    h->nalways > h->npatterns ||
	    !img_range_ok(size, h->off_strings, h->strings_size, 1, 4) ||
	    !img_range_ok(size, h->off_regex, h->regex_size, 1, 4) ||
	    !img_range_ok(size, h->off_kpats, h->nkpats, 4, 4) ||
	    !img_range_ok(size, h->off_klits, h->nklits,
			  sizeof(struct img_klit), 4) ||
	    !img_range_ok(size, h->off_nest_start, (size_t)h->nsections + 1, 4,
			  4) ||
	    !img_range_ok(size, h->off_nest, h->nnest, 4, 4) ||
	    !img_range_ok(size, h->off_addrs, h->naddrs,
			  sizeof(struct img_addr), 4) ||
	    !img_range_ok(size, h->off_ahits, h->nahits,
			  sizeof(struct img_ahit), 4) ||
	    !img_range_ok(size, h->off_astrings, h->astrings_size, 1, 4) ||
	    !img_range_ok(size, h->off_fnames, h->nfnames,
			  sizeof(struct img_fname), 4) ||
	    !img_range_ok(size, h->off_fstrings, h->fstrings_size, 1, 4) ||
	    (h->fstrings_size &&
	     base[h->off_fstrings + h->fstrings_size - 1]) ||
	    (h->naddrs & (h->naddrs - 1)) ||
	    (h->astrings_size &&
	     base[h->off_astrings + h->astrings_size - 1]) ||
	    h->strings_size == 0 || h->nbuckets == 0 ||
	    (h->nbuckets & (h->nbuckets - 1)) ||
	    base[h->off_strings + h->strings_size - 1] != '\0') {
		error("%s: corrupt index; run 'triage update'", what);
		goto fail;
	}
	map->h = h;
	map->sections = (const void *)(base + h->off_sections);
	map->entries = (const void *)(base + h->off_entries);
	map->patterns = (const void *)(base + h->off_patterns);
	map->buckets = (const void *)(base + h->off_buckets);
	map->titles = (const void *)(base + h->off_titles);
	map->kpats = (const void *)(base + h->off_kpats);
	map->klits_img = (const void *)(base + h->off_klits);
	map->strings = (const char *)base + h->off_strings;
	map->nest_start = (const void *)(base + h->off_nest_start);
	map->nest = (const void *)(base + h->off_nest);
	map->addrs = (const void *)(base + h->off_addrs);
	map->ahits = (const void *)(base + h->off_ahits);
	map->astrings = (const char *)base + h->off_astrings;
	map->fnames = (const void *)(base + h->off_fnames);
	map->fstrings = (const char *)base + h->off_fstrings;

	/*
	 * Each element (section, entry, pattern, bucket, item) is checked
	 * when it is used, not all here: the filter uses a few of 40,000,
	 * and checking them all would cost it on every message.
	 */
	if (h->nregex) {
		const uint8_t *blob = base + h->off_regex;
		int32_t n;

		/*
		 * pcre2_serialize_decode() trusts what it reads (a code's
		 * length among it): a damaged blob is refused before it.
		 */
		if (h->regex_size < 16 || h->nregex > h->regex_size ||
		    img_sum(blob, h->regex_size) != h->regex_sum) {
			error("%s: corrupt index; run 'triage update'", what);
			goto fail;
		}
		n = pcre2_serialize_get_number_of_codes(blob);
		if (n != (int32_t)h->nregex) {
			error("%s: regexes were built by another pcre2; run 'triage update'",
			      what);
			goto fail;
		}
		map->regex = xcalloc(h->nregex, sizeof(*map->regex));
		if (pcre2_serialize_decode(map->regex, n, blob, NULL) != n) {
			error("%s: regexes were built by another pcre2; run 'triage update'",
			      what);
			free(map->regex);
			map->regex = NULL;
			goto fail;
		}
		map->nregex = h->nregex;
	}
	map->md = pcre2_match_data_create(8, NULL);
	map->mctx = pcre2_match_context_create(NULL);
	if (!map->md || !map->mctx)
		die("out of memory");
	pcre2_set_match_limit(map->mctx, REGEX_MATCH_LIMIT);
	pcre2_set_depth_limit(map->mctx, REGEX_DEPTH_LIMIT);
	return map;
fail:
	map_free(map);
	return NULL;
}

/* map_open - mmap a compiled index written by map_save() */
struct map *map_open(const char *path)
{
	size_t size;
	void *p = img_map(path, "MAINTAINERS index", 1, UINT32_MAX, &size);

	return p ? map_from_buffer(p, size, true, path) : NULL;
}

void map_free(struct map *map)
{
	uint32_t i;

	if (!map)
		return;
	for (i = 0; i < map->nregex; i++)
		pcre2_code_free(map->regex[i]);
	free(map->regex);
	pcre2_match_data_free(map->md);
	pcre2_match_context_free(map->mctx);
	if (map->klits) {
		litset_release(map->klits);
		free(map->klits);
	}
	free(map->kfound);
	if (map->mapped)
		img_unmap(map->base, map->size);
	else
		free(map->base);
	free(map);
}

/* ---- accessors -------------------------------------------------------- */

uint32_t map_nsections(const struct map *map)
{
	return map->h->nsections;
}

/* damaged - note a damaged element once; returns false */
static bool damaged(const struct map *map)
{
	if (!map->warned)
		warn("corrupt MAINTAINERS index; run 'triage update'");
	/* The object is ours and not const: only the flag changes. */
	((struct map *)map)->warned = true;
	return false;
}

/* section_at - a checked section, or NULL */
static const struct img_section *section_at(const struct map *map, uint32_t sec)
{
	const struct img_header *h = map->h;
	const struct img_section *s;

	if (sec >= h->nsections)
		return damaged(map), NULL;
	s = &map->sections[sec];
	if (s->title >= h->strings_size || s->source >= h->strings_size ||
	    s->first_entry > h->nentries ||
	    s->nentries > h->nentries - s->first_entry)
		return damaged(map), NULL;
	return s;
}

/* pattern_ok - whether pattern i and what it points to are in the image */
static bool pattern_ok(const struct map *map, uint32_t i)
{
	const struct img_header *h = map->h;
	const struct img_pattern *p;

	if (i >= h->npatterns)
		return damaged(map);
	p = &map->patterns[i];
	if (p->section >= h->nsections || p->text >= h->strings_size ||
	    p->lit >= h->strings_size ||
	    (p->regex != NONE && p->regex >= h->nregex))
		return damaged(map);
	return true;
}

const char *map_title(const struct map *map, uint32_t sec)
{
	const struct img_section *s = section_at(map, sec);

	return s ? map->strings + s->title : "";
}

const char *map_source(const struct map *map, uint32_t sec)
{
	const struct img_section *s = section_at(map, sec);

	return s ? map->strings + s->source : "";
}

unsigned map_line(const struct map *map, uint32_t sec)
{
	const struct img_section *s = section_at(map, sec);

	return s ? s->line : 0;
}

uint32_t map_nentries(const struct map *map, uint32_t sec)
{
	const struct img_section *s = section_at(map, sec);

	return s ? s->nentries : 0;
}

/* entry_at - entry i of a section, checked, or NULL */
static const struct img_entry *entry_at(const struct map *map, uint32_t sec,
					uint32_t i)
{
	const struct img_section *s = section_at(map, sec);
	const struct img_entry *e;

	if (!s)
		return NULL;
	if (i >= s->nentries)
		return damaged(map), NULL;
	e = &map->entries[s->first_entry + i];
	if (e->value >= map->h->strings_size)
		return damaged(map), NULL;
	return e;
}

char map_entry_tag(const struct map *map, uint32_t sec, uint32_t i)
{
	const struct img_entry *e = entry_at(map, sec, i);

	return e ? (char)e->tag : '\0';
}

const char *map_entry_value(const struct map *map, uint32_t sec, uint32_t i)
{
	const struct img_entry *e = entry_at(map, sec, i);

	return e ? map->strings + e->value : "";
}

/* map_value - first value of a tag in a section, or NULL */
const char *map_value(const struct map *map, uint32_t sec, char tag)
{
	uint32_t i, n = map_nentries(map, sec);

	for (i = 0; i < n; i++)
		if (map_entry_tag(map, sec, i) == tag)
			return map_entry_value(map, sec, i);
	return NULL;
}

/*
 * map_titled - the sections whose titles start with c in either case
 * (and a few more: see title_run()), in MAINTAINERS order; *n of them
 */
const uint32_t *map_titled(const struct map *map, char c, size_t *n)
{
	unsigned run = title_run(&c);
	uint32_t first = map->titles[run], end = map->titles[run + 1];

	*n = 0;
	if (first > end || end > map->h->nsections)
		return damaged(map), map->titles;
	*n = end - first;
	return map->titles + TITLE_RUNS + 1 + first;
}

/* map_find_section - section by title: exact, then ignoring case; or -1 */
int map_find_section(const struct map *map, const char *title)
{
	size_t n, i;
	const uint32_t *secs = map_titled(map, title[0], &n);

	for (i = 0; i < n; i++)
		if (secs[i] < map->h->nsections &&
		    strcmp(map_title(map, secs[i]), title) == 0)
			return (int)secs[i];
	for (i = 0; i < n; i++)
		if (secs[i] < map->h->nsections &&
		    strcasecmp(map_title(map, secs[i]), title) == 0)
			return (int)secs[i];
	return -1;
}

bool map_has_tree(const struct map *map)
{
	return map->h->flags & MAPF_TREE;
}

/* ---- lookup ----------------------------------------------------------- */

static bool regex_search(const struct map *map, uint32_t idx, const char *s,
			 size_t len)
{
	int rc;

	if (idx == NONE || idx >= map->nregex)
		return false;
	rc = pcre2_match(map->regex[idx], (PCRE2_SPTR)s, len, 0, 0, map->md,
			 map->mctx);
	return rc >= 0;
}

/* pattern_matches - file_match_pattern() / the N: test of get_maintainer.pl */
static bool pattern_matches(const struct map *map, const struct img_pattern *p,
			    const char *path, size_t len, size_t nslash)
{
	const char *text = map->strings + p->text;
	bool prefix;

	if (p->flags & PAT_BAD)
		return false;
	if (p->kind == 'N')
		return regex_search(map, p->regex, path, len);
	if (p->flags & PAT_REGEX)
		prefix = regex_search(map, p->regex, path, len);
	else
		prefix = glob_prefix(text, path);
	if (p->flags & PAT_SLASH)
		return prefix;
	if (!(p->flags & PAT_FILE_OR_DIR))
		return prefix && nslash == p->nslash;
	/*
	 * No tree to ask: the pattern may name a file (prefix match at the
	 * same depth, as get_maintainer.pl) or a directory (subtree).  A
	 * directory name followed by an extension ("cec" against
	 * "cec.h.rst.exceptions") is a different file, not the directory.
	 */
	{
		size_t n = strlen(text);

		/* (a glob may be longer than the path it matches) */
		if (prefix && nslash == p->nslash &&
		    (n >= len || path[n] != '.'))
			return true;
		return len > n && path[n] == '/' && memcmp(path, text, n) == 0;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_hit(const void *a, const void *b)
{
	const struct map_hit *x = a, *y = b;

	if (x->depth != y->depth)
		return (y->depth > x->depth) - (y->depth < x->depth);
	return x->section < y->section ? -1 : x->section > y->section;
}

/* sort_hits - by cmp_hit(): insertion for the usual handful, else qsort */
static void sort_hits(struct map_hit *hits, size_t n)
{
	size_t i, j;

	if (n > 16) {
		qsort(hits, n, sizeof(*hits), cmp_hit);
		return;
	}
	for (i = 1; i < n; i++) {
		struct map_hit x = hits[i];

		for (j = i; j > 0 && cmp_hit(&hits[j - 1], &x) > 0; j--)
			hits[j] = hits[j - 1];
		hits[j] = x;
	}
}

/* a run of patterns in MAINTAINERS order (map_lookup) */
struct cand_list {
	uint32_t first, n;
};

/* find_bucket - the bucket whose key is the first len bytes of key */
static const struct img_bucket *find_bucket(const struct map *map,
					    const char *key, size_t len)
{
	size_t mask = map->h->nbuckets - 1;
	uint32_t hv = hash_mem(key, len);
	size_t slot = hv & mask, probes;

	for (probes = 0; probes <= mask; probes++) {
		const struct img_bucket *bk = &map->buckets[slot];
		const char *k;

		if (!bk->count)
			return NULL;
		if (bk->first > map->h->npatterns ||
		    bk->count > map->h->npatterns - bk->first)
			return damaged(map), NULL;
		/* the key is the start of its first pattern's text */
		if (bk->hash == hv && bk->len == len &&
		    pattern_ok(map, bk->first)) {
			k = map->strings + map->patterns[bk->first].text;
			if (strncmp(k, key, len) == 0 && strnlen(k, len) == len)
				return bk;
		}
		slot = (slot + 1) & mask;
	}
	return NULL;
}

/*
 * map_lookup - the sections that own a path, most specific first
 *
 * Returns the number of hits stored (at most max).  path is relative
 * to the tree root; it must not contain control characters.
 */
size_t map_lookup(const struct map *map, const char *path, struct map_hit *hits,
		  size_t max)
{
	/* candidates: MAINTAINERS position << 32 | pattern index */
	uint64_t stackbuf[512], *cand = stackbuf;
	size_t ncand = 0, cap = ARRAY_SIZE(stackbuf), i, nhits = 0;
	size_t len = strlen(path), nslash, d;
	const struct img_bucket *bk;
	struct cand_list lstack[16], *lists = lstack;
	size_t nlists = 0;

	if (len == 0 || len > PATH_MAX_LEN)
		return 0;
	nslash = count_char(path, len, '/');
	/* the always list, then at most one bucket per directory level */
	if (nslash + 2 > ARRAY_SIZE(lstack))
		lists = xreallocarray(NULL, nslash + 2, sizeof(*lists));

#define ADD_CAND(x)                                                    \
	do {                                                           \
		if (ncand == cap) {                                    \
			uint64_t *n = xreallocarray(NULL, cap * 2, 8); \
			memcpy(n, cand, cap * 8);                      \
			if (cand != stackbuf)                          \
				free(cand);                            \
			cand = n;                                      \
			cap *= 2;                                      \
		}                                                      \
		cand[ncand++] = (x);                                   \
	} while (0)

	if (map->h->nalways) {
		lists[nlists].first = 0;
		lists[nlists++].n = map->h->nalways;
	}
	/* One bucket per directory prefix: "", "a/", "a/b/", ... */
	for (d = 0;;) {
		bk = find_bucket(map, path, d);
		if (bk && bk->count) {
			lists[nlists].first = bk->first;
			lists[nlists++].n = bk->count;
		}
		{
			const char *slash = memchr(path + d, '/', len - d);

			if (!slash)
				break;
			d = (size_t)(slash - path) + 1;
		}
	}
	/*
	 * Each list is in MAINTAINERS order in a sound image: merge them
	 * rather than sort (qsort was most of a path's cost).  A damaged
	 * image may break the order; then sort what was gathered.
	 */
	while (nlists) {
		size_t best = 0;
		uint64_t v;

		for (i = 1; i < nlists; i++)
			if (map->patterns[lists[i].first].seq <
			    map->patterns[lists[best].first].seq)
				best = i;
		v = lists[best].first;
		lists[best].first++;
		if (!--lists[best].n)
			lists[best] = lists[--nlists];
		if (pattern_ok(map, (uint32_t)v))
			ADD_CAND((uint64_t)map->patterns[v].seq << 32 | v);
	}
#undef ADD_CAND
	if (lists != lstack)
		free(lists);
	for (i = 1; i < ncand; i++)
		if (cand[i - 1] > cand[i])
			break;
	if (i < ncand)
		qsort(cand, ncand, sizeof(*cand), cmp_u64);

	/* Patterns are in file order, so candidates group by section. */
	for (i = 0; i < ncand;) {
		uint32_t sec = map->patterns[(uint32_t)cand[i]].section;
		size_t j, end = i;
		bool excluded = false;

		while (end < ncand &&
		       map->patterns[(uint32_t)cand[end]].section == sec)
			end++;
		for (j = i; j < end && !excluded; j++) {
			const struct img_pattern *p =
				&map->patterns[(uint32_t)cand[j]];

			if (p->kind == 'X' &&
			    pattern_matches(map, p, path, len, nslash))
				excluded = true;
		}
		/* The last matching F:/N: line sets the depth. */
		for (j = end; j > i && !excluded; j--) {
			const struct img_pattern *p =
				&map->patterns[(uint32_t)cand[j - 1]];

			if (p->kind == 'X' ||
			    !pattern_matches(map, p, path, len, nslash))
				continue;
			if (nhits < max) {
				hits[nhits].section = sec;
				hits[nhits].depth =
					p->kind == 'N' ? 0 : p->depth;
				nhits++;
			}
			break;
		}
		i = end;
	}
	if (cand != stackbuf)
		free(cand);
	sort_hits(hits, nhits);
	return nhits;
}

/*
 * map_keywords - sections whose K: regexes occur in text
 *
 * Text beyond KEYWORD_TEXT_MAX bytes is not searched.  Hits come in
 * MAINTAINERS order with depth 0.
 */
static void kfound_set(void *ctx, unsigned id)
{
	((struct map *)ctx)->kfound[id] = true;
}

/*
 * klits_build - index the image's K: literals, case-blind, by position
 * in kpats; a damaged literal is left out (its pattern is then never
 * found, as a damaged pattern)
 */
static void klits_build(struct map *map)
{
	const struct img_header *h = map->h;
	uint32_t i;

	map->klits = xcalloc(1, sizeof(*map->klits));
	litset_init(map->klits, true);
	map->kfound = xcalloc(h->nkpats + 1, sizeof(bool));
	for (i = 0; i < h->nklits; i++) {
		const struct img_klit *k = &map->klits_img[i];
		const char *lit;
		size_t n;

		if (k->text >= h->strings_size || k->kpat >= h->nkpats) {
			damaged(map);
			continue;
		}
		lit = map->strings + k->text;
		/* the table ends in NUL; litset wants 2 bytes, no anchors */
		n = strlen(lit);
		if (n < 2 || lit[0] == '^' || lit[n - 1] == '$') {
			damaged(map);
			continue;
		}
		litset_add(map->klits, lit, k->kpat);
	}
}

size_t map_keywords(const struct map *map, const char *text, size_t len,
		    struct map_hit *hits, size_t max)
{
	struct map *m = (struct map *)map;
	uint32_t k, last = NONE;
	size_t n = 0;

	if (len > KEYWORD_TEXT_MAX)
		len = KEYWORD_TEXT_MAX;
	if (!m->klits)
		klits_build(m);
	memset(m->kfound, 0, map->h->nkpats * sizeof(bool));
	litset_each(m->klits, text, len, kfound_set, m);
	for (k = 0; k < map->h->nkpats && n < max; k++) {
		const struct img_pattern *p;

		if (!pattern_ok(map, map->kpats[k]))
			continue;
		p = &map->patterns[map->kpats[k]];
		if (p->kind != 'K' || p->section == last ||
		    (p->flags & PAT_BAD))
			continue;
		if (!m->kfound[k] && !(p->flags & PAT_KALWAYS))
			continue;
		if (regex_search(map, p->regex, text, len)) {
			hits[n].section = p->section;
			hits[n].depth = 0;
			n++;
			last = p->section;
		}
	}
	return n;
}

/* ---- umbrellas and the address index ---------------------------------- */

/* map_rep_path - a path a glob surely matches (map_people.h) */
char *map_rep_path(const char *glob)
{
	struct strbuf sb = STRBUF_INIT(PATH_MAX_LEN);
	const char *p;
	char *out;

	if (glob_needs_regex(glob) || !*glob)
		return NULL;
	for (p = glob; *p; p++) {
		if (*p == '*' || *p == '?') {
			sb_add(&sb, "x", 1);
		} else if (*p == '[') {
			const char *e = glob_class_end(p);
			const char *c = p + 1;

			if (!e)
				break;
			if (*c == '^') { /* no member named: skip it */
				sb_release(&sb);
				return NULL;
			}
			sb_add(&sb, c, 1);
			p = e;
		} else {
			sb_add(&sb, p, 1);
		}
	}
	if (p[-1] == '/')
		sb_add(&sb, "x", 1);
	if (sb_add(&sb, "", 1) < 0) {
		sb_release(&sb);
		return NULL;
	}
	out = sb_detach(&sb, NULL);
	return out;
}

/*
 * add_people - the image again with format 5's tables after it: the
 * umbrellas and the address index (map_people_build())
 */
static struct map *add_people(struct map *map, const struct maintainers *m)
{
	struct strbuf img = STRBUF_INIT(UINT32_MAX / 2);
	struct map_people pp;
	struct img_header h;
	size_t ns, len;
	unsigned char *buf;

	if (!map)
		return NULL;
	ns = m->nsections;
	map_people_build(map, m, &pp);
	memcpy(&h, map->base, sizeof(h));
	sb_add(&img, map->base, map->size);
	h.nnest = (uint32_t)pp.nnest;
	h.off_nest_start = img_place(&img, pp.nest_start,
				     (ns + 1) * sizeof(*pp.nest_start),
				     "MAINTAINERS index");
	h.off_nest = img_place(&img, pp.nest, pp.nnest * sizeof(*pp.nest),
			       "MAINTAINERS index");
	h.naddrs = (uint32_t)pp.naddrs;
	h.off_addrs = img_place(&img, pp.addrs, pp.naddrs * sizeof(*pp.addrs),
				"MAINTAINERS index");
	h.nahits = (uint32_t)pp.nahits;
	h.off_ahits = img_place(&img, pp.ahits, pp.nahits * sizeof(*pp.ahits),
				"MAINTAINERS index");
	h.astrings_size = (uint32_t)pp.astrings_size;
	h.off_astrings = img_place(&img, pp.astrings, pp.astrings_size,
				   "MAINTAINERS index");
	h.nfnames = (uint32_t)pp.nfnames;
	h.off_fnames =
		img_place(&img, pp.fnames ? (void *)pp.fnames : "",
			  pp.nfnames * sizeof(*pp.fnames), "MAINTAINERS index");
	h.fstrings_size = (uint32_t)pp.fstrings_size;
	h.off_fstrings = img_place(&img, pp.fstrings ? pp.fstrings : "",
				   pp.fstrings_size, "MAINTAINERS index");
	h.size = (uint32_t)img.len;
	memcpy(img.buf, &h, sizeof(h));
	map_people_release(&pp);
	map_free(map);
	buf = (unsigned char *)sb_detach(&img, &len);
	return map_from_buffer(buf, len, false, "compiled index");
}

/* map_umbrellas - the sections strictly holding sec (see map.h) */
size_t map_umbrellas(const struct map *map, uint32_t sec, const uint32_t **ids)
{
	const struct img_header *h = map->h;
	uint32_t a, b, i;

	*ids = NULL;
	if (sec >= h->nsections)
		return 0;
	a = map->nest_start[sec];
	b = map->nest_start[sec + 1];
	if (a > b || b > h->nnest)
		return damaged(map), 0;
	for (i = a; i < b; i++)
		if (map->nest[i] >= h->nsections)
			return damaged(map), 0;
	*ids = map->nest + a;
	return b - a;
}

/* map_holds - whether u strictly holds sec (see map.h) */
bool map_holds(const struct map *map, uint32_t sec, uint32_t u)
{
	const uint32_t *ids;
	size_t n = map_umbrellas(map, sec, &ids), i;

	for (i = 0; i < n; i++)
		if (ids[i] == u)
			return true;
	return false;
}

/* map_address - the sections that name a list or person (see map.h) */
size_t map_address(const struct map *map, const char *addr,
		   struct map_addr_hit *hits, size_t max)
{
	const struct img_header *h = map->h;
	size_t len = strlen(addr), mask, slot, probes, n = 0;
	uint32_t hv, i;

	if (!h->naddrs || !len || len > 254)
		return 0;
	mask = h->naddrs - 1;
	hv = hash_mem(addr, len);
	slot = hv & mask;
	for (probes = 0; probes <= mask; probes++, slot = (slot + 1) & mask) {
		const struct img_addr *a = &map->addrs[slot];

		if (!a->count)
			return 0;
		if (a->text >= h->astrings_size || a->first > h->nahits ||
		    a->count > h->nahits - a->first)
			return damaged(map), 0;
		if (a->hash != hv || strcmp(map->astrings + a->text, addr))
			continue;
		for (i = 0; i < a->count && n < max; i++) {
			const struct img_ahit *x = &map->ahits[a->first + i];

			if (x->section >= h->nsections)
				return damaged(map), 0;
			hits[n].section = x->section;
			hits[n].tag = (char)(x->tag & 0xff);
			hits[n].umbrella = x->tag & AHIT_UMBRELLA;
			hits[n].share = x->share / 65535.0;
			n++;
		}
		return n;
	}
	return 0;
}

/* fname_first - the first name of kind at or after name, or nfnames */
static size_t fname_first(const struct map *map, uint32_t kind,
			  const char *name)
{
	const struct img_header *h = map->h;
	size_t lo = 0, hi = h->nfnames;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct img_fname *f = &map->fnames[mid];

		if (f->text >= h->fstrings_size)
			return damaged(map), h->nfnames;
		if (f->kind < kind ||
		    (f->kind == kind &&
		     strcasecmp(map->fstrings + f->text, name) < 0))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * fname_sections - the sections of name (kind), in order, each once: up
 * to max into secs, their number into *total; with shallowest, only
 * those of the first (shallowest) depth; with prefixed, of the names
 * that go on after name with '_' or '-' (none when more than
 * MAP_PREFIXED_SCAN start with name)
 */
static size_t fname_sections(const struct map *map, uint32_t kind,
			     const char *name, bool shallowest, bool prefixed,
			     uint32_t *secs, size_t max, size_t *total)
{
	const struct img_header *h = map->h;
	size_t i = fname_first(map, kind, name), n = 0, len = strlen(name);
	size_t read = 0, k;
	uint32_t depth = 0;

	*total = 0;
	for (; i < h->nfnames; i++) {
		const struct img_fname *f = &map->fnames[i];
		const char *t = map->fstrings + f->text;
		bool seen = false;

		if (f->text >= h->fstrings_size || f->section >= h->nsections)
			return damaged(map), 0;
		if (f->kind != kind || strncasecmp(t, name, len) ||
		    (!prefixed && t[len]))
			break;
		if (prefixed && ++read > MAP_PREFIXED_SCAN)
			return *total = 0, 0;
		if (prefixed && t[len] != '_' && t[len] != '-')
			continue;
		if (shallowest && *total && f->depth != depth)
			break;
		depth = f->depth;
		for (k = 0; k < n; k++)
			seen |= secs[k] == f->section;
		if (seen)
			continue;
		(*total)++;
		if (n < max)
			secs[n++] = f->section;
	}
	return n;
}

/* map_file_named - the sections whose F: patterns end in name (map.h) */
size_t map_file_named(const struct map *map, const char *name, uint32_t *secs,
		      size_t max, size_t *tied)
{
	return fname_sections(map, FNAME_FILE, name, true, false, secs, max,
			      tied);
}

/* map_file_prefixed - F: names that go on after name with '_' or '-' */
size_t map_file_prefixed(const struct map *map, const char *name,
			 uint32_t *secs, size_t max, size_t *total)
{
	return fname_sections(map, FNAME_FILE, name, false, true, secs, max,
			      total);
}

/* map_list_named - the sections with a list of that name (map.h) */
size_t map_list_named(const struct map *map, const char *name, uint32_t *secs,
		      size_t max, size_t *total)
{
	return fname_sections(map, FNAME_LIST, name, false, false, secs, max,
			      total);
}
