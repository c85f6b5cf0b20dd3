// SPDX-License-Identifier: GPL-2.0-only
/*
 * triage explain - run the pipeline over one report, as a dry run
 *
 * DESCRIPTION
 *	triage explain [--json] [--maintainers FILE] [FILE|-]
 *
 *	Reads one message (or a bare console log) from FILE or standard
 *	input and runs exactly the stages triage-filter runs (intake,
 *	parse, the message's kind and thread, then evidence, classify,
 *	map, pick, act: pipeline.h),
 *	without writing the database or sending mail, and prints the
 *	decision: as text for a person, or with --json as one object:
 *
 *	  message_id, subject, from, sha256,
 *	  kind, kind_reason (kind.h: a message that is no report is never
 *	    classified or routed by the filter; its action is "record" or
 *	    "hold"), fix_for (the report a patch proposes to fix) or null,
 *	  evidence {title, crash_type, guilty_file, frames [{function,
 *	    file, line, module, from_index}], files, functions,
 *	    kernel_version, tainted, hardware, hw_virtual, reproducer
 *	    [c, syz, steps], bisect_commit, subject_prefix, distro_kernel},
 *	  sections [{name, score, why}] best first,
 *	  class, scores {user, fuzzer, ai}, confidence, certain,
 *	  rules [{name, score, describe}], model {user, fuzzer, ai} or null,
 *	  recipient, recipient_name, reason, outcome, candidates [...],
 *	  action, action_reason, header (the X-Triage-Class value),
 *	  crash_signature, syzbot_id (crashsig.h) or null,
 *	  thread {root, how, via, recipient, root_state, root_class} or
 *	    null (the report a follow-up joins: link.h),
 *	  duplicate_of: the first report of the same crash, or null,
 *	  regression {good, bad, commit} (each a string or null) or null,
 *	  claims {checked, false, kinds {sizes, files, CONFIG_, names,
 *	    lines, calls, quotes, sysctls, params, ioctls, commits: [false,
 *	    checked]}, first, tree_version, not_checked_newer,
 *	    history_commits, commits_not_checked}: what claims.h checked
 *	    against the symbol index and the commit history, the first
 *	    false claim or null, the tree's version ("6.12.0") or null,
 *	    the names the tree is too old to know, the history's commits
 *	    (0: none imported) and the ids cited it cannot tell
 *
 *	thread and duplicate_of need the database (read only); without
 *	it they are null.
 *
 *	Load figures for the burnout-aware pick come from the database
 *	when it exists (read only); without it everyone counts as idle.
 *
 *	--maintainers FILE maps with that MAINTAINERS text instead of
 *	the configured index.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

#include "audit.h"
#include "claims.h"
#include "cmd.h"
#include "config.h"
#include "evidence.h"
#include "intake.h"
#include "map.h"
#include "parse.h"
#include "pipeline.h"
#include "record.h"
#include "report.h"
#include "rules.h"
#include "thread.h"
#include "util.h"

#define EXPLAIN_MAX (64u << 20)

static const char *empty(const char *s)
{
	return s && *s ? s : NULL;
}

static const char *const claim_kinds[CLAIM_NKINDS] = {
	[CLAIM_SIZE] = "sizes",	       [CLAIM_FILE] = "files",
	[CLAIM_KCONFIG] = "CONFIG_",   [CLAIM_EXISTS] = "names",
	[CLAIM_LINE] = "lines",	       [CLAIM_CALLS] = "calls",
	[CLAIM_QUOTE] = "quotes",      [CLAIM_SYSCTL] = "sysctls",
	[CLAIM_PARAM] = "params",      [CLAIM_IOCTL] = "ioctls",
	[CLAIM_COMMIT] = "commits",    [CLAIM_SITE] = "sites",
	[CLAIM_CITED] = "cited_lines",
};

static json_t *tree_version_json(unsigned v)
{
	char buf[32];

	if (!v)
		return json_null();
	snprintf(buf, sizeof(buf), "%u.%u.%u", v >> 16, (v >> 8) & 0xff,
		 v & 0xff);
	return json_string(buf);
}

/*
 * report_claims - the claims the rules checked (the verdict keeps them),
 * or, when no rule asked, the body's checked now into *local
 */
