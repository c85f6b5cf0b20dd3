// SPDX-License-Identifier: GPL-2.0-only
/*
 * config_table - every directive of routes.conf: its type, its default
 * and who reads it (see config.h).  routes.conf(5) documents each one
 * and the shipped routes.conf names each one, set or commented out
 * (tests/unit/test_config.c checks both, and that every name the code
 * asks config.h for is here).
 */
#include <stddef.h>
#include <stdio.h>
#include <strings.h>

#include "config.h"
#include "util.h"

#ifndef STATEDIR
#define STATEDIR "/var/lib/triage"
#endif
#ifndef SYSCONFDIR
#define SYSCONFDIR "/etc/triage"
#endif

/* a setting: type, default, then range or allowed words, then readers */
#define S(name, type, def, min, max, allowed, readers)                        \
	{                                                                     \
		name, { type, allowed, min, max }, def, readers, false, 0, 0, \
			NULL, 0, NULL                                         \
	}
#define STR(name, def, readers)	 S(name, CONFIG_STRING, def, 0, 0, NULL, readers)
#define PATH(name, def, readers) S(name, CONFIG_PATH, def, 0, 0, NULL, readers)
#define INT(name, def, min, max, readers) \
	S(name, CONFIG_INT, def, min, max, NULL, readers)
#define BOOL(name, def, readers) S(name, CONFIG_BOOL, def, 0, 0, NULL, readers)
#define ENUM(name, def, allowed, readers) \
	S(name, CONFIG_ENUM, def, 0, 0, allowed, readers)
#define ADDR(name, def, readers) \
	S(name, CONFIG_ADDRESS, def, 0, 0, NULL, readers)
/* a record: its arguments (the last one repeats up to max), readers */
#define REC(name, min, max, args, readers) \
	REC_CHECK(name, min, max, args, NULL, readers)
#define REC_CHECK(name, min, max, args, check, readers)                        \
	{                                                                      \
		name, { CONFIG_RECORD, NULL, 0, 0 }, NULL, readers, true, min, \
			max, args, ARRAY_SIZE(args), check                     \
	}

#define CLASSES "user|fuzzer|ai|uncertain|unmapped"
/* the kinds of message that are no report (stages/kind.c's names) */
#define KINDS                                                          \
	"follow-up|patch|cover-letter|review|pull-request|stable|bot|" \
	"bz-update|discussion|spam"

static const struct config_spec action_args[] = {
	{ CONFIG_ENUM, CLASSES "|" KINDS, 0, 0 },
	{ CONFIG_ENUM, "forward|hold|digest|record", 0, 0 },
	{ CONFIG_ENUM, "hourly|daily|weekly", 0, 0 },
};

/*
 * action_check - "action CLASS forward|hold|digest [PERIOD]" (unmapped:
 * hold only) or "action KIND record|hold", as stages/act.c reads it
 */
static const char *action_check(const struct config_record *r, char *buf,
				size_t size)
{
	bool kind = !config_word_in(CLASSES, r->argv[0]);
	bool digest = !strcasecmp(r->argv[1], "digest");

	if (kind &&
	    (r->argc != 2 || !config_word_in("record|hold", r->argv[1])))
		snprintf(buf, size,
			 "'action %s' takes record or hold: a %s is no report",
			 r->argv[0], r->argv[0]);
	else if (!kind && !strcasecmp(r->argv[1], "record"))
		snprintf(
			buf, size,
			"a report is forwarded, held or digested, not recorded");
	else if (!kind && r->argc == 3 && !digest)
		snprintf(buf, size, "only a digest takes a period");
	else if (!strcasecmp(r->argv[0], "unmapped") &&
		 strcasecmp(r->argv[1], "hold"))
		snprintf(
			buf, size,
			"an unmapped report has nobody to go to: it is always held");
	else
		return "";
	return buf;
}

