#!/bin/sh
# summary.sh DIR - the counts in DIR/counts (lines "PASSED FAILED
# SKIPPED NAME" from run-scripts.sh, run-unit.sh, run-replay.sh) by
# kind, what was skipped and why, what failed, and last one line:
#   N passed, N failed, N skipped
# Fails if a test failed, or if nothing was counted at all.
d=$1
[ -s "$d/counts" ] || { echo "0 passed, 1 failed, 0 skipped (no test counted)"; exit 1; }
if [ -s "$d/skips" ]; then
	echo "skipped:"
	sed 's/^/  /' "$d/skips"
fi
awk '
	{
		kind = $4; sub(/\/.*/, "", kind)
		if (!(kind in p)) order[++n] = kind
		p[kind] += $1; f[kind] += $2; s[kind] += $3
		P += $1; F += $2; S += $3
		if ($2 > 0) bad = bad "  " $4 " (" $2 ")\n"
	}
	END {
		if (bad != "") printf "failed:\n%s", bad
		for (i = 1; i <= n; i++)
			printf "%-8s %d passed, %d failed, %d skipped\n", order[i] ":", p[order[i]], f[order[i]], s[order[i]]
		printf "%d passed, %d failed, %d skipped\n", P, F, S
		exit F > 0
	}' "$d/counts"
