// SPDX-License-Identifier: GPL-2.0-only
/*
 * parse - one message to headers and UTF-8 text parts (see parse.h)
 *
 * gmime objects and GLib strings live only inside this file: every
 * string is copied into the report, and every reference a function
 * takes is released at its single out: label.
 */
#include <errno.h>
#include <gmime/gmime.h>
#include <iconv.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "intake.h"
#include "mimetext.h"
#include "parse.h"
#include "strbuf.h"
#include "util.h"

/* gmime 3.2.13 cannot be initialised again after g_mime_shutdown() */
static enum { PARSE_DOWN, PARSE_UP, PARSE_SHUT } state;

/* parse_init - initialise gmime once per process */
int parse_init(void)
{
	if (state == PARSE_SHUT)
		return error("parse: gmime cannot be initialised twice");
	if (state == PARSE_DOWN) {
		g_mime_init();
		state = PARSE_UP;
	}
	return 0;
}

/* parse_shutdown - release gmime's global state, for good (LeakSanitizer) */
void parse_shutdown(void)
{
	if (state == PARSE_UP) {
		g_mime_shutdown();
		state = PARSE_SHUT;
	}
}

struct parse_state {
	struct report *r;
	size_t budget;	  /* decoded text bytes still allowed */
	bool malformed;	  /* a GMIME_CRIT_* warning */
	bool all_nested;  /* the message itself is a message/rfc822 */
	char **msg_paths; /* enclosing message/rfc822 parts */
	size_t nmsg, amsg;
};

static void on_warning(gint64 offset, GMimeParserWarning code,
		       const gchar *item, gpointer data)
{
	struct parse_state *st = data;

	switch (code) {
	case GMIME_CRIT_INVALID_HEADER_NAME:
	case GMIME_CRIT_CONFLICTING_HEADER:
	case GMIME_CRIT_CONFLICTING_PARAMETER:
	case GMIME_CRIT_MULTIPART_WITHOUT_BOUNDARY:
	case GMIME_CRIT_NESTING_OVERFLOW:
	case GMIME_CRIT_PART_WITHOUT_HEADERS_OR_CONTENT:
		st->malformed = true;
		break;
	default:
		break;
	}
}

/* set_str - replace *slot with a trimmed one-line UTF-8 copy of s */
static void set_str(char **slot, const char *s, size_t max)
{
	struct strbuf sb = STRBUF_INIT(max);
	char *p, *t;

	free(*slot);
	mimetext_repair(&sb, s ? s : "", s ? strlen(s) : 0, MIMETEXT_LINE);
	p = sb_detach(&sb, NULL);
	t = trim(p);
	if (t != p)
		memmove(p, t, strlen(t) + 1);
	*slot = p;
}

/* ---- text parts ------------------------------------------------------- */

static bool is_utf8_label(const char *cs)
{
	return !cs || !strcasecmp(cs, "utf-8") || !strcasecmp(cs, "utf8") ||
	       !strcasecmp(cs, "us-ascii") || !strcasecmp(cs, "ascii") ||
	       !strcasecmp(cs, "x-unknown") || !strcasecmp(cs, "unknown-8bit");
}

static bool is_latin1_label(const char *cs)
{
	const char *canon = g_mime_charset_canon_name(cs);

	return canon && (!strcasecmp(canon, "iso-8859-1") ||
			 !strcasecmp(canon, "windows-1252") ||
			 !strcasecmp(canon, "cp1252"));
}

/*
 * iconv_utf8 - convert with iconv into sb (which bounds the output): a
 * byte that does not convert becomes U+FFFD and conversion goes on; -1
 * when the output was cut.
 */
static int iconv_utf8(struct strbuf *sb, iconv_t cd, const char *data,
		      size_t len)
{
	char out[4096], *in = (char *)data, *op;
	size_t inleft = len, outleft, rc;
	int ret = 0;

	while (inleft > 0 && ret == 0) {
		op = out;
		outleft = sizeof(out);
		rc = iconv(cd, &in, &inleft, &op, &outleft);
		if (sb_add(sb, out, (size_t)(op - out)) < 0)
			ret = -1;
		if (rc != (size_t)-1 || errno == E2BIG)
			continue;
		if (sb_adds(sb, "\xef\xbf\xbd") < 0)
			ret = -1;
		if (errno != EILSEQ)
			break; /* EINVAL: a character cut at the end */
		in++;
		inleft--;
		iconv(cd, NULL, NULL, NULL, NULL);
	}
	op = out;
	outleft = sizeof(out);
	iconv(cd, NULL, NULL, &op, &outleft); /* end any shift state */
	if (ret == 0 && sb_add(sb, out, (size_t)(op - out)) < 0)
		ret = -1;
	return ret;
}

/*
 * to_utf8 - decoded bytes in charset cs into sb, "\n" line ends; -1 when
 * cut at sb's cap.  Unlabelled, UTF-8 and unknown charsets are read as
 * UTF-8 or windows-1252, whichever the bytes look like.
 */
