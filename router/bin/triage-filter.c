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
 *
 *	With 'transport = sendmail' the mail is sent after the commit by
 *	a child process, which records each result; the filter waits for
 *	it.  Killed at any point, the filter leaves either the forward
 *	queued (the MTA's redelivery, or the next run, sends it) or the
 *	child finishing the send and its record: never a forward cut
 *	short, never one sent again (tests/cli/t0600-kill.sh).  Only a
 *	death of the child itself between sendmail's acceptance and the
 *	record (or of the machine) still sends a forward twice, when its
 *	lease ends; both copies carry the same Resent-Message-ID.
 *
 *	TRIAGE_PROFILE=1 in the environment (a benchmark's switch, never
 *	set by the MTA) adds a second stderr line at exit: the process CPU
 *	time in microseconds spent before main() (exec, loader) and in each
 *	stage, and the resident memory split into anonymous and file pages
 *	(bench/filter.sh prints it).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <malloc.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sysexits.h>
#include <time.h>
#include <unistd.h>

#include "audit.h"
#include "config.h"
#include "deliver.h"
#include "intake.h"
#include "outbox.h"
#include "parse.h"
#include "pipeline.h"
#include "record.h"
#include "report.h"
#include "resident.h"
#include "sqlmem.h"
#include "thread.h"
#include "util.h"

#define SENDMAIL_AFTER_COMMIT 8 /* due rows the filter may send itself */
#define PROF_MAX	      16
#define WATCH_INTERVAL	      1 /* s: stat() the inputs at least this often */

/* TRIAGE_PROFILE: process CPU time at the end of each stage */
static struct {
	bool on;
	unsigned n;
	const char *name[PROF_MAX];
	double us[PROF_MAX];
	long flt[PROF_MAX]; /* minor page faults so far */
	double base; /* a resident worker's CPU time when the message came */
	long flt_base;
} prof;

static double cpu_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* stage - with TRIAGE_PROFILE, note that the stage called name ended */
static void stage(const char *name)
{
	struct rusage ru;

	if (prof.on && prof.n < PROF_MAX) {
		prof.name[prof.n] = name;
		prof.flt[prof.n] =
			getrusage(RUSAGE_SELF, &ru) < 0 ? 0 : ru.ru_minflt;
		prof.us[prof.n++] = cpu_us();
	}
}

/* rollup - a "Name: N kB" field of /proc/self/smaps_rollup, or -1 */
static long rollup(const char *text, const char *field)
{
	const char *p = strstr(text, field);

	return p ? strtol(p + strlen(field), NULL, 10) : -1;
}

/* prof_report - the one profile line (stages in microseconds) */
static void prof_report(void)
{
	char line[1024], faults[512], smaps[4096];
	size_t len = 0, fl, n = 0;
	struct rusage ru;
	unsigned i;
	FILE *f;

	if (!prof.on)
		return;
	stage("exit");
	for (i = 0; i < prof.n && len < sizeof(line); i++)
		len += (size_t)snprintf(
			line + len, sizeof(line) - len, "%s=%.0f ",
			prof.name[i],
			prof.us[i] - (i ? prof.us[i - 1] : prof.base));
	f = fopen("/proc/self/smaps_rollup", "r");
	if (f) {
		n = fread(smaps, 1, sizeof(smaps) - 1, f);
		fclose(f);
	}
	smaps[n] = '\0';
	if (getrusage(RUSAGE_SELF, &ru) < 0)
		ru.ru_maxrss = -1;
	for (i = 0, fl = 0; i < prof.n && fl < sizeof(faults); i++)
		fl += (size_t)snprintf(
			faults + fl, sizeof(faults) - fl, " %s=%ld",
			prof.name[i],
			prof.flt[i] - (i ? prof.flt[i - 1] : prof.flt_base));
	fprintf(stderr,
		"triage-filter: profile us: %stotal=%.0f; rss_kib=%ld anon=%ld file=%ld maxrss_kib=%ld; faults:%s\n",
		line, prof.us[prof.n - 1] - prof.base, rollup(smaps, "\nRss:"),
		rollup(smaps, "\nPss_Anon:"), rollup(smaps, "\nPss_File:"),
		(long)ru.ru_maxrss, faults);
}

/* set once the report is committed: from then on the answer is 0 */
static volatile sig_atomic_t committed;
struct filter;
/* a resident worker's (-l) state; NULL in a one-shot run */
static struct filter *worker_fx;
/* CLOCK_MONOTONIC seconds when filter_timeout runs out; 0: none */
static double deadline;

/* dirty pages kept before a spill: above a whole INTAKE_MAX_BYTES row */
#define FILTER_SPILL_KIB ((INTAKE_MAX_BYTES >> 10) + 4096)
/*
 * clean pages kept: a message reads some 100 pages, and a worker kept
 * SQLite's default 2,000 KiB of them, where this is enough for the CPU
 * to stay the same ('make bench' shows a worker's memory)
 */
#define FILTER_CACHE_KIB 512
/*
 * A resident worker's malloc: a block this large is mapped for itself
 * (and given back when freed), and after a message this large the free
 * pages inside the heap are given back too (malloc_trim)
 */
#define WORKER_MMAP_BYTES (256 << 10)
/* free memory at the top of a worker's heap given back above this */
#define WORKER_TRIM_BYTES (1 << 20)
/* what the one-shot filter's heap grows by at a time (M_TOP_PAD) */
#define FILTER_HEAP_PAD (4 << 20)
/* the transparent huge page size, as the kernel tells it */
#define THP_SIZE_FILE "/sys/kernel/mm/transparent_hugepage/hpage_pmd_size"

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
	/* resident: the client says it, in its one line */
	if (!worker_fx)
		w = write(2, m, sizeof(m) - 1);
	(void)w;
	_exit(EX_TEMPFAIL);
}

