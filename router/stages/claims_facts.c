// SPDX-License-Identifier: GPL-2.0-only
/*
 * claims_facts - sysctl names, module parameters and ioctl names a
 * report cites exist in the tree (CLAIM_SYSCTL, CLAIM_PARAM,
 * CLAIM_IOCTL; claims_int.h)
 *
 * DESCRIPTION
 *	Checked against the index's "sysctl:", "param:" and "ioctl:"
 *	records (symbols_facts.c), one check per distinct name:
 *
 *	- sysctl: "sysctl [-w] vm.foo_bar[=N]", "/proc/sys/vm/foo_bar":
 *	  the last component (procname) is some ctl_table's (the
 *	  directories are not checked; /proc/sys/fs/binfmt_misc/ is a
 *	  file system of its own, not sysctls);
 *	- module parameters: "modprobe [-opts] MOD key=val ...", "options
 *	  MOD key=val" (modprobe.d) and "/sys/module/MOD/parameters/key":
 *	  when the index knows MOD ("module:MOD"), key must be a parameter
 *	  of a file in MOD's directory (or below); an unknown MOD (out of
 *	  tree) is not checkable, nor are the parameters every module has
 *	  (dyndbg, async_probe).  "MOD.key=val" (for the kernel's
 *	  command line) too, but not in a report that shows its command
 *	  line (distributions add their own: Ubuntu's vt.handoff), nor in
 *	  C ("msg.msg_name=&nladdr;"), sysctls or cgroup files
 *	  ("memory.max=1G");
 *	- ioctls: "FOO_BAR ioctl", "ioctl FOO_BAR", "ioctl(fd, FOO_BAR":
 *	  a name in capitals, 4 characters or more (before "ioctl": with a
 *	  "_", or 7 or more).
 *
 *	A failure counts only when the report's kernel is not newer than
 *	the tree (its version alone: new sysctls, parameters and ioctls
 *	come with new kernels; the failure is counted as not checked).  At most FACTS_MAX checks of each kind.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "claims.h"
#include "claims_int.h"
#include "symbols.h"
#include "util.h"

#define FACTS_MAX      16 /* checks of one kind per report */
#define FACT_NAME_MAX  64
#define FACT_FILES     16 /* files of one parameter compared */
#define FACT_MODFILES  4
#define FACT_SEEN      (3 * FACTS_MAX)
#define FACT_IOCTL_MIN 4

struct facts {
	struct claims *c;
	const struct symbols *s;
	const char *text, *end;
	bool older;
	char seen[FACT_SEEN][FACT_NAME_MAX * 2 + 8];
	unsigned nseen, n[CLAIM_NKINDS];
};

/* first - is key new to the report (and is there room to check it)? */
static bool first(struct facts *f, enum claims_kind kind, const char *key)
{
	unsigned i;

	if (f->n[kind] >= FACTS_MAX || f->nseen == FACT_SEEN ||
	    strlen(key) >= sizeof(f->seen[0]))
		return false;
	for (i = 0; i < f->nseen; i++)
		if (!strcmp(f->seen[i], key))
			return false;
	strcpy(f->seen[f->nseen++], key);
	f->n[kind]++;
	return true;
}

/* count - one check; a failure is not counted for a newer kernel */
static void count(struct facts *f, enum claims_kind kind, bool ok,
		  const char *what, const char *name)
{
	if (!ok && f->older) {
		f->c->newer++;
		return;
	}
	claims_count(f->c, kind, ok, "%s %.64s is not in the tree indexed",
		     what, name);
}

static bool exists(const struct facts *f, const char *key)
{
	const char *files[1];

	return symbols_lookup(f->s, key, files, 1) != 0;
}

static bool sysctl_char(char ch)
{
	return claims_name_char(ch) || ch == '-';
}

/* word_at - does the word w start at p (not inside a longer word)? */
static bool word_at(const struct facts *f, const char *p, const char *w)
{
	size_t n = strlen(w);

	return (size_t)(f->end - p) >= n && !memcmp(p, w, n) &&
	       (p == f->text || !claims_name_char(p[-1]));
}

