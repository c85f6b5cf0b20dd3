// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_crashlog - the precompiled crash-log pattern file
 *
 * 'triage update' writes every built-in pattern to a file that a
 * process maps and decodes pattern by pattern when it first needs one.
 * The compiled patterns live in process-wide state, so each variant
 * runs in a child of its own: one writes the file, others parse the
 * evidence corpus (tests/corpus/evidence) with a good file, with a
 * damaged one and with none, and all must describe every crash alike.
 * A crash in a long kernel log is described as the crash alone.
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
#include <sys/wait.h>
#include <unistd.h>

#include "crashlog.h"
#include "strbuf.h"
#include "util.h"

/* describe_corpus - title, type, guilty file and frames of every log */
static char *describe_corpus(size_t *ncrashes)
{
	const char *src = getenv("TRIAGE_SRCDIR");
	char *dir = xasprintf("%s/tests/corpus/evidence", src ? src : ".");
	struct strbuf sb = STRBUF_INIT(1u << 26);
	struct dirent **names;
	int n, i;

	*ncrashes = 0;
	n = scandir(dir, &names, NULL, alphasort);
	assert_true(n > 0);
	for (i = 0; i < n; i++) {
		char *path, *text;
		size_t len, k;
		struct crashlog *c;

		if (!ends_with(names[i]->d_name, ".txt")) {
			free(names[i]);
			continue;
		}
		path = xasprintf("%s/%s", dir, names[i]->d_name);
		assert_int_equal(read_file(path, 1 << 24, &text, &len), 0);
		c = crashlog_parse(text, len);
		sb_adds(&sb, names[i]->d_name);
		if (c) {
			(*ncrashes)++;
			sb_addf(&sb, ": %s | %s | %s\n", c->title, c->type,
				c->guilty_file ? c->guilty_file : "-");
			for (k = 0; k < c->nframes; k++)
				sb_addf(&sb, "  %s %s\n", c->frames[k].function,
					c->frames[k].file ? c->frames[k].file
							  : "-");
		}
		sb_addc(&sb, '\n');
		crashlog_free(c);
		free(text);
		free(path);
		free(names[i]);
	}
	free(names);
	free(dir);
	return sb_detach(&sb, NULL);
}

/*
 * in_child - run fn in a child; its output (a description, or a
 * failure) comes back through a pipe; exit status 0 required
 */
static char *in_child(int (*fn)(const char *path, struct strbuf *out),
		      const char *path)
{
	int fds[2], status;
	pid_t pid;
	struct strbuf sb = STRBUF_INIT(1u << 26);
	char buf[4096];
	ssize_t r;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct strbuf out = STRBUF_INIT(1u << 26);
		int rc;
		size_t off = 0;

		close(fds[0]);
		rc = fn(path, &out);
		while (off < out.len) {
			ssize_t w = write(fds[1], out.buf + off, out.len - off);

			if (w <= 0) {
				rc = 1;
				break;
			}
			off += (size_t)w;
		}
		_exit(rc);
	}
	close(fds[1]);
	while ((r = read(fds[0], buf, sizeof(buf))) > 0)
		sb_add(&sb, buf, (size_t)r);
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	return sb_detach(&sb, NULL);
}

static int child_save(const char *path, struct strbuf *out)
{
	(void)out;
	return crashlog_save_patterns(path) < 0;
}

/* child_parse - load path (expecting patterns or none), then describe */
static int child_parse(const char *path, struct strbuf *out, bool expect)
{
	size_t n = path ? crashlog_load_patterns(path) : 0, crashes;
	char *d;

	if (expect != (n > 100))
		return 2;
	d = describe_corpus(&crashes);
	sb_addf(out, "%zu crashes\n", crashes);
	sb_adds(out, d);
	free(d);
	return 0;
}

static int child_good(const char *path, struct strbuf *out)
{
	return child_parse(path, out, true);
}

static int child_refused(const char *path, struct strbuf *out)
{
	return child_parse(path, out, false);
}

static int child_none(const char *path, struct strbuf *out)
{
	(void)path;
	return child_parse(NULL, out, false);
}

