#!/bin/sh
# t0457-train-model-once: tools/train-model.sh takes each message once.
# The same message can be in ../shared/corpus/reports and in a real-mail
# tuning set, or in two lists of the sets (cross-posted); the script
# keeps its first copy (shared corpus, then the real-mail sets, then the
# compositions), says which copies it dropped, and stops (exit 65) when
# two copies carry different classes.  Run on a small tree of its own
# built from tests/corpus/classify.
. "$(dirname "$0")/../lib.sh"
C="$SRC/tests/corpus/classify"
W="$T/src"

# the Message-ID of FILE, without <>
msgid() {
	sed -n 's/^[Mm]essage-[Ii][Dd]:[[:space:]]*<\(.*\)>.*/\1/p' "$1" | head -n 1
}

test_setup 'a tree with one message in the shared corpus and twice in a real-mail set' '
	mkdir -p "$W/classifiers" "$W/tests/real" "$W/tests/corpus/train" \
		"$T/shared/corpus/reports" "$T/real/tune-reports/la" \
		"$T/real/tune-reports/lb" &&
	printf "# split\n" >"$W/classifiers/split.tsv" &&
	for f in "$C"/user/01-resume-hang.eml "$C"/user/02-wifi-drop.eml \
		"$C"/user/04-raid.eml "$C"/fuzzer/01-syzbot.eml \
		"$C"/fuzzer/02-lkp.eml "$C"/ai/01-cvss.eml "$C"/ai/02-theoretical.eml; do
		cls=$(basename "$(dirname "$f")") &&
		mkdir -p "$T/shared/corpus/reports/$cls" &&
		cp "$f" "$T/shared/corpus/reports/$cls/" &&
		printf "%s\ttune\treports\t%s/%s\t%s\n" "$(msgid "$f")" \
			"$cls" "$(basename "$f")" "$cls" >>"$W/classifiers/split.tsv" ||
		return 1
	done &&
	hdr="message_id\tlist\tfile\tkind\tclass\tsections\tnote\tsource" &&
	for s in held-reports held-reports2 held-reports3 held-reports4 held-reports6 lists; do
		printf "$hdr\nheld-$s@example.invalid\tl\t1.eml\treport\tuser\t-\t-\t-\n" \
			>"$W/tests/real/$s.tsv" || return 1
	done &&
	cp "$C/ai/01-cvss.eml" "$T/real/tune-reports/la/00001.eml" &&
	cp "$C/ai/01-cvss.eml" "$T/real/tune-reports/lb/00007.eml" &&
	cp "$C/ai/04-review.eml" "$T/real/tune-reports/la/00002.eml" &&
	cp "$C/fuzzer/04-static.eml" "$T/real/tune-reports/lb/00003.eml" &&
	id=$(msgid "$C/ai/01-cvss.eml") &&
	{
		printf "$hdr\n" &&
		printf "%s\tla\t00001.eml\treport\tai\t-\t-\t-\n" "$id" &&
		printf "%s\tla\t00002.eml\treport\tai\t-\t-\t-\n" \
			"$(msgid "$C/ai/04-review.eml")" &&
		printf "%s\tlb\t00003.eml\treport\tfuzzer\t-\t-\t-\n" \
			"$(msgid "$C/fuzzer/04-static.eml")" &&
		printf "<%s>\tlb\t00007.eml\treport\tai\t-\t-\t-\n" \
			"$(echo "$id" | tr a-z A-Z)"
	} >"$W/tests/real/tune-reports.tsv" &&
	printf "# split\n" >"$W/tests/corpus/train/split.tsv"
'

# train: run the script in the tree, its output in $T/out
train() {
	(cd "$W" && TRAIN_REAL_SETS=tune-reports sh "$SRC/tools/train-model.sh" \
		--shared "$T/shared" --real-mail "$T/real" --triage "$TRIAGE" \
		--output "$T/model.bin" --items "$T/items.tsv" >"$T/out" 2>&1)
}

test_expect_success 'a message is trained on once, its first copy, and the dropped copies are named' '
	train &&
	id=$(msgid "$C/ai/01-cvss.eml") &&
	test "$(grep -c "^$id	" "$T/items.tsv")" = 1 &&
	grep "^$id	ai	shared:corpus/reports/ai/01-cvss.eml\$" "$T/items.tsv" &&
	test "$(grep -vc "^#" "$T/items.tsv")" = 9 &&
	grep "^dropped 2 training items" "$T/out" &&
	grep "real-mail:tune-reports/la/00001.eml (ai): same Message-ID as shared:corpus/reports/ai/01-cvss.eml (ai)" "$T/out" &&
	grep "real-mail:tune-reports/lb/00007.eml (ai): same Message-ID as shared:corpus/reports/ai/01-cvss.eml (ai)" "$T/out" &&
	grep "^# 2 items left out: a copy of a message taken before" "$T/items.tsv" &&
	grep "ai 3 examples\|3 ai examples" "$T/out" &&
	test -s "$T/model.bin"
'

test_expect_success 'the same tree gives the same model, byte for byte' '
	cp "$T/model.bin" "$T/model.first" &&
	cp "$T/items.tsv" "$T/items.first" &&
	train &&
	cmp "$T/model.bin" "$T/model.first" &&
	test_cmp "$T/items.first" "$T/items.tsv"
'

test_expect_success 'two copies labelled with different classes stop the script' '
	sed "s/	lb	00007.eml	report	ai	/	lb	00007.eml	report	fuzzer	/" \
		"$W/tests/real/tune-reports.tsv" >"$T/tr" &&
	mv "$T/tr" "$W/tests/real/tune-reports.tsv" &&
	rm -f "$T/model.bin" &&
	test_exit 65 train &&
	grep "lb/00007.eml (fuzzer): same Message-ID as shared:corpus/reports/ai/01-cvss.eml (ai)" "$T/out" &&
	grep "different classes" "$T/out" &&
	test ! -e "$T/model.bin"
'

test_done
