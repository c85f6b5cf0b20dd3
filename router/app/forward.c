// SPDX-License-Identifier: GPL-2.0-only
/*
 * forward - the router's identity, and a forward queued (see forward.h)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "archive.h"
#include "audit.h"
#include "config.h"
#include "deliver.h"
#include "forward.h"
#include "mimetext.h"
#include "strbuf.h"
#include "token.h"
#include "util.h"

#define FORWARD_EXTRA (64u << 10)

/* router_id_load - the router's addresses; -1 when they are unusable */
int router_id_load(struct router_id *id, const struct config *cfg)
{
	id->address = config_get(cfg, "router_address");
	id->name = config_get(cfg, "router_name");
	id->bounce = config_get(cfg, "bounce_address");
	if (!id->bounce)
		id->bounce = id->address;
	id->state_dir = config_get(cfg, "state_dir");
	id->archive = config_get(cfg, "archive_url");
	if (!archive_off(id->archive) && !archive_pattern_ok(id->archive)) {
		warn("%s: archive_url '%s' is not an http(s) URL with one %%s; "
		     "no archive links",
		     cfg->path, id->archive);
		id->archive = NULL;
	}
	id->reply_address = config_bool(cfg, "reply_address");
	if (config_is(cfg, "forward_subject_tag", "always"))
		id->tag = DELIVER_TAG_ALWAYS;
	else if (config_is(cfg, "forward_subject_tag", "never"))
		id->tag = DELIVER_TAG_NEVER;
	else
		id->tag = DELIVER_TAG_UNSIGNED;
	if (!addr_valid(id->address))
		return error("%s: router_address '%s' is not a valid address",
			     cfg->path, id->address);
	snprintf(id->local, sizeof(id->local), "%.*s",
		 (int)strcspn(id->address, "@+"), id->address);
	if (!addr_valid(id->bounce))
		return error("%s: bounce_address '%s' is not a valid address",
			     cfg->path, id->bounce);
	return 0;
}

/*
 * One key per process: every program of a router shares one state
 * directory (a resident worker keeps the key read at its first message;
 * deleting token.key takes effect in the next worker).
 */
static struct {
	char *dir;
	struct token_key key;
} key_cache;

const struct token_key *router_token_key(const struct router_id *id)
{
	if (!id->state_dir || !*id->state_dir)
		return NULL;
	if (key_cache.dir && !strcmp(key_cache.dir, id->state_dir))
		return &key_cache.key;
	if (token_key_load(id->state_dir, &key_cache.key) < 0)
		return NULL;
	free(key_cache.dir);
	key_cache.dir = xstrdup(id->state_dir);
	return &key_cache.key;
}

int router_token(const struct router_id *id, int64_t report, char *out,
		 size_t size)
{
	const struct token_key *key;
	char tok[TOKEN_SIZE];

	if (size)
		*out = '\0';
	if (!id->state_dir || !*id->state_dir)
		return 1;
	key = router_token_key(id);
	if (!key)
		return -1;
	token_make(key, report, tok);
	snprintf(out, size, "%s", tok);
	return 0;
}

int router_report_address(const struct router_id *id, int64_t report, char *out,
			  size_t size)
{
	char tok[TOKEN_SIZE];
	const char *at = id->address ? strrchr(id->address, '@') : NULL;
	int rc = router_token(id, report, tok, sizeof(tok));

	if (size)
		*out = '\0';
	if (rc || !at || !tok[0])
		return rc < 0 ? -1 : 1;
	/* "bugs+12-tok@": a local part that already has a '+' keeps it */
	if ((size_t)snprintf(out, size, "%.*s+%lld-%s%s",
			     (int)(at - id->address), id->address,
			     (long long)report, tok, at) >= size) {
		*out = '\0';
		return 1;
	}
	return 0;
}

/* forward_can_send - raw goes out as it came, or has its copy: 1, 0, -1 */
int forward_can_send(struct audit *db, int64_t report, const char *raw,
		     size_t len)
{
	char *copy;
	size_t n;
	int rc;

	if (!mimetext_unsendable(raw, len))
		return 1;
	rc = audit_sendable(db, report, &copy, &n);
	free(copy);
	return rc;
}

