#!/bin/sh
# t0135-printk: the printk format index that 'triage update --kernel-tree'
# builds, and the section signal a log line gives ('triage explain')
. "$(dirname "$0")/../lib.sh"

test_setup 'a small kernel tree, MAINTAINERS and a report that is a log line' '
	mkdir -p "$T/tree/drivers/foo" "$T/tree/fs/bar" "$T/tree/tools/x" &&
	cat >"$T/tree/drivers/foo/foo_main.c" <<-\EOF &&
	static int foo_probe(struct device *dev)
	{
		if (foo_reset(dev) < 0)
			dev_err(dev, "firmware handshake timed out after %d ms\n", 50);
		pr_info("foo: probed the device %s\n", dev_name(dev));
		return 0;
	}
	EOF
	cat >"$T/tree/fs/bar/super.c" <<-\EOF &&
	static void bar_put_super(struct super_block *sb)
	{
		printk(KERN_ERR "BAR-fs (%s): journal aborted, error %d\n", sb->s_id, -5);
	}
	EOF
	cat >"$T/tree/tools/x/x.c" <<-\EOF &&
	int main(void) { pr_err("firmware handshake timed out in a tool\n"); }
	EOF
	cat >"$T/MAINTAINERS" <<-\EOF &&
	FOO DRIVER
	M:	Foo Maintainer <foo@example.org>
	S:	Maintained
	F:	drivers/foo/

	BAR FILESYSTEM
	M:	Bar Maintainer <bar@example.org>
	S:	Maintained
	F:	fs/bar/

	THE REST
	M:	Linus <torvalds@example.org>
	S:	Buried alive in reports
	F:	*
	F:	*/
	EOF
	cat >"$T/report.eml" <<-\EOF
	From: A User <user@example.com>
	To: bugs@example.org
	Subject: my device stopped working after the update
	Message-ID: <printk-1@example.com>
	Date: Sun, 06 Dec 2026 10:00:00 +0000

	Since 6.12 the device does not come up. dmesg says:

	[    4.123456] foo 0000:03:00.0: firmware handshake timed out after 50 ms

	It worked with 6.11.
	EOF
'

test_expect_success 'update --kernel-tree builds the printk index beside the symbol index' '
	"$TRIAGE" update --maintainers "$T/MAINTAINERS" --kernel-tree "$T/tree" >"$T/out" &&
	grep -q "^symbols: " "$T/out" &&
	grep -q "^printk formats: 3 formats (3 log calls, [0-9]* words) from 2 files of $T/tree -> $TRIAGE_STATE_DIR/printk.idx " "$T/out" &&
	test -f "$TRIAGE_STATE_DIR/printk.idx"
'

test_expect_success 'explain: the log line names the file that prints it, with its weight' '
	"$TRIAGE" explain "$T/report.eml" >"$T/out.txt" &&
	grep -q "FOO DRIVER" "$T/out.txt" &&
	grep -q "log line matches dev_err() format in drivers/foo/foo_main.c 0.20" "$T/out.txt"
'

test_expect_success 'without the index: no such signal, no error' '
	mv "$TRIAGE_STATE_DIR/printk.idx" "$T/printk.idx" &&
	"$TRIAGE" explain "$T/report.eml" >"$T/out.txt" 2>"$T/err" &&
	! grep -q "log line matches" "$T/out.txt" &&
	! grep -q printk "$T/err" &&
	mv "$T/printk.idx" "$TRIAGE_STATE_DIR/printk.idx"
'

test_expect_success 'a damaged or older index is refused with advice, and the report still goes through' '
	cp "$TRIAGE_STATE_DIR/printk.idx" "$T/good.idx" &&
	head -c 60 "$T/good.idx" >"$TRIAGE_STATE_DIR/printk.idx" &&
	"$TRIAGE" explain "$T/report.eml" >"$T/out.txt" 2>"$T/err" &&
	grep -q "corrupt printk index; run .triage update --kernel-tree DIR." "$T/err" &&
	! grep -q "log line matches" "$T/out.txt" &&
	printf "TRIPRTK\0\0\0\0\0" >"$TRIAGE_STATE_DIR/printk.idx" &&
	"$TRIAGE" explain "$T/report.eml" >"$T/out.txt" 2>"$T/err" &&
	grep -q "corrupt printk index" "$T/err" &&
	cp "$T/good.idx" "$TRIAGE_STATE_DIR/printk.idx" &&
	"$TRIAGE" explain "$T/report.eml" >"$T/out.txt" 2>"$T/err" &&
	grep -q "log line matches dev_err()" "$T/out.txt"
'

test_done
