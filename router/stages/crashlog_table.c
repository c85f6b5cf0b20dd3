// SPDX-License-Identifier: GPL-2.0-only
/*
 * crashlog_table - the crash-log parser's tables (see crashlog_int.h)
 *
 * Crash headers, the title formats tried for each in order, the stack
 * "parts" that walk a report to the frame naming the crash, generic
 * frames, the guilty-file rules: data in syzkaller's pkg/report shape,
 * written for this program from the kernel's own messages.  The
 * patterns are compiled on first use (crashlog_rx.c).
 */
#include "crashlog_int.h"

#define WARN_STACK(...)                                                     \
	(&(struct stack_def){                                               \
		.parts = { "(?:" RIP "|--- interrupt: [0-9]+ at " FUNC ")", \
			   STACK },                                         \
		.parts2 = { CALLTRACE, STACK },                             \
		.skip = { __VA_ARGS__ } })

#define TRACE_STACK(...)                                     \
	(&(struct stack_def){ .parts = { CALLTRACE, STACK }, \
			      .skip = { __VA_ARGS__ } })

#define RIP_TRACE_STACK(...)                                      \
	(&(struct stack_def){ .parts = { RIP, CALLTRACE, STACK }, \
			      .skip = { __VA_ARGS__ } })

#define RIP_ONLY (&(struct stack_def){ .parts = { RIP } })

#define KMSAN_PARTS                                                              \
	{                                                                        \
		STACK, "(Local variable .* created at:|Uninit was created at:)", \
			STACK                                                    \
	}

#define KFENCE_STACK          \
	(&(struct stack_def){ \
		.parts = { "BUG: KFENCE: (?:[a-z\\- ]+) in " FUNC, STACK } })

static struct fmt_def bug_fmts[] = {
	{ "BUG: KASAN:",
	  "BUG: KASAN: ([a-z\\-]+) in " FUNC LINES
	  ".*(Read|Write) (?:of size|at addr) (?:[0-9a-f]+)",
	  "KASAN: $1 $3 in $4",
	  &(struct stack_def){ .parts = { "BUG: KASAN: (?:[a-z\\-]+) in " FUNC,
					  CALLTRACE, STACK },
			       .skip = { "kernel_fault", "tag_check",
					 "mem_abort", "^el1_", "^el1h_" } },
	  0 },
	{ "BUG: KASAN:",
	  "BUG: KASAN: (?:double-free or invalid-free|double-free|invalid-free) in " FUNC,
	  "KASAN: invalid-free in $2",
	  &(struct stack_def){
		  .parts = { "BUG: KASAN: (?:double-free or invalid-free|double-free|invalid-free) in " FUNC,
			     CALLTRACE, STACK },
		  .skip = { "slab_", "kfree", "vunmap", "vfree" } },
	  0 },
	{ "BUG: KASAN: ([a-z\\-]+) on address" LINES
	  ".*(Read|Write) of size ([0-9]+)",
	  NULL, "KASAN: $1 $2", NULL, 0 },
	{ "BUG: KASAN: (.*)", NULL, "KASAN: $1", NULL, F_CORRUPTED },
	{ "BUG: KMSAN: kernel-usb-infoleak",
	  "BUG: KMSAN: kernel-usb-infoleak in " FUNC,
	  "KMSAN: kernel-usb-infoleak in $2",
	  &(struct stack_def){ .parts = KMSAN_PARTS,
			       .skip = { "alloc_skb", "usb_submit_urb",
					 "usb_start_wait_urb", "usb_bulk_msg",
					 "usb_interrupt_msg",
					 "usb_control_msg" } },
	  F_NOSTACK },
	{ "BUG: KMSAN:", "BUG: KMSAN: ([a-z\\-]+) in " FUNC, "KMSAN: $1 in $3",
	  &(struct stack_def){ .parts = KMSAN_PARTS,
			       .skip = { "alloc_skb", "netlink_ack",
					 "netlink_rcv_skb", "_encrypt$",
					 "^crypto_", "^cipher_", "^drbg_",
					 "^rng_" } },
	  F_NOSTACK },
	{ "BUG: KCSAN: data-race", "BUG: KCSAN: (.*)", "KCSAN: $1", NULL,
	  F_NOSTACK },
	{ "BUG: KCSAN:", "BUG: KCSAN: (.*)", "KCSAN: $1", NULL, F_NOSTACK },
	{ "BUG: KFENCE: (use-after-free|out-of-bounds) (read|write) in " FUNC,
	  NULL, "KFENCE: $1 $2 in $4", KFENCE_STACK, 0 },
	{ "BUG: KFENCE: invalid free in " FUNC, NULL,
	  "KFENCE: invalid free in $2", KFENCE_STACK, F_NOSTACK },
	{ "BUG: KFENCE: invalid (read|write) in " FUNC, NULL,
	  "KFENCE: invalid $1 in $3", KFENCE_STACK, 0 },
	{ "BUG: KFENCE: memory corruption in " FUNC, NULL,
	  "KFENCE: memory corruption in $2", KFENCE_STACK, F_NOSTACK },
	{ "BUG: (?:unable to handle kernel paging request|unable to handle page fault for address|Unable to handle kernel data access)",
	  NULL, "BUG: unable to handle kernel paging request in $1",
	  RIP_TRACE_STACK(NULL), 0 },
	{ "BUG: (?:unable to handle kernel NULL pointer dereference|kernel NULL pointer dereference|Kernel NULL pointer dereference)",
	  NULL, "BUG: unable to handle kernel NULL pointer dereference in $1",
	  RIP_TRACE_STACK(NULL), 0 },
	{ "BUG: (?:unable to handle kernel|Unable to handle kernel)", NULL,
	  "BUG: unable to handle kernel", NULL, F_CORRUPTED },
	{ "BUG: (spinlock|rwlock) (lockup suspected|already unlocked|recursion|cpu recursion|bad magic|wrong owner|wrong CPU|trylock failure on UP)",
	  NULL, "BUG: $1 $2 in $3", TRACE_STACK("spin_", "_lock", "_unlock"),
	  0 },
	{ "BUG: soft lockup", NULL, "BUG: soft lockup in $1",
	  &(struct stack_def){ .parts = { RIP, CALLTRACE, STACK },
			       .extractor = EXT_STALL },
	  0 },
	{ "BUG: .*still has locks held!",
	  "BUG: .*still has locks held!" LINES ".*" PC " +" FUNC,
	  "BUG: still has locks held in $1", NULL, 0 },
	{ "BUG: scheduling while atomic", NULL,
	  "BUG: scheduling while atomic in $1", TRACE_STACK("schedule"), 0 },
	{ "BUG: lock held when returning to user space",
	  "BUG: lock held when returning to user space" LINES
	  ".*leaving the kernel with locks still held" LINES ".*at: (?:" PC
	  " +)?" FUNC,
	  "BUG: lock held when returning to user space in $1", NULL,
	  F_NOSTACK },
	{ "BUG: bad unlock balance detected!", NULL,
	  "BUG: bad unlock balance in $1",
	  &(struct stack_def){ .parts = { PC " +" FUNC, CALLTRACE, STACK } },
	  0 },
	{ "BUG: held lock freed!",
	  "BUG: held lock freed!" LINES ".*" PC " +" FUNC,
	  "BUG: held lock freed in $1", NULL, 0 },
	{ "BUG: Bad rss-counter state", NULL, "BUG: Bad rss-counter state",
	  NULL, F_NOSTACK },
	{ "BUG: non-zero nr_ptes on freeing mm", NULL,
	  "BUG: non-zero nr_ptes on freeing mm", NULL, F_NOSTACK },
	{ "BUG: non-zero nr_pmds on freeing mm", NULL,
	  "BUG: non-zero nr_pmds on freeing mm", NULL, F_NOSTACK },
	{ "BUG: Dentry .* still in use",
	  "BUG: Dentry .* still in use \\([0-9]+\\) \\[(unmount) of ([^\\]]+)\\]",
	  "BUG: Dentry still in use in $1", NULL, 0 },
	{ "BUG: Bad page (state|cache)", NULL, "BUG: Bad page $1 in $2",
	  &(struct stack_def){
		  .parts = { "page last allocated", STACK },
		  .skip = { "free_page", "put_page", "get_page", "update_page",
			    "release_page", "free_unref", "^folio", "^_folio",
			    "^__folio", "truncate_inode_pages",
			    "page_frag_free", "alloc", "vmap", "page_owner" } },
	  0 },
	{ "BUG: Bad page map", NULL, "BUG: Bad page map", NULL, 0 },
	{ "BUG: workqueue lockup", NULL, "BUG: workqueue lockup", NULL,
	  F_NOSTACK },
	{ "BUG: sleeping function called from invalid context at (.*)", NULL,
	  "BUG: sleeping function called from invalid context in $2",
	  TRACE_STACK(NULL), 0 },
	{ "BUG: using ([a-z_]+)\\(\\) in preemptible", NULL,
	  "BUG: using $1() in preemptible code in $2",
	  TRACE_STACK("dump_stack", "preempt", "debug_", "processor_id",
		      "this_cpu"),
	  0 },
	{ "BUG: workqueue leaked lock or atomic",
	  "BUG: workqueue leaked lock or atomic" LINES
	  ".*last function: ([a-zA-Z0-9_]+)\\n",
	  "BUG: workqueue leaked lock or atomic in $1", NULL, F_NOSTACK },
	{ "BUG: memory leak", NULL, "memory leak in $1",
	  &(struct stack_def){
		  .parts = { "backtrace(?: \\(crc [[:xdigit:]]*\\))?:", STACK },
		  .skip = { "kmemleak", "mmap", "kmem", "slab", "alloc",
			    "create_object", "idr_get", "list_lru_init",
			    "kasprintf", "kvasprintf", "pcpu_create", "strdup",
			    "strndup", "memdup" } },
	  0 },
	{ "BUG: .*stack guard page was hit at", NULL,
	  "BUG: stack guard page was hit in $1",
	  &(struct stack_def){ .parts = { RIP, CALLTRACE, STACK },
			       .extractor = EXT_STALL },
	  0 },
	{ "BUG: Invalid wait context", NULL, "WARNING: locking bug in $1",
	  TRACE_STACK("lock_sock", "release_sock"), 0 },
	{ "BUG:[[:space:]]*(?:\\n|$)", NULL, "BUG: corrupted", NULL,
	  F_CORRUPTED },
};

