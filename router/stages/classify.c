// SPDX-License-Identifier: GPL-2.0-only
/*
 * classify - the classify stage: rules and model to a verdict
 * (see classify.h; rule syntax in rules.h and classifiers/README)
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "classify.h"
#include "config.h"
#include "evidence.h"
#include "experts_history.h"
#include "model.h"
#include "report.h"
#include "rules.h"
#include "util.h"

#ifndef DATADIR
#define DATADIR "/usr/local/share/triage"
#endif
#ifndef SYSCONFDIR
#define SYSCONFDIR "/etc/triage"
#endif

/* the model's posteriors come in the rules' class order */
_Static_assert((int)MODEL_USER == (int)CLASS_USER &&
		       (int)MODEL_FUZZER == (int)CLASS_FUZZER &&
		       (int)MODEL_AI == (int)CLASS_AI &&
		       MODEL_NCLASS == (int)CLASS_N,
	       "model and rules classes differ");

/* ---- text helpers ------------------------------------------------------- */

/* word_char - [A-Za-z0-9_], as isalnum() in the C locale, but inline */
static inline bool word_char(char c)
{
	unsigned char u = (unsigned char)c;

	return (unsigned char)((u | 0x20) - 'a') < 26 ||
	       (unsigned char)(u - '0') < 10 || u == '_';
}

#define PHRASES_MAX RULES_PHRASES_MAX

/*
 * count_phrases - occurrences of lower-case phrases (2 bytes or more) in
 * the lower-cased text, each starting at a word boundary (and ending at
 * one when whole is set and the phrase ends in a word character), in
 * one pass: a bitmap of the phrases' first two bytes is checked at each
 * word start, and only the phrases with those two bytes (sorted by
 * them) are compared.  per[k] (when not NULL) gets each phrase's count.
 */
static unsigned count_phrases(const struct rules_phrases *phrases,
			      const struct rules_text *t, bool whole,
			      unsigned *per)
{
	const char *const *list = phrases->v;
	size_t n = phrases->n;
	const unsigned char *s = (const unsigned char *)t->lower;
	size_t len[PHRASES_MAX], i, k, j;
	unsigned key[PHRASES_MAX], order[PHRASES_MAX];
	unsigned char bits[8192], lead[256];
	unsigned count = 0;

	if (n > PHRASES_MAX)
		n = PHRASES_MAX;
	memset(bits, 0, sizeof(bits));
	memset(lead, 0, sizeof(lead));
	for (k = 0; k < n; k++) {
		key[k] = (unsigned char)list[k][0] << 8 |
			 (unsigned char)list[k][1];
		len[k] = strlen(list[k]);
		bits[key[k] >> 3] |= (unsigned char)(1u << (key[k] & 7));
		lead[(unsigned char)list[k][0]] = 1;
		if (per)
			per[k] = 0;
		/* insertion sort of the indices by key */
		for (j = k; j > 0 && key[order[j - 1]] > key[k]; j--)
			order[j] = order[j - 1];
		order[j] = (unsigned)k;
	}
	for (i = 0; i + 1 < t->len; i++) {
		size_t lo = 0, hi = n;
		unsigned kk;

		if (!lead[s[i]] || (i && word_char((char)s[i - 1])))
			continue;
		kk = (unsigned)s[i] << 8 | s[i + 1];
		if (!(bits[kk >> 3] & (1u << (kk & 7))))
			continue;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (key[order[mid]] < kk)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (j = lo; j < n && key[order[j]] == kk; j++) {
			const char *ph = list[order[j]];
			size_t m = len[order[j]];

			if (m > t->len - i || memcmp(s + i, ph, m) != 0)
				continue;
			if (whole && word_char(ph[m - 1]) && i + m < t->len &&
			    word_char((char)s[i + m]))
				continue;
			count++;
			if (per)
				per[order[j]]++;
		}
	}
	return count;
}

static unsigned count_words(const struct rules_text *t)
{
	unsigned words = 0;
	bool in = false;
	size_t i;

	for (i = 0; i < t->len; i++) {
		char ch = t->text[i];
		bool sp = ch == ' ' || (unsigned char)(ch - '\t') < 5;

		if (!sp && !in)
			words++;
		in = !sp;
	}
	return words;
}

static long arg_long(const struct rules_args *a, int i, long def)
{
	unsigned long v;

	if (i >= a->argc || parse_ulong(a->argv[i], &v) < 0)
		return def;
	return (long)v;
}

static double arg_double(const struct rules_args *a, int i, double def)
{
	char *end;
	double d;

	if (i >= a->argc)
		return def;
	d = strtod(a->argv[i], &end);
	return end == a->argv[i] || *end ? def : d;
}

