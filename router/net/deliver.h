/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * deliver - forwarded and new mail, envelope addresses, the sendmail
 *	     transport and the retry schedule
 *
 * DESCRIPTION
 *	The libc-only half of the deliver stage; the filter links it, so
 *	it uses neither libcurl nor GMime (router/net/smtp.h is the libcurl
 *	half, linked only into triage-net).
 *
 *	Addresses.  addr_valid() accepts the conservative subset of an
 *	RFC 5321 mailbox that is safe as an SMTP envelope argument or an
 *	argv element: dot-atom local part (at most 64 bytes) of letters,
 *	digits and # $ & ' * + - = ? ^ _ ` { } ~ (not "!", "%", "/", "|":
 *	source-route and pipe/file hacks), not starting with "-" (it
 *	would read as an option) and without leading, trailing or
 *	doubled dots; "@"; a domain of LDH labels (1-63 bytes, no
 *	leading or trailing "-", at most 255 bytes, last label not all
 *	digits).  At most 254 bytes in all.  Quoted local parts, address
 *	literals ([192.0.2.1]), UTF-8 (SMTPUTF8) and U-labels are
 *	rejected; IDN domains must be given as A-labels (xn--...).
 *	libcurl 7.88 sends CR/LF inside a recipient as SMTP commands, so
 *	every address must pass addr_valid() before it reaches a
 *	transport; both transports here check again.  addr_parse() takes
 *	the bare address out of one "Name <addr>", "<addr>" or "addr
 *	(comment)" (a list, a group or an invalid address fails);
 *	addr_split() also gives the display name.
 *
 *	Forwarding.  deliver_compose_forward() prepends a resent block
 *	and the triage headers to the original message and copies the
 *	original bytes unchanged, so the reporter's DKIM signature stays
 *	valid and replies go to the reporter.  The block uses the
 *	message's own line ending (that of its first line).  Header
 *	names are fixed strings; every value is sanitised: C0 controls
 *	(CR, LF, NUL, TAB ...), DEL and C1 controls become spaces, runs
 *	of white space collapse, invalid UTF-8 bytes become "?", at most
 *	DELIVER_VALUE_MAX bytes are kept, a value with non-ASCII text
 *	(or with "=?", which a reader would take for an encoded word) is
 *	RFC 2047 B-encoded in UTF-8 words of at most 75 characters, and
 *	lines are folded on white space at 78 columns.
 *
 *	Line endings.  Messages are stored with their own line endings.
 *	deliver_sendmail() passes the bytes as they are (Postfix's
 *	sendmail accepts LF and CRLF), but for a message with a bare CR,
 *	which it converts as smtp_send() does; smtp_send() converts to CRLF with
 *	deliver_to_crlf(), which turns every bare CR and bare LF into
 *	CRLF so that libcurl's dot-stuffing sees every line and no
 *	"<LF>.<CR><LF>" smuggling sequence survives.  Neither adds dots:
 *	libcurl dot-stuffs and sendmail -i does not end input at ".".
 *
 *	Results.  Each transport fills a struct deliver_result: ok,
 *	temporary (retry later: deliver_backoff()) or permanent (give up
 *	for this recipient), the SMTP code or exit status, and a one-line
 *	printable ASCII detail for the audit log.
 *
 * Ownership:
 *	Compose functions append to a caller-owned strbuf; on failure
 *	they leave it as it was.  Nothing here keeps pointers to the
 *	caller's data.
 *
 * Errors:
 *	Compose functions return -1 on invalid input (with a message
 *	through error()) or when the strbuf cap is reached.
 *	deliver_sendmail() returns 0 when the message was handed over,
 *	else -1 with the reason in the result; it prints nothing.
 */
#ifndef TRIAGE_DELIVER_H
#define TRIAGE_DELIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

struct strbuf;
struct report_header;

#define DELIVER_ADDR_MAX   254 /* RFC 5321 path minus the brackets */
#define DELIVER_LOCAL_MAX  64
#define DELIVER_DOMAIN_MAX 255
#define DELIVER_VALUE_MAX  512 /* bytes of a header value kept */
#define DELIVER_DETAIL_MAX 256
#define DELIVER_MAX_RCPTS  100		   /* per sendmail invocation */
#define DELIVER_MAX_REFS   20		   /* message ids kept in References: */
#define DELIVER_MAX_AGE	   (5 * 24 * 3600) /* Postfix's queue lifetime */
#define DELIVER_TIMEOUT_MS 60000	   /* default sendmail deadline */
#define DELIVER_MSGID_MAX  250

enum deliver_status {
	DELIVER_OK = 0,
	DELIVER_TEMPORARY = 1, /* try again later */
	DELIVER_PERMANENT = 2, /* give up for this recipient */
};

struct deliver_result {
	enum deliver_status status;
	int smtp_code;	 /* last SMTP reply code (smtp_send), else 0 */
	int curl_code;	 /* CURLcode (smtp_send), else 0 */
	int exit_status; /* sendmail: exit code, 128+N for signal N, or -1 */
	char detail[DELIVER_DETAIL_MAX]; /* one line, printable ASCII */
};

