#!/bin/sh
# t0870-remind: 'triage remind' (issue 23, part B), through the real
# triage-filter and triage: a person is reminded of exactly the reports
# forwarded to them long enough ago that nobody answered (not a fresh
# one, not one fixed, not one they replied to), regressions first, then
# the oldest, each with its archive link and the reply commands;
# --send (and deliver --daemon with remind = yes) queues one plain-text
# mail a week at most; a person away gets
# none; nothing changes state.
. "$(dirname "$0")/../lib.sh"
. "$SRC/tests/cli/lib-mail.sh"

export TZ=UTC TRIAGE_USER=alice
unset NO_COLOR PAGER
DAY=86400
NOW=$(date +%s)

need_tools "reminders are not tested" sqlite3 git
routes_conf bugs@example.org
sed "\$a away xfs-triage@xfs.example.org 2020-01-01 2099-12-31" \
	"$T/routes.conf" >"$T/away.conf"
# deliver --daemon with reminders on; mail goes to a fake sendmail
cat - "$T/routes.conf" >"$T/daemon.conf" <<EOF
remind = yes
transport = sendmail
sendmail_path = $T/sendmail
EOF
mkdir "$T/mail"
cat >"$T/sendmail" <<EOF
#!/bin/sh
cat >"$T/mail/\$\$.msg"
EOF
chmod +x "$T/sendmail"
NET="$SRC/triage-net"

# report N FUNCTION [LINE] - a user's XFS oops in FUNCTION, <rem-N@example.com>,
# with LINE (e.g. a regzbot line) in its text
report() {
	cat >"$T/r$1.eml" <<EOF &&
From: Dana Admin <dana$1@example.com>
To: bugs@example.org
Subject: xfs: oops in $2
Message-ID: <rem-$1@example.com>
Date: Mon, 30 Nov 2026 09:12:44 +0100
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8

Hi,

our file server oopses every night since the upgrade to 6.12.3.
$3

[51234.118812] BUG: kernel NULL pointer dereference, address: 0000000000000040
[51234.118823] Oops: 0000 [#1] PREEMPT SMP NOPTI
[51234.118827] CPU: 7 PID: 1532 Comm: xfsaild/dm-2 Not tainted 6.12.3-amd64 #1
[51234.118834] RIP: 0010:$2+0x2a/0x1b0 [xfs]
[51234.118900] Call Trace:
[51234.118902]  <TASK>
[51234.118903]  xfs_buf_item_push+0x61/0x120 [xfs]
[51234.118905]  xfsaild+0x3b1/0x920 [xfs]
[51234.118955]  </TASK>

Dana
EOF
	SENDER=dana$1@example.com "$FILTER" <"$T/r$1.eml"
}

# age N DAYS - report N came, and was forwarded, DAYS days ago
age() {
	q "UPDATE reports SET received_at = received_at - $2 * $DAY WHERE id = $1;
	   UPDATE decisions SET at = at - $2 * $DAY WHERE report = $1"
}

test_expect_success 'six reports forwarded to the XFS triager, five of them long ago' '
	report 1 xfs_iflush_cluster "" &&
	report 2 xfs_log_force "" &&
	report 3 xfs_inactive "" &&
	report 4 xfs_reclaim_inode "" &&
	report 5 xfs_buf_ioend "#regzbot introduced: v6.11..v6.12" &&
	report 6 xfs_iget_cache_hit "" &&
	test "$(q "SELECT count(*) FROM reports WHERE state = \"forwarded\" AND kind = \"report\"")" = 6 &&
	test "$(q "SELECT group_concat(DISTINCT recipient) FROM decisions WHERE action = \"forward\"")" = xfs-triage@xfs.example.org &&
	test "$(q "SELECT id FROM reports WHERE regression = 1")" = 5 &&
	age 2 12 && age 3 10 && age 4 11 && age 5 8 && age 6 9
'

test_expect_success 'the triager answers report 4; a commit fixes report 3' '
	cat >"$T/reply4.eml" <<-EOF &&
	From: XFS Triage <xfs-triage@xfs.example.org>
	To: Dana Admin <dana4@example.com>
	Cc: bugs@example.org
	Subject: Re: xfs: oops in xfs_reclaim_inode
	Message-ID: <rem-4-reply@xfs.example.org>
	In-Reply-To: <rem-4@example.com>
	References: <rem-4@example.com>
	Date: Tue, 01 Dec 2026 10:00:00 +0100
	Content-Type: text/plain; charset=utf-8

	Thanks, looking at it.  Which mount options do you use?
	EOF
	"$FILTER" <"$T/reply4.eml" &&
	test "$(q "SELECT thread_root, from_addr FROM reports WHERE id = 7")" = "4|xfs-triage@xfs.example.org" &&
	git init -q "$T/linux" &&
	printf "xfs: fix the inactive oops\n\nCloses: https://lore.kernel.org/r/rem-3@example.com\n" |
		git -C "$T/linux" -c user.name=X -c user.email=x@xfs.example.org commit -q --allow-empty -F - &&
	"$TRIAGE" fixes import --git "$T/linux" >"$T/import" &&
	test "$(q "SELECT state FROM reports WHERE id = 3")" = fixed
'

