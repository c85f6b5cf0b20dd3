#!/bin/sh
# bench/filter.sh - triage-filter's cost per message, against the cost of
# starting an empty static program, measured in the same run
#
# Deliveries of a ~6 KB user report (distinct Message-IDs, so none is a
# duplicate) through ./triage-filter with Linux 6.12's MAINTAINERS, the
# symbol index and the rules snapshot compiled, as the MTA would run it:
#   - the floor: an empty static program (cc -static), same spawner,
#     run alongside the one-shot deliveries and the resident ones, 10
#     floor runs then 10 deliveries and so on (spawn -a -b 10), so
#     that both see the same load: the machine is shared, and a floor
#     measured in a block of its own, before or after, saw another load
#     than the runs it was set against;
#   - an empty program linked with the shared objects triage-filter
#     loads (GMime's dependencies): what the dynamic loader alone costs,
#     shown beside the one-shot ratio;
#   - the filter's child CPU (user+sys, wait4) and wall medians, and the
#     ratio to the floor: CPU is the figure that counts on a shared
#     machine (goal: one-shot <= 8x the floor), with the same ratio over
#     each fifth of the runs, the smallest and the largest: how much
#     the load moved it during this run;
#   - throughput with 2 filters at a time (THRU messages);
#   - a ~2 MB report (6 KB text, a 2 MB base64 gzip attachment and a
#     text attachment);
#   - a report with ~75 KB of kernel log in its text (LOGS messages);
#   - peak RSS (largest ru_maxrss of the 6 KB runs, the issue's target;
#     then the log and 2 MB reports'; file pages of the mapped binary
#     and indexes included, and the one-shot heap's transparent huge
#     page whole: 2 MiB of RSS for some 300 page faults fewer);
#   - each run's page faults (mean of ru_minflt): on a virtual machine
#     that shadows page tables, what loading the libraries mostly costs;
#   - the stage breakdown (TRIAGE_PROFILE=1), median over PROF runs;
#   - the filter while another process keeps the database open (as a
#     resident 'triage deliver' or 'triage serve' would: no WAL index
#     rebuild, no checkpoint in the filter), alternating with runs
#     without, RES/4 messages each;
#   - user-space instructions of one message (callgrind, if installed:
#     exact and independent of the load);
#   - the resident filter ('triage-filter -l', 2 workers) behind
#     triage-client: the client's CPU (wait4) plus the workers' CPU
#     (/proc/PID/schedstat, nanoseconds) over the same messages, divided
#     by their number, for RUNS sequential deliveries, THRU with 2
#     clients at a time and BIG 2 MB reports, and its ratio to the floor
#     (goal: <= 1.5x); peak RSS of the client, the workers' VmRSS (and
#     its anonymous and file parts) and VmHWM after the 6 KB reports
#     (goal: <= 8 MiB) and after the 2 MB ones; and an empty program
#     without libc, as triage-client is built on x86-64 (a static PIE;
#     the floor stays the glibc one).
# The last lines sum it up: both ratios, measured in this run.
# All reports map to the same maintainer, whose forwards pick counts
# (day and week) in every run: the bench's last runs count over 1,600.
#   RUNS=N THRU=N BIG=N LOGS=N PROF=N RES=N bench/filter.sh
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${TRIAGE_SHARED:-$SRC/../shared}
TREE=$SRC/build/linux
B=$SRC/build/bench/filter
RUNS=${RUNS:-300}
THRU=${THRU:-1000}
BIG=${BIG:-30}
LOGS=${LOGS:-30}
PROF=${PROF:-30}
RES=${RES:-300}
rm -rf "$B" && mkdir -p "$B/state" "$B/msgs"
cc -O2 -o "$B/spawn" "$SRC/bench/spawn.c"
echo 'int main(void) { return 0; }' >"$B/empty.c"
cc -static -O2 -o "$B/empty-static" "$B/empty.c"
# the same without libc, as triage-client is built on x86-64 (nolibc.h,
# a static PIE with the stack protector): shown beside the floor, which
# stays the empty glibc program
if [ "$(uname -m)" = x86_64 ]; then
	echo 'int main(int c, char **v, char **e) { return 0; }' >"$B/empty-nolibc.c"
	cc -static-pie -nostdlib -fPIE -fstack-protector-strong -O2 -DNOLIBC \
		-Wl,-z,relro,-z,now -include "$SRC/router/lib/nolibc.h" \
		-o "$B/empty-nolibc" "$B/empty-nolibc.c"