static int to_utf8(struct strbuf *sb, const char *data, size_t len,
		   const char *cs)
{
	struct strbuf conv = STRBUF_INIT(sb->max - sb->len + 64);
	iconv_t cd;
	int ret;

	if (is_utf8_label(cs))
		return mimetext_decode(sb, data, len, MIMETEXT_LF);
	if (is_latin1_label(cs))
		return mimetext_cp1252(sb, data, len, MIMETEXT_LF);
	cd = g_mime_iconv_open("UTF-8", g_mime_charset_iconv_name(cs));
	if (cd == (iconv_t)-1)
		return mimetext_decode(sb, data, len, MIMETEXT_LF);
	ret = iconv_utf8(&conv, cd, data, len);
	g_mime_iconv_close(cd);
	/* iconv wrote UTF-8; this fixes line ends and controls */
	if (mimetext_repair(sb, sb_str(&conv), conv.len, MIMETEXT_LF) < 0)
		ret = -1;
	sb_release(&conv);
	return ret;
}

static bool has_suffix_ci(const char *s, const char *suffix)
{
	size_t n = s ? strlen(s) : 0, k = strlen(suffix);

	return n >= k && strcasecmp(s + n - k, suffix) == 0;
}

enum kind { K_BINARY, K_TEXT, K_HTML, K_SNIFF };

static enum kind part_kind(const char *type, const char *filename)
{
	static const char *const not_text[] = {
		"application/pgp-signature",	 "application/pkcs7-signature",
		"application/x-pkcs7-signature", "application/pgp-keys",
		"application/pgp-encrypted",	 "application/pkcs7-mime",
	};
	size_t i;

	if (!strcmp(type, "text/html"))
		return K_HTML;
	if (starts_with(type, "text/") || starts_with(type, "message/"))
		return K_TEXT;
	for (i = 0; i < ARRAY_SIZE(not_text); i++)
		if (!strcmp(type, not_text[i]))
			return K_BINARY;
	if (starts_with(type, "application/") || has_suffix_ci(filename, ".gz"))
		return K_SNIFF;
	return K_BINARY;
}

/* set_text - hand sb's text to the part, account for it */
static void set_text(struct parse_state *st, struct report_part *p,
		     struct strbuf *sb, int cut)
{
	p->text = sb_detach(sb, &p->len);
	p->flags |= PART_TEXT;
	st->budget -= p->len;
	if (cut < 0) {
		p->flags |= PART_TRUNCATED;
		st->r->flags |= REPORT_TRUNCATED;
	}
}

/*
 * decode_text - the decoded bytes of one leaf part to text, by kind;
 * leaves the part binary when it is not text.
 */
static void decode_text(struct parse_state *st, struct report_part *p,
			enum kind kind, const char *data, size_t len,
			const char *charset)
{
	struct strbuf sb = STRBUF_INIT(st->budget);
	size_t in = len;
	int cut = 0;
	bool gz = kind != K_HTML && mimetext_is_gzip(data, len);

	if (kind == K_SNIFF && !gz && !mimetext_looks_text(data, len))
		return; /* binary */
	if (st->budget == 0) {
		p->flags |= PART_TRUNCATED;
		st->r->flags |= REPORT_TRUNCATED;
		return;
	}
	/* gzip data is never text, whatever its label says */
	if (gz) {
		char *z;
		size_t zlen;
		bool ztrunc;

		if (mimetext_gunzip(data, len, st->budget, &z, &zlen, &ztrunc) <
		    0)
			return;
		if (ztrunc) {
			p->flags |= PART_TRUNCATED;
			st->r->flags |= REPORT_TRUNCATED;
		}
		if (mimetext_looks_text(z, zlen)) {
			cut = mimetext_decode(&sb, z, zlen, MIMETEXT_LF);
			p->flags |= PART_GZIP;
			set_text(st, p, &sb, cut);
		}
		free(z);
		return;
	}
	if (kind == K_HTML) {
		struct strbuf src = STRBUF_INIT(PARSE_HTML_MAX);
		size_t hidden;

		cut = to_utf8(&src, data, len, charset);
		if (mimetext_html_hidden(&sb, sb_str(&src), src.len, &hidden) <
		    0)
			cut = -1;
		sb_release(&src);
		p->flags |= PART_HTML;
		/* a sentence or more hidden: a preview line is not */
		if (hidden >= PARSE_HIDDEN_MIN)
			p->flags |= PART_HIDDEN;
		set_text(st, p, &sb, cut);
		return;
	}
	/* conversion never needs more input than output budget + a char */
	if (in > st->budget + 4)
		in = st->budget + 4;
	cut = to_utf8(&sb, data, in, charset);
	if (in < len)
		cut = -1;
	set_text(st, p, &sb, cut);
}

/*
 * base64_strict - decode well-formed base64 (alphabet characters in
 * groups of four, line breaks and blanks anywhere, "=" padding only at
 * the end) into a new NUL-terminated buffer; NULL for anything else,
 * which GMime's lenient decoder handles.  Well-formed input has one
 * decoding, so the result is GMime's, at a fraction of the cost of
 * GMime's stream filter ('make bench': the 2 MB report).
 */
