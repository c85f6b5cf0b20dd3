#!/bin/sh
# t0620-smtp-faults: 'triage deliver' against an SMTP peer that is down,
# greets with 421, answers 451 or 550, fails the data with 451, or
# stalls: temporary failures are retried later on the backoff schedule,
# a 550 fails the report (shown by 'triage pending', resent by approve),
# and in the end every forward reached the peer exactly once.
. "$(dirname "$0")/../lib.sh"
. "$SRC/tests/helpers/faults-lib.sh"
DB="$T/state/triage.db"
q() { sqlite3 "$DB" "$1"; }
trap 'stop_peer "$T/peer"; rm -rf "$T"' EXIT

if ! command -v sqlite3 >/dev/null || ! command -v python3 >/dev/null ||
   ! [ -x "$SRC/triage-net" ]; then
	test_skip "needs sqlite3, python3 and triage-net"
	test_done
fi

peer() { echo "$1" >"$T/peer/mode"; }
# due [WHERE] - make queued rows due now
due() { q "UPDATE outbox SET next_attempt_at = 0 WHERE state = 'queued' ${1:+AND $1}"; }
states() { q "SELECT group_concat(x, ',') FROM (SELECT state || ':' || attempts AS x FROM outbox ORDER BY id)"; }
# kept - the peer holds a message it has not answered yet (mode slow)
kept() { ls "$T/peer"/kept.* >/dev/null 2>&1; }

test_setup 'an SMTP peer, seven reports for it' '
	start_peer "$T/peer" &&
	write_conf "$T/routes.conf" "smtp_host = 127.0.0.1" "smtp_port = $PEER_PORT" \
		"smtp_connect_timeout = 2" "smtp_timeout = 2" &&
	make_messages "$T/msgs" 6 g &&
	make_messages "$T/msgs" 1 p
'

test_expect_success 'seven reports recorded, their forwards queued' '
	for m in "$T"/msgs/*.eml; do "$FILTER" <"$m" || exit 1; done &&
	test "$(q "SELECT count(*) FROM outbox WHERE state = '"'"'queued'"'"'")" = 7
'

test_expect_success 'peer down: every forward is retried later, with backoff' '
	stop_peer "$T/peer" &&
	now=$(date +%s) &&
	"$TRIAGE" deliver >"$T/out" &&
	grep "^deliver: 0 sent, 7 to retry, 0 failed" "$T/out" &&
	test "$(q "SELECT count(*) FROM outbox WHERE state = '"'"'queued'"'"' AND attempts = 1 AND next_attempt_at >= $now + 60")" = 7 &&
	echo "# down: $(q "SELECT last_error FROM outbox LIMIT 1")" &&
	"$TRIAGE" deliver >"$T/out" &&
	grep "^deliver: 0 sent, 0 to retry, 0 failed" "$T/out"
'

# the peer again, on another port
test_expect_success 'the peer is back' '
	old=$(sed -n "s/^smtp_port = //p" "$T/routes.conf") &&
	start_peer "$T/peer" &&
	test "$PEER_PORT" != "$old" &&
	sed -i "s/^smtp_port = .*/smtp_port = $PEER_PORT/" "$T/routes.conf"
'

for mode in 421 451 data451; do
test_expect_success "peer answers $mode: retried later, the backoff grows" '
	peer '$mode' &&
	due &&
	now=$(date +%s) &&
	"$TRIAGE" deliver >"$T/out" &&
	grep "^deliver: 0 sent, 7 to retry, 0 failed" "$T/out" &&
	test "$(q "SELECT count(*) FROM outbox WHERE state = '"'"'queued'"'"' AND next_attempt_at >= $now + 60")" = 7 &&
	echo "# '$mode': $(q "SELECT attempts || \" attempts, next in \" || (next_attempt_at - $now) || \" s: \" || last_error FROM outbox LIMIT 1")" &&
	test -z "$(ls "$T/peer" | grep "^msg\.")"
