/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * crashlog_int - what the parts of the crash-log parser share
 *
 * DESCRIPTION
 *	Private to the crashlog*.c files; crashlog.h is the interface.
 *
 *	  crashlog.c           the parser: console lines, the report,
 *	                       its title and stack
 *	  crashlog_table.c     the tables: crash headers and their title
 *	                       formats, generic frames, guilty-file rules
 *	  crashlog_rx.c        the compiled patterns: compiled on first
 *	                       use or decoded from the pcre2 cache file
 *	                       ('triage update'), and the matching helpers
 *	  crashlog_frame.c     guilty files and the evidence's frames
 *	  crashlog_demangle.c  C++ and Rust (v0) symbol names
 */
#ifndef TRIAGE_CRASHLOG_INT_H
#define TRIAGE_CRASHLOG_INT_H

#ifndef PCRE2_CODE_UNIT_WIDTH
#define PCRE2_CODE_UNIT_WIDTH 8
#endif
#include <pcre2.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "crashlog.h"
#include "litset.h"
#include "util.h"

#define MATCH_LIMIT    50000
#define DEPTH_LIMIT    10000
#define MAX_ARGS       12
#define MAX_RAW_FRAMES 512
#define TITLE_MAX      120
#define REPORT_MAX     (CRASHLOG_TEXT_MAX + 4096)
/* longer input lines are cut: no console line is that long */
#define LINE_MAX_LEN 4096
/* a report ends at the latest this many lines after its header */
#define REPORT_LINES_MAX 5000
#define FRAME_NAME_MAX	 128

/* Pieces of the title and stack regular expressions. */
#define FUNC \
	"([a-zA-Z0-9_]+)(?:\\.|\\+| \\((?=[a-zA-Z0-9_/.-]+\\.[a-zA-Z]+:[0-9]))"
#define PC  "\\[\\<?(?:0x)?[0-9a-f]+\\>?\\]"
#define SRC "([a-zA-Z0-9_/.-]+\\.[a-z]+:[0-9]+)"
#define RIP                                                               \
	"(?:IP|NIP|pc |PC is at):? (?:(?:[0-9]+:)?(?:" PC " +){0,2}" FUNC \
	"|(?:[0-9]+:)?0x[0-9a-f]+|(?:[0-9]+:)?" PC                        \
	" +\\[< *\\(null\\)>\\] +\\(null\\)|[0-9]+: +\\(null\\))"
#define CALLTRACE	"(?:Call (?:T|t)race:)|(?:Backtrace:)"
#define LINES		"(?:.*\\n)+?"
#define STACK		"\001" /* part: parse a stack trace here */
#define BIT(n)		((uint64_t)1 << (n))
#define BUILD_ASSERT(c) ((void)sizeof(char[(c) ? 1 : -1]))
#define HEADER_BITS	0xffffffffu /* cl_g.lineset: cl_oopses[] ids are below 32 */

enum extractor {
	EXT_FIRST = 0, /* the first frame that is not skipped */
	EXT_STALL,     /* a representative frame of a looping stack */
	EXT_HANG,      /* the frame a hung task waits in */
};

struct stack_def {
	const char *parts[5];  /* NULL-terminated; STACK parses frames */
	const char *parts2[4]; /* tried when parts find no frame */
	const char *skip[16];  /* extra generic names, litset syntax */
	enum extractor extractor;
	/* compiled */
	pcre2_code *p[5], *p2[4];
	size_t np, np2;
	struct litset skipset;
};

enum {
	F_NOSTACK = 1 << 0,   /* no stack trace expected */
	F_CORRUPTED = 1 << 1, /* matching this format means a cut report */
};

struct fmt_def {
	const char *title;  /* regex locating the title */
	const char *report; /* regex that must match too; its groups are args */
	const char *fmt; /* "$1" .. "$9": groups, then the extracted frames */
	struct stack_def *stack;
	unsigned flags;
};

enum {
	O_LINE_START = 1 << 0, /* header must start the line (tool messages) */
};

