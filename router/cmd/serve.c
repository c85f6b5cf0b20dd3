// SPDX-License-Identifier: GPL-2.0-only
/*
 * triage serve - receive Bugzilla webhooks and triage the bugs
 *
 * DESCRIPTION
 *	triage serve [--listen ADDRESS:PORT] [--url URL] [--no-deliver]
 *
 *	An HTTP server (libmicrohttpd) with one endpoint, POST /bugzilla,
 *	for bugzilla.mozilla.org-style webhooks (research/ecosystem.md
 *	1.1).  Webhooks are not signed, so:
 *
 *	  - the request must carry the shared token in the configured
 *	    header (webhook_token_header, default Authorization, whose
 *	    value is then "Token TOKEN" or "Bearer TOKEN"; with any other
 *	    header, such as X-Api-Key, the value is the token itself),
 *	    compared in constant time (SHA-256 digests, so neither the
 *	    length nor a prefix leaks); otherwise 401, before the body is
 *	    read;
 *	  - the body is at most webhook_max_body bytes (413, whether the
 *	    request says Content-Length or is chunked);
 *	  - a request (headers and body) must be over within
 *	    webhook_deadline seconds from the start of its connection or
 *	    of the previous request on it: libmicrohttpd's own timeout
 *	    only limits idle time, so a client trickling a byte a second
 *	    is cut off by a sweeper here;
 *	  - the JSON is parsed strictly (duplicate keys refused) and must
 *	    have the fields a webhook has (400 otherwise);
 *	  - other paths are 404, other methods 405.
 *	A valid event is stored in the database (bugzilla_events, once:
 *	a redelivered event is recognised by webhook id, bug, routing key,
 *	time, comment and attachment) and answered 200 at once; a
 *	database that cannot store it gives 503 (with Retry-After: 30) so
 *	that Bugzilla retries.
 *	Nothing else gives an error: Bugzilla disables a webhook that
 *	fails too often.
 *
 *	The payload is only a hint.  A worker (the main thread) claims the
 *	stored events, fetches each bug and its first comment over REST
 *	(private bugs send only their id), runs the pipeline and records
 *	the report and the decision (ingest_next(), cmd.h); a bug gives at
 *	most one report, whatever the webhook retries and polls.  A
 *	second thread runs the outbox worker of 'triage deliver' (unless
 *	--no-deliver), woken when a forward is queued.
 *
 *	--listen defaults to serve_listen, else 127.0.0.1:8025; port 0
 *	picks a free port, and the one bound is printed on standard error
 *	("listening on ADDRESS:PORT").  Bind to loopback behind a
 *	TLS-terminating proxy.  SIGTERM or SIGINT stops it cleanly: no
 *	new connections, the event and the mail being handled finish,
 *	the database is closed.
 *
 *	routes.conf:
 *	  serve_listen            127.0.0.1:8025
 *	  webhook_token_file      file holding the token (required, at
 *	                          least 16 characters)
 *	  webhook_token_header    Authorization | X-Api-Key | ...
 *	  webhook_max_body        bytes (1048576)
 *	  webhook_deadline        seconds per request (10)
 *	  webhook_max_connections 64 (16 per client address)
 *	  bugzilla_url ...        the REST client (bugzilla.h)
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sysexits.h>
#include <time.h>
#include <unistd.h>

#include "audit.h"
#include "bugzilla.h"
#include "cmd.h"
#include "config.h"
#include "outbox.h"
#include "sha256.h"
#include "strbuf.h"
#include "util.h"

#define TOKEN_MIN	 16
#define BATCH		 16
#define EVENT_INTERVAL	 30 /* seconds between looks for retried events */
#define IDLE_TIMEOUT_MAX 10

struct conn {
	int fd;
	double start; /* of the connection, or the end of its last request */
	bool cut;
	struct conn *prev, *next;
};

struct server {
	struct config *cfg;
	struct audit *db; /* the libmicrohttpd thread's connection */
	const char *header;
	bool authorization;
	uint8_t token_hash[SHA256_DIGEST_SIZE];
	size_t max_body;
	double deadline;
	int wake_ingest;  /* write end */
	int wake_deliver; /* write end, or -1 */

