#!/bin/sh
# bench/run.sh - benchmarks with their baselines measured in the same run
#
# Mapping: 'triage map' against get_maintainer.pl from the kernel tree
# (build/linux, unpacked from Debian's linux-source-6.12; never
# committed), on the 1,000 paths of ../shared/bench/mapping-dev.tsv, or
# on 1,000 files of the tree when ../shared is absent.
#   GM_BATCH=N      get_maintainer.pl batch size (default: all paths)
#   GM_SINGLE=N     get_maintainer.pl one-per-process runs (default 30)
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
# every folder of router/ (its layers) is on the include path, and the
# layers' archives link in the Makefile's order (LINK_LAYERS)
INC=$(for d in "$SRC"/router/*/; do printf -- ' -I%s' "${d%/}"; done)
ARCHIVES=$(for l in app net store stages lib; do printf -- ' %s' "$SRC/build/$l.a"; done)
SHARED=${TRIAGE_SHARED:-$SRC/../shared}
TREE=$SRC/build/linux
B=$SRC/build/bench
mkdir -p "$B"
cc -O2 -o "$B/spawn" "$SRC/bench/spawn.c"
SPAWN=$B/spawn
TRIAGE=$SRC/triage

field() { # field NAME LINE
	echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"
}
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", a / b }'
}

if [ -f "$SHARED/bench/mapping-dev.tsv" ]; then
	cut -f1 "$SHARED/bench/mapping-dev.tsv" | tail -n +2 >"$B/paths"
	MNT=$SHARED/data/linux/MAINTAINERS
	what="../shared/bench/mapping-dev.tsv"
else
	(cd "$TREE" && find . -type f -name '*.[ch]' | sed 's|^\./||' | sort |
		awk 'NR % 37 == 0' | head -1000) >"$B/paths"
	MNT=$TREE/MAINTAINERS
	what="1000 files of build/linux"
fi
n=$(wc -l <"$B/paths")
"$TRIAGE" update --maintainers "$MNT" --output "$B/linux.idx" >/dev/null

echo "== map: $n paths from $what; MAINTAINERS $MNT"
floor=$("$SPAWN" -n 300 "$B/paths" -- /bin/true)
echo "process floor (/bin/true):            $floor"
tb=$("$SPAWN" -n 21 -s "$B/paths" "$B/paths" -- "$TRIAGE" map --index "$B/linux.idx")
echo "triage batch, compiled index:         $tb"
tt=$("$SPAWN" -n 11 -s "$B/paths" "$B/paths" -- "$TRIAGE" map --maintainers "$MNT")
echo "triage batch, MAINTAINERS text:       $tt"
ts=$("$SPAWN" "$B/paths" -- "$TRIAGE" map --index "$B/linux.idx")
echo "triage one path per process:          $ts"

gb_n=${GM_BATCH:-$n}
gs_n=${GM_SINGLE:-30}
head -n "$gb_n" "$B/paths" >"$B/gm-batch"
head -n "$gs_n" "$B/paths" >"$B/gm-single"
cd "$TREE"
t0=$(date +%s.%N)
xargs -d '\n' -a "$B/gm-batch" perl scripts/get_maintainer.pl --mpath "$MNT" \
	--nogit --nogit-fallback --sections -f >/dev/null 2>&1
t1=$(date +%s.%N)
gb=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", (b - a) * 1000 }')
echo "get_maintainer.pl batch of $gb_n:        wall_ms=$gb"
gs=$("$SPAWN" "$B/gm-single" -- perl scripts/get_maintainer.pl --mpath "$MNT" \
	--nogit --nogit-fallback --sections -f)
echo "get_maintainer.pl one per process:    $gs"
cd "$SRC"

tbm=$(field wall_median_ms "$tb")
tsm=$(field wall_median_ms "$ts")
gsm=$(field wall_median_ms "$gs")
# Scale a partial get_maintainer.pl batch to the whole list.
gbs=$(awk -v g="$gb" -v a="$gb_n" -v b="$n" 'BEGIN { print g * b / a }')
echo "ratio batch (get_maintainer.pl / triage):       $(ratio "$gbs" "$tbm")x   (goal >= 1000x)"
echo "ratio per process (get_maintainer.pl / triage): $(ratio "$gsm" "$tsm")x   (goal >= 100x)"

echo
echo "== experts import: triage experts import against plain git log"
"$SRC/bench/experts.sh"

echo
echo "== model: tokenize + score a 6 KB report, open the model file"
cc -O2 -std=gnu11 -D_GNU_SOURCE $INC -o "$B/bench_model" \
	"$SRC/bench/bench_model.c" $ARCHIVES -lz -lm
"$B/bench_model" "$B"

echo
echo "== audit: the filter's database step in a fresh process"
"$SRC/bench/audit.sh"

echo
echo "== classify: evidence + model + rules (+ decision) per report"
cc -O2 -std=gnu11 -D_GNU_SOURCE $INC $(pkg-config --cflags gmime-3.0) \
	-o "$B/bench_classify" "$SRC/bench/classify.c" $ARCHIVES \
	$(pkg-config --libs gmime-3.0 libpcre2-8 sqlite3 zlib jansson) -lm
set -- "$SRC/classifiers"
if [ -f "$TREE/MAINTAINERS" ]; then
	"$TRIAGE" update --kernel-tree "$TREE" --output "$B/symbols.idx" >/dev/null
	set -- "$@" --symbols "$B/symbols.idx"
fi
if [ -f "$SHARED/corpus/reports/index.tsv" ]; then
	"$TRIAGE" train --dir "$SHARED/corpus/reports" --no-cv \
		--output "$B/model.bin" >/dev/null
	set -- "$@" --model "$B/model.bin" --dir "$SHARED/corpus/reports"
fi
"$B/bench_classify" "$@"

echo
"$SRC/bench/filter.sh"
