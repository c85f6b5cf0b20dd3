#!/bin/sh
# t0730-kinds: what a message is decides what happens to it, through the
# real triage-filter: only a new report is classified and routed; a
# patch, a review, a pull request, a bot notice or a reply whose report
# is unknown is recorded with its kind; a patch that names a report is a
# fix proposed for it (tests/corpus/kinds/README)
. "$(dirname "$0")/../lib.sh"

C="$SRC/tests/corpus/kinds"
DB="$T/state/triage.db"
export TZ=UTC TRIAGE_USER=alice
unset NO_COLOR PAGER

for tool in sqlite3 python3; do
	if ! command -v $tool >/dev/null; then
		test_skip "$tool is not installed: kinds are not tested"
		test_done
	fi
done

conf() {
	cat >"$T/routes.conf" <<CONF
state_dir = $T/state
maintainers = $SRC/tests/data/MAINTAINERS.kernel
rules_dir = $SRC/classifiers
router_address = triage@example.org
filter_memory_mb = 0
$1
CONF
}
conf ""
export TRIAGE_CONFIG="$T/routes.conf"
q() { sqlite3 "$DB" "$1"; }
ROUTING="SELECT r.id, r.kind, r.state, coalesce(r.class, '-'),
	coalesce(r.thread_root, '-'), d.action, coalesce(d.recipient, '-')
	FROM reports r JOIN decisions d ON d.id = (SELECT max(id)
	FROM decisions WHERE report = r.id) ORDER BY r.id"

test_expect_success 'every message through the filter: its kind, and only reports routed' '
	for f in "$C"/[0-9]*.eml; do
		"$FILTER" <"$f" >"$T/out" || { echo "filter failed on $f"; return 1; }
		test ! -s "$T/out" || { echo "stdout on $f"; return 1; }
	done &&
	q "$ROUTING" >"$T/routing" &&
	test_cmp "$C/routing.expect" "$T/routing"
'

test_expect_success 'only the report is classified; only it and its follow-up are queued' '
	test "$(q "SELECT group_concat(report) FROM classification")" = 1 &&
	test "$(q "SELECT group_concat(report) FROM outbox ORDER BY report")" = "1,9" &&
	test "$(q "SELECT count(*) FROM evidence WHERE report NOT IN (1, 9)")" = 0
'

test_expect_success 'the patch naming report 1 is a fix proposed for it' '
	test "$(q "SELECT report, state, source_report, how FROM fixes")" = "1|proposed|6|Closes:" &&
	test "$(q "SELECT action, argument, who FROM actions WHERE report = 1 AND action = \"fix-proposed\"")" = "fix-proposed|#6|xavier@xfs.example.org" &&
	"$TRIAGE" show 1 >"$T/show1" &&
	grep -q "fix proposed" "$T/show1" &&
	grep -q "don.t flush a cluster" "$T/show1" &&
	"$TRIAGE" show --json 6 >"$T/show6.json" &&
	python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))
