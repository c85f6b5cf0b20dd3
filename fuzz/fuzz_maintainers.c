// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_maintainers - a MAINTAINERS file through the parser, the map
 * compiler and a few lookups
 */
#include <stdlib.h>

#include "fuzz.h"
#include "maintainers.h"
#include "map.h"
#include "util.h"

static const char *const paths[] = {
	"fs/xfs/xfs_inode.c",
	"drivers/net/ethernet/intel/e1000/e1000.h",
	"MAINTAINERS",
	"include/linux/mm.h",
	"a",
	"",
};

/* LLVMFuzzerTestOneInput - one MAINTAINERS text, compiled and queried */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = xmemdup0(size ? (const char *)data : "", size);
	struct map_hit hits[MAP_MAX_HITS];
	struct maintainers m;
	struct map *map;
	uint32_t sec, n;
	size_t i;

	maintainers_init(&m);
	maintainers_parse(&m, text, size, "fuzz");
	map = map_compile(&m, NULL);
	if (map) {
		for (i = 0; i < ARRAY_SIZE(paths); i++)
			map_lookup(map, paths[i], hits, MAP_MAX_HITS);
		map_keywords(map, text, size, hits, MAP_MAX_HITS);
		n = map_nsections(map);
		for (sec = 0; sec < n && sec < 64; sec++) {
			if (map_find_section(map, map_title(map, sec)) < 0)
				abort();
			map_value(map, sec, 'M');
		}
		map_free(map);
	}
	maintainers_release(&m);
	free(text);
	return 0;
}
