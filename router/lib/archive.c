// SPDX-License-Identifier: GPL-2.0-only
/*
 * archive - the link to a message in a public mail archive (see
 * archive.h)
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "archive.h"
#include "strbuf.h"
#include "util.h"

bool archive_off(const char *pattern)
{
	return !pattern || !*pattern || !strcasecmp(pattern, "none");
}

bool archive_pattern_ok(const char *pattern)
{
	const char *p, *s;

	if (archive_off(pattern))
		return false;
	if (strncmp(pattern, "https://", 8) && strncmp(pattern, "http://", 7))
		return false;
	for (p = pattern; *p; p++)
		if ((unsigned char)*p <= ' ' || (unsigned char)*p >= 0x7f)
			return false;
	s = strchr(pattern, '%');
	return s && s[1] == 's' && !strchr(s + 1, '%') &&
	       strlen(pattern) < ARCHIVE_URL_MAX / 2;
}

/*
 * in_path - bytes a path segment keeps as they are (RFC 3986 pchar:
 * unreserved, sub-delims, ':' and '@'); '/', '?', '#' and '%' are not
 */
static bool in_path(unsigned char c)
{
	return isalnum(c) || strchr("-._~!$&'()*+,;=:@", c);
}

char *archive_url(const char *pattern, const char *message_id)
{
	struct strbuf sb = STRBUF_INIT(ARCHIVE_URL_MAX);
	const char *s, *id = message_id, *end;
	int err = 0;

	if (!archive_pattern_ok(pattern) || !id)
		return NULL;
	id += strspn(id, " \t");
	if (*id == '<')
		id++;
	end = id + strlen(id);
	while (end > id && (end[-1] == '>' || end[-1] == ' '))
		end--;
	if (end == id)
		return NULL;
	s = strchr(pattern, '%');
	err |= sb_add(&sb, pattern, (size_t)(s - pattern));
	for (; id < end && !err; id++) {
		unsigned char c = (unsigned char)*id;

		if (c <= ' ' || c >= 0x7f) {
			err = -1;
		} else if (in_path(c)) {
			err |= sb_addc(&sb, (char)c);
		} else {
			err |= sb_addc(&sb, '%');
			err |= sb_addc(&sb, "0123456789ABCDEF"[c >> 4]);
			err |= sb_addc(&sb, "0123456789ABCDEF"[c & 15]);
		}
	}
	err |= sb_adds(&sb, s + 2);
	if (err) {
		sb_release(&sb);
		return NULL;
	}
	return sb_detach(&sb, NULL);
}

bool archive_report_addr(const char *text, const char *local, int64_t *id,
			 char *tok, size_t toksz)
{
	size_t ln = local ? strlen(local) : 0, n;
	const char *p, *q;
	unsigned long long v;

	if (!text || !ln || !toksz)
		return false;
	for (p = text; (p = strcasestr(p, local)) != NULL; p += ln) {
		/* the local part starts the address */
		if (p > text && p[-1] != '<' && p[-1] != ' ' && p[-1] != '\t')
			continue;
		q = p + ln;
		if (*q != '+' || !isdigit((unsigned char)q[1]))
			continue;
		for (v = 0, q++; isdigit((unsigned char)*q) && v < (1ULL << 60);
		     q++)
			v = v * 10 + (unsigned)(*q - '0');
		if (*q != '-' || v == 0 || v >= (1ULL << 60))
			continue;
		n = strspn(q + 1, "abcdefghijklmnopqrstuvwxyz234567");
		if (n == 0 || n >= toksz || q[1 + n] != '@')
			continue;
		memcpy(tok, q + 1, n);
		tok[n] = '\0';
		*id = (int64_t)v;
		return true;
	}
	return false;
}
