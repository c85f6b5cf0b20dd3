// SPDX-License-Identifier: GPL-2.0-only
/*
 * symbols_modules - the index's records of modules and Kconfig options
 * (symbols_int.h): "module:NAME" from kbuild's Makefiles and from
 * directory names, "kconfig:FOO" from Kconfig files.  Split from
 * symbols.c, which builds the index with them.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "symbols.h"
#include "symbols_int.h"
#include "util.h"

#define NAME_MAX_LEN SYMBOLS_NAME_MAX

#define MAKEFILE_MAX (4u << 20)

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
	return bsearch(&path, fl->v, fl->n, sizeof(*fl->v), symbols_cmp_str) !=
	       NULL;
}

/*
 * first_member - the first object of "NAME-y := a.o b.o" or
 * "NAME-objs := ..." (not a conditional NAME-$(CONFIG_X) line), as
 * "a" in a new string; NULL when there is none
 */
static char *first_member(const char *text, const char *name, size_t n)
{
	const char *p = text;

	while ((p = strstr(p, name))) {
		bool bol = p == text || p[-1] == '\n';
		const char *q = p + n, *w, *e;

		p = q;
		if (!bol || *q != '-')
			continue;
		q++;
		if (!strncmp(q, "objs", 4))
			q += 4;
		else if (*q == 'y')
			q++;
		else
			continue;
		q += strspn(q, " \t");
		if (*q == ':' || *q == '+')
			q++;
		if (*q != '=')
			continue;
		w = q + 1;
		w += strspn(w, " \t");
		e = w + strcspn(w, " \t\n#");
		if (e - w > 2 && !strncmp(e - 2, ".o", 2) &&
		    !memchr(w, '$', (size_t)(e - w)))
			return xmemdup0(w, (size_t)(e - w) - 2);
	}
	return NULL;
}

static void add_module(const char *text, const char *mkpath, size_t dirlen,
		       const char *w, size_t n, const struct file_list *fl,
		       struct mod_list *ml)
{
	struct modrec *m;
	char *name, *c, *first;
	size_t k;

	for (k = 0; k < n; k++)
		if (!mk_ident(w[k]))
			return;
	name = xmemdup0(w, n);
	c = xasprintf("%.*s%s%s.c", (int)dirlen, mkpath, dirlen ? "/" : "",
		      name);
	ALLOC_GROW(ml->v, ml->n, ml->alloc);
	m = &ml->v[ml->n++];
	m->path = NULL;
	m->name = xasprintf("module:%s", name);
	/* The kernel names modules with "_" for "-" (KBUILD_MODNAME). */
	for (k = 7; m->name[k]; k++)
		if (m->name[k] == '-')
			m->name[k] = '_';
	if (!composite(text, name, n) && file_listed(fl, c)) {
		m->path = c;
		c = NULL;
	} else if ((first = first_member(text, name, n))) {
		/*
		 * several objects: the first one's source, the module's core
		 * by kbuild custom (xhci-hcd-y := xhci.o ...), which
		 * MAINTAINERS names as specifically as any of it
		 * (drivers/usb/host/xhci*), where the directory is only the
		 * umbrella's (drivers/usb/)
		 */
		free(c);
		c = xasprintf("%.*s%s%s.c", (int)dirlen, mkpath,
			      dirlen ? "/" : "", first);
		free(first);
		if (file_listed(fl, c)) {
			m->path = c;
			c = NULL;
		}
	}
	if (!m->path)
		m->path = dirlen ? xasprintf("%.*s/", (int)dirlen, mkpath)
				 : xstrdup("");
	free(c);
	free(name);
}

/*
 * configurators - "menuconfig-prog := mconf" of scripts/kconfig/Makefile:
 * the configurator front ends ("make menuconfig", "xconfig", ...) are
 * scripts/kconfig/'s, as reports about them name them.  Only those:
 * the batch targets (oldconfig, allmodconfig, defconfig) are a step of
 * every build report, about the code that fails, not about Kconfig; and
 * "config" itself is a plain word.
 */
