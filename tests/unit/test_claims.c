// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_claims - a report's claims checked against a small fake tree
 * (claims.c): frame sizes, a function in its file, CONFIG_ options,
 * and the weighing that keeps one typo from counting
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "claims.h"
#include "classify.h"
#include "evidence.h"
#include "rules.h"
#include "strbuf.h"
#include "symbols.h"
#include "tree_scratch.h"
#include "util.h"

static char tmpdir[TREE_DIR_MAX];
static struct symbols *syms;

static void write_text(const char *rel, const char *text)
{
	tree_write(tmpdir, rel, text);
}

/*
 * fs/ext4/warn.c: warn_helper (lines 1-4) that warn_outer (65-68)
 * calls, warn_other (129-132) that nothing calls, warn_cb (193-196)
 * that warn_register (197-200) passes as a value; blank lines between
 */
static void write_warn_c(void)
{
	static const char *const parts[] = {
		"static void warn_helper(int x)\n{\n\tWARN_ON(x);\n}\n",
		"int warn_outer(void)\n{\n\twarn_helper(1);\n}\n",
		"int warn_other(void)\n{\n\treturn 0;\n}\n",
		("static int warn_cb(void)\n{\n\treturn WARN_ON(1);\n}\n"
		 "int warn_register(void)\n{\n\treturn reg(warn_cb);\n}\n"),
	};
	char *buf = xmalloc(4096), *w = buf;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(parts); i++) {
		if (i) {
			memset(w, '\n', 60);
			w += 60;
		}
		w = stpcpy(w, parts[i]);
	}
	write_text("fs/ext4/warn.c", buf);
	free(buf);
}

static int setup(void **state)
{
	char *idx, *far;

	(void)state;
	tree_make(tmpdir, "triage-claims");
	write_text("fs/ext4/inode.c",
		   "struct inode *ext4_iget(int ino)\n{\n}\n"
		   "static int ext4_write_begin(void)\n{\n}\n");
	write_text("fs/ext4/super.c",
		   "static int ext4_fill_super(void)\n{\n}\n");
	write_text("include/linux/list.h",
		   "static inline void list_add(void) { }\n");
	write_text("fs/ext4/namei.c",
		   "static int ext4_helper(int x)\n"	   /* 1 */
		   "{\n"				   /* 2 */
		   "\treturn x + 1;\n"			   /* 3 */
		   "}\n"				   /* 4 */
		   "int ext4_lookup(int x)\n"		   /* 5 */
		   "{\n"				   /* 6 */
		   "\tint y = ext4_helper(x);\n"	   /* 7 */
		   "\treturn ext4_iget(y) != 0;\n"	   /* 8 */
		   "}\n"				   /* 9 */
		   "int ext4_create(struct ops *o)\n"	   /* 10 */
		   "{\n"				   /* 11 */
		   "\treturn o->fn(1) + ext4_lookup(2);\n" /* 12 */
		   "}\n"				   /* 13 */
		   "int ext4_unlink(int x)\n"		   /* 14 */
		   "{\n"				   /* 15 */
		   "\treturn ext4_helper(x);\n"		   /* 16 */
		   "}\n"				   /* 17 */
		   "int ext4_rename(int x)\n"		   /* 18 */
		   "{\n"				   /* 19 */
		   "\treturn ext4_unlink(x) + ext4_lookup(x);\n"
		   "}\n"
		   "void ext4_unlock_irqrestore(void)\n{\n}\n"
		   "void perf_trace_ext4(void)\n{\n}\n");
	write_warn_c();
	/* a second warn.c: a basename alone is ambiguous between them */
	write_text("drivers/misc/warn.c", "int misc_warn(void)\n{\n}\n");
	far = xmalloc(1300);
	memset(far, '\n', 1201);
	strcpy(far + 1201, "int ext4_far(void)\n{\n}\n");
	write_text("fs/ext4/far.c", far);
	free(far);
	write_text("fs/ext4/Kconfig", "config EXT4_FS\n\ttristate \"ext4\"\n"
				      "menuconfig EXT4_DEBUG\n\tbool \"d\"\n");
	write_text("drivers/usb/Kconfig", "  config USB\n\ttristate \"usb\"\n"
					  "# config NOT_AN_OPTION\n");
	write_text("drivers/usb/core/usb.c",
		   "module_param_named(autosuspend, usb_autosuspend_delay, "
		   "int, 0644);\n");
	write_text("drivers/usb/core/Makefile",
		   "obj-$(CONFIG_USB) += usbcore.o\nusbcore-y := usb.o\n");
	write_text("drivers/bluetooth/btusb.c",
		   "static bool reset = true;\n"
		   "module_param(reset, bool, 0644);\n");
	write_text("drivers/bluetooth/Makefile",
		   "obj-$(CONFIG_BT_HCIBTUSB) += btusb.o\n");
	write_text("kernel/sysctl.c",
		   "static struct ctl_table vm_table[] = {\n"
		   "\t{\n\t\t.procname\t= \"swappiness\",\n\t},\n};\n");
	write_text("include/uapi/linux/kvm.h",
		   "#define KVM_RUN                   _IO(KVMIO,   0x80)\n");
	write_text("include/uapi/asm-generic/ioctls.h",
		   "#define TCGETS\t\t0x5401\n");
	write_text("Makefile", "# SPDX\nVERSION = 6\nPATCHLEVEL = 12\n"
			       "SUBLEVEL = 3\nEXTRAVERSION =\n");
	assert_int_equal(symlink("/etc", far = xasprintf("%s/fs/etc", tmpdir)),
			 0);
	free(far);
	idx = xasprintf("%s/symbols.idx", tmpdir);
	assert_int_equal(symbols_build(tmpdir, idx, NULL), 0);
	syms = symbols_open(idx);
	assert_non_null(syms);
	free(idx);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	symbols_free(syms);
	tree_remove(tmpdir);
	return 0;
}

static struct frame fr(const char *fn, unsigned long off, unsigned long size,
		       const char *file)
{
	struct frame f;

	memset(&f, 0, sizeof(f));
	f.function = (char *)fn;
	f.offset = off;
	f.size = size;
	f.file = (char *)file;
	return f;
}

static void test_sizes(void **state)
{
	struct frame f[] = {
		fr("ext4_iget", 0x10, 0x40, NULL),
		fr("ext4_iget", 0x20, 0x40, NULL),	  /* same size: fine */
		fr("ext4_write_begin", 0x10, 0x10, NULL), /* last insn */
		fr("ext4_fill_super.part.0", 0x8, 0x80, NULL),
		fr("ext4_fill_super", 0x8, 0x200, NULL), /* another symbol */
	};
	struct evidence ev;
	struct claims c;

	(void)state;
	memset(&ev, 0, sizeof(ev));
	ev.frames = f;
	ev.nframes = ARRAY_SIZE(f);
	claims_check(NULL, 0, &ev, NULL, &c);
	assert_int_equal(c.checks_kind[CLAIM_SIZE], 4);
	assert_int_equal(c.failed, 0);
	f[1].size = 0x48; /* one function, two sizes */
	claims_check(NULL, 0, &ev, NULL, &c);
	assert_int_equal(c.failed_kind[CLAIM_SIZE], 1);
	assert_non_null(strstr(c.first, "ext4_iget"));
	f[1].size = 0x40;
	f[2].offset = 0x11; /* past the end */
	claims_check(NULL, 0, &ev, NULL, &c);
	assert_int_equal(c.failed_kind[CLAIM_SIZE], 1);
	assert_non_null(strstr(c.first, "ext4_write_begin"));
}

