/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * symbols_int - what symbols.c shares with symbols_modules.c (the
 * records of modules and Kconfig options that building the index
 * gathers from kbuild's files) and symbols_open.c (the index's layout
 * and the open index)
 */
#ifndef TRIAGE_SYMBOLS_INT_H
#define TRIAGE_SYMBOLS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "symbols.h"

#define SYM_MAGIC   "TRIAGESY"
#define SYM_VERSION 4
#define SYM_ENDIAN  0x01020304u

#define NAME_MAX_LEN  SYMBOLS_NAME_MAX
#define FILE_MAX_SIZE (64u << 20)
#define MAX_THREADS   8

/* The index's blocks (see the layout above). */
#define BLOCK_SIZE    4096u
#define INLINE_REFS   8	   /* up to this many refs: all in the entry */
#define FIRST_REFS    2	   /* more: the first two, the rest in over */
#define REF_BYTES     17   /* path offset, rank, first, last, calls */
#define REFS_MANY     0xff /* the count byte of an entry with more */
#define RESTART	      16   /* every 16th entry of a block is whole */
#define PATH_READ     256  /* pread(): the first read of a path */
#define PATH_MAX_LEN  4096
#define BLOCK_CACHE   512  /* pread(): blocks kept (a 40-frame trace's) */
#define BLOCK_CHUNK   32   /* pread(): blocks allocated at a time */
#define LIST_CACHE    4096 /* pread(): call lists kept (by offset) */
#define CALLS_UNKNOWN 2u   /* a body calls a name the index lacks */
_Static_assert(BLOCK_CACHE % BLOCK_CHUNK == 0, "the cache in whole chunks");

/* Ranking levels (symbols.h): lower is better. */
enum {
	LEVEL_C,      /* .c file, generic or x86 */
	LEVEL_HEADER, /* header, generic or x86 */
	LEVEL_WEAK,   /* __weak, generic or x86 */
	LEVEL_ARCH,   /* another architecture */
	LEVEL_OTHER,  /* tools/, scripts/, samples/, Documentation/, usr/ */
};

struct img_header {
	char magic[8];
	uint32_t version, endian, size, flags;
	uint32_t nnames, nrefs, nfiles; /* figures */
	uint32_t nblocks, block_size;
	uint32_t off_top, top_size; /* the separators */
	uint32_t off_over, over_size;
	uint32_t off_paths, paths_size;
	uint32_t off_blocks;
	uint32_t scanned; /* files scanned when it was built */
	uint32_t
		off_ids; /* uint32_t[nblocks]: the id of each block's first name */
	uint32_t off_calls, calls_size; /* the call lists */
	/* the tree's version (KERNEL_VERSION(a, b, c) of its Makefile, 0:
	 * not known) and absolute path ("" when longer than this) */
	uint32_t tree_version;
	char tree[SYMBOLS_TREE_MAX];
};

/* an entry found in a block: its refs (copied: blocks are reused) */
struct entry {
	uint32_t id;	      /* the name's rank among all names */
	uint32_t nrefs, over; /* over: offset of all the refs, if many */
	unsigned ninline;
	unsigned char refs[INLINE_REFS * REF_BYTES];
};

struct kept {
	uint32_t off; /* in the paths */
	char *path;
};

struct symbols {
	unsigned char *base; /* the mapped file; NULL: read with pread() */
	size_t size;
	int fd; /* symbols_open_pread(): the open file */
	struct img_header hdr;
	const struct img_header *h;
	bool warned;
	unsigned long reads;	  /* pread() calls made */
	const unsigned char *top; /* the separators (pread: read once) */
	unsigned char *top_buf;
	const unsigned char *ids; /* the blocks' first ids (pread: read once) */
	unsigned char *ids_buf;
	/*
	 * pread(): the last BLOCK_CACHE blocks read, and their numbers;
	 * kept in chunks of BLOCK_CHUNK blocks, each allocated when the
	 * cache first reaches it: a message reads some ten blocks, and a
	 * 2 MB cache allocated whole took as much of the one-shot
	 * filter's heap (a second huge page, zeroed, for 40 KB used)
	 */
	unsigned char *chunk[BLOCK_CACHE / BLOCK_CHUNK];
	int64_t block_no[BLOCK_CACHE];
	int16_t *slot; /* per block: where it is kept, or -1 */
	unsigned block_next;
	/* pread(): call lists read, direct-mapped by offset */
	struct kept_list {
		uint32_t off, len; /* len 0: empty slot */
		unsigned char *data;
	} * lists;
	struct kept *kept; /* pread(): the paths lookups returned */
	size_t nkept, kept_alloc;
};

static inline uint32_t get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

struct file_list {
	char **v;
	size_t n, alloc;
};

struct modrec {
	char *name; /* "module:btusb" */
	char *path; /* "drivers/bluetooth/btusb.c" or "fs/xfs/" */
};

struct mod_list {
	struct modrec *v;
	size_t n, alloc;
};

/* symbols_cmp_str - qsort() and bsearch() order of char * */
int symbols_cmp_str(const void *a, const void *b);

/*
 * symbols_modules_from_makefile - "obj-$(CONFIG_X) += name.o" of one
 * Makefile or Kbuild file (mkpath, under root): "module:name" records
 */
void symbols_modules_from_makefile(const char *root, const char *mkpath,
				   const struct file_list *fl,
				   struct mod_list *ml);

/* symbols_kconfig_from_file - "kconfig:FOO" records of one Kconfig file */
void symbols_kconfig_from_file(const char *root, const char *path,
			       struct mod_list *ml);

/*
 * symbols_dirs_from_files - "module:NAME" records of the directories of
 * fl (sorted) whose name no other directory has
 */
void symbols_dirs_from_files(const struct file_list *fl, struct mod_list *ml);

/*
 * symbols_facts_scan - the "param:NAME", "sysctl:NAME" and "ioctl:NAME"
 * records of one source text at path (symbols_facts.c): fn is called
 * with each key (not NUL-terminated) and its line
 */
void symbols_facts_scan(const char *path, const char *text, size_t len,
			void (*fn)(void *arg, const char *key, size_t n,
				   unsigned line),
			void *arg);

/* symbols_tree_identity - the tree's absolute path ("" if too long) and
 * SYMBOLS_VERSION() of its Makefile (0 if none) */
void symbols_tree_identity(const char *tree, char path[SYMBOLS_TREE_MAX],
			   uint32_t *version);

#endif
