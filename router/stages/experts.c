// SPDX-License-Identifier: GPL-2.0-only
/*
 * experts - who reviews what, mined from git history (see experts.h)
 *
 * The import is one streaming pass over git log.  Each commit header
 * names its people; each file line after it credits those people to
 * the file and to every directory above it that this commit has not
 * credited yet (a commit touching five files in fs/xfs/ is one commit
 * for fs/xfs/).  Paths and people are interned once; a hash of
 * (path, person) pairs accumulates scores and counts.  At the end each
 * path keeps its best people and the table is laid out as an image:
 *
 *	header
 *	paths    struct img_path[npaths]     sorted by strcmp of the path
 *	entries  struct img_entry[nentries]  grouped by path, best first
 *	people   struct img_person[npeople]
 *	strings  NUL-terminated, referenced by offset
 *
 * Directories are stored with a trailing "/" ("fs/xfs/"), files
 * without, so one binary search serves both.
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config.h"
#include "experts.h"
#include "experts_history.h"
#include "hash.h"
#include "hashmap.h"
#include "image.h"
#include "strbuf.h"
#include "util.h"

#define EX_MAGIC     "TRIAGEXP"
#define EX_VERSION   1
#define EX_ENDIAN    0x01020304u
#define NONE	     UINT32_MAX
#define PATH_MAX_LEN 4096
/* git output: one read buffer, which also bounds a line */
#define READ_BUF (256u << 10)
/* people credited per commit; more are ignored */
#define COMMIT_PEOPLE_MAX    64
#define COMMIT_REVIEWERS_MAX 2048 /* bytes of one commit's reviewer list */
#define COMMIT_LINE_MAX	     (41 + 2 * (EXPERTS_ADDR_MAX + 1) + COMMIT_REVIEWERS_MAX)

struct img_header {
	char magic[8];
	uint32_t version, endian;
	uint32_t size, max_per_path;
	int64_t ref_time, since;
	double halflife;
	double weight[EXPERTS_NKINDS];
	uint64_t commits;
	uint32_t npaths, nentries, npeople, strings_size;
	uint32_t off_paths, off_entries, off_people, off_strings;
};

struct img_path {
	uint32_t str;	  /* path, "dir/" for directories */
	uint32_t first;	  /* first entry */
	uint32_t count;	  /* entries */
	uint32_t commits; /* commits that touched the path */
};

struct img_entry {
	uint32_t person;
	uint32_t count[EXPERTS_NKINDS];
	uint32_t pad;
	double score;
	int64_t last;
};

struct img_person {
	uint32_t addr, name;
};

struct experts {
	unsigned char *base;
	size_t size;
	bool mapped;
	const struct img_header *h;
	const struct img_path *paths;
	const struct img_entry *entries;
	const struct img_person *people;
	const char *strings;
};

/* ---- addresses --------------------------------------------------------- */

static bool local_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || strchr("!#$%&'*+-/=?^_`{|}~.", c);
}

/* experts_addr_valid - a bare address we are willing to mail or store */
bool experts_addr_valid(const char *addr)
{
	const char *at = strchr(addr, '@'), *p, *label;
	size_t len = strlen(addr);

	if (!at || len > EXPERTS_ADDR_MAX || at == addr || at - addr > 64 ||
	    strchr(at + 1, '@'))
		return false;
	if (addr[0] == '.' || at[-1] == '.')
		return false;
	for (p = addr; p < at; p++)
		if (!local_char((unsigned char)*p) ||
		    (p[0] == '.' && p[1] == '.'))
			return false;
	if (!strchr(at + 1, '.'))
		return false;
	label = at + 1;
	for (p = at + 1;; p++) {
		unsigned char c = (unsigned char)*p;

		if (c == '.' || c == '\0') {
			if (p == label || label[0] == '-' || p[-1] == '-')
				return false;
			if (!c)
				break;
			label = p + 1;
			continue;
		}
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '-'))
			return false;
	}
	return true;
}

/* copy_name - display name: no control characters, trimmed, bounded */
static void copy_name(char *out, size_t outsz, const char *s, size_t n)
{
	size_t i, k = 0;

	while (n && (*s == ' ' || *s == '\t' || *s == '"')) {
		s++;
		n--;
	}
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '"'))
		n--;
	for (i = 0; i < n && k + 1 < outsz; i++) {
		unsigned char c = (unsigned char)s[i];

		out[k++] = (c < 0x20 || c == 0x7f) ? ' ' : (char)c;
	}
	/* Do not leave half a UTF-8 sequence at a cut. */
	if (i < n)
		while (k && ((unsigned char)out[k - 1] & 0xc0) == 0x80)
			k--;
	if (k && i < n && ((unsigned char)out[k - 1] & 0xc0) == 0xc0)
		k--;
	out[k] = '\0';
	if (!utf8_valid(out, k))
		out[0] = '\0';
}

/*
 * experts_parse_addr - "Name <addr>", "addr", "mailto:addr?x" or
 * "addr (comment)" to a lower-case bare address and a display name
 *
 * Returns 0, or -1 when no valid address is found.  name may be NULL.
 */
