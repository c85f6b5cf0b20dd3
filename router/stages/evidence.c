// SPDX-License-Identifier: GPL-2.0-only
/*
 * evidence - what a triager reads first in a kernel bug report (see
 * evidence.h)
 *
 * The crash is crashlog.c's business; this file finds the facts around
 * it in one pass over the lines of the text (quote markers and console
 * prefixes removed): kernel version and taint, hardware, reproducers,
 * bisection, trailers, source paths and functions named in prose; which
 * words may name a driver or a module is names.c's to say.  Everything
 * is plain byte scanning; no regular expression runs here.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "crashlog.h"
#include "evidence.h"
#include "kind.h"
#include "names.h"
#include "prefixes.h"
#include "printk.h"
#include "problem.h"
#include "hash.h"
#include "litset.h"
#include "report.h"
#include "strbuf.h"
#include "util.h"

#define TRAILERS_MAX 16
#define VERSION_MAX  64
#define PATH_LEN_MAX 200

/* ---- small string lists ---------------------------------------------- */

static bool list_has(char **v, size_t n, const char *s, size_t len)
{
	size_t i;

	/* strnlen() stops at the entry's end: a shorter one is never read past */
	for (i = 0; i < n; i++)
		if (v[i][0] == s[0] && strnlen(v[i], len + 1) == len &&
		    !memcmp(v[i], s, len))
			return true;
	return false;
}

/*
 * list_add - append a copy of s[0..len) unless present or full; a value
 * ends at a NUL (list_has() compares C strings)
 */
static void list_add(char ***v, size_t *n, size_t max, const char *s,
		     size_t len)
{
	len = strnlen(s, len);
	if (!len || *n >= max || list_has(*v, *n, s, len))
		return;
	/* capacity is implicit: grow at 0, 4, 8, 16, ... */
	if (!*n || (*n >= 4 && !(*n & (*n - 1))))
		*v = xreallocarray(*v, *n ? 2 * *n : 4, sizeof(**v));
	(*v)[(*n)++] = xmemdup0(s, len);
}

/*
 * A list being built with a hash per entry, so that keeping it unique
 * costs one integer compare per entry instead of a string compare.
 */
struct hlist {
	char ***v;
	size_t *n;
	uint32_t hash[EVIDENCE_LIST_MAX];
};

static void hlist_init(struct hlist *h, char ***v, size_t *n)
{
	size_t i;

	h->v = v;
	h->n = n;
	for (i = 0; i < *n && i < EVIDENCE_LIST_MAX; i++)
		h->hash[i] = hash_mem((*v)[i], strlen((*v)[i]));
}

static void hlist_add(struct hlist *h, const char *s, size_t len)
{
	uint32_t k;
	size_t i, n = *h->n;

	len = strnlen(s, len); /* as list_add() stores it */
	if (!len || n >= EVIDENCE_LIST_MAX)
		return;
	k = hash_mem(s, len);
	for (i = 0; i < n; i++)
		if (h->hash[i] == k && strnlen((*h->v)[i], len + 1) == len &&
		    !memcmp((*h->v)[i], s, len))
			return;
	h->hash[n] = k;
	list_add(h->v, h->n, EVIDENCE_LIST_MAX, s, len);
}

static void list_free(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* ---- character classes ----------------------------------------------- */

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

static bool is_ident(char c)
{
	return is_alnum(c) || c == '_';
}

static bool is_hex(char c)
{
	return isxdigit((unsigned char)c) != 0;
}

/* memmem_ci - needle (lower case) in s, ASCII case ignored */
static const char *memmem_ci(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle), i;
	char up = (char)(needle[0] - 32);

	if (n > len)
		return NULL;
	for (i = 0; i + n <= len; i++)
		if ((s[i] == needle[0] || s[i] == up) &&
		    has_prefix_ci(s + i, s + len, needle))
			return s + i;
	return NULL;
}

static const char *mem_find(const char *s, size_t len, const char *needle)
{
	return memmem(s, len, needle, strlen(needle));
}

/* ---- kernel versions ------------------------------------------------- */

static bool version_char(char c)
{
	return is_alnum(c) || c == '.' || c == '-' || c == '_' || c == '+' ||
	       c == '~';
}

/*
 * version_at - a kernel version ("6.12.0-rc3+", "6.1.0-42-amd64") at p;
 * returns its length (trailing punctuation dropped) or 0
 */
static size_t version_at(const char *p, const char *end)
{
	const char *q = p;
	size_t n;

	if (q < end && *q == 'v')
		q++;
	if (q >= end || !is_digit(*q) || *q == '0')
		return 0;
	if (q + 1 < end && is_digit(q[1]))
		return 0; /* majors are one digit (2.x .. 9.x) */
	q++;
	if (q >= end || *q != '.' || q + 1 >= end || !is_digit(q[1]))
		return 0;
	q += 2;
	while (q < end && is_digit(*q))
		q++;
	while (q < end && version_char(*q))
		q++;
	while (q > p && (q[-1] == '.' || q[-1] == '-' || q[-1] == '_'))
		q--;
	n = (size_t)(q - p);
	return n <= VERSION_MAX ? n : 0;
}

static bool word_start(const char *line, const char *p)
{
	return p == line || !is_ident(p[-1]);
}

/* distro_kernel_like - a version string a distribution builds */
static bool distro_kernel_like(const char *v, size_t n)
{
	enum {
		D_ANY = 0,
		D_RELEASE = 1, /* a release number follows: ".fc40", ".el9" */
		D_ABI = 2,     /* an ABI number precedes: "-42-amd64" */
	};
	static const struct {
		const char *s;
		unsigned char flags;
	} subs[] = {
		{ "+bpo", D_ANY },
		{ "+deb", D_ANY },
		{ "+rpt-", D_ANY },
		{ ".fc", D_RELEASE },
		{ ".el", D_RELEASE },
		{ ".mga", D_RELEASE },
		{ "-default", D_ANY },
		{ "-arch", D_ANY },
		{ "-lts", D_ANY },
		{ "-zen", D_ANY },
		{ "-MANJARO", D_ANY },
		{ "cachyos", D_ANY },
		{ "-microsoft-standard", D_ANY },
		{ "-pve", D_ANY },
		{ "-generic", D_ABI },
		{ "-lowlatency", D_ABI },
		{ "-amd64", D_ABI },
		{ "-arm64", D_ABI },
		{ "-686", D_ABI },
		{ "-armmp", D_ABI },
		{ "-cloud-", D_ABI },
		{ "-rt-", D_ABI },
		{ "-aws", D_ABI },
		{ "-azure", D_ABI },
		{ "-gcp", D_ABI },
		{ "-oracle", D_ABI },
		{ "-raspi", D_ABI },
		{ "-kvm", D_ABI },
		{ "-oem", D_ABI },
	};
	size_t i, k;
	bool letter = false;

	if (!v || !n)
		return false;
	for (i = 0; i < n && !letter; i++)
		letter = (v[i] >= 'a' && v[i] <= 'z') ||
			 (v[i] >= 'A' && v[i] <= 'Z');
	if (!letter)
		return false; /* "6.12.0", "12.345678" */
	for (i = 0; i < n; i++) {
		if (v[i] != '-' && v[i] != '+' && v[i] != '.' && v[i] != 'c')
			continue;
		for (k = 0; k < ARRAY_SIZE(subs); k++) {
			size_t sl = strlen(subs[k].s);

			if (subs[k].s[0] != v[i] ||
			    !has_prefix(v + i, v + n, subs[k].s))
				continue;
			if ((subs[k].flags & D_RELEASE) &&
			    (i + sl >= n || !is_digit(v[i + sl])))
				continue;
			if ((subs[k].flags & D_ABI) &&
			    (!i || !is_digit(v[i - 1])))
				continue;
			return true;
		}
	}
	return false;
}

/* ---- the scan --------------------------------------------------------- */

/*
 * What a line may hold; one case-insensitive pass over the line finds
 * them all (see litset.h), the handlers run only when theirs is there.
 */
enum needle {
	N_TAINTED,
	N_HWNAME,
	N_DMI,
	N_LINUX_VERSION,
	N_UNAME,
	N_KERNEL,
	N_LINUX,
	N_REPORTED,
	N_TESTED,
	N_SYZBOT,
	N_BISECT,
	N_COMMIT,
	N_INCLUDE,
	N_MAIN,
	N_REPRO_C,
	N_REPRO_SYZ,
	N_STEPS,
	N_REPRODUC,
	N_WORKQUEUE,
	N_ODEBUG,
};

