#!/bin/sh
# run-unit.sh PROGRAM... - run cmocka test programs, counting their tests
#
# cmocka prints per group "[==========] Running N test(s)." and at its
# end "[  PASSED  ] N test(s)." and "[  SKIPPED ] N test(s), listed
# below:"; every test that ran and neither passed nor was skipped
# failed, and a program that fails with none of them failed (a crash
# before its summary) counts one.  Counts go to $TEST_RESULTS as
# "unit/NAME" (see run-scripts.sh), each skipped test with its reason.
here=$(cd "$(dirname "$0")" && pwd)
own=
if [ -z "$TEST_RESULTS" ]; then
	TEST_RESULTS=$(mktemp -d "${TMPDIR:-/tmp}/triage-results.XXXXXX") || exit 1
	own=1
fi
out=$(mktemp "${TMPDIR:-/tmp}/triage-unit.XXXXXX") || exit 1
failed=0
for p in "$@"; do
	name=unit/$(basename "$p")
	echo "== $p"
	{ "$p" 2>&1; echo "$?" >"$out.rc"; } | tee "$out"
	rc=$(cat "$out.rc")
	read -r pass fail skip <<-EOT
	$(awk '
		/^\[==========\] Running [0-9]+ test/ { run += $3 }
		/^\[  PASSED  \] [0-9]+ test/ { passed += $4 }
		/^\[  SKIPPED \] [0-9]+ test\(s\), listed below/ { skipped += $4 }
		END { print passed + 0, run - passed - skipped, skipped + 0 }' "$out")
	EOT
	if [ "$rc" != 0 ] && [ "$fail" = 0 ]; then
		fail=1
	fi
	echo "# $name: $pass passed, $fail failed, $skip skipped"
	echo "$pass $fail $skip $name" >>"$TEST_RESULTS/counts"
	# a skipped test, with the message it printed just before (if any)
	awk -v name="$name" '
		/^\[  SKIPPED \] [0-9]+ test\(s\), listed below/ { list = 1 }
		/ SKIPPED TEST\(S\)$/ { list = 0 }
		!list && /^\[  SKIPPED \] / {
			t = $0; sub(/^\[  SKIPPED \] /, "", t)
			print name ": " t (why ~ /^skipped: / ? " (" why ")" : "")
		}
		{ why = $0 }' "$out" >>"$TEST_RESULTS/skips"
	[ "$fail" = 0 ] || failed=$((failed + 1))
done
rm -f "$out" "$out.rc"
if [ -n "$own" ]; then
	"$here/summary.sh" "$TEST_RESULTS"
	rm -rf "$TEST_RESULTS"
fi
[ "$failed" = 0 ] || { echo "$failed unit test program(s) failed"; exit 1; }