int experts_parse_addr(const char *text, char *addr, size_t addrsz, char *name,
		       size_t namesz)
{
	const char *lt, *gt, *a, *e;
	size_t n;

	if (name && namesz)
		name[0] = '\0';
	if (addrsz)
		addr[0] = '\0';
	while (*text == ' ' || *text == '\t')
		text++;
	if (starts_with_ci(text, "mailto:"))
		text += 7;
	lt = strchr(text, '<');
	gt = lt ? strchr(lt, '>') : NULL;
	if (lt && gt) {
		a = lt + 1;
		e = gt;
		if (name && namesz)
			copy_name(name, namesz, text, (size_t)(lt - text));
	} else {
		/* The first word with an "@" in it. */
		a = text;
		for (;;) {
			while (*a == ' ' || *a == '\t')
				a++;
			if (!*a)
				return -1;
			e = a + strcspn(a, " \t");
			if (memchr(a, '@', (size_t)(e - a)))
				break;
			a = e;
		}
		while (a < e && (*a == '(' || *a == '"'))
			a++;
		{
			const char *q = memchr(a, '?', (size_t)(e - a));

			if (q)
				e = q;
		}
		while (e > a && strchr(",;:)\"", e[-1]))
			e--;
	}
	while (a < e && (*a == ' ' || *a == '\t'))
		a++;
	while (e > a && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	n = (size_t)(e - a);
	if (n == 0 || n >= addrsz || n > EXPERTS_ADDR_MAX)
		return -1;
	memcpy(addr, a, n);
	addr[n] = '\0';
	str_tolower(addr);
	if (!experts_addr_valid(addr)) {
		addr[0] = '\0';
		return -1;
	}
	return 0;
}

static bool local_ends(const char *local, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n >= k && memcmp(local + n - k, suffix, k) == 0;
}

/*
 * experts_is_bot - robots and no-reply addresses (lower-case address;
 * name may be NULL)
 */
bool experts_is_bot(const char *addr, const char *name)
{
	const char *at = strchr(addr, '@');
	size_t n = at ? (size_t)(at - addr) : strlen(addr);

	if (strstr(addr, "syzbot") || strstr(addr, "syzkaller.appspotmail") ||
	    strcmp(addr, "lkp@intel.com") == 0 || strstr(addr, "noreply") ||
	    strstr(addr, "no-reply") || strstr(addr, "donotreply") ||
	    strstr(addr, "do-not-reply"))
		return true;
	if ((n == 3 && memcmp(addr, "bot", 3) == 0) ||
	    local_ends(addr, n, "-bot") || local_ends(addr, n, "_bot") ||
	    local_ends(addr, n, ".bot") || local_ends(addr, n, "+bot") ||
	    local_ends(addr, n, "[bot]") || local_ends(addr, n, "robot"))
		return true;
	if (name && *name) {
		char low[EXPERTS_NAME_MAX];
		size_t k;

		snprintf(low, sizeof(low), "%s", name);
		str_tolower(low);
		k = strlen(low);
		if (strstr(low, "test robot") || strstr(low, "syzbot") ||
		    local_ends(low, k, "[bot]") || local_ends(low, k, " bot"))
			return true;
	}
	return false;
}

static const char *const kind_names[EXPERTS_NKINDS] = {
	[EXPERTS_REVIEWED] = "reviewed-by",
	[EXPERTS_ACKED] = "acked-by",
	[EXPERTS_SIGNED] = "signed-off-by",
	[EXPERTS_AUTHORED] = "authored",
};

/* experts_kind_name - "reviewed-by", "acked-by", "signed-off-by", "authored" */
const char *experts_kind_name(enum experts_kind k)
{
	return (unsigned)k < EXPERTS_NKINDS ? kind_names[k] : "?";
}

/* ---- options ----------------------------------------------------------- */

/* experts_options_init - defaults: 1.0/0.5/0.2/0.1, 180 days, 2 years */
void experts_options_init(struct experts_options *o)
{
	memset(o, 0, sizeof(*o));
	o->weight[EXPERTS_REVIEWED] = 1.0;
	o->weight[EXPERTS_ACKED] = 0.5;
	o->weight[EXPERTS_SIGNED] = 0.2;
	o->weight[EXPERTS_AUTHORED] = 0.1;
	o->halflife_days = 180;
	o->now = time(NULL);
	experts_parse_since(EXPERTS_DEFAULT_SINCE, o->now, &o->since);
	o->max_per_path = 8;
}

/* experts_options_release - free the ignore list */
void experts_options_release(struct experts_options *o)
{
	size_t i;

	for (i = 0; i < o->nignore; i++)
		free(o->ignore[i]);
	free(o->ignore);
	o->ignore = NULL;
	o->nignore = 0;
}

/*
 * experts_set_weights - "reviewed-by:1.0 acked-by:0.5 ..." (space or
 * comma separated, any subset); a weight of 0 drops that kind
 */
int experts_set_weights(struct experts_options *o, const char *spec)
{
	char *copy = xstrdup(spec), *save = NULL, *tok;
	double w[EXPERTS_NKINDS];
	int ret = 0;

	memcpy(w, o->weight, sizeof(w));
	for (tok = strtok_r(copy, " \t,", &save); tok;
	     tok = strtok_r(NULL, " \t,", &save)) {
		char *colon = strrchr(tok, ':'), *end;
		double v;
		unsigned k;

		if (!colon) {
			ret = error("weight '%s' is not KIND:NUMBER", tok);
			break;
		}
		*colon = '\0';
		for (k = 0; k < EXPERTS_NKINDS; k++)
			if (strcasecmp(tok, kind_names[k]) == 0)
				break;
		v = strtod(colon + 1, &end);
		if (k == EXPERTS_NKINDS) {
			ret = error(
				"unknown trailer kind '%s' (reviewed-by, acked-by, signed-off-by, authored)",
				tok);
			break;
		}
		if (end == colon + 1 || *end || !(v >= 0 && v <= 1000)) {
			ret = error(
				"weight '%s' for %s is not a number from 0 to 1000",
				colon + 1, tok);
			break;
		}
		w[k] = v;
	}
	free(copy);
	if (ret == 0)
		memcpy(o->weight, w, sizeof(w));
	return ret;
}

/*
 * experts_parse_since - "all", "Nd", "Nw", "Nm", "Ny" before now, or
 * "YYYY-MM-DD" (00:00 UTC) to a time; 0 means the whole history
 */
int experts_parse_since(const char *s, time_t now, time_t *out)
{
	unsigned long n;
	struct tm tm;
	char *end;
	int y, m, d;
	char extra;

	if (strcmp(s, "all") == 0 || strcmp(s, "0") == 0) {
		*out = 0;
		return 0;
	}
	if (sscanf(s, "%4d-%2d-%2d%c", &y, &m, &d, &extra) == 3 &&
	    strlen(s) == 10) {
		memset(&tm, 0, sizeof(tm));
		tm.tm_year = y - 1900;
		tm.tm_mon = m - 1;
		tm.tm_mday = d;
		if (y < 1970 || m < 1 || m > 12 || d < 1 || d > 31)
			return -1;
		*out = timegm(&tm);
		/* timegm normalises 2026-02-31; refuse it instead. */
		gmtime_r(out, &tm);
		return tm.tm_mday == d ? 0 : -1;
	}
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	n = strtoul(s, &end, 10);
	if (errno || n == 0 || n > 100000 || end[0] == '\0' || end[1])
		return -1;
	gmtime_r(&now, &tm);
	switch (*end) {
	case 'd':
		tm.tm_mday -= (int)n;
		break;
	case 'w':
		tm.tm_mday -= (int)n * 7;
		break;
	case 'm':
		tm.tm_mon -= (int)n;
		break;
	case 'y':
		tm.tm_year -= (int)n;
		break;
	default:
		return -1;
	}
	*out = timegm(&tm);
	if (*out < 0)
		*out = 0;
	return 0;
}

/*
 * experts_options_config - apply the experts_* settings of routes.conf;
 * a bad value is reported with file:line and the default kept
 */
void experts_options_config(struct experts_options *o, const struct config *cfg)
{
	const struct config_record *r;
	const char *v;

	if (!cfg)
		return;
	r = config_setting(cfg, "experts_weight");
	if (r && *r->argv[0] && experts_set_weights(o, r->argv[0]) < 0)
		warn("%s:%u: experts_weight ignored", r->file, r->line);
	r = config_setting(cfg, "experts_halflife");
	if (r && *(v = r->argv[0])) {
		char *end;
		double d = strtod(v, &end);

		if (end == v || *end || !(d >= 1 && d <= 36500))
			warn("%s:%u: experts_halflife '%s' is not a number of days from 1 to 36500",
			     r->file, r->line, v);
		else
			o->halflife_days = d;
	}
	r = config_setting(cfg, "experts_since");
	if (r && *(v = r->argv[0]) &&
	    experts_parse_since(v, o->now, &o->since) < 0)
		warn("%s:%u: experts_since '%s' is not Nd, Nw, Nm, Ny, YYYY-MM-DD or all",
		     r->file, r->line, v);
	r = config_setting(cfg, "experts_max");
	if (r && *(v = r->argv[0])) {
		unsigned long n;

		if (parse_ulong(v, &n) < 0 || n < 1 || n > 64)
			warn("%s:%u: experts_max '%s' is not a number from 1 to 64",
			     r->file, r->line, v);
		else
			o->max_per_path = (unsigned)n;
	}
	r = config_setting(cfg, "experts_ignore");
	if (r && *r->argv[0]) {
		char *copy = xstrdup(r->argv[0]), *save = NULL, *tok;

		for (tok = strtok_r(copy, " \t,", &save); tok;
		     tok = strtok_r(NULL, " \t,", &save)) {
			o->ignore = xreallocarray(o->ignore, o->nignore + 1,
						  sizeof(*o->ignore));
			o->ignore[o->nignore] = xstrdup(tok);
			str_tolower(o->ignore[o->nignore++]);
		}
		free(copy);
	}
}

/* ---- the builder ------------------------------------------------------- */

/* strset - interned strings, ids in insertion order */
struct strset {
	struct hashmap map;
	char **str;
	size_t n, alloc;
};

struct strkey {
	const char *k;
	size_t len;
};

static bool strset_equal(const void *data, uint32_t id, const void *key)
{
	const struct strset *s = data;
	const struct strkey *k = key;

	/* strnlen(): a shorter entry is never read past */
	return strnlen(s->str[id], k->len + 1) == k->len &&
	       memcmp(s->str[id], k->k, k->len) == 0;
}

/* strset_intern - the id of a string, adding it when new */
static uint32_t strset_intern(struct strset *s, const char *k, size_t len,
			      bool *added)
{
	struct strkey key;
	uint32_t id;

	len = strnlen(k, len); /* a C string: it ends at a NUL */
	key.k = k;
	key.len = len;
	if (s->n >= UINT32_MAX - 2)
		die("experts: too many distinct strings");
	id = hashmap_put(&s->map, hash_mem(k, len), &key, (uint32_t)s->n);
	*added = id == s->n;
	if (!*added)
		return id;
	ALLOC_GROW(s->str, s->n, s->alloc);
	s->str[s->n] = xmemdup0(k, len);
	return (uint32_t)s->n++;
}

static void strset_release(struct strset *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->str[i]);
	free(s->str);
	hashmap_release(&s->map);
	memset(s, 0, sizeof(*s));
}