/*
 * check_sysctl - the dotted or slashed path at p: its last component
 * is a procname
 */
static void check_sysctl(struct facts *f, const char *p, bool slashes)
{
	const char *e = p, *last = p;
	char name[FACT_NAME_MAX + 1], key[FACT_NAME_MAX + 16];
	bool sep = false;

	while (e < f->end && (sysctl_char(*e) || *e == (slashes ? '/' : '.'))) {
		if (*e == (slashes ? '/' : '.')) {
			sep = true;
			last = e + 1;
		}
		e++;
	}
	/* "vm.foo." ends a sentence: "vm.foo" */
	if (e > p && e[-1] == (slashes ? '/' : '.')) {
		e--;
		for (last = e; last > p && last[-1] != (slashes ? '/' : '.');
		     last--)
			;
	}
	if (!sep && !slashes)
		return;
	if (e - last < 2 || e - last > FACT_NAME_MAX ||
	    (e < f->end && *e == '*'))
		return;
	memcpy(name, last, (size_t)(e - last));
	name[e - last] = '\0';
	snprintf(key, sizeof(key), "sysctl:%s", name);
	if (first(f, CLAIM_SYSCTL, key))
		count(f, CLAIM_SYSCTL, exists(f, key), "sysctl", name);
}

static void find_sysctls(struct facts *f)
{
	const char *p = f->text;

	while (p < f->end &&
	       (p = memmem(p, (size_t)(f->end - p), "sysctl", 6)) != NULL) {
		const char *q = p + 6;

		if (!word_at(f, p, "sysctl") ||
		    (q < f->end && claims_name_char(*q))) {
			p = q;
			continue;
		}
		/* options: "-w", "-n", "-q" */
		while (q + 1 < f->end && *q == ' ' && q[1] == '-') {
			q += 2;
			while (q < f->end && isalpha((unsigned char)*q))
				q++;
		}
		p = q;
		if (q < f->end && *q == ' ' && q + 1 < f->end &&
		    islower((unsigned char)q[1]))
			check_sysctl(f, q + 1, false);
	}
	p = f->text;
	while (p < f->end &&
	       (p = memmem(p, (size_t)(f->end - p), "/proc/sys/", 10))) {
		p += 10;
		if ((size_t)(f->end - p) >= 15 &&
		    !memcmp(p, "fs/binfmt_misc", 14))
			continue;
		check_sysctl(f, p, true);
	}
}

/* under - is path in dir's tree (dir: a directory "x/", or a file's)? */
static bool under(const char *path, const char *mod)
{
	const char *slash = strrchr(mod, '/');
	size_t n = slash ? (size_t)(slash - mod) + 1 : 0;

	return n && !strncmp(path, mod, n);
}

/* generic_param - one every module has (dynamic debug, async probe) */
static bool generic_param(const char *key, size_t kn)
{
	return (kn == 6 && !memcmp(key, "dyndbg", 6)) ||
	       (kn == 11 && !memcmp(key, "async_probe", 11));
}

/*
 * check_param - MOD[0..mn) has the parameter key[0..kn): not checkable
 * when the index does not know MOD
 */
static void check_param(struct facts *f, const char *mod, size_t mn,
			const char *key, size_t kn)
{
	char mkey[FACT_NAME_MAX + 16], pkey[FACT_NAME_MAX + 16];
	char both[2 * FACT_NAME_MAX + 8];
	const char *mods[FACT_MODFILES], *files[FACT_FILES];
	size_t nm, np, i, j;
	bool ok = false;

	if (mn < 2 || mn > FACT_NAME_MAX || kn < 2 || kn > FACT_NAME_MAX ||
	    generic_param(key, kn))
		return;
	snprintf(mkey, sizeof(mkey), "module:%.*s", (int)mn, mod);
	snprintf(pkey, sizeof(pkey), "param:%.*s", (int)kn, key);
	snprintf(both, sizeof(both), "%.*s.%.*s", (int)mn, mod, (int)kn, key);
	nm = symbols_lookup(f->s, mkey, mods, FACT_MODFILES);
	if (!nm || !first(f, CLAIM_PARAM, both))
		return;
	np = symbols_lookup(f->s, pkey, files, FACT_FILES);
	if (np > FACT_FILES) /* too common a name to tell */
		return;
	for (i = 0; i < np && !ok; i++)
		for (j = 0; j < nm && j < FACT_MODFILES && !ok; j++)
			ok = files[i] && mods[j] && under(files[i], mods[j]);
	count(f, CLAIM_PARAM, ok, "module parameter", both);
}

