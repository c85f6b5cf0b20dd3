// SPDX-License-Identifier: GPL-2.0-only
/*
 * symbols - kernel function name -> defining source files (see symbols.h)
 *
 * The index (format 2) is a header, then 8-byte aligned arrays, then
 * the blocks, 4096-byte aligned:
 *
 *	top      uint32_t[nblocks] offsets of the separators, then the
 *	         separators, NUL-terminated: block i holds the names n
 *	         with sep[i] <= n < sep[i + 1] (strcmp order); sep[0] is
 *	         "", the others the shortest prefix of the block's first
 *	         name that is greater than the last name of the block
 *	         before
 *	over     the refs of names with more than INLINE_REFS files
 *	paths    NUL-terminated: the files' paths
 *	blocks   nblocks x 4096 bytes: a uint16_t count, then the names
 *	         in order, front-coded, each with its refs; zero padding
 *
 * An entry: the length it shares with the name before in its block
 * (uint8_t, 0 for the first), the length of the rest (uint8_t), the
 * rest, a count (uint8_t): up to INLINE_REFS, the refs follow; else
 * REFS_MANY, the count (uint32_t) and the offset in over (uint32_t) of
 * all the refs, and the first FIRST_REFS of them.  A ref is the path's
 * offset in paths (uint32_t) and the rank (uint8_t), best first.
 *
 * A lookup costs a binary search of the separators (read once by the
 * pread() reader), one block and one path: with pread(), one read each
 * (the last block read and the paths returned are kept).
 *
 * Building walks the tree once, scans the files on a few threads (each
 * file is read whole and scanned by a hand-written state machine that
 * only tokenises at file scope and skips function bodies by counting
 * braces), then sorts all (name, rank, file) records once.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "image.h"
#include "strbuf.h"
#include "symbols.h"
#include "util.h"

#define SYM_MAGIC   "TRIAGESY"
#define SYM_VERSION 2
#define SYM_ENDIAN  0x01020304u

#define NAME_MAX_LEN  255
#define FILE_MAX_SIZE (64u << 20)
#define COND_MAX      64
#define MAX_THREADS   8

/* The index's blocks (see the layout above). */
#define BLOCK_SIZE   4096u
#define INLINE_REFS  8	  /* up to this many refs: all in the entry */
#define FIRST_REFS   2	  /* more: the first two, the rest in over */
#define REF_BYTES    5	  /* uint32_t path offset, uint8_t rank */
#define REFS_MANY    0xff /* the count byte of an entry with more */
#define RESTART	     16	  /* every 16th entry of a block is whole */
#define PATH_READ    256  /* pread(): the first read of a path */
#define PATH_MAX_LEN 4096

/* Ranking levels (symbols.h): lower is better. */
enum {
	LEVEL_C,      /* .c file, generic or x86 */
	LEVEL_HEADER, /* header, generic or x86 */
	LEVEL_WEAK,   /* __weak, generic or x86 */
	LEVEL_ARCH,   /* another architecture */
	LEVEL_OTHER,  /* tools/, scripts/, samples/, Documentation/, usr/ */
};

struct img_header {
	char magic[8];
	uint32_t version, endian, size, flags;
	uint32_t nnames, nrefs, nfiles; /* figures */
	uint32_t nblocks, block_size;
	uint32_t off_top, top_size; /* the separators */
	uint32_t off_over, over_size;
	uint32_t off_paths, paths_size;
	uint32_t off_blocks;
	uint32_t scanned; /* files scanned when it was built */
};

/* an entry found in a block: its refs (copied: blocks are reused) */
struct entry {
	uint32_t nrefs, over; /* over: offset of all the refs, if many */
	unsigned ninline;
	unsigned char refs[INLINE_REFS * REF_BYTES];
};

struct kept {
	uint32_t off; /* in the paths */
	char *path;
};

struct symbols {
	unsigned char *base; /* the mapped file; NULL: read with pread() */
	size_t size;
	int fd; /* symbols_open_pread(): the open file */
	struct img_header hdr;
	const struct img_header *h;
	bool warned;
	const unsigned char *top; /* the separators (pread: read once) */
	unsigned char *top_buf;
	unsigned char *block; /* pread(): the last block read */
	int64_t block_no;
	struct kept *kept; /* pread(): the paths lookups returned */
	size_t nkept, kept_alloc;
};

/* ---- the scanner ----------------------------------------------------- */

/*
 * Function-defining macros.  name is exact, or ends in '#' (one digit)
 * or '*' (any rest).  gen lists the names made, '%' standing for the
 * argument arg.  body: the macro is followed by a function body;
 * otherwise it defines its functions by itself (and usually ends in ";").
 */
struct macro {
	const char *name;
	bool body;
	unsigned arg;
	unsigned flags;
	const char *gen[12];
};

#define SYS_NAMES                                                           \
	"sys_%", "__do_sys_%", "__se_sys_%", "__x64_sys_%", "__ia32_sys_%", \
		"__arm64_sys_%"
#define COMPAT_NAMES                                              \
	"compat_sys_%", "__do_compat_sys_%", "__se_compat_sys_%", \
		"__ia32_compat_sys_%", "__x64_compat_sys_%",      \
		"__arm64_compat_sys_%"

/* trace events: the tracepoint, and the class's event functions */
#define TRACEPOINT_NAMES "trace_%", "__traceiter_%"
#define CLASS_NAMES	 "trace_event_raw_event_%", "perf_trace_%"
#define EVENT_NAMES	 TRACEPOINT_NAMES, CLASS_NAMES

static const struct macro macros[] = {
	{ "SYSCALL_DEFINE#", true, 0, 0, { SYS_NAMES } },
	{ "COMPAT_SYSCALL_DEFINE#", true, 0, 0, { COMPAT_NAMES } },
	/* either, depending on the configuration */
	{ "SYSCALL32_DEFINE#", true, 0, 0, { SYS_NAMES, COMPAT_NAMES } },
	{ "PPC32_SYSCALL_DEFINE#", true, 0, 0, { SYS_NAMES, COMPAT_NAMES } },
	{ "BPF_CALL_#", true, 0, 0, { "%", "____%" } },
	{ "NOTRACE_BPF_CALL_#", true, 0, 0, { "%", "____%" } },
	/* x86 arch/x86/include/asm/idtentry.h */
	{ "DEFINE_IDTENTRY", true, 0, 0, { "%", "__%" } },
	{ "DEFINE_IDTENTRY_SW", true, 0, 0, { "%", "__%" } },
	{ "DEFINE_IDTENTRY_ERRORCODE", true, 0, 0, { "%", "__%" } },
	{ "DEFINE_IDTENTRY_IRQ", true, 0, 0, { "%", "__%" } },
	{ "DEFINE_IDTENTRY_SYSVEC", true, 0, 0, { "%", "__%" } },
	{ "DEFINE_IDTENTRY_SYSVEC_SIMPLE", true, 0, 0, { "%", "__%" } },
	{ "DEFINE_IDTENTRY_NOIST", true, 0, 0, { "noist_%" } },
	{ "DEFINE_IDTENTRY_MCE_USER", true, 0, 0, { "noist_%" } },
	{ "DEFINE_IDTENTRY_DEBUG_USER", true, 0, 0, { "noist_%" } },
	{ "DEFINE_IDTENTRY_VC_KERNEL", true, 0, 0, { "kernel_%" } },
	{ "DEFINE_IDTENTRY_VC_USER", true, 0, 0, { "user_%" } },
	{ "DEFINE_IDTENTRY_*", true, 0, 0, { "%" } },
	{ "DEFINE_FREDENTRY_*", true, 0, 0, { "fred_%" } },
	/* powerpc arch/powerpc/include/asm/interrupt.h */
	{ "DEFINE_INTERRUPT_HANDLER*", true, 0, 0, { "%", "____%" } },
	{ "CLOSURE_CALLBACK", true, 0, 0, { "%" } },
	{ "BUILD_TRAP_HANDLER", true, 0, 0, { "%_trap_handler" } },
	{ "DECLARE_TASK_FUNC", true, 0, SYM_STATIC, { "%" } },
	{ "DECLARE_RTL_COND", true, 0, SYM_STATIC, { "%_check" } },
	{ "META_COLLECTOR", true, 0, SYM_STATIC, { "meta_%" } },
	/* without a body */
	{ "DEFINE_SHOW_ATTRIBUTE", false, 0, SYM_STATIC, { "%_open" } },
	{ "DEFINE_SHOW_STORE_ATTRIBUTE", false, 0, SYM_STATIC, { "%_open" } },
	{ "DEFINE_SEQ_ATTRIBUTE", false, 0, SYM_STATIC, { "%_open" } },
	{ "DEFINE_SIMPLE_ATTRIBUTE", false, 0, SYM_STATIC, { "%_open" } },
	{ "DEFINE_SIMPLE_ATTRIBUTE_SIGNED",
	  false,
	  0,
	  SYM_STATIC,
	  { "%_open" } },
	{ "DEFINE_DEBUGFS_ATTRIBUTE", false, 0, SYM_STATIC, { "%_open" } },
	{ "DEFINE_DEBUGFS_ATTRIBUTE_SIGNED",
	  false,
	  0,
	  SYM_STATIC,
	  { "%_open" } },
	{ "TRACE_EVENT", false, 0, 0, { EVENT_NAMES } },
	{ "TRACE_EVENT_CONDITION", false, 0, 0, { EVENT_NAMES } },
	{ "TRACE_EVENT_FN", false, 0, 0, { EVENT_NAMES } },
	{ "TRACE_EVENT_FN_COND", false, 0, 0, { EVENT_NAMES } },
	{ "DECLARE_EVENT_CLASS", false, 0, 0, { CLASS_NAMES } },
	{ "DEFINE_EVENT", false, 1, 0, { TRACEPOINT_NAMES } },
	{ "DEFINE_EVENT_FN", false, 1, 0, { TRACEPOINT_NAMES } },
	{ "DEFINE_EVENT_CONDITION", false, 1, 0, { TRACEPOINT_NAMES } },
	{ "DEFINE_EVENT_PRINT", false, 1, 0, { TRACEPOINT_NAMES } },
};

/* Words with a meaning to the scanner, by class. */
enum {
	KW_NOT_NAME = 1 << 0, /* cannot name a function before "(" */
	KW_TRAILING = 1 << 1, /* may follow the parameters, before "{" */
	KW_STATIC = 1 << 2,
	KW_WEAK = 1 << 3, /* __weak */
	KW_EXTERN = 1 << 4,
	KW_ATTRIBUTE = 1 << 5, /* __attribute__ */
	KW_WEAK_ATTR = 1 << 6, /* weak inside __attribute__(()) */
};

struct keyword {
	const char *word;
	unsigned cls;
};

