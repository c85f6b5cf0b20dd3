// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_evidence - evidence extraction and the crash-log parser over one
 * text, as parse hands it over (NUL-terminated; the bytes are not made
 * valid UTF-8 first, so the extractors also see what parse never gives)
 */
#include <stdlib.h>
#include <string.h>

#include "crashlog.h"
#include "evidence.h"
#include "prefixes.h"
#include "fuzz.h"
#include "util.h"

/* LLVMFuzzerTestOneInput - one text through evidence and crashlog */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = xmemdup0(size ? (const char *)data : "", size);
	const char *nl = memchr(text, '\n', size);
	char *line = xmemdup0(text, nl ? (size_t)(nl - text) : size);
	struct crashlog_scan *sc;
	struct crashlog *c;
	struct evidence *ev;
	char *s;
	int n;

	ev = evidence_extract_text(text, size);
	evidence_finish(ev);
	evidence_free(ev);

	/* every crash in the log, at most a few (each rescans the rest) */
	sc = crashlog_scan_new(text, size);
	for (n = 0; n < 8 && (c = crashlog_scan_next(sc)); n++)
		crashlog_free(c);
	crashlog_scan_free(sc);

	free(evidence_guilty_file(text, size));
	/* the first line as a subject and as a crash title */
	free(evidence_subject_prefix(line));
	free(prefix_chain(line));
	/* the commit the text blames (bot reports, bisection logs) */
	free(prefix_culprit(text, size));
	s = crashlog_guilty(line, text, size);
	free(s);
	free(line);
	free(text);
	return 0;
}
