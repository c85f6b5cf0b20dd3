// SPDX-License-Identifier: GPL-2.0-only
/*
 * triage pending - what waits for a human
 *
 * DESCRIPTION
 *	triage pending [--class CLASS] [--section SECTION] [--unmapped]
 *		       [--json] [--color[=WHEN]] [--no-color] [--no-pager]
 *
 *	Lists, regressions first, then oldest first, everything that
 *	waits for a human: the reports held for a triager (ai,
 *	uncertain, unmapped, held fuzzer reports, mail loops), follow-ups
 *	to a report that does not wait any more (rejected, forwarded:
 *	new information nobody would see), the reports whose delivery
 *	failed, failed outbox rows of no report (a digest), and Bugzilla
 *	webhook events whose fetch failed, one line each:
 *
 *	  ID AGE CLASS SECTION SUBJECT FROM WHY
 *
 *	CLASS is the class and the classifier's confidence ("ai 93%"),
 *	"failed" for a failed delivery or "webhook" for an event; SECTION
 *	is "-" when unmapped; ID is "-" for an outbox row of no report,
 *	"bz:N" for event N; WHY is why it waits (the hold reason, the
 *	delivery error, the closed report a follow-up belongs to, the
 *	fetch error).  On a terminal a heading comes first, the columns
 *	are aligned and cut to its width, coloured, and paged; otherwise
 *	the fields are separated by tabs and never cut.  --json prints an
 *	array of objects instead, with the same rows and "reason" (WHY),
 *	"kind" (report, follow-up, outbox, webhook event), "event_id" and
 *	"thread_root".
 *
 *	Messages held because their kind was decided from the subject
 *	or a question alone (kind.h's kind_held_unsure()) come last, as a
 *	group after a line of its own ("# N held, ..." when plain;
 *	"subject_only" in --json): the reports come first.
 *
 *	A regression's SUBJECT starts with "[regression] "; a report with
 *	follow-ups or later reports of the same crash ends with
 *	"[+N replies]" and "[+N seen again]" (follow-ups that wait with
 *	their thread's first report are not listed: approving it sends
 *	them along).
 */
#include <stddef.h>
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
#include "map.h"
#include "strbuf.h"
#include "util.h"

#define SECTION_COLS 24
#define FROM_COLS    28
#define REASON_COLS  36
#define SUBJECT_MIN  16
#define SUBJECT_WANT 40
#define NARROW_COLS  12

struct row {
	int64_t id, outbox, received_at, event, thread_root;
	char *state, *class, *section, *subject, *from, *reason, *last_error;
	char *root_state;
	double confidence;
	bool classified;
	bool regression;
	bool subject_only; /* held: its kind rests on its words alone */
	long followups, seen_again;
	/* cleaned, as shown */
	char *c_id, *c_age, *c_class, *c_section, *c_subject, *c_from;
	char *why; /* why it waits: the reason column */
};

struct rows {
	struct row *v;
	size_t n, alloc;
};

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static int collect(const struct audit_pending *p, void *arg)
{
	struct rows *rs = arg;
	struct row *r;

	ALLOC_GROW(rs->v, rs->n, rs->alloc);
	r = &rs->v[rs->n++];
	memset(r, 0, sizeof(*r));
	r->id = p->id;
	r->outbox = p->outbox_id;
	r->received_at = p->received_at;
	r->state = xstrdup(p->state ? p->state : "");
	r->class = xstrdup(p->class ? p->class : "");
	r->section = dup_or_null(p->section);
	r->subject = xstrdup(p->subject ? p->subject : "");
	r->from = xstrdup(p->from ? p->from : "");
	r->reason = dup_or_null(p->reason);
	r->last_error = dup_or_null(p->last_error);
	r->regression = p->regression;
	r->followups = p->followups;
	r->seen_again = p->seen_again;
	r->event = p->event_id;
	r->thread_root = p->thread_root;
	r->root_state = dup_or_null(p->root_state);
	r->subject_only = !r->event && !r->thread_root &&
			  strcmp(r->state, "failed") &&
			  kind_held_unsure(r->reason);
	return 0;
}

