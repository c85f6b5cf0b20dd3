// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_model_shared - the statistical model on the public labelled corpus
 *
 * Reads ../shared/corpus/reports/index.tsv and its 163 messages (or
 * $TRIAGE_SHARED/corpus/reports), runs grouped 5-fold cross-validation
 * of naive Bayes and logistic regression and prints the figures as
 * "# " lines.  Skipped with a message when the data is absent.
 *
 * TEST-ONLY APPROXIMATION: parsing mail is router/parse.c's job (gmime),
 * which this branch does not have.  The crude extraction below reads
 * the top-level headers up to the first blank line (only Subject goes
 * to the model; From, Message-ID, In-Reply-To and References only form
 * the groups), decodes base64/quoted-printable and walks multipart
 * bodies naively, keeping text/plain parts: the first inline one is the
 * body, the others are attachments.  Charsets are not converted.
 *
 * Groups: examples are joined when they share a sender address (with
 * "+tag" removed), a display name (its words sorted, so "Xie Maoyi" is
 * "Maoyi Xie"), a thread (Message-ID / In-Reply-To / References), or a
 * "group=" tag in index.tsv.  For the Bugzilla relay the sender is the
 * bug's "Reporter:" instead.  No fold ever splits a group.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "model.h"
#include "strbuf.h"
#include "util.h"

#define MAX_MESSAGES 1000
#define MSG_MAX	     (8u << 20)

struct message {
	char *file;
	int cls;
	char *subject;
	char *body;
	size_t body_len;
	char *att[MODEL_MAX_ATTACH];
	size_t att_len[MODEL_MAX_ATTACH];
	size_t natt;
	char **keys; /* grouping keys */
	size_t nkeys, akeys;
	char *group;
};

struct corpus {
	struct message *msg;
	size_t n;
};

static char *corpus_dir;

/* ---- crude MIME (test-only) ------------------------------------------------ */

/* header_value - unfolded value of the first header called name, or NULL */
static char *header_value(const char *h, size_t hlen, const char *name)
{
	size_t nl = strlen(name);
	const char *p = h, *end = h + hlen;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));

		if (!eol)
			eol = end;
		if ((size_t)(eol - p) > nl && !strncasecmp(p, name, nl) &&
		    p[nl] == ':') {
			struct strbuf sb = STRBUF_INIT(64 << 10);
			const char *v = p + nl + 1;

			for (;;) {
				sb_add(&sb, v, (size_t)(eol - v));
				if (eol >= end || eol + 1 >= end ||
				    (eol[1] != ' ' && eol[1] != '\t'))
					break;
				v = eol + 1;
				eol = memchr(v, '\n', (size_t)(end - v));
				if (!eol)
					eol = end;
			}
			for (size_t i = 0; i < sb.len; i++)
				if (sb.buf[i] == '\r' || sb.buf[i] == '\n' ||
				    sb.buf[i] == '\t')
					sb.buf[i] = ' ';
			if (!sb.buf)
				return xstrdup("");
			v = trim(sb.buf);
			memmove(sb.buf, v, strlen(v) + 1);
			return sb.buf;
		}
		p = eol + 1;
	}
	return NULL;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static void qp_decode(struct strbuf *out, const char *s, size_t n, bool header)
{
	size_t i = 0;

	while (i < n) {
		if (s[i] == '=' && i + 2 < n && hexval(s[i + 1]) >= 0 &&
		    hexval(s[i + 2]) >= 0) {
			sb_addc(out, (char)(hexval(s[i + 1]) * 16 +
					    hexval(s[i + 2])));
			i += 3;
		} else if (!header && s[i] == '=' &&
			   (i + 1 == n || s[i + 1] == '\n' ||
			    (s[i + 1] == '\r' && i + 2 < n &&
			     s[i + 2] == '\n'))) {
			i += 1;
			if (i < n && s[i] == '\r')
				i++;
			if (i < n && s[i] == '\n')
				i++;
		} else if (header && s[i] == '_') {
			sb_addc(out, ' ');
			i++;
		} else {
			sb_addc(out, s[i++]);
		}
	}
}

