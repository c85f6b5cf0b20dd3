// SPDX-License-Identifier: GPL-2.0-only
/*
 * crashlog_rx - the crash-log parser's compiled patterns (see
 * crashlog_int.h): compiled when first needed, or decoded from the
 * cache file 'triage update' writes, and the matching helpers
 */
#include <ctype.h>
#include <stdlib.h>
#include <unistd.h>

#include "crashlog_int.h"
#include "image.h"
#include "strbuf.h"

struct crashlog_state cl_g = { .once = PTHREAD_ONCE_INIT,
			       .lock = PTHREAD_MUTEX_INITIALIZER };

/*
 * rx_compile - compile a built-in pattern; patterns that walk lines
 * ("(?:.*\n)+?") stay with the interpreter, whose backtracking frames
 * live on the heap, the others are JIT-compiled when pcre2 can
 */
/*
 * The compiled-pattern cache: 'triage update' compiles every built-in
 * pattern once and writes each with pcre2_serialize_encode(), keyed by
 * its text; a filter process maps the file and decodes a pattern when
 * it is first asked for, instead of compiling it (compiling the
 * patterns of one crash type costs many times more).  Decoding all 340
 * at start cost every message, mostly for patterns of crash types the
 * message does not have.  Keyed by text, a cache from
 * another version of the program can only miss.
 *
 * File (native byte order; offsets from the start, 8-aligned parts):
 *	"TRIAGERX" u32 version u32 count u32 prefix u32 prefix_len
 *	u64 prefix_sum
 *	struct rxc_entry[count]		sorted by text (strcmp), unique
 *	texts, NUL-terminated
 *	prefix: what pcre2_serialize_encode() puts before the code of a
 *	single pattern (a header and 1 KB of character tables), the same
 *	for every pattern, so stored once
 *	codes: the rest of each pattern's serialisation
 * A pattern is decoded from prefix + code, put together again.  The
 * prefix and each code carry their img_sum(): pcre2_serialize_decode()
 * follows the lengths it reads, so damaged bytes must not reach it.
 */
struct rxc_entry {
	uint32_t text, text_len, code, code_len;
	uint32_t sum[2]; /* img_sum() of the code */
};

#define RXC_HEADER 32

struct rx_cached {
	char *text;
	pcre2_code *code;
};

#define RXC_BAD ((pcre2_code *)&C) /* an entry that did not decode */

static struct {
	const unsigned char *base; /* the mapped file */
	size_t size, n;		   /* bytes, entries */
	const struct rxc_entry *ent;
	const uint8_t *prefix;
	size_t prefix_len;
	pcre2_code **codes; /* decoded on first use, RXC_BAD if not */
	uint8_t *scratch;   /* the prefix, then the code being decoded */
	size_t scratch_len;
	bool recording; /* crashlog_save_patterns(): keep every compile */
	struct rx_cached *rec;
	size_t nrec, arec;
} C;

static int cmp_cached(const void *a, const void *b)
{
	return strcmp(((const struct rx_cached *)a)->text,
		      ((const struct rx_cached *)b)->text);
}

/* rxc_text - entry i's text, or NULL when the entry is damaged */
static const char *rxc_text(size_t i)
{
	const struct rxc_entry *e = &C.ent[i];

	if (e->text >= C.size || e->text_len >= C.size - e->text ||
	    C.base[e->text + e->text_len] != '\0')
		return NULL;
	return (const char *)C.base + e->text;
}

