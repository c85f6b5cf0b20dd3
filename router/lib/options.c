// SPDX-License-Identifier: GPL-2.0-only
/*
 * options - a command's options from one table (see options.h)
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "options.h"
#include "strbuf.h"
#include "util.h"

#define HELP_COLUMN 26	/* where an option's help starts */
#define LONG_BASE   256 /* getopt's code of opts[i] with no short name */

static size_t count(const struct opt *opts)
{
	size_t n = 0;

	while (opts[n].type != OPT_T_END)
		n++;
	return n;
}

static bool takes_arg(const struct opt *o)
{
	switch (o->type) {
	case OPT_T_STRING:
	case OPT_T_ULONG:
	case OPT_T_LIST:
		return true;
	case OPT_T_CALLBACK:
		return !(o->flags & OPT_ARG_NONE);
	default:
		return false;
	}
}

/* option_text - "-c, --config FILE" as the help shows it */
static void option_text(struct strbuf *sb, const struct opt *o)
{
	if (o->short_name)
		sb_addf(sb, "-%c", o->short_name);
	if (o->short_name && o->long_name)
		sb_adds(sb, ", ");
	if (o->long_name)
		sb_addf(sb, "--%s", o->long_name);
	if (!takes_arg(o))
		return;
	if (o->flags & OPT_ARG_OPTIONAL)
		sb_addf(sb, "[=%s]", o->argh ? o->argh : "VALUE");
	else
		sb_addf(sb, " %s", o->argh ? o->argh : "VALUE");
}

void print_usage(FILE *f, const char *const *usage, const struct opt *opts)
{
	struct strbuf sb = STRBUF_INIT(4096);
	size_t i;

	for (i = 0; usage[i]; i++)
		fprintf(f, "%s %s\n", i ? "   or:" : "usage:", usage[i]);
	fputc('\n', f);
	for (i = 0; opts[i].type != OPT_T_END; i++) {
		const struct opt *o = &opts[i];

		if (o->type == OPT_T_GROUP) {
			fprintf(f, "%s%s\n", i ? "\n" : "", o->help);
			continue;
		}
		sb_reset(&sb);
		option_text(&sb, o);
		if (sb.len + 4 + 2 > HELP_COLUMN)
			fprintf(f, "    %s\n%*s%s\n", sb_str(&sb), HELP_COLUMN,
				"", o->help);
		else
			fprintf(f, "    %-*s%s\n", HELP_COLUMN - 4, sb_str(&sb),
				o->help);
	}
	fprintf(f, "    %-*s%s\n", HELP_COLUMN - 4, "-h, --help",
		"show this help");
	sb_release(&sb);
}

void usage_with_options(const char *const *usage, const struct opt *opts)
{
	print_usage(stderr, usage, opts);
	exit(EX_USAGE);
}

/* the option as the user wrote it, for messages */
static const char *spelled(const struct opt *o, char *buf, size_t size)
{
	if (o->long_name)
		snprintf(buf, size, "--%s", o->long_name);
	else
		snprintf(buf, size, "-%c", o->short_name);
	return buf;
}

/* take - store one option's value; -1 after printing why */
static int take(const struct opt *o, const char *arg)
{
	struct opt_list *l;
	unsigned long n;
	char name[64];

	switch (o->type) {
	case OPT_T_BOOL:
		*(bool *)o->value = o->defval != 0;
		return 0;
	case OPT_T_SET_INT:
		*(int *)o->value = (int)o->defval;
		return 0;
	case OPT_T_STRING:
		*(const char **)o->value = arg;
		return 0;
	case OPT_T_ULONG:
		if (parse_ulong(arg, &n) < 0 || n < o->min || n > o->max)
			return error(
				"%s takes a number from %lu to %lu, not '%s'",
				spelled(o, name, sizeof(name)), o->min, o->max,
				arg);
		*(unsigned long *)o->value = n;
		return 0;
	case OPT_T_LIST:
		l = o->value;
		if (l->n >= l->max)
			return error("%s: at most %zu",
				     spelled(o, name, sizeof(name)), l->max);
		l->v[l->n++] = arg;
		return 0;
	case OPT_T_CALLBACK:
		return o->cb(o, arg);
	default:
		die("BUG: option type %d", (int)o->type);
	}
}

int parse_options(int argc, char **argv, const struct opt *opts,
		  const char *const *usage, unsigned flags)
{
	size_t n = count(opts), i, k = 0;
	struct option *lo = xcalloc(n + 2, sizeof(*lo));
	struct strbuf shorts = STRBUF_INIT(1024);
	int c, j, left;

	sb_adds(&shorts, flags & OPTIONS_STOP_AT_ARG ? "+h" : "h");
	for (i = 0; i < n; i++) {
		const struct opt *o = &opts[i];
		int has = !takes_arg(o)			? no_argument
			  : o->flags & OPT_ARG_OPTIONAL ? optional_argument
							: required_argument;

		if (o->type == OPT_T_GROUP)
			continue;
		if (o->short_name) {
			if (strchr(sb_str(&shorts), o->short_name))
				die("BUG: option -%c twice", o->short_name);
			sb_addc(&shorts, (char)o->short_name);
			if (has != no_argument)
				sb_adds(&shorts,
					has == required_argument ? ":" : "::");
		}
		if (o->long_name) {
			lo[k].name = o->long_name;
			lo[k].has_arg = has;
			lo[k].val = o->short_name ? o->short_name
						  : LONG_BASE + (int)i;
			k++;
		}
	}
	lo[k].name = "help";
	lo[k].val = 'h';
	optind = 0; /* getopt starts afresh: a command may parse twice */
	while ((c = getopt_long(argc, argv, sb_str(&shorts), lo, NULL)) != -1) {
		const struct opt *o = NULL;

		if (c == 'h') {
			print_usage(stdout, usage, opts);
			exit(0);
		}
		if (c >= LONG_BASE)
			o = &opts[c - LONG_BASE];
		for (i = 0; !o && c != '?' && i < n; i++)
			if (opts[i].short_name == c)
				o = &opts[i];
		if (!o)
			usage_with_options(usage, opts); /* getopt said why */
		if (take(o, optarg) < 0)
			exit(EX_USAGE);
	}
	free(lo);
	sb_release(&shorts);
	left = argc - optind;
	for (j = 0; j < left; j++)
		argv[j] = argv[optind + j];
	argv[left] = NULL;
	return left;
}