/* the deadline of one message (filter_timeout) */
static void limit_time(const struct config *cfg)
{
	long secs = config_int(cfg, "filter_timeout");

	committed = 0;
	deadline = 0;
	if (secs > 0 && secs < 900) {
		deadline = mono_seconds() + (double)secs;
		alarm((unsigned)secs);
	}
}

/* the memory of the process (filter_memory_mb) */
static void limit_memory(const struct config *cfg)
{
	long mb = config_int(cfg, "filter_memory_mb");
	struct rlimit rl;

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
 * send_detached - send_after_commit() in a child process that outlives
 * us.  A filter killed while sendmail ran (a crash, the OOM killer, a
 * kill -9) left sendmail a message cut short at EOF, which sendmail
 * accepts, and a row leased but never marked sent, which went out again
 * when the lease ended (tests/cli/t0600-kill.sh found both, many
 * times over 200 messages).  The child
 * owns the whole send and its record; the filter only waits for it.  So
 * a filter killed at any point leaves either the row queued (the
 * redelivery sends it) or the child finishing it.  SQLite connections
 * must not cross fork(): ours is closed first, the child opens its own.
 */
static void send_detached(struct audit **db, const char *dbpath,
			  const struct config *cfg, int busy_ms)
{
	struct audit *cdb = NULL;
	bool temporary = false;
	pid_t pid;
	int status;

	audit_close(*db);
	*db = NULL;
	fflush(NULL);
	pid = fork();
	if (pid > 0) {
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		return;
	}
	/* the child, or ourselves when fork() failed */
	if (audit_open(dbpath, AUDIT_FILTER, busy_ms, &cdb, &temporary) == 0) {
		send_after_commit(cdb, cfg);
		audit_close(cdb);
	}
	if (pid == 0)
		_exit(0);
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
	/* a Message-ID is a duplicate only from its own sender */
	int kind = audit_find_duplicate_from(db, r, &id);

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
			"same Message-ID and sender as an earlier report; not forwarded again";
		if (audit_insert_decision(db, dup, &d, NULL) < 0)
			return -1;
		*done = true;
	}
	return 0;
}