/* rxc_decode - entry i's pattern, decoded now if it was not; or NULL */
static pcre2_code *rxc_decode(size_t i)
{
	const struct rxc_entry *e = &C.ent[i];
	size_t n = C.prefix_len + e->code_len;
	uint8_t *blob;
	pcre2_code *code = NULL;

	if (C.codes[i])
		return C.codes[i] == RXC_BAD ? NULL : C.codes[i];
	C.codes[i] = RXC_BAD;
	if (!img_range_ok(C.size, e->code, e->code_len, 1, 8) ||
	    e->code_len < 16)
		return NULL;
	{
		uint64_t sum = img_sum(C.base + e->code, e->code_len);

		if (memcmp(&sum, e->sum, 8) != 0)
			return NULL;
	}
	if (n > C.scratch_len) {
		/* room for the largest code so far, after the prefix */
		free(C.scratch);
		C.scratch = xmalloc(n);
		C.scratch_len = n;
		memcpy(C.scratch, C.prefix, C.prefix_len);
	}
	blob = C.scratch;
	memcpy(blob + C.prefix_len, C.base + e->code, e->code_len);
	if (pcre2_serialize_get_number_of_codes(blob) != 1 ||
	    pcre2_serialize_decode(&code, 1, blob, NULL) != 1)
		return NULL;
	C.codes[i] = code;
	return code;
}

/* rx_cached - the precompiled pattern for re, or NULL */
static pcre2_code *rx_cached(const char *re)
{
	size_t lo = 0, hi = C.n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *t = rxc_text(mid);
		int c;

		if (!t)
			return NULL; /* damaged: compile instead */
		c = strcmp(re, t);
		if (!c)
			return rxc_decode(mid);
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

static pcre2_code *rx_compile(const char *re)
{
	int err;
	PCRE2_SIZE off;
	pcre2_code *code = rx_cached(re);

	if (code) {
		if (cl_g.jit && !strstr(re, "\\n"))
			pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);
		return code;
	}
	/* an offset limit may be set: describe()'s title search */
	code = pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED,
			     PCRE2_USE_OFFSET_LIMIT, &err, &off, NULL);
	if (!code) {
		PCRE2_UCHAR msg[256];

		pcre2_get_error_message(err, msg, sizeof(msg));
		die("crashlog: bad built-in regex at %zu (%s): %s", (size_t)off,
		    msg, re);
	}
	if (C.recording) {
		ALLOC_GROW(C.rec, C.nrec, C.arec);
		C.rec[C.nrec].text = xstrdup(re);
		C.rec[C.nrec++].code = code;
	}
	if (cl_g.jit && !strstr(re, "\\n"))
		pcre2_jit_compile(code,
				  PCRE2_JIT_COMPLETE); /* else interpret */
	return code;
}

/* top_level_alt - re has a "|" outside any group or class */
static bool top_level_alt(const char *re)
{
	int depth = 0;
	bool class = false;

	for (re = strpbrk(re, "\\[()|"); re; re = strpbrk(re + 1, "\\[()|")) {
		if (*re == '\\') {
			if (!*++re)
				break;
		} else if (*re == '[') {
			/* "[]...]" and "[^]...]": that "]" is a member */
			re += re[1] == '^';
			re += re[1] == ']';
			class = true;
		} else if (*re == '(') {
			depth++;
		} else if (*re == ')') {
			depth--;
		} else if (depth <= 0) {
			return true;
		}
		/* to the end of the class, "[:alpha:]" kept whole */
		while (class && *++re) {
			if (*re == '\\' && re[1])
				re++;
			else if (*re == '[' && re[1] == ':' && strstr(re, ":]"))
				re = strstr(re, ":]") + 1;
			else if (*re == ']')
				class = false;
		}
		if (!*re)
			break;
	}
	return false;
}

/*
 * leading_literal - the literal text every match of re starts with (the
 * patterns are compiled without options), at most cap - 1 bytes, into
 * buf; its length, 0 when there is none
 */
static size_t leading_literal(const char *re, char *buf, size_t cap)
{
	size_t n = strcspn(re, ".^$*+?()[]{}|\\");
	const char *p = re + n;

	if (n >= cap)
		n = cap - 1;
	memcpy(buf, re, n);
	while (*p == '\\' && n + 1 < cap) {
		/* an escaped punctuation byte is itself */
		if (!ispunct((unsigned char)p[1]))
			break;
		buf[n++] = p[1];
		p += 2;
		while (n + 1 < cap && *p && !strchr(".^$*+?()[]{}|\\", *p))
			buf[n++] = *p++;
	}
	/* "x?", "x*" and "x{0,..}" make the last byte optional */
	if (n && (*p == '?' || *p == '*' || *p == '{'))
		n--;
	if (n && top_level_alt(p))
		n = 0;
	buf[n] = '\0';
	return n;
}