static const struct keyword keywords[] = {
	{ "if", KW_NOT_NAME },
	{ "for", KW_NOT_NAME },
	{ "while", KW_NOT_NAME },
	{ "switch", KW_NOT_NAME },
	{ "return", KW_NOT_NAME },
	{ "sizeof", KW_NOT_NAME },
	{ "typeof", KW_NOT_NAME },
	{ "__typeof__", KW_NOT_NAME },
	{ "__typeof", KW_NOT_NAME },
	{ "_Alignof", KW_NOT_NAME },
	{ "alignof", KW_NOT_NAME },
	{ "__alignof__", KW_NOT_NAME },
	{ "_Alignas", KW_NOT_NAME },
	{ "_Static_assert", KW_NOT_NAME },
	{ "static_assert", KW_NOT_NAME },
	{ "_Generic", KW_NOT_NAME },
	{ "do", KW_NOT_NAME },
	{ "else", KW_NOT_NAME },
	{ "case", KW_NOT_NAME },
	{ "default", KW_NOT_NAME },
	{ "goto", KW_NOT_NAME },
	{ "defined", KW_NOT_NAME },
	{ "asm", KW_NOT_NAME | KW_TRAILING },
	{ "__asm__", KW_NOT_NAME },
	{ "__asm", KW_NOT_NAME },
	{ "volatile", KW_NOT_NAME },
	{ "__volatile__", KW_NOT_NAME },
	{ "int", KW_NOT_NAME },
	{ "void", KW_NOT_NAME },
	{ "char", KW_NOT_NAME },
	{ "long", KW_NOT_NAME },
	{ "short", KW_NOT_NAME },
	{ "unsigned", KW_NOT_NAME },
	{ "signed", KW_NOT_NAME },
	{ "float", KW_NOT_NAME },
	{ "double", KW_NOT_NAME },
	{ "_Bool", KW_NOT_NAME },
	{ "bool", KW_NOT_NAME },
	{ "struct", KW_NOT_NAME },
	{ "union", KW_NOT_NAME },
	{ "enum", KW_NOT_NAME },
	{ "const", KW_NOT_NAME | KW_TRAILING },
	{ "static", KW_NOT_NAME | KW_STATIC },
	{ "extern", KW_NOT_NAME | KW_EXTERN },
	{ "inline", KW_NOT_NAME | KW_TRAILING },
	{ "register", KW_NOT_NAME },
	{ "auto", KW_NOT_NAME },
	{ "typedef", KW_NOT_NAME },
	{ "restrict", KW_NOT_NAME },
	{ "__restrict", KW_NOT_NAME },
	{ "noinline", KW_TRAILING },
	{ "notrace", KW_TRAILING },
	{ "noinstr", KW_TRAILING },
	{ "__weak", KW_WEAK },
	{ "weak", KW_WEAK_ATTR },
	{ "__weak__", KW_WEAK_ATTR },
	/* attributes that take arguments */
	{ "__attribute__", KW_NOT_NAME | KW_ATTRIBUTE },
	{ "__attribute", KW_NOT_NAME | KW_ATTRIBUTE },
	{ "__printf", KW_NOT_NAME },
	{ "__scanf", KW_NOT_NAME },
	{ "__section", KW_NOT_NAME },
	{ "__aligned", KW_NOT_NAME },
	{ "__alloc_size", KW_NOT_NAME },
	{ "__realloc_size", KW_NOT_NAME },
	{ "__acquires", KW_NOT_NAME },
	{ "__releases", KW_NOT_NAME },
	{ "__must_hold", KW_NOT_NAME },
	{ "__cond_acquires", KW_NOT_NAME },
	{ "__cond_releases", KW_NOT_NAME },
	{ "__assume_aligned", KW_NOT_NAME },
	{ "__cleanup", KW_NOT_NAME },
	{ "__diagnose_as", KW_NOT_NAME },
	{ "__counted_by", KW_NOT_NAME },
	{ "__alias", KW_NOT_NAME },
	{ "__copy", KW_NOT_NAME },
	{ "__compiletime_error", KW_NOT_NAME },
	{ "__compiletime_warning", KW_NOT_NAME },
	{ "__nocapture", KW_NOT_NAME },
	{ "__free", KW_NOT_NAME },
	{ "__no_sanitize", KW_NOT_NAME },
	/* not functions: kernel/bpf/verifier.c */
	{ "BTF_TYPE_SAFE_TRUSTED", KW_NOT_NAME },
	{ "BTF_TYPE_SAFE_RCU", KW_NOT_NAME },
	{ "BTF_TYPE_SAFE_RCU_OR_NULL", KW_NOT_NAME },
	{ "BTF_TYPE_SAFE_TRUSTED_OR_NULL", KW_NOT_NAME },
};

#define KW_SLOTS 512 /* power of two, over three times the keywords */

static uint16_t kw_slot[KW_SLOTS]; /* keyword index + 1, 0 when empty */
static uint8_t kw_len[ARRAY_SIZE(keywords)];
static pthread_once_t kw_once = PTHREAD_ONCE_INIT;

static uint32_t kw_hash(const char *w, size_t n)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)w[i];
		h *= 16777619u;
	}
	return h;
}

static void kw_init(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keywords); i++) {
		size_t n = strlen(keywords[i].word);
		uint32_t h = kw_hash(keywords[i].word, n) & (KW_SLOTS - 1);

		kw_len[i] = (uint8_t)n;
		while (kw_slot[h])
			h = (h + 1) & (KW_SLOTS - 1);
		kw_slot[h] = (uint16_t)(i + 1);
	}
}

/* kw_class - KW_* of a word, 0 for an ordinary identifier */
static unsigned kw_class(const char *w, size_t n)
{
	uint32_t h;

	if (n < 2 || n > 32)
		return 0;
	h = kw_hash(w, n) & (KW_SLOTS - 1);
	while (kw_slot[h]) {
		size_t i = kw_slot[h] - 1u;

		if (kw_len[i] == n && memcmp(keywords[i].word, w, n) == 0)
			return keywords[i].cls;
		h = (h + 1) & (KW_SLOTS - 1);
	}
	return 0;
}

static bool word_is(const char *w, size_t n, const char *s)
{
	return strncmp(w, s, n) == 0 && s[n] == '\0';
}

static bool valid_name(const char *w, size_t n)
{
	return n <= NAME_MAX_LEN && !(kw_class(w, n) & KW_NOT_NAME);
}

/* attr_like - may this word stand between parameters and body? */
static bool attr_like(const char *w, size_t n)
{
	return (n > 2 && w[0] == '_' && w[1] == '_') ||
	       (kw_class(w, n) & KW_TRAILING);
}

/* is_macro_name - all capitals, digits and "_" (a macro by convention) */
static bool is_macro_name(const char *w, size_t n)
{
	bool upper = false;
	size_t i;

	for (i = 0; i < n; i++) {
		if (w[i] >= 'A' && w[i] <= 'Z')
			upper = true;
		else if (!(w[i] >= '0' && w[i] <= '9') && w[i] != '_')
			return false;
	}
	return upper;
}

static const struct macro *find_macro(const char *w, size_t n, bool body)
{
	size_t i;

	if (n < 8 || !is_macro_name(w, n))
		return NULL;
	for (i = 0; i < ARRAY_SIZE(macros); i++) {
		const struct macro *m = &macros[i];
		size_t k = strlen(m->name);

		if (m->body != body)
			continue;
		if (m->name[k - 1] == '#') {
			if (n == k && strncmp(w, m->name, k - 1) == 0 &&
			    w[k - 1] >= '0' && w[k - 1] <= '9')
				return m;
		} else if (m->name[k - 1] == '*') {
			if (n >= k - 1 && strncmp(w, m->name, k - 1) == 0)
				return m;
		} else if (word_is(w, n, m->name)) {
			return m;
		}
	}
	return NULL;
}

static const unsigned char ident_char[256] = {
	['0' ... '9'] = 1,
	['A' ... 'Z'] = 1,
	['a' ... 'z'] = 1,
	['_'] = 1,
};

/*
 * A set of at most 6 bytes to search for: inside a function body only
 * braces, comments, literals and directives matter; in a directive
 * only its end, continuations, comments and literals.
 */
struct byteset {
	unsigned char c[6];
	unsigned char in[256];
};

static const struct byteset body_set = {
	{ '/', '"', '\'', '{', '}', '#' },
	{ ['/'] = 1, ['"'] = 1, ['\''] = 1, ['{'] = 1, ['}'] = 1, ['#'] = 1 },
};

static const struct byteset directive_set = {
	{ '\n', '\\', '/', '"', '\'', '\n' },
	{ ['\n'] = 1, ['\\'] = 1, ['/'] = 1, ['"'] = 1, ['\''] = 1 },
};

/* find_byte - the first byte of the set in [p, end), or end */
static const char *find_byte(const char *p, const char *end,
			     const struct byteset *set)
{
#ifdef __SSE2__
	__m128i c0 = _mm_set1_epi8((char)set->c[0]);
	__m128i c1 = _mm_set1_epi8((char)set->c[1]);
	__m128i c2 = _mm_set1_epi8((char)set->c[2]);
	__m128i c3 = _mm_set1_epi8((char)set->c[3]);
	__m128i c4 = _mm_set1_epi8((char)set->c[4]);
	__m128i c5 = _mm_set1_epi8((char)set->c[5]);

	while (end - p >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
		__m128i m = _mm_or_si128(
			_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, c0),
						  _mm_cmpeq_epi8(v, c1)),
				     _mm_or_si128(_mm_cmpeq_epi8(v, c2),
						  _mm_cmpeq_epi8(v, c3))),
			_mm_or_si128(_mm_cmpeq_epi8(v, c4),
				     _mm_cmpeq_epi8(v, c5)));
		int bits = _mm_movemask_epi8(m);

		if (bits)
			return p + __builtin_ctz((unsigned)bits);
		p += 16;
	}
#endif
	while (p < end && !set->in[(unsigned char)*p])
		p++;
	return p;
}

/* The file-scope declaration being read. */
struct stmt {
	/* the candidate: the name before the last named "(...)" */
	const char *cand;
	unsigned cand_len;
	bool cand_ok;	    /* only attributes since its parameters */
	bool cand_ptr;	    /* from "(*name(...))": a function pointer result */
	const char *arg[2]; /* its first two arguments if single words */
	unsigned arg_len[2];
	bool cand_words; /* every argument a single word: a macro's */
	bool is_static, is_weak, assign, extern_c;
	/* the previous token at parenthesis depth 0 */
	const char *last;
	unsigned last_len;
	bool last_id, last_extern;
	/* the group being read */
	int pdepth;
	const char *g;
	unsigned g_len;
	bool g_attr;
	unsigned g_arg;
	unsigned g_ntok[2];
	const char *g_id[2];
	unsigned g_id_len[2];
	unsigned g_cur_ntok; /* tokens of the current argument */
	bool g_cur_word;     /* its first token is a word */
	bool g_words;	     /* every argument so far a single word */
	int g_ptr;	     /* progress through "( * name (" */
	const char *g_pname;
	unsigned g_pname_len;
	bool g_pfound;
};

