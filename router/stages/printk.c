// SPDX-License-Identifier: GPL-2.0-only
/*
 * printk - the kernel's log formats, to the files that print them (see
 * printk.h)
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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

/*
 * The index: a header, then the filter a lookup reads whole at its
 * first line (a Bloom filter of the anchor words and of each format's
 * (anchor, second word) pair, and the bucket directory), the buckets
 * (for each: its anchors and their runs of entries, read with one
 * pread()), the formats, their file references, the texts and the
 * paths.  A lookup reads the filter once, a bucket per anchor the line
 * may have, and the text of the few formats whose words the line has.
 */
struct pk_header {
	char magic[8];
	uint32_t version, endian, size;
	uint32_t nformats, nfiles, nanchors, bloom_log2, buckets_log2;
	uint32_t off_bloom, off_dir, off_area, area_size, off_formats;
	uint32_t off_details, details_size, off_paths, paths_size;
	uint32_t scanned, calls, tree; /* tree: offset in the paths */
	uint32_t built_lo, built_hi;   /* time of the build */
};

/* a bucket: struct pk_bucket, its anchors, then their entries */
struct pk_bucket {
	uint32_t nanchors, pad;
};

struct pk_anchor {
	uint32_t hash, count; /* its entries */
	uint32_t off;	      /* of the first, in the bucket */
	uint32_t pad;
};

/* one format filed under an anchor: what a lookup checks, then its text
 * (len bytes and a NUL, the entry padded to 8 bytes) */
struct pk_entry {
	uint64_t mask;	      /* its words (word_bit()) */
	uint32_t id;	      /* format id */
	uint32_t w2, w3;      /* hashes of two more of its words, or 0 */
	uint16_t nconst, len; /* constant characters; text length */
};

/* where a format's details are: formats[id] */
struct pk_format {
	uint32_t off, size; /* of its struct pk_detail, in the details */
};

/* a format's details: then its text, call and paths, each with a NUL */
struct pk_detail {
	uint32_t total;	 /* files that print it */
	uint16_t npaths; /* paths kept (<= PRINTK_FILES_MAX) */
	char level;	 /* PRINTK_ERR ... of its most severe call */
	char pad;
};

#define DETAIL_MAX 65536 /* a larger detail is damage */

#define BLOOM_MIN	10 /* log2 of the filter's bits */
#define BLOOM_MAX	28
#define BUCKETS_MIN	4
#define BUCKETS_MAX	24
#define BUCKET_READ_MAX (4u << 20) /* a bucket larger is damage */
#define PK_BUCKETS	64	   /* buckets kept (least recently used) */
#define PK_KEPT		64	   /* formats whose strings are handed out */

struct pk_bcache {
	uint32_t b1; /* bucket + 1, 0: empty */
	uint32_t size;
	unsigned long used;
	unsigned char *data;
};

struct pk_kept {
	uint32_t id1;
	char *text, *call;
	char *paths[PRINTK_FILES_MAX];
	size_t npaths;
	unsigned total;
	char level;
};