static void pat_compile(struct pat *p, const char *re)
{
	const char *cut;
	char *buf = xstrdup(re), *part = buf;

	p->nseg = 0;
	p->litlen = 0;
	while ((cut = strstr(part, LINES)) && p->nseg + 1 < PAT_SEGS) {
		char *anchored;

		buf[cut - buf] = '\0';
		if (!p->nseg)
			p->litlen =
				leading_literal(part, p->lit, sizeof(p->lit));
		anchored = p->nseg ? xasprintf("^%s", part) : xstrdup(part);
		p->seg[p->nseg++] = rx_compile(anchored);
		free(anchored);
		part = (char *)cut + strlen(LINES);
	}
	if (p->nseg) {
		size_t n = strlen(part);
		char *anchored;

		/* a final "\n" is the end of that line */
		if (n >= 2 && !strcmp(part + n - 2, "\\n"))
			strcpy(part + n - 2, "$");
		anchored = xasprintf("^%s", part);

		p->seg[p->nseg++] = rx_compile(anchored);
		free(anchored);
	} else {
		p->litlen = leading_literal(part, p->lit, sizeof(p->lit));
		p->seg[p->nseg++] = rx_compile(part);
	}
	for (size_t i = 0; i < p->nseg; i++)
		p->ngroups[i] = rx_groups(p->seg[i]);
	free(buf);
}

static void compile_stack(struct stack_def *st)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(st->parts) && st->parts[i]; i++)
		st->p[i] = strcmp(st->parts[i], STACK)
				   ? rx_compile(st->parts[i])
				   : NULL;
	st->np = i;
	for (i = 0; i < ARRAY_SIZE(st->parts2) && st->parts2[i]; i++)
		st->p2[i] = strcmp(st->parts2[i], STACK)
				    ? rx_compile(st->parts2[i])
				    : NULL;
	st->np2 = i;
	for (i = 0; i < ARRAY_SIZE(st->skip) && st->skip[i]; i++)
		;
	litset_init(&st->skipset, false);
	litset_add_all(&st->skipset, st->skip, i, 0);
}

static void crashlog_init(void)
{
	size_t i, n;

	cl_g.mctx = pcre2_match_context_create(NULL);
	if (!cl_g.mctx)
		die("crashlog: out of memory");
	pcre2_set_match_limit(cl_g.mctx, MATCH_LIMIT);
	pcre2_set_depth_limit(cl_g.mctx, DEPTH_LIMIT);

	litset_init(&cl_g.lineset, false);
	BUILD_ASSERT(ARRAY_SIZE(cl_oopses) <= 32);
	for (i = 0, n = 0; i < ARRAY_SIZE(cl_oopses); i++)
		n += cl_oopses[i].nfmts;
	cl_g.title_re = xcalloc(n, sizeof(*cl_g.title_re));
	cl_g.report_re = xcalloc(n, sizeof(*cl_g.report_re));
	for (i = 0, n = 0; i < ARRAY_SIZE(cl_oopses); i++) {
		struct oops_def *o = &cl_oopses[i];

		litset_add(&cl_g.lineset, o->header, (unsigned)i);
		o->base = n;
		n += o->nfmts;
	}
	litset_init(&cl_g.generic, false);
	litset_add_all(&cl_g.generic, cl_generic_frames, cl_ngeneric_frames, 0);
	litset_init(&cl_g.anchors, false);
	litset_add_all(&cl_g.anchors, cl_stall_anchors, cl_nstall_anchors, 0);
	litset_init(&cl_g.hang, false);
	litset_add_all(&cl_g.hang, cl_hang_skips, cl_nhang_skips, 0);
	litset_add(&cl_g.lineset,
		   "Disabling lock debugging due to kernel taint",
		   MK_DISABLING);
	litset_add(&cl_g.lineset, "Sending NMI from CPU", MK_NMI);
	litset_add(&cl_g.lineset, "Kernel panic - not syncing", MK_PANIC);
	litset_add(&cl_g.lineset,
		   "WARNING: possible circular locking dependency detected",
		   MK_CIRCULAR);
	litset_add_all(&cl_g.lineset, cl_info_with_stack, cl_ninfo_with_stack,
		       MK_INFO_STACK);
	litset_add_all(&cl_g.lineset, cl_report_start_ignores,
		       cl_nreport_start_ignores, MK_START_IGNORE);
	litset_add(&cl_g.lineset, "should_fail", MK_SHOULD_FAIL);
	litset_add_all(&cl_g.lineset, cl_stack_start_literals,
		       cl_nstack_start_literals, MK_STACK_START);
	litset_add_all(&cl_g.lineset, cl_frame_stops, cl_nframe_stops,
		       MK_FRAME_STOP);
	litset_add(&cl_g.lineset, "---[ end trace", MK_END_TRACE);
	litset_add(&cl_g.lineset, ") from ", MK_ARM_FROM);
	litset_add(&cl_g.lineset, "irqs", MK_IGN_IRQ);
	litset_add(&cl_g.lineset, "Register r", MK_IGN_REG);
	litset_add(&cl_g.lineset, ", at: ", MK_IGN_AT);
}

