// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_sections - evidence to ranked sections (the map stage for reports)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "evidence.h"
#include "maintainers.h"
#include "map.h"
#include "sections.h"
#include "util.h"

static const char *fixture =
	"XFS FILESYSTEM\nM:\tx <x@k.org>\nL:\tlinux-xfs@vger.kernel.org\n"
	"F:\tfs/xfs/\n"
	"FILESYSTEMS (VFS)\nM:\tv <v@k.org>\nL:\tlinux-fsdevel@vger.kernel.org\n"
	"F:\tfs/*\nF:\tinclude/linux/fs.h\n"
	"MEMORY MANAGEMENT\nM:\tm <m@k.org>\nL:\tlinux-mm@kvack.org\nF:\tmm/\n"
	"SLAB ALLOCATOR\nM:\ts <s@k.org>\nL:\tlinux-mm@kvack.org\n"
	"F:\tmm/slub.c\nF:\tmm/slab*\n"
	"USB SUBSYSTEM\nM:\tg <g@k.org>\nL:\tlinux-usb@vger.kernel.org\n"
	"F:\tdrivers/usb/\n"
	"USB STORAGE DRIVER\nL:\tlinux-usb@vger.kernel.org\n"
	"F:\tdrivers/usb/storage/\n"
	"NAPI\nK:\t\\bnapi_schedule\\b\n"
	"THE REST\nM:\tl <l@k.org>\nF:\t*\nF:\t*/\n";

static struct map *map;

static int setup(void **state)
{
	struct maintainers m;

	maintainers_init(&m);
	maintainers_parse(&m, fixture, strlen(fixture), "MAINTAINERS");
	map = map_compile(&m, NULL);
	maintainers_release(&m);
	return map ? 0 : -1;
}

static int teardown(void **state)
{
	map_free(map);
	return 0;
}

static struct evidence *ev_new(const char *guilty, const char **files, size_t n)
{
	struct evidence *ev = xcalloc(1, sizeof(*ev));
	size_t i;

	ev->guilty_file = guilty ? xstrdup(guilty) : NULL;
	ev->files = xcalloc(n + 1, sizeof(char *));
	for (i = 0; i < n; i++)
		ev->files[i] = xstrdup(files[i]);
	ev->nfiles = n;
	return ev;
}

static void ev_del(struct evidence *ev)
{
	size_t i;

	for (i = 0; i < ev->nfiles; i++)
		free(ev->files[i]);
	free(ev->files);
	for (i = 0; i < ev->nframes; i++)
		free(ev->frames[i].file);
	free(ev->frames);
	free(ev->guilty_file);
	free(ev->subject_prefix);
	free(ev);
}

static const char *title(const struct section_list *l, size_t i)
{
	return i < l->n ? map_title(map, l->v[i].section) : "(none)";
}

static void test_guilty_file_ranks_first(void **state)
{
	const char *files[] = { "fs/xfs/xfs_inode.c", "mm/slub.c" };
	struct evidence *ev = ev_new("fs/xfs/xfs_inode.c", files, 2);
	struct section_list l;

	sections_for_report(map, ev, NULL, 0, &l);
	/* XFS (guilty) > SLAB (named in text, most specific for slub.c) >
	 * MEMORY MANAGEMENT (broader); THE REST never scores. */
	assert_int_equal(l.n, 3);
	assert_string_equal(title(&l, 0), "XFS FILESYSTEM");
	assert_string_equal(title(&l, 1), "SLAB ALLOCATOR");
	assert_string_equal(title(&l, 2), "MEMORY MANAGEMENT");
	assert_true(l.v[1].score > l.v[2].score);
	assert_non_null(strstr(l.v[0].why, "guilty file fs/xfs/xfs_inode.c"));
	section_list_release(&l);
	ev_del(ev);
}

static void test_frames_outweigh_text(void **state)
{
	const char *files[] = { "mm/slub.c", "fs/xfs/xfs_inode.c" };
	struct evidence *ev = ev_new(NULL, files, 2);
	struct section_list l;

	/* fs/xfs/xfs_inode.c is a frame's file: 0.5; mm/slub.c only
	 * named in the text: 0.4. */
	ev->frames = xcalloc(1, sizeof(*ev->frames));
	ev->frames[0].file = xstrdup("fs/xfs/xfs_inode.c");
	ev->nframes = 1;
	sections_for_report(map, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "XFS FILESYSTEM");
	assert_non_null(strstr(l.v[0].why, "stack frame"));
	assert_string_equal(title(&l, 1), "SLAB ALLOCATOR");
	section_list_release(&l);
	ev_del(ev);
}

static void test_subject_prefix(void **state)
{
	struct evidence *ev = ev_new(NULL, NULL, 0);
	struct section_list l;

	ev->subject_prefix = xstrdup("xfs");
	sections_for_report(map, ev, NULL, 0, &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(title(&l, 0), "XFS FILESYSTEM");
	section_list_release(&l);

	/* Ambiguous by title and list: the broadest section. */
	free(ev->subject_prefix);
	ev->subject_prefix = xstrdup("usb");
	sections_for_report(map, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "USB SUBSYSTEM");
	section_list_release(&l);

	/* A list name alone: "mm" -> linux-mm@ sections, broadest. */
	free(ev->subject_prefix);
	ev->subject_prefix = xstrdup("mm");
	sections_for_report(map, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "MEMORY MANAGEMENT");
	section_list_release(&l);

	/* With a "/": mapped as a path (mm/slub -> mm/slub.c). */
	free(ev->subject_prefix);
	ev->subject_prefix = xstrdup("mm/slub");
	sections_for_report(map, ev, NULL, 0, &l);
	assert_string_equal(title(&l, 0), "SLAB ALLOCATOR");
	assert_string_equal(title(&l, 1), "MEMORY MANAGEMENT");
	section_list_release(&l);
	ev_del(ev);
}

static void test_keywords_and_unmapped(void **state)
{
	const char *files[] = { "README" };
	struct evidence *ev = ev_new(NULL, files, 1);
	struct section_list l;
	const char *text = "the driver calls napi_schedule() twice";

	sections_for_report(map, ev, NULL, 0, &l);
	/* Only THE REST matches README: unmapped. */
	assert_int_equal(l.n, 0);
	section_list_release(&l);
	sections_for_report(map, ev, text, strlen(text), &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(title(&l, 0), "NAPI");
	section_list_release(&l);
	sections_for_report(map, NULL, NULL, 0, &l);
	assert_int_equal(l.n, 0);
	ev_del(ev);
}

static void test_catchall(void **state)
{
	assert_true(sections_is_catchall(
		map, (uint32_t)map_find_section(map, "THE REST")));
	assert_false(sections_is_catchall(
		map, (uint32_t)map_find_section(map, "NAPI")));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_guilty_file_ranks_first),
		cmocka_unit_test(test_frames_outweigh_text),
		cmocka_unit_test(test_subject_prefix),
		cmocka_unit_test(test_keywords_and_unmapped),
		cmocka_unit_test(test_catchall),
	};

	msg_setup("test_sections", 1, false);
	return cmocka_run_group_tests(tests, setup, teardown);
}
