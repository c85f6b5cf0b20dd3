// SPDX-License-Identifier: GPL-2.0-only
/*
 * mailcmd - reply commands run as desk actions (see mailcmd.h)
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "actions.h"
#include "audit.h"
#include "command.h"
#include "config.h"
#include "deliver.h"
#include "forward.h"
#include "authres.h"
#include "mailcmd.h"
#include "map.h"
#include "pick.h"
#include "pipeline.h"
#include "report.h"
#include "strbuf.h"
#include "token.h"
#include "util.h"

#define ANSWER_MAX (64u << 10)
#define ADDR_MAX   320

/* one run: the context of every action, the report as it is now */
struct run {
	struct action_ctx a;
	const struct pipeline *p;
	const struct report *r; /* the command message */
	const struct audit_root *root;
	struct audit_record rec; /* the root, read again after each action */
	bool have_rec;
	const char *sender;
	int64_t msg; /* the command message's own row */
	struct strbuf out, err;
};

/* ---- who may -------------------------------------------------------------- */

static bool same_addr(const char *entry, const char *sender)
{
	char addr[ADDR_MAX];

	if (!strncasecmp(entry, "mailto:", 7))
		entry += 7;
	return addr_parse(entry, addr, sizeof(addr)) == 0 &&
	       !strcasecmp(addr, sender);
}

/* section_person - sender is a B: (mailto), M: or R: of section title */
static bool section_person(const struct map *map, const char *title,
			   const char *sender)
{
	uint32_t i, n;
	int sec;

	if (!map || !title || !*title)
		return false;
	sec = map_find_section(map, title);
	if (sec < 0)
		return false;
	n = map_nentries(map, (uint32_t)sec);
	for (i = 0; i < n; i++) {
		char tag = map_entry_tag(map, (uint32_t)sec, i);

		if ((tag == 'M' || tag == 'R' || tag == 'B') &&
		    same_addr(map_entry_value(map, (uint32_t)sec, i), sender))
			return true;
	}
	return false;
}

static bool roster_person(const struct pick_config *pc, const char *title,
			  const char *sender)
{
	size_t i, j;

	for (i = 0; pc && title && i < pc->nrosters; i++) {
		if (strcasecmp(pc->rosters[i].section, title))
			continue;
		for (j = 0; j < pc->rosters[i].naddrs; j++)
			if (!strcasecmp(pc->rosters[i].addrs[j], sender))
				return true;
	}
	return false;
}

/* triager - sender is in routes.conf's triagers (commas or blanks) */
static bool triager(const struct config *cfg, const char *sender)
{
	const char *s = cfg ? config_get(cfg, "triagers") : NULL;
	char addr[ADDR_MAX];
	size_t n;

	while (s && *s) {
		s += strspn(s, ", \t");
		n = strcspn(s, ", \t");
		if (n && n < sizeof(addr)) {
			memcpy(addr, s, n);
			addr[n] = '\0';
			if (!strcasecmp(addr, sender))
				return true;
		}
		s += n;
	}
	return false;
}

/* authorised - why sender may act on the report, or NULL */
static const char *authorised(const struct run *u)
{
	const struct audit_root *root = u->root;
	size_t i;

	if (root->recipient[0] && !strcasecmp(root->recipient, u->sender))
		return "the report's recipient";
	if (section_person(u->p->map, root->section, u->sender))
		return "a person of its section";
	for (i = 0; u->have_rec && i < u->rec.nsections; i++)
		if (section_person(u->p->map, u->rec.sections[i].name,
				   u->sender))
			return "a person of its section";
	if (roster_person(u->p->pick, root->section, u->sender))
		return "its section's roster";
	if (triager(u->p->cfg, u->sender))
		return "a triager";
	return NULL;
}

/*
 * authenticated - NULL when routes.conf names no authserv_id, or the
 * topmost Authentication-Results of that id passes (authres.h); else why
 */
