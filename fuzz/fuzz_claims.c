// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_claims - a report's text through the claim checks (claims.c):
 * the crash log's frames (evidence), the "name() in file.c" prose, the
 * CONFIG_ options, the frames' lines and callers, each looked up in a
 * small symbol index built once from a fake tree (functions in .c files
 * and a header that call each other directly, through a macro and
 * through a pointer, Kconfig options, a module's parameter, a sysctl,
 * ioctls), read both mapped and with pread() as the filter reads it;
 * quoted code is read from the tree, which stays until the process
 * exits; the commit ids cited, in a small commit history (a release, a
 * commit, two that share a prefix)
 */
#include <stdlib.h>
#include <string.h>

#include "claims.h"
#include "evidence.h"
#include "experts_history.h"
#include "fuzz.h"
#include "symbols.h"
#include "util.h"

static struct symbols *mapped, *preadx;
static struct history *hist;

static void put(const char *dir, const char *rel, const char *text)
{
	char *path = xasprintf("%s/%s", dir, rel), *d = xstrdup(path);
	FILE *f;

	*strrchr(d, '/') = '\0';
	if (mkdir_p(d, 0700) < 0 || !(f = fopen(path, "w")))
		abort();
	fputs(text, f);
	fclose(f);
	free(d);
	free(path);
}

static char tree[32];

static void remove_tree(void)
{
	char *cmd = xasprintf("rm -rf '%s'", tree);

	if (system(cmd) != 0)
		abort();
	free(cmd);
}

/* history_once - a commit history of four commits in dir */
static struct history *history_once(const char *dir)
{
	static const char *const c[][2] = {
		{ "1234567890abcdef1234567890abcdef12345678",
		  "mm: fix the race" },
		{ "abcdef0123456789abcdef0123456789abcdef01", "Linux 6.12" },
		{ "dead0be00000000000000000000000000000000a", "xfs: one" },
		{ "dead0be11111111111111111111111111111111b", "xfs: two" },
	};
	struct history_builder *b = history_builder_new();
	char *path = xasprintf("%s/experts.idx.history", dir);
	struct history *h;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(c); i++)
		history_builder_add(b, c[i][0], 40, (int64_t)i, c[i][1],
				    strlen(c[i][1]));
	if (history_builder_write(b, true, path, NULL) < 0 ||
	    !(h = history_open(path)))
		abort();
	history_builder_free(b);
	free(path);
	return h;
}

/* index - the fake tree's index, once per process */
static void index_once(void)
{
	char dir[] = "/tmp/fuzz-claims-XXXXXX", *idx;

	if (!mkdtemp(dir))
		abort();
	put(dir, "fs/ext4/inode.c",
	    "int ext4_iget(void)\n{\n}\nstatic int ext4_write_begin(void)\n{\n}\n"
	    "int ext4_lookup(int x)\n{\n\treturn ext4_iget() + helper(x);\n}\n"
	    "static int helper(int x)\n{\n\treturn ext4_write_begin();\n}\n"
	    "int ext4_create(struct ops *o)\n{\n\treturn o->fn(ext4_lookup(1));\n}\n"
	    "int ext4_rename(void)\n{\n\treturn wrap(ext4_lookup(0));\n}\n"
	    "#define wrap(x) ext4_iget()\n");
	put(dir, "mm/slub.c", "void kfree(void *p)\n{\n}\n");
	put(dir, "include/linux/list.h",
	    "static inline void list_add(void) { }\n");
	put(dir, "fs/ext4/Kconfig", "config EXT4_FS\n\ttristate \"x\"\n");
	put(dir, "Kconfig.debug", "menuconfig KASAN\n\tbool \"x\"\n");
	put(dir, "Makefile", "VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 0\n");
	put(dir, "fs/ext4/Makefile",
	    "obj-$(CONFIG_EXT4_FS) += ext4.o\n"
	    "ext4-y := inode.o super.o\n");
	put(dir, "fs/ext4/super.c",
	    "module_param(debug, int, 0644);\n"
	    "static struct ctl_table t[] = {\n"
	    "\t{ .procname = \"ext4_ratio\", },\n};\n");
	put(dir, "include/uapi/linux/ext4.h",
	    "#define EXT4_IOC_GET _IOR('f', 1, int)\n#define EXT4_OLD 0x1234\n");
	idx = xasprintf("%s/symbols.idx", dir);
	if (symbols_build(dir, idx, NULL) < 0)
		abort();
	mapped = symbols_open(idx);
	preadx = symbols_open_pread(idx);
	if (!mapped || !preadx)
		abort();
	hist = history_once(dir);
	/* the tree stays for quotes (claims_quote.c), removed at exit */
	strcpy(tree, dir);
	atexit(remove_tree);
	free(idx);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = xmemdup0(size ? (const char *)data : "", size);
	struct evidence *ev;
	struct claims a, b;

	if (!mapped)
		index_once();
	ev = evidence_extract_text(text, size);
	symbols_resolve(mapped, ev);
	claims_check(text, size, ev, mapped, &a);
	claims_check(text, size, ev, preadx, &b);
	/* both readers see the same index */
	if (a.checks != b.checks || a.failed != b.failed ||
	    memcmp(a.failed_kind, b.failed_kind, sizeof(a.failed_kind)) ||
	    memcmp(a.checks_kind, b.checks_kind, sizeof(a.checks_kind)))
		abort();
	claims_weigh_kinds(&a, CLAIMS_TRACE, 3, 2, 0.5);
	/* the commit ids: the history's checks come on top of the tree's */
	claims_check_history(text, size, ev, mapped, hist, &b);
	if (b.checks < a.checks ||
	    b.checks - b.checks_kind[CLAIM_COMMIT] != a.checks ||
	    b.failed - b.failed_kind[CLAIM_COMMIT] != a.failed)
		abort();
	claims_check(text, size, ev, NULL, &a);
	claims_weigh(&a, 1, 1, 0.05);
	evidence_free(ev);
	free(text);
	return 0;
}
