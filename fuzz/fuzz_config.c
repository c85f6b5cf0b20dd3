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

/* get_any - a setting through the getter of its type */
static void get_any(const struct config *cfg, const struct config_key *k)
{
	if (k->record)
		return;
	switch (k->v.type) {
	case CONFIG_INT:
		config_int(cfg, k->name);
		break;
	case CONFIG_NUMBER:
		config_number(cfg, k->name);
		break;
	case CONFIG_BOOL:
		config_bool(cfg, k->name);
		break;
	case CONFIG_DURATION:
		config_seconds(cfg, k->name);
		break;
	default:
		config_get(cfg, k->name);
	}
}

/* LLVMFuzzerTestOneInput - one routes.conf text, parsed and loaded */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = xmemdup0(size ? (const char *)data : "", size);
	struct act_config ac;
	struct router_id id;
	struct pick_config *pc;
	struct config *cfg;
	char *path;
	size_t i;

	cfg = config_parse(text, "fuzz.conf");
	free(text);
	if (!cfg)
		return 0;
	config_report(cfg, CONFIG_ONE_LINE);
	for (i = 0; i < config_nkeys; i++)
		get_any(cfg, &config_keys[i]);
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
