#!/bin/sh
# t0740-abuse: a stranger on the bugs alias cannot steer, bury or relay
#
# The messages of tests/corpus/abuse (see its README) go through the real
# triage-filter; each case is one finding of issue 21, and each check
# says what the attacker must not get.
. "$(dirname "$0")/../lib.sh"
. "$SRC/tests/cli/lib-mail.sh"

C="$SRC/tests/corpus/abuse"
export TZ=UTC TRIAGE_USER=alice

need_tools "abuse cases are not tested" sqlite3
routes_conf triage@example.org "reply_bugtracker = yes"
# sent_to ID ADDR: how many outbox rows of report ID go to ADDR
sent_to() { q "SELECT count(*) FROM outbox WHERE report = $1 AND recipients LIKE '%$2%'"; }

test_expect_success 'a genuine report is forwarded, its tag carries a token' '
	feed "$C/01-report.eml" &&
	test "$(q "SELECT state FROM reports WHERE id = 1")" = forwarded &&
	msg "o.report = 1" >"$T/fwd1" &&
	grep "^Subject: \[triage #1-[a-z2-7]\{8\}\] xfs: " "$T/fwd1" &&
	sed -n "s/^Subject: \[triage #1-\([a-z2-7]*\)\] .*/\1/p" "$T/fwd1" >"$T/token" &&
	test "$(wc -c <"$T/token")" = 9
'

test_expect_success 'hijack: a stranger'"'"'s bare "[triage #1]" does not join #1' '
	feed "$C/02-tag-bare.eml" &&
	id=$(id_of abuse-02.tag@evil.example) &&
	test -n "$id" &&
	test "$(q "SELECT coalesce(thread_root, 0) FROM reports WHERE id = $id")" = 0 &&
	test "$(sent_to $id xfs-triage@xfs.example.org)" = 0 &&
	# junk that names nothing and says nothing went wrong: spam, recorded
	test "$(q "SELECT kind, state FROM reports WHERE id = $id")" = "spam|recorded"
'

test_expect_success 'hijack: a wrong token does not join either' '
	feed "$C/03-tag-bad-token.eml" &&
	id=$(id_of abuse-03.badtoken@evil.example) &&
	test "$(q "SELECT coalesce(thread_root, 0) FROM reports WHERE id = $id")" = 0 &&
	test "$(sent_to $id xfs-triage@xfs.example.org)" = 0
'

test_expect_success 'hijack: a stranger'"'"'s reply joins, recorded with the report, never sent on' '
	feed "$C/04-reply-stranger.eml" &&
	id=$(id_of abuse-04.reply@evil.example) &&
	test "$(q "SELECT thread_root, state FROM reports WHERE id = $id")" = "1|recorded" &&
	test "$(q "SELECT count(*) FROM classification WHERE report = $id")" = 0 &&
	test "$(q "SELECT count(*) FROM outbox WHERE report = $id")" = 0 &&
	q "SELECT reason FROM decisions WHERE report = $id" | grep "not the report.s reporter, recipient or section"
'

test_expect_success 'hijack: "Re: [Bug N]" from a stranger is no follow-up of the bug' '
	q "INSERT INTO bugs (bug_id, report, last_change_time, updated_at) VALUES (5000, 1, \"\", 0)" &&
	feed "$C/05-bug-stranger.eml" &&
	id=$(id_of abuse-05.bug@evil.example) &&
	test "$(q "SELECT coalesce(thread_root, 0) FROM reports WHERE id = $id")" = 0 &&
	test "$(sent_to $id xfs-triage@xfs.example.org)" = 0
'

# anyone can write the From of a section's reviewer (MAINTAINERS is
# public) and a bare tag: unchecked, it is a stranger's follow-up
test_expect_success 'the section'"'"'s reviewer'"'"'s From on a bare tag joins, but unchecked it is only recorded' '
	feed "$C/06-tag-section.eml" &&
	id=$(id_of abuse-06.rita@xfs.example.org) &&
	test "$(q "SELECT thread_root, state FROM reports WHERE id = $id")" = "1|recorded" &&
	test "$(q "SELECT count(*) FROM classification WHERE report = $id")" = 0 &&
	test "$(sent_to $id xfs-triage@xfs.example.org)" = 0 &&
	q "SELECT reason FROM decisions WHERE report = $id" |
		grep "from rita@xfs.example.org, one of the report.s people by its From alone, which a subject anyone can write brought and no authserv_id checks"
'

test_expect_success 'forged From: a reviewer'"'"'s From on every bare tag reaches no maintainer' '
	for n in 1 2 3; do
		sed -e "s/abuse-06.rita@/abuse-06-$n.forged@/" -e "s/#1\]/#$n]/" \
			-e "s/^Lena, could.*/Cheap pills: https:\/\/evil.example\/shop/" \
			"$C/06-tag-section.eml" >"$T/06-$n.eml" &&
		SENDER=m@evil.example "$FILTER" <"$T/06-$n.eml" &&
		test "$(q "SELECT count(*) FROM outbox o JOIN reports r ON r.id = o.report WHERE r.message_id = \"abuse-06-$n.forged@xfs.example.org\"")" = 0 || return 1
	done
'

