#!/bin/sh
# t0752-kind-asks-readers: a new message whose text asks its readers for
# advice, an explanation or a change ("Would it be possible to ...") under
# a subject that names no failure is a question (kind.h): with few signs
# of a bug anyone hit it is held for a triager, its class kept, and
# 'triage explain' names the phrase; the same text that only tells is
# forwarded.  A subject about the project's own business (a CLA) is a
# discussion, held as decided from the subject only.
. "$(dirname "$0")/../lib.sh"
. "$SRC/tests/cli/lib-mail.sh"
export TZ=UTC
unset NO_COLOR PAGER

need_tools "kinds are not tested" sqlite3
routes_conf triage@example.org
export TRIAGE_CONFIG="$T/routes.conf"

cat >"$T/asks.eml" <<'EOF_MAIL'
From: Dana Doe <dana@example.net>
To: linux-ext4@vger.kernel.org
Subject: ext4 journal commit interval
Date: Mon, 07 Dec 2026 10:00:00 +0000
Message-ID: <asks-readers.0001@example.net>

Hello,

I run the 6.12.48+deb13-amd64 kernel, and fs/ext4/super.c sets the
journal commit interval to five seconds.

Would it be possible to raise the default, to let the disk sleep
longer?

Thanks,
Dana
EOF_MAIL

cat >"$T/cla.eml" <<'EOF_MAIL'
From: Legal Team <legal@corp.example>
To: linux-ext4@vger.kernel.org
Subject: Example Corp Corporate CLA Submission
Date: Mon, 07 Dec 2026 11:00:00 +0000
Message-ID: <asks-readers.0003@example.net>

Hello,

please find our signed CCLA attached; the people listed in it will
contribute to fs/ext4/super.c.

Regards
EOF_MAIL

test_expect_success 'explain names the phrase that asks, and holds the question' '
	"$TRIAGE" explain "$T/asks.eml" >"$T/ex" &&
	grep -q "^kind      report (.*; it asks \"would it be possible\")" "$T/ex" &&
	grep -q "^action    hold: no sign of a bug anyone hit" "$T/ex"
'

test_expect_success 'the same text that only tells is forwarded' '
	sed -e "/^Would it be possible/,/^longer/d" "$T/asks.eml" >"$T/tells.eml" &&
	"$TRIAGE" explain "$T/tells.eml" >"$T/ex2" &&
	! grep -q "it asks" "$T/ex2" &&
	grep -q "^action    forward: user" "$T/ex2"
'

test_expect_success 'the filter holds the question as a report with its class' '
	"$FILTER" <"$T/asks.eml" >"$T/out" &&
	test ! -s "$T/out" &&
	test "$(q "SELECT kind, state, class FROM reports")" = "report|held|user" &&
	test "$(q "SELECT count(*) FROM outbox")" = 0
'

test_expect_success 'a CLA submission is a discussion, held as decided from its subject' '
	"$FILTER" <"$T/cla.eml" >"$T/out" &&
	test ! -s "$T/out" &&
	test "$(q "SELECT kind, state FROM reports WHERE id = 2")" = "discussion|held" &&
	q "SELECT reason FROM decisions WHERE report = 2" >"$T/dec" &&
	grep -q "^kind decided from the subject only: discussion" "$T/dec"
'

test_done
