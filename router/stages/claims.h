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

/*
 * claims_weigh - at least min_checks checks made, at least min_failed
 * failed, and failed/checks >= min_ratio, CLAIM_EXISTS left out (the
 * rules weigh unknown names with unknown_functions())
 */
bool claims_weigh(const struct claims *c, unsigned min_checks,
		  unsigned min_failed, double min_ratio);

#endif
