// SPDX-License-Identifier: GPL-2.0-only
/*
 * authres - is a sender authenticated by our own mail server (authres.h)
 */
#include <ctype.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>

#include "authres.h"
#include "report.h"
#include "util.h"

/* aligned - domain d is the sender's domain or a parent of it */
static bool aligned(const char *d, size_t n, const char *sender)
{
	const char *dom = strrchr(sender, '@');
	size_t dl;

	if (!dom || !n)
		return false;
	if (memchr(d, '@', n)) { /* header.i=user@domain */
		const char *at = memchr(d, '@', n);

		n -= (size_t)(at + 1 - d);
		d = at + 1;
	}
	dom++;
	dl = strlen(dom);
	if (dl == n && !strncasecmp(dom, d, n))
		return true;
	return dl > n + 1 && dom[dl - n - 1] == '.' &&
	       !strncasecmp(dom + dl - n, d, n);
}

/*
 * method_pass - the resinfo s (one ";" part) is "dkim=pass ... header.d=D"
 * or "spf=pass ... smtp.mailfrom=D" with D aligned with the sender
 */
static bool method_pass(const char *s, size_t len, const char *sender)
{
	static const struct {
		const char *method, *const props[2];
	} m[] = {
		{ "dkim=pass", { "header.d=", "header.i=" } },
		{ "spf=pass", { "smtp.mailfrom=", NULL } },
	};
	const char *p, *e = s + len;
	size_t i, j, n, pl;

	while (s < e && isspace((unsigned char)*s))
		s++;
	for (i = 0; i < ARRAY_SIZE(m); i++) {
		n = strlen(m[i].method);
		if ((size_t)(e - s) < n || strncasecmp(s, m[i].method, n) ||
		    (s + n < e && !isspace((unsigned char)s[n])))
			continue;
		for (p = s + n; p < e; p++) {
			for (j = 0; j < 2 && m[i].props[j]; j++) {
				pl = strlen(m[i].props[j]);
				if ((size_t)(e - p) > pl &&
				    isspace((unsigned char)p[-1]) &&
				    !strncasecmp(p, m[i].props[j], pl)) {
					const char *v = p + pl;
					size_t vl = strcspn(v, " \t;()");

					if (v + vl > e)
						vl = (size_t)(e - v);
					if (aligned(v, vl, sender))
						return true;
				}
			}
		}
	}
	return false;
}

const char *authres_check(const struct report *r, const char *want,
			  const char *sender)
{
	const char *v[32], *s, *semi;
	size_t n, i, idl;

	if (!want || !*want)
		return NULL;
	if (!sender || !*sender)
		return "no sender address to check";
	n = report_header_all(r, "Authentication-Results", v, ARRAY_SIZE(v));
	for (i = 0; i < n && i < ARRAY_SIZE(v); i++) {
		s = v[i];
		while (isspace((unsigned char)*s))
			s++;
		idl = strcspn(s, " \t;");
		if (idl != strlen(want) || strncasecmp(s, want, idl))
			continue; /* another server's: anyone can write one */
		for (s = strchr(s, ';'); s; s = semi) {
			s++;
			semi = strchr(s, ';');
			if (method_pass(s,
					semi ? (size_t)(semi - s) : strlen(s),
					sender))
				return NULL;
		}
		return "no dkim=pass or spf=pass of the sender's domain from the trusted server";
	}
	return "no Authentication-Results header from the trusted server";
}
