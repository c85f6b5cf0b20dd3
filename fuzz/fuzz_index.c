// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_index - a compiled index file, damaged or not, through its
 * reader: the symbol index (mapped and read with pread()), the experts
 * index and the MAINTAINERS index.  Each is a file 'triage update' or
 * 'triage experts import' writes, and that the filter and 'triage
 * symbols|experts|map --index FILE' read: a reader checks every offset
 * before it follows one.
 *
 * The first byte of an input picks the reader (its value modulo 4), the
 * rest is the file.  fuzz/seed_index.c writes a valid file of each kind
 * as a seed.  The fuzz build (FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION)
 * reads an image into a block of its exact size instead of mapping it,
 * so that a read past its end is reported.  The symbol index is also
 * asked for lines (symbols_spans()), calls (symbols_calls(), which
 * follows the call lists from name to name), name prefixes
 * (symbols_has_prefix()) and the tree it records.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "experts.h"
#include "fuzz.h"
#include "map.h"
#include "symbols.h"
#include "util.h"

enum { IX_SYMBOLS, IX_SYMBOLS_PREAD, IX_EXPERTS, IX_MAP, IX_KINDS };

static const char *const functions[] = {
	"xfs_inode_item_push",
	"xfs_trans_ail_push",
	"btusb_probe",
	"hci_conn_del",
	"usb_hub_port_connect",
	"kconfig:EXT4_FS",
	"kconfig:",
	"param:debug",
	"sysctl:",
	"ioctl:KVM_RUN",
	"btusb_",
	"main",
	"a",
	"",
};

static const char *const paths[] = {
	"fs/xfs/xfs_inode_item.c",
	"fs/xfs/",
	"drivers/bluetooth/btusb.c",
	"net/bluetooth/hci_conn.c",
	"MAINTAINERS",
	"a",
	"",
};

static void symbols(const char *path, bool pread)
{
	struct symbols *s =
		pread ? symbols_open_pread(path) : symbols_open(path);
	const char *files[8];
	struct symbols_span spans[8];
	size_t i, j;

	if (!s)
		return;
	/* the tree's path is a NUL-terminated string or none */
	if (symbols_tree(s) && strlen(symbols_tree(s)) >= SYMBOLS_TREE_MAX)
		abort();
	symbols_tree_version(s);
	for (i = 0; i < ARRAY_SIZE(functions); i++) {
		symbols_has_prefix(s, functions[i], strlen(functions[i]));
		symbols_lookup(s, functions[i], files, ARRAY_SIZE(files));
		symbols_best(s, functions[i]);
		symbols_spans(s, functions[i], spans, ARRAY_SIZE(spans));
		/* every pair: each a caller, with and without its file */
		for (j = 0; j < ARRAY_SIZE(functions); j++) {
			unsigned budget = 64;

			if (symbols_calls(s, functions[i], paths[j % 4],
					  functions[j], 2, &budget) > 1 ||
			    budget > 64)
				abort();
		}
	}
	symbols_free(s);
}

static void experts(const char *path)
{
	struct experts *ex = experts_open(path);
	struct expert e[8];
	size_t i;

	if (!ex)
		return;
	experts_verify(ex);
	experts_reference_time(ex);
	experts_commits(ex);
	for (i = 0; i < ARRAY_SIZE(paths); i++)
		experts_for_path(ex, paths[i], e, ARRAY_SIZE(e));
	experts_free(ex);
}

static void maintainers(const char *path)
{
	struct map *map = map_open(path);
	struct map_hit hits[MAP_MAX_HITS];
	uint32_t sec, n, i;

	if (!map)
		return;
	for (i = 0; i < ARRAY_SIZE(paths); i++)
		map_lookup(map, paths[i], hits, MAP_MAX_HITS);
	map_keywords(map, "xfs btusb bluetooth usb", 23, hits, MAP_MAX_HITS);
	n = map_nsections(map);
	for (sec = 0; sec < n && sec < 64; sec++) {
		map_title(map, sec);
		map_source(map, sec);
		map_value(map, sec, 'M');
		for (i = 0; i < map_nentries(map, sec) && i < 16; i++) {
			map_entry_tag(map, sec, i);
			map_entry_value(map, sec, i);
		}
	}
	map_free(map);
}

/* LLVMFuzzerTestOneInput - one index file, read by the reader it names */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd;

	if (!size)
		return 0;
	fd = fuzz_memfd(data + 1, size - 1);
	fuzz_fd_path(fd, path, sizeof(path));
	switch (data[0] % IX_KINDS) {
	case IX_SYMBOLS:
		symbols(path, false);
		break;
	case IX_SYMBOLS_PREAD:
		symbols(path, true);
		break;
	case IX_EXPERTS:
		experts(path);
		break;
	case IX_MAP:
		maintainers(path);
		break;
	}
	close(fd);
	return 0;
}
