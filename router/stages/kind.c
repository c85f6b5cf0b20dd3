// SPDX-License-Identifier: GPL-2.0-only
/*
 * kind - what a message is (see kind.h)
 */
#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "kind.h"
#include "kind_int.h"
#include "litset.h"
#include "problem.h"
#include "report.h"
#include "util.h"

#define TAGS_MAX      256	    /* bytes of subject tags kept */
#define SCAN_MAX      KIND_SCAN_MAX /* bytes of own text read for a diff */
#define TOOL_SCAN_MAX (16u << 10)   /* ... for "found by our tool" */

static const char *const names[KIND_N] = {
	[KIND_REPORT] = "report",	[KIND_FOLLOWUP] = "follow-up",
	[KIND_PATCH] = "patch",		[KIND_COVER] = "cover-letter",
	[KIND_REVIEW] = "review",	[KIND_PULL] = "pull-request",
	[KIND_STABLE] = "stable",	[KIND_BOT] = "bot",
	[KIND_BZ_UPDATE] = "bz-update", [KIND_DISCUSSION] = "discussion",
	[KIND_SPAM] = "spam",
};

const char *kind_name(enum msg_kind k)
{
	return (unsigned)k < KIND_N ? names[k] : "?";
}

int kind_from_name(const char *name)
{
	int i;

	for (i = 0; i < KIND_N; i++)
		if (name && !strcasecmp(name, names[i]))
			return i;
	return -1;
}

static void PRINTF_LIKE(3, 4)
	decide(struct kind_result *k, enum msg_kind kind, const char *fmt, ...)
{
	va_list ap;

	k->kind = kind;
	va_start(ap, fmt);
	vsnprintf(k->why, sizeof(k->why), fmt, ap);
	va_end(ap);
}

/* has_at - the bytes at p, within end, start with lit */
static bool has_at(const char *p, const char *end, const char *lit)
{
	size_t n = strlen(lit);

	return (size_t)(end - p) >= n && !memcmp(p, lit, n);
}

static bool has_at_ci(const char *p, const char *end, const char *lit)
{
	size_t n = strlen(lit);

	return (size_t)(end - p) >= n && !strncasecmp(p, lit, n);
}

static const char *skip_blank(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* one tag of a '|'-joined list matches pred */
typedef bool (*tag_pred)(const char *tag, size_t len);

static bool any_tag(const char *tags, tag_pred pred)
{
	const char *p = tags, *e;

	while (*p) {
		e = strchr(p, '|');
		if (!e)
			e = p + strlen(p);
		if (pred(p, (size_t)(e - p)))
			return true;
		p = *e ? e + 1 : e;
	}
	return false;
}

/* word - the tag contains the word w (case-insensitive, whole word) */
static bool tag_word(const char *t, size_t len, const char *w)
{
	size_t n = strlen(w), i;

	for (i = 0; i + n <= len; i++) {
		if (strncasecmp(t + i, w, n))
			continue;
		if ((i == 0 || !isalnum((unsigned char)t[i - 1])) &&
		    (i + n == len || !isalpha((unsigned char)t[i + n])))
			return true;
	}
	return false;
}

static bool is_patch_tag(const char *t, size_t len)
{
	/* PATCH, PATCHv2, RFC PATCH, "resend, PATCH v1 0/2" */
	return tag_word(t, len, "patch") || tag_word(t, len, "patchv") ||
	       (len >= 6 && !strncasecmp(t, "PATCHv", 6));
}

static bool is_pull_tag(const char *t, size_t len)
{
	return tag_word(t, len, "git pull") || tag_word(t, len, "pull") ||
	       tag_word(t, len, "pull-request") ||
	       tag_word(t, len, "pull request");
}

static bool is_digit_at(const char *t, size_t len, size_t i)
{
	return i < len && isdigit((unsigned char)t[i]);
}

/*
 * release_token - a word of the tag is a kernel release: "6.6", "v6.12",
 * "5.15.y", "6.1.120" ("PATCH 6.6", "PATCH v6.12 2/3": a backport)
 */
static bool release_token(const char *t, size_t len)
{
	size_t i = 0, j, dots;

	while (i < len) {
		while (i < len && (t[i] == ' ' || t[i] == ','))
			i++;
		j = i;
		if (j < len && (t[j] == 'v' || t[j] == 'V'))
			j++;
		if (!is_digit_at(t, len, j)) {
			while (i < len && t[i] != ' ' && t[i] != ',')
				i++;
			continue;
		}
		dots = 0;
		while (j < len && t[j] != ' ' && t[j] != ',') {
			if (t[j] == '.')
				dots++;
			else if (!isdigit((unsigned char)t[j]) &&
				 !(t[j] == 'y' && t[j - 1] == '.'))
				break;
			j++;
		}
		if (dots >= 1 && (j == len || t[j] == ' ' || t[j] == ','))
			return true;
		while (i < len && t[i] != ' ' && t[i] != ',')
			i++;
	}
	return false;
}

/*
 * a stable release tag: "PATCH 6.6 012/345", "PATCH 6.1.y", "linux-6.12.y
 * 1/4", "PATCH AUTOSEL 6.12 03/20", "PATCH stable", "5.15.y"
 */
static bool is_stable_tag(const char *t, size_t len)
{
	size_t i;

	if (tag_word(t, len, "autosel") || tag_word(t, len, "stable") ||
	    tag_word(t, len, "stable-rc"))
		return true;
	if (is_patch_tag(t, len) && release_token(t, len))
		return true;
	for (i = 0; i + 2 < len; i++) {
		/* a kernel release: digit(s) '.' digit(s), then ".y", ' ' or '-' */
		if (!is_digit_at(t, len, i) ||
		    (i &&
		     (isalnum((unsigned char)t[i - 1]) || t[i - 1] == '.')))
			continue;
		while (is_digit_at(t, len, i))
			i++;
		if (i >= len || t[i] != '.' || !is_digit_at(t, len, i + 1))
			continue;
		i++;
		while (is_digit_at(t, len, i))
			i++;
		if (i + 1 < len && t[i] == '.' &&
		    (t[i + 1] == 'y' || t[i + 1] == 'Y'))
			return true;
		/* "PATCH 6.6 012/345": a release then a series number */
		if (i < len && t[i] == ' ' && is_digit_at(t, len, i + 1) &&
		    memchr(t + i, '/', len - i) && (size_t)(t + i - t) >= 5 &&
		    tag_word(t, i, "patch"))
			return true;
	}
	return false;
}

/* "0/3", "00/12": the number of a cover letter in a series tag */
static bool is_cover_tag(const char *t, size_t len)
{
	size_t i, j;

	for (i = 0; i < len; i++) {
		if (t[i] != '/' || i == 0 || !is_digit_at(t, len, i + 1))
			continue;
		j = i;
		while (j > 0 && isdigit((unsigned char)t[j - 1]))
			j--;
		if (j == i || (j > 0 && !isspace((unsigned char)t[j - 1])))
			continue;
		while (j < i && t[j] == '0')
			j++;
		if (j == i)
			return true;
	}
	return false;
}

static bool is_discussion_tag(const char *t, size_t len)
{
	static const char *const w[] = {
		"announce",	"ann",	      "rfc",	  "topic",
		"lsf/mm",	"lsf/mm/bpf", "question", "discuss",
		"fyi",		"agenda",     "cfp",	  "help",
		"query",	"idea",	      "proposal", "feature request",
		"announcement", "q",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(w); i++)
		if (tag_word(t, len, w[i]))
			return true;
	return false;
}

/*
 * talk_prefix - a subject that opens with a discussion tag's word
 * written without its brackets: "RFC: FC-NVMe boot from SAN", "RFC
 * systemd-sysext ...", "ANN: SETools 4.6.0", "Proposal: ...".  The
 * question words are left out: a question is weighed later (kind.h).
 */
static bool talk_prefix(const char *rest)
{
	static const char *const w[] = {
		"rfc",	"ann", "announce", "announcement", "proposal",
		"idea", "fyi", "cfp",	   "psa",
	};
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(w); i++) {
		n = strlen(w[i]);
		if (strncasecmp(rest, w[i], n))
			continue;
		/* "RFC:" or "RFC " (RFC is an acronym, never a word's start:
		 * "RFCOMM"); the others only with their colon */
		if (rest[n] == ':' || (!strcmp(w[i], "rfc") && rest[n] == ' '))
			return true;
	}
	return false;
}