static const struct {
	const char *pattern;
	enum needle id;
} needles[] = {
	{ "tainted", N_TAINTED },
	{ "hardware name: ", N_HWNAME },
	{ "^dmi: ", N_DMI },
	{ "linux version ", N_LINUX_VERSION },
	{ "^linux ", N_UNAME },
	{ "kernel", N_KERNEL },
	{ "linux", N_LINUX },
	{ "^reported-by:", N_REPORTED },
	{ "^tested-by:", N_TESTED },
	{ "syzbot found the following", N_SYZBOT },
	{ "syzbot has found a reproducer", N_SYZBOT },
	{ "syzbot has bisected", N_SYZBOT },
	{ "syzbot has tested", N_SYZBOT },
	{ "syzkaller.appspot.com/bug", N_SYZBOT },
	{ "^reported-by: syzbot+", N_SYZBOT },
	{ "first bad commit", N_BISECT },
	{ "bisected this issue to", N_BISECT },
	{ "bisection: ", N_BISECT },
	{ "#regzbot introduced:", N_BISECT },
	{ "^commit ", N_COMMIT },
	{ "#include <", N_INCLUDE },
	{ "int main(", N_MAIN },
	{ "int main (", N_MAIN },
	{ "^c reproducer:", N_REPRO_C },
	{ "repro.c", N_REPRO_C },
	{ "reproducer.c", N_REPRO_C },
	{ "^syz repro:", N_REPRO_SYZ },
	{ "repro.syz", N_REPRO_SYZ },
	/* the first line of every C reproducer syzkaller writes */
	{ "autogenerated by syzkaller", N_REPRO_SYZ },
	{ "steps to reproduce", N_STEPS },
	{ "steps to repro", N_STEPS },
	{ "how to reproduce", N_STEPS },
	{ "to reproduce:", N_STEPS },
	{ "reproduction steps", N_STEPS },
	{ "reproduce it by", N_STEPS },
	{ "reproduce with:", N_STEPS },
	{ "reproduce by:", N_STEPS },
	{ "reproducer steps", N_STEPS },
	{ "reproduc", N_REPRODUC },
	{ "^workqueue: ", N_WORKQUEUE },
	{ "odebug: ", N_ODEBUG },
};

static struct litset needle_set;
static pthread_once_t needle_once = PTHREAD_ONCE_INIT;

static void needles_init(void)
{
	size_t i;

	litset_init(&needle_set, true);
	for (i = 0; i < ARRAY_SIZE(needles); i++)
		litset_add(&needle_set, needles[i].pattern, needles[i].id);
}

#define HAS(mask, n) (((mask) >> (n)) & 1)

enum vsrc {
	V_NONE,
	V_PROSE,
	V_UNAME,
	V_LINUX_VERSION,
	V_CRASH,
};

struct scan {
	struct evidence *ev;
	enum vsrc vsrc;
	bool has_include, has_main;
	int bisect_lines; /* lines left to find "commit <sha>" after syzbot's */
	int repro_lines;  /* lines left for numbered steps after "reproduc" */
	int numbered;	  /* numbered lines seen in that window */
	char *distro;	  /* a distro version seen anywhere */
	struct hlist text_files, text_functions, modules, named;
	const struct printk_index *pk; /* the log formats, or NULL */
	struct printk_cache *pk_cache;
};

static void set_str(char **dst, const char *s, size_t len)
{
	free(*dst);
	*dst = xmemdup0(s, len);
}

static void set_version(struct scan *sc, enum vsrc src, const char *v, size_t n)
{
	if (src <= sc->vsrc || !n)
		return;
	if (*v == 'v')
		v++, n--;
	set_str(&sc->ev->kernel_version, v, n);
	sc->vsrc = src;
}

/*
 * crash_cpu_line - "CPU: 0 PID: 1 Comm: x Not tainted 6.12.0-rc3 #1" or
 * lockdep's "6.2.0-rc6 #0 Not tainted": version and taint
 */
static void crash_cpu_line(struct scan *sc, const char *s, size_t len)
{
	const char *end = s + len, *p, *t;
	size_t n;

	if ((t = mem_find(s, len, "Not tainted"))) {
		p = t + 11;
		while (p < end && *p == ' ')
			p++;
		if ((n = version_at(p, end))) {
			set_version(sc, V_CRASH, p, n);
		} else {
			/* lockdep banner: the version comes first */
			p = s;
			while (p < end && *p == ' ')
				p++;
			if ((n = version_at(p, end)) && p + n < t)
				set_version(sc, V_CRASH, p, n);
			else if (!mem_find(s, len, "Comm:"))
				return;
		}
		if (!sc->ev->tainted)
			sc->ev->tainted = xstrdup("Not tainted");
		return;
	}
	if ((t = mem_find(s, len, "Tainted: "))) {
		const char *f = t + 9, *fe;

		/* taint flags are capitals and spaces, the version follows */
		for (p = f;
		     p < end && (isupper((unsigned char)*p) || *p == ' '); p++)
			;
		if (p < end && *p == '[')
			return; /* "Tainted: [W]=WARN" legend line */
		fe = p;
		while (fe > f && fe[-1] == ' ')
			fe--;
		if ((n = version_at(p, end)))
			set_version(sc, V_CRASH, p, n);
		else if (!mem_find(s, len, "Comm:") &&
			 !mem_find(s, len, "PID:"))
			return;
		if (!sc->ev->tainted && fe > f)
			set_str(&sc->ev->tainted, f, (size_t)(fe - f));
	}
}

/* prose_version - "kernel 6.8.9", "Linux 6.12-rc3", "kernel version: 6.1" */
static void prose_version(struct scan *sc, const char *s, size_t len)
{
	static const char *const words[] = { "kernel", "linux" };
	const char *end = s + len;
	size_t w;

	for (w = 0; w < ARRAY_SIZE(words) && sc->vsrc < V_PROSE; w++) {
		const char *p = s;

		while ((p = memmem_ci(p, (size_t)(end - p), words[w]))) {
			const char *q = p + strlen(words[w]);
			size_t n;

			if (!word_start(s, p)) {
				p = q;
				continue;
			}
			if (q < end && (*q == ' ' || *q == ':')) {
				while (q < end && (*q == ' ' || *q == ':'))
					q++;
				if (has_prefix_ci(q, end, "version")) {
					q += 7;
					while (q < end &&
					       (*q == ' ' || *q == ':'))
						q++;
				}
				if ((n = version_at(q, end))) {
					set_version(sc, V_PROSE, q, n);
					return;
				}
			}
			p = q;
		}
	}
}

/* distro_tokens - remember a distribution kernel named anywhere */
static void distro_tokens(struct scan *sc, const char *s, size_t len)
{
	const char *end = s + len, *p;

	if (sc->distro)
		return;
	/* versions have a one-digit major before their first dot */
	for (p = s; (p = memchr(p, '.', (size_t)(end - p))); p++) {
		const char *v = p - 1;
		size_t n;

		if (v < s || !is_digit(*v) ||
		    (v > s && (is_ident(v[-1]) || v[-1] == '.')))
			continue;
		n = version_at(v, end);
		if (n && distro_kernel_like(v, n)) {
			sc->distro = xmemdup0(v, n);
			return;
		}
		if (n)
			p = v + n - 1;
	}
}

/* hex_at - a commit id (7-40 hex digits) at p; its length or 0 */
static size_t hex_at(const char *p, const char *end)
{
	const char *q = p;

	while (q < end && is_hex(*q) && q - p < 41)
		q++;
	if (q - p < 7 || q - p > 40 || (q < end && is_ident(*q)))
		return 0;
	return (size_t)(q - p);
}

static void set_bisect(struct scan *sc, const char *p, size_t n)
{
	size_t i;

	if (sc->ev->bisect_commit)
		return;
	sc->ev->bisect_commit = xmemdup0(p, n);
	for (i = 0; i < n; i++)
		sc->ev->bisect_commit[i] =
			(char)tolower((unsigned char)sc->ev->bisect_commit[i]);
}