struct pair {
	uint32_t path, person;
	double score;
	uint32_t count[EXPERTS_NKINDS];
	int64_t last;
};

struct credit {
	uint32_t person;
	enum experts_kind kind;
};

struct builder {
	const struct experts_options *o;
	struct strset paths;
	uint32_t *parent; /* per path: its directory, or NONE */
	uint32_t *stamp;  /* per path: last commit number that credited it */
	uint32_t *commits;
	size_t paths_alloc;
	struct strset people;
	char **names; /* per person: display name (newest first seen) */
	size_t names_alloc;
	struct pair *pairs;
	size_t npairs, pairs_alloc;
	struct hashmap pairmap; /* (path, person) to pair index */

	/* the current commit */
	uint32_t commit_no;
	bool in_commit, skip_commit;
	int64_t when;
	double decay;
	struct credit credit[COMMIT_PEOPLE_MAX];
	size_t ncredit;

	struct experts_stats st;
	double t0, last_progress;
	bool progress_shown;

	/* the commit table: "sha author reviewer,reviewer" per commit */
	char **clines;
	size_t nclines, clines_alloc;
};

static bool pair_equal(const void *data, uint32_t id, const void *key)
{
	const struct builder *b = data;
	uint64_t k = *(const uint64_t *)key;

	return b->pairs[id].path == (uint32_t)(k >> 32) &&
	       b->pairs[id].person == (uint32_t)k;
}

static void credit_pair(struct builder *b, uint32_t path,
			const struct credit *c)
{
	uint64_t key = (uint64_t)path << 32 | c->person;
	struct pair *p;
	uint32_t id;

	if (b->npairs >= UINT32_MAX - 2)
		die("experts: too many (path, person) pairs");
	id = hashmap_put(&b->pairmap, hash_u64(key), &key, (uint32_t)b->npairs);
	if (id == b->npairs) {
		ALLOC_GROW(b->pairs, b->npairs, b->pairs_alloc);
		p = &b->pairs[b->npairs++];
		memset(p, 0, sizeof(*p));
		p->path = path;
		p->person = c->person;
	}
	p = &b->pairs[id];
	p->score += b->o->weight[c->kind] * b->decay;
	p->count[c->kind]++;
	if (b->when > p->last)
		p->last = b->when;
}

/* intern_path - a path and its directories; returns the path's id */
static uint32_t intern_path(struct builder *b, const char *path, size_t len)
{
	bool added;
	uint32_t id = strset_intern(&b->paths, path, len, &added), dir;
	const char *slash;

	if (!added)
		return id;
	if (b->paths.n > b->paths_alloc) {
		b->paths_alloc = b->paths.alloc;
		b->parent = xreallocarray(b->parent, b->paths_alloc,
					  sizeof(*b->parent));
		b->stamp = xreallocarray(b->stamp, b->paths_alloc,
					 sizeof(*b->stamp));
		b->commits = xreallocarray(b->commits, b->paths_alloc,
					   sizeof(*b->commits));
	}
	b->stamp[id] = 0;
	b->commits[id] = 0;
	b->parent[id] = NONE;
	/* The directory: everything up to the last "/" before the end. */
	slash = len > 1 ? memrchr(path, '/', len - 1) : NULL;
	if (slash) {
		dir = intern_path(b, path, (size_t)(slash - path) + 1);
		b->parent[id] = dir;
	}
	return id;
}

static uint32_t intern_person(struct builder *b, const char *addr,
			      const char *name)
{
	bool added;
	uint32_t id = strset_intern(&b->people, addr, strlen(addr), &added);

	if (added) {
		if (b->people.n > b->names_alloc) {
			b->names_alloc = b->people.alloc;
			b->names = xreallocarray(b->names, b->names_alloc,
						 sizeof(*b->names));
		}
		b->names[id] = xstrdup(name ? name : "");
	} else if (!*b->names[id] && name && *name) {
		free(b->names[id]);
		b->names[id] = xstrdup(name);
	}
	return id;
}

