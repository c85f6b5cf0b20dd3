// SPDX-License-Identifier: GPL-2.0-only
/*
 * claims - check what a report claims about the kernel source
 *
 * DESCRIPTION
 *	An AI-written report cites functions, files, call traces and
 *	configuration options that read well and do not exist; a report of
 *	a crash someone hit quotes a log the kernel printed.  The style of
 *	the prose is a weak signal (and flags non-native writers); the
 *	claims can be checked.  Each check below is one piece of evidence,
 *	checked against the symbol index 'triage update --kernel-tree'
 *	built (symbols.h; the tree it indexed is the version checked):
 *
 *	- frame sizes: "func+0xOFF/0xSIZE" - one function has one size
 *	  within a report (one kernel image), and OFF < SIZE.  One check
 *	  per function that has a size; it needs no index;
 *	- function in its file: a frame that names its file ("... fs/x.c:12"
 *	  of decode_stacktrace.sh, not a file the index gave it), and prose
 *	  "name() in|at|from fs/x.c" / "name() (fs/x.c": the index must
 *	  define name in that file (a path suffix: "/build/fs/x.c" and
 *	  "x.c" match fs/x.c).  Functions the index does not know are not
 *	  counted here: unknown_functions() counts them;
 *	- names: every distinct "name()" in kernel style must exist
 *	  (CLAIM_EXISTS; the rules weigh these with unknown_functions(), so
 *	  claims_weigh() leaves them out);
 *	- Kconfig options: every distinct CONFIG_FOO of the text must be
 *	  declared by a Kconfig file ("kconfig:FOO" in the index; FOO_MODULE
 *	  is FOO's autoconf.h spelling);
 *	- lines (CLAIM_LINE): a frame "func ... fs/x.c:LINE" (not "? ")
 *	  of a function the index defines in that file must have LINE
 *	  within the body's lines there, give or take CLAIMS_LINE_SLACK
 *	  lines or CLAIMS_LINE_SHARE percent of LINE, whichever is more:
 *	  the tree indexed is not the reporter's version, and lines move
 *	  more the further down a file.  Measured against 6.12 on real
 *	  crash reports (../shared/corpus: user, fuzzer, syzkaller's
 *	  report/), 665 of 1100 frame lines fall outside their body, half
 *	  of them by more than 5% of LINE, a tenth by more than 30%; 200
 *	  lines or 30% leaves 4.9% of them outside (1 of 21 lines of the
 *	  user reports, 2.6% of the fuzzer's, 19% of syzkaller's older
 *	  ones);
 *	- calls (CLAIM_CALLS): for two frames in a row (the kernel prints
 *	  a callee above its caller), the caller's body must call the
 *	  callee, directly or through at most CLAIMS_CALL_DEPTH functions
 *	  that left no frame (inlined, tail calls; macros are free).  Not
 *	  checked: "? " frames, entry, interrupt and syscall stubs and
 *	  SYSCALL_DEFINE's wrappers, callers where an interrupt may come
 *	  in (*irq_restore, *unlock_irq ...), compiler-inserted calls
 *	  (sanitizers) and tracepoint probes, a function calling itself,
 *	  unknown names, and a caller (or a function on the way) that
 *	  calls through a pointer or calls a name the index lacks: that
 *	  is -1 from symbols_calls().  On the same real reports 55 of 3724
 *	  pairs checked fail (0 of 11 user, 2 of 501 fuzzer, 53 of 3212 in
 *	  syzkaller's, mostly 4.x kernels whose chains 6.12 changed, and
 *	  callbacks passed as arguments: NF_HOOK(..., ip6_input_finish)
 *	  names no call).
 *	  "[inline]" frames are checked as called by the frame below;
 *	- quoted source (CLAIM_QUOTE, claims_quote.c): code a report quotes
 *	  from a file or a function of the tree is in that file;
 *	- sysctl names, module parameters and ioctls (CLAIM_SYSCTL,
 *	  CLAIM_PARAM, CLAIM_IOCTL, claims_facts.c) the report cites exist;
 *	- commit ids (CLAIM_COMMIT, claims_commits.c) a report cites are in
 *	  the history 'triage experts import' read, with their subjects;
 *	- the site of a "WARNING: ... at fs/x.c:LINE func+0x" or "kernel
 *	  BUG at fs/x.c:LINE!" line (CLAIM_SITE, claims_site.c) is in that
 *	  function or one it calls, for a report of the tree's release;
 *	- a "fs/x.c:LINE" of the prose (CLAIM_CITED, claims_cited.c) lies
 *	  in a function its sentence names, on the same condition.
 *
 *	What the tree is too old to know is not checked but counted
 *	(newer): a name whose driver prefix has no function in the tree,
 *	any unknown name of a newer kernel's report that cites a file the
 *	tree lacks, and the sysctls, parameters and ioctls a newer
 *	kernel's report cites.  A newer kernel's trace is not checked for
 *	calls, and a development tree's report (claims_dev_tree():
 *	linux-next, net-next ...) for none of its names, calls, lines,
 *	files or CONFIG_ options: its code is newer than any release.
 *
 *	A real reporter makes typos, quotes a vendor kernel, or pastes a
 *	.config of another version: one failed check proves nothing.  The
 *	hook false_claims(MIN_CHECKS, MIN_FAILED, MIN_RATIO) therefore
 *	gives the number of failed checks only when at least MIN_CHECKS
 *	checks could be made, at least MIN_FAILED failed, and the failed
 *	share is at least MIN_RATIO; else 0.  The lines and calls of a
 *	trace, which version drift fails more often, are weighed apart by
 *	false_trace(MIN_CHECKS, MIN_FAILED, MIN_RATIO).  Without an index
 *	only the frame sizes are checked.
 *
 *	Bounds: at most CLAIMS_MAX_LOOKUPS index lookups,
 *	CLAIMS_MAX_NAMES distinct names and CLAIMS_CALL_BUDGET call lists
 *	read per report.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "claims.h"
#include "claims_int.h"
#include "evidence.h"
#include "experts_history.h"
#include "symbols.h"
#include "util.h"

#define CLAIMS_MAX_LOOKUPS  64
#define CLAIMS_MAX_NAMES    48
#define CLAIMS_FILES	    16 /* files of one function compared */
#define CLAIMS_NAME_MAX	    80
#define CLAIMS_PATH_MAX	    160
#define CLAIMS_KCONFIG_DUMP 12
#define CLAIMS_LINE_SLACK   200 /* lines, or CLAIMS_LINE_SHARE of LINE if more */
#define CLAIMS_LINE_SHARE   30	/* percent */
#define CLAIMS_CALL_DEPTH   2	/* functions a call may go through unseen */
#define CLAIMS_CALL_BUDGET  512 /* call lists read per report */

