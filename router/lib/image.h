/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * image - compiled index files: laid out in memory, mapped read-only
 *
 * DESCRIPTION
 *	The MAINTAINERS map, the symbol index, the expert table and the
 *	model are each one position-independent image: a header with
 *	offsets, then arrays.  A builder appends arrays with img_place()
 *	(8-byte aligned, zero padding) and writes the image atomically; a
 *	reader maps it with img_map() and checks every array with
 *	img_range_ok() before trusting an offset, so that a damaged file is
 *	refused, never followed.  Part of the util layer: libc only.
 *
 * Errors:
 *	img_map() prints why and returns NULL; img_place() dies when the
 *	image would pass its strbuf's cap.
 */
#ifndef TRIAGE_IMAGE_H
#define TRIAGE_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct strbuf;

size_t img_align8(size_t n);
uint32_t img_place(struct strbuf *img, const void *data, size_t len,
		   const char *what);
bool img_range_ok(size_t size, uint32_t off, size_t n, size_t elem,
		  size_t align);
/* img_sum - a sum of n bytes that changes with any damaged byte */
uint64_t img_sum(const void *p, size_t n);

/*
 * img_map - map path read-only; its size must lie in [min, max];
 * what names the kind of file in messages ("symbol index")
 */
void *img_map(const char *path, const char *what, size_t min, size_t max,
	      size_t *size);
void img_unmap(void *base, size_t size);

#endif
