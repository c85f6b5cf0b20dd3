// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_experts - mining Reviewed-by experts from git history
 *
 * A repository is made in /tmp with git (commits with trailers and
 * dates set through GIT_COMMITTER_DATE); those tests are skipped when
 * git is missing.  The parser is also fed git log output directly.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "experts.h"
#include "strbuf.h"
#include "util.h"

#define DAY 86400
/* 2026-06-01 00:00:00 UTC: the reference time of every table here */
#define NOW 1780272000L

static char tmpdir[] = "/tmp/triage-experts-XXXXXX";
static char *repo, *idx;

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* git_run - run git in dir with fixed identities and dates */
static int git_run(const char *dir, long when, const char *author,
		   const char *email, const char *const *args)
{
	const char *argv[32];
	pid_t pid;
	int status, n = 0;

	argv[n++] = "git";
	while (*args && n < 30)
		argv[n++] = *args++;
	argv[n] = NULL;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char date[64];

		snprintf(date, sizeof(date), "@%ld +0000", when);
		setenv("GIT_AUTHOR_DATE", date, 1);
		setenv("GIT_COMMITTER_DATE", date, 1);
		setenv("GIT_AUTHOR_NAME", author, 1);
		setenv("GIT_AUTHOR_EMAIL", email, 1);
		setenv("GIT_COMMITTER_NAME", "Committer", 1);
		setenv("GIT_COMMITTER_EMAIL", "committer@example.org", 1);
		setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
		setenv("GIT_CONFIG_GLOBAL", "/dev/null", 1);
		int null = open("/dev/null", O_WRONLY);

		if (chdir(dir) < 0)
			_exit(126);
		dup2(null, 1);
		execvp("git", (char *const *)argv);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static bool have_git(void)
{
	static int have = -1;

	if (have < 0) {
		const char *args[] = { "--version", NULL };

		have = git_run("/", 0, "x", "x@example.org", args) == 0;
	}
	return have;
}

/* commit - write files (each gets new content) and commit with msg */
static void commit(long when, const char *author, const char *email,
		   const char *msg, const char *const *files)
{
	static int serial;
	const char *add[] = { "add", "-A", NULL };
	const char *ci[] = {
		"commit", "-q", "--allow-empty", "-F", NULL, NULL
	};
	char *mpath = xasprintf("%s/.msg", tmpdir);

	for (; *files; files++) {
		char *p = xasprintf("%s/%s", repo, *files), *slash;
		char body[64];

		slash = strrchr(p, '/');
		*slash = '\0';
		assert_int_equal(mkdir_p(p, 0755), 0);
		*slash = '/';
		snprintf(body, sizeof(body), "version %d\n", ++serial);
		write_text(p, body);
		free(p);
	}
	write_text(mpath, msg);
	ci[4] = mpath;
	assert_int_equal(git_run(repo, when, author, email, add), 0);
	assert_int_equal(git_run(repo, when, author, email, ci), 0);
	free(mpath);
}

static int setup(void **state)
{
	strcpy(tmpdir, "/tmp/triage-experts-XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	repo = xasprintf("%s/repo", tmpdir);
	idx = xasprintf("%s/experts.idx", tmpdir);
	return 0;
}

static int teardown(void **state)
{
	char *cmd = xasprintf("rm -rf '%s'", tmpdir);
	int rc = system(cmd);

	free(cmd);
	free(repo);
	free(idx);
	repo = idx = NULL;
	return rc == 0 ? 0 : -1;
}

static void options(struct experts_options *o)
{
	experts_options_init(o);
	o->now = NOW;
	o->halflife_days = 100;
	o->since = NOW - 365L * DAY;
}

/* find - the entry for addr in e[0..n), or NULL */
static const struct expert *find(const struct expert *e, size_t n,
				 const char *addr)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(e[i].addr, addr) == 0)
			return &e[i];
	return NULL;
}

