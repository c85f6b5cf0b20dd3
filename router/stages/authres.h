/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * authres - is a message's sender authenticated by the site's own mail
 *	     server (RFC 8601 Authentication-Results)
 *
 * DESCRIPTION
 *	A From address is anyone's to write.  When routes.conf names
 *	authserv_id, the id the site's MTA writes in its
 *	Authentication-Results header (and removes from inbound mail, as
 *	RFC 8601 section 5 asks: OpenDKIM, OpenDMARC and rspamd do), the
 *	topmost header with exactly that id must show dkim=pass with
 *	header.d (or header.i) the sender's domain or a parent of it, or
 *	spf=pass with smtp.mailfrom's domain so aligned.  Headers with
 *	any other id are not read: anyone can add one.  Who relies on it:
 *	the reply commands (app/mailcmd.c: who may act on a report) and
 *	the thread stage (app/thread.c: who counts as one of a report's
 *	people, whose follow-up is sent on as it is).
 *
 * Ownership: the reasons returned are static text.
 */
#ifndef TRIAGE_AUTHRES_H
#define TRIAGE_AUTHRES_H

struct report;

/*
 * authres_check - NULL when authserv_id is NULL or "" (nothing to
 * check) or when r's topmost Authentication-Results of authserv_id
 * passes for sender; else why not
 */
const char *authres_check(const struct report *r, const char *authserv_id,
			  const char *sender);

#endif
