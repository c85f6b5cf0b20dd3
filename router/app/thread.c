// SPDX-License-Identifier: GPL-2.0-only
/*
 * thread - the thread a message joins, and the crash it repeats (see
 * thread.h)
 */
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive.h"
#include "audit.h"
#include "crashsig.h"
#include "deliver.h"
#include "kind.h"
#include "link.h"
#include "map.h"
#include "pipeline.h"
#include "report.h"
#include "authres.h"
#include "thread.h"
#include "token.h"
#include "util.h"

/*
 * party_address - r's From is one of root's own people: its reporter,
 * its recipient, or an M: or R: of its section
 */
static bool party_address(const struct link_trust *t,
			  const struct audit_root *root, const struct report *r)
{
	const char *from = r->from_addr;
	char addr[320];
	uint32_t i, n;
	int sec;

	if (!from || !*from)
		return false;
	if ((root->from_addr[0] && !strcasecmp(from, root->from_addr)) ||
	    (root->recipient[0] && !strcasecmp(from, root->recipient)))
		return true;
	if (!t || !t->map || !root->section[0])
		return false;
	sec = map_find_section(t->map, root->section);
	if (sec < 0)
		return false;
	n = map_nentries(t->map, (uint32_t)sec);
	for (i = 0; i < n; i++) {
		char tag = map_entry_tag(t->map, (uint32_t)sec, i);

		if ((tag == 'M' || tag == 'R') &&
		    addr_parse(map_entry_value(t->map, (uint32_t)sec, i), addr,
			       sizeof(addr)) == 0 &&
		    !strcasecmp(addr, from))
			return true;
	}
	return false;
}

/*
 * party - r's sender is one of root's people (party_address), and, when
 * the site names its authserv_id, its own server authenticated that From
 * (a forged From is then a stranger's: classified, capped, held)
 */
static bool party(const struct link_trust *t, const struct audit_root *root,
		  const struct report *r)
{
	return party_address(t, root, r) &&
	       (!t || !authres_check(r, t->authserv_id, r->from_addr));
}

/*
 * named_by_party - a thread named only by a subject ("[triage #ID]"
 * without a valid token, "[Bug N]"): joined when r's sender is one of
 * its people, else not (anyone can write the tag); 1, 0 or -1
 */
static int named_by_party(struct audit *db, const struct link_trust *t,
			  int64_t root, const struct report *r)
{
	struct audit_root facts;
	int rc = audit_root_get(db, root, &facts);

	if (rc <= 0)
		return rc;
	return party(t, &facts, r) ? 1 : 0;
}

/*
 * addressed - the report s names as "LOCAL+ID-TOKEN@..." (archive.h,
 * as a patch's trailers are read) with a valid token; 0 when none.  The
 * text is read in lower case: an MTA or a client may change the case.
 */
static int64_t addressed(const struct link_trust *t, const char *s)
{
	char low[1024], tok[TOKEN_SIZE];
	int64_t id;
	size_t i;

	if (!s)
		return 0;
	for (i = 0; s[i] && i + 1 < sizeof(low); i++)
		low[i] = (char)tolower((unsigned char)s[i]);
	low[i] = '\0';
	if (!archive_report_addr(low, t->local, &id, tok, sizeof(tok)) ||
	    !token_check(t->key, id, tok, strlen(tok)))
		return 0;
	return id;
}

/* by_address - the report r is addressed to (envelope, To, Cc), or 0 */
static int64_t by_address(const struct link_trust *t, const struct report *r)
{
	static const char *const fields[] = { "To", "Cc", "Delivered-To" };
	const char *v[16];
	size_t i, j, n;
	int64_t id;

	if (!t || !t->key || !t->local || !*t->local)
		return 0;
	id = addressed(t, r->envelope_to);
	for (i = 0; !id && i < ARRAY_SIZE(fields); i++) {
		n = report_header_all(r, fields[i], v, ARRAY_SIZE(v));
		for (j = 0; !id && j < n && j < ARRAY_SIZE(v); j++)
			id = addressed(t, v[j]);
	}
	return id;
}

