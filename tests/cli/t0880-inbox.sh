#!/bin/sh
# t0880-inbox: one report from the bugs alias to its fix, worked from the
# inbox (issue 23's done-when, in one script through the real
# triage-filter and triage): forwarded to a section's M:; that M:
# replies "#triage reroute SECTION" (the section changes, a person of the
# new one gets it); that person says "#triage notme" (the next one gets
# it); a stranger's "#triage invalid" is ignored; "#triage needinfo
# dmesg" mails the reporter; a patch whose Closes: is the report's
# archive link makes it "fix proposed"; 'triage fixes import' over a git
# repository marks it fixed and it leaves pending; 'triage remind' then
# lists exactly the report still waiting (another one), not this one.
. "$(dirname "$0")/../lib.sh"
. "$SRC/tests/cli/lib-mail.sh"

export TZ=UTC TRIAGE_USER=alice
unset NO_COLOR PAGER
DAY=86400

need_tools "the inbox flow is not tested" sqlite3 git
routes_conf bugs@example.org "sender_cap = 0"
# reply's thread: report 1's original
REPLY_PARENT=inbox-1@example.com
REPLY_SUBJECT="Re: ext4: kernel BUG in ext4_mb_generate_buddy"

# report N FROM SUBJECT FUNCTION BUG: a user's oops report
# <inbox-N@example.com>, a kernel BUG at BUG (file:line) in FUNCTION
report() {
	cat >"$T/r$1.eml" <<EOF &&
From: $2
To: bugs@example.org
Subject: $3
Message-ID: <inbox-$1@example.com>
Date: Mon, 30 Nov 2026 09:12:44 +0100
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8

Hi,

our build server hits this every night since the upgrade to 6.12.3:

[ 1234.118812] EXT4-fs error (device sda1): $4:1217: group 7, block bitmap and bg descriptor inconsistent
[ 1234.118820] kernel BUG at $5!
[ 1234.118823] Oops: invalid opcode: 0000 [#1] PREEMPT SMP NOPTI
[ 1234.118827] CPU: 3 PID: 2211 Comm: make Not tainted 6.12.3 #1
[ 1234.118834] RIP: 0010:$4+0x2a/0x1b0
[ 1234.118900] Call Trace:
[ 1234.118903]  ext4_mb_init_cache+0x61/0x120
[ 1234.118905]  ext4_mb_load_buddy_gfp+0x3b1/0x920

Happy to test patches.
EOF
	"$FILTER" <"$T/r$1.eml"
}

test_expect_success 'the report is forwarded to EXT4'"'"'s M:, with its archive link and its own address' '
	report 1 "Dana Admin <dana@example.com>" \
		"ext4: kernel BUG in ext4_mb_generate_buddy on the build server" \
		ext4_mb_generate_buddy fs/ext4/mballoc.c:1217 &&
	test "$(q "SELECT state, section FROM reports WHERE id = 1")" = "forwarded|EXT4 FILE SYSTEM" &&
	test "$(forwarded_to 1)" = ted@ext4.example.org &&
	msg "o.report = 1 AND o.kind = \"forward\"" >"$T/fwd1" &&
	grep -qx "X-Triage-Archive: https://lore.kernel.org/r/inbox-1@example.com" "$T/fwd1" &&
	sed -n "s/^Subject: \[triage #1-\([a-z2-7]*\)\] .*/\1/p" "$T/fwd1" >"$T/token" &&
	test "$(wc -c <"$T/token")" = 9 &&
	grep -q "^Reply-To: dana@example.com, bugs+1-$(cat "$T/token")@example.org\$" "$T/fwd1"
'

test_expect_success 'the M: replies "#triage reroute xfs filesystem": the section changes, its triager gets it' '
	reply "Ted Tree <ted@ext4.example.org>" i1@ext4.example.org "Not ext4: XFS.

#triage reroute xfs filesystem" &&
	test "$(q "SELECT section FROM reports WHERE id = 1")" = "XFS FILESYSTEM" &&
	test "$(forwarded_to 1)" = xfs-triage@xfs.example.org &&
	test "$(replies_to ted@ext4.example.org)" = 1 &&
	msg "o.kind = \"reply\" AND o.recipients = \"ted@ext4.example.org\"" >"$T/c1" &&
	grep -q "forwarded to xfs-triage@xfs.example.org" "$T/c1"
'

test_expect_success 'the triager replies "#triage notme": the next person of XFS gets it' '
	reply "xfs-triage@xfs.example.org" i2@xfs.example.org "#triage notme" &&
	test "$(forwarded_to 1)" = xavier@xfs.example.org &&
	test "$(q "SELECT addr FROM declined WHERE report = 1")" = xfs-triage@xfs.example.org
'

test_expect_success 'a stranger'"'"'s "#triage invalid" is ignored, recorded, not answered' '
	reply "Mallory <mallory@evil.example>" i3@evil.example "#triage invalid" &&
	test "$(q "SELECT state FROM reports WHERE id = 1")" = forwarded &&
	test "$(q "SELECT count(*) FROM actions WHERE report = 1 AND action = \"reject\"")" = 0 &&
	q "SELECT detail FROM actions WHERE report = 1 AND action = \"commands\"" |
		grep -q "not authorised (from mallory@evil.example)" &&
	test "$(replies_to mallory@evil.example)" = 0
