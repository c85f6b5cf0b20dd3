/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * crashlog - kernel crash reports in console logs, the syzkaller way
 *
 * DESCRIPTION
 *	Part of the evidence stage (evidence.c is its only user besides
 *	the tests, and problem.c of crashlog_journal_prefix()).  crashlog_parse() finds the first kernel crash report
 *	in a console log or a mail body and returns what syzkaller's Linux
 *	reporter would make of it: the crash title ("KASAN: use-after-free
 *	Read in foo"), the report text extracted from the log, the stack
 *	frames and the guilty source file.
 *
 *	Input lines are normalised first: mail quote markers ("> ", ">>"),
 *	indentation before a console timestamp, journald/syslog prefixes
 *	("Oct  1 12:00:00 host kernel: ") and "dmesg -T" stamps are
 *	removed, so a log pasted into a reply parses like the console.
 *	Then, as in syzkaller's pkg/report: the first line holding a known
 *	crash header starts the report; lines of the same printk context
 *	("[ T123]", "[ C1]") follow it; a table of title formats, tried in
 *	order, picks the title and the frame that names it, skipping
 *	generic frames (sanitizer runtime, locking, allocation, string and
 *	list helpers, ...).  The guilty file is the first "path.c:123" in
 *	the report that no ignore rule rejects, refined to a deeper file
 *	under the same directory further down, with the RCU-stall and
 *	last-resort rules of syzkaller.
 *
 *	Where mail differs from a console, the parser goes further than
 *	syzkaller: a WARNING line a mail client wrapped after "at" is
 *	joined again with its "file:line" and "func+0x.." pieces; repeats
 *	of the crash header that a symbolised log adds for inlined
 *	functions do not end the report; frames decoded by
 *	scripts/decode_stacktrace.sh ("func (fs/x.c:12)") count as frames;
 *	C++ and Rust (v0) symbol names are demangled; the crash(8)
 *	utility's "bt" of a kdump ("PID: .. TASK: .. CPU: .. COMMAND: ",
 *	"#7 [addr] func at addr [mod]", "[exception RIP: func+111]") is a
 *	crash titled "crash dump in <func>", its kexec/panic/die frames
 *	taken as "? " ones; U+00A0 (a mail client's no-break spaces in a
 *	pasted log) reads as two spaces.  Over syzkaller's own test data
 *	these extensions change no title and no guilty file.
 *
 *	Bounds: at most CRASHLOG_TEXT_MAX bytes of input are looked at,
 *	lines are cut at 4 KB (printk's are at most 1 KB), a report ends
 *	at the latest 5000 lines after its header line,
 *	every regular expression runs with pcre2 match and depth limits,
 *	and at most CRASHLOG_FRAMES_MAX frames are kept.
 *
 * Ownership:
 *	crashlog_parse() returns a struct crashlog that owns its strings
 *	and frames; crashlog_free() releases it.  crashlog_take_frames()
 *	hands the frames over to the caller.
 *
 * Errors:
 *	None are reported: text that holds no crash gives NULL.  A broken
 *	built-in regular expression is a programming error and dies.
 */
#ifndef TRIAGE_CRASHLOG_H
#define TRIAGE_CRASHLOG_H

#include <stdbool.h>
#include <stddef.h>

#include "evidence.h"

#define CRASHLOG_TEXT_MAX   (1u << 20)
#define CRASHLOG_FRAMES_MAX 256

struct crashlog {
	char *title;	 /* sanitised, syzkaller's style */
	char *type;	 /* "KASAN", "WARNING", ... (evidence.h crash_type) */
	bool corrupted;	 /* the title format matched only partly */
	bool fallback;	 /* no title format matched: title = header line */
	bool line_start; /* the header starts its line (or follows dev_prefix) */
	bool dev_prefix;   /* the header follows a "usb 1-1: " device prefix */
	bool stamped;	   /* the header line has a console time stamp */
	char *text;	   /* extracted report: prefix lines, then the report */
	size_t len;	   /* bytes in text */
	size_t prefix_len; /* bytes of prefix lines at the start of text */
	char *guilty_file; /* or NULL */
	struct frame *frames;
	size_t nframes;
	size_t resume; /* offset in the log just after the crash header line */
};

/* crashlog_parse - the first crash report in a log; NULL when none */
struct crashlog *crashlog_parse(const char *log, size_t len);
void crashlog_free(struct crashlog *c);

/*
 * A scan splits and normalises a log once; crashlog_scan_next() returns
 * the first crash report, then the next one starting after the header
 * line of the previous, and so on (NULL at the end).  The log must stay
 * valid until crashlog_scan_free().
 */
struct crashlog_scan;
struct crashlog_scan *crashlog_scan_new(const char *log, size_t len);
struct crashlog *crashlog_scan_next(struct crashlog_scan *sc);
void crashlog_scan_free(struct crashlog_scan *sc);

/*
 * crashlog_guilty - syzkaller's guilty-file choice over report text
 * (title selects the RCU-stall rule; may be ""); a new string or NULL
 */
char *crashlog_guilty(const char *title, const char *report, size_t len);

/*
 * crashlog_use_jit - JIT-compile the built-in patterns (default off:
 * worth it only in a resident process such as 'triage serve')
 */
void crashlog_use_jit(bool on);

/*
 * crashlog_save_patterns - compile every built-in pattern into path
 * ('triage update': STATE_DIR/crashlog.rx); crashlog_load_patterns()
 * makes a process decode them instead of compiling (a missing or stale
 * file only means compiling again); it returns how many it loaded
 */
int crashlog_save_patterns(const char *path);
size_t crashlog_load_patterns(const char *path);

/* crashlog_guilty_ignored - path is one the guilty-file rules skip */
bool crashlog_guilty_ignored(const char *path);

/*
 * crashlog_core_path - core code a driver's or a filesystem's work passes
 * through (the device model, IRQ, DMA and IOMMU glue, timers, netlink,
 * the LSM hooks, ...) that syzkaller's rules may still pick: a
 * maintainer reading the trace looks past it to the caller
 */
bool crashlog_core_path(const char *path);

/*
 * crashlog_guilty_pick - the guilty-file rules over an ordered list of
 * candidate paths (first accepted, deeper refinement, first as last
 * resort); returns an index into paths, or -1 when n == 0
 */
long crashlog_guilty_pick(const char *const *paths, size_t n);

/* crashlog_skip_function - a generic frame that never names a crash */
bool crashlog_skip_function(const char *name);

/* crashlog_parse_frame - parse one stack-trace line; false if not one */
bool crashlog_parse_frame(const char *line, size_t len, struct frame *f);

/* crashlog_crash_type - the crash_type word for a title */
const char *crashlog_crash_type(const char *title);

/*
 * crashlog_journal_prefix - the length of the prefix the journal or
 * syslog puts before a kernel line, 0 when s[0..len) has none: "kernel: "
 * alone ("journalctl -o cat", pastes of "journalctl -k"), or a date, its
 * time and then "kernel: " or "[kernel] " within the first 80 bytes,
 * whatever stands between (a host, fractions of a second, a zone):
 *	"Dec  5 09:12:01 host kernel: "
 *	"Dec 05 09:12:01.123456 host kernel: "	(journalctl -o short-precise)
 *	"2024-12-05T09:12:01+01:00 host kernel: "
 *	"2024-12-05 09:12:01 kernel: "
 * or a host's name alone before "kernel: ", its date cut off ("qay
 * kernel: "; a host in lower case, not a word that says whose kernel:
 * "the kernel: 6.12", "host kernel: 6.1").
 * The one reading of that line shape for crashlog, evidence.c (console
 * lines, device lines) and problem.c (a report's log lines).  A dated
 * prefix is longer than "kernel: " alone; prose that names a time
 * without seconds ("Feb 5 at 14:56 the kernel: it hung") has none.
 */
size_t crashlog_journal_prefix(const char *s, size_t len);

#endif