static const struct claims *report_claims(const struct pipeline *p,
					  const struct report *r,
					  const struct decision *d,
					  struct claims *local)
{
	if (d->verdict.claims.done)
		return &d->verdict.claims.c;
	claims_check_history(r->body, r->body ? r->body_len : 0, d->ev, p->syms,
			     p->rules ? rules_history(p->rules) : NULL, local);
	return local;
}

/*
 * claims_json - the claims checked against the symbol index (claims.h):
 * {checked, false, kinds {lines: [false, checked], ...}, first,
 * tree_version, not_checked_newer}
 */
static json_t *claims_json(const struct pipeline *p, const struct report *r,
			   const struct decision *d)
{
	json_t *kinds = json_object();
	struct claims local;
	const struct claims c = *report_claims(p, r, d, &local);
	unsigned k;

	for (k = 0; k < CLAIM_NKINDS; k++)
		if (c.checks_kind[k])
			json_object_set_new(kinds, claim_kinds[k],
					    json_pack("[i, i]",
						      (int)c.failed_kind[k],
						      (int)c.checks_kind[k]));
	return json_pack("{s:i, s:i, s:o, s:o, s:o, s:i, s:I, s:i}", "checked",
			 (int)c.checks, "false", (int)c.failed, "kinds", kinds,
			 "first", cmd_json_str(c.first[0] ? c.first : NULL),
			 "tree_version", tree_version_json(c.tree_version),
			 "not_checked_newer", (int)c.newer, "history_commits",
			 (json_int_t)c.history_commits, "commits_not_checked",
			 (int)c.commits_unchecked);
}

/* what the commit ids were checked against (claims_commits.c) */
static void print_history(const struct claims *c)
{
	printf("          commits against the history imported, %lu commits",
	       c->history_commits);
	if (c->history_release && c->history_rc < 100)
		printf(" to Linux %u.%u-rc%u", c->history_release >> 16,
		       (c->history_release >> 8) & 0xff, c->history_rc);
	else if (c->history_release)
		printf(" to Linux %u.%u", c->history_release >> 16,
		       (c->history_release >> 8) & 0xff);
	if (c->commits_unchecked)
		printf("; %u not checkable (several commits share the id, or the history does not cover the report's kernel)",
		       c->commits_unchecked);
	putchar('\n');
}

/* the claims checked against the symbol index, and the first false one */
static void print_claims(const struct pipeline *p, const struct report *r,
			 const struct decision *d)
{
	struct claims local;
	const struct claims c = *report_claims(p, r, d, &local);
	unsigned k;
	bool first = true;

	if (!c.checks && !c.newer && !c.commits_unchecked)
		return;
	printf("claims    %u checked, %u false:", c.checks, c.failed);
	for (k = 0; k < CLAIM_NKINDS; k++) {
		if (!c.checks_kind[k])
			continue;
		printf("%s %s %u/%u", first ? "" : ",", claim_kinds[k],
		       c.failed_kind[k], c.checks_kind[k]);
		first = false;
	}
	putchar('\n');
	if (c.first[0])
		printf("          %s\n", c.first);
	if (c.tree_version)
		printf("          against the tree indexed, Linux %u.%u.%u\n",
		       c.tree_version >> 16, (c.tree_version >> 8) & 0xff,
		       c.tree_version & 0xff);
	else
		printf("          against the tree indexed (its version not known)\n");
	if (c.newer)
		printf("          %u names not checked: the tree is older than their code (a family it lacks, or a newer kernel's file)\n",
		       c.newer);
	if (c.checks_kind[CLAIM_COMMIT] || c.commits_unchecked)
		print_history(&c);
}

/* thread_json - the thread the message would join, or null */
static json_t *thread_json(const struct decision *d)
{
	const struct link *l = &d->link;

	if (!l->thread_root)
		return json_null();
	return json_pack("{s:I, s:s, s:s, s:o, s:s, s:s}", "root",
			 (json_int_t)l->thread_root, "how",
			 l->how ? l->how : "", "via", l->via, "recipient",
			 cmd_json_str(empty(l->root.recipient)), "root_state",
			 l->root.state, "root_class", l->root.class);
}