static const char *const userspace_prefixes[] = {
	"pthread_", "posix_",	"syz_",	  "sem_",	"shm_",
	"mq_",	    "timer_",	"clock_", "__builtin_", "__x64_",
	"__ia32_",  "__arm64_", "__se_",  "__do_sys_",
};

/* claims_kernel_style - a name in kernel style (claims.h) */
bool claims_kernel_style(const char *name, size_t n)
{
	size_t i;

	if (n < 4 || !memchr(name, '_', n))
		return false;
	for (i = 0; i < ARRAY_SIZE(userspace_prefixes); i++) {
		size_t k = strlen(userspace_prefixes[i]);

		if (n >= k && strncmp(name, userspace_prefixes[i], k) == 0)
			return false;
	}
	return true;
}

struct seen {
	char name[CLAIMS_MAX_NAMES][CLAIMS_NAME_MAX + 1];
	size_t n;
};

/* seen_add - false when name was seen already or the table is full */
static bool seen_add(struct seen *s, const char *name, size_t n)
{
	size_t i;

	if (n > CLAIMS_NAME_MAX || s->n == CLAIMS_MAX_NAMES)
		return false;
	for (i = 0; i < s->n; i++)
		if (strlen(s->name[i]) == n && !memcmp(s->name[i], name, n))
			return false;
	memcpy(s->name[s->n], name, n);
	s->name[s->n][n] = '\0';
	s->n++;
	return true;
}

/*
 * family_len - the length of name's family prefix with its "_" from
 * *b, past leading "_"s (two words when the first is shorter than 3),
 * 0: none
 */
static size_t family_len(const char *name, size_t n, size_t *b)
{
	size_t e;

	for (*b = 0; *b < n && name[*b] == '_'; (*b)++)
		;
	for (e = *b; e < n && name[e] != '_'; e++)
		;
	if (e < n && e - *b < 3)
		for (e++; e < n && name[e] != '_'; e++)
			;
	return e < n ? e + 1 - *b : 0;
}

int claims_name_status(const struct symbols *s, const char *name, size_t n,
		       bool older)
{
	char buf[CLAIMS_NAME_MAX + 2];
	const char *files[1];
	size_t f, b;

	if (n > CLAIMS_NAME_MAX)
		return -1;
	memcpy(buf + 1, name, n);
	buf[n + 1] = '\0';
	if (symbols_lookup(s, buf + 1, files, 1))
		return 1;
	buf[0] = '_';
	if ((n > 1 && name[0] == '_' && symbols_lookup(s, buf + 2, files, 1)) ||
	    symbols_lookup(s, buf, files, 1))
		return -1; /* one "_" away: a typo */
	if (older)
		return -2;
	f = family_len(name, n, &b);
	return f && !symbols_has_prefix(s, name + b, f) ? -2 : 0;
}

