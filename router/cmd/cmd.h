/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cmd - the triage command table (git's builtin.h)
 *
 * DESCRIPTION
 *	Every subcommand FOO of triage(1) is int cmd_FOO(argc, argv, ctx)
 *	in router/cmd/FOO.c with one line in the table in router/bin/triage.c.
 *	argv[0] is the subcommand name.  Commands return an exit status
 *	from <sysexits.h> (0, EX_USAGE, EX_NOINPUT, EX_DATAERR,
 *	EX_TEMPFAIL, EX_CONFIG ...).
 *
 *	Only commands run stages in order; no stage calls a later one.
 *	What commands share is cmd.c: the configuration (cmd_config()),
 *	the map (cmd_open_map()), the options of the listing commands
 *	(OPT_CMD_OUTPUT()), JSON output (cmd_print_json()), arguments or
 *	standard input line by line (cmd_each_arg()) and the bulk actions
 *	on reports (cmd_bulk()).  Every command parses its options with
 *	parse_options() (options.h) from one table, which also gives its
 *	usage and --help (and so 'triage help COMMAND').
 *
 *	Commands live in three programs built from the same table, so that
 *	a command pays only for the libraries it uses (git keeps libcurl
 *	in git-remote-http for the same reason): triage itself (pcre2,
 *	sqlite, jansson), triage-mime (adds gmime: commands that parse
 *	mail) and triage-net (adds libcurl and libmicrohttpd).  Starting a
 *	program linked with gmime costs several times what starting triage
 *	does, and one linked with libcurl more again ('make bench'); 'triage
 *	map' in a loop must stay near the cost of a process start.  A
 *	command that is not
 *	linked into the running program is a weak symbol (NULL) and is
 *	run by exec'ing the program that has it.
 */
#ifndef TRIAGE_CMD_H
#define TRIAGE_CMD_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "desk.h"
#include "options.h"

struct audit;
struct audit_action;
struct audit_decision;
struct audit_record;
struct config;
struct map;

struct cmd_ctx {
	const char *config_path; /* -c FILE, or NULL for the default */
	struct config *cfg;	 /* loaded on demand by cmd_config() */
};

struct config *cmd_config(struct cmd_ctx *ctx);
/*
 * cmd_state_dir - before a command that uses the state directory (the
 * dispatcher calls it): run as root, EX_CANTCREAT when root refuses the
 * directory (config_state_refused() says why), else 0; not root, 0 at
 * once, without loading the configuration
 */
int cmd_state_dir(struct cmd_ctx *ctx);
struct map *cmd_open_map(struct cmd_ctx *ctx, const char *maintainers,
			 const char *tree, const char *index);

/*
 * The output options of the listing commands, declared once:
 * --json, --color[=WHEN], --no-color and --no-pager.
 */
struct cmd_output {
	int color; /* enum desk_color_when */
	bool pager;
	bool json;
};

#define CMD_OUTPUT_INIT                      \
	{                                    \
		DESK_COLOR_AUTO, true, false \
	}
#define OPT_CMD_JSON(o) \
	OPT_BOOL(0, "json", &(o)->json, "print JSON instead of text")
#define OPT_CMD_COLOR(o)                                                  \
	OPT_CALLBACK(0, "color", &(o)->color, "WHEN",                     \
		     "colour: always, never or auto (on a terminal)",     \
		     OPT_ARG_OPTIONAL, cmd_color_option),                 \
		OPT_SET_INT(0, "no-color", &(o)->color, DESK_COLOR_NEVER, \
			    "no colour")
#define OPT_CMD_PAGER(o)                        \
	OPT_NEGBOOL(0, "no-pager", &(o)->pager, \
		    "do not page the output on a terminal")
#define OPT_CMD_OUTPUT(o) OPT_CMD_JSON(o), OPT_CMD_COLOR(o), OPT_CMD_PAGER(o)

/* train and eval: the folds of the cross-validation and their seed */
#define OPT_CMD_FOLDS(k, seed)                                            \
	OPT_ULONG(0, "folds", k, "K",                                     \
		  "folds grouped by author and thread (5)", 2, 100),      \
		OPT_ULONG(0, "seed", seed, "N", "the folds' seed (1)", 0, \
			  ULONG_MAX)

/*
 * cmd_find_section - a MAINTAINERS section as a triager names it: its
 * title in any case, else a part of one title ("bluetooth"); -1 after
 * listing the titles it is part of, or the title nearest it
 */
int cmd_find_section(const struct map *map, const char *name);

int cmd_color_option(const struct opt *o, const char *arg);
void cmd_term_setup(struct desk_term *t, const struct cmd_output *o,
		    bool pager);

/* arguments: -1 after saying what is wrong (desk_parse_since/_id()) */
int cmd_parse_since(const char *spec, time_t now, time_t *since);
int cmd_parse_id(const char *s, int64_t *id);

/*
 * cmd_open_db - STATE_DIR/triage.db for a worker (deliver, serve, poll),
 * created when absent; -1 after saying so
 */
int cmd_open_db(const struct config *cfg, struct audit **db);

/*
 * JSON (jansson): text of a message, invalid UTF-8 cleaned rather than
 * dropped (NULL: null), an array of such strings, the evidence of a
 * report (NULL: null); cmd_print_json() prints a value and frees it.
 */
struct evidence;
struct json_t;

struct json_t *cmd_json_text(const char *s, size_t len);
struct json_t *cmd_json_str(const char *s);
struct json_t *cmd_json_strings(char *const *v, size_t n);
struct json_t *cmd_evidence_json(const struct evidence *ev);
void cmd_print_json(struct json_t *json);

/*
 * cmd_each_arg - fn(arg, word) for each of argv[0..argc), or, with
 * none, for each line of standard input (CR/LF removed, empty lines
 * skipped; a line longer than max is skipped with a warning naming
 * what it should have been).  word may be changed in place.
 */
void cmd_each_arg(int argc, char **argv, const char *what, size_t max,
		  void (*fn)(void *arg, char *word), void *arg);

/*
 * Bulk actions on reports (approve, reject, reclassify, reroute):
 * cmd_bulk() reads every ID first, the login, opens the database for
 * writing, then for each ID in its own transaction fetches the report
 * (flags: audit_get_report()'s) and calls one(b, record).  one()
 * returns CMD_BULK_DONE when it committed (audit_commit(b->db)),
 * CMD_BULK_SAME (nothing to change: counted done) or CMD_BULK_REFUSED
 * to roll back, -1 on a database failure (the IDs after it are not
 * touched).  Mail queued (b->queued)
 * is sent at once with the sendmail transport.  Returns the exit
 * status (desk_status_exit()).  struct cmd_bulk comes first in the
 * command's own state, which one() reaches by a cast.
 */
enum { CMD_BULK_DONE, CMD_BULK_SAME, CMD_BULK_REFUSED };

struct cmd_bulk {
	const char *verb; /* "approve": the action recorded, messages */
	const char *past; /* "approved" */
	unsigned flags;
	int (*one)(struct cmd_bulk *b, const struct audit_record *r);
	struct config *cfg;
	struct audit *db;
	char who[DESK_LOGIN_MAX + 1];
	time_t now;
	unsigned queued;
	struct desk_status st;
};

int cmd_bulk(struct cmd_ctx *ctx, struct cmd_bulk *b, char **ids, int n);
/* cmd_bulk_action - record the action verb on report r */
int cmd_bulk_action(struct cmd_bulk *b, const struct audit_record *r,
		    const char *argument, const char *detail);
/*
 * cmd_leave_digest - after one() moved r out of state digest (in its
 * transaction): r is taken out of the queued digest that lists it
 * (digest_withdraw()), with a line saying so; 0 or -1
 */
int cmd_leave_digest(struct cmd_bulk *b, const struct audit_record *r);
/*
 * cmd_bulk_run - one() by an action of actions.h (the code the reply
 * commands run too): act(a, r, arg) with b's database, login and time;
 * commits when it is done, prints what it did (or why not, as an
 * error) and returns the CMD_BULK_ status; -1 on a database failure
 */
struct action_ctx;
int cmd_bulk_run(struct cmd_bulk *b, const struct audit_record *r,
		 int (*act)(struct action_ctx *a, const struct audit_record *r,
			    const char *arg),
		 const char *arg);
/* cmd_recipient - the latest decision of r with a recipient, or NULL */
const struct audit_decision *cmd_recipient(const struct audit_record *r);

enum cmd_part {
	PART_CORE, /* triage */
	PART_MIME, /* triage-mime: links gmime */
	PART_NET,  /* triage-net: links libcurl and libmicrohttpd */
};

#define CMD_WEAK __attribute__((weak))

int cmd_map(int argc, char **argv, struct cmd_ctx *ctx) CMD_WEAK;
int cmd_explain(int argc, char **argv, struct cmd_ctx *ctx) CMD_WEAK;
int cmd_update(int argc, char **argv, struct cmd_ctx *ctx) CMD_WEAK;
int cmd_experts(int argc, char **argv, struct cmd_ctx *ctx) CMD_WEAK;
int cmd_symbols(int argc, char **argv, struct cmd_ctx *ctx) CMD_WEAK;
int cmd_check_rules(int argc, char **argv, struct cmd_ctx *ctx) CMD_WEAK;
int cmd_pending(int argc, char **argv, struct cmd_ctx *ctx) CMD_WEAK;
int cmd_show(int argc, char **argv, struct cmd_ctx *ctx) CMD_WEAK;
int cmd_approve(int argc, char **argv, struct cmd_ctx *ctx) CMD_WEAK;
int cmd_reroute(int argc, char **argv, struct cmd_ctx *ctx) CMD_WEAK;
int cmd_reclassify(int argc, char **argv, struct cmd_ctx *ctx) CMD_WEAK;
int cmd_reject(int argc, char **argv, struct cmd_ctx *ctx) CMD_WEAK;
int cmd_note(int argc, char **argv, struct cmd_ctx *ctx) CMD_WEAK;
int cmd_dup(int argc, char **argv, struct cmd_ctx *ctx) CMD_WEAK;
int cmd_fixes(int argc, char **argv, struct cmd_ctx *ctx) CMD_WEAK;
int cmd_remind(int argc, char **argv, struct cmd_ctx *ctx) CMD_WEAK;
int cmd_undup(int argc, char **argv, struct cmd_ctx *ctx) CMD_WEAK;
int cmd_stats(int argc, char **argv, struct cmd_ctx *ctx) CMD_WEAK;
int cmd_log(int argc, char **argv, struct cmd_ctx *ctx) CMD_WEAK;
int cmd_digest(int argc, char **argv, struct cmd_ctx *ctx) CMD_WEAK;
int cmd_train(int argc, char **argv, struct cmd_ctx *ctx) CMD_WEAK;
int cmd_eval(int argc, char **argv, struct cmd_ctx *ctx) CMD_WEAK;
int cmd_serve(int argc, char **argv, struct cmd_ctx *ctx) CMD_WEAK;
int cmd_deliver(int argc, char **argv, struct cmd_ctx *ctx) CMD_WEAK;
int cmd_bugzilla(int argc, char **argv, struct cmd_ctx *ctx) CMD_WEAK;
int cmd_check_config(int argc, char **argv, struct cmd_ctx *ctx) CMD_WEAK;

/*
 * Shared by the triage-net commands (serve runs both workers).
 *
 * ingest (router/cmd/bugzilla.c): Bugzilla events stored in the
 * database (webhooks, polls) become reports.  ingest_next() claims one
 * due event, re-fetches its bug and first comment over REST, runs the
 * pipeline and records the decision, the bug and the event in one
 * transaction; a bug already recorded gives no second report.  It
 * returns 1 when it handled an event, 0 when none is due, -1 on a
 * database error; *queued tells that mail was queued.
 *
 * deliverd (router/cmd/deliver.c): the outbox worker.  deliverd_run()
 * sends up to max due rows over the configured transport (SMTP or
 * sendmail; Bugzilla write-back jobs over REST) and returns the rows
 * handled or -1.
 */
struct audit;
struct outbox_stats;
struct ingest;
struct deliverd;

struct ingest *ingest_open(struct config *cfg, struct audit *db,
			   const char *url);
int ingest_next(struct ingest *in, bool *queued);
void ingest_close(struct ingest *in);

struct deliverd *deliverd_open(struct config *cfg, struct audit *db);
int deliverd_run(struct deliverd *d, unsigned max, struct outbox_stats *st);
unsigned deliverd_interval(const struct deliverd *d);
/* deliverd_daemon - a long-running worker: remind = yes runs daily */
void deliverd_daemon(struct deliverd *d);
void deliverd_close(struct deliverd *d);

#endif
