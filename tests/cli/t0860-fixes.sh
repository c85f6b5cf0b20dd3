#!/bin/sh
# t0860-fixes: archive links and fix tracking (issue 23, part B), through
# the real triage-filter and triage: a forward carries the report's
# archive link (X-Triage-Archive); a patch whose Closes: is that link is
# a fix proposed for the report; 'triage fixes import' over a git
# repository made here marks fixed the reports its commits' trailers
# name (archive link, lore's /all/ form, the report's own bugs+ID-TOKEN@
# address, a syzbot id, a patch mailed as a fix proposed), once: a
# second import changes nothing; a fixed report leaves 'triage
# pending'; a reporter's address alone, a wrong token or a Fixes:
# trailer names nothing; a bad archive_url is refused.
. "$(dirname "$0")/../lib.sh"
. "$SRC/tests/cli/lib-mail.sh"

export TZ=UTC TRIAGE_USER=alice
unset NO_COLOR PAGER

need_tools "fixes are not tested" sqlite3 python3 git
# a site archive whose links lore's forms do not cover: read by pattern
routes_conf bugs@example.org \
	"archive_url = https://mail.example.org/view?m=%s" \
	"forward_subject_tag = always" \
	"notify_reporter_fixed = yes"

# report N ID SUBJECT FUNCTION - a user's XFS oops report in FUNCTION,
# Message-ID <ID>
report() {
	cat >"$T/r$1.eml" <<EOF &&
From: Dana Admin <dana$1@example.com>
To: bugs@example.org
Subject: $3
Message-ID: <$2>
Date: Mon, 30 Nov 2026 09:12:44 +0100
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8

Hi,

our file server oopses every night since the upgrade to 6.12.3
(Debian 6.12.3-1~bpo12+1).  This morning's log:

[51234.118812] BUG: kernel NULL pointer dereference, address: 0000000000000040
[51234.118823] Oops: 0000 [#1] PREEMPT SMP NOPTI
[51234.118827] CPU: 7 PID: 1532 Comm: xfsaild/dm-2 Not tainted 6.12.3-amd64 #1  Debian 6.12.3-1~bpo12+1
[51234.118831] Hardware name: Dell Inc. PowerEdge R640/0H28RR, BIOS 2.19.1 06/13/2023
[51234.118834] RIP: 0010:$4+0x2a/0x1b0 [xfs]
[51234.118900] Call Trace:
[51234.118902]  <TASK>
[51234.118903]  xfs_buf_item_push+0x61/0x120 [xfs]
[51234.118905]  xfsaild+0x3b1/0x920 [xfs]
[51234.118950]  kthread+0xd2/0x100
[51234.118955]  </TASK>

Happy to test patches.

Dana
EOF
	SENDER=dana$1@example.com "$FILTER" <"$T/r$1.eml"
}

test_expect_success 'a forward carries the report archive link' '
	report 1 "fix-01/a@example.com" "xfs: NULL pointer dereference in xfs_iflush_cluster" xfs_iflush_cluster &&
	test "$(q "SELECT kind, state FROM reports WHERE id = 1")" = "report|forwarded" &&
	q "SELECT message FROM outbox WHERE report = 1 AND kind = \"forward\"" >"$T/fwd1" &&
	grep -qx "X-Triage-Archive: https://mail.example.org/view?m=fix-01%2Fa@example.com" "$T/fwd1" &&
	"$TRIAGE" show 1 >"$T/show1" &&
	grep -q "^archive  *https://mail.example.org/view?m=fix-01%2Fa@example.com\$" "$T/show1" &&
	"$TRIAGE" show --json 1 >"$T/show1.json" &&
	python3 -c "import json,sys; j=json.load(open(sys.argv[1])); assert j[\"archive\"] == \"https://mail.example.org/view?m=fix-01%2Fa@example.com\", j[\"archive\"]" "$T/show1.json"
'

test_expect_success 'an inbound X-Triage-Archive is renamed, not passed on as ours' '
	sed -e "s/^Subject: .*/Subject: xfs: another oops\\nX-Triage-Archive: https:\\/\\/evil.example\\//" \
		-e "s/fix-01\\/a@/fix-01b@/" -e "s/xfs_iflush_cluster/xfs_iget_cache_hit/" \
		-e "s/dana1@/dana2@/" "$T/r1.eml" >"$T/r1b.eml" &&
	"$FILTER" <"$T/r1b.eml" &&
	q "SELECT message FROM outbox WHERE report = 2 AND kind = \"forward\"" >"$T/fwd2" &&
	test "$(grep -c "^X-Triage-Archive:" "$T/fwd2")" = 1 &&
	grep -qx "X-Triage-Archive: https://mail.example.org/view?m=fix-01b@example.com" "$T/fwd2" &&
	grep -qx "X-Original-Triage-Archive: https://evil.example/" "$T/fwd2"
'

test_expect_success 'a patch with Closes: the archive link is a fix proposed' '
	cat >"$T/patch.eml" <<-EOF &&
	From: Xavier Xfs <xavier@xfs.example.org>
	To: linux-xfs@vger.kernel.org
	Cc: bugs@example.org
	Subject: [PATCH] xfs: do not flush a cluster whose buffer is gone
	Message-ID: <fix-patch-01@xfs.example.org>
	Date: Tue, 01 Dec 2026 08:30:00 +0100
	MIME-Version: 1.0
	Content-Type: text/plain; charset=utf-8

	xfs_iflush_cluster dereferences a released buffer.

	Closes: https://mail.example.org/view?m=fix-01%2Fa@example.com
	Signed-off-by: Xavier Xfs <xavier@xfs.example.org>
	---
	 fs/xfs/xfs_inode.c | 2 ++
	 1 file changed, 2 insertions(+)

	diff --git a/fs/xfs/xfs_inode.c b/fs/xfs/xfs_inode.c
	--- a/fs/xfs/xfs_inode.c
	+++ b/fs/xfs/xfs_inode.c
	@@ -90,6 +90,8 @@
	+	if (!bp)
	+		return -EAGAIN;
	EOF
	"$FILTER" <"$T/patch.eml" &&
	test "$(q "SELECT kind FROM reports WHERE id = 3")" = patch &&
	test "$(q "SELECT report, state, source_report, how FROM fixes")" = "1|proposed|3|Closes:" &&
	test "$(q "SELECT action, argument FROM actions WHERE report = 1")" = "fix-proposed|#3" &&
	"$TRIAGE" show 1 >"$T/show1" &&
	grep -q "fix proposed" "$T/show1"
'

test_expect_success 'a held report waits in pending; a fuzzer report has its syzbot id' '
	"$FILTER" <"$SRC/tests/corpus/kinds/extra/names-nothing-problem.eml" &&
	test "$(q "SELECT state FROM reports WHERE id = 4")" = held &&
	"$TRIAGE" pending >"$T/pending" &&
	cut -f1 "$T/pending" | grep -qx 4 &&
	"$FILTER" <"$SRC/tests/corpus/desk/03-syzbot-xfs-a.eml" &&
	test "$(q "SELECT class, syzbot_id FROM reports WHERE id = 5")" = "fuzzer|0a1b2c3d4e5f6071" &&
	report 6 "fix-06@example.com" "xfs: hang in xfs_log_force" xfs_log_force &&
	report 7 "fix-07@example.com" "xfs: oops in xfs_inactive" xfs_inactive &&
	tok=$(q "SELECT message FROM outbox WHERE report = 6 AND kind = \"forward\"" |
		sed -n "s/^Subject: \\[triage #6-\\([a-z2-7]*\\)\\].*/\\1/p") &&
	test -n "$tok" && echo "$tok" >"$T/tok6"
'

test_expect_success 'a repository whose commits name reports' '
	sed -e "s/fix-patch-01@/fix-patch-02@/" -e "s/fix-01%2Fa@/fix-01b@/" \
		"$T/patch.eml" >"$T/patch2.eml" &&
	"$FILTER" <"$T/patch2.eml" &&
	test "$(q "SELECT source_report, state FROM fixes WHERE report = 2")" = "8|proposed" &&
	tok7=$(q "SELECT message FROM outbox WHERE report = 7 AND kind = \"forward\"" |
		sed -n "s/^Subject: \\[triage #7-\\([a-z2-7]*\\)\\].*/\\1/p") &&
	test -n "$tok7" &&
	sed -e "s/fix-patch-01@/fix-patch-03@/" -e "s/^Closes: .*/Reported-by: Dana <bugs+7-$tok7@example.org>/" \
		"$T/patch.eml" >"$T/patch3.eml" &&
	"$FILTER" <"$T/patch3.eml" &&
	test "$(q "SELECT source_report, state, how FROM fixes WHERE report = 7")" = "9|proposed|Reported-by:" &&
	sed -e "s/fix-patch-01@/fix-patch-04@/" -e "s/^Closes: .*/Reported-by: Dana <bugs+7-aaaaaaaa@example.org>/" \
		"$T/patch.eml" >"$T/patch4.eml" &&
	"$FILTER" <"$T/patch4.eml" &&
	test "$(q "SELECT kind, state FROM reports WHERE id = 10")" = "patch|recorded" &&
	test "$(q "SELECT count(*) FROM fixes WHERE source_report = 10")" = 0 &&
	G="$T/linux" &&
	git init -q "$G" &&
	git -C "$G" remote add origin https://git.example.org/xfs-linux.git &&
	c() { git -C "$G" -c user.name=Xavier -c user.email=xavier@xfs.example.org commit -q --allow-empty -F -; } &&
	printf "xfs: first\n\nFixes: 0123456789ab (\"xfs: older\")\nReported-by: Dana Admin <dana7@example.com>\nSigned-off-by: Xavier <xavier@xfs.example.org>\n" | c &&
	printf "xfs: do not flush a cluster whose buffer is gone\n\nReported-by: Dana Admin <dana1@example.com>\nCloses: https://mail.example.org/view?m=fix-01%%2Fa@example.com\nSigned-off-by: Xavier <xavier@xfs.example.org>\n" | c &&
	printf "pm: wake after lid close\n\nLink: https://lore.kernel.org/all/wake.0001@home.example/\nSigned-off-by: Xavier <xavier@xfs.example.org>\n" | c &&
	printf "xfs: fix the uaf in xfs_buf_item_unpin\n\nReported-by: syzbot+0a1b2c3d4e5f6071@syzkaller.appspotmail.com\nSigned-off-by: Xavier <xavier@xfs.example.org>\n" | c &&
	printf "xfs: log force hang\n\nCloses: <bugs+6-$(cat "$T/tok6")@example.org>\nSigned-off-by: Xavier <xavier@xfs.example.org>\n" | c &&
	printf "xfs: not this one\n\nCloses: <bugs+7-aaaaaaaa@example.org>\nSigned-off-by: Xavier <xavier@xfs.example.org>\n" | c &&
	printf "xfs: the patch as posted\n\nSigned-off-by: Xavier <xavier@xfs.example.org>\nLink: https://lore.kernel.org/r/fix-patch-02@xfs.example.org\n" | c &&
	test "$(git -C "$G" rev-list --count HEAD)" = 7
'

test_expect_success 'triage fixes import marks exactly the reports named' '
	"$TRIAGE" fixes import --git "$T/linux" >"$T/import" &&
	grep -qx "fixes: 7 commits read, 5 reports named, 5 marked fixed, 2 notes to reporters" "$T/import" &&
	test "$(q "SELECT group_concat(id) FROM reports WHERE state = \"fixed\" ORDER BY id")" = "1,2,4,5,6" &&
	test "$(q "SELECT state FROM reports WHERE id = 7")" = forwarded &&
	test "$(q "SELECT count(*) FROM fixes WHERE state = \"fixed\" AND tree = \"https://git.example.org/xfs-linux.git\"")" = 5 &&
	test "$(q "SELECT commit_sha, how FROM fixes WHERE report = 2 AND state = \"fixed\"")" = "$(git -C "$T/linux" rev-parse HEAD)|Link:" &&
	sha=$(git -C "$T/linux" rev-parse HEAD~5) &&
	test "$(q "SELECT commit_sha, how FROM fixes WHERE report = 1 AND state = \"fixed\"")" = "$sha|Closes:" &&
	test "$(q "SELECT how FROM fixes WHERE report = 5 AND state = \"fixed\"")" = "Reported-by:" &&
	test "$(q "SELECT who, argument FROM actions WHERE report = 1 AND action = \"fixed\"")" = "alice|$(echo $sha | cut -c1-12)"
