// SPDX-License-Identifier: GPL-2.0-only
/*
 * triage check-rules - lint the classification rules, run their tests
 *
 * DESCRIPTION
 *	triage check-rules [--rules DIR] [--local FILE] [--test]
 *			   [--compile | --output FILE]
 *
 *	Loads every DIR/NAME.rules (default: rules_dir in routes.conf, else
 *	DATADIR/classifiers) and the site file (default: local_rules, else
 *	SYSCONFDIR/local.rules when it exists; --local FILE must exist),
 *	compiles every regex and checks every name, as SpamAssassin's
 *	--lint does.  Problems go to standard error as "file:line: message".
 *	With --test the inline "test" lines run too.  --compile then writes
 *	the compiled snapshot STATE_DIR/rules.idx that the filter loads
 *	instead of the text (--output FILE writes it elsewhere).  Exit 0
 *	when clean, EX_CONFIG (78) on any error or failed test, EX_CANTCREAT
 *	when the snapshot cannot be written, EX_USAGE on bad options.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

#include "classify.h"
#include "cmd.h"
#include "config.h"
#include "rules.h"
#include "util.h"

int cmd_check_rules(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const char *const usage[] = {
		"triage check-rules [--rules DIR] [--local FILE] [--test] [--compile | --output FILE]",
		NULL
	};
	const char *dir = NULL, *local = NULL, *output = NULL;
	bool test = false, local_given, compile = false;
	char *state_path = NULL;
	struct ruleset *rs;
	unsigned ntests = 0;
	int errors, failed = 0;
	double t0, t1;
	const struct opt opts[] = {
		OPT_STRING('r', "rules", &dir, "DIR",
			   "the rule files (default: rules_dir)"),
		OPT_STRING(
			'l', "local", &local, "FILE",
			"the site's rule file, which must exist (default: local_rules)"),
		OPT_BOOL('t', "test", &test, "run the rules' test lines too"),
		OPT_BOOL('c', "compile", &compile,
			 "then write the snapshot STATE_DIR/rules.idx"),
		OPT_STRING('o', "output", &output, "FILE",
			   "then write the snapshot to FILE"),
		OPT_END(),
	};

	if (parse_options(argc, argv, opts, usage, 0) || (compile && output))
		usage_with_options(usage, opts);
	local_given = local != NULL;
	if (!dir)
		dir = classify_rules_dir(cmd_config(ctx));
	if (!local_given)
		local = classify_local_rules(cmd_config(ctx));

	t0 = now_seconds();
	rs = classify_rules_new();
	rules_add_dir(rs, dir);
	if (local && *local &&
	    (local_given || access(local, F_OK) == 0 || errno != ENOENT))
		rules_add_file(rs, local);
	errors = rules_lint(rs, stderr);
	t1 = now_seconds();
	if (!errors && test)
		failed = rules_run_tests(rs, stderr, &ntests);
	if (!errors && !failed && compile) {
		char *slash;

		state_path =
			config_state_path(cmd_config(ctx), CLASSIFY_SNAPSHOT);
		output = state_path;
		slash = strrchr(state_path, '/');
		if (slash && slash != state_path) {
			/* the state directory, as 'triage update' makes it */
			*slash = '\0';
			if (mkdir_p(state_path, 02770) < 0)
				warn("cannot create '%s'", state_path);
			*slash = '/';
		}
	}
	if (!errors && !failed && output &&
	    rules_save(rs, dir, local, output) < 0) {
		rules_free(rs);
		free(state_path);
		return EX_CANTCREAT;
	}
	if (!errors && !failed) {
		printf("%zu rules from %zu files, loaded in %.2f ms",
		       rules_count(rs), rules_nfiles(rs), (t1 - t0) * 1e3);
		if (test)
			printf("; %u tests passed", ntests);
		if (output)
			printf("; compiled to %s", output);
		printf("\n");
	} else if (errors) {
		error("%d error%s in the rules", errors,
		      errors == 1 ? "" : "s");
	} else {
		error("%d of %u rule tests failed", failed, ntests);
	}
	rules_free(rs);
	free(state_path);
	return errors || failed ? EX_CONFIG : 0;
}