struct printk_index {
	int fd;
	size_t size;
	struct pk_header h;
	unsigned char *filter; /* the Bloom filter, then the directory */
	const uint32_t *dir;
	bool loaded, broken, warned;
	struct pk_bcache buckets[PK_BUCKETS];
	unsigned long tick;
	struct pk_kept kept[PK_KEPT];
	unsigned kept_next;
	unsigned long reads, bytes;
	char *tree; /* the tree it was built from */
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
	uint32_t w2, w3; /* hashes of the next rarest two, or 0 */
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
	uint32_t cur;	  /* the format being counted */
	uint32_t best[3]; /* word ids, rarest first (UINT32_MAX: none) */
	uint32_t fileid;
	char *tree_abs; /* the tree, absolute */
	time_t built;
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

/* rarer - word x is rarer than word y (fewer formats have it; of two
 * as rare, the longer; of two as long, the first seen) */
static bool rarer(const struct build *b, uint32_t x, uint32_t y)
{
	return y == UINT32_MAX || b->w[x].df < b->w[y].df ||
	       (b->w[x].df == b->w[y].df && b->w[x].len > b->w[y].len);
}

static void best_word(void *ctx, const char *w, size_t n)
{
	struct build *b = ctx;
	struct wkey k = { w, n };
	uint32_t h = hash_mem(w, n), id = hashmap_get(&b->wmap, h, &k);
	int i, at;

	if (id == HASHMAP_NONE)
		return;
	for (i = 0; i < 3; i++)
		if (b->best[i] == id)
			return;
	for (at = 0; at < 3 && !rarer(b, id, b->best[at]); at++)
		;
	if (at == 3)
		return;
	for (i = 2; i > at; i--)
		b->best[i] = b->best[i - 1];
	b->best[at] = id;
}

/* word_hash - the hash of word id, 0 for none */
static uint32_t word_hash(const struct build *b, uint32_t id)
{
	return id == UINT32_MAX ? 0 : b->w[id].hash;
}

/* choose - the word format i is filed under, and the next rarest two
 * (a lookup checks the line has them before it reads the format) */
static void choose(struct build *b, size_t i)
{
	const char *t = b->text.buf + b->f[i].text;

	b->best[0] = b->best[1] = b->best[2] = UINT32_MAX;
	for_words(t, strlen(t), best_word, b);
	/* every kept format has a word (printk_normalize()) */
	b->f[i].anchor = word_hash(b, b->best[0]);
	b->f[i].w2 = word_hash(b, b->best[1]);
	b->f[i].w3 = word_hash(b, b->best[2]);
	/* a word of the same hash as the anchor says nothing more */
	if (b->f[i].w3 == b->f[i].anchor)
		b->f[i].w3 = 0;
	if (b->f[i].w2 == b->f[i].anchor) {
		b->f[i].w2 = b->f[i].w3;
		b->f[i].w3 = 0;
	}
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

		b->f[i].mask = 0;
		for_words(t, strlen(t), mask_word, &b->f[i].mask);
	}
}

/* mix64 - a 64-bit finalizer (splitmix64's): the filter's bits */
static uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* the filter's keys: an anchor word, a format's (anchor, second word)
 * pair (0: it has one word) */
#define KEY_ANCHOR 0x9e3779b9u
static uint64_t key_of(uint32_t anchor, uint32_t w)
{
	return mix64(((uint64_t)anchor << 32) | w);
}

static void bloom_set(unsigned char *bits, unsigned lb, uint64_t k)
{
	uint32_t m = (uint32_t)((1ull << lb) - 1), a = (uint32_t)k & m,
		 c = (uint32_t)(k >> 32) & m;

	bits[a >> 3] |= (unsigned char)(1u << (a & 7));
	bits[c >> 3] |= (unsigned char)(1u << (c & 7));
}

static bool bloom_has(const unsigned char *bits, unsigned lb, uint64_t k)
{
	uint32_t m = (uint32_t)((1ull << lb) - 1), a = (uint32_t)k & m,
		 c = (uint32_t)(k >> 32) & m;

	return (bits[a >> 3] & (1u << (a & 7))) &&
	       (bits[c >> 3] & (1u << (c & 7)));
}

/* bucket_of - the bucket of an anchor's hash (of 1 << lb buckets) */
static uint32_t bucket_of(uint32_t h, unsigned lb)
{
	return (uint32_t)(((uint64_t)h * 0x9e3779b97f4a7c15ull) >> (64 - lb));
}

struct order {
	uint32_t bucket, anchor, id;
};

/* by bucket, then anchor; a run lists its formats newest first */
static int cmp_order(const void *x, const void *y)
{
	const struct order *a = x, *c = y;

	if (a->bucket != c->bucket)
		return a->bucket < c->bucket ? -1 : 1;
	if (a->anchor != c->anchor)
		return a->anchor < c->anchor ? -1 : 1;
	return a->id > c->id ? -1 : a->id < c->id;
}

