#!/bin/sh
# t0850-reply-commands: maintainers act by reply (issue 23, part A)
#
# A report goes through the real triage-filter to EXT4's M:; replies
# carrying "#triage VERB" lines (triage-mail(7)) then reroute it, give
# it back, ask the reporter for a log, join it by the report's own
# address bugs+ID-TOKEN@; a stranger, a wrong token, an automatic
# message and a sender without DKIM/SPF pass (authserv_id) get nothing
# done.  Every step is checked in the database: reports, actions,
# declined, and the outbox rows (the confirmations among them).
. "$(dirname "$0")/../lib.sh"
. "$SRC/tests/cli/lib-mail.sh"

export TZ=UTC TRIAGE_USER=alice

need_tools "reply commands are not tested" sqlite3
routes_conf bugs@example.org "sender_cap = 0" "triagers = tina@triage.example.org"
# reply's thread: report 1's original
REPLY_PARENT=r1@example.com
REPLY_SUBJECT="Re: ext4: kernel BUG in ext4_mb_generate_buddy"

test_expect_success 'a report is forwarded to EXT4'"'"'s M:, with its own Reply-To' '
	cat >"$T/r1.eml" <<-\EOF &&
	From: Dana Admin <dana@example.com>
	To: bugs@example.org
	Subject: ext4: kernel BUG in ext4_mb_generate_buddy on the build server
	Message-ID: <r1@example.com>
	Date: Mon, 30 Nov 2026 09:12:44 +0100
	MIME-Version: 1.0
	Content-Type: text/plain; charset=utf-8

	Hi,

	our build server hits this since the upgrade to 6.12.3:

	[ 1234.118812] EXT4-fs error (device sda1): ext4_mb_generate_buddy:1217: group 7, block bitmap and bg descriptor inconsistent
	[ 1234.118820] kernel BUG at fs/ext4/mballoc.c:1217!
	[ 1234.118823] Oops: invalid opcode: 0000 [#1] PREEMPT SMP NOPTI
	[ 1234.118827] CPU: 3 PID: 2211 Comm: make Not tainted 6.12.3 #1
	[ 1234.118834] RIP: 0010:ext4_mb_generate_buddy+0x2a/0x1b0
	[ 1234.118900] Call Trace:
	[ 1234.118903]  ext4_mb_init_cache+0x61/0x120
	[ 1234.118905]  ext4_mb_load_buddy_gfp+0x3b1/0x920
	[ 1234.118950]  ext4_mb_regular_allocator+0xd2/0x100

	It happens every night.  Happy to test patches.
	EOF
	"$FILTER" <"$T/r1.eml" &&
	test "$(q "SELECT state FROM reports WHERE id = 1")" = forwarded &&
	test "$(forwarded_to 1)" = ted@ext4.example.org &&
	msg "o.report = 1 AND o.kind = \"forward\"" >"$T/fwd1" &&
	sed -n "s/^Subject: \[triage #1-\([a-z2-7]*\)\] .*/\1/p" "$T/fwd1" >"$T/token" &&
	test "$(wc -c <"$T/token")" = 9 &&
	grep "^Reply-To: dana@example.com, bugs+1-$(cat "$T/token")@example.org\$" "$T/fwd1"
'

test_expect_success 'the M: replies "#triage reroute": new section, forward, one confirmation to the M: only' '
	reply "Ted Tree <ted@ext4.example.org>" c1@ext4.example.org \
		"Not ext4: the bitmap comes from XFS here.

#triage reroute xfs filesystem

> #triage invalid
-- 
#triage help" &&
	"$TRIAGE" show 1 >"$T/show1" &&
	grep -q "XFS FILESYSTEM" "$T/show1" &&
	test "$(forwarded_to 1)" = xfs-triage@xfs.example.org &&
	test "$(q "SELECT who || \" \" || action || \" \" || argument FROM actions WHERE report = 1 AND action = \"reroute\"")" = "ted@ext4.example.org reroute XFS FILESYSTEM" &&
	test "$(q "SELECT state FROM reports WHERE id = 1")" = forwarded &&
	test "$(replies_to ted@ext4.example.org)" = 1 &&
	test "$(q "SELECT count(*) FROM outbox WHERE kind = \"reply\"")" = 1 &&
	msg "o.kind = \"reply\" AND o.recipients = \"ted@ext4.example.org\"" >"$T/conf1" &&
	grep -q "^Auto-Submitted: auto-replied" "$T/conf1" &&
	grep -q "^X-Loop: bugs@example.org" "$T/conf1" &&
	grep -q "^To: <\{0,1\}ted@ext4.example.org>\{0,1\}\$" "$T/conf1" &&
	grep -q "^> #triage reroute xfs filesystem" "$T/conf1" &&
	grep -q "forwarded to xfs-triage@xfs.example.org" "$T/conf1" &&
	! grep -q "#triage invalid" "$T/conf1" &&
	! grep -q "#triage help" "$T/conf1" &&
	test "$(q "SELECT envelope_from FROM outbox WHERE kind = \"reply\"")" = ""
