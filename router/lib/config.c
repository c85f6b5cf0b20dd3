// SPDX-License-Identifier: GPL-2.0-only
/*
 * config - routes.conf parsing (see config.h)
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sysexits.h>
#include <unistd.h>

#include "archive.h"
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

static void check(struct config *cfg);

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
	check(cfg);
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
	for (i = 0; i < cfg->nproblems; i++) {
		free(cfg->problems[i].key);
		free(cfg->problems[i].msg);
	}
	free(cfg->problems);
	free(cfg->path);
	free(cfg);
}

/* ---- the check --------------------------------------------------------- */

/* config_key - the table's entry for a directive, or NULL */
const struct config_key *config_key(const char *name)
{
	size_t i;

	for (i = 0; i < config_nkeys; i++)
		if (!strcmp(config_keys[i].name, name))
			return &config_keys[i];
	return NULL;
}

/* word_of - the word of allowed ("a|b|c") that s is (any case), or NULL */
static const char *word_of(const char *allowed, const char *s, size_t n,
			   char *buf, size_t size)
{
	const char *p = allowed, *bar;

	while (p && *p) {
		size_t len;

		bar = strchr(p, '|');
		len = bar ? (size_t)(bar - p) : strlen(p);
		if (len == n && !strncasecmp(p, s, n) && len < size) {
			memcpy(buf, p, len);
			buf[len] = '\0';
			return buf;
		}
		p = bar ? bar + 1 : NULL;
	}
	return NULL;
}

bool config_word_in(const char *allowed, const char *s)
{
	char buf[64];

	return word_of(allowed, s, strlen(s), buf, sizeof(buf)) != NULL;
}

/* allowed_text - "a|b|c" as "a, b or c" */
static void allowed_text(const char *allowed, char *buf, size_t size)
{
	struct strbuf sb = STRBUF_INIT(1024);
	const char *p = allowed, *bar;

	while (p && *p) {
		bar = strchr(p, '|');
		if (p != allowed)
			sb_adds(&sb, bar ? ", " : " or ");
		sb_add(&sb, p, bar ? (size_t)(bar - p) : strlen(p));
		p = bar ? bar + 1 : NULL;
	}
	snprintf(buf, size, "%s", sb_str(&sb));
	sb_release(&sb);
}

/* units_text - units "dh" as ", Nd or Nh" */
static void units_text(const char *units, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (; units && *units && len < size; units++)
		len += (size_t)snprintf(buf + len, size - len, "%sN%c",
					units[1] ? ", " : " or ", *units);
}

static bool parse_long(const char *s, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 10);
	return !errno && end != s && !*end;
}

static bool parse_double(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return !errno && end != s && !*end && isfinite(*out);
}

static bool is_date(const char *s)
{
	int y, m, d, n = 0;

	return strlen(s) == 10 &&
	       sscanf(s, "%4d-%2d-%2d%n", &y, &m, &d, &n) == 3 && n == 10 &&
	       m >= 1 && m <= 12 && d >= 1 && d <= 31;
}

/* is_address - local@domain, printable ASCII without space or <>()," */
static bool is_address(const char *s)
{
	const char *at = strrchr(s, '@'), *p;

	if (!at || at == s || !at[1] || strlen(s) > 254)
		return false;
	for (p = s; *p; p++)
		if ((unsigned char)*p <= 0x20 || (unsigned char)*p >= 0x7f ||
		    strchr("<>()\",;:\\[]", *p) || (*p == '@' && p != at))
			return false;
	return strchr(at, '.') || !strcmp(at + 1, "localhost");
}

/* duration - "N" seconds, or N and one unit of units; -1 when not */
static long duration(const char *s, const char *units)
{
	static const struct {
		char unit;
		long secs;
	} mult[] = { { 's', 1 },
		     { 'm', 60 },
		     { 'h', 3600 },
		     { 'd', 86400 },
		     { 'w', 7 * 86400 } };
	char *end;
	long n;
	size_t i;

	errno = 0;
	n = strtol(s, &end, 10);
	if (errno || end == s || n < 0 || n > 100L * 365 * 86400)
		return -1;
	if (!*end)
		return n;
	if (end[1] || !units || !strchr(units, *end))
		return -1;
	for (i = 0; i < ARRAY_SIZE(mult); i++)
		if (mult[i].unit == *end)
			return n * mult[i].secs;
	return -1;
}

