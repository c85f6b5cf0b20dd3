// SPDX-License-Identifier: GPL-2.0-only
/*
 * record - write one decision to the audit database (see record.h)
 */
#include <stdio.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "audit.h"
#include "config.h"
#include "crashsig.h"
#include "evidence.h"
#include "deliver.h"
#include "mailcmd.h"
#include "map.h"
#include "mimetext.h"
#include "pipeline.h"
#include "record.h"
#include "report.h"
#include "rules.h"
#include "strbuf.h"
#include "token.h"
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

/*
 * queue_reply - RFC 3834 reply pointing the reporter at the bug tracker:
 * to the envelope sender only (RFC 3834 section 4: a forged From must
 * not get our reply), at most one a day per address; 0 when none is due
 */
static int64_t queue_reply(struct audit *db, const struct router_id *id,
			   const struct report *r, int64_t report,
			   const char *section, const char *url, time_t now)
{
	struct deliver_message m;
	struct strbuf body = STRBUF_INIT(REPLY_MAX);
	struct strbuf msg = STRBUF_INIT(REPLY_MAX * 2);
	char env[320];
	const char *to[2] = { env, NULL };
	const char *refs[2] = { r->message_id, NULL };
	char *subject, tok[TOKEN_SIZE];
	int64_t oid = -1;
	long sent;

	if (!r->envelope_from ||
	    addr_parse(r->envelope_from, env, sizeof(env)) < 0) {
		oid = 0;
		goto out;
	}
	sent = audit_replies_since(db, env, (int64_t)now - 86400);
	if (sent < 0)
		goto out;
	if (sent > 0) {
		oid = 0;
		goto out;
	}

	sb_addf(&body,
		"Hello,\n\n"
		"thank you for your report.  It has been passed on to the\n"
		"maintainers of %s, who track bugs at:\n\n"
		"    %s\n\n"
		"Please file it there too, so that it is not lost.  This is an\n"
		"automatic reply; answers to it are not read.\n",
		section ? section : "this subsystem", url);
	/* the tag (with its token) brings an answer back to the report */
	if (router_token(id, report, tok, sizeof(tok)) < 0)
		goto out;
	subject = tok[0] ? xasprintf("Re: [triage #%lld-%s] %s",
				     (long long)report, tok, r->subject)
			 : xasprintf("Re: [triage #%lld] %s", (long long)report,
				     r->subject);
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
		oid = enqueue(db, report, "reply", "", env, &msg, now);
	free(subject);
out:
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
	case ACT_RECORD:
		return "recorded";
	case ACT_HOLD:
		break;
	}
	return "held";
}

/* links_of - what groups the report: thread, crash, regression */
static void links_of(struct audit_links *l, const struct decision *d,
		     int64_t thread_root, int64_t same_crash_as)
{
	memset(l, 0, sizeof(*l));
	l->thread_root = thread_root;
	l->same_crash_as = same_crash_as;
	l->crash_signature = d->crash_signature;
	l->syzbot_id = d->syzbot_id;
	l->regression = d->regression.found;
	l->good = d->regression.good;
	l->bad = d->regression.bad;
	l->commit = d->regression.commit;
}

static const char *unsendable(const struct report *r);

/*
 * keep_sendable - a message that cannot go out as it came keeps beside
 * it the copy that can (parse_sendable()), which a forward of it sends
 * when a triager approves it; none when there is no such copy
 */
static int keep_sendable(struct audit *db, const struct pipeline *p,
			 const struct report *r, int64_t id)
{
	struct strbuf sb = STRBUF_INIT(r->raw_len * 2 + FORWARD_EXTRA);
	int ret = 0;

	if (!p->sendable || !unsendable(r))
		return 0;
	if (p->sendable(r, &sb) == 0)
		ret = audit_set_sendable(db, id, sb.buf, sb.len);
	sb_release(&sb);
	return ret;
}

/*
 * insert_report - the report row, written once with its links, class
 * and sections (audit_insert_report_row()), then its evidence
 */
static int insert_report(struct audit *db, const struct pipeline *p,
			 const struct report *r, struct audit_report_row *row,
			 const struct decision *d, int64_t *id)
{
	if (audit_insert_report_row(db, r, row, id) < 0 ||
	    keep_sendable(db, p, r, *id) < 0 ||
	    audit_insert_evidence(db, *id, d->ev) < 0 ||
	    audit_set_regression(db, *id, row->links) < 0)
		return -1;
	return 0;
}

