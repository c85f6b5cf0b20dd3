// SPDX-License-Identifier: GPL-2.0-only
/*
 * symbols - kernel function name -> defining source files (see symbols.h)
 *
 * The index (format 4) is a header, then 8-byte aligned arrays, then
 * the blocks, 4096-byte aligned:
 *
 *	top      uint32_t[nblocks] offsets of the separators, then the
 *	         separators, NUL-terminated: block i holds the names n
 *	         with sep[i] <= n < sep[i + 1] (strcmp order); sep[0] is
 *	         "", the others the shortest prefix of the block's first
 *	         name that is greater than the last name of the block
 *	         before
 *	over     the refs of names with more than INLINE_REFS files
 *	paths    NUL-terminated: the files' paths
 *	ids      uint32_t[nblocks]: the id of each block's first name (a
 *	         name's id is its rank among all names)
 *	calls    the call lists: each a varint count, a flags byte
 *	         (SYMBOLS_CALLS_INDIRECT, CALLS_UNKNOWN), then the ids of
 *	         the names the body calls, sorted, as varint differences;
 *	         offset 0 is the empty list of what has no body
 *	blocks   nblocks x 4096 bytes: a uint16_t count, then the names
 *	         in order, front-coded, each with its refs; zero padding
 *
 * An entry: the length it shares with the name before in its block
 * (uint8_t, 0 for the first), the length of the rest (uint8_t), the
 * rest, a count (uint8_t): up to INLINE_REFS, the refs follow; else
 * REFS_MANY, the count (uint32_t) and the offset in over (uint32_t) of
 * all the refs, and the first FIRST_REFS of them.  A ref is one
 * definition, best first: the path's offset in paths (uint32_t), the
 * rank (uint8_t), the first and last lines of the body (uint32_t each)
 * and the offset of its call list in calls (uint32_t).
 *
 * A lookup costs a binary search of the separators (read once by the
 * pread() reader), one block and one path: with pread(), one read each
 * (the last block read and the paths returned are kept).  Whether a
 * caller calls a callee (symbols_calls()) costs the two lookups, then
 * one read per call list followed; a call list names ids, and the ids
 * table (read once) gives the block of an id.
 *
 * Building walks the tree once, scans the files on a few threads (each
 * file is read whole and scanned by symbols_scan_defs(), symbols_scan.c,
 * a hand-written state machine that only tokenises at file scope and
 * skips function bodies by counting braces; each body is then read once
 * for the names it calls, symbols_body_calls()), then sorts all (name,
 * rank, file) records once, and turns the called names into ids with
 * one hash table of all names.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hash.h"
#include "hashmap.h"
#include "image.h"
#include "strbuf.h"
#include "symbols.h"
#include "symbols_int.h"
#include "util.h"

/* ---- building --------------------------------------------------------- */

static bool source_name(const char *name)
{
	return ends_with(name, ".c") || ends_with(name, ".h");
}

static bool kconfig_name(const char *name)
{
	return !strcmp(name, "Kconfig") || starts_with(name, "Kconfig.");
}

static bool makefile_name(const char *name)
{
	return !strcmp(name, "Makefile") || !strcmp(name, "Kbuild") ||
	       kconfig_name(name);
}

/*
 * walk - collect the .c and .h files below dir (relative paths), and
 * the Makefiles (kbuild says which objects make which module)
 */
static int walk(const char *root, struct strbuf *rel, struct file_list *fl,
		struct file_list *mk)
{
	char *path =
		rel->len ? xasprintf("%s/%s", root, rel->buf) : xstrdup(root);
	DIR *d = opendir(path);
	struct dirent *de;
	size_t base = rel->len;
	int ret = 0;

	if (!d) {
		ret = error("cannot read directory '%s': %s", path,
			    strerror(errno));
		free(path);
		return ret;
	}
	while ((de = readdir(d))) {
		unsigned type = de->d_type;

		if (de->d_name[0] == '.')
			continue;
		if (type == DT_UNKNOWN) {
			struct stat st;
			char *p = xasprintf("%s/%s", path, de->d_name);

			type = lstat(p, &st) < 0     ? DT_UNKNOWN
			       : S_ISDIR(st.st_mode) ? DT_DIR
			       : S_ISREG(st.st_mode) ? DT_REG
						     : DT_UNKNOWN;
			free(p);
		}
		if (type != DT_DIR &&
		    (type != DT_REG ||
		     (!source_name(de->d_name) && !makefile_name(de->d_name))))
			continue;
		if ((base && sb_addc(rel, '/') < 0) ||
		    sb_adds(rel, de->d_name) < 0) {
			warn("path too long under '%s'; skipped", path);
			sb_truncate(rel, base);
			continue;
		}
		if (type == DT_DIR) {
			if (walk(root, rel, fl, mk) < 0)
				ret = -1;
		} else if (makefile_name(de->d_name)) {
			ALLOC_GROW(mk->v, mk->n, mk->alloc);
			mk->v[mk->n++] = xstrdup(rel->buf);
		} else {
			ALLOC_GROW(fl->v, fl->n, fl->alloc);
			fl->v[fl->n++] = xstrdup(rel->buf);
		}
		sb_truncate(rel, base);
	}
	closedir(d);
	free(path);
	return ret;
}

/* symbols_cmp_str - qsort() order of char * (symbols_int.h) */
int symbols_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* path_level - the ranking level of a definition in a file */
static unsigned path_level(const char *path, unsigned flags)
{
	if (starts_with(path, "tools/") || starts_with(path, "scripts/") ||
	    starts_with(path, "samples/") ||
	    starts_with(path, "Documentation/") || starts_with(path, "usr/") ||
	    (flags & SYM_DEFINE))
		return LEVEL_OTHER;
	if (starts_with(path, "arch/") && !starts_with(path, "arch/x86/"))
		return LEVEL_ARCH;
	if (flags & SYM_WEAK)
		return LEVEL_WEAK;
	return ends_with(path, ".h") ? LEVEL_HEADER : LEVEL_C;
}

static unsigned rank_of(const char *path, unsigned flags)
{
	return path_level(path, flags) * 2 + !!(flags & SYM_STATIC);
}

struct rec {
	uint32_t name; /* offset in the worker's arena */
	uint32_t file;
	uint32_t rank;
	uint32_t first, last; /* the body's lines */
	uint32_t calls;	      /* offset in the worker's callees + 1, or 0 */
	uint32_t cflags;      /* SYMBOLS_CALLS_INDIRECT */
};

struct worker {
	pthread_t tid;
	const char *root;
	const struct file_list *fl;
	atomic_size_t *next;
	char *arena;
	size_t arena_len, arena_alloc;
	/* the names each body calls, NUL-terminated, a list ending in "" */
	struct strbuf callees;
	struct rec *recs;
	size_t nrecs, recs_alloc;
	size_t scanned;
	char *buf;
	size_t buf_alloc;
	/* the file being scanned */
	uint32_t file;
	const char *path;
	const char *last_body;
};

static void add_callee(void *arg, const char *name, size_t n)
{
	struct worker *w = arg;

	if (sb_add(&w->callees, name, n) < 0 || sb_addc(&w->callees, 0) < 0)
		die("symbol index: too many calls");
}