static void test_addresses(void **state)
{
	char a[EXPERTS_ADDR_MAX + 1], n[EXPERTS_NAME_MAX];

	assert_int_equal(experts_parse_addr("Bob Example <Bob@Example.ORG>", a,
					    sizeof(a), n, sizeof(n)),
			 0);
	assert_string_equal(a, "bob@example.org");
	assert_string_equal(n, "Bob Example");
	assert_int_equal(
		experts_parse_addr("\"Doe, Jane\" <jane@x.org> # v5.10", a,
				   sizeof(a), n, sizeof(n)),
		0);
	assert_string_equal(a, "jane@x.org");
	assert_string_equal(n, "Doe, Jane");
	assert_int_equal(experts_parse_addr("mailto:Bugs@X.org?subject=bug", a,
					    sizeof(a), NULL, 0),
			 0);
	assert_string_equal(a, "bugs@x.org");
	assert_int_equal(
		experts_parse_addr(
			"linux-arm-kernel@lists.infradead.org (moderated for non-subscribers)",
			a, sizeof(a), n, sizeof(n)),
		0);
	assert_string_equal(a, "linux-arm-kernel@lists.infradead.org");
	/* Invalid: no domain dot, two "@", spaces, control characters. */
	assert_int_equal(experts_parse_addr("Dan <dan@localhost>", a, sizeof(a),
					    NULL, 0),
			 -1);
	assert_int_equal(
		experts_parse_addr("<a@b@c.org>", a, sizeof(a), NULL, 0), -1);
	assert_int_equal(
		experts_parse_addr("<a b@c.org>", a, sizeof(a), NULL, 0), -1);
	assert_int_equal(experts_parse_addr("<a@c.org\r\nRCPT TO:x@y.org>", a,
					    sizeof(a), NULL, 0),
			 -1);
	assert_int_equal(
		experts_parse_addr("no address here", a, sizeof(a), NULL, 0),
		-1);
	assert_false(experts_addr_valid("a..b@c.org"));
	assert_false(experts_addr_valid("a@-c.org"));
	assert_true(experts_addr_valid("first.last+tag@sub.example.org"));

	assert_true(
		experts_is_bot("syzbot+abc@syzkaller.appspotmail.com", NULL));
	assert_true(experts_is_bot("lkp@intel.com", "kernel test robot"));
	assert_true(experts_is_bot(
		"49699333+dependabot[bot]@users.noreply.github.com", NULL));
	assert_true(experts_is_bot("ci-bot@example.org", NULL));
	assert_true(experts_is_bot("x@example.org", "Patchwork Bot"));
	assert_false(experts_is_bot("abbot@example.org", "Ann Abbot"));
	assert_false(experts_is_bot("bob@example.org", "Bob"));
}

static void test_since_and_weights(void **state)
{
	struct experts_options o;
	time_t t;

	assert_int_equal(experts_parse_since("2y", NOW, &t), 0);
	assert_int_equal(t, 1717200000L); /* 2024-06-01 */
	assert_int_equal(experts_parse_since("18m", NOW, &t), 0);
	assert_int_equal(t, 1733011200L); /* 2024-12-01 */
	assert_int_equal(experts_parse_since("10d", NOW, &t), 0);
	assert_int_equal(t, NOW - 10 * DAY);
	assert_int_equal(experts_parse_since("2026-01-01", NOW, &t), 0);
	assert_int_equal(t, 1767225600L);
	assert_int_equal(experts_parse_since("all", NOW, &t), 0);
	assert_int_equal(t, 0);
	assert_int_equal(experts_parse_since("2x", NOW, &t), -1);
	assert_int_equal(experts_parse_since("y", NOW, &t), -1);
	assert_int_equal(experts_parse_since("2026-02-31", NOW, &t), -1);

	experts_options_init(&o);
	assert_int_equal(experts_set_weights(&o, "Reviewed-by:2, acked-by:0"),
			 0);
	assert_true(o.weight[EXPERTS_REVIEWED] == 2.0);
	assert_true(o.weight[EXPERTS_ACKED] == 0.0);
	assert_true(o.weight[EXPERTS_SIGNED] == 0.2);
	/* A bad spec changes nothing. */
	assert_int_equal(experts_set_weights(&o, "reviewed-by:1 tested-by:1"),
			 -1);
	assert_true(o.weight[EXPERTS_REVIEWED] == 2.0);
	assert_int_equal(experts_set_weights(&o, "reviewed-by:-1"), -1);
	assert_int_equal(experts_set_weights(&o, "reviewed-by"), -1);
	experts_options_release(&o);
}

