// SPDX-License-Identifier: GPL-2.0-only
/*
 * audit - what the filter's audit step costs (bench/audit.sh runs it)
 *
 *	audit noop DB             do nothing (the process baseline)
 *	audit one-nockpt DB       open (AUDIT_FILTER) + the filter's one
 *	audit one-ckpt DB         transaction + close; ckpt: default close
 *	audit phases N DB         the same N times in one process: CPU
 *	                          per phase (open, transaction, close)
 *	audit conc N DB [ckpt]    N processes at once, each "one"; prints
 *	                          failures, wall time and writes/s
 *	audit hold SECONDS DB     keep a connection open (as a resident
 *	                          'triage deliver' would), then exit
 *
 * The transaction is what triage-filter writes for a 6 KB report:
 * duplicate lookup, report + message, evidence with 8 frames,
 * classification with 4 rule hits, 3 sections, decision, outbox row.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "audit.h"
#include "evidence.h"
#include "report.h"
#include "util.h"

static char raw[6144];

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void fill_report(struct report *r, unsigned long seq)
{
	struct timespec ts;
	size_t i;

	static const char line[] = "[   12.345678] xfs_iget+0x1a2/0x3c0 [xfs] "
				   "RIP: 0010:xfs_iget_cache_hit+0x21/0x50\n";

	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(r->sha256, sizeof(r->sha256), "%016lx%016lx%016lx%016lx",
		 (unsigned long)getpid(), (unsigned long)ts.tv_sec,
		 (unsigned long)ts.tv_nsec, seq);
	/* a 6 KB text message: a header, then 72-byte log lines */
	for (i = 0; i + sizeof(line) - 1 <= sizeof(raw); i += sizeof(line) - 1)
		memcpy(raw + i, line, sizeof(line) - 1);
	memset(raw + i, '\n', sizeof(raw) - i);
	memcpy(raw, "Subject: [BUG] xfs: oops\n\n", 26);
	r->raw = xmemdup0(raw, sizeof(raw));
	r->raw_len = sizeof(raw);
	r->message_id = xasprintf("%s@bench.example", r->sha256);
	r->body = xmemdup0(raw + 26, sizeof(raw) - 26);
	r->body_len = sizeof(raw) - 26;
	r->envelope_from = xstrdup("rita@example.org");
	r->envelope_to = xstrdup("bugs@example.org");
}

static int transaction(struct audit *db, unsigned long seq)
{
	static char *files[] = { "fs/xfs/xfs_icache.c", "fs/xfs/xfs_inode.c",
				 "fs/namei.c" };
	static char *funcs[] = { "xfs_iget", "xfs_lookup", "path_openat" };
	static const struct audit_rule_hit hits[] = {
		{ "DMESG_TIMESTAMPS", 0.5, "dmesg" },
		{ "DISTRO_KERNEL", 1.0, "distro kernel" },
		{ "OOPS", 0.8, "an oops" },
		{ "PLAIN_TEXT", 0.2, "text/plain" },
	};
	static const struct audit_section secs[] = {
		{ "XFS FILESYSTEM", 1.0, "guilty file" },
		{ "FILESYSTEMS (VFS and infrastructure)", 0.45, "frame 3" },
		{ "MEMORY MANAGEMENT", 0.2, "frame 6" },
	};
	struct frame frames[8];
	struct evidence ev = {
		.title = "BUG: unable to handle page fault in xfs_iget",
		.crash_type = "BUG",
		.guilty_file = files[0],
		.files = files,
		.nfiles = 3,
		.functions = funcs,
		.nfunctions = 3,
		.kernel_version = "6.12.0-1-amd64",
		.tainted = "Not tainted",
		.hardware = "LENOVO 20XW/20XW, BIOS N32ET75W",
		.frames = frames,
		.nframes = 8,
	};
	struct audit_classification c = {
		.class = "user",
		.score_user = 2.5,
		.confidence = 0.9,
		.certain = true,
		.model_version = "bench",
		.header = "user; score=2.5",
		.hits = hits,
		.nhits = 4,
	};
	struct audit_decision d = {
		.action = "forward",
		.recipient = "xfs-triage@example.org",
		.reason = "B: mailto",
		.candidates = "xfs-triage@example.org 1.0 B:\n",
	};
	struct audit_outbox_new m = { .kind = "forward",
				      .recipients = "xfs-triage@example.org" };
	struct report *r = report_new();
	int64_t id, dup;
	int i, rc = -1;

	for (i = 0; i < 8; i++)
		frames[i] = (struct frame){ .function = funcs[i % 3],
					    .file = files[i % 3],
					    .line = 100 + i };
	fill_report(r, seq);
	m.message = r->raw;
	m.message_len = r->raw_len;
	if (audit_begin(db) < 0)
		goto out;
	if (audit_find_duplicate(db, r->sha256, r->message_id, &dup) != 0 ||
	    audit_insert_report(db, r, 0, "forwarded", 0, &id) ||
	    audit_insert_evidence(db, id, &ev) ||
	    audit_insert_classification(db, id, &c) ||
	    audit_insert_sections(db, id, secs, 3) ||
	    audit_insert_decision(db, id, &d, NULL))
		goto fail;
	m.report = id;
	if (audit_outbox_enqueue(db, &m, NULL) || audit_commit(db))
		goto fail;
	rc = 0;
	goto out;
fail:
	audit_rollback(db);
out:
	report_free(r);
	return rc;
}

