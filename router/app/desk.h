/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * desk - what the triager's commands share: clock, login, database,
 *	  arguments and terminal output
 *
 * DESCRIPTION
 *	The triager's desk is a set of commands (pending, show, approve,
 *	reroute, reclassify, reject, note, stats, log, digest; triage(1))
 *	that read and annotate the audit database.  This module holds what
 *	they have in common, so that they behave alike:
 *
 *	Clock.  desk_now() is time(NULL), or the unix time in TRIAGE_NOW
 *	(for tests: ages, "today" and action times become reproducible).
 *
 *	Login.  desk_who() is the name recorded with every action: the
 *	login name of the real user id, or TRIAGE_USER (tests, shared
 *	accounts).  Either must be a plausible login name (1 to 32 of
 *	A-Z a-z 0-9 . _ -, not starting with "-").
 *
 *	Database.  desk_open() opens STATE_DIR/triage.db for reading or
 *	writing (never creating it: only the filter does) with the
 *	configured db_busy_timeout, and turns failures into exit
 *	statuses: EX_NOINPUT when there is no database, EX_NOPERM when the
 *	login may not read (or write) it, EX_TEMPFAIL when
 *	it is busy or otherwise temporarily unusable, EX_IOERR otherwise.
 *
 *	Arguments.  desk_parse_id() accepts a report id (a positive
 *	decimal, optionally written "#12"); desk_parse_since() accepts
 *	"Nh", "Nd", "Nw", "YYYY-MM-DD" (local midnight) or "all".
 *
 *	Output.  Everything printed from a report is untrusted text (a
 *	subject can carry escape sequences that reprogram a terminal, or
 *	Unicode bidi controls that reorder what is shown).  desk_clean()
 *	makes a string safe to print: C0 and C1 controls, DEL and bidi
 *	controls become "?" (in one-line mode tab, CR and LF become a
 *	space), invalid UTF-8 bytes become "?".  desk_width() counts the
 *	columns a cleaned string takes (East Asian wide characters two,
 *	combining marks none) and desk_fit() cuts and pads to a width.
 *
 *	Terminal.  desk_term_setup() decides, as git does, whether output
 *	goes to a person: colour when standard output is a terminal
 *	(never when NO_COLOR is set, whatever --color=auto; --color and
 *	--no-color decide otherwise), column widths only on a terminal,
 *	and a pager (PAGER, default "less -FRX" with LESS=FRX when unset,
 *	and LESSCHARSET=utf-8 unless LESSCHARSET or LESSCHARDEF is set:
 *	the output is UTF-8 in any locale; "" or "cat" means none) only
 *	on a terminal and without --no-pager.  desk_term_finish() flushes and waits for the pager.
 *
 * Ownership:
 *	Strings returned point into caller buffers or static text.
 *
 * Errors:
 *	Functions that can fail print a message and return -1 (or an exit
 *	status, where documented).
 */
#ifndef TRIAGE_DESK_H
#define TRIAGE_DESK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

struct audit;
struct config;
struct strbuf;

#define DESK_LOGIN_MAX 32
#define DESK_TEXT_MAX  4096 /* bytes of a note or a reason */

/* clock and login */
time_t desk_now(void);
bool desk_login_valid(const char *s);
int desk_who(char *buf, size_t size);

/* database */
enum desk_mode {
	DESK_READ,
	DESK_WRITE,
};

int desk_open(const struct config *cfg, enum desk_mode mode, struct audit **db);
int desk_busy(struct audit *db, const char *what);

/*
 * Bulk actions (approve, reroute, reclassify, reject): desk_parse_ids()
 * reads every id first (EX_USAGE, after a message, on a bad one; *ids is
 * then NULL); desk_each() runs one(arg, id) for each in its own
 * transaction and stops at the first database failure, saying which
 * reports were not VERB (desk_busy()); it returns 0 or that status.
 */
int desk_parse_ids(char *const *argv, int n, int64_t **ids);
int desk_each(struct audit *db, const int64_t *ids, int n, const char *verb,
	      int (*one)(void *arg, int64_t id), void *arg);

/* arguments */
int desk_parse_id(const char *s, int64_t *id);
int desk_parse_since(const char *s, time_t now, time_t *out);
time_t desk_midnight(time_t now, int days_back);

/* text */
enum {
	DESK_MULTILINE = 1 << 0, /* keep LF and TAB (bodies) */
};

void desk_clean(struct strbuf *out, const char *s, size_t len, unsigned flags);
size_t desk_width(const char *s);
void desk_fit(struct strbuf *out, const char *s, size_t width, bool pad);
void desk_format_age(time_t age, char *buf, size_t size);
void desk_format_time(time_t t, char *buf, size_t size);

