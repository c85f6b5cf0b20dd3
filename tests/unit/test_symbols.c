// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_symbols - the kernel symbol index: scanner, ranking, lookups,
 * a damaged index, and frame resolution
 *
 * The scanner is fed one text with every definition form it must find
 * and the decoys it must not take for definitions; a small fake kernel
 * tree made in /tmp exercises building, ranking and lookups.
 * symbols_resolve() calls evidence_finish(), which belongs to the
 * evidence stage: this program defines its own to count the calls.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evidence.h"
#include "strbuf.h"
#include "symbols.h"
#include "tree_scratch.h"
#include "util.h"

/* ---- the scanner ------------------------------------------------------ */

static const char forms[] =
	"/* int comment_decoy(void) { } */\n"
	"// int line_comment_decoy(void) {\n"
	"#include <linux/x.h>\n"
	"#define MACRO_DECOY(x) int macro_decoy(void) { return x; }\n"
	"#define LONG_DECOY \\\n"
	"\tint continued_decoy(void) { }\n"
	"static const char *s = \"int string_decoy(void) {\";\n"
	"static const char *t = \"\\\" int escaped_decoy(void) {\";\n"
	"static char c = '{';\n"
	"int prototype_decoy(int a);\n"
	"extern int extern_decoy(void) __attribute__((weak));\n"
	"static int table[] = { init_decoy(1), 2 };\n"
	"static struct ops ops = {\n"
	"\t.open = open_decoy,\n"
	"\t.fn = (int (*)(void))cast_decoy,\n"
	"};\n"
	"static int (*fnptr_decoy)(void) = NULL;\n"
	"DEFINE_MUTEX(mutex_decoy);\n"
	"EXPORT_SYMBOL(exported_plain);\n"
	"MODULE_LICENSE(\"GPL\");\n"
	"\n"
	"static int __init plain_init(void)\n"
	"{\n"
	"\tif (x) {\n"
	"\t\tcall_decoy();\n"
	"\t}\n"
	"\tfor (;;) { }\n"
	"\twhile (0) { }\n"
	"\tswitch (y) { case 1: { } }\n"
	"\treturn 0;\n"
	"}\n"
	"\n"
	"static unsigned long\n"
	"return_type_above(struct foo *f,\n"
	"\t\t  int multi,\n"
	"\t\t  long line)\n"
	"{\n"
	"\treturn 0;\n"
	"}\n"
	"\n"
	"int exported_plain(void)\n"
	"{\n"
	"\tchar *s = \"}\";\n"
	"\tchar c = '}';\n"
	"\t/* } */\n"
	"\t// }\n"
	"\treturn 0;\n"
	"}\n"
	"void __weak weak_fn(void) { }\n"
	"void __attribute__((weak)) weak_attr_fn(void) { }\n"
	"static void locked_fn(struct x *l) __releases(l) __acquires(l)\n"
	"{\n"
	"}\n"
	"__printf(2, 3) int printf_like(int level, const char *fmt, ...)\n"
	"{\n"
	"}\n"
	"void (*returns_fn_ptr(int sig))(int)\n"
	"{\n"
	"\treturn 0;\n"
	"}\n"
	"static const u16 (*returns_array_ptr(int n))[4]\n"
	"{\n"
	"}\n"
	"SYSCALL_DEFINE3(frob, int, a, int, b, int, c)\n"
	"{\n"
	"\treturn 0;\n"
	"}\n"
	"COMPAT_SYSCALL_DEFINE1(frob, int, a)\n"
	"{\n"
	"}\n"
	"SYSCALL_DEFINE0(nop)\n"
	"{\n"
	"}\n"
	"SYSCALL_DEFINE1(32_personality, unsigned long, p)\n"
	"{\n"
	"}\n"
	"BPF_CALL_2(bpf_frob, int, a, int, b)\n"
	"{\n"
	"}\n"
	"DEFINE_IDTENTRY_RAW(exc_frob)\n"
	"{\n"
	"}\n"
	"DEFINE_SHOW_ATTRIBUTE(frob_stats);\n"
	"module_platform_driver(frob_plat_driver);\n"
	"module_usb_serial_driver(frob_serial_drivers, frob_ids);\n"
	"builtin_platform_driver_probe(frob_early_driver, frob_probe);\n"
	"module_param(frob_debug, int, 0644);\n"
	"module_platform_driver(frob_a + frob_b);\n"
	"TRACE_EVENT(frob_event, TP_PROTO(int a), TP_ARGS(a));\n"
	"UNKNOWN_MACRO(unknown_macro_arg)\n"
	"{\n"
	"}\n"
	"#if 0\n"
	"int if0_decoy(void) { }\n"
	"#else\n"
	"int if0_else_real(void) { }\n"
	"#endif\n"
	"#ifdef __cplusplus\n"
	"extern \"C\" {\n"
	"#endif\n"
	"#ifdef CONFIG_A\n"
	"int cond_fn(int a) {\n"
	"#else\n"
	"int cond_fn(int a, int b) {\n"
	"#endif\n"
	"\treturn 0;\n"
	"}\n"
	"int after_cond(void)\n"
	"{\n"
	"}\n"
	"struct s { int (*member_decoy)(void); };\n"
	"typedef int (*typedef_decoy)(void);\n"
	"int CAPS_FN(struct inode *inode)\n"
	"{\n"
	"}\n"
	"static void annotated(void *v)\n"
	"\t__dm_written_to_disk(v)\n"
	"{\n"
	"}\n"
	"static inline int header_style(void) { return 1; }\n"
	"define_machine(pseries) {\n"
	"\t.name = \"pSeries\",\n"
	"};\n"
	"static struct s tbl = STRUCT_INIT(tbl) { [0] = 1 };\n"
	"lower_macro(word_a, word_b)\n"
	"{\n"
	"}\n"
	"validate_flush(VALIDATE_ARGS)\n"
	"{\n"
	"}\n"
	"#ifdef __cplusplus\n"
	"}\n"
	"#endif\n"
	"int last_one(void) { }\n";

struct found {
	char name[64];
	unsigned flags, line;
};

struct scan_result {
	struct found v[128];
	size_t n;
};

static void collect(void *arg, const char *name, size_t len, unsigned flags,
		    unsigned line)
{
	struct scan_result *r = arg;

	assert_true(r->n < ARRAY_SIZE(r->v));
	assert_true(len < sizeof(r->v[0].name));
	memcpy(r->v[r->n].name, name, len);
	r->v[r->n].name[len] = '\0';
	r->v[r->n].flags = flags;
	r->v[r->n].line = line;
	r->n++;
}

static const struct found *lookup_found(const struct scan_result *r,
					const char *name)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (strcmp(r->v[i].name, name) == 0)
			return &r->v[i];
	return NULL;
}

/* line_of - the line on which text first contains needle */
static unsigned line_of(const char *text, const char *needle)
{
	const char *p = strstr(text, needle), *q;
	unsigned line = 1;

	assert_non_null(p);
	for (q = text; q < p; q++)
		line += *q == '\n';
	return line;
}

/* the lookup tests run on both ways of opening an index */
static struct symbols *(*open_index)(const char *path) = symbols_open;