# rita_reply ID [AUTHENTICATION-RESULTS]: the section's reviewer (or one
# who writes her From) replying in #1's thread
rita_reply() {
	{
		if [ -n "${2:-}" ]; then echo "Authentication-Results: $2"; fi &&
		printf "From: Rita Review <rita@xfs.example.org>\nTo: bugs@example.org\n" &&
		printf "Subject: Re: xfs: NULL pointer dereference in xfs_iflush_cluster\n" &&
		printf "Message-ID: <%s@xfs.example.org>\n" "$1" &&
		printf "In-Reply-To: <abuse-01.report@users.example>\n" &&
		printf "Date: Tue, 01 Dec 2026 10:30:00 +0000\n\n" &&
		printf "Lena, could you run with CONFIG_XFS_DEBUG=y and send the log?\n"
	} >"$T/$1.eml"
}
# with authserv_id: a From counts as the section's only when our own
# server authenticated it (issue 21, item 1: the party check)
test_expect_success 'forged From: with authserv_id, a party'"'"'s From unauthenticated is a stranger'"'"'s' '
	sed "s/^router_address = .*/&\nauthserv_id = mx.example.org/" "$T/routes.conf" >"$T/auth.conf" &&
	grep -q "^authserv_id = mx.example.org" "$T/auth.conf" &&
	rita_reply ar-none &&
	rita_reply ar-other "mx.evil.example; dkim=pass header.d=xfs.example.org" &&
	rita_reply ar-pass "mx.example.org; dkim=pass header.d=xfs.example.org" &&
	for m in ar-none ar-other ar-pass; do
		TRIAGE_CONFIG="$T/auth.conf" "$FILTER" <"$T/$m.eml" || return 1
	done &&
	for m in ar-none ar-other; do
		id=$(id_of "$m@xfs.example.org") &&
		test "$(q "SELECT thread_root, state FROM reports WHERE id = $id")" = "1|recorded" &&
		test "$(sent_to $id xfs-triage@xfs.example.org)" = 0 &&
		q "SELECT reason FROM decisions WHERE report = $id" |
			grep "not the report.s reporter, recipient or section" || return 1
	done &&
	id=$(id_of ar-pass@xfs.example.org) &&
	test "$(q "SELECT thread_root, state FROM reports WHERE id = $id")" = "1|forwarded" &&
	test "$(q "SELECT count(*) FROM classification WHERE report = $id")" = 0 &&
	test "$(sent_to $id xfs-triage@xfs.example.org)" = 1
'

test_expect_success 'with authserv_id, the reviewer'"'"'s authenticated bare tag joins and is sent on' '
	{
		echo "Authentication-Results: mx.example.org; dkim=pass header.d=xfs.example.org" &&
		sed "s/abuse-06.rita@/abuse-06b.rita@/" "$C/06-tag-section.eml"
	} >"$T/06b.eml" &&
	TRIAGE_CONFIG="$T/auth.conf" "$FILTER" <"$T/06b.eml" &&
	id=$(id_of abuse-06b.rita@xfs.example.org) &&
	test "$(q "SELECT thread_root, state FROM reports WHERE id = $id")" = "1|forwarded" &&
	test "$(q "SELECT count(*) FROM classification WHERE report = $id")" = 0 &&
	test "$(sent_to $id xfs-triage@xfs.example.org)" = 1 &&
	q "SELECT reason FROM decisions WHERE report = $id" | grep "bare subject tag \[triage #1\]"
'

test_expect_success 'hijack: the right token joins a stranger, who is still only recorded' '
	sed "s/TOKEN/$(cat "$T/token")/" "$C/07-tag-token.eml.in" >"$T/07.eml" &&
	feed "$T/07.eml" &&
	id=$(id_of abuse-07.token@evil.example) &&
	test "$(q "SELECT thread_root, state FROM reports WHERE id = $id")" = "1|recorded" &&
	test "$(q "SELECT count(*) FROM outbox WHERE report = $id")" = 0
'

test_expect_success 'squatting: a Message-ID seen first from a stranger buries nothing' '
	feed "$C/08-squat.eml" &&
	feed "$C/09-genuine.eml" &&
	id=$(q "SELECT id FROM reports WHERE from_addr = \"omar@users.example\"") &&
	test -n "$id" &&
	test "$(q "SELECT coalesce(duplicate_of, 0), state FROM reports WHERE id = $id")" = "0|forwarded" &&
	test "$(q "SELECT count(*) FROM outbox WHERE report = $id AND kind = \"forward\"")" = 1
'

test_expect_success 'the same sender'"'"'s second copy is still a duplicate' '
	sed "s/every few/every couple of/" "$C/09-genuine.eml" >"$T/09b.eml" &&
	feed "$T/09b.eml" &&
	id=$(q "SELECT max(id) FROM reports") &&
	test "$(q "SELECT state FROM reports WHERE id = $id")" = duplicate &&
	test "$(q "SELECT duplicate_of FROM reports WHERE id = $id")" = \
		"$(q "SELECT id FROM reports WHERE from_addr = \"omar@users.example\" AND duplicate_of IS NULL")"
'

test_expect_success 'backscatter: the automatic reply goes to the envelope sender, not the From' '
	SENDER=mallory@evil.example feed "$C/10-backscatter.eml" &&
	id=$(id_of abuse-10.bt@example.net) &&
	test "$(q "SELECT state, section FROM reports WHERE id = $id")" = "forwarded|BLUETOOTH SUBSYSTEM" &&
	test "$(q "SELECT recipients, envelope_from FROM outbox WHERE report = $id AND kind = \"reply\"")" = "mallory@evil.example|" &&
	test "$(q "SELECT count(*) FROM outbox WHERE recipients LIKE \"%victim@%\"")" = 0
'

test_expect_success 'backscatter: at most one automatic reply a day to one sender' '
	SENDER=mallory@evil.example feed "$C/11-backscatter-again.eml" &&
	id=$(id_of abuse-11.bt@example.net) &&
	test "$(q "SELECT state FROM reports WHERE id = $id")" = forwarded &&
	test "$(q "SELECT count(*) FROM outbox WHERE report = $id AND kind = \"reply\"")" = 0 &&
	test "$(q "SELECT count(*) FROM outbox WHERE kind = \"reply\"")" = 1
'

