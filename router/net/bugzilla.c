// SPDX-License-Identifier: GPL-2.0-only
/*
 * bugzilla - webhook payloads, REST responses, the REST client and the
 * report built from a bug (see bugzilla.h)
 */
#include <ctype.h>
#include <curl/curl.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "bugzilla.h"
#include "config.h"
#include "deliver.h"
#include "mimetext.h"
#include "report.h"
#include "sha256.h"
#include "strbuf.h"
#include "util.h"

_Static_assert(BUGZILLA_JSON_DEPTH_MAX == JSON_PARSER_MAX_DEPTH,
	       "bugzilla.h must name jansson's nesting limit");

#define SEARCH_HITS_MAX 10000
#define KEY_MAX		256
#define URL_MAX		2048
#define MESSAGE_EXTRA	(64u << 10)

/* ---- JSON helpers ------------------------------------------------------ */

static void set_err(char *err, size_t size, const char *fmt, ...)
	PRINTF_LIKE(3, 4);
static void set_err(char *err, size_t size, const char *fmt, ...)
{
	va_list ap;

	if (!err || !size)
		return;
	va_start(ap, fmt);
	vsnprintf(err, size, fmt, ap);
	va_end(ap);
}

/* what went wrong, without quoting the input (jansson's text does) */
static const char *json_code_name(enum json_error_code code)
{
	switch (code) {
	case json_error_duplicate_key:
		return "duplicate key";
	case json_error_numeric_overflow:
		return "number too large";
	case json_error_premature_end_of_input:
		return "truncated";
	case json_error_end_of_input_expected:
		return "garbage after the document";
	case json_error_invalid_utf8:
		return "invalid UTF-8";
	case json_error_null_character:
		return "NUL character";
	case json_error_null_byte_in_key:
		return "NUL in a key";
	case json_error_stack_overflow:
		return "nested too deeply";
	case json_error_invalid_syntax:
		return "syntax error";
	default:
		return "invalid";
	}
}

/* load - parse a whole document strictly; the root must be an object */
static json_t *load(const char *json, size_t len, char *err, size_t errsize)
{
	json_error_t je;
	json_t *root;

	if (!json) {
		set_err(err, errsize, "no document");
		return NULL;
	}
	root = json_loadb(json, len, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		set_err(err, errsize, "bad JSON: %s at line %d, column %d",
			json_code_name(json_error_code(&je)), je.line,
			je.column);
		return NULL;
	}
	if (!json_is_object(root)) {
		json_decref(root);
		set_err(err, errsize, "the document is not a JSON object");
		return NULL;
	}
	return root;
}

/* clean - one line of UTF-8 without controls, at most max bytes */
static char *clean(const char *s, size_t len, size_t max, unsigned how)
{
	struct strbuf sb = STRBUF_INIT(max);

	mimetext_repair(&sb, s, len, how); /* cut at the cap: keep what fit */
	if (!sb.buf)
		return xstrdup("");
	return sb_detach(&sb, NULL);
}

/* get_str - a cleaned one-line string member, or NULL (absent, not text) */
static char *get_str(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);

	if (!json_is_string(v))
		return NULL;
	return clean(json_string_value(v), json_string_length(v),
		     BUGZILLA_FIELD_MAX, MIMETEXT_LINE);
}

/* get_id - 1 with an id in min..BUGZILLA_ID_MAX, 0 when absent, -1 bad */
static int get_id(const json_t *obj, const char *key, long min, long *out)
{
	const json_t *v = json_object_get(obj, key);
	json_int_t n;

	*out = 0;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_integer(v))
		return -1;
	n = json_integer_value(v);
	if (n < min || n > BUGZILLA_ID_MAX)
		return -1;
	*out = (long)n;
	return 1;
}

static bool get_bool(const json_t *obj, const char *key)
{
	return json_is_true(json_object_get(obj, key));
}

/* ---- bugs ---------------------------------------------------------------- */

void bugzilla_bug_release(struct bugzilla_bug *b)
{
	if (!b)
		return;
	free(b->summary);
	free(b->product);
	free(b->component);
	free(b->version);
	free(b->classification);
	free(b->status);
	free(b->resolution);
	free(b->severity);
	free(b->priority);
	free(b->platform);
	free(b->op_sys);
	free(b->whiteboard);
	free(b->url);
	free(b->creator);
	free(b->creator_name);
	free(b->assigned_to);
	free(b->keywords);
	free(b->creation_time);
	free(b->last_change_time);
	memset(b, 0, sizeof(*b));
}

/* keywords - a list of strings (REST, webhooks), joined */
static char *keywords(const json_t *v)
{
	struct strbuf sb = STRBUF_INIT(BUGZILLA_FIELD_MAX);
	size_t i;
	json_t *k;

	if (!json_is_array(v) || !json_array_size(v))
		return NULL;
	json_array_foreach(v, i, k)
	{
		char *s;

		if (!json_is_string(k))
			continue;
		s = clean(json_string_value(k), json_string_length(k),
			  BUGZILLA_FIELD_MAX, MIMETEXT_LINE);
		if (sb.len)
			sb_adds(&sb, ", ");
		sb_adds(&sb, s);
		free(s);
	}
	return sb.buf ? sb_detach(&sb, NULL) : NULL;
}

