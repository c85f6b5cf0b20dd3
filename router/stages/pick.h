/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pick - one right person for a report, without burning anyone out
 *
 * DESCRIPTION
 *	The pick stage.  Given the report's ranked MAINTAINERS sections,
 *	its evidence files, its sender and class, pick_recipient() walks
 *	the order for the best-ranked sections (all sections that
 *	share the top score; "THE REST" never counts):
 *
 *	  1. triager: the site roster for the section (routes.conf), the
 *	     member with the lowest load first; then the section's
 *	     B: mailto: addresses, in MAINTAINERS order;
 *	  2. expert: the top Reviewed-by experts (experts.h) of the first
 *	     evidence file that has some (the guilty file first, then
 *	     files[] in order; a file with none falls back to its nearest
 *	     directory), at most PICK_EXPERTS of them with a score of at
 *	     least experts_min_score;
 *	  3. maintainer: the sections' M: entries, then their R: entries;
 *	  4. list: the sections' first L: entry.
 *
 *	A list pick says why it is the list (list_why): the section's
 *	B: mailto: names it, the section names no person at all (no
 *	roster, B: person, expert, M: or R:), its only people are the
 *	reporter, or people were passed over (saturated, away, gave it
 *	back); and the annotation of its L: line (list_note), which says
 *	whether outsiders may post there.
 *
 *	When these sections offer nobody (no person available and no
 *	list), the next group of sections by score is tried the same way
 *	(without the experts, which do not depend on sections).
 *
 *	Nobody is ever picked twice in one decision's candidate list, and
 *	the reporter (compared as bare addresses, ignoring case) never.
 *	A person is unavailable when away (an "away" record covers today)
 *	or saturated: the load callback says they were given at least
 *	their cap of reports today (since local midnight) or this week
 *	(since local midnight six days ago).  Within a tier the first
 *	candidate (the best expert, the first M:) is taken when available;
 *	otherwise, and always for a roster, the available candidate with
 *	the lowest load (the larger of day/cap and week/cap, then the raw
 *	counts) is taken, so that a busy section's reports rotate among
 *	the people who can take them.  Lists are never capped.
 *
 *	Every decision has a reason a triager can read, e.g.
 *	  "roster for XFS FILESYSTEM; alice at 3/5 today"
 *	  "top Reviewed-by expert for fs/xfs/xfs_inode.c (score 12.4,
 *	   31 reviews); bob saturated 5/5 today"
 *	  "M: of XFS FILESYSTEM (no triager, no expert)"
 *	  "L: linux-xfs@vger.kernel.org (no person available)"
 *	  "L: linux-xfs@vger.kernel.org (the section names no person)"
 *	and the list of candidates considered, each with score, load and
 *	status, for 'triage show'.  A report whose only section is THE
 *	REST (or that has none) is PICK_UNMAPPED, with no recipient, so
 *	that the act stage holds it; the expert candidates are still
 *	listed as suggestions.
 *
 * routes.conf (routes.conf(5))
 *	Records may repeat; settings take the last value.  Addresses are
 *	bare (alice@example.org); dates are YYYY-MM-DD in local time.
 *
 *	roster "SECTION TITLE" ADDR... [class=CLASS,...]
 *		The site's triagers for a MAINTAINERS section (the title as
 *		in MAINTAINERS, any case).  With class=, only for reports
 *		of those classes (user, fuzzer, ai, uncertain).  Several
 *		records for one section add up.
 *	cap ADDR|* [day=N] [week=N]
 *		At most N reports a day / a week for a person; "*" sets the
 *		default for everyone without their own value.  No cap
 *		record: no limit.  day=0 means "never".
 *	away ADDR FROM TO
 *		Not available from FROM to TO, both days included.
 *	experts_min_score = 1.0
 *		The least expert score worth a report (one review within
 *		one half-life scores about 1).
 *	experts_weight, experts_halflife, experts_since, experts_max,
 *	experts_ignore
 *		The import's settings (experts.h).
 *
 *	  roster  "XFS FILESYSTEM"  alice@example.org bob@example.org
 *	  roster  "XFS FILESYSTEM"  fuzz@example.org class=fuzzer
 *	  cap     alice@example.org day=5 week=20
 *	  cap     *                 day=10 week=40
 *	  away    bob@example.org   2026-12-20 2027-01-05
 *
 *	pick_config_load() warns, with file:line, about a bad address, a
 *	bad date or number, an unknown class, and (when given a map) a
 *	section title MAINTAINERS does not have; the bad record, or the
 *	bad part of it, is ignored.
 *
 * Ownership:
 *	struct pick_config owns its strings; pick_config_free() frees it.
 *	struct pick_result owns every string and the candidate array;
 *	pick_result_release() frees them.  The request's pointers are
 *	borrowed for the duration of the call.
 *
 * Errors:
 *	pick_recipient() fails only when the load callback does (a
 *	database error): it returns -1, and the caller must not act on
 *	the result, so that an unreadable load never counts as none and a
 *	cap never fails open.  Otherwise the outcome says what was found.
 */