test_expect_success 'inbound X-Triage-*, Resent-* and X-Loop are renamed below our block' '
	feed "$C/12-fake-headers.eml" &&
	id=$(id_of abuse-12.headers@users.example) &&
	test "$(q "SELECT state FROM reports WHERE id = $id")" = forwarded &&
	msg "o.report = $id AND o.kind = \"forward\"" >"$T/fwd12" &&
	test "$(grep -c "^X-Triage-Class:" "$T/fwd12")" = 1 &&
	test "$(grep -c "^X-Triage-Section:" "$T/fwd12")" = 1 &&
	test "$(grep -c "^X-Triage-Reason:" "$T/fwd12")" = 1 &&
	! grep "^X-Triage-Reason: approved by alice" "$T/fwd12" &&
	test "$(grep -c "^Resent-From:" "$T/fwd12")" = 1 &&
	test "$(grep -c "^X-Loop:" "$T/fwd12")" = 1 &&
	grep "^X-Loop: triage@example.org" "$T/fwd12" &&
	grep "^X-Original-Triage-Class: user; score=99\$" "$T/fwd12" &&
	grep "^X-Original-Triage-Reason: approved by alice" "$T/fwd12" &&
	grep "^X-Original-Triage-Section: SECURITY CONTACT" "$T/fwd12" &&
	grep "^X-Original-Resent-From: Helpful Relay" "$T/fwd12" &&
	grep "^X-Original-Loop: list@lists.example.org" "$T/fwd12" &&
	grep "^Subject: \[triage #$id-[a-z2-7]\{8\}\] xfs: NULL" "$T/fwd12" &&
	# the rest of the original, byte for byte
	sed -n "/^Message-ID: <abuse-12/,\$p" "$C/12-fake-headers.eml" | grep -v "^X-Loop:" >"$T/tail.want" &&
	# (sqlite3 ends its output with a newline of its own)
	sed -n "/^Message-ID: <abuse-12/,\$p" "$T/fwd12" | sed "\${/^\$/d}" |
		grep -v "^X-Original-Loop:" >"$T/tail.got" &&
	test_cmp "$T/tail.want" "$T/tail.got"
'

# the forward as the next server reads it: the transport sends a bare
# CR as a line end (deliver.c), and a reader may skip a line that is no
# field and read the fields after it
test_expect_success 'X-Triage-* after a bare CR or a line that is no field is renamed too' '
	feed "$C/30-smuggled-headers.eml" &&
	id=$(id_of abuse-30.smuggled@users.example) &&
	test "$(q "SELECT state FROM reports WHERE id = $id")" = forwarded &&
	msg "o.report = $id AND o.kind = \"forward\"" | tr "\r" "\n" | sed "/^\$/q" >"$T/fwd30" &&
	test "$(grep -c "^X-Triage-Class:" "$T/fwd30")" = 1 &&
	test "$(grep -c "^X-Triage-Reason:" "$T/fwd30")" = 1 &&
	test "$(grep -c "^X-Triage-Section:" "$T/fwd30")" = 1 &&
	! grep "^X-Triage-Reason: approved by alice" "$T/fwd30" &&
	! grep "^X-Triage-Section: SECURITY" "$T/fwd30" &&
	grep "^X-Original-Triage-Class: user; score=99\$" "$T/fwd30" &&
	grep "^X-Original-Triage-Reason: approved by alice" "$T/fwd30" &&
	grep "^X-Original-Triage-Section: SECURITY CONTACT" "$T/fwd30" &&
	grep "^Content-Language en-US\$" "$T/fwd30"
'

test_expect_success 'burying: a stranger'"'"'s crash sent first is forwarded (it is the first)' '
	feed "$C/15-crash-first.eml" &&
	first=$(id_of abuse-15.crash@evil.example) &&
	test "$(q "SELECT state, coalesce(same_crash_as, 0) FROM reports WHERE id = $first")" = "forwarded|0" &&
	test "$(sent_to $first ted@ext4.example.org)" = 1
'

test_expect_success 'burying: the genuine report of that crash reaches its recipient and leads the group' '
	feed "$C/16-crash-genuine.eml" &&
	first=$(id_of abuse-15.crash@evil.example) &&
	id=$(id_of abuse-16.crash@users.example) &&
	test "$(q "SELECT state, coalesce(same_crash_as, 0) FROM reports WHERE id = $id")" = "forwarded|0" &&
	test "$(q "SELECT same_crash_as FROM reports WHERE id = $first")" = "$id" &&
	test "$(q "SELECT count(*) FROM outbox WHERE report = $id AND kind = \"forward\" AND recipients = \"ted@ext4.example.org\"")" = 1 &&
	q "SELECT reason FROM decisions WHERE report = $id" >"$T/why16" &&
	grep "same crash as report #$first .*which m@evil.example reported: sent to that report.s recipient with its own evidence (a stack trace, a reproducer, kernel 6.12.4-amd64, a real machine)" "$T/why16" &&
	grep "more evidence than #$first: now the first of its group" "$T/why16" &&
	test "$(q "SELECT who, action, argument FROM actions WHERE report = $first AND action = \"dup\"")" = "triage|dup|$id" &&
	msg "o.report = $id AND o.kind = \"forward\"" | sed -n "/^X-Triage-Reason:/,/^[^ ]/p" | tr -d "\n" |
		grep "^X-Triage-Reason: .* the same crash as report #$first (same signature), .*now the first of its group"
'

test_expect_success 'burying: the same reporter'"'"'s repeat is a +1 of the group'"'"'s new first' '
	feed "$C/17-crash-again.eml" &&
	lead=$(id_of abuse-16.crash@users.example) &&
	id=$(id_of abuse-17.crash@users.example) &&
	test "$(q "SELECT state, same_crash_as FROM reports WHERE id = $id")" = "digest|$lead" &&
	test "$(q "SELECT action FROM decisions WHERE report = $id")" = seen-again &&
	test "$(q "SELECT count(*) FROM outbox WHERE report = $id")" = 0
'

test_expect_success 'burying: another reporter with less evidence is sent on, the lead stays' '
	feed "$C/18-crash-other.eml" &&
	lead=$(id_of abuse-16.crash@users.example) &&
	id=$(id_of abuse-18.crash@users.example) &&
	test "$(q "SELECT state, same_crash_as FROM reports WHERE id = $id")" = "forwarded|$lead" &&
	test "$(q "SELECT coalesce(same_crash_as, 0) FROM reports WHERE id = $lead")" = 0 &&
	test "$(sent_to $id ted@ext4.example.org)" = 1 &&
	q "SELECT reason FROM decisions WHERE report = $id" >"$T/why18" &&
	grep "same crash as report #$lead .*which greta@users.example reported: sent to that report.s recipient" "$T/why18" &&
	! grep "now the first" "$T/why18"
