#!/bin/sh
# bench/walpages.sh - the SQLite pages one filtered report writes
#
# After bench/filter.sh (which leaves build/bench/filter: routes.conf,
# the state and its ~6 KB reports), delivers N reports it did not
# record (rc1..rcN) through ./triage-filter, one process each, on a
# copy of its state, each under strace, and prints:
#   - WAL frames per report (one frame = one page written at COMMIT),
#     counted from the frame headers the filter writes;
#   - pwrite64 calls per report: to the WAL, to the database (the
#     checkpoint an AUDIT_FILTER close does past AUDIT_FILTER_CKPT_FRAMES)
#     and to -shm;
#   - the frames per report by b-tree (table or index, leaf, internal or
#     overflow page), from the dbstat of the database at the end; page 1
#     ("sqlite_schema") holds the header, written whenever the file grows.
# A first delivery (rt1, not counted) upgrades an older schema; the WAL
# is then checkpointed and emptied.
#   bench/walpages.sh [N [STATE]]     (default 40, build/bench/filter/state)
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
B=$SRC/build/bench/filter
N=${1:-40}
S0=${2:-$B/state}
OUT=$B/walpages
for c in strace sqlite3; do
	command -v $c >/dev/null 2>&1 || { echo "walpages: no $c; skipped"; exit 0; }
done
[ -f "$B/msgs/rc$N.eml" ] || { echo "walpages: run bench/filter.sh (RUNS >= $N) first"; exit 1; }
rm -rf "$OUT" && mkdir -p "$OUT/state"
cp "$S0"/* "$OUT/state/"
rm -f "$OUT/state/triage.db-wal" "$OUT/state/triage.db-shm"
sed "s|^state_dir = .*|state_dir = $OUT/state|" "$B/routes.conf" >"$OUT/routes.conf"
export TRIAGE_CONFIG="$OUT/routes.conf"
DB=$OUT/state/triage.db
"$SRC/triage-filter" <"$B/msgs/rt1.eml"
sqlite3 "$DB" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
: >"$OUT/pages"
: >"$OUT/counts"
# c SUFFIX: pwrite64 calls to the file ending in SUFFIX (hex, as -xx shows it)
c() { grep -c "pwrite64([0-9]*<[^>]*$1>" "$OUT/strace" || true; }
i=1
while [ $i -le "$N" ]; do
	strace -f -qq -xx -y -e trace=pwrite64 -o "$OUT/strace" \
		"$SRC/triage-filter" <"$B/msgs/rc$i.eml"
	# a WAL frame: its 24-byte header (page number first), then the page
	awk -v i=$i '/pwrite64\(/ && / 24, [0-9]+\) = 24$/ {
		split($0, a, "\""); h = a[2]; gsub(/\\x/, "", h); p = 0
		for (k = 1; k <= 8; k++)
			p = p * 16 + index("0123456789abcdef", substr(h, k, 1)) - 1
		printf "%d %d\n", i, p }' "$OUT/strace" >>"$OUT/pages"
	echo "$i $(grep -c 'pwrite64(' "$OUT/strace") $(c '\\x2d\\x77\\x61\\x6c') $(c '\\x2e\\x64\\x62') $(c '\\x2d\\x73\\x68\\x6d')" >>"$OUT/counts"
	i=$((i + 1))
done
sqlite3 "$DB" "SELECT pageno, name, pagetype FROM dbstat" | tr '|' ' ' >"$OUT/dbstat"
echo "== walpages: $N reports, schema $(sqlite3 "$DB" 'PRAGMA user_version'), $(sqlite3 "$DB" 'SELECT count(*) FROM reports') reports at the end"
awk -v n="$N" 'NR == FNR { w += $2; wal += $3; db += $4; shm += $5; next } { f++ }
	END { printf "WAL frames per report %.2f; pwrite64 per report %.2f: WAL %.2f, database (checkpoints) %.2f, -shm %.2f\n", f / n, w / n, wal / n, db / n, shm / n }' \
	"$OUT/counts" "$OUT/pages"
echo "WAL frames per report, by b-tree:"
awk -v n="$N" 'NR == FNR { name[$1] = $2 " " $3; next }
	{ k = ($2 in name) ? name[$2] : "(freelist)"; c[k]++ }
	END { for (k in c) printf "  %6.2f %s\n", c[k] / n, k }' "$OUT/dbstat" "$OUT/pages" | sort -rn
