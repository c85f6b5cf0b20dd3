/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bugzilla - Bugzilla webhook payloads, REST responses, the REST client
 *	      and the report built from a bug
 *
 * DESCRIPTION
 *	The intake and parse stages for reports that come from Bugzilla
 *	rather than by mail, linked only into triage-net ('triage serve',
 *	'triage bugzilla poll', 'triage deliver').
 *
 *	Parsing (jansson).  Every document is read with
 *	JSON_REJECT_DUPLICATES (a key given twice is an error, so two
 *	readers cannot disagree on its value) and validated field by
 *	field: a required field that is missing or of the wrong type is
 *	an error; an optional field of the wrong type is ignored.  Ids
 *	are integers 1..BUGZILLA_ID_MAX (a real, a string or a larger
 *	number is refused: jansson itself refuses integers that do not
 *	fit 64 bits); one-line fields are cleaned to UTF-8 without
 *	controls (mimetext MIMETEXT_LINE) and cut at BUGZILLA_FIELD_MAX
 *	bytes; comment text at REPORT_TEXT_MAX.  A document nested
 *	deeper than BUGZILLA_JSON_DEPTH_MAX (jansson's own limit, checked
 *	at build time) is refused; 'triage serve' refuses a body over
 *	webhook_max_body (BUGZILLA_PAYLOAD_MAX) before parsing it (413).
 *
 *	  webhook (bugzilla.mozilla.org, research/ecosystem.md 1.1):
 *	    {webhook_id, webhook_name, event {action, target, routing_key,
 *	     time, user {login}, changes}, bug {id, ..., comment {id},
 *	     attachment {id}}}
 *	    Required: webhook_id (>= 0), event.action, event.target,
 *	    event.routing_key, event.time, bug.id.  A private bug is only
 *	    {id, is_private: true}: the rest must be fetched over REST.
 *	  GET /rest/bug/ID           {"bugs": [{...}], "faults": []}
 *	  GET /rest/bug/ID/comment   {"bugs": {"ID": {"comments": [...]}}}
 *	                             (keyed by the id as a string)
 *	  GET /rest/bug?...          {"bugs": [{"id", "last_change_time"}]}
 *	  errors                     {"error": true, "message", "code"}
 *
 *	Reports.  bugzilla_report() builds the struct report the pipeline
 *	reads, from a bug and its first comment (the description): a
 *	synthetic RFC 5322 message (report->raw, what a forward carries)
 *	with From: the creator, To: the router, Subject: "[Bug N]
 *	summary", Date: the creation time, Message-ID: <bug-N@HOST> (HOST
 *	from the Bugzilla URL, so that two ingestions of one bug, or mail
 *	carrying that id, dedupe), and X-Bugzilla-URL, -ID, -Product,
 *	-Component, -Version, -Keywords, -Severity, -Priority, -Status,
 *	-Resolution, -Who, -Assigned-To, -Type: new, for rules that match
 *	on headers (the same names Bugzilla's bugmail uses).  The body is
 *	the first comment's text.  A creator that is not a usable mail
 *	address gives From: the router's address with the login as its
 *	display name.  The same bug gives the same bytes and sha256.
 *
 *	The REST client (libcurl).  The API key is sent both as the
 *	X-BUGZILLA-API-KEY header (bugzilla.mozilla.org) and as the
 *	api_key query parameter (upstream 5.2 reads only that); so URLs
 *	carry the key and are never printed: results name the method and
 *	path only.  Requests set Accept and Content-Type: application/json,
 *	a connect timeout and a whole-request timeout, follow no redirect
 *	(the key would go along), speak only http and https, and read at
 *	most max_response bytes (the proxy variables are honoured as
 *	libcurl does: use an https URL so that a proxy only tunnels the
 *	key).  Classification:
 *	  - transport failures (resolve, connect, timeout, send, receive,
 *	    TLS) are temporary;
 *	  - HTTP 5xx, 408 and 429 are temporary;
 *	  - other 4xx (401 login, 404 no such bug, 400 bad key ...) and a
 *	    2xx whose body says {"error": true} are permanent for this
 *	    request;
 *	  - a response over the size cap, or not JSON, is permanent.
 *
 *	Write-back (opt-in, routes.conf).  After a forward, a job queued in
 *	the outbox (kind "bugzilla", the message a JSON document made by
 *	bugzilla_writeback_json()) is run by the outbox worker with
 *	bugzilla_writeback_run(): one PUT /rest/bug/ID with the comment
 *	and the field changes.  A retried job first reads the comments and
 *	leaves the comment out when it is already there (a timeout after
 *	the server acted must not post it twice).
 *
 *	routes.conf (routes.conf(5)):
 *	  bugzilla_url              base URL (https://bugzilla.example.org)
 *	  bugzilla_api_key_file     file holding the API key (one line)
 *	  bugzilla_timeout          seconds per request (default 30)
 *	  bugzilla_connect_timeout  seconds (default 10)
 *	  bugzilla_ca_file          PEM CA bundle (default: system store)
 *	  bugzilla_comment          yes: comment where the bug went (no)
 *	  bugzilla_comment_private  yes: make that comment private (no)
 *	  bugzilla_assign           yes: assign the bug to the recipient (no)
 *	  bugzilla_cc               yes: add the recipient to CC (no)
 *	  bugzilla_keyword          a keyword to add, e.g. triaged (none)
 *	  bugzilla_forward_private  yes: mail private bugs too (no: held)
 *
 * Ownership:
 *	Parsed structs own their strings; release them with the matching
 *	_release().  bugzilla_report() returns a new report (report_free).
 *	bugzilla_client_new() copies the config strings it keeps.
 *
 * Errors:
 *	Parsers return 0, or -1 with a one-line reason in err (never the
 *	input text).  Client calls return 0, or -1 with the result filled
 *	in; they print nothing.  bugzilla_config_load() prints and
 *	returns -1 for an unusable configuration.
 */
#ifndef TRIAGE_BUGZILLA_H
#define TRIAGE_BUGZILLA_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "deliver.h"

struct config;
struct report;

#define BUGZILLA_ID_MAX		2147483647L
#define BUGZILLA_FIELD_MAX	1024	   /* bytes of a one-line field kept */
#define BUGZILLA_PAYLOAD_MAX	(1u << 20) /* default webhook body cap */
#define BUGZILLA_RESPONSE_MAX	(8u << 20) /* default REST response cap */
#define BUGZILLA_TIMEOUT_MS	30000
#define BUGZILLA_CONNECT_MS	10000
#define BUGZILLA_ERR_MAX	160
#define BUGZILLA_JSON_DEPTH_MAX 2048 /* jansson's JSON_PARSER_MAX_DEPTH */

struct bugzilla_bug {
	long id;
	bool is_private; /* is_private, or in a group (restricted) */
	char *summary, *product, *component, *version, *classification;
	char *status, *resolution, *severity, *priority;
	char *platform, *op_sys, *whiteboard, *url;
	char *creator, *creator_name, *assigned_to;
	char *keywords; /* "a, b" */
	char *creation_time, *last_change_time;
};

struct bugzilla_comment {
	long id, count;
	bool is_private;
	char *text; /* UTF-8, LF line ends */
	size_t text_len;
	char *creator, *creation_time;
};

struct bugzilla_event {
	long webhook_id;
	char *webhook_name;
	char *action, *target, *routing_key, *time;
	char *user;			/* event.user.login, or NULL */
	long comment_id, attachment_id; /* 0: none */
	struct bugzilla_bug bug;	/* the hint; bug.id is always set */
};

/* a search hit: GET /rest/bug?include_fields=id,last_change_time */
struct bugzilla_hit {
	long id;
	char last_change_time[64];
};

/* parsing */
int bugzilla_parse_event(const char *json, size_t len,
			 struct bugzilla_event *ev, char *err, size_t errsize);
void bugzilla_event_release(struct bugzilla_event *ev);
int bugzilla_parse_bug(const char *json, size_t len, long id,
		       struct bugzilla_bug *bug, char *err, size_t errsize);
void bugzilla_bug_release(struct bugzilla_bug *bug);
/* bugzilla_parse_first_comment - comment count 0 (else the first given) */
int bugzilla_parse_first_comment(const char *json, size_t len, long id,
				 struct bugzilla_comment *c, char *err,
				 size_t errsize);
void bugzilla_comment_release(struct bugzilla_comment *c);
int bugzilla_parse_search(const char *json, size_t len,
			  struct bugzilla_hit **hits, size_t *n, char *err,
			  size_t errsize);
/* bugzilla_parse_error - 1 with code and message for an error body */
int bugzilla_parse_error(const char *json, size_t len, long *code,
			 char *message, size_t size);

/* the report */
struct report *bugzilla_report(const struct bugzilla_bug *bug,
			       const struct bugzilla_comment *first,
			       const char *base_url, const char *router_addr);
/* bugzilla_url_valid - an http(s) base URL without query or controls */
bool bugzilla_url_valid(const char *url);
/* bugzilla_url_host - the host of url into buf; -1 when there is none */
int bugzilla_url_host(const char *url, char *buf, size_t size);

/* the REST client */
struct bugzilla_config {
	char *url;     /* base, without the trailing slash */
	char *api_key; /* NULL: anonymous */
	char *ca_file; /* NULL: system store */
	long timeout_ms, connect_timeout_ms;
	size_t max_response;
};

struct bugzilla_result {
	enum deliver_status status;
	long http_status; /* 0: no response */
	int curl_code;
	long bz_code; /* Bugzilla's error code, or 0 */
	char detail[DELIVER_DETAIL_MAX];
};

int bugzilla_config_load(struct bugzilla_config *bc, const struct config *cfg,
			 const char *url);
void bugzilla_config_release(struct bugzilla_config *bc);
enum deliver_status bugzilla_classify(int curl_code, long http_status);

struct bugzilla_client;

struct bugzilla_client *bugzilla_client_new(const struct bugzilla_config *bc);
void bugzilla_client_free(struct bugzilla_client *c);
/*
 * bugzilla_request - METHOD /rest/PATH?QUERY (QUERY already escaped, or
 * NULL) with an optional JSON body; *out gets the response (caller
 * frees) when the call succeeded
 */
int bugzilla_request(struct bugzilla_client *c, const char *method,
		     const char *path, const char *query, const char *body,
		     char **out, size_t *out_len, struct bugzilla_result *res);
int bugzilla_fetch_bug(struct bugzilla_client *c, long id,
		       struct bugzilla_bug *bug, struct bugzilla_result *res);
int bugzilla_fetch_first_comment(struct bugzilla_client *c, long id,
				 struct bugzilla_comment *cm,
				 struct bugzilla_result *res);

struct bugzilla_query {
	const char *const *products;   /* NULL-terminated, or NULL */
	const char *const *components; /* NULL-terminated, or NULL */
	const char *since; /* last_change_time, as Bugzilla writes */
	unsigned limit, offset;
};

int bugzilla_search(struct bugzilla_client *c, const struct bugzilla_query *q,
		    struct bugzilla_hit **hits, size_t *n,
		    struct bugzilla_result *res);

/* write-back */
struct bugzilla_writeback {
	bool comment, comment_private, assign, cc;
	const char *keyword; /* NULL: none */
};

void bugzilla_writeback_config(struct bugzilla_writeback *wb,
			       const struct config *cfg);
bool bugzilla_writeback_wanted(const struct bugzilla_writeback *wb);
/*
 * bugzilla_writeback_json - the outbox job for bug id on Bugzilla url:
 * comment text (or NULL) and the recipient to assign or CC (or NULL);
 * a new string
 */
char *bugzilla_writeback_json(const struct bugzilla_writeback *wb,
			      const char *url, long id, const char *comment,
			      const char *recipient);
/* bugzilla_writeback_run - do a job; attempts counts this one */
int bugzilla_writeback_run(struct bugzilla_client *c, const char *job,
			   size_t len, int attempts,
			   struct bugzilla_result *res);

#endif
