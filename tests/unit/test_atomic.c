// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_atomic - write_file_atomic() never writes through a planted link
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/triage-atomic-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[512];

	(void)state;
	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
	return rmdir(dir);
}

static char *slurp(const char *path)
{
	char *buf = NULL;
	size_t len = 0;

	return read_file(path, 1 << 20, &buf, &len) == 0 ? buf : NULL;
}

static size_t entries(void)
{
	DIR *d = opendir(dir);
	size_t n = 0;

	while (d && readdir(d))
		n++;
	if (d)
		closedir(d);
	return n - 2;
}

/*
 * A group member of the state directory plants a link at the name the
 * old code used for its temporary file (PATH.tmp.PID), aimed at a file
 * only root may write: the write must neither follow it nor fail.
 */
static void test_planted_link_at_old_temp_name(void **state)
{
	char victim[128], target[128], old_tmp[192], *s;
	struct stat st;

	(void)state;
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	snprintf(target, sizeof(target), "%s/rules.bin", dir);
	snprintf(old_tmp, sizeof(old_tmp), "%s.tmp.%ld", target,
		 (long)getpid());
	assert_int_equal(write_file_atomic(victim, "precious\n", 9, 0600), 0);
	assert_int_equal(symlink(victim, old_tmp), 0);

	assert_int_equal(write_file_atomic(target, "new rules\n", 10, 0640), 0);
	s = slurp(victim);
	assert_non_null(s);
	assert_string_equal(s, "precious\n");
	free(s);
	s = slurp(target);
	assert_non_null(s);
	assert_string_equal(s, "new rules\n");
	free(s);
	assert_int_equal(stat(target, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	/* the link is left as it was, and no temporary file stays */
	assert_int_equal(lstat(old_tmp, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(entries(), 3);
	unlink(old_tmp);
	unlink(target);
	unlink(victim);
}

/* a link at the target itself is replaced, never written through */
static void test_link_at_target_is_replaced(void **state)
{
	char victim[128], target[128], *s;
	struct stat st;

	(void)state;
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	snprintf(target, sizeof(target), "%s/model.bin", dir);
	assert_int_equal(write_file_atomic(victim, "precious\n", 9, 0600), 0);
	assert_int_equal(symlink(victim, target), 0);
	assert_int_equal(write_file_atomic(target, "model\n", 6, 0640), 0);
	s = slurp(victim);
	assert_non_null(s);
	assert_string_equal(s, "precious\n");
	free(s);
	assert_int_equal(lstat(target, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(entries(), 2);
	unlink(target);
	unlink(victim);
}

/* a directory that cannot be written: -1, and nothing left behind */
static void test_missing_directory(void **state)
{
	char target[128];

	(void)state;
	snprintf(target, sizeof(target), "%s/nodir/x", dir);
	assert_int_equal(write_file_atomic(target, "x", 1, 0600), -1);
	assert_int_equal(entries(), 0);
}

/*
 * Root writes only into a directory nobody else can write: its own,
 * writable by root (and root's group) alone.  Root's directory writable
 * by another group (the old shared state directory, root:triage 2770)
 * or by anyone, one someone else owns, writable by others or not, are
 * refused; a sticky one (/tmp) for any file but the database (issue 21)
 */
static void test_root_refuses_dir(void **state)
{
	char file[128], other[128];

	(void)state;
	if (geteuid() != 0)
		skip(); /* the checks hold for root only */
	snprintf(file, sizeof(file), "%s/triage.db", dir);
	assert_int_equal(chown(dir, 0, 0), 0);
	assert_int_equal(chmod(dir, 0700), 0);
	assert_int_equal(root_refuses_dir(file), 0);
	assert_int_equal(chmod(dir, 0755), 0);
	assert_int_equal(root_refuses_dir(file), 0);
	assert_int_equal(chmod(dir, 02770), 0); /* root's group: root's */
	assert_int_equal(root_refuses_dir(file), 0);
	assert_int_equal(chown(dir, 0, 65534), 0); /* a triagers' group */
	assert_int_equal(chmod(dir, 02770), 0);
	assert_int_equal(root_refuses_dir(file), 1);
	assert_int_equal(chmod(dir, 02750), 0);
	assert_int_equal(root_refuses_dir(file), 0);
	assert_int_equal(chown(dir, 0, 0), 0);
	assert_int_equal(chmod(dir, 0777), 0);
	assert_int_equal(root_refuses_dir(file), 1);
	assert_int_equal(chmod(dir, 01777), 0);	     /* sticky, as /tmp */
	assert_int_equal(root_refuses_dir(file), 1); /* never the database */
	snprintf(other, sizeof(other), "%s/maintainers.idx", dir);
	assert_int_equal(root_refuses_dir(other), 0); /* mkostemp, rename */
	assert_int_equal(chown(dir, 0, 65534), 0);
	assert_int_equal(chmod(dir, 03770), 0);
	assert_int_equal(root_refuses_dir(file), 1);
	assert_int_equal(root_refuses_dir(other), 0);
	assert_int_equal(chown(dir, 0, 0), 0);
	assert_int_equal(chmod(dir, 0700), 0);
	assert_int_equal(chown(dir, 65534, (gid_t)-1), 0);
	assert_int_equal(root_refuses_dir(file), 1);
	assert_int_equal(chmod(dir, 0770), 0);
	assert_int_equal(root_refuses_dir(file), 1);
	assert_int_equal(chown(dir, 0, (gid_t)-1), 0);
	assert_int_equal(chmod(dir, 0700), 0);
	assert_int_equal(root_refuses_dir(file), 0);
}

/*
 * become - in a child: root_become_dir_owner(file) and what it left:
 * "RC UID GID" and whether root came back ("root" / "gone"), the child
 * writing the line to fd
 */
static void become(const char *file, char *out, size_t size)
{
	int fds[2];
	pid_t pid;
	ssize_t n;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char line[256], sup[96] = "";
		int rc = root_become_dir_owner(file), i, ng;
		uid_t ru, eu, su;
		gid_t rg, eg, sg, groups[32];

		/* every id, and the supplementary groups: no root among them */
		ng = getgroups((int)(sizeof(groups) / sizeof(groups[0])),
			       groups);
		for (i = 0; i < ng && strlen(sup) + 12 < sizeof(sup); i++)
			snprintf(sup + strlen(sup), sizeof(sup) - strlen(sup),
				 "%s%lu", i ? "," : "",
				 (unsigned long)groups[i]);
		if (getresuid(&ru, &eu, &su) || getresgid(&rg, &eg, &sg))
			_exit(2);
		snprintf(line, sizeof(line),
			 "%d %lu %lu %s %d|r%lu.%lu.%lu g%lu.%lu.%lu s%s", rc,
			 (unsigned long)geteuid(), (unsigned long)getegid(),
			 setuid(0) == 0 ? "root" : "gone",
			 root_refuses_dir(file), (unsigned long)ru,
			 (unsigned long)eu, (unsigned long)su,
			 (unsigned long)rg, (unsigned long)eg,
			 (unsigned long)sg, sup);
		n = write(fds[1], line, strlen(line));
		_exit(n < 0);
	}
	close(fds[1]);
	n = read(fds[0], out, size - 1);
	out[n > 0 ? n : 0] = '\0';
	close(fds[0]);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
}

/*
 * Root in a directory another user owns becomes that user, for good,
 * with the directory's group (the owner's own when the directory's is
 * root's); root's own directory and a stranger's link leave it root
 */
static void test_root_becomes_owner(void **state)
{
	char file[192], link[160], got[128];

	(void)state;
	if (geteuid() != 0)
		skip();
	snprintf(file, sizeof(file), "%s/triage.db", dir);
	assert_int_equal(chmod(dir, 02770), 0);
	assert_int_equal(chown(dir, 65534, 65534), 0);
	become(file, got, sizeof(got));
	/* real, effective and saved ids all the owner's; root's groups gone */
	assert_string_equal(
		got,
		"1 65534 65534 gone 0|r65534.65534.65534 g65534.65534.65534 s65534");
	assert_int_equal(chown(dir, 65534, 0), 0); /* nobody's own group */
	become(file, got, sizeof(got));
	assert_string_equal(
		got,
		"1 65534 65534 gone 0|r65534.65534.65534 g65534.65534.65534 s65534");
	assert_int_equal(chown(dir, 0, 0), 0); /* root's: nothing to do */
	assert_int_equal(chmod(dir, 0700), 0);
	become(file, got, sizeof(got));
	assert_true(!strncmp(got, "0 0 0 root 0|r0.0.0 g0.0.0 s", 27));
	/* a link nobody made to a directory nobody owns: refused, as root */
	snprintf(link, sizeof(link), "%s.link", dir);
	assert_int_equal(chown(dir, 65534, 65534), 0);
	assert_int_equal(symlink(dir, link), 0);
	assert_int_equal(lchown(link, 65534, 65534), 0);
	snprintf(file, sizeof(file), "%s/triage.db", link);
	become(file, got, sizeof(got));
	assert_int_equal(unlink(link), 0);
	assert_true(!strncmp(got, "0 0 0 root 1|r0.0.0 g0.0.0 s", 27));
	assert_int_equal(chown(dir, 0, 0), 0);
}

/* root never opens a triage.db that is a link: it names what is written */
static void test_root_refuses_link(void **state)
{
	char victim[128], file[128];

	(void)state;
	if (geteuid() != 0)
		skip();
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	snprintf(file, sizeof(file), "%s/triage.db", dir);
	assert_int_equal(root_refuses_link(file), 0); /* none yet */
	assert_int_equal(write_file_atomic(victim, "x", 1, 0600), 0);
	assert_int_equal(symlink(victim, file), 0);
	assert_int_equal(root_refuses_link(file), 1);
	assert_int_equal(root_refuses_link(victim), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_planted_link_at_old_temp_name, setup, teardown),
		cmocka_unit_test_setup_teardown(test_link_at_target_is_replaced,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_directory, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_root_refuses_dir, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_root_refuses_link, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_root_becomes_owner, setup,
						teardown),
	};

	msg_setup("test_atomic", 1, false);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
