// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_printk - the printk format index: which calls are log calls,
 * formats normalized, an index built from a small fake tree, log lines
 * matched against it, a damaged or older index refused, and the
 * evidence stage keeping the matches of a report's lines
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
#include <time.h>
#include <unistd.h>

#include "evidence.h"
#include "maintainers.h"
#include "map.h"
#include "printk.h"
#include "report.h"
#include "sections.h"
#include "tree_scratch.h"
#include "util.h"

static bool is_call(const char *name)
{
	return printk_log_call(name, strlen(name));
}

static void test_log_calls(void **state)
{
	static const char *const yes[] = {
		"printk",
		"pr_err",
		"pr_warn_once",
		"pr_err_ratelimited",
		"dev_err",
		"dev_err_probe",
		"netdev_warn",
		"drm_err",
		"DRM_DEV_ERROR",
		"btrfs_err_rl",
		"btrfs_err_in_rcu",
		"ext4_error_inode",
		"ext4_msg",
		"xfs_alert_tag",
		"ath11k_warn",
		"IWL_ERR",
		"WARN",
		"WARN_ONCE",
		"dev_WARN_ONCE",
		"panic",
		"bt_dev_err",
		"dev_printk",
	};
	static const char *const no[] = {
		"pr_debug",	"pr_devel", "dev_dbg", "pr_cont",
		"seq_printf",	"snprintf", "sprintf", "WARN_ON",
		"WARN_ON_ONCE", "err",	    "info",    "drm_WARN_ON",
		"trace_printk",
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(yes); i++)
		if (!is_call(yes[i]))
			fail_msg("%s is a log call", yes[i]);
	for (i = 0; i < ARRAY_SIZE(no); i++)
		if (is_call(no[i]))
			fail_msg("%s is no log call", no[i]);
}

static void norm_is(const char *fmt, const char *want, int nconst)
{
	char out[256], w[256];
	size_t i;
	int n = printk_normalize(fmt, strlen(fmt), out, sizeof(out));

	/* '~' in want stands for the wildcard */
	for (i = 0; want[i]; i++)
		w[i] = want[i] == '~' ? PRINTK_WILD : want[i];
	w[i] = '\0';
	assert_int_equal(n, nconst);
	if (nconst >= 0)
		assert_string_equal(out, w);
}

static void test_normalize(void **state)
{
	(void)state;
	norm_is("failed to send WMI_%s cmd\n", "failed to send WMI_~ cmd", 19);
	/* conversions of every shape, "%%" is a percent sign */
	norm_is("%pM: rate now %llu%% of %*ph, %.*s %-08lx\n",
		"~: rate now ~% of ~, ~ ~", 12);
	/* vsprintf's pointer extensions are one conversion */
	norm_is("addr %pI4 via %pOFf now\n", "addr ~ via ~ now", 10);
	/* the first line only; leading and trailing blanks go */
	norm_is("  firmware crashed here\nsecond line\n",
		"firmware crashed here", 19);
	/* KERN_SOH and its level, written out */
	norm_is("\0013device went away now", "device went away now", 17);
	/* too few constants, or no word between non-word characters */
	norm_is("%s: %d %s\n", "", -1);
	norm_is("error %d\n", "", -1);
	norm_is("0x%08x 0x%08x 0x%08x 0x%08x\n", "", -1);
}

static const char disk_io[] =
	"// SPDX-License-Identifier: GPL-2.0\n"
	"#include \"disk-io.h\"\n"
	"/* pr_err(\"a decoy in a comment, never a log line %d\\n\", x); */\n"
	"static int verify(struct btrfs_fs_info *fs_info, u64 a, int m)\n"
	"{\n"
	"\tchar c = '\"';\n"
	"\tbtrfs_err_rl(fs_info,\n"
	"\"parent transid verify failed on logical %llu mirror %u wanted %llu found %llu\",\n"
	"\t\t     a, m, b->gen, found);\n"
	"\tseq_printf(m, \"not a log line at all, a file %d\\n\", x);\n"
	"\tpr_debug(\"a debug message nobody sees %d\\n\", x);\n"
	"\treturn 0;\n"
	"}\n";

