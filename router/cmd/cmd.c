// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd - what the commands share (see cmd.h); in the command layer, not
 * in the program, so that no command calls up into router/bin/
 */
#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

#include "actions.h"
#include "audit.h"
#include "cmd.h"
#include "config.h"
#include "digest.h"
#include "evidence.h"
#include "map.h"
#include "strbuf.h"
#include "util.h"

/*
 * cmd_config - the configuration, loaded once.  An unknown name is a
 * warning (with the name meant, when near one); a bad value is fatal,
 * EX_CONFIG: a command run with a default the admin did not choose (a
 * cap, a timeout, a transport) does something else than asked, and the
 * desk, deliver and serve run by hand or by a timer are where the admin
 * sees it first.  Only the filter, which must not lose mail over a typo,
 * goes on with the default (triage-filter(8)).
 */
struct config *cmd_config(struct cmd_ctx *ctx)
{
	if (!ctx->cfg) {
		ctx->cfg = config_load(ctx->config_path);
		if (!ctx->cfg)
			exit(EX_CONFIG);
		if (config_report(ctx->cfg, 0)) {
			error("%s: %u bad value%s: fix %s ('triage check-config' lists every problem)",
			      ctx->cfg->path, ctx->cfg->nbad,
			      ctx->cfg->nbad == 1 ? "" : "s",
			      ctx->cfg->nbad == 1 ? "it" : "them");
			exit(EX_CONFIG);
		}
	}
	return ctx->cfg;
}

/* cmd_state_dir - EX_CANTCREAT when root refuses the state directory */
int cmd_state_dir(struct cmd_ctx *ctx)
{
	if (geteuid() != 0)
		return 0;
	return config_state_refused(cmd_config(ctx));
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
	maintainers = config_get(cfg, "maintainers");
	if (!maintainers) {
		error("no MAINTAINERS: give --maintainers FILE, set 'maintainers' in %s, or run 'triage update'",
		      cfg->path);
		return NULL;
	}
	return map_load_text(maintainers,
			     tree ? tree : config_get(cfg, "tree"));
}

/* cmd_find_section - a section named as a triager would (see cmd.h) */
int cmd_find_section(const struct map *map, const char *name)
{
	struct strbuf err = STRBUF_INIT(4096);
	const char *nl;
	int sec = action_find_section(map, name, &err);

	if (sec < 0) {
		/* the first line is the error, then the titles it names */
		nl = strchr(sb_str(&err), '\n');
		error("%.*s", nl ? (int)(nl - err.buf) : (int)err.len,
		      sb_str(&err));
		if (nl)
			fputs(nl + 1, stderr);
	}
	sb_release(&err);
	return sec;
}

/* cmd_color_option - --color[=WHEN] (OPT_CMD_COLOR) */
int cmd_color_option(const struct opt *o, const char *arg)
{
	enum desk_color_when when;

	if (desk_color_option(arg, &when) < 0)
		return -1;
	*(int *)o->value = (int)when;
	return 0;
}

/* cmd_term_setup - the terminal for o; pager: this command pages */
void cmd_term_setup(struct desk_term *t, const struct cmd_output *o, bool pager)
{
	desk_term_setup(t, (enum desk_color_when)o->color, pager && o->pager);
}

int cmd_open_db(const struct config *cfg, struct audit **db)
{
	char *path = config_state_path(cfg, "triage.db");
	bool temporary = false;
	int rc = audit_open(path, AUDIT_CREATE,
			    (int)config_int(cfg, "db_busy_timeout"), db,
			    &temporary);

	if (rc < 0)
		error("cannot open the database '%s'", path);
	free(path);
	return rc;
}

int cmd_parse_since(const char *spec, time_t now, time_t *since)
{
	if (desk_parse_since(spec, now, since) < 0)
		return error(
			"--since takes Nh, Nd, Nw, YYYY-MM-DD or all, not '%s'",
			spec);
	return 0;
}

int cmd_parse_id(const char *s, int64_t *id)
{
	if (desk_parse_id(s, id) < 0)
		return error("'%s' is not a report id", s);
	return 0;
}

/* ---- JSON -------------------------------------------------------------- */

