/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * prefixes - the subsystem prefixes of a commit-style subject
 *
 * Kernel subjects name their subsystem as a chain, broad to specific:
 * "wifi: mac80211: fix a leak", "net: stmmac: ...", "Bluetooth: hci_sync:
 * ...".  evidence_subject_prefix() keeps the first; the map stage tries
 * the chain from its most specific end (MAC80211 before NETWORKING
 * DRIVERS (WIRELESS)).  A bot's report often names nothing of the code
 * but the commit it blames, by its subject:
 *
 *	commit: 0123456789ab ("wifi: mac80211: fix a leak")
 *	[...] 0123456789ab ("net: stmmac: ...") is the first bad commit
 *	commit 0123456789ab...        (a bisection's log: the subject is
 *	Author: ...                    the first indented line after the
 *	Date:   ...                    header)
 *	    wifi: mac80211: fix a leak
 *
 * and that commit's prefix chain is where the bug is.
 */
#ifndef TRIAGE_PREFIXES_H
#define TRIAGE_PREFIXES_H

#include <stdbool.h>
#include <stddef.h>

/* at most this many components, each at most PREFIX_COMPONENT_MAX bytes */
#define PREFIX_CHAIN_MAX     4
#define PREFIX_COMPONENT_MAX 40

/* prefix_is_subsystem - w[0..n) before a ':' can name a subsystem
 * ("xfs", "net/smc"; not "BUG", "Re", "WARNING", ...) */
bool prefix_is_subsystem(const char *w, size_t n);

/*
 * prefix_chain - the prefix chain of a subject after its "Re:" and
 * "[...]" tags, components joined by ": " ("wifi: mac80211"), in a new
 * string; NULL when the subject starts with no "word: "
 */
char *prefix_chain(const char *subject);

/*
 * prefix_culprit - the prefix chain of the first commit the text blames
 * (the forms above), in a new string, or NULL; reads at most
 * PREFIX_SCAN_MAX bytes
 */
#define PREFIX_SCAN_MAX (256 * 1024)
char *prefix_culprit(const char *text, size_t len);

/*
 * prefix_syz_fs - the directory of the filesystem a syzkaller
 * reproducer mounts ("syz_mount_image$ntfs3(...)" -> "fs/ntfs3",
 * "$vfat" -> "fs/fat"), in a new string, or NULL; reads at most
 * PREFIX_SCAN_MAX bytes
 */
char *prefix_syz_fs(const char *text, size_t len);

/*
 * prefix_merged_tree - the tree a linux-next build report blames ("...
 * build failure after merge of the kbuild tree" -> "kbuild"), in a new
 * string, or NULL: the tree is the subsystem, linux-next only where it
 * showed
 */
char *prefix_merged_tree(const char *subject);

#endif
