// SPDX-License-Identifier: GPL-2.0-only
/*
 * triage check-config - check a routes.conf against the directives
 *
 * DESCRIPTION
 *	triage check-config [FILE]
 *
 *	Reads FILE (or -c FILE; default: triage's -c, else TRIAGE_CONFIG, else
 *	SYSCONFDIR/routes.conf, else the built-in default) and checks every
 *	directive against the table of routes.conf(5) (config_table.c): an
 *	unknown name (with the name meant when it is near one), a setting's
 *	value not of its type or range, a record with the wrong number or
 *	kind of arguments.  Each problem goes to standard error as
 *
 *		FILE:LINE: NAME: why
 *
 *	and the exit status is EX_CONFIG (78); a clean file prints one line
 *	of counts on standard output and exits 0.  A file that cannot be
 *	read or split into directives (a quote left open) is EX_CONFIG
 *	too, after its own file:line message.
 *
 *	A clean file is then followed by a line on the printk format index
 *	the filter would use (STATE_DIR/printk.idx, printk.h): how many
 *	formats, from which tree and when it was built; or that there is
 *	none, or none it can use (an older format, damaged: why goes to
 *	standard error), and what that costs.  Neither changes the exit
 *	status: the index is state, not configuration.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sysexits.h>
#include <time.h>

#include "cmd.h"
#include "config.h"
#include "printk.h"
#include "util.h"

/* put_clean - text of the file on standard error, controls as '?' */
static void put_clean(const char *s)
{
	for (; *s; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s,
		      stderr);
}

/* report_printk - the printk format index the filter would open */
static void report_printk(const struct config *cfg)
{
	char *path = config_state_path(cfg, "printk.idx");
	struct printk_index *pk;
	struct printk_about a;
	struct stat st;
	char when[64] = "at an unknown time";
	struct tm tm;
	time_t t;

	if (!path)
		return;
	if (stat(path, &st) < 0) {
		printf("%s: none: log lines name no source file; 'triage update --kernel-tree DIR' builds it\n",
		       path);
		free(path);
		return;
	}
	pk = printk_open(path);
	if (!pk) {
		printf("%s: not used: log lines name no source file; 'triage update --kernel-tree DIR' rebuilds it\n",
		       path);
		free(path);
		return;
	}
	printk_about(pk, &a);
	t = (time_t)a.built;
	if (a.built > 0 && gmtime_r(&t, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", &tm);
	printf("%s: %zu printk formats (format %u) from %zu files of %s, built %s\n",
	       path, a.formats, a.version, a.scanned, a.tree, when);
	printk_free(pk);
	free(path);
}

int cmd_check_config(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const char *const usage[] = { "triage check-config [FILE]",
					     "triage check-config -c FILE",
					     NULL };
	const char *file = ctx->config_path;
	const struct opt opts[] = {
		OPT_STRING('c', "config", &file, "FILE",
			   "the file to check (default: the one triage reads)"),
		OPT_END(),
	};
	struct config *cfg;
	size_t i, settings = 0, records = 0;

	argc = parse_options(argc, argv, opts, usage, 0);
	if (argc > 1)
		usage_with_options(usage, opts);
	if (argc == 1)
		file = argv[0];
	cfg = config_load(file);
	if (!cfg)
		return EX_CONFIG;
	for (i = 0; i < cfg->nproblems; i++) {
		const struct config_problem *p = &cfg->problems[i];

		fprintf(stderr, "%s:%u: ", p->file, p->line);
		put_clean(p->key);
		fputs(": ", stderr);
		put_clean(p->msg);
		fputc('\n', stderr);
	}
	for (i = 0; i < cfg->nrec; i++) {
		if (cfg->rec[i].setting)
			settings++;
		else
			records++;
	}
	if (cfg->nproblems) {
		error("%s: %zu problem%s", cfg->path, cfg->nproblems,
		      cfg->nproblems == 1 ? "" : "s");
		config_free(cfg);
		return EX_CONFIG;
	}
	printf("%s: %zu settings and %zu records, all known and valid\n",
	       cfg->path, settings, records);
	report_printk(cfg);
	config_free(cfg);
	return 0;
}