static int b64val(int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

static void b64_decode(struct strbuf *out, const char *s, size_t n)
{
	unsigned acc = 0, bits = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		int v = b64val((unsigned char)s[i]);

		if (s[i] == '=')
			break;
		if (v < 0)
			continue;
		acc = (acc << 6) | (unsigned)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			sb_addc(out, (char)((acc >> bits) & 0xff));
		}
	}
}

/* rfc2047 - decode =?charset?B|Q?...?= words (charset ignored) */
static char *rfc2047(const char *s)
{
	struct strbuf sb = STRBUF_INIT(64 << 10);
	const char *p = s;

	while (*p) {
		const char *q, *enc, *end;

		if (p[0] == '=' && p[1] == '?' && (q = strchr(p + 2, '?')) &&
		    (q[1] == 'B' || q[1] == 'b' || q[1] == 'Q' ||
		     q[1] == 'q') &&
		    q[2] == '?' && (end = strstr(q + 3, "?="))) {
			enc = q + 3;
			if (q[1] == 'B' || q[1] == 'b')
				b64_decode(&sb, enc, (size_t)(end - enc));
			else
				qp_decode(&sb, enc, (size_t)(end - enc), true);
			p = end + 2;
			/* white space between encoded words vanishes */
			q = p;
			while (*q == ' ')
				q++;
			if (q[0] == '=' && q[1] == '?')
				p = q;
			continue;
		}
		sb_addc(&sb, *p++);
	}
	return sb.buf ? sb.buf : xstrdup("");
}

/* param - a Content-Type parameter ("boundary"), or NULL */
static char *param(const char *ct, const char *name)
{
	size_t nl = strlen(name);
	const char *p = ct;

	while ((p = strchr(p, ';'))) {
		const char *v, *e;

		p++;
		while (*p == ' ')
			p++;
		if (strncasecmp(p, name, nl) || p[nl] != '=')
			continue;
		v = p + nl + 1;
		if (*v == '"') {
			e = strchr(++v, '"');
			if (!e)
				e = v + strlen(v);
		} else {
			e = v + strcspn(v, "; ");
		}
		return xstrndup(v, (size_t)(e - v));
	}
	return NULL;
}

static const char *header_end(const char *s, size_t n, size_t *hlen)
{
	const char *p = s, *end = s + n;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));

		if (!eol)
			break;
		if (eol == p || (eol == p + 1 && *p == '\r')) {
			*hlen = (size_t)(p - s);
			return eol + 1;
		}
		p = eol + 1;
	}
	*hlen = n;
	return end;
}

static void add_text(struct message *m, char *text, size_t len, bool attachment)
{
	if (!attachment && !m->body) {
		m->body = text;
		m->body_len = len;
		return;
	}
	if (m->natt < MODEL_MAX_ATTACH) {
		m->att[m->natt] = text;
		m->att_len[m->natt++] = len;
		return;
	}
	free(text);
}

static void walk(struct message *m, const char *s, size_t n, int depth)
{
	size_t hlen;
	const char *body = header_end(s, n, &hlen);
	size_t blen = (size_t)(s + n - body);
	char *ct = header_value(s, hlen, "Content-Type");
	char *cte = header_value(s, hlen, "Content-Transfer-Encoding");
	char *cd = header_value(s, hlen, "Content-Disposition");

	if (ct && !strncasecmp(ct, "multipart/", 10) && depth < 4) {
		char *b = param(ct, "boundary");

		if (b) {
			char *delim = xasprintf("--%s", b);
			size_t dl = strlen(delim);
			const char *p = body, *end = body + blen, *start = NULL;

			while (p < end) {
				const char *eol =
					memchr(p, '\n', (size_t)(end - p));

				if (!eol)
					eol = end;
				if ((size_t)(eol - p) >= dl &&
				    !memcmp(p, delim, dl)) {
					if (start)
						walk(m, start,
						     (size_t)(p - start),
						     depth + 1);
					start = eol < end ? eol + 1 : end;
					if ((size_t)(eol - p) >= dl + 2 &&
					    p[dl] == '-' && p[dl + 1] == '-')
						break;
				}
				p = eol + 1;
			}
			free(delim);
			free(b);
		}
	} else if (!ct || !strncasecmp(ct, "text/plain", 10) ||
		   (depth && !strncasecmp(ct, "text/x-", 7))) {
		struct strbuf sb = STRBUF_INIT(MSG_MAX);
		bool attachment = (cd && !strncasecmp(cd, "attachment", 10)) ||
				  (ct && strcasestr(ct, "name="));

		if (cte && !strncasecmp(cte, "base64", 6))
			b64_decode(&sb, body, blen);
		else if (cte && !strncasecmp(cte, "quoted-printable", 16))
			qp_decode(&sb, body, blen, false);
		else
			sb_add(&sb, body, blen);
		if (sb.buf)
			add_text(m, sb.buf, sb.len, attachment);
	}
	free(ct);
	free(cte);
	free(cd);
}

