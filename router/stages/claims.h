/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * claims - check what a report claims about the kernel source (claims.c)
 *
 * Ownership: struct claims is plain data; nothing to release.
 * Errors: none; what cannot be checked is not counted.
 */
#ifndef TRIAGE_CLAIMS_H
#define TRIAGE_CLAIMS_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

struct evidence;
struct history;
struct symbols;

enum claims_kind {
	CLAIM_SIZE,    /* func+0xOFF/0xSIZE consistent */
	CLAIM_FILE,    /* the function is defined in the file cited */
	CLAIM_KCONFIG, /* CONFIG_FOO is declared by a Kconfig file */
	CLAIM_EXISTS,  /* a "name()" of the prose is a kernel function */
	CLAIM_LINE,    /* "func ... fs/x.c:LINE": LINE is in func's body */
	CLAIM_CALLS,   /* a frame's caller (the frame below) calls it */
	CLAIM_QUOTE,   /* source quoted from a file is in it */
	CLAIM_SYSCTL,  /* "sysctl vm.foo", "/proc/sys/vm/foo" exists */
	CLAIM_PARAM,   /* "modprobe mod foo=", "mod.foo=": mod has foo */
	CLAIM_IOCTL,   /* "the FOO ioctl" is an ioctl request */
	CLAIM_COMMIT,  /* a commit id cited is in the history (its subject) */
	CLAIM_SITE,    /* "WARNING: ... at fs/x.c:LINE func+0x": LINE in func */
	CLAIM_CITED,   /* prose "func() ... fs/x.c:LINE": LINE in func */
	CLAIM_NKINDS,
};

struct claims {
	unsigned checks, failed;
	unsigned checks_kind[CLAIM_NKINDS], failed_kind[CLAIM_NKINDS];
	unsigned lookups;
	/* names not checked: the tree indexed is older than their code */
	unsigned newer;
	unsigned tree_version; /* SYMBOLS_VERSION() of the tree, 0: unknown */
	/* the commit history checked against (experts_history.h) */
	unsigned long history_commits; /* commits it has, 0: none */
	unsigned history_release;      /* its newest release, 0: none */
	unsigned history_rc;	       /* and -rc (HISTORY_FINAL_RC: none) */
	unsigned commits_unchecked;    /* ids cited it cannot tell */
	char first[256]; /* the first failed claim, for explanations */
};

/*
 * claims_check - check the claims of text (a report's body) and of its
 * parsed evidence against the index s (NULL: the frame sizes only)
 */
void claims_check(const char *text, size_t len, const struct evidence *ev,
		  const struct symbols *s, struct claims *c);

/*
 * claims_check_history - claims_check(), and the commit ids the text
 * cites against the history h (NULL: not checked; claims_commits.c)
 */
void claims_check_history(const char *text, size_t len,
			  const struct evidence *ev, const struct symbols *s,
			  const struct history *h, struct claims *c);

/*
 * claims_memo - a report's claims, checked by the first hook that asks
 * (false_claims(), false_trace() ...) and kept for the others and for
 * explanations; zeroed (not done) before each report
 */
struct claims_memo {
	bool done;
	struct claims c;
	/* the body's names unknown_functions() counted (classify_symbols.c) */
	bool names_done;
	unsigned names_known, names_unknown;
};

/*
 * claims_get - the claims of m, checked now when not done yet; with m
 * NULL, checked into *local each time
 */
const struct claims *claims_get(struct claims_memo *m, struct claims *local,
				const char *text, size_t len,
				const struct evidence *ev,
				const struct symbols *s,
				const struct history *h);

/*
 * claims_kernel_style - a name worth looking up: 4+ characters with a
 * "_", not a libc or syzkaller name (pthread_, syz_, __x64_sys_ ...)
 */
bool claims_kernel_style(const char *name, size_t n);

/*
 * claims_tree_older - does the report show code newer than the tree
 * indexed: its kernel version is newer than the tree's (major.minor),
 * and a .c or .h file it cites is not in the tree?
 */
bool claims_tree_older(const struct evidence *ev, const struct symbols *s);