/*
 * A process started per message cannot afford to compile (let alone
 * JIT) some 200 patterns it mostly never uses.  Patterns of a crash
 * type are compiled when a header of that type is seen, the stack and
 * title patterns when a crash is being described.
 */

/* cl_ensure_oops - compile the patterns of one crash type */
void cl_ensure_oops(const struct oops_def *co)
{
	struct oops_def *o = (struct oops_def *)co;
	size_t j;

	if (__atomic_load_n(&o->compiled, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&cl_g.lock);
	if (!o->compiled) {
		for (j = 0; j < ARRAY_SIZE(o->suppress) && o->suppress[j]; j++)
			o->supp[j] = rx_compile(o->suppress[j]);
		o->nsupp = j;
		for (j = 0; j < o->nfmts; j++) {
			struct fmt_def *f = &o->fmts[j];

			pat_compile(&cl_g.title_re[o->base + j], f->title);
			if (f->report)
				pat_compile(&cl_g.report_re[o->base + j],
					    f->report);
			if (f->stack && !f->stack->np)
				compile_stack(f->stack);
		}
		__atomic_store_n(&o->compiled, true, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&cl_g.lock);
}

/* cl_ensure_common - compile the patterns every crash description uses */
void cl_ensure_common(void)
{
	size_t i;

	if (__atomic_load_n(&cl_g.common, __ATOMIC_ACQUIRE))
		return;
	pthread_mutex_lock(&cl_g.lock);
	if (!cl_g.common) {
		for (i = 0; i < ARRAY_SIZE(cl_stack_starts); i++)
			cl_g.stack_start[i] = rx_compile(cl_stack_starts[i]);
		for (i = 0; i < ARRAY_SIZE(cl_frame_res); i++)
			cl_g.frame_re[i] = rx_compile(cl_frame_res[i]);
		for (i = 0; i < ARRAY_SIZE(cl_title_rewrites); i++)
			cl_g.rewrite[i] = rx_compile(cl_title_rewrites[i].re);
		for (i = 0; i < ARRAY_SIZE(cl_guilty_line_ignores); i++)
			cl_g.line_ignore[i] =
				rx_compile(cl_guilty_line_ignores[i]);
		/* fault injection stacks get mixed into crash reports */
		cl_g.corrupted_line = rx_compile(
			"^( \\[\\<?(?:0x)?[0-9a-f]+\\>?\\])? should_fail(slab)?(\\.[a-z0-9.]+)?\\+0x");
		__atomic_store_n(&cl_g.common, true, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&cl_g.lock);
}

/* crashlog_use_jit - JIT-compile patterns (for resident processes) */
void crashlog_use_jit(bool on)
{
	cl_g.jit = on;
}

void cl_init_once(void)
{
	if (pthread_once(&cl_g.once, crashlog_init))
		die("crashlog: pthread_once failed");
}

/* ---- matching helpers ------------------------------------------------ */

/*
 * cl_rx_search_before - the first match of re in s[0..len) that starts at
 * or before offset before: the same as rx_search() when the first
 * match starts there, no match when it starts later, but the search
 * stops at before instead of running to the end of the text
 */
bool cl_rx_search_before(struct rx *x, const pcre2_code *re, const char *s,
			 size_t len, size_t before, size_t from)
{
	uint32_t opts = 0;

	pcre2_pattern_info(re, PCRE2_INFO_ARGOPTIONS, &opts);
	if (before >= len || !(opts & PCRE2_USE_OFFSET_LIMIT))
		return rx_search(x, re, s, len, from);
	if (!x->lim) {
		x->lim = pcre2_match_context_copy(cl_g.mctx);
		if (!x->lim)
			die("crashlog: out of memory");
	}
	pcre2_set_offset_limit(x->lim, before);
	return pcre2_match(re, (PCRE2_SPTR)s, len, from, 0, x->md, x->lim) >= 0;
}

static void pm_groups(struct rx *x, const pcre2_code *re, size_t base,
		      struct pmatch *m)
{
	PCRE2_SIZE *ov = rx_ov(x);
	uint32_t g, n = rx_groups(re);

	for (g = 1; g <= n && m->ngroups < MAX_ARGS; g++, m->ngroups++) {
		m->set[m->ngroups] = ov[2 * g] != PCRE2_UNSET;
		if (m->set[m->ngroups]) {
			m->gs[m->ngroups] = base + ov[2 * g];
			m->ge[m->ngroups] = base + ov[2 * g + 1];
		}
	}
}

/*
 * cl_mem_find - memmem(s, len, lit, n), looking for its byte at k (one
 * rare in text) with memchr(): memmem()'s setup costs more than a short
 * console line
 */
const char *cl_mem_find(const char *s, size_t len, const char *lit, size_t n,
			size_t k)
{
	const char *p = s + k, *end = s + len;

	if (len < n)
		return NULL;
	while ((p = memchr(p, lit[k], (size_t)(end - p)))) {
		const char *at = p - k;

		if ((size_t)(end - at) < n)
			return NULL;
		if (!memcmp(at, lit, n))
			return at;
		p++;
	}
	return NULL;
}

void cl_occ_find(struct occ *oc, const char *h, const char *s, size_t len)
{
	const char *p = s, *q;
	size_t k = 0;

	oc->h = h;
	oc->hlen = strlen(h);
	oc->n = 0;
	oc->complete = false;
	if (!oc->hlen)
		return;
	/* an upper-case letter is rarer in a log than most */
	while (k + 1 < oc->hlen && !isupper((unsigned char)h[k]))
		k++;
	if (!isupper((unsigned char)h[k]))
		k = 0;
	while ((q = cl_mem_find(p, len - (size_t)(p - s), h, oc->hlen, k))) {
		if (oc->n == OCC_MAX)
			return;
		oc->pos[oc->n++] = (size_t)(q - s);
		p = q + 1;
	}
	oc->complete = true;
}

/*
 * seg0_search - cl_rx_search_before() of p->seg[0], whose matches all start
 * with p->lit.  Where oc holds every occurrence of a header the literal
 * starts with, the pattern is tried at each occurrence of the literal,
 * in order, as the search would (PCRE2_ANCHORED at that offset: the same
 * attempt, the subject kept whole for what is looked behind at), instead
 * of at every position from the start; else the search starts at the
 * literal's first occurrence.  No match starts after before.
 */
static bool seg0_search(struct rx *x, const struct pat *p, const char *s,
			size_t len, size_t before, const struct occ *oc)
{
	size_t lim, k;
	const char *h;

	if (!p->litlen)
		return cl_rx_search_before(x, p->seg[0], s, len, before, 0);
	lim = before < len ? before + p->litlen : len;
	if (lim > len)
		lim = len;
	if (!oc || !oc->complete || p->litlen < oc->hlen ||
	    memcmp(p->lit, oc->h, oc->hlen)) {
		h = memmem(s, lim, p->lit, p->litlen);
		return h && cl_rx_search_before(x, p->seg[0], s, len, before,
						(size_t)(h - s));
	}
	for (k = 0; k < oc->n && oc->pos[k] + p->litlen <= lim; k++) {
		int rc;

		if (memcmp(s + oc->pos[k], p->lit, p->litlen))
			continue;
		rc = pcre2_match(p->seg[0], (PCRE2_SPTR)s, len, oc->pos[k],
				 PCRE2_ANCHORED, x->md, cl_g.mctx);
		if (rc >= 0)
			return true;
		/* a limit reached ends the search, as it would */
		if (rc != PCRE2_ERROR_NOMATCH)
			return false;
	}
	return false;
}

/*
 * cl_pat_search_before - the first match of p in s, when its first line
 * starts at or before offset before; its start and groups.  oc, if not
 * NULL, holds the occurrences of a header in s.
 */
bool cl_pat_search_before(struct rx *x, const struct pat *p, const char *s,
			  size_t len, size_t before, const struct occ *oc,
			  struct pmatch *m)
{
	size_t i, pos;

	m->ngroups = 0;
	if (!seg0_search(x, p, s, len, before, oc))
		return false;
	m->start = rx_ov(x)[0];
	pos = rx_ov(x)[1];
	pm_groups(x, p->seg[0], 0, m);
	for (i = 1; i < p->nseg; i++) {
		const char *nl = memchr(s + pos, '\n', len - pos);
		bool found = false;

		/* at least one newline: the next segment is on a later line */
		if (!nl)
			return false;
		pos = (size_t)(nl - s) + 1;
		while (pos <= len && !found) {
			const char *e = memchr(s + pos, '\n', len - pos);
			size_t ll = e ? (size_t)(e - (s + pos)) : len - pos;

			if (rx_search(x, p->seg[i], s + pos, ll, 0)) {
				pm_groups(x, p->seg[i], pos, m);
				pos += rx_ov(x)[1];
				found = true;
			} else if (!e) {
				break;
			} else {
				pos += ll + 1;
			}
		}
		if (!found)
			return false;
	}
	return true;
}

#define RXC_MAGIC   "TRIAGERX"
#define RXC_VERSION 4 /* 3: PCRE2_USE_OFFSET_LIMIT; 4: sums */
#define RXC_MAX	    (64u << 20)

/*
 * crashlog_save_patterns - compile every built-in pattern and write them
 * to path for crashlog_load_patterns(); -1 after printing
 */
int crashlog_save_patterns(const char *path)
{
	struct strbuf out = STRBUF_INIT(RXC_MAX);
	struct rxc_entry *ent = NULL;
	uint8_t **blobs = NULL;
	PCRE2_SIZE *blens = NULL, plen = 0;
	uint32_t u, prefix;
	size_t i, n = 0, off;
	int ret = -1;

	cl_init_once();
	pthread_mutex_lock(&cl_g.lock);
	C.recording = true;
	pthread_mutex_unlock(&cl_g.lock);
	/* The cache must not answer while we record: compile afresh. */
	for (i = 0; i < ARRAY_SIZE(cl_oopses); i++)
		cl_ensure_oops(&cl_oopses[i]);
	cl_ensure_common();
	C.recording = false;
	/* written sorted and unique, so that loading need not sort */
	qsort(C.rec, C.nrec, sizeof(*C.rec), cmp_cached);
	ent = xcalloc(C.nrec + 1, sizeof(*ent));
	blobs = xcalloc(C.nrec + 1, sizeof(*blobs));
	blens = xcalloc(C.nrec + 1, sizeof(*blens));
	for (i = 0; i < C.nrec; i++) {
		const pcre2_code *one = C.rec[i].code;

		if (n && !strcmp(C.rec[i].text, C.rec[i - 1].text))
			continue;
		size_t size = 0;

		if (pcre2_serialize_encode(&one, 1, &blobs[n], &blens[n],
					   NULL) < 0 ||
		    pcre2_pattern_info(one, PCRE2_INFO_SIZE, &size) < 0 ||
		    size >= blens[n] ||
		    (n && (blens[n] - size != plen ||
			   memcmp(blobs[n], blobs[0], plen)))) {
			n += blobs[n] != NULL;
			error("cannot serialise the crash-log patterns");
			goto out;
		}
		plen = blens[n] - size;
		ent[n++].text_len = (uint32_t)strlen(C.rec[i].text);
	}
	off = RXC_HEADER + n * sizeof(*ent);
	for (i = 0; i < n; i++) {
		ent[i].text = (uint32_t)off;
		off += ent[i].text_len + 1;
	}
	off = img_align8(off);
	prefix = (uint32_t)off;
	off += plen;
	for (i = 0; i < n; i++) {
		uint64_t sum = img_sum(blobs[i] + plen, blens[i] - plen);

		off = img_align8(off);
		ent[i].code = (uint32_t)off;
		ent[i].code_len = (uint32_t)(blens[i] - plen);
		memcpy(ent[i].sum, &sum, 8);
		off += ent[i].code_len;
	}
	if (off > RXC_MAX) {
		error("crash-log patterns: too large");
		goto out;
	}
	sb_add(&out, RXC_MAGIC, 8);
	u = RXC_VERSION;
	sb_add(&out, &u, 4);
	u = (uint32_t)n;
	sb_add(&out, &u, 4);
	sb_add(&out, &prefix, 4);
	u = (uint32_t)plen;
	sb_add(&out, &u, 4);
	{
		uint64_t sum = img_sum(n ? blobs[0] : (uint8_t *)"", plen);

		sb_add(&out, &sum, 8);
	}
	sb_add(&out, ent, n * sizeof(*ent));
	/* the texts, in entry order */
	for (i = 0; i < C.nrec; i++) {
		if (i && !strcmp(C.rec[i].text, C.rec[i - 1].text))
			continue;
		sb_add(&out, C.rec[i].text, strlen(C.rec[i].text) + 1);
	}
	if (n)
		img_place(&out, blobs[0], plen, "crash-log pattern file");
	for (i = 0; i < n; i++)
		img_place(&out, blobs[i] + plen, blens[i] - plen,
			  "crash-log pattern file");
	ret = write_file_atomic(path, out.buf, out.len, 0644);
out:
	for (i = 0; i < n; i++)
		pcre2_serialize_free(blobs[i]);
	free(blobs);
	free(blens);
	free(ent);
	sb_release(&out);
	return ret;
}

/*
 * crashlog_load_patterns - use the patterns compiled into path; a file
 * that is absent, damaged or from another pcre2 is ignored (patterns
 * are then compiled as needed); returns the number of patterns the
 * file offers (each is decoded when first needed, and compiled after
 * all if its entry turns out damaged)
 */
size_t crashlog_load_patterns(const char *path)
{
	size_t size, count;
	uint32_t u, prefix, plen;
	uint64_t sum;
	unsigned char *p;

	if (C.n || access(path, R_OK) != 0)
		return C.n;
	p = img_map(path, "crash-log pattern file", RXC_HEADER, RXC_MAX, &size);
	if (!p)
		return 0;
	memcpy(&u, p + 8, 4);
	count = 0;
	if (memcmp(p, RXC_MAGIC, 8) || u != RXC_VERSION)
		goto bad;
	memcpy(&u, p + 12, 4);
	memcpy(&prefix, p + 16, 4);
	memcpy(&plen, p + 20, 4);
	memcpy(&sum, p + 24, 8);
	if (!u || u > 100000 ||
	    (size - RXC_HEADER) / sizeof(struct rxc_entry) < u ||
	    !img_range_ok(size, prefix, plen, 1, 8) || plen < 16 ||
	    img_sum(p + prefix, plen) != sum)
		goto bad;
	count = u;
	C.base = p;
	C.size = size;
	C.ent = (const struct rxc_entry *)(p + RXC_HEADER);
	C.prefix = p + prefix;
	C.prefix_len = plen;
	C.codes = xcalloc(count, sizeof(*C.codes));
	C.n = count;
	return C.n;
bad:
	/* Not an error: the patterns are compiled as they are needed. */
	img_unmap(p, size);
	return 0;
}
