// SPDX-License-Identifier: GPL-2.0-only
/*
 * triage-filter - the MTA's per-message program (triage-filter(8))
 *
 * DESCRIPTION
 *	triage-filter [-c routes.conf]
 *
 *	Run by the MTA on the bugs alias ("|/usr/local/libexec/triage-
 *	filter"): reads one message on standard input as Postfix delivers
 *	it (mbox From_ line, Return-Path, Delivered-To), reads all of it,
 *	and runs intake -> parse -> evidence -> classify -> map -> pick ->
 *	act -> audit, then delivers when 'transport = sendmail'.
 *
 *	The exit status is the MTA contract (Postfix pipe_command()):
 *	0 only after the report, the decision and any outgoing mail are
 *	committed in one SQLite transaction; 75 (EX_TEMPFAIL) for anything
 *	else, so that the MTA keeps the message and retries.  Any other
 *	status would bounce the report to its (possibly forged) sender
 *	with our output pasted in, so there is none: nothing is written to
 *	standard output and at most one "triage-filter:" line to standard
 *	error.  A signal (a crash) also leaves the message queued.
 *
 *	Retries are idempotent: a message seen before (same bytes, or same
 *	Message-ID) is recorded as a duplicate and never forwarded twice.
 *	A message carrying our own X-Loop is held, never forwarded, and
 *	so are bounces (null envelope sender) and automatic replies
 *	(Auto-Submitted: auto-replied): they answer mail we sent.  A
 *	message over a limit of intake.h (REPORT_OVERSIZED) is recorded
 *	as far as the limits allow and held for a triager with the reason
 *	"oversize: ...": never dropped, and never deferred (it would never
 *	fit).
 *	A deadline (filter_timeout, default 120 s, well below Postfix's
 *	1000 s command_time_limit, which bounces) and a memory limit
 *	(filter_memory_mb, default 1024) turn a runaway into a deferral.
 *	Once the commit is done the deadline ends the run with 0, and the
 *	mail sent after the commit only starts a send the deadline leaves
 *	time for.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sysexits.h>
#include <time.h>
#include <unistd.h>

#include "audit.h"
#include "config.h"
#include "deliver.h"
#include "intake.h"
#include "link.h"
#include "outbox.h"
#include "parse.h"
#include "pipeline.h"
#include "record.h"
#include "report.h"
#include "util.h"

#define SENDMAIL_AFTER_COMMIT 8 /* due rows the filter may send itself */

/* set once the report is committed: from then on the answer is 0 */
static volatile sig_atomic_t committed;
/* CLOCK_MONOTONIC seconds when filter_timeout runs out; 0: none */
static double deadline;

static double mono_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void on_alarm(int sig)
{
	static const char m[] =
		"triage-filter: deadline passed; the message stays queued\n";
	ssize_t w;

	(void)sig;
	/* Committed: the report is safe, and 75 would only bring it back. */
	if (committed)
		_exit(0);
	w = write(2, m, sizeof(m) - 1);
	(void)w;
	_exit(EX_TEMPFAIL);
}

static void limits(const struct config *cfg)
{
	long secs = config_get_long(cfg, "filter_timeout", 120);
	long mb = config_get_long(cfg, "filter_memory_mb", 1024);
	struct rlimit rl;

	if (secs > 0 && secs < 900) {
		deadline = mono_seconds() + (double)secs;
		alarm((unsigned)secs);
	}
#ifndef __SANITIZE_ADDRESS__
	/* (AddressSanitizer's shadow is terabytes of address space) */
	if (mb > 0) {
		rl.rlim_cur = rl.rlim_max = (rlim_t)mb << 20;
		setrlimit(RLIMIT_AS, &rl);
	}
#else
	(void)mb;
	(void)rl;
#endif
}

