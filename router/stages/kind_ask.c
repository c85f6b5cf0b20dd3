// SPDX-License-Identifier: GPL-2.0-only
/*
 * kind_ask - whether a new message asks: its subject, its opening
 * sentence, its own text's words (kind.h: the question flag)
 *
 * A question decides nothing alone: kind.c makes a discussion only of one
 * that shows nothing of a system, and the filter holds a report that asks
 * only when it shows few signs of a bug anyone hit (pipeline.c).
 */
#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "kind_int.h"
#include "report.h"
#include "util.h"

/*
 * kind_question_subject - a subject that asks: it ends in "?" ("Does
 * io_uring_enter have anti-deadlock magic?", "critical target error?")
 * or opens with a request for help ("Need help ...", "Help: ...",
 * "Clarification on ...").  On the tuning labels most such new messages
 * are questions and help requests; the reports among them carry a
 * crash or a log, which pipeline_judge() weighs.  One that opens so
 * (opening_only: its "?" aside), names no problem in its subject and
 * whose text says nothing went wrong and holds no crash is a question
 * (asks_only(), decide_talk(): decided from the subject, so held for a
 * triager); on the tuning parts that takes 2 discussions out of the
 * reports, and no report (7 without the text's say).
 */
bool kind_question_subject(const char *rest, bool opening_only)
{
	static const char *const asks[] = {
		"need help",
		"help needed",
		"help:",
		"help with",
		"help request",
		"clarification",
		"request for assistance",
		"question:",
		"request for help",
		"need to understand",
		"how to ",
		"how do ",
		"how can ",
		/* a subject that opens as a question asks one, with or
		 * without its "?" (a subject cut at 75 columns loses it):
		 * "Is it true that ...", "Do we want to ...", "What is the
		 * best way to ..."; on the tuning labels no new report
		 * opens so, 17 discussions do */
		"is it ",
		"is there ",
		"are there ",
		"does ",
		"do we ",
		"do you ",
		"do i ",
		"can i ",
		"can we ",
		"can you ",
		"could ",
		"why ",
		"what ",
		"which ",
		"where ",
		"should ",
		"would ",
		"how ",
	};
	size_t i, n = strlen(rest);

	while (n && isspace((unsigned char)rest[n - 1]))
		n--;
	if (!opening_only && n && rest[n - 1] == '?')
		return true;
	for (i = 0; i < ARRAY_SIZE(asks); i++)
		if (!strncasecmp(rest, asks[i], strlen(asks[i])))
			return true;
	return false;
}

/* kind_words - the whitespace-separated words of [p, e) */
size_t kind_words(const char *p, const char *e)
{
	size_t n = 0;
	bool in = false;

	for (; p < e; p++) {
		bool sp = isspace((unsigned char)*p);

		n += !sp && !in;
		in = !sp;
	}
	return n;
}

/*
 * kind_first_sentence_asks - the sender's own text opens with a question:
 * its first sentence, greeting lines ("Hi all,", "Hello Jens") left
 * out, ends in '?' ("is there really an NVMe/IB target in use?", "Just
 * wondering if that was intended?").  A reporter opens with what
 * happened; on the tuning labels 21 new discussions open with a
 * question and 4 new reports do.  Read within the first OPENING_MAX
 * bytes of the sentence; an abbreviation's '.' ends it (no question).
 * Junk that names nothing of the kernel is not asked about so: its
 * opening question ("Looking for a reliable supplier?") keeps it spam.
 */
#define OPENING_MAX 300
bool kind_first_sentence_asks(const struct report *r)
{
	const char *p = r->body, *end, *e, *q;
	size_t got = 0;

	if (!p)
		return false;
	end = p + (r->body_len < KIND_SCAN_MAX ? r->body_len : KIND_SCAN_MAX);
	for (; p < end && got < OPENING_MAX; p = e + 1) {
		e = memchr(p, '\n', (size_t)(end - p));
		if (!e)
			e = end;
		if (p < e && *p == '>')
			return false; /* a reply's quote comes first */
		if (kind_words(p, e) == 0) {
			if (got)
				return false; /* a paragraph without an end */
			continue;
		}
		if (!got && kind_words(p, e) <= 3)
			continue; /* a greeting */
		for (q = p; q < e && got < OPENING_MAX; q++, got++)
			if ((*q == '.' || *q == '?' || *q == '!') &&
			    (q + 1 == e || isspace((unsigned char)q[1])))
				return *q == '?';
		if (e == end)
			break;
	}
	return false;
}

