// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_act - per-class actions from routes.conf; nothing is dropped
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "act.h"
#include "config.h"
#include "util.h"

static void test_defaults(void **state)
{
	struct act_config ac;
	struct act_decision d;

	act_config_load(&ac, NULL);
	act_decide(&ac, "user", true, true, NULL, &d);
	assert_int_equal(d.action, ACT_FORWARD);
	assert_false(d.reply);
	act_decide(&ac, "fuzzer", true, true, NULL, &d);
	assert_int_equal(d.action, ACT_DIGEST);
	assert_int_equal(d.period, 86400);
	act_decide(&ac, "ai", true, true, NULL, &d);
	assert_int_equal(d.action, ACT_HOLD);
	assert_non_null(strstr(d.reason, "held for a triager"));
	act_decide(&ac, "uncertain", true, true, NULL, &d);
	assert_int_equal(d.action, ACT_HOLD);
}

static void test_unmapped_is_held(void **state)
{
	struct act_config ac;
	struct act_decision d;

	act_config_load(&ac, NULL);
	act_decide(&ac, "user", false, false, NULL, &d);
	assert_int_equal(d.action, ACT_HOLD);
	assert_non_null(strstr(d.reason, "no subsystem found"));
	act_decide(&ac, "fuzzer", true, false, NULL, &d);
	assert_int_equal(d.action, ACT_HOLD);
	assert_non_null(strstr(d.reason, "nobody to send it to"));
	act_decide(&ac, "bogus", true, true, NULL, &d);
	assert_int_equal(d.action, ACT_HOLD);
}

static void test_config_records(void **state)
{
	struct config *cfg =
		config_parse("action fuzzer digest weekly\n"
			     "action ai forward\n"
			     "action user hold\n"
			     "action uncertain digest fortnightly\n"
			     "action martian forward\n"
			     "reply_bugtracker = yes\n",
			     "t.conf");
	struct act_config ac;
	struct act_decision d;

	act_config_load(&ac, cfg);
	act_decide(&ac, "fuzzer", true, true, NULL, &d);
	assert_int_equal(d.action, ACT_DIGEST);
	assert_int_equal(d.period, 7 * 86400);
	act_decide(&ac, "ai", true, true, NULL, &d);
	assert_int_equal(d.action, ACT_FORWARD);
	act_decide(&ac, "user", true, true, NULL, &d);
	assert_int_equal(d.action, ACT_HOLD);
	/* A bad period keeps the default. */
	act_decide(&ac, "uncertain", true, true, NULL, &d);
	assert_int_equal(d.action, ACT_HOLD);
	config_free(cfg);
}

static void test_reply_only_to_trackers(void **state)
{
	struct config *cfg = config_parse("reply_bugtracker = yes\n", "t");
	struct act_config ac;
	struct act_decision d;

	act_config_load(&ac, cfg);
	act_decide(&ac, "user", true, true, "https://bugzilla.kernel.org/", &d);
	assert_true(d.reply);
	act_decide(&ac, "user", true, true, "mailto:bugs@example.org", &d);
	assert_false(d.reply);
	act_decide(&ac, "fuzzer", true, true, "https://bugzilla.kernel.org/",
		   &d);
	assert_false(d.reply);
	config_free(cfg);
}

static void test_kinds(void **state)
{
	struct config *cfg = config_parse("action review hold\n"
					  "action patch forward\n"
					  "action report record\n",
					  "t.conf");
	struct act_config ac;
	struct act_decision d;

	(void)state;
	act_config_load(&ac, cfg);
	/* every other kind: recorded, never forwarded */
	act_kind(&ac, KIND_PULL, "a pull request", &d);
	assert_int_equal(d.action, ACT_RECORD);
	assert_non_null(strstr(d.reason, "pull-request (a pull request)"));
	act_kind(&ac, KIND_REVIEW, "a reply to a patch", &d);
	assert_int_equal(d.action, ACT_HOLD);
	/* a patch is no report to forward: the record was refused */
	act_kind(&ac, KIND_PATCH, "a patch", &d);
	assert_int_equal(d.action, ACT_RECORD);
	/* "report" is not a kind rule: the class rules stay as they were */
	act_decide(&ac, "user", true, true, NULL, &d);
	assert_int_equal(d.action, ACT_FORWARD);
	config_free(cfg);
}