static const char hub[] =
	"static void hub_port_init(struct usb_device *udev)\n"
	"{\n"
	"\tif (r < 0)\n"
	"\t\tdev_err(&udev->dev, \"device descriptor read/64, error %d\\n\",\n"
	"\t\t\tr);\n"
	"\tdev_info(&udev->dev, \"%s %s USB device number %d using %s\\n\",\n"
	"\t\t (udev->config) ? \"reset\" : \"new\", speed, devnum,\n"
	"\t\t driver_name);\n"
	"}\n";

static const char wmi[] =
	"int ath11k_wmi_pdev_set_param(struct ath11k *ar)\n"
	"{\n"
	"\tif (ret)\n"
	"\t\tath11k_warn(ar->ab, \"failed to send WMI_PDEV_SET_PARAM cmd\\n\");\n"
	"\tath11k_warn(ar->ab, \"failed to allocate ring buffer %d\\n\", ret);\n"
	"}\n";

static const char foo[] =
	"#define DRV_NAME \"foo\"\n"
	"static void foo_irq(int x)\n"
	"{\n"
	"\tprintk(KERN_ERR DRV_NAME \": firmware \" \"crashed at %d\\n\", x);\n"
	"\tdev_warn(dev, \"failed to allocate ring buffer %d\\n\", ret);\n"
	"\tWARN(x > 2, \"foo: unexpected state %d in irq\\n\", x);\n"
	"\tdev_err(dev, \"lost the link %d\\n\", x);\n"
	"}\n";

static const char tools[] =
	"int main(void) { pr_err(\"a tool's message, no kernel's %d\\n\", 1); }\n";

/* build - the fake tree's index into dir/printk.idx */
static struct printk_index *build(char dir[TREE_DIR_MAX], char **idx)
{
	struct printk_stats st;
	struct printk_index *pk;

	tree_make(dir, "triage-printk");
	tree_write(dir, "fs/btrfs/disk-io.c", disk_io);
	tree_write(dir, "drivers/usb/core/hub.c", hub);
	tree_write(dir, "drivers/usb/core/hub.h",
		   "/* pr_err(\"in a header\"); */\n");
	tree_write(dir, "drivers/net/wireless/ath/ath11k/wmi.c", wmi);
	tree_write(dir, "drivers/foo/foo.c", foo);
	tree_write(dir, "tools/perf/perf.c", tools);
	tree_write(dir, "kernel/module/main.c",
		   "void print_modules(void)\n{\n"
		   "\tprintk(KERN_DEFAULT \"Modules linked in:\");\n}\n");
	*idx = xasprintf("%s/printk.idx", dir);
	assert_int_equal(printk_build(dir, *idx, &st), 0);
	assert_int_equal(st.files, 5);
	assert_int_equal(st.formats, 9);
	pk = printk_open(*idx);
	assert_non_null(pk);
	assert_int_equal(printk_nformats(pk), 9);
	return pk;
}

/* match_one - line matches one format, printed by file with call */
static void match_one(const struct printk_index *pk, const char *line,
		      const char *call, const char *file, unsigned total)
{
	struct printk_hit hits[4];
	const char *files[PRINTK_FILES_MAX];
	unsigned t;
	size_t n = printk_match(pk, line, strlen(line), hits, 4), nf;

	if (n != 1)
		fail_msg("'%s': %zu matches, not 1", line, n);
	assert_string_equal(printk_call(pk, hits[0].format), call);
	nf = printk_files(pk, hits[0].format, files, PRINTK_FILES_MAX, &t);
	assert_int_equal(t, total);
	assert_int_equal(nf, total);
	assert_string_equal(files[0], file);
}

static void no_match(const struct printk_index *pk, const char *line)
{
	struct printk_hit hits[4];

	if (printk_match(pk, line, strlen(line), hits, 4))
		fail_msg("'%s' matched '%s'", line,
			 printk_text(pk, hits[0].format));
}