/* version_of - SYMBOLS_VERSION(a, b, 0) of "6.13.0-rc1 ...", 0 if none */
static unsigned version_of(const char *v)
{
	unsigned long a, b;
	char *e;

	if (!v || !isdigit((unsigned char)*v))
		return 0;
	a = strtoul(v, &e, 10);
	if (*e != '.' || !isdigit((unsigned char)e[1]))
		return 0;
	b = strtoul(e + 1, &e, 10);
	return a && a < 256 && b < 256 ? SYMBOLS_VERSION(a, b, 0) : 0;
}

/*
 * next_version - a version string of linux-next ("6.12.0-rc3-next-20241010",
 * "next-20241105"): code merged after its release number's
 */
static bool next_version(const char *v)
{
	const char *p;

	for (p = v; p && (p = strstr(p, "next-")); p += 5)
		if ((p == v || p[-1] == '-') && isdigit((unsigned char)p[5]) &&
		    strspn(p + 5, "0123456789") == 8)
			return true;
	return false;
}

/* newer_kernel - is the report's kernel newer than the tree (a.b)? */
static bool newer_kernel(const struct evidence *ev, const struct symbols *s)
{
	unsigned tree = s ? symbols_tree_version(s) : 0;
	unsigned rep = ev ? version_of(ev->kernel_version) : 0;

	if (tree && ev && (next_version(ev->kernel_version) || ev->merged_tree))
		return true;
	return tree && rep && rep > (tree & ~0xffu);
}

/* words of a development tree's name: "on net-next", "next-20250110" */
static const char *const dev_tree_words[] = {
	"linux-next",	 "net-next", "bpf-next", "for-next",   "mm-unstable",
	"mm-everything", "mm-new",   "drm-tip",	 "tip/master",
};

bool claims_dev_tree(const struct evidence *ev, const struct symbols *s,
		     const char *text, size_t len)
{
	const char *end = text + len, *p;
	size_t i;

	if (!s)
		return false;
	if (ev && (next_version(ev->kernel_version) || ev->merged_tree))
		return true;
	if (!text)
		return false;
	for (i = 0; i < ARRAY_SIZE(dev_tree_words); i++)
		if (memmem(text, len, dev_tree_words[i],
			   strlen(dev_tree_words[i])))
			return true;
	for (p = text; (p = memmem(p, (size_t)(end - p), "next-20", 7));
	     p += 7) {
		const char *d = p + 5;

		while (d < end && d - p < 13 && isdigit((unsigned char)*d))
			d++;
		if ((p == text || !isalnum((unsigned char)p[-1])) &&
		    d - p == 13)
			return true;
	}
	return false;
}

bool claims_tree_older(const struct evidence *ev, const struct symbols *s)
{
	size_t i;

	if (!newer_kernel(ev, s))
		return false;
	for (i = 0; i < ev->ntext_files; i++) {
		const char *f = ev->text_files[i];
		size_t n = strlen(f);
		int fd;

		if (n < 3 || f[n - 2] != '.' ||
		    (f[n - 1] != 'c' && f[n - 1] != 'h'))
			continue;
		fd = symbols_tree_open(s, f);
		if (fd >= 0)
			close(fd);
		else if (errno == ENOENT)
			return true;
	}
	return false;
}

/*
 * release_ordinal - the place of release a.b in the order of mainline
 * releases since 3.0 (3.0 is 1; 3.19, 4.20 and 5.19 closed their
 * majors; a major after 6 is taken to have 20 releases), 0 before 3.0
 */
static unsigned release_ordinal(unsigned a, unsigned b)
{
	if (a < 3)
		return 0;
	if (a == 3)
		return 1 + b;
	if (a == 4)
		return 21 + b;
	if (a == 5)
		return 42 + b;
	return 62 + 20 * (a - 6) + b;
}

/* DRIFT_* - see claims_version_drift() */
#define DRIFT_RELEASES	  3
#define DRIFT_EPOCH	  1311292800L /* 3.0: 2011-07-22 */
#define DRIFT_CADENCE	  5762880L    /* 66.7 days a release */
#define DRIFT_DATE_MARGIN 31536000L   /* a year */

bool claims_version_drift(const struct evidence *ev, const struct symbols *s,
			  time_t when)
{
	unsigned tree = s ? symbols_tree_version(s) : 0;
	unsigned rep = ev ? version_of(ev->kernel_version) : 0;
	unsigned to, ro;
	long released;

	if (!tree)
		return false;
	if (ev && (next_version(ev->kernel_version) || ev->merged_tree))
		return true;
	to = release_ordinal(tree >> 16, (tree >> 8) & 0xffu);
	if (rep) {
		ro = release_ordinal(rep >> 16, (rep >> 8) & 0xffu);
		return rep > (tree & ~0xffu) || ro + DRIFT_RELEASES <= to;
	}
	if (when <= 0 || to == 0)
		return false;
	released = DRIFT_EPOCH + (long)(to - 1) * DRIFT_CADENCE;
	return (long)when < released - DRIFT_DATE_MARGIN;
}