fi
# an empty program that loads what triage-filter loads (GMime's
# dependencies: GLib, GIO, gpgme ...): what dynamic linking alone costs
# a one-shot run, before any of triage's own work.  Linked with the
# shared objects' own paths as ldd resolves them, in the filter's load
# order: libgpgme.so, libassuan.so and libunistring.so, the names -l
# would look for, come only with -dev packages the build does not need.
cc -O2 -o "$B/empty-libs" "$B/empty.c" -Wl,--no-as-needed \
	$(ldd "$SRC/triage-filter" 2>/dev/null |
		awk '$2 == "=>" && $3 ~ /^\// && $1 !~ /^libc\.so/ { print $3 }' |
		tr '\n' ' ') 2>/dev/null ||
	rm -f "$B/empty-libs"

. "$SRC/bench/config.sh"
bench_config "$B" || {
	echo "filter bench: no MAINTAINERS (build/linux or ../shared); skipped"
	exit 0
}

# gen TAG N [ATTACH]: N copies of the report padded to ~6 KB with a dmesg
# excerpt, as real reports carry, each with its own Message-ID; with
# ATTACH, a multipart message carrying the file ATTACH (base64 lines)
# and a text attachment.  Prints the list of files.
# Each report crashes in a function of its own (fs/xfs functions from the
# tree, else made-up names), so that none is "the same crash as" an
# earlier one and every delivery takes the typical path: a new report,
# classified, mapped and forwarded.
if [ -d "$TREE/fs/xfs" ]; then
	grep -ho '^xfs_[a-z0-9_]*(' "$TREE"/fs/xfs/*.c "$TREE"/fs/xfs/libxfs/*.c |
		tr -d '(' | sort -u >"$B/funcs"
fi
[ -s "$B/funcs" ] || seq 1 5000 | sed 's/^/xfs_bench_fn_/' >"$B/funcs"
OFF=0
gen() {
	awk -v tag="$1" -v n="$2" -v dir="$B/msgs" -v att="${3:-}" \
	    -v off="$OFF" -v funcs="$B/funcs" '
	BEGIN {
		while ((getline l < ARGV[1]) > 0)
			src[++ns] = l
		while ((getline l < funcs) > 0)
			fn[++nf] = l
		if (att != "")
			while ((getline l < att) > 0)
				b64[++nb] = l
		ARGV[1] = ""
		for (i = 1; i <= n; i++) {
			f = dir "/" tag i ".eml"
			body = 0
			for (k = 1; k <= ns; k++) {
				l = src[k]
				if (l ~ /^Message-ID: </)
					sub(/</, "<" tag i ".", l)
				gsub(/xfs_inode_item_push/, fn[(off + i - 1) % nf + 1], l)
				if (att != "" && !body && l == "") {
					print "MIME-Version: 1.0" > f
					print "Content-Type: multipart/mixed; boundary=\"=-b\"" > f
					print "" > f
					print "--=-b" > f
					print "Content-Type: text/plain; charset=utf-8" > f
					body = 1
				}
				print l > f
			}
			for (j = 1; j <= 50; j++)
				printf "[%5d.%06d] xfs filesystem being mounted at /srv/backup%d supports timestamps until 2038\n", j, j, j > f
			if (att != "") {
				print "--=-b" > f
				print "Content-Type: text/plain; name=\"dmesg.txt\"" > f
				print "Content-Disposition: attachment; filename=\"dmesg.txt\"" > f
				print "" > f
				for (j = 1; j <= 1300; j++)
					printf "[%5d.%06d] usb 1-%d: new high-speed USB device number %d using xhci_hcd\n", j, j, j % 9, j > f
				print "--=-b" > f
				print "Content-Type: application/gzip; name=\"vmcore.gz\"" > f
				print "Content-Transfer-Encoding: base64" > f
				print "Content-Disposition: attachment; filename=\"vmcore.gz\"" > f
				print "" > f
				for (j = 1; j <= nb; j++)
					print b64[j] > f
				print "--=-b--" > f
			}
			close(f)
			print f
		}
	}' "$SRC/tests/corpus/explain/0001-user-xfs-oops.eml"
	OFF=$((OFF + $2))
}
gen s "$RUNS" >"$B/list"
gen t "$THRU" >"$B/list-thru"
gen p "$PROF" >"$B/list-prof"
q=$((RES / 4))
for k in 1 2 3 4; do gen "r$k." "$q"; done >"$B/list-res"
head -c 1500000 /dev/urandom | gzip -1 | base64 -w 76 >"$B/attach.b64"
gen big "$BIG" "$B/attach.b64" >"$B/list-big"
gen rc "$RUNS" >"$B/list-rc"
gen rt "$THRU" >"$B/list-rt"
gen rbig "$BIG" "$B/attach.b64" >"$B/list-rbig"
# real reports often carry the kernel log in the text: ~75 KB of it
gen log "$LOGS" >"$B/list-log"
while read -r f; do
	awk 'BEGIN { for (j = 1; j <= 1000; j++)
		printf "[%5d.%06d] usb 1-%d: new high-speed USB device number %d using xhci_hcd\n", j, j, j % 9, j }' >>"$f"
done <"$B/list-log"
logbytes=$(wc -c <"$B/msgs/log1.eml")
bytes=$(wc -c <"$B/msgs/s1.eml")
bigbytes=$(wc -c <"$B/msgs/big1.eml")

field() { # field NAME LINE
	echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"
}
base_of() { # base_of LINE: the baseline's figures of 'spawn -a', as a line of their own
	echo "$1" | tr ' ' '\n' | sed -n 's/^base_//p' | tr '\n' ' '
}
show() { # show LABEL SPAWN-OUTPUT
	printf '%-26s cpu median %6.3f ms (user %.3f sys %.3f)  wall median %6.3f ms  maxrss %5d KiB  page faults %4d  failures %d\n' \
		"$1" "$(field cpu_median_ms "$2")" "$(field user_mean_ms "$2")" \
		"$(field sys_mean_ms "$2")" "$(field wall_median_ms "$2")" \
		"$(field maxrss_kib "$2")" "$(field minflt_mean "$2")" \
		"$(field failures "$2")"
}

export TRIAGE_CONFIG="$B/routes.conf"
load0=$(cut -d' ' -f1-3 /proc/loadavg)
echo x >"$B/one"
# the floor alongside the deliveries, 10 runs of each in turn (spawn -a -b 10)
filt=$("$B/spawn" -a "$B/empty-static" -b 10 -F "$B/list" -- "$SRC/triage-filter")
f1=$(base_of "$filt")
fl=
[ -x "$B/empty-libs" ] &&
	fl=$("$B/spawn" -a "$B/empty-static" -b 10 -n "$RUNS" "$B/one" -- "$B/empty-libs")
# stage breakdown: TRIAGE_PROFILE=1 adds one stderr line per run
: >"$B/prof"
while read -r m; do
	TRIAGE_PROFILE=1 "$SRC/triage-filter" <"$m" 2>>"$B/prof" >/dev/null
done <"$B/list-prof"
irline=
if command -v valgrind >/dev/null 2>&1; then
	# a crash of its own, as every other bench report
	cp "$(gen cg 1)" "$B/cg.eml"
	ir=$(valgrind --tool=callgrind --callgrind-out-file="$B/callgrind.out" \
		"$SRC/triage-filter" <"$B/cg.eml" 2>&1 | sed -n 's/.*Collected : //p')
	ir0=$(valgrind --tool=callgrind --callgrind-out-file="$B/callgrind0.out" \
		"$B/empty-static" 2>&1 | sed -n 's/.*Collected : //p')
	# triage's own share: what main() runs, the loader and the
	# libraries' constructors left out
	irmain=$(callgrind_annotate --inclusive=yes "$B/callgrind.out" 2>/dev/null |
		awk '/triage-filter\.c:main / { gsub(",", "", $1); print $1; exit }')
	irline="user-space instructions of one message (callgrind, after the sequential runs): $ir, of which main() ${irmain:-?} (empty static program: $ir0); profile in $B/callgrind.out
                           (under valgrind SHA-256 runs its portable code, not SHA-NI, and a memset by rep stosb counts each byte: both weigh more there than they run)"
fi
thru=$("$B/spawn" -j 2 -F "$B/list-thru" -- "$SRC/triage-filter")
big=$("$B/spawn" -F "$B/list-big" -- "$SRC/triage-filter")
logrun=$("$B/spawn" -F "$B/list-log" -- "$SRC/triage-filter")
: >"$B/res"
if command -v sqlite3 >/dev/null 2>&1; then
	mkfifo "$B/hold"
	for k in 1 2 3 4; do
		grep "/r$k\." "$B/list-res" >"$B/list-res$k"
		if [ $((k % 2)) = 1 ]; then
			echo "without $("$B/spawn" -F "$B/list-res$k" -- "$SRC/triage-filter")" >>"$B/res"
			continue
		fi
		sqlite3 "$B/state/triage.db" <"$B/hold" >/dev/null &
		hp=$!
		exec 9>"$B/hold"
		echo 'SELECT count(*) FROM reports;' >&9
		sleep 0.2
		echo "with $("$B/spawn" -F "$B/list-res$k" -- "$SRC/triage-filter")" >>"$B/res"
		exec 9>&-
		wait "$hp" || true
	done
fi

# the resident filter: its workers' CPU in ns, summed over the processes
# (and of the supervisor, which forks them); a worker that ended (after
# max-use messages, or replaced) counts in the supervisor's cutime and
# cstime, in clock ticks: 10 ms at most over a run
HZ=$(getconf CLK_TCK)
workers_ns() {
	{
		for p in $wpid $(cat /proc/$wpid/task/*/children 2>/dev/null); do
			cut -d' ' -f1 "/proc/$p/schedstat" 2>/dev/null || echo 0
		done
		sed 's/.*) //' "/proc/$wpid/stat" |
			awk -v hz="$HZ" '{ printf "%.0f\n", ($14 + $15) * 1e9 / hz }'
	} | awk '{ s += $1 } END { printf "%.0f\n", s }'
}
# rspawn LIST [-j N]: spawn over LIST through triage-client, with the
# workers' CPU per message appended as worker_ms=
rspawn() {
	w0=$(workers_ns)
	out=$("$B/spawn" ${2:-} -F "$1" -- "$SRC/triage-client" -s "$B/filter.sock")
	sleep 0.3 # the last worker that ended, reaped
	w1=$(workers_ns)
	n=$(wc -l <"$1")
	echo "$out worker_ms=$(awk -v a="$w0" -v b="$w1" -v n="$n" 'BEGIN { printf "%.3f", (b - a) / n / 1e6 }')"
}
# its own database, as the sequential runs above started with: the pick
# counts each recipient's forwards, and would count the 2,000 above
mkdir -p "$B/state-res"
for f in "$B"/state/*; do
	case $f in *triage.db*) ;; *) cp "$f" "$B/state-res/" ;; esac
done
sed "s|^state_dir = .*|state_dir = $B/state-res|" "$B/routes.conf" >"$B/routes-res.conf"
export TRIAGE_CONFIG="$B/routes-res.conf"
"$SRC/triage-filter" -l "$B/filter.sock" -n 2 2>"$B/resident.log" &
wpid=$!
i=0
while [ ! -S "$B/filter.sock" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
# warm both workers (the first message of each opens the database)
gen rw 20 >"$B/list-rw"
"$B/spawn" -j 2 -F "$B/list-rw" -- "$SRC/triage-client" -s "$B/filter.sock" >/dev/null
rc=$(rspawn "$B/list-rc" "-a $B/empty-static -b 10")
f3=$(base_of "$rc")
fn=
[ -x "$B/empty-nolibc" ] && fn=$("$B/spawn" -n "$RUNS" "$B/one" -- "$B/empty-nolibc")
rt=$(rspawn "$B/list-rt" "-j 2")
# wmem: the workers' memory, the largest of each figure over the workers
# (KiB): VmRSS, its anonymous and file parts, VmHWM, and the workers' pids
wmem() {
	for p in $(cat /proc/$wpid/task/*/children); do
		sed -n 's/^\(VmRSS\|RssAnon\|RssFile\|VmHWM\):[^0-9]*\([0-9]*\).*/\1 \2/p' \
			/proc/$p/status 2>/dev/null
	done | awk '$2 > m[$1] { m[$1] = $2 }
		END { printf "%d %d %d %d", m["VmRSS"], m["RssAnon"], m["RssFile"], m["VmHWM"] }'
	echo " $(cat /proc/$wpid/task/*/children | tr -s ' ' | tr ' ' ,)"
}
wrss=$(wmem)
rbig=$(rspawn "$B/list-rbig")
wrss2=$(wmem)
kill "$wpid"
wait "$wpid" || true
export TRIAGE_CONFIG="$B/routes.conf"
load1=$(cut -d' ' -f1-3 /proc/loadavg)

