// SPDX-License-Identifier: GPL-2.0-only
/*
 * triage update - compile the state the filter maps cheaply
 *
 * DESCRIPTION
 *	triage update [--maintainers FILE|DIR] [--overlay FILE] [--tree DIR]
 *		      [--output FILE]
 *
 *	Parses MAINTAINERS (the 'maintainers' setting by default) and the
 *	site overlay ('overlay'), resolves directory patterns against the
 *	source tree ('tree') when one is given, and writes the compiled
 *	index to STATE_DIR/maintainers.idx (atomically: a filter running
 *	at the same time sees the old or the new index, never a mix).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "cmd.h"
#include "config.h"
#include "maintainers.h"
#include "map.h"
#include "util.h"

static void usage(void)
{
	fprintf(stderr,
		"usage: triage update [--maintainers FILE|DIR] [--overlay FILE] [--tree DIR] [--output FILE]\n");
}

static int update_maintainers(const char *src, const char *overlay,
			      const char *tree, const char *out)
{
	struct maintainers m, ov;
	struct map *map;
	double t0 = now_seconds();
	int ret = 0;

	maintainers_init(&m);
	if (maintainers_load(&m, src) < 0) {
		maintainers_release(&m);
		return EX_NOINPUT;
	}
	if (overlay) {
		maintainers_init(&ov);
		if (maintainers_load(&ov, overlay) < 0) {
			maintainers_release(&ov);
			maintainers_release(&m);
			return EX_NOINPUT;
		}
		maintainers_overlay(&m, &ov);
		maintainers_release(&ov);
	}
	map = map_compile(&m, tree);
	if (!map || map_save(map, out) < 0) {
		ret = EX_CANTCREAT;
	} else {
		printf("maintainers: %u sections from %s%s%s -> %s (%.0f ms)\n",
		       map_nsections(map), src, overlay ? " + " : "",
		       overlay ? overlay : "", out,
		       (now_seconds() - t0) * 1000);
	}
	map_free(map);
	maintainers_release(&m);
	return ret;
}

int cmd_update(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const struct option opts[] = {
		{ "maintainers", required_argument, NULL, 'm' },
		{ "overlay", required_argument, NULL, 'o' },
		{ "tree", required_argument, NULL, 't' },
		{ "output", required_argument, NULL, 'O' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct config *cfg = cmd_config(ctx);
	const char *src = config_get(cfg, "maintainers", NULL);
	const char *overlay = config_get(cfg, "overlay", NULL);
	const char *tree = config_get(cfg, "tree", NULL);
	char *out = NULL;
	int c, ret;

	while ((c = getopt_long(argc, argv, "m:o:t:O:h", opts, NULL)) != -1) {
		switch (c) {
		case 'm':
			src = optarg;
			break;
		case 'o':
			overlay = optarg;
			break;
		case 't':
			tree = optarg;
			break;
		case 'O':
			free(out);
			out = xstrdup(optarg);
			break;
		case 'h':
			usage();
			return 0;
		default:
			usage();
			return EX_USAGE;
		}
	}
	if (optind != argc) {
		usage();
		return EX_USAGE;
	}
	if (!src) {
		error("no MAINTAINERS: give --maintainers or set 'maintainers' in %s",
		      cfg->path);
		free(out);
		return EX_CONFIG;
	}
	if (tree && !is_dir(tree)) {
		error("tree '%s' is not a directory", tree);
		free(out);
		return EX_CONFIG;
	}
	if (!out) {
		const char *dir = config_get(cfg, "state_dir", NULL);

		out = config_state_path(cfg, "maintainers.idx");
		if (dir && mkdir_p(dir, 02770) < 0) {
			free(out);
			return EX_CANTCREAT;
		}
	}
	ret = update_maintainers(src, overlay && *overlay ? overlay : NULL,
				 tree, out);
	free(out);
	return ret;
}
