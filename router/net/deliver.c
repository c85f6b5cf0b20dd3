// SPDX-License-Identifier: GPL-2.0-only
/*
 * deliver - forwarded and new mail, envelope addresses, the sendmail
 *	     transport and the retry schedule (see deliver.h)
 *
 * The RFC 2047 words, quoted-printable and base64 are written here, not
 * by GMime, because triage and triage-net do not link GMime and a
 * program that does takes 1.8 times the CPU to start (median of 300
 * runs of './triage-mime --version' against './triage --version' under
 * bench/spawn.c: 'spawn -n 300 -s /dev/null LIST -- PROGRAM --version').
 *
 * sendmail runs under this loop, not GLib's g_spawn_sync() (which has no
 * deadline at which to kill the process group), started with
 * posix_spawn(), because from an 8 MB process fork() and execv() take
 * 1.6 times its CPU a start (bench/spawn_cost.c, 1,000 starts each).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sysexits.h>
#include <time.h>
#include <unistd.h>

#include "deliver.h"
#include "headers.h"
#include "hash.h"
#include "report.h"
#include "strbuf.h"
#include "util.h"

#define FOLD_COLS     78 /* RFC 5322 2.1.1: SHOULD be no more than 78 */
#define EW_MAX	      75 /* RFC 2047 2: an encoded word is at most 75 */
#define EW_OVERHEAD   12 /* "=?UTF-8?B?" and "?=" */
#define PHRASE_MAX    128
#define LINE_MAX_MIME 998 /* RFC 5322 2.1.1: MUST be no more than 998 */

static const char *const status_names[] = { "ok", "temporary", "permanent" };

/* deliver_status_name - "ok", "temporary" or "permanent" */
const char *deliver_status_name(enum deliver_status s)
{
	if ((unsigned)s < ARRAY_SIZE(status_names))
		return status_names[s];
	return "unknown";
}

/* deliver_result_init - a temporary failure with no detail yet */
void deliver_result_init(struct deliver_result *res)
{
	res->status = DELIVER_TEMPORARY;
	res->smtp_code = 0;
	res->curl_code = 0;
	res->exit_status = -1;
	res->detail[0] = '\0';
}

/* set_detail - printf into res->detail, then make it printable ASCII */
static void PRINTF_LIKE(3, 4)
	set_detail(struct deliver_result *res, enum deliver_status status,
		   const char *fmt, ...)
{
	va_list ap;
	char *p;

	res->status = status;
	va_start(ap, fmt);
	vsnprintf(res->detail, sizeof(res->detail), fmt, ap);
	va_end(ap);
	for (p = res->detail; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e)
			*p = '?';
}

/* ---- addresses ------------------------------------------------------ */

static bool is_alnum(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/* RFC 5322 atext without ! % / | (see deliver.h) */
static bool local_char(unsigned char c)
{
	return is_alnum(c) || (c && strchr("#$&'*+-=?^_`{}~", c));
}

static bool domain_valid(const char *d, size_t n)
{
	size_t i, label = 0;
	bool digits = true;

	if (n == 0 || n > DELIVER_DOMAIN_MAX)
		return false;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)d[i];

		if (c == '.') {
			if (label == 0 || d[i - 1] == '-')
				return false;
			label = 0;
			digits = true;
			continue;
		}
		if (!is_alnum(c) && c != '-')
			return false;
		if (c == '-' && label == 0)
			return false;
		if (c < '0' || c > '9')
			digits = false;
		if (++label > 63)
			return false;
	}
	/* no empty or hyphen-ended last label, no numeric top label */
	return label > 0 && d[n - 1] != '-' && !digits;
}

/* addr_valid - a conservative RFC 5321 mailbox, safe as an envelope arg */
bool addr_valid(const char *addr)
{
	const char *at;
	size_t i, local, n;

	if (!addr)
		return false;
	n = strnlen(addr, DELIVER_ADDR_MAX + 1);
	if (n == 0 || n > DELIVER_ADDR_MAX)
		return false;
	at = memchr(addr, '@', n);
	if (!at)
		return false;
	local = (size_t)(at - addr);
	if (local == 0 || local > DELIVER_LOCAL_MAX || addr[0] == '-' ||
	    addr[0] == '.' || addr[local - 1] == '.')
		return false;
	for (i = 0; i < local; i++) {
		if (addr[i] == '.') {
			if (addr[i + 1] == '.')
				return false;
			continue;
		}
		if (!local_char((unsigned char)addr[i]))
			return false;
	}
	return domain_valid(at + 1, n - local - 1);
}

/* skip_comment - past a (comment) with nesting and quoted pairs */
static const char *skip_comment(const char *p)
{
	int depth = 0;

	for (; *p; p++) {
		if (*p == '\\' && p[1])
			p++;
		else if (*p == '(')
			depth++;
		else if (*p == ')' && --depth == 0)
			return p + 1;
	}
	return NULL;
}

static const char *skip_quoted(const char *p)
{
	for (p++; *p; p++) {
		if (*p == '\\' && p[1])
			p++;
		else if (*p == '"')
			return p + 1;
	}
	return NULL;
}

/*
 * addr_parse - the bare address of one "Name <addr>", "<addr>",
 * "addr (comment)" or "addr"; 0 when it is exactly one valid address
 */
int addr_parse(const char *s, char *out, size_t size)
{
	const char *p, *lt = NULL, *gt = NULL;
	char buf[DELIVER_ADDR_MAX + 1];
	bool gap = false;
	size_t n = 0;

	if (!s || !out || !size)
		return -1;
	/* find the angle-addr outside quoted strings and comments */
	for (p = s; *p;) {
		if (*p == '"') {
			p = skip_quoted(p);
		} else if (*p == '(') {
			p = skip_comment(p);
		} else if (*p == '<') {
			if (lt)
				return -1;
			lt = p;
			gt = strchr(p + 1, '>');
			if (!gt)
				return -1;
			p = gt + 1;
		} else if (*p == ',' || *p == ';' || *p == '>') {
			return -1; /* a list, a group or junk */
		} else {
			p++;
		}
		if (!p)
			return -1;
	}
	if (lt) {
		n = (size_t)(gt - lt - 1);
		if (n > DELIVER_ADDR_MAX)
			return -1;
		memcpy(buf, lt + 1, n);
	} else {
		/* an addr-spec with comments and white space around it */
		for (p = s; *p;) {
			if (*p == '(') {
				p = skip_comment(p);
				gap = n > 0;
			} else if (*p == ' ' || *p == '\t') {
				p++;
				gap = n > 0;
			} else {
				if (gap || n >= DELIVER_ADDR_MAX)
					return -1; /* two words */
				buf[n++] = *p++;
			}
		}
	}
	buf[n] = '\0';
	if (!addr_valid(buf) || n >= size)
		return -1;
	memcpy(out, buf, n + 1);
	return 0;
}

/*
 * addr_split - addr_parse() plus the display name of "Name <addr>" (the
 * text before "<", unquoted, trimmed; "" when there is none)
 */
int addr_split(const char *s, char *name, size_t nsize, char *addr,
	       size_t asize)
{
	const char *p, *lt = NULL;
	size_t n = 0;

	if (!name || !nsize || addr_parse(s, addr, asize) < 0)
		return -1;
	for (p = s; *p && !lt;) {
		if (*p == '"')
			p = skip_quoted(p);
		else if (*p == '<')
			lt = p;
		else
			p++;
	}
	for (p = s; lt && p < lt && n + 1 < nsize; p++) {
		if (*p == '"')
			continue;
		if (*p == '\\' && p + 1 < lt)
			p++;
		if ((*p == ' ' || *p == '\t') && (n == 0 || name[n - 1] == ' '))
			continue;
		name[n++] = *p == '\t' ? ' ' : *p;
	}
	while (n && name[n - 1] == ' ')
		n--;
	name[n] = '\0';
	return 0;
}