static struct fmt_def warning_fmts[] = {
	{ "WARNING: .*lib/debugobjects\\.c.* (?:debug_print|debug_check|at)",
	  NULL, "WARNING: ODEBUG bug in $1",
	  WARN_STACK("debug_", "rcu", "hrtimer_", "timer_", "work_", "percpu_",
		     "vunmap", "vfree", "__free_", "debug_check", "kobject_"),
	  0 },
	{ "WARNING: .*mm/usercopy\\.c.* (?:usercopy_warn|at)", NULL,
	  "WARNING: bad usercopy in $1", WARN_STACK("usercopy", "__check"), 0 },
	{ "WARNING: .*lib/kobject\\.c.* (?:kobject_|at)", NULL,
	  "WARNING: kobject bug in $1", WARN_STACK("kobject_"), 0 },
	{ "WARNING: .*fs/proc/generic\\.c.* (?:proc_register|at)", NULL,
	  "WARNING: proc registration bug in $1", WARN_STACK("proc_"), 0 },
	{ "WARNING: .*lib/refcount\\.c.* (?:refcount_|at)", NULL,
	  "WARNING: refcount bug in $1", WARN_STACK("refcount", "kobject_"),
	  0 },
	{ "WARNING: .*kernel/locking/lockdep\\.c.*lock_", NULL,
	  "WARNING: locking bug in $1", WARN_STACK("lock_sock", "release_sock"),
	  0 },
	{ "WARNING: .*still has locks held!",
	  "WARNING: .*still has locks held!" LINES ".*at: " FUNC,
	  "WARNING: still has locks held in $1", NULL, 0 },
	{ "WARNING: Nested lock was not taken", NULL,
	  "WARNING: nested lock was not taken in $1", WARN_STACK(NULL), 0 },
	{ "WARNING: lock held when returning to user space",
	  "WARNING: lock held when returning to user space" LINES
	  ".*leaving the kernel with locks still held" LINES ".*at: (?:" PC
	  " +)?" FUNC,
	  "WARNING: lock held when returning to user space in $1", NULL,
	  F_NOSTACK },
	{ "WARNING: .*mm/.*\\.c.* k?.?malloc", NULL,
	  "WARNING: kmalloc bug in $1",
	  WARN_STACK("kmalloc", "krealloc", "slab", "kmem"), 0 },
	{ "WARNING: .*mm/vmalloc.c.*__vmalloc_node", NULL,
	  "WARNING: zero-size vmalloc in $1", WARN_STACK(NULL), 0 },
	{ "WARNING: .* usb_submit_urb", NULL, "WARNING in $1/usb_submit_urb",
	  WARN_STACK("usb_submit_urb", "usb_start_wait_urb", "usb_bulk_msg",
		     "usb_interrupt_msg", "usb_control_msg"),
	  0 },
	{ "WARNING: " SRC " at 0x\\d+, CPU#\\d+", NULL, "WARNING in $2",
	  WARN_STACK(NULL), 0 },
	{ "WARNING: .* at " SRC " " FUNC, NULL, "WARNING in $3",
	  WARN_STACK(NULL), 0 },
	{ "WARNING: " SRC " at " FUNC, NULL, "WARNING in $3", WARN_STACK(NULL),
	  0 },
	{ "WARNING: \\[.*\\] " SRC " at " FUNC ".*", NULL, "WARNING in $3",
	  WARN_STACK(NULL), 0 },
	{ "WARNING: possible circular locking dependency detected",
	  "WARNING: possible circular locking dependency detected" LINES
	  ".*is trying to acquire lock",
	  "possible deadlock in $1",
	  &(struct stack_def){ .parts = { "at: (?:" PC " +)?" FUNC,
					  "at: (?:" PC " +)?" FUNC, STACK },
			       .skip = { "process_one_work", "flush_workqueue",
					 "drain_workqueue",
					 "destroy_workqueue" } },
	  0 },
	{ "WARNING: possible irq lock inversion dependency detected",
	  "WARNING: possible irq lock inversion dependency detected" LINES
	  ".*just changed the state of lock" LINES ".*at: (?:" PC " +)?" FUNC,
	  "possible deadlock in $1", NULL, 0 },
	{ "WARNING: .*-safe -> .*-unsafe lock order detected", NULL,
	  "possible deadlock in $1",
	  &(struct stack_def){ .parts = { "which became (?:.*) at:", STACK } },
	  0 },
	{ "WARNING: possible recursive locking detected",
	  "WARNING: possible recursive locking detected" LINES
	  ".*is trying to acquire lock" LINES ".*at: (?:" PC " +)?" FUNC,
	  "possible deadlock in $1", NULL, 0 },
	{ "WARNING: inconsistent lock state",
	  "WARNING: inconsistent lock state" LINES ".*takes" LINES
	  ".*at: (?:" PC " +)?" FUNC,
	  "inconsistent lock state in $2", TRACE_STACK(NULL), 0 },
	{ "WARNING: suspicious RCU usage",
	  "WARNING: suspicious RCU usage" LINES ".*?" SRC,
	  "WARNING: suspicious RCU usage in $2",
	  TRACE_STACK("rcu", "kmem", "slab"), 0 },
	{ "WARNING: kernel stack regs at [0-9a-f]+ in [^ ]* has bad '([^']+)' value",
	  NULL, "WARNING: kernel stack regs has bad '$1' value", NULL,
	  F_NOSTACK },
	{ "WARNING: kernel stack frame pointer at [0-9a-f]+ in [^ ]* has bad value",
	  NULL, "WARNING: kernel stack frame pointer has bad value", NULL,
	  F_NOSTACK },
	{ "WARNING: bad unlock balance detected!", NULL,
	  "WARNING: bad unlock balance in $1",
	  &(struct stack_def){ .parts = { PC " +" FUNC, CALLTRACE, STACK } },
	  0 },
	{ "WARNING: held lock freed!",
	  "WARNING: held lock freed!" LINES ".*at:(?: " PC ")? +" FUNC,
	  "WARNING: held lock freed in $1", NULL, 0 },
	{ "WARNING: kernel stack regs .* has bad 'bp' value", NULL,
	  "WARNING: kernel stack regs has bad value", NULL, F_NOSTACK },
	{ "WARNING: kernel stack frame pointer .* has bad value", NULL,
	  "WARNING: kernel stack regs has bad value", NULL, F_NOSTACK },
	{ "WARNING:[[:space:]]*(?:\\n|$)", NULL, "WARNING: corrupted", NULL,
	  F_CORRUPTED },
};

