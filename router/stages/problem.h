/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * problem.h - does a message say that something went wrong?
 *
 * A genuine report states a problem: its subject names one ("btrfs send:
 * output file corrupted after resume", "iw scan hangs"), or its writer
 * tells in one sentence that something of theirs fails ("I get I/O
 * errors since 6.18", "our servers lock up").  A question, a plan or an
 * announcement on a bugs alias usually does not ("Btrfs encryption
 * support progress?", "Ideas for a RAIDZ-like design").
 *
 * The test is deliberately plain English and generous: a problem word
 * (fail, crash, hang, broken, error, lost, regression, "not working",
 * "no longer" ... with their inflections) in the subject, or in a
 * sentence of the writer's own text that also speaks in the first person
 * (I, we, my, our), or in a kernel message the writer pasted: a dmesg
 * line ("[   12.345] ...") or a problem word followed by ':', '(' or ','
 * ("EXT4-fs error (device sda1): ...", "read failed: -110").  Quoted
 * lines ("> ...") and the signature ("-- ") are not the writer's.  It decides nothing alone: the filter holds a
 * new message for a triager only when it also shows no other sign of a
 * report (no classifier rule reached a threshold, no crash).
 *
 * Measured on the tuning labels (tests/real/tune-*.tsv) among the new
 * messages that reached no class threshold: 31 of 34 genuine user
 * reports state a problem so, and 33 of 52 non-reports (questions,
 * plans, announcements, cover letters) do not.
 *
 * Hand-written rather than a pcre2 rule: it runs before classification,
 * for every new message, on a bounded prefix of the text, with a fixed
 * word table (bsearch) and no backtracking.
 */
#ifndef TRIAGE_PROBLEM_H
#define TRIAGE_PROBLEM_H

#include <stdbool.h>
#include <stddef.h>

/* at most this much of the text is read */
#define PROBLEM_SCAN_MAX (64 * 1024)

/*
 * problem_in_phrase - a problem word or phrase in s[0..len) (a subject
 * with its tags removed, or one sentence); where it was is copied to
 * what (NUL-terminated, at most size - 1 bytes) when what is not NULL
 */
bool problem_in_phrase(const char *s, size_t len, char *what, size_t size);

/*
 * problem_failure_in_phrase - problem_in_phrase(), but only a word that
 * says something failed ("fails", "error", "broken", "not working",
 * "crash" ...): "issue", "problem", "bug", "missing", "slow", "timeout"
 * name a topic as often ("Issues in man pages", "Missing PCI ID for
 * ...", "slow speeds") and do not count; a regression's time counts:
 * "since 6.18.x", "after commit 992a9df41ad7", "after upgrading"
 */
bool problem_failure_in_phrase(const char *s, size_t len, char *what,
			       size_t size);

/*
 * problem_in_text - a sentence of text[0..len) in the first person
 * that names a problem; quoted lines and the signature left out
 */
bool problem_in_text(const char *text, size_t len, char *what, size_t size);

/*
 * problem_failure_in_text - the writer tells that something failed: a
 * sentence of text[0..len) in the first person with a word that says
 * something failed (problem_failure_in_phrase()'s words: "I have a
 * question about this issue" names a topic, "my board locks up" a
 * failure), judged whole at its end (". ", "! ", a line break that
 * ends it): not one that asks ("?"), nor one of a wish or a supposition
 * ("want", "could", "would", "might", "should", "whether": "I want it
 * to panic"), nor a failure word inside double quotes (a message or a
 * name cited: I see "Correctable Errors collector").  A pasted kernel
 * message is the kernel's telling, not the writer's.  Quoted lines and
 * the signature left out.
 */
bool problem_failure_in_text(const char *text, size_t len, char *what,
			     size_t size);

/*
 * problem_dmesg_stamp - the length of the console stamp s[0..len) opens
 * with, 0 when none: dmesg's "[   12.345678]", and the human forms of
 * dmesg -H ("[Apr11 19:28]", then "[  +0.014297]" for each later line)
 * and dmesg -T ("[Fri Apr 11 19:28:01 2025]"), which users paste as
 * often
 */
size_t problem_dmesg_stamp(const char *s, size_t len);

/*
 * problem_log_lines - the kernel log lines the writer pasted in
 * text[0..len): a dmesg line ("[   12.345678] ...", or a stamp of
 * problem_dmesg_stamp()'s human forms) or the journal's
 * or syslog's ("Feb  5 14:51:03 host kernel: ..."); quoted lines and
 * the signature left out
 */
unsigned problem_log_lines(const char *text, size_t len);

#endif
