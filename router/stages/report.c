// SPDX-License-Identifier: GPL-2.0-only
/*
 * report - the plain C data model of one bug report (see report.h)
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "report.h"
#include "util.h"

struct report *report_new(void)
{
	struct report *r = xcalloc(1, sizeof(*r));

	r->source = "mail";
	r->subject = xstrdup("");
	r->from = xstrdup("");
	r->from_addr = xstrdup("");
	return r;
}

void report_free(struct report *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nheaders; i++) {
		free(r->headers[i].name);
		free(r->headers[i].value);
	}
	free(r->headers);
	for (i = 0; i < r->nparts; i++) {
		free(r->parts[i].path);
		free(r->parts[i].mime_type);
		free(r->parts[i].filename);
		free(r->parts[i].text);
	}
	free(r->parts);
	free(r->raw);
	free(r->envelope_from);
	free(r->envelope_to);
	free(r->client_net);
	free(r->message_id);
	free(r->subject);
	free(r->from);
	free(r->from_addr);
	free(r->date);
	free(r->in_reply_to);
	free(r->body);
	free(r->bug_url);
	free(r);
}

/* report_header - first top-level header of that name (any case), or NULL */
const char *report_header(const struct report *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nheaders; i++)
		if (strcasecmp(r->headers[i].name, name) == 0)
			return r->headers[i].value;
	return NULL;
}

/* report_header_all - every header of that name, in order; returns count */
size_t report_header_all(const struct report *r, const char *name,
			 const char **out, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < r->nheaders; i++) {
		if (strcasecmp(r->headers[i].name, name) != 0)
			continue;
		if (n < max)
			out[n] = r->headers[i].value;
		n++;
	}
	return n < max ? n : max;
}

void report_add_header(struct report *r, const char *name, const char *value)
{
	r->headers =
		xreallocarray(r->headers, r->nheaders + 1, sizeof(*r->headers));
	r->headers[r->nheaders].name = xstrdup(name);
	r->headers[r->nheaders].value = xstrdup(value);
	r->nheaders++;
}

/* report_add_part - append a zeroed part and return it */
struct report_part *report_add_part(struct report *r)
{
	struct report_part *p;

	r->parts = xreallocarray(r->parts, r->nparts + 1, sizeof(*r->parts));
	p = &r->parts[r->nparts++];
	memset(p, 0, sizeof(*p));
	return p;
}