#ifndef TRIAGE_PICK_H
#define TRIAGE_PICK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

struct config;
struct evidence;
struct experts;
struct map;

#define PICK_EXPERTS	  4 /* experts considered for a file */
#define PICK_FILES	  8 /* evidence files tried for experts */
#define PICK_UNLIMITED	  (-1)
#define PICK_REASON_NOTES 4 /* unavailable people named in a reason */

enum pick_class_bit {
	PICK_CLASS_USER = 1 << 0,
	PICK_CLASS_FUZZER = 1 << 1,
	PICK_CLASS_AI = 1 << 2,
	PICK_CLASS_UNCERTAIN = 1 << 3,
	PICK_CLASS_ALL = 0xf,
};

struct pick_roster {
	char *section; /* title as written in routes.conf */
	char **addrs;
	size_t naddrs;
	unsigned classes; /* PICK_CLASS_* */
	const char *file;
	unsigned line;
};

struct pick_cap {
	char *addr;    /* "*" for the default */
	int day, week; /* PICK_UNLIMITED when not given */
};

struct pick_away {
	char *addr;
	time_t from, until; /* [from, until): local midnights */
	char to[11];	    /* the last day, as written, for reasons */
};

struct pick_config {
	struct pick_roster *rosters;
	size_t nrosters;
	struct pick_cap *caps;
	size_t ncaps;
	struct pick_cap def; /* from "cap *" */
	struct pick_away *aways;
	size_t naways;
	double expert_min_score;
};

enum pick_role {
	PICK_ROSTER,	 /* routes.conf roster */
	PICK_TRIAGER,	 /* B: mailto: */
	PICK_EXPERT,	 /* Reviewed-by history */
	PICK_MAINTAINER, /* M: */
	PICK_REVIEWER,	 /* R: */
	PICK_LIST,	 /* L: */
};

enum pick_status {
	PICK_UNCHECKED, /* not needed: a better tier answered */
	PICK_AVAILABLE, /* could have taken it */
	PICK_CHOSEN,	/* the recipient */
	PICK_SATURATED, /* at a cap */
	PICK_AWAY,	/* an away record covers today */
	PICK_REPORTER,	/* sent the report */
	PICK_SUGGESTED, /* unmapped report: a person a triager may pick */
	PICK_DECLINED,	/* gave this report back ("#triage notme") */
};

struct pick_candidate {
	char *addr; /* lower-case bare address */
	char *name; /* display name, or "" */
	enum pick_role role;
	int section;	    /* map section, or -1 (experts) */
	double score;	    /* expert score, 0 otherwise */
	unsigned day, week; /* reports given today / this week */
	int cap_day, cap_week;
	enum pick_status status;
	char *why; /* "roster for XFS FILESYSTEM", "R: of ...", ... */
};

