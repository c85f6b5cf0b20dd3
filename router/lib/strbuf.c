// SPDX-License-Identifier: GPL-2.0-only
/*
 * strbuf - bounded growable byte string (see strbuf.h)
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

void sb_init(struct strbuf *sb, size_t max)
{
	sb->buf = NULL;
	sb->len = 0;
	sb->alloc = 0;
	sb->max = max;
}

void sb_release(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = 0;
	sb->alloc = 0;
}

void sb_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

/* sb_detach - hand the buffer to the caller (never NULL) */
char *sb_detach(struct strbuf *sb, size_t *len)
{
	char *p = sb->buf ? sb->buf : xstrdup("");

	if (len)
		*len = sb->len;
	sb->buf = NULL;
	sb->len = 0;
	sb->alloc = 0;
	return p;
}

const char *sb_str(const struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

static int grow(struct strbuf *sb, size_t extra)
{
	size_t want;

	if (extra > sb->max || sb->len > sb->max - extra)
		return -1;
	want = sb->len + extra + 1;
	if (want <= sb->alloc)
		return 0;
	if (sb->alloc == 0)
		sb->alloc = 64;
	while (sb->alloc < want)
		sb->alloc *= 2;
	sb->buf = xrealloc(sb->buf, sb->alloc);
	return 0;
}

int sb_add(struct strbuf *sb, const void *data, size_t len)
{
	if (grow(sb, len) < 0)
		return -1;
	if (len)
		memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
	return 0;
}

int sb_adds(struct strbuf *sb, const char *s)
{
	return sb_add(sb, s, strlen(s));
}

int sb_addc(struct strbuf *sb, char c)
{
	return sb_add(sb, &c, 1);
}

int sb_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || grow(sb, (size_t)n) < 0)
		return -1;
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
	return 0;
}

void sb_truncate(struct strbuf *sb, size_t len)
{
	if (len < sb->len) {
		sb->len = len;
		sb->buf[len] = '\0';
	}
}