/*
 * group - the messages held because their subject or a question alone
 * decided their kind (kind_held_unsure(): a discussion, a question, a
 * follow-up by its "Re:") go after
 * everything else, in the same order: a triager sees the reports first
 */
static void group(struct rows *rs)
{
	struct row *v = xcalloc(rs->n ? rs->n : 1, sizeof(*v));
	size_t i, n = 0;

	for (i = 0; i < rs->n; i++)
		if (!rs->v[i].subject_only)
			v[n++] = rs->v[i];
	for (i = 0; i < rs->n; i++)
		if (rs->v[i].subject_only)
			v[n++] = rs->v[i];
	free(rs->v);
	rs->v = v;
	rs->alloc = rs->n;
}

/*
 * group_heading - the line before the group of messages held from their
 * subject alone, when row i is its first (on a terminal: bold, cut to its
 * width; otherwise after "# ")
 */
static void group_heading(const struct rows *rs, size_t i,
			  const struct desk_term *t)
{
	struct strbuf sb = STRBUF_INIT(1024);
	size_t held = 0, j;
	char *text;

	if (!rs->v[i].subject_only || (i && rs->v[i - 1].subject_only))
		return;
	for (j = i; j < rs->n; j++)
		held += rs->v[j].subject_only;
	text = xasprintf(
		"%zu held, kind decided from the subject or a question alone (not reports by their words; a report may be among them):",
		held);
	if (t->tty) {
		desk_fit(&sb, text, t->columns > 1 ? t->columns - 1 : 1, false);
		printf("\n%s%s%s\n", desk_color(t, DESK_BOLD), sb_str(&sb),
		       desk_reset(t));
	} else {
		printf("# %s\n", text);
	}
	sb_release(&sb);
	free(text);
}

static void rows_release(struct rows *rs)
{
	size_t i;

	for (i = 0; i < rs->n; i++) {
		struct row *r = &rs->v[i];

		free(r->state);
		free(r->class);
		free(r->section);
		free(r->subject);
		free(r->from);
		free(r->reason);
		free(r->last_error);
		free(r->c_id);
		free(r->c_age);
		free(r->c_class);
		free(r->c_section);
		free(r->c_subject);
		free(r->c_from);
		free(r->root_state);
		free(r->why);
	}
	free(rs->v);
}

/*
 * add_confidence - the classifier's confidence, from the report's record
 * (none when a triager changed the class)
 */
static int add_confidence(struct audit *db, struct row *r)
{
	struct audit_record rec;
	int rc;

	if (!r->id)
		return 0;
	rc = audit_get_report(db, r->id, 0, &rec);
	if (rc < 0)
		return -1;
	if (rc == 1 && rec.classification && rec.class &&
	    !strcmp(rec.class, rec.classification->class)) {
		r->confidence = rec.classification->confidence;
		r->classified = true;
	}
	if (rc == 1)
		audit_record_release(&rec);
	return 0;
}

static char *clean(const char *s)
{
	struct strbuf sb = STRBUF_INIT(64 * 1024);

	desk_clean(&sb, s, strlen(s), 0);
	if (!sb.buf)
		return xstrdup("");
	return sb_detach(&sb, NULL);
}

/* the clause of a decision's reason that record.c gives a reply in a
 * report's thread that carries a crash of its own */
#define OWN_CRASH "; a reply in report %lld's thread carries its own crash ("

/*
 * why - why a row waits for a human, in a few words: the hold reason,
 * the delivery error, a follow-up whose report was closed, a Bugzilla
 * event not fetched (a static buffer, or the row's own text)
 */
static const char *why(const struct row *r)
{
	static char buf[DESK_TEXT_MAX + 128];

	if (r->event) {
		snprintf(buf, sizeof(buf), "%s%s%s", r->reason ? r->reason : "",
			 r->last_error ? ": " : "",
			 r->last_error ? r->last_error : "");
		return buf;
	}
	if (!strcmp(r->state, "failed")) {
		snprintf(buf, sizeof(buf), "delivery failed: %s",
			 r->last_error ? r->last_error : "?");
		return buf;
	}
	if (r->thread_root) {
		/* a reply with a crash of its own says so (record.c) */
		char mark[96];
		const char *own;

		snprintf(mark, sizeof(mark), OWN_CRASH,
			 (long long)r->thread_root);
		own = r->reason ? strstr(r->reason, mark) : NULL;
		snprintf(buf, sizeof(buf),
			 "follow-up to #%lld, which is %s: %s",
			 (long long)r->thread_root,
			 r->root_state ? r->root_state : "closed",
			 own ? own + 2 : "new information for a triager");
		return buf;
	}
	return r->reason ? r->reason : "held";
}