static const char *check_counts(const struct rules_args *a)
{
	unsigned long v;
	int i;

	for (i = 0; i < a->argc; i++) {
		char *end;

		if (i == 0 ? parse_ulong(a->argv[i], &v) < 0
			   : (strtod(a->argv[i], &end), *end != '\0'))
			return "expected numbers";
	}
	return NULL;
}

static bool crash_shown(const struct evidence *ev)
{
	return ev && (ev->crash_type || ev->nframes > 0);
}

/* ---- evidence hooks ----------------------------------------------------- */

static double hook_has_oops_trace(const struct rules_input *in,
				  const struct rules_text *t,
				  const struct rules_args *a)
{
	return crash_shown(in->evidence);
}

static double hook_real_hardware(const struct rules_input *in,
				 const struct rules_text *t,
				 const struct rules_args *a)
{
	const struct evidence *ev = in->evidence;

	return ev && ev->hardware && *ev->hardware && !ev->hw_virtual;
}

static double hook_qemu_hardware(const struct rules_input *in,
				 const struct rules_text *t,
				 const struct rules_args *a)
{
	const struct evidence *ev = in->evidence;

	return ev && ev->hardware && ev->hw_virtual;
}

static unsigned repro_mask(const struct rules_args *a)
{
	unsigned mask = 0;
	int i;

	for (i = 0; i < a->argc; i++) {
		if (strcmp(a->argv[i], "c") == 0)
			mask |= REPRO_C;
		else if (strcmp(a->argv[i], "syz") == 0)
			mask |= REPRO_SYZ;
		else if (strcmp(a->argv[i], "steps") == 0)
			mask |= REPRO_STEPS;
	}
	return a->argc ? mask : REPRO_C | REPRO_SYZ | REPRO_STEPS;
}

static const char *check_repro(const struct rules_args *a)
{
	int i;

	for (i = 0; i < a->argc; i++)
		if (strcmp(a->argv[i], "c") != 0 &&
		    strcmp(a->argv[i], "syz") != 0 &&
		    strcmp(a->argv[i], "steps") != 0)
			return "has_reproducer() takes c, syz or steps";
	return NULL;
}

static double hook_has_reproducer(const struct rules_input *in,
				  const struct rules_text *t,
				  const struct rules_args *a)
{
	const struct evidence *ev = in->evidence;

	return ev && (ev->reproducer & repro_mask(a));
}

static double hook_has_bisect(const struct rules_input *in,
			      const struct rules_text *t,
			      const struct rules_args *a)
{
	return in->evidence && in->evidence->bisect_commit;
}

static double hook_distro_kernel(const struct rules_input *in,
				 const struct rules_text *t,
				 const struct rules_args *a)
{
	const struct evidence *ev = in->evidence;

	return ev && ev->distro_kernel && *ev->distro_kernel;
}

static double hook_kernel_version_given(const struct rules_input *in,
					const struct rules_text *t,
					const struct rules_args *a)
{
	const struct evidence *ev = in->evidence;

	return ev && ev->kernel_version && *ev->kernel_version;
}

static double hook_dmesg_timestamps(const struct rules_input *in,
				    const struct rules_text *t,
				    const struct rules_args *a)
{
	return in->evidence && in->evidence->dmesg_timestamps;
}

static double hook_syzbot_report(const struct rules_input *in,
				 const struct rules_text *t,
				 const struct rules_args *a)
{
	return in->evidence && in->evidence->syzbot;
}

static const char *check_words(const struct rules_args *a)
{
	int i;

	for (i = 0; i < a->argc; i++)
		if (!*a->argv[i])
			return "empty argument";
	return NULL;
}

/* attachment_named(word...) - an attachment whose name contains a word */
static double hook_attachment_named(const struct rules_input *in,
				    const struct rules_text *t,
				    const struct rules_args *a)
{
	const struct report *r = in->report;
	size_t i;
	int k;

	for (i = 0; i < r->nparts; i++) {
		const char *name = r->parts[i].filename;

		if (!name)
			continue;
		for (k = 0; k < a->argc; k++)
			if (strcasestr(name, a->argv[k]))
				return 1;
	}
	return 0;
}

/* ---- the model's pseudo-rules -------------------------------------------- */

static const char *check_model(const struct rules_args *a)
{
	double lo = arg_double(a, 1, -1), hi = arg_double(a, 2, -1);

	if (rules_class_parse(a->argv[0]) < 0)
		return "model(): the first argument is user, fuzzer or ai";
	if (lo < 0 || hi < 0 || lo >= hi || hi > 1)
		return "model(): expected 0 <= lo < hi <= 1";
	return NULL;
}