static struct fmt_def info_fmts[] = {
	{ "INFO: possible circular locking dependency detected",
	  "INFO: possible circular locking dependency detected \\]" LINES
	  ".*is trying to acquire lock" LINES ".*at: " PC " +" FUNC,
	  "possible deadlock in $1", NULL, 0 },
	{ "INFO: possible irq lock inversion dependency detected",
	  "INFO: possible irq lock inversion dependency detected \\]" LINES
	  ".*just changed the state of lock" LINES ".*at: " PC " +" FUNC,
	  "possible deadlock in $1", NULL, 0 },
	{ "INFO: SOFTIRQ-safe -> SOFTIRQ-unsafe lock order detected",
	  "INFO: SOFTIRQ-safe -> SOFTIRQ-unsafe lock order detected \\]" LINES
	  ".*is trying to acquire" LINES ".*at: " PC " +" FUNC,
	  "possible deadlock in $1", NULL, 0 },
	{ "INFO: possible recursive locking detected",
	  "INFO: possible recursive locking detected \\]" LINES
	  ".*is trying to acquire lock" LINES ".*at: " PC " +" FUNC,
	  "possible deadlock in $1", NULL, 0 },
	{ "INFO: inconsistent lock state",
	  "INFO: inconsistent lock state \\]" LINES ".*takes" LINES ".*at: " PC
	  " +" FUNC,
	  "inconsistent lock state in $1", NULL, 0 },
	{ "INFO: rcu_(?:preempt|sched|bh|tasks\\w*) (?:self-)?detected(?: expedited)? stall",
	  NULL, "INFO: rcu detected stall in $1",
	  &(struct stack_def){
		  .parts = { "apic_timer_interrupt", RIP, STACK },
		  .parts2 = { "(?:apic_timer_interrupt|Exception stack|el1h_64_irq)",
			      STACK },
		  .skip = { "apic_timer_interrupt", "rcu" },
		  .extractor = EXT_STALL },
	  0 },
	{ "INFO: trying to register non-static key", NULL,
	  "INFO: trying to register non-static key in $1",
	  TRACE_STACK("stack", "lock", "IRQ"), 0 },
	{ "INFO: suspicious RCU usage",
	  "INFO: suspicious RCU usage" LINES ".*?" SRC,
	  "INFO: suspicious RCU usage in $2",
	  TRACE_STACK("rcu", "kmem", "slab"), 0 },
	{ "INFO: task (?:.*\\n)?.* blocked (?:in I/O wait )?for more than [0-9]+ seconds",
	  NULL, "INFO: task hung in $1",
	  &(struct stack_def){ .parts = { CALLTRACE, STACK },
			       .extractor = EXT_HANG },
	  0 },
	{ "INFO: task .* can't die for more than .* seconds", NULL,
	  "INFO: task can't die in $1", TRACE_STACK("schedule"), 0 },
	{ "INFO: (Freed|Allocated) in (.*)", NULL, "INFO: $1 in $2", NULL,
	  F_CORRUPTED },
	{ "INFO:[[:space:]]*(?:\\n|$)", NULL, "INFO: corrupted", NULL,
	  F_CORRUPTED },
};

