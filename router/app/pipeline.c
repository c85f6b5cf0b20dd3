// SPDX-License-Identifier: GPL-2.0-only
/*
 * pipeline - the command layer's run of the stages (see pipeline.h)
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "config.h"
#include "authres.h"
#include "bzcomponent.h"
#include "crashlog.h"
#include "evidence.h"
#include "experts.h"
#include "map.h"
#include "model.h"
#include "pipeline.h"
#include "problem.h"
#include "printk.h"
#include "report.h"
#include "rules.h"
#include "strbuf.h"
#include "symbols.h"
#include "util.h"

static void note_missing(struct pipeline *p, const char *what)
{
	size_t n = strlen(p->missing);

	snprintf(p->missing + n, sizeof(p->missing) - n, "%s%s", n ? "; " : "",
		 what);
}

/* state_file - STATE_DIR/name when it exists, else NULL (caller frees) */
static char *state_file(const struct config *cfg, const char *name)
{
	char *path = config_state_path(cfg, name);

	if (access(path, R_OK) == 0)
		return path;
	free(path);
	return NULL;
}

/*
 * pipeline_open - load the map, symbols, rules, model, experts and the
 * pick and act configuration; what is absent is noted, not fatal
 */
int pipeline_open(struct pipeline *p, const struct config *cfg)
{
	char *path;
	const char *text;

	memset(p, 0, sizeof(*p));
	p->cfg = cfg;

	if ((path = state_file(cfg, "maintainers.idx"))) {
		p->map = map_open(path);
		free(path);
	}
	/*
	 * No index, or one this program refuses (a format from before an
	 * upgrade, until 'triage update' runs): map from the text, slower
	 * but not every report held.
	 */
	if (!p->map && (text = config_get(cfg, "maintainers")) &&
	    access(text, R_OK) == 0)
		p->map = map_load_text(text, config_get(cfg, "tree"));
	if (!p->map)
		note_missing(
			p,
			"no MAINTAINERS map (run 'triage update'): every report is held");

	/* the crash-log patterns, precompiled by 'triage update' */
	if ((path = state_file(cfg, "crashlog.rx"))) {
		crashlog_load_patterns(path);
		free(path);
	}

	if ((path = state_file(cfg, "symbols.idx"))) {
		p->syms = symbols_open_pread(path);
		free(path);
	}
	if (!p->syms)
		note_missing(p, "no symbol index");
	/* the log formats: optional, no note when absent (check-config) */
	if ((path = state_file(cfg, "printk.idx"))) {
		p->printk = printk_open(path);
		free(path);
	}

	p->rules = classify_open(cfg);
	if (!p->rules)
		note_missing(p,
			     "no classifier rules: every report is uncertain");
	else if (p->syms)
		rules_set_symbols(p->rules, p->syms);

	if ((path = state_file(cfg, "model.bin"))) {
		p->model = model_open(path);
		free(path);
	} else if ((path = classify_default_model(cfg))) {
		/* no site model: the one shipped with the rules */
		p->model = model_open(path);
		free(path);
	}
	if (!p->model)
		note_missing(p, "no trained model");

	if ((path = state_file(cfg, "experts.idx"))) {
		p->experts = experts_open(path);
		free(path);
	}
	p->commits = state_file(cfg, "experts.idx.commits");

	p->pick = pick_config_load(cfg, p->map);
	act_config_load(&p->act, cfg);
	return 0;
}

size_t pipeline_inputs(const struct config *cfg, char **paths, size_t max)
{
	static const char *const state[] = {
		"maintainers.idx", "crashlog.rx",	  "symbols.idx",
		"printk.idx",	   CLASSIFY_SNAPSHOT,	  "model.bin",
		"experts.idx",	   "experts.idx.commits", CLASSIFY_HISTORY,
	};
	const char *dir = classify_rules_dir(cfg);
	const char *local = classify_local_rules(cfg);
	const char *text = config_get(cfg, "maintainers");
	size_t i, n = 0;
	char *pat;
	glob_t g;

	for (i = 0; i < ARRAY_SIZE(state) && n < max; i++)
		paths[n++] = config_state_path(cfg, state[i]);
	if (text && n < max)
		paths[n++] = xstrdup(text);
	if (local && n < max)
		paths[n++] = xstrdup(local);
	if (dir && n < max) {
		/* a rule file added shows in the directory's mtime */
		paths[n++] = xstrdup(dir);
		pat = xasprintf("%s/*.rules", dir);

		if (glob(pat, 0, NULL, &g) == 0) {
			for (i = 0; i < g.gl_pathc && n < max; i++)
				paths[n++] = xstrdup(g.gl_pathv[i]);
			globfree(&g);
		}
		free(pat);
	}
	/* the shipped model, read when STATE_DIR has none */
	if (n < max && (pat = classify_default_model(cfg)))
		paths[n++] = pat;
	return n;
}

