// SPDX-License-Identifier: GPL-2.0-only
/*
 * headers - the top-level fields of a message as sent (see headers.h)
 */
#include <string.h>
#include <strings.h>

#include "headers.h"

/*
 * hdr_next - the next top-level field at *pp; false at the blank line,
 * the end, or a line that is not a field (where a parser starts the body)
 */
bool hdr_next(const char **pp, const char *end, struct hdr *h)
{
	const char *p = *pp, *q, *nl;

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
	for (;;) {
		nl = memchr(q, '\n', (size_t)(end - q));
		if (!nl) {
			q = end;
			break;
		}
		q = nl + 1;
		if (q >= end || (*q != ' ' && *q != '\t'))
			break;
	}
	h->vlen = (size_t)(q - h->value);
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
