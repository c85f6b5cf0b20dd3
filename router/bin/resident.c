// SPDX-License-Identifier: GPL-2.0-only
/*
 * resident - the socket and protocol of a resident triage-filter
 * (resident.h)
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/inotify.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "resident.h"
#include "util.h"

int resident_parse(char *buf, size_t len, struct resident_request *req,
		   const char **why)
{
	static const char *const env[] = RESIDENT_ENV;
	char *p = buf, *end = buf + len;
	bool version = false;
	size_t i;

	memset(req, 0, sizeof(*req));
	*why = NULL;
	if (len == 0 || len > RESIDENT_REQUEST_MAX || buf[len - 1] != '\0') {
		*why = "not a request record";
		return -1;
	}
	while (p < end) {
		char *eq = strchr(p, '='), *next = p + strlen(p) + 1;

		if (!eq) {
			*why = "a field without '='";
			return -1;
		}
		*eq = '\0';
		if (p == buf) {
			if (strcmp(p, "v") ||
			    strcmp(eq + 1, RESIDENT_VERSION)) {
				*why = "another protocol version";
				return -1;
			}
			version = true;
		} else if (!strcmp(p, "config")) {
			req->config = eq + 1;
		} else if (!strcmp(p, "state")) {
			req->state = eq + 1;
		} else {
			for (i = 0; env[i] && strcmp(p, env[i]); i++)
				;
			/* a newer client's field: ignore it */
			if (env[i])
				req->env[i] = eq + 1;
		}
		p = next;
	}
	if (!version || !req->config) {
		*why = "no version or no configuration";
		return -1;
	}
	return 0;
}

void resident_identity(const char *config, char cfg[RESIDENT_PATH_MAX],
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

bool resident_same(const char *got, const char *mine)
{
	char resolved[RESIDENT_PATH_MAX];

	if (!got)
		got = "";
	/* relative: the client could not say where from (resident.h) */
	if (*got && *got != '/')
		return false;
	if (!strcmp(got, mine))
		return true;
	/* a symbolic link or "..": what the client means, resolved here */
	return *got && realpath(got, resolved) && !strcmp(resolved, mine);
}

/* ---- watching what a worker was loaded from ------------------------- */

#define WATCH_EVENTS                                                          \
	(IN_ATTRIB | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | \
	 IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF)

static double monotonic(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* want - events of wd naming name (NULL: any) count */
static int want(struct resident_watch *w, int wd, const char *name)
{
	if (wd < 0 || w->nwant >= ARRAY_SIZE(w->want))
		return -1;
	w->want[w->nwant].wd = wd;
	w->want[w->nwant++].name = name ? xstrdup(name) : NULL;
	return 0;
}

/*
 * watch_dir_of - a watch on the directory path is in, for events that
 * name path's last component; -1 on failure
 */
static int watch_dir_of(struct resident_watch *w, const char *path)
{
	char dir[RESIDENT_PATH_MAX];
	const char *slash = strrchr(path, '/');
	size_t n = slash ? (size_t)(slash - path) : 1;

	if (!slash)
		path = ".";
	else if (n == 0)
		n = 1; /* "/x": the root */
	if (n >= sizeof(dir))
		return -1;
	memcpy(dir, path, n);
	dir[n] = '\0';
	return want(w, inotify_add_watch(w->fd, dir, WATCH_EVENTS),
		    slash ? slash + 1 : path);
}

static int watch_path(struct resident_watch *w, const char *path)
{
	char real[RESIDENT_PATH_MAX];
	struct stat st;

	/* a file not there yet: its directory shows it coming */
	if (watch_dir_of(w, path) < 0)
		return errno == ENOENT ? 0 : -1;
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) &&
	    realpath(path, real) && watch_dir_of(w, real) < 0)
		return -1;
	/* a directory (rules_dir): anything in it */
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode) &&
	    want(w, inotify_add_watch(w->fd, path, WATCH_EVENTS), NULL) < 0)
		return -1;
	return 0;
}

static void stat_all(const struct resident_watch *w, struct stat *st)
{
	size_t i;

	memset(st, 0, w->n * sizeof(*st));
	for (i = 0; i < w->n; i++)
		stat(w->paths[i], &st[i]);
}

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_ino == b->st_ino && a->st_dev == b->st_dev &&
	       a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	       a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

