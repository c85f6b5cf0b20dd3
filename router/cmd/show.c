// SPDX-License-Identifier: GPL-2.0-only
/*
 * triage show - one report and every decision about it
 *
 * DESCRIPTION
 *	triage show [--raw [--force] | --json] [--color[=WHEN]] [--no-color]
 *		    [--no-pager] ID
 *
 *	Prints what triage knows about report ID, in blocks separated by
 *	blank lines: the message (received, sender, subject, ids), the
 *	evidence (crash title, guilty file, frames, kernel, hardware,
 *	reproducer), the classification (class and confidence, scores,
 *	the rules that fired, the X-Triage-Class header), the MAINTAINERS
 *	sections with why, every decision (action, recipient, reason and
 *	the candidates considered with score, status and why), every
 *	outbox row with its delivery attempts, the triagers' actions and
 *	notes, and then the message's decoded text indented by four
 *	spaces (git show's commit message).  Text taken from the message
 *	is made safe for a terminal (desk.h).
 *
 *	--raw prints the message exactly as it arrived, byte for byte,
 *	and nothing else; not to a terminal (its bytes may be escape
 *	sequences) unless --force.  --json prints one object with all of
 *	it.  On a terminal the fields and the text are folded at spaces to
 *	its width.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sysexits.h>

#include "archive.h"
#include "audit.h"
#include "cmd.h"
#include "config.h"
#include "desk.h"
#include "evidence.h"
#include "strbuf.h"
#include "util.h"

#define FRAMES_SHOWN 24
#define FILES_SHOWN  12

#define SAFE_SLOTS 4

struct out {
	const struct desk_term *t;
	FILE *f; /* stdout, or a buffer folded to a terminal's width */
	struct strbuf sb[SAFE_SLOTS]; /* scratch for cleaned text */
	unsigned next;
	const char *archive; /* the message's archive link, or NULL */
};

/* safe - s cleaned to one line (valid for the next SAFE_SLOTS - 1 calls) */
static const char *safe(struct out *o, const char *s)
{
	struct strbuf *sb = &o->sb[o->next++ % SAFE_SLOTS];

	sb_reset(sb);
	if (!s)
		return "";
	desk_clean(sb, s, strlen(s), 0);
	return sb_str(sb);
}

static const char *col(struct out *o, const char *sgr)
{
	return desk_color(o->t, sgr);
}

static const char *off(struct out *o)
{
	return desk_reset(o->t);
}

/* label - a field's name in its column; a longer one still ends in a space */
static void label(struct out *o, const char *name)
{
	fprintf(o->f, "%-9s ", name);
}

static void when(time_t t, time_t now, char *buf, size_t size)
{
	char ts[64], age[32];

	desk_format_time(t, ts, sizeof(ts));
	desk_format_age(now - t, age, sizeof(age));
	snprintf(buf, size, "%s (%s ago)", ts, age);
}

static void show_message(struct out *o, const struct audit_record *r,
			 time_t now)
{
	char buf[128];

	label(o, "report");
	fprintf(o->f, "%s%lld%s  %s%s%s", col(o, DESK_YELLOW), (long long)r->id,
		off(o), col(o, DESK_BOLD), safe(o, r->state), off(o));
	/* a message that is no report says what it is */
	if (r->kind && strcmp(r->kind, "report"))
		fprintf(o->f, ", a %s", safe(o, r->kind));
	fputc('\n', o->f);
	when((time_t)r->received_at, now, buf, sizeof(buf));
	label(o, "received");
	fprintf(o->f, "%s by %s, %zu bytes\n", buf, safe(o, r->source),
		r->size);
	label(o, "from");
	fprintf(o->f, "%s\n", safe(o, r->from_display));
	label(o, "subject");
	fprintf(o->f, "%s\n", safe(o, r->subject));
	if (r->date_header) {
		label(o, "date");
		fprintf(o->f, "%s\n", safe(o, r->date_header));
	}
	if (r->message_id) {
		label(o, "message");
		fprintf(o->f, "<%s>\n", safe(o, r->message_id));
	}
	if (o->archive) {
		label(o, "archive");
		fprintf(o->f, "%s\n", safe(o, o->archive));
	}
	if (r->envelope_from || r->envelope_to) {
		label(o, "envelope");
		fprintf(o->f, "%s",
			safe(o, r->envelope_from ? r->envelope_from : "-"));
		fprintf(o->f, " -> %s\n",
			safe(o, r->envelope_to ? r->envelope_to : "-"));
	}
	if (r->bug_id) {
		label(o, "bug");
		fprintf(o->f, "%ld %s\n", r->bug_id, safe(o, r->bug_url));
	}
	label(o, "sha256");
	fprintf(o->f, "%s\n", r->sha256);
	if (r->duplicate_of) {
		label(o, "duplicate");
		fprintf(o->f, "of report %lld\n", (long long)r->duplicate_of);
	}
	if (r->deliveries > 1) {
		label(o, "delivered");
		fprintf(o->f, "%d times by the MTA\n", r->deliveries);
	}
}