/* a question: "[QUESTION] Order-4 allocation failures on reads" asks
 * about a failure, and is a report when its subject says so */
static bool is_question_tag(const char *t, size_t len)
{
	return tag_word(t, len, "question") || tag_word(t, len, "help") ||
	       tag_word(t, len, "query") || tag_word(t, len, "q");
}

/*
 * stable_report - a new message tagged with a stable release, not a
 * patch and without a diff, whose subject states a problem: a report of
 * a bug in that release ("[stable 6.6.y] commit e613904fa419 causes
 * suspend regression"), not stable-tree traffic
 */
static bool stable_report(const char *tags, const char *rest, bool reply,
			  bool diff)
{
	return !reply && !diff && !any_tag(tags, is_patch_tag) &&
	       problem_in_phrase(rest, strlen(rest), NULL, 0);
}

static bool is_problem_tag(const char *t, size_t len)
{
	static const char *const w[] = {
		"bug",	   "bug report", "regression", "report",
		"oops",	   "crash",	 "panic",      "issue",
		"problem", "warning",	 "syzbot",     "hang",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(w); i++)
		if (tag_word(t, len, w[i]))
			return true;
	return false;
}

/* contains_ci - s has word w, case-insensitively, at a word start */
static bool contains_word(const char *s, const char *w)
{
	size_t n = strlen(w);
	const char *p;

	for (p = s; *p; p++) {
		if (strncasecmp(p, w, n))
			continue;
		/* not inside an identifier: "power.runtime_status" */
		if (p == s || (!isalnum((unsigned char)p[-1]) && p[-1] != '_' &&
			       p[-1] != '.'))
			return true;
	}
	return false;
}

static bool any_word(const char *s, const char *const *w, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (contains_word(s, w[i]))
			return true;
	return false;
}

/* ---- the sender ------------------------------------------------------ */

static const char *from_addr(const struct report *r)
{
	return r->from_addr ? r->from_addr : "";
}

static bool addr_is(const char *addr, const char *local, const char *domain)
{
	size_t n = strlen(local);
	const char *at = strchr(addr, '@');

	if (!at || strcasecmp(at + 1, domain))
		return false;
	/* "syzbot+hash@": a local part with a '+' detail */
	return !strncasecmp(addr, local, n) &&
	       (addr + n == at || (addr[n] == '+' && local[n - 1] != '+'));
}

static bool from_domain(const char *addr, const char *domain)
{
	const char *at = strchr(addr, '@');
	size_t a, d = strlen(domain);

	if (!at)
		return false;
	a = strlen(at + 1);
	return a >= d && !strcasecmp(at + 1 + a - d, domain) &&
	       (a == d || at[1 + a - d - 1] == '.');
}

static bool header_yes(const struct report *r, const char *name)
{
	const char *v = report_header(r, name);

	return v && !strncasecmp(skip_blank(v), "yes", 3);
}

/* ---- the sender's own text ---------------------------------------------- */

/*
 * own_text_scan - over the first text part, quoted lines ("> ...") and
 * everything after an "-----Original Message-----" left out: whether
 * it holds a diff, a Signed-off-by, and the fix trailers
 */
struct own_scan {
	bool diff, signed_off, pull;
	bool diffstat;	/* " 12 files changed, 92 insertions(+)" */
	bool changelog; /* a line "Changes since v2:" alone */
	bool bisect;	/* git bisect's "<sha> is the first bad commit" */
	bool crash; /* a kernel crash's own line: "Call Trace:", "BUG: ..." */
};

static void add_ref(struct kind_result *k, enum kind_ref_type t, const char *v,
		    size_t len)
{
	while (len && isspace((unsigned char)*v))
		v++, len--;
	while (len && isspace((unsigned char)v[len - 1]))
		len--;
	if (!len || k->nrefs >= KIND_REFS_MAX || len > 512)
		return;
	k->refs[k->nrefs].type = t;
	k->refs[k->nrefs].value = xstrndup(v, len);
	k->nrefs++;
}

/*
 * changelog_line - a series' version log: "Changes since v2:", "Changes
 * in v3", "Changelog v1 -> v2:" alone on its line; a version with a dot
 * ("Changes since v6.1: ...") is a kernel's, as a regression says it
 */
static bool changelog_line(const char *p, const char *e)
{
	static const char *const lead[] = {
		"changes since v", "changes in v",  "changes from v",
		"changes v",	   "changelog v",   "changelog since v",
		"change since v",  "changes for v",
	};
	size_t i, n;

	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	while (e > p && isspace((unsigned char)e[-1]))
		e--;
	for (i = 0; i < ARRAY_SIZE(lead); i++) {
		n = strlen(lead[i]);
		if (has_at_ci(p, e, lead[i]))
			break;
	}
	if (i == ARRAY_SIZE(lead))
		return false;
	p += n;
	if (p >= e || !isdigit((unsigned char)*p))
		return false;
	while (p < e && isdigit((unsigned char)*p))
		p++;
	/* "v1 -> v2", "v1->v2" */
	while (p < e && strchr(" ->v0123456789", *p))
		p++;
	if (p < e && *p == ':')
		p++;
	return p == e;
}

/*
 * crash_marks - the lines only a kernel's crash prints, wherever a log
 * prefix ("[  155.08] ", "Nov 14 11:48:11 host kernel: ") puts them: the
 * message carries a crash its sender saw, whatever its subject says.
 * One litset pass a line (litset.h), as the evidence scan reads its
 * markers, not a memmem() per mark.
 */
static const char *const crash_marks[] = {
	"Call Trace:",
	"BUG: ",
	"Oops: ",
	"WARNING: CPU: ",
	"Kernel panic - not syncing",
	"general protection fault",
	"Unable to handle kernel ",
	"kernel BUG at ",
	"KASAN: ",
	"UBSAN: ",
};
static struct litset crash_set;
static pthread_once_t crash_once = PTHREAD_ONCE_INIT;

static void crash_set_init(void)
{
	litset_init(&crash_set, false);
	litset_add_all(&crash_set, crash_marks, ARRAY_SIZE(crash_marks), 0);
}

/* crash_line - a crash mark in the first 400 bytes of the line */
static bool crash_line(const char *p, const char *e)
{
	size_t n = (size_t)(e - p);

	if (pthread_once(&crash_once, crash_set_init))
		die("kind: pthread_once failed");
	return litset_any(&crash_set, p, n < 400 ? n : 400);
}

static void scan_line(const char *p, const char *e, struct own_scan *s,
		      struct kind_result *k, bool *minus)
{
	static const struct {
		const char *key;
		enum kind_ref_type type;
	} tr[] = {
		{ "Reported-by:", KREF_REPORTED_BY },
		{ "Closes:", KREF_CLOSES },
		{ "Link:", KREF_LINK },
		{ "Fixes:", KREF_FIXES },
	};
	size_t i, n;

