#!/bin/sh
# t0740-abuse: a stranger on the bugs alias cannot steer, bury or relay
#
# The messages of tests/corpus/abuse (see its README) go through the real
# triage-filter; each case is one finding of issue 21, and each check
# says what the attacker must not get.
. "$(dirname "$0")/../lib.sh"

C="$SRC/tests/corpus/abuse"
DB="$T/state/triage.db"
export TZ=UTC TRIAGE_USER=alice

if ! command -v sqlite3 >/dev/null; then
	test_skip "sqlite3 is not installed: abuse cases are not tested"
	test_done
