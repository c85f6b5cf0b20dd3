/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * corpus - labelled reports for training and evaluating the classifier
 *
 * DESCRIPTION
 *	Not a stage: what 'triage train' and 'triage eval' (and the tests
 *	over ../shared) read.  A corpus is a list of parsed reports, each
 *	with its true class (user, fuzzer or ai) and the author/thread
 *	group it belongs to, so that cross-validation never splits an
 *	author or a thread between training and test.
 *
 *	Sources:
 *	- corpus_load(DIR): DIR/index.tsv when it exists (columns file,
 *	  class, source, wrapped, notes, tab-separated, a header line,
 *	  files relative to DIR, as ../shared/corpus/reports), else every
 *	  regular file of DIR/user, DIR/fuzzer and DIR/ai (sorted by name;
 *	  names starting with '.' skipped).  Each file is one message, read
 *	  through intake and parse exactly as the filter reads mail.
 *	- corpus_add_corrections(db): the reports whose class a triager
 *	  changed ('triage reclassify'; audit_corrections()), labelled with
 *	  the triager's class (corrections to "uncertain" are skipped).
 *	  The raw message is parsed when the database kept it; otherwise
 *	  the stored subject and decoded body make a one-part report.
 *
 *	Groups (corpus_group()).  Items are joined (union-find) when they
 *	share a key:
 *	  addr:    the sender's bare address, "+tag" removed; for a
 *	           Bugzilla relay (bugzilla-daemon@, bugbot@) the bug's
 *	           reporter (X-Bugzilla-Who, else the body's "Reporter:");
 *	           not for a mailing list that rewrote From ("'X' via L")
 *	  name:    the display name's words, lower case, sorted ("Xie
 *	           Maoyi" = "Maoyi Xie"), " via LIST" and quotes dropped;
 *	           names shorter than 3 bytes do not count
 *	  thread:  every Message-ID, In-Reply-To and References id
 *	  tag:     a "group=NAME" tag in the notes
 *	An item's group is the name of the first item of its group.
 *
 *	Split (corpus_split()).  A split file marks each labelled message
 *	"tune" (rules, thresholds and the model may be fitted on it) or
 *	"held-out" (only ever judged on), keyed by its Message-ID:
 *	tab-separated lines MESSAGE-ID PART [anything else...], the id
 *	without "<>"; lines starting with '#' and blank lines are skipped.
 *	The further columns (the source directory, the file, the class, a
 *	group id in classifiers/split.tsv) are hints for humans, so one
 *	file can hold the marks of any number of labelled sources.
 *	tools/split-reports.py writes it with whole author/thread groups on
 *	one side; corpus_split_crossing() checks that against
 *	corpus_group().  Items the file does not mark stay CORPUS_UNSPLIT.
 *
 *	Bot senders (corpus_bot_sender()): the sender identity of the
 *	automated reporters of research/classification.md §6 (syzbot, the
 *	kernel test robot, KernelCI, CKI, coverity-bot, the BlueZ, BPF and
 *	freedesktop Patchwork CIs), from the From address or display name
 *	only.  It is the evaluation's definition of "bot-sent", kept apart
 *	from the rule files it measures.
 *
 *	Figures (struct corpus_eval): a confusion matrix of true class
 *	(user, fuzzer, ai) by verdict (user, fuzzer, ai, uncertain).
 *	"uncertain" goes to a human: it is neither a hit nor a quarantine.
 *	So an uncertain verdict counts as a miss in its true class's recall
 *	and in no class's precision (precision of c = hits / verdicts c;
 *	recall of c = hits / reports of class c, uncertain included).
 *	Accuracy counts uncertain as wrong; macro-F1 is the mean of the
 *	three classes' F1.
 *
 * Ownership:
 *	struct corpus owns its items and their reports; corpus_release().
 *	corpus_add_report() takes the report it is given.
 *
 * Errors:
 *	corpus_split() returns -1 after a message when the file cannot be
 *	read, a line has no id or an unknown part, or an id is marked twice.
 *	corpus_load() returns -1 after a message when DIR has neither an
 *	index nor a class directory, or the index cannot be read; a
 *	message that cannot be read or has a bad class is warned about and
 *	skipped (counted in corpus.skipped).  corpus_add_corrections()
 *	returns -1 when the database cannot be read.
 */
#ifndef TRIAGE_CORPUS_H
#define TRIAGE_CORPUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rules.h"

struct audit;
struct model_input;
struct report;

#define CORPUS_MESSAGE_MAX (16u << 20) /* bytes read per message */
#define CORPUS_SPLIT_MAX   (16u << 20) /* bytes read of a split file */

/* which part of a split an item is in (corpus_split()) */
enum corpus_part {
	CORPUS_UNSPLIT = 0, /* no split read, or not in it */
	CORPUS_TUNE,	    /* may be fitted on */
	CORPUS_HELD_OUT,    /* never fitted on: only judged on */
};

