// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_experts_log - one 'git log' output (EXPERTS_LOG_FORMAT) through
 * experts_import_fd(), as 'triage experts import' streams it: commit
 * trailers and author names are anyone's text.  The index and commit
 * table it writes are then opened, verified and looked up.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "experts.h"
#include "fuzz.h"
#include "util.h"

static const char *const paths[] = {
	"fs/xfs/xfs_inode.c", "fs/xfs/", "drivers/usb/core/hub.c", "a", "",
};

/* sha_in - the first run of 7..40 hex digits after a '\x1f' */
static void sha_in(const uint8_t *data, size_t size, char *sha)
{
	size_t i, n;

	sha[0] = '\0';
	for (i = 0; i < size; i++) {
		if (data[i] != 0x1f)
			continue;
		for (n = 0; i + 1 + n < size && n < 40 &&
			    strchr("0123456789abcdef", data[i + 1 + n]) &&
			    data[i + 1 + n];
		     n++)
			;
		if (n >= 7) {
			memcpy(sha, data + i + 1, n);
			sha[n] = '\0';
			return;
		}
	}
}

/* LLVMFuzzerTestOneInput - one git log text, imported and read back */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *idx, *commits;
	struct experts_options o;
	struct experts_stats st;
	struct experts_commit c;
	struct expert e[8];
	struct experts *ex;
	char sha[41];
	size_t i;
	int fd;

	if (!idx) {
		idx = xasprintf("%s/experts.idx", fuzz_tmpdir());
		commits = experts_commits_path(idx);
	}
	experts_options_init(&o);
	o.now = 1780272000; /* fixed: the same input, the same scores */
	o.since = 0;
	o.max_per_path = 3;
	o.ignore = xcalloc(1, sizeof(*o.ignore));
	o.ignore[o.nignore++] = xstrdup("*@ignored.example.org");
	fd = fuzz_memfd(data, size);
	if (experts_import_fd(fd, &o, idx, &st) == 0) {
		/* what the import wrote, it must read back whole */
		ex = experts_open(idx);
		if (!ex || experts_verify(ex) < 0)
			abort();
		for (i = 0; i < ARRAY_SIZE(paths); i++)
			experts_for_path(ex, paths[i], e, ARRAY_SIZE(e));
		experts_free(ex);
		sha_in(data, size, sha);
		if (sha[0])
			experts_commit_find(commits, sha, &c);
		experts_commit_find(commits, "0000000", &c);
	}
	close(fd);
	unlink(idx);
	unlink(commits);
	experts_options_release(&o);
	return 0;
}
