#!/bin/sh
# t0208-explain-guilty: the guilty file 'triage explain' shows is where a
# maintainer reads the trace: past the generic checker syzkaller's rules
# keep only as a last resort and past the device core, to the driver the
# symbol index finds for the frames; the work a kworker ran and the
# owner of an ODEBUG object when every frame is generic; the generic file
# when the whole trace is; a journal's lines with only the host before
# "kernel: "
. "$(dirname "$0")/../lib.sh"
cat >"$T/MAINTAINERS" <<'MNT'
ZORP USB GADGET FUNCTION
M:	Zed Orp <zo@example.org>
L:	linux-usb@vger.example.org
S:	Supported
F:	drivers/usb/gadget/function/f_zorp.c

SOFTWARE RAID (Multiple Disks) SUPPORT
M:	Rae Id <ri@example.org>
L:	linux-raid@vger.example.org
S:	Supported
F:	drivers/md/

QUUX TUNER DRIVER
M:	Qu Ux <qu@example.org>
L:	linux-media@vger.example.org
S:	Supported
F:	drivers/media/tuners/quux.c

DRIVER CORE, KOBJECTS, DEBUGFS AND SYSFS
M:	Dee Core <dc@example.org>
S:	Supported
F:	drivers/base/
F:	lib/list_debug.c

LIBRARY CODE
M:	Lib Rary <lr@example.org>
S:	Supported
F:	lib/

THE REST
M:	Linus <torvalds@example.org>
L:	linux-kernel@vger.example.org
S:	Buried alive in reporters
F:	*
F:	*/
MNT
cat >"$T/routes.conf" <<CONF
state_dir = $T/state
maintainers = $T/MAINTAINERS
kernel_tree = $T/tree
rules_dir = $SRC/classifiers
router_address = triage@example.org
CONF
export TRIAGE_CONFIG="$T/routes.conf"

test_setup 'a small kernel tree and its index' '
	mkdir -p "$T/tree/lib" "$T/tree/drivers/usb/gadget/function" \
		"$T/tree/drivers/md" "$T/tree/drivers/base" \
		"$T/tree/drivers/media/tuners" &&
	cat >"$T/tree/lib/list_debug.c" <<-\EOF &&
	bool __list_del_entry_valid_or_report(struct list_head *entry)
	{
		return true;
	}
	EOF
	cat >"$T/tree/drivers/usb/gadget/function/f_zorp.c" <<-\EOF &&
	static void zorp_unbind(struct usb_configuration *c)
	{
		list_del(&c->list);
	}
	EOF
	cat >"$T/tree/drivers/base/core.c" <<-\EOF &&
	void device_del(struct device *dev)
	{
		list_del(&dev->list);
	}
	EOF
	cat >"$T/tree/drivers/md/md.c" <<-\EOF &&
	static void mddev_delayed_delete(struct work_struct *ws)
	{
		kobject_put(ws);
	}
	EOF
	cat >"$T/tree/drivers/media/tuners/quux.c" <<-\EOF &&
	static void quux_gate_work(struct work_struct *work)
	{
		quux_close(work);
	}
	EOF
	"$TRIAGE" update >"$T/update.out" &&
	grep -q "^symbols: .* from 5 files of " "$T/update.out"
'

# guilty FILE: the guilty line of explain's text output is FILE
cat >"$T/guilty.sh" <<'SH'
grep -q "^guilty  *$2\$" "$1"
SH
cat >"$T/first.sh" <<'SH'
sed -n '/^sections/{s/^sections *//; s/  .*//; p; q}' "$1"
SH

cat >"$T/list.eml" <<'EML'
From: Rita Reporter <rita@example.net>
To: linux-usb@vger.example.org
Subject: Oops when rebinding the zorp gadget
Message-ID: <zorp-list-1@example.net>
Date: Thu, 01 Jan 2026 10:00:00 +0000

Rebinding the zorp function while its device is open crashes:

[  276.440740] list_del corruption. prev->next should be ffff00000c72e7f0, but was ffff0000023c84a0
[  276.456345] ------------[ cut here ]------------
[  276.456345] kernel BUG at lib/list_debug.c:62!
[  276.460836] Internal error: Oops - BUG: 00000000f2000800 [#1]  SMP
[  276.592961] CPU: 0 UID: 0 PID: 1756 Comm: bash Not tainted 6.17.1 #1
[  276.607215] Hardware name: Raspberry Pi 4 Model B Rev 1.1 (DT)
[  276.625725] pc : __list_del_entry_valid_or_report+0xb8/0x110
[  276.631451] lr : __list_del_entry_valid_or_report+0xb8/0x110
[  276.715262] Call trace:
[  276.715262]  __list_del_entry_valid_or_report+0xb8/0x110 (P)
[  276.720990]  zorp_unbind+0x3c/0x90
[  276.724250]  device_del+0x220/0x250
[  276.779242]  el0t_64_sync_handler+0xa0/0xf0
[  276.782947] Code: a94107e3 9129a000 f9400062 97d7bf71 (d4210000)
[  276.789118] ---[ end trace 0000000000000000 ]---

It happens every time.
EML

test_expect_success 'a list checker names no owner: the driver below it does' '
	"$TRIAGE" explain "$T/list.eml" >"$T/out.txt" &&
	sh "$T/guilty.sh" "$T/out.txt" drivers/usb/gadget/function/f_zorp.c &&
	test "$(sh "$T/first.sh" "$T/out.txt")" = "ZORP USB GADGET FUNCTION"
'

test_expect_success 'the same trace from the journal, its date cut off ("box kernel: ")' '
	sed "s/^\[ *[0-9.]*\] /pi4box kernel: /" "$T/list.eml" >"$T/journal.eml" &&
	grep -q "^pi4box kernel:  zorp_unbind+" "$T/journal.eml" &&
	"$TRIAGE" explain "$T/journal.eml" >"$T/out.txt" &&
	sh "$T/guilty.sh" "$T/out.txt" drivers/usb/gadget/function/f_zorp.c &&
	test "$(sh "$T/first.sh" "$T/out.txt")" = "ZORP USB GADGET FUNCTION"
'

cat >"$T/core.eml" <<'EML'
From: Rita Reporter <rita@example.net>
To: linux-usb@vger.example.org
Subject: warning when unbinding the zorp gadget
Message-ID: <zorp-core-1@example.net>
Date: Thu, 01 Jan 2026 10:00:00 +0000

[   80.100000] ------------[ cut here ]------------
[   80.100001] WARNING: CPU: 0 PID: 1756 at drivers/base/core.c:3800 device_del+0x1/0x2
[   80.100002] CPU: 0 UID: 0 PID: 1756 Comm: bash Not tainted 6.17.1 #1
[   80.100003] Hardware name: Raspberry Pi 4 Model B Rev 1.1 (DT)
[   80.100004] Call trace:
[   80.100005]  device_del+0x1/0x2
[   80.100006]  zorp_unbind+0x3c/0x90
[   80.100007]  el0t_64_sync_handler+0xa0/0xf0
[   80.100008] ---[ end trace 0000000000000000 ]---
EML

test_expect_success 'the device core is looked past too' '
	"$TRIAGE" explain "$T/core.eml" >"$T/out.txt" &&
	sh "$T/guilty.sh" "$T/out.txt" drivers/usb/gadget/function/f_zorp.c &&
	test "$(sh "$T/first.sh" "$T/out.txt")" = "ZORP USB GADGET FUNCTION"
'

test_expect_success 'a generic trace keeps its generic file' '
	sed "/zorp_unbind+/d; /device_del+/d" "$T/list.eml" >"$T/generic.eml" &&
	"$TRIAGE" explain "$T/generic.eml" >"$T/out.txt" &&
	sh "$T/guilty.sh" "$T/out.txt" lib/list_debug.c
'

cat >"$T/work.eml" <<'EML'
From: Rita Reporter <rita@example.net>
To: linux-raid@vger.example.org
Subject: refcount underflow after stopping an array
Message-ID: <raid-work-1@example.net>
Date: Thu, 01 Jan 2026 10:00:00 +0000

Stopping the array gives:

[  107.100000] refcount_t: underflow; use-after-free.
[  107.100001] WARNING: CPU: 1 PID: 24 at lib/refcount.c:28 refcount_warn_saturate+0x11a/0x1d0 lib/refcount.c:28
[  107.100002] CPU: 1 UID: 0 PID: 24 Comm: kworker/u8:1 Not tainted 6.16.0 #1
[  107.100003] Hardware name: Dell Inc. PowerEdge R650/0Y2K8T, BIOS 1.2.3 01/01/2025
[  107.100004] Workqueue: md_misc mddev_delayed_delete
[  107.100005] RIP: 0010:refcount_warn_saturate+0x11a/0x1d0 lib/refcount.c:28
[  107.100006] Call Trace:
[  107.100007]  <TASK>
[  107.100008]  process_one_work+0x9a1/0x1b70 kernel/workqueue.c:3238
[  107.100009]  worker_thread+0x8a0/0xda0 kernel/workqueue.c:3402
[  107.100010]  kthread+0x711/0x8a0 kernel/kthread.c:464
[  107.100011]  ret_from_fork+0x3fc/0x770 arch/x86/kernel/process.c:148
[  107.100012]  </TASK>
EML

test_expect_success 'every frame generic: the work item the kworker ran' '
	"$TRIAGE" explain "$T/work.eml" >"$T/out.txt" &&
	sh "$T/guilty.sh" "$T/out.txt" drivers/md/md.c &&
	test "$(sh "$T/first.sh" "$T/out.txt")" = "SOFTWARE RAID (Multiple Disks) SUPPORT"
'

cat >"$T/odebug.eml" <<'EML'
From: Rita Reporter <rita@example.net>
To: linux-media@vger.example.org
Subject: ODEBUG warning when unplugging the quux stick
Message-ID: <quux-odebug-1@example.net>
Date: Thu, 01 Jan 2026 10:00:00 +0000

[  130.000000] ODEBUG: free active (active state 0) object: ffff8880258626e8 object type: work_struct hint: quux_gate_work+0x0/0x100
[  130.000001] WARNING: CPU: 1 PID: 9 at lib/debugobjects.c:615 debug_print_object+0x1a/0x20 lib/debugobjects.c:612
[  130.000002] Call Trace:
[  130.000003]  kfree+0x1/0x2 mm/slub.c:6561
[  130.000004]  device_del+0x1/0x2 drivers/base/core.c:3800
EML

test_expect_success 'ODEBUG: the owner of the object, by its hint' '
	"$TRIAGE" explain "$T/odebug.eml" >"$T/out.txt" &&
	sh "$T/guilty.sh" "$T/out.txt" drivers/media/tuners/quux.c &&
	test "$(sh "$T/first.sh" "$T/out.txt")" = "QUUX TUNER DRIVER"
'

test_done