static const char *authenticated(const struct run *u)
{
	return authres_check(u->r, config_get(u->p->cfg, "authserv_id"),
			     u->sender);
}

/* automatic - why r is an automatic message (runs nothing), or NULL */
static const char *automatic(const struct report *r, const char *router)
{
	const char *as = report_header(r, "Auto-Submitted");

	if (deliver_is_loop(r->raw, r->raw_len, router))
		return "it carries our X-Loop";
	if (as) {
		while (isspace((unsigned char)*as))
			as++;
		if (strncasecmp(as, "no", 2) ||
		    (as[2] && !isspace((unsigned char)as[2]) && as[2] != ';' &&
		     as[2] != '('))
			return "it is an automatic message (Auto-Submitted)";
	}
	return NULL;
}

/* ---- the report, as the actions leave it ------------------------------- */

static int reread(struct run *u)
{
	int rc;

	if (u->have_rec)
		audit_record_release(&u->rec);
	u->have_rec = false;
	rc = audit_get_report(u->a.db, u->root->id, AUDIT_GET_RAW, &u->rec);
	if (rc < 0)
		return -1;
	u->have_rec = rc == 1;
	return 0;
}

/* ignored - record that the commands were not run, and why */
static int ignored(struct run *u, const char *why)
{
	char *detail = xasprintf("commands ignored: %s (from %s)", why,
				 u->sender && *u->sender ? u->sender : "?");
	struct audit_action act;
	int rc;

	memset(&act, 0, sizeof(act));
	act.report = u->root->id;
	act.at = u->a.now;
	act.who = "triage";
	act.action = "commands";
	act.detail = detail;
	rc = audit_record_action(u->a.db, &act, NULL);
	free(detail);
	return rc;
}

/* ---- mail ------------------------------------------------------------------ */

/*
 * enqueue - a composed message m to rcpt, queued as a reply of report
 * row report (the confirmation: the command message's own row, which no
 * action on the report cancels; a request: the report's)
 */
static int enqueue(struct run *u, int64_t report, struct deliver_message *m,
		   const char *from, const char *rcpt)
{
	struct strbuf msg = STRBUF_INIT(ANSWER_MAX * 2);
	struct audit_outbox_new o;
	int64_t oid;
	int rc = -1;

	if (deliver_compose_message(m, &msg) < 0) {
		sb_release(&msg);
		return 1; /* not composable: said in the answer */
	}
	memset(&o, 0, sizeof(o));
	o.report = report;
	o.kind = "reply";
	o.created_at = u->a.now;
	o.envelope_from = from;
	o.recipients = rcpt;
	o.message = msg.buf;
	o.message_len = msg.len;
	if (audit_outbox_enqueue(u->a.db, &o, &oid) == 0) {
		u->a.queued++;
		rc = 0;
	}
	sb_release(&msg);
	return rc;
}

/* subject - "Re: [triage #ID-TOKEN] SUBJECT" of the report */
static char *subject(struct run *u, const char *s)
{
	char tok[TOKEN_SIZE];

	if (router_token(u->a.rid, u->root->id, tok, sizeof(tok)) < 0)
		tok[0] = '\0';
	if (!s)
		s = "";
	if (!strncasecmp(s, "Re:", 3))
		s += 3;
	while (*s == ' ')
		s++;
	if (strstr(s, "[triage #"))
		return xasprintf("Re: %s", s);
	return tok[0] ? xasprintf("Re: [triage #%lld-%s] %s",
				  (long long)u->root->id, tok, s)
		      : xasprintf("Re: [triage #%lld] %s",
				  (long long)u->root->id, s);
}

