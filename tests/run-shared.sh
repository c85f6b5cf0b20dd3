#!/bin/sh
# run-shared.sh - tests over the real data in ../shared (skipped without it)
cd "$(dirname "$0")/shared" || exit 1
failed=0
for t in t*.sh; do
	echo "== tests/shared/$t"
	sh "./$t" || failed=$((failed + 1))
done
[ "$failed" = 0 ] || { echo "shared-data tests: $failed script(s) failed"; exit 1; }
