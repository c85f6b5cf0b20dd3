// SPDX-License-Identifier: GPL-2.0-only
/*
 * printk - the kernel's log formats, to the files that print them (see
 * printk.h)
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hash.h"
#include "hashmap.h"
#include "image.h"
#include "printk.h"
#include "strbuf.h"
#include "util.h"

#define PK_MAGIC   "TRIPRTK\0"
#define PK_ENDIAN  0x01020304u
#define FMT_MAX	   512	      /* bytes of a format kept */
#define FILE_MAX   (8u << 20) /* a source file larger is skipped */
#define ARGS_MAX   8192	      /* bytes of a call's arguments read */
#define WORD_MIN   3
#define LINE_WORDS 64 /* words of a line read, at most */

struct pk_header {
	char magic[8];
	uint32_t version, endian, size;
	uint32_t nformats, nfiles, nslots, nids, nrefs;
	uint32_t off_slots, off_ids, off_masks, off_formats, off_refs,
		off_pathidx;
	uint32_t off_text, text_size, off_paths, paths_size;
	uint32_t scanned, calls;
};

struct pk_slot {
	uint32_t hash, first, count; /* count 0: empty */
};

struct pk_format {
	uint32_t text, call; /* offsets into the text */
	uint32_t refs;	     /* first file id in refs[] */
	uint16_t nrefs;	     /* file ids kept (<= PRINTK_FILES_MAX) */
	uint16_t nconst;
	uint32_t total; /* files that print it */
	char level;	/* PRINTK_ERR ... of its most severe call */
	char pad[3];
};

struct printk_index {
	const char *base;
	size_t size;
	const struct pk_header *h;
	const struct pk_slot *slots;
	const uint32_t *ids, *refs, *pathidx;
	const uint64_t *masks; /* beside ids: the words of the format */
	const struct pk_format *formats;
	const char *text, *paths;
};

/* ---- names and formats --------------------------------------------------- */

/* the characters of a word: letters, digits, '_' */
static const unsigned char word_chars[256] = {
	['0' ... '9'] = 1,
	['a' ... 'z'] = 1,
	['A' ... 'Z'] = 1,
	['_'] = 1,
};

static inline bool word_char(unsigned char c)
{
	return word_chars[c];
}

static bool tok_is(const char *t, size_t n, const char *w)
{
	size_t i;

	if (strlen(w) != n)
		return false;
	for (i = 0; i < n; i++)
		if ((t[i] | 0x20) != w[i])
			return false;
	return true;
}

/*
 * call_level - the level of log call name: PRINTK_ERR, PRINTK_WARN,
 * PRINTK_INFO, or PRINTK_UNKNOWN for printk() and the like (their
 * KERN_* says); 0 for no log call
 */
static char call_level(const char *name, size_t len)
{
	static const struct {
		const char *name;
		char level;
	} exact[] = {
		{ "printk", PRINTK_UNKNOWN },
		{ "printk_once", PRINTK_UNKNOWN },
		{ "printk_ratelimited", PRINTK_UNKNOWN },
		{ "printk_deferred", PRINTK_UNKNOWN },
		{ "printk_deferred_once", PRINTK_UNKNOWN },
		{ "ext4_msg", PRINTK_UNKNOWN },
		{ "mlog", PRINTK_UNKNOWN },
		{ "panic", PRINTK_ERR },
		{ "WARN", PRINTK_WARN },
		{ "WARN_ONCE", PRINTK_WARN },
		{ "WARN_RATELIMIT", PRINTK_WARN },
		{ "WARN_TAINT", PRINTK_WARN },
		{ "WARN_TAINT_ONCE", PRINTK_WARN },
	};
	static const char *const tails[] = { "once", "ratelimited", "ratelimit",
					     "rl",   "probe",	    "rcu",
					     "in",   "inode",	    "block",
					     "tag",  "fs" };
	static const struct {
		const char *word;
		char level;
	} levels[] = {
		{ "err", PRINTK_ERR },	    { "error", PRINTK_ERR },
		{ "crit", PRINTK_ERR },	    { "alert", PRINTK_ERR },
		{ "emerg", PRINTK_ERR },    { "warn", PRINTK_WARN },
		{ "warning", PRINTK_WARN }, { "notice", PRINTK_INFO },
		{ "info", PRINTK_INFO },    { "printk", PRINTK_UNKNOWN },
	};
	const char *tok[12];
	size_t tlen[12], nt = 0, i, k;
	size_t start = 0;

	for (i = 0; i < ARRAY_SIZE(exact); i++)
		if (strlen(exact[i].name) == len &&
		    !memcmp(name, exact[i].name, len))
			return exact[i].level;
	/* the name's '_'-separated words */
	for (i = 0; i <= len; i++)
		if (i == len || name[i] == '_') {
			if (i > start && nt < ARRAY_SIZE(tok)) {
				tok[nt] = name + start;
				tlen[nt++] = i - start;
			}
			start = i + 1;
		}
	/* trace_printk() writes the trace buffer, not the log */
	if (nt < 2 || tok_is(tok[0], tlen[0], "trace"))
		return 0;
	/* pr_cont, pr_debug, dev_dbg ...: no level word */
	while (nt > 1) {
		bool tail = false;

		for (k = 0; k < ARRAY_SIZE(tails) && !tail; k++)
			tail = tok_is(tok[nt - 1], tlen[nt - 1], tails[k]);
		if (!tail)
			break;
		nt--;
	}
	if (nt < 2)
		return 0;
	for (k = 0; k < ARRAY_SIZE(levels); k++)
		if (tok_is(tok[nt - 1], tlen[nt - 1], levels[k].word))
			return levels[k].level;
	return 0;
}