static char *base64_strict(const unsigned char *in, size_t n, size_t *len)
{
	/* base64 value of a byte; -2 for CR, LF, blank, tab; -1 otherwise */
	static const signed char val[256] = {
		-1, -1, -1, -1, -1, -1, -1, -1, -1, -2, -2, -1, -1, -2, -1, -1,
		-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
		-2, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 62, -1, -1, -1, 63,
		52, 53, 54, 55, 56, 57, 58, 59, 60, 61, -1, -1, -1, -1, -1, -1,
		-1, 0,	1,  2,	3,  4,	5,  6,	7,  8,	9,  10, 11, 12, 13, 14,
		15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, -1, -1, -1, -1, -1,
		-1, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40,
		41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, -1, -1, -1, -1, -1,
		-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
		-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
		-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
		-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
		-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
		-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
		-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
		-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
	};
	unsigned char *out, *o;
	uint32_t acc = 0;
	size_t i, k = 0, pad = 0;

	o = out = xmalloc(n / 4 * 3 + 4);
	for (i = 0; i < n; i++) {
		int v;

		/* whole groups of four at a time between line breaks */
		while (k == 0 && !pad && i + 4 <= n) {
			int a = val[in[i]], b = val[in[i + 1]],
			    c = val[in[i + 2]], d = val[in[i + 3]];
			uint32_t x;

			if ((a | b | c | d) < 0)
				break;
			x = (uint32_t)a << 18 | (uint32_t)b << 12 |
			    (uint32_t)c << 6 | (uint32_t)d;
			o[0] = (unsigned char)(x >> 16);
			o[1] = (unsigned char)(x >> 8);
			o[2] = (unsigned char)x;
			o += 3;
			i += 4;
		}
		if (i >= n)
			break;
		v = val[in[i]];
		if (v >= 0 && !pad) {
			acc = acc << 6 | (uint32_t)v;
			if (++k == 4) {
				o[0] = (unsigned char)(acc >> 16);
				o[1] = (unsigned char)(acc >> 8);
				o[2] = (unsigned char)acc;
				o += 3;
				k = 0;
				acc = 0;
			}
		} else if (v == -2) {
			continue;
		} else if (in[i] == '=' && k >= 2 && k + pad < 4) {
			pad++;
		} else {
			free(out);
			return NULL;
		}
	}
	if (pad ? k + pad != 4 : k != 0) {
		free(out);
		return NULL;
	}
	if (pad) { /* "xx==" is one byte, "xxx=" two */
		acc <<= 6 * pad;
		*o++ = (unsigned char)(acc >> 16);
		if (k == 3)
			*o++ = (unsigned char)(acc >> 8);
	}
	*o = '\0';
	*len = (size_t)(o - out);
	return (char *)out;
}

/*
 * base64_head - decode the first whole groups of base64 text into out
 * (at most max bytes, a multiple of 3); stops at padding, at the end
 * or at max.  Returns the bytes decoded, or -1 at a byte that is not
 * base64 (GMime's lenient decoder then reads it: no peek).
 */
static long base64_head(const unsigned char *in, size_t n, unsigned char *out,
			size_t max)
{
	uint32_t acc = 0;
	size_t i, k = 0, o = 0;

	for (i = 0; i < n && o + 3 <= max; i++) {
		unsigned char c = in[i];
		int v;

		if (c >= 'A' && c <= 'Z')
			v = c - 'A';
		else if (c >= 'a' && c <= 'z')
			v = c - 'a' + 26;
		else if (c >= '0' && c <= '9')
			v = c - '0' + 52;
		else if (c == '+' || c == '/')
			v = c == '+' ? 62 : 63;
		else if (c == '\r' || c == '\n' || c == ' ' || c == '\t')
			continue;
		else if (c == '=')
			break;
		else
			return -1;
		acc = acc << 6 | (uint32_t)v;
		if (++k == 4) {
			out[o++] = (unsigned char)(acc >> 16);
			out[o++] = (unsigned char)(acc >> 8);
			out[o++] = (unsigned char)acc;
			k = 0;
			acc = 0;
		}
	}
	return (long)o;
}

/*
 * base64_last4 - the last 4 bytes base64 text decodes to (a gzip
 * member's ISIZE): the last two groups; false when they cannot be told
 */
static bool base64_last4(const unsigned char *in, size_t n, uint32_t *v)
{
	unsigned char g[8], o[6];
	size_t k = 8, pad = 0, m, i;
	long got;

	while (n && k) {
		unsigned char c = in[--n];

		if (c == '\r' || c == '\n' || c == ' ' || c == '\t')
			continue;
		g[--k] = c;
	}
	if (k)
		return false;
	for (i = 6; i < 8; i++)
		if (g[i] == '=')
			pad++;
	for (i = 0; i < 8 - pad; i++)
		if (g[i] == '=')
			return false;
	/* "xx==" decodes to one byte, "xxx=" to two */
	for (i = 8 - pad; i < 8; i++)
		g[i] = 'A';
	got = base64_head(g, 8, o, sizeof(o));
	if (got != 6)
		return false;
	m = 6 - pad;
	*v = (uint32_t)o[m - 4] | (uint32_t)o[m - 3] << 8 |
	     (uint32_t)o[m - 2] << 16 | (uint32_t)o[m - 1] << 24;
	return true;
}

