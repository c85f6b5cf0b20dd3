// SPDX-License-Identifier: GPL-2.0-only
/*
 * triage-client - the MTA's per-message program in front of a resident
 * triage-filter (triage-filter(8), "RESIDENT FILTER")
 *
 * DESCRIPTION
 *	triage-client [-s socket] [-c routes.conf]
 *
 *	Run by the MTA instead of triage-filter when 'triage-filter -l
 *	socket' runs as a service.  It reads nothing itself: it passes its
 *	standard input and standard error, the envelope (SENDER,
 *	RECIPIENT, ORIGINAL_RECIPIENT, CLIENT_ADDRESS) and which
 *	configuration it means
 *	to the resident filter over a Unix socket, and exits with the
 *	status the resident filter answers: 0 once the report is
 *	committed, 75 (EX_TEMPFAIL) otherwise.  A process that only does
 *	this costs little more than starting an empty static program,
 *	where triage-filter pays for starting GMime and opening SQLite on
 *	every message.
 *
 *	It never loses a report:
 *	  - no resident filter (no socket, nobody listening), one whose
 *	    queue is full, or one serving another configuration: it runs
 *	    triage-filter itself (exec, standard input untouched);
 *	  - the resident filter ends before answering (a crash, a kill,
 *	    its deadline): 75, the MTA keeps the message and retries, and
 *	    the retry is recognised as a redelivery if it was committed.
 *
 *	The socket is -s, else $TRIAGE_SOCKET, else /run/triage/filter.sock.
 *	The triage-filter run in its place is the one in the directory of
 *	this program.  Like triage-filter, nothing is written to standard
 *	output and at most one line to standard error.
 *
 *	Its start is the cost, so on x86-64 it runs without libc
 *	(nolibc.h), a static PIE: it starts in less than an empty static
 *	glibc program does ('make bench').
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/un.h>
#include <sysexits.h>

#include "nolibc.h"
#include "resident.h"

#ifndef LIBEXECDIR
#define LIBEXECDIR "/usr/local/libexec"
#endif

static char **environ_;

static bool same(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

static const char *env(const char *name)
{
	const char *v, *k;
	char **e;

	for (e = environ_; *e; e++) {
		/* (no memcmp(): an entry may be shorter than the name) */
		for (v = *e, k = name; *k && *v == *k; v++, k++)
			;
		if (!*k && *v == '=')
			return v + 1;
	}
	return NULL;
}

static void say(const char *text)
{
	static const char prefix[] = "triage-client: ";
	struct iovec iov[3] = {
		{ (void *)prefix, sizeof(prefix) - 1 },
		{ (void *)text, strlen(text) },
		{ (void *)"\n", 1 },
	};

	sys_writev(2, iov, 3);
}

/* cat - the strings of parts, NULL-ended, into buf of size; -1 if too long */
static int cat(char *buf, size_t size, const char *const *parts)
{
	size_t at = 0, n;

	for (; *parts; parts++) {
		n = strlen(*parts);
		if (at + n >= size)
			return -1;
		memcpy(buf + at, *parts, n);
		at += n;
	}
	buf[at] = '\0';
	return (int)at;
}

/* run_filter - become triage-filter on the same standard input */
static int run_filter(const char *config)
{
	char self[PATH_MAX], path[PATH_MAX];
	char *argv[4] = { path, NULL, NULL, NULL };
	long n = sys_readlink("/proc/self/exe", self, sizeof(self) - 1);
	const char *dir = LIBEXECDIR;

	if (n > 0) {
		while (n > 0 && self[n - 1] != '/')
			n--;
		if (n > 1)
			n--;
		self[n] = '\0';
		if (n > 0)
			dir = self;
	}
	if (cat(path, sizeof(path),
		(const char *const[]){ dir, "/triage-filter", NULL }) < 0) {
		say("cannot run triage-filter (path too long); the message stays queued");
		return EX_TEMPFAIL;
	}
	if (config) {
		argv[1] = (char *)"-c";
		argv[2] = (char *)config;
	}
	sys_execve(path, argv, environ_);
	say("cannot run triage-filter; the message stays queued");
	return EX_TEMPFAIL;
}

/*
 * absolute - path made absolute with the working directory (not
 * resolved: that is the worker's part, resident.h); as given when the
 * working directory is unknown or it does not fit
 */