/* a kind its subject alone decided is held, whatever its action says */
static void test_subject_only(void **state)
{
	struct act_config ac;
	struct act_decision d;
	struct kind_result k;

	(void)state;
	act_config_load(&ac, NULL);
	memset(&k, 0, sizeof(k));
	k.kind = KIND_DISCUSSION;
	snprintf(k.why, sizeof(k.why), "%s", "a question in the subject");
	act_kind(&ac, k.kind, k.why, &d);
	assert_int_equal(d.action, ACT_RECORD);
	/* decided by structure: left as "action discussion" says */
	assert_false(act_subject_only(&k, false, &d));
	assert_int_equal(d.action, ACT_RECORD);
	/* by the subject alone: held, and the reason says so */
	k.subject_only = true;
	assert_true(act_subject_only(&k, false, &d));
	assert_int_equal(d.action, ACT_HOLD);
	assert_non_null(strstr(d.reason,
			       "kind decided from the subject only: "
			       "discussion (a question in the subject)"
			       "; held for a triager"));
	/* in a known thread: the thread decides, not the subject */
	act_kind(&ac, k.kind, k.why, &d);
	assert_false(act_subject_only(&k, true, &d));
	assert_int_equal(d.action, ACT_RECORD);
	/* a report is never held for this */
	k.kind = KIND_REPORT;
	assert_false(act_subject_only(&k, false, &d));
}

/* a list as the only recipient: the list_fallback records decide */
static void test_list_fallback(void **state)
{
	struct config *cfg = config_parse(
		"list_fallback fuzzer forward\n"
		"list_fallback user forward \"8390 NETWORK DRIVERS\"\n"
		"list_fallback * forward \"SECURITY CONTACT\"\n"
		"list_fallback bogus forward\n"
		"list_fallback user send\n",
		"t.conf");
	/* people passed over: no default sends it */
	struct act_list passed = { "netdev@example.org", NULL, PICK_LIST_PASSED,
				   true, false };
	struct act_config ac;
	struct act_decision d;

	(void)state;
	assert_non_null(cfg);
	act_config_load(&ac, cfg);
	assert_int_equal(ac.nlist, 3);
	/* user to a list of another section: held */
	act_decide(&ac, "user", true, true, NULL, &d);
	assert_int_equal(d.action, ACT_FORWARD);
	act_fallback(&ac, "user", "NETWORKING DRIVERS", &passed, false, &d);
	assert_int_equal(d.action, ACT_HOLD);
	assert_non_null(strstr(d.reason, "nobody but the section's list"));
	assert_non_null(strstr(d.reason, "the overflow is a triager's"));
	/* the section the site allowed, any case */
	act_decide(&ac, "user", true, true, NULL, &d);
	act_fallback(&ac, "user", "8390 network drivers", &passed, false, &d);
	assert_int_equal(d.action, ACT_FORWARD);
	assert_string_equal(
		d.reason,
		"user: a list_fallback record sends it to the section's list netdev@example.org");
	/* a person is no fallback: nothing changes */
	act_decide(&ac, "user", true, true, NULL, &d);
	act_fallback(&ac, "user", "NETWORKING DRIVERS", NULL, false, &d);
	assert_int_equal(d.action, ACT_FORWARD);
	/* a digest to a list, allowed for the class */
	act_decide(&ac, "fuzzer", true, true, NULL, &d);
	act_fallback(&ac, "fuzzer", "NETWORKING DRIVERS", &passed, false, &d);
	assert_int_equal(d.action, ACT_DIGEST);
	/* a security contact: held, whatever the records */
	act_decide(&ac, "user", true, true, NULL, &d);
	act_fallback(&ac, "user", "SECURITY CONTACT", NULL, true, &d);
	assert_int_equal(d.action, ACT_HOLD);
	assert_false(d.reply);
	assert_non_null(strstr(d.reason, "security contact"));
	/* a hold stays a hold */
	act_decide(&ac, "ai", true, true, NULL, &d);
	act_fallback(&ac, "ai", "8390 NETWORK DRIVERS", &passed, false, &d);
	assert_int_equal(d.action, ACT_HOLD);
	config_free(cfg);
}

/*
 * with no record, a user report goes to an open list MAINTAINERS asks
 * reports for; the rest is held, and a record still decides
 */
