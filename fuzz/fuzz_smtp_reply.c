// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_smtp_reply - what an SMTP server sends back, through the reply
 * parser of smtp.c (debug_cb(): libcurl hands it the lines it sent and
 * received), then smtp_classify() of what it kept
 *
 * debug_cb() is static: the harness includes smtp.c, so that the parser
 * is tested as it is, not through a copy.  An input is a run of
 * records, each a byte (its value modulo 7: the curl_infotype), a
 * length byte, and that many bytes: one callback, handed over in a
 * block of its exact size.
 */
#include "smtp.c" /* NOLINT: the static parser under test */

#include "fuzz.h"

/* LLVMFuzzerTestOneInput - one conversation, callback by callback */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int curl_codes[] = {
		CURLE_OK,
		CURLE_COULDNT_CONNECT,
		CURLE_SEND_ERROR,
		CURLE_RECV_ERROR,
		CURLE_LOGIN_DENIED,
		CURLE_OPERATION_TIMEDOUT,
		CURLE_SSL_CONNECT_ERROR,
	};
	struct smtp_client *c = xcalloc(1, sizeof(*c));
	size_t i = 0, k;

	while (i + 2 <= size) {
		curl_infotype type = (curl_infotype)(data[i] % 7);
		size_t n = data[i + 1];
		char *chunk;

		i += 2;
		if (n > size - i)
			n = size - i;
		chunk = malloc(n); /* malloc(0) too: any read of it is seen */
		if (!chunk && n)
			abort();
		if (n)
			memcpy(chunk, data + i, n);
		debug_cb(NULL, type, chunk, n, c);
		free(chunk);
		i += n;
		/* what the caller reads after each callback */
		if (strnlen(c->reply, sizeof(c->reply)) == sizeof(c->reply) ||
		    strnlen(c->stage, sizeof(c->stage)) == sizeof(c->stage) ||
		    (c->code && (c->code < 100 || c->code > 599)))
			abort();
	}
	for (k = 0; k < ARRAY_SIZE(curl_codes); k++) {
		smtp_classify(curl_codes[k], c->code,
			      c->stage[0] ? c->stage : NULL);
	}
	free(c);
	return 0;
}