static int one(const char *path, bool nockpt)
{
	struct audit *db;
	bool temp;
	int rc;

	if (audit_open(path, AUDIT_CREATE | (nockpt ? AUDIT_FILTER : 0), 0, &db,
		       &temp) < 0)
		return 75;
	rc = transaction(db, 0);
	audit_close(db);
	return rc ? 75 : 0;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int phases(int n, const char *path)
{
	double *o = xcalloc(n, sizeof(double)), *t = xcalloc(n, sizeof(double));
	double *c = xcalloc(n, sizeof(double));
	int i;

	for (i = 0; i < n; i++) {
		struct audit *db;
		bool temp;
		double t0 = cpu_ms(), t1, t2;

		if (audit_open(path, AUDIT_CREATE | AUDIT_FILTER, 0, &db,
			       &temp) < 0)
			return 1;
		t1 = cpu_ms();
		if (transaction(db, (unsigned long)i) < 0)
			return 1;
		t2 = cpu_ms();
		audit_close(db);
		o[i] = t1 - t0;
		t[i] = t2 - t1;
		c[i] = cpu_ms() - t2;
	}
	qsort(o, n, sizeof(double), cmp);
	qsort(t, n, sizeof(double), cmp);
	qsort(c, n, sizeof(double), cmp);
	printf("in-process CPU medians over %d (ms): open=%.3f "
	       "transaction=%.3f close=%.3f\n",
	       n, o[n / 2], t[n / 2], c[n / 2]);
	return 0;
}

static int conc(int n, const char *path, bool nockpt)
{
	int go[2], i, status, failures = 0;
	double t0;
	char c;

	if (pipe(go) < 0)
		return 1;
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return 1;
		if (pid == 0) {
			close(go[1]);
			if (read(go[0], &c, 1) != 0)
				_exit(2);
			_exit(one(path, nockpt));
		}
	}
	close(go[0]);
	t0 = wall_ms();
	close(go[1]);
	for (i = 0; i < n; i++)
		if (wait(&status) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			failures++;
	t0 = wall_ms() - t0;
	printf("%d concurrent writers (%s): %d failures, %.0f ms, %.0f "
	       "writes/s\n",
	       n, nockpt ? "no ckpt on close" : "ckpt on close", failures, t0,
	       (n - failures) / (t0 / 1000));
	return failures != 0;
}

int main(int argc, char **argv)
{
	msg_setup("audit-bench", 75, false);
	if (argc == 3 && !strcmp(argv[1], "noop"))
		return 0;
	if (argc == 3 && !strcmp(argv[1], "one-nockpt"))
		return one(argv[2], true);
	if (argc == 3 && !strcmp(argv[1], "one-ckpt"))
		return one(argv[2], false);
	if (argc == 4 && !strcmp(argv[1], "hold")) {
		struct audit *db;
		bool temp;

		if (audit_open(argv[3], AUDIT_CREATE, 0, &db, &temp) < 0)
			return 75;
		audit_user_version(db);
		sleep((unsigned)atoi(argv[2]));
		audit_close(db);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "phases"))
		return phases(atoi(argv[2]), argv[3]);
	if (argc >= 4 && !strcmp(argv[1], "conc"))
		return conc(atoi(argv[2]), argv[3],
			    !(argc == 5 && !strcmp(argv[4], "ckpt")));
	fprintf(stderr, "usage: audit noop|one-nockpt|one-ckpt DB | "
			"phases N DB | conc N DB [ckpt] | hold SECONDS DB\n");
	return 64;
}