static void test_list_default(void **state)
{
	struct act_list asked = { "selinux@example.org", NULL, PICK_LIST_ASKED,
				  true, false };
	struct act_list say_so = { "selinux@example.org", NULL, PICK_LIST_ASKED,
				   false, false };
	struct act_list none = { "ne@example.org", "(maintained by nobody)",
				 PICK_LIST_NO_PERSON, true, false };
	struct act_list self = { "solo@example.org", NULL, PICK_LIST_REPORTER,
				 true, false };
	struct act_list moderated = { "mod@example.org",
				      "(moderated for non-subscribers)",
				      PICK_LIST_ASKED, true, false };
	struct act_list subscribers = { "sub@example.org",
					"(subscribers-only, for users)",
					PICK_LIST_NO_PERSON, true, false };
	struct act_list passed = { "xfs@example.org", NULL, PICK_LIST_PASSED,
				   true, false };
	struct config *cfg;
	struct act_config ac;
	struct act_decision d;

	(void)state;
	act_config_load(&ac, NULL);
	ac.reply_bugtracker = true;
	/* B: mailto: the list, open: forwarded, the reason says why */
	act_decide(&ac, "user", true, true, "https://bugs.example.org/", &d);
	act_fallback(&ac, "user", "SELINUX", &asked, false, &d);
	assert_int_equal(d.action, ACT_FORWARD);
	assert_true(d.reply);
	assert_string_equal(
		d.reason,
		"user: MAINTAINERS B: asks for reports on selinux@example.org, an open list: forwarded to it (\"list_fallback user hold\" would hold it)");
	/* user only because nothing else fired: the sender's say-so */
	act_decide(&ac, "user", true, true, NULL, &d);
	act_fallback(&ac, "user", "SELINUX", &say_so, false, &d);
	assert_int_equal(d.action, ACT_HOLD);
	assert_false(d.reply);
	assert_non_null(strstr(d.reason,
			       "but no user rule reached the user threshold"));
	/* a section that names no person: its list */
	act_decide(&ac, "user", true, true, NULL, &d);
	act_fallback(&ac, "user", "8390 DRIVERS", &none, false, &d);
	assert_int_equal(d.action, ACT_FORWARD);
	assert_non_null(strstr(
		d.reason,
		"8390 DRIVERS names no person, only its list ne@example.org, an open list"));
	/* its only person is the reporter */
	act_decide(&ac, "user", true, true, NULL, &d);
	act_fallback(&ac, "user", "SOLO", &self, false, &d);
	assert_int_equal(d.action, ACT_FORWARD);
	assert_non_null(strstr(d.reason, "nobody but the reporter"));
	/* a list closed to outsiders: held, whatever asked for it */
	act_decide(&ac, "user", true, true, "https://bugs.example.org/", &d);
	act_fallback(&ac, "user", "MOD", &moderated, false, &d);
	assert_int_equal(d.action, ACT_HOLD);
	assert_false(d.reply);
	assert_non_null(strstr(
		d.reason,
		"marks it (moderated for non-subscribers): closed to outsiders"));
	act_decide(&ac, "user", true, true, NULL, &d);
	act_fallback(&ac, "user", "SUB", &subscribers, false, &d);
	assert_int_equal(d.action, ACT_HOLD);
	assert_non_null(strstr(d.reason, "(subscribers-only, for users)"));
	/* the overflow of a section whose people are at their caps */
	act_decide(&ac, "user", true, true, NULL, &d);
	act_fallback(&ac, "user", "XFS", &passed, false, &d);
	assert_int_equal(d.action, ACT_HOLD);
	assert_non_null(strstr(d.reason, "its people are unavailable"));
	/* fuzzer (a digest), ai and uncertain: held, said why */
	act_decide(&ac, "fuzzer", true, true, NULL, &d);
	act_fallback(&ac, "fuzzer", "SELINUX", &asked, false, &d);
	assert_int_equal(d.action, ACT_HOLD);
	assert_int_equal(d.period, 0);
	assert_non_null(strstr(d.reason, "only a user report goes to a list"));
	ac.rule[ACT_AI].action = ACT_FORWARD;
	act_decide(&ac, "ai", true, true, NULL, &d);
	assert_int_equal(d.action, ACT_FORWARD);
	act_fallback(&ac, "ai", "SELINUX", &asked, false, &d);
	assert_int_equal(d.action, ACT_HOLD);
	ac.rule[ACT_UNCERTAIN].action = ACT_FORWARD;
	act_decide(&ac, "uncertain", true, true, NULL, &d);
	act_fallback(&ac, "uncertain", "8390 DRIVERS", &none, false, &d);
	assert_int_equal(d.action, ACT_HOLD);
	/* a security contact: held, even for an open list's section */
	act_decide(&ac, "user", true, true, NULL, &d);
	act_fallback(&ac, "user", "SELINUX", &asked, true, &d);
	assert_int_equal(d.action, ACT_HOLD);
	assert_non_null(strstr(d.reason, "security contact"));

	/* its sender sent it to the list already: recorded, not twice */
	{
		struct act_list there = asked;

		there.addressed = true;
		act_decide(&ac, "user", true, true, NULL, &d);
		act_fallback(&ac, "user", "SELINUX", &there, false, &d);
		assert_int_equal(d.action, ACT_RECORD);
		assert_non_null(strstr(
			d.reason,
			"its sender already sent it to selinux@example.org (in its To: or Cc:): recorded, not posted there again"));
		/* ... but the overflow, and other classes, wait as before */
		there.why = PICK_LIST_PASSED;
		act_decide(&ac, "user", true, true, NULL, &d);
		act_fallback(&ac, "user", "SELINUX", &there, false, &d);
		assert_int_equal(d.action, ACT_HOLD);
		there.why = PICK_LIST_ASKED;
		act_decide(&ac, "fuzzer", true, true, NULL, &d);
		act_fallback(&ac, "fuzzer", "SELINUX", &there, false, &d);
		assert_int_equal(d.action, ACT_HOLD);
	}

	/* a site's "list_fallback user hold": the old hold */
	cfg = config_parse("list_fallback user hold\n"
			   "list_fallback * forward \"MOD\"\n",
			   "t.conf");
	assert_non_null(cfg);
	act_config_load(&ac, cfg);
	act_decide(&ac, "user", true, true, NULL, &d);
	act_fallback(&ac, "user", "SELINUX", &asked, false, &d);
	assert_int_equal(d.action, ACT_HOLD);
	assert_string_equal(
		d.reason,
		"user: nobody but the section's list to send it to; held for a triager (list_fallback user hold)");
	/* a record that forwards is the site's word, even for a closed list */
	act_decide(&ac, "user", true, true, NULL, &d);
	act_fallback(&ac, "user", "MOD", &moderated, false, &d);
	assert_int_equal(d.action, ACT_FORWARD);
	/* ... but never a second copy of what the list has */
	moderated.addressed = true;
	act_decide(&ac, "user", true, true, NULL, &d);
	act_fallback(&ac, "user", "MOD", &moderated, false, &d);
	assert_int_equal(d.action, ACT_RECORD);
	assert_non_null(strstr(d.reason, "a list_fallback record sends it"));
	config_free(cfg);
}

