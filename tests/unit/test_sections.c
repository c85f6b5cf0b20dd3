// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_sections - evidence to ranked sections (the map stage for reports)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bzcomponent.h"
#include "config.h"
#include "evidence.h"
#include "maintainers.h"
#include "report.h"
#include "map.h"
#include "sections.h"
#include "util.h"

static const char *fixture =
	"XFS FILESYSTEM\nM:\tx <x@k.org>\nL:\tlinux-xfs@vger.kernel.org\n"
	"F:\tfs/xfs/\n"
	"FILESYSTEMS (VFS)\nM:\tv <v@k.org>\nL:\tlinux-fsdevel@vger.kernel.org\n"
	"F:\tfs/*\nF:\tinclude/linux/fs.h\n"
	"MEMORY MANAGEMENT\nM:\tm <m@k.org>\nL:\tlinux-mm@kvack.org\nF:\tmm/\n"
	"SLAB ALLOCATOR\nM:\ts <s@k.org>\nL:\tlinux-mm@kvack.org\n"
	"F:\tmm/slub.c\nF:\tmm/slab*\n"
	"USB SUBSYSTEM\nM:\tg <g@k.org>\nL:\tlinux-usb@vger.kernel.org\n"
	"F:\tdrivers/usb/\n"
	"USB STORAGE DRIVER\nL:\tlinux-usb@vger.kernel.org\n"
	"F:\tdrivers/usb/storage/\n"
	"USB ATTACHED SCSI\nR:\to <o@k.org>\nL:\tlinux-usb@vger.kernel.org\n"
	"F:\tdrivers/usb/storage/uas.c\n"
	"USB XHCI DRIVER\nM:\tmn <mn@k.org>\nL:\tlinux-usb@vger.kernel.org\n"
	"F:\tdrivers/usb/host/xhci*\n"
	"STABLE BRANCH\nM:\tg <g@k.org>\nL:\tstable@vger.kernel.org\n"
	"F:\tDocumentation/process/stable-kernel-rules.rst\n"
	"BLUETOOTH DRIVERS\nM:\tbd <bd@k.org>\nL:\tlinux-bt@vger.kernel.org\n"
	"F:\tdrivers/bluetooth/\n"
	"BLUETOOTH SUBSYSTEM\nM:\tbs <bs@k.org>\nL:\tlinux-bt@vger.kernel.org\n"
	"F:\tnet/bluetooth/\n"
	"HID CORE LAYER\nM:\thc <hc@k.org>\nM:\thd <hd@k.org>\n"
	"F:\tdrivers/hid/\n"
	"USB HID DRIVERS\nM:\thc <hc@k.org>\nM:\thd <hd@k.org>\n"
	"F:\tdrivers/hid/usbhid/\n"
	"NAPI\nK:\t\\bnapi_schedule\\b\n"
	"DRIVER CORE\nM:\td <d@k.org>\nF:\tdrivers/base/\n"
	"CLANG BUILD\nF:\tscripts/clang-tools/\nK:\t\\b(?i:clang)\\b\n"
	"RALINK MIPS ARCHITECTURE\nM:\trm <rm@k.org>\nF:\tarch/mips/ralink/\n"
	"RALINK RT2X00 WIRELESS LAN DRIVER\nM:\trt <rt@k.org>\n"
	"F:\tdrivers/net/wireless/ralink/rt2x00/\n"
	"LIBRARY CODE\nM:\tlc <lc@k.org>\nF:\tlib/\n"
	"8250/16?50 (AND CLONE UARTS) SERIAL DRIVER\nM:\tse <se@k.org>\n"
	"F:\tdrivers/tty/serial/uart/\n"
	"EDAC-CORE\nM:\tec <ec@k.org>\nL:\tlinux-edac@vger.kernel.org\n"
	"F:\tdrivers/edac/\n"
	"EDAC-IGEN6\nM:\tig <ig@k.org>\nL:\tlinux-edac@vger.kernel.org\n"
	"F:\tdrivers/edac/igen6_edac.c\n"
	"KCONFIG\nM:\tmy <my@k.org>\nL:\tlinux-kbuild@vger.kernel.org\n"
	"F:\tscripts/kconfig/\n"
	"KERNEL BUILD + files below scripts/ (unless maintained elsewhere)\n"
	"M:\tmy <my@k.org>\nL:\tlinux-kbuild@vger.kernel.org\nF:\tMakefile\n"
	"F:\tscripts/Makefile*\n"
	"SOUND CORE\nM:\tti <ti@k.org>\nL:\tlinux-sound@vger.kernel.org\n"
	"Q:\thttp://patchwork.kernel.org/project/alsa-devel/list/\n"
	"F:\tsound/\n"
	"LINUX-NEXT TREE\nM:\tsr <sr@k.org>\nL:\tlinux-next@vger.kernel.org\n"
	"MEMORY TIERING\nM:\tmt <mt@k.org>\nL:\tlinux-mm@kvack.org\n"
	"L:\tlinux-kernel@vger.kernel.org\nF:\tmm/memory-tiers.c\n"
	"SOUND USB\nM:\tsu <su@k.org>\nF:\tsound/usb/\n"
	"X86 ARCHITECTURE (32-BIT AND 64-BIT)\nM:\tx8 <x8@k.org>\n"
	"F:\tarch/x86/\n"
	"X86 MCE INFRASTRUCTURE\nM:\tmc <mc@k.org>\n"
	"F:\tarch/x86/kernel/cpu/mce/*\n"
	"IIO SUBSYSTEM AND DRIVERS\nM:\tio <io@k.org>\nF:\tdrivers/iio/\n"
	"IIO MULTIPLEXER\nM:\tim <im@k.org>\n"
	"F:\tdrivers/iio/multiplexer/iio-mux.c\n"
	"ATA OVER ETHERNET (AOE) DRIVER\nM:\tao <ao@k.org>\n"
	"F:\tdrivers/block/aoe/\n"
	"LIBATA SUBSYSTEM\nM:\tla <la@k.org>\nF:\tdrivers/ata/\n"
	"MICROSOFT MANA RDMA DRIVER\nM:\tmr <mr@k.org>\n"
	"F:\tdrivers/infiniband/hw/mana/\n"
	"HYPER-V CORE AND DRIVERS\nM:\thv <hv@k.org>\n"
	"F:\tdrivers/net/ethernet/microsoft/\n"
	"F:\tdrivers/net/ethernet/microsoft/mana/\n"
	"ACME ONE\nF:\tdrivers/acme1/\n"
	"ACME TWO\nF:\tdrivers/acme2/\n"
	"ACME THREE\nF:\tdrivers/acme3/\n"
	"ACME FOUR\nF:\tdrivers/acme4/\n"
	"ACME FIVE\nF:\tdrivers/acme5/\n"
	"REGISTER MAP ABSTRACTION\nM:\trg <rg@k.org>\n"
	"F:\tdrivers/base/regmap/\n"
	"ZORP CLIENT\nM:\tac <ac@k.org>\nL:\tzorp-devel@vger.kernel.org\n"
	"T:\tgit https://github.com/zorp/zorp-client.git\nF:\tfs/zorp/\n"
	"ZORP NET\nM:\tan <an@k.org>\nL:\tzorp-devel@vger.kernel.org\n"
	"T:\tgit https://github.com/zorp/zorp-net.git\nF:\tnet/zorp/\n"
	"LLVM BUILD\nM:\tll <ll@k.org>\nL:\tllvm@lists.linux.dev\n"
	"F:\tscripts/llvm/\n"
	"CERTIFICATE HANDLING\nM:\tch <ch@k.org>\nF:\tcerts/\n"
	"NEXT TREE\nM:\tnx <nx@k.org>\n"
	"T:\tgit git://git.kernel.org/pub/scm/linux/kernel/git/next/"
	"linux-next.git\n"
	"GCC TOOLCHAIN\nM:\tgt <gt@k.org>\nL:\ttoolchain@lists.example.org\n"
	"F:\tscripts/gcc/\nK:\t\\b(?i:gcc)\\b\n"
	"GCC PLUGINS\nM:\tgp <gp@k.org>\nL:\ttoolchain@lists.example.org\n"
	"F:\tscripts/gcc-plugins/\n"
	"WIDGET SUBSYSTEM\nM:\tws <ws@k.org>\nL:\tlinux-widget@vger.kernel.org\n"
	"L:\tlinux-kernel@vger.kernel.org\nF:\tdrivers/widget/\n"
	"WIDGET SENSOR HUB\nM:\twh <wh@k.org>\nL:\tlinux-knob@vger.kernel.org\n"
	"L:\tlinux-widget@vger.kernel.org\nF:\tdrivers/hid/hid-widget-*\n"
	"GADGET CORE\nM:\tgc <gc@k.org>\nL:\tlinux-kernel@vger.kernel.org\n"
	"F:\tdrivers/gadget/\n"
	"CRYPTO API\nM:\tcr <cr@k.org>\nF:\tcrypto/\n"
	"SECURITY SUBSYSTEM\nM:\tsy <sy@k.org>\nF:\tsecurity/\n"
	"LANDLOCK SECURITY MODULE\nM:\tlk <lk@k.org>\nF:\tsecurity/landlock/\n"
	"OVERLAY FILESYSTEM\nM:\tov <ov@k.org>\nF:\tfs/overlayfs/\n"
	"TIMEKEEPING\nM:\ttk <tk@k.org>\nF:\tkernel/time/\n"
	"IOMMU SUBSYSTEM\nM:\tim <im@k.org>\nF:\tdrivers/iommu/\n"
	"DRM DRIVER FOR ACME GPUS\nM:\tnv <nv@k.org>\nL:\tdri-devel@lists.example.org\n"
	"L:\tnouvo@lists.example.org\nF:\tdrivers/gpu/drm/nouvo/\n"
	"MMIO TRACER\nM:\tmm <mm@k.org>\nL:\tlinux-kernel@vger.kernel.org\n"
	"L:\tnouvo@lists.example.org\nF:\tarch/x86/mm/kmmio.c\n"
	"F:\tinclude/linux/mmiotrace.h\n"
	"DRM CORE\nM:\tdc <dc@k.org>\nL:\tdri-devel@lists.example.org\n"
	"F:\tdrivers/gpu/drm/drm_*\n"
	"GIZMO ARCHITECTURE\nM:\tgz <gz@k.org>\n"
	"T:\tgit git://git.kernel.org/pub/scm/linux/kernel/git/gizmo/linux.git\n"
	"F:\tarch/gizmo/\n"
	"GIZMO CLOCKS\nM:\tgk <gk@k.org>\n"
	"T:\tgit git://git.kernel.org/pub/scm/linux/kernel/git/gizmo/linux.git"
	" clk\nF:\tarch/gizmo/clk/\n"
	"STABLE SCRIPTS\nM:\tss <ss@k.org>\n"
	"T:\tgit git://git.kernel.org/pub/scm/linux/kernel/git/stable/"
	"linux.git\nF:\tscripts/stable/\n"
	"TIP ONE\nT:\tgit https://example.org/tip.git\nF:\tkernel/one/\n"
	"TIP TWO\nT:\tgit https://example.org/tip.git\nF:\tkernel/two/\n"
	"TIP THREE\nT:\tgit https://example.org/tip.git\nF:\tkernel/three/\n"
	"TIP FOUR\nT:\tgit https://example.org/tip.git\nF:\tkernel/four/\n"
	"TIP FIVE\nT:\tgit https://example.org/tip.git\nF:\tkernel/five/\n"
	"THE REST\nM:\tl <l@k.org>\nL:\tlinux-kernel@vger.kernel.org\n"
	"T:\tgit git://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git\n"
	"F:\t*\nF:\t*/\n";

