// SPDX-License-Identifier: GPL-2.0-only
/*
 * classify_symbols - the unknown_functions() eval hook (see classify.h)
 *
 * DESCRIPTION
 *	Counts the functions a report names as "name()" that the kernel
 *	symbol index does not define: a report about btusb_write() when
 *	there is no such function was not written by someone who hit the
 *	bug.  Kept apart from classify.c, the pure hooks, because it reads
 *	the symbol index (symbols.c); without an index
 *	(rules_set_symbols()) it never fires.
 *
 *	A name one leading "_" away from a real function is a typo, not
 *	an invention (a developer's _gup_longterm_locked() for
 *	__gup_longterm_locked()), and does not count; nor does a name the
 *	tree is too old to know: one whose driver prefix has no function
 *	in the tree (a developer's build report of macsmc_hwmon_write_f32()
 *	of a driver newer than the tree), or any unknown name of a report
 *	of a newer kernel that cites a file the tree lacks
 *	(claims_name_status(), claims.h).  Nor does any unknown name of a
 *	report whose kernel is far from the tree's (claims_version_drift():
 *	a 5.7 report's nvme_process_cq(), renamed since; a 7.0 report's new
 *	helper) or of a development tree (claims_dev_tree(): prose that
 *	names linux-next, net-next ... cites functions newer than any
 *	release, as check_prose() of claims.c already weighs them), a member called through a pointer ("->raw_request()"), an
 *	all-capitals macro the index does not hold (WARN_ON_ONCE()) or a
 *	function the report defines itself (its PoC's nl_open()): none of
 *	them is a claim the tree can refute (claims_name_cited()).  An
 *	unknown name two edits or fewer from a real one the same report
 *	cites is a slip of the pen (aa_create_fs() beside aa_create_aafs()
 *	in a developer's question; claims_near_miss()), not an invention.
 *
 *	unknown_functions(MIN, MIN_CHECKABLE, MIN_SHARE) gives the number
 *	of unknown names when there are at least MIN of them, at least
 *	MIN_CHECKABLE names the tree could judge (known ones and unknown
 *	ones counted), and the unknown ones are at least MIN_SHARE of
 *	those; else 0 (MIN_CHECKABLE a whole number, MIN_SHARE from 0 to
 *	1: another is taken as absent).  A developer's one slip among many real names is not
 *	a report of invented ones (issue 22): the rules weigh the share.
 *
 *	Only names in kernel style count: at least one '_' and 4 or more
 *	characters, not a userspace/libc or syzkaller name (pthread_,
 *	syz_, __x64_sys_ prefixes ...).  Each distinct name counts once;
 *	at most UNKNOWN_MAX_NAMES names are looked up.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "report.h"
#include <string.h>

#include "claims.h"
#include "classify.h"
#include "symbols.h"
#include "util.h"

#define UNKNOWN_MAX_NAMES 64
#define UNKNOWN_NAME_MAX  80
#define UNKNOWN_MAX_PAIRS 256

/*
 * count_names - the distinct kernel-style "name()"s of t the tree knows
 * (*known) and, of those it does not, the ones it could refute that are
 * no slip of the pen (*unknown)
 */
static void count_names(const struct rules_input *in,
			const struct rules_text *t, unsigned *known,
			unsigned *unknown)
{
	char names[UNKNOWN_MAX_NAMES][UNKNOWN_NAME_MAX + 1];
	signed char st[UNKNOWN_MAX_NAMES]; /* 1 known, 0 unknown, -1 skip */
	size_t nnames = 0, i, j, pairs = 0;
	const char *p, *end = t->text + t->len;
	bool older;

	older = claims_tree_older(in->evidence, in->symbols) ||
		claims_dev_tree(in->evidence, in->symbols, t->text, t->len) ||
		claims_version_drift(in->evidence, in->symbols,
				     in->report ? in->report->when : 0);
	for (p = t->text; (p = memchr(p, '(', (size_t)(end - p))) != NULL;
	     p++) {
		const char *b = p;
		size_t n;
		bool dup = false;

		if (p + 1 >= end || p[1] != ')')
			continue;
		while (b > t->text &&
		       (isalnum((unsigned char)b[-1]) || b[-1] == '_'))
			b--;
		n = (size_t)(p - b);
		if (!n || n > UNKNOWN_NAME_MAX || isdigit((unsigned char)*b) ||
		    !claims_kernel_style(b, n))
			continue;
		for (i = 0; i < nnames && !dup; i++)
			dup = strlen(names[i]) == n &&
			      memcmp(names[i], b, n) == 0;
		if (dup)
			continue;
		if (nnames == UNKNOWN_MAX_NAMES)
			break;
		memcpy(names[nnames], b, n);
		names[nnames][n] = '\0';
		st[nnames] = (signed char)claims_name_status(
			in->symbols, names[nnames], n, older);
		if (st[nnames] == 0 &&
		    !claims_name_cited(t->text, t->len, b, n))
			st[nnames] = -1;
		nnames++;
	}
	/*
	 * a slip of the pen: a real name the report cites is 2 edits away
	 * (at most UNKNOWN_MAX_PAIRS pairs compared: a bounded cost)
	 */
	*known = *unknown = 0;
	for (i = 0; i < nnames; i++) {
		bool near = false;

		*known += st[i] == 1;
		if (st[i] != 0)
			continue;
		for (j = 0; j < nnames && !near && pairs < UNKNOWN_MAX_PAIRS;
		     j++) {
			if (st[j] != 1)
				continue;
			pairs++;
			near = claims_near_miss(names[i], strlen(names[i]),
						names[j], strlen(names[j]));
		}
		*unknown += !near;
	}
}

