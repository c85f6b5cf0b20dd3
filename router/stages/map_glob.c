// SPDX-License-Identifier: GPL-2.0-only
/*
 * map_glob - what a MAINTAINERS F: pattern is made of (see map_glob.h)
 */
#include <stdbool.h>
#include <string.h>

#include "map_glob.h"
#include "strbuf.h"

#define PATH_MAX_LEN 4096

static bool is_regex_meta(char c)
{
	return c == '\\' || c == '+' || c == '(' || c == ')' || c == '{' ||
	       c == '}' || c == '|' || c == '^' || c == '$';
}

/*
 * glob_class_end - end of a "[...]" class starting at p (p[0] == '['), or
 * NULL when the class is unterminated or uses syntax the glob matcher
 * does not handle ("\", "[", and "*" or "?", which get_maintainer.pl's
 * conversion turns into other characters inside the class).
 */
const char *glob_class_end(const char *p)
{
	const char *q = p + 1;

	if (*q == '^')
		q++;
	if (*q == ']')
		q++;
	for (; *q && *q != ']'; q++)
		if (*q == '\\' || *q == '[' || *q == '*' || *q == '?')
			return NULL;
	return *q == ']' ? q : NULL;
}

/* glob_needs_regex - does the glob use regex syntax beyond "* ? [..]"? */
bool glob_needs_regex(const char *g)
{
	const char *p;

	for (p = g; *p; p++) {
		if (*p == '[') {
			const char *e = glob_class_end(p);

			if (!e)
				return true;
			p = e;
		} else if (is_regex_meta(*p)) {
			return true;
		}
	}
	return false;
}

/* glob_to_regex - get_maintainer.pl's glob to regex: . -> \.  * -> .*  ? -> . */
char *glob_to_regex(const char *g)
{
	struct strbuf sb = STRBUF_INIT(PATH_MAX_LEN * 4);
	const char *p;

	for (p = g; *p; p++) {
		int r = 0;

		if (*p == '.')
			r = sb_adds(&sb, "\\.");
		else if (*p == '*')
			r = sb_adds(&sb, ".*");
		else if (*p == '?')
			r = sb_addc(&sb, '.');
		else
			r = sb_addc(&sb, *p);
		if (r < 0)
			break;
	}
	return sb_detach(&sb, NULL);
}

/*
 * glob_bucket_key_len - length of the directory that every path matched by
 * this pattern starts with ("" when unknown); -1 when the pattern must
 * be tried for every path.
 */
long glob_bucket_key_len(const char *g, bool regex)
{
	size_t i, lit = strlen(g);

	if (regex && strpbrk(g, "|()"))
		return -1;
	for (i = 0; g[i]; i++) {
		if (g[i] == '*' || g[i] == '?' || g[i] == '[' ||
		    (regex && is_regex_meta(g[i]))) {
			lit = i;
			/* A quantifier applies to the character before it. */
			if ((g[i] == '+' || g[i] == '{') && lit)
				lit--;
			break;
		}
	}
	while (lit && g[lit - 1] != '/')
		lit--;
	return (long)lit;
}