/* bug_from - fill b from a bug object (REST or webhook shape) */
static int bug_from(const json_t *o, struct bugzilla_bug *b, char *err,
		    size_t errsize)
{
	const json_t *d, *kw;

	memset(b, 0, sizeof(*b));
	if (!json_is_object(o)) {
		set_err(err, errsize, "bug is not an object");
		return -1;
	}
	if (get_id(o, "id", 1, &b->id) != 1) {
		set_err(err, errsize, "bug.id missing or not a bug number");
		return -1;
	}
	b->is_private = get_bool(o, "is_private");
	/* upstream: a bug in a group is restricted to that group */
	d = json_object_get(o, "groups");
	if (json_is_array(d) && json_array_size(d))
		b->is_private = true;
	b->summary = get_str(o, "summary");
	b->product = get_str(o, "product");
	b->component = get_str(o, "component");
	b->version = get_str(o, "version");
	b->classification = get_str(o, "classification");
	b->status = get_str(o, "status");
	b->resolution = get_str(o, "resolution");
	b->severity = get_str(o, "severity");
	b->priority = get_str(o, "priority");
	b->platform = get_str(o, "platform");
	b->op_sys = get_str(o, "op_sys");
	if (!b->op_sys)
		b->op_sys = get_str(o, "operating_system"); /* webhooks */
	b->whiteboard = get_str(o, "whiteboard");
	b->url = get_str(o, "url");
	b->creator = get_str(o, "creator");
	b->assigned_to = get_str(o, "assigned_to");
	b->creation_time = get_str(o, "creation_time");
	b->last_change_time = get_str(o, "last_change_time");
	d = json_object_get(o, "creator_detail");
	if (json_is_object(d))
		b->creator_name = get_str(d, "real_name");
	kw = json_object_get(o, "keywords");
	if (json_is_array(kw))
		b->keywords = keywords(kw);
	else if (json_is_string(kw))
		b->keywords = get_str(o, "keywords");
	return 0;
}

/* bugzilla_parse_bug - the bug id (0: the first) of GET /rest/bug/ID */
int bugzilla_parse_bug(const char *json, size_t len, long id,
		       struct bugzilla_bug *bug, char *err, size_t errsize)
{
	json_t *root = load(json, len, err, errsize), *bugs, *b;
	size_t i;
	int ret = -1;

	memset(bug, 0, sizeof(*bug));
	if (!root)
		return -1;
	bugs = json_object_get(root, "bugs");
	if (!json_is_array(bugs)) {
		set_err(err, errsize, "no \"bugs\" list in the response");
		goto out;
	}
	json_array_foreach(bugs, i, b)
	{
		long got;

		if (!json_is_object(b) || get_id(b, "id", 1, &got) != 1)
			continue;
		if (id && got != id)
			continue;
		ret = bug_from(b, bug, err, errsize);
		goto out;
	}
	set_err(err, errsize, "bug %ld is not in the response", id);
out:
	json_decref(root);
	return ret;
}

/* ---- comments ------------------------------------------------------------ */

void bugzilla_comment_release(struct bugzilla_comment *c)
{
	if (!c)
		return;
	free(c->text);
	free(c->creator);
	free(c->creation_time);
	memset(c, 0, sizeof(*c));
}

/* comments_of - the comments array of bug id in a comment response */
static json_t *comments_of(json_t *root, long id, char *err, size_t errsize)
{
	json_t *bugs = json_object_get(root, "bugs"), *b, *list;
	char key[32];

	snprintf(key, sizeof(key), "%ld", id);
	if (!json_is_object(bugs)) {
		set_err(err, errsize, "no \"bugs\" object in the response");
		return NULL;
	}
	b = json_object_get(bugs, key);
	if (!json_is_object(b)) {
		set_err(err, errsize, "bug %ld is not in the response", id);
		return NULL;
	}
	list = json_object_get(b, "comments");
	if (!json_is_array(list)) {
		set_err(err, errsize, "bug %ld has no \"comments\" list", id);
		return NULL;
	}
	return list;
}

/* bugzilla_parse_first_comment - the description (count 0) of bug id */
int bugzilla_parse_first_comment(const char *json, size_t len, long id,
				 struct bugzilla_comment *c, char *err,
				 size_t errsize)
{
	json_t *root = load(json, len, err, errsize), *list, *v, *best = NULL;
	long best_count = 0;
	size_t i;
	int ret = -1;

	memset(c, 0, sizeof(*c));
	if (!root)
		return -1;
	list = comments_of(root, id, err, errsize);
	if (!list)
		goto out;
	json_array_foreach(list, i, v)
	{
		long count;

		if (!json_is_object(v))
			continue;
		if (get_id(v, "count", 0, &count) < 0)
			continue;
		if (!best || count < best_count) {
			best = v;
			best_count = count;
		}
	}
	ret = 0;
	if (!best)
		goto out; /* no comment at all: an empty description */
	get_id(best, "id", 1, &c->id);
	c->count = best_count;
	c->is_private = get_bool(best, "is_private");
	c->creator = get_str(best, "creator");
	c->creation_time = get_str(best, "creation_time");
	v = json_object_get(best, "text");
	if (json_is_string(v)) {
		c->text = clean(json_string_value(v), json_string_length(v),
				REPORT_TEXT_MAX, MIMETEXT_LF);
		c->text_len = strlen(c->text);
	}
out:
	json_decref(root);
	return ret;
}

/* ---- webhooks ------------------------------------------------------------- */

void bugzilla_event_release(struct bugzilla_event *ev)
{
	if (!ev)
		return;
	free(ev->webhook_name);
	free(ev->action);
	free(ev->target);
	free(ev->routing_key);
	free(ev->time);
	free(ev->user);
	bugzilla_bug_release(&ev->bug);
	memset(ev, 0, sizeof(*ev));
}

