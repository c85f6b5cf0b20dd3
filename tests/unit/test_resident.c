// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_resident - the resident filter's request records and its socket:
 * what is accepted, what is refused, and a whole exchange with the
 * descriptors passed
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "resident.h"

static char buf[RESIDENT_REQUEST_MAX + 1];

/* parse - copy a record (len bytes, NULs included) and parse it */
static int parse(const char *rec, size_t len, struct resident_request *req,
		 const char **why)
{
	memcpy(buf, rec, len);
	return resident_parse(buf, len, req, why);
}

#define REC(s) s, sizeof(s) - 1

static void test_accepted(void **state)
{
	struct resident_request req;
	const char *why;

	(void)state;
	assert_int_equal(parse(REC("v=1\0config=/etc/triage/routes.conf\0"
				   "SENDER=a@example.org\0"
				   "ORIGINAL_RECIPIENT=bugs@example.org\0"
				   "CLIENT_ADDRESS=192.0.2.7\0"),
			       &req, &why),
			 0);
	assert_null(why);
	assert_string_equal(req.config, "/etc/triage/routes.conf");
	assert_null(req.state);
	assert_string_equal(req.env[0], "a@example.org");
	assert_null(req.env[1]);
	assert_string_equal(req.env[2], "bugs@example.org");
	/* the connecting client, which client_cap counts */
	assert_string_equal(req.env[3], "192.0.2.7");
	assert_null(req.env[4]);

	/* an empty SENDER is a bounce's: kept, not unset */
	assert_int_equal(parse(REC("v=1\0config=x\0state=/s\0SENDER=\0"
				   "TRIAGE_PROFILE=1\0"),
			       &req, &why),
			 0);
	assert_string_equal(req.state, "/s");
	assert_non_null(req.env[0]);
	assert_string_equal(req.env[0], "");
	assert_null(req.env[3]);
	assert_string_equal(req.env[4], "1");

	/* a newer client's field is ignored; '=' in a value is data */
	assert_int_equal(
		parse(REC("v=1\0config=/a=b\0COLOR=blue\0"), &req, &why), 0);
	assert_string_equal(req.config, "/a=b");
}

static void test_refused(void **state)
{
	static const struct {
		const char *rec;
		size_t len;
	} bad[] = {
		{ REC("") },
		{ REC("v=1\0config=x") },	  /* not NUL-terminated */
		{ REC("config=x\0v=1\0") },	  /* version not first */
		{ REC("v=2\0config=x\0") },	  /* another version */
		{ REC("v=\0config=x\0") },	  /* empty version */
		{ REC("v=1\0") },		  /* no configuration */
		{ REC("v=1\0config=x\0oops\0") }, /* a field without '=' */
		{ REC("v\0config=x\0") },
	};
	struct resident_request req;
	const char *why;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why = NULL;
		assert_int_equal(parse(bad[i].rec, bad[i].len, &req, &why), -1);
		assert_non_null(why);
	}
	/* longer than a record may be */
	memset(buf, 'a', sizeof(buf));
	buf[RESIDENT_REQUEST_MAX] = '\0';
	assert_int_equal(
		resident_parse(buf, RESIDENT_REQUEST_MAX + 1, &req, &why), -1);
}

static volatile int never;

