#!/bin/sh
# t0000-testlib: the test library (tests/lib.sh, tests/chainlint.py)
#
# A copy of a real test script (t0100-map.sh) is broken on purpose -- a
# bare "false" as the first line of each body in turn, a failing middle
# step, a failing assert in a Python here-document, a loop that checks
# only its last pass, a pipe that hides the program's exit status -- and
# must then fail; the unmodified copy must pass.
. "$(dirname "$0")/../lib.sh"

# copy - t0100-map.sh and the library it sources, in $T/copy; prints
# the copy's path
copy() {
	rm -rf "$T/copy" &&
	mkdir -p "$T/copy/tests/cli" &&
	cp "$SRC/tests/lib.sh" "$T/copy/tests/lib.sh" &&
	cp "$SRC/tests/cli/t0100-map.sh" "$T/copy/tests/cli/t0100-map.sh" &&
	echo "$T/copy/tests/cli/t0100-map.sh"
}

# run LINT SCRIPT [OPTION...] - run a copy on this tree, with
# TEST_CHAIN_LINT=LINT, its output in $T/run.out; fails as it does
run() {
	lint=$1 &&
	shift &&
	TEST_CHAIN_LINT=$lint TRIAGE_SRCDIR=$SRC TEST_RESULTS= \
		sh "$@" >"$T/run.out" 2>&1
}

# fails LINT SCRIPT [OPTION...] - the copy fails; shows its output
fails() {
	! run "$@" || { cat "$T/run.out"; echo "the broken copy passed"; return 1; }
}

# first_line FILE K LINE - LINE as the first line of the K-th body
first_line() {
	awk -v k="$2" -v line="$3" '
		{ print }
		/^test_expect_success / && ++n == k { print line }' "$1" >"$1.new" &&
	mv "$1.new" "$1"
}

# after_line FILE K N LINE - LINE after the N-th line of the K-th body
after_line() {
	awk -v k="$2" -v at="$3" -v line="$4" '
		/^test_expect_success / { n++; i = 0; print; next }
		n == k && ++i == at { print; print line; next }
		{ print }' "$1" >"$1.new" &&
	mv "$1.new" "$1"
}

# in_heredoc FILE K LINE - LINE at the end of the K-th body's here-document
in_heredoc() {
	awk -v k="$2" -v line="$3" '
		/^test_expect_success / { n++ }
		n == k && /^\tPY$/ { print line }
		{ print }' "$1" >"$1.new" &&
	mv "$1.new" "$1"
}

# add_test FILE BODY - one more test, "added", before test_done
add_test() {
	sed '$d' "$1" >"$1.new" &&
	printf "test_expect_success 'added' '\n%s\n'\n\ntest_done\n" "$2" >>"$1.new" &&
	mv "$1.new" "$1"
}

# A library that passes every body would pass these tests too: this
# check runs outside them.
c=$(copy) && after_line "$c" 3 2 "	false &&" || exit 1
if run 1 "$c"; then
	echo "Bail out! a test with a failing step passed: tests/lib.sh is broken"
	exit 1
fi

test_expect_success 'the unmodified copy passes' '
	c=$(copy) &&
	run 1 "$c" &&
	grep -q "^# cli/t0100-map: 10 passed, 0 failed, 0 skipped$" "$T/run.out"
'

test_expect_success 'a bare false as the first line of any body: refused before it runs' '
	for k in 1 2 3 4 5 6 7 8 9 10; do
		c=$(copy) &&
		first_line "$c" $k "	false" &&
		fails 1 "$c" &&
		grep -q "^Bail out! cli/t0100-map: " "$T/run.out" &&
		grep -q "broken &&-chain: a newline before this command" "$T/run.out" &&
		! grep -q "^ok " "$T/run.out" || return 1
	done
'

test_expect_success 'in every test script, a bare false first in any body is refused' '
	python3 - "$SRC/tests" <<-\PY
	import glob, os, sys
	sys.path.insert(0, sys.argv[1])
	import chainlint
	n = 0
	for path in sorted(glob.glob(os.path.join(sys.argv[1], "*", "t*.sh"))):
	    lx = chainlint.Lexer(open(path).read(), script=True)
	    p = chainlint.parse(lx, "the script")
	    assert not lx.problems, (path, lx.problems)
	    for word, title in p.bodies:
	        body = word.body_text()
	        problems, _ = chainlint.lint_body("false\n" + body)
	        assert problems or not body.strip(), (path, title)
	        n += 1
	assert n > 200, n  # the scripts were read
	print("# a bare false refused first in each of %d bodies" % n)
	PY
'