static int need_str(const json_t *o, const char *key, const char *what,
		    char **out, char *err, size_t errsize)
{
	*out = get_str(o, key);
	if (!*out || !**out) {
		set_err(err, errsize, "%s missing or not a string", what);
		return -1;
	}
	return 0;
}

/* bugzilla_parse_event - a bugzilla.mozilla.org webhook body */
int bugzilla_parse_event(const char *json, size_t len,
			 struct bugzilla_event *ev, char *err, size_t errsize)
{
	json_t *root = load(json, len, err, errsize), *e, *b, *u, *sub;
	int ret = -1;

	memset(ev, 0, sizeof(*ev));
	if (!root)
		return -1;
	if (get_id(root, "webhook_id", 0, &ev->webhook_id) != 1) {
		set_err(err, errsize, "webhook_id missing or not a number");
		goto out;
	}
	ev->webhook_name = get_str(root, "webhook_name");
	e = json_object_get(root, "event");
	if (!json_is_object(e)) {
		set_err(err, errsize, "event missing or not an object");
		goto out;
	}
	if (need_str(e, "action", "event.action", &ev->action, err, errsize) ||
	    need_str(e, "target", "event.target", &ev->target, err, errsize) ||
	    need_str(e, "routing_key", "event.routing_key", &ev->routing_key,
		     err, errsize) ||
	    need_str(e, "time", "event.time", &ev->time, err, errsize))
		goto out;
	u = json_object_get(e, "user");
	if (json_is_object(u))
		ev->user = get_str(u, "login");
	b = json_object_get(root, "bug");
	if (!json_is_object(b)) {
		set_err(err, errsize, "bug missing or not an object");
		goto out;
	}
	if (bug_from(b, &ev->bug, err, errsize) < 0)
		goto out;
	sub = json_object_get(b, "comment");
	if (json_is_object(sub) && get_id(sub, "id", 1, &ev->comment_id) < 0) {
		set_err(err, errsize, "bug.comment.id is not a number");
		goto out;
	}
	sub = json_object_get(b, "attachment");
	if (json_is_object(sub) &&
	    get_id(sub, "id", 1, &ev->attachment_id) < 0) {
		set_err(err, errsize, "bug.attachment.id is not a number");
		goto out;
	}
	ret = 0;
out:
	json_decref(root);
	if (ret < 0)
		bugzilla_event_release(ev);
	return ret;
}

/* ---- search and errors ---------------------------------------------------- */

/* bugzilla_parse_search - ids and change times of a search response */
int bugzilla_parse_search(const char *json, size_t len,
			  struct bugzilla_hit **hits, size_t *n, char *err,
			  size_t errsize)
{
	json_t *root = load(json, len, err, errsize), *bugs, *b;
	size_t i, alloc = 0;

	*hits = NULL;
	*n = 0;
	if (!root)
		return -1;
	bugs = json_object_get(root, "bugs");
	if (!json_is_array(bugs)) {
		json_decref(root);
		set_err(err, errsize, "no \"bugs\" list in the response");
		return -1;
	}
	json_array_foreach(bugs, i, b)
	{
		struct bugzilla_hit *h;
		const json_t *t;
		long id;

		if (*n >= SEARCH_HITS_MAX)
			break;
		if (!json_is_object(b) || get_id(b, "id", 1, &id) != 1)
			continue;
		ALLOC_GROW(*hits, *n, alloc);
		h = &(*hits)[(*n)++];
		memset(h, 0, sizeof(*h));
		h->id = id;
		t = json_object_get(b, "last_change_time");
		if (json_is_string(t) &&
		    json_string_length(t) < sizeof(h->last_change_time)) {
			char *s = clean(
				json_string_value(t), json_string_length(t),
				sizeof(h->last_change_time) - 1, MIMETEXT_LINE);

			snprintf(h->last_change_time,
				 sizeof(h->last_change_time), "%s", s);
			free(s);
		}
	}
	json_decref(root);
	return 0;
}

/* bugzilla_parse_error - 1 for {"error": true, "code", "message"}, else 0 */
int bugzilla_parse_error(const char *json, size_t len, long *code,
			 char *message, size_t size)
{
	json_t *root = load(json, len, NULL, 0);
	const json_t *c;
	char *m;
	int ret = 0;

	*code = 0;
	if (size)
		*message = '\0';
	if (!root)
		return 0;
	if (json_is_true(json_object_get(root, "error"))) {
		ret = 1;
		c = json_object_get(root, "code");
		if (json_is_integer(c) && json_integer_value(c) > -1000000 &&
		    json_integer_value(c) < 1000000)
			*code = (long)json_integer_value(c);
		m = get_str(root, "message");
		if (m && size)
			snprintf(message, size, "%s", m);
		free(m);
	}
	json_decref(root);
	return ret;
}

/* ---- URLs ----------------------------------------------------------------- */

/* bugzilla_url_valid - http(s)://host[:port][/path], nothing else */
bool bugzilla_url_valid(const char *url)
{
	const char *p;
	char host[256];

	if (!url || strlen(url) > 1024)
		return false;
	if (!starts_with(url, "https://") && !starts_with(url, "http://"))
		return false;
	for (p = url; *p; p++)
		if ((unsigned char)*p <= 0x20 || (unsigned char)*p >= 0x7f ||
		    strchr("?#\\\"<>{}|^`", *p))
			return false;
	return bugzilla_url_host(url, host, sizeof(host)) == 0;
}

