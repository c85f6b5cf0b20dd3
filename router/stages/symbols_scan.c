// SPDX-License-Identifier: GPL-2.0-only
/*
 * symbols_scan - the C scanner behind the symbol index (see symbols.h)
 *
 * A hand-written state machine that tokenises only at file scope and
 * skips function bodies by counting braces; symbols.c runs it on a few
 * threads over every file of the tree ('triage update --kernel-tree').
 * A definition is reported when its body ends, with the lines of the
 * body and its text; symbols_body_calls() then reads that text once for
 * the names it calls ("name(", outside comments and literals).
 *
 * Not universal-ctags: 'ctags -R --kinds-C=f --languages=C' over Linux
 * 6.12 took 4.6 times the CPU of 'triage update --kernel-tree' when the
 * index held names only (format 2; user and system time,
 * /usr/bin/time), gives neither the end of a body nor what it calls,
 * and names none of the functions that kernel macros define (no
 * __x64_sys_* of SYSCALL_DEFINE), which crash stacks show.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "hash.h"
#include "hashmap.h"
#include "symbols.h"
#include "util.h"

#define NAME_MAX_LEN SYMBOLS_NAME_MAX
#define COND_MAX     64

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

static struct hashmap kw_map; /* keyword to its index */
static uint8_t kw_len[ARRAY_SIZE(keywords)];
static pthread_once_t kw_once = PTHREAD_ONCE_INIT;

struct kw_key {
	const char *w;
	size_t n;
};

static bool kw_equal(const void *data, uint32_t id, const void *key)
{
	const struct kw_key *k = key;

	return kw_len[id] == k->n && memcmp(keywords[id].word, k->w, k->n) == 0;
}

static void kw_init(void)
{
	size_t i;

	hashmap_init(&kw_map, kw_equal, NULL, ARRAY_SIZE(keywords));
	for (i = 0; i < ARRAY_SIZE(keywords); i++) {
		size_t n = strlen(keywords[i].word);

		kw_len[i] = (uint8_t)n;
		hashmap_add(&kw_map, hash_mem(keywords[i].word, n),
			    (uint32_t)i);
	}
}

