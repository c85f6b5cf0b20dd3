// SPDX-License-Identifier: GPL-2.0-only
/*
 * crashlog - kernel crash reports in console logs (see crashlog.h)
 *
 * The parser follows the shape of syzkaller's pkg/report Linux reporter
 * (a header table, a list of title formats per header, stack "parts"
 * that walk the report to the frame naming the crash) so that titles
 * and guilty files agree with the ones syzbot mails carry.  The tables
 * here are written for this program from the kernel's own messages.
 *
 * Speed matters (the filter runs once per message): a line is tested
 * against all crash headers at once through a bigram index, generic
 * frame names likewise, and pcre2 only runs on the extracted report.
 */
#define PCRE2_CODE_UNIT_WIDTH 8

#include <ctype.h>
#include <pcre2.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crashlog.h"
#include "image.h"
#include "litset.h"
#include "strbuf.h"
#include "util.h"

#define MATCH_LIMIT    50000
#define DEPTH_LIMIT    10000
#define MAX_ARGS       12
#define MAX_RAW_FRAMES 512
#define TITLE_MAX      120
#define REPORT_MAX     (CRASHLOG_TEXT_MAX + 4096)
/* longer input lines are cut: no console line is that long */
#define LINE_MAX_LEN 4096
/* a report ends at the latest this many lines after its header */
#define REPORT_LINES_MAX 5000
#define FRAME_NAME_MAX	 128

/* Pieces of the title and stack regular expressions. */
#define FUNC \
	"([a-zA-Z0-9_]+)(?:\\.|\\+| \\((?=[a-zA-Z0-9_/.-]+\\.[a-zA-Z]+:[0-9]))"
#define PC  "\\[\\<?(?:0x)?[0-9a-f]+\\>?\\]"
#define SRC "([a-zA-Z0-9_/.-]+\\.[a-z]+:[0-9]+)"
#define RIP                                                               \
	"(?:IP|NIP|pc |PC is at):? (?:(?:[0-9]+:)?(?:" PC " +){0,2}" FUNC \
	"|(?:[0-9]+:)?0x[0-9a-f]+|(?:[0-9]+:)?" PC                        \
	" +\\[< *\\(null\\)>\\] +\\(null\\)|[0-9]+: +\\(null\\))"
#define CALLTRACE	"(?:Call (?:T|t)race:)|(?:Backtrace:)"
#define LINES		"(?:.*\\n)+?"
#define STACK		"\001" /* part: parse a stack trace here */
#define BIT(n)		((uint64_t)1 << (n))
#define BUILD_ASSERT(c) ((void)sizeof(char[(c) ? 1 : -1]))
#define HEADER_BITS	0xffffffffu /* G.lineset: oopses[] ids are below 32 */

/* ---- tables ---------------------------------------------------------- */

enum extractor {
	EXT_FIRST = 0, /* the first frame that is not skipped */
	EXT_STALL,     /* a representative frame of a looping stack */
	EXT_HANG,      /* the frame a hung task waits in */
};

struct stack_def {
	const char *parts[5];  /* NULL-terminated; STACK parses frames */
	const char *parts2[4]; /* tried when parts find no frame */
	const char *skip[16];  /* extra generic names, litset syntax */
	enum extractor extractor;
	/* compiled */
	pcre2_code *p[5], *p2[4];
	size_t np, np2;
	struct litset skipset;
};

enum {
	F_NOSTACK = 1 << 0,   /* no stack trace expected */
	F_CORRUPTED = 1 << 1, /* matching this format means a cut report */
};

struct fmt_def {
	const char *title;  /* regex locating the title */
	const char *report; /* regex that must match too; its groups are args */
	const char *fmt; /* "$1" .. "$9": groups, then the extracted frames */
	struct stack_def *stack;
	unsigned flags;
};

enum {
	O_LINE_START = 1 << 0, /* header must start the line (tool messages) */
};

struct oops_def {
	const char *header;
	struct fmt_def *fmts;
	const char *suppress[12]; /* regexes: a matching line is no crash */
	unsigned flags;
	size_t nfmts;
	/* compiled on first use (ensure_oops()) */
	pcre2_code *supp[12];
	size_t nsupp;
	size_t base; /* first index in G.title_re, G.report_re */
	bool compiled;
};

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
static struct oops_def oopses[] = {
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
};

/*
 * Frames that never name a crash: the sanitizer and debugging runtime,
 * printing and reporting, locking, atomics, allocation, string, list
 * and user-copy helpers, generic device and work-queue teardown.  The
 * first frame not matched here (nor by the format's own list) names
 * the crash.
 */
