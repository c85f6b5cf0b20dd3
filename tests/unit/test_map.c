// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_map - MAINTAINERS parsing and get_maintainer.pl matching rules
 *
 * Each test feeds a small MAINTAINERS text that isolates one quirk of
 * scripts/get_maintainer.pl and checks the sections (as a set, or in
 * rank order where depth decides it).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <dirent.h>
#include <pcre2.h>

#include "maintainers.h"
#include "map.h"
#include "util.h"

static struct map *compile_text(const char *text, const char *tree)
{
	struct maintainers m;
	struct map *map;

	maintainers_init(&m);
	maintainers_parse(&m, text, strlen(text), "MAINTAINERS");
	map = map_compile(&m, tree);
	maintainers_release(&m);
	assert_non_null(map);
	return map;
}

/* lookup - "A | B | C" in rank order */
static char *lookup(const struct map *map, const char *path)
{
	struct map_hit hits[MAP_MAX_HITS];
	size_t n = map_lookup(map, path, hits, ARRAY_SIZE(hits)), i;
	static char buf[4096];

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		if (i)
			strcat(buf, " | ");
		strcat(buf, map_title(map, hits[i].section));
	}
	return buf;
}

static void test_titles_and_entries(void **state)
{
	const char *text = "List of maintainers\n"
			   "\tM: *Mail* patches to: FullName <address@domain>\n"
			   "\n"
			   "Maintainers List\n"
			   "----------------\n"
			   "\n"
			   "FOO DRIVER\n"
			   "M:\tAlice Example <alice@example.org>\n"
			   "R:  Bob <bob@example.org>\n"
			   "\n"
			   "# a comment inside the entry\n"
			   "  # an indented comment\n"
			   "L:linux-foo@vger.kernel.org\n"
			   "S:\tMaintained\r\n"
			   "F:\tdrivers/foo/\n"
			   "\n"
			   "BAR\n"
			   "BAR SUBSYSTEM\n"
			   "M:\tCarol <carol@example.org>\n";
	struct maintainers m;

	maintainers_init(&m);
	maintainers_parse(&m, text, strlen(text), "MAINTAINERS");
	/* The tab-indented header lines are not tags. */
	assert_int_equal(m.nsections, 2);
	assert_string_equal(m.sections[0].title, "FOO DRIVER");
	/* Blank and comment lines do not end a section. */
	assert_int_equal(m.sections[0].nentries, 5);
	assert_string_equal(mnt_section_value(&m.sections[0], 'R'),
			    "Bob <bob@example.org>");
	assert_string_equal(mnt_section_value(&m.sections[0], 'L'),
			    "linux-foo@vger.kernel.org");
	/* CRLF: the carriage return is not part of the value. */
	assert_string_equal(mnt_section_value(&m.sections[0], 'S'),
			    "Maintained");
	assert_int_equal(m.sections[0].entries[4].line, 15);
	/* The title is the last non-tag line before the tags. */
	assert_string_equal(m.sections[1].title, "BAR SUBSYSTEM");
	assert_int_equal(m.sections[1].line, 18);
	maintainers_release(&m);
}

/*
 * What a lookup reads is packed: the titles one after the other, by
 * initial (map_titled()), then the patterns' texts, before any entry's
 * value (map_compile()).
 */
static void test_hot_strings_first(void **state)
{
	struct map *map = compile_text("ZETA\n"
				       "M:\tZ <z@example.org>\n"
				       "F:\tdrivers/zeta/\n"
				       "\n"
				       "alpha\n"
				       "M:\tA <a@example.org>\n"
				       "F:\tdrivers/alpha/\n"
				       "\n"
				       "BETA\n"
				       "L:\tbeta@example.org\n"
				       "N:\tbeta\n"
				       "F:\tdrivers/beta/*.c\n"
				       "\n"
				       "ALPHA TWO\n"
				       "M:\tG <g@example.org>\n"
				       "K:\tgamma_[a-z]+\n",
				       NULL);
	const char *prev = NULL, *t, *mail;
	const uint32_t *run;
	size_t n, k, seen = 0;
	uint32_t i;
	int c;

	(void)state;
	assert_int_equal(map_nsections(map), 4);
	/* a run: both cases of an initial, in MAINTAINERS order */
	run = map_titled(map, 'a', &n);
	assert_int_equal(n, 2);
	assert_int_equal(run[0], 1);
	assert_int_equal(run[1], 3);
	run = map_titled(map, 'A', &n);
	assert_int_equal(n, 2);
	assert_int_equal(run[0], 1);
	map_titled(map, 'q', &n);
	assert_int_equal(n, 0);
	assert_int_equal(map_find_section(map, "ALPHA"), 1);
	assert_int_equal(map_find_section(map, "Alpha two"), 3);
	assert_int_equal(map_find_section(map, "zeta"), 0);
	assert_int_equal(map_find_section(map, "GAMMA"), -1);
	/* the titles, run after run, lie one after the other */
	for (c = 0; c < 256; c++) {
		if ((c | 0x20) != c)
			continue;
		run = map_titled(map, (char)c, &n);
		for (k = 0; k < n; k++, seen++) {
			t = map_title(map, run[k]);
			if (prev)
				assert_ptr_equal(t, prev + strlen(prev) + 1);
			prev = t;
		}
	}
	assert_int_equal(seen, 4);
	/* every entry's value comes after the titles */
	mail = map_entry_value(map, 0, 0);
	assert_string_equal(mail, "Z <z@example.org>");
	assert_true(mail > prev + strlen(prev));
	for (i = 0; i < map_nsections(map); i++) {
		uint32_t j;

		for (j = 0; j < map_nentries(map, i); j++)
			assert_true(map_entry_value(map, i, j) > prev);
	}
	/* and the map is the same map */
	assert_string_equal(lookup(map, "drivers/alpha/x.c"), "alpha");
	assert_string_equal(lookup(map, "drivers/beta/y.c"), "BETA");
	assert_string_equal(lookup(map, "drivers/zeta/y.c"), "ZETA");
	map_free(map);
}

