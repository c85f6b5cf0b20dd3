#!/bin/sh
# t0732-kind-spam-marks: junk that passed the site's filter, told by
# marks that agree (router/stages/kind_spam.c): a composed reward-points
# phishing mail with a decoy paragraph (money, scam words, a brand that
# its address's domain does not carry, an appeal; no kernel word) is
# recorded as spam, neither forwarded nor left in 'triage pending', and
# 'triage explain' names the marks.  A newcomer's report in poor English
# with money and a plea stays a report.  What the map knows of a sender
# settles a kind decided from words alone (pipeline_kind_sender()): a
# new message whose text names nothing of the kernel and says nothing
# went wrong is spam from a stranger, a discussion from an M: person.
. "$(dirname "$0")/../lib.sh"

DB="$T/state/triage.db"
export TZ=UTC TRIAGE_USER=alice
unset NO_COLOR PAGER

if ! command -v sqlite3 >/dev/null; then
	test_skip "sqlite3 is not installed: spam marks are not tested"
	test_done
fi

cat >"$T/routes.conf" <<CONF
state_dir = $T/state
maintainers = $SRC/tests/data/MAINTAINERS.kernel
rules_dir = $SRC/classifiers
router_address = triage@example.org
filter_memory_mb = 0
CONF
export TRIAGE_CONFIG="$T/routes.conf"
q() { sqlite3 "$DB" "$1"; }

cat >"$T/reward.eml" <<'EOF_MAIL'
From: Rewards Desk <rewardsdesk@quietmeadow.example>
To: linux-ext4@vger.kernel.org
Subject: Don't Wait - 2,310 Points Expire Today
Date: Mon, 07 Dec 2026 09:00:00 +0000
Message-ID: <t0732.reward.0001@quietmeadow.example>
MIME-Version: 1.0
Content-Type: text/plain; charset="UTF-8"

I finally got round to the garden shed I told you about and it came out
better than I hoped. My partner wants me to build a second one for the
tools next spring, so I will send you a photo when it is done.

Your Rewards Balance: 2,310 points

Your points have real value - convert them into a $100 store card
before they expire tonight.  Click the button below to redeem.

Thank you for being a valued member.
EOF_MAIL

cat >"$T/newcomer.eml" <<'EOF_MAIL'
From: "Mr. Ravi K" <ravik@freemail.example>
To: linux-ext4@vger.kernel.org
Subject: PLEASE HELP URGENT
Date: Mon, 07 Dec 2026 09:05:00 +0000
Message-ID: <t0732.newcomer.0001@freemail.example>
MIME-Version: 1.0
Content-Type: text/plain; charset="UTF-8"

sir my laptop not start after update, black screen only. i pay $300 for
it last month, kindly help me urgent
EOF_MAIL

test_expect_success 'a phishing mail is recorded as spam: not forwarded, not pending' '
	"$FILTER" <"$T/reward.eml" >"$T/out" &&
	test ! -s "$T/out" &&
	test "$(q "SELECT kind, state, coalesce(class, \"-\") FROM reports")" = "spam|recorded|-" &&
	test "$(q "SELECT count(*) FROM outbox")" = 0 &&
	test "$(q "SELECT count(*) FROM classification")" = 0 &&
	q "SELECT action || \" \" || reason FROM decisions" >"$T/dec" &&
	grep -q "^record spam (4 marks, no kernel word: money \"2,310 Points\"" "$T/dec" &&
	"$TRIAGE" pending >"$T/pending" 2>&1 &&
	! grep -q "Points Expire" "$T/pending" &&
	"$TRIAGE" explain "$T/reward.eml" >"$T/ex" &&
	grep -q "^kind      spam (4 marks, no kernel word: .*sender \"Rewards Desk\" at quietmeadow.example; appeal \"click the button\")" "$T/ex" &&
	grep -q "^action    record: " "$T/ex"
'

test_expect_success 'a newcomer in poor English with money and a plea stays a report' '
	"$FILTER" <"$T/newcomer.eml" >"$T/out" &&
	test ! -s "$T/out" &&
	test "$(q "SELECT kind FROM reports WHERE id = 2")" = report &&
	"$TRIAGE" explain "$T/newcomer.eml" >"$T/ex2" &&
	grep -q "^kind      report " "$T/ex2"
'

mail() {
	cat <<EOF_MAIL
From: $1
To: linux-ext4@vger.kernel.org
Subject: Mastership for our setup
Date: Mon, 07 Dec 2026 09:1$2:00 +0000
Message-ID: <t0732.sender.$2@example.org>
MIME-Version: 1.0
Content-Type: text/plain; charset="UTF-8"

Hi Vic,

We talked in Lyon about the work you are preparing. When do you
think you can post it? Our customer is waiting for it, and we would
like to try it in our own setup first.

Regards
EOF_MAIL
}

mail "Ted Tree <ted@ext4.example.org>" 1 >"$T/ted.eml"
mail "Sam Stranger <sam@elsewhere.example>" 2 >"$T/sam.eml"

test_expect_success 'a MAINTAINERS person naming nothing of the kernel: discussion' '
	"$FILTER" <"$T/ted.eml" >"$T/out3" &&
	test ! -s "$T/out3" &&
	test "$(q "SELECT kind FROM reports WHERE message_id = \"t0732.sender.1@example.org\"")" = discussion &&
	"$TRIAGE" explain "$T/ted.eml" >"$T/ex3" &&
	grep -q "^kind      discussion (a MAINTAINERS person" "$T/ex3"
'

test_expect_success 'a stranger with the same words: spam' '
	"$FILTER" <"$T/sam.eml" >"$T/out4" &&
	test ! -s "$T/out4" &&
	test "$(q "SELECT kind FROM reports WHERE message_id = \"t0732.sender.2@example.org\"")" = spam &&
	"$TRIAGE" explain "$T/sam.eml" >"$T/ex4" &&
	grep -q "^kind      spam (a new message whose text names nothing" "$T/ex4"
'

test_done
