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

struct evidence;
struct symbols;

enum claims_kind {
	CLAIM_SIZE,    /* func+0xOFF/0xSIZE consistent */
	CLAIM_FILE,    /* the function is defined in the file cited */
	CLAIM_KCONFIG, /* CONFIG_FOO is declared by a Kconfig file */
	CLAIM_EXISTS,  /* a "name()" of the prose is a kernel function */
	CLAIM_LINE,    /* "func ... fs/x.c:LINE": LINE is in func's body */
	CLAIM_CALLS,   /* a frame's caller (the frame below) calls it */
	CLAIM_NKINDS,
};

struct claims {
	unsigned checks, failed;
	unsigned checks_kind[CLAIM_NKINDS], failed_kind[CLAIM_NKINDS];
	unsigned lookups;
	char first[256]; /* the first failed claim, for explanations */
};

/*
 * claims_check - check the claims of text (a report's body) and of its
 * parsed evidence against the index s (NULL: the frame sizes only)
 */
void claims_check(const char *text, size_t len, const struct evidence *ev,
		  const struct symbols *s, struct claims *c);

/*
 * claims_kernel_style - a name worth looking up: 4+ characters with a
 * "_", not a libc or syzkaller name (pthread_, syz_, __x64_sys_ ...)
 */
bool claims_kernel_style(const char *name, size_t n);

/* kinds weighed together: facts cited, and the trace's own claims */
#define CLAIMS_FACTS \
	((1u << CLAIM_SIZE) | (1u << CLAIM_FILE) | (1u << CLAIM_KCONFIG))
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
