/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kind - what a message is, before anything else is decided about it
 *
 * DESCRIPTION
 *	Real kernel lists carry far more patches, review replies, pull
 *	requests and bot notices than bug reports, and a bugs alias that
 *	is Cc'd on threads sees the same mix.  Only a new report is to be
 *	classified, mapped and routed; everything else is recorded with
 *	its kind (and joins its report when link.h finds one).
 *
 *	kind_classify() reads only the headers and the sender's own text
 *	(quoted lines are skipped) and decides, in this order:
 *
 *	  bugzilla   a Bugzilla notification: "[Bug N] New:" is a report,
 *	             any other one a comment or status change (bz-update);
 *	  bots       who sent it: build-result digests of the kernel test
 *	             robot, patchwork-bot, pr-tracker-bot, GitHub
 *	             notification mail, syzbot's monthly summaries and
 *	             test results are bot notices; a robot's reply to a
 *	             patch is a review; syzbot's and the test robot's own
 *	             first messages are reports, and so is KernelCI's
 *	             when its subject counts a regression or a failure
 *	             ("22 runs, 1 regressions", "1 failed");
 *	  subject    the tags in brackets and the "Re:" prefixes: a pull
 *	             request, stable-tree traffic (FAILED: patch, AUTOSEL,
 *	             "[PATCH 6.6 012/345]"), a patch, a cover letter
 *	             ("0/N"), a reply to any of those (a review);
 *	  body       a new message that asks a stable tree to take a
 *	             commit ("Please apply 5037b342825d to v5.10 -
 *	             v6.18") is stable traffic; a diff with a
 *	             Signed-off-by in the sender's own text is a patch
 *	             whatever its subject, and so is a new message with
 *	             such a patch attached whose subject states no
 *	             problem; a new message without a diff whose
 *	             opening presents its series ("this series ties up
 *	             ...") is a cover letter; a reply is a follow-up;
 *	  otherwise  a new message without a crash that talks money and
 *	             trade three ways and names no code is spam; one
 *	             whose subject is the list's or the trees' business
 *	             ("subscribe linux-raid", "linux-next: manual merge
 *	             of ...") or about a userspace tool ("[nvme-cli]
 *	             ...", "mmc-utils: ...") is discussion; one with
 *	             words of a problem, or without words of an
 *	             announcement or question, is a report;
 *	             announcements, questions and plans are discussion,
 *	             and so are, when the subject names no problem, a
 *	             tag's word opening it unbracketed ("RFC: ...",
 *	             "ANN: ..."), a release's name and version
 *	             alone ("libpwm 1.0-rc2"), the project's or the
 *	             list's own business (a CLA, the mailing list
 *	             itself, a job offer, a reminder), an invitation, a goodbye, bouncing
 *	             maintainers, an idea, an Outlook "Recall:" (these
 *	             in a message that names the kernel: junk invites
 *	             too), and a message whose whole text is a list
 *	             command ("subscribe").
 *
 *	A new message that is discussion by its subject's words alone (a
 *	tag or words of an announcement or question, the list's business,
 *	a userspace tool's name), with nothing else to back it (no list
 *	command for its text, no patch or cover-letter structure, no
 *	thread), is marked subject_only: a first report whose subject
 *	misleads reads the same, so kind_hold_reason() has it held for a
 *	triager rather than recorded out of everyone's sight.  So is a
 *	patch that only its subject's tag makes one ("[RFC] ..." over a
 *	diff without a Signed-off-by: a reporter's debug diff reads the
 *	same), and a message that only its subject's "Re:" makes a reply
 *	(no In-Reply-To, no References: it answers nothing we can tell).
 *
 *	Spam is what the site's own filter marked ("X-Spam-Flag: YES" or
 *	"X-Spam-Status: Yes" set by the MTA): a sender can only bury its
 *	own mail that way.  Of the junk that passed the filter, a new
 *	message that sells or scams (above), or whose text names nothing
 *	of the kernel and neither says what went wrong nor asks, is spam;
 *	the rest is a report without evidence, which classification
 *	holds as uncertain.
 *
 *	The reason names the header or line that decided, for 'triage
 *	explain' and the log.  The trailers that say what a patch fixes
 *	(Reported-by:, Closes:, Link:, Fixes:) are collected so that the
 *	caller can join a patch to the report it names ("fix proposed").
 *
 *	A message from the Bugzilla side (report source "bugzilla") is
 *	always a report.  Nothing here looks anything up: the caller joins
 *	threads (link.h) and may turn an orphan follow-up into a report.
 *
 * Ownership:
 *	struct kind_result owns its trailer strings;
 *	kind_result_release().
 *
 * Errors:
 *	None: every message gets a kind.
 */
#ifndef TRIAGE_KIND_H
#define TRIAGE_KIND_H

#include <stdbool.h>
#include <stddef.h>

enum msg_kind {
	KIND_REPORT,	 /* a new bug report: classified and routed */
	KIND_FOLLOWUP,	 /* a reply in a report's thread */
	KIND_PATCH,	 /* one patch, alone or in a series */
	KIND_COVER,	 /* a series' cover letter */
	KIND_REVIEW,	 /* a reply to a patch or a cover letter */
	KIND_PULL,	 /* a pull request, or a reply to one */
	KIND_STABLE,	 /* stable-tree and backport traffic */
	KIND_BOT,	 /* CI and bot notices that report no bug */
	KIND_BZ_UPDATE,	 /* a Bugzilla comment or status change */
	KIND_DISCUSSION, /* announcements, questions, plans */
	/* the spam filter said so, or it names nothing of the kernel and
	 * says nothing went wrong */
	KIND_SPAM,
	KIND_N
};

#define KIND_WHY_MAX  160
#define KIND_REFS_MAX 16