'

test_expect_success 'the new recipient says "#triage notme": someone else, never the same again' '
	reply "xfs-triage@xfs.example.org" c2@xfs.example.org "#triage notme" &&
	test "$(forwarded_to 1)" = xavier@xfs.example.org &&
	test "$(q "SELECT addr FROM declined WHERE report = 1")" = xfs-triage@xfs.example.org &&
	test "$(replies_to xfs-triage@xfs.example.org)" = 1 &&
	reply "Xavier Xfs <xavier@xfs.example.org>" c3@xfs.example.org "#triage notme" &&
	test "$(forwarded_to 1)" = rita@xfs.example.org &&
	test "$(q "SELECT count(*) FROM declined WHERE report = 1")" = 2 &&
	test "$(q "SELECT count(*) FROM outbox WHERE report = 1 AND kind = \"forward\" AND recipients = \"xfs-triage@xfs.example.org\" AND state = \"queued\"")" = 0 &&
	q "SELECT candidates FROM decisions WHERE report = 1 ORDER BY id DESC LIMIT 1" >"$T/cand" &&
	grep -q "^xfs-triage@xfs.example.org .* declined:" "$T/cand" &&
	grep -q "^xavier@xfs.example.org .* declined:" "$T/cand"
'

test_expect_success 'a stranger'"'"'s "#triage invalid" is ignored and recorded, not answered' '
	reply "Mallory <mallory@evil.example>" c4@evil.example "#triage invalid" &&
	test "$(q "SELECT state FROM reports WHERE id = 1")" = forwarded &&
	test "$(q "SELECT count(*) FROM actions WHERE report = 1 AND action = \"reject\"")" = 0 &&
	q "SELECT detail FROM actions WHERE report = 1 AND action = \"commands\"" >"$T/ign" &&
	grep -q "commands ignored: not authorised (from mallory@evil.example)" "$T/ign" &&
	test "$(replies_to mallory@evil.example)" = 0
'

test_expect_success '"#triage needinfo dmesg" mails the reporter a request' '
	reply "Rita Review <rita@xfs.example.org>" c5@xfs.example.org "Could you send the whole log?

#triage needinfo dmesg" &&
	test "$(replies_to dana@example.com)" = 1 &&
	msg "o.kind = \"reply\" AND o.recipients = \"dana@example.com\"" >"$T/need" &&
	grep -q "^\* The full kernel log: the output of .dmesg." "$T/need" &&
	! grep -q "uname -a" "$T/need" &&
	grep -q "^Subject: Re: \[triage #1-$(cat "$T/token")\] ext4: " "$T/need" &&
	grep -q "^Reply-To: bugs+1-$(cat "$T/token")@example.org" "$T/need" &&
	test "$(q "SELECT count(*) FROM actions WHERE report = 1 AND action = \"needinfo\" AND who = \"rita@xfs.example.org\"")" = 1 &&
	test "$(replies_to rita@xfs.example.org)" = 1
'

# addressed FILE ID RCPT: a reply with a new subject and no References,
# delivered to RCPT
addressed() {
	printf "From: Rita Review <rita@xfs.example.org>\nTo: %s\nSubject: this one again\nMessage-ID: <%s>\nDate: Tue, 01 Dec 2026 11:00:00 +0000\n\n#triage note seen it on 6.13 too\n" "$3" "$2" >"$T/$1" &&
	ORIGINAL_RECIPIENT=$3 "$FILTER" <"$T/$1"
}

