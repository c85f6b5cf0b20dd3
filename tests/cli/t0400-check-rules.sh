#!/bin/sh
# t0400-check-rules: 'triage check-rules' lints the classification rules
# and runs their inline tests (the shipped classifiers/ among them)
. "$(dirname "$0")/../lib.sh"

test_expect_success 'the shipped rules are clean and their tests pass' '
	"$TRIAGE" check-rules --rules "$SRC/classifiers" --local "" --test \
		>"$T/out" 2>"$T/err" &&
	test_cmp /dev/null "$T/err" &&
	grep -q "^[0-9]* rules from [0-9]* files, loaded in .*; [0-9]* tests passed$" "$T/out" &&
	sed "s/^/# check-rules: /" "$T/out"
'

mkdir -p "$T/rules"
cat >"$T/rules/10_a.rules" <<-\EOF
	header   A_BOT   From:addr =~ /^bot\@ci\.example$/m
	describe A_BOT   A CI bot
	score    A_BOT   fuzzer=10
	tflags   A_BOT   certain
	test     A_BOT   ok   From: CI <bot@ci.example>
	test     A_BOT   fail From: Jane <jane@example.org>

	body     A_WORD  /could lead to/i
	describe A_WORD  Theoretical
	score    A_WORD  ai=2
	test     A_WORD  ok   This could lead to a crash.
EOF
cat >"$T/rules/90_t.rules" <<-\EOF
	threshold ai 5
EOF

test_expect_success 'a clean directory: exit 0, nothing on stderr' '
	"$TRIAGE" check-rules --rules "$T/rules" --local "" --test \
		>"$T/out" 2>"$T/err" &&
	test_cmp /dev/null "$T/err" &&
	grep -q "^2 rules from 2 files" "$T/out" &&
	grep -q "; 3 tests passed$" "$T/out"
'

test_expect_success 'lint errors give file:line and exit 78' '
	cp -r "$T/rules" "$T/bad" &&
	cat >"$T/bad/20_bad.rules" <<-\EOF &&
	body     B_REGEX /(unclosed/
	score    B_REGEX ai=1
	meta     B_META  A_WORD && NO_SUCH_RULE
	score    B_META  ai=1
	score    A_WORD  robot=3
	body     A_WORD  /again/
	body     A_WORD  /twice/
	EOF
	test_exit 78 "$TRIAGE" check-rules --rules "$T/bad" --local "" \
		2>"$T/err" &&
	grep -q "^$T/bad/20_bad.rules:1: body B_REGEX: bad regex" "$T/err" &&
	grep -q "^$T/bad/20_bad.rules:3: meta: unknown rule NO_SUCH_RULE" "$T/err" &&
	grep -q "^$T/bad/20_bad.rules:5: score A_WORD: unknown class .robot." "$T/err" &&
	grep -q "^$T/bad/20_bad.rules:7: duplicate definition of A_WORD (line 6)" "$T/err" &&
	grep -q "errors in the rules" "$T/err"
'

test_expect_success 'a failing inline test gives file:line and exit 78' '
	cp -r "$T/rules" "$T/failing" &&
	echo "test A_WORD ok It crashed." >>"$T/failing/10_a.rules" &&
	test_exit 78 "$TRIAGE" check-rules --rules "$T/failing" --local "" \
		--test 2>"$T/err" &&
	grep -q "^$T/failing/10_a.rules:12: test A_WORD ok: the rule did not fire" "$T/err" &&
	grep -q "1 of 4 rule tests failed" "$T/err" &&
	"$TRIAGE" check-rules --rules "$T/failing" --local "" >/dev/null
'

test_expect_success 'a site file overrides scores and adds rules' '
	cat >"$T/local.rules" <<-\EOF &&
	score    A_WORD  ai=0.5
	body     L_MINE  /my laptop/
	describe L_MINE  Local rule
	score    L_MINE  user=1
	test     L_MINE  ok On my laptop it hangs.
	EOF
	"$TRIAGE" check-rules --rules "$T/rules" --local "$T/local.rules" \
		--test >"$T/out" &&
	grep -q "^3 rules from 3 files.*; 4 tests passed$" "$T/out" &&
	echo "score A_WORD ai=1" >>"$T/local.rules" &&
	test_exit 78 "$TRIAGE" check-rules --rules "$T/rules" \
		--local "$T/local.rules" 2>"$T/err" &&
	grep -q "local.rules:6: duplicate score for A_WORD (line 1)" "$T/err"
'

test_expect_success 'a missing --local file is an error' '
	test_exit 78 "$TRIAGE" check-rules --rules "$T/rules" \
		--local "$T/nope.rules" 2>"$T/err" &&
	grep -q "nope.rules: cannot open" "$T/err"
'

test_expect_success 'rules_dir and local_rules come from routes.conf' '
	echo "score L_MINE user=2" >"$T/site.rules" &&
	echo "body L_MINE /mine/" >>"$T/site.rules" &&
	echo "describe L_MINE mine" >>"$T/site.rules" &&
	cp "$TRIAGE_CONFIG" "$T/custom.conf" &&
	echo "rules_dir = $T/rules" >>"$T/custom.conf" &&
	echo "local_rules = $T/site.rules" >>"$T/custom.conf" &&
	"$TRIAGE" -c "$T/custom.conf" check-rules >"$T/out" &&
	grep -q "^3 rules from 3 files" "$T/out" &&
	echo "local_rules = $T/absent.rules" >>"$T/custom.conf" &&
	"$TRIAGE" -c "$T/custom.conf" check-rules >"$T/out" &&
	grep -q "^2 rules from 2 files" "$T/out"
'

test_expect_success '--compile writes the snapshot to the state directory' '
	"$TRIAGE" check-rules --rules "$SRC/classifiers" --local "" --test \
		--compile >"$T/out" &&
	test -s "$TRIAGE_STATE_DIR/rules.idx" &&
	grep -q "compiled to $TRIAGE_STATE_DIR/rules.idx$" "$T/out" &&
	"$TRIAGE" check-rules --rules "$T/rules" --local "" \
		--output "$T/other.idx" >/dev/null &&
	test -s "$T/other.idx" &&
	test_exit 73 "$TRIAGE" check-rules --rules "$T/rules" --local "" \
		--output "$T/no/such/dir/x.idx" 2>"$T/err" &&
	test_exit 64 "$TRIAGE" check-rules --compile --output "$T/x.idx" \
		2>/dev/null &&
	test_exit 78 "$TRIAGE" check-rules --rules "$T/bad" --local "" \
		--output "$T/bad.idx" 2>/dev/null &&
	! test -e "$T/bad.idx"
'

test_expect_success 'usage errors exit 64; check-rules is in the help' '
	test_exit 64 "$TRIAGE" check-rules --no-such-option 2>/dev/null &&
	test_exit 64 "$TRIAGE" check-rules extra-argument 2>/dev/null &&
	test_exit 78 "$TRIAGE" check-rules --rules "$T/no-such-dir" 2>"$T/err" &&
	grep -q "no-such-dir: cannot open" "$T/err" &&
	"$TRIAGE" help >"$T/help" &&
	grep -q "check-rules" "$T/help"
'

test_done