static void build_history(void)
{
	const char *init[] = { "init", "-q", NULL };
	const char *f_a[] = { "fs/xfs/xfs_inode.c", "fs/xfs/xfs_icache.c",
			      NULL };
	const char *f_b[] = { "fs/xfs/xfs_inode.c", NULL };
	const char *f_c[] = { "fs/ext4/inode.c", NULL };
	const char *f_d[] = { "fs/ext4/super.c", NULL };
	const char *f_q[] = { "fs/weird\"name.c", NULL };

	assert_int_equal(mkdir_p(repo, 0755), 0);
	assert_int_equal(git_run(repo, NOW, "x", "x@example.org", init), 0);
	/* Older than the one-year window: never counted. */
	commit(NOW - 400L * DAY, "Zed", "zed@example.org",
	       "ext4: old\n\nReviewed-by: Old Timer <old@example.org>\n", f_d);
	/* Two half-lives ago. */
	commit(NOW - 200L * DAY, "Erin", "erin@example.org",
	       "ext4: fix\n\n"
	       "Signed-off-by: Erin <erin@example.org>\n"
	       "Reviewed-by: Ted <ted@example.org>\n"
	       "Signed-off-by: dependabot[bot] <support@github.com>\n"
	       "Reviewed-by: Ignored <someone@ignored.example>\n",
	       f_c);
	/* One half-life ago. */
	commit(NOW - 100L * DAY, "Carol", "carol@example.org",
	       "xfs: fix\n\n"
	       "Signed-off-by: Carol <carol@example.org>\n"
	       "Reviewed-by: Dave <dave@example.org>\n"
	       "Acked-by: Bob <bob@example.org>\n",
	       f_b);
	/* Now. */
	commit(NOW, "Alice", "alice@example.org",
	       "xfs: change\n\nBody.\n\n"
	       "Reported-by: syzbot+1234@syzkaller.appspotmail.com\n"
	       "Signed-off-by: Alice <Alice@Example.org>\n"
	       "Reviewed-by: Bob Builder <BOB@example.org>\n"
	       "Reviewed-by: kernel test robot <lkp@intel.com>\n"
	       "Reviewed-by: Not An Address <nobody>\n"
	       "Signed-off-by: Maint <maint@example.org>\n",
	       f_a);
	commit(NOW, "Quinn", "quinn@example.org",
	       "odd name\n\nReviewed-by: Quote <quote@example.org>\n", f_q);
}

