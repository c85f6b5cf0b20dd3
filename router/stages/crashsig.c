// SPDX-License-Identifier: GPL-2.0-only
/*
 * crashsig - the identity of a crash (see crashsig.h)
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "crashlog.h"
#include "crashsig.h"
#include "evidence.h"
#include "report.h"
#include "strbuf.h"
#include "util.h"

static bool ident(int c)
{
	return isalnum(c) || c == '_';
}

/* number_len - length of a number standing alone at s, else 0 */
static size_t number_len(const char *s, const char *start)
{
	const char *p = s;
	size_t hex = 0;
	bool digit = false;

	if (s > start && (ident((unsigned char)s[-1]) || s[-1] == '.'))
		return 0;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
	    isxdigit((unsigned char)p[2])) {
		p += 2;
		while (isxdigit((unsigned char)*p))
			p++;
		return ident((unsigned char)*p) ? 0 : (size_t)(p - s);
	}
	while (isxdigit((unsigned char)p[hex])) {
		digit |= isdigit((unsigned char)p[hex]) != 0;
		hex++;
	}
	if (hex >= 8 && digit && !ident((unsigned char)p[hex]))
		return hex;
	while (isdigit((unsigned char)*p))
		p++;
	if (p == s || ident((unsigned char)*p))
		return 0;
	return (size_t)(p - s);
}

/* crashsig_title - the normalised crash title */
void crashsig_title(const char *title, char *out, size_t size)
{
	struct strbuf sb = STRBUF_INIT(size ? size - 1 : 0);
	const char *p = title;
	bool space = false;
	size_t n;

	if (!size)
		return;
	while (p && *p) {
		if (isspace((unsigned char)*p)) {
			space = true;
			p++;
			continue;
		}
		if (space && sb.len)
			sb_addc(&sb, ' ');
		space = false;
		n = number_len(p, title);
		if (n) {
			sb_addc(&sb, 'N');
			p += n;
		} else {
			sb_addc(&sb, *p++);
		}
	}
	snprintf(out, size, "%s", sb_str(&sb));
	sb_release(&sb);
}

/* crashsig_function - a function name without compiler suffixes */
void crashsig_function(const char *name, char *out, size_t size)
{
	static const char *const suffix[] = {
		".isra", ".constprop", ".part", ".cold", ".llvm", ".lto_priv"
	};
	size_t n = strlen(name), i;
	const char *dot;

	for (dot = strchr(name, '.'); dot; dot = strchr(dot + 1, '.'))
		for (i = 0; i < ARRAY_SIZE(suffix); i++)
			if (!strncmp(dot, suffix[i], strlen(suffix[i])) &&
			    (size_t)(dot - name) < n)
				n = (size_t)(dot - name);
	snprintf(out, size, "%.*s", (int)n, name);
}

/* crashsig_compute - "TITLE|GUILTY|F1,F2,F3"; false when no title */
bool crashsig_compute(const struct evidence *ev, char *out, size_t size)
{
	char title[CRASHSIG_MAX / 2], fn[128], prev[128] = "";
	struct strbuf sb = STRBUF_INIT(size ? size - 1 : 0);
	size_t i, n = 0;

	if (size)
		out[0] = '\0';
	if (!ev || !ev->title || !*ev->title || !size)
		return false;
	crashsig_title(ev->title, title, sizeof(title));
	sb_addf(&sb, "%s|%s|", title, ev->sig_guilty ? ev->sig_guilty : "");
	for (i = 0; i < ev->nframes && n < CRASHSIG_FRAMES; i++) {
		const struct frame *f = &ev->frames[i];

		if (f->unreliable || !f->function ||
		    crashlog_skip_function(f->function))
			continue;
		crashsig_function(f->function, fn, sizeof(fn));
		/* an inlined frame and its caller may repeat a name */
		if (!strcmp(fn, prev))
			continue;
		sb_addf(&sb, "%s%s", n ? "," : "", fn);
		snprintf(prev, sizeof(prev), "%s", fn);
		n++;
	}
	snprintf(out, size, "%s", sb_str(&sb));
	sb_release(&sb);
	return true;
}

/* syz_after - the hex id right after p, into out; false when none */
static bool syz_after(const char *p, char *out, size_t size)
{
	size_t n = 0;

	while (isxdigit((unsigned char)p[n]) && n + 1 < size)
		n++;
	if (n < 8 || ident((unsigned char)p[n]))
		return false;
	memcpy(out, p, n);
	out[n] = '\0';
	for (size_t i = 0; i < n; i++)
		out[i] = (char)tolower((unsigned char)out[i]);
	return true;
}

static bool syz_in(const char *s, const char *key, char *out, size_t size)
{
	const char *p;
	size_t klen = strlen(key);

	for (p = s ? strcasestr(s, key) : NULL; p;
	     p = strcasestr(p + klen, key))
		if (syz_after(p + klen, out, size))
			return true;
	return false;
}

bool crashsig_syzbot_in(const char *s, char *out, size_t size)
{
	if (!size)
		return false;
	out[0] = '\0';
	return syz_in(s, "syzbot+", out, size);
}

/* crashsig_syzbot_id - the syzbot bug id of a report; false when none */
bool crashsig_syzbot_id(const struct report *r, const struct evidence *ev,
			char *out, size_t size)
{
	const char *text;
	size_t i, len;
	char *copy;
	bool ok;

	if (!size)
		return false;
	out[0] = '\0';
	for (i = 0; ev && i < ev->nreported_by; i++)
		if (syz_in(ev->reported_by[i], "syzbot+", out, size))
			return true;
	if (r->from && syz_in(r->from, "syzbot+", out, size))
		return true;
	/* the dashboard link of the body: "bug?extid=0123..." */
	text = r->body;
	len = r->body_len;
	if (!text)
		return false;
	if (len > (64u << 10))
		len = 64u << 10;
	copy = xmalloc(len + 1);
	memcpy(copy, text, len);
	copy[len] = '\0';
	ok = syz_in(copy, "extid=", out, size) ||
	     syz_in(copy, "reported-by: syzbot+", out, size);
	free(copy);
	return ok;
}
