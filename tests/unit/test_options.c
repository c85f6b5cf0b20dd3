// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_options - one table gives a command's options, usage and help
 * (options.h), and nearest() names the word a typo was meant to be
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <sysexits.h>
#include <unistd.h>

#include "options.h"
#include "util.h"

static const char *const usage[] = { "triage t [OPTIONS] ARG...", NULL };

struct vals {
	bool quiet, pager;
	int mode;
	const char *file;
	unsigned long n;
	const char *v[3];
	struct opt_list list;
	const char *cb_arg;
	int cb_calls;
};

static struct vals *cb_vals;

/* mkargv - a writable copy of the NULL-ended words, as main() gets them;
 * one block (the vector, then the words), so one free() takes all of it
 * however parse_options() reorders the vector */
static char **mkargv(const char *const *words, int *argc)
{
	char **v, *w;
	int n = 0;
	size_t bytes = 0;

	while (words[n])
		bytes += strlen(words[n++]) + 1;
	v = xcalloc(1, ((size_t)n + 1) * sizeof(*v) + bytes);
	w = (char *)(v + n + 1);
	for (*argc = 0; *argc < n; (*argc)++) {
		size_t len = strlen(words[*argc]) + 1;

		v[*argc] = memcpy(w, words[*argc], len);
		w += len;
	}
	return v;
}

#define ARGV(n, ...) mkargv((const char *const[]){ __VA_ARGS__, NULL }, n)

static int cb(const struct opt *o, const char *arg)
{
	(void)o;
	cb_vals->cb_calls++;
	cb_vals->cb_arg = arg;
	return 0;
}

#define TABLE(x)                                                          \
	const struct opt opts[] = {                                       \
		OPT_GROUP("Options:"),                                    \
		OPT_BOOL('q', "quiet", &(x)->quiet, "say less"),          \
		OPT_NEGBOOL(0, "no-pager", &(x)->pager, "no pager"),      \
		OPT_SET_INT(0, "fast", &(x)->mode, 2, "mode 2"),          \
		OPT_STRING('f', "file", &(x)->file, "FILE", "read FILE"), \
		OPT_ULONG(0, "folds", &(x)->n, "K", "K folds", 2, 100),   \
		OPT_LIST(0, "dir", &(x)->list, "DIR", "a directory"),     \
		OPT_CALLBACK(0, "color", NULL, "WHEN", "colour",          \
			     OPT_ARG_OPTIONAL, cb),                       \
		OPT_END(),                                                \
	}

static void init(struct vals *x)
{
	memset(x, 0, sizeof(*x));
	x->pager = true;
	x->list.v = x->v;
	x->list.max = 3;
	cb_vals = x;
}

static void test_parse(void **state)
{
	struct vals x;
	int argc, n;
	char **argv = ARGV(&argc, "t", "a1", "-q", "--no-pager", "--fa", "-f",
			   "F", "--folds=7", "--dir", "D1", "a2", "--dir=D2",
			   "--color", "--color=always");

	(void)state;
	init(&x);
	{
		TABLE(&x);

		n = parse_options(argc, argv, opts, usage, 0);
	}
	assert_int_equal(n, 2);
	assert_string_equal(argv[0], "a1");
	assert_string_equal(argv[1], "a2");
	assert_null(argv[2]);
	assert_true(x.quiet);
	assert_false(x.pager);
	assert_int_equal(x.mode, 2); /* "--fa": an abbreviation */
	assert_string_equal(x.file, "F");
	assert_int_equal(x.n, 7);
	assert_int_equal(x.list.n, 2);
	assert_string_equal(x.list.v[0], "D1");
	assert_string_equal(x.list.v[1], "D2");
	assert_int_equal(x.cb_calls, 2);
	assert_string_equal(x.cb_arg, "always");
	free(argv);
}

static void test_stop_at_arg(void **state)
{
	struct vals x;
	int argc, n;
	char **argv = ARGV(&argc, "t", "-q", "sub", "-f", "F");

	(void)state;
	init(&x);
	{
		TABLE(&x);

		n = parse_options(argc, argv, opts, usage, OPTIONS_STOP_AT_ARG);
	}
	assert_int_equal(n, 3);
	assert_true(x.quiet);
	assert_null(x.file);
	assert_string_equal(argv[0], "sub");
	assert_string_equal(argv[1], "-f");
	free(argv);
}

/* run - parse argv in a child; its exit status, its stdout and stderr */
static int run(char **argv, int argc, char *out, size_t outsz)
{
	int fds[2], st;
	ssize_t got;
	size_t len = 0;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct vals x;

		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[0]);
		init(&x);
		{
			TABLE(&x);

			parse_options(argc, argv, opts, usage, 0);
		}
		_exit(99);
	}
	close(fds[1]);
	while (len + 1 < outsz &&
	       (got = read(fds[0], out + len, outsz - 1 - len)) > 0)
		len += (size_t)got;
	out[len] = '\0';
	close(fds[0]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_help_and_errors(void **state)
{
	char out[4096];
	int nh, nb, nr, nm;
	char **help = ARGV(&nh, "t", "--help");
	char **bad = ARGV(&nb, "t", "--nope");
	char **range = ARGV(&nr, "t", "--folds", "1");
	char **many = ARGV(&nm, "t", "--dir", "a", "--dir", "b", "--dir", "c",
			   "--dir", "d");

	(void)state;
	/* --help: the usage, then one line per option, exit 0 */
	assert_int_equal(run(help, nh, out, sizeof(out)), 0);
	assert_non_null(strstr(out, "usage: triage t [OPTIONS] ARG...\n"));
	assert_non_null(strstr(out, "Options:\n"));
	assert_non_null(strstr(out, "    -f, --file FILE       read FILE\n"));
	assert_non_null(strstr(out, "    --color[=WHEN]        colour\n"));
	assert_non_null(strstr(out, "    -h, --help            show this"));
	/* an unknown option, a number out of range, too many: EX_USAGE */
	assert_int_equal(run(bad, nb, out, sizeof(out)), EX_USAGE);
	assert_non_null(strstr(out, "usage: triage t"));
	assert_int_equal(run(range, nr, out, sizeof(out)), EX_USAGE);
	assert_non_null(strstr(out, "--folds takes a number from 2 to 100"));
	assert_int_equal(run(many, nm, out, sizeof(out)), EX_USAGE);
	assert_non_null(strstr(out, "--dir: at most 3"));
	free(help);
	free(bad);
	free(range);
	free(many);
}

static void test_nearest(void **state)
{
	static const char *const words[] = { "pending", "check-config",
					     "check-rules", "show", "stats" };

	(void)state;
	assert_int_equal(edit_distance("pendng", "pending"), 1);
	assert_int_equal(edit_distance("sohw", "show"), 1); /* a swap */
	assert_int_equal(edit_distance("", "abc"), 3);
	assert_string_equal(nearest("pendng", words, 5), "pending");
	assert_string_equal(nearest("chek-config", words, 5), "check-config");
	assert_string_equal(nearest("sohw", words, 5), "show");
	assert_null(nearest("zzzzzz", words, 5));
	assert_null(nearest("shop", words, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_stop_at_arg),
		cmocka_unit_test(test_help_and_errors),
		cmocka_unit_test(test_nearest),
	};

	msg_setup("test_options", 1, false);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