static struct fmt_def unable_fmts[] = {
	{ "Unable to handle kernel (paging request|NULL pointer dereference|access to user memory)",
	  NULL, "BUG: unable to handle kernel $1 in $2", RIP_TRACE_STACK(NULL),
	  0 },
};

static struct fmt_def gpf_fmts[] = {
	{ "general protection fault.*:", NULL, "general protection fault in $1",
	  RIP_TRACE_STACK(NULL), 0 },
};

static struct fmt_def segment_fmts[] = {
	{ "stack segment: ", NULL, "stack segment fault in $1",
	  RIP_TRACE_STACK(NULL), 0 },
};

static struct fmt_def panic_fmts[] = {
	{ "Kernel panic - not syncing: stack-protector:",
	  "Kernel panic - not syncing: stack-protector: Kernel stack is corrupted in: " FUNC,
	  "kernel panic: stack is corrupted in $1", NULL, F_NOSTACK },
	{ "Kernel panic - not syncing: stack-protector:",
	  "Kernel panic - not syncing: stack-protector: Kernel stack is corrupted in: [a-f0-9]+",
	  "kernel panic: stack is corrupted in $1", TRACE_STACK("stack_chk"),
	  0 },
	{ "Kernel panic - not syncing: corrupted stack end",
	  "Kernel panic - not syncing: corrupted stack end detected inside scheduler",
	  "kernel panic: corrupted stack end in $1",
	  &(struct stack_def){ .parts = { CALLTRACE, STACK },
			       .skip = { "schedule", "retint_kernel" },
			       .extractor = EXT_STALL },
	  0 },
	{ "Kernel panic - not syncing: kernel stack overflow", NULL,
	  "kernel stack overflow in $1",
	  &(struct stack_def){ .parts = { CALLTRACE, STACK },
			       .skip = { "bad_stack" },
			       .extractor = EXT_STALL },
	  0 },
	{ "Kernel panic - not syncing: Attempted to kill init!", NULL,
	  "kernel panic: Attempted to kill init!", NULL, 0 },
	{ "Kernel panic - not syncing: Couldn't open N_TTY ldisc for [^ ]+ --- error -[0-9]+",
	  NULL, "kernel panic: Couldn't open N_TTY ldisc", NULL, 0 },
	{ "Kernel panic - not syncing: Fatal exception", NULL,
	  "kernel panic: Fatal exception", NULL, F_CORRUPTED },
	{ "Kernel panic - not syncing: panic_on_warn set", NULL,
	  "kernel panic: panic_on_warn set", NULL, F_CORRUPTED },
	{ "Kernel panic - not syncing: hung_task: blocked tasks", NULL,
	  "kernel panic: hung_task: blocked tasks", NULL, F_CORRUPTED },
	{ "Kernel panic - not syncing: (.*)", NULL, "kernel panic: $1", NULL,
	  0 },
};

static struct fmt_def double_fault_fmts[] = {
	{ "PANIC: double fault", NULL, "PANIC: double fault in $1", RIP_ONLY,
	  0 },
};

static struct fmt_def rust_fmts[] = {
	{ "rust_kernel: panicked",
	  "rust_kernel: panicked at [^\\n]*?\\n(.+?)\\n", "$1 in $2",
	  TRACE_STACK("__rustc::rust_begin_unwind"), 0 },
};

static struct fmt_def kernel_bug_fmts[] = {
	{ "kernel BUG at mm/usercopy.c", NULL, "BUG: bad usercopy in $1",
	  TRACE_STACK("usercopy", "__check"), 0 },
	{ "kernel BUG at lib/list_debug.c", NULL, "BUG: corrupted list in $1",
	  TRACE_STACK(NULL), 0 },
	{ "kernel BUG at (.*)", NULL, "kernel BUG in $2",
	  RIP_TRACE_STACK("^skb_"), 0 },
};

static struct fmt_def kernel_bug2_fmts[] = {
	{ "Kernel BUG (.*)", NULL, "kernel BUG $1", NULL, 0 },
};

static struct fmt_def object_free_fmts[] = {
	{ "BUG kmalloc-.*: Object already free", NULL,
	  "BUG: Object already free", NULL, 0 },
};

static struct fmt_def divide_fmts[] = {
	{ "divide error: ", NULL, "divide error in $1", RIP_ONLY, 0 },
};

static struct fmt_def divide2_fmts[] = {
	{ "divide_error: ", NULL, "divide error in $1", RIP_ONLY, 0 },
};

static struct fmt_def opcode_fmts[] = {
	{ "invalid opcode: ", NULL, "invalid opcode in $1", RIP_ONLY, 0 },
};

static struct fmt_def int3_fmts[] = {
	{ "int3: ", NULL, "int3 in $1", RIP_TRACE_STACK(NULL), 0 },
};

static struct fmt_def ubsan_fmts[] = {
	{ "UBSAN:", "UBSAN: Undefined behaviour in",
	  "UBSAN: undefined-behaviour in $1", TRACE_STACK("ubsan", "overflow"),
	  0 },
	{ "UBSAN: array-index-out-of-bounds in", NULL,
	  "UBSAN: array-index-out-of-bounds in $1",
	  TRACE_STACK("ubsan", "overflow"), 0 },
	{ "UBSAN:", "UBSAN: (.*?) in", "UBSAN: $1 in $2",
	  TRACE_STACK("ubsan", "overflow"), 0 },
};

static struct fmt_def reboot_fmts[] = {
	{ "^Booting the kernel", NULL, "unexpected kernel reboot", NULL,
	  F_NOSTACK },
};

static struct fmt_def netdev_fmts[] = {
	{ "unregister_netdevice: waiting for (?:.*) to become free", NULL,
	  "unregister_netdevice: waiting for DEV to become free", NULL,
	  F_NOSTACK },
};

static struct fmt_def vfs_close_fmts[] = {
	{ "VFS: Close: file count is 0", NULL,
	  "VFS: Close: file count is zero (use-after-free)", NULL, F_NOSTACK },
};

static struct fmt_def vfs_busy_fmts[] = {
	{ "VFS: Busy inodes after unmount", NULL,
	  "VFS: Busy inodes after unmount (use-after-free)", NULL, F_NOSTACK },
};

static struct fmt_def internal_fmts[] = {
	{ "Internal error:", NULL, "Internal error in $1",
	  RIP_TRACE_STACK(NULL), 0 },
};

static struct fmt_def unhandled_fmts[] = {
	{ "Unhandled fault:", NULL, "Unhandled fault in $1",
	  RIP_TRACE_STACK(NULL), 0 },
};

