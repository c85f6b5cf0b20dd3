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
 *	What commands share (cmd_config(), cmd_open_map()) is cmd.c.
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

#include <stdbool.h>

struct config;
struct map;

struct cmd_ctx {
	const char *config_path; /* -c FILE, or NULL for the default */
	struct config *cfg;	 /* loaded on demand by cmd_config() */
};

struct config *cmd_config(struct cmd_ctx *ctx);
struct map *cmd_open_map(struct cmd_ctx *ctx, const char *maintainers,
			 const char *tree, const char *index);

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
int cmd_undup(int argc, char **argv, struct cmd_ctx *ctx) CMD_WEAK;
int cmd_stats(int argc, char **argv, struct cmd_ctx *ctx) CMD_WEAK;
int cmd_log(int argc, char **argv, struct cmd_ctx *ctx) CMD_WEAK;
int cmd_digest(int argc, char **argv, struct cmd_ctx *ctx) CMD_WEAK;
int cmd_train(int argc, char **argv, struct cmd_ctx *ctx) CMD_WEAK;
int cmd_eval(int argc, char **argv, struct cmd_ctx *ctx) CMD_WEAK;
int cmd_serve(int argc, char **argv, struct cmd_ctx *ctx) CMD_WEAK;
int cmd_deliver(int argc, char **argv, struct cmd_ctx *ctx) CMD_WEAK;
int cmd_bugzilla(int argc, char **argv, struct cmd_ctx *ctx) CMD_WEAK;

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
void deliverd_close(struct deliverd *d);

#endif
