// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_bugzilla - webhook and REST parsing, hostile JSON, the report
 * built from a bug, the REST client's requests and its classification
 *
 * The real payloads and REST responses are read at run time from
 * ../shared/fixtures/bugzilla (or $TRIAGE_SHARED/fixtures/bugzilla) and
 * those tests skip when it is absent.  The REST client is tested against
 * a one-connection-at-a-time HTTP server in a thread of this program,
 * answering what each test tells it to.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bugzilla.h"
#include "report.h"
#include "strbuf.h"
#include "util.h"

#define BASE "https://bugzilla.example.org"

static char fixtures[4096];

static bool find_fixtures(void)
{
	const char *env = getenv("TRIAGE_SHARED");
	const char *src = getenv("TRIAGE_SRCDIR");

	if (env && *env)
		snprintf(fixtures, sizeof(fixtures), "%s/fixtures/bugzilla",
			 env);
	else
		snprintf(fixtures, sizeof(fixtures),
			 "%s/../shared/fixtures/bugzilla",
			 src && *src ? src : ".");
	return is_dir(fixtures);
}

/* fixture - the file's bytes, or skip the test when there are none */
static char *fixture(const char *name, size_t *len)
{
	char *path, *buf;

	if (!find_fixtures()) {
		print_message("# %s is absent: skipped\n", fixtures);
		skip();
	}
	path = xasprintf("%s/%s", fixtures, name);
	assert_int_equal(read_file(path, 1 << 20, &buf, len), 0);
	free(path);
	return buf;
}

static int parse_event(const char *json, struct bugzilla_event *ev, char *err)
{
	return bugzilla_parse_event(json, strlen(json), ev, err, 200);
}

/* ---- the fixtures ---------------------------------------------------------- */

static void test_fixture_public_modify(void **state)
{
	struct bugzilla_event ev;
	char err[200];
	size_t len;
	char *j = fixture("bmo-webhook-bug-modify-public.json", &len);

	assert_int_equal(bugzilla_parse_event(j, len, &ev, err, sizeof(err)),
			 0);
	assert_int_equal(ev.webhook_id, 23);
	assert_string_equal(ev.webhook_name, "test-bug");
	assert_string_equal(ev.action, "modify");
	assert_string_equal(ev.target, "bug");
	assert_string_equal(ev.routing_key, "bug.modify:priority");
	assert_string_equal(ev.time, "2020-07-24T20:11:22");
	assert_string_equal(ev.user, "nobody@mozilla.org");
	assert_int_equal(ev.bug.id, 1629704);
	assert_false(ev.bug.is_private);
	assert_string_equal(ev.bug.product, "Firefox");
	assert_string_equal(ev.bug.component, "Sync");
	assert_string_equal(ev.bug.summary, "Webhook Test - Disregard");
	assert_string_equal(ev.bug.op_sys, "Unspecified");
	assert_string_equal(ev.bug.creator_name,
			    "Nobody; OK to take it and work on it");
	assert_null(ev.bug.keywords); /* an empty list */
	assert_int_equal(ev.comment_id, 14748073);
	assert_int_equal(ev.attachment_id, 0);
	bugzilla_event_release(&ev);
	free(j);
}

static void test_fixture_private(void **state)
{
	struct bugzilla_event ev;
	char err[200];
	size_t len;
	char *j = fixture("bmo-webhook-bug-modify-private.json", &len);

	assert_int_equal(bugzilla_parse_event(j, len, &ev, err, sizeof(err)),
			 0);
	assert_int_equal(ev.bug.id, 2);
	assert_true(ev.bug.is_private);
	assert_null(ev.bug.summary);
	assert_null(ev.bug.product);
	assert_int_equal(ev.comment_id, 0);
	bugzilla_event_release(&ev);
	free(j);
}

static void test_fixture_comment_and_attachment(void **state)
{
	struct bugzilla_event ev;
	char err[200];
	size_t len;
	char *j = fixture("bmo-webhook-comment-create.json", &len);

	assert_int_equal(bugzilla_parse_event(j, len, &ev, err, sizeof(err)),
			 0);
	assert_string_equal(ev.routing_key, "comment.create");
	assert_string_equal(ev.target, "comment");
	assert_int_equal(ev.comment_id, 14748073);
	assert_int_equal(ev.attachment_id, 0);
	bugzilla_event_release(&ev);
	free(j);

	j = fixture("bmo-webhook-attachment-create.json", &len);
	assert_int_equal(bugzilla_parse_event(j, len, &ev, err, sizeof(err)),
			 0);
	assert_string_equal(ev.routing_key, "attachment.create");
	assert_int_equal(ev.attachment_id, 9180115);
	assert_int_equal(ev.comment_id, 0);
	assert_int_equal(ev.bug.id, 1629704);
	bugzilla_event_release(&ev);
	free(j);
}

