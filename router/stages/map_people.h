/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map_people - the tables of the compiled map after its first ones: the
 * umbrellas of each section and the index of lists and people (format
 * 5), and the names of the directories and files F: patterns end in
 * (format 6; see map_people.c); private to map.c and map_people.c
 */
#ifndef TRIAGE_MAP_PEOPLE_H
#define TRIAGE_MAP_PEOPLE_H

#include <stddef.h>
#include <stdint.h>

struct map;
struct maintainers;

/* a bucket of the address index (open addressing; count 0: empty) */
struct img_addr {
	uint32_t hash; /* hash_mem() of the address (hash.h) */
	uint32_t text; /* offset into astrings: the lower-case address */
	uint32_t first, count; /* its sections: ahits[first..] */
};

/* with AHIT_UMBRELLA: the section covers others of the address */
#define AHIT_UMBRELLA 0x100

struct img_ahit {
	uint32_t section;
	uint16_t tag;	/* 'L', 'M', 'R' or 'B', | AHIT_UMBRELLA */
	uint16_t share; /* of the address's weight, in 1/65535 */
};

/*
 * a name an F: pattern ends in ("rt2x00" for .../ralink/rt2x00/, "btusb"
 * for drivers/bluetooth/btusb.c), or the name of an L: list ("usb" for
 * linux-usb@vger.kernel.org); sorted by kind, name, depth, section
 */
enum { FNAME_FILE, FNAME_LIST };

struct img_fname {
	uint32_t kind; /* FNAME_* */
	uint32_t text; /* offset into fstrings: the lower-case name */
	uint32_t section;
	uint32_t depth; /* the "/" before the name in the pattern */
};

/* the tables, as map.c places them in the image */
struct map_people {
	uint32_t *nest_start; /* per section, then the end: into nest */
	uint32_t *nest;
	size_t nnest;
	struct img_addr *addrs; /* naddrs buckets (a power of 2) */
	size_t naddrs;
	struct img_ahit *ahits;
	size_t nahits;
	char *astrings;
	size_t astrings_size;
	struct img_fname *fnames;
	size_t nfnames;
	char *fstrings;
	size_t fstrings_size;
};

void map_people_build(const struct map *map, const struct maintainers *m,
		      struct map_people *out);
void map_people_release(struct map_people *pp);

/* from map.c: a path a glob surely matches ("*" -> "x", a directory
 * gets "x" under it), NULL for regex syntax */
char *map_rep_path(const char *glob);

#endif