void pipeline_close(struct pipeline *p)
{
	map_free(p->map);
	symbols_free(p->syms);
	printk_free(p->printk);
	rules_free(p->rules);
	model_free(p->model);
	experts_free(p->experts);
	free(p->commits);
	pick_config_free(p->pick);
	memset(p, 0, sizeof(*p));
}

/*
 * culprit_candidates - a regression bisected to a commit the expert
 * table knows: its author and its Reviewed-by reviewers are candidates
 */
static void culprit_candidates(const struct pipeline *p, struct decision *d)
{
	struct experts_commit c;
	char *why;
	size_t i;

	if (!p->commits || !d->regression.commit[0])
		return;
	if (experts_commit_find(p->commits, d->regression.commit, &c) != 1)
		return;
	if (c.author[0]) {
		why = xasprintf("author of %.12s, the culprit commit", c.sha);
		pick_suggest(&d->pick, c.author, why);
		free(why);
	}
	for (i = 0; i < c.nreviewers; i++) {
		why = xasprintf("Reviewed-by of %.12s, the culprit commit",
				c.sha);
		pick_suggest(&d->pick, c.reviewers[i], why);
		free(why);
	}
}

/* pipeline_begin - a fresh decision with the message's kind */
void pipeline_begin(const struct report *r, struct decision *d)
{
	memset(d, 0, sizeof(*d));
	kind_classify(r, &d->kind);
}

/* pipeline_evidence - the evidence stage, and the regression facts */
void pipeline_evidence(struct pipeline *p, const struct report *r,
		       struct decision *d)
{
	if (d->ev)
		return;
	d->ev = evidence_extract_logs(r, p->printk);
	if (p->syms)
		symbols_resolve(p->syms, d->ev);
	regression_from_report(r, &d->regression);
	regression_finish(&d->regression, d->ev->kernel_version);
}

/* pipeline_run - every stage, in order, for one report */
int pipeline_run(struct pipeline *p, const struct report *r, time_t now,
		 struct decision *d)
{
	pipeline_begin(r, d);
	pipeline_evidence(p, r, d);
	return pipeline_route(p, r, now, d);
}

/*
 * security_contact - addr, picked for section sec, is a security
 * contact: a "security@" address, or a section that lists the kernel's
 * Documentation/process/security-bugs.rst (SECURITY CONTACT)
 */
static bool security_contact(const struct map *map, int sec, const char *addr)
{
	uint32_t i, n;

	if (addr && !strncasecmp(addr, "security@", 9))
		return true;
	if (!map || sec < 0)
		return false;
	n = map_nentries(map, (uint32_t)sec);
	for (i = 0; i < n; i++)
		if (map_entry_tag(map, (uint32_t)sec, i) == 'F' &&
		    strstr(map_entry_value(map, (uint32_t)sec, i),
			   "security-bugs"))
			return true;
	return false;
}