'

# a MAINTAINERS of our own with a list-only section and a security contact
cat >"$T/MAINTAINERS.list" <<-\EOF
	List of maintainers

	8390 NETWORK DRIVERS [NE2000 and friends]
	L:	netdev@vger.example.org
	S:	Orphan / Obsolete
	F:	drivers/net/ethernet/8390/

	SECURITY CONTACT
	M:	Security Officers <security@kernel.example.org>
	S:	Supported
	F:	Documentation/process/security-bugs.rst

	THE REST
	M:	Linus Torvalds <torvalds@example.org>
	L:	linux-kernel@vger.example.org
	S:	Buried alive in reporters
	F:	*
	F:	*/
EOF
sed -e "s|^state_dir = .*|state_dir = $T/state2|" \
    -e "s|^maintainers = .*|maintainers = $T/MAINTAINERS.list|" \
	"$T/routes.conf" >"$T/routes2.conf"
DB2="$T/state2/triage.db"
q2() { sqlite3 "$DB2" "$1"; }
feed2() { TRIAGE_CONFIG="$T/routes2.conf" TRIAGE_STATE_DIR="$T/state2" "$FILTER" <"$1" || { echo "filter failed on $1"; return 1; }; }

test_expect_success 'relay: spam naming a list-only section'"'"'s file is held, not sent to the list' '
	feed2 "$C/13-list-only.eml" &&
	test "$(q2 "SELECT state FROM reports WHERE message_id = \"abuse-13.list@evil.example\"")" = held &&
	test "$(q2 "SELECT count(*) FROM outbox WHERE recipients LIKE \"%netdev@%\"")" = 0 &&
	q2 "SELECT reason FROM decisions" >"$T/why13" &&
	grep "names no person, only its list netdev@vger.example.org, but no user rule reached the user threshold: a sender.s say-so alone is not published; held for a triager" "$T/why13"
'

test_expect_success 'relay: spam naming security-bugs.rst never reaches the security contact' '
	feed2 "$C/14-security.eml" &&
	test "$(q2 "SELECT state FROM reports WHERE message_id = \"abuse-14.security@evil.example\"")" = held &&
	test "$(q2 "SELECT count(*) FROM outbox WHERE recipients LIKE \"%security@%\"")" = 0
'

test_expect_success 'list_fallback lets a site send a class to a section'"'"'s list, never to security' '
	printf "%s\n" "list_fallback * forward" \
		"list_fallback user forward \"8390 NETWORK DRIVERS [NE2000 and friends]\"" >>"$T/routes2.conf" &&
	# a report that says what went wrong on the sender'"'"'s own machine
	# (one with no sign of a bug anyone hit is held whatever the
	# fallback: kind.h, problem.h, pipeline.c)
	sed -e "s/abuse-13.list/abuse-13b.list/" \
		-e "s/^Subject: ne2000 problem/Subject: ne2000 card hangs on load/" \
		-e "\$a It hangs on my home server every boot since upgrading." \
		"$C/13-list-only.eml" >"$T/13b.eml" &&
	grep -q "^Subject: ne2000 card hangs" "$T/13b.eml" &&
	grep -q "^It hangs on my home server" "$T/13b.eml" &&
	sed "s/abuse-14.security/abuse-14b.security/" "$C/14-security.eml" >"$T/14b.eml" &&
	feed2 "$T/13b.eml" &&
	feed2 "$T/14b.eml" &&
	test "$(q2 "SELECT state FROM reports WHERE message_id = \"abuse-13b.list@evil.example\"")" = forwarded &&
	test "$(q2 "SELECT count(*) FROM outbox WHERE recipients LIKE \"%netdev@%\"")" = 1 &&
	test "$(q2 "SELECT state FROM reports WHERE message_id = \"abuse-14b.security@evil.example\"")" = held &&
	test "$(q2 "SELECT count(*) FROM outbox WHERE recipients LIKE \"%security@%\"")" = 0
'

test_expect_success 'private path: a user'"'"'s KASAN report is never published on the list list_fallback allows' '
	feed2 "$C/31-list-kasan.eml" &&
	id=$(q2 "SELECT id FROM reports WHERE message_id = \"abuse-31.kasan@users.example\"") &&
	test "$(q2 "SELECT class, state FROM reports WHERE id = $id")" = "user|held" &&
	test "$(q2 "SELECT count(*) FROM outbox WHERE report = $id")" = 0 &&
	test "$(q2 "SELECT count(*) FROM outbox WHERE recipients LIKE \"%netdev@%\"")" = 1 &&
	q2 "SELECT reason FROM decisions WHERE report = $id" |
		grep "it looks security-sensitive (KASAN memory-safety crash); no person, no security_address: never published on a list, held for a triager" &&
	sed -e "s/abuse-31.kasan@/abuse-31b.kasan@/" -e "s/^From: .*/From: Ole <ole@users.example>/" \
		-e "s/BUG: KASAN: slab-use-after-free in/BUG: unable to handle page fault in/" \
		-e "s/^It reproduces every time/An exploit of it is trivial; it reproduces every time/" \
		"$C/31-list-kasan.eml" >"$T/31b.eml" &&
	grep -q "^An exploit of it" "$T/31b.eml" &&
	feed2 "$T/31b.eml" &&
	id=$(q2 "SELECT id FROM reports WHERE message_id = \"abuse-31b.kasan@users.example\"") &&
	test "$(q2 "SELECT state FROM reports WHERE id = $id")" = held &&
	q2 "SELECT reason FROM decisions WHERE report = $id" | grep "security-sensitive (exploit in its text)"
'

test_expect_success 'publishing: a stranger'"'"'s private reply to a report that went to a list is not published' '
	feed2 "$C/19-list-reply.eml" &&
	root=$(q2 "SELECT id FROM reports WHERE message_id = \"abuse-13b.list@evil.example\"") &&
	test "$(q2 "SELECT thread_root, state FROM reports WHERE message_id = \"abuse-19.reply@users.example\"")" = "$root|recorded" &&
	test "$(q2 "SELECT count(*) FROM outbox WHERE recipients LIKE \"%netdev@%\"")" = 1 &&
	q2 "SELECT d.reason FROM decisions d JOIN reports r ON r.id = d.report WHERE r.message_id = \"abuse-19.reply@users.example\"" |
		grep "not the report.s reporter, recipient or section: recorded with the report, not sent on"
