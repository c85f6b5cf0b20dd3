#!/bin/sh
# t0250-filter: triage-filter's MTA contract (exit 0 or 75, silent stdout)
. "$(dirname "$0")/../lib.sh"
C="$SRC/tests/corpus/explain"
cat >"$T/routes.conf" <<CONF
state_dir = $T/state
maintainers = $SRC/tests/data/MAINTAINERS.kernel
rules_dir = $SRC/classifiers
router_address = triage@example.org
CONF
export TRIAGE_CONFIG="$T/routes.conf"
DB="$T/state/triage.db"
q() { sqlite3 "$DB" "$1"; }
# FWD: the outbox rows' messages as sent (schema 4: a forward keeps only
# its head and ends with the stored original)
FWD="select cast(o.message || coalesce(substr(m.raw, o.raw_offset + 1), x'') as blob) from outbox o left join messages m on m.report = o.raw_report"

test_expect_success 'a user report: exit 0, nothing on stdout, recorded and queued' '
	"$FILTER" <"$C/0001-user-xfs-oops.eml" >"$T/stdout" 2>"$T/stderr" &&
	test ! -s "$T/stdout" && test ! -s "$T/stderr" &&
	test "$(q "select class, state, section from reports")" = "user|forwarded|XFS FILESYSTEM" &&
	test "$(q "select kind, state, recipients from outbox")" = "forward|queued|xfs-triage@xfs.example.org" &&
	q "$FWD" >"$T/fwd" &&
	head -12 "$T/fwd" | grep -q "^Resent-To: xfs-triage@xfs.example.org" &&
	grep -q "^X-Triage-Class: user" "$T/fwd" &&
	grep -q "^X-Triage-Section: XFS FILESYSTEM" "$T/fwd" &&
	grep -q "^X-Loop: triage@example.org" "$T/fwd"
'

test_expect_success 'the forward is the original message after our block, its subject tagged' '
	python3 - "$DB" "$C/0001-user-xfs-oops.eml" "$FWD" <<-PY
	import re, sqlite3, sys
	fwd = sqlite3.connect(sys.argv[1]).execute(sys.argv[3]).fetchone()[0]
	fwd = fwd if isinstance(fwd, bytes) else fwd.encode()
	orig = open(sys.argv[2], "rb").read()
	# not DKIM-signed: only "[triage #1-TOKEN] " is added, after "Subject: "
	tok = re.search(rb"(?m)^Subject: \\[triage #1-([a-z2-7]{8})\\] ", fwd)
	assert tok, "no token in the subject tag"
	tagged = re.sub(rb"(?m)^(Subject: )",
			rb"\\1[triage #1-" + tok.group(1) + rb"] ", orig, count=1)
	assert tagged != orig, "no Subject in the test message"
	assert fwd.endswith(tagged), "body or headers changed"
	block = fwd[: len(fwd) - len(tagged)].decode()
	names = [l.split(":")[0] for l in block.splitlines() if l and not l[0].isspace()]
	assert names[:4] == ["Resent-Date", "Resent-From", "Resent-To", "Resent-Message-ID"], names
	assert "Auto-Submitted" in names and "X-Triage-Reason" in names, names
	assert "X-Triage-Report: 1" in block.splitlines(), block
	PY
'

test_expect_success 'the same bytes again are a redelivery, never a second forward' '
	"$FILTER" <"$C/0001-user-xfs-oops.eml" &&
	test "$(q "select count(*) from reports")" = 1 &&
	test "$(q "select deliveries from reports")" = 2 &&
	test "$(q "select count(*) from outbox")" = 1
'

test_expect_success 'other bytes with the same Message-ID are a duplicate' '
	sed "s/every night/every other night/" "$C/0001-user-xfs-oops.eml" >"$T/dup.eml" &&
	"$FILTER" <"$T/dup.eml" &&
	test "$(q "select state from reports where id = 2")" = duplicate &&
	test "$(q "select count(*) from outbox")" = 1
'

test_expect_success 'held and digested classes send nothing' '
	"$FILTER" <"$C/0002-ai-theoretical.eml" &&
	"$FILTER" <"$C/0003-syzbot-like.eml" &&
	test "$(q "select class || \" \" || state from reports where id > 2 order by id" | tr "\n" ,)" = "ai held,fuzzer digest," &&
	test "$(q "select count(*) from outbox")" = 1
'

