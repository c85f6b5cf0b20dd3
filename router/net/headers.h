/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * headers - the top-level fields of a message as sent, read in place
 * (net/ only: deliver.c composes forwards and bounces around them)
 *
 * The forward keeps the original's bytes untouched, so its fields are
 * read where they lie, not through a MIME parser's copy: hdr_next()
 * walks them, and hdr_shadowed() names an inbound field that would pass
 * for one of the router's own below its block.
 */
#ifndef TRIAGE_HEADERS_H
#define TRIAGE_HEADERS_H

#include <stdbool.h>
#include <stddef.h>

struct hdr {
	const char *name, *value; /* value: after the colon, folded, raw */
	size_t nlen, vlen;
};

/*
 * hdr_next - the next top-level field at *pp; false at the blank line,
 * the end, or a line that is not a field (where a parser starts the body);
 * a bare CR ends a line as a LF does
 */
bool hdr_next(const char **pp, const char *end, struct hdr *h);
/*
 * hdr_line_next - the next line of the header block, a field or (nlen 0)
 * a line that is none; false at the blank line or the end
 */
bool hdr_line_next(const char **pp, const char *end, struct hdr *h);
/* hdr_is - the field is called name (any case) */
bool hdr_is(const struct hdr *h, const char *name);
/* hdr_name_prefix - the field's name starts with prefix (any case) */
bool hdr_name_prefix(const struct hdr *h, const char *prefix);
/*
 * hdr_dkim_signs - a DKIM-Signature of the header block [body, end)
 * lists the field name (its h= tag, RFC 6376 3.5)
 */
bool hdr_dkim_signs(const char *body, const char *end, const char *name,
		    size_t nlen);
/*
 * hdr_shadowed - an inbound field that would pass for one of ours below
 * our block: X-Triage-* always, Resent-* and X-Loop unless a DKIM
 * signature of [body, end) covers them
 */
bool hdr_shadowed(const struct hdr *h, const char *body, const char *end);

#endif
