#!/bin/sh
# t0251-user-signs: what a user's own text shows without a crash (a
# command that failed on their machine, a crash dump read with the crash
# utility, the commit since which it broke) releases a new report that
# would be held for want of a sign, and 'triage explain' names the rule
# with its points; the same text without the sign stays held
. "$(dirname "$0")/../lib.sh"
. "$SRC/tests/cli/lib-mail.sh"
routes_conf triage@example.org
export TRIAGE_CONFIG="$T/routes.conf"
said() { q "select class || \"|\" || state from reports where message_id = \"$1@example.com\""; }

# say ID SUBJECT BODY: a stranger's new message to the ext4 list whose
# subject says nothing failed
say() {
	printf "From: Uma User <uma@users.example>\nTo: bugs@example.org\nCc: linux-ext4@vger.kernel.org\nSubject: %s\nMessage-ID: <%s@example.com>\nDate: Mon, 30 Nov 2026 09:10:00 +0000\n\n%b\n" \
		"$2" "$1" "$3" >"$T/$1.eml" &&
	"$FILTER" <"$T/$1.eml"
}

test_expect_success 'a command that failed on the writer'\''s machine: forwarded, and explain shows the rule' '
	say shell "ext4: resize of the data volume" \
		"Hello,\n\nresizing the data volume here:\n\n\$ sudo resize2fs /dev/vg0/data\nresize2fs: Permission denied to resize filesystem\n\nThe same worked last month." &&
	test "$(said shell)" = "user|forwarded" &&
	"$TRIAGE" explain "$T/shell.eml" >"$T/shell.out" &&
	grep -q "USER_SHELL_FAILURE .*Pastes a command run on their machine" "$T/shell.out" &&
	"$TRIAGE" explain --json "$T/shell.eml" >"$T/shell.json" &&
	python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
r = [r for r in d[\"rules\"] if r[\"name\"] == \"USER_SHELL_FAILURE\"]
assert r and r[0][\"score\"][\"user\"] == 1, d[\"rules\"]" "$T/shell.json"
'

test_expect_success 'the same command as a how-to gives it, with no failure printed: held' '
	say howto "ext4: resize of the data volume" \
		"Hello,\n\nresizing the data volume here:\n\n\$ sudo resize2fs /dev/vg0/data\n\nThe same worked last month." &&
	test "$(said howto)" = "user|held" &&
	q "select d.reason from decisions d join reports r on r.id = d.report where r.message_id = \"howto@example.com\"" |
		grep -q "^no sign of a bug anyone hit"
'

test_expect_success 'a crash dump read with the crash utility, and a culprit commit named in words: forwarded' '
	say vmcore "ext4: jbd2 thread in our dumps" \
		"Hello,\n\nfrom the vmcore:\n\ncrash> bt\nPID: 4242   TASK: ffff88810a2b3c40  CPU: 3   COMMAND: \"jbd2/sda1-8\"\n #0 [ffffc90000a3fd10] __schedule at ffffffff81a0b2c4\n\nWhat does it wait for?" &&
	test "$(said vmcore)" = "user|forwarded" &&
	"$TRIAGE" explain "$T/vmcore.eml" >"$T/vmcore.out" &&
	grep -q "USER_VMCORE_ANALYSIS" "$T/vmcore.out" &&
	say culprit "ext4: orphan list on remount" \
		"Hello,\n\nsince commit 0123456789ab (\"ext4: rework orphan handling\") the orphan list is left as it was on remount." &&
	test "$(said culprit)" = "user|forwarded" &&
	"$TRIAGE" explain "$T/culprit.eml" >"$T/culprit.out" &&
	grep -q "USER_CULPRIT_IN_WORDS" "$T/culprit.out" &&
	say origin "ext4: orphan list on remount" \
		"Hello,\n\nthe orphan list code was introduced by commit 0123456789ab (\"ext4: rework orphan handling\"), and it is left as it was on remount." &&
	test "$(said origin)" = "user|held"
'

test_done
