/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * intake - stage 1: read one message, cap it, name it by its hash
 *
 * DESCRIPTION
 *	intake_read_fd() reads everything the MTA hands over, to EOF, even
 *	past the size cap (OpenSMTPD treats an unread stdin as a failure),
 *	and keeps at most limits.max_bytes of it.  A leading mbox "From "
 *	line (Postfix's local(8) prepends one) is removed; r->sha256 is the
 *	SHA-256 of the bytes kept, so a redelivered message has the same
 *	identity.  intake_read_buf() does the same from memory.
 *
 *	gmime has no limit on header or part counts (700,000 headers cost
 *	it 465 MB), so intake_scan() makes one cheap pass before gmime ever
 *	sees the bytes:
 *	- the top-level header block: physical lines and the longest line;
 *	- boundary lines: lines "--B" or "--B--" where B is a boundary
 *	  declared (boundary=) in a Content-Type field seen so far, so that a
 *	  kernel log's "------------[ cut here ]------------" or a diff's
 *	  "--- a/file" never counts;
 *	- header lines inside parts (after a boundary, and the headers of
 *	  a nested message/rfc822);
 *	- every line starting with "--" in a multipart or message body,
 *	  a backstop against boundaries the scan could not learn (RFC 2231
 *	  continuations);
 *	- the nesting: multiparts (from the Content-Type that declares the
 *	  boundary to "--B--") and message/rfc822 parts (to the next
 *	  boundary outside them) open at once, at most max_depth (gmime
 *	  recurses per level and stops by itself only at 1024).
 *	When a cap is exceeded, the scan records which (INTAKE_CAP_*) and
 *	how far gmime may safely read; intake_sanitize() then builds the
 *	bounded copy that parse hands to gmime instead of the message:
 *	the first max_headers header lines, each cut at max_header_line,
 *	and the body up to the first line past a cap.  r->raw always keeps
 *	the original bytes.
 *
 *	The scan also tells a mail message from a bare console log: mail
 *	starts with an RFC 5322 header field and its header block names at
 *	least one common message header (From, Subject, Date, Received,
 *	...).  Anything else is flagged REPORT_NOT_MIME, and parse makes
 *	it one text part.
 *
 *	Flags set on the report: REPORT_OVERSIZED when the size cap cut the
 *	message or a count cap was hit (parse then reads a bounded prefix
 *	and adds REPORT_TRUNCATED), REPORT_NOT_MIME for a bare log.
 *	intake_why() names the limits an oversize report is over; the
 *	filter records such a report and holds it for a triager with that
 *	reason (never dropped; never deferred, as it would never fit).
 *
 *	The limits (triage-filter(8) LIMITS lists them with the others):
 *	INTAKE_MAX_BYTES kept of a message; INTAKE_MAX_HEADERS physical
 *	lines in the top-level header; INTAKE_MAX_HEADER_LINE bytes in any
 *	header line; INTAKE_MAX_BOUNDARIES boundary lines (so at most as
 *	many parts); INTAKE_MAX_PART_HEADERS header lines in all parts;
 *	INTAKE_MAX_DASH_LINES "--" lines; INTAKE_MAX_DEPTH containers
 *	nested.  A message is over a limit when it has more than the
 *	limit (exactly the limit is within it).
 *
 *	The envelope: intake_envelope_env() takes SENDER and
 *	ORIGINAL_RECIPIENT (else RECIPIENT) as Postfix's local(8) sets
 *	them.  A value with a control character, '<' or '>', invalid
 *	UTF-8 or more than INTAKE_MAX_ADDRESS bytes is refused (left NULL).
 *	An empty SENDER is the null sender of a bounce and is kept as "".
 *	CLIENT_ADDRESS (local(8) exports it; pipe(8) passes it when its
 *	argv says CLIENT_ADDRESS=${client_address}) is the host that
 *	connected to the MTA, which the sender cannot choose as it writes
 *	its From, its envelope or a Received header: intake_client() keeps
 *	its network (IPv4 /24, IPv6 /64) in r->client_net, the identity the
 *	record stage's client_cap counts (NULL: local mail, loopback, or a
 *	value that is no address).
 *
 * Ownership:
 *	r->raw and the envelope strings belong to the report.
 *	intake_sanitize() returns a new buffer the caller frees.  The scan
 *	holds no pointers.
 *
 * Errors:
 *	intake_read_fd() returns -1 after error() when reading fails (the
 *	filter then defers); the report is left without raw.
 *	intake_envelope*() return -1, without printing, when a value was
 *	refused; the other value is still set.
 */
