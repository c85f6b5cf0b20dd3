#!/bin/sh
# t0255-resident: 'triage-filter -l' behind triage-client decides as
# triage-filter does, and no report is lost when it is absent, busy with
# another configuration, killed, hung or sent garbage
. "$(dirname "$0")/../lib.sh"
CLIENT="$SRC/triage-client"
cat >"$T/routes.conf" <<CONF
state_dir = $T/state
maintainers = $SRC/tests/data/MAINTAINERS.kernel
rules_dir = $SRC/classifiers
router_address = triage@example.org
filter_timeout = 2
# every corpus message comes from one envelope sender: no cap, so that
# what is compared is the pipeline's decisions, not the sender cap's
sender_cap = 0
CONF
export TRIAGE_CONFIG="$T/routes.conf"
unset TRIAGE_STATE_DIR
SOCK="$T/filter.sock"
DB="$T/state/triage.db"
# (a worker that ends closes its connection, which may lock a moment)
q() { sqlite3 -cmd ".timeout 5000" "$1" "$2"; }
# a client alone in a directory: with no triage-filter beside it, a
# message it could not hand over fails (75) instead of being run there
mkdir -p "$T/alone" && cp "$CLIENT" "$T/alone/triage-client"
ALONE="$T/alone/triage-client"
# the corpus: every message of tests/corpus/classify and explain
find "$SRC/tests/corpus/classify" "$SRC/tests/corpus/explain" -name '*.eml' |
	sort >"$T/corpus"
DECISIONS="select r.class, r.state, coalesce(r.section, ''), d.action, coalesce(d.recipient, ''), d.reason from reports r join decisions d on d.report = r.id order by r.sha256, d.id"