static json_t *decision_json(const struct pipeline *p, const struct report *r,
			     const struct decision *d)
{
	json_t *o, *secs = json_array(), *rules = json_array();
	json_t *cands = json_array(), *model = json_null();
	size_t i;

	for (i = 0; i < d->sections.n; i++)
		json_array_append_new(
			secs,
			json_pack("{s:s, s:f, s:s}", "name",
				  map_title(p->map, d->sections.v[i].section),
				  "score", d->sections.v[i].score, "why",
				  d->sections.v[i].why));
	for (i = 0; i < d->verdict.nrules; i++) {
		const struct verdict_rule *vr = &d->verdict.rules[i];

		json_array_append_new(
			rules, json_pack("{s:s, s:{s:f, s:f, s:f}, s:o}",
					 "name", vr->name, "score", "user",
					 vr->score[CLASS_USER], "fuzzer",
					 vr->score[CLASS_FUZZER], "ai",
					 vr->score[CLASS_AI], "describe",
					 cmd_json_str(vr->describe)));
	}
	for (i = 0; i < d->pick.ncand; i++) {
		const struct pick_candidate *c = &d->pick.cand[i];

		json_array_append_new(
			cands,
			json_pack(
				"{s:s, s:s, s:s, s:o, s:f, s:i, s:i, s:s, s:s}",
				"address", c->addr, "name", c->name, "role",
				pick_role_name(c->role), "section",
				c->section >= 0 && p->map
					? json_string(map_title(
						  p->map, (uint32_t)c->section))
					: json_null(),
				"score", c->score, "today", (int)c->day, "week",
				(int)c->week, "status",
				pick_status_name(c->status), "why",
				c->why ? c->why : ""));
	}
	if (d->model_voted)
		model = json_pack("{s:f, s:f, s:f}", "user",
				  d->model[CLASS_USER], "fuzzer",
				  d->model[CLASS_FUZZER], "ai",
				  d->model[CLASS_AI]);
	o = json_pack("{s:o, s:s, s:s, s:s, s:s}", "message_id",
		      cmd_json_str(r->message_id), "subject", r->subject,
		      "from", r->from, "sha256", r->sha256, "source",
		      r->source);
	json_object_set_new(o, "kind", json_string(kind_name(d->kind.kind)));
	json_object_set_new(o, "kind_reason", json_string(d->kind.why));
	json_object_set_new(o, "fix_for",
			    d->link.fix ? json_integer(d->link.thread_root)
					: json_null());
	json_object_set_new(o, "evidence", cmd_evidence_json(d->ev));
	json_object_set_new(o, "claims", claims_json(p, r, d));
	json_object_set_new(o, "sections", secs);
	json_object_set_new(o, "class", json_string(d->cls));
	json_object_set_new(o, "scores",
			    json_pack("{s:f, s:f, s:f}", "user",
				      d->verdict.score[CLASS_USER], "fuzzer",
				      d->verdict.score[CLASS_FUZZER], "ai",
				      d->verdict.score[CLASS_AI]));
	json_object_set_new(o, "confidence", json_real(d->verdict.confidence));
	json_object_set_new(o, "certain", json_boolean(d->verdict.certain));
	json_object_set_new(o, "class_reason", cmd_json_str(d->verdict.reason));
	json_object_set_new(o, "rules", rules);
	json_object_set_new(o, "model", model);
	json_object_set_new(o, "recipient", cmd_json_str(d->pick.addr));
	json_object_set_new(o, "recipient_name", cmd_json_str(d->pick.name));
	json_object_set_new(o, "section", cmd_json_str(decision_section(p, d)));
	json_object_set_new(o, "reason", cmd_json_str(d->pick.reason));
	json_object_set_new(o, "outcome",
			    json_string(pick_outcome_name(d->pick.outcome)));
	json_object_set_new(o, "candidates", cands);
	json_object_set_new(o, "action",
			    json_string(act_action_name(d->act.action)));
	json_object_set_new(o, "action_reason", json_string(d->act.reason));
	json_object_set_new(o, "reply", json_boolean(d->act.reply));
	json_object_set_new(o, "header", json_string(d->class_header));
	json_object_set_new(o, "crash_signature",
			    cmd_json_str(d->crash_signature[0]
						 ? d->crash_signature
						 : NULL));
	json_object_set_new(
		o, "syzbot_id",
		cmd_json_str(d->syzbot_id[0] ? d->syzbot_id : NULL));
	json_object_set_new(o, "thread", thread_json(d));
	json_object_set_new(o, "duplicate_of",
			    d->link.same_crash_as
				    ? json_integer(d->link.same_crash_as)
				    : json_null());
	json_object_set_new(
		o, "regression",
		d->regression.found
			? json_pack("{s:o, s:o, s:o}", "good",
				    cmd_json_str(empty(d->regression.good)),
				    "bad",
				    cmd_json_str(empty(d->regression.bad)),
				    "commit",
				    cmd_json_str(empty(d->regression.commit)))
			: json_null());
	return o;
}

