/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * util - diagnostics, exit policy and allocation that cannot fail silently
 *
 * DESCRIPTION
 *	The libc-only base layer every other module builds on (Postfix's
 *	util/ layer).  It knows nothing about mail or kernels.
 *
 *	Diagnostics go to stderr as "PROG: message".  A program sets its
 *	name and the status with which fatal errors exit: triage-filter
 *	sets EX_TEMPFAIL so that any failure defers the message instead of
 *	bouncing it to a possibly forged sender.  In quiet mode (the
 *	filter) at most one line is ever written, with directory names
 *	removed from paths, because the MTA pastes command output into the
 *	delivery status notification; every message also goes, whole, to
 *	syslog's mail facility.
 *
 * Ownership:
 *	x*alloc() and xstr*dup() never return NULL: on failure they call
 *	die() with the configured fatal status.
 *
 * Errors:
 *	error() prints and returns -1 so callers can "return error(...)".
 */
#ifndef TRIAGE_UTIL_H
#define TRIAGE_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#define NORETURN	  __attribute__((noreturn))

/* diagnostics and exit policy */
void msg_setup(const char *prog, int fatal_status, bool quiet);
const char *msg_prog(void);
int msg_fatal_status(void);
void warn(const char *fmt, ...) PRINTF_LIKE(1, 2);
int error(const char *fmt, ...) PRINTF_LIKE(1, 2);
NORETURN void die(const char *fmt, ...) PRINTF_LIKE(1, 2);
NORETURN void die_errno(const char *fmt, ...) PRINTF_LIKE(1, 2);

/* allocation */
void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
void *xreallocarray(void *p, size_t nmemb, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xmemdup0(const void *p, size_t n);
char *xasprintf(const char *fmt, ...) PRINTF_LIKE(1, 2);

/*
 * ALLOC_GROW - make room for nr + 1 elements in a doubling array
 * (git's idiom); alloc is updated in place.
 */
#define ALLOC_GROW(p, nr, alloc)                                         \
	do {                                                             \
		if ((nr) >= (alloc)) {                                   \
			(alloc) = (alloc) ? (alloc)*2 : 8;               \
			(p) = xreallocarray((p), (alloc), sizeof(*(p))); \
		}                                                        \
	} while (0)

/* files */
int read_file(const char *path, size_t max, char **out, size_t *len);
/*
 * util_read_fd - what fd holds to its end, NUL-terminated (the caller
 * frees), its length in *len; NULL when it holds nothing, more than max
 * bytes (a regular file's size is checked before anything is read) or a
 * read fails.  Silent (the filter reads the kernel tree with it: a file
 * missing or too large is "cannot tell", not an error); fd stays open.
 */
char *util_read_fd(int fd, size_t max, size_t *len);
int write_file_atomic(const char *path, const void *data, size_t len, int mode);
/*
 * root_refuses_dir - running as root, the directory of file is one
 * someone else can write: a symbolic link someone else made, owned by
 * someone else, or root's but writable by others or by a group that is
 * not root's (the old shared state directory, root:triage mode 2770;
 * issue 21): whoever can write there can make root's writes land
 * elsewhere.  Root's own directory writable by root (and the root
 * group) alone is accepted, and a sticky one (/tmp) for any file but
 * the database, triage.db (SQLite uses a -wal someone made there).  1 (an error printed, saying how to fix
 * it, errno EPERM), else 0.
 */
int root_refuses_dir(const char *file);
/*
 * root_become_dir_owner - running as root, the directory of file is
 * owned by another user (and is no symbolic link someone else made):
 * become that user, for good, before anything is opened there: the
 * supplementary groups set to the owner's (never root's), the group to
 * the directory's (the owner's primary when the directory's is root's),
 * then the user, each checked, and root checked to be gone (setuid(0)
 * fails).  1 when it became the owner, 0 when nothing was to be done
 * (not root, root's own directory, no such directory, a stranger's
 * link: root_refuses_dir() says), -1 on failure (an error printed;
 * the caller stops).
 */
int root_become_dir_owner(const char *file);
/*
 * root_refuses_link - running as root, file (triage.db) is a symbolic
 * link: SQLite would open what it names.  1 (an error printed, errno
 * EPERM), else 0.
 */
int root_refuses_link(const char *file);
bool is_dir(const char *path);
int mkdir_p(const char *path, int mode);

/* strings */
bool starts_with(const char *s, const char *prefix);
bool ends_with(const char *s, const char *suffix);
bool starts_with_ci(const char *s, const char *prefix);
char *trim(char *s);
void str_tolower(char *s);
size_t count_char(const char *s, size_t len, char c);
int parse_ulong(const char *s, unsigned long *out);
size_t edit_distance(const char *a, const char *b);
const char *nearest(const char *word, const char *const *cand, size_t n);
bool utf8_valid(const char *s, size_t len);

/*
 * Bounded compares of text that is not NUL-terminated, the bytes
 * [p, end): has_prefix(p, end, "lit"), has_prefix_ci() (ASCII case
 * folded) and has_suffix(start, end, "lit") never read at or past end,
 * whatever the literal's length.  Every fixed-length compare of
 * untrusted bytes goes through them: a hand-written "end - p > 2" before
 * memcmp(p, "[inline]", 8) read past a buffer (issue 25).
 */
static inline bool mem_has_prefix(const char *p, const char *end,
				  const char *lit, size_t n, bool ci)
{
	if (!p || p > end || (size_t)(end - p) < n)
		return false;
	return ci ? strncasecmp(p, lit, n) == 0 : memcmp(p, lit, n) == 0;
}

static inline bool has_prefix(const char *p, const char *end, const char *lit)
{
	return mem_has_prefix(p, end, lit, strlen(lit), false);
}

static inline bool has_prefix_ci(const char *p, const char *end,
				 const char *lit)
{
	return mem_has_prefix(p, end, lit, strlen(lit), true);
}

static inline bool has_suffix(const char *start, const char *end,
			      const char *lit)
{
	size_t n = strlen(lit);

	return start && start <= end && (size_t)(end - start) >= n &&
	       memcmp(end - n, lit, n) == 0;
}

/*
 * sorted_words_has - whether w is one of the n strings of list, which is
 * sorted by strcmp (a word table searched with bsearch)
 */
bool sorted_words_has(const char *const *list, size_t n, const char *w);

/* time */
double now_seconds(void);

#endif