test_expect_success 'remind lists exactly the old unanswered reports, regressions first, then the oldest' '
	"$TRIAGE" remind >"$T/remind" &&
	grep -qx "remind xfs-triage@xfs.example.org: 3 reports" "$T/remind" &&
	test "$(sed -n "s/^[0-9]*\\. \\[triage #\\([0-9]*\\)-[a-z2-7]*\\] .*/\\1/p" "$T/remind" | tr "\\n" " ")" = "5 2 6 " &&
	grep -q "^   a regression, forwarded .* (8 days ago), XFS FILESYSTEM\$" "$T/remind" &&
	grep -qx "   https://lore.kernel.org/r/rem-2@example.com" "$T/remind" &&
	grep -q "#triage notme" "$T/remind" &&
	grep -q "#triage fixed COMMIT" "$T/remind" &&
	grep -q "#triage invalid" "$T/remind" &&
	"$TRIAGE" remind --days 12 >"$T/remind12" &&
	test "$(sed -n "s/^[0-9]*\\. \\[triage #\\([0-9]*\\)-.*/\\1/p" "$T/remind12" | tr "\\n" " ")" = "2 " &&
	test "$(q "SELECT count(*) FROM outbox WHERE kind = \"reply\"")" = 0
'

daemon_reminded() {
	grep -q "^remind xfs-triage@xfs.example.org: 3 reports (outbox [0-9]*)\$" "$T/dd.out"
}
mailed() {
	grep -l "^Subject: \\[triage\\] 3 reports wait for you" "$T"/mail/*.msg >/dev/null 2>&1
}
dead() { ! kill -0 "$1" 2>/dev/null; }

test_expect_success 'deliver --daemon with remind = yes queues and sends one plain-text mail; within the week, no other' '
	{ "$NET" -c "$T/daemon.conf" deliver --daemon >"$T/dd.out" 2>"$T/dd.err" & } &&
	pid=$! &&
	test_wait 15 daemon_reminded &&
	test_wait 15 mailed &&
	kill -TERM $pid &&
	test_wait 15 dead $pid &&
	test "$(q "SELECT count(*) FROM outbox WHERE kind = \"reply\"")" = 1 &&
	test "$(q "SELECT recipients, envelope_from FROM outbox WHERE kind = \"reply\"")" = "xfs-triage@xfs.example.org|bugs@example.org" &&
	q "SELECT message FROM outbox WHERE kind = \"reply\"" >"$T/reminder" &&
	grep -qx "Auto-Submitted: auto-generated" "$T/reminder" &&
	grep -qx "X-Loop: bugs@example.org" "$T/reminder" &&
	grep -qx "Subject: \\[triage\\] 3 reports wait for you" "$T/reminder" &&
	grep -qi "^Content-Type: text/plain" "$T/reminder" &&
	test "$(q "SELECT recipient, reports FROM reminders")" = "xfs-triage@xfs.example.org|[5,2,6]" &&
	TRIAGE_NOW=$((NOW + 6 * DAY)) "$TRIAGE" remind --send >"$T/send2" &&
	grep -q "^remind xfs-triage@xfs.example.org: reminded .*, none before a week\$" "$T/send2" &&
	test "$(q "SELECT count(*) FROM outbox WHERE kind = \"reply\"")" = 1 &&
	test "$(q "SELECT count(*) FROM reminders")" = 1
'

test_expect_success 'a week later the next reminder; nothing was closed' '
	TRIAGE_NOW=$((NOW + 8 * DAY)) "$TRIAGE" remind --send >"$T/send3" &&
	grep -q "^remind xfs-triage@xfs.example.org: 4 reports (outbox [0-9]*)\$" "$T/send3" &&
	test "$(q "SELECT count(*) FROM outbox WHERE kind = \"reply\"")" = 2 &&
	test "$(q "SELECT group_concat(state) FROM (SELECT state FROM reports WHERE kind = \"report\" ORDER BY id)")" = "forwarded,forwarded,fixed,forwarded,forwarded,forwarded"
'

test_expect_success 'a person away gets no reminder' '
	TRIAGE_NOW=$((NOW + 20 * DAY)) "$TRIAGE" -c "$T/away.conf" remind --send >"$T/away" &&
	grep -qx "remind xfs-triage@xfs.example.org: away, no reminder" "$T/away" &&
	test "$(q "SELECT count(*) FROM outbox WHERE kind = \"reply\"")" = 2
'

test_expect_success 'a person away by mail ("#triage away") gets none either' '
	TRIAGE_NOW=$((NOW + 30 * DAY)) "$TRIAGE" remind >"$T/before" &&
	grep -q "^remind xfs-triage@xfs.example.org: [0-9]* reports\$" "$T/before" &&
	cat >"$T/away.eml" <<-EOF &&
	From: XFS Triage <xfs-triage@xfs.example.org>
	To: bugs@example.org
	Subject: Re: xfs: oops in xfs_log_force
	Message-ID: <rem-away@xfs.example.org>
	In-Reply-To: <rem-2@example.com>
	Date: Tue, 01 Dec 2026 10:00:00 +0100
	Content-Type: text/plain; charset=utf-8

	#triage away 2099-12-31
	EOF
	"$FILTER" <"$T/away.eml" &&
	test "$(q "SELECT count(*) FROM people WHERE addr = \"xfs-triage@xfs.example.org\"")" = 1 &&
	TRIAGE_NOW=$((NOW + 30 * DAY)) "$TRIAGE" remind >"$T/after" &&
	grep -qx "remind xfs-triage@xfs.example.org: away, no reminder" "$T/after"
'

test_done
