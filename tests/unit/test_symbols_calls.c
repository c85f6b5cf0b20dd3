// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_symbols_calls - the lines of each definition and the names its
 * body calls: the scanner (symbols_scan_defs(), symbols_body_calls())
 * on small texts, then the index round trip (symbols_spans(),
 * symbols_calls()) with both readers
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols.h"
#include "tree_scratch.h"
#include "util.h"

/* ---- the scanner ------------------------------------------------------ */

static const char text[] = "static int helper(int x)\n"			 /* 1 */
			   "{\n"					 /* 2 */
			   "\treturn x + 1;\n"				 /* 3 */
			   "}\n"					 /* 4 */
			   "\n"						 /* 5 */
			   "int caller(struct ops *o, int (*cb)(int))\n" /* 6 */
			   "{\n"					 /* 7 */
			   "\tint v = helper(1); /* not_a_call(1) */\n"	 /* 8 */
			   "\n"						 /* 9 */
			   "\tif (v)\n"				    /* 10 */
			   "\t\tv = other (v, \"in_a_string(\");\n" /* 11 */
			   "\tv += sizeof(v) + MAX(v, 2);\n"	    /* 12 */
			   "\treturn v + __builtin_expect(v, 1);\n" /* 13 */
			   "}\n"				    /* 14 */
			   "#define wrap(x) \\\n"		    /* 15 */
			   "\thelper(x)\n"			    /* 16 */
			   "SYSCALL_DEFINE1(frob, int, x)\n"	    /* 17 */
			   "{\n"				    /* 18 */
			   "\treturn helper(x);\n"		    /* 19 */
			   "}\n"				    /* 20 */
			   "int member(struct ops *o)\n"	    /* 21 */
			   "{\n"				    /* 22 */
			   "\treturn o->fn(1);\n"		    /* 23 */
			   "}\n"				    /* 24 */
			   "int param(int (*cb)(int))\n"	    /* 25 */
			   "{\n"				    /* 26 */
			   "\treturn cb(1);\n"			    /* 27 */
			   "}\n"				    /* 28 */
			   "int pointer(int (**tab)(int))\n"	    /* 29 */
			   "{\n"				    /* 30 */
			   "\treturn (*tab[0])(1) + (*fp)(2);\n"    /* 31 */
			   "}\n";				    /* 32 */

struct def {
	char name[32];
	unsigned flags, line, first, last, cflags;
	char calls[128]; /* "a b c" */
};

struct defs {
	struct def v[32];
	size_t n;
};

static void add_call(void *arg, const char *name, size_t n)
{
	struct def *d = arg;
	size_t len = strlen(d->calls);

	assert_true(len + n + 2 < sizeof(d->calls));
	if (len)
		d->calls[len++] = ' ';
	memcpy(d->calls + len, name, n);
	d->calls[len + n] = '\0';
}

static void collect(void *arg, const struct symbols_def *sd)
{
	struct defs *r = arg;
	struct def *d = &r->v[r->n++];

	assert_true(r->n <= ARRAY_SIZE(r->v));
	assert_true(sd->len < sizeof(d->name));
	memset(d, 0, sizeof(*d));
	memcpy(d->name, sd->name, sd->len);
	d->flags = sd->flags;
	d->line = sd->line;
	d->first = sd->first;
	d->last = sd->last;
	if (sd->body)
		d->cflags =
			symbols_body_calls(sd->body, sd->body_len, sd->params,
					   sd->params_len, add_call, d);
}

static const struct def *def(const struct defs *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(r->v[i].name, name))
			return &r->v[i];
	fail_msg("no definition of %s", name);
	return NULL;
}

