// SPDX-License-Identifier: GPL-2.0-only
/*
 * experts_history - the commit ids of a tree's history (experts_history.h)
 *
 * The table is an image (image.h): a header, the release commits
 * (oldest first), then the commits sorted by id.  A commit is 12 bytes
 * (its id's first 16 hex digits as two 32-bit halves, and its subject's
 * hash << 8 | length) so that the kernel's whole history (1.3 million
 * commits) stays near 16 MB; an id is found by a binary search of the
 * mapped array, which touches a few of its pages.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "experts.h"
#include "experts_history.h"
#include "hash.h"
#include "image.h"
#include "strbuf.h"
#include "util.h"

#define HIST_MAGIC   "TRGHIST1"
#define HIST_VERSION 1
#define HIST_ENDIAN  0x01020304u
#define HIST_MAX     (1u << 30) /* bytes */
#define HIST_ID_HEX  16

struct hist_header {
	char magic[8];
	uint32_t version, endian;
	uint64_t size;
	uint32_t ncommits, off_commits;
	uint32_t nreleases, off_releases;
	uint32_t complete, pad;
};

struct hist_commit {
	uint32_t hi, lo;  /* the id's first 16 hex digits */
	uint32_t subject; /* hash of the normalized subject << 8 | length */
};

struct hist_release {
	uint32_t version, rc;
	int64_t when;
};

struct history_builder {
	struct hist_commit *c;
	size_t n, alloc;
	struct hist_release *r;
	size_t nr, ralloc;
	double t0;
};

struct history {
	unsigned char *base;
	size_t size;
	const struct hist_header *h;
	const struct hist_commit *c;
	const struct hist_release *r;
};

char *history_path(const char *index)
{
	return xasprintf("%s.history", index);
}

/* hex_id - the first 16 hex digits of hex[0..n), zero-padded; -1: not hex */
static int hex_id(const char *hex, size_t n, uint64_t *id)
{
	size_t i;

	*id = 0;
	for (i = 0; i < HIST_ID_HEX; i++) {
		unsigned d = 0;

		if (i < n) {
			char ch = hex[i];

			if (ch >= '0' && ch <= '9')
				d = (unsigned)(ch - '0');
			else if (ch >= 'a' && ch <= 'f')
				d = (unsigned)(ch - 'a' + 10);
			else
				return -1;
		}
		*id = *id << 4 | d;
	}
	return 0;
}

/* subject_key - hash << 8 | length of the normalized s[0..n) */
static uint32_t subject_key(const char *s, size_t n, size_t *len)
{
	char buf[HISTORY_SUBJECT_HASHED];
	size_t i, k = 0, total = 0;
	bool blank = false;

	for (i = 0; i < n; i++) {
		bool b = s[i] == ' ' || s[i] == '\t' || s[i] == '\n' ||
			 s[i] == '\r';

		if (b) {
			blank = total > 0;
			continue;
		}
		if (blank) {
			if (k < sizeof(buf))
				buf[k++] = ' ';
			total++;
			blank = false;
		}
		if (k < sizeof(buf))
			buf[k++] = s[i];
		total++;
	}
	*len = total;
	return (hash_mem(buf, k) & 0xffffffu) << 8 |
	       (uint32_t)(total < 255 ? total : 255);
}

/* release_of - "Linux 6.12" / "Linux 6.13-rc1": its version and rc */
static bool release_of(const char *s, size_t n, struct hist_release *r)
{
	unsigned long a, b, rc = HISTORY_FINAL_RC;
	char buf[32], *e;

	if (n < 9 || n >= sizeof(buf) || memcmp(s, "Linux ", 6) != 0)
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (buf[6] < '1' || buf[6] > '9')
		return false;
	a = strtoul(buf + 6, &e, 10);
	if (*e != '.' || e[1] < '0' || e[1] > '9')
		return false;
	b = strtoul(e + 1, &e, 10);
	if (!strncmp(e, "-rc", 3) && e[3] >= '1' && e[3] <= '9')
		rc = strtoul(e + 3, &e, 10);
	if (*e || a < 3 || a > 255 || b > 255 || rc > HISTORY_FINAL_RC)
		return false;
	r->version = HISTORY_VERSION(a, b);
	r->rc = (uint32_t)rc;
	return true;
}