/*
 * claims_dev_tree - is the report of a development tree, whose code is
 * newer than any release: its kernel version is linux-next's
 * ("6.12.0-rc3-next-20241010"), its subject a linux-next merge report
 * (evidence's merged_tree), or its text names such a tree
 * ("linux-next", "net-next", "bpf-next", "for-next", "mm-unstable",
 * "next-20241105" ...).  Its names, calls and lines the tree lacks are
 * not counted as false (s NULL: false)
 */
bool claims_dev_tree(const struct evidence *ev, const struct symbols *s,
		     const char *text, size_t len);

/*
 * claims_version_drift - is the report of a kernel too far from the
 * tree for its names to be checked against it: the version it states is
 * newer than the tree's (major.minor), linux-next's (claims_dev_tree()
 * from the evidence alone), or 3 or more releases older (a
 * 5.7 report's functions renamed since, a distro's 6.1 module_alloc());
 * or, stating none, its Date (when, 0: none) is a year or more before
 * the tree's release (taken as 66.7 days a release since 3.0)
 */
bool claims_version_drift(const struct evidence *ev, const struct symbols *s,
			  time_t when);

/*
 * claims_name_cited - is the name() at b[0..n) of text a kernel
 * function the report claims: not a member called through a pointer
 * ("->raw_request()", ".card_busy()"), not an all-capitals macro
 * (WARN_ON_ONCE(), which the index does not hold), not a function the
 * text defines itself ("static int nl_open(void) {" of a PoC)
 */
bool claims_name_cited(const char *text, size_t len, const char *b, size_t n);

/*
 * claims_near_miss - are a[0..an) and b[0..bn) (8 or more characters
 * each) two edits or fewer apart (Levenshtein): a typo of a real name
 */
bool claims_near_miss(const char *a, size_t an, const char *b, size_t bn);

/*
 * claims_name_status - is name[0..n) (kernel style) a function of the
 * tree?  1 yes, 0 no; -1 not checkable, one leading "_" from a real
 * name (a typo: _gup_longterm_locked() for __gup_longterm_locked());
 * -2 not checkable, the tree is too old: a name whose family (its driver prefix: "macsmc_" of macsmc_hwmon_read, past
 * leading "_"; the first two words when the first is shorter than 3
 * characters) has no function at all in the tree (a driver newer than
 * the tree), or any unknown name when older (claims_tree_older())
 */
int claims_name_status(const struct symbols *s, const char *name, size_t n,
		       bool older);

/* kinds weighed together: facts cited, and the trace's own claims */
#define CLAIMS_FACTS                                                        \
	((1u << CLAIM_SIZE) | (1u << CLAIM_FILE) | (1u << CLAIM_KCONFIG) |  \
	 (1u << CLAIM_QUOTE) | (1u << CLAIM_SYSCTL) | (1u << CLAIM_PARAM) | \
	 (1u << CLAIM_IOCTL) | (1u << CLAIM_COMMIT) | (1u << CLAIM_SITE) |  \
	 (1u << CLAIM_CITED))
#define CLAIMS_TRACE ((1u << CLAIM_LINE) | (1u << CLAIM_CALLS))

/*
 * claims_weigh_kinds - of the kinds (a mask of 1 << CLAIM_*): at least
 * min_checks checks made, at least min_failed failed, and failed/checks
 * >= min_ratio
 */
bool claims_weigh_kinds(const struct claims *c, unsigned kinds,
			unsigned min_checks, unsigned min_failed,
			double min_ratio);

/* claims_failed - the failed checks of the kinds (a mask) */
unsigned claims_failed(const struct claims *c, unsigned kinds);

/*
 * claims_weigh - claims_weigh_kinds() of CLAIMS_FACTS: CLAIM_EXISTS is
 * left out (the rules weigh unknown names with unknown_functions()),
 * and so are the trace's lines and calls, which version drift fails
 * more often (false_trace() weighs them)
 */
bool claims_weigh(const struct claims *c, unsigned min_checks,
		  unsigned min_failed, double min_ratio);

#endif
