// SPDX-License-Identifier: GPL-2.0-only
/*
 * libmount-stub - the libmount calls of a statically linked GIO, failing
 *
 * DESCRIPTION
 *	triage-filter runs once per message, and a process linked with
 *	gmime's twenty shared libraries spends ~2.5 ms just loading them
 *	(research/performance.md).  It is therefore linked with the static
 *	archives of gmime, GLib, GIO and their dependencies.  Debian ships
 *	no static libmount; GIO uses it only to list mount points
 *	(g_unix_mounts_get() and friends), which the filter never asks for.
 *	These definitions let the static link complete: each one fails, as
 *	libmount does when it cannot read the tables, so a GIO call that
 *	did reach them would see "no mounts", never undefined behaviour.
 *
 *	Linked only into the static triage-filter, never into libtriage.a.
 */
#include <stddef.h>

struct libmnt_table;
struct libmnt_iter;
struct libmnt_fs;
struct libmnt_optmap;

struct libmnt_table *mnt_new_table(void);
void mnt_free_table(struct libmnt_table *tb);
int mnt_table_parse_mtab(struct libmnt_table *tb, const char *filename);
int mnt_table_parse_fstab(struct libmnt_table *tb, const char *filename);
int mnt_table_next_fs(struct libmnt_table *tb, struct libmnt_iter *itr,
		      struct libmnt_fs **fs);
struct libmnt_iter *mnt_new_iter(int direction);
void mnt_free_iter(struct libmnt_iter *itr);
const char *mnt_fs_get_fstype(struct libmnt_fs *fs);
const char *mnt_fs_get_options(struct libmnt_fs *fs);
const char *mnt_fs_get_root(struct libmnt_fs *fs);
const char *mnt_fs_get_source(struct libmnt_fs *fs);
const char *mnt_fs_get_target(struct libmnt_fs *fs);
char *mnt_fs_strdup_options(struct libmnt_fs *fs);
const struct libmnt_optmap *mnt_get_builtin_optmap(int id);
const char *mnt_get_fstab_path(void);
int mnt_has_regular_mtab(const char **mtab, int *writable);
int mnt_optstr_get_flags(const char *optstr, unsigned long *flags,
			 const struct libmnt_optmap *map);

struct libmnt_table *mnt_new_table(void)
{
	return NULL;
}

void mnt_free_table(struct libmnt_table *tb)
{
	(void)tb;
}

int mnt_table_parse_mtab(struct libmnt_table *tb, const char *filename)
{
	(void)tb;
	(void)filename;
	return -1;
}

int mnt_table_parse_fstab(struct libmnt_table *tb, const char *filename)
{
	(void)tb;
	(void)filename;
	return -1;
}

int mnt_table_next_fs(struct libmnt_table *tb, struct libmnt_iter *itr,
		      struct libmnt_fs **fs)
{
	(void)tb;
	(void)itr;
	if (fs)
		*fs = NULL;
	return 1; /* no more entries */
}

struct libmnt_iter *mnt_new_iter(int direction)
{
	(void)direction;
	return NULL;
}

void mnt_free_iter(struct libmnt_iter *itr)
{
	(void)itr;
}

const char *mnt_fs_get_fstype(struct libmnt_fs *fs)
{
	(void)fs;
	return NULL;
}

const char *mnt_fs_get_options(struct libmnt_fs *fs)
{
	(void)fs;
	return NULL;
}

const char *mnt_fs_get_root(struct libmnt_fs *fs)
{
	(void)fs;
	return NULL;
}

const char *mnt_fs_get_source(struct libmnt_fs *fs)
{
	(void)fs;
	return NULL;
}

const char *mnt_fs_get_target(struct libmnt_fs *fs)
{
	(void)fs;
	return NULL;
}

char *mnt_fs_strdup_options(struct libmnt_fs *fs)
{
	(void)fs;
	return NULL;
}

const struct libmnt_optmap *mnt_get_builtin_optmap(int id)
{
	(void)id;
	return NULL;
}

const char *mnt_get_fstab_path(void)
{
	return "/etc/fstab";
}

int mnt_has_regular_mtab(const char **mtab, int *writable)
{
	if (mtab)
		*mtab = NULL;
	if (writable)
		*writable = 0;
	return 0;
}

int mnt_optstr_get_flags(const char *optstr, unsigned long *flags,
			 const struct libmnt_optmap *map)
{
	(void)optstr;
	(void)map;
	if (flags)
		*flags = 0;
	return -1;
}