start_worker() {
	{ "$FILTER" -l "$SOCK" -n 2 2>>"$T/worker.log" & } &&
	WPID=$! &&
	test_wait 5 test -S "$SOCK"
}
workers() { cat /proc/$WPID/task/*/children 2>/dev/null; }
have_two() { test "$(workers | wc -w)" = 2; }
# two_workers: wait up to 3 s for both workers (forked after the socket
# is made; one killed just before its first second is replaced after a
# pause)
two_workers() { test_wait 3 have_two; }
# fresh TAG: the XFS report as a new one (its own Message-ID, crash and
# reporter: one sender's reports beyond sender_cap would wait)
fresh() {
	sed -e "s/^Message-ID: </Message-ID: <$1./" -e "s/xfs_inode_item_push/xfs_$1_push/g" \
		-e "s/dana@example.com/dana.$1@example.com/" \
		"$SRC/tests/corpus/explain/0001-user-xfs-oops.eml" >"$T/$1.eml" &&
	echo "$T/$1.eml"
}

test_expect_success 'no resident filter: triage-client runs triage-filter itself' '
	test ! -e "$SOCK" &&
	"$CLIENT" -s "$SOCK" <"$SRC/tests/corpus/explain/0001-user-xfs-oops.eml" >"$T/stdout" 2>"$T/stderr" &&
	test ! -s "$T/stdout" && test ! -s "$T/stderr" &&
	test "$(q "$DB" "select class, state from reports")" = "user|forwarded" &&
	test_exit 75 "$ALONE" -s "$SOCK" <"$SRC/tests/corpus/explain/0002-ai-theoretical.eml" 2>"$T/stderr" &&
	grep -q "^triage-client: cannot run triage-filter" "$T/stderr" &&
	rm -rf "$T/state"
'

# (in this shell: the tests run in subshells, and need WPID)
start_worker || echo "# the resident filter did not start"
test_expect_success 'the resident filter starts and refuses a second one on its socket' '
	test -S "$SOCK" &&
	two_workers &&
	test_exit 1 "$FILTER" -l "$SOCK" 2>"$T/stderr" &&
	grep -q "already listens" "$T/stderr"
'

test_expect_success 'every corpus message: the same decisions as triage-filter' '
	while read -r m; do
		SENDER=reporter@example.com "$ALONE" -s "$SOCK" <"$m" >"$T/stdout" 2>>"$T/stderr.r" &&
		test ! -s "$T/stdout" ||
		{ echo "client failed on $m"; return 1; }
	done <"$T/corpus" &&
	test ! -s "$T/stderr.r" &&
	mkdir -p "$T/direct" &&
	while read -r m; do
		SENDER=reporter@example.com TRIAGE_STATE_DIR="$T/direct" "$FILTER" <"$m" ||
		{ echo "filter failed on $m"; return 1; }
	done <"$T/corpus" &&
	q "$DB" "$DECISIONS" >"$T/resident.txt" &&
	q "$T/direct/triage.db" "$DECISIONS" >"$T/direct.txt" &&
	test "$(wc -l <"$T/resident.txt")" -ge "$(wc -l <"$T/corpus")" &&
	test_cmp "$T/direct.txt" "$T/resident.txt" &&
	test "$(q "$DB" "select count(distinct envelope_from) from reports")" = 1 &&
	test "$(q "$DB" "select envelope_from from reports limit 1")" = reporter@example.com &&
	echo "# $(wc -l <"$T/corpus") messages, $(cut -d"|" -f1 "$T/resident.txt" | sort | uniq -c | tr -s " \n" " ")"
'

test_expect_success 'a redelivery through it is recognised, never forwarded twice' '
	n=$(q "$DB" "select count(*) from outbox") &&
	"$ALONE" -s "$SOCK" <"$SRC/tests/corpus/explain/0001-user-xfs-oops.eml" &&
	test "$(q "$DB" "select deliveries from reports where message_id = \"0001.user-xfs@example.com\"")" = 2 &&
	test "$(q "$DB" "select count(*) from outbox")" = "$n"
'

# woken: each worker's voluntary context switches (its wake-ups), one a line
woken() {
	for p in $(workers); do
		sed -n "s/^voluntary_ctxt_switches:[^0-9]*//p" /proc/$p/status || return 1
	done
}
test_expect_success 'a client wakes one waiting worker, not every idle one' '
	two_workers && woken >"$T/woken0" && test "$(wc -l <"$T/woken0")" = 2 &&
	for i in 1 2 3 4 5 6 7 8 9 10; do
		"$ALONE" -s "$SOCK" <"$(fresh "one_at_a_time_$i")" || return 1
	done &&
	woken >"$T/woken1" &&
	# the more idle worker woke for few of the 10 (woken for each before)
	paste "$T/woken0" "$T/woken1" | awk "{ print \$2 - \$1 }" | sort -n >"$T/woke" &&
	echo "# wake-ups of the two workers over 10 messages: $(tr "\n" " " <"$T/woke")" &&
	test "$(head -1 "$T/woke")" -lt 5 &&
	test "$(q "$DB" "select count(*) from reports where message_id like \"one_at_a_time_%\"")" = 10
'

test_expect_success 'the client address comes through it: its network is recorded' '
	sed "s/^Message-ID: </Message-ID: <client./" "$SRC/tests/corpus/explain/0001-user-xfs-oops.eml" >"$T/client.eml" &&
	CLIENT_ADDRESS=2001:db8:7:8::25 SENDER=reporter@example.com "$ALONE" -s "$SOCK" <"$T/client.eml" 2>"$T/stderr" &&
	test "$(q "$DB" "select client_net from reports where message_id like \"client.%\"")" = 2001:db8:7:8::/64 &&
	# and nothing else: no profile line (TRIAGE_PROFILE is not set)
	test ! -s "$T/stderr"
'

