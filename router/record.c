// SPDX-License-Identifier: GPL-2.0-only
/*
 * record - write one decision to the audit database (see record.h)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "config.h"
#include "deliver.h"
#include "map.h"
#include "pipeline.h"
#include "record.h"
#include "report.h"
#include "rules.h"
#include "strbuf.h"
#include "util.h"

#define FORWARD_EXTRA  (64u << 10)
#define CANDIDATES_MAX (16u << 10)
#define REPLY_MAX      (16u << 10)

static int64_t enqueue(struct audit *db, int64_t report, const char *kind,
		       const char *from, const char *rcpt,
		       const struct strbuf *msg, time_t now)
{
	struct audit_outbox_new m;
	int64_t oid;

	memset(&m, 0, sizeof(m));
	m.report = report;
	m.kind = kind;
	m.created_at = now;
	m.envelope_from = from;
	m.recipients = rcpt;
	m.message = msg->buf;
	m.message_len = msg->len;
	if (audit_outbox_enqueue(db, &m, &oid) < 0)
		return -1;
	return oid;
}

/* queue_reply - RFC 3834 reply pointing the reporter at the bug tracker */
static int64_t queue_reply(struct audit *db, const struct router_id *id,
			   const struct report *r, int64_t report,
			   const char *section, const char *url, time_t now)
{
	struct deliver_message m;
	struct strbuf body = STRBUF_INIT(REPLY_MAX);
	struct strbuf msg = STRBUF_INIT(REPLY_MAX * 2);
	const char *to[2] = { r->from_addr, NULL };
	const char *refs[2] = { r->message_id, NULL };
	char *subject;
	int64_t oid = -1;

	sb_addf(&body,
		"Hello,\n\n"
		"thank you for your report.  It has been passed on to the\n"
		"maintainers of %s, who track bugs at:\n\n"
		"    %s\n\n"
		"Please file it there too, so that it is not lost.  This is an\n"
		"automatic reply; answers to it are not read.\n",
		section ? section : "this subsystem", url);
	subject = xasprintf("Re: %s", r->subject);
	memset(&m, 0, sizeof(m));
	m.from_name = id->name;
	m.from_addr = id->address;
	m.to = to;
	m.subject = subject;
	m.in_reply_to = r->message_id;
	m.references = r->message_id ? refs : NULL;
	m.auto_submitted = DELIVER_AUTO_REPLIED;
	m.body = body.buf;
	m.body_len = body.len;
	m.date = now;
	/* RFC 3834: the reply goes out with a null envelope sender. */
	if (deliver_compose_message(&m, &msg) == 0)
		oid = enqueue(db, report, "reply", "", r->from_addr, &msg, now);
	free(subject);
	sb_release(&body);
	sb_release(&msg);
	return oid;
}

static const char *state_for(const struct decision *d)
{
	switch (d->act.action) {
	case ACT_FORWARD:
		return "forwarded";
	case ACT_DIGEST:
		return "digest";
	case ACT_HOLD:
		break;
	}
	return "held";
}

/*
 * record_decision - insert a classified report and what was decided,
 * queueing any mail; inside the caller's transaction
 */
int record_decision(struct audit *db, const struct pipeline *p,
		    const struct router_id *id, const struct report *r,
		    const struct decision *d, time_t now,
		    struct record_result *out)
{
	struct audit_classification c;
	struct audit_rule_hit *hits;
	struct audit_section *secs;
	struct audit_decision dec;
	struct strbuf cand = STRBUF_INIT(CANDIDATES_MAX);
	const char *section = decision_section(p, d);
	size_t i;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	out->state = state_for(d);
	if (audit_insert_report(db, r, now, out->state, 0, &out->report) < 0 ||
	    audit_insert_evidence(db, out->report, d->ev) < 0)
		return -1;

	hits = xcalloc(d->verdict.nrules + 1, sizeof(*hits));
	for (i = 0; i < d->verdict.nrules; i++) {
		const struct verdict_rule *vr = &d->verdict.rules[i];

		hits[i].name = vr->name;
		hits[i].score = vr->score[d->verdict.cls < CLASS_N
						  ? d->verdict.cls
						  : d->verdict.leaning];
		hits[i].describe = vr->describe;
	}
	memset(&c, 0, sizeof(c));
	c.class = d->cls;
	c.score_user = d->verdict.score[CLASS_USER];
	c.score_fuzzer = d->verdict.score[CLASS_FUZZER];
	c.score_ai = d->verdict.score[CLASS_AI];
	c.confidence = d->verdict.confidence;
	c.certain = d->verdict.certain;
	c.model_version = p->model ? "model.bin" : NULL;
	c.header = d->class_header;
	c.at = now;
	c.hits = hits;
	c.nhits = d->verdict.nrules;

	secs = xcalloc(d->sections.n + 1, sizeof(*secs));
	for (i = 0; i < d->sections.n; i++) {
		secs[i].name = map_title(p->map, d->sections.v[i].section);
		secs[i].score = d->sections.v[i].score;
		secs[i].why = d->sections.v[i].why;
	}

	for (i = 0; i < d->pick.ncand; i++) {
		const struct pick_candidate *pc = &d->pick.cand[i];

		sb_addf(&cand, "%s %.2f %s: %s\n", pc->addr, pc->score,
			pick_status_name(pc->status), pc->why ? pc->why : "");
	}
	memset(&dec, 0, sizeof(dec));
	dec.at = now;
	dec.action = act_action_name(d->act.action);
	dec.recipient = d->pick.addr;
	dec.recipient_name = d->pick.name;
	dec.reason =
		d->act.action == ACT_FORWARD ? d->pick.reason : d->act.reason;
	dec.candidates = sb_str(&cand);

	if (audit_insert_classification(db, out->report, &c) < 0 ||
	    audit_insert_sections(db, out->report, secs, d->sections.n) < 0 ||
	    audit_insert_decision(db, out->report, &dec, NULL) < 0)
		goto out;

	if (d->act.action == ACT_FORWARD) {
		/* X-Triage-Class: the verdict, "user; score=12.8; rules=..." */
		out->outbox = forward_queue(
			db, id, out->report, r->raw, r->raw_len, r->sha256,
			d->pick.addr, d->pick.name,
			d->class_header[0] ? d->class_header : d->cls, section,
			d->pick.reason, now);
		if (out->outbox < 0)
			goto out;
		if (d->act.reply && r->from_addr && *r->from_addr &&
		    deliver_may_autoreply(r->headers, r->nheaders,
					  r->envelope_from, NULL, NULL)) {
			out->reply = queue_reply(db, id, r, out->report,
						 section, d->pick.bug_url, now);
			if (out->reply < 0)
				goto out;
		}
	}
	ret = 0;
out:
	free(hits);
	free(secs);
	sb_release(&cand);
	return ret;
}