/* regression_note - "; regression: good 6.1, bad 6.12.3, commit X" */
static void regression_note(const struct regression *g, struct strbuf *sb)
{
	if (!g->found)
		return;
	sb_adds(sb, "; regression:");
	if (g->good[0])
		sb_addf(sb, " worked in %s", g->good);
	if (g->bad[0])
		sb_addf(sb, "%s broke in %s", g->good[0] ? "," : "", g->bad);
	if (g->commit[0])
		sb_addf(sb, "%s culprit %s", g->good[0] || g->bad[0] ? "," : "",
			g->commit);
}

/*
 * real_evidence - what a reporter's follow-up shows of a real machine:
 * real hardware, or a time-stamped kernel log of a crash not on a
 * virtual machine; false when it shows nothing of the kind
 */
static bool real_evidence(const struct evidence *ev, struct strbuf *why)
{
	if (!ev || ev->hw_virtual)
		return false;
	if (ev->hardware && *ev->hardware) {
		sb_addf(why, "hardware \"%s\"", ev->hardware);
		if (ev->dmesg_timestamps)
			sb_adds(why, ", time-stamped kernel log");
		return true;
	}
	if (ev->dmesg_timestamps && ev->title && ev->nframes) {
		sb_addf(why, "time-stamped kernel log of \"%s\"", ev->title);
		return true;
	}
	return false;
}

/*
 * classification_of - d's verdict as a classification row; returns the
 * rule hits it points at (the caller frees them)
 */
static struct audit_rule_hit *classification_of(const struct decision *d,
						const char *model, time_t now,
						struct audit_classification *c)
{
	struct audit_rule_hit *hits;
	size_t i;

	hits = xcalloc(d->verdict.nrules + 1, sizeof(*hits));
	for (i = 0; i < d->verdict.nrules; i++) {
		const struct verdict_rule *vr = &d->verdict.rules[i];

		hits[i].name = vr->name;
		hits[i].score = vr->score[d->verdict.cls < CLASS_N
						  ? d->verdict.cls
						  : d->verdict.leaning];
		hits[i].describe = vr->describe;
	}
	memset(c, 0, sizeof(*c));
	c->class = d->cls;
	c->score_user = d->verdict.score[CLASS_USER];
	c->score_fuzzer = d->verdict.score[CLASS_FUZZER];
	c->score_ai = d->verdict.score[CLASS_AI];
	c->confidence = d->verdict.confidence;
	c->certain = d->verdict.certain;
	c->model_version = model;
	c->header = d->class_header;
	c->at = now;
	c->hits = hits;
	c->nhits = d->verdict.nrules;
	return hits;
}

/* forwarded_to - the root went to someone, whose follow-ups go there too */
static bool forwarded_to(const struct audit_root *root)
{
	return (!strcmp(root->state, "forwarded") ||
		!strcmp(root->state, "approved")) &&
	       root->recipient[0];
}

static bool has_assignment(const struct audit_root *root)
{
	return !strcmp(root->state, "digest") || forwarded_to(root);
}

/*
 * sender_capped - r's sender has had its cap of messages sent out in
 * the last day, counted by every identity the MTA vouches for, each
 * with what any message had under it: its From address and its envelope
 * sender (sender_cap; a message whose From or envelope sender is the
 * address counts for it), and the network of the client that connected
 * (client_cap, larger: a provider's outbound hosts carry many
 * reporters).  One sender cannot exhaust a maintainer (nor, by filling
 * the maintainers' caps, divert others' reports) by writing a new From
 * on each message.  A Received header is never one: the sender writes
 * those.  1 and the reason's tail (which identity, in plain words) in
 * why, 0, or -1
 */
static int sender_capped(struct audit *db, const struct pipeline *p,
			 const struct report *r, time_t now, struct strbuf *why)
{
	long cap = config_int(p->cfg, "sender_cap");
	long ccap = config_int(p->cfg, "client_cap"), n = 0;
	int64_t since = (int64_t)now - 86400;
	const char *from = r->from_addr, *env = r->envelope_from;
	const char *knob = "sender_cap";

	/* a Bugzilla bug's sender is an account of the tracker's */
	if (r->source && strcmp(r->source, "mail"))
		return 0;
	if (cap > 0 && from && *from &&
	    (n = audit_forwards_from(db, from, since)) >= cap) {
		sb_addf(why, "; its From address %s", from);
	} else if (n >= 0 && cap > 0 && env && *env &&
		   (!from || strcasecmp(env, from)) &&
		   (n = audit_forwards_from(db, env, since)) >= cap) {
		sb_addf(why, "; its envelope sender %s", env);
	} else if (n >= 0 && ccap > 0 && r->client_net &&
		   (n = audit_forwards_from_net(db, r->client_net, since)) >=
			   ccap) {
		sb_addf(why,
			"; the network it came from, %s (the client that "
			"connected to our mail server),",
			r->client_net);
		cap = ccap;
		knob = "client_cap";
	} else {
		return n < 0 ? -1 : 0;
	}
	sb_addf(why,
		" has had %ld messages forwarded in the last day (%s %ld): "
		"held for a triager",
		n, knob, cap);
	return 1;
}

