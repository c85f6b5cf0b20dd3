#!/bin/sh
# run-cli.sh - run every tests/cli/t*.sh, TAP output, fail if any fails
cd "$(dirname "$0")/cli" || exit 1
failed=0
for t in t*.sh; do
	echo "== tests/cli/$t"
	sh "./$t" || failed=$((failed + 1))
done
[ "$failed" = 0 ] || { echo "cli tests: $failed script(s) failed"; exit 1; }