/* printk_log_call - name is a log call's (printk.h) */
bool printk_log_call(const char *name, size_t len)
{
	return call_level(name, len) != 0;
}

/* kern_level - the level of a KERN_* macro, or 0 */
static char kern_level(const char *s, size_t n)
{
	static const struct {
		const char *name;
		char level;
	} kern[] = {
		{ "KERN_EMERG", PRINTK_ERR },	 { "KERN_ALERT", PRINTK_ERR },
		{ "KERN_CRIT", PRINTK_ERR },	 { "KERN_ERR", PRINTK_ERR },
		{ "KERN_WARNING", PRINTK_WARN }, { "KERN_NOTICE", PRINTK_INFO },
		{ "KERN_INFO", PRINTK_INFO },	 { "KERN_DEBUG", PRINTK_INFO },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kern); i++)
		if (strlen(kern[i].name) == n && !memcmp(s, kern[i].name, n))
			return kern[i].level;
	return 0;
}

/* severity - the order of levels, most severe last */
static int severity(char level)
{
	return level == PRINTK_ERR	 ? 3
	       : level == PRINTK_WARN	 ? 2
	       : level == PRINTK_UNKNOWN ? 1
					 : 0;
}

/* conversion - length of the conversion at p ('%' excluded) */
static size_t conversion(const char *p, const char *end)
{
	const char *q = p;

	while (q < end && strchr("-+ #0'", *q) && *q)
		q++;
	while (q < end && ((*q >= '0' && *q <= '9') || *q == '*'))
		q++;
	if (q < end && *q == '.')
		for (q++; q < end && ((*q >= '0' && *q <= '9') || *q == '*');)
			q++;
	while (q < end && *q && strchr("hlLqjzt", *q))
		q++;
	if (q >= end)
		return (size_t)(q - p);
	if (*q == 'p') {
		/* %pS, %pM, %pI4, %phN, %pOFf ...: vsprintf's extensions */
		for (q++; q < end && ((*q >= 'a' && *q <= 'z') ||
				      (*q >= 'A' && *q <= 'Z') ||
				      (*q >= '0' && *q <= '9'));
		     q++)
			;
		return (size_t)(q - p);
	}
	return (size_t)(q + 1 - p);
}

/* has_word - a word of WORD_MIN characters, a letter among them, with a
 * non-word character (not a wildcard) or the text's end on each side */
static bool delimited(const char *t, size_t i, size_t n, size_t len)
{
	return (i == 0 || (!word_char((unsigned char)t[i - 1]) &&
			   t[i - 1] != PRINTK_WILD)) &&
	       (i + n == len || (!word_char((unsigned char)t[i + n]) &&
				 t[i + n] != PRINTK_WILD));
}

/* for_words - call fn for every delimited word of a normalized text */
static void for_words(const char *t, size_t len,
		      void (*fn)(void *ctx, const char *w, size_t n), void *ctx)
{
	size_t i = 0, j;

	while (i < len) {
		bool letter = false;

		if (!word_char((unsigned char)t[i])) {
			i++;
			continue;
		}
		for (j = i; j < len && word_char((unsigned char)t[j]); j++)
			letter |= !(t[j] >= '0' && t[j] <= '9');
		if (j - i >= WORD_MIN && letter && delimited(t, i, j - i, len))
			fn(ctx, t + i, j - i);
		i = j;
	}
}

/* word_bit - a word's bit in a format's or a line's mask of words */
static uint64_t word_bit(uint32_t h)
{
	return (uint64_t)1 << (h >> 26);
}

static void mask_word(void *ctx, const char *w, size_t n)
{
	*(uint64_t *)ctx |= word_bit(hash_mem(w, n));
}

static void count_word(void *ctx, const char *w, size_t n)
{
	(void)w;
	(void)n;
	(*(size_t *)ctx)++;
}

/* printk_normalize - see printk.h */
int printk_normalize(const char *fmt, size_t len, char *out, size_t size)
{
	const char *p = fmt, *end = fmt + len;
	size_t n = 0, nwords = 0;
	int nconst = 0;

	if (size < 2)
		return -1;
	while (p < end && n + 1 < size) {
		char c = *p;

		if (c == '\n' || c == '\r' || c == '\0')
			break;
		if (c == '\001' && p + 1 < end) {
			p += 2; /* KERN_SOH and its level, written out */
			continue;
		}
		if (c == '%' && p + 1 < end && p[1] == '%') {
			out[n++] = '%';
			nconst++;
			p += 2;
			continue;
		}
		if (c == '%') {
			p += 1 + conversion(p + 1, end);
			if (!n || out[n - 1] != PRINTK_WILD)
				out[n++] = PRINTK_WILD;
			continue;
		}
		out[n++] = c;
		nconst += c != ' ';
		p++;
	}
	/* a log line's leading and trailing blanks are not read */
	while (n && out[n - 1] == ' ')
		n--;
	out[n] = '\0';
	p = out;
	while (*p == ' ')
		p++;
	memmove(out, p, n + 1 - (size_t)(p - out));
	n -= (size_t)(p - out);
	for_words(out, n, count_word, &nwords);
	if (nconst < PRINTK_CONST_MIN || !nwords)
		return -1;
	return nconst;
}