/*
 * no_sign_of_a_bug - a new message classed user only because nothing
 * else fired: no user rule reached its threshold, it holds no crash, and
 * neither its subject nor a first-person sentence says that anything
 * went wrong (problem.h); or it asks a question (kind.h) and holds no
 * crash, unless the user rules reached three times their threshold (a
 * log, a distribution kernel, the machine) or it pastes three lines or
 * more of the kernel's log (dmesg, the journal: problem_log_lines()):
 * a question names a problem as often as a report does, and "my",
 * "after upgrading" alone fit a help request as well.  On the four
 * tuning report parts the log released 3 held genuine user reports and
 * no non-report (no held discussion pastes the kernel's log).
 * A bug filed in a tracker (its own mail: filed_in_tracker()), a
 * MAINTAINERS person's report whose
 * subject says what went wrong (kernel_person()), and a report whose
 * subject says what went wrong and whose text names the kernel's code
 * (a path, a driver or a function the indexes know: names_kernel_code())
 * are not held for want of a user's signs: on the tuning labels that
 * released 18 terse genuine reports for 3 non-reports.  Nor is one whose
 * own subject tag calls it a bug ("[BUG] ...", "[report] ..."), or whose
 * subject says that something failed (a failure word, not a topic word
 * such as "issue" or "missing", or a regression's time: "Since 6.18.x
 * ...") while a first-person sentence or a pasted message of its text
 * tells a problem (problem.h): on the four tuning report parts that
 * released 12 held genuine user reports and no non-report.  Nor, asked
 * or not, is one whose writer tells in a sentence of their own, no
 * question and no wish, that something failed, and shows the system it
 * failed on (told_failure(): a kernel log line, or the kernel they ran
 * with a user rule's sign): written from tune-reports5 and
 * tune-reports, it released 2 held genuine user reports on those
 * parts and no non-report on any of the six (a how-to question names
 * a failure in a question, a wish or a quotation, or no system).  On the bugs alias such mail is mostly a
 * question, a plan or an announcement; the few genuine reports among
 * them keep their class and wait for a triager (pending) instead of
 * reaching a maintainer as a bug.
 */
/*
 * kernel_person - r's sender is an M:, R: or B: person of MAINTAINERS
 * (a developer's terse regression report has none of a user's signs),
 * and, when routes.conf names authserv_id, our server authenticated
 * that From (a forged one is a stranger's)
 */
static bool kernel_person(const struct pipeline *p, const struct report *r)
{
	struct map_addr_hit hits[8];
	size_t i, n;

	if (!p->map || !r->from_addr || !*r->from_addr ||
	    authres_check(r, config_get(p->cfg, "authserv_id"), r->from_addr))
		return false;
	n = map_address(p->map, r->from_addr, hits, ARRAY_SIZE(hits));
	for (i = 0; i < n && i < ARRAY_SIZE(hits); i++)
		if (hits[i].tag != 'L')
			return true;
	return false;
}

/*
 * pipeline_kind_sender - see pipeline.h.  On tune-reports5 the kind
 * stage called "I3C Mastership RFC" from a Cadence maintainer spam,
 * its text naming nothing it lists; on the tuning parts no spam comes
 * from a MAINTAINERS person's address.
 */
void pipeline_kind_sender(const struct pipeline *p, const struct report *r,
			  struct decision *d)
{
	struct kind_result *k = &d->kind;

	if (d->hold || k->kind != KIND_SPAM || !k->names_nothing ||
	    !kernel_person(p, r))
		return;
	k->kind = KIND_DISCUSSION;
	snprintf(
		k->why, sizeof(k->why), "%s",
		"a MAINTAINERS person's new message whose text names nothing of the kernel: their discussion, not spam");
}

#define QUESTION_USER_EVIDENCE 3
/* ... or the kernel's log lines it pasted (problem.h) */
#define QUESTION_LOG_LINES 3

/* names_kernel_code - the text names a path, or a driver or function
 * the symbol index places in a file */
static bool names_kernel_code(const struct evidence *ev)
{
	size_t i;

	if (!ev)
		return false;
	if (ev->nfiles)
		return true;
	for (i = 0; ev->named_files && i < ev->nnamed; i++)
		if (ev->named_files[i])
			return true;
	for (i = 0; ev->text_function_files && i < ev->ntext_functions; i++)
		if (ev->text_function_files[i])
			return true;
	return false;
}

/* subject_says_failure - r's subject (its tags left out) says that
 * something failed (problem.h) */
static bool subject_says_failure(const struct report *r)
{
	const char *rest = kind_subject_rest(r->subject ? r->subject : "");

	return problem_failure_in_phrase(rest, strlen(rest), NULL, 0);
}

/*
 * filed_in_tracker - kind.c's "a filed bug" said by the tracker itself: a
 * bug read from the Bugzilla or its daemon's mail (bzcomponent.h), or
 * kernel.org's bugspray bot, authenticated when routes.conf names
 * authserv_id.  A "[Bug N] New:" subject or an X-Bugzilla-* header is
 * anyone's to write: on a stranger's mail it files nothing.
 */
static bool filed_in_tracker(const struct pipeline *p, const struct report *r)
{
	if (bzcomponent_from_bugzilla(r, p->cfg))
		return true;
	return r->from_addr && !strcasecmp(r->from_addr, "bugbot@kernel.org") &&
	       !authres_check(r, config_get(p->cfg, "authserv_id"),
			      r->from_addr);
}