const char *deliver_status_name(enum deliver_status s);
void deliver_result_init(struct deliver_result *res);

/* addresses */
bool addr_valid(const char *addr);
int addr_parse(const char *s, char *out, size_t size);
int addr_split(const char *s, char *name, size_t nsize, char *addr,
	       size_t asize);
bool msgid_valid(const char *id);

/* header building blocks */
int deliver_format_date(time_t t, char *buf, size_t size);
int deliver_add_header(struct strbuf *out, const char *name, const char *value,
		       const char *eol);
int deliver_forward_id(const char *sha256, const char *rcpt, const char *domain,
		       char *buf, size_t size);

/* forwarding a report to one person */
/*
 * The "[triage #ID] " subject tag of a forward, by which a reply that
 * lost its References still finds its report.  Rewriting Subject breaks
 * a DKIM signature over it, and a DMARC p=reject sender's forward would
 * then be refused by the recipient's MTA: by default a signed message
 * keeps its subject (replies still join by Message-ID).
 */
enum deliver_tag {
	DELIVER_TAG_UNSIGNED, /* only without a DKIM-Signature (default) */
	DELIVER_TAG_ALWAYS,
	DELIVER_TAG_NEVER,
};

struct forward_headers {
	const char *router_name; /* Resent-From display name, or NULL */
	const char *router_addr; /* Resent-From address and X-Loop value */
	const char *to_name;	 /* Resent-To display name, or NULL */
	const char *to_addr;	 /* Resent-To address: the recipient */
	const char *cc_addr;	 /* Resent-Cc address (a list), or NULL */
	const char *sha256;	 /* report identity, 64 hex digits */
	time_t date;		 /* Resent-Date; 0 means now */
	const char *cls;	 /* X-Triage-Class: user, fuzzer, ai ... */
	const char *section;	 /* X-Triage-Section, or NULL */
	const char *reason;	 /* X-Triage-Reason, or NULL */
	const char *status;	 /* X-Triage-Status, or NULL */
	const char *security;	 /* X-Triage-Security, or NULL */
	const char *archive;	 /* X-Triage-Archive (archive.h), or NULL */
	int64_t report;		 /* X-Triage-Report and the tag; 0: none */
	enum deliver_tag tag;	 /* when Subject gains "[triage #ID] " */
	/*
	 * the report's token (token.h): the tag is "[triage #ID-TOKEN] ",
	 * which joins a reply from anyone; NULL: "[triage #ID] "
	 */
	const char *token;
	/*
	 * the report's own address (bugs+ID-TOKEN@...), or NULL: when the
	 * original has no Reply-To, the forward gets "Reply-To: FROM,
	 * reply_to" (the reporter's From address and this), so that an
	 * answer reaches the reporter and joins the report
	 */
	const char *reply_to;
};

int deliver_compose_forward(const char *raw, size_t len,
			    const struct forward_headers *h,
			    struct strbuf *out);
/*
 * deliver_forward_head - what deliver_compose_forward() writes before
 * the original's unchanged bytes raw[*rest..len): the forward is the
 * head followed by them (the outbox stores the original once)
 */
int deliver_forward_head(const char *raw, size_t len,
			 const struct forward_headers *h, struct strbuf *out,
			 size_t *rest);
bool deliver_is_loop(const char *raw, size_t len, const char *router_address);

/* new messages from the router: digests, RFC 3834 replies */
enum deliver_auto {
	DELIVER_AUTO_GENERATED, /* Auto-Submitted: auto-generated */
	DELIVER_AUTO_REPLIED,	/* Auto-Submitted: auto-replied */
};

struct deliver_header {
	const char *name;  /* a field name, not one the composer sets */
	const char *value; /* unstructured text, sanitised like the rest */
};

struct deliver_message {
	const char *from_name;	 /* display name, or NULL */
	const char *from_addr;	 /* From: */
	const char *const *to;	 /* NULL-terminated bare addresses (To:) */
	const char *subject;	 /* UTF-8, or NULL */
	const char *message_id;	 /* without <>; NULL: generated */
	const char *in_reply_to; /* without <>, or NULL; dropped if invalid */
	const char *const *references; /* NULL-terminated ids, or NULL */
	enum deliver_auto auto_submitted;
	const struct deliver_header *extra;
	size_t nextra;
	const char *body; /* UTF-8 text */
	size_t body_len;
	time_t date; /* 0 means now */
};

int deliver_compose_message(const struct deliver_message *m,
			    struct strbuf *out);
bool deliver_may_autoreply(const struct report_header *headers, size_t n,
			   const char *envelope_from, const char *const *bots,
			   const char **why);

/* line endings */
int deliver_to_crlf(const void *msg, size_t len, struct strbuf *out);
int deliver_to_lf(const void *msg, size_t len, struct strbuf *out);

/* the sendmail transport */
int deliver_sendmail(const char *sendmail_path, unsigned timeout_ms,
		     const char *envelope_from, const char *const *rcpts,
		     const void *msg, size_t len, struct deliver_result *res);

/* retry schedule */
bool deliver_backoff(time_t queued_at, time_t now, unsigned failures,
		     time_t max_age, time_t *next);

#endif