/* ---- building ------------------------------------------------------------ */

struct bformat {
	uint32_t text; /* offset in the build's text */
	uint32_t call; /* offset in the build's text */
	uint32_t files[PRINTK_FILES_MAX];
	uint32_t total;
	uint16_t nconst;
	char level;
	uint32_t anchor; /* hash of its rarest word */
	uint64_t mask;	 /* its words (word_bit()) */
	uint32_t next;	 /* the format after it in its anchor's run */
};

struct bword {
	uint32_t off, len; /* in the build's text */
	uint32_t df;	   /* formats that have it */
	uint32_t last;	   /* the last format that counted it (+1) */
	uint32_t hash;
};

struct build {
	const char *tree;
	char **paths;
	size_t npaths, apaths;
	struct strbuf text;  /* formats' texts and call names */
	struct strbuf words; /* the words' texts (not written) */
	struct bformat *f;
	size_t nf, af;
	struct hashmap fmap, cmap, wmap;
	struct bword *w;
	size_t nw, aw;
	size_t calls, scanned;
	uint32_t cur; /* the format being counted */
	uint32_t best, best_df, best_len;
	uint32_t fileid;
};

static bool text_equal(const void *data, uint32_t id, const void *key)
{
	const struct build *b = data;

	return !strcmp(b->text.buf + b->f[id].text, key);
}

static bool call_equal(const void *data, uint32_t id, const void *key)
{
	const struct build *b = data;

	return !strcmp(b->text.buf + id, key);
}

struct wkey {
	const char *w;
	size_t n;
};

static bool word_equal(const void *data, uint32_t id, const void *key)
{
	const struct build *b = data;
	const struct wkey *k = key;

	return b->w[id].len == k->n &&
	       !memcmp(b->words.buf + b->w[id].off, k->w, k->n);
}

static uint32_t add_text(struct build *b, const char *s, size_t n)
{
	size_t off = b->text.len;

	if (off > UINT32_MAX / 2 || sb_add(&b->text, s, n) < 0 ||
	    sb_addc(&b->text, '\0') < 0)
		die("printk index too large");
	return (uint32_t)off;
}

static uint32_t intern_call(struct build *b, const char *name, size_t n)
{
	char buf[64];
	uint32_t id, h;

	snprintf(buf, sizeof(buf), "%.*s", (int)(n < 63 ? n : 63), name);
	h = hash_str(buf);
	id = hashmap_get(&b->cmap, h, buf);
	if (id != HASHMAP_NONE)
		return id;
	id = add_text(b, buf, strlen(buf));
	hashmap_add(&b->cmap, h, id);
	return id;
}

/* record - one call's format, printed by the file being scanned */
static void record(struct build *b, const char *raw, size_t len,
		   const char *name, size_t nlen, char level)
{
	char norm[FMT_MAX];
	int nconst = printk_normalize(raw, len, norm, sizeof(norm));
	uint32_t h, id, k;
	struct bformat *f;

	b->calls++;
	if (nconst < 0)
		return;
	h = hash_str(norm);
	id = hashmap_get(&b->fmap, h, norm);
	if (id == HASHMAP_NONE) {
		ALLOC_GROW(b->f, b->nf, b->af);
		f = &b->f[b->nf];
		memset(f, 0, sizeof(*f));
		f->text = add_text(b, norm, strlen(norm));
		f->call = intern_call(b, name, nlen);
		f->nconst = (uint16_t)(nconst > 65535 ? 65535 : nconst);
		f->level = level;
		id = (uint32_t)b->nf++;
		hashmap_add(&b->fmap, h, id);
	}
	f = &b->f[id];
	if (severity(level) > severity(f->level))
		f->level = level;
	for (k = 0; k < f->total && k < PRINTK_FILES_MAX; k++)
		if (f->files[k] == b->fileid)
			return;
	if (f->total < PRINTK_FILES_MAX)
		f->files[f->total] = b->fileid;
	f->total++;
}

/* literal - decode the string literal at p ('"' included) into sb; the
 * position after it */
static const char *literal(const char *p, const char *end, struct strbuf *sb)
{
	static const char esc[] = "n\nt\tr\ra\ab\bf\fv\v\\\\\"\"''??e\033";

	for (p++; p < end && *p != '"' && *p != '\n'; p++) {
		char c = *p;

		if (c == '\\' && p + 1 < end) {
			const char *e;
			unsigned v = 0;
			int k;

			c = *++p;
			if (c >= '0' && c <= '7') {
				for (k = 0;
				     k < 3 && p < end && *p >= '0' && *p <= '7';
				     k++, p++)
					v = v * 8 + (unsigned)(*p - '0');
				p--;
				c = (char)v;
			} else if (c == 'x') {
				while (p + 1 < end && p[1] &&
				       strchr("0123456789abcdefABCDEF", p[1])) {
					char d = *++p;

					v = v * 16 +
					    (unsigned)(d <= '9' ? d - '0'
								: (d | 0x20) -
									  'a' +
									  10);
				}
				c = (char)v;
			} else if (c == '\n') {
				continue; /* a continued line */
			} else {
				for (e = esc; *e; e += 2)
					if (*e == c)
						break;
				if (*e)
					c = e[1];
			}
		}
		sb_addc(sb, c);
	}
	return p < end ? p + 1 : end;
}