/* msgid_valid - printable ASCII without space or <>, 1..250 bytes */
bool msgid_valid(const char *id)
{
	size_t i;

	if (!id || !*id)
		return false;
	for (i = 0; id[i]; i++) {
		unsigned char c = (unsigned char)id[i];

		if (i >= DELIVER_MSGID_MAX || c <= 0x20 || c >= 0x7f ||
		    c == '<' || c == '>')
			return false;
	}
	return true;
}

/* ---- header values -------------------------------------------------- */

/* utf8_seq - length of the valid UTF-8 sequence at p (NUL-terminated), 0 */
static size_t utf8_seq(const unsigned char *p)
{
	size_t n, k;
	uint32_t cp;

	if (p[0] < 0x80)
		return 1;
	if ((p[0] & 0xe0) == 0xc0) {
		n = 1;
		cp = p[0] & 0x1f;
	} else if ((p[0] & 0xf0) == 0xe0) {
		n = 2;
		cp = p[0] & 0x0f;
	} else if ((p[0] & 0xf8) == 0xf0) {
		n = 3;
		cp = p[0] & 0x07;
	} else {
		return 0;
	}
	for (k = 1; k <= n; k++) {
		if ((p[k] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[k] & 0x3f);
	}
	if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) ||
	    (n == 3 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n + 1;
}

/*
 * sanitise - one line of printable UTF-8 with single spaces, at most max
 * bytes (cut at a character boundary); *ascii tells if it is all ASCII
 */
static size_t sanitise(const char *in, char *out, size_t max, bool *ascii)
{
	const unsigned char *p = (const unsigned char *)(in ? in : "");
	bool space = true;
	size_t n = 0, len;

	*ascii = true;
	while (*p && n < max) {
		len = utf8_seq(p);
		if (*p <= 0x20 || *p == 0x7f ||
		    (len == 2 && p[0] == 0xc2 && p[1] < 0xa0)) {
			/* white space and C0/C1 controls: one space */
			if (!space)
				out[n++] = ' ';
			space = true;
			p += len ? len : 1;
			continue;
		}
		space = false;
		if (len == 0) {
			out[n++] = '?';
			p++;
			continue;
		}
		if (n + len > max)
			break;
		if (len > 1)
			*ascii = false;
		memcpy(out + n, p, len);
		n += len;
		p += len;
	}
	while (n && out[n - 1] == ' ')
		n--;
	out[n] = '\0';
	return n;
}

struct fold {
	struct strbuf *sb;
	const char *eol;
	size_t col;    /* columns on the current line */
	bool has_word; /* a word is on the current line after "Name:" */
	int err;
};

static void fold_raw(struct fold *f, const char *s, size_t n)
{
	if (!f->err && sb_add(f->sb, s, n) < 0)
		f->err = -1;
}

static void fold_start(struct fold *f, struct strbuf *sb, const char *name,
		       const char *eol)
{
	f->sb = sb;
	f->eol = eol;
	f->err = 0;
	f->has_word = false;
	fold_raw(f, name, strlen(name));
	fold_raw(f, ":", 1);
	f->col = strlen(name) + 1;
}

/* fold_word - " word", on a new line when it would pass FOLD_COLS */
static void fold_word(struct fold *f, const char *w, size_t n)
{
	if (f->has_word && f->col + 1 + n > FOLD_COLS) {
		fold_raw(f, f->eol, strlen(f->eol));
		f->col = 0;
	}
	fold_raw(f, " ", 1);
	fold_raw(f, w, n);
	f->col += 1 + n;
	f->has_word = true;
}

static int fold_end(struct fold *f)
{
	fold_raw(f, f->eol, strlen(f->eol));
	return f->err;
}

/* fold_words - each space-separated word of s */
static void fold_words(struct fold *f, const char *s)
{
	const char *e;

	while (*s) {
		e = strchr(s, ' ');
		if (!e)
			e = s + strlen(s);
		if (e > s)
			fold_word(f, s, (size_t)(e - s));
		s = *e ? e + 1 : e;
	}
}

static size_t base64(const unsigned char *in, size_t n, char *out)
{
	static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				  "abcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t i, o = 0;

	for (i = 0; i + 2 < n; i += 3) {
		out[o++] = tab[in[i] >> 2];
		out[o++] = tab[((in[i] & 3) << 4) | (in[i + 1] >> 4)];
		out[o++] = tab[((in[i + 1] & 15) << 2) | (in[i + 2] >> 6)];
		out[o++] = tab[in[i + 2] & 63];
	}
	if (i < n) {
		out[o++] = tab[in[i] >> 2];
		if (i + 1 < n) {
			out[o++] = tab[((in[i] & 3) << 4) | (in[i + 1] >> 4)];
			out[o++] = tab[(in[i + 1] & 15) << 2];
		} else {
			out[o++] = tab[(in[i] & 3) << 4];
			out[o++] = '=';
		}
		out[o++] = '=';
	}
	return o;
}

/*
 * fold_encoded - s (valid UTF-8) as RFC 2047 B words of whole characters,
 * each at most EW_MAX long and sized to the room left on its line
 */
static void fold_encoded(struct fold *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	char word[EW_MAX + 1];
	size_t room, bytes, take, len;

	while (*p) {
		room = f->col + 1 < FOLD_COLS ? FOLD_COLS - f->col - 1 : 0;
		if (room < EW_OVERHEAD + 8)
			room = f->has_word ? FOLD_COLS - 1 : EW_OVERHEAD + 8;
		if (room > EW_MAX)
			room = EW_MAX;
		bytes = (room - EW_OVERHEAD) / 4 * 3;
		for (take = 0; p[take];) {
			len = utf8_seq(p + take);
			if (!len || take + len > bytes)
				break;
			take += len;
		}
		if (take == 0)
			take = 1; /* cannot happen on sanitised text */
		memcpy(word, "=?UTF-8?B?", 10);
		len = 10 + base64(p, take, word + 10);
		memcpy(word + len, "?=", 2);
		fold_word(f, word, len + 2);
		p += take;
	}
}

static bool needs_encoding(const char *v, bool ascii)
{
	return !ascii || strstr(v, "=?");
}

/* fold_text - an unstructured value (already sanitised) */
static void fold_text(struct fold *f, const char *v, bool ascii)
{
	if (needs_encoding(v, ascii))
		fold_encoded(f, v);
	else
		fold_words(f, v);
}

/* fold_mailbox - [phrase] <addr>, or a bare addr without a phrase */
static void fold_mailbox(struct fold *f, const char *name, const char *addr)
{
	char buf[PHRASE_MAX + 1], q[2 * PHRASE_MAX + 3];
	char angle[DELIVER_ADDR_MAX + 3];
	size_t i, n, o = 0;
	bool ascii, plain = true;

	n = sanitise(name, buf, PHRASE_MAX, &ascii);
	snprintf(angle, sizeof(angle), "<%s>", addr);
	if (n == 0) {
		fold_word(f, addr, strlen(addr));
		return;
	}
	if (needs_encoding(buf, ascii)) {
		fold_encoded(f, buf);
	} else {
		for (i = 0; i < n; i++)
			if (buf[i] != ' ' &&
			    !local_char((unsigned char)buf[i]) &&
			    buf[i] != '!' && buf[i] != '%' && buf[i] != '/' &&
			    buf[i] != '|')
				plain = false;
		if (plain) {
			fold_words(f, buf);
		} else {
			q[o++] = '"';
			for (i = 0; i < n; i++) {
				if (buf[i] == '"' || buf[i] == '\\')
					q[o++] = '\\';
				q[o++] = buf[i];
			}
			q[o++] = '"';
			q[o] = '\0';
			fold_words(f, q);
		}
	}
	fold_word(f, angle, strlen(angle));
}

static bool field_name_valid(const char *name)
{
	size_t i;

	if (!name || !*name)
		return false;
	for (i = 0; name[i]; i++)
		if (i >= 76 || (unsigned char)name[i] <= 0x20 ||
		    (unsigned char)name[i] >= 0x7f || name[i] == ':')
			return false;
	return true;
}

static const char *check_eol(const char *eol)
{
	if (!eol || strcmp(eol, "\n") == 0)
		return "\n";
	if (strcmp(eol, "\r\n") == 0)
		return "\r\n";
	return NULL;
}

/* put_text - Name: unstructured value */
static int put_text(struct strbuf *out, const char *name, const char *value,
		    const char *eol)
{
	char buf[DELIVER_VALUE_MAX + 1];
	struct fold f;
	bool ascii;

	sanitise(value, buf, DELIVER_VALUE_MAX, &ascii);
	fold_start(&f, out, name, eol);
	fold_text(&f, buf, ascii);
	return fold_end(&f);
}

/* put_mailbox - Name: [phrase] <addr> (addr already validated) */
static int put_mailbox(struct strbuf *out, const char *name, const char *phrase,
		       const char *addr, const char *eol)
{
	struct fold f;

	fold_start(&f, out, name, eol);
	fold_mailbox(&f, phrase, addr);
	return fold_end(&f);
}

/* put_ids - Name: <id> <id> ... (ids already validated) */
static int put_ids(struct strbuf *out, const char *name, const char *const *ids,
		   size_t n, const char *eol)
{
	char buf[DELIVER_MSGID_MAX + 3];
	struct fold f;
	size_t i;

	fold_start(&f, out, name, eol);
	for (i = 0; i < n; i++) {
		snprintf(buf, sizeof(buf), "<%s>", ids[i]);
		fold_word(&f, buf, strlen(buf));
	}
	return fold_end(&f);
}

/*
 * deliver_add_header - append "Name: value" with the value sanitised,
 * RFC 2047 encoded when needed and folded; eol is "\n" or "\r\n"
 */
int deliver_add_header(struct strbuf *out, const char *name, const char *value,
		       const char *eol)
{
	size_t orig = out->len;

	eol = check_eol(eol);
	if (!eol || !field_name_valid(name))
		return error("invalid header name or line ending");
	if (put_text(out, name, value, eol) < 0) {
		sb_truncate(out, orig);
		return error("header %s does not fit", name);
	}
	return 0;
}

/* deliver_format_date - RFC 5322 date-time in local time */
int deliver_format_date(time_t t, char *buf, size_t size)
{
	static const char days[][4] = { "Sun", "Mon", "Tue", "Wed",
					"Thu", "Fri", "Sat" };
	static const char months[][4] = { "Jan", "Feb", "Mar", "Apr",
					  "May", "Jun", "Jul", "Aug",
					  "Sep", "Oct", "Nov", "Dec" };
	struct tm tm;
	long off;
	int n;

	if (!localtime_r(&t, &tm) || tm.tm_wday < 0 || tm.tm_wday > 6 ||
	    tm.tm_mon < 0 || tm.tm_mon > 11)
		return -1;
	off = tm.tm_gmtoff / 60;
	n = snprintf(buf, size, "%s, %d %s %04d %02d:%02d:%02d %c%02ld%02ld",
		     days[tm.tm_wday], tm.tm_mday, months[tm.tm_mon],
		     tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec,
		     off < 0 ? '-' : '+', labs(off) / 60, labs(off) % 60);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

/*
 * deliver_forward_id - the Resent-Message-ID (without <>) of a report's
 * forward to rcpt: the same report and recipient give the same id
 */
int deliver_forward_id(const char *sha256, const char *rcpt, const char *domain,
		       char *buf, size_t size)
{
	char hex[33];
	size_t i;
	int n;

	if (!sha256 || strlen(sha256) != 64 || !addr_valid(rcpt) || !domain ||
	    !domain_valid(domain, strlen(domain)))
		return -1;
	for (i = 0; i < 32; i++) {
		char c = sha256[i];

		if (c >= 'A' && c <= 'F')
			c = (char)(c - 'A' + 'a');
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
			return -1;
		hex[i] = c;
	}
	hex[32] = '\0';
	n = snprintf(buf, size, "fwd.%s.%016llx@%s", hex,
		     (unsigned long long)hash64_str_ci(rcpt), domain);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

/* ---- reading the original header ----------------------------------- */

/* from_line - bytes of a leading mbox "From " line, or 0 */
static size_t from_line(const char *raw, size_t len)
{
	const char *nl;

	if (len < 5 || memcmp(raw, "From ", 5) != 0)
		return 0;
	nl = memchr(raw, '\n', len);
	return nl ? (size_t)(nl - raw) + 1 : len;
}

static bool addr_char(unsigned char c)
{
	return is_alnum(c) || c == '.' || c == '@' || c == '-' || local_char(c);
}

/* value_has_addr - addr occurs in v as a whole address (any case) */
static bool value_has_addr(const char *v, size_t vlen, const char *addr)
{
	size_t n = strlen(addr), i;

	if (n == 0 || vlen < n)
		return false;
	for (i = 0; i + n <= vlen; i++) {
		if (strncasecmp(v + i, addr, n) != 0)
			continue;
		if (i > 0 && addr_char((unsigned char)v[i - 1]))
			continue;
		if (i + n < vlen && addr_char((unsigned char)v[i + n]))
			continue;
		return true;
	}
	return false;
}

/*
 * deliver_is_loop - the message already carries our X-Loop or our
 * Resent-From in its top-level header
 */
bool deliver_is_loop(const char *raw, size_t len, const char *router_address)
{
	const char *p, *end = raw + len;
	struct hdr h;

	if (!raw || !router_address || !*router_address)
		return false;
	p = raw + from_line(raw, len);
	while (hdr_next(&p, end, &h))
		if ((hdr_is(&h, "X-Loop") || hdr_is(&h, "Resent-From")) &&
		    value_has_addr(h.value, h.vlen, router_address))
			return true;
	return false;
}

/* ---- composing a forward -------------------------------------------- */

static bool present(const char *s)
{
	return s && *s;
}

/*
 * subject_to_tag - where the tag goes in the Subject field of the
 * header block (after "Subject:" and its blanks), or NULL: no report
 * id, tagging off, a DKIM-signed message under the default, no Subject,
 * or a subject that already carries a "[triage #" tag
 */
static const char *subject_to_tag(const char *body, size_t len,
				  const struct forward_headers *h)
{
	const char *p = body, *end = body + len, *at = NULL, *v;
	struct hdr hd;
	size_t n;

	if (h->report <= 0 || h->tag == DELIVER_TAG_NEVER)
		return NULL;
	while (hdr_next(&p, end, &hd)) {
		if (hdr_is(&hd, "DKIM-Signature") &&
		    h->tag == DELIVER_TAG_UNSIGNED)
			return NULL;
		if (at || !hdr_is(&hd, "Subject"))
			continue;
		v = hd.value;
		n = hd.vlen;
		while (n && (*v == ' ' || *v == '\t')) {
			v++;
			n--;
		}
		if (memmem(v, n, "[triage #", 9))
			return NULL;
		at = v;
	}
	return at;
}

/*
 * copy_renamed - the original's header block up to cut, each shadowed
 * field renamed X-Original-NAME (without NAME's "X-"), the tag put at
 * subj when it is before cut
 */
static int copy_renamed(const char *body, const char *end, const char *cut,
			const char *subj, const char *tag, struct strbuf *out)
{
	const char *p = body, *q, *stop;
	struct hdr h;
	int err = 0;

	while (p < cut && hdr_line_next(&p, end, &h)) {
		stop = p < cut ? p : cut;
		q = h.name;
		if (hdr_shadowed(&h, body, end)) {
			err |= sb_adds(out, "X-Original-");
			q += hdr_name_prefix(&h, "X-") ? 2 : 0;
		}
		if (subj && subj >= q && subj <= stop) {
			err |= sb_add(out, q, (size_t)(subj - q));
			err |= sb_adds(out, tag);
			q = subj;
		}
		err |= sb_add(out, q, (size_t)(stop - q));
	}
	return err;
}

/*
 * put_reply_to - "Reply-To: FROM, h->reply_to" when the original (body,
 * len bytes) has no Reply-To of its own (two would be invalid, and
 * renaming one a DKIM signature covers would break it); FROM is the
 * original's From address when it parses as one
 */
static int put_reply_to(struct strbuf *out, const char *body, size_t len,
			const struct forward_headers *h, const char *eol)
{
	const char *p = body;
	char from[320] = "", *v;
	struct hdr hd;
	int err;

	if (!present(h->reply_to) || !addr_valid(h->reply_to))
		return 0;
	while (hdr_next(&p, body + len, &hd)) {
		if (hdr_is(&hd, "Reply-To"))
			return 0;
		if (hdr_is(&hd, "From") && !from[0] && hd.vlen < 1024) {
			v = xstrndup(hd.value, hd.vlen);
			if (addr_parse(v, from, sizeof(from)) < 0 ||
			    !addr_valid(from))
				from[0] = '\0';
			free(v);
		}
	}
	if (!from[0] || !strcasecmp(from, h->reply_to))
		return put_text(out, "Reply-To", h->reply_to, eol);
	v = xasprintf("%s, %s", from, h->reply_to);
	err = put_text(out, "Reply-To", v, eol);
	free(v);
	return err;
}

/*
 * deliver_forward_head - the bytes deliver_compose_forward() puts before
 * the original's unchanged tail: the resent block and triage headers,
 * and with a subject tag the original up to and including the tagged
 * Subject's blanks; *rest is where in raw the unchanged tail starts
 */
int deliver_forward_head(const char *raw, size_t len,
			 const struct forward_headers *h, struct strbuf *out,
			 size_t *rest)
{
	size_t orig = out->len, skip;
	char date[64], id[DELIVER_MSGID_MAX + 1], tag[64];
	const char *eol = "\n", *body, *nl, *p, *subj, *cut;
	const char *ids[1];
	struct hdr hd;
	int err = 0;

	*rest = 0;
	if (!h || !addr_valid(h->router_addr) || !addr_valid(h->to_addr) ||
	    (h->cc_addr && !addr_valid(h->cc_addr)))
		return error("forward: invalid router or recipient address");
	if (deliver_forward_id(h->sha256, h->to_addr,
			       strchr(h->router_addr, '@') + 1, id,
			       sizeof(id)) < 0)
		return error("forward: invalid report id");
	if (deliver_format_date(h->date ? h->date : time(NULL), date,
				sizeof(date)) < 0)
		return error("forward: cannot format the date");
	skip = from_line(raw, len);
	body = raw + skip;
	len -= skip;
	nl = memchr(body, '\n', len);
	if (nl && nl > body && nl[-1] == '\r')
		eol = "\r\n";
	ids[0] = id;

	err |= put_text(out, "Resent-Date", date, eol);
	err |= put_mailbox(out, "Resent-From", h->router_name, h->router_addr,
			   eol);
	err |= put_mailbox(out, "Resent-To", h->to_name, h->to_addr, eol);
	if (h->cc_addr)
		err |= put_mailbox(out, "Resent-Cc", NULL, h->cc_addr, eol);
	err |= put_ids(out, "Resent-Message-ID", ids, 1, eol);
	err |= put_text(out, "X-Loop", h->router_addr, eol);
	err |= put_text(out, "Auto-Submitted", "auto-generated", eol);
	err |= put_reply_to(out, body, len, h, eol);
	if (present(h->cls))
		err |= put_text(out, "X-Triage-Class", h->cls, eol);
	if (present(h->section))
		err |= put_text(out, "X-Triage-Section", h->section, eol);
	if (present(h->reason))
		err |= put_text(out, "X-Triage-Reason", h->reason, eol);
	if (present(h->status))
		err |= put_text(out, "X-Triage-Status", h->status, eol);
	if (present(h->security))
		err |= put_text(out, "X-Triage-Security", h->security, eol);
	if (present(h->archive))
		err |= put_text(out, "X-Triage-Archive", h->archive, eol);
	if (h->report > 0) {
		snprintf(tag, sizeof(tag), "%lld", (long long)h->report);
		err |= put_text(out, "X-Triage-Report", tag, eol);
	}
	/* a bare text (no header of its own) becomes the body */
	p = body;
	if (!hdr_next(&p, body + len, &hd))
		err |= sb_adds(out, eol);
	subj = subject_to_tag(body, len, h);
	if (subj && present(h->token))
		snprintf(tag, sizeof(tag), "[triage #%lld-%.16s] ",
			 (long long)h->report, h->token);
	else if (subj)
		snprintf(tag, sizeof(tag), "[triage #%lld] ",
			 (long long)h->report);
	/*
	 * The original as sent from *rest on; before it, its headers up to
	 * the tag ("Subject:" and its blanks) or the last field that could
	 * pass for ours, whichever comes later, renamed or tagged.  A line
	 * that is no field does not end the search (a delivery agent may
	 * skip it and read the fields after it), and a bare CR ends a line
	 * (the transport sends it as one): neither hides an X-Triage-*.
	 */
	cut = subj;
	p = body;
	while (hdr_line_next(&p, body + len, &hd))
		if (hdr_shadowed(&hd, body, body + len) && (!cut || p > cut))
			cut = p;
	*rest = skip;
	if (cut) {
		err |= copy_renamed(body, body + len, cut, subj, tag, out);
		*rest = (size_t)(cut - raw);
	}
	if (err) {
		sb_truncate(out, orig);
		*rest = 0;
		return error("forward: message too large");
	}
	return 0;
}

/*
 * deliver_compose_forward - the resent block and triage headers, then the
 * original message bytes unchanged (a leading mbox From_ line dropped)
 */
int deliver_compose_forward(const char *raw, size_t len,
			    const struct forward_headers *h, struct strbuf *out)
{
	size_t orig = out->len, rest;

	if (deliver_forward_head(raw, len, h, out, &rest) < 0)
		return -1;
	if (sb_add(out, raw + rest, len - rest) < 0) {
		sb_truncate(out, orig);
		return error("forward: message too large");
	}
	return 0;
}

/* ---- composing a new message ---------------------------------------- */

static const char *const reserved_fields[] = {
	"Date",
	"From",
	"Sender",
	"To",
	"Subject",
	"Message-ID",
	"In-Reply-To",
	"References",
	"MIME-Version",
	"Content-Type",
	"Content-Transfer-Encoding",
	"Auto-Submitted",
	"X-Auto-Response-Suppress",
	"Bcc",
};

static bool reserved_field(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(reserved_fields); i++)
		if (strcasecmp(name, reserved_fields[i]) == 0)
			return true;
	return false;
}

/*
 * clean_body - UTF-8 text with LF line endings, controls other than TAB
 * and invalid bytes as "?", ending in a newline; reports the longest
 * line and whether any byte is not ASCII
 */
static int clean_body(const char *s, size_t len, struct strbuf *out,
		      size_t *longest, bool *ascii)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, line = 0, n;
	char tmp[5];

	*longest = 0;
	*ascii = true;
	while (i < len) {
		unsigned char c = p[i];

		if (c == '\r' || c == '\n') {
			if (sb_addc(out, '\n') < 0)
				return -1;
			i += (c == '\r' && i + 1 < len && p[i + 1] == '\n') ? 2
									    : 1;
			line = 0;
			continue;
		}
		n = 1;
		if (c >= 0x80) {
			/* utf8_seq wants a terminated sequence */
			size_t k, m = len - i < 4 ? len - i : 4;

			memcpy(tmp, p + i, m);
			for (k = m; k < 5; k++)
				tmp[k] = '\0';
			n = utf8_seq((const unsigned char *)tmp);
		}
		if (n == 0 || (c < 0x20 && c != '\t') || c == 0x7f) {
			if (sb_addc(out, '?') < 0)
				return -1;
			i++;
			line++;
		} else {
			if (n > 1)
				*ascii = false;
			if (sb_add(out, p + i, n) < 0)
				return -1;
			i += n;
			line += n;
		}
		if (line > *longest)
			*longest = line;
	}
	if (out->len && out->buf[out->len - 1] != '\n')
		return sb_addc(out, '\n');
	return 0;
}

/* qp_encode - quoted-printable (RFC 2045 6.7) of LF-terminated text */
static int qp_encode(const char *s, size_t len, struct strbuf *out)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t i, col = 0;
	int err = 0;

	for (i = 0; i < len && !err; i++) {
		unsigned char c = (unsigned char)s[i];
		bool at_end = i + 1 >= len || s[i + 1] == '\n';
		bool literal;
		char esc[3];

		if (c == '\n') {
			err |= sb_addc(out, '\n');
			col = 0;
			continue;
		}
		literal = (c >= 33 && c <= 126 && c != '=') ||
			  ((c == ' ' || c == '\t') && !at_end);
		/* keep "From " at a line start away from mbox quoting */
		if (col == 0 && c == 'F' && len - i >= 5 &&
		    memcmp(s + i, "From ", 5) == 0)
			literal = false;
		if (col + (literal ? 1 : 3) > 75) {
			err |= sb_add(out, "=\n", 2);
			col = 0;
		}
		if (literal) {
			err |= sb_addc(out, (char)c);
			col++;
		} else {
			esc[0] = '=';
			esc[1] = hex[c >> 4];
			esc[2] = hex[c & 15];
			err |= sb_add(out, esc, 3);
			col += 3;
		}
	}
	return err ? -1 : 0;
}