/*
 * What one process keeps: everything for a single message, or, in a
 * resident worker, what the messages it serves share.
 */
struct filter {
	const char *config_path;
	struct config *cfg;
	struct router_id id;
	char *dbpath;
	int busy_ms;
	struct audit *db; /* a resident worker keeps it open */
	bool resident;
	int conn; /* resident: the client, answered at the commit */
	char ident_cfg[RESIDENT_PATH_MAX], ident_state[RESIDENT_PATH_MAX];
	/* resident: the pipeline, kept, and what it was loaded from */
	struct pipeline p;
	bool p_open;
	struct resident_watch inputs;
	unsigned served, max_use;
	bool large; /* resident: the message served was large: trim after it */
	volatile int stop;
};

static int filter_setup(struct filter *fx, const char *config_path)
{
	fx->config_path = config_path;
	fx->cfg = config_load(config_path);
	if (!fx->cfg)
		return -1;
	/* a bad value is the default's; the mail flows (routes.conf(5)) */
	config_report(fx->cfg, CONFIG_ONE_LINE);
	limit_memory(fx->cfg);
	fx->dbpath = config_state_path(fx->cfg, "triage.db");
	/* root in a state directory others can write: deferred (75) */
	if (root_refuses_dir(fx->dbpath) ||
	    router_id_load(&fx->id, fx->cfg) < 0) {
		free(fx->dbpath);
		fx->dbpath = NULL;
		config_free(fx->cfg);
		fx->cfg = NULL;
		return -1;
	}
	fx->busy_ms = (int)config_int(fx->cfg, "db_busy_timeout");
	fx->conn = -1;
	return 0;
}

static void filter_cleanup(struct filter *fx)
{
	if (fx->p_open)
		pipeline_close(&fx->p);
	fx->p_open = false;
	resident_watch_release(&fx->inputs);
	if (fx->db)
		audit_close(fx->db);
	fx->db = NULL;
	stage("db_close");
	free(fx->dbpath);
	config_free(fx->cfg);
}

/*
 * filter_db - the connection, opened (and the database created) on the
 * first message; a resident worker keeps it.  -1 when it cannot be.
 */
static int filter_db(struct filter *fx)
{
	bool temporary = false;

	if (!fx->db) {
		if (audit_open(fx->dbpath, AUDIT_CREATE | AUDIT_FILTER,
			       fx->busy_ms, &fx->db, &temporary) < 0) {
			error("cannot open the database '%s'", fx->dbpath);
			return -1;
		}
		/*
		 * Keep the transaction's dirty pages in memory, never
		 * spilled to the WAL before COMMIT: a 2 MB report's 520
		 * overflow pages passed the default 2 MB cache, a page
		 * spilled early was written again at COMMIT, and SQLite
		 * then re-read every frame after it to redo the WAL
		 * checksums (a pread and a pwrite per frame).  At most
		 * INTAKE_MAX_BYTES of message, so
		 * bounded.  Clean pages: FILTER_CACHE_KIB.  Once per
		 * connection (a worker's lasts).
		 */
		audit_set_cache(fx->db, FILTER_CACHE_KIB, FILTER_SPILL_KIB);
	}
	return 0;
}

/* message_kind - what the message is; what must be held is a report */
static void message_kind(const struct report *r, const char *hold,
			 struct decision *d)
{
	pipeline_begin(r, d);
	d->hold = hold;
	if (hold && d->kind.kind != KIND_REPORT) {
		/*
		 * A loop, a bounce or an automatic reply is held as a
		 * message of its own, whatever it looks like: it answers our
		 * own mail and a triager looks at it in 'triage pending'.
		 */
		d->kind.kind = KIND_REPORT;
		snprintf(d->kind.why, sizeof(d->kind.why), "%.*s",
			 (int)sizeof(d->kind.why) - 1, hold);
	}
}

/*
 * route_locked - under the write lock: the pick, act and crash group of
 * a new report, what a known follow-up adds; -1 on a database error
 * (the caller rolls back)
 */