static void test_import_from_git(void **state)
{
	struct experts_options o;
	struct experts_stats st;
	struct experts *ex;
	struct expert e[16];
	const struct expert *x;
	size_t n;

	if (!have_git())
		skip();
	build_history();
	options(&o);
	o.ignore = xcalloc(1, sizeof(char *));
	o.ignore[o.nignore++] = xstrdup("*@ignored.example");
	assert_int_equal(experts_import(repo, &o, idx, &st), 0);
	assert_int_equal(st.commits, 4); /* the 400-day-old one is out */
	assert_true(st.bots >= 3);	 /* lkp, dependabot, ignored */
	assert_true(st.invalid >= 1);
	ex = experts_open(idx);
	assert_non_null(ex);
	assert_int_equal(experts_verify(ex), 0);
	assert_int_equal(experts_reference_time(ex), NOW);

	/* File level: decay halves the older commit's credit. */
	n = experts_for_path(ex, "fs/xfs/xfs_inode.c", e, ARRAY_SIZE(e));
	assert_int_equal(n, 5);
	assert_string_equal(e[0].addr, "bob@example.org");
	assert_string_equal(e[0].name, "Bob Builder");
	assert_string_equal(e[0].path, "fs/xfs/xfs_inode.c");
	assert_true(fabs(e[0].score - (1.0 + 0.5 * 0.5)) < 1e-9);
	assert_int_equal(e[0].count[EXPERTS_REVIEWED], 1);
	assert_int_equal(e[0].count[EXPERTS_ACKED], 1);
	assert_int_equal(e[0].last, NOW);
	assert_int_equal(e[0].commits, 2);
	assert_string_equal(e[1].addr, "dave@example.org");
	assert_true(fabs(e[1].score - 0.5) < 1e-9);
	/* A non-author sign-off: the maintainer who applied it. */
	x = find(e, n, "maint@example.org");
	assert_non_null(x);
	assert_true(fabs(x->score - 0.2) < 1e-9);
	assert_int_equal(x->count[EXPERTS_SIGNED], 1);
	/* The author's own Signed-off-by is authorship, counted once. */
	x = find(e, n, "alice@example.org");
	assert_non_null(x);
	assert_int_equal(x->count[EXPERTS_SIGNED], 0);
	assert_int_equal(x->count[EXPERTS_AUTHORED], 1);
	assert_true(fabs(x->score - 0.1) < 1e-9);
	x = find(e, n, "carol@example.org");
	assert_non_null(x);
	assert_true(fabs(x->score - 0.05) < 1e-9);
	/* Bots and invalid addresses are nowhere. */
	assert_null(find(e, n, "lkp@intel.com"));

	/* Directory level: a commit counts once, however many files. */
	n = experts_for_path(ex, "fs/xfs/", e, ARRAY_SIZE(e));
	assert_int_equal(n, 5);
	assert_string_equal(e[0].addr, "bob@example.org");
	assert_true(fabs(e[0].score - 1.25) < 1e-9);
	assert_int_equal(e[0].commits, 2);
	/* A file without history falls back to its nearest directory. */
	n = experts_for_path(ex, "fs/xfs/libxfs/xfs_new.c", e, ARRAY_SIZE(e));
	assert_int_equal(n, 5);
	assert_string_equal(e[0].path, "fs/xfs/");
	n = experts_for_path(ex, "./fs/xfs", e, 1);
	assert_int_equal(n, 1);
	assert_string_equal(e[0].path, "fs/xfs/");

	n = experts_for_path(ex, "fs/ext4/inode.c", e, ARRAY_SIZE(e));
	assert_int_equal(n, 2);
	assert_string_equal(e[0].addr, "ted@example.org");
	assert_true(fabs(e[0].score - 0.25) < 1e-9);
	assert_null(find(e, n, "support@github.com"));
	assert_null(find(e, n, "someone@ignored.example"));
	/* Outside the window, and no directory with history above it. */
	assert_int_equal(experts_for_path(ex, "fs/ext4/super.c", e, 16), 2);
	assert_string_equal(e[0].path, "fs/ext4/");
	assert_int_equal(experts_for_path(ex, "mm/slub.c", e, 16), 0);
	assert_int_equal(experts_for_path(ex, "", e, 16), 0);
	/* A quoted file name from git is unquoted. */
	n = experts_for_path(ex, "fs/weird\"name.c", e, ARRAY_SIZE(e));
	assert_int_equal(n, 2);
	assert_string_equal(e[0].path, "fs/weird\"name.c");
	experts_free(ex);

	/* Weights and the cut per path come from the options. */
	assert_int_equal(experts_set_weights(&o, "acked-by:4 authored:0"), 0);
	o.max_per_path = 2;
	assert_int_equal(experts_import(repo, &o, idx, NULL), 0);
	ex = experts_open(idx);
	assert_non_null(ex);
	n = experts_for_path(ex, "fs/xfs/xfs_inode.c", e, ARRAY_SIZE(e));
	assert_int_equal(n, 2);
	assert_string_equal(e[0].addr, "bob@example.org");
	assert_true(fabs(e[0].score - (1.0 + 4 * 0.5)) < 1e-9);
	assert_null(find(e, n, "alice@example.org"));
	experts_free(ex);
	experts_options_release(&o);
}