struct oops_def {
	const char *header;
	struct fmt_def *fmts;
	const char *suppress[12]; /* regexes: a matching line is no crash */
	unsigned flags;
	size_t nfmts;
	/* compiled on first use (cl_ensure_oops()) */
	pcre2_code *supp[12];
	size_t nsupp;
	size_t base; /* first index in cl_g.title_re, cl_g.report_re */
	bool compiled;
};

/* Literal markers tested on every line, see cl_g.markers. */
enum {
	MK_DISABLING = 32, /* "Disabling lock debugging due to kernel taint" */
	MK_NMI,		   /* "Sending NMI from CPU" */
	MK_PANIC,	   /* "Kernel panic - not syncing" */
	MK_CIRCULAR,	   /* lockdep's circular dependency banner */
	MK_INFO_STACK,	   /* cl_info_with_stack[] */
	MK_START_IGNORE,   /* cl_report_start_ignores[] */
	MK_SHOULD_FAIL,	   /* fault injection frames */
	MK_STACK_START,	   /* literals every cl_stack_starts[] match holds */
	MK_FRAME_STOP,	   /* cl_frame_stops[] */
	MK_END_TRACE,	   /* "---[ end trace" */
	MK_ARM_FROM,	   /* ") from " of arm frames */
	MK_IGN_IRQ,	   /* "irqs" of lockdep's irq state lines */
	MK_IGN_REG,	   /* "Register r" */
	MK_IGN_AT,	   /* ", at: " */
};

/*
 * A title or report pattern.  "A(?:.*\n)+?.*B(?:.*\n)+?.*C" (LINES)
 * means: A, then the first later line holding B, then the first line
 * after that holding C.  A backtracking engine tries every line pair
 * when that fails, which is quadratic in the report, so such patterns
 * are split into segments matched line by line: A is searched in the
 * text, then "^.*B" and "^.*C" are tried on the following lines.  If
 * the rest fails after the first A (or B), it fails after any later
 * one, so the first is the only one worth trying; capture groups are
 * numbered across the segments as in the whole pattern.
 */
#define PAT_SEGS 4

struct pat {
	pcre2_code *seg[PAT_SEGS]; /* seg[0] searched, the rest per line */
	uint32_t ngroups[PAT_SEGS];
	size_t nseg;
	char lit[32]; /* a literal every match of seg[0] starts with */
	size_t litlen;
};

/* ---- the tables (crashlog_table.c) ------------------------------------ */

struct title_rewrite {
	const char *re, *with;
};

/*
 * The tables whose size the compiled state or a check needs are sized
 * here (each definition is checked against it); the others come with
 * their count.
 */
extern struct oops_def cl_oopses[30];
extern const char *const cl_generic_frames[];
extern const char *const cl_stall_anchors[];
extern const char *const cl_hang_skips[];
extern const char *const cl_frame_prefixes[];
extern const char *const cl_stack_starts[9];
extern const char *const cl_frame_res[2];
extern const struct title_rewrite cl_title_rewrites[9];
extern const char *const cl_guilty_ignores[];
extern const char *const cl_guilty_line_ignores[4];
extern const char *const cl_info_with_stack[];
extern const char *const cl_report_start_ignores[];
extern const char *const cl_frame_stops[];
extern const char *const cl_stack_start_literals[];
extern const size_t cl_ngeneric_frames;
extern const size_t cl_nstall_anchors;
extern const size_t cl_nhang_skips;
extern const size_t cl_nframe_prefixes;
extern const size_t cl_nguilty_ignores;
extern const char *const cl_core_paths[];
extern const size_t cl_ncore_paths;
extern const char *const cl_core_dirs[];
extern const size_t cl_ncore_dirs;
extern const size_t cl_ninfo_with_stack;
extern const size_t cl_nreport_start_ignores;
extern const size_t cl_nframe_stops;
extern const size_t cl_nstack_start_literals;

/* ---- compiled state (crashlog_rx.c) ----------------------------------- */