static double hook_model(const struct rules_input *in,
			 const struct rules_text *t, const struct rules_args *a)
{
	int c = rules_class_parse(a->argv[0]);
	double lo = arg_double(a, 1, 2), hi = arg_double(a, 2, 2), p;

	if (!in->model || c < 0)
		return 0;
	p = in->model[c];
	return p >= lo && (p < hi || (hi >= 1.0 && p <= 1.0));
}

/* ---- text hooks ------------------------------------------------------------ */

static double hook_cvss_impact_template(const struct rules_input *in,
					const struct rules_text *t,
					const struct rules_args *a)
{
	unsigned per[PHRASES_MAX], found = 0;
	long min = arg_long(a, 0, 1);
	const char *p, *end;
	size_t i;

	if (!t || !a->phrases || crash_shown(in->evidence))
		return 0;
	count_phrases(a->phrases, t, false, per);
	for (i = 0; i < a->phrases->n && i < PHRASES_MAX; i++)
		if (per[i])
			found++;
	/* CWE-nnn */
	for (p = t->lower, end = t->lower + t->len;
	     (p = memmem(p, (size_t)(end - p), "cwe-", 4)) != NULL; p += 4) {
		if (p + 4 < end && isdigit((unsigned char)p[4])) {
			found++;
			break;
		}
	}
	/* "Impact:" opening a line */
	for (p = t->lower; (p = memmem(p, (size_t)(end - p), "impact:", 7));
	     p += 7) {
		const char *b = p;

		while (b > t->lower && (b[-1] == ' ' || b[-1] == '\t' ||
					b[-1] == '*' || b[-1] == '#'))
			b--;
		if (b == t->lower || b[-1] == '\n') {
			found++;
			break;
		}
	}
	return found >= (unsigned long)min ? found : 0;
}

static double hook_theoretical_language(const struct rules_input *in,
					const struct rules_text *t,
					const struct rules_args *a)
{
	long min = arg_long(a, 0, 2);
	double min_density = arg_double(a, 1, 0), density;
	unsigned hits, words;

	if (!t || !a->phrases)
		return 0;
	hits = count_phrases(a->phrases, t, false, NULL);
	if (!hits || hits < (unsigned long)min)
		return 0;
	words = count_words(t);
	density = 1000.0 * hits / (words > 100 ? words : 100);
	if (density < min_density)
		return 0;
	return round(density * 10) / 10;
}

/*
 * heading_of - the heading a line announces, or NULL: "## X", "**X**",
 * "**X:** text", "== X ==", "1. X" / "X:" when X is in capitals or the
 * line holds nothing else
 */
static int heading_of(const char *s, size_t n, const bool *first,
		      const struct rules_phrases *names)
{
	char h[48];
	size_t i = 0, k = 0, j, stop = n;
	bool marked = false, caps = true, alone = true, colon, more;

	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i < n && s[i] == '#') {
		while (i < n && s[i] == '#')
			i++;
		marked = true;
	} else if (i + 1 < n && s[i] == '*' && s[i + 1] == '*') {
		const char *close;

		i += 2;
		close = memmem(s + i, n - i, "**", 2);
		if (!close)
			return -1;
		stop = (size_t)(close - s);
		marked = true;
	} else if (i + 1 < n && s[i] == '=' && s[i + 1] == '=') {
		while (i < n && s[i] == '=')
			i++;
		marked = true;
	}
	if (!marked) {
		j = i;
		while (j < n && isdigit((unsigned char)s[j]))
			j++;
		if (j > i && j < n && (s[j] == '.' || s[j] == ')'))
			i = j + 1;
	}
	while (i < stop && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i >= stop || !first[tolower((unsigned char)s[i])])
		return -1; /* no heading name starts so */
	for (j = i; j < stop && s[j] != ':' && k < sizeof(h) - 1; j++) {
		if (s[j] == '*' || s[j] == '=' || s[j] == '\r')
			continue;
		if (islower((unsigned char)s[j]))
			caps = false;
		h[k++] = (char)tolower((unsigned char)s[j]);
	}
	colon = j < stop && s[j] == ':';
	if (j < stop && !colon)
		return -1; /* too long for a heading */
	if (colon) {
		size_t r = j + 1;

		while (r < stop && (s[r] == ' ' || s[r] == '*' || s[r] == '\r'))
			r++;
		alone = r >= stop;
	}
	while (k && h[k - 1] == ' ')
		k--;
	h[k] = '\0';
	if (!k || (!marked && !alone))
		return -1; /* "Impact: high" is a field, not a heading */
	/*
	 * Marked, "Heading:" and ALL CAPS lines may say more than the name
	 * ("## Root Cause Analysis"); a plain line must be just the name,
	 * or "Impact is small." would count.
	 */
	more = marked || colon || caps;
	for (j = 0; j < names->n && j < PHRASES_MAX; j++) {
		size_t m = strlen(names->v[j]);

		if (strncmp(h, names->v[j], m) == 0 &&
		    (h[m] == '\0' || (more && (h[m] == ' ' || h[m] == '('))))
			return (int)j;
	}
	return -1;
}