static void test_git_failure(void **state)
{
	struct experts_options o;

	if (!have_git())
		skip();
	options(&o);
	/* Not a repository: git fails, nothing is written. */
	assert_int_equal(experts_import(tmpdir, &o, idx, NULL), -1);
	assert_int_not_equal(access(idx, F_OK), 0);
	experts_options_release(&o);
}

/* import_text - feed git log output from a string */
static int import_text(const char *text, size_t len, struct experts_stats *st)
{
	struct experts_options o;
	char *path = xasprintf("%s/log", tmpdir);
	int fd, ret;

	options(&o);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	lseek(fd, 0, SEEK_SET);
	ret = experts_import_fd(fd, &o, idx, st);
	close(fd);
	free(path);
	experts_options_release(&o);
	return ret;
}

static void test_overlong_and_malformed_lines(void **state)
{
	struct experts_stats st;
	struct experts *ex;
	struct expert e[4];
	size_t big = 300u << 10, i;
	char *head =
		xasprintf("\x1e%ld\x1f"
			  "a@example.org\x1f"
			  "A\x1fReviewed-by: R <r@example.org>\n\nkept/one.c\n"
			  "\x1egarbage without fields\n\nlost/two.c\n"
			  "\x1e%ld\x1f"
			  "b@example.org\x1f"
			  "B\x1f"
			  "Acked-by: ",
			  NOW, NOW);
	const char *tail = "\n\nlost/three.c\n"
			   "\x1e"
			   "1780272000\x1f"
			   "c@example.org\x1f"
			   "C\x1f\n\nkept/four.c"; /* no final newline */

	size_t len = strlen(head) + big + strlen(tail);
	char *text = xmalloc(len + 1);

	strcpy(text, head);
	for (i = 0; i < big; i++)
		text[strlen(head) + i] = 'x';
	strcpy(text + strlen(head) + big, tail);
	assert_int_equal(import_text(text, len, &st), 0);
	assert_int_equal(st.commits, 4);
	assert_int_equal(st.skipped, 2); /* the garbage and the overlong one */
	ex = experts_open(idx);
	assert_non_null(ex);
	assert_int_equal(experts_for_path(ex, "kept/one.c", e, 4), 2);
	assert_string_equal(e[0].addr, "r@example.org");
	assert_int_equal(experts_for_path(ex, "lost/two.c", e, 4), 0);
	assert_int_equal(experts_for_path(ex, "lost/three.c", e, 4), 0);
	assert_int_equal(experts_for_path(ex, "kept/four.c", e, 4), 1);
	assert_string_equal(e[0].addr, "c@example.org");
	experts_free(ex);
	free(text);
	free(head);
}

static void test_corrupt_index_refused(void **state)
{
	const char *log = "\x1e"
			  "1780272000\x1f"
			  "a@example.org\x1f"
			  "A\x1fReviewed-by: R <r@example.org>\n\n"
			  "fs/a/one.c\nfs/a/two.c\nfs/b/three.c\n";
	char *data, *bad = xasprintf("%s/bad.idx", tmpdir);
	struct experts *ex;
	struct expert e[4];
	size_t len, i;

	assert_int_equal(import_text(log, strlen(log), NULL), 0);
	assert_int_equal(read_file(idx, 1u << 20, &data, &len), 0);

	/* Truncated. */
	assert_int_equal(write_file_atomic(bad, data, len - 8, 0600), 0);
	assert_null(experts_open(bad));
	/* Not an index. */
	assert_int_equal(write_file_atomic(bad, "hello", 5, 0600), 0);
	assert_null(experts_open(bad));
	data[0] ^= 0x20;
	assert_int_equal(write_file_atomic(bad, data, len, 0600), 0);
	assert_null(experts_open(bad));
	data[0] ^= 0x20;
	/* Records damaged after a good header: refused at use. */
	for (i = 128; i < len * 2 / 3; i++)
		data[i] = (char)0xff;
	assert_int_equal(write_file_atomic(bad, data, len, 0600), 0);
	ex = experts_open(bad);
	if (ex) {
		assert_int_equal(experts_verify(ex), -1);
		assert_int_equal(experts_for_path(ex, "fs/a/one.c", e, 4), 0);
		assert_int_equal(experts_for_path(ex, "fs/b/x.c", e, 4), 0);
		experts_free(ex);
	}
	assert_null(experts_open("/nonexistent/experts.idx"));
	free(data);
	free(bad);
}

