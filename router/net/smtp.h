/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * smtp - send one message to one recipient over SMTP with libcurl
 *
 * DESCRIPTION
 *	The libcurl half of the deliver stage, linked only into
 *	triage-net (the outbox worker, 'triage deliver').  Each call is
 *	one SMTP transaction for one recipient, so every recipient gets
 *	its own status (libcurl reports no per-recipient status when one
 *	transaction has several).  A struct smtp_client keeps one libcurl
 *	handle, so consecutive sends reuse the connection (at most
 *	SMTP_MAX_IDLE seconds idle); smtp_send() is the one-shot form.
 *
 *	Transport security (struct smtp_config.tls):
 *	  SMTP_TLS_NONE		  plain SMTP
 *	  SMTP_TLS_OPPORTUNISTIC  STARTTLS when offered, without
 *				  certificate checks (Postfix "may"); a
 *				  failed handshake is retried in plain
 *	  SMTP_TLS_STARTTLS	  STARTTLS required, certificate verified
 *				  against ca_file or the system store
 *	  SMTP_TLS_IMPLICIT	  smtps:// (port 465), verified likewise
 *	AUTH (user and password) is refused over a connection that is
 *	not sure to be encrypted unless the host is a loopback address.
 *
 *	Both addresses are checked with addr_valid() again here: libcurl
 *	7.88 passes CR/LF in a recipient through as SMTP commands.  The
 *	message is converted with deliver_to_crlf(); libcurl dot-stuffs.
 *	Proxies from the environment are ignored; CURLOPT_NOSIGNAL is set.
 *
 *	Classification (research/ecosystem.md section 3):
 *	  - transport failures are temporary whatever the last code, which
 *	    is stale then: resolve (6), connect (7), timeout (28), send or
 *	    receive failure without a reply (55 with 0, 56, 52), TLS (35,
 *	    60, 64, 77, 83, 90, 91) and login refused (67);
 *	  - otherwise the SMTP code decides: 4xx temporary, 5xx permanent
 *	    when it answers MAIL, RCPT, DATA or the end of data; a 5xx to
 *	    the greeting, EHLO, STARTTLS or AUTH, and 530 "authentication
 *	    required" anywhere, is a session or configuration problem,
 *	    not this message's: temporary;
 *	  - anything else is temporary, so a report is never dropped on
 *	    an error nobody has seen before (the retry schedule ends it).
 *	A timeout or disconnect after DATA is ambiguous (the peer may have
 *	queued the message): temporary, and the forward's stable
 *	Resent-Message-ID lets the receiver see the duplicate.
 *
 *	The result's detail is one printable line: the stage, the last
 *	SMTP reply line and libcurl's error text; it never contains the
 *	password (libcurl's error text does not, AUTH command lines are
 *	not recorded and the password is scrubbed from the detail).
 *
 *	The first smtp_client_new() calls curl_global_init(): make it
 *	before starting threads.
 *
 * Ownership:
 *	smtp_client_new() copies the struct, not the strings: they must
 *	stay valid until smtp_client_free().
 *
 * Errors:
 *	smtp_send() and smtp_client_send() return 0 when the peer accepted
 *	the message (250 after the data), else -1 with the result filled
 *	in.  Nothing is printed.  smtp_client_new() returns NULL with the
 *	reason in *res when the configuration is unusable.
 */
#ifndef TRIAGE_SMTP_H
#define TRIAGE_SMTP_H

#include <stdbool.h>
#include <stddef.h>

#include "deliver.h"

#define SMTP_CONNECT_TIMEOUT_MS 30000
#define SMTP_TIMEOUT_MS		300000 /* a whole transaction */
#define SMTP_MAX_IDLE		30     /* seconds a connection is reused */

enum smtp_tls {
	SMTP_TLS_NONE,
	SMTP_TLS_OPPORTUNISTIC,
	SMTP_TLS_STARTTLS,
	SMTP_TLS_IMPLICIT,
};

struct smtp_config {
	const char *host; /* host name, IPv4, or IPv6 in [] */
	unsigned port;	  /* 0: 25, or 465 for SMTP_TLS_IMPLICIT */
	enum smtp_tls tls;
	const char *helo;	 /* EHLO name; NULL: libcurl's default */
	const char *user;	 /* AUTH user, or NULL for no AUTH */
	const char *password;	 /* AUTH password */
	const char *ca_file;	 /* PEM CA bundle; NULL: system store */
	long connect_timeout_ms; /* 0: SMTP_CONNECT_TIMEOUT_MS */
	long timeout_ms;	 /* 0: SMTP_TIMEOUT_MS */
};

struct smtp_client;

struct smtp_client *smtp_client_new(const struct smtp_config *cfg,
				    struct deliver_result *res);
int smtp_client_send(struct smtp_client *c, const char *envelope_from,
		     const char *rcpt, const void *msg, size_t len,
		     struct deliver_result *res);
void smtp_client_free(struct smtp_client *c);

int smtp_send(const struct smtp_config *cfg, const char *envelope_from,
	      const char *rcpt, const void *msg, size_t len,
	      struct deliver_result *res);

enum deliver_status smtp_classify(int curl_code, int smtp_code,
				  const char *stage);

#endif
