// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_prefixes - prefix chains of subjects and of a blamed commit
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "prefixes.h"

/* expect_str - got, a new string, is want; or NULL when want is */
static void expect_str(char *got, const char *want)
{
	if (!want) {
		assert_null(got);
		return;
	}
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void expect_chain(const char *subject, const char *want)
{
	expect_str(prefix_chain(subject), want);
}

static void expect_culprit(const char *text, const char *want)
{
	expect_str(prefix_culprit(text, strlen(text)), want);
}

static void test_chain(void **state)
{
	(void)state;
	expect_chain("wifi: mac80211: fix a leak", "wifi: mac80211");
	expect_chain("[PATCH v2 3/7] net: stmmac: dwmac-rk: fix",
		     "net: stmmac: dwmac-rk");
	expect_chain("Re: [BUG] mm/slub: a warning", "mm/slub");
	expect_chain("xfs: fix", "xfs");
	/* the crypto tree's "crypto: DRIVER - subject" */
	expect_chain("[BUG] crypto: caam - RSA encrypt is short",
		     "crypto: caam");
	expect_chain("crypto: a plain - dash", "crypto");
	/* at most PREFIX_CHAIN_MAX components */
	expect_chain("a: b: c: d: e: f", "a: b: c: d");
	/* no subsystem: a crash title, a reply word, no colon */
	expect_chain("BUG: unable to handle page fault", NULL);
	expect_chain("KASAN: slab-use-after-free in foo", NULL);
	expect_chain("xhci_hcd dies on resume", NULL);
	expect_chain("time 12:30 is late", NULL);
	expect_chain("", NULL);
	expect_chain(NULL, NULL);
	/* a component longer than PREFIX_COMPONENT_MAX ends the chain */
	expect_chain("net: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa: x",
		     "net");
}

static void test_culprit(void **state)
{
	(void)state;
	/* a reverted or reapplied commit: its own subject's subsystem */
	expect_culprit(
		"commit: 55eabced1d566d2815cc215272ece998c8f2e93f "
		"(\"Reapply \"serial: 8250: Switch to nbcon console\"\")\n",
		"serial: 8250");
	expect_culprit(
		"commit: 0123456789ab (\"Revert \"wifi: iwlwifi: fix\"\")\n",
		"wifi: iwlwifi");
	/* a test robot's line */
	expect_culprit("Hello,\n\nkernel test robot noticed a WARNING on:\n\n"
		       "commit: 0123456789abcdef (\"wifi: mac80211: add "
		       "a check\")\nurl: https://example.org/\n",
		       "wifi: mac80211");
	/* the robot's build report: "commit: SHA [n/m] subject" */
	expect_culprit("tree:   https://git.kernel.org/pub/scm/linux/kernel/"
		       "git/netfilter/nf.git testing\n"
		       "head:   b1bad43d8b00ab31c8f93145a4c8db1567f0d2fe\n"
		       "commit: 20d564bba6b3806c26498061299a88330561efa5 [7/9] "
		       "netfilter: ctnetlink: ensure safe access\n",
		       "netfilter: ctnetlink");
	expect_culprit("commit: 20d564bba6b3 HID: input: map a usage\n",
		       "HID: input");
	expect_culprit("commit: 20d564bba6b3 [1/2]\n", NULL);
	/* a bisection log: the indented subject after the header */
	expect_culprit("The issue was bisected to:\n\n"
		       "commit 0123456789abcdef0123456789abcdef01234567\n"
		       "Author: A Developer <dev@example.com>\n"
		       "Date:   Mon Nov 30 10:00:00 2026 +0100\n\n"
		       "    net: stmmac: fix the reset\n",
		       "net: stmmac");
	/* quoted text is someone else's; a short id is no commit */
	expect_culprit("> commit: 0123456789ab (\"xfs: fix\")\n", NULL);
	expect_culprit("see abc123 (\"xfs: fix\")\n", NULL);
	/* a commit subject with no prefix gives nothing */
	expect_culprit("commit: 0123456789ab (\"Revert everything\")\n", NULL);
	/* a bisection whose header is not a commit's */
	expect_culprit("commit 0123456789abcdef0123456789abcdef01234567\n"
		       "Something: else\n\n    xfs: fix\n",
		       NULL);
	expect_culprit("", NULL);
	assert_null(prefix_culprit(NULL, 0));
}

static void expect_syz(const char *text, const char *want)
{
	expect_str(prefix_syz_fs(text, strlen(text)), want);
}

static void test_syz_fs(void **state)
{
	(void)state;
	expect_syz("r0 = syz_mount_image$ntfs3(&(0x7f0000000000)='ntfs3\\x00',",
		   "fs/ntfs3");
	expect_syz("syz_mount_image$vfat(&(0x7f0000000040), ...)", "fs/fat");
	expect_syz("syz_mount_image$iso9660(...)", "fs/isofs");
	expect_syz("syz_mount_image$ext4(...)", "fs/ext4");
	/* no name, a name too long, nothing mounted */
	expect_syz("syz_mount_image$(...)", NULL);
	expect_syz("syz_mount_image$"
		   "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa(",
		   NULL);
	expect_syz("r0 = openat$dir(0xffffffffffffff9c, ...)", NULL);
	assert_null(prefix_syz_fs(NULL, 0));
}

static void expect_tree(const char *subject, const char *want)
{
	expect_str(prefix_merged_tree(subject), want);
}

/* a linux-next build report blames the tree whose merge broke it */
static void test_merged_tree(void **state)
{
	(void)state;
	expect_tree("linux-next: build failure after merge of the kbuild tree",
		    "kbuild");
	expect_tree("linux-next: build warnings after merge of the net-next "
		    "tree",
		    "net-next");
	expect_tree("Re: linux-next: manual merge of the sound tree", NULL);
	expect_tree("linux-next: build failure after merging the drm-misc "
		    "tree, again",
		    "drm-misc");
	/* not a tree: "after merge of the patches" */
	expect_tree("boot hang after merge of the patches", NULL);
	expect_tree("after merge of the  tree", NULL);
	expect_tree(NULL, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chain),
		cmocka_unit_test(test_culprit),
		cmocka_unit_test(test_syz_fs),
		cmocka_unit_test(test_merged_tree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