'

test_expect_success 'each user reporter gets one note with the commit; a bot or held mail none' '
	test "$(q "SELECT group_concat(recipients) FROM outbox WHERE kind = \"reply\" ORDER BY id")" = "dana1@example.com,dana6@example.com" &&
	q "SELECT message FROM outbox WHERE kind = \"reply\" AND report = 1" >"$T/note" &&
	grep -q "^Auto-Submitted: auto-generated" "$T/note" &&
	grep -q "fixed by commit" "$T/note" &&
	grep -q "$(git -C "$T/linux" rev-parse --short=12 HEAD~5)" "$T/note"
'

test_expect_success 'a fixed report leaves pending' '
	"$TRIAGE" pending >"$T/pending" &&
	! cut -f1 "$T/pending" | grep -qx 4
'

test_expect_success 'a second import changes nothing' '
	q "SELECT count(*) FROM fixes; SELECT count(*) FROM actions; SELECT count(*) FROM outbox" >"$T/before" &&
	"$TRIAGE" fixes import --git "$T/linux" >"$T/import2" &&
	grep -qx "fixes: 7 commits read, 5 reports named, 0 marked fixed, 0 notes to reporters" "$T/import2" &&
	q "SELECT count(*) FROM fixes; SELECT count(*) FROM actions; SELECT count(*) FROM outbox" >"$T/after" &&
	test_cmp "$T/before" "$T/after"
