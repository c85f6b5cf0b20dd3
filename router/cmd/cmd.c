// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd - what every command shares: the configuration and the map (see
 * cmd.h); in the command layer, not in the program, so that no command
 * calls up into router/bin/
 */
#include <stdlib.h>
#include <sysexits.h>
#include <unistd.h>

#include "cmd.h"
#include "config.h"
#include "map.h"
#include "util.h"

/* cmd_config - the configuration, loaded once */
struct config *cmd_config(struct cmd_ctx *ctx)
{
	if (!ctx->cfg) {
		ctx->cfg = config_load(ctx->config_path);
		if (!ctx->cfg)
			exit(EX_CONFIG);
	}
	return ctx->cfg;
}

/*
 * cmd_open_map - the MAINTAINERS map a command should use
 *
 * An explicit MAINTAINERS file is parsed as text; otherwise an explicit
 * or configured compiled index is mapped; otherwise the configured
 * MAINTAINERS text is parsed.
 */
struct map *cmd_open_map(struct cmd_ctx *ctx, const char *maintainers,
			 const char *tree, const char *index)
{
	struct config *cfg;
	char *path;
	struct map *map;

	if (maintainers)
		return map_load_text(maintainers, tree);
	if (index)
		return map_open(index);
	cfg = cmd_config(ctx);
	path = config_state_path(cfg, "maintainers.idx");
	if (!tree && access(path, R_OK) == 0) {
		map = map_open(path);
		free(path);
		return map;
	}
	free(path);
	maintainers = config_get(cfg, "maintainers", NULL);
	if (!maintainers) {
		error("no MAINTAINERS: give --maintainers FILE, set 'maintainers' in %s, or run 'triage update'",
		      cfg->path);
		return NULL;
	}
	return map_load_text(maintainers,
			     tree ? tree : config_get(cfg, "tree", NULL));
}
