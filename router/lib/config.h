/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * config - routes.conf: line-oriented directives (routes.conf(5))
 *
 * DESCRIPTION
 *	A configuration file is a list of directives, one per line:
 *
 *		name = value            a setting (the last one wins)
 *		name arg arg ...        a record (may repeat)
 *
 *	"#" starts a comment outside quotes; a line that starts with white
 *	space continues the previous one (Postfix main.cf); arguments may
 *	be double-quoted to hold spaces ("XFS FILESYSTEM").  The file is
 *	parsed completely and every record keeps its file and line, so a
 *	module that rejects a value can say where it came from.
 *
 *	When no file is given, the built-in default (the routes.conf
 *	shipped at the top of the source tree, compiled in) is used.
 *	Settings can be overridden by the environment: TRIAGE_STATE_DIR
 *	replaces state_dir.
 *
 * Ownership:
 *	struct config owns its records; config_free() releases them.
 *
 * Errors:
 *	config_load() returns NULL after printing file:line: reason.
 */
#ifndef TRIAGE_CONFIG_H
#define TRIAGE_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#define CONFIG_MAX_ARGS 32

struct config_record {
	char *name;
	char **argv; /* for settings: one element, the value */
	int argc;
	bool setting;
	const char *file;
	unsigned line;
};

struct config {
	char *path; /* "(built-in)" for the embedded default */
	struct config_record *rec;
	size_t nrec, alloc;
};

extern const char config_default_text[];

struct config *config_load(const char *path);
struct config *config_parse(const char *text, const char *name);
void config_free(struct config *cfg);

const char *config_path_default(void);
const char *config_get(const struct config *cfg, const char *name,
		       const char *def);
long config_get_long(const struct config *cfg, const char *name, long def);
double config_get_double(const struct config *cfg, const char *name,
			 double def);
bool config_get_bool(const struct config *cfg, const char *name, bool def);
char *config_state_path(const struct config *cfg, const char *file);

#endif