/* what a patch says it fixes, in the order written */
enum kind_ref_type {
	KREF_REPORTED_BY, /* an address, "syzbot+HASH@..." */
	KREF_CLOSES,	  /* a URL or a Message-ID */
	KREF_LINK,	  /* a URL */
	KREF_FIXES,	  /* "abcdef123456 (\"subject\")" */
};

struct kind_ref {
	enum kind_ref_type type;
	char *value; /* trimmed, as written */
};

struct kind_result {
	enum msg_kind kind;
	char why[KIND_WHY_MAX]; /* what decided, in plain words */
	bool reply;		/* In-Reply-To, References or "Re:" */
	bool diff;		/* a diff in the sender's own text */
	bool names_nothing;	/* a new message whose text names nothing
				 * of the kernel (no subsystem, hardware,
				 * crash or code word) */
	bool problem_stated;	/* a new message that says something went
				 * wrong (problem.h), or a filed bug */
	char problem[64];	/* what said so: "subject: hangs", ... */
	bool question;		/* a new message that asks: its subject
				 * ends in "?", opens as a question or
				 * asks for help, or its own text's first
				 * sentence asks or the text says it asks
				 * ("I have a question", "I wonder why": a
				 * text that names the kernel, with no
				 * crash and no diff), or, under a subject
				 * that names no failure, the text asks its
				 * readers for advice, an explanation or a
				 * change ("would it be possible", "is
				 * there a reason": see asks) */
	char asks[56];		/* what asked, for the why: "it asks", or
				 * the phrase of a text that asks its
				 * readers for advice or a judgment ("it
				 * asks \"would it be possible\""), which
				 * sets question too, but never makes a
				 * discussion by itself */
	bool subject_only;	/* a message whose kind rests on its
				 * subject's words alone (kind_hold_reason) */
	bool question_only;	/* a discussion because it asks and shows
				 * nothing of a system (kind_hold_reason) */
	struct kind_ref refs[KIND_REFS_MAX];
	size_t nrefs;
};

struct report;

void kind_classify(const struct report *r, struct kind_result *out);
void kind_result_release(struct kind_result *k);

/* the reason a kind decided from the subject alone is held */
#define KIND_SUBJECT_ONLY "kind decided from the subject only"
/* ... and a discussion that asks and shows nothing of a system */
#define KIND_QUESTION_ONLY "kind decided from a question alone"

/*
 * kind_held_unsure - whether a hold reason is kind_hold_reason()'s (it
 * starts with KIND_SUBJECT_ONLY or KIND_QUESTION_ONLY): a message held
 * because its kind, not a report, rests on its words alone
 */
bool kind_held_unsure(const char *reason);

/*
 * kind_hold_reason - KIND_SUBJECT_ONLY when k is a kind other than
 * report, decided from its subject alone (subject_only), KIND_QUESTION_ONLY
 * when a discussion because it asks and shows nothing of a system
 * (question_only), and not in a known thread (in_thread: the caller
 * joined it to one): it waits in 'triage pending' for a triager, whatever
 * "action KIND" says; NULL otherwise
 */
const char *kind_hold_reason(const struct kind_result *k, bool in_thread);

/* kind_name - "report", "follow-up", "patch", ... (static) */
const char *kind_name(enum msg_kind k);
/* kind_from_name - the kind of a name kind_name() gives; -1 when none */
int kind_from_name(const char *name);

/*
 * kind_subject_prefix - the length of a "Re:"-like (*reply true) or
 * "Fwd:"-like (*reply false) prefix at p, or 0: "Re:", "AW:", "SV:",
 * "Antw:", "回复:" ... and "Fwd:", "WG:", "TR:", "转发:" ..., any case.
 * The one list of them: every reader of subjects skips these.
 */
size_t kind_subject_prefix(const char *p, bool *reply);

/*
 * kind_subject_rest - the subject after its "Re:"-like prefixes and
 * "[...]" tags (a pointer into subject; "" for NULL)
 */
const char *kind_subject_rest(const char *subject);

/*
 * kind_subject_title - kind_subject_rest() without Bugzilla's "New: "
 * ("[Bug 221293] New: thunderbolt: ..."): where a title's own chain of
 * "word: " prefixes starts
 */
const char *kind_subject_title(const char *subject);

/*
 * kind_subject_tags - the text inside the leading "[...]" groups of a
 * subject, after any "Re:"/"Fwd:" prefixes, joined by '|' into buf
 * ("PATCH v2 1/3|net-next"); *replies counts the reply prefixes ("Re:",
 * "AW:", ...; a forward's "Fwd:" is none).  Exported for tests.
 */
void kind_subject_tags(const char *subject, char *buf, size_t size,
		       unsigned *replies);

/*
 * kind_shows_system - whether a subject or the sender's own text (quoted
 * lines left out; read within KIND_SHOWS_MAX bytes) shows something of a
 * running system or of the code: a printk timestamp ("[   12.345]"), a
 * kernel version ("6.12", "v6.1", "Linux 5.4", "6.19-rc2"), a PCI or
 * USB id ("8086:7d1a"), a hex value ("0xffff"), a call ("probe_one()")
 * or a C function's name ("foo_get_stats"), a source file ("quirks.c"),
 * or dmesg, journalctl or "kernel: " (kind_subject.c)
 */
#define KIND_SHOWS_MAX (16u << 10)
bool kind_shows_system(const char *subject, const char *body, size_t len);

/*
 * kind_subject_release - a title (kind_subject_rest()) that is a name
 * and a version alone, as a release is announced: "libpwm 1.0-rc2",
 * "Linux 6.18-rc3", "libgpiod v2.3" (kind_subject.c)
 */
bool kind_subject_release(const char *rest);

#endif
