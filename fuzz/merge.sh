#!/bin/sh
# merge.sh - add to tests/corpus/fuzz/TARGET the inputs of a fuzzing
# run that reach what no committed input or seed reaches ('make
# fuzz-merge')
#
#   fuzz/merge.sh BUILD_DIR TARGET[:SEED_DIR[:SEED_DIR...]]...
#
# libFuzzer's merge keeps the inputs of the first directory and adds
# from the others only those that reach new code: -set_cover_merge=1
# (-merge=1 taking a near-smallest set of inputs) over edges alone
# (-use_counters=0; with hit counts, -merge=1 kept 2,211 inputs of one
# 10-minute evidence run, against 150).  The first directory is a
# scratch copy of the committed corpus and the seeds; what the merge
# adds to it from BUILD_DIR/corpus/TARGET (the corpus 'make fuzz' grew)
# is copied to tests/corpus/fuzz/TARGET, for the developer to look at
# and commit.
b=$1
shift
for spec in "$@"; do
	t=${spec%%:*}
	bin="$b/fuzz_$t"
	grown="$b/corpus/$t"
	dest="tests/corpus/fuzz/$t"
	base="$b/merge/$t"
	if [ ! -d "$grown" ]; then
		echo "merge $t: no $grown (run 'make fuzz FUZZ_TARGETS=$t' first)"
		continue
	fi
	rm -rf "$base" && mkdir -p "$base" "$dest" || exit 1
	rest=${spec#"$t"}
	dirs="$dest"
	while [ -n "$rest" ]; do
		rest=${rest#:}
		d=${rest%%:*}
		rest=${rest#"$d"}
		[ -d "$d" ] && dirs="$dirs $d"
	done
	# shellcheck disable=SC2086
	find $dirs -maxdepth 1 -type f | while read -r f; do
		cp "$f" "$base/$(sha1sum <"$f" | cut -c1-40)"
	done
	ls "$base" | sort >"$base.before"
	if ! nice -n "${FUZZ_NICE:-10}" "$bin" -set_cover_merge=1 \
		-use_counters=0 -close_fd_mask=3 \
		"$base" "$grown" >"$b/merge-$t.log" 2>&1; then
		echo "merge $t: FAILED, see $b/merge-$t.log" >&2
		exit 1
	fi
	n=0 bytes=0
	for f in $(ls "$base" | sort | comm -13 "$base.before" -); do
		cp "$base/$f" "$dest/$f"
		n=$((n + 1))
		bytes=$((bytes + $(wc -c <"$base/$f")))
	done
	echo "merge $t: $n new inputs ($bytes bytes) in $dest"
done
