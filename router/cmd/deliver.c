// SPDX-License-Identifier: GPL-2.0-only
/*
 * triage deliver - send the queued mail (the outbox worker)
 *
 * DESCRIPTION
 *	triage deliver [--once] [--daemon]
 *
 *	Drains the outbox of the audit database: every due row is claimed
 *	(a lease, so that several workers never send one row), sent, and
 *	its result recorded (outbox_drain()): sent; a temporary failure
 *	retried on deliver_backoff()'s schedule until delivery_max_age; a
 *	permanent one marks the report failed ('triage pending' shows it).
 *
 *	Mail goes over SMTP (smtp.h; one connection per run or wake-up,
 *	one transaction per recipient) or, with 'transport = sendmail',
 *	through sendmail -i.  Rows of kind "bugzilla" are write-back jobs
 *	('triage serve') and go to Bugzilla's REST API (bugzilla.h).
 *
 *	One pass by default (--once says so explicitly): sends what is
 *	due, then exits 0, or 75 when the database could not be used.
 *	--daemon loops: a pass, then a sleep of deliver_interval seconds
 *	(default 10) or until SIGTERM/SIGINT, which end it cleanly after
 *	the row being sent (its result is recorded; a row claimed but not
 *	sent is left to its lease).  The process keeps the database open,
 *	which also keeps the WAL index warm for triage-filter.
 *
 *	Before a pass, at most once a minute, the digest stage's
 *	digest_enqueue_due() queues the digests that are due, so that
 *	they go out with the rest.  A daemon (and 'triage serve') with
 *	remind = yes also runs 'triage remind --send' once a day, its first
 *	pass included (remind.h: a person still gets one a week at most).
 *
 *	routes.conf:
 *	  transport            smtp | sendmail            (smtp)
 *	  smtp_host            relay host                  (localhost)
 *	  smtp_port            port (0: 25, or 465 with smtps)
 *	  smtp_tls             none | may | starttls | smtps   (none)
 *	  smtp_helo            EHLO name                   (libcurl's)
 *	  smtp_user            AUTH user                   (none)
 *	  smtp_password_file   file holding the password (one line)
 *	  smtp_ca_file         PEM CA bundle for starttls/smtps
 *	  smtp_connect_timeout seconds                     (30)
 *	  smtp_timeout         seconds per transaction     (300)
 *	  deliver_interval     --daemon: seconds between passes (10)
 *	  delivery_max_age     give up after (5d)
 *	  remind               --daemon: reminders once a day (no)
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sysexits.h>
#include <time.h>
#include <unistd.h>

#include "audit.h"
#include "bugzilla.h"
#include "cmd.h"
#include "config.h"
#include "deliver.h"
#include "desk.h"
#include "strbuf.h"
#include "digest.h"
#include "remind.h"
#include "map.h"
#include "outbox.h"
#include "smtp.h"
#include "util.h"

#define BATCH	     16	   /* rows per outbox_drain() call */
#define LEASE_MARGIN 120   /* seconds added to the longest send */
#define DIGEST_EVERY 60	   /* seconds between looks for due digests */
#define REMIND_DAY   86400 /* remind = yes: reminders once a day */

struct deliverd {
	struct config *cfg;
	struct audit *db;
	bool sendmail;
	struct outbox_sendmail sm;
	struct smtp_config smtp;
	char *password;
	struct smtp_client *client; /* during a pass */
	bool client_failed;
	struct deliver_result client_res;
	struct bugzilla_config bc;
	struct bugzilla_client *bz;
	bool bz_tried;
	struct map *map; /* for the digests' recipients */
	bool map_tried;
	time_t digest_at; /* when due digests were last queued */
	bool remind;	  /* a daemon with remind = yes */
	time_t remind_at; /* when reminders were last queued */
	time_t max_age;
	int lease;
	unsigned interval;
};