static void bisect_line(struct scan *sc, const char *s, size_t len,
			uint64_t mask)
{
	const char *end = s + len, *p;
	size_t n;

	if (!HAS(mask, N_BISECT) && !HAS(mask, N_COMMIT) && !sc->bisect_lines)
		return;
	if ((p = memmem_ci(s, len, "first bad commit:"))) {
		p += 17;
		while (p < end && (*p == ' ' || *p == '['))
			p++;
		if ((n = hex_at(p, end)))
			set_bisect(sc, p, n);
	} else if ((p = mem_find(s, len, " is the first bad commit"))) {
		const char *b = s;

		while (b < p && *b == ' ')
			b++;
		if ((n = hex_at(b, end)) && b + n == p)
			set_bisect(sc, b, n);
	} else if (mem_find(s, len, "bisected this issue to") ||
		   mem_find(s, len, "bisection: ")) {
		sc->bisect_lines = 4;
	} else if (sc->bisect_lines > 0 && has_prefix(s, end, "commit ")) {
		if ((n = hex_at(s + 7, end)))
			set_bisect(sc, s + 7, n);
		sc->bisect_lines = 0;
	} else if ((p = memmem_ci(s, len, "#regzbot introduced:"))) {
		p += 20;
		while (p < end && *p == ' ')
			p++;
		if ((n = hex_at(p, end)) && (p + n == end || p[n] == ' '))
			set_bisect(sc, p, n);
	}
	if (sc->bisect_lines > 0)
		sc->bisect_lines--;
}

static void trailer(char ***v, size_t *n, const char *s, size_t len,
		    size_t skip)
{
	const char *p = s + skip, *end = s + len;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	list_add(v, n, TRAILERS_MAX, p, (size_t)(end - p));
}

/* syz_line - a syzkaller program line: "r0 = openat$cgroup(...)" */
static bool syz_line(const char *s, size_t len)
{
	const char *p = s, *end = s + len;
	const char *name;

	if (p + 4 < end && p[0] == 'r' && is_digit(p[1])) {
		p++;
		while (p < end && is_digit(*p))
			p++;
		if (!has_prefix(p, end, " = ") || p + 3 == end)
			return false;
		p += 3;
	}
	name = p;
	while (p < end &&
	       (islower((unsigned char)*p) || is_digit(*p) || *p == '_'))
		p++;
	if (p == name)
		return false;
	if (p < end && *p == '$') {
		for (p++; p < end && is_ident(*p); p++)
			;
		return p < end && *p == '(';
	}
	return p < end && *p == '(' && has_prefix(name, p, "syz_");
}

static bool numbered_line(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && (s[i] == ' ' || s[i] == '*' || s[i] == '#'))
		i++;
	if (i >= len || !is_digit(s[i]))
		return false;
	while (i < len && is_digit(s[i]))
		i++;
	return i + 1 < len && (s[i] == '.' || s[i] == ')') && s[i + 1] == ' ';
}

static void repro_line(struct scan *sc, const char *s, size_t len,
		       uint64_t mask)
{
	struct evidence *ev = sc->ev;

	if (HAS(mask, N_INCLUDE))
		sc->has_include = true;
	if (HAS(mask, N_MAIN))
		sc->has_main = true;
	if (sc->has_include && sc->has_main)
		ev->reproducer |= REPRO_C;
	if (HAS(mask, N_REPRO_C))
		ev->reproducer |= REPRO_C;
	if (HAS(mask, N_REPRO_SYZ) || syz_line(s, len))
		ev->reproducer |= REPRO_SYZ;
	if (HAS(mask, N_STEPS))
		ev->reproducer |= REPRO_STEPS;
	if (HAS(mask, N_REPRODUC)) {
		sc->repro_lines = 15;
		sc->numbered = 0;
	} else if (sc->repro_lines > 0) {
		sc->repro_lines--;
		if (numbered_line(s, len) && ++sc->numbered >= 2)
			ev->reproducer |= REPRO_STEPS;
	}
}

/* ---- paths and functions named in prose ------------------------------- */

static const char *const top_dirs[] = {
	"arch/",    "block/",  "certs/",   "crypto/",	"Documentation/",
	"drivers/", "fs/",     "include/", "init/",	"io_uring/",
	"ipc/",	    "kernel/", "lib/",	   "LICENSES/", "mm/",
	"net/",	    "rust/",   "samples/", "scripts/",	"security/",
	"sound/",   "tools/",  "usr/",	   "virt/",
};

static bool path_tok_char(char c)
{
	return is_alnum(c) || c == '_' || c == '-' || c == '.' || c == '/' ||
	       c == '+' || c == ',';
}

/* text_path - a kernel source path starting at p; its length or 0 */
static size_t text_path(const char *p, const char *end)
{
	const char *q, *last_slash = NULL, *dot = NULL;
	const char *slash =
		memchr(p, '/', (size_t)(end - p) < 16 ? (size_t)(end - p) : 16);
	size_t i, n;

	if (!slash)
		return 0;
	for (i = 0; i < ARRAY_SIZE(top_dirs); i++)
		if (top_dirs[i][0] == *p &&
		    strlen(top_dirs[i]) == (size_t)(slash - p) + 1 &&
		    !memcmp(p, top_dirs[i], (size_t)(slash - p)))
			break;
	if (i == ARRAY_SIZE(top_dirs))
		return 0;
	for (q = p; q < end && path_tok_char(*q); q++)
		;
	while (q > p && (q[-1] == '.' || q[-1] == ',' || q[-1] == '-'))
		q--;
	n = (size_t)(q - p);
	if (n > PATH_LEN_MAX || n <= strlen(top_dirs[i]))
		return 0;
	for (q = p; q < p + n; q++) {
		if (*q == ',')
			return 0;
		if (q > p && *q == '/' && q[-1] == '/')
			return 0; /* "//" */
		/* ".." only as a whole component ("a/b/../c.c") */
		if (q > p && *q == '.' && q[-1] == '.' &&
		    (q - p < 2 || q[-2] != '/' ||
		     (q + 1 < p + n && q[1] != '/')))
			return 0;
		if (*q == '/')
			last_slash = q;
		else if (*q == '.')
			dot = q;
	}
	if (last_slash == p + n - 1)
		return n; /* a directory: "drivers/net/" */
	if (!dot || dot < last_slash || p + n - dot - 1 < 1 ||
	    p + n - dot - 1 > 5)
		return 0;
	for (q = dot + 1; q < p + n; q++)
		if (!isalnum((unsigned char)*q))
			return 0;
	return n;
}

/* first letters of top_dirs[] */
static const bool path_start[256] = {
	['a'] = true, ['b'] = true, ['c'] = true, ['d'] = true, ['f'] = true,
	['i'] = true, ['k'] = true, ['l'] = true, ['m'] = true, ['n'] = true,
	['r'] = true, ['s'] = true, ['t'] = true, ['u'] = true, ['v'] = true,
	['D'] = true, ['L'] = true,
};

/*
 * tree_root - for the "/" at slash: when the component before it is the
 * top of an unpacked tree ("linux/", "linux-6.14/", "linux-next/"), the
 * character before that component, else '/' (the path goes on before)
 */
static char tree_root(const char *s, const char *slash)
{
	const char *b = slash;

	while (b > s && (is_alnum(b[-1]) || b[-1] == '.' || b[-1] == '-' ||
			 b[-1] == '_'))
		b--;
	if (slash - b < 5 || strncmp(b, "linux", 5) ||
	    (slash - b > 5 && b[5] != '-'))
		return '/';
	return b > s ? b[-1] : ' ';
}

/*
 * dotdot_path - p[0..n) with its "dir/.." pairs resolved into buf (a
 * build robot's "arch/powerpc/kvm/../../../virt/kvm/eventfd.c" is
 * virt/kvm/eventfd.c); its length, or 0 when it climbs out of the tree
 * or is no kernel path once resolved
 */
static size_t dotdot_path(const char *p, size_t n, char *buf, size_t size)
{
	size_t len = 0, i = 0;

	if (n >= size)
		return 0;
	while (i < n) {
		size_t j = i;

		while (j < n && p[j] != '/')
			j++;
		if (j - i == 2 && p[i] == '.' && p[i + 1] == '.') {
			if (!len)
				return 0;
			/* drop the last component and its '/' */
			while (len && buf[len - 1] != '/')
				len--;
			if (len)
				len--;
			while (len && buf[len - 1] != '/')
				len--;
		} else if (j > i && !(j - i == 1 && p[i] == '.')) {
			memcpy(buf + len, p + i, j - i);
			len += j - i;
			if (j < n)
				buf[len++] = '/';
		}
		i = j + 1;
	}
	buf[len] = '\0';
	return len && text_path(buf, buf + len) == len ? len : 0;
}

