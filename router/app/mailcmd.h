/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mailcmd - reply commands: "#triage VERB ARGS" in a follow-up, run as
 * desk actions by their sender (triage-mail(7))
 *
 * DESCRIPTION
 *	record_followup() (record.h) calls mailcmd_run() for a message
 *	that joined a known report (In-Reply-To or References to the
 *	report or its forward, the subject tag with a valid token, or the
 *	report's own address bugs+ID-TOKEN@), inside the filter's
 *	transaction, after the follow-up itself was recorded and handled
 *	as any other.  The commands (command.h: only the text/plain body,
 *	outside quotes and the signature) run when:
 *
 *	  - the message is no automatic one: an Auto-Submitted other than
 *	    "no", or our own X-Loop, runs nothing and gets no answer (a
 *	    loop between two robots would never end);
 *	  - its sender (From) is authorised: the report's current
 *	    recipient, a B: (mailto), M: or R: of its section, a member
 *	    of its section's roster, or one of routes.conf's triagers;
 *	  - when routes.conf names authserv_id, the topmost
 *	    Authentication-Results header with exactly that authserv-id
 *	    (a header with another id is ignored: anyone can write one)
 *	    says dkim=pass with header.d (or header.i) of the From's
 *	    domain, or spf=pass with smtp.mailfrom of that domain (a
 *	    parent domain counts, as DMARC's relaxed alignment).
 *
 *	Otherwise the commands are ignored, and that is recorded on the
 *	report as a "commands" action saying why, with no answer (a
 *	forged From must not make the router mail anyone).
 *
 *	Each command is a desk action (actions.h), recorded with the
 *	sender's address as who; a command that does not apply is an
 *	error line and changes nothing.  The sender then gets exactly one
 *	plain-text confirmation, through the outbox (kind reply, null
 *	envelope sender, Auto-Submitted: auto-replied, our X-Loop),
 *	quoting each command with its result or error.
 *
 * Errors:
 *	mailcmd_run() returns -1 on a database error only (the filter
 *	rolls back and defers the message); everything else is answered.
 */
#ifndef TRIAGE_MAILCMD_H
#define TRIAGE_MAILCMD_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

struct audit;
struct audit_root;
struct pipeline;
struct report;
struct router_id;

/*
 * mailcmd_run - the commands of r, a follow-up recorded as row msg of
 * the report root; *ran: how many ran (0 when none, or not allowed);
 * *queued: mail was queued (the confirmation, forwards, a request to
 * the reporter), for the filter to send now
 */
int mailcmd_run(struct audit *db, const struct pipeline *p,
		const struct router_id *id, const struct report *r,
		const struct audit_root *root, int64_t msg, time_t now,
		unsigned *ran, bool *queued);

#endif