static int make_message_id(const char *domain, char *buf, size_t size)
{
	unsigned char r[8];
	size_t i;
	int n;

	if (getentropy(r, sizeof(r)) < 0) {
		uint64_t x =
			(uint64_t)now_seconds() ^ ((uint64_t)getpid() << 32);

		for (i = 0; i < sizeof(r); i++)
			r[i] = (unsigned char)(x >> (8 * i));
	}
	n = snprintf(buf, size,
		     "triage.%lld.%ld.%02x%02x%02x%02x%02x%02x%02x%02x@%s",
		     (long long)time(NULL), (long)getpid(), r[0], r[1], r[2],
		     r[3], r[4], r[5], r[6], r[7], domain);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

/*
 * deliver_compose_message - a new text/plain UTF-8 message from the
 * router with LF line endings
 */
int deliver_compose_message(const struct deliver_message *m, struct strbuf *out)
{
	size_t orig = out->len, ntos = 0, nrefs = 0, i, longest;
	const char *refs[DELIVER_MAX_REFS];
	char date[64], id[DELIVER_MSGID_MAX + 1];
	const char *cte, *eol = "\n";
	struct strbuf body = STRBUF_INIT(out->max);
	struct fold f;
	bool ascii;
	int err = 0;

	if (!m || !addr_valid(m->from_addr) || !m->to)
		return error("message: invalid sender or no recipients");
	for (ntos = 0; m->to[ntos]; ntos++)
		if (ntos >= DELIVER_MAX_RCPTS || !addr_valid(m->to[ntos]))
			return error("message: invalid recipient address");
	if (ntos == 0)
		return error("message: no recipients");
	for (i = 0; i < m->nextra; i++)
		if (!field_name_valid(m->extra[i].name) ||
		    reserved_field(m->extra[i].name))
			return error("message: header name not allowed");
	if (m->message_id) {
		if (!msgid_valid(m->message_id))
			return error("message: invalid Message-ID");
		snprintf(id, sizeof(id), "%s", m->message_id);
	} else if (make_message_id(strchr(m->from_addr, '@') + 1, id,
				   sizeof(id)) < 0) {
		return error("message: cannot make a Message-ID");
	}
	if (deliver_format_date(m->date ? m->date : time(NULL), date,
				sizeof(date)) < 0)
		return error("message: cannot format the date");
	/* untrusted thread ids: keep the valid ones, the last few */
	for (i = 0; m->references && m->references[i]; i++) {
		if (!msgid_valid(m->references[i]))
			continue;
		if (nrefs == DELIVER_MAX_REFS) {
			memmove(refs, refs + 1, sizeof(refs[0]) * (nrefs - 1));
			nrefs--;
		}
		refs[nrefs++] = m->references[i];
	}
	if (clean_body(m->body ? m->body : "", m->body ? m->body_len : 0, &body,
		       &longest, &ascii) < 0) {
		sb_release(&body);
		return error("message: body too large");
	}

	err |= put_mailbox(out, "From", m->from_name, m->from_addr, eol);
	fold_start(&f, out, "To", eol);
	for (i = 0; i < ntos; i++) {
		char buf[DELIVER_ADDR_MAX + 2];

		snprintf(buf, sizeof(buf), "%s%s", m->to[i],
			 i + 1 < ntos ? "," : "");
		fold_word(&f, buf, strlen(buf));
	}
	err |= fold_end(&f);
	err |= put_text(out, "Subject", m->subject, eol);
	err |= put_text(out, "Date", date, eol);
	{
		const char *one[1] = { id };

		err |= put_ids(out, "Message-ID", one, 1, eol);
		if (m->in_reply_to && msgid_valid(m->in_reply_to)) {
			one[0] = m->in_reply_to;
			err |= put_ids(out, "In-Reply-To", one, 1, eol);
		}
	}
	if (nrefs)
		err |= put_ids(out, "References", refs, nrefs, eol);
	err |= put_text(out, "Auto-Submitted",
			m->auto_submitted == DELIVER_AUTO_REPLIED
				? "auto-replied"
				: "auto-generated",
			eol);
	err |= put_text(out, "X-Auto-Response-Suppress", "All", eol);
	for (i = 0; i < m->nextra; i++)
		err |= put_text(out, m->extra[i].name, m->extra[i].value, eol);
	if (longest > LINE_MAX_MIME)
		cte = "quoted-printable";
	else
		cte = ascii ? "7bit" : "8bit";
	err |= put_text(out, "MIME-Version", "1.0", eol);
	err |= put_text(out, "Content-Type", "text/plain; charset=utf-8", eol);
	err |= put_text(out, "Content-Transfer-Encoding", cte, eol);
	err |= sb_adds(out, eol);
	if (longest > LINE_MAX_MIME)
		err |= qp_encode(body.buf, body.len, out);
	else
		err |= sb_add(out, sb_str(&body), body.len);
	sb_release(&body);
	if (err) {
		sb_truncate(out, orig);
		return error("message: too large");
	}
	return 0;
}

/* ---- RFC 3834 ------------------------------------------------------- */

static const char *const system_locals[] = {
	"mailer-daemon", "postmaster", "noreply",      "no-reply",
	"no_reply",	 "donotreply", "do-not-reply", "do_not_reply",
	"bounce",	 "bounces",    "daemon",       "nobody",
};

/* norm_addr - lower-case address with any +detail removed from the local */
static void norm_addr(const char *addr, char *out, size_t size)
{
	const char *at = strrchr(addr, '@');
	const char *plus = memchr(addr, '+', at ? (size_t)(at - addr) : 0);

	if (plus && plus > addr)
		snprintf(out, size, "%.*s%s", (int)(plus - addr), addr, at);
	else
		snprintf(out, size, "%s", addr);
	str_tolower(out);
}

static bool system_sender(const char *norm)
{
	const char *at = strrchr(norm, '@');
	size_t n = at ? (size_t)(at - norm) : strlen(norm), i;

	for (i = 0; i < ARRAY_SIZE(system_locals); i++)
		if (strlen(system_locals[i]) == n &&
		    memcmp(norm, system_locals[i], n) == 0)
			return true;
	/* RFC 3834 section 2: list administrative addresses */
	if (n > 6 && memcmp(norm, "owner-", 6) == 0)
		return true;
	if (n > 8 && memcmp(norm + n - 8, "-request", 8) == 0)
		return true;
	if (n > 8 && memcmp(norm + n - 8, "-bounces", 8) == 0)
		return true;
	if (n > 6 && memcmp(norm + n - 6, "-owner", 6) == 0)
		return true;
	if (n >= 7 && memcmp(norm, "noreply", 7) == 0)
		return true;
	if (n >= 8 && memcmp(norm, "no-reply", 8) == 0)
		return true;
	return false;
}

/* bot_match - entries: "addr", "@domain" or "local@" (any case) */
static bool bot_match(const char *norm, const char *const *bots)
{
	char e[DELIVER_ADDR_MAX + 1];
	const char *at = strrchr(norm, '@');
	size_t i, n;

	for (i = 0; bots && bots[i]; i++) {
		snprintf(e, sizeof(e), "%s", bots[i]);
		str_tolower(e);
		n = strlen(e);
		if (n == 0)
			continue;
		if (e[0] == '@') {
			if (at && strcmp(at, e) == 0)
				return true;
		} else if (e[n - 1] == '@') {
			if (at && (size_t)(at - norm) + 1 == n &&
			    memcmp(norm, e, n) == 0)
				return true;
		} else {
			char ne[DELIVER_ADDR_MAX + 1];

			norm_addr(e, ne, sizeof(ne));
			if (strcmp(norm, ne) == 0)
				return true;
		}
	}
	return false;
}

static const char *first_word(const char *v, char *buf, size_t size)
{
	size_t n = 0;

	while (*v == ' ' || *v == '\t')
		v++;
	while (*v && *v != ';' && *v != ' ' && *v != '\t' && *v != '(' &&
	       n + 1 < size)
		buf[n++] = *v++;
	buf[n] = '\0';
	str_tolower(buf);
	return buf;
}

/*
 * deliver_may_autoreply - RFC 3834 section 2: whether an automatic reply
 * to this message is allowed; why says what forbade it
 */
bool deliver_may_autoreply(const struct report_header *headers, size_t n,
			   const char *envelope_from, const char *const *bots,
			   const char **why)
{
	char env[DELIVER_ADDR_MAX + 1], norm[DELIVER_ADDR_MAX + 1];
	char from[DELIVER_ADDR_MAX + 1], w[32];
	bool have_from = false;
	const char *dummy;
	size_t i;

	if (!why)
		why = &dummy;
	*why = "null envelope sender";
	if (!envelope_from || !*envelope_from ||
	    strcmp(envelope_from, "<>") == 0)
		return false;
	*why = "invalid envelope sender";
	if (addr_parse(envelope_from, env, sizeof(env)) < 0)
		return false;
	for (i = 0; i < n; i++) {
		const char *name = headers[i].name, *v = headers[i].value;

		if (!name || !v)
			continue;
		if (strcasecmp(name, "From") == 0 && !have_from &&
		    addr_parse(v, from, sizeof(from)) == 0)
			have_from = true;
		if (strcasecmp(name, "Auto-Submitted") == 0 &&
		    strcmp(first_word(v, w, sizeof(w)), "no") != 0) {
			*why = "Auto-Submitted";
			return false;
		}
		if (strcasecmp(name, "Precedence") == 0) {
			first_word(v, w, sizeof(w));
			if (!strcmp(w, "bulk") || !strcmp(w, "list") ||
			    !strcmp(w, "junk")) {
				*why = "Precedence: bulk, list or junk";
				return false;
			}
		}
		if (strcasecmp(name, "List-Id") == 0 ||
		    strcasecmp(name, "List-Post") == 0 ||
		    strcasecmp(name, "List-Unsubscribe") == 0) {
			*why = "mailing list";
			return false;
		}
		if (strcasecmp(name, "X-Auto-Response-Suppress") == 0 &&
		    (strcasestr(v, "all") || strcasestr(v, "autoreply") ||
		     strcasestr(v, "oof"))) {
			*why = "X-Auto-Response-Suppress";
			return false;
		}
		if (strcasecmp(name, "X-Autoreply") == 0 ||
		    strcasecmp(name, "X-Autorespond") == 0) {
			*why = "automatic response";
			return false;
		}
	}
	norm_addr(env, norm, sizeof(norm));
	if (system_sender(norm)) {
		*why = "system or no-reply sender";
		return false;
	}
	if (bot_match(norm, bots)) {
		*why = "known bot";
		return false;
	}
	if (have_from) {
		norm_addr(from, norm, sizeof(norm));
		if (system_sender(norm)) {
			*why = "system or no-reply sender";
			return false;
		}
		if (bot_match(norm, bots)) {
			*why = "known bot";
			return false;
		}
	}
	*why = NULL;
	return true;
}

/* ---- line endings --------------------------------------------------- */

/*
 * deliver_to_crlf - every CRLF, bare CR and bare LF as CRLF, ending in
 * CRLF; no dot-stuffing (libcurl does it)
 */
int deliver_to_crlf(const void *msg, size_t len, struct strbuf *out)
{
	const char *p = msg, *end = p + len, *q;
	size_t orig = out->len;

	while (p < end) {
		for (q = p; q < end && *q != '\r' && *q != '\n'; q++)
			;
		if (sb_add(out, p, (size_t)(q - p)) < 0)
			goto fail;
		if (q == end)
			break;
		if (sb_add(out, "\r\n", 2) < 0)
			goto fail;
		p = q + ((*q == '\r' && q + 1 < end && q[1] == '\n') ? 2 : 1);
	}
	if (out->len > orig &&
	    (out->len - orig < 2 || out->buf[out->len - 1] != '\n'))
		if (sb_add(out, "\r\n", 2) < 0)
			goto fail;
	return 0;
fail:
	sb_truncate(out, orig);
	return -1;
}

/* deliver_to_lf - CRLF as LF (bare CRs are content), ending in LF */
int deliver_to_lf(const void *msg, size_t len, struct strbuf *out)
{
	const char *p = msg, *end = p + len, *q;
	size_t orig = out->len;

	while (p < end) {
		q = memchr(p, '\n', (size_t)(end - p));
		if (!q) {
			if (sb_add(out, p, (size_t)(end - p)) < 0 ||
			    sb_addc(out, '\n') < 0)
				goto fail;
			break;
		}
		if (sb_add(out, p, (size_t)(q - p) - (q > p && q[-1] == '\r')) <
			    0 ||
		    sb_addc(out, '\n') < 0)
			goto fail;
		p = q + 1;
	}
	return 0;
fail:
	sb_truncate(out, orig);
	return -1;
}

/* ---- the sendmail transport ----------------------------------------- */

static double mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static const char *sysexit_name(int code)
{
	switch (code) {
	case EX_USAGE:
		return "EX_USAGE";
	case EX_DATAERR:
		return "EX_DATAERR";
	case EX_NOINPUT:
		return "EX_NOINPUT";
	case EX_NOUSER:
		return "EX_NOUSER";
	case EX_NOHOST:
		return "EX_NOHOST";
	case EX_UNAVAILABLE:
		return "EX_UNAVAILABLE";
	case EX_SOFTWARE:
		return "EX_SOFTWARE";
	case EX_OSERR:
		return "EX_OSERR";
	case EX_OSFILE:
		return "EX_OSFILE";
	case EX_CANTCREAT:
		return "EX_CANTCREAT";
	case EX_IOERR:
		return "EX_IOERR";
	case EX_TEMPFAIL:
		return "EX_TEMPFAIL";
	case EX_PROTOCOL:
		return "EX_PROTOCOL";
	case EX_NOPERM:
		return "EX_NOPERM";
	case EX_CONFIG:
		return "EX_CONFIG";
	}
	return "failure";
}

/*
 * Temporary exit codes: EX_TEMPFAIL and EX_OSERR are soft in Postfix's
 * sys_exits table and in OpenSMTPD; sendmail's own table also makes
 * EX_IOERR a 4xx.  Every other non-zero code is permanent.
 */
static bool exit_temporary(int code)
{
	return code == EX_TEMPFAIL || code == EX_OSERR || code == EX_IOERR;
}

/*
 * spawn_child - start path with in as its standard input and out as its
 * standard output and error, in a process group of its own, with every
 * signal at its default, an empty signal mask and no other descriptor
 * (posix_spawn(): glibc's clone(CLONE_VFORK) copies no page tables, and
 * it reports a failed exec as its result); 0 or an errno
 */
static int spawn_child(pid_t *pid, const char *path, char *const *argv, int in,
		       int out)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t all, none;
	int a, b, rc;

	/* above 2 first, so that none of the dup2()s clobbers the other */
	a = fcntl(in, F_DUPFD_CLOEXEC, 3);
	b = fcntl(out, F_DUPFD_CLOEXEC, 3);
	if (a < 0 || b < 0) {
		rc = errno;
		if (a >= 0)
			close(a);
		return rc;
	}
	sigfillset(&all);
	sigemptyset(&none);
	if ((rc = posix_spawn_file_actions_init(&fa)) != 0)
		goto out;
	if ((rc = posix_spawnattr_init(&at)) != 0) {
		posix_spawn_file_actions_destroy(&fa);
		goto out;
	}
	rc = posix_spawn_file_actions_adddup2(&fa, a, 0);
	if (!rc)
		rc = posix_spawn_file_actions_adddup2(&fa, b, 1);
	if (!rc)
		rc = posix_spawn_file_actions_adddup2(&fa, b, 2);
	if (!rc)
		rc = posix_spawn_file_actions_addclosefrom_np(&fa, 3);
	if (!rc)
		rc = posix_spawnattr_setsigdefault(&at, &all);
	if (!rc)
		rc = posix_spawnattr_setsigmask(&at, &none);
	if (!rc)
		rc = posix_spawnattr_setpgroup(&at, 0);
	if (!rc)
		rc = posix_spawnattr_setflags(
			&at, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK |
				     POSIX_SPAWN_SETPGROUP);
	if (!rc)
		rc = posix_spawn(pid, path, &fa, &at, argv, environ);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
out:
	close(a);
	close(b);
	return rc;
}