/*
 * defined_here - does text define name[0..n) itself: "name(...)" with
 * no ";" inside, then "{" (its own program's function, a PoC helper)
 */
static bool defined_here(const char *text, size_t len, const char *name,
			 size_t n)
{
	const char *end = text + len, *p = text;

	while ((size_t)(end - p) > n &&
	       (p = memmem(p, (size_t)(end - p), name, n)) != NULL) {
		const char *q = p + n;
		int depth = 0;

		p += n;
		/* no left boundary: a paste that lost its spaces reads
		 * "staticintnl_open(void)" */
		if (q >= end || *q != '(')
			continue;
		for (; q < end && q - p < 256; q++) {
			if (*q == '(')
				depth++;
			else if (*q == ')' && --depth == 0)
				break;
			else if (*q == ';' || *q == '{' || *q == '}')
				break;
		}
		if (q >= end || *q != ')' || depth)
			continue;
		for (q++; q < end && isspace((unsigned char)*q); q++)
			;
		if (q < end && *q == '{')
			return true;
	}
	return false;
}

#define NEAR_MIN   8 /* claims_near_miss(): shorter names are too close */
#define NEAR_EDITS 2

bool claims_near_miss(const char *a, size_t an, const char *b, size_t bn)
{
	unsigned row[CLAIMS_NAME_MAX + 1], diag, up, best;
	size_t i, j;

	if (an < NEAR_MIN || bn < NEAR_MIN || an > CLAIMS_NAME_MAX ||
	    bn > CLAIMS_NAME_MAX || (an > bn ? an - bn : bn - an) > NEAR_EDITS)
		return false;
	for (j = 0; j <= bn; j++)
		row[j] = (unsigned)j;
	for (i = 1; i <= an; i++) {
		diag = row[0];
		row[0] = (unsigned)i;
		best = row[0];
		for (j = 1; j <= bn; j++) {
			up = row[j];
			row[j] = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < row[j])
				row[j] = up + 1;
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			diag = up;
			if (row[j] < best)
				best = row[j];
		}
		if (best > NEAR_EDITS)
			return false;
	}
	return row[bn] <= NEAR_EDITS;
}

bool claims_name_cited(const char *text, size_t len, const char *b, size_t n)
{
	size_t i;
	bool lower = false;

	if (b > text && b[-1] == '.')
		return false;
	if (b > text + 1 && b[-1] == '>' && b[-2] == '-')
		return false;
	for (i = 0; i < n && !lower; i++)
		lower = islower((unsigned char)b[i]);
	return lower && !defined_here(text, len, b, n);
}

void claims_count(struct claims *c, enum claims_kind kind, bool ok,
		  const char *fmt, ...)
{
	va_list ap;

	c->checks++;
	c->checks_kind[kind]++;
	if (ok)
		return;
	c->failed++;
	c->failed_kind[kind]++;
	if (c->first[0])
		return;
	va_start(ap, fmt);
	vsnprintf(c->first, sizeof(c->first), fmt, ap);
	va_end(ap);
}

static void count_failed(struct claims *c, enum claims_kind kind)
{
	c->failed++;
	c->failed_kind[kind]++;
}

/* FAIL - count a failed check; the first one is kept for explanations */
#define FAIL(c, kind, ...)                                                     \
	do {                                                                   \
		if (!(c)->first[0])                                            \
			snprintf((c)->first, sizeof((c)->first), __VA_ARGS__); \
		count_failed(c, kind);                                         \
	} while (0)

static void check(struct claims *c, enum claims_kind kind)
{
	c->checks++;
	c->checks_kind[kind]++;
}

/* path_matches - does the claimed path name the indexed one? */
static bool path_matches(const char *claimed, size_t cn, const char *indexed)
{
	size_t in = strlen(indexed);

	if (cn == in)
		return !memcmp(claimed, indexed, cn);
	if (cn > in)
		return claimed[cn - in - 1] == '/' &&
		       !memcmp(claimed + cn - in, indexed, in);
	return indexed[in - cn - 1] == '/' &&
	       !memcmp(indexed + in - cn, claimed, cn);
}

/*
 * in_file - one "function in file" check: 1 passed, 0 failed, -1 not
 * checkable (unknown function, no lookups left)
 */
