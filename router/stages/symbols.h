/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * symbols - kernel function name -> defining source files
 *
 * DESCRIPTION
 *	Part of the evidence stage.  symbols_build() scans a kernel source
 *	tree for function definitions (a fast scanner of C, no ctags at
 *	run time) and writes a compiled index that symbols_open() mmaps.
 *	symbols_resolve() gives stack frames without a file the file that
 *	defines their function; a function the index does not know (a
 *	newer tree's) the file or directory of its frame's "[module]", or
 *	of the driver its name starts with when that word has a digit
 *	("mt7921_..."); and the subject's and text's names their module's
 *	(a pair of words, "bcm2835 spi", in place of its words when the
 *	pair names one: names.h).  The classifier also asks whether a
 *	function named in a report exists at all (symbols_lookup() == 0),
 *	whether a frame's line is inside its function (symbols_spans())
 *	and whether a frame's caller calls it (symbols_calls()).
 *
 *	What the scanner finds: definitions at file scope (a parameter
 *	list followed, after nothing but attributes, by "{"), whatever the
 *	layout (return type on the previous line, multi-line parameters,
 *	"static int __init foo(void)", attributes before or after the
 *	parameters, "void (*f(int))(int) {").  Comments, strings, character
 *	literals and preprocessor lines are skipped; "#if 0" and
 *	"#ifdef __cplusplus" groups are ignored; other conditional groups
 *	are all scanned, and braces follow the first group (so an
 *	"#ifdef/#else" pair that opens a body twice stays balanced).
 *	Prototypes, calls, initialisers and macros invoked at file scope
 *	are not definitions.  Macros that define functions are expanded
 *	from a table: SYSCALL_DEFINEn(name) gives sys_name, __do_sys_name,
 *	__se_sys_name, __x64_sys_name, __ia32_sys_name, __arm64_sys_name;
 *	COMPAT_SYSCALL_DEFINEn the compat_ forms; BPF_CALL_n, x86's
 *	DEFINE_IDTENTRY*, powerpc's DEFINE_INTERRUPT_HANDLER*,
 *	DEFINE_SHOW_ATTRIBUTE and friends (name_open), TRACE_EVENT,
 *	DECLARE_EVENT_CLASS and DEFINE_EVENT (trace_event_raw_event_,
 *	perf_trace_, __traceiter_, trace_) and a few more.  A driver's
 *	registration macro, module_*driver(x) and module_*driver_probe(x)
 *	("module_platform_driver(foo_driver);", module_driver() of
 *	include/linux/device/driver.h), gives x_init and x_exit, the
 *	frames a driver's registration shows; builtin_*driver(x) only
 *	x_init.  (Over Linux 6.12: 13,775 names more, 1.2 % of the
 *	index's size.)  A capitalised
 *	macro with a body that is not in the table defines nothing; nor
 *	does "name(word, word) {" (a definition names its parameters after
 *	their types) or a body that starts like a designated initializer
 *	(powerpc's "define_machine(x) { .name = ..." is a structure).
 *	Not found: K&R definitions and names made by token pasting
 *	("UVERBS_HANDLER(X)(...) {").
 *
 *	Ranking of several definitions, best first, by level: (0) .c
 *	files outside arch/ or in arch/x86/, (1) headers there, (2) weak
 *	definitions there, (3) other architectures, (4) tools/, scripts/,
 *	samples/, Documentation/ and usr/ (not kernel code); within a
 *	level external before static, then by path.  x86 ranks with
 *	generic code because most reports (and syzbot's) come from x86-64.
 *	The clear best (symbols_best()) is the only file at the best level
 *	present: a strong definition in a .c file beats a header's inline
 *	stub, a __weak fallback and other architectures, but two static
 *	functions of the same name in two drivers stay ambiguous.
 *
 *	Lookups strip what a stack frame adds to a name: "+0x1a/0x20" and
 *	compiler suffixes (".constprop.0", ".isra.12", ".cold",
 *	".part.3", ".llvm.123"); an unknown "__ARCH_sys_name" falls back
 *	to __do_sys_name, and a name that is unknown or that only tools/
 *	and such define to name_noprof (since 6.10 kmalloc(),
 *	kmem_cache_alloc() ... are alloc_hooks() macros over
 *	kmalloc_noprof() ...).
 *
 *	The index (format 4) is the sorted names in 4 KB blocks, each
 *	name with its definitions (a file, as an offset into a table of
 *	paths, the lines of the body, and the list of names the body
 *	calls), and a small table of the first name of each block; its
 *	header records the tree's path and version.  Besides functions it
 *	holds "module:NAME" and "kconfig:FOO" (symbols_modules.c), and
 *	"param:NAME", "sysctl:NAME" and "ioctl:NAME" (symbols_facts.c):
 *	symbols_open() mmaps it;
 *	symbols_open_pread() reads the table once, then one block per
 *	name looked up and one read per path returned.  An index of an
 *	older format is refused ('triage update' rebuilds it).  The
 *	header and every array bound are checked when it is opened (a
 *	corrupt file is refused); each offset and each entry is checked
 *	again when a lookup reads it, so a damaged entry is never
 *	followed.
 *
 * Ownership:
 *	Strings returned by lookups are borrowed from the index (with
 *	symbols_open_pread(), copies the index keeps) and valid until
 *	symbols_free().
 *
 * Errors:
 *	symbols_build()/symbols_open() print a message and return -1/NULL.
 *	A lookup that meets a damaged entry warns once and finds nothing.
 */
#ifndef TRIAGE_SYMBOLS_H
#define TRIAGE_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>

struct evidence;
struct symbols;

struct symbols_stats {
	size_t files;	  /* source files scanned */
	size_t functions; /* definitions indexed */
	size_t names;	  /* distinct names */
	double seconds;
};

int symbols_build(const char *tree, const char *out,
		  struct symbols_stats *stats);
struct symbols *symbols_open(const char *path);
/*
 * symbols_open_pread - the same index read with pread(), block by
 * block: for a process that makes a few lookups (the filter), whose
 * resident set a mapping would fill with whole page-cache folios
 */
struct symbols *symbols_open_pread(const char *path);
void symbols_free(struct symbols *s);

/*
 * symbols_lookup - files defining function, best first
 *
 * Stores at most max paths in files and returns how many files define
 * the function (possibly more than max; 0 when it is not in the tree).
 */
size_t symbols_lookup(const struct symbols *s, const char *function,
		      const char **files, size_t max);

/*
 * symbols_best - the one file that clearly defines function (see the
 * ranking above), or NULL when it is unknown or ambiguous
 */
const char *symbols_best(const struct symbols *s, const char *function);

/*
 * symbols_resolve - fill frames that lack a file; then evidence_finish()
 *
 * In symbols_resolve.c, so that programs that only build or query the
 * index do not link the evidence stage.  s may be NULL.
 */
void symbols_resolve(const struct symbols *s, struct evidence *ev);

/*
 * symbols_name_len - length of the function name at the start of a
 * frame's text ("foo.isra.0+0x1a/0x20" -> 3), 0 when it is not a name
 */
size_t symbols_name_len(const char *function);

/* the longest name symbols_scan() reports and the index holds */
#define SYMBOLS_NAME_MAX 255

/* what symbols_scan() reports about a definition */
enum {
	SYM_STATIC = 1 << 0, /* "static" (internal linkage) */
	SYM_WEAK = 1 << 1,   /* __weak or __attribute__((weak)) */
	SYM_MACRO = 1 << 2,  /* a name made by a function-defining macro */
	SYM_DEFINE = 1 << 3, /* a function-like "#define name(" (lower case) */
};

/*
 * symbols_scan - the definitions in one C source text
 *
 * Calls fn for each definition found, with its name (not
 * NUL-terminated), SYM_* flags and the line of the name.  Returns the
 * number of definitions.  Exported for tests and measurements.
 */
size_t symbols_scan(const char *text, size_t len,
		    void (*fn)(void *arg, const char *name, size_t len,
			       unsigned flags, unsigned line),
		    void *arg);

/* a definition as symbols_scan_defs() reports it */
struct symbols_def {
	const char *name; /* not NUL-terminated */
	size_t len;
	unsigned flags; /* SYM_* */
	unsigned line;	/* the name's */
	/*
	 * the body's first ("{") and last ("}") lines; a macro's: its
	 * "#define" line and its last continuation line; a definition
	 * without a body (DEFINE_SHOW_ATTRIBUTE): its line
	 */
	unsigned first, last;
	const char *body; /* "{ ... }", a macro's replacement, or NULL */
	size_t body_len;
	const char *params; /* from the parameters' "(" to the body */
	size_t params_len;
};

/*
 * symbols_scan_defs - symbols_scan() with each definition's span and
 * body; a function's definitions are reported when its body ends
 */
size_t symbols_scan_defs(const char *text, size_t len,
			 void (*fn)(void *arg, const struct symbols_def *d),
			 void *arg);

/* a body also calls through a pointer ("ops->fn(", "(*fn)(") */
#define SYMBOLS_CALLS_INDIRECT 1u

/*
 * symbols_body_calls - the names a body calls: each "name(" of the
 * code, except keywords ("if (", "sizeof("), compiler builtins and
 * macros in capitals (a name may be reported several times).  Returns
 * SYMBOLS_CALLS_INDIRECT when the body also calls through a pointer:
 * "ops->fn(", "(*fn)(", or a name among the parameters (params, may be
 * NULL), else 0.
 */
unsigned symbols_body_calls(const char *body, size_t len, const char *params,
			    size_t params_len,
			    void (*fn)(void *arg, const char *name, size_t n),
			    void *arg);

/* a definition's lines, as symbols_spans() gives them */
struct symbols_span {
	const char *file; /* borrowed, as symbols_lookup()'s */
	unsigned first, last;
};

/*
 * symbols_spans - the definitions of function with their lines, best
 * first; stores at most max and returns how many there are (0: unknown)
 */
size_t symbols_spans(const struct symbols *s, const char *function,
		     struct symbols_span *spans, size_t max);

/*
 * symbols_calls - does the body of caller (its definition in file, any
 * when file is NULL or defines no caller) call callee, directly or
 * through at most depth functions or macros it calls (an inlined or
 * tail-called function leaves no frame)?  1 yes, 0 no, -1 cannot tell:
 * either name unknown, the caller's body calls through a pointer or a
 * name the index does not know, or *budget (definitions read, counted
 * down) ran out.
 */
int symbols_calls(const struct symbols *s, const char *caller, const char *file,
		  const char *callee, unsigned depth, unsigned *budget);

/*
 * The tree indexed: its absolute path when it was indexed (NULL when
 * not recorded) and version, SYMBOLS_VERSION(6, 12, 0) of its Makefile
 * (0: not known)
 */
#define SYMBOLS_TREE_MAX	 256
#define SYMBOLS_VERSION(a, b, c) (((unsigned)(a) << 16) + ((b) << 8) + (c))
const char *symbols_tree(const struct symbols *s);
unsigned symbols_tree_version(const struct symbols *s);

/*
 * symbols_reads - the pread() calls an index opened with
 * symbols_open_pread() made so far (0 when mapped): the blocks and call
 * lists it keeps are not read again
 */
unsigned long symbols_reads(const struct symbols *s);

/*
 * symbols_tree_open - open the file rel (a path relative to the tree,
 * as the index holds them) of the tree indexed, read only: -1 when the
 * tree is not recorded, rel is absolute, has a ".." or hidden
 * component, or a character outside [A-Za-z0-9_./+-], when a component
 * is a symbolic link, or the file is not a regular file
 */
int symbols_tree_open(const struct symbols *s, const char *rel);

/*
 * symbols_has_prefix - is some indexed function name prefix[0..n)
 * followed by at least one more character ("macsmc_" of a driver that
 * a newer tree has)?
 */
bool symbols_has_prefix(const struct symbols *s, const char *prefix, size_t n);

#endif