/* ---- grouping keys ---------------------------------------------------------- */

static void add_key(struct message *m, char *key)
{
	ALLOC_GROW(m->keys, m->nkeys, m->akeys);
	str_tolower(key);
	m->keys[m->nkeys++] = key;
}

/* address - the bare address in "Name <a@b>" or "a@b", "+tag" removed */
static char *address(const char *from)
{
	const char *lt = strchr(from, '<'), *gt;
	char *a, *plus, *at;

	if (lt && (gt = strchr(lt, '>')))
		a = xstrndup(lt + 1, (size_t)(gt - lt - 1));
	else
		a = xstrdup(from);
	at = strchr(a, '@');
	plus = strchr(a, '+');
	if (plus && at && plus < at)
		memmove(plus, at, strlen(at) + 1);
	str_tolower(a);
	return a;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* display_name - lower-cased words of the name, sorted, or NULL */
static char *display_name(const char *from)
{
	const char *lt = strchr(from, '<');
	char *name, *words[16], *tok, *save = NULL;
	struct strbuf sb = STRBUF_INIT(1024);
	size_t n = 0, i;

	if (!lt || lt == from)
		return NULL;
	name = xstrndup(from, (size_t)(lt - from));
	for (tok = strtok_r(name, " \t\",", &save); tok && n < 16;
	     tok = strtok_r(NULL, " \t\",", &save))
		words[n++] = tok;
	qsort(words, n, sizeof(*words), cmp_str);
	for (i = 0; i < n; i++) {
		if (i)
			sb_addc(&sb, ' ');
		sb_adds(&sb, words[i]);
	}
	free(name);
	if (!sb.buf || sb.len < 3) {
		sb_release(&sb);
		return NULL;
	}
	str_tolower(sb.buf);
	return sb.buf;
}

static void add_ids(struct message *m, const char *v)
{
	const char *p = v;

	while (p && (p = strchr(p, '<'))) {
		const char *e = strchr(p, '>');

		if (!e)
			break;
		add_key(m, xasprintf("mid:%.*s", (int)(e - p - 1), p + 1));
		p = e + 1;
	}
}

static bool is_relay(const char *addr)
{
	return starts_with(addr, "bugzilla-daemon@") ||
	       starts_with(addr, "bugbot@");
}

/* reporter - the Bugzilla "Reporter:" address in the body, or NULL */
static char *reporter(const struct message *m)
{
	const char *p;
	size_t n;

	if (!m->body || !(p = strstr(m->body, "Reporter: ")))
		return NULL;
	p += 10;
	n = strcspn(p, " \r\n");
	return n ? xstrndup(p, n) : NULL;
}

static void message_keys(struct message *m, const char *h, size_t hlen,
			 const char *notes)
{
	char *from = header_value(h, hlen, "From");
	char *v;
	const char *g;

	if (from) {
		char *addr = address(from), *name = NULL;

		if (is_relay(addr)) {
			char *rep = reporter(m);

			free(addr);
			addr = rep;
		} else {
			name = display_name(from);
		}
		if (addr)
			add_key(m, xasprintf("addr:%s", addr));
		if (name)
			add_key(m, xasprintf("name:%s", name));
		free(addr);
		free(name);
		free(from);
	}
	if ((v = header_value(h, hlen, "Message-ID"))) {
		add_ids(m, v);
		free(v);
	}
	if ((v = header_value(h, hlen, "In-Reply-To"))) {
		add_ids(m, v);
		free(v);
	}
	if ((v = header_value(h, hlen, "References"))) {
		add_ids(m, v);
		free(v);
	}
	if (notes && (g = strstr(notes, "group="))) {
		size_t n = strcspn(g + 6, "; \t\n");

		add_key(m, xasprintf("tag:%.*s", (int)n, g + 6));
	}
	if (!m->nkeys)
		add_key(m, xasprintf("file:%s", m->file));
}

/* group_all - union of messages sharing a key; group = first file */
static void group_all(struct corpus *c)
{
	size_t *parent = xmalloc(c->n * sizeof(*parent)), i, j, a, b, x, y;

	for (i = 0; i < c->n; i++)
		parent[i] = i;
	for (i = 0; i < c->n; i++)
		for (j = i + 1; j < c->n; j++)
			for (a = 0; a < c->msg[i].nkeys; a++)
				for (b = 0; b < c->msg[j].nkeys; b++) {
					if (strcmp(c->msg[i].keys[a],
						   c->msg[j].keys[b]))
						continue;
					for (x = i; parent[x] != x;
					     x = parent[x])
						;
					for (y = j; parent[y] != y;
					     y = parent[y])
						;
					if (x != y)
						parent[x > y ? x : y] =
							x < y ? x : y;
				}
	for (i = 0; i < c->n; i++) {
		for (x = i; parent[x] != x; x = parent[x])
			;
		c->msg[i].group = xstrdup(c->msg[x].file);
	}
	free(parent);
}

/* ---- loading ------------------------------------------------------------------ */

static int load_message(struct message *m, const char *notes)
{
	char *path = xasprintf("%s/%s", corpus_dir, m->file), *raw, *subj;
	const char *body;
	size_t len, hlen;

	if (read_file(path, MSG_MAX, &raw, &len) < 0) {
		free(path);
		return -1;
	}
	free(path);
	body = header_end(raw, len, &hlen);
	subj = header_value(raw, hlen, "Subject");
	m->subject = subj ? rfc2047(subj) : xstrdup("");
	free(subj);
	walk(m, raw, len, 0);
	(void)body;
	message_keys(m, raw, hlen, notes);
	free(raw);
	return 0;
}

static int load_corpus(struct corpus *c)
{
	char *index = xasprintf("%s/index.tsv", corpus_dir), *text, *line,
	     *save = NULL;
	size_t len;

	if (read_file(index, 1 << 20, &text, &len) < 0) {
		free(index);
		return -1;
	}
	free(index);
	c->msg = xcalloc(MAX_MESSAGES, sizeof(*c->msg));
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *f[5] = { NULL }, *p = line;
		struct message *m;
		int i, cls;

		for (i = 0; i < 5 && p; i++) {
			f[i] = p;
			p = strchr(p, '\t');
			if (p)
				*p++ = '\0';
		}
		if (!f[1] || (cls = model_class_parse(f[1])) < 0)
			continue; /* the header line */
		if (c->n >= MAX_MESSAGES)
			break;
		m = &c->msg[c->n];
		m->file = xstrdup(f[0]);
		m->cls = cls;
		if (load_message(m, f[4]) < 0) {
			free(m->file);
			continue;
		}
		c->n++;
	}
	free(text);
	group_all(c);
	return 0;
}