static void test_size_variants(void **state)
{
	/* the frames hold "iput" for iput.part.0: another symbol */
	static const char text[] =
		" iput.part.0+0x104/0x130\n iput+0x24/0x40\n";
	struct frame f[] = {
		fr("iput", 0x104, 0x130, NULL),
		fr("iput", 0x24, 0x40, NULL),
	};
	struct evidence ev;
	struct claims c;

	(void)state;
	memset(&ev, 0, sizeof(ev));
	ev.frames = f;
	ev.nframes = ARRAY_SIZE(f);
	claims_check(text, strlen(text), &ev, NULL, &c);
	assert_int_equal(c.checks_kind[CLAIM_SIZE], 1);
	assert_int_equal(c.failed, 0);
	claims_check(" iput+0x104/0x130\n iput+0x24/0x40\n", 34, &ev, NULL, &c);
	assert_int_equal(c.failed_kind[CLAIM_SIZE], 1);
}

static void test_frame_files(void **state)
{
	struct frame f[] = {
		fr("ext4_iget", 0, 0, "fs/ext4/inode.c"),
		fr("ext4_write_begin", 0, 0, "/build/linux/fs/ext4/inode.c"),
		fr("list_add", 0, 0, "include/linux/list.h"),	 /* header */
		fr("ext4_fill_super", 0, 0, "fs/ext4/inode.c"),	 /* wrong */
		fr("no_such_function", 0, 0, "fs/ext4/inode.c"), /* unknown */
	};
	struct evidence ev;
	struct claims c;

	(void)state;
	memset(&ev, 0, sizeof(ev));
	ev.frames = f;
	ev.nframes = ARRAY_SIZE(f);
	claims_check("", 0, &ev, syms, &c);
	assert_int_equal(c.checks_kind[CLAIM_FILE], 3);
	assert_int_equal(c.failed_kind[CLAIM_FILE], 1);
	assert_string_equal(
		c.first, "ext4_fill_super is not defined in fs/ext4/inode.c");
	f[3].from_index = true; /* a file the index gave: nothing claimed */
	claims_check("", 0, &ev, syms, &c);
	assert_int_equal(c.checks_kind[CLAIM_FILE], 2);
	assert_int_equal(c.failed_kind[CLAIM_FILE], 0);
	/* these frames are no call chain: each caller calls nothing */
	assert_int_equal(c.checks_kind[CLAIM_CALLS], 3);
	assert_int_equal(c.failed_kind[CLAIM_CALLS], 3);
	assert_int_equal(c.failed, 3);
}

static void test_lines(void **state)
{
	struct frame f[] = {
		fr("ext4_lookup", 0, 0, "fs/ext4/namei.c"),
		fr("ext4_unlink", 0, 0, "fs/ext4/namei.c"),
		fr("ext4_helper", 0, 0, "fs/ext4/inode.c"), /* not its file */
		fr("no_such_function", 0, 0, "fs/ext4/namei.c"),
	};
	struct evidence ev;
	struct claims c;

	(void)state;
	memset(&ev, 0, sizeof(ev));
	ev.frames = f;
	ev.nframes = ARRAY_SIZE(f);
	f[0].line = 7;
	f[1].line = 16;
	f[2].line = 1;
	f[3].line = 1;
	claims_check(NULL, 0, &ev, syms, &c);
	assert_int_equal(c.checks_kind[CLAIM_LINE], 2);
	assert_int_equal(c.failed_kind[CLAIM_LINE], 0);
	/* versions move lines: 200 lines past the body pass, 201 not */
	f[0].line = 9 + 200;
	f[1].line = 17 + 201;
	claims_check(NULL, 0, &ev, syms, &c);
	assert_int_equal(c.checks_kind[CLAIM_LINE], 2);
	assert_int_equal(c.failed_kind[CLAIM_LINE], 1);
	assert_string_equal(c.first, "frame ext4_unlink: fs/ext4/namei.c:218 "
				     "is not in it (lines 15-17 of the tree "
				     "indexed)");
	/* further down a file, 30% of the line number (ext4_far: lines
	 * 1203-1204): 1000 + 300 reaches it, 900 + 270 does not */
	f[0] = fr("ext4_far", 0, 0, "fs/ext4/far.c");
	f[0].line = 1000;
	f[1].line = 16;
	claims_check(NULL, 0, &ev, syms, &c);
	assert_int_equal(c.checks_kind[CLAIM_LINE], 2);
	assert_int_equal(c.failed_kind[CLAIM_LINE], 0);
	f[0].line = 900;
	claims_check(NULL, 0, &ev, syms, &c);
	assert_int_equal(c.failed_kind[CLAIM_LINE], 1);
	assert_non_null(strstr(c.first, "ext4_far"));
	/* "? " frames claim nothing */
	f[0].unreliable = true;
	claims_check(NULL, 0, &ev, syms, &c);
	assert_int_equal(c.checks_kind[CLAIM_LINE], 1);
	assert_int_equal(c.failed_kind[CLAIM_LINE], 0);
}