static void test_scan_spans(void **state)
{
	struct defs r = { .n = 0 };
	const struct def *d;
	size_t n;

	(void)state;
	n = symbols_scan_defs(text, strlen(text), collect, &r);
	assert_int_equal(n, r.n);
	assert_int_equal(n, 12); /* 5 functions, wrap, 6 from SYSCALL_DEFINE1 */
	d = def(&r, "helper");
	assert_int_equal(d->line, 1);
	assert_int_equal(d->first, 2);
	assert_int_equal(d->last, 4);
	d = def(&r, "caller");
	assert_int_equal(d->line, 6);
	assert_int_equal(d->first, 7);
	assert_int_equal(d->last, 14);
	/* a macro: its #define line to its last continuation line */
	d = def(&r, "wrap");
	assert_int_equal(d->flags, SYM_DEFINE);
	assert_int_equal(d->first, 15);
	assert_int_equal(d->last, 16);
	/* every name SYSCALL_DEFINE makes has the one body */
	d = def(&r, "__x64_sys_frob");
	assert_int_equal(d->first, 18);
	assert_int_equal(d->last, 20);
	d = def(&r, "__do_sys_frob");
	assert_int_equal(d->first, 18);
	assert_int_equal(d->last, 20);
	assert_string_equal(d->calls, "helper");
}

static void test_scan_calls(void **state)
{
	struct defs r = { .n = 0 };

	(void)state;
	symbols_scan_defs(text, strlen(text), collect, &r);
	/* no keyword, macro in capitals, builtin, comment or string */
	assert_string_equal(def(&r, "caller")->calls, "helper other");
	assert_int_equal(def(&r, "caller")->cflags, 0);
	assert_string_equal(def(&r, "helper")->calls, "");
	assert_string_equal(def(&r, "wrap")->calls, "helper");
	/* through a pointer: a member, a parameter, "(*p)(" */
	assert_int_equal(def(&r, "member")->cflags, SYMBOLS_CALLS_INDIRECT);
	assert_string_equal(def(&r, "member")->calls, "");
	assert_int_equal(def(&r, "param")->cflags, SYMBOLS_CALLS_INDIRECT);
	assert_string_equal(def(&r, "param")->calls, "");
	assert_int_equal(def(&r, "pointer")->cflags, SYMBOLS_CALLS_INDIRECT);
}

static void test_scan_twice_opened(void **state)
{
	/* "#ifdef/#else" opening one body twice: both names, one span */
	static const char twice[] = "#ifdef A\n"
				    "int one(int a) {\n"
				    "#else\n"
				    "int two(int a) {\n"
				    "#endif\n"
				    "\treturn helper(a);\n"
				    "}\n"
				    "int unclosed(void) {\n"
				    "\thelper(1);\n";
	struct defs r = { .n = 0 };

	(void)state;
	symbols_scan_defs(twice, strlen(twice), collect, &r);
	assert_int_equal(r.n, 3);
	assert_int_equal(def(&r, "one")->first, 2);
	assert_int_equal(def(&r, "one")->last, 7);
	assert_int_equal(def(&r, "two")->last, 7);
	assert_string_equal(def(&r, "two")->calls, "helper");
	/* a body the text does not close ends with the text */
	assert_int_equal(def(&r, "unclosed")->first, 8);
	assert_int_equal(def(&r, "unclosed")->last, 9);
}

/* ---- the index -------------------------------------------------------- */

static char tmpdir[TREE_DIR_MAX];

static void write_text(const char *rel, const char *t)
{
	tree_write(tmpdir, rel, t);
}

static char *make_tree(void)
{
	tree_make(tmpdir, "triage-calls");
	write_text("fs/x/a.c", text);
	write_text("fs/x/b.c", "int leaf(void)\n{\n\treturn 0;\n}\n"
			       "int mid(void)\n{\n\treturn leaf();\n}\n"
			       "int top(void)\n{\n\treturn mid();\n}\n"
			       "int far(void)\n{\n\treturn top();\n}\n"
			       "int via_macro(void)\n{\n\treturn wrap(1);\n}\n"
			       "int unknown_call(void)\n{\n"
			       "\treturn not_indexed(1) + leaf();\n}\n");
	/* helper twice: a.c's calls nothing, c.c's calls leaf */
	write_text("fs/y/c.c", "static int helper(int x)\n{\n"
			       "\treturn leaf();\n}\n");
	return xasprintf("%s/symbols.idx", tmpdir);
}