/* tls_mode - smtp_tls (the table checked it: none, may, starttls, smtps) */
static enum smtp_tls tls_mode(const struct config *cfg)
{
	if (config_is(cfg, "smtp_tls", "may"))
		return SMTP_TLS_OPPORTUNISTIC;
	if (config_is(cfg, "smtp_tls", "starttls"))
		return SMTP_TLS_STARTTLS;
	if (config_is(cfg, "smtp_tls", "smtps"))
		return SMTP_TLS_IMPLICIT;
	return SMTP_TLS_NONE;
}

/* deliverd_open - the worker for cfg's transport; NULL after printing */
struct deliverd *deliverd_open(struct config *cfg, struct audit *db)
{
	struct deliverd *d = xcalloc(1, sizeof(*d));
	const char *pwfile;

	d->cfg = cfg;
	d->db = db;
	d->max_age = outbox_max_age(cfg);
	d->interval = (unsigned)config_int(cfg, "deliver_interval");
	if (config_is(cfg, "transport", "sendmail")) {
		d->sendmail = true;
		outbox_sendmail_config(&d->sm, cfg);
		d->lease = (int)(d->sm.timeout_ms / 1000) + LEASE_MARGIN;
		return d;
	}
	d->smtp.host = config_get(cfg, "smtp_host");
	d->smtp.port = (unsigned)config_int(cfg, "smtp_port"); /* 0: by TLS */
	d->smtp.tls = tls_mode(cfg);
	d->smtp.helo = config_get(cfg, "smtp_helo");
	d->smtp.user = config_get(cfg, "smtp_user");
	d->smtp.ca_file = config_get(cfg, "smtp_ca_file");
	d->smtp.connect_timeout_ms =
		config_int(cfg, "smtp_connect_timeout") * 1000;
	d->smtp.timeout_ms = config_int(cfg, "smtp_timeout") * 1000;
	pwfile = config_get(cfg, "smtp_password_file");
	if (d->smtp.user && !pwfile) {
		error("%s: smtp_user needs smtp_password_file", cfg->path);
		goto fail;
	}
	if (pwfile) {
		char *pw;
		size_t n;

		if (read_file(pwfile, 4096, &pw, NULL) < 0)
			goto fail;
		n = strlen(pw);
		while (n && (pw[n - 1] == '\n' || pw[n - 1] == '\r'))
			pw[--n] = '\0';
		d->password = pw;
		d->smtp.password = pw;
	}
	/* one transaction per recipient: a row has one (forward, reply) */
	d->lease = (int)((d->smtp.connect_timeout_ms + d->smtp.timeout_ms) /
			 1000) +
		   LEASE_MARGIN;
	return d;
fail:
	deliverd_close(d);
	return NULL;
}

void deliverd_close(struct deliverd *d)
{
	if (!d)
		return;
	smtp_client_free(d->client);
	bugzilla_client_free(d->bz);
	bugzilla_config_release(&d->bc);
	map_free(d->map);
	if (d->password)
		memset(d->password, 0, strlen(d->password));
	free(d->password);
	free(d);
}

void deliverd_daemon(struct deliverd *d)
{
	d->remind = config_bool(d->cfg, "remind");
}

/*
 * remind_daily - once a day, the reminders (remind.h): each person's
 * own weekly limit is kept in the database, so a restart that runs
 * them again sends nothing new
 */
static void remind_daily(struct deliverd *d, time_t now)
{
	struct remind_stats st;

	if (!d->remind || (d->remind_at && now - d->remind_at < REMIND_DAY))
		return;
	d->remind_at = now;
	if (remind_run(d->db, d->cfg, now,
		       (unsigned)config_int(d->cfg, "remind_after_days"), true,
		       stdout, &st) < 0)
		warn("remind: could not queue the reminders");
	fflush(stdout);
}

unsigned deliverd_interval(const struct deliverd *d)
{
	return d->interval;
}

/* send_bugzilla - a write-back job over REST */
static void send_bugzilla(struct deliverd *d,
			  const struct audit_outbox_item *it,
			  struct deliver_result *res)
{
	struct bugzilla_result br;