/*
 * send_after_commit - hand due outbox rows to sendmail, one at a time,
 * only while the deadline leaves room for a whole send.  A send the
 * alarm cut short would leave its row leased ("sending") while sendmail
 * may still deliver it, and the row would go out again once the lease
 * ends; a row not tried now waits for the next run or 'triage deliver'.
 */
static void send_after_commit(struct audit *db, const struct config *cfg)
{
	struct outbox_sendmail sm;
	struct outbox_stats st = { 0, 0, 0 };
	time_t max_age = outbox_max_age(cfg);
	unsigned i;

	outbox_sendmail_config(&sm, cfg);
	for (i = 0; i < SENDMAIL_AFTER_COMMIT; i++) {
		double left = deadline > 0 ? deadline - mono_seconds() : 1e6;

		/* a second for recording the result after the send */
		if (left < 2)
			break;
		if ((left - 1) * 1000 < sm.timeout_ms)
			sm.timeout_ms = (unsigned)((left - 1) * 1000);
		/* mail only: Bugzilla write-backs are triage deliver's */
		if (outbox_drain(db, outbox_sendmail, &sm, 1,
				 (int)(sm.timeout_ms / 1000) * 2 + 5, max_age,
				 true, &st) != 1)
			break;
	}
}

/*
 * must_hold - why a report is held whatever its class, or NULL: our own
 * X-Loop (a forward that came back), or mail answering mail we sent: a
 * bounce or other delivery notification (null envelope sender, RFC 5321
 * 4.5.5) or an automatic reply (Auto-Submitted: auto-replied, RFC 3834).
 * Forwarded, those come back: with bounce_address left at the router's
 * address, a forward to a bad address bounced here, its bounce was a
 * "user" report mapped to the same section, forwarded again and bounced
 * again, twenty rounds until Postfix cut the growing bounce to headers.
 */
static const char *must_hold(const struct report *r, const char *router,
			     const struct intake_limits *lim, char *why,
			     size_t size)
{
	const char *as;

	if (deliver_is_loop(r->raw, r->raw_len, router)) {
		snprintf(why, size,
			 "mail loop: the message already carries X-Loop %s",
			 router);
		return why;
	}
	if (r->flags & REPORT_OVERSIZED) {
		/* over a limit: what was read is kept; a triager decides */
		intake_why(r, lim, why, size);
		return why;
	}
	if (r->envelope_from &&
	    (!*r->envelope_from || strcmp(r->envelope_from, "<>") == 0))
		return "null envelope sender: a bounce or delivery notification, never forwarded";
	as = report_header(r, "Auto-Submitted");
	if (as) {
		as += strspn(as, " \t");
		if (strncasecmp(as, "auto-replied", 12) == 0)
			return "Auto-Submitted: auto-replied: an automatic reply, never forwarded";
	}
	return NULL;
}

/* handle_duplicate - record a redelivery or a second copy; *done when so */
static int handle_duplicate(struct audit *db, const struct report *r,
			    time_t now, bool *done)
{
	int64_t id = 0, dup;
	int kind = audit_find_duplicate(db, r->sha256, r->message_id, &id);

	*done = false;
	if (kind < 0)
		return -1;
	if (kind == AUDIT_DUP_SHA256) {
		/* The MTA delivered the same bytes again: nothing new. */
		if (audit_note_redelivery(db, id, now) < 0)
			return -1;
		*done = true;
	} else if (kind == AUDIT_DUP_MESSAGE_ID) {
		struct audit_decision d;

		if (audit_insert_report(db, r, now, "duplicate", id, &dup) < 0)
			return -1;
		memset(&d, 0, sizeof(d));
		d.at = now;
		d.action = "duplicate";
		d.reason =
			"same Message-ID as an earlier report; not forwarded again";
		if (audit_insert_decision(db, dup, &d, NULL) < 0)
			return -1;
		*done = true;
	}
	return 0;
}

