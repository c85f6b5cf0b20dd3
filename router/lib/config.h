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
 *	Each directive is checked against config_keys[] (config_table.c):
 *	an unknown name, or a value that is not of its type or range, is a
 *	problem with file, line and name.  Parsing prints none of them;
 *	config_report() does.  Every program warns about them (the filter
 *	in one line) and goes on with the default of a bad value, so that
 *	a typo never stops the mail; 'triage check-config' lists them all
 *	and exits EX_CONFIG.  A getter returns the last good value of a
 *	setting, else its default.
 *
 * Ownership:
 *	struct config owns its records; config_free() releases them.
 *	String getters return memory of the configuration (or of the
 *	table), valid until config_free().
 *
 * Errors:
 *	config_load() returns NULL after printing file:line: reason when
 *	the file cannot be read or split into directives (a quote left
 *	open, too many words).
 */
#ifndef TRIAGE_CONFIG_H
#define TRIAGE_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#define CONFIG_MAX_ARGS 32

/*
 * The directives a file may hold: config_keys[] (config_table.c), one
 * entry per setting or record with its type, its default and the
 * modules that read it.  Every value is checked when the file is
 * parsed (config_parse()); a getter asks by name for a directive of the
 * table (a name that is not there is a bug: die()) and gets the last
 * good value, else the table's default.
 */
struct config_record;

enum config_type {
	CONFIG_STRING,	 /* any text */
	CONFIG_PATH,	 /* a file or directory */
	CONFIG_INT,	 /* a whole number from min to max */
	CONFIG_NUMBER,	 /* a decimal number from min to max */
	CONFIG_BOOL,	 /* yes or no (true/false, on/off, 1/0) */
	CONFIG_DURATION, /* seconds, or N with a unit of allowed ("dh") */
	CONFIG_ENUM,	 /* one word of allowed ("smtp|sendmail"), any case */
	CONFIG_ADDRESS,	 /* a mail address (or allowed, such as "*") */
	CONFIG_WEIGHTS,	 /* NAME:N ..., NAME of allowed, N from min to max */
	CONFIG_SINCE,	 /* Nd, Nw, Nm, Ny, YYYY-MM-DD or all */
	CONFIG_DATE,	 /* YYYY-MM-DD */
	CONFIG_URL_PATTERN, /* http(s) URL with one %s, or none (archive.h) */
	CONFIG_ASSIGN,	    /* NAME=N, NAME of allowed, N from min to max */
	CONFIG_RECORD,	    /* "name args...", which may repeat */
};

struct config_spec {
	enum config_type type;
	const char *allowed;
	double min, max;
};

struct config_key {
	const char *name;
	struct config_spec v; /* a setting's value */
	const char *def;      /* its default, as text; NULL: none */
	const char *readers;  /* the modules that read it */
	bool record;
	unsigned min_args, max_args;	/* a record's */
	const struct config_spec *args; /* each argument's; the last repeats */
	size_t nargs;
	/*
	 * a record's rule across its arguments (which of them go
	 * together), once each argument passed: "" or why not, in buf
	 */
	const char *(*check)(const struct config_record *r, char *buf,
			     size_t size);
};

extern const struct config_key config_keys[];
extern const size_t config_nkeys;

struct config_record {
	char *name;
	char **argv; /* for settings: one element, the value */
	int argc;
	bool setting;
	bool bad; /* its value or arguments failed the check: not used */
	const char *file;
	unsigned line;
};

/* a directive that failed the check: unknown, or a bad value */
struct config_problem {
	const char *file;
	unsigned line;
	char *key;
	char *msg;
	bool unknown;
};

struct config {
	char *path; /* "(built-in)" for the embedded default */
	struct config_record *rec;
	size_t nrec, alloc;
	struct config_problem *problems;
	size_t nproblems, problems_alloc;
	unsigned nbad; /* problems that are bad values (not unknown names) */
};

extern const char config_default_text[];

struct config *config_load(const char *path);
struct config *config_parse(const char *text, const char *name);
void config_free(struct config *cfg);

/*
 * config_report - print the problems as warnings, "FILE:LINE: KEY:
 * why"; CONFIG_ONE_LINE: only the first, with how many more (the
 * filter's one line).  Returns the number of bad values (unknown names
 * not counted).
 */
#define CONFIG_ONE_LINE 1u

unsigned config_report(const struct config *cfg, unsigned flags);

const struct config_key *config_key(const char *name);
/* config_word_in - s is one of the words of allowed ("a|b|c"), any case */
bool config_word_in(const char *allowed, const char *s);
const char *config_path_default(void);

/* getters: cfg may be NULL (the defaults); the type must match */
const char *config_get(const struct config *cfg, const char *name);
bool config_is(const struct config *cfg, const char *name, const char *word);
long config_int(const struct config *cfg, const char *name);
double config_number(const struct config *cfg, const char *name);
bool config_bool(const struct config *cfg, const char *name);
long config_seconds(const struct config *cfg, const char *name);
const struct config_record *config_setting(const struct config *cfg,
					   const char *name);
char *config_state_path(const struct config *cfg, const char *file);
/*
 * config_state_refused - run as root, cfg's state directory is one root
 * will not use (root_refuses_dir(): a symbolic link someone else made,
 * or someone else's directory that others can write), said on stderr:
 * EX_CANTCREAT, the one exit status every triage command has for it
 * (the filter, which exits only 0 or 75, defers instead); else 0
 */
int config_state_refused(const struct config *cfg);

#endif
