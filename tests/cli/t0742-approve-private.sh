#!/bin/sh
# t0742-approve-private: approve never publishes a held security report
#
# The filter holds a report that looks security-sensitive and has no
# person to go to (its recorded recipient is the section's list or a
# security contact; t0741).  'triage approve' of it, alone or among
# other IDs, never sends it there: it goes to security_address when
# routes.conf has one (marked X-Triage-Security), and is refused
# otherwise, naming 'triage reroute', the private path (issue 21).
. "$(dirname "$0")/../lib.sh"
. "$SRC/tests/cli/lib-mail.sh"

C="$SRC/tests/corpus/abuse"
export TZ=UTC TRIAGE_USER=alice

need_tools "approving a security report is not tested" sqlite3
cat >"$T/MAINTAINERS" <<-\EOF
	List of maintainers

	8390 NETWORK DRIVERS [NE2000 and friends]
	L:	netdev@vger.example.org
	S:	Orphan / Obsolete
	F:	drivers/net/ethernet/8390/

	USB SUBSYSTEM
	M:	Uli Usb <uli@usb.example.org>
	L:	linux-usb@vger.kernel.org
	S:	Supported
	F:	drivers/usb/

	XFS FILESYSTEM
	M:	Xavier Xfs <xavier@xfs.example.org>
	L:	linux-xfs@vger.kernel.org
	S:	Supported
	F:	fs/xfs/

	THE REST
	M:	Linus Torvalds <torvalds@example.org>
	L:	linux-kernel@vger.example.org
	S:	Buried alive in reporters
	F:	*
	F:	*/
EOF
routes_conf triage@example.org "list_fallback * forward" &&
sed -i "s|^maintainers = .*|maintainers = $T/MAINTAINERS|" "$T/routes.conf" &&
cp "$T/routes.conf" "$T/sec.conf" &&
echo "security_address = secteam@example.org" >>"$T/sec.conf"

# private ID: the report's forwards as "recipients|X-Triage-Security"
private() {
	msg "o.report = $1 AND o.kind = 'forward'" >"$T/fwd$1" &&
	printf "%s|%s\n" "$(q "SELECT group_concat(recipients, ' ') FROM outbox WHERE report = $1 AND kind = 'forward'")" \
		"$(sed -n "s/^X-Triage-Security: //p" "$T/fwd$1" | tr -d "\\r")"
}

test_expect_success 'setup: a security report with no person is held, its recorded recipient the list' '
	feed "$C/31-list-kasan.eml" &&
	feed "$C/01-report.eml" &&
	sed -e "s/abuse-31.kasan@/abuse-31b.kasan@/" -e "s/^From: .*/From: Ole <ole@users.example>/" \
		"$C/31-list-kasan.eml" >"$T/31b.eml" &&
	feed "$T/31b.eml" &&
	test "$(q "SELECT id || state FROM reports ORDER BY id" | tr "\\n" " ")" = "1held 2forwarded 3held " &&
	test "$(q "SELECT recipient FROM decisions WHERE report = 1")" = netdev@vger.example.org &&
	q "SELECT reason FROM decisions WHERE report = 1" >"$T/why1" &&
	grep "it looks security-sensitive (KASAN memory-safety crash); no person" "$T/why1"
'

test_expect_success 'approve refuses it without security_address, naming reroute; nothing queued' '
	n=$(q "SELECT count(*) FROM outbox") &&
	test_exit 65 "$TRIAGE" approve 1 >"$T/out1" 2>"$T/err1" &&
	grep "approve 1: it looks security-sensitive (KASAN memory-safety crash) and had no person to go to: never sent to netdev@vger.example.org" "$T/err1" &&
	grep "triage reroute 1 ADDR" "$T/err1" &&
	test "$(q "SELECT count(*) FROM outbox")" = "$n" &&
	test "$(q "SELECT state FROM reports WHERE id = 1")" = held
'