static void configurators(const char *text, const char *mkpath, size_t dirlen,
			  struct mod_list *ml)
{
	const char *p;

	for (p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *e = p;

		while ((*e >= 'a' && *e <= 'z') || (*e >= '0' && *e <= '9'))
			e++;
		if (e - p <= 6 || e - p > SYMBOLS_NAME_MAX - 8 ||
		    strncmp(e - 6, "config", 6) || strncmp(e, "-prog", 5))
			continue;
		ALLOC_GROW(ml->v, ml->n, ml->alloc);
		ml->v[ml->n].name = xasprintf("module:%.*s", (int)(e - p), p);
		ml->v[ml->n].path = xasprintf("%.*s/", (int)dirlen, mkpath);
		ml->n++;
	}
}

/*
 * modules_from_makefile - "obj-$(CONFIG_BT_HCIBTUSB) += btusb.o": the
 * module btusb is btusb.c of that directory, or the directory itself
 * when it is made of several objects (xfs-y += ...)
 */
void symbols_modules_from_makefile(const char *root, const char *mkpath,
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
	if (!strcmp(mkpath, "scripts/kconfig/Makefile"))
		configurators(text, mkpath, dirlen, ml);
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
 * kconfig_from_file - "config FOO" and "menuconfig FOO" of one Kconfig
 * file: "kconfig:FOO" -> that file, so that the classifier can tell
 * whether an option a report cites exists (claims.c)
 */
void symbols_kconfig_from_file(const char *root, const char *path,
			       struct mod_list *ml)
{
	char *full = xasprintf("%s/%s", root, path), *text, *p;
	size_t len;

	if (read_file(full, MAKEFILE_MAX, &text, &len) < 0) {
		free(full);
		return;
	}
	free(full);
	for (p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *w = p, *e;

		while (*w == ' ' || *w == '\t')
			w++;
		if (!strncmp(w, "config", 6))
			w += 6;
		else if (!strncmp(w, "menuconfig", 10))
			w += 10;
		else
			continue;
		if (*w != ' ' && *w != '\t')
			continue;
		while (*w == ' ' || *w == '\t')
			w++;
		for (e = w;
		     (*e >= 'A' && *e <= 'Z') || (*e >= 'a' && *e <= 'z') ||
		     (*e >= '0' && *e <= '9') || *e == '_';
		     e++)
			;
		if (e == w || e - w > SYMBOLS_NAME_MAX - 8)
			continue;
		ALLOC_GROW(ml->v, ml->n, ml->alloc);
		ml->v[ml->n].name = xasprintf("kconfig:%.*s", (int)(e - w), w);
		ml->v[ml->n].path = xstrdup(path);
		ml->n++;
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
void symbols_dirs_from_files(const struct file_list *fl, struct mod_list *ml)
{
	static const char *const roots[] = { "drivers/", "sound/", "net/",
					     "fs/" };
	char **dirs = NULL, **keys;
	size_t ndirs = 0, alloc = 0, i, j, k, r, nmods = ml->n;
	char key[NAME_MAX_LEN + 8];
	/* the Makefiles' modules: a directory named like one adds nothing */
	char **mods = xcalloc(nmods + 1, sizeof(*mods));

	for (i = 0; i < nmods; i++)
		mods[i] = ml->v[i].name;
	qsort(mods, nmods, sizeof(*mods), symbols_cmp_str);

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
	if (ndirs)
		qsort(dirs, ndirs, sizeof(*dirs), symbols_cmp_str);
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
	qsort(keys, k, sizeof(*keys), symbols_cmp_str);
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
			char *name = xmemdup0(keys[i], n);

			if (bsearch(&name, mods, nmods, sizeof(*mods),
				    symbols_cmp_str)) {
				free(name);
				continue;
			}

			ALLOC_GROW(ml->v, ml->n, ml->alloc);
			m = &ml->v[ml->n++];
			m->name = name;
			m->path = xstrdup(d);
		}
	}
	free(mods);
	for (i = 0; i < k; i++)
		free(keys[i]);
	free(keys);
	for (i = 0; i < ndirs; i++)
		free(dirs[i]);
	free(dirs);
}