fc=$(field cpu_median_ms "$f1")
fw=$(field wall_median_ms "$f1")
# the floor alongside the resident runs
rfc=$(field cpu_median_ms "$f3")
echo "== filter: $RUNS deliveries of a $bytes-byte report ($(ldd "$SRC/triage-filter" 2>/dev/null | grep -c '=>' || true) shared objects); load average $load0 -> $load1 on $(nproc) CPUs"
show "floor (empty static)" "$f1"
echo "                           (10 runs, then 10 deliveries below, and so on: both under the same load)"
[ -z "$fl" ] || show "empty, the filter's libs" "$fl"
[ -z "$fl" ] || echo "                           (an empty program linked with the $(ldd "$B/empty-libs" | grep -c '=>') shared objects triage-filter loads: the dynamic loader's share of a one-shot run)"
show "triage-filter" "$filt"
awk -v c="$(field cpu_median_ms "$filt")" -v w="$(field wall_median_ms "$filt")" \
	-v fc="$fc" -v fw="$fw" 'BEGIN {
	printf "ratio filter / floor:      cpu %.1fx (goal <= 8x)  wall %.1fx\n", c / fc, w / fw }'
echo "                           (over each fifth of the deliveries, in the order run: cpu $(field ratio_cpu_lo "$filt")x to $(field ratio_cpu_hi "$filt")x)"
echo "2 filters at a time:       $(field per_s "$thru") messages/s over $(field runs "$thru") messages (target >= 800/s on 2 cores)  cpu median $(field cpu_median_ms "$thru") ms  wall median $(field wall_median_ms "$thru") ms  failures $(field failures "$thru")"
awk -v c="$(field cpu_median_ms "$thru")" 'BEGIN {
	printf "                           (2 idle cores at that CPU per message: %.0f messages/s; the measured rate shares the cores with the load above)\n", 2000 / c }'
