#!/bin/sh
# t0722-followups: a reply in a report's thread is part of that report,
# whoever writes it, through the real triage-filter: a third party's
# "me too" with its own log, a developer's question and a reviewer's
# note are recorded with the report (no verdict, no recipient, never
# sent on); the reporter's own reply still goes to the report's
# recipient; 'triage show' lists them all with the report (issue 20)
# A third party's reply that carries a crash of its own (another
# crash signature) is held for a triager, still in the thread
. "$(dirname "$0")/../lib.sh"
. "$SRC/tests/cli/lib-mail.sh"

export TZ=UTC TRIAGE_USER=alice
unset NO_COLOR PAGER
SQ="'"

need_tools "follow-ups are not tested" sqlite3
routes_conf triage@example.org

# the report: a user's xfs oops on real hardware
{
	printf 'From: Dora Disk <dora@users.example>\nTo: bugs@example.org\n' &&
	printf 'Subject: xfs: NULL pointer dereference in xfs_inode_item_push on the file server\n' &&
	printf 'Message-ID: <fu-01.report@users.example>\n' &&
	printf 'Date: Mon, 30 Nov 2026 09:00:00 +0000\n' &&
	printf 'MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n' &&
	printf 'Hi,\n\nsince 6.12.4 our file server oopses under the nightly backup:\n\n' &&
	printf '[ 8812.100001] BUG: kernel NULL pointer dereference, address: 0000000000000058\n' &&
	printf '[ 8812.100009] Oops: 0000 [#1] PREEMPT SMP NOPTI\n' &&
	printf '[ 8812.100012] CPU: 3 PID: 911 Comm: xfsaild/sdb1 Not tainted 6.12.4 #1\n' &&
	printf '[ 8812.100015] Hardware name: Supermicro X11SSH-F/X11SSH-F, BIOS 2.6 07/01/2022\n' &&
	printf '[ 8812.100018] RIP: 0010:xfs_inode_item_push+0x3c/0x190 [xfs]\n' &&
	printf '[ 8812.100030] Call Trace:\n[ 8812.100031]  <TASK>\n' &&
	printf '[ 8812.100033]  xfsaild+0x3b1/0x920 [xfs]\n' &&
	printf '[ 8812.100036]  kthread+0xd2/0x100\n[ 8812.100039]  ret_from_fork+0x34/0x50\n' &&
	printf '[ 8812.100041]  </TASK>\n\nIt did not happen with 6.12.3.  Happy to test patches.\n\nDora\n'
} >"$T/01.eml"

REPLY_PARENT=fu-01.report@users.example
REPLY_SUBJECT="Re: xfs: NULL pointer dereference in xfs_inode_item_push on the file server"

test_expect_success 'the report: a new report, classified and forwarded' '
	feed "$T/01.eml" &&
	test "$(q "SELECT kind, state, class FROM reports WHERE id = 1")" = "report|forwarded|user" &&
	test "$(forwarded_to 1)" = xfs-triage@xfs.example.org
'

test_expect_success 'another user'"'"'s "me too" with a log: a follow-up recorded with the report, not forwarded' '
	reply "Olaf Other <olaf@elsewhere.example>" fu-02.metoo@elsewhere.example \
		"Same here on a Dell PowerEdge R740 with 6.12.4:

[ 1201.553001] BUG: kernel NULL pointer dereference, address: 0000000000000058
[ 1201.553010] RIP: 0010:xfs_inode_item_push+0x3c/0x190 [xfs]
[ 1201.553012] Hardware name: Dell Inc. PowerEdge R740/0923K0, BIOS 2.12.2 07/09/2021

It crashes every night since I upgraded from 6.12.3." &&
	id=$(id_of fu-02.metoo@elsewhere.example) &&
	test "$(q "SELECT kind, state, coalesce(class, \"-\"), thread_root FROM reports WHERE id = $id")" = "follow-up|recorded|-|1" &&
	test "$(q "SELECT count(*) FROM classification WHERE report = $id")" = 0 &&
	test "$(q "SELECT action, coalesce(recipient, \"-\") FROM decisions WHERE report = $id")" = "follow-up|-" &&
	test "$(q "SELECT count(*) FROM outbox WHERE report = $id")" = 0 &&
	q "SELECT reason FROM decisions WHERE report = $id" |
		grep "follow-up to report #1 (In-Reply-To <fu-01.report@users.example>); from olaf@elsewhere.example, not the report.s reporter, recipient or section: recorded with the report, not sent on"