static bool ignored(const struct experts_options *o, const char *addr)
{
	size_t i;

	for (i = 0; i < o->nignore; i++)
		if (fnmatch(o->ignore[i], addr, 0) == 0)
			return true;
	return false;
}

/* add_credit - one person in the current commit, strongest kind kept */
static void add_credit(struct builder *b, const char *addr, const char *name,
		       enum experts_kind kind)
{
	uint32_t id;
	size_t i;

	if (b->o->weight[kind] <= 0)
		return;
	if (experts_is_bot(addr, name) || ignored(b->o, addr)) {
		b->st.bots++;
		return;
	}
	id = intern_person(b, addr, name);
	for (i = 0; i < b->ncredit; i++) {
		if (b->credit[i].person != id)
			continue;
		if (b->o->weight[kind] > b->o->weight[b->credit[i].kind] ||
		    (b->o->weight[kind] == b->o->weight[b->credit[i].kind] &&
		     kind < b->credit[i].kind))
			b->credit[i].kind = kind;
		return;
	}
	if (b->ncredit < COMMIT_PEOPLE_MAX) {
		b->credit[b->ncredit].person = id;
		b->credit[b->ncredit++].kind = kind;
	}
}

static void progress(struct builder *b, bool done)
{
	double t = now_seconds();

	if (!b->o->progress || (done && !b->progress_shown))
		return;
	if (!done && t - b->last_progress < 0.5)
		return;
	b->last_progress = t;
	fprintf(stderr, "\rexperts: %lu commits (%.0f/s), %zu paths%s",
		b->st.commits,
		t > b->t0 ? (double)b->st.commits / (t - b->t0) : 0.0,
		b->paths.n, done ? "\n" : "");
	b->progress_shown = true;
}

/* experts_next_trailer - the next "Key: value" of a "\x1f" list at *p */
bool experts_next_trailer(char **p, char **key, char **value)
{
	while (**p) {
		char *t = *p, *colon, *end = strchr(t, '\x1f');

		if (end)
			*end = '\0';
		*p = end ? end + 1 : t + strlen(t);
		colon = strchr(t, ':');
		if (!colon)
			continue;
		*colon = '\0';
		*key = t;
		*value = colon + 1 + strspn(colon + 1, " \t");
		return true;
	}
	return false;
}

/*
 * header - "\x1e" CT "\x1f" AUTHOR-EMAIL "\x1f" AUTHOR-NAME "\x1f"
 * TRAILER ("\x1f" TRAILER)*, each trailer "Key: value"
 */
static void header(struct builder *b, char *line)
{
	char *field[4], *p = line + 1, *trailers, *sha, *t, *value;
	char author[EXPERTS_ADDR_MAX + 1], addr[EXPERTS_ADDR_MAX + 1];
	struct strbuf reviewers = STRBUF_INIT(COMMIT_REVIEWERS_MAX);
	char name[EXPERTS_NAME_MAX];
	unsigned long ct;
	int i;

	b->st.commits++;
	b->commit_no++;
	b->in_commit = true;
	b->skip_commit = false;
	b->ncredit = 0;
	if ((b->st.commits & 1023) == 0)
		progress(b, false);
	for (i = 0; i < 3; i++) {
		field[i] = p;
		p = strchr(p, '\x1f');
		if (!p) {
			b->skip_commit = true;
			b->st.skipped++;
			return;
		}
		*p++ = '\0';
	}
	trailers = p;
	sha = NULL;
	/* %H before the trailers (older logs, as in tests, have none) */
	if (strspn(p, "0123456789abcdef") == 40 &&
	    (p[40] == '\x1f' || p[40] == '\0')) {
		sha = p;
		trailers = p[40] ? p + 41 : p + 40;
		p[40] = '\0';
	}
	if (parse_ulong(field[0], &ct) < 0) {
		b->skip_commit = true;
		b->st.skipped++;
		return;
	}
	b->when = (int64_t)ct;
	b->decay = b->when >= b->o->now
			   ? 1.0
			   : exp2(-((double)(b->o->now - b->when) / 86400.0) /
				  b->o->halflife_days);

	/* The author: authorship, counted once. */
	author[0] = '\0';
	copy_name(name, sizeof(name), field[2], strlen(field[2]));
	if (experts_parse_addr(field[1], author, sizeof(author), NULL, 0) == 0)
		add_credit(b, author, name, EXPERTS_AUTHORED);
	else
		b->st.invalid++;

	for (p = trailers; experts_next_trailer(&p, &t, &value);) {
		enum experts_kind kind;

		if (strcasecmp(t, "Reviewed-by") == 0)
			kind = EXPERTS_REVIEWED;
		else if (strcasecmp(t, "Acked-by") == 0)
			kind = EXPERTS_ACKED;
		else if (strcasecmp(t, "Signed-off-by") == 0)
			kind = EXPERTS_SIGNED;
		else
			continue;
		if (experts_parse_addr(value, addr, sizeof(addr), name,
				       sizeof(name)) < 0) {
			b->st.invalid++;
			continue;
		}
		/* The author's own sign-off (or self-review) is authorship. */
		if (strcmp(addr, author) == 0)
			continue;
		if (kind == EXPERTS_REVIEWED && !experts_is_bot(addr, name))
			sb_addf(&reviewers, "%s%s", reviewers.len ? "," : "",
				addr);
		add_credit(b, addr, name, kind);
	}
	b->st.credits += b->ncredit;
	if (sha && author[0]) {
		ALLOC_GROW(b->clines, b->nclines + 1, b->clines_alloc);
		b->clines[b->nclines++] =
			xasprintf("%s %s %s\n", sha, author,
				  reviewers.len ? sb_str(&reviewers) : "-");
	}
	sb_release(&reviewers);
}

/* unquote - git's C-style quoting of unusual file names, in place */
static int unquote(char *s)
{
	char *r = s + 1, *w = s;

	for (; *r && *r != '"'; r++) {
		if (*r != '\\') {
			*w++ = *r;
			continue;
		}
		r++;
		switch (*r) {
		case 'a':
			*w++ = '\a';
			break;
		case 'b':
			*w++ = '\b';
			break;
		case 't':
			*w++ = '\t';
			break;
		case 'n':
			*w++ = '\n';
			break;
		case 'v':
			*w++ = '\v';
			break;
		case 'f':
			*w++ = '\f';
			break;
		case 'r':
			*w++ = '\r';
			break;
		case '"':
		case '\\':
			*w++ = *r;
			break;
		case '0':
		case '1':
		case '2':
		case '3':
			if (r[1] >= '0' && r[1] <= '7' && r[2] >= '0' &&
			    r[2] <= '7') {
				*w++ = (char)((r[0] - '0') << 6 |
					      (r[1] - '0') << 3 | (r[2] - '0'));
				r += 2;
				break;
			}
			return -1;
		default:
			return -1;
		}
	}
	if (*r != '"' || r[1])
		return -1;
	*w = '\0';
	return 0;
}

