/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kind_int - what kind.c shares with its sibling files (not an API)
 */
#ifndef TRIAGE_KIND_INT_H
#define TRIAGE_KIND_INT_H

#include <stdbool.h>
#include <stddef.h>

struct report;

/*
 * kind_spam_signals - a new message that a mail admin would call spam
 * (kind_spam.c): its subject and own text (list footer left out) name
 * nothing of the kernel and state no problem, and at least two
 * independent marks of junk agree, one of them about money, a scam's
 * words or a disguised spelling.  why (size bytes) says which marks,
 * for 'triage explain'.
 */
bool kind_spam_signals(const struct report *r, const char *subject, char *why,
		       size_t size);

#endif
