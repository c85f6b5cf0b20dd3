#!/bin/sh
# t0610-dbfaults: the database unwritable, locked by another process for
# longer than the busy timeout, or on a full disk (a 1 MB tmpfs, as
# root): triage-filter exits 75 with one line on standard error and
# nothing on standard output, and once the fault is gone the redelivery
# records the report exactly once.
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
# it runs a copy of the filter and reads copies of what it needs, in the
# scratch directory, which it may traverse.
AS=
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null &&
   id nobody >/dev/null 2>&1; then
	AS="setpriv --reuid=nobody --regid=$(id -g nobody) --clear-groups"
fi

FAULTS_MAINTAINERS="$T/pub/MAINTAINERS"
FAULTS_RULES="$T/pub/classifiers"
test_setup 'what the filter reads, where nobody may read it; 8 reports' '
	chmod 711 "$T" &&
	mkdir "$T/pub" &&
	cp "$FILTER" "$T/pub/triage-filter" &&
	cp "$SRC/tests/data/MAINTAINERS.kernel" "$T/pub/MAINTAINERS" &&
	cp -R "$SRC/classifiers" "$T/pub/classifiers" &&
	chmod -R a+rX "$T/pub" &&
	make_messages "$T/msgs" 8 f &&
	write_conf "$T/routes.conf" "db_busy_timeout = 500" &&
	chmod 644 "$T/routes.conf"
'
FILTER="$T/pub/triage-filter"

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
