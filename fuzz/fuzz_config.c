// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_config - a routes.conf through the configuration parser and the
 * loaders that read its settings and records (router identity, act,
 * pick rosters, outbox; not Bugzilla's, which opens the key file the
 * configuration names)
 */
#include <stdlib.h>

#include "act.h"
#include "config.h"
#include "forward.h"
#include "fuzz.h"
#include "outbox.h"
#include "pick.h"
#include "util.h"

/* LLVMFuzzerTestOneInput - one routes.conf text, parsed and loaded */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = xmemdup0(size ? (const char *)data : "", size);
	struct act_config ac;
	struct router_id id;
	struct pick_config *pc;
	struct config *cfg;
	char *path;

	cfg = config_parse(text, "fuzz.conf");
	free(text);
	if (!cfg)
		return 0;
	config_get_long(cfg, "filter_timeout", 120);
	config_get_double(cfg, "uncertain_band", 1.0);
	config_get_bool(cfg, "reply", false);
	path = config_state_path(cfg, "triage.db");
	free(path);
	router_id_load(&id, cfg);
	act_config_load(&ac, cfg);
	outbox_max_age(cfg);
	pc = pick_config_load(cfg, NULL);
	if (pc)
		pick_config_free(pc);
	config_free(cfg);
	return 0;
}