static void test_fixture_jbi(void **state)
{
	struct bugzilla_event ev;
	char err[200];
	size_t len;
	char *j = fixture("jbi-webhook-bug-modify-status.json", &len);

	assert_int_equal(bugzilla_parse_event(j, len, &ev, err, sizeof(err)),
			 0);
	assert_int_equal(ev.webhook_id, 1);
	assert_string_equal(ev.routing_key, "bug.modify:status,resolution");
	assert_int_equal(ev.bug.id, 1);
	assert_string_equal(ev.bug.status, "RESOLVED");
	assert_string_equal(ev.bug.resolution, "FIXED");
	assert_string_equal(ev.bug.summary, "");
	assert_int_equal(ev.comment_id, 0); /* "comment": null */
	bugzilla_event_release(&ev);
	free(j);
}

static void test_fixture_rest_bug_and_comments(void **state)
{
	struct bugzilla_bug bug;
	struct bugzilla_comment c;
	char err[200];
	size_t len;
	char *j = fixture("bugzilla52-rest-get-bug-response.json", &len);

	assert_int_equal(bugzilla_parse_bug(j, len, 35, &bug, err, sizeof(err)),
			 0);
	assert_int_equal(bug.id, 35);
	assert_string_equal(bug.summary, "test bug");
	assert_string_equal(bug.product, "FoodReplicator");
	assert_string_equal(bug.component, "SaltSprinkler");
	assert_string_equal(bug.creator, "user@bugzilla.org");
	assert_string_equal(bug.creator_name, "hello");
	assert_string_equal(bug.op_sys, "All");
	assert_string_equal(bug.severity, "critical");
	assert_string_equal(bug.creation_time, "2000-07-25T13:50:04Z");
	assert_string_equal(bug.last_change_time, "2014-09-23T19:12:17Z");
	assert_false(bug.is_private); /* "groups": [] */
	bugzilla_bug_release(&bug);
	/* another bug than the one asked for is an error */
	assert_int_equal(bugzilla_parse_bug(j, len, 36, &bug, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "36"));
	free(j);

	j = fixture("bugzilla52-rest-get-comments-response.json", &len);
	assert_int_equal(
		bugzilla_parse_first_comment(j, len, 35, &c, err, sizeof(err)),
		0);
	assert_int_equal(c.id, 75);
	assert_int_equal(c.count, 0);
	assert_string_equal(
		c.text, "test bug to fix problem in removing from cc list.");
	assert_string_equal(c.creator, "user@bugzilla.org");
	bugzilla_comment_release(&c);
	assert_int_equal(
		bugzilla_parse_first_comment(j, len, 36, &c, err, sizeof(err)),
		-1);
	free(j);
}

static void test_fixture_errors_and_writes(void **state)
{
	static const char *const ok[] = {
		"bugzilla52-rest-post-comment-request.json",
		"bugzilla52-rest-post-comment-response.json",
		"bugzilla52-rest-put-bug-request.json",
		"bugzilla52-rest-put-bug-response.json",
	};
	char msg[100];
	long code;
	size_t len, i;
	char *j = fixture("bugzilla52-rest-error-response.json", &len);

	assert_int_equal(bugzilla_parse_error(j, len, &code, msg, sizeof(msg)),
			 1);
	assert_int_equal(code, 123);
	assert_string_equal(msg, "Some message here");
	free(j);
	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		j = fixture(ok[i], &len);
		assert_int_equal(
			bugzilla_parse_error(j, len, &code, msg, sizeof(msg)),
			0);
		free(j);
	}
}