static double hook_llm_headings(const struct rules_input *in,
				const struct rules_text *t,
				const struct rules_args *a)
{
	bool seen[PHRASES_MAX] = { false };
	bool first[256] = { false };
	long min = arg_long(a, 0, 3);
	const char *p, *end;
	unsigned count = 0;
	size_t i;

	if (!t || !a->phrases)
		return 0;
	for (i = 0; i < a->phrases->n && i < PHRASES_MAX; i++)
		first[(unsigned char)a->phrases->v[i][0]] = true;
	for (p = t->text, end = t->text + t->len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);
		int h = n <= 120 ? heading_of(p, n, first, a->phrases) : -1;

		if (h >= 0 && !seen[h]) {
			seen[h] = true;
			count++;
		}
		p = nl ? nl + 1 : end;
	}
	return count >= (unsigned long)min ? count : 0;
}

/* since_version - "since 6.8", "since kernel 6.1", "since v6.12" */
static unsigned since_version(const struct rules_text *t)
{
	const char *p = t->lower, *end = t->lower + t->len;
	unsigned count = 0;

	while ((p = memmem(p, (size_t)(end - p), "since ", 6)) != NULL) {
		const char *q = p + 6;

		if (p > t->lower && word_char(p[-1])) {
			p += 6;
			continue;
		}
		if (end - q > 7 && strncmp(q, "kernel ", 7) == 0)
			q += 7;
		else if (end - q > 6 && strncmp(q, "linux ", 6) == 0)
			q += 6;
		if (q < end && *q == 'v')
			q++;
		if (q + 2 < end && isdigit((unsigned char)q[0])) {
			while (q < end && isdigit((unsigned char)*q))
				q++;
			if (q + 1 < end && *q == '.' &&
			    (isdigit((unsigned char)q[1]) || q[1] == 'x'))
				count++;
		}
		p += 6;
	}
	return count;
}

static double hook_first_person_observation(const struct rules_input *in,
					    const struct rules_text *t,
					    const struct rules_args *a)
{
	long min = arg_long(a, 0, 1);
	unsigned hits;

	if (!t || !a->phrases)
		return 0;
	hits = count_phrases(a->phrases, t, true, NULL);
	hits += since_version(t);
	return hits && hits >= (unsigned long)min ? hits : 0;
}

static inline bool hex_char(char c)
{
	unsigned char u = (unsigned char)c;

	return (unsigned char)(u - '0') < 10 ||
	       (unsigned char)((u | 0x20) - 'a') < 6;
}

/*
 * hardware_ids() - vendor:device IDs, "[14c3:0608]", "ID 0bda:8157",
 * "VID 17e9:6000": four hex digits, ':', four hex digits, with neither
 * a word character nor another ':' on either side (not an IPv6 address
 * or a time); the value is the count
 */
static double hook_hardware_ids(const struct rules_input *in,
				const struct rules_text *t,
				const struct rules_args *a)
{
	const char *s, *p, *end;
	unsigned count = 0;
	int k;

	if (!t)
		return 0;
	s = t->text;
	end = s + t->len;
	for (p = s; (p = memchr(p, ':', (size_t)(end - p))) != NULL; p++) {
		bool ok = p - s >= 4 && end - p >= 5;

		for (k = 1; ok && k <= 4; k++)
			ok = hex_char(p[-k]) && hex_char(p[k]);
		if (!ok)
			continue;
		if (p - s > 4 && (word_char(p[-5]) || p[-5] == ':'))
			continue;
		if (end - p > 5 && (word_char(p[5]) || p[5] == ':'))
			continue;
		count++;
	}
	return count;
}

/*
 * source_line - a line of C source: past indentation, a diff marker and
 * a line number ("1137 :", "755 "), it ends in ';', '{' or '}' (a
 * trailing comment aside), holds C punctuation ('(', '=' or "->") and
 * few words of prose; a lone brace does not count, nor a log line
 */
