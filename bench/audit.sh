#!/bin/sh
# bench/audit.sh - what the audit step costs the per-message process
#
# Builds bench/audit.c against the archives of router/'s layers and runs it as a fresh
# process per message (bench/spawn.c), interleaving a do-nothing
# baseline with the filter's open + one transaction + close in three
# settings: AUDIT_FILTER alone (no checkpoint on close unless the WAL
# passed AUDIT_FILTER_CKPT_FRAMES), a checkpoint on every close
# (SQLite's default), and AUDIT_FILTER while another process keeps a
# connection open (as a resident 'triage deliver' does).  Then CPU per
# phase in one process, and concurrent writer processes.
#   RUNS=N     processes per measurement (default 400)
#   ROUNDS=N   interleaved rounds (default 3)
#   WRITERS=N  concurrent writers (default 50)
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
# every folder of router/ (its layers) is on the include path, and the
# layers' archives link in the Makefile's order (LINK_LAYERS)
INC=$(for d in "$SRC"/router/*/; do printf -- ' -I%s' "${d%/}"; done)
ARCHIVES=$(for l in app net store stages lib; do printf -- ' %s' "$SRC/build/$l.a"; done)
B=$SRC/build/bench
RUNS=${RUNS:-400}
ROUNDS=${ROUNDS:-3}
WRITERS=${WRITERS:-50}
mkdir -p "$B"
make -C "$SRC" --no-print-directory archives >/dev/null
cc -O2 -g -std=gnu11 -D_GNU_SOURCE $INC -o "$B/audit" \
	"$SRC/bench/audit.c" $ARCHIVES -lsqlite3 -ljansson -lz -lpcre2-8 -lm
cc -O2 -o "$B/spawn" "$SRC/bench/spawn.c"
D=$(mktemp -d "${TMPDIR:-/tmp}/audit-bench.XXXXXX")
HP=
trap '[ -z "$HP" ] || kill "$HP" 2>/dev/null; rm -rf "$D"' EXIT
echo "$D/triage.db" >"$D/list"
# A database that already holds 200 reports.
"$B/spawn" -n 200 "$D/list" -- "$B/audit" one-nockpt >/dev/null

run() { # run MODE: "cpu_ms wall_ms failures"
	"$B/spawn" -n "$RUNS" "$D/list" -- "$B/audit" "$1" | awk '{
		for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		print v["cpu_mean_ms"], v["wall_median_ms"], v["failures"] }'
}
show() { # show LABEL "cpu wall failures" "baseline cpu wall"
	echo "$2 $3" | awk -v l="$1" '{ printf "%-34s cpu %.3f ms (+%.3f)  wall median %.3f ms (+%.3f)  failures %d\n", l, $1, $1 - $4, $2, $2 - $5, $3 }'
}
echo "== audit: one fresh process per message, $RUNS runs x $ROUNDS rounds (+ = over the baseline)"
i=0
while [ "$i" -lt "$ROUNDS" ]; do
	i=$((i + 1))
	n=$(run noop)
	show "round $i baseline (noop)" "$n" "$n"
	show "round $i AUDIT_FILTER" "$(run one-nockpt)" "$n"
	show "round $i checkpoint on every close" "$(run one-ckpt)" "$n"
	"$B/audit" hold 600 "$D/triage.db" &
	HP=$!
	sleep 0.2
	show "round $i AUDIT_FILTER + resident conn" "$(run one-nockpt)" "$n"
	kill "$HP"
	wait "$HP" 2>/dev/null || true
	HP=
done
"$B/audit" phases 1000 "$D/triage.db"
"$B/audit" conc "$WRITERS" "$D/triage.db"
"$B/audit" conc "$WRITERS" "$D/triage.db" ckpt