static void free_corpus(struct corpus *c)
{
	size_t i, j;

	for (i = 0; i < c->n; i++) {
		struct message *m = &c->msg[i];

		free(m->file);
		free(m->subject);
		free(m->body);
		for (j = 0; j < m->natt; j++)
			free(m->att[j]);
		for (j = 0; j < m->nkeys; j++)
			free(m->keys[j]);
		free(m->keys);
		free(m->group);
	}
	free(c->msg);
}

static struct model_example *examples(const struct corpus *c)
{
	struct model_example *ex = xcalloc(c->n + 1, sizeof(*ex));
	size_t i, j;

	for (i = 0; i < c->n; i++) {
		const struct message *m = &c->msg[i];

		model_input_init(&ex[i].in, m->subject, m->body, m->body_len);
		for (j = 0; j < m->natt; j++)
			model_input_add_attachment(&ex[i].in, m->att[j],
						   m->att_len[j]);
		ex[i].cls = m->cls;
		ex[i].group = m->group;
		ex[i].weight = 1;
	}
	return ex;
}

static size_t count_groups(const struct corpus *c)
{
	size_t i, j, n = 0;

	for (i = 0; i < c->n; i++) {
		for (j = 0; j < i; j++)
			if (!strcmp(c->msg[i].group, c->msg[j].group))
				break;
		n += j == i;
	}
	return n;
}