static void test_stray_line_splits_section(void **state)
{
	/* get_maintainer.pl: a non-tag line inside an entry starts a new
	 * section; the tags after it no longer belong to FOO. */
	const char *text = "FOO\n"
			   "M:\ta <a@x.org>\n"
			   "F:\tfoo/\n"
			   "  continued description\n"
			   "F:\tbar/\n";
	struct map *map = compile_text(text, NULL);

	assert_int_equal(map_nsections(map), 2);
	assert_string_equal(lookup(map, "foo/x.c"), "FOO");
	assert_string_equal(lookup(map, "bar/x.c"), "  continued description");
	map_free(map);
}

static void test_trailing_slash_and_depth(void **state)
{
	const char *text = "NET\nF:\tnet/\n"
			   "NET CORE\nF:\tnet/core/\n"
			   "ONE LEVEL\nF:\tdrivers/net/*\n"
			   "PREFIX FILE\nF:\tinclude/linux/foo.h\n"
			   "THE REST\nF:\t*\nF:\t*/\n";
	struct map *map = compile_text(text, NULL);

	assert_string_equal(lookup(map, "net/core/dev.c"),
			    "NET CORE | NET | THE REST");
	/* A star pattern without trailing slash is one level deep. */
	assert_string_equal(lookup(map, "drivers/net/loopback.c"),
			    "ONE LEVEL | THE REST");
	assert_string_equal(lookup(map, "drivers/net/phy/phy.c"), "THE REST");
	/* A pattern without "/" is a prefix match at the same depth. */
	assert_string_equal(lookup(map, "include/linux/foo.hpp"),
			    "PREFIX FILE | THE REST");
	assert_string_equal(lookup(map, "include/linux/fo.h"), "THE REST");
	/* THE REST: "*" for top-level files, "*" + "/" for the rest. */
	assert_string_equal(lookup(map, "Makefile"), "THE REST");
	map_free(map);
}

static void test_star_crosses_slash_at_same_depth(void **state)
{
	const char *text = "ARCH KERNEL\nF:\tarch/*/kernel/\n"
			   "ANY NET\nF:\t*/net/*\n";
	struct map *map = compile_text(text, NULL);

	assert_string_equal(lookup(map, "arch/x86/kernel/setup.c"),
			    "ARCH KERNEL");
	/* ".*" may span "/" as long as the pattern still ends in "/" */
	assert_string_equal(lookup(map, "arch/x86/um/kernel/setup.c"),
			    "ARCH KERNEL");
	assert_string_equal(lookup(map, "drivers/net/foo.c"), "ANY NET");
	/* Same "/" count required when the pattern has no trailing "/". */
	assert_string_equal(lookup(map, "drivers/net/phy/foo.c"), "");
	map_free(map);
}

static void test_classes_and_question_mark(void **state)
{
	const char *text = "DA\nF:\tsound/soc/codecs/da[79]*.[ch]\n"
			   "DA72\nF:\tdrivers/input/misc/da72??.[ch]\n"
			   "NOT\nF:\tfoo/[^a]x.c\n"
			   "RANGE\nF:\tbar/[a-c]1.c\n";
	struct map *map = compile_text(text, NULL);

	assert_string_equal(lookup(map, "sound/soc/codecs/da7213.c"), "DA");
	assert_string_equal(lookup(map, "sound/soc/codecs/da9055.h"), "DA");
	assert_string_equal(lookup(map, "sound/soc/codecs/da8.c"), "");
	assert_string_equal(lookup(map, "drivers/input/misc/da7280.c"), "DA72");
	assert_string_equal(lookup(map, "drivers/input/misc/da728.c"), "");
	assert_string_equal(lookup(map, "foo/bx.c"), "NOT");
	assert_string_equal(lookup(map, "foo/ax.c"), "");
	assert_string_equal(lookup(map, "bar/b1.c"), "RANGE");
	assert_string_equal(lookup(map, "bar/d1.c"), "");
	/* "." is literal after get_maintainer.pl's conversion. */
	assert_string_equal(lookup(map, "sound/soc/codecs/da7xc"), "");
	map_free(map);
}

static void test_exclude_drops_section(void **state)
{
	const char *text = "NETWORKING\nF:\tnet/\nX:\tnet/ipv6/\n"
			   "IPV6\nF:\tnet/ipv6/\n";
	struct map *map = compile_text(text, NULL);

	assert_string_equal(lookup(map, "net/ipv4/route.c"), "NETWORKING");
	assert_string_equal(lookup(map, "net/ipv6/route.c"), "IPV6");
	map_free(map);
}

static void test_regex_n_depth_zero(void **state)
{
	const char *text = "TEGRA\nN:\t[^a-z]tegra\n"
			   "DRIVERS\nF:\tdrivers/\n"
			   "EXT\nN:\t(?:foo | bar) \\.c$\n";
	struct map *map = compile_text(text, NULL);
	struct map_hit hits[8];
	size_t n;

	/* N: depth 0 ranks below the depth-1 "drivers/". */
	assert_string_equal(lookup(map, "drivers/gpu/host1x/tegra.c"),
			    "DRIVERS | TEGRA");
	assert_string_equal(lookup(map, "drivers/integrator.c"), "DRIVERS");
	/* Perl /x: white space in the regex is not significant. */
	assert_string_equal(lookup(map, "lib/bar.c"), "EXT");
	n = map_lookup(map, "drivers/gpu/host1x/tegra.c", hits, 8);
	assert_int_equal(n, 2);
	assert_int_equal(hits[0].depth, 1);
	assert_int_equal(hits[1].depth, 0);
	map_free(map);
}