static void test_scan_forms(void **state)
{
	static const char *const defined[] = {
		"plain_init",
		"return_type_above",
		"exported_plain",
		"weak_fn",
		"weak_attr_fn",
		"locked_fn",
		"printf_like",
		"returns_fn_ptr",
		"returns_array_ptr",
		"sys_frob",
		"__do_sys_frob",
		"__se_sys_frob",
		"__x64_sys_frob",
		"__ia32_sys_frob",
		"__arm64_sys_frob",
		"compat_sys_frob",
		"__do_compat_sys_frob",
		"__x64_sys_nop",
		"__x64_sys_32_personality",
		"bpf_frob",
		"____bpf_frob",
		"exc_frob",
		"frob_stats_open",
		"frob_plat_driver_init",
		"frob_plat_driver_exit",
		"frob_serial_drivers_init",
		"frob_early_driver_init",
		"trace_frob_event",
		"trace_event_raw_event_frob_event",
		"if0_else_real",
		"cond_fn",
		"after_cond",
		"CAPS_FN",
		"annotated",
		"header_style",
		"validate_flush",
		"last_one",
	};
	static const char *const decoys[] = {
		"comment_decoy",
		"line_comment_decoy",
		"macro_decoy",
		"continued_decoy",
		"string_decoy",
		"escaped_decoy",
		"prototype_decoy",
		"extern_decoy",
		"init_decoy",
		"open_decoy",
		"cast_decoy",
		"fnptr_decoy",
		"mutex_decoy",
		"call_decoy",
		"if0_decoy",
		"member_decoy",
		"typedef_decoy",
		"unknown_macro_arg",
		"UNKNOWN_MACRO",
		"SYSCALL_DEFINE3",
		"SYSCALL_DEFINE1",
		"BPF_CALL_2",
		"DEFINE_MUTEX",
		"DEFINE_SHOW_ATTRIBUTE",
		"EXPORT_SYMBOL",
		"MODULE_LICENSE",
		"TRACE_EVENT",
		"if",
		"for",
		"while",
		"switch",
		"__releases",
		"__acquires",
		"__printf",
		"__dm_written_to_disk",
		"__attribute__",
		"define_machine",
		"STRUCT_INIT",
		"lower_macro",
		"x",
		/* a driver's macro makes no _exit when built in, and a
		 * module's parameter or an expression defines nothing */
		"frob_early_driver_exit",
		"frob_debug_init",
		"frob_a_init",
		"frob_b_init",
		"module_platform_driver",
		"module_param",
	};
	struct scan_result *r = xcalloc(1, sizeof(*r));
	const struct found *f;
	size_t i, n;

	n = symbols_scan(forms, strlen(forms), collect, r);
	assert_int_equal(n, r->n);
	for (i = 0; i < ARRAY_SIZE(defined); i++) {
		if (!lookup_found(r, defined[i]))
			fail_msg("definition not found: %s", defined[i]);
	}
	for (i = 0; i < ARRAY_SIZE(decoys); i++) {
		if (lookup_found(r, decoys[i]))
			fail_msg("decoy taken for a definition: %s", decoys[i]);
	}

	/* flags */
	f = lookup_found(r, "plain_init");
	assert_int_equal(f->flags, SYM_STATIC);
	f = lookup_found(r, "exported_plain");
	assert_int_equal(f->flags, 0);
	f = lookup_found(r, "weak_fn");
	assert_int_equal(f->flags, SYM_WEAK);
	f = lookup_found(r, "weak_attr_fn");
	assert_int_equal(f->flags, SYM_WEAK);
	f = lookup_found(r, "__x64_sys_frob");
	assert_int_equal(f->flags, SYM_MACRO);
	f = lookup_found(r, "frob_stats_open");
	assert_int_equal(f->flags, SYM_MACRO | SYM_STATIC);

	/* the line of the name, also when the return type is above it */
	f = lookup_found(r, "plain_init");
	assert_int_equal(f->line, line_of(forms, "plain_init(void)"));
	f = lookup_found(r, "return_type_above");
	assert_int_equal(f->line, line_of(forms, "return_type_above("));
	f = lookup_found(r, "sys_frob");
	assert_int_equal(f->line, line_of(forms, "SYSCALL_DEFINE3(frob"));
	f = lookup_found(r, "last_one");
	assert_int_equal(f->line, line_of(forms, "int last_one"));

	/* both branches of #ifdef/#else are definitions of one function */
	for (i = 0, n = 0; i < r->n; i++)
		n += strcmp(r->v[i].name, "cond_fn") == 0;
	assert_int_equal(n, 2);
	free(r);
}

static void test_scan_unbalanced_input(void **state)
{
	/* Truncated or broken text must end the scan, not crash it. */
	static const char *const texts[] = {
		"int a(void) {",
		"int a(void",
		"\"unterminated",
		"'",
		"/* unterminated",
		"#if 0\nint a(void) { }\n",
		"#endif\n#else\n}}}}\nint b(void) { }\n",
		"#define X \\",
		"int a(void) { \"}\" '}' }\nint b(void) { }",
		"))) int c(void) { }",
		"",
	};
	struct scan_result *r = xcalloc(1, sizeof(*r));
	size_t i;

	for (i = 0; i < ARRAY_SIZE(texts); i++)
		symbols_scan(texts[i], strlen(texts[i]), collect, r);
	assert_non_null(lookup_found(r, "a"));
	/* stray #endif, #else and "}" are ignored */
	assert_non_null(lookup_found(r, "b"));
	assert_non_null(lookup_found(r, "c"));
	free(r);
}

static void test_name_len(void **state)
{
	assert_int_equal(symbols_name_len("foo"), 3);
	assert_int_equal(symbols_name_len("foo.constprop.0"), 3);
	assert_int_equal(symbols_name_len("foo.isra.12"), 3);
	assert_int_equal(symbols_name_len("foo.cold"), 3);
	assert_int_equal(symbols_name_len("foo.part.3"), 3);
	assert_int_equal(symbols_name_len("foo.llvm.1234567"), 3);
	assert_int_equal(symbols_name_len("foo+0x1a/0x20"), 3);
	assert_int_equal(symbols_name_len("__x64_sys_openat"), 16);
	assert_int_equal(symbols_name_len("0x1234"), 0);
	assert_int_equal(symbols_name_len(".cold"), 0);
	assert_int_equal(symbols_name_len(""), 0);
	assert_int_equal(symbols_name_len(NULL), 0);
}

/* ---- a fake tree ------------------------------------------------------ */

static char tmpdir[TREE_DIR_MAX], outside[TREE_DIR_MAX];

static void write_text(const char *rel, const char *text)
{
	tree_write(tmpdir, rel, text);
}

static void write_bytes(const char *path, const void *p, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, p, n), (ssize_t)n);
	close(fd);
}

static char *make_tree(void)
{
	char *link, *target;

	tree_make(tmpdir, "triage-symbols");
	tree_make(outside, "triage-symbols");
	write_text("fs/xfs/xfs_icache.c", "int xfs_iget(void)\n{\n}\n"
					  "static int helper(void)\n{\n}\n");
	write_text("fs/ext4/super.c", "static int helper(void) { }\n"
				      "static int ext4_fill_super(void) { }\n");
	write_text(
		"include/linux/slab.h",
		"static inline int stub(void) { return 0; }\n"
		"static inline void *kmalloc_noprof(int n) { return 0; }\n"
		"#define kmalloc(...) alloc_hooks(kmalloc_noprof(__VA_ARGS__))\n");
	write_text("mm/slub.c", "int stub(void) { }\n"
				"void *kmem_cache_alloc_noprof(void) { }\n");
	write_text("kernel/sched/idle.c",
		   "void __weak arch_cpu_idle(void) { }\n");
	write_text("arch/x86/kernel/process.c",
		   "void arch_cpu_idle(void) { }\n");
	write_text("arch/arm64/kernel/idle.c",
		   "void arch_cpu_idle(void) { }\n");
	write_text("arch/arm/kernel/only.c", "void other_arch(void) { }\n");
	write_text("arch/mips/kernel/only.c", "void other_arch(void) { }\n");
	write_text(
		"tools/include/linux/slab.h",
		"static inline void *kmem_cache_alloc(void) { return 0; }\n");
	write_text("tools/perf/perf.c", "int cmd_record(void) { }\n");
	write_text("fs/open.c",
		   "SYSCALL_DEFINE4(openat, int, dfd, const char __user *, "
		   "filename, int, flags, umode_t, mode)\n{\n}\n");
	/* not read: hidden, not C, behind a symbolic link */
	write_text(".git/hidden.c", "int hidden_fn(void) { }\n");
	write_text("README", "int readme_fn(void) { }\n");
	target = xasprintf("%s/linked.c", outside);
	write_bytes(target, "int linked_fn(void) { }\n", 24);
	free(target);
	link = xasprintf("%s/fs/link", tmpdir);
	target = xstrdup(outside);
	assert_int_equal(symlink(target, link), 0);
	free(link);
	free(target);
	return xasprintf("%s/symbols.idx", tmpdir);
}