	pthread_mutex_t lock; /* the connection list */
	struct conn *conns;
	atomic_bool stop;
};

struct request {
	struct strbuf body;
	bool too_big;
};

static void wake(int fd)
{
	char c = 1;
	ssize_t w;

	if (fd >= 0) {
		w = write(fd, &c, 1); /* a full pipe is awake already */
		(void)w;
	}
}

static void drain(int fd)
{
	char buf[64];

	while (read(fd, buf, sizeof(buf)) > 0)
		;
}

/* ---- HTTP ---------------------------------------------------------------- */

static enum MHD_Result reply(struct MHD_Connection *c, unsigned status,
			     const char *json)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(
		strlen(json), (void *)json, MHD_RESPMEM_MUST_COPY);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, "Content-Type", "application/json");
	if (status == 405)
		MHD_add_response_header(r, "Allow", "POST");
	/* the database could not store the event: a sender may come back */
	if (status == 503)
		MHD_add_response_header(r, "Retry-After", "30");
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result reply_error(struct MHD_Connection *c, unsigned status,
				   const char *msg)
{
	json_t *j = json_pack("{s:b, s:s}", "ok", 0, "error", msg);
	char *s = j ? json_dumps(j, JSON_COMPACT) : NULL;
	enum MHD_Result ret = reply(c, status, s ? s : "{}");

	free(s);
	json_decref(j);
	return ret;
}

/* authorized - the token header, compared in constant time */
static bool authorized(const struct server *s, struct MHD_Connection *c)
{
	const char *v =
		MHD_lookup_connection_value(c, MHD_HEADER_KIND, s->header);
	uint8_t h[SHA256_DIGEST_SIZE];
	struct sha256_ctx ctx;
	unsigned diff = 0;
	size_t i;

	if (!v)
		return false;
	if (s->authorization) {
		if (!strncasecmp(v, "Token ", 6))
			v += 6;
		else if (!strncasecmp(v, "Bearer ", 7))
			v += 7;
		else
			return false;
		while (*v == ' ')
			v++;
	}
	/* hashing first hides the token's length and every byte of it */
	sha256_init(&ctx);
	sha256_update(&ctx, v, strlen(v));
	sha256_final(&ctx, h);
	for (i = 0; i < sizeof(h); i++)
		diff |= (unsigned)(h[i] ^ s->token_hash[i]);
	return diff == 0;
}

static struct conn *conn_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

	return ci ? ci->socket_context : NULL;
}

/* too_late - the request has run past the deadline */
static bool too_late(struct server *s, struct MHD_Connection *c)
{
	struct conn *k = conn_of(c);
	bool late;

	if (!k)
		return false;
	pthread_mutex_lock(&s->lock);
	late = now_seconds() - k->start > s->deadline;
	pthread_mutex_unlock(&s->lock);
	return late;
}

