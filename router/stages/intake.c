// SPDX-License-Identifier: GPL-2.0-only
/*
 * intake - read one message, cap it, name it by its hash (see intake.h)
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "hash.h"
#include "hashmap.h"
#include "intake.h"
#include "sha256.h"
#include "util.h"

#define INTAKE_DRAIN_BYTES 65536 /* what is read at a time past the cap */

/* intake_limits_init - the compiled-in defaults */
void intake_limits_init(struct intake_limits *lim)
{
	lim->max_bytes = INTAKE_MAX_BYTES;
	lim->max_headers = INTAKE_MAX_HEADERS;
	lim->max_header_line = INTAKE_MAX_HEADER_LINE;
	lim->max_boundaries = INTAKE_MAX_BOUNDARIES;
	lim->max_part_headers = INTAKE_MAX_PART_HEADERS;
	lim->max_dash_lines = INTAKE_MAX_DASH_LINES;
	lim->max_depth = INTAKE_MAX_DEPTH;
}

static const struct intake_limits *limits_or_default(
	const struct intake_limits *lim, struct intake_limits *buf)
{
	if (lim)
		return lim;
	intake_limits_init(buf);
	return buf;
}

/* ---- lines ------------------------------------------------------------ */

struct line {
	const char *p; /* start */
	size_t len;    /* without "\n" and a "\r" before it */
	size_t next;   /* offset of the next line */
};

static bool next_line(const char *buf, size_t len, size_t pos, struct line *l)
{
	const char *nl;

	if (pos >= len)
		return false;
	l->p = buf + pos;
	nl = memchr(l->p, '\n', len - pos);
	if (nl) {
		l->len = (size_t)(nl - l->p);
		l->next = (size_t)(nl - buf) + 1;
	} else {
		l->len = len - pos;
		l->next = len;
	}
	if (l->len && l->p[l->len - 1] == '\r')
		l->len--;
	return true;
}

/* field_name_len - length of "Name" when the line is "Name:" or "Name :" */
static size_t field_name_len(const char *p, size_t n)
{
	size_t i = 0, name;

	while (i < n && (unsigned char)p[i] > 32 && (unsigned char)p[i] < 127 &&
	       p[i] != ':')
		i++;
	if (i == 0)
		return 0;
	name = i;
	while (i < n && (p[i] == ' ' || p[i] == '\t'))
		i++;
	return i < n && p[i] == ':' ? name : 0;
}

static bool is_continuation(const struct line *l)
{
	return l->len && (l->p[0] == ' ' || l->p[0] == '\t');
}

static bool known_header(const char *p, size_t n)
{
	static const char *const names[] = {
		"from",		"to",		"cc",		"subject",
		"date",		"message-id",	"received",	"return-path",
		"sender",	"reply-to",	"in-reply-to",	"references",
		"mime-version", "content-type", "delivered-to", "x-original-to",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (strlen(names[i]) == n && has_prefix_ci(p, p + n, names[i]))
			return true;
	return false;
}

/* contains_ci - does p[0..n) hold the lower-case word w (any case)? */
static bool contains_ci(const char *p, size_t n, const char *w)
{
	size_t wl = strlen(w), i;

	for (i = 0; i + wl <= n; i++)
		if ((p[i] | 0x20) == w[0] && has_prefix_ci(p + i, p + n, w))
			return true;
	return false;
}

/* intake_from_line - length of a leading mbox "From " line, or 0 */
size_t intake_from_line(const char *buf, size_t len)
{
	const char *nl;
	size_t n = len < INTAKE_FROM_LINE_MAX ? len : INTAKE_FROM_LINE_MAX;

	if (!has_prefix(buf, buf + len, "From "))
		return 0;
	nl = memchr(buf, '\n', n);
	return nl ? (size_t)(nl - buf) + 1 : 0;
}

/* ---- declared boundaries ---------------------------------------------- */

/* A longer boundary is learnt and matched by its first BOUNDARY_MAX bytes. */
#define BOUNDARY_MAX 256

struct bset {
	char **v; /* the boundaries, in the order learnt */
	size_t *len;
	size_t n, max;
	struct hashmap map;
};

struct bkey {
	const char *p;
	size_t n;
};

static bool bset_equal(const void *data, uint32_t id, const void *key)
{
	const struct bset *b = data;
	const struct bkey *k = key;

	return b->len[id] == k->n && memcmp(b->v[id], k->p, k->n) == 0;
}

static void bset_init(struct bset *b, size_t max)
{
	b->v = xcalloc(max + 1, sizeof(*b->v));
	b->len = xcalloc(max + 1, sizeof(*b->len));
	b->n = 0;
	b->max = max;
	hashmap_init(&b->map, bset_equal, b, 0);
}

static void bset_release(struct bset *b)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		free(b->v[i]);
	free(b->v);
	free(b->len);
	hashmap_release(&b->map);
}