static void test_last_matching_line_sets_depth(void **state)
{
	/* A's most specific line comes first, so its depth is that of the
	 * later, broader "drivers/" line (get_maintainer.pl overwrites). */
	const char *text = "A\nF:\tdrivers/net/x.c\nF:\tdrivers/\n"
			   "B\nF:\tdrivers/net/\n";
	struct map *map = compile_text(text, NULL);
	struct map_hit hits[8];
	size_t n = map_lookup(map, "drivers/net/x.c", hits, 8);

	assert_int_equal(n, 2);
	assert_string_equal(map_title(map, hits[0].section), "B");
	assert_int_equal(hits[0].depth, 2);
	assert_int_equal(hits[1].depth, 1);
	map_free(map);
}

static void test_regex_fallback(void **state)
{
	/* U-Boot writes "k\+p"; Xen writes "{kexec,kimage}" (a literal
	 * brace to a Perl regex, so it never matches a real path). */
	const char *text = "KP\nF:\tboard/k\\+p/kp_imx53/\n"
			   "KEXEC\nF:\txen/common/{kexec,kimage}.c\n"
			   "BAD\nN:\t(unclosed\n";
	struct map *map;

	map = compile_text(text, NULL);
	assert_string_equal(lookup(map, "board/k+p/kp_imx53/x.c"), "KP");
	assert_string_equal(lookup(map, "board/kp/kp_imx53/x.c"), "");
	assert_string_equal(lookup(map, "xen/common/kexec.c"), "");
	assert_string_equal(lookup(map, "xen/common/{kexec,kimage}.c"),
			    "KEXEC");
	/* An N: regex that does not compile is ignored with a warning. */
	assert_string_equal(lookup(map, "(unclosed"), "");
	map_free(map);
}

/*
 * A glob longer than the path it matches: the file-or-directory test
 * read the path at the glob's length, past its end (fuzz_maintainers;
 * the path is on the heap, exactly its size, so the sanitizers see it)
 */
static void test_glob_longer_than_path(void **state)
{
	const char *text = "GLOB\nF:\tdrivers/*/x[0-9].c\n"
			   "BAR\nF:\t|x\n";
	struct map *map = compile_text(text, NULL);
	char *path = xstrdup("drivers/a/x1.c");

	assert_string_equal(lookup(map, path), "GLOB");
	free(path);
	path = xstrdup("a");
	assert_string_equal(lookup(map, path), "BAR");
	free(path);
	map_free(map);
}

static char tmpdir[64];

static void make_tree(void)
{
	char *p;

	strcpy(tmpdir, "/tmp/triage-test-XXXXXX");
	assert_non_null(mkdtemp(tmpdir));
	p = xasprintf("%s/drivers/cec", tmpdir);
	assert_int_equal(mkdir_p(p, 0755), 0);
	free(p);
}

static void remove_tree(void)
{
	char *cmd = xasprintf("rm -rf '%s'", tmpdir);

	assert_int_equal(system(cmd), 0);
	free(cmd);
}

static void test_directory_without_slash(void **state)
{
	const char *text = "CEC\nF:\tdrivers/cec\n"
			   "KCONFIG\nF:\tarch/foo/Kconfig\n";
	struct map *map;

	/* Without a tree: a directory or a file, not "cec" + extension. */
	map = compile_text(text, NULL);
	assert_false(map_has_tree(map));
	assert_string_equal(lookup(map, "drivers/cec/core.c"), "CEC");
	assert_string_equal(lookup(map, "drivers/cec"), "CEC");
	assert_string_equal(lookup(map, "drivers/cec.h"), "");
	assert_string_equal(lookup(map, "drivers/cec-notifier.c"), "CEC");
	assert_string_equal(lookup(map, "arch/foo/Kconfig"), "KCONFIG");
	map_free(map);

	/* With a tree, decided on disk as get_maintainer.pl does. */
	make_tree();
	map = compile_text(text, tmpdir);
	assert_true(map_has_tree(map));
	assert_string_equal(lookup(map, "drivers/cec/core.c"), "CEC");
	assert_string_equal(lookup(map, "drivers/cec-notifier.c"), "");
	/* arch/foo/Kconfig is not a directory in the tree: a file. */
	assert_string_equal(lookup(map, "arch/foo/Kconfig.debug"), "KCONFIG");
	map_free(map);
	remove_tree();
}

static void test_keywords(void **state)
{
	const char *text = "OF\nK:\tof_get_profile\n"
			   "PRINTK\nK:\t\\b(printk|pr_(info|err))\\b\n"
			   "NONE\nF:\tnone/\n";
	struct map *map = compile_text(text, NULL);
	struct map_hit hits[8];
	const char *content = "x = of_get_profile(np);\npr_err(\"fail\");\n";
	size_t n = map_keywords(map, content, strlen(content), hits, 8);

	assert_int_equal(n, 2);
	assert_string_equal(map_title(map, hits[0].section), "OF");
	assert_string_equal(map_title(map, hits[1].section), "PRINTK");
	n = map_keywords(map, "pr_errno", 8, hits, 8);
	assert_int_equal(n, 0);
	map_free(map);
}

/* naive_keywords - sections whose K: regex matches, with pcre2 alone */
static size_t naive_keywords(const struct maintainers *m, const char *text,
			     size_t len, uint32_t *secs, size_t max)
{
	pcre2_match_data *md = pcre2_match_data_create(4, NULL);
	size_t i, j, n = 0;

	for (i = 0; i < m->nsections && n < max; i++) {
		for (j = 0; j < m->sections[i].nentries; j++) {
			const struct mnt_entry *e = &m->sections[i].entries[j];
			pcre2_code *c;
			int err, rc;
			PCRE2_SIZE off;

			if (e->tag != 'K')
				continue;
			c = pcre2_compile((PCRE2_SPTR)e->value,
					  PCRE2_ZERO_TERMINATED, PCRE2_EXTENDED,
					  &err, &off, NULL);
			if (!c)
				continue;
			rc = pcre2_match(c, (PCRE2_SPTR)text, len, 0, 0, md,
					 NULL);
			pcre2_code_free(c);
			if (rc >= 0) {
				secs[n++] = (uint32_t)i;
				break;
			}
		}
	}
	pcre2_match_data_free(md);
	return n;
}

