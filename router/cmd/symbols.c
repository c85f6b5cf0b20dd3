// SPDX-License-Identifier: GPL-2.0-only
/*
 * triage symbols - which source files define a kernel function
 *
 * DESCRIPTION
 *	triage symbols [--index FILE] [--best] [NAME...]
 *
 *	Looks each NAME (a function as a stack frame shows it: compiler
 *	suffixes such as ".isra.0" and "+0x1a/0x20" are ignored) up in the
 *	symbol index that 'triage update --kernel-tree DIR' compiled
 *	(STATE_DIR/symbols.idx unless --index is given).  With no NAME,
 *	names are read from standard input, one per line.  One line per
 *	name, in input order:
 *
 *		NAME<TAB>FILE FILE ...
 *
 *	best first (see symbols.h for the ranking); nothing after the tab
 *	when no file defines it.  --best prints only the file the evidence
 *	stage would give a frame: the one clear best, or nothing when the
 *	name is unknown or ambiguous.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

#include "cmd.h"
#include "config.h"
#include "symbols.h"
#include "util.h"

#define LINE_MAX_LEN 1024

static void print_name(const char *name)
{
	const char *p;

	for (p = name; *p; p++)
		putchar((unsigned char)*p < 0x20 || *p == 0x7f ? '?' : *p);
}

static void symbols_one(const struct symbols *s, const char *name, bool best)
{
	print_name(name);
	putchar('\t');
	if (best) {
		const char *file = symbols_best(s, name);

		if (file)
			fputs(file, stdout);
	} else {
		size_t n = symbols_lookup(s, name, NULL, 0), i;
		const char **files;

		if (n) {
			files = xcalloc(n, sizeof(*files));
			n = symbols_lookup(s, name, files, n);
			for (i = 0; i < n; i++) {
				if (i)
					putchar(' ');
				fputs(files[i], stdout);
			}
			free(files);
		}
	}
	putchar('\n');
}

static void usage(void)
{
	fprintf(stderr,
		"usage: triage symbols [--index FILE] [--best] [NAME...]\n");
}

int cmd_symbols(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const struct option opts[] = {
		{ "index", required_argument, NULL, 'i' },
		{ "best", no_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *index = NULL;
	char *path = NULL;
	struct symbols *s;
	bool best = false;
	int c, i;

	while ((c = getopt_long(argc, argv, "i:bh", opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			index = optarg;
			break;
		case 'b':
			best = true;
			break;
		case 'h':
			usage();
			return 0;
		default:
			usage();
			return EX_USAGE;
		}
	}
	if (!index) {
		path = config_state_path(cmd_config(ctx), "symbols.idx");
		index = path;
		if (access(path, F_OK) != 0) {
			error("no symbol index '%s': run 'triage update --kernel-tree DIR' (or give --index)",
			      path);
			free(path);
			return EX_CONFIG;
		}
	}
	s = symbols_open(index);
	if (!s) {
		free(path);
		return EX_CONFIG;
	}
	if (optind < argc) {
		for (i = optind; i < argc; i++)
			symbols_one(s, argv[i], best);
	} else {
		char line[LINE_MAX_LEN];

		while (fgets(line, sizeof(line), stdin)) {
			size_t n = strlen(line);

			if (n && line[n - 1] != '\n' && !feof(stdin)) {
				int ch;

				warn("name longer than %d bytes skipped",
				     LINE_MAX_LEN);
				while ((ch = getchar()) != EOF && ch != '\n')
					;
				continue;
			}
			while (n &&
			       (line[n - 1] == '\n' || line[n - 1] == '\r'))
				line[--n] = '\0';
			if (n)
				symbols_one(s, line, best);
		}
	}
	symbols_free(s);
	free(path);
	return 0;
}