test_expect_success 'approve --to the list itself is refused the same way' '
	n=$(q "SELECT count(*) FROM outbox") &&
	test_exit 65 "$TRIAGE" approve --to netdev@vger.example.org 1 2>"$T/err1t" &&
	grep "approve 1: it looks security-sensitive" "$T/err1t" &&
	test "$(q "SELECT count(*) FROM outbox")" = "$n"
'

test_expect_success 'in bulk: the others are approved, the security one is refused' '
	feed "$C/29-user-thin.eml" &&
	id=$(id_of abuse-29.thin@users.example) &&
	test "$(q "SELECT state FROM reports WHERE id = $id")" = held &&
	test_exit 65 "$TRIAGE" approve 3 "$id" >"$T/outb" 2>"$T/errb" &&
	grep "approve 3: it looks security-sensitive" "$T/errb" &&
	grep "approve $id: forwarded to uli@usb.example.org" "$T/outb" &&
	test "$(q "SELECT count(*) FROM outbox WHERE report = 3")" = 0 &&
	test "$(q "SELECT count(*) FROM outbox WHERE recipients LIKE \"%netdev@%\"")" = 0
'

test_expect_success 'with security_address: approve sends it there only, marked' '
	TRIAGE_CONFIG="$T/sec.conf" "$TRIAGE" approve 1 >"$T/out1s" &&
	grep "approve 1: forwarded to secteam@example.org" "$T/out1s" &&
	test "$(private 1)" = "secteam@example.org|yes (KASAN memory-safety crash)" &&
	test "$(q "SELECT state FROM reports WHERE id = 1")" = approved &&
	q "SELECT reason FROM decisions WHERE report = 1 AND action = \"forward\"" >"$T/why1s" &&
	grep "approved by alice; it looks security-sensitive (KASAN memory-safety crash) and has no person to go to: sent privately to security_address" "$T/why1s"
'

test_expect_success 'reroute to a person stays the private path' '
	"$TRIAGE" reroute 3 xavier@xfs.example.org >"$T/out3r" &&
	grep "reroute 3: forwarded to xavier@xfs.example.org" "$T/out3r" &&
	test "$(q "SELECT recipients FROM outbox WHERE report = 3")" = xavier@xfs.example.org
'

test_expect_success 'held for its class, a security report to a list is guarded too' '
	sed -e "s/abuse-31.kasan@/abuse-31u.kasan@/" -e "s/^From: .*/From: Uwe <uwe@users.example>/" \
		"$C/31-list-kasan.eml" >"$T/31u.eml" &&
	cp "$T/routes.conf" "$T/userhold.conf" &&
	echo "action user hold" >>"$T/userhold.conf" &&
	TRIAGE_CONFIG="$T/userhold.conf" "$FILTER" <"$T/31u.eml" &&
	id=$(id_of abuse-31u.kasan@users.example) &&
	test "$(q "SELECT state FROM reports WHERE id = $id")" = held &&
	test "$(q "SELECT recipient FROM decisions WHERE report = $id")" = netdev@vger.example.org &&
	q "SELECT reason FROM decisions WHERE report = $id" >"$T/whyu" &&
	grep "^user: held for a triager" "$T/whyu" &&
	grep "it looks security-sensitive (KASAN memory-safety crash); no person" "$T/whyu" &&
	n=$(q "SELECT count(*) FROM outbox") &&
	test_exit 65 "$TRIAGE" approve "$id" 2>"$T/erru" &&
	grep "approve $id: it looks security-sensitive (KASAN memory-safety crash) and had no person to go to: never sent to netdev@vger.example.org" "$T/erru" &&
	test "$(q "SELECT count(*) FROM outbox")" = "$n"
'