struct sstate {
	int depth;
	bool func; /* the outermost open block is a function body */
	struct stmt st;
};

struct cond {
	struct sstate at_if, end_first;
	bool had_else;
};

struct scanner {
	const char *text, *end;
	const char *line_pos; /* line numbers are counted when needed */
	unsigned line;
	struct sstate s;
	int ncond; /* may exceed COND_MAX: deeper levels are not tracked */
	void (*fn)(void *arg, const char *name, size_t len, unsigned flags,
		   unsigned line);
	void *arg;
	size_t count;
	/* last: written before it is read, so never cleared */
	struct cond cond[COND_MAX];
};

enum tok {
	T_ID = 'i',
	T_NUM = 'n',
	T_STR = 's',
	T_OTHER = 'o',
};

/* line_of - the line number of a position in the text */
static unsigned line_of(struct scanner *sc, const char *pos)
{
	const char *p = sc->line_pos;

	if (pos >= p) {
		while ((p = memchr(p, '\n', (size_t)(pos - p)))) {
			sc->line++;
			p++;
		}
	} else {
		for (p = pos; p < sc->line_pos; p++)
			sc->line -= *p == '\n';
	}
	sc->line_pos = pos;
	return sc->line;
}

static void emit(struct scanner *sc, const char *name, size_t len,
		 unsigned flags, const char *where)
{
	if (!len || len > NAME_MAX_LEN)
		return;
	sc->fn(sc->arg, name, len, flags, line_of(sc, where));
	sc->count++;
}

static void emit_macro(struct scanner *sc, const struct macro *m,
		       const char *arg, size_t alen, unsigned flags,
		       const char *where)
{
	char buf[2 * NAME_MAX_LEN + 64];
	size_t i;

	if (!arg || alen > NAME_MAX_LEN)
		return;
	for (i = 0; i < ARRAY_SIZE(m->gen) && m->gen[i]; i++) {
		const char *g = m->gen[i], *pct = strchr(g, '%');
		size_t pre = (size_t)(pct - g), post = strlen(pct + 1);

		memcpy(buf, g, pre);
		memcpy(buf + pre, arg, alen);
		memcpy(buf + pre + alen, pct + 1, post);
		emit(sc, buf, pre + alen + post, flags | m->flags | SYM_MACRO,
		     where);
	}
}

static void stmt_reset(struct stmt *st)
{
	memset(st, 0, sizeof(*st));
}

/* definition - a "{" after a candidate at file scope */
static void definition(struct scanner *sc)
{
	struct stmt *st = &sc->s.st;
	unsigned flags =
		(st->is_static ? SYM_STATIC : 0) | (st->is_weak ? SYM_WEAK : 0);
	const struct macro *m = NULL;

	if (!st->cand_ptr)
		m = find_macro(st->cand, st->cand_len, true);
	if (m) {
		emit_macro(sc, m, st->arg[m->arg], st->arg_len[m->arg], flags,
			   st->cand);
		return;
	}
	/*
	 * A definition names every parameter after its type, so
	 * "name(word, word) {" is a macro (or K&R C), and so is
	 * "NAME(word, ...) {" with a capitalised name: only known macros
	 * define names.  One capitalised word is a macro standing for the
	 * parameters: "validate_flush(VALIDATE_ARGS) {" is a function.
	 */
	if (!st->cand_ptr && st->arg[0] &&
	    valid_name(st->arg[0], st->arg_len[0]) &&
	    (is_macro_name(st->cand, st->cand_len) ||
	     (st->cand_words && !(st->arg[1] == NULL &&
				  is_macro_name(st->arg[0], st->arg_len[0])))))
		return;
	emit(sc, st->cand, st->cand_len, flags, st->cand);
}

/* group_close - the ")" that ends a group at parenthesis depth 0 */
static void group_close(struct scanner *sc)
{
	struct stmt *st = &sc->s.st;
	unsigned i;

	st->pdepth = 0;
	st->last_id = false;
	st->last_extern = false;
	st->g_words &= st->g_cur_ntok == 1 && st->g_cur_word;
	if (st->g_pfound && !st->cand_ok) {
		/* "u16 (*f(int))[4]", "void (*f(int))(int)" */
		st->cand = st->g_pname;
		st->cand_len = st->g_pname_len;
		st->cand_ok = true;
		st->cand_ptr = true;
		st->arg[0] = st->arg[1] = NULL;
	} else if (st->g && valid_name(st->g, st->g_len)) {
		const struct macro *m = find_macro(st->g, st->g_len, false);
		const char *arg[2];
		unsigned arg_len[2];

		for (i = 0; i < 2; i++) {
			bool one = st->g_ntok[i] == 1 && st->g_id[i];

			arg[i] = one ? st->g_id[i] : NULL;
			arg_len[i] = one ? st->g_id_len[i] : 0;
		}
		if (m && arg[m->arg])
			emit_macro(sc, m, arg[m->arg], arg_len[m->arg],
				   st->is_static ? SYM_STATIC : 0, st->g);
		/*
		 * After the candidate's parameters only attributes went by,
		 * so this is one of them: "f(void) __releases(x) {".
		 */
		if (st->cand_ok)
			return;
		memcpy(st->arg, arg, sizeof(arg));
		memcpy(st->arg_len, arg_len, sizeof(arg_len));
		st->cand_words = st->g_words;
		st->cand = st->g;
		st->cand_len = st->g_len;
		st->cand_ok = true;
		st->cand_ptr = false;
	} else if (!st->g || !attr_like(st->g, st->g_len)) {
		/* "(int)" after "(*f(...))" is the result's parameters */
		if (!st->cand_ptr)
			st->cand_ok = false;
	}
}

/* token - one token at file scope (sc->s.depth == 0) */
static void token(struct scanner *sc, int kind, const char *w, unsigned n)
{
	struct stmt *st = &sc->s.st;

	if (st->pdepth > 0) {
		if (kind == ')' && st->pdepth == 1) {
			group_close(sc);
			return;
		}
		if (kind == ',' && st->pdepth == 1) {
			st->g_words &= st->g_cur_ntok == 1 && st->g_cur_word;
			st->g_cur_ntok = 0;
			st->g_arg++;
			return;
		}
		if (st->g_cur_ntok++ == 0)
			st->g_cur_word = kind == T_ID || (kind == T_NUM && n);
		if (st->g_arg < 2) {
			if ((kind == T_ID || (kind == T_NUM && n)) &&
			    st->g_ntok[st->g_arg] == 0) {
				st->g_id[st->g_arg] = w;
				st->g_id_len[st->g_arg] = n;
			}
			st->g_ntok[st->g_arg]++;
		}
		switch (st->g_ptr) {
		case 1:
			st->g_ptr = kind == '*' ? 2 : 0;
			break;
		case 2:
			if (kind == T_ID && st->pdepth == 1) {
				st->g_pname = w;
				st->g_pname_len = n;
				st->g_ptr = 3;
			} else if (kind != '*') {
				st->g_ptr = 0;
			}
			break;
		case 3:
			st->g_pfound = kind == '(' && st->pdepth == 1;
			st->g_ptr = 0;
			break;
		}
		if (kind == T_ID && st->g_attr &&
		    (kw_class(w, n) & KW_WEAK_ATTR))
			st->is_weak = true;
		if (kind == '(')
			st->pdepth++;
		else if (kind == ')')
			st->pdepth--;
		return;
	}

	switch (kind) {
	case T_ID: {
		unsigned cls = kw_class(w, n);

		if (cls & KW_STATIC)
			st->is_static = true;
		else if (cls & KW_WEAK)
			st->is_weak = true;
		if (st->cand_ok && !(cls & KW_TRAILING) &&
		    !(n > 2 && w[0] == '_' && w[1] == '_'))
			st->cand_ok = false;
		st->last = w;
		st->last_len = n;
		st->last_id = true;
		st->last_extern = cls & KW_EXTERN;
		return;
	}
	case '(':
		st->g = st->last_id ? st->last : NULL;
		st->g_len = st->last_id ? st->last_len : 0;
		st->g_attr =
			st->g && (word_is(st->g, st->g_len, "__attribute__") ||
				  word_is(st->g, st->g_len, "__attribute"));
		st->g_arg = 0;
		st->g_ntok[0] = st->g_ntok[1] = 0;
		st->g_cur_ntok = 0;
		st->g_words = true;
		st->g_id[0] = st->g_id[1] = NULL;
		st->g_ptr = 1;
		st->g_pfound = false;
		st->pdepth = 1;
		break;
	case ';':
		stmt_reset(st);
		return;
	case '=':
		st->assign = true;
		st->cand_ok = false;
		break;
	case T_STR:
		if (st->last_extern)
			st->extern_c = true;
		st->cand_ok = false;
		break;
	case ')':
		/* unbalanced: start afresh */
		stmt_reset(st);
		return;
	case '[':
	case ']':
	case T_NUM:
		/* "(*f(void))[4] {": a pointer to an array */
		if (!st->cand_ptr)
			st->cand_ok = false;
		break;
	default:
		st->cand_ok = false;
		break;
	}
	st->last_id = false;
	st->last_extern = false;
}

/* ---- lexical skipping ------------------------------------------------ */

/* skip_block_comment - p after "/" "*"; returns after the closing "*" "/" */
static const char *skip_block_comment(struct scanner *sc, const char *p)
{
	while (p < sc->end) {
		const char *q = memchr(p, '*', (size_t)(sc->end - p));

		if (!q || q + 1 >= sc->end)
			return sc->end;
		if (q[1] == '/')
			return q + 2;
		p = q + 1;
	}
	return sc->end;
}

/* line_end - the newline ending the line at p, after continuations */
static const char *line_end(struct scanner *sc, const char *p)
{
	while (p < sc->end) {
		const char *nl = memchr(p, '\n', (size_t)(sc->end - p));

		if (!nl)
			return sc->end;
		if (nl > p &&
		    (nl[-1] == '\\' ||
		     (nl[-1] == '\r' && nl - 1 > p && nl[-2] == '\\'))) {
			p = nl + 1;
			continue;
		}
		return nl;
	}
	return sc->end;
}

/*
 * skip_literal - p after the opening quote; returns after the closing
 * one, or at the newline that ends an unterminated literal
 */
static const char *skip_literal(struct scanner *sc, const char *p, char q)
{
	while (p < sc->end) {
		char c = *p;

		if (c == q)
			return p + 1;
		if (c == '\n')
			return p;
		if (c == '\\')
			p++;
		p++;
	}
	return sc->end;
}