/*
 * unsendable - why the message cannot go out as it came, or NULL
 * (mimetext_unsendable()): it is held for a triager rather than lost to
 * a relay's permanent refusal; what approving it sends is the re-encoded
 * copy keep_sendable() stored
 */
static const char *unsendable(const struct report *r)
{
	return mimetext_unsendable(r->raw, r->raw_len);
}

/* list_recipient - root went to a mailing list: an L: of a section */
static bool list_recipient(const struct map *map, const struct audit_root *root)
{
	struct map_addr_hit hits[16];
	char addr[320], want[320];
	size_t i, n;
	uint32_t j, m;
	int sec;

	if (!map || !root->recipient[0] ||
	    addr_parse(root->recipient, want, sizeof(want)) < 0)
		return false;
	/* the root's own section first: THE REST's list names no section */
	sec = root->section[0] ? map_find_section(map, root->section) : -1;
	m = sec >= 0 ? map_nentries(map, (uint32_t)sec) : 0;
	for (j = 0; j < m; j++)
		if (map_entry_tag(map, (uint32_t)sec, j) == 'L' &&
		    addr_parse(map_entry_value(map, (uint32_t)sec, j), addr,
			       sizeof(addr)) == 0 &&
		    !strcasecmp(addr, want))
			return true;
	for (i = 0; want[i]; i++)
		want[i] = (char)tolower((unsigned char)want[i]);
	n = map_address(map, want, hits, ARRAY_SIZE(hits));
	for (i = 0; i < n && i < ARRAY_SIZE(hits); i++)
		if (hits[i].tag == 'L')
			return true;
	return false;
}

/* names_address - the message's own To: or Cc: names addr */
static bool names_address(const struct evidence *ev, const char *addr)
{
	size_t i;

	for (i = 0; ev && i < ev->nrecipients; i++)
		if (!strcasecmp(ev->recipients[i], addr))
			return true;
	return false;
}

/*
 * own_crash - 1 and sig: a follow-up of the report root carries a crash
 * of its own: its crash signature (crashsig.h) is not the report's, and
 * either the report has none or their crash titles differ too (the same
 * title with another stack is the same bug seen with a shorter log, a
 * "me too"), and it names no syzbot id of the report's; 0 when not, -1
 * on a database error.  A follow-up is not judged (pipeline_judge()):
 * its signature is computed here.
 */
static int own_crash(struct audit *db, const struct report *r,
		     const struct decision *d, int64_t root, char *sig,
		     size_t size)
{
	char syz[CRASHSIG_SYZ_MAX];
	struct audit_links l;
	const char *rs, *bar;
	size_t n;
	int ret = 0;

	if (!d->ev || !crashsig_compute(d->ev, sig, size))
		return 0;
	if (audit_get_links(db, root, &l) < 0)
		return -1;
	rs = l.crash_signature ? l.crash_signature : "";
	if (l.syzbot_id && *l.syzbot_id &&
	    crashsig_syzbot_id(r, d->ev, syz, sizeof(syz)) &&
	    !strcmp(syz, l.syzbot_id)) {
		ret = 0;
	} else if (!rs[0]) {
		ret = 1;
	} else if (strcmp(sig, rs)) {
		bar = strchr(sig, '|');
		n = bar ? (size_t)(bar - sig) : strlen(sig);
		ret = strncmp(sig, rs, n) || (rs[n] != '|' && rs[n] != '\0');
	}
	audit_links_release(&l);
	return ret;
}

/*
 * followup_state - where a follow-up of a known report goes: its state
 * (out->state), *forward when it is sent on to the report's recipient,
 * and why, appended to reason; -1 on a database error
 */