'

test_expect_success '"#triage needinfo dmesg" mails the reporter' '
	reply "Xavier Xfs <xavier@xfs.example.org>" i4@xfs.example.org "#triage needinfo dmesg" &&
	test "$(replies_to dana@example.com)" = 1 &&
	msg "o.kind = \"reply\" AND o.recipients = \"dana@example.com\"" >"$T/need" &&
	grep -q "dmesg" "$T/need" &&
	grep -q "^Reply-To: bugs+1-$(cat "$T/token")@example.org" "$T/need"
'

test_expect_success 'another report, another crash, goes to EXT4'"'"'s M: and waits' '
	report 2 "Lee User <lee@example.net>" \
		"ext4: kernel BUG in ext4_do_writepages on the NAS" \
		ext4_do_writepages fs/ext4/inode.c:2920 &&
	id=$(id_of inbox-2@example.com) &&
	test "$(q "SELECT state, coalesce(same_crash_as, 0) FROM reports WHERE id = $id")" = "forwarded|0" &&
	test "$(forwarded_to $id)" = ted@ext4.example.org &&
	echo "$id" >"$T/id2"
'

test_expect_success 'a patch with Closes: the report'"'"'s archive link: fix proposed' '
	cat >"$T/patch.eml" <<-EOF &&
	From: Xavier Xfs <xavier@xfs.example.org>
	To: linux-xfs@vger.kernel.org
	Cc: bugs@example.org
	Subject: [PATCH] xfs: check the buddy bitmap before use
	Message-ID: <inbox-patch@xfs.example.org>
	Date: Wed, 02 Dec 2026 08:30:00 +0100
	MIME-Version: 1.0
	Content-Type: text/plain; charset=utf-8

	The bitmap can be stale after a failed grow.

	Closes: https://lore.kernel.org/r/inbox-1@example.com
	Signed-off-by: Xavier Xfs <xavier@xfs.example.org>
	---
	 fs/xfs/xfs_alloc.c | 2 ++
	 1 file changed, 2 insertions(+)

	diff --git a/fs/xfs/xfs_alloc.c b/fs/xfs/xfs_alloc.c
	--- a/fs/xfs/xfs_alloc.c
	+++ b/fs/xfs/xfs_alloc.c
	@@ -90,6 +90,8 @@
	+	if (!bp)
	+		return -EAGAIN;
	EOF
	"$FILTER" <"$T/patch.eml" &&
	id=$(id_of inbox-patch@xfs.example.org) &&
	test "$(q "SELECT kind FROM reports WHERE id = $id")" = patch &&
	test "$(q "SELECT state, source_report FROM fixes WHERE report = 1")" = "proposed|$id" &&
	"$TRIAGE" show 1 >"$T/show1" &&
	grep -q "fix proposed" "$T/show1"
'

test_expect_success 'triage fixes import over a git repository: fixed, out of pending' '
	"$TRIAGE" pending >"$T/pending0" &&
	git init -q "$T/linux" &&
	printf "xfs: check the buddy bitmap before use\n\nCloses: https://lore.kernel.org/r/inbox-1@example.com\nSigned-off-by: Xavier Xfs <xavier@xfs.example.org>\n" |
		git -C "$T/linux" -c user.name=Xavier -c user.email=xavier@xfs.example.org commit -q --allow-empty -F - &&
	"$TRIAGE" fixes import --git "$T/linux" >"$T/import" &&
	test "$(q "SELECT state FROM reports WHERE id = 1")" = fixed &&
	test "$(q "SELECT commit_sha FROM fixes WHERE report = 1 AND state = \"fixed\"")" = "$(git -C "$T/linux" rev-parse HEAD)" &&
	"$TRIAGE" fixes >"$T/fixes" &&
	grep -q "$(git -C "$T/linux" rev-parse --short=12 HEAD)" "$T/fixes" &&
	"$TRIAGE" pending >"$T/pending" &&
	! cut -f1 "$T/pending" | grep -qx 1
'

test_expect_success 'triage remind, a week on, lists exactly the report still waiting' '
	TRIAGE_NOW=$(($(date +%s) + 8 * DAY)) "$TRIAGE" remind >"$T/remind" &&
	test "$(sed -n "s/^[0-9]*\\. \\[triage #\\([0-9]*\\)-[a-z2-7]*\\] .*/\\1/p" "$T/remind" | tr "\\n" " ")" = "$(cat "$T/id2") " &&
	grep -qx "remind ted@ext4.example.org: 1 report" "$T/remind" &&
	! grep -q "xavier@xfs.example.org: [1-9]" "$T/remind" &&
	test "$(q "SELECT count(*) FROM reminders")" = 0
'

test_done