static bool bset_has(const struct bset *b, const char *p, size_t n)
{
	struct bkey k = { p, n };

	return hashmap_get(&b->map, hash_mem(p, n), &k) != HASHMAP_NONE;
}

/* bset_add - 1 when added, 0 when present, -1 when the set is full */
static int bset_add(struct bset *b, const char *p, size_t n)
{
	struct bkey k = { p, n };
	uint32_t h = hash_mem(p, n);

	if (hashmap_get(&b->map, h, &k) != HASHMAP_NONE)
		return 0;
	if (b->n >= b->max)
		return -1;
	b->v[b->n] = xmemdup0(p, n);
	b->len[b->n] = n;
	hashmap_add(&b->map, h, (uint32_t)b->n++);
	return 1;
}

/* ---- nesting ---------------------------------------------------------- */

/*
 * The containers open at a line: a multipart is open from the header that
 * declares its boundary to its "--B--" line (or to a boundary of a
 * container outside it); a message/rfc822 part from its own headers to
 * the next boundary of a container outside it.  The depth is the number
 * open; nest_push() refuses to go past INTAKE_MAX_DEPTH (lim->max_depth).
 */
struct nest_level {
	char b[BOUNDARY_MAX]; /* the boundary; n == 0: a message/rfc822 */
	size_t n;
};

struct nest {
	struct nest_level *lv;
	size_t depth, max, deepest;
};

static void nest_init(struct nest *t, size_t max)
{
	t->lv = xcalloc(max + 1, sizeof(*t->lv));
	t->depth = t->deepest = 0;
	t->max = max;
}

/* nest_push - open a container (n == 0: a message); -1 past the limit */
static int nest_push(struct nest *t, const char *b, size_t n)
{
	if (n > BOUNDARY_MAX)
		n = BOUNDARY_MAX;
	if (t->depth >= t->max) {
		t->deepest = t->max + 1;
		return -1;
	}
	memcpy(t->lv[t->depth].b, b, n);
	t->lv[t->depth].n = n;
	if (++t->depth > t->deepest)
		t->deepest = t->depth;
	return 0;
}

/*
 * nest_boundary - a "--B" (kind 1) or "--B--" (kind 2) line: close what
 * is inside B's multipart, and with kind 2 the multipart too
 */
static void nest_boundary(struct nest *t, const struct line *l, int kind)
{
	const char *p = l->p + 2;
	size_t n = l->len - 2, k;

	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	if (kind == 2 && n >= 2)
		n -= 2;
	if (n > BOUNDARY_MAX)
		n = BOUNDARY_MAX;
	for (k = t->depth; k-- > 0;) {
		if (t->lv[k].n == n && memcmp(t->lv[k].b, p, n) == 0) {
			t->depth = kind == 2 ? k : k + 1;
			return;
		}
	}
}

/*
 * learn_boundaries - add every boundary= value on a header line, and
 * open its multipart in nest (may be NULL); returns -1 when the set
 * overflowed, -2 when the nesting did.
 */
static int learn_boundaries(struct bset *b, const char *p, size_t n,
			    struct nest *nest)
{
	size_t i = 0;
	int ret = 0;

	while (i + 8 < n) {
		char val[BOUNDARY_MAX];
		size_t j, vl = 0;

		if ((p[i] | 0x20) != 'b' ||
		    !has_prefix_ci(p + i, p + n, "boundary")) {
			i++;
			continue;
		}
		j = i + 8;
		i = j;
		while (j < n && (p[j] == ' ' || p[j] == '\t'))
			j++;
		if (j >= n || p[j] != '=')
			continue;
		j++;
		while (j < n && (p[j] == ' ' || p[j] == '\t'))
			j++;
		if (j < n && p[j] == '"') {
			for (j++; j < n && p[j] != '"'; j++) {
				if (p[j] == '\\' && j + 1 < n)
					j++;
				if (vl < sizeof(val))
					val[vl++] = p[j];
			}
		} else {
			for (; j < n && p[j] != ';' && p[j] != ' ' &&
			       p[j] != '\t';
			     j++)
				if (vl < sizeof(val))
					val[vl++] = p[j];
		}
		i = j;
		if (vl && bset_add(b, val, vl) < 0)
			ret = -1;
		if (vl && nest && nest_push(nest, val, vl) < 0)
			ret = ret ? ret : -2;
	}
	return ret;
}