static void check_keywords_agree(const struct maintainers *m,
				 const struct map *map, const char *text,
				 size_t len)
{
	struct map_hit hits[MAP_MAX_HITS];
	uint32_t want[MAP_MAX_HITS];
	size_t n = map_keywords(map, text, len, hits, MAP_MAX_HITS), k, i;

	k = naive_keywords(m, text, len, want, MAP_MAX_HITS);
	assert_int_equal(n, k);
	for (i = 0; i < n; i++)
		assert_int_equal(hits[i].section, want[i]);
}

/*
 * The required-literal prefilter of K: patterns must never change a
 * result: compare with pcre2 alone on texts made to hit and miss.
 */
static const char *const prefilter_text =
	"SIFIVE\nA\tsifive B\nAsifive\n"
	"K1\nK:\t[^@]sifive\n"
	"K2\nK:\t\\b(?:devm_|of_)?reset_control(?:ler_[a-z]+)?\\b\n"
	"K3\nK:\t(devm_)?gpio_regmap_(un)?register\n"
	"K4\nK:\t\\baudit_[a-z_0-9]\\+\\b\n"
	"K5\nK:\tphy\\.h|struct\\s+phy\n"
	"K6\nK:\tabc?d\n"
	"K7\nK:\t(?i)CaseLess\n"
	"K8\nK:\tx y z   # a /x comment\n"
	"K9\nK:\tfoo{2}bar\n";
static const char *const prefilter_texts[] = {
	"a sifive board",
	"@sifive only",
	"devm_reset_control_get()",
	"gpio_regmap_unregister(x)",
	"audit_log+ here",
	"struct  phy *p",
	"abd and abcd",
	"caseless",
	"xyz",
	"fooobar",
	"fobar",
	"",
};

static void test_keyword_prefilter_is_exact(void **state)
{
	struct maintainers m;
	struct map *map;
	size_t i;

	maintainers_init(&m);
	maintainers_parse(&m, prefilter_text, strlen(prefilter_text),
			  "MAINTAINERS");
	map = map_compile(&m, NULL);
	for (i = 0; i < ARRAY_SIZE(prefilter_texts); i++)
		check_keywords_agree(&m, map, prefilter_texts[i],
				     strlen(prefilter_texts[i]));
	map_free(map);
	maintainers_release(&m);
}

/* The same over the real K: patterns and real report texts. */
static void test_keyword_prefilter_real(void **state)
{
	const char *src = getenv("TRIAGE_SRCDIR");
	char *mnt, *dir;
	struct maintainers m;
	struct map *map;
	DIR *d;
	struct dirent *de;
	size_t checked = 0;
	const char *classes[] = { "user", "fuzzer", "ai" };
	size_t c;

	mnt = xasprintf("%s/../shared/data/linux/MAINTAINERS", src ? src : ".");
	if (access(mnt, R_OK) != 0) {
		printf("# ../shared absent: K: prefilter checked on fixtures only\n");
		free(mnt);
		skip();
	}
	maintainers_init(&m);
	assert_int_equal(maintainers_load(&m, mnt), 0);
	map = map_compile(&m, NULL);
	for (c = 0; c < ARRAY_SIZE(classes); c++) {
		dir = xasprintf("%s/../shared/corpus/reports/%s",
				src ? src : ".", classes[c]);
		d = opendir(dir);
		assert_non_null(d);
		while ((de = readdir(d))) {
			char *path, *data;
			size_t len;

			if (!ends_with(de->d_name, ".eml"))
				continue;
			path = xasprintf("%s/%s", dir, de->d_name);
			assert_int_equal(read_file(path, 1 << 24, &data, &len),
					 0);
			check_keywords_agree(&m, map, data, len);
			checked++;
			free(data);
			free(path);
		}
		closedir(d);
		free(dir);
	}
	printf("# K: prefilter agrees with pcre2 alone on %zu reports\n",
	       checked);
	map_free(map);
	maintainers_release(&m);
	free(mnt);
}