static const char *absolute(const char *path, char buf[PATH_MAX])
{
	long n;

	if (path[0] == '/')
		return path;
	n = sys_getcwd(buf, PATH_MAX);
	if (n < 0 || buf[0] != '/')
		return path;
	n = (long)strlen(buf);
	if (cat(buf + n, PATH_MAX - (size_t)n,
		(const char *const[]){ "/", path, NULL }) < 0)
		return path;
	return buf;
}

/* add - "NAME=value\0" to the request; -1 when it does not fit */
static int add(char *buf, size_t *at, const char *name, const char *value)
{
	int n = cat(buf + *at, RESIDENT_REQUEST_MAX - *at,
		    (const char *const[]){ name, "=", value, NULL });

	if (n < 0)
		return -1;
	*at += (size_t)n + 1;
	return 0;
}

/* request - the text the resident filter reads; 0 on success */
static int request(char *buf, size_t *at, const char *config)
{
	static const char *const names[] = RESIDENT_ENV;
	static char cfg[PATH_MAX], st[PATH_MAX];
	const char *state = env("TRIAGE_STATE_DIR");
	size_t i;

	if (!config || !*config)
		config = env("TRIAGE_CONFIG");
	if (!config || !*config)
		config = RESIDENT_CONFIG_DEFAULT;
	*at = 0;
	if (add(buf, at, "v", RESIDENT_VERSION) < 0 ||
	    add(buf, at, "config", absolute(config, cfg)) < 0 ||
	    (state && *state && add(buf, at, "state", absolute(state, st)) < 0))
		return -1;
	for (i = 0; names[i]; i++) {
		const char *v = env(names[i]);

		if (v && add(buf, at, names[i], v) < 0)
			return -1;
	}
	return 0;
}

/*
 * options - as getopt("c:s:") reads them: -c X or -cX, -s X or -sX,
 * anywhere among operands, which are ignored, until "--"; -1 on an
 * unknown option or one without its argument
 */
static int options(char **argv, const char **config, const char **sock)
{
	const char **to;
	char *a;

	while ((a = *++argv)) {
		if (a[0] != '-' || !a[1])
			continue; /* an operand */
		if (same(a, "--"))
			return 0;
		if (a[1] == 'c')
			to = config;
		else if (a[1] == 's')
			to = sock;
		else
			return -1;
		if (a[2])
			*to = a + 2;
		else if (!(*to = *++argv))
			return -1;
	}
	return 0;
}

int main(int argc, char **argv, char **envp)
{
	static char buf[RESIDENT_REQUEST_MAX];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	const char *sock = NULL, *config = NULL;
	struct resident_message m;
	int fds[2] = { 0, 2 };
	char answer;
	size_t at;
	long n, fd;

	environ_ = envp;
	/* (no argv[0] at all: execve() allows it, and there is nothing to read) */
	if (argc > 0 && options(argv, &config, &sock) < 0) {
		say("usage: triage-client [-s socket] [-c routes.conf]");
		return EX_TEMPFAIL;
	}
	if (!sock || !*sock)
		sock = env("TRIAGE_SOCKET");
	if (!sock || !*sock)
		sock = RESIDENT_SOCKET_DEFAULT;
	if (strlen(sock) >= sizeof(sa.sun_path) ||
	    request(buf, &at, config) < 0)
		return run_filter(config);
	memcpy(sa.sun_path, sock, strlen(sock) + 1);

	/*
	 * Non-blocking connect: a full listen queue answers EAGAIN at
	 * once, and an overloaded resident filter is no reason to wait.
	 */
	fd = sys_socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK,
			0);
	if (fd < 0 || sys_connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return run_filter(config);

	/*
	 * Sent at once, the socket still non-blocking (a new connection's
	 * buffer is empty): the worker that connect() woke mostly finds
	 * the record there, and need not wait for it with a poll().  Not
	 * sent: nothing of standard input was read, so run it here.
	 */
	resident_message(&m, buf, at, fds);
	if (sys_sendmsg(fd, &m.mh, MSG_NOSIGNAL) != (long)at)
		return run_filter(config);
	/* sent: the worker has standard input now, so never run it here */
	if (sys_fcntl(fd, F_SETFL, 0) < 0) {
		say("cannot wait for the resident triage-filter; the message stays queued");
		return EX_TEMPFAIL;
	}

	do
		n = sys_read(fd, &answer, 1);
	while (n == -EINTR);
	if (n == 1 && answer == RESIDENT_DONE)
		return 0;
	if (n == 1 && answer == RESIDENT_DECLINE)
		return run_filter(config);
	if (n != 1)
		say("the resident triage-filter ended before answering; the message stays queued");
	return EX_TEMPFAIL;
}