static void prepare(struct row *r, time_t now)
{
	char age[32];

	r->c_id = r->id	     ? xasprintf("%lld", (long long)r->id)
		  : r->event ? xasprintf("bz:%lld", (long long)r->event)
			     : xstrdup("-");
	desk_format_age(now - (time_t)r->received_at, age, sizeof(age));
	r->c_age = xstrdup(age);
	if (r->event)
		r->c_class = xstrdup("webhook");
	else if (!strcmp(r->state, "failed"))
		r->c_class = xstrdup("failed");
	else if (!*r->class)
		r->c_class = xstrdup("-");
	else if (r->classified)
		r->c_class =
			xasprintf("%s %.0f%%", r->class, r->confidence * 100);
	else
		r->c_class = xstrdup(r->class);
	r->c_section = r->section ? clean(r->section) : xstrdup("-");
	r->c_subject = clean(r->subject);
	if (r->regression || r->followups || r->seen_again) {
		char *s = r->c_subject, more[96] = "";

		if (r->followups)
			snprintf(more, sizeof(more), " [+%ld %s]", r->followups,
				 r->followups == 1 ? "reply" : "replies");
		if (r->seen_again)
			snprintf(more + strlen(more),
				 sizeof(more) - strlen(more),
				 " [+%ld seen again]", r->seen_again);
		r->c_subject = xasprintf("%s%s%s",
					 r->regression ? "[regression] " : "",
					 s, more);
		free(s);
	}
	r->c_from = clean(r->from);
	r->why = clean(why(r));
	free(r->reason);
	r->reason = xstrdup(r->why);
}

static size_t max_width(const struct rows *rs, size_t off)
{
	size_t i, w = 0;

	for (i = 0; i < rs->n; i++) {
		const char *s = *(char *const *)((const char *)&rs->v[i] + off);
		size_t n = desk_width(s);

		if (n > w)
			w = n;
	}
	return w;
}

#define WIDTH(field) max_width(rs, offsetof(struct row, field))

/* cell - s cut to width columns, coloured, aligned, then two spaces */
static void cell(struct strbuf *sb, const struct desk_term *t,
		 const char *color, const char *s, size_t width, bool right,
		 bool last)
{
	size_t w = desk_width(s), pad;

	if (w > width)
		w = width;
	for (pad = w; right && pad < width; pad++)
		sb_addc(sb, ' ');
	sb_adds(sb, desk_color(t, color));
	desk_fit(sb, s, width, false);
	sb_adds(sb, desk_reset(t));
	if (last)
		return;
	for (pad = w; !right && pad < width; pad++)
		sb_addc(sb, ' ');
	sb_adds(sb, "  ");
}

static const char *row_color(const struct row *r)
{
	return desk_class_color(!strcmp(r->state, "failed") ? "failed"
							    : r->class);
}

/* at_least - a column is never narrower than its heading */
static size_t at_least(size_t w, const char *heading)
{
	size_t h = strlen(heading);

	return w > h ? w : h;
}