/* encoded - the part's content as it lies in the message, or NULL */
static const unsigned char *encoded(GMimePart *part, size_t *n,
				    GMimeContentEncoding *enc)
{
	GMimeDataWrapper *content = g_mime_part_get_content(part);
	GMimeStream *raw =
		content ? g_mime_data_wrapper_get_stream(content) : NULL;
	GByteArray *a;
	gint64 start, end;

	if (!raw || !GMIME_IS_STREAM_MEM(raw))
		return NULL;
	a = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(raw));
	start = raw->bound_start;
	end = raw->bound_end;
	if (a && end < 0)
		end = a->len;
	if (!a || start < 0 || start > end || end > (gint64)a->len)
		return NULL;
	*enc = g_mime_data_wrapper_get_encoding(content);
	*n = (size_t)(end - start);
	return a->data + start;
}

/*
 * Encoded bytes looked at: 8 KB tell gzip or binary data as well as
 * 64 KB did (a start that is not text means the whole is not; a start
 * that looks like text is decoded whole, as before), at a fraction of
 * the cost (the bench's 2 MB report) and with fewer stack pages.
 */
#define PEEK_IN	 (8u << 10)
#define PEEK_OUT 4096 /* bytes of a gzip part inflated to look */

/*
 * binary_part - true when the first bytes of an "application/" part
 * decide that it is not text, so that it is never decoded whole (a
 * 1.5 MB gzip core dump: its base64 decoded and inflated for nothing):
 * plain data with a NUL or bad UTF-8 in its first bytes, or gzip data
 * whose first inflated bytes are so.  What the whole decode would have
 * told is kept: a gzip part that inflates past the text budget (its
 * size from the gzip trailer) is flagged truncated.  False, and the
 * part is decoded as before, whenever the look cannot tell.
 */
static bool binary_part(struct parse_state *st, struct report_part *p,
			GMimePart *part)
{
	unsigned char head[PEEK_IN];
	char out[PEEK_OUT];
	const unsigned char *in;
	GMimeContentEncoding enc;
	size_t n, hn;
	long got, z;
	uint32_t isize;
	bool b64;

	in = encoded(part, &n, &enc);
	if (!in)
		return false;
	b64 = enc == GMIME_CONTENT_ENCODING_BASE64;
	if (b64) {
		got = base64_head(in, n < PEEK_IN ? n : PEEK_IN, head,
				  sizeof(head));
		if (got < 0)
			return false;
		hn = (size_t)got;
	} else if (enc == GMIME_CONTENT_ENCODING_DEFAULT ||
		   enc == GMIME_CONTENT_ENCODING_7BIT ||
		   enc == GMIME_CONTENT_ENCODING_8BIT ||
		   enc == GMIME_CONTENT_ENCODING_BINARY) {
		hn = n < PEEK_IN ? n : PEEK_IN;
		memcpy(head, in, hn);
	} else {
		return false;
	}
	if (hn < 10)
		return false; /* mimetext_is_gzip() needs 10 bytes */
	if (!mimetext_is_gzip(head, hn))
		return mimetext_binary_start((const char *)head, hn);
	if (st->budget < PEEK_OUT)
		return false;
	z = mimetext_gunzip_peek(head, hn, out, sizeof(out));
	if (z <= 0 || !mimetext_binary_start(out, (size_t)z))
		return false;
	/* the trailer's size: whether the whole would pass the budget */
	if (b64) {
		if (!base64_last4(in, n, &isize))
			return false;
	} else {
		if (n < 4)
			return false;
		isize = (uint32_t)in[n - 4] | (uint32_t)in[n - 3] << 8 |
			(uint32_t)in[n - 2] << 16 | (uint32_t)in[n - 1] << 24;
	}
	if (isize > st->budget) {
		p->flags |= PART_TRUNCATED;
		st->r->flags |= REPORT_TRUNCATED;
	}
	return true;
}

/* decoded - the transfer-decoded content of a part, into a new buffer */
static char *decoded(GMimePart *part, size_t *len)
{
	GMimeDataWrapper *content = g_mime_part_get_content(part);
	GMimeStream *mem = NULL, *raw;
	GByteArray *bytes;
	char *out = NULL;

	*len = 0;
	if (!content)
		goto out;
	/* base64 in the message's own buffer: decoded where it lies */
	raw = g_mime_data_wrapper_get_stream(content);
	if (g_mime_data_wrapper_get_encoding(content) ==
		    GMIME_CONTENT_ENCODING_BASE64 &&
	    raw && GMIME_IS_STREAM_MEM(raw)) {
		GByteArray *a =
			g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(raw));
		gint64 start = raw->bound_start, end = raw->bound_end;

		if (a && end < 0)
			end = a->len;
		if (a && start >= 0 && start <= end && end <= (gint64)a->len &&
		    (out = base64_strict(a->data + start, (size_t)(end - start),
					 len)))
			return out;
	}
	mem = g_mime_stream_mem_new();
	if (g_mime_data_wrapper_write_to_stream(content, mem) < 0)
		goto out;
	bytes = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
	out = xmemdup0(bytes->len ? (const char *)bytes->data : "", bytes->len);
	*len = bytes->len;
