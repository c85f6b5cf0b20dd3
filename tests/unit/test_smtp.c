// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_smtp - smtp_send() against real SMTP servers started here
 *
 * Every test that needs a server starts one on a free loopback port:
 * aiosmtpd (python3-aiosmtpd, with a small handler written by this test
 * for per-stage faults, AUTH and TLS) and Postfix's smtp-sink (faults by
 * -r/-f/-q).  The same tests run against each program that is installed;
 * the group for a missing one is skipped with a message, and the AUTH/TLS
 * tests run against aiosmtpd only (and need openssl for a certificate).
 * The interpreter is the first of $TEST_PYTHON, /usr/bin/python3 (where
 * Debian's python3-aiosmtpd is) and python3 on PATH that has aiosmtpd.
 * A test's
 * teardown stops its server whether the test passed or not; servers also
 * die with this process (PR_SET_PDEATHSIG).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "deliver.h"
#include "smtp.h"
#include "strbuf.h"
#include "util.h"

#define SMTP_SINK "/usr/sbin/smtp-sink"
#define OPENSSL	  "/usr/bin/openssl"
#define FROM	  "bounces@triage.example.org"
#define RCPT	  "alice@example.org"
#define USER	  "triage"
#define PASSWORD  "s3cret!pw"

enum kind { AIOSMTPD, SINK };

static char tmpdir[64];
static char cert[128], other[128];
static bool have_kind[2], have_cert;
static char python[256]; /* an interpreter with aiosmtpd, or "" */
static enum kind kind;	 /* the group being run */

struct peer {
	pid_t pid;
	unsigned port;
	char spool[160];
	int listen_fd; /* for the silent "peer" of the timeout test */
};

static struct peer peer = { 0, 0, "", -1 };

/* peer.py: an aiosmtpd server; argv: mode spool portfile [cert] */
static const char peer_py[] =
	"import asyncio, os, signal, ssl, sys\n"
	"from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword\n"
	"mode, spool, portfile = sys.argv[1], sys.argv[2], sys.argv[3]\n"
	"cert = sys.argv[4] if len(sys.argv) > 4 else ''\n"
	"n = [0]\n"
	"class Handler:\n"
	"    async def handle_RCPT(self, server, session, envelope, address,"
	" options):\n"
	"        if mode == 'rcpt-soft':\n"
	"            return '451 4.3.0 try again later'\n"
	"        if mode == 'rcpt-hard':\n"
	"            return '550 5.1.1 no such user here'\n"
	"        envelope.rcpt_tos.append(address)\n"
	"        return '250 2.1.5 OK'\n"
	"    async def handle_DATA(self, server, session, envelope):\n"
	"        if mode == 'data-soft':\n"
	"            return '452 4.3.1 insufficient system storage'\n"
	"        if mode == 'data-hard':\n"
	"            return '554 5.6.0 message refused'\n"
	"        if mode == 'drop':\n"
	"            server.transport.close()\n"
	"            return '250 never sent'\n"
	"        n[0] += 1\n"
	"        tmp = os.path.join(spool, 'tmp.%d' % n[0])\n"
	"        with open(tmp, 'wb') as f:\n"
	"            f.write(b'MAIL ' + envelope.mail_from.encode() + b'\\n')\n"
	"            for r in envelope.rcpt_tos:\n"
	"                f.write(b'RCPT ' + r.encode() + b'\\n')\n"
	"            f.write(b'\\n' + envelope.original_content)\n"
	"            f.flush()\n"
	"            os.fsync(f.fileno())\n"
	"        os.rename(tmp, os.path.join(spool, 'msg.%d' % n[0]))\n"
	"        return '250 2.0.0 queued as %d' % n[0]\n"
	"def auth(server, session, envelope, mechanism, data):\n"
	"    ok = isinstance(data, LoginPassword) and data.login == b'" USER
	"' and data.password == b'" PASSWORD "'\n"
	"    return AuthResult(success=ok, handled=False)\n"
	"def context():\n"
	"    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)\n"
	"    ctx.load_cert_chain(cert, cert)\n"
	"    return ctx\n"
	"def factory():\n"
	"    kw = {}\n"
	"    if mode in ('starttls', 'auth-tls'):\n"
	"        kw['tls_context'] = context()\n"
	"        kw['require_starttls'] = True\n"
	"    if mode.startswith('auth'):\n"
	"        kw['authenticator'] = auth\n"
	"        kw['auth_required'] = True\n"
	"        kw['auth_require_tls'] = mode == 'auth-tls'\n"
	"    return SMTP(Handler(), hostname='peer.test', **kw)\n"
	"async def main():\n"
	"    loop = asyncio.get_running_loop()\n"
	"    tls = context() if mode == 'smtps' else None\n"
	"    srv = await loop.create_server(factory, '127.0.0.1', 0, ssl=tls)\n"
	"    port = srv.sockets[0].getsockname()[1]\n"
	"    with open(portfile + '.tmp', 'w') as f:\n"
	"        f.write('%d\\n' % port)\n"
	"    os.rename(portfile + '.tmp', portfile)\n"
	"    stop = loop.create_future()\n"
	"    loop.add_signal_handler(signal.SIGTERM, stop.set_result, None)\n"
	"    await stop\n"
	"    srv.close()\n"
	"asyncio.run(main())\n";

/* ---- starting and stopping servers ---------------------------------- */

static unsigned free_port(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t len = sizeof(sa);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&sa, &len), 0);
	close(fd);
	return ntohs(sa.sin_port);
}