/* skip_blank - spaces and comments */
static const char *skip_blank(const char *p, const char *end)
{
	for (;;) {
		while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' ||
				   *p == '\r' || *p == '\\'))
			p++;
		if (p + 1 < end && p[0] == '/' && p[1] == '*') {
			const char *e =
				memmem(p + 2, (size_t)(end - p - 2), "*/", 2);

			p = e ? e + 2 : end;
		} else if (p + 1 < end && p[0] == '/' && p[1] == '/') {
			const char *e = memchr(p, '\n', (size_t)(end - p));

			p = e ? e + 1 : end;
		} else {
			return p;
		}
	}
}

static const char *skip_quoted(const char *p, const char *end, char q)
{
	for (p++; p < end && *p != q && *p != '\n'; p++)
		if (*p == '\\')
			p++;
	return p < end ? p + 1 : end;
}

/*
 * call_args - read the arguments of the log call name at p (after its
 * '('): the first made of string literals only is its format
 */
static void call_args(struct build *b, const char *p, const char *end,
		      const char *name, size_t nlen)
{
	struct strbuf fmt = STRBUF_INIT(FMT_MAX * 4);
	const char *lim = end - p > ARGS_MAX ? p + ARGS_MAX : end;
	bool lit = false, pure = true;
	int depth = 0;
	char level = call_level(name, nlen), kern = 0;

	for (;;) {
		char c;

		p = skip_blank(p, lim);
		if (p >= lim)
			break;
		c = *p;
		if (c == '"') {
			if (depth == 0)
				p = literal(p, lim, &fmt);
			else
				p = skip_quoted(p, lim, '"');
			lit = true;
		} else if (c == '\'') {
			p = skip_quoted(p, lim, '\'');
			pure = false;
		} else if (word_char((unsigned char)c)) {
			const char *s = p;

			while (p < lim && word_char((unsigned char)*p))
				p++;
			if (c >= '0' && c <= '9')
				pure = false;
			else if (p - s > 5 && !memcmp(s, "KERN_", 5)) {
				/* KERN_CONT: a continuation of a line */
				pure &= !(p - s == 9 &&
					  !memcmp(s, "KERN_CONT", 9));
				if (!kern)
					kern = kern_level(s, (size_t)(p - s));
			} else if (depth == 0 && *skip_blank(p, lim) != '(')
				sb_add(&fmt, "%s", 2);
			else
				pure = false;
		} else if (c == '(' || c == '[' || c == '{') {
			depth++;
			pure = false;
			p++;
		} else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
			depth--;
			p++;
		} else if (c == ')' || c == ',' || c == ';') {
			if (lit && pure && depth == 0) {
				/* printk()'s level is its KERN_* */
				if (level == PRINTK_UNKNOWN && kern)
					level = kern;
				record(b, fmt.buf, fmt.len, name, nlen, level);
				break;
			}
			if (c != ',' || depth != 0)
				break;
			lit = false;
			pure = true;
			fmt.len = 0;
			p++;
		} else {
			pure = false;
			p++;
		}
	}
	sb_release(&fmt);
}

/* scan - one source file's log calls */
static void scan(struct build *b, const char *s, size_t n)
{
	const char *p = s, *end = s + n;

	while (p < end) {
		char c = *p;

		if (c == '/' && p + 1 < end && (p[1] == '*' || p[1] == '/')) {
			p = skip_blank(p, end);
		} else if (c == '"' || c == '\'') {
			p = skip_quoted(p, end, c);
		} else if (word_char((unsigned char)c)) {
			const char *w = p, *q;

			while (p < end && word_char((unsigned char)*p))
				p++;
			if (c >= '0' && c <= '9')
				continue;
			q = skip_blank(p, end);
			if (q < end && *q == '(' &&
			    printk_log_call(w, (size_t)(p - w)))
				call_args(b, q + 1, end, w, (size_t)(p - w));
		} else {
			p++;
		}
	}
}

static bool skipped_dir(const char *rel)
{
	static const char *const top[] = { "tools",   "scripts",
					   "samples", "Documentation",
					   "usr",     "LICENSES" };
	size_t i;

	if (rel[0] == '.')
		return true;
	for (i = 0; i < ARRAY_SIZE(top); i++)
		if (!strcmp(rel, top[i]))
			return true;
	return false;
}