/* store - validate and store one event; the HTTP status to answer */
static unsigned store(struct server *s, const struct request *rq, char *msg,
		      size_t size, int64_t *id, bool *dup)
{
	struct bugzilla_event ev;
	struct audit_event ae;
	int rc;

	if (bugzilla_parse_event(sb_str(&rq->body), rq->body.len, &ev, msg,
				 size) < 0)
		return 400;
	memset(&ae, 0, sizeof(ae));
	ae.webhook_id = ev.webhook_id;
	ae.bug_id = ev.bug.id;
	ae.routing_key = ev.routing_key;
	ae.event_time = ev.time;
	ae.comment_id = ev.comment_id;
	ae.attachment_id = ev.attachment_id;
	ae.payload = sb_str(&rq->body);
	ae.payload_len = rq->body.len;
	rc = audit_event_store(s->db, &ae, id);
	bugzilla_event_release(&ev);
	if (rc < 0) {
		snprintf(msg, size, "cannot store the event now");
		return 503;
	}
	*dup = rc == 0;
	return 200;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c,
				  const char *url, const char *method,
				  const char *version, const char *upload,
				  size_t *upload_size, void **con_cls)
{
	struct server *s = cls;
	struct request *rq = *con_cls;
	char msg[BUGZILLA_ERR_MAX], out[128];
	unsigned status;
	int64_t id = 0;
	bool dup = false;

	if (!rq) {
		const char *cl;
		unsigned long n;

		if (strcmp(url, "/bugzilla") != 0)
			return reply_error(c, 404, "not found");
		if (strcmp(method, "POST") != 0)
			return reply_error(c, 405, "only POST");
		if (!authorized(s, c))
			return reply_error(c, 401, "unauthorized");
		cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
						 "Content-Length");
		if (cl && (parse_ulong(cl, &n) < 0 || n > s->max_body))
			return reply_error(c, 413, "body too large");
		rq = xcalloc(1, sizeof(*rq));
		sb_init(&rq->body, s->max_body);
		*con_cls = rq;
		return MHD_YES;
	}
	if (too_late(s, c))
		return MHD_NO; /* a slow sender: close the connection */
	if (*upload_size) {
		/* past the cap the rest is read and dropped: 413 at the end */
		if (!rq->too_big &&
		    sb_add(&rq->body, upload, *upload_size) < 0) {
			rq->too_big = true;
			sb_release(&rq->body);
		}
		*upload_size = 0;
		return MHD_YES;
	}
	if (rq->too_big)
		return reply_error(c, 413, "body too large");
	status = store(s, rq, msg, sizeof(msg), &id, &dup);
	if (status != 200)
		return reply_error(c, status, msg);
	if (!dup)
		wake(s->wake_ingest);
	snprintf(out, sizeof(out),
		 "{\"ok\":true,\"event\":%lld,\"duplicate\":%s}", (long long)id,
		 dup ? "true" : "false");
	return reply(c, 200, out);
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
			 enum MHD_RequestTerminationCode toe)
{
	struct server *s = cls;
	struct request *rq = *con_cls;
	struct conn *k = conn_of(c);

	if (rq) {
		sb_release(&rq->body);
		free(rq);
		*con_cls = NULL;
	}
	if (k) {
		/* the next request on a kept-alive connection starts now */
		pthread_mutex_lock(&s->lock);
		k->start = now_seconds();
		pthread_mutex_unlock(&s->lock);
	}
}

static void on_connection(void *cls, struct MHD_Connection *c,
			  void **socket_context,
			  enum MHD_ConnectionNotificationCode toe)
{
	struct server *s = cls;
	struct conn *k;

	if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *ci = MHD_get_connection_info(
			c, MHD_CONNECTION_INFO_CONNECTION_FD);

		k = xcalloc(1, sizeof(*k));
		k->fd = ci ? ci->connect_fd : -1;
		k->start = now_seconds();
		pthread_mutex_lock(&s->lock);
		k->next = s->conns;
		if (s->conns)
			s->conns->prev = k;
		s->conns = k;
		pthread_mutex_unlock(&s->lock);
		*socket_context = k;
	} else if (toe == MHD_CONNECTION_NOTIFY_CLOSED && *socket_context) {
		k = *socket_context;
		pthread_mutex_lock(&s->lock);
		if (k->prev)
			k->prev->next = k->next;
		else
			s->conns = k->next;
		if (k->next)
			k->next->prev = k->prev;
		pthread_mutex_unlock(&s->lock);
		free(k);
		*socket_context = NULL;
	}
}

/*
 * sweeper - once a second, shut down connections past the deadline
 * (the libmicrohttpd thread then closes them); an entry is removed
 * under the lock before its descriptor is closed
 */
static void *sweeper(void *arg)
{
	struct server *s = arg;

	while (!atomic_load(&s->stop)) {
		struct timespec ts = { 0, 250 * 1000 * 1000 };
		double now = now_seconds();
		struct conn *k;

		pthread_mutex_lock(&s->lock);
		for (k = s->conns; k; k = k->next) {
			if (k->cut || k->fd < 0 ||
			    now - k->start <= s->deadline)
				continue;
			shutdown(k->fd, SHUT_RDWR);
			k->cut = true;
		}
		pthread_mutex_unlock(&s->lock);
		nanosleep(&ts, NULL);
	}
	return NULL;
}

/* ---- the delivery thread -------------------------------------------------- */

struct delivery {
	struct server *s;
	struct deliverd *d;
	int wake_fd; /* read end */
};

