#!/bin/sh
# t0650-load: TRIAGE_LOAD_JOBS (16) concurrent triage-filter processes
# over TRIAGE_LOAD_MSGS (2000) messages, with 'triage deliver --daemon'
# draining the outbox to an SMTP peer meanwhile: every filter exits 0
# (no SQLITE_BUSY surfaces), every message is recorded once, queued once
# and sent once.  Then 'triage serve' under TRIAGE_LOAD_CLIENTS (32)
# concurrent clients posting TRIAGE_LOAD_EVENTS (20) distinct webhook
# events each, every one twice (a Bugzilla retry): every POST answered,
# every distinct event stored once.
. "$(dirname "$0")/../lib.sh"
. "$SRC/tests/helpers/faults-lib.sh"
JOBS=${TRIAGE_LOAD_JOBS:-16}
N=${TRIAGE_LOAD_MSGS:-2000}
CLIENTS=${TRIAGE_LOAD_CLIENTS:-32}
EVENTS=${TRIAGE_LOAD_EVENTS:-20}
DB="$T/state/triage.db"
q() { sqlite3 -cmd ".timeout 10000" "$DB" "$1"; }
DAEMON=
SERVE=
cleanup() {
	for p in $DAEMON $SERVE; do kill "$p" 2>/dev/null; done
	for f in "$T/daemon.pid" "$T/resident.pid"; do
		[ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
	done
	stop_peer "$T/peer"
	rm -rf "$T"
}
trap cleanup EXIT

if ! command -v sqlite3 >/dev/null || ! command -v python3 >/dev/null ||
   ! [ -x "$SRC/triage-net" ]; then
	test_skip "needs sqlite3, python3 and triage-net"
	test_done
fi

now_ms() { python3 -c 'import time; print(int(time.time() * 1000))'; }

# under valgrind (TRIAGE_VALGRIND) a transaction takes 50 times longer:
# 16 of them in a row outlast the default busy timeout (5 s)
BUSY=5000
[ -z "$VGLOG" ] || BUSY=120000
test_setup "an SMTP peer, $N messages" '
	start_peer "$T/peer" &&
	write_conf "$T/routes.conf" "smtp_host = 127.0.0.1" "smtp_port = $PEER_PORT" \
		"deliver_interval = 1" "db_busy_timeout = $BUSY" &&
	make_messages "$T/msgs" "$N" l
'

# run_load - the rest of the messages through JOBS concurrent filters
run_load() {
	tail -n +2 "$T/msgs/list" >"$T/rest" &&
	: >"$T/exits" &&
	: >"$T/stderr" &&
	t0=$(now_ms) &&
	xargs -P "$JOBS" -n 1 sh -c '"$0" <"$3" 2>>"$1"; echo $? >>"$2"' \
		"$FILTER" "$T/stderr" "$T/exits" <"$T/rest" &&
	t1=$(now_ms) &&
	n=$(($(wc -l <"$T/exits") + 1)) &&
	echo "# load: $n messages by $JOBS concurrent filters in $((t1 - t0)) ms, $(((n - 1) * 1000 / (t1 - t0 + 1))) msgs/s; exits: $(sort "$T/exits" | uniq -c | awk '{ printf "%s x %s ", $1, $2 }')" &&
	echo "# stderr lines: $(wc -l <"$T/stderr")" &&
	head -5 "$T/stderr"
}

count_states() {
	q "SELECT group_concat(n, ', ') FROM (SELECT count(*) || ' ' || state AS n FROM outbox GROUP BY state)"
}

unsent() { q "SELECT count(*) FROM outbox WHERE state <> 'sent'"; }
all_sent() { test "$(unsent)" = 0; }

test_expect_success "$JOBS concurrent filters over $N messages, deliver --daemon running" '
	"$FILTER" <"$T/msgs/l.0.eml" &&
	{ "$TRIAGE" deliver --daemon 2>"$T/daemon.err" & } &&
	echo $! >"$T/daemon.pid" &&
	run_load &&
	test "$n" = "$N" &&
	test "$(grep -vc "^0$" "$T/exits")" = 0 &&
	test ! -s "$T/stderr" &&
	test "$(q "SELECT count(*), count(DISTINCT message_id) FROM reports")" = "$N|$N" &&
	test "$(q "SELECT count(*) FROM reports WHERE state <> '"'"'forwarded'"'"'")" = 0 &&
	test "$(q "SELECT count(*), count(DISTINCT report) FROM outbox WHERE kind = '"'"'forward'"'"'")" = "$N|$N"
'

test_expect_success 'the daemon sends every forward exactly once' '
	start=$(date +%s) &&
	test_wait 120 all_sent &&
	kill -TERM "$(cat "$T/daemon.pid")" &&
	echo "# outbox: $(count_states), drained $(($(date +%s) - start)) s after the last filter" &&
	count_spool "$T/peer" "$N" l &&
	test ! -s "$T/daemon.err" &&
	test "$(q "PRAGMA integrity_check")" = ok
'

# The same through triage-client and a resident filter of 2 workers:
# 16 clients at a time wait in its listen queue, none is lost.
test_expect_success "$JOBS concurrent triage-clients over $N messages, a resident filter of 2 workers" '
	make_messages "$T/msgs-r" "$N" r &&
	{ "$FILTER" -l "$T/filter.sock" -n 2 2>"$T/resident.err" & } &&
	echo $! >"$T/resident.pid" &&
	test_wait 5 test -S "$T/filter.sock" &&
	: >"$T/exits" && : >"$T/stderr" &&
	t0=$(now_ms) &&
	xargs -P "$JOBS" -n 1 sh -c '"'"'"$0" -s "$1" <"$4" 2>>"$2"; echo $? >>"$3"'"'"' \
		"$SRC/triage-client" "$T/filter.sock" "$T/stderr" "$T/exits" <"$T/msgs-r/list" &&
	t1=$(now_ms) &&
	wal=$(stat -c %s "$DB-wal") &&
	kill -TERM "$(cat "$T/resident.pid")" &&
	echo "# resident: $N messages by $JOBS concurrent clients in $((t1 - t0)) ms, $((N * 1000 / (t1 - t0 + 1))) msgs/s; exits: $(sort "$T/exits" | uniq -c | awk '"'"'{ printf "%s x %s ", $1, $2 }'"'"'); WAL $((wal / 4120)) pages" &&
	# two busy workers: the WAL still starts over (wal_hook() in store/db.c),
	# at most 4000 pages and what commits while it waits
	test "$wal" -le $((6000 * 4120)) &&
	test "$(wc -l <"$T/exits")" = "$N" &&
	test "$(grep -vc "^0$" "$T/exits")" = 0 &&
	test ! -s "$T/stderr" && test ! -s "$T/resident.err" &&
	test "$(q "SELECT count(*), count(DISTINCT message_id) FROM reports WHERE message_id LIKE '"'"'r.%'"'"'")" = "$N|$N" &&
	test "$(q "SELECT count(*) FROM reports WHERE message_id LIKE '"'"'r.%'"'"' AND state <> '"'"'forwarded'"'"'")" = 0 &&
	test "$(q "PRAGMA integrity_check")" = ok
'

TOKEN=load-token-abcdefghijklmnop
echo "$TOKEN" >"$T/token"
echo "bz-test-key-0123456789" >"$T/bzkey"
cat >>"$T/routes.conf" <<EOF
webhook_token_file = $T/token
bugzilla_url = http://127.0.0.1:1
bugzilla_api_key_file = $T/bzkey
bugzilla_timeout = 2
webhook_deadline = 30
db_busy_timeout = 1000
EOF

# poster.py PORT TOKEN CLIENTS EVENTS ADDRS: CLIENTS threads, each
# posting EVENTS distinct events twice (the second a Bugzilla retry),
# from ADDRS loopback addresses; a refused or reset connection is tried
# again (as Bugzilla does) and counted; prints "STATUS dup=D COUNT"
# lines and a "# " summary
cat >"$T/poster.py" <<-\EOF
	import http.client, json, sys, threading, time, collections
	port, token = int(sys.argv[1]), sys.argv[2]
	clients, events, addrs = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
	res = collections.Counter()
	lock = threading.Lock()
	def body(c, e):
	    bug = 100000 + c * 1000 + e
	    return json.dumps({"webhook_id": 7, "webhook_name": "kernel",
	        "event": {"action": "create", "target": "bug", "routing_key": "bug.create",
	                  "time": "2024-04-01T10:00:00", "user": {"id": 7, "login": "jane@example.net"}},
	        "bug": {"id": bug, "is_private": False, "product": "Drivers", "summary": "s",
	                "comment": {"id": bug * 10, "number": 0, "body": "b", "is_private": False}}})
	def client(c):
	    src = "127.0.0.%d" % (2 + c % addrs)
	    for e in range(events):
	        b = body(c, e)
	        for attempt in (1, 2):
	            for tries in range(50):
	                try:
	                    h = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(src, 0))
	                    h.request("POST", "/bugzilla", body=b, headers={"Content-Type": "application/json", "Authorization": "Token " + token})
	                    r = h.getresponse()
	                    d = r.read()
	                    h.close()
	                    dup = json.loads(d).get("duplicate") if r.status == 200 else "-"
	                    with lock: res["%d dup=%s" % (r.status, dup)] += 1
	                    if r.status == 200:
	                        break
	                except (OSError, http.client.HTTPException) as ex:
	                    with lock: res["error " + type(ex).__name__] += 1
	                time.sleep(0.1)
	t0 = time.time()
	ts = [threading.Thread(target=client, args=(c,)) for c in range(clients)]
	for t in ts: t.start()
	for t in ts: t.join()
	dt = time.time() - t0
	n = sum(res.values())
	for k, v in sorted(res.items()): print(k, v)
	print("# webhook: %d POSTs by %d clients from %d addresses in %.1f s, %.0f POSTs/s: %s"
	      % (n, clients, addrs, dt, n / dt, ", ".join("%s: %d" % kv for kv in sorted(res.items()))))
