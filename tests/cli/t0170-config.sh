#!/bin/sh
# t0170-config: routes.conf is checked against the table of its
# directives ('triage check-config', routes.conf(5)): a misspelt name, a
# bad number, a bad word are named by file, line and name; commands warn
# about each and use the default, the filter warns in one line; and
# every command's options come from one table ('triage help CMD')
. "$(dirname "$0")/../lib.sh"

test_expect_success 'the shipped routes.conf and the built-in one are clean' '
	"$TRIAGE" check-config -c "$SRC/routes.conf" >"$T/out" 2>"$T/err" &&
	test_cmp /dev/null "$T/err" &&
	grep -q "routes.conf: [0-9]* settings and 4 records, all known and valid$" "$T/out" &&
	env -u TRIAGE_CONFIG "$TRIAGE" check-config >"$T/out" &&
	grep -q "^(built-in): " "$T/out"
'

test_setup 'a routes.conf with a misspelt name, a bad int, a bad enum' '
	{
		cat "$SRC/routes.conf" &&
		echo "trasport = sendmail" &&
		echo "smtp_port = abc" &&
		echo "transport = sendmial" &&
		echo "action fuzzer digest fortnightly"
	} >"$T/bad.conf" &&
	n=$(wc -l <"$SRC/routes.conf") &&
	echo "$T/bad.conf:$((n + 1)): trasport: unknown setting; did you mean transport?" >"$T/expect" &&
	echo "$T/bad.conf:$((n + 2)): smtp_port: '\''abc'\'' is not a whole number from 1 to 65535" >>"$T/expect" &&
	echo "$T/bad.conf:$((n + 3)): transport: '\''sendmial'\'' is not smtp or sendmail" >>"$T/expect" &&
	echo "$T/bad.conf:$((n + 4)): action: '\''fortnightly'\'' is not hourly, daily or weekly" >>"$T/expect"
'

test_expect_success 'check-config: each problem as FILE:LINE: NAME: why, exit 78' '
	test_exit 78 "$TRIAGE" check-config -c "$T/bad.conf" >"$T/out" 2>"$T/err" &&
	test_cmp /dev/null "$T/out" &&
	head -n 4 "$T/err" >"$T/got" &&
	test_cmp "$T/expect" "$T/got" &&
	tail -n 1 "$T/err" | grep -q "bad.conf: 4 problems$" &&
	test_exit 78 "$TRIAGE" -c "$T/bad.conf" check-config 2>"$T/err2" &&
	test_cmp "$T/err" "$T/err2" &&
	test_exit 78 "$TRIAGE" check-config "$T/bad.conf" 2>"$T/err3" &&
	test_cmp "$T/err" "$T/err3"
'

# A bad value is fatal for every command but the filter (issue 24): a
# command run on a default the admin did not choose does something else
# than asked.
test_expect_success 'a command names every problem; a bad value stops it: 78' '
	m="maintainers = $SRC/tests/data/MAINTAINERS.kernel" &&
	{ cat "$SRC/routes.conf" && echo "$m"; } >"$T/good.conf" &&
	{ cat "$T/bad.conf" && echo "$m"; } >"$T/bad-map.conf" &&
	"$TRIAGE" -c "$T/good.conf" map fs/xfs/xfs_inode.c >"$T/good" &&
	grep -q "^fs/xfs/xfs_inode.c	XFS FILESYSTEM" "$T/good" &&
	test_exit 78 "$TRIAGE" -c "$T/bad-map.conf" map fs/xfs/xfs_inode.c >"$T/out" 2>"$T/err" &&
	test ! -s "$T/out" &&
	sed "s|bad.conf|bad-map.conf|" "$T/expect" >"$T/expect-map" &&
	sed "s/^/triage: warning: /" "$T/expect-map" >"$T/expect-warn" &&
	sed "\$d" "$T/err" >"$T/warnings" &&
	test_cmp "$T/expect-warn" "$T/warnings" &&
	tail -n 1 "$T/err" | grep -q "^triage: $T/bad-map.conf: [0-9]* bad values*: fix .* (.triage check-config. lists every problem)\$" &&
	for cmd in "pending" "stats" "deliver" "digest" "log"; do
		test_exit 78 "$TRIAGE" -c "$T/bad-map.conf" $cmd >"$T/out" 2>"$T/err" &&
		test ! -s "$T/out" && grep -q "bad value" "$T/err" || return 1
	done
'

test_expect_success 'an unknown name alone is a warning: the command runs' '
	{
		cat "$SRC/routes.conf" &&
		echo "maintainers = $SRC/tests/data/MAINTAINERS.kernel" &&
		echo "trasport = sendmail"
	} >"$T/typo.conf" &&
	"$TRIAGE" -c "$T/typo.conf" map fs/xfs/xfs_inode.c >"$T/out" 2>"$T/err" &&
	grep -q "^fs/xfs/xfs_inode.c	XFS FILESYSTEM" "$T/out" &&
	grep -q "trasport: unknown setting; did you mean transport?" "$T/err" &&
	test_exit 78 "$TRIAGE" check-config -c "$T/typo.conf" 2>/dev/null