static struct fmt_def alignment_fmts[] = {
	{ "Alignment trap:", NULL, "Alignment trap in $1",
	  RIP_TRACE_STACK(NULL), 0 },
};

static struct fmt_def trusty_fmts[] = {
	{ "trusty: panic.* ASSERT FAILED",
	  "trusty: panic \\(.*?\\):(?: DEBUG)? ASSERT FAILED at \\(.*?\\): (.+)",
	  "trusty: ASSERT FAILED: $1", NULL, F_NOSTACK },
	{ "trusty: panic.* ASSERT FAILED.*: *(.*)", NULL,
	  "trusty: ASSERT FAILED: $1", NULL, F_CORRUPTED },
	{ "trusty: panic", "trusty: panic \\(.*?\\): (.+)", "trusty: panic: $1",
	  NULL, F_NOSTACK },
};

/*
 * The crash(8) utility's "bt" of a kdump (enterprise distributions ask
 * for one): "PID: 61755  TASK: ffff..  CPU: 6  COMMAND: "kworker/u40:3"",
 * then "#0 [ffffc90006b6fae8] machine_kexec at ffffffff8106af4e" frames
 * and, for an exception, "[exception RIP: func+111]".  The dump's own
 * frames (kexec, panic, die, oops_end: cl_generic_frames) and the fault
 * handling below the exception never name the crash.
 */
#define CRASH_BT_SKIP                                                  \
	"bad_area", "^no_context", "fixup_or_oops", "user_addr_fault", \
		"handle_bug", "exc_invalid_op"

static struct fmt_def crash_bt_fmts[] = {
	{ "PID: +[0-9]+ +TASK: +[0-9a-f]+ +CPU: +[0-9]+ +COMMAND: ", NULL,
	  "crash dump in $1",
	  &(struct stack_def){ .parts = { "\\[exception RIP: " FUNC, STACK },
			       .parts2 = { STACK },
			       .skip = { CRASH_BT_SKIP } },
	  0 },
};

static struct fmt_def go_fmts[] = {
	{ "fatal error:", NULL, "go runtime error", NULL, F_NOSTACK },
};

static struct fmt_def syzfail_fmts[] = {
	{ "SYZFAIL:(.*)", NULL, "SYZFAIL:$1", NULL, F_NOSTACK },
};

static struct fmt_def syzfatal_fmts[] = {
	{ "SYZFATAL:(.*)()", NULL, "SYZFATAL:$1", NULL, F_NOSTACK },
};

static struct fmt_def gopanic_fmts[] = {
	{ "panic: Sentry detected .* stuck task", NULL,
	  "panic: Sentry detected stuck tasks", NULL, F_NOSTACK },
	{ "panic:(.*)", NULL, "panic:$1", NULL, F_NOSTACK },
};

#define OOPS(h, f, ...)                                                       \
	{                                                                     \
		.header = h, .fmts = f, .nfmts = ARRAY_SIZE(f), .suppress = { \
			__VA_ARGS__                                           \
		}                                                             \
	}

/* Table order decides which header a line is taken for. */
struct oops_def cl_oopses[] = {
	OOPS("BUG:", bug_fmts, "ODEBUG:", "Boot_DEBUG:", "xlog_status:",
	     "DEBUG:", "BUG: no syscalls can create resource"),
	OOPS("WARNING:", warning_fmts,
	     "WARNING: /etc/ssh/moduli does not exist, using fixed modulus",
	     "WARNING: workqueue cpumask: online intersect > possible intersect",
	     "WARNING: [Tt]he mand mount option",
	     "WARNING: Unsupported flag value\\(s\\) of 0x%x in DT_FLAGS_1",
	     "WARNING: Unprivileged eBPF is enabled with eIBRS",
	     "WARNING: fbcon: Driver '(.*)' missed to adjust virtual screen size",
	     "WARNING: See https.* for mitigation options.",
	     "WARNING: kernel not compiled with CPU_SRSO",
	     "EXT4-[Ff][Ss](?: \\(.*\\))?:",
	     "(?i)warning: .* uses (deprecated v2 capabilities|wireless extensions)",
	     "XFS \\(\\w+\\): WARNING"),
	OOPS("INFO:", info_fmts, "INFO: lockdep is turned off",
	     "INFO: Stall ended before state dump start", "INFO: NMI handler",
	     "INFO: recovery required on readonly filesystem",
	     "(handler|interrupt).*took too long",
	     "INFO: sys_.* is not present in /proc/kallsyms",
	     "INFO: no syscalls can create resource",
	     "rmt_storage:INFO:", "_INFO:"),
	OOPS("Unable to handle kernel", unable_fmts),
	OOPS("general protection fault", gpf_fmts,
	     "general protection fault .* error:\\d+ in "),
	OOPS("stack segment: ", segment_fmts),
	OOPS("Kernel panic", panic_fmts),
	OOPS("PANIC: double fault", double_fault_fmts),
	OOPS("rust_kernel: panicked", rust_fmts),
	OOPS("kernel BUG", kernel_bug_fmts),
	OOPS("Kernel BUG", kernel_bug2_fmts),
	OOPS("BUG kmalloc-", object_free_fmts),
	OOPS("divide error:", divide_fmts),
	OOPS("divide_error:", divide2_fmts),
	OOPS("invalid opcode:", opcode_fmts),
	OOPS("int3:", int3_fmts),
	OOPS("UBSAN:", ubsan_fmts),
	OOPS("Booting the kernel.", reboot_fmts,
	     "Parsing ELF|Decompressing Linux|Unknown parameter '"),
	OOPS("unregister_netdevice: waiting for", netdev_fmts),
	OOPS("VFS: Close: file count is 0", vfs_close_fmts),
	OOPS("VFS: Busy inodes after unmount", vfs_busy_fmts),
	OOPS("Internal error:", internal_fmts),
	OOPS("Unhandled fault:", unhandled_fmts),
	OOPS("Alignment trap:", alignment_fmts),
	OOPS("trusty: panic", trusty_fmts),
	{ .header = "fatal error:",
	  .fmts = go_fmts,
	  .nfmts = ARRAY_SIZE(go_fmts),
	  .suppress = { "ALSA", "fatal error: cannot create timer" },
	  .flags = O_LINE_START },
	OOPS("SYZFAIL:", syzfail_fmts),
	OOPS("SYZFATAL:", syzfatal_fmts),
	{ .header = "panic:",
	  .fmts = gopanic_fmts,
	  .nfmts = ARRAY_SIZE(gopanic_fmts),
	  .suppress = { "_panic:", "xlog_status:", "ddb\\.onpanic:",
			"evtlog_status:" },
	  .flags = O_LINE_START },
	{ .header = "PID: ",
	  .fmts = crash_bt_fmts,
	  .nfmts = ARRAY_SIZE(crash_bt_fmts),
	  /* only the first line of a crash(8) "bt" */
	  .suppress = { "^(?![> \\t]*PID: +[0-9]+ +TASK: +[0-9a-f]+ +CPU: +[0-9]+ +COMMAND: )" },
	  .flags = O_LINE_START },
};