EOF

start_serve() {
	: >"$T/serve.err" &&
	{ "$TRIAGE" serve --listen 127.0.0.1:0 --no-deliver 2>>"$T/serve.err" & } &&
	SERVE=$! &&
	test_wait 10 grep -q "listening on" "$T/serve.err" &&
	WPORT=$(sed -n 's/.*listening on 127.0.0.1:\([0-9]*\).*/\1/p' "$T/serve.err")
}

# posted ADDRS - the poster from ADDRS addresses; every event stored once
posted() {
	python3 "$T/poster.py" "$WPORT" "$TOKEN" "$CLIENTS" "$EVENTS" "$1" >"$T/posts" &&
	cat "$T/posts" &&
	total=$((CLIENTS * EVENTS)) &&
	test "$(q "SELECT count(*), count(DISTINCT bug_id) FROM bugzilla_events WHERE bug_id >= 100000")" = "$total|$total" &&
	grep -qx "200 dup=False $total" "$T/posts" &&
	grep -qx "200 dup=True $total" "$T/posts" &&
	kill -0 $SERVE
}

start_serve || { cat "$T/serve.err"; exit 1; }
test_expect_success "serve: $CLIENTS concurrent clients from 8 addresses, $EVENTS events each, each posted twice" '
	posted 8 &&
	test "$(wc -l <"$T/posts")" = 3