/* walk - the .c files under dir (rel: its path in the tree, "" at top) */
static void walk(struct build *b, const char *dir, const char *rel)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d) {
		warn("cannot read '%s': %s", dir, strerror(errno));
		return;
	}
	while ((e = readdir(d))) {
		char *full, *r;
		struct stat st;
		size_t l = strlen(e->d_name);

		if (e->d_name[0] == '.')
			continue;
		full = xasprintf("%s/%s", dir, e->d_name);
		r = *rel ? xasprintf("%s/%s", rel, e->d_name)
			 : xstrdup(e->d_name);
		if (lstat(full, &st) == 0 && S_ISDIR(st.st_mode)) {
			if (*rel || !skipped_dir(r))
				walk(b, full, r);
		} else if (S_ISREG(st.st_mode) && l > 2 &&
			   !strcmp(e->d_name + l - 2, ".c")) {
			ALLOC_GROW(b->paths, b->npaths, b->apaths);
			b->paths[b->npaths++] = r;
			r = NULL;
		}
		free(full);
		free(r);
	}
	closedir(d);
}

static int cmp_str(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

static void df_word(void *ctx, const char *w, size_t n)
{
	struct build *b = ctx;
	struct wkey k = { w, n };
	uint32_t h = hash_mem(w, n), id = hashmap_get(&b->wmap, h, &k);

	if (id == HASHMAP_NONE) {
		ALLOC_GROW(b->w, b->nw, b->aw);
		id = (uint32_t)b->nw++;
		b->w[id].off = (uint32_t)b->words.len;
		if (sb_add(&b->words, w, n) < 0)
			die("printk index too large");
		b->w[id].len = (uint32_t)n;
		b->w[id].df = 0;
		b->w[id].last = 0;
		b->w[id].hash = h;
		hashmap_add(&b->wmap, h, id);
	}
	if (b->w[id].last != b->cur + 1) {
		b->w[id].last = b->cur + 1;
		b->w[id].df++;
	}
}

static void best_word(void *ctx, const char *w, size_t n)
{
	struct build *b = ctx;
	struct wkey k = { w, n };
	uint32_t h = hash_mem(w, n), id = hashmap_get(&b->wmap, h, &k);

	const struct bword *wd;

	if (id == HASHMAP_NONE)
		return;
	wd = &b->w[id];
	if (wd->df > b->best_df || (wd->df == b->best_df && n <= b->best_len))
		return;
	b->best_df = wd->df;
	b->best_len = (uint32_t)n;
	b->best = id;
}

/* choose - the word format i is filed under */
static void choose(struct build *b, size_t i)
{
	const char *t = b->text.buf + b->f[i].text;

	b->best_df = UINT32_MAX;
	b->best_len = 0;
	b->best = UINT32_MAX;
	for_words(t, strlen(t), best_word, b);
	b->f[i].anchor = b->best;
}

/*
 * anchors - each format filed under its rarest word (the fewest formats
 * have it: rare in log lines too).  Filing formats evenly over their
 * words instead (the word fewest formats are filed under) made the
 * lines of a log try a third more formats: it loads the common words
 * a line has.
 */
static void anchors(struct build *b)
{
	size_t i;

	hashmap_init(&b->wmap, word_equal, b, b->nf);
	for (i = 0; i < b->nf; i++) {
		const char *t = b->text.buf + b->f[i].text;

		b->cur = (uint32_t)i;
		for_words(t, strlen(t), df_word, b);
	}
	for (i = 0; i < b->nf; i++)
		choose(b, i);
	for (i = 0; i < b->nf; i++) {
		const char *t = b->text.buf + b->f[i].text;

		/* every kept format has a word (printk_normalize()) */
		b->f[i].anchor = b->f[i].anchor != UINT32_MAX
					 ? b->w[b->f[i].anchor].hash
					 : 0;
		b->f[i].mask = 0;
		for_words(t, strlen(t), mask_word, &b->f[i].mask);
	}
}

struct slotb {
	uint32_t hash, head, count;
};

static int write_index(struct build *b, const char *out, size_t *bytes,
		       size_t *nanchors)
{
	struct strbuf img = STRBUF_INIT(UINT32_MAX / 2);
	struct strbuf paths = STRBUF_INIT(UINT32_MAX / 2);
	struct pk_header h;
	struct pk_slot *slots;
	struct pk_format *fm = xcalloc(b->nf + 1, sizeof(*fm));
	uint32_t *ids = xcalloc(b->nf + 1, sizeof(*ids));
	uint64_t *masks = xcalloc(b->nf + 1, sizeof(*masks));
	uint32_t *refs = xcalloc(b->nf * PRINTK_FILES_MAX + 1, sizeof(*refs));
	uint32_t *pathidx = xcalloc(b->npaths + 1, sizeof(*pathidx));
	size_t i, nslots = 16, nrefs = 0, nids = 0, used = 0;
	int ret;

	/* slots: a power of two, at most half full */
	while (nslots < 2 * (b->nw + 1))
		nslots *= 2;
	slots = xcalloc(nslots, sizeof(*slots));
	for (i = 0; i < b->nf; i++) {
		size_t s = b->f[i].anchor & (nslots - 1);

		while (slots[s].count && slots[s].hash != b->f[i].anchor)
			s = (s + 1) & (nslots - 1);
		if (!slots[s].count) {
			slots[s].hash = b->f[i].anchor;
			used++;
			/* first: the head of the run as a list, for now */
			slots[s].first = UINT32_MAX;
		}
		b->f[i].next = slots[s].first;
		slots[s].first = (uint32_t)i;
		slots[s].count++;
	}
	for (i = 0; i < nslots; i++) {
		uint32_t k = slots[i].first, start = (uint32_t)nids;

		if (!slots[i].count)
			continue;
		for (; k != UINT32_MAX; k = b->f[k].next) {
			masks[nids] = b->f[k].mask;
			ids[nids++] = k;
		}
		slots[i].first = start;
	}
	for (i = 0; i < b->nf; i++) {
		const struct bformat *f = &b->f[i];
		uint32_t k, kept = f->total > PRINTK_FILES_MAX ? 0 : f->total;

		fm[i].text = f->text;
		fm[i].call = f->call;
		fm[i].refs = (uint32_t)nrefs;
		fm[i].nrefs = (uint16_t)kept;
		fm[i].nconst = f->nconst;
		fm[i].total = f->total;
		fm[i].level = f->level;
		for (k = 0; k < kept; k++)
			refs[nrefs++] = f->files[k];
	}
	for (i = 0; i < b->npaths; i++) {
		pathidx[i] = (uint32_t)paths.len;
		if (sb_add(&paths, b->paths[i], strlen(b->paths[i]) + 1) < 0)
			die("printk index too large");
	}
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, PK_MAGIC, 8);
	h.version = PRINTK_VERSION;
	h.endian = PK_ENDIAN;
	h.nformats = (uint32_t)b->nf;
	h.nfiles = (uint32_t)b->npaths;
	h.nslots = (uint32_t)nslots;
	h.nids = (uint32_t)nids;
	h.nrefs = (uint32_t)nrefs;
	h.scanned = (uint32_t)b->scanned;
	h.calls = (uint32_t)b->calls;
	if (sb_add(&img, &h, sizeof(h)) < 0)
		die("out of memory");
	h.off_slots =
		img_place(&img, slots, nslots * sizeof(*slots), "printk index");
	h.off_ids = img_place(&img, ids, nids * sizeof(*ids), "printk index");
	h.off_masks =
		img_place(&img, masks, nids * sizeof(*masks), "printk index");
	h.off_formats =
		img_place(&img, fm, b->nf * sizeof(*fm), "printk index");
	h.off_refs =
		img_place(&img, refs, nrefs * sizeof(*refs), "printk index");
	h.off_pathidx = img_place(&img, pathidx, b->npaths * sizeof(*pathidx),
				  "printk index");
	h.off_text = img_place(&img, b->text.buf ? b->text.buf : "",
			       b->text.len + 1, "printk index");
	h.text_size = (uint32_t)b->text.len + 1;
	h.off_paths = img_place(&img, paths.buf ? paths.buf : "", paths.len + 1,
				"printk index");
	h.paths_size = (uint32_t)paths.len + 1;
	h.size = (uint32_t)img.len;
	memcpy(img.buf, &h, sizeof(h));
	ret = write_file_atomic(out, img.buf, img.len, 0644);
	*bytes = img.len;
	*nanchors = used;
	sb_release(&img);
	sb_release(&paths);
	free(slots);
	free(fm);
	free(ids);
	free(masks);
	free(refs);
	free(pathidx);
	return ret;
}

