// SPDX-License-Identifier: GPL-2.0-only
/*
 * act - what to do with a classified, mapped report (see act.h)
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "act.h"
#include "config.h"
#include "util.h"

static const char *const class_names[ACT_NCLASSES] = {
	[ACT_USER] = "user",
	[ACT_FUZZER] = "fuzzer",
	[ACT_AI] = "ai",
	[ACT_UNCERTAIN] = "uncertain",
	[ACT_UNMAPPED] = "unmapped",
};

int act_class_from_name(const char *name)
{
	int i;

	for (i = 0; i < ACT_NCLASSES; i++)
		if (name && strcasecmp(name, class_names[i]) == 0)
			return i;
	return -1;
}

const char *act_action_name(enum act_action a)
{
	switch (a) {
	case ACT_FORWARD:
		return "forward";
	case ACT_DIGEST:
		return "digest";
	case ACT_RECORD:
		return "record";
	case ACT_HOLD:
		break;
	}
	return "hold";
}

static int period_seconds(const char *p, unsigned *out)
{
	if (!strcasecmp(p, "hourly"))
		*out = 3600;
	else if (!strcasecmp(p, "daily"))
		*out = 86400;
	else if (!strcasecmp(p, "weekly"))
		*out = 7 * 86400;
	else
		return -1;
	return 0;
}

/* kind_rule - "action KIND record|hold": true when the record was one */
static bool kind_rule(struct act_config *ac, const struct config_record *r)
{
	int k = kind_from_name(r->argv[0]);

	if (k < 0 || k == KIND_REPORT)
		return false;
	if (!strcasecmp(r->argv[1], "record"))
		ac->kind_rule[k] = ACT_RECORD;
	else if (!strcasecmp(r->argv[1], "hold"))
		ac->kind_rule[k] = ACT_HOLD;
	else
		warn("%s:%u: 'action %s' is record or hold: a %s is no report to forward",
		     r->file, r->line, r->argv[0], r->argv[0]);
	return true;
}

/* list_rule - "list_fallback CLASS|* forward|hold [SECTION]" */
static void list_rule(struct act_config *ac, const struct config_record *r)
{
	struct act_list_rule lr;

	memset(&lr, 0, sizeof(lr));
	lr.cls = -1;
	if (r->argc < 2 || r->argc > 3 ||
	    (strcmp(r->argv[0], "*") &&
	     (lr.cls = act_class_from_name(r->argv[0])) < 0) ||
	    lr.cls == ACT_UNMAPPED ||
	    (strcasecmp(r->argv[1], "forward") &&
	     strcasecmp(r->argv[1], "hold"))) {
		warn("%s:%u: 'list_fallback CLASS forward|hold [SECTION]' with CLASS user, fuzzer, ai, uncertain or *",
		     r->file, r->line);
		return;
	}
	if (ac->nlist == ACT_LIST_RULES_MAX) {
		warn("%s:%u: more than %d list_fallback records", r->file,
		     r->line, ACT_LIST_RULES_MAX);
		return;
	}
	lr.forward = !strcasecmp(r->argv[1], "forward");
	lr.section = r->argc == 3 ? r->argv[2] : NULL;
	ac->list[ac->nlist++] = lr;
}

/* act_config_load - defaults, then the "action" records of routes.conf */
void act_config_load(struct act_config *ac, const struct config *cfg)
{
	size_t i;

	memset(ac, 0, sizeof(*ac));
	ac->rule[ACT_USER].action = ACT_FORWARD;
	ac->rule[ACT_FUZZER].action = ACT_DIGEST;
	ac->rule[ACT_FUZZER].period = 86400;
	ac->rule[ACT_AI].action = ACT_HOLD;
	ac->rule[ACT_UNCERTAIN].action = ACT_HOLD;
	ac->rule[ACT_UNMAPPED].action = ACT_HOLD;
	for (i = 0; i < KIND_N; i++)
		ac->kind_rule[i] = ACT_RECORD;
	if (!cfg)
		return;
	ac->reply_bugtracker = config_bool(cfg, "reply_bugtracker");
	for (i = 0; i < cfg->nrec; i++) {
		const struct config_record *r = &cfg->rec[i];
		struct act_rule rule = { ACT_HOLD, 0 };
		int cls;

		if (!r->setting && !r->bad &&
		    !strcmp(r->name, "list_fallback")) {
			list_rule(ac, r);
			continue;
		}
		if (r->setting || r->bad || strcmp(r->name, "action") != 0)
			continue;
		if (r->argc == 2 && kind_rule(ac, r))
			continue;
		cls = r->argc >= 2 ? act_class_from_name(r->argv[0]) : -1;
		if (cls < 0) {
			warn("%s:%u: 'action CLASS forward|hold|digest [PERIOD]' with CLASS user, fuzzer, ai, uncertain or unmapped, or 'action KIND record|hold' with a kind of message other than report",
			     r->file, r->line);
			continue;
		}
		if (!strcasecmp(r->argv[1], "forward") && r->argc == 2) {
			rule.action = ACT_FORWARD;
		} else if (!strcasecmp(r->argv[1], "hold") && r->argc == 2) {
			rule.action = ACT_HOLD;
		} else if (!strcasecmp(r->argv[1], "digest") && r->argc <= 3) {
			rule.action = ACT_DIGEST;
			rule.period = 86400;
			if (r->argc == 3 &&
			    period_seconds(r->argv[2], &rule.period) < 0) {
				warn("%s:%u: digest period '%s' is not hourly, daily or weekly",
				     r->file, r->line, r->argv[2]);
				continue;
			}
		} else {
			warn("%s:%u: unknown action '%s' for %s", r->file,
			     r->line, r->argv[1], r->argv[0]);
			continue;
		}
		if (cls == ACT_UNMAPPED && rule.action != ACT_HOLD) {
			warn("%s:%u: an unmapped report has nobody to go to: it is always held",
			     r->file, r->line);
			continue;
		}
		ac->rule[cls] = rule;
	}
}

