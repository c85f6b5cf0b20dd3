/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * maintainers - parse kernel-format MAINTAINERS files into a plain C model
 *
 * DESCRIPTION
 *	Reads MAINTAINERS text exactly as scripts/get_maintainer.pl does:
 *	a line "X: value" (an upper-case letter and a colon in column 0)
 *	is a tag, blank lines and lines starting with optional white space
 *	and '#' are ignored, and any other line is a candidate title.  A
 *	section is a maximal run of tag lines; its title is the last
 *	non-tag line before the run.  Blank lines therefore do not end a
 *	section, and a stray non-tag line inside an entry starts a new
 *	section, which is what get_maintainer.pl does too.
 *
 *	Several files (U-Boot keeps one MAINTAINERS per board directory)
 *	are read as one stream in sorted path order, as get_maintainer.pl
 *	concatenates them.
 *
 *	Values are kept as written (F:/X: globs are not converted here;
 *	map.c owns matching).  A trailing carriage return is dropped.
 *
 * Ownership:
 *	struct maintainers owns every string in it; maintainers_release()
 *	frees them.  Section source names point into m->sources.
 *
 * Errors:
 *	maintainers_load() returns -1 after printing why.
 */
#ifndef TRIAGE_MAINTAINERS_H
#define TRIAGE_MAINTAINERS_H

#include <stdbool.h>
#include <stddef.h>

struct mnt_entry {
	char tag;    /* 'M', 'R', 'L', 'S', 'W', 'Q', 'B', 'C', 'P', 'T', ... */
	char *value; /* text after the colon and leading white space */
	unsigned line; /* 1-based line in the source file */
};

struct mnt_section {
	char *title;
	const char *source; /* file the section was read from */
	unsigned line;	    /* line of the title (of the first tag if none) */
	struct mnt_entry *entries;
	size_t nentries, alloc;
};

struct maintainers {
	struct mnt_section *sections;
	size_t nsections, alloc;
	char **sources;
	size_t nsources, sources_alloc;
	/* parser state carried across files, as get_maintainer.pl's stream */
	bool in_run;
	char *pending_title;
	unsigned pending_line;
};

/* lifecycle */
void maintainers_init(struct maintainers *m);
void maintainers_release(struct maintainers *m);

/* input: a file, or a directory searched for files named MAINTAINERS */
int maintainers_load(struct maintainers *m, const char *path);
void maintainers_parse(struct maintainers *m, const char *text, size_t len,
		       const char *source);

/*
 * maintainers_overlay - merge a site overlay: entries of a section whose
 * title exists in m are appended to it (a site adds "B: mailto:..."
 * triagers this way); other sections are appended whole
 */
void maintainers_overlay(struct maintainers *m, const struct maintainers *ov);

/* queries */
const char *mnt_section_value(const struct mnt_section *s, char tag);
size_t maintainers_count_tag(const struct maintainers *m, char tag);

#endif
