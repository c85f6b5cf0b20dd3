#!/bin/sh
# t0300-experts: 'triage experts import' on a small repository, 'show'
. "$(dirname "$0")/../lib.sh"

# 2026-06-01 00:00 UTC, and one default half-life (180 days) before it.
NOW=1780272000
HALF=1764720000

commit() { # commit WHEN AUTHOR EMAIL MESSAGE FILE...
	when=$1 name=$2 email=$3 msg=$4 &&
	shift 4 &&
	for f in "$@"; do
		mkdir -p "$T/repo/$(dirname "$f")" &&
		echo "$when $f" >>"$T/repo/$f" || return 1
	done &&
	printf "%s" "$msg" >"$T/msg" &&
	(cd "$T/repo" &&
	 export GIT_AUTHOR_NAME="$name" GIT_AUTHOR_EMAIL="$email" \
		GIT_COMMITTER_NAME=Committer \
		GIT_COMMITTER_EMAIL=committer@example.org \
		GIT_AUTHOR_DATE="@$when +0000" GIT_COMMITTER_DATE="@$when +0000" &&
	 git add -A && git commit -q -F "$T/msg") >/dev/null
}

if ! command -v git >/dev/null; then
	test_skip 'git is not installed: experts import not tested'
	test_done
fi
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null

test_expect_success 'a small history with trailers' '
	git init -q "$T/repo" &&
	commit $HALF Carol carol@example.org "xfs: older fix

Reported-by: syzbot+123@syzkaller.appspotmail.com
Signed-off-by: Carol <carol@example.org>
Reviewed-by: Dave Reviewer <DAVE@example.org>
Acked-by: Bob Builder <bob@example.org>
Reviewed-by: kernel test robot <lkp@intel.com>
" fs/xfs/xfs_inode.c fs/xfs/xfs_buf.c &&
	commit $NOW Alice alice@example.org "xfs: new fix

Signed-off-by: Alice <alice@example.org>
Reviewed-by: Bob Builder <bob@example.org>
" fs/xfs/xfs_inode.c
'

test_expect_success 'import writes the index and one summary line' '
	"$TRIAGE" experts import --git "$T/repo" --now @$NOW --since all \
		--output "$T/experts.idx" >"$T/out" &&
	test -s "$T/experts.idx" &&
	test $(wc -l <"$T/out") = 1 &&
	grep -q "^experts: 2 commits, 2 files + 2 directories, 4 people, 1 bot and 0 invalid addresses skipped -> $T/experts.idx" "$T/out" &&
	grep -q "; history: 2 commits, 0 releases (" "$T/out" &&
	test -s "$T/experts.idx.history" &&
	sed "s/^/# /" "$T/out"
'

test_expect_success 'show: scores decay by half-life, a commit counts once per directory' '
	"$TRIAGE" experts show --index "$T/experts.idx" fs/xfs/xfs_inode.c \
		fs/xfs/new_file.c mm/slub.c >"$T/actual" &&
	tab=$(printf "\t") &&
	sed "s/|/$tab/g" >"$T/expect" <<-EOF &&
	fs/xfs/xfs_inode.c|fs/xfs/xfs_inode.c|bob@example.org|1.25|1|1|0|0|Bob Builder
	fs/xfs/xfs_inode.c|fs/xfs/xfs_inode.c|dave@example.org|0.50|1|0|0|0|Dave Reviewer
	fs/xfs/xfs_inode.c|fs/xfs/xfs_inode.c|alice@example.org|0.10|0|0|0|1|Alice
	fs/xfs/xfs_inode.c|fs/xfs/xfs_inode.c|carol@example.org|0.05|0|0|0|1|Carol
	fs/xfs/new_file.c|fs/xfs/|bob@example.org|1.25|1|1|0|0|Bob Builder
	fs/xfs/new_file.c|fs/xfs/|dave@example.org|0.50|1|0|0|0|Dave Reviewer
	fs/xfs/new_file.c|fs/xfs/|alice@example.org|0.10|0|0|0|1|Alice
	fs/xfs/new_file.c|fs/xfs/|carol@example.org|0.05|0|0|0|1|Carol
	mm/slub.c|-
	EOF
	test_cmp "$T/expect" "$T/actual"
'

test_expect_success 'paths on standard input give the same lines' '
	printf "fs/xfs/xfs_inode.c\nfs/xfs/new_file.c\nmm/slub.c\n" |
	"$TRIAGE" experts show --index "$T/experts.idx" >"$T/actual2" &&
	test_cmp "$T/actual" "$T/actual2"
'

test_expect_success 'routes.conf weights and --since change the table' '
	cp "$T/routes.conf" "$T/weights.conf" &&
	echo "experts_weight = acked-by:2 authored:0" >>"$T/weights.conf" &&
	"$TRIAGE" -c "$T/weights.conf" experts import --git "$T/repo" \
		--now @$NOW --since all --output "$T/w.idx" >/dev/null &&
	"$TRIAGE" experts show --index "$T/w.idx" fs/xfs/xfs_buf.c >"$T/actual" &&
	printf "fs/xfs/xfs_buf.c\tfs/xfs/xfs_buf.c\tbob@example.org\t1.00\t0\t1\t0\t0\tBob Builder\nfs/xfs/xfs_buf.c\tfs/xfs/xfs_buf.c\tdave@example.org\t0.50\t1\t0\t0\t0\tDave Reviewer\n" >"$T/expect" &&
	test_cmp "$T/expect" "$T/actual" &&
	"$TRIAGE" experts import --git "$T/repo" --now @$NOW --since 100d \
		--output "$T/s.idx" >"$T/out" &&
	grep -q "^experts: 1 commits" "$T/out" &&
	"$TRIAGE" experts show --index "$T/s.idx" fs/xfs/xfs_buf.c >"$T/actual" &&
	printf "fs/xfs/xfs_buf.c\tfs/xfs/\tbob@example.org\t1.00\t1\t0\t0\t0\tBob Builder\nfs/xfs/xfs_buf.c\tfs/xfs/\talice@example.org\t0.10\t0\t0\t0\t1\tAlice\n" >"$T/expect" &&
	test_cmp "$T/expect" "$T/actual"
'

test_expect_success 'without --output the index goes to the state directory' '
	"$TRIAGE" experts import --git "$T/repo" --now @$NOW --since all >/dev/null &&
	test -f "$TRIAGE_STATE_DIR/experts.idx" &&
	"$TRIAGE" experts show fs/xfs/xfs_inode.c >"$T/actual" &&
	test $(wc -l <"$T/actual") = 4
'

test_expect_success 'errors: not a repository, missing or corrupt index, usage' '
	test_exit 66 "$TRIAGE" experts import --git "$T" --output "$T/x.idx" 2>"$T/err" &&
	grep -q "git log in" "$T/err" &&
	test ! -f "$T/x.idx" &&
	test_exit 66 "$TRIAGE" experts show --index "$T/missing.idx" a.c &&
	head -c 64 "$T/experts.idx" >"$T/bad.idx" &&
	test_exit 66 "$TRIAGE" experts show --index "$T/bad.idx" a.c 2>"$T/err" &&
	grep -q "triage experts import" "$T/err" &&
	test_exit 64 "$TRIAGE" experts &&
	test_exit 64 "$TRIAGE" experts frobnicate &&
	test_exit 64 "$TRIAGE" experts import &&
	test_exit 64 "$TRIAGE" experts import --git "$T/repo" --since 3x &&
	test_exit 64 "$TRIAGE" experts import --git "$T/repo" --now yesterday
'

test_done
