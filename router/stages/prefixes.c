// SPDX-License-Identifier: GPL-2.0-only
/*
 * prefixes - the subsystem prefixes of a commit-style subject (see
 * prefixes.h)
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "kind.h"
#include "prefixes.h"
#include "strbuf.h"
#include "util.h"

/* words before a ':' that name no subsystem */
static const char *const not_subsys[] = {
	"BUG",	      "WARNING", "INFO",     "KASAN",
	"KMSAN",      "KCSAN",	 "UBSAN",    "KFENCE",
	"Oops",	      "PANIC",	 "panic",    "REGRESSION",
	"Regression", "Bug",	 "Question", "Help",
	"Re",	      "Fwd",	 "Fw",	     "AW",
	"SV",	      "RE",	 "FW",	     "Note",
	"Subject",    "Error",	 "ERROR",    "Warning",
	"Issue",      "Kernel",	 "kernel",   "general protection fault",
	"New", /* "[Bug 220818] New: ..." of Bugzilla */
};

bool prefix_is_subsystem(const char *w, size_t n)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(not_subsys); i++)
		if (strlen(not_subsys[i]) == n && !strncmp(w, not_subsys[i], n))
			return false;
	return true;
}

static bool component_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '/' || c == '-' ||
	       c == '.';
}

static const char *skip_blanks(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* chain_at - the chain at p (end e), or NULL */
static char *chain_at(const char *p, const char *e)
{
	struct strbuf sb;
	size_t k;

	sb_init(&sb, PREFIX_CHAIN_MAX * (PREFIX_COMPONENT_MAX + 2));
	for (k = 0; k < PREFIX_CHAIN_MAX && p < e; k++) {
		size_t n = 0;

		while (p + n < e && component_char(p[n]))
			n++;
		/* the crypto tree's "crypto: caam - RSA ...": the driver
		 * before " - " ends the chain */
		if (k && n && n <= PREFIX_COMPONENT_MAX && e - (p + n) > 3 &&
		    !memcmp(p + n, " - ", 3)) {
			sb_add(&sb, ": ", 2);
			sb_add(&sb, p, n);
			break;
		}
		if (!n || n > PREFIX_COMPONENT_MAX || p + n >= e ||
		    p[n] != ':' || (p + n + 1 < e && p[n + 1] != ' ') ||
		    (k == 0 && !prefix_is_subsystem(p, n)))
			break;
		if (k)
			sb_add(&sb, ": ", 2);
		sb_add(&sb, p, n);
		p += n + 1;
		while (p < e && *p == ' ')
			p++;
	}
	if (!sb.len) {
		sb_release(&sb);
		return NULL;
	}
	return sb_detach(&sb, NULL);
}

char *prefix_chain(const char *subject)
{
	const char *p;

	if (!subject)
		return NULL;
	p = kind_subject_title(subject);
	return chain_at(p, p + strlen(p));
}

/* hex_run - the length of a commit id at p (8 to 40 hex digits) */
static size_t hex_run(const char *p, const char *e)
{
	size_t n = 0;

	while (p + n < e && isxdigit((unsigned char)p[n]) && n <= 40)
		n++;
	if (n < 8 || n > 40 || (p + n < e && isalnum((unsigned char)p[n])))
		return 0;
	return n;
}

/* quoted_subject - 'SHA ("subject")' on the line [p, e) */
static char *quoted_subject(const char *p, const char *e)
{
	const char *q;

	for (q = p; q < e; q++) {
		size_t n;
		const char *s, *close;

		if (!isxdigit((unsigned char)*q) ||
		    (q > p && isalnum((unsigned char)q[-1])))
			continue;
		n = hex_run(q, e);
		if (!n)
			continue;
		s = q + n;
		if (e - s < 4 || memcmp(s, " (\"", 3) != 0)
			continue;
		s += 3;
		/* 'Revert "serial: 8250: ..."', 'Reapply "..."': the
		 * reverted commit's subsystem */
		if (e - s > 8 && (!memcmp(s, "Revert \"", 8) ||
				  (e - s > 9 && !memcmp(s, "Reapply \"", 9))))
			s += s[2] == 'v' ? 8 : 9;
		close = memmem(s, (size_t)(e - s), "\")", 2);
		if (close)
			return chain_at(s, close);
	}
	return NULL;
}

/* next_line - the line after the one ending at e, its end in *le */
static const char *next_line(const char *e, const char *end, const char **le)
{
	const char *p = e < end ? e + 1 : end, *nl;

	nl = memchr(p, '\n', (size_t)(end - p));
	*le = nl ? nl : end;
	return p;
}

/*
 * bisected_subject - a bisection's "commit SHA" line followed by its
 * header lines, a blank one, and the indented subject
 */
static char *bisected_subject(const char *p, const char *e, const char *end)
{
	const char *le;
	unsigned k;

	if (e - p < 15 || memcmp(p, "commit ", 7) != 0 ||
	    hex_run(p + 7, e) != 40)
		return NULL;
	for (k = 0; k < 8 && e < end; k++) {
		p = next_line(e, end, &le);
		e = le;
		if (p == e)
			continue;
		if (*p == ' ' || *p == '\t') {
			p = skip_blanks(p);
			return chain_at(p, e);
		}
		if (strncmp(p, "Author:", 7) && strncmp(p, "Date:", 5) &&
		    strncmp(p, "Commit:", 7) && strncmp(p, "Merge:", 6) &&
		    strncmp(p, "AuthorDate:", 11) &&
		    strncmp(p, "CommitDate:", 11))
			return NULL;
	}
	return NULL;
}

/*
 * robot_commit - the kernel test robot's "commit: SHA [7/9] netfilter:
 * ctnetlink: ..." line: the commit its build or test run blames
 */
static char *robot_commit(const char *p, const char *e)
{
	size_t n;

	if (e - p < 20 || memcmp(p, "commit: ", 8) != 0)
		return NULL;
	p += 8;
	n = hex_run(p, e);
	if (n < 12 || p + n >= e || p[n] != ' ')
		return NULL;
	p = skip_blanks(p + n);
	if (*p == '[') {
		const char *c = memchr(p, ']', (size_t)(e - p));

		if (!c)
			return NULL;
		p = skip_blanks(c + 1);
	}
	if (*p == '(') /* 'SHA ("subject")' is quoted_subject()'s */
		return NULL;
	return chain_at(p, e);
}

char *prefix_culprit(const char *text, size_t len)
{
	const char *p = text, *end, *e;

	if (!text)
		return NULL;
	end = text + (len < PREFIX_SCAN_MAX ? len : PREFIX_SCAN_MAX);
	for (; p < end; p = e + 1) {
		char *c;

		e = memchr(p, '\n', (size_t)(end - p));
		if (!e)
			e = end;
		if (*p != '>' &&
		    ((c = quoted_subject(p, e)) || (c = robot_commit(p, e)) ||
		     (c = bisected_subject(p, e, end))))
			return c;
		if (e == end)
			break;
	}
	return NULL;
}

char *prefix_syz_fs(const char *text, size_t len)
{
	/* syzkaller's pseudo-syscall names that are not the fs/ directory */
	static const char *const alias[][2] = {
		{ "vfat", "fat" },   { "msdos", "fat" }, { "iso9660", "isofs" },
		{ "ntfs", "ntfs3" }, { "ext2", "ext2" }, { "ext3", "ext4" },
	};
	static const char key[] = "syz_mount_image$";
	const char *p, *end;
	size_t i, n;

	if (!text)
		return NULL;
	if (len > PREFIX_SCAN_MAX)
		len = PREFIX_SCAN_MAX;
	end = text + len;
	p = memmem(text, len, key, sizeof(key) - 1);
	if (!p)
		return NULL;
	p += sizeof(key) - 1;
	for (n = 0; p + n < end && n <= PREFIX_COMPONENT_MAX &&
		    (islower((unsigned char)p[n]) ||
		     isdigit((unsigned char)p[n]) || p[n] == '_');
	     n++)
		;
	if (!n || n > PREFIX_COMPONENT_MAX)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(alias); i++)
		if (strlen(alias[i][0]) == n && !strncmp(p, alias[i][0], n))
			return xasprintf("fs/%s", alias[i][1]);
	return xasprintf("fs/%.*s", (int)n, p);
}

char *prefix_merged_tree(const char *subject)
{
	static const char *const lead[] = { "after merge of the ",
					    "after merging the " };
	const char *p = NULL, *e;
	size_t i;

	if (!subject)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(lead) && !p; i++)
		if ((p = strcasestr(subject, lead[i])))
			p += strlen(lead[i]);
	if (!p)
		return NULL;
	for (e = p; component_char(*e) && e - p < 48; e++)
		;
	if (e == p || strncasecmp(e, " tree", 5) ||
	    (e[5] && e[5] != ' ' && e[5] != ','))
		return NULL;
	return xmemdup0(p, (size_t)(e - p));
}