'

test_expect_success 'a developer'"'"'s question in the thread: recorded with the report, not forwarded' '
	reply "Dev Eloper <dev@kernel.example>" fu-03.question@kernel.example \
		"> since 6.12.4 our file server oopses under the nightly backup

Could you run with CONFIG_XFS_DEBUG=y and send the output of xfs_info?" &&
	id=$(id_of fu-03.question@kernel.example) &&
	test "$(q "SELECT kind, state, coalesce(class, \"-\"), thread_root FROM reports WHERE id = $id")" = "follow-up|recorded|-|1" &&
	test "$(q "SELECT count(*) FROM outbox WHERE report = $id")" = 0
'

test_expect_success 'a reviewer'"'"'s note on a reply (References only): recorded with the report' '
	{
		printf "From: Rex Viewer <rex@reviews.example>\nTo: bugs@example.org\n" &&
		printf "Subject: %s\n" "$REPLY_SUBJECT" &&
		printf "Message-ID: <fu-04.note@reviews.example>\n" &&
		printf "In-Reply-To: <never-seen@kernel.example>\n" &&
		printf "References: <fu-01.report@users.example> <never-seen@kernel.example>\n" &&
		printf "Date: Tue, 01 Dec 2026 11:00:00 +0000\n\n" &&
		printf "This looks like the one fixed by the inode reclaim rework in for-next.\n"
	} >"$T/04.eml" &&
	feed "$T/04.eml" &&
	id=$(id_of fu-04.note@reviews.example) &&
	test "$(q "SELECT kind, state, thread_root FROM reports WHERE id = $id")" = "follow-up|recorded|1" &&
	test "$(q "SELECT count(*) FROM outbox WHERE report = $id")" = 0
'

test_expect_success 'the reporter'"'"'s own reply: a follow-up sent to the report'"'"'s recipient' '
	reply "Dora Disk <dora@users.example>" fu-05.logs@users.example \
		"Here is xfs_info of the volume, and the oops happens with 6.12.5 too." &&
	id=$(id_of fu-05.logs@users.example) &&
	test "$(q "SELECT kind, state, coalesce(class, \"-\"), thread_root FROM reports WHERE id = $id")" = "follow-up|forwarded|-|1" &&
	test "$(q "SELECT action, recipient FROM decisions WHERE report = $id")" = "follow-up|xfs-triage@xfs.example.org" &&
	test "$(forwarded_to $id)" = xfs-triage@xfs.example.org
'

test_expect_success 'only the report was forwarded as a report; its recipient got it and the reporter'"'"'s reply' '
	test "$(q "SELECT count(*) FROM decisions WHERE action = \"forward\"")" = 1 &&
	test "$(q "SELECT count(*) FROM classification")" = 1 &&
	test "$(q "SELECT group_concat(report) FROM (SELECT report FROM outbox WHERE kind = \"forward\" ORDER BY report)")" = "1,5"
'

test_expect_success 'triage show lists every follow-up with the report' '
	"$TRIAGE" show 1 >"$T/show1" &&
	grep "^ *related *2 follow-up, .*, Olaf Other <olaf@elsewhere.example>, recorded: Re: xfs: NULL pointer" "$T/show1" &&
	grep "^ *3 follow-up, .*, Dev Eloper <dev@kernel.example>, recorded: Re: xfs" "$T/show1" &&
	grep "^ *4 follow-up, .*, Rex Viewer <rex@reviews.example>, recorded: Re: xfs" "$T/show1" &&
	grep "^ *5 follow-up, .*, Dora Disk <dora@users.example>, forwarded: Re: xfs" "$T/show1" &&
	"$TRIAGE" show 2 >"$T/show2" &&
	grep "follow-up to report 1" "$T/show2"
'

test_expect_success 'a third party'"'"'s reply with a crash of its own: held for a triager, in the thread, not classified' '
	"$TRIAGE" pending >"$T/pending0" &&
	! grep "carries its own crash" "$T/pending0" &&
	reply "Kai Kasan <kai@fuzz.example>" fu-06.other@fuzz.example \
		"Not sure it is the same bug, but with 6.12.4 I get this one on my test box:

