/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map - file paths to MAINTAINERS sections, with get_maintainer.pl's rules
 *
 * DESCRIPTION
 *	The map stage.  map_compile() turns a parsed MAINTAINERS model into
 *	a flat, position-independent image: sections, their entries, every
 *	F:/X:/N:/K: pattern, a hash of directory prefixes that narrows the
 *	patterns worth trying for a path, and the regular expressions
 *	serialised by pcre2.  map_save() writes the image; map_open()
 *	mmaps it, so a new process can map paths without parsing text.
 *	One lookup routine serves both, so the compiled index and the
 *	text path cannot disagree.
 *
 *	Matching follows scripts/get_maintainer.pl (v0.26) exactly:
 *	- F:/X: globs become regexes by "." -> "\.", "*" -> ".*",
 *	  "?" -> "."; anything else (such as "[ch]") is regex syntax.
 *	- A pattern ending in "/" matches the whole subtree; any other
 *	  pattern is a prefix match that must also have as many "/" as
 *	  the path (so a "drivers/net/" glob with a star is one level deep).
 *	- Any matching X: drops the section for that path.
 *	- N: is a regex (Perl /x) searched anywhere in the path.
 *	- Depth: "/" count of the pattern, +1 if it does not end in "/",
 *	  -1 if it starts with "*"; N: matches have depth 0.  A section
 *	  takes the depth of its last matching line.  Sections are ranked
 *	  by depth; equal depths have no defined order (get_maintainer.pl
 *	  uses Perl hash order), here they keep MAINTAINERS order.
 *	- A pattern without a trailing "/" that names a directory gets a
 *	  "/" appended.  With a tree (map_compile(m, tree)) that is decided
 *	  on disk as get_maintainer.pl does.  Without a tree a pattern with
 *	  no "." "*" "?" (the only kind that can name a directory) matches
 *	  both as a directory (its subtree) and as a file (a prefix at the
 *	  same depth), except that a path continuing with "." after the
 *	  pattern is taken for a different file ("cec" does not match
 *	  "cec.h.rst.exceptions").  Over all 86,630 files of Linux v6.12
 *	  this gives the same sections as the on-disk rule for every file.
 *	- K: regexes are matched against content given to map_keywords().
 *
 * Ownership:
 *	Strings returned by the accessors are borrowed from the map and
 *	valid until map_free().
 *
 * Errors:
 *	map_open()/map_save() print a message and return NULL/-1.
 */
#ifndef TRIAGE_MAP_H
#define TRIAGE_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct maintainers;
struct map;

struct map_hit {
	uint32_t section;
	int depth; /* higher is more specific */
};

#define MAP_MAX_HITS 256

/* lifecycle */
struct map *map_compile(const struct maintainers *m, const char *tree);
struct map *map_load_text(const char *maintainers_path, const char *tree);
int map_save(const struct map *map, const char *path);
struct map *map_open(const char *path);
void map_free(struct map *map);

/* sections */
uint32_t map_nsections(const struct map *map);
const char *map_title(const struct map *map, uint32_t sec);
const char *map_source(const struct map *map, uint32_t sec);
unsigned map_line(const struct map *map, uint32_t sec);
uint32_t map_nentries(const struct map *map, uint32_t sec);
char map_entry_tag(const struct map *map, uint32_t sec, uint32_t i);
const char *map_entry_value(const struct map *map, uint32_t sec, uint32_t i);
const char *map_value(const struct map *map, uint32_t sec, char tag);
int map_find_section(const struct map *map, const char *title);
/* the sections whose titles start with c in either case (or with the
 * byte c | 0x20), in MAINTAINERS order: *n of them */
const uint32_t *map_titled(const struct map *map, char c, size_t *n);
bool map_has_tree(const struct map *map);

/*
 * People and lists (format 5): the sections whose L:, M:, R: or B:
 * mailto: entries name an address, each with its share of the
 * address's weight (the share of the address's sections it covers:
 * itself and those strictly inside it).  No hit for an address of a
 * catch-all section (THE REST), of more than MAP_ADDR_SECTIONS_MAX
 * sections (a list that spans the tree names no section), or of a
 * section that owns no source (F: only under Documentation/, or none).
 */
#define MAP_ADDR_SECTIONS_MAX 100

struct map_addr_hit {
	uint32_t section;
	char tag;      /* 'L', 'M', 'R' or 'B' */
	bool umbrella; /* it covers other sections of the address */
	double share;  /* (0, 1] */
};

/*
 * map_file_named - the sections with the shallowest F: pattern that ends
 * in the directory or .c/.h file name (any case; "rt2x00" for
 * drivers/net/wireless/ralink/rt2x00/): up to max of them into secs,
 * their number returned, and how many share that depth into *tied
 */
size_t map_file_named(const struct map *map, const char *name, uint32_t *secs,
		      size_t max, size_t *tied);

/*
 * map_file_prefixed - the sections with an F: pattern whose directory or
 * .c/.h file name starts with name and then '_' or '-' ("igen6" for
 * drivers/edac/igen6_edac.c), each once: up to max into secs, their
 * number returned; *total counts all of them (0 when more than
 * MAP_PREFIXED_SCAN names were read)
 */
#define MAP_PREFIXED_SCAN 64
size_t map_file_prefixed(const struct map *map, const char *name,
			 uint32_t *secs, size_t max, size_t *total);

/*
 * map_list_named - the sections with an L: list named name (its local
 * part without "linux-", any case: "usb" for linux-usb@vger.kernel.org),
 * in MAINTAINERS order: up to max into secs, their number into *total
 */
size_t map_list_named(const struct map *map, const char *name, uint32_t *secs,
		      size_t max, size_t *total);

/* addr is a bare address in lower case */
size_t map_address(const struct map *map, const char *addr,
		   struct map_addr_hit *hits, size_t max);

/*
 * map_umbrellas - the sections strictly holding sec: every F: path of
 * sec is theirs (its Documentation/ aside, and its include/ and tools/
 * when it has code elsewhere), not the other way round (THE REST never
 * counts); *ids
 * points into the map, sorted
 */
size_t map_umbrellas(const struct map *map, uint32_t sec, const uint32_t **ids);
/* map_holds - u is one of sec's umbrellas (map_umbrellas()) */
bool map_holds(const struct map *map, uint32_t sec, uint32_t u);

/* queries */
size_t map_lookup(const struct map *map, const char *path, struct map_hit *hits,
		  size_t max);
size_t map_keywords(const struct map *map, const char *text, size_t len,
		    struct map_hit *hits, size_t max);

#endif
