/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * actions - the desk actions shared by the triager's CLI and the reply
 * commands (triage-mail(7))
 *
 * DESCRIPTION
 *	"triage reroute" on the router host and "#triage reroute" in a
 *	maintainer's reply are one action: the same function runs both,
 *	so that a report rerouted by mail is cancelled, withdrawn from a
 *	digest, given its section, forwarded and logged exactly as one
 *	rerouted at the desk.  struct action_ctx says who acts (a login
 *	name, or the sender's address for a mail command) and when; every
 *	action is recorded with them (audit_record_action()).  What an
 *	action did is appended to ctx->out, one line each (the CLI prints
 *	them, the mail path puts them in the confirmation); why it could
 *	not be done goes to ctx->err.
 *
 *	action_find_section() is a MAINTAINERS section as a person names
 *	it: its exact title (any case), else the one title that contains
 *	the name; several: an error listing them; none: an error naming
 *	titles near it (a typo).
 *
 *	action_reroute() sends a report to a section (its recipient
 *	picked as for a new report of that section alone: pick.h, with
 *	the load caps, the people's declared away and cap, and never
 *	anyone who declined the report) or to an address.  Forwards of
 *	the report not sent yet are cancelled, it leaves a queued digest,
 *	the section becomes its first, a forward decision is recorded, the
 *	forward and the follow-ups that waited with it are queued.
 *
 * Ownership:
 *	The caller owns the context and its buffers.
 *
 * Errors:
 *	Functions return -1 on a database error (the caller rolls back),
 *	ACTION_REFUSED when the action does not apply (why in ctx->err),
 *	ACTION_DONE otherwise.
 */
#ifndef TRIAGE_ACTIONS_H
#define TRIAGE_ACTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

struct audit;
struct audit_record;
struct config;
struct map;
struct pick_config;
struct router_id;
struct strbuf;

enum {
	ACTION_DONE = 0,
	ACTION_REFUSED = 1, /* does not apply: why in err */
	ACTION_UNKNOWN = 2, /* a report named does not exist: why in err */
	ACTION_SAME = 3,    /* nothing to do (already so): said in out */
};

struct action_ctx {
	struct audit *db;
	const struct config *cfg;
	const struct router_id *rid;
	const struct map *map;
	const struct pick_config *pick;
	const char *who;  /* login name or sender address */
	const char *verb; /* "reroute", "notme": how lines start */
	time_t now;
	struct strbuf *out, *err;
	unsigned queued; /* messages queued (for desk_drain()) */
	bool force;	 /* reroute: past the security guard (--force) */
};

int action_find_section(const struct map *map, const char *name,
			struct strbuf *err);

/* action_record - log verb on r (with who and now) */
int action_record(struct action_ctx *a, const struct audit_record *r,
		  const char *verb, const char *argument, const char *detail);

/* action_leave_digest - r moved out of state digest: out of a queued one */
int action_leave_digest(struct action_ctx *a, const struct audit_record *r);

/*
 * action_reroute - r (read with AUDIT_GET_RAW) to map section (>= 0) or
 * to addr (section -1), in the caller's transaction (not committed);
 * note: what is added to the logged reason ("gave it back"), or NULL.
 * A report the filter found security-sensitive (desk_security()) goes
 * to no MAINTAINERS list nor security contact (desk_public_target()):
 * a section resolves to a person of it, else to security_address, else
 * the reroute is refused; an address that is one is refused; unless
 * a->force.  Its forward is marked X-Triage-Security.
 */
int action_reroute(struct action_ctx *a, const struct audit_record *r,
		   int section, const char *addr, const char *note);

/*
 * action_reclassify - r's class is cls (user, fuzzer, ai), logged as a
 * correction ('triage train --from-corrections' learns it); a report
 * waiting for a fuzzer digest that is no longer said to be one is held
 * and leaves a queued digest
 */
int action_reclassify(struct action_ctx *a, const struct audit_record *r,
		      const char *cls);

/*
 * action_reject - r is rejected (reason logged, may be NULL): its mail
 * not sent yet is cancelled, it leaves a queued digest; ACTION_SAME when
 * it was rejected already
 */
int action_reject(struct action_ctx *a, const struct audit_record *r,
		  const char *reason);

/* action_note - a note on r (UTF-8 text, checked by the caller) */
int action_note(struct action_ctx *a, const struct audit_record *r,
		const char *text);

/*
 * action_dup - r joins the crash group of report other (its first
 * report); other 0: r leaves its group (undup).  ACTION_UNKNOWN when a
 * report does not exist, ACTION_REFUSED when r is in that group already
 * (or, for undup, in none)
 */
int action_dup(struct action_ctx *a, const struct audit_record *r,
	       int64_t other);

#endif