static void test_calls(void **state)
{
	struct frame f[] = {
		fr("ext4_iget", 0, 0, NULL),
		fr("ext4_lookup", 0, 0, NULL), /* calls ext4_iget */
		fr("ext4_rename", 0, 0, NULL), /* ... through nothing seen */
		fr("ext4_unlink", 0, 0, NULL), /* calls ext4_helper only */
		fr("ext4_create", 0, 0, NULL), /* o->fn(): cannot tell */
		fr("entry_SYSCALL_64", 0, 0, NULL),
	};
	struct evidence ev;
	struct claims c;

	(void)state;
	memset(&ev, 0, sizeof(ev));
	ev.frames = f;
	ev.nframes = ARRAY_SIZE(f);
	claims_check(NULL, 0, &ev, syms, &c);
	/* iget<-lookup, lookup<-rename, rename<-unlink */
	assert_int_equal(c.checks_kind[CLAIM_CALLS], 3);
	assert_int_equal(c.failed_kind[CLAIM_CALLS], 1);
	assert_string_equal(c.first, "frame ext4_rename: ext4_unlink does not "
				     "call it in the tree indexed");
	/* through a function that left no frame (inlined) */
	f[1].function = (char *)"ext4_rename";
	f[2].function = (char *)"ext4_iget";
	claims_check(NULL, 0, &ev, syms, &c);
	assert_int_equal(c.failed_kind[CLAIM_CALLS], 2);
	/* "? " frames are skipped, and so is a frame's recursion */
	f[0].function = (char *)"ext4_iget";
	f[1].function = (char *)"ext4_lookup";
	f[2].function = (char *)"ext4_rename";
	f[3].unreliable = true;
	claims_check(NULL, 0, &ev, syms, &c);
	assert_int_equal(c.checks_kind[CLAIM_CALLS], 2);
	assert_int_equal(c.failed_kind[CLAIM_CALLS], 0);
	/* without an index: nothing */
	claims_check(NULL, 0, &ev, NULL, &c);
	assert_int_equal(c.checks_kind[CLAIM_CALLS], 0);
	/* where an interrupt comes in, and a tracepoint's probe: unseen
	 * calls (each caller here calls nothing) */
	f[1].function = (char *)"ext4_unlock_irqrestore";
	f[2].function = (char *)"perf_trace_ext4";
	f[3].function = (char *)"ext4_lookup";
	f[3].unreliable = false;
	ev.nframes = 4;
	claims_check(NULL, 0, &ev, syms, &c);
	assert_int_equal(c.checks_kind[CLAIM_CALLS], 0);
	f[1].function = (char *)"ext4_helper";
	claims_check(NULL, 0, &ev, syms, &c);
	assert_int_equal(c.checks_kind[CLAIM_CALLS], 1);
	assert_int_equal(c.failed_kind[CLAIM_CALLS], 1);
}

/*
 * a report of linux-next or net-next, or of a newer kernel: the tree is
 * older than its code, so its calls and names missing from the tree are
 * not counted as false; a frame's size still is
 */
static void test_dev_tree(void **state)
{
	struct frame f[] = {
		fr("ext4_rename", 0, 0, NULL),
		fr("ext4_unlink", 0x10, 0x40,
		   NULL), /* calls ext4_helper only */
	};
	static const char next[] = "Seen on net-next, ext4_fast_rename() "
				   "looks wrong (CONFIG_EXT4_FAST).\n";
	static const char plain[] = "Seen on 6.12, ext4_fast_rename() "
				    "looks wrong.\n";
	static const char tag[] = "Kernel: next-20250110 (x86_64)\n";
	static const char notag[] = "the next-2025 plan and context-next\n";
	struct evidence ev;
	struct claims c;

	(void)state;
	memset(&ev, 0, sizeof(ev));
	ev.frames = f;
	ev.nframes = ARRAY_SIZE(f);
	claims_check(plain, strlen(plain), &ev, syms, &c);
	assert_int_equal(c.failed_kind[CLAIM_CALLS], 1);
	assert_int_equal(c.failed_kind[CLAIM_EXISTS], 1);
	assert_false(claims_dev_tree(&ev, syms, plain, strlen(plain)));
	/* the text names a development tree */
	assert_true(claims_dev_tree(&ev, syms, next, strlen(next)));
	claims_check(next, strlen(next), &ev, syms, &c);
	assert_int_equal(c.checks_kind[CLAIM_CALLS], 0);
	assert_int_equal(c.checks_kind[CLAIM_EXISTS], 0);
	assert_int_equal(c.checks_kind[CLAIM_SIZE], 1);
	assert_int_equal(c.checks_kind[CLAIM_KCONFIG], 0);
	assert_true(c.newer >= 2);
	assert_true(claims_dev_tree(&ev, syms, tag, strlen(tag)));
	assert_false(claims_dev_tree(&ev, syms, notag, strlen(notag)));
	assert_false(claims_dev_tree(&ev, NULL, next, strlen(next)));
	/* linux-next's version string: also without the text, as the
	 * rules' unknown_functions() asks claims_version_drift() */
	ev.kernel_version = (char *)"6.12.0-rc3-next-20241010";
	assert_true(claims_dev_tree(&ev, syms, NULL, 0));
	assert_true(claims_version_drift(&ev, syms, 0));
	claims_check(plain, strlen(plain), &ev, syms, &c);
	assert_int_equal(c.checks_kind[CLAIM_CALLS], 0);
	assert_int_equal(c.checks_kind[CLAIM_EXISTS], 0);
	ev.kernel_version = (char *)"6.12.0-rc3-nextgen";
	assert_false(claims_dev_tree(&ev, syms, NULL, 0));
	assert_false(claims_version_drift(&ev, syms, 0));
	/* a newer release: its calls are not checked either */
	ev.kernel_version = (char *)"6.14.0";
	claims_check(NULL, 0, &ev, syms, &c);
	assert_int_equal(c.checks_kind[CLAIM_CALLS], 0);
	ev.kernel_version = (char *)"6.12.9";
	claims_check(NULL, 0, &ev, syms, &c);
	assert_int_equal(c.failed_kind[CLAIM_CALLS], 1);
}

static void test_prose(void **state)
{
	static const char text[] =
		"The bug is in ext4_iget() in fs/ext4/super.c, called from\n"
		"ext4_fill_super() (fs/ext4/super.c:1234) and from\n"
		"ext4_made_up_helper() at fs/ext4/inode.c.\n";
	struct claims c;

	(void)state;
	claims_check(text, strlen(text), NULL, syms, &c);
	assert_int_equal(c.checks_kind[CLAIM_EXISTS], 3);
	assert_int_equal(c.failed_kind[CLAIM_EXISTS], 1);
	assert_int_equal(c.checks_kind[CLAIM_FILE], 2);
	assert_int_equal(c.failed_kind[CLAIM_FILE], 1);
	assert_string_equal(c.first,
			    "ext4_iget() is not defined in fs/ext4/super.c");
}

static void test_kconfig(void **state)
{
	static const char text[] =
		"CONFIG_EXT4_FS=y\nCONFIG_EXT4_DEBUG=y\n# CONFIG_USB is not set\n"
		"CONFIG_EXT4_FS_MODULE and CONFIG_EXT4_FS again, "
		"XCONFIG_IGNORED, CONFIG_Mixed_case,\n"
		"CONFIG_EXT4_STRICT_HARDENING=y, CONFIG_NOT_AN_OPTION=y\n";
	struct claims c;

	(void)state;
	claims_check(text, strlen(text), NULL, syms, &c);
	assert_int_equal(c.checks_kind[CLAIM_KCONFIG], 6);
	assert_int_equal(c.failed_kind[CLAIM_KCONFIG], 2);
	assert_string_equal(
		c.first,
		"CONFIG_EXT4_STRICT_HARDENING is declared by no Kconfig file");
	claims_check(text, strlen(text), NULL, NULL, &c);
	assert_int_equal(c.checks, 0); /* no index: nothing to check it on */
}