static void *delivery_main(void *arg)
{
	struct delivery *dv = arg;
	struct outbox_stats st = { 0, 0, 0 };
	struct pollfd pfd = { dv->wake_fd, POLLIN, 0 };
	int n;

	while (!atomic_load(&dv->s->stop)) {
		do
			n = deliverd_run(dv->d, BATCH, &st);
		while (n == BATCH && !atomic_load(&dv->s->stop));
		if (n < 0)
			warn("outbox: the database failed; trying again later");
		if (atomic_load(&dv->s->stop))
			break;
		if (poll(&pfd, 1, (int)deliverd_interval(dv->d) * 1000) > 0)
			drain(dv->wake_fd);
	}
	return NULL;
}

/* ---- setup ---------------------------------------------------------------- */

static int parse_listen(const char *spec, struct sockaddr_storage *ss,
			bool *loopback)
{
	char host[64];
	const char *colon;
	unsigned long port;
	size_t n;

	memset(ss, 0, sizeof(*ss));
	if (spec[0] == '[') {
		const char *end = strchr(spec, ']');

		if (!end || end[1] != ':')
			return -1;
		n = (size_t)(end - spec - 1);
		colon = end + 1;
		if (n >= sizeof(host))
			return -1;
		memcpy(host, spec + 1, n);
	} else {
		colon = strrchr(spec, ':');
		if (!colon)
			return -1;
		n = (size_t)(colon - spec);
		if (n >= sizeof(host))
			return -1;
		memcpy(host, spec, n);
	}
	host[n] = '\0';
	if (parse_ulong(colon + 1, &port) < 0 || port > 65535)
		return -1;
	if (inet_pton(AF_INET, host, &((struct sockaddr_in *)ss)->sin_addr) ==
	    1) {
		struct sockaddr_in *sin = (struct sockaddr_in *)ss;

		sin->sin_family = AF_INET;
		sin->sin_port = htons((uint16_t)port);
		*loopback = (ntohl(sin->sin_addr.s_addr) >> 24) == 127;
		return 0;
	}
	if (inet_pton(AF_INET6, host,
		      &((struct sockaddr_in6 *)ss)->sin6_addr) == 1) {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

		sin6->sin6_family = AF_INET6;
		sin6->sin6_port = htons((uint16_t)port);
		*loopback = IN6_IS_ADDR_LOOPBACK(&sin6->sin6_addr);
		return 0;
	}
	return -1;
}

static int load_token(struct server *s, const struct config *cfg)
{
	const char *file = config_get(cfg, "webhook_token_file");
	struct sha256_ctx ctx;
	char *buf;
	const char *tok;

	if (!file || !*file)
		return error(
			"%s: set webhook_token_file: serve accepts no unauthenticated webhooks",
			cfg->path);
	if (read_file(file, 4096, &buf, NULL) < 0)
		return -1;
	tok = trim(buf);
	if (strlen(tok) < TOKEN_MIN || strchr(tok, '\n')) {
		memset(buf, 0, strlen(buf));
		free(buf);
		return error(
			"%s: the token must be one line of at least %d characters",
			file, TOKEN_MIN);
	}
	sha256_init(&ctx);
	sha256_update(&ctx, tok, strlen(tok));
	sha256_final(&ctx, s->token_hash);
	memset(buf, 0, strlen(buf));
	free(buf);
	return 0;
}

/* everything cmd_serve() holds, so that it can be set up in steps */
struct serve {
	struct server s;
	struct delivery dv;
	struct config *cfg;
	struct audit *db_ingest, *db_deliver;
	struct ingest *in;
	struct MHD_Daemon *daemon;
	struct sockaddr_storage ss;
	pthread_t sweep_thread, deliver_thread;
	bool sweep_started, deliver_started, no_deliver;
	const char *listen;
	const char *url; /* --url: the Bugzilla, else bugzilla_url */
	int ingest_pipe[2], deliver_pipe[2], sfd;
	long maxconn, deadline;
};