struct history_builder *history_builder_new(void)
{
	struct history_builder *b = xcalloc(1, sizeof(*b));

	b->t0 = now_seconds();
	return b;
}

void history_builder_add(struct history_builder *b, const char *sha,
			 size_t shalen, int64_t when, const char *subject,
			 size_t sublen)
{
	struct hist_release rel;
	uint64_t id;
	size_t len;

	if (shalen < HIST_ID_HEX || hex_id(sha, shalen, &id) < 0)
		return;
	ALLOC_GROW(b->c, b->n + 1, b->alloc);
	b->c[b->n].hi = (uint32_t)(id >> 32);
	b->c[b->n].lo = (uint32_t)id;
	b->c[b->n].subject = subject_key(subject, sublen, &len);
	b->n++;
	if (release_of(subject, sublen, &rel)) {
		rel.when = when;
		ALLOC_GROW(b->r, b->nr + 1, b->ralloc);
		b->r[b->nr++] = rel;
	}
}

static int cmp_commit(const void *x, const void *y)
{
	const struct hist_commit *a = x, *b = y;

	if (a->hi != b->hi)
		return a->hi < b->hi ? -1 : 1;
	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return 0;
}

static int cmp_release(const void *x, const void *y)
{
	const struct hist_release *a = x, *b = y;

	if (a->version != b->version)
		return a->version < b->version ? -1 : 1;
	if (a->rc != b->rc)
		return a->rc < b->rc ? -1 : 1;
	return 0;
}

int history_builder_write(struct history_builder *b, bool complete,
			  const char *out, struct history_stats *st)
{
	struct strbuf img = STRBUF_INIT(HIST_MAX);
	struct hist_header h;
	int ret;

	if (b->n)
		qsort(b->c, b->n, sizeof(*b->c), cmp_commit);
	if (b->nr)
		qsort(b->r, b->nr, sizeof(*b->r), cmp_release);
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, HIST_MAGIC, 8);
	h.version = HIST_VERSION;
	h.endian = HIST_ENDIAN;
	h.complete = complete;
	img_place(&img, &h, sizeof(h), "history");
	h.nreleases = (uint32_t)b->nr;
	h.off_releases =
		img_place(&img, b->r, b->nr * sizeof(*b->r), "history");
	h.ncommits = (uint32_t)b->n;
	h.off_commits = img_place(&img, b->c, b->n * sizeof(*b->c), "history");
	h.size = img.len;
	memcpy(img.buf, &h, sizeof(h));
	ret = write_file_atomic(out, img.buf, img.len, 0644) < 0 ? -2 : 0;
	if (st) {
		memset(st, 0, sizeof(*st));
		st->commits = b->n;
		st->releases = b->nr;
		st->complete = complete;
		st->bytes = img.len;
		st->seconds = now_seconds() - b->t0;
	}
	sb_release(&img);
	return ret;
}

void history_builder_free(struct history_builder *b)
{
	if (!b)
		return;
	free(b->c);
	free(b->r);
	free(b);
}

/* one "SHA CT SUBJECT" line of git log */
static void log_line(void *arg, char *line, size_t len, bool overlong)
{
	struct history_builder *b = arg;
	unsigned long ct;
	char *sp, *sub;

	if (len < 42 || line[40] != ' ')
		return;
	line[40] = '\0';
	sp = strchr(line + 41, ' ');
	sub = sp ? sp + 1 : line + len;
	if (sp)
		*sp = '\0';
	if (parse_ulong(line + 41, &ct) < 0)
		return;
	/* a cut subject (overlong) still has its hashed bytes */
	history_builder_add(b, line, 40, (int64_t)ct, sub,
			    overlong ? HISTORY_SUBJECT_HASHED
				     : (size_t)(line + len - sub));
}

static void shallow_line(void *arg, char *line, size_t len, bool overlong)
{
	(void)len;
	(void)overlong;
	*(bool *)arg = strcmp(line, "true") == 0;
}

