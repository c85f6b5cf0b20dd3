#!/bin/sh
# train-model.sh - regenerate the shipped default model (classifiers/model.bin)
#
#	tools/train-model.sh [--shared DIR] [--real-mail DIR] [--output FILE]
#			     [--items FILE] [--triage PROG]
#
# The model a new site gets before it trains its own (installed in
# DATADIR, used when STATE_DIR has no model.bin) is trained on the TUNING
# parts of labelled data only, so that 'make eval' can judge it on the
# held-out parts:
#   - ../shared/corpus/reports, the messages classifiers/split.tsv marks
#     "tune";
#   - the reports (a class column) of tests/real/tune-stream.tsv,
#     tune-reports.tsv, tune-reports2.tsv, tune-reports3.tsv and
#     tune-reports4.tsv, real list mail that tools/fetch-real-mail.sh
#     puts in REAL_MAIL/<set>;
#   - the project's own compositions, tests/corpus/train/{ai,user}, that
#     tests/corpus/train/split.tsv (tools/split-train.sh) marks "tune".
# Nothing is copied into the repository: the messages are linked from a
# scratch directory (build/train-stage) and read there.  The list of the
# items used (Message-ID, class, where) goes to classifiers/model-items.tsv.
# A message found in several places (in ../shared/corpus/reports and in
# a real-mail set, or cross-posted to two lists of the sets) is taken
# once, its first copy in the order above; the copies left out are
# printed, and copies labelled with different classes stop the script
# (exit 65: fix the label).
# The held-out sets (split "held-out", tests/real/lists.tsv,
# tests/real/held-reports*.tsv) are never read, and a
# training item whose Message-ID one of them names (a message cross-posted
# to a tuning list and a held-out one, or both in ../shared/corpus/reports
# and in a real-mail set) is left out: every held-out measurement ('make
# eval', whose split is classifiers/split.tsv and tests/corpus/train/
# split.tsv, and 'make eval-real') judges a model that never saw its
# messages.  Message-IDs are compared without <> and in lower case; only
# the Message-ID columns of the held-out files are read.
set -eu
shared=${TRIAGE_SHARED:-../shared}
real=${REAL_MAIL:-/work/real-mail}
out=classifiers/model.bin
items=classifiers/model-items.tsv
triage=./triage
# the real-mail tuning sets read (all five; TRAIN_REAL_SETS for an
# experiment that keeps one out to judge the model on it, as the
# kept-out check of classifiers/50_model.rules did)
real_sets=${TRAIN_REAL_SETS:-tune-stream tune-reports tune-reports2 tune-reports3 tune-reports4}
while [ $# -gt 0 ]; do
	case $1 in
	--shared) shared=$2; shift 2 ;;
	--real-mail) real=$2; shift 2 ;;
	--output) out=$2; shift 2 ;;
	--items) items=$2; shift 2 ;;
	--triage) triage=$2; shift 2 ;;
	*) echo "usage: $0 [--shared DIR] [--real-mail DIR] [--output FILE] [--items FILE]" >&2
	   exit 64 ;;
	esac
done
for d in "$shared/corpus/reports" $(for s in $real_sets; do echo "$real/$s"; done); do
	[ -d "$d" ] || { echo "$0: no $d (tests/real/README: tools/fetch-real-mail.sh)" >&2; exit 66; }
done
# the held-out sets, by file: tests/real (every row) and the split files
# (the rows marked held-out); only their Message-ID column is read
held_sets="tests/real/held-reports.tsv tests/real/held-reports2.tsv tests/real/held-reports3.tsv
tests/real/held-reports4.tsv tests/real/held-reports6.tsv tests/real/lists.tsv classifiers/split.tsv tests/corpus/train/split.tsv"
for f in $held_sets; do
	[ -f "$f" ] || { echo "$0: no $f: cannot tell the held-out messages" >&2; exit 66; }
done
abs() { (cd "$1" && pwd -P); }
shared=$(abs "$shared") real=$(abs "$real") train=$(abs tests/corpus/train)
stage=build/train-stage
rm -rf "$stage"
mkdir -p "$stage/m"
tmp_items="$stage/items.tsv"
n=0
# link FILE CLASS ID SOURCE: one training item
link() {
	[ -f "$1" ] || { echo "$0: missing $1" >&2; exit 66; }
	n=$((n + 1))
	name=$(printf 'm/%05d.eml' "$n")
	ln -s "$1" "$stage/$name"
	printf '%s\t%s\t%s\tno\t\n' "$name" "$2" "$4" >>"$stage/index.tsv"
	printf '%s\t%s\t%s\n' "$3" "$2" "$4" >>"$tmp_items"
}
# held.lst: normalised Message-ID<TAB>the held-out set naming it
for f in $held_sets; do
	case $f in
	*/split.tsv) awk -F'\t' -v f="$f" '!/^#/ && $2 == "held-out" { print $1 "\t" f ":held-out" }' "$f" ;;
	*) grep -v '^#' "$f" | tail -n +2 | awk -F'\t' -v f="$f" '{ print $1 "\t" f }' ;;
	esac
done | awk -F'\t' -v OFS='\t' '{
	id = tolower($1); gsub(/^[ <]+|[> ]+$/, "", id)
	if (id != "") print id, $2 }' >"$stage/held.lst"