/* pad8 - zeros to the next multiple of 8 */
static void pad8(struct strbuf *sb)
{
	static const char zero[8];

	if (sb->len % 8 && sb_add(sb, zero, 8 - sb->len % 8) < 0)
		die("printk index too large");
}

static void add(struct strbuf *sb, const void *p, size_t n)
{
	if (sb_add(sb, p, n) < 0)
		die("printk index too large");
}

/* put_bucket - the formats ord[i..end) of one bucket into area */
static void put_bucket(struct build *b, const struct order *ord, size_t i,
		       size_t end, struct strbuf *area, unsigned char *bloom,
		       unsigned lbloom)
{
	struct pk_bucket bh = { 0, 0 };
	struct pk_anchor an;
	size_t base = area->len, at, k;

	for (k = i; k < end; k++)
		bh.nanchors += k == i || ord[k].anchor != ord[k - 1].anchor;
	add(area, &bh, sizeof(bh));
	at = area->len;
	memset(&an, 0, sizeof(an));
	for (k = 0; k < bh.nanchors; k++)
		add(area, &an, sizeof(an));
	for (k = i; k < end; k++) {
		const struct bformat *f = &b->f[ord[k].id];
		const char *t = b->text.buf + f->text;
		struct pk_entry e;

		if (k == i || ord[k].anchor != ord[k - 1].anchor) {
			an.hash = ord[k].anchor;
			an.count = 0;
			an.off = (uint32_t)(area->len - base);
			bloom_set(bloom, lbloom, key_of(an.hash, KEY_ANCHOR));
		}
		memset(&e, 0, sizeof(e));
		e.mask = f->mask;
		e.id = ord[k].id;
		e.w2 = f->w2;
		e.w3 = f->w3;
		e.nconst = f->nconst;
		e.len = (uint16_t)strlen(t);
		add(area, &e, sizeof(e));
		add(area, t, (size_t)e.len + 1);
		pad8(area);
		bloom_set(bloom, lbloom, key_of(f->anchor, f->w2));
		an.count++;
		if (k + 1 == end || ord[k + 1].anchor != an.hash) {
			memcpy(area->buf + at, &an, sizeof(an));
			at += sizeof(an);
		}
	}
}

/* put_detail - format i's details (struct pk_detail, its text, call
 * and paths) */
static void put_detail(struct build *b, size_t i, struct strbuf *d)
{
	const struct bformat *f = &b->f[i];
	struct pk_detail dt;
	uint32_t r;

	memset(&dt, 0, sizeof(dt));
	dt.total = f->total;
	dt.npaths = (uint16_t)(f->total > PRINTK_FILES_MAX ? 0 : f->total);
	dt.level = f->level;
	add(d, &dt, sizeof(dt));
	add(d, b->text.buf + f->text, strlen(b->text.buf + f->text) + 1);
	add(d, b->text.buf + f->call, strlen(b->text.buf + f->call) + 1);
	for (r = 0; r < dt.npaths; r++)
		add(d, b->paths[f->files[r]],
		    strlen(b->paths[f->files[r]]) + 1);
	pad8(d);
}