static bool is_since(const char *s)
{
	char *end;
	long n;

	if (!strcmp(s, "all") || is_date(s))
		return true;
	errno = 0;
	n = strtol(s, &end, 10);
	return !errno && end != s && n > 0 && end[0] && !end[1] &&
	       strchr("dwmy", end[0]);
}

/* in_range - v of the spec's range (min == max == 0: any) */
static bool in_range(const struct config_spec *sp, double v)
{
	return (sp->min == 0 && sp->max == 0) || (v >= sp->min && v <= sp->max);
}

/* name_number - "NAME<sep>N" with NAME of allowed and N in range */
static bool name_number(const struct config_spec *sp, const char *s, char sep,
			bool whole)
{
	const char *at = strrchr(s, sep);
	char buf[64];
	double v;

	if (!at || !word_of(sp->allowed, s, (size_t)(at - s), buf, sizeof(buf)))
		return false;
	if (whole) {
		long n;

		return parse_long(at + 1, &n) && in_range(sp, (double)n);
	}
	return parse_double(at + 1, &v) && in_range(sp, v);
}

static bool weights_ok(const struct config_spec *sp, const char *s)
{
	char *copy = xstrdup(s), *save = NULL, *tok;
	bool ok = true;

	for (tok = strtok_r(copy, " \t,", &save); tok && ok;
	     tok = strtok_r(NULL, " \t,", &save))
		ok = name_number(sp, tok, ':', false);
	free(copy);
	return ok;
}

/*
 * value_problem - why v is not a value of sp ("" when it is), in buf;
 * canon gets the allowed word an enum value is
 */
static const char *value_problem(const struct config_spec *sp, const char *v,
				 char *buf, size_t size)
{
	char words[256], w[64];
	long n;
	double d;

	switch (sp->type) {
	case CONFIG_STRING:
	case CONFIG_PATH:
	case CONFIG_RECORD:
		return "";
	case CONFIG_INT:
		if (parse_long(v, &n) && in_range(sp, (double)n))
			return "";
		snprintf(buf, size,
			 "'%s' is not a whole number from %.0f to %.0f", v,
			 sp->min, sp->max);
		return buf;
	case CONFIG_NUMBER:
		if (parse_double(v, &d) && in_range(sp, d))
			return "";
		snprintf(buf, size, "'%s' is not a number from %g to %g", v,
			 sp->min, sp->max);
		return buf;
	case CONFIG_BOOL:
		if (word_of("yes|no|true|false|on|off|1|0", v, strlen(v), w,
			    sizeof(w)))
			return "";
		snprintf(buf, size, "'%s' is not yes or no", v);
		return buf;
	case CONFIG_DURATION:
		n = duration(v, sp->allowed);
		if (n >= 0 && in_range(sp, (double)n))
			return "";
		units_text(sp->allowed, words, sizeof(words));
		snprintf(buf, size,
			 "'%s' is not N seconds%s (%.0f to %.0f seconds)", v,
			 words, sp->min, sp->max);
		return buf;
	case CONFIG_ENUM:
		if (word_of(sp->allowed, v, strlen(v), w, sizeof(w)))
			return "";
		allowed_text(sp->allowed, words, sizeof(words));
		snprintf(buf, size, "'%s' is not %s", v, words);
		return buf;
	case CONFIG_ADDRESS:
		if (is_address(v) || (sp->allowed && !strcmp(v, sp->allowed)))
			return "";
		snprintf(buf, size, "'%s' is not a mail address", v);
		return buf;
	case CONFIG_WEIGHTS:
		if (weights_ok(sp, v))
			return "";
		allowed_text(sp->allowed, words, sizeof(words));
		snprintf(
			buf, size,
			"'%s' is not KIND:WEIGHT ... with KIND %s and WEIGHT from %g to %g",
			v, words, sp->min, sp->max);
		return buf;
	case CONFIG_SINCE:
		if (is_since(v))
			return "";
		snprintf(buf, size,
			 "'%s' is not Nd, Nw, Nm, Ny, YYYY-MM-DD or all", v);
		return buf;
	case CONFIG_URL_PATTERN:
		if (archive_off(v) || archive_pattern_ok(v))
			return "";
		snprintf(buf, size,
			 "'%s' is not an http(s) URL with one %%s and no other "
			 "%%, nor none",
			 v);
		return buf;
	case CONFIG_DATE:
		if (is_date(v))
			return "";
		snprintf(buf, size, "'%s' is not a day YYYY-MM-DD", v);
		return buf;
	case CONFIG_ASSIGN:
		if (name_number(sp, v, '=', true))
			return "";
		allowed_text(sp->allowed, words, sizeof(words));
		snprintf(buf, size, "'%s' is not NAME=N with NAME %s", v,
			 words);
		return buf;
	}
	return "";
}