#ifndef TRIAGE_INTAKE_H
#define TRIAGE_INTAKE_H

#include <stdbool.h>
#include <stddef.h>

#include "report.h"

#define INTAKE_MAX_BYTES	(10u << 20) /* above Postfix's 10,240,000 */
#define INTAKE_MAX_HEADERS	1000	    /* top-level header lines */
#define INTAKE_MAX_HEADER_LINE	16384	    /* bytes in one header line */
#define INTAKE_MAX_BOUNDARIES	500	    /* MIME boundary lines */
#define INTAKE_MAX_PART_HEADERS 5000	    /* header lines inside parts */
#define INTAKE_MAX_DASH_LINES	20000	    /* "--" lines in a MIME body */
#define INTAKE_MAX_DEPTH	64	    /* containers open at once */
#define INTAKE_MAX_ADDRESS	320	    /* an envelope address */
#define INTAKE_FROM_LINE_MAX	1024	    /* a longer first line is kept */

struct intake_limits {
	size_t max_bytes;
	size_t max_headers;
	size_t max_header_line;
	size_t max_boundaries;
	size_t max_part_headers;
	size_t max_dash_lines;
	size_t max_depth;
};

enum {
	INTAKE_CAP_HEADERS = 1 << 0,	  /* too many top-level header lines */
	INTAKE_CAP_HEADER_LINE = 1 << 1,  /* a header line too long */
	INTAKE_CAP_BOUNDARIES = 1 << 2,	  /* too many boundary lines */
	INTAKE_CAP_PART_HEADERS = 1 << 3, /* too many header lines in parts */
	INTAKE_CAP_DASH_LINES = 1 << 4,	  /* too many "--" lines */
	INTAKE_CAP_DEPTH = 1 << 5,	  /* containers nested too deep */
	INTAKE_CAP_SIZE = 1 << 6,	  /* (intake_why) over max_bytes */
};

struct intake_scan {
	bool is_mail;	     /* starts with an RFC 5322 header block */
	bool structured;     /* top-level type is multipart/ or message/ */
	size_t header_lines; /* physical lines in the top-level header */
	size_t longest_line; /* longest header line (bytes, no newline) */
	size_t body_offset;  /* first body byte (len when there is none) */
	size_t declared;     /* distinct boundaries declared */
	size_t boundaries;   /* lines matching a declared boundary */
	size_t part_headers; /* header lines inside parts */
	size_t dash_lines;   /* body lines starting with "--" */
	size_t depth;	     /* deepest nesting (max_depth + 1: over) */
	size_t safe_len;     /* gmime may read the body up to here */
	unsigned caps;	     /* INTAKE_CAP_* that were exceeded */
};

void intake_limits_init(struct intake_limits *lim);

/* reading (lim may be NULL: the defaults) */
int intake_read_fd(int fd, const struct intake_limits *lim, struct report *r);
/* the same, and the pre-scan of r->raw as kept, for parse_report_scanned() */
int intake_read_fd_scan(int fd, const struct intake_limits *lim,
			struct report *r, struct intake_scan *scan);
int intake_read_buf(const void *buf, size_t len,
		    const struct intake_limits *lim, struct report *r);
size_t intake_from_line(const char *buf, size_t len);

/* the pre-scan and the bounded copy for gmime */
void intake_scan(const char *buf, size_t len, const struct intake_limits *lim,
		 struct intake_scan *s);
char *intake_sanitize(const char *buf, size_t len,
		      const struct intake_limits *lim,
		      const struct intake_scan *s, size_t *out_len);

/*
 * intake_why - for a report flagged REPORT_OVERSIZED: the limits it is
 * over (INTAKE_CAP_*, INTAKE_CAP_SIZE when intake cut it at max_bytes),
 * named in buf ("oversize: header lines over 1000; ...") for the
 * decision's reason (lim may be NULL: the defaults)
 */
unsigned intake_why(const struct report *r, const struct intake_limits *lim,
		    char *buf, size_t size);

/* envelope */
int intake_envelope(struct report *r, const char *sender,
		    const char *recipient);
int intake_envelope_env(struct report *r);
int intake_client(struct report *r, const char *addr);

#endif