static const char *const generic_frames[] = {
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

/* Frames where a looping (stalled) stack is named by the one before. */
static const char *const stall_anchors[] = {
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

/* Frames a hung task merely waits in. */
static const char *const hang_skips[] = {
	"sched",       "_lock",		 "_slowlock",	"down",
	"rwsem",       "completion",	 "kthread",	"wait",
	"synchronize", "context_switch", "__switch_to", "cancel_delayed_work",
	"rcu_barrier",
};

/* Syscall entry decorations removed before a frame names a title. */
static const char *const frame_prefixes[] = {
	"SYSC_",     "SyS_",	  "sys_",	  "__x64_",	 "__ia32_",
	"__arm64_",  "____sys_",  "___sys_",	  "__sys_",	 "__se_",
	"__se_sys_", "__do_sys_", "compat_SYSC_", "compat_SyS_", "ksys_",
};

/* Lines that start a stack trace. */
static const char *const stack_starts[] = {
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
static const char *const frame_res[] = {
	"^[ \\t]*(?:" PC " ){0,2}" FUNC,
	"^[ \\t]*" PC " \\(([a-zA-Z0-9_.]+)\\) from " PC " \\(" FUNC,
};

/* Title clean-up, applied in order, each until nothing changes. */
static const struct {
	const char *re, *with;
} title_rewrites[] = {
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
 * Files never guilty (syzkaller's 41 rules): headers, libraries, the
 * memory allocator and sanitizer runtime, core scheduling, locking,
 * RCU, timers, work queues, the net core and fault/trap handling.
 * Syntax: "^" anchors at the start, "." is any character, ".*" any
 * run, "\\." a dot; a pattern matches a prefix (or, without "^", any
 * substring) of the path.
 */
static const char *const guilty_ignores[] = {
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
	"^arch/.*/kernel/apic/apic.c",
	"^arch/arm64/kernel/entry.*.c",
	"^arch/arm64/kernel/process\\.c",
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

/* Lines whose file is never guilty (lockdep state and lock lists). */
static const char *const guilty_line_ignores[] = {
	"(hardirqs|softirqs)\\s+last\\s+(enabled|disabled)",
	"^Register r\\d+ information",
	", at: ",
	"^\\s*#\\d+: ",
};

/* Messages that carry a stack but are no crash: a later report. */
static const char *const info_with_stack[] = {
	"vmalloc: allocation failure:",
	"FAULT_INJECTION: forcing a failure",
	"FAULT_FLAG_ALLOW_RETRY missing",
};

/* Crash headers that can appear inside another report. */
static const char *const report_start_ignores[] = {
	"invalid opcode: 0000",
	"Kernel panic - not syncing",
	"unregister_netdevice: waiting for",
	"PANIC: double fault",
	"Internal error:",
};

/* Sections after which a KASAN/KMSAN report's stacks are secondary. */
static const char *const frame_stops[] = {
	"Allocated by task",
	"Freed by task",
	"The buggy address belongs",
	"Uninit was created at",
	"Memory state around the buggy address",
	"Last potentially related work creation",
};

/* Literal markers tested on every line, see G.markers. */
enum {
	MK_DISABLING = 32, /* "Disabling lock debugging due to kernel taint" */
	MK_NMI,		   /* "Sending NMI from CPU" */
	MK_PANIC,	   /* "Kernel panic - not syncing" */
	MK_CIRCULAR,	   /* lockdep's circular dependency banner */
	MK_INFO_STACK,	   /* info_with_stack[] */
	MK_START_IGNORE,   /* report_start_ignores[] */
	MK_SHOULD_FAIL,	   /* fault injection frames */
	MK_STACK_START,	   /* literals every stack_starts[] match holds */
	MK_FRAME_STOP,	   /* frame_stops[] */
	MK_END_TRACE,	   /* "---[ end trace" */
	MK_ARM_FROM,	   /* ") from " of arm frames */
	MK_IGN_IRQ,	   /* "irqs" of lockdep's irq state lines */
	MK_IGN_REG,	   /* "Register r" */
	MK_IGN_AT,	   /* ", at: " */
};

static const char *const stack_start_literals[] = {
	"Call Trace", "Call trace", "Allocated",	 "Freed",
	" backtrace", "Backtrace:", "Uninit was stored", "badaddr: ",
};

/*
 * A title or report pattern.  "A(?:.*\n)+?.*B(?:.*\n)+?.*C" (LINES)
 * means: A, then the first later line holding B, then the first line
 * after that holding C.  A backtracking engine tries every line pair
 * when that fails, which is quadratic in the report, so such patterns
 * are split into segments matched line by line: A is searched in the
 * text, then "^.*B" and "^.*C" are tried on the following lines.  If
 * the rest fails after the first A (or B), it fails after any later
 * one, so the first is the only one worth trying; capture groups are
 * numbered across the segments as in the whole pattern.
 */
#define PAT_SEGS 4

struct pat {
	pcre2_code *seg[PAT_SEGS]; /* seg[0] searched, the rest per line */
	uint32_t ngroups[PAT_SEGS];
	size_t nseg;
	char lit[32]; /* a literal every match of seg[0] starts with */
	size_t litlen;
};

/* ---- compiled state -------------------------------------------------- */

static struct {
	pthread_once_t once;
	pthread_mutex_t lock; /* for the patterns compiled on first use */
	bool common;	      /* stack_start .. corrupted_line compiled */
	bool jit;
	pcre2_match_context *mctx;
	struct litset lineset; /* crash headers and markers, see MK_* */
	struct litset generic, anchors, hang;
	pcre2_code *stack_start[ARRAY_SIZE(stack_starts)];
	pcre2_code *frame_re[ARRAY_SIZE(frame_res)];
	pcre2_code *rewrite[ARRAY_SIZE(title_rewrites)];
	pcre2_code *line_ignore[ARRAY_SIZE(guilty_line_ignores)];
	pcre2_code *corrupted_line;
	pcre2_code *syslog;
	struct pat *title_re, *report_re;
} G = { .once = PTHREAD_ONCE_INIT, .lock = PTHREAD_MUTEX_INITIALIZER };

/*
 * rx_compile - compile a built-in pattern; patterns that walk lines
 * ("(?:.*\n)+?") stay with the interpreter, whose backtracking frames
 * live on the heap, the others are JIT-compiled when pcre2 can
 */
/*
 * The compiled-pattern cache: 'triage update' compiles every built-in
 * pattern once and writes each with pcre2_serialize_encode(), keyed by
 * its text; a filter process maps the file and decodes a pattern when
 * it is first asked for, instead of compiling it (compiling the
 * patterns of one crash type costs many times more).  Decoding all 340
 * at start cost every message, mostly for patterns of crash types the
 * message does not have.  Keyed by text, a cache from
 * another version of the program can only miss.
 *
 * File (native byte order; offsets from the start, 8-aligned parts):
 *	"TRIAGERX" u32 version u32 count u32 prefix u32 prefix_len
 *	u64 prefix_sum
 *	struct rxc_entry[count]		sorted by text (strcmp), unique
 *	texts, NUL-terminated
 *	prefix: what pcre2_serialize_encode() puts before the code of a
 *	single pattern (a header and 1 KB of character tables), the same
 *	for every pattern, so stored once
 *	codes: the rest of each pattern's serialisation
 * A pattern is decoded from prefix + code, put together again.  The
 * prefix and each code carry their img_sum(): pcre2_serialize_decode()
 * follows the lengths it reads, so damaged bytes must not reach it.
 */
struct rxc_entry {
	uint32_t text, text_len, code, code_len;
	uint32_t sum[2]; /* img_sum() of the code */
};

#define RXC_HEADER 32

struct rx_cached {
	char *text;
	pcre2_code *code;
};

#define RXC_BAD ((pcre2_code *)&C) /* an entry that did not decode */

static struct {
	const unsigned char *base; /* the mapped file */
	size_t size, n;		   /* bytes, entries */
	const struct rxc_entry *ent;
	const uint8_t *prefix;
	size_t prefix_len;
	pcre2_code **codes; /* decoded on first use, RXC_BAD if not */
	uint8_t *scratch;   /* the prefix, then the code being decoded */
	size_t scratch_len;
	bool recording; /* crashlog_save_patterns(): keep every compile */
	struct rx_cached *rec;
	size_t nrec, arec;
} C;

static int cmp_cached(const void *a, const void *b)
{
	return strcmp(((const struct rx_cached *)a)->text,
		      ((const struct rx_cached *)b)->text);
}

/* rxc_text - entry i's text, or NULL when the entry is damaged */
static const char *rxc_text(size_t i)
{
	const struct rxc_entry *e = &C.ent[i];

	if (e->text >= C.size || e->text_len >= C.size - e->text ||
	    C.base[e->text + e->text_len] != '\0')
		return NULL;
	return (const char *)C.base + e->text;
}

/* rxc_decode - entry i's pattern, decoded now if it was not; or NULL */
static pcre2_code *rxc_decode(size_t i)
{
	const struct rxc_entry *e = &C.ent[i];
	size_t n = C.prefix_len + e->code_len;
	uint8_t *blob;
	pcre2_code *code = NULL;

	if (C.codes[i])
		return C.codes[i] == RXC_BAD ? NULL : C.codes[i];
	C.codes[i] = RXC_BAD;
	if (!img_range_ok(C.size, e->code, e->code_len, 1, 8) ||
	    e->code_len < 16)
		return NULL;
	{
		uint64_t sum = img_sum(C.base + e->code, e->code_len);

		if (memcmp(&sum, e->sum, 8) != 0)
			return NULL;
	}
	if (n > C.scratch_len) {
		/* room for the largest code so far, after the prefix */
		free(C.scratch);
		C.scratch = xmalloc(n);
		C.scratch_len = n;
		memcpy(C.scratch, C.prefix, C.prefix_len);
	}
	blob = C.scratch;
	memcpy(blob + C.prefix_len, C.base + e->code, e->code_len);
	if (pcre2_serialize_get_number_of_codes(blob) != 1 ||
	    pcre2_serialize_decode(&code, 1, blob, NULL) != 1)
		return NULL;
	C.codes[i] = code;
	return code;
}

/* rx_cached - the precompiled pattern for re, or NULL */
static pcre2_code *rx_cached(const char *re)
{
	size_t lo = 0, hi = C.n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *t = rxc_text(mid);
		int c;

		if (!t)
			return NULL; /* damaged: compile instead */
		c = strcmp(re, t);
		if (!c)
			return rxc_decode(mid);
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

static pcre2_code *rx_compile(const char *re)
{
	int err;
	PCRE2_SIZE off;
	pcre2_code *code = rx_cached(re);

	if (code) {
		if (G.jit && !strstr(re, "\\n"))
			pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);
		return code;
	}
	/* an offset limit may be set: describe()'s title search */
	code = pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED,
			     PCRE2_USE_OFFSET_LIMIT, &err, &off, NULL);
	if (!code) {
		PCRE2_UCHAR msg[256];

		pcre2_get_error_message(err, msg, sizeof(msg));
		die("crashlog: bad built-in regex at %zu (%s): %s", (size_t)off,
		    msg, re);
	}
	if (C.recording) {
		ALLOC_GROW(C.rec, C.nrec, C.arec);
		C.rec[C.nrec].text = xstrdup(re);
		C.rec[C.nrec++].code = code;
	}
	if (G.jit && !strstr(re, "\\n"))
		pcre2_jit_compile(code,
				  PCRE2_JIT_COMPLETE); /* else interpret */
	return code;
}

static uint32_t rx_groups(const pcre2_code *re);

/* top_level_alt - re has a "|" outside any group or class */
static bool top_level_alt(const char *re)
{
	int depth = 0;
	bool class = false;

	for (re = strpbrk(re, "\\[()|"); re; re = strpbrk(re + 1, "\\[()|")) {
		if (*re == '\\') {
			if (!*++re)
				break;
		} else if (*re == '[') {
			/* "[]...]" and "[^]...]": that "]" is a member */
			re += re[1] == '^';
			re += re[1] == ']';
			class = true;
		} else if (*re == '(') {
			depth++;
		} else if (*re == ')') {
			depth--;
		} else if (depth <= 0) {
			return true;
		}
		/* to the end of the class, "[:alpha:]" kept whole */
		while (class && *++re) {
			if (*re == '\\' && re[1])
				re++;
			else if (*re == '[' && re[1] == ':' && strstr(re, ":]"))
				re = strstr(re, ":]") + 1;
			else if (*re == ']')
				class = false;
		}
		if (!*re)
			break;
	}
	return false;
}

/*
 * leading_literal - the literal text every match of re starts with (the
 * patterns are compiled without options), at most cap - 1 bytes, into
 * buf; its length, 0 when there is none
 */
static size_t leading_literal(const char *re, char *buf, size_t cap)
{
	size_t n = strcspn(re, ".^$*+?()[]{}|\\");
	const char *p = re + n;

	if (n >= cap)
		n = cap - 1;
	memcpy(buf, re, n);
	while (*p == '\\' && n + 1 < cap) {
		/* an escaped punctuation byte is itself */
		if (!ispunct((unsigned char)p[1]))
			break;
		buf[n++] = p[1];
		p += 2;
		while (n + 1 < cap && *p && !strchr(".^$*+?()[]{}|\\", *p))
			buf[n++] = *p++;
	}
	/* "x?", "x*" and "x{0,..}" make the last byte optional */
	if (n && (*p == '?' || *p == '*' || *p == '{'))
		n--;
	if (n && top_level_alt(p))
		n = 0;
	buf[n] = '\0';
	return n;
}

static void pat_compile(struct pat *p, const char *re)
{
	const char *cut;
	char *buf = xstrdup(re), *part = buf;

	p->nseg = 0;
	p->litlen = 0;
	while ((cut = strstr(part, LINES)) && p->nseg + 1 < PAT_SEGS) {
		char *anchored;

		buf[cut - buf] = '\0';
		if (!p->nseg)
			p->litlen =
				leading_literal(part, p->lit, sizeof(p->lit));
		anchored = p->nseg ? xasprintf("^%s", part) : xstrdup(part);
		p->seg[p->nseg++] = rx_compile(anchored);
		free(anchored);
		part = (char *)cut + strlen(LINES);
	}
	if (p->nseg) {
		size_t n = strlen(part);
		char *anchored;

		/* a final "\n" is the end of that line */
		if (n >= 2 && !strcmp(part + n - 2, "\\n"))
			strcpy(part + n - 2, "$");
		anchored = xasprintf("^%s", part);

		p->seg[p->nseg++] = rx_compile(anchored);
		free(anchored);
	} else {
		p->litlen = leading_literal(part, p->lit, sizeof(p->lit));
		p->seg[p->nseg++] = rx_compile(part);
	}
	for (size_t i = 0; i < p->nseg; i++)
		p->ngroups[i] = rx_groups(p->seg[i]);
	free(buf);
}

static void compile_stack(struct stack_def *st)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(st->parts) && st->parts[i]; i++)
		st->p[i] = strcmp(st->parts[i], STACK)
				   ? rx_compile(st->parts[i])
				   : NULL;
	st->np = i;
	for (i = 0; i < ARRAY_SIZE(st->parts2) && st->parts2[i]; i++)
		st->p2[i] = strcmp(st->parts2[i], STACK)
				    ? rx_compile(st->parts2[i])
				    : NULL;
	st->np2 = i;
	for (i = 0; i < ARRAY_SIZE(st->skip) && st->skip[i]; i++)
		;
	litset_init(&st->skipset, false);
	litset_add_all(&st->skipset, st->skip, i, 0);
}

static const char syslog_re[] =
	"^(?:[A-Z][a-z]{2} [ 0-9][0-9] [0-9]{2}:[0-9]{2}:[0-9]{2}|[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.+-]+)(?: [^ ]+)? (?:kernel:|\\[kernel\\]) ";

static void crashlog_init(void)
{
	size_t i, n;

	G.mctx = pcre2_match_context_create(NULL);
	if (!G.mctx)
		die("crashlog: out of memory");
	pcre2_set_match_limit(G.mctx, MATCH_LIMIT);
	pcre2_set_depth_limit(G.mctx, DEPTH_LIMIT);

	litset_init(&G.lineset, false);
	BUILD_ASSERT(ARRAY_SIZE(oopses) <= 32);
	for (i = 0, n = 0; i < ARRAY_SIZE(oopses); i++)
		n += oopses[i].nfmts;
	G.title_re = xcalloc(n, sizeof(*G.title_re));
	G.report_re = xcalloc(n, sizeof(*G.report_re));
	for (i = 0, n = 0; i < ARRAY_SIZE(oopses); i++) {
		struct oops_def *o = &oopses[i];

		litset_add(&G.lineset, o->header, (unsigned)i);
		o->base = n;
		n += o->nfmts;
	}
	litset_init(&G.generic, false);
	litset_add_all(&G.generic, generic_frames, ARRAY_SIZE(generic_frames),
		       0);
	litset_init(&G.anchors, false);
	litset_add_all(&G.anchors, stall_anchors, ARRAY_SIZE(stall_anchors), 0);
	litset_init(&G.hang, false);
	litset_add_all(&G.hang, hang_skips, ARRAY_SIZE(hang_skips), 0);
	litset_add(&G.lineset, "Disabling lock debugging due to kernel taint",
		   MK_DISABLING);
	litset_add(&G.lineset, "Sending NMI from CPU", MK_NMI);
	litset_add(&G.lineset, "Kernel panic - not syncing", MK_PANIC);
	litset_add(&G.lineset,
		   "WARNING: possible circular locking dependency detected",
		   MK_CIRCULAR);
	litset_add_all(&G.lineset, info_with_stack, ARRAY_SIZE(info_with_stack),
		       MK_INFO_STACK);
	litset_add_all(&G.lineset, report_start_ignores,
		       ARRAY_SIZE(report_start_ignores), MK_START_IGNORE);
	litset_add(&G.lineset, "should_fail", MK_SHOULD_FAIL);
	litset_add_all(&G.lineset, stack_start_literals,
		       ARRAY_SIZE(stack_start_literals), MK_STACK_START);
	litset_add_all(&G.lineset, frame_stops, ARRAY_SIZE(frame_stops),
		       MK_FRAME_STOP);
	litset_add(&G.lineset, "---[ end trace", MK_END_TRACE);
	litset_add(&G.lineset, ") from ", MK_ARM_FROM);
	litset_add(&G.lineset, "irqs", MK_IGN_IRQ);
	litset_add(&G.lineset, "Register r", MK_IGN_REG);
	litset_add(&G.lineset, ", at: ", MK_IGN_AT);
	G.syslog = rx_compile(syslog_re);
}

/*
 * A process started per message cannot afford to compile (let alone
 * JIT) some 200 patterns it mostly never uses.  Patterns of a crash
 * type are compiled when a header of that type is seen, the stack and
 * title patterns when a crash is being described.
 */

/* ensure_oops - compile the patterns of one crash type */
static void ensure_oops(const struct oops_def *co)
{
	struct oops_def *o = (struct oops_def *)co;
	size_t j;

	if (__atomic_load_n(&o->compiled, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&G.lock);
	if (!o->compiled) {
		for (j = 0; j < ARRAY_SIZE(o->suppress) && o->suppress[j]; j++)
			o->supp[j] = rx_compile(o->suppress[j]);
		o->nsupp = j;
		for (j = 0; j < o->nfmts; j++) {
			struct fmt_def *f = &o->fmts[j];

			pat_compile(&G.title_re[o->base + j], f->title);
			if (f->report)
				pat_compile(&G.report_re[o->base + j],
					    f->report);
			if (f->stack && !f->stack->np)
				compile_stack(f->stack);
		}
		__atomic_store_n(&o->compiled, true, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&G.lock);
}

/* ensure_common - compile the patterns every crash description uses */
static void ensure_common(void)
{
	size_t i;

	if (__atomic_load_n(&G.common, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&G.lock);
	if (!G.common) {
		for (i = 0; i < ARRAY_SIZE(stack_starts); i++)
			G.stack_start[i] = rx_compile(stack_starts[i]);
		for (i = 0; i < ARRAY_SIZE(frame_res); i++)
			G.frame_re[i] = rx_compile(frame_res[i]);
		for (i = 0; i < ARRAY_SIZE(title_rewrites); i++)
			G.rewrite[i] = rx_compile(title_rewrites[i].re);
		for (i = 0; i < ARRAY_SIZE(guilty_line_ignores); i++)
			G.line_ignore[i] = rx_compile(guilty_line_ignores[i]);
		/* fault injection stacks get mixed into crash reports */
		G.corrupted_line = rx_compile(
			"^( \\[\\<?(?:0x)?[0-9a-f]+\\>?\\])? should_fail(slab)?(\\.[a-z0-9.]+)?\\+0x");
		__atomic_store_n(&G.common, true, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&G.lock);
}

/* crashlog_use_jit - JIT-compile patterns (for resident processes) */
void crashlog_use_jit(bool on)
{
	G.jit = on;
}

static void init_once(void)
{
	if (pthread_once(&G.once, crashlog_init))
		die("crashlog: pthread_once failed");
}

/* ---- matching helpers ------------------------------------------------ */

struct rx {
	pcre2_match_data *md;
	pcre2_match_context *lim; /* G.mctx with an offset limit, or NULL */
};

/* rx_search - first match of re in s[0..len) at or after start */
static bool rx_search(struct rx *x, const pcre2_code *re, const char *s,
		      size_t len, size_t start)
{
	int rc = pcre2_match(re, (PCRE2_SPTR)s, len, start, 0, x->md, G.mctx);

	return rc >= 0;
}

/*
 * rx_search_before - the first match of re in s[0..len) that starts at
 * or before offset before: the same as rx_search() when the first
 * match starts there, no match when it starts later, but the search
 * stops at before instead of running to the end of the text
 */
static bool rx_search_before(struct rx *x, const pcre2_code *re, const char *s,
			     size_t len, size_t before, size_t from)
{
	uint32_t opts = 0;

	pcre2_pattern_info(re, PCRE2_INFO_ARGOPTIONS, &opts);
	if (before >= len || !(opts & PCRE2_USE_OFFSET_LIMIT))
		return rx_search(x, re, s, len, from);
	if (!x->lim) {
		x->lim = pcre2_match_context_copy(G.mctx);
		if (!x->lim)
			die("crashlog: out of memory");
	}
	pcre2_set_offset_limit(x->lim, before);
	return pcre2_match(re, (PCRE2_SPTR)s, len, from, 0, x->md, x->lim) >= 0;
}

static PCRE2_SIZE *rx_ov(struct rx *x)
{
	return pcre2_get_ovector_pointer(x->md);
}

static uint32_t rx_groups(const pcre2_code *re)
{
	uint32_t n = 0;

	pcre2_pattern_info(re, PCRE2_INFO_CAPTURECOUNT, &n);
	return n;
}

struct pmatch {
	size_t start; /* where the whole pattern matched */
	size_t ngroups;
	size_t gs[MAX_ARGS], ge[MAX_ARGS];
	bool set[MAX_ARGS];
};

static void pm_groups(struct rx *x, const pcre2_code *re, size_t base,
		      struct pmatch *m)
{
	PCRE2_SIZE *ov = rx_ov(x);
	uint32_t g, n = rx_groups(re);

	for (g = 1; g <= n && m->ngroups < MAX_ARGS; g++, m->ngroups++) {
		m->set[m->ngroups] = ov[2 * g] != PCRE2_UNSET;
		if (m->set[m->ngroups]) {
			m->gs[m->ngroups] = base + ov[2 * g];
			m->ge[m->ngroups] = base + ov[2 * g + 1];
		}
	}
}

/*
 * mem_find - memmem(s, len, lit, n), looking for its byte at k (one
 * rare in text) with memchr(): memmem()'s setup costs more than a short
 * console line
 */
static const char *mem_find(const char *s, size_t len, const char *lit,
			    size_t n, size_t k)
{
	const char *p = s + k, *end = s + len;

	if (len < n)
		return NULL;
	while ((p = memchr(p, lit[k], (size_t)(end - p)))) {
		const char *at = p - k;

		if ((size_t)(end - at) < n)
			return NULL;
		if (!memcmp(at, lit, n))
			return at;
		p++;
	}
	return NULL;
}

#define OCC_MAX 64

/*
 * Where a crash header occurs in a text, every occurrence in order (at
 * most OCC_MAX, else complete is false): the literals the titles start
 * with mostly start with the header, and are found among these.
 */
struct occ {
	const char *h;
	size_t hlen, n;
	size_t pos[OCC_MAX];
	bool complete;
};

static void occ_find(struct occ *oc, const char *h, const char *s, size_t len)
{
	const char *p = s, *q;
	size_t k = 0;

	oc->h = h;
	oc->hlen = strlen(h);
	oc->n = 0;
	oc->complete = false;
	if (!oc->hlen)
		return;
	/* an upper-case letter is rarer in a log than most */
	while (k + 1 < oc->hlen && !isupper((unsigned char)h[k]))
		k++;
	if (!isupper((unsigned char)h[k]))
		k = 0;
	while ((q = mem_find(p, len - (size_t)(p - s), h, oc->hlen, k))) {
		if (oc->n == OCC_MAX)
			return;
		oc->pos[oc->n++] = (size_t)(q - s);
		p = q + 1;
	}
	oc->complete = true;
}

/*
 * seg0_search - rx_search_before() of p->seg[0], whose matches all start
 * with p->lit.  Where oc holds every occurrence of a header the literal
 * starts with, the pattern is tried at each occurrence of the literal,
 * in order, as the search would (PCRE2_ANCHORED at that offset: the same
 * attempt, the subject kept whole for what is looked behind at), instead
 * of at every position from the start; else the search starts at the
 * literal's first occurrence.  No match starts after before.
 */
static bool seg0_search(struct rx *x, const struct pat *p, const char *s,
			size_t len, size_t before, const struct occ *oc)
{
	size_t lim, k;
	const char *h;

	if (!p->litlen)
		return rx_search_before(x, p->seg[0], s, len, before, 0);
	lim = before < len ? before + p->litlen : len;
	if (lim > len)
		lim = len;
	if (!oc || !oc->complete || p->litlen < oc->hlen ||
	    memcmp(p->lit, oc->h, oc->hlen)) {
		h = memmem(s, lim, p->lit, p->litlen);
		return h && rx_search_before(x, p->seg[0], s, len, before,
					     (size_t)(h - s));
	}
	for (k = 0; k < oc->n && oc->pos[k] + p->litlen <= lim; k++) {
		int rc;

		if (memcmp(s + oc->pos[k], p->lit, p->litlen))
			continue;
		rc = pcre2_match(p->seg[0], (PCRE2_SPTR)s, len, oc->pos[k],
				 PCRE2_ANCHORED, x->md, G.mctx);
		if (rc >= 0)
			return true;
		/* a limit reached ends the search, as it would */
		if (rc != PCRE2_ERROR_NOMATCH)
			return false;
	}
	return false;
}

/*
 * pat_search_before - the first match of p in s, when its first line
 * starts at or before offset before; its start and groups.  oc, if not
 * NULL, holds the occurrences of a header in s.
 */
static bool pat_search_before(struct rx *x, const struct pat *p, const char *s,
			      size_t len, size_t before, const struct occ *oc,
			      struct pmatch *m)
{
	size_t i, pos;

	m->ngroups = 0;
	if (!seg0_search(x, p, s, len, before, oc))
		return false;
	m->start = rx_ov(x)[0];
	pos = rx_ov(x)[1];
	pm_groups(x, p->seg[0], 0, m);
	for (i = 1; i < p->nseg; i++) {
		const char *nl = memchr(s + pos, '\n', len - pos);
		bool found = false;

		/* at least one newline: the next segment is on a later line */
		if (!nl)
			return false;
		pos = (size_t)(nl - s) + 1;
		while (pos <= len && !found) {
			const char *e = memchr(s + pos, '\n', len - pos);
			size_t ll = e ? (size_t)(e - (s + pos)) : len - pos;

			if (rx_search(x, p->seg[i], s + pos, ll, 0)) {
				pm_groups(x, p->seg[i], pos, m);
				pos += rx_ov(x)[1];
				found = true;
			} else if (!e) {
				break;
			} else {
				pos += ll + 1;
			}
		}
		if (!found)
			return false;
	}
	return true;
}

static bool mem_has(const char *s, size_t len, const char *needle)
{
	return memmem(s, len, needle, strlen(needle)) != NULL;
}

/* ---- console lines --------------------------------------------------- */

enum { CTX_NONE = 0, CTX_CONSOLE = 1 };

struct cline {
	const char *s; /* the line without quote markers */
	size_t len;
	const char *c; /* content after the console prefix */
	size_t clen;
	uint64_t ctx; /* CTX_*, or a task/CPU context */
	bool questionable;
	size_t next;	/* offset of the following line in the input */
	uint64_t mask;	/* G.lineset matches: crash headers and MK_* */
	uint64_t cmask; /* the same for c[0..clen), if cmask_ok */
	bool cmask_ok;	/* c[0..clen) ends s: cmask is known */
	int oops;	/* oops_match() once known, else OOPS_UNKNOWN */
};

#define OOPS_UNKNOWN (-2)

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* try_stamp - "<N>[  12.345678][ T123] " at s; end of prefix or 0 */
static size_t try_stamp(const char *s, size_t len, uint64_t *ctx)
{
	size_t i = 0;
	uint64_t n = 0;
	char kind;

	if (i < len && s[i] == '<') {
		for (i++; i < len && is_digit(s[i]); i++)
			;
		if (i == 1 || i >= len || s[i] != '>')
			return 0;
		i++;
	}
	if (i >= len || s[i] != '[')
		return 0;
	for (i++; i < len && s[i] == ' '; i++)
		;
	if (i >= len || !is_digit(s[i]))
		return 0;
	while (i < len && is_digit(s[i]))
		i++;
	if (i >= len || s[i] != '.')
		return 0;
	if (++i >= len || !is_digit(s[i]))
		return 0;
	while (i < len && is_digit(s[i]))
		i++;
	if (i >= len || s[i] != ']')
		return 0;
	i++;
	*ctx = CTX_CONSOLE;
	if (i < len && s[i] == '[') {
		size_t j = i + 1;

		while (j < len && s[j] == ' ')
			j++;
		if (j < len && (s[j] == 'C' || s[j] == 'T')) {
			kind = s[j++];
			if (j < len && is_digit(s[j])) {
				while (j < len && is_digit(s[j]) &&
				       n < 1u << 30)
					n = n * 10 + (uint64_t)(s[j++] - '0');
				if (j < len && s[j] == ']') {
					i = j + 1;
					*ctx = 2 +
					       ((uint64_t)(kind == 'T') << 32) +
					       n;
				}
			}
		}
	}
	if (i >= len || s[i] != ' ')
		return 0;
	return i + 1;
}

static bool ctx_is_task(uint64_t ctx)
{
	return ctx >= 2 && ((ctx - 2) >> 32) == 1;
}

static bool ctx_is_cpu(uint64_t ctx)
{
	return ctx >= 2 && ((ctx - 2) >> 32) == 0;
}

/* console_prefix - syzkaller's console line prefix; sets ctx */
static bool console_prefix(const char *s, size_t len, uint64_t *ctx)
{
	static const char dropped[] = "printk messages dropped ** ";
	const char *p = s;
	size_t n = len, k;

	if (n > 3 && has_prefix(p, p + n, "** ")) {
		const char *d = memmem(p, n, dropped, sizeof(dropped) - 1);

		if (d) {
			size_t skip = (size_t)(d - p) + sizeof(dropped) - 1;

			for (k = 3; k < skip - sizeof(dropped) + 1; k++)
				if (!is_digit(p[k]) && p[k] != ' ')
					break;
			if (k == skip - sizeof(dropped) + 1) {
				p += skip;
				n -= skip;
			}
		}
	}
	{
		/* greedy ".* login: ": the last occurrence that works */
		const char *pos[16];
		size_t np = 0;
		const char *q = p;

		while (np < ARRAY_SIZE(pos) &&
		       (q = memchr(q, ':', n - (size_t)(q - p)))) {
			if (has_suffix(p, q, " login") && q + 1 < p + n &&
			    q[1] == ' ')
				pos[np++] = q + 2;
			q++;
		}
		while (np--)
			if (try_stamp(pos[np], n - (size_t)(pos[np] - p), ctx))
				return true;
	}
	return try_stamp(p, n, ctx) != 0;
}

static const char *const months[] = {
	"Jan", "Feb", "Mar", "Apr", "May", "Jun",
	"Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
};

/* dmesg_t_prefix - "[Mon Oct  7 12:00:01 2024] " (dmesg -T) length */
static size_t dmesg_t_prefix(const char *s, size_t len)
{
	size_t i;

	if (len < 26 || s[0] != '[' || s[4] != ' ')
		return 0;
	for (i = 0; i < ARRAY_SIZE(months); i++)
		if (has_prefix(s + 5, s + len, months[i]))
			break;
	if (i == ARRAY_SIZE(months))
		return 0;
	for (i = 9; i < len && i < 40 && s[i] != ']'; i++)
		;
	if (i + 1 >= len || s[i] != ']' || s[i + 1] != ' ' || s[i - 5] != ' ')
		return 0;
	return i + 2;
}

/*
 * wrap_piece - a line that is only "path/x.c:12" (want_func false) or
 * "func+0x1/0x2" with an optional " [module]" (want_func true)
 */
static bool wrap_piece(const struct cline *l, bool want_func)
{
	const char *p = l->c, *end = l->c + l->clen, *t;
	bool colon = false;

	if (l->ctx != CTX_NONE || !l->clen || *p == ' ' || *p == '\t')
		return false;
	for (t = p; t < end && *t != ' '; t++) {
		if (*t == ':')
			colon = true;
		else if (!isalnum((unsigned char)*t) && !strchr("_./-+", *t))
			return false;
	}
	if (t < end && (end - t < 4 || t[1] != '[' || end[-1] != ']'))
		return false;
	if (want_func)
		return !colon && memmem(p, (size_t)(t - p), "+0x", 3);
	return colon && t == end && is_digit(end[-1]);
}

/*
 * wrap_state - how a WARNING line a mail client wrapped ends: 1 after
 * "at", 2 after "at path:line", 0 when it is complete
 */
static int wrap_state(const struct cline *l)
{
	const char *end = l->c + l->clen, *t;

	int st = 0;

	if (l->clen < 12)
		return 0;
	if (has_suffix(l->c, end, " at")) {
		st = 1;
	} else if (is_digit(end[-1])) {
		for (t = end; t > l->c && t[-1] != ' '; t--)
			;
		if (t - l->c > 4 && has_suffix(l->c, t, " at ") &&
		    end - t > 4 && memchr(t, ':', (size_t)(end - t)))
			st = 2;
	}
	return st && memmem(l->c, l->clen, "WARNING: ", 9) ? st : 0;
}

/*
 * unwrap - join a WARNING line broken by a mail client after "at" with
 * the "path:line" and "func+0x.." pieces that follow; joined lines are
 * kept in owned
 */
static size_t unwrap(struct cline *lines, size_t n, char ***owned,
		     size_t *nowned)
{
	size_t i, o = 0;

	for (i = 0; i < n; i++) {
		struct cline c = lines[i];
		int st;

		while ((st = wrap_state(&c)) && i + 1 < n &&
		       wrap_piece(&lines[i + 1], st == 2)) {
			const struct cline *w = &lines[i + 1];
			size_t body = (size_t)(c.c - c.s);
			char *buf = xmalloc(c.len + w->clen + 2);

			memcpy(buf, c.s, c.len);
			buf[c.len] = ' ';
			memcpy(buf + c.len + 1, w->c, w->clen);
			c.len += w->clen + 1;
			buf[c.len] = '\0';
			c.s = buf;
			c.c = buf + body;
			c.clen = c.len - body;
			c.next = w->next;
			*owned = xreallocarray(*owned, *nowned + 1,
					       sizeof(**owned));
			(*owned)[(*nowned)++] = buf;
			i++;
		}
		lines[o++] = c;
	}
	return o;
}

/* syslog_like - "Oct  1 12:" or "2024-10-01T" starts the line */
static bool syslog_like(const char *s, size_t len)
{
	if (len < 11)
		return false;
	if (s[0] >= 'A' && s[0] <= 'Z' && s[3] == ' ' && s[6] == ' ' &&
	    s[9] == ':')
		return true;
	return is_digit(s[0]) && is_digit(s[3]) && s[4] == '-' && s[7] == '-' &&
	       s[10] == 'T';
}

/*
 * normalise - split text into lines, dropping mail quoting, indentation
 * before a console stamp and syslog/journal prefixes
 */
static struct cline *normalise(struct rx *x, const char *text, size_t len,
			       size_t *nlines)
{
	struct cline *lines = NULL;
	size_t n = 0, alloc = 0, pos = 0;

	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;
		const char *s = text + pos;
		size_t l = end - pos, k, skip;
		struct cline *c;

		pos = end + 1;
		if (l && s[l - 1] == '\r')
			l--;
		/* printk lines are at most 1 KB: longer ones are cut */
		if (l > LINE_MAX_LEN)
			l = LINE_MAX_LEN;
		/* "> ", ">> ", "> > " quoting */
		for (;;) {
			k = 0;
			while (k < l && k < 3 && s[k] == ' ')
				k++;
			if (k < l && s[k] == '>') {
				k++;
				if (k < l && s[k] == ' ')
					k++;
				s += k;
				l -= k;
				continue;
			}
			break;
		}
		ALLOC_GROW(lines, n, alloc);
		c = &lines[n++];
		memset(c, 0, sizeof(*c));
		c->next = pos;
		/* pasted with indentation: "    [   12.3] ..." */
		for (k = 0; k < l && (s[k] == ' ' || s[k] == '\t'); k++)
			;
		if (k && k < l && (s[k] == '[' || s[k] == '<')) {
			uint64_t dummy;

			if (try_stamp(s + k, l - k, &dummy)) {
				s += k;
				l -= k;
			}
		}
		/* "Oct  1 12:00:00 host kernel: " from syslog or journalctl;
		 * "kernel: " alone from "journalctl -o cat" */
		skip = l > 8 && !memcmp(s, "kernel: ", 8) ? 8 : 0;
		if (!skip && l > 20 && syslog_like(s, l) &&
		    (memmem(s, l < 80 ? l : 80, " kernel: ", 9) ||
		     memmem(s, l < 80 ? l : 80, " [kernel] ", 10)) &&
		    rx_search(x, G.syslog, s, l, 0))
			skip = rx_ov(x)[1];
		if (skip) {
			uint64_t ctx = CTX_CONSOLE;

			s += skip;
			l -= skip;
			c->s = s;
			c->len = l;
			if (console_prefix(s, l, &ctx)) {
				c->ctx = ctx;
			} else {
				c->ctx = CTX_CONSOLE;
				c->c = s;
				c->clen = l;
				continue;
			}
		} else if ((k = dmesg_t_prefix(s, l))) {
			c->s = s;
			c->len = l;
			c->ctx = CTX_CONSOLE;
			c->c = s + k;
			c->clen = l - k;
			continue;
		} else {
			c->s = s;
			c->len = l;
			if (!console_prefix(s, l, &c->ctx))
				c->ctx = CTX_NONE;
		}
		if (c->ctx == CTX_NONE) {
			c->c = s;
			c->clen = l;
			continue;
		}
		/* content after the first "] ", as syzkaller strips it */
		{
			const char *b = mem_find(s, l, "] ", 2, 0);
			const char *q;
			size_t cl;

			if (!b)
				b = s - 2;
			c->c = b + 2;
			c->clen = l - (size_t)(c->c - s);
			cl = c->clen;
			if (!mem_find(c->c, cl, "<EOI>", 5, 1)) {
				q = mem_find(c->c, cl, " ? ", 3, 1);
				if (q) {
					c->clen -= (size_t)(q + 2 - c->c);
					c->c = q + 2;
					c->questionable = true;
				} else if (has_suffix(c->c, c->c + cl,
						      " (unreliable)")) {
					c->clen -= 13;
					c->questionable = true;
				}
			}
		}
	}
	*nlines = n;
	return lines;
}

/* ---- finding the report ---------------------------------------------- */

/* oops_match - index of the crash header line l is taken for, or -1 */
static int oops_match_uncached(struct rx *x, const struct cline *l,
			       uint64_t mask)
{
	size_t i, j;

	if (!(mask & HEADER_BITS))
		return -1;
	for (i = 0; i < ARRAY_SIZE(oopses); i++) {
		const struct oops_def *o = &oopses[i];
		bool supp = false;

		if (!(mask & ((uint64_t)1 << i)))
			continue;
		if (o->flags & O_LINE_START) {
			const char *c = l->c;
			size_t cl = l->clen;

			while (cl && (*c == ' ' || *c == '\t')) {
				c++;
				cl--;
			}
			if (!has_prefix(c, c + cl, o->header))
				continue;
		}
		ensure_oops(o);
		for (j = 0; j < o->nsupp && !supp; j++)
			supp = rx_search(x, o->supp[j], l->s, l->len, 0);
		if (!supp)
			return (int)i;
	}
	return -1;
}

/* oops_match - index of the crash header line l is taken for, or -1 */
static int oops_match(struct rx *x, struct cline *l)
{
	if (l->oops == OOPS_UNKNOWN)
		l->oops = oops_match_uncached(x, l, l->mask);
	return l->oops;
}

/*
 * The lines copied from a cline's content into a buffer, with the mask
 * of that content, in buffer order: the walks over the buffer look a
 * line up instead of scanning it again.
 */
struct linemask {
	size_t off, len; /* in the buffer, without the newline */
	uint64_t mask;
};

struct linemasks {
	const char *base; /* the buffer, once complete */
	struct linemask *v;
	size_t n, alloc;
	size_t hint; /* the entry after the last one found */
};

/* linemask_add - the line l->c was copied at off, if its mask is known */
static void linemask_add(struct linemasks *lm, size_t off,
			 const struct cline *l)
{
	if (!l->cmask_ok)
		return;
	ALLOC_GROW(lm->v, lm->n, lm->alloc);
	lm->v[lm->n].off = off;
	lm->v[lm->n].len = l->clen;
	lm->v[lm->n++].mask = l->cmask;
}

/*
 * line_mask - litset_mask(&G.lineset, ln, ll), looked up when ln is a
 * line recorded in lm (which may be NULL)
 */
static uint64_t line_mask(struct linemasks *lm, const char *ln, size_t ll)
{
	if (lm && lm->n && ln >= lm->base) {
		size_t off = (size_t)(ln - lm->base), lo = 0, hi = lm->n;

		/* the walks go line by line: try the next entry first */
		if (lm->hint < lm->n && lm->v[lm->hint].off == off) {
			lo = lm->hint;
			hi = lo;
		}
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (lm->v[mid].off < off)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < lm->n && lm->v[lo].off == off && lm->v[lo].len == ll) {
			lm->hint = lo + 1;
			return lm->v[lo].mask;
		}
	}
	return litset_mask(&G.lineset, ln, ll);
}

struct extracted {
	struct strbuf text;	       /* prefix lines, then the report */
	struct strbuf frames;	       /* the report with "? " frames kept */
	struct linemasks tmask, fmask; /* lines of text and frames */
	size_t prefix_len;
	size_t report_end; /* end of the part titles are taken from */
	size_t first_line, end_line;
};

/*
 * symbolized_dup - a symbolised log repeats the crash header once per
 * inlined function ("BUG: KASAN: ... in foo lib/x.h:12 [inline]", then
 * "... in bar+0x1/0x2 lib/x.c:34"); such a repeat starts no new report
 */
static bool symbolized_dup(const struct cline *first, const struct cline *prev,
			   const struct cline *l)
{
	const char *in = memmem(first->c, first->clen, " in ", 4);
	size_t n;

	if (!in || !has_suffix(prev->c, prev->c + prev->clen, "[inline]"))
		return false;
	n = (size_t)(in - first->c) + 4;
	return l->clen > n && !memcmp(l->c, first->c, n);
}

static void find_report(struct rx *x, struct cline *lines, size_t nlines,
			size_t start, struct extracted *e)
{
	uint64_t ctx = lines[start].ctx;
	size_t max_prefix = ctx_is_task(ctx) ? 50 : 5;
	size_t prefix[50], nprefix = 0;
	size_t i, text_lines = 0, min_lines;
	bool second = false, skip_text = false, cpu_traceback = false;
	bool in_dups = true, continue_dup = false;

	min_lines = mem_has(lines[start].s, lines[start].len, "BUG: KMSAN:")
			    ? 16
			    : 22;
	for (i = start; i-- > 0 && nprefix < max_prefix;) {
		const struct cline *l = &lines[i];

		if (l->ctx != ctx || !l->clen || l->questionable)
			continue;
		prefix[nprefix++] = i;
	}
	while (nprefix--) {
		const struct cline *l = &lines[prefix[nprefix]];

		size_t off = e->text.len;

		if (!sb_add(&e->text, l->c, l->clen) &&
		    !sb_addc(&e->text, '\n'))
			linemask_add(&e->tmask, off, l);
	}
	e->prefix_len = e->text.len;
	e->first_line = start;
	e->end_line = start;
	if (nlines - start > REPORT_LINES_MAX)
		nlines = start + REPORT_LINES_MAX;
	for (i = start; i < nlines; i++) {
		struct cline *l = &lines[i];
		bool is_oops = i == start, skip_line;
		uint64_t mk = l->mask;
		size_t off;

		if (oops_match(x, l) >= 0) {
			e->end_line = i;
			if (!is_oops && in_dups &&
			    symbolized_dup(&lines[start], &lines[i - 1], l))
				continue_dup = true;
			else if (!is_oops)
				in_dups = false;
			if (!is_oops && !second && !continue_dup &&
			    !(mk & BIT(MK_START_IGNORE)))
				second = true;
			continue_dup = false;
		} else if (!is_oops && !second && (mk & BIT(MK_INFO_STACK))) {
			second = true;
		}
		if (!is_oops && (l->questionable ||
				 (l->ctx != ctx &&
				  (!cpu_traceback || !ctx_is_cpu(l->ctx))))) {
			/* unreliable frames are no part of the report */
			if (l->questionable && l->ctx == ctx &&
			    !sb_add(&e->frames, "? ", 2) &&
			    !sb_add(&e->frames, l->c, l->clen))
				sb_addc(&e->frames, '\n');
			continue;
		}
		text_lines++;
		skip_line = skip_text;
		if (mk & BIT(MK_DISABLING)) {
			skip_line = true;
		} else if (mk & BIT(MK_NMI)) {
			cpu_traceback = true;
		} else if ((mk & (BIT(MK_PANIC) | BIT(MK_CIRCULAR))) &&
			   text_lines > min_lines) {
			skip_text = true;
			skip_line = true;
		}
		if (!is_oops && skip_line)
			continue;
		off = e->text.len;
		if (sb_add(&e->text, l->c, l->clen) || sb_addc(&e->text, '\n'))
			break;
		linemask_add(&e->tmask, off, l);
		off = e->frames.len;
		if (!sb_add(&e->frames, l->c, l->clen) &&
		    !sb_addc(&e->frames, '\n'))
			linemask_add(&e->fmask, off, l);
		if (!second || (ctx != CTX_NONE && ctx != CTX_CONSOLE))
			e->report_end = e->text.len;
	}
}

/* ---- titles ---------------------------------------------------------- */

struct sv {
	const char *s;
	size_t len;
};

struct frames {
	struct sv v[MAX_RAW_FRAMES];
	size_t n;
	char names[8192]; /* demangled names */
	size_t used;
};

/* ---- Rust v0 symbol names ("_RNvMs0_NtCs..._6kernel3foo3bar") ------ */

struct rdm {
	const char *s; /* the symbol after "_R" */
	size_t len, pos;
	char *out;
	size_t olen, cap;
	int depth;
	bool bad;
};

static void rdm_put(struct rdm *d, const char *p, size_t n)
{
	if (d->olen + n >= d->cap) {
		d->bad = true;
		return;
	}
	memcpy(d->out + d->olen, p, n);
	d->olen += n;
}

static void rdm_puts(struct rdm *d, const char *p)
{
	rdm_put(d, p, strlen(p));
}

static char rdm_peek(struct rdm *d)
{
	return d->pos < d->len ? d->s[d->pos] : '\0';
}

/* base-62 number ending in "_" ("_" alone is 0) */
static uint64_t rdm_b62(struct rdm *d)
{
	uint64_t v = 0;
	char c;

	if (rdm_peek(d) == '_') {
		d->pos++;
		return 0;
	}
	while ((c = rdm_peek(d)) != '_') {
		unsigned k;

		if (is_digit(c))
			k = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'z')
			k = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'Z')
			k = (unsigned)(c - 'A' + 36);
		else {
			d->bad = true;
			return 0;
		}
		v = v * 62 + k; /* disambiguators are hashes: may wrap */
		d->pos++;
	}
	d->pos++;
	return v + 1;
}

static void rdm_disambiguator(struct rdm *d)
{
	if (rdm_peek(d) == 's') {
		d->pos++;
		rdm_b62(d);
	}
}

/* identifier: [disambiguator] ["u"] decimal ["_"] bytes */
static void rdm_ident(struct rdm *d, bool print)
{
	size_t n = 0;

	rdm_disambiguator(d);
	if (rdm_peek(d) == 'u')
		d->pos++; /* punycode: shown raw */
	if (!is_digit(rdm_peek(d))) {
		d->bad = true;
		return;
	}
	while (is_digit(rdm_peek(d)) && n < 100000)
		n = n * 10 + (size_t)(d->s[d->pos++] - '0');
	if (rdm_peek(d) == '_')
		d->pos++;
	if (n > d->len - d->pos) {
		d->bad = true;
		return;
	}
	if (print)
		rdm_put(d, d->s + d->pos, n);
	d->pos += n;
}

static void rdm_path(struct rdm *d);
static void rdm_type(struct rdm *d);

static void rdm_backref(struct rdm *d, void (*fn)(struct rdm *))
{
	uint64_t at = rdm_b62(d);
	size_t save = d->pos;

	if (d->bad || at >= save || ++d->depth > 32) {
		d->bad = true;
		return;
	}
	d->pos = (size_t)at;
	fn(d);
	d->pos = save;
	d->depth--;
}

static void rdm_generic_args(struct rdm *d)
{
	bool first = true;

	rdm_puts(d, "<");
	while (!d->bad && rdm_peek(d) != 'E') {
		if (!first)
			rdm_puts(d, ", ");
		first = false;
		if (rdm_peek(d) == 'L') { /* lifetime */
			d->pos++;
			rdm_b62(d);
			rdm_puts(d, "'_");
		} else if (rdm_peek(d) == 'K') { /* const */
			d->pos++;
			while (rdm_peek(d) && rdm_peek(d) != '_')
				d->pos++;
			d->pos++;
			rdm_puts(d, "_");
		} else {
			rdm_type(d);
		}
		if (d->pos >= d->len)
			d->bad = true;
	}
	d->pos++;
	rdm_puts(d, ">");
}

static void rdm_type(struct rdm *d)
{
	static const char *const basic[26] = {
		['a' - 'a'] = "i8",    ['b' - 'a'] = "bool",
		['c' - 'a'] = "char",  ['d' - 'a'] = "f64",
		['e' - 'a'] = "str",   ['f' - 'a'] = "f32",
		['h' - 'a'] = "u8",    ['i' - 'a'] = "isize",
		['j' - 'a'] = "usize", ['l' - 'a'] = "i32",
		['m' - 'a'] = "u32",   ['n' - 'a'] = "i128",
		['o' - 'a'] = "u128",  ['p' - 'a'] = "_",
		['s' - 'a'] = "i16",   ['t' - 'a'] = "u16",
		['u' - 'a'] = "()",    ['v' - 'a'] = "...",
		['x' - 'a'] = "i64",   ['y' - 'a'] = "u64",
		['z' - 'a'] = "!",
	};
	char c = rdm_peek(d);

	if (++d->depth > 32) {
		d->bad = true;
		return;
	}
	if (c >= 'a' && c <= 'z' && basic[c - 'a']) {
		d->pos++;
		rdm_puts(d, basic[c - 'a']);
	} else if (c == 'R' || c == 'Q') {
		d->pos++;
		if (rdm_peek(d) == 'L') {
			d->pos++;
			rdm_b62(d);
		}
		rdm_puts(d, c == 'R' ? "&" : "&mut ");
		rdm_type(d);
	} else if (c == 'P' || c == 'O') {
		d->pos++;
		rdm_puts(d, c == 'P' ? "*const " : "*mut ");
		rdm_type(d);
	} else if (c == 'A' || c == 'S') {
		d->pos++;
		rdm_puts(d, "[");
		rdm_type(d);
		if (c == 'A') {
			while (rdm_peek(d) && rdm_peek(d) != '_')
				d->pos++;
			d->pos++;
			rdm_puts(d, "; _");
		}
		rdm_puts(d, "]");
	} else if (c == 'T') {
		d->pos++;
		rdm_puts(d, "(");
		while (!d->bad && rdm_peek(d) != 'E') {
			rdm_type(d);
			if (rdm_peek(d) != 'E')
				rdm_puts(d, ", ");
			if (d->pos >= d->len)
				d->bad = true;
		}
		d->pos++;
		rdm_puts(d, ")");
	} else if (c == 'B') {
		d->pos++;
		rdm_backref(d, rdm_type);
	} else if (c && strchr("CMXYNI", c)) {
		rdm_path(d);
	} else {
		d->bad = true; /* fn pointers, dyn traits: not shown */
	}
	d->depth--;
}

static void rdm_path(struct rdm *d)
{
	char c = rdm_peek(d), ns;

	if (++d->depth > 32 || d->bad) {
		d->bad = true;
		return;
	}
	d->pos++;
	switch (c) {
	case 'C':
		rdm_ident(d, true);
		break;
	case 'M':
		rdm_disambiguator(d);
		{
			/* the impl path is not shown, only its type */
			size_t save = d->olen;

			rdm_path(d);
			d->olen = save;
		}
		rdm_puts(d, "<");
		rdm_type(d);
		rdm_puts(d, ">");
		break;
	case 'X':
		rdm_disambiguator(d);
		{
			size_t save = d->olen;

			rdm_path(d);
			d->olen = save;
		}
		/* fall through */
	case 'Y':
		rdm_puts(d, "<");
		rdm_type(d);
		rdm_puts(d, " as ");
		rdm_path(d);
		rdm_puts(d, ">");
		break;
	case 'N':
		ns = rdm_peek(d);
		d->pos++;
		rdm_path(d);
		if (ns >= 'A' && ns <= 'Z') {
			char tmp[32];
			size_t save = d->pos;

			rdm_disambiguator(d);
			d->pos = save;
			rdm_puts(d, "::{");
			rdm_puts(d, ns == 'C'	? "closure"
				    : ns == 'S' ? "shim"
						: "?");
			if (rdm_peek(d) == 's') {
				d->pos++;
				snprintf(tmp, sizeof(tmp), "#%llu",
					 (unsigned long long)rdm_b62(d));
			} else {
				snprintf(tmp, sizeof(tmp), "#0");
			}
			rdm_puts(d, tmp);
			/* a name of a closure is optional (length 0) */
			if (is_digit(rdm_peek(d)) || rdm_peek(d) == 'u') {
				size_t mark = d->olen;

				rdm_ident(d, true);
				if (d->olen > mark) {
					memmove(d->out + mark + 1,
						d->out + mark, d->olen - mark);
					d->out[mark] = ':';
					d->olen++;
				}
			}
			rdm_puts(d, "}");
		} else {
			rdm_puts(d, "::");
			rdm_ident(d, true);
		}
		break;
	case 'I':
		rdm_path(d);
		rdm_generic_args(d);
		break;
	case 'B':
		rdm_backref(d, rdm_path);
		break;
	default:
		d->bad = true;
	}
	d->depth--;
}

/* rust_demangle - "_R..." (v0) to "crate::path"; false when not one */
static bool rust_demangle(const char *s, size_t len, char *out, size_t cap,
			  size_t *olen)
{
	struct rdm d = { 0 };

	if (len < 4 || s[0] != '_' || s[1] != 'R')
		return false;
	d.s = s + 2;
	d.len = len - 2;
	d.out = out;
	d.cap = cap;
	if (is_digit(rdm_peek(&d))) /* encoding version */
		while (is_digit(rdm_peek(&d)))
			d.pos++;
	rdm_path(&d);
	if (d.bad || !d.olen)
		return false;
	*olen = d.olen;
	return true;
}

/*
 * demangle - C++ (Itanium) names as the title shows them: "_Z8fooiii" is
 * "foo", "_ZN3ns3barEv" is "ns::bar" (a legacy Rust hash is dropped);
 * false when s is not such a name
 */
static bool demangle(const char *s, size_t len, struct frames *raw,
		     struct sv *out)
{
	char buf[512];
	size_t i = 2, o = 0, last = 0;
	bool nested;

	if (len >= 4 && s[0] == '_' && s[1] == 'R') {
		if (!rust_demangle(s, len, buf, sizeof(buf), &o))
			return false;
		goto done;
	}
	if (len < 4 || s[0] != '_' || s[1] != 'Z')
		return false;
	nested = s[2] == 'N';
	if (nested)
		i++;
	do {
		size_t n = 0;

		if (i >= len || !is_digit(s[i]))
			break;
		while (i < len && is_digit(s[i]) && n < 1000)
			n = n * 10 + (size_t)(s[i++] - '0');
		if (!n || n > len - i || o + n + 2 >= sizeof(buf))
			return false;
		last = o;
		if (o) {
			buf[o++] = ':';
			buf[o++] = ':';
		}
		memcpy(buf + o, s + i, n);
		o += n;
		i += n;
	} while (nested && i < len && s[i] != 'E');
	if (!o)
		return false;
	/* legacy Rust: a trailing "h0123456789abcdef" hash component */
	if (nested && o - last >= 17 && buf[o - 17] == 'h') {
		size_t k;

		for (k = o - 16; k < o && isxdigit((unsigned char)buf[k]); k++)
			;
		if (k == o)
			o = last;
	}
done:
	if (raw->used + o > sizeof(raw->names))
		return false;
	memcpy(raw->names + raw->used, buf, o);
	out->s = raw->names + raw->used;
	out->len = o;
	raw->used += o;
	return true;
}

static bool skipped(const struct stack_def *st, const char *s, size_t len)
{
	return litset_any(&G.generic, s, len) ||
	       (st && st->skipset.n && litset_any(&st->skipset, s, len));
}

static void append_frame(struct sv f, const struct stack_def *st,
			 struct frames *raw)
{
	demangle(f.s, f.len, raw, &f);
	if (skipped(st, f.s, f.len))
		return;
	if (raw->n < MAX_RAW_FRAMES)
		raw->v[raw->n++] = f;
}

/* append_frames - the groups of the last match of re in s */
static void append_frames(struct rx *x, const pcre2_code *re, const char *s,
			  const struct stack_def *st, struct frames *raw)
{
	PCRE2_SIZE *ov = rx_ov(x);
	uint32_t g, n = rx_groups(re);

	for (g = 1; g <= n; g++) {
		struct sv f;

		if (ov[2 * g] == PCRE2_UNSET)
			continue;
		f.s = s + ov[2 * g];
		f.len = ov[2 * g + 1] - ov[2 * g];
		append_frame(f, st, raw);
	}
}

/*
 * decoded_source - " (fs/x.c:12" as scripts/decode_stacktrace.sh puts it
 * after a function name (the FUNC pattern accepts it too)
 */
static bool decoded_source(const char *s, size_t len)
{
	size_t i = 2;
	bool dot = false;

	if (len < 6 || s[0] != ' ' || s[1] != '(')
		return false;
	while (i < len && (isalnum((unsigned char)s[i]) || s[i] == '_' ||
			   s[i] == '/' || s[i] == '.' || s[i] == '-')) {
		dot |= s[i] == '.';
		i++;
	}
	return dot && i + 1 < len && s[i] == ':' && is_digit(s[i + 1]) &&
	       isalpha((unsigned char)s[i - 1]);
}

static bool hex_digit(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f');
}

/*
 * plain_frame - frame_res[0] by hand, the hot path of every stack:
 * "^[ \t]*(?:PC ){0,2}FUNC", the name before a "." or "+"
 */
static bool plain_frame(const char *s, size_t len, struct sv *f)
{
	size_t i = 0, k, pcs;

	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	for (pcs = 0; pcs < 2 && i < len && s[i] == '['; pcs++) {
		k = i + 1;
		if (k < len && s[k] == '<')
			k++;
		if (k + 1 < len && s[k] == '0' && s[k + 1] == 'x')
			k += 2;
		if (k >= len || !hex_digit(s[k]))
			break;
		while (k < len && hex_digit(s[k]))
			k++;
		if (k < len && s[k] == '>')
			k++;
		if (k + 1 >= len || s[k] != ']' || s[k + 1] != ' ')
			break;
		i = k + 2;
	}
	for (k = i; k < len && (isalnum((unsigned char)s[k]) || s[k] == '_');
	     k++)
		;
	if (k == i || k >= len)
		return false;
	if (s[k] != '.' && s[k] != '+' && !decoded_source(s + k, len - k))
		return false;
	f->s = s + i;
	f->len = k - i;
	return true;
}

/* strip_frame - the shortest name left after one syscall prefix */
static struct sv strip_frame(struct sv f)
{
	struct sv best = f;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(frame_prefixes); i++) {
		size_t pl = strlen(frame_prefixes[i]);

		if (has_prefix(f.s, f.s + f.len, frame_prefixes[i]) &&
		    f.len - pl < best.len) {
			best.s = f.s + pl;
			best.len = f.len - pl;
		}
	}
	return best;
}

static bool sv_has(struct sv f, const char *needle)
{
	return memmem(f.s, f.len, needle, strlen(needle)) != NULL;
}

/* extract_key - the frame that names the title; len 0 when none */
static struct sv extract_key(const struct stack_def *st,
			     const struct frames *raw)
{
	static const char *const hang_anchors[] = {
		"rtnl_lock", "synchronize_rcu", "synchronize_srcu",
		"synchronize_net", "synchronize_sched"
	};
	struct sv none = { "", 0 }, prev;
	size_t i, j;

	if (!raw->n)
		return none;
	switch (st->extractor) {
	case EXT_FIRST:
		return strip_frame(raw->v[0]);
	case EXT_STALL:
		prev = strip_frame(raw->v[0]);
		for (i = 0; i < raw->n; i++) {
			struct sv f = strip_frame(raw->v[i]);

			if (litset_any(&G.anchors, f.s, f.len)) {
				if (sv_has(f, "smp_call_function")) {
					prev.s = "smp_call_function";
					prev.len = strlen(prev.s);
				}
				return prev;
			}
			prev = f;
		}
		return none;
	case EXT_HANG:
		for (i = 0; i < raw->n; i++) {
			struct sv f = strip_frame(raw->v[i]);

			for (j = 0; j < ARRAY_SIZE(hang_anchors); j++) {
				if (!sv_has(f, hang_anchors[j]))
					continue;
				if (strcmp(hang_anchors[j], "rtnl_lock")) {
					f.s = "synchronize_rcu";
					f.len = strlen(f.s);
				}
				return f;
			}
		}
		for (i = 0; i < raw->n; i++) {
			struct sv f = strip_frame(raw->v[i]);

			if (!litset_any(&G.hang, f.s, f.len))
				return f;
		}
		return none;
	}
	return none;
}

static bool any_match(struct rx *x, pcre2_code *const *v, size_t n,
		      const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (rx_search(x, v[i], s, len, 0))
			return true;
	return false;
}

/*
 * stack_walk - run the parts of a stack format over the report from the
 * title on; the key frames found go to keys; false when one is missing
 */
static bool stack_walk(struct rx *x, const struct stack_def *st,
		       pcre2_code *const *parts, size_t nparts, const char *out,
		       size_t len, struct linemasks *lm, struct sv *keys,
		       size_t *nkeys, struct frames *raw)
{
	size_t pos = 0, part, nstacks = 0;

	ensure_common();
	bool ok = true, more = true;

	raw->n = 0;
	raw->used = 0;
	*nkeys = 0;
	for (part = 0;; part++) {
		if (part == nparts || (!parts[part] && nstacks > 0)) {
			struct sv k = extract_key(st, raw);

			if (!k.len) {
				k.s = "corrupted";
				k.len = strlen(k.s);
				ok = false;
			}
			if (*nkeys < 4)
				keys[(*nkeys)++] = k;
			raw->n = 0;
		}
		if (part == nparts)
			break;
		if (!parts[part])
			nstacks++;
		while (more) {
			const char *ln = out + pos;
			const char *nl = memchr(ln, '\n', len - pos);
			size_t ll = nl ? (size_t)(nl - ln) : len - pos;
			uint64_t mk;
			struct sv f;
			bool is_frame;

			if (nl)
				pos += ll + 1;
			else
				more = false;
			/*
			 * A fault injection line is a frame line whose name
			 * starts with should_fail; a frame line never starts
			 * a stack: the line markers are needed for the rest.
			 */
			is_frame = plain_frame(ln, ll, &f);
			if (is_frame &&
			    has_prefix(f.s, f.s + f.len, "should_fail") &&
			    rx_search(x, G.corrupted_line, ln, ll, 0)) {
				ok = false;
				break;
			}
			if (parts[part]) {
				if (!rx_search(x, parts[part], ln, ll, 0))
					continue;
				append_frames(x, parts[part], ln, st, raw);
				break;
			}
			mk = is_frame ? 0 : line_mask(lm, ln, ll);
			if ((mk & BIT(MK_STACK_START)) &&
			    any_match(x, G.stack_start,
				      ARRAY_SIZE(G.stack_start), ln, ll))
				break;
			if (part + 1 < nparts && parts[part + 1] &&
			    rx_search(x, parts[part + 1], ln, ll, 0)) {
				append_frames(x, parts[part + 1], ln, st, raw);
				part++;
				break;
			}
			if (is_frame)
				append_frame(f, st, raw);
			else if ((mk & BIT(MK_ARM_FROM)) &&
				 rx_search(x, G.frame_re[1], ln, ll, 0))
				append_frames(x, G.frame_re[1], ln, st, raw);
		}
	}
	return ok;
}

/* stack_frames - the key frames; they may point into raw->names */
static bool stack_frames(struct rx *x, const struct stack_def *st,
			 const char *out, size_t len, struct linemasks *lm,
			 struct sv *keys, size_t *nkeys, struct frames *raw)
{
	bool ok;

	ok = stack_walk(x, st, st->p, st->np, out, len, lm, keys, nkeys, raw);
	if (!ok && st->np2)
		ok = stack_walk(x, st, st->p2, st->np2, out, len, lm, keys,
				nkeys, raw);
	return ok;
}

/* format_title - expand "$N" from args */
static void format_title(struct strbuf *sb, const char *fmt,
			 const struct sv *args, size_t nargs)
{
	const char *p;

	for (p = fmt; *p; p++) {
		if (*p == '$' && p[1] >= '1' && p[1] <= '9') {
			size_t k = (size_t)(p[1] - '1');

			if (k < nargs)
				sb_add(sb, args[k].s, args[k].len);
			p++;
			continue;
		}
		sb_addc(sb, *p);
	}
}

struct desc {
	struct strbuf title;
	bool corrupted, fallback;
};

static void describe(struct rx *x, const struct oops_def *o, const char *out,
		     size_t len, struct linemasks *lm, struct desc *d)
{
	size_t startpos = len, i;
	bool matched_title = false, have = false;
	unsigned fmt_flags = 0;
	struct frames *raw = NULL;
	struct occ oc;

	ensure_oops(o);
	ensure_common();
	occ_find(&oc, o->header, out, len);
	for (i = 0; i < o->nfmts; i++) {
		const struct fmt_def *f = &o->fmts[i];
		struct sv args[MAX_ARGS];
		size_t nargs = 0, nkeys = 0, m0;
		struct sv keys[4];
		struct pmatch m;
		uint32_t g;
		bool corrupted = false;

		/*
		 * A title that starts after the best so far is not used:
		 * do not look for one past it (the first search runs over
		 * the whole text, which can be a 100 KB log; later ones
		 * stop at the title found, usually the first line).
		 */
		if (!pat_search_before(x, &G.title_re[o->base + i], out, len,
				       startpos, &oc, &m))
			continue;
		if (m.start > startpos || (m.start == startpos && have))
			continue;
		if (m.start < startpos) {
			have = false;
			sb_reset(&d->title);
			fmt_flags = 0;
			startpos = m.start;
		}
		matched_title = true;
		if (f->report &&
		    !pat_search_before(x, &G.report_re[o->base + i], out, len,
				       len, &oc, &m))
			continue;
		m0 = m.start;
		for (g = 0; g < m.ngroups && nargs < MAX_ARGS; g++) {
			if (!m.set[g]) {
				args[nargs].s = "";
				args[nargs++].len = 0;
			} else {
				args[nargs].s = out + m.gs[g];
				args[nargs++].len = m.ge[g] - m.gs[g];
			}
		}
		if (f->stack) {
			if (!raw)
				raw = xmalloc(sizeof(*raw));
			if (!stack_frames(x, f->stack, out + m0, len - m0, lm,
					  keys, &nkeys, raw))
				corrupted = true;
			for (g = 0; g < nkeys && nargs < MAX_ARGS; g++)
				args[nargs++] = keys[g];
		}
		sb_reset(&d->title);
		format_title(&d->title, f->fmt, args, nargs);
		d->corrupted = corrupted;
		have = true;
		fmt_flags = f->flags;
	}
	free(raw);
	if (!have) {
		const char *h = memmem(out, len, o->header, strlen(o->header));
		const char *nl;

		d->corrupted = matched_title;
		d->fallback = true;
		if (!h)
			return;
		nl = memchr(h, '\n', len - (size_t)(h - out));
		sb_add(&d->title, h,
		       nl ? (size_t)(nl - h) : len - (size_t)(h - out));
	}
	if (fmt_flags & F_CORRUPTED)
		d->corrupted = true;
}

/* rewrite_title - syzkaller's replacements of variable parts */
static char *rewrite_title(struct rx *x, const char *title)
{
	size_t cap = 4 * strlen(title) + 64, i;
	char *cur = xstrdup(title);
	char *out = xmalloc(cap);

	ensure_common();
	for (i = 0; i < ARRAY_SIZE(title_rewrites); i++) {
		int rounds;

		for (rounds = 0; rounds < 16; rounds++) {
			PCRE2_SIZE olen = cap;
			int rc = pcre2_substitute(
				G.rewrite[i], (PCRE2_SPTR)cur,
				PCRE2_ZERO_TERMINATED, 0,
				PCRE2_SUBSTITUTE_GLOBAL, x->md, G.mctx,
				(PCRE2_SPTR)title_rewrites[i].with,
				PCRE2_ZERO_TERMINATED, (PCRE2_UCHAR *)out,
				&olen);

			if (rc <= 0 || !strcmp(out, cur))
				break;
			free(cur);
			cur = xstrdup(out);
		}
	}
	free(out);
	return cur;
}

/* sanitize_title - printable ASCII, single spaces, at most 120 bytes */
static char *sanitize_title(const char *t)
{
	size_t n = strlen(t), i, o = 0;
	char *r = xmalloc(n + 1), prev = ' ';

	for (i = 0; i < n && i < TITLE_MAX; i++) {
		char c = t[i];

		if (c == '\t')
			c = ' ';
		else if ((unsigned char)c < 0x20 || (unsigned char)c >= 0x7f)
			continue;
		if (c == ' ' && prev == ' ')
			continue;
		r[o++] = c;
		prev = c;
	}
	while (o && r[o - 1] == ' ')
		o--;
	r[o] = '\0';
	return r;
}

/* crashlog_crash_type - the crash_type word for a title */
const char *crashlog_crash_type(const char *t)
{
	static const struct {
		const char *prefix, *type;
	} map[] = {
		{ "KASAN:", "KASAN" },
		{ "KMSAN:", "KMSAN" },
		{ "KCSAN:", "KCSAN" },
		{ "UBSAN:", "UBSAN" },
		{ "KFENCE:", "KFENCE" },
		{ "memory leak", "LEAK" },
		{ "possible deadlock", "LOCKDEP" },
		{ "inconsistent lock state", "LOCKDEP" },
		{ "WARNING: locking bug", "LOCKDEP" },
		{ "WARNING: bad unlock balance", "LOCKDEP" },
		{ "BUG: bad unlock balance", "LOCKDEP" },
		{ "WARNING: held lock freed", "LOCKDEP" },
		{ "BUG: held lock freed", "LOCKDEP" },
		{ "WARNING: nested lock", "LOCKDEP" },
		{ "WARNING: still has locks held", "LOCKDEP" },
		{ "BUG: still has locks held", "LOCKDEP" },
		{ "WARNING: lock held when returning", "LOCKDEP" },
		{ "BUG: lock held when returning", "LOCKDEP" },
		{ "INFO: trying to register non-static key", "LOCKDEP" },
		{ "WARNING: suspicious RCU usage", "LOCKDEP" },
		{ "INFO: suspicious RCU usage", "LOCKDEP" },
		{ "INFO: task hung", "HANG" },
		{ "INFO: task can't die", "HANG" },
		{ "INFO: rcu detected stall", "STALL" },
		{ "BUG: soft lockup", "STALL" },
		{ "BUG: workqueue lockup", "STALL" },
		{ "BUG: spinlock lockup", "STALL" },
		{ "general protection fault", "OOPS" },
		{ "BUG: unable to handle", "OOPS" },
		{ "stack segment fault", "OOPS" },
		{ "divide error", "OOPS" },
		{ "invalid opcode", "OOPS" },
		{ "int3", "OOPS" },
		{ "PANIC: double fault", "OOPS" },
		{ "Internal error", "OOPS" },
		{ "Unhandled fault", "OOPS" },
		{ "Alignment trap", "OOPS" },
		{ "kernel panic", "PANIC" },
		{ "kernel stack overflow", "PANIC" },
		{ "unexpected kernel reboot", "REBOOT" },
		{ "kernel BUG", "BUG" },
		{ "BUG", "BUG" },
		{ "WARNING", "WARNING" },
		{ "INFO", "INFO" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(map); i++)
		if (starts_with(t, map[i].prefix))
			return map[i].type;
	return "OTHER";
}

/* ---- guilty file ----------------------------------------------------- */

/* mini_match - guilty_ignores pattern syntax, see above */
static bool mini_match(const char *pat, const char *s)
{
	for (; *pat; pat++, s++) {
		if (pat[0] == '.' && pat[1] == '*') {
			const char *t;

			for (t = s;; t++) {
				if (mini_match(pat + 2, t))
					return true;
				if (!*t)
					return false;
			}
		}
		if (!*s)
			return false;
		if (pat[0] == '\\' && pat[1]) {
			pat++;
			if (*s != *pat)
				return false;
		} else if (*pat != '.' && *pat != *s) {
			return false;
		}
	}
	return true;
}

/* crashlog_guilty_ignored - path is one the guilty-file rules skip */
bool crashlog_guilty_ignored(const char *path)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(guilty_ignores); i++) {
		const char *p = guilty_ignores[i];

		if (*p == '^' && p[1] != path[0])
			continue;
		if (*p == '^') {
			if (mini_match(p + 1, path))
				return true;
		} else {
			const char *s;

			for (s = path; *s; s++)
				if (mini_match(p, s))
					return true;
		}
	}
	return false;
}

static bool path_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       is_digit(c) || c == '_' || c == '-' || c == '.' || c == '/';
}