#define TEXT_ASKS_MAX (8u << 10)

/*
 * own_text_says - the first of says[0..n) (lower case) that the sender's
 * own text holds where a word starts, read within TEXT_ASKS_MAX bytes
 * (quoted lines left out); NULL when none
 */
static const char *own_text_says(const struct report *r,
				 const char *const *says, size_t n)
{
	unsigned char first[256] = { 0 };
	size_t len = r->body ? r->body_len : 0, i;
	const char *p, *end, *e, *q;

	if (!r->body)
		return NULL;
	for (i = 0; i < n; i++)
		first[(unsigned char)says[i][0]] = 1;
	if (len > TEXT_ASKS_MAX)
		len = TEXT_ASKS_MAX;
	end = r->body + len;
	for (p = r->body; p < end; p = e + 1) {
		e = memchr(p, '\n', (size_t)(end - p));
		if (!e)
			e = end;
		if (p < e && *p != '>')
			for (q = p; q < e; q++) {
				unsigned char c = (unsigned char)tolower(
					(unsigned char)*q);

				if (!first[c] ||
				    (q > p && isalpha((unsigned char)q[-1])))
					continue;
				for (i = 0; i < n; i++)
					if (says[i][0] == (char)c &&
					    has_prefix_ci(q, e, says[i]))
						return says[i];
			}
		if (e == end)
			break;
	}
	return NULL;
}

/*
 * kind_says_it_asks - the sender's own text says that it asks, in the first
 * person, wherever it does: "I have a question, isn't dev_dbg() the
 * reason ...", "I wonder why the block layer ...", "What do I need to
 * change for the build to ...".  A reporter tells what happened and may
 * end with "Any ideas?"; one who says that a question is what the mail
 * is for sent a question (a help request weighs its log: kind.h).
 * Quoted lines do not count; read within TEXT_ASKS_MAX bytes.
 */
bool kind_says_it_asks(const struct report *r)
{
	static const char *const says[] = {
		"i have a question",
		"i have some questions",
		"my question is",
		"i wonder why",
		"i wonder if",
		"i was wondering",
		"does anyone know",
		"how can i ",
		"what do i need to",
		/* "i just wanted to know how the project is doing", "I would
		 * like to know in which direction to go": on the tuning
		 * parts five new discussions say so, and no report */
		"i wanted to know",
		"i just wanted to know",
		"i would like to know",
	};

	return own_text_says(r, says, ARRAY_SIZE(says)) != NULL;
}

/*
 * kind_asks_readers - the sender's own text asks its readers for advice, an
 * explanation, a judgment or a change, in words a defect report does
 * not need: "Would it be possible to add such a check?", "Is there a
 * reason it defaults to disabled?", "I'd appreciate your guidance", "I
 * would like to understand", "Do I understand it correctly?", "any
 * thoughts or advice".  A reporter tells what they ran and what failed;
 * one who asks so wants to learn or to propose.  The phrase that asked,
 * NULL when none.  On the tuning parts' new messages 45 discussions
 * and 5 reports say one of these; under a subject that names no
 * failure (kind_classify()) the forwards of 11 discussions become
 * holds on the six report parts, and no report's.  "Any suggestion",
 * "any thoughts", "is there a way" and "how do I" are left out:
 * reports ask them as often.
 */
const char *kind_asks_readers(const struct report *r)
{
	static const char *const says[] = {
		"would it be possible",
		"would it still make sense",
		"would it have any sense",
		"is there a reason",
		"is there any reason",
		"is there any known way",
		"is it possible to",
		"is it normal",
		"can it be that",
		"what would cause",
		"thoughts or advice",
		"any advice",
		"some advice",
		"some advise",
		"your advice",
		"your guidance",
		"i would like to understand",
		"i'd like to understand",
		"i want to understand",
		"trying to get an understanding",
		"trying to understand",
		"i wanted to ask",
		"do i understand",
		"am i correct",
		"please correct me",
		"if anybody can help",
		"if anyone can help",
		"the question is",
		"the first question",
	};

	return own_text_says(r, says, ARRAY_SIZE(says));
}