static void text_paths(struct scan *sc, const char *s, size_t len)
{
	const char *end = s + len, *slash = s, *done = s;

	/* a path starts with a top directory: look before each "/" */
	while ((slash = memchr(slash, '/', (size_t)(end - slash)))) {
		const char *p = slash, *start;
		char prev;
		size_t n;

		while (p > done && (is_alnum(p[-1]) || p[-1] == '_'))
			p--;
		slash++;
		if (p == slash - 1 || !path_start[(unsigned char)*p])
			continue;
		prev = p > s ? p[-1] : ' ';
		start = p;
		/* "a/fs/x.c" and "b/fs/x.c" of diffs */
		if (prev == '/' && p - s >= 2 &&
		    (p[-2] == 'a' || p[-2] == 'b') &&
		    (p - s == 2 || (!is_ident(p[-3]) && p[-3] != '/')))
			prev = p - s > 2 ? p[-3] : ' ';
		else if (prev == '/')
			prev = tree_root(s, p - 1);
		/* not inside a word, a URL or another path */
		if (is_ident(prev) || prev == '/' || prev == ':' ||
		    prev == '.' || prev == '-' || prev == '@' || prev == '=' ||
		    prev == '?' || prev == '&' || prev == '%')
			continue;
		n = text_path(start, end);
		if (!n)
			continue;
		if (memmem(start, n, "/../", 4)) {
			char buf[PATH_LEN_MAX + 1];
			size_t m = dotdot_path(start, n, buf, sizeof(buf));

			if (m)
				hlist_add(&sc->text_files, buf, m);
		} else {
			hlist_add(&sc->text_files, start, n);
		}
		done = slash = start + n;
	}
}

static void text_functions(struct scan *sc, const char *s, size_t len)
{
	const char *end = s + len, *p = s;

	while ((p = memmem(p, (size_t)(end - p), "()", 2))) {
		const char *b = p;

		while (b > s && is_ident(b[-1]))
			b--;
		if (p - b >= 3 && !is_digit(*b) &&
		    (b == s || (b[-1] != '.' && b[-1] != '>' && b[-1] != '$')))
			hlist_add(&sc->text_functions, b, (size_t)(p - b));
		p += 2;
	}
}

/*
 * error_functions - "EXT4-fs error (device sda1): ext4_find_extent:936:
 * ...", "BTRFS: error in __btrfs_free_extent:3210: ...": the function
 * and line a filesystem's error helper prints; only a name with "_" in
 * it, as clock times and host names take the same shape
 */
static void error_functions(struct scan *sc, const char *s, size_t len)
{
	const char *end = s + len, *p = s;

	while ((p = memchr(p, ':', (size_t)(end - p)))) {
		const char *b = p, *d = p + 1;

		while (b > s && is_ident(b[-1]))
			b--;
		while (d < end && is_digit(*d))
			d++;
		if (d > p + 1 && d < end && *d == ':' && p - b >= 4 &&
		    !is_digit(*b) && memchr(b, '_', (size_t)(p - b)) &&
		    (b == s || b[-1] == ' '))
			hlist_add(&sc->text_functions, b, (size_t)(p - b));
		p++;
	}
}

/* named_add - one candidate name (names.h), kept once */
static void named_add(void *ctx, const char *name, size_t len)
{
	hlist_add(ctx, name, len);
}

/* text_names - a prose line's words that may name a driver or a module
 * (names.h); not console output: it names every driver that printed */
static void text_names(struct scan *sc, const char *s, size_t len, bool console)
{
	if (!console && sc->ev->nnamed < EVIDENCE_LIST_MAX)
		names_in_line(s, len, named_add, &sc->named);
}

/* ---- hardware ---------------------------------------------------------- */

static bool virtual_hardware(const char *hw)
{
	static const char *const virt[] = {
		"QEMU",
		"KVM",
		"Bochs",
		"Google Compute Engine",
		"VMware",
		"VirtualBox",
		"innotek",
		"Xen HVM",
		"HVM domU",
		"Hyper-V",
		"Microsoft Corporation Virtual Machine",
		"Amazon EC2",
		"dummy-virt",
		"BHYVE",
		"Parallels",
		"OpenStack",
		"Cloud Hypervisor",
		"Firecracker",
		"UTM",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(virt); i++)
		if (strstr(hw, virt[i]))
			return true;
	return false;
}

static void hardware_line(struct scan *sc, const char *s, size_t len, bool dmi)
{
	const char *p = mem_find(s, len, dmi ? "DMI: " : "Hardware name: ");
	const char *end = s + len;

	if (!p || (dmi && sc->ev->hardware))
		return;
	if (!dmi && sc->ev->hardware) {
		/* "Hardware name:" beats a boot-time "DMI:" line */
		return;
	}
	p += dmi ? 5 : 15;
	while (p < end && *p == ' ')
		p++;
	while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	if (end > p)
		set_str(&sc->ev->hardware, p, (size_t)(end - p));
}

/* ---- lines --------------------------------------------------------------- */

/*
 * line_body - strip quote markers, indentation, a journal prefix and a
 * console stamp; console: the line is console output (either of those)
 */
static const char *line_body(const char *s, size_t *len, bool *stamp,
			     bool *console)
{
	size_t l = *len, k;
	bool journal;

	for (;;) {
		k = 0;
		while (k < l && (s[k] == ' ' || s[k] == '\t'))
			k++;
		if (k < l && s[k] == '>') {
			s += k + 1;
			l -= k + 1;
			continue;
		}
		s += k;
		l -= k;
		break;
	}
	/* journal lines are console output, with or without a stamp */
	k = crashlog_journal_prefix(s, l);
	journal = k > 0;
	s += k;
	l -= k;
	*stamp = false;
	/* "<4>[   12.345678] " and "[   12.345678][ T123] " */
	k = 0;
	if (k < l && s[k] == '<') {
		while (++k < l && is_digit(s[k]))
			;
		k = k < l && s[k] == '>' ? k + 1 : l;
	}
	if (k < l && s[k] == '[') {
		size_t j = k + 1, d = 0;

		while (j < l && s[j] == ' ')
			j++;
		while (j < l && is_digit(s[j]))
			j++;
		if (j < l && s[j] == '.') {
			for (j++; j < l && is_digit(s[j]); j++)
				d++;
			if (j < l && s[j] == ']' && d == 6) {
				*stamp = true;
				j++;
				if (j < l && s[j] == '[') {
					const char *e =
						memchr(s + j, ']', l - j);

					if (e && e - (s + j) < 12)
						j = (size_t)(e - s) + 1;
				}
				while (j < l && s[j] == ' ')
					j++;
				s += j;
				l -= j;
			}
		}
	}
	/* dmesg -H's "[Apr11 19:28]" and "[  +0.014297]", dmesg -T's
	 * "[Fri Apr 11 19:28:01 2025]" (problem.h) */
	if (!*stamp && k < l && s[k] == '[') {
		size_t n = problem_dmesg_stamp(s + k, l - k);

		if (n && (isalpha((unsigned char)s[k + 1]) ||
			  memchr(s + k, '+', n))) {
			*stamp = true;
			for (k += n; k < l && s[k] == ' '; k++)
				;
			s += k;
			l -= k;
		}
	}
	while (l && (s[l - 1] == '\r' || s[l - 1] == ' '))
		l--;
	*console = *stamp || journal;
	*len = l;
	return s;
}