out:
	if (mem)
		g_object_unref(mem);
	return out;
}

static bool is_nested(struct parse_state *st, const char *path)
{
	while (st->nmsg) {
		const char *m = st->msg_paths[st->nmsg - 1];
		size_t n = strlen(m);

		if (!strncmp(path, m, n) && path[n] == '.')
			return true;
		free(st->msg_paths[--st->nmsg]);
	}
	return false;
}

static void add_part(struct parse_state *st, GMimeObject *obj, const char *path)
{
	GMimePart *part = GMIME_PART(obj);
	GMimeContentType *ct = g_mime_object_get_content_type(obj);
	GMimeContentDisposition *disp;
	GMimeDataWrapper *content;
	struct report_part *p;
	char *type = NULL, *data = NULL;
	const char *filename;
	size_t len;
	enum kind kind;

	p = report_add_part(st->r);
	p->path = xstrdup(strcmp(path, "0") ? path : "1");
	type = ct ? g_mime_content_type_get_mime_type(ct) : NULL;
	set_str(&p->mime_type, type ? type : "text/plain", 255);
	str_tolower(p->mime_type);
	filename = g_mime_part_get_filename(part);
	if (filename)
		set_str(&p->filename, filename, 255);
	disp = g_mime_object_get_content_disposition(obj);
	if (p->filename ||
	    (disp && g_mime_content_disposition_is_attachment(disp)))
		p->flags |= PART_ATTACHMENT;
	if (is_nested(st, p->path) || st->all_nested)
		p->flags |= PART_NESTED;
	content = g_mime_part_get_content(part);
	if (content) {
		GMimeStream *raw = g_mime_data_wrapper_get_stream(content);
		gint64 n = raw ? g_mime_stream_length(raw) : -1;

		p->raw_size = n > 0 ? (size_t)n : 0;
	}

	kind = part_kind(p->mime_type, p->filename);
	if (kind == K_BINARY || (kind == K_SNIFF && binary_part(st, p, part)))
		goto out;
	data = decoded(part, &len);
	if (!data)
		goto out;
	decode_text(st, p, kind, data, len,
		    ct ? g_mime_content_type_get_parameter(ct, "charset")
		       : NULL);
out:
	free(data);
	g_free(type);
}

static void walk_parts(struct parse_state *st, GMimeMessage *msg)
{
	GMimePartIter *iter = g_mime_part_iter_new(GMIME_OBJECT(msg));

	/* the iterator starts inside a top-level message/rfc822 */
	st->all_nested =
		GMIME_IS_MESSAGE_PART(g_mime_message_get_mime_part(msg));

	while (g_mime_part_iter_is_valid(iter)) {
		GMimeObject *obj = g_mime_part_iter_get_current(iter);
		char *path = g_mime_part_iter_get_path(iter);

		if (st->r->nparts >= PARSE_MAX_PARTS) {
			st->r->flags |= REPORT_TRUNCATED;
			g_free(path);
			break;
		}
		if (GMIME_IS_MESSAGE_PART(obj)) {
			is_nested(st, path); /* pop what this is not inside */
			ALLOC_GROW(st->msg_paths, st->nmsg, st->amsg);
			st->msg_paths[st->nmsg++] = xstrdup(path);
		} else if (GMIME_IS_PART(obj)) {
			add_part(st, obj, path);
		}
		g_free(path);
		if (!g_mime_part_iter_next(iter))
			break;
	}
	g_mime_part_iter_free(iter);
	while (st->nmsg)
		free(st->msg_paths[--st->nmsg]);
	free(st->msg_paths);
	st->msg_paths = NULL;
	st->amsg = 0;
}

/* ---- headers ---------------------------------------------------------- */

static void first_mailbox(InternetAddressList *list, struct report *r)
{
	int i, n = list ? internet_address_list_length(list) : 0;

	for (i = 0; i < n; i++) {
		InternetAddress *a = internet_address_list_get_address(list, i);

		if (INTERNET_ADDRESS_IS_MAILBOX(a)) {
			set_str(&r->from_addr,
				internet_address_mailbox_get_addr(
					INTERNET_ADDRESS_MAILBOX(a)),
				998);
			str_tolower(r->from_addr);
			return;
		}
		if (INTERNET_ADDRESS_IS_GROUP(a)) {
			first_mailbox(internet_address_group_get_members(
					      INTERNET_ADDRESS_GROUP(a)),
				      r);
			if (*r->from_addr)
				return;
		}
	}
}

static bool ascii_only(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80)
			return false;
	return true;
}

/*
 * ascii_idn - each mailbox of list with an ASCII domain made its own IDN
 * form, before internet_address_list_to_string(), which writes every
 * mailbox's idn_addr: GMime computes it with idn2_to_ascii_8z(), which
 * gives an ASCII domain back but for case (GMime then keeps the domain
 * as written) or fails (GMime keeps it too), so the string is the same;
 * but only after Unicode normalisation, whose tables (libunistring) cost
 * the one-shot filter more page faults than the rest of the parse.  The
 * field is public (internet-address.h); GMime frees it with g_free().
 */