/*
 * share_arg - a hook's share argument: a number from 0 to 1 and nothing
 * after it, else def (a negative, a NaN or "abc" weighs nothing)
 */
static double share_arg(const char *s, double def)
{
	char *end;
	double v;

	if (!s || !*s)
		return def;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= 0 && v <= 1))
		return def;
	return v;
}

/* classify_hook_unknown_functions - see the file comment */
double classify_hook_unknown_functions(const struct rules_input *in,
				       const struct rules_text *t,
				       const struct rules_args *args)
{
	unsigned long min = 1, min_checkable = 1;
	unsigned known, unknown;
	double share = 0;

	if (!in->symbols || !t)
		return 0;
	if (args->argc > 0 && parse_ulong(args->argv[0], &min) < 0)
		min = 1;
	if (args->argc > 1 && parse_ulong(args->argv[1], &min_checkable) < 0)
		min_checkable = 1;
	if (args->argc > 2)
		share = share_arg(args->argv[2], 0);
	/* counted once a report, for all the rules that weigh them */
	if (in->claims && in->claims->names_done) {
		known = in->claims->names_known;
		unknown = in->claims->names_unknown;
	} else {
		count_names(in, t, &known, &unknown);
		if (in->claims) {
			in->claims->names_known = known;
			in->claims->names_unknown = unknown;
			in->claims->names_done = true;
		}
	}
	/* weighed: of the names the tree could judge, how many it refutes */
	if (!unknown || unknown < min || known + unknown < min_checkable ||
	    (double)unknown < share * (double)(known + unknown))
		return 0;
	return (double)unknown;
}

/*
 * weigh_args - a claims hook's (MIN_CHECKS, MIN_FAILED, MIN_RATIO):
 * 3 and 2 when absent or not numbers, the hook's own ratio when absent
 */
static void weigh_args(const struct rules_args *args, double def_ratio,
		       unsigned long *min_checks, unsigned long *min_failed,
		       double *ratio)
{
	*min_checks = 3;
	*min_failed = 2;
	*ratio = def_ratio;
	if (args->argc > 0 && parse_ulong(args->argv[0], min_checks) < 0)
		*min_checks = 3;
	if (args->argc > 1 && parse_ulong(args->argv[1], min_failed) < 0)
		*min_failed = 2;
	if (args->argc > 2)
		*ratio = share_arg(args->argv[2], def_ratio);
}

/*
 * classify_hook_false_claims - false_claims(MIN_CHECKS, MIN_FAILED,
 * MIN_RATIO): the failed checks of claims.c when they weigh enough
 * (claims_weigh()), else 0
 */
double classify_hook_false_claims(const struct rules_input *in,
				  const struct rules_text *t,
				  const struct rules_args *args)
{
	unsigned long min_checks, min_failed;
	double ratio;
	struct claims local;
	const struct claims *c;

	if (!t)
		return 0;
	weigh_args(args, 0.34, &min_checks, &min_failed, &ratio);
	c = claims_get(in->claims, &local, t->text, t->len, in->evidence,
		       in->symbols, in->history);
	return claims_weigh(c, (unsigned)min_checks, (unsigned)min_failed,
			    ratio)
		       ? (double)claims_failed(c, CLAIMS_FACTS)
		       : 0;
}

/*
 * classify_hook_false_trace - false_trace(MIN_CHECKS, MIN_FAILED,
 * MIN_RATIO): the trace's failed line and call checks (claims.c) when
 * they weigh enough, else 0
 */
double classify_hook_false_trace(const struct rules_input *in,
				 const struct rules_text *t,
				 const struct rules_args *args)
{
	unsigned long min_checks, min_failed;
	double ratio;
	struct claims local;
	const struct claims *c;

	if (!t || !in->evidence || !in->symbols)
		return 0;
	weigh_args(args, 0.5, &min_checks, &min_failed, &ratio);
	c = claims_get(in->claims, &local, t->text, t->len, in->evidence,
		       in->symbols, in->history);
	return claims_weigh_kinds(c, CLAIMS_TRACE, (unsigned)min_checks,
				  (unsigned)min_failed, ratio)
		       ? (double)claims_failed(c, CLAIMS_TRACE)
		       : 0;
}

/*
 * failed_of - the failed checks of kind (claims.c) when at least
 * MIN_FAILED (the hook's argument, default 1), else 0
 */
static double failed_of(const struct rules_input *in,
			const struct rules_text *t,
			const struct rules_args *args, enum claims_kind kind)
{
	unsigned long min_failed = 1;
	struct claims local;
	const struct claims *c;

	if (!t || !in->symbols)
		return 0;
	if (args->argc > 0 && parse_ulong(args->argv[0], &min_failed) < 0)
		min_failed = 1;
	c = claims_get(in->claims, &local, t->text, t->len, in->evidence,
		       in->symbols, in->history);
	return c->failed_kind[kind] >= min_failed ? (double)c->failed_kind[kind]
						  : 0;
}

/*
 * classify_hook_false_sites - false_sites(MIN_FAILED): the WARNING and
 * BUG sites claims.c found outside the function they name
 */
double classify_hook_false_sites(const struct rules_input *in,
				 const struct rules_text *t,
				 const struct rules_args *args)
{
	return failed_of(in, t, args, CLAIM_SITE);
}

/*
 * classify_hook_false_cited - false_cited(MIN_FAILED): the file.c:LINE
 * of the prose claims_cited.c found outside the functions named beside
 */
double classify_hook_false_cited(const struct rules_input *in,
				 const struct rules_text *t,
				 const struct rules_args *args)
{
	return failed_of(in, t, args, CLAIM_CITED);
}
