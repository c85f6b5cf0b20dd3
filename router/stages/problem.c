// SPDX-License-Identifier: GPL-2.0-only
/*
 * problem.c - does a message say that something went wrong (problem.h)
 */
#include <ctype.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crashlog.h"
#include "problem.h"
#include "util.h"

#define WORD_MAX 24

/* problem words, whole (sorted: bsearch); "issue" and "problem" are
 * how most reporters name theirs ("m_can: bus-off recovery issue",
 * "xconfig problem with 'comment'"): on the tuning labels 48 new reports
 * and 7 discussions carry such a subject word */
static const char *const problem_words[] = {
	"anymore",	"breakage",    "breakages", "breaks",	  "broke",
	"broken",	"bug",	       "buggy",	    "bugs",	  "drop",
	"dropped",	"dropping",    "drops",	    "fail",	  "failed",
	"failing",	"fails",       "failure",   "failures",	  "garbage",
	"hang",		"hanging",     "hangs",	    "hung",	  "ignored",
	"inconsistent", "instability", "issue",	    "issues",	  "leak",
	"leaked",	"leaking",     "leaks",	    "lockup",	  "lockups",
	"lost",		"missing",     "oops",	    "panic",	  "panics",
	"prevent",	"prevented",   "prevents",  "problem",	  "problems",
	"reboot",	"reboots",     "regressed", "regression", "regressions",
	"slow",		"stuck",       "timeout",   "timeouts",	  "unexpected",
	"unexpectedly", "unstable",    "unusable",  "warns",	  "wrong",
	"wrongly",
};

/* problem words that name a topic as often as a failure: "Issues in man
 * pages of btrfs-progs", "Missing PCI ID for ...", "RAID 5 ... slow
 * speeds", "bug tracking"; problem_failure_in_phrase() leaves them out
 * (sorted: bsearch) */
static const char *const topic_words[] = {
	"bug",	    "buggy",   "bugs",	   "drop",    "dropping", "drops",
	"ignored",  "issue",   "issues",   "missing", "prevent",  "prevented",
	"prevents", "problem", "problems", "slow",    "timeout",  "timeouts",
};

/* problem stems: crashes, freezing, corrupted, disconnects ... */
static const char *const problem_stems[] = {
	"crash",  "freez",     "corrupt", "disconnect", "flood",
	"glitch", "incorrect", "error",	  "deadlock",
};

/* two words: the first, then the second (a stem when it ends in '*') */
static const char *const problem_pairs[][2] = {
	{ "not", "work*" },    { "doesn't", "work*" }, { "doesnt", "work*" },
	{ "don't", "work*" },  { "dont", "work*" },    { "stopped", "working" },
	{ "no", "longer" },    { "lock", "up" },       { "locks", "up" },
	{ "locked", "up" },    { "timed", "out" },     { "stops", "working" },
	{ "stop", "working" }, { "dead", "lock*" },
};

static const char *const first_person[] = {
	"i", "i'd", "i'm", "i've", "my", "our", "we", "we're", "we've",
};

static bool in_list(const char *w, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(w, list[i]))
			return true;
	return false;
}

static bool word_is(const char *w, const char *pat)
{
	size_t n = strlen(pat);

	if (n && pat[n - 1] == '*')
		return !strncmp(w, pat, n - 1);
	return !strcmp(w, pat);
}

/* a problem word, or the second word of a problem pair after prev */
static const char *problem_word(const char *prev, const char *w)
{
	size_t i;

	if (sorted_words_has(problem_words, ARRAY_SIZE(problem_words), w))
		return w;
	for (i = 0; i < ARRAY_SIZE(problem_stems); i++)
		if (!strncmp(w, problem_stems[i], strlen(problem_stems[i])))
			return w;
	for (i = 0; i < ARRAY_SIZE(problem_pairs); i++)
		if (!strcmp(prev, problem_pairs[i][0]) &&
		    word_is(w, problem_pairs[i][1]))
			return problem_pairs[i][0];
	return NULL;
}