static void first_line(char *s)
{
	char *p = s;

	while (*p == '\n' || *p == '\r' || *p == ' ')
		p++;
	memmove(s, p, strlen(p) + 1);
	p = strpbrk(s, "\r\n");
	if (p)
		*p = '\0';
}

struct child {
	pid_t pid;
	int in, out, pidfd;
	bool reaped;
	int status;
};

static void child_reap(struct child *c, bool block)
{
	pid_t r;

	if (c->reaped)
		return;
	do
		r = waitpid(c->pid, &c->status, block ? 0 : WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r == c->pid || (r < 0 && errno == ECHILD)) {
		c->reaped = true;
		if (r < 0)
			c->status = -1; /* SIGCHLD ignored by the caller */
	}
}

/* One run of sendmail: the child, the message going in, what comes out. */
struct run {
	struct child c;
	const char *msg;
	size_t len, off; /* off: bytes written */
	char out[512];	 /* the start of its output */
	size_t nout;
	bool timed_out, short_write;
	int exec_errno;
};

/*
 * sendmail_argv - "sendmail -i -f FROM -- RCPT...", once the path and the
 * addresses are checked; NULL after setting res
 */
static char **sendmail_argv(const char *sendmail_path,
			    const char *envelope_from, const char *const *rcpts,
			    struct deliver_result *res)
{
	size_t nrcpt, i;
	char **argv;