static int followup_state(struct audit *db, const struct pipeline *p,
			  const struct report *r, const struct decision *d,
			  time_t now, bool stranger, struct strbuf *reason,
			  bool *forward, struct record_result *out)
{
	const struct link *ln = &d->link;
	const struct audit_root *root = &ln->root;
	bool from_reporter = r->from_addr && root->from_addr[0] &&
			     !strcasecmp(r->from_addr, root->from_addr);
	char sig[CRASHSIG_MAX];
	const char *bad;
	int capped, own;

	*forward = false;
	own = stranger && !ln->hold
		      ? own_crash(db, r, d, root->id, sig, sizeof(sig))
		      : 0;
	if (own < 0)
		return -1;
	if (ln->hold) {
		out->state = "held";
		sb_addf(reason, "; held: %s", ln->hold);
	} else if (own) {
		/*
		 * a reply that carries a new crash may be a new bug, which
		 * nobody would see in a recorded follow-up: a triager
		 * decides, and it stays in the report's thread
		 */
		out->state = "held";
		sb_addf(reason,
			"; a reply in report %lld's thread carries its own "
			"crash (%s), unlike the report's: not sent on, held "
			"for a triager",
			(long long)root->id, sig);
	} else if (stranger) {
		/*
		 * anyone can answer a report whose Message-ID is public ("me
		 * too", a maintainer's question, a reviewer's note): it is
		 * recorded with the report, which it is part of, and is no
		 * new report (no verdict, no recipient); the report's own
		 * thread is no channel to its recipient
		 */
		out->state = "recorded";
		sb_adds(reason, ": recorded with the report, not sent on");
	} else if (root->recipient[0] && r->from_addr &&
		   !strcasecmp(r->from_addr, root->recipient)) {
		out->state = "held";
		sb_adds(reason, "; from the report's recipient: not sent back");
	} else if (forwarded_to(root) && list_recipient(p->map, root) &&
		   !from_reporter && !names_address(d->ev, root->recipient)) {
		/*
		 * a reply to bugs@ is private mail: it is published on the
		 * list the report went to only by the report's author, or by
		 * its own author addressing the list
		 */
		out->state = "held";
		sb_addf(reason,
			"; the report went to the list %s, which this reply "
			"does not name: not published, held for a triager",
			root->recipient);
	} else if (forwarded_to(root) && from_reporter &&
		   (capped = sender_capped(db, p, r, now, reason)) != 0) {
		/*
		 * a reporter's own follow-up is anyone's mail too: once one
		 * report went out, its thread must not be an open channel
		 * to the maintainer.  The section's people are not capped.
		 */
		if (capped < 0)
			return -1;
		out->state = "held";
	} else if (forwarded_to(root) && (bad = unsendable(r))) {
		out->state = "held";
		sb_addf(reason,
			"; not sent on as it came: %s (SMTP could refuse it "
			"for good); held for a triager",
			bad);
	} else if (forwarded_to(root)) {
		out->state = "forwarded";
		*forward = true;
	} else if (!strcmp(root->state, "digest")) {
		out->state = "digest";
		sb_adds(reason, "; waits for the digest with it");
	} else {
		out->state = "held";
		sb_addf(reason, "; waits with it (%s)", root->state);
	}
	return 0;
}

/*
 * record_followup - a message that joined a known report's thread: its
 * own row linked to the root, no verdict of its own, sent where the
 * root went (its last forward, a reroute included); the root gains its
 * evidence, and an ai report held for want of evidence goes back to a
 * human as uncertain when its reporter sends real evidence
 */
static int record_followup(struct audit *db, const struct pipeline *p,
			   const struct router_id *id, const struct report *r,
			   const struct decision *d, time_t now,
			   struct record_result *out)
{
	const struct link *ln = &d->link;
	const struct audit_root *root = &ln->root;
	struct strbuf reason = STRBUF_INIT(2048), why = STRBUF_INIT(1024);
	struct audit_report_row row;
	struct audit_links links;
	struct audit_decision dec;
	struct audit_action act;
	char arg[32];
	unsigned ran;
	bool queued;
	bool forward = false, stranger = false;
	int ret = -1;

	sb_addf(&reason, "follow-up to report #%lld (%s %s)",
		(long long)root->id, ln->how ? ln->how : "thread", ln->via);
	if (ln->stranger && !ln->hold) {
		/* not the report's people: a follow-up all the same */
		stranger = true;
		sb_addf(&reason, "; from %s, %s",
			r->from_addr && *r->from_addr ? r->from_addr : "?",
			ln->unverified
				? "one of the report's people by its From "
				  "alone, which a subject anyone can write "
				  "brought and no authserv_id checks"
				: "not the report's reporter, recipient or "
				  "section");
	}
	if (followup_state(db, p, r, d, now, stranger, &reason, &forward, out) <
	    0)
		goto out;
	regression_note(&d->regression, &reason);

	links_of(&links, d, root->id, 0);
	memset(&row, 0, sizeof(row));
	row.received_at = now;
	row.state = out->state;
	row.kind = kind_name(KIND_FOLLOWUP);
	row.links = &links;
	if (insert_report(db, p, r, &row, d, &out->report) < 0)
		goto out;
	memset(&dec, 0, sizeof(dec));
	dec.at = now;
	dec.action = "follow-up";
	dec.recipient = forward ? root->recipient : NULL;
	dec.recipient_name = forward ? root->recipient_name : NULL;
	dec.reason = sb_str(&reason);
	if (audit_insert_decision(db, out->report, &dec, NULL) < 0)
		goto out;
	if (forward) {
		out->outbox = forward_queue(
			db, id, out->report, r->raw, r->raw_len, r->sha256,
			root->recipient, root->recipient_name,
			root->header[0] ? root->header : root->class,
			root->section[0] ? root->section : NULL,
			sb_str(&reason), now);
		if (out->outbox < 0)
			goto out;
	}

