/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * symbols_int - what symbols.c shares with symbols_modules.c: the
 * records of modules and Kconfig options that building the index
 * gathers from kbuild's files
 */
#ifndef TRIAGE_SYMBOLS_INT_H
#define TRIAGE_SYMBOLS_INT_H

#include <stddef.h>

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

#endif