/* the words of one sentence, as read so far */
struct sentence {
	char prev[WORD_MAX];
	char word[WORD_MAX];
	size_t n;      /* bytes in word; WORD_MAX when too long to match */
	bool person;   /* a first-person word */
	bool problem;  /* a problem word or pair */
	bool hit_now;  /* ... the word just read */
	bool failure;  /* only a word that says something failed counts
			* (topic_words left out) */
	bool log;      /* a kernel message: "EXT4-fs error (device",
			* "failed: -110", a dmesg line */
	bool commit;   /* names a commit: "commit e879a0d9cb08" */
	bool told;     /* the whole sentence is judged at its end: a
			* question or a wish does not tell (told()) */
	bool modal;    /* ... a word of a wish or a supposition */
	bool quote;    /* ... inside double quotes: a message or a name
			* cited ("Correctable Errors collector"), not the
			* writer's telling */
	size_t hex;    /* the word so far is this many hex digits
			* (SIZE_MAX: it is not hex) ... */
	bool digit;    /* ... one a digit */
	bool alpha;    /* ... and one a letter */
	char what[64]; /* the problem, as "prev word" */
};

static void sentence_reset(struct sentence *s)
{
	bool failure = s->failure, told = s->told;

	memset(s, 0, sizeof(*s));
	s->failure = failure;
	s->told = told;
}

/* words of a wish, a supposition or a plan: "I want it to crash", "a
 * disk failure could occur", "should I expect errors" (sorted: bsearch) */
static const char *const modal_words[] = {
	"could",  "might", "should",  "want",
	"wanted", "wants", "whether", "would",
};

/* words a writer tells as an action of theirs as often as a failure
 * ("after a reboot I found ...", "I rebuild and reboot"): a told
 * failure leaves them out (sorted: bsearch) */
static const char *const action_words[] = {
	"reboot",
	"reboots",
};

/* qualifies - the sentence names a problem as problem_in_text() asks */
static bool qualifies(const struct sentence *s, bool need_person)
{
	return s->problem && (s->person || s->log || s->commit || !need_person);
}

/* told - a sentence in told mode, at its end, tells of a problem: the
 * writer's own (first person: a kernel message they pasted is not
 * their telling), with no modal word, and does not end asking ('?') */
static bool told(const struct sentence *s, char end)
{
	return s->told && end != '?' && !s->modal && s->problem && s->person;
}

/* hex_byte - track whether the word read so far is a hex number */
static void hex_byte(struct sentence *s, char c)
{
	if (s->hex == SIZE_MAX)
		return;
	if (!isxdigit((unsigned char)c)) {
		s->hex = SIZE_MAX;
		return;
	}
	s->hex++;
	if (isdigit((unsigned char)c))
		s->digit = true;
	else
		s->alpha = true;
}

/* commit_id - the word just read is a commit's hash: 7 to 40 hex
 * digits, a digit and a letter among them ("e879a0d9cb08"; not
 * "1234567"), and the word before it is "commit" */
static bool commit_id(const struct sentence *s)
{
	return !strcmp(s->prev, "commit") && s->hex >= 7 && s->hex <= 40 &&
	       s->digit && s->alpha;
}

static void hex_reset(struct sentence *s)
{
	s->hex = 0;
	s->digit = s->alpha = false;
}

static void word_end(struct sentence *s)
{
	const char *hit;

	if (!s->n)
		return;
	/* "commit e879a0d9cb08 breaks the test": a regression's culprit
	 * named, as a writer who hit it names it (a full hash is longer
	 * than any word kept) */
	if (commit_id(s))
		s->commit = true;
	hex_reset(s);
	if (s->n < WORD_MAX) {
		s->word[s->n] = '\0';
		if (in_list(s->word, first_person, ARRAY_SIZE(first_person)))
			s->person = true;
		if (s->told &&
		    sorted_words_has(modal_words, ARRAY_SIZE(modal_words),
				     s->word))
			s->modal = true;

		hit = problem_word(s->prev, s->word);
		if (s->told &&
		    (s->quote ||
		     (hit == s->word &&
		      sorted_words_has(action_words, ARRAY_SIZE(action_words),
				       s->word))))
			hit = NULL;
		if (hit && s->failure && hit == s->word &&
		    sorted_words_has(topic_words, ARRAY_SIZE(topic_words),
				     s->word))
			hit = NULL;
		s->hit_now = hit != NULL;
		if (hit && !s->problem) {
			s->problem = true;
			if (hit == s->word)
				snprintf(s->what, sizeof(s->what), "%s",
					 s->word);
			else
				snprintf(s->what, sizeof(s->what), "%s %s",
					 s->prev, s->word);
		}
		memcpy(s->prev, s->word, s->n + 1);
	} else {
		s->prev[0] = '\0';
	}
	s->n = 0;
}

