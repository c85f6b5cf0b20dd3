// SPDX-License-Identifier: GPL-2.0-only
/*
 * util - diagnostics, exit policy and allocation (see util.h)
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

static const char *prog = "triage";
static int fatal_status = 1;
static bool quiet;
static bool said;

/* msg_setup - name the program, choose the fatal exit status */
void msg_setup(const char *name, int status, bool q)
{
	prog = name;
	fatal_status = status;
	quiet = q;
	said = false;
	if (q)
		openlog(name, LOG_PID, LOG_MAIL);
}

const char *msg_prog(void)
{
	return prog;
}

int msg_fatal_status(void)
{
	return fatal_status;
}

/*
 * redact_paths - "cannot open '/var/lib/triage/triage.db'" becomes
 * "cannot open 'triage.db'": the MTA may paste our one line into a
 * bounce to a stranger after days of deferral
 */
static void redact_paths(char *buf)
{
	char *r = buf, *w = buf;
	char prev = ' ';

	while (*r) {
		if (*r == '/' && (prev == ' ' || prev == '\'' || prev == '"' ||
				  prev == '(')) {
			char *end = r, *last = r;

			while (*end && *end != ' ' && *end != '\'' &&
			       *end != '"' && *end != ')' && *end != ':') {
				if (*end == '/')
					last = end + 1;
				end++;
			}
			while (last < end)
				*w++ = *last++;
			prev = end[-1];
			r = end;
			continue;
		}
		prev = *r;
		*w++ = *r++;
	}
	*w = '\0';
}

static void vreport(const char *prefix, const char *fmt, va_list ap, int errnum)
	__attribute__((format(printf, 2, 0)));
static void vreport(const char *prefix, const char *fmt, va_list ap, int errnum)
{
	char buf[1024];
	char *p;

	vsnprintf(buf, sizeof(buf), fmt, ap);
	/* Never let a newline or control character from data escape. */
	for (p = buf; *p; p++)
		if ((unsigned char)*p < 0x20 && *p != '\t')
			*p = ' ';
	if (quiet) {
		/*
		 * The MTA pastes our output into its log and, after the
		 * queue lifetime, into a bounce: one line, no directory
		 * names.  The details go, whole, to the mail log.
		 */
		if (errnum)
			syslog(LOG_MAIL | LOG_ERR, "%s%s: %s", prefix, buf,
			       strerror(errnum));
		else
			syslog(LOG_MAIL | LOG_ERR, "%s%s", prefix, buf);
		if (said)
			return;
		redact_paths(buf);
	}
	said = true;
	if (errnum)
		fprintf(stderr, "%s: %s%s: %s\n", prog, prefix, buf,
			strerror(errnum));
	else
		fprintf(stderr, "%s: %s%s\n", prog, prefix, buf);
}

/* warn - report a problem and carry on */
void warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap, 0);
	va_end(ap);
}

/* error - report a problem and return -1 */
int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap, 0);
	va_end(ap);
	return -1;
}

/* die - report and exit with the program's fatal status */
void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap, 0);
	va_end(ap);
	exit(fatal_status);
}

/* die_errno - like die(), with strerror(errno) appended */
void die_errno(const char *fmt, ...)
{
	va_list ap;
	int e = errno;

	va_start(ap, fmt);
	vreport("", fmt, ap, e);
	va_end(ap);
	exit(fatal_status);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory allocating %zu bytes", n);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		die("out of memory allocating %zu x %zu bytes", nmemb, size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		die("out of memory allocating %zu bytes", n);
	return q;
}

void *xreallocarray(void *p, size_t nmemb, size_t size)
{
	if (size && nmemb > SIZE_MAX / size)
		die("allocation size overflow (%zu x %zu)", nmemb, size);
	return xrealloc(p, nmemb * size);
}

