// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_bugzilla_rest - one Bugzilla REST response body through every
 * reader of 'triage bugzilla' and serve's fetches: a bug, its first
 * comment (then the report made of both), a search, an error body
 */
#include <stdlib.h>
#include <string.h>

#include "bugzilla.h"
#include "fuzz.h"
#include "report.h"
#include "util.h"

/* LLVMFuzzerTestOneInput - one JSON response, as the client reads it */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *json = (const char *)data;
	struct bugzilla_bug bug;
	struct bugzilla_comment c;
	struct bugzilla_hit *hits = NULL;
	struct report *r;
	char err[BUGZILLA_ERR_MAX], msg[256];
	long code;
	size_t n = 0, i;

	if (size > BUGZILLA_RESPONSE_MAX)
		return 0; /* the client stops reading there */
	if (bugzilla_parse_bug(json, size, 1, &bug, err, sizeof(err)) == 0) {
		if (bugzilla_parse_first_comment(json, size, 1, &c, err,
						 sizeof(err)) == 0) {
			r = bugzilla_report(&bug, &c,
					    "https://bugzilla.example.org/",
					    "triage@example.org");
			report_free(r);
			bugzilla_comment_release(&c);
		}
		bugzilla_bug_release(&bug);
	}
	if (bugzilla_parse_search(json, size, &hits, &n, err, sizeof(err)) ==
	    0) {
		/* what the poller then compares: a C string in its array */
		for (i = 0; i < n; i++)
			if (strnlen(hits[i].last_change_time,
				    sizeof(hits[i].last_change_time)) ==
			    sizeof(hits[i].last_change_time))
				abort();
		free(hits);
	}
	if (bugzilla_parse_error(json, size, &code, msg, sizeof(msg)) == 1 &&
	    strnlen(msg, sizeof(msg)) == sizeof(msg))
		abort();
	return 0;
}