	/* the root learns what the follow-up brought */
	if (audit_merge_evidence(db, root->id, out->report) < 0)
		goto out;
	if (d->regression.found && audit_mark_regression(db, root->id, now) < 0)
		goto out;
	snprintf(arg, sizeof(arg), "#%lld", (long long)out->report);
	memset(&act, 0, sizeof(act));
	act.report = root->id;
	act.at = now;
	act.who = "triage";
	act.action = "thread";
	act.argument = arg;
	act.detail = sb_str(&reason);
	if (audit_record_action(db, &act, NULL) < 0)
		goto out;
	/* "#triage VERB" lines: run when their sender may (mailcmd.h) */
	if (mailcmd_run(db, p, id, r, root, out->report, now, &ran, &queued) <
	    0)
		goto out;
	if (queued)
		out->reply = out->report;

	if (!strcmp(root->class, "ai") && !strcmp(root->state, "held") &&
	    r->from_addr && *r->from_addr &&
	    !strcasecmp(r->from_addr, root->from_addr) &&
	    real_evidence(d->ev, &why)) {
		sb_reset(&reason);
		sb_addf(&reason,
			"the reporter's follow-up #%lld brings real evidence: "
			"%s; back to a human",
			(long long)out->report, sb_str(&why));
		memset(&act, 0, sizeof(act));
		act.report = root->id;
		act.at = now;
		act.who = "triage";
		act.action = "release";
		act.argument = "uncertain";
		act.detail = sb_str(&reason);
		if (audit_record_action(db, &act, NULL) < 0)
			goto out;
	}
	ret = 0;
out:
	sb_release(&reason);
	sb_release(&why);
	return ret;
}

/* what a stranger's fix proposed says: it silences no reminder */
#define STRANGER_FIX                                                       \
	" (from someone who is not one of the report's people: recorded, " \
	"its reminders go on)"

/*
 * record_other - a message that is no report (a patch, a review, a bot
 * notice ...): kept with its kind and thread, never classified, and
 * recorded or held as "action KIND" says (held whatever it says when
 * only its subject decided its kind: kind_hold_reason()); a patch that
 * joined a report is noted on it as a fix proposed
 */
/* record_kind_act - a non-report's action and reason; see record.h */
void record_kind_act(const struct pipeline *p, const struct decision *d,
		     bool in_thread, struct act_decision *out)
{
	act_kind(&p->act, d->kind.kind, d->kind.why, out);
	if (d->hold) {
		/* what must be held, whatever it is: that reason first */
		out->action = ACT_HOLD;
		snprintf(out->reason, sizeof(out->reason), "%s (a %s)", d->hold,
			 kind_name(d->kind.kind));
	} else {
		/* a first report under a misleading subject reads the same:
		 * a triager sees it rather than nobody (kind.h) */
		act_subject_only(&d->kind, in_thread, out);
	}
}

