/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * strbuf - bounded growable byte string
 *
 * DESCRIPTION
 *	A NUL-terminated buffer that grows by doubling up to a cap fixed at
 *	init time (curl's dynbuf "toobig").  Every append past the cap
 *	fails with -1 and leaves the buffer unchanged, so untrusted input
 *	can never grow a buffer without bound.
 *
 * Ownership:
 *	sb->buf belongs to the strbuf until sb_detach() hands it over.
 *	sb_release() frees it; a released strbuf may be initialised again.
 */
#ifndef TRIAGE_STRBUF_H
#define TRIAGE_STRBUF_H

#include <stddef.h>

#include "util.h"

struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
	size_t max;
};

#define STRBUF_INIT(max)          \
	{                         \
		NULL, 0, 0, (max) \
	}

void sb_init(struct strbuf *sb, size_t max);
void sb_release(struct strbuf *sb);
void sb_reset(struct strbuf *sb);
char *sb_detach(struct strbuf *sb, size_t *len);
const char *sb_str(const struct strbuf *sb);

int sb_add(struct strbuf *sb, const void *data, size_t len);
int sb_adds(struct strbuf *sb, const char *s);
int sb_addc(struct strbuf *sb, char c);
int sb_addf(struct strbuf *sb, const char *fmt, ...) PRINTF_LIKE(2, 3);
void sb_truncate(struct strbuf *sb, size_t len);

#endif