static int route_locked(struct audit *db, struct pipeline *p,
			const struct report *r, struct decision *d, time_t now)
{
	if (d->kind.kind == KIND_REPORT) {
		/* a load the pick cannot read defers: it is never zero */
		if (pipeline_route(p, r, now, d) < 0)
			return -1;
		/* a new report of a known crash joins its first report */
		if (!d->hold && link_crash(db, d, &d->link) < 0)
			return -1;
	} else if (d->kind.kind == KIND_FOLLOWUP && d->link.thread_root) {
		/* what a follow-up adds to its report, whoever wrote it: a
		 * stranger's is recorded with it, not sent on
		 * (record_followup()) */
		pipeline_evidence(p, r, d);
	}
	if (d->hold && d->kind.kind == KIND_REPORT) {
		d->act.action = ACT_HOLD;
		d->act.reply = false;
		snprintf(d->act.reason, sizeof(d->act.reason), "%s", d->hold);
	}
	return 0;
}

/*
 * What a one-shot run leaves allocated when its message is done: the
 * process ends right after, and the kernel takes back its heap and
 * mapped indexes at once, where freeing them piece by piece (a rules
 * snapshot's 2,000 allocations, the indexes unmapped) only touched
 * pages.  Kept here, reachable, so that a leak checker does not take
 * them for lost; a resident worker, and 'triage', free the same
 * things after every message.  A sanitizer build frees all, as before,
 * and LeakSanitizer checks it at exit().
 */
#ifdef __SANITIZE_ADDRESS__
#define ONESHOT_KEEPS 0
#else
#define ONESHOT_KEEPS 1
#endif
struct oneshot {
	struct decision d;
	struct pipeline p;
	struct report *r;
	struct config *cfg;
	char *dbpath;
	struct audit *db; /* left open when its close writes nothing */
};
/*
 * On the heap, which a one-shot run has mapped already (on a huge page,
 * heap_on_huge_pages()): the 7 KB as a static took two page faults
 * of zero pages of its own for the copy.
 */
static struct oneshot *oneshot
	__attribute__((used)); /* only written: used keeps the stores */