static void test_build_and_match(void **state)
{
	char dir[TREE_DIR_MAX], *idx;
	struct printk_index *pk = build(dir, &idx);
	struct printk_hit hits[4];
	const char *files[PRINTK_FILES_MAX], *line;
	unsigned total;
	size_t n;

	(void)state;
	match_one(
		pk,
		"BTRFS error (device sda1): parent transid verify failed on logical 30408704 mirror 1 wanted 17 found 15",
		"btrfs_err_rl", "fs/btrfs/disk-io.c", 1);
	match_one(pk, "usb 1-2: device descriptor read/64, error -71",
		  "dev_err", "drivers/usb/core/hub.c", 1);
	match_one(pk,
		  "usb 1-3: new high-speed USB device number 5 using xhci_hcd",
		  "dev_info", "drivers/usb/core/hub.c", 1);
	match_one(
		pk,
		"ath11k_pci 0000:03:00.0: failed to send WMI_PDEV_SET_PARAM cmd",
		"ath11k_warn", "drivers/net/wireless/ath/ath11k/wmi.c", 1);
	/* adjacent literals joined, a macro between them any text */
	match_one(pk, "foo: firmware crashed at 12", "printk",
		  "drivers/foo/foo.c", 1);
	/* the level: the call's name, else printk()'s KERN_* */
	line = "foo: firmware crashed at 12";
	assert_int_equal(printk_match(pk, line, strlen(line), hits, 4), 1);
	assert_int_equal(printk_level(pk, hits[0].format), PRINTK_ERR);
	line = "usb 1-3: new high-speed USB device number 5 using xhci_hcd";
	assert_int_equal(printk_match(pk, line, strlen(line), hits, 4), 1);
	assert_int_equal(printk_level(pk, hits[0].format), PRINTK_INFO);
	line = "Modules linked in: xfs btrfs";
	assert_int_equal(printk_match(pk, line, strlen(line), hits, 4), 1);
	assert_int_equal(printk_level(pk, hits[0].format), PRINTK_UNKNOWN);
	line = "foo: unexpected state 3 in irq";
	assert_int_equal(printk_match(pk, line, strlen(line), hits, 4), 1);
	assert_int_equal(printk_level(pk, hits[0].format), PRINTK_WARN);
	match_one(pk, "foo: unexpected state 3 in irq", "WARN",
		  "drivers/foo/foo.c", 1);
	/* one format, two files */
	line = "ath11k_pci 0000:03:00.0: failed to allocate ring buffer -12";
	n = printk_match(pk, line, strlen(line), hits, 4);
	assert_int_equal(n, 1);
	assert_int_equal(printk_files(pk, hits[0].format, files,
				      PRINTK_FILES_MAX, &total),
			 2);
	assert_int_equal(total, 2);
	/* fragments out of order, or missing; comments, seq_printf(),
	 * pr_debug(), headers and tools/ are not indexed */
	no_match(pk, "usb 1-2: error -71 device descriptor read/64,");
	no_match(pk, "parent transid verify failed on logical 1 mirror 2");
	no_match(pk, "a decoy in a comment, never a log line 3");
	no_match(pk, "not a log line at all, a file 3");
	no_match(pk, "a debug message nobody sees 3");
	no_match(pk, "a tool's message, no kernel's 1");
	printk_free(pk);
	free(idx);
	tree_remove(dir);
}

static void test_cache(void **state)
{
	char dir[TREE_DIR_MAX], *idx;
	struct printk_index *pk = build(dir, &idx);
	struct printk_cache c;
	struct printk_hit hits[4], again[4];
	static const char *const lines[] = {
		"usb 1-2: device descriptor read/64, error -71",
		"usb 3-14: device descriptor read/64, error -110",
		"usb 3-14: device descriptor read/64, error -110 now",
		"usb 3-14: a line of no format at all",
		"usb 3-15: a line of no format at all",
	};
	size_t n;

	(void)state;
	memset(&c, 0, sizeof(c));
	n = printk_match_cached(pk, &c, lines[0], strlen(lines[0]), hits, 4);
	assert_int_equal(n, 1);
	assert_int_equal(c.reused, 0);
	/* the same but for its numbers: from the cache, the same format */
	n = printk_match_cached(pk, &c, lines[1], strlen(lines[1]), again, 4);
	assert_int_equal(n, 1);
	assert_int_equal(c.reused, 1);
	assert_int_equal(again[0].format, hits[0].format);
	/* another shape: looked up (and matched: the end is free) */
	n = printk_match_cached(pk, &c, lines[2], strlen(lines[2]), again, 4);
	assert_int_equal(n, 1);
	assert_int_equal(c.reused, 1);
	/* no match is remembered too */
	assert_int_equal(printk_match_cached(pk, &c, lines[3], strlen(lines[3]),
					     hits, 4),
			 0);
	assert_int_equal(printk_match_cached(pk, &c, lines[4], strlen(lines[4]),
					     hits, 4),
			 0);
	assert_int_equal(c.reused, 2);
	printk_free(pk);
	free(idx);
	tree_remove(dir);
}

