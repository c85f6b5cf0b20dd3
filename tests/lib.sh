# lib.sh - a small TAP test library for the shell tests (git's test-lib idea)
#
# Source it from a test script, then:
#   test_expect_success 'what it shows' 'commands'
#   test_cmp expected actual
#   test_done
# TRIAGE is the triage binary, FILTER the filter, SRC the source tree,
# SHARED the ../shared data directory (may be absent), T a scratch dir.

SRC=$(cd "$(dirname "$0")/../.." && pwd)
TRIAGE="$SRC/triage"
FILTER="$SRC/triage-filter"
SHARED=${TRIAGE_SHARED:-$SRC/../shared}
T=$(mktemp -d "${TMPDIR:-/tmp}/triage-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
test_count=0
test_failed=0
export LC_ALL=C
# Never read the host's configuration or state by accident: the shipped
# routes.conf, with the state directory in the scratch area.
cp "$SRC/routes.conf" "$T/routes.conf"
export TRIAGE_CONFIG="$T/routes.conf"
export TRIAGE_STATE_DIR="$T/state"

test_expect_success() {
	test_count=$((test_count + 1))
	if (set -e; eval "$2") >"$T/out.log" 2>&1; then
		echo "ok $test_count - $1"
		# Figures a test reports ("# ...") belong in the CI log.
		grep '^# ' "$T/out.log" || true
	else
		echo "not ok $test_count - $1"
		sed 's/^/#   /' "$T/out.log" | head -40
		test_failed=$((test_failed + 1))
	fi
}

test_skip() {
	test_count=$((test_count + 1))
	echo "ok $test_count # skip $1"
}

test_cmp() {
	diff -u "$1" "$2"
}

# test_exit CODE cmd... - run cmd and require exit status CODE
test_exit() {
	want=$1
	shift
	set +e
	"$@"
	got=$?
	set -e
	if [ "$got" != "$want" ]; then
		echo "exit status $got, expected $want: $*"
		return 1
	fi
}

test_done() {
	echo "1..$test_count"
	if [ "$test_failed" != 0 ]; then
		echo "# failed $test_failed of $test_count in $(basename "$0")"
		exit 1
	fi
	echo "# passed all $test_count in $(basename "$0")"
}