static void show_evidence(struct out *o, const struct evidence *ev)
{
	size_t i;

	if (!ev)
		return;
	fputc('\n', o->f);
	if (ev->title) {
		label(o, "crash");
		fprintf(o->f, "%s%s%s", col(o, DESK_BOLD), safe(o, ev->title),
			off(o));
		fprintf(o->f, " (%s)\n", safe(o, ev->crash_type));
	}
	if (ev->guilty_file) {
		label(o, "guilty");
		fprintf(o->f, "%s\n", safe(o, ev->guilty_file));
	}
	for (i = 0; i < ev->nframes && i < FRAMES_SHOWN; i++) {
		const struct frame *f = &ev->frames[i];

		label(o, i ? "" : "frames");
		fprintf(o->f, "%s%s", f->unreliable ? "? " : "",
			safe(o, f->function ? f->function : "?"));
		if (f->module)
			fprintf(o->f, " [%s]", safe(o, f->module));
		if (f->inlined)
			fprintf(o->f, " (inlined)");
		if (f->file) {
			fprintf(o->f, "  %s", safe(o, f->file));
			if (f->line)
				fprintf(o->f, ":%d", f->line);
			if (f->from_index)
				fprintf(o->f, " (index)");
		}
		fputc('\n', o->f);
	}
	if (ev->nframes > FRAMES_SHOWN) {
		label(o, "");
		fprintf(o->f, "... %zu more frames\n",
			ev->nframes - FRAMES_SHOWN);
	}
	if (ev->nfiles) {
		label(o, "files");
		for (i = 0; i < ev->nfiles && i < FILES_SHOWN; i++)
			fprintf(o->f, "%s%s", i ? " " : "",
				safe(o, ev->files[i]));
		if (ev->nfiles > FILES_SHOWN)
			fprintf(o->f, " (+%zu)", ev->nfiles - FILES_SHOWN);
		fputc('\n', o->f);
	}
	if (ev->kernel_version) {
		label(o, "kernel");
		fprintf(o->f, "%s", safe(o, ev->kernel_version));
		if (ev->distro_kernel)
			fprintf(o->f, " (distribution kernel)");
		if (ev->tainted)
			fprintf(o->f, ", %s", safe(o, ev->tainted));
		fputc('\n', o->f);
	}
	if (ev->hardware) {
		label(o, "hardware");
		fprintf(o->f, "%s%s\n", safe(o, ev->hardware),
			ev->hw_virtual ? " (virtual)" : "");
	}
	if (ev->reproducer) {
		label(o, "repro");
		fprintf(o->f, "%s%s%s\n", ev->reproducer & REPRO_C ? "C " : "",
			ev->reproducer & REPRO_SYZ ? "syz " : "",
			ev->reproducer & REPRO_STEPS ? "steps" : "");
	}
	if (ev->bisect_commit) {
		label(o, "bisect");
		fprintf(o->f, "%s\n", safe(o, ev->bisect_commit));
	}
	for (i = 0; i < ev->nreported_by; i++) {
		label(o, i ? "" : "reported");
		fprintf(o->f, "%s\n", safe(o, ev->reported_by[i]));
	}
	if (ev->subject_prefix) {
		label(o, "prefix");
		fprintf(o->f, "%s\n", safe(o, ev->subject_prefix));
	}
}