static void write_bytes(const char *path, const void *p, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, p, n), (ssize_t)n);
	close(fd);
}

static void test_damaged(void **state)
{
	char dir[TREE_DIR_MAX], *idx, *bad;
	struct printk_index *pk = build(dir, &idx);
	char *buf;
	size_t len;
	uint32_t v;

	(void)state;
	printk_free(pk);
	assert_int_equal(read_file(idx, 1 << 20, &buf, &len), 0);
	bad = xasprintf("%s/bad.idx", dir);
	/* not an index */
	write_bytes(bad, "hello, world, not an index", 26);
	assert_null(printk_open(bad));
	/* cut */
	write_bytes(bad, buf, 40);
	assert_null(printk_open(bad));
	write_bytes(bad, buf, len - 8);
	assert_null(printk_open(bad));
	/* an older format */
	memcpy(&v, buf + 8, 4);
	v--;
	memcpy(buf + 8, &v, 4);
	write_bytes(bad, buf, len);
	assert_null(printk_open(bad));
	v++;
	memcpy(buf + 8, &v, 4);
	/* an array out of the file */
	memset(buf + 48, 0xff, 4);
	write_bytes(bad, buf, len);
	assert_null(printk_open(bad));
	free(buf);
	free(bad);
	free(idx);
	tree_remove(dir);
}

/* the previous format (1: one mapped image) is refused, never misread:
 * 'triage update' rebuilds it */
static void test_older_format(void **state)
{
	char dir[TREE_DIR_MAX], *idx, *old;
	struct printk_index *pk = build(dir, &idx);
	char *buf;
	size_t len;
	uint32_t v = 1;

	(void)state;
	printk_free(pk);
	assert_int_equal(read_file(idx, 1 << 20, &buf, &len), 0);
	old = xasprintf("%s/old.idx", dir);
	memcpy(buf + 8, &v, 4);
	write_bytes(old, buf, len);
	assert_null(printk_open(old));
	free(buf);
	free(old);
	free(idx);
	tree_remove(dir);
}

/*
 * A lookup reads little: opening reads the header only, the first line
 * the filter (one read), a line then one bucket per word the filter
 * passes (kept: a line again reads nothing), and a matched format's
 * details one record and one detail, kept for the caller.  A mapping
 * brought every page-cache folio it touched into the resident set.
 */
static void test_few_reads(void **state)
{
	char dir[TREE_DIR_MAX], *idx;
	struct printk_index *pk = build(dir, &idx);
	struct printk_hit hits[4];
	const char *files[PRINTK_FILES_MAX];
	const char *line = "usb 1-2: device descriptor read/64, error -71";
	const char *none = "nothing of the kernel here, only prose 3";
	unsigned long reads, bytes, r0;
	unsigned total;

	(void)state;
	printk_io(pk, &reads, &bytes);
	assert_int_equal(reads, 0);
	assert_int_equal(printk_match(pk, none, strlen(none), hits, 4), 0);
	printk_io(pk, &reads, &bytes);
	assert_int_equal(reads, 1);
	r0 = reads;
	assert_int_equal(printk_match(pk, line, strlen(line), hits, 4), 1);
	printk_io(pk, &reads, &bytes);
	assert_true(reads > r0 && reads <= r0 + 2);
	r0 = reads;
	assert_int_equal(printk_match(pk, line, strlen(line), hits, 4), 1);
	printk_io(pk, &reads, &bytes);
	assert_int_equal(reads, r0);
	assert_string_equal(printk_call(pk, hits[0].format), "dev_err");
	printk_io(pk, &reads, &bytes);
	assert_int_equal(reads, r0 + 2);
	assert_int_equal(printk_level(pk, hits[0].format), PRINTK_ERR);
	assert_string_equal(printk_text(pk, hits[0].format),
			    "device descriptor read/64, error \001");
	assert_int_equal(printk_files(pk, hits[0].format, files,
				      PRINTK_FILES_MAX, &total),
			 1);
	assert_string_equal(files[0], "drivers/usb/core/hub.c");
	printk_io(pk, &reads, &bytes);
	assert_int_equal(reads, r0 + 2);
	printk_free(pk);
	free(idx);
	tree_remove(dir);
}