static const struct config_spec list_fallback_args[] = {
	{ CONFIG_ENUM, "user|fuzzer|ai|uncertain|*", 0, 0 },
	{ CONFIG_ENUM, "forward|hold", 0, 0 },
	{ CONFIG_STRING, NULL, 0, 0 }, /* a section title */
};
static const struct config_spec roster_args[] = {
	{ CONFIG_STRING, NULL, 0, 0 }, /* a section title */
	{ CONFIG_STRING, NULL, 0, 0 }, /* an address, or class=LIST */
};
static const struct config_spec bugzilla_component_args[] = {
	{ CONFIG_STRING, NULL, 0, 0 }, /* a product */
	{ CONFIG_STRING, NULL, 0, 0 }, /* a component, or * */
	{ CONFIG_STRING, NULL, 0, 0 }, /* a section title */
};
static const struct config_spec cap_args[] = {
	{ CONFIG_ADDRESS, "*", 0, 0 },
	{ CONFIG_ASSIGN, "day|week", 0, 100000 },
};
static const struct config_spec away_args[] = {
	{ CONFIG_ADDRESS, NULL, 0, 0 },
	{ CONFIG_DATE, NULL, 0, 0 },
	{ CONFIG_DATE, NULL, 0, 0 },
};

const struct config_key config_keys[] = {
	/* state and sources */
	PATH("state_dir", STATEDIR, "every program (config.c)"),
	PATH("maintainers", NULL,
	     "cmd/update.c cmd/cmd.c app/pipeline.c cmd/deliver.c"),
	PATH("overlay", NULL, "cmd/update.c"),
	PATH("tree", NULL,
	     "cmd/update.c cmd/cmd.c app/pipeline.c cmd/explain.c cmd/deliver.c"),
	PATH("kernel_tree", NULL, "cmd/update.c"),
	PATH("rules_dir", NULL, "stages/classify.c"),
	PATH("local_rules", SYSCONFDIR "/local.rules", "stages/classify.c"),
	BOOL("shipped_model", "yes", "stages/classify.c"),
	INT("own_text_min_lines", "5", 0, 1000, "app/pipeline.c"),

	/* identity and forwarding */
	ADDR("router_address", "triage@localhost", "app/forward.c"),
	STR("router_name", "triage", "app/forward.c"),
	ADDR("bounce_address", NULL, "app/forward.c"),
	ENUM("forward_subject_tag", "unsigned", "unsigned|always|never",
	     "app/forward.c"),
	BOOL("reply_bugtracker", "no", "stages/act.c"),
	S("archive_url", CONFIG_URL_PATTERN, "https://lore.kernel.org/r/%s", 0,
	  0, NULL,
	  "app/forward.c app/digest.c cmd/show.c cmd/fixes.c cmd/remind.c"),
	BOOL("notify_reporter_fixed", "no", "cmd/fixes.c"),
	INT("remind_after_days", "7", 1, 365, "cmd/remind.c"),
	BOOL("remind", "no", "cmd/deliver.c"),
	ADDR("regressions_list", NULL, "app/record.c"),
	ADDR("security_address", NULL, "app/pipeline.c app/record.c"),
	INT("sender_cap", "5", 0, 1000000, "app/record.c"),
	INT("client_cap", "25", 0, 1000000, "app/record.c"),
	/* reply commands (triage-mail(7)) */
	BOOL("reply_address", "yes", "app/forward.c"),
	STR("triagers", NULL, "app/mailcmd.c"),
	STR("authserv_id", NULL, "app/mailcmd.c, app/thread.c"),

	/* how mail leaves */
	ENUM("transport", "smtp", "smtp|sendmail",
	     "cmd/deliver.c bin/triage-filter.c app/desk.c"),
	PATH("sendmail_path", "/usr/sbin/sendmail", "app/outbox.c"),
	INT("sendmail_timeout", "60", 1, 3599, "app/outbox.c"),
	S("delivery_max_age", CONFIG_DURATION, "5d", 1, 365L * 86400, "dh",
	  "app/outbox.c"),
	INT("deliver_interval", "10", 1, 3600, "cmd/deliver.c"),
	STR("smtp_host", "localhost", "cmd/deliver.c"),
	INT("smtp_port", NULL, 1, 65535, "cmd/deliver.c"),
	ENUM("smtp_tls", "none", "none|may|starttls|smtps", "cmd/deliver.c"),
	STR("smtp_helo", NULL, "cmd/deliver.c"),
	STR("smtp_user", NULL, "cmd/deliver.c"),
	PATH("smtp_password_file", NULL, "cmd/deliver.c"),
	PATH("smtp_ca_file", NULL, "cmd/deliver.c"),
	INT("smtp_connect_timeout", "30", 1, 3600, "cmd/deliver.c"),
	INT("smtp_timeout", "300", 1, 3600, "cmd/deliver.c"),

	/* the filter */
	INT("filter_timeout", "120", 0, 899,
	    "bin/triage-filter.c app/digest.c"),
	INT("filter_memory_mb", "1024", 0, 1048576, "bin/triage-filter.c"),
	INT("db_busy_timeout", "5000", 0, 600000,
	    "bin/triage-filter.c app/desk.c cmd/bugzilla.c cmd/deliver.c cmd/serve.c"),

	/* picking a person */
	S("experts_min_score", CONFIG_NUMBER, "1.0", 0, 1000000, NULL,
	  "stages/pick.c"),
	S("experts_weight", CONFIG_WEIGHTS,
	  "reviewed-by:1.0 acked-by:0.5 signed-off-by:0.2 authored:0.1", 0,
	  1000, "reviewed-by|acked-by|signed-off-by|authored",
	  "stages/experts.c"),
	S("experts_halflife", CONFIG_NUMBER, "180", 1, 36500, NULL,
	  "stages/experts.c"),
	S("experts_since", CONFIG_SINCE, "2y", 0, 0, NULL, "stages/experts.c"),
	INT("experts_max", "8", 1, 64, "stages/experts.c"),
	STR("experts_ignore", NULL, "stages/experts.c"),

	/* Bugzilla */
	STR("bugzilla_url", NULL, "net/bugzilla.c"),
	PATH("bugzilla_api_key_file", NULL, "net/bugzilla.c"),
	PATH("bugzilla_ca_file", NULL, "net/bugzilla.c"),
	INT("bugzilla_timeout", "30", 1, 3600, "net/bugzilla.c"),
	INT("bugzilla_connect_timeout", "10", 1, 3600, "net/bugzilla.c"),
	BOOL("bugzilla_comment", "no", "net/bugzilla.c"),
	BOOL("bugzilla_comment_private", "no", "net/bugzilla.c"),
	BOOL("bugzilla_assign", "no", "net/bugzilla.c"),
	BOOL("bugzilla_cc", "no", "net/bugzilla.c"),
	STR("bugzilla_keyword", NULL, "net/bugzilla.c"),
	BOOL("bugzilla_forward_private", "no", "cmd/bugzilla.c"),
	STR("serve_listen", "127.0.0.1:8025", "cmd/serve.c"),
	PATH("webhook_token_file", NULL, "cmd/serve.c"),
	STR("webhook_token_header", "Authorization", "cmd/serve.c"),
	INT("webhook_max_body", "1048576", 1024, 64L << 20, "cmd/serve.c"),
	INT("webhook_deadline", "10", 1, 3600, "cmd/serve.c"),
	INT("webhook_max_connections", "64", 1, 10000, "cmd/serve.c"),

	/* records */
	REC_CHECK("action", 2, 3, action_args, action_check, "stages/act.c"),
	REC("list_fallback", 2, 3, list_fallback_args, "stages/act.c"),
	REC("roster", 2, CONFIG_MAX_ARGS, roster_args, "stages/pick.c"),
	REC("cap", 2, 3, cap_args, "stages/pick.c"),
	REC("away", 3, 3, away_args, "stages/pick.c"),
	REC("bugzilla_component", 3, 3, bugzilla_component_args,
	    "stages/bzcomponent.c"),
};

const size_t config_nkeys = ARRAY_SIZE(config_keys);