struct crashlog_state {
	pthread_once_t once;
	pthread_mutex_t lock; /* for the patterns compiled on first use */
	bool common;	      /* stack_start .. corrupted_line compiled */
	bool jit;
	pcre2_match_context *mctx;
	struct litset lineset; /* crash headers and markers, see MK_* */
	struct litset generic, anchors, hang;
	pcre2_code *stack_start[ARRAY_SIZE(cl_stack_starts)];
	pcre2_code *frame_re[ARRAY_SIZE(cl_frame_res)];
	pcre2_code *rewrite[ARRAY_SIZE(cl_title_rewrites)];
	pcre2_code *line_ignore[ARRAY_SIZE(cl_guilty_line_ignores)];
	pcre2_code *corrupted_line;
	struct pat *title_re, *report_re;
};

extern struct crashlog_state cl_g;

struct rx {
	pcre2_match_data *md;
	pcre2_match_context *lim; /* cl_g.mctx with an offset limit, or NULL */
};

struct pmatch {
	size_t start; /* where the whole pattern matched */
	size_t ngroups;
	size_t gs[MAX_ARGS], ge[MAX_ARGS];
	bool set[MAX_ARGS];
};

#define OCC_MAX 64

/*
 * Where a crash header occurs in a text, every occurrence in order (at
 * most OCC_MAX, else complete is false): the literals the titles start
 * with mostly start with the header, and are found among these.
 */
struct occ {
	const char *h;
	size_t hlen, n;
	size_t pos[OCC_MAX];
	bool complete;
};

void cl_init_once(void);
void cl_ensure_oops(const struct oops_def *co);
void cl_ensure_common(void);
bool cl_rx_search_before(struct rx *x, const pcre2_code *re, const char *s,
			 size_t len, size_t before, size_t from);
const char *cl_mem_find(const char *s, size_t len, const char *lit, size_t n,
			size_t k);
void cl_occ_find(struct occ *oc, const char *h, const char *s, size_t len);
bool cl_pat_search_before(struct rx *x, const struct pat *p, const char *s,
			  size_t len, size_t before, const struct occ *oc,
			  struct pmatch *m);

/* rx_search - first match of re in s[0..len) at or after start */
static inline bool rx_search(struct rx *x, const pcre2_code *re, const char *s,
			     size_t len, size_t start)
{
	int rc =
		pcre2_match(re, (PCRE2_SPTR)s, len, start, 0, x->md, cl_g.mctx);

	return rc >= 0;
}

static inline PCRE2_SIZE *rx_ov(struct rx *x)
{
	return pcre2_get_ovector_pointer(x->md);
}

static inline uint32_t rx_groups(const pcre2_code *re)
{
	uint32_t n = 0;

	pcre2_pattern_info(re, PCRE2_INFO_CAPTURECOUNT, &n);
	return n;
}

/* any_match - one of v[0..n) matches s */
static inline bool any_match(struct rx *x, pcre2_code *const *v, size_t n,
			     const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (rx_search(x, v[i], s, len, 0))
			return true;
	return false;
}

static inline bool mem_has(const char *s, size_t len, const char *needle)
{
	return memmem(s, len, needle, strlen(needle)) != NULL;
}

static inline bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* ---- symbol names (crashlog_demangle.c) -------------------------------- */

struct sv {
	const char *s;
	size_t len;
};

struct frames {
	struct sv v[MAX_RAW_FRAMES];
	size_t n;
	char names[8192]; /* demangled names */
	size_t used;
};

bool cl_demangle(const char *s, size_t len, struct frames *raw, struct sv *out);

/* ---- guilty files and frames (crashlog_frame.c) ------------------------ */

void cl_frame_release(struct frame *f);
/* crashlog_bt_lead - past a crash(8) "bt" frame's "#7 [addr] ", or NULL */
const char *crashlog_bt_lead(const char *p, const char *end);
char *cl_guilty_of(struct rx *x, const char *title, const char *r, size_t len);

#endif