assert s[\"kind\"] == \"patch\", s[\"kind\"]
assert s[\"state\"] == \"recorded\", s[\"state\"]
" "$T/show6.json"
'

test_expect_success 'recorded messages are not pending; log --kind and stats count them' '
	"$TRIAGE" pending --json >"$T/pending.json" &&
	python3 -c "
import json, sys
p = json.load(open(sys.argv[1]))
ids = [x[\"id\"] for x in (p[\"reports\"] if isinstance(p, dict) else p)]
assert not set(ids) & set(range(2, 12)), ids
" "$T/pending.json" &&
	"$TRIAGE" log --since all --kind patch --json >"$T/log.json" &&
	python3 -c "
import json, sys
ids = sorted({e[\"report\"] for e in json.load(open(sys.argv[1]))})
assert ids == [4, 6], ids
" "$T/log.json" &&
	test_exit 64 "$TRIAGE" log --kind nonsense 2>"$T/err" &&
	grep -q "kind of message" "$T/err" &&
	"$TRIAGE" stats --since all --json >"$T/stats.json" &&
	python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))
k = s[\"by_kind\"]
assert k == {\"report\": 1, \"follow-up\": 2, \"patch\": 2, \"review\": 2,
	\"cover-letter\": 1, \"pull-request\": 1, \"bot\": 1, \"stable\": 1}, k
assert s[\"by_class\"] == {\"user\": 1}, s[\"by_class\"]
" "$T/stats.json"
'

test_expect_success 'explain says what a message is, and classifies only a report' '
	"$TRIAGE" explain "$C/05-reply-to-patch.eml" >"$T/ex5" &&
	grep -q "^kind      review (follow-up in the thread of #3, a cover-letter)" "$T/ex5" &&
	grep -q "^action    record: " "$T/ex5" &&
	! grep -q "^class " "$T/ex5" &&
	"$TRIAGE" explain --json "$C/07-pull.eml" >"$T/ex7.json" &&
	python3 -c "
import json, sys
e = json.load(open(sys.argv[1]))
assert e[\"kind\"] == \"pull-request\", e[\"kind\"]
assert e[\"action\"] == \"record\", e[\"action\"]
" "$T/ex7.json" &&
	"$TRIAGE" explain --json "$C/01-report.eml" >"$T/ex1.json" &&
	python3 -c "
import json, sys
e = json.load(open(sys.argv[1]))
assert e[\"kind\"] == \"report\" and e[\"class\"] == \"user\", (e[\"kind\"], e[\"class\"])
" "$T/ex1.json"
'

# The filter warns about a bad record and goes on; the desk stops at it
# (78) until it is fixed.
test_expect_success 'action KIND hold puts a kind in pending; a bad record is warned about' '
	rm -rf "$T/state" &&
	conf "action review hold
action bot forward" &&
	"$FILTER" <"$C/02-review-orphan.eml" 2>"$T/err" &&
	"$FILTER" <"$C/08-bot.eml" 2>>"$T/err" &&
	grep -q "action bot.* record or hold" "$T/err" &&
	test "$(q "SELECT kind || \" \" || state FROM reports ORDER BY id" | tr "\n" ,)" = "review held,bot recorded," &&
	test_exit 78 "$TRIAGE" pending >"$T/pending" 2>&1 &&
	grep -q "action bot.* record or hold" "$T/pending" &&
	conf "action review hold" &&
	"$TRIAGE" pending >"$T/pending" 2>&1 &&
	grep -q "take the ilock" "$T/pending"
'

test_expect_success 'a text that names nothing of the kernel and says nothing went wrong is spam: recorded, not in pending' '
	rm -rf "$T/state" &&
	conf "" &&
	"$FILTER" <"$C/extra/no-kernel-text.eml" >"$T/out" &&
	test ! -s "$T/out" &&
	test "$(q "SELECT kind, state FROM reports")" = "spam|recorded" &&
	test "$(q "SELECT count(*) FROM outbox")" = 0 &&
	"$TRIAGE" explain "$C/extra/no-kernel-text.eml" >"$T/exn" &&
	grep -q "names nothing of the kernel and says nothing went wrong" "$T/exn" &&
	"$TRIAGE" pending >"$T/pending" 2>&1 &&
	! grep -q "hello" "$T/pending"
'

test_expect_success 'one that says something of its own went wrong stays a report a triager sees, held as uncertain' '
	rm -rf "$T/state" &&
	conf "" &&
	sed -e "s/^Subject: .*/Subject: my machine is slow since the update/" \
	    -e "s/hello.0001/slow.0001/" \
	    -e "s/^I am looking for.*/My machine is slow since the update, what can I do?/" \
	    "$C/extra/no-kernel-text.eml" >"$T/slow.eml" &&
	"$FILTER" <"$T/slow.eml" >"$T/out" &&
	test ! -s "$T/out" &&
	test "$(q "SELECT kind, state, class FROM reports")" = "report|held|uncertain" &&
	test "$(q "SELECT count(*) FROM outbox")" = 0 &&
	"$TRIAGE" explain "$T/slow.eml" >"$T/exn" &&
	grep -q "names nothing of the kernel: no evidence" "$T/exn"
'

test_done
