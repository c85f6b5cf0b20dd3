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

struct sym_out {
	const struct symbols *s;
	bool best;
};

static void symbols_one(void *arg, char *name)
{
	const struct sym_out *o = arg;
	const struct symbols *s = o->s;
	bool best = o->best;

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

int cmd_symbols(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const char *const usage[] = {
		"triage symbols [--index FILE] [--best] [NAME...]", NULL
	};
	const char *index = NULL;
	char *path = NULL;
	struct symbols *s;
	struct sym_out o = { NULL, false };
	const struct opt opts[] = {
		OPT_STRING('i', "index", &index, "FILE",
			   "an index other than STATE_DIR/symbols.idx"),
		OPT_BOOL('b', "best", &o.best,
			 "only the file the evidence stage would give a frame"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, usage, 0);
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
	o.s = s;
	cmd_each_arg(argc, argv, "name", LINE_MAX_LEN, symbols_one, &o);
	symbols_free(s);
	free(path);
	return 0;
}