static void file_line(struct builder *b, char *path, size_t len)
{
	uint32_t id;
	size_t i;

	if (!b->in_commit || b->skip_commit)
		return;
	if (path[0] == '"') {
		if (unquote(path) < 0)
			return;
		len = strlen(path);
	}
	if (len == 0 || len > PATH_MAX_LEN || path[0] == '/' ||
	    path[len - 1] == '/')
		return;
	for (i = 0; i < len; i++)
		if ((unsigned char)path[i] < 0x20 || path[i] == 0x7f)
			return;
	id = intern_path(b, path, len);
	/* The file, then each directory this commit has not credited. */
	for (; id != NONE && b->stamp[id] != b->commit_no; id = b->parent[id]) {
		b->stamp[id] = b->commit_no;
		b->commits[id]++;
		for (i = 0; i < b->ncredit; i++)
			credit_pair(b, id, &b->credit[i]);
	}
}

static void line(void *arg, char *s, size_t len, bool overlong)
{
	struct builder *b = arg;

	if (overlong) {
		/* An overlong line: dropped, and its commit with it. */
		if (s[0] == '\x1e') {
			b->st.commits++;
			b->commit_no++;
			b->in_commit = true;
			b->skip_commit = true;
			b->st.skipped++;
		}
		return;
	}
	if (len == 0)
		return;
	if (s[0] == '\x1e')
		header(b, s);
	else
		file_line(b, s, len);
}

/* ---- running git ------------------------------------------------------- */

int experts_read_lines(int fd, experts_line_fn fn, void *arg)
{
	char *buf = xmalloc(READ_BUF);
	size_t have = 0;
	bool discard = false;
	int ret = 0;

	for (;;) {
		/* One byte is kept for the NUL of a last, unterminated line. */
		ssize_t n = read(fd, buf + have, READ_BUF - 1 - have);
		size_t start = 0, i;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = error("reading git log: %s", strerror(errno));
			break;
		}
		if (n == 0) {
			if (have && !discard) {
				buf[have] = '\0';
				fn(arg, buf, have, false);
			}
			break;
		}
		for (i = have; i < have + (size_t)n; i++) {
			if (buf[i] != '\n')
				continue;
			buf[i] = '\0';
			if (discard)
				discard = false;
			else
				fn(arg, buf + start, i - start, false);
			start = i + 1;
		}
		have += (size_t)n;
		if (discard) {
			/* Still inside a dropped line. */
			have = 0;
			continue;
		}
		if (start < have)
			memmove(buf, buf + start, have - start);
		have -= start;
		if (have == READ_BUF - 1) {
			/* An overlong line: its start, once, then dropped. */
			buf[have] = '\0';
			fn(arg, buf, have, true);
			discard = true;
			have = 0;
		}
	}
	free(buf);
	return ret;
}

int experts_git_log(const char *dir, const char *const *args, size_t nargs,
		    experts_line_fn fn, void *arg)
{
	static const char *const head[] = {
		"log",
		"--no-merges",
		"--no-color",
		"--no-show-signature",
	};
	const char **argv = xcalloc(ARRAY_SIZE(head) + nargs, sizeof(*argv));
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(head); i++)
		argv[i] = head[i];
	for (i = 0; i < nargs; i++)
		argv[ARRAY_SIZE(head) + i] = args[i];
	ret = experts_git_run(dir, argv, ARRAY_SIZE(head) + nargs, fn, arg);
	free(argv);
	return ret;
}

/*
 * trusted_repo - "safe.directory=DIR" (DIR made absolute) when the
 * repository at dir belongs to root or to us, else NULL (caller frees).
 * A triage command run as root becomes the state directory's owner
 * first (issue 21), and git then refuses root's own tree (/usr/src/linux)
 * as "dubious ownership"; root's tree is no stranger's, so git is told
 * to trust it.  A tree another user owns stays refused: its config
 * (hooks, core.fsmonitor) would run as us.
 */
static char *trusted_repo(const char *dir)
{
	char real[PATH_MAX], gitdir[PATH_MAX + 8];
	struct stat st;

	if (!realpath(dir, real) || stat(real, &st) < 0 ||
	    (st.st_uid != 0 && st.st_uid != geteuid()))
		return NULL;
	snprintf(gitdir, sizeof(gitdir), "%s/.git", real);
	if (lstat(gitdir, &st) == 0 && st.st_uid != 0 && st.st_uid != geteuid())
		return NULL;
	return xasprintf("safe.directory=%s", real);
}

int experts_git_run(const char *dir, const char *const *args, size_t nargs,
		    experts_line_fn fn, void *arg)
{
	static const char *const head[] = {
		"git", "-C", NULL, "-c", "core.quotePath=false", "-c", NULL,
	};
	const char **argv;
	char *safe = trusted_repo(dir);
	int fds[2], status, ret;
	size_t i, nhead = safe ? ARRAY_SIZE(head) : ARRAY_SIZE(head) - 2;
	pid_t pid;

	argv = xcalloc(nhead + nargs + 1, sizeof(*argv));
	for (i = 0; i < nhead; i++)
		argv[i] = head[i];
	argv[2] = dir;
	if (safe)
		argv[6] = safe;
	for (i = 0; i < nargs; i++)
		argv[nhead + i] = args[i];
	if (pipe2(fds, O_CLOEXEC) < 0) {
		free(argv);
		free(safe);
		return error("pipe: %s", strerror(errno));
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		free(argv);
		free(safe);
		return error("fork: %s", strerror(errno));
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		if (null >= 0)
			dup2(null, 0);
		dup2(fds[1], 1);
		execvp("git", (char *const *)argv);
		fprintf(stderr, "%s: cannot run git: %s\n", msg_prog(),
			strerror(errno));
		_exit(127);
	}
	free(argv);
	free(safe);
	close(fds[1]);
	ret = experts_read_lines(fds[0], fn, arg);
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return error("waitpid: %s", strerror(errno));
	if (ret < 0)
		return ret;
	if (WIFSIGNALED(status))
		return error("git %s in '%s' was killed by signal %d", args[0],
			     dir, WTERMSIG(status));
	if (WEXITSTATUS(status) == 127)
		return -1;
	if (WEXITSTATUS(status) != 0)
		return error("git %s in '%s' failed (exit status %d)", args[0],
			     dir, WEXITSTATUS(status));
	return 0;
}

static int run_git(struct builder *b, const char *dir)
{
	char since[64];
	const char *args[] = { EXPERTS_LOG_FORMAT, "--name-only", since };

	snprintf(since, sizeof(since), "--since=@%lld", (long long)b->o->since);
	return experts_git_log(dir, args,
			       ARRAY_SIZE(args) - (b->o->since > 0 ? 0 : 1),
			       line, b);
}

