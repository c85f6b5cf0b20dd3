// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_kind_spam - junk told by marks that agree (kind_spam.c), and
 * genuine reports in poor English that stay reports
 *
 * Every message here is composed for the test, modelled on the shape of
 * the junk real lists receive (advance-fee scams, reward phishing with a
 * decoy paragraph, disguised spellings), never copied from it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kind.h"
#include "kind_msg.h"
#include "kind_int.h"
#include "report.h"
#include "util.h"

/* kind_of - the kind of a composed message; its reason into why */
static enum msg_kind kind_of(const char *from, const char *subject,
			     const char *body, char *why, size_t size)
{
	struct report *r = msg(from, subject, NULL, body);
	struct kind_result k;
	enum msg_kind kind;

	kind_classify(r, &k);
	kind = k.kind;
	snprintf(why, size, "%s", k.why);
	kind_result_release(&k);
	report_free(r);
	return kind;
}

/* signals - kind_spam_signals() of a composed message: what marks */
static bool signals(const char *from, const char *subject, const char *body,
		    char *why, size_t size)
{
	struct report *r = msg(from, subject, NULL, body);
	bool spam = kind_spam_signals(r, r->subject, why, size);

	report_free(r);
	return spam;
}

static const char footer[] =
	"\n_______________________________________________\n"
	"linux-ext4 mailing list\n"
	"https://lists.example.org/mailman/listinfo/linux-ext4\n";

static void test_advance_fee(void **state)
{
	char why[KIND_WHY_MAX], body[2048];

	(void)state;
	snprintf(body, sizeof(body),
		 "Attention Sir/Madam,\n\n"
		 "I am Mr. Paul Owusu, account manager at a bank in Accra. "
		 "A client died with no next of kin and left a deposit of "
		 "$7.2 million. I want you to stand as the beneficiary so "
		 "that the funds are released to you.\n"
		 "Kindly send your full name and your phone number.\n%s",
		 footer);
	assert_int_equal(
		kind_of("\"Mr. Paul Owusu\" <pwusu.office@freemail.example>",
			"CONFIDENTIAL BUSINESS", body, why, sizeof(why)),
		KIND_SPAM);
	assert_true(
		signals("\"Mr. Paul Owusu\" <pwusu.office@freemail.example>",
			"CONFIDENTIAL BUSINESS", body, why, sizeof(why)));
	assert_non_null(strstr(why, "marks, no kernel word"));
	assert_non_null(strstr(why, "money \"$7.2 million\""));
	assert_non_null(
		strstr(why, "sender \"Mr. Paul Owusu\" at freemail.example"));
	assert_non_null(strstr(why, "subject in capitals"));

	/* in German: a donation paid out on a cash card */
	assert_true(signals(
		"\"Mrs. Greta Vogel\" <gvogel@mailbox.example>", "Spende",
		"Sehr geehrte Damen und Herren,\n\nich spende Ihnen "
		"750.000,00 EUR aus meiner Erbschaft. Die Summe wird "
		"auf eine Geldautomatenkarte geladen.\nAntworten Sie "
		"mir bitte.\n",
		why, sizeof(why)));
	assert_non_null(strstr(why, "750.000,00 EUR"));
}

static void test_reward_phishing(void **state)
{
	char why[KIND_WHY_MAX];

	(void)state;
	/* a decoy paragraph first, then the bait, from a brand that the
	 * address's domain does not carry */
	assert_int_equal(
		kind_of("Rewards Desk <rewardsdesk@quietmeadow.example>",
			"Your 2,310 Points Expire Tonight",
			"We repainted the fence on Sunday and it took the whole "
			"afternoon, but the colour came out lovely and the "
			"neighbours liked it.\n\n"
			"Your Rewards Balance: 2,310 points\n"
			"Redeem now for a $150 store card before they expire.\n",
			why, sizeof(why)),
		KIND_SPAM);
	assert_non_null(strstr(why, "words \"reward"));

	/* spelled to slip past a filter */
	assert_true(signals("Grill Club <grillclub@tidyharbor.example>",
			    "Your SampIer Box - Only 5OO Left",
			    "Grab your sampler today, 4 cuts for $49.\n", why,
			    sizeof(why)));
	assert_non_null(strstr(why, "disguised \"SampIer\""));
}

static void test_reports_stay(void **state)
{
	char why[KIND_WHY_MAX];

	(void)state;
	/* poor English, money and a plea, but a laptop that fails */
	assert_int_equal(
		kind_of("\"Mr. Ravi K\" <ravik@freemail.example>",
			"PLEASE HELP URGENT",
			"sir my laptop screen black after update, i pay $300 "
			"for it, kindly help me urgent\n",
			why, sizeof(why)),
		KIND_REPORT);
	/* naming nothing of the kernel, but saying it is stuck: money,
	 * capitals and a plea are not three marks with a scam's words */
	assert_int_equal(
		kind_of("Dana <dana77@freemail.example>", "URGENT PLEASE HELP",
			"my tablet is stuck on the logo since yesterday, I paid "
			"$250 for it, kindly help\n",
			why, sizeof(why)),
		KIND_REPORT);
	/* a kernel report from someone with a title */
	assert_int_equal(
		kind_of("\"Dr. Ana Ruiz\" <ana@uni.example>",
			"iwlwifi: firmware crash after resume",
			"After suspend the card stops, dmesg shows "
			"iwl_mvm_nic_error() and a $500 bounty is not the "
			"point.\n",
			why, sizeof(why)),
		KIND_REPORT);
}