static const char *const need_text[] = {
	"* The kernel version: the output of 'uname -a', and where the\n"
	"  kernel comes from (a distribution package, or a git tree and\n"
	"  commit you built).\n",
	"* The full kernel log: the output of 'dmesg' (or 'journalctl -k -b')\n"
	"  from boot to the problem, as an attachment or inline, not cut.\n",
	"* A reproducer: the steps, program or script that makes the\n"
	"  problem happen, and how often it does.\n",
	"* A bisection: if an older kernel worked, 'git bisect start BAD\n"
	"  GOOD' in a kernel tree, build and test each commit git offers,\n"
	"  answer 'git bisect good' or 'git bisect bad', and send the first\n"
	"  bad commit it names (see git-bisect(1) and\n"
	"  Documentation/admin-guide/bug-bisect.rst).\n",
};

/* needinfo - ask the reporter, with a template per item */
static int needinfo(struct run *u, const struct command *c)
{
	struct strbuf body = STRBUF_INIT(ANSWER_MAX);
	struct deliver_message m;
	char rcpt[ADDR_MAX], raddr[400];
	const char *to[2] = { rcpt, NULL };
	const char *refs[2] = { u->rec.message_id, NULL };
	struct deliver_header h[2];
	char *subj;
	size_t i;
	int rc;

	if (!u->rec.from_addr ||
	    addr_parse(u->rec.from_addr, rcpt, sizeof(rcpt)) < 0 ||
	    !addr_valid(rcpt)) {
		sb_adds(&u->err, "the reporter's address is not usable");
		return 1;
	}
	sb_addf(&body,
		"Hello,\n\n"
		"%s, who is looking at your report \"%s\", asks for more\n"
		"information:\n\n",
		u->sender, u->rec.subject ? u->rec.subject : "");
	if (c->items) {
		for (i = 0; i < ARRAY_SIZE(need_text); i++)
			if (c->items & (1u << i))
				sb_adds(&body, need_text[i]);
	} else {
		sb_addf(&body, "* %s\n", c->arg);
	}
	sb_adds(&body, "\nPlease answer this mail with it: your answer goes "
		       "to the report.\n");
	subj = subject(u, u->rec.subject);
	memset(&m, 0, sizeof(m));
	m.from_name = u->a.rid->name;
	m.from_addr = u->a.rid->address;
	m.to = to;
	m.subject = subj;
	m.in_reply_to = u->rec.message_id;
	m.references = u->rec.message_id ? refs : NULL;
	m.auto_submitted = DELIVER_AUTO_GENERATED;
	h[0].name = "X-Loop";
	h[0].value = u->a.rid->address;
	m.extra = h;
	m.nextra = 1;
	/* the answer joins the report by its own address too */
	if (router_report_address(u->a.rid, u->root->id, raddr,
				  sizeof(raddr)) == 0) {
		h[1].name = "Reply-To";
		h[1].value = raddr;
		m.nextra = 2;
	}
	m.body = body.buf;
	m.body_len = body.len;
	m.date = u->a.now;
	rc = enqueue(u, u->root->id, &m, u->a.rid->bounce, rcpt);
	if (rc == 0)
		sb_addf(&u->out, "asked %s for it\n", rcpt);
	else if (rc > 0)
		sb_adds(&u->err, "the request could not be composed");
	free(subj);
	sb_release(&body);
	return rc < 0 ? -1 : rc;
}

/* ---- the verbs ------------------------------------------------------------ */

/* reroute - to a section (matched as the CLI does) or an address */
static int do_reroute(struct run *u, const struct command *c)
{
	int sec = -1;

	if (c->is_addr) {
		if (!addr_valid(c->arg)) {
			sb_addf(&u->err, "'%s' is not a valid address", c->arg);
			return 1;
		}
	} else {
		sec = u->p->map
			      ? action_find_section(u->p->map, c->arg, &u->err)
			      : -1;
		if (sec < 0) {
			if (!u->p->map)
				sb_adds(&u->err, "no MAINTAINERS map here");
			return 1;
		}
	}
	return action_reroute(&u->a, &u->rec, sec, sec < 0 ? c->arg : NULL,
			      NULL);
}