/* printk_build - scan tree, write the index to out */
int printk_build(const char *tree, const char *out, struct printk_stats *st)
{
	struct build b;
	double t0 = now_seconds();
	size_t i, bytes = 0, nanchors = 0;
	int ret;

	memset(&b, 0, sizeof(b));
	b.tree = tree;
	sb_init(&b.text, UINT32_MAX / 2);
	sb_init(&b.words, UINT32_MAX / 2);
	walk(&b, tree, "");
	if (!b.npaths) {
		error("no .c files in '%s'", tree);
		free(b.paths);
		sb_release(&b.text);
		return -1;
	}
	qsort(b.paths, b.npaths, sizeof(*b.paths), cmp_str);
	hashmap_init(&b.fmap, text_equal, &b, 1u << 16);
	hashmap_init(&b.cmap, call_equal, &b, 256);
	for (i = 0; i < b.npaths; i++) {
		char *full = xasprintf("%s/%s", tree, b.paths[i]), *buf;
		size_t n;

		b.fileid = (uint32_t)i;
		if (read_file(full, FILE_MAX, &buf, &n) == 0) {
			scan(&b, buf, n);
			b.scanned++;
			free(buf);
		}
		free(full);
	}
	anchors(&b);
	ret = write_index(&b, out, &bytes, &nanchors);
	if (st) {
		st->files = b.scanned;
		st->calls = b.calls;
		st->formats = b.nf;
		st->words = nanchors;
		st->bytes = bytes;
		st->seconds = now_seconds() - t0;
	}
	hashmap_release(&b.fmap);
	hashmap_release(&b.cmap);
	hashmap_release(&b.wmap);
	for (i = 0; i < b.npaths; i++)
		free(b.paths[i]);
	free(b.paths);
	free(b.f);
	free(b.w);
	sb_release(&b.text);
	sb_release(&b.words);
	return ret;
}

/* ---- reading ------------------------------------------------------------- */