static void show_class(struct out *o, const struct audit_record *r)
{
	const struct audit_classification *c = r->classification;
	size_t i;

	fputc('\n', o->f);
	label(o, "class");
	if (!c) {
		fprintf(o->f, "%s\n", r->class ? r->class : "(not classified)");
		return;
	}
	if (r->class && strcmp(r->class, c->class)) {
		fprintf(o->f,
			"%s%s%s  (reclassified; the classifier said %s %.0f%%)\n",
			col(o, desk_class_color(r->class)), r->class, off(o),
			c->class, c->confidence * 100);
		label(o, "");
	} else {
		fprintf(o->f, "%s%s%s %.0f%%  ",
			col(o, desk_class_color(c->class)), c->class, off(o),
			c->confidence * 100);
	}
	fprintf(o->f, "(user %.1f, fuzzer %.1f, ai %.1f%s)\n", c->score_user,
		c->score_fuzzer, c->score_ai, c->certain ? "; certain" : "");
	if (c->header) {
		label(o, "header");
		fprintf(o->f, "X-Triage-Class: %s\n", safe(o, c->header));
	}
	for (i = 0; i < c->nhits; i++) {
		const struct audit_rule_hit *h = &c->hits[i];

		label(o, i ? "" : "rules");
		fprintf(o->f, "%-24s %+5.1f  %s\n", safe(o, h->name), h->score,
			h->describe ? h->describe : "");
	}
	for (i = 0; i < r->nsections; i++) {
		label(o, i ? "" : "sections");
		fprintf(o->f, "%s%s%s", col(o, DESK_CYAN),
			safe(o, r->sections[i].name), off(o));
		fprintf(o->f, "  %.2f  %s\n", r->sections[i].score,
			safe(o, r->sections[i].why));
	}
	if (!r->nsections) {
		label(o, "sections");
		fprintf(o->f, "none (unmapped)\n");
	}
}

static void show_decisions(struct out *o, const struct audit_record *r,
			   time_t now)
{
	char buf[128];
	size_t i, k;

	for (i = 0; i < r->ndecisions; i++) {
		const struct audit_decision *d = &r->decisions[i];
		struct desk_candidate *cv;
		size_t nc = desk_candidates(d->candidates, &cv);

		fputc('\n', o->f);
		when((time_t)d->at, now, buf, sizeof(buf));
		label(o, "decision");
		fprintf(o->f, "%s%s%s  %s\n", col(o, DESK_BOLD),
			safe(o, d->action), off(o), buf);
		if (d->recipient) {
			label(o,
			      strcmp(d->action, "forward") ? "picked" : "to");
			fprintf(o->f, "%s", safe(o, d->recipient));
			if (d->recipient_name && *d->recipient_name)
				fprintf(o->f, " (%s)",
					safe(o, d->recipient_name));
			fputc('\n', o->f);
		}
		label(o, "reason");
		fprintf(o->f, "%s\n", safe(o, d->reason));
		for (k = 0; k < nc; k++) {
			label(o, k ? "" : "candidate");
			fprintf(o->f, "%s", safe(o, cv[k].addr));
			fprintf(o->f, "  %.2f  %s%s%s", cv[k].score,
				!strcmp(cv[k].status, "chosen")
					? col(o, DESK_GREEN)
					: "",
				safe(o, cv[k].status),
				!strcmp(cv[k].status, "chosen") ? off(o) : "");
			fprintf(o->f, ": %s\n", safe(o, cv[k].why));
		}
		desk_candidates_free(cv, nc);
	}
}

