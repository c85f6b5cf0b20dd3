#!/bin/sh
# run-e2e.sh - end-to-end tests with real services (tests/e2e/t*.sh)
#
# They start what they use (Postfix on loopback, an SMTP peer) and stop
# it again; without root or the Debian packages they skip with a message.
cd "$(dirname "$0")/e2e" || exit 1
failed=0
for t in t*.sh; do
	echo "== tests/e2e/$t"
	sh "./$t" || failed=$((failed + 1))
done
[ "$failed" = 0 ] || { echo "end-to-end tests: $failed script(s) failed"; exit 1; }