void resident_watch_start(struct resident_watch *w, double interval)
{
	size_t i;

	w->on = true;
	w->interval = interval;
	w->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	w->nwant = 0;
	for (i = 0; w->fd >= 0 && i < w->n; i++) {
		if (watch_path(w, w->paths[i]) < 0) {
			close(w->fd);
			w->fd = -1;
		}
	}
	stat_all(w, w->seen);
	w->checked = monotonic();
}

/* relevant - whether one event may be a change of an input */
static bool relevant(const struct resident_watch *w,
		     const struct inotify_event *ev)
{
	size_t i;

	/* the queue overflowed, a watched directory went or moved */
	if (ev->mask & (IN_Q_OVERFLOW | IN_IGNORED | IN_DELETE_SELF |
			IN_MOVE_SELF | IN_UNMOUNT))
		return true;
	for (i = 0; i < w->nwant; i++)
		if (w->want[i].wd == ev->wd &&
		    (!w->want[i].name ||
		     (ev->len && !strcmp(w->want[i].name, ev->name))))
			return true;
	return false;
}

/*
 * events - whether inotify says an input may have changed; drains what
 * it has (an event about another file, such as the database's WAL
 * beside the indexes, does not count)
 */
static bool events(const struct resident_watch *w)
{
	char buf[4096]
		__attribute__((aligned(__alignof__(struct inotify_event))));
	const struct inotify_event *ev;
	bool any = false;
	ssize_t n;
	char *p;

	while ((n = read(w->fd, buf, sizeof(buf))) > 0) {
		for (p = buf; p + sizeof(*ev) <= buf + n;
		     p += sizeof(*ev) + ev->len) {
			ev = (const struct inotify_event *)p;
			if (!any && relevant(w, ev))
				any = true;
		}
	}
	/* EAGAIN: nothing (more); anything else: ask stat() */
	return any || (n < 0 && errno != EAGAIN && errno != EINTR);
}

bool resident_watch_changed(struct resident_watch *w)
{
	struct stat now[RESIDENT_WATCH_MAX];
	double t = monotonic();
	size_t i;

	if (w->fd >= 0 && !events(w) && t - w->checked < w->interval)
		return false;
	w->checked = t;
	stat_all(w, now);
	for (i = 0; i < w->n; i++)
		if (!same_file(&now[i], &w->seen[i]))
			return true;
	return false;
}

void resident_watch_release(struct resident_watch *w)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		free(w->paths[i]);
	w->n = 0;
	for (i = 0; i < w->nwant; i++)
		free(w->want[i].name);
	w->nwant = 0;
	if (w->on && w->fd >= 0)
		close(w->fd);
	w->on = false;
	w->fd = -1;
}

/* the epoll instance of wait_ready(), and the listening socket on it */
static int ep = -1, ep_lfd = -1;