static bool mod_char(char ch)
{
	return claims_name_char(ch) || ch == '-';
}

/* token - the length of the run of mod_char()s at p */
static size_t token(const struct facts *f, const char *p)
{
	const char *e = p;

	while (e < f->end && mod_char(*e))
		e++;
	return (size_t)(e - p);
}

/* "modprobe [-opts] MOD a=1 b=2" and "options MOD a=1" */
static void params_of_line(struct facts *f, const char *q)
{
	const char *mod;
	size_t mn, kn;

	while (q < f->end && *q == ' ')
		q++;
	while (q + 1 < f->end && *q == '-') {
		while (q < f->end && *q != ' ' && *q != '\n')
			q++;
		while (q < f->end && *q == ' ')
			q++;
	}
	mod = q;
	mn = token(f, q);
	q += mn;
	while (q < f->end && *q == ' ') {
		while (q < f->end && *q == ' ')
			q++;
		kn = token(f, q);
		if (!kn || q + kn >= f->end || q[kn] != '=')
			return;
		check_param(f, mod, mn, q, kn);
		q += kn + 1;
		while (q < f->end && *q != ' ' && *q != '\n')
			q++;
	}
}

/*
 * not_module - names before "." that are no modules: sysctl roots
 * ("vm.swappiness=10") and cgroup controllers ("memory.max=1G")
 */
static bool not_module(const char *p, size_t n)
{
	static const char *const roots[] = {
		"vm",	   "kernel",  "net",	 "fs",	       "dev",
		"user",	   "abi",     "debug",	 "crypto",     "sunrpc",
		"memory",  "cpu",     "cpuset",	 "io",	       "pids",
		"hugetlb", "rdma",    "misc",	 "cgroup",     "blkio",
		"freezer", "net_cls", "devices", "perf_event",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(roots); i++)
		if (strlen(roots[i]) == n && !memcmp(p, roots[i], n))
			return true;
	return false;
}

/* c_line - does the line around p read as C ("msg.msg_name=&nladdr;")? */
static bool c_line(const struct facts *f, const char *p)
{
	const char *e = memchr(p, '\n', (size_t)(f->end - p));

	for (e = e ? e : f->end; e > p && isspace((unsigned char)e[-1]); e--)
		;
	return e > p && (e[-1] == ';' || e[-1] == '{' || e[-1] == ')');
}

/*
 * cmdline_params - "MOD.key=val" the text suggests (not a command line
 * it shows: distributions add their own, Ubuntu's vt.handoff)
 */
static void cmdline_params(struct facts *f)
{
	static const char *const dumps[] = { "BOOT_IMAGE", "/proc/cmdline",
					     "ommand line:", "cmdline:" };
	const char *p;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(dumps); i++)
		if (memmem(f->text, (size_t)(f->end - f->text), dumps[i],
			   strlen(dumps[i])))
			return;
	for (p = f->text;
	     p < f->end && (p = memchr(p, '.', (size_t)(f->end - p))); p++) {
		const char *m = p, *k = p + 1;
		size_t mn, kn;

		while (m > f->text && mod_char(m[-1]))
			m--;
		mn = (size_t)(p - m);
		kn = token(f, k);
		if (!mn || !kn || k + kn + 1 >= f->end || k[kn] != '=' ||
		    k[kn + 1] == '&' || k[kn + 1] == '(' || k[kn + 1] == '=' ||
		    (m > f->text && !isspace((unsigned char)m[-1]) &&
		     m[-1] != '"' && m[-1] != '\'' && m[-1] != '`') ||
		    !islower((unsigned char)*m) || not_module(m, mn) ||
		    c_line(f, k))
			continue;
		check_param(f, m, mn, k, kn);
	}
}

