#!/bin/sh
# t0450-train-eval: 'triage train' and 'triage eval' on hand-written
# reports (tests/corpus/classify), and training from triagers'
# corrections in the database
. "$(dirname "$0")/../lib.sh"
CORPUS="$SRC/tests/corpus/classify"
# filter_memory_mb = 0: no address-space cap, which sanitizer builds
# (make SANITIZE=address) cannot run under
cat >>"$T/routes.conf" <<EOF
rules_dir = $SRC/classifiers
local_rules =
filter_memory_mb = 0
EOF

test_expect_success 'train writes a model and counts the examples' '
	"$TRIAGE" train --dir "$CORPUS" --output "$T/model.bin" >"$T/out" &&
	cat "$T/out" &&
	test -s "$T/model.bin" &&
	grep -q "^directories *5 *5 *5$" "$T/out" &&
	grep -q "^14 author/thread groups$" "$T/out" &&
	grep -q "^wrote $T/model.bin: logistic regression, 5 user, 5 fuzzer, 5 ai examples$" "$T/out" &&
	grep -q "abstains until every class has enough examples" "$T/out" &&
	grep -q "^before: no current model" "$T/out" &&
	grep -q "^# after: macro-F1" "$T/out"
'

test_expect_success 'a second train compares with the current model' '
	"$TRIAGE" train --dir "$CORPUS" --kind nb --output "$T/model.bin" >"$T/out" &&
	grep -q "^before: the current model $T/model.bin, unchanged" "$T/out" &&
	grep -q "^# before: macro-F1" "$T/out" &&
	grep -q "naive Bayes, 5 user" "$T/out"
'

test_expect_success 'train refuses bad usage and missing input' '
	test_exit 64 "$TRIAGE" train &&
	test_exit 64 "$TRIAGE" train --dir "$CORPUS" --db "$T/x.db" &&
	test_exit 64 "$TRIAGE" train --dir "$CORPUS" --kind svm &&
	test_exit 66 "$TRIAGE" train --dir "$T/nowhere" --output "$T/m" 2>"$T/err" &&
	grep -q "has no index.tsv" "$T/err" &&
	test_exit 66 "$TRIAGE" train --from-corrections --db "$T/none.db" 2>"$T/err" &&
	grep -q "no database" "$T/err"
'

test_expect_success 'eval prints per-class figures, the confusion matrix and no targets' '
	"$TRIAGE" eval --corpus "$CORPUS" --no-symbols --folds 3 >"$T/out" &&
	cat "$T/out" &&
	grep -q "^triage eval: 15 messages (user 5, fuzzer 5, ai 5) in 14 author/thread groups$" "$T/out" &&
	grep -q "^model: cross-validated (CV) on 3 folds grouped by author and thread (seed 1)$" "$T/out" &&
	grep -q "^uncertain counts as a miss in recall and in no precision$" "$T/out" &&
	sed -n "/^== rules + model/,/^user reports sent to ai/p" "$T/out" | awk "NF == 5 && \$1 != \"\" { n += \$2 + \$3 + \$4 + \$5 } END { exit n != 15 }" &&
	grep -q "^user reports sent to ai: 0$" "$T/out" &&
	grep -q "^bot-sent reports (the sender is a known bot): 3, 3 labelled fuzzer$" "$T/out" &&
	grep -q "^  recall, certain header rules alone: 3/3 = 1.00$" "$T/out" &&
	grep -q "^  precision of certain fuzzer verdicts: 3/3 = 1.00$" "$T/out" &&
	! grep -q "target\|met$" "$T/out" &&
	grep -q "^FUZZ_SYZBOT_FROM  *fuzzer=10  *0  *1  *0$" "$T/out" &&
	grep -q "^  verdicts changed by removing transport/archive headers: 0 of 15$" "$T/out" &&
	sed -n "s/^macro-F1/# eval (15 hand-written reports): macro-F1/p" "$T/out"
'

test_expect_success 'eval --ablate scores a rule 0, and names an unknown one' '
	"$TRIAGE" eval --corpus "$CORPUS" --no-symbols --folds 3 \
		--ablate AI_REVIEW_DISCLAIMER >"$T/out" &&
	grep -q "^ablated (scored 0): AI_REVIEW_DISCLAIMER$" "$T/out" &&
	grep -q "^AI_REVIEW_DISCLAIMER  *0 " "$T/out" &&
	test_exit 78 "$TRIAGE" eval --corpus "$CORPUS" --no-symbols \
		--ablate NO_SUCH_RULE 2>"$T/err" &&
	grep -q "NO_SUCH_RULE" "$T/err" &&
	test_exit 64 "$TRIAGE" eval --no-symbols &&
	test_exit 64 "$TRIAGE" eval --corpus "$CORPUS" --folds 1
'

test_expect_success 'train --from-corrections learns what triagers reclassified' '
	for f in "$CORPUS"/user/01-resume-hang.eml "$CORPUS"/ai/02-theoretical.eml \
		"$CORPUS"/fuzzer/04-static.eml; do
		"$FILTER" <"$f" || return 1
	done &&
	db="$TRIAGE_STATE_DIR/triage.db" &&
	test "$(sqlite3 "$db" "SELECT count(*) FROM classification")" = 3 &&
	sqlite3 "$db" "BEGIN;
		INSERT INTO actions (report, at, who, action, argument, previous)
		SELECT id, 1, '"'"'tri'"'"', '"'"'reclassify'"'"', '"'"'user'"'"', class
		FROM reports WHERE subject LIKE '"'"'nfsd%'"'"';
		UPDATE reports SET class = '"'"'user'"'"' WHERE subject LIKE '"'"'nfsd%'"'"';
		COMMIT;" &&
	"$TRIAGE" train --dir "$CORPUS" --from-corrections --output "$T/m2.bin" >"$T/out" &&
	cat "$T/out" &&
	grep -q "^corrections: 1 from $db$" "$T/out" &&
	grep -q "^corrections *1 *0 *0$" "$T/out" &&
	grep -q "^total *6 *5 *5$" "$T/out" &&
	grep -q "^the 1 corrections alone: after [01] right (no current model)$" "$T/out" &&
	grep -q "^wrote $T/m2.bin: logistic regression, 6 user, 5 fuzzer, 5 ai examples$" "$T/out"
'

test_expect_success 'train writes STATE_DIR/model.bin by default, which explain loads' '
	TRIAGE_STATE_DIR="$T/state2" &&
	export TRIAGE_STATE_DIR &&
	mkdir "$T/rules-nomodel" &&
	cp "$SRC"/classifiers/*.rules "$T/rules-nomodel/" &&
	sed "s|^rules_dir = .*|rules_dir = $T/rules-nomodel|" "$T/routes.conf" >"$T/nomodel.conf" &&
	TRIAGE_CONFIG="$T/nomodel.conf" "$TRIAGE" explain "$CORPUS/user/04-raid.eml" >"$T/out" &&
	grep -q "no trained model" "$T/out" &&
	"$TRIAGE" train --dir "$CORPUS" --no-cv >"$T/out" &&
	test -s "$T/state2/model.bin" &&
	! grep -q "^before" "$T/out" &&
	TRIAGE_CONFIG="$T/nomodel.conf" "$TRIAGE" explain "$CORPUS/user/04-raid.eml" >"$T/out" &&
	! grep -q "no trained model" "$T/out"
'

test_done
