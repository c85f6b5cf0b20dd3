#!/bin/sh
# split-train.sh - mark the project's own training compositions
# (tests/corpus/train/{ai,user}) "tune" or "held-out"
#
#	tools/split-train.sh > tests/corpus/train/split.tsv
#
# The rule, fixed before any model was trained on them: a message is
# held out when the first two hex digits of the SHA-256 of its file name
# relative to tests/corpus/train ("ai/w-ai-001.eml") read as a number below
# 77 (77/256 = 30%).  It depends on the name only, so adding files never
# moves an existing one across the split.  Each composition has its own
# author, so no author/thread group crosses it (triage train --split
# checks that).
set -eu
dir=${1:-tests/corpus/train}
printf '# split of %s (tools/split-train.sh): held out when the first byte of\n' "$dir"
printf '# sha256(CLASS/FILE) < 77 (30%%); columns: Message-ID, part, file, class\n'
for f in "$dir"/ai/*.eml "$dir"/user/*.eml; do
	rel=${f#"$dir"/}
	cls=${rel%%/*}
	id=$(sed -n 's/^[Mm][Ee][Ss][Ss][Aa][Gg][Ee]-[Ii][Dd]:[[:space:]]*<\(.*\)>.*/\1/p' "$f" | head -n 1)
	[ -n "$id" ] || { echo "split-train.sh: $f has no Message-ID" >&2; exit 1; }
	b=$(printf '%s' "$rel" | sha256sum | cut -c1-2)
	if [ $((0x$b)) -lt 77 ]; then part=held-out; else part=tune; fi
	printf '%s\t%s\t%s\t%s\n' "$id" "$part" "$rel" "$cls"
done