	if (has_at(p, e, "diff --git ") || has_at(p, e, "Index: ") ||
	    (has_at(p, e, "+++ ") && *minus))
		s->diff = true;
	*minus = has_at(p, e, "--- ");
	if ((size_t)(e - p) < 120 &&
	    memmem(p, (size_t)(e - p), " changed, ", 10) &&
	    (memmem(p, (size_t)(e - p), " file changed", 13) ||
	     memmem(p, (size_t)(e - p), " files changed", 14)))
		s->diffstat = true;
	if (has_at_ci(p, e, "Signed-off-by:"))
		s->signed_off = true;
	if (changelog_line(p, e))
		s->changelog = true;
	if ((size_t)(e - p) < 120 &&
	    memmem(p, (size_t)(e - p), " is the first bad commit", 24))
		s->bisect = true;
	if (!s->crash && crash_line(p, e))
		s->crash = true;
	if (has_at(p, e, "The following changes since commit ") ||
	    has_at(p, e, "are available in the Git repository at") ||
	    (has_at(p, e, "  git://") && s->pull))
		s->pull = true;
	for (i = 0; i < ARRAY_SIZE(tr); i++) {
		n = strlen(tr[i].key);
		if (has_at_ci(p, e, tr[i].key))
			add_ref(k, tr[i].type, p + n, (size_t)(e - p) - n);
	}
}

static void own_text_scan(const struct report *r, struct own_scan *s,
			  struct kind_result *k)
{
	const char *p = r->body, *end, *e;
	bool minus = false;

	memset(s, 0, sizeof(*s));
	if (!p)
		return;
	end = p + (r->body_len < SCAN_MAX ? r->body_len : SCAN_MAX);
	for (; p < end; p = e + 1) {
		e = memchr(p, '\n', (size_t)(end - p));
		if (!e)
			e = end;
		if (p < e && *p == '>') {
			minus = false;
			continue;
		}
		if (has_at(p, e, "-----Original Message-----"))
			break;
		/* "are available in the Git repository at:" is mid-line */
		if (!s->pull && (size_t)(e - p) > 38 &&
		    memmem(p, (size_t)(e - p),
			   "available in the Git repository", 31))
			s->pull = true;
		scan_line(p, e, s, k, &minus);
		if (e == end)
			break;
	}
}

/* an attached patch: text/x-patch, text/x-diff, *.patch, *.diff */
static bool patch_attached(const struct report *r)
{
	size_t i;

	for (i = 0; i < r->nparts; i++) {
		const struct report_part *pt = &r->parts[i];
		const char *f = pt->filename;

		if (pt->mime_type && (!strcmp(pt->mime_type, "text/x-patch") ||
				      !strcmp(pt->mime_type, "text/x-diff")))
			return true;
		if (f && (ends_with(f, ".patch") || ends_with(f, ".diff")))
			return true;
	}
	return false;
}

/*
 * patch_attached_signed - an attachment that is a patch as git makes it
 * (a *.patch or *.diff file, text/x-patch or text/x-diff, holding a diff
 * and a Signed-off-by): "Enable Mute LED for Lenovo platform" with
 * 0001-ALSA-hda-....patch attached is a patch sent the way some vendors
 * and newcomers send them, not a report; a reporter's debug diff
 * carries no Signed-off-by.  The caller leaves a message whose subject
 * says what went wrong to be a report: "m_can: bus-off recovery
 * issue", its analysis in the text and the fix its reporter tried
 * attached.
 */
static bool patch_attached_signed(const struct report *r)
{
	size_t i;

	for (i = 0; i < r->nparts; i++) {
		const struct report_part *pt = &r->parts[i];
		const char *f = pt->filename;
		size_t n = pt->len < SCAN_MAX ? pt->len : SCAN_MAX;

		if (!pt->text ||
		    !((pt->mime_type &&
		       (!strcmp(pt->mime_type, "text/x-patch") ||
			!strcmp(pt->mime_type, "text/x-diff"))) ||
		      (f && (ends_with(f, ".patch") || ends_with(f, ".diff")))))
			continue;
		if (memmem(pt->text, n, "Signed-off-by:", 14) &&
		    (memmem(pt->text, n, "diff --git ", 11) ||
		     memmem(pt->text, n, "\n+++ ", 5)))
			return true;
	}
	return false;
}

/* ---- the decision ------------------------------------------------------- */

/*
 * bugzilla_mail - mail of a Bugzilla: From a "bugzilla-daemon@" (a
 * Bugzilla's own notification), or kernel.org's bugspray bot with its
 * X-Bugzilla-Product or X-Bugzilla-Type header.  Like X-Bugzilla-Component
 * (bzcomponent_from_bugzilla()), the headers are Bugzilla's word only on
 * Bugzilla's own mail: anyone can write them, and on a stranger's mail
 * they change nothing of its kind.
 */
static bool bugzilla_mail(const struct report *r)
{
	const char *a = from_addr(r);

	if (!strncasecmp(a, "bugzilla-daemon@", 16))
		return true;
	return (report_header(r, "X-Bugzilla-Product") ||
		report_header(r, "X-Bugzilla-Type")) &&
	       addr_is(a, "bugbot", "kernel.org");
}

/*
 * bugspray_new - kernel.org's bugspray bridge ("NAME via Bugspray Bot
 * <bugbot@kernel.org>", X-Mailer: bugspray) mails each Bugzilla comment
 * to the component's list; comment 0 ("View: .../show_bug.cgi?id=N#c0",
 * Message-ID "...-bNc0-...") is the bug's description: a new report,
 * where "#c3" is a comment on it.  Its subject has no "[Bug N] New:".
 */
static bool bugspray_new(const struct report *r, bool reply)
{
	const char *b = r->body, *end = b ? b + r->body_len : NULL, *p;

	if (reply || !b || !addr_is(from_addr(r), "bugbot", "kernel.org"))
		return false;
	for (p = b; (p = memmem(p, (size_t)(end - p), "show_bug.cgi?id=", 16));
	     p += 16) {
		const char *q = p + 16;

		while (q < end && isdigit((unsigned char)*q))
			q++;
		if (q > p + 16 && end - q >= 3 && q[0] == '#' && q[1] == 'c' &&
		    q[2] == '0' &&
		    (end - q == 3 || !isdigit((unsigned char)q[3])))
			return true;
	}
	return false;
}

/*
 * noreply_sender - a sender that takes no answer: "noreply@",
 * "no-reply@", "do-not-reply@", "donotreply@", "mailer-daemon@" (build
 * services' notices, webinar invitations).  Nobody who hit a bug writes
 * from an address that cannot be answered: on the tuning labels every
 * such new message is a bot notice or spam (Launchpad's recipe-build
 * mail, a video-call service's invitations), none a report.
 */
static bool noreply_sender(const char *addr)
{
	static const char *const locals[] = {
		"noreply",	"no-reply",	"no_reply",	 "donotreply",
		"do-not-reply", "do_not_reply", "mailer-daemon",
	};
	const char *at = strchr(addr, '@');
	size_t i, n;

	if (!at)
		return false;
	n = (size_t)(at - addr);
	for (i = 0; i < ARRAY_SIZE(locals); i++)
		if (n == strlen(locals[i]) && !strncasecmp(addr, locals[i], n))
			return true;
	return false;
}

/* counts_some - s holds a count above zero followed by what ("1
 * regressions", "3 failed"; not "0 regressions") */
static bool counts_some(const char *s, const char *what)
{
	const char *p, *d;
	size_t n = strlen(what);

	for (p = s; (p = strstr(p, what)); p += n) {
		for (d = p; d > s && isdigit((unsigned char)d[-1]); d--)
			;
		if (d < p && (d == s || !isalnum((unsigned char)d[-1])) &&
		    strspn(d, "0") < (size_t)(p - d))
			return true;
	}
	return false;
}

/* decide_bot - the bots whose mail is never a new user report (but
 * their own first reports) */
