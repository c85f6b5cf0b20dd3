#!/bin/sh
# t0720-threads: follow-ups, repeated crashes and regressions, through
# the real triage-filter
#
# The messages of tests/corpus/threads (see its README) go through
# triage-filter in order; the routing of each (state, class, thread,
# crash group, regression, decision, recipient) is compared with
# routing.expect, then the forwards, the release of an ai report, the
# crash group in 'triage show', dup/undup, the order of 'triage
# pending' and the fields of 'triage explain --json' are checked.
. "$(dirname "$0")/../lib.sh"
. "$SRC/tests/cli/lib-mail.sh"

C="$SRC/tests/corpus/threads"
export TZ=UTC TRIAGE_USER=alice
unset NO_COLOR PAGER

need_tools "threads are not tested" sqlite3 python3
routes_conf triage@example.org "regressions_list = regressions@lists.example.org"

test_expect_success 'the thread goes through the filter, each routed as expected' '
	for f in "$C"/[0-9]*.eml; do
		feed "$f" || return 1
	done &&
	q "SELECT r.id, r.state, coalesce(r.class, \"-\"),
		coalesce(r.thread_root, \"-\"), coalesce(r.same_crash_as, \"-\"),
		r.regression, d.action, coalesce(d.recipient, \"-\")
		FROM reports r JOIN decisions d ON d.id = (SELECT max(id)
		FROM decisions WHERE report = r.id) ORDER BY r.id" >"$T/routing" &&
	test_cmp "$C/routing.expect" "$T/routing"
'

test_expect_success 'a follow-up gets no verdict of its own' '
	test "$(q "SELECT count(*) FROM classification WHERE report IN (2, 3, 4, 6, 9, 12)")" = 0 &&
	test "$(q "SELECT count(*) FROM classification")" = 6 &&
	"$TRIAGE" stats --since all --json >"$T/stats.json" &&
	python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))