	if (!sendmail_path || sendmail_path[0] != '/') {
		set_detail(res, DELIVER_TEMPORARY,
			   "sendmail path must be absolute");
		return NULL;
	}
	if (*envelope_from && !addr_valid(envelope_from)) {
		set_detail(res, DELIVER_PERMANENT, "invalid envelope sender");
		return NULL;
	}
	for (nrcpt = 0; rcpts && rcpts[nrcpt]; nrcpt++) {
		if (nrcpt >= DELIVER_MAX_RCPTS) {
			set_detail(res, DELIVER_PERMANENT,
				   "too many recipients");
			return NULL;
		}
		if (!addr_valid(rcpts[nrcpt])) {
			set_detail(res, DELIVER_PERMANENT,
				   "invalid recipient address %.64s",
				   rcpts[nrcpt]);
			return NULL;
		}
	}
	if (nrcpt == 0) {
		set_detail(res, DELIVER_PERMANENT, "no recipients");
		return NULL;
	}
	argv = xcalloc(nrcpt + 6, sizeof(*argv));
	argv[0] = (char *)sendmail_path;
	argv[1] = (char *)"-i";
	argv[2] = (char *)"-f";
	argv[3] = (char *)(*envelope_from ? envelope_from : "<>");
	argv[4] = (char *)"--";
	for (i = 0; i < nrcpt; i++)
		argv[5 + i] = (char *)rcpts[i];
	return argv;
}

