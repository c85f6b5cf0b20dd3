// SPDX-License-Identifier: GPL-2.0-only
/*
 * headers - the top-level fields of a message as sent (see headers.h)
 */
#include <string.h>
#include <strings.h>

#include "headers.h"

/*
 * line_end - past the end of the line at q: its LF, its CRLF, or a bare
 * CR (one no LF follows), which the transport sends on as a line end
 * (deliver.c: deliver_to_crlf()) and a server further on may read as one
 */
static const char *line_end(const char *q, const char *end)
{
	for (; q < end; q++) {
		if (*q == '\n')
			return q + 1;
		if (*q == '\r')
			return q + 1 < end && q[1] == '\n' ? q + 2 : q + 1;
	}
	return end;
}

/* field_end - past the line at q and the folded lines that go on it */
static const char *field_end(const char *q, const char *end)
{
	do
		q = line_end(q, end);
	while (q < end && (*q == ' ' || *q == '\t'));
	return q;
}

/*
 * hdr_next - the next top-level field at *pp; false at the blank line,
 * the end, or a line that is not a field (where a parser starts the body).
 * A bare CR ends a line as a LF does: the field after one is a field of
 * its own, as the next server reads it.
 */
bool hdr_next(const char **pp, const char *end, struct hdr *h)
{
	const char *p = *pp, *q;

	if (p >= end || *p == '\n' || *p == '\r' || *p == ' ' || *p == '\t')
		return false;
	for (q = p; q < end && *q != ':' && (unsigned char)*q > 0x20 &&
		    (unsigned char)*q < 0x7f;
	     q++)
		;
	if (q == p)
		return false;
	h->name = p;
	h->nlen = (size_t)(q - p);
	while (q < end && (*q == ' ' || *q == '\t'))
		q++;
	if (q >= end || *q != ':')
		return false;
	h->value = ++q;
	q = field_end(q, end);
	h->vlen = (size_t)(q - h->value);
	*pp = q;
	return true;
}

/*
 * hdr_line_next - the next line of the header block at *pp, as a field
 * (hdr_next()) or, when it is none, as a line of no name (nlen 0, value
 * the line and what is folded on it); false only at the blank line or
 * the end.  A reader that skips a line it cannot read (as some delivery
 * agents do) goes on to the fields after it, and so does this.
 */
bool hdr_line_next(const char **pp, const char *end, struct hdr *h)
{
	const char *p = *pp, *q;

	if (p >= end || *p == '\n' || *p == '\r')
		return false;
	if (hdr_next(pp, end, h))
		return true;
	q = field_end(p, end);
	h->name = p;
	h->nlen = 0;
	h->value = p;
	h->vlen = (size_t)(q - p);
	*pp = q;
	return true;
}

bool hdr_is(const struct hdr *h, const char *name)
{
	return h->nlen == strlen(name) &&
	       strncasecmp(h->name, name, h->nlen) == 0;
}

bool hdr_name_prefix(const struct hdr *h, const char *prefix)
{
	size_t n = strlen(prefix);

	return h->nlen > n && strncasecmp(h->name, prefix, n) == 0;
}

/*
 * dkim_signs - a DKIM-Signature of the header block [body, end) lists
 * the field name (its h= tag, RFC 6376 3.5)
 */
bool hdr_dkim_signs(const char *body, const char *end, const char *name,
		    size_t nlen)
{
	const char *p = body, *v, *ve, *t, *te;
	struct hdr h;

	while (hdr_next(&p, end, &h)) {
		if (!hdr_is(&h, "DKIM-Signature"))
			continue;
		ve = h.value + h.vlen;
		for (v = h.value; v < ve; v = te + 1) {
			te = memchr(v, ';', (size_t)(ve - v));
			if (!te)
				te = ve;
			while (v < te && strchr(" \t\r\n", *v))
				v++;
			if (te - v < 2 || v[0] != 'h')
				continue;
			for (t = v + 1; t < te && strchr(" \t\r\n", *t); t++)
				;
			if (t >= te || *t != '=')
				continue;
			/* h=name:name:... with folding white space */
			for (t++; t < te;) {
				const char *e;

				while (t < te && strchr(" \t\r\n:", *t))
					t++;
				for (e = t; e < te && !strchr(" \t\r\n:", *e);
				     e++)
					;
				if ((size_t)(e - t) == nlen &&
				    !strncasecmp(t, name, nlen))
					return true;
				t = e;
			}
		}
	}
	return false;
}

/*
 * shadowed - an inbound header that would pass for one of ours below our
 * block: X-Triage-* always (Sieve rules match any occurrence, and a
 * fake X-Triage-Reason could claim a triager's approval), Resent-* and
 * X-Loop unless a DKIM signature covers them (renaming a signed field
 * breaks the signature, and a DMARC p=reject sender's forward would be
 * refused)
 */
bool hdr_shadowed(const struct hdr *h, const char *body, const char *end)
{
	if (hdr_name_prefix(h, "X-Triage-"))
		return true;
	if (!hdr_name_prefix(h, "Resent-") && !hdr_is(h, "X-Loop"))
		return false;
	return !hdr_dkim_signs(body, end, h->name, h->nlen);
}