/* ---- tests ---------------------------------------------------------------------- */

static int setup(void **state)
{
	static struct corpus corpus;

	if (load_corpus(&corpus) < 0)
		return -1;
	*state = &corpus;
	return 0;
}

static int teardown(void **state)
{
	free_corpus(*state);
	return 0;
}

static void run_cv(const struct corpus *c, enum model_kind kind,
		   const char *name)
{
	struct model_example *ex = examples(c);
	struct model_options o;
	struct model_eval ev;
	char label[64];
	size_t cls[MODEL_NCLASS] = { 0 }, i, majority = 0;

	model_options_init(&o);
	o.kind = kind;
	assert_int_equal(model_cross_validate(ex, c->n, 5, &o, &ev, NULL, NULL),
			 0);
	snprintf(label, sizeof(label), "model %s 5-fold grouped", name);
	model_eval_print(stdout, label, &ev);
	fflush(stdout);
	assert_int_equal(ev.n, c->n);
	/* above chance: uniform guessing gives a macro-F1 near 1/3, the
	 * majority class an accuracy of its share */
	for (i = 0; i < c->n; i++)
		cls[c->msg[i].cls]++;
	for (i = 0; i < MODEL_NCLASS; i++)
		if (cls[i] > majority)
			majority = cls[i];
	assert_true(ev.macro_f1 > 1.0 / MODEL_NCLASS);
	assert_true(ev.accuracy > (double)majority / (double)c->n);
	free(ex);
}

static void test_corpus_loaded(void **state)
{
	const struct corpus *c = *state;
	size_t i, empty = 0;

	assert_true(c->n >= 100);
	for (i = 0; i < c->n; i++)
		empty += !c->msg[i].body || !c->msg[i].body_len;
	printf("# corpus: %zu messages in %zu author/thread groups, "
	       "%zu without a text body\n",
	       c->n, count_groups(c), empty);
	assert_true(empty < c->n / 10);
}

static void test_cv_nb(void **state)
{
	run_cv(*state, MODEL_NB, "NB");
}

static void test_cv_lr(void **state)
{
	run_cv(*state, MODEL_LR, "LR");
}

static bool find_corpus(void)
{
	const char *shared = getenv("TRIAGE_SHARED");
	const char *src = getenv("TRIAGE_SRCDIR");
	char *dir;
	struct stat st;

	if (shared && *shared)
		dir = xasprintf("%s/corpus/reports", shared);
	else
		dir = xasprintf("%s/../shared/corpus/reports",
				src && *src ? src : ".");
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		printf("# %s is absent: skipping the real-data model test\n",
		       dir);
		free(dir);
		return false;
	}
	corpus_dir = dir;
	return true;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus_loaded),
		cmocka_unit_test(test_cv_nb),
		cmocka_unit_test(test_cv_lr),
	};
	int ret;

	if (!find_corpus())
		return 0;
	ret = cmocka_run_group_tests(tests, setup, teardown);
	free(corpus_dir);
	return ret;
}