test_expect_success 'TRIAGE_PROFILE through it: the one profile line, and only with it' '
	sed "s/^Message-ID: </Message-ID: <prof./" "$SRC/tests/corpus/explain/0001-user-xfs-oops.eml" >"$T/prof.eml" &&
	env -u CLIENT_ADDRESS TRIAGE_PROFILE=1 "$ALONE" -s "$SOCK" <"$T/prof.eml" 2>"$T/stderr" &&
	test "$(grep -c "^triage-filter: profile us: start=" "$T/stderr")" = 1 &&
	test "$(wc -l <"$T/stderr")" = 1 &&
	sed "s/^Message-ID: </Message-ID: <noprof./" "$SRC/tests/corpus/explain/0001-user-xfs-oops.eml" >"$T/noprof.eml" &&
	env -u TRIAGE_PROFILE "$ALONE" -s "$SOCK" <"$T/noprof.eml" 2>"$T/stderr" &&
	test ! -s "$T/stderr" &&
	test "$(q "$DB" "select count(*) from reports where message_id like \"%prof.%\"")" = 2
'

test_expect_success 'the envelope comes from the client: a bounce is held' '
	sed "s/^Message-ID: </Message-ID: <bounce./" "$SRC/tests/corpus/explain/0001-user-xfs-oops.eml" >"$T/bounce.eml" &&
	SENDER= "$ALONE" -s "$SOCK" <"$T/bounce.eml" &&
	test "$(q "$DB" "select state from reports where message_id like \"bounce.%\"")" = held
'

test_expect_success 'another configuration: declined, run by triage-client itself' '
	sed "s|$T/state|$T/other|" "$T/routes.conf" >"$T/other.conf" &&
	"$CLIENT" -s "$SOCK" -c "$T/other.conf" <"$SRC/tests/corpus/explain/0002-ai-theoretical.eml" &&
	test "$(q "$T/other/triage.db" "select count(*) from reports")" = 1 &&
	TRIAGE_STATE_DIR="$T/other2" "$CLIENT" -s "$SOCK" <"$SRC/tests/corpus/explain/0002-ai-theoretical.eml" &&
	test "$(q "$T/other2/triage.db" "select count(*) from reports")" = 1 &&
	test_exit 75 "$ALONE" -s "$SOCK" -c "$T/other.conf" </dev/null
'

test_expect_success 'a hung message: the worker deadline defers it (75, one line) and a new worker serves' '
	before=$(workers | tr "\n" " ") &&
	{ sleep 4 | test_exit 75 "$ALONE" -s "$SOCK" 2>"$T/stderr"; } &&
	test "$(wc -l <"$T/stderr")" = 1 &&
	grep -q "^triage-client: the resident triage-filter ended before answering" "$T/stderr" &&
	"$ALONE" -s "$SOCK" <"$(fresh after_hang)" &&
	test "$(q "$DB" "select state from reports where message_id like \"after_hang.%\"")" = forwarded &&
	two_workers && test "$(workers | tr "\n" " ")" != "$before"
'

test_expect_success 'a worker killed (-9) is replaced; nothing is lost' '
	for p in $(workers); do kill -9 $p || return 1; done &&
	sleep 0.3 &&
	"$ALONE" -s "$SOCK" <"$(fresh after_kill)" &&
	test "$(q "$DB" "select state from reports where message_id like \"after_kill.%\"")" = forwarded
'

