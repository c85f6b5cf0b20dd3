#!/bin/sh
# t0600-kill: triage-filter killed (SIGKILL) at random points and
# redelivered as Postfix does, over TRIAGE_KILL_RUNS messages (1000):
# every report is recorded exactly once and forwarded exactly once,
# complete, with 'transport = sendmail' and with the outbox drained by
# 'triage deliver' over SMTP.  Then 'triage deliver' itself killed at
# random points (TRIAGE_KILL_DELIVER_ROUNDS runs, 100): none lost.
. "$(dirname "$0")/../lib.sh"
. "$SRC/tests/helpers/faults-lib.sh"
N=${TRIAGE_KILL_RUNS:-1000}
SEED=${TRIAGE_KILL_SEED:-$(date +%s)}
DB="$T/state/triage.db"
q() { sqlite3 "$DB" "$1"; }
trap 'stop_peer "$T/peer"; rm -rf "$T"' EXIT

if ! command -v sqlite3 >/dev/null || ! command -v python3 >/dev/null ||
   ! command -v "${CC:-cc}" >/dev/null; then
	test_skip "needs sqlite3, python3 and a C compiler"
	test_done
fi

test_setup 'build tests/helpers/killrun.c' 'build_killrun'

# check_db N - each of the N reports recorded once, forwarded, one row
check_db() {
	test "$(q "SELECT count(*), count(DISTINCT message_id) FROM reports")" = "$1|$1" &&
	test "$(q "SELECT count(*) FROM reports WHERE state <> 'forwarded'")" = 0 &&
	test "$(q "SELECT count(*), count(DISTINCT report) FROM outbox WHERE kind = 'forward'")" = "$1|$1" &&
	echo "# database: $1 reports, each once; $(q "SELECT count(*) FROM reports WHERE deliveries > 1") were killed after their commit (delivered again: $(q "SELECT coalesce(sum(deliveries - 1), 0) FROM reports") times)" &&
	echo "# outbox after the runs: $(q "SELECT group_concat(n, ', ') FROM (SELECT count(*) || ' ' || state AS n FROM outbox GROUP BY state)")"
}

test_expect_success "transport = sendmail: $N messages, the filter killed at random points" '
	write_conf "$T/routes.conf" "transport = sendmail" \
		"sendmail_path = $T/sendmail" "sendmail_timeout = 10" &&
	sendmail_standin "$T/sendmail" "$T/spool" &&
	make_messages "$T/msgs" "$N" m &&
	"$T/killrun" -s "$SEED" -k 30000 -- "$FILTER" <"$T/msgs/list" &&
	check_db "$N"
'

# none_sending - no outbox row is being sent
none_sending() { test "$(q "SELECT count(*) FROM outbox WHERE state = 'sending'")" = 0; }

# (a row whose filter and sender were both killed stays "sending" until
# its lease ends: the test ends the leases itself after 10 s at most)
test_expect_success 'transport = sendmail: after the leases, each forward was sent once' '
	{ test_wait 10 none_sending || :; } &&
	q "UPDATE outbox SET next_attempt_at = 0 WHERE state = '"'"'sending'"'"'" &&
	"$TRIAGE" deliver >"$T/deliver.out" &&
	echo "# after the leases: $(cat "$T/deliver.out")" &&
	test "$(q "SELECT count(*) FROM outbox WHERE state <> '"'"'sent'"'"'")" = 0 &&
	count_spool "$T/spool" "$N" m
'

test_expect_success "transport = smtp: $N messages, the filter killed at random points" '
	rm -rf "$T/state" &&
	start_peer "$T/peer" &&
	write_conf "$T/routes.conf" "smtp_host = 127.0.0.1" \
		"smtp_port = $PEER_PORT" "smtp_timeout = 10" &&
	make_messages "$T/smsgs" "$N" s &&
	"$T/killrun" -s "$SEED" -k 20000 -- "$FILTER" <"$T/smsgs/list" &&
	check_db "$N"
'

test_expect_success 'transport = smtp: triage deliver sent each forward once' '
	"$TRIAGE" deliver >"$T/deliver.out" &&
	echo "# $(cat "$T/deliver.out")" &&
	test "$(q "SELECT count(*) FROM outbox WHERE state <> '"'"'sent'"'"'")" = 0 &&
	"$TRIAGE" deliver >"$T/deliver.out" &&
	grep "^deliver: 0 sent, 0 to retry, 0 failed" "$T/deliver.out" &&
	count_spool "$T/peer" "$N" s
'

# The other process that sends: 'triage deliver' killed at random points
# while it sends over SMTP.  A kill after the peer's 250 and before the
# row is marked sent cannot be told from one before the 250: the row is
# sent again when its lease ends (the peer would need to de-duplicate on
# Resent-Message-ID).  Nothing may be lost or cut short; the duplicates
# are counted.
R=${TRIAGE_KILL_DELIVER_ROUNDS:-100}
B=5
# kill_deliver_rounds - R rounds: queue B forwards, run triage deliver,
# kill it at a random point of its run, and run it again unkilled
kill_deliver_rounds() {
	make_messages "$T/dmsgs" $((R * B + B)) d &&
	split -l $B -a 4 "$T/dmsgs/list" "$T/dmsgs/batch." &&
	set -- "$T"/dmsgs/batch.* &&
	# the first batch, unkilled: how long a run takes
	for m in $(cat "$1"); do "$FILTER" <"$m" || return 1; done &&
	t0=$(date +%s%N) &&
	"$TRIAGE" deliver >/dev/null &&
	us=$((($(date +%s%N) - t0) / 1000)) &&
	shift &&
	: >"$T/kd.out" &&
	for b in "$@"; do
		for m in $(cat "$b"); do "$FILTER" <"$m" || return 1; done &&
		echo /dev/null | "$T/killrun" -s "$SEED" -k $((us * 12 / 10)) \
			-P 0 -- "$TRIAGE" deliver >>"$T/kd.out" &&
		SEED=$((SEED + 1)) || return 1
	done &&
	echo "# triage deliver: $R runs with $B forwards due (an unkilled one took $us us), each killed at a random point: $(grep -c " 1 killed while running" "$T/kd.out") killed while running"
}

test_expect_success "triage deliver killed at random points in $R runs: none lost" '
	rm -f "$T/peer"/msg.* &&
	kill_deliver_rounds &&
	echo "# rows left sending (killed mid-send): $(q "SELECT count(*) FROM outbox WHERE state = '"'"'sending'"'"'")" &&
	q "UPDATE outbox SET next_attempt_at = 0 WHERE state IN ('"'"'sending'"'"', '"'"'queued'"'"')" &&
	"$TRIAGE" deliver >"$T/deliver.out" &&
	echo "# after the leases: $(cat "$T/deliver.out")" &&
	test "$(q "SELECT count(*) FROM outbox WHERE state <> '"'"'sent'"'"'")" = 0 &&
	{ count_spool "$T/peer" $((R * B + B)) d || true; } >"$T/count" &&
	cat "$T/count" &&
	grep -q " 0 missing, .* 0 truncated or empty$" "$T/count"
'

stop_peer "$T/peer"
test_done