static void print_table(const struct rows *rs, const struct desk_term *t)
{
	size_t wid = at_least(WIDTH(c_id), "ID");
	size_t wage = at_least(WIDTH(c_age), "AGE");
	size_t wcls = at_least(WIDTH(c_class), "CLASS");
	size_t wsec = at_least(WIDTH(c_section), "SECTION");
	size_t wfrom = at_least(WIDTH(c_from), "FROM");
	size_t wwhy = at_least(WIDTH(why), "WHY");
	size_t wsub = at_least(WIDTH(c_subject), "SUBJECT"), avail, used, i;
	struct strbuf head = STRBUF_INIT(4096);

	/*
	 * The subject matters most: on a narrow terminal the sender, the
	 * reason, then the section give up columns first (down to
	 * NARROW_COLS).
	 */
	if (wsec > SECTION_COLS)
		wsec = SECTION_COLS;
	if (wfrom > FROM_COLS)
		wfrom = FROM_COLS;
	if (wwhy > REASON_COLS)
		wwhy = REASON_COLS;
	/* the last column stays free: some terminals wrap on it */
	used = wid + wage + wcls + 12 + 1;
	avail = t->columns > used ? t->columns - used : 0;
	while (wsec + wfrom + wwhy + SUBJECT_WANT > avail &&
	       (wwhy > NARROW_COLS || wfrom > NARROW_COLS ||
		wsec > NARROW_COLS)) {
		if (wfrom > NARROW_COLS)
			wfrom--;
		else if (wwhy > NARROW_COLS)
			wwhy--;
		else
			wsec--;
	}
	used = wsec + wfrom + wwhy;
	if (avail > used + SUBJECT_MIN && wsub > avail - used)
		wsub = avail - used;
	else if (avail <= used + SUBJECT_MIN && wsub > SUBJECT_MIN)
		wsub = SUBJECT_MIN;
	/*
	 * Still too wide (80 columns): the sender, then the reason give
	 * up more, down to their headings, so the last column stays free.
	 */
	while (wsec + wfrom + wwhy + wsub > avail &&
	       (wfrom > strlen("FROM") || wwhy > strlen("WHY"))) {
		if (wfrom > strlen("FROM"))
			wfrom--;
		else
			wwhy--;
	}
	if (rs->n) {
		cell(&head, t, DESK_BOLD, "ID", wid, true, false);
		cell(&head, t, DESK_BOLD, "AGE", wage, true, false);
		cell(&head, t, DESK_BOLD, "CLASS", wcls, false, false);
		cell(&head, t, DESK_BOLD, "SECTION", wsec, false, false);
		cell(&head, t, DESK_BOLD, "SUBJECT", wsub, false, false);
		cell(&head, t, DESK_BOLD, "FROM", wfrom, false, false);
		cell(&head, t, DESK_BOLD, "WHY", wwhy, false, true);
		printf("%s\n", sb_str(&head));
	} else {
		printf("nothing waits for a triager\n");
	}
	sb_release(&head);
	for (i = 0; i < rs->n; i++) {
		const struct row *r = &rs->v[i];
		struct strbuf sb = STRBUF_INIT(64 * 1024);

		group_heading(rs, i, t);
		cell(&sb, t, DESK_YELLOW, r->c_id, wid, true, false);
		cell(&sb, t, DESK_DIM, r->c_age, wage, true, false);
		cell(&sb, t, row_color(r), r->c_class, wcls, false, false);
		cell(&sb, t, DESK_CYAN, r->c_section, wsec, false, false);
		cell(&sb, t, "", r->c_subject, wsub, false, false);
		cell(&sb, t, DESK_DIM, r->c_from, wfrom, false, false);
		cell(&sb, t, "", r->why, wwhy, false, true);
		printf("%s\n", sb_str(&sb));
		sb_release(&sb);
	}
}

static void print_plain(const struct rows *rs, const struct desk_term *t)
{
	size_t i;

	for (i = 0; i < rs->n; i++) {
		const struct row *r = &rs->v[i];

		group_heading(rs, i, t);
		printf("%s%s%s\t%s\t%s%s%s\t%s\t%s\t%s\t%s\n",
		       desk_color(t, DESK_YELLOW), r->c_id, desk_reset(t),
		       r->c_age, desk_color(t, row_color(r)), r->c_class,
		       desk_reset(t), r->c_section, r->c_subject, r->c_from,
		       r->why);
	}
}