static void test_fixture_report(void **state)
{
	struct bugzilla_bug bug;
	struct bugzilla_comment c;
	struct report *r, *again;
	char err[200];
	size_t len;
	char *j = fixture("bugzilla52-rest-get-bug-response.json", &len);

	assert_int_equal(bugzilla_parse_bug(j, len, 35, &bug, err, sizeof(err)),
			 0);
	free(j);
	j = fixture("bugzilla52-rest-get-comments-response.json", &len);
	assert_int_equal(
		bugzilla_parse_first_comment(j, len, 35, &c, err, sizeof(err)),
		0);
	free(j);
	r = bugzilla_report(&bug, &c, BASE, "triage@example.org");
	assert_string_equal(r->source, "bugzilla");
	assert_int_equal(r->bug_id, 35);
	assert_string_equal(r->bug_url, BASE "/show_bug.cgi?id=35");
	assert_string_equal(r->subject, "[Bug 35] test bug");
	assert_string_equal(r->message_id, "bug-35@bugzilla.example.org");
	assert_string_equal(r->from_addr, "user@bugzilla.org");
	assert_string_equal(r->from, "hello <user@bugzilla.org>");
	assert_string_equal(
		r->body, "test bug to fix problem in removing from cc list.");
	assert_int_equal(r->when, 964533004); /* 2000-07-25T13:50:04Z */
	assert_string_equal(report_header(r, "X-Bugzilla-Product"),
			    "FoodReplicator");
	assert_string_equal(report_header(r, "X-Bugzilla-Component"),
			    "SaltSprinkler");
	assert_string_equal(report_header(r, "Message-ID"),
			    "<bug-35@bugzilla.example.org>");
	assert_int_equal(r->nparts, 1);
	assert_string_equal(r->parts[0].text, r->body);
	assert_non_null(strstr(r->raw, "\nSubject: [Bug 35] test bug\n"));
	assert_non_null(strstr(
		r->raw, "\nMessage-ID: <bug-35@bugzilla.example.org>\n"));
	assert_non_null(
		strstr(r->raw, "\nX-Bugzilla-Product: FoodReplicator\n"));
	assert_non_null(strstr(r->raw, "\n\ntest bug to fix problem"));
	/* the same bug gives the same bytes: one identity */
	again = bugzilla_report(&bug, &c, BASE, "triage@example.org");
	assert_int_equal(again->raw_len, r->raw_len);
	assert_memory_equal(again->raw, r->raw, r->raw_len);
	assert_string_equal(again->sha256, r->sha256);
	report_free(again);
	report_free(r);
	bugzilla_comment_release(&c);
	bugzilla_bug_release(&bug);
}

/* ---- hostile input ------------------------------------------------------------ */

#define GOOD_EVENT(BUG)                                            \
	"{\"webhook_id\": 1, \"event\": {\"action\": \"create\", " \
	"\"target\": \"bug\", \"routing_key\": \"bug.create\", "   \
	"\"time\": \"2024-01-01T00:00:00\"}, \"bug\": " BUG "}"

static void test_minimal_event(void **state)
{
	struct bugzilla_event ev;
	char err[200];

	assert_int_equal(parse_event(GOOD_EVENT("{\"id\": 5}"), &ev, err), 0);
	assert_int_equal(ev.bug.id, 5);
	assert_null(ev.webhook_name);
	assert_null(ev.user);
	bugzilla_event_release(&ev);
}

static void test_bad_numbers(void **state)
{
	static const char *const bugs[] = {
		"{\"id\": 99999999999999999999999999}",
		"{\"id\": 1e3}",
		"{\"id\": 5.0}",
		"{\"id\": 2147483648}",
		"{\"id\": 0}",
		"{\"id\": -1}",
		"{\"id\": \"5\"}",
		"{\"id\": null}",
		"{\"id\": true}",
		"{\"id\": [5]}",
		"{}",
		"{\"id\": 5, \"comment\": {\"id\": \"7\"}}",
		"{\"id\": 5, \"attachment\": {\"id\": -3}}",
	};
	struct bugzilla_event ev;
	char err[200];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bugs); i++) {
		char *j = xasprintf(GOOD_EVENT("%s"), bugs[i]);

		err[0] = '\0';
		if (parse_event(j, &ev, err) != -1)
			fail_msg("accepted bug %s", bugs[i]);
		assert_true(err[0] != '\0');
		free(j);
	}
	/* a webhook id that does not fit 64 bits */
	assert_int_equal(parse_event("{\"webhook_id\": 1e400}", &ev, err), -1);
	assert_non_null(strstr(err, "bad JSON"));
	assert_int_equal(
		parse_event("{\"webhook_id\": 123456789012345678901234567890}",
			    &ev, err),
		-1);
	assert_non_null(strstr(err, "number too large"));
}

static void test_deep_nesting(void **state)
{
	struct strbuf sb = STRBUF_INIT(1u << 20);
	struct bugzilla_event ev;
	char err[200];
	int i;

	sb_adds(&sb, "{\"webhook_id\": 1, \"x\": ");
	for (i = 0; i < 100000; i++)
		sb_addc(&sb, '[');
	for (i = 0; i < 100000; i++)
		sb_addc(&sb, ']');
	sb_addc(&sb, '}');
	assert_int_equal(
		bugzilla_parse_event(sb.buf, sb.len, &ev, err, sizeof(err)),
		-1);
	assert_non_null(strstr(err, "nested too deeply"));
	sb_release(&sb);
}