/*
 * word_byte - the byte at p as a word byte (lower case; the UTF-8 right
 * single quote of "doesn’t" as '\''), '\0' when it ends a word; *skip
 * is the number of bytes it took
 */
static char word_byte(const char *p, const char *e, size_t *skip)
{
	unsigned char c = (unsigned char)*p;

	*skip = 1;
	if (isalnum(c) || c == '_' || c == '\'')
		return (char)tolower(c);
	if (c == 0xe2 && e - p >= 3 && (unsigned char)p[1] == 0x80 &&
	    (unsigned char)p[2] == 0x99) {
		*skip = 3;
		return '\'';
	}
	return '\0';
}

/* quote_mark - '"' opens or closes a quotation, and so do the UTF-8
 * marks U+201C and U+201D */
static void quote_mark(struct sentence *s, const char *p, const char *e)
{
	if (*p == '"')
		s->quote = !s->quote;
	else if ((unsigned char)*p == 0xe2 && e - p >= 3 &&
		 (unsigned char)p[1] == 0x80 &&
		 ((unsigned char)p[2] == 0x9c || (unsigned char)p[2] == 0x9d))
		s->quote = (unsigned char)p[2] == 0x9c;
}

/* feed [p, e) into s; true as soon as a sentence qualifies */
static bool feed(struct sentence *s, const char *p, const char *e,
		 bool need_person)
{
	while (p < e) {
		size_t skip;
		char c = word_byte(p, e, &skip);

		if (c) {
			hex_byte(s, c);
			if (s->n < WORD_MAX - 1)
				s->word[s->n++] = c;
			else
				s->n = WORD_MAX;
			p += skip;
			continue;
		}
		word_end(s);
		quote_mark(s, p, e);
		/* a problem word a kernel message ends with ':', '(' or ',' */
		if (s->hit_now && (*p == ':' || *p == '(' || *p == ',' ||
				   (*p == ' ' && p + 1 < e && p[1] == '(')))
			s->log = true;
		s->hit_now = false;
		if (!s->told && qualifies(s, need_person))
			return true;
		/* ". ", "? ", "! " end a sentence */
		if ((*p == '.' || *p == '?' || *p == '!') &&
		    (p + 1 == e || isspace((unsigned char)p[1]))) {
			if (told(s, *p))
				return true;
			sentence_reset(s);
		}
		p++;
	}
	word_end(s);
	return !s->told && qualifies(s, need_person);
}

/* digits - n digits at p (p < e) */
static bool digits(const char *p, const char *e, size_t n)
{
	for (; n; n--, p++)
		if (p >= e || !isdigit((unsigned char)*p))
			return false;
	return true;
}

/* clock - "HH:MM" at p, and ":SS" when seconds */
static bool clock(const char *p, const char *e, bool seconds)
{
	return digits(p, e, 2) && p + 2 < e && p[2] == ':' &&
	       digits(p + 3, e, 2) &&
	       (!seconds || (p + 5 < e && p[5] == ':' && digits(p + 6, e, 2)));
}

/* month - "Jan" .. "Dec" at p */
static bool month(const char *p, const char *e)
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	size_t i;

	if (e - p < 3)
		return false;
	for (i = 0; i < sizeof(months) - 1; i += 3)
		if (!memcmp(p, months + i, 3))
			return true;
	return false;
}

