/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * options - a command's options from one table (git's parse-options)
 *
 * DESCRIPTION
 *	A command declares its options once, as an array of struct opt
 *	ended by OPT_END(), with its usage lines:
 *
 *		static const char *const usage[] = {
 *			"triage approve [OPTIONS] ID...", NULL };
 *		const struct opt opts[] = {
 *			OPT_STRING(0, "to", &to, "ADDR", "forward to ADDR"),
 *			OPT_END(),
 *		};
 *
 *		argc = parse_options(argc, argv, opts, usage, 0);
 *		if (argc < 1)
 *			usage_with_options(usage, opts);
 *
 *	parse_options() builds the getopt_long() table from it, stores each
 *	option's value, and leaves the arguments that are not options in
 *	argv[0..n), returning n (argv[0], the command's name, is dropped).
 *	Long options may be abbreviated, take "--name=VALUE" or "--name
 *	VALUE", and mix with the arguments (unless OPTIONS_STOP_AT_ARG).
 *	-h and --help print the usage lines and one line per option (its
 *	help) on standard output and exit 0; an unknown option or a bad
 *	value prints why and the usage on standard error and exits
 *	EX_USAGE.  usage_with_options() is that exit, for the checks a
 *	command makes after parsing (how many IDs, options that exclude
 *	each other).
 *
 * Errors:
 *	None returned: a usage error exits EX_USAGE.  A table with a
 *	repeated name is a bug (die()).
 */
#ifndef TRIAGE_OPTIONS_H
#define TRIAGE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util.h"

enum opt_type {
	OPT_T_END,
	OPT_T_GROUP,	/* a heading in the help; no option */
	OPT_T_BOOL,	/* no argument: *(bool *)value = defval */
	OPT_T_SET_INT,	/* no argument: *(int *)value = defval */
	OPT_T_STRING,	/* *(const char **)value = the argument */
	OPT_T_ULONG,	/* *(unsigned long *)value, from min to max */
	OPT_T_LIST,	/* repeatable: appended to a struct opt_list */
	OPT_T_CALLBACK, /* cb(opt, argument); see OPT_ARG_* */
};

#define OPT_ARG_NONE	 1u /* OPT_T_CALLBACK: takes no argument */
#define OPT_ARG_OPTIONAL 2u /* takes "--name=VALUE" or nothing */

struct opt;
typedef int (*opt_callback)(const struct opt *o, const char *arg);

struct opt {
	enum opt_type type;
	int short_name; /* 0: none */
	const char *long_name;
	void *value;
	const char *argh; /* the argument's name in the help: "FILE" */
	const char *help;
	unsigned flags;
	long defval;
	unsigned long min, max;
	opt_callback cb;
};

/* a repeatable option's arguments, in order, at most max */
struct opt_list {
	const char **v;
	size_t n, max;
};

#define OPT_END()                                                      \
	{                                                              \
		OPT_T_END, 0, NULL, NULL, NULL, NULL, 0, 0, 0, 0, NULL \
	}
#define OPT_GROUP(h)                                                  \
	{                                                             \
		OPT_T_GROUP, 0, NULL, NULL, NULL, h, 0, 0, 0, 0, NULL \
	}
#define OPT_BOOL(s, l, v, h)                                   \
	{                                                      \
		OPT_T_BOOL, s, l, v, NULL, h, 0, 1, 0, 0, NULL \
	}
/* --no-NAME: clears a bool that defaults to true */
#define OPT_NEGBOOL(s, l, v, h)                                \
	{                                                      \
		OPT_T_BOOL, s, l, v, NULL, h, 0, 0, 0, 0, NULL \
	}
#define OPT_SET_INT(s, l, v, val, h)                                \
	{                                                           \
		OPT_T_SET_INT, s, l, v, NULL, h, 0, val, 0, 0, NULL \
	}
#define OPT_STRING(s, l, v, a, h)                             \
	{                                                     \
		OPT_T_STRING, s, l, v, a, h, 0, 0, 0, 0, NULL \
	}
#define OPT_ULONG(s, l, v, a, h, lo, hi)                       \
	{                                                      \
		OPT_T_ULONG, s, l, v, a, h, 0, 0, lo, hi, NULL \
	}
#define OPT_LIST(s, l, v, a, h)                             \
	{                                                   \
		OPT_T_LIST, s, l, v, a, h, 0, 0, 0, 0, NULL \
	}
#define OPT_CALLBACK(s, l, v, a, h, f, fn)                    \
	{                                                     \
		OPT_T_CALLBACK, s, l, v, a, h, f, 0, 0, 0, fn \
	}

#define OPTIONS_STOP_AT_ARG 1u /* options only before the first argument */

int parse_options(int argc, char **argv, const struct opt *opts,
		  const char *const *usage, unsigned flags);
void print_usage(FILE *f, const char *const *usage, const struct opt *opts);
NORETURN void usage_with_options(const char *const *usage,
				 const struct opt *opts);

#endif