/* the annotations of L: lines that close a list to outsiders */
static void test_list_closed(void **state)
{
	(void)state;
	assert_string_equal(act_list_closed("(moderated for non-subscribers)"),
			    "moderated");
	assert_string_equal(act_list_closed("(Moderated for mon-subscribers)"),
			    "moderated");
	assert_string_equal(act_list_closed("(subscribers-only)"),
			    "subscriber");
	assert_string_equal(act_list_closed("(closed)"), "closed");
	assert_string_equal(act_list_closed("(members only)"), "members");
	assert_string_equal(act_list_closed("(private list)"), "private");
	assert_string_equal(act_list_closed("(by invitation)"), "invit");
	assert_null(act_list_closed(NULL));
	assert_null(act_list_closed(""));
	assert_null(act_list_closed("(core kernel code)"));
	assert_null(act_list_closed("(user apps, general discussion)"));
}

/* a security-looking report: privately to its person, security_address
 * or held; never to a list */
static void test_private(void **state)
{
	static const char kasan[] = "BUG: KASAN: slab-use-after-free";
	struct act_config ac;
	struct act_decision d;

	(void)state;
	act_config_load(&ac, NULL);
	ac.reply_bugtracker = true;
	/* a person: forwarded to them, marked, no reply */
	act_decide(&ac, "user", true, true, "https://bugzilla.example.org/",
		   &d);
	assert_true(d.reply);
	act_private("user", true, NULL, "KASAN", "oops", kasan,
		    sizeof(kasan) - 1, &d);
	assert_int_equal(d.action, ACT_FORWARD);
	assert_true(d.security);
	assert_null(d.private_to);
	assert_false(d.reply);
	assert_string_equal(d.security_why, "KASAN memory-safety crash");
	/* a digest to its person: as before, nothing to mark */
	act_decide(&ac, "fuzzer", true, true, NULL, &d);
	act_private("fuzzer", true, "sec@example.org", "KASAN", "x", "y", 1,
		    &d);
	assert_int_equal(d.action, ACT_DIGEST);
	assert_false(d.security);
	assert_null(d.private_to);
	/* no person, security_address: forwarded there, a digest too */
	act_decide(&ac, "fuzzer", true, true, NULL, &d);
	assert_int_equal(d.action, ACT_DIGEST);
	act_private("fuzzer", false, "sec@example.org", NULL,
		    "a CVE-2026-1234 exploit", "text", 4, &d);
	assert_int_equal(d.action, ACT_FORWARD);
	assert_true(d.security);
	assert_string_equal(d.private_to, "sec@example.org");
	assert_string_equal(d.security_why, "cve- in its text");
	assert_non_null(strstr(d.reason, "sent privately to security_address"));
	/* neither: held, whatever it was */
	act_decide(&ac, "user", true, true, NULL, &d);
	act_private("user", false, "", NULL, "x", "an exploit", 10, &d);
	assert_int_equal(d.action, ACT_HOLD);
	assert_false(d.security);
	assert_non_null(strstr(d.reason, "never published on a list"));
	/* a held class stays held; why is still said */
	act_decide(&ac, "ai", true, true, NULL, &d);
	act_private("ai", true, "sec@example.org", "UBSAN", "x", "y", 1, &d);
	assert_int_equal(d.action, ACT_HOLD);
	assert_false(d.security);
	assert_string_equal(d.security_why, "UBSAN memory-safety crash");
	/* nothing security-looking: nothing changes */
	act_decide(&ac, "user", true, true, NULL, &d);
	act_private("user", false, "sec@example.org", "BUG", "xfs oops",
		    "a NULL dereference", 18, &d);
	assert_int_equal(d.action, ACT_FORWARD);
	assert_false(d.security);
	assert_string_equal(d.security_why, "");
}