static bool name_char(char c)
{
	return path_char(c) && c != '.' && c != '/';
}

/*
 * find_source - the first "dir/file.c:123" in a line (syzkaller's
 * filename pattern); sets start and length of the path
 */
static bool find_source(const char *s, size_t len, size_t *start, size_t *plen)
{
	const char *c = s;

	while ((c = memchr(c, ':', len - (size_t)(c - s)))) {
		size_t i = (size_t)(c++ - s), b;

		if (i < 3 || i + 1 >= len || !is_digit(s[i + 1]))
			continue;
		if ((s[i - 1] != 'c' && s[i - 1] != 'h') || s[i - 2] != '.' ||
		    !name_char(s[i - 3]))
			continue;
		for (b = i; b > 0 && path_char(s[b - 1]); b--)
			;
		*start = b;
		*plen = i - b;
		return true;
	}
	return false;
}

/* clean_path - Go's filepath.Clean for relative paths */
static char *clean_path(const char *p, size_t len)
{
	char *out = xmalloc(len + 2);
	size_t o = 0, i = 0, dotdot = 0;
	bool rooted = len && p[0] == '/';

	if (rooted) {
		out[o++] = '/';
		i = 1;
		dotdot = 1;
	}
	while (i < len) {
		size_t j = i;

		while (j < len && p[j] != '/')
			j++;
		if (j == i || (j - i == 1 && p[i] == '.')) {
			/* empty or "." */
		} else if (j - i == 2 && p[i] == '.' && p[i + 1] == '.') {
			if (o > dotdot) {
				while (o > dotdot && out[o - 1] != '/')
					o--;
				if (o > dotdot)
					o--;
				else if (o && out[o - 1] == '/' && !rooted)
					o--;
			} else if (!rooted) {
				if (o)
					out[o++] = '/';
				out[o++] = '.';
				out[o++] = '.';
				dotdot = o;
			}
		} else {
			if (o && out[o - 1] != '/')
				out[o++] = '/';
			memcpy(out + o, p + i, j - i);
			o += j - i;
		}
		i = j + 1;
	}
	if (!o)
		out[o++] = '.';
	out[o] = '\0';
	return out;
}