/* boundary_kind - 1 "--B", 2 "--B--" for a declared B, else 0 */
static int boundary_kind(const struct bset *b, const struct line *l)
{
	const char *p = l->p + 2;
	size_t n = l->len - 2;

	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	if (!n || b->n == 0)
		return 0;
	if (n > BOUNDARY_MAX) {
		/* only a prefix of a long boundary was learnt */
		if (!bset_has(b, p, BOUNDARY_MAX))
			return 0;
		return p[n - 1] == '-' && p[n - 2] == '-' ? 2 : 1;
	}
	if (bset_has(b, p, n))
		return 1;
	if (n > 2 && p[n - 1] == '-' && p[n - 2] == '-' &&
	    bset_has(b, p, n - 2))
		return 2;
	return 0;
}

/* ---- the pre-scan ----------------------------------------------------- */

static bool is_nested_message(const char *p, size_t n)
{
	return contains_ci(p, n, "message/rfc822") ||
	       contains_ci(p, n, "message/global") ||
	       contains_ci(p, n, "message/news");
}

/*
 * in_content_type - whether this header line belongs to a Content-Type
 * field (its first line or a continuation); *ct carries the state.
 */
static bool in_content_type(const struct line *l, bool *ct)
{
	size_t name;

	if (!is_continuation(l)) {
		name = field_name_len(l->p, l->len);
		*ct = name == 12 &&
		      has_prefix_ci(l->p, l->p + name, "content-type");
	}
	return *ct;
}

static void cut(struct intake_scan *s, unsigned cap, size_t at)
{
	if (at < s->safe_len)
		s->safe_len = at;
	s->caps |= cap;
}

/*
 * scan_header - the top-level header block: count, measure, decide
 * whether this is mail at all, and learn its boundary.  Returns the
 * offset of the body.
 */
static size_t scan_header(const char *buf, size_t len,
			  const struct intake_limits *lim, struct bset *b,
			  struct nest *nest, struct intake_scan *s,
			  bool *nested)
{
	struct line l;
	size_t pos = 0, name;
	bool known = false, ct = false;

	*nested = false;
	if (!next_line(buf, len, 0, &l) || !field_name_len(l.p, l.len))
		return 0;
	for (; next_line(buf, len, pos, &l); pos = l.next) {
		if (l.len == 0) {
			pos = l.next;
			break;
		}
		s->header_lines++;
		if (l.len > s->longest_line)
			s->longest_line = l.len;
		if (s->header_lines > lim->max_headers)
			s->caps |= INTAKE_CAP_HEADERS;
		if (l.len > lim->max_header_line)
			s->caps |= INTAKE_CAP_HEADER_LINE;
		if (!is_continuation(&l)) {
			name = field_name_len(l.p, l.len);
			if (name && known_header(l.p, name))
				known = true;
		}
		/* only the part gmime will see can declare structure */
		if (s->header_lines > lim->max_headers ||
		    l.len > lim->max_header_line || !in_content_type(&l, &ct))
			continue;
		if (contains_ci(l.p, l.len, "multipart/") ||
		    contains_ci(l.p, l.len, "message/"))
			s->structured = true;
		if (is_nested_message(l.p, l.len))
			*nested = true;
		if (learn_boundaries(b, l.p, l.len, nest) == -1)
			s->caps |= INTAKE_CAP_BOUNDARIES;
	}
	s->is_mail = known;
	return pos;
}

/* intake_scan - the cheap pass that decides what gmime may see */
void intake_scan(const char *buf, size_t len, const struct intake_limits *lim,
		 struct intake_scan *s)
{
	struct intake_limits dflt;
	struct bset b;
	struct nest nest;
	struct line l;
	size_t pos;
	bool in_headers, nested_next = false, ct = false;

	lim = limits_or_default(lim, &dflt);
	memset(s, 0, sizeof(*s));
	bset_init(&b, lim->max_boundaries);
	nest_init(&nest, lim->max_depth);

