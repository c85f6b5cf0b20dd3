/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * act - what to do with a classified, mapped report
 *
 * DESCRIPTION
 *	The act stage turns the class, whether the report was mapped to a
 *	person, and the site's routes.conf into one action with a reason:
 *
 *	  forward   send a copy to the picked recipient now
 *	  hold      keep it in 'triage pending' for a human
 *	  digest    collect it into the section's periodic fuzzer digest
 *
 *	A report is never dropped: anything that cannot be forwarded or
 *	digested is held.  Duplicates and mail loops are decided before
 *	this stage (the filter records them; they are never forwarded).
 *
 *	routes.conf records (routes.conf(5)):
 *
 *	  action CLASS forward|hold|digest [hourly|daily|weekly]
 *
 *	CLASS is user, fuzzer, ai or uncertain.  Defaults: user forward,
 *	fuzzer digest daily, ai hold, uncertain hold.  A report that is
 *	unmapped (no section but THE REST) or has nobody to go to is
 *	always held, whatever its class ("action unmapped hold" may be
 *	written for clarity; nothing else is accepted for it).
 *
 *	A message that is no report (kind.h: a patch, a review, a bot
 *	notice...) is never classified; its kind decides:
 *
 *	  action KIND record|hold
 *
 *	KIND is a kind name of kind.h other than report ("patch",
 *	"review", "follow-up" for a reply whose report is not known, ...).
 *	Default: record (kept in the database with its kind, not forwarded
 *	and not in 'triage pending'); hold puts it in pending.
 *
 *	A report whose only recipient is its section's mailing list (the
 *	pick found no person: "L: ... (no person available)") would be
 *	published on the sender's say-so: anyone can name a list-only
 *	section's file.  What happens is decided by
 *
 *	  list_fallback CLASS|* forward|hold ["SECTION"]
 *
 *	(the last matching record wins).  Without a matching record a
 *	user report whose rules reached the user threshold (user_signs:
 *	class user only because nothing else fired is not enough) goes to
 *	the list when MAINTAINERS asks for reports there and the list
 *	takes mail from anyone:
 *
 *	  - the section's B: is mailto: that list, or the section names
 *	    no person at all (no roster, B: person, expert, M: or R:), or
 *	    its only people are the reporter (pick.h's list_why);
 *	  - and its L: line carries no annotation that closes it to
 *	    outsiders ("(moderated for non-subscribers)",
 *	    "(subscribers-only)", "closed", "members", "private",
 *	    "invitation": act_list_closed()).
 *
 *	Such a report whose own To: or Cc: already names the list
 *	(addressed) is on the list already: it is recorded (ACT_RECORD:
 *	not forwarded, not pending), never posted there a second time,
 *	whatever a list_fallback record says for its class.
 *
 *	Everything else is held for a triager: a list reached because the
 *	people were passed over (saturated, away, gave it back: the
 *	overflow is a triager's), a closed list, and every other class
 *	(fuzzer, ai, uncertain).  The later holds of the filter (no sign
 *	of a bug, thin or unread text, the sender's cap) still apply.  A
 *	security contact (security@..., or a section that lists
 *	Documentation/process/security-bugs.rst) is never sent a report
 *	on a stranger's say-so: held, whatever the records say; nor is a
 *	security-looking report ever published (act_private()).
 *
 *	  reply_bugtracker = yes|no      (default no)
 *
 *	With yes, a forwarded user report whose best section tracks bugs
 *	elsewhere (a B: that is not mailto:) also gets a short reply to
 *	the reporter pointing there, unless RFC 3834 forbids replying
 *	(the caller checks the message: deliver_may_autoreply()).
 *
 * Ownership:
 *	struct act_config is a plain value; act_decide() fills a struct
 *	act_decision that owns nothing.
 *
 * Errors:
 *	act_config_load() warns with file:line about bad records and
 *	keeps the default for them.
 */
#ifndef TRIAGE_ACT_H
#define TRIAGE_ACT_H

#include <stdbool.h>

#include "kind.h"
#include "pick.h"

struct config;

enum act_action {
	ACT_FORWARD,
	ACT_HOLD,
	ACT_DIGEST,
	ACT_RECORD, /* a non-report: kept, not forwarded, not pending */
};

enum act_class {
	ACT_USER,
	ACT_FUZZER,
	ACT_AI,
	ACT_UNCERTAIN,
	ACT_UNMAPPED,
	ACT_NCLASSES,
};

struct act_rule {
	enum act_action action;
	unsigned period; /* digest period in seconds (0 otherwise) */
};

#define ACT_LIST_RULES_MAX 64

/* "list_fallback CLASS forward|hold [SECTION]" */
struct act_list_rule {
	int cls;	     /* enum act_class, or -1: any class ("*") */
	const char *section; /* MAINTAINERS title (routes.conf's); NULL: any */
	bool forward;
};

struct act_config {
	struct act_rule rule[ACT_NCLASSES];
	enum act_action kind_rule[KIND_N]; /* ACT_RECORD or ACT_HOLD */
	bool reply_bugtracker;
	struct act_list_rule list[ACT_LIST_RULES_MAX];
	size_t nlist;
};

struct act_decision {
	enum act_action action;
	unsigned period;  /* for ACT_DIGEST */
	bool reply;	  /* also reply to the reporter with bug_url */
	char reason[320]; /* "ai: held for a triager (action ai hold)" */
	/*
	 * act_private(): why it looks security-sensitive ("KASAN
	 * memory-safety crash", "exploit in its text"), whatever its
	 * action, or ""; security: it is sent privately (the forward is
	 * marked X-Triage-Security and copied to no list); private_to:
	 * to routes.conf's security_address (borrowed), not the pick
	 */
	char security_why[48];
	bool security;
	const char *private_to;
};

void act_config_load(struct act_config *ac, const struct config *cfg);
int act_class_from_name(const char *name);
const char *act_action_name(enum act_action a);

/*
 * act_decide - the action for a report of class cls ("user", ...);
 * have_recipient says the pick stage found someone to send it to;
 * bug_url is the best section's non-mailto B: entry, or NULL
 */
void act_decide(const struct act_config *ac, const char *cls, bool mapped,
		bool have_recipient, const char *bug_url,
		struct act_decision *out);

/* the section's list a pick ended on (pick.h), for act_fallback() */
struct act_list {
	const char *addr;	/* bare address */
	const char *note;	/* its L: line's "(...)" annotation, or NULL */
	enum pick_list_why why; /* why the pick ended on it */
	/* the report's own user rules reached the user threshold (or a
	 * certain rule made it user): more than the sender's say-so */
	bool user_signs;
	/* the message's own To: or Cc: names the list: it is there already */
	bool addressed;
};

/*
 * act_fallback - what a report sent somewhere (out->action forward or
 * digest) becomes when its recipient is only its section's list (list;
 * NULL: a person) or a security contact (security): a "list_fallback"
 * record for its class and section decides; without one, a user report
 * goes to an open list MAINTAINERS asks reports for (see above) and
 * anything else is held for a triager; a security contact is never a
 * fallback target, whatever the records.  The reason says which.
 */
void act_fallback(const struct act_config *ac, const char *cls,
		  const char *section, const struct act_list *list,
		  bool security, struct act_decision *out);

/*
 * act_list_closed - the word of an L: annotation ("(moderated for
 * non-subscribers)", "(subscribers-only)", "(closed)") that closes the
 * list to outsiders, or NULL when note (NULL: none) says nothing of it
 */
const char *act_list_closed(const char *note);

/*
 * act_private - a report that looks security-sensitive: a memory-safety
 * crash (KASAN, KMSAN, KFENCE, UBSAN: crash_type, as evidence.h names
 * it) or, in subject or text, "CVE-", "exploit", "vulnerab",
 * "privilege escalation" or "security" (out->security_why, whatever its
 * action).  The kernel's security process is private: such a report is
 * never published on a list, whatever list_fallback allows.  Sent
 * somewhere (out->action forward or digest), it goes
 *
 *   - to the person the pick found (person: not a list, not a security
 *     contact), privately: a forward is out->security (the caller marks
 *     it X-Triage-Security and copies it to no list, regressions_list
 *     included); a digest goes to that person as before;
 *   - else to security_address (routes.conf; NULL or "": none), as a
 *     forward: out->security and out->private_to;
 *   - else it is held for a triager to send privately.
 *
 * No automatic reply to the reporter (it would point at a public bug
 * tracker).  act_fallback() is for the rest: call it when
 * !out->security.
 */
void act_private(const char *cls, bool person, const char *security_address,
		 const char *crash_type, const char *subject, const char *text,
		 size_t len, struct act_decision *out);

/*
 * act_kind - what happens to a message of a kind other than report:
 * recorded, or held for a human ("action KIND hold"); why names the
 * kind and what decided it (kind.h's reason)
 */
void act_kind(const struct act_config *ac, enum msg_kind kind, const char *why,
	      struct act_decision *out);

/*
 * act_subject_only - when only k's subject decided its kind, or a
 * question that shows nothing of a system made it a discussion (kind.h's
 * kind_hold_reason(); in_thread: the message joined a known thread),
 * out becomes a hold for a triager, whatever "action KIND" said, with
 * that reason, and true is returned; else out is left as it is.  The
 * filter (record.c) and 'triage explain' say the same through it.
 */
bool act_subject_only(const struct kind_result *k, bool in_thread,
		      struct act_decision *out);

#endif
