// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_intake_parse - intake (read, cap, pre-scan) and parse (gmime) of
 * one message, the filter's first two stages, then intake_why() as the
 * filter calls it for an oversize message, and parse_sendable() as the
 * record stage calls it for one that cannot go out as it came: what it
 * makes must go out (no NUL, no line over 998 bytes)
 *
 * Inputs whose first byte is odd run with tiny limits, so that every
 * cap, intake_sanitize() and the parse of its bounded copy are reached
 * by inputs of a few hundred bytes; the byte stays part of the message.
 */
#include <stdlib.h>

#include "fuzz.h"
#include "intake.h"
#include "mimetext.h"
#include "parse.h"
#include "report.h"
#include "strbuf.h"
#include "util.h"

/* LLVMFuzzerTestOneInput - one message through intake and parse */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int up;
	struct intake_limits tiny = {
		.max_bytes = 4096,
		.max_headers = 8,
		.max_header_line = 64,
		.max_boundaries = 4,
		.max_part_headers = 8,
		.max_dash_lines = 8,
		.max_depth = 3,
	};
	const struct intake_limits *lim = size && (data[0] & 1) ? &tiny : NULL;
	struct report *r;
	struct strbuf copy = STRBUF_INIT(4u << 20);
	char why[200];

	if (!up) {
		if (parse_init() < 0)
			abort();
		up = 1;
	}
	r = report_new();
	intake_read_buf(data, size, lim, r);
	if (parse_report_limits(r, lim) < 0)
		abort();
	/* what parse promises: a body, valid UTF-8 */
	if (!r->body || !utf8_valid(r->body, r->body_len))
		abort();
	if (r->flags & REPORT_OVERSIZED)
		intake_why(r, lim, why, sizeof(why));
	if (mimetext_unsendable(r->raw, r->raw_len) &&
	    parse_sendable(r, &copy) == 0 &&
	    mimetext_unsendable(copy.buf, copy.len))
		abort();
	sb_release(&copy);
	report_free(r);
	return 0;
}
