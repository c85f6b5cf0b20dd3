# lib-tmux.sh - run the desk on a real terminal: a private tmux server
#
# A triager reads the desk in tmux, at 160 or 80 columns, through less:
# these tests do the same.  A script sources it after lib.sh
# (. "$SRC/tests/cli/lib-tmux.sh") and guards its terminal tests with
#   if tmux_available; then ... else test_skip "..."; fi
# (tools/deps.sh installs tmux for the tests: the skip is for a machine
# set up by hand, and counts as a skip in the summary).
#
# The server is the script's own (its socket in $T, no configuration
# file, nothing of the user's tmux), started once by tmux_start and
# killed when the script exits.  Each command runs in a session of its
# own, of the width asked for and TMUX_ROWS rows, with only the
# environment below (env -i): what the test does not set is not set.
#
# tmux_available - whether tmux is installed
# tmux_start - start the server (once per script, in a test_setup)
# tmux_run NAME COLS [VAR=VALUE...] -- CMD [ARG...] - start CMD in a new
#	session NAME, COLS wide; returns at once.  The environment: PATH,
#	HOME=$T, TZ=UTC, TERM=screen, LANG=C.UTF-8, TRIAGE_CONFIG,
#	TRIAGE_STATE_DIR, TRIAGE_USER and TRIAGE_NOW as exported, and the
#	VAR=VALUE given (which win: LANG=POSIX, TERM=xterm-256color,
#	PAGER=cat, NO_COLOR=1, LESS=...)
# tmux_wait_exit NAME [SECONDS] - wait until CMD has ended (10 s)
# tmux_status NAME - CMD's exit status, once ended
# tmux_wait_for NAME TEXT [SECONDS] - wait until the screen shows TEXT
#	(a fixed string; 10 s); on failure, prints the screen
# tmux_capture NAME [-e] - print the screen and the lines scrolled off
#	it, trailing empty lines dropped (-e: with the colour sequences)
# tmux_keys NAME KEY... - type KEYs (tmux send-keys names: q, Enter)
# tmux_kill NAME - end the session (and CMD, if still running)
# tmux_cmd COLS OUT [VAR=VALUE...] -- CMD [ARG...] - run CMD to its end
#	on a terminal COLS wide, its screen in OUT (capture -e); the exit
#	status is CMD's
# tmux_title NAME - the title of the terminal (what OSC 0/2 set)
# tmux_stop - kill the server (the EXIT trap does it)

TMUX_ROWS=${TMUX_ROWS:-50}
TMUX_DIR="$T/tmux"
TMUX_SOCK="$TMUX_DIR/socket"
# never the user's server, whatever the environment says
unset TMUX TMUX_TMPDIR

tmux_available() {
	command -v tmux >/dev/null
}

# t_ ARG... - tmux on the script's server (-u and a UTF-8 locale: lib.sh's
# LC_ALL=C would make tmux show each non-ASCII character as "_")
t_() {
	LC_ALL=C.UTF-8 tmux -u -S "$TMUX_SOCK" -f /dev/null "$@"
}

tmux_stop() {
	[ ! -S "$TMUX_SOCK" ] || t_ kill-server 2>/dev/null || :
}

# The server goes with the script, however it ends (a signal too).
trap 'tmux_stop; rm -rf "$T" ${VGBIN:+"$VGBIN"}' EXIT
trap 'exit 130' HUP INT TERM

tmux_start() {
	mkdir -p "$TMUX_DIR" &&
	# run.sh RC VAR=VALUE... -- CMD... - CMD with only that environment,
	# its status into RC; then the pane stays as CMD left it
	# (remain-on-exit would write "Pane is dead" on the screen)
	cat >"$TMUX_DIR/run.sh" <<-\EOF &&
	rc=$1
	shift
	for a; do
		shift
		[ "$a" = -- ] || set -- "$@" "$a"
	done
	env -i "$@"
	echo $? >"$rc.new" && mv "$rc.new" "$rc"
	exec sleep 3600
	EOF
	# a session that keeps the server up between commands
	t_ new-session -d -s keep -x 80 -y 24 "exec cat" &&
	t_ set-option -g history-limit 5000
}

tmux_run() {
	name=$1 &&
	cols=$2 &&
	shift 2 &&
	rm -f "$TMUX_DIR/$name.rc" &&
	# argv, not a shell line: nothing to quote; the width checked
	test "$(t_ new-session -d -P -F "#{window_width}" -s "$name" \
		-x "$cols" -y "$TMUX_ROWS" -c "$PWD" -- \
		/bin/sh "$TMUX_DIR/run.sh" "$TMUX_DIR/$name.rc" \
		"PATH=$PATH" "HOME=$T" TZ=UTC TERM=screen LANG=C.UTF-8 \
		${TRIAGE_CONFIG:+"TRIAGE_CONFIG=$TRIAGE_CONFIG"} \
		${TRIAGE_STATE_DIR:+"TRIAGE_STATE_DIR=$TRIAGE_STATE_DIR"} \
		${TRIAGE_USER:+"TRIAGE_USER=$TRIAGE_USER"} \
		${TRIAGE_NOW:+"TRIAGE_NOW=$TRIAGE_NOW"} \
		"$@")" = "$cols"
}

tmux_wait_exit() {
	test_wait "${2:-10}" test -f "$TMUX_DIR/$1.rc" || {
		echo "tmux: '$1' has not ended; its screen:"
		tmux_capture "$1"
		return 1
	}
}

tmux_status() {
	cat "$TMUX_DIR/$1.rc"
}

# tmux_shows_ NAME TEXT - whether the screen shows TEXT
tmux_shows_() {
	t_ capture-pane -p -t "$1:" >"$TMUX_DIR/$1.screen" &&
	grep -qF -- "$2" "$TMUX_DIR/$1.screen"
}

tmux_wait_for() {
	test_wait "${3:-10}" tmux_shows_ "$1" "$2" || {
		echo "tmux: '$1' does not show '$2'; its screen:"
		tmux_capture "$1"
		return 1
	}
}

tmux_capture() {
	t_ capture-pane -p $2 -S - -t "$1:" >"$TMUX_DIR/$1.capture" &&
	tmux_trim_ "$TMUX_DIR/$1.capture"
}

# tmux_trim_ FILE - FILE without its trailing empty lines
tmux_trim_() {
	sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' "$1"
}

tmux_keys() {
	name=$1 &&
	shift &&
	t_ send-keys -t "$name:" "$@"
}

tmux_kill() {
	t_ kill-session -t "$1:"
}

tmux_cmd() {
	# a name of its own (a failed test may leave its session behind;
	# each test runs in a subshell, so a counter would start again)
	cmd_name=t${test_count}_$(ls "$TMUX_DIR" | wc -l) &&
	cmd_out=$2 &&
	cmd_cols=$1 &&
	shift 2 &&
	tmux_run "$cmd_name" "$cmd_cols" "$@" &&
	tmux_wait_exit "$cmd_name" &&
	t_ capture-pane -p -e -S - -t "$cmd_name:" \; \
		kill-session -t "$cmd_name:" >"$TMUX_DIR/$cmd_name.capture" &&
	tmux_trim_ "$TMUX_DIR/$cmd_name.capture" >"$cmd_out" &&
	return "$(tmux_status "$cmd_name")"
}

# tmux_title NAME - the title CMD left on its terminal (an OSC 0 or 2
# sequence sets it)
tmux_title() {
	t_ display-message -p -t "$1:" "#{pane_title}"
}