assert s[\"reports\"] == 12, s[\"reports\"]
# follow-ups are counted as received, not as reports of a class
assert \"unclassified\" not in s[\"by_class\"], s[\"by_class\"]
assert sum(s[\"by_class\"].values()) == 6, s[\"by_class\"]
" "$T/stats.json"
'

test_expect_success 'a follow-up is forwarded with its root'"'"'s headers' '
	msg "o.report = 2" >"$T/fwd2" &&
	msg "o.report = 1" >"$T/fwd1" &&
	grep "^X-Triage-Class: " "$T/fwd1" >"$T/class1" &&
	grep "^X-Triage-Class: " "$T/fwd2" >"$T/class2" &&
	test_cmp "$T/class1" "$T/class2" &&
	grep -q "^X-Triage-Section: XFS FILESYSTEM" "$T/fwd2" &&
	grep -q "^Resent-To: xfs-triage@xfs.example.org" "$T/fwd2" &&
	grep -q "^X-Triage-Reason: follow-up to report #1 (In-Reply-To" "$T/fwd2" &&
	grep -q "^X-Triage-Report: 1\$" "$T/fwd1" &&
	grep -q "^X-Triage-Report: 1\$" "$T/fwd2" &&
	grep -q "^Subject: \[triage #1-[a-z2-7]\{8\}\] " "$T/fwd1" &&
	grep -q "^Subject: \[triage #1-[a-z2-7]\{8\}\] Re: " "$T/fwd2" &&
	q "SELECT reason FROM decisions WHERE report = 3" | grep -q "References <thr-01.report@example.com>"
'

test_expect_success 'the recipient'"'"'s own reply joins but is not sent back' '
	test "$(q "SELECT count(*) FROM outbox WHERE report = 4")" = 0 &&
	q "SELECT reason FROM decisions WHERE report = 4" | grep -q "recipient: not sent back" &&
	test "$(q "SELECT count(*) FROM actions WHERE report = 1 AND action = \"thread\"")" = 3
'

test_expect_success 'the reporter'"'"'s real evidence releases an ai report to a human' '
	test "$(q "SELECT who, action, argument, previous FROM actions WHERE report = 5 AND action = \"release\"")" = "triage|release|uncertain|ai" &&
	test "$(q "SELECT class FROM classification WHERE report = 5")" = ai &&
	test "$(q "SELECT hardware IS NOT NULL FROM evidence WHERE report = 5")" = 1
'

test_expect_success 'a regression is forwarded with the regressions list as a second recipient' '
	test "$(q "SELECT recipients FROM outbox WHERE report = 10" | tr "\n" ,)" = "ted@ext4.example.org,regressions@lists.example.org," &&
	msg "o.report = 10" | grep -q "^Resent-Cc: <\{0,1\}regressions@lists.example.org>\{0,1\}\$" &&
	! msg "o.report = 12" | grep -q "^Resent-Cc:" &&
	test "$(q "SELECT regression_good, regression_bad, regression_commit FROM evidence WHERE report = 10")" = "6.11.10|6.12.1|5a6b7c8d9e0f" &&
	test "$(q "SELECT recipients FROM outbox WHERE report = 12")" = "ted@ext4.example.org"
'

test_expect_success 'pending: regressions first, follow-ups not listed, markers' '
	"$TRIAGE" pending >"$T/pending" &&
	cut -f1 "$T/pending" >"$T/ids" &&
	printf "11\n5\n" >"$T/want" &&
	test_cmp "$T/want" "$T/ids" &&
	head -1 "$T/pending" | cut -f5 | grep -q "^\[regression\] screen stays black" &&
	sed -n 2p "$T/pending" | cut -f5 | grep -q "\[+1 reply\]$" &&
	sed -n 2p "$T/pending" | cut -f3 | grep -q "^uncertain" &&
	"$TRIAGE" pending --json >"$T/pending.json" &&
	python3 -c "
import json, sys
p = json.load(open(sys.argv[1]))
assert [x[\"id\"] for x in p] == [11, 5], p
assert p[0][\"regression\"] is True and p[1][\"regression\"] is False
assert p[1][\"followups\"] == 1
" "$T/pending.json"
'

test_expect_success 'show lists the thread and the crash group' '
	"$TRIAGE" show --no-pager 1 >"$T/show1" &&
	grep "^related" -A3 "$T/show1" | grep -c " follow-up, " >"$T/n" &&
	test "$(cat "$T/n")" = 3 &&
	grep -q "7 same crash, .*ken@users.example.*forwarded" "$T/show1" &&
	"$TRIAGE" show --no-pager 7 >"$T/show7" &&
	grep -q "^group     same crash as report 1 " "$T/show7" &&
	grep -q "1 first, " "$T/show7" &&
	"$TRIAGE" show --json 2 >"$T/show2.json" &&
	python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))
assert s[\"thread_root\"] == 1, s[\"thread_root\"]
assert s[\"same_crash_as\"] is None
" "$T/show2.json"
'

test_expect_success 'undup: out of the group, a report sent on stays sent; dup: in again' '
	TRIAGE_NOW=1796000000 "$TRIAGE" undup 7 >"$T/out" &&
	echo "undup 7: out of the group of report 1" >"$T/want" &&
	test_cmp "$T/want" "$T/out" &&
	test "$(q "SELECT state, same_crash_as IS NULL FROM reports WHERE id = 7")" = "forwarded|1" &&
	"$TRIAGE" pending >"$T/pending" &&
	! cut -f1 "$T/pending" | grep -qx 7 &&
	test_exit 65 "$TRIAGE" undup 7 2>"$T/err" &&
	grep -q "in no group" "$T/err" &&
	"$TRIAGE" dup 7 1 >"$T/out" &&
	echo "dup 7: same crash as report 1" >"$T/want" &&
	test_cmp "$T/want" "$T/out" &&
	test "$(q "SELECT same_crash_as FROM reports WHERE id = 7")" = 1 &&
	test_exit 65 "$TRIAGE" dup 7 1 2>/dev/null &&
	test_exit 66 "$TRIAGE" dup 7 99 2>/dev/null &&
	test_exit 64 "$TRIAGE" dup 7 7 2>/dev/null &&
	test "$(q "SELECT who || \" \" || action || \" \" || coalesce(argument, \"-\") || \" \" || coalesce(previous, \"-\") FROM actions WHERE report = 7 ORDER BY id" | tr "\n" ,)" = "alice undup - 1,alice dup 1 -,"
'

test_expect_success 'dup of a report into a group joins the group'"'"'s first report' '
	"$TRIAGE" dup 11 7 >"$T/out" &&
	echo "dup 11: same crash as report 1" >"$T/want" &&
	test_cmp "$T/want" "$T/out" &&
	"$TRIAGE" undup 11 >/dev/null &&
	test "$(q "SELECT state FROM reports WHERE id = 11")" = held
'

test_expect_success 'explain --json: thread, duplicate_of, regression' '
	sed "s/<thr-02.logs@/<thr-02x.logs@/" "$C/02-reply-logs.eml" >"$T/reply.eml" &&
	"$TRIAGE" explain --json "$T/reply.eml" >"$T/e1" &&
	sed "s/<thr-07.dup@/<thr-07x.dup@/" "$C/07-duplicate.eml" >"$T/dup.eml" &&
	"$TRIAGE" explain --json "$T/dup.eml" >"$T/e2" &&
	"$TRIAGE" explain --json "$C/10-bisected.eml" >"$T/e3" &&
	"$TRIAGE" explain --json "$C/08-syzbot.eml" >"$T/e4" &&
	python3 - "$T/e1" "$T/e2" "$T/e3" "$T/e4" <<-PY
	import json, sys
	e1, e2, e3, e4 = (json.load(open(f)) for f in sys.argv[1:])
	assert e1["thread"]["root"] == 1 and e1["thread"]["how"] == "In-Reply-To", e1["thread"]
	assert e1["thread"]["recipient"] == "xfs-triage@xfs.example.org"
	assert e1["duplicate_of"] is None and e1["regression"] is None
	assert e2["thread"] is None and e2["duplicate_of"] == 1, (e2["thread"], e2["duplicate_of"])
	assert e3["regression"] == {"good": "6.11.10", "bad": "6.12.1", "commit": "5a6b7c8d9e0f"}, e3["regression"]
	# 08 itself is the first report of its crash (no earlier one)
	assert e4["syzbot_id"] == "4e5d6c7b8a9f0e1d2c3b" and e4["duplicate_of"] == 8
	PY
'

test_expect_success 'a syzbot report with the same id from elsewhere is seen again' '
	sed "s/<thr-08.syzbot@/<thr-08b.syzbot@/; s/hci_chan_del/hci_chan_free/g" "$C/08-syzbot.eml" >"$T/syz2.eml" &&
	"$FILTER" <"$T/syz2.eml" &&
	test "$(q "SELECT state, same_crash_as FROM reports ORDER BY id DESC LIMIT 1")" = "digest|8" &&
	q "SELECT reason FROM decisions ORDER BY id DESC LIMIT 1" | grep -q "same crash as report #8 (syzbot id 4e5d6c7b8a9f0e1d2c3b)"
'

test_expect_success 'undup of a report seen again: back to pending for its own assignment' '
	id=$(q "SELECT max(id) FROM reports") &&
	"$TRIAGE" undup "$id" >"$T/out" &&
	echo "undup $id: out of the group of report 8" >"$T/want" &&
	test_cmp "$T/want" "$T/out" &&
	test "$(q "SELECT state, same_crash_as IS NULL FROM reports WHERE id = $id")" = "held|1" &&
	"$TRIAGE" pending >"$T/pending" &&
	cut -f1 "$T/pending" | grep -qx "$id"
'

test_expect_success 'a stranger answers the held report with a crash of its own: held with it, no verdict' '
	sed -e "s/<thr-06.ai-logs@/<thr-06s.stranger@/" \
		-e "s/^From: Sam Auditor <sam.audit@example.net>/From: Eve Other <eve@other.example>/" \
		"$C/06-ai-followup.eml" >"$T/06s.eml" &&
	grep -q "^From: Eve Other" "$T/06s.eml" &&
	"$FILTER" <"$T/06s.eml" &&
	test "$(q "SELECT kind, state, class IS NULL, thread_root FROM reports WHERE message_id = \"thr-06s.stranger@example.net\"")" = "follow-up|held|1|5" &&
	q "SELECT reason FROM decisions d JOIN reports r ON r.id = d.report WHERE r.message_id = \"thr-06s.stranger@example.net\"" >"$T/reason06s" &&
	grep -q "; a reply in report 5.s thread carries its own crash (KASAN: slab-use-after-free Read in ext4_xattr_set_entry|" "$T/reason06s"
'

test_expect_success 'approve a released report: its follow-ups that waited go along' '
	"$TRIAGE" approve 5 >"$T/out" &&
	grep -q "^approve 5: forwarded to ted@ext4.example.org" "$T/out" &&
	grep -q "^approve 5: and 1 follow-up that waited with it" "$T/out" &&
	grep -q "^approve 5: 1 follow-up from others stays held: approve each on its own (triage pending)" "$T/out" &&
	test "$(q "SELECT state FROM reports WHERE message_id = \"thr-06s.stranger@example.net\"")" = held &&
	test "$(q "SELECT count(*) FROM outbox o JOIN reports r ON r.id = o.report WHERE r.message_id = \"thr-06s.stranger@example.net\"")" = 0 &&
	"$TRIAGE" pending >"$T/pending5" &&
	grep -q "Eve Other.*follow-up to #5, which is approved: a reply in report 5.s thread carries its own crash (KASAN: slab-use-after-free" "$T/pending5" &&
	test "$(q "SELECT state FROM reports WHERE id = 6")" = forwarded &&
	test "$(q "SELECT recipients FROM outbox WHERE report = 6")" = ted@ext4.example.org &&
	test "$(q "SELECT action FROM decisions WHERE report = 6 ORDER BY id DESC LIMIT 1")" = follow-up &&
	msg "o.report = 6" | grep -q "^X-Triage-Reason: follow-up to report #5; approved by alice" &&
	test_exit 65 "$TRIAGE" approve 5 2>/dev/null
'

if command -v git >/dev/null; then
test_expect_success 'a bisected regression names the culprit'"'"'s author and reviewers' '
	export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null &&
	git init -q "$T/repo" && mkdir -p "$T/repo/fs/ext4" &&
	echo one >"$T/repo/fs/ext4/inode.c" &&
	printf "ext4: rework the write path\n\nSigned-off-by: Wanda Writer <wanda@example.org>\nReviewed-by: Rex Review <REX@example.org>\nReviewed-by: kernel test robot <lkp@intel.com>\n" >"$T/msg" &&
	(cd "$T/repo" && git add -A &&
	 GIT_AUTHOR_NAME="Wanda Writer" GIT_AUTHOR_EMAIL=wanda@example.org \
	 GIT_COMMITTER_NAME=C GIT_COMMITTER_EMAIL=c@example.org \
	 git commit -q -F "$T/msg") &&
	sha=$(git -C "$T/repo" rev-parse HEAD) &&
	"$TRIAGE" experts import --git "$T/repo" --quiet >/dev/null &&
	grep -q "^$sha wanda@example.org rex@example.org\$" "$T/state/experts.idx.commits" &&
	short=$(echo "$sha" | cut -c1-12) &&
	sed "s/5a6b7c8d9e0f/$short/g; s/<thr-10.bisect@/<thr-10x.bisect@/" "$C/10-bisected.eml" >"$T/culprit.eml" &&
	"$TRIAGE" explain --json "$T/culprit.eml" >"$T/e" &&
	python3 - "$T/e" "$short" <<-PY
	import json, sys
	e = json.load(open(sys.argv[1]))
	assert e["regression"]["commit"] == sys.argv[2], e["regression"]
	c = {x["address"]: x for x in e["candidates"]}
	assert "wanda@example.org" in c, list(c)
	assert "author of" in c["wanda@example.org"]["why"], c["wanda@example.org"]
	assert "rex@example.org" in c and "Reviewed-by of" in c["rex@example.org"]["why"], c
	assert "lkp@intel.com" not in c
	PY
'
else
	test_skip 'git is not installed: the culprit commit is not looked up'
fi

test_done
