/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pipeline - the command layer's run of the stages over one report
 *
 * DESCRIPTION
 *	Not a stage: the one place that runs evidence -> classify -> map
 *	-> pick -> act, in that order, for triage-filter, 'triage explain'
 *	and 'triage serve', so that a dry run shows exactly what the
 *	filter does.  Intake and parse come before (the caller has a
 *	struct report: from a message, or from a Bugzilla bug); audit and
 *	deliver come after (the caller records and sends the decision).
 *
 *	pipeline_open() loads, once per process, everything the stages
 *	need, from routes.conf and the state directory:
 *
 *	  STATE_DIR/maintainers.idx   map (else the 'maintainers' text)
 *	  STATE_DIR/symbols.idx       symbol index           (optional)
 *	  STATE_DIR/printk.idx        kernel log formats     (optional)
 *	  rules_dir, local_rules      classifier rules
 *	  STATE_DIR/model.bin         statistical model      (optional)
 *	  STATE_DIR/experts.idx       Reviewed-by experts    (optional)
 *	  STATE_DIR/experts.idx.commits  commit authors and reviewers,
 *	                              read for a regression's culprit
 *
 *	What is missing degrades to "a human decides", never to a lost
 *	report: without a map every report is unmapped (held); without
 *	rules every report is uncertain (held).  pipeline->missing says
 *	what was missing, for one warning line.
 *
 * Ownership:
 *	struct pipeline owns what it loaded; pipeline_close().  struct
 *	decision owns its evidence, sections, verdict and pick result, not
 *	the report; decision_release().
 *
 * Errors:
 *	pipeline_open() returns -1 only for an unusable configuration
 *	(after printing why).  pipeline_route() and pipeline_run() return
 *	-1 when the pick could not read a load (the load callback printed
 *	why): the decision is then a hold for want of a person, never a
 *	forward on a load read as zero; the caller records nothing.
 */
#ifndef TRIAGE_PIPELINE_H
#define TRIAGE_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "act.h"
#include "classify.h"
#include "crashsig.h"
#include "pick.h"
#include "regression.h"
#include "sections.h"
#include "thread.h"

struct config;
struct evidence;
struct experts;
struct map;
struct model;
struct report;
struct ruleset;
struct symbols;
struct printk_index;

struct strbuf;

struct pipeline {
	const struct config *cfg;
	struct map *map;
	struct symbols *syms;
	struct printk_index *printk; /* NULL: no log lines matched */
	struct ruleset *rules;
	struct model *model;
	struct experts *experts;
	char *commits; /* the experts' commit table (experts.h), or NULL */
	struct pick_config *pick;
	struct act_config act;
	/* how many reports each person got since a time (audit) */
	int (*load)(void *ctx, const char *addr, time_t day_start,
		    time_t week_start, unsigned *day, unsigned *week);
	void *load_ctx;
	/* what people declared by mail (pick.h's person; NULL: nothing) */
	int (*person)(void *ctx, const char *addr, time_t *away_until,
		      int *cap_day);
	/*
	 * the copy of a message that cannot go out as it came, which the
	 * record stage keeps (parse.h's parse_sendable(), set by the
	 * filter, which links GMime; NULL: none is made)
	 */
	int (*sendable)(const struct report *r, struct strbuf *out);
	char missing[256]; /* "no symbol index; no model" or "" */
};

/* the hold reason of a new message with no sign of a bug (pipeline.c) */
#define PIPELINE_NO_PROBLEM                                                \
	"no sign of a bug anyone hit: no crash, no rule reached the user " \
	"threshold, and neither the subject nor the text says that "       \
	"something went wrong (or the subject asks a question)"

struct decision {
	struct kind_result kind; /* what the message is (kind.h) */
	const char *hold;	 /* why it is held whatever it is, or NULL */
	struct evidence *ev;
	struct section_list sections;
	double model[CLASS_N];
	bool model_voted;
	struct verdict verdict;
	const char *cls; /* "user", "fuzzer", "ai", "uncertain" */
	bool mapped;	 /* some section besides THE REST */
	bool judged;	 /* pipeline_judge() ran */
	bool no_problem; /* no sign of a bug: held (PIPELINE_NO_PROBLEM) */
	/* why a message that would be held so is not: its writer tells a
	 * failure on a system it shows (pipeline.c told_failure()), or "" */
	char told[192];
	/* nonblank lines of its own text and of the rest (quoted, after a
	 * marker, attached): rules_text_lines() */
	unsigned own_lines, rest_lines;
	struct pick_result pick;
	struct act_decision act;
	char class_header[VERDICT_HEADER_MAX];

	/* what groups it with other reports (crashsig.h, regression.h) */
	char crash_signature[CRASHSIG_MAX]; /* "" when no crash title */
	char syzbot_id[CRASHSIG_SYZ_MAX];   /* "" when none */
	struct regression regression;
	/* filled by the caller with a database (link_find()), else zero */
	struct link link;
};

int pipeline_open(struct pipeline *p, const struct config *cfg);
/*
 * pipeline_inputs - the files and directories pipeline_open() reads for
 * cfg (crashlog.rx, which the process loads once, included): a
 * resident worker that keeps its pipeline open compares their stat()
 * before each message.  Fills at most max malloc'ed paths, returns how
 * many.
 */
size_t pipeline_inputs(const struct config *cfg, char **paths, size_t max);
void pipeline_close(struct pipeline *p);

/*
 * The filter runs the stages in steps, so that a message is known for
 * what it is, and joined to its thread, before anything is classified
 * (thread.h), and so that only the pick, which weighs the loads the
 * database holds, runs under the write lock:
 *
 *   pipeline_begin()     its kind (a fresh decision)
 *   pipeline_evidence()  evidence and regression facts: what a message
 *                        that joins a report adds to it
 *   pipeline_judge()     classify, crash identity, map: a new report
 *                        only; reads no database, so the filter runs it
 *                        before BEGIN IMMEDIATE (16 concurrent filters
 *                        otherwise wait on each other's classification)
 *   pipeline_route()     pick and act (judging first if not yet done):
 *                        inside the transaction that records it
 *
 * pipeline_run() is all of them in order ('triage explain' stops after
 * the kind of a message that is no report; Bugzilla bugs are reports).
 */
void pipeline_begin(const struct report *r, struct decision *d);
/*
 * pipeline_kind_sender - after pipeline_begin(), what the map knows of
 * the sender settles a kind the kind stage (which reads no index)
 * decided from its words alone: a new message called spam because its
 * text names nothing of the kernel (kind.h names_nothing), from an M:,
 * R: or B: person of MAINTAINERS (authenticated when routes.conf names
 * authserv_id), is a discussion: the kernel's own people write of its
 * world (an election, a plan, a question about their work) in words
 * no list holds, and junk does not come from their addresses.  What
 * must be held (d->hold) keeps its kind.
 */
void pipeline_kind_sender(const struct pipeline *p, const struct report *r,
			  struct decision *d);
void pipeline_evidence(struct pipeline *p, const struct report *r,
		       struct decision *d);
void pipeline_judge(struct pipeline *p, const struct report *r,
		    struct decision *d);
int pipeline_route(struct pipeline *p, const struct report *r, time_t now,
		   struct decision *d);
int pipeline_run(struct pipeline *p, const struct report *r, time_t now,
		 struct decision *d);
void decision_release(struct decision *d);

/* decision_section - title of the chosen (or best) section, or NULL */
const char *decision_section(const struct pipeline *p,
			     const struct decision *d);

#endif