/*
 * candidates - the pick stage's candidates as a decision stores them
 * (decisions.candidates: "address score status: why" per line)
 */
struct desk_candidate {
	char *addr;
	double score;
	char *status; /* "chosen", "available", "not needed", ... */
	char *why;
};

size_t desk_candidates(const char *text, struct desk_candidate **out);
void desk_candidates_free(struct desk_candidate *v, size_t n);

/*
 * Forwarding from the desk (approve, reroute): desk_forward() records a
 * forward decision (so that it counts toward the recipient's load, as
 * the filter's do) and queues the forward with forward_queue()
 * (forward.h), in the caller's transaction; returns the outbox id or -1;
 * security, when not NULL, marks it "X-Triage-Security: SECURITY" (a
 * report that looks security-sensitive, sent to a person or
 * security_address; a desk forward is copied to no list either way).
 * The router's identity comes from router_id_load().  desk_class_header()
 * is the X-Triage-Class value for a recorded report: the classifier's
 * header, or the triager's class when a reclassify changed it.
 * desk_drain() sends what is due right away when routes.conf says
 * "transport = sendmail" (as the filter does), and says what happened;
 * with the smtp transport it says that 'triage deliver' will send it
 * (on out; NULL: quietly).
 */
struct audit_record;
struct router_id;

int64_t desk_forward(struct audit *db, const struct router_id *rid,
		     const struct audit_record *rec, const char *addr,
		     const char *name, const char *cls, const char *section,
		     const char *reason, const char *candidates,
		     const char *security, time_t now);
const char *desk_class_header(const struct audit_record *rec);
/*
 * desk_security - why the filter found rec security-sensitive ("KASAN
 * memory-safety crash"), from its first (the filter's) decision's
 * security column, or NULL when it did not: data the filter wrote,
 * never a reason's words (which carry a sender's From or subject), nor
 * a later decision (issue 21)
 */
const char *desk_security(const struct audit_record *rec);
struct map;
/*
 * desk_public_target - where a security-looking report must never go:
 * addr is a MAINTAINERS L: list ("a MAINTAINERS list") or a security
 * contact ("security@...", or a person or list of a section that lists
 * Documentation/process/security-bugs.rst); without a map, every
 * address but a security@ one is unchecked and said so; NULL: a person
 */
const char *desk_public_target(const struct map *map, const char *addr);
/*
 * desk_forward_followups - after a thread's root was forwarded to addr
 * (approve, reroute): its follow-ups that waited with it (held) go to
 * addr too, in the caller's transaction, each as a follow-up decision
 * (not counted as load) and a forward; returns how many were queued,
 * or -1.  Only the reporter's: a follow-up from anyone else stays held
 * for its own decision, counted in *kept
 */
int desk_forward_followups(struct audit *db, const struct router_id *rid,
			   int64_t root, const char *addr, const char *name,
			   const char *cls, const char *section,
			   const char *reason, time_t now, unsigned *kept);
void desk_drain(const struct config *cfg, struct audit *db, unsigned queued,
		FILE *out);

/*
 * Outcomes of a bulk action: each ID is one transaction and gets one
 * line; desk_status_exit() is the exit status (EX_NOINPUT when some ID
 * is unknown, else EX_DATAERR when some action did not apply, else 0).
 */
struct desk_status {
	unsigned done, unknown, refused;
};

int desk_status_exit(const struct desk_status *st);

/* terminal */
enum desk_color_when {
	DESK_COLOR_AUTO,
	DESK_COLOR_NEVER,
	DESK_COLOR_ALWAYS,
};

struct desk_term {
	bool tty;	  /* standard output is a terminal: widths apply */
	bool color;	  /* use SGR colour codes */
	unsigned columns; /* terminal width (80 when unknown) */
	pid_t pager;	  /* 0: none */
};

int desk_color_option(const char *arg, enum desk_color_when *when);
void desk_term_setup(struct desk_term *t, enum desk_color_when when,
		     bool pager);
const char *desk_color(const struct desk_term *t, const char *sgr);
const char *desk_reset(const struct desk_term *t);
void desk_term_finish(struct desk_term *t);

/* colours (SGR parameters) */
#define DESK_RED     "31"
#define DESK_GREEN   "32"
#define DESK_YELLOW  "33"
#define DESK_BLUE    "34"
#define DESK_MAGENTA "35"
#define DESK_CYAN    "36"
#define DESK_BOLD    "1"
#define DESK_DIM     "2"

const char *desk_class_color(const char *cls);

#endif