static int in_file(struct claims *c, const struct symbols *s,
		   const char *function, const char *file, size_t flen)
{
	const char *files[CLAIMS_FILES];
	size_t n, i;

	if (c->lookups >= CLAIMS_MAX_LOOKUPS)
		return -1;
	c->lookups++;
	n = symbols_lookup(s, function, files, CLAIMS_FILES);
	if (!n)
		return -1;
	if (n > CLAIMS_FILES)
		n = CLAIMS_FILES;
	for (i = 0; i < n; i++)
		if (files[i] && path_matches(file, flen, files[i]))
			return 1;
	/* defined in more files than compared: give it the benefit */
	return symbols_lookup(s, function, files, 0) > CLAIMS_FILES ? -1 : 0;
}

/* full_len - the frame's function with its suffixes (".part.0"), to "+" */
static size_t full_len(const char *function)
{
	size_t n = strcspn(function, "+ ");

	return n <= CLAIMS_NAME_MAX ? n : 0;
}

/*
 * file_checkable - a .c file of the tree as the report names it: not a
 * header (decode_stacktrace.sh gives an inlined callee's file:line to
 * its caller's frame), not a generated file
 */
static bool file_checkable(const char *file)
{
	size_t n = strlen(file);

	return n > 2 && file[n - 2] == '.' && file[n - 1] == 'c' &&
	       !strstr(file, "/generated/");
}

bool claims_name_char(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_';
}

static bool name_char(char ch)
{
	return claims_name_char(ch);
}

/*
 * has_variant - does text name "name.suffix" (iput.part.0 next to
 * iput)?  The frames hold the name without its compiler suffix, and
 * the two are different symbols with different sizes
 */
static bool has_variant(const char *text, size_t len, const char *name,
			size_t n)
{
	const char *end = text + len, *p = text;

	while (text && p < end && (p = memmem(p, (size_t)(end - p), name, n))) {
		if (p + n < end && p[n] == '.' &&
		    (p == text || !name_char(p[-1])))
			return true;
		p += n;
	}
	return false;
}

/*
 * in_span - one "LINE is in function's body in file" check: 1 passed,
 * 0 failed (*span is the nearest definition in that file), -1 not
 * checkable (unknown function, not defined in that file, no lookups left)
 */
static int in_span(struct claims *c, const struct symbols *s,
		   const char *function, const char *file, unsigned line,
		   struct symbols_span *span)
{
	struct symbols_span spans[CLAIMS_FILES];
	size_t n, i;
	int r = -1;
	/* lines move between versions, more the further down a file */
	unsigned slack = line / 100 * CLAIMS_LINE_SHARE > CLAIMS_LINE_SLACK
				 ? line / 100 * CLAIMS_LINE_SHARE
				 : CLAIMS_LINE_SLACK;

	if (c->lookups >= CLAIMS_MAX_LOOKUPS)
		return -1;
	c->lookups++;
	n = symbols_spans(s, function, spans, CLAIMS_FILES);
	if (!n || n > CLAIMS_FILES)
		return -1;
	for (i = 0; i < n && r != 1; i++) {
		if (!path_matches(file, strlen(file), spans[i].file))
			continue;
		if (line + slack >= spans[i].first &&
		    line <= spans[i].last + slack) {
			r = 1;
		} else if (r < 0) {
			*span = spans[i];
			r = 0;
		}
	}
	return r;
}

static bool name_prefix(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);

	return n >= k && !memcmp(s, prefix, k);
}

static bool name_suffix(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n >= k && !memcmp(s + n - k, suffix, k);
}

/*
 * entry_stub - a frame whose caller the tree does not show as a call:
 * entry code, interrupt and exception entries, syscall stubs
 */
static bool entry_stub(const char *f, size_t n)
{
	static const char *const prefixes[] = {
		"entry_",
		"asm_",
		"ret_from_fork",
		"do_syscall_",
		"__x64_sys_",
		"__ia32_sys_",
		"__arm64_sys_",
		"x64_sys_call",
		"__do_fast_syscall",
		"do_fast_syscall",
		"do_int80",
		"sysvec_",
		"exc_",
		"common_interrupt",
		"irq_exit",
		"__irq_exit",
		"handle_softirqs",
		"__do_softirq",
		"do_softirq",
		"el0",
		"el1",
		"invoke_syscall",
		"__sysvec_",
		"run_ksoftirqd",
		"kthread",
		"start_kernel",
		"secondary_startup",
		/* SYSCALL_DEFINE's wrappers: one body for all its names */
		"__se_sys_",
		"__se_compat_sys_",
		"__do_sys_",
		"__do_compat_sys_",
	};
	/* where an interrupt or the scheduler may come in unseen */
	static const char *const inside[] = {
		"irq_restore", "irqrestore",	 "irq_enable",
		"unlock_irq",  "preempt_enable", "local_bh_enable",
	};
	char name[CLAIMS_NAME_MAX + 1];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (name_prefix(f, n, prefixes[i]))
			return true;
	if (n > CLAIMS_NAME_MAX)
		return true;
	memcpy(name, f, n);
	name[n] = '\0';
	for (i = 0; i < ARRAY_SIZE(inside); i++)
		if (strstr(name, inside[i]))
			return true;
	return name_suffix(f, n, "_interrupt") || name_suffix(f, n, "_irq") ||
	       name_suffix(f, n, "_handler") || name_suffix(f, n, "_thunk");
}

