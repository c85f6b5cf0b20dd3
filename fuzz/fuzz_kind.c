// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_kind - what a message is (kind.c): its subject tags, trailers,
 * sender and own-text scan, on a message parsed as the filter parses it,
 * then every reference it found read as an archive link (link.c), as
 * the thread lookup reads them
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "intake.h"
#include "kind.h"
#include "link.h"
#include "parse.h"
#include "report.h"
#include "util.h"

/* LLVMFuzzerTestOneInput - one message through parse, kind and links */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int up;
	struct kind_result k;
	struct report *r;
	size_t i;

	if (!up) {
		if (parse_init() < 0)
			abort();
		up = 1;
	}
	r = report_new();
	intake_read_buf(data, size, NULL, r);
	if (parse_report_limits(r, NULL) < 0)
		abort();
	kind_classify(r, &k);
	/* what kind promises: a kind, a why that is a C string */
	if (k.kind < 0 || !kind_name(k.kind) ||
	    !memchr(k.why, '\0', sizeof(k.why)) || k.nrefs > KIND_REFS_MAX)
		abort();
	for (i = 0; i < k.nrefs; i++) {
		char id[256];
		long bug;

		if (!k.refs[i].value)
			abort();
		link_url_msgid(k.refs[i].value, id, sizeof(id));
		link_url_bug(k.refs[i].value, &bug);
	}
	kind_result_release(&k);
	report_free(r);
	return 0;
}