static bool source_line(const char *s, size_t n)
{
	size_t i = 0, words = 0, run = 0, k;
	bool punct = false;
	char last;

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	if (n >= 2 && s[n - 2] == '*' && s[n - 1] == '/') {
		const char *open = memmem(s, n, "/*", 2);

		if (open)
			n = (size_t)(open - s);
	}
	for (k = 0; k + 2 < n; k++) {
		if (s[k] == '/' && s[k + 1] == '/' &&
		    (k == 0 || s[k - 1] == ' ')) {
			n = k;
			break;
		}
	}
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (!n)
		return false;
	last = s[n - 1];
	if (last != ';' && last != '{' && last != '}')
		return false;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i < n && (s[i] == '+' || s[i] == '-'))
		i++;
	while (i < n && isdigit((unsigned char)s[i]))
		i++;
	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == ':'))
		i++;
	if (i < n && s[i] == '[')
		return false; /* "[   12.345678] ..." */
	for (k = i; k < n; k++) {
		char c = s[k];

		if (c == '(' || c == '=' ||
		    (c == '-' && k + 1 < n && s[k + 1] == '>'))
			punct = true;
		if (isalpha((unsigned char)c)) {
			run++;
		} else {
			words += run >= 4 && (c == ' ' || c == ',' || c == '.');
			run = 0;
		}
	}
	return punct && words <= 6;
}

/* source_lines([n]) - n (1) or more lines of C source in the text */
static double hook_source_lines(const struct rules_input *in,
				const struct rules_text *t,
				const struct rules_args *a)
{
	long min = arg_long(a, 0, 1);
	const char *p, *end;
	unsigned count = 0;

	if (!t)
		return 0;
	for (p = t->text, end = t->text + t->len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);

		if (n <= 200 && source_line(p, n))
			count++;
		p = nl ? nl + 1 : end;
	}
	return count && count >= (unsigned long)min ? count : 0;
}

#define ANY \
	(RULES_ON(RULE_HEADER) | RULES_ON(RULE_BODY) | RULES_ON(RULE_RAWBODY))
#define TEXT (RULES_ON(RULE_BODY) | RULES_ON(RULE_RAWBODY))

const struct rules_hook classify_hooks[] = {
	{ "has_oops_trace", ANY, 0, 0, NULL, hook_has_oops_trace, false },
	{ "real_hardware", ANY, 0, 0, NULL, hook_real_hardware, false },
	{ "qemu_hardware", ANY, 0, 0, NULL, hook_qemu_hardware, false },
	{ "has_reproducer", ANY, 0, 3, check_repro, hook_has_reproducer,
	  false },
	{ "has_bisect", ANY, 0, 0, NULL, hook_has_bisect, false },
	{ "distro_kernel", ANY, 0, 0, NULL, hook_distro_kernel, false },
	{ "kernel_version_given", ANY, 0, 0, NULL, hook_kernel_version_given,
	  false },
	{ "dmesg_timestamps", ANY, 0, 0, NULL, hook_dmesg_timestamps, false },
	{ "syzbot_report", ANY, 0, 0, NULL, hook_syzbot_report, false },
	{ "attachment_named", ANY, 1, RULES_MAX_ARGS, check_words,
	  hook_attachment_named, false },
	{ "model", ANY, 3, 3, check_model, hook_model, false },
	{ "cvss_impact_template", TEXT, 0, 1, check_counts,
	  hook_cvss_impact_template, true },
	{ "theoretical_language", TEXT, 0, 2, check_counts,
	  hook_theoretical_language, true },
	{ "llm_headings", TEXT, 0, 1, check_counts, hook_llm_headings, true },
	{ "first_person_observation", TEXT, 0, 1, check_counts,
	  hook_first_person_observation, true },
	{ "source_lines", TEXT, 0, 1, check_counts, hook_source_lines, false },
	{ "hardware_ids", TEXT, 0, 0, NULL, hook_hardware_ids, false },
	{ "unknown_functions", TEXT, 0, 3, check_counts,
	  classify_hook_unknown_functions, false },
	{ "false_claims", TEXT, 0, 3, check_counts, classify_hook_false_claims,
	  false },
	{ "false_trace", TEXT, 0, 3, check_counts, classify_hook_false_trace,
	  false },
	{ "false_sites", TEXT, 0, 1, check_counts, classify_hook_false_sites,
	  false },
	{ "false_cited", TEXT, 0, 1, check_counts, classify_hook_false_cited,
	  false },
};

const size_t classify_nhooks = ARRAY_SIZE(classify_hooks);

/* classify_hook - a hook by name, or NULL */
const struct rules_hook *classify_hook(const char *name)
{
	size_t i;

	for (i = 0; i < classify_nhooks; i++)
		if (strcmp(classify_hooks[i].name, name) == 0)
			return &classify_hooks[i];
	return NULL;
}

/* ---- loading --------------------------------------------------------------- */

struct ruleset *classify_rules_new(void)
{
	return rules_new(classify_hooks, classify_nhooks);
}