static bool line_ignored(struct rx *x, const char *s, size_t len)
{
	uint64_t mk = litset_mask(&G.lineset, s, len);

	ensure_common();
	if (!(mk & (BIT(MK_IGN_IRQ) | BIT(MK_IGN_REG) | BIT(MK_IGN_AT))) &&
	    !memchr(s, '#', len))
		return false;
	return any_match(x, G.line_ignore, ARRAY_SIZE(G.line_ignore), s, len);
}

/* path_dir - Go's filepath.Dir of a clean path */
static size_t path_dir(const char *p)
{
	const char *slash = strrchr(p, '/');

	return slash ? (size_t)(slash - p) : 0;
}

/* deeper - suffix is "/dir.../name.c|h" with at least one more level */
static bool deeper(const char *suffix)
{
	size_t n = strlen(suffix), i, last = 0;

	if (n < 5 || suffix[0] != '/')
		return false;
	if (suffix[n - 2] != '.' ||
	    (suffix[n - 1] != 'c' && suffix[n - 1] != 'h'))
		return false;
	for (i = 1; i < n; i++)
		if (suffix[i] == '/')
			last = i;
	if (last < 2)
		return false;
	for (i = 1; i < last; i++)
		if (!path_char(suffix[i]))
			return false;
	for (i = last + 1; i < n - 2; i++)
		if (!name_char(suffix[i]))
			return false;
	return last + 1 < n - 2;
}

