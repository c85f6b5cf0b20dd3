#!/bin/sh
# t0900-postfix: triage-filter behind a real Postfix, end to end
#
# Postfix (loopback only) delivers reports to the bugs alias, which runs
# the built triage-filter as the user 'triage' (the alias file is owned by
# that user: local(8) runs a command alias with the rights of the alias
# file's owner).  The filter forwards with 'transport = sendmail' through
# Postfix's own /usr/sbin/sendmail, and Postfix relays every forward to an
# SMTP peer on 127.0.0.1 (Postfix's smtp-sink, dumping each message).
#
# This changes the machine while it runs: it needs root, edits
# /etc/postfix/main.cf (restored from a backup at the end), starts Postfix
# (stopped again, or restarted with the old configuration if it was
# running), creates the system user and group 'triage' when missing
# (removed again if it created them) and uses /usr/local/libexec/triage-test
# and /var/lib/triage-test (removed).  The pipe user must be able to
# traverse every directory above the filter and its files, so nothing
# is run or read from the source tree.
# A Postfix that is already running is only taken over when it is the
# test machine's (mailname triage.localdomain, as tools/deps.sh installs
# it, or TRIAGE_E2E_POSTFIX=1) and its queue is empty.  TRIAGE_E2E_KEEP=1
# leaves everything in place for a post-mortem (undo by hand).
. "$(dirname "$0")/../lib.sh"

# The filter runs with Postfix's environment, not ours: no overrides here.
unset TRIAGE_CONFIG TRIAGE_STATE_DIR
E2E="$SRC/tests/e2e"
MSGS="$E2E/msgs"
LIBEXEC=/usr/local/libexec/triage-test
VAR=/var/lib/triage-test
STATE=$VAR/state
DB=$STATE/triage.db
CONF=$VAR/routes.conf
ALIASES=$VAR/alias/aliases
MAILLOG=$VAR/maillog
DUMP=$VAR/peer
MAINCF=/etc/postfix/main.cf
ROUTER=bugs@localhost
BOUNCES=triage-bounces@localhost
MAINTAINER=maintainer@example.net
SECTION='8169 10/100/1000 GIGABIT ETHERNET DRIVER'

skip_all() {
	test_skip "$1"
	test_done
}

[ "$(id -u)" = 0 ] ||
	skip_all 'not root: the Postfix end-to-end test needs root (it configures and starts Postfix)'
command -v postfix >/dev/null 2>&1 && [ -x /usr/sbin/sendmail ] &&
	[ -x /usr/sbin/smtp-sink ] ||
	skip_all 'postfix is not installed (Debian package postfix; tools/deps.sh test installs it)'
command -v sqlite3 >/dev/null 2>&1 ||
	skip_all 'sqlite3 is not installed (Debian package sqlite3)'
[ -x "$FILTER" ] && [ -x "$TRIAGE" ] ||
	skip_all "build triage and triage-filter first (make binaries)"

was_running=
if postfix status >/dev/null 2>&1; then
	if [ "$(cat /etc/mailname 2>/dev/null)" != triage.localdomain ] &&
		[ "${TRIAGE_E2E_POSTFIX:-}" != 1 ]; then
		skip_all 'Postfix is running here and is not the test machine'"'"'s (set TRIAGE_E2E_POSTFIX=1 to let this test reconfigure it)'
	fi
	postqueue -p 2>/dev/null | grep -q '^Mail queue is empty' ||
		skip_all 'Postfix is running with mail in its queue: not touching it'
	was_running=1
fi

# ---- helpers ------------------------------------------------------------

now() { date +%s.%N; }
elapsed() { echo "$1 $2" | awk '{ printf "%.2f", $2 - $1 }'; }

# wait_until SECONDS CMD...: run CMD every 0.05 s until it succeeds
wait_until() {
	limit=$1 &&
	shift &&
	end=$(($(date +%s) + limit)) &&
	until "$@"; do
		[ "$(date +%s)" -lt "$end" ] || return 1
		sleep 0.05
	done
}

log_lines() { if [ -f "$MAILLOG" ]; then wc -l <"$MAILLOG"; else echo 0; fi; }
# log_after N: the maillog after its first N lines
log_after() { tail -n "+$(($1 + 1))" "$MAILLOG"; }

