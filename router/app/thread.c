// SPDX-License-Identifier: GPL-2.0-only
/*
 * thread - the thread a message joins, and the crash it repeats (see
 * thread.h)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "link.h"
#include "pipeline.h"
#include "report.h"
#include "thread.h"
#include "util.h"

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