/* under_dir - clean lies under the directory of guilty (cheap test) */
static bool under_dir(const char *guilty, const char *clean)
{
	size_t n = path_dir(guilty);

	return !strchr(guilty, '/') ? clean[0] == '.'
				    : !strncmp(clean, guilty, n);
}

/* refine - take a deeper file under the directory of *guilty */
static void refine(char **guilty, const char *clean)
{
	const char *dir = *guilty;
	size_t n = path_dir(*guilty);

	if (!strchr(*guilty, '/')) {
		dir = ".";
		n = 1;
	}
	if (!strncmp(clean, dir, n) && deeper(clean + n)) {
		free(*guilty);
		*guilty = xstrdup(clean);
	}
}

static char *guilty_impl(struct rx *x, const char *r, size_t len)
{
	const char *p = r, *end = r + len;
	char *guilty = NULL;
	bool accepted = false;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = nl ? (size_t)(nl - p) : (size_t)(end - p);
		size_t st, pl;
		char *clean;

		if (find_source(p, ll, &st, &pl)) {
			clean = clean_path(p + st, pl);
			if (!accepted) {
				if (!guilty)
					guilty = xmemdup0(p + st, pl);
				if (!crashlog_guilty_ignored(clean) &&
				    !line_ignored(x, p, ll)) {
					free(guilty);
					guilty = clean;
					clean = NULL;
					accepted = true;
				}
			} else if (under_dir(guilty, clean) &&
				   !crashlog_guilty_ignored(clean) &&
				   !line_ignored(x, p, ll)) {
				refine(&guilty, clean);
			}
			free(clean);
		}
		p = nl ? nl + 1 : end;
	}
	return guilty;
}