static void problem(struct config *cfg, const struct config_record *r,
		    bool unknown, const char *msg)
{
	struct config_problem *p;

	ALLOC_GROW(cfg->problems, cfg->nproblems, cfg->problems_alloc);
	p = &cfg->problems[cfg->nproblems++];
	p->file = r->file;
	p->line = r->line;
	p->key = xstrdup(r->name);
	p->msg = xstrdup(msg);
	p->unknown = unknown;
	if (!unknown)
		cfg->nbad++;
}

static void check_unknown(struct config *cfg, const struct config_record *r)
{
	const char *names[256];
	const char *near;
	char msg[256];
	size_t i, n = 0;

	for (i = 0; i < config_nkeys && n < ARRAY_SIZE(names); i++)
		if (config_keys[i].record == !r->setting)
			names[n++] = config_keys[i].name;
	near = nearest(r->name, names, n);
	if (near)
		snprintf(msg, sizeof(msg), "unknown %s; did you mean %s?",
			 r->setting ? "setting" : "record", near);
	else
		snprintf(msg, sizeof(msg), "unknown %s",
			 r->setting ? "setting" : "record");
	problem(cfg, r, true, msg);
}

static void check_record(struct config *cfg, struct config_record *r,
			 const struct config_key *k)
{
	char buf[512];
	int i;

	if ((unsigned)r->argc < k->min_args ||
	    (unsigned)r->argc > k->max_args) {
		snprintf(buf, sizeof(buf), "takes %u to %u arguments, not %d",
			 k->min_args, k->max_args, r->argc);
		if (k->min_args == k->max_args)
			snprintf(buf, sizeof(buf), "takes %u arguments, not %d",
				 k->min_args, r->argc);
		problem(cfg, r, false, buf);
		r->bad = true;
		return;
	}
	for (i = 0; i < r->argc; i++) {
		const struct config_spec *sp =
			&k->args[(size_t)i < k->nargs ? (size_t)i
						      : k->nargs - 1];
		const char *why =
			value_problem(sp, r->argv[i], buf, sizeof(buf));

		if (*why) {
			problem(cfg, r, false, why);
			r->bad = true;
			return;
		}
	}
	if (k->check && *k->check(r, buf, sizeof(buf))) {
		problem(cfg, r, false, buf);
		r->bad = true;
	}
}

/* check - every directive against the table (see config.h) */
static void check(struct config *cfg)
{
	char buf[512];
	size_t i;

	for (i = 0; i < cfg->nrec; i++) {
		struct config_record *r = &cfg->rec[i];
		const struct config_key *k = config_key(r->name);
		const char *why;

		if (!k || k->record == r->setting) {
			check_unknown(cfg, r);
			continue;
		}
		if (k->record) {
			check_record(cfg, r, k);
			continue;
		}
		if (!*r->argv[0]) /* empty: not set */
			continue;
		why = value_problem(&k->v, r->argv[0], buf, sizeof(buf));
		if (*why) {
			problem(cfg, r, false, why);
			r->bad = true;
		}
	}
}

