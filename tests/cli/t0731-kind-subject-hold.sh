#!/bin/sh
# t0731-kind-subject-hold: a new message that only its subject's words
# make a discussion (an announcement or question tag or word, the list's
# business, a userspace tool) is held for a triager, with the reason
# "kind decided from the subject only": a first bug report under such a
# subject is not recorded out of everyone's sight.  A discussion that
# something besides its subject backs (a list command for its whole
# text) is recorded only, as before.  (tests/corpus/kinds/README)
. "$(dirname "$0")/../lib.sh"

C="$SRC/tests/corpus/kinds/extra"
DB="$T/state/triage.db"
export TZ=UTC TRIAGE_USER=alice
unset NO_COLOR PAGER

for tool in sqlite3 python3; do
	if ! command -v $tool >/dev/null; then
		test_skip "$tool is not installed: kinds are not tested"
		test_done
	fi
done

cat >"$T/routes.conf" <<CONF
state_dir = $T/state
maintainers = $SRC/tests/data/MAINTAINERS.kernel
rules_dir = $SRC/classifiers
router_address = triage@example.org
filter_memory_mb = 0
CONF
export TRIAGE_CONFIG="$T/routes.conf"
q() { sqlite3 "$DB" "$1"; }

test_expect_success 'a report-looking message that only its subject makes a discussion is held, and pending says why' '
	"$FILTER" <"$C/subject-only-report.eml" >"$T/out" &&
	test ! -s "$T/out" &&
	test "$(q "SELECT kind, state, coalesce(class, \"-\") FROM reports")" = "discussion|held|-" &&
	test "$(q "SELECT count(*) FROM outbox")" = 0 &&
	q "SELECT action || \" \" || reason FROM decisions" >"$T/dec" &&
	grep -q "^hold kind decided from the subject only: discussion (subject " "$T/dec" &&
	"$TRIAGE" pending >"$T/pending" 2>&1 &&
	grep -q "rtc-cmos alarm stays silent" "$T/pending" &&
	"$TRIAGE" pending --json >"$T/pending.json" &&
	python3 -c "
import json, sys
p = json.load(open(sys.argv[1]))
rows = p[\"reports\"] if isinstance(p, dict) else p
assert [x[\"id\"] for x in rows] == [1], rows
assert \"kind decided from the subject only\" in json.dumps(rows[0]), rows[0]
" "$T/pending.json" &&
	"$TRIAGE" explain "$C/subject-only-report.eml" >"$T/ex" &&
	grep -q "^action    hold: kind decided from the subject only" "$T/ex"
'

test_expect_success 'a discussion backed by its text (a list command) is recorded only, not pending' '
	"$FILTER" <"$C/list-command.eml" >"$T/out" &&
	test ! -s "$T/out" &&
	test "$(q "SELECT kind, state FROM reports WHERE id = 2")" = "discussion|recorded" &&
	q "SELECT reason FROM decisions WHERE report = 2" >"$T/dec2" &&
	grep -q "list command" "$T/dec2" &&
	! grep -q "subject only" "$T/dec2" &&
	"$TRIAGE" pending --json >"$T/pending.json" &&
	python3 -c "
import json, sys
p = json.load(open(sys.argv[1]))
rows = p[\"reports\"] if isinstance(p, dict) else p
assert [x[\"id\"] for x in rows] == [1], rows
" "$T/pending.json" &&
	"$TRIAGE" explain "$C/list-command.eml" >"$T/ex2" &&
	grep -q "^action    record: " "$T/ex2"
'

test_expect_success 'in a known thread the subject alone holds nothing: a reply under [RFC] is recorded' '
	sed -e "s/^Subject: .*/Subject: Re: [RFC] rtc-cmos alarm after resume/" \
	    -e "s/^Message-ID: .*/Message-ID: <kind-extra.subject-only.0002@example.net>\nIn-Reply-To: <kind-extra.subject-only.0001@example.net>/" \
	    "$C/subject-only-report.eml" >"$T/reply.eml" &&
	"$FILTER" <"$T/reply.eml" >"$T/out" &&
	test ! -s "$T/out" &&
	test "$(q "SELECT state FROM reports WHERE id = 3")" = recorded &&
	! q "SELECT reason FROM decisions WHERE report = 3" | grep -q "subject only"
'

test_expect_success 'a report whose subject alone says "Re:" (no In-Reply-To, no References) is held, not recorded as a follow-up' '
	sed -e "s/^Subject: .*/Subject: Re: rtc-cmos alarm fails after resume/" \
	    -e "s/^Message-ID: .*/Message-ID: <kind-extra.subject-only.0003@example.net>/" \
	    "$C/subject-only-report.eml" >"$T/re-only.eml" &&
	! grep -qi "^In-Reply-To:\|^References:" "$T/re-only.eml" &&
	"$FILTER" <"$T/re-only.eml" >"$T/out" &&
	test ! -s "$T/out" &&
	test "$(q "SELECT kind, state FROM reports WHERE id = 4")" = "follow-up|held" &&
	q "SELECT reason FROM decisions WHERE report = 4" >"$T/dec4" &&
	grep -q "^kind decided from the subject only: follow-up" "$T/dec4"
'

test_expect_success 'a question that shows nothing of a system is a discussion, held with its own reason' '
	"$FILTER" <"$C/question-only.eml" >"$T/out" &&
	test ! -s "$T/out" &&
	test "$(q "SELECT kind, state, coalesce(class, \"-\") FROM reports WHERE id = 5")" = "discussion|held|-" &&
	test "$(q "SELECT count(*) FROM outbox")" = 0 &&
	q "SELECT action || \" \" || reason FROM decisions WHERE report = 5" >"$T/dec5" &&
	grep -q "^hold kind decided from a question alone: discussion (a question that shows nothing of a system" "$T/dec5" &&
	"$TRIAGE" explain "$C/question-only.eml" >"$T/ex5" &&
	grep -q "^action    hold: kind decided from a question alone" "$T/ex5"
'

test_expect_success 'pending: the reports first, then the messages held from their subject alone under a heading' '
	"$FILTER" <"$C/names-nothing-problem.eml" >"$T/out" &&
	test ! -s "$T/out" &&
	test "$(q "SELECT kind, state FROM reports WHERE id = 6")" = "report|held" &&
	"$TRIAGE" pending >"$T/pending" &&
	cut -f1 "$T/pending" >"$T/ids" &&
	printf "%s\n" 6 "# 3 held, kind decided from the subject or a question alone (not reports by their words; a report may be among them):" 1 4 5 >"$T/ids.expect" &&
	test_cmp "$T/ids.expect" "$T/ids" &&
	"$TRIAGE" pending --json >"$T/pending.json" &&
	python3 -c "
import json, sys
rows = json.load(open(sys.argv[1]))
assert [(x[\"id\"], x[\"subject_only\"]) for x in rows] == [(6, False), (1, True), (4, True), (5, True)], rows
" "$T/pending.json" &&
	"$TRIAGE" pending --class uncertain >"$T/only" &&
	! grep -q "^#" "$T/only"
'

test_done