static int record_other(struct audit *db, const struct pipeline *p,
			const struct report *r, const struct decision *d,
			time_t now, struct record_result *out)
{
	const struct link *ln = &d->link;
	struct strbuf why = STRBUF_INIT(1024);
	struct act_decision act;
	struct audit_report_row row;
	struct audit_links links;
	struct audit_decision dec;
	struct audit_action a;
	struct audit_fix fix;
	char arg[32], *how = NULL, *detail = NULL;
	int ret = -1;

	record_kind_act(p, d, ln->thread_root != 0, &act);
	out->state = act.action == ACT_HOLD ? "held" : "recorded";
	sb_adds(&why, act.reason);
	if (ln->thread_root)
		sb_addf(&why, "; in the thread of #%lld (%s %s)",
			(long long)ln->thread_root, ln->how ? ln->how : "",
			ln->via);
	if (ln->fix)
		sb_addf(&why, "; a fix proposed for report #%lld%s",
			(long long)ln->thread_root,
			ln->stranger ? STRANGER_FIX : "");

	memset(&links, 0, sizeof(links));
	links.thread_root = ln->thread_root;
	memset(&row, 0, sizeof(row));
	row.received_at = now;
	row.state = out->state;
	row.kind = kind_name(d->kind.kind);
	row.links = &links;
	memset(&dec, 0, sizeof(dec));
	dec.at = now;
	dec.action = act_action_name(act.action);
	dec.reason = sb_str(&why);
	if (audit_insert_report_row(db, r, &row, &out->report) < 0 ||
	    keep_sendable(db, p, r, out->report) < 0 ||
	    audit_insert_decision(db, out->report, &dec, NULL) < 0)
		goto out;
	if (ln->fix) {
		memset(&fix, 0, sizeof(fix));
		fix.report = ln->thread_root;
		fix.at = now;
		fix.state = "proposed";
		fix.source_report = out->report;
		fix.message_id = r->message_id;
		fix.subject = r->subject;
		if (ln->stranger)
			how = xasprintf("%s" AUDIT_FIX_NOT_A_PARTY,
					ln->how ? ln->how : "?");
		fix.how = how ? how : ln->how;
		snprintf(arg, sizeof(arg), "#%lld", (long long)out->report);
		memset(&a, 0, sizeof(a));
		a.report = ln->thread_root;
		a.at = now;
		a.who = r->from_addr && *r->from_addr ? r->from_addr : "triage";
		a.action = "fix-proposed";
		a.argument = arg;
		if (ln->stranger)
			detail = xasprintf("%s%s", r->subject ? r->subject : "",
					   STRANGER_FIX);
		a.detail = detail ? detail : r->subject;
		if (audit_insert_fix(db, &fix, NULL) < 0 ||
		    audit_record_action(db, &a, NULL) < 0)
			goto out;
	}
	ret = 0;
out:
	free(how);
	free(detail);
	sb_release(&why);
	return ret;
}

/* another_reporter - r comes from someone else than root's reporter */
static bool another_reporter(const struct audit_root *root,
			     const struct report *r)
{
	return !r->from_addr || !*r->from_addr || !root->from_addr[0] ||
	       strcasecmp(r->from_addr, root->from_addr);
}

/* evidence_list - " (a stack trace, a reproducer, ...)": what ev shows */
static void evidence_list(const struct evidence *ev, struct strbuf *sb)
{
	const char *sep = " (";

	if (!ev)
		return;
#define ITEM(cond, ...)                           \
	do {                                      \
		if (cond) {                       \
			sb_adds(sb, sep);         \
			sb_addf(sb, __VA_ARGS__); \
			sep = ", ";               \
		}                                 \
	} while (0)
	ITEM(ev->nframes, "a stack trace");
	ITEM(ev->reproducer, "a reproducer");
	ITEM(ev->kernel_version, "kernel %s", ev->kernel_version);
	ITEM(ev->hardware && !ev->hw_virtual, "a real machine");
	ITEM(ev->bisect_commit, "a bisection");
#undef ITEM
	if (strcmp(sep, " ("))
		sb_adds(sb, ")");
}

/*
 * lead_group - report (another reporter's, of the crash of the group
 * whose first is first) shows more evidence than the first: it leads
 * the group from now on, so that the group's recipient and the desk see
 * the best-evidenced report, not merely the first (a stranger who sent
 * the crash first cannot bury a better report); 1 when it took the lead
 */
static int lead_group(struct audit *db, int64_t report, int64_t first,
		      struct audit_links *links, time_t now)
{
	struct audit_action act;
	char arg[32];
	int rc = audit_better_evidence(db, report, first);

	if (rc <= 0)
		return rc;
	links->same_crash_as = 0;
	if (audit_set_links(db, report, links) < 0)
		return -1;
	/* the first and what was grouped under it join the new lead */
	snprintf(arg, sizeof(arg), "%lld", (long long)report);
	memset(&act, 0, sizeof(act));
	act.report = first;
	act.at = now;
	act.who = "triage";
	act.action = "dup";
	act.argument = arg;
	act.detail = "another reporter's report of the same crash shows more "
		     "evidence: it leads the group";
	return audit_record_action(db, &act, NULL) < 0 ? -1 : 1;
}

/*
 * record_decision - insert a classified report and what was decided,
 * queueing any mail; inside the caller's transaction
 */
/* how a new report is routed: decided before anything is written */
struct route_plan {
	bool seen_again; /* "+1" to a crash someone has */
	bool other;	 /* another reporter's report of a known crash */
	bool to_group;	 /* ... sent to the group's recipient */
	bool placed;	 /* ... placed in the group's section */
	bool forward;
	int capped; /* held by the sender cap or as unsendable */
	const char *to, *to_name, *section;
};

static int plan_route(struct audit *db, const struct pipeline *p,
		      const struct report *r, const struct decision *d,
		      time_t now, struct record_result *out,
		      struct route_plan *pl, struct strbuf *cap_why)
{
	const struct link *ln = &d->link;
	const char *bad;

