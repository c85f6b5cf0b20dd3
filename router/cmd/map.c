// SPDX-License-Identifier: GPL-2.0-only
/*
 * triage map - map file paths to MAINTAINERS sections
 *
 * DESCRIPTION
 *	triage map [--maintainers FILE] [--tree DIR] [--index FILE] [--json]
 *		   [--content FILE] [PATH...]
 *
 *	With no PATH, paths are read from standard input, one per line.
 *	Default output, one line per input path in input order:
 *
 *		PATH<TAB>SECTION | SECTION | ...
 *
 *	sections best first.  --json prints one array with, per path, its
 *	sections and each section's status and M:, R:, L:, B: entries.
 *	--content FILE adds the sections whose K: keywords occur in FILE
 *	(as get_maintainer.pl --keywords-in-file does for the file).
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "cmd.h"
#include "map.h"
#include "strbuf.h"
#include "util.h"

#define LINE_MAX_LEN 4096

struct map_out {
	const struct map *map;
	bool json;
	json_t *array;
	struct map_hit *khits;
	size_t nkhits;
};

static json_t *tag_values(const struct map *map, uint32_t sec, char tag)
{
	json_t *a = json_array();
	uint32_t i, n = map_nentries(map, sec);

	for (i = 0; i < n; i++)
		if (map_entry_tag(map, sec, i) == tag)
			json_array_append_new(
				a, json_string(map_entry_value(map, sec, i)));
	return a;
}

/* map_section_json - one section as the --json output shows it */
static json_t *section_json(const struct map *map, const struct map_hit *h,
			    const char *how)
{
	const char *status = map_value(map, h->section, 'S');

	return json_pack("{s:s, s:i, s:s, s:s?, s:o, s:o, s:o, s:o}", "name",
			 map_title(map, h->section), "depth", h->depth, "match",
			 how, "status", status, "maintainers",
			 tag_values(map, h->section, 'M'), "reviewers",
			 tag_values(map, h->section, 'R'), "lists",
			 tag_values(map, h->section, 'L'), "bug_entries",
			 tag_values(map, h->section, 'B'));
}

/* normalise - accept "./a/b" and "a//b" as get_maintainer.pl would */
static void normalise(char *p)
{
	char *r = p, *w = p;

	while (r[0] == '.' && r[1] == '/')
		r += 2;
	while (*r) {
		if (r[0] == '/' && r[1] == '/') {
			r++;
			continue;
		}
		*w++ = *r++;
	}
	*w = '\0';
}

static void map_one(void *arg, char *path)
{
	struct map_out *o = arg;
	struct map_hit hits[MAP_MAX_HITS];
	size_t n, i, k;
	char *p;

	for (p = path; *p; p++)
		if ((unsigned char)*p < 0x20)
			*p = '?';
	normalise(path);
	n = map_lookup(o->map, path, hits, ARRAY_SIZE(hits));
	if (o->json) {
		json_t *secs = json_array();

		for (i = 0; i < n; i++)
			json_array_append_new(
				secs, section_json(o->map, &hits[i], "file"));
		for (k = 0; k < o->nkhits; k++) {
			bool dup = false;

			for (i = 0; i < n; i++)
				dup |= hits[i].section == o->khits[k].section;
			if (!dup)
				json_array_append_new(
					secs, section_json(o->map, &o->khits[k],
							   "keyword"));
		}
		json_array_append_new(o->array,
				      json_pack("{s:s, s:o}", "path", path,
						"sections", secs));
		return;
	}
	fputs(path, stdout);
	putchar('\t');
	for (i = 0; i < n; i++) {
		if (i)
			fputs(" | ", stdout);
		fputs(map_title(o->map, hits[i].section), stdout);
	}
	for (k = 0; k < o->nkhits; k++) {
		bool dup = false;

		for (i = 0; i < n; i++)
			dup |= hits[i].section == o->khits[k].section;
		if (dup)
			continue;
		if (n || k)
			fputs(" | ", stdout);
		fputs(map_title(o->map, o->khits[k].section), stdout);
	}
	putchar('\n');
}

int cmd_map(int argc, char **argv, struct cmd_ctx *ctx)
{
	static const char *const usage[] = { "triage map [OPTIONS] [PATH...]",
					     NULL };
	const char *maintainers = NULL, *tree = NULL, *index = NULL;
	const char *content = NULL;
	struct map_hit khits[MAP_MAX_HITS];
	struct map_out o;
	const struct opt opts[] = {
		OPT_STRING('m', "maintainers", &maintainers, "FILE",
			   "parse this MAINTAINERS file (or directory)"),
		OPT_STRING('t', "tree", &tree, "DIR",
			   "the source tree, for F: patterns of directories"),
		OPT_STRING('i', "index", &index, "FILE",
			   "a compiled index other than STATE_DIR's"),
		OPT_STRING('k', "content", &content, "FILE",
			   "add the sections whose K: keywords FILE holds"),
		OPT_BOOL('j', "json", &o.json, "print JSON instead of text"),
		OPT_END(),
	};

	memset(&o, 0, sizeof(o));
	argc = parse_options(argc, argv, opts, usage, 0);
	if (tree && !is_dir(tree)) {
		error("--tree '%s' is not a directory", tree);
		return EX_USAGE;
	}
	o.map = cmd_open_map(ctx, maintainers, tree, index);
	if (!o.map)
		return EX_CONFIG;
	if (content) {
		char *text;
		size_t len;

		if (read_file(content, 64u << 20, &text, &len) < 0) {
			map_free((struct map *)o.map);
			return EX_NOINPUT;
		}
		o.nkhits = map_keywords(o.map, text, len, khits,
					ARRAY_SIZE(khits));
		o.khits = khits;
		free(text);
	}
	if (o.json)
		o.array = json_array();
	cmd_each_arg(argc, argv, "path", LINE_MAX_LEN, map_one, &o);
	if (o.json)
		cmd_print_json(o.array);
	map_free((struct map *)o.map);
	return 0;
}