/* add_rec - a record of name (copied into the arena) in the current file */
static struct rec *add_rec(struct worker *w, const char *name, size_t len,
			   unsigned flags, unsigned first, unsigned last)
{
	struct rec *r;

	if (w->arena_len + len + 1 > w->arena_alloc) {
		w->arena_alloc = w->arena_alloc ? w->arena_alloc * 2 : 1 << 20;
		while (w->arena_len + len + 1 > w->arena_alloc)
			w->arena_alloc *= 2;
		if (w->arena_alloc > UINT32_MAX)
			die("symbol index: too many names");
		w->arena = xrealloc(w->arena, w->arena_alloc);
	}
	ALLOC_GROW(w->recs, w->nrecs, w->recs_alloc);
	r = &w->recs[w->nrecs++];
	r->name = (uint32_t)w->arena_len;
	r->file = w->file;
	r->rank = rank_of(w->path, flags);
	r->first = first;
	r->last = last;
	r->calls = 0;
	r->cflags = 0;
	memcpy(w->arena + w->arena_len, name, len);
	w->arena[w->arena_len + len] = '\0';
	w->arena_len += len + 1;
	return r;
}

/* add_fact - a "param:", "sysctl:" or "ioctl:" record (symbols_facts.c) */
static void add_fact(void *arg, const char *key, size_t n, unsigned line)
{
	add_rec(arg, key, n, 0, line, line);
}

static void collect(void *arg, const struct symbols_def *d)
{
	struct worker *w = arg;
	struct rec *r =
		add_rec(w, d->name, d->len, d->flags, d->first, d->last);

	if (d->body) {
		/* one list per body: its definitions share it */
		if (w->nrecs > 1 && w->last_body == d->body) {
			r->calls = w->recs[w->nrecs - 2].calls;
			r->cflags = w->recs[w->nrecs - 2].cflags;
		} else {
			r->calls = (uint32_t)w->callees.len + 1;
			r->cflags = symbols_body_calls(d->body, d->body_len,
						       d->params, d->params_len,
						       add_callee, w);
			if (sb_addc(&w->callees, 0) < 0)
				die("symbol index: too many calls");
		}
		w->last_body = d->body;
	}
}