static bool decide_bot(const struct report *r, const char *tags,
		       unsigned replies, struct kind_result *k)
{
	const char *a = from_addr(r);
	const char *subj = r->subject ? r->subject : "";
	const char *rest = kind_subject_rest(subj);

	if (addr_is(a, "patchwork-bot", "kernel.org") ||
	    addr_is(a, "pr-tracker-bot", "kernel.org")) {
		decide(k, KIND_BOT, "sent by %s", a);
		return true;
	}
	if (from_domain(a, "github.com") ||
	    report_header(r, "X-GitHub-Recipient") ||
	    report_header(r, "X-GitHub-Reason")) {
		decide(k, KIND_BOT, "GitHub notification mail from %s", a);
		return true;
	}
	if (noreply_sender(a)) {
		decide(k, KIND_BOT,
		       "sent from %s, an address that takes no reply", a);
		return true;
	}
	if (addr_is(a, "syzbot", "syzkaller.appspotmail.com")) {
		/* "syzbot ci": the CI that tests posted patches */
		if (!strncasecmp(a, "syzbot+ci", 9) ||
		    strstr(tags, "syzbot ci")) {
			decide(k, KIND_REVIEW, "%s",
			       "syzbot's CI on a posted patch");
			return true;
		}
		if (contains_word(subj, "monthly") || strstr(subj, "Monthly")) {
			decide(k, KIND_BOT, "%s", "syzbot's monthly summary");
			return true;
		}
		if (replies || r->in_reply_to) {
			if (r->body &&
			    strstr(r->body, "syzbot has found a reproducer"))
				decide(k, KIND_FOLLOWUP, "%s",
				       "syzbot found a reproducer for its report");
			else
				decide(k, KIND_BOT, "%s",
				       "syzbot's reply (test result or status)");
			return true;
		}
		decide(k, KIND_REPORT, "%s", "a syzbot report");
		return true;
	}
	if (addr_is(a, "lkp", "intel.com") ||
	    addr_is(a, "oliver.sang", "intel.com") ||
	    strstr(r->from ? r->from : "", "kernel test robot")) {
		if (strstr(rest, "BUILD SUCCESS") ||
		    strstr(rest, "BUILD REGRESSION") ||
		    strstr(rest, "BUILD WARNING") ||
		    strstr(rest, "BUILD INCOMPLETE")) {
			decide(k, KIND_BOT, "%s",
			       "the kernel test robot's build summary");
			return true;
		}
		if (replies || r->in_reply_to) {
			if (any_tag(tags, is_patch_tag))
				decide(k, KIND_REVIEW, "%s",
				       "the kernel test robot on a patch");
			else
				decide(k, KIND_FOLLOWUP, "%s",
				       "the kernel test robot in a thread");
			return true;
		}
		decide(k, KIND_REPORT, "%s", "a kernel test robot report");
		return true;
	}
	if (!strcasecmp(a, "bluez.test.bot@gmail.com")) {
		decide(k, KIND_BOT, "%s", "BlueZ's CI test results");
		return true;
	}
	if (addr_is(a, "bot", "kernelci.org")) {
		/* "baseline: 22 runs, 1 regressions (v5.8-rc1-...)", "build:
		 * 2 builds: 1 failed, 1 passed": its own report of what
		 * broke, as a syzbot or test robot report is */
		if (!replies && !r->in_reply_to &&
		    (counts_some(subj, " regression") ||
		     counts_some(subj, " failed")))
			decide(k, KIND_REPORT, "%s",
			       "a KernelCI report: a regression or failure counted in its subject");
		else
			decide(k, KIND_BOT, "%s", "a KernelCI notice");
		return true;
	}
	return false;
}

/* a stable-tree notice by its subject */
static bool stable_subject(const char *rest, const char *subj)
{
	const char *s = skip_blank(subj);

	if (!strncasecmp(s, "FAILED: patch", 13) ||
	    !strncasecmp(kind_subject_rest(s), "FAILED: patch", 13))
		return true;
	return (!strncasecmp(rest, "Patch \"", 7) ||
		!strncasecmp(rest, "patch \"", 7)) &&
	       (strstr(rest, "has been added to the") ||
		strstr(rest, "-stable tree") || strstr(rest, "stable tree"));
}

/* commit_id - a git commit id in s: 8 to 40 hex digits, a digit and a
 * letter among them, not inside a word ("5037b342825d", not "deadbeef") */
static bool commit_id(const char *s)
{
	const char *p = s, *q;
	bool digit, letter;

	for (; *p; p = q) {
		q = p;
		digit = letter = false;
		while (isxdigit((unsigned char)*q)) {
			digit |= isdigit((unsigned char)*q) != 0;
			letter |= isalpha((unsigned char)*q) != 0;
			q++;
		}
		if (q - p >= 8 && q - p <= 40 && digit && letter &&
		    (p == s || !isalnum((unsigned char)p[-1])) &&
		    !isalnum((unsigned char)*q))
			return true;
		if (q == p)
			q++;
		else
			while (isalnum((unsigned char)*q))
				q++;
	}
	return false;
}

/* stable_target - s names a stable tree: "stable", "LTS", a release
 * ("6.18", "v5.10", "5.15.y") */
static bool stable_target(const char *s)
{
	const char *p;

	for (p = s; *p; p++) {
		const char *v = p;

		if (p > s && isalnum((unsigned char)p[-1]))
			continue;
		if (!strncasecmp(p, "stable", 6) ||
		    (!strncasecmp(p, "lts", 3) &&
		     !isalpha((unsigned char)p[3])))
			return true;
		if (*v == 'v' || *v == 'V')
			v++;
		/* "6.18", "v5.10": one or two digits, a dot, a digit */
		if (isdigit((unsigned char)v[0]) &&
		    ((v[1] == '.' && isdigit((unsigned char)v[2])) ||
		     (isdigit((unsigned char)v[1]) && v[2] == '.' &&
		      isdigit((unsigned char)v[3]))))
			return true;
	}
	return false;
}

/*
 * backport_request - a new message that asks a stable tree to take an
 * upstream commit: "Please apply 5037b342825d ... to stable kernels
 * v5.10 - v6.18", "Please cherry-pick 5aa58c3a572b (...) to 6.18",
 * "Please backport f6b079629bec (...) to stable".  The request and the
 * commit are in its subject or its opening lines, the commit within
 * BACKPORT_NEAR bytes of the request, and a stable tree or a release
 * is named: stable-tree traffic, whatever the commit fixes
 * (a report that mentions a fix to backport tells what it hit first).
 */
#define BACKPORT_OPENING 800
#define BACKPORT_NEAR	 64 /* bytes from the request to its commit */
static bool backport_request(const struct report *r)
{
	static const char *const asks[] = {
		"please apply",	      "please backport", "please cherry-pick",
		"please cherry pick", "please queue",	 "please pick",
		"to cherry-pick",     "be backported",	 "be queued",
	};
	char text[BACKPORT_OPENING + 256 + 2];
	size_t i, n, own = r->body ? r->body_len : 0;
	const char *subj = r->subject ? r->subject : "";

	n = strlen(subj) < 256 ? strlen(subj) : 256;
	memcpy(text, subj, n);
	text[n++] = '\n';
	if (own > BACKPORT_OPENING)
		own = BACKPORT_OPENING;
	memcpy(text + n, r->body ? r->body : "", own);
	n += own;
	text[n] = '\0';
	for (i = 0; i < n; i++)
		if (!text[i])
			text[i] = ' ';
	if (!stable_target(text))
		return false;
	/* "Apply <sha> to 5.15" opens a subject; "apply" alone elsewhere
	 * is any sentence's */
	if (!strncasecmp(kind_subject_rest(subj), "apply ", 6) &&
	    commit_id(kind_subject_rest(subj)))
		return true;
	for (i = 0; i < ARRAY_SIZE(asks); i++) {
		const char *p = text, *q;

		while ((q = strcasestr(p, asks[i]))) {
			char near[BACKPORT_NEAR + 1];
			size_t m = strlen(q);

			/* the commit follows the request closely */
			if (m > BACKPORT_NEAR)
				m = BACKPORT_NEAR;
			memcpy(near, q, m);
			near[m] = '\0';
			if (commit_id(near))
				return true;
			p = q + 1;
		}
	}
	return false;
}

/*
 * tool_name - one word that names a userspace tool by the suffix its
 * project carries: "nvme-cli", "nvmetcli", "mmc-utils", "btrfs-progs",
 * "xfsprogs", "i2c-tools"
 */
