#!/bin/sh
# t0560-eval: the whole classifier, cross-validated on the 163 labelled
# messages of ../shared/corpus/reports (5 folds grouped by author and
# thread), with and without the kernel symbol index; issue 4's targets
. ../lib.sh
CORPUS="$SHARED/corpus/reports"
TREE="$SRC/build/linux"

if ! test -f "$CORPUS/index.tsv"; then
	echo "# $CORPUS is absent: skipping the classifier evaluation"
	test_skip "classifier evaluation (no ../shared/corpus/reports)"
	test_done
	exit 0
fi

# figures FILE LABEL - the summary lines of an eval as "# " lines
figures() {
	sed -n -e "s/^\(user\|fuzzer\|ai\) \( *[01]\.[0-9]\)/# $2: \1 \2/p" \
		-e "s/^macro-F1/# $2: macro-F1/p" \
		-e "s/^user reports sent to ai:/# $2: user reports sent to ai:/p" \
		-e "s/^  recall, final verdict fuzzer:/# $2: bot-sent fuzzer recall:/p" \
		-e "s/^  precision of certain fuzzer verdicts:/# $2: certain fuzzer precision:/p" \
		-e "s/^  \(.*\)  NOT met$/# $2: NOT MET: \1/p" "$1"
}

# target FILE TEXT - a target line of the eval is met
target() {
	grep -q "^  $2 .* met$" "$1" && ! grep -q "^  $2 .*NOT met$" "$1"
}

test_expect_success 'without the symbol index' '
	"$TRIAGE" eval --corpus "$CORPUS" --rules "$SRC/classifiers" --local "" \
		--no-symbols >"$T/nosyms" &&
	figures "$T/nosyms" "no symbol index" &&
	grep -q "^triage eval: 163 messages (user 57, fuzzer 65, ai 41)" "$T/nosyms" &&
	grep -q "^user reports sent to ai: 0$" "$T/nosyms" &&
	grep -q "^  verdicts changed by removing transport/archive headers: 0 of 163$" "$T/nosyms" &&
	target "$T/nosyms" "user recall >= 0.97:" &&
	target "$T/nosyms" "bot-sent fuzzer precision = 1.00:" &&
	target "$T/nosyms" "bot-sent fuzzer recall >= 0.98:" &&
	target "$T/nosyms" "ai precision >= 0.90:"
'

if test -f "$TREE/fs/xfs/xfs_icache.c"; then
	test_expect_success 'with the symbol index of build/linux' '
		"$TRIAGE" update --kernel-tree "$TREE" --output "$T/symbols.idx" >/dev/null &&
		"$TRIAGE" eval --corpus "$CORPUS" --rules "$SRC/classifiers" \
			--local "" --symbols "$T/symbols.idx" >"$T/syms" &&
		figures "$T/syms" "symbol index" &&
		grep -q "^user reports sent to ai: 0$" "$T/syms" &&
		target "$T/syms" "macro-F1 >= 0.90:" &&
		target "$T/syms" "user recall >= 0.97:" &&
		target "$T/syms" "bot-sent fuzzer precision = 1.00:" &&
		target "$T/syms" "bot-sent fuzzer recall >= 0.98:" &&
		target "$T/syms" "ai precision >= 0.90:"
	'
else
	echo "# build/linux is absent: the evaluation with the symbol index is skipped"
	test_skip "evaluation with the symbol index (no kernel tree)"
fi

test_expect_success 'train on the corpus: grouped figures of the model alone' '
	"$TRIAGE" train --dir "$CORPUS" --output "$T/model.bin" >"$T/train" &&
	sed -n "s/^# after:/# train, model alone, grouped 5-fold:/p" "$T/train" | head -2 &&
	grep -q "^wrote $T/model.bin: logistic regression, 57 user, 65 fuzzer, 41 ai examples$" "$T/train"
'

test_done
