/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * outbox - drain queued mail from the audit database through a transport
 *
 * DESCRIPTION
 *	Command-layer glue of the deliver stage.  outbox_drain() claims due
 *	rows (a lease, so two workers never send the same row), hands each
 *	to a transport function, and records the result: sent; a temporary
 *	failure is retried on deliver_backoff()'s schedule until
 *	delivery_max_age; a permanent failure (or an expired one) marks
 *	the report failed so that it shows in 'triage pending'.
 *
 *	The sendmail transport (outbox_sendmail) is libc only and runs in
 *	triage-filter when 'transport = sendmail'; the SMTP transport
 *	(smtp.h) runs in 'triage deliver' inside triage-net.
 *
 *	routes.conf:
 *	  transport          = smtp | sendmail       (default smtp)
 *	  sendmail_path      = /usr/sbin/sendmail
 *	  sendmail_timeout   = 60       seconds
 *	  delivery_max_age   = 5d       give up after (Nd, Nh or seconds)
 *
 * Errors:
 *	outbox_drain() returns -1 on a database error, else the number of
 *	rows handled.
 */
#ifndef TRIAGE_OUTBOX_H
#define TRIAGE_OUTBOX_H

#include <stdbool.h>
#include <time.h>

struct audit;
struct audit_outbox_item;
struct config;
struct deliver_result;

typedef void (*outbox_send_fn)(void *ctx, const struct audit_outbox_item *it,
			       struct deliver_result *res);

struct outbox_stats {
	unsigned sent, retried, failed;
};

struct outbox_sendmail {
	const char *path;
	unsigned timeout_ms;
};

time_t outbox_max_age(const struct config *cfg);
void outbox_sendmail_config(struct outbox_sendmail *sm,
			    const struct config *cfg);
void outbox_sendmail(void *ctx, const struct audit_outbox_item *it,
		     struct deliver_result *res);

/*
 * outbox_drain - mail_only leaves rows that are not mail (Bugzilla
 * write-back jobs) to 'triage deliver'
 */
int outbox_drain(struct audit *db, outbox_send_fn send, void *ctx, unsigned max,
		 int lease_seconds, time_t max_age, bool mail_only,
		 struct outbox_stats *st);

#endif
