#!/bin/sh
# t0760-desk-results: what the desk's actions leave behind (issue 24)
#
# On a database the real triage-filter builds from tests/corpus/desk:
# a report that stops being a fuzzer report, or is rerouted, approved or
# rejected, leaves a digest not sent yet (the maintainer would get it
# twice); a reroute to a section makes it the report's section; a
# follow-up to a rejected report, a Bugzilla event whose fetch failed
# and a failed delivery are listed by pending with why they wait; a
# forward cancelled before it went out is nobody's load; stats --people
# shows loads against caps and away dates.
. "$(dirname "$0")/../lib.sh"

D="$SRC/tests/corpus/desk"
DB="$T/state/triage.db"
export TZ=UTC TRIAGE_USER=alice
unset NO_COLOR PAGER
# the digests fall due one day after their oldest report: two days on
LATER=$(($(date +%s) + 2 * 86400))

for tool in sqlite3 python3; do
	if ! command -v $tool >/dev/null; then
		test_skip "$tool is not installed: the desk is not tested"
		test_done
	fi
done

cat >"$T/routes.conf" <<EOF
state_dir = $T/state
maintainers = $D/MAINTAINERS
rules_dir = $SRC/classifiers
router_address = triage@router.example
roster "XFS FILESYSTEM" alice@xfs.example bob@xfs.example class=user,ai,uncertain
roster "XFS FILESYSTEM" fuzz@xfs.example class=fuzzer
cap * day=5 week=20
cap alice@xfs.example day=1
away carol@xfs.example 2020-01-01 2099-12-31
transport = sendmail
sendmail_path = $T/sendmail
db_busy_timeout = 200
filter_memory_mb = 0
EOF
# the same, but mail waits for 'triage deliver' (SMTP)
sed "s/^transport = sendmail/transport = smtp/" "$T/routes.conf" >"$T/smtp.conf"

mkdir "$T/mail"
cat >"$T/sendmail" <<EOF
#!/bin/sh
n=\$(ls "$T/mail" | grep -c 'msg\$')
n=\$((n + 1))
printf '%s\n' "\$@" >"$T/mail/\$n.argv"
cat >"$T/mail/\$n.msg"
exit 0
EOF
chmod +x "$T/sendmail"

sql() {
	sqlite3 "$DB" "$1"
}

# json FILE PYTHON - parse FILE as JSON into j, then run the assertions
json() {
	python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
exec(sys.argv[2])' "$1" "$2"
}