test_expect_success 'a reply to bugs+1-TOKEN@ with a new subject joins report 1' '
	addressed a1.eml a1@xfs.example.org "bugs+1-$(cat "$T/token")@example.org" &&
	id=$(id_of a1@xfs.example.org) &&
	test "$(q "SELECT thread_root FROM reports WHERE id = $id")" = 1 &&
	test "$(q "SELECT count(*) FROM actions WHERE report = 1 AND action = \"note\" AND detail = \"seen it on 6.13 too\"")" = 1
'

test_expect_success 'a wrong token does not join; the same message with the right one does' '
	addressed a2.eml a2@xfs.example.org "bugs+1-aaaaaaaa@example.org" &&
	id=$(id_of a2@xfs.example.org) &&
	test "$(q "SELECT coalesce(thread_root, 0) FROM reports WHERE id = $id")" = 0 &&
	test "$(q "SELECT count(*) FROM actions WHERE report = 1 AND action = \"note\"")" = 1 &&
	addressed a3.eml a3@xfs.example.org "BUGS+1-$(tr a-z A-Z <"$T/token")@Example.ORG" &&
	id=$(id_of a3@xfs.example.org) &&
	test "$(q "SELECT thread_root FROM reports WHERE id = $id")" = 1 &&
	test "$(q "SELECT count(*) FROM actions WHERE report = 1 AND action = \"note\"")" = 2
'

test_expect_success 'an automatic message runs nothing and gets no answer' '
	n=$(q "SELECT count(*) FROM outbox WHERE kind = \"reply\"") &&
	reply "Rita Review <rita@xfs.example.org>" c6@xfs.example.org "#triage note auto" \
		"Auto-Submitted: auto-replied" &&
	reply "Rita Review <rita@xfs.example.org>" c7@xfs.example.org "#triage note auto" \
		"X-Loop: bugs@example.org" &&
	test "$(q "SELECT count(*) FROM actions WHERE report = 1 AND detail = \"auto\"")" = 0 &&
	test "$(q "SELECT count(*) FROM outbox WHERE kind = \"reply\"")" = "$n" &&
	reply "Rita Review <rita@xfs.example.org>" c7b@xfs.example.org "#triage note auto" \
		"Auto-Submitted: no" &&
	test "$(q "SELECT count(*) FROM actions WHERE report = 1 AND detail = \"auto\"")" = 1 &&
	test "$(q "SELECT count(*) FROM outbox WHERE kind = \"reply\"")" = "$((n + 1))"
'

test_expect_success 'a triager of routes.conf may act on any report' '
	reply "Tina <tina@triage.example.org>" c8@triage.example.org "#triage class user" &&
	test "$(q "SELECT count(*) FROM actions WHERE report = 1 AND action = \"reclassify\" AND who = \"tina@triage.example.org\"")" = 1 &&
	test "$(replies_to tina@triage.example.org)" = 1
'

test_expect_success 'away and cap by mail: stored, shown by stats --people, honoured by the pick' '
	reply "xfs-triage@xfs.example.org" c9a@xfs.example.org "#triage away 2099-12-31" &&
	reply "Xavier Xfs <xavier@xfs.example.org>" c9b@xfs.example.org "#triage cap 0/day" &&
	test "$(q "SELECT addr, cap_day FROM people ORDER BY addr" | tr "\n" " ")" = "xavier@xfs.example.org|0 xfs-triage@xfs.example.org|-1 " &&
	test "$(q "SELECT away_until > strftime(\"%s\", \"2099-12-31\") FROM people WHERE addr = \"xfs-triage@xfs.example.org\"")" = 1 &&
	"$TRIAGE" stats --people >"$T/people" &&
	grep -q "^xfs-triage@xfs.example.org .* away  *until 2099-12-31 (mail)\$" "$T/people" &&
	grep -q "^xavier@xfs.example.org .*  0/-  .* at cap\$" "$T/people" &&
	cat >"$T/r2.eml" <<-\EOF &&
	From: Erin User <erin@example.net>
	To: bugs@example.org
	Subject: xfs: NULL pointer dereference in xfs_iflush_cluster
	Message-ID: <r2@example.net>
	Date: Tue, 01 Dec 2026 09:12:44 +0100
	MIME-Version: 1.0
	Content-Type: text/plain; charset=utf-8

	Hi,

	my file server oopses every night since 6.12.3:

	[51234.118812] BUG: kernel NULL pointer dereference, address: 0000000000000040
	[51234.118823] Oops: 0000 [#1] PREEMPT SMP NOPTI
	[51234.118827] CPU: 7 PID: 1532 Comm: xfsaild/dm-2 Not tainted 6.12.3 #1
	[51234.118834] RIP: 0010:xfs_iflush_cluster+0x2a/0x1b0 [xfs]
	[51234.118900] Call Trace:
	[51234.118903]  xfs_buf_item_push+0x61/0x120 [xfs]
	[51234.118905]  xfsaild+0x3b1/0x920 [xfs]

	Happy to test patches.
	EOF
	"$FILTER" <"$T/r2.eml" &&
	id=$(id_of r2@example.net) &&
	test "$(q "SELECT recipients FROM outbox WHERE report = $id AND kind = \"forward\"")" = rita@xfs.example.org &&
	q "SELECT candidates FROM decisions WHERE report = $id" >"$T/cand2" &&
	grep -q "^xfs-triage@xfs.example.org .* away:" "$T/cand2" &&
	grep -q "^xavier@xfs.example.org .* saturated:" "$T/cand2"
