#!/bin/sh
# t0130-symbols: 'triage update --kernel-tree' and 'triage symbols' on a small tree
. "$(dirname "$0")/../lib.sh"
D="$SRC/tests/data"
M="$D/MAINTAINERS.quirks"

test_setup 'a small kernel tree' '
	mkdir -p "$T/tree/fs/foo" "$T/tree/include/linux" \
		"$T/tree/arch/x86/kernel" "$T/tree/kernel" &&
	cat >"$T/tree/fs/foo/inode.c" <<-\EOF &&
	static int
	foo_iget(struct super_block *sb,
		 unsigned long ino)
	{
		if (ino) {
			return bar(ino);
		}
		return 0;
	}

	SYSCALL_DEFINE2(foo, int, a, int, b)
	{
		return foo_iget(NULL, a);
	}
	EOF
	cat >"$T/tree/include/linux/foo.h" <<-\EOF &&
	int foo_count(void);	/* a prototype */
	static inline int foo_count(void) { return 0; }
	EOF
	cat >"$T/tree/kernel/count.c" <<-\EOF &&
	int foo_count(void)
	{
		return 1;
	}
	void __weak arch_foo(void) { }
	EOF
	cat >"$T/tree/arch/x86/kernel/foo.c" <<-\EOF
	void arch_foo(void) { }
	EOF
'

# 11 functions and fs/foo/ as the module "foo" (a directory's name)
test_setup '--kernel-tree alone builds the symbol index only' '
	"$TRIAGE" update --kernel-tree "$T/tree" >"$T/out" &&
	grep -q "^symbols: 12 functions (10 names) from 4 files of " "$T/out" &&
	! grep -q "^maintainers:" "$T/out" &&
	test -f "$TRIAGE_STATE_DIR/symbols.idx" &&
	! test -f "$TRIAGE_STATE_DIR/maintainers.idx"
'

test_expect_success 'triage symbols: files best first, names from stdin' '
	printf "foo_count\nfoo_iget.isra.0\n__x64_sys_foo\narch_foo\nbar\n" |
		"$TRIAGE" symbols >"$T/actual" &&
	printf "foo_count\tkernel/count.c include/linux/foo.h\nfoo_iget.isra.0\tfs/foo/inode.c\n__x64_sys_foo\tfs/foo/inode.c\narch_foo\tarch/x86/kernel/foo.c kernel/count.c\nbar\t\n" >"$T/expect" &&
	test_cmp "$T/expect" "$T/actual"
'

test_expect_success 'triage symbols --best: the file a stack frame would get' '
	"$TRIAGE" symbols --best foo_count arch_foo missing >"$T/actual" &&
	printf "foo_count\tkernel/count.c\narch_foo\tarch/x86/kernel/foo.c\nmissing\t\n" >"$T/expect" &&
	test_cmp "$T/expect" "$T/actual"
'

test_expect_success 'both parts at once; --output then names neither' '
	rm -rf "$TRIAGE_STATE_DIR" &&
	"$TRIAGE" update --maintainers "$M" --kernel-tree "$T/tree" >"$T/out" &&
	grep -q "^maintainers: 8 sections" "$T/out" &&
	grep -q "^symbols: 12 functions" "$T/out" &&
	test -f "$TRIAGE_STATE_DIR/maintainers.idx" &&
	test -f "$TRIAGE_STATE_DIR/symbols.idx" &&
	test_exit 64 "$TRIAGE" update --maintainers "$M" --kernel-tree "$T/tree" --output "$T/x.idx" &&
	"$TRIAGE" update --kernel-tree "$T/tree" --output "$T/s.idx" >"$T/out" &&
	grep -q " -> $T/s.idx " "$T/out" &&
	"$TRIAGE" symbols --index "$T/s.idx" foo_iget >"$T/actual" &&
	printf "foo_iget\tfs/foo/inode.c\n" >"$T/expect" &&
	test_cmp "$T/expect" "$T/actual"
'

test_expect_success 'kernel_tree in routes.conf is the default source' '
	rm -rf "$TRIAGE_STATE_DIR" &&
	printf "maintainers =\nkernel_tree = %s\n" "$T/tree" >"$T/only-tree.conf" &&
	"$TRIAGE" -c "$T/only-tree.conf" update >"$T/out" &&
	grep -q "^symbols: 12 functions" "$T/out" &&
	! grep -q "^maintainers:" "$T/out" &&
	printf "maintainers = %s\nkernel_tree = %s\n" "$M" "$T/tree" >"$T/both.conf" &&
	"$TRIAGE" -c "$T/both.conf" update >"$T/out" &&
	grep -q "^maintainers: 8 sections" "$T/out" &&
	grep -q "^symbols: 12 functions" "$T/out"
'

test_expect_success 'nothing to update, bad trees and a missing index are reported' '
	printf "maintainers =\n" >"$T/none.conf" &&
	test_exit 78 "$TRIAGE" -c "$T/none.conf" update 2>"$T/err" &&
	grep -q "nothing to update" "$T/err" &&
	test_exit 78 "$TRIAGE" update --kernel-tree "$T/no-such-dir" 2>"$T/err" &&
	grep -q "not a directory" "$T/err" &&
	rm -rf "$TRIAGE_STATE_DIR" &&
	test_exit 78 "$TRIAGE" symbols foo 2>"$T/err" &&
	grep -q "triage update --kernel-tree" "$T/err" &&
	test_exit 64 "$TRIAGE" symbols --no-such-option
'

test_expect_success 'a corrupt symbol index is refused with advice' '
	head -c 100 "$T/s.idx" >"$T/bad.idx" &&
	test_exit 78 "$TRIAGE" symbols --index "$T/bad.idx" foo 2>"$T/err" &&
	grep -q "triage update --kernel-tree" "$T/err" &&
	printf "garbage" >"$T/bad.idx" &&
	test_exit 78 "$TRIAGE" symbols --index "$T/bad.idx" foo 2>"$T/err" &&
	grep -q "not a triage symbol index" "$T/err"
'

test_done