'

test_expect_success 'publishing: a stranger'"'"'s reply that addresses the list itself reached it: not sent again' '
	feed2 "$C/20-list-reply-cc.eml" &&
	id=$(q2 "SELECT id FROM reports WHERE message_id = \"abuse-20.reply@users.example\"") &&
	test "$(q2 "SELECT state FROM reports WHERE id = $id")" = recorded &&
	test "$(q2 "SELECT count(*) FROM outbox WHERE report = $id")" = 0
'

test_expect_success 'publishing: the report'"'"'s own author'"'"'s follow-up goes where the report went' '
	feed2 "$C/21-list-reporter.eml" &&
	id=$(q2 "SELECT id FROM reports WHERE message_id = \"abuse-21.reply@evil.example\"") &&
	test "$(q2 "SELECT state FROM reports WHERE id = $id")" = forwarded &&
	test "$(q2 "SELECT recipients FROM outbox WHERE report = $id")" = netdev@vger.example.org
'

# a third state with a small per-sender cap
sed -e "s|^state_dir = .*|state_dir = $T/state3|" "$T/routes.conf" >"$T/routes3.conf" &&
echo "sender_cap = 2" >>"$T/routes3.conf"
DB3="$T/state3/triage.db"
q3() { sqlite3 "$DB3" "$1"; }
feed3() { TRIAGE_CONFIG="$T/routes3.conf" TRIAGE_STATE_DIR="$T/state3" "$FILTER" || { echo "filter failed"; return 1; }; }
as_sam() { sed "s/^From: .*/From: Sam Sender <sam@users.example>/" "$C/$1"; }

test_expect_success 'exhausting: one sender'"'"'s reports beyond sender_cap a day are held' '
	as_sam 01-report.eml | feed3 &&
	as_sam 10-backscatter.eml | feed3 &&
	as_sam 16-crash-genuine.eml | feed3 &&
	test "$(q3 "SELECT group_concat(state, \",\") FROM (SELECT state FROM reports ORDER BY id)")" = forwarded,forwarded,held &&
	test "$(q3 "SELECT count(*) FROM outbox WHERE report = 3")" = 0 &&
	test "$(q3 "SELECT action FROM decisions WHERE report = 3")" = hold &&
	q3 "SELECT reason FROM decisions WHERE report = 3" |
		grep "sam@users.example has had 2 messages forwarded in the last day (sender_cap 2): held for a triager" &&
	TRIAGE_CONFIG="$T/routes3.conf" TRIAGE_STATE_DIR="$T/state3" "$TRIAGE" pending >"$T/pending3" &&
	cut -f1 "$T/pending3" | grep -qx 3
'

test_expect_success 'exhausting: the cap is per sender, and a stranger'"'"'s follow-up is never sent' '
	feed3 <"$C/18-crash-other.eml" &&
	test "$(q3 "SELECT state FROM reports WHERE id = 4")" = forwarded &&
	sed -e "s/^From: .*/From: Sam Sender <sam@users.example>/" \
	    -e "s/abuse-18.crash@users.example/abuse-18b.crash@users.example/" \
	    -e "s/^Subject: .*/Subject: Re: ext4: oops in ext4_xattr_set_entry on my laptop too/" \
	    -e "/^Date:/a In-Reply-To: <abuse-18.crash@users.example>" "$C/18-crash-other.eml" | feed3 &&
	test "$(q3 "SELECT thread_root, state FROM reports WHERE id = 5")" = "4|recorded" &&
	test "$(q3 "SELECT count(*) FROM outbox WHERE report = 5")" = 0 &&
	q3 "SELECT reason FROM decisions WHERE report = 5" | grep "recorded with the report, not sent on"
'

# more states with small caps: one sender counted by every identity the
# MTA vouches for (From, envelope sender, the connecting client)
capped_state() {
	sed -e "s|^state_dir = .*|state_dir = $T/$1|" "$T/routes.conf" >"$T/$1.conf" &&
	printf "sender_cap = 2\nclient_cap = 3\n" >>"$T/$1.conf"
}
# feedc STATE TAG FILE FROM SENDER CLIENT: FILE from FROM (Message-ID
# <TAG.its own>), with that envelope sender and client address
feedc() {
	sed -e "s/^From: .*/From: Someone <$4>/" -e "s/^Message-ID: </Message-ID: <$2./" "$C/$3" |
		TRIAGE_CONFIG="$T/$1.conf" TRIAGE_STATE_DIR="$T/$1" SENDER=$5 CLIENT_ADDRESS=$6 "$FILTER" ||
		{ echo "filter failed on $3"; return 1; }
}
# qc STATE SQL; statec STATE TAG: the state of the report TAG became
qc() { sqlite3 "$T/$1/triage.db" "$2"; }
statec() { qc "$1" "SELECT state FROM reports WHERE message_id LIKE '$2.%'"; }
reasonc() { qc "$1" "SELECT d.reason FROM decisions d JOIN reports r ON r.id = d.report WHERE r.message_id LIKE '$2.%'"; }
capped_state s7 && capped_state s8 && capped_state s9

test_expect_success 'exhausting: a new From on every message is the same sender by its envelope' '
	feedc s7 a 01-report.eml m1@evil.example mallory@evil.example "" &&
	feedc s7 b 10-backscatter.eml m2@evil.example mallory@evil.example "" &&
	feedc s7 c 16-crash-genuine.eml m3@evil.example MALLORY@evil.example "" &&
	test "$(statec s7 a),$(statec s7 b),$(statec s7 c)" = forwarded,forwarded,held &&
	test "$(qc s7 "SELECT count(*) FROM outbox WHERE kind = \"forward\"")" = 2 &&
	reasonc s7 c | grep "its envelope sender MALLORY@evil.example has had 2 messages forwarded in the last day (sender_cap 2): held for a triager"