[ -s "$stage/held.lst" ] || { echo "$0: no held-out Message-ID read" >&2; exit 65; }
# drop_held LIST WHERE: keep the items (ID<TAB>class<TAB>where) of LIST
# whose Message-ID no held-out set names; each one left out goes to
# skipped.tsv (its where prefixed with WHERE)
drop_held() {
	awk -F'\t' -v OFS='\t' -v skipped="$stage/skipped.tsv" -v at="$2" '
		NR == FNR { if ($1 in why) why[$1] = why[$1] ", " $2
			    else why[$1] = $2
			    next }
		{ id = tolower($1); gsub(/^[ <]+|[> ]+$/, "", id)
		  if (id in why) { print $1, $2, at $3, why[id] >>skipped; next }
		  print }' "$stage/held.lst" "$1" >"$1.kept" &&
	mv "$1.kept" "$1"
}
# drop_seen LIST WHERE: keep the items of LIST whose Message-ID no item
# taken before (seen.tsv) has, nor one above it in LIST: a message is
# taken once, its first copy in the order shared corpus, real-mail sets
# (in real_sets order, each in its .tsv order), compositions.  Each copy
# left out goes to dups.tsv (where, class, the copy kept, its class);
# two copies with different classes are an error (a label to fix).
drop_seen() {
	awk -F'\t' -v OFS='\t' -v dups="$stage/dups.tsv" \
	    -v seen="$stage/seen.tsv" -v at="$2" '
		FILENAME == ARGV[1] { cls[$1] = $2; first[$1] = $3; next }
		{ id = tolower($1); gsub(/^[ <]+|[> ]+$/, "", id)
		  if (id in cls) { print at $3, $2, first[id], cls[id] >>dups
				   next }
		  cls[id] = $2; first[id] = at $3
		  print id, $2, at $3 >>seen
		  print }' "$stage/seen.tsv" "$1" >"$1.kept" &&
	mv "$1.kept" "$1"
}
: >"$stage/skipped.tsv"
: >"$stage/seen.tsv"
: >"$stage/dups.tsv"
printf 'file\tclass\tsource\twrapped\tnotes\n' >"$stage/index.tsv"
printf '# the training items of %s (tools/train-model.sh): Message-ID, class, where\n' "$out" >"$tmp_items"
# shared corpus: tuning part (split columns: id, part, dir, file, class)
grep -v '^#' classifiers/split.tsv | while IFS='	' read -r id part dir file cls rest; do
	[ "$part" = tune ] || continue
	echo "$id	$cls	$dir/$file"
done >"$stage/shared.lst"
drop_held "$stage/shared.lst" shared:corpus/
drop_seen "$stage/shared.lst" shared:corpus/
while IFS='	' read -r id cls where; do
	link "$shared/corpus/$where" "$cls" "$id" "shared:corpus/$where"
done <"$stage/shared.lst"
# real list mail, tuning sets: rows with a class
for set in $real_sets; do
	grep -v '^#' "tests/real/$set.tsv" | tail -n +2 |
	while IFS='	' read -r id list file kind cls rest; do
		case $cls in user|fuzzer|ai) ;; *) continue ;; esac
		echo "$id	$cls	$set/$list/$file"
	done
done >"$stage/real.lst"
drop_held "$stage/real.lst" real-mail:
drop_seen "$stage/real.lst" real-mail:
while IFS='	' read -r id cls where; do
	link "$real/$where" "$cls" "$id" "real-mail:$where"
done <"$stage/real.lst"
# our own compositions: tuning part
grep -v '^#' tests/corpus/train/split.tsv | while IFS='	' read -r id part file cls; do
	[ "$part" = tune ] || continue
	echo "$id	$cls	$file"
done >"$stage/train.lst"
drop_held "$stage/train.lst" tests/corpus/train/
drop_seen "$stage/train.lst" tests/corpus/train/
while IFS='	' read -r id cls where; do
	link "$train/$where" "$cls" "$id" "tests/corpus/train/$where"
done <"$stage/train.lst"
# what was left out, and why
nskip=$(grep -c . "$stage/skipped.tsv" || :)
echo "skipped $nskip training items whose Message-ID a held-out set names"
if [ "$nskip" -gt 0 ]; then
	cut -f4 "$stage/skipped.tsv" | sort | uniq -c | while read -r c what; do
		echo "  $c held out in $what"
	done
	while IFS='	' read -r id cls where what; do
		echo "  $where ($cls): Message-ID <$id> is held out in $what"
	done <"$stage/skipped.tsv"
fi
# a message taken once: the copies left out, and why
ndup=$(grep -c . "$stage/dups.tsv" || :)
echo "dropped $ndup training items whose Message-ID an item taken before has"
while IFS='	' read -r where cls kept kcls; do
	echo "  $where ($cls): same Message-ID as $kept ($kcls)"
done <"$stage/dups.tsv"
if awk -F'\t' '$2 != $4 { bad = 1 } END { exit !bad }' "$stage/dups.tsv"; then
	echo "$0: copies of one message with different classes (above): fix the label" >&2
	exit 65
fi
printf '# %s items left out: a copy of a message taken before (same Message-ID)\n' "$ndup" >>"$tmp_items"
printf '# %s items left out: their Message-ID is held out (tests/real/held-reports*.tsv, lists.tsv, the held-out part of classifiers/split.tsv or tests/corpus/train/split.tsv)\n' "$nskip" >>"$tmp_items"
# the model: logistic regression, the default of 'triage train'
"$triage" train --dir "$stage" --output "$out" --bits 16 --no-cv --force
# a site model's record of its base data; the shipped one has none
rm -f "$out.sources"
mv "$tmp_items" "$items"
echo "$(grep -vc '^#' "$items") training items listed in $items; $(wc -c <"$out") bytes in $out"
