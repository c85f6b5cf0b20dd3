#!/bin/sh
# t0700-desk: the triager's desk on a real database
#
# The database is built by running the real triage-filter over the
# messages in tests/corpus/desk (a user report, an AI-style one, syzbot
# reports, an unmapped one, a duplicate, one whose delivery fails, one
# with terminal escapes), with a fake sendmail that records what it is
# given.  Then pending, show, approve, reroute, reclassify, reject,
# note, stats, log and digest are run and compared with the expected
# files there (git's t5100 style); --json output is parsed and checked.
#
# The filter and the outbox stamp the wall clock; the desk commands read
# TRIAGE_NOW.  So the test says when each report arrived ('arrive') and
# pins what the wall clock stamped ('settle') with sqlite3, and runs the
# commands at fixed times: ages and dates in the expected files do not
# depend on the day the test runs.
. "$(dirname "$0")/../lib.sh"
. "$SRC/tests/cli/lib-tmux.sh"

D="$SRC/tests/corpus/desk"
SQ="'"
DB="$T/state/triage.db"
export TZ=UTC TRIAGE_USER=alice
unset NO_COLOR PAGER
NOW=1704283200 # 2024-01-03 12:00:00 UTC
CLOCK=$((NOW + 7 * 86400)) # later than this: stamped by the wall clock

for tool in sqlite3 python3; do
	if ! command -v $tool >/dev/null; then
		test_skip "$tool is not installed: the desk is not tested"
		test_done
	fi
done

cat >"$T/routes.conf" <<EOF
state_dir = $T/state
maintainers = $D/MAINTAINERS
rules_dir = $SRC/classifiers
router_address = triage@router.example
roster "XFS FILESYSTEM" alice@xfs.example bob@xfs.example class=user,ai,uncertain
roster "XFS FILESYSTEM" fuzz@xfs.example class=fuzzer
cap * day=5 week=20
cap alice@xfs.example day=2
transport = sendmail
sendmail_path = $T/sendmail
db_busy_timeout = 200
# AddressSanitizer reserves terabytes of address space: a limit on it
# (RLIMIT_AS) makes a sanitized filter fail (make SANITIZE=...).
filter_memory_mb = 0
EOF

# The fake sendmail: argv and message of call N in $T/mail/N.argv and
# N.msg; tess@ext4.example does not exist (exit 67, EX_NOUSER).
mkdir "$T/mail"
cat >"$T/sendmail" <<EOF
#!/bin/sh
n=\$(ls "$T/mail" | grep -c 'msg\$')
n=\$((n + 1))
printf '%s\n' "\$@" >"$T/mail/\$n.argv"
cat >"$T/mail/\$n.msg"
for a; do
	[ "\$a" = tess@ext4.example ] && { echo "tess: user unknown"; exit 67; }
done
exit 0
EOF
chmod +x "$T/sendmail"

# run CMD... at TIME (unix seconds)
at() {
	when=$1 &&
	shift &&
	TRIAGE_NOW=$when "$@"
}

sql() {
	sqlite3 "$DB" "$1"
}

# arrive ID TIME - report ID arrived at TIME, as did its first decisions
arrive() {
	sql "UPDATE reports SET received_at = $2, updated_at = $2 WHERE id = $1;
	UPDATE decisions SET at = $2 WHERE report = $1;
	UPDATE classification SET classified_at = $2 WHERE report = $1;
	UPDATE delivery_attempts SET at = $2
	  WHERE outbox IN (SELECT id FROM outbox WHERE report = $1);
	UPDATE outbox SET created_at = $2, next_attempt_at = $2,
	  sent_at = CASE WHEN sent_at IS NULL THEN NULL ELSE $2 END
	  WHERE report = $1;"
}

# settle TIME - what the wall clock stamped happened at TIME
settle() {
	sql "UPDATE delivery_attempts SET at = $1 WHERE at > $CLOCK;
	UPDATE outbox SET sent_at = $1 WHERE sent_at > $CLOCK;
	UPDATE outbox SET next_attempt_at = $1 WHERE next_attempt_at > $CLOCK;
	UPDATE reports SET updated_at = $1 WHERE updated_at > $CLOCK;"
}

