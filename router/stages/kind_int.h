/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kind_int - what kind.c shares with its sibling files (not an API)
 */
#ifndef TRIAGE_KIND_INT_H
#define TRIAGE_KIND_INT_H

#include <stdbool.h>
#include <stddef.h>

struct report;

/* bytes of the sender's own text read for a diff, a crash, an opening */
#define KIND_SCAN_MAX (256u << 10)

/* kind_words - the whitespace-separated words of [p, e) (kind_ask.c) */
size_t kind_words(const char *p, const char *e);

/*
 * kind_question_subject - a subject (its tags and "Re:" left out) that
 * asks: it ends in "?" (unless opening_only) or opens by asking ("Need
 * help ...", "Clarification on ...", "Is there ...") (kind_ask.c)
 */
bool kind_question_subject(const char *rest, bool opening_only);

/*
 * kind_first_sentence_asks - the sender's own text opens, greeting left
 * out, with a sentence that ends in '?' (kind_ask.c)
 */
bool kind_first_sentence_asks(const struct report *r);

/*
 * kind_says_it_asks - the sender's own text says, in the first person,
 * that it asks ("I have a question", "I wonder why") (kind_ask.c)
 */
bool kind_says_it_asks(const struct report *r);

/*
 * kind_asks_readers - the phrase with which the sender's own text asks
 * its readers for advice, an explanation, a judgment or a change
 * ("would it be possible", "is there a reason"), NULL when none: a
 * question for the filter's hold, never a discussion by itself
 * (kind_ask.c)
 */
const char *kind_asks_readers(const struct report *r);

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

/*
 * kind_list_footer - where a mailing list's footer starts in t[0..len)
 * (Mailman's line of underscores alone, then "... mailing list" or its
 * listinfo address within three lines), or len: the list's words, not
 * the writer's ("Linux MTD discussion mailing list")
 */
size_t kind_list_footer(const char *t, size_t len);

/*
 * kind_names_kernel - t[0..len) (its list footer left out) names
 * something of the kernel: a path, a source file, a module, a kernel
 * version or a kernel.org link; a dmesg timestamp; code (an identifier
 * with an underscore, a hex number, a call "probe()"); a model or driver
 * name ("rk3399", "i915"); a word of the kernel's world ("driver",
 * "boot", "laptop", "dmesg"), and with KIND_NAMES_ALL a word of
 * everyday English that a report uses as well as junk ("error",
 * "memory", "battery").  With KIND_NAMES_CODE, code alone counts.  The
 * words of a link or an address are its host's and do not count.
 */
enum kind_names {
	KIND_NAMES_CODE, /* code only */
	KIND_NAMES_SURE, /* and the kernel's own words, models, paths */
	KIND_NAMES_ALL,	 /* and everyday words of its world */
};
bool kind_names_kernel(const char *t, size_t len, enum kind_names how);

#endif