test_expect_success 'mail carrying our X-Loop is held, not forwarded' '
	{ echo "X-Loop: triage@example.org" && sed "s/<0001.user-xfs@/<loop.user-xfs@/" "$C/0001-user-xfs-oops.eml"; } >"$T/loop.eml" &&
	"$FILTER" <"$T/loop.eml" &&
	test "$(q "select state from reports order by id desc limit 1")" = held &&
	q "select reason from decisions order by id desc limit 1" | grep -q "mail loop" &&
	test "$(q "select count(*) from outbox")" = 1
'

test_expect_success 'an mbox From_ line and the envelope from Postfix are taken' '
	{ echo "From reporter@example.com  Thu Dec  3 07:36:38 2026" && sed "s/<0006.unmapped@/<env.unmapped@/" "$C/0006-unmapped-question.eml"; } >"$T/mbox.eml" &&
	SENDER=reporter@example.com RECIPIENT=bugs@example.org "$FILTER" <"$T/mbox.eml" &&
	test "$(q "select envelope_from, envelope_to from reports order by id desc limit 1")" = "reporter@example.com|bugs@example.org"
'

test_expect_success 'an unwritable database directory defers: exit 75, one line' '
	mkdir -p "$T/ro" && chmod 0555 "$T/ro" &&
	sed "s|^state_dir = .*|state_dir = $T/ro/state|" "$T/routes.conf" >"$T/ro.conf" &&
	if [ "$(id -u)" = 0 ]; then
		# root ignores modes: make the path a file instead
		rmdir "$T/ro" && : >"$T/ro"
	fi &&
	test_exit 75 env -u TRIAGE_STATE_DIR "$FILTER" -c "$T/ro.conf" <"$C/0002-ai-theoretical.eml" >"$T/stdout" 2>"$T/stderr" &&
	test ! -s "$T/stdout" &&
	test "$(wc -l <"$T/stderr")" = 1 &&
	grep -q "^triage-filter: " "$T/stderr"
'

test_expect_success 'a broken configuration defers too (never a bounce)' '
	printf "roster \"unterminated\n" >"$T/bad.conf" &&
	test_exit 75 "$FILTER" -c "$T/bad.conf" <"$C/0002-ai-theoretical.eml" 2>"$T/stderr" &&
	test "$(wc -l <"$T/stderr")" = 1
'

test_expect_success 'a busy database defers within the busy timeout' '
	echo "db_busy_timeout = 200" >>"$T/routes.conf" &&
	python3 - "$DB" "$FILTER" "$C/0006-unmapped-question.eml" <<-PY
	import sqlite3, subprocess, sys
	db = sqlite3.connect(sys.argv[1], isolation_level=None)
	db.execute("BEGIN IMMEDIATE")
	with open(sys.argv[3], "rb") as f:
	    r = subprocess.run([sys.argv[2]], stdin=f, capture_output=True)
	db.execute("ROLLBACK")
	assert r.returncode == 75, r
	assert r.stdout == b"", r.stdout
	PY
'

# random bytes name nothing of the kernel (spam, recorded) unless a
# token happens to read as code (a report, held): never forwarded
# (a line of it that ends in "?" may make it a question that shows
# nothing of a system: a discussion, held all the same)
test_expect_success 'garbage input is still recorded, held or as spam' '
	head -c 3000 /dev/urandom >"$T/garbage" &&
	"$FILTER" <"$T/garbage" &&
	got=$(q "select kind, state from reports order by id desc limit 1") &&
	case "$got" in
	"report|held" | "discussion|held" | "spam|recorded") ;;
	*) echo "garbage: $got" && false ;;
	esac
'

test_expect_success 'an index this program refuses (before triage update): mapped from the text' '
	mkdir -p "$T/up" &&
	TRIAGE_STATE_DIR="$T/up" "$TRIAGE" update >/dev/null &&
	test -s "$T/up/maintainers.idx" &&
	# format 2 at byte 8, as in an index written by an older triage
	printf "\002" | dd of="$T/up/maintainers.idx" bs=1 seek=8 conv=notrunc 2>/dev/null &&
	TRIAGE_STATE_DIR="$T/up" "$FILTER" <"$C/0001-user-xfs-oops.eml" >"$T/stdout" 2>"$T/stderr" &&
	test ! -s "$T/stdout" &&
	grep -q "maintainers.idx.*triage update" "$T/stderr" &&
	test "$(sqlite3 "$T/up/triage.db" "select state, section from reports")" = "forwarded|XFS FILESYSTEM"
'

# no_report FROM ID: a new message that says something went wrong and
# shows nothing else: no crash, no sign of the sender's own machine
no_report() {
	printf "From: %s\nTo: bugs@example.org\nSubject: ext4: regression in 6.13 with large directories\nMessage-ID: <%s@example.com>\nDate: Mon, 30 Nov 2026 09:00:00 +0000\n\nLookups in big ext4 directories are broken by the htree change.\n" \
		"$1" "$2" >"$T/$2.eml" &&
	"$FILTER" <"$T/$2.eml"
}

