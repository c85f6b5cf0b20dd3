// SPDX-License-Identifier: GPL-2.0-only
/*
 * triage - the triager's command line: one program, a table of commands
 *
 * DESCRIPTION
 *	triage [-c routes.conf] COMMAND [ARGS]
 *	triage help [COMMAND]
 *
 *	Dispatches to cmd_COMMAND() (git.c's command table).  'triage help
 *	COMMAND' is 'triage COMMAND --help': the command's usage and
 *	options, from its option table.  A name that is no command but
 *	near one is answered with the one meant.  The
 *	per-message program triage-filter is a separate binary so that it
 *	does not load libcurl or libmicrohttpd.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

#include "cmd.h"
#include "config.h"
#include "util.h"

#ifndef TRIAGE_VERSION
#define TRIAGE_VERSION "0"
#endif

#ifndef LIBEXECDIR
#define LIBEXECDIR "/usr/local/libexec"
#endif

struct command {
	const char *name;
	int (*fn)(int argc, char **argv, struct cmd_ctx *ctx);
	enum cmd_part part;
	const char *summary;
};

static const struct command commands[] = {
	{ "explain", cmd_explain, PART_MIME,
	  "run the pipeline over one report, as a dry run" },
	{ "map", cmd_map, PART_CORE, "map file paths to MAINTAINERS sections" },
	{ "update", cmd_update, PART_CORE,
	  "compile MAINTAINERS and the kernel symbol index" },
	{ "experts", cmd_experts, PART_CORE,
	  "mine or show who reviews what (git history)" },
	{ "symbols", cmd_symbols, PART_CORE,
	  "which source files define a kernel function" },
	{ "check-rules", cmd_check_rules, PART_CORE,
	  "lint the classification rules (--test runs their tests)" },
	{ "check-config", cmd_check_config, PART_CORE,
	  "check routes.conf: unknown names, bad values (file:line)" },
	{ "pending", cmd_pending, PART_CORE,
	  "list the reports that wait for a human" },
	{ "show", cmd_show, PART_CORE,
	  "show one report and every decision about it" },
	{ "approve", cmd_approve, PART_CORE,
	  "forward held reports (or resend failed ones)" },
	{ "reroute", cmd_reroute, PART_CORE,
	  "forward reports to another section or address" },
	{ "reclassify", cmd_reclassify, PART_CORE,
	  "correct the class of reports (trains the model)" },
	{ "reject", cmd_reject, PART_CORE,
	  "close reports without forwarding them" },
	{ "note", cmd_note, PART_CORE, "add a note to a report" },
	{ "dup", cmd_dup, PART_CORE,
	  "group a report with another of the same crash" },
	{ "undup", cmd_undup, PART_CORE,
	  "take a report out of its crash group" },
	{ "fixes", cmd_fixes, PART_CORE,
	  "mark reports fixed from git trailers (import), list them" },
	{ "remind", cmd_remind, PART_CORE,
	  "list (or --send) reminders of reports nobody answered" },
	{ "stats", cmd_stats, PART_CORE,
	  "counts per class, section and recipient; delivery" },
	{ "log", cmd_log, PART_CORE,
	  "every decision and action, in time order" },
	{ "digest", cmd_digest, PART_CORE,
	  "show (or --send) the next fuzzer digests" },
	{ "train", cmd_train, PART_MIME,
	  "train the statistical model from labelled reports and corrections" },
	{ "eval", cmd_eval, PART_MIME,
	  "cross-validate the classifier on labelled reports" },
	{ "serve", cmd_serve, PART_NET,
	  "receive Bugzilla webhooks and triage the bugs" },
	{ "deliver", cmd_deliver, PART_NET, "send the queued mail (outbox)" },
	{ "bugzilla", cmd_bugzilla, PART_NET,
	  "poll a Bugzilla for changed bugs and triage them" },
};

static const char *const part_program[] = {
	[PART_CORE] = "triage",
	[PART_MIME] = "triage-mime",
	[PART_NET] = "triage-net",
};

/*
 * run_elsewhere - exec the program that has a command linked in
 *
 * Looked up in TRIAGE_EXEC_PATH, then beside this program (a build
 * tree), then in LIBEXECDIR/triage.
 */
