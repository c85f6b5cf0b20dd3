#!/bin/sh
# t0165-bench-spawn: bench/spawn.c, the timer of 'make bench', measures a
# baseline run by run alongside a command (-a), as the one-shot filter's
# ratio to the empty static program needs, both under the same load
. "$(dirname "$0")/../lib.sh"

test_setup 'spawn built, a baseline and a command that log their runs' '
	cc -O2 -o "$T/spawn" "$SRC/bench/spawn.c" &&
	printf "#!/bin/sh\necho base >>\"%s/log\"\n" "$T" >"$T/base" &&
	printf "#!/bin/sh\necho cmd >>\"%s/log\"\n" "$T" >"$T/cmd" &&
	chmod +x "$T/base" "$T/cmd" &&
	echo x >"$T/one"
'

test_expect_success '-a: the baseline runs once before each run of the command' '
	: >"$T/log" &&
	"$T/spawn" -a "$T/base" -n 6 "$T/one" -- "$T/cmd" >"$T/out" &&
	printf "base\ncmd\nbase\ncmd\nbase\ncmd\nbase\ncmd\nbase\ncmd\nbase\ncmd\n" >"$T/expect" &&
	test_cmp "$T/expect" "$T/log"
'

test_expect_success '-a -b 3: three baseline runs, then three of the command' '
	: >"$T/log" &&
	"$T/spawn" -a "$T/base" -b 3 -n 7 "$T/one" -- "$T/cmd" >"$T/out7" &&
	printf "base\nbase\nbase\ncmd\ncmd\ncmd\nbase\nbase\nbase\ncmd\ncmd\ncmd\nbase\ncmd\n" >"$T/expect" &&
	test_cmp "$T/expect" "$T/log" &&
	grep -q "^runs=7 .* base_runs=7 " "$T/out7" &&
	test_exit 64 "$T/spawn" -a "$T/base" -b 0 -n 2 "$T/one" -- "$T/cmd"
'

test_expect_success '-a: both figures on one line, with the ratio and its spread' '
	test $(wc -l <"$T/out") = 1 &&
	grep -q "^runs=6 .* failures=0 base_runs=6 .* base_failures=0 ratio_cpu=[0-9.]* ratio_cpu_lo=[0-9.]* ratio_cpu_hi=[0-9.]*$" "$T/out" &&
	lo=$(sed "s/.*ratio_cpu_lo=\([0-9.]*\).*/\1/" "$T/out") &&
	hi=$(sed "s/.*ratio_cpu_hi=\([0-9.]*\).*/\1/" "$T/out") &&
	awk -v lo="$lo" -v hi="$hi" "BEGIN { exit !(lo <= hi) }"
'

test_expect_success '-a: a failing baseline is counted as its failure' '
	"$T/spawn" -a /bin/false -n 3 "$T/one" -- "$T/cmd" >"$T/out" &&
	grep -q " failures=0 .* base_failures=3 " "$T/out"
'

test_expect_success '-a with -j: refused (the pairs would overlap)' '
	test_exit 64 "$T/spawn" -a "$T/base" -j 2 -n 2 "$T/one" -- "$T/cmd"
'

test_expect_success 'without -a: the line as before, no baseline' '
	: >"$T/log" &&
	"$T/spawn" -n 2 "$T/one" -- "$T/cmd" >"$T/out" &&
	printf "cmd\ncmd\n" >"$T/expect" &&
	test_cmp "$T/expect" "$T/log" &&
	! grep -q base_ "$T/out"
'

test_done