static int write_index(struct build *b, const char *out, size_t *bytes,
		       size_t *nanchors)
{
	struct strbuf img = STRBUF_INIT(UINT32_MAX / 2);
	struct strbuf area = STRBUF_INIT(UINT32_MAX / 2);
	struct strbuf details = STRBUF_INIT(UINT32_MAX / 2);
	struct pk_header h;
	struct pk_format *fm = xcalloc(b->nf + 1, sizeof(*fm));
	struct order *ord = xcalloc(b->nf + 1, sizeof(*ord));
	uint32_t *dir;
	unsigned char *bloom;
	unsigned lbloom = BLOOM_MIN, lbuckets = BUCKETS_MIN;
	size_t i, k, used = 0, nbuckets, nextb = 0;
	int ret;

	/* the anchors: distinct hashes */
	for (i = 0; i < b->nf; i++) {
		ord[i].anchor = b->f[i].anchor;
		ord[i].id = (uint32_t)i;
		ord[i].bucket = 0;
	}
	qsort(ord, b->nf, sizeof(*ord), cmp_order);
	for (i = 0; i < b->nf; i++)
		used += !i || ord[i].anchor != ord[i - 1].anchor;
	/* some 8 anchors a bucket: a bucket is one read of a few KB */
	while (lbuckets < BUCKETS_MAX && (used >> lbuckets) > 8)
		lbuckets++;
	/* some 10 bits a key, two bits each: 3% of false positives */
	while (lbloom < BLOOM_MAX && (1ull << lbloom) < 8 * (used + b->nf))
		lbloom++;
	nbuckets = (size_t)1 << lbuckets;
	for (i = 0; i < b->nf; i++)
		ord[i].bucket = bucket_of(ord[i].anchor, lbuckets);
	qsort(ord, b->nf, sizeof(*ord), cmp_order);
	bloom = xcalloc((size_t)1 << (lbloom - 3), 1);
	dir = xcalloc(nbuckets + 1, sizeof(*dir));
	for (i = 0; i < b->nf;) {
		size_t end = i;
		uint32_t bk = ord[i].bucket;

		while (end < b->nf && ord[end].bucket == bk)
			end++;
		for (k = nextb; k <= bk; k++)
			dir[k] = (uint32_t)area.len;
		nextb = (size_t)bk + 1;
		put_bucket(b, ord, i, end, &area, bloom, lbloom);
		i = end;
	}
	for (k = nextb; k <= nbuckets; k++)
		dir[k] = (uint32_t)area.len;
	for (i = 0; i < b->nf; i++) {
		fm[i].off = (uint32_t)details.len;
		put_detail(b, i, &details);
		fm[i].size = (uint32_t)details.len - fm[i].off;
	}
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, PK_MAGIC, 8);
	h.version = PRINTK_VERSION;
	h.endian = PK_ENDIAN;
	h.nformats = (uint32_t)b->nf;
	h.nfiles = (uint32_t)b->npaths;
	h.nanchors = (uint32_t)used;
	h.bloom_log2 = lbloom;
	h.buckets_log2 = lbuckets;
	h.scanned = (uint32_t)b->scanned;
	h.calls = (uint32_t)b->calls;
	h.built_lo = (uint32_t)((uint64_t)b->built & 0xffffffffu);
	h.built_hi = (uint32_t)((uint64_t)b->built >> 32);
	h.tree = 0;
	add(&img, &h, sizeof(h));
	/* the filter and the directory: one read */
	h.off_bloom = img_place(&img, bloom, (size_t)1 << (lbloom - 3),
				"printk index");
	h.off_dir = (uint32_t)img.len;
	add(&img, dir, (nbuckets + 1) * sizeof(*dir));
	h.off_area = img_place(&img, area.buf ? area.buf : "", area.len,
			       "printk index");
	h.area_size = (uint32_t)area.len;
	h.off_formats =
		img_place(&img, fm, b->nf * sizeof(*fm), "printk index");
	h.off_details = img_place(&img, details.buf ? details.buf : "",
				  details.len, "printk index");
	h.details_size = (uint32_t)details.len;
	h.off_paths = img_place(&img, b->tree_abs, strlen(b->tree_abs) + 1,
				"printk index");
	h.paths_size = (uint32_t)strlen(b->tree_abs) + 1;
	h.size = (uint32_t)img.len;
	memcpy(img.buf, &h, sizeof(h));
	ret = write_file_atomic(out, img.buf, img.len, 0644);
	*bytes = img.len;
	*nanchors = used;
	sb_release(&img);
	sb_release(&area);
	sb_release(&details);
	free(bloom);
	free(dir);
	free(ord);
	free(fm);
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
	b.tree_abs = realpath(tree, NULL);
	if (!b.tree_abs)
		b.tree_abs = xstrdup(tree);
	b.built = time(NULL);
	sb_init(&b.text, UINT32_MAX / 2);
	sb_init(&b.words, UINT32_MAX / 2);
	walk(&b, tree, "");
	if (!b.npaths) {
		error("no .c files in '%s'", tree);
		free(b.paths);
		free(b.tree_abs);
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
	free(b.tree_abs);
	free(b.f);
	free(b.w);
	sb_release(&b.text);
	sb_release(&b.words);
	return ret;
}

