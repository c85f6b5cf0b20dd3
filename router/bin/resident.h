/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * resident - intake through a resident triage-filter: the socket, its
 * one-record protocol, and the service that answers it
 *
 * DESCRIPTION
 *	A per-message process pays for its own start: loading and
 *	relocating its shared libraries, GMime's type system, SQLite's
 *	schema and statements.  With
 *	'triage-filter -l SOCKET' those are paid once, by a resident filter
 *	(a supervisor and N workers that share the listening socket, as
 *	Postfix's services share theirs), and the MTA runs triage-client,
 *	which costs less than an empty static glibc program (nolibc.h).
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
 *	The client sends config= and state= (routes.conf and
 *	$TRIAGE_STATE_DIR) made absolute but not resolved: resolving them
 *	(realpath()) is the worker's part, and only when they differ from
 *	what it serves byte for byte.
 *
 *	This header is also triage-client's contract, which runs without
 *	libc on x86-64: above the "service" line it calls no libc function
 *	but those nolibc.h has.
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
#include <sys/stat.h>

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
		"SENDER", "RECIPIENT", "ORIGINAL_RECIPIENT", "CLIENT_ADDRESS", \
			"TRIAGE_PROFILE", NULL                                 \
	}
#define RESIDENT_NENV 5

/* a request ready for sendmsg(): resident_message() fills it */
struct resident_message {
	struct msghdr mh;
	struct iovec iov;
	union {
		struct cmsghdr h;
		char space[CMSG_SPACE(2 * sizeof(int))];
	} ctl;
};

/*
 * resident_message - m as the request record rec (len bytes) with the
 * message's and standard error's descriptors, for
 * sendmsg(fd, &m->mh, MSG_NOSIGNAL); m must not move before that
 */
static inline void resident_message(struct resident_message *m, const char *rec,
				    size_t len, const int fds[2])
{
	struct cmsghdr *cm;

	memset(m, 0, sizeof(*m));
	m->iov.iov_base = (void *)rec;
	m->iov.iov_len = len;
	m->mh.msg_iov = &m->iov;
	m->mh.msg_iovlen = 1;
	m->mh.msg_control = m->ctl.space;
	m->mh.msg_controllen = sizeof(m->ctl.space);
	cm = CMSG_FIRSTHDR(&m->mh);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(2 * sizeof(int));
	memcpy(CMSG_DATA(cm), fds, 2 * sizeof(int));
}

/* ---- service (resident.c) --------------------------------------------- */

/* one request, pointing into the record it was parsed from */
struct resident_request {
	const char *config; /* absolute, as given (resident_same()) */
	const char *state;  /* $TRIAGE_STATE_DIR absolute, or NULL */
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
 * resident_identity - the configuration and state directory a worker
 * serves, resolved (realpath) when the file exists, else as given:
 * config NULL meaning $TRIAGE_CONFIG or the default; state[0] is '\0'
 * when $TRIAGE_STATE_DIR is unset
 */
void resident_identity(const char *config, char cfg[RESIDENT_PATH_MAX],
		       char state[RESIDENT_PATH_MAX]);

/*
 * resident_same - whether the path a client sent (absolute, as the
 * user gave it; NULL or "" for none) names what a worker serves: its
 * resolved path (mine, "" for none) byte for byte, else once resolved
 */
bool resident_same(const char *got, const char *mine);

/* resident_listen - a listening socket at path (a stale one replaced) */
int resident_listen(const char *path);

/*
 * resident_accept - wait for the next client on the listening socket:
 * 1 with the record parsed into req and its two descriptors (the
 * message, its standard error) in fds; 0 when *stop was set or
 * stale() said so before a client was taken (the client is left for
 * another worker); -1 on an error of the socket itself.  A client
 * wakes one waiting worker (EPOLLEXCLUSIVE), mostly the same one.  A malformed
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

#define RESIDENT_WATCH_MAX 40

/*
 * struct resident_watch - whether the files a worker was loaded from
 * (routes.conf, the indexes, the rules) changed since it loaded them.
 * stat() of each, against what it was then, is the answer; an inotify
 * descriptor on their directories says when the question is worth
 * asking (an event that names one of them: not the database's files
 * beside the indexes), so a message costs one read() where it cost a
 * stat() per file.  What inotify cannot see (a directory above them renamed, a
 * link to their directory retargeted) stat() sees within interval
 * seconds.  Without inotify (no instance to spare), stat() every time.
 */
struct resident_watch {
	char *paths[RESIDENT_WATCH_MAX]; /* the caller's, freed by release */
	struct stat seen[RESIDENT_WATCH_MAX];
	size_t n;
	bool on; /* started */
	int fd;	 /* inotify, or -1 */
	/* which events count: a name in a watched directory, NULL any */
	struct {
		int wd;
		char *name;
	} want[3 * RESIDENT_WATCH_MAX];
	size_t nwant;
	double interval; /* seconds between stat()s without an event */
	double checked;	 /* CLOCK_MONOTONIC seconds of the last stat()s */
};

/*
 * resident_watch_start - watch w->paths[0..n): their directories (and a
 * linked file's real one, a directory's own) first, then stat() them,
 * so that a change while the caller loads them is seen
 */
void resident_watch_start(struct resident_watch *w, double interval);

/* resident_watch_changed - whether any of them differs from then */
bool resident_watch_changed(struct resident_watch *w);

/* resident_watch_release - free the paths, close the descriptor */
void resident_watch_release(struct resident_watch *w);

/*
 * resident_supervise - fork and keep n workers running serve(ctx, lfd)
 * until SIGTERM or SIGINT; a worker that ends is replaced, one that
 * ends within a second of its start only after a second's pause
 */
int resident_supervise(int lfd, unsigned n, int (*serve)(void *, int),
		       void *ctx);

#endif
