#!/bin/sh
# t0456-model-items: the shipped model (classifiers/model.bin) is trained
# on nothing a held-out measurement judges.  classifiers/model-items.tsv
# lists its training items (tools/train-model.sh); no Message-ID of it
# may be one of tests/real/held-reports.tsv, held-reports2.tsv, held-reports3.tsv,
# held-reports4.tsv, held-reports6.tsv,
# lists.tsv ('make eval-real') or of the held-out part of
# classifiers/split.tsv and tests/corpus/train/split.tsv ('make eval',
# whose split is those two files).  A message cross-posted to a tuning
# list and a held-out one has one Message-ID in both.  Message-IDs are
# compared without <> and in lower case; only the Message-ID columns are
# read.  Each item is a different message: a Message-ID is listed once
# (tools/train-model.sh keeps one copy; t0457 tests the script).
. "$(dirname "$0")/../lib.sh"
ITEMS="$SRC/classifiers/model-items.tsv"

# ids FILE - the normalised Message-IDs of column 1 of FILE's rows
# (not '#' lines); with "held-out", of the rows whose column 2 says so
ids() {
	awk -F'\t' -v part="$2" '
		/^#/ { next }
		part != "" && $2 != part { next }
		{ id = tolower($1); gsub(/^[ <]+|[> ]+$/, "", id)
		  if (id != "" && id != "message_id") print id }' "$1" | sort -u
}

if ! test -f "$ITEMS"; then
	test_skip "no classifiers/model-items.tsv"
	test_done
	exit 0
fi

test_setup 'the training items of the shipped model are listed' '
	ids "$ITEMS" >"$T/items" &&
	echo "# $(grep -c . "$T/items") training items in classifiers/model-items.tsv" &&
	test "$(grep -c . "$T/items")" -gt 100
'

test_expect_success 'each training item is a different message (one Message-ID once)' '
	grep -v "^#" "$ITEMS" | awk -F"\t" "{ id = tolower(\$1)
		gsub(/^[ <]+|[> ]+\$/, \"\", id); print id }" |
		sort | uniq -d >"$T/twice" &&
	if test -s "$T/twice"; then
		echo "Message-IDs listed more than once:" &&
		cat "$T/twice" &&
		return 1
	fi
'

# no_held_item FILE [held-out] - no training item has a Message-ID of
# FILE (of its held-out rows); the set is not empty
no_held_item() {
	ids "$1" $2 >"$T/held" &&
	test "$(grep -c . "$T/held")" -gt 10 &&
	comm -12 "$T/items" "$T/held" >"$T/both" &&
	if test -s "$T/both"; then
		echo "training items held out in $1:" &&
		awk -F"\t" "NR == FNR { h[\$1] = 1; next }
			!/^#/ { id = tolower(\$1); gsub(/^[ <]+|[> ]+\$/, \"\", id) }
			!/^#/ && (id in h) { print \"  \" \$3 \" (\" \$2 \")\" }" \
			"$T/both" "$ITEMS" &&
		return 1
	fi
}

for f in tests/real/held-reports.tsv tests/real/held-reports2.tsv \
	tests/real/held-reports3.tsv tests/real/held-reports4.tsv \
	tests/real/held-reports6.tsv \
	tests/real/lists.tsv; do
	if test -f "$SRC/$f"; then
		test_expect_success "no training item is in $f" "
			no_held_item \"\$SRC/$f\"
		"
	else
		test_skip "no $f"
	fi
done

for f in classifiers/split.tsv tests/corpus/train/split.tsv; do
	if test -f "$SRC/$f"; then
		test_expect_success "no training item is held out in $f" "
			no_held_item \"\$SRC/$f\" held-out
		"
	else
		test_skip "no $f"
	fi
done

test_done
