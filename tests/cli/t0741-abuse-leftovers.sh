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

# long_report ID LINES: 01's xfs report (from pat-ID@), LINES lines of a boot log in the
# sender's own text (78 bytes each), then the demo AI text
long_report() {
	sed -n "1,/^\$/p" "$C/01-report.eml" |
		sed -e "s/abuse-01.report/abuse-33.$1/" -e "s/^From: .*/From: Pat <pat-$1@users.example>/" &&
	sed "1,/^\$/d" "$C/01-report.eml" &&
	echo "The whole boot log, then my notes." &&
	awk -v n="$2" "BEGIN { for (i = 0; i < n; i++) printf \"[%6d.%06d] usb 1-1: new high-speed USB device number %4d using xhci_hcd\\n\", i, i, i % 1000 }" &&
	sed "1,/^-----Original Message-----/d" "$C/22-ai-marker.eml"
}

test_expect_success 'a text longer than the rules read is held, never forwarded unread' '
	long_report long 15000 >"$T/33.eml" &&
	test "$(wc -c <"$T/33.eml")" -gt 1100000 &&
	feed "$T/33.eml" &&
	id=$(id_of abuse-33.long@users.example) &&
	test "$(q "SELECT state FROM reports WHERE id = $id")" = held &&
	test "$(q "SELECT count(*) FROM outbox WHERE report = $id")" = 0 &&
	q "SELECT reason FROM decisions WHERE report = $id" >"$T/why33" &&
	grep "^text longer than the rules read: 1[0-9]\{6\} bytes, limit 1048576; held for a triager" "$T/why33" &&
	"$TRIAGE" explain "$T/33.eml" >"$T/explain33" &&
	grep "text longer than the rules read: 1[0-9]\{6\} bytes, limit 1048576" "$T/explain33"
'

test_expect_success 'under the limit, all of it is read: the AI text at its end is seen' '
	long_report short 12000 >"$T/33s.eml" &&
	test "$(wc -c <"$T/33s.eml")" -lt 1040000 &&
	feed "$T/33s.eml" &&
	id=$(id_of abuse-33.short@users.example) &&
	test "$(q "SELECT state FROM reports WHERE id = $id")" = held &&
	q "SELECT reason FROM decisions WHERE report = $id" >"$T/why33s" &&
	! grep "text longer than the rules read" "$T/why33s" &&
	q "SELECT rule_hits FROM classification WHERE report = $id" >"$T/hits33s" &&
	grep AI_HEADINGS "$T/hits33s"
'

test_expect_success 'quote marks do not count: quoted text past 1 MiB with them, under it without, is read whole' '
	quoted() { awk -v n="$1" "BEGIN { for (i = 0; i < n; i++) printf \"> > > > [%6d.%06d] xfs sdb1: metadata I/O error in xfs_iflush_cluster %4d\\n\", i, i, i % 1000 }"; } &&
	{
		sed -n "1,/^\$/p" "$C/01-report.eml" |
			sed -e "s/abuse-01.report/abuse-33.quoted/" -e "s/^From: .*/From: Quinn <quinn@users.example>/" \
				-e "s|^Content-Type: .*|Content-Type: multipart/mixed; boundary=\"b33\"|" &&
		echo "--b33" && echo "Content-Type: text/plain; charset=utf-8" && echo &&
		sed "1,/^\$/d" "$C/01-report.eml" &&
		echo "The log as a colleague sent it to me, the rest attached:" &&
		quoted 7000 &&
		echo "--b33" && echo "Content-Type: text/plain; charset=utf-8" &&
		echo "Content-Disposition: attachment; filename=\"rest.txt\"" && echo &&
		quoted 6300 &&
		echo "--b33--"
	} >"$T/33q.eml" &&
	test "$(wc -c <"$T/33q.eml")" -gt 1060000 &&
	feed "$T/33q.eml" &&
	id=$(id_of abuse-33.quoted@users.example) &&
	q "SELECT reason FROM decisions WHERE report = $id" >"$T/why33q" &&
	! grep "text longer than the rules read" "$T/why33q" &&
	# the same with the quote marks gone is past the limit: held
	sed -e "s/^> > > > //" -e "s/abuse-33.quoted/abuse-33.unquoted/" "$T/33q.eml" >"$T/33u.eml" &&
	awk "{ print } /^\\[ *[0-9]/ && !done { for (i = 0; i < 1300; i++) print; done = 1 }" "$T/33u.eml" >"$T/33u2.eml" &&
	test "$(wc -c <"$T/33u2.eml")" -gt 1050000 &&
	feed "$T/33u2.eml" &&
	id=$(id_of abuse-33.unquoted@users.example) &&
	q "SELECT reason FROM decisions WHERE report = $id" >"$T/why33u" &&
	grep "text longer than the rules read" "$T/why33u"
'

test_done