/* ---- writing the image ------------------------------------------------- */

static const struct builder *sort_b;

static int cmp_pair_score(const void *x, const void *y)
{
	const struct pair *a = *(const struct pair *const *)x;
	const struct pair *c = *(const struct pair *const *)y;

	if (a->score != c->score)
		return a->score > c->score ? -1 : 1;
	return strcmp(sort_b->people.str[a->person],
		      sort_b->people.str[c->person]);
}

static int cmp_path_id(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, c = *(const uint32_t *)y;

	return strcmp(sort_b->paths.str[a], sort_b->paths.str[c]);
}

static uint32_t add_string(struct strbuf *sb, const char *s)
{
	uint32_t off = (uint32_t)sb->len;

	if (sb_add(sb, s, strlen(s) + 1) < 0)
		die("experts index: string table too large");
	return off;
}

/* build_image - keep each path's best people; lay the table out */
static char *build_image(struct builder *b, size_t *size)
{
	size_t np = b->paths.n, i, j, *start, nkept = 0, *fill;
	struct pair **byp;
	uint32_t *order, *person_new, npeople = 0;
	struct img_path *ipaths;
	struct img_entry *ient;
	struct img_person *ipeople;
	struct strbuf strings = STRBUF_INIT(UINT32_MAX / 2);
	struct strbuf img = STRBUF_INIT(UINT32_MAX / 2);
	struct img_header h;
	uint32_t npaths = 0;

	/* Group pairs by path (counting sort), best first within a path. */
	start = xcalloc(np + 1, sizeof(*start));
	for (i = 0; i < b->npairs; i++)
		start[b->pairs[i].path + 1]++;
	for (i = 0; i < np; i++)
		start[i + 1] += start[i];
	fill = xcalloc(np + 1, sizeof(*fill));
	byp = xcalloc(b->npairs + 1, sizeof(*byp));
	for (i = 0; i < b->npairs; i++) {
		uint32_t p = b->pairs[i].path;

		byp[start[p] + fill[p]++] = &b->pairs[i];
	}
	free(fill);
	sort_b = b;
	for (i = 0; i < np; i++)
		qsort(byp + start[i], start[i + 1] - start[i], sizeof(*byp),
		      cmp_pair_score);

	/* Paths with people, in strcmp order. */
	order = xcalloc(np + 1, sizeof(*order));
	for (i = 0; i < np; i++)
		if (start[i + 1] > start[i])
			order[npaths++] = (uint32_t)i;
	qsort(order, npaths, sizeof(*order), cmp_path_id);

	/* People that survive the cut get new, dense ids. */
	person_new = xcalloc(b->people.n + 1, sizeof(*person_new));
	for (i = 0; i < b->people.n; i++)
		person_new[i] = NONE;
	add_string(&strings, "");
	ipaths = xcalloc(npaths + 1, sizeof(*ipaths));
	for (i = 0; i < npaths; i++) {
		size_t p = order[i], n = start[p + 1] - start[p];

		if (n > b->o->max_per_path)
			n = b->o->max_per_path;
		nkept += n;
	}
	ient = xcalloc(nkept + 1, sizeof(*ient));
	ipeople = xcalloc(b->people.n + 1, sizeof(*ipeople));
	nkept = 0;
	for (i = 0; i < npaths; i++) {
		size_t p = order[i], n = start[p + 1] - start[p];
		const char *s = b->paths.str[p];

		if (n > b->o->max_per_path)
			n = b->o->max_per_path;
		ipaths[i].str = add_string(&strings, s);
		ipaths[i].first = (uint32_t)nkept;
		ipaths[i].count = (uint32_t)n;
		ipaths[i].commits = b->commits[p];
		if (s[strlen(s) - 1] == '/')
			b->st.dirs++;
		else
			b->st.files++;
		for (j = 0; j < n; j++) {
			const struct pair *pr = byp[start[p] + j];
			struct img_entry *e = &ient[nkept++];

			if (person_new[pr->person] == NONE) {
				ipeople[npeople].addr = add_string(
					&strings, b->people.str[pr->person]);
				ipeople[npeople].name = add_string(
					&strings, b->names[pr->person]);
				person_new[pr->person] = npeople++;
			}
			e->person = person_new[pr->person];
			memcpy(e->count, pr->count, sizeof(e->count));
			e->score = pr->score;
			e->last = pr->last;
		}
	}
	b->st.people = npeople;

	memset(&h, 0, sizeof(h));
	memcpy(h.magic, EX_MAGIC, 8);
	h.version = EX_VERSION;
	h.endian = EX_ENDIAN;
	h.max_per_path = b->o->max_per_path;
	h.ref_time = (int64_t)b->o->now;
	h.since = (int64_t)b->o->since;
	h.halflife = b->o->halflife_days;
	memcpy(h.weight, b->o->weight, sizeof(h.weight));
	h.commits = b->st.commits;
	h.npaths = npaths;
	h.nentries = (uint32_t)nkept;
	h.npeople = npeople;
	sb_add(&img, &h, sizeof(h));
	h.off_paths = img_place(&img, ipaths, npaths * sizeof(*ipaths),
				"experts index");
	h.off_entries =
		img_place(&img, ient, nkept * sizeof(*ient), "experts index");
	h.off_people = img_place(&img, ipeople, npeople * sizeof(*ipeople),
				 "experts index");
	h.off_strings =
		img_place(&img, strings.buf, strings.len, "experts index");
	h.strings_size = (uint32_t)strings.len;
	if (img_align8(img.len) > img.len)
		img_place(&img, "", 0, "experts index");
	h.size = (uint32_t)img.len;
	memcpy(img.buf, &h, sizeof(h));

	free(start);
	free(byp);
	free(order);
	free(person_new);
	free(ipaths);
	free(ient);
	free(ipeople);
	sb_release(&strings);
	return sb_detach(&img, size);
}

static void builder_release(struct builder *b)
{
	size_t i;

	strset_release(&b->paths);
	for (i = 0; i < b->people.n; i++)
		free(b->names[i]);
	free(b->names);
	strset_release(&b->people);
	free(b->parent);
	free(b->stamp);
	free(b->commits);
	free(b->pairs);
	hashmap_release(&b->pairmap);
	for (i = 0; i < b->nclines; i++)
		free(b->clines[i]);
	free(b->clines);
}

static struct experts *from_buffer(unsigned char *base, size_t size,
				   bool mapped, const char *what);