test_expect_success 'no sign of a bug anyone hit: held for a triager, unless a MAINTAINERS person says so' '
	no_report "Some One <someone@users.example>" stranger &&
	test "$(q "select class, state from reports where message_id = \"stranger@example.com\"")" = "user|held" &&
	q "select d.reason from decisions d join reports r on r.id = d.report where r.message_id = \"stranger@example.com\"" |
		grep -q "^no sign of a bug anyone hit" &&
	no_report "Bea Blue <bea@bt.example.org>" developer &&
	test "$(q "select class, state from reports where message_id = \"developer@example.com\"")" = "user|forwarded"
'

test_expect_success 'a stranger whose subject states the problem and whose text names the code is not held for want of signs' '
	printf "From: Tess Terse <tess@users.example>\nTo: bugs@example.org\nSubject: ext4: htree lookups broken in 6.13\nMessage-ID: <terse@example.com>\nDate: Mon, 30 Nov 2026 09:05:00 +0000\n\nSince the htree change in fs/ext4/namei.c lookups in big directories miss entries.\n" >"$T/terse.eml" &&
	"$FILTER" <"$T/terse.eml" &&
	test "$(q "select class, state from reports where message_id = \"terse@example.com\"")" = "user|forwarded" &&
	printf "From: Tess Terse <tess@users.example>\nTo: bugs@example.org\nSubject: ext4: htree lookups in 6.13\nMessage-ID: <terse2@example.com>\nDate: Mon, 30 Nov 2026 09:06:00 +0000\n\nSince the htree change in fs/ext4/namei.c lookups in big directories miss entries.\n" >"$T/terse2.eml" &&
	"$FILTER" <"$T/terse2.eml" &&
	test "$(q "select class, state from reports where message_id = \"terse2@example.com\"")" = "user|held"
'

# say ID SUBJECT BODY: a stranger's new message to the ext4 list, no user
# rule's sign in it
say() {
	printf "From: Kai Kernel <kai@users.example>\nTo: bugs@example.org\nCc: linux-ext4@vger.kernel.org\nSubject: %s\nMessage-ID: <%s@example.com>\nDate: Mon, 30 Nov 2026 09:10:00 +0000\n\n%b\n" \
		"$2" "$1" "$3" >"$T/$1.eml" &&
	"$FILTER" <"$T/$1.eml"
}
said() { q "select class || \"|\" || state from reports where message_id = \"$1@example.com\""; }

test_expect_success 'a subject that says something failed, a text that tells it: not held for want of signs' '
	say fails "ext4: online resize fails on a 2 TiB volume" \
		"Hello,\n\nresize2fs on the mounted volume stops half way. We hit it on two machines: the resize fails every time.\n\nThe same resize offline works." &&
	test "$(said fails)" = "user|forwarded" &&
	say since "Since 6.18.x e2fsck finds orphan inodes at every boot" \
		"Hello,\n\nwe see e2fsck fix the ext4 orphan list on the root volume, and entries are missing." &&
	test "$(said since)" = "user|forwarded" &&
	say tagged "[BUG] ext4: orphan list not cleared on remount" \
		"If the orphan file feature is off, remount leaves the list as it was." &&
	test "$(said tagged)" = "user|forwarded" &&
	say topic "ext4: issues with quota on big volumes" \
		"Hello,\n\nI see one problem in planning ext4 quotas for a cluster of big volumes." &&
	test "$(said topic)" = "user|held" &&
	say untold "ext4: online resize fails on a 2 TiB volume" \
		"Hello,\n\nresize2fs on the mounted ext4 volume stops half way, and the same resize offline works." &&
	test "$(said untold)" = "user|held" &&
	say payment "Payment failed - action required" \
		"Dear customer, your payment failed. Please confirm your card at our portal today." &&
	test "$(said payment)" = "user|held" &&
	q "select d.reason from decisions d join reports r on r.id = d.report where r.message_id = \"payment@example.com\"" |
		grep -q "^no sign of a bug anyone hit"
'

# bz ID FROM SUBJECT [HEADER]: a phishing text to the ext4 list under a
# Bugzilla's subject, From FROM
bz() {
	printf "From: %s\nTo: bugs@example.org\nCc: linux-ext4@vger.kernel.org\nSubject: %s\nMessage-ID: <%s@example.com>\nDate: Mon, 30 Nov 2026 09:20:00 +0000\n%s\n\nDear customer, your payment failed. Please confirm your card at our portal today.\n" \
		"$2" "$3" "$1" "${4:-X-Mailer: composed}" >"$T/$1.eml" &&
	"$FILTER" <"$T/$1.eml"
}