/*
 * run_start - start sendmail on the pipes (their parent ends then belong
 * to r->c); r->exec_errno is why it could not be started, if it was not
 */
static void run_start(struct run *r, const char *path, char *const *argv,
		      int inp[2], int outp[2])
{
	r->exec_errno = spawn_child(&r->c.pid, path, argv, inp[0], outp[1]);
	if (r->exec_errno) {
		r->c.pid = -1;
		r->c.reaped = true; /* there is no child */
	}
	close(inp[0]);
	close(outp[1]);
	inp[0] = outp[1] = -1;
	r->c.in = inp[1];
	r->c.out = outp[0];
	inp[1] = outp[0] = -1; /* owned by c from here on */
	fcntl(r->c.in, F_SETFL, fcntl(r->c.in, F_GETFL) | O_NONBLOCK);
	fcntl(r->c.out, F_SETFL, fcntl(r->c.out, F_GETFL) | O_NONBLOCK);
	if (!r->exec_errno)
		r->c.pidfd = (int)syscall(SYS_pidfd_open, r->c.pid, 0);
	if (r->len == 0 || r->exec_errno) {
		close(r->c.in);
		r->c.in = -1;
	}
}

/* run_write - more of the message into sendmail's standard input */
static void run_write(struct run *r)
{
	size_t chunk = r->len - r->off > 65536 ? 65536 : r->len - r->off;
	ssize_t n = write(r->c.in, r->msg + r->off, chunk);

	if (n > 0)
		r->off += (size_t)n;
	if ((n < 0 && errno != EAGAIN && errno != EINTR) || r->off == r->len) {
		r->short_write = r->off < r->len;
		close(r->c.in);
		r->c.in = -1;
	}
}