static int filter(const char *config_path)
{
	struct config *cfg;
	struct report *r;
	struct audit *db = NULL;
	struct pipeline p;
	struct decision d;
	struct router_id id;
	struct record_result rec;
	struct intake_limits lim;
	char *dbpath;
	bool temporary = false, done = false;
	const char *hold;
	char why[200];
	time_t now = time(NULL);
	int ret = EX_TEMPFAIL;

	cfg = config_load(config_path);
	if (!cfg)
		return EX_TEMPFAIL;
	limits(cfg);
	if (router_id_load(&id, cfg) < 0) {
		config_free(cfg);
		return EX_TEMPFAIL;
	}

	/* intake: always read all of stdin, before anything can fail */
	r = report_new();
	intake_limits_init(&lim);
	if (intake_read_fd(0, &lim, r) < 0) {
		report_free(r);
		config_free(cfg);
		return EX_TEMPFAIL;
	}
	intake_envelope_env(r);

	dbpath = config_state_path(cfg, "triage.db");
	if (audit_open(dbpath, AUDIT_CREATE | AUDIT_FILTER,
		       (int)config_get_long(cfg, "db_busy_timeout", 5000), &db,
		       &temporary) < 0) {
		error("cannot open the database '%s'", dbpath);
		goto out;
	}

	if (parse_init() < 0 || parse_report_limits(r, &lim) < 0) {
		/* Unparseable mail is still a report: keep it, held. */
		r->flags |= REPORT_MALFORMED;
	}
	hold = must_hold(r, id.address, &lim, why, sizeof(why));

	pipeline_open(&p, cfg);
	p.load = audit_pick_load;
	p.load_ctx = db;
	pipeline_run(&p, r, now, &d);
	if (hold) {
		d.act.action = ACT_HOLD;
		d.act.reply = false;
		snprintf(d.act.reason, sizeof(d.act.reason), "%s", hold);
	}

	if (audit_begin(db) < 0)
		goto out_pipeline;
	if (handle_duplicate(db, r, now, &done) < 0)
		goto rollback;
	/*
	 * A follow-up joins its thread; a known crash its first report.
	 * Not what must be held: a loop, a bounce or an automatic reply
	 * answers our own mail and stays a held report of its own.
	 */
	if (!done && !hold && link_find(db, r, &d, &d.link) < 0)
		goto rollback;
	if (!done && record_decision(db, &p, &id, r, &d, now, &rec) < 0)
		goto rollback;
	if (audit_commit(db) < 0)
		goto rollback;
	committed = 1;
	ret = 0;

	/* Committed: the report is safe.  Sending now is an optimisation. */
	if (!done && rec.outbox > 0 &&
	    strcmp(config_get(cfg, "transport", "smtp"), "sendmail") == 0)
		send_after_commit(db, cfg);
	goto out_pipeline;
rollback:
	audit_rollback(db);
	error("cannot record the report: %s", audit_errmsg(db));
out_pipeline:
	decision_release(&d);
	pipeline_close(&p);
out:
	if (db)
		audit_close(db);
	free(dbpath);
	report_free(r);
	config_free(cfg);
	return ret;
}

int main(int argc, char **argv)
{
	const char *config_path = NULL;
	int c, ret;

	/* Whatever fails, the MTA keeps the message: exit 75, one line. */
	msg_setup("triage-filter", EX_TEMPFAIL, true);
	umask(007);
	signal(SIGALRM, on_alarm);
	signal(SIGPIPE, SIG_IGN);
	while ((c = getopt(argc, argv, "c:")) != -1) {
		if (c == 'c') {
			config_path = optarg;
		} else {
			error("usage: triage-filter [-c routes.conf]");
			return EX_TEMPFAIL;
		}
	}
	if (!config_path && getenv("TRIAGE_CONFIG"))
		config_path = getenv("TRIAGE_CONFIG");
	ret = filter(config_path);
	if (fflush(stdout) != 0)
		ret = EX_TEMPFAIL;
	return ret == 0 ? 0 : EX_TEMPFAIL;
}