static json_t *jstr(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *to_json(const struct rows *rs, time_t now)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < rs->n; i++) {
		const struct row *r = &rs->v[i];
		json_t *o = json_object();

		json_object_set_new(o, "id",
				    r->id ? json_integer(r->id) : json_null());
		json_object_set_new(o, "outbox_id",
				    r->outbox ? json_integer(r->outbox)
					      : json_null());
		json_object_set_new(o, "received_at",
				    json_integer(r->received_at));
		json_object_set_new(o, "age",
				    json_integer(now - r->received_at));
		json_object_set_new(o, "state", json_string(r->state));
		json_object_set_new(o, "class",
				    *r->class ? json_string(r->class)
					      : json_null());
		json_object_set_new(o, "confidence",
				    r->classified ? json_real(r->confidence)
						  : json_null());
		json_object_set_new(o, "section", jstr(r->section));
		json_object_set_new(o, "subject", json_string(r->subject));
		json_object_set_new(o, "from", json_string(r->from));
		json_object_set_new(o, "reason", jstr(r->reason));
		json_object_set_new(o, "last_error", jstr(r->last_error));
		json_object_set_new(o, "regression",
				    json_boolean(r->regression));
		json_object_set_new(o, "followups", json_integer(r->followups));
		json_object_set_new(o, "seen_again",
				    json_integer(r->seen_again));
		json_object_set_new(o, "kind",
				    json_string(r->event ? "webhook event"
						: r->thread_root ? "follow-up"
						: r->id		 ? "report"
								 : "outbox"));
		json_object_set_new(o, "subject_only",
				    json_boolean(r->subject_only));
		json_object_set_new(o, "event_id",
				    r->event ? json_integer(r->event)
					     : json_null());
		json_object_set_new(o, "thread_root",
				    r->thread_root
					    ? json_integer(r->thread_root)
					    : json_null());
		json_array_append_new(a, o);
	}
	return a;
}

/* cmd_pending - list what waits for a human */
int cmd_pending(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const char *const usage[] = { "triage pending [OPTIONS]", NULL };
	struct audit_pending_filter f = { NULL, NULL, false };
	struct cmd_output view = CMD_OUTPUT_INIT;
	const struct opt opts[] = {
		OPT_STRING(
			0, "class", &f.class, "CLASS",
			"only reports of CLASS: user, fuzzer, ai, uncertain"),
		OPT_STRING(0, "section", &f.section, "SECTION",
			   "only reports of a MAINTAINERS section"),
		OPT_BOOL(0, "unmapped", &f.unmapped,
			 "only reports mapped to no section"),
		OPT_CMD_OUTPUT(&view),
		OPT_END(),
	};
	struct rows rs = { NULL, 0, 0 };
	struct desk_term term;
	struct audit *db;
	time_t now = desk_now();
	char *section = NULL;
	size_t i;
	int ret;

	if (parse_options(argc, argv, opts, usage, 0))
		usage_with_options(usage, opts);
	if (f.class && !audit_valid_class(f.class)) {
		error("--class takes user, fuzzer, ai or uncertain, not '%s'",
		      f.class);
		return EX_USAGE;
	}
	if (f.section) {
		/* a title in any case or a part of one, as reroute takes */
		struct map *map = cmd_open_map(ctx, NULL, NULL, NULL);
		int sec = map ? cmd_find_section(map, f.section) : -1;

		if (sec >= 0)
			f.section = section =
				xstrdup(map_title(map, (uint32_t)sec));
		map_free(map);
		if (sec < 0)
			return map ? EX_DATAERR : EX_CONFIG;
	}
	ret = desk_open(cmd_config(ctx), DESK_READ, &db);
	if (ret) {
		free(section);
		return ret;
	}
	if (audit_pending_list(db, &f, collect, &rs) < 0) {
		ret = EX_IOERR;
		goto out;
	}
	for (i = 0; i < rs.n; i++) {
		if (add_confidence(db, &rs.v[i]) < 0) {
			ret = EX_IOERR;
			goto out;
		}
		prepare(&rs.v[i], now);
	}
	group(&rs);
	if (view.json) {
		cmd_print_json(to_json(&rs, now));
		goto out;
	}
	cmd_term_setup(&term, &view, true);
	if (term.tty)
		print_table(&rs, &term);
	else
		print_plain(&rs, &term);
	desk_term_finish(&term);
out:
	rows_release(&rs);
	audit_close(db);
	free(section);
	return ret;
}
