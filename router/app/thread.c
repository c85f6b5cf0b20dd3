// SPDX-License-Identifier: GPL-2.0-only
/*
 * thread - the thread a message joins, and the crash it repeats (see
 * thread.h)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "crashsig.h"
#include "kind.h"
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

/*
 * find_fixed - the report a patch's trailers name: a Closes: or Link:
 * archive link or Bugzilla link, or a Reported-by: syzbot+ID
 */
static int find_fixed(struct audit *db, const struct kind_result *k,
		      struct link *out)
{
	char id[256];
	int64_t root = 0;
	size_t i;
	long bug;
	int rc = 0;

	for (i = 0; i < k->nrefs && !root && rc >= 0; i++) {
		const struct kind_ref *ref = &k->refs[i];

		if (ref->type == KREF_CLOSES || ref->type == KREF_LINK) {
			if (link_url_msgid(ref->value, id, sizeof(id)))
				rc = audit_thread_find(db, id, &root);
			else if (link_url_bug(ref->value, &bug))
				rc = audit_thread_of_bug(db, bug, &root);
		} else if (ref->type == KREF_REPORTED_BY &&
			   crashsig_syzbot_in(ref->value, id, sizeof(id))) {
			rc = audit_same_crash(db, NULL, id, 0, &root);
		}
		if (rc == 1 || root) {
			out->how = ref->type == KREF_CLOSES ? "Closes:"
				   : ref->type == KREF_LINK ? "Link:"
							    : "Reported-by:";
			snprintf(out->via, sizeof(out->via), "%.250s",
				 ref->value);
		}
	}
	if (rc < 0)
		return -1;
	out->thread_root = root;
	return 0;
}

/* settle - the kind of a message in the thread of a root of kind rk */
static enum msg_kind settle(enum msg_kind k, const char *rk)
{
	int root = kind_from_name(rk);

	switch (root) {
	case KIND_REPORT:
	case KIND_FOLLOWUP:
	case KIND_BZ_UPDATE:
		/* a new report cannot answer one; Bugzilla comments join */
		if (k == KIND_REPORT || k == KIND_DISCUSSION ||
		    k == KIND_BZ_UPDATE)
			return KIND_FOLLOWUP;
		return k;
	case KIND_PATCH:
	case KIND_COVER:
	case KIND_REVIEW:
		return k == KIND_FOLLOWUP || k == KIND_DISCUSSION ||
				       k == KIND_REPORT
			       ? KIND_REVIEW
			       : k;
	case KIND_PULL:
	case KIND_STABLE:
	case KIND_DISCUSSION:
		return k == KIND_FOLLOWUP || k == KIND_REPORT
			       ? (enum msg_kind)root
			       : k;
	default:
		return k;
	}
}

int link_thread(struct audit *db, const struct report *r, struct decision *d,
		struct link *out)
{
	struct kind_result *k = &d->kind;
	enum msg_kind was = k->kind;
	int rc;

	memset(out, 0, sizeof(*out));
	if (find_thread(db, r, out) < 0)
		return -1;
	if (!out->thread_root && k->kind == KIND_PATCH &&
	    find_fixed(db, k, out) < 0)
		return -1;
	if (!out->thread_root)
		return 0;
	rc = audit_root_get(db, out->thread_root, &out->root);
	if (rc < 0)
		return -1;
	if (rc == 0) {
		out->thread_root = 0;
		return 0;
	}
	k->kind = settle(k->kind, out->root.kind);
	if (k->kind != was)
		snprintf(k->why, sizeof(k->why),
			 "%s in the thread of #%lld, a %s", kind_name(was),
			 (long long)out->root.id,
			 out->root.kind[0] ? out->root.kind : "report");
	out->fix = k->kind == KIND_PATCH &&
		   kind_from_name(out->root.kind) == KIND_REPORT;
	return 0;
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