static void show_outbox(struct out *o, const struct audit_record *r, time_t now)
{
	char buf[128];
	size_t i, k;

	for (i = 0; i < r->noutbox; i++) {
		const struct audit_outbox_info *b = &r->outbox[i];
		const char *sgr = !strcmp(b->state, "sent")	? DESK_GREEN
				  : !strcmp(b->state, "failed") ? DESK_RED
								: DESK_YELLOW;

		fputc('\n', o->f);
		label(o, "outbox");
		fprintf(o->f, "%lld %s to %s: %s%s%s", (long long)b->id,
			safe(o, b->kind), safe(o, b->recipients), col(o, sgr),
			safe(o, b->state), off(o));
		fprintf(o->f, ", %d attempt%s, %zu bytes\n", b->attempts,
			b->attempts == 1 ? "" : "s", b->message_len);
		when((time_t)b->created_at, now, buf, sizeof(buf));
		label(o, "");
		fprintf(o->f, "queued %s\n", buf);
		for (k = 0; k < b->ntries; k++) {
			const struct audit_attempt *a = &b->tries[k];

			when((time_t)a->at, now, buf, sizeof(buf));
			label(o, "");
			fprintf(o->f, "%s %s", buf, a->ok ? "ok" : "failed");
			if (a->smtp_code)
				fprintf(o->f, " %d", a->smtp_code);
			fprintf(o->f, ": %s\n", safe(o, a->detail));
		}
		if (b->last_error && strcmp(b->state, "sent") &&
		    (!b->ntries ||
		     strcmp(b->tries[b->ntries - 1].detail, b->last_error))) {
			label(o, "");
			fprintf(o->f, "last error: %s\n",
				safe(o, b->last_error));
		}
	}
}

static void show_actions(struct out *o, const struct audit_record *r,
			 time_t now)
{
	char buf[128];
	size_t i;

	if (r->nactions)
		fputc('\n', o->f);
	for (i = 0; i < r->nactions; i++) {
		const struct audit_action *a = &r->actions[i];
		bool note = !strcmp(a->action, "note");

		when((time_t)a->at, now, buf, sizeof(buf));
		label(o, note ? "note" : "action");
		if (!note) {
			fprintf(o->f, "%s%s%s", col(o, DESK_BOLD),
				safe(o, a->action), off(o));
			if (a->argument)
				fprintf(o->f, " %s", safe(o, a->argument));
			if (a->previous)
				fprintf(o->f, " (was %s)",
					safe(o, a->previous));
			fputc('\n', o->f);
			label(o, "");
		}
		fprintf(o->f, "by %s%s%s, %s\n", col(o, DESK_YELLOW),
			safe(o, a->who), off(o), buf);
		if (a->detail && *a->detail) {
			label(o, "");
			fprintf(o->f, "%s\n", safe(o, a->detail));
		}
	}
}

/*
 * put_wrapped - one line of the body, indented; on a terminal, folded
 * at spaces to its width (a terminal folds mid-word), continuations
 * indented alike.  Columns are counted per character (UTF-8 lead byte).
 */
static void put_wrapped(const char *p, size_t len, size_t width)
{
	while (len) {
		size_t cols = 0, i, cut = len, space = 0;

		for (i = 0; i < len; i++) {
			if (((unsigned char)p[i] & 0xc0) == 0x80)
				continue;
			if (width && cols == width) {
				cut = i;
				break;
			}
			if (p[i] == ' ')
				space = i;
			cols++;
		}
		if (cut < len && space > 0)
			cut = space;
		printf("    %.*s\n", (int)cut, p);
		while (cut < len && p[cut] == ' ')
			cut++;
		p += cut;
		len -= cut;
	}
}

/*
 * fold_fields - the fields, each line longer than the terminal folded
 * at spaces, the rest under the field's text (after its 10-column
 * label): a rule's description, a reason, a long subject would wrap
 * mid-word.  The colours are ours (desk_clean took every ESC out of
 * what the message said) and take no column.
 */
static void fold_fields(const char *p, size_t len, size_t width)
{
	const size_t indent = 10;
	size_t room = width;

	while (len) {
		size_t cols = 0, i, cut = len, space = 0;

		if (*p == '\n') {
			putchar('\n');
			p++, len--, room = width;
			continue;
		}
		for (i = 0; i < len && p[i] != '\n'; i++) {
			if (p[i] == '\033') {
				while (i + 1 < len && p[i] != 'm')
					i++;
				continue;
			}
			if (((unsigned char)p[i] & 0xc0) == 0x80)
				continue;
			if (cols == room) {
				cut = i;
				break;
			}
			/* a space past the label: not one of its padding */
			if (p[i] == ' ' && (room < width || cols > indent))
				space = i;
			cols++;
		}
		if (cut == len || i == len || p[i] == '\n')
			cut = i;
		else if (space > 0)
			cut = space;
		fwrite(p, 1, cut, stdout);
		while (cut < len && p[cut] == ' ')
			cut++;
		p += cut;
		len -= cut;
		if (len && *p != '\n') {
			/* a fold: the text goes on under the field's text */
			printf("\n%*s", (int)indent, "");
			room = width - indent;
		}
	}
}

