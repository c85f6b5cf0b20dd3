/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sections - the map stage for a report: evidence to ranked sections
 *
 * DESCRIPTION
 *	Turns what the evidence stage found into MAINTAINERS sections with
 *	scores, best first.  Every path is mapped with map_lookup(), so a
 *	file gets exactly get_maintainer.pl's sections; the report's
 *	sections are then weighed by where the evidence came from:
 *
 *	  guilty file (syzkaller's rules)        1.0
 *	  files of further stack frames          0.5, 0.45, ... (>= 0.2)
 *	    (not generic ones syzkaller skips: lib/, mm/kasan/, headers)
 *	  source of a driver the log names       0.45 ("btusb 3-10:1.0:",
 *	    "[xfs]" in a frame; module -> file or directory via symbols;
 *	    a boot log naming more than four: they share 4 x 0.45)
 *	  files named in the text                0.4, 0.35, ... (>= 0.15),
 *	                                         at most 0.4 a section
 *	  subject prefix ("xfs:", "mm/slub:")    0.6, the most specific
 *	    component of a chain that names a section ("wifi: mac80211:"
 *	    is MAC80211; "Bluetooth: hci_sync:" falls back to Bluetooth);
 *	    split between sections that answer to it equally
 *	  the filesystem a syzkaller reproducer  0.4 (syz_mount_image$ntfs3
 *	    mounts                                 -> fs/ntfs3/)
 *	  the prefix of a commit the text blames 0.5 ('commit: SHA ("wifi:
 *	    mac80211: ...")', a bisection log's subject: prefixes.h)
 *	  a driver the subject names             0.6 ("rtw89: ...": the
 *	    symbol index's "module:NAME", a kbuild module or a directory
 *	    name only one directory of the tree has)
 *	  drivers and functions the prose names  0.3 each ("ucsi_acpi",
 *	    "xfs_iget()", "ext4_find_extent:936:"), at most 0.4 a
 *	    section; not in generic files (as frames)
 *	  a list in To: / Cc:                    0.4 / 0.3, times its share
 *	    (a list MAINTAINERS lacks: the list its name without "-devel"
 *	    names, else the driver directory it is named after:
 *	    linux-uvc-devel@ is drivers/media/usb/uvc/'s)
 *	  a person (M:, B:) in To: / Cc:         0.5 / 0.375, times the share
 *	    (R: 0.3 / 0.225); all lists give a section at most 0.4, all
 *	    people at most 0.5
 *	  a log line matching a format of the    0.2 over the files that
 *	    tree's log calls (printk.h)            print it (none past 8),
 *	                                           a third for an info line,
 *	                                           half for a bare printk(),
 *	                                           at most 0.4 a section;
 *	                                           not the crash and boot
 *	                                           printers (sections.c)
 *	  the Bugzilla product/component         0.5 (bzcomponent.h), on
 *	    Bugzilla's own mail only
 *	  the tree a test robot built            0.75, times its share
 *	    (kernel test robot's "tree:", CKI's    (the sections of that T:
 *	    "Kernel repo:", KernelCI's "Git URL:"  it covers; none under a
 *	    and "URL:" lines) as a section's T:    quarter); never mainline,
 *	                                           linux-next or stable
 *	  K: keywords found in the text          0.15 each, never alone;
 *	    in the prose lines only (not logs, build or shell command
 *	    lines, diffs, config or link lines)
 *
 *	Generic core code a driver's trace or text passes through (the
 *	device model, drivers/base/'s own files; kernel/irq/, kernel/dma/,
 *	entry code, drivers/iommu/, net/netlink/) counts half as a frame,
 *	a path or a name in the text: the driver beside it says more.  All
 *	the frames of one section give it at most half the guilty file's
 *	weight (0.75): a caller framework says once that the path went
 *	through it.
 *
 *	A framework's check that a driver the subject names tripped (a
 *	WARN in drm_atomic.c with frames of drivers/gpu/drm/nouveau/ below
 *	it, "Nouveau driver warns ...") shares the guilty file's weight
 *	with that driver's frame: the driver broke the framework's rule.
 *
 *	A lower filesystem's guilty file under a stacking filesystem's
 *	frame (overlayfs or ecryptfs calling ext4: its caller in the trace)
 *	shares the guilty file's weight with the stacking one: it broke on
 *	what the stacking layer handed it.
 *
 *	Within one path's sections the most specific gets the full weight
 *	and each broader one half of the one before, so "fs/xfs/x.c"
 *	counts for XFS FILESYSTEM, not for THE REST; a section strictly
 *	inside another that owns the path (map_umbrellas()) is more
 *	specific than it whatever get_maintainer.pl's depth says.  A
 *	subject prefix maps as a path when it has a "/" ("mm/slub" is
 *	mm/slub.c, "net/can" net/can/: whichever a deeper pattern owns),
 *	or as a directory deeper in the tree with those names ("x86/mce"
 *	is arch/x86/kernel/cpu/mce/), else through section titles ("XFS
 *	FILESYSTEM") and list names ("linux-xfs@"), preferring the
 *	broadest such section (the shallowest code, then the fewest
 *	words: "USB SUBSYSTEM" for "usb", "IIO SUBSYSTEM AND DRIVERS" for
 *	"iio"; a directory of that name broader than any title, "ata" for
 *	drivers/ata/; a name more than four sections share, none; of a
 *	list's sections, those whose title or code the list is named
 *	after: "nouveau:" is drivers/gpu/drm/nouveau/'s, not MMIOTRACE's).  A
 *	chain's component under an earlier one names its directory there
 *	first ("net: mana" is drivers/net/.../mana/).  In a crash report,
 *	generic paths are skipped among the files named in the text too
 *	(they come from the allocation/free traces).
 *
 *	Equal scores rank the section with more evidence of its own
 *	(paths, drivers, functions, log lines) first, then the broader
 *	one (of two sections of one list: the list's subsystem).
 *
 *	An address's share (map_address()) is the part of its sections a
 *	section covers, the whole for the list's own section; the index
 *	has no catch-all list (linux-kernel@, THE REST's), no list of more
 *	than MAP_ADDR_SECTIONS_MAX sections and no process list (stable@,
 *	regressions@).  A list, the person of a whole subsystem, and a
 *	title-matched subject prefix are broad evidence: a section strictly
 *	inside one that got it, with at least 0.25 of its own (paths,
 *	drivers, functions, its own people), takes it too, so that the
 *	driver the report is about outranks the umbrella whose list it
 *	was sent to.
 *
 *	THE REST (a section whose only F: patterns are "*" and "*"
 *	followed by "/") never scores, and a section with nothing but K:
 *	keywords is dropped: a report with nothing else is unmapped.
 *
 *	Each section carries a "why": its strongest contributions, each
 *	with its weight ("guilty file fs/xfs/x.c 1.00; L: linux-xfs@...
 *	in Cc 0.30; within ...").
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
#define SECTION_WHY_MAX 240

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
/*
 * sections_for_report_site - the same for message r, with the site's
 * routes.conf: its bugzilla_component records come before the built-in
 * table (bzcomponent.h); cfg may be NULL.  ev's Bugzilla product and
 * component count only when r is Bugzilla's own mail or bug
 * (bzcomponent_from_bugzilla()): a header or a "Component:" line a
 * stranger wrote steers nothing.  sections_for_report() takes them as
 * given (its caller vouches for ev).
 */
struct config;
struct report;
void sections_for_report_site(const struct map *map, const struct config *cfg,
			      const struct report *r, const struct evidence *ev,
			      const char *text, size_t text_len,
			      struct section_list *out);
void section_list_release(struct section_list *l);

/* sections_is_catchall - a section that matches every path (THE REST) */
int sections_is_catchall(const struct map *map, uint32_t section);

#endif
