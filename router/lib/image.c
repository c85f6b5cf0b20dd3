// SPDX-License-Identifier: GPL-2.0-only
/*
 * image - compiled index files (see image.h)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "image.h"
#include "strbuf.h"
#include "util.h"

size_t img_align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/*
 * img_sum - a 64-bit sum of n bytes, 8 at a time (cheap): not a
 * defence against whoever can write the state directory, who can write
 * the database too, but what keeps a damaged byte of a pcre2
 * serialisation, which pcre2_serialize_decode() takes on trust (a
 * code's length among them), from reaching it.
 */
uint64_t img_sum(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t h = 0x9e3779b97f4a7c15u ^ n, w;

	for (; n >= 8; b += 8, n -= 8) {
		memcpy(&w, b, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdu;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, b, n);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53u;
	return h ^ (h >> 29);
}

/* img_place - append an array at the next 8-byte boundary; its offset */
uint32_t img_place(struct strbuf *img, const void *data, size_t len,
		   const char *what)
{
	static const char zero[8];
	size_t off = img_align8(img->len);

	if (sb_add(img, zero, off - img->len) < 0 ||
	    sb_add(img, data, len) < 0 || off > UINT32_MAX)
		die("%s too large", what);
	return (uint32_t)off;
}

/* img_range_ok - n elements of elem bytes at off fit in size */
bool img_range_ok(size_t size, uint32_t off, size_t n, size_t elem,
		  size_t align)
{
	return (align <= 1 || off % align == 0) && off <= size &&
	       (elem == 0 || n <= (size - off) / elem);
}

/* img_map - map a whole file read-only */
void *img_map(const char *path, const char *what, size_t min, size_t max,
	      size_t *size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	void *p;

	if (fd < 0) {
		error("cannot open %s '%s': %s", what, path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (uint64_t)st.st_size < min || (uint64_t)st.st_size > max) {
		error("'%s': not a triage %s", path, what);
		close(fd);
		return NULL;
	}
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
	/*
	 * Fuzzing: a block of exactly the file's size, so that a read past
	 * the image is reported; in a mapping it reads the page's zeros.
	 */
	p = xmalloc((size_t)st.st_size);
	if (pread(fd, p, (size_t)st.st_size, 0) != st.st_size) {
		error("cannot read '%s'", path);
		free(p);
		close(fd);
		return NULL;
	}
	close(fd);
#else
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		error("cannot map '%s': %s", path, strerror(errno));
		return NULL;
	}
#endif
	*size = (size_t)st.st_size;
	return p;
}

void img_unmap(void *base, size_t size)
{
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
	free(base);
#else
	if (base)
		munmap(base, size);
#endif
}