/* which security word act_private() names: the first of its list found
 * in the subject or the text, in any case, anywhere up to the last byte */
static const char *why_of(const char *subject, const char *text)
{
	static struct act_decision d;
	struct act_config ac;

	act_config_load(&ac, NULL);
	act_decide(&ac, "user", true, true, NULL, &d);
	act_private("user", true, NULL, NULL, subject, text,
		    text ? strlen(text) : 0, &d);
	return d.security_why;
}

static void test_private_words(void **state)
{
	(void)state;
	/* the list's order decides, not the place in the text */
	assert_string_equal(why_of("a security hole", "an EXPLOIT for it"),
			    "exploit in its text");
	assert_string_equal(why_of("Vulnerable", "see CVE-2026-1"),
			    "cve- in its text");
	assert_string_equal(why_of("x", "Privilege Escalation, security"),
			    "privilege escalation in its text");
	/* a word that ends the text; one cut short by its end */
	assert_string_equal(why_of("x", "the last word: security"),
			    "security in its text");
	assert_string_equal(why_of("x", "vulnera"), "");
	assert_string_equal(why_of("Securit", "y"), "");
	/* a first letter repeated before the word; no subject, no text */
	assert_string_equal(why_of(NULL, "eexexploit"), "exploit in its text");
	assert_string_equal(why_of("sssecurity", NULL), "security in its text");
	assert_string_equal(why_of(NULL, NULL), "");
	/* not the word: "cve" without its dash, "privilege  escalation" */
	assert_string_equal(why_of("cve 1", "privilege  escalation"), "");
	/* bytes past ASCII fold to nothing */
	assert_string_equal(why_of("\xc5\x9b"
				   "ecurity",
				   "\xd0\xb5"
				   "xploit"),
			    "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_unmapped_is_held),
		cmocka_unit_test(test_config_records),
		cmocka_unit_test(test_reply_only_to_trackers),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_subject_only),
		cmocka_unit_test(test_list_fallback),
		cmocka_unit_test(test_list_default),
		cmocka_unit_test(test_list_closed),
		cmocka_unit_test(test_private),
		cmocka_unit_test(test_private_words),
	};

	msg_setup("test_act", 1, false);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
