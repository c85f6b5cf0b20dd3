/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sections_tree - the tree a test robot built, as a section's T:
 *
 * DESCRIPTION
 *	Part of the map stage (sections.c is its user).  Test robots name
 *	the tree they built: kernel test robot's "tree:   URL branch",
 *	CKI's "Kernel repo: URL", KernelCI's "Git URL: URL" and "URL:
 *	URL", each at a line's start (after blanks; a quoted "> tree:" is
 *	not the report's).  A tree is a MAINTAINERS section's T: line
 *	("T: git git://..."), so the report is that subsystem's.  URLs
 *	compare without their scheme, a trailing "/" or ".git", in any
 *	case.
 *
 *	The sections of one tree share it as the sections of one address
 *	do (map_address()): each takes the part of them it covers (itself
 *	and those strictly inside it, map_umbrellas()), and one covering
 *	less than a quarter of them takes nothing (tip.git is two dozen
 *	subsystems', none of them the tree's; linuxtv's media.git is
 *	MEDIA INPUT INFRASTRUCTURE's, which holds the rest).  A catch-all
 *	tree names no subsystem: mainline, linux-next and stable (whoever
 *	lists them), and a tree of THE REST; a section with no code of its
 *	own (F: only under Documentation/, or none) takes nothing.  At
 *	most two trees a text, the first ones.
 *
 *	Only a line that starts with one of the labels costs more than a
 *	look at its first bytes; a tree found costs one pass over the
 *	sections' entries.
 */
#ifndef TRIAGE_SECTIONS_TREE_H
#define TRIAGE_SECTIONS_TREE_H

#include <stddef.h>
#include <stdint.h>

struct map;

#define SECTIONS_TREE_MAX 16
#define TREE_URL_MAX	  256

struct tree_credit {
	uint32_t section;
	double share; /* (0, 1]: the part of the tree's sections */
	char tree
		[TREE_URL_MAX]; /* as compared: "git.kernel.org/.../arm64/linux" */
};

/*
 * sections_trees - the sections the trees of text[0..len) name, each
 * with its share: up to max into out, their number returned
 */
size_t sections_trees(const struct map *map, const char *text, size_t len,
		      struct tree_credit *out, size_t max);

#endif
