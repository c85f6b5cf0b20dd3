/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * symbols_int - what symbols.c shares with symbols_modules.c: the
 * records of modules and Kconfig options that building the index
 * gathers from kbuild's files
 */
#ifndef TRIAGE_SYMBOLS_INT_H
#define TRIAGE_SYMBOLS_INT_H

#include <stddef.h>
#include <stdint.h>

#include "symbols.h"

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