	pos = scan_header(buf, len, lim, &b, &nest, s, &in_headers);
	if (!s->is_mail) {
		/* a console log: parse never gives it to gmime */
		memset(s, 0, sizeof(*s));
		s->safe_len = len;
		bset_release(&b);
		free(nest.lv);
		return;
	}
	s->body_offset = pos;
	if (s->caps & INTAKE_CAP_BOUNDARIES)
		s->safe_len = pos; /* boundary flood in the top header */
	else
		s->safe_len = len;
	/* a top-level message/rfc822: its headers start the body */
	if (in_headers && nest_push(&nest, "", 0) < 0)
		cut(s, INTAKE_CAP_DEPTH, pos);

	for (; next_line(buf, len, pos, &l); pos = l.next) {
		size_t at = (size_t)(l.p - buf);
		int kind;

		if (l.len >= 2 && l.p[0] == '-' && l.p[1] == '-') {
			if (s->structured &&
			    ++s->dash_lines > lim->max_dash_lines)
				cut(s, INTAKE_CAP_DASH_LINES, at);
			kind = boundary_kind(&b, &l);
			if (kind) {
				if (++s->boundaries > lim->max_boundaries)
					cut(s, INTAKE_CAP_BOUNDARIES, at);
				if (!s->caps || at < s->safe_len)
					nest_boundary(&nest, &l, kind);
				in_headers = kind == 1;
				nested_next = false;
				continue;
			}
		}
		if (!in_headers)
			continue;
		if (l.len == 0) {
			/* a message/rfc822 part: its own headers follow */
			in_headers = nested_next;
			nested_next = false;
			if (in_headers && (!s->caps || at < s->safe_len) &&
			    nest_push(&nest, "", 0) < 0)
				cut(s, INTAKE_CAP_DEPTH, at);
			continue;
		}
		if (++s->part_headers > lim->max_part_headers)
			cut(s, INTAKE_CAP_PART_HEADERS, at);
		if (l.len > lim->max_header_line)
			cut(s, INTAKE_CAP_HEADER_LINE, at);
		if ((s->caps && at >= s->safe_len) || !in_content_type(&l, &ct))
			continue; /* past a cut, or not Content-Type */
		if (is_nested_message(l.p, l.len))
			nested_next = true;
		switch (learn_boundaries(&b, l.p, l.len, &nest)) {
		case -1:
			cut(s, INTAKE_CAP_BOUNDARIES, at);
			break;
		case -2:
			cut(s, INTAKE_CAP_DEPTH, at);
			break;
		}
	}
	s->declared = b.n;
	s->depth = nest.deepest;
	bset_release(&b);
	free(nest.lv);
}

/*
 * intake_sanitize - the bounded copy of an over-cap message: at most
 * max_headers header lines, each cut at max_header_line, a blank line,
 * then the body up to s->safe_len.
 */
char *intake_sanitize(const char *buf, size_t len,
		      const struct intake_limits *lim,
		      const struct intake_scan *s, size_t *out_len)
{
	struct intake_limits dflt;
	struct line l;
	size_t pos = 0, nlines = 0, n = 0, body, end, cap;
	char *out;

	lim = limits_or_default(lim, &dflt);
	body = s->body_offset < len ? s->body_offset : len;
	end = s->safe_len < len ? s->safe_len : len;
	if (end < body)
		end = body;
	/* kept header lines are never longer than they were, plus "\n" */
	cap = body + 2;
	out = xmalloc(cap + (end - body) + 1);
	for (; pos < body && next_line(buf, body, pos, &l); pos = l.next) {
		size_t keep = l.len;

		if (l.len == 0 || nlines++ >= lim->max_headers)
			break;
		if (keep > lim->max_header_line)
			keep = lim->max_header_line;
		memcpy(out + n, l.p, keep);
		n += keep;
		out[n++] = '\n';
	}
	out[n++] = '\n';
	memcpy(out + n, buf + body, end - body);
	n += end - body;
	out[n] = '\0';
	*out_len = n;
	return out;
}

/* ---- why a report is oversize ------------------------------------------ */

static void why_add(char *buf, size_t size, size_t *n, const char *what,
		    size_t limit, const char *unit)
{
	int w;

	if (*n >= size)
		return;
	w = snprintf(buf + *n, size - *n, "%s%s %zu%s",
		     *n > strlen("oversize: ") ? "; " : "", what, limit, unit);
	if (w > 0)
		*n += (size_t)w;
}