static void remove_tree(void)
{
	tree_remove(tmpdir);
	tree_remove(outside);
}

/* files - "a b c" of a lookup, or "" */
static char *files(const struct symbols *s, const char *name)
{
	static char buf[1024];
	const char *v[16];
	size_t n = symbols_lookup(s, name, v, ARRAY_SIZE(v)), i;

	buf[0] = '\0';
	for (i = 0; i < n && i < ARRAY_SIZE(v); i++) {
		if (i)
			strcat(buf, " ");
		strcat(buf, v[i]);
	}
	return buf;
}

static const char *best(const struct symbols *s, const char *name)
{
	const char *f = symbols_best(s, name);

	return f ? f : "(none)";
}

static void test_build_and_lookup(void **state)
{
	char *idx = make_tree();
	struct symbols_stats st;
	struct symbols *s;
	const char *v[1];

	assert_int_equal(symbols_build(tmpdir, idx, &st), 0);
	/* 12 sources; .git/, README and the linked directory are skipped */
	assert_int_equal(st.files, 12);
	/* 10 names + 6 made by SYSCALL_DEFINE4 + the function-like macro
	 * kmalloc() + the directories fs/xfs/ and fs/ext4/ as modules;
	 * 5 more files for 3 names */
	assert_int_equal(st.names, 19);
	assert_int_equal(st.functions, 24);
	s = open_index(idx);
	assert_non_null(s);

	assert_string_equal(files(s, "xfs_iget"), "fs/xfs/xfs_icache.c");
	assert_string_equal(best(s, "xfs_iget"), "fs/xfs/xfs_icache.c");
	/* a lower-case function-like macro exists too (not "invented") */
	assert_string_equal(files(s, "kmalloc"), "include/linux/slab.h");
	assert_string_equal(files(s, "ext4_fill_super"), "fs/ext4/super.c");
	/* two static functions of one name: both, no clear best */
	assert_string_equal(files(s, "helper"),
			    "fs/ext4/super.c fs/xfs/xfs_icache.c");
	assert_string_equal(best(s, "helper"), "(none)");
	/* a .c definition beats a header's inline stub */
	assert_string_equal(files(s, "stub"), "mm/slub.c include/linux/slab.h");
	assert_string_equal(best(s, "stub"), "mm/slub.c");
	/* x86 first, the __weak fallback next, other architectures last */
	assert_string_equal(files(s, "arch_cpu_idle"),
			    "arch/x86/kernel/process.c kernel/sched/idle.c "
			    "arch/arm64/kernel/idle.c");
	assert_string_equal(best(s, "arch_cpu_idle"),
			    "arch/x86/kernel/process.c");
	assert_string_equal(best(s, "other_arch"), "(none)");
	/* the count may exceed what is stored */
	assert_int_equal(symbols_lookup(s, "arch_cpu_idle", v, 1), 3);
	assert_string_equal(v[0], "arch/x86/kernel/process.c");
	assert_int_equal(symbols_lookup(s, "arch_cpu_idle", NULL, 0), 3);

	/* SYSCALL_DEFINE aliases, and other architectures' wrappers */
	assert_string_equal(files(s, "__x64_sys_openat"), "fs/open.c");
	assert_string_equal(files(s, "__do_sys_openat"), "fs/open.c");
	assert_string_equal(files(s, "__se_sys_openat"), "fs/open.c");
	assert_string_equal(files(s, "sys_openat"), "fs/open.c");
	assert_string_equal(files(s, "__riscv_sys_openat"), "fs/open.c");
	assert_string_equal(files(s, "__riscv_sys_nothere"), "");

	/* compiler suffixes and offsets of stack frames */
	assert_string_equal(files(s, "xfs_iget.constprop.0"),
			    "fs/xfs/xfs_icache.c");
	assert_string_equal(files(s, "xfs_iget.isra.12"),
			    "fs/xfs/xfs_icache.c");
	assert_string_equal(files(s, "xfs_iget.cold"), "fs/xfs/xfs_icache.c");
	assert_string_equal(files(s, "xfs_iget.part.3"), "fs/xfs/xfs_icache.c");
	assert_string_equal(files(s, "xfs_iget.llvm.8754321"),
			    "fs/xfs/xfs_icache.c");
	assert_string_equal(files(s, "xfs_iget+0x1a/0x20"),
			    "fs/xfs/xfs_icache.c");
	assert_string_equal(best(s, "xfs_iget.isra.0"), "fs/xfs/xfs_icache.c");

	/* kmem_cache_alloc() is a macro over kmem_cache_alloc_noprof() */
	assert_string_equal(files(s, "kmem_cache_alloc"), "mm/slub.c");
	assert_string_equal(files(s, "kmalloc"), "include/linux/slab.h");
	/* tools/ is indexed, ranked last */
	assert_string_equal(files(s, "cmd_record"), "tools/perf/perf.c");

	/* absent: invented, prefixes, skipped files */
	assert_string_equal(files(s, "xfs_igetx"), "");
	assert_string_equal(files(s, "xfs_ige"), "");
	assert_string_equal(files(s, "btusb_write"), "");
	assert_string_equal(files(s, "hidden_fn"), "");
	assert_string_equal(files(s, "readme_fn"), "");
	assert_string_equal(files(s, "linked_fn"), "");
	assert_string_equal(files(s, ""), "");
	assert_string_equal(files(s, "+0x10/0x20"), "");
	assert_string_equal(best(s, "btusb_write"), "(none)");
	assert_string_equal(files(s, "aaaa"), "");
	assert_string_equal(files(s, "zzzz"), "");

	symbols_free(s);
	free(idx);
	remove_tree();
}

/* ---- a damaged index -------------------------------------------------- */

static void put32(unsigned char *p, size_t off, uint32_t v)
{
	memcpy(p + off, &v, 4);
}

static uint32_t get32(const unsigned char *p, size_t off)
{
	uint32_t v;

	memcpy(&v, p + off, 4);
	return v;
}