/*
 * compiler-inserted calls (sanitizers, coverage, tracing, thunks), and
 * what tracepoints call through their pointers
 */
static bool inserted(const char *f, size_t n)
{
	static const char *const prefixes[] = {
		"__sanitizer_", "__asan_",
		"__tsan_",	"__msan_",
		"__ubsan_",	"__kcsan_",
		"__kasan_",	"kasan_",
		"__kmsan_",	"kmsan_",
		"__fentry__",	"mcount",
		"__x86_",	"__stack_chk",
		"perf_trace_",	"trace_event_raw_event_",
		"__traceiter_", "__bpf_trace_",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (name_prefix(f, n, prefixes[i]))
			return true;
	return false;
}

static bool call_checkable(const struct frame *f, size_t *n)
{
	*n = f->function ? symbols_name_len(f->function) : 0;
	return *n >= 3 && !f->unreliable && f->function[*n] != '/' &&
	       *n <= CLAIMS_NAME_MAX && !entry_stub(f->function, *n) &&
	       !inserted(f->function, *n);
}

/*
 * check_calls - each frame's caller (the frame below it, as the kernel
 * prints a trace) calls it in the tree, directly or through functions
 * that leave no frame (inlined, tail calls)
 */
static void check_calls(struct claims *c, const struct evidence *ev,
			const struct symbols *s)
{
	char callee[CLAIMS_NAME_MAX + 1], caller[CLAIMS_NAME_MAX + 1];
	unsigned budget = CLAIMS_CALL_BUDGET;
	size_t i, n, m;

	for (i = 0; i + 1 < ev->nframes && budget; i++) {
		const struct frame *e = &ev->frames[i], *r = &ev->frames[i + 1];
		int res;

		if (!call_checkable(e, &n) || !call_checkable(r, &m) ||
		    (n == m && !memcmp(e->function, r->function, n)))
			continue;
		memcpy(callee, e->function, n);
		callee[n] = '\0';
		memcpy(caller, r->function, m);
		caller[m] = '\0';
		res = symbols_calls(s, caller,
				    r->file && !r->from_index ? r->file : NULL,
				    callee, CLAIMS_CALL_DEPTH, &budget);
		if (res < 0)
			continue;
		check(c, CLAIM_CALLS);
		if (!res)
			FAIL(c, CLAIM_CALLS,
			     "frame %s: %s does not call it in the tree indexed",
			     callee, caller);
	}
}

static void check_frames(struct claims *c, const char *text, size_t len,
			 const struct evidence *ev, const struct symbols *s)
{
	struct seen sized = { .n = 0 }, filed = { .n = 0 }, lined = { .n = 0 };
	size_t i, j;

	if (!ev)
		return;
	for (i = 0; i < ev->nframes; i++) {
		const struct frame *f = &ev->frames[i];
		size_t n = f->function ? symbols_name_len(f->function) : 0;
		size_t full = n ? full_len(f->function) : 0;
		int r;

		if (n < 3 || !full || f->function[n] == '/')
			continue;
		if (f->size && seen_add(&sized, f->function, full)) {
			/* +0x10/0x10: a call that is a function's last insn */
			bool bad = f->offset > f->size;

			check(c, CLAIM_SIZE);
			for (j = i + 1; j < ev->nframes && !bad; j++) {
				const struct frame *g = &ev->frames[j];

				bad = g->function && g->size &&
				      g->size != f->size &&
				      full_len(g->function) == full &&
				      !memcmp(g->function, f->function, full) &&
				      !g->module == !f->module &&
				      !has_variant(text, len, f->function,
						   full);
			}
			if (bad)
				FAIL(c, CLAIM_SIZE,
				     "%.*s: offset past its size, or two sizes in one report",
				     (int)full, f->function);
		}
		if (s && f->file && !f->from_index && f->line > 0 &&
		    !f->unreliable && seen_add(&lined, f->function, n)) {
			struct symbols_span sp = { NULL, 0, 0 };
			char name[CLAIMS_NAME_MAX + 1];

			memcpy(name, f->function, n);
			name[n] = '\0';
			r = in_span(c, s, name, f->file, (unsigned)f->line,
				    &sp);
			if (r >= 0)
				check(c, CLAIM_LINE);
			if (!r)
				FAIL(c, CLAIM_LINE,
				     "frame %s: %.80s:%d is not in it (lines %u-%u of the tree indexed)",
				     name, f->file, f->line, sp.first, sp.last);
		}
		if (!s || !f->file || f->from_index ||
		    !file_checkable(f->file) ||
		    !seen_add(&filed, f->function, n))
			continue;
		r = in_file(c, s, f->function, f->file, strlen(f->file));
		if (r < 0)
			continue;
		check(c, CLAIM_FILE);
		if (!r)
			FAIL(c, CLAIM_FILE, "%.*s is not defined in %.80s",
			     (int)n, f->function, f->file);
	}
}

static bool path_char(char ch)
{
	return name_char(ch) || ch == '/' || ch == '.' || ch == '-' ||
	       ch == '+';
}

/* prose_path - a "dir/file.c" or "file.h" token at p, its length or 0 */
static size_t prose_path(const char *p, const char *end)
{
	const char *e = p;

	while (e < end && path_char(*e) && e - p < CLAIMS_PATH_MAX)
		e++;
	while (e > p && (e[-1] == '.' || e[-1] == '-'))
		e--; /* "... in fs/x.c." */
	if (e - p < 3 || e[-2] != '.' || (e[-1] != 'c' && e[-1] != 'h'))
		return 0;
	return (size_t)(e - p);
}

/*
 * check_prose - every distinct "name()" in kernel style exists; "name()
 * in fs/x.c" and "name() (fs/x.c" name its file
 */
static void check_prose(struct claims *c, const char *text, size_t len,
			const struct symbols *s, bool older)
{
	static const char *const links[] = { " in ", " at ", " from ", " (" };
	const char *end = text + len, *p;
	struct seen names = { .n = 0 };
	char name[CLAIMS_NAME_MAX + 1], path[CLAIMS_PATH_MAX + 1];

	for (p = text; p + 2 < end && (p = memchr(p, '(', (size_t)(end - p)));
	     p++) {
		const char *b = p, *q = p + 2;
		size_t n, k, pl;
		int r;

		if (p[1] != ')')
			continue;
		while (b > text && name_char(b[-1]))
			b--;
		n = (size_t)(p - b);
		if (n > CLAIMS_NAME_MAX || isdigit((unsigned char)*b) ||
		    !claims_kernel_style(b, n) || !seen_add(&names, b, n) ||
		    c->lookups >= CLAIMS_MAX_LOOKUPS)
			continue;
		memcpy(name, b, n);
		name[n] = '\0';
		c->lookups++;
		r = claims_name_status(s, name, n, older);
		if (r == 0 && !claims_name_cited(text, len, b, n))
			r = -1;
		if (r < 0) {
			c->newer += r == -2;
			continue;
		}
		check(c, CLAIM_EXISTS);
		if (!r) {
			FAIL(c, CLAIM_EXISTS,
			     "%.60s() is not a kernel function", name);
			continue;
		}
		for (k = 0; k < ARRAY_SIZE(links); k++) {
			size_t ll = strlen(links[k]);

			if ((size_t)(end - q) > ll &&
			    !memcmp(q, links[k], ll)) {
				q += ll;
				break;
			}
		}
		if (k == ARRAY_SIZE(links) || !(pl = prose_path(q, end)) ||
		    q[pl - 1] != 'c')
			continue;
		memcpy(path, q, pl);
		path[pl] = '\0';
		r = in_file(c, s, name, path, pl);
		if (r < 0)
			continue;
		check(c, CLAIM_FILE);
		if (!r)
			FAIL(c, CLAIM_FILE, "%.60s() is not defined in %.80s",
			     name, path);
	}
}

/*
 * check_kconfig - every distinct CONFIG_FOO is declared by a Kconfig
 * file; not when the text names more than CLAIMS_KCONFIG_DUMP of them:
 * that is a pasted .config (of any version), not options cited
 */
static void check_kconfig(struct claims *c, const char *text, size_t len,
			  const struct symbols *s)
{
	const char *end = text + len, *p = text;
	struct seen opts = { .n = 0 };
	char key[CLAIMS_NAME_MAX + 16];

	size_t distinct = 0;

	/* count first: a .config dump is not checked at all */
	while (p + 8 < end &&
	       (p = memmem(p, (size_t)(end - p), "CONFIG_", 7))) {
		const char *e = p + 7;

		while (e < end && (isupper((unsigned char)*e) ||
				   isdigit((unsigned char)*e) || *e == '_'))
			e++;
		if (seen_add(&opts, p + 7, (size_t)(e - p - 7)))
			distinct++;
		p = e;
	}
	if (distinct > CLAIMS_KCONFIG_DUMP)
		return;
	opts.n = 0;
	p = text;
	while (p + 8 < end &&
	       (p = memmem(p, (size_t)(end - p), "CONFIG_", 7))) {
		const char *b = p + 7, *e = b;
		const char *files[1];
		size_t n;

		if (p > text && name_char(p[-1])) {
			p = b;
			continue;
		}
		while (e < end && (isupper((unsigned char)*e) ||
				   isdigit((unsigned char)*e) || *e == '_'))
			e++;
		p = e;
		n = (size_t)(e - b);
		while (n && b[n - 1] == '_')
			n--;
		/* "CONFIG_FOO=y" and "CONFIG_FOO is not set", not CONFIG_Foo */
		if (n < 2 || (e < end && name_char(*e)) ||
		    !seen_add(&opts, b, n))
			continue;
		if (c->lookups + 2 > CLAIMS_MAX_LOOKUPS)
			break;
		snprintf(key, sizeof(key), "kconfig:%.*s", (int)n, b);
		c->lookups++;
		check(c, CLAIM_KCONFIG);
		if (symbols_lookup(s, key, files, 1))
			continue;
		if (n > 7 && !memcmp(b + n - 7, "_MODULE", 7)) {
			snprintf(key, sizeof(key), "kconfig:%.*s", (int)n - 7,
				 b);
			c->lookups++;
			if (symbols_lookup(s, key, files, 1))
				continue;
		}
		FAIL(c, CLAIM_KCONFIG,
		     "CONFIG_%.*s is declared by no Kconfig file",
		     (int)(n < 96 ? n : 96), b);
	}
}

void claims_check(const char *text, size_t len, const struct evidence *ev,
		  const struct symbols *s, struct claims *c)
{
	claims_check_history(text, len, ev, s, NULL, c);
}

void claims_check_history(const char *text, size_t len,
			  const struct evidence *ev, const struct symbols *s,
			  const struct history *h, struct claims *c)
{
	bool older, dev;

	memset(c, 0, sizeof(*c));
	if (h) {
		c->history_commits = history_ncommits(h);
		if (!history_newest_release(h, &c->history_release,
					    &c->history_rc))
			c->history_release = 0;
		claims_check_commits(c, text, len, ev, h);
	}
	c->tree_version = s ? symbols_tree_version(s) : 0;
	/* a development tree's report (linux-next, net-next ...) or a newer
	 * kernel's: its code is newer than the tree, whose missing names,
	 * calls and lines prove nothing */
	dev = claims_dev_tree(ev, s, text, len);
	check_frames(c, text, len, ev, dev ? NULL : s);
	if (s && ev && !dev && !newer_kernel(ev, s))
		check_calls(c, ev, s);
	else if (s && ev && ev->nframes > 1)
		c->newer++; /* the trace's calls */
	if (!s || !text)
		return;
	older = dev || claims_tree_older(ev, s);
	/* names only: the Date is not known here (unknown_functions()
	 * weighs it) */
	check_prose(c, text, len, s, older || claims_version_drift(ev, s, 0));
	if (!dev) /* a development tree adds options */
		check_kconfig(c, text, len, s);
	/* new code, sysctls, parameters and ioctls come with new kernels */
	older = older || newer_kernel(ev, s);
	claims_check_quotes(c, text, len, s, older);
	claims_check_facts(c, text, len, s, older);
	claims_check_sites(c, text, len, ev, s);
	claims_check_cited(c, text, len, ev, s);
}

const struct claims *claims_get(struct claims_memo *m, struct claims *local,
				const char *text, size_t len,
				const struct evidence *ev,
				const struct symbols *s,
				const struct history *h)
{
	if (!m) {
		claims_check_history(text, len, ev, s, h, local);
		return local;
	}
	if (!m->done) {
		claims_check_history(text, len, ev, s, h, &m->c);
		m->done = true;
	}
	return &m->c;
}

unsigned claims_failed(const struct claims *c, unsigned kinds)
{
	unsigned k, n = 0;

	for (k = 0; k < CLAIM_NKINDS; k++)
		if (kinds & (1u << k))
			n += c->failed_kind[k];
	return n;
}

bool claims_weigh_kinds(const struct claims *c, unsigned kinds,
			unsigned min_checks, unsigned min_failed,
			double min_ratio)
{
	unsigned k, checks = 0, failed = claims_failed(c, kinds);

	for (k = 0; k < CLAIM_NKINDS; k++)
		if (kinds & (1u << k))
			checks += c->checks_kind[k];
	return checks >= min_checks && failed >= min_failed && checks &&
	       (double)failed / checks >= min_ratio;
}

bool claims_weigh(const struct claims *c, unsigned min_checks,
		  unsigned min_failed, double min_ratio)
{
	return claims_weigh_kinds(c, CLAIMS_FACTS, min_checks, min_failed,
				  min_ratio);
}
