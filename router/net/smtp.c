// SPDX-License-Identifier: GPL-2.0-only
/*
 * smtp - send one message to one recipient over SMTP with libcurl
 * (see smtp.h)
 */
#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "deliver.h"
#include "smtp.h"
#include "strbuf.h"
#include "util.h"

struct smtp_client {
	struct smtp_config cfg;
	CURL *curl;
	char url[600];
	char errbuf[CURL_ERROR_SIZE];
	/* one transaction */
	const char *up;
	size_t up_left;
	char stage[12]; /* last command verb sent, "." after 354 */
	char reply[160];
	int code;    /* last reply code seen in this transaction */
	bool frozen; /* an error reply or QUIT: keep what we have */
};

static bool host_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '.';
}

/* host_valid - LDH name or IPv4, or an IPv6 literal in brackets */
static bool host_valid(const char *h)
{
	size_t n, i;

	if (!h)
		return false;
	n = strlen(h);
	if (n == 0 || n > 253)
		return false;
	if (h[0] == '[') {
		if (n < 3 || h[n - 1] != ']')
			return false;
		for (i = 1; i + 1 < n; i++)
			if (!strchr("0123456789abcdefABCDEF:.", h[i]))
				return false;
		return true;
	}
	for (i = 0; i < n; i++)
		if (!host_char((unsigned char)h[i]))
			return false;
	return h[0] != '-' && h[0] != '.';
}

/*
 * host_loopback - h is this machine by address, or "localhost": an IPv4
 * address of 127.0.0.0/8 as inet_pton() reads it (four decimal parts),
 * or the IPv6 ::1 (in brackets, as host_valid() wants a literal).  Not
 * a name that merely starts "127.": "127.relay.example" resolves where
 * its owner likes, and plain AUTH would send the password there.
 */
static bool host_loopback(const char *h)
{
	struct in_addr a4;
	struct in6_addr a6;
	char buf[INET6_ADDRSTRLEN + 2];
	size_t n = strlen(h);

	if (!strcasecmp(h, "localhost") || !strcasecmp(h, "localhost."))
		return true;
	if (inet_pton(AF_INET, h, &a4) == 1)
		return (ntohl(a4.s_addr) >> 24) == 127;
	if (n < 3 || n - 2 >= sizeof(buf) || h[0] != '[' || h[n - 1] != ']')
		return false;
	memcpy(buf, h + 1, n - 2);
	buf[n - 2] = '\0';
	return inet_pton(AF_INET6, buf, &a6) == 1 && IN6_IS_ADDR_LOOPBACK(&a6);
}

static void result_set(struct deliver_result *res, enum deliver_status st,
		       const char *fmt, ...) PRINTF_LIKE(3, 4);

static void result_set(struct deliver_result *res, enum deliver_status st,
		       const char *fmt, ...)
{
	va_list ap;
	char *p;

	res->status = st;
	va_start(ap, fmt);
	vsnprintf(res->detail, sizeof(res->detail), fmt, ap);
	va_end(ap);
	for (p = res->detail; *p; p++)
		if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e)
			*p = '?';
}

static size_t read_cb(char *buf, size_t size, size_t nitems, void *userp)
{
	struct smtp_client *c = userp;
	size_t n = size * nitems;

	if (n > c->up_left)
		n = c->up_left;
	memcpy(buf, c->up, n);
	c->up += n;
	c->up_left -= n;
	return n;
}

static const char *const verbs[] = {
	"EHLO", "HELO", "STARTTLS", "AUTH", "MAIL",
	"RCPT", "DATA", "RSET",	    "QUIT", "NOOP"
};

/*
 * debug_cb - track the last command verb and the last reply line, up to
 * the first error reply or QUIT (libcurl says QUIT after a failure; its
 * 221 is not the answer we want).  Only known verbs are kept: an AUTH
 * continuation line is a credential.
 */