/* bus_id - length of a PCI ("0000:04:00.0") or USB ("3-10:1.0") id */
static size_t bus_id(const char *p, const char *end)
{
	const char *q = p;
	int colons = 0, digits = 0;

	/* PCI: hhhh:hh:hh.h */
	while (q < end && (is_hex(*q) || *q == ':')) {
		colons += *q == ':';
		digits += *q != ':';
		q++;
	}
	if (colons == 2 && digits == 8 && q + 1 < end && *q == '.' &&
	    is_hex(q[1]))
		return (size_t)(q + 2 - p);
	/* USB: bus-port[.port...][:config.interface] */
	q = p;
	if (q >= end || !is_digit(*q))
		return 0;
	while (q < end && is_digit(*q))
		q++;
	if (q >= end || *q != '-' || q + 1 >= end || !is_digit(q[1]))
		return 0;
	for (q++; q < end && (is_digit(*q) || *q == '.'); q++)
		;
	if (q + 1 < end && *q == ':' && is_digit(q[1]))
		for (q++; q < end && (is_digit(*q) || *q == '.'); q++)
			;
	return (size_t)(q - p);
}

/*
 * dev_id - length of a device name dev_printk() puts after its driver's
 * (name, n): the driver's own numbered device ("nvme nvme0:"), a SCSI
 * address ("sd 0:0:0:0:"), a platform device at an address ("dwc3
 * fe800000.usb:") or numbered ("i2c_designware i2c_designware.0:",
 * "spi-nor spi0.0:")
 */
static size_t dev_id(const char *name, size_t n, const char *p, const char *end)
{
	const char *q, *dot, *r;
	int fields = 0;
	size_t hex = 0;

	if ((size_t)(end - p) > n && !memcmp(p, name, n) && is_digit(p[n])) {
		for (q = p + n; q < end && is_digit(*q); q++)
			;
		return (size_t)(q - p);
	}
	/* SCSI's H:C:T:L */
	for (q = p; q < end && is_digit(*q);) {
		while (q < end && is_digit(*q))
			q++;
		if (++fields < 4 && q + 1 < end && *q == ':' && is_digit(q[1]))
			q++;
		else
			break;
	}
	if (fields == 4)
		return (size_t)(q - p);
	/* a platform device: "fe800000.usb", "i2c_designware.0" */
	for (q = p; q < end && (is_ident(*q) || *q == '-') && q - p < 48; q++)
		hex += is_hex(*q);
	if (q == p || q + 1 >= end || *q != '.')
		return 0;
	dot = q;
	for (q = dot + 1; q < end && (is_ident(*q) || *q == '-'); q++)
		;
	if (q == dot + 1)
		return 0;
	if (hex == (size_t)(dot - p) && hex >= 4)
		return (size_t)(q - p);
	for (r = dot + 1; r < q && is_digit(*r); r++)
		;
	return r == q ? (size_t)(q - p) : 0;
}

/*
 * device_line - "btusb 3-10:1.0: probe failed": the driver that printed
 * a kernel log line about a device (bus_id(), dev_id())
 */
static void device_line(struct scan *sc, const char *s, size_t len)
{
	const char *end = s + len, *p = s;
	size_t n, id;

	while (p < end && (is_ident(*p) || *p == '-') && p - s < 32)
		p++;
	n = (size_t)(p - s);
	if (n < 2 || p >= end || *p != ' ' || !(s[0] >= 'a' && s[0] <= 'z'))
		return;
	id = bus_id(p + 1, end);
	if (!id)
		id = dev_id(s, n, p + 1, end);
	if (!id || p + 1 + id >= end || p[1 + id] != ':')
		return;
	/* generic bus and core names say nothing about the driver */
	if ((n == 3 && (has_prefix(s, p, "usb") || has_prefix(s, p, "pci"))) ||
	    (n == 8 && has_prefix(s, p, "pcieport")))
		return;
	if (sc->ev->nmodules < EVIDENCE_LIST_MAX)
		hlist_add(&sc->modules, s, n);
}

/* ident_at - the length of the C identifier at p (0: none) */
static size_t ident_at(const char *p, const char *end)
{
	const char *q = p;

	if (p >= end || is_digit(*p))
		return 0;
	while (q < end && is_ident(*q))
		q++;
	return (size_t)(q - p);
}

/* owner_function - keep name (an identifier of 3 bytes or more) as *dst
 * and among the text's functions for the index (*listed: it was not
 * there yet); false when it is none */
static bool owner_function(struct scan *sc, char **dst, bool *listed,
			   const char *p, const char *end)
{
	size_t n = ident_at(p, end), before = sc->ev->ntext_functions;

	if (n < 3 || n >= 128)
		return false;
	set_str(dst, p, n);
	hlist_add(&sc->text_functions, p, n);
	*listed = sc->ev->ntext_functions > before;
	return true;
}

/*
 * work_line - "Workqueue: md_misc mddev_delayed_delete": the work item a
 * kworker's crash ran (workqueue.c's print_worker_info(): the queue's
 * name, then the work function by %ps, "func [module]" in a module)
 */
static void work_line(struct scan *sc, const char *s, size_t len)
{
	const char *end = s + len, *p = s + strlen("Workqueue: ");

	if (len <= strlen("Workqueue: "))
		return;
	while (p < end && *p != ' ')
		p++;
	while (p < end && *p == ' ')
		p++;
	owner_function(sc, &sc->ev->work_function, &sc->ev->work_listed, p,
		       end);
}

/*
 * odebug_line - "ODEBUG: free active (active state 0) object: ...
 * object type: timer_list hint: foo_timer_fn+0x0/0x10 drivers/foo/x.c:-1":
 * debugobjects' hint is the function the object was set up with (its
 * callback), in the code that owns the object; the file, when the line
 * gives one
 */
static void odebug_line(struct scan *sc, const char *s, size_t len)
{
	const char *end = s + len, *p = mem_find(s, len, " hint: ");
	struct evidence *ev = sc->ev;
	size_t n;

	if (!p || !owner_function(sc, &ev->odebug_function, &ev->odebug_listed,
				  p + 7, end))
		return;
	p += 7 + strlen(ev->odebug_function);
	while (p < end && *p != ' ')
		p++;
	while (p < end && *p == ' ')
		p++;
	n = text_path(p, end);
	if (n > 2 && p[n - 2] == '.' && p[n - 1] == 'c' && memchr(p, '/', n))
		set_str(&ev->odebug_file, p, n);
}

static void scan_line(struct scan *sc, const char *s, size_t len)
{
	struct evidence *ev = sc->ev;
	const char *p, *end = s + len;
	uint64_t mask;
	size_t n;

	if (!len)
		return;
	mask = litset_mask(&needle_set, s, len);
	if (HAS(mask, N_TAINTED))
		crash_cpu_line(sc, s, len);
	if (HAS(mask, N_HWNAME))
		hardware_line(sc, s, len, false);
	else if (HAS(mask, N_DMI))
		hardware_line(sc, s, len, true);
	if (HAS(mask, N_LINUX_VERSION) &&
	    (p = mem_find(s, len, "Linux version "))) {
		p += 14;
		if ((n = version_at(p, end)))
			set_version(sc, V_LINUX_VERSION, p, n);
	} else if (HAS(mask, N_UNAME) && has_prefix(s, end, "Linux ") &&
		   mem_find(s, len, " #")) {
		/* uname -a: "Linux host 6.8.9-300.fc40.x86_64 #1 SMP ..." */
		p = memchr(s + 6, ' ', len - 6);
		if (p && (n = version_at(p + 1, end)))
			set_version(sc, V_UNAME, p + 1, n);
	}
	if (sc->vsrc < V_PROSE && (HAS(mask, N_KERNEL) || HAS(mask, N_LINUX)))
		prose_version(sc, s, len);
	distro_tokens(sc, s, len);
	if (HAS(mask, N_REPORTED))
		trailer(&ev->reported_by, &ev->nreported_by, s, len, 12);
	else if (HAS(mask, N_TESTED))
		trailer(&ev->tested_by, &ev->ntested_by, s, len, 10);
	bisect_line(sc, s, len, mask);
	repro_line(sc, s, len, mask);
	if (HAS(mask, N_SYZBOT))
		ev->syzbot = true;
	if (memchr(s, '/', len))
		text_paths(sc, s, len);
	if (memchr(s, '(', len))
		text_functions(sc, s, len);
	if (memchr(s, ':', len)) {
		device_line(sc, s, len);
		error_functions(sc, s, len);
	}
	if (HAS(mask, N_WORKQUEUE) && !ev->work_function)
		work_line(sc, s, len);
	if (HAS(mask, N_ODEBUG) && !ev->odebug_function)
		odebug_line(sc, s, len);
}

/*
 * log_line - the kernel log formats a line matches (printk.h); a line
 * that is not console output needs EVIDENCE_LOG_PROSE_MIN constant
 * characters matched
 */