/* ---- reading ------------------------------------------------------------- */

/* damaged - note once that the index is damaged: it matches nothing */
static void damaged(struct printk_index *pk)
{
	pk->broken = true;
	if (!pk->warned)
		warn("printk index damaged; run 'triage update --kernel-tree DIR'");
	pk->warned = true;
}

/* mut - the caches of a const index */
static struct printk_index *mut(const struct printk_index *pk)
{
	return (struct printk_index *)pk;
}

/* rd - n bytes at off into buf; false past the end or on error */
static bool rd(const struct printk_index *pk, uint64_t off, size_t n, void *buf)
{
	struct printk_index *w = mut(pk);

	if (off > pk->size || n > pk->size - off)
		return false;
	w->reads++;
	w->bytes += n;
	return pread(pk->fd, buf, n, (off_t)off) == (ssize_t)n;
}

static bool check(const struct pk_header *h, size_t size)
{
	size_t bloom, nb;

	if (h->size != size || h->bloom_log2 < BLOOM_MIN ||
	    h->bloom_log2 > BLOOM_MAX || h->buckets_log2 < BUCKETS_MIN ||
	    h->buckets_log2 > BUCKETS_MAX)
		return false;
	bloom = (size_t)1 << (h->bloom_log2 - 3);
	nb = ((size_t)1 << h->buckets_log2) + 1;
	return img_range_ok(size, h->off_bloom, bloom, 1, 8) &&
	       h->off_dir == h->off_bloom + bloom &&
	       img_range_ok(size, h->off_dir, nb, 4, 4) &&
	       img_range_ok(size, h->off_area, h->area_size, 1, 8) &&
	       img_range_ok(size, h->off_formats, h->nformats,
			    sizeof(struct pk_format), 4) &&
	       img_range_ok(size, h->off_details, h->details_size, 1, 8) &&
	       h->paths_size &&
	       img_range_ok(size, h->off_paths, h->paths_size, 1, 1) &&
	       h->tree < h->paths_size;
}

/* printk_open - open an index printk_build() wrote: its header is read
 * and checked; lookups read the rest with pread() (printk.h) */
struct printk_index *printk_open(const char *path)
{
	struct printk_index *pk;
	struct pk_header h;
	struct stat st;
	ssize_t got;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		error("cannot open printk index '%s': %s", path,
		      strerror(errno));
		return NULL;
	}
	memset(&h, 0, sizeof(h));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size < 8 ||
	    (uint64_t)st.st_size > UINT32_MAX ||
	    (got = pread(fd, &h, sizeof(h), 0)) < 8 ||
	    memcmp(h.magic, PK_MAGIC, 8) != 0) {
		error("'%s': not a triage printk index", path);
		close(fd);
		return NULL;
	}
	/* an older format first: its header may be shorter */
	if (got >= 16 &&
	    (h.version != PRINTK_VERSION || h.endian != PK_ENDIAN)) {
		error("'%s': printk index format %u is not %u; run 'triage update --kernel-tree DIR'",
		      path, h.version, PRINTK_VERSION);
		close(fd);
		return NULL;
	}
	if ((size_t)got < sizeof(h) || !check(&h, (size_t)st.st_size)) {
		error("'%s': corrupt printk index; run 'triage update --kernel-tree DIR'",
		      path);
		close(fd);
		return NULL;
	}
	pk = xcalloc(1, sizeof(*pk));
	pk->fd = fd;
	pk->size = (size_t)st.st_size;
	pk->h = h;
	return pk;
}

