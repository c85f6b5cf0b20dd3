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

# the private path: a state of its own, with a person-less section and a
# regressions list a forward would copy
cat >"$T/MAINTAINERS.sec" <<-\EOF
	List of maintainers

	8390 NETWORK DRIVERS [NE2000 and friends]
	L:	netdev@vger.example.org
	S:	Orphan / Obsolete
	F:	drivers/net/ethernet/8390/

	XFS FILESYSTEM
	M:	Xavier Xfs <xavier@xfs.example.org>
	R:	Rita Review <rita@xfs.example.org>
	L:	linux-xfs@vger.kernel.org
	S:	Supported
	B:	mailto:xfs-triage@xfs.example.org
	F:	fs/xfs/

	THE REST
	M:	Linus Torvalds <torvalds@example.org>
	L:	linux-kernel@vger.example.org
	S:	Buried alive in reporters
	F:	*
	F:	*/
EOF
sed -e "s|^state_dir = .*|state_dir = $T/sec|" \
    -e "s|^maintainers = .*|maintainers = $T/MAINTAINERS.sec|" \
	"$T/routes.conf" >"$T/sec.conf" &&
printf "%s\n" "regressions_list = regressions@example.org" "list_fallback * forward" >>"$T/sec.conf"
qs() { sqlite3 "$T/sec/triage.db" "$1"; }
feeds() { TRIAGE_CONFIG="$1" TRIAGE_STATE_DIR="$T/sec" "$FILTER" <"$2" || { echo "filter failed on $2"; return 1; }; }
# head_of ID: the head of the queued forward of report ID
head_of() { qs "SELECT message FROM outbox WHERE report = $1 AND kind = 'forward'" | sed "/^\r\?\$/q"; }

test_expect_success 'private path: a security-looking report goes to its person only, marked, no list copied' '
	feeds "$T/sec.conf" "$C/34-xfs-kasan.eml" &&
	id=$(qs "SELECT id FROM reports WHERE message_id = \"abuse-34.kasan@users.example\"") &&
	test "$(qs "SELECT class, state, regression FROM reports WHERE id = $id")" = "user|forwarded|1" &&
	test "$(qs "SELECT recipients FROM outbox WHERE report = $id")" = xfs-triage@xfs.example.org &&
	head_of $id >"$T/head34" &&
	grep -x "X-Triage-Security: yes (KASAN memory-safety crash)" "$T/head34" &&
	! grep -i "^Resent-Cc:" "$T/head34" &&
	! grep -i "regressions@" "$T/head34" &&
	qs "SELECT reason FROM decisions WHERE report = $id" >"$T/why34" &&
	grep "it looks security-sensitive (KASAN memory-safety crash): sent privately, marked X-Triage-Security, copied to no list" "$T/why34"
'

test_expect_success 'a regression that does not look security-sensitive still copies the regressions list' '
	sed -e "s/abuse-34.kasan@/abuse-34b.plain@/" -e "s/^From: .*/From: Uwe <uwe@users.example>/" \
		-e "s/BUG: KASAN: slab-use-after-free in/BUG: kernel NULL pointer dereference in/" \
		-e "/kasan_report/d" -e "s/KASAN slab-use-after-free/NULL dereference/" -e "s/ a KASAN build gives/ it gives/" \
		"$C/34-xfs-kasan.eml" >"$T/34b.eml" &&
	! grep -i kasan "$T/34b.eml" &&
	feeds "$T/sec.conf" "$T/34b.eml" &&
	id=$(qs "SELECT id FROM reports WHERE message_id = \"abuse-34b.plain@users.example\"") &&
	test "$(qs "SELECT state FROM reports WHERE id = $id")" = forwarded &&
	qs "SELECT recipients FROM outbox WHERE report = $id" >"$T/rcpt34b" &&
	grep -x regressions@example.org "$T/rcpt34b" &&
	head_of $id >"$T/head34b" &&
	! grep "^X-Triage-Security:" "$T/head34b"
'