/* act_kind - recorded or held, by kind; see act.h */
void act_kind(const struct act_config *ac, enum msg_kind kind, const char *why,
	      struct act_decision *out)
{
	memset(out, 0, sizeof(*out));
	out->action = (unsigned)kind < KIND_N ? ac->kind_rule[kind] : ACT_HOLD;
	snprintf(out->reason, sizeof(out->reason), "%s (%s): %s",
		 kind_name(kind), why && *why ? why : "?",
		 out->action == ACT_HOLD ? "held (action hold)"
					 : "recorded, not forwarded");
}

/* act_subject_only - a kind from the subject alone is held; see act.h */
bool act_subject_only(const struct kind_result *k, bool in_thread,
		      struct act_decision *out)
{
	const char *subject_only = kind_hold_reason(k, in_thread);

	if (!subject_only)
		return false;
	out->action = ACT_HOLD;
	snprintf(out->reason, sizeof(out->reason),
		 "%s: %s (%.200s); held for a triager", subject_only,
		 kind_name(k->kind), k->why);
	return true;
}

/* act_decide - one action, never a drop; see act.h */
void act_decide(const struct act_config *ac, const char *cls, bool mapped,
		bool have_recipient, const char *bug_url,
		struct act_decision *out)
{
	int c = act_class_from_name(cls);
	const struct act_rule *rule;

	memset(out, 0, sizeof(*out));
	if (c < 0 || c == ACT_UNMAPPED) {
		out->action = ACT_HOLD;
		snprintf(out->reason, sizeof(out->reason),
			 "class '%s' unknown: held for a triager",
			 cls ? cls : "(none)");
		return;
	}
	rule = &ac->rule[c];
	if (rule->action != ACT_HOLD && (!mapped || !have_recipient)) {
		out->action = ACT_HOLD;
		snprintf(out->reason, sizeof(out->reason),
			 "%s: %s; held for a triager", class_names[c],
			 mapped ? "nobody to send it to"
				: "no subsystem found");
		return;
	}
	out->action = rule->action;
	out->period = rule->period;
	switch (rule->action) {
	case ACT_FORWARD:
		snprintf(out->reason, sizeof(out->reason),
			 "%s: forwarded (action %s forward)", class_names[c],
			 class_names[c]);
		out->reply = c == ACT_USER && ac->reply_bugtracker && bug_url &&
			     *bug_url && !starts_with_ci(bug_url, "mailto:");
		break;
	case ACT_DIGEST:
		snprintf(out->reason, sizeof(out->reason),
			 "%s: into the section's %s digest (action %s digest)",
			 class_names[c],
			 rule->period == 3600	 ? "hourly"
			 : rule->period == 86400 ? "daily"
						 : "weekly",
			 class_names[c]);
		break;
	case ACT_RECORD: /* a class's rule is never record: a report is held */
		out->action = ACT_HOLD;
		/* fall through */
	case ACT_HOLD:
		snprintf(out->reason, sizeof(out->reason),
			 "%s: held for a triager (action %s hold)",
			 class_names[c], class_names[c]);
		break;
	}
}