/* cmd_json_text - a string from the message: invalid UTF-8 cleaned, not dropped */
json_t *cmd_json_text(const char *s, size_t len)
{
	struct strbuf sb = STRBUF_INIT(len * 3 + 16);
	json_t *j;

	if (!s)
		return json_null();
	if (utf8_valid(s, len))
		return json_stringn(s, len);
	desk_clean(&sb, s, len, DESK_MULTILINE);
	j = json_stringn(sb.buf ? sb.buf : "", sb.len);
	sb_release(&sb);
	return j;
}

json_t *cmd_json_str(const char *s)
{
	return s ? cmd_json_text(s, strlen(s)) : json_null();
}

json_t *cmd_json_strings(char *const *v, size_t n)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, cmd_json_str(v[i]));
	return a;
}

json_t *cmd_evidence_json(const struct evidence *ev)
{
	json_t *o, *frames = json_array(), *repro = json_array();
	size_t i;

	if (!ev)
		return json_null();
	for (i = 0; i < ev->nframes; i++) {
		const struct frame *f = &ev->frames[i];
		json_t *fo = json_object();

		json_object_set_new(fo, "function", cmd_json_str(f->function));
		json_object_set_new(fo, "file", cmd_json_str(f->file));
		json_object_set_new(fo, "line", json_integer(f->line));
		json_object_set_new(fo, "module", cmd_json_str(f->module));
		json_object_set_new(fo, "inlined", json_boolean(f->inlined));
		json_object_set_new(fo, "unreliable",
				    json_boolean(f->unreliable));
		json_object_set_new(fo, "from_index",
				    json_boolean(f->from_index));
		json_array_append_new(frames, fo);
	}
	if (ev->reproducer & REPRO_C)
		json_array_append_new(repro, json_string("c"));
	if (ev->reproducer & REPRO_SYZ)
		json_array_append_new(repro, json_string("syz"));
	if (ev->reproducer & REPRO_STEPS)
		json_array_append_new(repro, json_string("steps"));
	o = json_object();
	json_object_set_new(o, "title", cmd_json_str(ev->title));
	json_object_set_new(o, "crash_type", cmd_json_str(ev->crash_type));
	json_object_set_new(o, "guilty_file", cmd_json_str(ev->guilty_file));
	json_object_set_new(o, "frames", frames);
	json_object_set_new(o, "files",
			    cmd_json_strings(ev->files, ev->nfiles));
	json_object_set_new(o, "functions",
			    cmd_json_strings(ev->functions, ev->nfunctions));
	json_object_set_new(o, "kernel_version",
			    cmd_json_str(ev->kernel_version));
	json_object_set_new(o, "distro_kernel",
			    cmd_json_str(ev->distro_kernel));
	json_object_set_new(o, "tainted", cmd_json_str(ev->tainted));
	json_object_set_new(o, "hardware", cmd_json_str(ev->hardware));
	json_object_set_new(o, "hw_virtual", json_boolean(ev->hw_virtual));
	json_object_set_new(o, "reproducer", repro);
	json_object_set_new(o, "bisect_commit",
			    cmd_json_str(ev->bisect_commit));
	json_object_set_new(
		o, "reported_by",
		cmd_json_strings(ev->reported_by, ev->nreported_by));
	json_object_set_new(o, "subject_prefix",
			    cmd_json_str(ev->subject_prefix));
	json_object_set_new(o, "syzbot", json_boolean(ev->syzbot));
	return o;
}

void cmd_print_json(json_t *json)
{
	json_dumpf(json, stdout, JSON_INDENT(2) | JSON_ENSURE_ASCII);
	putchar('\n');
	json_decref(json);
}

void cmd_each_arg(int argc, char **argv, const char *what, size_t max,
		  void (*fn)(void *arg, char *word), void *arg)
{
	char *line = xmalloc(max + 2);
	int i;

	for (i = 0; i < argc; i++)
		fn(arg, argv[i]);
	while (!argc && fgets(line, (int)max + 2, stdin)) {
		size_t n = strlen(line);

		if (n && line[n - 1] != '\n' && !feof(stdin)) {
			int ch;

			warn("%s longer than %zu bytes skipped", what, max);
			while ((ch = getchar()) != EOF && ch != '\n')
				;
			continue;
		}
		while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		if (n)
			fn(arg, line);
	}
	free(line);
}

/* ---- bulk actions -------------------------------------------------------- */