static void kept_clear(struct pk_kept *k)
{
	size_t i;

	free(k->text);
	free(k->call);
	for (i = 0; i < k->npaths; i++)
		free(k->paths[i]);
	memset(k, 0, sizeof(*k));
}

void printk_free(struct printk_index *pk)
{
	size_t i;

	if (!pk)
		return;
	close(pk->fd);
	free(pk->filter);
	for (i = 0; i < PK_BUCKETS; i++)
		free(pk->buckets[i].data);
	for (i = 0; i < PK_KEPT; i++)
		kept_clear(&pk->kept[i]);
	free(pk->tree);
	free(pk);
}

size_t printk_nformats(const struct printk_index *pk)
{
	return pk ? pk->h.nformats : 0;
}

/* printk_about - what printk_open() read of the index (printk.h) */
void printk_about(const struct printk_index *pk, struct printk_about *a)
{
	memset(a, 0, sizeof(*a));
	a->version = pk->h.version;
	a->formats = pk->h.nformats;
	a->files = pk->h.nfiles;
	a->scanned = pk->h.scanned;
	a->calls = pk->h.calls;
	a->bytes = pk->size;
	a->built = (int64_t)(((uint64_t)pk->h.built_hi << 32) | pk->h.built_lo);
	if (!pk->tree) {
		char buf[PATH_MAX];
		size_t n = pk->h.paths_size - pk->h.tree;

		if (n > sizeof(buf))
			n = sizeof(buf);
		if (rd(pk, (uint64_t)pk->h.off_paths + pk->h.tree, n, buf) &&
		    memchr(buf, '\0', n))
			mut(pk)->tree = xstrdup(buf);
	}
	a->tree = pk->tree ? pk->tree : "";
}

void printk_io(const struct printk_index *pk, unsigned long *reads,
	       unsigned long *bytes)
{
	*reads = pk ? pk->reads : 0;
	*bytes = pk ? pk->bytes : 0;
}

/* load - the filter and the directory, at the first lookup */
static bool load(const struct printk_index *pk)
{
	struct printk_index *w = mut(pk);
	size_t bloom, nb, i;
	const uint32_t *dir;

	if (pk->loaded)
		return !pk->broken;
	w->loaded = true;
	bloom = (size_t)1 << (pk->h.bloom_log2 - 3);
	nb = (size_t)1 << pk->h.buckets_log2;
	w->filter = xmalloc(bloom + (nb + 1) * 4);
	if (!rd(pk, pk->h.off_bloom, bloom + (nb + 1) * 4, w->filter)) {
		damaged(w);
		return false;
	}
	dir = (const uint32_t *)(const void *)(w->filter + bloom);
	/* the buckets in order, inside the area, each a whole header */
	for (i = 0; i < nb; i++)
		if (dir[i] > dir[i + 1] || dir[i] % 8 ||
		    dir[i + 1] - dir[i] > BUCKET_READ_MAX)
			break;
	if (i < nb || dir[nb] > pk->h.area_size) {
		damaged(w);
		return false;
	}
	w->dir = dir;
	return true;
}

/* bucket - bucket bk read (kept: the least recently used goes); its size
 * in *size, NULL when empty or unreadable */
static const unsigned char *bucket(const struct printk_index *pk, uint32_t bk,
				   uint32_t *size)
{
	struct printk_index *w = mut(pk);
	struct pk_bcache *c = NULL;
	uint32_t off = pk->dir[bk], n = pk->dir[bk + 1] - off;
	size_t i;

	*size = n;
	if (n < sizeof(struct pk_bucket))
		return NULL;
	w->tick++;
	for (i = 0; i < PK_BUCKETS; i++) {
		if (pk->buckets[i].b1 == bk + 1) {
			w->buckets[i].used = w->tick;
			return pk->buckets[i].data;
		}
		if (!c || pk->buckets[i].used < c->used)
			c = &w->buckets[i];
	}
	free(c->data);
	c->data = xmalloc(n);
	c->b1 = 0;
	if (!rd(pk, (uint64_t)pk->h.off_area + off, n, c->data)) {
		damaged(w);
		return NULL;
	}
	c->b1 = bk + 1;
	c->size = n;
	c->used = w->tick;
	return c->data;
}

