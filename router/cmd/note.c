// SPDX-License-Identifier: GPL-2.0-only
/*
 * triage note - add a note to a report
 *
 * DESCRIPTION
 *	triage note ID TEXT...
 *
 *	Records TEXT (the remaining arguments joined by spaces: UTF-8, at
 *	most DESK_TEXT_MAX bytes) as a note on the report, with the login
 *	name and the time; 'triage show' lists notes with the actions.
 *	The report's state does not change.  Exit status: 0, EX_NOINPUT
 *	when there is no such report, EX_TEMPFAIL when the database
 *	stayed busy.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "actions.h"
#include "audit.h"
#include "cmd.h"
#include "config.h"
#include "desk.h"
#include "strbuf.h"
#include "util.h"

/* cmd_note - add a note to a report */
int cmd_note(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const char *const usage[] = { "triage note ID TEXT...", NULL };
	static const struct opt opts[] = { OPT_END() };
	struct strbuf text = STRBUF_INIT(DESK_TEXT_MAX);
	struct strbuf out = STRBUF_INIT(4096);
	struct audit_record r;
	struct action_ctx a;
	struct audit *db;
	char who[DESK_LOGIN_MAX + 1];
	int64_t id;
	int i, got, ret;

	/* the text may start with '-': options only before the ID */
	argc = parse_options(argc, argv, opts, usage, OPTIONS_STOP_AT_ARG);
	if (argc < 2)
		usage_with_options(usage, opts);
	if (desk_parse_id(argv[0], &id) < 0) {
		error("'%s' is not a report id", argv[0]);
		return EX_USAGE;
	}
	for (i = 1; i < argc; i++)
		if ((i > 1 && sb_addc(&text, ' ') < 0) ||
		    sb_adds(&text, argv[i]) < 0)
			break;
	if (i < argc || !text.len || !utf8_valid(text.buf, text.len)) {
		error("a note is UTF-8 text of 1 to %d bytes", DESK_TEXT_MAX);
		sb_release(&text);
		return EX_USAGE;
	}
	if (desk_who(who, sizeof(who)) < 0) {
		sb_release(&text);
		return EX_CONFIG;
	}
	ret = desk_open(cmd_config(ctx), DESK_WRITE, &db);
	if (ret) {
		sb_release(&text);
		return ret;
	}
	if (audit_begin(db) < 0)
		goto fail;
	got = audit_get_report(db, id, 0, &r);
	if (got <= 0) {
		audit_rollback(db);
		if (got < 0)
			goto fail;
		error("note %lld: no such report", (long long)id);
		ret = EX_NOINPUT;
		goto out;
	}
	memset(&a, 0, sizeof(a));
	a.db = db;
	a.who = who;
	a.verb = "note";
	a.now = desk_now();
	a.out = &out;
	/* actions.h: what "#triage note" in a reply runs too */
	got = action_note(&a, &r, text.buf);
	audit_record_release(&r);
	if (got < 0 || audit_commit(db) < 0) {
		audit_rollback(db);
		goto fail;
	}
	fputs(sb_str(&out), stdout);
	goto out;
fail:
	ret = desk_busy(db, "the note was not added");
out:
	audit_close(db);
	sb_release(&text);
	sb_release(&out);
	return ret;
}