/* exercise - every query on a (possibly damaged) index */
static void exercise(const struct symbols *s)
{
	static const char *const names[] = {
		"xfs_iget",	      "helper",	    "stub",
		"arch_cpu_idle",      "other_arch", "kmem_cache_alloc",
		"__riscv_sys_openat", "cmd_record", "zz",
	};
	const char *v[8];
	struct symbols_span sp[8];
	size_t i, j, n;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		const char *b = symbols_best(s, names[i]);
		unsigned budget = 32;

		n = symbols_lookup(s, names[i], v, ARRAY_SIZE(v));
		for (j = 0; j < n && j < ARRAY_SIZE(v); j++)
			assert_non_null(v[j]);
		if (b)
			assert_true(strlen(b) < 4096);
		n = symbols_spans(s, names[i], sp, ARRAY_SIZE(sp));
		for (j = 0; j < n && j < ARRAY_SIZE(sp); j++)
			assert_non_null(sp[j].file);
		assert_true(symbols_calls(s, names[i], NULL, "helper", 2,
					  &budget) <= 1);
		assert_true(budget <= 32);
	}
}

/* a ref: a uint32_t path, a rank, uint32_t first and last lines, calls */
#define REF_BYTES 17

/* Header layout (symbols.c): magic[8], then uint32_t fields. */
enum {
	H_VERSION = 8,
	H_SIZE = 16,
	H_NBLOCKS = 36,
	H_BLOCK_SIZE = 40,
	H_TOP_SIZE = 48,
	H_PATHS = 60,
	H_PATHS_SIZE = 64,
	H_BLOCKS = 68,
};

/*
 * damage_refs - point every ref that block 0's entries hold to a path
 * past the end (the block layout of symbols.c: a uint16_t count, then
 * entries: shared, suffix length, suffix, count (0xff: uint32_t count
 * and offset, two refs follow), refs of REF_BYTES, a uint32_t path first)
 */
static void damage_refs(unsigned char *img)
{
	unsigned char *p = img + get32(img, H_BLOCKS);
	uint16_t n;
	unsigned k, r, cnt;

	memcpy(&n, p, 2);
	assert_true(n > 0);
	p += 2;
	for (k = 0; k < n; k++) {
		p += 2 + p[1];
		cnt = *p++;
		if (cnt == 0xff) {
			p += 8;
			cnt = 2;
		}
		for (r = 0; r < cnt; r++, p += REF_BYTES)
			put32(p, 0, 0xfffffff0u);
	}
}

static void test_corrupt_index(void **state)
{
	char *idx = make_tree(), *bad = xasprintf("%s/bad.idx", tmpdir);
	unsigned char *img, *copy;
	struct symbols *s;
	size_t len, i;
	char *text;

	assert_int_equal(symbols_build(tmpdir, idx, NULL), 0);
	assert_int_equal(read_file(idx, 1 << 20, &text, &len), 0);
	img = (unsigned char *)text;
	copy = xmalloc(len);

	/* refused: not an index, truncated, wrong version, bad bounds */
	write_bytes(bad, "hello", 5);
	assert_null(open_index(bad));
	write_bytes(bad, img, 40);
	assert_null(open_index(bad));
	write_bytes(bad, img, len - 1);
	assert_null(open_index(bad));
	memcpy(copy, img, len);
	copy[0] ^= 1;
	write_bytes(bad, copy, len);
	assert_null(open_index(bad));
	memcpy(copy, img, len);
	put32(copy, H_VERSION, get32(img, H_VERSION) + 1);
	write_bytes(bad, copy, len);
	assert_null(open_index(bad));
	/* formats 1 (before the blocks) and 2 (before the lines and the
	 * calls) are refused, not misread */
	memcpy(copy, img, len);
	put32(copy, H_VERSION, 1);
	write_bytes(bad, copy, len);
	assert_null(open_index(bad));
	memcpy(copy, img, len);
	put32(copy, H_VERSION, 2);
	write_bytes(bad, copy, len);
	assert_null(open_index(bad));
	memcpy(copy, img, len);
	put32(copy, H_BLOCKS, (uint32_t)len);
	write_bytes(bad, copy, len);
	assert_null(open_index(bad));
	memcpy(copy, img, len);
	put32(copy, H_NBLOCKS, UINT32_MAX);
	write_bytes(bad, copy, len);
	assert_null(open_index(bad));
	memcpy(copy, img, len);
	put32(copy, H_BLOCK_SIZE, 8192);
	write_bytes(bad, copy, len);
	assert_null(open_index(bad));
	memcpy(copy, img, len);
	put32(copy, H_PATHS_SIZE, get32(img, H_SIZE));
	write_bytes(bad, copy, len);
	assert_null(open_index(bad));
	memcpy(copy, img, len);
	put32(copy, H_TOP_SIZE, 1);
	write_bytes(bad, copy, len);
	assert_null(open_index(bad));
	assert_null(open_index("/nonexistent/symbols.idx"));

	/* the paths must end in NUL: the mapped index is refused, the
	 * pread() reader finds out when it reads a path */
	memcpy(copy, img, len);
	memset(copy + get32(img, H_PATHS), 'x', get32(img, H_PATHS_SIZE));
	write_bytes(bad, copy, len);
	s = open_index(bad);
	if (open_index == symbols_open) {
		assert_null(s);
	} else {
		assert_non_null(s);
		assert_null(symbols_best(s, "xfs_iget"));
		assert_string_equal(files(s, "xfs_iget"), "");
		symbols_free(s);
	}

	/* a damaged entry opens, but is never followed */
	memcpy(copy, img, len);
	copy[get32(img, H_BLOCKS) + 3] = 0xff; /* the first suffix's length */
	write_bytes(bad, copy, len);
	s = open_index(bad);
	assert_non_null(s);
	exercise(s);
	symbols_free(s);
	memcpy(copy, img, len);
	damage_refs(copy);
	write_bytes(bad, copy, len);
	s = open_index(bad);
	assert_non_null(s);
	assert_string_equal(files(s, "xfs_iget"), "");
	assert_null(symbols_best(s, "xfs_iget"));
	symbols_free(s);

	/* any single damaged byte: refused, or lookups that stay inside */
	msg_setup("test_symbols", 1, true); /* one message, not hundreds */
	for (i = 0; i < len; i++) {
		memcpy(copy, img, len);
		copy[i] ^= 0xa5;
		write_bytes(bad, copy, len);
		s = open_index(bad);
		if (s)
			exercise(s);
		symbols_free(s);
	}
	msg_setup("test_symbols", 1, false);

	free(copy);
	free(text);
	free(bad);
	free(idx);
	remove_tree();
}

static void test_build_errors(void **state)
{
	char *idx;

	tree_make(tmpdir, "triage-symbols");
	tree_make(outside, "triage-symbols");
	idx = xasprintf("%s/out.idx", outside);
	assert_int_equal(symbols_build("/nonexistent/tree", idx, NULL), -1);
	/* no sources at all */
	assert_int_equal(symbols_build(tmpdir, idx, NULL), -1);
	assert_int_equal(access(idx, F_OK), -1);
	free(idx);
	remove_tree();
}

/* ---- resolving frames -------------------------------------------------- */
/* named - a subject's candidate and what symbols_resolve() made of it */
static void named_add(struct evidence *ev, const char *name)
{
	ev->named =
		xreallocarray(ev->named, ev->nnamed + 1, sizeof(*ev->named));
	ev->named[ev->nnamed++] = xstrdup(name);
}

/*
 * A frame whose function the index does not know (a newer tree's): the
 * module its "[name]" gives, else the driver its name starts with when
 * that word has a digit ("mt7921_..."); not a plain word ("usb_..."),
 * not an unreliable "? " frame, nothing when no module has the name
 */
