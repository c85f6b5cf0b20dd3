#!/bin/sh
# run-replay.sh CMD... - run the fuzz replay (make check-fuzz-replay) and
# count every input it replayed ("replay: N inputs" per harness) as a
# passed test, as "fuzz/replay" in $TEST_RESULTS; if CMD fails, one
# failed test (a crash stops the replay of that harness and the rest).
here=$(cd "$(dirname "$0")" && pwd)
own=
if [ -z "$TEST_RESULTS" ]; then
	TEST_RESULTS=$(mktemp -d "${TMPDIR:-/tmp}/triage-results.XXXXXX") || exit 1
	own=1
fi
out=$(mktemp "${TMPDIR:-/tmp}/triage-replay.XXXXXX") || exit 1
{ "$@" 2>&1; echo "$?" >"$out.rc"; } | tee "$out"
rc=$(cat "$out.rc")
pass=$(sed -n 's/.*replay: \([0-9][0-9]*\) inputs.*/\1/p' "$out" | awk '{ n += $1 } END { print n + 0 }')
fail=0
[ "$rc" = 0 ] || fail=1
echo "# fuzz/replay: $pass passed, $fail failed, 0 skipped"
echo "$pass $fail 0 fuzz/replay" >>"$TEST_RESULTS/counts"
rm -f "$out" "$out.rc"
if [ -n "$own" ]; then
	"$here/summary.sh" "$TEST_RESULTS"
	rm -rf "$TEST_RESULTS"
fi
exit "$rc"