struct corpus_item {
	char *name;	       /* "user/001.eml", "correction 42" */
	int cls;	       /* CLASS_USER, CLASS_FUZZER, CLASS_AI */
	char *notes;	       /* index notes, or "" */
	struct report *report; /* parsed */
	const char *bot;       /* corpus_bot_sender(), or NULL */
	int64_t report_id;     /* corrections: reports.id, else 0 */
	int old_class;	       /* corrections: the classifier's class
				  (CLASS_UNCERTAIN too), else -1 */
	char **keys;	       /* group keys (see DESCRIPTION) */
	size_t nkeys, akeys;
	char *group; /* set by corpus_group() */
	int part;    /* enum corpus_part, set by corpus_split() */
};

struct corpus {
	struct corpus_item *items;
	size_t n, alloc;
	size_t ngroups; /* set by corpus_group() */
	size_t skipped; /* messages that could not be used */
};

void corpus_init(struct corpus *c);
void corpus_release(struct corpus *c);

/* corpus_load - the messages of DIR (index.tsv, or user/ fuzzer/ ai/) */
int corpus_load(struct corpus *c, const char *dir);

/*
 * corpus_add_message - parse one message (len bytes) labelled cls and
 * add it; -1 (printed) when it cannot be parsed
 */
int corpus_add_message(struct corpus *c, const char *name, const char *raw,
		       size_t len, int cls, const char *notes);

/* corpus_add_report - add a parsed report (taken) labelled cls */
struct corpus_item *corpus_add_report(struct corpus *c, const char *name,
				      struct report *r, int cls,
				      const char *notes);

/*
 * corpus_add_corrections - the triagers' corrections in db; returns the
 * number added, or -1; *skipped (may be NULL) counts corrections to
 * "uncertain" and unreadable reports
 */
int corpus_add_corrections(struct corpus *c, struct audit *db, size_t *skipped);

/*
 * corpus_group - join items that share an author or a thread (see
 * DESCRIPTION); sets every item's group and returns the group count
 */
size_t corpus_group(struct corpus *c);

/*
 * corpus_split - mark every item by its Message-ID in the split file at
 * path (see DESCRIPTION); returns the number of items it leaves
 * CORPUS_UNSPLIT, or -1 (printed)
 */
int corpus_split(struct corpus *c, const char *path);

/*
 * corpus_split_crossing - after corpus_group() and corpus_split(): the
 * first item whose author/thread group has items in both the tuning and
 * the held-out part, or NULL when no group crosses the split
 */
const struct corpus_item *corpus_split_crossing(const struct corpus *c);

/*
 * corpus_split_check - corpus_split() with its promises checked: every
 * one of the first n items (the labelled directories; corrections after
 * them may be unmarked) is marked, and no author/thread group crosses
 * the split (corpus_group() first).  At most max_named unmarked items
 * are named.  0, or -1 after saying why.
 */
int corpus_split_check(struct corpus *c, const char *path, size_t n,
		       size_t max_named);

/*
 * corpus_drop_part - remove the items of that part (enum corpus_part);
 * returns how many; groups are then stale: corpus_group() again
 */
size_t corpus_drop_part(struct corpus *c, int part);

/* corpus_part_name - "tune", "held-out" or "unsplit" */
const char *corpus_part_name(int part);

/* corpus_count - items of class cls */
size_t corpus_count(const struct corpus *c, int cls);

/* corpus_model_input - the model's view of an item (borrowed) */
void corpus_model_input(const struct corpus_item *it, struct model_input *in);

/* the classifier's figures (see DESCRIPTION) */
struct corpus_eval {
	unsigned confusion[CLASS_N][CLASS_N + 1]; /* [true][verdict] */
	size_t n;
	unsigned uncertain;
	double precision[CLASS_N], recall[CLASS_N], f1[CLASS_N];
	double macro_f1, accuracy;
};

/* corpus_eval_add - count one verdict (CLASS_* or CLASS_UNCERTAIN) */
void corpus_eval_add(struct corpus_eval *ev, int truth, int verdict);
/* corpus_eval_finish - precision, recall, F1, macro-F1, accuracy */
void corpus_eval_finish(struct corpus_eval *ev);
/*
 * corpus_eval_print - the per-class table, macro-F1 and the confusion
 * matrix, every line starting with prefix
 */
void corpus_eval_print(FILE *fp, const char *prefix,
		       const struct corpus_eval *ev);

/*
 * corpus_bot_sender - "syzbot", "kernel test robot", ... when the
 * report's sender is a known bot, else NULL
 */
const char *corpus_bot_sender(const struct report *r);

/*
 * corpus_sender - the sender's bare address ("+tag" removed; the bug's
 * reporter for a Bugzilla relay), lower case, in buf; "" when none
 */
void corpus_sender(const struct report *r, char *buf, size_t size);

#endif