/* serve_config - the listening address and the webhook limits */
static int serve_config(struct serve *v)
{
	bool loopback = false;

	v->s.cfg = v->cfg;
	if (!v->listen)
		v->listen = config_get(v->cfg, "serve_listen");
	if (parse_listen(v->listen, &v->ss, &loopback) < 0) {
		error("--listen '%s': give ADDRESS:PORT, e.g. 127.0.0.1:8025 or [::1]:8025",
		      v->listen);
		return EX_USAGE;
	}
	if (!loopback)
		warn("listening on %s, not loopback: put a TLS proxy in front",
		     v->listen);
	v->s.header = config_get(v->cfg, "webhook_token_header");
	v->s.authorization = !strcasecmp(v->s.header, "Authorization");
	v->s.max_body = (size_t)config_int(v->cfg, "webhook_max_body");
	v->deadline = config_int(v->cfg, "webhook_deadline");
	v->maxconn = config_int(v->cfg, "webhook_max_connections");
	v->s.deadline = (double)v->deadline;
	return load_token(&v->s, v->cfg) < 0 ? EX_CONFIG : 0;
}

/*
 * serve_open - what initialises libraries, before any thread: the
 * databases, the workers, their wake-up pipes, the signals
 */
static int serve_open(struct serve *v)
{
	sigset_t set;

	if (cmd_open_db(v->cfg, &v->s.db) < 0 ||
	    cmd_open_db(v->cfg, &v->db_ingest) < 0 ||
	    (!v->no_deliver && cmd_open_db(v->cfg, &v->db_deliver) < 0))
		return EX_TEMPFAIL;
	v->in = ingest_open(v->cfg, v->db_ingest, v->url);
	if (!v->in)
		return EX_CONFIG;
	if (!v->no_deliver) {
		v->dv.d = deliverd_open(v->cfg, v->db_deliver);
		if (!v->dv.d)
			return EX_CONFIG;
		deliverd_daemon(v->dv.d);
	}
	if (pipe2(v->ingest_pipe, O_NONBLOCK | O_CLOEXEC) < 0 ||
	    pipe2(v->deliver_pipe, O_NONBLOCK | O_CLOEXEC) < 0) {
		error("pipe: %s", strerror(errno));
		return EX_SOFTWARE;
	}
	v->s.wake_ingest = v->ingest_pipe[1];
	v->s.wake_deliver = v->no_deliver ? -1 : v->deliver_pipe[1];

	/* signals go to the main loop only: block them in every thread */
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	v->sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (v->sfd < 0) {
		error("signalfd: %s", strerror(errno));
		return EX_SOFTWARE;
	}
	return 0;
}

/* serve_start - listen, say where, start the sweeper and the delivery */
static int serve_start(struct serve *v)
{
	const union MHD_DaemonInfo *di;
	char host[INET6_ADDRSTRLEN] = "?";
	bool v6 = v->ss.ss_family == AF_INET6;

	v->daemon = MHD_start_daemon(
		MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ERROR_LOG |
			(v6 ? MHD_USE_IPv6 : 0),
		0, NULL, NULL, on_request, &v->s, MHD_OPTION_SOCK_ADDR,
		(struct sockaddr *)&v->ss, MHD_OPTION_CONNECTION_LIMIT,
		(unsigned int)v->maxconn, MHD_OPTION_PER_IP_CONNECTION_LIMIT,
		(unsigned int)(v->maxconn < 16 ? v->maxconn : 16),
		MHD_OPTION_CONNECTION_TIMEOUT,
		(unsigned int)(v->deadline < IDLE_TIMEOUT_MAX
				       ? v->deadline
				       : IDLE_TIMEOUT_MAX),
		MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)65536,
		MHD_OPTION_NOTIFY_COMPLETED, on_completed, &v->s,
		MHD_OPTION_NOTIFY_CONNECTION, on_connection, &v->s,
		MHD_OPTION_END);
	if (!v->daemon) {
		error("cannot listen on %s: %s", v->listen, strerror(errno));
		return EX_UNAVAILABLE;
	}
	di = MHD_get_daemon_info(v->daemon, MHD_DAEMON_INFO_BIND_PORT);
	if (v6)
		inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&v->ss)->sin6_addr,
			  host, sizeof(host));
	else
		inet_ntop(AF_INET, &((struct sockaddr_in *)&v->ss)->sin_addr,
			  host, sizeof(host));
	fprintf(stderr,
		v6 ? "%s: listening on [%s]:%u\n" : "%s: listening on %s:%u\n",
		msg_prog(), host, di ? (unsigned)di->port : 0u);
	fflush(stderr);
	if (pthread_create(&v->sweep_thread, NULL, sweeper, &v->s) == 0)
		v->sweep_started = true;
	if (!v->no_deliver) {
		v->dv.s = &v->s;
		v->dv.wake_fd = v->deliver_pipe[0];
		if (pthread_create(&v->deliver_thread, NULL, delivery_main,
				   &v->dv) == 0)
			v->deliver_started = true;
		else
			warn("cannot start the delivery thread");
	}
	return 0;
}