/*
 * Frames that never name a crash: the sanitizer and debugging runtime,
 * printing and reporting, locking, atomics, allocation, string, list
 * and user-copy helpers, generic device and work-queue teardown.  The
 * first frame not matched here (nor by the format's own list) names
 * the crash.
 */
const char *const cl_generic_frames[] = {
	/* sanitizers and debugging runtime */
	"__sanitizer",
	"__asan",
	"kasan",
	"hwasan",
	"__msan",
	"kmsan",
	"kcsan_setup_watchpoint",
	"check_memory_region",
	"check_heap_object",
	"^usercopy_abort$",
	"check_object",
	"read_word_at_a_time",
	"_nocheck",
	"print_address_description",
	"print_report",
	"print_usage_bug",
	"print_unlock",
	"imbalance_bug",
	"print_tainted",
	"^get_taint$",
	"debug_object",
	"timer_is_static_object",
	"work_is_static_object",
	"lockdep",
	"__fortify_report",
	"assertfail",
	/* traps, dumping and warning machinery */
	"panic",
	"invalid_op",
	"report_bug",
	"fixup_bug",
	"do_error",
	"_trap$",
	"do_trap",
	"show_stack",
	"dump_stack",
	"walk_stack",
	"dump_backtrace",
	"warn_slowpath",
	"warn_alloc",
	"warn_bogus",
	"__warn",
	"stack_trace_consume_entry",
	"arch_stack_walk",
	"stack_trace_save",
	"program_check_exception",
	"program_check_common",
	"do_kernel_fault",
	"do_translation_fault",
	"do_mem_abort",
	"el1_abort",
	"el1h_64_sync",
	"__phys_addr",
	/* a kdump's own frames before the crash (crash(8) "bt") */
	"^machine_kexec$",
	"^__crash_kexec$",
	"^crash_kexec$",
	"^oops_end$",
	"^die$",
	"^die_kernel_fault$",
	"^page_fault_oops$",
	"^exc_page_fault$",
	"^asm_exc_page_fault$",
	"^bug_handler$",
	"^call_break_hook$",
	"^brk_handler$",
	"^do_debug_exception$",
	"^el1_dbg$",
	/* allocation and page cache helpers */
	"alloc_page",
	"malloc",
	"zalloc",
	"calloc",
	"krealloc",
	"kmem_cache",
	"allocate_slab",
	"__alloc_frozen_pages",
	"folio_alloc",
	"folio_unlock",
	"filemap_alloc_folio",
	"__filemap_get_folio",
	"find_or_create_page",
	"do_read_cache_folio",
	"read_cache_page",
	"pagecache_get_page",
	"grab_cache_page_write_begin",
	"slab_",
	"^kfree$",
	"^kvfree$",
	"kfree_skb",
	"xas_start",
	"xas_load",
	"xas_find",
	"find_lock_entries",
	"truncate_inode_pages_range",
	/* locking */
	"bh_enable",
	"bh_disable",
	"perf_trace",
	"lock_acquire",
	"lock_release",
	"lock_class",
	"mark_lock",
	"reacquire_held_locks",
	"mark_held_locks",
	"raw_spin_rq",
	"spin_lock",
	"spin_trylock",
	"spin_unlock",
	"read_lock",
	"read_trylock",
	"write_lock",
	"write_trylock",
	"read_unlock",
	"write_unlock",
	"^down$",
	"down_read",
	"down_write",
	"down_trylock",
	"up_read",
	"up_write",
	"^mutex_",
	"^__mutex_",
	"^rt_mutex_",
	"owner_on_cpu",
	"osq_lock",
	"osq_unlock",
	"trace_hardirq",
	"trace_softirq",
	"lockdep_hardirq",
	"lockdep_softirq",
	"^lock_page",
	"^unlock_page",
	"lock_timer_base",
	/* atomics, bit operations, reference counts */
	"atomic_dec",
	"atomic_inc",
	"atomic_read",
	"atomic_set",
	"atomic_or",
	"atomic_xor",
	"atomic_and",
	"atomic_add",
	"atomic_sub",
	"atomic_fetch",
	"atomic_xchg",
	"atomic_cmpxchg",
	"atomic_try",
	"atomic64_dec",
	"atomic64_inc",
	"atomic64_read",
	"atomic64_set",
	"atomic64_or",
	"atomic64_xor",
	"atomic64_and",
	"atomic64_add",
	"atomic64_sub",
	"atomic64_fetch",
	"atomic64_xchg",
	"atomic64_cmpxchg",
	"atomic64_try",
	"set_bit",
	"clear_bit",
	"change_bit",
	"test_bit",
	"__wake_up",
	"^refcount_",
	"^kref_",
	"ref_tracker",
	"seqprop_assert",
	/* strings, memory, printing */
	"memcpy",
	"memcmp",
	"memset",
	"memchr",
	"memmove",
	"memdup",
	"strcmp",
	"strncmp",
	"strcpy",
	"strlcpy",
	"strncpy",
	"strscpy",
	"strlen",
	"strstr",
	"strnstr",
	"strnlen",
	"strchr",
	"strdup",
	"strndup",
	"string",
	"pointer",
	"snprintf",
	"scnprintf",
	"kasprintf",
	"kvasprintf",
	"printk",
	"va_format",
	"hex_dump_to_buffer",
	"print_hex_dump",
	"dev_info",
	"dev_notice",
	"dev_warn",
	"dev_err",
	"dev_alert",
	"dev_crit",
	"dev_emerg",
	"^crc0",
	"^crc1",
	"^crc2",
	"^crc3",
	"^crc4",
	"^crc5",
	"^crc6",
	"^crc7",
	"^crc8",
	"^crc9",
	"crc_itu_t",
	/* user copies and sleeping checks */
	"copy_to_user",
	"copy_from_user",
	"copy_to_iter",
	"copy_from_iter",
	"copy_page_to_iter",
	"copy_page_from_iter",
	"copy_folio_to_iter",
	"^copyin$",
	"^copyout$",
	"put_user",
	"get_user",
	"might_fault",
	"might_sleep",
	"__might_resched",
	"extract_user_to_sg",
	"extract_iter_to_sg",
	/* lists and trees */
	"list_add",
	"list_del",
	"list_replace",
	"list_move",
	"list_splice",
	"^rb_",
	"^__rb_",
	"^klist_",
	"rhashtable_lookup",
	/* retpolines, MMIO accessors */
	"_indirect_thunk_",
	"readb$",
	"readw$",
	"readl$",
	"readq$",
	"writeb$",
	"writew$",
	"writel$",
	"writeq$",
	"logic_in",
	"logic_out",
	/* timers, work, completion */
	"del_timer",
	"__timer_delete_sync",
	"sk_stop_timer_sync",
	"__mod_timer",
	"flush_work",
	"__cancel_work_timer",
	"cancel_work_sync",
	"try_to_grab_pending",
	"flush_workqueue",
	"drain_workqueue",
	"destroy_workqueue",
	"queue_work",
	"insert_work",
	"__queue_delayed_work",
	"queue_delayed_work_on",
	"finish_wait",
	"kthread_stop",
	"^complete$",
	"wait_for_completion",
	"cleanup_srcu_struct",
	/* device model, USB core, networking teardown */
	"kobject_",
	"add_uevent_var",
	"get_device_parent",
	"device_add",
	"device_del",
	"device_unregister",
	"device_destroy",
	"device_release",
	"devres_release_all",
	"hwrng_unregister",
	"i2c_del_adapter",
	"__unregister_client",
	"device_for_each_child",
	"rollback_registered",
	"unregister_netdev",
	"sysfs_remove",
	"device_remove_file",
	"tty_unregister_device",
	"^put_device$",
	"ida_free",
	"dummy_urb_enqueue",
	"usb_kill_urb",
	"usb_kill_anchored_urbs",
	"usb_control_msg",
	"usb_hcd_submit_urb",
	"usb_submit_urb",
	/* inode and dentry references */
	"^iput$",
	"^iput_final$",
	"^ihold$",
	"drop_nlink",
	"fast_dput",
	"dput",
	"mark_buffer_dirty",
	"kmemleak",
	"__ubsan_handle",
};
const size_t cl_ngeneric_frames = ARRAY_SIZE(cl_generic_frames);