/* rest_of_line - skip a directive's text; returns at its final newline */
static const char *rest_of_line(struct scanner *sc, const char *p)
{
	while ((p = find_byte(p, sc->end, &directive_set)) < sc->end) {
		char c = *p;

		if (c == '\n')
			return p;
		if (c == '\\' && p + 1 < sc->end &&
		    (p[1] == '\n' ||
		     (p[1] == '\r' && p + 2 < sc->end && p[2] == '\n'))) {
			p += p[1] == '\n' ? 2 : 3;
			continue;
		}
		if (c == '/' && p + 1 < sc->end && p[1] == '*') {
			p = skip_block_comment(sc, p + 2);
			continue;
		}
		if (c == '/' && p + 1 < sc->end && p[1] == '/')
			return line_end(sc, p + 2);
		if (c == '"' || c == '\'') {
			p = skip_literal(sc, p + 1, c);
			continue;
		}
		p++;
	}
	return sc->end;
}

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && blank(*p))
		p++;
	return p;
}

/* first_on_line - is the "#" at p the first thing on its line? */
static bool first_on_line(struct scanner *sc, const char *p)
{
	while (p > sc->text && blank(p[-1]))
		p--;
	return p == sc->text || p[-1] == '\n';
}

static size_t word_len(const char *p, const char *end)
{
	const char *q = p;

	while (q < end && ident_char[(unsigned char)*q])
		q++;
	return (size_t)(q - p);
}

enum {
	D_OTHER,
	D_IF, /* #if #ifdef #ifndef */
	D_ELSE,
	D_ELIF,
	D_ENDIF,
};

/* directive_kind - p at the word after "#" */
static int directive_kind(const char *p, size_t n)
{
	if (n < 2 || n > 8 || (p[0] != 'i' && p[0] != 'e'))
		return D_OTHER; /* #define, #include, ... */
	if (word_is(p, n, "if") || word_is(p, n, "ifdef") ||
	    word_is(p, n, "ifndef"))
		return D_IF;
	if (word_is(p, n, "else"))
		return D_ELSE;
	if (word_is(p, n, "elif") || word_is(p, n, "elifdef") ||
	    word_is(p, n, "elifndef"))
		return D_ELIF;
	if (word_is(p, n, "endif"))
		return D_ENDIF;
	return D_OTHER;
}

/*
 * never_true - "#if 0" and "#ifdef __cplusplus" (also "#if
 * defined(__cplusplus)"): groups the kernel never compiles
 */
static bool never_true(const char *w, size_t n, const char *p, const char *end)
{
	p = skip_blanks(p, end);
	if (word_is(w, n, "if") && p < end && *p == '0') {
		p = skip_blanks(p + 1, end);
		return p >= end || *p == '\n' || *p == '/';
	}
	if (word_is(w, n, "if") && (size_t)(end - p) > 7 &&
	    memcmp(p, "defined", 7) == 0) {
		p = skip_blanks(p + 7, end);
		if (p < end && *p == '(')
			p = skip_blanks(p + 1, end);
		return word_is(p, word_len(p, end), "__cplusplus");
	}
	if (word_is(w, n, "ifdef"))
		return word_is(p, word_len(p, end), "__cplusplus");
	return false;
}

/*
 * skip_group - p at the start of the line after "#if 0"; skips to the
 * matching #else/#elif (returns at that "#", *kind D_ELSE) or to the
 * end of the matching #endif line (*kind D_ENDIF)
 */
static const char *skip_group(struct scanner *sc, const char *p, int *kind)
{
	int nest = 0;

	while (p < sc->end) {
		const char *q = skip_blanks(p, sc->end);

		if (q < sc->end && *q == '#') {
			const char *w = skip_blanks(q + 1, sc->end);
			int k = directive_kind(w, word_len(w, sc->end));

			if (k == D_IF) {
				nest++;
			} else if (k == D_ENDIF && nest-- == 0) {
				*kind = D_ENDIF;
				return rest_of_line(sc, w);
			} else if ((k == D_ELSE || k == D_ELIF) && nest == 0) {
				*kind = D_ELSE;
				return q;
			}
		}
		p = line_end(sc, q) + 1;
	}
	*kind = D_ENDIF;
	return sc->end;
}

static void cond_else(struct scanner *sc)
{
	struct cond *c;

	if (sc->ncond <= 0 || sc->ncond > COND_MAX)
		return;
	c = &sc->cond[sc->ncond - 1];
	if (!c->had_else) {
		c->end_first = sc->s;
		c->had_else = true;
	}
	sc->s = c->at_if;
}

/* directive - p at "#" first on a line; returns at the line's end */
static const char *directive(struct scanner *sc, const char *p)
{
	const char *w = skip_blanks(p + 1, sc->end);
	size_t n = word_len(w, sc->end);
	int kind = directive_kind(w, n);

	switch (kind) {
	case D_IF:
		if (sc->ncond < COND_MAX) {
			sc->cond[sc->ncond].at_if = sc->s;
			sc->cond[sc->ncond].had_else = false;
		}
		sc->ncond++;
		if (never_true(w, n, w + n, sc->end)) {
			int how;
			const char *q = rest_of_line(sc, w + n);

			if (q >= sc->end)
				return q;
			q = skip_group(sc, q + 1, &how);
			if (how == D_ENDIF) {
				sc->ncond--;
				return q;
			}
			/* the #else or #elif of the group is scanned */
			return directive(sc, q);
		}
		break;
	case D_ELSE:
	case D_ELIF:
		cond_else(sc);
		break;
	case D_OTHER:
		/*
		 * "#define list_first_entry(ptr, ...)": not a definition a
		 * stack shows, but a name a report may call a function;
		 * indexed at the lowest rank so that it never hides a real
		 * definition (kmem_cache_alloc is a macro over _noprof).
		 */
		if (word_is(w, n, "define")) {
			const char *m = skip_blanks(w + n, sc->end);
			size_t ml = word_len(m, sc->end);
			size_t i;
			bool lower = false;

			for (i = 0; i < ml; i++)
				lower |= m[i] >= 'a' && m[i] <= 'z';
			if (ml && lower && m + ml < sc->end && m[ml] == '(' &&
			    valid_name(m, ml))
				emit(sc, m, ml, SYM_DEFINE, m);
		}
		break;
	case D_ENDIF:
		if (sc->ncond > 0 && sc->ncond <= COND_MAX &&
		    sc->cond[sc->ncond - 1].had_else)
			sc->s = sc->cond[sc->ncond - 1].end_first;
		if (sc->ncond > 0)
			sc->ncond--;
		break;
	}
	return rest_of_line(sc, w + n);
}

/*
 * initializer_body - does the block at p (after "{") start like a
 * designated initializer (".name =", "[0] =")?  Macros such as
 * powerpc's define_machine(x) { .name = ... } look like definitions.
 */
static bool initializer_body(struct scanner *sc, const char *p)
{
	for (;;) {
		while (p < sc->end && (blank(*p) || *p == '\n'))
			p++;
		if (p + 1 < sc->end && p[0] == '/' && p[1] == '*')
			p = skip_block_comment(sc, p + 2);
		else if (p + 1 < sc->end && p[0] == '/' && p[1] == '/')
			p = line_end(sc, p + 2);
		else
			break;
	}
	return p < sc->end && (*p == '[' || (*p == '.' && p + 1 < sc->end &&
					     ident_char[(unsigned char)p[1]] &&
					     !(p[1] >= '0' && p[1] <= '9')));
}

static void open_brace(struct scanner *sc, const char *p)
{
	struct stmt *st = &sc->s.st;

	if (sc->s.depth == 0) {
		if (st->extern_c && st->pdepth == 0) {
			/* extern "C" { : not a block */
			stmt_reset(st);
			return;
		}
		sc->s.func = st->pdepth == 0 && st->cand_ok && !st->assign &&
			     !initializer_body(sc, p + 1);
		if (sc->s.func)
			definition(sc);
	}
	sc->s.depth++;
}

static void close_brace(struct scanner *sc)
{
	struct stmt *st = &sc->s.st;

	if (sc->s.depth == 0)
		return; /* stray, e.g. the end of extern "C" */
	if (--sc->s.depth)
		return;
	if (sc->s.func) {
		stmt_reset(st);
	} else {
		/* "struct x { ... } y", "= { ... }": the statement goes on */
		st->cand_ok = false;
		st->last_id = false;
	}
	sc->s.func = false;
}

/* symbols_scan - report the function definitions in a C text */
size_t symbols_scan(const char *text, size_t len,
		    void (*fn)(void *arg, const char *name, size_t len,
			       unsigned flags, unsigned line),
		    void *arg)
{
	struct scanner *sc = xmalloc(sizeof(*sc));
	const char *p = text, *end = text + len;
	size_t count;

	pthread_once(&kw_once, kw_init);
	memset(sc, 0, offsetof(struct scanner, cond));
	sc->text = sc->line_pos = text;
	sc->end = end;
	sc->line = 1;
	sc->fn = fn;
	sc->arg = arg;
	while (p < end) {
		unsigned char c = (unsigned char)*p;

		if (sc->s.depth > 0) {
			/* inside a block: only braces, comments, literals */
			p = find_byte(p, end, &body_set);
			if (p >= end)
				break;
			c = (unsigned char)*p;
		}
		switch (c) {
		case '#':
			if (first_on_line(sc, p)) {
				p = directive(sc, p);
				continue;
			}
			break;
		case '/':
			if (p + 1 < end && p[1] == '*') {
				p = skip_block_comment(sc, p + 2);
				continue;
			}
			if (p + 1 < end && p[1] == '/') {
				p = line_end(sc, p + 2);
				continue;
			}
			break;
		case '"':
		case '\'':
			if (sc->s.depth == 0)
				token(sc, c == '"' ? T_STR : T_OTHER, p, 1);
			p = skip_literal(sc, p + 1, (char)c);
			continue;
		case '{':
			open_brace(sc, p);
			p++;
			continue;
		case '}':
			close_brace(sc);
			p++;
			continue;
		case ' ':
		case '\t':
		case '\n':
		case '\r':
		case '\f':
		case '\v':
		case '\\':
			p++;
			continue;
		}
		if (sc->s.depth > 0) {
			p++;
			continue;
		}
		/* a token at file scope */
		if (ident_char[c] && !(c >= '0' && c <= '9')) {
			size_t n = word_len(p, end);

			token(sc, T_ID, p, (unsigned)n);
			p += n;
		} else if (c >= '0' && c <= '9') {
			/* a number: digits, letters, "." and exponent signs */
			const char *q = p;
			bool word = true;

			p++;
			while (p < end &&
			       (ident_char[(unsigned char)*p] || *p == '.' ||
				((*p == '+' || *p == '-') &&
				 (p[-1] == 'e' || p[-1] == 'E' ||
				  p[-1] == 'p' || p[-1] == 'P')))) {
				word &= ident_char[(unsigned char)*p];
				p++;
			}
			/* "32_personality" is a word to a macro */
			token(sc, T_NUM, word ? q : NULL,
			      word ? (unsigned)(p - q) : 0);
		} else {
			token(sc, c, p, 1);
			p++;
		}
	}
	count = sc->count;
	free(sc);
	return count;
}