/* notme - never this person again; the recipient's report is re-picked */
static int do_notme(struct run *u)
{
	const char *title =
		u->rec.nsections ? u->rec.sections[0].name : u->root->section;
	bool holder = u->root->recipient[0] &&
		      !strcasecmp(u->root->recipient, u->sender);
	int sec, rc;

	if (audit_decline(u->a.db, u->rec.id, u->sender, u->a.now) < 0 ||
	    action_record(&u->a, &u->rec, "notme", u->sender,
			  "gave the report back") < 0)
		return -1;
	if (!holder) {
		sb_addf(&u->out, "noted: %s will not be picked for it\n",
			u->sender);
		return 0;
	}
	sec = u->p->map && title && *title ? map_find_section(u->p->map, title)
					   : -1;
	if (sec < 0) {
		/* nobody to pick from: a triager decides */
		if (audit_set_state(u->a.db, u->rec.id, "held", u->a.now) < 0)
			return -1;
		sb_adds(&u->out, "noted; the report has no section to pick "
				 "from: held for a triager\n");
		return 0;
	}
	rc = action_reroute(&u->a, &u->rec, sec, NULL, "given back");
	if (rc == ACTION_REFUSED) {
		/* nobody else: held, not sent back to who gave it */
		sb_reset(&u->err);
		if (audit_set_state(u->a.db, u->rec.id, "held", u->a.now) < 0)
			return -1;
		sb_addf(&u->out,
			"noted; nobody else in %s can take it: held "
			"for a triager\n",
			title);
		return 0;
	}
	return rc;
}

/* dup - by report id, or by the Message-ID of a report */
static int do_dup(struct run *u, const struct command *c)
{
	int64_t other = c->id;
	char id[256];
	int rc;

	if (!other) {
		snprintf(id, sizeof(id), "%.*s",
			 (int)strcspn(c->arg + (c->arg[0] == '<'), ">"),
			 c->arg + (c->arg[0] == '<'));
		rc = audit_thread_find(u->a.db, id, &other);
		if (rc < 0)
			return -1;
		if (rc == 0) {
			sb_addf(&u->err, "no report has Message-ID <%s>", id);
			return 1;
		}
	}
	return action_dup(&u->a, &u->rec, other);
}

static int do_fix(struct run *u, const struct command *c, bool fixed)
{
	struct audit_fix f;

	memset(&f, 0, sizeof(f));
	f.report = u->rec.id;
	f.at = u->a.now;
	f.state = fixed ? "fixed" : "proposed";
	if (fixed)
		f.commit_sha = c->arg;
	else if (!c->is_url)
		f.message_id = c->arg;
	f.how = fixed ? "#triage fixed" : "#triage fix-proposed";
	if (!fixed && c->is_url)
		f.subject = c->arg;
	if (audit_insert_fix(u->a.db, &f, NULL) < 0 ||
	    action_record(&u->a, &u->rec, fixed ? "fixed" : "fix-proposed",
			  c->arg, NULL) < 0)
		return -1;
	sb_addf(&u->out, "%s: %s\n", fixed ? "fixed by" : "fix proposed",
		c->arg);
	return 0;
}

/* away - the local midnight after the last day */
static int do_away(struct run *u, const struct command *c)
{
	struct tm tm;
	time_t until;

	memset(&tm, 0, sizeof(tm));
	tm.tm_year = c->y - 1900;
	tm.tm_mon = c->m - 1;
	tm.tm_mday = c->d + 1;
	tm.tm_isdst = -1;
	until = mktime(&tm);
	if (until == (time_t)-1 || until <= u->a.now) {
		sb_addf(&u->err, "%s is past", c->arg);
		return 1;
	}
	if (audit_person_away(u->a.db, u->sender, (int64_t)until, u->a.now) <
		    0 ||
	    action_record(&u->a, &u->rec, "away", c->arg, u->sender) < 0)
		return -1;
	sb_addf(&u->out,
		"%s is away until %s (included): nothing new is "
		"sent to you till then\n",
		u->sender, c->arg);
	return 0;
}

