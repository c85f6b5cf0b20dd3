/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kind_msg - a composed message for the kind tests (test_kind,
 * test_kind_spam): include after cmocka.h
 *
 *	msg(from, subject, in_reply_to, body)
 *		a report as parse.h leaves it: From (display form and
 *		bare address), Subject, In-Reply-To when not NULL, and
 *		body as its text (NULL: none); the caller frees it
 *		(report_free)
 */
#ifndef TRIAGE_TEST_KIND_MSG_H
#define TRIAGE_TEST_KIND_MSG_H

#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "util.h"

static inline struct report *msg(const char *from, const char *subject,
				 const char *in_reply_to, const char *body)
{
	struct report *r = report_new();
	const char *lt = strchr(from, '<');

	free(r->from);
	free(r->from_addr);
	free(r->subject);
	r->from = xstrdup(from);
	r->from_addr =
		lt ? xstrndup(lt + 1, strcspn(lt + 1, ">")) : xstrdup(from);
	r->subject = xstrdup(subject);
	report_add_header(r, "From", from);
	report_add_header(r, "Subject", subject);
	if (in_reply_to) {
		r->in_reply_to = xstrdup(in_reply_to);
		report_add_header(r, "In-Reply-To", in_reply_to);
	}
	r->body = xstrdup(body ? body : "");
	r->body_len = strlen(r->body);
	r->source = "mail";
	return r;
}

#endif