static void test_duplicates_and_syntax(void **state)
{
	struct bugzilla_event ev;
	char err[200];

	assert_int_equal(
		parse_event(GOOD_EVENT("{\"id\": 5, \"id\": 6}"), &ev, err),
		-1);
	assert_non_null(strstr(err, "duplicate key"));
	assert_int_equal(
		parse_event("{\"webhook_id\": 1, \"webhook_id\": 1}", &ev, err),
		-1);
	assert_non_null(strstr(err, "duplicate key"));
	assert_int_equal(parse_event("[1, 2]", &ev, err), -1);
	assert_non_null(strstr(err, "not a JSON object"));
	assert_int_equal(parse_event("", &ev, err), -1);
	assert_int_equal(parse_event("{\"webhook_id\": 1} {}", &ev, err), -1);
	/* the error never quotes the input */
	assert_int_equal(parse_event("{\"secret-token-here\" 1}", &ev, err),
			 -1);
	assert_null(strstr(err, "secret"));
	/* NUL and invalid UTF-8 are refused by the parser */
	assert_int_equal(
		parse_event(
			GOOD_EVENT("{\"id\": 5, \"summary\": \"a\\u0000b\"}"),
			&ev, err),
		-1);
	assert_int_equal(
		parse_event(GOOD_EVENT("{\"id\": 5, \"summary\": \"a\xff\"}"),
			    &ev, err),
		-1);
	assert_non_null(strstr(err, "UTF-8"));
}

static void test_wrong_types_and_missing(void **state)
{
	static const char *const bad[] = {
		"{\"webhook_id\": \"1\", \"event\": {}, \"bug\": {\"id\": 5}}",
		"{\"webhook_id\": 1, \"event\": [], \"bug\": {\"id\": 5}}",
		"{\"webhook_id\": 1, \"event\": {\"action\": 5, \"target\": \"bug\","
		" \"routing_key\": \"k\", \"time\": \"t\"}, \"bug\": {\"id\": 5}}",
		"{\"webhook_id\": 1, \"event\": {\"action\": \"create\","
		" \"target\": \"bug\", \"time\": \"t\"}, \"bug\": {\"id\": 5}}",
		"{\"webhook_id\": 1, \"event\": {\"action\": \"create\","
		" \"target\": \"bug\", \"routing_key\": \"k\"}, \"bug\": {\"id\": 5}}",
		"{\"webhook_id\": 1, \"event\": {\"action\": \"\","
		" \"target\": \"bug\", \"routing_key\": \"k\", \"time\": \"t\"},"
		" \"bug\": {\"id\": 5}}",
		GOOD_EVENT("[5]"),
		GOOD_EVENT("null"),
		"{\"webhook_id\": 1, \"event\": {\"action\": \"create\", \"target\":"
		" \"bug\", \"routing_key\": \"k\", \"time\": \"t\"}}",
		"{\"webhook_id\": -1, \"event\": {}, \"bug\": {\"id\": 5}}",
	};
	struct bugzilla_event ev;
	char err[200];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		if (parse_event(bad[i], &ev, err) != -1)
			fail_msg("accepted %s", bad[i]);
	/* optional fields of the wrong type are ignored */
	assert_int_equal(parse_event(GOOD_EVENT("{\"id\": 5, \"summary\": 7,"
						" \"keywords\": {\"a\": 1},"
						" \"creator_detail\": \"x\","
						" \"is_private\": \"yes\"}"),
				     &ev, err),
			 0);
	assert_null(ev.bug.summary);
	assert_null(ev.bug.keywords);
	assert_null(ev.bug.creator_name);
	assert_false(ev.bug.is_private);
	bugzilla_event_release(&ev);
	/* a bug in a group is restricted */
	assert_int_equal(parse_event(GOOD_EVENT("{\"id\": 5, \"groups\": "
						"[\"security\"]}"),
				     &ev, err),
			 0);
	assert_true(ev.bug.is_private);
	bugzilla_event_release(&ev);
}

static void test_fields_are_cleaned(void **state)
{
	struct strbuf sb = STRBUF_INIT(1u << 20);
	struct bugzilla_event ev;
	char err[200];
	int i;

	assert_int_equal(
		parse_event(GOOD_EVENT("{\"id\": 5, \"summary\": "
				       "\"a\\u001b[31mb\\r\\nBcc: x\\u0085y\","
				       " \"keywords\": [\"k1\", 5, \"k2\"]}"),
			    &ev, err),
		0);
	assert_null(strchr(ev.bug.summary, '\033'));
	assert_null(strchr(ev.bug.summary, '\n'));
	assert_null(strchr(ev.bug.summary, '\r'));
	assert_null(strstr(ev.bug.summary, "\xc2\x85")); /* C1 NEL */
	assert_non_null(strstr(ev.bug.summary, "Bcc: x"));
	assert_string_equal(ev.bug.keywords, "k1, k2");
	bugzilla_event_release(&ev);

	sb_adds(&sb, "{\"webhook_id\": 1, \"event\": {\"action\": \"c\", "
		     "\"target\": \"bug\", \"routing_key\": \"k\", "
		     "\"time\": \"t\"}, \"bug\": {\"id\": 5, \"summary\": \"");
	for (i = 0; i < 5000; i++)
		sb_adds(&sb, "\xc3\xa9"); /* e acute: cut on a boundary */
	sb_adds(&sb, "\"}}");
	assert_int_equal(
		bugzilla_parse_event(sb.buf, sb.len, &ev, err, sizeof(err)), 0);
	assert_true(strlen(ev.bug.summary) <= BUGZILLA_FIELD_MAX);
	assert_true(strlen(ev.bug.summary) >= BUGZILLA_FIELD_MAX - 2);
	assert_true(utf8_valid(ev.bug.summary, strlen(ev.bug.summary)));
	bugzilla_event_release(&ev);
	sb_release(&sb);
}