'

test_expect_success 'the filter: one line of warning, the default used, exit 0' '
	sed "s|^state_dir.*|state_dir = $T/fstate|" "$T/bad.conf" >"$T/filter.conf" &&
	mkdir -p "$T/fstate" &&
	printf "From: a@example.org\nTo: bugs@example.org\nSubject: hello\nMessage-ID: <cfg1@example.org>\n\nA report.\n" >"$T/msg" &&
	env -u TRIAGE_STATE_DIR "$FILTER" -c "$T/filter.conf" <"$T/msg" >"$T/out" 2>"$T/err" &&
	test_cmp /dev/null "$T/out" &&
	test "$(wc -l <"$T/err")" = 1 &&
	grep -q "warning: filter.conf:[0-9]*: trasport: unknown setting; did you mean transport? (and 3 more problems" "$T/err" &&
	test -s "$T/fstate/triage.db"
'

test_expect_success 'a quote left open is 78 with file:line' '
	printf "roster \"XFS FILESYSTEM a@example.org\n" >"$T/quote.conf" &&
	test_exit 78 "$TRIAGE" check-config -c "$T/quote.conf" 2>"$T/err" &&
	grep -q "quote.conf:1: unterminated quote" "$T/err"
'

test_expect_success 'help CMD and CMD --help print the options of CMD' '
	"$TRIAGE" help pending >"$T/help1" &&
	"$TRIAGE" pending --help >"$T/help2" &&
	test_cmp "$T/help1" "$T/help2" &&
	grep -q "^usage: triage pending" "$T/help1" &&
	grep -q "^    --class CLASS " "$T/help1" &&
	grep -q "^    --no-pager " "$T/help1" &&
	"$TRIAGE" help train >"$T/help3" &&
	grep -q "^    --folds K " "$T/help3" &&
	"$TRIAGE" help check-config >"$T/help4" &&
	grep -q "^    -c, --config FILE " "$T/help4" &&
	"$TRIAGE" help >"$T/help5" &&
	grep -q "check-config" "$T/help5"
'

test_expect_success 'a misspelt command is answered with the one meant' '
	test_exit 64 "$TRIAGE" pendng 2>"$T/err" &&
	grep -q "'\''pendng'\'' is not a triage command; did you mean '\''pending'\''?" "$T/err" &&
	test_exit 64 "$TRIAGE" help chek-config 2>"$T/err" &&
	grep -q "did you mean '\''check-config'\''?" "$T/err" &&
	test_exit 64 "$TRIAGE" zzzzzz 2>"$T/err" &&
	grep -q "see '\''triage help'\''" "$T/err"
'

test_expect_success 'usage errors exit 64 with the usage; a bad number is named' '
	test_exit 64 "$TRIAGE" pending --no-such-option 2>"$T/err" &&
	grep -q "^usage: triage pending" "$T/err" &&
	test_exit 64 "$TRIAGE" check-config "$SRC/routes.conf" extra 2>/dev/null &&
	test_exit 64 "$TRIAGE" eval --corpus /nonexistent --folds 1 2>"$T/err" &&
	grep -q "folds takes a number from 2 to 100, not '\''1'\''" "$T/err"
'

# The printk format index is state, not configuration: check-config says
# whether the filter has one, from what and when, or what its absence
# costs; an older or damaged one is named, and the status stays 0.
test_expect_success 'check-config reports the printk index: none, built, an older format' '
	"$TRIAGE" check-config >"$T/out" 2>"$T/err" &&
	test_cmp /dev/null "$T/err" &&
	grep -q "^$TRIAGE_STATE_DIR/printk.idx: none: log lines name no source file; .triage update --kernel-tree DIR. builds it$" "$T/out" &&
	mkdir -p "$T/tree/drivers/foo" &&
	printf "%s\n" "void f(struct device *d)" "{" \
		"	dev_err(d, \"firmware handshake timed out after %d ms\\n\", 5);" \
		"	dev_warn(d, \"link training failed on lane %d\\n\", 2);" "}" \
		>"$T/tree/drivers/foo/foo.c" &&
	"$TRIAGE" update --kernel-tree "$T/tree" >"$T/upd" &&
	tree=$(cd "$T/tree" && pwd -P) &&
	"$TRIAGE" check-config >"$T/out" 2>"$T/err" &&
	test_cmp /dev/null "$T/err" &&
	grep -q "^$TRIAGE_STATE_DIR/printk.idx: 2 printk formats (format [0-9]*) from 1 files of $tree, built 20[0-9][0-9]-[0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9] UTC$" "$T/out" &&
	printf "\001\000\000\000" | dd of="$TRIAGE_STATE_DIR/printk.idx" bs=1 seek=8 conv=notrunc 2>/dev/null &&
	"$TRIAGE" check-config >"$T/out" 2>"$T/err" &&
	grep -q "printk.idx: not used: log lines name no source file; .triage update --kernel-tree DIR. rebuilds it$" "$T/out" &&
	grep -q "printk index format 1 is not [0-9]*; run .triage update --kernel-tree DIR.$" "$T/err"
'

test_done
