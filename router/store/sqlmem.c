// SPDX-License-Identifier: GPL-2.0-only
/*
 * sqlmem - a size-class allocator for SQLite in a short-lived process
 * (see sqlmem.h)
 *
 * Every block has a 16-byte header (which keeps the 16-byte alignment
 * malloc gives) holding its class, or BIG and its size for a block
 * from malloc().  A freed block goes to the head of its class's list.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "sqlmem.h"

#define HDR	    16
#define NSMALL	    16 /* 16, 32, ... 256 */
#define FIRST_POW   8  /* then four classes in (2^8, 2^9], ... */
#define LAST_POW    13 /* ... up to (2^13, 2^14] */
#define NCLASS	    (NSMALL + 4 * (LAST_POW - FIRST_POW + 1))
#define MAX_CLASSED (1 << (LAST_POW + 1))
#define CHUNK	    (64 * 1024)
#define BIG	    UINT32_MAX

struct hdr {
	uint32_t cls;  /* class, or BIG */
	uint32_t size; /* usable bytes */
	uint64_t pad;
};

struct freed {
	struct freed *next;
};

static struct freed *free_list[NCLASS];
static char *bump, *bump_end;

static int class_size(unsigned cls)
{
	unsigned k, p, q;

	if (cls < NSMALL)
		return (int)(cls + 1) * 16;
	k = cls - NSMALL;
	p = FIRST_POW + k / 4;
	q = k % 4;
	return (1 << p) + (int)(q + 1) * (1 << (p - 2));
}

/* class_of - the smallest class holding n bytes (0 < n <= MAX_CLASSED) */
static unsigned class_of(int n)
{
	unsigned p, q;

	if (n <= 256)
		return (unsigned)(n + 15) / 16 - 1;
	p = 31u - (unsigned)__builtin_clz((unsigned)n - 1);
	q = ((unsigned)n - (1u << p) - 1) / (1u << (p - 2));
	return NSMALL + (p - FIRST_POW) * 4 + q;
}

static struct hdr *header(void *p)
{
	return (struct hdr *)((char *)p - HDR);
}

/* carve - a new block of class cls from the current chunk */
static void *carve(unsigned cls)
{
	size_t need = HDR + (size_t)class_size(cls);
	struct hdr *h;

	if (!bump || (size_t)(bump_end - bump) < need) {
		/* the rest of the old chunk is left unused */
		bump = malloc(CHUNK);
		if (!bump)
			return NULL;
		bump_end = bump + CHUNK;
	}
	h = (struct hdr *)bump;
	bump += need;
	h->cls = cls;
	h->size = (uint32_t)class_size(cls);
	return (char *)h + HDR;
}

/* sqlmem_malloc - n bytes (n <= 0 is taken as 1) */
void *sqlmem_malloc(int n)
{
	unsigned cls;
	struct hdr *h;

	if (n <= 0)
		n = 1;
	if (n > MAX_CLASSED) {
		if (n > INT_MAX - 7)
			return NULL;
		n = sqlmem_roundup(n); /* what sqlmem_size() will say */
		h = malloc(HDR + (size_t)n);
		if (!h)
			return NULL;
		h->cls = BIG;
		h->size = (uint32_t)n;
		return (char *)h + HDR;
	}
	cls = class_of(n);
	if (free_list[cls]) {
		struct freed *f = free_list[cls];

		free_list[cls] = f->next;
		return f;
	}
	return carve(cls);
}

/* sqlmem_free - give p back (NULL is fine) */
void sqlmem_free(void *p)
{
	struct hdr *h;
	struct freed *f = p;

	if (!p)
		return;
	h = header(p);
	if (h->cls == BIG) {
		free(h);
		return;
	}
	f->next = free_list[h->cls];
	free_list[h->cls] = f;
}

/* sqlmem_size - usable bytes of p (0 for NULL) */
int sqlmem_size(void *p)
{
	return p ? (int)header(p)->size : 0;
}

/* sqlmem_realloc - p resized to n bytes, its content kept */
void *sqlmem_realloc(void *p, int n)
{
	void *q;
	int old;

	if (!p)
		return sqlmem_malloc(n);
	old = sqlmem_size(p);
	if (n <= old && (header(p)->cls != BIG || n > old / 2))
		return p;
	q = sqlmem_malloc(n);
	if (!q)
		return NULL;
	memcpy(q, p, (size_t)(old < n ? old : n));
	sqlmem_free(p);
	return q;
}

/* sqlmem_roundup - what an allocation of n bytes really gives */
int sqlmem_roundup(int n)
{
	if (n <= 0)
		n = 1;
	if (n > MAX_CLASSED)
		return (n + 7) & ~7;
	return class_size(class_of(n));
}

static int x_init(void *unused)
{
	(void)unused;
	return SQLITE_OK;
}

static void x_shutdown(void *unused)
{
	(void)unused;
}

/* sqlmem_install - make SQLite allocate with sqlmem (before it starts) */
int sqlmem_install(void)
{
	static const sqlite3_mem_methods methods = {
		sqlmem_malloc,	sqlmem_free, sqlmem_realloc, sqlmem_size,
		sqlmem_roundup, x_init,	     x_shutdown,     NULL,
	};

	return sqlite3_config(SQLITE_CONFIG_MALLOC, &methods) == SQLITE_OK ? 0
									   : -1;
}