static int do_cap(struct run *u, const struct command *c)
{
	char arg[32];

	snprintf(arg, sizeof(arg), "%d/day", c->cap);
	if (audit_person_cap(u->a.db, u->sender, c->cap, u->a.now) < 0 ||
	    action_record(&u->a, &u->rec, "cap", arg, u->sender) < 0)
		return -1;
	sb_addf(&u->out, "%s gets at most %d new report%s a day\n", u->sender,
		c->cap, c->cap == 1 ? "" : "s");
	return 0;
}

static void help(struct run *u)
{
	int v;

	/*
	 * never "#triage VERB" at the start of a line: a robot that sends
	 * this text back unquoted must not run it
	 */
	sb_adds(&u->out, "Commands, one per line of a reply, outside quoted "
			 "text, each after \"#triage \":\n");
	for (v = 0; v < COMMAND_NVERBS; v++)
		sb_addf(&u->out, "  - %s\n",
			command_usage((enum command_verb)v));
	sb_adds(&u->out, "See triage-mail(7).\n");
}

/*
 * one - command c on the report: ACTION_DONE or ACTION_SAME (what it did
 * in out), another ACTION_ (why not in err), -1 on a database error
 */
static int one(struct run *u, const struct command *c)
{
	int rc;

	u->a.verb = command_verb_name(c->verb);
	switch (c->verb) {
	case COMMAND_ERROR:
		sb_adds(&u->err, c->error);
		return 1;
	case COMMAND_REROUTE:
		return do_reroute(u, c);
	case COMMAND_CLASS:
		return action_reclassify(&u->a, &u->rec, c->arg);
	case COMMAND_DUP:
		return do_dup(u, c);
	case COMMAND_UNDUP:
		return action_dup(&u->a, &u->rec, 0);
	case COMMAND_INVALID:
		return action_reject(&u->a, &u->rec,
				     c->arg[0] ? c->arg : "invalid");
	case COMMAND_NEEDINFO:
		rc = needinfo(u, c);
		if (rc != 0)
			return rc;
		return action_record(&u->a, &u->rec, "needinfo", c->arg, NULL);
	case COMMAND_FIXED:
	case COMMAND_FIX_PROPOSED:
		return do_fix(u, c, c->verb == COMMAND_FIXED);
	case COMMAND_NOTE:
		return action_note(&u->a, &u->rec, c->arg);
	case COMMAND_NOTME:
		return do_notme(u);
	case COMMAND_AWAY:
		return do_away(u, c);
	case COMMAND_CAP:
		return do_cap(u, c);
	case COMMAND_HELP:
		help(u);
		return 0;
	case COMMAND_NVERBS:
		break;
	}
	return 1;
}

/* answer - the one confirmation, to the sender only */
static int answer(struct run *u, const struct strbuf *body)
{
	struct deliver_message m;
	struct deliver_header h = { "X-Loop", u->a.rid->address };
	const char *to[2] = { u->sender, NULL };
	const char *refs[2] = { u->r->message_id, NULL };
	char *subj = subject(u, u->r->subject);
	int rc;

	memset(&m, 0, sizeof(m));
	m.from_name = u->a.rid->name;
	m.from_addr = u->a.rid->address;
	m.to = to;
	m.subject = subj;
	m.in_reply_to = u->r->message_id;
	m.references = u->r->message_id ? refs : NULL;
	m.auto_submitted = DELIVER_AUTO_REPLIED;
	m.extra = &h;
	m.nextra = 1;
	m.body = body->buf;
	m.body_len = body->len;
	m.date = u->a.now;
	/* RFC 3834: an automatic reply has a null envelope sender */
	rc = enqueue(u, u->msg, &m, "", u->sender);
	free(subj);
	return rc < 0 ? -1 : 0;
}