/* forward_queue - compose a forward of a recorded report and queue it */
int64_t forward_queue(struct audit *db, const struct router_id *id,
		      int64_t report, const char *raw, size_t raw_len,
		      const char *sha256, const char *addr, const char *name,
		      const char *cls, const char *section, const char *reason,
		      time_t now)
{
	return forward_queue_cc(db, id, report, raw, raw_len, sha256, addr,
				name, NULL, cls, section, reason, NULL, now);
}

/* forward_queue_cc - forward_queue() with a second envelope recipient */
int64_t forward_queue_cc(struct audit *db, const struct router_id *id,
			 int64_t report, const char *raw, size_t raw_len,
			 const char *sha256, const char *addr, const char *name,
			 const char *cc, const char *cls, const char *section,
			 const char *reason, const char *security, time_t now)
{
	char *rcpt = NULL, *link = NULL, tok[TOKEN_SIZE], raddr[400];
	char msgid[1024], *copy = NULL;
	struct forward_headers h;
	struct audit_outbox_new m;
	struct strbuf msg;
	int64_t oid = -1, root;
	size_t rest, copy_len = 0;
	const char *bad;
	int rc;

	if (!raw) {
		error("report %lld: the message was not read",
		      (long long)report);
		return -1;
	}
	if (!addr_valid(addr)) {
		error("recipient '%s' is not a valid address", addr);
		return -1;
	}
	if (cc && !addr_valid(cc)) {
		error("recipient '%s' is not a valid address", cc);
		return -1;
	}
	if (cc && strcasecmp(cc, addr) == 0)
		cc = NULL; /* the recipient is the list itself */
	/*
	 * a message that cannot go out as it came (a relay would refuse it
	 * for good) goes out as the filter's re-encoded copy, whole in the
	 * outbox row; never its raw bytes
	 */
	if ((bad = mimetext_unsendable(raw, raw_len))) {
		rc = audit_sendable(db, report, &copy, &copy_len);
		if (rc < 0)
			return -1;
		if (rc == 0) {
			error("report %lld cannot be sent: %s, and it has no "
			      "re-encoded copy (its headers, or it was "
			      "recorded before triage kept one)",
			      (long long)report, bad);
			return -1;
		}
	}
	sb_init(&msg, (copy ? copy_len : raw_len) + FORWARD_EXTRA);
	memset(&h, 0, sizeof(h));
	h.router_name = id->name;
	h.router_addr = id->address;
	h.to_name = name && *name ? name : NULL;
	h.to_addr = addr;
	h.cc_addr = cc;
	h.sha256 = sha256;
	h.date = now;
	h.cls = cls;
	h.section = section;
	h.reason = reason;
	h.security = security;
	/* a follow-up is tagged with its thread's first report */
	if (audit_thread_of(db, report, &root) != 1)
		root = report;
	h.report = root;
	h.tag = (enum deliver_tag)id->tag;
	/* the tag carries the root's token: a reply to it joins the thread */
	if (router_token(id, root, tok, sizeof(tok)) < 0) {
		free(copy);
		return -1;
	}
	h.token = tok;
	/* the original's link: whoever gets it can read its thread */
	if (!archive_off(id->archive) &&
	    audit_message_id(db, report, msgid, sizeof(msgid)) == 1)
		link = archive_url(id->archive, msgid);
	h.archive = link;
	/* replies to it reach the reporter and the report's own address */
	if (id->reply_address && tok[0] &&
	    router_report_address(id, root, raddr, sizeof(raddr)) == 0)
		h.reply_to = raddr;
	/* the head only: the outbox ends it with the stored original */
	if (copy ? deliver_compose_forward(copy, copy_len, &h, &msg)
		 : deliver_forward_head(raw, raw_len, &h, &msg, &rest)) {
		error("cannot compose the forward to %s", addr);
		free(link);
		free(copy);
		sb_release(&msg);
		return -1;
	}
	memset(&m, 0, sizeof(m));
	m.report = report;
	m.kind = "forward";
	m.created_at = now;
	m.envelope_from = id->bounce;
	if (cc)
		rcpt = xasprintf("%s\n%s", addr, cc);
	m.recipients = rcpt ? rcpt : addr;
	m.message = msg.buf;
	m.message_len = msg.len;
	if (!copy) {
		m.raw_report = report;
		m.raw_offset = rest;
		m.raw_len = raw_len;
	}
	if (audit_outbox_enqueue(db, &m, &oid) < 0)
		oid = -1;
	free(copy);
	free(rcpt);
	free(link);
	sb_release(&msg);
	return oid;
}