/*
 * our_banner - the server on port greets with name: it is the smtp-sink
 * we started, not some other program that took the port in between
 */
static bool our_banner(unsigned port, const char *name)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	struct timeval tv = { 2, 0 };
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	char buf[256];
	ssize_t n = -1;

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sa.sin_port = htons((uint16_t)port);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0)
		n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	return starts_with(buf, "220 ") && strstr(buf, name);
}

static pid_t spawn(char *const argv[])
{
	pid_t pid = fork();
	int fd;

	assert_true(pid >= 0);
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		fd = open("/dev/null", O_RDWR);
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		execv(argv[0], argv);
		_exit(127);
	}
	return pid;
}

static void peer_stop(void)
{
	if (peer.pid > 0) {
		kill(peer.pid, SIGTERM);
		if (waitpid(peer.pid, NULL, 0) < 0)
			warn("waitpid: %s", strerror(errno));
		peer.pid = 0;
	}
	if (peer.listen_fd >= 0) {
		close(peer.listen_fd);
		peer.listen_fd = -1;
	}
}

/* peer_start - a server of the group's kind in one of the fault modes */
static void peer_start(const char *mode)
{
	static unsigned seq;
	char portfile[200];
	int i;

	if (!have_kind[kind]) {
		print_message("skipped: %s is not installed\n",
			      kind == AIOSMTPD ? "python3-aiosmtpd"
					       : SMTP_SINK);
		skip();
	}
	snprintf(peer.spool, sizeof(peer.spool), "%s/spool.%u", tmpdir, ++seq);
	assert_int_equal(mkdir(peer.spool, 0777), 0);
	chmod(peer.spool, 0777); /* smtp-sink writes as nobody */
	if (kind == AIOSMTPD) {
		char script[160];
		char *argv[] = { python,   script, (char *)mode, peer.spool,
				 portfile, cert,   NULL };

		snprintf(script, sizeof(script), "%s/peer.py", tmpdir);
		snprintf(portfile, sizeof(portfile), "%s/port", peer.spool);
		if (!have_cert)
			argv[5] = NULL;
		peer.pid = spawn(argv);
		for (i = 0; i < 1000; i++) {
			char *buf;
			unsigned long port;

			if (access(portfile, F_OK) == 0 &&
			    read_file(portfile, 64, &buf, NULL) == 0) {
				assert_int_equal(parse_ulong(trim(buf), &port),
						 0);
				peer.port = (unsigned)port;
				free(buf);
				return;
			}
			if (waitpid(peer.pid, NULL, WNOHANG) == peer.pid) {
				peer.pid = 0;
				fail_msg("aiosmtpd did not start");
			}
			usleep(10000);
		}
		fail_msg("aiosmtpd did not start in 10 s");
	} else {
		char dump[200], listen[64], name[64];
		const char *opt = NULL, *arg = NULL;
		char *argv[20];
		int n = 0, tries;

		if (!strcmp(mode, "rcpt-soft"))
			opt = "-r", arg = "RCPT";
		else if (!strcmp(mode, "rcpt-hard"))
			opt = "-f", arg = "RCPT";
		else if (!strcmp(mode, "data-soft"))
			opt = "-r", arg = ".";
		else if (!strcmp(mode, "data-hard"))
			opt = "-f", arg = ".";
		else if (!strcmp(mode, "drop"))
			opt = "-q", arg = ".";
		else if (strcmp(mode, "ok"))
			fail_msg("smtp-sink has no mode %s", mode);
		snprintf(dump, sizeof(dump), "%s/%%Y%%m%%d%%H%%M%%S.",
			 peer.spool);
		snprintf(name, sizeof(name), "sink-%ld-%u", (long)getpid(),
			 seq);
		argv[n++] = (char *)SMTP_SINK;
		if (geteuid() == 0) {
			argv[n++] = (char *)"-u";
			argv[n++] = (char *)"nobody";
		}
		argv[n++] = (char *)"-h";
		argv[n++] = name;
		argv[n++] = (char *)"-d";
		argv[n++] = dump;
		argv[n++] = (char *)"-c";
		if (opt) {
			argv[n++] = (char *)opt;
			argv[n++] = (char *)arg;
		}
		argv[n++] = listen;
		argv[n++] = (char *)"10";
		argv[n] = NULL;
		/* the port may be taken between free_port() and the bind */
		for (tries = 0; tries < 5; tries++) {
			peer.port = free_port();
			snprintf(listen, sizeof(listen), "127.0.0.1:%u",
				 peer.port);
			peer.pid = spawn(argv);
			for (i = 0; i < 500; i++) {
				if (our_banner(peer.port, name))
					return;
				if (waitpid(peer.pid, NULL, WNOHANG) ==
				    peer.pid) {
					peer.pid = 0;
					break;
				}
				usleep(10000);
			}
			peer_stop();
		}
		fail_msg("smtp-sink did not start");
	}
}

