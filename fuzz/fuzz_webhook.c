// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_webhook - a POSTed webhook payload through the parser 'triage
 * serve' uses (bugzilla_parse_event), then the report built from its
 * bug (the REST responses have fuzz_bugzilla_rest)
 */
#include <stdlib.h>

#include "bugzilla.h"
#include "fuzz.h"
#include "report.h"
#include "util.h"

/* LLVMFuzzerTestOneInput - one JSON body, as serve reads it */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bugzilla_event ev;
	struct report *r;
	char err[BUGZILLA_ERR_MAX];

	if (size > BUGZILLA_PAYLOAD_MAX)
		return 0; /* serve refuses it before parsing (HTTP 413) */
	if (bugzilla_parse_event((const char *)data, size, &ev, err,
				 sizeof(err)) == 0) {
		r = bugzilla_report(&ev.bug, NULL,
				    "https://bugzilla.example.org",
				    "triage@example.org");
		report_free(r);
		bugzilla_event_release(&ev);
	}
	return 0;
}