static void print_text(const struct pipeline *p, const struct report *r,
		       const struct decision *d)
{
	const struct evidence *ev = d->ev;
	size_t i;

	printf("message   %s\n", r->message_id ? r->message_id : "(none)");
	printf("subject   %s\n", r->subject);
	printf("from      %s\n", r->from);
	printf("kind      %s (%s)\n", kind_name(d->kind.kind), d->kind.why);
	if (d->kind.kind != KIND_REPORT &&
	    (d->kind.kind != KIND_FOLLOWUP || !d->link.thread_root)) {
		/* no report: never classified nor routed */
		if (d->link.thread_root)
			printf("thread    in the thread of #%lld, a %s (%s %s)\n",
			       (long long)d->link.thread_root,
			       d->link.root.kind,
			       d->link.how ? d->link.how : "", d->link.via);
		if (d->link.fix)
			printf("fix       proposed for report #%lld\n",
			       (long long)d->link.thread_root);
		printf("action    %s: %s\n", act_action_name(d->act.action),
		       d->act.reason);
		return;
	}
	if (ev->title)
		printf("crash     %s\n", ev->title);
	if (ev->guilty_file)
		printf("guilty    %s\n", ev->guilty_file);
	for (i = 0; i < ev->nframes && i < 8; i++) {
		const struct frame *f = &ev->frames[i];

		printf("%s %s%s%s%s", i ? "         " : "frames   ",
		       f->function ? f->function : "?", f->module ? " [" : "",
		       f->module ? f->module : "", f->module ? "]" : "");
		if (f->file)
			printf("  %s%s", f->file,
			       f->from_index ? " (index)" : "");
		if (f->line)
			printf(":%d", f->line);
		putchar('\n');
	}
	if (ev->kernel_version)
		printf("kernel    %s%s%s\n", ev->kernel_version,
		       ev->tainted ? ", tainted: " : "",
		       ev->tainted ? ev->tainted : "");
	if (ev->hardware)
		printf("hardware  %s%s\n", ev->hardware,
		       ev->hw_virtual ? " (virtual)" : "");
	for (i = 0; i < d->sections.n && i < 6; i++)
		printf("%s %-40s %5.2f  %s\n", i ? "         " : "sections ",
		       map_title(p->map, d->sections.v[i].section),
		       d->sections.v[i].score, d->sections.v[i].why);
	printf("class     %s  (user %.1f, fuzzer %.1f, ai %.1f; confidence %.2f%s)\n",
	       d->cls, d->verdict.score[CLASS_USER],
	       d->verdict.score[CLASS_FUZZER], d->verdict.score[CLASS_AI],
	       d->verdict.confidence, d->verdict.certain ? ", certain" : "");
	for (i = 0; i < d->verdict.nrules; i++)
		printf("%s %-28s %s\n", i ? "         " : "rules    ",
		       d->verdict.rules[i].name,
		       d->verdict.rules[i].describe
			       ? d->verdict.rules[i].describe
			       : "");
	if (d->told[0])
		printf("told      %s\n", d->told);
	printf("recipient %s\n", d->pick.addr ? d->pick.addr : "(none)");
	printf("reason    %s\n", d->pick.reason);
	printf("action    %s: %s\n", act_action_name(d->act.action),
	       d->act.reason);
	if (d->link.thread_root)
		printf("thread    follow-up to report #%lld (%s %s): goes to %s\n",
		       (long long)d->link.thread_root,
		       d->link.how ? d->link.how : "", d->link.via,
		       d->link.root.recipient[0]
			       ? d->link.root.recipient
			       : "(its root's state decides)");
	if (d->link.same_crash_as)
		printf("same      crash as report #%lld\n",
		       (long long)d->link.same_crash_as);
	if (d->regression.found)
		printf("regress   good %s, bad %s, commit %s\n",
		       d->regression.good[0] ? d->regression.good : "?",
		       d->regression.bad[0] ? d->regression.bad : "?",
		       d->regression.commit[0] ? d->regression.commit : "?");
	print_claims(p, r, d);
	if (p->missing[0])
		printf("note      %s\n", p->missing);
}