	memset(pl, 0, sizeof(*pl));
	pl->section = decision_section(p, d);
	/* the same crash as a report someone has: "+1", no new assignment */
	pl->seen_again =
		ln->same_crash_as && !ln->hold && has_assignment(&ln->root);
	/*
	 * another reporter's report of the crash is never buried as "+1"
	 * (whoever sent the crash first could bury the real report): it is
	 * sent to the group's recipient, or held, as its own verdict says;
	 * what would only wait for the digest or be recorded still does
	 */
	if (pl->seen_again && another_reporter(&ln->root, r) &&
	    (d->act.action == ACT_FORWARD || d->act.action == ACT_HOLD)) {
		pl->seen_again = false;
		pl->other = true;
	}
	out->state = pl->seen_again ? "digest" : state_for(d);
	pl->forward = d->act.action == ACT_FORWARD && !pl->seen_again;
	/*
	 * ... but a security-looking report is not sent where its crash
	 * group's went (that may be a list): its own private pick, or held
	 */
	if (pl->other && d->act.action == ACT_HOLD && !d->mapped && !d->hold &&
	    !d->act.security_why[0] && forwarded_to(&ln->root)) {
		/* the map could not place it; its crash group does */
		struct act_decision as_placed;

		act_decide(&p->act, d->cls, true, true, NULL, &as_placed);
		pl->placed = pl->forward = as_placed.action == ACT_FORWARD;
		if (pl->placed) {
			out->state = "forwarded";
			pl->section =
				ln->root.section[0] ? ln->root.section : NULL;
		}
	}
	if (pl->forward) {
		pl->capped = sender_capped(db, p, r, now, cap_why);
		if (pl->capped < 0)
			return -1;
		if (pl->capped) {
			pl->forward = false;
			out->state = "held";
		} else if ((bad = unsendable(r))) {
			pl->forward = false;
			pl->capped = 1; /* held as by the cap, for its reason */
			out->state = "held";
			sb_addf(cap_why,
				"; not forwarded as it came: %s (SMTP could "
				"refuse it for good); held for a triager",
				bad);
		}
	}
	pl->to = d->pick.addr;
	pl->to_name = d->pick.name;
	if (pl->other && pl->forward && !d->act.security &&
	    forwarded_to(&ln->root)) {
		pl->to_group = true;
		pl->to = ln->root.recipient;
		pl->to_name = ln->root.recipient_name[0]
				      ? ln->root.recipient_name
				      : NULL;
	}
	return 0;
}

/* seen_again - "+1, seen again on DATE by WHO": the reason and recipient */
static void seen_again(const struct report *r, const struct decision *d,
		       time_t now, struct strbuf *why,
		       struct audit_decision *dec)
{
	const struct link *ln = &d->link;
	/* when the reporter saw it: the Date: of the message */
	time_t seen = r->when > 0 ? r->when : now;
	char when[32];
	struct tm tm;