/* intake_why - which limits r is over (INTAKE_CAP_*), named in buf */
unsigned intake_why(const struct report *r, const struct intake_limits *lim,
		    char *buf, size_t size)
{
	struct intake_limits dflt;
	struct intake_scan s;
	unsigned caps;
	size_t n;

	lim = limits_or_default(lim, &dflt);
	memset(&s, 0, sizeof(s));
	if (r->raw && !(r->flags & REPORT_NOT_MIME))
		intake_scan(r->raw, r->raw_len, lim, &s);
	caps = s.caps;
	if (r->raw_len >= lim->max_bytes)
		caps |= INTAKE_CAP_SIZE;
	if (!size)
		return caps;
	n = (size_t)snprintf(buf, size, "oversize: ");
	if (n >= size)
		return caps;
	if (caps & INTAKE_CAP_SIZE)
		why_add(buf, size, &n, "message cut at", lim->max_bytes,
			" bytes");
	if (caps & INTAKE_CAP_HEADERS)
		why_add(buf, size, &n, "more header lines than",
			lim->max_headers, "");
	if (caps & INTAKE_CAP_HEADER_LINE)
		why_add(buf, size, &n, "a header line longer than",
			lim->max_header_line, " bytes");
	if (caps & INTAKE_CAP_BOUNDARIES)
		why_add(buf, size, &n, "more MIME boundary lines than",
			lim->max_boundaries, "");
	if (caps & INTAKE_CAP_PART_HEADERS)
		why_add(buf, size, &n, "more part header lines than",
			lim->max_part_headers, "");
	if (caps & INTAKE_CAP_DASH_LINES)
		why_add(buf, size, &n, "more \"--\" lines than",
			lim->max_dash_lines, "");
	if (caps & INTAKE_CAP_DEPTH)
		why_add(buf, size, &n, "MIME parts nested deeper than",
			lim->max_depth, "");
	if (!caps && n < size)
		snprintf(buf + n, size - n, "over a limit");
	return caps;
}

/* ---- reading ---------------------------------------------------------- */

static void set_raw(struct report *r, char *buf, size_t len, size_t total,
		    const struct intake_limits *lim, struct intake_scan *out)
{
	size_t from = intake_from_line(buf, len);
	struct intake_scan s;

	if (from) {
		memmove(buf, buf + from, len - from);
		len -= from;
		total -= from;
	}
	if (len > lim->max_bytes) {
		len = lim->max_bytes;
		buf = xrealloc(buf, len + 1);
	}
	buf[len] = '\0';
	free(r->raw);
	r->raw = buf;
	r->raw_len = len;
	sha256_hex(buf, len, r->sha256);
	if (total > len)
		r->flags |= REPORT_OVERSIZED;
	intake_scan(buf, len, lim, &s);
	if (!s.is_mail)
		r->flags |= REPORT_NOT_MIME;
	if (s.caps)
		r->flags |= REPORT_OVERSIZED;
	if (out)
		*out = s;
}

/* intake_read_buf - intake from memory (tests, Bugzilla, files) */
int intake_read_buf(const void *data, size_t len,
		    const struct intake_limits *lim, struct report *r)
{
	struct intake_limits dflt;
	size_t keep;

	lim = limits_or_default(lim, &dflt);
	keep = len;
	if (keep > lim->max_bytes + INTAKE_FROM_LINE_MAX)
		keep = lim->max_bytes + INTAKE_FROM_LINE_MAX;
	set_raw(r, xmemdup0(keep ? data : "", keep), keep, len, lim, NULL);
	return 0;
}

static ssize_t read_some(int fd, char *buf, size_t n)
{
	for (;;) {
		ssize_t got = read(fd, buf, n);

		if (got >= 0)
			return got;
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK) {
			struct pollfd pfd = { .fd = fd, .events = POLLIN };

			poll(&pfd, 1, -1);
			continue;
		}
		return -1;
	}
}

/*
 * intake_read_fd - read fd to EOF, keep at most max_bytes (plus room for
 * the From_ line), hash and scan what was kept
 */
int intake_read_fd(int fd, const struct intake_limits *lim, struct report *r)
{
	return intake_read_fd_scan(fd, lim, r, NULL);
}

/*
 * intake_read_fd_scan - intake_read_fd(), and the pre-scan of r->raw as
 * kept in *scan (when not NULL), for parse_report_scanned()
 */
int intake_read_fd_scan(int fd, const struct intake_limits *lim,
			struct report *r, struct intake_scan *scan)
{
	struct intake_limits dflt;
	size_t cap, n = 0, alloc = 0, total = 0;
	/*
	 * On the heap, and only once past the cap: on the stack its 64 KB
	 * were probed page by page (-fstack-clash-protection) on every
	 * message, sixteen page faults for a buffer almost never used.
	 */
	char *buf = NULL, *drain = NULL;
	ssize_t got;