static void test_marks_alone(void **state)
{
	struct report *r;
	char why[KIND_WHY_MAX];

	(void)state;
	/* one mark is not junk: a workshop's hotel price, and the camel
	 * case of a booking link's query is no disguise */
	r = msg("Workshop Team <events@uni.example>",
		"Hotel block for the storage workshop", NULL,
		"Rooms are held at $135/night until May 1; book at "
		"https://hotel.example/book?groupId=ABC&fromId=LINKDIRECT\n");
	assert_false(kind_spam_signals(r, r->subject, why, sizeof(why)));
	report_free(r);
	/* a model number names the kernel's world */
	r = msg("\"Mrs. Lee\" <lee@freemail.example>", "DONATION", NULL,
		"My rk3399 board: $5 million beneficiary funds\n");
	assert_false(kind_spam_signals(r, r->subject, why, sizeof(why)));
	report_free(r);
	/* a list's tag names the list, not the sender's text */
	r = msg("BANK MANAGER <kyra@vintage.example>",
		"[Linux-stm32] CONFIDENTIAL REQUEST", NULL,
		"Abandoned funds ($30,000.000.00 USD) with no next of kin "
		"await you\n");
	assert_true(kind_spam_signals(r, r->subject, why, sizeof(why)));
	/* an amount is no kernel version ... */
	assert_non_null(strstr(why, "money \"$30,000.000.00 USD\""));
	report_free(r);
	/* ... a version is */
	r = msg("BANK MANAGER <kyra@vintage.example>", "CONFIDENTIAL REQUEST",
		NULL,
		"Since 6.12.3 the abandoned funds ($30,000.000.00 USD) "
		"await you\n");
	assert_false(kind_spam_signals(r, r->subject, why, sizeof(why)));
	report_free(r);
}

/* text hidden in the HTML (PART_HIDDEN) is a disguise, and its plain
 * alternative, which carries the decoy, is not the text read: the
 * decoy's kernel words and its story of a problem clear nothing */
static void test_hidden_text(void **state)
{
	static const char decoy[] =
		"My monitor broke last week and the repair shop was stuck "
		"for days.\n";
	static const char shown[] =
		"Your points expire today. Convert them into a $100 rewards "
		"card before it's too late. Please redeem.\n";
	char why[KIND_WHY_MAX], plain[512];
	struct report *r;
	struct report_part *pt;
	bool spam;

	(void)state;
	snprintf(plain, sizeof(plain), "%s%s%s", decoy, shown, decoy);
	r = msg("Points Desk <desk@meadow.example>", "Points expiring", NULL,
		plain);
	pt = report_add_part(r);
	pt->mime_type = xstrdup("text/plain");
	pt->text = xstrdup(plain);
	pt->len = strlen(pt->text);
	pt->flags = PART_TEXT;
	pt = report_add_part(r);
	pt->mime_type = xstrdup("text/html");
	pt->text = xstrdup(shown);
	pt->len = strlen(pt->text);
	pt->flags = PART_TEXT | PART_HTML | PART_HIDDEN;
	assert_true(kind_spam_signals(r, r->subject, why, sizeof(why)));
	assert_non_null(strstr(why, "text hidden in its HTML"));
	/* the same mail whose HTML hides nothing: the decoy is its text */
	r->parts[1].flags &= ~(unsigned)PART_HIDDEN;
	spam = kind_spam_signals(r, r->subject, why, sizeof(why));
	assert_false(spam);
	report_free(r);
}

/* many long inline parts: read within the bound, the junk still told */
static void test_long_parts(void **state)
{
	struct report *r;
	char why[KIND_WHY_MAX], *junk;
	size_t i;

	(void)state;
	r = msg("\"Mrs. Lee\" <lee@freemail.example>", "DONATION", NULL,
		"A donation of $5 million for you as my beneficiary\n");
	junk = xmalloc(40000);
	memset(junk, 'a', 39999);
	junk[39999] = '\0';
	for (i = 0; i < 12; i++) {
		struct report_part *pt = report_add_part(r);

		pt->text = xstrdup(junk);
		pt->len = strlen(junk);
		pt->flags = PART_TEXT;
	}
	free(junk);
	assert_true(kind_spam_signals(r, r->subject, why, sizeof(why)));
	report_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_advance_fee),
		cmocka_unit_test(test_reward_phishing),
		cmocka_unit_test(test_reports_stay),
		cmocka_unit_test(test_marks_alone),
		cmocka_unit_test(test_long_parts),
		cmocka_unit_test(test_hidden_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