/* bugzilla_url_host - the host name (no port, no user) of a URL */
int bugzilla_url_host(const char *url, char *buf, size_t size)
{
	const char *p = strstr(url, "://"), *end;
	size_t n, i;

	if (!p)
		return -1;
	p += 3;
	end = p + strcspn(p, "/");
	if (memchr(p, '@', (size_t)(end - p)))
		return -1; /* no user or password in the authority */
	end = p + strcspn(p, "/:");
	n = (size_t)(end - p);
	if (!n || n >= size)
		return -1;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)p[i]) && p[i] != '-' && p[i] != '.')
			return -1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	str_tolower(buf);
	return 0;
}

/* ---- the report ------------------------------------------------------------ */

/* parse_time - "2000-07-25T13:50:04Z" or without Z (UTC); 0 if not */
static time_t parse_time(const char *s)
{
	struct tm tm;
	const char *end;

	if (!s)
		return 0;
	memset(&tm, 0, sizeof(tm));
	end = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!end || (*end && strcmp(end, "Z") != 0))
		return 0;
	return timegm(&tm);
}

static void add_extra(struct deliver_header *v, size_t *n, const char *name,
		      const char *value)
{
	if (value && *value) {
		v[*n].name = name;
		v[*n].value = value;
		(*n)++;
	}
}

static const char *or_empty(const char *s)
{
	return s ? s : "";
}

/*
 * bugzilla_report - the report for a bug and its first comment; the
 * raw message is what a forward carries
 */
struct report *bugzilla_report(const struct bugzilla_bug *bug,
			       const struct bugzilla_comment *first,
			       const char *base_url, const char *router_addr)
{
	struct report *r;
	struct deliver_message m;
	struct deliver_header extra[16];
	struct strbuf msg;
	struct report_part *part;
	const char *to[2] = { router_addr, NULL };
	const char *creator = or_empty(bug->creator);
	char host[200], id[DELIVER_MSGID_MAX + 1], idnum[32], date[64];
	char *subject, *from, *bug_url, *display;
	const char *body = first && first->text ? first->text : "";
	size_t body_len = first && first->text ? first->text_len : 0;
	size_t nextra = 0, i;
	bool creator_ok = addr_valid(creator);

	if (bugzilla_url_host(base_url, host, sizeof(host)) < 0)
		snprintf(host, sizeof(host), "bugzilla.invalid");
	snprintf(id, sizeof(id), "bug-%ld@%s", bug->id, host);
	snprintf(idnum, sizeof(idnum), "%ld", bug->id);
	bug_url = xasprintf("%s/show_bug.cgi?id=%ld", base_url, bug->id);
	subject = xasprintf("[Bug %ld] %s", bug->id, or_empty(bug->summary));

	add_extra(extra, &nextra, "X-Bugzilla-URL", base_url);
	add_extra(extra, &nextra, "X-Bugzilla-ID", idnum);
	add_extra(extra, &nextra, "X-Bugzilla-Type", "new");
	add_extra(extra, &nextra, "X-Bugzilla-Product", bug->product);
	add_extra(extra, &nextra, "X-Bugzilla-Component", bug->component);
	add_extra(extra, &nextra, "X-Bugzilla-Version", bug->version);
	add_extra(extra, &nextra, "X-Bugzilla-Keywords", bug->keywords);
	add_extra(extra, &nextra, "X-Bugzilla-Severity", bug->severity);
	add_extra(extra, &nextra, "X-Bugzilla-Priority", bug->priority);
	add_extra(extra, &nextra, "X-Bugzilla-Status", bug->status);
	add_extra(extra, &nextra, "X-Bugzilla-Resolution", bug->resolution);
	add_extra(extra, &nextra, "X-Bugzilla-Who", bug->creator);
	add_extra(extra, &nextra, "X-Bugzilla-Assigned-To", bug->assigned_to);
	add_extra(extra, &nextra, "X-Bugzilla-Platform", bug->platform);
	add_extra(extra, &nextra, "X-Bugzilla-OS", bug->op_sys);

	if (creator_ok)
		display = xstrdup(or_empty(bug->creator_name));
	else
		display = xasprintf("%s (Bugzilla)",
				    *creator ? creator : "unknown");
	memset(&m, 0, sizeof(m));
	m.from_name = *display ? display : NULL;
	m.from_addr = creator_ok ? creator : router_addr;
	m.to = to;
	m.subject = subject;
	m.message_id = id;
	m.auto_submitted = DELIVER_AUTO_GENERATED;
	m.extra = extra;
	m.nextra = nextra;
	m.body = body;
	m.body_len = body_len;
	m.date = parse_time(bug->creation_time);
	if (!m.date)
		m.date = parse_time(first ? first->creation_time : NULL);
	if (!m.date)
		m.date = 1; /* stable bytes: never "now" */

	sb_init(&msg, body_len * 3 + MESSAGE_EXTRA);
	if (deliver_compose_message(&m, &msg) < 0) {
		/* a message that cannot be composed is still a report */
		sb_reset(&msg);
		sb_addf(&msg, "Subject: [Bug %ld]\n\n", bug->id);
	}

	r = report_new();
	r->source = "bugzilla";
	r->raw_len = msg.len;
	r->raw = sb_detach(&msg, NULL);
	sha256_hex(r->raw, r->raw_len, r->sha256);
	r->message_id = xstrdup(id);
	free(r->subject);
	r->subject = subject;
	free(r->from_addr);
	r->from_addr = xstrdup(m.from_addr);
	str_tolower(r->from_addr);
	free(r->from);
	if (m.from_name)
		from = xasprintf("%s <%s>", m.from_name, m.from_addr);
	else
		from = xstrdup(m.from_addr);
	r->from = from;
	deliver_format_date(m.date, date, sizeof(date));
	r->date = xstrdup(date);
	r->when = m.date;
	r->bug_id = bug->id;
	r->bug_url = bug_url;

	report_add_header(r, "From", r->from);
	report_add_header(r, "To", router_addr);
	report_add_header(r, "Subject", r->subject);
	report_add_header(r, "Date", r->date);
	{
		char *mid = xasprintf("<%s>", id);

		report_add_header(r, "Message-ID", mid);
		free(mid);
	}
	for (i = 0; i < nextra; i++)
		report_add_header(r, extra[i].name, extra[i].value);

	part = report_add_part(r);
	part->path = xstrdup("1");
	part->mime_type = xstrdup("text/plain");
	part->text = xmemdup0(body, body_len);
	part->len = body_len;
	part->raw_size = body_len;
	part->flags = PART_TEXT;
	r->body = xmemdup0(body, body_len);
	r->body_len = body_len;
	free(display);
	return r;
}