'

test_expect_success 'exhausting: an address counts as a From what it sent as an envelope sender' '
	feedc s7 d 18-crash-other.eml mallory@evil.example bounce-77@lists.example "" &&
	test "$(statec s7 d)" = held &&
	reasonc s7 d | grep "its From address mallory@evil.example has had 2 messages forwarded in the last day (sender_cap 2)"
'

test_expect_success 'exhausting: new addresses from one network are held past client_cap' '
	feedc s8 a 01-report.eml a@one.example a@one.example 192.0.2.10 &&
	feedc s8 b 10-backscatter.eml b@two.example b@two.example 192.0.2.11 &&
	feedc s8 c 16-crash-genuine.eml c@three.example c@three.example 192.0.2.12 &&
	feedc s8 d 18-crash-other.eml d@four.example d@four.example 192.0.2.200 &&
	test "$(statec s8 a),$(statec s8 b),$(statec s8 c),$(statec s8 d)" = forwarded,forwarded,forwarded,held &&
	test "$(qc s8 "SELECT client_net FROM reports WHERE message_id LIKE \"d.%\"")" = 192.0.2.0/24 &&
	reasonc s8 d | grep "the network it came from, 192.0.2.0/24 (the client that connected to our mail server), has had 3 messages forwarded in the last day (client_cap 3): held for a triager"
'

test_expect_success 'exhausting: another network, and local mail, are not that network' '
	feedc s8 e 18-crash-other.eml e@five.example e@five.example 198.51.100.7 &&
	feedc s8 f 01-report.eml f@six.example f@six.example 127.0.0.1 &&
	test "$(statec s8 e),$(statec s8 f)" = forwarded,forwarded &&
	test "$(qc s8 "SELECT coalesce(client_net, \"none\") FROM reports WHERE message_id LIKE \"f.%\"")" = none
'

test_expect_success 'exhausting: the reporter'"'"'s own follow-ups count toward its cap, and past it are held' '
	feedc s9 a 01-report.eml sam@users.example sam@users.example "" &&
	test "$(statec s9 a)" = forwarded &&
	sed -e "s/^From: .*/From: Sam <sam@users.example>/" -e "s/^Message-ID: .*/Message-ID: <b.follow@users.example>/" \
	    -e "s/^Subject: /Subject: Re: /" -e "/^Date:/a In-Reply-To: <a.abuse-01.report@users.example>" \
	    "$C/01-report.eml" >"$T/s9-follow.eml" &&
	TRIAGE_CONFIG="$T/s9.conf" TRIAGE_STATE_DIR="$T/s9" SENDER=sam@users.example "$FILTER" <"$T/s9-follow.eml" &&
	test "$(statec s9 b)" = forwarded &&
	test "$(qc s9 "SELECT kind FROM reports WHERE message_id LIKE \"b.%\"")" = follow-up &&
	feedc s9 c 10-backscatter.eml sam@users.example sam@users.example "" &&
	test "$(statec s9 c)" = held &&
	reasonc s9 c | grep "its From address sam@users.example has had 2 messages forwarded in the last day (sender_cap 2)" &&
	sed "s/^Message-ID: .*/Message-ID: <d.follow@users.example>/" "$T/s9-follow.eml" |
		TRIAGE_CONFIG="$T/s9.conf" TRIAGE_STATE_DIR="$T/s9" SENDER=sam@users.example "$FILTER" &&
	test "$(qc s9 "SELECT thread_root || \"|\" || state FROM reports WHERE message_id LIKE \"d.%\"")" = "1|held" &&
	reasonc s9 d | grep "its From address sam@users.example has had 2 messages forwarded in the last day (sender_cap 2)" &&
	test "$(qc s9 "SELECT count(*) FROM outbox WHERE kind = \"forward\"")" = 2
'

# a fourth state: messages that cannot go out as they came
sed -e "s|^state_dir = .*|state_dir = $T/state4|" "$T/routes.conf" >"$T/routes4.conf"
DB4="$T/state4/triage.db"
q4() { sqlite3 "$DB4" "$1"; }
feed4() { TRIAGE_CONFIG="$T/routes4.conf" TRIAGE_STATE_DIR="$T/state4" "$FILTER" || { echo "filter failed"; return 1; }; }

test_expect_success 'bouncing: a report with a NUL byte is held, not sent as it came' '
	sed "s/^I can run a debug kernel/I can run a debug kernel@NUL@/" "$C/01-report.eml" |
		python3 -c "import sys; sys.stdout.buffer.write(sys.stdin.buffer.read().replace(b\"@NUL@\", b\"\\0\"))" >"$T/nul.eml" &&
	test "$(tr -d "\\000" <"$T/nul.eml" | wc -c)" -lt "$(wc -c <"$T/nul.eml")" &&
	feed4 <"$T/nul.eml" &&
	test "$(q4 "SELECT state FROM reports WHERE message_id = \"abuse-01.report@users.example\"")" = held &&
	test "$(q4 "SELECT count(*) FROM outbox")" = 0 &&
	q4 "SELECT reason FROM decisions" | grep "not forwarded as it came: it carries NUL bytes"
'

test_expect_success 'bouncing: a line over 998 bytes is held; a reply with one is not sent on' '
	python3 -c "print(\"x\" * 1200)" >"$T/long" &&
	sed "/^Victor\$/r $T/long" "$C/10-backscatter.eml" >"$T/long.eml" &&
	feed4 <"$T/long.eml" &&
	test "$(q4 "SELECT state FROM reports WHERE message_id = \"abuse-10.bt@example.net\"")" = held &&
	q4 "SELECT reason FROM decisions WHERE report = 2" | grep "not forwarded as it came: a line of it is longer than 998 bytes" &&
	sed "s/abuse-10.bt@/abuse-10b.bt@/" "$C/10-backscatter.eml" | feed4 &&
	test "$(q4 "SELECT state FROM reports WHERE message_id = \"abuse-10b.bt@example.net\"")" = forwarded &&
	sed -e "s/abuse-10.bt@example.net/abuse-10c.bt@example.net/" -e "/^Date:/a In-Reply-To: <abuse-10b.bt@example.net>" \
		-e "s/^Subject: /Subject: Re: /" "$T/long.eml" | feed4 &&
	test "$(q4 "SELECT thread_root, state FROM reports WHERE message_id = \"abuse-10c.bt@example.net\"")" = "3|held" &&
	test "$(q4 "SELECT count(*) FROM outbox WHERE kind = \"forward\"")" = 1 &&
	q4 "SELECT reason FROM decisions WHERE report = 4" | grep "not sent on as it came: a line of it is longer than 998 bytes"