static int debug_cb(CURL *h, curl_infotype type, char *data, size_t size,
		    void *userp)
{
	struct smtp_client *c = userp;
	size_t i, n, start;

	if (c->frozen)
		return 0;
	if (type == CURLINFO_HEADER_OUT) {
		if (size >= 4 && strncasecmp(data, "QUIT", 4) == 0) {
			c->frozen = true;
			return 0;
		}
		for (i = 0; i < ARRAY_SIZE(verbs); i++) {
			n = strlen(verbs[i]);
			if (size >= n && strncasecmp(data, verbs[i], n) == 0 &&
			    (size == n || data[n] == ' ' || data[n] == '\r' ||
			     data[n] == '\n')) {
				snprintf(c->stage, sizeof(c->stage), "%s",
					 verbs[i]);
				break;
			}
		}
		return 0;
	}
	if (type != CURLINFO_HEADER_IN)
		return 0;
	/* one callback may hold several lines; keep the last full one */
	for (start = 0; start < size;) {
		for (n = start; n < size && data[n] != '\n'; n++)
			;
		i = n;
		while (i > start &&
		       (data[i - 1] == '\r' || data[i - 1] == '\n'))
			i--;
		if (i > start) {
			size_t len = i - start, k;

			if (len >= sizeof(c->reply))
				len = sizeof(c->reply) - 1;
			for (k = 0; k < len; k++) {
				unsigned char ch =
					(unsigned char)data[start + k];

				c->reply[k] =
					ch < 0x20 || ch > 0x7e ? '?' : (char)ch;
			}
			c->reply[len] = '\0';
			if (len >= 3 && c->reply[0] >= '1' &&
			    c->reply[0] <= '5' && c->reply[1] >= '0' &&
			    c->reply[1] <= '9' && c->reply[2] >= '0' &&
			    c->reply[2] <= '9' &&
			    (len == 3 || c->reply[3] == ' ' ||
			     c->reply[3] == '-')) {
				c->code = (c->reply[0] - '0') * 100 +
					  (c->reply[1] - '0') * 10 +
					  (c->reply[2] - '0');
				if (c->code == 354)
					snprintf(c->stage, sizeof(c->stage),
						 ".");
				/* libcurl answers a failed EHLO with HELO */
				if (c->code >= 400 && c->reply[3] != '-' &&
				    strcmp(c->stage, "EHLO") != 0)
					c->frozen = true;
			}
		}
		start = n + 1;
	}
	(void)h;
	return 0;
}

static bool message_stage(const char *stage)
{
	return !stage || !strcmp(stage, "MAIL") || !strcmp(stage, "RCPT") ||
	       !strcmp(stage, "DATA") || !strcmp(stage, ".");
}

/*
 * smtp_classify - ok, temporary or permanent from a CURLcode, the last
 * SMTP reply code of the transaction and the command it answered (NULL:
 * a message-level command)
 */
enum deliver_status smtp_classify(int curl_code, int smtp_code,
				  const char *stage)
{
	switch (curl_code) {
	case CURLE_OK:
		return DELIVER_OK;
	case CURLE_COULDNT_RESOLVE_PROXY:
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_CONNECT:
	case CURLE_OUT_OF_MEMORY:
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_RECV_ERROR:
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_USE_SSL_FAILED:
	case CURLE_LOGIN_DENIED:
	case CURLE_SSL_CACERT_BADFILE:
	case CURLE_SSL_ISSUER_ERROR:
	case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
	case CURLE_SSL_INVALIDCERTSTATUS:
	case CURLE_AGAIN:
		return DELIVER_TEMPORARY;
	}
	if (smtp_code >= 400 && smtp_code <= 499)
		return DELIVER_TEMPORARY;
	if (smtp_code == 530) /* RFC 4954: authentication required */
		return DELIVER_TEMPORARY;
	if (smtp_code >= 500 && smtp_code <= 599)
		return message_stage(stage) ? DELIVER_PERMANENT
					    : DELIVER_TEMPORARY;
	return DELIVER_TEMPORARY;
}

static const char *stage_name(const char *stage)
{
	if (!stage[0])
		return "connect";
	if (!strcmp(stage, "."))
		return "end of data";
	return stage;
}

static void global_init(void)
{
	static bool done;

	if (!done) {
		curl_global_init(CURL_GLOBAL_DEFAULT);
		done = true;
	}
}

/*
 * smtp_client_new - a libcurl handle for cfg; NULL (reason in res) when
 * the configuration cannot work
 */
struct smtp_client *smtp_client_new(const struct smtp_config *cfg,
				    struct deliver_result *res)
{
	struct smtp_client *c;
	unsigned port;
	bool tls_sure;
	CURL *h;

