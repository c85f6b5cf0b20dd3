#!/bin/sh
# run.sh - run libFuzzer harnesses one at a time and print their figures
#
#   fuzz/run.sh [--ci] BUILD_DIR SECONDS TARGET[:SEED_DIR[:SEED_DIR...]]...
#
# Each harness BUILD_DIR/fuzz_TARGET runs SECONDS under nice -n $FUZZ_NICE
# (10), with fuzz/TARGET.dict when there is one, from its seed
# directories (only read).  New corpus goes to BUILD_DIR/corpus/TARGET,
# crashes, leaks, timeouts and out-of-memory inputs to
# BUILD_DIR/artifacts/TARGET/, the whole log to BUILD_DIR/TARGET.log.
# --ci ('make fuzz-ci'): the new corpus goes to a scratch directory,
# emptied first, as nothing a CI run finds is kept but a crash.
#
# Prints one line per harness (seconds it ran, execs, exec/s, coverage,
# features, corpus units/size and new crashes, from libFuzzer's final
# statistics), and for each crash its reproducer: path and base64.
# Every harness runs even after one crashed; the exit status is 1 when
# any did.
ci=
if [ "$1" = --ci ]; then
	ci=1
	shift
fi
b=$1 secs=$2
shift 2
failed=

stat() {
	sed -n "s/^stat::$1: *//p" "$log" | tail -1
}

for spec in "$@"; do
	t=${spec%%:*}
	bin="$b/fuzz_$t"
	if [ -n "$ci" ]; then
		out="$b/ci/corpus/$t"
		art="$b/ci/artifacts/$t"
		log="$b/ci/$t.log"
		rm -rf "$out" "$art"
	else
		out="$b/corpus/$t"
		art="$b/artifacts/$t"
		log="$b/$t.log"
	fi
	mkdir -p "$out" "$art" || exit 1
	seeds=
	rest=${spec#"$t"}
	while [ -n "$rest" ]; do
		rest=${rest#:}
		d=${rest%%:*}
		rest=${rest#"$d"}
		[ -d "$d" ] && seeds="$seeds $d"
	done
	dict=
	[ -f "fuzz/$t.dict" ] && dict="-dict=fuzz/$t.dict"
	before=$(ls "$art" | wc -l)
	start=$(date +%s)
	# shellcheck disable=SC2086
	nice -n "${FUZZ_NICE:-10}" "$bin" -max_total_time="$secs" \
		-timeout=10 -rss_limit_mb=2560 -print_final_stats=1 \
		-close_fd_mask=3 $dict -artifact_prefix="$art/" \
		"$out" $seeds >"$log" 2>&1
	rc=$?
	secs_run=$(($(date +%s) - start))
	last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -1)
	cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
	ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
	corp=$(echo "$last" | sed -n 's/.* corp: \([0-9]*\/[0-9a-zA-Z]*\).*/\1/p')
	new=$(ls "$art" | grep -cE '^(crash|leak|timeout|oom)-')
	crashes=$((new - before))
	printf 'fuzz %-13s %5ss  execs %-10s exec/s %-7s cov %-6s ft %-7s corpus %-12s crashes %s\n' \
		"$t" "$secs_run" "$(stat number_of_executed_units)" \
		"$(stat average_exec_per_sec)" "${cov:-?}" "${ft:-?}" \
		"${corp:-?}" "$crashes"
	if [ "$rc" != 0 ]; then
		failed="$failed $t"
		echo "fuzz $t: FAILED (exit $rc), log $log" >&2
		[ "$crashes" -le 0 ] && tail -3 "$log" >&2
		# the reproducer first, then what went wrong: a CI log cut
		# to its tail still shows the error and the stack
		ls -t "$art" | grep -E '^(crash|leak|timeout|oom)-' | head -1 |
			while read -r f; do
				echo "fuzz $t: reproducer $art/$f ($(wc -c <"$art/$f") bytes), base64:" >&2
				base64 "$art/$f" >&2
				echo "fuzz $t: replay it: $bin $art/$f" >&2
			done
		grep -E '^(==[0-9]+==ERROR|SUMMARY|    #[0-9] |.*runtime error)' \
			"$log" | head -12 >&2
	fi
done
if [ -n "$failed" ]; then
	echo "fuzz: crashed:$failed" >&2
	exit 1
fi