/* kept - format id's details, read whole for the caller (the last
 * PK_KEPT formats asked are kept) */
static const struct pk_kept *kept(const struct printk_index *pk, uint32_t id)
{
	struct printk_index *w = mut(pk);
	struct pk_kept *k;
	struct pk_format f;
	struct pk_detail dt;
	char *buf, *p, *end;
	size_t i;

	for (i = 0; i < PK_KEPT; i++)
		if (pk->kept[i].id1 == id + 1)
			return &pk->kept[i];
	if (id >= pk->h.nformats ||
	    !rd(pk, pk->h.off_formats + (uint64_t)id * sizeof(f), sizeof(f),
		&f))
		return NULL;
	if (f.size < sizeof(dt) + 2 || f.size > DETAIL_MAX ||
	    f.off > pk->h.details_size || f.size > pk->h.details_size - f.off) {
		damaged(w);
		return NULL;
	}
	buf = xmalloc(f.size + 1);
	if (!rd(pk, (uint64_t)pk->h.off_details + f.off, f.size, buf)) {
		free(buf);
		damaged(w);
		return NULL;
	}
	buf[f.size] = '\0';
	memcpy(&dt, buf, sizeof(dt));
	k = &w->kept[w->kept_next++ % PK_KEPT];
	kept_clear(k);
	k->id1 = id + 1;
	k->level = dt.level;
	k->total = dt.total;
	/* the text, the call, the paths: each ends in the detail */
	p = buf + sizeof(dt);
	end = buf + f.size;
	k->text = xstrdup(p);
	p += strlen(p) + 1;
	k->call = xstrdup(p < end ? p : "");
	p += strlen(p) + 1;
	for (i = 0; i < dt.npaths && i < PRINTK_FILES_MAX && p < end; i++) {
		k->paths[k->npaths++] = xstrdup(p);
		p += strlen(p) + 1;
	}
	free(buf);
	return k;
}

const char *printk_call(const struct printk_index *pk, uint32_t id)
{
	const struct pk_kept *k = kept(pk, id);

	return k && k->call ? k->call : "";
}

char printk_level(const struct printk_index *pk, uint32_t id)
{
	const struct pk_kept *k = kept(pk, id);

	return k ? k->level : PRINTK_UNKNOWN;
}

const char *printk_text(const struct printk_index *pk, uint32_t id)
{
	const struct pk_kept *k = kept(pk, id);

	return k && k->text ? k->text : "";
}