static bool check(const struct pk_header *h, size_t size, const char *base)
{
	return h->size == size && h->nslots && !(h->nslots & (h->nslots - 1)) &&
	       img_range_ok(size, h->off_slots, h->nslots,
			    sizeof(struct pk_slot), 4) &&
	       img_range_ok(size, h->off_ids, h->nids, 4, 4) &&
	       img_range_ok(size, h->off_masks, h->nids, 8, 8) &&
	       img_range_ok(size, h->off_formats, h->nformats,
			    sizeof(struct pk_format), 4) &&
	       img_range_ok(size, h->off_refs, h->nrefs, 4, 4) &&
	       img_range_ok(size, h->off_pathidx, h->nfiles, 4, 4) &&
	       h->text_size &&
	       img_range_ok(size, h->off_text, h->text_size, 1, 1) &&
	       h->paths_size &&
	       img_range_ok(size, h->off_paths, h->paths_size, 1, 1) &&
	       base[h->off_text + h->text_size - 1] == '\0' &&
	       base[h->off_paths + h->paths_size - 1] == '\0';
}

/* printk_open - map an index printk_build() wrote */
struct printk_index *printk_open(const char *path)
{
	struct printk_index *pk;
	const struct pk_header *h;
	size_t size;
	const char *p = img_map(path, "printk index", 8, UINT32_MAX, &size);

	if (!p)
		return NULL;
	h = (const void *)p;
	if (size < 8 || memcmp(p, PK_MAGIC, 8) != 0) {
		error("'%s': not a triage printk index", path);
		img_unmap((void *)p, size);
		return NULL;
	}
	if (size < sizeof(*h) || h->version != PRINTK_VERSION ||
	    h->endian != PK_ENDIAN) {
		/* size first: a cut header's fields are not read */
		if (size < sizeof(*h))
			error("'%s': corrupt printk index; run 'triage update --kernel-tree DIR'",
			      path);
		else
			error("'%s': printk index format %u is not %u; run 'triage update --kernel-tree DIR'",
			      path, h->version, PRINTK_VERSION);
		img_unmap((void *)p, size);
		return NULL;
	}
	if (!check(h, size, p)) {
		error("'%s': corrupt printk index; run 'triage update --kernel-tree DIR'",
		      path);
		img_unmap((void *)p, size);
		return NULL;
	}
	pk = xcalloc(1, sizeof(*pk));
	pk->base = p;
	pk->size = size;
	pk->h = h;
	pk->slots = (const void *)(p + h->off_slots);
	pk->ids = (const void *)(p + h->off_ids);
	pk->masks = (const void *)(p + h->off_masks);
	pk->formats = (const void *)(p + h->off_formats);
	pk->refs = (const void *)(p + h->off_refs);
	pk->pathidx = (const void *)(p + h->off_pathidx);
	pk->text = p + h->off_text;
	pk->paths = p + h->off_paths;
	return pk;
}

void printk_free(struct printk_index *pk)
{
	if (!pk)
		return;
	img_unmap((void *)pk->base, pk->size);
	free(pk);
}

size_t printk_nformats(const struct printk_index *pk)
{
	return pk ? pk->h->nformats : 0;
}

static const char *text_at(const struct printk_index *pk, uint32_t off)
{
	return off < pk->h->text_size ? pk->text + off : "";
}

const char *printk_call(const struct printk_index *pk, uint32_t id)
{
	return id < pk->h->nformats ? text_at(pk, pk->formats[id].call) : "";
}

char printk_level(const struct printk_index *pk, uint32_t id)
{
	return id < pk->h->nformats ? pk->formats[id].level : PRINTK_UNKNOWN;
}

const char *printk_text(const struct printk_index *pk, uint32_t id)
{
	return id < pk->h->nformats ? text_at(pk, pk->formats[id].text) : "";
}

size_t printk_files(const struct printk_index *pk, uint32_t id,
		    const char **paths, size_t max, unsigned *total)
{
	const struct pk_format *f;
	size_t i, n = 0;

	*total = 0;
	if (id >= pk->h->nformats)
		return 0;
	f = &pk->formats[id];
	*total = f->total;
	for (i = 0; i < f->nrefs && n < max; i++) {
		uint32_t r = f->refs + (uint32_t)i, fid;

		if (r >= pk->h->nrefs)
			break;
		fid = pk->refs[r];
		if (fid >= pk->h->nfiles ||
		    pk->pathidx[fid] >= pk->h->paths_size)
			continue;
		paths[n++] = pk->paths + pk->pathidx[fid];
	}
	return n;
}

/* find - needle (n > 0 bytes) in s: a line is short, and memmem()'s
 * setup costs more than the search */
static const char *find(const char *s, const char *end, const char *needle,
			size_t n)
{
	while ((size_t)(end - s) >= n) {
		s = memchr(s, needle[0], (size_t)(end - s) - n + 1);
		if (!s)
			return NULL;
		if (!memcmp(s + 1, needle + 1, n - 1))
			return s;
		s++;
	}
	return NULL;
}

/* matches - the fragments of t occur in order in the line */
static bool matches(const char *t, const char *s, size_t len)
{
	const char *end = s + len;

	while (*t) {
		const char *w = strchr(t, PRINTK_WILD);
		size_t n = w ? (size_t)(w - t) : strlen(t);
		const char *at;

		if (n) {
			at = find(s, end, t, n);
			if (!at)
				return false;
			s = at + n;
		}
		t += n;
		if (*t == PRINTK_WILD)
			t++;
	}
	return true;
}

