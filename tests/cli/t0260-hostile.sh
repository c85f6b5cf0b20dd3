#!/bin/sh
# t0260-hostile: the real triage-filter over tests/corpus/hostile
#
# Every NAME.eml there (and the big ones generate.py writes at test time)
# has a NAME.expect; check.py runs the filter on it and checks the MTA
# contract, that it is recorded exactly once, that nothing is injected
# into what we send, and the expected outcome (exit, state, reason).
. "$(dirname "$0")/../lib.sh"
H="$SRC/tests/corpus/hostile"
cat >"$T/routes.conf" <<CONF
state_dir = $T/state
maintainers = $SRC/tests/data/MAINTAINERS.kernel
rules_dir = $SRC/classifiers
router_address = triage@example.org
CONF
export TRIAGE_CONFIG="$T/routes.conf"
DB="$T/state/triage.db"

mkdir -p "$T/gen"
test_expect_success 'generate the big cases' '
	python3 "$H/generate.py" "$T/gen" &&
	for f in "$T"/gen/*.eml; do
		test -f "$H/$(basename "$f" .eml).expect" || {
			echo "no expect file for $f"; exit 1; }
	done
'

for f in "$H"/*.eml "$T"/gen/*.eml; do
	name=$(basename "$f" .eml)
	test_expect_success "hostile: $name" "
		python3 '$H/check.py' '$FILTER' '$DB' '$f' '$H/$name.expect'
	"
done

test_expect_success 'every expect file has its case' '
	for e in "$H"/*.expect; do
		n=$(basename "$e" .expect) &&
		test -f "$H/$n.eml" || test -f "$T/gen/$n.eml" || {
			echo "no case for $e"; exit 1; }
	done
'

test_expect_success 'the SQL metacharacters dropped nothing' '
	test "$(sqlite3 "$DB" "select count(*) from sqlite_master where type = \"table\" and name in (\"reports\", \"decisions\", \"outbox\")")" = 3 &&
	test "$(sqlite3 "$DB" "select count(*) from reports")" = "$(ls "$H"/*.eml "$T"/gen/*.eml | wc -l)"
'

test_expect_success 'triage pending lists the oversize reports, triage show says why' '
	id=$(sqlite3 "$DB" "select id from reports where message_id = \"headers-100k@hostile.example.com\"") &&
	"$TRIAGE" pending >"$T/pending" &&
	grep -q "^$id	.*many headers" "$T/pending" &&
	"$TRIAGE" show "$id" >"$T/show" &&
	grep -q "^reason  *oversize: more header lines than 1000" "$T/show"
'

test_done