static bool tool_name(const char *t, size_t len)
{
	static const char *const suffix[] = { "cli", "progs", "-utils",
					      "-tools" };
	size_t i, j, n;

	if (len < 4 || len > 40)
		return false;
	for (j = 0; j < len; j++)
		if (!isalnum((unsigned char)t[j]) && t[j] != '-' && t[j] != '_')
			return false;
	for (i = 0; i < ARRAY_SIZE(suffix); i++) {
		n = strlen(suffix[i]);
		if (len > n && !strncasecmp(t + len - n, suffix[i], n))
			return true;
	}
	return false;
}

/*
 * tool_subject - a subject about a userspace tool, not the kernel: a tag
 * "[nvme-cli]", "[i2c-tools]" or a title that opens "mmc-utils: ...",
 * "nvmetcli: ...".  The kernel's lists carry their tools' questions and
 * proposals; a kernel bug a tool hit names the kernel part first
 * ("nvmet: Kernel oops during nvmetcli 'make test'").
 */
static bool tool_subject(const char *tags, const char *rest)
{
	const char *colon = strchr(rest, ':');

	if (any_tag(tags, tool_name))
		return true;
	return colon && tool_name(rest, (size_t)(colon - rest));
}

/*
 * list_business - a subject about the list or the trees, not about a
 * bug: a (un)subscribe request sent to the list ("subscribe
 * linux-raid", "linux-wireless+subscribe@vger.kernel.org"), linux-next's
 * merge notices ("linux-next: manual merge of the kbuild tree with the
 * origin tree", its fix-up diff included) and its "Fixes tag needs
 * work in the X tree"
 */
static bool list_business(const char *rest)
{
	const char *p = rest;
	size_t n;

	if (!strncasecmp(p, "un", 2))
		p += 2;
	if (!strncasecmp(p, "subscribe", 9) &&
	    (p[9] == '\0' || isspace((unsigned char)p[9])) &&
	    kind_words(rest, rest + strlen(rest)) <= 3)
		return true;
	n = strcspn(rest, " \t");
	if (memmem(rest, n, "+subscribe@", 11) ||
	    memmem(rest, n, "+unsubscribe@", 13))
		return true;
	return !strncasecmp(rest, "linux-next: manual merge of ", 28) ||
	       strcasestr(rest, "fixes tag needs ") ||
	       strcasestr(rest, "fixes tags need ");
}

/*
 * tree_notice_text - the text of linux-next's notices, which its
 * subject names (list_business()): "Today's linux-next merge of the
 * kbuild tree got a conflict in:", "Fixes tag ... has these
 * problem(s):" (within the first TREE_NOTICE_MAX bytes)
 */
#define TREE_NOTICE_MAX 4096
static bool tree_notice_text(const struct report *r)
{
	size_t n = r->body ? r->body_len : 0;

	if (n > TREE_NOTICE_MAX)
		n = TREE_NOTICE_MAX;
	return n && (memmem(r->body, n, "linux-next merge of the ", 24) ||
		     (memmem(r->body, n, "Fixes tag", 9) &&
		      memmem(r->body, n, "has these problem", 17)));
}

/*
 * list_command - a new message whose whole own text is a list command
 * ("subscribe", "unsubscribe linux-raid"), under any subject or none:
 * mail for the list server sent to the list
 */
static bool list_command(const struct report *r)
{
	char line[64];
	const char *p = r->body, *end;
	size_t n;

	if (!p)
		return false;
	end = p + r->body_len;
	while (p < end && isspace((unsigned char)*p))
		p++;
	n = (size_t)(end - p);
	while (n && isspace((unsigned char)p[n - 1]))
		n--;
	if (!n || n >= sizeof(line) || kind_words(p, p + n) > 3)
		return false;
	memcpy(line, p, n);
	line[n] = '\0';
	return list_business(line);
}

/* ---- mail that names nothing of the kernel ---------------------------- */

/* how far into the text the kernel's words are looked for */
#define SPAM_SCAN_MAX (64 * 1024)

/*
 * names_nothing - a new message whose own text names nothing of the
 * kernel: no word of its world, no identifier, no hex, no call (a
 * subsystem in the subject alone, "ext4: hello", does not make a
 * report).  On the tuning labels (tests/real/tune-*.tsv) none of 364
 * first reports has such a text (one says only "i used claude to make
 * the report" and attaches it: attachments count), while 16 of 20 spam mails
 * (marketing, phishing, Polish and Japanese advertising) do.  An empty
 * text (a report that is all attachment) is not judged, nor is a
 * message with an attachment that cannot be read as text.  Such a
 * message is no evidence of a bug anyone hit: it is not forwarded as a
 * user report (pipeline_judge() holds it as uncertain), and it stays a
 * report a triager sees when it says something went wrong or asks,
 * since a vague genuine question ("my computer is slow since the
 * update") reads the same.  One that does neither is spam: on the four
 * tuning parts that takes 76 spam mails, 2 discussions and a cover
 * letter out of pending, and no first report.
 */
static bool names_nothing(const struct report *r)
{
	size_t i, len = r->body ? r->body_len : 0;

	if (len < 20)
		return false;
	if (kind_names_kernel(r->body,
			      len < SPAM_SCAN_MAX ? len : SPAM_SCAN_MAX,
			      KIND_NAMES_ALL))
		return false;
	/* the report in an attachment ("I attached the report") */
	for (i = 0; i < r->nparts; i++) {
		const struct report_part *pt = &r->parts[i];

		if (!(pt->flags & PART_TEXT) || !pt->text) {
			if (pt->flags & PART_ATTACHMENT)
				return false; /* unread: a triager decides */
			continue;
		}
		if (kind_names_kernel(pt->text,
				      pt->len < SPAM_SCAN_MAX ? pt->len
							      : SPAM_SCAN_MAX,
				      KIND_NAMES_ALL))
			return false;
	}
	return true;
}

/* word_in - s holds w (lower case) as whole words, any case */
static bool word_in(const char *s, const char *w)
{
	size_t n = strlen(w);
	const char *p;

	for (p = s; (p = strcasestr(p, w)); p++)
		if ((p == s || !isalpha((unsigned char)p[-1])) &&
		    !isalpha((unsigned char)p[n]))
			return true;
	return false;
}

/*
 * sells - a new message that sells, begs or scams in the words of money
 * and trade: at least SELLS_MIN of sells_words in its subject and own
 * text (list footer left out), and no code-like token at all (no
 * identifier, hex number or call: kind_names_kernel()).  The kernel words of
 * such mail are its wares ("Used MICRON SSD 7300 PRO, Quantity 400,
 * price $100 EACH") or its bait ("a transaction of $10 million into your
 * bank account"), which names_nothing() counts as the kernel's; a
 * report that names no code does not talk money three ways.  A price
 * list ("QTY 239 $50 EACH", "-$200 PER") may name part numbers that
 * read as code ("REO_1010-XT"): with PRICES_MIN prices in it, the words
 * of trade decide alone.
 */
#define SELLS_MIN  3
#define PRICES_MIN 2

/*
 * operand - an assembly operand, not a price: "$16" written after a ','
 * or '(', or followed by ',' (no thousands' digits after it) or ')'
 * (AT&T's "mov $16,%rdi", MIPS's "addiu $sp,$16,8"), or on a line that
 * names an AT&T register ("%rax", "%esp") [p, q): the amount's digits
 */
static bool operand(const char *t, size_t len, size_t i, size_t q)
{
	size_t a = i, b = q;

	if (i && (t[i - 1] == ',' || t[i - 1] == '('))
		return true;
	if (q < len && (t[q] == ')' ||
			(t[q] == ',' &&
			 !(q + 1 < len && isdigit((unsigned char)t[q + 1])))))
		return true;
	while (a && t[a - 1] != '\n')
		a--;
	while (b < len && t[b] != '\n')
		b++;
	for (; a + 1 < b; a++)
		if (t[a] == '%' && islower((unsigned char)t[a + 1]))
			return true;
	return false;
}