/* ---- configuration --------------------------------------------------------- */

static bool key_valid(const char *k)
{
	size_t i;

	for (i = 0; k[i]; i++)
		if ((unsigned char)k[i] <= 0x20 || (unsigned char)k[i] >= 0x7f)
			return false;
	return i > 0 && i < KEY_MAX;
}

/*
 * bugzilla_config_load - the REST settings of routes.conf; url (when not
 * NULL) replaces bugzilla_url
 */
int bugzilla_config_load(struct bugzilla_config *bc, const struct config *cfg,
			 const char *url)
{
	const char *keyfile = config_get(cfg, "bugzilla_api_key_file");
	const char *ca = config_get(cfg, "bugzilla_ca_file");
	size_t n;

	memset(bc, 0, sizeof(*bc));
	if (!url || !*url)
		url = config_get(cfg, "bugzilla_url");
	if (!url || !*url)
		return error(
			"no Bugzilla: set bugzilla_url in %s or give --url",
			cfg->path);
	if (!bugzilla_url_valid(url))
		return error("'%s' is not an http or https base URL", url);
	bc->url = xstrdup(url);
	n = strlen(bc->url);
	while (n > 0 && bc->url[n - 1] == '/')
		bc->url[--n] = '\0';
	if (keyfile && *keyfile) {
		char *k;

		if (read_file(keyfile, 4096, &k, NULL) < 0) {
			bugzilla_config_release(bc);
			return -1;
		}
		bc->api_key = xstrdup(trim(k));
		free(k);
		if (!key_valid(bc->api_key)) {
			bugzilla_config_release(bc);
			return error(
				"%s: not an API key (one line of printable ASCII)",
				keyfile);
		}
	}
	if (ca && *ca)
		bc->ca_file = xstrdup(ca);
	bc->timeout_ms = config_int(cfg, "bugzilla_timeout") * 1000;
	bc->connect_timeout_ms =
		config_int(cfg, "bugzilla_connect_timeout") * 1000;
	bc->max_response = BUGZILLA_RESPONSE_MAX;
	return 0;
}

void bugzilla_config_release(struct bugzilla_config *bc)
{
	free(bc->url);
	if (bc->api_key)
		memset(bc->api_key, 0, strlen(bc->api_key));
	free(bc->api_key);
	free(bc->ca_file);
	memset(bc, 0, sizeof(*bc));
}

/* ---- the REST client ------------------------------------------------------- */

struct bugzilla_client {
	struct bugzilla_config cfg;
	CURL *curl;
	char *key_param; /* "api_key=..." escaped, or NULL */
	char *key_header;
};

struct response {
	struct strbuf sb;
	bool too_big;
};

/* bugzilla_classify - temporary or permanent from libcurl and HTTP */
enum deliver_status bugzilla_classify(int curl_code, long http_status)
{
	if (curl_code != CURLE_OK) {
		if (curl_code == CURLE_WRITE_ERROR ||
		    curl_code == CURLE_URL_MALFORMAT ||
		    curl_code == CURLE_UNSUPPORTED_PROTOCOL)
			return DELIVER_PERMANENT;
		return DELIVER_TEMPORARY; /* resolve, connect, timeout, TLS */
	}
	if (http_status >= 200 && http_status < 300)
		return DELIVER_OK;
	if (http_status >= 500 || http_status == 408 || http_status == 429 ||
	    http_status == 0)
		return DELIVER_TEMPORARY;
	return DELIVER_PERMANENT;
}

static void result_init(struct bugzilla_result *res)
{
	memset(res, 0, sizeof(*res));
	res->status = DELIVER_TEMPORARY;
}

/* detail - one printable line; never a URL (it carries the key) */
static void detail(struct bugzilla_result *res, const char *fmt, ...)
	PRINTF_LIKE(2, 3);