/* kw_class - KW_* of a word, 0 for an ordinary identifier */
static unsigned kw_class(const char *w, size_t n)
{
	struct kw_key k = { w, n };
	uint32_t i;

	if (n < 2 || n > 32)
		return 0;
	i = hashmap_get(&kw_map, hash_mem(w, n), &k);
	return i == HASHMAP_NONE ? 0 : keywords[i].cls;
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

/*
 * A driver's registration macro, "module_platform_driver(foo_driver);"
 * (module_driver() of include/linux/device/driver.h), defines the
 * functions foo_driver_init() and foo_driver_exit(), which stack frames
 * of the driver's probe show; "builtin_platform_driver(foo_driver);"
 * only foo_driver_init().  Any module_*driver and builtin_*driver
 * macro (module_i2c_driver, module_usb_serial_driver, ...), and their
 * *driver_probe forms.
 */
static const struct macro module_driver_macro = {
	"module_*driver", false, 0, SYM_STATIC, { "%_init", "%_exit" }
};
static const struct macro builtin_driver_macro = {
	"builtin_*driver", false, 0, SYM_STATIC, { "%_init" }
};

/* word_ends - w[0..n) ends in s */
static bool word_ends(const char *w, size_t n, const char *s)
{
	size_t k = strlen(s);

	return n >= k && !memcmp(w + n - k, s, k);
}

/* driver_macro - w[0..n) is a driver's registration macro, or NULL */
static const struct macro *driver_macro(const char *w, size_t n)
{
	const struct macro *m = NULL;

	if (n > 7 && !memcmp(w, "module_", 7))
		m = &module_driver_macro;
	else if (n > 8 && !memcmp(w, "builtin_", 8))
		m = &builtin_driver_macro;
	/* "module_driver(foo_driver, ...)" itself too */
	if (m && (word_ends(w, n, "driver") || word_ends(w, n, "driver_probe")))
		return m;
	return NULL;
}

static const struct macro *find_macro(const char *w, size_t n, bool body)
{
	size_t i;

	if (!body && n >= 13 && (w[0] == 'm' || w[0] == 'b'))
		return driver_macro(w, n);
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

/* a definition whose body is being read: reported at its "}" */
struct pending {
	char name[NAME_MAX_LEN +
		  1]; /* a copy: emit_macro()'s is on its stack */
	unsigned len, flags, line;
};

#define PENDING_MAX 24

struct scanner {
	const char *text, *end;
	const char *line_pos; /* line numbers are counted when needed */
	unsigned line;
	struct sstate s;
	int ncond; /* may exceed COND_MAX: deeper levels are not tracked */
	void (*fn)(void *arg, const struct symbols_def *d);
	void *arg;
	size_t count;
	/* the body being read: its "{", its line, the definitions it ends */
	bool pend;
	const char *body, *params;
	unsigned body_line;
	struct pending pending[PENDING_MAX];
	unsigned npending;
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

/*
 * emit - a definition at where: reported now, or, while a definition's
 * "{" is read (sc->pend), when its body ends (flush())
 */
static void emit(struct scanner *sc, const char *name, size_t len,
		 unsigned flags, const char *where)
{
	struct symbols_def d = { name, len, flags, 0, 0, 0, NULL, 0, NULL, 0 };

	if (!len || len > NAME_MAX_LEN)
		return;
	d.line = d.first = d.last = line_of(sc, where);
	if (sc->pend) {
		struct pending *pd = &sc->pending[sc->npending];

		if (sc->npending == PENDING_MAX)
			return;
		memcpy(pd->name, name, len);
		pd->len = (unsigned)len;
		pd->flags = flags;
		pd->line = d.line;
		sc->npending++;
		return;
	}
	sc->fn(sc->arg, &d);
	sc->count++;
}

/* flush - the definitions of the body that ends before end */
static void flush(struct scanner *sc, const char *end)
{
	struct symbols_def d;
	unsigned i;

	if (!sc->npending)
		return;
	d.last = line_of(sc, end > sc->body ? end - 1 : end);
	d.first = sc->body_line;
	d.body = sc->body;
	d.body_len = (size_t)(end - sc->body);
	d.params = sc->params;
	d.params_len = (size_t)(sc->body - sc->params);
	for (i = 0; i < sc->npending; i++) {
		d.name = sc->pending[i].name;
		d.len = sc->pending[i].len;
		d.flags = sc->pending[i].flags;
		d.line = sc->pending[i].line;
		sc->fn(sc->arg, &d);
		sc->count++;
	}
	sc->npending = 0;
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

/*
 * emit_define - "#define name(...) text": its replacement text is its
 * body (what it calls), over its continuation lines
 */
static void emit_define(struct scanner *sc, const char *m, size_t ml)
{
	const char *end = rest_of_line(sc, m + ml);
	struct symbols_def d = { m, ml,	    SYM_DEFINE, 0,	0,
				 0, m + ml, 0,		m + ml, 0 };
	const char *close = memchr(m + ml, ')', (size_t)(end - m - ml));

	if (ml > NAME_MAX_LEN)
		return;
	d.body_len = (size_t)(end - d.body);
	d.params_len = close ? (size_t)(close - d.params) : 0;
	d.line = d.first = line_of(sc, m);
	d.last = line_of(sc, end);
	sc->fn(sc->arg, &d);
	sc->count++;
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
				emit_define(sc, m, ml);
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
		if (sc->s.func) {
			/*
			 * "#ifdef" / "#else" may open one body twice: its
			 * lines from the first "{", its text from the last
			 */
			if (!sc->npending)
				sc->body_line = line_of(sc, p);
			sc->params = st->cand + st->cand_len;
			if (sc->params > p)
				sc->params = p;
			sc->body = p;
			sc->pend = true;
			definition(sc);
			sc->pend = false;
		}
	}
	sc->s.depth++;
}

/* close_brace - p at "}" */
static void close_brace(struct scanner *sc, const char *p)
{
	struct stmt *st = &sc->s.st;

	if (sc->s.depth == 0)
		return; /* stray, e.g. the end of extern "C" */
	if (--sc->s.depth)
		return;
	if (sc->s.func) {
		flush(sc, p + 1);
		stmt_reset(st);
	} else {
		/* "struct x { ... } y", "= { ... }": the statement goes on */
		st->cand_ok = false;
		st->last_id = false;
	}
	sc->s.func = false;
}

/* symbols_scan_defs - report the function definitions in a C text */
size_t symbols_scan_defs(const char *text, size_t len,
			 void (*fn)(void *arg, const struct symbols_def *d),
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
			close_brace(sc, p);
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
	flush(sc, end); /* a body the text does not close */
	count = sc->count;
	free(sc);
	return count;
}

struct scan_adapter {
	void (*fn)(void *arg, const char *name, size_t len, unsigned flags,
		   unsigned line);
	void *arg;
};

static void adapt(void *arg, const struct symbols_def *d)
{
	const struct scan_adapter *a = arg;

	a->fn(a->arg, d->name, d->len, d->flags, d->line);
}

/* symbols_scan - the definitions' names only */
size_t symbols_scan(const char *text, size_t len,
		    void (*fn)(void *arg, const char *name, size_t len,
			       unsigned flags, unsigned line),
		    void *arg)
{
	struct scan_adapter a = { fn, arg };

	return symbols_scan_defs(text, len, adapt, &a);
}

/* ---- what a body calls ---------------------------------------------- */

/* words before "(" that call nothing */
static const char *const not_calls[] = {
	"if",	       "for",	       "while",		 "switch",
	"return",      "sizeof",       "typeof",	 "__typeof__",
	"__typeof",    "alignof",      "_Alignof",	 "__alignof__",
	"defined",     "asm",	       "__asm__",	 "__asm",
	"volatile",    "__volatile__", "_Static_assert", "static_assert",
	"case",	       "do",	       "else",		 "__attribute__",
	"__attribute", "_Generic",     "__auto_type",	 "goto",
};

static bool calls_nothing(const char *w, size_t n)
{
	size_t i;
	bool lower = false;

	for (i = 0; i < n && !lower; i++)
		lower = w[i] >= 'a' && w[i] <= 'z';
	if (!lower || (n > 10 && !memcmp(w, "__builtin_", 10)))
		return true; /* a macro in capitals, a compiler builtin */
	for (i = 0; i < ARRAY_SIZE(not_calls); i++)
		if (word_is(w, n, not_calls[i]))
			return true;
	return false;
}

/*
 * pointer_call - "(*fn)(" or "(*ops->fn)(" at p ("(" "*"): a call
 * through a function pointer
 */
static bool pointer_call(const char *p, const char *end)
{
	for (p += 2; p < end && (ident_char[(unsigned char)*p] || *p == '-' ||
				 *p == '>' || *p == '.' || blank(*p));
	     p++)
		;
	if (p >= end || *p != ')')
		return false;
	p = skip_blanks(p + 1, end);
	return p < end && *p == '(';
}

/*
 * symbols_body_calls - the names a body calls; SYMBOLS_CALLS_INDIRECT
 * when it also calls through a pointer
 */
/* has_word - does text hold the identifier w as a whole word? */
static bool has_word(const char *text, size_t len, const char *w, size_t n)
{
	const char *p = text, *end = text + len;

	while (p < end && (p = memmem(p, (size_t)(end - p), w, n))) {
		if ((p == text || !ident_char[(unsigned char)p[-1]]) &&
		    (p + n >= end || !ident_char[(unsigned char)p[n]]))
			return true;
		p += n;
	}
	return false;
}

unsigned symbols_body_calls(const char *body, size_t len, const char *params,
			    size_t params_len,
			    void (*fn)(void *arg, const char *name, size_t n),
			    void *arg)
{
	const char *p = body, *end = body + len;
	unsigned flags = 0;

	while (p < end) {
		unsigned char c = (unsigned char)*p;
		const char *w, *q, *b;
		size_t n;

		if (c == '/' && p + 1 < end && (p[1] == '*' || p[1] == '/')) {
			const char *e =
				p[1] == '*'
					? memmem(p + 2, (size_t)(end - p - 2),
						 "*/", 2)
					: memchr(p, '\n', (size_t)(end - p));

			p = e ? e + (p[1] == '*' ? 2 : 0) : end;
			continue;
		}
		if (c == '"' || c == '\'') {
			for (p++; p < end && *p != (char)c && *p != '\n'; p++)
				if (*p == '\\')
					p++;
			p++;
			continue;
		}
		if (c == '(' && p + 1 < end && p[1] == '*' &&
		    pointer_call(p, end))
			flags |= SYMBOLS_CALLS_INDIRECT;
		if (!ident_char[c]) {
			p++;
			continue;
		}
		w = p;
		n = word_len(p, end);
		p += n;
		if (c >= '0' && c <= '9')
			continue;
		for (q = p; q < end && (blank(*q) || *q == '\n'); q++)
			;
		if (q >= end || *q != '(' || n > NAME_MAX_LEN)
			continue;
		for (b = w; b > body && (blank(b[-1]) || b[-1] == '\n'); b--)
			;
		if (b > body &&
		    (b[-1] == '.' ||
		     (b[-1] == '>' && b - 1 > body && b[-2] == '-'))) {
			flags |= SYMBOLS_CALLS_INDIRECT; /* ops->fn(), s.fn() */
			continue;
		}
		if (params && has_word(params, params_len, w, n))
			flags |= SYMBOLS_CALLS_INDIRECT; /* a parameter */
		else if (!calls_nothing(w, n))
			fn(arg, w, n);
	}
	return flags;
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
