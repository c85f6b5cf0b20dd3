// SPDX-License-Identifier: GPL-2.0-only
/*
 * triage remind - remind people of the reports that wait for them
 *
 * DESCRIPTION
 *	triage remind [--send] [--days N]
 *
 *	For each person, the reports forwarded to them N or more days ago
 *	(remind_after_days, default 7) that nobody answered: no reply of
 *	theirs, no fix, no notme, invalid or duplicate (remind.h), the
 *	regressions first, then the oldest; each with its archive link
 *	and the reply commands that settle it.  Without --send it prints
 *	the mail each person would get; with --send it queues it, at most
 *	one a week per person (a second run within the week queues
 *	nothing).  A person away today (routes.conf away) gets none.
 *	Nothing is ever closed because it is old.  'triage deliver
 *	--daemon' runs remind --send once a day when remind = yes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sysexits.h>

#include "audit.h"
#include "cmd.h"
#include "config.h"
#include "desk.h"
#include "remind.h"
#include "util.h"

int cmd_remind(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const char *const usage[] = {
		"triage remind [--send] [--days N]", NULL
	};
	unsigned long days = 0;
	bool send = false;
	struct remind_stats st;
	struct config *cfg;
	struct audit *db;
	int ret;
	const struct opt opts[] = {
		OPT_BOOL(0, "send", &send,
			 "queue the reminders (one a week per person)"),
		OPT_ULONG(0, "days", &days, "N",
			  "forwarded N or more days ago (remind_after_days)", 1,
			  365),
		OPT_END(),
	};

	if (parse_options(argc, argv, opts, usage, 0))
		usage_with_options(usage, opts);
	cfg = cmd_config(ctx);
	if (!days)
		days = (unsigned long)config_int(cfg, "remind_after_days");
	ret = desk_open(cfg, send ? DESK_WRITE : DESK_READ, &db);
	if (ret)
		return ret;
	if (remind_run(db, cfg, desk_now(), (unsigned)days, send, stdout, &st) <
	    0)
		ret = desk_busy(db, "the reminders are incomplete");
	else if (!st.people)
		printf("remind: nothing waits for anyone\n");
	if (send && st.queued)
		desk_drain(cfg, db, st.queued, stdout);
	audit_close(db);
	return ret;
}