static void test_pattern_file(void **state)
{
	char path[] = "/tmp/triage-rx-XXXXXX";
	int fd = mkstemp(path);
	char *none, *good, *damaged, *data;
	size_t len;
	uint32_t u;

	assert_true(fd >= 0);
	close(fd);
	free(in_child(child_save, path));
	none = in_child(child_none, path);
	good = in_child(child_good, path);
	assert_string_equal(good, none);
	/* the corpus has crashes: the comparison is not of two empties */
	assert_true(strtoul(good, NULL, 10) >= 10);
	printf("# %.*s with the pattern file as without\n",
	       (int)strcspn(good, "\n"), good);

	/* format 2 (or any other): refused, patterns compiled instead */
	assert_int_equal(read_file(path, 1 << 26, &data, &len), 0);
	memcpy(&u, data + 8, 4);
	assert_int_equal(u, 4);
	u = 3;
	memcpy(data + 8, &u, 4);
	assert_int_equal(write_file_atomic(path, data, len, 0600), 0);
	damaged = in_child(child_refused, path);
	assert_string_equal(damaged, none);
	free(damaged);

	/*
	 * a byte of every entry's code damaged (where pcre2 keeps the
	 * code's length, which pcre2_serialize_decode() follows): the
	 * file is taken, each pattern is refused when first needed (its
	 * sum), and compiled instead
	 */
	u = 4;
	memcpy(data + 8, &u, 4);
	{
		uint32_t n, i, code, code_len;

		memcpy(&n, data + 12, 4);
		for (i = 0; i < n; i++) {
			memcpy(&code, data + 32 + 24 * i + 8, 4);
			memcpy(&code_len, data + 32 + 24 * i + 12, 4);
			assert_true(code_len > 80 && code + code_len <= len);
			data[code + 75] ^= 0x10;
		}
	}
	assert_int_equal(write_file_atomic(path, data, len, 0600), 0);
	damaged = in_child(child_good, path);
	assert_string_equal(damaged, none);
	free(damaged);

	/* and every entry's code length: the same */
	{
		uint32_t n, i, zero = 0;

		memcpy(&n, data + 12, 4);
		for (i = 0; i < n; i++)
			memcpy(data + 32 + 24 * i + 12, &zero, 4);
	}
	assert_int_equal(write_file_atomic(path, data, len, 0600), 0);
	damaged = in_child(child_good, path);
	assert_string_equal(damaged, none);
	free(damaged);

	free(data);
	free(none);
	free(good);
	unlink(path);
}

static const char kasan_report[] =
	"[  100.000001][ T1234] BUG: KASAN: slab-use-after-free in xyz_release+0x1a/0x80\n"
	"[  100.000002][ T1234] Read of size 8 at addr ffff888012345678 by task a.out/1234\n"
	"[  100.000003][ T1234] \n"
	"[  100.000004][ T1234] CPU: 0 PID: 1234 Comm: a.out Not tainted 6.12.0 #1\n"
	"[  100.000005][ T1234] Call Trace:\n"
	"[  100.000006][ T1234]  <TASK>\n"
	"[  100.000007][ T1234]  dump_stack_lvl+0x10/0x20\n"
	"[  100.000008][ T1234]  print_report+0x10/0x20\n"
	"[  100.000009][ T1234]  kasan_report+0x10/0x20\n"
	"[  100.000010][ T1234]  xyz_release+0x1a/0x80 fs/xyz/file.c:42\n"
	"[  100.000011][ T1234]  __fput+0x10/0x20 fs/file_table.c:431\n"
	"[  100.000012][ T1234]  </TASK>\n";

/* describe_one - title, type, guilty file and frames of a log's crash */
static char *describe_one(const char *text, size_t len)
{
	struct crashlog *c = crashlog_parse(text, len);
	struct strbuf sb = STRBUF_INIT(1u << 20);
	size_t k;

	assert_non_null(c);
	sb_addf(&sb, "%s | %s | %s | %d\n", c->title, c->type,
		c->guilty_file ? c->guilty_file : "-", c->corrupted);
	for (k = 0; k < c->nframes; k++)
		sb_addf(&sb, "  %s %s\n", c->frames[k].function,
			c->frames[k].file ? c->frames[k].file : "-");
	crashlog_free(c);
	return sb_detach(&sb, NULL);
}

/*
 * A crash in the middle of 100 KB of kernel log (the title patterns
 * run from where their literal occurs, copied lines keep the masks
 * of the log's lines): described as the crash alone.
 */
static void test_crash_in_long_log(void **state)
{
	struct strbuf log = STRBUF_INIT(1u << 20);
	char *alone, *inlog;
	int i;

	alone = describe_one(kasan_report, strlen(kasan_report));
	assert_non_null(strstr(alone, "KASAN: slab-use-after-free Read in "
				      "xyz_release | KASAN | "));
	for (i = 0; i < 1000; i++)
		sb_addf(&log,
			"[   %d.%06d][ T99] xyz 0000:00:1f.%d: queue %d "
			"ready, BUG count %d, KASAN off\n",
			10 + i / 100, i, i % 8, i, i % 3);
	sb_adds(&log, kasan_report);
	for (i = 0; i < 400; i++)
		sb_addf(&log,
			"[  101.%06d][ T1234] xyz 0000:00:1f.%d: Read "
			"of size %d at queue %d, BUG count 0\n",
			i, i % 8, i % 16, i);
	inlog = describe_one(log.buf, log.len);
	assert_string_equal(inlog, alone);
	printf("# %.*s\n", (int)strcspn(alone, "\n"), alone);
	free(alone);
	free(inlog);
	sb_release(&log);
}