static void show_body(const struct audit_record *r, const struct desk_term *t)
{
	struct strbuf sb = STRBUF_INIT(r->body_len * 2 + 64);
	const char *p, *eol;
	/* four columns of indent, and the last one left free */
	size_t width = t->tty && t->columns > 24 ? t->columns - 5 : 0;

	if (!r->body || !r->body_len)
		return;
	desk_clean(&sb, r->body, r->body_len, DESK_MULTILINE);
	putchar('\n');
	for (p = sb_str(&sb); *p; p = *eol ? eol + 1 : eol) {
		eol = strchrnul(p, '\n');
		if (eol == p)
			putchar('\n');
		else
			put_wrapped(p, (size_t)(eol - p), width);
	}
	sb_release(&sb);
}

/* ---- JSON ------------------------------------------------------------ */

static json_t *class_json(const struct audit_classification *c)
{
	json_t *o, *hits;
	size_t i;

	if (!c)
		return json_null(); /* a follow-up has no verdict of its own */
	hits = json_array();
	for (i = 0; i < c->nhits; i++)
		json_array_append_new(
			hits, json_pack("{s:o, s:f, s:o}", "name",
					cmd_json_str(c->hits[i].name), "score",
					c->hits[i].score, "describe",
					cmd_json_str(c->hits[i].describe)));
	o = json_object();
	json_object_set_new(o, "class", cmd_json_str(c->class));
	json_object_set_new(o, "scores",
			    json_pack("{s:f, s:f, s:f}", "user", c->score_user,
				      "fuzzer", c->score_fuzzer, "ai",
				      c->score_ai));
	json_object_set_new(o, "confidence", json_real(c->confidence));
	json_object_set_new(o, "certain", json_boolean(c->certain));
	json_object_set_new(o, "model_version", cmd_json_str(c->model_version));
	json_object_set_new(o, "header", cmd_json_str(c->header));
	json_object_set_new(o, "classified_at", json_integer(c->at));
	json_object_set_new(o, "rules", hits);
	return o;
}

