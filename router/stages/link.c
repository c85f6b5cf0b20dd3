// SPDX-License-Identifier: GPL-2.0-only
/*
 * link - the thread a message joins, and the crash it repeats (see link.h)
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "audit.h"
#include "link.h"
#include "pipeline.h"
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

static int find_thread(struct audit *db, const struct report *r,
		       struct link *out)
{
	char *refs[LINK_REFS_MAX];
	size_t n = link_refs(r, refs, ARRAY_SIZE(refs)), i;
	int64_t id, root = 0;
	long bug;
	int rc = 0;

	for (i = 0; i < n && !root && rc >= 0; i++) {
		rc = audit_thread_find(db, refs[i], &root);
		if (rc == 1) {
			out->how =
				i == 0 && r->in_reply_to &&
						!strcmp(refs[0], r->in_reply_to)
					? "In-Reply-To"
					: "References";
			snprintf(out->via, sizeof(out->via), "<%s>", refs[i]);
		}
	}
	for (i = 0; i < n; i++)
		free(refs[i]);
	if (rc < 0)
		return -1;
	if (!root && link_subject_tag(r->subject, &id)) {
		rc = audit_thread_of(db, id, &root);
		if (rc < 0)
			return -1;
		if (rc == 1) {
			out->how = "subject tag";
			snprintf(out->via, sizeof(out->via), "[triage #%lld]",
				 (long long)id);
		}
	}
	if (!root && link_subject_bug(r->subject, &bug)) {
		rc = audit_thread_of_bug(db, bug, &root);
		if (rc < 0)
			return -1;
		if (rc == 1) {
			out->how = "Bugzilla bug";
			snprintf(out->via, sizeof(out->via), "[Bug %ld]", bug);
		}
	}
	out->thread_root = root;
	return 0;
}

/* link_find - the thread r joins, else the first report of its crash */
int link_find(struct audit *db, const struct report *r,
	      const struct decision *d, struct link *out)
{
	int rc;

	memset(out, 0, sizeof(*out));
	if (find_thread(db, r, out) < 0)
		return -1;
	if (out->thread_root) {
		rc = audit_root_get(db, out->thread_root, &out->root);
		if (rc < 0)
			return -1;
		if (rc == 0)
			out->thread_root = 0;
		return 0;
	}
	return link_crash(db, d, out);
}

/* link_crash - the first report of the same crash as d, if any */
int link_crash(struct audit *db, const struct decision *d, struct link *out)
{
	int64_t first = 0;
	int rc;

	if (audit_same_crash(db, d->crash_signature, d->syzbot_id, 0, &first) <
	    0)
		return -1;
	if (first) {
		rc = audit_root_get(db, first, &out->root);
		if (rc < 0)
			return -1;
		if (rc == 1)
			out->same_crash_as = first;
	}
	return 0;
}
