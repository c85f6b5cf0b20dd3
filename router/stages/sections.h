/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sections - the map stage for a report: evidence to ranked sections
 *
 * DESCRIPTION
 *	Turns what the evidence stage found into MAINTAINERS sections with
 *	scores, best first.  Every path is mapped with map_lookup(), so a
 *	file gets exactly get_maintainer.pl's sections; the report's
 *	sections are then weighed by where the path came from:
 *
 *	  guilty file (syzkaller's rules)        1.0
 *	  files of further stack frames          0.5, 0.45, ... (>= 0.2)
 *	    (not generic ones syzkaller skips: lib/, mm/kasan/, headers)
 *	  source of a driver the log names       0.45 ("btusb 3-10:1.0:",
 *	    "[xfs]" in a frame; module -> file or directory via symbols)
 *	  files named in the text                0.4, 0.35, ... (>= 0.15)
 *	  subject prefix ("xfs:", "mm/slub:")    0.6
 *	  K: keywords found in the text          0.15 each
 *
 *	Within one path's sections the most specific gets the full weight
 *	and each broader one half of the one before, so "fs/xfs/x.c"
 *	counts for XFS FILESYSTEM, not for THE REST.  A subject prefix
 *	maps as a path when it has a "/" ("mm/slub" tries mm/slub.c and
 *	mm/slub/), else through section titles ("XFS FILESYSTEM") and list
 *	names ("linux-xfs@"), preferring the broadest such section (the
 *	fewest words: "USB SUBSYSTEM" for "usb"; then the shallowest F:).
 *	In a crash report, generic paths are skipped among the files named
 *	in the text too (they come from the allocation/free traces).  THE REST (a section whose
 *	only F: patterns are "*" and "*" followed by "/") never scores: a
 *	report with nothing else is unmapped.
 *
 *	Each section carries a one-line "why" naming its strongest source.
 *
 * Ownership:
 *	struct section_list owns its array; section_list_release().
 */
#ifndef TRIAGE_SECTIONS_H
#define TRIAGE_SECTIONS_H

#include <stddef.h>
#include <stdint.h>

struct map;
struct evidence;

#define SECTIONS_MAX	32
#define SECTION_WHY_MAX 160

struct section_score {
	uint32_t section;
	double score;
	char why[SECTION_WHY_MAX];
};

struct section_list {
	struct section_score *v;
	size_t n;
};

void sections_for_report(const struct map *map, const struct evidence *ev,
			 const char *text, size_t text_len,
			 struct section_list *out);
void section_list_release(struct section_list *l);

/* sections_is_catchall - a section that matches every path (THE REST) */
int sections_is_catchall(const struct map *map, uint32_t section);

#endif
