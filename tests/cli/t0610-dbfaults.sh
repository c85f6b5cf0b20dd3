#!/bin/sh
# t0610-dbfaults: the database unwritable, locked by another process for
# longer than the busy timeout, corrupt where the pick reads the loads,
# or on a full disk (a 1 MB tmpfs, as root): triage-filter exits 75 with
# one line on standard error and nothing on standard output, and once
# the fault is gone the redelivery records the report exactly once.
# Also: two filters racing for one capped person give them one report.
. "$(dirname "$0")/../lib.sh"
. "$SRC/tests/helpers/faults-lib.sh"
DB="$T/state/triage.db"
q() { sqlite3 "$DB" "$1"; }
MNT=
LOCKER=
cleanup() {
	[ -n "$LOCKER" ] && kill "$LOCKER" 2>/dev/null
	[ -n "$MNT" ] && umount "$MNT" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

if ! command -v sqlite3 >/dev/null || ! command -v python3 >/dev/null; then
	test_skip "needs sqlite3 and python3"
	test_done
fi

# As root, modes do not stop us: run the filter as nobody, as Postfix does.
# nobody may not read the source tree (a clone in a private directory):
# test_public_copy gives it copies of the filter and of what it reads in
# $T/pub, which it may traverse.
AS=
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null &&
   id nobody >/dev/null 2>&1; then
	AS="setpriv --reuid=nobody --regid=$(id -g nobody) --clear-groups"
fi

test_public_copy tests/data/MAINTAINERS.kernel classifiers \
	tests/corpus/explain/0001-user-xfs-oops.eml
FAULTS_MAINTAINERS="$SRC/tests/data/MAINTAINERS.kernel"
FAULTS_RULES="$SRC/classifiers"
test_setup '8 reports and a routes.conf the user nobody may read' '
	make_messages "$T/msgs" 8 f &&
	write_conf "$T/routes.conf" "db_busy_timeout = 500" &&
	chmod 644 "$T/routes.conf"
'

# deferred MSG [ENV...] - the filter defers MSG: 75, one line, no stdout
deferred() {
	m=$1 &&
	shift &&
	test_exit 75 env "$@" $AS "$FILTER" <"$m" >"$T/stdout" 2>"$T/stderr" &&
	echo "# exit 75: $(cat "$T/stderr")" &&
	test ! -s "$T/stdout" &&
	{ test "$(wc -l <"$T/stderr")" = 1 || { cat "$T/stderr"; false; }; } &&
	grep -q "^triage-filter: " "$T/stderr"
}

# recorded_once TAG - the report TAG is in the database once, forwarded
recorded_once() {
	test "$(q "SELECT count(*), min(state) FROM reports WHERE message_id = '$1@faults.example'")" = "1|forwarded" &&
	test "$(q "SELECT count(*) FROM outbox o JOIN reports r ON r.id = o.report WHERE r.message_id = '$1@faults.example'")" = 1
}

test_expect_success 'a first report creates the database' '
	mkdir -p "$T/state" &&
	{ [ -z "$AS" ] || chown nobody "$T/state"; } &&
	$AS "$FILTER" <"$T/msgs/f.0.eml" &&
	recorded_once f.0
'

test_expect_success 'an unwritable database file: 75, then recorded once' '
	chmod 0444 "$DB" &&
	deferred "$T/msgs/f.1.eml" &&
	chmod 0660 "$DB" &&
	$AS "$FILTER" <"$T/msgs/f.1.eml" &&
	recorded_once f.1 &&
	test "$(q "SELECT count(*) FROM reports")" = 2
'

test_expect_success 'an unwritable state directory without -wal/-shm: 75, then once' '
	q "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null &&
	rm -f "$DB-wal" "$DB-shm" &&
	chmod 0555 "$T/state" &&
	deferred "$T/msgs/f.2.eml" &&
	chmod 0770 "$T/state" &&
	$AS "$FILTER" <"$T/msgs/f.2.eml" &&
	recorded_once f.2
'

# lock MS - hold the write lock (BEGIN IMMEDIATE) for MS milliseconds,
# or with MS = 0 until unlock
lock() {
	rm -f "$T/locked" "$T/unlock" &&
	{ python3 - "$DB" "$1" "$T/locked" "$T/unlock" <<-\PY &
	import os, sqlite3, sys, time
	c = sqlite3.connect(sys.argv[1], isolation_level=None)
	c.execute("BEGIN IMMEDIATE")
	c.execute("UPDATE reports SET updated_at = updated_at WHERE id = 1")
	open(sys.argv[3], "w").close()
	if int(sys.argv[2]):
	    time.sleep(int(sys.argv[2]) / 1000)
	else:
	    for i in range(1200):
	        if os.path.exists(sys.argv[4]):
	            break
	        time.sleep(0.05)
	c.execute("COMMIT")
	PY
	} &&
	LOCKER=$! &&
	test_wait 5 test -e "$T/locked"
}

test_expect_success 'locked for longer than db_busy_timeout (500 ms): 75, then once' '
	lock 0 &&
	deferred "$T/msgs/f.3.eml" &&
	touch "$T/unlock" &&
	wait $LOCKER &&
	$AS "$FILTER" <"$T/msgs/f.3.eml" &&
	recorded_once f.3
'

test_expect_success 'locked for less than db_busy_timeout: the filter waits, 0' '
	lock 200 &&
	$AS "$FILTER" <"$T/msgs/f.4.eml" >"$T/stdout" 2>"$T/stderr" &&
	wait $LOCKER &&
	test ! -s "$T/stdout" && test ! -s "$T/stderr" &&
	recorded_once f.4
'

test_expect_success 'an exclusive locking_mode connection: 75, then once' '
	rm -f "$T/locked" "$T/unlock" &&
	{ python3 - "$DB" "$T/locked" "$T/unlock" <<-\PY &
	import os, sqlite3, sys, time
	c = sqlite3.connect(sys.argv[1], isolation_level=None)
	c.execute("PRAGMA locking_mode = EXCLUSIVE")
	c.execute("BEGIN EXCLUSIVE")
	c.execute("UPDATE reports SET updated_at = updated_at WHERE id = 1")
	c.execute("COMMIT")
	open(sys.argv[2], "w").close()
	for i in range(1200):
	    if os.path.exists(sys.argv[3]):
	        break
	    time.sleep(0.05)
	PY
	} &&
	LOCKER=$! &&
	test_wait 5 test -e "$T/locked" &&
	deferred "$T/msgs/f.5.eml" &&
	touch "$T/unlock" &&
	wait $LOCKER &&
	$AS "$FILTER" <"$T/msgs/f.5.eml" &&
	recorded_once f.5 &&
	test "$(q "PRAGMA integrity_check")" = ok
'

# corrupt_index NAME - the database checkpointed, then the root page of
# index (or WITHOUT ROWID table) NAME overwritten: reading it is
# SQLITE_CORRUPT, while a row that does not go in it is written as before
corrupt_index() {
	python3 - "$DB" "$1" <<-\PY
	import sqlite3, sys
	c = sqlite3.connect(sys.argv[1], isolation_level=None)
	c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
	root = c.execute("SELECT rootpage FROM sqlite_schema WHERE name = ?",
	                 (sys.argv[2],)).fetchone()[0]
	size = c.execute("PRAGMA page_size").fetchone()[0]
	c.close()
	with open(sys.argv[1], "r+b") as f:
	    f.seek((root - 1) * size)
	    f.write(b"\xff" * 8)
	PY
}

# The pick reads each candidate's load from forward_counts (schema 13).
# Held reports (action user hold) still pick, and their decisions are
# not counted there: with the load read as 0 after the error, the
# report would be recorded and the filter would exit 0.
test_expect_success 'the pick cannot read a load (a corrupt index): 75, then recorded once' '
	write_conf "$T/routes.conf" "db_busy_timeout = 500" "action user hold" &&
	make_messages "$T/pl" 1 pl &&
	q "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null &&
	cp "$DB" "$T/good.db" &&
	corrupt_index forward_counts &&
	deferred "$T/pl/pl.0.eml" &&
	grep -q "load: database disk image is malformed" "$T/stderr" &&
	deferred "$T/pl/pl.0.eml" &&
	rm -f "$DB-wal" "$DB-shm" &&
	cp "$T/good.db" "$DB" &&
	test "$(q "PRAGMA integrity_check")" = ok &&
	test "$(q "SELECT count(*) FROM reports WHERE message_id = '"'"'pl.0@faults.example'"'"'")" = 0 &&
	$AS "$FILTER" <"$T/pl/pl.0.eml" &&
	test "$(q "SELECT count(*), min(state) FROM reports WHERE message_id = '"'"'pl.0@faults.example'"'"'")" = "1|held" &&
	write_conf "$T/routes.conf" "db_busy_timeout = 500"
'

# Two filters for one triager capped at 1 a day.  Both start while the
# write lock is held elsewhere; once it is released, each reads the
# loads inside the transaction that records its choice, so the second
# sees the first's forward and picks the next person (XFS's M:).  The
# pause only makes sure both are past their pipeline before the lock
# goes: with the loads read before BEGIN IMMEDIATE, both would have
# seen 0 and both would forward to the triager.
race_filter() {
	TRIAGE_STATE_DIR="$T/racestate" TRIAGE_CONFIG="$T/race.conf" $AS "$FILTER"
}
test_expect_success 'two filters racing for a cap of 1 a day: one forward to the capped triager' '
	make_messages "$T/race" 3 race &&
	mkdir -p "$T/racestate" &&
	{ [ -z "$AS" ] || chown nobody "$T/racestate"; } &&
	write_conf "$T/race.conf" "db_busy_timeout = 20000" \
		"cap xfs-triage@xfs.example.org day=1" &&
	chmod 644 "$T/race.conf" &&
	{ echo "Auto-Submitted: auto-replied" && cat "$T/race/race.0.eml"; } >"$T/race/held.eml" &&
	race_filter <"$T/race/held.eml" &&
	DB="$T/racestate/triage.db" &&
	test "$(q "SELECT count(*) FROM decisions WHERE action = '"'"'forward'"'"'")" = 0 &&
	lock 0 &&
	{ race_filter <"$T/race/race.1.eml" >"$T/race1.out" 2>"$T/race1.err" & } &&
	P1=$! &&
	{ race_filter <"$T/race/race.2.eml" >"$T/race2.out" 2>"$T/race2.err" & } &&
	P2=$! &&
	sleep 1 &&
	touch "$T/unlock" &&
	wait $LOCKER &&
	wait $P1 &&
	wait $P2 &&
	test ! -s "$T/race1.err" && test ! -s "$T/race2.err" &&
	q "SELECT recipient FROM decisions WHERE action = '"'"'forward'"'"' ORDER BY id" >"$T/race.to" &&
	cat >"$T/race.want" <<-\EOF &&
	xfs-triage@xfs.example.org
	xavier@xfs.example.org
	EOF
	test_cmp "$T/race.want" "$T/race.to" &&
	DB="$T/state/triage.db"
'

# a full disk: the state directory on a 1 MB tmpfs, filled
if [ "$(id -u)" = 0 ] && mkdir -p "$T/mnt" &&
   mount -t tmpfs -o size=1m,mode=0777 tmpfs "$T/mnt" 2>"$T/mount.err"; then
	MNT="$T/mnt"
	test_expect_success 'a full disk (1 MB tmpfs): 75, then recorded once' '
		write_conf "$T/routes.conf" "db_busy_timeout = 500" "state_dir = $MNT/state" &&
		mkdir -p "$MNT/state" &&
		{ [ -z "$AS" ] || chown nobody "$MNT/state"; } &&
		DB="$MNT/state/triage.db" &&
		export TRIAGE_STATE_DIR="$MNT/state" &&
		$AS "$FILTER" <"$T/msgs/f.6.eml" &&
		recorded_once f.6 &&
		{ dd if=/dev/zero of="$MNT/fill" bs=4k 2>/dev/null || true; } &&
		deferred "$T/msgs/f.7.eml" &&
		deferred "$T/msgs/f.7.eml" &&
		rm -f "$MNT/fill" &&
		$AS "$FILTER" <"$T/msgs/f.7.eml" &&
		recorded_once f.7 &&
		test "$(q "SELECT count(*) FROM reports")" = 2 &&
		test "$(q "PRAGMA integrity_check")" = ok
	'
else
	test_skip "a full disk: needs root and a tmpfs mount ($(cat "$T/mount.err" 2>/dev/null))"
fi

test_done
