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
 *	compiled table to STATE_DIR/experts.idx (atomically).  SPEC is
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
#include <getopt.h>
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

static void usage(FILE *f)
{
	fprintf(f,
		"usage: triage experts import --git DIR [--since SPEC] [--output FILE] [--now DATE] [--quiet]\n"
		"       triage experts show [--index FILE] [PATH...]\n");
}

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
	static const struct option opts[] = {
		{ "git", required_argument, NULL, 'g' },
		{ "since", required_argument, NULL, 's' },
		{ "output", required_argument, NULL, 'o' },
		{ "now", required_argument, NULL, 'n' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct config *cfg = cmd_config(ctx);
	struct experts_options o;
	struct experts_stats st;
	const char *dir = NULL, *since = NULL, *now = NULL;
	char *out = NULL;
	bool quiet = false;
	int c, ret = 0;

	while ((c = getopt_long(argc, argv, "g:s:o:n:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'g':
			dir = optarg;
			break;
		case 's':
			since = optarg;
			break;
		case 'o':
			free(out);
			out = xstrdup(optarg);
			break;
		case 'n':
			now = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		case 'h':
			usage(stdout);
			free(out);
			return 0;
		default:
			usage(stderr);
			free(out);
			return EX_USAGE;
		}
	}
	if (!dir || optind != argc) {
		usage(stderr);
		free(out);
		return EX_USAGE;
	}
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
		const char *sd = config_get(cfg, "state_dir", NULL);

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
	printf("experts: %lu commits, %lu files + %lu directories, %lu people, %lu bot and %lu invalid addresses skipped -> %s (%zu KiB, %.2f s, %.0f commits/s)\n",
	       st.commits, st.files, st.dirs, st.people, st.bots, st.invalid,
	       out, (st.bytes + 1023) / 1024, st.seconds,
	       st.seconds > 0 ? (double)st.commits / st.seconds : 0.0);
	if (st.skipped)
		warn("%lu commits skipped (malformed or overlong git output)",
		     st.skipped);
done:
	experts_options_release(&o);
	free(out);
	return ret;
}

static void show_one(const struct experts *ex, char *path)
{
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
	static const struct option opts[] = {
		{ "index", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *index = NULL;
	char *path = NULL;
	struct experts *ex;
	int c, i;

	while ((c = getopt_long(argc, argv, "i:h", opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			index = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return EX_USAGE;
		}
	}
	if (!index)
		path = config_state_path(cmd_config(ctx), "experts.idx");
	ex = experts_open(index ? index : path);
	free(path);
	if (!ex)
		return EX_NOINPUT;
	if (optind < argc) {
		for (i = optind; i < argc; i++) {
			char *p = xstrdup(argv[i]);

			show_one(ex, p);
			free(p);
		}
	} else {
		char line[LINE_MAX_LEN];

		while (fgets(line, sizeof(line), stdin)) {
			size_t n = strlen(line);

			if (n && line[n - 1] != '\n' && !feof(stdin)) {
				int ch;

				warn("path longer than %d bytes skipped",
				     LINE_MAX_LEN);
				while ((ch = getchar()) != EOF && ch != '\n')
					;
				continue;
			}
			while (n &&
			       (line[n - 1] == '\n' || line[n - 1] == '\r'))
				line[--n] = '\0';
			if (n)
				show_one(ex, line);
		}
	}
	experts_free(ex);
	return 0;
}

int cmd_experts(int argc, char **argv, struct cmd_ctx *ctx)
{
	if (argc < 2) {
		usage(stderr);
		return EX_USAGE;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "import") == 0)
		return experts_import_cmd(argc - 1, argv + 1, ctx);
	if (strcmp(argv[1], "show") == 0)
		return experts_show_cmd(argc - 1, argv + 1, ctx);
	error("'%s' is not an experts subcommand (import, show)", argv[1]);
	usage(stderr);
	return EX_USAGE;
}