/* Frames where a looping (stalled) stack is named by the one before. */
const char *const cl_stall_anchors[] = {
	"process_one_work",
	"do_syscall_",
	"do_fast_syscall_",
	"sysenter_dispatch",
	"tracesys_phase2",
	"el0_svc_handler",
	"invoke_syscall",
	"ret_fast_syscall",
	"netif_receive_skb",
	"do_softirq",
	"call_timer_fn",
	"_run_timers",
	"run_timer_softirq",
	"hrtimer_run",
	"run_ksoftirqd",
	"smpboot_thread_fn",
	"^kthread$",
	"start_secondary",
	"cpu_startup_entry",
	"ret_from_fork",
	"vfs_write",
	"vfs_read",
	"vfs_iter_read",
	"vfs_iter_write",
	"do_iter_read",
	"do_iter_write",
	"call_read_iter",
	"call_write_iter",
	"new_sync_read",
	"new_sync_write",
	"vfs_ioctl",
	"ksys_ioctl",
	"compat_ioctl",
	"compat_sys_ioctl",
	"blkdev_driver_ioctl",
	"blkdev_ioctl",
	"do_iter_readv_writev",
	"^call_mmap",
	"mmap_region",
	"do_mmap",
	"do_dentry_open",
	"vfs_open",
	"^sock_sendmsg",
	"^sock_recvmsg",
	"^sock_release",
	"^__sock_release",
	"^setsockopt$",
	"kernel_setsockopt",
	"sock_common_setsockopt",
	"^listen$",
	"kernel_listen",
	"sk_common_release",
	"^sock_mmap",
	"^accept$",
	"kernel_accept",
	"^sock_do_ioctl",
	"^sock_ioctl",
	"^compat_sock_ioctl",
	"^nfnetlink_rcv_msg",
	"^rtnetlink_rcv_msg",
	"^netlink_dump",
	"^socketpair",
	"^connect",
	"^ioctl",
	"^sys_socketpair",
	"^sys_connect",
	"^sys_ioctl",
	"__do_fault",
	"do_page_fault",
	"^page_fault$",
	"__fput",
	"task_work_run",
	"exit_to_usermode",
	"smp_call_function",
	"tasklet_action",
	"tasklet_hi_action",
};
const size_t cl_nstall_anchors = ARRAY_SIZE(cl_stall_anchors);

/* Frames a hung task merely waits in. */
const char *const cl_hang_skips[] = {
	"sched",       "_lock",		 "_slowlock",	"down",
	"rwsem",       "completion",	 "kthread",	"wait",
	"synchronize", "context_switch", "__switch_to", "cancel_delayed_work",
	"rcu_barrier",
};
const size_t cl_nhang_skips = ARRAY_SIZE(cl_hang_skips);

/* Syscall entry decorations removed before a frame names a title. */
const char *const cl_frame_prefixes[] = {
	"SYSC_",     "SyS_",	  "sys_",	  "__x64_",	 "__ia32_",
	"__arm64_",  "____sys_",  "___sys_",	  "__sys_",	 "__se_",
	"__se_sys_", "__do_sys_", "compat_SYSC_", "compat_SyS_", "ksys_",
};
const size_t cl_nframe_prefixes = ARRAY_SIZE(cl_frame_prefixes);

/* Lines that start a stack trace. */
const char *const cl_stack_starts[] = {
	"Call (?:T|t)race",
	"Allocated:",
	"Allocated by task [0-9]+:",
	"Freed:",
	"Freed by task [0-9]+:",
	"[^k] backtrace(?: \\(crc [[:xdigit:]]*\\))?:",
	"Backtrace:",
	"Uninit was stored to memory at",
	"status: [0-9a-f]{16} badaddr: [0-9a-f]{16} cause: [0-9a-f]{16}",
};

/* Lines that are frames. */
const char *const cl_frame_res[] = {
	"^[ \\t]*(?:" PC " ){0,2}" FUNC,
	"^[ \\t]*" PC " \\(([a-zA-Z0-9_.]+)\\) from " PC " \\(" FUNC,
};

/* Title clean-up, applied in order, each until nothing changes. */
const struct title_rewrite cl_title_rewrites[] = {
	{ "syz-executor\\.?[0-9]+((/|:)[0-9]+)?", "syz-executor" },
	{ "syzkaller[0-9]+((/|:)[0-9]+)?", "syzkaller" },
	{ "([^a-zA-Z0-9])(?:0x)?[0-9a-f]{6,}", "${1}ADDR" },
	{ "([0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3})", "IP" },
	{ "(\\.\\w+)(:[0-9]+)+", "${1}:LINE" },
	{ "([a-zA-Z][a-zA-Z0-9_.]+)\\+0x[0-9a-z]+/0x[0-9a-z]+", "${1}" },
	{ "CPU#[0-9]+", "CPU" },
	{ "(\\W)(\\d+)(\\W|$)", "${1}NUM${3}" },
	{ "(\\d+){7,}", "NUM" },
};