	gmtime_r(&seen, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", &tm);
	sb_reset(why);
	sb_addf(why,
		"+1, seen again on %s by %s: same crash as "
		"report #%lld (%s %s)",
		when, r->from_addr && *r->from_addr ? r->from_addr : "?",
		(long long)ln->same_crash_as,
		d->syzbot_id[0] ? "syzbot id" : "signature",
		d->syzbot_id[0] ? d->syzbot_id : d->crash_signature);
	dec->action = "seen-again";
	/* the first's recipient; its own pick when that waits too */
	if (ln->root.recipient[0]) {
		dec->recipient = ln->root.recipient;
		dec->recipient_name = ln->root.recipient_name[0]
					      ? ln->root.recipient_name
					      : NULL;
	}
}

/* group_reason - what another reporter's report of a crash did there */
static void group_reason(const struct decision *d, const struct route_plan *pl,
			 int lead, struct strbuf *why)
{
	const struct link *ln = &d->link;

	/* the signature is in the group's first: not repeated here */
	sb_addf(why,
		"; the same crash as report #%lld (same %s), which %s reported",
		(long long)ln->same_crash_as,
		d->syzbot_id[0] ? "syzbot id" : "signature",
		ln->root.from_addr[0] ? ln->root.from_addr : "someone else");
	if (pl->to_group)
		sb_addf(why,
			": sent to that report's recipient%s with its "
			"own evidence",
			pl->placed ? " in its section" : "");
	if (pl->to_group || lead)
		evidence_list(d->ev, why);
	if (lead)
		sb_addf(why,
			"; more evidence than #%lld: now the first "
			"of its group",
			(long long)ln->same_crash_as);
}

/* queue_forward - the forward (and an auto-reply) of a new report */
static int queue_forward(struct audit *db, const struct pipeline *p,
			 const struct router_id *id, const struct report *r,
			 const struct decision *d, const struct route_plan *pl,
			 const char *why, time_t now, struct record_result *out)
{
	const char *cc = NULL;
	char *security = NULL;

	/* the kernel's regressions list follows regressions */
	if (d->regression.found)
		cc = config_get(p->cfg, "regressions_list");
	if (cc && !*cc)
		cc = NULL;
	/* a security-looking report goes privately: marked, no list */
	if (d->act.security) {
		cc = NULL;
		security = xasprintf("yes (%s)", d->act.security_why);
	}
	/* X-Triage-Class: the verdict, "user; score=12.8; rules=..." */
	out->outbox = forward_queue_cc(
		db, id, out->report, r->raw, r->raw_len, r->sha256, pl->to,
		pl->to_name, cc, d->class_header[0] ? d->class_header : d->cls,
		pl->section, why, security, now);
	free(security);
	if (out->outbox < 0)
		return -1;
	if (d->act.reply && !pl->placed &&
	    deliver_may_autoreply(r->headers, r->nheaders, r->envelope_from,
				  NULL, NULL)) {
		out->reply = queue_reply(db, id, r, out->report, pl->section,
					 d->pick.bug_url, now);
		if (out->reply < 0)
			return -1;
	}
	return 0;
}

int record_decision(struct audit *db, const struct pipeline *p,
		    const struct router_id *id, const struct report *r,
		    const struct decision *d, time_t now,
		    struct record_result *out)
{
	const struct link *ln = &d->link;
	struct audit_classification c;
	struct audit_report_row row;
	struct audit_links links;
	struct audit_rule_hit *hits = NULL;
	struct audit_section *secs = NULL;
	struct audit_decision dec;
	struct route_plan pl;
	struct strbuf cand = STRBUF_INIT(CANDIDATES_MAX);
	struct strbuf why = STRBUF_INIT(2048);
	struct strbuf cap_why = STRBUF_INIT(512);
	size_t i, nsecs;
	int ret = -1, lead = 0;

	memset(out, 0, sizeof(*out));
	if (ln->thread_root && d->kind.kind == KIND_FOLLOWUP)
		return record_followup(db, p, id, r, d, now, out);
	if (d->kind.kind != KIND_REPORT)
		return record_other(db, p, r, d, now, out);
	if (plan_route(db, p, r, d, now, out, &pl, &cap_why) < 0)
		goto out;

	hits = classification_of(d, p->model ? "model.bin" : NULL, now, &c);

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
	dec.action = pl.capped	 ? "hold"
		     : pl.placed ? "forward"
				 : act_action_name(d->act.action);
	dec.recipient = pl.to;
	dec.recipient_name = pl.to_name;
	sb_adds(&why, d->act.action == ACT_FORWARD && d->pick.reason
			      ? d->pick.reason
			      : d->act.reason);
	regression_note(&d->regression, &why);
	dec.candidates = sb_str(&cand);
	if (pl.seen_again)
		seen_again(r, d, now, &why, &dec);

	/* a repeated crash the map could not place waits in the first's */
	nsecs = d->sections.n;
	if ((pl.seen_again || pl.placed) && !nsecs && ln->root.section[0]) {
		secs[0].name = ln->root.section;
		secs[0].score = 0;
		secs[0].why = "the section of the first report of this crash";
		nsecs = 1;
	}
	/* the row with its links, class and sections: written once */
	links_of(&links, d, 0, ln->same_crash_as);
	memset(&row, 0, sizeof(row));
	row.received_at = now;
	row.state = out->state;
	row.links = &links;
	row.class = c.class;
	row.has_sections = true;
	row.sections = secs;
	row.nsections = nsecs;
	c.class_stored = true;
	if (insert_report(db, p, r, &row, d, &out->report) < 0 ||
	    audit_insert_classification(db, out->report, &c) < 0)
		goto out;
	if (pl.other) {
		lead = lead_group(db, out->report, ln->same_crash_as, &links,
				  now);
		if (lead < 0)
			goto out;
		group_reason(d, &pl, lead, &why);
	}
	sb_adds(&why, sb_str(&cap_why));
	dec.reason = sb_str(&why);
	/*
	 * whether it looks security-sensitive, as data (act_private()),
	 * whatever its action: held for its size or class too (issue 21)
	 */
	dec.security = d->act.security_why[0] ? d->act.security_why : NULL;
	if (audit_insert_decision(db, out->report, &dec, NULL) < 0)
		goto out;
	if (pl.forward &&
	    queue_forward(db, p, id, r, d, &pl, sb_str(&why), now, out) < 0)
		goto out;
	ret = 0;
out:
	free(hits);
	free(secs);
	sb_release(&cand);
	sb_release(&why);
	sb_release(&cap_why);
	return ret;
}