static char *guilty_of(struct rx *x, const char *title, const char *r,
		       size_t len)
{
	static const char *const irq_entries[] = { "apic_timer_interrupt+0x",
						   "el1h_64_irq+0x",
						   "Exception stack" };
	size_t i;

	if (starts_with(title, "INFO: rcu detected stall")) {
		for (i = 0; i < ARRAY_SIZE(irq_entries); i++) {
			const char *pos = memmem(r, len, irq_entries[i],
						 strlen(irq_entries[i]));
			char *f;

			if (!pos)
				continue;
			f = guilty_impl(x, pos, len - (size_t)(pos - r));
			if (f)
				return f;
		}
	}
	return guilty_impl(x, r, len);
}

/* crashlog_guilty - syzkaller's guilty-file choice over report text */
char *crashlog_guilty(const char *title, const char *report, size_t len)
{
	struct rx x;
	char *f;

	init_once();
	x.md = pcre2_match_data_create(32, NULL);
	x.lim = NULL;
	if (!x.md)
		die("crashlog: out of memory");
	f = guilty_of(&x, title ? title : "", report, len);
	pcre2_match_data_free(x.md);
	pcre2_match_context_free(x.lim);
	return f;
}

/* crashlog_guilty_pick - the guilty-file rules over candidate paths */
long crashlog_guilty_pick(const char *const *paths, size_t n)
{
	char *guilty;
	long first = -1, pick = -1;
	size_t i;

	for (i = 0; i < n; i++) {
		if (first < 0)
			first = (long)i;
		if (!crashlog_guilty_ignored(paths[i])) {
			pick = (long)i;
			break;
		}
	}
	if (pick < 0)
		return first;
	guilty = xstrdup(paths[pick]);
	for (i = (size_t)pick + 1; i < n; i++) {
		if (crashlog_guilty_ignored(paths[i]))
			continue;
		refine(&guilty, paths[i]);
		if (!strcmp(guilty, paths[i]))
			pick = (long)i;
	}
	free(guilty);
	return pick;
}

