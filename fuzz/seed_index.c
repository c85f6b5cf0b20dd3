// SPDX-License-Identifier: GPL-2.0-only
/*
 * seed_index - the seeds of fuzz_index: a valid file of each kind
 *
 * DESCRIPTION
 *	seed_index MAINTAINERS TREE OUTDIR
 *
 *	Builds a symbol index of TREE, a MAINTAINERS index of MAINTAINERS
 *	and an experts index of a small git log, with the code that builds
 *	them for 'triage update', and writes each to OUTDIR behind the byte
 *	with which fuzz_index picks its reader.  Made at build time rather
 *	than committed, so that the seeds follow the index formats.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "experts.h"
#include "fuzz.h"
#include "maintainers.h"
#include "map.h"
#include "symbols.h"
#include "util.h"

static const char git_log[] =
	"\x1e"
	"1780272000\x1f"
	"a@example.org\x1f"
	"Ann Author\x1f"
	"0123456789abcdef0123456789abcdef01234567\x1f"
	"Reviewed-by: Rev Iewer <r@example.org>\x1f"
	"Acked-by: Ack Er <k@example.org>\x1f"
	"Signed-off-by: Ann Author <a@example.org>\x1f"
	"Signed-off-by: Main Tainer <m@example.org>\n\n"
	"fs/xfs/xfs_inode_item.c\nfs/xfs/xfs_trans_ail.c\n"
	"\x1e"
	"1780000000\x1f"
	"b@example.org\x1f"
	"Bo\x1f"
	"fedcba9876543210fedcba9876543210fedcba98\x1f"
	"Reviewed-by: r@example.org\n\n"
	"drivers/bluetooth/btusb.c\n";

/* seed - OUTDIR/NAME: the selector byte, then the file at path */
static void seed(const char *dir, const char *name, int kind, const char *path)
{
	char *data, *out, *buf;
	size_t len;

	if (read_file(path, 64u << 20, &data, &len) < 0)
		exit(1);
	buf = xmalloc(len + 1);
	buf[0] = (char)kind;
	memcpy(buf + 1, data, len);
	out = xasprintf("%s/%s", dir, name);
	unlink(out);
	if (write_file_atomic(out, buf, len + 1, 0644) < 0)
		exit(1);
	free(out);
	free(buf);
	free(data);
}

int main(int argc, char **argv)
{
	struct experts_options o;
	struct maintainers m;
	struct map *map;
	char *tmp, *commits;
	int fd;

	msg_setup("seed_index", 1, false);
	if (argc != 4)
		die("usage: seed_index MAINTAINERS TREE OUTDIR");
	if (mkdir_p(argv[3], 0755) < 0)
		return 1;
	tmp = xasprintf("%s/index.tmp", argv[3]);

	if (symbols_build(argv[2], tmp, NULL) < 0)
		return 1;
	seed(argv[3], "symbols.seed", 0, tmp);
	seed(argv[3], "symbols-pread.seed", 1, tmp);
	unlink(tmp);

	experts_options_init(&o);
	o.now = 1780272000;
	o.since = 0;
	fd = fuzz_memfd(git_log, sizeof(git_log) - 1);
	if (experts_import_fd(fd, &o, tmp, NULL) != 0)
		return 1;
	close(fd);
	experts_options_release(&o);
	seed(argv[3], "experts.seed", 2, tmp);
	unlink(tmp);
	commits = experts_commits_path(tmp);
	unlink(commits);
	free(commits);

	maintainers_init(&m);
	if (maintainers_load(&m, argv[1]) < 0)
		return 1;
	map = map_compile(&m, NULL);
	if (!map || map_save(map, tmp) < 0)
		return 1;
	seed(argv[3], "map.seed", 3, tmp);
	unlink(tmp);
	free(tmp);
	map_free(map);
	maintainers_release(&m);
	return 0;
}
