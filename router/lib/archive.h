/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * archive - the link to a message in a public mail archive
 *
 * DESCRIPTION
 *	routes.conf's archive_url is a pattern with exactly one "%s", the
 *	Message-ID without its angle brackets, URL-escaped (default
 *	https://lore.kernel.org/r/%s); "none" turns links off.  Forwards
 *	carry the link in X-Triage-Archive:, digests and reminders list
 *	it, so that whoever takes a report over finds its history, and a
 *	patch or commit that names the link (Closes:, Link:) names the
 *	report (link.h reads it back).
 *
 *	The pattern is never used as a format string: archive_url()
 *	substitutes the escaped id itself.  A usable pattern is printable
 *	ASCII, starts with http:// or https://, and has one "%s" and no
 *	other '%'.
 *
 * Ownership:
 *	archive_url() returns a malloc'ed string the caller frees.
 */
#ifndef TRIAGE_ARCHIVE_H
#define TRIAGE_ARCHIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARCHIVE_DEFAULT "https://lore.kernel.org/r/%s"
#define ARCHIVE_URL_MAX 2048 /* a link longer than this is not made */

/* archive_pattern_ok - pattern is usable (see above); "none" is not */
bool archive_pattern_ok(const char *pattern);
/* archive_off - pattern turns links off (NULL, "" or "none") */
bool archive_off(const char *pattern);

/*
 * archive_url - the link of message_id (with or without <>) by pattern:
 * malloc'ed, or NULL when links are off, the pattern is not usable or
 * the id is empty, not printable ASCII or too long
 */
char *archive_url(const char *pattern, const char *message_id);

/*
 * archive_report_addr - text names the per-report address
 * "LOCAL+ID-TOKEN@..." of a router whose own address' local part is
 * local (an address alone, in <>, or after a display name): *id and the
 * token (at most toksz - 1 bytes) out; false when it does not
 */
bool archive_report_addr(const char *text, const char *local, int64_t *id,
			 char *tok, size_t toksz);

#endif