static void test_resolve_frame_driver(void **state)
{
	char *idx = make_tree();
	struct frame fr[6];
	struct evidence ev;
	struct symbols *s;
	size_t i;

	(void)state;
	write_text("drivers/net/wireless/mt7921/Makefile",
		   "obj-$(CONFIG_MT7921_COMMON) += mt7921-common.o\n"
		   "mt7921-common-y := mac.o\n");
	write_text("drivers/net/wireless/mt7921/mac.c",
		   "void mt7921_mac_reset(void) { }\n");
	write_text("drivers/soc/qe/Makefile", "obj-y += usb.o\n");
	write_text("drivers/soc/qe/usb.c", "void qe_usb_clock_set(void) { }\n");
	assert_int_equal(symbols_build(tmpdir, idx, NULL), 0);
	s = open_index(idx);
	assert_non_null(s);
	memset(fr, 0, sizeof(fr));
	memset(&ev, 0, sizeof(ev));
	fr[0].function = xstrdup("mt7921_channel_switch_rx_beacon");
	fr[1].function = xstrdup("ieee80211_new_helper");
	fr[1].module = xstrdup("mt7921_common");
	fr[2].function = xstrdup("usb_new_helper"); /* module "usb" exists */
	fr[3].function = xstrdup("__mt7921_new_helper");
	fr[3].unreliable = true;
	fr[4].function = xstrdup("ab12_new_helper");  /* no such module */
	fr[5].function = xstrdup("mt7921_mac_reset"); /* known: its file */
	ev.frames = fr;
	ev.nframes = ARRAY_SIZE(fr);
	symbols_resolve(s, &ev);
	assert_string_equal(fr[0].file, "drivers/net/wireless/mt7921/");
	assert_true(fr[0].from_index);
	assert_string_equal(fr[1].file, "drivers/net/wireless/mt7921/mac.c");
	assert_null(fr[2].file);
	assert_null(fr[3].file);
	assert_null(fr[4].file);
	assert_string_equal(fr[5].file, "drivers/net/wireless/mt7921/mac.c");
	for (i = 0; i < ARRAY_SIZE(fr); i++) {
		free(fr[i].function);
		free(fr[i].module);
		free(fr[i].file);
	}
	symbols_free(s);
	free(idx);
	remove_tree();
}

/*
 * A pair of the subject's words that names a module ("bcm2835 SPI":
 * spi-bcm2835, either order) takes the place of its words, which name
 * another module alone; a pair that names none goes; the prose's names
 * stay after the subject's
 */
static void test_resolve_pairs(void **state)
{
	char *idx = make_tree();
	struct evidence ev;
	struct symbols *s;
	size_t i;

	(void)state;
	write_text("drivers/spi/Makefile",
		   "obj-$(CONFIG_SPI_BCM2835) += spi-bcm2835.o\n");
	write_text("drivers/spi/spi-bcm2835.c", "void bcm2835_spi(void) { }\n");
	write_text("drivers/mmc/host/Makefile",
		   "obj-$(CONFIG_MMC_BCM2835) += bcm2835.o\n");
	write_text("drivers/mmc/host/bcm2835.c",
		   "void bcm2835_mmc(void) { }\n");
	write_text("drivers/gpio/Makefile",
		   "obj-$(CONFIG_GPIO_MVEBU) += gpio-mvebu.o\n");
	write_text("drivers/gpio/gpio-mvebu.c", "void mvebu_gpio(void) { }\n");
	assert_int_equal(symbols_build(tmpdir, idx, NULL), 0);
	s = open_index(idx);
	assert_non_null(s);

	memset(&ev, 0, sizeof(ev));
	named_add(&ev, "bcm2835");     /* alone: the MMC host's */
	named_add(&ev, "bcm2835 spi"); /* spi-bcm2835 */
	named_add(&ev, "spi issue");   /* nothing */
	named_add(&ev, "mvebu gpio");  /* neither word alone */
	ev.nnamed_subject = ev.nnamed;
	named_add(&ev, "bcm2835"); /* the prose's: stays */
	symbols_resolve(s, &ev);
	assert_int_equal(ev.nnamed_subject, 2);
	assert_int_equal(ev.nnamed, 3);
	assert_string_equal(ev.named[0], "bcm2835 spi");
	assert_string_equal(ev.named_files[0], "drivers/spi/spi-bcm2835.c");
	assert_string_equal(ev.named[1], "mvebu gpio");
	assert_string_equal(ev.named_files[1], "drivers/gpio/gpio-mvebu.c");
	assert_string_equal(ev.named[2], "bcm2835");
	assert_string_equal(ev.named_files[2], "drivers/mmc/host/bcm2835.c");
	for (i = 0; i < ev.nnamed; i++) {
		free(ev.named[i]);
		free(ev.named_files[i]);
	}
	free(ev.named);
	free(ev.named_files);

	/* no pair names a module: the words keep their own */
	memset(&ev, 0, sizeof(ev));
	named_add(&ev, "bcm2835");
	named_add(&ev, "bcm2835 card");
	ev.nnamed_subject = ev.nnamed;
	symbols_resolve(s, &ev);
	assert_int_equal(ev.nnamed, 1);
	assert_int_equal(ev.nnamed_subject, 1);
	assert_string_equal(ev.named_files[0], "drivers/mmc/host/bcm2835.c");
	free(ev.named[0]);
	free(ev.named_files[0]);
	free(ev.named);
	free(ev.named_files);
	symbols_free(s);
	free(idx);
	remove_tree();
}

static int finish_calls;

/* evidence_finish - this program's stand-in for the evidence stage */
void evidence_finish(struct evidence *ev)
{
	finish_calls++;
}

static void test_resolve(void **state)
{
	char *idx = make_tree();
	struct frame fr[5];
	struct evidence ev;
	struct symbols *s;
	size_t i;

	assert_int_equal(symbols_build(tmpdir, idx, NULL), 0);
	s = open_index(idx);
	assert_non_null(s);
	memset(fr, 0, sizeof(fr));
	memset(&ev, 0, sizeof(ev));
	fr[0].function = xstrdup("xfs_iget.isra.0");
	fr[1].function = xstrdup("helper"); /* ambiguous */
	fr[2].function = xstrdup("no_such_function");
	fr[3].function = xstrdup("arch_cpu_idle");
	fr[3].file = xstrdup("kernel/sched/idle.c"); /* given: kept */
	fr[4].function = NULL;
	ev.frames = fr;
	ev.nframes = ARRAY_SIZE(fr);

	finish_calls = 0;
	symbols_resolve(s, &ev);
	assert_int_equal(finish_calls, 1);
	assert_string_equal(fr[0].file, "fs/xfs/xfs_icache.c");
	assert_true(fr[0].from_index);
	assert_null(fr[1].file);
	assert_false(fr[1].from_index);
	assert_null(fr[2].file);
	assert_string_equal(fr[3].file, "kernel/sched/idle.c");
	assert_false(fr[3].from_index);
	assert_null(fr[4].file);

	/* without an index: nothing resolved, the evidence still finished */
	free(fr[0].file);
	fr[0].file = NULL;
	fr[0].from_index = false;
	symbols_resolve(NULL, &ev);
	assert_int_equal(finish_calls, 2);
	assert_null(fr[0].file);

	for (i = 0; i < ARRAY_SIZE(fr); i++) {
		free(fr[i].function);
		free(fr[i].file);
	}
	symbols_free(s);
	free(idx);
	remove_tree();
}

