/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * evidence - what a triager reads first in a kernel bug report
 *
 * DESCRIPTION
 *	The evidence stage.  evidence_extract() scans a report's text
 *	(every text part, attachments included) for kernel crash reports
 *	(Oops, BUG, WARNING, KASAN/KCSAN/KMSAN/UBSAN, lockdep, hung task,
 *	RCU stall, syzbot) and for the facts around them: the title in
 *	syzkaller's style, the stack frames, the guilty file (syzkaller's
 *	rules, then past generic and core code to the code a maintainer
 *	would look at: see crash_guilty), kernel version, taint, the
 *	"Hardware name:" line, reproducer, bisection, trailers, the subject
 *	prefix and the source paths the text mentions.
 *	evidence_extract_text() does the same for a bare console log.
 *
 *	Frames without a file are resolved afterwards through the symbol
 *	index (symbols_resolve() in symbols.h sets frame->file and
 *	from_index, then calls evidence_finish() so that the file list and
 *	the guilty file take the resolved frames into account).
 *
 *	The crash itself is parsed by crashlog.c (syzkaller's rules).  A
 *	crash counts when a title format of the table matched, or, for a
 *	bare header line ("WARNING: something"), when the line has a
 *	console time stamp or a device prefix ("usb 1-1: WARNING: ..."), or
 *	the header starts its line and stack frames or time stamps follow, so that prose such as "a Kernel panic after
 *	resume" is no crash; the search then goes on after that line.  A
 *	cut crash in a line that is neither console output nor starts with
 *	the header (a quoted Subject:) yields to a later crash.
 *
 *	crash_type is one of KASAN KMSAN KCSAN UBSAN KFENCE LEAK LOCKDEP
 *	HANG STALL OOPS PANIC REBOOT BUG WARNING INFO OTHER.
 *
 *	files[] is the guilty file, then the files of the frames in order,
 *	then the source paths the text names (text_files[]); functions[] is
 *	the frame functions in order without generic ones (locking,
 *	allocation, sanitizer runtime, ...) and without "? " frames, then
 *	the functions the text names as "name()" (text_functions[]).  Both
 *	are unique and capped at EVIDENCE_LIST_MAX.  At most
 *	EVIDENCE_TEXT_MAX bytes of text are scanned.
 *
 * Ownership:
 *	struct evidence owns all its strings; evidence_free() releases it.
 */
#ifndef TRIAGE_EVIDENCE_H
#define TRIAGE_EVIDENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EVIDENCE_TEXT_MAX (1u << 20)
#define EVIDENCE_LIST_MAX 64
#define EVIDENCE_LOG_MAX  16 /* log formats kept */
/* constant characters a format needs to match a line that is not
 * console output (no stamp, no journal prefix): prose says "failed to
 * resume" or "buffer overflow detected" as often as a driver does */
#define EVIDENCE_LOG_PROSE_MIN 24

struct report;
struct printk_index;

/*
 * a kernel log format (printk.h) that lines of the text match: the
 * call that prints it and the files that do
 */
struct log_match {
	uint32_t format; /* its id in the index */
	char *call;	 /* "pr_err" */
	char **files;	 /* "fs/btrfs/disk-io.c" (at most PRINTK_FILES_MAX) */
	size_t nfiles;
	unsigned total; /* files that print it (> nfiles: no list kept) */
	unsigned lines; /* lines of the text that matched it */
	double share;	/* 1 / the formats a line matched equally, at most */
	char level; /* PRINTK_ERR, PRINTK_WARN, PRINTK_INFO, PRINTK_UNKNOWN */
};

struct frame {
	char *function;	      /* "xfs_iget_cache_hit" */
	unsigned long offset; /* +0x1a2 (0 when absent) */
	unsigned long size;   /* /0x3c0 (0 when absent) */
	char *module;	      /* "xfs" for "[xfs]", NULL when built in */
	char *file;	      /* "fs/xfs/xfs_icache.c", or NULL */
	int line;	      /* 0 when unknown */
	bool inlined;	      /* "(inlined by)" / "[inline]" */
	bool unreliable;      /* "? func+0x..." */
	bool from_index;      /* file came from the symbol index */
};

enum {
	REPRO_C = 1 << 0,     /* a C reproducer (attached or linked) */
	REPRO_SYZ = 1 << 1,   /* a syzkaller program */
	REPRO_STEPS = 1 << 2, /* written steps to reproduce */
};

struct evidence {
	/* the crash, when there is one */
	char *title;	  /* "KASAN: slab-use-after-free Read in xfs_foo" */
	char *crash_type; /* "KASAN", "BUG", "WARNING", "LOCKDEP", ... */
	struct frame *frames;
	size_t nframes;
	char *guilty_file;	/* the guilty file (below), or NULL */
	bool guilty_from_index; /* guilty_file came from resolved frames */
	/*
	 * syzkaller's guilty file, as crashlog chose it from the text;
	 * evidence_finish() makes guilty_file from it the way a maintainer
	 * reads the trace: past generic code syzkaller's rules kept only
	 * as a last resort, and past core code (crashlog_core_path()), to
	 * the first frame in a driver, a filesystem or a subsystem; to the
	 * work function or the ODEBUG object's owner (below) when every
	 * frame is generic; the generic file when nothing else is
	 */
	char *crash_guilty;
	/*
	 * syzkaller's choice as evidence_finish() made it (crash_guilty,
	 * else its rules over the indexed frames): the file of the crash
	 * signature (crashsig.c), so that a change in the maintainer's
	 * reading above never splits one crash into two signatures
	 */
	char *sig_guilty;
	/*
	 * what the crash's own lines name beside its stack: the work item
	 * that ran ("Workqueue: md_misc mddev_delayed_delete"), and the
	 * function of the object an ODEBUG report is about ("... object
	 * type: timer_list hint: foo_timer_fn+0x0/0x10 drivers/foo/x.c:-1")
	 * and their files: the line's, else the symbol index's (each goes
	 * into text_functions[] for symbols_resolve(), and out of it again
	 * once resolved unless the text itself names it: being run by a
	 * kworker names no subsystem)
	 */
	char *work_function;
	char *work_file;
	char *odebug_function;
	char *odebug_file;
	bool odebug_from_index;
	bool work_listed, odebug_listed; /* in text_functions[] for that */

	/* paths and functions, most telling first, no duplicates */
	char **files;
	size_t nfiles;
	char **functions;
	size_t nfunctions;
	/* what the text itself names; evidence_finish() rebuilds from these */
	char **text_files; /* "fs/xfs/xfs_inode.c", "drivers/net/" */
	size_t ntext_files;
	char **text_functions; /* "xfs_iget" for "xfs_iget()" in the text */
	size_t ntext_functions;
	/*
	 * drivers and modules the log names: "[xfs]" in frames, and the
	 * driver of a device line ("btusb 3-10:1.0: ...", "mt7921e
	 * 0000:04:00.0: ..."); symbols_resolve() maps them to their source
	 * (module_files[], after the frame files in files[])
	 */
	char **modules;
	size_t nmodules;
	char **module_files; /* "drivers/bluetooth/btusb.c", "fs/xfs/" */
	size_t nmodule_files;
	/*
	 * drivers and modules the subject and the prose name ("rtw89:",
	 * "hid-mcp2221", "ucsi_acpi"): the first nnamed_subject from the
	 * subject; symbols_resolve() gives each the one file or directory
	 * the symbol index has for "module:NAME" (named_files[i], NULL when
	 * none: most words name no module).  A pair of the subject's words
	 * ("bcm2835 spi": names_pairs_in_subject()) that names a module
	 * takes the place of its words, in the subject's part; one that
	 * names none is dropped.
	 */
	char **named;
	size_t nnamed, nnamed_subject;
	char **named_files;
	/* the file that defines text_functions[i], or NULL */
	char **text_function_files;

	/* the system it happened on */
	char *kernel_version;  /* "6.12.0-rc3-next-20241010" */
	char *tainted;	       /* "G        W" or "Not tainted" */
	char *hardware;	       /* the "Hardware name:" value */
	bool hw_virtual;       /* QEMU, Google Compute Engine, VMware, ... */
	bool dmesg_timestamps; /* "[   12.345678]" lines present, or dmesg
				* -H/-T stamps (problem_dmesg_stamp()) */
	char *distro_kernel;   /* "6.1.0-42-amd64", "6.8.9-300.fc40" ... */

	/* what the reporter did */
	unsigned reproducer; /* REPRO_* */
	char *bisect_commit; /* "first bad commit" sha, or NULL */
	char **reported_by;  /* Reported-by: values */
	size_t nreported_by;
	char **tested_by;
	size_t ntested_by;
	char *subject_prefix; /* "xfs", "mm/slub" (from "[BUG] mm/slub:") */
	/* the subject's prefix chain, and that of the commit the text
	 * blames (prefixes.h): "wifi: mac80211", or NULL */
	char *subject_chain;
	char *culprit_chain;
	char *syz_fs;	   /* "fs/ntfs3": what a syzkaller reproducer mounts */
	char *merged_tree; /* "kbuild": a linux-next report's tree */
	/*
	 * where it was sent: the bare addresses of To: and Cc:, lower
	 * case, in order, without the sender's (at most EVIDENCE_LIST_MAX);
	 * the first nrecipients_to of them were in To:
	 */
	char **recipients;
	size_t nrecipients, nrecipients_to;
	bool syzbot; /* a syzbot report or reply */
	/* the file defining the function syzbot's title ends with ("...
	 * in nf_tables_dumpreset_rules"), by the symbol index: syzbot's
	 * own guilty frame, its generic frames skipped; or NULL */
	char *title_file;
	/*
	 * the kernel log formats its lines match (printk.h), when the
	 * index was given (evidence_extract_logs()): the lines with their
	 * console stamp, journal prefix and quote markers removed, at
	 * least PRINTK_CONST_MIN constant characters matched on console
	 * output, EVIDENCE_LOG_PROSE_MIN elsewhere; most telling first
	 */
	struct log_match *log_matches;
	size_t nlog_matches;
	/* a Bugzilla bug's product and component ("Drivers", "USB"), from
	 * X-Bugzilla-Product/-Component or a "[Bug N]" mail's lines */
	char *bz_product;
	char *bz_component;
};

/* evidence_subject_prefix - the subsystem prefix of a subject, or NULL */
char *evidence_subject_prefix(const char *subject);

/* lifecycle */
struct evidence *evidence_extract(const struct report *r);
/* evidence_extract_logs - the same, with the log formats of pk (NULL:
 * none) matched against every line */
struct evidence *evidence_extract_logs(const struct report *r,
				       const struct printk_index *pk);
struct evidence *evidence_extract_text(const char *text, size_t len);
void evidence_free(struct evidence *ev);

/*
 * evidence_finish - recompute files[] and the guilty file (see
 * crash_guilty) after frames gained files (symbols_resolve())
 */
void evidence_finish(struct evidence *ev);

/*
 * evidence_guilty_file - syzkaller's guilty-file choice over a crash log
 * (exported for tests); returns a new string or NULL
 */
char *evidence_guilty_file(const char *log, size_t len);

#endif
