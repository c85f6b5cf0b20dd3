// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_evidence - crash reports and the facts around them
 *
 * The fixtures in tests/corpus/evidence/ are hand-written logs and mails,
 * one per shape (KASAN, WARNING with dmesg stamps, quoted reply, lockdep,
 * hung task with caller ids, RCU stall, arm64, arm, powerpc, journald,
 * syzbot mail, prose without a crash, ...).  NNNN-slug.txt is the input
 * (a first "Subject: " line and a blank line make it a report with that
 * subject), NNNN-slug.expect holds "key: value" lines; see check_key().
 * The other tests isolate one rule each.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crashlog.h"
#include "evidence.h"
#include "report.h"
#include "strbuf.h"
#include "util.h"

static const char *srcdir(void)
{
	const char *d = getenv("TRIAGE_SRCDIR");

	return d && *d ? d : ".";
}

static struct evidence *text_evidence(const char *text)
{
	return evidence_extract_text(text, strlen(text));
}

static const char *or_none(const char *s)
{
	return s ? s : "(none)";
}

/* ---- fixtures -------------------------------------------------------- */

struct expect_state {
	const char *name;
	const struct evidence *ev;
	size_t frame, function, file, reported, tested;
	int failures;
};

static void fail_key(struct expect_state *st, const char *key, const char *want,
		     const char *got)
{
	print_error("%s: %s: want \"%s\", got \"%s\"\n", st->name, key, want,
		    got);
	st->failures++;
}