test_expect_success 'a "[Bug N] New:" subject or an X-Bugzilla header from a stranger is no bug filed in a tracker' '
	bz bzsubj "Mallory <mallory@users.example>" "[Bug 9] New: Payment failed - action required" &&
	test "$(said bzsubj)" = "user|held" &&
	q "select d.reason from decisions d join reports r on r.id = d.report where r.message_id = \"bzsubj@example.com\"" |
		grep -q "^no sign of a bug anyone hit" &&
	bz bzhead "Mallory <mallory@users.example>" "New: Payment failed - action required" "X-Bugzilla-Type: new" &&
	test "$(said bzhead)" = "user|held" &&
	bz bzdaemon "bugzilla-daemon@kernel.org" "[Bug 9] New: Payment failed - action required" &&
	test "$(said bzdaemon)" = "user|forwarded"
'

# ask ID SUBJECT BODY: a stranger's new message whose subject asks
ask() {
	printf "From: Ann Asker <ann@users.example>\nTo: bugs@example.org\nSubject: %s\nMessage-ID: <%s@example.com>\nDate: Mon, 30 Nov 2026 09:30:00 +0000\n\n%b\n" \
		"$2" "$1" "$3" >"$T/$1.eml" &&
	"$FILTER" <"$T/$1.eml"
}

test_expect_success 'a question is held, unless it shows the asker'\''s machine (log and kernel) or own system' '
	ask weakq "ext4: lookups in big directories crawl on 6.12, expected?" \
		"Lookups in big directories take seconds on Debian.\n\n[  812.104211] EXT4-fs (sda2): mounted filesystem with ordered data mode.\n[ 9120.551001] EXT4-fs warning (device sda2): ext4_dx_add_entry: Directory index full!\n\nIs that expected?" &&
	test "$(q "select class, state from reports where message_id = \"weakq@example.com\"")" = "user|held" &&
	q "select d.reason from decisions d join reports r on r.id = d.report where r.message_id = \"weakq@example.com\"" |
		grep -q "^no sign of a bug anyone hit" &&
	ask plain "ext4: lookups in big directories crawl on 6.12" \
		"Lookups in big directories take seconds on Debian.\n\n[  812.104211] EXT4-fs (sda2): mounted filesystem with ordered data mode.\n[ 9120.551001] EXT4-fs warning (device sda2): ext4_dx_add_entry: Directory index full!\n\nIs that expected." &&
	test "$(q "select state from reports where message_id = \"plain@example.com\"")" = "forwarded" &&
	ask strongq "ext4: lookups in big directories crawl on 6.12, expected?" \
		"Lookups in big directories take seconds on this box.\n\nLinux nas 6.12.9-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.12.9-1 x86_64 GNU/Linux\n\n[  812.104211] EXT4-fs (sda2): mounted filesystem with ordered data mode.\n[ 9120.551001] EXT4-fs warning (device sda2): ext4_dx_add_entry: Directory index full!\n\nIs that expected?" &&
	test "$(q "select state from reports where message_id = \"strongq@example.com\"")" = "forwarded" &&
	printf "From: Sam Seer <sam@users.example>\nTo: bugs@example.org\nSubject: ext4: lookups broken in big directories\nMessage-ID: <seer@example.com>\nDate: Mon, 30 Nov 2026 09:40:00 +0000\n\nI am seeing failed lookups in big ext4 directories since the htree change.\n" >"$T/seer.eml" &&
	"$FILTER" <"$T/seer.eml" &&
	test "$(q "select class, state from reports where message_id = \"seer@example.com\"")" = "user|forwarded"
'

test_expect_success 'a question that pastes the kernel'\''s log (three lines or more) is not held for want of signs' '
	ask logq "ext4: critical target error?" \
		"After a reboot I found in kern.log:\n\n2026-02-05 14:56:44 kernel: sd 3:0:0:0: [sdg] tag#88 FAILED Result: hostbyte=DID_OK\n2026-02-05 14:56:44 kernel: sd 3:0:0:0: [sdg] tag#88 Sense Key : Illegal Request\n2026-02-05 14:56:44 kernel: critical target error, dev sdg, sector 27160 op 0x3:(DISCARD)\n\nA media error is implausible on this virtual disk. Maybe an ext4 problem?" &&
	test "$(q "select class, state from reports where message_id = \"logq@example.com\"")" = "user|forwarded" &&
	ask logq2 "ext4: critical target error?" \
		"After a reboot I found in kern.log:\n\n2026-02-05 14:56:44 kernel: sd 3:0:0:0: [sdg] tag#88 FAILED Result: hostbyte=DID_OK\n2026-02-05 14:56:44 kernel: critical target error, dev sdg, sector 27160 op 0x3:(DISCARD)\n\nA media error is implausible on this virtual disk. Maybe an ext4 problem?" &&
	test "$(q "select class, state from reports where message_id = \"logq2@example.com\"")" = "user|held"