	deliver_result_init(res);
	if (!cfg || !host_valid(cfg->host)) {
		result_set(res, DELIVER_TEMPORARY, "smtp: invalid relay host");
		return NULL;
	}
	if (cfg->helo && !host_valid(cfg->helo)) {
		result_set(res, DELIVER_TEMPORARY, "smtp: invalid EHLO name");
		return NULL;
	}
	if (cfg->tls > SMTP_TLS_IMPLICIT || cfg->port > 65535) {
		result_set(res, DELIVER_TEMPORARY, "smtp: invalid port or tls");
		return NULL;
	}
	tls_sure =
		cfg->tls == SMTP_TLS_STARTTLS || cfg->tls == SMTP_TLS_IMPLICIT;
	if (cfg->user && *cfg->user && !tls_sure && !host_loopback(cfg->host)) {
		result_set(res, DELIVER_TEMPORARY,
			   "smtp: AUTH needs tls = starttls or smtps "
			   "unless the relay is on loopback");
		return NULL;
	}
	global_init();
	h = curl_easy_init();
	if (!h) {
		result_set(res, DELIVER_TEMPORARY,
			   "smtp: curl_easy_init failed");
		return NULL;
	}
	c = xcalloc(1, sizeof(*c));
	c->cfg = *cfg;
	c->curl = h;
	port = cfg->port ? cfg->port
			 : (cfg->tls == SMTP_TLS_IMPLICIT ? 465 : 25);
	snprintf(c->url, sizeof(c->url), "%s://%s:%u/%s",
		 cfg->tls == SMTP_TLS_IMPLICIT ? "smtps" : "smtp", cfg->host,
		 port, cfg->helo ? cfg->helo : "");

	curl_easy_setopt(h, CURLOPT_URL, c->url);
#if LIBCURL_VERSION_NUM >= 0x075500
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
#else
	curl_easy_setopt(h, CURLOPT_PROTOCOLS,
			 (long)(CURLPROTO_SMTP | CURLPROTO_SMTPS));
#endif
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_PROXY, "");
	curl_easy_setopt(h, CURLOPT_NOPROXY, "*");
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS,
			 cfg->connect_timeout_ms > 0
				 ? cfg->connect_timeout_ms
				 : (long)SMTP_CONNECT_TIMEOUT_MS);
	curl_easy_setopt(h, CURLOPT_TIMEOUT_MS,
			 cfg->timeout_ms > 0 ? cfg->timeout_ms
					     : (long)SMTP_TIMEOUT_MS);
	curl_easy_setopt(h, CURLOPT_MAXAGE_CONN, (long)SMTP_MAX_IDLE);
	curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
	curl_easy_setopt(h, CURLOPT_READFUNCTION, read_cb);
	curl_easy_setopt(h, CURLOPT_READDATA, c);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, c->errbuf);
	curl_easy_setopt(h, CURLOPT_DEBUGFUNCTION, debug_cb);
	curl_easy_setopt(h, CURLOPT_DEBUGDATA, c);
	curl_easy_setopt(h, CURLOPT_VERBOSE, 1L);
	switch (cfg->tls) {
	case SMTP_TLS_NONE:
		curl_easy_setopt(h, CURLOPT_USE_SSL, (long)CURLUSESSL_NONE);
		break;
	case SMTP_TLS_OPPORTUNISTIC:
		curl_easy_setopt(h, CURLOPT_USE_SSL, (long)CURLUSESSL_TRY);
		curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 0L);
		curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 0L);
		break;
	case SMTP_TLS_STARTTLS:
	case SMTP_TLS_IMPLICIT:
		curl_easy_setopt(h, CURLOPT_USE_SSL, (long)CURLUSESSL_ALL);
		curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
		curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L);
		break;
	}
	if (cfg->ca_file && *cfg->ca_file)
		curl_easy_setopt(h, CURLOPT_CAINFO, cfg->ca_file);
	if (cfg->user && *cfg->user) {
		curl_easy_setopt(h, CURLOPT_USERNAME, cfg->user);
		curl_easy_setopt(h, CURLOPT_PASSWORD,
				 cfg->password ? cfg->password : "");
	}
	return c;
}

/* smtp_client_free - close the connection and free the handle */
void smtp_client_free(struct smtp_client *c)
{
	if (!c)
		return;
	curl_easy_cleanup(c->curl);
	free(c);
}

static void scrub(char *s, const char *secret)
{
	size_t n = secret ? strlen(secret) : 0;
	char *p;

	if (n < 3)
		return;
	while ((p = strstr(s, secret)))
		memset(p, '*', n);
}

