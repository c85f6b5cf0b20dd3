#!/bin/sh
# t0500-mapping: mapping agrees with get_maintainer.pl on real data
. "$(dirname "$0")/../lib.sh"
DEV="$SHARED/bench/mapping-dev.tsv"
LINUX="$SHARED/data/linux/MAINTAINERS"
TREE="$SRC/build/linux"

if ! test -f "$DEV" || ! test -f "$LINUX"; then
	echo "# ../shared is absent: skipping the real-data mapping tests"
	test_skip "mapping-dev.tsv (no ../shared)"
	test_done
fi

test_expect_success 'Linux v6.12 MAINTAINERS: 2,906 sections, every tag kept' '
	"$TRIAGE" update --maintainers "$LINUX" --output "$T/linux.idx" >"$T/out" &&
	cat "$T/out" &&
	grep -q "^maintainers: 2906 sections" "$T/out" &&
	"$TRIAGE" map --index "$T/linux.idx" --json fs/xfs/xfs_inode.c >"$T/xfs.json" &&
	grep -q "\"XFS FILESYSTEM\"" "$T/xfs.json" &&
	grep -q "linux-xfs@vger.kernel.org" "$T/xfs.json"
'

test_expect_success 'mapping-dev.tsv: 100% section-set agreement, no tree' '
	cut -f1 "$DEV" | tail -n +2 >"$T/paths" &&
	"$TRIAGE" map --index "$T/linux.idx" <"$T/paths" >"$T/actual" &&
	{ awk -f "$SRC/tests/setcmp.awk" "$DEV" "$T/actual" >"$T/cmp" || true; } &&
	echo "# $(tail -1 "$T/cmp")" &&
	tail -1 "$T/cmp" | grep -q "agreement: 1000/1000"
'

if ! test -d "$TREE/fs/xfs"; then
	echo "# no kernel tree in build/linux (Debian linux-source-6.12): skipping the --tree checks"
	test_skip "mapping-dev.tsv with --tree (no kernel tree)"
	test_skip "no-tree heuristic against the tree (no kernel tree)"
else
test_expect_success 'mapping-dev.tsv: 100% agreement with directories decided on disk' '
	test -d "$TREE/fs/xfs" &&
	"$TRIAGE" map --maintainers "$LINUX" --tree "$TREE" <"$T/paths" >"$T/actual" &&
	{ awk -f "$SRC/tests/setcmp.awk" "$DEV" "$T/actual" >"$T/cmp" || true; } &&
	echo "# $(tail -1 "$T/cmp")" &&
	tail -1 "$T/cmp" | grep -q "agreement: 1000/1000"
'

test_expect_success 'the no-tree heuristic equals the on-disk rule over the whole tree' '
	(cd "$TREE" && find . -type f ! -name .stamp | sed "s|^\./||") | sort >"$T/all" &&
	"$TRIAGE" map --index "$T/linux.idx" <"$T/all" >"$T/notree" &&
	"$TRIAGE" map --maintainers "$LINUX" --tree "$TREE" <"$T/all" >"$T/tree" &&
	echo "# $(wc -l <"$T/all") files of the tree compared" &&
	cmp "$T/notree" "$T/tree"
'
fi

test_expect_success 'Xen MAINTAINERS parses: 57 sections' '
	"$TRIAGE" update --maintainers "$SHARED/data/xen/MAINTAINERS" --output "$T/xen.idx" >"$T/out" &&
	grep -q "^maintainers: 57 sections" "$T/out" &&
	"$TRIAGE" map --index "$T/xen.idx" xen/arch/x86/hvm/svm/svm.c >"$T/actual" &&
	grep -q "AMD SVM" "$T/actual"
'

test_expect_success 'U-Boot: 689 MAINTAINERS files read as one stream' '
	"$TRIAGE" update --maintainers "$SHARED/data/u-boot" --output "$T/uboot.idx" >"$T/out" &&
	grep -q "^maintainers: 1119 sections" "$T/out" &&
	"$TRIAGE" map --index "$T/uboot.idx" board/k+p/kp_imx53/kp_imx53.c >"$T/actual" &&
	grep -q "KP_IMX53_HSC BOARD" "$T/actual"
'

test_done
