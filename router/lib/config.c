// SPDX-License-Identifier: GPL-2.0-only
/*
 * config - routes.conf parsing (see config.h)
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "config.h"
#include "strbuf.h"
#include "util.h"

#ifndef SYSCONFDIR
#define SYSCONFDIR "/etc/triage"
#endif

#define CONFIG_MAX (4u << 20)

const char *config_path_default(void)
{
	const char *env = getenv("TRIAGE_CONFIG");

	return env && *env ? env : SYSCONFDIR "/routes.conf";
}

static void add_record(struct config *cfg, struct config_record *r)
{
	ALLOC_GROW(cfg->rec, cfg->nrec, cfg->alloc);
	cfg->rec[cfg->nrec++] = *r;
}

static void free_record(struct config_record *r)
{
	int i;

	for (i = 0; i < r->argc; i++)
		free(r->argv[i]);
	free(r->argv);
	free(r->name);
}

/* split - break a logical line into words; quotes group, '#' comments */
static int split(const char *line, char **words, int max)
{
	int n = 0;
	const char *p = line;

	for (;;) {
		struct strbuf w = STRBUF_INIT(CONFIG_MAX);

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#')
			break;
		if (n == max) {
			while (n)
				free(words[--n]);
			return -2;
		}
		while (*p && *p != ' ' && *p != '\t') {
			if (*p == '"') {
				p++;
				while (*p && *p != '"') {
					if (*p == '\\' && p[1])
						p++;
					sb_addc(&w, *p++);
				}
				if (*p != '"') {
					sb_release(&w);
					while (n)
						free(words[--n]);
					return -1;
				}
				p++;
			} else {
				sb_addc(&w, *p++);
			}
		}
		words[n++] = sb_detach(&w, NULL);
	}
	return n;
}

/* setting_name_len - length of NAME in "NAME = value", or 0 */
static size_t setting_name_len(const char *line)
{
	size_t i = 0, n;

	while ((line[i] >= 'a' && line[i] <= 'z') ||
	       (line[i] >= 'A' && line[i] <= 'Z') ||
	       (line[i] >= '0' && line[i] <= '9') || line[i] == '_' ||
	       line[i] == '-' || line[i] == '.')
		i++;
	n = i;
	while (line[i] == ' ' || line[i] == '\t')
		i++;
	return n && line[i] == '=' ? n : 0;
}

static int parse_line(struct config *cfg, const char *line, unsigned lineno)
{
	char *words[CONFIG_MAX_ARGS + 2];
	struct config_record r;
	size_t namelen = setting_name_len(line);
	int n, i;

	memset(&r, 0, sizeof(r));
	r.file = cfg->path;
	r.line = lineno;
	if (namelen) {
		/* "name = value": the value is the rest, words re-joined. */
		struct strbuf v = STRBUF_INIT(CONFIG_MAX);

		n = split(strchr(line, '=') + 1, words, CONFIG_MAX_ARGS + 1);
		if (n < 0)
			return error("%s:%u: %s", cfg->path, lineno,
				     n == -1 ? "unterminated quote"
					     : "too many words");
		for (i = 0; i < n; i++) {
			if (i)
				sb_addc(&v, ' ');
			sb_adds(&v, words[i]);
			free(words[i]);
		}
		r.name = xmemdup0(line, namelen);
		r.setting = true;
		r.argv = xmalloc(sizeof(char *));
		r.argv[0] = sb_detach(&v, NULL);
		r.argc = 1;
		add_record(cfg, &r);
		return 0;
	}
	n = split(line, words, CONFIG_MAX_ARGS + 1);
	if (n == -1)
		return error("%s:%u: unterminated quote", cfg->path, lineno);
	if (n == -2)
		return error("%s:%u: more than %d words", cfg->path, lineno,
			     CONFIG_MAX_ARGS);
	if (n == 0)
		return 0;
	r.name = words[0];
	r.argc = n - 1;
	r.argv = xcalloc((size_t)n, sizeof(char *));
	for (i = 1; i < n; i++)
		r.argv[i - 1] = words[i];
	add_record(cfg, &r);
	return 0;
}

/* config_parse - parse configuration text; name is used in messages */
struct config *config_parse(const char *text, const char *name)
{
	struct config *cfg = xcalloc(1, sizeof(*cfg));
	struct strbuf logical = STRBUF_INIT(CONFIG_MAX);
	const char *p = text;
	unsigned lineno = 0, start = 0;
	int bad = 0;