[  301.114001] ==================================================================
[  301.114005] BUG: KASAN: slab-use-after-free in xfs_buf_item_unpin+0x4a/0x2b0 [xfs]
[  301.114009] Read of size 8 at addr ffff888104c3a010 by task kworker/2:1/77
[  301.114013] CPU: 2 PID: 77 Comm: kworker/2:1 Not tainted 6.12.4 #1
[  301.114016] Hardware name: Lenovo ThinkStation P340/1048, BIOS S07KT3CA 05/12/2023
[  301.114019] Call Trace:
[  301.114020]  <TASK>
[  301.114022]  dump_stack_lvl+0x64/0x80
[  301.114025]  print_report+0xc1/0x600
[  301.114028]  kasan_report+0xb4/0xf0
[  301.114031]  xfs_buf_item_unpin+0x4a/0x2b0 [xfs]
[  301.114034]  xfs_trans_committed_bulk+0x103/0x330 [xfs]
[  301.114037]  xlog_cil_committed+0x2f1/0x3e0 [xfs]
[  301.114040]  process_one_work+0x1a3/0x3a0
[  301.114043]  </TASK>" &&
	id=$(id_of fu-06.other@fuzz.example) &&
	test "$(q "SELECT kind, state, coalesce(class, \"-\"), thread_root FROM reports WHERE id = $id")" = "follow-up|held|-|1" &&
	test "$(q "SELECT count(*) FROM classification WHERE report = $id")" = 0 &&
	test "$(q "SELECT action, coalesce(recipient, \"-\") FROM decisions WHERE report = $id")" = "follow-up|-" &&
	test "$(q "SELECT count(*) FROM outbox WHERE report = $id")" = 0 &&
	q "SELECT reason FROM decisions WHERE report = $id" >"$T/reason6" &&
	grep -F "from kai@fuzz.example, not the report${SQ}s reporter, recipient or section; a reply in report 1${SQ}s thread carries its own crash (KASAN: slab-use-after-free Read in xfs_buf_item_unpin|" "$T/reason6" &&
	grep -F "|xfs_buf_item_unpin,xfs_trans_committed_bulk,xlog_cil_committed), unlike the report${SQ}s: not sent on, held for a triager" "$T/reason6" &&
	! grep -F "recorded with the report" "$T/reason6" &&
	"$TRIAGE" pending >"$T/pending6" &&
	grep -F "Kai Kasan" "$T/pending6" &&
	grep -F "a reply in report 1${SQ}s thread carries its own crash" "$T/pending6" &&
	"$TRIAGE" show 1 >"$T/show6" &&
	grep "^ *$id follow-up, .*, Kai Kasan <kai@fuzz.example>, held: Re: xfs" "$T/show6"
'

test_expect_success 'a third party'"'"'s reply with the report'"'"'s own crash: recorded, not pending' '
	reply "Sam Same <sam@elsewhere.example>" fu-07.same@elsewhere.example \
		"We hit exactly this on two machines:

[ 5120.000101] BUG: kernel NULL pointer dereference, address: 0000000000000058
[ 5120.000109] Oops: 0000 [#1] PREEMPT SMP NOPTI
[ 5120.000112] CPU: 7 PID: 1402 Comm: xfsaild/nvme0n1p2 Not tainted 6.12.4 #2
[ 5120.000115] Hardware name: ASUS System Product Name/PRIME X570-P, BIOS 4602 02/23/2023
[ 5120.000118] RIP: 0010:xfs_inode_item_push+0x3c/0x190 [xfs]
[ 5120.000130] Call Trace:
[ 5120.000131]  <TASK>
[ 5120.000133]  xfsaild+0x3b1/0x920 [xfs]
[ 5120.000136]  kthread+0xd2/0x100
[ 5120.000139]  ret_from_fork+0x34/0x50
[ 5120.000141]  </TASK>" &&
	id=$(id_of fu-07.same@elsewhere.example) &&
	test "$(q "SELECT kind, state, coalesce(class, \"-\"), thread_root FROM reports WHERE id = $id")" = "follow-up|recorded|-|1" &&
	test "$(q "SELECT count(*) FROM outbox WHERE report = $id")" = 0 &&
	q "SELECT reason FROM decisions WHERE report = $id" >"$T/reason7" &&
	grep -F "not the report${SQ}s reporter, recipient or section: recorded with the report, not sent on" "$T/reason7" &&
	! grep -F "its own crash" "$T/reason7" &&
	"$TRIAGE" pending >"$T/pending7" &&
	! grep -F "Sam Same" "$T/pending7" &&
	grep -F "Kai Kasan" "$T/pending7" &&
	test "$(q "SELECT count(*) FROM classification")" = 1
'

test_done
