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

# TRIAGE_VALGRIND=1: run triage and triage-filter (and the triage-mime
# and triage-net they start) under valgrind, through wrapper scripts in
# a directory others may read (Postfix runs the filter as another user).
# A memory error or a definite leak makes the program exit 99, and
# test_done fails when a log under $VGLOG reports one.
# TRIAGE_VALGRIND_LOG is where the logs go (/tmp/triage-valgrind).
# A fully static triage-filter (the default link) cannot be checked:
# valgrind replaces malloc only in a dynamic program.  Build it with
# 'make FILTER_LINK=pie' first.
if [ -n "$TRIAGE_VALGRIND" ] && command -v valgrind >/dev/null &&
   ! ldd "$SRC/triage-filter" >/dev/null 2>&1; then
	echo "TRIAGE_VALGRIND: triage-filter is fully static; run 'make FILTER_LINK=pie' first" >&2
	exit 1
fi
if [ -n "$TRIAGE_VALGRIND" ] && command -v valgrind >/dev/null; then
	VGROOT=${TRIAGE_VALGRIND_LOG:-/tmp/triage-valgrind}
	VGLOG="$VGROOT/$(basename "$0" .sh)"
	VGBIN="$VGROOT/bin.$$"
	rm -rf "$VGLOG" "$VGBIN"
	mkdir -p "$VGLOG" "$VGBIN" && chmod 1777 "$VGROOT" "$VGLOG" &&
	chmod 755 "$VGBIN"
	for p in triage triage-filter; do
		cat >"$VGBIN/$p" <<-EOF
		#!/bin/sh
		exec valgrind -q --error-exitcode=99 --leak-check=full \\
			--errors-for-leak-kinds=definite --show-leak-kinds=definite \\
			--trace-children=yes \\
			--trace-children-skip='/bin/*,/usr/*,/sbin/*,*sendmail*,*/sh' \\
			--suppressions="$SRC/tests/valgrind.supp" \\
			--log-file="$VGLOG/$p.%p.log" "$SRC/$p" "\$@"
		EOF
		chmod 755 "$VGBIN/$p"
	done
	TRIAGE="$VGBIN/triage"
	FILTER="$VGBIN/triage-filter"
	# 'triage' finds triage-net next to itself: the real one
	export TRIAGE_EXEC_PATH="$SRC"
	trap 'rm -rf "$T" "$VGBIN"' EXIT
fi

# valgrind_check - fail when a valgrind log of this script shows an error
valgrind_check() {
	[ -n "$VGLOG" ] || return 0
	# with -q, valgrind writes only what it reports: errors as ==PID==
	# lines, its own warnings as --PID-- lines (valgrind 3.19 does not
	# know pidfd_open, which then fails with ENOSYS: deliver.c copes)
	bad=$(grep -l "^==[0-9]*==" "$VGLOG"/*.log 2>/dev/null)
	echo "# valgrind: $(ls "$VGLOG" | wc -l) runs logged in $VGLOG, $(echo "$bad" | grep -c .) with errors"
	[ -z "$bad" ] || { head -30 $bad | sed 's/^/# /'; return 1; }
}

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
	valgrind_check || test_failed=$((test_failed + 1))
	echo "1..$test_count"
	if [ "$test_failed" != 0 ]; then
		echo "# failed $test_failed of $test_count in $(basename "$0")"
		exit 1
	fi
	echo "# passed all $test_count in $(basename "$0")"
}