/* prices - how many amounts of money the text quotes ("$50", "€1200",
 * "£75": a currency sign, then two digits or more; an assembly operand
 * is none), up to PRICES_MIN */
static unsigned prices(const char *t, size_t len)
{
	static const char *const signs[] = { "$", "\xe2\x82\xac", "\xc2\xa3" };
	unsigned n = 0;
	size_t i, j, m, q;

	for (i = 0; i < len && n < PRICES_MIN; i++) {
		if (i && isalnum((unsigned char)t[i - 1]))
			continue;
		for (j = 0; j < ARRAY_SIZE(signs); j++) {
			m = strlen(signs[j]);
			if (!(i + m + 2 <= len && !memcmp(t + i, signs[j], m) &&
			      isdigit((unsigned char)t[i + m]) &&
			      isdigit((unsigned char)t[i + m + 1])))
				continue;
			for (q = i + m; q < len && isdigit((unsigned char)t[q]);
			     q++)
				;
			n += !operand(t, len, i, q);
			break;
		}
	}
	return n;
}

#define SELLS_SCAN_MAX (16u << 10)
static bool sells(const struct report *r, const char *subj)
{
	static const char *const sells_words[] = {
		"bank account",
		"million",
		"usd",
		"price",
		"quantity",
		"for sale",
		"wts",
		"buyer",
		"invoice",
		"payment",
		"purchase",
		"quotation",
		"request for quote",
		/* a procurement inquiry sent to a list as to a shop: "Please
		 * provide a quote for your products", "email us your
		 * company's most recent catalog" */
		"quote for",
		"pricing",
		"your products",
		"your company",
		"catalog",
		"catalogue",
		"proposal",
		"investment",
		"investors",
		"funds",
		"lucrative",
		"beneficiary",
		"inheritance",
		"my dear",
		"dear friend",
		"god",
		"blessed",
		"discount",
		"seo",
		"marketing",
		"webinar",
		"casino",
		"loan",
		"bitcoin",
		"new order",
		"receipt",
		"transaction",
		"business",
		"partnership",
		"offer",
		"whatsapp",
		"reply for more",
	};
	size_t len = r->body ? r->body_len : 0, n, i, hits = 0;
	char *t;

	if (len < 20)
		return false;
	if (len > SELLS_SCAN_MAX)
		len = SELLS_SCAN_MAX;
	len = kind_list_footer(r->body, len);
	if (prices(r->body, len) < PRICES_MIN &&
	    kind_names_kernel(r->body, len, KIND_NAMES_CODE))
		return false;
	n = strlen(subj) < 256 ? strlen(subj) : 256;
	t = xmalloc(n + len + 2);
	memcpy(t, subj, n);
	t[n] = '\n';
	memcpy(t + n + 1, r->body, len);
	t[n + 1 + len] = '\0';
	for (i = 0; i < n + 1 + len; i++)
		if (!t[i])
			t[i] = ' ';
	for (i = 0; i < ARRAY_SIZE(sells_words) && hits < SELLS_MIN; i++)
		hits += word_in(t, sells_words[i]);
	free(t);
	return hits >= SELLS_MIN;
}

/*
 * tool_found - the sender's text says a tool found it ("found by our
 * static analysis tool", "a new kernel bug found by our tool", "found
 * with syzkaller"): a finding reported, even when its subject asks
 * ("Question: mvebu GPIO can_sleep ...")
 */
static bool tool_found(const struct report *r)
{
	static const char *const says[] = {
		"found by our ",	 "detected by our ",
		"discovered by our ",	 "identified by our ",
		"our static analysis",	 "found by a static analy",
		"found by static analy", "found by syzkaller",
		"found with syzkaller",	 "found using syzkaller",
	};
	size_t i, len = r->body ? r->body_len : 0;
	const char *p, *end;

	/* said where the sender introduces the report */
	if (len > TOOL_SCAN_MAX)
		len = TOOL_SCAN_MAX;
	end = r->body + len;
	for (p = r->body; p < end; p++) {
		char c = (char)tolower((unsigned char)*p);

		if (c != 'f' && c != 'd' && c != 'i' && c != 'o')
			continue;
		for (i = 0; i < ARRAY_SIZE(says); i++)
			if (says[i][0] == c && has_prefix_ci(p, end, says[i]))
				return true;
	}
	return false;
}

/* a bug filed in a tracker states its problem by being filed */
static void problem_filed(struct kind_result *k)
{
	k->problem_stated = true;
	snprintf(k->problem, sizeof(k->problem), "%s", "a filed bug");
}

/*
 * problem_scan - whether a new message says something went wrong: its
 * subject (rest: the tags left out) or a first-person sentence of its
 * own text (problem.h)
 */
static void problem_scan(const struct report *r, const char *rest,
			 struct kind_result *k)
{
	char what[48];

	if (problem_in_phrase(rest, strlen(rest), what, sizeof(what))) {
		k->problem_stated = true;
		snprintf(k->problem, sizeof(k->problem), "subject: %s", what);
	} else if (r->body &&
		   problem_in_text(r->body, r->body_len, what, sizeof(what))) {
		k->problem_stated = true;
		snprintf(k->problem, sizeof(k->problem), "text: %s", what);
	}
}

/*
 * introduces_series - the sender's own text opens by presenting its
 * patches: "this series ties up a few more loose ends", "this patch
 * against Jens' tree gets rid of ...", "These patches add ...": a cover
 * letter git send-email sent without a "0/N" tag, a diffstat or a
 * version log.  Read within the first SERIES_OPENING bytes.
 */
#define SERIES_OPENING 600
static bool introduces_series(const struct report *r)
{
	static const char *const says[] = {
		"this series",		 "this patch series",
		"this patchset",	 "this patch set",
		"this patch against",	 "these patches",
		"the following patches", "the following series",
	};
	size_t len = r->body ? r->body_len : 0, i;
	const char *p, *end;

	if (!r->body)
		return false;
	if (len > SERIES_OPENING)
		len = SERIES_OPENING;
	end = r->body + len;
	for (p = r->body; p < end; p++) {
		if (*p != 't' && *p != 'T')
			continue;
		if (p > r->body && isalpha((unsigned char)p[-1]))
			continue;
		for (i = 0; i < ARRAY_SIZE(says); i++)
			if (has_prefix_ci(p, end, says[i]))
				return true;
	}
	return false;
}

/*
 * decide_patch - a patch, a cover letter or a review, by the subject's
 * tags and the sender's own text (a diff, a Signed-off-by, a diffstat,
 * a version log); false when it is none of them
 */
static bool decide_patch(struct kind_result *k, const char *tags,
			 unsigned replies, bool reply,
			 const struct own_scan *own)
{
	if (any_tag(tags, is_patch_tag)) {
		if (k->diff && own->signed_off)
			decide(k,
			       reply && any_tag(tags, is_cover_tag)
				       ? KIND_REVIEW
				       : KIND_PATCH,
			       "subject tag [%.80s] and a diff with a Signed-off-by",
			       tags);
		else if (replies)
			decide(k, KIND_REVIEW,
			       "subject tag [%.80s]: a reply to a patch", tags);
		else if (any_tag(tags, is_cover_tag))
			decide(k, KIND_COVER,
			       "subject tag [%.80s]: a cover letter", tags);
		else if (reply && !k->diff)
			decide(k, KIND_REVIEW,
			       "subject tag [%.80s], in a thread and without a diff",
			       tags);
		else
			decide(k, KIND_PATCH, "subject tag [%.80s]", tags);
		return true;
	}
	/* "[REPORT] nvmet-rdma: integer overflow ..." with the fix the
	 * sender proposes under it: a report, as its tag says */
	if (!reply && any_tag(tags, is_problem_tag))
		return false;
	if (k->diff && own->signed_off) {
		decide(k, KIND_PATCH, "%s",
		       "a diff with a Signed-off-by in the sender's own text");
		return true;
	}
	/* a diff without a Signed-off-by reads as a reporter's debug diff
	 * ("[RFC] AMD VM crashing on ..." with the change its sender tried):
	 * only the subject's tag makes it a patch (kind_hold_reason()) */
	if (!reply && k->diff && any_tag(tags, is_discussion_tag)) {
		k->subject_only = true;
		decide(k, KIND_PATCH,
		       "subject tag [%.80s] with a diff, but no Signed-off-by",
		       tags);
		return true;
	}
	/* a bisection quotes the culprit commit, diffstat and version log
	 * included: a report's evidence, not a cover letter */
	if (!reply && own->diffstat && !own->bisect) {
		decide(k, KIND_COVER, "%s",
		       "a new message with a diffstat and no diff: a series' cover letter");
		return true;
	}
	if (!reply && !k->diff && own->changelog && !own->bisect) {
		decide(k, KIND_COVER, "%s",
		       "a new message with a version log (\"Changes since v2:\") and no diff: a series' cover letter");
		return true;
	}
	return false;
}

