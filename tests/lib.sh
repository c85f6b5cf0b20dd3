# lib.sh - the TAP test library of the shell tests (git's test-lib idea)
#
# A test script sources it, then:
#   test_expect_success 'what it shows' '
#   	step &&
#   	step
#   '
#   test_setup 'what it prepares' 'commands'   (runs even when --run
#   	leaves it out: the tests after it need it)
#   test_skip 'what is not tested: why'
#   test_done
# A body passes when its last command succeeds, so its steps are joined
# by && and a loop ends each pass with "|| return 1": tests/chainlint.py
# refuses a script whose bodies (or the functions they run) break that
# chain, and each body is run once more with "(exit 117) &&" before it,
# which must leave 117, before it runs.
#
# Options, after the script's name (sh t0100-map.sh -v -i --run=3):
#   -v, --verbose     show each test's body and all it prints
#   -i, --immediate   stop at the first failing test
#   -x                trace the commands of the bodies (set -x)
#   --run=LIST        run only these tests, e.g. 3 or 1,4-6 (the others
#                     are skipped; later tests may need the earlier ones)
#   --no-chain-lint   run the bodies without the checks above
#                     (TEST_CHAIN_LINT=runtime: only the 117 check)
#
# TRIAGE is the triage binary, FILTER the filter, SRC the source tree,
# SHARED the ../shared data directory (may be absent), T a scratch dir.
# TEST_RESULTS, when set, is a directory where test_done adds this
# script's counts for a summary (tests/run-scripts.sh, tests/summary.sh).

test_script=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
test_name=$(basename "$(dirname "$test_script")")/$(basename "$0" .sh)
test_verbose=
test_immediate=
test_trace=
test_run_list=
test_chain_lint=${TEST_CHAIN_LINT:-1}
test_setup_=
while [ $# -gt 0 ]; do
	case $1 in
	-v | --verbose) test_verbose=1 ;;
	-i | --immediate) test_immediate=1 ;;
	-x) test_trace=1 ;;
	--run=*) test_run_list=${1#--run=} ;;
	--run) shift && test_run_list=$1 ;;
	--no-chain-lint) test_chain_lint=0 ;;
	-h | --help)
		sed -n '/^# Options/,/TEST_CHAIN_LINT=runtime/p' "$(dirname "$0")/../lib.sh" |
			sed 's/^# \{0,1\}//'
		exit 0
		;;
	*)
		echo "$0: unknown option '$1' (see -h)" >&2
		exit 64
		;;
	esac
	shift
done
set --
case $test_run_list in
*[!0-9,-]*)
	echo "$0: --run takes numbers and ranges: 3 or 1,4-6" >&2
	exit 64
	;;
esac
# the tests run from their own directory, wherever they were started
cd "$(dirname "$test_script")" || exit 1