static void test_comments_and_search_shapes(void **state)
{
	struct bugzilla_comment c;
	struct bugzilla_hit *hits;
	size_t n;
	char err[200];
	const char *j;

	/* keyed by the id as a string; the lowest count wins */
	j = "{\"bugs\": {\"9\": {\"comments\": [{\"id\": 91, \"count\": 1, "
	    "\"text\": \"later\"}, \"junk\", {\"id\": 90, \"count\": 0, "
	    "\"text\": \"first\\r\\nline\"}]}}}";
	assert_int_equal(bugzilla_parse_first_comment(j, strlen(j), 9, &c, err,
						      sizeof(err)),
			 0);
	assert_int_equal(c.id, 90);
	assert_string_equal(c.text, "first\nline");
	bugzilla_comment_release(&c);
	/* no comments at all: an empty description, not an error */
	j = "{\"bugs\": {\"9\": {\"comments\": []}}}";
	assert_int_equal(bugzilla_parse_first_comment(j, strlen(j), 9, &c, err,
						      sizeof(err)),
			 0);
	assert_null(c.text);
	/* keyed by a number is not the REST shape */
	j = "{\"bugs\": [{\"comments\": []}]}";
	assert_int_equal(bugzilla_parse_first_comment(j, strlen(j), 9, &c, err,
						      sizeof(err)),
			 -1);

	j = "{\"bugs\": [{\"id\": 1, \"last_change_time\": "
	    "\"2024-01-01T00:00:00Z\"}, {\"id\": \"2\"}, 7, {\"id\": 3}]}";
	assert_int_equal(bugzilla_parse_search(j, strlen(j), &hits, &n, err,
					       sizeof(err)),
			 0);
	assert_int_equal(n, 2);
	assert_int_equal(hits[0].id, 1);
	assert_string_equal(hits[0].last_change_time, "2024-01-01T00:00:00Z");
	assert_int_equal(hits[1].id, 3);
	assert_string_equal(hits[1].last_change_time, "");
	free(hits);
	j = "{\"faults\": []}";
	assert_int_equal(bugzilla_parse_search(j, strlen(j), &hits, &n, err,
					       sizeof(err)),
			 -1);
}

/* ---- reports and URLs ---------------------------------------------------------- */

static void test_report_hostile_bug(void **state)
{
	struct bugzilla_bug bug;
	struct bugzilla_comment c;
	struct report *r;

	memset(&bug, 0, sizeof(bug));
	memset(&c, 0, sizeof(c));
	bug.id = 77;
	bug.summary = (char *)"crash\r\nBcc: victim@example.org";
	bug.creator = (char *)"not an address";
	bug.product = (char *)"Kernel";
	c.text = (char *)"line one\n.\nline three\n";
	c.text_len = strlen(c.text);
	r = bugzilla_report(&bug, &c, "http://bz.example.org:8080/bugs",
			    "triage@example.org");
	/* no header line can be injected through the summary */
	assert_null(strstr(r->raw, "\nBcc:"));
	assert_null(strstr(r->raw, "\r\nBcc:"));
	/* a creator that is no address: From is the router's */
	assert_string_equal(r->from_addr, "triage@example.org");
	assert_non_null(strstr(r->from, "not an address (Bugzilla)"));
	assert_string_equal(r->message_id, "bug-77@bz.example.org");
	assert_string_equal(
		r->bug_url,
		"http://bz.example.org:8080/bugs/show_bug.cgi?id=77");
	assert_int_equal(r->when, 1); /* no creation time: stable bytes */
	assert_string_equal(r->body, c.text);
	report_free(r);
}

static void test_urls(void **state)
{
	char host[64];

	assert_true(bugzilla_url_valid("https://bugzilla.kernel.org"));
	assert_true(bugzilla_url_valid("http://127.0.0.1:8080/bz/"));
	assert_false(bugzilla_url_valid("ftp://bugzilla.kernel.org"));
	assert_false(bugzilla_url_valid("https://bugzilla.kernel.org/?x=1"));
	assert_false(bugzilla_url_valid("https://bugzilla.kernel.org/#x"));
	assert_false(bugzilla_url_valid("https://user:pw@bugzilla.kernel.org"));
	assert_false(bugzilla_url_valid("https://bad host.org"));
	assert_false(bugzilla_url_valid("https://a.org/\r\nX: y"));
	assert_false(bugzilla_url_valid("https://"));
	assert_false(bugzilla_url_valid(NULL));
	assert_int_equal(bugzilla_url_host("https://BZ.Example.org:443/x", host,
					   sizeof(host)),
			 0);
	assert_string_equal(host, "bz.example.org");
}

