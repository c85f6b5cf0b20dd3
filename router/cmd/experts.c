// SPDX-License-Identifier: GPL-2.0-only
/*
 * triage experts - the table of who reviews what (git history)
 *
 * DESCRIPTION
 *	triage experts import --git DIR [--since SPEC] [--output FILE]
 *			      [--now DATE] [--quiet]
 *	triage experts show [--index FILE] [PATH...]
 *
 *	import runs git log once over the repository in DIR and writes the
 *	compiled table to STATE_DIR/experts.idx (atomically), and once more
 *	for every commit id of HEAD's history (experts_history.h), written
 *	to STATE_DIR/experts.idx.history: the claims of reports that cite
 *	commits are checked against it.  SPEC is
 *	Nd, Nw, Nm, Ny, YYYY-MM-DD or "all" (default: experts_since, else
 *	2y); --now fixes the reference time of the decay (YYYY-MM-DD or
 *	@SECONDS), for reproducible tables.  Weights, half-life, the
 *	ignore list and the people kept per path come from routes.conf
 *	(experts.h).  A progress line is shown on a terminal; one summary
 *	line goes to standard output.
 *
 *	show prints, for each PATH (or each line of standard input), one
 *	line per expert, best first, tab separated:
 *
 *		PATH MATCHED ADDRESS SCORE REVIEWED ACKED SIGNED AUTHORED NAME
 *
 *	MATCHED is the file, or the directory ("fs/xfs/") the people were
 *	found for; the four counts are commits per kind.  A path with no
 *	expert prints "PATH<TAB>-".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

#include "cmd.h"
#include "config.h"
#include "experts.h"
#include "util.h"

#define SHOW_MAX     64
#define LINE_MAX_LEN 4096

#define IMPORT_USAGE "triage experts import --git DIR [OPTIONS]"
#define SHOW_USAGE   "triage experts show [--index FILE] [PATH...]"

static const char *const usage[] = { IMPORT_USAGE, SHOW_USAGE, NULL };
static const char *const import_usage[] = { IMPORT_USAGE, NULL };
static const char *const show_usage[] = { SHOW_USAGE, NULL };

static int parse_now(const char *s, time_t *out)
{
	unsigned long n;

	if (s[0] == '@') {
		if (parse_ulong(s + 1, &n) < 0)
			return -1;
		*out = (time_t)n;
		return 0;
	}
	if (strcmp(s, "all") == 0)
		return -1;
	return experts_parse_since(s, 0, out);
}

static int experts_import_cmd(int argc, char **argv, struct cmd_ctx *ctx)
{
	struct experts_options o;
	struct experts_stats st;
	const char *dir = NULL, *since = NULL, *now = NULL, *output = NULL;
	struct config *cfg;
	char *out = NULL;
	bool quiet = false;
	int ret = 0;
	const struct opt opts[] = {
		OPT_STRING('g', "git", &dir, "DIR",
			   "the git repository to read"),
		OPT_STRING('s', "since", &since, "SPEC",
			   "from Nd, Nw, Nm, Ny ago, YYYY-MM-DD or all"),
		OPT_STRING('o', "output", &output, "FILE",
			   "write here, not to STATE_DIR/experts.idx"),
		OPT_STRING('n', "now", &now, "DATE",
			   "the time of the decay: YYYY-MM-DD or @SECONDS"),
		OPT_BOOL('q', "quiet", &quiet, "no progress line"),
		OPT_END(),
	};

	if (parse_options(argc, argv, opts, import_usage, 0) || !dir)
		usage_with_options(import_usage, opts);
	cfg = cmd_config(ctx);
	if (output)
		out = xstrdup(output);
	experts_options_init(&o);
	if (now && parse_now(now, &o.now) < 0) {
		error("--now '%s' is not YYYY-MM-DD or @SECONDS", now);
		free(out);
		return EX_USAGE;
	}
	/* The default window is relative to the reference time. */
	experts_parse_since(EXPERTS_DEFAULT_SINCE, o.now, &o.since);
	experts_options_config(&o, cfg);
	if (since && experts_parse_since(since, o.now, &o.since) < 0) {
		error("--since '%s' is not Nd, Nw, Nm, Ny, YYYY-MM-DD or all",
		      since);
		experts_options_release(&o);
		free(out);
		return EX_USAGE;
	}
	o.progress = !quiet && isatty(2);
	if (!out) {
		const char *sd = config_get(cfg, "state_dir");

		out = config_state_path(cfg, "experts.idx");
		if (sd && mkdir_p(sd, 02770) < 0) {
			ret = EX_CANTCREAT;
			goto done;
		}
	}
	switch (experts_import(dir, &o, out, &st)) {
	case 0:
		break;
	case -2:
		ret = EX_CANTCREAT;
		goto done;
	default:
		ret = EX_NOINPUT;
		goto done;
	}
	printf("experts: %lu commits, %lu files + %lu directories, %lu people, %lu bot and %lu invalid addresses skipped -> %s (%zu KiB, %.2f s, %.0f commits/s); history: %lu commits, %lu releases%s (%zu KiB, %.2f s)\n",
	       st.commits, st.files, st.dirs, st.people, st.bots, st.invalid,
	       out, (st.bytes + 1023) / 1024, st.seconds,
	       st.seconds > 0 ? (double)st.commits / st.seconds : 0.0,
	       st.history_commits, st.history_releases,
	       st.history_complete ? "" : ", shallow: not complete",
	       (st.history_bytes + 1023) / 1024, st.history_seconds);
	if (st.skipped)
		warn("%lu commits skipped (malformed or overlong git output)",
		     st.skipped);