static struct map *map;

static int setup(void **state)
{
	struct maintainers m;

	maintainers_init(&m);
	maintainers_parse(&m, fixture, strlen(fixture), "MAINTAINERS");
	map = map_compile(&m, NULL);
	maintainers_release(&m);
	return map ? 0 : -1;
}

static int teardown(void **state)
{
	map_free(map);
	return 0;
}

static struct evidence *ev_new(const char *guilty, const char **files, size_t n)
{
	struct evidence *ev = xcalloc(1, sizeof(*ev));
	size_t i;

	ev->guilty_file = guilty ? xstrdup(guilty) : NULL;
	ev->files = xcalloc(n + 1, sizeof(char *));
	for (i = 0; i < n; i++)
		ev->files[i] = xstrdup(files[i]);
	ev->nfiles = n;
	return ev;
}

/* bz_mail - a message From sender (a Bugzilla's daemon or a stranger),
 * with an Authentication-Results header of authres when not NULL */
static struct report *bz_mail(const char *sender, const char *authres)
{
	struct report *r = report_new();

	free(r->from_addr);
	r->from_addr = xstrdup(sender);
	r->source = "mail";
	if (authres)
		report_add_header(r, "Authentication-Results", authres);
	return r;
}

static void ev_del(struct evidence *ev)
{
	size_t i;

	for (i = 0; i < ev->nfiles; i++)
		free(ev->files[i]);
	free(ev->files);
	for (i = 0; i < ev->nframes; i++)
		free(ev->frames[i].file);
	free(ev->frames);
	free(ev->guilty_file);
	free(ev->subject_prefix);
	free(ev->merged_tree);
	free(ev);
}

static const char *title(const struct section_list *l, size_t i)
{
	return i < l->n ? map_title(map, l->v[i].section) : "(none)";
}

static void test_guilty_file_ranks_first(void **state)
{
	const char *files[] = { "fs/xfs/xfs_inode.c", "mm/slub.c" };
	struct evidence *ev = ev_new("fs/xfs/xfs_inode.c", files, 2);
	struct section_list l;

	sections_for_report(map, ev, NULL, 0, &l);
	/* XFS (guilty) > SLAB (named in text, most specific for slub.c) >
	 * MEMORY MANAGEMENT (broader); THE REST never scores. */
	assert_int_equal(l.n, 3);
	assert_string_equal(title(&l, 0), "XFS FILESYSTEM");
	assert_string_equal(title(&l, 1), "SLAB ALLOCATOR");
	assert_string_equal(title(&l, 2), "MEMORY MANAGEMENT");
	assert_true(l.v[1].score > l.v[2].score);
	assert_non_null(strstr(l.v[0].why, "guilty file fs/xfs/xfs_inode.c"));
	section_list_release(&l);
	ev_del(ev);
}

/* syzbot's title names its own guilty function: where our guilty file
 * differs (a lockdep chain's first frame), syzbot's file speaks first */
static void test_syzbot_title_file(void **state)
{
	const char *files[] = { "fs/xfs/xfs_inode.c" };
	struct evidence *ev = ev_new("drivers/base/core.c", files, 1);
	struct section_list l;

	ev->syzbot = true;
	ev->title_file = xstrdup("fs/xfs/xfs_inode.c");
	sections_for_report(map, ev, NULL, 0, &l);
	assert_true(l.n >= 2);
	assert_string_equal(title(&l, 0), "XFS FILESYSTEM");
	assert_string_equal(title(&l, 1), "DRIVER CORE");
	assert_non_null(strstr(l.v[0].why, "function in syzbot's title"));
	/* drivers/base/ is generic: half of the half of W_GUILTY */
	assert_true(fabs(l.v[1].score - 0.375) < 1e-9);
	section_list_release(&l);
	free(ev->title_file);
	ev->title_file = NULL;
	/* the same file in both: credited once, as the guilty file */
	free(ev->guilty_file);
	ev->guilty_file = xstrdup("fs/xfs/xfs_inode.c");
	ev->title_file = xstrdup("fs/xfs/xfs_inode.c");
	sections_for_report(map, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "XFS FILESYSTEM");
	assert_null(strstr(l.v[0].why, "syzbot's title"));
	assert_non_null(strstr(l.v[0].why, "guilty file"));
	section_list_release(&l);
	free(ev->title_file);
	ev_del(ev);
}

/* a prefix that starts a title before its "/": "8250:" */
static void test_prefix_title_slash(void **state)
{
	struct evidence *ev = ev_new(NULL, NULL, 0);
	struct section_list l;

	ev->subject_prefix = xstrdup("8250");
	sections_for_report(map, ev, NULL, 0, &l);
	assert_true(l.n >= 1);
	assert_string_equal(title(&l, 0),
			    "8250/16?50 (AND CLONE UARTS) SERIAL DRIVER");
	section_list_release(&l);
	ev_del(ev);
}

static void test_frames_outweigh_text(void **state)
{
	const char *files[] = { "mm/slub.c", "fs/xfs/xfs_inode.c" };
	struct evidence *ev = ev_new(NULL, files, 2);
	struct section_list l;

	/* fs/xfs/xfs_inode.c is a frame's file: 0.5; mm/slub.c only
	 * named in the text: 0.4. */
	ev->frames = xcalloc(1, sizeof(*ev->frames));
	ev->frames[0].file = xstrdup("fs/xfs/xfs_inode.c");
	ev->nframes = 1;
	sections_for_report(map, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "XFS FILESYSTEM");
	assert_non_null(strstr(l.v[0].why, "stack frame"));
	assert_string_equal(title(&l, 1), "SLAB ALLOCATOR");
	section_list_release(&l);
	ev_del(ev);
}