static void test_classify(void **state)
{
	assert_int_equal(bugzilla_classify(CURLE_OK, 200), DELIVER_OK);
	assert_int_equal(bugzilla_classify(CURLE_OK, 201), DELIVER_OK);
	assert_int_equal(bugzilla_classify(CURLE_OK, 400), DELIVER_PERMANENT);
	assert_int_equal(bugzilla_classify(CURLE_OK, 401), DELIVER_PERMANENT);
	assert_int_equal(bugzilla_classify(CURLE_OK, 404), DELIVER_PERMANENT);
	assert_int_equal(bugzilla_classify(CURLE_OK, 302), DELIVER_PERMANENT);
	assert_int_equal(bugzilla_classify(CURLE_OK, 408), DELIVER_TEMPORARY);
	assert_int_equal(bugzilla_classify(CURLE_OK, 429), DELIVER_TEMPORARY);
	assert_int_equal(bugzilla_classify(CURLE_OK, 500), DELIVER_TEMPORARY);
	assert_int_equal(bugzilla_classify(CURLE_OK, 503), DELIVER_TEMPORARY);
	assert_int_equal(bugzilla_classify(CURLE_COULDNT_CONNECT, 0),
			 DELIVER_TEMPORARY);
	assert_int_equal(bugzilla_classify(CURLE_OPERATION_TIMEDOUT, 200),
			 DELIVER_TEMPORARY);
	assert_int_equal(bugzilla_classify(CURLE_COULDNT_RESOLVE_HOST, 0),
			 DELIVER_TEMPORARY);
	assert_int_equal(bugzilla_classify(CURLE_RECV_ERROR, 0),
			 DELIVER_TEMPORARY);
	assert_int_equal(bugzilla_classify(CURLE_SSL_CONNECT_ERROR, 0),
			 DELIVER_TEMPORARY);
	assert_int_equal(bugzilla_classify(CURLE_WRITE_ERROR, 200),
			 DELIVER_PERMANENT);
}

/* ---- the REST client against a server of ours ----------------------------------- */

struct server {
	int fd;
	unsigned port;
	pthread_t thread;
	const char *response; /* whole HTTP response; NULL: never answer */
	double hold;	      /* seconds to wait before closing, unanswered */
	char request[8192];   /* what the last client sent (headers) */
	size_t request_len;
};

static void *serve_one(void *arg)
{
	struct server *s = arg;
	int c = accept(s->fd, NULL, NULL);
	ssize_t n;

	if (c < 0)
		return NULL;
	s->request_len = 0;
	while (s->request_len < sizeof(s->request) - 1) {
		n = read(c, s->request + s->request_len,
			 sizeof(s->request) - 1 - s->request_len);
		if (n <= 0)
			break;
		s->request_len += (size_t)n;
		s->request[s->request_len] = '\0';
		if (strstr(s->request, "\r\n\r\n"))
			break;
	}
	if (s->response) {
		n = write(c, s->response, strlen(s->response));
		(void)n;
	} else {
		usleep((useconds_t)(s->hold * 1e6));
	}
	close(c);
	return NULL;
}

