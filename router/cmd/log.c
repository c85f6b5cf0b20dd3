// SPDX-License-Identifier: GPL-2.0-only
/*
 * triage log - every decision and action, in time order
 *
 * DESCRIPTION
 *	triage log [--since SPEC] [--report ID] [--kind KIND] [--json]
 *		   [--color[=WHEN]]
 *		   [--no-color] [--no-pager]
 *
 *	One line per event, oldest first (audit_log_list()): a report
 *	received (by its source, with its state now), a decision of the
 *	pipeline or of a triager's approve/reroute ("triage"), a delivery
 *	attempt ("deliver"), a triager's action (by login name):
 *
 *	  TIME REPORT KIND WHO WHAT ARGUMENT DETAIL
 *
 *	REPORT is "-" for mail of no report (a digest).  On a terminal the
 *	columns are aligned, coloured, cut to its width and paged;
 *	otherwise the fields are
 *	separated by tabs ("-" for an empty one).  SPEC is as for stats
 *	(Nh, Nd, Nw, YYYY-MM-DD, all; default all).  --json prints an
 *	array of objects.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "audit.h"
#include "cmd.h"
#include "config.h"
#include "desk.h"
#include "kind.h"
#include "strbuf.h"
#include "util.h"

#define WHO_COLS  8
#define WHAT_COLS 10
#define ARG_COLS  28

struct logw {
	const struct desk_term *t;
	int64_t report;	  /* 0: all */
	const char *kind; /* the messages of that kind only, or NULL */
	bool json;
	json_t *array;
	struct strbuf line, scratch;
	size_t used; /* columns of the line so far, on a terminal */
};

#define DETAIL_MIN 4 /* columns the detail keeps on a narrow terminal */

static void field(struct logw *w, const char *s, const char *sgr, size_t width,
		  bool last)
{
	size_t n;

	sb_reset(&w->scratch);
	if (s)
		desk_clean(&w->scratch, s, strlen(s), 0);
	if (!w->scratch.len)
		sb_addc(&w->scratch, '-');
	sb_adds(&w->line, desk_color(w->t, sgr));
	if (!w->t->tty) {
		sb_adds(&w->line, sb_str(&w->scratch));
		sb_adds(&w->line, desk_reset(w->t));
		if (!last)
			sb_addc(&w->line, '\t');
		return;
	}
	if (last) {
		/*
		 * Cut to the terminal, as pending does: a wrapped line
		 * breaks the columns of every line after it ('triage log
		 * | cat', or --json, has the whole detail).
		 */
		width = w->t->columns > w->used + DETAIL_MIN + 1
				? w->t->columns - w->used - 1
				: DETAIL_MIN;
		desk_fit(&w->line, sb_str(&w->scratch), width, false);
		sb_adds(&w->line, desk_reset(w->t));
		return;
	}
	w->used += width + 2;
	desk_fit(&w->line, sb_str(&w->scratch), width, false);
	sb_adds(&w->line, desk_reset(w->t));
	for (n = desk_width(sb_str(&w->scratch)); n < width; n++)
		sb_addc(&w->line, ' ');
	sb_adds(&w->line, "  ");
}

/*
 * arg_cols - the argument's columns: ARG_COLS, less on a narrow
 * terminal, where it shares what the fixed columns leave with the
 * detail
 */
static size_t arg_cols(const struct logw *w)
{
	size_t left = w->t->columns > w->used ? w->t->columns - w->used : 0;
	/* what the detail keeps, its two spaces and the free last column */
	size_t room = left > DETAIL_MIN + 3 ? left - DETAIL_MIN - 3 : 0;
	size_t n = left / 2 > 10 ? left / 2 : 10;

	if (!w->t->tty || left / 2 >= ARG_COLS)
		return ARG_COLS;
	/* at 80 columns the half would push the detail past the edge */
	if (n > room)
		n = room > 3 ? room : 3;
	return n;
}

static const char *what_color(const struct audit_log_entry *e)
{
	if (!strcmp(e->kind, "action"))
		return DESK_YELLOW;
	if (!strcmp(e->kind, "delivery"))
		return !strcmp(e->what, "sent") ? DESK_GREEN : DESK_RED;
	if (!strcmp(e->kind, "decision"))
		return DESK_CYAN;
	return "";
}