/* serve_loop - the stored events, until a signal */
static void serve_loop(struct serve *v)
{
	for (;;) {
		struct pollfd pfd[2] = { { v->sfd, POLLIN, 0 },
					 { v->ingest_pipe[0], POLLIN, 0 } };
		bool queued = false;
		int rc = 0;

		while (!atomic_load(&v->s.stop)) {
			struct pollfd sp = { v->sfd, POLLIN, 0 };

			rc = ingest_next(v->in, &queued);
			if (queued)
				wake(v->s.wake_deliver);
			queued = false;
			if (rc <= 0)
				break;
			if (poll(&sp, 1, 0) > 0)
				break; /* a signal: stop after this event */
		}
		if (rc < 0)
			warn("events: the database failed; trying again later");
		if (poll(pfd, 2, EVENT_INTERVAL * 1000) < 0 && errno != EINTR)
			break;
		if (pfd[0].revents & POLLIN)
			break;
		if (pfd[1].revents & POLLIN)
			drain(v->ingest_pipe[0]);
	}
	fprintf(stderr, "%s: stopping\n", msg_prog());
}

static void serve_close(struct serve *v)
{
	int i;

	if (v->daemon)
		MHD_stop_daemon(v->daemon); /* waits for the handlers */
	atomic_store(&v->s.stop, true);
	wake(v->deliver_pipe[1]);
	if (v->deliver_started)
		pthread_join(v->deliver_thread, NULL);
	if (v->sweep_started)
		pthread_join(v->sweep_thread, NULL);
	deliverd_close(v->dv.d);
	ingest_close(v->in);
	if (v->s.db)
		audit_close(v->s.db);
	if (v->db_ingest)
		audit_close(v->db_ingest);
	if (v->db_deliver)
		audit_close(v->db_deliver);
	if (v->sfd >= 0)
		close(v->sfd);
	for (i = 0; i < 2; i++) {
		if (v->ingest_pipe[i] >= 0)
			close(v->ingest_pipe[i]);
		if (v->deliver_pipe[i] >= 0)
			close(v->deliver_pipe[i]);
	}
	pthread_mutex_destroy(&v->s.lock);
}

int cmd_serve(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const char *const usage[] = {
		"triage serve [--listen ADDRESS:PORT] [--url URL] [--no-deliver]",
		NULL
	};
	struct serve v;
	const struct opt opts[] = {
		OPT_STRING(0, "listen", &v.listen, "ADDRESS:PORT",
			   "where (default: serve_listen)"),
		OPT_STRING(
			0, "url", &v.url, "URL",
			"the Bugzilla whose webhooks come (default: bugzilla_url)"),
		OPT_BOOL(0, "no-deliver", &v.no_deliver,
			 "leave the outbox to 'triage deliver'"),
		OPT_END(),
	};
	int ret;

	memset(&v, 0, sizeof(v));
	if (parse_options(argc, argv, opts, usage, 0))
		usage_with_options(usage, opts);
	umask(007);
	v.cfg = cmd_config(ctx);
	v.s.wake_deliver = -1;
	v.ingest_pipe[0] = v.ingest_pipe[1] = -1;
	v.deliver_pipe[0] = v.deliver_pipe[1] = -1;
	v.sfd = -1;
	ret = serve_config(&v);
	if (ret)
		return ret;
	pthread_mutex_init(&v.s.lock, NULL);
	atomic_init(&v.s.stop, false);
	ret = serve_open(&v);
	if (!ret)
		ret = serve_start(&v);
	if (!ret)
		serve_loop(&v);
	serve_close(&v);
	return ret;
}
