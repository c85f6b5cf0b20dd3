// SPDX-License-Identifier: GPL-2.0-only
/*
 * triage update - compile the state the filter maps cheaply
 *
 * DESCRIPTION
 *	triage update [--maintainers FILE|DIR] [--overlay FILE] [--tree DIR]
 *		      [--kernel-tree DIR] [--output FILE]
 *
 *	Two parts, each optional, at least one required:
 *
 *	- MAINTAINERS: parses MAINTAINERS (the 'maintainers' setting by
 *	  default) and the site overlay ('overlay'), resolves directory
 *	  patterns against the source tree ('tree') when one is given,
 *	  and writes STATE_DIR/maintainers.idx.
 *	- symbols: scans a kernel source tree ('kernel_tree') for function
 *	  definitions and writes STATE_DIR/symbols.idx (symbols.h), and
 *	  for the formats of its log calls, written to
 *	  STATE_DIR/printk.idx (printk.h); with --output, only the
 *	  symbol index.
 *
 *	Options choose the parts: --maintainers, --overlay and --tree the
 *	first, --kernel-tree the second.  Without any of them, every part
 *	that is configured (a non-empty 'maintainers' or 'kernel_tree') is
 *	built.  --output names the file of the only part being built.
 *	Every index is replaced atomically: a filter running at the same
 *	time sees the old or the new index, never a mix.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "classify.h"
#include "cmd.h"
#include "crashlog.h"
#include "config.h"
#include "maintainers.h"
#include "printk.h"
#include "map.h"
#include "symbols.h"
#include "util.h"

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

static int update_symbols(const char *tree, const char *out)
{
	struct symbols_stats st;

	if (symbols_build(tree, out, &st) < 0)
		return EX_CANTCREAT;
	printf("symbols: %zu functions (%zu names) from %zu files of %s -> %s (%.1f s)\n",
	       st.functions, st.names, st.files, tree, out, st.seconds);
	return 0;
}

static int update_printk(const char *tree, const char *out)
{
	struct printk_stats st;

	if (printk_build(tree, out, &st) < 0)
		return EX_CANTCREAT;
	printf("printk formats: %zu formats (%zu log calls, %zu words) from %zu files of %s -> %s (%zu KB, %.1f s)\n",
	       st.formats, st.calls, st.words, st.files, tree, out,
	       st.bytes / 1024, st.seconds);
	return 0;
}

/* output_path - --output, or the file in the state directory */
static char *output_path(struct config *cfg, const char *output,
			 const char *file)
{
	const char *dir = config_get(cfg, "state_dir");

	if (output)
		return xstrdup(output);
	if (dir && mkdir_p(dir, 02770) < 0)
		return NULL;
	return config_state_path(cfg, file);
}

static const char *nonempty(const char *s)
{
	return s && *s ? s : NULL;
}

/*
 * update_rules - the compiled snapshot of the classifier rules, which
 * the filter loads in a fraction of the time parsing the rule files
 * takes
 */
static int update_rules(struct config *cfg)
{
	const char *dir = classify_rules_dir(cfg);
	const char *local = classify_local_rules(cfg);
	char *out;
	struct ruleset *rs;
	int ret = 0;

	if (!is_dir(dir)) {
		printf("rules: no rules directory '%s'; snapshot not built\n",
		       dir);
		return 0;
	}
	rs = classify_load(dir, local);
	if (!rs)
		return EX_CONFIG;
	out = output_path(cfg, NULL, CLASSIFY_SNAPSHOT);
	if (!out || rules_save(rs, dir, local, out) < 0)
		ret = EX_CANTCREAT;
	else
		printf("rules: %zu rules from %s -> %s\n", rules_count(rs), dir,
		       out);
	free(out);
	rules_free(rs);
	return ret;
}

int cmd_update(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const char *const usage[] = { "triage update [OPTIONS]", NULL };
	const char *msrc = NULL, *moverlay = NULL, *mtree = NULL,
		   *mktree = NULL;
	const char *src, *overlay, *tree, *ktree, *output = NULL;
	const struct opt opts[] = {
		OPT_STRING('m', "maintainers", &msrc, "FILE|DIR",
			   "MAINTAINERS (default: maintainers)"),
		OPT_STRING(
			'o', "overlay", &moverlay, "FILE",
			"the site's MAINTAINERS additions (default: overlay)"),
		OPT_STRING(
			't', "tree", &mtree, "DIR",
			"the source tree of the F: patterns (default: tree)"),
		OPT_STRING(
			'k', "kernel-tree", &mktree, "DIR",
			"build the symbol index of DIR (default: kernel_tree)"),
		OPT_STRING('O', "output", &output, "FILE",
			   "write the one index built to FILE"),
		OPT_END(),
	};
	struct config *cfg;
	bool want_m, want_k;
	char *out;
	int ret = 0, r;

	if (parse_options(argc, argv, opts, usage, 0))
		usage_with_options(usage, opts);
	cfg = cmd_config(ctx);
	/* an option chooses its part and replaces the setting */
	want_m = msrc || moverlay || mtree;
	want_k = mktree != NULL;
	src = msrc ? msrc : config_get(cfg, "maintainers");
	overlay = moverlay ? moverlay : config_get(cfg, "overlay");
	tree = mtree ? mtree : config_get(cfg, "tree");
	ktree = mktree ? mktree : config_get(cfg, "kernel_tree");
	src = nonempty(src);
	ktree = nonempty(ktree);
	if (!want_m && !want_k) {
		/* every configured part */
		want_m = src != NULL;
		want_k = ktree != NULL;
	}
	if (!want_m && !want_k) {
		error("nothing to update: give --maintainers or --kernel-tree, or set 'maintainers' or 'kernel_tree' in %s",
		      cfg->path);
		return EX_CONFIG;
	}
	if (want_m && want_k && output) {
		error("--output names one index; this would build two (MAINTAINERS and symbols)");
		return EX_USAGE;
	}
	if (want_m && !src) {
		error("no MAINTAINERS: give --maintainers or set 'maintainers' in %s",
		      cfg->path);
		return EX_CONFIG;
	}
	if (want_m && tree && *tree && !is_dir(tree)) {
		error("tree '%s' is not a directory", tree);
		return EX_CONFIG;
	}
	if (want_k && !is_dir(ktree)) {
		error("kernel tree '%s' is not a directory", ktree);
		return EX_CONFIG;
	}
	if (want_m) {
		out = output_path(cfg, output, "maintainers.idx");
		if (!out)
			return EX_CANTCREAT;
		ret = update_maintainers(src, nonempty(overlay), nonempty(tree),
					 out);
		free(out);
	}
	if (want_k) {
		out = output_path(cfg, output, "symbols.idx");
		if (!out)
			return ret ? ret : EX_CANTCREAT;
		r = update_symbols(ktree, out);
		free(out);
		if (!ret)
			ret = r;
		if (!output && !r) {
			out = output_path(cfg, NULL, "printk.idx");
			r = out ? update_printk(ktree, out) : EX_CANTCREAT;
			free(out);
			if (!ret)
				ret = r;
		}
	}
	/* The rule snapshot follows the rule files: refresh it whenever the
	 * state is updated in place; so do the crash-log patterns, which
	 * follow the program. */
	if (!output && !ret)
		ret = update_rules(cfg);
	if (!output && !ret) {
		char *rx = output_path(cfg, NULL, "crashlog.rx");

		if (!rx || crashlog_save_patterns(rx) < 0)
			ret = EX_CANTCREAT;
		else
			printf("crash-log patterns: precompiled -> %s\n", rx);
		free(rx);
	}
	return ret;
}