char *xstrdup(const char *s)
{
	return xmemdup0(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	const char *end = memchr(s, '\0', n);

	return xmemdup0(s, end ? (size_t)(end - s) : n);
}

char *xmemdup0(const void *p, size_t n)
{
	char *s;

	if (n == SIZE_MAX)
		die("allocation size overflow");
	s = xmalloc(n + 1);
	memcpy(s, p, n);
	s[n] = '\0';
	return s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	int n;
	char *s;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		die("formatting failed");
	s = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

/*
 * read_file - read a whole file into a NUL-terminated buffer
 *
 * Fails (with a message) when the file is larger than max bytes.
 */
int read_file(const char *path, size_t max, char **out, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t n = 0, alloc = 0;
	char *buf = NULL;
	ssize_t r;

	if (fd < 0)
		return error("cannot open '%s': %s", path, strerror(errno));
	for (;;) {
		if (n + 1 >= alloc) {
			if (alloc > max + 1) {
				free(buf);
				close(fd);
				return error("'%s' is larger than %zu bytes",
					     path, max);
			}
			alloc = alloc ? alloc * 2 : 65536;
			buf = xrealloc(buf, alloc);
		}
		r = read(fd, buf + n, alloc - n - 1);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			free(buf);
			close(fd);
			return error("cannot read '%s': %s", path,
				     strerror(errno));
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n > max) {
			free(buf);
			close(fd);
			return error("'%s' is larger than %zu bytes", path,
				     max);
		}
	}
	close(fd);
	buf[n] = '\0';
	*out = buf;
	if (len)
		*len = n;
	return 0;
}

char *util_read_fd(int fd, size_t max, size_t *len)
{
	struct stat st;
	size_t n = 0, alloc;
	char *buf;

	if (fd < 0 || !max || max >= SIZE_MAX / 2 || fstat(fd, &st) < 0)
		return NULL;
	if (S_ISREG(st.st_mode) &&
	    (st.st_size <= 0 || (unsigned long long)st.st_size > max))
		return NULL;
	alloc = S_ISREG(st.st_mode) ? (size_t)st.st_size + 1 : 4096;
	if (alloc > max + 1)
		alloc = max + 1;
	buf = xmalloc(alloc);
	for (;;) {
		ssize_t r;

		if (n + 1 == alloc) {
			char extra;

			/*
			 * full, or a regular file read to its size: one byte
			 * more tells the end from a file over max (or one
			 * that grew) without doubling the buffer to see it
			 */
			if (alloc == max + 1 ||
			    (S_ISREG(st.st_mode) && n == (size_t)st.st_size)) {
				do
					r = read(fd, &extra, 1);
				while (r < 0 && errno == EINTR);
				if (r == 0)
					break;
				if (r < 0 || alloc == max + 1) {
					free(buf);
					return NULL;
				}
			}
			alloc = alloc > (max + 1) / 2 ? max + 1 : alloc * 2;
			buf = xrealloc(buf, alloc);
			if (S_ISREG(st.st_mode) && n == (size_t)st.st_size)
				buf[n++] = extra; /* the file grew */
			continue;
		}
		r = read(fd, buf + n, alloc - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(buf);
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (!n) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

/*
 * write_file_atomic - write to a temporary file, fsync, rename
 *
 * Readers see either the old or the new file, never a torn one.  The
 * temporary file is a new one mkostemp() makes in the target's
 * directory (O_EXCL: never an existing file, and never through a
 * symbolic link someone planted at its name, which a predictable name
 * let a group member of a shared state directory aim at any file root
 * would then overwrite); rename() replaces the target itself, a link
 * included, never what it points to.  The directory is synced after
 * the rename, so that the new name survives a crash.
 */
/* dir_of - file's directory, with no trailing '/' (caller frees) */
static char *dir_of(const char *file)
{
	char *dir = xstrdup(file), *slash = strrchr(dir, '/');

	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	else
		strcpy(dir, ".");
	/* a trailing '/' would follow the link: look at the name itself */
	while (strlen(dir) > 1 && dir[strlen(dir) - 1] == '/')
		dir[strlen(dir) - 1] = '\0';
	return dir;
}

int root_refuses_dir(const char *file)
{
	char *dir;
	struct stat ls, sb;
	const char *why = NULL, *fix, *base = strrchr(file, '/');
	bool db;

	if (geteuid() != 0)
		return 0;
	dir = dir_of(file);
	/*
	 * The state directory, known by its database: SQLite makes the
	 * -wal, -shm and journal beside it, and uses such a file someone
	 * made there first, sticky bit or not
	 */
	db = !strcmp(base ? base + 1 : file, "triage.db");
	/*
	 * Root writes only into a directory nobody else can write: its
	 * own, not writable by others, nor by its group unless that is
	 * root's group too (issue 21).  Whoever else can write there
	 * could swap a file for a link between root's checks and its use
	 * of it, or leave a file (a -wal) root would read as its own.
	 * A sticky one (/tmp) is left to other files root writes (by
	 * mkostemp() and rename(): nobody else can rename or remove them),
	 * not to the state directory.
	 * The triage commands, run as root in a directory someone else
	 * owns, first become its owner (root_become_dir_owner()); the
	 * filter, run by the MTA, never is root.
	 */
	fix = "run this as the directory's owner";
	if (lstat(dir, &ls) == 0 && S_ISLNK(ls.st_mode) && ls.st_uid != 0)
		why = "a symbolic link someone else made";
	else if (stat(dir, &sb) == 0 && sb.st_uid != 0)
		why = sb.st_mode & S_IWOTH
			      ? "world-writable, owned by someone else"
		      : sb.st_mode & S_IWGRP
			      ? "group-writable, owned by someone else"
			      : "owned by someone else";
	else if (stat(dir, &sb) == 0 &&
		 ((sb.st_mode & S_IWOTH) ||
		  ((sb.st_mode & S_IWGRP) && sb.st_gid != 0)) &&
		 (db || !(sb.st_mode & S_ISVTX))) {
		why = sb.st_mode & S_IWOTH ? "root's, world-writable"
					   : "root's, group-writable";
		fix = "chown it to a dedicated user (e.g. 'chown triage'), "
		      "whom the triage commands run as root then become, "
		      "or make it writable by root alone";
	}
	if (why) {
		error("refusing to write as root into '%s': %s (%s)", dir, why,
		      fix);
		errno = EPERM;
	}
	free(dir);
	return why ? 1 : 0;
}

/* root_groups - owner's groups, gid first, never root's (0) */
static int root_groups(const struct passwd *pw, gid_t gid, gid_t *groups,
		       int max)
{
	gid_t all[256];
	int n = (int)ARRAY_SIZE(all), i, k = 0;

	groups[k++] = gid;
	if (!pw || getgrouplist(pw->pw_name, gid, all, &n) < 0)
		return k;
	for (i = 0; i < n && k < max; i++)
		if (all[i] != 0 && all[i] != gid)
			groups[k++] = all[i];
	return k;
}

int root_become_dir_owner(const char *file)
{
	struct stat ls, sb;
	struct passwd *pw;
	gid_t groups[64];
	char *dir;
	uid_t uid;
	gid_t gid;
	int n;

	if (geteuid() != 0)
		return 0;
	dir = dir_of(file);
	/* a stranger's link is refused (root_refuses_dir()), not followed */
	if ((lstat(dir, &ls) == 0 && S_ISLNK(ls.st_mode) && ls.st_uid != 0) ||
	    stat(dir, &sb) != 0 || sb.st_uid == 0) {
		free(dir);
		return 0;
	}
	uid = sb.st_uid;
	pw = getpwuid(uid);
	/* the directory's group, or its owner's when that is root's */
	gid = sb.st_gid != 0 ? sb.st_gid : pw ? pw->pw_gid : 0;
	if (gid == 0) {
		error("refusing to become the owner of '%s' (uid %lu): its "
		      "group is root's; chgrp it to the triagers' group",
		      dir, (unsigned long)uid);
		free(dir);
		errno = EPERM;
		return -1;
	}
	n = root_groups(pw, gid, groups, (int)ARRAY_SIZE(groups));
	if (setgroups((size_t)n, groups) < 0 || setgid(gid) < 0 ||
	    setuid(uid) < 0) {
		error("cannot become the owner of '%s' (uid %lu, gid %lu): %s",
		      dir, (unsigned long)uid, (unsigned long)gid,
		      strerror(errno));
		free(dir);
		return -1;
	}
	/* checked: root is gone for good */
	if (setuid(0) == 0 || seteuid(0) == 0 || setgid(0) == 0 ||
	    getuid() != uid || geteuid() != uid || getgid() != gid ||
	    getegid() != gid) {
		error("became uid %lu for '%s', but root could come back: "
		      "stopping",
		      (unsigned long)uid, dir);
		free(dir);
		errno = EPERM;
		return -1;
	}
	free(dir);
	return 1;
}

int root_refuses_link(const char *file)
{
	struct stat ls;

	if (geteuid() != 0 || lstat(file, &ls) != 0 || !S_ISLNK(ls.st_mode))
		return 0;
	error("refusing to open '%s' as root: a symbolic link (whoever made "
	      "it chooses what root writes; put the file itself there)",
	      file);
	errno = EPERM;
	return 1;
}

int write_file_atomic(const char *path, const void *data, size_t len, int mode)
{
	char *tmp, *dir, *slash;
	const char *p = data;
	int fd, dfd;

	if (root_refuses_dir(path))
		return -1;
	tmp = xasprintf("%s.tmp.XXXXXX", path);
	fd = mkostemp(tmp, O_CLOEXEC | O_NOFOLLOW);

	if (fd < 0) {
		error("cannot create '%s': %s", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		p += w;
		len -= (size_t)w;
	}
	if (fchmod(fd, (mode_t)mode) < 0 || fsync(fd) < 0)
		goto fail;
	if (close(fd) < 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path) < 0)
		goto fail;
	free(tmp);
	dir = xstrdup(path);
	slash = strrchr(dir, '/');
	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	dfd = open(slash ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	free(dir);
	return 0;
fail:
	error("cannot write '%s': %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	free(tmp);
	return -1;
}

bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* mkdir_p - create a directory and its parents */
int mkdir_p(const char *path, int mode)
{
	char buf[PATH_MAX];
	size_t i, n = strlen(path);

	if (n >= sizeof(buf))
		return error("path too long: '%s'", path);
	memcpy(buf, path, n + 1);
	for (i = 1; i <= n; i++) {
		if (buf[i] != '/' && buf[i] != '\0')
			continue;
		buf[i] = '\0';
		if (mkdir(buf, (mode_t)mode) < 0 && errno != EEXIST)
			return error("cannot create '%s': %s", buf,
				     strerror(errno));
		buf[i] = path[i];
	}
	return 0;
}

bool starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && memcmp(s + a - b, suffix, b) == 0;
}

bool starts_with_ci(const char *s, const char *prefix)
{
	return strncasecmp(s, prefix, strlen(prefix)) == 0;
}

/* trim - strip leading and trailing white space in place */
char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' ||
			 e[-1] == '\n'))
		*--e = '\0';
	return s;
}

void str_tolower(char *s)
{
	for (; *s; s++)
		if (*s >= 'A' && *s <= 'Z')
			*s = (char)(*s - 'A' + 'a');
}

size_t count_char(const char *s, size_t len, char c)
{
	size_t n = 0, i;

	for (i = 0; i < len; i++)
		n += s[i] == c;
	return n;
}

/* parse_ulong - strict decimal parse; -1 on junk or overflow */
int parse_ulong(const char *s, unsigned long *out)
{
	char *end;
	unsigned long v;

	if (!s || !*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

/* utf8_valid - true when s[0..len) is well-formed UTF-8 */
bool utf8_valid(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		unsigned char c = p[i];
		size_t n, k;
		uint32_t cp;

		if (c < 0x80) {
			i++;
			continue;
		} else if ((c & 0xe0) == 0xc0) {
			n = 1;
			cp = c & 0x1f;
		} else if ((c & 0xf0) == 0xe0) {
			n = 2;
			cp = c & 0x0f;
		} else if ((c & 0xf8) == 0xf0) {
			n = 3;
			cp = c & 0x07;
		} else {
			return false;
		}
		for (k = 1; k <= n; k++) {
			if (i + k >= len || (p[i + k] & 0xc0) != 0x80)
				return false;
			cp = (cp << 6) | (p[i + k] & 0x3f);
		}
		if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) ||
		    (n == 3 && (cp < 0x10000 || cp > 0x10ffff)) ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return false;
		i += n + 1;
	}
	return true;
}

double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#define EDIT_MAX 64

/*
 * edit_distance - the fewest insertions, deletions, substitutions and
 * swaps of two neighbours that turn a into b (optimal string alignment,
 * as git's levenshtein.c); words longer than EDIT_MAX are SIZE_MAX away
 */
size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t d[EDIT_MAX + 1][EDIT_MAX + 1];

	if (la > EDIT_MAX || lb > EDIT_MAX)
		return SIZE_MAX;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[la][lb];
}

/*
 * nearest - the candidate a typo of word would be: the first at the
 * fewest edits, at most one edit for a word of up to four letters and
 * two for a longer one; NULL when none is that near
 */
const char *nearest(const char *word, const char *const *cand, size_t n)
{
	size_t limit = strlen(word) <= 4 ? 1 : 2, best = SIZE_MAX, i;
	const char *found = NULL;

	for (i = 0; i < n; i++) {
		size_t d = edit_distance(word, cand[i]);

		if (d <= limit && d < best) {
			best = d;
			found = cand[i];
		}
	}
	return found;
}

static int cmp_word(const void *a, const void *b)
{
	return strcmp(a, *(const char *const *)b);
}

bool sorted_words_has(const char *const *list, size_t n, const char *w)
{
	return bsearch(w, list, n, sizeof(*list), cmp_word) != NULL;
}