'

# sendable DB ID: report ID's queued forward is a valid message (no
# NUL, no line over 998 bytes) whose parts decode to the original's
cat >"$T/sendable.py" <<\PY
import email, sqlite3, sys
from email import policy
db = sqlite3.connect(sys.argv[1])
rid = int(sys.argv[2])
rows = db.execute("""SELECT CAST(o.message || coalesce(substr(m.raw, o.raw_offset + 1), x'') AS BLOB)
	FROM outbox o LEFT JOIN messages m ON m.report = o.raw_report
	WHERE o.report = ? AND o.kind = 'forward'""", (rid,)).fetchall()
assert len(rows) == 1, "%d forwards of #%d" % (len(rows), rid)
sent = bytes(rows[0][0])
orig = bytes(db.execute("SELECT CAST(raw AS BLOB) FROM messages WHERE report = ?", (rid,)).fetchone()[0])
assert b"\0" not in sent, "a NUL byte is sent"
longest = max(len(l.rstrip(b"\r")) for l in sent.split(b"\n"))
assert longest <= 998, "a line of %d bytes is sent" % longest
def parts(raw):
	m = email.message_from_bytes(raw, policy=policy.compat32)
	return [p.get_payload(decode=True) for p in m.walk() if not p.is_multipart()]
a, b = parts(orig), parts(sent)
assert a == b, "the parts differ: %r / %r" % ([x[:60] for x in a], [x[:60] for x in b])
assert any(b"\0" in x or max(len(l) for l in x.split(b"\n")) > 998 for x in a), "nothing to re-encode"
print("# #%d: %d bytes, longest line %d, %d part(s) as the original's" % (rid, len(sent), longest, len(b)))
PY

test_expect_success 'bouncing: approving them sends their parts re-encoded, never the raw bytes' '
	n=$(q4 "SELECT count(*) FROM outbox") &&
	TRIAGE_CONFIG="$T/routes4.conf" TRIAGE_STATE_DIR="$T/state4" "$TRIAGE" approve 1 2 >"$T/approve4" &&
	TRIAGE_CONFIG="$T/routes4.conf" TRIAGE_STATE_DIR="$T/state4" "$TRIAGE" approve --to bt@example.org 4 >>"$T/approve4" &&
	test "$(q4 "SELECT count(*) FROM outbox")" = $((n + 3)) &&
	test "$(q4 "SELECT count(*) FROM outbox WHERE report IN (1, 2, 4) AND raw_report IS NOT NULL")" = 0 &&
	python3 "$T/sendable.py" "$DB4" 1 &&
	python3 "$T/sendable.py" "$DB4" 2 &&
	python3 "$T/sendable.py" "$DB4" 4 &&
	q4 "SELECT message FROM outbox WHERE report = 1" | grep -i "^Content-Transfer-Encoding: base64" &&
	q4 "SELECT message FROM outbox WHERE report = 2" | grep -i "^Content-Transfer-Encoding: quoted-printable"
'

test_expect_success 'bouncing: one whose header cannot go out has no copy: approve refuses it, it stays held' '
	python3 -c "print(\"Subject: ext4: oops in ext4_xattr_set_entry \" + \"y\" * 1100)" >"$T/longsubj" &&
	sed -e "/^Subject: /{r $T/longsubj" -e "d}" "$C/16-crash-genuine.eml" >"$T/longsubj.eml" &&
	feed4 <"$T/longsubj.eml" &&
	id=$(q4 "SELECT id FROM reports WHERE message_id = \"abuse-16.crash@users.example\"") &&
	test "$(q4 "SELECT state || \"|\" || (sendable IS NULL) FROM reports r JOIN messages m ON m.report = r.id WHERE r.id = $id")" = "held|1" &&
	n=$(q4 "SELECT count(*) FROM outbox") &&
	test_exit 65 env TRIAGE_CONFIG="$T/routes4.conf" TRIAGE_STATE_DIR="$T/state4" "$TRIAGE" approve "$id" 2>"$T/err4h" &&
	grep "approve $id: a line of it is longer than 998 bytes, and it has no re-encoded copy" "$T/err4h" &&
	test_exit 65 env TRIAGE_CONFIG="$T/routes4.conf" TRIAGE_STATE_DIR="$T/state4" "$TRIAGE" reroute "$id" bt@example.org 2>"$T/err4r" &&
	grep "reroute $id: a line of it is longer than 998 bytes, and it has no re-encoded copy: it cannot be sent" "$T/err4r" &&
	test "$(q4 "SELECT count(*) FROM outbox")" = "$n" &&
	test "$(q4 "SELECT state FROM reports WHERE id = $id")" = held
'

if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
test_expect_success 'state dir: root refuses one another user can write (filter 75; triage becomes its owner: t0743)' '
	mkdir "$T/s5" && chown nobody "$T/s5" && chmod 770 "$T/s5" &&
	sed "s|^state_dir = .*|state_dir = $T/s5|" "$T/routes.conf" >"$T/routes5.conf" &&
	test_exit 75 env TRIAGE_CONFIG="$T/routes5.conf" TRIAGE_STATE_DIR="$T/s5" "$FILTER" <"$C/01-report.eml" 2>"$T/err5" &&
	grep "refusing to write as root into .*: group-writable, owned by someone else" "$T/err5" &&
	test -z "$(ls -A "$T/s5")" &&
	chmod 700 "$T/s5" && chown root "$T/s5" &&
	env TRIAGE_CONFIG="$T/routes5.conf" TRIAGE_STATE_DIR="$T/s5" "$FILTER" <"$C/01-report.eml" &&
	test -s "$T/s5/triage.db"