show "2 MB report ($bigbytes B)" "$big"
echo "                           (target <= 15 ms cpu)"
show "with a log ($logbytes B)" "$logrun"
echo "peak RSS:                  $(echo "$filt $thru" | tr ' ' '\n' | sed -n 's/^maxrss_kib=//p' | sort -n | tail -1) KiB over the 6 KB reports (target <= 8192 KiB), $(field maxrss_kib "$logrun") KiB with a log, $(field maxrss_kib "$big") KiB for a 2 MB report"

while read -r how out; do
	show "$how a resident conn." "$out"
done <"$B/res"
# rshow LABEL OUT [TARGET]: client median + workers' mean, and the ratio
rshow() {
	awk -v l="$1" -v c="$(field cpu_median_ms "$2")" -v w="$(field worker_ms "$2")" \
		-v wall="$(field wall_median_ms "$2")" -v fc="$rfc" -v f="$(field failures "$2")" \
		-v t="${3:-ratio <= 1.5x}" 'BEGIN {
		printf "%-26s cpu %6.3f ms = client median %.3f + workers %.3f;  ratio %.1fx (target: %s)  client wall median %.3f ms  failures %d\n", l, c + w, c, w, (c + w) / fc, t, wall, f }'
}
echo "== resident filter (triage-filter -l, 2 workers) behind triage-client:"
show "floor (empty static)" "$f3"
echo "                           (10 runs, then 10 deliveries of 'one at a time' below, and so on)"
[ -z "$fn" ] || show "empty program, no libc" "$fn"
[ -z "$fn" ] || echo "                           (as triage-client is built here, a static PIE without libc; the floor stays the empty glibc program)"
rshow "one at a time" "$rc"
rshow "2 clients at a time" "$rt"
echo "                           $(field per_s "$rt") messages/s over $(field runs "$rt") messages (target >= 800/s on 2 cores)"
rshow "2 MB report" "$rbig" "cpu <= 15 ms"
set -- $wrss
echo "peak RSS:                  client $(echo "$rc $rt $rbig" | tr ' ' '\n' | sed -n 's/^maxrss_kib=//p' | sort -n | tail -1) KiB; a worker after $((20 + RUNS + THRU)) 6 KB reports (~half each): VmRSS $1 KiB (goal <= 8192 KiB; anonymous $2, file $3), VmHWM $4 KiB"
wpids=$5
set -- $wrss2
echo "                           after $BIG 2 MB reports more: VmRSS $1 KiB (anonymous $2, file $3), VmHWM $4 KiB; $([ "$5" = "$wpids" ] && echo "the same workers" || echo "workers $wpids, then $5")"
echo "forwards to the busiest recipient (resident): $(sqlite3 "$B/state-res/triage.db" "SELECT count(*) FROM decisions WHERE action = 'forward' GROUP BY recipient ORDER BY 1 DESC LIMIT 1")"
[ -s "$B/resident.log" ] && sed 's/^/resident log: /' "$B/resident.log" | head -5
echo "stage breakdown, median CPU us of $PROF runs (start = exec + loader before main):"
sed -n 's/.*profile us: //p' "$B/prof" | sed 's/; faults:.*//' | tr -d ';' >"$B/prof.kv"
sed -n 's/.*; faults: //p' "$B/prof" >"$B/prof.flt"
# medians KV-FILE: each key's median over the lines of KV-FILE
medians() {
	line=
	for k in $(head -1 "$1" | tr ' ' '\n' | sed -n 's/=.*//p'); do
		v=$(tr ' ' '\n' <"$1" | sed -n "s/^$k=//p" | sort -n |
			awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
		line="$line $k=$v"
	done
	echo " $line"
}
medians "$B/prof.kv"
if [ -s "$B/prof.flt" ]; then
	echo "page faults of each stage, median of $PROF runs (on a virtual machine that shadows page tables, each costs several microseconds):"
	medians "$B/prof.flt"
fi

[ -z "$irline" ] || echo "$irline"
echo "forwards to the busiest recipient: $(sqlite3 "$B/state/triage.db" "SELECT count(*) FROM decisions WHERE action = 'forward' GROUP BY recipient ORDER BY 1 DESC LIMIT 1")"
echo "recorded: $(sqlite3 "$B/state/triage.db" 'select count(*) from reports') reports, $(sqlite3 "$B/state/triage.db" 'select count(*) from outbox') queued forwards"
echo "== per-message CPU against the floor, an empty static program (this run):"
awk -v c="$(field cpu_median_ms "$filt")" -v fc="$fc" -v lo="$(field ratio_cpu_lo "$filt")" \
	-v hi="$(field ratio_cpu_hi "$filt")" 'BEGIN {
	printf "one-shot (triage-filter):  %.1fx  (%.3f ms / %.3f ms; goal <= 8x; %.1fx to %.1fx over the fifths of the run)\n", c / fc, c, fc, lo, hi }'
# the loader's ratio against the floor that ran alongside it
[ -z "$fl" ] || awk -v c="$(field cpu_median_ms "$filt")" -v l="$(field cpu_median_ms "$fl")" -v fc="$fc" \
	-v lr="$(field ratio_cpu "$fl")" 'BEGIN {
	printf "  of which loading libs:   %.1fx  (the empty program with its shared objects: %.3f ms; triage'"'"'s own work %.3f ms = %.1fx)\n", lr, l, c - l, (c - l) / fc }'
awk -v c="$(field cpu_median_ms "$rc")" -v w="$(field worker_ms "$rc")" -v fc="$rfc" 'BEGIN {
	printf "resident (triage-client):  %.1fx  (%.3f ms / %.3f ms; goal <= 1.5x)\n", (c + w) / fc, c + w, fc }'
