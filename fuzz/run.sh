#!/bin/sh
# run.sh - run one libFuzzer harness and print its figures ('make fuzz')
#
#   fuzz/run.sh TARGET BUILD_DIR SECONDS SEED_DIR...
#
# New corpus goes to BUILD_DIR/corpus/TARGET (the first corpus directory,
# the one libFuzzer writes to), crashes, leaks and timeouts to
# BUILD_DIR/artifacts/TARGET/, the whole log to BUILD_DIR/TARGET.log; the
# seed directories are only read.  Runs under nice -n $FUZZ_NICE (10).
# Prints one line: target, seconds it ran, execs, exec/s, cov, ft, corpus
# (units/size).
t=$1 b=$2 secs=$3
shift 3
bin="$b/fuzz_$t"
out="$b/corpus/$t"
art="$b/artifacts/$t"
log="$b/$t.log"
mkdir -p "$out" "$art" || exit 1
seeds=
for d in "$@"; do
	[ -d "$d" ] && seeds="$seeds $d"
done
start=$(date +%s)
# shellcheck disable=SC2086
nice -n "${FUZZ_NICE:-10}" "$bin" -max_total_time="$secs" -timeout=10 \
	-rss_limit_mb=2560 -print_final_stats=1 -close_fd_mask=1 \
	-artifact_prefix="$art/" "$out" $seeds >"$log" 2>&1
rc=$?
secs=$(($(date +%s) - start))
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -1)
cov=$(echo "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
corp=$(echo "$last" | sed -n 's/.* corp: \([0-9]*\/[0-9a-zA-Z]*\).*/\1/p')
printf 'fuzz %-13s %5ss execs %-10s exec/s %-7s cov %-6s ft %-7s corpus %s\n' \
	"$t" "$secs" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" \
	"${corp:-?}"
if [ "$rc" != 0 ]; then
	echo "fuzz $t: FAILED (exit $rc): see $log and $art/" >&2
	grep -E '^(==[0-9]+==ERROR|SUMMARY|artifact_prefix|Test unit written)' \
		"$log" | head -5 >&2
	exit 1
fi
