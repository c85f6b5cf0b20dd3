#!/bin/sh
# t0530-symbols: the kernel symbol index over the Linux 6.12 tree
. "$(dirname "$0")/../lib.sh"
TREE="$SRC/build/linux"
IDX="$T/symbols.idx"

if ! test -f "$TREE/fs/xfs/xfs_icache.c"; then
	echo "# build/linux (linux-source-6.12) is absent: skipping the symbol index tests"
	test_skip "symbol index (no kernel tree; make kernel-tree)"
	test_done
fi

test_expect_success 'triage update --kernel-tree indexes the whole tree' '
	"$TRIAGE" update --kernel-tree "$TREE" --output "$IDX" >"$T/out" &&
	cat "$T/out" &&
	sed -n "s/^symbols: \([0-9]*\) functions ([0-9]* names) from \([0-9]*\) files of .* (\(.*\) s)$/# indexed \1 functions from \2 files in \3 s/p" "$T/out" >"$T/figures" &&
	cat "$T/figures" &&
	test -s "$T/figures" &&
	echo "# index size: $(wc -c <"$IDX") bytes" &&
	functions=$(sed -n "s/^# indexed \([0-9]*\) functions.*/\1/p" "$T/figures") &&
	test "$functions" -gt 500000
'

test_expect_success 'well-known functions resolve to the file that defines them' '
	cat >"$T/expect" <<-\EOF &&
	xfs_iget	fs/xfs/xfs_icache.c
	tcp_v4_rcv	net/ipv4/tcp_ipv4.c
	kmem_cache_alloc	mm/slub.c
	__x64_sys_openat	fs/open.c
	do_sys_openat2	fs/open.c
	ext4_fill_super	fs/ext4/super.c
	__schedule	kernel/sched/core.c
	do_exit	kernel/exit.c
	copy_process	kernel/fork.c
	vfs_read	fs/read_write.c
	__x64_sys_write	fs/read_write.c
	handle_mm_fault	mm/memory.c
	__alloc_pages	mm/page_alloc.c
	kfree	mm/slub.c
	__netif_receive_skb_core	net/core/dev.c
	ip_rcv	net/ipv4/ip_input.c
	btrfs_search_slot	fs/btrfs/ctree.c
	blk_mq_submit_bio	block/blk-mq.c
	exc_page_fault	arch/x86/mm/fault.c
	sysvec_apic_timer_interrupt	arch/x86/kernel/apic/apic.c
	do_syscall_64	arch/x86/entry/common.c
	ret_from_fork	arch/x86/kernel/process.c
	process_one_work	kernel/workqueue.c
	rcu_core	kernel/rcu/tree.c
	handle_softirqs	kernel/softirq.c
	bpf_map_lookup_elem	kernel/bpf/helpers.c
	__sys_bpf	kernel/bpf/syscall.c
	__do_sys_bpf	kernel/bpf/syscall.c
	__x64_sys_ioctl	fs/ioctl.c
	__ia32_compat_sys_ioctl	fs/ioctl.c
	drm_ioctl	drivers/gpu/drm/drm_ioctl.c
	usb_submit_urb	drivers/usb/core/urb.c
	hub_event	drivers/usb/core/hub.c
	dump_stack_lvl	lib/dump_stack.c
	arch_cpu_idle	arch/x86/kernel/process.c
	EOF
	cut -f1 "$T/expect" | "$TRIAGE" symbols --index "$IDX" --best >"$T/actual" &&
	test_cmp "$T/expect" "$T/actual"
'

test_expect_success 'frames as stacks print them: suffixes, offsets, other arches' '
	cat >"$T/expect" <<-\EOF &&
	xfs_iget_cache_hit.isra.0	fs/xfs/xfs_icache.c
	tcp_v4_rcv+0x1a2/0x3c0	net/ipv4/tcp_ipv4.c
	ext4_fill_super.cold	fs/ext4/super.c
	__arm64_sys_openat	fs/open.c
	__riscv_sys_openat	fs/open.c
	EOF
	cut -f1 "$T/expect" | "$TRIAGE" symbols --index "$IDX" --best >"$T/actual" &&
	test_cmp "$T/expect" "$T/actual"
'

test_expect_success 'the full list is best first; ambiguous names have no best' '
	"$TRIAGE" symbols --index "$IDX" arch_cpu_idle kthread >"$T/actual" &&
	grep -q "^arch_cpu_idle	arch/x86/kernel/process.c kernel/sched/idle.c arch/" "$T/actual" &&
	grep -q "^kthread	.*kernel/kthread.c" "$T/actual" &&
	"$TRIAGE" symbols --index "$IDX" --best kthread >"$T/actual" &&
	printf "kthread\t\n" >"$T/expect" &&
	test_cmp "$T/expect" "$T/actual"
'

test_expect_success 'invented functions are absent' '
	printf "btusb_write\t\ni915_gem_execbuffer3\t\next4_journal_commit_async\t\nnetif_receive_skb_fast\t\n" >"$T/expect" &&
	"$TRIAGE" symbols --index "$IDX" btusb_write i915_gem_execbuffer3 ext4_journal_commit_async netif_receive_skb_fast >"$T/actual" &&
	test_cmp "$T/expect" "$T/actual"
'

test_expect_success 'the index in state_dir is used by default' '
	"$TRIAGE" update --kernel-tree "$TREE" >"$T/out" &&
	test -f "$TRIAGE_STATE_DIR/symbols.idx" &&
	! test -f "$TRIAGE_STATE_DIR/maintainers.idx" &&
	"$TRIAGE" symbols tcp_v4_rcv >"$T/actual" &&
	printf "tcp_v4_rcv\tnet/ipv4/tcp_ipv4.c\n" >"$T/expect" &&
	test_cmp "$T/expect" "$T/actual"
'

test_expect_success 'a fresh process opens the index and looks one name up' '
	start=$(date +%s%N) &&
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		"$TRIAGE" symbols --index "$IDX" --best xfs_iget >/dev/null || exit 1
	done &&
	end=$(date +%s%N) &&
	echo "# triage symbols NAME, whole process: $(( (end - start) / 20000 )) us per run"
'

test_done
