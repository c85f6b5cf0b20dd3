/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * printk - the kernel's log formats, to the files that print them
 *
 * DESCRIPTION
 *	Part of the evidence stage.  Many reports carry a kernel log line
 *	and nothing else ("BTRFS error (device sda1): parent transid
 *	verify failed on 30408704 wanted 17 found 15", "usb 1-2: device
 *	descriptor read/64, error -71"); the source file that prints it
 *	names its MAINTAINERS section.
 *
 *	printk_build() scans the .c files of a kernel tree (not tools/,
 *	scripts/, samples/, Documentation/, usr/) for calls of the log
 *	family whose argument is a format string literal, and writes an
 *	index that printk_open() maps.  A log call is one named printk,
 *	panic, WARN or WARN_ONCE ..., or one whose name ends in a log
 *	level (err, error, warn, warning, notice, info, crit, alert,
 *	emerg, printk), perhaps followed by once, ratelimited, ratelimit,
 *	rl, probe, in_rcu, inode, block, tag or fs: pr_err(), dev_warn(),
 *	netdev_err(), drm_err(), DRM_ERROR(), btrfs_err_rl(),
 *	ext4_error_inode(), xfs_alert_tag(), ath11k_warn(), IWL_ERR(),
 *	dev_err_probe(), also ext4_msg() and mlog().  Debug calls (pr_debug,
 *	dev_dbg: dynamic debug, off by default) and pr_cont() are not, nor
 *	seq_printf() and the s*printf()s: they print no log line.
 *	The format is the first argument made of string literals only
 *	(adjacent literals joined; a KERN_* macro is nothing, another
 *	identifier between literals, DRV_NAME or PRIu64, any text).  Of
 *	a format its first line is kept, its conversions ("%d", "%pM",
 *	"%*ph", "%.*s") become wildcards and "%%" is '%'; a format with
 *	fewer than PRINTK_CONST_MIN constant characters, or with no word
 *	of three characters between non-word characters, is dropped.
 *
 *	printk_match() matches one log line (its console stamp, journal
 *	prefix and quote markers already removed) against the formats: a
 *	line matches when the format's constant fragments occur in it in
 *	order (the start is free: a pr_fmt() prefix, the "driver device: "
 *	prefix of dev_printk() and "[drm:func [amdgpu]] *ERROR* " come
 *	before them; what follows the last one is free too).  Each format
 *	is filed under its rarest word (fewest formats have it); a line
 *	tries the formats filed under its words, so a line costs a hash
 *	and a probe per word and a match per candidate.  Of the formats a
 *	line matches, those with the most constant characters are
 *	returned (a longer format says more than a shorter one inside it).
 *
 *	A format printed in many files says little of where: the index
 *	keeps how many files print it, and their paths up to
 *	PRINTK_FILES_MAX (the caller weighs, sections.h).
 *
 *	The index (STATE_DIR/printk.idx, format PRINTK_VERSION) is one
 *	image (image.h), written atomically: a header; a Bloom filter of
 *	the anchor words and of each format's pair of its two rarest
 *	words, and a directory of buckets of anchors; the buckets (each
 *	its anchors and their runs of entries: a format's word mask, two
 *	more of its word hashes, its text's offset and length); the
 *	formats (text, call name, files); the paths, and the tree it was
 *	built from.  The filter reads nothing through a mapping: a mapped
 *	file brings whole page-cache folios (up to 2 MB each) into the
 *	resident set for one byte read.  printk_open() reads and checks the
 *	header (an index of another format is refused: 'triage update'
 *	rebuilds it); the first lookup reads the filter and directory
 *	(some 300 KB for Linux), and a line then costs a read of a bucket
 *	(a few KB, the last PK_BUCKETS kept) for each of its words the
 *	filter passes, and of the text of each format whose words the
 *	line has.  Every offset is checked before it is followed, so a
 *	damaged index yields no match, never a read outside it.
 *
 * Ownership:
 *	struct printk_index is the caller's; printk_free().  Strings
 *	returned are the index's: valid until printk_free() or until
 *	strings of 64 other formats are asked for (copy them).
 *
 * Errors:
 *	printk_build() returns -1 after printing why; printk_open() prints
 *	why it refuses a file (not an index, an older format, damaged) and
 *	returns NULL.
 */
#ifndef TRIAGE_PRINTK_H
#define TRIAGE_PRINTK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PRINTK_VERSION	 2
#define PRINTK_CONST_MIN 10 /* constant characters a format needs */
#define PRINTK_FILES_MAX 8  /* paths kept of a format */
#define PRINTK_WILD	 '\001'

/* the level of a format's call: its name's, or its KERN_* (printk()) */
#define PRINTK_ERR     'E' /* err, error, crit, alert, emerg, panic */
#define PRINTK_WARN    'W' /* warn, warning, WARN() */
#define PRINTK_INFO    'I' /* info, notice; KERN_INFO, KERN_DEBUG */
#define PRINTK_UNKNOWN '?' /* printk() without a KERN_* */

struct printk_index;

struct printk_stats {
	size_t files;	/* .c files scanned */
	size_t calls;	/* log calls with a literal format */
	size_t formats; /* distinct formats kept */
	size_t words;	/* distinct words they are filed under */
	size_t bytes;	/* size of the index */
	double seconds;
};

int printk_build(const char *tree, const char *out, struct printk_stats *st);

struct printk_index *printk_open(const char *path);
void printk_free(struct printk_index *pk);
size_t printk_nformats(const struct printk_index *pk);

/* what an open index says of itself (triage check-config) */
struct printk_about {
	unsigned version;
	size_t formats, files, scanned, calls, bytes;
	int64_t built;	  /* seconds since the epoch */
	const char *tree; /* absolute; valid until printk_free() */
};
void printk_about(const struct printk_index *pk, struct printk_about *a);

/* printk_io - the reads lookups made of the index, and their bytes */
void printk_io(const struct printk_index *pk, unsigned long *reads,
	       unsigned long *bytes);

/*
 * printk_log_call - name (len bytes) is a log call's (exported for
 * tests)
 */
bool printk_log_call(const char *name, size_t len);

/*
 * printk_normalize - a format's text as the index keeps it: its first
 * line, conversions as PRINTK_WILD (exported for tests); the number of
 * constant characters, or -1 when it has none worth keeping.  out has
 * room for size bytes (NUL included).
 */
int printk_normalize(const char *fmt, size_t len, char *out, size_t size);

struct printk_hit {
	uint32_t format;
	unsigned nconst; /* its constant characters */
};

/*
 * printk_match - the formats line matches, those with the most
 * constant characters, at most max; how many
 */
size_t printk_match(const struct printk_index *pk, const char *line, size_t len,
		    struct printk_hit *hits, size_t max);

/*
 * printk_match_cached - printk_match() for the lines of one text: a
 * line shaped like one of the last PRINTK_CACHE lines (the same text
 * but for its numbers: a log repeats its formats) takes that line's
 * formats when they match it too, without the lookup.  A format whose
 * constant text differs from another's in a number only ("read/64",
 * "read/8") may then stand for it.  Zero the cache before the first
 * line.
 */
#define PRINTK_CACHE	  8
#define PRINTK_CACHE_HITS 4
struct printk_cache {
	uint64_t shape[PRINTK_CACHE];
	struct printk_hit hits[PRINTK_CACHE][PRINTK_CACHE_HITS];
	unsigned char n[PRINTK_CACHE];
	bool used[PRINTK_CACHE];
	unsigned next;
	unsigned long reused; /* lines answered from the cache */
};
size_t printk_match_cached(const struct printk_index *pk,
			   struct printk_cache *c, const char *line, size_t len,
			   struct printk_hit *hits, size_t max);

/* the call that prints format id ("pr_err"), its text (PRINTK_WILD),
 * its level (PRINTK_ERR ...: of the most severe call when several
 * print it) */
const char *printk_call(const struct printk_index *pk, uint32_t id);
char printk_level(const struct printk_index *pk, uint32_t id);
const char *printk_text(const struct printk_index *pk, uint32_t id);
/*
 * printk_files - the files that print format id: fills at most max
 * paths, sets *total to how many print it (more than returned when the
 * index keeps no list: over PRINTK_FILES_MAX)
 */
size_t printk_files(const struct printk_index *pk, uint32_t id,
		    const char **paths, size_t max, unsigned *total);

#endif