const char *classify_rules_dir(const struct config *cfg)
{
	const char *dir = cfg ? config_get(cfg, "rules_dir") : NULL;
	static char beside[4096 + 16];
	char self[4096];
	ssize_t n;

	if (dir && *dir)
		return dir;
	if (is_dir(DATADIR "/classifiers"))
		return DATADIR "/classifiers";
	/*
	 * Not installed: a build tree keeps the rules next to the
	 * programs (make demo runs there with the built-in config).
	 */
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		char *slash;

		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			snprintf(beside, sizeof(beside), "%s/classifiers",
				 self);
			if (is_dir(beside))
				return beside;
		}
	}
	return DATADIR "/classifiers";
}

/*
 * classify_default_model - the model shipped with the rules
 * (tools/train-model.sh), for a site that trained none of its own: it
 * lives in the rules directory because its pseudo-rules
 * (50_model.rules) and thresholds were set with it
 */
char *classify_default_model(const struct config *cfg)
{
	char *path;

	/*
	 * On unless routes.conf says shipped_model = no: the model's ai
	 * vote needs the rules' AI evidence (50_model.rules), and so on
	 * every real-mail tuning part kept out of its training it sent no
	 * more genuine users to ai than the rules alone
	 */
	if (!cfg || !config_bool(cfg, "shipped_model"))
		return NULL;
	path = xasprintf("%s/" CLASSIFY_DEFAULT_MODEL, classify_rules_dir(cfg));

	if (access(path, R_OK) == 0)
		return path;
	free(path);
	return NULL;
}

const char *classify_local_rules(const struct config *cfg)
{
	const char *local = cfg ? config_get(cfg, "local_rules") : NULL;

	return local ? local : SYSCONFDIR "/local.rules";
}

/* classify_load - the ruleset the filter uses, or NULL after one message */
struct ruleset *classify_load(const char *dir, const char *local)
{
	struct ruleset *rs = classify_rules_new();
	char first[1024] = "";
	size_t i;
	int errors;

	rules_add_dir(rs, dir);
	if (local && *local && (access(local, F_OK) == 0 || errno != ENOENT))
		rules_add_file(rs, local);
	errors = rules_compile(rs);
	if (!errors)
		return rs;
	for (i = 0; i < rules_nproblems(rs); i++)
		if (rules_problem(rs, i, first, sizeof(first)) == 0)
			break;
	error("%s (%d error%s in the classification rules; run 'triage check-rules')",
	      first, errors, errors == 1 ? "" : "s");
	rules_free(rs);
	return NULL;
}

/*
 * classify_open - the rules the configuration names: the snapshot
 * STATE_DIR/rules.idx when it matches the rule files, else the text;
 * with the commit history 'triage experts import' wrote, when there is
 * one, for the claims' commit ids
 */
struct ruleset *classify_open(const struct config *cfg)
{
	const char *dir = classify_rules_dir(cfg);
	const char *local = classify_local_rules(cfg);
	char *path = config_state_path(cfg, CLASSIFY_SNAPSHOT);
	struct ruleset *rs;

	rs = rules_open(path, dir, local, classify_hooks, classify_nhooks);
	free(path);
	if (!rs)
		rs = classify_load(dir, local);
	if (rs) {
		path = config_state_path(cfg, CLASSIFY_HISTORY);
		rules_own_history(rs, history_open(path));
		free(path);
	}
	return rs;
}

/* ---- the decision ------------------------------------------------------------ */

/* in_contention - class c came within the band of its threshold */
static bool in_contention(const struct rules_params *p, const double *s, int c)
{
	return s[c] >= p->threshold[c] - p->band;
}

static bool beats_user(const struct rules_params *p, const double *s, int c)
{
	if (c == CLASS_AI)
		return s[CLASS_AI] - s[CLASS_USER] >= p->user_bias;
	return s[c] > s[CLASS_USER];
}

/* classify_decide - steps 2 and 3 of the decision (see classify.h) */
int classify_decide(const struct rules_params *p, const double *s,
		    const char **reason)
{
	int c, w = -1, r = -1;

	for (c = 0; c < CLASS_N; c++)
		if (s[c] >= p->threshold[c] && (w < 0 || s[c] > s[w]))
			w = c;
	if (w < 0) {
		for (c = CLASS_FUZZER; c < CLASS_N; c++) {
			if (in_contention(p, s, c) && beats_user(p, s, c)) {
				*reason = "near a threshold";
				return CLASS_UNCERTAIN;
			}
		}
		*reason = "no threshold reached";
		return CLASS_USER;
	}
	for (c = 0; c < CLASS_N; c++)
		if (c != w && (r < 0 || s[c] > s[r]))
			r = c;
	if (w == CLASS_AI && !beats_user(p, s, CLASS_AI)) {
		*reason = "user bias";
		return CLASS_USER;
	}
	if (w == CLASS_USER && r == CLASS_AI) {
		*reason = s[w] - s[r] < p->band ? "user bias" : "threshold";
		return CLASS_USER;
	}
	if (in_contention(p, s, r) && s[w] - s[r] < p->band) {
		*reason = "within the uncertain band";
		return CLASS_UNCERTAIN;
	}
	*reason = "threshold";
	return w;
}