static void server_start(struct server *s, const char *response)
{
	struct sockaddr_in sa;
	socklen_t len = sizeof(sa);

	memset(s, 0, sizeof(*s));
	s->fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(s->fd >= 0);
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(s->fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(listen(s->fd, 4), 0);
	assert_int_equal(getsockname(s->fd, (struct sockaddr *)&sa, &len), 0);
	s->port = ntohs(sa.sin_port);
	s->response = response;
	s->hold = 2;
	assert_int_equal(pthread_create(&s->thread, NULL, serve_one, s), 0);
}

static void server_stop(struct server *s)
{
	pthread_join(s->thread, NULL);
	close(s->fd);
}

static struct bugzilla_client *client_for(unsigned port, long timeout_ms,
					  size_t max)
{
	struct bugzilla_config bc;
	struct bugzilla_client *c;

	memset(&bc, 0, sizeof(bc));
	bc.url = xasprintf("http://127.0.0.1:%u", port);
	bc.api_key = xstrdup("K3y+With/Odd=Chars");
	bc.timeout_ms = timeout_ms;
	bc.connect_timeout_ms = 2000;
	bc.max_response = max;
	c = bugzilla_client_new(&bc);
	assert_non_null(c);
	bugzilla_config_release(&bc);
	return c;
}

#define HTTP(status, body)                                          \
	"HTTP/1.1 " status "\r\nContent-Type: application/json\r\n" \
	"Connection: close\r\n\r\n" body

static void test_client_request_and_404(void **state)
{
	struct server s;
	struct bugzilla_client *c;
	struct bugzilla_bug bug;
	struct bugzilla_result res;

	server_start(&s, HTTP("404 Not Found",
			      "{\"error\": true, \"code\": 101, \"message\": "
			      "\"Bug #42 does not exist.\"}"));
	c = client_for(s.port, 5000, 0);
	assert_int_equal(bugzilla_fetch_bug(c, 42, &bug, &res), -1);
	server_stop(&s);
	/* the request: path, key in the query and in a header, JSON */
	assert_non_null(strstr(
		s.request, "GET /rest/bug/42?api_key=K3y%2BWith%2FOdd%3DChars "
			   "HTTP/1.1\r\n"));
	assert_non_null(strstr(
		s.request, "\r\nX-BUGZILLA-API-KEY: K3y+With/Odd=Chars\r\n"));
	assert_non_null(strstr(s.request, "\r\nAccept: application/json\r\n"));
	assert_non_null(
		strstr(s.request, "\r\nContent-Type: application/json\r\n"));
	/* the result: permanent, Bugzilla's code, and never the key */
	assert_int_equal(res.status, DELIVER_PERMANENT);
	assert_int_equal(res.http_status, 404);
	assert_int_equal(res.bz_code, 101);
	assert_string_equal(
		res.detail,
		"GET /rest/bug/42: HTTP 404: error 101: Bug #42 does not exist.");
	bugzilla_client_free(c);
}

static void test_client_temporary_and_permanent(void **state)
{
	struct server s;
	struct bugzilla_client *c;
	struct bugzilla_bug bug;
	struct bugzilla_result res;
	char *big;
	size_t n = 100000;

	server_start(&s, HTTP("503 Service Unavailable", "busy"));
	c = client_for(s.port, 5000, 0);
	assert_int_equal(bugzilla_fetch_bug(c, 1, &bug, &res), -1);
	server_stop(&s);
	assert_int_equal(res.status, DELIVER_TEMPORARY);
	assert_int_equal(res.http_status, 503);
	bugzilla_client_free(c);

	/* 200 with an error body (api_key_not_valid) is permanent */
	server_start(&s, HTTP("200 OK", "{\"error\": true, \"code\": 306, "
					"\"message\": \"bad key\"}"));
	c = client_for(s.port, 5000, 0);
	assert_int_equal(bugzilla_fetch_bug(c, 1, &bug, &res), -1);
	server_stop(&s);
	assert_int_equal(res.status, DELIVER_PERMANENT);
	assert_int_equal(res.bz_code, 306);
	bugzilla_client_free(c);

	/* a 2xx that is not the shape asked for is permanent */
	server_start(&s, HTTP("200 OK", "{\"bugs\": []}"));
	c = client_for(s.port, 5000, 0);
	assert_int_equal(bugzilla_fetch_bug(c, 1, &bug, &res), -1);
	server_stop(&s);
	assert_int_equal(res.status, DELIVER_PERMANENT);
	bugzilla_client_free(c);

	/* over the response cap: cut, permanent */
	big = xmalloc(n + 200);
	snprintf(big, n + 200,
		 HTTP("200 OK", "{\"bugs\": [{\"id\": 1, \"x\": \"%0*d\"}]}"),
		 (int)n, 0);
	server_start(&s, big);
	c = client_for(s.port, 5000, 4096);
	assert_int_equal(bugzilla_fetch_bug(c, 1, &bug, &res), -1);
	server_stop(&s);
	assert_int_equal(res.status, DELIVER_PERMANENT);
	assert_non_null(strstr(res.detail, "larger than 4096"));
	bugzilla_client_free(c);
	free(big);

	/* a server that never answers: the timeout, temporary */
	server_start(&s, NULL);
	s.hold = 1.5;
	c = client_for(s.port, 300, 0);
	assert_int_equal(bugzilla_fetch_bug(c, 1, &bug, &res), -1);
	assert_int_equal(res.status, DELIVER_TEMPORARY);
	assert_int_equal(res.curl_code, CURLE_OPERATION_TIMEDOUT);
	assert_null(strstr(res.detail, "K3y"));
	server_stop(&s);
	bugzilla_client_free(c);

	/* nobody listening: temporary */
	{
		unsigned port;

		server_start(&s, HTTP("200 OK", "{}"));
		port = s.port;
		shutdown(s.fd, SHUT_RDWR);
		server_stop(&s);
		c = client_for(port, 2000, 0);
		assert_int_equal(bugzilla_fetch_bug(c, 1, &bug, &res), -1);
		assert_int_equal(res.status, DELIVER_TEMPORARY);
		assert_null(strstr(res.detail, "K3y"));
		bugzilla_client_free(c);
	}
}

static void test_client_search_query(void **state)
{
	static const char *const products[] = { "Drivers", "File System",
						NULL };
	struct server s;
	struct bugzilla_client *c;
	struct bugzilla_query q;
	struct bugzilla_hit *hits;
	struct bugzilla_result res;
	size_t n;

	server_start(&s,
		     HTTP("200 OK",
			  "{\"bugs\": [{\"id\": 8, "
			  "\"last_change_time\": \"2024-01-02T03:04:05Z\"}]}"));
	c = client_for(s.port, 5000, 0);
	memset(&q, 0, sizeof(q));
	q.products = products;
	q.since = "2024-01-01T00:00:00Z";
	q.limit = 20;
	q.offset = 40;
	assert_int_equal(bugzilla_search(c, &q, &hits, &n, &res), 0);
	server_stop(&s);
	assert_int_equal(n, 1);
	assert_int_equal(hits[0].id, 8);
	free(hits);
	assert_non_null(strstr(
		s.request,
		"GET /rest/bug?include_fields=id%2Clast_change_time"
		"&last_change_time=2024-01-01T00%3A00%3A00Z&product=Drivers"
		"&product=File%20System&order=changeddate%2Cbug_id&limit=20&offset=40"
		"&api_key=K3y%2BWith%2FOdd%3DChars HTTP/1.1\r\n"));
	bugzilla_client_free(c);
}

static void test_writeback(void **state)
{
	struct bugzilla_writeback wb = { true, true, true, true, "triaged" };
	struct server s;
	struct bugzilla_client *c;
	struct bugzilla_result res;
	char *job, *url;

	job = bugzilla_writeback_json(&wb, BASE, 12, "Forwarded to x",
				      "wifi@example.org");
	assert_string_equal(
		job, "{\"assigned_to\":\"wifi@example.org\",\"bug_id\":12,"
		     "\"cc\":\"wifi@example.org\",\"comment\":"
		     "\"Forwarded to x\",\"comment_private\":true,"
		     "\"keyword\":\"triaged\",\"url\":\"" BASE "\"}");
	free(job);
	/* an invalid recipient is neither assigned nor CCed */
	job = bugzilla_writeback_json(&wb, BASE, 12, NULL, "a@b>\r\nx");
	assert_null(strstr(job, "assigned_to"));
	assert_null(strstr(job, "\"cc\""));
	free(job);

	server_start(&s, HTTP("200 OK", "{\"bugs\": [{\"id\": 12}]}"));
	c = client_for(s.port, 5000, 0);
	url = xasprintf("http://127.0.0.1:%u", s.port);
	job = bugzilla_writeback_json(&wb, url, 12, "Forwarded",
				      "w@example.org");
	assert_int_equal(bugzilla_writeback_run(c, job, strlen(job), 1, &res),
			 0);
	server_stop(&s);
	assert_int_equal(res.status, DELIVER_OK);
	assert_non_null(strstr(s.request, "PUT /rest/bug/12?api_key="));
	free(job);
	/* a job for another Bugzilla never gets our key */
	job = bugzilla_writeback_json(&wb, "https://other.example.org", 12, "x",
				      NULL);
	assert_int_equal(bugzilla_writeback_run(c, job, strlen(job), 1, &res),
			 -1);
	assert_int_equal(res.status, DELIVER_PERMANENT);
	free(job);
	free(url);
	bugzilla_client_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture_public_modify),
		cmocka_unit_test(test_fixture_private),
		cmocka_unit_test(test_fixture_comment_and_attachment),
		cmocka_unit_test(test_fixture_jbi),
		cmocka_unit_test(test_fixture_rest_bug_and_comments),
		cmocka_unit_test(test_fixture_errors_and_writes),
		cmocka_unit_test(test_fixture_report),
		cmocka_unit_test(test_minimal_event),
		cmocka_unit_test(test_bad_numbers),
		cmocka_unit_test(test_deep_nesting),
		cmocka_unit_test(test_duplicates_and_syntax),
		cmocka_unit_test(test_wrong_types_and_missing),
		cmocka_unit_test(test_fields_are_cleaned),
		cmocka_unit_test(test_comments_and_search_shapes),
		cmocka_unit_test(test_report_hostile_bug),
		cmocka_unit_test(test_urls),
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_client_request_and_404),
		cmocka_unit_test(test_client_temporary_and_permanent),
		cmocka_unit_test(test_client_search_query),
		cmocka_unit_test(test_writeback),
	};

	msg_setup("test_bugzilla", 1, false);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
