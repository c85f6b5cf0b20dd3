#!/bin/sh
# t0780-desk-display: what the desk shows on a terminal and in a pipe
# (issue 24, and show --raw of issue 21): show's regression and group
# lines, the body folded at spaces, log cut to the terminal with the
# SMTP code once, the pager told the output is UTF-8, the raw bytes of
# a message kept off a terminal unless --force.  The terminal is tmux,
# at the 160 and 80 columns a triager works in (lib-tmux.sh).
. "$(dirname "$0")/../lib.sh"
. "$SRC/tests/cli/lib-tmux.sh"

D="$SRC/tests/corpus/desk"
DB="$T/state/triage.db"
export TZ=UTC TRIAGE_USER=alice
unset NO_COLOR PAGER LESSCHARSET LESSCHARDEF

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
transport = smtp
filter_memory_mb = 0
EOF
export TRIAGE_CONFIG="$T/routes.conf"

sql() {
	sqlite3 "$DB" "$1"
}

# widest FILE - the widest line, in characters
widest() {
	python3 -c "import sys
print(max(len(l.rstrip(\"\\n\")) for l in open(sys.argv[1], encoding=\"utf-8\")))" "$1"
}

test_expect_success 'the filter records the desk corpus' '
	for f in "$D"/*.eml; do
		"$FILTER" <"$f" || { echo "filter failed on $f"; return 1; }
	done &&
	test "$(sql "SELECT count(*) FROM reports")" = 12
'

# Report 13: a reporter who writes a paragraph on one line, with en
# dashes (UTF-8, which less in the POSIX locale shows as <E2><80><93>
# unless told the charset).
test_expect_success 'a report in long lines, with en dashes' '
	cat >"$T/13.eml" <<-\EOF &&
	From: Lena Laptop <lena@users.example>
	To: bugs@router.example
	Subject: =?UTF-8?Q?suspend_=E2=80=93_screen_stays_black_since_6.12?=
	Date: Wed, 3 Jan 2024 09:00:00 +0000
	Message-ID: <desk-13-long-lines@users.example>
	MIME-Version: 1.0
	Content-Type: text/plain; charset=utf-8
	Content-Transfer-Encoding: 8bit

	Hello – since the update to 6.12 my laptop does not wake up from suspend: the screen stays black, the power light is on, the keyboard backlight works, and only a long press on the power button brings it back – nothing in the journal of the previous boot.
	With 6.11 resume works every time; I can test patches – tell me what to send.

	Lena
	EOF
	"$FILTER" <"$T/13.eml" &&
	test "$(sql "SELECT count(*) FROM reports")" = 13
'

test_expect_success 'show: a regression without versions, a group'"'"'s first report' '
	sql "UPDATE reports SET regression = 1 WHERE id = 6" &&
	"$TRIAGE" show 6 >"$T/out" &&
	grep -q "^regression yes (the report names no version that worked, none that broke, no culprit)\$" "$T/out" &&
	! grep -q "in ?, broke in ?" "$T/out" &&
	sql "UPDATE evidence SET regression_good = \"v6.1\" WHERE report = 6" &&
	"$TRIAGE" show 6 >"$T/out" &&
	grep -q "^regression worked in v6.1, broke in (not given), culprit (not given)\$" "$T/out" &&
	test "$(sql "SELECT same_crash_as FROM reports WHERE id = 4")" = 3 &&
	"$TRIAGE" show 4 >"$T/out" &&
	grep -q "^group     same crash as report 3 " "$T/out" &&
	sql "UPDATE reports SET same_crash_as = 3 WHERE id = 3" &&
	"$TRIAGE" show 3 >"$T/out" &&
	! grep -q "same crash as report 3" "$T/out"
'

if tmux_available; then
test_setup 'a terminal: a tmux server of the test'"'"'s own' '
	tmux_start
'

# show 13 at a fixed time: the same text in a pipe and on a terminal
test_expect_success 'show on a terminal: folded at spaces, fields and text' '
	now=$(date +%s) &&
	TRIAGE_NOW=$now "$TRIAGE" show 13 >"$T/piped" &&
	test "$(widest "$T/piped")" -gt 160 &&
	tr -s " \n" "\n\n" <"$T/piped" >"$T/piped.words" &&
	test "$(wc -l <"$T/piped.words")" -gt 100 &&
	esc=$(printf "\033") &&
	for cols in 160 80; do
		tmux_cmd $cols "$T/screen" PAGER=cat TRIAGE_NOW=$now -- \
			"$TRIAGE" show 13 &&
		grep -q "$esc\[" "$T/screen" &&
		sed "s/$esc\[[0-9;]*m//g" "$T/screen" >"$T/plain" &&
		test "$(widest "$T/plain")" -lt $cols &&
		sed -n "/^    Hello/,\$p" "$T/plain" >"$T/text" &&
		test "$(wc -l <"$T/text")" -gt $((400 / cols + 2)) &&
		! grep -v "^    " "$T/text" | grep -q . &&
		tr -s " \n" "\n\n" <"$T/plain" >"$T/screen.words" &&
		test_cmp "$T/piped.words" "$T/screen.words" || return 1
	done &&
	grep -q "^\(rules\|     \)     USER_CAN_TEST  *+1.0  Offers to test patches: the reporter\$" "$T/plain" &&
	grep -q "^          has the affected system\$" "$T/plain"
'

test_expect_success 'log: the SMTP code once; on a terminal, cut to its width' '
	o=$(sql "SELECT min(id) FROM outbox") &&
	sql "INSERT INTO delivery_attempts (outbox, at, ok, smtp_code, detail)
	     VALUES ($o, strftime(\"%s\"), 1, 250, \"250 2.0.0 Ok: queued as 4XyZ\"),
	            ($o, strftime(\"%s\"), 0, 451, \"4.7.1 greylisted: try again in 300 seconds, from a host that has sent before; see https://postmaster.relay.example/greylisting\")" &&
	"$TRIAGE" log >"$T/log" &&
	grep -q "	250 2.0.0 Ok: queued as 4XyZ\$" "$T/log" &&
	! grep -q "250 250" "$T/log" &&
	grep -q "	451 4.7.1 greylisted: try again" "$T/log" &&
	test "$(widest "$T/log")" -gt 160 &&
	for cols in 160 80; do
		tmux_cmd $cols "$T/screen$cols" PAGER=cat NO_COLOR=1 -- "$TRIAGE" log &&
		test "$(widest "$T/screen$cols")" -lt $cols &&
		test "$(wc -l <"$T/screen$cols")" = "$(wc -l <"$T/log")" || return 1
	done &&
	grep -q "  250 2.0.0 Ok: queued as 4XyZ\$" "$T/screen160" &&
	grep -q "  451 4.7.1 greylisted: try again in 300 seconds, .*\.\.\.\$" "$T/screen160" &&
	! grep -q "250 250" "$T/screen160"
'

test_expect_success 'the pager is told the output is UTF-8' '
	tmux_cmd 80 "$T/screen" PAGER="env >\"$T/env\"; cat >/dev/null" -- \
		"$TRIAGE" pending &&
	grep -qx "LESSCHARSET=utf-8" "$T/env" &&
	grep -qx "LESS=FRX" "$T/env" &&
	tmux_cmd 80 "$T/screen" PAGER="env >\"$T/env\"; cat >/dev/null" \
		LESSCHARSET=latin1 -- "$TRIAGE" pending &&
	grep -qx "LESSCHARSET=latin1" "$T/env"
'

# The POSIX locale: less, left to itself, takes the text for ASCII.  The
# pager is triage's own choice (less -FRX); 20 rows, fewer than show 13
# has, so less stays until q.
test_expect_success 'less in the POSIX locale shows an en dash, not <E2><80><93>' '
	for cols in 160 80; do
		TMUX_ROWS=20 tmux_run less $cols LANG=POSIX NO_COLOR=1 -- \
			"$TRIAGE" show 13 &&
		tmux_wait_for less "subject   suspend" &&
		tmux_capture less >"$T/screen" &&
		grep -q "^subject   suspend – screen stays black since 6.12\$" "$T/screen" &&
		! grep -q "<E2>" "$T/screen" &&
		test ! -f "$TMUX_DIR/less.rc" &&
		tmux_keys less G &&
		tmux_wait_for less "    Lena" &&
		tmux_capture less >"$T/screen" &&
		grep -q "^    Hello – since" "$T/screen" &&
		! grep -q "<E2>" "$T/screen" &&
		tmux_keys less q &&
		tmux_wait_exit less &&
		test "$(tmux_status less)" = 0 &&
		tmux_kill less || return 1
	done
'

test_expect_success 'show --raw: not to a terminal unless --force' '
	test_exit 64 tmux_cmd 80 "$T/screen" PAGER=cat -- \
		"$TRIAGE" show --raw 11 &&
	grep -q "not writing a raw message to a terminal" "$T/screen" &&
	! grep -q "^Message-ID: " "$T/screen" &&
	tmux_cmd 80 "$T/screen" PAGER=cat -- "$TRIAGE" show --raw --force 2 &&
	grep -q "^Message-ID: <desk-02-ai-xfs@audit.example>\$" "$T/screen" &&
	"$TRIAGE" show --raw 11 >"$T/raw" &&
	cmp "$D/11-escape.eml" "$T/raw"
'
else
	test_skip "tmux is not installed: the desk on a terminal is not tested"
fi

test_done