static double softmax(const double *s, int c)
{
	double m = s[0], sum = 0;
	int k;

	for (k = 1; k < CLASS_N; k++)
		if (s[k] > m)
			m = s[k];
	for (k = 0; k < CLASS_N; k++)
		sum += exp((s[k] - m) / CLASSIFY_TEMPERATURE);
	return exp((s[c] - m) / CLASSIFY_TEMPERATURE) / sum;
}

static int shown_class(const struct verdict *v)
{
	return v->cls == CLASS_UNCERTAIN ? v->leaning : v->cls;
}

static int cmp_rule(const void *pa, const void *pb, void *arg)
{
	const struct verdict_rule *a = pa, *b = pb;
	int c = shown_class(arg);

	if (a->score[c] != b->score[c])
		return a->score[c] < b->score[c] ? 1 : -1;
	return strcmp(a->name, b->name);
}

/*
 * quoted_pass - the AI and fuzzer points only the quoted, after-a-marker
 * and attached text earns: the rules again over the whole text
 * (RULES_WHOLE_TEXT, the model's posteriors of it), and each rule that
 * fires there but did not on the own text adds its ai and fuzzer score
 * (user never: a quote is not the sender's evidence) times
 * quoted_weight.  A class's sum below 0 counts as 0: quoting a user's
 * words never takes points off.  The rules it adds go to v->rules,
 * marked quoted, their scores weighted; returns how many.
 */
static size_t quoted_pass(const struct ruleset *rs,
			  const struct rules_input *own,
			  const struct rules_result *ores, const double *model,
			  struct verdict *v)
{
	const double w = rules_params(rs)->quoted_weight;
	struct claims_memo memo;
	struct rules_input in = *own;
	struct rules_result res;
	double sum[CLASS_N] = { 0 };
	size_t i, n = rules_count(rs), added = 0, first = v->nrules;
	int c;

	/* nothing but the own text: the same rules would fire */
	if (!(w > 0) ||
	    ((model == own->model ||
	      (model && own->model &&
	       !memcmp(model, own->model, CLASS_N * sizeof(*model)))) &&
	     !rules_whole_differs(own->report)))
		return 0;
	memset(&memo, 0, sizeof(memo));
	in.model = model;
	in.claims = &memo;
	rules_result_init(&res);
	rules_eval(rs, &in, RULES_EVAL_ALL | RULES_WHOLE_TEXT, &res);
	for (i = 0; i < n; i++) {
		const struct rule_info *ri = rules_info(rs, i);
		struct verdict_rule *vr;

		if (res.value[i] == 0 || ores->value[i] != 0 || ri->helper ||
		    (!ri->score[CLASS_FUZZER] && !ri->score[CLASS_AI]))
			continue;
		vr = &v->rules[v->nrules++];
		vr->name = ri->name;
		vr->describe = ri->describe;
		vr->value = res.value[i];
		vr->quoted = true;
		for (c = CLASS_FUZZER; c < CLASS_N; c++) {
			vr->score[c] = w * ri->score[c];
			sum[c] += ri->score[c];
		}
		added++;
	}
	for (c = CLASS_FUZZER; c < CLASS_N; c++) {
		if (sum[c] <= 0) {
			/* nothing added to c: its listed share is 0 too */
			for (i = first; i < v->nrules; i++)
				v->rules[i].score[c] = 0;
			continue;
		}
		v->score[c] += w * sum[c];
		v->quoted[c] = sum[c];
	}
	rules_result_release(&res);
	return added;
}

/*
 * classify_report - evaluate the rules on a report and decide its class;
 * model is NULL or double[CLASS_N] posteriors; returns 0
 */
int classify_report(const struct ruleset *rs, const struct report *r,
		    const struct evidence *ev, const double *model,
		    struct verdict *v)
{
	return classify_report_whole(rs, r, ev, model, model, v);
}

/*
 * classify_report_whole - classify_report() with the model's posteriors
 * of the whole text too (model_whole: NULL when the model did not vote)
 */