/* filter_message - one message from fd, to its commit; 0 or EX_TEMPFAIL */
static int filter_message(struct filter *fx, int fd)
{
	const struct config *cfg = fx->cfg;
	struct report *r;
	struct pipeline own, *p = &own;
	struct decision d;
	struct record_result rec;
	struct intake_limits lim;
	struct intake_scan scan;
	struct link_trust trust;
	bool done = false;
	const char *hold;
	char why[200];
	time_t now = time(NULL);
	int ret = EX_TEMPFAIL;

	limit_time(cfg);
	stage("config");

	/* intake: always read all of stdin, before anything can fail */
	r = report_new();
	intake_limits_init(&lim);
	if (intake_read_fd_scan(fd, &lim, r, &scan) < 0) {
		report_free(r);
		return EX_TEMPFAIL;
	}
	intake_envelope_env(r);
	fx->large = r->raw_len >= WORKER_MMAP_BYTES;
	stage("intake");

	if (filter_db(fx) < 0)
		goto out;
	stage("db_open");

	if (parse_init() < 0 || parse_report_scanned(r, &lim, &scan) < 0) {
		/* Unparseable mail is still a report: keep it, held. */
		r->flags |= REPORT_MALFORMED;
	}
	hold = must_hold(r, fx->id.address, &lim, why, sizeof(why));
	stage("parse");
	/* what the message is, before anything is decided about it */
	message_kind(r, hold, &d);
	stage("kind");

	/* a resident worker keeps its pipeline while its inputs stay */
	if (fx->resident) {
		if (!fx->p_open)
			pipeline_open(&fx->p, cfg);
		fx->p_open = true;
		p = &fx->p;
	} else {
		pipeline_open(p, cfg);
	}
	stage("indexes");
	pipeline_kind_sender(p, r,
			     &d); /* what MAINTAINERS says of its sender */
	p->load = audit_pick_load;
	p->load_ctx = fx->db;
	p->person = audit_pick_person;
	p->sendable = parse_sendable;
	/* the token key: forwards carry the report's token, replies name it */
	trust.key = router_token_key(&fx->id);
	trust.map = p->map;
	trust.archive = fx->id.archive;
	trust.local = fx->id.local;
	trust.authserv_id = config_get(cfg, "authserv_id");
	if (!trust.key)
		goto out_pipeline;

	/*
	 * A reply joins its thread, and takes its kind there (a reply
	 * under a patch is a review), before anything is classified: a
	 * follow-up is never classified as a new report.  Not what must
	 * be held: a loop, a bounce or an automatic reply answers our own
	 * mail and stays a held message of its own.  The lookup only
	 * reads, and so does the judgment of a new report: both run
	 * before the write lock, which concurrent filters wait for.
	 */
	if (!hold && link_thread_trusted(fx->db, &trust, r, &d, &d.link) < 0) {
		error("cannot look up the thread: %s", audit_errmsg(fx->db));
		goto out_pipeline;
	}
	stage("thread");
	if (d.kind.kind == KIND_REPORT)
		pipeline_judge(p, r, &d);
	stage("judge");

	/*
	 * One write transaction from here to the commit: the duplicate
	 * check, the loads the pick weighs and the assignment are read and
	 * written under the same lock.
	 */
	if (audit_begin(fx->db) < 0)
		goto out_pipeline;
	if (handle_duplicate(fx->db, r, now, &done) < 0)
		goto rollback;
	if (done)
		goto record;
	if (route_locked(fx->db, p, r, &d, now) < 0)
		goto rollback;
	stage("pipeline");
	if (record_decision(fx->db, p, &fx->id, r, &d, now, &rec) < 0)
		goto rollback;
record:
	stage("record");
	if (audit_commit(fx->db) < 0)
		goto rollback;
	committed = 1;
	ret = 0;
	/* the client's answer, before anything that is only an optimisation */
	if (fx->resident)
		resident_answer(&fx->conn, RESIDENT_DONE);
	stage("commit");

	/*
	 * Committed: the report is safe.  Sending now is an optimisation.
	 * A redelivery also sends: the run that committed may have died
	 * before sending.
	 */
	if ((done || rec.outbox > 0 || rec.reply > 0) &&
	    config_is(cfg, "transport", "sendmail"))
		send_detached(&fx->db, fx->dbpath, cfg, fx->busy_ms);
	goto out_pipeline;
rollback:
	audit_rollback(fx->db);
	error("cannot record the report: %s", audit_errmsg(fx->db));
	/* a resident worker starts the next message on a new connection */
	if (fx->resident) {
		audit_close(fx->db);
		fx->db = NULL;
	}
out_pipeline:
	if (!fx->resident && ONESHOT_KEEPS) {
		/* the process ends with its message: kept (oneshot) */
		oneshot = xcalloc(1, sizeof(*oneshot));
		oneshot->d = d;
		oneshot->p = own;
		oneshot->r = r;
		stage("free");
		alarm(0);
		return ret;
	}
	decision_release(&d);
	if (!fx->resident)
		pipeline_close(p);
out:
	stage("free");
	report_free(r);
	alarm(0);
	return ret;
}

/* ---- the resident filter (-l) ------------------------------------------- */

/*
 * the record of the client being served: a worker's, allocated when it
 * starts (16 KB of zero pages beside the one-shot filter's statics would
 * put them on pages of their own, a page fault apiece)
 */
static char *request;
/* the worker's signal mask while it waits for a client */
static sigset_t waitmask;

static void on_worker_stop(int sig)
{
	(void)sig;
	if (worker_fx)
		worker_fx->stop = 1;
}

/*
 * worker_stale - end this worker (the supervisor starts a fresh one)
 * after max_use messages, or once routes.conf or any file its pipeline
 * was loaded from changed ('triage update', an edited rule): checked
 * with the next client already waiting, which a fresh worker serves
 */