/*
 * told_failure - r's writer tells, in a sentence of their own that
 * neither asks nor wishes, that something failed
 * (problem_failure_in_text(): "the ports are not working", not "is it
 * true that it will crash?"), and shows the system it failed on: a
 * line of the kernel's log they pasted, or the kernel they ran
 * (evidence) with a user rule's sign of their machine (signs > 0); what
 * was found goes to d->told.  A how-to question names a failure in a
 * question or a wish, or names no system.
 */
static bool told_failure(const struct report *r, struct decision *d,
			 double signs)
{
	char what[64];
	unsigned logs;

	if (!problem_failure_in_text(r->body, r->body_len, what, sizeof(what)))
		return false;
	logs = problem_log_lines(r->body, r->body_len);
	if (logs)
		snprintf(
			d->told, sizeof(d->told),
			"the writer tells a failure (%s) and pastes %u line%s of the kernel's log",
			what, logs, logs == 1 ? "" : "s");
	else if (d->ev && d->ev->kernel_version && signs > 0)
		snprintf(
			d->told, sizeof(d->told),
			"the writer tells a failure (%s) on kernel %s, with a user rule's sign of their machine",
			what, d->ev->kernel_version);
	else
		return false;
	return true;
}

/*
 * user_rule_points - d's user score without the model's vote: the model
 * says the text reads like users' reports (a question, a plan in the
 * first person), not that anyone hit a bug; the rules' signs do
 */
static double user_rule_points(const struct decision *d)
{
	return d->verdict.score[CLASS_USER] - d->verdict.model[CLASS_USER];
}

static bool no_sign_of_a_bug(const struct pipeline *p, const struct report *r,
			     struct decision *d)
{
	const struct rules_params *rp = rules_params(p->rules);
	double signs = user_rule_points(d);

	if (d->kind.kind != KIND_REPORT || d->kind.reply ||
	    d->verdict.cls != CLASS_USER || d->verdict.certain ||
	    (d->ev && (d->ev->crash_type || d->ev->nframes)))
		return false;
	/* the writer tells that something of theirs failed, and shows
	 * the system it failed on */
	if (told_failure(r, d, signs))
		return false;
	/* a question from a machine that shows itself (a log, its kernel,
	 * its hardware: user rules worth three times the threshold) is a
	 * report that asks for help */
	if (d->kind.question)
		return signs < QUESTION_USER_EVIDENCE *
				       rp->threshold[CLASS_USER] &&
		       problem_log_lines(r->body, r->body_len) <
			       QUESTION_LOG_LINES;
	/* a bug filed in a tracker, a regression a developer reports */
	if (signs >= rp->threshold[CLASS_USER] ||
	    (!strcmp(d->kind.problem, "a filed bug") &&
	     filed_in_tracker(p, r)) ||
	    (!strncmp(d->kind.problem, "subject", 7) && kernel_person(p, r)))
		return false;
	if (!strncmp(d->kind.problem, "subject", 7) && names_kernel_code(d->ev))
		return false;
	/* the sender's own subject tag calls it a bug ("[BUG linux-next]
	 * nconfig: ...", "[report] xconfig ... issue"), and the text tells
	 * of it or of the kernel's code, or the subject names a subsystem */
	if (!strncmp(d->kind.problem, "subject tag", 11) &&
	    (problem_in_text(r->body, r->body_len, NULL, 0) ||
	     names_kernel_code(d->ev) || (d->ev && d->ev->subject_prefix)))
		return false;
	/* the subject says that something failed, not only a topic word
	 * ("... compilation fails", "ubi2 error: ...", "... not working",
	 * "Since 6.18.x ..."), and the writer's own text tells it too */
	if (subject_says_failure(r) &&
	    problem_in_text(r->body, r->body_len, NULL, 0))
		return false;
	return true;
}

/*
 * thin_own_text - a new report (no reply to one we know) whose own text
 * is under own_text_min_lines nonblank lines and the rest of its text
 * longer: what a forward would carry is someone else's words, quoted,
 * after an "-----Original Message-----" line or attached, which the
 * rules weigh less (quoted_weight) than the sender's own
 */