static int find_thread(struct audit *db, const struct link_trust *t,
		       const struct report *r, struct link *out)
{
	char *refs[LINK_REFS_MAX];
	size_t n = link_refs(r, refs, ARRAY_SIZE(refs)), i;
	int64_t id, root = 0;
	char tok[TOKEN_SIZE];
	bool valid;
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
	/* the report's own address, with its token: as good as a tag */
	id = root ? 0 : by_address(t, r);
	if (id) {
		rc = audit_thread_of(db, id, &root);
		if (rc < 0)
			return -1;
		if (rc == 1) {
			out->how = "report address";
			snprintf(out->via, sizeof(out->via), "+%lld-",
				 (long long)id);
		} else {
			root = 0;
		}
	}
	if (!root && link_subject_tag(r->subject, &id, tok, sizeof(tok))) {
		rc = audit_thread_of(db, id, &root);
		if (rc < 0)
			return -1;
		/* a tag with the report's token joins; a bare one, its people */
		valid = rc == 1 && tok[0] && t && t->key &&
			token_check(t->key, id, tok, strlen(tok));
		if (rc == 1 && !valid)
			rc = named_by_party(db, t, root, r);
		if (rc < 0)
			return -1;
		if (rc == 1) {
			out->how = valid ? "subject tag" : "bare subject tag";
			snprintf(out->via, sizeof(out->via), "[triage #%lld]",
				 (long long)id);
		} else {
			root = 0;
		}
	}
	if (!root && link_subject_bug(r->subject, &bug)) {
		/* "[Bug N]" is public: it joins only for the bug's people */
		rc = audit_thread_of_bug(db, bug, &root);
		if (rc == 1)
			rc = named_by_party(db, t, root, r);
		if (rc < 0)
			return -1;
		if (rc == 1) {
			out->how = "Bugzilla bug";
			snprintf(out->via, sizeof(out->via), "[Bug %ld]", bug);
		} else {
			root = 0;
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
	if (find_thread(db, NULL, r, out) < 0)
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
static int find_fixed(struct audit *db, const struct link_trust *t,
		      const struct kind_result *k, struct link *out)
{
	char id[256], tok[TOKEN_SIZE];
	int64_t rid;
	int64_t root = 0;
	size_t i;
	long bug;
	int rc = 0;

	for (i = 0; i < k->nrefs && !root && rc >= 0; i++) {
		const struct kind_ref *ref = &k->refs[i];

		/* the report's own address, whatever the trailer */
		if ((ref->type == KREF_CLOSES || ref->type == KREF_LINK ||
		     ref->type == KREF_REPORTED_BY) &&
		    t && t->key && t->local &&
		    archive_report_addr(ref->value, t->local, &rid, tok,
					sizeof(tok))) {
			if (token_check(t->key, rid, tok, strlen(tok)))
				rc = audit_thread_of(db, rid, &root);
		} else if (ref->type == KREF_CLOSES || ref->type == KREF_LINK) {
			if (link_archive_msgid(t ? t->archive : NULL,
					       ref->value, id, sizeof(id)))
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

/*
 * from_reporter - r's From is root's reporter's: an address the report's
 * recipients know, not one MAINTAINERS publishes for every report
 */
static bool from_reporter(const struct audit_root *root, const struct report *r)
{
	return r->from_addr && root->from_addr[0] &&
	       !strcasecmp(r->from_addr, root->from_addr);
}

/*
 * by_public_name - joined by a subject anyone can write ("[triage #ID]"
 * without its token, "[Bug N]"), which joins only the root's people
 */
static bool by_public_name(const char *how)
{
	return how && (!strcmp(how, "bare subject tag") ||
		       !strcmp(how, "Bugzilla bug"));
}

int link_thread(struct audit *db, const struct report *r, struct decision *d,
		struct link *out)
{
	return link_thread_trusted(db, NULL, r, d, out);
}

int link_thread_trusted(struct audit *db, const struct link_trust *t,
			const struct report *r, struct decision *d,
			struct link *out)
{
	struct kind_result *k = &d->kind;
	enum msg_kind was = k->kind;
	int rc;

	memset(out, 0, sizeof(*out));
	if (find_thread(db, t, r, out) < 0)
		return -1;
	if (!out->thread_root && k->kind == KIND_PATCH &&
	    find_fixed(db, t, k, out) < 0)
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
	out->stranger = !party(t, &out->root, r);
	if (!out->stranger && by_public_name(out->how) &&
	    !(t && t->authserv_id && *t->authserv_id) &&
	    !from_reporter(&out->root, r)) {
		out->stranger = true;
		out->unverified = true;
	}
	if (k->kind == KIND_SPAM && k->names_nothing) {
		/* kind.c calls a new message that names nothing and says
		 * nothing went wrong spam; one that answers a known report
		 * ("thanks, that fixed it") is not new */
		enum msg_kind s = settle(KIND_REPORT, out->root.kind);

		k->kind = s == KIND_REPORT ? KIND_SPAM : s;
	} else {
		k->kind = settle(k->kind, out->root.kind);
	}
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