static void remove_tree(void)
{
	tree_remove(tmpdir);
}

static int calls(const struct symbols *s, const char *caller, const char *file,
		 const char *callee, unsigned depth)
{
	unsigned budget = 64;

	return symbols_calls(s, caller, file, callee, depth, &budget);
}

static void round_trip(struct symbols *(*open_index)(const char *))
{
	char *idx = make_tree();
	struct symbols_span sp[4];
	struct symbols *s;
	unsigned budget = 0;

	assert_int_equal(symbols_build(tmpdir, idx, NULL), 0);
	s = open_index(idx);
	assert_non_null(s);
	/* spans */
	assert_int_equal(symbols_spans(s, "caller", sp, 4), 1);
	assert_string_equal(sp[0].file, "fs/x/a.c");
	assert_int_equal(sp[0].first, 7);
	assert_int_equal(sp[0].last, 14);
	assert_int_equal(symbols_spans(s, "__x64_sys_frob+0x1/0x2", sp, 4), 1);
	assert_int_equal(sp[0].first, 18);
	assert_int_equal(symbols_spans(s, "helper", sp, 4), 2);
	assert_int_equal(symbols_spans(s, "no_such_thing", sp, 4), 0);
	/* direct calls, and calls through functions that left no frame */
	assert_int_equal(calls(s, "caller", NULL, "helper", 0), 1);
	assert_int_equal(calls(s, "mid", NULL, "leaf", 0), 1);
	assert_int_equal(calls(s, "leaf", NULL, "mid", 2), 0);
	assert_int_equal(calls(s, "top", NULL, "leaf", 0), 0);
	assert_int_equal(calls(s, "top", NULL, "leaf", 1), 1);
	assert_int_equal(calls(s, "far", NULL, "leaf", 1), 0);
	assert_int_equal(calls(s, "far", NULL, "leaf", 2), 1);
	/* a macro is no call: free of depth */
	assert_int_equal(calls(s, "via_macro", NULL, "helper", 0), 1);
	/* the definition in the file named; any when none is there */
	assert_int_equal(calls(s, "helper", "fs/y/c.c", "leaf", 0), 1);
	assert_int_equal(calls(s, "helper", "/build/fs/x/a.c", "leaf", 0), 0);
	assert_int_equal(calls(s, "helper", "fs/z/none.c", "leaf", 0), 1);
	/* cannot tell: a pointer call, a name the index lacks, unknown
	 * names, no budget */
	assert_int_equal(calls(s, "member", NULL, "leaf", 2), -1);
	assert_int_equal(calls(s, "param", NULL, "leaf", 2), -1);
	assert_int_equal(calls(s, "unknown_call", NULL, "mid", 0), -1);
	assert_int_equal(calls(s, "unknown_call", NULL, "leaf", 0), 1);
	assert_int_equal(calls(s, "nobody", NULL, "leaf", 2), -1);
	assert_int_equal(calls(s, "mid", NULL, "nobody", 2), -1);
	assert_int_equal(symbols_calls(s, "top", NULL, "leaf", 1, &budget), -1);
	symbols_free(s);
	free(idx);
	remove_tree();
}

static void test_index_mapped(void **state)
{
	(void)state;
	round_trip(symbols_open);
}

static void test_index_pread(void **state)
{
	(void)state;
	round_trip(symbols_open_pread);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scan_spans),
		cmocka_unit_test(test_scan_calls),
		cmocka_unit_test(test_scan_twice_opened),
		cmocka_unit_test(test_index_mapped),
		cmocka_unit_test(test_index_pread),
	};

	msg_setup("test_symbols_calls", 1, false);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