/* Modules: kbuild's obj- lines map a module to its file or directory. */
static void test_modules_from_makefiles(void **state)
{
	char *idx = make_tree();
	struct symbols *s;
	struct symbols_stats st;

	write_text("drivers/bluetooth/Makefile",
		   "# comment: obj-y += nothere.o\n"
		   "obj-$(CONFIG_BT_HCIBTUSB)\t+= btusb.o\n"
		   "obj-$(CONFIG_BT_MRVL) += btmrvl.o \\\n"
		   "\t\t\t\tbt-other.o\n"
		   "btmrvl-y := btmrvl_main.o btmrvl_sdio.o\n"
		   "obj-$(CONFIG_BT_FOO) += btfoo.o\n"
		   "btfoo-objs\t+= btfoo_core.o\n"
		   "obj-$(CONFIG_X) += $(sub-objs) sub/\n");
	write_text("drivers/bluetooth/btusb.c", "void btusb_probe(void) { }\n");
	write_text("drivers/bluetooth/bt-other.c", "void bt_other(void) { }\n");
	write_text("drivers/bluetooth/btmrvl_main.c",
		   "void btmrvl(void) { }\n");
	write_text("fs/xfs/Kbuild", "obj-$(CONFIG_XFS_FS) += xfs.o\n"
				    "xfs-y += xfs_icache.o\n");
	assert_int_equal(symbols_build(tmpdir, idx, &st), 0);
	s = open_index(idx);
	assert_non_null(s);
	/* one object with a source file of its own: that file */
	assert_string_equal(files(s, "module:btusb"),
			    "drivers/bluetooth/btusb.c");
	/* several objects (NAME-y): the first one's source, the module's
	 * core; the directory when the tree has no such file */
	assert_string_equal(files(s, "module:btmrvl"),
			    "drivers/bluetooth/btmrvl_main.c");
	assert_string_equal(files(s, "module:btfoo"), "drivers/bluetooth/");
	/* ... and a directory named like a module adds nothing to it */
	assert_string_equal(files(s, "module:xfs"), "fs/xfs/xfs_icache.c");
	/* a continuation line, and "-" named as the kernel shows it */
	assert_string_equal(files(s, "module:bt_other"),
			    "drivers/bluetooth/bt-other.c");
	assert_string_equal(files(s, "module:bt-other"),
			    "drivers/bluetooth/bt-other.c");
	/* comments, variables and subdirectories are not modules */
	assert_string_equal(files(s, "module:nothere"), "");
	assert_string_equal(files(s, "module:sub"), "");
	/* a module name is not a function name */
	assert_string_equal(files(s, "btusb"), "");
	symbols_free(s);
	free(idx);
	remove_tree();
}

/*
 * The configurator front ends of scripts/kconfig/Makefile ("make
 * xconfig") are scripts/kconfig/'s; not the batch targets, which every
 * build report runs, nor the word "config"
 */
static void test_modules_configurators(void **state)
{
	char *idx = make_tree();
	struct symbols *s;
	struct symbols_stats st;

	write_text("scripts/kconfig/Makefile",
		   "config-prog\t:= conf\n"
		   "menuconfig-prog\t:= mconf\n"
		   "xconfig-prog\t:= qconf\n"
		   "simple-targets := oldconfig allmodconfig \\\n"
		   "\tolddefconfig\n"
		   "PHONY += savedefconfig defconfig\n");
	write_text("scripts/kconfig/conf.c", "int main(void) { }\n");
	write_text("drivers/foo/Makefile", "nconfig-prog := nconf\n");
	write_text("drivers/foo/foo.c", "void foo(void) { }\n");
	assert_int_equal(symbols_build(tmpdir, idx, &st), 0);
	s = open_index(idx);
	assert_non_null(s);
	assert_string_equal(files(s, "module:menuconfig"), "scripts/kconfig/");
	assert_string_equal(files(s, "module:xconfig"), "scripts/kconfig/");
	assert_string_equal(files(s, "module:config"), "");
	assert_string_equal(files(s, "module:oldconfig"), "");
	assert_string_equal(files(s, "module:allmodconfig"), "");
	assert_string_equal(files(s, "module:defconfig"), "");
	/* another Makefile's variables name no configurator */
	assert_string_equal(files(s, "module:nconfig"), "");
	symbols_free(s);
	free(idx);
	remove_tree();
}

/*
 * Directories: a driver as reports name it ("rtw89") when its modules
 * have other names; only a name one directory of the tree has, under
 * drivers/, sound/, net/ or fs/
 */
static void test_modules_from_directories(void **state)
{
	char *idx = make_tree();
	struct symbols *s;
	struct symbols_stats st;

	write_text("drivers/net/wireless/realtek/rtw89/core.c",
		   "void rtw89_core_start(void) { }\n");
	write_text("drivers/net/wireless/realtek/rtw89/Makefile",
		   "obj-$(CONFIG_RTW89_8852BE) += rtw89_8852be.o\n"
		   "rtw89_8852be-objs := rtw8852be.o\n");
	write_text("drivers/hid/amd-sfh-hid/amd_sfh_pcie.c",
		   "void amd_sfh_probe(void) { }\n");
	write_text("drivers/usb/core/hub.c", "void hub_event(void) { }\n");
	write_text("sound/usb/card.c", "void snd_usb_probe(void) { }\n");
	write_text("tools/lib/thing/a.c", "void thing_a(void) { }\n");
	write_text("drivers/misc/thing/b.c", "void thing_b(void) { }\n");
	assert_int_equal(symbols_build(tmpdir, idx, &st), 0);
	s = open_index(idx);
	assert_non_null(s);
	assert_string_equal(files(s, "module:rtw89"),
			    "drivers/net/wireless/realtek/rtw89/");
	/* the module itself still names its directory */
	assert_string_equal(files(s, "module:rtw89_8852be"),
			    "drivers/net/wireless/realtek/rtw89/");
	/* "-" and "_" alike, as module names are */
	assert_string_equal(files(s, "module:amd_sfh_hid"),
			    "drivers/hid/amd-sfh-hid/");
	assert_string_equal(files(s, "module:amd-sfh-hid"),
			    "drivers/hid/amd-sfh-hid/");
	/* a name two directories have tells nothing */
	assert_string_equal(files(s, "module:usb"), "");
	assert_string_equal(files(s, "module:thing"), "");
	/* nor does a directory outside the drivers' roots */
	assert_string_equal(files(s, "module:tools"), "");
	assert_string_equal(files(s, "module:lib"), "");
	symbols_free(s);
	free(idx);
	remove_tree();
}

/*
 * What a report cites besides functions: module parameters, sysctl names
 * and ioctl request macros (symbols_facts.c), and the tree's version
 */