test_expect_success '... and by the (exit 117) check alone, that body fails' '
	for k in 1 2 3 4 5 6 7 8 9 10; do
		c=$(copy) &&
		first_line "$c" $k "	false" &&
		fails runtime "$c" --run=$k &&
		grep -q "^not ok $k - " "$T/run.out" &&
		grep -q "^# cli/t0100-map: 0 passed, 1 failed, 9 skipped$" "$T/run.out" || return 1
	done
'

test_expect_success 'a failing middle step fails its test, and only it' '
	c=$(copy) &&
	after_line "$c" 3 2 "	false &&" &&
	fails 1 "$c" &&
	grep -q "^not ok 3 - " "$T/run.out" &&
	grep -q "^# cli/t0100-map: 9 passed, 1 failed, 0 skipped$" "$T/run.out"
'

test_expect_success 'a failing assert in a Python here-document fails its test' '
	c=$(copy) &&
	in_heredoc "$c" 6 "	assert False, \"injected\"" &&
	fails 1 "$c" --run=6 &&
	grep -q "^not ok 6 - " "$T/run.out" &&
	grep -q "AssertionError: injected" "$T/run.out"
'

test_expect_success 'a loop that checks only its last pass is refused' '
	c=$(copy) &&
	add_test "$c" "	for x in b a; do
		test \$x = a
	done" &&
	fails 1 "$c" &&
	grep -q "a for loop without \"|| return 1\"" "$T/run.out" &&
	c=$(copy) &&
	add_test "$c" "	for x in b a; do
		test \$x = a || return 1
	done" &&
	fails 1 "$c" &&
	grep -q "^not ok 11 - added" "$T/run.out"
'

test_expect_success 'a pipe that hides the exit status of the program is refused' '
	c=$(copy) &&
	add_test "$c" "	\"\$TRIAGE\" no-such-command | cat" &&
	fails 1 "$c" &&
	grep -q "the exit status of \"\$TRIAGE\" is lost in a pipe" "$T/run.out"
'

test_expect_success 'a function a test runs through a wrapper (test_wait 1 f) is linted too' '
	c=$(copy) &&
	add_test "$c" "	test_wait 1 twice" &&
	sed "/^test_expect_success .added/i twice() {\\n\\ttrue\\n\\ttrue\\n}\\n" "$c" >"$c.new" &&
	mv "$c.new" "$c" &&
	grep -q "^twice() {" "$c" &&
	fails 1 "$c" &&
	grep -q "broken &&-chain: a newline before this command in a { } group (function twice, which a test runs)" "$T/run.out"
'

test_expect_success 'a chain that goes on in the background, or after ||, is refused' '
	c=$(copy) &&
	add_test "$c" "	false && sleep 1 &
	true" &&
	fails 1 "$c" &&
	grep -q "a \"&\" before this command" "$T/run.out" &&
	c=$(copy) &&
	add_test "$c" "	false || echo x && true" &&
	fails 1 "$c" &&
	grep -q "\"a || b && c\" runs c after a failed" "$T/run.out"
'

test_expect_success '--run selects tests; skips are counted' '
	c=$(copy) &&
	run 1 "$c" --run=2,4-5 &&
	grep -q "^ok 1 # skip .* (--run)$" "$T/run.out" &&
	grep -q "^ok 4 - " "$T/run.out" &&
	grep -q "^# cli/t0100-map: 3 passed, 0 failed, 7 skipped$" "$T/run.out"
'

test_expect_success '-i stops at the first failure, -v shows the bodies and their output' '
	c=$(copy) &&
	after_line "$c" 3 2 "	false &&" &&
	fails 1 "$c" -i &&
	grep -q "^not ok 3 - " "$T/run.out" &&
	! grep -q "^ok 4 - " "$T/run.out" &&
	grep -q "^# cli/t0100-map: 2 passed, 1 failed, 0 skipped$" "$T/run.out" &&
	run 1 "$c" -v --run=6 &&
	grep -q "^# expecting success of 6 " "$T/run.out" &&
	grep -q "^#.*\"\$TRIAGE\" map --maintainers" "$T/run.out"
'

test_expect_success 'test_done adds the counts to TEST_RESULTS' '
	c=$(copy) &&
	mkdir "$T/results" &&
	TEST_RESULTS=$T/results TRIAGE_SRCDIR=$SRC sh "$c" --run=1 >/dev/null &&
	echo "1 0 9 cli/t0100-map" >"$T/expect" &&
	test_cmp "$T/expect" "$T/results/counts" &&
	grep -q "^cli/t0100-map: paths as arguments give the same lines (--run)$" "$T/results/skips"
'

test_expect_success 'a test script runs from any directory' '
	(cd / && TEST_RESULTS= sh "$SRC/tests/cli/t0130-symbols.sh" --run=3) >"$T/out" &&
	grep -q "^ok 3 - triage symbols: files best first" "$T/out"
'

test_done
