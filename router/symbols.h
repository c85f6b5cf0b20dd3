/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * symbols - kernel function name -> defining source files
 *
 * DESCRIPTION
 *	Part of the evidence stage.  symbols_build() scans a kernel source
 *	tree for function definitions (a fast scanner of C, no ctags at
 *	run time) and writes a compiled index that symbols_open() mmaps.
 *	symbols_resolve() gives stack frames without a file the file that
 *	defines their function.  The classifier also asks whether a
 *	function named in a report exists at all (symbols_lookup() == 0).
 *
 * Ownership:
 *	Strings returned by lookups are borrowed from the index and valid
 *	until symbols_free().
 *
 * Errors:
 *	symbols_build()/symbols_open() print a message and return -1/NULL.
 */
#ifndef TRIAGE_SYMBOLS_H
#define TRIAGE_SYMBOLS_H

#include <stddef.h>

struct evidence;
struct symbols;

struct symbols_stats {
	size_t files;	  /* source files scanned */
	size_t functions; /* definitions indexed */
	size_t names;	  /* distinct names */
	double seconds;
};

int symbols_build(const char *tree, const char *out,
		  struct symbols_stats *stats);
struct symbols *symbols_open(const char *path);
void symbols_free(struct symbols *s);

/* symbols_lookup - files defining function, best first; returns count */
size_t symbols_lookup(const struct symbols *s, const char *function,
		      const char **files, size_t max);

/* symbols_resolve - fill frames that lack a file; then evidence_finish() */
void symbols_resolve(const struct symbols *s, struct evidence *ev);

#endif