'

test_expect_success 'a question whose writer tells a failure on a system they show is not held; a how-to question is' '
	ask toldq "ext4: root mount hangs at boot, any idea?" \
		"Hello,\n\nI run kernel 6.19.2 on my board, and since yesterday the ext4 root mount is not working: mount waits forever.\n\nWhat should I try next?" &&
	test "$(said toldq)" = "user|forwarded" &&
	"$TRIAGE" explain "$T/toldq.eml" >"$T/toldq.out" &&
	grep -q "^told      the writer tells a failure (not working) on kernel 6.19.2" "$T/toldq.out" &&
	ask nosys "ext4: root mount hangs at boot, any idea?" \
		"Hello,\n\nI see that the ext4 root mount is not working: mount waits forever.\n\nWhat should I try next?" &&
	test "$(said nosys)" = "user|held" &&
	ask howto "ext4: casefold conversion of a mounted volume, how?" \
		"Hello,\n\nI run kernel 6.19.2 on my board. Would tune2fs fail on the mounted root volume, or must I unmount it first? I want no errors at the next boot.\n\nThanks." &&
	test "$(said howto)" = "user|held" &&
	q "select d.reason from decisions d join reports r on r.id = d.report where r.message_id = \"howto@example.com\"" |
		grep -q "^no sign of a bug anyone hit" &&
	"$TRIAGE" explain "$T/howto.eml" >"$T/howto.out" &&
	! grep -q "^told" "$T/howto.out"
'

# model_only_user JSON: explain --json says user, and only the model's
# pseudo-rules (MODEL_USER_*) fired
model_only_user() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
names = [r["name"] for r in d["rules"] or []]
assert d["class"] == "user", d["class"]
assert names and all(n.startswith("MODEL_USER_") for n in names), names' "$1"
}

# plan N (1-11): a stranger's plan for ext4, no sign of a bug; each from
# another person (name and address), so that the model's calibration on
# author-grouped folds sees the plans of authors it was not trained on
# scored as plans (one author for all: the fold that holds them out has
# no user example, and a model scored as it is trained votes nothing)
plan() {
	printf "From: %s Planner <pat%s@users.example>\nTo: bugs@example.org\nSubject: ext4: journal layout for our cluster %s\nMessage-ID: <plan%s@example.com>\nDate: Mon, 30 Nov 2026 10:00:00 +0000\n\nThe cluster runs ext4 with an external journal on nvme devices.\nThe journal is one nvme for six disks, with data=ordered.\nMirroring the journal device as well is the plan.\n" \
		"$(echo Ada Bea Cal Dee Eli Fay Gil Hal Ida Jon Kit | cut -d" " -f"$1")" \
		"$1" "$1" "$1"
}

test_expect_success 'the model'\''s vote alone is no sign of a bug: such a message is held' '
	for c in fuzzer ai; do
		mkdir -p "$T/plans/$c" &&
		for f in "$SRC/tests/corpus/classify/$c"/*.eml; do
			b=$(basename "$f" .eml) &&
			cp "$f" "$T/plans/$c/$b.eml" &&
			sed "s/^\(Message-I[Dd]: *<\)/\1copy-/" "$f" >"$T/plans/$c/$b-copy.eml" || return 1
		done || return 1
	done &&
	mkdir -p "$T/plans/user" &&
	for i in 1 2 3 4 5 6 7 8 9 10; do
		plan "$i" >"$T/plans/user/p$i.eml" || return 1
	done &&
	"$TRIAGE" train --dir "$T/plans" --output "$T/state/model.bin" --no-cv >"$T/out" &&
	plan 11 >"$T/plan.eml" &&
	"$TRIAGE" explain --json "$T/plan.eml" >"$T/explain.json" &&
	model_only_user "$T/explain.json" &&
	"$FILTER" <"$T/plan.eml" &&
	test "$(q "select class, state from reports where message_id = \"plan11@example.com\"")" = "user|held" &&
	q "select d.reason from decisions d join reports r on r.id = d.report where r.message_id = \"plan11@example.com\"" |
		grep -q "^no sign of a bug anyone hit" &&
	rm "$T/state/model.bin" "$T/state/model.bin.sources"
'

test_done