test_expect_success 'a report that does not look security-sensitive is approved to its list as before' '
	sed -e "s/abuse-31.kasan@/abuse-31p.plain@/" -e "s/^From: .*/From: Pia <pia@users.example>/" \
		-e "s/KASAN: slab-use-after-free/kernel NULL pointer dereference/g" -e "/kasan/Id" \
		"$C/31-list-kasan.eml" >"$T/31p.eml" &&
	! grep -i "kasan\|security\|exploit\|cve-\|vulnerab" "$T/31p.eml" &&
	cp "$T/routes.conf" "$T/hold.conf" &&
	sed -i "s/^list_fallback .*/list_fallback * hold/" "$T/hold.conf" &&
	grep -q "^list_fallback \* hold" "$T/hold.conf" &&
	TRIAGE_CONFIG="$T/hold.conf" "$FILTER" <"$T/31p.eml" &&
	id=$(id_of abuse-31p.plain@users.example) &&
	test "$(q "SELECT state FROM reports WHERE id = $id")" = held &&
	"$TRIAGE" approve "$id" >"$T/outp" &&
	test "$(private "$id")" = "netdev@vger.example.org|"
'

test_expect_success 'held for its size, a security report keeps its verdict: approve refuses the list' '
	sed -e "s/abuse-31.kasan@/abuse-31o.kasan@/" -e "s/^From: .*/From: Otto <otto@users.example>/" \
		"$C/31-list-kasan.eml" >"$T/31o.body" &&
	awk "{ print } /^Message-ID:/ { for (i = 0; i < 1001; i++) print \"X-Hn: x\" }" \
		"$T/31o.body" >"$T/31o.eml" &&
	test "$(grep -c "^X-Hn: x" "$T/31o.eml")" = 1001 &&
	feed "$T/31o.eml" &&
	id=$(id_of abuse-31o.kasan@users.example) &&
	test "$(q "SELECT state FROM reports WHERE id = $id")" = held &&
	q "SELECT reason FROM decisions WHERE report = $id" >"$T/whyo" &&
	! grep "security-sensitive" "$T/whyo" &&
	n=$(q "SELECT count(*) FROM outbox") &&
	test_exit 65 "$TRIAGE" approve "$id" 2>"$T/erro" &&
	grep "approve $id: it looks security-sensitive (KASAN memory-safety crash)" "$T/erro" &&
	grep "triage reroute $id ADDR" "$T/erro" &&
	test "$(q "SELECT count(*) FROM outbox")" = "$n" &&
	test "$(q "SELECT state FROM reports WHERE id = $id")" = held &&
	test "$(q "SELECT security FROM decisions WHERE report = $id")" = "KASAN memory-safety crash"
'

test_expect_success 'after a private approve, approve --to a list is refused; --to a person is a marked copy' '
	n=$(q "SELECT count(*) FROM outbox") &&
	test_exit 65 env TRIAGE_CONFIG="$T/sec.conf" "$TRIAGE" approve --to netdev@vger.example.org 1 2>"$T/err4" &&
	grep "approve 1: it looks security-sensitive (KASAN memory-safety crash)" "$T/err4" &&
	grep "netdev@vger.example.org (a MAINTAINERS list)" "$T/err4" &&
	test_exit 65 env TRIAGE_CONFIG="$T/sec.conf" "$TRIAGE" approve --to linux-usb@vger.kernel.org 1 2>"$T/err4u" &&
	grep "linux-usb@vger.kernel.org (a MAINTAINERS list)" "$T/err4u" &&
	test "$(q "SELECT count(*) FROM outbox")" = "$n" &&
	TRIAGE_CONFIG="$T/sec.conf" "$TRIAGE" approve --to uli@usb.example.org 1 >"$T/out4" &&
	grep "approve 1: forwarded to uli@usb.example.org" "$T/out4" &&
	msg "o.report = 1 AND o.recipients = \"uli@usb.example.org\"" >"$T/fwd4" &&
	grep "^X-Triage-Security: yes (KASAN memory-safety crash)" "$T/fwd4" &&
	test "$(q "SELECT count(*) FROM outbox WHERE report = 1 AND recipients LIKE \"%vger%\"")" = 0