	if (!d->bz_tried) {
		d->bz_tried = true;
		if (bugzilla_config_load(&d->bc, d->cfg, NULL) == 0)
			d->bz = bugzilla_client_new(&d->bc);
	}
	if (!d->bz) {
		/* a configuration problem: keep the job until it is fixed */
		res->status = DELIVER_TEMPORARY;
		snprintf(res->detail, sizeof(res->detail),
			 "write-back: no usable bugzilla_url / API key");
		return;
	}
	bugzilla_writeback_run(d->bz, it->message, it->message_len,
			       it->attempts, &br);
	res->status = br.status;
	res->smtp_code = 0;
	snprintf(res->detail, sizeof(res->detail), "%s", br.detail);
}

static int rank(enum deliver_status s)
{
	return s == DELIVER_TEMPORARY ? 2 : s == DELIVER_PERMANENT ? 1 : 0;
}

/* send_smtp - one transaction per recipient; the worst result wins */
static void send_smtp(struct deliverd *d, const struct audit_outbox_item *it,
		      struct deliver_result *res)
{
	char *list = xstrdup(it->recipients), *p, *save = NULL;
	bool any = false;

	if (!d->client && !d->client_failed) {
		d->client = smtp_client_new(&d->smtp, &d->client_res);
		d->client_failed = !d->client;
	}
	if (!d->client) {
		*res = d->client_res;
		free(list);
		return;
	}
	res->status = DELIVER_OK;
	for (p = strtok_r(list, "\n", &save); p;
	     p = strtok_r(NULL, "\n", &save)) {
		struct deliver_result one;

		if (!*p)
			continue;
		smtp_client_send(d->client, it->envelope_from, p, it->message,
				 it->message_len, &one);
		/*
		 * No per-recipient state is kept: a temporary failure of
		 * one recipient retries them all (rows have one recipient).
		 */
		if (!any || rank(one.status) > rank(res->status))
			*res = one;
		any = true;
	}
	if (!any) {
		res->status = DELIVER_PERMANENT;
		snprintf(res->detail, sizeof(res->detail), "no recipients");
	}
	free(list);
}

static void send_row(void *ctx, const struct audit_outbox_item *it,
		     struct deliver_result *res)
{
	struct deliverd *d = ctx;

	deliver_result_init(res);
	if (it->kind && !strcmp(it->kind, "bugzilla"))
		send_bugzilla(d, it, res);
	else if (d->sendmail)
		outbox_sendmail(&d->sm, it, res);
	else
		send_smtp(d, it, res);
}

/* open_map - the compiled map (or MAINTAINERS text) for the digests */
static struct map *open_map(const struct config *cfg)
{
	char *path = config_state_path(cfg, "maintainers.idx");
	const char *text = config_get(cfg, "maintainers");
	struct map *map = NULL;

	if (access(path, R_OK) == 0)
		map = map_open(path);
	else if (text && *text && access(text, R_OK) == 0)
		map = map_load_text(text, config_get(cfg, "tree"));
	free(path);
	return map;
}

/*
 * deliverd_run - the due digests, then up to max due rows; one SMTP
 * connection for the pass
 */
int deliverd_run(struct deliverd *d, unsigned max, struct outbox_stats *st)
{
	time_t now = time(NULL);
	int n;

	/* digests fall due by the hour at most: look once a minute */
	if (!d->digest_at || now - d->digest_at >= DIGEST_EVERY) {
		d->digest_at = now;
		if (!d->map_tried) {
			d->map_tried = true;
			d->map = open_map(d->cfg);
		}
		if (digest_enqueue_due(d->db, d->cfg, d->map, now) < 0)
			warn("digests: could not queue the due digests");
	}
	remind_daily(d, now);
	n = outbox_drain(d->db, send_row, d, max, d->lease, d->max_age, false,
			 st);
	smtp_client_free(d->client);
	d->client = NULL;
	d->client_failed = false;
	return n;
}