'

test_expect_success 'import --since a revision reads only the commits after it' '
	"$TRIAGE" fixes import --git "$T/linux" --since HEAD~2 >"$T/import3" &&
	grep -qx "fixes: 2 commits read, 1 reports named, 0 marked fixed, 0 notes to reporters" "$T/import3" &&
	test_exit 64 "$TRIAGE" fixes import --git "$T/linux" --since=--all
'

test_expect_success 'triage fixes lists them, in text and JSON' '
	"$TRIAGE" fixes --since all >"$T/list" &&
	test "$(cut -f1 "$T/list" | tr "\n" " ")" = "1 4 5 6 2 " &&
	grep -q "^1	$(git -C "$T/linux" rev-parse --short=12 HEAD~5)	xfs: NULL pointer dereference in xfs_iflush_cluster	https://git.example.org/xfs-linux.git\$" "$T/list" &&
	"$TRIAGE" fixes --since all --json >"$T/list.json" &&
	python3 -c "import json,sys
j = json.load(open(sys.argv[1]))
assert [x[\"id\"] for x in j] == [1, 4, 5, 6, 2], j
assert all(x[\"state\"] == \"fixed\" and len(x[\"commit\"]) == 40 for x in j), j" "$T/list.json"
'

test_expect_success 'archive_url: one %s, no other %, an http(s) URL, or none' '
	for v in "https://x.example/%s/%s" "https://x.example/%n%s" "ftp://x.example/%s" "https://x.example/"; do
		printf "archive_url = %s\n" "$v" >"$T/bad.conf" &&
		test_exit 78 "$TRIAGE" check-config "$T/bad.conf" 2>"$T/err" &&
		grep -q "archive_url: .* is not an http(s) URL with one %s" "$T/err" || return 1
	done &&
	printf "archive_url = none\n" >"$T/none.conf" &&
	"$TRIAGE" check-config "$T/none.conf" &&
	sed "s/^archive_url = .*/archive_url = none/" "$T/routes.conf" >"$T/off.conf" &&
	"$TRIAGE" -c "$T/off.conf" show 1 >"$T/show-off" &&
	! grep -q "^archive" "$T/show-off"
'

test_done