static unsigned char fold(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

/*
 * words_in - the set of words w[0..nw) (lower case, two letters or
 * more, nw <= 8) that [p, p + len) holds, in any ASCII case, as bit k
 * for w[k]; the scan stops once w[0] is found (no later word can come
 * first).  One pass over the text, looking further only where a word's
 * first two letters are.
 */
static unsigned words_in(const char *p, size_t len, const char *const *w,
			 size_t nw)
{
	unsigned char first[256] = { 0 };
	size_t wlen[8], i, j, k, n;
	unsigned found = 0, m;

	for (k = 0; k < nw && k < 8; k++) {
		wlen[k] = strlen(w[k]);
		first[(unsigned char)w[k][0]] |= (unsigned char)(1u << k);
		if (w[k][0] >= 'a' && w[k][0] <= 'z')
			first[(unsigned char)w[k][0] - 'a' + 'A'] |=
				(unsigned char)(1u << k);
	}
	for (i = 0; p && i < len && !(found & 1); i++) {
		m = first[(unsigned char)p[i]] & ~found;
		while (m) {
			k = (size_t)__builtin_ctz(m);
			m &= m - 1;
			n = wlen[k];
			if (n > len - i || fold((unsigned char)p[i + 1]) !=
						   (unsigned char)w[k][1])
				continue;
			for (j = 2; j < n && fold((unsigned char)p[i + j]) ==
						     (unsigned char)w[k][j];
			     j++)
				;
			if (j >= n)
				found |= 1u << k;
		}
	}
	return found;
}

/* the words of an L: annotation that close a list to outsiders */
static const char *const closed_words[] = {
	"moderated", "subscriber", "closed", "members", "private", "invit"
};

/* settle - out becomes action a, with no digest period and no reply */
static void settle(struct act_decision *out, enum act_action a)
{
	out->action = a;
	out->period = 0;
	out->reply = false;
}

/* already_there - a user report its sender sent to the list itself */
static void already_there(int c, const char *addr, const char *why,
			  struct act_decision *out)
{
	settle(out, ACT_RECORD);
	snprintf(out->reason, sizeof(out->reason),
		 "%s: %.140s, and its sender already sent it to %.60s (in its "
		 "To: or Cc:): recorded, not posted there again",
		 class_names[c], why, addr);
}

/*
 * list_default - no list_fallback record matched: a user report goes to
 * an open list MAINTAINERS asks reports for (act.h); out's reason says
 * why it went or why it is held; true when it goes
 */
static bool list_default(int c, const char *section,
			 const struct act_list *list, struct act_decision *out)
{
	const char *closed = act_list_closed(list->note);
	const char *addr = list->addr ? list->addr : "?";
	char why[200];

	switch (list->why) {
	case PICK_LIST_ASKED:
		snprintf(why, sizeof(why),
			 "MAINTAINERS B: asks for reports on %.80s", addr);
		break;
	case PICK_LIST_NO_PERSON:
		snprintf(why, sizeof(why),
			 "%.72s names no person, only its list %.80s",
			 section ? section : "the section", addr);
		break;
	case PICK_LIST_REPORTER:
		snprintf(why, sizeof(why),
			 "the section names nobody but the reporter; its "
			 "list is %.80s",
			 addr);
		break;
	case PICK_LIST_PASSED:
	default:
		snprintf(out->reason, sizeof(out->reason),
			 "%s: nobody but the section's list to send it to "
			 "(its people are unavailable: the overflow is a "
			 "triager's); held for a triager",
			 class_names[c]);
		return false;
	}
	if (c != ACT_USER) {
		snprintf(out->reason, sizeof(out->reason),
			 "%s: %.176s, but only a user report goes to a list on "
			 "the sender's say-so; held for a triager "
			 "(list_fallback %s hold)",
			 class_names[c], why, class_names[c]);
		return false;
	}
	if (list->addressed) {
		already_there(c, addr, why, out);
		return true;
	}
	if (!list->user_signs) {
		snprintf(out->reason, sizeof(out->reason),
			 "%s: %.176s, but no user rule reached the user "
			 "threshold: a sender's say-so alone is not "
			 "published; held for a triager",
			 class_names[c], why);
		return false;
	}
	if (closed) {
		snprintf(
			out->reason, sizeof(out->reason),
			"%s: %.176s, but MAINTAINERS marks it %.60s: closed to "
			"outsiders; held for a triager",
			class_names[c], why, list->note);
		return false;
	}
	snprintf(
		out->reason, sizeof(out->reason),
		"%s: %.176s, an open list: forwarded to it (\"list_fallback %s "
		"hold\" would hold it)",
		class_names[c], why, class_names[c]);
	return true;
}

void act_fallback(const struct act_config *ac, const char *cls,
		  const char *section, const struct act_list *list,
		  bool security, struct act_decision *out)
{
	int c = act_class_from_name(cls);
	int rule = -1; /* the last matching record: 0 hold, 1 forward */
	size_t i;

	if (out->action != ACT_FORWARD && out->action != ACT_DIGEST)
		return;
	if (security) {
		settle(out, ACT_HOLD);
		snprintf(out->reason, sizeof(out->reason),
			 "%s: the recipient is a security contact, never sent "
			 "a report on the sender's say-so; held for a triager",
			 cls ? cls : "?");
		return;
	}
	if (!list)
		return;
	for (i = 0; i < ac->nlist; i++) {
		const struct act_list_rule *lr = &ac->list[i];

		if ((lr->cls < 0 || lr->cls == c) &&
		    (!lr->section ||
		     (section && !strcasecmp(lr->section, section))))
			rule = lr->forward;
	}
	if (rule == 1) {
		/* the site's word, but a list never gets a message twice */
		if (list->addressed && out->action == ACT_FORWARD && c >= 0 &&
		    c != ACT_UNMAPPED)
			already_there(c, list->addr ? list->addr : "?",
				      "a list_fallback record sends it to "
				      "the section's list",
				      out);
		else if (out->action == ACT_FORWARD)
			snprintf(out->reason, sizeof(out->reason),
				 "%.12s: a list_fallback record sends it to "
				 "the section's list %.80s",
				 cls ? cls : "?",
				 list->addr ? list->addr : "?");
		return;
	}
	if (rule < 0 && c >= 0 && c != ACT_UNMAPPED &&
	    list_default(c, section, list, out))
		return;
	settle(out, ACT_HOLD);
	if (rule == 0 || c < 0 || c == ACT_UNMAPPED)
		snprintf(out->reason, sizeof(out->reason),
			 "%s: nobody but the section's list to send it to; "
			 "held for a triager (list_fallback %s hold)",
			 cls ? cls : "?", cls ? cls : "*");
}

const char *act_list_closed(const char *note)
{
	unsigned found;

	_Static_assert(ARRAY_SIZE(closed_words) <= 8,
		       "words_in() takes 8 words");
	if (!note)
		return NULL;
	found = words_in(note, strlen(note), closed_words,
			 ARRAY_SIZE(closed_words));
	return found ? closed_words[__builtin_ctz(found)] : NULL;
}

void act_private(const char *cls, bool person, const char *security_address,
		 const char *crash_type, const char *subject, const char *text,
		 size_t len, struct act_decision *out)
{
	static const char *const memory[] = { "KASAN", "KMSAN", "KFENCE",
					      "UBSAN" };
	static const char *const words[] = { "cve-", "exploit", "vulnerab",
					     "privilege escalation",
					     "security" };
	const char *why = NULL;
	bool crash = false;
	size_t i;

	out->security_why[0] = '\0';
	out->security = false;
	out->private_to = NULL;
	for (i = 0; !why && crash_type && i < ARRAY_SIZE(memory); i++)
		if (!strcasecmp(crash_type, memory[i]))
			why = memory[i];
	crash = why != NULL;
	_Static_assert(ARRAY_SIZE(words) <= 8, "words_in() takes 8 words");
	if (!why) {
		unsigned found =
			words_in(subject, subject ? strlen(subject) : 0, words,
				 ARRAY_SIZE(words));

		if (!(found & 1))
			found |= words_in(text, len, words, ARRAY_SIZE(words));
		if (found)
			why = words[__builtin_ctz(found)];
	}
	if (!why)
		return;
	snprintf(out->security_why, sizeof(out->security_why), "%.20s %s", why,
		 crash ? "memory-safety crash" : "in its text");
	if (out->action != ACT_FORWARD && out->action != ACT_DIGEST)
		return;
	out->reply = false;
	if (person) {
		/* a digest goes to its person anyway, and carries no list */
		out->security = out->action == ACT_FORWARD;
		return;
	}
	out->period = 0;
	if (security_address && *security_address) {
		out->action = ACT_FORWARD;
		out->security = true;
		out->private_to = security_address;
		snprintf(out->reason, sizeof(out->reason),
			 "%.12s: it looks security-sensitive (%s) and has no "
			 "person to go to: sent privately to security_address",
			 cls ? cls : "?", out->security_why);
		return;
	}
	out->action = ACT_HOLD;
	snprintf(out->reason, sizeof(out->reason),
		 "%.12s: it looks security-sensitive (%s); no person, no "
		 "security_address: never published on a list, held for a "
		 "triager to send privately",
		 cls ? cls : "?", out->security_why);
}