SRC=${TRIAGE_SRCDIR:-$(cd ../.. && pwd)}
TRIAGE="$SRC/triage"
FILTER="$SRC/triage-filter"
SHARED=${TRIAGE_SHARED:-$SRC/../shared}
T=$(mktemp -d "${TMPDIR:-/tmp}/triage-test.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
test_count=0
test_passed=0
test_failed=0
test_skipped=0
export LC_ALL=C
# python3 is Debian's (/usr/bin/python3), with the python3-* packages
# tools/deps.sh installs (aiosmtpd), before another one on PATH (pyenv's
# has none of them, and its shim takes a second to start on a busy
# machine); TEST_PYTHON names another.  (A link on PATH, not a function:
# "python3 ... &" must leave the interpreter's own pid in $!.)
TEST_PYTHON=${TEST_PYTHON:-$(if [ -x /usr/bin/python3 ]; then echo /usr/bin/python3; else command -v python3; fi)}
if [ -n "$TEST_PYTHON" ]; then
	mkdir "$T/.bin" && ln -s "$TEST_PYTHON" "$T/.bin/python3" || exit 1
	PATH="$T/.bin:$PATH"
fi
# Never read the host's configuration or state by accident: the shipped
# routes.conf, with the state directory in the scratch area.
cp "$SRC/routes.conf" "$T/routes.conf" || exit 1
export TRIAGE_CONFIG="$T/routes.conf"
export TRIAGE_STATE_DIR="$T/state"

# TRIAGE_VALGRIND=1: run triage and triage-filter (and the triage-mime
# and triage-net they start) under valgrind, through wrapper scripts in
# a directory others may read (Postfix runs the filter as another user),
# with copies of the programs there (the source tree may be private).
# A memory error or a definite leak makes the program exit 99, and
# test_done fails when a log under $VGLOG reports one.
# TRIAGE_VALGRIND_LOG is where the logs go (/tmp/triage-valgrind).
if [ -n "$TRIAGE_VALGRIND" ] && command -v valgrind >/dev/null; then
	VGROOT=${TRIAGE_VALGRIND_LOG:-/tmp/triage-valgrind}
	VGLOG="$VGROOT/$test_name"
	VGBIN="$VGROOT/bin.$$"
	rm -rf "$VGLOG" "$VGBIN"
	mkdir -p "$VGLOG" "$VGBIN" && chmod 1777 "$VGROOT" "$VGLOG" &&
	chmod 755 "$VGBIN" &&
	cp "$SRC/tests/valgrind.supp" "$VGBIN/valgrind.supp" || exit 1
	for p in triage triage-filter; do
		cp "$SRC/$p" "$VGBIN/$p.real" &&
		cat >"$VGBIN/$p" <<-EOF || exit 1
		#!/bin/sh
		exec valgrind -q --error-exitcode=99 --leak-check=full \\
			--errors-for-leak-kinds=definite --show-leak-kinds=definite \\
			--trace-children=yes \\
			--trace-children-skip='/bin/*,/usr/*,/sbin/*,*sendmail*,*/sh' \\
			--suppressions="$VGBIN/valgrind.supp" \\
			--log-file="$VGLOG/$p.%p.log" "$VGBIN/$p.real" "\$@"
		EOF
		chmod 755 "$VGBIN/$p" "$VGBIN/$p.real" || exit 1
	done
	chmod 644 "$VGBIN/valgrind.supp"
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

# test_selected_ N - whether --run lets test N run
test_selected_() {
	[ -z "$test_run_list" ] && return 0
	_old_ifs=$IFS
	IFS=,
	for _r in $test_run_list; do
		case $_r in
		*-*) _lo=${_r%-*} _hi=${_r#*-} ;;
		*) _lo=$_r _hi=$_r ;;
		esac
		if [ "$1" -ge "${_lo:-1}" ] && [ "$1" -le "${_hi:-$1}" ]; then
			IFS=$_old_ifs
			return 0
		fi
	done
	IFS=$_old_ifs
	return 1
}

# test_eval_ BODY - run a body as a function's: "return 1" ends it
test_eval_() {
	eval "$1"
}

# test_chain_ok_ BODY - the body with (exit 117) && before it runs none
# of its commands: a command not joined by && (or a here-document that
# swallows the rest) would run, or lose the 117
test_chain_ok_() {
	[ "$test_chain_lint" != 0 ] || return 0
	# (into a file: a broken body might leave a daemon holding a pipe)
	(test_eval_ "(exit 117) && $1
echo \"chain-lint:\$?\"") </dev/null >"$T/.chain-lint" 2>/dev/null
	[ "$(cat "$T/.chain-lint")" = "chain-lint:117" ]
}

# test_report_failure_ TITLE BODY LOG
test_report_failure_() {
	echo "not ok $test_count - $1"
	printf '%s\n' "$2" | sed 's/^/#	/'
	if [ -n "$3" ]; then
		_n=$(wc -l <"$3")
		if [ "$_n" -le 60 ] || [ -n "$test_verbose" ]; then
			sed 's/^/#   /' "$3"
		else
			head -20 "$3" | sed 's/^/#   /'
			echo "#   ... ($((_n - 60)) lines; -v shows them)"
			tail -40 "$3" | sed 's/^/#   /'
		fi
	fi
	test_failed=$((test_failed + 1))
	if [ -n "$test_immediate" ]; then
		echo "# stopping at the first failure (-i)"
		test_done
	fi
}

test_expect_success() {
	test_count=$((test_count + 1))
	if [ -z "$test_setup_" ] && ! test_selected_ $test_count; then
		test_skipped_ "$1 (--run)"
		return 0
	fi
	if ! test_chain_ok_ "$2"; then
		echo "# broken &&-chain or a here-document without its end:" >"$T/.test-output"
		test_report_failure_ "$1" "$2" "$T/.test-output"
		return 0
	fi
	if [ -n "$test_verbose" ]; then
		echo "# expecting success of $test_count '$1':"
		printf '%s\n' "$2" | sed 's/^/#	/'
	fi
	# (into a file, not a pipe: a daemon a test starts keeps it open)
	if [ -n "$test_trace" ]; then
		(set -x && test_eval_ "$2") </dev/null >"$T/.test-output" 2>&1
	else
		(test_eval_ "$2") </dev/null >"$T/.test-output" 2>&1
	fi
	_rc=$?
	if [ "$_rc" = 0 ]; then
		echo "ok $test_count - $1"
		test_passed=$((test_passed + 1))
		# Figures a test reports ("# ...") belong in the CI log.
		if [ -n "$test_verbose" ]; then
			cat "$T/.test-output"
		else
			grep '^# ' "$T/.test-output"
		fi
	else
		test_report_failure_ "$1" "$2" "$T/.test-output"
	fi
	return 0
}

