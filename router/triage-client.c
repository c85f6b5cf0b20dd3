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
 *	RECIPIENT, ORIGINAL_RECIPIENT) and which configuration it means
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
 *	Deliberately libc only and linked static: its start is the cost.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sysexits.h>
#include <unistd.h>

#include "resident.h"

#ifndef LIBEXECDIR
#define LIBEXECDIR "/usr/local/libexec"
#endif

static void say(const char *text)
{
	static const char prefix[] = "triage-client: ";
	struct iovec iov[3] = {
		{ (void *)prefix, sizeof(prefix) - 1 },
		{ (void *)text, strlen(text) },
		{ (void *)"\n", 1 },
	};
	ssize_t w = writev(2, iov, 3);

	(void)w;
}

/* run_filter - become triage-filter on the same standard input */
static int run_filter(const char *config)
{
	char self[PATH_MAX], path[PATH_MAX + 32];
	char *argv[4] = { NULL, NULL, NULL, NULL };
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash)
			*slash = '\0';
		snprintf(path, sizeof(path), "%s/triage-filter", self);
	} else {
		snprintf(path, sizeof(path), "%s/triage-filter", LIBEXECDIR);
	}
	argv[0] = path;
	if (config) {
		argv[1] = (char *)"-c";
		argv[2] = (char *)config;
	}
	execv(path, argv);
	say("cannot run triage-filter; the message stays queued");
	return EX_TEMPFAIL;
}

/* add - "NAME=value\0" to the request; -1 when it does not fit */
static int add(char *buf, size_t *len, const char *name, const char *value)
{
	size_t need = strlen(name) + 1 + strlen(value) + 1;

	if (*len + need > RESIDENT_REQUEST_MAX)
		return -1;
	*len += (size_t)snprintf(buf + *len, RESIDENT_REQUEST_MAX - *len,
				 "%s=%s", name, value) +
		1;
	return 0;
}

/* request - the text the resident filter reads; 0 on success */
static int request(char *buf, size_t *len, const char *config)
{
	static const char *const env[] = RESIDENT_ENV;
	static char cfg[RESIDENT_PATH_MAX], state[RESIDENT_PATH_MAX];
	size_t i;

	*len = 0;
	resident_identity(config, cfg, state);
	if (add(buf, len, "v", RESIDENT_VERSION) < 0 ||
	    add(buf, len, "config", cfg) < 0 ||
	    (state[0] && add(buf, len, "state", state) < 0))
		return -1;
	for (i = 0; env[i]; i++) {
		const char *v = getenv(env[i]);

		if (v && add(buf, len, env[i], v) < 0)
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *sock = getenv("TRIAGE_SOCKET"), *config = NULL;
	static char buf[RESIDENT_REQUEST_MAX];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fds[2] = { 0, 2 };
	char answer;
	size_t len;
	ssize_t n;
	int c, fd;

	while ((c = getopt(argc, argv, "c:s:")) != -1) {
		if (c == 'c') {
			config = optarg;
		} else if (c == 's') {
			sock = optarg;
		} else {
			say("usage: triage-client [-s socket] [-c routes.conf]");
			return EX_TEMPFAIL;
		}
	}
	if (!sock || !*sock)
		sock = RESIDENT_SOCKET_DEFAULT;
	if (strlen(sock) >= sizeof(sa.sun_path) ||
	    request(buf, &len, config) < 0)
		return run_filter(config);
	memcpy(sa.sun_path, sock, strlen(sock) + 1);

	/*
	 * Non-blocking connect: a full listen queue answers EAGAIN at
	 * once, and an overloaded resident filter is no reason to wait.
	 */
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return run_filter(config);
	if (fcntl(fd, F_SETFL, 0) < 0)
		return run_filter(config);

	/* not sent: nothing of standard input was read, so run it here */
	if (resident_send(fd, buf, len, fds) < 0)
		return run_filter(config);

	do
		n = read(fd, &answer, 1);
	while (n < 0 && errno == EINTR);
	if (n == 1 && answer == RESIDENT_DONE)
		return 0;
	if (n == 1 && answer == RESIDENT_DECLINE)
		return run_filter(config);
	if (n != 1)
		say("the resident triage-filter ended before answering; the message stays queued");
	return EX_TEMPFAIL;
}