# send NAME FILE SENDER: submit with sendmail; remembers the log position
# and the time in $T/NAME.{line,t0}
send() {
	log_lines >"$T/$1.line"
	now >"$T/$1.t0"
	/usr/sbin/sendmail -f "$3" "$ROUTER" <"$2"
}

msgid() { sed -n 's/^Message-ID: *<\(.*\)>.*/\1/p' "$1" | head -1; }

# qid NAME FILE: the queue id Postfix gave the message sent as NAME
qid() {
	log_after "$(cat "$T/$1.line")" |
		grep -F "message-id=<$(msgid "$2")>" | head -1 |
		sed -n 's/.*: \([0-9A-F]\{6,\}\): message-id=.*/\1/p'
}
has_qid() { [ -n "$(qid "$1" "$2")" ]; }

# track NAME FILE: wait for the queue id of NAME; keep it in $T/NAME.qid
track() {
	wait_until 20 has_qid "$1" "$2" || {
		echo "no queue id for $2"
		return 1
	}
	qid "$1" "$2" >"$T/$1.qid"
}

# status_of QID [AFTER_LINE]: the last status= of the delivery to bugs@
status_of() {
	log_after "${2:-0}" | grep -F "$1: to=<$ROUTER>" | grep 'status=' |
		tail -1 | sed 's/.*status=\([a-z]*\).*/\1/'
}
has_status() { [ "$(status_of "$1" "${3:-0}")" = "$2" ]; }

# ended NAME STATUS [AFTER_LINE]: wait until the delivery of NAME to the
# bugs alias ends in STATUS (sent, deferred); shows the log if it does not
ended() {
	q=$(cat "$T/$1.qid") &&
	wait_until 20 has_status "$q" "$2" "${3:-0}" || {
		echo "delivery of $1 ($q) did not end in status=$2:"
		grep -F "$q" "$MAILLOG"
		return 1
	}
}

# filter_delay NAME: seconds local(8) spent delivering to the command
filter_delay() {
	grep -F "$(cat "$T/$1.qid"): to=<$ROUTER>" "$MAILLOG" |
		grep 'status=sent' | tail -1 |
		sed -n 's/.*delays=[^ ,]*\/\([0-9.]*\),.*/\1/p'
}

relayed_count() {
	grep -c "to=<$MAINTAINER>, relay=127.0.0.1.*status=sent" "$MAILLOG" ||
		true
}
relayed_at_least() { [ "$(relayed_count)" -ge "$1" ]; }