static void ascii_idn(InternetAddressList *list)
{
	int i, n = list ? internet_address_list_length(list) : 0;

	for (i = 0; i < n; i++) {
		InternetAddress *a = internet_address_list_get_address(list, i);

		if (INTERNET_ADDRESS_IS_MAILBOX(a)) {
			InternetAddressMailbox *mb =
				INTERNET_ADDRESS_MAILBOX(a);

			if (!mb->idn_addr && mb->addr && mb->at > 0 &&
			    ascii_only(mb->addr + mb->at + 1))
				mb->idn_addr = g_strdup(mb->addr);
		} else if (INTERNET_ADDRESS_IS_GROUP(a)) {
			ascii_idn(internet_address_group_get_members(
				INTERNET_ADDRESS_GROUP(a)));
		}
	}
}

/* msgid - a message id without "<>", or NULL */
static char *msgid(const char *value)
{
	char *id, *out = NULL;

	if (!value)
		return NULL;
	id = g_mime_utils_decode_message_id(value);
	if (id && *id)
		set_str(&out, id, 998);
	g_free(id);
	if (out && !*out) {
		free(out);
		out = NULL;
	}
	return out;
}

static void add_header(struct report *r, GMimeHeader *h)
{
	char *name = NULL, *value = NULL;

	set_str(&name, g_mime_header_get_name(h), 255);
	set_str(&value, g_mime_header_get_value(h), PARSE_HEADER_MAX);
	report_add_header(r, name, value);
	free(name);
	free(value);
}

/*
 * add_headers - the top-level headers in the order they were written:
 * gmime keeps Content-* on the message's MIME part and the rest on the
 * message, so merge the two lists by stream offset.
 */
static void add_headers(struct report *r, GMimeMessage *msg)
{
	GMimeObject *body = g_mime_message_get_mime_part(msg);
	GMimeHeaderList *a = g_mime_object_get_header_list(GMIME_OBJECT(msg));
	GMimeHeaderList *b = body ? g_mime_object_get_header_list(body) : NULL;
	int na = a ? g_mime_header_list_get_count(a) : 0;
	int nb = b ? g_mime_header_list_get_count(b) : 0;
	int i = 0, j = 0;

	while (i < na || j < nb) {
		GMimeHeader *ha =
			i < na ? g_mime_header_list_get_header_at(a, i) : NULL;
		GMimeHeader *hb =
			j < nb ? g_mime_header_list_get_header_at(b, j) : NULL;

		if (ha && (!hb || g_mime_header_get_offset(ha) <=
					  g_mime_header_get_offset(hb))) {
			add_header(r, ha);
			i++;
		} else {
			add_header(r, hb);
			j++;
		}
	}
}

static void read_headers(struct report *r, GMimeMessage *msg)
{
	GMimeObject *obj = GMIME_OBJECT(msg);
	InternetAddressList *from = g_mime_message_get_from(msg);
	GDateTime *when = g_mime_message_get_date(msg);
	const char *v;

	add_headers(r, msg);
	v = g_mime_message_get_message_id(msg);
	if (v && *v) {
		set_str(&r->message_id, v, 998);
		if (!*r->message_id) {
			free(r->message_id);
			r->message_id = NULL;
		}
	}
	set_str(&r->subject, g_mime_message_get_subject(msg), PARSE_HEADER_MAX);
	if (from && internet_address_list_length(from) > 0) {
		char *s;

		ascii_idn(from);
		s = internet_address_list_to_string(from, NULL, FALSE);

		set_str(&r->from, s, PARSE_HEADER_MAX);
		g_free(s);
		first_mailbox(from, r);
	}
	v = g_mime_object_get_header(obj, "Date");
	if (v)
		set_str(&r->date, v, 998);
	if (when)
		r->when = (time_t)g_date_time_to_unix(when);
	free(r->in_reply_to);
	r->in_reply_to = msgid(g_mime_object_get_header(obj, "In-Reply-To"));
}

/* ---- the report ------------------------------------------------------- */

/* add_plain - the whole input as one text part (a log, unparseable mail) */
static void add_plain(struct parse_state *st, const char *data, size_t len)
{
	struct report_part *p = report_add_part(st->r);
	struct strbuf sb = STRBUF_INIT(st->budget);
	int cut;

	p->path = xstrdup("1");
	p->mime_type = xstrdup("text/plain");
	p->raw_size = len;
	cut = mimetext_decode(&sb, data, len, MIMETEXT_LF);
	set_text(st, p, &sb, cut);
}

static bool blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n')
			return false;
	return true;
}

static const struct report_part *pick_body(struct report *r)
{
	size_t i;

	for (i = 0; i < r->nparts; i++) {
		const struct report_part *p = &r->parts[i];

		if ((p->flags & PART_TEXT) && !(p->flags & PART_ATTACHMENT) &&
		    !strcmp(p->mime_type, "text/plain") &&
		    !blank(p->text, p->len))
			return p;
	}
	for (i = 0; i < r->nparts; i++) {
		const struct report_part *p = &r->parts[i];

		if ((p->flags & PART_HTML) && !blank(p->text, p->len)) {
			r->flags |= REPORT_HTML_ONLY;
			return p;
		}
	}
	for (i = 0; i < r->nparts; i++)
		if ((r->parts[i].flags & PART_TEXT) &&
		    !blank(r->parts[i].text, r->parts[i].len))
			return &r->parts[i];
	return NULL;
}