static CURLcode perform(struct smtp_client *c, const char *msg, size_t len)
{
	c->up = msg;
	c->up_left = len;
	c->stage[0] = '\0';
	c->reply[0] = '\0';
	c->errbuf[0] = '\0';
	c->code = 0;
	c->frozen = false;
	curl_easy_setopt(c->curl, CURLOPT_INFILESIZE_LARGE, (curl_off_t)len);
	return curl_easy_perform(c->curl);
}

/*
 * smtp_client_send - one transaction: MAIL FROM envelope_from ("" for
 * the null sender), RCPT TO rcpt, the message; 0 when accepted
 */
int smtp_client_send(struct smtp_client *c, const char *envelope_from,
		     const char *rcpt, const void *msg, size_t len,
		     struct deliver_result *res)
{
	char from[DELIVER_ADDR_MAX + 3], to[DELIVER_ADDR_MAX + 3];
	struct strbuf crlf = STRBUF_INIT(len * 2 + 2);
	struct curl_slist *rcpts = NULL;
	CURLcode cc;

	deliver_result_init(res);
	if (!envelope_from)
		envelope_from = "";
	if (*envelope_from && !addr_valid(envelope_from)) {
		result_set(res, DELIVER_PERMANENT, "invalid envelope sender");
		return -1;
	}
	if (!addr_valid(rcpt)) {
		result_set(res, DELIVER_PERMANENT, "invalid recipient address");
		return -1;
	}
	if (len > SIZE_MAX / 2 - 2 || deliver_to_crlf(msg, len, &crlf) < 0) {
		result_set(res, DELIVER_PERMANENT, "message too large");
		return -1;
	}
	snprintf(from, sizeof(from), "<%s>", envelope_from);
	snprintf(to, sizeof(to), "<%s>", rcpt);
	rcpts = curl_slist_append(NULL, to);
	if (!rcpts) {
		sb_release(&crlf);
		result_set(res, DELIVER_TEMPORARY, "out of memory");
		return -1;
	}
	curl_easy_setopt(c->curl, CURLOPT_MAIL_FROM, from);
	curl_easy_setopt(c->curl, CURLOPT_MAIL_RCPT, rcpts);

	cc = perform(c, sb_str(&crlf), crlf.len);
	if (cc == CURLE_SSL_CONNECT_ERROR &&
	    c->cfg.tls == SMTP_TLS_OPPORTUNISTIC) {
		/* Postfix "may": a failed handshake falls back to plain */
		curl_easy_setopt(c->curl, CURLOPT_USE_SSL,
				 (long)CURLUSESSL_NONE);
		cc = perform(c, sb_str(&crlf), crlf.len);
		curl_easy_setopt(c->curl, CURLOPT_USE_SSL,
				 (long)CURLUSESSL_TRY);
	}
	curl_easy_setopt(c->curl, CURLOPT_MAIL_RCPT, NULL);
	curl_slist_free_all(rcpts);
	sb_release(&crlf);

	res->curl_code = (int)cc;
	res->smtp_code = c->code;
	if (cc == CURLE_OK)
		result_set(res, DELIVER_OK, "%s",
			   c->reply[0] ? c->reply : "accepted");
	else
		result_set(res, smtp_classify((int)cc, c->code, c->stage),
			   "%s: %s%s(curl %d: %s)", stage_name(c->stage),
			   c->reply, c->reply[0] ? " " : "", (int)cc,
			   c->errbuf[0] ? c->errbuf : curl_easy_strerror(cc));
	scrub(res->detail, c->cfg.password);
	return res->status == DELIVER_OK ? 0 : -1;
}

/* smtp_send - one transaction on a connection of its own */
int smtp_send(const struct smtp_config *cfg, const char *envelope_from,
	      const char *rcpt, const void *msg, size_t len,
	      struct deliver_result *res)
{
	struct smtp_client *c;
	int ret;

	/* check before connecting: nothing invalid reaches libcurl */
	deliver_result_init(res);
	if ((envelope_from && *envelope_from && !addr_valid(envelope_from)) ||
	    !addr_valid(rcpt)) {
		result_set(res, DELIVER_PERMANENT, "invalid address");
		return -1;
	}
	c = smtp_client_new(cfg, res);
	if (!c)
		return -1;
	ret = smtp_client_send(c, envelope_from, rcpt, msg, len, res);
	smtp_client_free(c);
	return ret;
}