static int cmp_line(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* experts_commits_path - the commit table written next to index out */
char *experts_commits_path(const char *index)
{
	return xasprintf("%s.commits", index);
}

/*
 * write_commits - the commit table, sorted by sha, next to the index:
 * one "SHA AUTHOR REVIEWER,REVIEWER|-" line per commit of the log
 */
static int write_commits(struct builder *b, const char *out)
{
	struct strbuf sb = STRBUF_INIT(SIZE_MAX / 2);
	char *path;
	size_t i;
	int ret;

	if (b->nclines)
		qsort(b->clines, b->nclines, sizeof(*b->clines), cmp_line);
	for (i = 0; i < b->nclines; i++)
		if (!i || strcmp(b->clines[i], b->clines[i - 1]))
			sb_adds(&sb, b->clines[i]);
	path = experts_commits_path(out);
	ret = write_file_atomic(path, sb.buf ? sb.buf : "", sb.len, 0644);
	free(path);
	sb_release(&sb);
	return ret;
}

/* finish_import - build, check and write the index; free the builder */
static int finish_import(struct builder *b, const char *out,
			 struct experts_stats *stats)
{
	struct experts *ex;
	char *img;
	size_t size;
	int ret;

	img = build_image(b, &size);
	if (write_commits(b, out) < 0) {
		builder_release(b);
		free(img);
		return -2;
	}
	builder_release(b);
	/* Check what we are about to publish with the reader's checks. */
	ex = from_buffer((unsigned char *)img, size, false, "new index");
	if (!ex || experts_verify(ex) < 0) {
		experts_free(ex);
		return error(
			"experts: internal error: the new index does not verify");
	}
	ret = write_file_atomic(out, img, size, 0644) < 0 ? -2 : 0;
	experts_free(ex);
	b->st.bytes = size;
	b->st.seconds = now_seconds() - b->t0;
	if (stats)
		*stats = b->st;
	return ret;
}

static int start_import(struct builder *b, const struct experts_options *o)
{
	memset(b, 0, sizeof(*b));
	b->o = o;
	b->t0 = now_seconds();
	if (!(o->halflife_days > 0) || o->max_per_path == 0)
		return error("experts: bad options (half-life %g, max %u)",
			     o->halflife_days, o->max_per_path);
	hashmap_init(&b->paths.map, strset_equal, &b->paths, 1024);
	hashmap_init(&b->people.map, strset_equal, &b->people, 1024);
	hashmap_init(&b->pairmap, pair_equal, b, 4096);
	return 0;
}

/*
 * experts_import - mine the history of the git repository in dir and
 * write the index to out (atomically)
 */
int experts_import(const char *dir, const struct experts_options *o,
		   const char *out, struct experts_stats *stats)
{
	struct history_stats hs;
	struct builder b;
	char *hpath;
	int ret;

	if (start_import(&b, o) < 0)
		return -1;
	ret = run_git(&b, dir);
	progress(&b, true);
	if (ret < 0) {
		builder_release(&b);
		return -1;
	}
	ret = finish_import(&b, out, stats);
	if (ret < 0)
		return ret;
	hpath = history_path(out);
	ret = history_import(dir, hpath, &hs);
	free(hpath);
	if (ret == 0 && stats) {
		stats->history_commits = hs.commits;
		stats->history_releases = hs.releases;
		stats->history_bytes = hs.bytes;
		stats->history_seconds = hs.seconds;
		stats->history_complete = hs.complete;
	}
	return ret;
}

/*
 * experts_import_fd - the same from git log output already produced
 * (EXPERTS_LOG_FORMAT with --name-only); o->since is not applied
 */
int experts_import_fd(int fd, const struct experts_options *o, const char *out,
		      struct experts_stats *stats)
{
	struct builder b;

	if (start_import(&b, o) < 0)
		return -1;
	if (experts_read_lines(fd, line, &b) < 0) {
		builder_release(&b);
		return -1;
	}
	progress(&b, true);
	return finish_import(&b, out, stats);
}

/* ---- opening and validating -------------------------------------------- */

static struct experts *from_buffer(unsigned char *base, size_t size,
				   bool mapped, const char *what)
{
	struct experts *ex = xcalloc(1, sizeof(*ex));
	const struct img_header *h = (const void *)base;

	ex->base = base;
	ex->size = size;
	ex->mapped = mapped;
	if (size < 8 || memcmp(h->magic, EX_MAGIC, 8) != 0) {
		error("%s: not a triage experts index", what);
		goto fail;
	}
	if (size < sizeof(*h)) {
		error("%s: truncated experts index; run 'triage experts import'",
		      what);
		goto fail;
	}
	if (h->version != EX_VERSION || h->endian != EX_ENDIAN) {
		error("%s: experts index format %u is not %u; run 'triage experts import'",
		      what, h->version, EX_VERSION);
		goto fail;
	}
	if (h->size != size ||
	    !img_range_ok(size, h->off_paths, h->npaths,
			  sizeof(struct img_path), 8) ||
	    !img_range_ok(size, h->off_entries, h->nentries,
			  sizeof(struct img_entry), 8) ||
	    !img_range_ok(size, h->off_people, h->npeople,
			  sizeof(struct img_person), 8) ||
	    !img_range_ok(size, h->off_strings, h->strings_size, 1, 8) ||
	    h->strings_size == 0 ||
	    base[h->off_strings + h->strings_size - 1] != '\0' ||
	    !(h->halflife > 0)) {
		error("%s: corrupt experts index; run 'triage experts import'",
		      what);
		goto fail;
	}
	ex->h = h;
	ex->paths = (const void *)(base + h->off_paths);
	ex->entries = (const void *)(base + h->off_entries);
	ex->people = (const void *)(base + h->off_people);
	ex->strings = (const char *)base + h->off_strings;
	return ex;
fail:
	experts_free(ex);
	return NULL;
}

/*
 * experts_open - mmap an index written by experts_import()
 *
 * Checks the header and bounds in constant time; records are checked
 * as lookups touch them (see experts.h).
 */
struct experts *experts_open(const char *path)
{
	size_t size;
	void *p = img_map(path, "experts index", 1, UINT32_MAX, &size);

	return p ? from_buffer(p, size, true, path) : NULL;
}

/* experts_free - unmap and free an index (NULL is fine) */
void experts_free(struct experts *ex)
{
	if (!ex)
		return;
	if (ex->mapped)
		img_unmap(ex->base, ex->size);
	else
		free(ex->base);
	free(ex);
}

static bool path_ok(const struct experts *ex, const struct img_path *p)
{
	const struct img_header *h = ex->h;

	return p->str < h->strings_size && p->first <= h->nentries &&
	       p->count <= h->nentries - p->first;
}

static bool entry_ok(const struct experts *ex, const struct img_entry *e)
{
	const struct img_header *h = ex->h;
	const struct img_person *pp;

	if (e->person >= h->npeople)
		return false;
	pp = &ex->people[e->person];
	return pp->addr < h->strings_size && pp->name < h->strings_size &&
	       e->score == e->score;
}

/* experts_verify - check every record of the index; -1 when corrupt */
int experts_verify(const struct experts *ex)
{
	uint32_t i;

	for (i = 0; i < ex->h->npaths; i++) {
		if (!path_ok(ex, &ex->paths[i]))
			goto corrupt;
		if (i && strcmp(ex->strings + ex->paths[i - 1].str,
				ex->strings + ex->paths[i].str) >= 0)
			goto corrupt;
	}
	for (i = 0; i < ex->h->nentries; i++)
		if (!entry_ok(ex, &ex->entries[i]))
			goto corrupt;
	return 0;
corrupt:
	return error("corrupt experts index; run 'triage experts import'");
}

/* experts_reference_time - the "now" the scores were decayed to */
time_t experts_reference_time(const struct experts *ex)
{
	return (time_t)ex->h->ref_time;
}

/* experts_commits - commits the import read */
unsigned long experts_commits(const struct experts *ex)
{
	return (unsigned long)ex->h->commits;
}

/* find - binary search; NULL when absent or when a record is damaged */
static const struct img_path *find(const struct experts *ex, const char *key,
				   bool *bad)
{
	size_t lo = 0, hi = ex->h->npaths;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct img_path *p = &ex->paths[mid];
		int c;

		if (!path_ok(ex, p)) {
			*bad = true;
			return NULL;
		}
		c = strcmp(key, ex->strings + p->str);
		if (c == 0)
			return p;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/*
 * experts_for_path - people for a file, or for its nearest directory
 * that has some; best first.  Returns the number stored (<= max).
 * "dir" and "dir/" both name a directory.
 */
size_t experts_for_path(const struct experts *ex, const char *path,
			struct expert *out, size_t max)
{
	char key[PATH_MAX_LEN + 2];
	const struct img_path *p = NULL;
	size_t len, i, n;
	bool bad = false;

	while (path[0] == '.' && path[1] == '/')
		path += 2;
	while (path[0] == '/')
		path++;
	len = strlen(path);
	if (len == 0 || len > PATH_MAX_LEN)
		return 0;
	memcpy(key, path, len + 1);
	p = find(ex, key, &bad);
	if (!p && !bad && key[len - 1] != '/') {
		key[len] = '/';
		key[len + 1] = '\0';
		p = find(ex, key, &bad);
		key[len] = '\0';
	}
	while (!p && !bad) {
		char *slash;

		/* The next directory up: cut after the previous "/". */
		if (len && key[len - 1] == '/')
			key[--len] = '\0';
		slash = strrchr(key, '/');
		if (!slash)
			break;
		slash[1] = '\0';
		len = (size_t)(slash - key) + 1;
		p = find(ex, key, &bad);
	}
	if (bad || !p) {
		if (bad)
			error("corrupt experts index; run 'triage experts import'");
		return 0;
	}
	n = p->count < max ? p->count : max;
	for (i = 0; i < n; i++) {
		const struct img_entry *e = &ex->entries[p->first + i];
		const struct img_person *pp;

		if (!entry_ok(ex, e)) {
			error("corrupt experts index; run 'triage experts import'");
			return 0;
		}
		pp = &ex->people[e->person];
		out[i].addr = ex->strings + pp->addr;
		out[i].name = ex->strings + pp->name;
		out[i].score = e->score;
		memcpy(out[i].count, e->count, sizeof(out[i].count));
		out[i].last = (time_t)e->last;
		out[i].path = ex->strings + p->str;
		out[i].commits = p->commits;
	}
	return n;
}

/* ---- the commit table ---------------------------------------------------- */

static void take_field(const char **p, const char *end, char *out, size_t size)
{
	const char *q = *p;
	size_t n;

	while (q < end && *q != ' ' && *q != '\n')
		q++;
	n = (size_t)(q - *p);
	if (n >= size)
		n = size - 1;
	memcpy(out, *p, n);
	out[n] = '\0';
	*p = q < end && *q == ' ' ? q + 1 : q;
}

/*
 * experts_commit_find - the author and reviewers of the commit whose id
 * starts with sha (7 to 40 lower-case hex digits) in the commit table
 * at path: 1 when exactly one commit matches, 0 when none or several
 * (or no table), -1 when the table cannot be read
 */
/* commit_cmp - a table line against the id prefix (a short line sorts last) */
static int commit_cmp(const char *line, const char *end, const char *sha,
		      size_t n)
{
	const char *nl = memchr(line, '\n', (size_t)(end - line));

	if ((size_t)((nl ? nl : end) - line) <= n)
		return 1;
	return strncmp(line, sha, n);
}

/* next_line - the start of the line after the one at p, or end */
static const char *next_line(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));

	return nl ? nl + 1 : end;
}

