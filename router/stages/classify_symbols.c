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
 *	Only names in kernel style count: at least one '_' and 4 or more
 *	characters, not a userspace/libc or syzkaller name (pthread_,
 *	syz_, __x64_sys_ prefixes ...).  Each distinct name counts once;
 *	at most UNKNOWN_MAX_NAMES names are looked up.
 */
#include <ctype.h>
#include <string.h>

#include "classify.h"
#include "symbols.h"
#include "util.h"

#define UNKNOWN_MAX_NAMES 64
#define UNKNOWN_NAME_MAX  80

static const char *const userspace_prefixes[] = {
	"pthread_", "posix_",	"syz_",	  "sem_",	"shm_",
	"mq_",	    "timer_",	"clock_", "__builtin_", "__x64_",
	"__ia32_",  "__arm64_", "__se_",  "__do_sys_",
};

static bool kernel_style(const char *name, size_t n)
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

/* classify_hook_unknown_functions - see the file comment */
double classify_hook_unknown_functions(const struct rules_input *in,
				       const struct rules_text *t,
				       const struct rules_args *args)
{
	char names[UNKNOWN_MAX_NAMES][UNKNOWN_NAME_MAX + 1];
	unsigned long min = 1;
	size_t nnames = 0, i, unknown = 0;
	const char *p, *end;

	if (!in->symbols || !t)
		return 0;
	if (args->argc > 0 && parse_ulong(args->argv[0], &min) < 0)
		min = 1;
	end = t->text + t->len;
	for (p = t->text; (p = memchr(p, '(', (size_t)(end - p))) != NULL;
	     p++) {
		const char *b = p, *files[1];
		size_t n;
		bool dup = false;

		if (p + 1 >= end || p[1] != ')')
			continue;
		while (b > t->text &&
		       (isalnum((unsigned char)b[-1]) || b[-1] == '_'))
			b--;
		n = (size_t)(p - b);
		if (!n || n > UNKNOWN_NAME_MAX || isdigit((unsigned char)*b) ||
		    !kernel_style(b, n))
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
		if (symbols_lookup(in->symbols, names[nnames], files, 1) == 0)
			unknown++;
		nnames++;
	}
	return unknown && unknown >= min ? (double)unknown : 0;
}