static void detail(struct bugzilla_result *res, const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	vsnprintf(res->detail, sizeof(res->detail), fmt, ap);
	va_end(ap);
	for (p = res->detail; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
			*p = '?';
}

static size_t on_data(char *data, size_t size, size_t n, void *arg)
{
	struct response *r = arg;

	if (sb_add(&r->sb, data, size * n) < 0) {
		r->too_big = true;
		return 0; /* CURLE_WRITE_ERROR */
	}
	return size * n;
}

/* bugzilla_client_new - a libcurl handle for one Bugzilla */
struct bugzilla_client *bugzilla_client_new(const struct bugzilla_config *bc)
{
	static bool global;
	struct bugzilla_client *c;

	if (!global) {
		curl_global_init(CURL_GLOBAL_DEFAULT);
		global = true;
	}
	c = xcalloc(1, sizeof(*c));
	c->cfg.url = xstrdup(bc->url);
	c->cfg.ca_file = bc->ca_file ? xstrdup(bc->ca_file) : NULL;
	c->cfg.timeout_ms =
		bc->timeout_ms ? bc->timeout_ms : BUGZILLA_TIMEOUT_MS;
	c->cfg.connect_timeout_ms = bc->connect_timeout_ms
					    ? bc->connect_timeout_ms
					    : BUGZILLA_CONNECT_MS;
	c->cfg.max_response =
		bc->max_response ? bc->max_response : BUGZILLA_RESPONSE_MAX;
	c->curl = curl_easy_init();
	if (!c->curl) {
		bugzilla_client_free(c);
		return NULL;
	}
	if (bc->api_key && *bc->api_key) {
		char *esc = curl_easy_escape(c->curl, bc->api_key, 0);

		if (!esc) {
			bugzilla_client_free(c);
			return NULL;
		}
		c->key_param = xasprintf("api_key=%s", esc);
		curl_free(esc);
		c->key_header =
			xasprintf("X-BUGZILLA-API-KEY: %s", bc->api_key);
	}
	return c;
}

static void scrub_free(char *s)
{
	if (s)
		memset(s, 0, strlen(s));
	free(s);
}

void bugzilla_client_free(struct bugzilla_client *c)
{
	if (!c)
		return;
	if (c->curl)
		curl_easy_cleanup(c->curl);
	scrub_free(c->key_param);
	scrub_free(c->key_header);
	free(c->cfg.url);
	free(c->cfg.ca_file);
	free(c);
}

/*
 * bugzilla_request - one REST call; 0 and the body on 2xx, else -1 with
 * the classified result
 */
int bugzilla_request(struct bugzilla_client *c, const char *method,
		     const char *path, const char *query, const char *body,
		     char **out, size_t *out_len, struct bugzilla_result *res)
{
	struct response rsp;
	struct curl_slist *hdrs = NULL;
	char errbuf[CURL_ERROR_SIZE] = "";
	char *url;
	CURL *h = c->curl;
	CURLcode cc;
	long code = 0;
	int ret = -1;

	result_init(res);
	if (out)
		*out = NULL;
	if (out_len)
		*out_len = 0;
	url = xasprintf("%s/rest/%s%s%s%s%s", c->cfg.url, path,
			(query && *query) || c->key_param ? "?" : "",
			query ? query : "",
			query && *query && c->key_param ? "&" : "",
			c->key_param ? c->key_param : "");
	if (strlen(url) > URL_MAX) {
		scrub_free(url);
		detail(res, "%s /rest/%s: URL too long", method, path);
		res->status = DELIVER_PERMANENT;
		return -1;
	}
	sb_init(&rsp.sb, c->cfg.max_response);
	rsp.too_big = false;

	curl_easy_reset(h);
	curl_easy_setopt(h, CURLOPT_URL, url);
#if LIBCURL_VERSION_NUM >= 0x075500
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
#else
	curl_easy_setopt(h, CURLOPT_PROTOCOLS,
			 (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
	curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS,
			 c->cfg.connect_timeout_ms);
	curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, c->cfg.timeout_ms);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, &rsp);
	curl_easy_setopt(h, CURLOPT_USERAGENT, "triage/" TRIAGE_VERSION);
	curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
	if (c->cfg.max_response)
		curl_easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE,
				 (curl_off_t)c->cfg.max_response);
	if (c->cfg.ca_file)
		curl_easy_setopt(h, CURLOPT_CAINFO, c->cfg.ca_file);
	hdrs = curl_slist_append(hdrs, "Accept: application/json");
	hdrs = curl_slist_append(hdrs, "Content-Type: application/json");
	if (c->key_header)
		hdrs = curl_slist_append(hdrs, c->key_header);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdrs);
	if (strcmp(method, "GET") != 0) {
		curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method);
		curl_easy_setopt(h, CURLOPT_POSTFIELDS, body ? body : "");
		curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE,
				 (curl_off_t)(body ? strlen(body) : 0));
	}

	cc = curl_easy_perform(h);
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
	curl_slist_free_all(hdrs);
	scrub_free(url);
	curl_easy_setopt(h, CURLOPT_URL, "");

	res->curl_code = (int)cc;
	res->http_status = code;
	if (rsp.too_big || cc == CURLE_FILESIZE_EXCEEDED) {
		res->status = DELIVER_PERMANENT;
		detail(res, "%s /rest/%s: response larger than %zu bytes",
		       method, path, c->cfg.max_response);
		goto out;
	}
	res->status = bugzilla_classify((int)cc, code);
	if (cc != CURLE_OK) {
		/* libcurl's text names hosts, never our query string */
		detail(res, "%s /rest/%s: %s", method, path,
		       errbuf[0] ? errbuf : curl_easy_strerror(cc));
		goto out;
	}
	if (res->status == DELIVER_OK) {
		long bz;
		char msg[BUGZILLA_ERR_MAX];

		if (bugzilla_parse_error(sb_str(&rsp.sb), rsp.sb.len, &bz, msg,
					 sizeof(msg)) == 1) {
			res->status = DELIVER_PERMANENT;
			res->bz_code = bz;
			detail(res, "%s /rest/%s: HTTP %ld: error %ld: %s",
			       method, path, code, bz, msg);
			goto out;
		}
		detail(res, "%s /rest/%s: HTTP %ld", method, path, code);
		if (out) {
			if (out_len)
				*out_len = rsp.sb.len;
			*out = rsp.sb.buf ? sb_detach(&rsp.sb, NULL)
					  : xstrdup("");
		}
		ret = 0;
		goto out;
	}
	{
		long bz;
		char msg[BUGZILLA_ERR_MAX];

		if (bugzilla_parse_error(sb_str(&rsp.sb), rsp.sb.len, &bz, msg,
					 sizeof(msg)) == 1) {
			res->bz_code = bz;
			detail(res, "%s /rest/%s: HTTP %ld: error %ld: %s",
			       method, path, code, bz, msg);
		} else {
			detail(res, "%s /rest/%s: HTTP %ld", method, path,
			       code);
		}
	}