/* crashlog_skip_function - a generic frame that never names a crash */
bool crashlog_skip_function(const char *name)
{
	init_once();
	return litset_any(&G.generic, name, strlen(name));
}

/* ---- stack frames for the evidence ----------------------------------- */

static bool func_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool func_char(char c)
{
	return func_start(c) || is_digit(c) || c == '.' || c == '$';
}

static bool parse_hex(const char **pp, const char *end, unsigned long *out)
{
	const char *p = *pp;
	unsigned long v = 0;
	size_t n = 0;

	if (end - p < 3 || p[0] != '0' || p[1] != 'x')
		return false;
	for (p += 2; p < end; p++, n++) {
		char c = *p;
		unsigned d;

		if (is_digit(c))
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			break;
		if (n < 16)
			v = v * 16 + d;
	}
	if (!n)
		return false;
	*out = v;
	*pp = p;
	return true;
}

/* skip_pc - "[<ffffffff81234567>] " or "[c0000000012345]" */
static const char *skip_pc(const char *p, const char *end)
{
	const char *q = p;

	if (q >= end || *q != '[')
		return p;
	q++;
	if (q < end && *q == '<')
		q++;
	if (q + 1 < end && q[0] == '0' && q[1] == 'x')
		q += 2;
	if (q >= end || !isxdigit((unsigned char)*q))
		return p;
	while (q < end && isxdigit((unsigned char)*q))
		q++;
	if (q < end && *q == '>')
		q++;
	if (q >= end || *q != ']')
		return p;
	q++;
	while (q < end && *q == ' ')
		q++;
	return q;
}

/*
 * source_at - "path/file.c:123" at p (after spaces, optionally in
 * parentheses); sets file and line
 */
static bool source_at(const char *p, const char *end, struct frame *f,
		      const char **after)
{
	const char *q, *b;
	unsigned long line = 0;

	while (p < end && *p == ' ')
		p++;
	if (p < end && *p == '(')
		p++;
	for (b = p; p < end && path_char(*p); p++)
		;
	if (p >= end || *p != ':' || p == b || p + 1 >= end || !is_digit(p[1]))
		return false;
	for (q = b; q < p && *q != '.'; q++)
		;
	if (q == p)
		return false; /* no extension: not a file */
	for (q = p + 1; q < end && is_digit(*q) && line < 10000000; q++)
		line = line * 10 + (unsigned long)(*q - '0');
	while (q < end && (*q == ':' || is_digit(*q)))
		q++; /* ":12:5" columns */
	if (q < end && *q == ')')
		q++;
	free(f->file);
	f->file = clean_path(b, (size_t)(p - b));
	f->line = (int)line;
	*after = q;
	return true;
}

static void frame_release(struct frame *f)
{
	free(f->function);
	free(f->module);
	free(f->file);
}

/*
 * trailer_only - after a symbolised frame's source only more sources,
 * "[inline]", "[module]", "(P)"-style marks and, last, a bare module
 * name (decode_stacktrace.sh) may follow, not prose; sets the module
 */
static bool trailer_only(const char *p, const char *end, struct frame *f)
{
	while (p < end) {
		const char *t, *q;

		while (p < end && *p == ' ')
			p++;
		if (p >= end)
			break;
		t = p;
		while (p < end && *p != ' ')
			p++;
		if (*t == '[' || *t == '(' || *t == '?')
			continue;
		if (memchr(t, ':', (size_t)(p - t)))
			continue;
		for (q = p; q < end && *q == ' '; q++)
			;
		if (q < end || !func_start(*t))
			return false;
		for (q = t; q < p && (func_char(*q) || *q == '-'); q++)
			;
		if (q < p)
			return false;
		if (!f->module)
			f->module = xmemdup0(t, (size_t)(p - t));
	}
	return true;
}

/* crashlog_parse_frame - parse one stack-trace line; false if not one */
bool crashlog_parse_frame(const char *line, size_t len, struct frame *f)
{
	const char *p = line, *end = line + len, *name, *q, *after;
	size_t nlen;
	bool offsets = false, src = false;

	memset(f, 0, sizeof(*f));
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (has_prefix(p, end, "(inlined by) ")) {
		f->inlined = true;
		p += 13;
	}
	/* crash site registers: "RIP: 0010:", "pc : ", "PC is at ", "NIP " */
	if (has_prefix(p, end, "RIP: ") || has_prefix(p, end, "EIP: ")) {
		p += 5;
		q = memchr(p, ':', (size_t)(end - p));
		if (q && q - p <= 6)
			p = q + 1;
		p = skip_pc(p, end);
	} else if (has_prefix(p, end, "pc : ")) {
		p += 5;
	} else if (has_prefix(p, end, "PC is at ")) {
		p += 9;
	} else if (has_prefix(p, end, "NIP ")) {
		p = skip_pc(p + 4, end);
	} else if (has_prefix(p, end, "IP: ")) {
		p = skip_pc(p + 4, end);
	}
	/* "<IRQ>", "<EOI>", "<TASK>" markers before a frame */
	if (p < end && *p == '<' && p + 1 < end &&
	    isupper((unsigned char)p[1])) {
		q = p + 1;
		while (q < end && (isupper((unsigned char)*q) || *q == '_'))
			q++;
		if (q < end && *q == '>') {
			p = q + 1;
			while (p < end && *p == ' ')
				p++;
		}
	}
	if (p < end && *p == '?' && p + 1 < end && p[1] == ' ') {
		f->unreliable = true;
		for (p += 2; p < end && *p == ' '; p++)
			;
	}
	p = skip_pc(p, end);
	p = skip_pc(p, end);
	if (p < end && *p == '?' && p + 1 < end && p[1] == ' ') {
		f->unreliable = true;
		for (p += 2; p < end && *p == ' '; p++)
			;
	}
	/* arm: "[<c0123>] (func [mod]) from [<c0456>] (caller+0x10/0x14)" */
	if (p < end && *p == '(') {
		const char *m = NULL, *me = NULL;

		q = p + 1;
		while (q < end && func_char(*q))
			q++;
		name = p + 1;
		nlen = (size_t)(q - name);
		if (q + 2 < end && q[0] == ' ' && q[1] == '[') {
			m = q + 2;
			me = memchr(m, ']', (size_t)(end - m));
			q = me ? me + 1 : end;
		}
		if (nlen && func_start(*name) &&
		    has_prefix(q, end, ") from ")) {
			if (m && me > m)
				f->module = xmemdup0(m, (size_t)(me - m));
			goto named;
		}
		return false;
	}
	if (p >= end || !func_start(*p))
		return false;
	if (has_suffix(p, end, " (unreliable)")) {
		f->unreliable = true; /* powerpc */
		end -= 13;
	}
	name = p;
	while (p < end && func_char(*p))
		p++;
	nlen = (size_t)(p - name);
	if (p < end && *p == '+') {
		const char *r = p + 1;

		if (parse_hex(&r, end, &f->offset) && r < end && *r == '/' &&
		    (r++, parse_hex(&r, end, &f->size))) {
			offsets = true;
			p = r;
		} else {
			return false;
		}
	}
	/* " [xfs]" or " [xfs 1234abcd]": module */
	while (p < end && *p == ' ')
		p++;
	if (p < end && *p == '[' && end - p > 2 && p[1] != '<') {
		q = p + 1;
		while (q < end && (func_char(*q) || *q == '-'))
			q++;
		if (q > p + 1 && q < end && (*q == ']' || *q == ' ') &&
		    !has_prefix(p, end, "[inline]")) {
			f->module = xmemdup0(p + 1, (size_t)(q - p - 1));
			while (q < end && *q != ']')
				q++;
			p = q < end ? q + 1 : end;
		}
	}
	/* symbolised: " fs/xfs/xfs_icache.c:123 [inline]" or "(file:line)" */
	after = p;
	if (source_at(p, end, f, &after)) {
		src = true;
		if (end - p >= 8 && end[-1] == ']' &&
		    memmem(p, (size_t)(end - p), "[inline]", 8))
			f->inlined = true;
	} else if (has_prefix(p, end, "at ") &&
		   source_at(p + 3, end, f, &after)) {
		src = true; /* addr2line: "func at file.c:12" */
	}
	if (!offsets && (!src || !trailer_only(after, end, f))) {
		frame_release(f);
		memset(f, 0, sizeof(*f));
		return false;
	}
	if (!f->module) {
		/* the module may follow the source: "(fs/x.c:12) [xfs]" */
		q = memrchr(p, '[', (size_t)(end - p));
		if (q && q + 1 < end && func_start(q[1]) &&
		    !has_prefix(q, end, "[inline]")) {
			const char *r = q + 1;

			while (r < end && (func_char(*r) || *r == '-'))
				r++;
			if (r < end && *r == ']')
				f->module =
					xmemdup0(q + 1, (size_t)(r - q - 1));
		}
	}
named:
	/* "xfs_iget.part.0", "foo.isra.12", "bar.cold": the C name */
	q = memchr(name, '.', nlen);
	if (q && q > name)
		nlen = (size_t)(q - name);
	if (nlen > FRAME_NAME_MAX)
		nlen = FRAME_NAME_MAX;
	f->function = xmemdup0(name, nlen);
	return true;
}