static void find_params(struct facts *f)
{
	const char *p;

	for (p = f->text; p < f->end &&
			  (p = memmem(p, (size_t)(f->end - p), "modprobe ", 9));
	     p += 9)
		if (word_at(f, p, "modprobe"))
			params_of_line(f, p + 9);
	for (p = f->text;
	     p < f->end && (p = memmem(p, (size_t)(f->end - p), "options ", 8));
	     p += 8)
		if (p == f->text || p[-1] == '\n')
			params_of_line(f, p + 8);
	for (p = f->text; p < f->end && (p = memmem(p, (size_t)(f->end - p),
						    "/sys/module/", 12));
	     p += 12) {
		const char *m = p + 12, *k;
		size_t mn = token(f, m);

		k = m + mn;
		if ((size_t)(f->end - k) > 12 && !memcmp(k, "/parameters/", 12))
			check_param(f, m, mn, k + 12, token(f, k + 12));
	}
	cmdline_params(f);
}

static bool ioctl_char(char ch)
{
	return isupper((unsigned char)ch) || isdigit((unsigned char)ch) ||
	       ch == '_';
}

/*
 * check_ioctl - the name in capitals [b, e); before "ioctl" (strict) it
 * needs a "_" or 7 characters ("a USB ioctl" cites none)
 */
static void check_ioctl(struct facts *f, const char *b, const char *e,
			bool strict)
{
	char key[FACT_NAME_MAX + 16];
	size_t n = (size_t)(e - b);

	if (n < FACT_IOCTL_MIN || n > FACT_NAME_MAX ||
	    !isupper((unsigned char)*b) ||
	    (strict && n < 7 && !memchr(b, '_', n)) ||
	    (b > f->text && claims_name_char(b[-1])) ||
	    (e < f->end && (claims_name_char(*e) || *e == '(')))
		return;
	snprintf(key, sizeof(key), "ioctl:%.*s", (int)n, b);
	if (first(f, CLAIM_IOCTL, key))
		count(f, CLAIM_IOCTL, exists(f, key), "ioctl", key + 6);
}

static void find_ioctls(struct facts *f)
{
	const char *p = f->text;

	while (p < f->end &&
	       (p = memmem(p, (size_t)(f->end - p), "ioctl", 5)) != NULL) {
		const char *q = p + 5, *b, *e;

		if (p > f->text + 1 && p[-1] == ' ' && ioctl_char(p[-2])) {
			/* "FOO_BAR ioctl" */
			for (b = p - 1; b > f->text && ioctl_char(b[-1]); b--)
				;
			check_ioctl(f, b, p - 1, true);
		}
		if (q < f->end && *q == '(') {
			/* "ioctl(fd, FOO_BAR" */
			for (b = q; b < f->end && b - q < 40 && *b != ',' &&
				    *b != ')' && *b != '\n';
			     b++)
				;
			if (b < f->end && *b == ',') {
				for (b++; b < f->end && *b == ' '; b++)
					;
				for (e = b; e < f->end && ioctl_char(*e); e++)
					;
				check_ioctl(f, b, e, false);
			}
		} else if (q + 1 < f->end && *q == ' ' && ioctl_char(q[1])) {
			/* "the ioctl FOO_BAR" */
			for (e = q + 1; e < f->end && ioctl_char(*e); e++)
				;
			check_ioctl(f, q + 1, e, false);
		}
		p = q;
	}
}

void claims_check_facts(struct claims *c, const char *text, size_t len,
			const struct symbols *s, bool older)
{
	struct facts *f = xcalloc(1, sizeof(*f));

	f->c = c;
	f->s = s;
	f->text = text;
	f->end = text + len;
	f->older = older;
	find_sysctls(f);
	find_params(f);
	find_ioctls(f);
	free(f);
}