static int run_elsewhere(const struct command *c, int argc, char **argv,
			 const char *config_path)
{
	const char *prog = part_program[c->part];
	const char *env = getenv("TRIAGE_EXEC_PATH");
	char self[4096], *dirs[3], *path;
	char **nargv;
	ssize_t n;
	int i, k = 0, j;

	if (env && *env)
		dirs[k++] = xstrdup(env);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		char *slash;

		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			dirs[k++] = xstrdup(self);
		}
	}
	dirs[k++] = xstrdup(LIBEXECDIR "/triage");
	nargv = xcalloc((size_t)argc + 4, sizeof(*nargv));
	j = 0;
	nargv[j++] = (char *)prog;
	if (config_path) {
		nargv[j++] = (char *)"-c";
		nargv[j++] = (char *)config_path;
	}
	for (i = 0; i < argc; i++)
		nargv[j++] = argv[i];
	nargv[j] = NULL;
	for (i = 0; i < k; i++) {
		path = xasprintf("%s/%s", dirs[i], prog);
		if (access(path, X_OK) == 0) {
			fflush(NULL);
			execv(path, nargv);
			error("cannot run '%s': %s", path, strerror(errno));
			free(path);
			return EX_OSERR;
		}
		free(path);
	}
	error("'%s' needs %s, which is not installed (looked in %s)", c->name,
	      prog, LIBEXECDIR "/triage");
	for (i = 0; i < k; i++)
		free(dirs[i]);
	free(nargv);
	return EX_UNAVAILABLE;
}

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: triage [-c routes.conf] COMMAND [ARGS]\n\n");
	fprintf(f, "commands:\n");
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "   %-12s %s\n", commands[i].name,
			commands[i].summary);
	fprintf(f,
		"\n'triage help COMMAND' shows a command's options; see triage(1).\n");
}

static const struct command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (strcmp(name, commands[i].name) == 0)
			return &commands[i];
	return NULL;
}

/* unknown - say that name is no command, and which one it may be */
static int unknown(const char *name)
{
	const char *names[ARRAY_SIZE(commands)], *near;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(commands); i++)
		names[i] = commands[i].name;
	near = nearest(name, names, ARRAY_SIZE(names));
	if (near)
		error("'%s' is not a triage command; did you mean '%s'?", name,
		      near);
	else
		error("'%s' is not a triage command; see 'triage help'", name);
	return EX_USAGE;
}

/* uses_state - the command opens the state directory (all but one) */
static bool uses_state(const struct command *c)
{
	return strcmp(c->name, "check-config") != 0;
}

/* asks_help - the command is asked for its usage (--help, -h) only */
static bool asks_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return true;
	return false;
}

/*
 * become_state_owner - run as root, a command that uses the state
 * directory becomes its owner first when that is another user (the
 * install's 'triage' user), before anything there is opened: root never
 * writes into a directory someone else can write (issue 21)
 */
static int become_state_owner(struct cmd_ctx *ctx)
{
	char *path;
	int rc;

	if (geteuid() != 0)
		return 0;
	path = config_state_path(cmd_config(ctx), "triage.db");
	rc = root_become_dir_owner(path);
	free(path);
	return rc < 0 ? EX_NOPERM : 0;
}

/*
 * run - one command, in this program or in the one it is linked into;
 * run as root, a command that uses the state directory first becomes
 * the directory's owner when that is someone else, then checks it, here
 * for all of them, so that a refused one (a stranger's link, root's
 * directory others can write) is one message and one status, 73
 */
static int run(const struct command *c, int argc, char **argv,
	       struct cmd_ctx *ctx)
{
	int ret;

	/*
	 * root drops first, whatever the arguments: a "-h" is also a
	 * note's text or a reason ("triage note 1 -h"); only the
	 * directory's check is left out when the command asks for help
	 */
	if (uses_state(c) &&
	    ((ret = become_state_owner(ctx)) != 0 ||
	     (!asks_help(argc, argv) && (ret = cmd_state_dir(ctx)) != 0))) {
		config_free(ctx->cfg);
		return ret;
	}
	if (!c->fn) {
		config_free(ctx->cfg);
		return run_elsewhere(c, argc, argv, ctx->config_path);
	}
	optind = 0; /* reset getopt for the command */
	ret = c->fn(argc, argv, ctx);
	config_free(ctx->cfg);
	fflush(stdout);
	if (ferror(stdout)) {
		error("write error on standard output");
		return ret ? ret : EX_IOERR;
	}
	return ret;
}

int main(int argc, char **argv)
{
	struct cmd_ctx ctx = { NULL, NULL };
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const struct command *cmd;
	int c;

	msg_setup("triage", EX_SOFTWARE, false);
	while ((c = getopt_long(argc, argv, "+c:hV", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			ctx.config_path = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("triage %s\n", TRIAGE_VERSION);
			return 0;
		default:
			usage(stderr);
			return EX_USAGE;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return EX_USAGE;
	}
	argc -= optind;
	argv += optind;
	if (strcmp(argv[0], "help") == 0) {
		char *help[3];

		if (argc == 1) {
			usage(stdout);
			return 0;
		}
		if (argc > 2) {
			usage(stderr);
			return EX_USAGE;
		}
		cmd = find_command(argv[1]);
		if (!cmd)
			return unknown(argv[1]);
		help[0] = argv[1];
		help[1] = (char *)"--help";
		help[2] = NULL;
		return run(cmd, 2, help, &ctx);
	}
	cmd = find_command(argv[0]);
	return cmd ? run(cmd, argc, argv, &ctx) : unknown(argv[0]);
}