/*
 * A message opened where it lies: the parser reads a byte array that
 * borrows data (the stream does not own it, and nothing writes to it)
 * instead of a copy of a message that can be megabytes.
 */
struct borrowed {
	GByteArray *bytes;
	GMimeStream *stream;
	GMimeParser *parser;
	GMimeParserOptions *opts;
};

/*
 * borrowed_open - the message in data, parsed as parse_report() reads
 * every message: RFC 2047 words, addresses and parameters loosely,
 * undeclared 8-bit text as UTF-8 or else windows-1252, warnings to
 * on_warn(st) when given; NULL when it is none (b is then still to close).
 * The sendable copy is opened the same way, so what it writes back was
 * read as the report was.
 */
static GMimeMessage *borrowed_open(struct borrowed *b, const char *data,
				   size_t len, GMimeParserWarningFunc on_warn,
				   void *st)
{
	static const char *fallback[] = { "utf-8", "windows-1252", NULL };

	b->bytes = g_byte_array_new_take((guint8 *)data, len);
	b->stream = g_mime_stream_mem_new_with_byte_array(b->bytes);
	g_mime_stream_mem_set_owner(GMIME_STREAM_MEM(b->stream), FALSE);
	b->parser = g_mime_parser_new_with_stream(b->stream);
	g_mime_parser_set_format(b->parser, GMIME_FORMAT_MESSAGE);
	b->opts = g_mime_parser_options_new();
	if (on_warn)
		g_mime_parser_options_set_warning_callback(b->opts, on_warn,
							   st);
	g_mime_parser_options_set_rfc2047_compliance_mode(
		b->opts, GMIME_RFC_COMPLIANCE_LOOSE);
	g_mime_parser_options_set_address_compliance_mode(
		b->opts, GMIME_RFC_COMPLIANCE_LOOSE);
	g_mime_parser_options_set_parameter_compliance_mode(
		b->opts, GMIME_RFC_COMPLIANCE_LOOSE);
	g_mime_parser_options_set_fallback_charsets(b->opts, fallback);
	return g_mime_parser_construct_message(b->parser, b->opts);
}

/* borrowed_close - what borrowed_open() made; the data stays the caller's */
static void borrowed_close(struct borrowed *b)
{
	if (b->opts)
		g_mime_parser_options_free(b->opts);
	if (b->parser)
		g_object_unref(b->parser);
	if (b->stream)
		g_object_unref(b->stream);
	if (b->bytes)
		g_byte_array_free(b->bytes, FALSE);
	memset(b, 0, sizeof(*b));
}

/* parse_report_limits - parse r->raw with the given intake limits */
int parse_report_limits(struct report *r, const struct intake_limits *lim)
{
	return parse_report_scanned(r, lim, NULL);
}

/* parse_report_scanned - parse r->raw, intake's pre-scan of it given */
int parse_report_scanned(struct report *r, const struct intake_limits *lim,
			 const struct intake_scan *given)
{
	struct parse_state st = { .r = r, .budget = REPORT_TEXT_MAX };
	struct borrowed b = { 0 };
	GMimeMessage *msg = NULL;
	const struct report_part *body;
	struct intake_scan scan;
	char *safe = NULL;
	char *data = r->raw;
	size_t len = r->raw_len;

	if (state != PARSE_UP)
		return error("parse: parse_init() was not called");
	if (!r->raw)
		return error("parse: no message to parse");

	if (given)
		scan = *given;
	else
		intake_scan(r->raw, r->raw_len, lim, &scan);
	if ((r->flags & REPORT_NOT_MIME) || !scan.is_mail) {
		r->flags |= REPORT_NOT_MIME;
		add_plain(&st, data, len);
		goto out;
	}
	if (scan.caps) {
		safe = intake_sanitize(r->raw, r->raw_len, lim, &scan, &len);
		data = safe;
		r->flags |= REPORT_OVERSIZED;
	}
	if (r->flags & REPORT_OVERSIZED)
		r->flags |= REPORT_TRUNCATED;

	msg = borrowed_open(&b, data, len, on_warning, &st);
	if (!msg) {
		r->flags |= REPORT_MALFORMED;
		add_plain(&st, data, len);
		goto out;
	}
	read_headers(r, msg);
	walk_parts(&st, msg);
	if (st.malformed)
		r->flags |= REPORT_MALFORMED;
out:
	body = pick_body(r);
	free(r->body);
	r->body = xmemdup0(body ? body->text : "", body ? body->len : 0);
	r->body_len = body ? body->len : 0;
	if (msg)
		g_object_unref(msg);
	borrowed_close(&b);
	free(safe);
	return 0;
}