static json_t *decisions_json(const struct audit_record *r)
{
	json_t *a = json_array();
	size_t i, k;

	for (i = 0; i < r->ndecisions; i++) {
		const struct audit_decision *d = &r->decisions[i];
		struct desk_candidate *cv;
		size_t nc = desk_candidates(d->candidates, &cv);
		json_t *o = json_object(), *ca = json_array();

		for (k = 0; k < nc; k++)
			json_array_append_new(
				ca, json_pack("{s:o, s:f, s:o, s:o}", "address",
					      cmd_json_str(cv[k].addr), "score",
					      cv[k].score, "status",
					      cmd_json_str(cv[k].status), "why",
					      cmd_json_str(cv[k].why)));
		desk_candidates_free(cv, nc);
		json_object_set_new(o, "id", json_integer(d->id));
		json_object_set_new(o, "at", json_integer(d->at));
		json_object_set_new(o, "action", cmd_json_str(d->action));
		json_object_set_new(o, "recipient", cmd_json_str(d->recipient));
		json_object_set_new(o, "recipient_name",
				    cmd_json_str(d->recipient_name));
		json_object_set_new(o, "reason", cmd_json_str(d->reason));
		json_object_set_new(o, "candidates", ca);
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *outbox_json(const struct audit_record *r)
{
	json_t *a = json_array();
	size_t i, k;

	for (i = 0; i < r->noutbox; i++) {
		const struct audit_outbox_info *b = &r->outbox[i];
		json_t *o = json_object(), *tries = json_array(), *rc;
		char *list = xstrdup(b->recipients ? b->recipients : ""), *p,
		     *save = NULL;

		rc = json_array();
		for (p = strtok_r(list, "\n", &save); p;
		     p = strtok_r(NULL, "\n", &save))
			json_array_append_new(rc, cmd_json_str(p));
		free(list);
		for (k = 0; k < b->ntries; k++)
			json_array_append_new(
				tries,
				json_pack("{s:I, s:b, s:i, s:o}", "at",
					  (json_int_t)b->tries[k].at, "ok",
					  b->tries[k].ok, "smtp_code",
					  b->tries[k].smtp_code, "detail",
					  cmd_json_str(b->tries[k].detail)));
		json_object_set_new(o, "id", json_integer(b->id));
		json_object_set_new(o, "kind", cmd_json_str(b->kind));
		json_object_set_new(o, "state", cmd_json_str(b->state));
		json_object_set_new(o, "recipients", rc);
		json_object_set_new(o, "envelope_from",
				    cmd_json_str(b->envelope_from));
		json_object_set_new(o, "created_at",
				    json_integer(b->created_at));
		json_object_set_new(o, "sent_at",
				    b->sent_at ? json_integer(b->sent_at)
					       : json_null());
		json_object_set_new(o, "attempts", json_integer(b->attempts));
		json_object_set_new(o, "last_error",
				    cmd_json_str(b->last_error));
		json_object_set_new(o, "bytes",
				    json_integer((json_int_t)b->message_len));
		json_object_set_new(o, "tries", tries);
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *actions_json(const struct audit_record *r)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < r->nactions; i++) {
		const struct audit_action *x = &r->actions[i];
		json_t *o = json_object();

		json_object_set_new(o, "id", json_integer(x->id));
		json_object_set_new(o, "at", json_integer(x->at));
		json_object_set_new(o, "who", cmd_json_str(x->who));
		json_object_set_new(o, "action", cmd_json_str(x->action));
		json_object_set_new(o, "argument", cmd_json_str(x->argument));
		json_object_set_new(o, "previous", cmd_json_str(x->previous));
		json_object_set_new(o, "detail", cmd_json_str(x->detail));
		json_array_append_new(a, o);
	}
	return a;
}

static json_t *record_json(const struct audit_record *r)
{
	json_t *o = json_object(), *secs = json_array();
	size_t i;

	for (i = 0; i < r->nsections; i++)
		json_array_append_new(
			secs, json_pack("{s:o, s:f, s:o}", "name",
					cmd_json_str(r->sections[i].name),
					"score", r->sections[i].score, "why",
					cmd_json_str(r->sections[i].why)));
	json_object_set_new(o, "id", json_integer(r->id));
	json_object_set_new(o, "state", cmd_json_str(r->state));
	json_object_set_new(o, "kind", cmd_json_str(r->kind));
	json_object_set_new(o, "class", cmd_json_str(r->class));
	json_object_set_new(o, "section",
			    r->nsections ? cmd_json_str(r->sections[0].name)
					 : json_null());
	json_object_set_new(o, "sha256", json_string(r->sha256));
	json_object_set_new(o, "message_id", cmd_json_str(r->message_id));
	json_object_set_new(o, "received_at", json_integer(r->received_at));
	json_object_set_new(o, "updated_at", json_integer(r->updated_at));
	json_object_set_new(o, "source", cmd_json_str(r->source));
	json_object_set_new(o, "envelope_from", cmd_json_str(r->envelope_from));
	json_object_set_new(o, "envelope_to", cmd_json_str(r->envelope_to));
	json_object_set_new(o, "from", cmd_json_str(r->from_display));
	json_object_set_new(o, "from_addr", cmd_json_str(r->from_addr));
	json_object_set_new(o, "subject", cmd_json_str(r->subject));
	json_object_set_new(o, "date", cmd_json_str(r->date_header));
	json_object_set_new(o, "bug_id",
			    r->bug_id ? json_integer(r->bug_id) : json_null());
	json_object_set_new(o, "bug_url", cmd_json_str(r->bug_url));
	json_object_set_new(o, "size", json_integer((json_int_t)r->size));
	json_object_set_new(o, "flags", json_integer(r->flags));
	json_object_set_new(o, "duplicate_of",
			    r->duplicate_of ? json_integer(r->duplicate_of)
					    : json_null());
	json_object_set_new(o, "deliveries", json_integer(r->deliveries));
	json_object_set_new(o, "evidence", cmd_evidence_json(r->evidence));
	json_object_set_new(o, "classification", class_json(r->classification));
	json_object_set_new(o, "sections", secs);
	json_object_set_new(o, "decisions", decisions_json(r));
	json_object_set_new(o, "outbox", outbox_json(r));
	json_object_set_new(o, "actions", actions_json(r));
	json_object_set_new(o, "body", cmd_json_text(r->body, r->body_len));
	return o;
}

/* known - a version or commit the report gave (NULL or "": none) */
static bool known(const char *s)
{
	return s && *s;
}

/* what links the report to others: thread, crash group, regression */
struct related {
	struct out *o;
	json_t *a; /* --json: the list, else print */
	time_t now;
	unsigned n;
};

static int related_one(const struct audit_related *x, void *arg)
{
	struct related *rl = arg;
	char buf[64];

	if (rl->a) {
		json_array_append_new(
			rl->a,
			json_pack("{s:I, s:s, s:I, s:o, s:o, s:o}", "id",
				  (json_int_t)x->id, "relation", x->relation,
				  "received_at", (json_int_t)x->received_at,
				  "from", cmd_json_str(x->from), "state",
				  cmd_json_str(x->state), "subject",
				  cmd_json_str(x->subject)));
		return 0;
	}
	desk_format_time((time_t)x->received_at, buf, sizeof(buf));
	label(rl->o, rl->n++ ? "" : "related");
	fprintf(rl->o->f, "%s%lld%s %s, %s, %s, %s: %s\n",
		col(rl->o, DESK_YELLOW), (long long)x->id, off(rl->o),
		x->relation, buf, safe(rl->o, x->from), safe(rl->o, x->state),
		safe(rl->o, x->subject));
	return 0;
}

static int show_links(struct audit *db, struct out *o, json_t *j, int64_t id,
		      time_t now)
{
	struct audit_links l;
	struct related rl = { o, NULL, now, 0 };
	int rc = audit_get_links(db, id, &l);

	if (rc <= 0)
		return rc;
	if (j) {
		json_object_set_new(j, "thread_root",
				    l.thread_root ? json_integer(l.thread_root)
						  : json_null());
		json_object_set_new(j, "same_crash_as",
				    l.same_crash_as
					    ? json_integer(l.same_crash_as)
					    : json_null());
		json_object_set_new(j, "crash_signature",
				    cmd_json_str(l.crash_signature));
		json_object_set_new(j, "syzbot_id", cmd_json_str(l.syzbot_id));
		json_object_set_new(
			j, "regression",
			l.regression ? json_pack("{s:o, s:o, s:o}", "good",
						 cmd_json_str(l.good), "bad",
						 cmd_json_str(l.bad), "commit",
						 cmd_json_str(l.commit))
				     : json_null());
		rl.a = json_array();
		json_object_set_new(j, "related", rl.a);
	} else {
		if (l.thread_root) {
			label(o, "thread");
			fprintf(o->f, "follow-up to report %s%lld%s\n",
				col(o, DESK_YELLOW), (long long)l.thread_root,
				off(o));
		}
		if (l.crash_signature) {
			label(o, "signature");
			fprintf(o->f, "%s\n", safe(o, l.crash_signature));
		}
		if (l.syzbot_id) {
			label(o, "syzbot");
			fprintf(o->f, "%s\n", safe(o, l.syzbot_id));
		}
		/* the group's first report is not "the same crash as" itself */
		if (l.same_crash_as && l.same_crash_as != id) {
			label(o, "group");
			fprintf(o->f,
				"same crash as report %s%lld%s (dup/undup "
				"correct it)\n",
				col(o, DESK_YELLOW), (long long)l.same_crash_as,
				off(o));
		}
		if (l.regression) {
			label(o, "regression");
			if (!known(l.good) && !known(l.bad) && !known(l.commit))
				fprintf(o->f,
					"yes (the report names no version that worked, none that broke, no culprit)\n");
			else
				fprintf(o->f,
					"worked in %s, broke in %s, culprit %s\n",
					known(l.good) ? safe(o, l.good)
						      : "(not given)",
					known(l.bad) ? safe(o, l.bad)
						     : "(not given)",
					known(l.commit) ? safe(o, l.commit)
							: "(not given)");
		}
	}
	rc = audit_related(db, id, l.same_crash_as ? l.same_crash_as : id,
			   related_one, &rl);
	audit_links_release(&l);
	return rc < 0 ? -1 : 1;
}

/* cmd_show - print one report in full (text, --raw or --json) */
int cmd_show(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const char *const usage[] = {
		"triage show [--raw | --json] [OPTIONS] ID", NULL
	};
	struct cmd_output view = CMD_OUTPUT_INIT;
	bool raw = false, force = false;
	const struct opt opts[] = {
		OPT_BOOL(0, "raw", &raw, "the message as it came, unchanged"),
		OPT_BOOL(0, "force", &force,
			 "with --raw: write it to a terminal all the same"),
		OPT_CMD_OUTPUT(&view),
		OPT_END(),
	};
	struct audit_record rec;
	struct desk_term term;
	struct audit *db;
	struct out o;
	char *link = NULL;
	time_t now = desk_now();
	char *fields = NULL;
	size_t fields_len = 0;
	int64_t id;
	int c, rc, ret;

	argc = parse_options(argc, argv, opts, usage, 0);
	if (argc != 1 || (raw && view.json))
		usage_with_options(usage, opts);
	if (cmd_parse_id(argv[0], &id) < 0)
		return EX_USAGE;
	/*
	 * The bytes of a stranger's message can carry escape sequences
	 * that retitle, recolour or reprogram the terminal they reach.
	 */
	if (raw && !force && isatty(1)) {
		error("not writing a raw message to a terminal: its bytes may carry escape sequences; pipe it ('triage show --raw %lld > FILE', '| less'), or give --force",
		      (long long)id);
		return EX_USAGE;
	}
	ret = desk_open(cmd_config(ctx), DESK_READ, &db);
	if (ret)
		return ret;
	rc = audit_get_report(db, id, raw ? AUDIT_GET_RAW : 0, &rec);
	if (rc <= 0) {
		if (rc == 0)
			error("no report %lld", (long long)id);
		audit_close(db);
		return rc == 0 ? EX_NOINPUT : EX_IOERR;
	}
	/* a Bugzilla bug's Message-ID is made up: its link is bug_url */
	if (rec.source && !strcmp(rec.source, "mail"))
		link = archive_url(config_get(cmd_config(ctx), "archive_url"),
				   rec.message_id);
	if (raw) {
		if (fwrite(rec.raw, 1, rec.raw_len, stdout) != rec.raw_len)
			ret = EX_IOERR;
	} else if (view.json) {
		json_t *j = record_json(&rec);

		json_object_set_new(j, "archive", cmd_json_str(link));
		if (show_links(db, NULL, j, id, now) < 0)
			ret = EX_IOERR;
		cmd_print_json(j);
	} else {
		cmd_term_setup(&term, &view, true);
		memset(&o, 0, sizeof(o));
		o.t = &term;
		o.f = stdout;
		/* on a terminal the fields are folded to its width */
		if (term.tty && term.columns > 40)
			o.f = open_memstream(&fields, &fields_len);
		if (!o.f)
			o.f = stdout;
		o.archive = link;
		for (c = 0; c < SAFE_SLOTS; c++)
			sb_init(&o.sb[c], 64 * 1024);
		show_message(&o, &rec, now);
		if (show_links(db, &o, NULL, id, now) < 0)
			ret = EX_IOERR;
		show_evidence(&o, rec.evidence);
		show_class(&o, &rec);
		show_decisions(&o, &rec, now);
		show_outbox(&o, &rec, now);
		show_actions(&o, &rec, now);
		if (o.f != stdout) {
			if (fclose(o.f) == 0) /* the last column stays free */
				fold_fields(fields, fields_len,
					    term.columns - 1);
			else
				ret = EX_IOERR;
			free(fields);
		}
		show_body(&rec, &term);
		for (c = 0; c < SAFE_SLOTS; c++)
			sb_release(&o.sb[c]);
		desk_term_finish(&term);
	}
	free(link);
	audit_record_release(&rec);
	audit_close(db);
	return ret;
}
