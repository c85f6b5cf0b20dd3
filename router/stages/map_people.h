/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map_people - format 5's tables of the compiled map: the umbrellas of
 * each section and the index of lists and people (see map_people.c);
 * private to map.c and map_people.c
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
};

void map_people_build(const struct map *map, const struct maintainers *m,
		      struct map_people *out);
void map_people_release(struct map_people *pp);

/* from map.c: a path a glob surely matches ("*" -> "x", a directory
 * gets "x" under it), NULL for regex syntax */
char *map_rep_path(const char *glob);

#endif