int resident_listen(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	int fd, probe;

	/* a new socket may take a closed one's number: wait on it anew */
	if (ep >= 0)
		close(ep);
	ep = ep_lfd = -1;
	if (strlen(path) >= sizeof(sa.sun_path))
		return error("socket path too long: %s", path);
	memcpy(sa.sun_path, path, strlen(path) + 1);
	/* non-blocking: workers race for each client, the losers move on */
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return error("socket: %s", strerror(errno));
	/* a socket left by a worker that died: replace it, never a live one */
	if (lstat(path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode)) {
			close(fd);
			return error("%s exists and is not a socket", path);
		}
		probe = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
		if (probe >= 0 &&
		    connect(probe, (struct sockaddr *)&sa, sizeof(sa)) == 0) {
			close(probe);
			close(fd);
			return error("a resident filter already listens on %s",
				     path);
		}
		if (probe >= 0)
			close(probe);
		unlink(path);
	}
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(fd, 128) < 0) {
		error("cannot listen on %s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

void resident_answer(int *conn, char answer)
{
	if (*conn < 0)
		return;
	if (send(*conn, &answer, 1, MSG_NOSIGNAL) < 0 && errno != EPIPE)
		warn("cannot answer a client: %s", strerror(errno));
	close(*conn);
	*conn = -1;
}

/* take_fds - the two descriptors of an SCM_RIGHTS message, else -1 */
static int take_fds(struct msghdr *mh, int fds[2])
{
	struct cmsghdr *cm;
	int got = 0, i, n, tmp[8];

	fds[0] = fds[1] = -1;
	for (cm = CMSG_FIRSTHDR(mh); cm; cm = CMSG_NXTHDR(mh, cm)) {
		if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
			continue;
		n = (int)((cm->cmsg_len - CMSG_LEN(0)) / sizeof(int));
		if (n > 8)
			n = 8;
		memcpy(tmp, CMSG_DATA(cm), (size_t)n * sizeof(int));
		for (i = 0; i < n; i++) {
			if (got < 2)
				fds[got] = tmp[i];
			else
				close(tmp[i]);
			got++;
		}
	}
	if (got == 2 && !(mh->msg_flags & MSG_CTRUNC))
		return 0;
	for (i = 0; i < 2; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	fds[0] = fds[1] = -1;
	return -1;
}

/*
 * wait_ready - wait until lfd has a client (or a signal of waitmask
 * comes: -1, EINTR).  Through a worker's own epoll instance, made on
 * its first wait (after the fork: one per worker), on which lfd is
 * EPOLLEXCLUSIVE: a client wakes one waiting worker, not all of them
 * (with ppoll() every idle worker woke, lost the race for accept4()
 * and went back to sleep, four system calls and two context switches
 * per message and per idle worker), and the same idle worker, the
 * first to wait, takes message after message, with its SQLite page
 * cache still valid (another worker's commit empties it).  ppoll()
 * where epoll is refused.
 */
static int wait_ready(int lfd, const sigset_t *waitmask)
{
	struct pollfd pfd = { .fd = lfd, .events = POLLIN };
	struct epoll_event ev = { .events = EPOLLIN | EPOLLEXCLUSIVE };

	if (ep_lfd != lfd) {
		if (ep >= 0)
			close(ep);
		ep_lfd = lfd;
		ep = epoll_create1(EPOLL_CLOEXEC);
		/* a kernel before 4.5 knows no EPOLLEXCLUSIVE */
		if (ep >= 0 && epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &ev) < 0) {
			ev.events = EPOLLIN;
			if (epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &ev) < 0) {
				close(ep);
				ep = -1;
			}
		}
	}
	if (ep >= 0)
		return epoll_pwait(ep, &ev, 1, -1, waitmask) < 0 ? -1 : 0;
	return ppoll(&pfd, 1, NULL, waitmask) < 0 ? -1 : 0;
}

int resident_accept(int lfd, char *buf, struct resident_request *req,
		    int fds[2], int *conn, volatile int *stop,
		    const sigset_t *waitmask, bool (*stale)(void *), void *ctx)
{
	union {
		struct cmsghdr h;
		char space[CMSG_SPACE(8 * sizeof(int))];
	} ctl;
	struct pollfd pfd = { .fd = -1, .events = POLLIN };
	struct msghdr mh;
	struct iovec iov;
	const char *why;
	ssize_t n;
	int c;

	*conn = -1;
	for (;;) {
		if (*stop)
			return 0;
		if (wait_ready(lfd, waitmask) < 0) {
			if (errno == EINTR)
				continue;
			return error("poll: %s", strerror(errno));
		}
		/*
		 * checked with a client waiting, so it meets fresh indexes;
		 * a worker that ends here leaves the client to the fresh
		 * one the supervisor starts (this worker had its wake-up)
		 */
		if (*stop || (stale && stale(ctx)))
			return 0;
		c = accept4(lfd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (c < 0) {
			/* another worker took it, or the client gave up */
			if (errno == EAGAIN || errno == EINTR ||
			    errno == ECONNABORTED)
				continue;
			return error("accept: %s", strerror(errno));
		}
		memset(&mh, 0, sizeof(mh));
		iov.iov_base = buf;
		iov.iov_len = RESIDENT_REQUEST_MAX;
		mh.msg_iov = &iov;
		mh.msg_iovlen = 1;
		mh.msg_control = ctl.space;
		mh.msg_controllen = sizeof(ctl.space);
		/*
		 * The client sends its record right after connect(), so it is
		 * mostly here already; else give it a second, so that a peer
		 * that never writes cannot hold a worker.
		 */
		n = recvmsg(c, &mh, MSG_CMSG_CLOEXEC);
		if (n < 0 && errno == EAGAIN) {
			pfd.fd = c;
			if (poll(&pfd, 1, 1000) == 1)
				n = recvmsg(c, &mh, MSG_CMSG_CLOEXEC);
		}
		if (n <= 0) {
			close(c);
			continue;
		}
		if (take_fds(&mh, fds) < 0) {
			*conn = c;
			resident_answer(conn, RESIDENT_DECLINE);
			continue;
		}
		buf[n] = '\0';
		if ((mh.msg_flags & MSG_TRUNC) ||
		    resident_parse(buf, (size_t)n, req, &why) < 0) {
			close(fds[0]);
			close(fds[1]);
			*conn = c;
			resident_answer(conn, RESIDENT_DECLINE);
			continue;
		}
		/* (still non-blocking: its one-byte answer cannot fill it) */
		*conn = c;
		return 1;
	}
}

static volatile sig_atomic_t supervisor_stop;

static void on_stop(int sig)
{
	(void)sig;
	supervisor_stop = 1;
}

/* SIGCHLD only has to end sigsuspend() */
static void on_child(int sig)
{
	(void)sig;
}

/* reaped - a worker ended: free its slot; pause if it could not start */
static void reaped(pid_t pid, int status, pid_t *pids, const double *started,
		   unsigned n, unsigned *live)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		if (pids[i] != pid)
			continue;
		pids[i] = 0;
		(*live)--;
		if (WIFSIGNALED(status))
			warn("worker %d killed by signal %d", (int)pid,
			     WTERMSIG(status));
		/* a worker that cannot start: do not spin */
		if (now_seconds() - started[i] < 1 &&
		    (WIFSIGNALED(status) || WEXITSTATUS(status)))
			sleep(1);
	}
}