const struct audit_decision *cmd_recipient(const struct audit_record *r)
{
	size_t i;

	for (i = r->ndecisions; i-- > 0;)
		if (r->decisions[i].recipient && *r->decisions[i].recipient)
			return &r->decisions[i];
	return NULL;
}

int cmd_bulk_action(struct cmd_bulk *b, const struct audit_record *r,
		    const char *argument, const char *detail)
{
	struct audit_action act;

	memset(&act, 0, sizeof(act));
	act.report = r->id;
	act.at = b->now;
	act.who = b->who;
	act.action = b->verb;
	act.argument = argument;
	act.detail = detail;
	return audit_record_action(b->db, &act, NULL);
}

/* action_of - the action context of a bulk command's run */
static void action_of(struct action_ctx *a, const struct cmd_bulk *b,
		      struct strbuf *out, struct strbuf *err)
{
	memset(a, 0, sizeof(*a));
	a->db = b->db;
	a->cfg = b->cfg;
	a->who = b->who;
	a->verb = b->verb;
	a->now = b->now;
	a->out = out;
	a->err = err;
}

/* cmd_leave_digest - r leaves state digest: out of a queued digest too */
int cmd_leave_digest(struct cmd_bulk *b, const struct audit_record *r)
{
	struct strbuf out = STRBUF_INIT(4096);
	struct action_ctx a;
	int rc;

	action_of(&a, b, &out, NULL);
	rc = action_leave_digest(&a, r);
	fputs(sb_str(&out), stdout);
	sb_release(&out);
	return rc;
}

int cmd_bulk_run(struct cmd_bulk *b, const struct audit_record *r,
		 int (*act)(struct action_ctx *a, const struct audit_record *r,
			    const char *arg),
		 const char *arg)
{
	struct strbuf out = STRBUF_INIT(1u << 16), err = STRBUF_INIT(4096);
	struct action_ctx a;
	int rc, ret = -1;

	action_of(&a, b, &out, &err);
	rc = act(&a, r, arg);
	if (rc == ACTION_DONE && audit_commit(b->db) == 0) {
		b->queued += a.queued;
		fputs(sb_str(&out), stdout);
		ret = CMD_BULK_DONE;
	} else if (rc == ACTION_SAME) {
		fputs(sb_str(&out), stdout);
		ret = CMD_BULK_SAME;
	} else if (rc == ACTION_REFUSED || rc == ACTION_UNKNOWN) {
		error("%s", sb_str(&err));
		ret = CMD_BULK_REFUSED;
	}
	sb_release(&out);
	sb_release(&err);
	return ret;
}

/* bulk_one - one ID in its own transaction (desk_each()) */
static int bulk_one(void *arg, int64_t id)
{
	struct cmd_bulk *b = arg;
	struct audit_record r;
	int rc;

	if (audit_begin(b->db) < 0)
		return -1;
	rc = audit_get_report(b->db, id, b->flags, &r);
	if (rc <= 0) {
		audit_rollback(b->db);
		if (rc < 0)
			return -1;
		error("%s %lld: no such report", b->verb, (long long)id);
		b->st.unknown++;
		return 1;
	}
	rc = b->one(b, &r);
	if (rc != CMD_BULK_DONE) /* DONE: one() committed */
		audit_rollback(b->db);
	if (rc == CMD_BULK_DONE || rc == CMD_BULK_SAME)
		b->st.done++;
	else if (rc == CMD_BULK_REFUSED)
		b->st.refused++;
	audit_record_release(&r);
	return rc < 0 ? -1 : 0;
}

int cmd_bulk(struct cmd_ctx *ctx, struct cmd_bulk *b, char **ids, int n)
{
	int64_t *id;
	int ret;

	if (desk_parse_ids(ids, n, &id))
		return EX_USAGE;
	b->cfg = cmd_config(ctx);
	b->now = desk_now();
	if (desk_who(b->who, sizeof(b->who)) < 0) {
		free(id);
		return EX_CONFIG;
	}
	ret = desk_open(b->cfg, DESK_WRITE, &b->db);
	if (ret) {
		free(id);
		return ret;
	}
	ret = desk_each(b->db, id, n, b->past, bulk_one, b);
	desk_drain(b->cfg, b->db, b->queued, stdout);
	if (!ret)
		ret = desk_status_exit(&b->st);
	audit_close(b->db);
	free(id);
	return ret;
}