out:
	sb_release(&rsp.sb);
	return ret;
}

/* bugzilla_fetch_bug - GET /rest/bug/ID */
int bugzilla_fetch_bug(struct bugzilla_client *c, long id,
		       struct bugzilla_bug *bug, struct bugzilla_result *res)
{
	char path[64], err[BUGZILLA_ERR_MAX];
	char *body;
	size_t len;

	memset(bug, 0, sizeof(*bug));
	snprintf(path, sizeof(path), "bug/%ld", id);
	if (bugzilla_request(c, "GET", path, NULL, NULL, &body, &len, res) < 0)
		return -1;
	if (bugzilla_parse_bug(body, len, id, bug, err, sizeof(err)) < 0) {
		res->status = DELIVER_PERMANENT;
		detail(res, "GET /rest/%s: %s", path, err);
		free(body);
		return -1;
	}
	free(body);
	return 0;
}

/* bugzilla_fetch_first_comment - GET /rest/bug/ID/comment, comment 0 */
int bugzilla_fetch_first_comment(struct bugzilla_client *c, long id,
				 struct bugzilla_comment *cm,
				 struct bugzilla_result *res)
{
	char path[64], err[BUGZILLA_ERR_MAX];
	char *body;
	size_t len;

	memset(cm, 0, sizeof(*cm));
	snprintf(path, sizeof(path), "bug/%ld/comment", id);
	if (bugzilla_request(c, "GET", path, NULL, NULL, &body, &len, res) < 0)
		return -1;
	if (bugzilla_parse_first_comment(body, len, id, cm, err, sizeof(err)) <
	    0) {
		res->status = DELIVER_PERMANENT;
		detail(res, "GET /rest/%s: %s", path, err);
		free(body);
		return -1;
	}
	free(body);
	return 0;
}

static int add_param(struct strbuf *q, CURL *h, const char *name,
		     const char *value)
{
	char *esc = curl_easy_escape(h, value, 0);
	int rc;

	if (!esc)
		return -1;
	rc = sb_addf(q, "%s%s=%s", q->len ? "&" : "", name, esc);
	curl_free(esc);
	return rc;
}

/* bugzilla_search - GET /rest/bug?last_change_time=...: ids and times */
int bugzilla_search(struct bugzilla_client *c, const struct bugzilla_query *q,
		    struct bugzilla_hit **hits, size_t *n,
		    struct bugzilla_result *res)
{
	struct strbuf qs = STRBUF_INIT(URL_MAX);
	char num[32], err[BUGZILLA_ERR_MAX];
	char *body;
	size_t len, i;
	int rc = 0;

	*hits = NULL;
	*n = 0;
	result_init(res);
	rc |= add_param(&qs, c->curl, "include_fields", "id,last_change_time");
	if (q->since && *q->since)
		rc |= add_param(&qs, c->curl, "last_change_time", q->since);
	for (i = 0; q->products && q->products[i]; i++)
		rc |= add_param(&qs, c->curl, "product", q->products[i]);
	for (i = 0; q->components && q->components[i]; i++)
		rc |= add_param(&qs, c->curl, "component", q->components[i]);
	/*
	 * A stable order, so that offset paging neither skips nor repeats
	 * a bug when the server's default order is unspecified (bug_id
	 * breaks ties between bugs changed in the same second).
	 */
	rc |= add_param(&qs, c->curl, "order", "changeddate,bug_id");
	snprintf(num, sizeof(num), "%u", q->limit ? q->limit : 100);
	rc |= add_param(&qs, c->curl, "limit", num);
	snprintf(num, sizeof(num), "%u", q->offset);
	rc |= add_param(&qs, c->curl, "offset", num);
	if (rc) {
		sb_release(&qs);
		res->status = DELIVER_PERMANENT;
		detail(res, "GET /rest/bug: query too long");
		return -1;
	}
	rc = bugzilla_request(c, "GET", "bug", sb_str(&qs), NULL, &body, &len,
			      res);
	sb_release(&qs);
	if (rc < 0)
		return -1;
	if (bugzilla_parse_search(body, len, hits, n, err, sizeof(err)) < 0) {
		res->status = DELIVER_PERMANENT;
		detail(res, "GET /rest/bug: %s", err);
		free(body);
		return -1;
	}
	free(body);
	return 0;
}

/* ---- write-back ------------------------------------------------------------ */

/* bugzilla_writeback_config - the opt-in write-back settings */
void bugzilla_writeback_config(struct bugzilla_writeback *wb,
			       const struct config *cfg)
{
	const char *kw = config_get(cfg, "bugzilla_keyword");

	memset(wb, 0, sizeof(*wb));
	wb->comment = config_bool(cfg, "bugzilla_comment");
	wb->comment_private = config_bool(cfg, "bugzilla_comment_private");
	wb->assign = config_bool(cfg, "bugzilla_assign");
	wb->cc = config_bool(cfg, "bugzilla_cc");
	if (kw && *kw) {
		const char *p;

		for (p = kw; *p; p++)
			if ((unsigned char)*p <= 0x20 ||
			    (unsigned char)*p >= 0x7f || *p == ',')
				break;
		if (*p || strlen(kw) > 64)
			warn("%s: bugzilla_keyword '%s' is not one word; ignored",
			     cfg->path, kw);
		else
			wb->keyword = kw;
	}
}