/* what the index says of itself: formats, files, tree, when built */
static void test_about(void **state)
{
	char dir[TREE_DIR_MAX], *idx, *real;
	time_t t0 = time(NULL);
	struct printk_index *pk = build(dir, &idx);
	struct printk_about a;

	(void)state;
	printk_about(pk, &a);
	assert_int_equal(a.version, PRINTK_VERSION);
	assert_int_equal(a.formats, 9);
	assert_int_equal(a.scanned, 5);
	real = realpath(dir, NULL);
	assert_non_null(real);
	assert_string_equal(a.tree, real);
	assert_true(a.built >= (int64_t)t0 && a.built <= (int64_t)time(NULL));
	free(real);
	printk_free(pk);
	free(idx);
	tree_remove(dir);
}

/* a damaged bucket, behind a sound header: no match, no read outside */
static void test_damaged_bucket(void **state)
{
	char dir[TREE_DIR_MAX], *idx, *bad;
	struct printk_index *pk = build(dir, &idx);
	const char *line = "usb 1-2: device descriptor read/64, error -71";
	struct printk_hit hits[4];
	uint32_t off, size;
	char *buf;
	size_t len, i;

	(void)state;
	printk_free(pk);
	assert_int_equal(read_file(idx, 1 << 20, &buf, &len), 0);
	bad = xasprintf("%s/bad.idx", dir);
	/* the buckets' area: its offset and size in the header */
	memcpy(&off, buf + 48, 4);
	memcpy(&size, buf + 52, 4);
	assert_true(size > 0 && off + size <= len);
	for (i = 0; i < 3; i++) {
		memset(buf + off, i == 0 ? 0xff : i == 1 ? 0x01 : 0x7f, size);
		write_bytes(bad, buf, len);
		pk = printk_open(bad);
		assert_non_null(pk);
		assert_int_equal(printk_match(pk, line, strlen(line), hits, 4),
				 0);
		printk_free(pk);
	}
	free(buf);
	free(bad);
	free(idx);
	tree_remove(dir);
}

static struct report *report_of(const char *body)
{
	struct report *r = report_new();

	free(r->subject);
	r->subject = xstrdup("usb stopped working");
	r->body = xstrdup(body);
	r->body_len = strlen(body);
	return r;
}

static void test_evidence(void **state)
{
	char dir[TREE_DIR_MAX], *idx;
	struct printk_index *pk = build(dir, &idx);
	struct report *r = report_of(
		"After the update my disk is gone:\n"
		"\n"
		"Dec 05 09:12:01 host kernel: usb 1-2: device descriptor read/64, error -71\n"
		"[   12.345678] usb 1-2: device descriptor read/64, error -110\n"
		"> foo: firmware crashed at 3\n"
		"[   13.000000] ath11k_pci 0000:03:00.0: failed to allocate ring buffer -12\n");
	struct evidence *ev;
	size_t i;

	(void)state;
	ev = evidence_extract_logs(r, pk);
	assert_int_equal(ev->nlog_matches, 2);
	assert_string_equal(ev->log_matches[0].call, "dev_err");
	assert_int_equal(ev->log_matches[0].lines, 2);
	assert_int_equal(ev->log_matches[0].nfiles, 1);
	assert_string_equal(ev->log_matches[0].files[0],
			    "drivers/usb/core/hub.c");
	assert_true(ev->log_matches[0].share == 1.0);
	/* the quoted line is no console output: its 18 constants are not
	 * enough (EVIDENCE_LOG_PROSE_MIN) */
	assert_int_equal(ev->log_matches[1].total, 2);
	for (i = 0; i < 2; i++)
		assert_true(
			starts_with(ev->log_matches[1].files[i], "drivers/"));
	evidence_free(ev);
	/* without the index, nothing */
	ev = evidence_extract(r);
	assert_int_equal(ev->nlog_matches, 0);
	evidence_free(ev);
	report_free(r);
	/* a line that is no console output needs EVIDENCE_LOG_PROSE_MIN
	 * constants: "failed to allocate ring buffer" has 26, "lost the
	 * link" 11, enough on the console only */
	r = report_of("The failed to allocate ring buffer 3 message.\n"
		      "and we lost the link 3 times\n"
		      "[    1.000000] foo 0000:00:01.0: lost the link 3\n");
	ev = evidence_extract_logs(r, pk);
	assert_int_equal(ev->nlog_matches, 2);
	assert_int_equal(ev->log_matches[0].total, 2);
	assert_int_equal(ev->log_matches[1].lines, 1);
	assert_string_equal(ev->log_matches[1].call, "dev_err");
	evidence_free(ev);
	report_free(r);
	printk_free(pk);
	free(idx);
	tree_remove(dir);
}