# big TAG: a fresh report carrying a 1.2 MB attachment
big() {
	f=$(fresh "$1") &&
	{
		sed -n "1,/^$/p" "$f" | sed "/^$/d" &&
		printf "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b\n\n--b\n" &&
		printf "Content-Type: text/plain\n\n" &&
		sed "1,/^$/d" "$f" &&
		printf "\n--b\nContent-Type: application/gzip\nContent-Transfer-Encoding: base64\n\n" &&
		head -c 900000 /dev/urandom | base64 -w 76 &&
		printf "\n--b--\n"
	} >"$T/$1.big" &&
	echo "$T/$1.big"
}
# rss: the resident memory of the workers, in KiB, summed
# rss: the workers' own (anonymous) resident KiB: heap, stacks, SQLite's
# pages.  Pages of the program and its libraries are shared with the
# page cache and grow as code paths are first run (a CI run saw VmRSS
# +3.9 MB that way), so they are not what a worker keeps.
rss() {
	for p in $(workers); do
		sed -n "s/^RssAnon:[^0-9]*\([0-9]*\).*/\1/p" /proc/$p/status || return 1
	done | awk "{ s += \$1 } END { print s + 0 }"
}
# (the client has its answer at the commit; the worker frees the message
# and trims its heap after that)
given_back() { test "$(rss)" -lt $(($1 + 1024)); }
# warm: two more small reports at once through the resident filter (one
# at a time, the same worker would take both), then whether every worker
# has served one: a worker opens the database with its first message
# and keeps it open.  That first message also takes what
# every later one reuses (the connection, SQLite's cache, the parser's
# buffers: about 1 MiB), so a baseline taken while a worker has served
# none counts that as kept.  Under load the workers that case 9 forked
# may still be starting while the first reports come, and the other
# one serves them all.
warm_n=0
has_db() { ls -l "/proc/$1/fd" 2>/dev/null | grep -q "/triage\.db\$"; }
warm() {
	warm_n=$((warm_n + 1)) &&
	a=$(fresh "warm_$warm_n") && b=$(fresh "warm_${warm_n}b") &&
	{ "$ALONE" -s "$SOCK" <"$a" & } && wa=$! &&
	"$ALONE" -s "$SOCK" <"$b" && wait $wa &&
	for p in $(workers); do has_db "$p" || return 1; done
}

test_expect_success 'a 1 MiB report: served by the same workers, its memory given back' '
	two_workers &&
	test_wait 10 warm &&
	before=$(workers | tr "\n" " ") && kib=$(rss) && test "$kib" -gt 0 &&
	m=$(big large_one) && test "$(wc -c <"$m")" -gt 1048576 &&
	"$ALONE" -s "$SOCK" <"$m" &&
	test "$(q "$DB" "select state from reports where message_id like \"large_one.%\"")" = forwarded &&
	test "$(q "$DB" "select length(raw) from messages m join reports r on r.id = m.report where r.message_id like \"large_one.%\"")" = "$(wc -c <"$m")" &&
	m=$(big large_two) && "$ALONE" -s "$SOCK" <"$m" &&
	"$ALONE" -s "$SOCK" <"$(fresh after_large)" &&
	test "$(q "$DB" "select state from reports where message_id like \"after_large.%\"")" = forwarded &&
	test "$(workers | tr "\n" " ")" = "$before" &&
	# each held its 1.2 MB message, SQLite its pages: gone again
	test_wait 3 given_back "$kib" &&
	echo "# workers own: $kib KiB before the 1 MiB reports, $(rss) KiB after"
'

test_expect_success 'routes.conf changed: the next message sees it (workers restarted)' '
	sed -i "s/^router_address = .*/router_address = triage2@example.org/" "$T/routes.conf" &&
	"$ALONE" -s "$SOCK" <"$(fresh after_conf)" &&
	id=$(q "$DB" "select id from reports where message_id like \"after_conf.%\"") &&
	q "$DB" "select message from outbox where report = $id" | grep -q "^X-Loop: triage2@example.org"
'

test_expect_success 'an index replaced by triage update: the next message uses it' '
	before=$(workers | tr "\n" " ") &&
	"$TRIAGE" update >/dev/null 2>&1 &&
	"$ALONE" -s "$SOCK" <"$(fresh after_update)" &&
	test "$(workers | tr "\n" " ")" != "$before"
'

