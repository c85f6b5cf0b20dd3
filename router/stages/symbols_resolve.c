// SPDX-License-Identifier: GPL-2.0-only
/*
 * symbols_resolve - give stack frames the file that defines their function
 *
 * Kept apart from symbols.c so that programs (and tests) that only
 * build or query the index do not link the evidence stage.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
 * pair_module - the file of the module a subject's pair of words names
 * ("bcm2835 spi": module spi_bcm2835, or bcm2835_spi), or NULL
 */
static const char *pair_module(const struct symbols *s, const char *pair)
{
	const char *sp = strchr(pair, ' '), *file = NULL;
	int n;
	char *name;

	if (!s || !sp)
		return NULL;
	n = (int)(sp - pair);
	name = xasprintf("module:%.*s_%s", n, pair, sp + 1);
	file = symbols_best(s, name);
	free(name);
	if (!file || !*file) {
		name = xasprintf("module:%s_%.*s", sp + 1, n, pair);
		file = symbols_best(s, name);
		free(name);
	}
	return file && *file ? file : NULL;
}

/* pair_has - w is one of the two words of pair ("bcm2835 spi") */
static bool pair_has(const char *pair, const char *w)
{
	const char *sp = strchr(pair, ' ');
	size_t n = strlen(w);

	return sp && ((n == (size_t)(sp - pair) && !strncasecmp(pair, w, n)) ||
		      !strcasecmp(sp + 1, w));
}

/*
 * keep_pairs - the subject's pairs of words that name a module take the
 * place of their words (the first's place); the others go (evidence.h)
 */
static void keep_pairs(struct evidence *ev)
{
	size_t ns = ev->nnamed_subject, i, j, n = 0;
	char **v, **f;
	bool *placed;

	for (i = 0; i < ns && !strchr(ev->named[i], ' '); i++)
		;
	if (i == ns)
		return;
	v = xcalloc(ev->nnamed, sizeof(*v));
	f = xcalloc(ev->nnamed, sizeof(*f));
	placed = xcalloc(ns, sizeof(*placed));
	for (i = 0; i < ns; i++) {
		if (strchr(ev->named[i], ' '))
			continue;
		for (j = 0; j < ns; j++)
			if (ev->named[j] && ev->named_files[j] &&
			    strchr(ev->named[j], ' ') &&
			    pair_has(ev->named[j], ev->named[i]))
				break;
		if (j == ns) {
			v[n] = ev->named[i];
			f[n++] = ev->named_files[i];
			continue;
		}
		if (!placed[j]) {
			v[n] = ev->named[j];
			f[n++] = ev->named_files[j];
			placed[j] = true;
		}
		/* gone: later words and the pairs' pass skip it */
		free(ev->named[i]);
		free(ev->named_files[i]);
		ev->named[i] = NULL;
		ev->named_files[i] = NULL;
	}
	for (j = 0; j < ns; j++) {
		if (!ev->named[j] || !strchr(ev->named[j], ' ') || placed[j])
			continue;
		if (ev->named_files[j]) {
			v[n] = ev->named[j];
			f[n++] = ev->named_files[j];
			continue;
		}
		free(ev->named[j]);
	}
	ev->nnamed_subject = n;
	for (i = ns; i < ev->nnamed; i++) {
		v[n] = ev->named[i];
		f[n++] = ev->named_files[i];
	}
	free(placed);
	free(ev->named);
	free(ev->named_files);
	ev->named = v;
	ev->named_files = f;
	ev->nnamed = n;
}

/*
 * frame_driver - a frame whose function the index does not know (the
 * report's tree is newer than the index's, or renamed it): the module
 * the frame names ("[mt7921_common]"), else the driver the function's
 * name starts with when that word is marked by a digit, as drivers'
 * names are ("mt7921_channel_switch_rx_beacon": mt7921): its file or
 * directory, or NULL.  A plain word ("usb_", "net_") is no driver's:
 * kbuild has objects of that name all over the tree.
 */
static const char *frame_driver(const struct symbols *s, const struct frame *f)
{
	const char *fn = f->function, *u, *file = NULL, *d;
	char *name;

	if (f->module) {
		name = xasprintf("module:%s", f->module);
		file = symbols_best(s, name);
		free(name);
		if (file && *file)
			return file;
	}
	while (*fn == '_')
		fn++;
	u = strchr(fn, '_');
	if (!u || u - fn < 4 || u - fn > 32)
		return NULL;
	for (d = fn; d < u && !(*d >= '0' && *d <= '9'); d++)
		;
	if (d == u || !(*fn >= 'a' && *fn <= 'z'))
		return NULL;
	name = xasprintf("module:%.*s", (int)(u - fn), fn);
	file = symbols_best(s, name);
	free(name);
	return file && *file ? file : NULL;
}

/*
 * symbols_resolve - fill frames that lack a file; then evidence_finish()
 *
 * A frame gets a file only when one file clearly defines its function
 * (symbols_best()), or, for a function the index does not know, its
 * driver's (frame_driver()); the frame is marked from_index.  s may be NULL (no
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
		if (!file && !f->unreliable)
			file = frame_driver(s, f);
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
			const char *file;
			char *name;

			if (strchr(ev->named[i], ' ')) {
				file = pair_module(s, ev->named[i]);
			} else {
				name = xasprintf("module:%s", ev->named[i]);
				file = symbols_best(s, name);
				free(name);
			}
			if (file && *file)
				ev->named_files[i] = xstrdup(file);
		}
		keep_pairs(ev);
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