'

test_expect_success 'state dir: root refuses a state dir that is someone else'"'"'s symbolic link' '
	mkdir -m 700 "$T/real6" && ln -s "$T/real6" "$T/s6" && chown -h nobody "$T/s6" &&
	sed "s|^state_dir = .*|state_dir = $T/s6|" "$T/routes.conf" >"$T/routes6.conf" &&
	test_exit 75 env TRIAGE_CONFIG="$T/routes6.conf" TRIAGE_STATE_DIR="$T/s6" "$FILTER" <"$C/01-report.eml" 2>"$T/err6" &&
	grep "refusing to write as root into .*: a symbolic link someone else made" "$T/err6" &&
	test -z "$(ls -A "$T/real6")"
'

# every command that opens the state directory, run as root in one it
# refuses: exit 73 and the one message, nothing made there
STATE_COMMANDS="pending|show 1|approve 1|reroute 1 --to a@example.org|reclassify 1 user|reject 1|note 1 hi|dup 1 2|undup 1|fixes list|remind|stats|log|digest|update|experts show fs/xfs/xfs_inode.c|symbols xfs_iflush|map fs/xfs/xfs_inode.c|train --from-corrections|explain $C/01-report.eml|eval|deliver --once|bugzilla|serve"
refused_by_all() {
	_conf=$1 && _dir=$2 && _why=$3 &&
	_IFS=$IFS && IFS="|" && set -- $STATE_COMMANDS && IFS=$_IFS &&
	for _c in "$@"; do
		# shellcheck disable=SC2086
		test_exit 73 env TRIAGE_CONFIG="$_conf" TRIAGE_STATE_DIR="$_dir" "$TRIAGE" $_c 2>"$T/err.all" &&
		test "$(wc -l <"$T/err.all")" = 1 &&
		grep -q "refusing to write as root into .*: $_why" "$T/err.all" ||
		{ echo "triage $_c:" && cat "$T/err.all" && return 1; }
	done
}

test_expect_success 'state dir: every triage command refuses root'"'"'s one a group can write, with one message and 73' '
	mkdir "$T/s7r" && chgrp "$(id -g nobody)" "$T/s7r" && chmod 2770 "$T/s7r" &&
	sed "s|^state_dir = .*|state_dir = $T/s7r|" "$T/routes.conf" >"$T/routes7r.conf" &&
	refused_by_all "$T/routes7r.conf" "$T/s7r" "root.s, group-writable (chown it to a dedicated user" &&
	test -z "$(ls -A "$T/s7r")" &&
	TRIAGE_CONFIG="$T/routes7r.conf" TRIAGE_STATE_DIR="$T/s7r" "$TRIAGE" pending --help >"$T/help7r" &&
	grep -q "usage: triage pending" "$T/help7r" &&
	TRIAGE_CONFIG="$T/routes7r.conf" TRIAGE_STATE_DIR="$T/s7r" "$TRIAGE" check-config >"$T/cc7r"
'

test_expect_success 'state dir: and a stranger'"'"'s symbolic link the same way' '
	refused_by_all "$T/routes6.conf" "$T/s6" "a symbolic link someone else made" &&
	test -z "$(ls -A "$T/real6")"
'

test_expect_success 'state dir: root refuses one someone else owns even unwritable by others, and a world-writable one' '
	mkdir -m 700 "$T/s10r" && chown nobody "$T/s10r" &&
	sed "s|^state_dir = .*|state_dir = $T/s10r|" "$T/routes.conf" >"$T/routes10r.conf" &&
	test_exit 75 env TRIAGE_CONFIG="$T/routes10r.conf" TRIAGE_STATE_DIR="$T/s10r" "$FILTER" <"$C/01-report.eml" 2>"$T/err10" &&
	grep "refusing to write as root into .*s10r.: owned by someone else" "$T/err10" &&
	test -z "$(ls -A "$T/s10r")" &&
	chown root "$T/s10r" && chmod 777 "$T/s10r" &&
	test_exit 75 env TRIAGE_CONFIG="$T/routes10r.conf" TRIAGE_STATE_DIR="$T/s10r" "$FILTER" <"$C/01-report.eml" 2>"$T/err10w" &&
	grep "refusing to write as root into .*s10r.: root.s, world-writable" "$T/err10w" &&
	refused_by_all "$T/routes10r.conf" "$T/s10r" "root.s, world-writable" &&
	test -z "$(ls -A "$T/s10r")" &&
	chmod 2770 "$T/s10r" &&
	env TRIAGE_CONFIG="$T/routes10r.conf" TRIAGE_STATE_DIR="$T/s10r" "$FILTER" <"$C/01-report.eml" &&
	test -s "$T/s10r/triage.db"
'

test_expect_success 'state dir: root never opens a triage.db that is a symbolic link' '
	mkdir -m 2770 "$T/s11r" &&
	sed "s|^state_dir = .*|state_dir = $T/s11r|" "$T/routes.conf" >"$T/routes11r.conf" &&
	echo precious >"$T/victim11" &&
	ln -s "$T/victim11" "$T/s11r/triage.db" &&
	test_exit 75 env TRIAGE_CONFIG="$T/routes11r.conf" TRIAGE_STATE_DIR="$T/s11r" "$FILTER" <"$C/01-report.eml" 2>"$T/err11" &&
	grep "refusing to open .*triage.db. as root: a symbolic link" "$T/err11" &&
	test_exit 73 env TRIAGE_CONFIG="$T/routes11r.conf" TRIAGE_STATE_DIR="$T/s11r" "$TRIAGE" pending 2>"$T/err11p" &&
	test "$(wc -l <"$T/err11p")" = 1 &&
	grep "refusing to open .*s11r/triage.db. as root: a symbolic link" "$T/err11p" &&
	test "$(cat "$T/victim11")" = precious &&
	test "$(ls "$T/s11r")" = triage.db
'
else
	test_skip 'not root (or no user nobody): the state directory checks for root are not tested'
fi

test_done