peer_count() { find "$DUMP" -type f | wc -l; }
# peer_files MSGID: the dump files holding a message with that Message-ID
peer_files() { grep -lF "Message-ID: <$1>" "$DUMP"/* 2>/dev/null || true; }
has_peer_file() { [ -n "$(peer_files "$1")" ]; }

# unfold: header lines with their continuation lines joined
unfold() {
	awk '/^[ \t]/ { h = h $0; next }
		{ if (NR > 1) print h; h = $0 }
		END { if (NR) print h }'
}

queue_empty() { postqueue -p 2>/dev/null | grep -q '^Mail queue is empty'; }

sql() { sqlite3 -batch -noheader "$DB" "$@"; }
# lit VALUE: an SQL string literal (the test's own Message-IDs only)
lit() { printf "'%s'" "$(printf %s "$1" | sed "s/'/''/g")"; }

# ---- set up: user, files, Postfix, the SMTP peer ------------------------

created_user=
created_group=
sink_pid=
cleanup() {
	if [ -n "${TRIAGE_E2E_KEEP:-}" ]; then
		echo "# TRIAGE_E2E_KEEP: Postfix, $VAR and $LIBEXEC left as they are; $T kept"
		return
	fi
	[ -n "$sink_pid" ] && kill "$sink_pid" 2>/dev/null
	[ -f "$T/resident.pid" ] && kill "$(cat "$T/resident.pid")" 2>/dev/null
	if [ -f "$VAR/main.cf.orig" ]; then
		postsuper -d ALL >/dev/null 2>&1
		postfix stop >/dev/null 2>&1
		cp -p "$VAR/main.cf.orig" "$MAINCF"
		[ -n "$was_running" ] && postfix start >/dev/null 2>&1
	fi
	rm -rf "$VAR" "$LIBEXEC"
	[ -n "$created_user" ] && userdel triage 2>/dev/null
	[ -n "$created_group" ] && getent group triage >/dev/null &&
		groupdel triage 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

setup() {
	if ! getent group triage >/dev/null; then
		groupadd --system triage || return 1
		created_group=1
	fi
	if ! getent passwd triage >/dev/null; then
		useradd --system --gid triage --home-dir /nonexistent \
			--no-create-home --shell /usr/sbin/nologin triage ||
			return 1
		created_user=1
	fi
	# a run killed before its cleanup left Postfix configured for it
	if [ -f "$VAR/main.cf.orig" ]; then
		echo "restoring $MAINCF from an earlier run's backup"
		postfix stop >/dev/null 2>&1
		cp -p "$VAR/main.cf.orig" "$MAINCF" || return 1
	fi
	rm -rf "$VAR" "$LIBEXEC"
	install -d -m 755 "$LIBEXEC" "$VAR" "$VAR/classifiers" || return 1
	install -m 755 "$FILTER" "$LIBEXEC/triage-filter" || return 1
	# the state directory the MTA's user and the triagers share: the
	# triage user's (root's commands become that user; root refuses
	# its own directory a group can write)
	install -d -o triage -g triage -m 2770 "$STATE" || return 1
	install -d -o nobody -m 755 "$DUMP" || return 1
	install -m 644 "$MSGS/MAINTAINERS" "$VAR/MAINTAINERS" &&
		cp -R "$E2E/tree" "$VAR/tree" &&
		install -m 644 "$SRC"/classifiers/*.rules "$VAR/classifiers/" ||
		return 1
	cat >"$CONF" <<-EOF || return 1
	# routes.conf of the end-to-end test (tests/e2e/t0900-postfix.sh)
	state_dir = $STATE
	maintainers = $VAR/MAINTAINERS
	kernel_tree = $VAR/tree
	rules_dir = $VAR/classifiers
	local_rules = $VAR/local.rules
	router_address = $ROUTER
	router_name = "Bug triage"
	bounce_address = $BOUNCES
	transport = sendmail
	sendmail_path = /usr/sbin/sendmail
	sendmail_timeout = 30
	filter_timeout = 60
	action user forward
	action fuzzer digest daily
	action ai hold
	action uncertain hold
	EOF
	chmod 644 "$CONF" || return 1
	# A crash after the commit: forward, then kill the filter (SIGKILL).
	# The filter sends from a child process: kill our parent's parent.
	cat >"$LIBEXEC/sendmail-then-crash" <<-'EOF' || return 1
	#!/bin/sh
	/usr/sbin/sendmail "$@" || exit $?
	read -r _ _ _ filter _ </proc/$PPID/stat
	kill -KILL $filter
	EOF
	chmod 755 "$LIBEXEC/sendmail-then-crash" || return 1

	# The alias file belongs to triage: local(8) runs the command as
	# triage, not as default_privs (nobody).  postalias runs as the
	# owner of the file, so its directory belongs to triage too.
	install -d -o triage -g triage -m 755 "$VAR/alias" || return 1
	cat >"$ALIASES" <<-EOF || return 1
	bugs: "|$LIBEXEC/triage-filter -c $CONF"
	triage-bounces: /dev/null
	EOF
	chown triage:triage "$ALIASES" && postalias "$ALIASES" || return 1

	"$TRIAGE" -c "$CONF" update >"$T/update.out" || return 1
	sed 's/^/# /' "$T/update.out"

	# the SMTP peer: Postfix's smtp-sink, one file per message
	for port in 2625 2626 2627 2628 2629; do
		/usr/sbin/smtp-sink -u nobody -d "$DUMP/%Y%m%d%H%M%S." \
			"127.0.0.1:$port" 20 2>>"$T/sink.err" &
		sink_pid=$!
		sleep 0.2
		kill -0 "$sink_pid" 2>/dev/null && break
		sink_pid=
	done
	[ -n "$sink_pid" ] || { cat "$T/sink.err"; return 1; }

	cp -p "$MAINCF" "$VAR/main.cf.orig" || return 1
	postconf -e "maillog_file = $MAILLOG" \
		'inet_interfaces = loopback-only' 'inet_protocols = ipv4' \
		'mydestination = localhost, localhost.localdomain' \
		"relayhost = [127.0.0.1]:$port" 'default_transport = smtp' \
		'relay_transport = relay' \
		"alias_maps = hash:/etc/aliases, hash:$ALIASES" ||
		return 1
	t0=$(now)
	[ -n "$was_running" ] && postfix stop >/dev/null 2>&1
	postfix start >/dev/null 2>&1 || return 1
	echo "# Postfix started in $(elapsed "$t0" "$(now)") s; SMTP peer smtp-sink on 127.0.0.1:$port"
}

t_start=$(now)
if ! setup >"$T/setup.log" 2>&1; then
	test_expect_success 'set up Postfix, the triage user and the SMTP peer' \
		'cat "$T/setup.log" && false'
	test_done
fi
test_expect_success 'set up Postfix, the triage user and the SMTP peer' '
	cat "$T/setup.log" &&
	postfix status &&
	test "$(stat -c %U "$ALIASES.db")" = triage &&
	test "$(stat -c %a:%U:%G "$STATE")" = 2770:triage:triage &&
	test "$(stat -c %U "$STATE/maintainers.idx")" = triage
'

# ---- a genuine user report is forwarded ----------------------------------

U="$MSGS/user-oops.eml"
U_ID=$(msgid "$U")
send user "$U" reporter@example.org
test_expect_success 'user report: Postfix delivers it to the filter (status=sent)' '
	track user "$U" &&
	ended user sent &&
	q=$(cat "$T/user.qid") &&
	line=$(grep -F "$q: to=<$ROUTER>" "$MAILLOG" | grep status=sent) &&
	echo "$line" | grep -qF "(delivered to command: $LIBEXEC/triage-filter" &&
	echo "# filter run for the user report (Postfix delays=.../d): $(filter_delay user) s"
'

test_expect_success 'user report: Postfix relays one forward to the SMTP peer' '
	wait_until 20 relayed_at_least 1 &&
	echo "# sendmail -> forward accepted by the SMTP peer: $(elapsed "$(cat "$T/user.t0")" "$(now)") s (polled every 0.05 s)" &&
	test "$(peer_count)" = 1 &&
	f=$(peer_files "$U_ID") &&
	test "$(echo "$f" | wc -l)" = 1 && test -n "$f" &&
	echo "$f" >"$T/user.dump"
'

# The peer's file: smtp-sink's X- lines and Received:, the Received: of
# Postfix's pickup, exactly what the filter handed to sendmail (less the
# Return-Path: cleanup(8) drops), and the empty line smtp-sink appends.
test_expect_success 'forward: envelope, resent block and triage headers' '
	f=$(cat "$T/user.dump") &&
	tr -d "\r" <"$f" | sed "/^$/q" | unfold >"$T/fwd.head" &&
	grep -q "^X-Mail-Args: <$BOUNCES>" "$T/fwd.head" &&
	test "$(grep -c "^X-Rcpt-Args:" "$T/fwd.head")" = 1 &&
	grep -q "^X-Rcpt-Args: <$MAINTAINER>" "$T/fwd.head" &&
	grep -q "^Resent-From: \"\\{0,1\\}Bug triage\"\\{0,1\\} <$ROUTER>" "$T/fwd.head" &&
	grep -q "^Resent-To: .*<$MAINTAINER>" "$T/fwd.head" &&
	grep -q "^Resent-Date: " "$T/fwd.head" &&
	grep -q "^Resent-Message-ID: <.*@localhost>" "$T/fwd.head" &&
	grep -q "^X-Triage-Class: user; score=[0-9.]*; rules=USER_" "$T/fwd.head" &&
	grep -qF "X-Triage-Section: $SECTION" "$T/fwd.head" &&
	grep -q "^X-Triage-Reason: ." "$T/fwd.head" &&
	grep -q "^X-Triage-Report: [0-9]" "$T/fwd.head" &&
	grep -q "^X-Loop: $ROUTER" "$T/fwd.head" &&
	grep -q "^Auto-Submitted: auto-generated" "$T/fwd.head" &&
	grep "^\\(Resent-\\|X-Triage-\\|X-Loop\\|Auto-Submitted\\)" "$T/fwd.head" |
		sed "s/^/# /"
'

test_expect_success 'forward: the original (DKIM-signed) message follows byte for byte' '
	f=$(cat "$T/user.dump") &&
	id=$(sql "SELECT id FROM reports WHERE message_id = $(lit "$U_ID") AND state = $(lit forwarded)") &&
	sql "SELECT writefile($(lit "$T/raw"), raw) FROM messages WHERE report = $id" >/dev/null &&
	n=$(wc -c <"$U") &&
	tail -c "$n" "$T/raw" | cmp - "$U" &&
	test "$(tail -c 2 "$f" | od -An -c | tr -d " ")" = "\\n\\n" &&
	head -c -1 "$f" >"$T/fwd.msg" &&
	tail -c "$n" "$T/fwd.msg" | cmp - "$U" &&
	sed "1{/^Return-Path:/d}" "$T/raw" >"$T/raw.expect" &&
	tail -c "$(wc -c <"$T/raw.expect")" "$T/fwd.msg" | cmp - "$T/raw.expect" &&
	echo "# the peer got the $n bytes sent, after the $(($(wc -c <"$T/raw.expect") - n)) bytes local(8) added (Return-Path dropped by cleanup on re-injection)"
'

test_expect_success 'audit: report, decision and outbox rows of the user report' '
	test "$(sql "SELECT class, state, section, envelope_from, envelope_to, deliveries FROM reports WHERE message_id = $(lit "$U_ID")")" = \
		"user|forwarded|$SECTION|reporter@example.org|$ROUTER|1" &&
	test "$(sql "SELECT d.action, d.recipient FROM decisions d JOIN reports r ON r.id = d.report WHERE r.message_id = $(lit "$U_ID")")" = \
		"forward|$MAINTAINER" &&
	test "$(sql "SELECT o.kind, o.state, o.recipients, o.envelope_from, o.attempts FROM outbox o JOIN reports r ON r.id = o.report WHERE r.message_id = $(lit "$U_ID")")" = \
		"forward|sent|$MAINTAINER|$BOUNCES|1" &&
	test "$(sql "SELECT count(*) FROM delivery_attempts a JOIN outbox o ON o.id = a.outbox JOIN reports r ON r.id = o.report WHERE r.message_id = $(lit "$U_ID") AND a.ok = 1")" = 1 &&
	test "$(stat -c %a:%G "$DB")" = 660:triage &&
	test "$(stat -c %U "$DB")" = triage
'

# ---- held and digest classes forward nothing ------------------------------

A="$MSGS/ai-report.eml"
S="$MSGS/syzbot.eml"
send ai "$A" auditor@example.com
send syzbot "$S" syzbot+5d2c0e1f3a4b6c7d8e9f@syzkaller.appspotmail.com
test_expect_success 'AI-style report: held, nothing queued' '
	track ai "$A" && ended ai sent &&
	test "$(sql "SELECT r.class, r.state, d.action FROM reports r JOIN decisions d ON d.report = r.id WHERE r.message_id = $(lit "$(msgid "$A")")")" = "ai|held|hold" &&
	test "$(sql "SELECT count(*) FROM outbox o JOIN reports r ON r.id = o.report WHERE r.message_id = $(lit "$(msgid "$A")")")" = 0
'

test_expect_success 'syzbot report: into the digest, nothing queued now' '
	track syzbot "$S" && ended syzbot sent &&
	test "$(sql "SELECT r.class, r.state, d.action FROM reports r JOIN decisions d ON d.report = r.id WHERE r.message_id = $(lit "$(msgid "$S")")")" = "fuzzer|digest|digest" &&
	test "$(sql "SELECT count(*) FROM outbox o JOIN reports r ON r.id = o.report WHERE r.message_id = $(lit "$(msgid "$S")")")" = 0
'

# ---- a message carrying our X-Loop is held --------------------------------

L="$MSGS/loop.eml"
send loop "$L" reporter@example.org
test_expect_success 'X-Loop: bugs@localhost: held as a mail loop, not forwarded' '
	track loop "$L" && ended loop sent &&
	test "$(sql "SELECT r.class, r.state, d.action FROM reports r JOIN decisions d ON d.report = r.id WHERE r.message_id = $(lit "$(msgid "$L")")")" = "user|held|hold" &&
	sql "SELECT reason FROM decisions d JOIN reports r ON r.id = d.report WHERE r.message_id = $(lit "$(msgid "$L")")" | grep -q "^mail loop" &&
	test "$(sql "SELECT count(*) FROM outbox o JOIN reports r ON r.id = o.report WHERE r.message_id = $(lit "$(msgid "$L")")")" = 0
'

# ---- the same message twice -----------------------------------------------

send again "$U" reporter@example.org
test_expect_success 'the same message sent again: recorded as a duplicate, not forwarded' '
	track again "$U" && ended again sent &&
	test "$(cat "$T/again.qid")" != "$(cat "$T/user.qid")" &&
	first=$(sql "SELECT id FROM reports WHERE message_id = $(lit "$U_ID") AND state = $(lit forwarded)") &&
	test "$(sql "SELECT count(*) FROM reports WHERE message_id = $(lit "$U_ID")")" = 2 &&
	test "$(sql "SELECT state, duplicate_of FROM reports WHERE message_id = $(lit "$U_ID") AND id != $first")" = "duplicate|$first" &&
	test "$(sql "SELECT d.action FROM decisions d JOIN reports r ON r.id = d.report WHERE r.duplicate_of = $first")" = duplicate &&
	test "$(sql "SELECT count(*) FROM outbox")" = 1
'

# ---- an unwritable database defers; the retry delivers once --------------

R="$MSGS/retry.eml"
R_ID=$(msgid "$R")
chmod 0 "$STATE" # not even its owner, the filter's user, can write it
send retry "$R" lee@example.org
test_expect_success 'database not writable: exit 75 and one line, Postfix defers and keeps the message' '
	track retry "$R" && ended retry deferred &&
	q=$(cat "$T/retry.qid") &&
	postqueue -p | grep -q "^$q" &&
	line=$(grep -F "$q: to=<$ROUTER>" "$MAILLOG" | grep status=deferred | tail -1) &&
	echo "$line" | sed "s/.*status=deferred/# status=deferred/" &&
	test "$(echo "$line" | grep -o "triage-filter:" | wc -l)" = 1 &&
	echo "$line" | grep -q "Command output: triage-filter: [^)]*)$" &&
	test "$(sql "SELECT count(*) FROM reports WHERE message_id = $(lit "$R_ID")")" = 0
'
chmod 2770 "$STATE"
log_lines >"$T/retry.flush"
postqueue -f
test_expect_success 'permissions fixed, postqueue -f: delivered and forwarded once' '
	ended retry sent "$(cat "$T/retry.flush")" &&
	wait_until 20 relayed_at_least 2 &&
	test "$(peer_files "$R_ID" | wc -l)" = 1 &&
	test "$(sql "SELECT class, state, deliveries FROM reports WHERE message_id = $(lit "$R_ID")")" = "user|forwarded|1"
'

# ---- a crash after the commit: Postfix redelivers the same bytes ---------

C="$MSGS/after-commit.eml"
C_ID=$(msgid "$C")
cp "$CONF" "$T/routes.conf.good"
echo "sendmail_path = $LIBEXEC/sendmail-then-crash" >>"$CONF"
send crash "$C" kim@example.org
test_expect_success 'killed after the commit (and the forward): Postfix defers' '
	track crash "$C" && ended crash deferred &&
	grep -F "$(cat "$T/crash.qid"): to=<$ROUTER>" "$MAILLOG" | grep -q "signal 9" &&
	test "$(sql "SELECT state, deliveries FROM reports WHERE message_id = $(lit "$C_ID")")" = "forwarded|1"
'
cp "$T/routes.conf.good" "$CONF"
log_lines >"$T/crash.flush"
postqueue -f
test_expect_success 'redelivered bytes are recognised: a redelivery, no second forward' '
	ended crash sent "$(cat "$T/crash.flush")" &&
	wait_until 20 relayed_at_least 3 &&
	test "$(sql "SELECT count(*), max(deliveries) FROM reports WHERE message_id = $(lit "$C_ID")")" = "1|2" &&
	test "$(sql "SELECT count(*) FROM outbox o JOIN reports r ON r.id = o.report WHERE r.message_id = $(lit "$C_ID")")" = 1 &&
	echo "# outbox row of the crashed run: $(sql "SELECT o.state, o.attempts FROM outbox o JOIN reports r ON r.id = o.report WHERE r.message_id = $(lit "$C_ID")")" &&
	test "$(peer_files "$C_ID" | wc -l)" = 1
'

# ---- a forward that bounces comes back: held, not forwarded again -----------

# With bounce_address unset the forward's envelope sender is the router's
# own address, so Postfix returns the bounce of a forward to a bad address
# to the bugs alias.  Without the null-sender rule that bounce (it quotes
# the report) was forwarded again and bounced again, twenty rounds.
W="$MSGS/widget.eml"
GONE=gone@localhost.localdomain
grep -v '^bounce_address' "$T/routes.conf.good" >"$CONF"
send widget "$W" ada@example.org
test_expect_success 'forward to an unknown address bounces back to the router: held' '
	track widget "$W" && ended widget sent &&
	wait_until 20 sh -c "grep -q \"to=<$GONE>.*status=bounced\" \"$MAILLOG\"" &&
	wait_until 20 sh -c "[ \"\$(sqlite3 \"$DB\" \"SELECT count(*) FROM reports WHERE envelope_from = '\'\''\")\" -ge 1 ]" &&
	wait_until 20 queue_empty && sleep 0.5 && queue_empty &&
	n=$(grep -c "to=<$GONE>" "$MAILLOG") &&
	{ test "$n" = 1 || { echo "$n forwards to $GONE: a bounce loop"; false; }; } &&
	test "$(sql "SELECT count(*) FROM reports WHERE envelope_from = $(lit "")")" = 1 &&
	test "$(sql "SELECT r.state, d.action FROM reports r JOIN decisions d ON d.report = r.id WHERE r.envelope_from = $(lit "")")" = "held|hold" &&
	sql "SELECT d.reason FROM reports r JOIN decisions d ON d.report = r.id WHERE r.envelope_from = $(lit "")" | grep -q "^null envelope sender" &&
	test "$(sql "SELECT count(*) FROM outbox o JOIN reports r ON r.id = o.report WHERE r.envelope_from = $(lit "")")" = 0 &&
	echo "# the bounce: $(sql "SELECT subject || \" (\" || size || \" bytes): \" || state FROM reports WHERE envelope_from = $(lit "")")"
'
cp "$T/routes.conf.good" "$CONF"

# ---- in the end ------------------------------------------------------------

# Reports are never bounced: the one bounce is the widget forward's, and
# it went to the router; nothing at all went back to a reporter.
test_expect_success 'all done: queue empty, three forwards relayed, no report bounced' '
	wait_until 20 queue_empty &&
	sleep 0.5 &&
	test "$(peer_count)" = 3 &&
	test "$(relayed_count)" = 3 &&
	test "$(peer_files "$U_ID" | wc -l)" = 1 &&
	test "$(grep -c "status=bounced" "$MAILLOG")" = 1 &&
	grep "status=bounced" "$MAILLOG" | grep -q "to=<$GONE>" &&
	test "$(grep -c "sender non-delivery notification" "$MAILLOG")" = 1 &&
	! grep -q "to=<$ROUTER>.*status=bounced" "$MAILLOG" &&
	! grep -q "to=<\(reporter\|auditor\|syzbot[^@]*\|lee\|kim\|ada\)@" "$MAILLOG" &&
	test "$(grep -c "to=<$ROUTER>.*status=deferred" "$MAILLOG")" = 2 &&
	test "$(grep -c "to=<$ROUTER>.*status=sent (delivered to command" "$MAILLOG")" = 9 &&
	echo "# $(sql "SELECT count(*) FROM reports") reports recorded: $(sql "SELECT group_concat(state || \"=\" || n, \" \") FROM (SELECT state, count(*) AS n FROM reports GROUP BY state)")" &&
	echo "# end-to-end run: $(elapsed "$t_start" "$(now)") s"
'

# ---- a maintainer's reply to the report's own address (issue 23) ----------

# The forward's Reply-To names bugs+ID-TOKEN@: with recipient_delimiter
# Postfix delivers that address to the bugs alias, and the filter joins
# the report by it alone (the subject is new, no References), runs the
# maintainer's command and mails one confirmation back through Postfix.
# reply_delivered: local(8) logged the reply's delivery to the command
# (after the filter's commit: the log line is what ends the delivery)
reply_delivered() {
	log_after "$(cat "$T/reply.line")" |
		grep -q "to=<$(cat "$T/reply.addr")>, relay=local.*status=sent (delivered to command"
}
test_expect_success 'reply address: bugs+ID-TOKEN@ through Postfix joins the report and runs its command' '
	addr=$(sed -n "s/^Reply-To:.*\(bugs+[0-9]*-[a-z2-7]*@localhost\).*/\1/p" "$T/fwd.head") &&
	test -n "$addr" &&
	first=$(sql "SELECT id FROM reports WHERE message_id = $(lit "$U_ID") AND state = $(lit forwarded)") &&
	postconf -e "recipient_delimiter = +" && postfix reload >/dev/null 2>&1 &&
	printf "From: A Maintainer <%s>\nTo: %s\nSubject: your network oops\nMessage-ID: <e2e-reply.1@example.net>\nDate: Sat, 05 Dec 2026 10:00:00 +0000\n\nThanks, I can see it here too.\n\n#triage note seen on the maintainer board as well\n" \
		"$MAINTAINER" "$addr" >"$T/reply.eml" &&
	log_lines >"$T/reply.line" &&
	/usr/sbin/sendmail -f "$MAINTAINER" "$addr" <"$T/reply.eml" &&
	echo "$addr" >"$T/reply.addr" &&
	wait_until 20 reply_delivered &&
	test "$(sql "SELECT thread_root FROM reports WHERE message_id = $(lit e2e-reply.1@example.net)")" = "$first" &&
	sql "SELECT action || \"|\" || detail FROM actions WHERE report = $first" | grep -q "^note|seen on the maintainer board as well" &&
	wait_until 20 sh -c "grep -lq \"Your commands for report #$first\" \"$DUMP\"/*" &&
	c=$(grep -l "Your commands for report #$first" "$DUMP"/*) &&
	test "$(echo "$c" | wc -l)" = 1 &&
	tr -d "\r" <"$c" | sed "/^$/q" | unfold >"$T/confirm.head" &&
	grep -q "^X-Rcpt-Args: <$MAINTAINER>" "$T/confirm.head" &&
	grep -q "^Auto-Submitted: auto-replied" "$T/confirm.head" &&
	echo "# the confirmation: $(grep -c "" "$c") lines to $MAINTAINER, from the report address $addr"
'

# ---- the resident filter behind triage-client -------------------------------

# The alias now runs triage-client, installed alone (no triage-filter
# beside it to fall back on): a report recorded proves the worker did it.
RUN=$VAR/run
SOCK=$RUN/filter.sock
R="$T/resident-oops.eml"
sed -e 's/^Message-ID: <\(.*\)>/Message-ID: <resident.\1>/' \
	-e 's/rtl_rx/rtl_rx_resident/g' "$U" >"$R"
R_ID=$(msgid "$R")
test_expect_success 'resident: triage-filter -l as triage, the alias runs triage-client' '
	install -d -o triage -g triage -m 750 "$RUN" &&
	install -d -m 755 "$LIBEXEC/alone" &&
	install -m 755 "$SRC/triage-client" "$LIBEXEC/alone/triage-client" &&
	{ setpriv --reuid=triage --regid=triage --init-groups \
		"$LIBEXEC/triage-filter" -c "$CONF" -l "$SOCK" -n 2 \
		</dev/null >"$T/resident.log" 2>&1 & } &&
	echo $! >"$T/resident.pid" &&
	wait_until 10 test -S "$SOCK" &&
	test "$(stat -c %U "$SOCK")" = triage &&
	printf "bugs: \"|%s -s %s -c %s\"\ntriage-bounces: /dev/null\n" \
		"$LIBEXEC/alone/triage-client" "$SOCK" "$CONF" >"$ALIASES" &&
	chown triage:triage "$ALIASES" && postalias "$ALIASES" &&
	postfix reload >/dev/null 2>&1
'

send resident "$R" reporter@example.org
test_expect_success 'resident: Postfix delivers to triage-client, the worker records and forwards' '
	track resident "$R" &&
	ended resident sent &&
	q=$(cat "$T/resident.qid") &&
	grep -F "$q: to=<$ROUTER>" "$MAILLOG" | grep status=sent |
		grep -qF "(delivered to command: $LIBEXEC/alone/triage-client" &&
	test "$(sql "SELECT state || \"|\" || envelope_from FROM reports WHERE message_id = $(lit "$R_ID")")" = "forwarded|reporter@example.org" &&
	wait_until 20 has_peer_file "$R_ID" &&
	test "$(peer_files "$R_ID" | wc -l)" = 1 &&
	echo "# triage-client run for the report (Postfix delays=.../d): $(filter_delay resident) s"
'

test_expect_success 'resident: SIGTERM ends it and removes the socket' '
	kill -TERM "$(cat "$T/resident.pid")" &&
	wait_until 10 test ! -e "$SOCK" &&
	! test -s "$T/resident.log"
'

test_done