/*
 * A journal's lines: "kernel: " alone ("journalctl -o cat") and the
 * syslog form give the same crash and frames as the bare console
 */
static void test_journal_prefixes(void **state)
{
	static const char *const lines[] = {
		("WARNING: CPU: 3 PID: 1234 at drivers/usb/host/xhci-ring.c:1234"
		 " handle_tx_event+0x2f0/0x3a0 [xhci_hcd]"),
		"Modules linked in: xhci_pci xhci_hcd",
		"CPU: 3 UID: 0 PID: 1234 Comm: kworker/3:1 Not tainted 6.12.0 #1",
		"RIP: 0010:handle_tx_event+0x2f0/0x3a0 [xhci_hcd]",
		"Call Trace:",
		" <IRQ>",
		" xhci_handle_event+0x1a0/0x2d0 [xhci_hcd]",
		" xhci_irq+0x8c/0x1b0 [xhci_hcd]",
		" </IRQ>",
		"---[ end trace 0000000000000000 ]---",
	};
	static const char *const prefixes[] = {
		"",
		"kernel: ",
		"Dec 05 09:12:01 box kernel: ",
		"Dec  5 09:12:01.123456 box kernel: ",
		"2024-12-05 09:12:01 kernel: ",
		"2024-12-05T09:12:01.123456+01:00 box kernel: ",
	};
	char *want = NULL;
	size_t p, i;

	(void)state;
	for (p = 0; p < ARRAY_SIZE(prefixes); p++) {
		struct strbuf sb = STRBUF_INIT(1u << 20);
		char *got;

		sb_adds(&sb, "Hello, this is what the journal shows:\n");
		for (i = 0; i < ARRAY_SIZE(lines); i++)
			sb_addf(&sb, "%s%s\n", prefixes[p], lines[i]);
		got = describe_one(sb.buf, sb.len);
		sb_release(&sb);
		assert_non_null(strstr(got, "  xhci_irq "));
		if (!want)
			want = got;
		else {
			assert_string_equal(got, want);
			free(got);
		}
	}
	free(want);
}

/* The journal's and syslog's prefixes of a kernel line, and prose that
 * only looks like one */
static void test_journal_prefix_shapes(void **state)
{
	static const struct {
		const char *line;
		size_t want;
	} t[] = {
		{ "kernel: usb 1-1: reset", 8 },
		{ "kernel: ", 8 },
		{ "Dec 05 09:12:01 box kernel: usb 1-1: reset", 28 },
		{ "Dec  5 09:12:01 kernel: usb 1-1: reset", 24 },
		{ "Dec 05 09:12:01.123456 box kernel: usb 1-1: reset", 35 },
		{ "2024-12-05T09:12:01+01:00 box kernel: usb 1-1: reset", 38 },
		{ "2024-12-05 09:12:01 kernel: usb 1-1: reset", 28 },
		{ "Oct  1 12:00:00 box [kernel] usb 1-1: reset", 29 },
		/* the date cut off: a host's name alone */
		{ "qay kernel: RIP: 0010:nvkm_gr_units+0x9/0x30", 12 },
		{ "build-42.lab kernel:  <TASK>", 21 },
		/* prose that says whose kernel, a capital, a long name */
		{ "host kernel: 6.1.0, guest kernel: 6.12", 0 },
		{ "debian kernel: 6.1.0-13-amd64", 0 },
		{ "Qay kernel: x", 0 },
		{ "x kernel: x", 0 },
		{ "abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghij"
		  "abcd kernel: x",
		  0 },
		/* no seconds, no date, no kernel, too far, too short */
		{ "Feb 5 at 14:56 the kernel: it hung.", 0 },
		{ "Yesterday 09:12:01 box kernel: usb 1-1: reset", 0 },
		{ "Dec 05 09:12:01 box systemd[1]: Started foo.service", 0 },
		{ "Dec 05 09:12:01 box-with-a-very-long-name-that-goes-on-and-"
		  "on-and-on-and-on kernel: x",
		  0 },
		{ "Dec 05 kernel: x", 0 },
		{ "DEC 05 09:12:01 box kernel: usb 1-1: reset", 0 },
		{ "the kernel: 6.12.1", 0 },
		{ "", 0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(t); i++) {
		size_t len = strlen(t[i].line);
		/* a buffer of the line's length: no NUL to stop at */
		char *copy = xmalloc(len + 1);

		memcpy(copy, t[i].line, len);
		if (crashlog_journal_prefix(copy, len) != t[i].want)
			fail_msg("%s: %zu, not %zu", t[i].line,
				 crashlog_journal_prefix(copy, len), t[i].want);
		free(copy);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pattern_file),
		cmocka_unit_test(test_journal_prefixes),
		cmocka_unit_test(test_journal_prefix_shapes),
		/* after it: this one compiles patterns in this process */
		cmocka_unit_test(test_crash_in_long_log),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