	lim = limits_or_default(lim, &dflt);
	cap = lim->max_bytes + INTAKE_FROM_LINE_MAX;
	for (;;) {
		if (n < cap) {
			if (n == alloc) {
				alloc = alloc ? alloc * 2 : 65536;
				if (alloc > cap)
					alloc = cap;
				buf = xrealloc(buf, alloc + 1);
			}
			got = read_some(fd, buf + n, alloc - n);
			if (got > 0)
				n += (size_t)got;
		} else {
			/* over the cap: keep draining so the MTA sees EOF */
			if (!drain)
				drain = xmalloc(INTAKE_DRAIN_BYTES);
			got = read_some(fd, drain, INTAKE_DRAIN_BYTES);
		}
		if (got < 0) {
			free(buf);
			free(drain);
			return error("cannot read the message: %s",
				     strerror(errno));
		}
		if (got == 0)
			break;
		total += (size_t)got;
	}
	free(drain);
	if (!buf)
		buf = xmalloc(1);
	set_raw(r, buf, n, total, lim, scan);
	return 0;
}

/* ---- envelope --------------------------------------------------------- */

static bool address_ok(const char *s)
{
	size_t n = strlen(s), i;

	if (n > INTAKE_MAX_ADDRESS || !utf8_valid(s, n))
		return false;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f || c == '<' || c == '>')
			return false;
	}
	return true;
}

static int set_address(char **slot, const char *value)
{
	free(*slot);
	*slot = NULL;
	if (!value)
		return 0;
	if (!address_ok(value))
		return -1;
	*slot = xstrdup(value);
	return 0;
}

/* intake_envelope - set the validated envelope (NULL: not known) */
int intake_envelope(struct report *r, const char *sender, const char *recipient)
{
	int a = set_address(&r->envelope_from, sender);
	int b = set_address(&r->envelope_to, recipient);

	return a || b ? -1 : 0;
}

/*
 * intake_client - the network of the client that connected to the MTA:
 * IPv4 /24 ("192.0.2.0/24") or IPv6 /64 ("2001:db8:1:2::/64"); an
 * IPv4-mapped IPv6 address is its IPv4 one.  NULL for a value that is no
 * address, and for loopback, unspecified and local (Postfix's "unknown"
 * or nothing) senders, which are no stranger's network.
 */
int intake_client(struct report *r, const char *addr)
{
	unsigned char a[16];
	char text[INET6_ADDRSTRLEN], buf[INET6_ADDRSTRLEN + 8];
	static const unsigned char mapped[12] = { [10] = 0xff, [11] = 0xff };
	static const unsigned char zero[16];
	bool v4;

	free(r->client_net);
	r->client_net = NULL;
	if (!addr || !*addr || !strcasecmp(addr, "unknown"))
		return 0;
	if (strlen(addr) >= sizeof(text))
		return -1;
	if (inet_pton(AF_INET, addr, a + 12) == 1) {
		memcpy(a, mapped, sizeof(mapped));
	} else if (inet_pton(AF_INET6, addr, a) != 1) {
		return -1;
	}
	v4 = !memcmp(a, mapped, sizeof(mapped));
	if (v4 ? a[12] == 127 || a[12] == 0
	       : !memcmp(a, zero, 15) && (a[15] == 0 || a[15] == 1))
		return 0;
	if (v4) {
		a[15] = 0;
		if (!inet_ntop(AF_INET, a + 12, text, sizeof(text)))
			return -1;
	} else {
		memset(a + 8, 0, 8);
		if (!inet_ntop(AF_INET6, a, text, sizeof(text)))
			return -1;
	}
	snprintf(buf, sizeof(buf), "%s/%d", text, v4 ? 24 : 64);
	r->client_net = xstrdup(buf);
	return 0;
}

/* intake_envelope_env - the envelope as Postfix's local(8) passes it */
int intake_envelope_env(struct report *r)
{
	const char *to = getenv("ORIGINAL_RECIPIENT");
	int a, b;

	if (!to || !*to)
		to = getenv("RECIPIENT");
	a = intake_envelope(r, getenv("SENDER"), to);
	b = intake_client(r, getenv("CLIENT_ADDRESS"));
	return a || b ? -1 : 0;
}