/*
 * SIGTERM, SIGINT and SIGCHLD stay blocked except inside sigsuspend(),
 * so a stop that comes between the check of supervisor_stop and the
 * wait is not lost.  A worker asks for SIGTERM when the supervisor dies
 * (PR_SET_PDEATHSIG): killed alone, even with SIGKILL, the supervisor
 * leaves no worker behind on a socket nobody can reach any more.
 */
int resident_supervise(int lfd, unsigned n, int (*serve)(void *, int),
		       void *ctx)
{
	pid_t pids[64], self = getpid(), pid;
	double started[64];
	struct sigaction sa;
	sigset_t block, old, waiting;
	unsigned i, live = 0;
	int status;

	if (n == 0 || n > ARRAY_SIZE(pids))
		return error("between 1 and %zu workers", ARRAY_SIZE(pids));
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = on_child;
	sigaction(SIGCHLD, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, &old);
	waiting = old;
	sigdelset(&waiting, SIGTERM);
	sigdelset(&waiting, SIGINT);
	sigdelset(&waiting, SIGCHLD);
	for (i = 0; i < n; i++)
		pids[i] = 0;

	while (!supervisor_stop) {
		for (i = 0; i < n && !supervisor_stop; i++) {
			if (pids[i] > 0)
				continue;
			pid = fork();
			if (pid == 0) {
				prctl(PR_SET_PDEATHSIG, SIGTERM);
				/* the supervisor died before the call */
				if (getppid() != self)
					_exit(0);
				/* serve() installs its own; until then, the default */
				signal(SIGTERM, SIG_DFL);
				signal(SIGINT, SIG_DFL);
				signal(SIGCHLD, SIG_DFL);
				sigprocmask(SIG_SETMASK, &old, NULL);
				_exit(serve(ctx, lfd) < 0 ? 1 : 0);
			}
			if (pid < 0) {
				warn("fork: %s", strerror(errno));
				sleep(1);
				continue;
			}
			pids[i] = pid;
			started[i] = now_seconds();
			live++;
		}
		while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
			reaped(pid, status, pids, started, n, &live);
		if (!supervisor_stop && live == n)
			sigsuspend(&waiting);
	}
	for (i = 0; i < n; i++)
		if (pids[i] > 0)
			kill(pids[i], SIGTERM);
	while (live > 0 && (pid = waitpid(-1, &status, 0)) > 0)
		reaped(pid, status, pids, started, n, &live);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return 0;
}