static void test_facts(void **state)
{
	char *idx = make_tree();
	struct symbols *s;
	struct symbols_stats st;

	write_text("Makefile", "VERSION = 6\nPATCHLEVEL = 13\nSUBLEVEL = 2\n");
	write_text("drivers/foo/foo.c",
		   "module_param(debug, int, 0644);\n"
		   "MODULE_PARM_DESC(debug, \"debug level\");\n"
		   "  module_param_named(power_save, foo_ps, bool, 0444);\n"
		   "module_param_array(ids, int, NULL, 0);\n"
		   "\tfoo_param_named_unsafe(enable_psr, int, 0400, \"x\");\n"
		   "int x = module_param_expr(notaparam, 1);\n"
		   "static struct ctl_table t[] = {\n"
		   "\t{ .procname\t= \"foo_bar_ratio\", .mode = 0644 },\n"
		   "\t{ .procname = ctl->procname },\n"
		   "\tDEVINET_SYSCTL_RW_ENTRY(RP_FILTER, \"rp_filter\"),\n"
		   "};\n");
	write_text("include/linux/moduleparam.h",
		   "#define module_param(name, type, perm) x\n"
		   "#define FOO_NOT_IOCTL _IOR_NOT(1)\n"
		   "#define FOO_HEX_NOT_UAPI 0x10\n");
	write_text("include/uapi/linux/foo.h",
		   "#define FOO_IOC_GET\t_IOR('f', 1, int)\n"
		   "#define FOO_IOC_SET _IOW('f', 2, int) /* set */\n"
		   "#define DRM_IOCTL_FOO DRM_IOWR(0x40, struct foo)\n"
		   "#define FOO_PLAIN 5\n"
		   "#define SG_IO 0x2285\n"
		   "#define HIDIOCSFEATURE(len) _IOC(_IOC_WRITE, 'H', 6, len)\n"
		   "x = _IO('f', 3);\n");
	write_text("include/uapi/asm-generic/ioctls.h",
		   "#define TCGETS\t\t0x5401\n");
	write_text("drivers/foo/ioctl.c", "#define FOO_IOC_C _IO('f', 9)\n");
	assert_int_equal(symbols_build(tmpdir, idx, &st), 0);
	s = open_index(idx);
	assert_non_null(s);
	assert_int_equal(symbols_tree_version(s), SYMBOLS_VERSION(6, 13, 2));
	assert_string_equal(files(s, "param:debug"), "drivers/foo/foo.c");
	assert_string_equal(files(s, "param:power_save"), "drivers/foo/foo.c");
	assert_string_equal(files(s, "param:ids"), "drivers/foo/foo.c");
	assert_string_equal(files(s, "param:enable_psr"), "drivers/foo/foo.c");
	/* not at a line's start, or the macro's own definition */
	assert_string_equal(files(s, "param:notaparam"), "");
	assert_string_equal(files(s, "param:name"), "");
	assert_string_equal(files(s, "sysctl:foo_bar_ratio"),
			    "drivers/foo/foo.c");
	assert_string_equal(files(s, "sysctl:rp_filter"), "drivers/foo/foo.c");
	assert_string_equal(files(s, "ioctl:FOO_IOC_GET"),
			    "include/uapi/linux/foo.h");
	assert_string_equal(files(s, "ioctl:FOO_IOC_SET"),
			    "include/uapi/linux/foo.h");
	assert_string_equal(files(s, "ioctl:DRM_IOCTL_FOO"),
			    "include/uapi/linux/foo.h");
	assert_string_equal(files(s, "ioctl:TCGETS"),
			    "include/uapi/asm-generic/ioctls.h");
	/* older requests are numbers (in uapi), some take a length */
	assert_string_equal(files(s, "ioctl:SG_IO"),
			    "include/uapi/linux/foo.h");
	assert_string_equal(files(s, "ioctl:HIDIOCSFEATURE"),
			    "include/uapi/linux/foo.h");
	/* a constant, a macro that is no request, a source file */
	assert_string_equal(files(s, "ioctl:FOO_PLAIN"), "");
	assert_string_equal(files(s, "ioctl:FOO_NOT_IOCTL"), "");
	assert_string_equal(files(s, "ioctl:FOO_IOC_C"), "");
	assert_string_equal(files(s, "ioctl:FOO_HEX_NOT_UAPI"), "");
	/* the kinds are apart: no function, no other kind */
	assert_string_equal(files(s, "debug"), "");
	assert_string_equal(files(s, "sysctl:debug"), "");
	assert_string_equal(files(s, "param:"), "");
	symbols_free(s);
	free(idx);
	remove_tree();
}

/* ---- the two readers agree ------------------------------------------- */

#define AGREE_FILES 24
#define AGREE_FNS   160

/* agree_name - the j-th function of file f (long shared prefixes, some
 * names near the length limit, so that entries span many blocks) */
static char *agree_name(unsigned f, unsigned j)
{
	if (j % 37 == 5)
		return xasprintf(
			"%s_%02u_%03u",
			"x_long_prefix_to_share_for_front_coding_over_several_entries_and_more_than_a_hundred_characters_long_for_sure_and_still_going_on_and_on_and_on_and_on_and_on_and_on",
			f, j);
	return xasprintf("fn_%c%c_%02u_%03u", 'a' + j % 26, 'a' + f % 26, f, j);
}

/*
 * chain_file - lib/chain.c: p, pp, ... and q, qq, ... (CHAIN_MAX
 * letters): each name a prefix of the next, so that a block starting
 * inside them has a whole name for separator
 */
#define CHAIN_MAX 250
static void chain_file(void)
{
	struct strbuf sb = STRBUF_INIT(1 << 20);
	char name[CHAIN_MAX + 1];
	unsigned n, c;

	for (c = 'p'; c <= 'q'; c++) {
		for (n = 1; n <= CHAIN_MAX; n++) {
			memset(name, (int)c, n);
			name[n] = '\0';
			sb_addf(&sb, "int %s(void) { }\n", name);
		}
	}
	write_text("lib/chain.c", sb.buf);
	sb_release(&sb);
}

/*
 * make_big_tree - AGREE_FILES files of AGREE_FNS functions each; every
 * file also defines "shared_static" (more refs than an entry holds),
 * files 0-8 "nine_files", 0-7 "eight_files", 0-1 "two_files"; the
 * first name is "A_first" (arch/arm: ranked last), the last "zz_last"
 */
static char *make_big_tree(void)
{
	unsigned f, j;

	tree_make(tmpdir, "triage-symbols");
	tree_make(outside, "triage-symbols");
	for (f = 0; f < AGREE_FILES; f++) {
		struct strbuf sb = STRBUF_INIT(1 << 20);
		char *rel = xasprintf("drivers/d%02u/file%02u.c", f, f);

		sb_addf(&sb, "static int shared_static(void) { }\n");
		if (f < 9)
			sb_addf(&sb, "int nine_files(void) { }\n");
		if (f < 8)
			sb_addf(&sb, "int eight_files(void) { }\n");
		if (f < 2)
			sb_addf(&sb, "int two_files(void) { }\n");
		for (j = 0; j < AGREE_FNS; j++) {
			char *name = agree_name(f, j);

			sb_addf(&sb, "int %s(void)\n{\n}\n", name);
			free(name);
		}
		write_text(rel, sb.buf);
		sb_release(&sb);
		free(rel);
	}
	chain_file();
	write_text("arch/arm/first.c", "void A_first(void) { }\n");
	write_text("kernel/last.c", "void zz_last(void) { }\n");
	return xasprintf("%s/symbols.idx", tmpdir);
}

/* agree - both readers give name the same files and the same best */
static void agree(const struct symbols *m, const struct symbols *p,
		  const char *name)
{
	const char *vm[64], *vp[64], *bm, *bp;
	size_t nm = symbols_lookup(m, name, vm, ARRAY_SIZE(vm));
	size_t np = symbols_lookup(p, name, vp, ARRAY_SIZE(vp)), i;

	assert_int_equal(nm, np);
	for (i = 0; i < nm && i < ARRAY_SIZE(vm); i++)
		assert_string_equal(vm[i], vp[i]);
	/* one file asked for: the same first file and count */
	assert_int_equal(symbols_lookup(p, name, vp, 1), nm);
	if (nm)
		assert_string_equal(vp[0], vm[0]);
	bm = symbols_best(m, name);
	bp = symbols_best(p, name);
	if (bm && bp)
		assert_string_equal(bm, bp);
	else
		assert_ptr_equal(bm, bp);
}