static bool worker_stale(void *ctx)
{
	struct filter *fx = ctx;

	if (fx->max_use && fx->served >= fx->max_use)
		return true;
	return resident_watch_changed(&fx->inputs);
}

/* set_env - the client's envelope in our environment, for intake */
static void set_env(const struct resident_request *req)
{
	static const char *const names[] = RESIDENT_ENV;
	unsigned i;

	for (i = 0; names[i]; i++) {
		if (req->env[i])
			setenv(names[i], req->env[i], 1);
		else
			unsetenv(names[i]);
	}
}

static double declining_until;

static bool declined_enough(void *ctx)
{
	(void)ctx;
	return now_seconds() > declining_until;
}

/*
 * decline_for_a_while - a worker that cannot load routes.conf still
 * answers: each client runs triage-filter itself, which says what is
 * wrong in its one line and defers, at once rather than after the MTA's
 * time limit.  After 5 s the worker ends and the supervisor tries again.
 */
static int decline_for_a_while(int lfd, struct filter *fx)
{
	struct resident_request req;
	int fds[2];

	declining_until = now_seconds() + 5;
	while (resident_accept(lfd, request, &req, fds, &fx->conn, &fx->stop,
			       &waitmask, declined_enough, NULL) == 1) {
		close(fds[0]);
		close(fds[1]);
		resident_answer(&fx->conn, RESIDENT_DECLINE);
	}
	return -1;
}

static int worker_serve(void *ctx, int lfd)
{
	struct filter *fx = ctx;
	struct resident_watch *w;
	struct resident_request req;
	struct stat before;
	bool conf;
	struct sigaction sa;
	struct rusage ru;
	sigset_t stops;
	int fds[2], own_err = dup(2), ret;

	worker_fx = fx;
	request = xmalloc(RESIDENT_REQUEST_MAX + 1);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_worker_stop;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	/*
	 * Blocked but while resident_accept() waits: a message is always
	 * finished, and a stop that comes just before the wait is not lost
	 * (under valgrind one did, and the worker waited for ever).
	 */
	sigemptyset(&stops);
	sigaddset(&stops, SIGTERM);
	sigaddset(&stops, SIGINT);
	sigprocmask(SIG_BLOCK, &stops, &waitmask);
	sigdelset(&waitmask, SIGTERM);
	sigdelset(&waitmask, SIGINT);
	/*
	 * What this worker serves, resolved now, not when the supervisor
	 * started: a routes.conf link retargeted since is served by the
	 * fresh worker that replaces a stale one.  And routes.conf as it
	 * was before loading it: a change while it loads is seen.
	 */
	resident_identity(fx->config_path, fx->ident_cfg, fx->ident_state);
	memset(&before, 0, sizeof(before));
	stat(fx->ident_cfg, &before);
	if (own_err < 0 || filter_setup(fx, fx->config_path) < 0)
		return decline_for_a_while(lfd, fx);
	w = &fx->inputs;
	conf = fx->cfg->path && fx->cfg->path[0] == '/';
	if (conf)
		w->paths[w->n++] = xstrdup(fx->cfg->path);
	w->n += pipeline_inputs(fx->cfg, w->paths + w->n,
				RESIDENT_WATCH_MAX - w->n);
	resident_watch_start(w, WATCH_INTERVAL);
	if (conf)
		w->seen[0] = before;
	if (parse_init() < 0)
		return -1;
	/*
	 * A worker lives for many messages: a large buffer (a 2 MB
	 * report's) is mapped for itself and given back when freed, and
	 * free memory at the top of the heap goes back too.  A fixed
	 * threshold: malloc's default one rises to the largest block
	 * freed, and every 2 MB report then grew the heap for good.
	 */
	mallopt(M_MMAP_THRESHOLD, WORKER_MMAP_BYTES);
	mallopt(M_TRIM_THRESHOLD, WORKER_TRIM_BYTES);

	while (resident_accept(lfd, request, &req, fds, &fx->conn, &fx->stop,
			       &waitmask, worker_stale, fx) == 1) {
		/* another configuration: the client runs triage-filter */
		if (!resident_same(req.config, fx->ident_cfg) ||
		    !resident_same(req.state, fx->ident_state)) {
			close(fds[0]);
			close(fds[1]);
			resident_answer(&fx->conn, RESIDENT_DECLINE);
			continue;
		}
		set_env(&req);
		/* the client's TRIAGE_PROFILE, by name (not CLIENT_ADDRESS) */
		prof.on = getenv("TRIAGE_PROFILE") != NULL;
		prof.n = 0;
		prof.base = prof.on ? cpu_us() : 0;
		prof.flt_base = 0;
		if (prof.on && getrusage(RUSAGE_SELF, &ru) == 0)
			prof.flt_base = ru.ru_minflt;
		stage("start");
		msg_setup("triage-filter", EX_TEMPFAIL, true);
		dup2(fds[1], 2);
		ret = filter_message(fx, fds[0]);
		fx->served++;
		if (ret != 0)
			resident_answer(&fx->conn, RESIDENT_TEMPFAIL);
		prof_report();
		fflush(stderr);
		dup2(own_err, 2);
		close(fds[0]);
		close(fds[1]);
		msg_setup("triage-filter", 1, false);
		/*
		 * What a large message took is free again but scattered
		 * through the heap (SQLite's pages of it among what lives
		 * on): give those pages back, or a worker that served one
		 * 2 MB report would keep its memory for the rest of its
		 * life.
		 */
		if (fx->large)
			malloc_trim(0);
	}
	filter_cleanup(fx);
	return 0;
}

