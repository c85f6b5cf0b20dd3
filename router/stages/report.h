/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report - the plain C data model of one bug report
 *
 * DESCRIPTION
 *	A report is what intake and parse make of one message (or of one
 *	Bugzilla bug): its identity, its top-level headers decoded to
 *	UTF-8, and every MIME part as decoded UTF-8 text.  Every later
 *	stage reads it; none of them sees GMime, libcurl or SQLite types.
 *
 *	Text limits: parse keeps at most REPORT_TEXT_MAX bytes of decoded
 *	text in all, and flags the report REPORT_TRUNCATED when it had to
 *	cut.  Classification looks at a further capped prefix.
 *
 * Ownership:
 *	struct report owns every string and array in it, including raw;
 *	report_free() releases all of it.
 */
#ifndef TRIAGE_REPORT_H
#define TRIAGE_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#define REPORT_TEXT_MAX (4u << 20)

struct report_header {
	char *name;  /* as written, e.g. "Subject" */
	char *value; /* unfolded, RFC 2047 decoded, UTF-8 */
};

enum {
	PART_TEXT = 1 << 0,	  /* text holds decoded UTF-8 */
	PART_ATTACHMENT = 1 << 1, /* Content-Disposition: attachment or named */
	PART_HTML = 1 << 2,	  /* text is a rendering of text/html */
	PART_GZIP = 1 << 3,	  /* text was gunzipped (dmesg.txt.gz) */
	PART_NESTED = 1 << 4,	  /* inside a message/rfc822 part */
	PART_TRUNCATED = 1 << 5,  /* text was cut at a limit */
	PART_HIDDEN = 1 << 6,	  /* its HTML hid text from the reader
				   * (mimetext_html_hidden()) */
};

struct report_part {
	char *path;	 /* GMimePartIter path, "1", "2.1", ... */
	char *mime_type; /* lower case, "text/plain" */
	char *filename;	 /* attachment name, or NULL */
	char *text;	 /* decoded UTF-8 (PART_TEXT), else NULL */
	size_t len;	 /* bytes in text */
	size_t raw_size; /* encoded size of the part */
	unsigned flags;	 /* PART_* */
};

enum {
	REPORT_TRUNCATED = 1 << 0, /* some text was cut at a limit */
	REPORT_MALFORMED = 1 << 1, /* parser warnings of the critical kind */
	REPORT_HTML_ONLY = 1 << 2, /* no text/plain: text rendered from html */
	REPORT_NOT_MIME = 1 << 3,  /* a bare console log, not a message */
	REPORT_OVERSIZED = 1 << 4, /* refused by intake caps: raw only */
};

struct report {
	/* identity, from intake */
	char sha256[65]; /* hex of the message bytes (From_ line removed) */
	char *raw;	 /* the message bytes, From_ line removed */
	size_t raw_len;
	char *envelope_from; /* $SENDER from the MTA, or NULL */
	char *envelope_to;   /* $ORIGINAL_RECIPIENT / $RECIPIENT, or NULL */
	char *client_net;    /* $CLIENT_ADDRESS's /24 or /64, or NULL */
	const char *source;  /* "mail", "bugzilla", "file" (static) */

	/* top-level headers, from parse */
	struct report_header *headers;
	size_t nheaders;
	char *message_id;  /* without < >, or NULL */
	char *subject;	   /* decoded, or "" */
	char *from;	   /* display form "Name <addr>", or "" */
	char *from_addr;   /* lower-cased bare address, or "" */
	char *date;	   /* as written, or NULL */
	time_t when;	   /* parsed Date:, 0 when absent or unparseable */
	char *in_reply_to; /* without < > */

	/* content, from parse */
	struct report_part *parts;
	size_t nparts;
	char *body; /* the main text: first inline text part (UTF-8) */
	size_t body_len;
	unsigned flags; /* REPORT_* */

	/* Bugzilla origin (0 / NULL for mail) */
	long bug_id;
	char *bug_url;
};

/* lifecycle */
struct report *report_new(void);
void report_free(struct report *r);

/* queries */
const char *report_header(const struct report *r, const char *name);
size_t report_header_all(const struct report *r, const char *name,
			 const char **out, size_t max);

/* building (parse, bugzilla and tests use these) */
void report_add_header(struct report *r, const char *name, const char *value);
struct report_part *report_add_part(struct report *r);

#endif