int history_import(const char *dir, const char *out, struct history_stats *st)
{
	static const char *const log[] = {
		"log",
		"--no-color",
		"--no-show-signature",
		"--format=%H %ct %s",
		"HEAD",
	};
	static const char *const shallow[] = { "rev-parse",
					       "--is-shallow-repository" };
	struct history_builder *b = history_builder_new();
	bool is_shallow = true;
	int ret;

	if (experts_git_run(dir, shallow, ARRAY_SIZE(shallow), shallow_line,
			    &is_shallow) < 0 ||
	    experts_git_run(dir, log, ARRAY_SIZE(log), log_line, b) < 0) {
		history_builder_free(b);
		return -1;
	}
	ret = history_builder_write(b, !is_shallow, out, st);
	history_builder_free(b);
	return ret;
}

/* ---- reading ------------------------------------------------------------ */

struct history *history_open(const char *path)
{
	struct history *h;
	const struct hist_header *hd;
	size_t size;
	void *base;

	if (access(path, F_OK) < 0 && errno == ENOENT)
		return NULL;
	base = img_map(path, "commit history", sizeof(*hd), HIST_MAX, &size);
	if (!base)
		return NULL;
	hd = base;
	if (memcmp(hd->magic, HIST_MAGIC, 8) || hd->version != HIST_VERSION ||
	    hd->endian != HIST_ENDIAN || hd->size != size ||
	    !img_range_ok(size, hd->off_commits, hd->ncommits,
			  sizeof(struct hist_commit), 4) ||
	    !img_range_ok(size, hd->off_releases, hd->nreleases,
			  sizeof(struct hist_release), 8)) {
		error("%s: not a commit history of this version; run 'triage experts import'",
		      path);
		img_unmap(base, size);
		return NULL;
	}
	h = xcalloc(1, sizeof(*h));
	h->base = base;
	h->size = size;
	h->h = hd;
	h->c = (const void *)(h->base + hd->off_commits);
	h->r = (const void *)(h->base + hd->off_releases);
	return h;
}

void history_free(struct history *h)
{
	if (!h)
		return;
	img_unmap(h->base, h->size);
	free(h);
}

unsigned long history_ncommits(const struct history *h)
{
	return h ? h->h->ncommits : 0;
}

bool history_complete(const struct history *h)
{
	return h && h->h->complete;
}

bool history_newest_release(const struct history *h, unsigned *version,
			    unsigned *rc)
{
	if (!h || !h->h->nreleases)
		return false;
	*version = h->r[h->h->nreleases - 1].version;
	*rc = h->r[h->h->nreleases - 1].rc;
	return true;
}

static uint64_t id_at(const struct history *h, size_t i)
{
	return (uint64_t)h->c[i].hi << 32 | h->c[i].lo;
}

/* lower_bound - the first commit whose id is not below id */
static size_t lower_bound(const struct history *h, uint64_t id)
{
	size_t lo = 0, hi = h->h->ncommits;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (id_at(h, mid) < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int history_find(const struct history *h, const char *hex, size_t n,
		 uint32_t *subject)
{
	uint64_t lo, last;
	size_t i, k = n < HIST_ID_HEX ? n : HIST_ID_HEX;

	if (!h || n < 7 || n > 40 || hex_id(hex, k, &lo) < 0)
		return 0;
	/* the largest id with that prefix: the digits after it all f */
	last = k < HIST_ID_HEX
		       ? lo | ((UINT64_C(1) << (4 * (HIST_ID_HEX - k))) - 1)
		       : lo;
	i = lower_bound(h, lo);
	if (i >= h->h->ncommits || id_at(h, i) > last)
		return 0;
	if (i + 1 < h->h->ncommits && id_at(h, i + 1) <= last)
		return -1;
	*subject = h->c[i].subject;
	return 1;
}

int history_subject_cmp(uint32_t subject, const char *s, size_t n, bool cut)
{
	size_t len, stored = subject & 0xff;
	uint32_t key = subject_key(s, n, &len);

	if (cut) {
		if (len < HISTORY_SUBJECT_HASHED)
			return -1;
		return stored >= HISTORY_SUBJECT_HASHED &&
		       (key >> 8) == (subject >> 8);
	}
	return key == subject;
}
