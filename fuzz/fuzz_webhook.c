// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_webhook - a POSTed webhook payload through the parser 'triage
 * serve' uses (bugzilla_parse_event), then the report built from its
 * bug; the REST response parsers read the same bytes too
 */
#include <stdlib.h>

#include "bugzilla.h"
#include "fuzz.h"
#include "report.h"
#include "util.h"

/* LLVMFuzzerTestOneInput - one JSON body, as serve and poll read it */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *json = (const char *)data;
	struct bugzilla_event ev;
	struct bugzilla_bug bug;
	struct bugzilla_comment c;
	struct bugzilla_hit *hits = NULL;
	struct report *r;
	char err[BUGZILLA_ERR_MAX], msg[256];
	long code;
	size_t n = 0;

	if (size > BUGZILLA_PAYLOAD_MAX)
		return 0; /* serve refuses it before parsing (HTTP 413) */
	if (bugzilla_parse_event(json, size, &ev, err, sizeof(err)) == 0) {
		r = bugzilla_report(&ev.bug, NULL,
				    "https://bugzilla.example.org",
				    "triage@example.org");
		report_free(r);
		bugzilla_event_release(&ev);
	}
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
	if (bugzilla_parse_search(json, size, &hits, &n, err, sizeof(err)) == 0)
		free(hits);
	bugzilla_parse_error(json, size, &code, msg, sizeof(msg));
	return 0;
}