static int resident(const char *config_path, const char *sock, unsigned n,
		    unsigned max_use)
{
	struct filter fx;
	int lfd, ret;

	memset(&fx, 0, sizeof(fx));
	fx.config_path = config_path;
	fx.resident = true;
	fx.max_use = max_use;
	/* the supervisor's lines go to the service's log, every one */
	msg_setup("triage-filter", 1, false);
	lfd = resident_listen(sock);
	if (lfd < 0)
		return 1;
	ret = resident_supervise(lfd, n, worker_serve, &fx);
	close(lfd);
	unlink(sock);
	return ret < 0 ? 1 : 0;
}

/*
 * heap_on_huge_pages - the one-shot filter's heap on a transparent huge
 * page: a block that is never used takes the heap from its free top
 * (as mallinfo2() tells it) to the next huge page boundary, and what
 * the heap grows by past that boundary is madvise(MADV_HUGEPAGE), so
 * that later allocations start on a huge page.  A message's stages
 * write about 1.5 MB of heap, SQLite's pages and statements most of
 * it: a page fault per 4 KB page otherwise, and on a virtual machine
 * that shadows page tables a trap to the hypervisor per page too
 * (mapping the pages ahead with MADV_POPULATE_WRITE left the second).
 * The block ends below the boundary, so that nothing is written past
 * it before the advice: a page mapped there would rule out the huge
 * page.  Where the kernel has no huge page at hand, or no support,
 * pages fault in one by one as before; the block is address space,
 * never touched.
 */
#ifndef __SANITIZE_ADDRESS__
static void *below_huge; /* kept: the process ends with its message */