unsigned config_report(const struct config *cfg, unsigned flags)
{
	size_t i;

	for (i = 0; i < cfg->nproblems; i++) {
		const struct config_problem *p = &cfg->problems[i];

		if ((flags & CONFIG_ONE_LINE) && cfg->nproblems > 1) {
			warn("%s:%u: %s: %s (and %zu more problems: see 'triage check-config')",
			     p->file, p->line, p->key, p->msg,
			     cfg->nproblems - 1);
			break;
		}
		warn("%s:%u: %s: %s", p->file, p->line, p->key, p->msg);
	}
	return cfg->nbad;
}

/* ---- getters ----------------------------------------------------------- */

/* key_of - the table's entry of a setting of type t; a bug otherwise */
static const struct config_key *key_of(const char *name, int t)
{
	const struct config_key *k = config_key(name);

	if (!k || k->record)
		die("BUG: '%s' is not a setting of config_keys[]", name);
	if (t >= 0 && k->v.type != (enum config_type)t)
		die("BUG: setting '%s' is read as the wrong type", name);
	return k;
}

/* config_setting - the record of a setting's last good value, or NULL */
const struct config_record *config_setting(const struct config *cfg,
					   const char *name)
{
	size_t i;

	key_of(name, -1);
	if (!cfg)
		return NULL;
	for (i = cfg->nrec; i-- > 0;) {
		const struct config_record *r = &cfg->rec[i];

		if (r->setting && !r->bad && !strcmp(r->name, name))
			return *r->argv[0] ? r : NULL;
	}
	return NULL;
}

/* text - the value of a setting as text, else its default (NULL: none) */
static const char *text(const struct config *cfg, const struct config_key *k)
{
	const struct config_record *r = config_setting(cfg, k->name);

	return r ? r->argv[0] : k->def;
}

/* config_get - a setting's value as text, or its default (NULL: none) */
const char *config_get(const struct config *cfg, const char *name)
{
	const struct config_key *k = key_of(name, -1);

	if (!strcmp(name, "state_dir")) {
		const char *env = getenv("TRIAGE_STATE_DIR");

		if (env && *env)
			return env;
	}
	return text(cfg, k);
}

/* config_is - an enum setting's value is word (in any case) */
bool config_is(const struct config *cfg, const char *name, const char *word)
{
	const struct config_key *k = key_of(name, CONFIG_ENUM);
	const char *v = text(cfg, k);
	char buf[64];

	if (!word_of(k->v.allowed, word, strlen(word), buf, sizeof(buf)))
		die("BUG: '%s' is not a value of setting '%s'", word, name);
	return v && !strcasecmp(v, word);
}

long config_int(const struct config *cfg, const char *name)
{
	const char *v = text(cfg, key_of(name, CONFIG_INT));
	long n;

	return v && parse_long(v, &n) ? n : 0;
}

double config_number(const struct config *cfg, const char *name)
{
	const char *v = text(cfg, key_of(name, CONFIG_NUMBER));
	double d;

	return v && parse_double(v, &d) ? d : 0;
}

bool config_bool(const struct config *cfg, const char *name)
{
	const char *v = text(cfg, key_of(name, CONFIG_BOOL));

	return v && (!strcasecmp(v, "yes") || !strcasecmp(v, "true") ||
		     !strcasecmp(v, "on") || !strcmp(v, "1"));
}

long config_seconds(const struct config *cfg, const char *name)
{
	const struct config_key *k = key_of(name, CONFIG_DURATION);
	const char *v = text(cfg, k);
	long n = v ? duration(v, k->v.allowed) : -1;

	return n < 0 ? 0 : n;
}

/* config_state_path - a file in the state directory (caller frees) */
char *config_state_path(const struct config *cfg, const char *file)
{
	return xasprintf("%s/%s", config_get(cfg, "state_dir"), file);
}

/* config_state_refused - EX_CANTCREAT when root refuses the state dir */
int config_state_refused(const struct config *cfg)
{
	char *path = config_state_path(cfg, "triage.db");
	int refused = root_refuses_dir(path) || root_refuses_link(path);

	free(path);
	return refused ? EX_CANTCREAT : 0;
}