# test_setup TITLE BODY - a test that prepares what later tests use:
# run whatever --run selects
test_setup() {
	test_setup_=1
	test_expect_success "$@"
	test_setup_=
}

# test_skip TITLE - a test that is not run here; TITLE says why
test_skip() {
	test_count=$((test_count + 1))
	test_skipped_ "$1"
}

test_skipped_() {
	echo "ok $test_count # skip $1"
	test_skipped=$((test_skipped + 1))
	if [ -n "$TEST_RESULTS" ]; then
		echo "$test_name: $1" >>"$TEST_RESULTS/skips"
	fi
}

test_cmp() {
	diff -u "$1" "$2"
}

# test_exit CODE cmd... - run cmd and require exit status CODE
test_exit() {
	_want=$1
	shift
	"$@"
	_got=$?
	if [ "$_got" != "$_want" ]; then
		echo "exit status $_got, expected $_want: $*"
		return 1
	fi
}

# test_wait SECONDS cmd... - run cmd every 0.05 s until it succeeds;
# fails when it has not after SECONDS
test_wait() {
	_tries=$(($1 * 20))
	shift
	until "$@"; do
		_tries=$((_tries - 1))
		[ "$_tries" -gt 0 ] || return 1
		sleep 0.05
	done
}

# test_public_copy PATH... - for a test that runs the programs as another
# user (nobody, as Postfix runs the filter): a clone in a private
# directory (a mktemp -d, a 0700 home) keeps that user out of $SRC.  The
# programs and each PATH of the source tree (tests/data, classifiers,
# a corpus) are copied into $T/pub, which anyone may read, $T becomes
# 0711, and SRC, TRIAGE, FILTER and TRIAGE_EXEC_PATH name the copies
# (under TRIAGE_VALGRIND, TRIAGE and FILTER stay valgrind's wrappers,
# which are public already).  Call it at the top level, not in a test
# body (a body runs in a subshell); it bails out when it cannot copy.
test_public_copy() {
	_pub="$T/pub"
	if ! { chmod 711 "$T" && mkdir -p "$_pub"; }; then
		echo "Bail out! $test_name: cannot make $_pub"
		exit 1
	fi
	for _p in triage triage-filter triage-mime triage-net triage-client "$@"; do
		[ -e "$SRC/$_p" ] || continue
		if ! { mkdir -p "$_pub/$(dirname "$_p")" &&
		       cp -R "$SRC/$_p" "$_pub/$_p"; }; then
			echo "Bail out! $test_name: cannot copy $_p into $_pub"
			exit 1
		fi
	done
	if ! chmod -R a+rX "$_pub"; then
		echo "Bail out! $test_name: cannot open $_pub to others"
		exit 1
	fi
	SRC="$_pub"
	if [ -z "$VGBIN" ]; then
		TRIAGE="$_pub/triage"
		FILTER="$_pub/triage-filter"
		export TRIAGE_EXEC_PATH="$_pub"
	fi
}

# test_done - the plan and this script's counts; exits (1 if a test failed)
test_done() {
	valgrind_check || test_failed=$((test_failed + 1))
	echo "1..$test_count"
	echo "# $test_name: $test_passed passed, $test_failed failed, $test_skipped skipped"
	if [ -n "$TEST_RESULTS" ]; then
		echo "$test_passed $test_failed $test_skipped $test_name" >>"$TEST_RESULTS/counts"
	fi
	[ "$test_failed" = 0 ] || exit 1
	exit 0
}

# The static chain lint, once over the whole script: a body that breaks
# its &&-chain is a bug in the script, found before anything runs.
if [ "$test_chain_lint" = 1 ]; then
	if [ -n "$TEST_PYTHON" ]; then
		if ! python3 "$SRC/tests/chainlint.py" "$test_script" >"$T/.chainlint" 2>&1; then
			sed 's/^/# /' "$T/.chainlint"
			echo "Bail out! $test_name: a step whose failure would go unnoticed (above)"
			test_failed=1
			test_done
		fi
	else
		echo "# no python3: the &&-chains are checked at the top level of each body only"
	fi
fi