/* ---- building --------------------------------------------------------- */

struct file_list {
	char **v;
	size_t n, alloc;
};

static bool source_name(const char *name)
{
	return ends_with(name, ".c") || ends_with(name, ".h");
}

static bool makefile_name(const char *name)
{
	return !strcmp(name, "Makefile") || !strcmp(name, "Kbuild");
}

/*
 * walk - collect the .c and .h files below dir (relative paths), and
 * the Makefiles (kbuild says which objects make which module)
 */
static int walk(const char *root, struct strbuf *rel, struct file_list *fl,
		struct file_list *mk)
{
	char *path =
		rel->len ? xasprintf("%s/%s", root, rel->buf) : xstrdup(root);
	DIR *d = opendir(path);
	struct dirent *de;
	size_t base = rel->len;
	int ret = 0;

	if (!d) {
		ret = error("cannot read directory '%s': %s", path,
			    strerror(errno));
		free(path);
		return ret;
	}
	while ((de = readdir(d))) {
		unsigned type = de->d_type;

		if (de->d_name[0] == '.')
			continue;
		if (type == DT_UNKNOWN) {
			struct stat st;
			char *p = xasprintf("%s/%s", path, de->d_name);

			type = lstat(p, &st) < 0     ? DT_UNKNOWN
			       : S_ISDIR(st.st_mode) ? DT_DIR
			       : S_ISREG(st.st_mode) ? DT_REG
						     : DT_UNKNOWN;
			free(p);
		}
		if (type != DT_DIR &&
		    (type != DT_REG ||
		     (!source_name(de->d_name) && !makefile_name(de->d_name))))
			continue;
		if ((base && sb_addc(rel, '/') < 0) ||
		    sb_adds(rel, de->d_name) < 0) {
			warn("path too long under '%s'; skipped", path);
			sb_truncate(rel, base);
			continue;
		}
		if (type == DT_DIR) {
			if (walk(root, rel, fl, mk) < 0)
				ret = -1;
		} else if (makefile_name(de->d_name)) {
			ALLOC_GROW(mk->v, mk->n, mk->alloc);
			mk->v[mk->n++] = xstrdup(rel->buf);
		} else {
			ALLOC_GROW(fl->v, fl->n, fl->alloc);
			fl->v[fl->n++] = xstrdup(rel->buf);
		}
		sb_truncate(rel, base);
	}
	closedir(d);
	free(path);
	return ret;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* path_level - the ranking level of a definition in a file */
static unsigned path_level(const char *path, unsigned flags)
{
	if (starts_with(path, "tools/") || starts_with(path, "scripts/") ||
	    starts_with(path, "samples/") ||
	    starts_with(path, "Documentation/") || starts_with(path, "usr/") ||
	    (flags & SYM_DEFINE))
		return LEVEL_OTHER;
	if (starts_with(path, "arch/") && !starts_with(path, "arch/x86/"))
		return LEVEL_ARCH;
	if (flags & SYM_WEAK)
		return LEVEL_WEAK;
	return ends_with(path, ".h") ? LEVEL_HEADER : LEVEL_C;
}

static unsigned rank_of(const char *path, unsigned flags)
{
	return path_level(path, flags) * 2 + !!(flags & SYM_STATIC);
}

struct rec {
	uint32_t name; /* offset in the worker's arena */
	uint32_t file;
	uint32_t rank;
};

struct worker {
	pthread_t tid;
	const char *root;
	const struct file_list *fl;
	atomic_size_t *next;
	char *arena;
	size_t arena_len, arena_alloc;
	struct rec *recs;
	size_t nrecs, recs_alloc;
	size_t scanned;
	char *buf;
	size_t buf_alloc;
	/* the file being scanned */
	uint32_t file;
	const char *path;
};

static void collect(void *arg, const char *name, size_t len, unsigned flags,
		    unsigned line)
{
	struct worker *w = arg;
	struct rec *r;

	if (w->arena_len + len + 1 > w->arena_alloc) {
		w->arena_alloc = w->arena_alloc ? w->arena_alloc * 2 : 1 << 20;
		while (w->arena_len + len + 1 > w->arena_alloc)
			w->arena_alloc *= 2;
		if (w->arena_alloc > UINT32_MAX)
			die("symbol index: too many names");
		w->arena = xrealloc(w->arena, w->arena_alloc);
	}
	ALLOC_GROW(w->recs, w->nrecs, w->recs_alloc);
	r = &w->recs[w->nrecs++];
	r->name = (uint32_t)w->arena_len;
	r->file = w->file;
	r->rank = rank_of(w->path, flags);
	memcpy(w->arena + w->arena_len, name, len);
	w->arena[w->arena_len + len] = '\0';
	w->arena_len += len + 1;
}

/* read_source - read a whole file into the worker's buffer */
static ssize_t read_source(struct worker *w, int dirfd, const char *path)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	size_t n = 0;