test_expect_success 'the filter records the corpus' '
	"$TRIAGE" update >"$T/update.out" &&
	for f in "$D"/*.eml; do
		"$FILTER" <"$f" || { echo "filter failed on $f"; return 1; }
	done &&
	test "$(sql "SELECT group_concat(id) FROM reports WHERE state = \"digest\"")" = "3,4,5"
'

test_expect_success 'reclassify: a report waiting for a digest leaves it, held' '
	"$TRIAGE" reclassify 3 ai >"$T/out" &&
	grep -q "^reclassify 3: fuzzer -> ai\$" "$T/out" &&
	grep -q "no longer waits for a fuzzer digest: it is held" "$T/out" &&
	test "$(sql "SELECT state FROM reports WHERE id = 3")" = held &&
	"$TRIAGE" digest >"$T/digest" &&
	grep -q "2 reports" "$T/digest" &&
	! grep -q "report.* 3\\b" "$T/digest" &&
	"$TRIAGE" pending >"$T/pending" &&
	cut -f1 "$T/pending" | grep -qx 3
'

test_expect_success 'a report leaves a digest queued but not sent' '
	TRIAGE_NOW=$LATER "$TRIAGE" -c "$T/smtp.conf" digest --send >"$T/out" &&
	grep -q "^digest XFS FILESYSTEM: 2 reports to fuzz@xfs.example (outbox" "$T/out" &&
	o=$(sql "SELECT id FROM outbox WHERE kind = \"digest\"") &&
	sql "SELECT message FROM outbox WHERE id = $o" >"$T/before" &&
	grep -q "reports* 4\$" "$T/before" && grep -q "report 5\$" "$T/before" &&
	"$TRIAGE" -c "$T/smtp.conf" reclassify 4 user >"$T/out" &&
	grep -q "^reclassify 4: taken out of the queued digest (outbox $o; 1 report left in it)\$" "$T/out" &&
	sql "SELECT message FROM outbox WHERE id = $o" >"$T/after" &&
	! grep -q "reports* 4" "$T/after" && grep -q "report 5\$" "$T/after" &&
	grep -q "^   https://syzkaller.appspot.com/bug?extid=77aa88bb99cc00dd\$" "$T/before" &&
	grep -q "^   https://syzkaller.appspot.com/bug?extid=77aa88bb99cc00dd\$" "$T/after" &&
	grep -q "^Subject: \\[fuzzer digest\\] XFS FILESYSTEM: 1 report, 1 crash title\$" "$T/after" &&
	test "$(grep "^Message-ID" "$T/before")" = "$(grep "^Message-ID" "$T/after")" &&
	test "$(sql "SELECT state FROM outbox WHERE id = $o")" = queued &&
	"$TRIAGE" -c "$T/smtp.conf" reroute 5 "EXT4 FILE SYSTEM" >"$T/out" &&
	grep -q "^reroute 5: the digest it was in (outbox $o) listed only it: cancelled\$" "$T/out" &&
	test "$(sql "SELECT state FROM outbox WHERE id = $o")" = cancelled
'

test_expect_success 'reroute to a section: the report is of that section' '
	"$TRIAGE" show --json 5 >"$T/show.json" &&
	json "$T/show.json" "
assert j[\"section\"] == \"EXT4 FILE SYSTEM\", j[\"section\"]
assert j[\"sections\"][0][\"name\"] == \"EXT4 FILE SYSTEM\"
assert j[\"sections\"][1][\"name\"] == \"XFS FILESYSTEM\"
" &&
	"$TRIAGE" reroute 6 "EXT4 FILE SYSTEM" >"$T/out" &&
	test "$(sql "SELECT section FROM reports WHERE id = 6")" = "EXT4 FILE SYSTEM" &&
	"$TRIAGE" stats --since all --json >"$T/stats.json" &&
	json "$T/stats.json" "
assert j[\"by_section\"][\"EXT4 FILE SYSTEM\"] == 3, j[\"by_section\"]
" &&
	"$TRIAGE" pending --unmapped >"$T/out" &&
	! cut -f1 "$T/out" | grep -qx 6
'

test_expect_success 'a reporter writes again after the report was rejected' '
	"$TRIAGE" reject 11 >"$T/out" &&
	cat >"$T/fu.eml" <<-\EOF &&
	From: Eve <eve@users.example>
	To: bugs@router.example
	Subject: Re: [triage #11] machine hangs on umount
	Date: Wed, 3 Jan 2024 09:00:00 +0000
	Message-ID: <desk-11-again@users.example>
	In-Reply-To: <desk-11-escape@users.example>
	MIME-Version: 1.0
	Content-Type: text/plain; charset=utf-8

	It also hangs with a plain ext4 file system; the log is attached.
	EOF
	"$FILTER" <"$T/fu.eml" &&
	fu=$(sql "SELECT max(id) FROM reports") &&
	test "$(sql "SELECT state || \" \" || thread_root FROM reports WHERE id = $fu")" = "held 11" &&
	"$TRIAGE" pending >"$T/pending" &&
	grep "^$fu	" "$T/pending" >"$T/line" &&
	grep -q "	follow-up to #11, which is rejected: new information for a triager\$" "$T/line" &&
	"$TRIAGE" pending --json >"$T/pending.json" &&
	json "$T/pending.json" "
r = [x for x in j if x[\"id\"] == $fu][0]
assert r[\"kind\"] == \"follow-up\" and r[\"thread_root\"] == 11, r
assert r[\"reason\"].startswith(\"follow-up to #11\"), r
"
'

test_expect_success 'a Bugzilla event whose fetch failed waits in pending' '
	sql "INSERT INTO bugzilla_events (received_at, bug_id, routing_key,
	     payload, attempts, not_before, last_error)
	     VALUES (strftime(\"%s\"), 4242, \"comment.create\", \"{}\", 2,
	     strftime(\"%s\") + 600, \"cannot reach https://bugzilla.example: connection refused\")" &&
	"$TRIAGE" pending >"$T/pending" &&
	grep "^bz:1	" "$T/pending" >"$T/line" &&
	grep -q "	webhook	-	Bugzilla bug 4242 event comment.create	" "$T/line" &&
	grep -q "retried from .*: cannot reach https://bugzilla.example: connection refused\$" "$T/line" &&
	"$TRIAGE" pending --json >"$T/pending.json" &&
	json "$T/pending.json" "
r = [x for x in j if x[\"event_id\"] == 1][0]
assert r[\"kind\"] == \"webhook event\" and r[\"id\"] is None, r
assert \"connection refused\" in r[\"last_error\"], r
" &&
	"$TRIAGE" pending --class ai >"$T/ai" &&
	! grep -q "^bz:" "$T/ai" &&
	"$TRIAGE" stats --json >"$T/stats.json" &&
	"$TRIAGE" pending --json >"$T/pending.json" &&
	python3 -c "import json, sys
s, p = (json.load(open(f)) for f in sys.argv[1:])
assert s[\"webhook\"] == {\"events\": 1, \"waiting\": 1, \"failed\": 0}, s[\"webhook\"]
assert s[\"pending\"] == len(p), (s[\"pending\"], len(p))" "$T/stats.json" "$T/pending.json" &&
	"$TRIAGE" stats >"$T/stats" &&
	grep -q "^     1  Bugzilla events; now 1 waiting for a fetch again, 0 given up (triage pending)\$" "$T/stats" &&
	"$TRIAGE" log >"$T/log" &&
	grep -q "	-	webhook	serve	retrying	bug 4242	cannot reach https://bugzilla.example: connection refused\$" "$T/log"
'

test_expect_success 'a forward approved, then cancelled by reject, is nobody'"'"'s load' '
	"$TRIAGE" stats --since all --json >"$T/before.json" &&
	"$TRIAGE" -c "$T/smtp.conf" approve --to bob@xfs.example 12 >"$T/out" &&
	test "$(sql "SELECT count(*) FROM outbox WHERE report = 12 AND state = \"queued\"")" = 1 &&
	"$TRIAGE" -c "$T/smtp.conf" reject 12 >"$T/out" &&
	grep -q "1 unsent message cancelled" "$T/out" &&
	"$TRIAGE" stats --since all --json >"$T/after.json" &&
	python3 -c "import json, sys
b, a = (json.load(open(p)) for p in sys.argv[1:])
load = lambda j: {r[\"address\"]: r[\"since\"] for r in j[\"recipients\"]}
assert load(a) == load(b), (load(b), load(a))" "$T/before.json" "$T/after.json"
'

test_expect_success 'stats --people: loads against caps and away dates' '
	"$TRIAGE" approve --to alice@xfs.example 2 >"$T/out" &&
	"$TRIAGE" stats --people >"$T/people" &&
	head -1 "$T/people" | grep -q "^PERSON  *TODAY  WEEK  CAP D/W  WEEKS BEFORE  STATUS  *AWAY\$" &&
	grep -q "^alice@xfs.example  *2  *2  *1/20 .* over cap\$" "$T/people" &&
	grep -q "^carol@xfs.example  *0  *0  *5/20 .* away  *until 2099-12-31\$" "$T/people" &&
	grep -q "^fuzz@xfs.example  *0  *0 .* ok\$" "$T/people" &&
	"$TRIAGE" stats --people --json >"$T/people.json" &&
	json "$T/people.json" "
p = {x[\"address\"]: x for x in j[\"people\"]}
assert p[\"alice@xfs.example\"][\"status\"] == \"over cap\", p
assert p[\"alice@xfs.example\"][\"weeks\"][0] == 2 and p[\"alice@xfs.example\"][\"cap_day\"] == 1
assert p[\"carol@xfs.example\"][\"away\"] == {\"from\": \"2020-01-01\", \"to\": \"2099-12-31\", \"now\": True}
assert p[\"bob@xfs.example\"][\"today\"] == 1, p[\"bob@xfs.example\"]  # report 9; not 12 (cancelled)
"
'

test_done
