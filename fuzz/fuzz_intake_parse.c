// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_intake_parse - intake (read, cap, pre-scan) and parse (gmime) of
 * one message, the filter's first two stages
 */
#include <stdlib.h>

#include "fuzz.h"
#include "intake.h"
#include "parse.h"
#include "report.h"
#include "util.h"

/* LLVMFuzzerTestOneInput - one message through intake and parse */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int up;
	struct report *r;

	if (!up) {
		if (parse_init() < 0)
			abort();
		up = 1;
	}
	r = report_new();
	intake_read_buf(data, size, NULL, r);
	if (parse_report(r) < 0)
		abort();
	/* what parse promises: a body, valid UTF-8, within the budget */
	if (!r->body || !utf8_valid(r->body, r->body_len))
		abort();
	report_free(r);
	return 0;
}