static void test_subject_prefix(void **state)
{
	struct evidence *ev = ev_new(NULL, NULL, 0);
	struct section_list l;

	ev->subject_prefix = xstrdup("xfs");
	sections_for_report(map, ev, NULL, 0, &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(title(&l, 0), "XFS FILESYSTEM");
	section_list_release(&l);

	/* Ambiguous by title and list: the broadest section. */
	free(ev->subject_prefix);
	ev->subject_prefix = xstrdup("usb");
	sections_for_report(map, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "USB SUBSYSTEM");
	section_list_release(&l);

	/* A list name alone: "mm" -> linux-mm@ sections, broadest. */
	free(ev->subject_prefix);
	ev->subject_prefix = xstrdup("mm");
	sections_for_report(map, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "MEMORY MANAGEMENT");
	section_list_release(&l);

	/* With a "/": mapped as a path (mm/slub -> mm/slub.c). */
	free(ev->subject_prefix);
	ev->subject_prefix = xstrdup("mm/slub");
	sections_for_report(map, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "SLAB ALLOCATOR");
	/* shown as written, not as the path tried (no "mm/slub.c") */
	assert_non_null(strstr(l.v[0].why, "subject prefix \"mm/slub:\""));
	assert_null(strstr(l.v[0].why, "mm/slub.c"));
	assert_string_equal(title(&l, 1), "MEMORY MANAGEMENT");
	section_list_release(&l);
	ev_del(ev);
}

/*
 * A prefix two sections answer to equally ("Bluetooth:" is the prefix
 * of net/bluetooth/ and drivers/bluetooth/ patches alike): they share
 * its weight, and the report's own evidence decides
 */
static void test_subject_prefix_shared(void **state)
{
	const char *files[] = { "net/bluetooth/l2cap_core.c" };
	struct evidence *ev = ev_new(NULL, NULL, 0);
	struct section_list l;

	(void)state;
	ev->subject_prefix = xstrdup("bluetooth");
	sections_for_report(map, ev, NULL, 0, &l);
	assert_int_equal(l.n, 2);
	assert_true(fabs(l.v[0].score - 0.3) < 1e-9);
	assert_true(fabs(l.v[1].score - 0.3) < 1e-9);
	section_list_release(&l);
	ev_del(ev);

	ev = ev_new(NULL, files, 1);
	ev->subject_prefix = xstrdup("Bluetooth");
	sections_for_report(map, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "BLUETOOTH SUBSYSTEM");
	section_list_release(&l);
	ev_del(ev);
}

/*
 * A list's name as a prefix ("kbuild:" for linux-kbuild@) is the
 * broadest of the list's sections, the one of the top-level Makefile,
 * not the shortest title (KCONFIG's scripts/kconfig/)
 */
static void test_prefix_list_broadest(void **state)
{
	struct evidence *ev = ev_new(NULL, NULL, 0);
	struct section_list l;

	(void)state;
	ev->subject_prefix = xstrdup("kbuild");
	sections_for_report(map, ev, NULL, 0, &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(
		title(&l, 0),
		"KERNEL BUILD + files below scripts/ (unless maintained elsewhere)");
	assert_non_null(strstr(l.v[0].why, "subject prefix \"kbuild:\" 0.60"));
	section_list_release(&l);

	/* "linux-next: build failure after merge of the kbuild tree": the
	 * tree's section, not LINUX-NEXT TREE's, which has no files: a
	 * process, no subsystem, by its title or by its list ("next:") */
	free(ev->subject_prefix);
	ev->subject_prefix = xstrdup("linux-next");
	sections_for_report(map, ev, NULL, 0, &l);
	assert_int_equal(l.n, 0);
	section_list_release(&l);
	free(ev->subject_prefix);
	ev->subject_prefix = xstrdup("next");
	sections_for_report(map, ev, NULL, 0, &l);
	assert_int_equal(l.n, 0);
	section_list_release(&l);
	ev->merged_tree = xstrdup("kbuild");
	sections_for_report(map, ev, NULL, 0, &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(
		title(&l, 0),
		"KERNEL BUILD + files below scripts/ (unless maintained elsewhere)");
	assert_non_null(strstr(l.v[0].why,
			       "tree merged in linux-next \"kbuild:\" 0.60"));
	section_list_release(&l);
	ev_del(ev);
}

/*
 * A prefix chain counts from its specific end ("usb: xhci" would be
 * USB XHCI DRIVER if a title said so; "mm: slab" is SLAB ALLOCATOR
 * before MEMORY MANAGEMENT); a component no section answers to falls
 * back to the broader one.  A commit the text blames gives its prefix.
 */
static void test_prefix_chain_and_culprit(void **state)
{
	struct evidence *ev = ev_new(NULL, NULL, 0);
	struct section_list l;

	(void)state;
	ev->subject_prefix = xstrdup("mm");
	ev->subject_chain = xstrdup("mm: slab");
	sections_for_report(map, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "SLAB ALLOCATOR");
	assert_non_null(strstr(l.v[0].why, "subject prefix \"slab:\" 0.60"));
	section_list_release(&l);
	free(ev->subject_chain);
	ev->subject_chain = xstrdup("mm: nothing-here");
	sections_for_report(map, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "MEMORY MANAGEMENT");
	section_list_release(&l);
	free(ev->subject_chain);
	free(ev->subject_prefix);
	ev->subject_chain = NULL;
	ev->subject_prefix = NULL;

	ev->syz_fs = xstrdup("fs/xfs");
	sections_for_report(map, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "XFS FILESYSTEM");
	assert_non_null(
		strstr(l.v[0].why, "the reproducer mounts fs/xfs/ 0.40"));
	section_list_release(&l);
	free(ev->syz_fs);
	ev->syz_fs = NULL;

	ev->culprit_chain = xstrdup("fs: xfs");
	sections_for_report(map, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "XFS FILESYSTEM");
	assert_non_null(strstr(l.v[0].why,
			       "prefix of the culprit commit \"xfs:\" 0.50"));
	section_list_release(&l);
	free(ev->culprit_chain);
	ev->culprit_chain = NULL;
	ev_del(ev);
}

/* a prefix no title or list names: the driver's directory or file does */
static void test_prefix_names_a_driver(void **state)
{
	struct evidence *ev = ev_new(NULL, NULL, 0);
	struct section_list l;

	(void)state;
	ev->subject_prefix = xstrdup("net");
	ev->subject_chain = xstrdup("net: wireless: ralink: RT2X00");
	sections_for_report(map, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "RALINK RT2X00 WIRELESS LAN DRIVER");
	assert_non_null(strstr(l.v[0].why, "subject prefix \"RT2X00:\" 0.60"));
	assert_int_equal(map_find_section(map, "RALINK MIPS ARCHITECTURE") >= 0,
			 1);
	section_list_release(&l);
	free(ev->subject_chain);
	free(ev->subject_prefix);
	/* a file: drivers/usb/storage/uas.c */
	ev->subject_prefix = xstrdup("usb");
	ev->subject_chain = xstrdup("usb: uas");
	sections_for_report(map, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "USB ATTACHED SCSI");
	section_list_release(&l);
	free(ev->subject_chain);
	ev->subject_chain = NULL;
	ev_del(ev);
}

/*
 * syzbot's subsystem tag is its guess: a guilty file outweighs it; a
 * guilty file that is a generic one (the list checker) names nothing
 */
static void test_syzbot_guess_and_generic_guilty(void **state)
{
	struct evidence *ev = ev_new("drivers/usb/storage/uas.c", NULL, 0);
	struct section_list l;
	size_t i;

	(void)state;
	ev->syzbot = true;
	ev->subject_prefix = xstrdup("xfs");
	sections_for_report(map, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "USB ATTACHED SCSI");
	for (i = 0; i < l.n && strcmp(title(&l, i), "XFS FILESYSTEM"); i++)
		;
	assert_true(i < l.n);
	assert_non_null(strstr(l.v[i].why, "subject prefix \"xfs:\" 0.30"));
	section_list_release(&l);
	ev->syzbot = false;
	sections_for_report(map, ev, NULL, 0, &l);
	for (i = 0; i < l.n && strcmp(title(&l, i), "XFS FILESYSTEM"); i++)
		;
	assert_true(i < l.n);
	assert_non_null(strstr(l.v[i].why, "subject prefix \"xfs:\" 0.60"));
	section_list_release(&l);
	ev_del(ev);

	ev = ev_new("lib/list_debug.c", NULL, 0);
	sections_for_report(map, ev, NULL, 0, &l);
	for (i = 0; i < l.n; i++)
		assert_null(strstr(l.v[i].why, "guilty file"));
	section_list_release(&l);
	ev_del(ev);
}

/*
 * The callers of a crash in one framework say once that the path went
 * through it: their sum stops at 1.0, under the guilty file's 1.5
 */
static void test_frames_pooled_under_guilty(void **state)
{
	const char *files[] = { "fs/xfs/a.c", "fs/xfs/b.c", "fs/xfs/c.c",
				"fs/xfs/d.c" };
	struct evidence *ev = ev_new("drivers/usb/storage/uas.c", files, 4);
	struct section_list l;
	size_t i;

	(void)state;
	ev->frames = xcalloc(4, sizeof(*ev->frames));
	for (i = 0; i < 4; i++)
		ev->frames[i].file = xstrdup(files[i]);
	ev->nframes = 4;
	sections_for_report(map, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "USB ATTACHED SCSI");
	assert_string_equal(title(&l, 1), "XFS FILESYSTEM");
	/* four callers in one filesystem: at most half the guilty file */
	assert_true(fabs(l.v[1].score - 0.75) < 1e-6);
	section_list_release(&l);
	ev_del(ev);
}

/*
 * A lower filesystem's guilty file under a stacking filesystem's frame
 * (overlayfs calling xfs): the two share the guilty file's weight; the
 * same file with no stacking caller keeps it
 */
static void test_stacking_filesystem(void **state)
{
	const char *frames[] = { "fs/xfs/xfs_file.c", "fs/read_write.c",
				 "fs/overlayfs/file.c" };
	struct evidence *ev = ev_new("fs/xfs/xfs_file.c", NULL, 0);
	struct section_list l;
	size_t i;

	(void)state;
	ev->frames = xcalloc(3, sizeof(*ev->frames));
	for (i = 0; i < 3; i++)
		ev->frames[i].file = xstrdup(frames[i]);
	ev->nframes = 3;
	sections_for_report(map, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "XFS FILESYSTEM");
	assert_true(fabs(l.v[0].score - 0.75) < 1e-9);
	assert_string_equal(title(&l, 1), "OVERLAY FILESYSTEM");
	assert_true(fabs(l.v[1].score - 0.75) < 1e-9);
	assert_non_null(strstr(l.v[1].why, "the stacking filesystem calling "
					   "the guilty file: "
					   "fs/overlayfs/file.c 0.75"));
	section_list_release(&l);
	/* overlayfs below, not above: the guilty file's alone */
	free(ev->frames[2].file);
	ev->frames[2].file = xstrdup(ev->frames[0].file);
	free(ev->frames[0].file);
	ev->frames[0].file = xstrdup("fs/overlayfs/file.c");
	sections_for_report(map, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "XFS FILESYSTEM");
	assert_true(fabs(l.v[0].score - 1.5) < 1e-9);
	section_list_release(&l);
	ev_del(ev);
}

static void test_keywords_and_unmapped(void **state)
{
	const char *files[] = { "README" };
	struct evidence *ev = ev_new(NULL, files, 1);
	struct section_list l;
	const char *text = "the driver calls napi_schedule() twice";

	sections_for_report(map, ev, NULL, 0, &l);
	/* Only THE REST matches README: unmapped. */
	assert_int_equal(l.n, 0);
	section_list_release(&l);
	/* a K: keyword alone never decides a section */
	sections_for_report(map, ev, text, strlen(text), &l);
	assert_int_equal(l.n, 0);
	section_list_release(&l);
	sections_for_report(map, NULL, NULL, 0, &l);
	assert_int_equal(l.n, 0);
	ev_del(ev);
}

/* K: keywords count in the prose, not in a build command line */
static void test_keywords_in_prose_only(void **state)
{
	const char *files[] = { "scripts/clang-tools/gen.py" };
	struct evidence *ev = ev_new(NULL, files, 1);
	struct section_list l;
	const char *prose = "It only breaks when built with Clang 19.\n";
	const char *build = "I built it with\n  make CC=clang LLVM=1 -j8\n";

	(void)state;
	sections_for_report(map, ev, prose, strlen(prose), &l);
	assert_string_equal(title(&l, 0), "CLANG BUILD");
	assert_true(fabs(l.v[0].score - 0.55) < 1e-9);
	section_list_release(&l);
	sections_for_report(map, ev, build, strlen(build), &l);
	assert_string_equal(title(&l, 0), "CLANG BUILD");
	assert_true(fabs(l.v[0].score - 0.4) < 1e-9);
	section_list_release(&l);
	ev_del(ev);
}

/* the device model in a driver's trace counts less than the driver */
static void test_generic_core_counts_half(void **state)
{
	const char *files[] = { "drivers/base/core.c",
				"drivers/usb/storage/uas.c" };
	struct evidence *ev = ev_new(NULL, files, 2);
	struct section_list l;

	(void)state;
	ev->frames = xcalloc(2, sizeof(*ev->frames));
	ev->frames[0].file = xstrdup("drivers/base/core.c");
	ev->frames[1].file = xstrdup("drivers/usb/storage/uas.c");
	ev->nframes = 2;
	sections_for_report(map, ev, NULL, 0, &l);
	/* core.c 0.5 halved, uas.c 0.45 */
	assert_string_equal(title(&l, 0), "USB ATTACHED SCSI");
	assert_true(fabs(l.v[0].score - 0.45) < 1e-9);
	assert_string_equal(title(&l, 1), "DRIVER CORE");
	assert_true(fabs(l.v[1].score - 0.25) < 1e-9);
	section_list_release(&l);
	ev_del(ev);
}

/* the Bugzilla component names the section; one the map lacks, none */
static void test_bugzilla_component(void **state)
{
	struct evidence *ev = ev_new(NULL, NULL, 0);
	struct report *daemon = bz_mail("bugzilla-daemon@kernel.org", NULL);
	struct section_list l;
	struct config *cfg;

	(void)state;
	ev->bz_product = xstrdup("drivers");
	ev->bz_component = xstrdup("usb");
	sections_for_report(map, ev, NULL, 0, &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(title(&l, 0), "USB SUBSYSTEM");
	assert_non_null(strstr(l.v[0].why, "Bugzilla drivers/usb 0.50"));
	section_list_release(&l);
	free(ev->bz_component);
	ev->bz_component = xstrdup("Sound(ALSA)"); /* no SOUND here */
	sections_for_report(map, ev, NULL, 0, &l);
	assert_int_equal(l.n, 0);
	section_list_release(&l);

	/* kernel.org's IDE component is libata's, not the block layer's */
	assert_string_equal(
		bzcomponent_section("IO/Storage", "IDE"),
		"LIBATA SUBSYSTEM (Serial and Parallel ATA drivers)");
	assert_string_equal(bzcomponent_section("IO/Storage", "Other"),
			    "BLOCK LAYER");
	assert_string_equal(bzcomponent_section("Drivers", "IIO"),
			    "IIO SUBSYSTEM AND DRIVERS");

	/* the site's records come first: an exact component, then "*" */
	cfg = config_parse(
		"bugzilla_component Drivers \"Sound(ALSA)\" \"USB XHCI DRIVER\"\n"
		"bugzilla_component drivers usb \"XFS FILESYSTEM\"\n"
		"bugzilla_component Drivers * \"DRIVER CORE\"\n",
		"routes.conf");
	assert_non_null(cfg);
	assert_int_equal(config_report(cfg, 0), 0);
	sections_for_report_site(map, cfg, daemon, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "USB XHCI DRIVER");
	section_list_release(&l);
	free(ev->bz_component);
	ev->bz_component = xstrdup("USB");
	sections_for_report_site(map, cfg, daemon, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "XFS FILESYSTEM");
	section_list_release(&l);
	free(ev->bz_component);
	ev->bz_component = xstrdup("Other");
	sections_for_report_site(map, cfg, daemon, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "DRIVER CORE");
	section_list_release(&l);
	/* another product: the built-in table, no record */
	free(ev->bz_product);
	free(ev->bz_component);
	ev->bz_product = xstrdup("Drivers");
	ev->bz_component = xstrdup("USB");
	config_free(cfg);
	cfg = config_parse("bugzilla_component Acme * \"DRIVER CORE\"\n",
			   "routes.conf");
	sections_for_report_site(map, cfg, daemon, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "USB SUBSYSTEM");
	section_list_release(&l);
	config_free(cfg);
	free(ev->bz_product);
	free(ev->bz_component);
	ev_del(ev);
	report_free(daemon);
}

/* add_recipient - in To: while only To: addresses were added */
static void add_recipient(struct evidence *ev, const char *addr, bool to)
{
	assert_true(!to || ev->nrecipients_to == ev->nrecipients);
	ev->nrecipients_to += to;
	ev->recipients = xreallocarray(ev->recipients, ev->nrecipients + 1,
				       sizeof(*ev->recipients));
	ev->recipients[ev->nrecipients++] = xstrdup(addr);
}

static void del_recipients(struct evidence *ev)
{
	size_t i;

	for (i = 0; i < ev->nrecipients; i++)
		free(ev->recipients[i]);
	free(ev->recipients);
	ev->recipients = NULL;
	ev->nrecipients = ev->nrecipients_to = 0;
}

/*
 * A test robot Cc's its compiler's list on every build it made with that
 * compiler: where only a build line ("compiler: gcc version 14") names
 * the toolchain, its list counts a quarter, for every section on it;
 * where the report's own words name it, in full
 */
static void test_toolchain_list_from_build_line(void **state)
{
	struct evidence *ev = ev_new(NULL, NULL, 0);
	struct section_list l;
	const char *build = "fs/zorp/inode.c:12:3: error: bad cast\n"
			    "compiler: gcc version 14.2.0\n"
			    "reproduce:\n  make W=1 fs/zorp/\n";
	const char *said = "Building with gcc 14 breaks here.\n"
			   "compiler: gcc version 14.2.0\n";

	(void)state;
	add_recipient(ev, "toolchain@lists.example.org", true);
	add_recipient(ev, "zorp-devel@vger.kernel.org", false);
	sections_for_report(map, ev, build, strlen(build), &l);
	assert_true(l.n >= 4);
	/* zorp-devel in Cc: 0.4 * 0.75 / 2 each */
	assert_true(!strncmp(title(&l, 0), "ZORP", 4));
	assert_true(fabs(l.v[0].score - 0.15) < 1e-3);
	assert_true(!strncmp(title(&l, 1), "ZORP", 4));
	assert_true(!strncmp(title(&l, 2), "GCC ", 4));
	/* the toolchain list in To: 0.4 and 0.2 by its share, a quarter
	 * of it, shown; no K: keyword from a build line */
	assert_string_equal(title(&l, 2), "GCC TOOLCHAIN");
	assert_true(fabs(l.v[2].score - 0.1) < 1e-3);
	assert_string_equal(l.v[2].why, "L: toolchain@lists.example.org in To "
					"(the build's compiler) 0.10");
	assert_string_equal(title(&l, 3), "GCC PLUGINS");
	assert_true(fabs(l.v[3].score - 0.05) < 1e-3);
	section_list_release(&l);

	/* the reporter's own prose names gcc: the list counts in full,
	 * and the K: keyword adds its own */
	sections_for_report(map, ev, said, strlen(said), &l);
	assert_string_equal(title(&l, 0), "GCC TOOLCHAIN");
	assert_true(fabs(l.v[0].score - 0.55) < 1e-3);
	assert_string_equal(title(&l, 1), "GCC PLUGINS");
	assert_true(fabs(l.v[1].score - 0.2) < 1e-3);
	section_list_release(&l);
	del_recipients(ev);
	ev_del(ev);
}

/*
 * A Bugzilla component is a coarse menu: a section on the component's
 * list with evidence of its own (a file the text names) takes the
 * component's credit, as a section inside it would; a section that
 * shares only a catch-all list (LKML) with it does not
 */
static void test_bugzilla_component_list_sibling(void **state)
{
	const char *files[] = { "drivers/hid/hid-widget-hub.c",
				"drivers/gadget/core.c" };
	struct evidence *ev = ev_new(NULL, files, 2);
	struct report *daemon = bz_mail("bugzilla-daemon@kernel.org", NULL);
	struct section_list l;
	struct config *cfg;

	(void)state;
	ev->bz_product = xstrdup("Drivers");
	ev->bz_component = xstrdup("Widget");
	cfg = config_parse(
		"bugzilla_component Drivers Widget \"WIDGET SUBSYSTEM\"\n",
		"routes.conf");
	assert_non_null(cfg);
	assert_int_equal(config_report(cfg, 0), 0);
	sections_for_report_site(map, cfg, daemon, ev, NULL, 0, &l);
	assert_int_equal(l.n, 4);
	assert_string_equal(title(&l, 0), "WIDGET SENSOR HUB");
	/* 0.4 for its file, 0.5 for the component's list */
	assert_true(fabs(l.v[0].score - 0.9) < 1e-3);
	assert_non_null(strstr(l.v[0].why,
			       "on the list of Bugzilla Drivers/Widget: "
			       "linux-widget@vger.kernel.org 0.50"));
	assert_string_equal(title(&l, 1), "WIDGET SUBSYSTEM");
	assert_true(fabs(l.v[1].score - 0.5) < 1e-3);
	/* LKML is THE REST's: no sibling by it */
	assert_string_equal(title(&l, 2), "GADGET CORE");
	assert_true(fabs(l.v[2].score - 0.35) < 1e-3);
	assert_string_equal(title(&l, 3), "HID CORE LAYER");
	section_list_release(&l);
	config_free(cfg);
	free(ev->bz_product);
	free(ev->bz_component);
	ev_del(ev);
	report_free(daemon);
}

/*
 * X-Bugzilla-Component and a "Component:" line are anyone's to write:
 * they count only on Bugzilla's own mail (bugzilla-daemon@ of kernel.org
 * or of the site's bugzilla_url, authenticated when authserv_id is set)
 * or a bug read from the Bugzilla itself; a stranger's change nothing,
 * neither the component's credit nor the list it would stand for
 */
static void test_bugzilla_component_only_bugzillas(void **state)
{
	struct evidence *ev = ev_new(NULL, NULL, 0);
	struct evidence *plain = ev_new(NULL, NULL, 0);
	static const char *const strangers[] = {
		"mallory@example.org",
		"bugzilla-daemon@example.org", /* not kernel.org's, no url */
		"bugzilla-daemon@org",
		"bugzilla-daemon@evilkernel.org",
		"bugzilla-daemonx@kernel.org",
	};
	struct section_list l, want;
	struct config *cfg;
	struct report *r;
	size_t i, k;

	(void)state;
	ev->bz_product = xstrdup("Drivers");
	ev->bz_component = xstrdup("Bluetooth");
	add_recipient(ev, "linux-usb@vger.kernel.org", true);
	add_recipient(plain, "linux-usb@vger.kernel.org", true);
	sections_for_report(map, plain, NULL, 0, &want);
	assert_true(want.n >= 1);
	assert_string_equal(title(&want, 0), "USB SUBSYSTEM");
	for (i = 0; i < ARRAY_SIZE(strangers); i++) {
		r = bz_mail(strangers[i], NULL);
		sections_for_report_site(map, NULL, r, ev, NULL, 0, &l);
		assert_int_equal(l.n, want.n);
		for (k = 0; k < l.n; k++) {
			assert_int_equal(l.v[k].section, want.v[k].section);
			assert_true(fabs(l.v[k].score - want.v[k].score) <
				    1e-9);
			assert_string_equal(l.v[k].why, want.v[k].why);
		}
		section_list_release(&l);
		report_free(r);
	}
	/* no message at all: nothing vouches for the fields */
	sections_for_report_site(map, NULL, NULL, ev, NULL, 0, &l);
	assert_int_equal(l.n, want.n);
	assert_int_equal(l.v[0].section, want.v[0].section);
	section_list_release(&l);

	/* kernel.org's daemon: the component counts */
	r = bz_mail("bugzilla-daemon@kernel.org", NULL);
	sections_for_report_site(map, NULL, r, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "BLUETOOTH DRIVERS");
	section_list_release(&l);
	/* with authserv_id, only when our server authenticated it */
	cfg = config_parse("authserv_id = mx.example.org\n"
			   "bugzilla_url = https://bugs.example.org/\n",
			   "routes.conf");
	assert_non_null(cfg);
	assert_int_equal(config_report(cfg, 0), 0);
	sections_for_report_site(map, cfg, r, ev, NULL, 0, &l);
	assert_int_equal(l.v[0].section, want.v[0].section);
	section_list_release(&l);
	report_free(r);
	r = bz_mail("bugzilla-daemon@kernel.org",
		    "mx.example.org; dkim=pass header.d=kernel.org");
	sections_for_report_site(map, cfg, r, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "BLUETOOTH DRIVERS");
	section_list_release(&l);
	report_free(r);
	/* another server's header proves nothing */
	r = bz_mail("bugzilla-daemon@kernel.org",
		    "mx.evil.org; dkim=pass header.d=kernel.org");
	sections_for_report_site(map, cfg, r, ev, NULL, 0, &l);
	assert_int_equal(l.v[0].section, want.v[0].section);
	section_list_release(&l);
	report_free(r);
	/* the site's own Bugzilla (bugzilla_url's host), authenticated */
	r = bz_mail("bugzilla-daemon@example.org",
		    "mx.example.org; spf=pass smtp.mailfrom=example.org");
	sections_for_report_site(map, cfg, r, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "BLUETOOTH DRIVERS");
	section_list_release(&l);
	report_free(r);
	/* a bug read from the Bugzilla (webhook, REST) */
	r = bz_mail("jane@example.com", NULL);
	r->source = "bugzilla";
	sections_for_report_site(map, cfg, r, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "BLUETOOTH DRIVERS");
	section_list_release(&l);
	report_free(r);
	config_free(cfg);
	section_list_release(&want);
	free(ev->bz_product);
	free(ev->bz_component);
	ev->bz_product = ev->bz_component = NULL;
	del_recipients(ev);
	del_recipients(plain);
	ev_del(ev);
	ev_del(plain);
}

/*
 * Bugzilla mails its component's list: the list is the component again,
 * not a second sign; a driver in the log then outranks the component
 */
static void test_bugzilla_list_counts_once(void **state)
{
	const char *files[] = { "drivers/usb/storage/uas.c" };
	struct evidence *ev = ev_new(NULL, files, 1);
	struct section_list l;

	(void)state;
	ev->bz_product = xstrdup("Drivers");
	ev->bz_component = xstrdup("USB");
	add_recipient(ev, "linux-usb@vger.kernel.org", true);
	sections_for_report(map, ev, NULL, 0, &l);
	assert_true(l.n >= 2);
	assert_string_equal(title(&l, 0), "USB ATTACHED SCSI");
	assert_string_equal(title(&l, 1), "USB SUBSYSTEM");
	assert_null(strstr(l.v[1].why, "linux-usb@vger.kernel.org"));
	assert_true(fabs(l.v[1].score - 0.6) < 1e-9); /* 0.5 + 0.1 */
	section_list_release(&l);
	/* the same list on a person's mail: evidence */
	free(ev->bz_product);
	free(ev->bz_component);
	ev->bz_product = ev->bz_component = NULL;
	sections_for_report(map, ev, NULL, 0, &l);
	assert_true(l.n >= 2);
	assert_string_equal(title(&l, 1), "USB SUBSYSTEM");
	assert_non_null(
		strstr(l.v[1].why, "L: linux-usb@vger.kernel.org in To 0.40"));
	section_list_release(&l);
	del_recipients(ev);
	ev_del(ev);
}

/*
 * Drivers the log names: one counts W_MODULE (0.45); a boot log naming
 * more than four shares four times that among them, so a list that
 * names the report's driver is not drowned by every driver that probed
 */
static void test_boot_log_drivers_share(void **state)
{
	const char *files[] = {
		"drivers/acme1/a.c",	     "drivers/acme2/a.c",
		"drivers/acme3/a.c",	     "drivers/acme4/a.c",
		"drivers/acme5/a.c",	     "drivers/iommu/a.c",
		"drivers/gpu/drm/nouvo/a.c", "drivers/ata/a.c",
	};
	struct evidence *ev = ev_new(NULL, files, 2);
	struct section_list l;
	size_t i;

	(void)state;
	ev->module_files = (char **)files;
	ev->nmodule_files = ARRAY_SIZE(files);
	sections_for_report(map, ev, NULL, 0, &l);
	assert_int_equal(l.n, 2);
	assert_true(fabs(l.v[0].score - 0.45) < 1e-9);
	assert_non_null(strstr(l.v[0].why,
			       "driver in the log: drivers/acme1/a.c 0.45"));
	section_list_release(&l);
	ev_del(ev);

	ev = ev_new(NULL, files, ARRAY_SIZE(files));
	ev->module_files = (char **)files;
	ev->nmodule_files = ARRAY_SIZE(files);
	add_recipient(ev, "linux-rt2x00-devel@lists.example.net", true);
	sections_for_report(map, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "RALINK RT2X00 WIRELESS LAN DRIVER");
	for (i = 1; i < l.n; i++)
		assert_true(fabs(l.v[i].score - 0.225) <
			    1e-9); /* 4 x 0.45 / 8 */
	section_list_release(&l);
	del_recipients(ev);
	ev->module_files = NULL;
	ev->nmodule_files = 0;
	ev_del(ev);
}

/*
 * A report sent to linux-usb@ and nothing else: the list's umbrella,
 * USB SUBSYSTEM; with the xHCI maintainer in Cc, the xHCI driver; with
 * a stable@ and the process section's maintainer, the same
 */
static void test_recipients_name_the_section(void **state)
{
	struct evidence *ev = ev_new(NULL, NULL, 0);
	struct section_list l;

	(void)state;
	add_recipient(ev, "linux-usb@vger.kernel.org", true);
	sections_for_report(map, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "USB SUBSYSTEM");
	assert_non_null(
		strstr(l.v[0].why, "L: linux-usb@vger.kernel.org in To 0.40"));
	section_list_release(&l);

	add_recipient(ev, "mn@k.org", true);
	add_recipient(ev, "stable@vger.kernel.org", false);
	add_recipient(ev, "g@k.org", false);
	sections_for_report(map, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "USB XHCI DRIVER");
	assert_non_null(strstr(l.v[0].why, "M: mn@k.org in To 0.50"));
	assert_string_equal(title(&l, 1), "USB SUBSYSTEM");
	section_list_release(&l);
	del_recipients(ev);

	/* someone no section names: unmapped */
	add_recipient(ev, "someone@example.org", true);
	sections_for_report(map, ev, NULL, 0, &l);
	assert_int_equal(l.n, 0);
	section_list_release(&l);
	del_recipients(ev);

	/* a list that left MAINTAINERS but names a section's patchwork
	 * project (alsa-devel@alsa-project.org, now linux-sound@) */
	add_recipient(ev, "alsa-devel@alsa-project.org", false);
	sections_for_report(map, ev, NULL, 0, &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(title(&l, 0), "SOUND CORE");
	assert_non_null(strstr(l.v[0].why,
			       "list or patchwork project named "
			       "alsa-devel@alsa-project.org in Cc 0.30"));
	section_list_release(&l);
	del_recipients(ev);

	/* a list that moved, under its old "-devel" name: the list of its
	 * stem (linux-widget@) */
	add_recipient(ev, "widget-devel@lists.example.net", true);
	sections_for_report(map, ev, NULL, 0, &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(title(&l, 0), "WIDGET SUBSYSTEM");
	section_list_release(&l);
	del_recipients(ev);

	/* a list MAINTAINERS never had, named after a driver's directory
	 * (linux-uvc-devel@lists.sourceforge.net) */
	add_recipient(ev, "linux-rt2x00-devel@lists.example.net", true);
	sections_for_report(map, ev, NULL, 0, &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(title(&l, 0), "RALINK RT2X00 WIRELESS LAN DRIVER");
	assert_non_null(strstr(l.v[0].why,
			       "list or patchwork project named "
			       "linux-rt2x00-devel@lists.example.net in To, "
			       "after directory rt2x00 0.40"));
	section_list_release(&l);
	del_recipients(ev);

	/* but a person's address is no list, whatever it spells */
	add_recipient(ev, "rt2x00@example.net", true);
	sections_for_report(map, ev, NULL, 0, &l);
	assert_int_equal(l.n, 0);
	section_list_release(&l);
	del_recipients(ev);

	/* not a catch-all's list on another host (LKML names no
	 * subsystem), nor a list MAINTAINERS has but the address index
	 * leaves out (a section without code) */
	add_recipient(ev, "linux-kernel@lists.example.org", true);
	add_recipient(ev, "linux-next@vger.kernel.org", true);
	sections_for_report(map, ev, NULL, 0, &l);
	assert_int_equal(l.n, 0);
	section_list_release(&l);
	del_recipients(ev);
	ev_del(ev);
}

/*
 * A driver inside an umbrella: the umbrella's list is evidence for the
 * driver too once the driver has evidence of its own; a frame in the
 * umbrella's own files stays the umbrella's
 */
static void test_inside_the_umbrella(void **state)
{
	const char *files[] = { "drivers/usb/storage/uas.c" };
	struct evidence *ev = ev_new(NULL, files, 1);
	struct section_list l;

	(void)state;
	/* named in the text: UAS 0.4, storage 0.2, USB 0.1; the list is
	 * in 4 sections, all inside USB, the list's own: 0.4 for USB, 0.1
	 * for UAS, so USB (0.5) would win over UAS (0.5, later in
	 * MAINTAINERS) without the nesting */
	add_recipient(ev, "linux-usb@vger.kernel.org", true);
	sections_for_report(map, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "USB ATTACHED SCSI");
	assert_non_null(strstr(l.v[0].why, "within USB SUBSYSTEM"));
	section_list_release(&l);
	del_recipients(ev);
	ev_del(ev);
}

/*
 * The maintainer of an umbrella who also looks after a section inside
 * it: mail to them is the umbrella's, no sign of the inner section
 */
static void test_umbrella_person(void **state)
{
	struct evidence *ev = ev_new(NULL, NULL, 0);
	struct section_list l;

	(void)state;
	add_recipient(ev, "hc@k.org", true);
	add_recipient(ev, "hd@k.org", true);
	sections_for_report(map, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "HID CORE LAYER");
	assert_null(strstr(l.v[0].why, "within"));
	assert_string_equal(title(&l, 1), "USB HID DRIVERS");
	assert_true(l.v[1].score < l.v[0].score);
	section_list_release(&l);
	del_recipients(ev);
	ev_del(ev);
}

/* ten paths of one section named in the text count as one */
static void test_text_paths_count_once(void **state)
{
	const char *files[] = { "mm/memory.c",	 "mm/swap.c",
				"mm/gup.c",	 "mm/rmap.c",
				"mm/mmap.c",	 "mm/mlock.c",
				"mm/mprotect.c", "mm/madvise.c",
				"mm/mremap.c",	 "fs/xfs/xfs_inode.c" };
	struct evidence *ev = ev_new(NULL, files, ARRAY_SIZE(files));
	struct section_list l;

	(void)state;
	sections_for_report(map, ev, NULL, 0, &l);
	/* MEMORY MANAGEMENT: 0.4 at most, XFS: 0.15 (named last) */
	assert_string_equal(title(&l, 0), "MEMORY MANAGEMENT");
	assert_true(fabs(l.v[0].score - 0.4) < 1e-9);
	section_list_release(&l);
	ev_del(ev);
}

/*
 * A driver the subject names that no module index knows ("EDAC igen6
 * MC0: ...": the module is igen6_edac) is the file named after it; not
 * a word of the prefix chain ("rt2x00:" is credit_chain()'s), nor a
 * plain word
 */
static void test_subject_name_in_map(void **state)
{
	struct evidence *ev = ev_new(NULL, NULL, 0);
	struct section_list l;

	(void)state;
	ev->named = xcalloc(1, sizeof(char *));
	ev->named_files = xcalloc(1, sizeof(char *));
	ev->named[0] = xstrdup("igen6");
	ev->nnamed = ev->nnamed_subject = 1;
	add_recipient(ev, "linux-edac@vger.kernel.org", true);
	sections_for_report(map, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "EDAC-IGEN6");
	assert_non_null(strstr(
		l.v[0].why, "driver in the subject: igen6 (F: igen6*) 0.60"));
	section_list_release(&l);
	del_recipients(ev);

	/* a directory of its own: rt2x00/ */
	free(ev->named[0]);
	ev->named[0] = xstrdup("rt2x00");
	sections_for_report(map, ev, NULL, 0, &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(title(&l, 0), "RALINK RT2X00 WIRELESS LAN DRIVER");
	section_list_release(&l);
	/* ... but the chain's own word is the chain's */
	ev->subject_chain = xstrdup("rt2x00: foo");
	sections_for_report(map, ev, NULL, 0, &l);
	assert_int_equal(l.n, 1);
	assert_null(strstr(l.v[0].why, "driver in the subject"));
	section_list_release(&l);
	free(ev->subject_chain);
	ev->subject_chain = NULL;
	/* a plain word names nothing so */
	free(ev->named[0]);
	ev->named[0] = xstrdup("edac");
	sections_for_report(map, ev, NULL, 0, &l);
	assert_int_equal(l.n, 0);
	section_list_release(&l);

	free(ev->named[0]);
	free(ev->named);
	free(ev->named_files);
	ev->named = ev->named_files = NULL;
	ev->nnamed = ev->nnamed_subject = 0;
	ev_del(ev);
}

/*
 * A driver the subject names decides within the list's umbrella; a
 * function the prose names counts, one in a generic file does not
 */
static void test_named_drivers_and_functions(void **state)
{
	struct evidence *ev = ev_new(NULL, NULL, 0);
	struct section_list l;

	(void)state;
	ev->named = xcalloc(2, sizeof(char *));
	ev->named_files = xcalloc(2, sizeof(char *));
	ev->named[0] = xstrdup("uas");
	ev->named_files[0] = xstrdup("drivers/usb/storage/uas.c");
	ev->named[1] = xstrdup("x86_64"); /* no module: no file */
	ev->nnamed = 2;
	ev->nnamed_subject = 1;
	add_recipient(ev, "linux-usb@vger.kernel.org", true);
	sections_for_report(map, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "USB ATTACHED SCSI");
	assert_non_null(strstr(l.v[0].why, "driver in the subject: uas "
					   "(drivers/usb/storage/uas.c) 0.60"));
	assert_non_null(strstr(l.v[0].why, "within USB SUBSYSTEM"));
	section_list_release(&l);
	del_recipients(ev);
	/* named in the prose only: 0.3, still the driver's */
	ev->nnamed_subject = 0;
	sections_for_report(map, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "USB ATTACHED SCSI");
	assert_true(fabs(l.v[0].score - 0.3) < 1e-9);
	section_list_release(&l);
	ev->nnamed = 0;
	free(ev->named[0]);
	free(ev->named[1]);
	free(ev->named_files[0]);
	free(ev->named);
	free(ev->named_files);
	ev->named = ev->named_files = NULL;

	/* "xfs_iget()" in the prose, "list_del()" of lib/ says nothing */
	ev->text_functions = xcalloc(2, sizeof(char *));
	ev->text_function_files = xcalloc(2, sizeof(char *));
	ev->text_functions[0] = xstrdup("__list_del_entry_valid_or_report");
	ev->text_function_files[0] = xstrdup("lib/list_debug.c");
	ev->ntext_functions = 1;
	sections_for_report(map, ev, NULL, 0, &l);
	assert_int_equal(l.n, 0);
	section_list_release(&l);
	ev->text_functions[1] = xstrdup("xfs_iget");
	ev->text_function_files[1] = xstrdup("fs/xfs/xfs_icache.c");
	ev->ntext_functions = 2;
	sections_for_report(map, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "XFS FILESYSTEM");
	assert_non_null(strstr(l.v[0].why, "function named in text: "
					   "xfs_iget() (fs/xfs/xfs_icache.c)"));
	section_list_release(&l);
	free(ev->text_functions[0]);
	free(ev->text_functions[1]);
	free(ev->text_function_files[0]);
	free(ev->text_function_files[1]);
	free(ev->text_functions);
	free(ev->text_function_files);
	ev_del(ev);
}

/* prefix_top - the first section for a subject prefix and chain */
static const char *prefix_top(const char *prefix, const char *chain, char *why,
			      size_t size)
{
	struct evidence *ev = ev_new(NULL, NULL, 0);
	struct section_list l;
	static char top[128];

	ev->subject_prefix = xstrdup(prefix);
	ev->subject_chain = chain ? xstrdup(chain) : NULL;
	sections_for_report(map, ev, NULL, 0, &l);
	snprintf(top, sizeof(top), "%s", title(&l, 0));
	if (why)
		snprintf(why, size, "%s", l.n ? l.v[0].why : "");
	section_list_release(&l);
	free(ev->subject_chain);
	ev_del(ev);
	return top;
}

/*
 * A prefix names the broadest section of that name: the shallowest code
 * before the fewest words, a directory of that name before a title that
 * holds less of the tree; a name several sections share equally (a
 * vendor's) names none
 */
static void test_prefix_broadest_code(void **state)
{
	(void)state;
	/* IIO MULTIPLEXER has fewer words, drivers/iio/ more code */
	assert_string_equal(prefix_top("iio", "iio: imu: foo9000", NULL, 0),
			    "IIO SUBSYSTEM AND DRIVERS");
	/* "ATA OVER ETHERNET" is the only title; drivers/ata/ is broader */
	assert_string_equal(prefix_top("ata", NULL, NULL, 0),
			    "LIBATA SUBSYSTEM");
	assert_string_equal(prefix_top("x86", NULL, NULL, 0),
			    "X86 ARCHITECTURE (32-BIT AND 64-BIT)");
	assert_string_equal(prefix_top("acme", "arm: acme", NULL, 0), "(none)");
}

/*
 * A prefix with a "/": the directory when a deeper pattern owns it than
 * the file ("sound/usb" is sound/usb/, not a sound/usb.c of sound/);
 * names that are no path of the tree but a directory deeper in it
 * ("x86/mce"), and a chain whose component is such a directory under
 * an earlier one ("net: mana")
 */
static void test_prefix_paths_in_tree(void **state)
{
	char why[SECTION_WHY_MAX];

	(void)state;
	assert_string_equal(prefix_top("sound/usb", NULL, why, sizeof(why)),
			    "SOUND USB");
	assert_non_null(strstr(why, "subject prefix \"sound/usb:\" 0.60"));
	assert_string_equal(prefix_top("mm/slub", NULL, NULL, 0),
			    "SLAB ALLOCATOR");
	assert_string_equal(prefix_top("x86/mce", NULL, why, sizeof(why)),
			    "X86 MCE INFRASTRUCTURE");
	assert_non_null(strstr(why, "subject prefix \"x86/mce:\" 0.60"));
	/* drivers/infiniband/hw/mana/ is shallower, but not under net */
	assert_string_equal(prefix_top("net", "net: mana", why, sizeof(why)),
			    "HYPER-V CORE AND DRIVERS");
	assert_non_null(strstr(why, "subject prefix \"mana:\" 0.60"));
	assert_string_equal(prefix_top("RDMA", "RDMA: mana", NULL, 0),
			    "MICROSOFT MANA RDMA DRIVER");
}

/*
 * Equal scores: the section with evidence of its own (a path in the
 * text) before one the report was only sent to (its list); two of one
 * list and nothing else: the broader one, the list's subsystem
 */
static void test_ties(void **state)
{
	const char *files[] = { "mm/memory-tiers.c" };
	struct evidence *ev = ev_new(NULL, files, 1);
	struct section_list l;

	(void)state;
	add_recipient(ev, "linux-xfs@vger.kernel.org", true);
	sections_for_report(map, ev, NULL, 0, &l);
	assert_true(fabs(l.v[0].score - l.v[1].score) < 1e-9);
	assert_string_equal(title(&l, 0), "MEMORY TIERING");
	assert_string_equal(title(&l, 1), "XFS FILESYSTEM");
	section_list_release(&l);
	del_recipients(ev);
	ev_del(ev);

	ev = ev_new(NULL, NULL, 0);
	add_recipient(ev, "linux-kbuild@vger.kernel.org", true);
	sections_for_report(map, ev, NULL, 0, &l);
	assert_int_equal(l.n, 2);
	assert_string_equal(
		title(&l, 0),
		"KERNEL BUILD + files below scripts/ (unless maintained elsewhere)");
	assert_string_equal(title(&l, 1), "KCONFIG");
	section_list_release(&l);
	del_recipients(ev);
	ev_del(ev);
}

static void set_named(struct evidence *ev, const char *const *names,
		      const char *const *files, size_t n, size_t nsubject)
{
	size_t i;

	for (i = 0; i < ev->nnamed; i++) {
		free(ev->named[i]);
		free(ev->named_files[i]);
	}
	free(ev->named);
	free(ev->named_files);
	ev->named = ev->named_files = NULL;
	ev->nnamed = ev->nnamed_subject = 0;
	if (!n)
		return;
	ev->named = xcalloc(n, sizeof(char *));
	ev->named_files = xcalloc(n, sizeof(char *));
	for (i = 0; i < n; i++) {
		ev->named[i] = xstrdup(names[i]);
		ev->named_files[i] = xstrdup(files[i]);
	}
	ev->nnamed = n;
	ev->nnamed_subject = nsubject;
}

/*
 * "uas" in the subject, "usb-storage" in the text: the storage
 * directory's section has both (uas.c at half), UAS the one at full;
 * equal scores, and the driver inside comes before its umbrella.  Not
 * where a pool's cap made the scores equal: three sound modules in the
 * text, two of sound/usb/, give SOUND USB and SOUND CORE the cap
 * each, and the broader stays first.
 */
static void test_tie_inner_first(void **state)
{
	static const char *const uas[] = { "uas", "usb-storage" };
	static const char *const uas_files[] = { "drivers/usb/storage/uas.c",
						 "drivers/usb/storage/usb.c" };
	static const char *const snd[] = { "snd_usb_audio", "snd_usbmidi_lib",
					   "snd_pcm" };
	static const char *const snd_files[] = { "sound/usb/card.c",
						 "sound/usb/midi.c",
						 "sound/core/pcm.c" };
	struct evidence *ev = ev_new(NULL, NULL, 0);
	struct section_list l;

	(void)state;
	set_named(ev, uas, uas_files, 2, 1);
	sections_for_report(map, ev, NULL, 0, &l);
	assert_true(l.n >= 2);
	assert_true(fabs(l.v[0].score - l.v[1].score) < 1e-9);
	assert_string_equal(title(&l, 0), "USB ATTACHED SCSI");
	assert_string_equal(title(&l, 1), "USB STORAGE DRIVER");
	section_list_release(&l);

	set_named(ev, snd, snd_files, 3, 0);
	sections_for_report(map, ev, NULL, 0, &l);
	assert_true(l.n >= 2);
	assert_true(fabs(l.v[0].score - 0.4) < 1e-9);
	assert_true(fabs(l.v[1].score - 0.4) < 1e-9);
	assert_string_equal(title(&l, 0), "SOUND CORE");
	assert_string_equal(title(&l, 1), "SOUND USB");
	section_list_release(&l);
	set_named(ev, NULL, NULL, 0, 0);
	ev_del(ev);
}

/*
 * "iio: hid-sensor-hub: ...": the chain's driver is the HID sensor
 * hub's file; the broader component the reporter put first (the
 * device's kind) names no section of its own beside it
 */
static void test_chain_driver_speaks(void **state)
{
	static const char *const names[] = { "hid-sensor-hub" };
	static const char *const files[] = { "drivers/hid/hid-sensor-hub.c" };
	struct evidence *ev = ev_new(NULL, NULL, 0);
	struct section_list l;

	(void)state;
	ev->subject_prefix = xstrdup("iio");
	ev->subject_chain = xstrdup("iio: hid-sensor-hub");
	set_named(ev, names, files, 1, 1);
	sections_for_report(map, ev, NULL, 0, &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(title(&l, 0), "HID CORE LAYER");
	assert_non_null(strstr(l.v[0].why, "driver in the subject: "
					   "hid-sensor-hub"));
	section_list_release(&l);
	/* named in the prose only: the chain's first component stands */
	ev->nnamed_subject = 0;
	sections_for_report(map, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "IIO SUBSYSTEM AND DRIVERS");
	assert_non_null(strstr(l.v[0].why, "subject prefix \"iio:\" 0.60"));
	section_list_release(&l);
	set_named(ev, NULL, NULL, 0, 0);
	free(ev->subject_chain);
	ev->subject_chain = NULL;
	ev_del(ev);
}

/*
 * A config dump in the text names the signing key's path as an
 * option's value: the build's setting, no sign of where it broke; the
 * same path in the reporter's own words counts
 */
static void test_config_value_path(void **state)
{
	static const char dump[] =
		"Since 6.18 the modules of the rpm are not signed.\n"
		"   CONFIG_MODULE_SIG=y\n"
		"   CONFIG_MODULE_SIG_KEY=\"certs/signing_key.pem\"\n"
		"> CONFIG_MODULE_SIG_KEY=certs/signing_key.pem\n";
	static const char prose[] =
		"CONFIG_MODULE_SIG_KEY=\"certs/signing_key.pem\"\n"
		"and certs/signing_key.pem is regenerated on every build.\n";
	const char *files[] = { "certs/signing_key.pem" };
	struct evidence *ev = ev_new(NULL, files, 1);
	struct section_list l;
	size_t i;

	(void)state;
	add_recipient(ev, "linux-kbuild@vger.kernel.org", true);
	sections_for_report(map, ev, dump, strlen(dump), &l);
	assert_true(l.n >= 1);
	assert_string_equal(
		title(&l, 0),
		"KERNEL BUILD + files below scripts/ (unless maintained elsewhere)");
	assert_true(map_find_section(map, "CERTIFICATE HANDLING") >= 0);
	for (i = 0; i < l.n; i++)
		assert_string_not_equal(title(&l, i), "CERTIFICATE HANDLING");
	section_list_release(&l);
	sections_for_report(map, ev, prose, strlen(prose), &l);
	assert_string_equal(title(&l, 0), "CERTIFICATE HANDLING");
	section_list_release(&l);
	/* a path the body does not hold (an attachment's) is kept */
	sections_for_report(map, ev, "see the attached log\n", 21, &l);
	assert_string_equal(title(&l, 0), "CERTIFICATE HANDLING");
	section_list_release(&l);
	del_recipients(ev);
	ev_del(ev);
}

/* drivers/base/'s directories are subsystems, not the device model */
static void test_regmap_is_no_core(void **state)
{
	struct evidence *ev =
		ev_new("drivers/base/regmap/regmap-irq.c", NULL, 0);
	struct section_list l;

	(void)state;
	sections_for_report(map, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "REGISTER MAP ABSTRACTION");
	assert_true(fabs(l.v[0].score - 1.5) < 1e-9);
	assert_string_equal(title(&l, 1), "DRIVER CORE");
	assert_true(fabs(l.v[1].score - 0.75) < 1e-9);
	section_list_release(&l);
	ev_del(ev);
}

/*
 * security/security.c is the LSM hook layer every module's trace passes
 * through: it counts half, like the other core glue (generic_path()),
 * and the module the trace is in comes first
 */
static void test_lsm_hooks_are_core(void **state)
{
	const char *files[] = { "security/landlock/fs.c",
				"security/security.c" };
	struct evidence *ev = ev_new(NULL, files, 2);
	struct section_list l;

	(void)state;
	ev->frames = xcalloc(2, sizeof(*ev->frames));
	ev->frames[0].file = xstrdup("security/landlock/fs.c");
	ev->frames[1].file = xstrdup("security/security.c");
	ev->nframes = 2;
	sections_for_report(map, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "LANDLOCK SECURITY MODULE");
	assert_true(fabs(l.v[0].score - 0.5) < 1e-9);
	/* landlock's frame at half, security.c's 0.45 halved */
	assert_string_equal(title(&l, 1), "SECURITY SUBSYSTEM");
	assert_true(fabs(l.v[1].score - 0.475) < 1e-9);
	section_list_release(&l);
	ev_del(ev);
}

/*
 * library and core code a subsystem calls counts half where it is the
 * guilty file: the mmap lock's wrappers, an algorithm's generic C
 * implementation, the timers, the IOMMU API glue; the rest of mm/ and
 * crypto/ in full, and an IOMMU vendor driver below the glue.  One list
 * with the guilty-file choice (crashlog_core_path()).
 */
static void test_library_guilty_counts_half(void **state)
{
	static const struct {
		const char *file, *section;
		double w;
	} c[] = {
		{ "mm/mmap_lock.c", "MEMORY MANAGEMENT", 0.75 },
		{ "mm/mprotect.c", "MEMORY MANAGEMENT", 1.5 },
		{ "crypto/xxhash_generic.c", "CRYPTO API", 0.75 },
		{ "crypto/shash.c", "CRYPTO API", 1.5 },
		{ "kernel/time/hrtimer.c", "TIMEKEEPING", 0.75 },
		{ "drivers/iommu/iommu.c", "IOMMU SUBSYSTEM", 0.75 },
		{ "drivers/iommu/intel/iommu.c", "IOMMU SUBSYSTEM", 1.5 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		struct evidence *ev = ev_new(c[i].file, NULL, 0);
		struct section_list l;

		sections_for_report(map, ev, NULL, 0, &l);
		assert_string_equal(title(&l, 0), c[i].section);
		assert_true(fabs(l.v[0].score - c[i].w) < 1e-9);
		section_list_release(&l);
		ev_del(ev);
	}
}

static void test_catchall(void **state)
{
	assert_true(sections_is_catchall(
		map, (uint32_t)map_find_section(map, "THE REST")));
	assert_false(sections_is_catchall(
		map, (uint32_t)map_find_section(map, "NAPI")));
}

/*
 * A test robot's "tree:" line, CKI's "Kernel repo:", KernelCI's "Git
 * URL:": the section whose T: it is, shown; the sections of one tree
 * share it by what they cover; a catch-all tree (mainline, linux-next)
 * or one of many subsystems none of which covers a quarter names none
 */
static void test_tree_of_a_bot(void **state)
{
	struct evidence *ev = ev_new(NULL, NULL, 0);
	struct section_list l;
	const char *lkp = "kernel test robot noticed the following build "
			  "errors:\n\n"
			  "tree:   https://git.kernel.org/pub/scm/linux/kernel/"
			  "git/gizmo/linux.git for-next\n"
			  "head:   0123456789abcdef\n";
	const char *cki = "We ran automated tests on this kernel tree:\n"
			  "       Kernel repo: git://git.kernel.org/pub/scm/"
			  "linux/kernel/git/gizmo/linux\n";
	const char *quoted = "> tree:   https://git.kernel.org/pub/scm/linux/"
			     "kernel/git/gizmo/linux.git for-next\n";
	const char *mainline = "tree:   https://git.kernel.org/pub/scm/linux/"
			       "kernel/git/torvalds/linux.git master\n"
			       "Git URL: https://git.kernel.org/pub/scm/linux/"
			       "kernel/git/next/linux-next.git\n"
			       "URL: https://git.kernel.org/pub/scm/linux/"
			       "kernel/git/stable/linux.git\n";
	const char *tip = "tree:   https://example.org/tip.git x86/core\n";

	(void)state;
	sections_for_report(map, ev, lkp, strlen(lkp), &l);
	assert_int_equal(l.n, 2);
	assert_string_equal(title(&l, 0), "GIZMO ARCHITECTURE");
	assert_string_equal(l.v[0].why,
			    "T: tree the report built: git.kernel.org/pub/scm/"
			    "linux/kernel/git/gizmo/linux 0.75");
	/* GIZMO CLOCKS covers itself, half the tree's sections */
	assert_string_equal(title(&l, 1), "GIZMO CLOCKS");
	assert_true(fabs(l.v[1].score - 0.375) < 1e-9);
	section_list_release(&l);
	sections_for_report(map, ev, cki, strlen(cki), &l);
	assert_string_equal(title(&l, 0), "GIZMO ARCHITECTURE");
	assert_true(fabs(l.v[0].score - 0.75) < 1e-9);
	section_list_release(&l);
	sections_for_report(map, ev, quoted, strlen(quoted), &l);
	assert_int_equal(l.n, 0);
	section_list_release(&l);
	sections_for_report(map, ev, mainline, strlen(mainline), &l);
	assert_int_equal(l.n, 0);
	section_list_release(&l);
	sections_for_report(map, ev, tip, strlen(tip), &l);
	assert_int_equal(l.n, 0);
	section_list_release(&l);
	ev_del(ev);
}

/*
 * A list two sections carry, and nothing else: its own section (the
 * one whose code the list is named after, map_address()) first, not
 * the broader one that only Cc's it; a subject prefix of the list's
 * name is that section's too
 */
static void test_list_home_first(void **state)
{
	struct evidence *ev = ev_new(NULL, NULL, 0);
	struct section_list l;

	(void)state;
	add_recipient(ev, "nouvo@lists.example.org", true);
	sections_for_report(map, ev, NULL, 0, &l);
	assert_int_equal(l.n, 2);
	assert_string_equal(title(&l, 0), "DRM DRIVER FOR ACME GPUS");
	assert_string_equal(l.v[0].why,
			    "L: nouvo@lists.example.org in To 0.40");
	assert_string_equal(title(&l, 1), "MMIO TRACER");
	assert_string_equal(l.v[1].why,
			    "L: nouvo@lists.example.org in To 0.20");
	section_list_release(&l);
	del_recipients(ev);
	ev->subject_prefix = xstrdup("nouvo");
	sections_for_report(map, ev, NULL, 0, &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(title(&l, 0), "DRM DRIVER FOR ACME GPUS");
	assert_string_equal(l.v[0].why, "subject prefix \"nouvo:\" 0.60");
	section_list_release(&l);
	ev_del(ev);
}

/*
 * A framework's check (a WARN in the DRM core) that the driver the
 * subject names tripped, its frames below: the two share the guilty
 * file's weight; a driver the subject names that is not in the trace
 * takes none of it
 */
static void test_subject_driver_under_guilty(void **state)
{
	const char *frames[] = { "drivers/gpu/drm/drm_atomic.c",
				 "drivers/gpu/drm/nouvo/disp/wndw.c" };
	struct evidence *ev = ev_new("drivers/gpu/drm/drm_atomic.c", frames, 2);
	struct section_list l;
	size_t i;

	(void)state;
	ev->frames = xcalloc(2, sizeof(*ev->frames));
	for (i = 0; i < 2; i++)
		ev->frames[i].file = xstrdup(frames[i]);
	ev->nframes = 2;
	ev->named = xcalloc(1, sizeof(char *));
	ev->named_files = xcalloc(1, sizeof(char *));
	ev->named[0] = xstrdup("nouvo");
	ev->named_files[0] = xstrdup("drivers/gpu/drm/nouvo/nouvo_drm.c");
	ev->nnamed = ev->nnamed_subject = 1;
	sections_for_report(map, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "DRM DRIVER FOR ACME GPUS");
	assert_non_null(strstr(l.v[0].why, "the subject's driver under the "
					   "guilty file, in drivers/gpu/drm/"
					   "nouvo/disp/wndw.c 0.75"));
	assert_string_equal(title(&l, 1), "DRM CORE");
	assert_non_null(strstr(l.v[1].why, "guilty file drivers/gpu/drm/"
					   "drm_atomic.c 0.75"));
	section_list_release(&l);
	/* the named driver is not in the trace: the guilty file's alone */
	free(ev->frames[1].file);
	ev->frames[1].file = xstrdup("drivers/gpu/drm/drm_plane.c");
	free(ev->files[1]);
	ev->files[1] = xstrdup("drivers/gpu/drm/drm_plane.c");
	sections_for_report(map, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "DRM CORE");
	assert_non_null(strstr(l.v[0].why, "guilty file drivers/gpu/drm/"
					   "drm_atomic.c 1.50"));
	section_list_release(&l);
	free(ev->named[0]);
	free(ev->named_files[0]);
	free(ev->named);
	free(ev->named_files);
	ev_del(ev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_guilty_file_ranks_first),
		cmocka_unit_test(test_syzbot_title_file),
		cmocka_unit_test(test_prefix_title_slash),
		cmocka_unit_test(test_named_drivers_and_functions),
		cmocka_unit_test(test_keywords_in_prose_only),
		cmocka_unit_test(test_generic_core_counts_half),
		cmocka_unit_test(test_bugzilla_component),
		cmocka_unit_test(test_bugzilla_list_counts_once),
		cmocka_unit_test(test_frames_outweigh_text),
		cmocka_unit_test(test_subject_prefix),
		cmocka_unit_test(test_subject_prefix_shared),
		cmocka_unit_test(test_prefix_list_broadest),
		cmocka_unit_test(test_subject_name_in_map),
		cmocka_unit_test(test_prefix_chain_and_culprit),
		cmocka_unit_test(test_umbrella_person),
		cmocka_unit_test(test_prefix_names_a_driver),
		cmocka_unit_test(test_syzbot_guess_and_generic_guilty),
		cmocka_unit_test(test_frames_pooled_under_guilty),
		cmocka_unit_test(test_keywords_and_unmapped),
		cmocka_unit_test(test_catchall),
		cmocka_unit_test(test_recipients_name_the_section),
		cmocka_unit_test(test_inside_the_umbrella),
		cmocka_unit_test(test_text_paths_count_once),
		cmocka_unit_test(test_prefix_broadest_code),
		cmocka_unit_test(test_prefix_paths_in_tree),
		cmocka_unit_test(test_ties),
		cmocka_unit_test(test_tie_inner_first),
		cmocka_unit_test(test_chain_driver_speaks),
		cmocka_unit_test(test_config_value_path),
		cmocka_unit_test(test_regmap_is_no_core),
		cmocka_unit_test(test_toolchain_list_from_build_line),
		cmocka_unit_test(test_bugzilla_component_list_sibling),
		cmocka_unit_test(test_bugzilla_component_only_bugzillas),
		cmocka_unit_test(test_stacking_filesystem),
		cmocka_unit_test(test_lsm_hooks_are_core),
		cmocka_unit_test(test_library_guilty_counts_half),
		cmocka_unit_test(test_tree_of_a_bot),
		cmocka_unit_test(test_list_home_first),
		cmocka_unit_test(test_subject_driver_under_guilty),
		cmocka_unit_test(test_boot_log_drivers_share),
	};

	msg_setup("test_sections", 1, false);
	return cmocka_run_group_tests(tests, setup, teardown);
}