	if (fd < 0) {
		warn("cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || (uint64_t)st.st_size > FILE_MAX_SIZE) {
		warn("'%s': not read (larger than %u bytes)", path,
		     FILE_MAX_SIZE);
		close(fd);
		return -1;
	}
	if ((size_t)st.st_size + 1 > w->buf_alloc) {
		w->buf_alloc = (size_t)st.st_size + 1 + 65536;
		free(w->buf);
		w->buf = xmalloc(w->buf_alloc);
	}
	while (n < w->buf_alloc - 1) {
		ssize_t r = read(fd, w->buf + n, w->buf_alloc - 1 - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			warn("cannot read '%s': %s", path, strerror(errno));
			close(fd);
			return -1;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	return (ssize_t)n;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	int dirfd = open(w->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (dirfd < 0) {
		warn("cannot open '%s': %s", w->root, strerror(errno));
		return NULL;
	}
	for (;;) {
		size_t i = atomic_fetch_add(w->next, 1);
		ssize_t n;

		if (i >= w->fl->n)
			break;
		w->file = (uint32_t)i;
		w->path = w->fl->v[i];
		n = read_source(w, dirfd, w->path);
		if (n < 0)
			continue;
		symbols_scan(w->buf, (size_t)n, collect, w);
		w->scanned++;
	}
	close(dirfd);
	return NULL;
}

struct mrec {
	const char *name;
	uint32_t file;
	uint32_t rank;
};

static int cmp_mrec(const void *a, const void *b)
{
	const struct mrec *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->file < y->file ? -1 : x->file > y->file;
}

static uint32_t add_string(struct strbuf *sb, const char *s)
{
	uint32_t off = (uint32_t)sb->len;

	if (sb_add(sb, s, strlen(s) + 1) < 0)
		die("symbol index: string table too large");
	return off;
}

/* ---- writing the blocks --------------------------------------------- */

/* put32 - a uint32_t at p (native order, as the header says) */
static void put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

struct block_writer {
	struct strbuf *blocks, *over, *top; /* top: the separators */
	const uint32_t *paths;		    /* file id -> path offset */
	unsigned char buf[BLOCK_SIZE];	    /* the entries */
	size_t len;			    /* bytes of buf used */
	unsigned n;			    /* entries in buf */
	uint16_t restart[BLOCK_SIZE / 4 / RESTART + 1]; /* their offsets */
	uint32_t *sep; /* separator offsets, one per block */
	uint32_t nblocks;
	size_t sep_alloc;
	char last[NAME_MAX_LEN + 1]; /* the last name added */
};

static size_t common_prefix(const char *a, const char *b)
{
	size_t n = 0;

	while (a[n] && a[n] == b[n])
		n++;
	return n;
}

static void put_ref(unsigned char *p, const struct block_writer *bw,
		    const struct mrec *r)
{
	put32(p, bw->paths[r->file]);
	p[4] = (unsigned char)r->rank;
}

/* nrestarts - the restart points of a block of n entries */
static size_t nrestarts(size_t n)
{
	return (n + RESTART - 1) / RESTART;
}

/* block_flush - pad the current block and append it */
static void block_flush(struct block_writer *bw)
{
	unsigned char out[BLOCK_SIZE];
	uint16_t v[2] = { (uint16_t)bw->n, (uint16_t)nrestarts(bw->n) };
	size_t head = 4 + 2 * (size_t)v[1], i;

	if (!bw->n)
		return;
	memset(out, 0, sizeof(out));
	memcpy(out, v, 4);
	for (i = 0; i < v[1]; i++) {
		uint16_t off = (uint16_t)(head + bw->restart[i]);

		memcpy(out + 4 + 2 * i, &off, 2);
	}
	memcpy(out + head, bw->buf, bw->len);
	if (sb_add(bw->blocks, out, BLOCK_SIZE) < 0)
		die("symbol index too large");
	bw->n = 0;
	bw->len = 0;
}

/*
 * block_add - append a name's entry (symbols.c's layout) to the current
 * block, or to a new one whose separator is the shortest prefix of name
 * greater than the last name of the block before
 */
static void block_add(struct block_writer *bw, const char *name,
		      const struct mrec *refs, size_t n)
{
	unsigned char e[2 + NAME_MAX_LEN + 1 + 8 + INLINE_REFS * REF_BYTES];
	size_t len = strlen(name), shared, el, i, ninline;

	shared = bw->n % RESTART ? common_prefix(bw->last, name) : 0;
	for (;;) {
		e[0] = (unsigned char)shared;
		e[1] = (unsigned char)(len - shared);
		memcpy(e + 2, name + shared, len - shared);
		el = 2 + len - shared;
		if (n <= INLINE_REFS) {
			e[el++] = (unsigned char)n;
			ninline = n;
		} else {
			e[el++] = REFS_MANY;
			put32(e + el, (uint32_t)n);
			put32(e + el + 4, (uint32_t)bw->over->len);
			el += 8;
			ninline = FIRST_REFS;
		}
		for (i = 0; i < ninline; i++, el += REF_BYTES)
			put_ref(e + el, bw, &refs[i]);
		if (!bw->n ||
		    4 + 2 * nrestarts(bw->n + 1) + bw->len + el <= BLOCK_SIZE)
			break;
		block_flush(bw);
		shared = 0;
	}
	if (!bw->n) {
		/* a new block */
		size_t sep =
			bw->nblocks ? common_prefix(bw->last, name) + 1 : 0;

		ALLOC_GROW(bw->sep, bw->nblocks, bw->sep_alloc);
		bw->sep[bw->nblocks++] = (uint32_t)bw->top->len;
		if (sb_add(bw->top, name, sep) < 0 ||
		    sb_add(bw->top, "", 1) < 0)
			die("symbol index too large");
	}
	if (bw->n % RESTART == 0)
		bw->restart[bw->n / RESTART] = (uint16_t)bw->len;
	if (n > INLINE_REFS) {
		for (i = 0; i < n; i++) {
			unsigned char r[REF_BYTES];

			put_ref(r, bw, &refs[i]);
			if (sb_add(bw->over, r, REF_BYTES) < 0)
				die("symbol index too large");
		}
	}
	memcpy(bw->buf + bw->len, e, el);
	bw->len += el;
	bw->n++;
	memcpy(bw->last, name, len + 1);
}

/*
 * symbols_build - scan a kernel tree and write the index to out
 *
 * The index is written atomically (a reader sees the old or the new
 * file).  stats, when not NULL, receives the figures.
 */
/* ---- modules ---------------------------------------------------------- */

#define MAKEFILE_MAX (4u << 20)

struct modrec {
	char *name; /* "module:btusb" */
	char *path; /* "drivers/bluetooth/btusb.c" or "fs/xfs/" */
};

struct mod_list {
	struct modrec *v;
	size_t n, alloc;
};

static bool mk_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-';
}

/* composite - does the Makefile list NAME-y, NAME-objs or NAME-$(...)? */
static bool composite(const char *text, const char *name, size_t n)
{
	const char *p = text;

	while ((p = strstr(p, name))) {
		bool bol = p == text || p[-1] == '\n';
		const char *q = p + n;

		p = q;
		if (!bol || *q != '-')
			continue;
		q++;
		if (!strncmp(q, "y", 1) || !strncmp(q, "objs", 4) ||
		    !strncmp(q, "m", 1) || !strncmp(q, "$(", 2))
			return true;
	}
	return false;
}

static bool file_listed(const struct file_list *fl, const char *path)
{
	return bsearch(&path, fl->v, fl->n, sizeof(*fl->v), cmp_str) != NULL;
}

static void add_module(const char *text, const char *mkpath, size_t dirlen,
		       const char *w, size_t n, const struct file_list *fl,
		       struct mod_list *ml)
{
	struct modrec *m;
	char *name, *c;
	size_t k;

	for (k = 0; k < n; k++)
		if (!mk_ident(w[k]))
			return;
	name = xmemdup0(w, n);
	c = xasprintf("%.*s%s%s.c", (int)dirlen, mkpath, dirlen ? "/" : "",
		      name);
	ALLOC_GROW(ml->v, ml->n, ml->alloc);
	m = &ml->v[ml->n++];
	m->name = xasprintf("module:%s", name);
	/* The kernel names modules with "_" for "-" (KBUILD_MODNAME). */
	for (k = 7; m->name[k]; k++)
		if (m->name[k] == '-')
			m->name[k] = '_';
	if (!composite(text, name, n) && file_listed(fl, c)) {
		m->path = c;
	} else {
		free(c);
		m->path = dirlen ? xasprintf("%.*s/", (int)dirlen, mkpath)
				 : xstrdup("");
	}
	free(name);
}

/*
 * modules_from_makefile - "obj-$(CONFIG_BT_HCIBTUSB) += btusb.o": the
 * module btusb is btusb.c of that directory, or the directory itself
 * when it is made of several objects (xfs-y += ...)
 */
static void modules_from_makefile(const char *root, const char *mkpath,
				  const struct file_list *fl,
				  struct mod_list *ml)
{
	char *full = xasprintf("%s/%s", root, mkpath), *text, *p;
	const char *slash = strrchr(mkpath, '/');
	size_t dirlen = slash ? (size_t)(slash - mkpath) : 0, len;

	if (read_file(full, MAKEFILE_MAX, &text, &len) < 0) {
		free(full);
		return;
	}
	free(full);
	/* join continuation lines */
	for (p = text; (p = strstr(p, "\\\n"));)
		p[0] = p[1] = ' ';
	for (p = text; *p;) {
		char *nl = strchr(p, '\n'), *line, *q, *eq;

		line = nl ? xmemdup0(p, (size_t)(nl - p)) : xstrdup(p);
		q = line;
		while (*q == ' ' || *q == '\t')
			q++;
		if (!strncmp(q, "obj-", 4) && (eq = strchr(q, '=')) &&
		    !memchr(q, '#', (size_t)(eq - q))) {
			char *hash = strchr(eq, '#'), *w;

			if (hash)
				*hash = '\0';
			for (w = eq + 1; *w;) {
				char *e;
				size_t n;

				while (*w == ' ' || *w == '\t')
					w++;
				for (e = w; *e && *e != ' ' && *e != '\t'; e++)
					;
				n = (size_t)(e - w);
				if (n > 2 && !strncmp(e - 2, ".o", 2) &&
				    !memchr(w, '$', n) && !memchr(w, '/', n))
					add_module(text, mkpath, dirlen, w,
						   n - 2, fl, ml);
				w = *e ? e + 1 : e;
			}
		}
		free(line);
		if (!nl)
			break;
		p = nl + 1;
	}
	free(text);
}

/*
 * dir_key - a directory's name spelled as a module's ("module:NAME",
 * lower case, "_" for "-"); false when too short to tell anything
 */
static bool dir_key(const char *name, size_t n, char *out, size_t size)
{
	size_t i;

	if (n < 3 || n + 8 > size)
		return false;
	memcpy(out, "module:", 7);
	for (i = 0; i < n; i++) {
		char c = name[i];

		out[7 + i] = c == '-'		      ? '_'
			     : (c >= 'A' && c <= 'Z') ? c | 0x20
						      : c;
	}
	out[7 + n] = '\0';
	return true;
}

/*
 * dirs_from_files - "module:NAME" for each directory under drivers/,
 * sound/, net/ and fs/ whose name no other directory of the tree has
 * ("rtw89" is drivers/net/wireless/realtek/rtw89/; "usb" or
 * "bluetooth" name several and give nothing): a driver as reports
 * name it, when its module has another name (rtw89_8852be, ...)
 */
static void dirs_from_files(const struct file_list *fl, struct mod_list *ml)
{
	static const char *const roots[] = { "drivers/", "sound/", "net/",
					     "fs/" };
	char **dirs = NULL, **keys;
	size_t ndirs = 0, alloc = 0, i, j, k, r;
	char key[NAME_MAX_LEN + 8];

	/* every directory holding a source file, and its parents */
	for (i = 0; i < fl->n; i++) {
		const char *f = fl->v[i], *slash;

		for (slash = strchr(f, '/'); slash;
		     slash = strchr(slash + 1, '/')) {
			size_t n = (size_t)(slash - f) + 1;

			if (ndirs && strlen(dirs[ndirs - 1]) >= n &&
			    !strncmp(dirs[ndirs - 1], f, n))
				continue; /* sorted files: a parent just seen */
			ALLOC_GROW(dirs, ndirs, alloc);
			dirs[ndirs++] = xmemdup0(f, n);
		}
	}
	qsort(dirs, ndirs, sizeof(*dirs), cmp_str);
	for (i = j = 0; i < ndirs; i++) {
		if (j && !strcmp(dirs[j - 1], dirs[i])) {
			free(dirs[i]);
			continue;
		}
		dirs[j++] = dirs[i];
	}
	ndirs = j;
	/* their keys, sorted, to count each name */
	keys = xcalloc(ndirs + 1, sizeof(*keys));
	for (i = 0, k = 0; i < ndirs; i++) {
		const char *d = dirs[i], *end = d + strlen(d) - 1, *b = end;

		while (b > d && b[-1] != '/')
			b--;
		if (dir_key(b, (size_t)(end - b), key, sizeof(key)))
			keys[k++] = xasprintf("%s\t%s", key, d);
	}
	/* "module:NAME\tPATH": one name's directories are together */
	qsort(keys, k, sizeof(*keys), cmp_str);
	for (i = 0; i < k; i = j) {
		size_t n = strcspn(keys[i], "\t");
		const char *d = keys[i] + n + 1;
		bool root = false;

		for (j = i + 1; j < k && !strncmp(keys[j], keys[i], n + 1); j++)
			;
		/* inside a root, not the root itself ("drivers/") */
		for (r = 0; r < ARRAY_SIZE(roots); r++)
			root |= starts_with(d, roots[r]) &&
				strlen(d) > strlen(roots[r]);
		if (j - i == 1 && root) {
			struct modrec *m;

			ALLOC_GROW(ml->v, ml->n, ml->alloc);
			m = &ml->v[ml->n++];
			m->name = xmemdup0(keys[i], n);
			m->path = xstrdup(d);
		}
	}
	for (i = 0; i < k; i++)
		free(keys[i]);
	free(keys);
	for (i = 0; i < ndirs; i++)
		free(dirs[i]);
	free(dirs);
}

int symbols_build(const char *tree, const char *out,
		  struct symbols_stats *stats)
{
	double t0 = now_seconds();
	struct file_list fl = { NULL, 0, 0 }, mk = { NULL, 0, 0 };
	struct mod_list ml = { NULL, 0, 0 };
	size_t nsrc;
	struct strbuf rel = STRBUF_INIT(4096);
	struct worker *w;
	atomic_size_t next = 0;
	size_t nthreads, i, j, total = 0, nnames = 0, nrefs = 0;
	struct mrec *all;
	uint32_t *paths;
	struct block_writer bw;
	struct strbuf pathsb = STRBUF_INIT(UINT32_MAX / 2);
	struct strbuf blocks = STRBUF_INIT(UINT32_MAX / 2);
	struct strbuf over = STRBUF_INIT(UINT32_MAX / 2);
	struct strbuf top = STRBUF_INIT(UINT32_MAX / 2);
	struct strbuf img = STRBUF_INIT(UINT32_MAX / 2);
	struct img_header h;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int ret;

	if (!is_dir(tree))
		return error("kernel tree '%s' is not a directory", tree);
	if (walk(tree, &rel, &fl, &mk) < 0 && !fl.n) {
		sb_release(&rel);
		return -1;
	}
	sb_release(&rel);
	if (!fl.n) {
		free(fl.v);
		return error("no .c or .h files under '%s'", tree);
	}
	qsort(fl.v, fl.n, sizeof(*fl.v), cmp_str);
	nsrc = fl.n;

	nthreads = cpus > 0 ? (size_t)cpus : 1;
	if (nthreads > MAX_THREADS)
		nthreads = MAX_THREADS;
	if (fl.n < 64)
		nthreads = 1;
	w = xcalloc(nthreads, sizeof(*w));
	for (i = 0; i < nthreads; i++) {
		w[i].root = tree;
		w[i].fl = &fl;
		w[i].next = &next;
	}
	for (i = 1; i < nthreads; i++) {
		if (pthread_create(&w[i].tid, NULL, work, &w[i]) != 0) {
			nthreads = i; /* fewer threads, the same result */
			break;
		}
	}
	work(&w[0]);
	for (i = 1; i < nthreads; i++)
		pthread_join(w[i].tid, NULL);

	/* Modules: "module:NAME" -> its .c file or its directory. */
	for (i = 0; i < mk.n; i++)
		modules_from_makefile(tree, mk.v[i], &fl, &ml);
	dirs_from_files(&fl, &ml);
	for (i = 0; i < nthreads; i++)
		total += w[i].nrecs;
	total += ml.n;
	all = xcalloc(total ? total : 1, sizeof(*all));
	for (i = 0, j = 0; i < nthreads; i++) {
		size_t k;

		for (k = 0; k < w[i].nrecs; k++, j++) {
			all[j].name = w[i].arena + w[i].recs[k].name;
			all[j].file = w[i].recs[k].file;
			all[j].rank = w[i].recs[k].rank;
		}
	}
	for (i = 0; i < ml.n; i++, j++) {
		char **hit = bsearch(&ml.v[i].path, fl.v, nsrc, sizeof(*fl.v),
				     cmp_str);
		size_t f;

		if (hit) {
			f = (size_t)(hit - fl.v);
		} else {
			/* a directory: an extra entry of the file table */
			for (f = nsrc; f < fl.n; f++)
				if (!strcmp(fl.v[f], ml.v[i].path))
					break;
			if (f == fl.n) {
				ALLOC_GROW(fl.v, fl.n, fl.alloc);
				fl.v[fl.n++] = xstrdup(ml.v[i].path);
			}
		}
		all[j].name = ml.v[i].name;
		all[j].file = (uint32_t)f;
		all[j].rank = rank_of(ml.v[i].path, 0);
	}
	qsort(all, total, sizeof(*all), cmp_mrec);
	paths = xcalloc(fl.n ? fl.n : 1, sizeof(*paths));
	for (i = 0; i < fl.n; i++)
		paths[i] = add_string(&pathsb, fl.v[i]);
	memset(&bw, 0, sizeof(bw));
	bw.blocks = &blocks;
	bw.over = &over;
	bw.top = &top;
	bw.paths = paths;
	for (i = 0; i < total; i = j) {
		/* one name: its records, best first, each file once */
		size_t k, n = 0;

		for (j = i; j < total && !strcmp(all[j].name, all[i].name);
		     j++) {
			bool dup = false;

			for (k = i; k < i + n; k++)
				dup |= all[k].file == all[j].file;
			if (!dup)
				all[i + n++] = all[j];
		}
		if (strlen(all[i].name) > NAME_MAX_LEN)
			continue;
		block_add(&bw, all[i].name, all + i, n);
		nnames++;
		nrefs += n;
	}
	block_flush(&bw);

	memset(&h, 0, sizeof(h));
	memcpy(h.magic, SYM_MAGIC, 8);
	h.version = SYM_VERSION;
	h.endian = SYM_ENDIAN;
	h.nnames = (uint32_t)nnames;
	h.nrefs = (uint32_t)nrefs;
	h.nfiles = (uint32_t)fl.n;
	h.nblocks = bw.nblocks;
	h.block_size = BLOCK_SIZE;
	for (i = 0; i < nthreads; i++)
		h.scanned += (uint32_t)w[i].scanned;
	if (sb_add(&img, &h, sizeof(h)) < 0)
		die("out of memory");
	/* the separators: their offsets, then the strings */
	h.off_top = img_place(&img, bw.sep, bw.nblocks * sizeof(*bw.sep),
			      "symbol index");
	if (sb_add(&img, top.buf, top.len) < 0)
		die("symbol index too large");
	h.top_size = (uint32_t)(img.len - h.off_top);
	h.off_over = img_place(&img, over.buf, over.len, "symbol index");
	h.over_size = (uint32_t)over.len;
	h.off_paths = img_place(&img, pathsb.buf, pathsb.len, "symbol index");
	h.paths_size = (uint32_t)pathsb.len;
	while (img.len % BLOCK_SIZE)
		if (sb_add(&img, "", 1) < 0)
			die("symbol index too large");
	h.off_blocks = img_place(&img, blocks.buf, blocks.len, "symbol index");
	h.size = (uint32_t)img.len;
	memcpy(img.buf, &h, sizeof(h));
	ret = write_file_atomic(out, img.buf, img.len, 0644);
	if (stats) {
		stats->files = h.scanned;
		stats->functions = nrefs;
		stats->names = nnames;
		stats->seconds = now_seconds() - t0;
	}

	sb_release(&img);
	sb_release(&pathsb);
	sb_release(&blocks);
	sb_release(&over);
	sb_release(&top);
	free(bw.sep);
	free(paths);
	free(all);
	for (i = 0; i < nthreads; i++) {
		free(w[i].arena);
		free(w[i].recs);
		free(w[i].buf);
	}
	free(w);
	for (i = 0; i < fl.n; i++)
		free(fl.v[i]);
	free(fl.v);
	for (i = 0; i < mk.n; i++)
		free(mk.v[i]);
	free(mk.v);
	for (i = 0; i < ml.n; i++) {
		free(ml.v[i].name);
		free(ml.v[i].path);
	}
	free(ml.v);
	return ret;
}

/* ---- opening ---------------------------------------------------------- */

static uint32_t get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* check_header - the header and every array bound; false if corrupt */
static bool check_header(const struct img_header *h, size_t size,
			 const char *path)
{
	if (memcmp(h->magic, SYM_MAGIC, 8) != 0) {
		error("'%s': not a triage symbol index", path);
		return false;
	}
	if (h->version != SYM_VERSION || h->endian != SYM_ENDIAN) {
		error("'%s': symbol index format %u is not %u; run 'triage update --kernel-tree DIR'",
		      path, h->version, SYM_VERSION);
		return false;
	}
	if (h->size != size || h->block_size != BLOCK_SIZE ||
	    h->nblocks > size / BLOCK_SIZE ||
	    !img_range_ok(size, h->off_top, h->top_size, 1, 4) ||
	    h->top_size < (uint64_t)h->nblocks * 5 ||
	    !img_range_ok(size, h->off_over, h->over_size, 1, 4) ||
	    !img_range_ok(size, h->off_paths, h->paths_size, 1, 4) ||
	    !img_range_ok(size, h->off_blocks, h->nblocks, BLOCK_SIZE,
			  BLOCK_SIZE) ||
	    h->paths_size == 0) {
		error("'%s': corrupt symbol index; run 'triage update --kernel-tree DIR'",
		      path);
		return false;
	}
	return true;
}

/*
 * check_ends - the separators and the paths end in NUL (the mapped
 * reader; the pread() reader checks what it reads)
 */
static bool check_ends(const struct symbols *s, const char *path)
{
	const struct img_header *h = s->h;

	if (s->base[h->off_paths + h->paths_size - 1] != '\0' ||
	    (h->nblocks && s->base[h->off_top + h->top_size - 1] != '\0')) {
		error("'%s': corrupt symbol index; run 'triage update --kernel-tree DIR'",
		      path);
		return false;
	}
	return true;
}

/* symbols_open - mmap an index written by symbols_build() */
struct symbols *symbols_open(const char *path)
{
	struct symbols *s;
	size_t size;
	void *p = img_map(path, "symbol index", sizeof(struct img_header),
			  UINT32_MAX, &size);

	if (!p)
		return NULL;
	s = xcalloc(1, sizeof(*s));
	s->fd = -1;
	s->base = p;
	s->size = size;
	memcpy(&s->hdr, p, sizeof(s->hdr));
	s->h = &s->hdr;
	if (!check_header(s->h, size, path) || !check_ends(s, path)) {
		symbols_free(s);
		return NULL;
	}
	s->top = s->base + s->h->off_top;
	return s;
}

/*
 * symbols_open_pread - open an index to read only what lookups need
 * with pread(): for a process that makes a few lookups (the filter).
 * A mapping would bring whole page-cache folios into its resident set
 * (most of the index for a few lookups).  Opening reads
 * the header; the first lookup reads the separators (one read), and
 * each name then costs the read of one block, and of each path
 * returned.
 */
struct symbols *symbols_open_pread(const char *path)
{
	struct symbols *s;
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		error("cannot open symbol index '%s': %s", path,
		      strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size < (off_t)sizeof(struct img_header) ||
	    (uint64_t)st.st_size > UINT32_MAX) {
		error("'%s': not a triage symbol index", path);
		close(fd);
		return NULL;
	}
	s = xcalloc(1, sizeof(*s));
	s->fd = fd;
	s->size = (size_t)st.st_size;
	s->h = &s->hdr;
	s->block_no = -1;
	if (pread(fd, &s->hdr, sizeof(s->hdr), 0) != sizeof(s->hdr)) {
		error("'%s': not a triage symbol index", path);
		goto fail;
	}
	if (!check_header(s->h, s->size, path))
		goto fail;
	return s;
fail:
	symbols_free(s);
	return NULL;
}

/* symbols_free - unmap or close an index (NULL is fine) */
void symbols_free(struct symbols *s)
{
	size_t i;

	if (!s)
		return;
	img_unmap(s->base, s->size);
	if (s->fd >= 0)
		close(s->fd);
	for (i = 0; i < s->nkept; i++)
		free(s->kept[i].path);
	free(s->kept);
	free(s->top_buf);
	free(s->block);
	free(s);
}

/* ---- lookup ------------------------------------------------------------ */

/* The lookups change only these caches of the object (ours, not const). */
static struct symbols *mut(const struct symbols *s)
{
	return (struct symbols *)s;
}

static void corrupt(const struct symbols *s)
{
	if (!s->warned)
		warn("corrupt symbol index; run 'triage update --kernel-tree DIR'");
	mut(s)->warned = true;
}

/* rd - n bytes at off into buf (pread); false past the end or on error */
static bool rd(const struct symbols *s, uint64_t off, size_t n, void *buf)
{
	if (off > s->size || n > s->size - off)
		return false;
	return pread(s->fd, buf, n, (off_t)off) == (ssize_t)n;
}

/* top - the separators: in place, or read at the first lookup */
static const unsigned char *top(const struct symbols *s)
{
	const struct img_header *h = s->h;
	unsigned char *buf;

	if (s->top || !h->nblocks)
		return s->top;
	buf = xmalloc(h->top_size);
	if (!rd(s, h->off_top, h->top_size, buf) ||
	    buf[h->top_size - 1] != '\0') {
		free(buf);
		corrupt(s);
		return NULL;
	}
	mut(s)->top_buf = buf;
	mut(s)->top = buf;
	return buf;
}

/* block - block i: in place, or read (the last one read is kept) */
static const unsigned char *block(const struct symbols *s, uint32_t i)
{
	uint64_t off = s->h->off_blocks + (uint64_t)i * BLOCK_SIZE;

	if (s->base)
		return s->base + off;
	if (s->block_no == (int64_t)i)
		return s->block;
	if (!s->block)
		mut(s)->block = xmalloc(BLOCK_SIZE);
	mut(s)->block_no = -1;
	if (!rd(s, off, BLOCK_SIZE, s->block)) {
		corrupt(s);
		return NULL;
	}
	mut(s)->block_no = i;
	return s->block;
}

/* symbols_name_len - the identifier at the start of a frame's name */
size_t symbols_name_len(const char *function)
{
	size_t n = 0;

	if (!function || (function[0] >= '0' && function[0] <= '9'))
		return 0;
	while (ident_char[(unsigned char)function[n]])
		n++;
	return n <= NAME_MAX_LEN ? n : 0;
}

/* sep_cmp - a separator (NUL-terminated) against name[0..len) */
static int sep_cmp(const unsigned char *sep, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)name[i];

		if (sep[i] != c)
			return sep[i] < c ? -1 : 1; /* sep's NUL is least */
	}
	return sep[len] ? 1 : 0;
}

/* block_of - the only block that may hold name: the last separator <= it */
static bool block_of(const struct symbols *s, const char *name, size_t len,
		     uint32_t *i)
{
	const struct img_header *h = s->h;
	const unsigned char *t = top(s);
	size_t lo = 0, hi = h->nblocks, keys = (size_t)h->nblocks * 4;

	if (!t)
		return false;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		uint32_t off = get32(t + mid * 4);

		if (off >= h->top_size - keys) {
			corrupt(s);
			return false;
		}
		if (sep_cmp(t + keys + off, name, len) <= 0)
			lo = mid;
		else
			hi = mid;
	}
	*i = (uint32_t)lo;
	return true;
}