static const char maintainers[] =
	"BTRFS FILE SYSTEM\nM:\tb <b@k.org>\nF:\tfs/btrfs/\n"
	"MODULE SUPPORT\nM:\tm <m@k.org>\nF:\tkernel/module/\n"
	"USB SUBSYSTEM\nM:\tg <g@k.org>\nF:\tdrivers/usb/\n"
	"QUALCOMM ATH11K WIRELESS DRIVER\nM:\tj <j@k.org>\n"
	"F:\tdrivers/net/wireless/ath/ath11k/\n"
	"FOO DRIVER\nM:\tf <f@k.org>\nF:\tdrivers/foo/\n"
	"THE REST\nM:\tl <l@k.org>\nF:\t*\nF:\t*/\n";

/* sections_of - the ranked sections of a report with body */
static void sections_of(const struct printk_index *pk, const struct map *map,
			const char *body, struct section_list *out)
{
	struct report *r = report_of(body);
	struct evidence *ev = evidence_extract_logs(r, pk);

	sections_for_report(map, ev, r->body, r->body_len, out);
	evidence_free(ev);
	report_free(r);
}

static void test_sections(void **state)
{
	char dir[TREE_DIR_MAX], *idx;
	struct printk_index *pk = build(dir, &idx);
	struct maintainers m;
	struct section_list l;
	struct map *map;

	(void)state;
	maintainers_init(&m);
	maintainers_parse(&m, maintainers, strlen(maintainers), "MAINTAINERS");
	map = map_compile(&m, NULL);
	maintainers_release(&m);
	assert_non_null(map);
	/* a log line and nothing else: the file that prints it */
	sections_of(
		pk, map,
		"BTRFS error (device sda1): parent transid verify failed on logical 30408704 mirror 1 wanted 17 found 15\n",
		&l);
	assert_int_equal(l.n, 1);
	assert_string_equal(map_title(map, l.v[0].section),
			    "BTRFS FILE SYSTEM");
	assert_string_equal(
		l.v[0].why,
		"log line matches btrfs_err_rl() format in fs/btrfs/disk-io.c 0.20");
	section_list_release(&l);
	/* a format two files print: half each */
	sections_of(
		pk, map,
		"[    1.000000] foo 0000:00:01.0: failed to allocate ring buffer -12\n",
		&l);
	assert_int_equal(l.n, 2);
	assert_true(l.v[0].score > 0.0999 && l.v[0].score < 0.1001);
	assert_true(l.v[1].score > 0.0999 && l.v[1].score < 0.1001);
	section_list_release(&l);
	/* an info line says what ran: a third; "Modules linked in:" comes
	 * with every crash: nothing */
	sections_of(
		pk, map,
		"[    1.000000] usb 1-3: new high-speed USB device number 5 using xhci_hcd\n"
		"[    1.000000] Modules linked in: xfs btrfs\n",
		&l);
	assert_int_equal(l.n, 1);
	assert_string_equal(map_title(map, l.v[0].section), "USB SUBSYSTEM");
	assert_true(l.v[0].score > 0.0666 && l.v[0].score < 0.0667);
	section_list_release(&l);
	/* no index, no signal */
	sections_of(NULL, map,
		    "usb 1-2: device descriptor read/64, error -71\n", &l);
	assert_int_equal(l.n, 0);
	section_list_release(&l);
	map_free(map);
	printk_free(pk);
	free(idx);
	tree_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_log_calls),
		cmocka_unit_test(test_normalize),
		cmocka_unit_test(test_build_and_match),
		cmocka_unit_test(test_cache),
		cmocka_unit_test(test_damaged),
		cmocka_unit_test(test_older_format),
		cmocka_unit_test(test_few_reads),
		cmocka_unit_test(test_about),
		cmocka_unit_test(test_damaged_bucket),
		cmocka_unit_test(test_evidence),
		cmocka_unit_test(test_sections),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