/*
 * why a PICK_TO_LIST pick ended on the section's list: what act_fallback()
 * (act.h) weighs before it publishes a report there
 */
enum pick_list_why {
	PICK_LIST_PASSED,    /* people were passed over: saturated, away, gave
			     it back (the overflow, for a triager) */
	PICK_LIST_ASKED,     /* the section's B: mailto: names its own list */
	PICK_LIST_NO_PERSON, /* the section names no person at all */
	PICK_LIST_REPORTER,  /* its only people are the reporter */
};

enum pick_outcome {
	PICK_PERSON,   /* a person was chosen */
	PICK_TO_LIST,  /* nobody available: the section's list */
	PICK_UNMAPPED, /* only THE REST, or no section: hold */
	PICK_NOBODY,   /* mapped, but no person and no list at all */
};

/* a section of the report, as the map stage ranked it */
struct pick_section {
	uint32_t section; /* map.h section id */
	double score;	  /* higher is better; equal scores are ties */
};

struct pick_request {
	const struct map *map;
	const struct pick_section *sections; /* best first */
	size_t nsections;
	const struct evidence *ev; /* may be NULL */
	const char *reporter;	   /* "Name <addr>" or bare; may be NULL */
	const char *class;	   /* "user", "fuzzer", "ai", "uncertain" */
	const struct pick_config *cfg;
	const struct experts *ex; /* may be NULL */
	/*
	 * reports given to addr since day_start (*day) and since
	 * week_start (*week), in one look: 0, or -1 when they cannot be
	 * read (pick_recipient() then fails); NULL means none.  With a
	 * database, call the pick inside the transaction that records
	 * its choice (audit_pick_load()).
	 */
	int (*load)(void *ctx, const char *addr, time_t day_start,
		    time_t week_start, unsigned *day, unsigned *week);
	void *load_ctx;
	/*
	 * what addr declared of itself by mail ("#triage away", "#triage
	 * cap"; audit_pick_person()), called with load_ctx: *away_until
	 * (0: not away; away while now is before it) and *cap_day
	 * (PICK_UNLIMITED: none; the smaller of it and routes.conf's day
	 * cap holds); 0, or -1 (the pick then fails, as for load); NULL:
	 * nothing declared
	 */
	int (*person)(void *ctx, const char *addr, time_t *away_until,
		      int *cap_day);
	/* bare addresses never picked for this report ("#triage notme") */
	char *const *declined;
	size_t ndeclined;
	time_t now; /* 0: time(NULL) */
};

struct pick_result {
	enum pick_outcome outcome;
	char *addr;   /* recipient, NULL unless PERSON or TO_LIST */
	char *name;   /* display name, or "" */
	char *reason; /* always set */
	int section;  /* the section it was picked for, or -1 */
	char *bug_url; /* that section's non-mailto B: (act may reply), or NULL */
	/*
	 * PICK_TO_LIST: why the list (list_why), and the annotation of its
	 * L: line ("(moderated for non-subscribers)"), or NULL
	 */
	enum pick_list_why list_why;
	char *list_note;
	struct pick_candidate *cand;
	size_t ncand;
};

/* configuration */
struct pick_config *pick_config_load(const struct config *cfg,
				     const struct map *map);
void pick_config_free(struct pick_config *pc);
unsigned pick_class_bits(const char *class);

/* the stage */
/* pick_recipient - 0, or -1 when rq->load failed (res holds no choice) */
int pick_recipient(const struct pick_request *rq, struct pick_result *res);
void pick_result_release(struct pick_result *res);
void pick_suggest(struct pick_result *res, const char *addr, const char *why);
const char *pick_role_name(enum pick_role role);
const char *pick_status_name(enum pick_status status);
const char *pick_outcome_name(enum pick_outcome outcome);

#endif
