#!/bin/sh
# t0752-kind-asks-readers: a new message whose text asks its readers for
# advice, an explanation or a change ("Would it be possible to ...") under
# a subject that names no failure is a question (kind.h): with few signs
# of a bug anyone hit it is held for a triager, its class kept, and
# 'triage explain' names the phrase; the same text that only tells is
# forwarded.
. "$(dirname "$0")/../lib.sh"

DB="$T/state/triage.db"
export TZ=UTC
unset NO_COLOR PAGER

if ! command -v sqlite3 >/dev/null; then
	test_skip "sqlite3 is not installed: kinds are not tested"
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

test_done