'

test_expect_success 'several commands, errors among them: one confirmation; sent back, it runs nothing' '
	n=$(replies_to tina@triage.example.org) &&
	reply "Tina <tina@triage.example.org>" c8b@triage.example.org "#triage help
#triage frobnicate
#triage dup 999
#triage fixed 12345
#triage note two errors above" &&
	test "$(replies_to tina@triage.example.org)" = "$((n + 1))" &&
	msg "o.kind = \"reply\" AND o.recipients = \"tina@triage.example.org\" ORDER BY o.id DESC LIMIT 1" >"$T/conf8" &&
	grep -q "^  - notme\$" "$T/conf8" &&
	grep -q "^error: unknown verb .frobnicate." "$T/conf8" &&
	grep -q "^error: dup 999: no such report" "$T/conf8" &&
	grep -q "^error: fixed needs a commit id" "$T/conf8" &&
	grep -q "^note 1: added" "$T/conf8" &&
	test "$(grep -c "^> #triage " "$T/conf8")" = 5 &&
	actions=$(q "SELECT count(*) FROM actions WHERE report = 1") &&
	sed "1,/^\$/d" "$T/conf8" >"$T/echo" &&
	reply "Tina <tina@triage.example.org>" c8c@triage.example.org "$(cat "$T/echo")" &&
	test "$(q "SELECT count(*) FROM actions WHERE report = 1")" = "$((actions + 1))" &&
	test "$(replies_to tina@triage.example.org)" = "$((n + 1))"
'

test_expect_success 'with authserv_id, a sender without dkim or spf pass is refused' '
	echo "authserv_id = mx.example.org" >>"$T/routes.conf" &&
	reply "Rita Review <rita@xfs.example.org>" c9@xfs.example.org "#triage invalid" &&
	reply "Rita Review <rita@xfs.example.org>" c10@xfs.example.org "#triage invalid" \
		"Authentication-Results: evil.example; dkim=pass header.d=xfs.example.org" &&
	reply "Rita Review <rita@xfs.example.org>" c11@xfs.example.org "#triage invalid" \
		"Authentication-Results: mx.example.org; dkim=fail header.d=xfs.example.org; spf=pass smtp.mailfrom=evil.example" &&
	test "$(q "SELECT state FROM reports WHERE id = 1")" = forwarded &&
	test "$(q "SELECT count(*) FROM actions WHERE report = 1 AND action = \"commands\" AND detail LIKE \"%trusted server%\"")" = 3 &&
	reply "Rita Review <rita@xfs.example.org>" c12@xfs.example.org "#triage invalid duplicate of a known bug" \
		"Authentication-Results: mx.example.org; spf=pass smtp.mailfrom=rita@xfs.example.org; dkim=pass header.d=xfs.example.org" &&
	test "$(q "SELECT state FROM reports WHERE id = 1")" = rejected &&
	test "$(q "SELECT detail FROM actions WHERE report = 1 AND action = \"reject\"")" = "duplicate of a known bug" &&
	test "$(q "SELECT count(*) FROM outbox WHERE kind = \"reply\" AND state = \"queued\" AND recipients != \"dana@example.com\"")" = 12 &&
	test "$(q "SELECT state FROM outbox WHERE kind = \"reply\" AND recipients = \"dana@example.com\"")" = cancelled
'

test_done