/* the commit table: a binary search by unique prefix, first to last */
static void test_commit_find(void **state)
{
	char *path = xasprintf("%s/experts.idx.commits", tmpdir);
	struct strbuf sb = STRBUF_INIT(1 << 20);
	struct experts_commit c;
	char sha[41], want[41];
	int i;

	(void)state;
	/* 300 sorted commits; two (in their place) share the prefix 1234567 */
	for (i = 0; i < 300; i++) {
		snprintf(sha, sizeof(sha), "%03x%037d", i * 13, i);
		if (i == 22)
			snprintf(sha, sizeof(sha), "1234567a%032d", 0);
		if (i == 23)
			snprintf(sha, sizeof(sha), "1234567b%032d", 0);
		sb_addf(&sb, "%s a%d@example.org %s\n", sha, i,
			i % 2 ? "r1@example.org,r2@example.org" : "-");
	}
	assert_int_equal(write_file_atomic(path, sb.buf, sb.len, 0600), 0);

	for (i = 0; i < 300; i += 37) {
		if (i == 22 || i == 23)
			continue;
		snprintf(want, sizeof(want), "%03x%037d", i * 13, i);
		/* the full id, and a 12-digit prefix of it */
		assert_int_equal(experts_commit_find(path, want, &c), 1);
		assert_string_equal(c.sha, want);
		want[12] = '\0';
		assert_int_equal(experts_commit_find(path, want, &c), 1);
		assert_int_equal(strncmp(c.sha, want, 12), 0);
		assert_int_equal(c.nreviewers, i % 2 ? 2u : 0u);
	}
	/* the first and the last line */
	snprintf(want, sizeof(want), "%03x%037d", 0, 0);
	assert_int_equal(experts_commit_find(path, want, &c), 1);
	assert_string_equal(c.author, "a0@example.org");
	snprintf(want, sizeof(want), "%03x%037d", 299 * 13, 299);
	assert_int_equal(experts_commit_find(path, want, &c), 1);
	assert_string_equal(c.author, "a299@example.org");
	assert_string_equal(c.reviewers[1], "r2@example.org");
	/* ambiguous, unique, absent, malformed, no table */
	assert_int_equal(experts_commit_find(path, "1234567", &c), 0);
	assert_int_equal(experts_commit_find(path, "1234567b", &c), 1);
	assert_string_equal(c.author, "a23@example.org");
	assert_int_equal(experts_commit_find(path, "fffffff", &c), 0);
	assert_int_equal(experts_commit_find(path, "0000001", &c), 0);
	assert_int_equal(experts_commit_find(path, "12345", &c), 0);
	assert_int_equal(experts_commit_find(path, "XYZ4567", &c), 0);
	assert_int_equal(experts_commit_find("/nonexistent/x", want, &c), 0);
	sb_release(&sb);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_addresses),
		cmocka_unit_test(test_since_and_weights),
		cmocka_unit_test_setup_teardown(test_import_from_git, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_git_failure, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			test_overlong_and_malformed_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_corrupt_index_refused,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_commit_find, setup,
						teardown),
	};

	msg_setup("test_experts", 1, false);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