static void log_line(struct scan *sc, const char *s, size_t len, bool console)
{
	struct printk_hit hits[4];
	struct evidence *ev = sc->ev;
	size_t n, i, k;

	if (len < PRINTK_CONST_MIN)
		return;
	n = printk_match_cached(sc->pk, sc->pk_cache, s, len, hits,
				ARRAY_SIZE(hits));
	if (!n || hits[0].nconst <
			  (console ? PRINTK_CONST_MIN : EVIDENCE_LOG_PROSE_MIN))
		return;
	for (i = 0; i < n; i++) {
		struct log_match *m = NULL;
		const char *files[PRINTK_FILES_MAX];

		for (k = 0; k < ev->nlog_matches; k++)
			if (ev->log_matches[k].format == hits[i].format)
				m = &ev->log_matches[k];
		if (!m && ev->nlog_matches >= EVIDENCE_LOG_MAX) {
			/* full: an error or a warning takes an info line's
			 * place (a boot log's first lines are info) */
			if (printk_level(sc->pk, hits[i].format) == PRINTK_INFO)
				continue;
			for (k = 0; k < ev->nlog_matches && !m; k++)
				if (ev->log_matches[k].level == PRINTK_INFO)
					m = &ev->log_matches[k];
			if (!m)
				continue;
			free(m->call);
			list_free(m->files, m->nfiles);
			memset(m, 0, sizeof(*m));
		} else if (!m) {
			if (!ev->log_matches)
				ev->log_matches =
					xcalloc(EVIDENCE_LOG_MAX,
						sizeof(*ev->log_matches));
			m = &ev->log_matches[ev->nlog_matches++];
		}
		if (!m->call) {
			m->format = hits[i].format;
			m->call = xstrdup(printk_call(sc->pk, m->format));
			m->level = printk_level(sc->pk, m->format);
			m->nfiles = printk_files(sc->pk, m->format, files,
						 ARRAY_SIZE(files), &m->total);
			m->files = xcalloc(m->nfiles + 1, sizeof(*m->files));
			for (k = 0; k < m->nfiles; k++)
				m->files[k] = xstrdup(files[k]);
		}
		m->lines++;
		if (1.0 / (double)n > m->share)
			m->share = 1.0 / (double)n;
	}
}

static void scan_text(struct scan *sc, const char *text, size_t len)
{
	const char *p = text, *end = text + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *body;
		bool stamp, console;

		body = line_body(p, &l, &stamp, &console);
		if (stamp)
			sc->ev->dmesg_timestamps = true;
		scan_line(sc, body, l);
		text_names(sc, body, l, console);
		if (sc->pk)
			log_line(sc, body, l, console);
		p = nl ? nl + 1 : end;
	}
}

/* ---- lists after frames -------------------------------------------------- */

/* specific - a file that says whose code it is: not one syzkaller's
 * rules skip, not core code a driver's work passes through */
static bool specific(const char *f)
{
	return f && !crashlog_guilty_ignored(f) && !crashlog_core_path(f);
}

/*
 * take_owner - once the index resolved the text's functions: the file of
 * fn (a work function, an ODEBUG hint) into *file unless it has one,
 * and fn out of text_functions[] when only the crash line put it there
 */
static void take_owner(struct evidence *ev, const char *fn, bool *listed,
		       char **file, bool *from_index)
{
	size_t i;

	for (i = 0; fn && ev->text_function_files && i < ev->ntext_functions;
	     i++) {
		if (strcmp(ev->text_functions[i], fn))
			continue;
		if (!*file && ev->text_function_files[i]) {
			*file = xstrdup(ev->text_function_files[i]);
			*from_index = true;
		}
		if (!*listed)
			return;
		*listed = false;
		free(ev->text_functions[i]);
		free(ev->text_function_files[i]);
		ev->ntext_functions--;
		memmove(&ev->text_functions[i], &ev->text_functions[i + 1],
			(ev->ntext_functions - i) * sizeof(char *));
		memmove(&ev->text_function_files[i],
			&ev->text_function_files[i + 1],
			(ev->ntext_functions - i) * sizeof(char *));
		return;
	}
}

/*
 * syz_guilty - syzkaller's guilty file: the text's, else (the text named
 * none) the rules over the frames once the index gave them files
 */
static const char *syz_guilty(const struct evidence *ev, const char **cand,
			      size_t n, bool indexed, bool *from_index)
{
	*from_index = false;
	if (ev->crash_guilty || !n || !indexed)
		return ev->crash_guilty;
	*from_index = true;
	return cand[crashlog_guilty_pick(cand, n)];
}

/*
 * maintainer_guilty - where a maintainer reading the trace would look:
 * an ODEBUG object's owner; syzkaller's file when it is specific; else
 * the first frames in specific code (the deeper-file rule among them);
 * else, when the frames that have files are all generic (not when
 * none has: a cut report), the work function a kworker ran; else
 * syzkaller's.  An RCU stall
 * keeps syzkaller's choice: its rule reads past the interrupt entry,
 * and the frames before it are the interrupt's.
 */
static const char *maintainer_guilty(const struct evidence *ev, const char *syz,
				     const char **cand, size_t n,
				     bool *from_index)
{
	const char *f;
	size_t i, k = 0;

	if (ev->title && starts_with(ev->title, "WARNING: ODEBUG bug") &&
	    specific(ev->odebug_file)) {
		*from_index = ev->odebug_from_index;
		return ev->odebug_file;
	}
	if (!syz || specific(syz) ||
	    (ev->title && starts_with(ev->title, "INFO: rcu detected stall")))
		return syz;
	for (i = 0; i < n; i++)
		if (specific(cand[i]))
			cand[k++] = cand[i];
	if (k) {
		f = cand[crashlog_guilty_pick(cand, k)];
		for (i = 0; i < ev->nframes; i++)
			if (ev->frames[i].file == f)
				*from_index = ev->frames[i].from_index;
		return f;
	}
	if (n && specific(ev->work_file)) {
		*from_index = true;
		return ev->work_file;
	}
	return syz;
}

/* evidence_finish - recompute files[] and the guilty file from frames */
void evidence_finish(struct evidence *ev)
{
	struct hlist h;
	const char **cand;
	const char *syz, *pick;
	size_t i, n = 0;
	bool indexed = false, from_index;

	if (!ev)
		return;
	take_owner(ev, ev->work_function, &ev->work_listed, &ev->work_file,
		   &indexed);
	indexed = false;
	take_owner(ev, ev->odebug_function, &ev->odebug_listed,
		   &ev->odebug_file, &ev->odebug_from_index);
	cand = xcalloc(ev->nframes + 1, sizeof(*cand));
	for (i = 0; i < ev->nframes; i++) {
		const struct frame *f = &ev->frames[i];

		if (!f->file || f->unreliable)
			continue;
		cand[n++] = f->file;
		indexed |= f->from_index;
	}
	syz = syz_guilty(ev, cand, n, indexed, &from_index);
	free(ev->sig_guilty);
	ev->sig_guilty = syz ? xstrdup(syz) : NULL;
	pick = maintainer_guilty(ev, syz, cand, n, &from_index);
	free(ev->guilty_file);
	ev->guilty_file = pick ? xstrdup(pick) : NULL;
	ev->guilty_from_index = pick && from_index;
	free(cand);

	list_free(ev->files, ev->nfiles);
	ev->files = NULL;
	ev->nfiles = 0;
	hlist_init(&h, &ev->files, &ev->nfiles);
	if (ev->guilty_file)
		hlist_add(&h, ev->guilty_file, strlen(ev->guilty_file));
	for (i = 0; i < ev->nframes; i++)
		if (ev->frames[i].file && !ev->frames[i].unreliable)
			hlist_add(&h, ev->frames[i].file,
				  strlen(ev->frames[i].file));
	for (i = 0; i < ev->nmodule_files; i++)
		hlist_add(&h, ev->module_files[i], strlen(ev->module_files[i]));
	for (i = 0; i < ev->ntext_files; i++)
		hlist_add(&h, ev->text_files[i], strlen(ev->text_files[i]));

	list_free(ev->functions, ev->nfunctions);
	ev->functions = NULL;
	ev->nfunctions = 0;
	hlist_init(&h, &ev->functions, &ev->nfunctions);
	for (i = 0; i < ev->nframes; i++) {
		const struct frame *f = &ev->frames[i];

		if (!f->function || f->unreliable ||
		    crashlog_skip_function(f->function))
			continue;
		hlist_add(&h, f->function, strlen(f->function));
	}
	for (i = 0; i < ev->ntext_functions; i++)
		hlist_add(&h, ev->text_functions[i],
			  strlen(ev->text_functions[i]));
}