'

test_expect_success 'reroute of a security report: never to a list-only section or a list; to a person, marked' '
	n=$(q "SELECT count(*) FROM outbox") &&
	test_exit 65 "$TRIAGE" reroute 3 "8390 NETWORK DRIVERS" 2>"$T/err3l" &&
	grep "reroute 3: it looks security-sensitive (KASAN memory-safety crash): 8390 NETWORK DRIVERS" "$T/err3l" &&
	grep "no security_address" "$T/err3l" &&
	test_exit 65 "$TRIAGE" reroute 3 netdev@vger.example.org 2>"$T/err3a" &&
	grep "reroute 3: it looks security-sensitive (KASAN memory-safety crash): never sent to netdev@vger.example.org (a MAINTAINERS list)" "$T/err3a" &&
	test "$(q "SELECT count(*) FROM outbox")" = "$n" &&
	test "$(q "SELECT count(*) FROM outbox WHERE report = 3 AND recipients LIKE \"%netdev@%\"")" = 0 &&
	"$TRIAGE" reroute 3 "USB SUBSYSTEM" >"$T/out3u" &&
	grep "reroute 3: forwarded to uli@usb.example.org" "$T/out3u" &&
	msg "o.report = 3 AND o.recipients = \"uli@usb.example.org\"" >"$T/fwd3u" &&
	grep "^X-Triage-Security: yes (KASAN memory-safety crash)" "$T/fwd3u" &&
	TRIAGE_CONFIG="$T/sec.conf" "$TRIAGE" reroute 3 "8390 NETWORK DRIVERS" >"$T/out3s" &&
	grep "reroute 3: forwarded to secteam@example.org" "$T/out3s" &&
	test "$(q "SELECT count(*) FROM outbox WHERE report = 3 AND recipients LIKE \"%netdev@%\"")" = 0 &&
	"$TRIAGE" reroute --force 3 netdev@vger.example.org >"$T/out3f" &&
	grep "reroute 3: forwarded to netdev@vger.example.org" "$T/out3f"
'

test_expect_success 'a forged From on a follow-up is no security verdict: approved as any report, nothing to security_address' '
	sed -e "s/^From: .*/From: \"it looks security-sensitive (x); no person\"@evil.example/" \
		-e "s/abuse-04.reply@/abuse-04f.reply@/" "$C/04-reply-stranger.eml" >"$T/04f.eml" &&
	feed "$T/04f.eml" &&
	id=$(id_of abuse-04f.reply@evil.example) &&
	test "$(q "SELECT state FROM reports WHERE id = $id")" = recorded &&
	q "SELECT reason FROM decisions WHERE report = $id" >"$T/whyf" &&
	grep "it looks security-sensitive (x); no person" "$T/whyf" &&
	n=$(q "SELECT count(*) FROM outbox WHERE recipients = \"secteam@example.org\"") &&
	test_exit 65 env TRIAGE_CONFIG="$T/sec.conf" "$TRIAGE" approve "$id" 2>"$T/errf" &&
	grep "approve $id: nobody to send it to" "$T/errf" &&
	! grep "security" "$T/errf" &&
	test "$(q "SELECT count(*) FROM outbox WHERE recipients = \"secteam@example.org\"")" = "$n" &&
	TRIAGE_CONFIG="$T/sec.conf" "$TRIAGE" approve --to xavier@xfs.example.org "$id" >"$T/outf" &&
	grep "approve $id: forwarded to xavier@xfs.example.org" "$T/outf" &&
	test "$(q "SELECT count(*) FROM outbox WHERE recipients = \"secteam@example.org\"")" = "$n" &&
	msg "o.report = $id" >"$T/fwdf" &&
	! grep "^X-Triage-Security" "$T/fwdf" &&
	test -z "$(q "SELECT security FROM decisions WHERE report = $id")"
'

test_done
