// SPDX-License-Identifier: GPL-2.0-only
/*
 * symbols_open - opening a symbol index: mapped, or read with pread()
 * (symbols.h; the layout is symbols.c's)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "image.h"
#include "symbols.h"
#include "symbols_int.h"
#include "util.h"

/* check_header - the header and every array bound; false if corrupt */
static bool check_header(const struct img_header *h, size_t size,
			 const char *path)
{
	if (memcmp(h->magic, SYM_MAGIC, 8) != 0) {
		error("'%s': not a triage symbol index", path);
		return false;
	}
	if (h->version != SYM_VERSION || h->endian != SYM_ENDIAN) {
		error("'%s': symbol index format %u is not %u; run 'triage update --kernel-tree DIR'",
		      path, h->version, SYM_VERSION);
		return false;
	}
	if (h->size != size || h->block_size != BLOCK_SIZE ||
	    h->nblocks > size / BLOCK_SIZE ||
	    !img_range_ok(size, h->off_top, h->top_size, 1, 4) ||
	    h->top_size < (uint64_t)h->nblocks * 5 ||
	    !img_range_ok(size, h->off_over, h->over_size, 1, 4) ||
	    !img_range_ok(size, h->off_paths, h->paths_size, 1, 4) ||
	    !img_range_ok(size, h->off_blocks, h->nblocks, BLOCK_SIZE,
			  BLOCK_SIZE) ||
	    !img_range_ok(size, h->off_ids, h->nblocks, 4, 4) ||
	    !img_range_ok(size, h->off_calls, h->calls_size, 1, 4) ||
	    h->calls_size < 2 || h->paths_size == 0 ||
	    !memchr(h->tree, '\0', sizeof(h->tree))) {
		error("'%s': corrupt symbol index; run 'triage update --kernel-tree DIR'",
		      path);
		return false;
	}
	return true;
}

/*
 * check_ends - the separators and the paths end in NUL (the mapped
 * reader; the pread() reader checks what it reads)
 */
static bool check_ends(const struct symbols *s, const char *path)
{
	const struct img_header *h = s->h;

	if (s->base[h->off_paths + h->paths_size - 1] != '\0' ||
	    (h->nblocks && s->base[h->off_top + h->top_size - 1] != '\0')) {
		error("'%s': corrupt symbol index; run 'triage update --kernel-tree DIR'",
		      path);
		return false;
	}
	return true;
}

/*
 * cut_header - is an index of size bytes starting with head (its first
 * 8 at least) shorter than a header?  Then say so: cut (our magic), or
 * not an index at all
 */
static bool cut_header(const void *head, size_t size, const char *path)
{
	if (size >= sizeof(struct img_header))
		return false;
	if (!memcmp(head, SYM_MAGIC, 8))
		error("'%s': corrupt symbol index; run 'triage update --kernel-tree DIR'",
		      path);
	else
		error("'%s': not a triage symbol index", path);
	return true;
}

/* symbols_open - mmap an index written by symbols_build() */
struct symbols *symbols_open(const char *path)
{
	struct symbols *s;
	size_t size;
	void *p = img_map(path, "symbol index", 8, UINT32_MAX, &size);

	if (!p)
		return NULL;
	if (cut_header(p, size, path)) {
		img_unmap(p, size);
		return NULL;
	}
	s = xcalloc(1, sizeof(*s));
	s->fd = -1;
	s->base = p;
	s->size = size;
	memcpy(&s->hdr, p, sizeof(s->hdr));
	s->h = &s->hdr;
	if (!check_header(s->h, size, path) || !check_ends(s, path)) {
		symbols_free(s);
		return NULL;
	}
	s->top = s->base + s->h->off_top;
	return s;
}

/*
 * symbols_open_pread - open an index to read only what lookups need
 * with pread(): for a process that makes a few lookups (the filter).
 * A mapping would bring whole page-cache folios into its resident set
 * (most of the index for a few lookups).  Opening reads
 * the header; the first lookup reads the separators (one read), and
 * each name then costs the read of one block (the last BLOCK_CACHE are
 * kept: 2 MB at most), and of each path returned.
 */
struct symbols *symbols_open_pread(const char *path)
{
	struct symbols *s;
	struct stat st;
	unsigned i;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		error("cannot open symbol index '%s': %s", path,
		      strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size < 8 ||
	    (uint64_t)st.st_size > UINT32_MAX) {
		error("'%s': not a triage symbol index", path);
		close(fd);
		return NULL;
	}
	if ((uint64_t)st.st_size < sizeof(struct img_header)) {
		char head[8];

		if (pread(fd, head, 8, 0) != 8)
			memset(head, 0, 8);
		cut_header(head, (size_t)st.st_size, path);
		close(fd);
		return NULL;
	}
	s = xcalloc(1, sizeof(*s));
	s->fd = fd;
	s->size = (size_t)st.st_size;
	s->h = &s->hdr;
	for (i = 0; i < BLOCK_CACHE; i++)
		s->block_no[i] = -1;
	if (pread(fd, &s->hdr, sizeof(s->hdr), 0) != sizeof(s->hdr)) {
		error("'%s': not a triage symbol index", path);
		goto fail;
	}
	if (!check_header(s->h, s->size, path))
		goto fail;
	return s;
fail:
	symbols_free(s);
	return NULL;
}

/* symbols_free - unmap or close an index (NULL is fine) */
void symbols_free(struct symbols *s)
{
	size_t i;

	if (!s)
		return;
	img_unmap(s->base, s->size);
	if (s->fd >= 0)
		close(s->fd);
	for (i = 0; i < s->nkept; i++)
		free(s->kept[i].path);
	free(s->kept);
	free(s->top_buf);
	free(s->ids_buf);
	if (s->lists)
		for (i = 0; i < LIST_CACHE; i++)
			free(s->lists[i].data);
	free(s->lists);
	for (i = 0; i < BLOCK_CACHE / BLOCK_CHUNK; i++)
		free(s->chunk[i]);
	free(s->slot);
	free(s);
}