/*
 * say_waiting - a row waiting for its retry, and why: a peer down is
 * not an error of this run (exit 0), but the admin should see it
 */
static int say_waiting(const struct audit_outbox_waiting *w, void *arg)
{
	struct strbuf why = STRBUF_INIT(2048);
	char at[64];

	(void)arg;
	/* the peer's words: no control characters to the terminal */
	desk_clean(&why, w->last_error, strlen(w->last_error), 0);
	desk_format_time((time_t)w->next_attempt_at, at, sizeof(at));
	printf("  outbox %lld (%s to %s): attempt %d failed: %s; next try %s ('triage deliver --retry-now' tries now)\n",
	       (long long)w->id, w->kind, w->recipients, w->attempts,
	       why.len ? sb_str(&why) : "?", at);
	sb_release(&why);
	return 0;
}

/* wait_signal - true when SIGTERM or SIGINT (blocked) came within secs */
static bool wait_signal(const sigset_t *set, unsigned secs)
{
	struct timespec ts = { (time_t)secs, 0 };
	int sig;

	do
		sig = sigtimedwait(set, NULL, &ts);
	while (sig < 0 && errno == EINTR);
	return sig > 0;
}

int cmd_deliver(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const char *const usage[] = {
		"triage deliver [--once | --daemon] [--retry-now]", NULL
	};
	bool daemon = false, retry_now = false;
	const struct opt opts[] = {
		OPT_NEGBOOL(0, "once", &daemon,
			    "one pass over what is due (the default)"),
		OPT_BOOL(0, "daemon", &daemon,
			 "a pass every deliver_interval, until SIGTERM"),
		OPT_BOOL(
			0, "retry-now", &retry_now,
			"try the mail waiting for a retry now, not at its time"),
		OPT_END(),
	};
	struct config *cfg;
	struct audit *db = NULL;
	struct deliverd *d;
	struct outbox_stats st = { 0, 0, 0 };
	sigset_t set;
	bool stop = false;
	int n, ret = 0;

	if (parse_options(argc, argv, opts, usage, 0))
		usage_with_options(usage, opts);
	umask(007);
	signal(SIGPIPE, SIG_IGN);
	cfg = cmd_config(ctx);
	if (cmd_open_db(cfg, &db) < 0)
		return EX_TEMPFAIL;
	d = deliverd_open(cfg, db);
	if (!d) {
		audit_close(db);
		return EX_CONFIG;
	}
	if (retry_now) {
		n = audit_outbox_retry_now(db, 0);
		if (n < 0) {
			error("outbox: %s", audit_errmsg(db));
			deliverd_close(d);
			audit_close(db);
			return EX_TEMPFAIL;
		}
		printf("deliver: %d message%s waiting for a retry tried now\n",
		       n, n == 1 ? "" : "s");
	}
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	if (daemon) {
		deliverd_daemon(d);
		sigprocmask(SIG_BLOCK, &set, NULL);
	}
	do {
		/* a pass: everything due, in batches, checking for a stop */
		do {
			n = deliverd_run(d, BATCH, &st);
			if (daemon && wait_signal(&set, 0))
				stop = true;
		} while (n == BATCH && !stop);
		if (n < 0) {
			error("outbox: %s", audit_errmsg(db));
			ret = EX_TEMPFAIL;
			if (!daemon)
				break;
		}
		if (daemon && !stop)
			stop = wait_signal(&set, d->interval);
	} while (daemon && !stop);
	if (!daemon) {
		printf("deliver: %u sent, %u to retry, %u failed\n", st.sent,
		       st.retried, st.failed);
		if (!ret &&
		    audit_outbox_waiting_list(db, 0, say_waiting, NULL) < 0)
			ret = EX_TEMPFAIL;
		if (st.failed)
			printf("  failed for good: 'triage pending' lists them, 'triage approve ID' sends one again\n");
	}
	deliverd_close(d);
	audit_close(db);
	return ret;
}