/* add_hit - format id matched with n constant characters: kept among
 * the best */
static size_t add_hit(struct printk_hit *hits, size_t nhits, size_t max,
		      unsigned *best, uint32_t id, unsigned n)
{
	size_t k;

	if (n < *best)
		return nhits;
	if (n > *best) {
		*best = n;
		nhits = 0;
	}
	for (k = 0; k < nhits; k++)
		if (hits[k].format == id)
			return nhits;
	if (nhits < max) {
		hits[nhits].format = id;
		hits[nhits++].nconst = n;
	}
	return nhits;
}

/* try_slot - the formats filed under slot sl */
static size_t try_slot(const struct printk_index *pk, const struct pk_slot *sl,
		       uint64_t words, const char *line, size_t len,
		       struct printk_hit *hits, size_t nhits, size_t max,
		       unsigned *best)
{
	uint32_t r, end;

	/* a damaged slot is not followed outside the ids */
	if (sl->first > pk->h->nids || sl->count > pk->h->nids - sl->first)
		return nhits;
	for (r = sl->first, end = sl->first + sl->count; r < end; r++) {
		const struct pk_format *f;
		uint32_t id;

		/* a word of the format that the line lacks: no match */
		if (pk->masks[r] & ~words)
			continue;
		id = pk->ids[r];
		if (id >= pk->h->nformats)
			continue;
		f = &pk->formats[id];
		if (f->nconst >= *best && f->nconst <= len &&
		    matches(text_at(pk, f->text), line, len))
			nhits = add_hit(hits, nhits, max, best, id, f->nconst);
	}
	return nhits;
}

/* printk_match - see printk.h */
size_t printk_match(const struct printk_index *pk, const char *line, size_t len,
		    struct printk_hit *hits, size_t max)
{
	uint32_t word[LINE_WORDS];
	uint64_t words = 0;
	size_t nwords = 0, nhits = 0, i = 0, j, k, t;
	unsigned best = 0;
	uint32_t mask;

	if (!pk || !max || !pk->h->nformats)
		return 0;
	/* the line's words: their hashes, and the mask of them all */
	while (i < len && nwords < LINE_WORDS) {
		uint32_t h = FNV32_BASIS;

		if (!word_char((unsigned char)line[i])) {
			i++;
			continue;
		}
		for (j = i; j < len && word_char((unsigned char)line[j]); j++)
			h = hash_step(h, (unsigned char)line[j]);
		if (j - i >= WORD_MIN) {
			/* a word again: its formats are tried once */
			for (t = 0; t < nwords && word[t] != h; t++)
				;
			if (t == nwords)
				word[nwords++] = h;
			words |= word_bit(h);
		}
		i = j;
	}
	mask = pk->h->nslots - 1;
	for (k = 0; k < nwords; k++) {
		uint32_t s = word[k] & mask, probes;

		for (probes = 0; probes <= mask; s = (s + 1) & mask, probes++) {
			const struct pk_slot *sl = &pk->slots[s];

			if (!sl->count)
				break;
			if (sl->hash != word[k])
				continue;
			nhits = try_slot(pk, sl, words, line, len, hits, nhits,
					 max, &best);
			break;
		}
	}
	return nhits;
}

/* shape - a line's hash with each run of digits read as one '0': the
 * lines of one format differ in their numbers */
static uint64_t shape(const char *s, size_t len)
{
	uint64_t h = FNV64_BASIS;
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= '0' && c <= '9') {
			while (i + 1 < len && s[i + 1] >= '0' &&
			       s[i + 1] <= '9')
				i++;
			c = '0';
		}
		h = hash64_step(h, c);
	}
	return h;
}

/* printk_match_cached - see printk.h */
size_t printk_match_cached(const struct printk_index *pk,
			   struct printk_cache *c, const char *line, size_t len,
			   struct printk_hit *hits, size_t max)
{
	uint64_t sh;
	size_t i, k, n;

	if (!pk || !max || !pk->h->nformats)
		return 0;
	sh = shape(line, len);
	for (i = 0; i < PRINTK_CACHE; i++) {
		if (!c->used[i] || c->shape[i] != sh)
			continue;
		/* what matched matches again (the numbers differ) */
		for (k = 0; k < c->n[i]; k++) {
			uint32_t id = c->hits[i][k].format;

			if (id >= pk->h->nformats ||
			    !matches(text_at(pk, pk->formats[id].text), line,
				     len))
				break;
		}
		if (k < c->n[i])
			break;
		n = c->n[i] < max ? c->n[i] : max;
		memcpy(hits, c->hits[i], n * sizeof(*hits));
		c->reused++;
		return n;
	}
	n = printk_match(pk, line, len, hits, max);
	i = c->next++ % PRINTK_CACHE;
	c->used[i] = true;
	c->shape[i] = sh;
	c->n[i] =
		(unsigned char)(n < PRINTK_CACHE_HITS ? n : PRINTK_CACHE_HITS);
	memcpy(c->hits[i], hits, c->n[i] * sizeof(*hits));
	return n;
}