# json FILE PYTHON - parse FILE as JSON into j, then run the assertions
json() {
	python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
exec(sys.argv[2])' "$1" "$2"
}

# mail N - the Nth message the fake sendmail got
mail() {
	cat "$T/mail/$1.msg"
}

# headers FILE - the header block of a message, folded lines joined
headers() {
	sed '/^$/q' "$1" | sed -e :a -e '$!N;s/\n[ \t]/ /;ta' -e 'P;D' | sed '/^$/d'
}

# When each report arrived: 2024-01-01 .. 2024-01-03 (UTC).
ARRIVALS="1:1704099600 2:1704103200 3:1704088800 4:1704193200
5:1704196800 6:1704218400 7:1704099900 8:1704268800 9:1704272400
10:1704280500 11:1704282600 12:1704276000"

test_expect_success 'the filter records the corpus' '
	"$TRIAGE" update >"$T/update.out" &&
	for f in "$D"/*.eml; do
		"$FILTER" <"$f" || { echo "filter failed on $f"; return 1; }
	done &&
	for a in $ARRIVALS; do
		arrive ${a%%:*} ${a#*:} || return 1
	done &&
	settle $((NOW - 3600)) &&
	test "$(sql "SELECT count(*) FROM reports")" = 12 &&
	sql "SELECT id, state, coalesce(class, \"-\"), coalesce(section, \"-\") FROM reports
	     ORDER BY id" >"$T/states" &&
	cat >"$T/expect" <<-EOF &&
	1|forwarded|user|XFS FILESYSTEM
	2|held|ai|XFS FILESYSTEM
	3|digest|fuzzer|XFS FILESYSTEM
	4|digest|fuzzer|XFS FILESYSTEM
	5|digest|fuzzer|XFS FILESYSTEM
	6|held|user|-
	7|duplicate|-|-
	8|failed|user|EXT4 FILE SYSTEM
	9|forwarded|user|XFS FILESYSTEM
	10|held|fuzzer|-
	11|held|user|-
	12|held|ai|-
	EOF
	test_cmp "$T/expect" "$T/states"
'

# The classifier's confidence in a report depends on the rules of the day:
# stable_pct writes its digits as 9s (keeping the width) and stable_class
# drops the scores and rules, where the rules are not what is tested.
stable_pct() {
	sed -e :a -e "s/\( [0-9]*\)[0-8]\([0-9]*%\)/\19\2/" -e ta
}

# stable_class - show without the scores and the rules that fired
stable_class() {
	sed -e "/^header /d" -e "/^rules /,/^sections /{/^sections /!d;}" \
		-e "s/^\(class     [a-z]*\) .*/\1 .../" \
		-e "s/attempts*, [0-9]* bytes\$/attempt, N bytes/"
}

test_expect_success 'pending: what waits, oldest first, tab-separated' '
	at $NOW "$TRIAGE" pending >"$T/out" &&
	stable_pct <"$T/out" >"$T/actual" &&
	test_cmp "$D/pending.expect" "$T/actual"
'

test_expect_success 'pending: --class, --section (any case), --unmapped' '
	at $NOW "$TRIAGE" pending --class ai >"$T/out" &&
	cut -f1 "$T/out" | paste -sd " " >"$T/ai" &&
	echo "2 12" >"$T/expect" && test_cmp "$T/expect" "$T/ai" &&
	at $NOW "$TRIAGE" pending --section "ext4 file system" >"$T/out" &&
	cut -f1 "$T/out" >"$T/ext4" &&
	echo 8 >"$T/expect" && test_cmp "$T/expect" "$T/ext4" &&
	at $NOW "$TRIAGE" pending --unmapped >"$T/out" &&
	cut -f1 "$T/out" | paste -sd " " >"$T/unmapped" &&
	echo "6 12 10 11" >"$T/expect" && test_cmp "$T/expect" "$T/unmapped" &&
	test_exit 64 "$TRIAGE" pending --class nonsense
'

test_expect_success 'pending --json' '
	at $NOW "$TRIAGE" pending --json >"$T/pending.json" &&
	json "$T/pending.json" "