/*
 * decide_new - what a new message (no reply) that is no patch by its
 * tags or own text is, when its request, its attachment, its opening
 * or its subject says it: stable traffic, a patch, a cover letter, spam
 * or discussion; false when none of them
 */
static bool decide_new(const struct report *r, struct kind_result *k,
		       const char *subj, const char *tags,
		       const struct own_scan *o)
{
	const char *rest = kind_subject_rest(subj);

	if (!o->crash && backport_request(r)) {
		decide(k, KIND_STABLE, "%s",
		       "a new message that asks a stable tree to take a commit");
		return true;
	}
	if (!k->diff && !o->crash && !o->bisect &&
	    !problem_in_phrase(rest, strlen(rest), NULL, 0) &&
	    introduces_series(r)) {
		decide(k, KIND_COVER, "%s",
		       "a new message without a diff whose text presents its series (\"this series ...\"): a cover letter");
		return true;
	}
	if (!o->crash && !problem_in_phrase(rest, strlen(rest), NULL, 0) &&
	    patch_attached_signed(r)) {
		decide(k, KIND_PATCH, "%s",
		       "a new message with a patch attached (a diff with a Signed-off-by)");
		return true;
	}
	if (!k->diff && !o->crash && sells(r, subj)) {
		decide(k, KIND_SPAM, "%s",
		       "a new message in the words of money and trade, naming no code");
		return true;
	}
	if (!k->diff && !o->crash) {
		char why[KIND_WHY_MAX];

		if (kind_spam_signals(r, subj, why, sizeof(why))) {
			decide(k, KIND_SPAM, "%s", why);
			return true;
		}
	}
	if (!o->crash && list_command(r)) {
		decide(k, KIND_DISCUSSION, "%s",
		       "its whole text is a list command: the list's business");
		return true;
	}
	if (!o->crash && list_business(rest)) {
		k->subject_only = !tree_notice_text(r);
		decide(k, KIND_DISCUSSION,
		       "subject \"%.100s\": the list's or the trees' business",
		       rest);
		return true;
	}
	if (!k->diff && !o->crash && tool_subject(tags, rest)) {
		k->subject_only = true;
		decide(k, KIND_DISCUSSION,
		       "subject \"%.100s\": about a userspace tool", subj);
		return true;
	}
	return false;
}

/*
 * community_subject - a subject about the project's or the list's own
 * business, each word whole: a contributor license agreement ("OpenBMC
 * Corporate CLA Submission", "TechDesign CCLA"), the mailing list itself
 * ("This list is being migrated to the new vger infra", "New IOMMU
 * mailing list coming"), a job offer ("We're Hiring: Firmware
 * Engineers"), an event's reminder ("Reminder: Final week to submit a
 * talk").  On the seven tuning parts 32 new messages' subjects say so,
 * on 11 lists, all of them discussions; 13 were read as reports (the
 * CLAs and the job offer of one list, tune-reports6's openbmc: no other
 * part has any).
 */
static bool community_subject(const char *rest)
{
	static const char *const says[] = {
		"cla",		"ccla",	     "hiring",
		"mailing list", "this list", "reminder",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(says); i++)
		if (word_in(rest, says[i]))
			return true;
	return false;
}

/*
 * asks_only - a subject that opens by asking ("Clarification on ...",
 * "What is the best way to ...") over a text that says nothing of its
 * own went wrong (problem.h): a question, not a report
 */
static bool asks_only(const struct report *r, const char *rest)
{
	return kind_question_subject(rest, true) &&
	       !(r->body && problem_in_text(r->body, r->body_len, NULL, 0));
}

/*
 * A subject's tag or words make a message an announcement or a
 * question, unless it carries no diff and its own text holds a
 * kernel crash ("[RFC] kernel crash in ceph_open()" with the oops,
 * "...: xHCI HW did not halt ... status = 0x0" with its trace), or
 * a tool found what it tells of
 */
static bool decide_talk(const struct report *r, struct kind_result *k,
			const char *tags, const char *rest,
			const struct own_scan *own)
{
	static const char *const problem[] = {
		"bug",	      "regression", "crash",   "crashes",  "oops",
		"panic",      "hang",	    "hangs",   "freeze",   "fail",
		"fails",      "failed",	    "failure", "broken",   "breaks",
		"error",      "errors",	    "warning", "warn",	   "null",
		"deadlock",   "lockup",	    "stall",   "leak",	   "corrupt",
		"corruption", "not work",   "doesn't", "does not", "cannot",
		"can't",      "unable",	    "issue",   "problem",  "timeout",
		"lost",	      "loss",	    "stuck",   "wrong",	   "slow",
		"KASAN",      "BUG:",	    "WARNING", "unstable", "disconnect",
	};
	static const char *const talk[] = {
		"announce",
		"announcing",
		"released",
		"release",
		"meeting",
		"agenda",
		"call for",
		"cfp",
		"conference",
		"question",
		"how to",
		"how do",
		"rebased",
		"proposal",
		"plan",
		"plans",
		"roadmap",
		"fyi",
		"status",
		"update on",
		"missing signoff",
		"request for",
		"guidance",
		"advice",
		"meetup",
		"psa",
		/* a community's business: its events and elections, and a
		 * maintainer handing over ("X.Org Board Elections 2026",
		 * "Nominations Open", "AFS Technologies Workshop", "Linux
		 * Security Summit", "Save the Date! XDC 2026", "BCM2835
		 * maintainership"); on the tuning parts every new message
		 * whose subject says so is a discussion */
		"election",
		"nomination",
		"maintainership",
		"workshop",
		"summit",
		"save the date",
	};
	/*
	 * ... and these, in a message that names something of the kernel
	 * (junk invites and inquires too, and stays spam): an invitation
	 * to a review or an event, a volunteer's goodbye, the bounces of
	 * MAINTAINERS addresses, an idea put to the list, an Outlook
	 * "Recall:" of an earlier message
	 */
	static const char *const talk_named[] = {
		"invitation", "goodbye", "bouncing maintainer",
		"suggestion", "ideas",	 "inquiry",
		"recall:",
	};

	if (((any_tag(tags, is_discussion_tag) &&
	      !(any_tag(tags, is_question_tag) && !k->diff &&
		problem_in_phrase(rest, strlen(rest), NULL, 0))) ||
	     ((any_word(rest, talk, ARRAY_SIZE(talk)) ||
	       community_subject(rest) ||
	       ((talk_prefix(rest) || kind_subject_release(rest) ||
		 asks_only(r, rest) ||
		 (any_word(rest, talk_named, ARRAY_SIZE(talk_named)) &&
		  !names_nothing(r))) &&
		!problem_failure_in_phrase(rest, strlen(rest), NULL, 0))) &&
	      !any_word(rest, problem, ARRAY_SIZE(problem)))) &&
	    !(!k->diff && (own->crash || tool_found(r)))) {
		k->subject_only = true;
		decide(k, KIND_DISCUSSION,
		       "subject \"%.100s\": an announcement or question", rest);
		return true;
	}
	return false;
}