test_expect_success 'hostile peers get a refusal, the service goes on' '
	python3 - "$SOCK" <<-PY &&
	import os, socket, sys, array
	path = sys.argv[1]
	def peer(data, fds=None, close_early=False):
	    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
	    s.connect(path)
	    if data is None:
	        s.settimeout(3)
	        got = s.recv(1)          # says nothing: dropped after a second
	        assert got == b"", got
	        return
	    anc = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds).tobytes())] if fds else []
	    s.sendmsg([data], anc)
	    if close_early:
	        s.close()
	        return
	    s.settimeout(5)
	    got = s.recv(1)
	    assert got == b"D", (data[:40], got)
	r, w = os.pipe()
	peer(b"v=1\0config=x\0")                       # no descriptors
	peer(b"garbage", [r, 2])                        # not NUL-terminated
	peer(b"v=9\0config=x\0", [r, 2])               # another version
	peer(b"v=1\0noequals\0", [r, 2])               # a field without =
	peer(b"v=1\0SENDER=a\0", [r, 2])               # no configuration
	peer(b"v=1\0config=" + b"A" * 20000 + b"\0", [r, 2])  # too long
	peer(b"v=1\0config=/nonexistent\0", [r, 2, r, r])     # too many fds
	peer(None)
	peer(b"v=1\0config=/nonexistent\0", [r, 2], close_early=True)
	PY
	"$ALONE" -s "$SOCK" <"$(fresh after_hostile)" &&
	test "$(q "$DB" "select state from reports where message_id like \"after_hostile.%\"")" = forwarded
'

test_expect_success 'routes.conf named relatively, through a link or with "..": the worker serves it' '
	ln -s "$T/routes.conf" "$T/link.conf" &&
	mkdir -p "$T/sub" &&
	(cd "$T" && unset TRIAGE_CONFIG && "$ALONE" -s "$SOCK" -c routes.conf <"$(fresh rel)") &&
	"$ALONE" -s "$SOCK" -c "$T/link.conf" <"$(fresh link)" &&
	TRIAGE_CONFIG="$T/sub/../routes.conf" "$ALONE" -s"$SOCK" <"$(fresh dotted)" &&
	for t in rel link dotted; do
		test "$(q "$DB" "select state from reports where message_id like \"$t.%\"")" = forwarded || return 1
	done
'

test_expect_success 'its options as getopt reads them; operands ignored, an unknown option is 75' '
	"$ALONE" -c "$T/routes.conf" -s "$SOCK" -- <"$(fresh opts)" &&
	"$ALONE" operand -s "$SOCK" <"$(fresh opts2)" &&
	"$ALONE" -s "$SOCK" -- -x <"$(fresh opts3)" &&
	"$ALONE" - -s"$SOCK" <"$(fresh opts4)" &&
	for t in opts opts2 opts3 opts4; do
		test "$(q "$DB" "select state from reports where message_id like \"$t.%\"")" = forwarded || exit 1
	done &&
	for args in "-x" "-s" "-s $SOCK -c" "-s $SOCK -y extra"; do
		test_exit 75 "$ALONE" $args <"$T/opts.eml" 2>"$T/stderr" &&
		test "$(cat "$T/stderr")" = "triage-client: usage: triage-client [-s socket] [-c routes.conf]" || exit 1
	done
'

test_expect_success 'a reader holding a snapshot of a long WAL holds up no commit' '
	rm -f "$T/reading" "$T/done-reading" &&
	{ python3 - "$DB" "$T/reading" "$T/done-reading" <<-\PY &
	import os, sqlite3, sys, time
	r = sqlite3.connect(sys.argv[1], isolation_level=None)
	r.execute("BEGIN")
	r.execute("SELECT count(*) FROM reports").fetchone()
	# 5000 pages the checkpoints cannot copy while r reads
	w = sqlite3.connect(sys.argv[1], isolation_level=None)
	w.execute("CREATE TABLE IF NOT EXISTS t0255_junk (b BLOB)")
	w.execute("BEGIN")
	for i in range(5000):
	    w.execute("INSERT INTO t0255_junk VALUES (zeroblob(3000))")
	w.execute("COMMIT")
	w.close()
	open(sys.argv[2], "w").close()
	for i in range(600):
	    if os.path.exists(sys.argv[3]):
	        break
	    time.sleep(0.05)
	r.execute("COMMIT")
	PY
	} &&
	reader=$! &&
	test_wait 30 test -e "$T/reading" &&
	# within filter_timeout (2 s), though the reader stays
	"$ALONE" -s "$SOCK" <"$(fresh reader1)" &&
	"$ALONE" -s "$SOCK" <"$(fresh reader2)" &&
	touch "$T/done-reading" && wait $reader &&
	q "$DB" "DROP TABLE t0255_junk" &&
	for t in reader1 reader2; do
		test "$(q "$DB" "select state from reports where message_id like \"$t.%\"")" = forwarded || exit 1
	done
