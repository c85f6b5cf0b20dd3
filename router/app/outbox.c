// SPDX-License-Identifier: GPL-2.0-only
/*
 * outbox - drain queued mail through a transport (see outbox.h)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "config.h"
#include "deliver.h"
#include "outbox.h"
#include "util.h"

#define MAX_RCPTS    64
#define RECORD_TRIES 6 /* each waits up to the busy timeout */

/* outbox_max_age - delivery_max_age in seconds: "5d", "12h" or seconds */
time_t outbox_max_age(const struct config *cfg)
{
	return (time_t)config_seconds(cfg, "delivery_max_age");
}

void outbox_sendmail_config(struct outbox_sendmail *sm,
			    const struct config *cfg)
{
	sm->path = config_get(cfg, "sendmail_path");
	sm->timeout_ms = (unsigned)config_int(cfg, "sendmail_timeout") * 1000;
}

/* outbox_sendmail - the sendmail transport for one outbox row */
void outbox_sendmail(void *ctx, const struct audit_outbox_item *it,
		     struct deliver_result *res)
{
	const struct outbox_sendmail *sm = ctx;
	const char *rcpts[MAX_RCPTS + 1];
	char *list = xstrdup(it->recipients), *p, *save = NULL;
	size_t n = 0;

	for (p = strtok_r(list, "\n", &save); p && n < MAX_RCPTS;
	     p = strtok_r(NULL, "\n", &save))
		if (*p)
			rcpts[n++] = p;
	rcpts[n] = NULL;
	deliver_sendmail(sm->path, sm->timeout_ms, it->envelope_from, rcpts,
			 it->message, it->message_len, res);
	free(list);
}

/*
 * record - record the outcome of a row that was handed to the transport.
 * A result that cannot be recorded leaves the row leased, and a message
 * that went out goes out again when the lease ends: a write lock held
 * past the busy timeout (measured: 16 filters under valgrind) is worth
 * waiting for a few more times.
 */
static int record(struct audit *db, const struct audit_outbox_item *it,
		  const struct deliver_result *res, time_t now, time_t max_age,
		  struct outbox_stats *st)
{
	time_t next = 0;
	bool retry = res->status == DELIVER_TEMPORARY &&
		     deliver_backoff(it->created_at, now,
				     (unsigned)it->attempts, max_age, &next);
	int rc = -1, tries;

	for (tries = 0; tries < RECORD_TRIES && rc < 0; tries++) {
		if (tries)
			warn("outbox row %lld: recording the result again",
			     (long long)it->id);
		if (res->status == DELIVER_OK)
			rc = audit_outbox_done(db, it, now, res->smtp_code,
					       res->detail);
		else if (retry)
			rc = audit_outbox_retry(db, it, now, next,
						res->smtp_code, res->detail);
		else
			rc = audit_outbox_fail(db, it, now, res->smtp_code,
					       res->detail);
	}
	if (res->status == DELIVER_OK)
		st->sent++;
	else if (retry)
		st->retried++;
	else
		st->failed++;
	return rc;
}

/*
 * outbox_drain - send up to max due rows; each result is recorded at
 * once, so a crash never sends a row twice within its lease
 */
int outbox_drain(struct audit *db, outbox_send_fn send, void *ctx, unsigned max,
		 int lease_seconds, time_t max_age, bool mail_only,
		 struct outbox_stats *st)
{
	unsigned n;

	for (n = 0; n < max; n++) {
		struct audit_outbox_item it;
		struct deliver_result res;
		time_t now = time(NULL);
		int rc = audit_outbox_claim_due(db, now, lease_seconds,
						mail_only, &it);

		if (rc < 0)
			return -1;
		if (rc == 0)
			break;
		memset(&res, 0, sizeof(res));
		send(ctx, &it, &res);
		rc = record(db, &it, &res, time(NULL), max_age, st);
		audit_outbox_item_release(&it);
		if (rc < 0)
			return -1;
	}
	return (int)n;
}