static void test_kconfig_dump(void **state)
{
	struct strbuf sb = STRBUF_INIT(1 << 16);
	struct claims c;
	int i;

	(void)state;
	/* a pasted .config of another version: 13 options, not cited ones */
	sb_adds(&sb, "CONFIG_EXT4_FS=y\n");
	for (i = 0; i < 12; i++)
		sb_addf(&sb, "CONFIG_NEWER_OPTION_%d=y\n", i);
	claims_check(sb_str(&sb), sb.len, NULL, syms, &c);
	assert_int_equal(c.checks_kind[CLAIM_KCONFIG], 0);
	sb_reset(&sb);
	/* 12 are cited, and checked */
	sb_adds(&sb, "CONFIG_EXT4_FS=y\n");
	for (i = 0; i < 11; i++)
		sb_addf(&sb, "CONFIG_NEWER_OPTION_%d=y\n", i);
	claims_check(sb_str(&sb), sb.len, NULL, syms, &c);
	assert_int_equal(c.checks_kind[CLAIM_KCONFIG], 12);
	assert_int_equal(c.failed_kind[CLAIM_KCONFIG], 11);
	sb_release(&sb);
}

static void test_tree(void **state)
{
	int fd;

	(void)state;
	assert_int_equal(symbols_tree_version(syms), SYMBOLS_VERSION(6, 12, 3));
	assert_non_null(symbols_tree(syms));
	fd = symbols_tree_open(syms, "fs/ext4/namei.c");
	assert_true(fd >= 0);
	close(fd);
	/* never out of the tree, nor through a link, nor a directory */
	assert_int_equal(symbols_tree_open(syms, "fs/etc/passwd"), -1);
	assert_int_equal(symbols_tree_open(syms, "fs/../fs/ext4/namei.c"), -1);
	assert_int_equal(symbols_tree_open(syms, "/etc/passwd"), -1);
	assert_int_equal(symbols_tree_open(syms, "fs/./ext4/namei.c"), -1);
	assert_int_equal(symbols_tree_open(syms, "fs/ext4"), -1);
	assert_int_equal(symbols_tree_open(syms, "fs//ext4/namei.c"), -1);
	assert_int_equal(symbols_tree_open(syms, "fs/ext4/none.c"), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(symbols_tree_open(NULL, "fs/ext4/namei.c"), -1);
}

static void test_new_family(void **state)
{
	/* a developer's report of a driver newer than the tree */
	static const char text[] =
		"macsmc_hwmon_write_f32() is inlined into "
		"macsmc_hwmon_write_key(); ext4_fake_helper() is invented "
		"and ext4_iget() is real\n";
	struct claims c;

	(void)state;
	assert_true(symbols_has_prefix(syms, "ext4_", 5));
	assert_true(symbols_has_prefix(syms, "ext4_lo", 7));
	assert_false(symbols_has_prefix(syms, "ext4_lookup", 11));
	assert_false(symbols_has_prefix(syms, "macsmc_", 7));
	assert_false(symbols_has_prefix(syms, "zzz_", 4));
	assert_int_equal(claims_name_status(syms, "ext4_iget", 9, false), 1);
	assert_int_equal(claims_name_status(syms, "_ext4_iget", 10, false), -1);
	assert_int_equal(
		claims_name_status(syms, "macsmc_hwmon_read", 17, false), -2);
	assert_int_equal(
		claims_name_status(syms, "__macsmc_hwmon_read", 19, false), -2);
	/* a known family: an invention still fails */
	assert_int_equal(
		claims_name_status(syms, "ext4_fake_helper", 16, false), 0);
	assert_int_equal(claims_name_status(syms, "ext4_fake_helper", 16, true),
			 -2);
	/* a short first word: the family is two words */
	assert_int_equal(claims_name_status(syms, "ex_fake_helper", 14, false),
			 -2);
	claims_check(text, strlen(text), NULL, syms, &c);
	assert_int_equal(c.checks_kind[CLAIM_EXISTS], 2);
	assert_int_equal(c.failed_kind[CLAIM_EXISTS], 1);
	assert_int_equal(c.newer, 2);
	assert_int_equal(c.tree_version, SYMBOLS_VERSION(6, 12, 3));
}

static void test_tree_older(void **state)
{
	char *files[] = { (char *)"fs/ext4/inode.c",
			  (char *)"drivers/hwmon/macsmc-hwmon.c" };
	static const char text[] = "ext4_hwmon_read() in "
				   "drivers/hwmon/macsmc-hwmon.c\n";
	struct evidence ev;
	struct claims c;

	(void)state;
	memset(&ev, 0, sizeof(ev));
	ev.kernel_version = (char *)"6.19.0-rc5";
	ev.text_files = files;
	ev.ntext_files = 1;
	/* every file it cites is in the tree */
	assert_false(claims_tree_older(&ev, syms));
	ev.ntext_files = 2;
	assert_true(claims_tree_older(&ev, syms));
	claims_check(text, strlen(text), &ev, syms, &c);
	assert_int_equal(c.checks_kind[CLAIM_EXISTS], 0);
	assert_int_equal(c.newer, 1);
	/* the tree's own version or an older one: the file is invented */
	ev.kernel_version = (char *)"6.12.9";
	assert_false(claims_tree_older(&ev, syms));
	ev.kernel_version = (char *)"5.15.0";
	assert_false(claims_tree_older(&ev, syms));
	ev.kernel_version = NULL;
	assert_false(claims_tree_older(&ev, syms));
	claims_check(text, strlen(text), &ev, syms, &c);
	assert_int_equal(c.failed_kind[CLAIM_EXISTS], 1);
	assert_false(claims_tree_older(NULL, syms));
	assert_false(claims_tree_older(&ev, NULL));
}

static void test_version_drift(void **state)
{
	static const char text[] = "dev->ops->hw_reset() and .card_busy() "
				   "hooks, BUG_ON() and poc_setup() of\n"
				   "static void poc_setup(int fd)\n{\n}\n"
				   "and poc_open() called: poc_open(fd);\n";
	const char *p;
	struct evidence ev;

	(void)state;
	memset(&ev, 0, sizeof(ev));
	/* the tree is 6.12.3 */
	assert_false(claims_version_drift(&ev, syms, 0));
	ev.kernel_version = (char *)"6.12.9";
	assert_false(claims_version_drift(&ev, syms, 0));
	ev.kernel_version = (char *)"6.10.0-rc1";
	assert_false(claims_version_drift(&ev, syms, 0));
	ev.kernel_version = (char *)"6.9.0";
	assert_true(claims_version_drift(&ev, syms, 0));
	ev.kernel_version = (char *)"5.7.0-rc5+";
	assert_true(claims_version_drift(&ev, syms, 0));
	ev.kernel_version = (char *)"4.19.142";
	assert_true(claims_version_drift(&ev, syms, 0));
	ev.kernel_version = (char *)"6.13.0";
	assert_true(claims_version_drift(&ev, syms, 0));
	/* a stated version wins over the Date */
	ev.kernel_version = (char *)"6.12.9";
	assert_false(claims_version_drift(&ev, syms, 1262304000));
	ev.kernel_version = NULL;
	assert_true(claims_version_drift(&ev, syms, 1262304000));  /* 2010 */
	assert_true(claims_version_drift(&ev, syms, 1672531200));  /* 2023 */
	assert_false(claims_version_drift(&ev, syms, 1717200000)); /* 2024-06 */
	assert_false(claims_version_drift(&ev, syms, 1767225600)); /* 2026 */
	assert_false(claims_version_drift(NULL, syms, 0));
	assert_false(claims_version_drift(&ev, NULL, 1262304000));

	/* what a report names but does not claim of the tree */
	p = strstr(text, "hw_reset");
	assert_false(claims_name_cited(text, strlen(text), p, 8));
	p = strstr(text, "card_busy");
	assert_false(claims_name_cited(text, strlen(text), p, 9));
	p = strstr(text, "BUG_ON");
	assert_false(claims_name_cited(text, strlen(text), p, 6));
	p = strstr(text, "poc_setup");
	assert_false(claims_name_cited(text, strlen(text), p, 9));
	p = strstr(text, "poc_open");
	assert_true(claims_name_cited(text, strlen(text), p, 8));

	assert_true(claims_near_miss("aa_create_fs", 12, "aa_create_aafs", 14));
	assert_true(claims_near_miss("ext4_iget_x", 11, "ext4_iget", 9));
	assert_false(claims_near_miss("ext4_iget_xyz", 13, "ext4_iget", 9));
	assert_false(claims_near_miss("abc_defg", 8, "xyz_defg", 8));
	assert_false(claims_near_miss("ab_cd", 5, "ab_ce", 5)); /* too short */
}

static void test_quotes(void **state)
{
	static const char text[] =
		"In fs/ext4/namei.c:\n"
		"\n"
		"        int y = ext4_helper(x);\n"
		"        return ext4_iget(y) != 0;\n"
		"\n"
		"and `ext4_unlink` reads:\n"
		"\n"
		"```c\n"
		"int z = ext4_unlink_fast(x);   // no such line\n"
		"return z ? ext4_helper(z) : -EINVAL;\n"
		"```\n"
		"The fix should be:\n"
		"```c\n"
		"if (!x) return -EINVAL;\n"
		"```\n"
		"ext4_lookup() in fs/ext4/namei.c, a patch:\n"
		"```\n"
		"@@ -1,3 +1,3 @@\n"
		"-\treturn x + 1;\n"
		"+\treturn x + 2;\n"
		"```\n"
		"ext4_lookup() printed:\n"
		"```\n"
		"[    1.234] EXT4-fs error: ext4_lookup:12: bad entry;\n"
		"```\n"
		"In ../fs/ext4/namei.c:\n"
		"\tint made_up_line = 1;\n"
		"In fs/etc/passwd.h:\n"
		"\tint made_up_line = 1;\n"
		"Of fs/ext4/inode.c. What ops->ext4_unlink() does:\n"
		"\tint made_up_line = 1;\n"
		"In ext4_lookup():\n"
		"\text4_rename()\n"
		"\t  -> ext4_unlink()\n"
		"\t    -> ext4_iget()\n";
	struct evidence ev;
	struct claims c;

	(void)state;
	claims_check(text, strlen(text), NULL, syms, &c);
	/* the first quote holds, the second is not in ext4_unlink's file;
	 * a proposal, a patch, a log, paths out of the tree, a member
	 * (ops->ext4_unlink()), what an earlier sentence names and a call
	 * chain drawn are not quotes checked */
	assert_int_equal(c.checks_kind[CLAIM_QUOTE], 2);
	assert_int_equal(c.failed_kind[CLAIM_QUOTE], 1);
	assert_string_equal(c.first,
			    "the code quoted from fs/ext4/namei.c (2 lines) is "
			    "in no line of it in the tree indexed");
	/* a newer kernel's report may quote newer code */
	memset(&ev, 0, sizeof(ev));
	ev.kernel_version = (char *)"7.1.0";
	claims_check(text, strlen(text), &ev, syms, &c);
	assert_int_equal(c.checks_kind[CLAIM_QUOTE], 1);
	assert_int_equal(c.failed_kind[CLAIM_QUOTE], 0);
	assert_int_equal(c.newer, 1);
	/* without an index: nothing */
	claims_check(text, strlen(text), NULL, NULL, &c);
	assert_int_equal(c.checks_kind[CLAIM_QUOTE], 0);
}

static void test_facts(void **state)
{
	static const char text[] =
		"sysctl -w vm.swappiness=10 and sysctl vm.made_up_knob=1,\n"
		"echo 1 > /proc/sys/vm/swappiness, /proc/sys/fs/binfmt_misc/x\n"
		"sudo modprobe -v usbcore autosuspend=-1 fake=1\n"
		"options btusb reset=1 dyndbg=+p\n"
		"Command line: ro quiet usbcore.nope=2 nvidia.modeset=1 "
		"vm.swappiness=3\n"
		"cat /sys/module/btusb/parameters/reset\n"
		"The KVM_RUN ioctl, then ioctl(fd, KVM_MADE_UP, 0) and the ioctl "
		"TCGETS; a USB ioctl.\n";
	char *files[] = { (char *)"drivers/none/new.c" };
	struct evidence ev;
	struct claims c;

	(void)state;
	claims_check(text, strlen(text), NULL, syms, &c);
	assert_int_equal(c.checks_kind[CLAIM_SYSCTL], 2);
	assert_int_equal(c.failed_kind[CLAIM_SYSCTL], 1);
	assert_string_equal(c.first,
			    "sysctl made_up_knob is not in the tree indexed");
	/* usbcore.autosuspend, usbcore.fake, btusb.reset; every module
	 * has dyndbg; a command line's "mod.key=" (C reads alike) and
	 * nvidia, no module of the tree, are not checked */
	assert_int_equal(c.checks_kind[CLAIM_PARAM], 3);
	assert_int_equal(c.failed_kind[CLAIM_PARAM], 1);
	assert_int_equal(c.checks_kind[CLAIM_IOCTL], 3);
	assert_int_equal(c.failed_kind[CLAIM_IOCTL], 1);
	/* parameters suggested for the kernel's command line, not C, a
	 * cgroup file or a command line shown */
	claims_check("Boot with usbcore.autosuspend=-1 or btusb.made_up=1.\n"
		     "memory.max=1G\nusbcore.x=&y;\n\tusbcore.z=f(x);\n",
		     98, NULL, syms, &c);
	assert_int_equal(c.checks_kind[CLAIM_PARAM], 2);
	assert_int_equal(c.failed_kind[CLAIM_PARAM], 1);
	assert_string_equal(
		c.first,
		"module parameter btusb.made_up is not in the tree indexed");
	/* a newer kernel's report: what the tree lacks may be new */
	memset(&ev, 0, sizeof(ev));
	ev.kernel_version = (char *)"6.19.0";
	ev.text_files = files;
	ev.ntext_files = 1;
	claims_check(text, strlen(text), &ev, syms, &c);
	assert_int_equal(c.failed, 0);
	assert_int_equal(c.checks_kind[CLAIM_PARAM], 2);
	assert_int_equal(c.newer, 3);
	/* its version alone: each file it cites may be in the tree */
	ev.ntext_files = 0;
	claims_check(text, strlen(text), &ev, syms, &c);
	assert_int_equal(c.failed, 0);
	assert_int_equal(c.newer, 3);
	ev.kernel_version = (char *)"6.12.200";
	claims_check(text, strlen(text), &ev, syms, &c);
	assert_int_equal(c.failed, 3);
}

static void test_weigh(void **state)
{
	struct claims c;

	(void)state;
	memset(&c, 0, sizeof(c));
	c.checks = c.checks_kind[CLAIM_SIZE] = 21;
	c.failed = c.failed_kind[CLAIM_SIZE] = 1;
	/* one typo among a real log's 21 true frames weighs nothing */
	assert_false(claims_weigh(&c, 1, 1, 0.05));
	c.checks = c.checks_kind[CLAIM_SIZE] = 3;
	assert_true(claims_weigh(&c, 1, 1, 0.05));
	assert_false(claims_weigh(&c, 3, 2, 0.34));
	/* unknown names are weighed by unknown_functions(), not here */
	c.checks += 5;
	c.checks_kind[CLAIM_EXISTS] = 5;
	c.failed += 5;
	c.failed_kind[CLAIM_EXISTS] = 5;
	assert_false(claims_weigh(&c, 3, 2, 0.34));
	/* a trace's lines and calls are weighed apart (false_trace()) */
	c.checks += 4;
	c.checks_kind[CLAIM_LINE] = c.checks_kind[CLAIM_CALLS] = 2;
	c.failed += 2;
	c.failed_kind[CLAIM_LINE] = c.failed_kind[CLAIM_CALLS] = 1;
	assert_false(claims_weigh(&c, 3, 2, 0.34));
	assert_int_equal(claims_failed(&c, CLAIMS_FACTS), 1);
	assert_int_equal(claims_failed(&c, CLAIMS_TRACE), 2);
	assert_true(claims_weigh_kinds(&c, CLAIMS_TRACE, 3, 2, 0.5));
	assert_false(claims_weigh_kinds(&c, CLAIMS_TRACE, 5, 2, 0.5));
	assert_false(claims_weigh_kinds(&c, CLAIMS_TRACE, 3, 3, 0.5));
	assert_false(claims_weigh_kinds(&c, CLAIMS_TRACE, 3, 2, 0.6));
	assert_true(claims_kernel_style("ext4_iget", 9));
	assert_false(claims_kernel_style("kfree", 5));
	assert_false(claims_kernel_style("pthread_create", 14));
}

/* check_site - the claims of a text, its kernel version given */
static void check_site(const char *text, const char *version, struct claims *c)
{
	struct evidence ev;

	memset(&ev, 0, sizeof(ev));
	ev.kernel_version = (char *)version;
	claims_check(text, strlen(text), &ev, syms, c);
}

static void test_sites(void **state)
{
	struct claims c;

	(void)state;
	/* the site in the function named, or in one it calls (inlined) */
	check_site("[ 1.2] WARNING: CPU: 1 PID: 2 at fs/ext4/warn.c:67 "
		   "warn_outer+0x1/0x10\n",
		   "6.12.1", &c);
	assert_int_equal(c.checks_kind[CLAIM_SITE], 1);
	assert_int_equal(c.failed_kind[CLAIM_SITE], 0);
	check_site("WARNING: CPU: 1 PID: 2 at fs/ext4/warn.c:3 "
		   "warn_outer+0x1/0x10 [ext4]\n",
		   "6.12.1", &c);
	assert_int_equal(c.checks_kind[CLAIM_SITE], 1);
	assert_int_equal(c.failed_kind[CLAIM_SITE], 0);
	/* a function passed as a value may be inlined too */
	check_site("WARNING: CPU: 1 PID: 2 at fs/ext4/warn.c:195 "
		   "warn_register+0x1/0x10\n",
		   "6.12.1", &c);
	assert_int_equal(c.checks_kind[CLAIM_SITE], 1);
	assert_int_equal(c.failed_kind[CLAIM_SITE], 0);
	/* stable updates move lines: 40 past the body pass, 41 not */
	check_site("WARNING: CPU: 1 PID: 2 at fs/ext4/warn.c:108 "
		   "warn_outer+0x1/0x10\n",
		   "6.12.1", &c);
	assert_int_equal(c.failed_kind[CLAIM_SITE], 0);
	check_site("WARNING: CPU: 1 PID: 2 at fs/ext4/warn.c:109 "
		   "warn_outer+0x1/0x10\n",
		   "6.12.1", &c);
	assert_int_equal(c.checks_kind[CLAIM_SITE], 1);
	assert_int_equal(c.failed_kind[CLAIM_SITE], 1);
	/* in a function it does not call */
	check_site("WARNING: CPU: 1 PID: 2 at fs/ext4/warn.c:131 "
		   "warn_outer+0x1/0x10\n",
		   "6.12.1", &c);
	assert_int_equal(c.failed_kind[CLAIM_SITE], 1);
	assert_int_equal(claims_failed(&c, CLAIMS_FACTS), 1);
	assert_string_equal(c.first,
			    "fs/ext4/warn.c:131 (the report's warn_outer() "
			    "site): in or near warn_other(), which "
			    "warn_outer() does not reach within the file in "
			    "the tree indexed");
	/* "kernel BUG at": the function is RIP's */
	check_site("kernel BUG at fs/ext4/warn.c:131!\n"
		   "Oops: invalid opcode: 0000 [#1] SMP\n"
		   "RIP: 0010:warn_outer+0x5/0x10\n",
		   "6.12.1", &c);
	assert_int_equal(c.checks_kind[CLAIM_SITE], 1);
	assert_int_equal(c.failed_kind[CLAIM_SITE], 1);
	check_site("kernel BUG at fs/ext4/warn.c:3!\n"
		   "RIP: 0010:warn_outer+0x5/0x10\n",
		   "6.12.1", &c);
	assert_int_equal(c.checks_kind[CLAIM_SITE], 1);
	assert_int_equal(c.failed_kind[CLAIM_SITE], 0);
	/* past the file's end */
	check_site("WARNING: CPU: 0 PID: 1 at fs/ext4/warn.c:7463 "
		   "warn_outer+0x1/0x10\n",
		   "6.12.1", &c);
	assert_int_equal(c.failed_kind[CLAIM_SITE], 1);
	assert_non_null(strstr(c.first, "past its end (200 lines)"));
	/* a function of another file cannot be inlined into it */
	check_site("WARNING: CPU: 0 PID: 1 at fs/ext4/warn.c:3 "
		   "ext4_iget+0x1/0x10\n",
		   "6.12.1", &c);
	assert_int_equal(c.failed_kind[CLAIM_SITE], 1);
	/* not checked: another release, no version, a header, an unknown
	 * function, the same site twice counts once */
	check_site("WARNING: CPU: 1 PID: 2 at fs/ext4/warn.c:131 "
		   "warn_outer+0x1/0x10\n",
		   "6.13.0", &c);
	assert_int_equal(c.checks_kind[CLAIM_SITE], 0);
	/* ... nor a vendor's build on the release's base ("6.12.0-55.el10",
	 * "6.12.0-31-generic"): its backports move lines by hundreds */
	check_site("WARNING: CPU: 1 PID: 2 at fs/ext4/warn.c:131 "
		   "warn_outer+0x1/0x10\n",
		   "6.12.0-55.el10_0.x86_64", &c);
	assert_int_equal(c.checks_kind[CLAIM_SITE], 0);
	check_site("WARNING: CPU: 1 PID: 2 at fs/ext4/warn.c:131 "
		   "warn_outer+0x1/0x10\n",
		   "6.12.0-31-generic", &c);
	assert_int_equal(c.checks_kind[CLAIM_SITE], 0);
	/* ... while an upstream release candidate is checked */
	check_site("WARNING: CPU: 1 PID: 2 at fs/ext4/warn.c:131 "
		   "warn_outer+0x1/0x10\n",
		   "6.12.0-rc3", &c);
	assert_int_equal(c.checks_kind[CLAIM_SITE], 1);
	check_site("WARNING: CPU: 1 PID: 2 at fs/ext4/warn.c:131 "
		   "warn_outer+0x1/0x10\n",
		   NULL, &c);
	assert_int_equal(c.checks_kind[CLAIM_SITE], 0);
	check_site("WARNING: CPU: 1 PID: 2 at include/linux/list.h:900 "
		   "warn_outer+0x1/0x10\n",
		   "6.12.1", &c);
	assert_int_equal(c.checks_kind[CLAIM_SITE], 0);
	check_site("WARNING: CPU: 1 PID: 2 at fs/ext4/warn.c:131 "
		   "warn_nowhere+0x1/0x10\n",
		   "6.12.1", &c);
	assert_int_equal(c.checks_kind[CLAIM_SITE], 0);
	check_site("WARNING: CPU: 1 PID: 2 at fs/ext4/warn.c:131 "
		   "warn_outer+0x1/0x10\nWARNING: CPU: 1 PID: 2 at "
		   "fs/ext4/warn.c:131 warn_outer+0x1/0x10\n",
		   "6.12.1", &c);
	assert_int_equal(c.checks_kind[CLAIM_SITE], 1);
}

/* a file.c:LINE of the prose, checked against the functions named */
static void test_cited(void **state)
{
	struct claims c;

	(void)state;
	/* in the function named, or in one it reaches (inlined) */
	check_site("The warning comes from warn_outer() "
		   "(fs/ext4/warn.c:67).\n",
		   "6.12.1", &c);
	assert_int_equal(c.checks_kind[CLAIM_CITED], 1);
	assert_int_equal(c.failed_kind[CLAIM_CITED], 0);
	check_site("Looking at fs/ext4/warn.c:3, warn_outer() passes 1 to\n"
		   "the helper, which warns.\n",
		   "6.12.1", &c);
	assert_int_equal(c.checks_kind[CLAIM_CITED], 1);
	assert_int_equal(c.failed_kind[CLAIM_CITED], 0);
	/* in a function none of them reaches: false, and why */
	check_site("The bug: warn_outer() frees the buffer twice\n"
		   "(fs/ext4/warn.c:131), then returns.\n",
		   "6.12.1", &c);
	assert_int_equal(c.checks_kind[CLAIM_CITED], 1);
	assert_int_equal(c.failed_kind[CLAIM_CITED], 1);
	assert_int_equal(claims_failed(&c, CLAIMS_FACTS), 1);
	assert_string_equal(c.first,
			    "fs/ext4/warn.c:131 (cited beside warn_outer()): "
			    "in or near warn_other(), which warn_outer() does "
			    "not reach within the file in the tree indexed");
	/* a basename alone: the file the named function is defined in */
	check_site("warn_outer() calls ext4_iget() directly (warn.c:131)\n"
		   "before the inode is set up.\n",
		   "6.12.1", &c);
	assert_int_equal(c.checks_kind[CLAIM_CITED], 1);
	assert_int_equal(c.failed_kind[CLAIM_CITED], 1);
	assert_non_null(strstr(c.first, "warn.c:131 (cited beside"));
	/* past the file's end */
	check_site("See fs/ext4/warn.c:7463 in warn_outer().\n", "6.12.1", &c);
	assert_int_equal(c.failed_kind[CLAIM_CITED], 1);
	assert_non_null(strstr(c.first, "past its end (200 lines)"));
	/* not checked: another release, a vendor build, no version */
	check_site("warn_outer() is wrong (fs/ext4/warn.c:131).\n", "6.13.2",
		   &c);
	assert_int_equal(c.checks_kind[CLAIM_CITED], 0);
	check_site("warn_outer() is wrong (fs/ext4/warn.c:131).\n",
		   "6.12.0-55.el10_0.x86_64", &c);
	assert_int_equal(c.checks_kind[CLAIM_CITED], 0);
	check_site("warn_outer() is wrong (fs/ext4/warn.c:131).\n", NULL, &c);
	assert_int_equal(c.checks_kind[CLAIM_CITED], 0);
	/* ... no function of that file named in the sentence, none at all */
	check_site("ext4_iget() is wrong (fs/ext4/warn.c:131).\n", "6.12.1",
		   &c);
	assert_int_equal(c.checks_kind[CLAIM_CITED], 0);
	check_site("warn_outer() is fine.\nThe loop at fs/ext4/warn.c:131\n"
		   "is wrong.\n",
		   "6.12.1", &c);
	assert_int_equal(c.checks_kind[CLAIM_CITED], 0);
	/* ... a basename two named functions' files share */
	check_site("warn_outer() and misc_warn() race (warn.c:131).\n",
		   "6.12.1", &c);
	assert_int_equal(c.checks_kind[CLAIM_CITED], 0);
	/* ... a compiler's file:line:column, a quote, a diff, a frame */
	check_site("fs/ext4/warn.c:131:5: warning: unused in warn_outer()\n",
		   "6.12.1", &c);
	assert_int_equal(c.checks_kind[CLAIM_CITED], 0);
	check_site("> warn_outer() is wrong (fs/ext4/warn.c:131).\n", "6.12.1",
		   &c);
	assert_int_equal(c.checks_kind[CLAIM_CITED], 0);
	check_site("+\twarn_outer(); /* fs/ext4/warn.c:131 */\n", "6.12.1", &c);
	assert_int_equal(c.checks_kind[CLAIM_CITED], 0);
	check_site(" warn_outer+0x1/0x10 fs/ext4/warn.c:131 warn_outer()\n",
		   "6.12.1", &c);
	assert_int_equal(c.checks_kind[CLAIM_CITED], 0);
	/* the same citation twice counts once; a WARNING line is a site */
	check_site("warn_outer() (fs/ext4/warn.c:131) and again\n"
		   "warn_outer() (fs/ext4/warn.c:131).\n",
		   "6.12.1", &c);
	assert_int_equal(c.checks_kind[CLAIM_CITED], 1);
	check_site("WARNING: CPU: 1 PID: 2 at fs/ext4/warn.c:131 "
		   "warn_outer+0x1/0x10\n",
		   "6.12.1", &c);
	assert_int_equal(c.checks_kind[CLAIM_CITED], 0);
	assert_int_equal(c.checks_kind[CLAIM_SITE], 1);
}

/* unknown_functions(MIN, MIN_CHECKABLE, MIN_SHARE) of text */
static double unknown(const char *text, const char *min, const char *checkable,
		      const char *share)
{
	struct rules_input in = { NULL, NULL, NULL, syms, NULL, NULL };
	struct rules_text t = { text, text, strlen(text) };
	struct rules_args a = { 3, { min, checkable, share }, NULL };

	return classify_hook_unknown_functions(&in, &t, &a);
}

/*
 * unknown names weighed by the names the tree could judge: one slip
 * among many real names is not a report of invented ones
 */
static void test_unknown_share(void **state)
{
	static const char many[] =
		"ext4_iget() calls ext4_lookup(), ext4_create(), "
		"ext4_unlink() and ext4_rename(), then ext4_frobnicate().";
	static const char four[] =
		"ext4_iget() calls ext4_lookup(), ext4_create() and "
		"ext4_unlink(), then ext4_frobnicate().";
	static const char one[] = "ext4_iget() calls ext4_frobnicate().";
	static const char two[] = "ext4_iget() calls ext4_frobnicate() and "
				  "ext4_twiddle_bits().";
	static const char two_of_six[] =
		"ext4_iget() calls ext4_lookup(), ext4_create() and "
		"ext4_unlink(), then ext4_frobnicate() and "
		"ext4_twiddle_bits().";

	(void)state;
	/* any unknown name counts */
	assert_true(unknown(many, "1", "1", "0") == 1);
	/* more than one in five: not 1 of 6, nor 1 of 5; 1 of 4 is */
	assert_true(unknown(many, "1", "1", "0.21") == 0);
	assert_true(unknown(four, "1", "1", "0.21") == 0);
	assert_true(unknown(one, "1", "1", "0.21") == 1);
	assert_true(unknown(two_of_six, "1", "1", "0.21") == 2);
	/* mostly invented: 2 or more unknown, half or more of 2 or more */
	assert_true(unknown(one, "2", "2", "0.5") == 0);
	assert_true(unknown(two, "2", "2", "0.5") == 2);
	assert_true(unknown(two_of_six, "2", "2", "0.5") == 0);
	assert_true(unknown(two, "2", "4", "0.5") == 0);
	/* counted once a report: the rules that weigh them share the count */
	{
		struct claims_memo memo = { .done = false };
		struct rules_input in = { NULL, NULL, NULL, syms, &memo, NULL };
		struct rules_text t1 = { one, one, strlen(one) };
		struct rules_text t2 = { many, many, strlen(many) };
		struct rules_args a = { 3, { "1", "1", "0.21" }, NULL };

		assert_true(classify_hook_unknown_functions(&in, &t1, &a) == 1);
		assert_true(memo.names_done);
		assert_int_equal(memo.names_known, 1);
		assert_int_equal(memo.names_unknown, 1);
		assert_true(classify_hook_unknown_functions(&in, &t2, &a) == 1);
	}
}

/* util_read_fd(): the tree's files are read bounded, silently */
static void test_read_fd(void **state)
{
	char path[TREE_DIR_MAX + 32], *buf;
	size_t len = 0;
	int fd, pfd[2];

	(void)state;
	snprintf(path, sizeof(path), "%s/readfd.txt", tmpdir);
	write_text("readfd.txt", "0123456789");
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	buf = util_read_fd(fd, 10, &len);
	assert_non_null(buf);
	assert_int_equal(len, 10);
	assert_string_equal(buf, "0123456789");
	free(buf);
	/* max far over the size: read to the size, one byte probes the end */
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	buf = util_read_fd(fd, 1000, &len);
	assert_non_null(buf);
	assert_int_equal(len, 10);
	assert_string_equal(buf, "0123456789");
	free(buf);
	/* a regular file over max: refused before reading */
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	assert_null(util_read_fd(fd, 9, &len));
	close(fd);
	/* a pipe (no size known): bounded while reading */
	assert_int_equal(pipe(pfd), 0);
	assert_int_equal(write(pfd[1], "abcdef", 6), 6);
	close(pfd[1]);
	assert_null(util_read_fd(pfd[0], 5, &len));
	close(pfd[0]);
	assert_int_equal(pipe(pfd), 0);
	assert_int_equal(write(pfd[1], "abcdef", 6), 6);
	close(pfd[1]);
	buf = util_read_fd(pfd[0], 6, &len);
	assert_non_null(buf);
	assert_int_equal(len, 6);
	assert_string_equal(buf, "abcdef");
	free(buf);
	close(pfd[0]);
	/* nothing to read, or no file */
	write_text("empty.txt", "");
	snprintf(path, sizeof(path), "%s/empty.txt", tmpdir);
	fd = open(path, O_RDONLY);
	assert_null(util_read_fd(fd, 10, &len));
	close(fd);
	assert_null(util_read_fd(-1, 10, &len));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_size_variants),
		cmocka_unit_test(test_frame_files),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_calls),
		cmocka_unit_test(test_dev_tree),
		cmocka_unit_test(test_prose),
		cmocka_unit_test(test_kconfig),
		cmocka_unit_test(test_kconfig_dump),
		cmocka_unit_test(test_tree),
		cmocka_unit_test(test_new_family),
		cmocka_unit_test(test_tree_older),
		cmocka_unit_test(test_version_drift),
		cmocka_unit_test(test_quotes),
		cmocka_unit_test(test_facts),
		cmocka_unit_test(test_weigh),
		cmocka_unit_test(test_sites),
		cmocka_unit_test(test_cited),
		cmocka_unit_test(test_unknown_share),
		cmocka_unit_test(test_read_fd),
	};

	msg_setup("test_claims", 1, false);
	return cmocka_run_group_tests(tests, setup, teardown);
}