/* run_all - each command in turn, its result in body; how many ran */
static int run_all(struct run *u, const struct command_list *l,
		   struct strbuf *body, unsigned *ran)
{
	size_t i;
	int rc;

	for (i = 0; i < l->n; i++) {
		sb_reset(&u->out);
		sb_reset(&u->err);
		if (reread(u) < 0)
			return -1;
		if (!u->have_rec)
			return 0;
		/*
		 * each command alone: a permanent failure (a row that is not
		 * as the action expects) undoes that command only and is
		 * answered; a temporary one defers the whole message
		 */
		if (audit_savepoint(u->a.db) < 0)
			return -1;
		rc = one(u, &l->cmd[i]);
		if (rc < 0 && audit_temporary(u->a.db))
			return -1;
		if (rc < 0) {
			sb_reset(&u->out);
			sb_reset(&u->err);
			sb_addf(&u->err, "not done: %s", audit_errmsg(u->a.db));
		}
		if (audit_savepoint_end(u->a.db,
					rc >= 0 && rc != ACTION_REFUSED &&
						rc != ACTION_UNKNOWN) < 0)
			return -1;
		if (rc < 0)
			rc = ACTION_REFUSED;
		sb_addf(body, "> #triage %s\n", l->cmd[i].line);
		if (rc == ACTION_DONE || rc == ACTION_SAME) {
			(*ran)++;
			sb_adds(body, sb_str(&u->out));
		} else {
			sb_addf(body, "error: %s\n", sb_str(&u->err));
		}
		sb_addc(body, '\n');
	}
	if (l->dropped)
		sb_addf(body,
			"%zu more command%s not run: at most %d a message.\n",
			l->dropped, l->dropped == 1 ? "" : "s", COMMAND_MAX);
	return 0;
}

int mailcmd_run(struct audit *db, const struct pipeline *p,
		const struct router_id *id, const struct report *r,
		const struct audit_root *root, int64_t msg, time_t now,
		unsigned *ran, bool *queued)
{
	struct command_list *l;
	struct strbuf body = STRBUF_INIT(ANSWER_MAX);
	struct run u;
	const char *why;
	int ret = -1;

	*ran = 0;
	*queued = false;
	if (!r->body || !r->body_len || (r->flags & REPORT_HTML_ONLY))
		return 0;
	l = xcalloc(1, sizeof(*l));
	command_parse(r->body, r->body_len, l);
	if (!l->n) {
		free(l);
		return 0;
	}
	memset(&u, 0, sizeof(u));
	sb_init(&u.out, ANSWER_MAX);
	sb_init(&u.err, 4096);
	u.a.db = db;
	u.a.cfg = p->cfg;
	u.a.rid = id;
	u.a.map = p->map;
	u.a.pick = p->pick;
	u.a.now = now;
	u.a.out = &u.out;
	u.a.err = &u.err;
	u.p = p;
	u.r = r;
	u.root = root;
	u.sender = r->from_addr && *r->from_addr ? r->from_addr : NULL;
	u.msg = msg;
	if (reread(&u) < 0)
		goto out;
	why = automatic(r, id->address);
	if (!why && (!u.sender || !addr_valid(u.sender)))
		why = "no usable From address";
	if (!why && !authorised(&u))
		why = "not authorised";
	if (!why)
		why = authenticated(&u);
	if (why) {
		ret = ignored(&u, why);
		goto out;
	}
	u.a.who = u.sender;
	sb_addf(&body, "Your commands for report #%lld (%s):\n\n",
		(long long)root->id, authorised(&u));
	if (run_all(&u, l, &body, ran) < 0 || answer(&u, &body) < 0)
		goto out;
	*queued = true;
	ret = 0;
out:
	if (u.have_rec)
		audit_record_release(&u.rec);
	sb_release(&u.out);
	sb_release(&u.err);
	sb_release(&body);
	free(l);
	return ret;
}