int classify_report_whole(const struct ruleset *rs, const struct report *r,
			  const struct evidence *ev, const double *model,
			  const double *model_whole, struct verdict *v)
{
	struct rules_input in = { r,	      ev,
				  model,      rules_symbols(rs),
				  &v->claims, rules_history(rs) };
	const struct rules_params *p = rules_params(rs);
	double certain[CLASS_N] = { 0 };
	struct rules_result res;
	size_t i, n = rules_count(rs);
	int c;

	memset(v, 0, sizeof(*v));
	rules_result_init(&res);
	rules_eval(rs, &in, 0, &res);
	/* room for the rules of the own text and of the whole text */
	v->rules = xcalloc(2 * n + 1, sizeof(*v->rules));
	for (i = 0; i < n; i++) {
		const struct rule_info *ri = rules_info(rs, i);

		if (res.value[i] == 0 || ri->helper)
			continue;
		for (c = 0; c < CLASS_N; c++) {
			v->score[c] += ri->score[c];
			if (ri->hook && strcmp(ri->hook, "model") == 0)
				v->model[c] += ri->score[c];
			if (ri->certain)
				certain[c] += ri->score[c];
		}
		v->rules[v->nrules].name = ri->name;
		v->rules[v->nrules].describe = ri->describe;
		memcpy(v->rules[v->nrules].score, ri->score, sizeof(ri->score));
		v->rules[v->nrules].value = res.value[i];
		v->nrules++;
	}
	v->limit_hits = res.limit_hits;
	if (!res.certain)
		quoted_pass(rs, &in, &res, model_whole, v);
	v->leaning = CLASS_USER;
	for (c = 1; c < CLASS_N; c++)
		if (v->score[c] > v->score[v->leaning])
			v->leaning = c;
	if (res.certain) {
		int best = -1;
		bool tie = false;

		for (c = 0; c < CLASS_N; c++) {
			if (certain[c] <= 0)
				continue;
			if (best < 0 || certain[c] > certain[best]) {
				best = c;
				tie = false;
			} else if (certain[c] == certain[best]) {
				tie = true;
			}
		}
		v->certain = !tie && best >= 0;
		v->cls = v->certain ? best : CLASS_UNCERTAIN;
		v->reason =
			v->certain ? "certain rule" : "certain rules disagree";
		v->confidence =
			v->certain ? 1.0 : softmax(v->score, v->leaning);
	} else {
		v->cls = classify_decide(p, v->score, &v->reason);
		/*
		 * A user's own words with an AI report quoted or attached
		 * (a log anyone can paste on top): what the forward carries
		 * would be ai on its own, so a triager decides
		 */
		if (v->cls == CLASS_USER &&
		    v->quoted[CLASS_AI] >=
			    p->threshold[CLASS_AI] + p->user_bias) {
			v->cls = CLASS_UNCERTAIN;
			v->reason = "its quoted or attached text reads as ai";
		}
		v->confidence = softmax(v->score, shown_class(v));
	}
	qsort_r(v->rules, v->nrules, sizeof(*v->rules), cmp_rule, v);
	rules_result_release(&res);
	return 0;
}

void verdict_release(struct verdict *v)
{
	free(v->rules);
	v->rules = NULL;
	v->nrules = 0;
}

/* ---- the X-Triage-Class header --------------------------------------------- */

static void put(char *buf, size_t size, size_t *len, const char *s)
{
	while (*s && *len + 1 < size)
		buf[(*len)++] = *s++;
	buf[*len] = '\0';
}

/* verdict_format - "ai; score=7.4; rules=A,B,C" (see classify.h) */
size_t verdict_format(const struct verdict *v, char *buf, size_t size)
{
	char num[64];
	size_t len = 0, i, listed = 0;
	int c = shown_class(v);

	if (!size)
		return 0;
	if (size > VERDICT_HEADER_MAX)
		size = VERDICT_HEADER_MAX;
	buf[0] = '\0';
	put(buf, size, &len, rules_class_name(v->cls));
	snprintf(num, sizeof(num), "; score=%.1f", v->score[c]);
	put(buf, size, &len, num);
	if (v->certain)
		put(buf, size, &len, "; certain");
	if (v->cls == CLASS_UNCERTAIN) {
		put(buf, size, &len, "; leaning=");
		put(buf, size, &len, rules_class_name(v->leaning));
	}
	put(buf, size, &len, "; rules=");
	for (i = 0; i < v->nrules; i++) {
		const struct verdict_rule *r = &v->rules[i];
		char name[RULES_NAME_MAX + 2];
		size_t k = 0;
		const char *s;

		if (!r->score[CLASS_USER] && !r->score[CLASS_FUZZER] &&
		    !r->score[CLASS_AI])
			continue;
		for (s = r->name; *s && k < RULES_NAME_MAX; s++)
			if (isalnum((unsigned char)*s) || *s == '_')
				name[k++] = *s;
		name[k] = '\0';
		/* room for the name, its comma and a final ",..." */
		if (len + k + 1 + 4 + 1 > size) {
			put(buf, size, &len, listed ? ",..." : "...");
			break;
		}
		if (listed++)
			put(buf, size, &len, ",");
		put(buf, size, &len, name);
	}
	if (!listed && len + 5 < size && !strstr(buf, "..."))
		put(buf, size, &len, "none");
	return len;
}