/* ---- crash --------------------------------------------------------------- */

static void adopt(struct evidence *ev, struct crashlog *c)
{
	ev->title = c->title;
	ev->crash_type = c->type;
	ev->crash_guilty = c->guilty_file;
	ev->guilty_file = c->guilty_file ? xstrdup(c->guilty_file) : NULL;
	ev->frames = c->frames;
	ev->nframes = c->nframes;
	c->title = c->type = c->guilty_file = NULL;
	c->frames = NULL;
	c->nframes = 0;
	crashlog_free(c);
}

/*
 * take_crash - the first crash in the text.  A bare header line with no
 * title format behind it counts only when it looks like console output
 * (it has a console time stamp or a "usb 1-1: " device prefix, or it
 * starts its line and frames or time stamps follow); otherwise the
 * search goes on after it.  A cut crash without frames outside console
 * output (a quoted subject, a forwarded header) yields to a later crash
 * that has them.
 */
static void take_crash(struct evidence *ev, const char *text, size_t len)
{
	struct crashlog_scan *scan = crashlog_scan_new(text, len);
	struct crashlog *weak = NULL, *c;
	int tries;

	for (tries = 0; tries < 16 && (c = crashlog_scan_next(scan)); tries++) {
		if (c->fallback && !c->stamped && !c->dev_prefix &&
		    (!c->line_start ||
		     (!c->nframes && !ev->dmesg_timestamps))) {
			crashlog_free(c);
			continue;
		}
		if (c->corrupted && !c->line_start && !c->stamped) {
			if (!weak)
				weak = c;
			else
				crashlog_free(c);
			continue;
		}
		crashlog_free(weak);
		weak = NULL;
		adopt(ev, c);
		break;
	}
	if (weak)
		adopt(ev, weak);
	crashlog_scan_free(scan);
}

static struct evidence *extract(const char *text, size_t len,
				const struct printk_index *pk)
{
	struct evidence *ev = xcalloc(1, sizeof(*ev));
	struct scan sc;

	if (pthread_once(&needle_once, needles_init))
		die("evidence: pthread_once failed");
	memset(&sc, 0, sizeof(sc));
	sc.ev = ev;
	sc.pk = pk;
	if (pk)
		sc.pk_cache = xcalloc(1, sizeof(*sc.pk_cache));
	hlist_init(&sc.text_files, &ev->text_files, &ev->ntext_files);
	hlist_init(&sc.text_functions, &ev->text_functions,
		   &ev->ntext_functions);
	hlist_init(&sc.modules, &ev->modules, &ev->nmodules);
	hlist_init(&sc.named, &ev->named, &ev->nnamed);
	if (len > EVIDENCE_TEXT_MAX)
		len = EVIDENCE_TEXT_MAX;
	scan_text(&sc, text, len);
	take_crash(ev, text, len);
	ev->syz_fs = prefix_syz_fs(text, len);
	{
		size_t i;

		for (i = 0; i < ev->nframes && ev->nmodules < EVIDENCE_LIST_MAX;
		     i++)
			if (ev->frames[i].module && !ev->frames[i].unreliable)
				hlist_add(&sc.modules, ev->frames[i].module,
					  strlen(ev->frames[i].module));
	}
	if (sc.distro &&
	    !distro_kernel_like(ev->kernel_version,
				ev->kernel_version ? strlen(ev->kernel_version)
						   : 0)) {
		ev->distro_kernel = sc.distro;
		sc.distro = NULL;
		if (!ev->kernel_version)
			ev->kernel_version = xstrdup(ev->distro_kernel);
	} else if (ev->kernel_version &&
		   distro_kernel_like(ev->kernel_version,
				      strlen(ev->kernel_version))) {
		ev->distro_kernel = xstrdup(ev->kernel_version);
	}
	free(sc.distro);
	free(sc.pk_cache);
	if (ev->hardware)
		ev->hw_virtual = virtual_hardware(ev->hardware);
	evidence_finish(ev);
	return ev;
}

/* evidence_extract_text - the evidence in a bare log or mail body */
struct evidence *evidence_extract_text(const char *text, size_t len)
{
	return extract(text ? text : "", text ? len : 0, NULL);
}

/* ---- subjects ------------------------------------------------------------ */

