/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mimetext - decoded bytes to clean UTF-8 text (libc and zlib only)
 *
 * DESCRIPTION
 *	The text half of the parse stage, kept apart from parse.c so that
 *	it links without gmime (Bugzilla text, tests) and can be tested on
 *	its own.  Every function appends to a bounded struct strbuf and
 *	stops at its cap on a character boundary, so what comes out is
 *	always valid UTF-8 with no NUL byte, whatever came in.
 *
 *	mimetext_repair() copies UTF-8, replacing each invalid sequence
 *	and each NUL with U+FFFD.  mimetext_decode() does the same, except
 *	that text which is mostly not UTF-8 is read as windows-1252 (a
 *	superset of ISO-8859-1 and the usual charset of unlabelled 8-bit
 *	mail).  With MIMETEXT_LF (texts), "\r\n" and a lone "\r" become
 *	"\n" and every other control character but tab and form feed
 *	becomes U+FFFD; with MIMETEXT_LINE (header values) tab, CR and LF
 *	become spaces and the other controls U+FFFD, so a value stays on
 *	one line.  Either way no escape sequence (C0 or C1) reaches a
 *	triager's terminal.
 *
 *	mimetext_html() renders HTML as text: tags are dropped, <br>, <p>,
 *	<div>, <li>, <tr>, <pre> and the other block elements end lines,
 *	white space collapses except inside <pre>, entities are decoded,
 *	and <script>, <style> and <title> contents and comments are
 *	dropped, and so is what an element's style hides from the reader
 *	("display:none", "visibility:hidden", "font-size:0", "opacity:0",
 *	"max-height:0", "left:-9999px"), as a mail client shows it: junk
 *	hides a decoy paragraph there for the filters.
 *	mimetext_html_hidden() also counts the letters of the text so
 *	hidden.  One pass, no recursion: linear in the input.
 *
 *	mimetext_gunzip() inflates gzip data (one or more members) into at
 *	most max bytes, so a decompression bomb is cut rather than
 *	followed.
 *
 * Ownership:
 *	The caller owns every buffer; mimetext_gunzip() returns a new one
 *	in *out that the caller frees.
 *
 * Errors:
 *	The appending functions return 0, or -1 when the output was cut at
 *	the strbuf's cap (what fit is kept).  mimetext_gunzip() returns -1
 *	when nothing could be inflated.  Nothing is printed.
 */
#ifndef TRIAGE_MIMETEXT_H
#define TRIAGE_MIMETEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "strbuf.h"

enum {
	MIMETEXT_LF = 1 << 0,	/* CRLF and lone CR become LF */
	MIMETEXT_LINE = 1 << 1, /* one line: controls become space/U+FFFD */
};

size_t mimetext_utf8_cut(const char *s, size_t len, size_t max);
bool mimetext_utf8_mostly(const char *s, size_t len);
bool mimetext_looks_text(const char *s, size_t len);
/* the start of data that decides mimetext_looks_text() is false */
bool mimetext_binary_start(const char *s, size_t len);

int mimetext_repair(struct strbuf *out, const char *in, size_t len,
		    unsigned how);
int mimetext_cp1252(struct strbuf *out, const char *in, size_t len,
		    unsigned how);
int mimetext_decode(struct strbuf *out, const char *in, size_t len,
		    unsigned how);
int mimetext_html(struct strbuf *out, const char *html, size_t len);
int mimetext_html_hidden(struct strbuf *out, const char *html, size_t len,
			 size_t *hidden);

bool mimetext_is_gzip(const void *data, size_t len);
int mimetext_gunzip(const void *data, size_t len, size_t max, char **out,
		    size_t *out_len, bool *truncated);
/* the first (at most max) inflated bytes into out: a look at the type */
long mimetext_gunzip_peek(const void *data, size_t len, char *out, size_t max);

/*
 * mimetext_unsendable - why bytes of a message cannot go over SMTP as
 * they are, or NULL: a NUL byte, or a line longer than the 998 bytes of
 * RFC 5322 2.1.1 (CRLF not counted); a relay may refuse such a message
 * for good
 */
const char *mimetext_unsendable(const char *p, size_t len);

#endif
