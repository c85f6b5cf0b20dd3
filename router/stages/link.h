/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * link - the references and subject tags a message links by
 *
 * DESCRIPTION
 *	The pure half of linking a message to what it follows up (the
 *	database half, which looks these up, is thread.h): the Message-IDs
 *	a message answers, and the "[triage #ID]" and Bugzilla "[Bug N]"
 *	tags of a subject.  Nothing here reads the database.
 *
 * Ownership:
 *	link_refs() returns new strings; the caller frees them.
 */
#ifndef TRIAGE_LINK_H
#define TRIAGE_LINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LINK_REFS_MAX 32 /* Message-IDs of References looked up */

struct report;

/*
 * link_subject_tag - the ID of a "[triage #ID]" or "[triage #ID-TOKEN]"
 * subject tag, and TOKEN into tok ("" for a bare tag; a token that does
 * not fit toksize is no tag); false: none
 */
bool link_subject_tag(const char *subject, int64_t *id, char *tok,
		      size_t toksize);

/* link_subject_bug - N of a Bugzilla "[Bug N]" subject; false: none */
bool link_subject_bug(const char *subject, long *bug);

/*
 * link_url_msgid - the Message-ID an archive link names, as a patch's
 * Closes: or Link: trailer gives it: "https://lore.kernel.org/r/ID",
 * ".../LIST/ID/", ".../all/ID/T/", "https://patch.msgid.link/ID",
 * "https://lkml.kernel.org/r/ID", or "<ID>" itself; %-escapes decoded.
 * false when the value names none (no '@' in a path part).
 */
bool link_url_msgid(const char *value, char *out, size_t size);

/*
 * link_archive_msgid - link_url_msgid() that first reads value by the
 * site's archive pattern (archive.h: "https://host/path?id=%s"): the
 * text between the pattern's prefix and suffix, %-decoded, when it is a
 * Message-ID; else what link_url_msgid() finds.  pattern NULL or
 * "none": link_url_msgid() alone.
 */
bool link_archive_msgid(const char *pattern, const char *value, char *out,
			size_t size);

/* link_url_bug - N of a Bugzilla link "...show_bug.cgi?id=N"; false: none */
bool link_url_bug(const char *value, long *bug);

/*
 * link_refs - the Message-IDs a message answers, most telling first:
 * In-Reply-To, then References newest first; without <>, unique;
 * at most max, each a new string (caller frees); returns the count
 */
size_t link_refs(const struct report *r, char **out, size_t max);

#endif