/* run_read - sendmail's output: the start kept, the rest read and dropped */
static void run_read(struct run *r)
{
	char sink[4096];
	char *dst = r->nout < sizeof(r->out) - 1 ? r->out + r->nout : sink;
	size_t room = r->nout < sizeof(r->out) - 1
			      ? sizeof(r->out) - 1 - r->nout
			      : sizeof(sink);
	ssize_t n = read(r->c.out, dst, room);

	if (n > 0 && dst != sink)
		r->nout += (size_t)n;
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
		close(r->c.out);
		r->c.out = -1;
	}
}

/*
 * run_wait - feed the message, read the output and reap sendmail, until
 * it exits or the deadline passes (then it and its group are killed)
 */
static void run_wait(struct run *r, double deadline)
{
	struct child *c = &r->c;
	ssize_t n;

	while (c->in >= 0 || c->out >= 0 || !c->reaped) {
		struct pollfd pfd[3];
		nfds_t npfd = 0, i;
		double left = deadline - mono_ms();
		int wait_ms;

		child_reap(c, false);
		if (c->reaped) {
			/* nobody reads the rest; collect what was written */
			if (c->in >= 0) {
				r->short_write = r->off < r->len;
				close(c->in);
				c->in = -1;
			}
			while (c->out >= 0 && r->nout < sizeof(r->out) - 1 &&
			       (n = read(c->out, r->out + r->nout,
					 sizeof(r->out) - 1 - r->nout)) > 0)
				r->nout += (size_t)n;
			if (c->out >= 0)
				close(c->out);
			c->out = -1;
			break;
		}
		if (left <= 0) {
			r->timed_out = true;
			break;
		}
		if (c->in >= 0)
			pfd[npfd++] = (struct pollfd){ c->in, POLLOUT, 0 };
		if (c->out >= 0)
			pfd[npfd++] = (struct pollfd){ c->out, POLLIN, 0 };
		if (c->pidfd >= 0)
			pfd[npfd++] = (struct pollfd){ c->pidfd, POLLIN, 0 };
		wait_ms = left > 1e6 ? 1000000 : (int)left + 1;
		if (c->pidfd < 0 && wait_ms > 5)
			wait_ms = 5;
		if (poll(pfd, npfd, wait_ms) < 0 && errno != EINTR)
			break;
		for (i = 0; i < npfd; i++) {
			if (!pfd[i].revents)
				continue;
			if (pfd[i].fd == c->in)
				run_write(r);
			else if (pfd[i].fd == c->out)
				run_read(r);
		}
	}
	if (!c->reaped) {
		/* overrun: kill sendmail and whatever it started */
		kill(-c->pid, SIGKILL);
		kill(c->pid, SIGKILL);
		child_reap(c, true);
		r->timed_out = true;
	}
	r->out[r->nout] = '\0';
	first_line(r->out);
}

