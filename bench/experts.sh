#!/bin/sh
# bench/experts.sh - 'triage experts import' against plain 'git log --name-only'
#
# Builds (once, cached in build/bench) a synthetic repository with
# git fast-import: N commits (default 100000) over a few thousand paths
# in 40 subsystems, 1-6 files per commit, kernel-style trailers
# (Reviewed-by, Acked-by, Signed-off-by of author and committer,
# Reported-by of bots, Link:, Cc: stable) and committer dates spread
# over the last three years.  Then times, median of RUNS (default 3):
#   baseline   git log --no-merges --name-only            | wc -c
#   floor      git log --no-merges --format=%ct --name-only | wc -c
#   import     triage experts import --since all
# and prints them and the ratio import / baseline (goal: at most about
# 2); the floor is the history walk and tree diffs alone.
#   N=COMMITS RUNS=K bench/experts.sh
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
B=$SRC/build/bench
N=${N:-100000}
RUNS=${RUNS:-3}
REPO=$B/experts-repo-$N
TRIAGE=$SRC/triage
export LC_ALL=C
mkdir -p "$B"

command -v git >/dev/null || { echo "experts bench: git is not installed; skipped"; exit 0; }
[ -x /usr/bin/time ] || { echo "experts bench: /usr/bin/time (Debian package time) is not installed; skipped"; exit 0; }

if [ ! -f "$REPO/.done" ]; then
	rm -rf "$REPO"
	git init -q "$REPO"
	t0=$(date +%s)
	now=$(date +%s)
	awk -v N="$N" -v NOW="$now" 'BEGIN {
		srand(42)
		nsub = 40; npeople = 1500
		for (s = 0; s < nsub; s++) {
			top = (s % 4 == 0) ? "fs" : (s % 4 == 1) ? "drivers/net" : (s % 4 == 2) ? "drivers/gpu" : "kernel"
			sub_dir[s] = top "/sub" s
			nf[s] = 40 + int(rand() * 120)
			for (f = 0; f < nf[s]; f++) {
				d = (f % 3 == 0) ? "/core" : (f % 3 == 1) ? "" : "/hw" (f % 5)
				file[s, f] = sub_dir[s] d "/file" f ((f % 7 == 0) ? ".h" : ".c")
			}
			nm[s] = 2 + int(rand() * 4)
			for (m = 0; m < nm[s]; m++)
				maint[s, m] = int(rand() * npeople)
		}
		span = 3 * 365 * 86400
		for (c = 1; c <= N; c++) {
			r = rand()
			s = int(r * r * nsub)  # a few busy subsystems
			a = int(rand() * npeople)
			ts = NOW - span + int(c * span / N)
			committer = maint[s, 0]
			msg = "sub" s ": change number " c "\n\nThis commit changes things in " sub_dir[s] " to make\nthe synthetic history look like a kernel history.\n\n"
			if (rand() < 0.1) msg = msg "Reported-by: syzbot+" c "@syzkaller.appspotmail.com\n"
			if (rand() < 0.05) msg = msg "Reported-by: kernel test robot <lkp@intel.com>\n"
			if (rand() < 0.1) msg = msg "Cc: stable@vger.kernel.org\n"
			msg = msg "Signed-off-by: Person " a " <person" a "@example.org>\n"
			nr = (rand() < 0.6) ? 1 + int(rand() * 2) : 0
			for (k = 0; k < nr; k++) {
				m = maint[s, int(rand() * nm[s])]
				if (rand() < 0.3) m = int(rand() * npeople)
				msg = msg "Reviewed-by: Person " m " <Person" m "@Example.org>\n"
			}
			if (rand() < 0.2) { m = maint[s, int(rand() * nm[s])]; msg = msg "Acked-by: Person " m " <person" m "@example.org>\n" }
			msg = msg "Link: https://lore.example.org/r/" c "@example.org\n"
			if (committer != a) msg = msg "Signed-off-by: Person " committer " <person" committer "@example.org>\n"
			printf "commit refs/heads/main\nmark :%d\n", c
			printf "author Person %d <person%d@example.org> %d +0000\n", a, a, ts
			printf "committer Person %d <person%d@example.org> %d +0000\n", committer, committer, ts
			printf "data %d\n%s\n", length(msg), msg
			if (c > 1) printf "from :%d\n", c - 1
			k = 1 + int(rand() * rand() * 6)
			for (i = 0; i < k; i++) {
				ss = (rand() < 0.05) ? int(rand() * nsub) : s
				f = file[ss, int(rand() * nf[ss])]
				body = "version " c " of " f "\n"
				printf "M 100644 inline %s\ndata %d\n%s\n", f, length(body), body
			}
			printf "\n"
		}
	}' | git -C "$REPO" fast-import --quiet
	git -C "$REPO" reset -q --hard main 2>/dev/null || true
	touch "$REPO/.done"
	echo "synthetic repository: $N commits built in $(($(date +%s) - t0)) s"
fi

paths=$(git -C "$REPO" log --format= --name-only | sort -u | wc -l)
echo "== experts: $REPO ($N commits, $paths distinct paths)"

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
# measure NAME CMD - append "wall cpu" seconds (cpu = user + system of
# the command and the processes it waited for) to $B/t.NAME
measure() {
	name=$1
	shift
	/usr/bin/time -f "%e %U %S" -o "$B/t.last" sh -c "$*" >/dev/null
	awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$B/t.last" >>"$B/t.$name"
}
col() { awk -v c="$2" '{ print $c }' "$B/t.$1" | median; }

GIT="git -C '$REPO' log --no-merges"
rm -f "$B"/t.*
sh -c "$GIT --name-only | wc -c" >/dev/null # warm the page cache
# Interleaved, so that a change in machine load hits all three alike.
for i in $(seq "$RUNS"); do
	measure git "$GIT --name-only | wc -c"
	measure floor "$GIT --format=%ct --name-only | wc -c"
	measure import "'$TRIAGE' experts import --git '$REPO' --since all --quiet --output '$B/experts.idx' >'$B/experts.out'"
done
printf "%-44s %8s %8s\n" "median of $RUNS, seconds" wall cpu
printf "%-44s %8s %8s\n" "git log --no-merges --name-only" "$(col git 1)" "$(col git 2)"
printf "%-44s %8s %8s\n" "  --format=%ct (walk and diffs only)" "$(col floor 1)" "$(col floor 2)"
printf "%-44s %8s %8s\n" "triage experts import --since all" "$(col import 1)" "$(col import 2)"
cat "$B/experts.out"
awk -v a="$(col import 1)" -v b="$(col git 1)" -v c="$(col import 2)" -v d="$(col git 2)" \
	'BEGIN { printf "ratio import / git log: wall %.2fx, cpu %.2fx   (goal <= 2x)\n", a / b, c / d }'
echo "# load average: $(cut -d" " -f1-3 /proc/loadavg)"
