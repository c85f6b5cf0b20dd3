// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_command - the "#triage VERB ARGS" lines of a reply (command.h)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "util.h"

static void parse(const char *text, struct command_list *l)
{
	command_parse(text, strlen(text), l);
}

static void test_verbs(void **state)
{
	static struct command_list l;

	(void)state;
	parse("Thanks, this is ours after all.\n"
	      "#triage reroute XFS FILESYSTEM\n"
	      "  #TRIAGE Class Fuzzer\r\n"
	      "#triage dup #42\n"
	      "#triage dup <abc@example.org>\n"
	      "#triage fixed 0123abcdef\n"
	      "#triage needinfo dmesg, bisect\n"
	      "#triage cap 3/day\n"
	      "#triage away 2028-02-29\n",
	      &l);
	assert_int_equal(l.n, 8);
	assert_int_equal(l.dropped, 0);
	assert_int_equal(l.cmd[0].verb, COMMAND_REROUTE);
	assert_string_equal(l.cmd[0].arg, "XFS FILESYSTEM");
	assert_false(l.cmd[0].is_addr);
	assert_int_equal(l.cmd[1].verb, COMMAND_CLASS);
	assert_string_equal(l.cmd[1].arg, "fuzzer");
	assert_int_equal(l.cmd[2].verb, COMMAND_DUP);
	assert_int_equal(l.cmd[2].id, 42);
	assert_int_equal(l.cmd[3].verb, COMMAND_DUP);
	assert_int_equal(l.cmd[3].id, 0);
	assert_string_equal(l.cmd[3].arg, "<abc@example.org>");
	assert_int_equal(l.cmd[4].verb, COMMAND_FIXED);
	assert_int_equal(l.cmd[5].verb, COMMAND_NEEDINFO);
	assert_int_equal(l.cmd[5].items,
			 COMMAND_NEED_DMESG | COMMAND_NEED_BISECT);
	assert_int_equal(l.cmd[6].verb, COMMAND_CAP);
	assert_int_equal(l.cmd[6].cap, 3);
	assert_int_equal(l.cmd[7].verb, COMMAND_AWAY);
	assert_int_equal(l.cmd[7].y * 10000 + l.cmd[7].m * 100 + l.cmd[7].d,
			 20280229);
}

static void test_quotes_and_signature(void **state)
{
	static struct command_list l;

	(void)state;
	parse("On Mon, Alice wrote:\n"
	      "> #triage invalid\n"
	      " >> #triage notme\n"
	      "#triage notme\n"
	      "#triaged this already\n"
	      "#triage: no\n"
	      "-- \n"
	      "#triage help\n",
	      &l);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.cmd[0].verb, COMMAND_NOTME);
	/* "--" without the blank is no separator */
	parse("--\n#triage help\n", &l);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.cmd[0].verb, COMMAND_HELP);
}

static void test_errors(void **state)
{
	static struct command_list l;

	(void)state;
	parse("#triage\n"
	      "#triage frobnicate now\n"
	      "#triage class kernel\n"
	      "#triage fixed 12345\n"
	      "#triage fixed 0123456789abcdef0123456789abcdef012345678\n"
	      "#triage away 2027-02-29\n"
	      "#triage cap 1001/day\n"
	      "#triage notme please\n",
	      &l);
	assert_int_equal(l.n, 8);
	for (size_t i = 0; i < l.n; i++) {
		assert_int_equal(l.cmd[i].verb, COMMAND_ERROR);
		assert_true(l.cmd[i].error[0] != '\0');
	}
	assert_non_null(strstr(l.cmd[1].error, "frobnicate"));
	/* a control character is refused and not quoted back */
	parse("#triage note a\033[2Jb\n", &l);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.cmd[0].verb, COMMAND_ERROR);
	assert_null(strchr(l.cmd[0].line, '\033'));
	parse("#triage note \xff\xfe\n", &l);
	assert_int_equal(l.cmd[0].verb, COMMAND_ERROR);
}

static void test_bounds(void **state)
{
	static struct command_list l;
	static char big[4096];
	size_t i;
	int n = 0;

	(void)state;
	for (i = 0; i < 12; i++)
		n += snprintf(big + n, sizeof(big) - (size_t)n,
			      "#triage note %zu\n", i);
	parse(big, &l);
	assert_int_equal(l.n, COMMAND_MAX);
	assert_int_equal(l.dropped, 12 - COMMAND_MAX);
	assert_string_equal(l.cmd[7].arg, "7");
	/* a line over 998 bytes is no command, but an error */
	memset(big, 'x', sizeof(big));
	memcpy(big, "#triage note ", 13);
	big[1500] = '\n';
	command_parse(big, 1501, &l);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.cmd[0].verb, COMMAND_ERROR);
	/* 998 bytes is still a line */
	command_parse(big, 998, &l);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.cmd[0].verb, COMMAND_NOTE);
	assert_int_equal(strlen(l.cmd[0].arg), 998 - 13);
	assert_true(strlen(l.cmd[0].line) <= 80);
	/* no text, no NUL needed */
	command_parse(NULL, 0, &l);
	assert_int_equal(l.n, 0);
	command_parse("#triage help", 12, &l);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.cmd[0].verb, COMMAND_HELP);
}

static void test_args(void **state)
{
	static struct command_list l;

	(void)state;
	parse("#triage reroute alice@example.org\n"
	      "#triage reroute a b@example.org\n"
	      "#triage fix-proposed https://lore.kernel.org/r/x@y\n"
	      "#triage fix-proposed <p@q>\n"
	      "#triage fix-proposed ftp://x\n"
	      "#triage needinfo the .config please\n"
	      "#triage needinfo\n"
	      "#triage invalid\n",
	      &l);
	assert_int_equal(l.n, 8);
	assert_int_equal(l.cmd[0].verb, COMMAND_REROUTE);
	assert_true(l.cmd[0].is_addr);
	assert_int_equal(l.cmd[1].verb, COMMAND_ERROR);
	assert_int_equal(l.cmd[2].verb, COMMAND_FIX_PROPOSED);
	assert_true(l.cmd[2].is_url);
	assert_int_equal(l.cmd[3].verb, COMMAND_FIX_PROPOSED);
	assert_false(l.cmd[3].is_url);
	assert_int_equal(l.cmd[4].verb, COMMAND_ERROR);
	assert_int_equal(l.cmd[5].verb, COMMAND_NEEDINFO);
	assert_int_equal(l.cmd[5].items, 0);
	assert_string_equal(l.cmd[5].arg, "the .config please");
	assert_int_equal(l.cmd[6].items,
			 COMMAND_NEED_VERSION | COMMAND_NEED_DMESG);
	assert_int_equal(l.cmd[7].verb, COMMAND_INVALID);
	assert_string_equal(command_verb_name(COMMAND_FIX_PROPOSED),
			    "fix-proposed");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verbs),
		cmocka_unit_test(test_quotes_and_signature),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_args),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