bool bugzilla_writeback_wanted(const struct bugzilla_writeback *wb)
{
	return wb->comment || wb->assign || wb->cc || wb->keyword;
}

/* bugzilla_writeback_json - the outbox job (see bugzilla.h) */
char *bugzilla_writeback_json(const struct bugzilla_writeback *wb,
			      const char *url, long id, const char *comment,
			      const char *recipient)
{
	json_t *j =
		json_pack("{s:s, s:I}", "url", url, "bug_id", (json_int_t)id);
	char *s;

	if (!j)
		return NULL;
	if (wb->comment && comment) {
		json_object_set_new(j, "comment", json_string(comment));
		json_object_set_new(j, "comment_private",
				    json_boolean(wb->comment_private));
	}
	if (recipient && addr_valid(recipient)) {
		if (wb->assign)
			json_object_set_new(j, "assigned_to",
					    json_string(recipient));
		if (wb->cc)
			json_object_set_new(j, "cc", json_string(recipient));
	}
	if (wb->keyword)
		json_object_set_new(j, "keyword", json_string(wb->keyword));
	s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(j);
	return s;
}

/* same_text - equal but for line ends and trailing white space */
static bool same_text(const char *a, const char *b)
{
	for (;;) {
		while (*a == '\r')
			a++;
		while (*b == '\r')
			b++;
		if (!*a || !*b)
			break;
		if (*a != *b)
			return false;
		a++;
		b++;
	}
	while (*a && isspace((unsigned char)*a))
		a++;
	while (*b && isspace((unsigned char)*b))
		b++;
	return !*a && !*b;
}

/* comment_posted - 1 when bug id already has this comment, 0 no, -1 */
static int comment_posted(struct bugzilla_client *c, long id, const char *text,
			  struct bugzilla_result *res)
{
	char path[64], err[BUGZILLA_ERR_MAX];
	char *body;
	size_t len, i;
	json_t *root, *list, *v;
	int found = 0;

	snprintf(path, sizeof(path), "bug/%ld/comment", id);
	if (bugzilla_request(c, "GET", path, NULL, NULL, &body, &len, res) < 0)
		return -1;
	root = load(body, len, err, sizeof(err));
	free(body);
	if (!root || !(list = comments_of(root, id, err, sizeof(err)))) {
		json_decref(root);
		res->status = DELIVER_PERMANENT;
		detail(res, "GET /rest/%s: %s", path, err);
		return -1;
	}
	json_array_foreach(list, i, v)
	{
		const json_t *t = json_object_get(v, "text");

		if (json_is_string(t) &&
		    same_text(json_string_value(t), text)) {
			found = 1;
			break;
		}
	}
	json_decref(root);
	return found;
}

/* bugzilla_writeback_run - one PUT /rest/bug/ID for an outbox job */
int bugzilla_writeback_run(struct bugzilla_client *c, const char *job,
			   size_t len, int attempts,
			   struct bugzilla_result *res)
{
	char err[BUGZILLA_ERR_MAX], path[64];
	json_t *j = load(job, len, err, sizeof(err)), *put = NULL;
	const char *url, *comment, *assign, *cc, *kw;
	char *body = NULL;
	long id;
	int ret = -1;

	result_init(res);
	res->status = DELIVER_PERMANENT;
	if (!j) {
		detail(res, "write-back job: %s", err);
		return -1;
	}
	url = json_string_value(json_object_get(j, "url"));
	comment = json_string_value(json_object_get(j, "comment"));
	assign = json_string_value(json_object_get(j, "assigned_to"));
	cc = json_string_value(json_object_get(j, "cc"));
	kw = json_string_value(json_object_get(j, "keyword"));
	if (get_id(j, "bug_id", 1, &id) != 1 || !url) {
		detail(res, "write-back job without url or bug_id");
		goto out;
	}
	if (strcmp(url, c->cfg.url) != 0) {
		detail(res,
		       "write-back for another Bugzilla than bugzilla_url");
		goto out;
	}
	if (comment && attempts > 1) {
		int rc = comment_posted(c, id, comment, res);

		if (rc < 0)
			goto out;
		if (rc == 1)
			comment = NULL; /* the earlier try got through */
	}
	put = json_pack("{s:[I]}", "ids", (json_int_t)id);
	if (comment)
		json_object_set_new(put, "comment",
				    json_pack("{s:s, s:b}", "body", comment,
					      "is_private",
					      json_is_true(json_object_get(
						      j, "comment_private"))));
	if (assign)
		json_object_set_new(put, "assigned_to", json_string(assign));
	if (cc)
		json_object_set_new(put, "cc", json_pack("{s:[s]}", "add", cc));
	if (kw)
		json_object_set_new(put, "keywords",
				    json_pack("{s:[s]}", "add", kw));
	if (json_object_size(put) == 1) {
		result_init(res);
		res->status = DELIVER_OK;
		detail(res, "nothing left to write back");
		ret = 0;
		goto out;
	}
	body = json_dumps(put, JSON_COMPACT);
	snprintf(path, sizeof(path), "bug/%ld", id);
	ret = bugzilla_request(c, "PUT", path, NULL, body, NULL, NULL, res);
out:
	free(body);
	json_decref(put);
	json_decref(j);
	return ret;
}