'
done

test_expect_success 'a stalled peer: the transaction times out, retried later' '
	peer stall &&
	due "id IN (SELECT id FROM outbox ORDER BY id LIMIT 2)" &&
	start=$(date +%s) &&
	"$TRIAGE" deliver >"$T/out" &&
	grep "^deliver: 0 sent, 2 to retry, 0 failed" "$T/out" &&
	echo "# stall: $(($(date +%s) - start)) s for 2 sends (smtp_timeout = 2): $(q "SELECT last_error FROM outbox ORDER BY id LIMIT 1")" &&
	test "$(q "SELECT count(*) FROM outbox WHERE state = '"'"'queued'"'"'")" = 7
'

test_expect_success 'a 550: the report failed, shown in pending' '
	peer 550 &&
	due "report = (SELECT id FROM reports WHERE message_id = '"'"'p.0@faults.example'"'"')" &&
	"$TRIAGE" deliver >"$T/out" &&
	grep "^deliver: 0 sent, 0 to retry, 1 failed" "$T/out" &&
	test "$(q "SELECT state FROM reports WHERE message_id = '"'"'p.0@faults.example'"'"'")" = failed &&
	id=$(q "SELECT id FROM reports WHERE message_id = '"'"'p.0@faults.example'"'"'") &&
	"$TRIAGE" pending >"$T/pending" &&
	awk -F "\t" -v id="$id" "\$1 == id && \$3 == \"failed\"" "$T/pending" | grep -q . &&
	echo "# 550: $(q "SELECT last_error FROM outbox WHERE state = '"'"'failed'"'"'")"
'

test_expect_success 'the peer answers again: every forward sent exactly once' '
	peer ok &&
	due &&
	"$TRIAGE" deliver >"$T/out" &&
	grep "^deliver: 6 sent, 0 to retry, 0 failed" "$T/out" &&
	id=$(q "SELECT id FROM reports WHERE message_id = '"'"'p.0@faults.example'"'"'") &&
	"$TRIAGE" approve "$id" >/dev/null &&
	"$TRIAGE" deliver >"$T/out" &&
	grep "^deliver: 1 sent, 0 to retry, 0 failed" "$T/out" &&
	"$TRIAGE" deliver >"$T/out" &&
	grep "^deliver: 0 sent, 0 to retry, 0 failed" "$T/out" &&
	count_spool "$T/peer" 6 g &&
	count_spool "$T/peer" 1 p &&
	echo "# attempts per row: $(states)"
'

test_expect_success 'the database locked while the peer accepts: the result is recorded later' '
	make_messages "$T/msgs" 1 w &&
	"$FILTER" <"$T/msgs/w.0.eml" &&
	peer slow &&
	echo "db_busy_timeout = 300" >>"$T/routes.conf" &&
	rm -f "$T/peer"/kept.* "$T/peer/release" &&
	{ "$TRIAGE" deliver >"$T/out" 2>"$T/err" & } &&
	echo $! >"$T/deliver.pid" &&
	test_wait 5 kept &&
	# the peer answers once the lock is held: deliver finds it locked
	python3 - "$DB" "$T/peer/release" <<-\PY &&
	import sqlite3, sys, time
	c = sqlite3.connect(sys.argv[1], isolation_level=None)
	c.execute("BEGIN IMMEDIATE")
	open(sys.argv[2], "w").close()
	time.sleep(1)
	c.execute("COMMIT")
	PY
	wait "$(cat "$T/deliver.pid")" &&
	cat "$T/out" "$T/err" &&
	grep "^deliver: 1 sent, 0 to retry, 0 failed" "$T/out" &&
	grep -q "recording the result again" "$T/err" &&
	test "$(q "SELECT o.state FROM outbox o JOIN reports r ON r.id = o.report WHERE r.message_id = '"'"'w.0@faults.example'"'"'")" = sent &&
	count_spool "$T/peer" 1 w
'

test_done
