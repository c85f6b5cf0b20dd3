#!/bin/sh
# t0780-desk-display: what the desk shows on a terminal and in a pipe
# (issue 24, and show --raw of issue 21): show's regression and group
# lines, the body folded at spaces, log cut to the terminal with the
# SMTP code once, the pager told the output is UTF-8, the raw bytes of
# a message kept off a terminal unless --force.  The terminal is a
# pseudo-terminal of the given width (Python's pty).
. "$(dirname "$0")/../lib.sh"

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
if ! python3 -c "import os; os.openpty()" 2>/dev/null; then
	test_skip "no pseudo-terminal here: the terminal is not tested"
	test_done
fi

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

cat >"$T/onterm.py" <<'EOF'
# onterm.py COLS OUT CMD... - run CMD on a terminal COLS wide; output to OUT
import fcntl, os, pty, struct, sys, termios

cols, out, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
pid, fd = pty.fork()
if pid == 0:
    fcntl.ioctl(1, termios.TIOCSWINSZ, struct.pack("HHHH", 24, cols, 0, 0))
    os.execvp(cmd[0], cmd)
data = b""
while True:
    try:
        chunk = os.read(fd, 65536)
    except OSError:
        break
    if not chunk:
        break
    data += chunk
_, status = os.waitpid(pid, 0)
with open(out, "wb") as f:
    f.write(data.replace(b"\r\n", b"\n"))
sys.exit(os.waitstatus_to_exitcode(status))
EOF

# tty COLS OUT CMD... - CMD on a terminal, no pager, no colour
tty() {
	PAGER=cat NO_COLOR=1 python3 "$T/onterm.py" "$@"
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

test_expect_success 'show on a terminal: the text folded at spaces' '
	tty 60 "$T/screen" "$TRIAGE" show 6 &&
	sed -n "/^    Hi,/,\$p" "$T/screen" >"$T/text" &&
	test "$(wc -l <"$T/text")" -gt 8 &&
	test "$(widest "$T/text")" -lt 60 &&
	"$TRIAGE" show 6 >"$T/piped" &&
	grep -q "^    after upgrading to the latest kernel my desktop does not come back\$" "$T/piped" &&
	sed -n "/^    Hi,/,\$p" "$T/screen" | tr -s " \\n" "  " >"$T/a" &&
	sed -n "/^    Hi,/,\$p" "$T/piped" | tr -s " \\n" "  " >"$T/b" &&
	test_cmp "$T/b" "$T/a"
'

test_expect_success 'log: the SMTP code once; on a terminal, cut to its width' '
	o=$(sql "SELECT min(id) FROM outbox") &&
	sql "INSERT INTO delivery_attempts (outbox, at, ok, smtp_code, detail)
	     VALUES ($o, strftime(\"%s\"), 1, 250, \"250 2.0.0 Ok: queued as 4XyZ\"),
	            ($o, strftime(\"%s\"), 0, 451, \"try again later\")" &&
	"$TRIAGE" log >"$T/log" &&
	grep -q "	250 2.0.0 Ok: queued as 4XyZ\$" "$T/log" &&
	! grep -q "250 250" "$T/log" &&
	grep -q "	451 try again later\$" "$T/log" &&
	test "$(widest "$T/log")" -gt 100 &&
	tty 100 "$T/screen" "$TRIAGE" log &&
	test "$(widest "$T/screen")" -lt 100 &&
	test "$(wc -l <"$T/screen")" = "$(wc -l <"$T/log")"
'

test_expect_success 'the pager is told the output is UTF-8' '
	PAGER="env >\"$T/env\"; cat >/dev/null" NO_COLOR=1 \
		python3 "$T/onterm.py" 100 "$T/screen" "$TRIAGE" pending &&
	grep -qx "LESSCHARSET=utf-8" "$T/env" &&
	PAGER="env >\"$T/env\"; cat >/dev/null" LESSCHARSET=latin1 \
		python3 "$T/onterm.py" 100 "$T/screen" "$TRIAGE" pending &&
	grep -qx "LESSCHARSET=latin1" "$T/env"
'

test_expect_success 'show --raw: not to a terminal unless --force' '
	PAGER=cat test_exit 64 python3 "$T/onterm.py" 100 "$T/screen" "$TRIAGE" show --raw 11 &&
	grep -q "not writing a raw message to a terminal" "$T/screen" &&
	! grep -q "^Message-ID: " "$T/screen" &&
	PAGER=cat python3 "$T/onterm.py" 100 "$T/screen" "$TRIAGE" show --raw --force 11 &&
	grep -q "^Message-ID: " "$T/screen" &&
	"$TRIAGE" show --raw 11 >"$T/raw" &&
	cmp "$D/11-escape.eml" "$T/raw"
'

test_done