size_t problem_dmesg_stamp(const char *s, size_t len)
{
	const char *p = s, *e = s + len, *close;
	bool dot = false, digit = false, plus = false;

	if (!len || *p != '[')
		return 0;
	close = memchr(p, ']', len < 40 ? len : 40);
	if (!close)
		return 0;
	e = close;
	p++;
	/* dmesg -H: "[Apr11 19:28]"; dmesg -T: "[Fri Apr 11 19:28:01 2025]" */
	if (month(p, e)) {
		p += 3;
		if (p < e && *p == ' ')
			p++;
		if (!digits(p, e, 1))
			return 0;
		p += digits(p, e, 2) ? 2 : 1;
		return p + 1 < e && *p == ' ' && clock(p + 1, e, false) &&
				       p + 6 == e
			       ? (size_t)(close + 1 - s)
			       : 0;
	}
	if (e - p >= 24 && p[3] == ' ' && month(p + 4, e)) {
		p += 8;
		while (p < e && *p == ' ')
			p++;
		p += digits(p, e, 2) ? 2 : digits(p, e, 1) ? 1 : 0;
		return p + 1 < e && *p == ' ' && clock(p + 1, e, true) &&
				       p + 10 < e && p[9] == ' ' &&
				       digits(p + 10, e, 4) && p + 14 == e
			       ? (size_t)(close + 1 - s)
			       : 0;
	}
	/* "[   12.345678]", and dmesg -H's "[  +0.014297]" */
	for (; p < e; p++) {
		if (*p == '.' && digit)
			dot = true;
		else if (isdigit((unsigned char)*p))
			digit = true;
		else if (*p == '+' && !digit && !plus)
			plus = true;
		else if (*p != ' ')
			return 0;
	}
	return dot && digit ? (size_t)(close + 1 - s) : 0;
}

/* dmesg_line - "[   12.345678] ...", or dmesg -H's or -T's stamp */
static bool dmesg_line(const char *p, const char *e)
{
	return problem_dmesg_stamp(p, (size_t)(e - p)) > 0;
}

static void copy_what(const struct sentence *s, char *what, size_t size)
{
	if (what && size)
		snprintf(what, size, "%s", s->what);
}

bool problem_in_phrase(const char *str, size_t len, char *what, size_t size)
{
	struct sentence s;

	memset(&s, 0, sizeof(s));
	if (len > PROBLEM_SCAN_MAX)
		len = PROBLEM_SCAN_MAX;
	if (!str || !feed(&s, str, str + len, false))
		return false;
	copy_what(&s, what, size);
	return true;
}

static bool word_start(const char *str, const char *p)
{
	return p == str || !isalnum((unsigned char)p[-1]);
}

static const char *skip_spaces(const char *p, const char *e)
{
	while (p < e && *p == ' ')
		p++;
	return p;
}

/*
 * regression_time - at p (just after "since " or "after "): a kernel
 * version ("6.18.x", "v6.12", "linux-6.14", "kernel 6.1"), a commit
 * ("commit 992a9df41ad7", "992a9df41ad7": seven hex digits or more), or
 * an upgrade ("upgrading to ...")
 */
static bool regression_time(const char *p, const char *e)
{
	static const char *const skip[] = { "commit ", "kernel ", "linux-",
					    "linux ", "v" };
	const char *q;
	size_t i, hex = 0, digits = 0;

	if (has_prefix_ci(p, e, "upgrad"))
		return true;
	for (i = 0; i < ARRAY_SIZE(skip); i++)
		if (has_prefix_ci(p, e, skip[i]))
			p = skip_spaces(p + strlen(skip[i]), e);
	if (p < e && isdigit((unsigned char)*p) && p + 2 < e && p[1] == '.' &&
	    isdigit((unsigned char)p[2]))
		return true;
	if (p + 1 < e && isdigit((unsigned char)*p) &&
	    isdigit((unsigned char)p[1]) && p + 3 < e && p[2] == '.' &&
	    isdigit((unsigned char)p[3]))
		return true;
	for (q = p; q < e && isxdigit((unsigned char)*q); q++) {
		hex++;
		digits += isdigit((unsigned char)*q) != 0;
	}
	return hex >= 7 && digits && (q == e || !isalnum((unsigned char)*q));
}

/* "since 6.18", "after commit 992a9df41ad7", "after upgrading" */
static bool regression_in_phrase(const char *str, size_t len, char *what,
				 size_t size)
{
	static const char *const words[] = { "since ", "after " };
	const char *e = str + len, *p;
	size_t i;

	for (p = str; p < e; p++)
		for (i = 0; i < ARRAY_SIZE(words); i++)
			if (word_start(str, p) &&
			    has_prefix_ci(p, e, words[i]) &&
			    regression_time(
				    skip_spaces(p + strlen(words[i]), e), e)) {
				if (what && size)
					snprintf(what, size, "%.*s",
						 (int)strlen(words[i]) - 1,
						 words[i]);
				return true;
			}
	return false;
}

