#!/bin/sh
# t0770-desk-messages: what a new site trips over (issue 24): errors
# that name their cause, sections named as a person would, bad values
# in routes.conf, workers that say why mail waits and how to send it now
. "$(dirname "$0")/../lib.sh"
. "$SRC/tests/cli/lib-tmux.sh"

D="$SRC/tests/corpus/desk"
DB="$T/state/triage.db"
export TZ=UTC TRIAGE_USER=alice
unset NO_COLOR PAGER

for tool in sqlite3 python3; do
	if ! command -v $tool >/dev/null; then
		test_skip "$tool is not installed: the desk is not tested"
		test_done
	fi
done

# a TCP port nothing listens on: a peer or a Bugzilla that is down
DOWN=$(python3 -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')

cat >"$T/routes.conf" <<EOF
state_dir = $T/state
maintainers = $SRC/tests/data/MAINTAINERS.kernel
rules_dir = $SRC/classifiers
router_address = triage@router.example
transport = smtp
smtp_host = 127.0.0.1
smtp_port = $DOWN
smtp_connect_timeout = 2
bugzilla_url = http://127.0.0.1:$DOWN/
filter_memory_mb = 0
EOF
export TRIAGE_CONFIG="$T/routes.conf"

sql() {
	sqlite3 "$DB" "$1"
}

test_expect_success 'the filter records the desk corpus' '
	for f in "$D"/*.eml; do
		"$FILTER" <"$f" || { echo "filter failed on $f"; return 1; }
	done &&
	test "$(sql "SELECT count(*) FROM reports")" = 12
'

test_expect_success 'sections: any case, a unique part, else the choices' '
	"$TRIAGE" reroute 6 "xfs filesystem" >"$T/out" &&
	test "$(sql "SELECT section FROM reports WHERE id = 6")" = "XFS FILESYSTEM" &&
	"$TRIAGE" reroute 11 ext4 >"$T/out" &&
	test "$(sql "SELECT section FROM reports WHERE id = 11")" = "EXT4 FILE SYSTEM" &&
	test_exit 65 "$TRIAGE" reroute 12 bluetooth 2>"$T/err" &&
	grep -q "'"'"'bluetooth'"'"' is in 2 MAINTAINERS section titles; which one?" "$T/err" &&
	grep -q "^	BLUETOOTH DRIVERS\$" "$T/err" &&
	grep -q "^	BLUETOOTH SUBSYSTEM\$" "$T/err" &&
	test_exit 65 "$TRIAGE" reroute 12 "xfs filesytem" 2>"$T/err" &&
	grep -q "no MAINTAINERS section .xfs filesytem.; did you mean" "$T/err" &&
	grep -q "^	XFS FILESYSTEM\$" "$T/err" &&
	test_exit 65 "$TRIAGE" pending --section hisilicon 2>"$T/err" &&
	grep -q "no MAINTAINERS section .hisilicon." "$T/err" &&
	"$TRIAGE" pending --section xfs >"$T/out" &&
	cut -f1 "$T/out" | grep -qx 2 &&
	test_exit 65 "$TRIAGE" digest --section xfz 2>"$T/err" &&
	grep -q "^	XFS FILESYSTEM\$" "$T/err" &&
	"$TRIAGE" digest --section xfs >"$T/out" &&
	grep -q "^XFS FILESYSTEM: " "$T/out"
'

test_expect_success 'digest --send --now: sent although not due' '
	"$TRIAGE" digest --send >"$T/out" &&
	grep -q "not sent: not due yet; due .* (.triage digest --send --now. sends it now)" "$T/out" &&
	test "$(sql "SELECT count(*) FROM outbox WHERE kind = \"digest\"")" = 0 &&
	test_exit 64 "$TRIAGE" digest --now &&
	"$TRIAGE" digest --send --now >"$T/out" &&
	grep -q "^digest XFS FILESYSTEM: [0-9]* reports* to .* (outbox [0-9]*)\$" "$T/out" &&
	test "$(sql "SELECT count(*) FROM outbox WHERE kind = \"digest\"")" = 1
'

test_expect_success 'deliver with the peer down says why, and --retry-now' '
	"$TRIAGE" deliver >"$T/out" &&
	grep -q "^deliver: 0 sent, [1-9][0-9]* to retry, 0 failed\$" "$T/out" &&
	n=$(sed -n "s/^deliver: 0 sent, \\([0-9]*\\) to retry.*/\\1/p" "$T/out") &&
	test "$(grep -c "^  outbox [0-9]* (.* to .*): attempt 1 failed: .*; next try .* (.triage deliver --retry-now. tries now)\$" "$T/out")" = "$n" &&
	"$TRIAGE" deliver >"$T/out2" &&
	grep -q "^deliver: 0 sent, 0 to retry, 0 failed\$" "$T/out2" &&
	test "$(grep -c "^  outbox .*attempt 1 failed" "$T/out2")" = "$n" &&
	"$TRIAGE" deliver --retry-now >"$T/out3" &&
	grep -q "^deliver: $n messages* waiting for a retry tried now\$" "$T/out3" &&
	grep -q "^deliver: 0 sent, $n to retry, 0 failed\$" "$T/out3" &&
	test "$(grep -c "^  outbox .*attempt 2 failed" "$T/out3")" = "$n"
'

test_expect_success 'bugzilla poll with Bugzilla down: nothing on stdout, 75' '
	test_exit 75 "$TRIAGE" bugzilla poll >"$T/out" 2>"$T/err" &&
	test ! -s "$T/out" &&
	grep -q "poll of http://127.0.0.1:$DOWN failed (0 changed bugs stored before); the cursor stays at" "$T/err"
'

test_expect_success 'serve takes --url, as its message says' '
	"$TRIAGE" help serve >"$T/out" &&
	grep -q -- "--url URL" "$T/out" &&
	head -c 32 /dev/urandom | base64 >"$T/token" && chmod 600 "$T/token" &&
	{ grep -v "^bugzilla_url" "$T/routes.conf" &&
	  echo "webhook_token_file = $T/token"; } >"$T/nobz.conf" &&
	test_exit 78 "$TRIAGE" -c "$T/nobz.conf" serve --listen 127.0.0.1:0 2>"$T/err" &&
	grep -q "set bugzilla_url in .* or give --url" "$T/err"
'

test_expect_success 'a bad value in routes.conf stops the desk: 78' '
	cp "$T/routes.conf" "$T/bad.conf" &&
	echo "db_busy_timeout = soon" >>"$T/bad.conf" &&
	for cmd in "pending" "show 1" "stats" "deliver" "reroute 1 xfs"; do
		test_exit 78 "$TRIAGE" -c "$T/bad.conf" $cmd >"$T/out" 2>"$T/err" &&
		test ! -s "$T/out" &&
		grep -q "bad.conf:[0-9]*: db_busy_timeout: " "$T/err" &&
		grep -q "1 bad value: fix it (.triage check-config. lists every problem)" "$T/err" || return 1
	done &&
	cp "$T/routes.conf" "$T/typo.conf" &&
	echo "smpt_host = relay" >>"$T/typo.conf" &&
	"$TRIAGE" -c "$T/typo.conf" pending >"$T/out" 2>"$T/err" &&
	grep -q "smpt_host: unknown setting; did you mean smtp_host?" "$T/err"
'

test_expect_success 'help COMMAND, a typo of a command' '
	"$TRIAGE" help pending >"$T/out" &&
	grep -q "^usage: triage pending" "$T/out" &&
	test_exit 64 "$TRIAGE" pendng 2>"$T/err" &&
	grep -q "did you mean .pending.?" "$T/err"
'

# On a terminal, with nothing typed: explain must not sit waiting for
# a message on standard input (tmux_wait_exit gives it 10 seconds).
if tmux_available; then
test_expect_success 'explain with nothing to read on a terminal: says how, 64' '
	tmux_start &&
	for cols in 160 80; do
		test_exit 64 tmux_cmd $cols "$T/screen" -- "$TRIAGE" explain &&
		grep -q "give a message" "$T/screen" || return 1
	done
'
else
	test_skip "tmux is not installed: explain on a terminal not tested"
fi

if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
# the login runs a public copy of triage (the clone may be private)
test_public_copy
test_expect_success 'a login not in the group: permission denied, 77' '
	chmod 0750 "$T/state" && chmod 0711 "$T" &&
	test_exit 77 setpriv --reuid=65534 --regid=65534 --clear-groups \
		env TRIAGE_CONFIG="$T/routes.conf" "$TRIAGE" pending \
		>"$T/out" 2>"$T/err" &&
	grep -q "cannot read the database $DB: Permission denied; the triagers are the members of its group" "$T/err" &&
	! grep -q "nothing has been recorded" "$T/err"
'
else
	test_skip "not root, or no setpriv: permission denied not tested"
fi

test_done