assert [r[\"id\"] for r in j] == [2, 6, 8, 12, 10, 11], j
r = j[0]
assert r[\"state\"] == \"held\" and r[\"class\"] == \"ai\", r
assert r[\"section\"] == \"XFS FILESYSTEM\" and r[\"age\"] == $NOW - 1704103200
assert 0.5 < r[\"confidence\"] <= 1
assert j[1][\"section\"] is None and j[1][\"class\"] == \"user\"
assert j[2][\"state\"] == \"failed\" and \"EX_NOUSER\" in j[2][\"last_error\"]
assert j[4][\"reason\"].startswith(\"fuzzer: no subsystem found\")
"
'

# The parser already turns C0 controls into U+FFFD; a right-to-left
# override (U+202E), which would show "exe.txt" reversed, is for the desk
# to replace.
test_expect_success 'pending, show: untrusted text never reaches the terminal raw' '
	esc=$(printf "\033") && rlo=$(printf "\342\200\256") &&
	at $NOW "$TRIAGE" pending >"$T/plain" &&
	! grep -q "$esc" "$T/plain" && ! grep -q "$rlo" "$T/plain" &&
	grep "^11" "$T/plain" | grep -q "umount .*pwned.* ?txt\.exe" &&
	at $NOW "$TRIAGE" show 11 >"$T/show11" &&
	! grep -q "$esc" "$T/show11" && ! grep -q "$rlo" "$T/show11" &&
	grep -q "^subject   machine hangs on umount .* ?txt\.exe\$" "$T/show11" &&
	at $NOW "$TRIAGE" pending --color=always >"$T/colored" &&
	grep -q "$(printf "^\033\\[33m2\033\\[m\t2d\t\033\\[35mai")" "$T/colored"
'

# The desk on a terminal: tmux, as a triager reads it, at 160 and 80
# columns.  ESC is what a colour, an injected sequence, starts with.
ESC=$(printf "\033")

# plain - the screen without its colours
plain() {
	sed "s/$ESC\[[0-9;]*m//g"
}

# widest FILE - the widest line, in characters
widest() {
	python3 -c "import sys
print(max(len(l.rstrip(\"\\n\")) for l in open(sys.argv[1], encoding=\"utf-8\")))" "$1"
}

if tmux_available; then
test_setup 'a terminal: a tmux server of the test'"'"'s own' '
	tmux_start
'

test_expect_success 'pending on a terminal: a header, a WHY column, cut to its width, coloured (not with NO_COLOR, --no-color, TERM=dumb)' '
	for run in 160:xterm-256color 80:screen; do
		cols=${run%:*} &&
		tmux_cmd $cols "$T/tty$cols" PAGER=cat TERM=${run#*:} \
			TRIAGE_NOW=$NOW -- "$TRIAGE" pending &&
		grep -q "$ESC\[" "$T/tty$cols" &&
		plain <"$T/tty$cols" | stable_pct >"$T/actual" &&
		test_cmp "$D/pending-tty$cols.expect" "$T/actual" &&
		head -1 "$T/actual" | grep -q "^ID  AGE  CLASS .* WHY\$" &&
		test "$(widest "$T/actual")" -lt $cols || return 1
	done &&
	tmux_cmd 80 "$T/nocolor" PAGER=cat NO_COLOR=1 TRIAGE_NOW=$NOW -- "$TRIAGE" pending &&
	! grep -q "$ESC" "$T/nocolor" &&
	tmux_cmd 80 "$T/tty3" PAGER=cat TRIAGE_NOW=$NOW -- "$TRIAGE" pending --no-color &&
	! grep -q "$ESC" "$T/tty3" &&
	test_cmp "$T/nocolor" "$T/tty3" &&
	tmux_cmd 80 "$T/dumb" PAGER=cat TERM=dumb TRIAGE_NOW=$NOW -- "$TRIAGE" pending &&
	! grep -q "$ESC" "$T/dumb" &&
	test_cmp "$T/nocolor" "$T/dumb"
'

test_expect_success 'the pager: only on a terminal, not with --no-pager' '
	tmux_cmd 80 "$T/screen" PAGER="cat >\"$T/paged\"" TRIAGE_NOW=$NOW -- \
		"$TRIAGE" pending --no-color --no-pager &&
	test ! -e "$T/paged" &&
	head -1 "$T/screen" | grep -q "^ID  AGE  CLASS " &&
	mv "$T/screen" "$T/unpaged" &&
	tmux_cmd 80 "$T/screen" PAGER="cat >\"$T/paged\"" TRIAGE_NOW=$NOW -- \
		"$TRIAGE" pending --no-color &&
	test_cmp "$T/unpaged" "$T/paged" &&
	test ! -s "$T/screen" &&
	PAGER="cat >\"$T/paged2\"" at $NOW "$TRIAGE" pending >"$T/piped" &&
	test ! -e "$T/paged2"
'

# Report 11's subject carries ESC [2J (clear the screen), ESC ]0;pwned
# BEL (set the terminal's title) and a right-to-left override: on the
# screen they are shown as text, none of them done.
test_expect_success 'a hostile subject on a terminal: shown, not obeyed' '
	for cmd in "pending" "show 11"; do
		tmux_run hostile 160 PAGER=cat TRIAGE_NOW=$NOW -- "$TRIAGE" $cmd &&
		tmux_wait_exit hostile &&
		test "$(tmux_status hostile)" = 0 &&
		tmux_capture hostile -e >"$T/hostile" &&
		title=$(tmux_title hostile) &&
		tmux_kill hostile &&
		test "$title" != pwned &&
		grep -q "machine hangs on umount �\[2J�\]0;pwned� ?txt\.exe" "$T/hostile" &&
		plain <"$T/hostile" >"$T/hostile.plain" &&
		! grep -q "$ESC" "$T/hostile.plain" || return 1
	done &&
	tmux_cmd 160 "$T/hostile" PAGER=cat NO_COLOR=1 TRIAGE_NOW=$NOW -- "$TRIAGE" show 11 &&
	! grep -q "$ESC" "$T/hostile" &&
	grep -q "^subject   machine hangs on umount �\[2J�\]0;pwned� ?txt\.exe\$" "$T/hostile"
'
else
	test_skip "tmux is not installed: the desk on a terminal is not tested"
fi

test_expect_success 'show: the whole decision, then the text' '
	at $NOW "$TRIAGE" show 3 >"$T/actual" &&
	test_cmp "$D/show-3.expect" "$T/actual" &&
	at $NOW "$TRIAGE" show "#8" >"$T/out" &&
	stable_class <"$T/out" >"$T/actual" &&
	test_cmp "$D/show-8.expect" "$T/actual"
'

test_expect_success 'show --raw: the message byte for byte' '
	"$TRIAGE" show --raw 2 >"$T/raw" &&
	cmp "$D/02-ai-xfs.eml" "$T/raw" &&
	"$TRIAGE" show --raw 11 >"$T/raw" &&
	cmp "$D/11-escape.eml" "$T/raw"
'

test_expect_success 'show --json' '
	at $NOW "$TRIAGE" show --json 2 >"$T/show.json" &&
	json "$T/show.json" "
assert j[\"id\"] == 2 and j[\"state\"] == \"held\" and j[\"class\"] == \"ai\"
c = j[\"classification\"]
assert c[\"class\"] == \"ai\" and c[\"scores\"][\"ai\"] >= 5, c
assert c[\"header\"].startswith(\"ai; score=\"), c
assert any(h[\"name\"] == \"AI_CVSS_TEMPLATE\" for h in c[\"rules\"])
assert j[\"sections\"][0][\"name\"] == \"XFS FILESYSTEM\"
assert j[\"sections\"][0][\"why\"] == \"subject prefix \\\"xfs:\\\" 0.60; path named in text: fs/xfs/libxfs/xfs_attr_leaf.c 0.40\"
d = j[\"decisions\"]
assert len(d) == 1 and d[0][\"action\"] == \"hold\"
chosen = [x for x in d[0][\"candidates\"] if x[\"status\"] == \"chosen\"]
assert [x[\"address\"] for x in chosen] == [\"bob@xfs.example\"], d
assert {\"status\": \"not needed\"}.items() <= d[0][\"candidates\"][-1].items()
assert j[\"outbox\"] == [] and j[\"actions\"] == []
assert \"## Root Cause\" in j[\"body\"]
assert j[\"evidence\"][\"crash_type\"] is None
" &&
	at $NOW "$TRIAGE" show --json 3 >"$T/show3.json" &&
	json "$T/show3.json" "
e = j[\"evidence\"]
assert e[\"title\"] == \"KASAN: slab-use-after-free Read in xfs_buf_item_unpin\"
assert e[\"guilty_file\"] == \"fs/xfs/xfs_buf_item.c\"
assert e[\"frames\"][4][\"function\"] == \"xfs_buf_item_unpin\"
assert j[\"classification\"][\"certain\"] is True
"
'

test_expect_success 'show: unknown id 66, not an id 64, no database 66' '
	test_exit 66 "$TRIAGE" show 999 2>"$T/err" &&
	grep -q "no report 999" "$T/err" &&
	test_exit 64 "$TRIAGE" show abc &&
	test_exit 64 "$TRIAGE" show &&
	TRIAGE_STATE_DIR="$T/empty" test_exit 66 "$TRIAGE" show 1 2>"$T/err" &&
	grep -q "no database" "$T/err"
'

A1=$((NOW + 600)) # 12:10, the triager at work
test_expect_success 'approve: forward a held report now (sendmail transport)' '
	at $A1 "$TRIAGE" approve 2 >"$T/actual" &&
	settle $A1 &&
	test_cmp "$D/approve.expect" "$T/actual" &&
	n=$(ls "$T/mail" | grep -c msg) &&
	printf "%s\n" -i -f triage@router.example -- bob@xfs.example \
		>"$T/expect" &&
	test_cmp "$T/expect" "$T/mail/$n.argv" &&
	headers "$T/mail/$n.msg" | grep -E "^(Resent-|X-)" |
		grep -v "^Resent-Message-ID" >"$T/hdrs" &&
	grep -q "^X-Triage-Class: ai; score=[0-9.]*; rules=\(MODEL_AI_[0-9]*,\)\{0,1\}AI_" "$T/hdrs" &&
	grep -v "^X-Triage-Class" "$T/hdrs" >"$T/actual" &&
	test_cmp "$D/approve-headers.expect" "$T/actual" &&
	sed "1,/^X-Triage-Report/d" "$T/mail/$n.msg" |
		sed "/^[ \t]/d" >"$T/forwarded" &&
	tok=$(sed -n "s/^Subject: \[triage #2-\([a-z2-7]\{8\}\)\] .*/\1/p" "$T/forwarded") &&
	test -n "$tok" &&
	sed "s/^Subject: /&[triage #2-$tok] /" "$D/02-ai-xfs.eml" >"$T/tagged" &&
	cmp "$T/tagged" "$T/forwarded" &&
	test "$(sql "SELECT state FROM reports WHERE id = 2")" = approved &&
	test "$(sql "SELECT who || \" \" || action || \" \" || previous || \" \" || at
		     FROM actions WHERE report = 2")" = "alice approve held $A1"
'

test_expect_success 'approve: refused for a duplicate, an unmapped report, a forwarded one' '
	test_exit 65 at $A1 "$TRIAGE" approve 7 2>"$T/err" &&
	grep -q "approve 7: a duplicate of report 1; approve that one" "$T/err" &&
	test_exit 65 at $A1 "$TRIAGE" approve 6 2>"$T/err" &&
	grep -q "nobody to send it to (unmapped); use --to ADDR" "$T/err" &&
	test_exit 65 at $A1 "$TRIAGE" approve 1 2>"$T/err" &&
	grep -q "already forwarded to alice@xfs.example" "$T/err" &&
	test_exit 64 "$TRIAGE" approve &&
	test_exit 64 "$TRIAGE" approve two &&
	test_exit 64 "$TRIAGE" approve --to "bad address" 6 &&
	test "$(sql "SELECT count(*) FROM actions")" = 1
'

test_expect_success 'approve: several ids, one unknown: the rest done, exit 66' '
	test_exit 66 at $A1 "$TRIAGE" approve --to noor-help@usb.example \
		999 6 >"$T/out" 2>"$T/err" &&
	settle $A1 &&
	grep -q "approve 999: no such report" "$T/err" &&
	grep -q "^approve 6: forwarded to noor-help@usb.example (was held; outbox" "$T/out" &&
	test "$(sql "SELECT state FROM reports WHERE id = 6")" = approved
'

A2=$((NOW + 1200))
test_expect_success 'approve a failed delivery: sent again, fails again, shows in pending' '
	at $A2 "$TRIAGE" approve 8 >"$T/actual" &&
	settle $A2 &&
	cat >"$T/expect" <<-EOF &&
	approve 8: sending outbox 2 to tess@ext4.example again
	sendmail: 0 sent, 0 to retry, 1 failed
	EOF
	test_cmp "$T/expect" "$T/actual" &&
	at $A2 "$TRIAGE" pending >"$T/out" &&
	cut -f1,3 "$T/out" | grep "^8" >"$T/p8" &&
	printf "8\tfailed\n" >"$T/expect" && test_cmp "$T/expect" "$T/p8" &&
	at $A2 "$TRIAGE" approve --to omar-fix@ext4.example 8 >"$T/actual" &&
	settle $A2 &&
	grep -q "^approve 8: forwarded to omar-fix@ext4.example (was failed; outbox" \
		"$T/actual" &&
	at $A2 "$TRIAGE" pending >"$T/out" &&
	! grep -q "^8" "$T/out"
'

A3=$((NOW + 1800))
test_expect_success 'reroute to a section: picked as for that section' '
	at $A3 "$TRIAGE" reroute 11 "usb subsystem" >"$T/actual" &&
	settle $A3 &&
	test_cmp "$D/reroute.expect" "$T/actual" &&
	n=$(ls "$T/mail" | grep -c msg) &&
	headers "$T/mail/$n.msg" | grep "^X-Triage-" >"$T/hdrs" &&
	grep -q "^X-Triage-Class: user; score=" "$T/hdrs" &&
	grep -v "^X-Triage-Class" "$T/hdrs" >"$T/actual" &&
	cat >"$T/expect" <<-EOF &&
	X-Triage-Section: USB SUBSYSTEM
	X-Triage-Reason: rerouted by alice to USB SUBSYSTEM; B: mailto: triager for USB SUBSYSTEM; usb-bugs@usb.example at 0/5 today, 0/20 this week
	X-Triage-Archive: https://lore.kernel.org/r/desk-11-escape@users.example
	X-Triage-Report: 11
	EOF
	test_cmp "$T/expect" "$T/actual" &&
	test "$(sql "SELECT state FROM reports WHERE id = 11")" = forwarded
'

test_expect_success 'reclassify: a correction, with the next step for waiting reports' '
	at $A3 "$TRIAGE" reclassify 12 5 user >"$T/actual" &&
	test_cmp "$D/reclassify.expect" "$T/actual" &&
	test_exit 64 "$TRIAGE" reclassify 12 uncertain &&
	test_exit 64 "$TRIAGE" reclassify 12 &&
	test_exit 66 at $A3 "$TRIAGE" reclassify 999 ai &&
	test "$(sql "SELECT state FROM reports WHERE id = 12")" = held &&
	sql "SELECT r.id, c.class, r.class FROM reports r JOIN classification c
	     ON c.report = r.id WHERE r.class IS NOT c.class ORDER BY 1" \
		>"$T/corrections" &&
	printf "5|fuzzer|user\n12|ai|user\n" >"$T/expect" &&
	test_cmp "$T/expect" "$T/corrections"
'

test_expect_success 'reroute several to a section: the roster shares them by load' '
	at $A3 "$TRIAGE" reroute 1 9 12 "XFS FILESYSTEM" >"$T/actual" &&
	settle $A3 &&
	test_cmp "$D/reroute-bulk.expect" "$T/actual" &&
	test "$(sql "SELECT previous FROM actions WHERE report = 9
		     AND action = \"reroute\"")" = bob@xfs.example
'

test_expect_success 'reroute to an address; an unknown section is 65' '
	at $A3 "$TRIAGE" reroute 6 usb-help@usb.example >"$T/actual" &&
	settle $A3 &&
	grep -q "^reroute 6: forwarded to usb-help@usb.example (address given; outbox" \
		"$T/actual" &&
	test_exit 65 at $A3 "$TRIAGE" reroute 6 "NO SUCH SECTION" 2>"$T/err" &&
	grep -q "no MAINTAINERS section .NO SUCH SECTION." "$T/err" &&
	test_exit 64 at $A3 "$TRIAGE" reroute 6 &&
	test_exit 64 at $A3 "$TRIAGE" reroute 6 "bad@@address"
'

A4=$((NOW + 2400))
test_expect_success 'reject and note' '
	at $A4 "$TRIAGE" reject --reason "fuzzing an out-of-tree driver" 10 \
		>"$T/actual" &&
	at $A4 "$TRIAGE" reject 10 >>"$T/actual" &&
	at $A4 "$TRIAGE" note 2 asked Sam for a reproducer >>"$T/actual" &&
	test_cmp "$D/reject-note.expect" "$T/actual" &&
	test_exit 66 at $A4 "$TRIAGE" note 999 text &&
	test_exit 64 "$TRIAGE" note 2 &&
	at $A4 "$TRIAGE" show 2 >"$T/out" &&
	sed -n "/^note/,/^\$/p" "$T/out" >"$T/note" &&
	cat >"$T/expect" <<-EOF &&
	note      by alice, 2024-01-03 12:40:00 +0000 (0s ago)
	          asked Sam for a reproducer

	EOF
	test_cmp "$T/expect" "$T/note"
'

test_expect_success 'who: TRIAGE_USER must be a login name' '
	TRIAGE_USER="alice; rm -rf /" test_exit 78 "$TRIAGE" note 2 x 2>"$T/err" &&
	grep -q "is not a usable login name" "$T/err"
'

S=$((NOW + 3000))
test_expect_success 'stats' '
	at $S "$TRIAGE" stats >"$T/actual" &&
	test_cmp "$D/stats.expect" "$T/actual" &&
	at $S "$TRIAGE" stats --json >"$T/stats.json" &&
	json "$T/stats.json" "
assert j[\"reports\"] == 12 and j[\"by_class\"][\"user\"] == 7, j
assert j[\"by_section\"][\"XFS FILESYSTEM\"] == 7
r = {x[\"address\"]: x for x in j[\"recipients\"]}
assert r[\"alice@xfs.example\"][\"today\"] == 2, r
assert r[\"alice@xfs.example\"][\"cap_day\"] == 2
assert r[\"bob@xfs.example\"][\"cap_week\"] == 20
assert j[\"delivery\"][\"failures\"] == 2 and j[\"median_pending\"] > 0
" &&
	at $S "$TRIAGE" stats --since 2024-01-03 --json >"$T/stats.json" &&
	json "$T/stats.json" "assert j[\"reports\"] == 5, j" &&
	test_exit 64 "$TRIAGE" stats --since yesterday
'

test_expect_success 'log' '
	at $S "$TRIAGE" log --since 2024-01-03 >"$T/actual" &&
	test_cmp "$D/log.expect" "$T/actual" &&
	at $S "$TRIAGE" log --json >"$T/log.json" &&
	json "$T/log.json" "
assert [e[\"at\"] for e in j] == sorted(e[\"at\"] for e in j)
acts = [e for e in j if e[\"kind\"] == \"action\"]
assert all(e[\"who\"] == \"alice\" for e in acts)
assert [e[\"what\"] for e in acts][:3] == [\"approve\", \"approve\", \"approve\"]
" &&
	at $S "$TRIAGE" log --report 12 >"$T/out" &&
	cut -f3,5 "$T/out" >"$T/log12" &&
	printf "%s\n" "received	forwarded" "decision	hold" "decision	forward" \
		"delivery	sent" "action	reclassify" "action	reroute" \
		>"$T/expect" &&
	test_cmp "$T/expect" "$T/log12"
'

G=$((NOW + 3600)) # 13:00
test_expect_success 'digest: what the next digest holds' '
	at $G "$TRIAGE" digest >"$T/actual" &&
	test_cmp "$D/digest.expect" "$T/actual" &&
	at $G "$TRIAGE" digest --json >"$T/digest.json" &&
	json "$T/digest.json" "
assert len(j) == 1 and j[0][\"section\"] == \"XFS FILESYSTEM\", j
s = j[0]
assert s[\"recipient\"] == \"fuzz@xfs.example\" and s[\"due\"] is True
assert [g[\"count\"] for g in s[\"groups\"]] == [2]
assert s[\"groups\"][0][\"reports\"] == [3, 4]
assert s[\"groups\"][0][\"first_seen\"] == 1704088800
"
'

test_expect_success 'digest --send: one mail, actions, the cursor moves' '
	at $G "$TRIAGE" digest --send >"$T/actual" &&
	settle $G &&
	test_cmp "$D/digest-send.expect" "$T/actual" &&
	n=$(ls "$T/mail" | grep -c msg) &&
	printf "%s\n" -i -f triage@router.example -- fuzz@xfs.example \
		>"$T/expect" &&
	test_cmp "$T/expect" "$T/mail/$n.argv" &&
	tok=$(sed -n "s/^   commands to triage+3-\\([a-z2-7]*\\)@router.example\$/\\1/p" "$T/mail/$n.msg") &&
	python3 -c "import base64, hashlib, hmac, sys
k = open(sys.argv[1], \"rb\").read()
d = hmac.new(k, b\"report:3\", hashlib.sha256).digest()[:5]
assert base64.b32encode(d).decode().lower() == sys.argv[2], sys.argv[2]" \
		"$T/state/token.key" "$tok" &&
	sed "s/+3-$tok@/+3-TOKEN@/" "$T/mail/$n.msg" >"$T/digest.msg" &&
	test_cmp "$D/digest-mail.expect" "$T/digest.msg" &&
	test "$(sql "SELECT last_sent_at FROM digest_cursor")" = $G &&
	test "$(sql "SELECT group_concat(report) FROM actions
		     WHERE action = \"digest\" ORDER BY report")" = "3,4" &&
	at $G "$TRIAGE" digest >"$T/after" && test ! -s "$T/after" &&
	at $((G + 86400)) "$TRIAGE" digest --send >"$T/again" &&
	test ! -s "$T/again"
'

test_expect_success 'digest: a report committed late is in the next digest' '
	sed -e "s/aaaa0002/aaaa0003/" -e "s/ffff88807654dcba/ffff888000001234/" \
		"$D/04-syzbot-xfs-b.eml" | "$FILTER" &&
	arrive 13 $((G - 30)) &&
	at $((G + 60)) "$TRIAGE" digest --json >"$T/late.json" &&
	json "$T/late.json" "
assert [g[\"reports\"] for g in j[0][\"groups\"]] == [[13]], j
assert j[0][\"due\"] is False and j[0][\"due_at\"] == $G + 86400
"
'

test_expect_success 'a busy database: exit 75, nothing done' '
	before=$(sql "SELECT count(*) FROM actions") &&
	sqlite3 "$DB" "BEGIN IMMEDIATE; SELECT 1;" \
		".shell TRIAGE_NOW=$S \"$TRIAGE\" note 2 busy 2>\"$T/err\"; echo \$? >\"$T/rc\"" \
		"COMMIT;" >/dev/null &&
	test "$(cat "$T/rc")" = 75 &&
	grep -q "the database is busy" "$T/err" &&
	test "$(sql "SELECT count(*) FROM actions")" = "$before"
'

test_expect_success 'approve with the smtp transport: left for triage deliver' '
	sed "s/^transport = sendmail\$/transport = smtp/" "$T/routes.conf" \
		>"$T/smtp.conf" &&
	mails=$(ls "$T/mail" | grep -c msg) &&
	TRIAGE_CONFIG="$T/smtp.conf" at $S "$TRIAGE" approve 4 >"$T/actual" &&
	cat >"$T/expect" <<-EOF &&
	approve 4: forwarded to fuzz@xfs.example (was digest; outbox 13)
	queued 1 message: the outbox worker (${SQ}triage deliver${SQ}) sends it
	EOF
	test_cmp "$T/expect" "$T/actual" &&
	test "$(sql "SELECT state FROM outbox WHERE id = 13")" = queued &&
	test "$(ls "$T/mail" | grep -c msg)" = "$mails"
'

test_done
