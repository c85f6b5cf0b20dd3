#!/bin/sh
# t0741-abuse-leftovers: what issue 21's attacker passes left open
#
# A stranger's patch whose Closes: names a report is recorded as a fix
# proposed but silences none of its reminders; a text longer than the
# rules read is held, never forwarded unread; a security-looking report
# goes privately to the picked person or the site's security_address,
# marked, never to a list, and is held when there is neither.
. "$(dirname "$0")/../lib.sh"
. "$SRC/tests/cli/lib-mail.sh"

C="$SRC/tests/corpus/abuse"
export TZ=UTC TRIAGE_USER=alice

need_tools "the abuse leftovers are not tested" sqlite3
routes_conf triage@example.org

# remind_ids: the reports 'triage remind' lists ten days from now
remind_ids() {
	TRIAGE_NOW=$(($(date +%s) + 10 * 86400)) "$TRIAGE" remind >"$T/remind" &&
	sed -n "s/^[0-9]*\\. \\[triage #\\([0-9]*\\)-[a-z2-7]*\\] .*/\\1/p" "$T/remind" | tr "\\n" " "
}

test_expect_success 'a forwarded report waits for its recipient: reminded' '
	feed "$C/01-report.eml" &&
	test "$(q "SELECT state FROM reports WHERE id = 1")" = forwarded &&
	test "$(remind_ids)" = "1 "
'

test_expect_success 'a stranger'"'"'s patch naming the report: a fix proposed, recorded and shown, reminders go on' '
	feed "$C/32-fix-stranger.eml" &&
	id=$(id_of abuse-32.fix@evil.example) &&
	test "$(q "SELECT kind, thread_root FROM reports WHERE id = $id")" = "patch|1" &&
	test "$(q "SELECT report, state, source_report, how FROM fixes")" = "1|proposed|$id|Closes: (not a party)" &&
	q "SELECT reason FROM decisions WHERE report = $id" >"$T/why32" &&
	grep "a fix proposed for report #1 (from someone who is not one of the report.s people: recorded, its reminders go on)" "$T/why32" &&
	"$TRIAGE" show 1 >"$T/show1" &&
	sed -n "/^action *fix-proposed #$id\$/,/^action/p" "$T/show1" >"$T/act1" &&
	grep "not one of the report.s people: recorded, its reminders go on" "$T/act1" &&
	test "$(remind_ids)" = "1 "
'

test_expect_success 'the section maintainer'"'"'s patch naming it silences the reminders' '
	sed -e "s/^From: .*/From: Xavier Xfs <xavier@xfs.example.org>/" \
		-e "s/abuse-32.fix@evil.example/abuse-32b.fix@xfs.example.org/" \
		"$C/32-fix-stranger.eml" >"$T/32b.eml" &&
	feed "$T/32b.eml" &&
	id=$(id_of abuse-32b.fix@xfs.example.org) &&
	test "$(q "SELECT how FROM fixes WHERE source_report = $id")" = "Closes:" &&
	test "$(remind_ids)" = ""
'

test_done
