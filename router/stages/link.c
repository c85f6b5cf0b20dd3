// SPDX-License-Identifier: GPL-2.0-only
/*
 * link - the references and subject tags a message links by (see link.h)
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "link.h"
#include "report.h"
#include "util.h"

#define MSGID_MAX 998

static bool seen(char **v, size_t n, const char *id, size_t len)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strlen(v[i]) == len && !memcmp(v[i], id, len))
			return true;
	return false;
}

/* link_refs - In-Reply-To, then References newest first */
size_t link_refs(const struct report *r, char **out, size_t max)
{
	const char *refs = report_header(r, "References");
	const char *starts[LINK_REFS_MAX * 4];
	size_t lens[LINK_REFS_MAX * 4], n = 0, k = 0, len;
	const char *p, *e;

	if (!max)
		return 0;
	if (r->in_reply_to && *r->in_reply_to)
		out[n++] = xstrdup(r->in_reply_to);
	/* collect every <id>, keep the newest ARRAY_SIZE(starts) */
	for (p = refs; p && (p = strchr(p, '<')); p = e + 1) {
		e = strchr(p + 1, '>');
		if (!e)
			break;
		len = (size_t)(e - p - 1);
		if (!len || len > MSGID_MAX || memchr(p + 1, '<', len))
			continue;
		if (k == ARRAY_SIZE(starts)) {
			memmove(starts, starts + 1,
				sizeof(starts[0]) * (k - 1));
			memmove(lens, lens + 1, sizeof(lens[0]) * (k - 1));
			k--;
		}
		starts[k] = p + 1;
		lens[k++] = len;
	}
	while (k-- > 0 && n < max)
		if (!seen(out, n, starts[k], lens[k]))
			out[n++] = xstrndup(starts[k], lens[k]);
	return n;
}

/* link_subject_tag - the ID of a "[triage #ID]" subject tag */
bool link_subject_tag(const char *subject, int64_t *id)
{
	const char *p;
	char *end;
	long long v;

	for (p = subject ? strcasestr(subject, "[triage #") : NULL; p;
	     p = strcasestr(p + 1, "[triage #")) {
		if (!isdigit((unsigned char)p[9]))
			continue;
		v = strtoll(p + 9, &end, 10);
		if (*end == ']' && v > 0) {
			*id = v;
			return true;
		}
	}
	return false;
}

/* link_subject_bug - N of a Bugzilla "[Bug N]" subject */
bool link_subject_bug(const char *subject, long *bug)
{
	const char *p;
	char *end;
	long v;

	for (p = subject ? strstr(subject, "[Bug ") : NULL; p;
	     p = strstr(p + 1, "[Bug ")) {
		if (!isdigit((unsigned char)p[5]))
			continue;
		v = strtol(p + 5, &end, 10);
		if (*end == ']' && v > 0) {
			*bug = v;
			return true;
		}
	}
	return false;
}