bool problem_failure_in_phrase(const char *str, size_t len, char *what,
			       size_t size)
{
	struct sentence s;

	memset(&s, 0, sizeof(s));
	s.failure = true;
	if (!str)
		return false;
	if (len > PROBLEM_SCAN_MAX)
		len = PROBLEM_SCAN_MAX;
	if (feed(&s, str, str + len, false)) {
		copy_what(&s, what, size);
		return true;
	}
	return regression_in_phrase(str, len, what, size);
}

/* "-- " (or "--"), trailing blanks aside: the signature follows */
static bool signature_line(const char *p, const char *e)
{
	while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	return e - p == 2 && p[0] == '-' && p[1] == '-';
}

/*
 * own_text_ends - the line p..e ends the writer's own text: the
 * signature's "-- ", or Outlook's "-----Original Message-----" (26
 * bytes, a line of its own or with "\r" or blanks after it)
 */
static bool own_text_ends(const char *p, const char *e)
{
	static const char om[] = "-----Original Message-----";

	return signature_line(p, e) || (e - p >= (ptrdiff_t)sizeof(om) - 1 &&
					!memcmp(p, om, sizeof(om) - 1));
}

/*
 * sentence_end - a line break ends the sentence s (a blank, quoted or
 * indented line, a log line, the end of the text): true when, told,
 * it told of a problem (its words copied to what); s starts anew
 */
static bool sentence_end(struct sentence *s, char *what, size_t size)
{
	bool t = told(s, '.');

	if (t)
		copy_what(s, what, size);
	sentence_reset(s);
	return t;
}

/* in_text - problem_in_text(); with failure only a word that says
 * something failed (problem_failure_in_phrase()'s words), and with
 * told_only a sentence that tells it (told()) */
static bool in_text(const char *text, size_t len, bool failure, bool told_only,
		    char *what, size_t size)
{
	const char *p = text, *end, *e;
	struct sentence s;
	bool stamp;

	memset(&s, 0, sizeof(s));
	s.failure = failure;
	s.told = told_only;
	if (!text)
		return false;
	end = text + (len < PROBLEM_SCAN_MAX ? len : PROBLEM_SCAN_MAX);
	for (; p < end; p = e + 1) {
		e = memchr(p, '\n', (size_t)(end - p));
		if (!e)
			e = end;
		if (own_text_ends(p, e))
			break;
		/* a quoted line is someone else's; a blank one ends */
		if (p == e || *p == '>' || *p == '\r') {
			if (sentence_end(&s, what, size))
				return true;
			continue;
		}
		stamp = dmesg_line(p, e);
		/* a line that starts indented starts a new sentence, and a
		 * log line is its own sentence, and a kernel's */
		if ((isspace((unsigned char)*p) || stamp) &&
		    sentence_end(&s, what, size))
			return true;
		if (stamp)
			s.log = true;
		if (feed(&s, p, e, true)) {
			copy_what(&s, what, size);
			return true;
		}
		/* a word never continues across a line */
		word_end(&s);
		if (stamp && sentence_end(&s, what, size))
			return true;
		if (e == end)
			break;
	}
	return sentence_end(&s, what, size);
}

bool problem_in_text(const char *text, size_t len, char *what, size_t size)
{
	return in_text(text, len, false, false, what, size);
}

bool problem_failure_in_text(const char *text, size_t len, char *what,
			     size_t size)
{
	return in_text(text, len, true, true, what, size);
}

/*
 * journal_line - a kernel line of the journal or syslog with its date
 * and time ("Feb  5 14:51:03 host kernel: ...", "2026-02-05 14:51:03
 * kernel: ...", crashlog.h); "kernel: " alone may start prose ("kernel:
 * 6.12.1") and makes no log line here
 */
static bool journal_line(const char *p, const char *e)
{
	return crashlog_journal_prefix(p, (size_t)(e - p)) >
	       sizeof("kernel: ") - 1;
}

unsigned problem_log_lines(const char *text, size_t len)
{
	const char *p = text, *end, *e;
	unsigned n = 0;

	if (!text)
		return 0;
	end = text + (len < PROBLEM_SCAN_MAX ? len : PROBLEM_SCAN_MAX);
	for (; p < end; p = e + 1) {
		e = memchr(p, '\n', (size_t)(end - p));
		if (!e)
			e = end;
		if (own_text_ends(p, e))
			break;
		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		if (p < e && *p != '>' &&
		    (dmesg_line(p, e) || journal_line(p, e)) && n < UINT_MAX)
			n++;
		if (e == end)
			break;
	}
	return n;
}