int cmd_explain(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const char *const usage[] = {
		"triage explain [--json] [--maintainers FILE] [FILE|-]", NULL
	};
	const char *file = "-", *maintainers = NULL;
	bool json = false;
	const struct opt opts[] = {
		OPT_BOOL('j', "json", &json, "print JSON instead of text"),
		OPT_STRING('m', "maintainers", &maintainers, "FILE",
			   "map with this MAINTAINERS file"),
		OPT_END(),
	};
	struct config *cfg;
	struct pipeline p;
	struct decision d;
	struct report *r;
	struct audit *db = NULL;
	char *dbpath;
	int ret = 0;

	argc = parse_options(argc, argv, opts, usage, 0);
	if (argc > 1)
		usage_with_options(usage, opts);
	if (argc == 1)
		file = argv[0];
	/* no file and a terminal to read: the user forgot the message */
	if (argc == 0 && isatty(0)) {
		error("give a message: 'triage explain FILE', or pipe one in ('triage explain < FILE', or '-' to type one, ended by Ctrl-D)");
		usage_with_options(usage, opts);
	}
	cfg = cmd_config(ctx);

	r = report_new();
	r->source = strcmp(file, "-") ? "file" : "mail";
	if (strcmp(file, "-") == 0) {
		if (intake_read_fd(0, NULL, r) < 0) {
			report_free(r);
			return EX_IOERR;
		}
	} else {
		char *buf;
		size_t len;

		if (read_file(file, EXPLAIN_MAX, &buf, &len) < 0) {
			report_free(r);
			return EX_NOINPUT;
		}
		ret = intake_read_buf(buf, len, NULL, r);
		free(buf);
		if (ret < 0) {
			report_free(r);
			return EX_DATAERR;
		}
	}
	if (parse_init() < 0 || parse_report(r) < 0) {
		error("cannot parse '%s'", file);
		report_free(r);
		return EX_DATAERR;
	}

	pipeline_open(&p, cfg);
	if (maintainers) {
		map_free(p.map);
		p.map = map_load_text(maintainers, config_get(cfg, "tree"));
		if (!p.map) {
			pipeline_close(&p);
			report_free(r);
			parse_shutdown();
			return EX_NOINPUT;
		}
		pick_config_free(p.pick);
		p.pick = pick_config_load(cfg, p.map);
	}
	dbpath = config_state_path(cfg, "triage.db");
	if (access(dbpath, R_OK) == 0 &&
	    audit_open(dbpath, AUDIT_RDONLY, 1000, &db, NULL) == 0) {
		p.load = audit_pick_load;
		p.load_ctx = db;
		p.person = audit_pick_person;
	}
	free(dbpath);

	/*
	 * As the filter: its kind, the thread it would join (which may
	 * settle the kind), then the stages; the crash it repeats (read
	 * only).  A message that is no report is never classified by the
	 * filter: the stages run here only to show what they would find.
	 */
	pipeline_begin(r, &d);
	pipeline_kind_sender(&p, r, &d);
	if (db && link_thread(db, r, &d, &d.link) < 0)
		memset(&d.link, 0, sizeof(d.link));
	/* a load it cannot read shows as nobody available, and fails */
	ret = pipeline_route(&p, r, 0, &d) < 0 ? EX_TEMPFAIL : 0;
	if (d.kind.kind == KIND_REPORT) {
		if (db && link_crash(db, &d, &d.link) < 0)
			memset(&d.link, 0, sizeof(d.link));
	} else if (d.kind.kind != KIND_FOLLOWUP || !d.link.thread_root) {
		/* as the filter records it (record.c) */
		record_kind_act(&p, &d, d.link.thread_root != 0, &d.act);
	}
	if (json)
		cmd_print_json(decision_json(&p, r, &d));
	else
		print_text(&p, r, &d);
	decision_release(&d);
	pipeline_close(&p);
	if (db)
		audit_close(db);
	report_free(r);
	parse_shutdown();
	return ret;
}