static bool thin_own_text(const struct pipeline *p, const struct decision *d)
{
	long min = p->cfg ? config_int(p->cfg, "own_text_min_lines") : 0;

	return min > 0 && d->kind.kind == KIND_REPORT && !d->link.thread_root &&
	       d->own_lines < (unsigned long)min &&
	       d->rest_lines > d->own_lines;
}

/*
 * unread_text - the whole-text rules pass (and the forward) would miss
 * part of r's text: it reads RULES_WHOLE_MAX bytes of the main text,
 * its quotes and what follows a marker, then every other text part
 * (rules_eval.c's build_whole); *n is that text's decoded size.  A text
 * past it could hide an AI text after 1 MiB of log, so it is never
 * forwarded unread.  What parse itself cut (REPORT_TRUNCATED: 4 MiB of
 * text, a gzip over it, too many parts) is unread too.  Cheap: sizes,
 * and the exact count (quote marks removed) only past the limit.
 */
static bool unread_text(const struct report *r, size_t *n)
{
	struct strbuf sb;
	bool main_seen = !r->body, over;
	size_t i;

	*n = r->body ? r->body_len : 0;
	for (i = 0; i < r->nparts; i++) {
		const struct report_part *pt = &r->parts[i];

		if (!(pt->flags & PART_TEXT) || !pt->text)
			continue;
		if (!main_seen && pt->len == r->body_len &&
		    !memcmp(pt->text, r->body, pt->len)) {
			main_seen = true; /* r->body is this part's text */
			continue;
		}
		*n += pt->len + 1;
		if (pt->len > RULES_WHOLE_MAX)
			return true;
	}
	if (r->flags & REPORT_TRUNCATED)
		return true;
	if (*n <= RULES_WHOLE_MAX)
		return false;
	if (r->body_len > RULES_WHOLE_MAX)
		return true;
	/* quote marks do not count: the text as the pass builds it */
	sb_init(&sb, (size_t)RULES_WHOLE_MAX + 1);
	main_seen = !r->body;
	if (r->body)
		rules_whole_text(r->body, r->body_len, &sb);
	for (i = 0; i < r->nparts && sb.len <= RULES_WHOLE_MAX; i++) {
		const struct report_part *pt = &r->parts[i];

		if (!(pt->flags & PART_TEXT) || !pt->text)
			continue;
		if (!main_seen && pt->len == r->body_len &&
		    !memcmp(pt->text, r->body, pt->len)) {
			main_seen = true;
			continue;
		}
		sb_addc(&sb, '\n');
		rules_whole_text(pt->text, pt->len, &sb);
	}
	over = sb.len > RULES_WHOLE_MAX;
	sb_release(&sb);
	return over;
}

/*
 * pipeline_judge - classify, crash identity and map for one report
 * (evidence first if not yet extracted); no database, no load
 */
void pipeline_judge(struct pipeline *p, const struct report *r,
		    struct decision *d)
{
	double model_whole[CLASS_N];
	bool whole_voted = false;

	if (d->judged)
		return;
	d->judged = true;
	pipeline_evidence(p, r, d);

	/*
	 * classify: the model votes through graded pseudo-rules, on the
	 * sender's own text and on the whole text the forward carries
	 */
	if (p->model) {
		struct model_input in;

		model_input_from_report(&in, r);
		d->model_voted = model_score(p->model, &in, d->model) == 1;
		in.whole = true;
		whole_voted = model_score(p->model, &in, model_whole) == 1;
	}
	if (p->rules) {
		classify_report_whole(
			p->rules, r, d->ev, d->model_voted ? d->model : NULL,
			whole_voted ? model_whole : NULL, &d->verdict);
	} else {
		d->verdict.cls = CLASS_UNCERTAIN;
		d->verdict.reason = "no classifier rules";
	}
	/*
	 * No evidence, no forward: a text that names nothing of the kernel
	 * shows no bug anyone hit (kind.h); a triager decides.
	 */
	if (d->kind.names_nothing && d->verdict.cls == CLASS_USER) {
		d->verdict.cls = CLASS_UNCERTAIN;
		d->verdict.reason = "its text names nothing of the kernel";
	}
	d->no_problem = p->rules && no_sign_of_a_bug(p, r, d);
	rules_text_lines(r, &d->own_lines, &d->rest_lines);
	d->cls = rules_class_name(d->verdict.cls);