/* parse_report - parse r->raw with the default intake limits */
int parse_report(struct report *r)
{
	return parse_report_limits(r, NULL);
}

/* ---- a sendable copy ---------------------------------------------------- */

/* stream_bytes - what stream holds from its start, into a new array */
static GByteArray *stream_bytes(GMimeStream *stream)
{
	GMimeStream *mem = g_mime_stream_mem_new();
	GByteArray *bytes = g_byte_array_new(), *held;

	g_mime_stream_reset(stream);
	if (g_mime_stream_write_to_stream(stream, mem) >= 0) {
		held = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
		g_byte_array_append(bytes, held->data, held->len);
	}
	g_mime_stream_reset(stream);
	g_object_unref(mem);
	return bytes;
}

/*
 * reencode - part's content decoded and set to be written in the 7-bit
 * encoding GMime's best-encoding filter picks for it (base64 for a NUL
 * or mostly 8-bit bytes, else quoted-printable), when the content as it
 * is in the message cannot go out (mimetext_unsendable()); 1 when it
 * was changed.  Only the part's Content-Transfer-Encoding header
 * changes: its Content-Type, which gmime 3.2.13 can loop for ever
 * re-encoding (#165), is never touched.
 */
static int reencode(GMimePart *part)
{
	GMimeDataWrapper *content = g_mime_part_get_content(part), *plain;
	GMimeStream *raw, *mem, *null, *filtered;
	GMimeFilter *best;
	GMimeContentEncoding enc;
	GByteArray *bytes;
	bool bad;

	if (!content || !(raw = g_mime_data_wrapper_get_stream(content)))
		return 0;
	bytes = stream_bytes(raw);
	bad = mimetext_unsendable((const char *)bytes->data, bytes->len);
	g_byte_array_free(bytes, TRUE);
	if (!bad)
		return 0;
	mem = g_mime_stream_mem_new();
	if (g_mime_data_wrapper_write_to_stream(content, mem) < 0) {
		g_object_unref(mem);
		return 0;
	}
	best = g_mime_filter_best_new(GMIME_FILTER_BEST_ENCODING);
	null = g_mime_stream_null_new();
	filtered = g_mime_stream_filter_new(null);
	g_mime_stream_filter_add(GMIME_STREAM_FILTER(filtered), best);
	g_mime_stream_reset(mem);
	g_mime_stream_write_to_stream(mem, filtered);
	g_mime_stream_flush(filtered);
	enc = g_mime_filter_best_encoding(GMIME_FILTER_BEST(best),
					  GMIME_ENCODING_CONSTRAINT_7BIT);
	g_object_unref(filtered);
	g_object_unref(null);
	g_object_unref(best);
	g_mime_stream_reset(mem);
	plain = g_mime_data_wrapper_new_with_stream(
		mem, GMIME_CONTENT_ENCODING_DEFAULT);
	g_mime_part_set_content(part, plain);
	g_mime_part_set_content_encoding(part, enc);
	g_object_unref(plain);
	g_object_unref(mem);
	return 1;
}

/* parse_sendable - r's message with its unsendable parts re-encoded */
int parse_sendable(const struct report *r, struct strbuf *out)
{
	struct borrowed b = { 0 };
	GMimeFormatOptions *format = NULL;
	GMimeStream *mem = NULL;
	GMimeMessage *msg = NULL;
	GMimePartIter *it;
	GByteArray *written;
	const char *nl;
	int changed = 0, ret = 1;
	size_t orig = out->len;

	if (state != PARSE_UP || !r->raw ||
	    (r->flags &
	     (REPORT_NOT_MIME | REPORT_OVERSIZED | REPORT_MALFORMED)))
		return 1;
	msg = borrowed_open(&b, r->raw, r->raw_len, NULL, NULL);
	if (!msg)
		goto out;
	it = g_mime_part_iter_new(GMIME_OBJECT(msg));
	while (g_mime_part_iter_is_valid(it)) {
		GMimeObject *obj = g_mime_part_iter_get_current(it);

		if (obj && GMIME_IS_PART(obj))
			changed += reencode(GMIME_PART(obj));
		if (!g_mime_part_iter_next(it))
			break;
	}
	g_mime_part_iter_free(it);
	if (!changed)
		goto out;
	format = g_mime_format_options_new();
	nl = memchr(r->raw, '\n', r->raw_len);
	if (nl && nl > r->raw && nl[-1] == '\r')
		g_mime_format_options_set_newline_format(
			format, GMIME_NEWLINE_FORMAT_DOS);
	mem = g_mime_stream_mem_new();
	if (g_mime_object_write_to_stream(GMIME_OBJECT(msg), format, mem) < 0)
		goto out;
	written = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
	/* what still cannot go out (a header line) is no copy */
	if (mimetext_unsendable((const char *)written->data, written->len) ||
	    sb_add(out, written->data, written->len) < 0) {
		sb_truncate(out, orig);
		goto out;
	}
	ret = 0;
out:
	if (mem)
		g_object_unref(mem);
	if (format)
		g_mime_format_options_free(format);
	if (msg)
		g_object_unref(msg);
	borrowed_close(&b); /* the bytes stay r's */
	return ret;
}