/* entry_at - copy out the refs of an entry whose count byte was cnt */
static bool entry_at(const unsigned char *p, size_t cnt, struct entry *out)
{
	if (cnt == REFS_MANY) {
		out->nrefs = get32(p);
		out->over = get32(p + 4);
		out->ninline = FIRST_REFS;
		p += 8;
	} else {
		out->nrefs = (uint32_t)cnt;
		out->over = 0;
		out->ninline = (unsigned)cnt;
	}
	memcpy(out->refs, p, out->ninline * REF_BYTES);
	return true;
}

/*
 * restart_at - the r-th restart entry of a block (checked: whole, and
 * its name inside the block), or NULL
 */
static const unsigned char *restart_at(const unsigned char *b, size_t r,
				       size_t nr)
{
	uint16_t off;

	memcpy(&off, b + 4 + 2 * r, 2);
	if (off < 4 + 2 * nr || off > BLOCK_SIZE - 3 || b[off] != 0 ||
	    b[off + 1] > BLOCK_SIZE - 2 - off)
		return NULL;
	return b + off;
}

/*
 * find - a name's entry, or false
 *
 * A block's entries are front-coded: each shares a prefix with the one
 * before.  While scanning, m is the common prefix of name and the last
 * entry (which is less than name): an entry sharing less than m with it
 * is greater than name, one sharing more is still less, and only one
 * sharing exactly m needs comparing, from m on.  Every RESTART-th
 * entry is whole, and a binary search of those picks where to start.
 */
