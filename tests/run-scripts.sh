#!/bin/sh
# run-scripts.sh DIR... - run every tests/DIR/t*.sh (cli, shared, e2e),
# each from its own directory, TAP output
#
# Each script adds its counts to $TEST_RESULTS (lib.sh's test_done); one
# that ends without them (killed, or an exit before test_done) counts as
# one failed test.  Without TEST_RESULTS (make check-cli alone) the counts
# are kept aside and summed up at the end.  Fails if any script failed.
cd "$(dirname "$0")" || exit 1
own=
if [ -z "$TEST_RESULTS" ]; then
	TEST_RESULTS=$(mktemp -d "${TMPDIR:-/tmp}/triage-results.XXXXXX") || exit 1
	own=1
fi
export TEST_RESULTS
touch "$TEST_RESULTS/counts" || exit 1
failed=0
for d in "$@"; do
	for t in "$d"/t*.sh; do
		[ -f "$t" ] || continue
		name=$d/$(basename "$t" .sh)
		echo "== tests/$t"
		before=$(grep -c " $name\$" "$TEST_RESULTS/counts")
		(cd "$d" && sh "./$(basename "$t")")
		rc=$?
		after=$(grep -c " $name\$" "$TEST_RESULTS/counts")
		if [ "$after" = "$before" ]; then
			echo "# $name ended (exit $rc) before test_done: one failed test"
			echo "0 1 0 $name" >>"$TEST_RESULTS/counts"
		elif [ "$rc" != 0 ] &&
		     [ "$(grep " $name\$" "$TEST_RESULTS/counts" | tail -1 | cut -d" " -f2)" = 0 ]; then
			echo "# $name exited $rc with no failed test: one failed test"
			echo "0 1 0 $name" >>"$TEST_RESULTS/counts"
		fi
		[ "$rc" = 0 ] || failed=$((failed + 1))
	done
done
if [ -n "$own" ]; then
	./summary.sh "$TEST_RESULTS"
	rm -rf "$TEST_RESULTS"
fi
[ "$failed" = 0 ] || { echo "$failed test script(s) failed"; exit 1; }