static void test_readers_agree(void **state)
{
	char *idx = make_big_tree();
	struct symbols_stats st;
	struct symbols *m, *p;
	const char *v[AGREE_FILES + 1];
	struct stat sb;
	unsigned f, j;
	size_t n, present = 0;

	assert_int_equal(symbols_build(tmpdir, idx, &st), 0);
	/* and each drivers/dNN/ as a module */
	assert_int_equal(st.names, AGREE_FILES * AGREE_FNS + 6 + 2 * CHAIN_MAX +
					   AGREE_FILES);
	assert_int_equal(stat(idx, &sb), 0);
	assert_true(sb.st_size > 8 * 4096); /* many blocks */
	m = symbols_open(idx);
	p = symbols_open_pread(idx);
	assert_non_null(m);
	assert_non_null(p);

	for (f = 0; f < AGREE_FILES; f++) {
		for (j = 0; j < AGREE_FNS; j++) {
			char *name = agree_name(f, j), *other;
			char *file =
				xasprintf("drivers/d%02u/file%02u.c", f, f);
			size_t len = strlen(name);

			agree(m, p, name);
			/* each reader finds it, in its file */
			assert_int_equal(symbols_lookup(p, name, v, 1), 1);
			assert_string_equal(v[0], file);
			assert_string_equal(symbols_best(m, name), file);
			present++;
			/* absent: longer, shorter, one byte off either way */
			other = xasprintf("%s_", name);
			agree(m, p, other);
			assert_int_equal(symbols_lookup(m, other, NULL, 0), 0);
			other[len - 1] = '\0';
			agree(m, p, other);
			assert_int_equal(symbols_lookup(p, other, NULL, 0), 0);
			memcpy(other, name, len + 1);
			other[len - 1]++;
			agree(m, p, other);
			other[len - 1] -= 2;
			agree(m, p, other);
			free(other);
			free(file);
			free(name);
		}
	}
	assert_int_equal(present, AGREE_FILES * AGREE_FNS);

	/* names that are prefixes of the next */
	for (j = 0; j < 2 * CHAIN_MAX; j++) {
		char name[CHAIN_MAX + 2];

		n = j % CHAIN_MAX + 1;
		memset(name, j < CHAIN_MAX ? 'p' : 'q', n);
		name[n] = '\0';
		agree(m, p, name);
		assert_int_equal(symbols_lookup(p, name, v, 1), 1);
		assert_string_equal(v[0], "lib/chain.c");
		assert_string_equal(symbols_best(m, name), "lib/chain.c");
		name[n] = 'x';
		name[n + 1] = '\0';
		agree(m, p, name);
		assert_int_equal(symbols_lookup(m, name, NULL, 0), 0);
	}

	/* the first and the last names; before the first, after the last */
	assert_int_equal(symbols_lookup(p, "A_first", v, 2), 1);
	assert_string_equal(v[0], "arch/arm/first.c");
	assert_int_equal(symbols_lookup(p, "zz_last", v, 2), 1);
	assert_string_equal(v[0], "kernel/last.c");
	assert_string_equal(symbols_best(p, "zz_last"), "kernel/last.c");
	agree(m, p, "A_first");
	agree(m, p, "zz_last");
	agree(m, p, "A");
	agree(m, p, "AAAA");
	agree(m, p, "zzz");
	agree(m, p, "zz_last_");
	assert_int_equal(symbols_lookup(p, "AAAA", NULL, 0), 0);
	assert_int_equal(symbols_lookup(p, "zzz", NULL, 0), 0);
	agree(m, p, "");
	agree(m, p, "_");

	/* many refs: all of them past those the entry holds, in path order
	 * (one rank), and no clear best */
	agree(m, p, "shared_static");
	n = symbols_lookup(p, "shared_static", v, ARRAY_SIZE(v));
	assert_int_equal(n, AGREE_FILES);
	for (f = 0; f < AGREE_FILES; f++) {
		char *file = xasprintf("drivers/d%02u/file%02u.c", f, f);

		assert_string_equal(v[f], file);
		free(file);
	}
	assert_null(symbols_best(p, "shared_static"));
	for (j = 0; j < 3; j++) {
		static const char *const names[] = { "nine_files",
						     "eight_files",
						     "two_files" };
		static const size_t counts[] = { 9, 8, 2 };

		agree(m, p, names[j]);
		assert_int_equal(symbols_lookup(p, names[j], v, ARRAY_SIZE(v)),
				 counts[j]);
		assert_string_equal(v[counts[j] - 1],
				    counts[j] == 9   ? "drivers/d08/file08.c"
				    : counts[j] == 8 ? "drivers/d07/file07.c"
						     : "drivers/d01/file01.c");
	}

	symbols_free(m);
	symbols_free(p);
	free(idx);
	remove_tree();
}

static void test_pread_build_and_lookup(void **state)
{
	open_index = symbols_open_pread;
	test_build_and_lookup(state);
	open_index = symbols_open;
}

static void test_pread_corrupt_index(void **state)
{
	open_index = symbols_open_pread;
	test_corrupt_index(state);
	open_index = symbols_open;
}

static void test_pread_resolve(void **state)
{
	open_index = symbols_open_pread;
	test_resolve(state);
	open_index = symbols_open;
}

/*
 * a pread() reader keeps what it read: the blocks of a 40-frame trace's
 * lookups (a few hundred) are not read again for the next report
 */
static void test_pread_keeps_blocks(void **state)
{
	struct strbuf sb = STRBUF_INIT(SIZE_MAX / 2);
	const char *files[1];
	char dir[TREE_DIR_MAX], name[64], *idx;
	struct symbols *s;
	unsigned long first;
	unsigned i, pass;

	(void)state;
	tree_make(dir, "triage-symbols");
	for (i = 0; i < 20000; i++)
		sb_addf(&sb, "int fn_%05u_a_name_long_enough(void)\n{\n}\n", i);
	tree_write(dir, "fs/many/many.c", sb_str(&sb));
	sb_release(&sb);
	idx = xasprintf("%s/symbols.idx", dir);
	assert_int_equal(symbols_build(dir, idx, NULL), 0);
	s = symbols_open_pread(idx);
	assert_non_null(s);
	for (pass = 0; pass < 2; pass++) {
		first = symbols_reads(s);
		for (i = 0; i < 20000; i += 7) {
			snprintf(name, sizeof(name),
				 "fn_%05u_a_name_long_enough", i);
			assert_int_equal(symbols_lookup(s, name, files, 1), 1);
			assert_string_equal(files[0], "fs/many/many.c");
		}
	}
	/* the first pass read far more blocks than 64; the second none */
	assert_true(first > 128);
	assert_int_equal(symbols_reads(s), first);
	symbols_free(s);
	s = symbols_open(idx);
	assert_non_null(s);
	assert_int_equal(symbols_reads(s), 0);
	symbols_free(s);
	free(idx);
	tree_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scan_forms),
		cmocka_unit_test(test_modules_from_makefiles),
		cmocka_unit_test(test_modules_configurators),
		cmocka_unit_test(test_modules_from_directories),
		cmocka_unit_test(test_facts),
		cmocka_unit_test(test_scan_unbalanced_input),
		cmocka_unit_test(test_name_len),
		cmocka_unit_test(test_build_and_lookup),
		cmocka_unit_test(test_corrupt_index),
		cmocka_unit_test(test_build_errors),
		cmocka_unit_test(test_resolve),
		cmocka_unit_test(test_resolve_pairs),
		cmocka_unit_test(test_resolve_frame_driver),
		cmocka_unit_test(test_pread_build_and_lookup),
		cmocka_unit_test(test_pread_corrupt_index),
		cmocka_unit_test(test_pread_resolve),
		cmocka_unit_test(test_readers_agree),
		cmocka_unit_test(test_pread_keeps_blocks),
	};

	msg_setup("test_symbols", 1, false);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
