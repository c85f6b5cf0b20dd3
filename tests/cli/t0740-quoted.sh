#!/bin/sh
# t0740-quoted: quoted or attached text does not hide an AI report
#
# Issue 21, finding 3: one "-----Original Message-----" line, a "> " on
# every line, or the text moved into a text/plain attachment took the
# demo AI report (tools/demo-example-ai.eml) out of the rules' and the
# model's sight, while the forward carried all of it.  Cases 22-29 of
# tests/corpus/abuse (its README) through the real filter: none of the
# attacker's is forwarded as user; a genuine user's report with a dmesg
# attached still is.
. "$(dirname "$0")/../lib.sh"
. "$SRC/tests/cli/lib-mail.sh"

C="$SRC/tests/corpus/abuse"
export TZ=UTC

need_tools "quoted-text abuse cases are not tested" sqlite3
routes_conf triage@example.org

# outcome ID: "class|state" of report ID
outcome() { q "SELECT class, state FROM reports WHERE id = $1"; }
# reason ID: why report ID is where it is
reason() { q "SELECT group_concat(reason, ' / ') FROM decisions WHERE report = $1"; }

for c in 22-ai-marker 23-ai-quoted 24-ai-attached; do
	test_expect_success "$c: the AI rules read what the sender hid: ai, held" '
		feed "$C/'$c'.eml" &&
		id=$(id_of abuse-'${c%%-*}'.'${c#*-ai-}'@evil.example) &&
		test -n "$id" &&
		test "$(outcome $id)" = "ai|held" &&
		test "$(q "SELECT count(*) FROM outbox WHERE report = $id")" = 0 &&
		q "SELECT rule_hits FROM classification WHERE report = $id" >"$T/hits" &&
		grep AI_HEADINGS "$T/hits" &&
		grep AI_CLAIM_NO_EVIDENCE "$T/hits"
	'
done

# the log's points still lead on 25 and 26; on 27 (the AI text attached)
# AI_DIAGNOSED_LOG_AND_MODEL takes them and ai leads: held either way
for c in 25-ai-marker-log:user 26-ai-quoted-log:user 27-ai-attached-log:ai; do
	lean=${c#*:} c=${c%:*}
	test_expect_success "$c: a fabricated log on top does not make it a user's: held" '
		feed "$C/'$c'.eml" &&
		id=$(id_of abuse-'${c%%-*}'.'${c#*-ai-}'@evil.example) &&
		test -n "$id" &&
		test "$(outcome $id)" = "uncertain|held" &&
		test "$(q "SELECT count(*) FROM outbox WHERE report = $id")" = 0 &&
		q "SELECT header FROM classification WHERE report = $id" >"$T/hdr" &&
		grep "^uncertain; .*leaning='$lean'" "$T/hdr" &&
		grep AI_HEADINGS "$T/hdr"
	'
done

# past what the first pass reads: 130 KB of a log in the sender's own
# text, then the AI text (the second pass reads the whole text up to
# RULES_WHOLE_MAX)
test_expect_success 'an AI text after 130 KB of log is read: not forwarded as user' '
	{
		sed -n "1,/^\$/p" "$C/22-ai-marker.eml" |
			sed "s/abuse-22.marker/abuse-32.long/" &&
		echo "It happens on my laptop; the whole boot log, then my notes." &&
		i=0 &&
		while test $i -lt 2000; do
			printf "[%6d.%06d] usb 1-1: new high-speed USB device number %d using xhci_hcd\n" $i $i $i &&
			i=$((i + 1)) || return 1
		done &&
		sed "1,/^-----Original Message-----/d" "$C/22-ai-marker.eml"
	} >"$T/long.eml" &&
	test "$(wc -c <"$T/long.eml")" -gt 140000 &&
	feed "$T/long.eml" &&
	id=$(id_of abuse-32.long@evil.example) &&
	test -n "$id" &&
	case "$(outcome $id)" in
	"ai|held" | "uncertain|held") ;;
	*) outcome $id && false ;;
	esac &&
	test "$(q "SELECT count(*) FROM outbox WHERE report = $id")" = 0 &&
	q "SELECT rule_hits FROM classification WHERE report = $id" >"$T/hits" &&
	grep AI_HEADINGS "$T/hits"
'

test_expect_success 'a genuine report with its own prose and a dmesg attached is forwarded as user' '
	feed "$C/28-user-dmesg-attached.eml" &&
	id=$(id_of abuse-28.dmesg@users.example) &&
	test "$(outcome $id)" = "user|forwarded" &&
	test "$(q "SELECT count(*) FROM outbox WHERE report = $id")" = 1
'

test_expect_success 'a new report whose own text is one line, the rest attached, is held and says why' '
	feed "$C/29-user-thin.eml" &&
	id=$(id_of abuse-29.thin@users.example) &&
	test "$(outcome $id)" = "user|held" &&
	test "$(q "SELECT count(*) FROM outbox WHERE report = $id")" = 0 &&
	reason $id >"$T/why29" &&
	grep "its own text is 1 line; the rest (10 lines) is quoted, after an \"Original Message\" line or attached" "$T/why29"
'

test_expect_success 'own_text_min_lines = 0: a site that wants it forwards such a report' '
	sed "s|^state_dir = .*|state_dir = $T/s2|" "$T/routes.conf" >"$T/routes2.conf" &&
	echo "own_text_min_lines = 0" >>"$T/routes2.conf" &&
	TRIAGE_CONFIG="$T/routes2.conf" TRIAGE_STATE_DIR="$T/s2" "$FILTER" <"$C/29-user-thin.eml" &&
	test "$(sqlite3 "$T/s2/triage.db" "SELECT class, state FROM reports")" = "user|forwarded"
'

test_done
