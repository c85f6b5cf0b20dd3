/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * parse - stage 2: one message (r->raw) to headers and UTF-8 text parts
 *
 * DESCRIPTION
 *	The only module that includes gmime.  parse_report() reads r->raw
 *	(set by intake) and fills:
 *	- r->headers: the top-level headers in order, unfolded, RFC 2047
 *	  decoded, on one line (controls become spaces or U+FFFD);
 *	- r->message_id and r->in_reply_to without "<>", r->subject,
 *	  r->from ("Name <addr>"), r->from_addr (bare, lower case),
 *	  r->date as written and r->when (0 when absent or unparseable);
 *	- r->parts: every leaf MIME part in GMimePartIter order, which
 *	  enters message/rfc822 (forwarded reports): PART_NESTED marks
 *	  what is inside one.  Paths are gmime's ("2.1"); the body of a
 *	  single-part message is "1".  Text parts (text/ *, message/ *
 *	  leaves) are transfer-decoded and converted to UTF-8; text/html
 *	  is rendered to text (PART_HTML); gzip data (dmesg.txt.gz) is
 *	  inflated, bounded, and kept when it is text (PART_GZIP);
 *	  application/ * data that is valid UTF-8 without NUL (a config, a
 *	  .log as application/octet-stream) is kept as text; anything
 *	  else keeps mime_type, filename and raw_size only;
 *	- r->body: the main text: the first non-blank inline text/plain
 *	  part, else the first rendered text/html (REPORT_HTML_ONLY), else
 *	  the first text part of any kind, else "".
 *
 *	Every text is valid UTF-8 with "\n" line ends, no NUL and no
 *	control character but tab and form feed (others are U+FFFD).  All
 *	part texts together stay within REPORT_TEXT_MAX bytes; a part cut
 *	at that limit (or a gzip bomb cut at it) is PART_TRUNCATED and the
 *	report REPORT_TRUNCATED.  At most PARSE_MAX_PARTS parts are kept.
 *
 *	Untrusted input is made safe before gmime sees it: the message is
 *	pre-scanned by intake_scan() and, when a cap is exceeded (header
 *	or part floods, see intake.h), gmime parses intake_sanitize()'s
 *	bounded copy instead (REPORT_OVERSIZED | REPORT_TRUNCATED).  A
 *	bare console log (REPORT_NOT_MIME), or a message gmime cannot
 *	construct (REPORT_MALFORMED), becomes a single text/plain part
 *	with empty subject and sender.  gmime's critical parser warnings
 *	(GMIME_CRIT_*: parts other software may read differently) set
 *	REPORT_MALFORMED.  Part headers are never modified (gmime 3.2.13
 *	loops forever re-encoding some Content-Type parameters, #165).
 *
 * Ownership:
 *	Everything parse stores in the report is copied into plain C
 *	strings owned by the report; no gmime or GLib object survives a
 *	call.  parse_init() must precede parse_report(); parse_shutdown()
 *	releases gmime's global state for the rest of the process (gmime
 *	cannot be initialised again, so parse_init() then fails).
 *
 * Errors:
 *	parse_report() returns -1 after error() only when it cannot start
 *	(parse_init() not called, no r->raw).  Malformed mail is never an
 *	error: it is flagged and parsed as far as it goes.
 */
#ifndef TRIAGE_PARSE_H
#define TRIAGE_PARSE_H

#include "intake.h"
#include "report.h"

struct strbuf;

#define PARSE_MAX_PARTS	 1000
#define PARSE_HEADER_MAX 16384	    /* bytes of one decoded header value */
#define PARSE_HTML_MAX	 (8u << 20) /* HTML source converted to render */
/* letters of hidden HTML text that make a part PART_HIDDEN: a sentence,
 * not a newsletter's preview line */
#define PARSE_HIDDEN_MIN 100

int parse_init(void);
void parse_shutdown(void);
int parse_report(struct report *r);
int parse_report_limits(struct report *r, const struct intake_limits *lim);
/*
 * parse_report_scanned - parse_report_limits() given intake's pre-scan of
 * r->raw with lim (intake_read_fd_scan()), which it does not repeat; r->raw
 * must be unchanged since.  scan NULL: scanned here.
 */
int parse_report_scanned(struct report *r, const struct intake_limits *lim,
			 const struct intake_scan *scan);
/*
 * parse_sendable - r's message (parsed: r->flags set) as it can go over
 * SMTP, into out: every leaf part whose content as it came holds a NUL
 * byte or a line over 998 bytes decoded and written again in base64 or
 * quoted-printable (GMime's best 7-bit encoding for it), every other
 * byte as GMime writes it back (headers as they came).  0; 1 when there
 * is no such copy: nothing to re-encode, a message not parsed as MIME
 * (bare, oversized or malformed), a header line that still cannot go
 * out, or one that would not fit out's cap.  Nothing is printed.
 */
int parse_sendable(const struct report *r, struct strbuf *out);

#endif