static int one(const struct audit_log_entry *e, void *arg)
{
	struct logw *w = arg;
	char ts[64], id[32];

	if (w->report && e->report != w->report)
		return 0;
	if (w->kind && (!e->msg_kind || strcmp(e->msg_kind, w->kind)))
		return 0;
	if (w->json) {
		json_t *o = json_object();

		json_object_set_new(o, "at", json_integer(e->at));
		json_object_set_new(o, "report",
				    e->report ? json_integer(e->report)
					      : json_null());
		json_object_set_new(o, "kind", cmd_json_str(e->kind));
		json_object_set_new(o, "who", cmd_json_str(e->who));
		json_object_set_new(o, "what", cmd_json_str(e->what));
		json_object_set_new(o, "argument", cmd_json_str(e->argument));
		json_object_set_new(o, "detail", cmd_json_str(e->detail));
		json_object_set_new(o, "message_kind",
				    cmd_json_str(e->msg_kind));
		json_array_append_new(w->array, o);
		return 0;
	}
	desk_format_time((time_t)e->at, ts, sizeof(ts));
	if (e->report)
		snprintf(id, sizeof(id), "%lld", (long long)e->report);
	else
		snprintf(id, sizeof(id), "-");
	sb_reset(&w->line);
	w->used = 0;
	field(w, ts, DESK_DIM, 25, false);
	if (w->t->tty && strlen(id) < 4) { /* right-align short ids */
		sb_addf(&w->line, "%*s", (int)(4 - strlen(id)), "");
		w->used += 4 - strlen(id);
	}
	field(w, id, DESK_YELLOW, strlen(id), false);
	field(w, e->kind, "", 8, false);
	field(w, e->who, "", WHO_COLS, false);
	field(w, e->what, what_color(e), WHAT_COLS, false);
	field(w, e->argument, "", arg_cols(w), false);
	field(w, e->detail, "", 0, true);
	printf("%s\n", sb_str(&w->line));
	return 0;
}

/* cmd_log - every event, oldest first */
int cmd_log(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const char *const usage[] = { "triage log [OPTIONS]", NULL };
	struct cmd_output view = CMD_OUTPUT_INIT;
	const char *spec = "all", *report = NULL, *kind = NULL;
	const struct opt opts[] = {
		OPT_STRING(
			0, "since", &spec, "SPEC",
			"from Nh, Nd, Nw ago, YYYY-MM-DD or all (the default)"),
		OPT_STRING(0, "report", &report, "ID", "only report ID"),
		OPT_STRING(
			0, "kind", &kind, "KIND",
			"only the messages of that kind (report, patch ...)"),
		OPT_CMD_OUTPUT(&view),
		OPT_END(),
	};
	struct desk_term term;
	struct logw w;
	struct audit *db;
	time_t now = desk_now(), since = 0;
	int ret;

	memset(&w, 0, sizeof(w));
	if (parse_options(argc, argv, opts, usage, 0))
		usage_with_options(usage, opts);
	if (kind && kind_from_name(kind) < 0) {
		error("--kind takes a kind of message (report, follow-up, patch, cover-letter, review, pull-request, stable, bot, bz-update, discussion, spam), not '%s'",
		      kind);
		return EX_USAGE;
	}
	if (kind)
		w.kind = kind_name((enum msg_kind)kind_from_name(kind));
	if (cmd_parse_since(spec, now, &since) < 0 ||
	    (report && cmd_parse_id(report, &w.report) < 0))
		return EX_USAGE;
	w.json = view.json;
	ret = desk_open(cmd_config(ctx), DESK_READ, &db);
	if (ret)
		return ret;
	sb_init(&w.line, 256 * 1024);
	sb_init(&w.scratch, 128 * 1024);
	if (w.json) {
		w.array = json_array();
		if (audit_log_list(db, since, one, &w) < 0) {
			ret = EX_IOERR;
			json_decref(w.array);
		} else {
			cmd_print_json(w.array);
		}
	} else {
		cmd_term_setup(&term, &view, true);
		w.t = &term;
		if (audit_log_list(db, since, one, &w) < 0)
			ret = EX_IOERR;
		desk_term_finish(&term);
	}
	sb_release(&w.line);
	sb_release(&w.scratch);
	audit_close(db);
	return ret;
}