/*
 * asks_only_in_words - a new message that asks (k->question), with no
 * crash, diff, bisection or tool's finding, that says nothing went wrong
 * (in its subject or text), and that shows nothing of a running system
 * or of the code: no log line, kernel version, device id, hex value,
 * function or source file (kind_shows_system()).  A reporter shows what they ran; a usage,
 * design or help question ("Place to read io_uring design?", "Pinning
 * nvme interrupts to a single cpu?") shows none of it.  On the tuning
 * parts 28 new discussions read as reports are such, and no report; a
 * report that asks so shows its dmesg, its version or the function
 * (kind_hold_reason(): held for a triager all the same).
 */
static bool asks_only_in_words(const struct report *r,
			       const struct kind_result *k, const char *subj,
			       const struct own_scan *own, bool asks)
{
	if (!asks || k->names_nothing || k->diff || own->crash || own->bisect ||
	    tool_found(r))
		return false;
	if (k->problem_stated)
		return false;
	return !kind_shows_system(subj, r->body, r->body ? r->body_len : 0);
}

void kind_classify(const struct report *r, struct kind_result *k)
{
	const char *subj = r->subject ? r->subject : "";
	const char *rest = kind_subject_rest(subj);
	char tags[TAGS_MAX];
	unsigned replies;
	struct own_scan own;
	const char *readers;
	bool reply, asks;

	memset(k, 0, sizeof(*k));
	kind_subject_tags(subj, tags, sizeof(tags), &replies);
	reply = replies > 0 || (r->in_reply_to && *r->in_reply_to) ||
		report_header(r, "References");
	k->reply = reply;
	own_text_scan(r, &own, k);
	k->diff = own.diff || patch_attached(r);

	if (r->source && !strcmp(r->source, "bugzilla")) {
		problem_filed(k);
		decide(k, KIND_REPORT, "%s", "a bug from Bugzilla");
		return;
	}
	if (header_yes(r, "X-Spam-Flag") || header_yes(r, "X-Spam-Status")) {
		decide(k, KIND_SPAM, "%s", "the site's spam filter marked it");
		return;
	}
	if (bugzilla_mail(r) || (!strncmp(rest, "New:", 4) &&
				 !strncmp(skip_blank(subj), "[Bug ", 5))) {
		if (!strncmp(rest, "New:", 4)) {
			problem_filed(k);
			decide(k, KIND_REPORT, "%s",
			       "a Bugzilla \"New:\" notification");
		} else if (bugspray_new(r, reply)) {
			problem_filed(k);
			decide(k, KIND_REPORT, "%s",
			       "a new bug's description from kernel.org's Bugzilla (bugspray, comment 0)");
		} else {
			decide(k, KIND_BZ_UPDATE, "%s",
			       "a Bugzilla comment or change notification");
		}
		return;
	}
	if (decide_bot(r, tags, replies, k))
		return;

	if (stable_subject(rest, subj) ||
	    (any_tag(tags, is_stable_tag) &&
	     !stable_report(tags, rest, reply, k->diff))) {
		decide(k, KIND_STABLE,
		       "subject \"%.100s\": stable-tree traffic", subj);
		return;
	}
	if (any_tag(tags, is_pull_tag) || !strncasecmp(rest, "GIT PULL", 8) ||
	    !strncasecmp(rest, "pull-request:", 13) ||
	    !strncasecmp(rest, "pull request:", 13) || (!reply && own.pull)) {
		decide(k, KIND_PULL, "%s",
		       reply ? "a reply to a pull request" : "a pull request");
		return;
	}
	if (decide_patch(k, tags, replies, reply, &own))
		return;
	if (reply) {
		/* "Re:" in the subject alone (no In-Reply-To, no References)
		 * answers nothing we can tell: a first report under such a
		 * subject reads the same (kind_hold_reason()) */
		k->subject_only = !(r->in_reply_to && *r->in_reply_to) &&
				  !report_header(r, "References");
		if (any_tag(tags, is_discussion_tag))
			decide(k, KIND_DISCUSSION,
			       "a reply under subject tag [%.80s]", tags);
		else
			decide(k, KIND_FOLLOWUP, "%s",
			       "a reply (In-Reply-To, References or Re:)");
		return;
	}
	if (decide_new(r, k, subj, tags, &own))
		return;
	if (any_tag(tags, is_problem_tag)) {
		k->problem_stated = true;
		snprintf(k->problem, sizeof(k->problem), "subject tag [%.40s]",
			 tags);
		decide(k, KIND_REPORT, "subject tag [%.80s]", tags);
		return;
	}
	if (decide_talk(r, k, tags, rest, &own))
		return;
	k->names_nothing = names_nothing(r);
	asks = kind_question_subject(rest, false) ||
	       (any_tag(tags, is_question_tag) && !k->diff) ||
	       (!k->names_nothing && !k->diff && !own.crash &&
		(kind_first_sentence_asks(r) || kind_says_it_asks(r)));
	k->question = asks;
	if (asks)
		snprintf(k->asks, sizeof(k->asks), "%s", "it asks");
	else if (!k->names_nothing && !k->diff && !own.crash &&
		 !problem_failure_in_phrase(rest, strlen(rest), NULL, 0) &&
		 (readers = kind_asks_readers(r))) {
		/* it asks for advice or a judgment, and its subject names
		 * no failure ("LTP rtc01 RTC alarm test fails", "config
		 * regression after 89cde455" ask "is it possible to",
		 * "is there a reason" of a report): a question for the
		 * hold (kind.h), never a discussion by itself */
		k->question = true;
		snprintf(k->asks, sizeof(k->asks), "it asks \"%s\"", readers);
	}
	problem_scan(r, rest, k);
	if (!k->problem_stated && !k->diff && tool_found(r)) {
		k->problem_stated = true;
		snprintf(k->problem, sizeof(k->problem), "%s",
			 "text: a tool found it");
	}
	if (!k->problem_stated && own.bisect) {
		k->problem_stated = true;
		snprintf(k->problem, sizeof(k->problem), "%s",
			 "a bisection: \"... is the first bad commit\"");
	}
	if (asks_only_in_words(r, k, subj, &own, asks)) {
		k->question_only = true;
		decide(k, KIND_DISCUSSION, "%s",
		       "a question that shows nothing of a system: no log, kernel version, device id, code or source file");
	} else if (k->names_nothing && !k->problem_stated && !k->question)
		decide(k, KIND_SPAM, "%s",
		       "a new message whose text names nothing of the kernel and says nothing went wrong");
	else if (k->names_nothing)
		decide(k, KIND_REPORT, "%s",
		       "a new message, but its text names nothing of the kernel: no evidence of a bug, held for a triager");
	else if (k->problem_stated)
		decide(k, KIND_REPORT,
		       "a new message that is not a patch; it says what went wrong (%s)%s%s",
		       k->problem, k->asks[0] ? "; " : "", k->asks);
	else
		decide(k, KIND_REPORT,
		       "a new message that is not a patch; it does not say that anything went wrong%s%s",
		       k->asks[0] ? "; " : "", k->asks);
}

const char *kind_hold_reason(const struct kind_result *k, bool in_thread)
{
	if (in_thread || k->kind == KIND_REPORT)
		return NULL;
	if (k->subject_only)
		return KIND_SUBJECT_ONLY;
	return k->question_only ? KIND_QUESTION_ONLY : NULL;
}

void kind_result_release(struct kind_result *k)
{
	size_t i;

	for (i = 0; i < k->nrefs; i++)
		free(k->refs[i].value);
	k->nrefs = 0;
}

bool kind_held_unsure(const char *reason)
{
	return reason && (!strncmp(reason, KIND_SUBJECT_ONLY,
				   sizeof(KIND_SUBJECT_ONLY) - 1) ||
			  !strncmp(reason, KIND_QUESTION_ONLY,
				   sizeof(KIND_QUESTION_ONLY) - 1));
}