'

test_expect_success "serve: $CLIENTS concurrent clients from one address (16 connections per address)" '
	q "DELETE FROM bugzilla_events" &&
	posted 1
'

test_expect_success 'serve: a database locked past the busy timeout gives 503 and Retry-After' '
	rm -f "$T/locked" "$T/unlock" &&
	{ python3 - "$DB" "$T/locked" "$T/unlock" <<-\PY &
	import os, sqlite3, sys, time
	c = sqlite3.connect(sys.argv[1], isolation_level=None)
	c.execute("BEGIN IMMEDIATE")
	c.execute("DELETE FROM bugzilla_events WHERE bug_id = 0")
	open(sys.argv[2], "w").close()
	for i in range(1200):
	    if os.path.exists(sys.argv[3]):
	        break
	    time.sleep(0.05)
	c.execute("COMMIT")
	PY
	} &&
	locker=$! &&
	test_wait 5 test -e "$T/locked" &&
	python3 - "$WPORT" "$TOKEN" >"$T/r503" <<-\PY &&
	import http.client, json, sys
	body = json.dumps({"webhook_id": 7, "webhook_name": "kernel",
	    "event": {"action": "create", "target": "bug", "routing_key": "bug.create",
	              "time": "2024-04-01T10:00:00", "user": {"id": 7, "login": "jane@example.net"}},
	    "bug": {"id": 99, "is_private": False, "product": "Drivers", "summary": "s",
	            "comment": {"id": 990, "number": 0, "body": "b", "is_private": False}}})
	h = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=30)
	h.request("POST", "/bugzilla", body=body, headers={"Authorization": "Token " + sys.argv[2]})
	r = h.getresponse()
	print(r.status, r.getheader("Retry-After"))
	PY
	touch "$T/unlock" &&
	wait $locker &&
	cat "$T/r503" &&
	test "$(cat "$T/r503")" = "503 30" &&
	test "$(q "SELECT count(*) FROM bugzilla_events WHERE bug_id = 99")" = 0 &&
	kill -0 $SERVE
'

test_done