	cfg->path = xstrdup(name);
	for (;;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		bool cont = n && (p[0] == ' ' || p[0] == '\t');
		bool blank = true;
		size_t i;

		for (i = 0; i < n; i++)
			if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
				blank = false;
		if (!(nl || n))
			break;
		lineno++;
		if (cont && !blank && logical.len) {
			sb_addc(&logical, ' ');
			sb_add(&logical, p, n);
		} else if (!blank && p[0] != '#') {
			if (logical.len && parse_line(cfg, logical.buf, start))
				bad = 1;
			sb_reset(&logical);
			sb_add(&logical, p, n);
			start = lineno;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	if (logical.len && parse_line(cfg, logical.buf, start))
		bad = 1;
	sb_release(&logical);
	/* Strip carriage returns left by CRLF files. */
	{
		size_t i;
		int j;

		for (i = 0; i < cfg->nrec; i++)
			for (j = 0; j < cfg->rec[i].argc; j++) {
				char *a = cfg->rec[i].argv[j];
				size_t l = strlen(a);

				while (l && a[l - 1] == '\r')
					a[--l] = '\0';
			}
	}
	if (bad) {
		config_free(cfg);
		return NULL;
	}
	return cfg;
}

/*
 * config_load - read routes.conf; NULL path means the default location,
 * falling back to the built-in configuration when that file is absent
 */
struct config *config_load(const char *path)
{
	struct config *cfg;
	char *text;
	bool explicit = path != NULL;

	if (!path)
		path = config_path_default();
	if (!explicit && !getenv("TRIAGE_CONFIG") && access(path, F_OK) != 0)
		return config_parse(config_default_text, "(built-in)");
	if (read_file(path, CONFIG_MAX, &text, NULL) < 0)
		return NULL;
	cfg = config_parse(text, path);
	free(text);
	return cfg;
}

void config_free(struct config *cfg)
{
	size_t i;

	if (!cfg)
		return;
	for (i = 0; i < cfg->nrec; i++)
		free_record(&cfg->rec[i]);
	free(cfg->rec);
	free(cfg->path);
	free(cfg);
}

/* config_get - last value of a setting, or def */
const char *config_get(const struct config *cfg, const char *name,
		       const char *def)
{
	size_t i;

	if (strcmp(name, "state_dir") == 0) {
		const char *env = getenv("TRIAGE_STATE_DIR");

		if (env && *env)
			return env;
	}
	if (!cfg)
		return def;
	for (i = cfg->nrec; i-- > 0;)
		if (cfg->rec[i].setting && strcmp(cfg->rec[i].name, name) == 0)
			return *cfg->rec[i].argv[0] ? cfg->rec[i].argv[0] : def;
	return def;
}

long config_get_long(const struct config *cfg, const char *name, long def)
{
	const char *v = config_get(cfg, name, NULL);
	char *end;
	long n;

	if (!v)
		return def;
	errno = 0;
	n = strtol(v, &end, 10);
	if (errno || *end || end == v) {
		warn("%s: '%s = %s' is not a number; using %ld", cfg->path,
		     name, v, def);
		return def;
	}
	return n;
}

double config_get_double(const struct config *cfg, const char *name, double def)
{
	const char *v = config_get(cfg, name, NULL);
	char *end;
	double d;

	if (!v)
		return def;
	d = strtod(v, &end);
	if (*end || end == v) {
		warn("%s: '%s = %s' is not a number; using %g", cfg->path, name,
		     v, def);
		return def;
	}
	return d;
}

bool config_get_bool(const struct config *cfg, const char *name, bool def)
{
	const char *v = config_get(cfg, name, NULL);

	if (!v)
		return def;
	if (!strcasecmp(v, "yes") || !strcasecmp(v, "true") ||
	    !strcmp(v, "1") || !strcasecmp(v, "on"))
		return true;
	if (!strcasecmp(v, "no") || !strcasecmp(v, "false") ||
	    !strcmp(v, "0") || !strcasecmp(v, "off"))
		return false;
	warn("%s: '%s = %s' is not yes or no", cfg->path, name, v);
	return def;
}

#ifndef STATEDIR
#define STATEDIR "/var/lib/triage"
#endif

/* config_state_path - a file in the state directory (caller frees) */
char *config_state_path(const struct config *cfg, const char *file)
{
	return xasprintf("%s/%s", config_get(cfg, "state_dir", STATEDIR), file);
}