	/* the crash's identity, and whether it is a regression */
	crashsig_compute(d->ev, d->crash_signature, sizeof(d->crash_signature));
	crashsig_syzbot_id(r, d->ev, d->syzbot_id, sizeof(d->syzbot_id));
	verdict_format(&d->verdict, d->class_header, sizeof(d->class_header));

	/* map */
	if (p->map)
		sections_for_report_site(p->map, p->cfg, r, d->ev, r->body,
					 r->body_len, &d->sections);
	d->mapped = d->sections.n > 0;
}

/*
 * security_hold_mark - a held report that looks security-sensitive and
 * whose recorded recipient is no private person (a list, a security
 * contact) says so in its reason, as act_private() says it for one held
 * for want of a person: whatever held it (its class, no sign of a bug,
 * unread or thin text).  Words for a human only: approve and reroute
 * read the verdict from the decision's security column (record.c,
 * desk_security()), never from a reason a sender's From can fill
 * (issue 21).
 */
static void security_hold_mark(struct decision *d, bool person)
{
	static const char mark[] = "it looks security-sensitive (";
	size_t n = strlen(d->act.reason), need;

	if (d->act.action != ACT_HOLD || !d->act.security_why[0] || person ||
	    strstr(d->act.reason, mark))
		return;
	/* the mark whole, the reason before it cut if it must be */
	need = strlen("; ") + strlen(mark) + strlen(d->act.security_why) +
	       strlen("); no person") + 1;
	if (n + need > sizeof(d->act.reason))
		n = sizeof(d->act.reason) - need;
	snprintf(d->act.reason + n, sizeof(d->act.reason) - n,
		 "; %s%s); no person", mark, d->act.security_why);
}

/*
 * private_recipient - a security-looking report sent privately
 * (act_private()): to security_address instead of the pick when it has
 * no person; the pick's reason says where and why
 */
static void private_recipient(struct decision *d)
{
	const char *old = d->pick.reason ? d->pick.reason : "";
	char *why;

	if (d->act.private_to) {
		why = xasprintf("%s; it looks security-sensitive (%s) and has "
				"no person to go to: sent privately to "
				"security_address %s instead, marked "
				"X-Triage-Security, copied to no list",
				old, d->act.security_why, d->act.private_to);
		free(d->pick.addr);
		free(d->pick.name);
		d->pick.addr = xstrdup(d->act.private_to);
		d->pick.name = xstrdup("");
		d->pick.outcome = PICK_PERSON;
	} else {
		why = xasprintf(
			"%s; it looks security-sensitive (%s): sent "
			"privately, marked X-Triage-Security, copied to "
			"no list",
			old, d->act.security_why);
	}
	free(d->pick.reason);
	d->pick.reason = why;
}

/*
 * user_signs - a report classed user by its own evidence: a certain rule,
 * or user rules (user_rule_points(), as no_sign_of_a_bug() counts them)
 * that reached the user threshold; what act_fallback() asks before it
 * publishes a report on a list
 */
static bool user_signs(const struct pipeline *p, const struct decision *d)
{
	const struct rules_params *rp =
		p->rules ? rules_params(p->rules) : NULL;

	if (d->verdict.cls != CLASS_USER)
		return false;
	return d->verdict.certain ||
	       (rp && user_rule_points(d) >= rp->threshold[CLASS_USER]);
}

/* addressed - the message's own To: or Cc: names its pick (a list) */
static bool addressed(const struct decision *d)
{
	size_t i;

	for (i = 0; d->ev && d->pick.addr && i < d->ev->nrecipients; i++)
		if (!strcasecmp(d->ev->recipients[i], d->pick.addr))
			return true;
	return false;
}

/*
 * pipeline_route - pick and act for one report (judged first when
 * pipeline_judge() has not run): the part that reads the loads; -1
 * when the pick could not read one
 */
int pipeline_route(struct pipeline *p, const struct report *r, time_t now,
		   struct decision *d)
{
	struct pick_section secs[SECTIONS_MAX];
	struct pick_request rq;
	size_t i, unread;
	bool contact;
	int rc = 0;

	pipeline_judge(p, r, d);