int experts_commit_find(const char *path, const char *sha,
			struct experts_commit *out)
{
	size_t n = sha ? strlen(sha) : 0, len;
	const char *base, *end, *lo, *hi, *mid, *e, *q;
	char revs[COMMIT_REVIEWERS_MAX], *r, *save = NULL;
	struct stat st;
	void *map;
	int fd, found;

	memset(out, 0, sizeof(*out));
	if (n < 7 || n > 40 || strspn(sha, "0123456789abcdef") != n)
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0; /* no table (as an unreadable one) */
	if (fstat(fd, &st) < 0) {
		close(fd);
		return -1;
	}
	if (st.st_size == 0) {
		close(fd);
		return 0;
	}
	len = (size_t)st.st_size;
	map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -1;
	base = map;
	end = base + len;

	/*
	 * The table is sorted: a binary search for the first line not
	 * below the prefix (lo is always a line start), then one more
	 * line tells a unique prefix from an ambiguous one.
	 */
	lo = base;
	hi = end;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		while (mid > lo && mid[-1] != '\n')
			mid--;
		if (commit_cmp(mid, end, sha, n) < 0)
			lo = next_line(mid, end);
		else
			hi = mid;
	}
	found = lo < end && commit_cmp(lo, end, sha, n) == 0;
	e = found ? next_line(lo, end) : end;
	if (found && e < end && commit_cmp(e, end, sha, n) == 0)
		found = 0; /* several commits share the prefix */
	if (found) {
		q = lo;
		if (e > lo && e[-1] == '\n')
			e--;
		take_field(&q, e, out->sha, sizeof(out->sha));
		take_field(&q, e, out->author, sizeof(out->author));
		take_field(&q, e, revs, sizeof(revs));
		for (r = strtok_r(revs, ",", &save);
		     r && out->nreviewers < EXPERTS_COMMIT_REVIEWERS;
		     r = strtok_r(NULL, ",", &save))
			if (strcmp(r, "-") && experts_addr_valid(r))
				snprintf(out->reviewers[out->nreviewers++],
					 sizeof(out->reviewers[0]), "%s", r);
		if (!experts_addr_valid(out->author))
			out->author[0] = '\0';
	}
	munmap(map, len);
	return found;
}