static void collect_frames(struct crashlog *c, const char *text, size_t len,
			   struct linemasks *lm)
{
	const char *p = text, *end = text + len;
	size_t alloc = 0;

	while (p < end && c->nframes < CRASHLOG_FRAMES_MAX) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct frame f;
		bool stop = false;

		if (crashlog_parse_frame(p, ll, &f)) {
			ALLOC_GROW(c->frames, c->nframes, alloc);
			c->frames[c->nframes++] = f;
		} else {
			stop = line_mask(lm, p, ll) &
			       (BIT(MK_FRAME_STOP) | BIT(MK_END_TRACE));
			if (stop)
				break;
		}
		p = nl ? nl + 1 : end;
	}
}

/* ---- entry points ---------------------------------------------------- */

struct crashlog_scan {
	const char *log;
	size_t len;
	struct rx x;
	struct cline *lines;
	size_t nlines;
	char **owned; /* lines joined by unwrap() */
	size_t nowned;
	size_t next; /* first line the next crash may start on */
};

/* crashlog_scan_new - split and normalise a log once for several parses */
struct crashlog_scan *crashlog_scan_new(const char *log, size_t len)
{
	struct crashlog_scan *sc = xcalloc(1, sizeof(*sc));
	size_t i;

	init_once();
	if (len > CRASHLOG_TEXT_MAX)
		len = CRASHLOG_TEXT_MAX;
	sc->log = log;
	sc->len = len;
	sc->x.md = pcre2_match_data_create(32, NULL);
	if (!sc->x.md)
		die("crashlog: out of memory");
	sc->lines = normalise(&sc->x, log, len, &sc->nlines);
	sc->nlines = unwrap(sc->lines, sc->nlines, &sc->owned, &sc->nowned);
	for (i = 0; i < sc->nlines; i++) {
		struct cline *l = &sc->lines[i];

		/* content is a suffix of the line but after " (unreliable)" */
		l->cmask_ok = l->c >= l->s && l->c + l->clen == l->s + l->len;
		if (l->cmask_ok)
			l->mask =
				litset_mask2(&G.lineset, l->s, l->len,
					     (size_t)(l->c - l->s), &l->cmask);
		else
			l->mask = litset_mask(&G.lineset, l->s, l->len);
		l->oops = OOPS_UNKNOWN;
	}
	return sc;
}

/* crashlog_scan_free - release a scan */
void crashlog_scan_free(struct crashlog_scan *sc)
{
	size_t i;

	if (!sc)
		return;
	for (i = 0; i < sc->nowned; i++)
		free(sc->owned[i]);
	free(sc->owned);
	free(sc->lines);
	pcre2_match_data_free(sc->x.md);
	pcre2_match_context_free(sc->x.lim);
	free(sc);
}

/*
 * header_starts_line - the header begins the line, after indentation or
 * after a dev_printk() prefix such as "usb 5-1: " or "ath10k_usb 1-1:1.0: "
 */
static bool header_starts_line(const struct cline *l, const char *h, bool *dev)
{
	const char *p = l->c, *end = l->c + l->clen, *at;
	int tokens = 0;
	bool digit = false;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	at = memmem(p, (size_t)(end - p), h, strlen(h));
	if (!at)
		return false;
	*dev = false;
	if (at == p)
		return true;
	/* one or two tokens, the last naming a device and ending in ": " */
	while (p < at && tokens < 3) {
		const char *t = p;

		digit = false;
		while (p < at && *p != ' ') {
			if (!isalnum((unsigned char)*p) && !strchr("_.:-", *p))
				return false;
			digit |= is_digit(*p);
			p++;
		}
		tokens++;
		if (p == at || (p + 1 == at && *p == ' ')) {
			*dev = p - t >= 2 && p[-1] == ':' && digit &&
			       tokens <= 2;
			return *dev;
		}
		p++;
	}
	return false;
}

/*
 * crashlog_scan_next - the next crash report, starting after the header
 * line of the previous one; NULL when there is none
 */
struct crashlog *crashlog_scan_next(struct crashlog_scan *sc)
{
	struct rx *x = &sc->x;
	struct cline *lines = sc->lines;
	size_t nlines = sc->nlines, i, start = 0;
	int oops = -1;
	struct crashlog *c;
	struct extracted e;
	struct desc d;
	char *t;

	for (i = sc->next; i < nlines && oops < 0; i++) {
		oops = oops_match(x, &lines[i]);
		start = i;
	}
	if (oops < 0) {
		sc->next = nlines;
		return NULL;
	}
	sc->next = start + 1;

	memset(&e, 0, sizeof(e));
	sb_init(&e.text, REPORT_MAX);
	sb_init(&e.frames, REPORT_MAX);
	/* a line each, and the prefix lines */
	e.tmask.alloc = (nlines - start < REPORT_LINES_MAX ? nlines - start
							   : REPORT_LINES_MAX) +
			50;
	e.fmask.alloc = e.tmask.alloc;
	e.tmask.v = xreallocarray(NULL, e.tmask.alloc, sizeof(*e.tmask.v));
	e.fmask.v = xreallocarray(NULL, e.fmask.alloc, sizeof(*e.fmask.v));
	find_report(x, lines, nlines, start, &e);
	e.tmask.base = e.text.buf;
	e.fmask.base = e.frames.buf;
	memset(&d, 0, sizeof(d));
	sb_init(&d.title, 4096);
	describe(x, &oopses[oops], e.text.buf + e.prefix_len,
		 e.report_end - e.prefix_len, &e.tmask, &d);
	if (!d.title.len) {
		/* no header in the report: take the raw lines */
		sb_reset(&e.text);
		for (i = e.first_line; i <= e.end_line; i++) {
			sb_add(&e.text, lines[i].s, lines[i].len);
			sb_addc(&e.text, '\n');
		}
		e.prefix_len = 0;
		describe(x, &oopses[oops], e.text.buf, e.text.len, NULL, &d);
	}

	c = xcalloc(1, sizeof(*c));
	t = rewrite_title(x, sb_str(&d.title));
	c->title = sanitize_title(t);
	free(t);
	c->type = xstrdup(crashlog_crash_type(c->title));
	c->corrupted = d.corrupted;
	c->fallback = d.fallback;
	c->line_start = header_starts_line(&lines[start], oopses[oops].header,
					   &c->dev_prefix);
	c->stamped = lines[start].ctx != CTX_NONE;
	c->resume = lines[start].next < sc->len ? lines[start].next : sc->len;
	c->len = e.text.len;
	c->prefix_len = e.prefix_len;
	c->text = sb_detach(&e.text, NULL);
	if (!c->text)
		c->text = xstrdup("");
	c->guilty_file = guilty_of(x, c->title, c->text + c->prefix_len,
				   c->len - c->prefix_len);
	collect_frames(c, e.frames.buf ? e.frames.buf : "", e.frames.len,
		       &e.fmask);
	sb_release(&e.frames);
	free(e.tmask.v);
	free(e.fmask.v);
	sb_release(&d.title);
	return c;
}

/* crashlog_parse - the first crash report in a log; NULL when none */
struct crashlog *crashlog_parse(const char *log, size_t len)
{
	struct crashlog_scan *sc = crashlog_scan_new(log, len);
	struct crashlog *c = crashlog_scan_next(sc);

	crashlog_scan_free(sc);
	return c;
}

#define RXC_MAGIC   "TRIAGERX"
#define RXC_VERSION 4 /* 3: PCRE2_USE_OFFSET_LIMIT; 4: sums */
#define RXC_MAX	    (64u << 20)

/*
 * crashlog_save_patterns - compile every built-in pattern and write them
 * to path for crashlog_load_patterns(); -1 after printing
 */
int crashlog_save_patterns(const char *path)
{
	struct strbuf out = STRBUF_INIT(RXC_MAX);
	struct rxc_entry *ent = NULL;
	uint8_t **blobs = NULL;
	PCRE2_SIZE *blens = NULL, plen = 0;
	uint32_t u, prefix;
	size_t i, n = 0, off;
	int ret = -1;

	init_once();
	pthread_mutex_lock(&G.lock);
	C.recording = true;
	pthread_mutex_unlock(&G.lock);
	/* The cache must not answer while we record: compile afresh. */
	for (i = 0; i < ARRAY_SIZE(oopses); i++)
		ensure_oops(&oopses[i]);
	ensure_common();
	C.recording = false;
	/* compiled by crashlog_init(), before the recording began */
	ALLOC_GROW(C.rec, C.nrec, C.arec);
	C.rec[C.nrec].text = xstrdup(syslog_re);
	C.rec[C.nrec++].code = G.syslog;
	/* written sorted and unique, so that loading need not sort */
	qsort(C.rec, C.nrec, sizeof(*C.rec), cmp_cached);
	ent = xcalloc(C.nrec + 1, sizeof(*ent));
	blobs = xcalloc(C.nrec + 1, sizeof(*blobs));
	blens = xcalloc(C.nrec + 1, sizeof(*blens));
	for (i = 0; i < C.nrec; i++) {
		const pcre2_code *one = C.rec[i].code;

		if (n && !strcmp(C.rec[i].text, C.rec[i - 1].text))
			continue;
		size_t size = 0;

		if (pcre2_serialize_encode(&one, 1, &blobs[n], &blens[n],
					   NULL) < 0 ||
		    pcre2_pattern_info(one, PCRE2_INFO_SIZE, &size) < 0 ||
		    size >= blens[n] ||
		    (n && (blens[n] - size != plen ||
			   memcmp(blobs[n], blobs[0], plen)))) {
			n += blobs[n] != NULL;
			error("cannot serialise the crash-log patterns");
			goto out;
		}
		plen = blens[n] - size;
		ent[n++].text_len = (uint32_t)strlen(C.rec[i].text);
	}
	off = RXC_HEADER + n * sizeof(*ent);
	for (i = 0; i < n; i++) {
		ent[i].text = (uint32_t)off;
		off += ent[i].text_len + 1;
	}
	off = img_align8(off);
	prefix = (uint32_t)off;
	off += plen;
	for (i = 0; i < n; i++) {
		uint64_t sum = img_sum(blobs[i] + plen, blens[i] - plen);

		off = img_align8(off);
		ent[i].code = (uint32_t)off;
		ent[i].code_len = (uint32_t)(blens[i] - plen);
		memcpy(ent[i].sum, &sum, 8);
		off += ent[i].code_len;
	}
	if (off > RXC_MAX) {
		error("crash-log patterns: too large");
		goto out;
	}
	sb_add(&out, RXC_MAGIC, 8);
	u = RXC_VERSION;
	sb_add(&out, &u, 4);
	u = (uint32_t)n;
	sb_add(&out, &u, 4);
	sb_add(&out, &prefix, 4);
	u = (uint32_t)plen;
	sb_add(&out, &u, 4);
	{
		uint64_t sum = img_sum(n ? blobs[0] : (uint8_t *)"", plen);

		sb_add(&out, &sum, 8);
	}
	sb_add(&out, ent, n * sizeof(*ent));
	/* the texts, in entry order */
	for (i = 0; i < C.nrec; i++) {
		if (i && !strcmp(C.rec[i].text, C.rec[i - 1].text))
			continue;
		sb_add(&out, C.rec[i].text, strlen(C.rec[i].text) + 1);
	}
	if (n)
		img_place(&out, blobs[0], plen, "crash-log pattern file");
	for (i = 0; i < n; i++)
		img_place(&out, blobs[i] + plen, blens[i] - plen,
			  "crash-log pattern file");
	ret = write_file_atomic(path, out.buf, out.len, 0644);
out:
	for (i = 0; i < n; i++)
		pcre2_serialize_free(blobs[i]);
	free(blobs);
	free(blens);
	free(ent);
	sb_release(&out);
	return ret;
}

/*
 * crashlog_load_patterns - use the patterns compiled into path; a file
 * that is absent, damaged or from another pcre2 is ignored (patterns
 * are then compiled as needed); returns the number of patterns the
 * file offers (each is decoded when first needed, and compiled after
 * all if its entry turns out damaged)
 */
size_t crashlog_load_patterns(const char *path)
{
	size_t size, count;
	uint32_t u, prefix, plen;
	uint64_t sum;
	unsigned char *p;

	if (C.n || access(path, R_OK) != 0)
		return C.n;
	p = img_map(path, "crash-log pattern file", RXC_HEADER, RXC_MAX, &size);
	if (!p)
		return 0;
	memcpy(&u, p + 8, 4);
	count = 0;
	if (memcmp(p, RXC_MAGIC, 8) || u != RXC_VERSION)
		goto bad;
	memcpy(&u, p + 12, 4);
	memcpy(&prefix, p + 16, 4);
	memcpy(&plen, p + 20, 4);
	memcpy(&sum, p + 24, 8);
	if (!u || u > 100000 ||
	    (size - RXC_HEADER) / sizeof(struct rxc_entry) < u ||
	    !img_range_ok(size, prefix, plen, 1, 8) || plen < 16 ||
	    img_sum(p + prefix, plen) != sum)
		goto bad;
	count = u;
	C.base = p;
	C.size = size;
	C.ent = (const struct rxc_entry *)(p + RXC_HEADER);
	C.prefix = p + prefix;
	C.prefix_len = plen;
	C.codes = xcalloc(count, sizeof(*C.codes));
	C.n = count;
	return C.n;
bad:
	/* Not an error: the patterns are compiled as they are needed. */
	img_unmap(p, size);
	return 0;
}

/* crashlog_free - release a parse result */
void crashlog_free(struct crashlog *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->nframes; i++)
		frame_release(&c->frames[i]);
	free(c->frames);
	free(c->title);
	free(c->type);
	free(c->text);
	free(c->guilty_file);
	free(c);
}