static int test_setup(void **state)
{
	peer.pid = 0;
	peer.listen_fd = -1;
	return 0;
}

static int test_teardown(void **state)
{
	peer_stop();
	return 0;
}

/* ---- what the server received --------------------------------------- */

struct received {
	char from[DELIVER_ADDR_MAX + 3];
	char rcpt[4][DELIVER_ADDR_MAX + 3];
	size_t nrcpt;
	char *data; /* the message as stored: CRLF (aiosmtpd), LF (sink) */
	size_t len;
};

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * received - the messages stored in the spool (aiosmtpd: oldest first;
 * smtp-sink names files by the second, so the order is not known)
 */
static size_t received(struct received *r, size_t max)
{
	char *names[16];
	size_t n = 0, i, got = 0;
	struct dirent *de;
	DIR *d = opendir(peer.spool);

	assert_non_null(d);
	while ((de = readdir(d)) && n < ARRAY_SIZE(names)) {
		if (kind == AIOSMTPD ? strncmp(de->d_name, "msg.", 4) != 0
				     : !isdigit((unsigned char)de->d_name[0]))
			continue;
		names[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (kind == AIOSMTPD) {
		/* msg.N: sort by N */
		for (i = 0; i < n; i++) {
			char *x = xasprintf("%08ld", atol(names[i] + 4));

			free(names[i]);
			names[i] = x;
		}
	}
	qsort(names, n, sizeof(names[0]), cmp_names);
	for (i = 0; i < n && got < max; i++) {
		char *path, *buf, *p, *line;
		size_t len;

		if (kind == AIOSMTPD)
			path = xasprintf("%s/msg.%ld", peer.spool,
					 atol(names[i]));
		else
			path = xasprintf("%s/%s", peer.spool, names[i]);
		assert_int_equal(read_file(path, 16 << 20, &buf, &len), 0);
		free(path);
		memset(&r[got], 0, sizeof(r[got]));
		p = buf;
		/* envelope lines, then the message */
		for (;;) {
			line = p;
			p = strchr(p, '\n');
			if (!p)
				break; /* smtp-sink: a transaction without data */
			*p++ = '\0';
			if (kind == AIOSMTPD) {
				if (!*line)
					break;
				if (!strncmp(line, "MAIL ", 5))
					snprintf(r[got].from,
						 sizeof(r[got].from), "%s",
						 line + 5);
				else if (!strncmp(line, "RCPT ", 5) &&
					 r[got].nrcpt < 4)
					snprintf(r[got].rcpt[r[got].nrcpt++],
						 sizeof(r[got].rcpt[0]), "%s",
						 line + 5);
			} else {
				/* X-Mail-Args: <from> [SIZE=n], X-Rcpt-Args */
				if (!strncmp(line, "X-Mail-Args: <", 14))
					snprintf(r[got].from,
						 sizeof(r[got].from), "%.*s",
						 (int)strcspn(line + 14, ">"),
						 line + 14);
				else if (!strncmp(line, "X-Rcpt-Args: <", 14) &&
					 r[got].nrcpt < 4)
					snprintf(r[got].rcpt[r[got].nrcpt++],
						 sizeof(r[got].rcpt[0]), "%.*s",
						 (int)strcspn(line + 14, ">"),
						 line + 14);
				else if (!strncmp(line, "Received: ", 10)) {
					/* its continuation lines, then data */
					while (*p == '\t')
						p = strchr(p, '\n') + 1;
					break;
				}
			}
		}
		if (!p) {
			free(buf);
			continue;
		}
		r[got].len = len - (size_t)(p - buf);
		/* smtp-sink ends each dump with an empty line of its own */
		if (kind == SINK && r[got].len && p[r[got].len - 1] == '\n')
			r[got].len--;
		r[got].data = xmemdup0(p, r[got].len);
		free(buf);
		got++;
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	return got;
}

static void received_free(struct received *r, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(r[i].data);
}

/* expect_data - what the server should have stored for msg */
static void expect_data(const char *msg, struct strbuf *out)
{
	struct strbuf crlf = STRBUF_INIT(1 << 24);

	assert_int_equal(deliver_to_crlf(msg, strlen(msg), &crlf), 0);
	if (kind == AIOSMTPD)
		assert_int_equal(sb_add(out, crlf.buf, crlf.len), 0);
	else
		assert_int_equal(deliver_to_lf(crlf.buf, crlf.len, out), 0);
	sb_release(&crlf);
}

static struct smtp_config config(enum smtp_tls tls)
{
	struct smtp_config cfg = {
		.host = "127.0.0.1",
		.port = peer.port,
		.tls = tls,
		.helo = "router.test",
		.connect_timeout_ms = 5000,
		.timeout_ms = 20000,
	};

	return cfg;
}

/* ---- tests against both servers ------------------------------------- */

static const char tricky[] = "From: Reporter <reporter@example.net>\n"
			     "To: bugs@triage.example.org\n"
			     "Subject: [BUG] dots and line ends\n"
			     "\n"
			     ".\n"
			     ".leading dot\n"
			     "..two dots\n"
			     "a bare CR\rin the middle\n"
			     "UTF-8: Gr\xc3\xbc\xc3\x9f"
			     "e\n"
			     "last line without newline";

static void test_delivered_bytes(void **state)
{
	struct strbuf expect = STRBUF_INIT(1 << 20);
	struct deliver_result res;
	struct smtp_config cfg;
	struct received r[2];

	peer_start("ok");
	cfg = config(SMTP_TLS_NONE);
	assert_int_equal(
		smtp_send(&cfg, FROM, RCPT, tricky, strlen(tricky), &res), 0);
	assert_int_equal(res.status, DELIVER_OK);
	assert_int_equal(res.smtp_code, 250);
	assert_int_equal(res.curl_code, 0);
	assert_int_equal(received(r, 2), 1);
	assert_string_equal(r[0].from, FROM);
	assert_int_equal(r[0].nrcpt, 1);
	assert_string_equal(r[0].rcpt[0], RCPT);
	/* dot-stuffed by libcurl, unstuffed by the server: same bytes */
	expect_data(tricky, &expect);
	if (r[0].len != expect.len ||
	    memcmp(r[0].data, expect.buf, expect.len) != 0)
		fail_msg("stored:\n%s\nexpected:\n%s", r[0].data, expect.buf);
	received_free(r, 1);
	sb_release(&expect);
}

static void expect_failure(const char *mode, enum deliver_status want,
			   int code_class, const char *stage)
{
	struct deliver_result res;
	struct smtp_config cfg;
	struct received r[1];

	peer_start(mode);
	cfg = config(SMTP_TLS_NONE);
	assert_int_equal(
		smtp_send(&cfg, FROM, RCPT, tricky, strlen(tricky), &res), -1);
	if (res.status != want)
		fail_msg("%s: status %s, detail %s", mode,
			 deliver_status_name(res.status), res.detail);
	if (code_class)
		assert_int_equal(res.smtp_code / 100, code_class);
	if (stage && strncmp(res.detail, stage, strlen(stage)) != 0)
		fail_msg("%s: detail %s", mode, res.detail);
	assert_null(strchr(res.detail, '\n'));
	/* smtp-sink keeps the data it then rejects; aiosmtpd does not */
	if (starts_with(mode, "rcpt") ||
	    (kind == AIOSMTPD && strcmp(mode, "drop") != 0))
		assert_int_equal(received(r, 1), 0);
}

static void test_rcpt_soft(void **state)
{
	expect_failure("rcpt-soft", DELIVER_TEMPORARY, 4, "RCPT: 45");
}

static void test_rcpt_hard(void **state)
{
	expect_failure("rcpt-hard", DELIVER_PERMANENT, 5, "RCPT: 5");
}

static void test_data_soft(void **state)
{
	expect_failure("data-soft", DELIVER_TEMPORARY, 4, "end of data: 4");
}

static void test_data_hard(void **state)
{
	expect_failure("data-hard", DELIVER_PERMANENT, 5, "end of data: 5");
}

static void test_drop_after_data(void **state)
{
	/* ambiguous: the peer may have the message; retry, never bounce */
	expect_failure("drop", DELIVER_TEMPORARY, 0, NULL);
}

static void test_client_reuse(void **state)
{
	const char *rcpts[] = { "a@example.org", "b@example.org",
				"c@example.org" };
	struct deliver_result res;
	struct smtp_client *c;
	struct smtp_config cfg;
	struct received r[4];
	size_t i;

	peer_start("ok");
	cfg = config(SMTP_TLS_NONE);
	c = smtp_client_new(&cfg, &res);
	assert_non_null(c);
	for (i = 0; i < 3; i++) {
		char *msg = xasprintf("Subject: %zu\n\nbody %zu\n", i, i);

		assert_int_equal(smtp_client_send(c, FROM, rcpts[i], msg,
						  strlen(msg), &res),
				 0);
		free(msg);
	}
	/* an invalid recipient on the same client: refused, client usable */
	assert_int_equal(smtp_client_send(c, FROM, "x@example.org\r\nRSET",
					  "x\n", 2, &res),
			 -1);
	assert_int_equal(res.status, DELIVER_PERMANENT);
	assert_int_equal(
		smtp_client_send(c, "", "d@example.org", "x\n", 2, &res), 0);
	smtp_client_free(c);
	assert_int_equal(received(r, 4), 4);
	for (i = 0; i < 4; i++) {
		size_t k;
		char *body;

		for (k = 0; k < 3 && strcmp(r[i].rcpt[0], rcpts[k]); k++)
			;
		if (k == 3) {
			/* the null sender */
			assert_string_equal(r[i].rcpt[0], "d@example.org");
			assert_string_equal(r[i].from,
					    kind == AIOSMTPD ? "<>" : "");
			continue;
		}
		body = xasprintf("Subject: %zu", k);
		assert_non_null(strstr(r[i].data, body));
		assert_string_equal(r[i].from, FROM);
		free(body);
	}
	received_free(r, 4);
}

static void test_injection(void **state)
{
	static const char *const evil[] = {
		"alice@example.org>\r\nRSET",
		"alice@example.org\r\nRCPT TO:<evil@example.org>",
		"alice@example.org\nDATA",
		"<alice@example.org>",
		"",
	};
	struct deliver_result res;
	struct smtp_config cfg;
	struct received r[1];
	size_t i;

	peer_start("ok");
	cfg = config(SMTP_TLS_NONE);
	for (i = 0; i < ARRAY_SIZE(evil); i++) {
		assert_int_equal(smtp_send(&cfg, FROM, evil[i], "x\n", 2, &res),
				 -1);
		assert_int_equal(res.status, DELIVER_PERMANENT);
		assert_int_equal(smtp_send(&cfg, evil[i][0] ? evil[i] : "x",
					   RCPT, "x\n", 2, &res),
				 -1);
		assert_int_equal(res.status, DELIVER_PERMANENT);
	}
	assert_int_equal(received(r, 1), 0);
}

/* ---- failures without a server -------------------------------------- */

/* bound_socket - a loopback port held by us; listening or not */
static unsigned bound_socket(bool listening)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t len = sizeof(sa);

	peer.listen_fd = socket(AF_INET, SOCK_STREAM, 0);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(
		bind(peer.listen_fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	if (listening)
		assert_int_equal(listen(peer.listen_fd, 4), 0);
	assert_int_equal(
		getsockname(peer.listen_fd, (struct sockaddr *)&sa, &len), 0);
	return ntohs(sa.sin_port);
}

static void test_refused(void **state)
{
	struct deliver_result res;
	struct smtp_config cfg;

	/* bound but not listening: refused, and nobody else can take it */
	peer.port = bound_socket(false);
	cfg = config(SMTP_TLS_NONE);
	assert_int_equal(smtp_send(&cfg, FROM, RCPT, "x\n", 2, &res), -1);
	assert_int_equal(res.status, DELIVER_TEMPORARY);
	assert_int_equal(res.curl_code, 7);
	assert_true(starts_with(res.detail, "connect: "));
}

static void test_timeout(void **state)
{
	struct deliver_result res;
	struct smtp_config cfg;

	/* a listener that never accepts: the handshake completes, no 220 */
	peer.port = bound_socket(true);
	cfg = config(SMTP_TLS_NONE);
	cfg.timeout_ms = 500;
	assert_int_equal(smtp_send(&cfg, FROM, RCPT, "x\n", 2, &res), -1);
	assert_int_equal(res.status, DELIVER_TEMPORARY);
	assert_int_equal(res.curl_code, 28);
}

static void test_bad_config(void **state)
{
	struct deliver_result res;
	struct smtp_config cfg = config(SMTP_TLS_NONE);

	cfg.host = "relay.example.org/evil?";
	assert_null(smtp_client_new(&cfg, &res));
	assert_int_equal(res.status, DELIVER_TEMPORARY);
	cfg.host = "relay.example.org";
	cfg.helo = "bad helo";
	assert_null(smtp_client_new(&cfg, &res));
	/* AUTH over a connection that may be plain, off loopback: refused */
	cfg.helo = NULL;
	cfg.user = USER;
	cfg.password = PASSWORD;
	cfg.tls = SMTP_TLS_OPPORTUNISTIC;
	assert_null(smtp_client_new(&cfg, &res));
	assert_non_null(strstr(res.detail, "AUTH needs tls"));
	assert_null(strstr(res.detail, PASSWORD));
}

/*
 * plain AUTH goes only to loopback: an address of 127.0.0.0/8, ::1 or
 * "localhost", never a name that only starts like one
 */
static void test_auth_loopback_exact(void **state)
{
	static const char *const loopback[] = {
		"127.0.0.1",  "127.1.2.3", "127.255.255.254",	"localhost",
		"LOCALHOST.", "[::1]",	   "[0:0:0:0:0:0:0:1]",
	};
	static const char *const remote[] = {
		"127.evil.example",
		"127.0.0.1.evil.example",
		"127.1",
		"localhost.evil.example",
		"128.0.0.1",
		"10.127.0.1",
		"[::2]",
		"[::ffff:127.0.0.1]",
		"0127.0.0.1",
	};
	struct smtp_config cfg;
	struct deliver_result res;
	struct smtp_client *c;
	size_t i;

	(void)state;
	memset(&cfg, 0, sizeof(cfg));
	cfg.user = USER;
	cfg.password = PASSWORD;
	cfg.tls = SMTP_TLS_OPPORTUNISTIC;
	cfg.port = 2525;
	for (i = 0; i < sizeof(remote) / sizeof(remote[0]); i++) {
		cfg.host = remote[i];
		c = smtp_client_new(&cfg, &res);
		if (c) {
			smtp_client_free(c);
			fail_msg("plain AUTH allowed to %s", remote[i]);
		}
		assert_non_null(strstr(res.detail, "AUTH needs tls"));
	}
	for (i = 0; i < sizeof(loopback) / sizeof(loopback[0]); i++) {
		cfg.host = loopback[i];
		c = smtp_client_new(&cfg, &res);
		if (!c)
			fail_msg("%s refused: %s", loopback[i], res.detail);
		smtp_client_free(c);
	}
}

static void test_classify(void **state)
{
	static const struct {
		int curl, code;
		const char *stage;
		enum deliver_status want;
	} m[] = {
		{ 0, 250, ".", DELIVER_OK },
		{ 55, 450, "RCPT", DELIVER_TEMPORARY },
		{ 55, 451, "RCPT", DELIVER_TEMPORARY },
		{ 55, 550, "RCPT", DELIVER_PERMANENT },
		{ 55, 500, "RCPT", DELIVER_PERMANENT },
		{ 8, 450, ".", DELIVER_TEMPORARY },
		{ 8, 554, ".", DELIVER_PERMANENT },
		{ 55, 421, "MAIL", DELIVER_TEMPORARY },
		{ 55, 553, "MAIL", DELIVER_PERMANENT },
		{ 7, 0, "", DELIVER_TEMPORARY },
		{ 56, 250, ".", DELIVER_TEMPORARY },
		{ 28, 250, ".", DELIVER_TEMPORARY },
		{ 28, 354, ".", DELIVER_TEMPORARY },
		{ 55, 0, "MAIL", DELIVER_TEMPORARY },
		{ 55, 354, ".", DELIVER_TEMPORARY },
		{ 67, 535, "AUTH", DELIVER_TEMPORARY },
		{ 8, 554, "", DELIVER_TEMPORARY },
		{ 9, 550, "EHLO", DELIVER_TEMPORARY },
		{ 64, 0, "EHLO", DELIVER_TEMPORARY },
		{ 60, 0, "STARTTLS", DELIVER_TEMPORARY },
		{ 55, 550, NULL, DELIVER_PERMANENT },
		{ 55, 530, "MAIL", DELIVER_TEMPORARY },
		{ 99, 0, NULL, DELIVER_TEMPORARY },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(m); i++)
		if (smtp_classify(m[i].curl, m[i].code, m[i].stage) !=
		    m[i].want)
			fail_msg("curl %d, smtp %d, stage %s", m[i].curl,
				 m[i].code, m[i].stage ? m[i].stage : "NULL");
}

/* ---- AUTH and TLS (aiosmtpd) ---------------------------------------- */

/* need_tls - skip without a certificate (the tests run with aiosmtpd) */
static void need_tls(void)
{
	if (!have_cert) {
		print_message("skipped: no openssl to make a certificate\n");
		skip();
	}
}

static void test_auth(void **state)
{
	struct deliver_result res;
	struct smtp_config cfg;
	struct received r[1];

	need_tls();
	/* plain AUTH is allowed to a loopback relay */
	peer_start("auth");
	cfg = config(SMTP_TLS_NONE);
	cfg.user = USER;
	cfg.password = PASSWORD;
	assert_int_equal(smtp_send(&cfg, FROM, RCPT, "x\n", 2, &res), 0);
	assert_int_equal(received(r, 1), 1);
	received_free(r, 1);

	/* a wrong password: the relay's problem, not the message's */
	cfg.password = "wrong-password";
	assert_int_equal(smtp_send(&cfg, FROM, RCPT, "x\n", 2, &res), -1);
	assert_int_equal(res.status, DELIVER_TEMPORARY);
	assert_int_equal(res.smtp_code, 535);
	assert_true(starts_with(res.detail, "AUTH: 535"));
	assert_null(strstr(res.detail, "wrong-password"));
	assert_null(strstr(res.detail, "d3Jvbmct")); /* base64 of "wrong-" */

	/* no AUTH at all where it is required */
	cfg.user = NULL;
	assert_int_equal(smtp_send(&cfg, FROM, RCPT, "x\n", 2, &res), -1);
	assert_int_equal(res.status, DELIVER_TEMPORARY);
	assert_int_equal(res.smtp_code / 100, 5);
}

static void test_starttls(void **state)
{
	struct deliver_result res;
	struct smtp_config cfg;
	struct received r[1];

	need_tls();
	peer_start("auth-tls");
	cfg = config(SMTP_TLS_STARTTLS);
	cfg.ca_file = cert;
	cfg.user = USER;
	cfg.password = PASSWORD;
	assert_int_equal(
		smtp_send(&cfg, FROM, RCPT, tricky, strlen(tricky), &res), 0);
	assert_int_equal(received(r, 1), 1);
	received_free(r, 1);

	/* required verification against a CA that did not sign it */
	cfg.ca_file = other;
	assert_int_equal(smtp_send(&cfg, FROM, RCPT, "x\n", 2, &res), -1);
	assert_int_equal(res.status, DELIVER_TEMPORARY);
	assert_int_equal(res.curl_code, 60);

	/* opportunistic: TLS without checks, so the self-signed one is OK */
	cfg.tls = SMTP_TLS_OPPORTUNISTIC;
	cfg.ca_file = NULL;
	assert_int_equal(smtp_send(&cfg, FROM, RCPT, "x\n", 2, &res), 0);
	assert_null(strstr(res.detail, PASSWORD));
}

static void test_starttls_not_offered(void **state)
{
	struct deliver_result res;
	struct smtp_config cfg;

	need_tls();
	peer_start("ok");
	cfg = config(SMTP_TLS_STARTTLS);
	cfg.ca_file = cert;
	assert_int_equal(smtp_send(&cfg, FROM, RCPT, "x\n", 2, &res), -1);
	assert_int_equal(res.status, DELIVER_TEMPORARY);
	assert_int_equal(res.curl_code, 64);
	/* opportunistic goes ahead in plain text */
	cfg.tls = SMTP_TLS_OPPORTUNISTIC;
	assert_int_equal(smtp_send(&cfg, FROM, RCPT, "x\n", 2, &res), 0);
}

static void test_smtps(void **state)
{
	struct deliver_result res;
	struct smtp_config cfg;
	struct received r[1];

	need_tls();
	peer_start("smtps");
	cfg = config(SMTP_TLS_IMPLICIT);
	cfg.ca_file = cert;
	assert_int_equal(smtp_send(&cfg, FROM, RCPT, "x\n", 2, &res), 0);
	assert_int_equal(received(r, 1), 1);
	received_free(r, 1);
	/* a plain client talking to a TLS port: temporary, not a bounce */
	cfg.tls = SMTP_TLS_NONE;
	cfg.timeout_ms = 2000;
	assert_int_equal(smtp_send(&cfg, FROM, RCPT, "x\n", 2, &res), -1);
	assert_int_equal(res.status, DELIVER_TEMPORARY);
}

/* ---- main ----------------------------------------------------------- */

static int run(const char *cmd)
{
	int rc = system(cmd);

	return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static int group_setup(void **state)
{
	return 0;
}

#define T(f) cmocka_unit_test_setup_teardown(f, test_setup, test_teardown)

/* has_aiosmtpd - PATH runs and imports aiosmtpd */
static bool has_aiosmtpd(const char *path)
{
	char *cmd;
	bool ok;

	if (!*path || strchr(path, '\'') || access(path, X_OK) != 0)
		return false;
	cmd = xasprintf("'%s' -c 'import aiosmtpd' 2>/dev/null", path);
	ok = run(cmd) == 0;
	free(cmd);
	return ok;
}

/* find_python - the first interpreter with aiosmtpd (see the top) */
static void find_python(void)
{
	const char *env = getenv("TEST_PYTHON");
	char *path = xstrdup(getenv("PATH") ? getenv("PATH") : ""), *dir;
	char *save = NULL;

	if (env && strlen(env) < sizeof(python) && has_aiosmtpd(env))
		snprintf(python, sizeof(python), "%s", env);
	else if (has_aiosmtpd("/usr/bin/python3"))
		snprintf(python, sizeof(python), "/usr/bin/python3");
	else
		for (dir = strtok_r(path, ":", &save); dir;
		     dir = strtok_r(NULL, ":", &save)) {
			char cand[sizeof(python)];

			if (snprintf(cand, sizeof(cand), "%s/python3", dir) <
				    (int)sizeof(cand) &&
			    has_aiosmtpd(cand)) {
				snprintf(python, sizeof(python), "%s", cand);
				break;
			}
		}
	free(path);
}

int main(void)
{
	const struct CMUnitTest common[] = {
		cmocka_unit_test(test_classify),
		cmocka_unit_test_setup_teardown(test_refused, test_setup,
						test_teardown),
		cmocka_unit_test_setup_teardown(test_timeout, test_setup,
						test_teardown),
		cmocka_unit_test(test_bad_config),
		cmocka_unit_test(test_auth_loopback_exact),
	};
	/* the same tests against both servers; AUTH and TLS: aiosmtpd */
	const struct CMUnitTest with_aiosmtpd[] = {
		T(test_delivered_bytes),
		T(test_rcpt_soft),
		T(test_rcpt_hard),
		T(test_data_soft),
		T(test_data_hard),
		T(test_drop_after_data),
		T(test_client_reuse),
		T(test_injection),
		T(test_auth),
		T(test_starttls),
		T(test_starttls_not_offered),
		T(test_smtps),
	};
	const struct CMUnitTest with_sink[] = {
		T(test_delivered_bytes), T(test_rcpt_soft),
		T(test_rcpt_hard),	 T(test_data_soft),
		T(test_data_hard),	 T(test_drop_after_data),
		T(test_client_reuse),	 T(test_injection),
	};
	char path[160], *cmd;
	int rc, fd;

	msg_setup("test_smtp", 1, false);
	signal(SIGPIPE, SIG_IGN);
	strcpy(tmpdir, "/tmp/triage-smtp-XXXXXX");
	if (!mkdtemp(tmpdir))
		die_errno("mkdtemp");
	chmod(tmpdir, 0755);
	find_python();
	have_kind[AIOSMTPD] = *python != '\0';
	have_kind[SINK] = access(SMTP_SINK, X_OK) == 0;
	snprintf(path, sizeof(path), "%s/peer.py", tmpdir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, peer_py, strlen(peer_py)) < 0)
		die_errno("cannot write %s", path);
	close(fd);
	snprintf(cert, sizeof(cert), "%s/cert.pem", tmpdir);
	snprintf(other, sizeof(other), "%s/other.pem", tmpdir);
	if (access(OPENSSL, X_OK) == 0) {
		cmd = xasprintf("cd '%s' && " OPENSSL " req -x509 -newkey ec "
				"-pkeyopt ec_paramgen_curve:prime256v1 -nodes "
				"-days 2 -subj /CN=127.0.0.1 -addext "
				"subjectAltName=IP:127.0.0.1 -keyout key.pem "
				"-out crt.pem >/dev/null 2>&1 && "
				"cat key.pem crt.pem >cert.pem && " OPENSSL
				" req -x509 -newkey ec -pkeyopt "
				"ec_paramgen_curve:prime256v1 -nodes -days 2 "
				"-subj /CN=127.0.0.1 -keyout other.key "
				"-out other.pem >/dev/null 2>&1",
				tmpdir);
		have_cert = run(cmd) == 0;
		free(cmd);
	}
	if (!have_kind[AIOSMTPD] && !have_kind[SINK])
		printf("# test_smtp: neither python3-aiosmtpd nor smtp-sink "
		       "is installed: server tests skipped\n");

	rc = cmocka_run_group_tests_name("smtp", common, NULL, NULL);
	kind = AIOSMTPD;
	rc |= cmocka_run_group_tests_name("smtp aiosmtpd", with_aiosmtpd,
					  group_setup, NULL);
	kind = SINK;
	rc |= cmocka_run_group_tests_name("smtp smtp-sink", with_sink,
					  group_setup, NULL);
	cmd = xasprintf("rm -rf '%s'", tmpdir);
	run(cmd);
	free(cmd);
	return rc;
}
