// SPDX-License-Identifier: GPL-2.0-only
/*
 * symbols_resolve - give stack frames the file that defines their function
 *
 * Kept apart from symbols.c so that programs (and tests) that only
 * build or query the index do not link the evidence stage.
 */
#include <stdlib.h>

#include <string.h>

#include "evidence.h"
#include "symbols.h"
#include "util.h"

/*
 * title_function - the function a crash title ends with: "possible
 * deadlock in nf_tables_dumpreset_rules", "WARNING in foo (2)",
 * "KASAN: slab-use-after-free Read in bar"; copied into buf, or NULL
 */
static const char *title_function(const char *title, char *buf, size_t size)
{
	const char *p = NULL, *q, *e;
	size_t n;

	for (q = title; (q = strstr(q, " in ")); q += 4)
		p = q + 4;
	if (!p)
		return NULL;
	for (e = p; *e && *e != ' ' && *e != '+'; e++)
		if (!(*e == '_' || *e == '.' || (*e >= '0' && *e <= '9') ||
		      (*e >= 'a' && *e <= 'z') || (*e >= 'A' && *e <= 'Z')))
			return NULL;
	n = (size_t)(e - p);
	if (n < 3 || n >= size)
		return NULL;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return buf;
}

/*
 * symbols_resolve - fill frames that lack a file; then evidence_finish()
 *
 * A frame gets a file only when one file clearly defines its function
 * (symbols_best()); the frame is marked from_index.  s may be NULL (no
 * index): the frames are left alone but evidence_finish() still runs.
 */
void symbols_resolve(const struct symbols *s, struct evidence *ev)
{
	size_t i;

	if (!ev)
		return;
	for (i = 0; s && i < ev->nframes; i++) {
		struct frame *f = &ev->frames[i];
		const char *file;

		if (f->file || !f->function)
			continue;
		file = symbols_best(s, f->function);
		if (!file)
			continue;
		f->file = xstrdup(file);
		f->from_index = true;
	}
	/* syzbot's title names its guilty function (sections.c) */
	if (s && ev->syzbot && ev->title && !ev->title_file) {
		char fn[128];
		const char *file = NULL;

		if (title_function(ev->title, fn, sizeof(fn)))
			file = symbols_best(s, fn);
		if (file && *file)
			ev->title_file = xstrdup(file);
	}
	/* Drivers and modules the log names: their source file or dir. */
	for (i = 0; s && i < ev->nmodules; i++) {
		char *name = xasprintf("module:%s", ev->modules[i]);
		const char *file = symbols_best(s, name);
		size_t k;
		bool dup = false;

		free(name);
		if (!file || !*file)
			continue;
		for (k = 0; k < ev->nmodule_files; k++)
			dup |= !strcmp(ev->module_files[k], file);
		if (dup)
			continue;
		ev->module_files =
			xreallocarray(ev->module_files, ev->nmodule_files + 1,
				      sizeof(*ev->module_files));
		ev->module_files[ev->nmodule_files++] = xstrdup(file);
	}
	/* Drivers the subject and prose name, functions the prose names:
	 * only what the index knows, one file or directory each. */
	if (s && ev->nnamed && !ev->named_files) {
		ev->named_files = xcalloc(ev->nnamed, sizeof(*ev->named_files));
		for (i = 0; i < ev->nnamed; i++) {
			char *name = xasprintf("module:%s", ev->named[i]);
			const char *file = symbols_best(s, name);

			free(name);
			if (file && *file)
				ev->named_files[i] = xstrdup(file);
		}
	}
	if (s && ev->ntext_functions && !ev->text_function_files) {
		ev->text_function_files = xcalloc(
			ev->ntext_functions, sizeof(*ev->text_function_files));
		for (i = 0; i < ev->ntext_functions; i++) {
			const char *file =
				symbols_best(s, ev->text_functions[i]);

			if (file && *file)
				ev->text_function_files[i] = xstrdup(file);
		}
	}
	evidence_finish(ev);
}