static const char *skip_spaces(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* evidence_subject_prefix - the subsystem prefix of a subject, or NULL */
char *evidence_subject_prefix(const char *subject)
{
	const char *p = skip_spaces(subject ? subject : "");
	char *syz = NULL;
	bool syzbot = false, reply;
	size_t n, i;

	for (;;) {
		if ((n = kind_subject_prefix(p, &reply))) {
			p = skip_spaces(p + n);
		} else if (*p == '[') {
			const char *e = strchr(p, ']');

			if (!e)
				break;
			if (starts_with(p, "[syzbot"))
				syzbot = true;
			else if (syzbot && !syz && e > p + 1) {
				/* "[syzbot] [xfs?] ..." */
				const char *b = p + 1, *q = e;

				if (q[-1] == '?')
					q--;
				for (i = 0;
				     b + i < q && (is_ident(b[i]) ||
						   b[i] == '-' || b[i] == '/');
				     i++)
					;
				if (b + i == q && q > b)
					syz = xmemdup0(b, (size_t)(q - b));
			}
			p = skip_spaces(e + 1);
		} else {
			break;
		}
	}
	if (syz)
		return syz;
	/* Bugzilla's "[Bug 221293] New: thunderbolt: ..." */
	if (!strncmp(p, "New: ", 5))
		p = skip_spaces(p + 5);
	/* "xfs: ...", "mm/slub: ...", "net: stmmac: ..." */
	for (n = 0; p[n] && (is_ident(p[n]) || p[n] == '/' || p[n] == '-' ||
			     p[n] == '.');
	     n++)
		;
	if (!n || n > 40 || p[n] != ':' || (p[n + 1] != ' ' && p[n + 1]))
		return NULL;
	if (!prefix_is_subsystem(p, n))
		return NULL;
	return xmemdup0(p, n);
}

/*
 * subject_names - the subject's words that may name a driver (names.h),
 * then its pairs of words ("bcm2835 spi", which symbols_resolve() keeps
 * when they name a module), before the text's, which they precede in
 * named[]
 */
static void subject_names(struct evidence *ev, const char *subject)
{
	char **old = ev->named;
	size_t nold = ev->nnamed, i;
	struct hlist h;

	ev->named = NULL;
	ev->nnamed = 0;
	hlist_init(&h, &ev->named, &ev->nnamed);
	names_in_subject(subject, named_add, &h);
	names_pairs_in_subject(subject, named_add, &h);
	ev->nnamed_subject = ev->nnamed;
	for (i = 0; i < nold; i++)
		hlist_add(&h, old[i], strlen(old[i]));
	list_free(old, nold);
}

/*
 * bz_field - the value of a bugzilla-daemon mail's "   Product: X"
 * line (the first 60 lines), or NULL
 */
static char *bz_field(const char *body, size_t len, const char *name)
{
	const char *p = body, *end = body + len;
	size_t nl = strlen(name), lines;

	for (lines = 0; p < end && lines < 60; lines++) {
		const char *e = memchr(p, '\n', (size_t)(end - p)), *q = p;

		if (!e)
			e = end;
		while (q < e && *q == ' ')
			q++;
		if ((size_t)(e - q) > nl + 2 && !memcmp(q, name, nl) &&
		    q[nl] == ':' && q[nl + 1] == ' ') {
			const char *v = q + nl + 2, *w = e;

			while (v < w && *v == ' ')
				v++;
			while (w > v && (w[-1] == ' ' || w[-1] == '\r'))
				w--;
			if (w > v && w - v < 64)
				return xmemdup0(v, (size_t)(w - v));
		}
		p = e + 1;
	}
	return NULL;
}

/* bugzilla - the product and component of a Bugzilla notification */
static void bugzilla(struct evidence *ev, const struct report *r)
{
	const char *hp = report_header(r, "X-Bugzilla-Product");
	const char *hc = report_header(r, "X-Bugzilla-Component");
	const char *subj = r->subject ? r->subject : "";

	if (hp && hc && *hp && *hc && strlen(hp) < 64 && strlen(hc) < 64) {
		ev->bz_product = xstrdup(hp);
		ev->bz_component = xstrdup(hc);
		return;
	}
	if (!starts_with(subj, "[Bug ") || !r->body)
		return;
	ev->bz_product = bz_field(r->body, r->body_len, "Product");
	ev->bz_component = bz_field(r->body, r->body_len, "Component");
	if (!ev->bz_product || !ev->bz_component) {
		free(ev->bz_product);
		free(ev->bz_component);
		ev->bz_product = ev->bz_component = NULL;
	}
}

/* ---- reports ----------------------------------------------------------- */

static bool addr_char(char c)
{
	return is_alnum(c) || c == '.' || c == '_' || c == '-' || c == '+' ||
	       c == '=' || c == '%' || c == '\'' || c == '/' || c == '~' ||
	       c == '!' || c == '#' || c == '$' || c == '&' || c == '*' ||
	       c == '^' || c == '`' || c == '{' || c == '|' || c == '}' ||
	       c == '?';
}

/*
 * recipients - the bare addresses of To: and Cc: headers, each once,
 * lower case, the sender's left out: every "local@domain" run in the
 * decoded header (a display name that is itself an address gives the
 * same address twice, kept once)
 */
static void recipients(struct evidence *ev, const struct report *r)
{
	static const char *const names[] = { "To", "Cc" };
	const char *from = r->from_addr ? r->from_addr : "";
	const char *vals[32];
	struct hlist h;
	size_t k, i, n;

	hlist_init(&h, &ev->recipients, &ev->nrecipients);
	for (k = 0; k < ARRAY_SIZE(names); k++) {
		n = report_header_all(r, names[k], vals, ARRAY_SIZE(vals));
		if (n > ARRAY_SIZE(vals))
			n = ARRAY_SIZE(vals);
		for (i = 0; i < n; i++) {
			const char *v = vals[i], *at = v;

			while ((at = strchr(at, '@'))) {
				const char *b = at, *e = at + 1, *dot;
				char buf[256];
				size_t len, j;

				while (b > v && addr_char(b[-1]))
					b--;
				while (*e &&
				       (is_alnum(*e) || *e == '.' || *e == '-'))
					e++;
				while (e > at + 1 && e[-1] == '.')
					e--;
				dot = memchr(at + 1, '.', (size_t)(e - at - 1));
				len = (size_t)(e - b);
				if (b == at || !dot || dot == at + 1 ||
				    len >= sizeof(buf)) {
					at++;
					continue;
				}
				at = e;
				for (j = 0; j < len; j++)
					buf[j] =
						(char)(b[j] >= 'A' && b[j] <= 'Z'
							       ? b[j] | 0x20
							       : b[j]);
				buf[len] = '\0';
				if (strcmp(buf, from) == 0)
					continue;
				if (ev->nrecipients < EVIDENCE_LIST_MAX)
					hlist_add(&h, buf, len);
			}
		}
		if (k == 0)
			ev->nrecipients_to = ev->nrecipients;
	}
}

static bool same_text(const struct report_part *part, const char *body,
		      size_t body_len)
{
	return part->text == body ||
	       (part->len == body_len && !memcmp(part->text, body, body_len));
}

/* evidence_extract - the evidence in every text part of a report */
struct evidence *evidence_extract(const struct report *r)
{
	return evidence_extract_logs(r, NULL);
}

struct evidence *evidence_extract_logs(const struct report *r,
				       const struct printk_index *pk)
{
	struct strbuf sb = STRBUF_INIT(EVIDENCE_TEXT_MAX);
	struct evidence *ev;
	const char *from = r->from_addr ? r->from_addr : "";
	const char *app = report_header(r, "X-Google-Appengine-App-Id");
	bool html_only = r->flags & REPORT_HTML_ONLY;
	bool c_attachment = false;
	size_t i;

	if (r->body && r->body_len)
		sb_add(&sb, r->body, r->body_len);
	for (i = 0; i < r->nparts; i++) {
		const struct report_part *part = &r->parts[i];

		if (!(part->flags & PART_TEXT) || !part->text)
			continue;
		if ((part->flags & PART_HTML) && !html_only)
			continue;
		if (r->body && same_text(part, r->body, r->body_len))
			continue;
		if (part->filename && ends_with(part->filename, ".c") &&
		    memmem(part->text, part->len, "main(", 5))
			c_attachment = true;
		if (sb.len && sb_add(&sb, "\n\n", 2))
			break;
		if (sb_add(&sb, part->text, part->len)) {
			/* keep what fits */
			sb_add(&sb, part->text, sb.max - sb.len);
			break;
		}
	}
	ev = extract(sb.buf ? sb.buf : "", sb.len, pk);
	sb_release(&sb);
	if (c_attachment)
		ev->reproducer |= REPRO_C;
	ev->subject_prefix = evidence_subject_prefix(r->subject);
	ev->subject_chain = prefix_chain(r->subject);
	ev->culprit_chain = prefix_culprit(r->body, r->body ? r->body_len : 0);
	ev->merged_tree = prefix_merged_tree(r->subject);
	subject_names(ev, r->subject);
	recipients(ev, r);
	bugzilla(ev, r);
	if ((strstr(from, "syzbot") &&
	     strstr(from, "syzkaller.appspotmail.com")) ||
	    (app && strstr(app, "syzkaller")) ||
	    strstr(r->subject ? r->subject : "", "[syzbot]"))
		ev->syzbot = true;
	return ev;
}

/* evidence_free - release everything */
void evidence_free(struct evidence *ev)
{
	size_t i;

	if (!ev)
		return;
	free(ev->title);
	free(ev->crash_type);
	for (i = 0; i < ev->nframes; i++) {
		free(ev->frames[i].function);
		free(ev->frames[i].module);
		free(ev->frames[i].file);
	}
	free(ev->frames);
	free(ev->guilty_file);
	free(ev->crash_guilty);
	free(ev->sig_guilty);
	free(ev->work_function);
	free(ev->work_file);
	free(ev->odebug_function);
	free(ev->odebug_file);
	list_free(ev->files, ev->nfiles);
	list_free(ev->functions, ev->nfunctions);
	list_free(ev->text_files, ev->ntext_files);
	list_free(ev->text_functions, ev->ntext_functions);
	list_free(ev->modules, ev->nmodules);
	list_free(ev->module_files, ev->nmodule_files);
	for (i = 0; ev->named_files && i < ev->nnamed; i++)
		free(ev->named_files[i]);
	free(ev->named_files);
	list_free(ev->named, ev->nnamed);
	for (i = 0; ev->text_function_files && i < ev->ntext_functions; i++)
		free(ev->text_function_files[i]);
	free(ev->text_function_files);
	free(ev->title_file);
	free(ev->kernel_version);
	free(ev->tainted);
	free(ev->hardware);
	free(ev->distro_kernel);
	free(ev->bisect_commit);
	list_free(ev->reported_by, ev->nreported_by);
	list_free(ev->tested_by, ev->ntested_by);
	free(ev->subject_prefix);
	free(ev->subject_chain);
	free(ev->culprit_chain);
	free(ev->merged_tree);
	free(ev->syz_fs);
	list_free(ev->recipients, ev->nrecipients);
	free(ev->bz_product);
	free(ev->bz_component);
	for (i = 0; i < ev->nlog_matches; i++) {
		free(ev->log_matches[i].call);
		list_free(ev->log_matches[i].files, ev->log_matches[i].nfiles);
	}
	free(ev->log_matches);
	free(ev);
}

/* evidence_guilty_file - syzkaller's guilty-file choice over a crash log */
char *evidence_guilty_file(const char *log, size_t len)
{
	struct crashlog *c = crashlog_parse(log, len);
	char *f;

	if (!c)
		return crashlog_guilty(
			"", log,
			len > EVIDENCE_TEXT_MAX ? EVIDENCE_TEXT_MAX : len);
	f = c->guilty_file;
	c->guilty_file = NULL;
	crashlog_free(c);
	return f;
}