'

test_expect_success 'routes.conf a link, retargeted: the fresh workers serve the new target' '
	cp "$T/routes.conf" "$T/c1.conf" &&
	sed "s/^router_address = .*/router_address = triage3@example.org/" "$T/routes.conf" >"$T/c2.conf" &&
	ln -s c1.conf "$T/cl.conf" &&
	{ "$FILTER" -c "$T/cl.conf" -l "$T/cl.sock" -n 1 2>"$T/cl.log" & } &&
	echo $! >"$T/cl.pid" &&
	test_wait 5 test -S "$T/cl.sock" &&
	"$ALONE" -s "$T/cl.sock" -c "$T/cl.conf" <"$(fresh link1)" &&
	ln -s c2.conf "$T/cl.new" && mv -T "$T/cl.new" "$T/cl.conf" &&
	"$ALONE" -s "$T/cl.sock" -c "$T/cl.conf" <"$(fresh link2)" &&
	kill -TERM "$(cat "$T/cl.pid")" &&
	id=$(q "$DB" "select id from reports where message_id like \"link2.%\"") &&
	q "$DB" "select message from outbox where report = $id" | grep -q "^X-Loop: triage3@example.org"
'

test_expect_success 'SIGTERM: the workers end and the socket is removed' '
	pids=$(workers) &&
	kill -TERM $WPID &&
	# (under valgrind, its leak checks at exit take seconds)
	test_wait 30 test ! -d /proc/$WPID &&
	test ! -e "$SOCK" &&
	for p in $pids; do test ! -d /proc/$p || exit 1; done &&
	"$CLIENT" -s "$SOCK" <"$T/after_hostile.eml" &&
	test "$(q "$DB" "select deliveries from reports where message_id like \"after_hostile.%\"")" = 2
'

test_expect_success 'a configuration it cannot load: clients are declined at once, 75 from triage-filter' '
	mkdir "$T/conf-dir" &&
	{ "$FILTER" -c "$T/conf-dir" -l "$T/bad.sock" -n 1 2>"$T/bad.log" & } &&
	echo $! >"$T/bad.pid" &&
	test_wait 5 test -S "$T/bad.sock" &&
	sleep 0.3 &&
	test_exit 75 timeout 10 "$CLIENT" -s "$T/bad.sock" -c "$T/conf-dir" <"$T/after_hostile.eml" 2>"$T/stderr" &&
	test "$(wc -l <"$T/stderr")" = 1 && grep -q "^triage-filter: " "$T/stderr" &&
	kill -TERM "$(cat "$T/bad.pid")"
'

# alive PID: running, not a zombie waiting for whoever adopted it
alive() { [ -d "/proc/$1" ] && ! grep -q "^State:.*Z" "/proc/$1/status"; }
# none_alive PID...: each has ended
none_alive() {
	for p in "$@"; do
		! alive $p || return 1
	done
}
test_expect_success 'the supervisor killed with SIGKILL: its workers end too' '
	{ "$FILTER" -l "$T/k.sock" -n 2 2>"$T/k.log" & } &&
	echo $! >"$T/k.pid" &&
	test_wait 5 test -S "$T/k.sock" &&
	sleep 0.3 &&
	kids=$(cat /proc/$(cat "$T/k.pid")/task/*/children) &&
	test "$(echo $kids | wc -w)" = 2 &&
	kill -KILL "$(cat "$T/k.pid")" &&
	test_wait 30 none_alive $kids
'

kill $WPID 2>/dev/null
[ -f "$T/bad.pid" ] && kill "$(cat "$T/bad.pid")" 2>/dev/null
[ -f "$T/cl.pid" ] && kill "$(cat "$T/cl.pid")" 2>/dev/null
[ -f "$T/k.pid" ] && kill -KILL "$(cat "$T/k.pid")" 2>/dev/null
wait
test_done