/* run_result - what the run came to, in res */
static void run_result(const struct run *r, const char *sendmail_path,
		       unsigned timeout_ms, struct deliver_result *res)
{
	int status = r->c.status, code;

	if (r->exec_errno) {
		set_detail(res, DELIVER_TEMPORARY, "cannot execute %s: %s",
			   sendmail_path, strerror(r->exec_errno));
	} else if (r->timed_out) {
		set_detail(res, DELIVER_TEMPORARY,
			   "sendmail timed out after %u ms", timeout_ms);
	} else if (status == -1) {
		set_detail(res, DELIVER_TEMPORARY,
			   "sendmail exit status lost (SIGCHLD ignored?)");
	} else if (WIFSIGNALED(status)) {
		res->exit_status = 128 + WTERMSIG(status);
		set_detail(res, DELIVER_TEMPORARY,
			   "sendmail killed by signal %d", WTERMSIG(status));
	} else if (WIFEXITED(status)) {
		code = WEXITSTATUS(status);
		res->exit_status = code;
		if (code == 0 && r->short_write)
			set_detail(res, DELIVER_TEMPORARY,
				   "sendmail exited before reading the "
				   "message (%zu of %zu bytes)",
				   r->off, r->len);
		else if (code == 0)
			set_detail(res, DELIVER_OK, "queued by sendmail%s%s",
				   *r->out ? ": " : "", r->out);
		else
			set_detail(res,
				   exit_temporary(code) ? DELIVER_TEMPORARY
							: DELIVER_PERMANENT,
				   "sendmail exit %d (%s)%s%s", code,
				   sysexit_name(code), *r->out ? ": " : "",
				   r->out);
	}
}

/*
 * deliver_sendmail - run "sendmail -i -f FROM -- RCPT..." (no shell) with
 * the message on standard input, killed after timeout_ms; 0 when queued
 */
/* bare_cr - msg has a CR that does not end a line (CRLF) */
static bool bare_cr(const char *msg, size_t len)
{
	const char *p = msg, *end = msg + len;

	while ((p = memchr(p, '\r', (size_t)(end - p)))) {
		if (p + 1 >= end || p[1] != '\n')
			return true;
		p += 2;
	}
	return false;
}

int deliver_sendmail(const char *sendmail_path, unsigned timeout_ms,
		     const char *envelope_from, const char *const *rcpts,
		     const void *msg, size_t len, struct deliver_result *res)
{
	int inp[2] = { -1, -1 }, outp[2] = { -1, -1 };
	struct run r = { .c = { -1, -1, -1, -1, false, 0 },
			 .msg = msg,
			 .len = len };
	struct strbuf lines = STRBUF_INIT(len * 2 + 2);
	sigset_t pipeset, oldset, pending;
	bool had_sigpipe;
	char **argv;
	size_t i;

	deliver_result_init(res);
	if (!envelope_from)
		envelope_from = "";
	argv = sendmail_argv(sendmail_path, envelope_from, rcpts, res);
	if (!argv)
		return -1;
	/*
	 * A bare CR would reach the next SMTP servers as it is, and one that
	 * reads it as a line end could see a "<CR>.<CR>" the sender wrote as
	 * the end of our DATA (SMTP smuggling): with one, sendmail gets the
	 * lines the SMTP transport sends (deliver_to_crlf()), CRLF ended.
	 */
	if (bare_cr(msg, len)) {
		if (len > SIZE_MAX / 2 - 2 ||
		    deliver_to_crlf(msg, len, &lines) < 0) {
			set_detail(res, DELIVER_PERMANENT,
				   "the message is too large to convert");
			free(argv);
			return -1;
		}
		r.msg = lines.buf;
		r.len = lines.len;
	}
	if (!timeout_ms)
		timeout_ms = DELIVER_TIMEOUT_MS;

	if (pipe2(inp, O_CLOEXEC) < 0 || pipe2(outp, O_CLOEXEC) < 0) {
		set_detail(res, DELIVER_TEMPORARY, "pipe: %s", strerror(errno));
		goto close_all;
	}
	/* EPIPE, not SIGPIPE, when sendmail stops reading */
	sigemptyset(&pipeset);
	sigaddset(&pipeset, SIGPIPE);
	sigpending(&pending);
	had_sigpipe = sigismember(&pending, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipeset, &oldset);

	{
		double deadline = mono_ms() + timeout_ms;

		run_start(&r, sendmail_path, argv, inp, outp);
		run_wait(&r, deadline);
	}
	run_result(&r, sendmail_path, timeout_ms, res);

	/* swallow a SIGPIPE we caused, then restore the mask */
	if (!had_sigpipe) {
		struct timespec zero = { 0, 0 };

		sigpending(&pending);
		if (sigismember(&pending, SIGPIPE))
			sigtimedwait(&pipeset, NULL, &zero);
	}
	pthread_sigmask(SIG_SETMASK, &oldset, NULL);

close_all:
	if (r.c.in >= 0)
		close(r.c.in);
	if (r.c.out >= 0)
		close(r.c.out);
	if (r.c.pidfd >= 0)
		close(r.c.pidfd);
	for (i = 0; i < 2; i++) {
		if (inp[i] >= 0)
			close(inp[i]);
		if (outp[i] >= 0)
			close(outp[i]);
	}
	free(argv);
	sb_release(&lines);
	return res->status == DELIVER_OK ? 0 : -1;
}

/* ---- retry schedule ------------------------------------------------- */

static const unsigned backoff_secs[] = { 60, 300, 900, 3600, 14400 };

/*
 * deliver_backoff - when to try again after the given number of temporary
 * failures of a message queued at queued_at: 1m, 5m, 15m, 1h, then every 4h, the
 * last try at queued_at + max_age (0: DELIVER_MAX_AGE); false: give up
 */
bool deliver_backoff(time_t queued_at, time_t now, unsigned failures,
		     time_t max_age, time_t *next)
{
	time_t deadline;
	unsigned k;

	if (max_age <= 0)
		max_age = DELIVER_MAX_AGE;
	deadline = queued_at + max_age;
	if (now >= deadline)
		return false;
	if (failures == 0) {
		*next = now;
		return true;
	}
	k = failures - 1 < ARRAY_SIZE(backoff_secs)
		    ? failures - 1
		    : (unsigned)ARRAY_SIZE(backoff_secs) - 1;
	*next = now + (time_t)backoff_secs[k];
	if (*next > deadline)
		*next = deadline;
	return true;
}