/*
 * Files never guilty (syzkaller's 41 rules, and four of our own): headers, libraries, the
 * memory allocator and sanitizer runtime, core scheduling, locking,
 * RCU, timers, work queues, the net core and fault/trap handling.
 * Syntax: "^" anchors at the start, "." is any character, ".*" any
 * run, "\\." a dot; a pattern matches a prefix (or, without "^", any
 * substring) of the path.
 */
const char *const cl_guilty_ignores[] = {
	"\\.h",
	"^lib/",
	"^virt/lib/",
	"^mm/kasan/",
	"^mm/kmsan/",
	"^kernel/kcov.c",
	"^mm/sl.b.c",
	"^mm/filemap.c",
	"^mm/folio-compat.c",
	"^mm/truncate.c",
	"^mm/memory.c",
	"^mm/percpu",
	"^mm/vmalloc.c",
	"^mm/page_alloc.c",
	"^mm/mempool.c",
	"^mm/util.c",
	"^kernel/rcu/",
	"^arch/.*/kernel/traps.c",
	"^arch/.*/kernel/unwind.*.c",
	"^arch/.*/mm/fault.c",
	"^arch/.*/mm/physaddr.c",
	"^arch/.*/kernel/stacktrace.c",
	/* show_stack() and the dumper: every arch has one, and the index
	 * gives a riscv or arm64 trace's show_stack x86's file */
	"^arch/.*/kernel/dumpstack.*.c",
	"^arch/.*/kernel/apic/apic.c",
	"^arch/arm64/kernel/entry.*.c",
	"^arch/arm64/kernel/process\\.c",
	/* ret_from_fork() is C in arch/x86/kernel/process.c since 6.1; the
	 * entry code (arch's and kernel/entry/) and schedule_timeout() (kernel/time/sleep_timeout.c
	 * since 6.13) are as generic as traps.c and timer.c */
	"^arch/x86/kernel/process\\.c",
	"^arch/x86/entry/",
	"^kernel/entry/",
	"^kernel/time/sleep_timeout.c",
	"^kernel/locking/",
	"^kernel/panic.c",
	"^kernel/printk/printk.*.c",
	"^kernel/softirq.c",
	"^kernel/kthread.c",
	"^kernel/sched/.*.c",
	"^kernel/stacktrace.c",
	"^kernel/time/timer.c",
	"^kernel/workqueue.c",
	"^net/core/dev.c",
	"^net/core/sock.c",
	"^net/core/skbuff.c",
	"^fs/proc/generic.c",
	"^trusty/",
	"^drivers/usb/core/urb.c",
	"^arch/.*/lib/crc",
};
const size_t cl_nguilty_ignores = ARRAY_SIZE(cl_guilty_ignores);

/*
 * Core code a driver's or a filesystem's work passes through, beyond
 * the files above: a maintainer reading the trace looks past it to the
 * caller (crashlog_core_path(): the guilty-file choice skips it, and a
 * section's evidence in it counts half, sections.c).  The device
 * model's own files (its directories are subsystems: regmap,
 * firmware_loader, power), IRQ and DMA handling, the IOMMU API glue
 * (not the vendor drivers below it), timers, deferred-work runners,
 * netlink, the LSM hook dispatcher, the exit path an oops takes, the
 * syscall and interrupt entry code, the arch's IRQ, IPI and paravirt
 * glue, the suspend core every driver's resume passes, ACPI's OS
 * layer, the library code a subsystem calls: the mmap lock's wrappers
 * (a lockdep chain names them whoever took the lock), and an
 * algorithm's generic C implementation (crypto/xxhash_generic.c under
 * btrfs's checksum; crashlog_core_path() itself).  Same syntax as
 * cl_guilty_ignores[]; cl_core_dirs[] are directories whose files
 * directly in them count (not those in subdirectories).
 */
const char *const cl_core_paths[] = {
	"^kernel/irq/",
	"^kernel/irq_work.c",
	"^kernel/dma/",
	"^kernel/time/",
	"^kernel/task_work.c",
	"^kernel/async.c",
	"^kernel/smpboot.c",
	"^kernel/exit.c",
	"^kernel/entry/",
	"^kernel/power/main.c",
	"^net/netlink/",
	"^security/security.c",
	"^mm/mmap_lock.c",
	"^drivers/acpi/osl.c",
	"^arch/.*/kernel/irq",
	"^arch/.*/kernel/smp\\.c",
	"^arch/.*/kernel/paravirt",
	"^arch/x86/kernel/apic/",
	"^arch/x86/entry/",
	"^arch/arm64/kernel/entry",
};
const size_t cl_ncore_paths = ARRAY_SIZE(cl_core_paths);
const char *const cl_core_dirs[] = { "drivers/base/", "drivers/iommu/" };
const size_t cl_ncore_dirs = ARRAY_SIZE(cl_core_dirs);

/* Lines whose file is never guilty (lockdep state and lock lists). */
const char *const cl_guilty_line_ignores[] = {
	"(hardirqs|softirqs)\\s+last\\s+(enabled|disabled)",
	"^Register r\\d+ information",
	", at: ",
	"^\\s*#\\d+: ",
};

/* Messages that carry a stack but are no crash: a later report. */
const char *const cl_info_with_stack[] = {
	"vmalloc: allocation failure:",
	"FAULT_INJECTION: forcing a failure",
	"FAULT_FLAG_ALLOW_RETRY missing",
};
const size_t cl_ninfo_with_stack = ARRAY_SIZE(cl_info_with_stack);

/* Crash headers that can appear inside another report. */
const char *const cl_report_start_ignores[] = {
	"invalid opcode: 0000",
	"Kernel panic - not syncing",
	"unregister_netdevice: waiting for",
	"PANIC: double fault",
	"Internal error:",
};
const size_t cl_nreport_start_ignores = ARRAY_SIZE(cl_report_start_ignores);

/* Sections after which a KASAN/KMSAN report's stacks are secondary. */
const char *const cl_frame_stops[] = {
	"Allocated by task",
	"Freed by task",
	"The buggy address belongs",
	"Uninit was created at",
	"Memory state around the buggy address",
	"Last potentially related work creation",
};
const size_t cl_nframe_stops = ARRAY_SIZE(cl_frame_stops);

const char *const cl_stack_start_literals[] = {
	"Call Trace", "Call trace", "Allocated",	 "Freed",
	" backtrace", "Backtrace:", "Uninit was stored", "badaddr: ",
};
const size_t cl_nstack_start_literals = ARRAY_SIZE(cl_stack_start_literals);