static bool find(const struct symbols *s, const char *name, size_t len,
		 struct entry *out)
{
	const unsigned char *b, *p, *end;
	size_t curlen = 0, m = 0, lo, hi, nr;
	uint32_t bi;
	unsigned k, n;
	uint16_t v[2];

	if (!len || len > NAME_MAX_LEN || !s->h->nblocks ||
	    !block_of(s, name, len, &bi) || !(b = block(s, bi)))
		return false;
	memcpy(v, b, 4);
	n = v[0];
	nr = v[1];
	end = b + BLOCK_SIZE;
	if (nr != nrestarts(n) || 4 + 2 * nr > BLOCK_SIZE)
		goto bad;
	/* the last restart point whose (whole) name is <= name */
	lo = 0;
	hi = nr;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const unsigned char *e = restart_at(b, mid, nr);
		int c;

		if (!e)
			goto bad;
		c = memcmp(e + 2, name, e[1] < len ? e[1] : len);
		if (c < 0 || (c == 0 && e[1] <= len))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return false; /* less than the block's first name */
	p = restart_at(b, lo - 1, nr);
	for (k = (unsigned)(lo - 1) * RESTART; k < n; k++) {
		const unsigned char *suffix = p + 2;
		size_t shared = p[0], slen = p[1], cnt, skip;

		/* checked: 3 bytes, then the suffix, the count and refs */
		if (end - p < 3 || shared > curlen || !slen ||
		    shared + slen > NAME_MAX_LEN ||
		    (size_t)(end - p) < 3 + slen)
			goto bad;
		curlen = shared + slen;
		p += 2 + slen;
		cnt = *p++;
		if (cnt == REFS_MANY)
			skip = 8 + FIRST_REFS * REF_BYTES;
		else if (cnt <= INLINE_REFS)
			skip = cnt * REF_BYTES;
		else
			goto bad;
		if ((size_t)(end - p) < skip ||
		    (cnt == REFS_MANY && get32(p) <= INLINE_REFS))
			goto bad;
		if (shared < m)
			return false; /* greater than name */
		if (shared == m) {
			/* the entry's characters from m on are its suffix */
			while (m < curlen && m < len &&
			       suffix[m - shared] == (unsigned char)name[m])
				m++;
			if (m == len && m == curlen)
				return entry_at(p, cnt, out);
			if (m == len ||
			    (m < curlen &&
			     suffix[m - shared] > (unsigned char)name[m]))
				return false; /* greater than name */
		}
		p += skip;
	}
	return false;
bad:
	corrupt(s);
	return false;
}

/* best_level - the level of an entry's best file; past the levels if none */
static unsigned best_level(const struct entry *e)
{
	return e->nrefs ? e->refs[4] / 2 : LEVEL_OTHER + 1;
}

/*
 * find_function - a frame's function: the name itself; for an unknown
 * "__ARCH_sys_NAME" / "__ARCH_compat_sys_NAME" the __do_sys_NAME /
 * __do_compat_sys_NAME that SYSCALL_DEFINE made; and for a name that
 * only tools/ and such define, NAME_noprof (since 6.10 kmalloc(),
 * kmem_cache_alloc() ... are alloc_hooks() macros over NAME_noprof())
 */
static bool find_function(const struct symbols *s, const char *function,
			  struct entry *e)
{
	size_t len = symbols_name_len(function), i;
	struct entry np;
	bool found;
	const char *rest;
	char buf[NAME_MAX_LEN + 32];

	if (starts_with(function, "module:")) {
		/* "module:snd-usb-audio" is indexed as snd_usb_audio */
		for (i = 0; function[i] && i < sizeof(buf) - 1; i++)
			buf[i] = i >= 7 && function[i] == '-' ? '_'
							      : function[i];
		buf[i] = '\0';
		return i > 7 && find(s, buf, i, e);
	}
	if (!len)
		return false;
	found = find(s, function, len, e);
	if (!found || best_level(e) >= LEVEL_OTHER) {
		memcpy(buf, function, len);
		memcpy(buf + len, "_noprof", 7);
		if (find(s, buf, len + 7, &np) &&
		    best_level(&np) < LEVEL_OTHER) {
			*e = np;
			return true;
		}
	}
	if (found || len < 8 || function[0] != '_' || function[1] != '_')
		return found;
	for (i = 2; i < len && ((function[i] >= 'a' && function[i] <= 'z') ||
				(function[i] >= '0' && function[i] <= '9'));
	     i++)
		;
	if (i == 2 || i >= len)
		return false;
	rest = function + i;
	len -= i;
	if (len > 5 && strncmp(rest, "_sys_", 5) == 0) {
		memcpy(buf, "__do_sys_", 9);
		memcpy(buf + 9, rest + 5, len - 5);
		return find(s, buf, 9 + len - 5, e);
	}
	if (len > 12 && strncmp(rest, "_compat_sys_", 12) == 0) {
		memcpy(buf, "__do_compat_sys_", 16);
		memcpy(buf + 16, rest + 12, len - 12);
		return find(s, buf, 16 + len - 12, e);
	}
	return false;
}

/* path_at - the path at offset off of the paths (pread: kept) */
static const char *path_at(const struct symbols *s, uint32_t off)
{
	const struct img_header *h = s->h;
	char buf[PATH_MAX_LEN];
	const char *nul;
	size_t n, i;
	struct symbols *w = mut(s);

	if (off >= h->paths_size) {
		corrupt(s);
		return NULL;
	}
	if (s->base)
		return (const char *)s->base + h->off_paths + off;
	for (i = 0; i < s->nkept; i++)
		if (s->kept[i].off == off)
			return s->kept[i].path;
	n = h->paths_size - off;
	if (n > PATH_MAX_LEN)
		n = PATH_MAX_LEN;
	/* most paths are short: one read of PATH_READ bytes */
	if (!rd(s, (uint64_t)h->off_paths + off, n < PATH_READ ? n : PATH_READ,
		buf) ||
	    (!(nul = memchr(buf, '\0', n < PATH_READ ? n : PATH_READ)) &&
	     (n <= PATH_READ || !rd(s, (uint64_t)h->off_paths + off, n, buf) ||
	      !(nul = memchr(buf, '\0', n))))) {
		corrupt(s);
		return NULL;
	}
	ALLOC_GROW(w->kept, w->nkept, w->kept_alloc);
	w->kept[w->nkept].off = off;
	w->kept[w->nkept].path = xstrdup(buf);
	return w->kept[w->nkept++].path;
}

/* symbols_lookup - files defining function, best first; returns count */
size_t symbols_lookup(const struct symbols *s, const char *function,
		      const char **files, size_t max)
{
	struct entry e;
	const unsigned char *refs;
	unsigned char *buf = NULL;
	size_t n, i;

	if (!find_function(s, function, &e) || !e.nrefs)
		return 0;
	n = max < e.nrefs ? max : e.nrefs;
	refs = e.refs;
	if (n > e.ninline) {
		/* all the refs, from the overflow area */
		uint64_t off = (uint64_t)s->h->off_over + e.over;

		if ((uint64_t)e.over + (uint64_t)e.nrefs * REF_BYTES >
		    s->h->over_size) {
			corrupt(s);
			return 0;
		}
		if (s->base) {
			refs = s->base + off;
		} else {
			buf = xmalloc(n * REF_BYTES);
			if (!rd(s, off, n * REF_BYTES, buf)) {
				free(buf);
				corrupt(s);
				return 0;
			}
			refs = buf;
		}
	}
	for (i = 0; i < n; i++) {
		files[i] = path_at(s, get32(refs + i * REF_BYTES));
		if (!files[i]) {
			free(buf);
			return 0;
		}
	}
	free(buf);
	return e.nrefs;
}

/* symbols_best - the one file that clearly defines function, or NULL */
const char *symbols_best(const struct symbols *s, const char *function)
{
	struct entry e;

	if (!find_function(s, function, &e) || !e.nrefs)
		return NULL;
	/* Refs are sorted by rank: the best level must hold one file. */
	if (e.nrefs > 1 && e.refs[4] / 2 == e.refs[REF_BYTES + 4] / 2)
		return NULL;
	return path_at(s, get32(e.refs));
}