/* read_source - read a whole file into the worker's buffer */
static ssize_t read_source(struct worker *w, int dirfd, const char *path)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	size_t n = 0;

	if (fd < 0) {
		warn("cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || (uint64_t)st.st_size > FILE_MAX_SIZE) {
		warn("'%s': not read (larger than %u bytes)", path,
		     FILE_MAX_SIZE);
		close(fd);
		return -1;
	}
	if ((size_t)st.st_size + 1 > w->buf_alloc) {
		w->buf_alloc = (size_t)st.st_size + 1 + 65536;
		free(w->buf);
		w->buf = xmalloc(w->buf_alloc);
	}
	while (n < w->buf_alloc - 1) {
		ssize_t r = read(fd, w->buf + n, w->buf_alloc - 1 - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			warn("cannot read '%s': %s", path, strerror(errno));
			close(fd);
			return -1;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	return (ssize_t)n;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	int dirfd = open(w->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (dirfd < 0) {
		warn("cannot open '%s': %s", w->root, strerror(errno));
		return NULL;
	}
	for (;;) {
		size_t i = atomic_fetch_add(w->next, 1);
		ssize_t n;

		if (i >= w->fl->n)
			break;
		w->file = (uint32_t)i;
		w->path = w->fl->v[i];
		w->last_body = NULL;
		n = read_source(w, dirfd, w->path);
		if (n < 0)
			continue;
		symbols_scan_defs(w->buf, (size_t)n, collect, w);
		symbols_facts_scan(w->path, w->buf, (size_t)n, add_fact, w);
		w->scanned++;
	}
	close(dirfd);
	return NULL;
}

struct mrec {
	const char *name;
	uint32_t file;
	uint32_t rank;
	uint32_t first, last;
	/* building: the worker's callee list (NULL: none); then its list */
	const char *callees;
	uint32_t calls, cflags;
};

static int cmp_mrec(const void *a, const void *b)
{
	const struct mrec *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	/* one name twice in a file ("#ifdef"): the first kept, always */
	return x->first < y->first ? -1 : x->first > y->first;
}

static uint32_t add_string(struct strbuf *sb, const char *s)
{
	uint32_t off = (uint32_t)sb->len;

	if (sb_add(sb, s, strlen(s) + 1) < 0)
		die("symbol index: string table too large");
	return off;
}

/* ---- writing the blocks --------------------------------------------- */

/* put32 - a uint32_t at p (native order, as the header says) */
static void put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

struct block_writer {
	struct strbuf *blocks, *over, *top; /* top: the separators */
	const uint32_t *paths;		    /* file id -> path offset */
	unsigned char buf[BLOCK_SIZE];	    /* the entries */
	size_t len;			    /* bytes of buf used */
	unsigned n;			    /* entries in buf */
	uint16_t restart[BLOCK_SIZE / 4 / RESTART + 1]; /* their offsets */
	uint32_t *sep;	/* separator offsets, one per block */
	uint32_t *ids;	/* the id of each block's first name */
	uint32_t added; /* names added */
	uint32_t nblocks;
	size_t sep_alloc, ids_alloc;
	char last[NAME_MAX_LEN + 1]; /* the last name added */
};

static size_t common_prefix(const char *a, const char *b)
{
	size_t n = 0;

	while (a[n] && a[n] == b[n])
		n++;
	return n;
}

static void put_ref(unsigned char *p, const struct block_writer *bw,
		    const struct mrec *r)
{
	put32(p, bw->paths[r->file]);
	p[4] = (unsigned char)r->rank;
	put32(p + 5, r->first);
	put32(p + 9, r->last);
	put32(p + 13, r->calls);
}

/* nrestarts - the restart points of a block of n entries */
static size_t nrestarts(size_t n)
{
	return (n + RESTART - 1) / RESTART;
}

/* block_flush - pad the current block and append it */
static void block_flush(struct block_writer *bw)
{
	unsigned char out[BLOCK_SIZE];
	uint16_t v[2] = { (uint16_t)bw->n, (uint16_t)nrestarts(bw->n) };
	size_t head = 4 + 2 * (size_t)v[1], i;

	if (!bw->n)
		return;
	memset(out, 0, sizeof(out));
	memcpy(out, v, 4);
	for (i = 0; i < v[1]; i++) {
		uint16_t off = (uint16_t)(head + bw->restart[i]);

		memcpy(out + 4 + 2 * i, &off, 2);
	}
	memcpy(out + head, bw->buf, bw->len);
	if (sb_add(bw->blocks, out, BLOCK_SIZE) < 0)
		die("symbol index too large");
	bw->n = 0;
	bw->len = 0;
}

/*
 * block_add - append a name's entry (symbols.c's layout) to the current
 * block, or to a new one whose separator is the shortest prefix of name
 * greater than the last name of the block before
 */
static void block_add(struct block_writer *bw, const char *name,
		      const struct mrec *refs, size_t n)
{
	unsigned char e[2 + NAME_MAX_LEN + 1 + 8 + INLINE_REFS * REF_BYTES];
	size_t len = strlen(name), shared, el, i, ninline;

	shared = bw->n % RESTART ? common_prefix(bw->last, name) : 0;
	for (;;) {
		e[0] = (unsigned char)shared;
		e[1] = (unsigned char)(len - shared);
		memcpy(e + 2, name + shared, len - shared);
		el = 2 + len - shared;
		if (n <= INLINE_REFS) {
			e[el++] = (unsigned char)n;
			ninline = n;
		} else {
			e[el++] = REFS_MANY;
			put32(e + el, (uint32_t)n);
			put32(e + el + 4, (uint32_t)bw->over->len);
			el += 8;
			ninline = FIRST_REFS;
		}
		for (i = 0; i < ninline; i++, el += REF_BYTES)
			put_ref(e + el, bw, &refs[i]);
		if (!bw->n ||
		    4 + 2 * nrestarts(bw->n + 1) + bw->len + el <= BLOCK_SIZE)
			break;
		block_flush(bw);
		shared = 0;
	}
	if (!bw->n) {
		/* a new block */
		size_t sep =
			bw->nblocks ? common_prefix(bw->last, name) + 1 : 0;

		ALLOC_GROW(bw->ids, bw->nblocks, bw->ids_alloc);
		ALLOC_GROW(bw->sep, bw->nblocks, bw->sep_alloc);
		bw->ids[bw->nblocks] = bw->added;
		bw->sep[bw->nblocks++] = (uint32_t)bw->top->len;
		if (sb_add(bw->top, name, sep) < 0 ||
		    sb_add(bw->top, "", 1) < 0)
			die("symbol index too large");
	}
	if (bw->n % RESTART == 0)
		bw->restart[bw->n / RESTART] = (uint16_t)bw->len;
	if (n > INLINE_REFS) {
		for (i = 0; i < n; i++) {
			unsigned char r[REF_BYTES];

			put_ref(r, bw, &refs[i]);
			if (sb_add(bw->over, r, REF_BYTES) < 0)
				die("symbol index too large");
		}
	}
	memcpy(bw->buf + bw->len, e, el);
	bw->len += el;
	bw->n++;
	bw->added++;
	memcpy(bw->last, name, len + 1);
}

/*
 * symbols_build - scan a kernel tree and write the index to out
 *
 * The index is written atomically (a reader sees the old or the new
 * file).  stats, when not NULL, receives the figures.
 */
/* What symbols_build() gathers, step by step. */
struct build {
	const char *tree;
	struct file_list fl, mk; /* sources (then module dirs), Makefiles */
	size_t nsrc;		 /* the sources: fl.v[0 .. nsrc) */
	struct mod_list ml;
	struct worker *w;
	size_t nthreads;
	struct mrec *all; /* every (name, file, rank), sorted */
	size_t total, nnames, nrefs;
	uint32_t *paths; /* file id -> offset in pathsb */
	struct block_writer bw;
	struct strbuf pathsb, blocks, over, top, calls;
};

/* build_files - the tree's sources, sorted, and its Makefiles */
static int build_files(struct build *b)
{
	struct strbuf rel = STRBUF_INIT(4096);

	if (!is_dir(b->tree))
		return error("kernel tree '%s' is not a directory", b->tree);
	if (walk(b->tree, &rel, &b->fl, &b->mk) < 0 && !b->fl.n) {
		sb_release(&rel);
		return -1;
	}
	sb_release(&rel);
	if (!b->fl.n) {
		free(b->fl.v);
		b->fl.v = NULL;
		return error("no .c or .h files under '%s'", b->tree);
	}
	qsort(b->fl.v, b->fl.n, sizeof(*b->fl.v), symbols_cmp_str);
	b->nsrc = b->fl.n;
	return 0;
}

/* build_scan - scan every source, on up to MAX_THREADS threads */
static void build_scan(struct build *b)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	atomic_size_t next = 0;
	size_t i;

	b->nthreads = cpus > 0 ? (size_t)cpus : 1;
	if (b->nthreads > MAX_THREADS)
		b->nthreads = MAX_THREADS;
	if (b->fl.n < 64)
		b->nthreads = 1;
	b->w = xcalloc(b->nthreads, sizeof(*b->w));
	for (i = 0; i < b->nthreads; i++) {
		sb_init(&b->w[i].callees, UINT32_MAX / 2);
		b->w[i].root = b->tree;
		b->w[i].fl = &b->fl;
		b->w[i].next = &next;
	}
	for (i = 1; i < b->nthreads; i++) {
		if (pthread_create(&b->w[i].tid, NULL, work, &b->w[i]) != 0) {
			b->nthreads = i; /* fewer threads, the same result */
			break;
		}
	}
	work(&b->w[0]);
	for (i = 1; i < b->nthreads; i++)
		pthread_join(b->w[i].tid, NULL);
}

/*
 * build_records - the workers' records and the modules' in one array,
 * sorted; a module's directory becomes an extra entry of the file table
 */
static void build_records(struct build *b)
{
	struct file_list *fl = &b->fl;
	size_t i, j;

	/* Modules: "module:NAME" -> its .c file or its directory. */
	for (i = 0; i < b->mk.n; i++) {
		const char *slash = strrchr(b->mk.v[i], '/');

		if (kconfig_name(slash ? slash + 1 : b->mk.v[i]))
			symbols_kconfig_from_file(b->tree, b->mk.v[i], &b->ml);
		else
			symbols_modules_from_makefile(b->tree, b->mk.v[i], fl,
						      &b->ml);
	}
	symbols_dirs_from_files(fl, &b->ml);
	for (i = 0; i < b->nthreads; i++)
		b->total += b->w[i].nrecs;
	b->total += b->ml.n;
	b->all = xcalloc(b->total ? b->total : 1, sizeof(*b->all));
	for (i = 0, j = 0; i < b->nthreads; i++) {
		const struct worker *w = &b->w[i];
		size_t k;

		for (k = 0; k < w->nrecs; k++, j++) {
			const struct rec *r = &w->recs[k];

			b->all[j].name = w->arena + r->name;
			b->all[j].file = r->file;
			b->all[j].rank = r->rank;
			b->all[j].first = r->first;
			b->all[j].last = r->last;
			b->all[j].callees =
				r->calls ? w->callees.buf + r->calls - 1 : NULL;
			b->all[j].cflags = r->cflags;
		}
	}
	for (i = 0; i < b->ml.n; i++, j++) {
		char **hit = bsearch(&b->ml.v[i].path, fl->v, b->nsrc,
				     sizeof(*fl->v), symbols_cmp_str);
		size_t f;

		if (hit) {
			f = (size_t)(hit - fl->v);
		} else {
			/*
			 * a directory or a Kconfig file: an extra entry of
			 * the file table (one file's options are together:
			 * the last entry first)
			 */
			f = fl->n > b->nsrc && !strcmp(fl->v[fl->n - 1],
						       b->ml.v[i].path)
				    ? fl->n - 1
				    : b->nsrc;
			for (; f < fl->n; f++)
				if (!strcmp(fl->v[f], b->ml.v[i].path))
					break;
			if (f == fl->n) {
				ALLOC_GROW(fl->v, fl->n, fl->alloc);
				fl->v[fl->n++] = xstrdup(b->ml.v[i].path);
			}
		}
		b->all[j].name = b->ml.v[i].name;
		b->all[j].file = (uint32_t)f;
		b->all[j].rank = rank_of(b->ml.v[i].path, 0);
	}
	qsort(b->all, b->total, sizeof(*b->all), cmp_mrec);
}

struct name_table {
	const char **v;
	size_t n;
};

static bool name_equal(const void *data, uint32_t id, const void *key)
{
	const struct name_table *t = data;

	return !strcmp(t->v[id], key);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static void put_varint(struct strbuf *sb, uint32_t v)
{
	unsigned char buf[5];
	size_t n = 0;

	do {
		buf[n++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	if (sb_add(sb, buf, n) < 0)
		die("symbol index too large");
}

/*
 * calls_list - one body's callees as a list: varint count, a flags byte,
 * then the names' ids, sorted, as varint differences
 */
static uint32_t calls_list(struct build *b, const struct hashmap *m,
			   const struct mrec *r, uint32_t **ids,
			   size_t *ids_alloc)
{
	const char *p;
	size_t n = 0, i, k;
	uint32_t off = (uint32_t)b->calls.len, flags = r->cflags, prev = 0;

	for (p = r->callees; *p; p += strlen(p) + 1) {
		uint32_t id = hashmap_get(m, hash_str(p), p);

		if (id == HASHMAP_NONE) {
			flags |= CALLS_UNKNOWN;
			continue;
		}
		ALLOC_GROW(*ids, n, *ids_alloc);
		(*ids)[n++] = id;
	}
	if (n) /* qsort() wants an array, even of nothing */
		qsort(*ids, n, sizeof(**ids), cmp_u32);
	for (i = k = 0; i < n; i++)
		if (!k || (*ids)[k - 1] != (*ids)[i])
			(*ids)[k++] = (*ids)[i];
	put_varint(&b->calls, (uint32_t)k);
	if (sb_addc(&b->calls, (char)flags) < 0)
		die("symbol index too large");
	for (i = 0; i < k; i++) {
		put_varint(&b->calls, (*ids)[i] - prev);
		prev = (*ids)[i];
	}
	return off;
}

/*
 * build_calls - each body's callees as the ids of indexed names (in the
 * order build_blocks() adds them); a name the index lacks (a pointer
 * variable, a token-pasted name) sets CALLS_UNKNOWN
 */
static void build_calls(struct build *b)
{
	struct name_table t = { xcalloc(b->total + 1, sizeof(char *)), 0 };
	struct hashmap m;
	uint32_t *ids = NULL;
	size_t ids_alloc = 0, i;

	for (i = 0; i < b->total; i++)
		if (strlen(b->all[i].name) <= NAME_MAX_LEN &&
		    (!t.n || strcmp(t.v[t.n - 1], b->all[i].name)))
			t.v[t.n++] = b->all[i].name;
	hashmap_init(&m, name_equal, &t, t.n);
	for (i = 0; i < t.n; i++)
		hashmap_put(&m, hash_str(t.v[i]), t.v[i], (uint32_t)i);
	/* offset 0: the empty list of what has no body */
	if (sb_add(&b->calls, "\0\0", 2) < 0)
		die("out of memory");
	for (i = 0; i < b->total; i++)
		b->all[i].calls = b->all[i].callees
					  ? calls_list(b, &m, &b->all[i], &ids,
						       &ids_alloc)
					  : 0;
	hashmap_release(&m);
	free(ids);
	free(t.v);
}

/* build_blocks - the paths, then every name with its files, in blocks */
static void build_blocks(struct build *b)
{
	struct mrec *all = b->all;
	size_t i, j;

	b->paths = xcalloc(b->fl.n ? b->fl.n : 1, sizeof(*b->paths));
	for (i = 0; i < b->fl.n; i++)
		b->paths[i] = add_string(&b->pathsb, b->fl.v[i]);
	memset(&b->bw, 0, sizeof(b->bw));
	b->bw.blocks = &b->blocks;
	b->bw.over = &b->over;
	b->bw.top = &b->top;
	b->bw.paths = b->paths;
	for (i = 0; i < b->total; i = j) {
		/* one name: its records, best first, each file once */
		size_t k, n = 0;

		for (j = i; j < b->total && !strcmp(all[j].name, all[i].name);
		     j++) {
			bool dup = false;

			for (k = i; k < i + n; k++)
				dup |= all[k].file == all[j].file;
			if (!dup)
				all[i + n++] = all[j];
		}
		if (strlen(all[i].name) > NAME_MAX_LEN)
			continue;
		block_add(&b->bw, all[i].name, all + i, n);
		b->nnames++;
		b->nrefs += n;
	}
	block_flush(&b->bw);
}

/* build_image - the header, separators, over, paths and blocks to out */
static int build_image(struct build *b, const char *out, struct img_header *h)
{
	struct strbuf img = STRBUF_INIT(UINT32_MAX / 2);
	size_t i;
	int ret;

	memset(h, 0, sizeof(*h));
	memcpy(h->magic, SYM_MAGIC, 8);
	h->version = SYM_VERSION;
	h->endian = SYM_ENDIAN;
	h->nnames = (uint32_t)b->nnames;
	h->nrefs = (uint32_t)b->nrefs;
	h->nfiles = (uint32_t)b->fl.n;
	h->nblocks = b->bw.nblocks;
	h->block_size = BLOCK_SIZE;
	for (i = 0; i < b->nthreads; i++)
		h->scanned += (uint32_t)b->w[i].scanned;
	symbols_tree_identity(b->tree, h->tree, &h->tree_version);
	if (sb_add(&img, h, sizeof(*h)) < 0)
		die("out of memory");
	/* the separators: their offsets, then the strings */
	h->off_top =
		img_place(&img, b->bw.sep, b->bw.nblocks * sizeof(*b->bw.sep),
			  "symbol index");
	if (sb_add(&img, b->top.buf, b->top.len) < 0)
		die("symbol index too large");
	h->top_size = (uint32_t)(img.len - h->off_top);
	h->off_over = img_place(&img, b->over.buf, b->over.len, "symbol index");
	h->over_size = (uint32_t)b->over.len;
	h->off_paths =
		img_place(&img, b->pathsb.buf, b->pathsb.len, "symbol index");
	h->paths_size = (uint32_t)b->pathsb.len;
	h->off_ids =
		img_place(&img, b->bw.ids, b->bw.nblocks * sizeof(*b->bw.ids),
			  "symbol index");
	h->off_calls =
		img_place(&img, b->calls.buf, b->calls.len, "symbol index");
	h->calls_size = (uint32_t)b->calls.len;
	while (img.len % BLOCK_SIZE)
		if (sb_add(&img, "", 1) < 0)
			die("symbol index too large");
	h->off_blocks =
		img_place(&img, b->blocks.buf, b->blocks.len, "symbol index");
	h->size = (uint32_t)img.len;
	memcpy(img.buf, h, sizeof(*h));
	ret = write_file_atomic(out, img.buf, img.len, 0644);
	sb_release(&img);
	return ret;
}

static void build_release(struct build *b)
{
	size_t i;

	sb_release(&b->pathsb);
	sb_release(&b->blocks);
	sb_release(&b->over);
	sb_release(&b->top);
	sb_release(&b->calls);
	free(b->bw.sep);
	free(b->bw.ids);
	free(b->paths);
	free(b->all);
	for (i = 0; i < b->nthreads; i++) {
		free(b->w[i].arena);
		sb_release(&b->w[i].callees);
		free(b->w[i].recs);
		free(b->w[i].buf);
	}
	free(b->w);
	for (i = 0; i < b->fl.n; i++)
		free(b->fl.v[i]);
	free(b->fl.v);
	for (i = 0; i < b->mk.n; i++)
		free(b->mk.v[i]);
	free(b->mk.v);
	for (i = 0; i < b->ml.n; i++) {
		free(b->ml.v[i].name);
		free(b->ml.v[i].path);
	}
	free(b->ml.v);
}

int symbols_build(const char *tree, const char *out,
		  struct symbols_stats *stats)
{
	double t0 = now_seconds();
	struct build b = {
		.tree = tree,
		.pathsb = STRBUF_INIT(UINT32_MAX / 2),
		.blocks = STRBUF_INIT(UINT32_MAX / 2),
		.over = STRBUF_INIT(UINT32_MAX / 2),
		.top = STRBUF_INIT(UINT32_MAX / 2),
		.calls = STRBUF_INIT(UINT32_MAX / 2),
	};
	struct img_header h;
	int ret;

	if (build_files(&b) < 0) {
		build_release(&b);
		return -1;
	}
	build_scan(&b);
	build_records(&b);
	build_calls(&b);
	build_blocks(&b);
	ret = build_image(&b, out, &h);
	if (stats) {
		stats->files = h.scanned;
		stats->functions = b.nrefs;
		stats->names = b.nnames;
		stats->seconds = now_seconds() - t0;
	}
	build_release(&b);
	return ret;
}

/* ---- lookup ------------------------------------------------------------ */

/* The lookups change only these caches of the object (ours, not const). */
static struct symbols *mut(const struct symbols *s)
{
	return (struct symbols *)s;
}

static void corrupt(const struct symbols *s)
{
	if (!s->warned)
		warn("corrupt symbol index; run 'triage update --kernel-tree DIR'");
	mut(s)->warned = true;
}

/* rd - n bytes at off into buf (pread); false past the end or on error */
static bool rd(const struct symbols *s, uint64_t off, size_t n, void *buf)
{
	if (off > s->size || n > s->size - off)
		return false;
	mut(s)->reads++;
	return pread(s->fd, buf, n, (off_t)off) == (ssize_t)n;
}

unsigned long symbols_reads(const struct symbols *s)
{
	return s->reads;
}

/* top - the separators: in place, or read at the first lookup */
static const unsigned char *top(const struct symbols *s)
{
	const struct img_header *h = s->h;
	unsigned char *buf;

	if (s->top || !h->nblocks)
		return s->top;
	buf = xmalloc(h->top_size);
	if (!rd(s, h->off_top, h->top_size, buf) ||
	    buf[h->top_size - 1] != '\0') {
		free(buf);
		corrupt(s);
		return NULL;
	}
	mut(s)->top_buf = buf;
	mut(s)->top = buf;
	return buf;
}

/* ids - the blocks' first ids: in place, or read at the first need */
static const unsigned char *ids(const struct symbols *s)
{
	const struct img_header *h = s->h;
	unsigned char *buf;

	if (s->base)
		return s->base + h->off_ids;
	if (s->ids || !h->nblocks)
		return s->ids;
	buf = xmalloc((size_t)h->nblocks * 4);
	if (!rd(s, h->off_ids, (size_t)h->nblocks * 4, buf)) {
		free(buf);
		corrupt(s);
		return NULL;
	}
	mut(s)->ids_buf = buf;
	mut(s)->ids = buf;
	return buf;
}

/* kept_block - where the cache keeps its block k */
static unsigned char *kept_block(const struct symbols *s, unsigned k)
{
	return s->chunk[k / BLOCK_CHUNK] +
	       (size_t)(k % BLOCK_CHUNK) * BLOCK_SIZE;
}

/*
 * block - block i: in place, or read (the last BLOCK_CACHE read are
 * kept: a caller's and a callee's blocks alternate, and a call list
 * goes back to names read before).  A block read stays valid until
 * BLOCK_CACHE more are read; its users copy what they keep.
 */
static const unsigned char *block(const struct symbols *s, uint32_t i)
{
	uint64_t off = s->h->off_blocks + (uint64_t)i * BLOCK_SIZE;
	struct symbols *w = mut(s);
	unsigned char **chunk;
	unsigned k;

	if (s->base)
		return s->base + off;
	if (i >= s->h->nblocks) {
		corrupt(s);
		return NULL;
	}
	if (!s->slot) {
		w->slot = xmalloc((size_t)s->h->nblocks * sizeof(*s->slot));
		memset(w->slot, 0xff, (size_t)s->h->nblocks * sizeof(*s->slot));
	}
	if (s->slot[i] >= 0)
		return kept_block(s, (unsigned)s->slot[i]);
	k = w->block_next;
	w->block_next = (k + 1) % BLOCK_CACHE;
	if (w->block_no[k] >= 0)
		w->slot[w->block_no[k]] = -1;
	w->block_no[k] = -1;
	/* pages are touched as blocks are read: 4 KB a block */
	chunk = &w->chunk[k / BLOCK_CHUNK];
	if (!*chunk)
		*chunk = xmalloc((size_t)BLOCK_CHUNK * BLOCK_SIZE);
	if (!rd(s, off, BLOCK_SIZE, kept_block(s, k))) {
		corrupt(s);
		return NULL;
	}
	w->block_no[k] = i;
	w->slot[i] = (int16_t)k;
	return kept_block(s, k);
}

/* sep_cmp - a separator (NUL-terminated) against name[0..len) */
static int sep_cmp(const unsigned char *sep, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)name[i];

		if (sep[i] != c)
			return sep[i] < c ? -1 : 1; /* sep's NUL is least */
	}
	return sep[len] ? 1 : 0;
}

/* block_of - the only block that may hold name: the last separator <= it */
static bool block_of(const struct symbols *s, const char *name, size_t len,
		     uint32_t *i)
{
	const struct img_header *h = s->h;
	const unsigned char *t = top(s);
	size_t lo = 0, hi = h->nblocks, keys = (size_t)h->nblocks * 4;

	if (!t)
		return false;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		uint32_t off = get32(t + mid * 4);

		if (off >= h->top_size - keys) {
			corrupt(s);
			return false;
		}
		if (sep_cmp(t + keys + off, name, len) <= 0)
			lo = mid;
		else
			hi = mid;
	}
	*i = (uint32_t)lo;
	return true;
}

/* entry_at - copy out the refs of an entry whose count byte was cnt */
static bool entry_at(const unsigned char *p, size_t cnt, struct entry *out)
{
	if (cnt == REFS_MANY) {
		out->nrefs = get32(p);
		out->over = get32(p + 4);
		out->ninline = FIRST_REFS;
		p += 8;
	} else {
		out->nrefs = (uint32_t)cnt;
		out->over = 0;
		out->ninline = (unsigned)cnt;
	}
	memcpy(out->refs, p, out->ninline * REF_BYTES);
	return true;
}

/*
 * restart_at - the r-th restart entry of a block (checked: whole, and
 * its name inside the block), or NULL
 */
static const unsigned char *restart_at(const unsigned char *b, size_t r,
				       size_t nr)
{
	uint16_t off;

	memcpy(&off, b + 4 + 2 * r, 2);
	if (off < 4 + 2 * nr || off > BLOCK_SIZE - 3 || b[off] != 0 ||
	    b[off + 1] > BLOCK_SIZE - 2 - off)
		return NULL;
	return b + off;
}

/*
 * find - a name's entry, or false
 *
 * A block's entries are front-coded: each shares a prefix with the one
 * before.  While scanning, m is the common prefix of name and the last
 * entry (which is less than name): an entry sharing less than m with it
 * is greater than name, one sharing more is still less, and only one
 * sharing exactly m needs comparing, from m on.  Every RESTART-th
 * entry is whole, and a binary search of those picks where to start.
 */
static bool find(const struct symbols *s, const char *name, size_t len,
		 struct entry *out)
{
	const unsigned char *b, *p, *end;
	size_t curlen = 0, m = 0, lo, hi, nr;
	uint32_t bi;
	unsigned k, n;
	uint16_t v[2];

	if (!len || len > NAME_MAX_LEN || !s->h->nblocks ||
	    !block_of(s, name, len, &bi) || !(b = block(s, bi)))
		return false;
	memcpy(v, b, 4);
	n = v[0];
	nr = v[1];
	end = b + BLOCK_SIZE;
	if (nr != nrestarts(n) || 4 + 2 * nr > BLOCK_SIZE)
		goto bad;
	/* the last restart point whose (whole) name is <= name */
	lo = 0;
	hi = nr;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const unsigned char *e = restart_at(b, mid, nr);
		int c;

		if (!e)
			goto bad;
		c = memcmp(e + 2, name, e[1] < len ? e[1] : len);
		if (c < 0 || (c == 0 && e[1] <= len))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return false; /* less than the block's first name */
	p = restart_at(b, lo - 1, nr);
	for (k = (unsigned)(lo - 1) * RESTART; k < n; k++) {
		const unsigned char *suffix = p + 2;
		size_t shared = p[0], slen = p[1], cnt, skip;

		/* checked: 3 bytes, then the suffix, the count and refs */
		if (end - p < 3 || shared > curlen || !slen ||
		    shared + slen > NAME_MAX_LEN ||
		    (size_t)(end - p) < 3 + slen)
			goto bad;
		curlen = shared + slen;
		p += 2 + slen;
		cnt = *p++;
		if (cnt == REFS_MANY)
			skip = 8 + FIRST_REFS * REF_BYTES;
		else if (cnt <= INLINE_REFS)
			skip = cnt * REF_BYTES;
		else
			goto bad;
		if ((size_t)(end - p) < skip ||
		    (cnt == REFS_MANY && get32(p) <= INLINE_REFS))
			goto bad;
		if (shared < m)
			return false; /* greater than name */
		if (shared == m) {
			/* the entry's characters from m on are its suffix */
			while (m < curlen && m < len &&
			       suffix[m - shared] == (unsigned char)name[m])
				m++;
			if (m == len && m == curlen) {
				const unsigned char *first = ids(s);

				if (!first)
					return false;
				out->id = get32(first + 4 * (size_t)bi) + k;
				return entry_at(p, cnt, out);
			}
			if (m == len ||
			    (m < curlen &&
			     suffix[m - shared] > (unsigned char)name[m]))
				return false; /* greater than name */
		}
		p += skip;
	}
	return false;
bad:
	corrupt(s);
	return false;
}

/* best_level - the level of an entry's best file; past the levels if none */
static unsigned best_level(const struct entry *e)
{
	return e->nrefs ? e->refs[4] / 2 : LEVEL_OTHER + 1;
}

/*
 * find_function - a frame's function: the name itself; for an unknown
 * "__ARCH_sys_NAME" / "__ARCH_compat_sys_NAME" the __do_sys_NAME /
 * __do_compat_sys_NAME that SYSCALL_DEFINE made; and for a name that
 * only tools/ and such define, NAME_noprof (since 6.10 kmalloc(),
 * kmem_cache_alloc() ... are alloc_hooks() macros over NAME_noprof())
 */
static bool find_function(const struct symbols *s, const char *function,
			  struct entry *e)
{
	size_t len = symbols_name_len(function), i;
	struct entry np;
	bool found;
	const char *rest;
	char buf[NAME_MAX_LEN + 32];

	if (starts_with(function, "kconfig:") ||
	    starts_with(function, "param:") ||
	    starts_with(function, "sysctl:") ||
	    starts_with(function, "ioctl:")) {
		/* "kconfig:FOO": the Kconfig file that declares FOO ... */
		len = strlen(function);
		return len <= NAME_MAX_LEN && function[len - 1] != ':' &&
		       find(s, function, len, e);
	}
	if (starts_with(function, "module:")) {
		/* "module:snd-usb-audio" is indexed as snd_usb_audio */
		for (i = 0; function[i] && i < sizeof(buf) - 1; i++)
			buf[i] = i >= 7 && function[i] == '-' ? '_'
							      : function[i];
		buf[i] = '\0';
		return i > 7 && find(s, buf, i, e);
	}
	if (!len)
		return false;
	found = find(s, function, len, e);
	if (!found || best_level(e) >= LEVEL_OTHER) {
		memcpy(buf, function, len);
		memcpy(buf + len, "_noprof", 7);
		if (find(s, buf, len + 7, &np) &&
		    best_level(&np) < LEVEL_OTHER) {
			*e = np;
			return true;
		}
	}
	if (found || len < 8 || function[0] != '_' || function[1] != '_')
		return found;
	for (i = 2; i < len && ((function[i] >= 'a' && function[i] <= 'z') ||
				(function[i] >= '0' && function[i] <= '9'));
	     i++)
		;
	if (i == 2 || i >= len)
		return false;
	rest = function + i;
	len -= i;
	if (len > 5 && strncmp(rest, "_sys_", 5) == 0) {
		memcpy(buf, "__do_sys_", 9);
		memcpy(buf + 9, rest + 5, len - 5);
		return find(s, buf, 9 + len - 5, e);
	}
	if (len > 12 && strncmp(rest, "_compat_sys_", 12) == 0) {
		memcpy(buf, "__do_compat_sys_", 16);
		memcpy(buf + 16, rest + 12, len - 12);
		return find(s, buf, 16 + len - 12, e);
	}
	return false;
}

/* path_at - the path at offset off of the paths (pread: kept) */
static const char *path_at(const struct symbols *s, uint32_t off)
{
	const struct img_header *h = s->h;
	char buf[PATH_MAX_LEN];
	const char *nul;
	size_t n, i;
	struct symbols *w = mut(s);

	if (off >= h->paths_size) {
		corrupt(s);
		return NULL;
	}
	if (s->base)
		return (const char *)s->base + h->off_paths + off;
	for (i = 0; i < s->nkept; i++)
		if (s->kept[i].off == off)
			return s->kept[i].path;
	n = h->paths_size - off;
	if (n > PATH_MAX_LEN)
		n = PATH_MAX_LEN;
	/* most paths are short: one read of PATH_READ bytes */
	if (!rd(s, (uint64_t)h->off_paths + off, n < PATH_READ ? n : PATH_READ,
		buf) ||
	    (!(nul = memchr(buf, '\0', n < PATH_READ ? n : PATH_READ)) &&
	     (n <= PATH_READ || !rd(s, (uint64_t)h->off_paths + off, n, buf) ||
	      !(nul = memchr(buf, '\0', n))))) {
		corrupt(s);
		return NULL;
	}
	ALLOC_GROW(w->kept, w->nkept, w->kept_alloc);
	w->kept[w->nkept].off = off;
	w->kept[w->nkept].path = xstrdup(buf);
	return w->kept[w->nkept++].path;
}

/*
 * entry_refs - the first n refs of an entry (n <= nrefs): in the entry,
 * or from the overflow area (pread: into *buf, the caller frees it)
 */
static const unsigned char *entry_refs(const struct symbols *s,
				       const struct entry *e, size_t n,
				       unsigned char **buf)
{
	uint64_t off = (uint64_t)s->h->off_over + e->over;

	*buf = NULL;
	if (n <= e->ninline)
		return e->refs;
	if ((uint64_t)e->over + (uint64_t)e->nrefs * REF_BYTES >
	    s->h->over_size) {
		corrupt(s);
		return NULL;
	}
	if (s->base)
		return s->base + off;
	*buf = xmalloc(n * REF_BYTES);
	if (!rd(s, off, n * REF_BYTES, *buf)) {
		free(*buf);
		*buf = NULL;
		corrupt(s);
		return NULL;
	}
	return *buf;
}

/* symbols_lookup - files defining function, best first; returns count */
size_t symbols_lookup(const struct symbols *s, const char *function,
		      const char **files, size_t max)
{
	struct entry e;
	const unsigned char *refs;
	unsigned char *buf;
	size_t n, i;

	if (!find_function(s, function, &e) || !e.nrefs)
		return 0;
	n = max < e.nrefs ? max : e.nrefs;
	if (!(refs = entry_refs(s, &e, n, &buf)))
		return 0;
	for (i = 0; i < n; i++) {
		files[i] = path_at(s, get32(refs + i * REF_BYTES));
		if (!files[i]) {
			free(buf);
			return 0;
		}
	}
	free(buf);
	return e.nrefs;
}

/* symbols_spans - the definitions of function with their lines */
size_t symbols_spans(const struct symbols *s, const char *function,
		     struct symbols_span *spans, size_t max)
{
	struct entry e;
	const unsigned char *refs;
	unsigned char *buf;
	size_t n, i;

	if (!find_function(s, function, &e) || !e.nrefs)
		return 0;
	n = max < e.nrefs ? max : e.nrefs;
	if (!(refs = entry_refs(s, &e, n, &buf)))
		return 0;
	for (i = 0; i < n; i++) {
		const unsigned char *r = refs + i * REF_BYTES;

		spans[i].file = path_at(s, get32(r));
		spans[i].first = get32(r + 5);
		spans[i].last = get32(r + 9);
		if (!spans[i].file) {
			free(buf);
			return 0;
		}
	}
	free(buf);
	return e.nrefs;
}

/* entry_by_id - the entry of the id-th name (the callees' lists name ids) */
static bool entry_by_id(const struct symbols *s, uint32_t id, struct entry *out)
{
	const unsigned char *first = ids(s), *b, *p, *end;
	size_t lo = 0, hi = s->h->nblocks, nr, k, curlen = 0;
	uint16_t v[2];
	uint32_t base;

	if (!first || !hi)
		return false;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (get32(first + 4 * mid) <= id)
			lo = mid;
		else
			hi = mid;
	}
	base = get32(first + 4 * lo);
	if (id < base || !(b = block(s, (uint32_t)lo)))
		return false;
	memcpy(v, b, 4);
	nr = v[1];
	end = b + BLOCK_SIZE;
	k = id - base;
	if (k >= v[0] || nr != nrestarts(v[0]) || 4 + 2 * nr > BLOCK_SIZE ||
	    !(p = restart_at(b, k / RESTART, nr)))
		goto bad;
	for (k %= RESTART;; k--) {
		size_t shared = p[0], slen = p[1], cnt, skip;

		if (end - p < 3 || shared > curlen || !slen ||
		    shared + slen > NAME_MAX_LEN ||
		    (size_t)(end - p) < 3 + slen)
			goto bad;
		curlen = shared + slen;
		p += 2 + slen;
		cnt = *p++;
		skip = cnt == REFS_MANY	    ? 8 + FIRST_REFS * REF_BYTES
		       : cnt <= INLINE_REFS ? cnt * REF_BYTES
					    : BLOCK_SIZE;
		if ((size_t)(end - p) < skip ||
		    (cnt == REFS_MANY && get32(p) <= INLINE_REFS))
			goto bad;
		if (!k) {
			out->id = id;
			return entry_at(p, cnt, out);
		}
		p += skip;
	}
bad:
	corrupt(s);
	return false;
}

#define CALLS_READ  (64u << 10) /* the most of one list read (pread) */
#define CALLS_FIRST 256		/* the first read of a list (pread) */

struct calls {
	const unsigned char *p, *end;
	unsigned char *buf;
	unsigned flags;
	uint32_t n, id;
};

/* get_varint - a varint at *p before end; false when cut or too long */
static bool get_varint(const unsigned char **p, const unsigned char *end,
		       uint32_t *v)
{
	unsigned shift = 0;

	*v = 0;
	while (*p < end && shift < 35) {
		unsigned char c = *(*p)++;

		*v |= (uint32_t)(c & 0x7f) << shift;
		if (!(c & 0x80))
			return true;
		shift += 7;
	}
	return false;
}

/* calls_open - the list of callees at off: its count and flags */
static bool calls_open(const struct symbols *s, uint32_t off, struct calls *c)
{
	const struct img_header *h = s->h;
	size_t n;

	memset(c, 0, sizeof(*c));
	if (off >= h->calls_size) {
		corrupt(s);
		return false;
	}
	n = h->calls_size - off;
	if (s->base) {
		c->p = s->base + h->off_calls + off;
	} else if (s->lists && s->lists[off % LIST_CACHE].len &&
		   s->lists[off % LIST_CACHE].off == off) {
		/* a copy: the cache may change while the list is read */
		const struct kept_list *k = &s->lists[off % LIST_CACHE];

		c->buf = (unsigned char *)xmemdup0(k->data, k->len);
		c->p = c->buf;
		n = k->len;
	} else {
		/* most lists are short: one read of CALLS_FIRST bytes */
		size_t want = n < CALLS_FIRST ? n : CALLS_FIRST;
		const unsigned char *q;
		uint32_t cnt;
		struct kept_list *k;

		c->buf = xmalloc(want);
		if (!rd(s, (uint64_t)h->off_calls + off, want, c->buf))
			goto bad;
		q = c->buf;
		/* a count, a flags byte, at most 5 bytes an id */
		if (get_varint(&q, c->buf + want, &cnt) &&
		    (size_t)cnt * 5 + 6 > want && want < n) {
			want = (size_t)cnt * 5 + 6 < n ? (size_t)cnt * 5 + 6
						       : n;
			if (want > CALLS_READ)
				want = CALLS_READ;
			c->buf = xrealloc(c->buf, want);
			if (!rd(s, (uint64_t)h->off_calls + off, want, c->buf))
				goto bad;
		}
		c->p = c->buf;
		n = want;
		if (!s->lists)
			mut(s)->lists = xcalloc(LIST_CACHE, sizeof(*s->lists));
		k = &s->lists[off % LIST_CACHE];
		free(k->data);
		k->data = (unsigned char *)xmemdup0(c->buf, want);
		k->off = off;
		k->len = (uint32_t)want;
	}
	c->end = c->p + n;
	if (!get_varint(&c->p, c->end, &c->n) || c->p >= c->end) {
		free(c->buf);
		c->buf = NULL;
		return false; /* cut (or longer than CALLS_READ): unknown */
	}
	c->flags = *c->p++;
	return true;
bad:
	free(c->buf);
	c->buf = NULL;
	corrupt(s);
	return false;
}

/* calls_next - the next callee's id; false at the end (or when cut) */
static bool calls_next(struct calls *c, uint32_t *id)
{
	uint32_t d;

	if (!c->n || !get_varint(&c->p, c->end, &d))
		return false;
	c->n--;
	c->id += d;
	*id = c->id;
	return true;
}

/* path_suffix - does path a name path b, one being a suffix of the other? */
static bool path_suffix(const char *a, const char *b)
{
	size_t an = strlen(a), bn = strlen(b);

	if (an < bn)
		return path_suffix(b, a);
	return !strcmp(a + an - bn, b) && (an == bn || a[an - bn - 1] == '/');
}

#define CALLS_REFS   8 /* definitions of one name followed */
#define CALLS_MACROS 4 /* macros a call may go through (free of depth) */

/*
 * calls_search - does a definition of e (those in file when it has one
 * there) call target, directly or through depth more?  1, 0, or -1 when
 * the budget ran out, or (top) a body calls through a pointer
 */
static int calls_search(const struct symbols *s, const struct entry *e,
			const char *file, uint32_t target, unsigned depth,
			unsigned macros, unsigned *budget, bool top)
{
	const unsigned char *refs;
	unsigned char *buf;
	size_t n = e->nrefs < CALLS_REFS ? e->nrefs : CALLS_REFS, i, inf = 0;
	uint32_t offs[CALLS_REFS];
	bool any = false, unsure = false;
	int ret = 0;

	if (!n || !(refs = entry_refs(s, e, n, &buf)))
		return -1;
	for (i = 0; i < n; i++) {
		const char *path =
			file ? path_at(s, get32(refs + i * REF_BYTES)) : NULL;
		bool in = path && path_suffix(path, file);

		offs[i] = get32(refs + i * REF_BYTES + 13);
		if (in && !any) {
			/* only the definitions in the file named */
			any = true;
			inf = 0;
		}
		if (in || !any)
			offs[inf++] = offs[i];
	}
	free(buf);
	for (i = 0; i < inf && ret != 1; i++) {
		struct calls c;
		uint32_t id;

		if (!*budget || !calls_open(s, offs[i], &c)) {
			unsure = true;
			continue;
		}
		(*budget)--;
		if (c.flags & (SYMBOLS_CALLS_INDIRECT | CALLS_UNKNOWN))
			unsure = true;
		while (ret != 1 && calls_next(&c, &id))
			if (id == target)
				ret = 1;
		free(c.buf);
	}
	/*
	 * Once anything on the way calls through a pointer, the answer can
	 * only be yes or "cannot tell", never no: stop there
	 */
	if (ret == 1 || unsure)
		return ret == 1 ? 1 : -1;
	for (i = 0; i < inf && (depth || macros) && ret != 1; i++) {
		struct calls c;
		uint32_t id;

		if (!calls_open(s, offs[i], &c))
			continue;
		while (ret != 1 && calls_next(&c, &id)) {
			struct entry sub;
			bool macro;
			int r;

			if (!*budget) {
				unsure = true;
				break;
			}
			if (!entry_by_id(s, id, &sub)) {
				unsure = true;
				break;
			}
			/* a macro is no call: going through one is free */
			macro = best_level(&sub) == LEVEL_OTHER;
			if (macro ? !macros : !depth)
				continue;
			r = calls_search(
				s, &sub, NULL, target, depth - (macro ? 0 : 1),
				macros - (macro ? 1 : 0), budget, false);
			if (r > 0)
				ret = 1;
			else if (r < 0)
				unsure = true;
			if (unsure)
				break;
		}
		free(c.buf);
		if (unsure && ret != 1)
			return -1;
	}
	return ret;
}

/* symbols_calls - does caller call callee (symbols.h)? 1, 0, or -1 */
int symbols_calls(const struct symbols *s, const char *caller, const char *file,
		  const char *callee, unsigned depth, unsigned *budget)
{
	struct entry ce, ee;

	if (!find_function(s, callee, &ee) || !ee.nrefs ||
	    !find_function(s, caller, &ce) || !ce.nrefs)
		return -1;
	return calls_search(s, &ce, file, ee.id, depth, CALLS_MACROS, budget,
			    true);
}

/* symbols_best - the one file that clearly defines function, or NULL */
const char *symbols_best(const struct symbols *s, const char *function)
{
	struct entry e;

	if (!find_function(s, function, &e) || !e.nrefs)
		return NULL;
	/* Refs are sorted by rank: the best level must hold one file. */
	if (e.nrefs > 1 && e.refs[4] / 2 == e.refs[REF_BYTES + 4] / 2)
		return NULL;
	return path_at(s, get32(e.refs));
}

const char *symbols_tree(const struct symbols *s)
{
	return s->h->tree[0] == '/' ? s->h->tree : NULL;
}

unsigned symbols_tree_version(const struct symbols *s)
{
	return s->h->tree_version;
}

/*
 * symbols_has_prefix - the first name >= prefix is in the block
 * block_of() gives, or is the next block's first: is it longer than
 * prefix, and does it start with it?
 */
bool symbols_has_prefix(const struct symbols *s, const char *prefix, size_t n)
{
	char cur[NAME_MAX_LEN + 1];
	const unsigned char *b, *p, *end;
	size_t curlen = 0;
	uint32_t bi;
	unsigned k;
	uint16_t v[2];

	if (!n || n >= NAME_MAX_LEN || !s->h->nblocks ||
	    !block_of(s, prefix, n, &bi))
		return false;
	for (; bi < s->h->nblocks && bi <= (uint32_t)-2; bi++) {
		if (!(b = block(s, bi)))
			return false;
		memcpy(v, b, 4);
		end = b + BLOCK_SIZE;
		if (v[1] != nrestarts(v[0]) ||
		    4 + 2 * (size_t)v[1] > BLOCK_SIZE)
			goto bad;
		p = b + 4 + 2 * (size_t)v[1];
		for (k = 0; k < v[0]; k++) {
			size_t shared = p[0], slen = p[1], cnt;
			int c;

			if (end - p < 3 || shared > curlen || !slen ||
			    shared + slen > NAME_MAX_LEN ||
			    (size_t)(end - p) < 3 + slen)
				goto bad;
			memcpy(cur + shared, p + 2, slen);
			curlen = shared + slen;
			p += 2 + slen;
			cnt = *p++;
			p += cnt == REFS_MANY ? 8 + FIRST_REFS * REF_BYTES
					      : cnt * REF_BYTES;
			if (cnt != REFS_MANY && cnt > INLINE_REFS)
				goto bad;
			c = memcmp(cur, prefix, curlen < n ? curlen : n);
			if (c < 0 || (c == 0 && curlen <= n))
				continue;
			return c == 0;
		}
		curlen = 0;
	}
	return false;
bad:
	corrupt(s);
	return false;
}