/* a client and a worker in one process: the descriptors arrive */
static void test_exchange(void **state)
{
	char dir[] = "/tmp/test_resident.XXXXXX", path[128];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct resident_request req;
	static const char rec[] = "v=1\0config=/c\0SENDER=s@example.org\0";
	int lfd, cfd, conn, fds[2], p[2], pass[2];
	struct resident_message m;
	char got[8], answer;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/sock", dir);
	lfd = resident_listen(path);
	assert_true(lfd >= 0);
	/* a second one on a live socket is refused */
	assert_int_equal(resident_listen(path), -1);

	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], "hello", 5), 5);
	close(p[1]);
	pass[0] = p[0];
	pass[1] = 2;
	memcpy(sa.sun_path, path, strlen(path) + 1);
	cfd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	assert_int_equal(connect(cfd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	resident_message(&m, rec, sizeof(rec) - 1, pass);
	assert_int_equal(sendmsg(cfd, &m.mh, MSG_NOSIGNAL), sizeof(rec) - 1);
	close(p[0]);

	assert_int_equal(resident_accept(lfd, buf, &req, fds, &conn, &never,
					 NULL, NULL, NULL),
			 1);
	assert_string_equal(req.config, "/c");
	assert_string_equal(req.env[0], "s@example.org");
	/* the message, read through the descriptor passed */
	assert_int_equal(read(fds[0], got, sizeof(got)), 5);
	assert_memory_equal(got, "hello", 5);
	close(fds[0]);
	close(fds[1]);
	resident_answer(&conn, RESIDENT_DONE);
	assert_int_equal(conn, -1);
	assert_int_equal(read(cfd, &answer, 1), 1);
	assert_int_equal(answer, RESIDENT_DONE);
	close(cfd);

	close(lfd);
	/* a socket nobody listens on any more is replaced */
	lfd = resident_listen(path);
	assert_true(lfd >= 0);
	close(lfd);
	unlink(path);
	rmdir(dir);
}

/* stale() says so with a client waiting: left queued, 0 returned */
static bool always(void *ctx)
{
	(void)ctx;
	return true;
}

static void test_stale(void **state)
{
	char dir[] = "/tmp/test_resident.XXXXXX", path[128];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct resident_request req;
	int lfd, cfd, conn, fds[2];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/sock", dir);
	lfd = resident_listen(path);
	assert_true(lfd >= 0);
	memcpy(sa.sun_path, path, strlen(path) + 1);
	cfd = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	assert_int_equal(connect(cfd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(send(cfd, "v=1\0config=/c\0", 14, 0), 14);
	assert_int_equal(resident_accept(lfd, buf, &req, fds, &conn, &never,
					 NULL, always, NULL),
			 0);
	/* still queued: no fds were passed, so the next accept declines */
	assert_int_equal(conn, -1);
	close(cfd);
	close(lfd);
	unlink(path);
	rmdir(dir);
}

/* what the client sends (absolute, not resolved) against what a worker serves */
static void test_same(void **state)
{
	char dir[] = "/tmp/test_resident.XXXXXX", real[PATH_MAX];
	char conf[PATH_MAX + 16], link[PATH_MAX + 16], dotted[PATH_MAX + 32];
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_non_null(realpath(dir, real));
	snprintf(conf, sizeof(conf), "%s/routes.conf", real);
	f = fopen(conf, "w");
	assert_non_null(f);
	fclose(f);
	snprintf(link, sizeof(link), "%s/link.conf", real);
	assert_int_equal(symlink(conf, link), 0);
	snprintf(dotted, sizeof(dotted), "%s/../%s/routes.conf", real,
		 strrchr(real, '/') + 1);

	assert_true(resident_same(conf, conf));
	/* resolved on the worker's side */
	assert_true(resident_same(link, conf));
	assert_true(resident_same(dotted, conf));
	/* none against none; none against one */
	assert_true(resident_same(NULL, ""));
	assert_true(resident_same("", ""));
	assert_false(resident_same(NULL, conf));
	assert_false(resident_same(conf, ""));
	/* relative: the worker cannot know from where, even if it resolves */
	assert_int_equal(chdir(real), 0);
	assert_false(resident_same("routes.conf", conf));
	assert_false(resident_same("./link.conf", conf));
	assert_int_equal(chdir("/"), 0);
	/* another file, a missing one */
	assert_false(resident_same("/etc/passwd", conf));
	assert_false(resident_same("/nonexistent/routes.conf", conf));
	assert_true(resident_same("/nonexistent/routes.conf",
				  "/nonexistent/routes.conf"));

	unlink(link);
	unlink(conf);
	rmdir(real);
}

static void put(const char *dir, const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void watch_these(struct resident_watch *w, const char *dir,
			double interval)
{
	static const char *const names[] = { "routes.conf", "rules",
					     "rules/a.rules", "ld/MAINTAINERS",
					     "outer/ld/idx" };
	size_t i;

	memset(w, 0, sizeof(*w));
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char path[256];

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		w->paths[w->n++] = strdup(path);
	}
	resident_watch_start(w, interval);
}

/* the inputs of a worker: inotify says when to stat(), stat() decides */
static void test_watch(void **state)
{
	char dir[] = "/tmp/test_resident.XXXXXX", sub[300], cmd[600];
	struct resident_watch w;
	double checked;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd),
		 "cd %s && mkdir rules d1 d2 outer && ln -s d1 ld && "
		 "ln -s ../d1 outer/ld && echo 1 >d2/MAINTAINERS",
		 dir);
	assert_int_equal(system(cmd), 0);
	put(dir, "routes.conf", "a = 1\n");
	snprintf(sub, sizeof(sub), "%s/rules", dir);
	put(sub, "a.rules", "rule\n");
	snprintf(sub, sizeof(sub), "%s/d1", dir);
	put(sub, "MAINTAINERS", "M\n");
	put(sub, "idx", "i\n");

	watch_these(&w, dir, 3600);
	assert_true(w.fd >= 0);
	assert_false(resident_watch_changed(&w));
	/* a file of no interest written: not even a stat() */
	checked = w.checked;
	put(dir, "triage.db-wal", "x");
	assert_false(resident_watch_changed(&w));
	assert_true(w.checked == checked);
	/* an event naming an input, which did not change: stat() decides */
	snprintf(cmd, sizeof(cmd), "touch -r %s/routes.conf %s/routes.conf",
		 dir, dir);
	assert_int_equal(system(cmd), 0);
	assert_false(resident_watch_changed(&w));
	assert_true(w.checked > checked);
	/* edited in place */
	put(dir, "routes.conf", "a = 2\n");
	assert_true(resident_watch_changed(&w));
	resident_watch_release(&w);

	/* replaced by a rename, as 'triage update' does */
	watch_these(&w, dir, 3600);
	snprintf(sub, sizeof(sub), "%s/rules", dir);
	put(sub, "new", "rule2\n");
	snprintf(cmd, sizeof(cmd), "mv %s/rules/new %s/rules/a.rules", dir,
		 dir);
	assert_int_equal(system(cmd), 0);
	assert_true(resident_watch_changed(&w));
	resident_watch_release(&w);

	/* a rule file added: the directory changed */
	watch_these(&w, dir, 3600);
	put(sub, "b.rules", "rule3\n");
	assert_true(resident_watch_changed(&w));
	resident_watch_release(&w);

	/* through a link: its target's directory is watched */
	watch_these(&w, dir, 3600);
	snprintf(sub, sizeof(sub), "%s/d1", dir);
	put(sub, "MAINTAINERS", "M2\n");
	assert_true(resident_watch_changed(&w));
	resident_watch_release(&w);

	/*
	 * A linked directory retargeted where nothing is watched: inotify
	 * is blind to it, stat() sees it once the interval is over.
	 */
	watch_these(&w, dir, 3600);
	snprintf(cmd, sizeof(cmd),
		 "cd %s && echo j >d2/idx && ln -s ../d2 outer/new && "
		 "mv -T outer/new outer/ld",
		 dir);
	assert_int_equal(system(cmd), 0);
	assert_false(resident_watch_changed(&w));
	w.interval = 0;
	assert_true(resident_watch_changed(&w));
	resident_watch_release(&w);
	assert_int_equal(w.fd, -1);

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accepted), cmocka_unit_test(test_refused),
		cmocka_unit_test(test_exchange), cmocka_unit_test(test_stale),
		cmocka_unit_test(test_same),	 cmocka_unit_test(test_watch),
	};

	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