static void test_overlay(void **state)
{
	const char *base = "XFS FILESYSTEM\nM:\tc <c@k.org>\nF:\tfs/xfs/\n";
	const char *ov = "XFS FILESYSTEM\nB:\tmailto:xfs-triage@example.org\n"
			 "LOCAL ONLY\nM:\tl <l@example.org>\nF:\tlocal/\n";
	struct maintainers m, o;
	struct map *map;
	int sec;

	maintainers_init(&m);
	maintainers_init(&o);
	maintainers_parse(&m, base, strlen(base), "MAINTAINERS");
	maintainers_parse(&o, ov, strlen(ov), "MAINTAINERS.local");
	maintainers_overlay(&m, &o);
	map = map_compile(&m, NULL);
	sec = map_find_section(map, "xfs filesystem");
	assert_true(sec >= 0);
	assert_string_equal(map_value(map, (uint32_t)sec, 'B'),
			    "mailto:xfs-triage@example.org");
	assert_string_equal(lookup(map, "local/x.c"), "LOCAL ONLY");
	assert_string_equal(lookup(map, "fs/xfs/xfs_inode.c"),
			    "XFS FILESYSTEM");
	map_free(map);
	maintainers_release(&o);
	maintainers_release(&m);
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_directory_of_files(void **state)
{
	struct maintainers m;
	char *a, *b, *dir;

	make_tree();
	dir = xasprintf("%s/board/acme", tmpdir);
	assert_int_equal(mkdir_p(dir, 0755), 0);
	a = xasprintf("%s/MAINTAINERS", tmpdir);
	b = xasprintf("%s/board/acme/MAINTAINERS", tmpdir);
	write_text(a, "TOP\nM:\tt <t@x.org>\nF:\tcommon/\n");
	/* Starts with tags: get_maintainer.pl's concatenated stream puts
	 * them in the previous file's last section. */
	write_text(b, "F:\tboard/acme/\n\nACME BOARD\nM:\ta <a@x.org>\n");
	maintainers_init(&m);
	assert_int_equal(maintainers_load(&m, tmpdir), 0);
	assert_int_equal(m.nsources, 2);
	/* Sorted paths: ".../MAINTAINERS" sorts before ".../board/...",
	 * so the board file's leading F: line extends TOP. */
	assert_int_equal(m.nsections, 2);
	assert_string_equal(m.sections[0].title, "TOP");
	assert_int_equal(m.sections[0].nentries, 3);
	assert_string_equal(m.sections[0].entries[2].value, "board/acme/");
	assert_string_equal(m.sections[1].title, "ACME BOARD");
	maintainers_release(&m);
	free(a);
	free(b);
	free(dir);
	remove_tree();
}

static void test_saved_index_matches_and_rejects_corruption(void **state)
{
	const char *text = "NET\nF:\tnet/\nN:\tnetfilter\n"
			   "THE REST\nF:\t*\nF:\t*/\n";
	struct map *map = compile_text(text, NULL), *m2;
	char path[] = "/tmp/triage-idx-XXXXXX";
	int fd = mkstemp(path);
	char *data;
	size_t len;
	uint32_t off, n, nsections;
	struct map_hit hits[4];

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(map_save(map, path), 0);
	m2 = map_open(path);
	assert_non_null(m2);
	assert_string_equal(lookup(m2, "net/netfilter/x.c"), "NET | THE REST");
	assert_string_equal(lookup(m2, "include/netfilter.h"),
			    "NET | THE REST");
	map_free(m2);

	/* Truncated, or with a bad magic: refused, not crashed on. */
	assert_int_equal(read_file(path, 1 << 20, &data, &len), 0);
	memcpy(&nsections, data + 24, 4);
	assert_int_equal(write_file_atomic(path, data, len / 2, 0600), 0);
	assert_null(map_open(path));
	data[0] ^= 0x55;
	assert_int_equal(write_file_atomic(path, data, len, 0600), 0);
	assert_null(map_open(path));
	data[0] ^= 0x55;
	/* A count that takes an array outside the image. */
	memset(data + 24, 0xff, 4); /* header.nsections */
	assert_int_equal(write_file_atomic(path, data, len, 0600), 0);
	assert_null(map_open(path));

	/*
	 * A damaged element is found when it is used (open checks only
	 * the header and the arrays' bounds): the first section's title
	 * offset, then where every bucket's patterns start.
	 */
	memcpy(data + 24, &nsections, 4);
	memcpy(&off, data + 48, 4); /* header.off_sections */
	memset(data + off, 0xff, 4);
	assert_int_equal(write_file_atomic(path, data, len, 0600), 0);
	m2 = map_open(path);
	assert_non_null(m2);
	assert_string_equal(map_title(m2, 0), "");
	assert_string_equal(map_title(m2, 1), "THE REST");
	assert_string_equal(map_title(m2, 7), "");
	assert_int_equal(map_nentries(m2, 0), 0);
	assert_string_equal(lookup(m2, "net/x.c"), " | THE REST");
	map_free(m2);
	memcpy(&off, data + 60, 4); /* header.off_buckets */
	memcpy(&n, data + 36, 4);   /* header.nbuckets */
	for (; n > 0; n--) /* struct img_bucket: hash, len, first, count */
		memset(data + off + 16 * (n - 1) + 8, 0xff, 4);
	assert_int_equal(write_file_atomic(path, data, len, 0600), 0);
	m2 = map_open(path);
	assert_non_null(m2);
	assert_int_equal(map_lookup(m2, "net/x.c", hits, 4), 0);
	map_free(m2);
	free(data);
	unlink(path);
	map_free(map);
}

/*
 * The K: literals live in the saved image (since format 3): a mapped index
 * gives what pcre2 alone gives; an index of format 3 is refused; a
 * damaged literal drops only its pattern's prefilter hits.
 */
static void test_saved_index_keywords(void **state)
{
	char path[] = "/tmp/triage-idx-XXXXXX";
	int fd = mkstemp(path);
	struct maintainers m;
	struct map *map, *m2;
	struct map_hit hits[16];
	uint32_t u, off, n;
	char *data;
	size_t len, i;

	assert_true(fd >= 0);
	close(fd);
	maintainers_init(&m);
	maintainers_parse(&m, prefilter_text, strlen(prefilter_text),
			  "MAINTAINERS");
	map = map_compile(&m, NULL);
	assert_int_equal(map_save(map, path), 0);
	m2 = map_open(path);
	assert_non_null(m2);
	for (i = 0; i < ARRAY_SIZE(prefilter_texts); i++)
		check_keywords_agree(&m, m2, prefilter_texts[i],
				     strlen(prefilter_texts[i]));
	map_free(m2);

	assert_int_equal(read_file(path, 1 << 20, &data, &len), 0);
	memcpy(&u, data + 8, 4); /* header.version */
	assert_int_equal(u, 6);
	u = 5;
	memcpy(data + 8, &u, 4);
	assert_int_equal(write_file_atomic(path, data, len, 0600), 0);
	assert_null(map_open(path));
	u = 6;
	memcpy(data + 8, &u, 4);

	/*
	 * A damaged byte of the pcre2 serialisation (here where its first
	 * code's length lies, past the header and the 1,088 bytes of
	 * tables), which pcre2_serialize_decode() would follow: refused.
	 */
	memcpy(&off, data + 76, 4); /* header.off_regex */
	memcpy(&n, data + 80, 4);   /* header.regex_size */
	assert_true(n > 16 + 1088 + 80);
	data[off + 16 + 1088 + 75] ^= 0x10;
	assert_int_equal(write_file_atomic(path, data, len, 0600), 0);
	assert_null(map_open(path));
	data[off + 16 + 1088 + 75] ^= 0x10;
	data[off + n - 1] ^= 0x01; /* its last byte */
	assert_int_equal(write_file_atomic(path, data, len, 0600), 0);
	assert_null(map_open(path));
	data[off + n - 1] ^= 0x01;
	assert_int_equal(write_file_atomic(path, data, len, 0600), 0);
	m2 = map_open(path);
	assert_non_null(m2);
	map_free(m2);

	/* every literal's string offset out of range: nothing found */
	memcpy(&n, data + 92, 4);   /* header.nklits */
	memcpy(&off, data + 96, 4); /* header.off_klits */
	assert_true(n > 0);
	for (i = 0; i < n; i++)
		memset(data + off + 8 * i, 0xff, 4);
	assert_int_equal(write_file_atomic(path, data, len, 0600), 0);
	m2 = map_open(path);
	assert_non_null(m2);
	assert_int_equal(map_keywords(m2, "a sifive board", 14, hits, 16), 0);
	assert_int_equal(map_keywords(map, "a sifive board", 14, hits, 16), 1);
	map_free(m2);
	free(data);
	unlink(path);
	map_free(map);
	maintainers_release(&m);
}

/* who names what: lists and people of a small tree of sections */
static const char *people_text =
	"USB SUBSYSTEM\nM:\tGreg <Greg@K.org>\nL:\tlinux-usb@vger.kernel.org\n"
	"F:\tdrivers/usb/\nF:\tinclude/linux/usb.h\n"
	"USB XHCI DRIVER\nM:\tMathias <mathias@i.com>\n"
	"L:\tlinux-usb@vger.kernel.org\nF:\tdrivers/usb/host/xhci*\n"
	"USB STORAGE DRIVER\nL:\tlinux-usb@vger.kernel.org\n"
	"F:\tdrivers/usb/storage/\n"
	"USB ATTACHED SCSI\nR:\tOliver <o@n.com>\n"
	"L:\tlinux-usb@vger.kernel.org\nF:\tdrivers/usb/storage/uas.c\n"
	"USB NETWORKING DRIVERS\nL:\tlinux-usb@vger.kernel.org\n"
	"L:\tnetdev@vger.kernel.org\nF:\tdrivers/net/usb/\n"
	"USB TYPEC CLASS\nM:\tHeikki <h@i.com>\n"
	"F:\tDocumentation/ABI/testing/sysfs-class-typec\n"
	"F:\tdrivers/usb/typec/\n"
	"USB DOCS\nM:\tDoc <d@i.com>\nF:\tDocumentation/usb/\n"
	"USB PACKET\nM:\tPat <p@i.com>\nF:\tinclude/uapi/linux/usbpkt.h\n"
	"F:\tdrivers/usb/pkt/\nF:\ttools/testing/selftests/usbpkt/\n"
	"USB TWIN\nL:\tlinux-usb@vger.kernel.org\nF:\tdrivers/usb/twin/\n"
	"USB TWIN TOO\nL:\tlinux-usb@vger.kernel.org\nF:\tdrivers/usb/twin/\n"
	"STABLE BRANCH\nM:\tGreg <greg@k.org>\nL:\tstable@vger.kernel.org\n"
	"F:\tDocumentation/process/stable-kernel-rules.rst\n"
	"LINUX-NEXT TREE\nM:\tStephen <sfr@c.au>\nL:\tlinux-next@vger.kernel.org\n"
	"B:\tmailto:linux-next@vger.kernel.org\n"
	"BUGS\nB:\tmailto:usb-bugs@k.org\nF:\tdrivers/usb/core/\n"
	"FS\nL:\tlinux-kernel@vger.kernel.org\nF:\tfs/\n"
	"EXT2 FILE SYSTEM\nL:\tlinux-ext4@vger.kernel.org\nF:\tfs/ext2/\n"
	"EXT4 FILE SYSTEM\nL:\tlinux-ext4@vger.kernel.org\nF:\tfs/ext4/\n"
	"JBD2\nL:\tlinux-ext4@vger.kernel.org\nF:\tfs/jbd2/\n"
	"SERIAL BUS\nL:\tlinux-serial@vger.kernel.org\nF:\tdrivers/tty/serdev/\n"
	"TTY LAYER AND SERIAL DRIVERS\nL:\tlinux-serial@vger.kernel.org\n"
	"F:\tdrivers/tty/\n"
	"ACME UART\nL:\tlinux-serial@vger.kernel.org\nF:\tdrivers/acme/uart.c\n"
	"ACME FOO\nL:\tlinux-acme@k.org\nF:\tdrivers/acme/foo/\n"
	"ACME BAR\nL:\tlinux-acme@k.org\nF:\tdrivers/acme/bar/\n"
	"DRM DRIVER FOR ACME GPUS\nL:\tnouvo@lists.example.org\n"
	"F:\tdrivers/gpu/drm/nouvo/\n"
	"MMIO TRACER\nL:\tnouvo@lists.example.org\nF:\tarch/x86/mm/kmmio.c\n"
	"F:\tinclude/linux/mmiotrace.h\n"
	"ZIP ONE\nL:\tzip@k.org\nF:\tdrivers/zip/one.c\n"
	"ZIP TWO\nL:\tzip@k.org\nF:\tlib/zip.c\n"
	"ZIP THREE\nL:\tzip@k.org\nF:\tfs/zip/\n"
	"THE REST\nM:\tLinus <torvalds@l.org>\n"
	"L:\tlinux-kernel@vger.kernel.org\nF:\t*\nF:\t*/\n";

static double share_of(const struct map *map, const char *addr,
		       const char *title, char *tag)
{
	struct map_addr_hit hits[16];
	size_t n = map_address(map, addr, hits, ARRAY_SIZE(hits)), i;

	for (i = 0; i < n; i++)
		if (!strcmp(map_title(map, hits[i].section), title)) {
			*tag = hits[i].tag;
			return hits[i].share;
		}
	return 0;
}

static bool umbrella(const struct map *map, const char *inner,
		     const char *outer)
{
	const uint32_t *ids;
	size_t n = map_umbrellas(map, (uint32_t)map_find_section(map, inner),
				 &ids),
	       i;

	for (i = 0; i < n; i++)
		if (!strcmp(map_title(map, ids[i]), outer))
			return true;
	return false;
}

/* titles of the sections map_file_named()/map_list_named() give */
static void named(const struct map *map, bool list, const char *name,
		  const char *want, size_t want_total)
{
	uint32_t secs[8];
	size_t n, total, i;
	char got[512] = "";

	n = list ? map_list_named(map, name, secs, 8, &total)
		 : map_file_named(map, name, secs, 8, &total);
	for (i = 0; i < n; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s",
			 i ? "|" : "", map_title(map, secs[i]));
	if (strcmp(got, want) || total != want_total)
		fail_msg("%s %s: want \"%s\" (%zu), got \"%s\" (%zu)",
			 list ? "list" : "file", name, want, want_total, got,
			 total);
}

/* the names F: patterns end in and the names of lists, in the index too */
static void test_file_and_list_names(void **state)
{
	char path[] = "/tmp/triage-idx-XXXXXX";
	struct map *map = compile_text(people_text, NULL), *m2;
	int fd = mkstemp(path);
	int pass;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(map_save(map, path), 0);
	m2 = map_open(path);
	assert_non_null(m2);
	for (pass = 0; pass < 2; pass++) {
		const struct map *mp = pass ? m2 : map;

		named(mp, false, "storage", "USB STORAGE DRIVER", 1);
		named(mp, false, "UAS", "USB ATTACHED SCSI", 1);
		/* the shallowest: drivers/usb/ (USB), not drivers/net/usb/ */
		named(mp, false, "usb", "USB SUBSYSTEM", 1);
		named(mp, false, "twin", "USB TWIN|USB TWIN TOO", 2);
		/* a wildcard or a file of another kind names nothing */
		named(mp, false, "xhci", "", 0);
		named(mp, false, "sysfs-class-typec", "", 0);
		named(mp, false, "nothing", "", 0);
		named(mp, true, "acme", "ACME FOO|ACME BAR", 2);
		named(mp, true, "EXT4",
		      "EXT2 FILE SYSTEM|EXT4 FILE SYSTEM|JBD2", 3);
		named(mp, true, "netdev", "USB NETWORKING DRIVERS", 1);
		named(mp, true, "vger", "", 0);
	}
	map_free(m2);
	map_free(map);
	unlink(path);
}

static void test_people_and_umbrellas(void **state)
{
	struct map_addr_hit hits[16];
	char path[] = "/tmp/triage-idx-XXXXXX";
	struct map *map = compile_text(people_text, NULL), *m2;
	int fd = mkstemp(path);
	char tag = 0;
	size_t i;

	(void)state;
	/* strictly inside, by get_maintainer.pl's matching */
	assert_true(umbrella(map, "USB XHCI DRIVER", "USB SUBSYSTEM"));
	assert_true(umbrella(map, "USB ATTACHED SCSI", "USB STORAGE DRIVER"));
	assert_true(umbrella(map, "USB ATTACHED SCSI", "USB SUBSYSTEM"));
	assert_true(umbrella(map, "USB TWIN", "USB SUBSYSTEM"));
	assert_false(umbrella(map, "USB SUBSYSTEM", "USB XHCI DRIVER"));
	/* its Documentation/ files do not keep a driver out of it */
	assert_true(umbrella(map, "USB TYPEC CLASS", "USB SUBSYSTEM"));
	/* nor its uapi header and selftests apart from its code */
	assert_true(umbrella(map, "USB PACKET", "USB SUBSYSTEM"));
	/* nor make a section of documents only anyone's */
	assert_false(umbrella(map, "USB DOCS", "USB SUBSYSTEM"));
	assert_false(umbrella(map, "USB DOCS", "THE REST"));
	assert_false(umbrella(map, "USB NETWORKING DRIVERS", "USB SUBSYSTEM"));
	/* the same paths: neither holds the other; THE REST never does */
	assert_false(umbrella(map, "USB TWIN", "USB TWIN TOO"));
	assert_false(umbrella(map, "USB TWIN TOO", "USB TWIN"));
	assert_false(umbrella(map, "FS", "THE REST"));
	/* map_holds() says the same of one pair */
	assert_true(
		map_holds(map, (uint32_t)map_find_section(map, "USB PACKET"),
			  (uint32_t)map_find_section(map, "USB SUBSYSTEM")));
	assert_false(map_holds(map,
			       (uint32_t)map_find_section(map, "USB SUBSYSTEM"),
			       (uint32_t)map_find_section(map, "USB PACKET")));

	/*
	 * linux-usb@ is in 7 sections: USB SUBSYSTEM, named after it, takes
	 * the whole; the storage driver covers itself and UAS
	 */
	assert_true(share_of(map, "linux-usb@vger.kernel.org", "USB SUBSYSTEM",
			     &tag) > 0.999);
	assert_int_equal(tag, 'L');
	assert_true(fabs(share_of(map, "linux-usb@vger.kernel.org",
				  "USB STORAGE DRIVER", &tag) -
			 2.0 / 7) < 1e-3);
	assert_true(fabs(share_of(map, "linux-usb@vger.kernel.org",
				  "USB XHCI DRIVER", &tag) -
			 1.0 / 7) < 1e-3);
	/* the list's own section, named after it, takes the whole */
	assert_true(share_of(map, "linux-ext4@vger.kernel.org",
			     "EXT4 FILE SYSTEM", &tag) > 0.999);
	assert_true(fabs(share_of(map, "linux-ext4@vger.kernel.org",
				  "EXT2 FILE SYSTEM", &tag) -
			 1.0 / 3) < 1e-3);
	/* named after it by any word of its title: of those, the one
	 * covering most (not "SERIAL BUS" for starting with the name) */
	assert_true(share_of(map, "linux-serial@vger.kernel.org",
			     "TTY LAYER AND SERIAL DRIVERS", &tag) > 0.999);
	assert_true(fabs(share_of(map, "linux-serial@vger.kernel.org",
				  "SERIAL BUS", &tag) -
			 1.0 / 3) < 1e-3);
	/* named after it, but none over the others: no one's own */
	assert_true(fabs(share_of(map, "linux-acme@k.org", "ACME FOO", &tag) -
			 0.5) < 1e-3);
	/* none named after it by its title: the one whose code is
	 * named after it (drivers/gpu/drm/nouvo/), not one that only
	 * Cc's the list; two such, no one's */
	assert_true(share_of(map, "nouvo@lists.example.org",
			     "DRM DRIVER FOR ACME GPUS", &tag) > 0.999);
	assert_true(fabs(share_of(map, "nouvo@lists.example.org", "MMIO TRACER",
				  &tag) -
			 0.5) < 1e-3);
	assert_true(fabs(share_of(map, "zip@k.org", "ZIP TWO", &tag) -
			 1.0 / 3) < 1e-3);
	assert_true(fabs(share_of(map, "zip@k.org", "ZIP THREE", &tag) -
			 1.0 / 3) < 1e-3);
	/* the umbrella of an address's sections is marked */
	assert_int_equal(
		map_address(map, "linux-usb@vger.kernel.org", hits, 16), 7);
	for (i = 0; i < 7; i++)
		assert_int_equal(
			hits[i].umbrella,
			!strcmp(map_title(map, hits[i].section),
				"USB SUBSYSTEM") ||
				!strcmp(map_title(map, hits[i].section),
					"USB STORAGE DRIVER"));
	/* people: M: and R: in lower case; B: mailto: too */
	assert_true(share_of(map, "mathias@i.com", "USB XHCI DRIVER", &tag) >
		    0.999);
	assert_int_equal(tag, 'M');
	assert_true(share_of(map, "o@n.com", "USB ATTACHED SCSI", &tag) >
		    0.999);
	assert_int_equal(tag, 'R');
	assert_true(share_of(map, "usb-bugs@k.org", "BUGS", &tag) > 0.999);
	assert_int_equal(tag, 'B');
	/* Greg of USB and of STABLE: the section that owns no source
	 * lends nothing */
	assert_int_equal(map_address(map, "greg@k.org", hits, 16), 1);
	assert_string_equal(map_title(map, hits[0].section), "USB SUBSYSTEM");
	/* nothing for process lists, THE REST's list, its people,
	 * unknown addresses or upper case */
	assert_int_equal(map_address(map, "stable@vger.kernel.org", hits, 16),
			 0);
	assert_int_equal(
		map_address(map, "linux-next@vger.kernel.org", hits, 16), 0);
	assert_int_equal(
		map_address(map, "linux-kernel@vger.kernel.org", hits, 16), 0);
	assert_int_equal(map_address(map, "torvalds@l.org", hits, 16), 0);
	assert_int_equal(map_address(map, "nobody@k.org", hits, 16), 0);
	assert_int_equal(map_address(map, "Mathias@i.com", hits, 16), 0);

	/* the same from a saved index */
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(map_save(map, path), 0);
	m2 = map_open(path);
	assert_non_null(m2);
	assert_true(umbrella(m2, "USB ATTACHED SCSI", "USB SUBSYSTEM"));
	assert_true(fabs(share_of(m2, "linux-usb@vger.kernel.org",
				  "USB STORAGE DRIVER", &tag) -
			 2.0 / 7) < 1e-3);
	map_free(m2);
	unlink(path);
	map_free(map);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_titles_and_entries),
		cmocka_unit_test(test_hot_strings_first),
		cmocka_unit_test(test_stray_line_splits_section),
		cmocka_unit_test(test_trailing_slash_and_depth),
		cmocka_unit_test(test_star_crosses_slash_at_same_depth),
		cmocka_unit_test(test_classes_and_question_mark),
		cmocka_unit_test(test_exclude_drops_section),
		cmocka_unit_test(test_regex_n_depth_zero),
		cmocka_unit_test(test_last_matching_line_sets_depth),
		cmocka_unit_test(test_regex_fallback),
		cmocka_unit_test(test_glob_longer_than_path),
		cmocka_unit_test(test_directory_without_slash),
		cmocka_unit_test(test_keywords),
		cmocka_unit_test(test_keyword_prefilter_is_exact),
		cmocka_unit_test(test_keyword_prefilter_real),
		cmocka_unit_test(test_saved_index_keywords),
		cmocka_unit_test(test_overlay),
		cmocka_unit_test(test_directory_of_files),
		cmocka_unit_test(
			test_saved_index_matches_and_rejects_corruption),
		cmocka_unit_test(test_people_and_umbrellas),
		cmocka_unit_test(test_file_and_list_names),
	};

	msg_setup("test_map", 1, false);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