size_t printk_files(const struct printk_index *pk, uint32_t id,
		    const char **paths, size_t max, unsigned *total)
{
	const struct pk_kept *k = kept(pk, id);
	size_t i;

	*total = 0;
	if (!k)
		return 0;
	*total = k->total;
	for (i = 0; i < k->npaths && i < max; i++)
		paths[i] = k->paths[i];
	return i;
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

/* a line's words: their hashes, and the mask of them all */
struct line_words {
	uint32_t word[LINE_WORDS];
	size_t n;
	uint64_t mask;
};

static bool has_word(const struct line_words *lw, uint32_t h)
{
	size_t i;

	for (i = 0; i < lw->n; i++)
		if (lw->word[i] == h)
			return true;
	return false;
}

/* maybe - the filter says a format filed under the line's word k may
 * have all its words checked: the anchor is one, and a format's pair
 * (the anchor, another word of the line or none) is one */
static bool maybe(const struct printk_index *pk, const struct line_words *lw,
		  size_t k)
{
	uint32_t a = lw->word[k];
	unsigned lb = pk->h.bloom_log2;
	size_t j;

	if (!bloom_has(pk->filter, lb, key_of(a, KEY_ANCHOR)))
		return false;
	if (bloom_has(pk->filter, lb, key_of(a, 0)))
		return true;
	for (j = 0; j < lw->n; j++)
		if (j != k && bloom_has(pk->filter, lb, key_of(a, lw->word[j])))
			return true;
	return false;
}

/* try_anchor - the formats filed under the line's word k */
static size_t try_anchor(const struct printk_index *pk,
			 const struct line_words *lw, size_t k,
			 const char *line, size_t len, struct printk_hit *hits,
			 size_t nhits, size_t max, unsigned *best)
{
	uint32_t h = lw->word[k], size, i, na;
	const unsigned char *b =
		bucket(pk, bucket_of(h, pk->h.buckets_log2), &size);
	struct pk_bucket bh;
	struct pk_anchor an;
	size_t at;

	if (!b)
		return nhits;
	memcpy(&bh, b, sizeof(bh));
	na = bh.nanchors;
	if (na > (size - sizeof(bh)) / sizeof(an)) {
		damaged(mut(pk));
		return nhits;
	}
	for (i = 0; i < na; i++) {
		memcpy(&an, b + sizeof(bh) + i * sizeof(an), sizeof(an));
		if (an.hash == h)
			break;
	}
	if (i == na)
		return nhits;
	/* each entry is checked inside the bucket before it is read */
	for (at = an.off, i = 0; i < an.count; i++) {
		struct pk_entry e;
		const char *t;

		if (at > size || size - at < sizeof(e)) {
			damaged(mut(pk));
			break;
		}
		memcpy(&e, b + at, sizeof(e));
		t = (const char *)b + at + sizeof(e);
		if ((size_t)e.len + 1 > size - at - sizeof(e) || t[e.len]) {
			damaged(mut(pk));
			break;
		}
		at += (sizeof(e) + e.len + 1 + 7) & ~(size_t)7;
		/* a word of the format that the line lacks: no match */
		if ((e.mask & ~lw->mask) || (e.w2 && !has_word(lw, e.w2)) ||
		    (e.w3 && !has_word(lw, e.w3)))
			continue;
		if (e.nconst < *best || e.nconst > len ||
		    e.id >= pk->h.nformats)
			continue;
		if (matches(t, line, len))
			nhits = add_hit(hits, nhits, max, best, e.id, e.nconst);
	}
	return nhits;
}

/* printk_match - see printk.h */
size_t printk_match(const struct printk_index *pk, const char *line, size_t len,
		    struct printk_hit *hits, size_t max)
{
	struct line_words lw;
	size_t nhits = 0, i = 0, j, k, t;
	unsigned best = 0;

	if (!pk || !max || !pk->h.nformats || !load(pk))
		return 0;
	lw.n = 0;
	lw.mask = 0;
	while (i < len && lw.n < LINE_WORDS) {
		uint32_t h = FNV32_BASIS;

		if (!word_char((unsigned char)line[i])) {
			i++;
			continue;
		}
		for (j = i; j < len && word_char((unsigned char)line[j]); j++)
			h = hash_step(h, (unsigned char)line[j]);
		if (j - i >= WORD_MIN) {
			/* a word again: its formats are tried once */
			for (t = 0; t < lw.n && lw.word[t] != h; t++)
				;
			if (t == lw.n)
				lw.word[lw.n++] = h;
			lw.mask |= word_bit(h);
		}
		i = j;
	}
	for (k = 0; k < lw.n && !pk->broken; k++)
		if (maybe(pk, &lw, k))
			nhits = try_anchor(pk, &lw, k, line, len, hits, nhits,
					   max, &best);
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

	if (!pk || !max || !pk->h.nformats)
		return 0;
	sh = shape(line, len);
	for (i = 0; i < PRINTK_CACHE; i++) {
		if (!c->used[i] || c->shape[i] != sh)
			continue;
		/* what matched matches again (the numbers differ) */
		for (k = 0; k < c->n[i]; k++) {
			uint32_t id = c->hits[i][k].format;

			const struct pk_kept *kp = kept(pk, id);

			if (!kp || !kp->text || !matches(kp->text, line, len))
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
