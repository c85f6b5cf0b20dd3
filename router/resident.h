/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * resident - intake through a resident triage-filter: the socket, its
 * one-record protocol, and the service that answers it
 *
 * DESCRIPTION
 *	A per-message process pays for its own start: GMime's type system,
 *	the static binary's pages, SQLite's schema and statements.  With
 *	'triage-filter -l SOCKET' those are paid once, by a resident filter
 *	(a supervisor and N workers that share the listening socket, as
 *	Postfix's services share theirs), and the MTA runs triage-client,
 *	which costs about as much as an empty static program.
 *
 *	The protocol, on an AF_UNIX SOCK_SEQPACKET connection:
 *	  client -> filter  one record: "NAME=value\0" strings, v= first,
 *	                    with SCM_RIGHTS carrying the client's standard
 *	                    input (the message) and standard error;
 *	  filter -> client  one byte: RESIDENT_DONE once the report is
 *	                    committed, RESIDENT_TEMPFAIL, or RESIDENT_DECLINE
 *	                    (another configuration or version: nothing was
 *	                    read, the client runs triage-filter itself).
 *	No answer (a worker that died) means 75 for the MTA: the message
 *	stays queued, and its redelivery is recognised if it was committed.
 *
 *	This header is also triage-client's contract, so it needs libc only
 *	above the "service" line.
 */
#ifndef TRIAGE_RESIDENT_H
#define TRIAGE_RESIDENT_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#ifndef SYSCONFDIR
#define SYSCONFDIR "/etc/triage"
#endif

#define RESIDENT_VERSION	"1"
#define RESIDENT_SOCKET_DEFAULT "/run/triage/filter.sock"
#define RESIDENT_CONFIG_DEFAULT SYSCONFDIR "/routes.conf"
#define RESIDENT_REQUEST_MAX	16384
#define RESIDENT_PATH_MAX	PATH_MAX
#define RESIDENT_DONE		'0'
#define RESIDENT_TEMPFAIL	'T'
#define RESIDENT_DECLINE	'D'
/* the environment a message brings along: local(8)'s envelope, profiling */
#define RESIDENT_ENV                                                           \
	{                                                                      \
		"SENDER", "RECIPIENT", "ORIGINAL_RECIPIENT", "TRIAGE_PROFILE", \
			NULL                                                   \
	}
#define RESIDENT_NENV 4

/*
 * resident_send - the request record rec (len bytes) with the message's
 * and standard error's descriptors; 0 when all of it was sent
 */
static inline int resident_send(int fd, const char *rec, size_t len,
				const int fds[2])
{
	union {
		struct cmsghdr h;
		char space[CMSG_SPACE(2 * sizeof(int))];
	} ctl;
	struct iovec iov = { (void *)rec, len };
	struct msghdr mh;
	struct cmsghdr *cm;

	memset(&mh, 0, sizeof(mh));
	memset(&ctl, 0, sizeof(ctl));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = ctl.space;
	mh.msg_controllen = sizeof(ctl.space);
	cm = CMSG_FIRSTHDR(&mh);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(2 * sizeof(int));
	memcpy(CMSG_DATA(cm), fds, 2 * sizeof(int));
	return sendmsg(fd, &mh, MSG_NOSIGNAL) == (ssize_t)len ? 0 : -1;
}

/* ---- service (libtriage) ---------------------------------------------- */

/* one request, pointing into the record it was parsed from */
struct resident_request {
	const char *config; /* resolved path, or the default's literal text */
	const char *state;  /* TRIAGE_STATE_DIR resolved, or NULL */
	const char *env[RESIDENT_NENV]; /* RESIDENT_ENV values, NULL: unset */
};

/*
 * resident_parse - check and split a request record (not NUL-terminated
 * by the peer: buf has room for one more byte); -1 with *why when it is
 * not one this version answers
 */
int resident_parse(char *buf, size_t len, struct resident_request *req,
		   const char **why);

/*
 * resident_identity - what the client sends as config= and state=, and
 * what a worker compares them with: a path resolved when the file
 * exists (else as given), config NULL meaning $TRIAGE_CONFIG or the
 * default; state[0] is '\0' when $TRIAGE_STATE_DIR is unset
 */
static inline void resident_identity(const char *config,
				     char cfg[RESIDENT_PATH_MAX],
				     char state[RESIDENT_PATH_MAX])
{
	const char *env = getenv("TRIAGE_STATE_DIR");

	if (!config || !*config)
		config = getenv("TRIAGE_CONFIG");
	if (!config || !*config)
		config = RESIDENT_CONFIG_DEFAULT;
	if (!realpath(config, cfg))
		snprintf(cfg, RESIDENT_PATH_MAX, "%s", config);
	state[0] = '\0';
	if (env && *env && !realpath(env, state))
		snprintf(state, RESIDENT_PATH_MAX, "%s", env);
}

/* resident_listen - a listening socket at path (a stale one replaced) */
int resident_listen(const char *path);

/*
 * resident_accept - wait for the next client on the listening socket:
 * 1 with the record parsed into req and its two descriptors (the
 * message, its standard error) in fds; 0 when *stop was set or
 * stale() said so before a client was taken (the client is left for
 * another worker); -1 on an error of the socket itself.  A malformed
 * record is answered RESIDENT_DECLINE and skipped.
 * waitmask (NULL: none) is the signal mask while it waits (ppoll()): a
 * caller that keeps the signals setting *stop blocked, and unblocked in
 * waitmask, cannot lose one that comes just before the wait.
 */
int resident_accept(int lfd, char *buf, struct resident_request *req,
		    int fds[2], int *conn, volatile int *stop,
		    const sigset_t *waitmask, bool (*stale)(void *), void *ctx);

/* resident_answer - send the one-byte answer and close the connection */
void resident_answer(int *conn, char answer);

/*
 * resident_supervise - fork and keep n workers running serve(ctx, lfd)
 * until SIGTERM or SIGINT; a worker that ends is replaced, one that
 * ends within a second of its start only after a second's pause
 */
int resident_supervise(int lfd, unsigned n, int (*serve)(void *, int),
		       void *ctx);

#endif