test_expect_success 'private path: no person and no security_address: held, never the list' '
	feeds "$T/sec.conf" "$C/31-list-kasan.eml" &&
	id=$(qs "SELECT id FROM reports WHERE message_id = \"abuse-31.kasan@users.example\"") &&
	test "$(qs "SELECT state FROM reports WHERE id = $id")" = held &&
	test "$(qs "SELECT count(*) FROM outbox WHERE report = $id")" = 0 &&
	qs "SELECT reason FROM decisions WHERE report = $id" >"$T/why31" &&
	grep "security-sensitive (KASAN memory-safety crash); no person, no security_address: never published on a list, held for a triager" "$T/why31"
'

test_expect_success 'private path: no person, security_address set: sent there only, marked' '
	cp "$T/sec.conf" "$T/sec2.conf" &&
	echo "security_address = secteam@example.org" >>"$T/sec2.conf" &&
	TRIAGE_CONFIG="$T/sec2.conf" "$TRIAGE" check-config >"$T/cc" &&
	sed "s/abuse-31.kasan@/abuse-31c.kasan@/" "$C/31-list-kasan.eml" >"$T/31c.eml" &&
	feeds "$T/sec2.conf" "$T/31c.eml" &&
	id=$(qs "SELECT id FROM reports WHERE message_id = \"abuse-31c.kasan@users.example\"") &&
	test "$(qs "SELECT state FROM reports WHERE id = $id")" = forwarded &&
	test "$(qs "SELECT recipients FROM outbox WHERE report = $id")" = secteam@example.org &&
	test "$(qs "SELECT count(*) FROM outbox WHERE recipients LIKE \"%netdev@%\"")" = 0 &&
	head_of $id >"$T/head31c" &&
	grep -x "X-Triage-Security: yes (KASAN memory-safety crash)" "$T/head31c" &&
	grep -x "Resent-To: secteam@example.org" "$T/head31c" &&
	qs "SELECT reason FROM decisions WHERE report = $id" >"$T/why31c" &&
	grep "no person to go to: sent privately to security_address secteam@example.org instead, marked X-Triage-Security, copied to no list" "$T/why31c" &&
	TRIAGE_CONFIG="$T/sec2.conf" TRIAGE_STATE_DIR="$T/sec" "$TRIAGE" explain "$T/31c.eml" >"$T/explain31c" &&
	grep "^recipient *secteam@example.org" "$T/explain31c"
'

test_expect_success 'security_address is checked like every address' '
	cp "$T/sec.conf" "$T/sec3.conf" &&
	echo "security_address = not an address" >>"$T/sec3.conf" &&
	test_exit 78 env TRIAGE_CONFIG="$T/sec3.conf" "$TRIAGE" check-config >"$T/cc3" 2>&1 &&
	grep "security_address: .not an address. is not a mail address" "$T/cc3"
'

test_expect_success 'an inbound X-Triage-Security header is renamed, ours alone is on top' '
	sed -e "s/abuse-34.kasan@/abuse-34c.kasan@/" -e "s/^From: .*/From: Wim <wim@users.example>/" \
		-e "/^Subject: /a X-Triage-Security: no" "$C/34-xfs-kasan.eml" >"$T/34c.eml" &&
	feeds "$T/sec.conf" "$T/34c.eml" &&
	id=$(qs "SELECT id FROM reports WHERE message_id = \"abuse-34c.kasan@users.example\"") &&
	qs "SELECT cast(o.message || coalesce(substr(m.raw, o.raw_offset + 1), zeroblob(0)) as blob) FROM outbox o LEFT JOIN messages m ON m.report = o.raw_report WHERE o.report = $id AND o.kind = \"forward\"" >"$T/fwd34c" &&
	test "$(grep -c "^X-Triage-Security:" "$T/fwd34c")" = 1 &&
	grep -x "X-Triage-Security: yes (KASAN memory-safety crash)" "$T/fwd34c" &&
	grep -x "X-Original-Triage-Security: no" "$T/fwd34c"
'

test_done