static void heap_on_huge_pages(void)
{
	char buf[32];
	uintptr_t huge, cur, top, a, e;
	ssize_t n;
	int fd = open(THP_SIZE_FILE, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	huge = (uintptr_t)strtoul(buf, NULL, 10);
	if (huge < 4096 || (huge & (huge - 1)) || huge > FILTER_HEAP_PAD / 2)
		return;
	cur = (uintptr_t)sbrk(0);
	top = cur - mallinfo2().keepcost;
	a = (cur + 4096 + huge - 1) & ~(huge - 1);
	if (top > cur || a - top > FILTER_HEAP_PAD)
		return;
	/* past the free top: the heap grows by this and FILTER_HEAP_PAD */
	below_huge = malloc(a - top - 64);
	cur = (uintptr_t)sbrk(0);
	top = cur - mallinfo2().keepcost;
	e = cur & ~(huge - 1);
	if (below_huge && top < a && a < e)
		madvise((void *)a, e - a, MADV_HUGEPAGE);
}
#endif

/* filter - the one-shot filter: one message, then the process ends */
static int filter(const char *config_path)
{
	/*
	 * Static, zero as the process starts: 18 KB (the resident
	 * filter's watch lists among it) that a memset() on the stack
	 * wrote whole, a page fault per 4 KB page, where a one-shot run
	 * touches a few fields.  The process runs this once.
	 */
	static struct filter fx;
	int ret;

	/*
	 * One process, one message: grow the heap in large steps and
	 * never give it back, rather than a brk() per 128 KB and an
	 * mmap()/munmap() pair per large buffer (fewer system calls and
	 * page faults; pages are still touched only as used).  A
	 * resident worker sets its own (worker_serve()).
	 */
	mallopt(M_TOP_PAD, FILTER_HEAP_PAD);
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
	mallopt(M_MMAP_THRESHOLD, 4 << 20);
#ifndef __SANITIZE_ADDRESS__
	heap_on_huge_pages();
	/*
	 * Debian's SQLite has no lookaside: one message costs some
	 * 2,000 malloc/free pairs, cheaper from sqlmem's free lists,
	 * which never give memory back: what sqlmem.h allows only a
	 * process that ends after its message, never a resident worker
	 * (a sanitizer build keeps malloc, which it can check).  Before
	 * SQLite initialises.
	 */
	sqlmem_install();
#endif
	if (filter_setup(&fx, config_path) < 0)
		return EX_TEMPFAIL;
	ret = filter_message(&fx, 0);
	if (!ONESHOT_KEEPS) {
		filter_cleanup(&fx);
		return ret;
	}
	/* closed when the close writes; the rest stays allocated (oneshot) */
	audit_end(fx.db);
	stage("db_close");
	if (oneshot) {
		oneshot->db = fx.db;
		oneshot->cfg = fx.cfg;
		oneshot->dbpath = fx.dbpath;
	}
	return ret;
}

int main(int argc, char **argv)
{
	const char *config_path = NULL, *sock = NULL;
	unsigned long workers = 2, max_use = 10000;
	char *end;
	int c, ret;

	/* Whatever fails, the MTA keeps the message: exit 75, one line. */
	msg_setup("triage-filter", EX_TEMPFAIL, true);
	umask(007);
	signal(SIGALRM, on_alarm);
	signal(SIGPIPE, SIG_IGN);
	if (getenv("TRIAGE_PROFILE"))
		prof.on = true;
	stage("start");
	while ((c = getopt(argc, argv, "c:l:n:m:")) != -1) {
		switch (c) {
		case 'c':
			config_path = optarg;
			break;
		case 'l':
			sock = optarg;
			break;
		case 'n':
			workers = strtoul(optarg, &end, 10);
			if (*end || workers < 1 || workers > 64)
				goto usage;
			break;
		case 'm':
			max_use = strtoul(optarg, &end, 10);
			if (*end || max_use > 1000000000)
				goto usage;
			break;
		default:
			goto usage;
		}
	}
	if (!config_path && getenv("TRIAGE_CONFIG"))
		config_path = getenv("TRIAGE_CONFIG");
	if (sock)
		return resident(config_path, sock, (unsigned)workers,
				(unsigned)max_use);
	ret = filter(config_path);
	if (fflush(stdout) != 0)
		ret = EX_TEMPFAIL;
	prof_report();
	ret = ret == 0 ? 0 : EX_TEMPFAIL;
	if (!ONESHOT_KEEPS)
		return ret;
	/*
	 * Nothing is left to do at exit: the database is closed and
	 * nothing is buffered (stdout was flushed, stderr has no
	 * buffer).  The exit handlers and the destructors of some twenty
	 * libraries would only touch their pages.
	 */
	fflush(stderr);
	_exit(ret);
usage:
	error("usage: triage-filter [-c routes.conf] [-l socket [-n workers] [-m max-use]]");
	return EX_TEMPFAIL;
}