	/* pick */
	for (i = 0; i < d->sections.n && i < ARRAY_SIZE(secs); i++) {
		secs[i].section = d->sections.v[i].section;
		secs[i].score = d->sections.v[i].score;
	}
	memset(&rq, 0, sizeof(rq));
	rq.map = p->map;
	rq.sections = secs;
	rq.nsections = p->map ? i : 0;
	rq.ev = d->ev;
	rq.reporter = r->from_addr && *r->from_addr ? r->from_addr : r->from;
	rq.class = d->cls;
	rq.cfg = p->pick;
	rq.ex = p->experts;
	rq.load = p->load;
	rq.load_ctx = p->load_ctx;
	rq.person = p->person;
	rq.now = now;
	if (p->map && p->pick) {
		rc = pick_recipient(&rq, &d->pick);
	} else {
		d->pick.outcome = PICK_UNMAPPED;
		d->pick.reason = xstrdup("no MAINTAINERS map");
		d->pick.section = -1;
	}

	culprit_candidates(p, d);

	/* act */
	act_decide(&p->act, d->cls, d->mapped,
		   d->pick.outcome == PICK_PERSON ||
			   d->pick.outcome == PICK_TO_LIST,
		   d->pick.bug_url, &d->act);
	contact = security_contact(p->map, d->pick.section, d->pick.addr);
	/* a security-looking report: privately, never to a list */
	act_private(d->cls, d->pick.outcome == PICK_PERSON && !contact,
		    config_get(p->cfg, "security_address"),
		    d->ev ? d->ev->crash_type : NULL, r->subject, r->body,
		    r->body_len, &d->act);
	if (!d->act.security) {
		struct act_list list = { d->pick.addr, d->pick.list_note,
					 d->pick.list_why, user_signs(p, d),
					 addressed(d) };

		act_fallback(
			&p->act, d->cls,
			p->map && d->pick.section >= 0
				? map_title(p->map, (uint32_t)d->pick.section)
				: NULL,
			d->pick.outcome == PICK_TO_LIST ? &list : NULL, contact,
			&d->act);
	} else
		private_recipient(d);
	/* no sign of a bug: a triager sees it before anyone else does */
	if (d->no_problem && d->act.action != ACT_HOLD) {
		d->act.action = ACT_HOLD;
		d->act.reply = false;
		snprintf(d->act.reason, sizeof(d->act.reason), "%s",
			 PIPELINE_NO_PROBLEM);
	}
	if ((d->act.action == ACT_FORWARD || d->act.action == ACT_DIGEST) &&
	    unread_text(r, &unread)) {
		d->act.action = ACT_HOLD;
		d->act.period = 0;
		d->act.reply = false;
		snprintf(
			d->act.reason, sizeof(d->act.reason),
			r->flags & REPORT_TRUNCATED
				? "text longer than the rules read: %zu bytes "
				  "kept of more (cut when parsed), limit %u; "
				  "held for a triager"
				: "text longer than the rules read: %zu bytes, "
				  "limit %u; held for a triager",
			unread, RULES_WHOLE_MAX);
	}
	if (thin_own_text(p, d) && d->act.action == ACT_FORWARD) {
		d->act.action = ACT_HOLD;
		d->act.reply = false;
		snprintf(
			d->act.reason, sizeof(d->act.reason),
			"its own text is %u line%s; the rest (%u lines) is quoted, after an \"Original Message\" line or attached (own_text_min_lines %ld)",
			d->own_lines, d->own_lines == 1 ? "" : "s",
			d->rest_lines,
			config_int(p->cfg, "own_text_min_lines"));
	}
	security_hold_mark(d, d->pick.outcome == PICK_PERSON && !contact);
	/* a forward to a list says why the list (act_fallback()): the
	 * decision's reason and X-Triage-Reason are the pick's */
	if (d->pick.outcome == PICK_TO_LIST && d->act.action == ACT_FORWARD &&
	    !d->act.security && d->pick.reason) {
		char *why = xasprintf("%s; %s", d->pick.reason, d->act.reason);

		free(d->pick.reason);
		d->pick.reason = why;
	}
	return rc;
}

void decision_release(struct decision *d)
{
	kind_result_release(&d->kind);
	evidence_free(d->ev);
	section_list_release(&d->sections);
	verdict_release(&d->verdict);
	pick_result_release(&d->pick);
	memset(d, 0, sizeof(*d));
}

/* decision_section - the section the recipient was picked for, or the best */
const char *decision_section(const struct pipeline *p, const struct decision *d)
{
	if (!p->map)
		return NULL;
	if (d->pick.section >= 0)
		return map_title(p->map, (uint32_t)d->pick.section);
	if (d->sections.n)
		return map_title(p->map, d->sections.v[0].section);
	return NULL;
}