done:
	experts_options_release(&o);
	free(out);
	return ret;
}

static void show_one(void *arg, char *path)
{
	const struct experts *ex = arg;
	struct expert e[SHOW_MAX];
	size_t n, i;
	char *p;

	for (p = path; *p; p++)
		if ((unsigned char)*p < 0x20)
			*p = '?';
	n = experts_for_path(ex, path, e, ARRAY_SIZE(e));
	if (!n) {
		printf("%s\t-\n", path);
		return;
	}
	for (i = 0; i < n; i++)
		printf("%s\t%s\t%s\t%.2f\t%u\t%u\t%u\t%u\t%s\n", path,
		       e[i].path, e[i].addr, e[i].score,
		       e[i].count[EXPERTS_REVIEWED], e[i].count[EXPERTS_ACKED],
		       e[i].count[EXPERTS_SIGNED], e[i].count[EXPERTS_AUTHORED],
		       e[i].name);
}

static int experts_show_cmd(int argc, char **argv, struct cmd_ctx *ctx)
{
	const char *index = NULL;
	char *path = NULL;
	struct experts *ex;
	const struct opt opts[] = {
		OPT_STRING('i', "index", &index, "FILE",
			   "a table other than STATE_DIR/experts.idx"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, show_usage, 0);
	if (!index)
		path = config_state_path(cmd_config(ctx), "experts.idx");
	ex = experts_open(index ? index : path);
	free(path);
	if (!ex)
		return EX_NOINPUT;
	cmd_each_arg(argc, argv, "path", LINE_MAX_LEN, show_one, ex);
	experts_free(ex);
	return 0;
}

int cmd_experts(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const struct opt none[] = {
		OPT_GROUP(
			"'triage experts import --help' and 'triage experts show --help'\n"
			"give the options of each."),
		OPT_END(),
	};

	if (argc >= 2 && strcmp(argv[1], "import") == 0)
		return experts_import_cmd(argc - 1, argv + 1, ctx);
	if (argc >= 2 && strcmp(argv[1], "show") == 0)
		return experts_show_cmd(argc - 1, argv + 1, ctx);
	/* --help, or nothing that is a subcommand */
	argc = parse_options(argc, argv, none, usage, OPTIONS_STOP_AT_ARG);
	if (argc)
		error("'%s' is not an experts subcommand (import, show)",
		      argv[0]);
	usage_with_options(usage, none);
}