/* repro_bits - "c syz steps" or "none" */
static unsigned repro_bits(const char *v)
{
	char buf[256], *tok, *save = NULL;
	unsigned bits = 0;

	snprintf(buf, sizeof(buf), "%s", v);
	for (tok = strtok_r(buf, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		if (!strcmp(tok, "c"))
			bits |= REPRO_C;
		else if (!strcmp(tok, "syz"))
			bits |= REPRO_SYZ;
		else if (!strcmp(tok, "steps"))
			bits |= REPRO_STEPS;
	}
	return bits;
}

/* frame_text - "? name file:line [inline] [module]" for comparison */
static void frame_text(const struct frame *f, const char *want, char *buf,
		       size_t n)
{
	struct strbuf sb = STRBUF_INIT(4096);

	if (f->unreliable)
		sb_adds(&sb, "? ");
	sb_adds(&sb, f->function);
	/* the expectation decides how much detail it checks */
	if (f->file && strchr(want, ':'))
		sb_addf(&sb, " %s:%d", f->file, f->line);
	if (f->inlined && strstr(want, "[inline]"))
		sb_adds(&sb, " [inline]");
	if (f->module && strchr(want, '['))
		sb_addf(&sb, " [%s]", f->module);
	snprintf(buf, n, "%s", sb_str(&sb));
	sb_release(&sb);
}

static void check_key(struct expect_state *st, const char *key, const char *v)
{
	const struct evidence *ev = st->ev;
	char buf[1024], num[32];

#define STR(k, field)                                             \
	if (!strcmp(key, k)) {                                    \
		if (strcmp(v, or_none(ev->field)))                \
			fail_key(st, key, v, or_none(ev->field)); \
		return;                                           \
	}
#define BOOL(k, field)                                               \
	if (!strcmp(key, k)) {                                       \
		if (atoi(v) != (int)ev->field)                       \
			fail_key(st, key, v, ev->field ? "1" : "0"); \
		return;                                              \
	}
	STR("title", title);
	STR("crash_type", crash_type);
	STR("guilty_file", guilty_file);
	STR("kernel_version", kernel_version);
	STR("tainted", tainted);
	STR("hardware", hardware);
	STR("distro_kernel", distro_kernel);
	STR("bisect_commit", bisect_commit);
	STR("subject_prefix", subject_prefix);
	BOOL("hw_virtual", hw_virtual);
	BOOL("dmesg_timestamps", dmesg_timestamps);
	BOOL("syzbot", syzbot);
#undef STR
#undef BOOL
	if (!strcmp(key, "reproducer")) {
		snprintf(num, sizeof(num), "%u", ev->reproducer);
		if (repro_bits(v) != ev->reproducer)
			fail_key(st, key, v, num);
	} else if (!strcmp(key, "frames")) {
		snprintf(num, sizeof(num), "%zu", ev->nframes);
		if ((size_t)atol(v) != ev->nframes)
			fail_key(st, key, v, num);
	} else if (!strcmp(key, "files")) {
		snprintf(num, sizeof(num), "%zu", ev->nfiles);
		if ((size_t)atol(v) != ev->nfiles)
			fail_key(st, key, v, num);
	} else if (!strcmp(key, "frame")) {
		if (st->frame >= ev->nframes) {
			fail_key(st, key, v, "(no more frames)");
		} else {
			frame_text(&ev->frames[st->frame], v, buf, sizeof(buf));
			if (strcmp(v, buf))
				fail_key(st, key, v, buf);
		}
		st->frame++;
	} else if (!strcmp(key, "function")) {
		const char *got = st->function < ev->nfunctions
					  ? ev->functions[st->function]
					  : "(no more)";

		if (strcmp(v, got))
			fail_key(st, key, v, got);
		st->function++;
	} else if (!strcmp(key, "file")) {
		const char *got = st->file < ev->nfiles ? ev->files[st->file]
							: "(no more)";

		if (strcmp(v, got))
			fail_key(st, key, v, got);
		st->file++;
	} else if (!strcmp(key, "reported_by")) {
		const char *got = st->reported < ev->nreported_by
					  ? ev->reported_by[st->reported]
					  : "(no more)";

		if (strcmp(v, got))
			fail_key(st, key, v, got);
		st->reported++;
	} else if (!strcmp(key, "tested_by")) {
		const char *got = st->tested < ev->ntested_by
					  ? ev->tested_by[st->tested]
					  : "(no more)";

		if (strcmp(v, got))
			fail_key(st, key, v, got);
		st->tested++;
	} else {
		fail_key(st, "unknown key", key, "");
	}
}

/* fixture_evidence - a report when the text starts with "Subject: " */
static struct evidence *fixture_evidence(char *text, size_t len)
{
	struct report *r;
	struct report_part *part;
	struct evidence *ev;
	char *nl, *body;

	if (!starts_with(text, "Subject: ") || !(nl = strstr(text, "\n\n")))
		return evidence_extract_text(text, len);
	r = report_new();
	free(r->subject);
	r->subject = xmemdup0(text + 9, (size_t)(nl - text - 9));
	body = nl + 2;
	r->body = xstrdup(body);
	r->body_len = strlen(body);
	part = report_add_part(r);
	part->mime_type = xstrdup("text/plain");
	part->text = xstrdup(body);
	part->len = strlen(body);
	part->flags = PART_TEXT;
	ev = evidence_extract(r);
	report_free(r);
	return ev;
}

static int run_fixture(const char *dir, const char *base)
{
	char path[8192], *text, *exp, *line, *save = NULL;
	size_t tlen, elen;
	struct expect_state st = { 0 };
	struct evidence *ev;

	snprintf(path, sizeof(path), "%s/%s.txt", dir, base);
	assert_int_equal(read_file(path, 1 << 20, &text, &tlen), 0);
	snprintf(path, sizeof(path), "%s/%s.expect", dir, base);
	assert_int_equal(read_file(path, 1 << 20, &exp, &elen), 0);
	ev = fixture_evidence(text, tlen);
	st.name = base;
	st.ev = ev;
	for (line = strtok_r(exp, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *colon = strstr(line, ": ");

		if (!colon) {
			fail_key(&st, "bad expect line", line, "");
			continue;
		}
		*colon = '\0';
		check_key(&st, line, colon + 2);
	}
	evidence_free(ev);
	free(text);
	free(exp);
	return st.failures;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_fixtures(void **state)
{
	char dir[4096];
	char *names[256];
	size_t n = 0, i;
	int failures = 0;
	DIR *d;
	struct dirent *de;

	snprintf(dir, sizeof(dir), "%s/tests/corpus/evidence", srcdir());
	d = opendir(dir);
	assert_non_null(d);
	while ((de = readdir(d)) && n < ARRAY_SIZE(names)) {
		if (ends_with(de->d_name, ".expect"))
			names[n++] =
				xmemdup0(de->d_name, strlen(de->d_name) - 7);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_str);
	/* one fixture per shape: keep them all */
	assert_true(n >= 22);
	for (i = 0; i < n; i++) {
		failures += run_fixture(dir, names[i]);
		free(names[i]);
	}
	assert_int_equal(failures, 0);
}

/* ---- single rules ---------------------------------------------------- */

static void test_subject_prefix(void **state)
{
	static const struct {
		const char *subject, *prefix;
	} cases[] = {
		{ "xfs: fix a use-after-free in xfs_iget", "xfs" },
		{ "[BUG] mm/slub: corruption after resume", "mm/slub" },
		{ "[syzbot] [xfs?] KASAN: slab-use-after-free Read in xfs_foo",
		  "xfs" },
		{ "Re: [syzbot] [btrfs?] [fs?] WARNING in btrfs_put", "btrfs" },
		{ "Re: [PATCH v2 3/4] net: sched: cake: fix", "net" },
		{ "Fwd: Re: [REGRESSION] btusb: adapter gone", "btusb" },
		{ "RE: [RFC PATCH] ALSA: hda: quirk", "ALSA" },
		/* every "Re:" kind.c knows (kind_subject_prefix) */
		{ "Antw: WG: [PATCH] i2c: designware: timeout", "i2c" },
		{ "\xe5\x9b\x9e\xe5\xa4\x8d\xef\xbc\x9a ext4: data loss",
		  "ext4" },
		/* Bugzilla's "New: " is no prefix; the title's own is */
		{ "[Bug 221293] New: Thunderbolt: \"failed to calculate\"",
		  "Thunderbolt" },
		{ "[Bug 220818] New: iwlwifi: firmware crash", "iwlwifi" },
		{ "[Bug 220818] New: touchpad dead after resume", NULL },
		{ "[syzbot] KASAN: use-after-free Read in foo", NULL },
		{ "KASAN: use-after-free Read in foo", NULL },
		{ "BUG: kernel NULL pointer dereference in bar", NULL },
		{ "Kernel panic after resume", NULL },
		{ "Why does my laptop hang?", NULL },
		{ "", NULL },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		char *p = evidence_subject_prefix(cases[i].subject);

		if (cases[i].prefix) {
			assert_non_null(p);
			assert_string_equal(p, cases[i].prefix);
		} else if (p) {
			fail_msg("\"%s\": unexpected prefix %s",
				 cases[i].subject, p);
		}
		free(p);
	}
	assert_null(evidence_subject_prefix(NULL));
}

static void test_guilty_ignores(void **state)
{
	static const char *const ignored[] = {
		"include/linux/skbuff.h",
		"lib/list_debug.c",
		"mm/kasan/report.c",
		"mm/slub.c",
		"mm/slab_common.c",
		"kernel/rcu/tree.c",
		"kernel/locking/lockdep.c",
		"arch/x86/kernel/traps.c",
		"arch/arm64/kernel/entry-common.c",
		"kernel/sched/core.c",
		"net/core/dev.c",
		"drivers/usb/core/urb.c",
		"arch/x86/lib/crc32-glue.c",
		"fs/proc/generic.c",
		"kernel/workqueue.c",
		/* show_stack(): the index gives a riscv trace x86's */
		"arch/x86/kernel/dumpstack.c",
		"arch/x86/kernel/dumpstack_64.c",
	};
	static const char *const kept[] = {
		"fs/xfs/xfs_inode.c",
		"net/core/rtnetlink.c",
		"kernel/bpf/hashtab.c",
		"drivers/usb/core/hub.c",
		"mm/mmap.c",
		"arch/x86/kvm/x86.c",
		"arch/x86/kernel/cpu/bugs.c",
		"net/ipv4/tcp.c",
		"kernel/sched_clock_stub",
		"security/keys/key.c",
	};
	size_t i;

	static const char *const core[] = {
		"drivers/base/core.c",	   "drivers/base/dd.c",
		"drivers/iommu/iommu.c",   "drivers/iommu/dma-iommu.c",
		"kernel/irq/manage.c",	   "kernel/dma/mapping.c",
		"kernel/time/hrtimer.c",   "net/netlink/af_netlink.c",
		"security/security.c",	   "arch/x86/kernel/irq.c",
		"arch/x86/kernel/smp.c",   "arch/x86/kernel/paravirt.c",
		"kernel/exit.c",	   "kernel/entry/common.c",
		"arch/x86/entry/common.c", "mm/mmap_lock.c",
		"crypto/xxhash_generic.c", "drivers/acpi/osl.c",
		"kernel/power/main.c",
	};
	static const char *const not_core[] = {
		"drivers/base/regmap/regmap.c",
		"drivers/base/firmware_loader/main.c",
		"drivers/iommu/intel/iommu.c",
		"drivers/iommu/amd/iommu.c",
		"arch/x86/kernel/smpboot.c",
		"arch/x86/kvm/irq.c",
		"drivers/usb/core/hub.c",
		"mm/memcontrol.c",
		"security/selinux/hooks.c",
		"crypto/shash.c",
		"crypto/async_tx/async_xor_generic.c",
		"kernel/power/suspend.c",
	};

	/* one list for the guilty-file choice and a section's weight
	 * (sections.c generic_path()) */
	for (i = 0; i < ARRAY_SIZE(core); i++)
		if (!crashlog_core_path(core[i]))
			fail_msg("%s should be core", core[i]);
	for (i = 0; i < ARRAY_SIZE(not_core); i++)
		if (crashlog_core_path(not_core[i]))
			fail_msg("%s should not be core", not_core[i]);
	for (i = 0; i < ARRAY_SIZE(ignored); i++)
		if (!crashlog_guilty_ignored(ignored[i]))
			fail_msg("%s should be ignored", ignored[i]);
	for (i = 0; i < ARRAY_SIZE(kept); i++)
		if (crashlog_guilty_ignored(kept[i]))
			fail_msg("%s should be kept", kept[i]);
}

static void check_guilty(const char *log, const char *want)
{
	char *got = evidence_guilty_file(log, strlen(log));

	if (!want) {
		if (got)
			fail_msg("unexpected guilty file %s", got);
	} else {
		assert_non_null(got);
		assert_string_equal(got, want);
	}
	free(got);
}

static void test_guilty_rules(void **state)
{
	/* first accepted file wins, ignored ones are skipped */
	check_guilty("BUG: KASAN: use-after-free in foo+0x1/0x2\n"
		     "Call Trace:\n"
		     " kasan_report+0x1/0x2 mm/kasan/report.c:10\n"
		     " memcpy+0x1/0x2 lib/string.c:20\n"
		     " foo+0x1/0x2 net/sctp/socket.c:30\n"
		     " bar+0x1/0x2 fs/read_write.c:40\n",
		     "net/sctp/socket.c");
	/* a deeper file under the same directory takes over */
	check_guilty("WARNING: CPU: 0 PID: 1 at fs/ext4/super.c:5 f+0x1/0x2\n"
		     "Call Trace:\n"
		     " a+0x1/0x2 fs/ext4/super.c:5\n"
		     " b+0x1/0x2 net/core/filter.c:6\n"
		     " c+0x1/0x2 fs/ext4/sub/dir.c:7\n"
		     " d+0x1/0x2 fs/ext4/sub/deeper/x.c:8\n",
		     "fs/ext4/sub/deeper/x.c");
	/* everything ignored: the first candidate, as written */
	check_guilty("kernel BUG at ./include/linux/skbuff.h:2000!\n"
		     "Call Trace:\n"
		     " x+0x1/0x2 lib/foo.c:3\n",
		     "./include/linux/skbuff.h");
	/* lockdep held-lock and irq-state lines name no guilty file */
	check_guilty("WARNING: possible recursive locking detected\n"
		     "foo/1 is trying to acquire lock:\n"
		     "ffff (&x->lock){+.+.}, at: f+0x1/0x2 fs/a/a.c:1\n"
		     "hardirqs last  enabled at (1): g+0x1/0x2 fs/b/b.c:2\n"
		     " #0: ffff (&y){+.+.}-{3:3}, at: h fs/c/c.c:3\n"
		     "Call Trace:\n"
		     " i+0x1/0x2 fs/d/d.c:4\n",
		     "fs/d/d.c");
	/* RCU stalls: look after the interrupt entry first */
	check_guilty(
		"INFO: rcu_preempt self-detected stall on CPU\n"
		"Call Trace:\n"
		" rcu_dump+0x1/0x2 sound/core/timer.c:1\n"
		" sysvec_apic_timer_interrupt+0x1/0x2 arch/x86/kernel/apic/apic.c:2\n"
		" loop+0x1/0x2 drivers/char/loopy.c:3\n",
		"drivers/char/loopy.c");
	/* no file at all */
	check_guilty("general protection fault: 0000 [#1]\n"
		     "RIP: 0010:foo+0x1/0x2\n",
		     NULL);
	/* no crash: the rules run over the whole text */
	check_guilty("see drivers/net/x.c:12 and lib/y.c:3\n",
		     "drivers/net/x.c");
}

static void test_frame_formats(void **state)
{
	static const struct {
		const char *line;
		const char *function, *module, *file;
		int line_no;
		bool inlined, unreliable;
		unsigned long offset, size;
	} cases[] = {
		{ " xfs_iget+0x1a2/0x3c0 [xfs]", "xfs_iget", "xfs", NULL, 0,
		  false, false, 0x1a2, 0x3c0 },
		{ " ? __warn+0x7d/0xc0", "__warn", NULL, NULL, 0, false, true,
		  0x7d, 0xc0 },
		{ " [<ffffffff816efb87>] ? _sched_show_task+0x31a/0x325",
		  "_sched_show_task", NULL, NULL, 0, false, true, 0x31a,
		  0x325 },
		{ " __dump_stack lib/dump_stack.c:94 [inline]", "__dump_stack",
		  NULL, "lib/dump_stack.c", 94, true, false, 0, 0 },
		{ " kernfs_get.part.0+0x69/0x80 fs/kernfs/dir.c:522",
		  "kernfs_get", NULL, "fs/kernfs/dir.c", 522, false, false,
		  0x69, 0x80 },
		{ "RIP: 0010:btrfs_put+0x356/0x3c0 fs/btrfs/transaction.c:144",
		  "btrfs_put", NULL, "fs/btrfs/transaction.c", 144, false,
		  false, 0x356, 0x3c0 },
		{ "pc : wm8960_hw_params+0x74/0x3c0 [snd_soc_wm8960]",
		  "wm8960_hw_params", "snd_soc_wm8960", NULL, 0, false, false,
		  0x74, 0x3c0 },
		{ "  _raw_spin_unlock_irq+0x28/0x58 (PF)",
		  "_raw_spin_unlock_irq", NULL, NULL, 0, false, false, 0x28,
		  0x58 },
		{ " <IRQ>  [<ffffffff816efb87>] hrtimer+0x31a/0x325", "hrtimer",
		  NULL, NULL, 0, false, false, 0x31a, 0x325 },
		{ "[c00000002f0c7a70] [c0000000008a3e84] nvme_poll+0x74/0xb0 (unreliable)",
		  "nvme_poll", NULL, NULL, 0, false, true, 0x74, 0xb0 },
		{ "[<bf1a2b3c>] (brcmf_rx [brcmfmac]) from [<bf19e8f0>] (w+0x1/0x2)",
		  "brcmf_rx", "brcmfmac", NULL, 0, false, false, 0, 0 },
		{ " (inlined by) lookup_backref at fs/btrfs/extent-tree.c:1003",
		  "lookup_backref", NULL, "fs/btrfs/extent-tree.c", 1003, true,
		  false, 0, 0 },
		{ " __btrfs_free_extent (fs/btrfs/extent-tree.c:3194) btrfs",
		  "__btrfs_free_extent", "btrfs", "fs/btrfs/extent-tree.c",
		  3194, false, false, 0, 0 },
		{ " ? __x64_sys_ioctl (fs/ioctl.c:51 fs/ioctl.c:893)",
		  "__x64_sys_ioctl", NULL, "fs/ioctl.c", 51, false, true, 0,
		  0 },
		/* crash(8) "bt" of a kdump: no offsets, the dump's own
		 * frames taken as "? " ones */
		{ " #7 [ffffb3c60a1f7ce0] freeze_super at ffffffffa0f3a1d9",
		  "freeze_super", NULL, NULL, 0, false, false, 0, 0 },
		{ "#12 [ffff80000c3abd10] md_check_recovery at ffffb8a1a2f91270 [md_mod]",
		  "md_check_recovery", "md_mod", NULL, 0, false, false, 0, 0 },
		{ " #0 [ffffb3c60a1f7a48] machine_kexec at ffffffffa0c6e1f7",
		  "machine_kexec", NULL, NULL, 0, false, true, 0, 0 },
		{ "    [exception RIP: ext4_freeze+84]", "ext4_freeze", NULL,
		  NULL, 0, false, false, 84, 0 },
	};
	static const char *const not_frames[] = {
		"Call Trace:",
		" <TASK>",
		"RIP: 0033:0x446179",
		"CPU: 0 PID: 1 Comm: swapper/0 Not tainted 6.12.0 #1",
		"Hardware name: QEMU Standard PC (i440FX + PIIX, 1996)",
		"Code: 48 89 fa 48 c1 ea 03 80 3c 02 00",
		"lr : snd_soc_dai_hw_params+0x3c/0x98",
		"See fs/xfs/xfs_inode.c:123 for details",
		"Read of size 8 at addr ffff88807d4c21b8 by task foo/1",
		" #0: ffff88814b6c4650 (sb_internal){.+.+}-{0:0}, at: f+0x1/0x2",
		"e.g. foo+0x12/0x30 crashed",
		"",
		/* crash(8) shapes only with their lead and address */
		"freeze_super at ffffffffa0f3a1d9",
		" #7 [ffffb3c60a1f7ce0] freeze_super",
		" #7 [ffffb3c60a1f7ce0] freeze_super at line 12",
		"#7 freeze_super at ffffffffa0f3a1d9",
		"[exception RIP: ext4_freeze+0x54/0x90 ]",
		"[exception RIP: unknown]",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct frame f;
		bool ok = crashlog_parse_frame(cases[i].line,
					       strlen(cases[i].line), &f);

		if (!ok)
			fail_msg("not parsed: %s", cases[i].line);
		assert_string_equal(f.function, cases[i].function);
		if (cases[i].module) {
			assert_non_null(f.module);
			assert_string_equal(f.module, cases[i].module);
		} else {
			assert_null(f.module);
		}
		if (cases[i].file) {
			assert_non_null(f.file);
			assert_string_equal(f.file, cases[i].file);
		} else {
			assert_null(f.file);
		}
		assert_int_equal(f.line, cases[i].line_no);
		assert_int_equal(f.inlined, cases[i].inlined);
		assert_int_equal(f.unreliable, cases[i].unreliable);
		assert_int_equal(f.offset, cases[i].offset);
		assert_int_equal(f.size, cases[i].size);
		free(f.function);
		free(f.module);
		free(f.file);
	}
	for (i = 0; i < ARRAY_SIZE(not_frames); i++) {
		struct frame f;

		if (crashlog_parse_frame(not_frames[i], strlen(not_frames[i]),
					 &f))
			fail_msg("parsed as a frame: %s", not_frames[i]);
	}
}

/*
 * a frame whose module bracket ends the buffer, each in a block of its
 * exact size: memcmp(p, "[inline]", 8) with fewer than 8 bytes left read
 * past it (issue 25, found by fuzz_evidence; caught under SANITIZE)
 */
static void test_frame_at_buffer_end(void **state)
{
	static const char *const lines[] = {
		" f+0x1/0x2 [m]",     " f+0x1/0x2 [mo]", " f+0x1/0x2 [m ",
		" f+0x1/0x2 [m",      " f fs/x.c:1 [m]", " f fs/x.c:1 [inline]",
		" f+0x1/0x2 [inlin]",
	};
	static const char *const modules[] = {
		"m", "mo", "m", NULL, "m", NULL, "inlin",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lines); i++) {
		size_t n = strlen(lines[i]);
		char *exact = xmalloc(n);
		struct frame f;

		memcpy(exact, lines[i], n);
		if (!crashlog_parse_frame(exact, n, &f))
			fail_msg("not parsed: %s", lines[i]);
		assert_string_equal(f.function, "f");
		if (modules[i]) {
			assert_non_null(f.module);
			assert_string_equal(f.module, modules[i]);
		} else {
			assert_null(f.module);
		}
		free(f.function);
		free(f.module);
		free(f.file);
		free(exact);
	}
}

static void check_title(const char *log, const char *want)
{
	struct evidence *ev = text_evidence(log);

	if (!want) {
		if (ev->title)
			fail_msg("unexpected crash: %s", ev->title);
	} else {
		assert_non_null(ev->title);
		assert_string_equal(ev->title, want);
	}
	evidence_free(ev);
}

static void test_titles(void **state)
{
	/* variable parts become ADDR, NUM, LINE */
	check_title(
		"[   1.000000] WARNING: foo 0xffff888012345678 failed on cpu 3 at x.c:12\n",
		"WARNING: foo ADDR failed on cpu NUM at x.c:LINE");
	/* syscall prefixes are dropped from stall frames */
	check_title("watchdog: BUG: soft lockup - CPU#1 stuck for 22s! [a:1]\n"
		    "RIP: 0010:spin+0x1/0x2\n"
		    "Call Trace:\n"
		    " my_loop+0x1/0x2\n"
		    " __x64_sys_mycall+0x1/0x2\n"
		    " do_syscall_64+0x1/0x2\n",
		    "BUG: soft lockup in sys_mycall");
	/* hung tasks waiting for RCU share one title */
	check_title("INFO: task a:1 blocked for more than 120 seconds.\n"
		    "Call Trace:\n"
		    " __schedule+0x1/0x2\n"
		    " synchronize_rcu_expedited+0x1/0x2\n"
		    " foo_teardown+0x1/0x2\n",
		    "INFO: task hung in synchronize_rcu");
	/* C++ and Rust v0 names are demangled */
	check_title("BUG: KASAN: use-after-free in _Z8fakeNameiii+0x1/0x2\n"
		    "Read of size 8 at addr ffff88807d4c21b8 by task a/1\n"
		    "Call Trace:\n",
		    "KASAN: use-after-free Read in fakeName");
	check_title(
		"rust_kernel: panicked at drivers/x.rs:1:2:\n"
		"attempt to add with overflow\n"
		"Call Trace:\n"
		" _RNvCscSpY9Juk0HT_7___rustc17rust_begin_unwind+0x1/0x2\n"
		" _RNvMs0_NtCshgDM7dBCdno_11rust_binder4nodeNtB5_4Node3inc+0x1/0x2\n",
		"attempt to add with overflow in <rust_binder::node::Node>::inc");
	/* symbolised duplicates of the header line do not cut the report */
	check_title(
		"BUG: KASAN: slab-use-after-free in inl lib/x.h:1 [inline]\n"
		"BUG: KASAN: slab-use-after-free in outer+0x1/0x2 lib/x.c:2\n"
		"Read of size 8 at addr ffff88807d4c21b8 by task a/1\n"
		"Call Trace:\n"
		" outer+0x1/0x2 lib/x.c:2\n",
		"KASAN: slab-use-after-free Read in outer");
	/* frames decoded by scripts/decode_stacktrace.sh name titles */
	check_title(
		"WARNING: possible recursive locking detected\n"
		"ip/273 is trying to acquire lock:\n"
		"ffff (rtnl_mutex){+.+.}-{4:4}, at: ax88772_resume (drivers/net/usb/asix_devices.c:650)\n"
		"\n"
		"but task is already holding lock:\n",
		"possible deadlock in ax88772_resume");
	/* a WARNING line a mail client wrapped is joined again */
	check_title("[    2.3] WARNING: CPU: 1 PID: 2 at\n"
		    "drivers/gpu/foo/bar.c:186\n"
		    "bar_construct.cold+0x1e/0x2e [foo]\n"
		    "[    2.4] RIP: 0010:bar_construct.cold+0x1e/0x2e [foo]\n"
		    "[    2.5] Call Trace:\n",
		    "WARNING in bar_construct");
}

static void test_not_crashes(void **state)
{
	/* prose that names crash words is no crash */
	check_title("My laptop had a Kernel panic after resume.\n"
		    "It says WARNING: on boot sometimes, and INFO: lines.\n"
		    "kernel BUG reports are rare.  BUG: I think it is xfs.\n",
		    NULL);
	check_title("drivers/foo.c:12:10: fatal error: foo.h: No such file\n",
		    NULL);
	check_title("panic: only at the start of a line is a tool panic\n"
		    "a panic: in the middle is prose\n",
		    "panic: only at the start of a line is a tool panic");
	/* messages that carry the header but are no crash */
	check_title(
		"[   1.0] WARNING: /etc/ssh/moduli does not exist, using fixed modulus\n"
		"[   2.0] INFO: lockdep is turned off.\n",
		NULL);
	/* "PID: " starts a crash only as crash(8)'s "bt" header */
	check_title("PID: 4242 was the one stuck in D state.\n"
		    "CPU: 3 PID: 1234 Comm: kworker/3:1 Not tainted 6.12.0\n"
		    " #0 [ffffb3c60a1f7a48] foo_bar at ffffffffa0c6e1f7\n",
		    NULL);
	check_title("PID: 61755  TASK: ffff88ae57e4c380  CPU: 6   "
		    "COMMAND: \"kworker/u40:3\"\n"
		    " #0 [ffffc90006b6fae8] machine_kexec at ffffffff8106af4e\n"
		    " #1 [ffffc90006b6fc00] panic at ffffffff8191aa0f\n"
		    " #2 [ffffc90006b6fe38] foo_stop at ffffffffc0c825fd "
		    "[foo]\n",
		    "crash dump in foo_stop");
	/* a quoted Subject: line yields to the crash below it */
	check_title(
		"> Subject: [syzbot] WARNING: refcount bug in foo\n"
		"\n"
		"WARNING: CPU: 0 PID: 1 at lib/refcount.c:25 refcount_warn_saturate+0x1/0x2\n"
		"RIP: 0010:refcount_warn_saturate+0x1/0x2\n"
		"Call Trace:\n"
		" <TASK>\n"
		" bar_put+0x1/0x2\n",
		"WARNING: refcount bug in bar_put");
}

static void test_finish_from_index(void **state)
{
	const char *log = "general protection fault: 0000 [#1] SMP\n"
			  "RIP: 0010:inner+0x1/0x2 [foo]\n"
			  "Call Trace:\n"
			  " ? helper+0x1/0x2\n"
			  " mutex_lock_nested+0x1/0x2\n"
			  " outer+0x1/0x2 [foo]\n"
			  " deeper+0x1/0x2 [foo]\n";
	struct evidence *ev = text_evidence(log);
	size_t i;

	assert_string_equal(ev->title, "general protection fault in inner");
	assert_null(ev->guilty_file);
	assert_int_equal(ev->nframes, 5);
	assert_int_equal(ev->nfiles, 0);
	/* what symbols_resolve() does */
	for (i = 0; i < ev->nframes; i++) {
		const char *file = NULL;

		if (!strcmp(ev->frames[i].function, "inner"))
			file = "include/linux/foo.h";
		else if (!strcmp(ev->frames[i].function, "helper"))
			file = "drivers/foo/helper.c";
		else if (!strcmp(ev->frames[i].function, "mutex_lock_nested"))
			file = "kernel/locking/mutex.c";
		else if (!strcmp(ev->frames[i].function, "outer"))
			file = "drivers/foo/core.c";
		else if (!strcmp(ev->frames[i].function, "deeper"))
			file = "drivers/foo/sub/deeper.c";
		ev->frames[i].file = xstrdup(file);
		ev->frames[i].from_index = true;
	}
	evidence_finish(ev);
	/* the header and the locking file are skipped, "? " frames too;
	 * the deeper file under drivers/foo/ wins */
	assert_non_null(ev->guilty_file);
	assert_string_equal(ev->guilty_file, "drivers/foo/sub/deeper.c");
	assert_true(ev->guilty_from_index);
	assert_int_equal(ev->nfiles, 4);
	assert_string_equal(ev->files[0], "drivers/foo/sub/deeper.c");
	assert_string_equal(ev->files[1], "include/linux/foo.h");
	assert_string_equal(ev->files[2], "kernel/locking/mutex.c");
	assert_string_equal(ev->files[3], "drivers/foo/core.c");
	/* again: the same answer, nothing doubled */
	evidence_finish(ev);
	assert_string_equal(ev->guilty_file, "drivers/foo/sub/deeper.c");
	assert_int_equal(ev->nfiles, 4);
	/* functions: no "? " frame, no generic locking frame */
	assert_int_equal(ev->nfunctions, 3);
	assert_string_equal(ev->functions[0], "inner");
	assert_string_equal(ev->functions[1], "outer");
	assert_string_equal(ev->functions[2], "deeper");
	evidence_free(ev);

	/* a guilty file the text gave is kept */
	ev = text_evidence("kernel BUG at fs/ext4/inode.c:12!\n"
			   "RIP: 0010:ext4_x+0x1/0x2\n");
	assert_string_equal(ev->guilty_file, "fs/ext4/inode.c");
	free(ev->frames[0].file);
	ev->frames[0].file = xstrdup("fs/ext4/other.c");
	ev->frames[0].from_index = true;
	evidence_finish(ev);
	assert_string_equal(ev->guilty_file, "fs/ext4/inode.c");
	assert_false(ev->guilty_from_index);
	evidence_free(ev);
	evidence_finish(NULL);
}

/* what symbols_resolve() does, with a table for the index */
static void resolve(struct evidence *ev, const char *const (*idx)[2])
{
	size_t i, k;

	for (i = 0; i < ev->nframes; i++) {
		struct frame *f = &ev->frames[i];

		for (k = 0; !f->file && idx[k][0]; k++)
			if (!strcmp(f->function, idx[k][0])) {
				f->file = xstrdup(idx[k][1]);
				f->from_index = true;
			}
	}
	ev->text_function_files =
		xcalloc(ev->ntext_functions + 1, sizeof(char *));
	for (i = 0; i < ev->ntext_functions; i++)
		for (k = 0; idx[k][0]; k++)
			if (!strcmp(ev->text_functions[i], idx[k][0]))
				ev->text_function_files[i] = xstrdup(idx[k][1]);
	evidence_finish(ev);
}

static void check_maintainer_guilty(const char *log,
				    const char *const (*idx)[2],
				    const char *syz, const char *want)
{
	struct evidence *ev = text_evidence(log);

	resolve(ev, idx);
	assert_non_null(ev->title);
	(void)syz;
	assert_non_null(ev->guilty_file);
	assert_string_equal(ev->guilty_file, want);
	/* again: the same answer */
	evidence_finish(ev);
	assert_string_equal(ev->guilty_file, want);
	evidence_free(ev);
}

/*
 * The guilty file a maintainer reads in the trace: past the generic file
 * syzkaller keeps as a last resort and past core code, to the driver or
 * filesystem; the work function or the ODEBUG object's owner when every
 * frame is generic; the generic file when nothing else is there.
 */
static void test_maintainer_guilty(void **state)
{
	static const char *const idx[][2] = {
		{ "__list_del_entry_valid_or_report", "lib/list_debug.c" },
		{ "foo_gadget_unbind", "drivers/usb/gadget/function/f_foo.c" },
		{ "config_item_put", "fs/configfs/item.c" },
		{ "mddev_delayed_delete", "drivers/md/md.c" },
		{ "rtl2832_i2c_gate_work",
		  "drivers/media/dvb-frontends/rtl2832.c" },
		{ "device_del", "drivers/base/core.c" },
		{ "bus_remove_device", "drivers/base/bus.c" },
		{ "foo_remove", "drivers/net/ethernet/foo/foo_main.c" },
		{ "mem_cgroup_charge", "mm/memcontrol.c" },
		{ "do_exit", "kernel/exit.c" },
		{ NULL, NULL },
	};
	static const char *const none[][2] = { { NULL, NULL } };
	const char *header =
		"list_del corruption. prev->next should be x\n"
		"------------[ cut here ]------------\n"
		"kernel BUG at lib/list_debug.c:62!\n"
		"Internal error: Oops - BUG: 0 [#1] SMP\n"
		"pc : __list_del_entry_valid_or_report+0xb8/0x110\n"
		"Call trace:\n"
		" __list_del_entry_valid_or_report+0xb8/0x110\n";
	char log[2048];
	struct evidence *ev;
	size_t i;

	(void)state;
	/* the checker's file named in the header, the driver in frames
	 * the index gave files */
	snprintf(log, sizeof(log), "%s%s", header,
		 " foo_gadget_unbind+0x3c/0x90\n"
		 " config_item_put+0x20/0x50\n"
		 " el0t_64_sync+0x1b0/0x1b8\n");
	check_maintainer_guilty(log, idx, "lib/list_debug.c",
				"drivers/usb/gadget/function/f_foo.c");
	/* no index: syzkaller's last resort stays */
	ev = text_evidence(log);
	assert_string_equal(ev->guilty_file, "lib/list_debug.c");
	evidence_free(ev);
	/* every frame generic, and no work function: the generic file */
	snprintf(log, sizeof(log), "%s%s", header,
		 " list_del+0x1/0x2 lib/list_debug.c:70\n"
		 " do_exit+0x1/0x2\n");
	check_maintainer_guilty(log, idx, "lib/list_debug.c",
				"lib/list_debug.c");
	/* a kworker's crash through generic frames only: the work item */
	check_maintainer_guilty(
		"refcount_t: underflow; use-after-free.\n"
		"WARNING: CPU: 1 PID: 24 at lib/refcount.c:28 "
		"refcount_warn_saturate+0x11a/0x1d0 lib/refcount.c:28\n"
		"Modules linked in:\n"
		"CPU: 1 UID: 0 PID: 24 Comm: kworker/u8:1 Not tainted 6.16.0 #0\n"
		"Workqueue: md_misc mddev_delayed_delete\n"
		"RIP: 0010:refcount_warn_saturate+0x11a/0x1d0 lib/refcount.c:28\n"
		"Call Trace:\n"
		" <TASK>\n"
		" process_one_work+0x1/0x2 kernel/workqueue.c:3238\n"
		" worker_thread+0x8a0/0xda0 kernel/workqueue.c:3402\n"
		" kthread+0x711/0x8a0 kernel/kthread.c:464\n"
		" ret_from_fork+0x3fc/0x770 arch/x86/kernel/process.c:148\n"
		" </TASK>\n",
		idx, "lib/refcount.c", "drivers/md/md.c");
	/* the work function is no function the text names: the index's
	 * file taken, it leaves text_functions[] */
	ev = text_evidence(
		"WARNING: CPU: 1 PID: 24 at lib/refcount.c:28 "
		"refcount_warn_saturate+0x11a/0x1d0\n"
		"Workqueue: md_misc mddev_delayed_delete\n"
		"Call Trace:\n"
		" process_one_work+0x1/0x2 kernel/workqueue.c:3238\n");
	assert_string_equal(ev->work_function, "mddev_delayed_delete");
	assert_int_equal(ev->ntext_functions, 1);
	resolve(ev, idx);
	assert_string_equal(ev->guilty_file, "drivers/md/md.c");
	assert_int_equal(ev->ntext_functions, 0);
	for (i = 0; i < ev->nfunctions; i++)
		assert_string_not_equal(ev->functions[i],
					"mddev_delayed_delete");
	evidence_free(ev);
	/* named in the prose too, it stays there */
	ev = text_evidence(
		"mddev_delayed_delete() runs late:\n"
		"WARNING: CPU: 1 PID: 24 at lib/refcount.c:28 "
		"refcount_warn_saturate+0x11a/0x1d0\n"
		"Workqueue: md_misc mddev_delayed_delete\n"
		"Call Trace:\n"
		" process_one_work+0x1/0x2 kernel/workqueue.c:3238\n");
	resolve(ev, idx);
	assert_string_equal(ev->guilty_file, "drivers/md/md.c");
	assert_int_equal(ev->ntext_functions, 1);
	assert_string_equal(ev->text_function_files[0], "drivers/md/md.c");
	evidence_free(ev);
	/* a cut report with no frame at all: no guess from the work */
	ev = text_evidence("kernel BUG at include/linux/mmap_lock.h:70!\n"
			   "Workqueue: events mddev_delayed_delete\n");
	resolve(ev, idx);
	assert_string_equal(ev->guilty_file, "include/linux/mmap_lock.h");
	evidence_free(ev);
	/* a specific frame outranks the work function */
	check_maintainer_guilty(
		"WARNING: CPU: 1 PID: 24 at lib/refcount.c:28 "
		"refcount_warn_saturate+0x11a/0x1d0\n"
		"Workqueue: md_misc mddev_delayed_delete\n"
		"Call Trace:\n"
		" foo_remove+0x1/0x2\n"
		" process_one_work+0x1/0x2 kernel/workqueue.c:3238\n",
		idx, "lib/refcount.c", "drivers/net/ethernet/foo/foo_main.c");
	/* ODEBUG: the object's owner, by the hint's file or the index */
	check_maintainer_guilty(
		"ODEBUG: free active (active state 0) object: ffff8880 "
		"object type: timer_list hint: rtl2832_i2c_gate_work+0x0/0x100 "
		"drivers/media/dvb-frontends/rtl2832.c:-1\n"
		"WARNING: CPU: 1 PID: 9 at lib/debugobjects.c:615 "
		"debug_print_object+0x1/0x2 lib/debugobjects.c:612\n"
		"Call Trace:\n"
		" kfree+0x1/0x2 mm/slub.c:6561\n"
		" i2c_device_remove+0x1/0x2 drivers/i2c/i2c-core-base.c:631\n"
		" device_remove+0x1/0x2 drivers/base/dd.c:619\n",
		none, "drivers/i2c/i2c-core-base.c",
		"drivers/media/dvb-frontends/rtl2832.c");
	check_maintainer_guilty(
		"ODEBUG: free active (active state 0) object: ffff8880 "
		"object type: work_struct hint: rtl2832_i2c_gate_work+0x0/0x1\n"
		"WARNING: CPU: 1 PID: 9 at lib/debugobjects.c:615 "
		"debug_print_object+0x1/0x2 lib/debugobjects.c:612\n"
		"Call Trace:\n"
		" i2c_device_remove+0x1/0x2 drivers/i2c/i2c-core-base.c:631\n",
		idx, "drivers/i2c/i2c-core-base.c",
		"drivers/media/dvb-frontends/rtl2832.c");
	/* core code syzkaller keeps (the device model): the driver below */
	check_maintainer_guilty(
		"BUG: KASAN: slab-use-after-free in device_del+0x1/0x2\n"
		"Call Trace:\n"
		" kasan_report+0x1/0x2 mm/kasan/report.c:10\n"
		" device_del+0x1/0x2 drivers/base/core.c:3800\n"
		" bus_remove_device+0x1/0x2 drivers/base/bus.c:500\n"
		" foo_remove+0x1/0x2\n",
		idx, "drivers/base/core.c",
		"drivers/net/ethernet/foo/foo_main.c");
	/* a bug in mm itself stays in mm */
	check_maintainer_guilty(
		"WARNING: CPU: 0 PID: 1 at mm/memcontrol.c:100 "
		"mem_cgroup_charge+0x1/0x2\n"
		"Call Trace:\n"
		" mem_cgroup_charge+0x1/0x2 mm/memcontrol.c:100\n"
		" foo_remove+0x1/0x2\n",
		idx, "mm/memcontrol.c", "mm/memcontrol.c");
	/* only core code: it stays */
	check_maintainer_guilty(
		"BUG: KASAN: slab-use-after-free in device_del+0x1/0x2\n"
		"Call Trace:\n"
		" device_del+0x1/0x2 drivers/base/core.c:3800\n"
		" bus_remove_device+0x1/0x2 drivers/base/bus.c:500\n",
		idx, "drivers/base/core.c", "drivers/base/core.c");
}

static void test_versions(void **state)
{
	static const struct {
		const char *text, *version, *distro;
	} cases[] = {
		{ "CPU: 0 PID: 1 Comm: x Not tainted 6.12.0-rc3 #1\n",
		  "6.12.0-rc3", NULL },
		{ "CPU: 1 PID: 2 Comm: y Tainted: G    B   W  6.8.0-45-generic #45-Ubuntu\n",
		  "6.8.0-45-generic", "6.8.0-45-generic" },
		{ "Linux version 6.1.0-42-amd64 (debian-kernel@lists.debian.org)\n",
		  "6.1.0-42-amd64", "6.1.0-42-amd64" },
		{ "I run kernel 6.8.9 on Arch.\n", "6.8.9", NULL },
		{ "Linux laptop 6.9.3-arch1-1 #1 SMP PREEMPT_DYNAMIC x86_64\n",
		  "6.9.3-arch1-1", "6.9.3-arch1-1" },
		{ "kernel version: 6.6.52+bpo-amd64\n", "6.6.52+bpo-amd64",
		  "6.6.52+bpo-amd64" },
		{ "The Linux 6.12 release notes.\n", "6.12", NULL },
		{ "uname -r says 5.14.0-427.13.1.el9_4.x86_64\n",
		  "5.14.0-427.13.1.el9_4.x86_64",
		  "5.14.0-427.13.1.el9_4.x86_64" },
		{ "version 12.5 of gcc and 2.40 of binutils\n", NULL, NULL },
		{ "kernelversion 6.1\n", NULL, NULL },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct evidence *ev = text_evidence(cases[i].text);

		if (strcmp(or_none(ev->kernel_version),
			   or_none(cases[i].version)) ||
		    strcmp(or_none(ev->distro_kernel),
			   or_none(cases[i].distro)))
			fail_msg("%s: version %s distro %s", cases[i].text,
				 or_none(ev->kernel_version),
				 or_none(ev->distro_kernel));
		evidence_free(ev);
	}
}

static void test_hardware_and_repro(void **state)
{
	struct evidence *ev;

	ev = text_evidence(
		"Hardware name: innotek GmbH VirtualBox/VirtualBox, BIOS VirtualBox 12/01/2006\n");
	assert_true(ev->hw_virtual);
	evidence_free(ev);
	ev = text_evidence(
		"Hardware name: Microsoft Corporation Virtual Machine/Virtual Machine, BIOS Hyper-V UEFI Release v4.1\n");
	assert_true(ev->hw_virtual);
	evidence_free(ev);
	ev = text_evidence(
		"[    0.000000] DMI: Xen HVM domU, BIOS 4.11.amazon 08/24/2006\n");
	assert_string_equal(ev->hardware,
			    "Xen HVM domU, BIOS 4.11.amazon 08/24/2006");
	assert_true(ev->hw_virtual);
	assert_true(ev->dmesg_timestamps);
	evidence_free(ev);
	ev = text_evidence(
		"Hardware name: ASUS System Product Name/PRIME X570-P\n");
	assert_false(ev->hw_virtual);
	evidence_free(ev);
	/* dmesg -H's and dmesg -T's stamps are a console's too */
	ev = text_evidence("Have you seen this notice before?\n\n"
			   "[Apr11 19:28] bcache: stale dirty pointer\n"
			   "[  +0.014297] bcache: stale dirty pointer\n");
	assert_true(ev->dmesg_timestamps);
	evidence_free(ev);
	ev = text_evidence("[Fri Apr 11 19:28:01 2025] md: resync done\n");
	assert_true(ev->dmesg_timestamps);
	evidence_free(ev);
	ev = text_evidence("The [+] key and [Apr11] tag are no stamps.\n");
	assert_false(ev->dmesg_timestamps);
	evidence_free(ev);

	ev = text_evidence("repro: see https://example.org/files/repro.c\n");
	assert_int_equal(ev->reproducer, REPRO_C);
	evidence_free(ev);
	ev = text_evidence("How to reproduce:\n- mount it\n- run fsstress\n");
	assert_int_equal(ev->reproducer, REPRO_STEPS);
	evidence_free(ev);
	ev = text_evidence("I can reproduce it like this:\n\n"
			   "1. plug the dock\n2. unplug it\n");
	assert_int_equal(ev->reproducer, REPRO_STEPS);
	evidence_free(ev);
	ev = text_evidence("Agenda:\n1. coffee\n2. tea\n");
	assert_int_equal(ev->reproducer, 0);
	evidence_free(ev);
	ev = text_evidence("mkdir$cgroup(0x0)\n");
	assert_int_equal(ev->reproducer, REPRO_SYZ);
	evidence_free(ev);
	/* the C program syzkaller writes says so on its first line */
	ev = text_evidence("// autogenerated by syzkaller "
			   "(https://github.com/google/syzkaller)\n\n"
			   "#define _GNU_SOURCE\n");
	assert_int_equal(ev->reproducer, REPRO_SYZ);
	evidence_free(ev);
}

static void test_report_parts(void **state)
{
	struct report *r = report_new();
	struct report_part *p;
	struct evidence *ev;
	const char *dmesg =
		"[   12.345678] BUG: kernel NULL pointer dereference, address: 0000000000000008\n"
		"[   12.345690] RIP: 0010:foo_probe+0x1/0x2 [foo]\n"
		"[   12.345700] Call Trace:\n"
		"[   12.345701]  bar_init+0x1/0x2 [foo]\n";

	free(r->subject);
	r->subject = xstrdup("[PATCH] foo: fix probe");
	free(r->from_addr);
	r->from_addr = xstrdup("syzbot+1234@syzkaller.appspotmail.com");
	r->body = xstrdup("See the attached dmesg and reproducer.\n");
	r->body_len = strlen(r->body);
	p = report_add_part(r);
	p->text = xstrdup(r->body);
	p->len = r->body_len;
	p->flags = PART_TEXT;
	p = report_add_part(r);
	p->text = xstrdup("<p>BUG: this html rendering is skipped</p>");
	p->len = strlen(p->text);
	p->flags = PART_TEXT | PART_HTML;
	p = report_add_part(r);
	p->filename = xstrdup("dmesg.txt");
	p->text = xstrdup(dmesg);
	p->len = strlen(dmesg);
	p->flags = PART_TEXT | PART_ATTACHMENT;
	p = report_add_part(r);
	p->filename = xstrdup("poc.c");
	p->text = xstrdup("int main(void) { return 0; }\n");
	p->len = strlen(p->text);
	p->flags = PART_TEXT | PART_ATTACHMENT;

	ev = evidence_extract(r);
	assert_string_equal(
		ev->title,
		"BUG: unable to handle kernel NULL pointer dereference in foo_probe");
	assert_true(ev->dmesg_timestamps);
	assert_int_equal(ev->nframes, 2);
	assert_true(ev->reproducer & REPRO_C);
	assert_string_equal(ev->subject_prefix, "foo");
	assert_true(ev->syzbot);
	evidence_free(ev);
	report_free(r);

	/* an empty report */
	r = report_new();
	ev = evidence_extract(r);
	assert_null(ev->title);
	assert_int_equal(ev->nfiles, 0);
	evidence_free(ev);
	report_free(r);
}

static void test_lists_capped(void **state)
{
	struct strbuf sb = STRBUF_INIT(1 << 20);
	struct evidence *ev;
	int i;

	for (i = 0; i < 300; i++)
		sb_addf(&sb,
			"Reported-by: user%d\nsee fs/dir%d/file.c and f%d_name()\n",
			i, i, i);
	ev = evidence_extract_text(sb.buf, sb.len);
	assert_int_equal(ev->nfiles, EVIDENCE_LIST_MAX);
	assert_int_equal(ev->nfunctions, EVIDENCE_LIST_MAX);
	assert_string_equal(ev->files[0], "fs/dir0/file.c");
	assert_string_equal(ev->functions[1], "f1_name");
	assert_true(ev->nreported_by <= 16);
	evidence_free(ev);
	sb_release(&sb);
}

/* where a report was sent: To: and Cc: addresses, bare, once each */
static void test_recipients(void **state)
{
	struct report *r = report_new();
	struct evidence *ev;

	(void)state;
	free(r->from_addr);
	r->from_addr = xstrdup("reporter@example.org");
	report_add_header(
		r, "To",
		"\"linux-usb@vger.kernel.org\" <linux-usb@vger.kernel.org>,"
		" Mathias Nyman <Mathias.Nyman@Intel.com>");
	report_add_header(
		r, "Cc",
		"reporter@example.org, \"luiz.dentz\" <luiz.dentz@gmail.com>,"
		" USB list <linux-usb@vger.kernel.org>, stray@, @nowhere,"
		" a@localhost, andrew+netdev@lunn.ch.");
	report_add_header(r, "Cc", "second@example.org");
	ev = evidence_extract(r);
	assert_int_equal(ev->nrecipients, 5);
	assert_string_equal(ev->recipients[0], "linux-usb@vger.kernel.org");
	assert_string_equal(ev->recipients[1], "mathias.nyman@intel.com");
	assert_string_equal(ev->recipients[2], "luiz.dentz@gmail.com");
	assert_string_equal(ev->recipients[3], "andrew+netdev@lunn.ch");
	assert_string_equal(ev->recipients[4], "second@example.org");
	evidence_free(ev);
	report_free(r);
}

/*
 * Drivers the subject and the prose name: words with a digit, "_" or
 * "-", and the subject's words before ":"; not paths, file names,
 * function calls, English words, console output or the module list.
 * Functions a filesystem's error line names ("func:LINE:").
 */
static void test_named_drivers(void **state)
{
	static const char body[] =
		"Since 6.14-rc1 the touchpad behind hid-mcp2221 stops, and\n"
		"ucsi_acpi reports nothing.  See drivers/usb/typec/ucsi/ucsi.c\n"
		"and amd_sfh_hid.ko; calling foo_bar() helps; x86_64 host.\n"
		"[   12.345678] rtw89_8852be 0000:04:00.0: fw failed\n"
		"Modules linked in: snd_hda_intel btusb\n"
		" ? some_func+0x12/0x30\n"
		"EXT4-fs error (device sda1): ext4_find_extent:936: inode #2\n"
		"at 21:17:03 host:22: nothing\n"
		"the hidraw driver, module btusb and nouveau drivers; the\n"
		"driver is old, some module is new\n";
	struct report *r = report_new();
	struct evidence *ev;
	size_t i;
	bool f1 = false, f2 = false;

	(void)state;
	free(r->subject);
	r->subject = xstrdup(
		"[BUG] wifi: iwlegacy: rtw89 fails, Wifi-6 and new: gone");
	r->body = xstrdup(body);
	r->body_len = strlen(body);
	ev = evidence_extract(r);
	assert_int_equal(ev->nnamed_subject, 6);
	/* the leading "word: " prefixes are names; "new:" later is not */
	assert_string_equal(ev->named[0], "wifi");
	assert_string_equal(ev->named[1], "iwlegacy");
	/* "Wifi-6" is not lower case */
	assert_string_equal(ev->named[2], "rtw89");
	/* then the pairs of words (names_pairs_in_subject()): candidates
	 * that symbols_resolve() keeps when they name a module */
	assert_string_equal(ev->named[3], "wifi iwlegacy");
	assert_string_equal(ev->named[4], "iwlegacy rtw89");
	assert_string_equal(ev->named[5], "rtw89 fails");
	assert_int_equal(ev->nnamed, 13);
	assert_string_equal(ev->named[10], "hidraw");
	assert_string_equal(ev->named[11], "btusb");
	assert_string_equal(ev->named[12], "nouveau");
	assert_string_equal(ev->named[6], "hid-mcp2221");
	assert_string_equal(ev->named[7], "ucsi_acpi");
	/* candidates only: the symbol index keeps those that are modules */
	assert_string_equal(ev->named[8], "x86_64");
	assert_string_equal(ev->named[9], "sda1");
	for (i = 0; i < ev->ntext_functions; i++) {
		f1 |= !strcmp(ev->text_functions[i], "foo_bar");
		f2 |= !strcmp(ev->text_functions[i], "ext4_find_extent");
	}
	assert_true(f1);
	assert_true(f2);
	assert_int_equal(ev->ntext_functions, 2);
	evidence_free(ev);
	report_free(r);
}

/*
 * Paths under the top of an unpacked tree ("linux-6.14/", "linux/")
 * are the tree's; journal lines are console output (device lines)
 */
static void test_tree_roots_and_journal(void **state)
{
	struct evidence *ev = text_evidence(
		"See linux-6.14/drivers/usb/host/xhci.c and linux/fs/xfs/x.c,\n"
		"not mylinux/mm/a.c, linuxish/mm/b.c or /tmp/linux/mm/c.c.\n"
		"kernel: btusb 3-10:1.0: probe failed\n"
		"Dec 05 09:12:01 box kernel: mt7921e 0000:04:00.0: fw lost\n");
	size_t i;

	(void)state;
	assert_int_equal(ev->ntext_files, 2);
	assert_string_equal(ev->text_files[0], "drivers/usb/host/xhci.c");
	assert_string_equal(ev->text_files[1], "fs/xfs/x.c");
	assert_int_equal(ev->nmodules, 2);
	assert_string_equal(ev->modules[0], "btusb");
	assert_string_equal(ev->modules[1], "mt7921e");
	/* no console stamps, but console lines: no prose names there */
	assert_false(ev->dmesg_timestamps);
	for (i = 0; i < ev->nnamed; i++)
		assert_string_not_equal(ev->named[i], "mt7921e");
	evidence_free(ev);
}

/*
 * dev_printk() names its driver before the device however the device is
 * named: its own numbered one, a SCSI address, a platform device at an
 * address or numbered; prose with a colon names none
 */
static void test_device_prefixes(void **state)
{
	struct evidence *ev = text_evidence(
		"[  812.100123] nvme nvme0: I/O 8 QID 0 timeout, reset controller\n"
		"[  812.200456] sd 2:0:0:0: [sda] Synchronize Cache(10) failed\n"
		"kernel: dwc3 fe800000.usb: failed to initialize core\n"
		"i2c_designware i2c_designware.0: controller timed out\n"
		"Note that: this is prose, as is the file.c: line\n"
		"see notes: nothing here, nor in v1.x: either\n");

	(void)state;
	assert_int_equal(ev->nmodules, 4);
	assert_string_equal(ev->modules[0], "nvme");
	assert_string_equal(ev->modules[1], "sd");
	assert_string_equal(ev->modules[2], "dwc3");
	assert_string_equal(ev->modules[3], "i2c_designware");
	evidence_free(ev);
}

/*
 * A build robot's paths through ".." ("arch/powerpc/kvm/../../../virt/
 * kvm/eventfd.c:621:19: error: ...") are the file they resolve to; one
 * that climbs out of the tree, or "..." in prose, names none
 */
static void test_dotdot_paths(void **state)
{
	struct evidence *ev = text_evidence(
		">> arch/powerpc/kvm/../../../virt/kvm/eventfd.c:621:19: error\n"
		"   drivers/gpu/drm/amd/amdgpu/../display/dc/core/dc.c:12: warn\n"
		"   drivers/../../etc/passwd.c and fs/xfs/..x.c, fs/.../y.c\n");

	(void)state;
	assert_int_equal(ev->ntext_files, 2);
	assert_string_equal(ev->text_files[0], "virt/kvm/eventfd.c");
	assert_string_equal(ev->text_files[1],
			    "drivers/gpu/drm/amd/display/dc/core/dc.c");
	evidence_free(ev);
}

/*
 * A Bugzilla notification: its product and component from the headers,
 * else from the "[Bug N]" mail's lines; "New:" is no subsystem
 */
static void test_bugzilla_component(void **state)
{
	static const char body[] =
		"https://bugzilla.kernel.org/show_bug.cgi?id=4242\n\n"
		"            Bug ID: 4242\n"
		"           Summary: headset drops after resume\n"
		"           Product: Drivers\n"
		"          Hardware: All\n"
		"         Component: Bluetooth\n"
		"          Assignee: someone@example.org\n\n"
		"Component: not this one\n";
	struct report *r = report_new();
	struct evidence *ev;

	(void)state;
	free(r->subject);
	r->subject = xstrdup("[Bug 4242] New: headset drops after resume");
	r->body = xstrdup(body);
	r->body_len = strlen(body);
	ev = evidence_extract(r);
	assert_string_equal(ev->bz_product, "Drivers");
	assert_string_equal(ev->bz_component, "Bluetooth");
	assert_null(ev->subject_prefix);
	evidence_free(ev);
	report_add_header(r, "X-Bugzilla-Product", "File System");
	report_add_header(r, "X-Bugzilla-Component", "ext4");
	ev = evidence_extract(r);
	assert_string_equal(ev->bz_product, "File System");
	assert_string_equal(ev->bz_component, "ext4");
	evidence_free(ev);
	/* not a Bugzilla mail: "Product:" lines mean nothing */
	report_free(r);
	r = report_new();
	free(r->subject);
	r->subject = xstrdup("question");
	r->body = xstrdup(body);
	r->body_len = strlen(body);
	ev = evidence_extract(r);
	assert_null(ev->bz_product);
	assert_null(ev->bz_component);
	evidence_free(ev);
	report_free(r);
}

/* a trailer value with a NUL in it: found by fuzz_evidence (overread) */
static void test_trailer_nul(void **state)
{
	static const char text[] = "Reported-by: a long name <a@example.org>\n"
				   "Reported-by: a\0tail <b@example.org>\n"
				   "Reported-by: a\0other <c@example.org>\n";
	struct evidence *ev = evidence_extract_text(text, sizeof(text) - 1);

	/* a value ends at its NUL: "a" once, after the first value */
	assert_int_equal(ev->nreported_by, 2);
	assert_string_equal(ev->reported_by[1], "a");
	evidence_free(ev);
}

static void test_hostile_input(void **state)
{
	size_t big = EVIDENCE_TEXT_MAX + (1u << 18), i;
	char *buf = xmalloc(big + 1);
	struct evidence *ev;

	/* one huge line without a newline */
	memset(buf, 'A', big);
	memcpy(buf + 100, "BUG: KASAN: ", 12);
	buf[big] = '\0';
	ev = evidence_extract_text(buf, big);
	assert_non_null(ev->title);
	assert_true(strlen(ev->title) <= 120);
	evidence_free(ev);

	/* thousands of crash headers, none complete: the lazy multi-line
	 * patterns must give up within their limits */
	for (i = 0; i + 40 < big; i += 40) {
		memcpy(buf + i, "BUG: KASAN: a in f+0x1/0x2 x Read of\n", 37);
		memset(buf + i + 37, '\n', 3);
	}
	buf[i] = '\0';
	ev = evidence_extract_text(buf, i);
	assert_non_null(ev->title);
	evidence_free(ev);

	/* frames without end, NUL bytes, lone "\r" */
	for (i = 0; i + 32 < big; i += 32)
		memcpy(buf + i, " f+0x1/0x2 fs/a.c:1 [mod]\r\n\0\0\0\0\0", 32);
	memcpy(buf, "general protection fault: 0000\n", 31);
	ev = evidence_extract_text(buf, i);
	assert_string_equal(ev->title, "general protection fault in corrupted");
	assert_true(ev->nframes <= CRASHLOG_FRAMES_MAX);
	assert_true(ev->nfiles <= EVIDENCE_LIST_MAX);
	evidence_free(ev);

	/* empty and tiny inputs */
	ev = evidence_extract_text("", 0);
	assert_null(ev->title);
	evidence_free(ev);
	ev = evidence_extract_text(NULL, 0);
	assert_null(ev->title);
	evidence_free(ev);
	ev = text_evidence("BUG:");
	assert_string_equal(ev->title, "BUG: corrupted");
	evidence_free(ev);
	free(buf);
}

/* Drivers named by device lines and by frames' [module] tags. */
static void test_modules(void **state)
{
	const char *log =
		"[ 8812.101300] btusb 3-10:1.0: probe with driver btusb failed\n"
		"[  148.449222] mt7921e 0000:04:00.0: Message 00020007 timeout\n"
		"usb 3-10: new high-speed USB device number 4\n"
		"pcieport 0000:00:1c.0: AER: error\n"
		"Bluetooth: hci0: command 0x0c03 tx timeout\n"
		"random text: not 1-2: a driver\n";
	struct evidence *ev = evidence_extract_text(log, strlen(log));
	size_t i;

	assert_int_equal(ev->nmodules, 2);
	assert_string_equal(ev->modules[0], "btusb");
	assert_string_equal(ev->modules[1], "mt7921e");
	for (i = 0; i < ev->nmodules; i++) {
		/* generic bus drivers say nothing */
		assert_string_not_equal(ev->modules[i], "usb");
		assert_string_not_equal(ev->modules[i], "pcieport");
		assert_string_not_equal(ev->modules[i], "random");
	}
	evidence_free(ev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures),
		cmocka_unit_test(test_modules),
		cmocka_unit_test(test_subject_prefix),
		cmocka_unit_test(test_guilty_ignores),
		cmocka_unit_test(test_guilty_rules),
		cmocka_unit_test(test_frame_formats),
		cmocka_unit_test(test_titles),
		cmocka_unit_test(test_not_crashes),
		cmocka_unit_test(test_finish_from_index),
		cmocka_unit_test(test_maintainer_guilty),
		cmocka_unit_test(test_versions),
		cmocka_unit_test(test_hardware_and_repro),
		cmocka_unit_test(test_report_parts),
		cmocka_unit_test(test_lists_capped),
		cmocka_unit_test(test_hostile_input),
		cmocka_unit_test(test_trailer_nul),
		cmocka_unit_test(test_recipients),
		cmocka_unit_test(test_named_drivers),
		cmocka_unit_test(test_tree_roots_and_journal),
		cmocka_unit_test(test_device_prefixes),
		cmocka_unit_test(test_dotdot_paths),
		cmocka_unit_test(test_bugzilla_component),
		cmocka_unit_test(test_frame_at_buffer_end),
	};

	msg_setup("test_evidence", 1, false);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
