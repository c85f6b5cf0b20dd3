// SPDX-License-Identifier: GPL-2.0-only
/*
 * rules_eval - the rules' targets and their evaluation over a report
 * (see rules_int.h)
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "report.h"
#include "rules_int.h"
#include "util.h"

/* ---- targets -------------------------------------------------------------- */

/*
 * Headers the transport or a list archive adds: they say nothing about
 * who wrote the report, and a public corpus delivered through an
 * archive carries the archive's, so ALL never includes them.
 */
static const char *const hidden_headers[] = {
	"Received",
	"Return-Path",
	"Delivered-To",
	"X-Original-To",
	"X-Received",
	"DKIM-Signature",
	"X-Google-DKIM-Signature",
	"Authentication-Results",
	"Received-SPF",
	"X-Google-Smtp-Source",
	"X-Forwarded-Encrypted",
	"X-Mailing-List",
	"Precedence",
	"Mailing-List",
};

static const char *const hidden_prefixes[] = {
	"ARC-", "List-", "X-Gm-", "X-Spam-", "X-Triage-",
};

/* rules_header_hidden - a transport/archive header that ALL leaves out */
bool rules_header_hidden(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(hidden_headers); i++)
		if (strcasecmp(name, hidden_headers[i]) == 0)
			return true;
	for (i = 0; i < ARRAY_SIZE(hidden_prefixes); i++)
		if (starts_with_ci(name, hidden_prefixes[i]))
			return true;
	return false;
}

/* sb_add_some - append as much of data as the cap allows */
static void sb_add_some(struct strbuf *sb, const char *data, size_t len)
{
	size_t room = sb->max > sb->len ? sb->max - sb->len : 0;

	sb_add(sb, data, len < room ? len : room);
}

/* rules_addresses - bare addresses of an address header, one per line */
void rules_addresses(const char *v, struct strbuf *out)
{
	bool first = true;

	while (*v) {
		const char *start = v, *lt = NULL, *gt = NULL, *a, *b;
		int quote = 0, paren = 0;

		/* one element: up to a comma outside quotes, <> and () */
		for (; *v; v++) {
			if (quote) {
				if (*v == '\\' && v[1])
					v++;
				else if (*v == '"')
					quote = 0;
			} else if (*v == '"') {
				quote = 1;
			} else if (*v == '(') {
				paren++;
			} else if (*v == ')' && paren) {
				paren--;
			} else if (*v == '<' && !paren && !lt) {
				lt = v;
			} else if (*v == '>' && lt && !gt) {
				gt = v;
			} else if (*v == ',' && !paren && (!lt || gt)) {
				break;
			}
		}
		if (lt && gt) {
			a = lt + 1;
			b = gt;
		} else {
			/* bare: the word holding '@' */
			const char *at =
				memchr(start, '@', (size_t)(v - start));

			a = b = NULL;
			if (at) {
				a = at;
				while (a > start && !strchr(" \t<(\"", a[-1]))
					a--;
				b = at;
				while (b < v && !strchr(" \t>)\",", *b))
					b++;
			}
		}
		while (a && a < b && (*a == ' ' || *a == '\t'))
			a++;
		while (a && b > a && (b[-1] == ' ' || b[-1] == '\t'))
			b--;
		if (a && b > a) {
			const char *c;

			if (!first)
				sb_add_some(out, "\n", 1);
			for (c = a; c < b; c++) {
				char lc = (char)tolower((unsigned char)*c);

				sb_add_some(out, &lc, 1);
			}
			first = false;
		}
		if (*v == ',')
			v++;
	}
}

/*
 * is_attribution - "On ..., X wrote:", "Am ... schrieb X <x@y>:", "Le ...,
 * X a écrit :": a line ending in ':' that holds a verb of writing (it is
 * dropped only when a quote follows)
 */
static bool is_attribution(const char *s, size_t n)
{
	/* UTF-8 in octal escapes, which end after three digits */
	static const char *const verbs[] = {
		"wrote",	  "writes",	     "schrieb",
		"a \303\251crit", "escribi\303\263", "scrisse",
		"napisa\305\202",
	};
	size_t i;

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	if (!n || s[n - 1] != ':')
		return false;
	for (i = 0; i < ARRAY_SIZE(verbs); i++)
		if (memmem(s, n, verbs[i], strlen(verbs[i])))
			return true;
	return false;
}

static bool opens_attribution(const char *s, size_t n)
{
	const char *end = s + n;

	return n > 3 &&
	       (has_prefix(s, end, "On ") || has_prefix(s, end, "Am ") ||
		has_prefix(s, end, "Le ") || has_prefix(s, end, "El "));
}

/*
 * original_message - the line after which a top-posted reply quotes:
 * "-----Original Message-----", or a line of underscores followed by
 * "From:" (Outlook)
 */
static bool original_message(const char *s, size_t n, const char *next,
			     const char *end)
{
	static const char om[] = "-----Original Message-----";
	size_t i = 0, u = 0;

	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (has_prefix_ci(s + i, s + n, om))
		return true;
	for (; i < n && s[i] == '_'; i++)
		u++;
	while (i < n && (s[i] == ' ' || s[i] == '\r'))
		i++;
	return u >= 10 && i == n && has_prefix(next, end, "From:");
}

/*
 * rules_own_text - the report without the quoted text it replies to
 *
 * Drops lines starting with '>', the attribution line ("On Mon, ...
 * X wrote:", possibly wrapped over two lines) right before a quoted
 * block, and everything from an "-----Original Message-----" line or an
 * Outlook "______" separator followed by "From:".
 */
void rules_own_text(const char *text, size_t len, struct strbuf *out)
{
	const char *p = text, *end;
	size_t last = SIZE_MAX, prev = SIZE_MAX; /* nonblank line starts */
	size_t last_len = 0;
	bool last_quoted = false;

	if (len > OWN_INPUT_MAX)
		len = OWN_INPUT_MAX;
	end = text + len;
	while (p < end && out->len < out->max) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		size_t n = (size_t)(eol - p);
		bool blank = true;
		size_t i;

		for (i = 0; i < n; i++)
			if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r') {
				blank = false;
				break;
			}
		if (n && p[0] == '>') {
			/* the attribution before a quote goes with it */
			if (!last_quoted && last != SIZE_MAX &&
			    is_attribution(out->buf + last, last_len)) {
				size_t cut = last;

				if (!opens_attribution(out->buf + last,
						       last_len) &&
				    prev != SIZE_MAX &&
				    opens_attribution(out->buf + prev,
						      last - prev))
					cut = prev;
				sb_truncate(out, cut);
				last = prev = SIZE_MAX;
			}
			last_quoted = true;
			p = nl ? nl + 1 : end;
			continue;
		}
		if (original_message(p, n, nl ? nl + 1 : end, end))
			break;
		if (!blank) {
			last_quoted = false;
			prev = last;
			last = out->len;
			last_len = n;
		}
		sb_add_some(out, p, n);
		if (nl)
			sb_add_some(out, "\n", 1);
		p = nl ? nl + 1 : end;
	}
	if (!out->buf)
		sb_add(out, "", 0);
}

static void build_body(const struct report *r, struct strbuf *sb)
{
	const char *text = r->body;
	size_t len = r->body_len, i;

	if (!text) {
		for (i = 0; i < r->nparts; i++) {
			const struct report_part *p = &r->parts[i];

			if ((p->flags & PART_TEXT) && p->text &&
			    !(p->flags & PART_ATTACHMENT)) {
				text = p->text;
				len = p->len;
				break;
			}
		}
	}
	if (text)
		rules_own_text(text, len, sb);
	else
		sb_add(sb, "", 0);
}

/*
 * dequote - where a line's words start past its quote marks (">",
 * "> > ", " >>"), so that a quoted "## Summary" or "This is ..." reads
 * as the sender's own line would
 */
static size_t dequote(const char *s, size_t n)
{
	size_t i = 0;

	for (;;) {
		size_t j = i;

		while (j < n && j - i < 3 && (s[j] == ' ' || s[j] == '\t'))
			j++;
		if (j >= n || s[j] != '>')
			return i;
		i = j + 1;
		if (i < n && s[i] == ' ')
			i++;
	}
}

/*
 * rules_whole_text - text with every line's quote marks removed and
 * nothing left out (markers, quoted replies and what follows them
 * kept); appends to out (bounded by its cap)
 */
void rules_whole_text(const char *text, size_t len, struct strbuf *out)
{
	const char *p = text, *end;

	if (len > OWN_INPUT_MAX)
		len = OWN_INPUT_MAX;
	end = text + len;
	while (p < end && out->len < out->max) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p), q = dequote(p, n);

		sb_add_some(out, p + q, n - q);
		if (nl)
			sb_add_some(out, "\n", 1);
		p = nl ? nl + 1 : end;
	}
	if (!out->buf)
		sb_add(out, "", 0);
}

/* body_part - the text part the body target reads, or NULL (r->body) */
static const struct report_part *body_part(const struct report *r)
{
	size_t i;

	for (i = 0; i < r->nparts; i++) {
		const struct report_part *p = &r->parts[i];

		if (!(p->flags & PART_TEXT) || !p->text)
			continue;
		if (r->body ? p->len == r->body_len &&
				      !memcmp(p->text, r->body, p->len)
			    : !(p->flags & PART_ATTACHMENT))
			return p;
	}
	return NULL;
}

/*
 * build_whole - what the forward carries of the text: the main text,
 * its quotes and what follows a marker included, then every other
 * text part (attachments, an HTML rendering, a forwarded message),
 * quote marks removed
 */
static void build_whole(const struct report *r, struct strbuf *sb)
{
	const struct report_part *main = body_part(r);
	size_t i;

	if (r->body)
		rules_whole_text(r->body, r->body_len, sb);
	else if (main)
		rules_whole_text(main->text, main->len, sb);
	for (i = 0; i < r->nparts; i++) {
		const struct report_part *p = &r->parts[i];

		if (p == main || !(p->flags & PART_TEXT) || !p->text)
			continue;
		sb_add_some(sb, "\n", 1);
		rules_whole_text(p->text, p->len, sb);
	}
	if (!sb->buf)
		sb_add(sb, "", 0);
}

/* nonblank_lines - lines holding more than blanks; own: up to a "-- " */
static unsigned nonblank_lines(const struct strbuf *sb, bool own)
{
	const char *p = sb->buf, *end = sb->buf + sb->len;
	unsigned n = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end, *q;

		if (own && e - p >= 3 && !memcmp(p, "-- ", 3) &&
		    (e - p == 3 || (e - p == 4 && p[3] == '\r')))
			break; /* a signature is no report */
		for (q = p; q < e; q++)
			if (*q != ' ' && *q != '\t' && *q != '\r')
				break;
		n += q < e;
		p = nl ? nl + 1 : end;
	}
	return n;
}

/* rules_whole_differs - see rules.h */
bool rules_whole_differs(const struct report *r)
{
	struct strbuf own = STRBUF_INIT(RULES_BODY_MAX);
	struct strbuf whole = STRBUF_INIT(RULES_WHOLE_MAX);
	bool differs;

	build_body(r, &own);
	build_whole(r, &whole);
	differs = own.len != whole.len || memcmp(own.buf, whole.buf, own.len);
	sb_release(&own);
	sb_release(&whole);
	return differs;
}

/* part_lines - the nonblank lines of text, quote marks or not */
static unsigned part_lines(const char *text, size_t len)
{
	struct strbuf sb = STRBUF_INIT(RULES_RAWBODY_MAX);
	unsigned n;

	rules_whole_text(text, len, &sb);
	n = nonblank_lines(&sb, false);
	sb_release(&sb);
	return n;
}

/*
 * rules_text_lines - see rules.h.  Another inline text part is the
 * sender's too, and so is a forwarded message (message/rfc822): its
 * author's report, carried whole with its headers (a distribution
 * forwarding a user's bug writes one line of its own); an HTML
 * rendering of the main text counts for neither.  The rules still
 * read all of those as the whole text.
 */
void rules_text_lines(const struct report *r, unsigned *own, unsigned *rest)
{
	const struct report_part *main = body_part(r);
	struct strbuf sb = STRBUF_INIT(RULES_BODY_MAX);
	unsigned all, whole = 0;
	size_t i;

	build_body(r, &sb);
	*own = nonblank_lines(&sb, true);
	all = nonblank_lines(&sb, false);
	sb_release(&sb);
	if (r->body)
		whole = part_lines(r->body, r->body_len);
	else if (main)
		whole = part_lines(main->text, main->len);
	*rest = whole > all ? whole - all : 0;
	for (i = 0; i < r->nparts; i++) {
		const struct report_part *p = &r->parts[i];

		if (p == main || !(p->flags & PART_TEXT) || !p->text ||
		    (p->flags & PART_HTML))
			continue;
		if ((p->flags & PART_ATTACHMENT) && !(p->flags & PART_NESTED))
			*rest += part_lines(p->text, p->len);
		else
			*own += part_lines(p->text, p->len);
	}
}

static void build_rawbody(const struct report *r, struct strbuf *sb)
{
	size_t i;
	bool any = false;

	for (i = 0; i < r->nparts; i++) {
		const struct report_part *p = &r->parts[i];

		if (!(p->flags & PART_TEXT) || !p->text)
			continue;
		if (any)
			sb_add_some(sb, "\n", 1);
		sb_add_some(sb, p->text, p->len);
		any = true;
	}
	if (!any && r->body)
		sb_add_some(sb, r->body, r->body_len);
	if (!sb->buf)
		sb_add(sb, "", 0);
}

static void build_all(const struct report *r, struct strbuf *sb)
{
	size_t i;

	for (i = 0; i < r->nheaders; i++) {
		const struct report_header *h = &r->headers[i];

		if (rules_header_hidden(h->name))
			continue;
		sb_add_some(sb, h->name, strlen(h->name));
		sb_add_some(sb, ": ", 2);
		sb_add_some(sb, h->value, strlen(h->value));
		sb_add_some(sb, "\n", 1);
	}
	if (!sb->buf)
		sb_add(sb, "", 0);
}

/* build_header - every value of field, joined by newlines */
static bool build_header(const struct report *r, const char *field,
			 enum hdr_mode mode, struct strbuf *sb)
{
	const char *pseudo = NULL;
	bool found = false;
	size_t i;

	sb_reset(sb);
	if (strcmp(field, "EnvelopeFrom") == 0)
		pseudo = r->envelope_from ? r->envelope_from : NULL;
	else if (strcmp(field, "EnvelopeTo") == 0)
		pseudo = r->envelope_to ? r->envelope_to : NULL;
	if (pseudo) {
		found = true;
		if (mode == HDR_ADDR)
			rules_addresses(pseudo, sb);
		else
			sb_add_some(sb, pseudo, strlen(pseudo));
	}
	for (i = 0; !pseudo && i < r->nheaders; i++) {
		const struct report_header *h = &r->headers[i];

		if (strcasecmp(h->name, field) != 0)
			continue;
		if (found)
			sb_add_some(sb, "\n", 1);
		found = true;
		if (mode == HDR_ADDR)
			rules_addresses(h->value, sb);
		else
			sb_add_some(sb, h->value, strlen(h->value));
	}
	if (!sb->buf)
		sb_add(sb, "", 0);
	return found;
}

/* ---- evaluation ---------------------------------------------------------- */

static struct rules_scratch *scratch_get(struct rules_result *res,
					 unsigned flags)
{
	struct rules_scratch *s = res->s;

	if (!s) {
		s = res->s = xcalloc(1, sizeof(*s));
		s->md = pcre2_match_data_create(1, NULL);
		s->wctx = pcre2_match_context_create(NULL);
		if (!s->md || !s->wctx)
			die("out of memory");
		pcre2_set_match_limit(s->wctx, RULES_MATCH_LIMIT);
		pcre2_set_depth_limit(s->wctx, RULES_DEPTH_LIMIT);
		pcre2_set_heap_limit(s->wctx, RULES_HEAP_LIMIT_KIB);
		sb_init(&s->body, RULES_BODY_MAX);
		sb_init(&s->raw, RULES_RAWBODY_MAX);
		sb_init(&s->all, RULES_ALL_MAX);
		sb_init(&s->hdr, RULES_HEADER_MAX);
	}
	s->have_body = s->have_raw = s->have_all = false;
	s->have_body_lower = s->have_raw_lower = false;
	s->scan[0].done = s->scan[1].done = false;
	s->body_utf = s->raw_utf = -1;
	sb_reset(&s->body);
	/* the whole text is as long as rawbody's */
	s->body.max =
		flags & RULES_WHOLE_TEXT ? RULES_WHOLE_MAX : RULES_BODY_MAX;
	sb_reset(&s->raw);
	sb_reset(&s->all);
	return s;
}

/* lower_copy - ASCII lower case only, as pcre2's default tables */
static void lower_copy(const struct strbuf *sb, char **dst, size_t *alloc)
{
	const uint64_t ones = 0x0101010101010101ull;
	size_t i = 0;

	if (*alloc < sb->len + 1) {
		free(*dst);
		*alloc = sb->len + 1;
		*dst = xmalloc(*alloc);
	}
	/* eight bytes at a time: 0x20 added to each byte in 'A'..'Z' */
	for (; i + 8 <= sb->len; i += 8) {
		uint64_t w, low7, ge_a, gt_z, upper;

		memcpy(&w, sb->buf + i, 8);
		low7 = w & (0x7f * ones);
		ge_a = low7 + (0x80 - 'A') * ones; /* bit 7: >= 'A' */
		gt_z = low7 + (0x7f - 'Z') * ones; /* bit 7: > 'Z' */
		upper = ge_a & ~gt_z & ~w & (0x80 * ones);
		w |= upper >> 2;
		memcpy(*dst + i, &w, 8);
	}
	for (; i < sb->len; i++) {
		unsigned char ch = (unsigned char)sb->buf[i];

		(*dst)[i] = (char)(ch + ((unsigned char)(ch - 'A') < 26u) * 32);
	}
	(*dst)[sb->len] = '\0';
}

/* target - the body or rawbody text, built on first use */
static void target(struct eval_ctx *c, enum rule_type type, bool lower,
		   struct rules_text *t)
{
	struct rules_scratch *s = c->s;

	if (type == RULE_BODY) {
		if (!s->have_body) {
			if (c->flags & RULES_WHOLE_TEXT)
				build_whole(c->in->report, &s->body);
			else
				build_body(c->in->report, &s->body);
			s->have_body = true;
		}
		if (lower && !s->have_body_lower) {
			lower_copy(&s->body, &s->body_lower,
				   &s->body_lower_alloc);
			s->have_body_lower = true;
		}
		t->text = sb_str(&s->body);
		t->lower = s->have_body_lower ? s->body_lower : NULL;
		t->len = s->body.len;
	} else {
		if (!s->have_raw) {
			build_rawbody(c->in->report, &s->raw);
			s->have_raw = true;
		}
		if (lower && !s->have_raw_lower) {
			lower_copy(&s->raw, &s->raw_lower, &s->raw_lower_alloc);
			s->have_raw_lower = true;
		}
		t->text = sb_str(&s->raw);
		t->lower = s->have_raw_lower ? s->raw_lower : NULL;
		t->len = s->raw.len;
	}
}

/*
 * prefilter_start - where pcre2 may start looking: no match can begin
 * before the first occurrence of one of the rule's literals less the
 * most a match spans before that literal; SIZE_MAX when none occurs
 */
static size_t prefilter_start(struct eval_ctx *c, const struct rule *r,
			      const struct rules_text *t)
{
	const struct prefilter *pf = &r->pf;
	struct rules_scratch *s = c->s;
	int raw = r->type == RULE_RAWBODY, i;
	size_t start = SIZE_MAX;

	if (!pf->ids)
		return 0;
	if (!s->scan[raw].done)
		rl_litindex_scan(&c->rs->lix, t->text, t->lower, t->len,
				 &s->scan[raw]);
	for (i = 0; i < pf->n; i++) {
		uint32_t at = s->scan[raw].first[pf->ids[i]];
		size_t pre = pf->alt[i].maxpre, from;

		if (!at)
			continue;
		from = pre == WIDTH_INF || pre >= at - 1 ? 0 : at - 1 - pre;
		if (from < start)
			start = from;
	}
	return start;
}

static bool regex_match(struct eval_ctx *c, const struct rule *r, const char *s,
			size_t len, size_t start, int *utf_ok)
{
	uint32_t opts = 0;
	int rc;

	if (!r->code)
		return false;
	if (r->utf) {
		if (*utf_ok < 0)
			*utf_ok = utf8_valid(s, len);
		if (!*utf_ok)
			return false;
		opts |= PCRE2_NO_UTF_CHECK;
	}
	c->res->regex_runs++;
	rc = pcre2_match(r->code, (PCRE2_SPTR)s, len, start, opts, c->s->md,
			 c->rs->mctx);
	if (rc >= 0)
		return true;
	if (rc != PCRE2_ERROR_NOMATCH)
		c->res->limit_hits++;
	return false;
}

struct window {
	size_t from, to; /* the first and last offsets a match may start at */
};

#define WINDOWS_MAX 128

static int cmp_window(const void *pa, const void *pb)
{
	const struct window *a = pa, *b = pb;

	if (a->from != b->from)
		return a->from < b->from ? -1 : 1;
	return a->to < b->to ? -1 : a->to > b->to;
}

/*
 * windowed_match - run the regex only where a match can start: a match
 * holds one of the rule's literals, at most maxpre bytes after its
 * start, so every occurrence q of a literal allows starts in
 * [q - maxpre, q].  One pcre2_match() per merged window, its offset
 * limit at the window's end: 1 match, 0 none, -1 too many windows
 * (the caller scans instead)
 */
static int windowed_match(struct eval_ctx *c, const struct rule *r,
			  const struct rules_text *t)
{
	const struct prefilter *pf = &r->pf;
	const struct litscan *ls = &c->s->scan[r->type == RULE_RAWBODY];
	struct window w[WINDOWS_MAX];
	size_t nw = 0, k, from, to;
	int i, rc;

	if (ls->full[pf->ci])
		return -1;
	for (i = 0; i < pf->n; i++) {
		size_t pre = pf->alt[i].maxpre;
		uint32_t o;

		for (o = ls->head[pf->ids[i]]; o; o = ls->occ[o - 1].next) {
			size_t q = ls->occ[o - 1].pos;

			if (nw == WINDOWS_MAX)
				return -1;
			w[nw].from = pre == WIDTH_INF || pre >= q ? 0 : q - pre;
			w[nw++].to = q;
		}
	}
	qsort(w, nw, sizeof(*w), cmp_window);
	for (k = 0; k < nw;) {
		from = w[k].from;
		to = w[k].to;
		for (k++; k < nw && w[k].from <= to + 1; k++)
			if (w[k].to > to)
				to = w[k].to;
		pcre2_set_offset_limit(c->s->wctx, to);
		c->res->regex_runs++;
		rc = pcre2_match(r->code, (PCRE2_SPTR)t->text, t->len, from, 0,
				 c->s->md, c->s->wctx);
		if (rc >= 0)
			return 1;
		if (rc != PCRE2_ERROR_NOMATCH) {
			c->res->limit_hits++;
			return 0;
		}
	}
	return 0;
}

static double eval_rule(struct eval_ctx *c, size_t i);

static double eval_meta(struct eval_ctx *c, const struct rule *r)
{
	double st[META_MAX_OPS];
	size_t sp = 0, k;

	for (k = 0; k < r->nops; k++) {
		const struct meta_op *op = &r->ops[k];
		double a, b;

		if (op->op == OP_NUM) {
			st[sp++] = op->num;
			continue;
		}
		if (op->op == OP_RULE) {
			st[sp++] = eval_rule(c, op->idx);
			continue;
		}
		if (op->op == OP_NOT || op->op == OP_NEG) {
			if (!sp)
				return 0;
			st[sp - 1] =
				op->op == OP_NOT ? !st[sp - 1] : -st[sp - 1];
			continue;
		}
		if (sp < 2)
			return 0;
		b = st[--sp];
		a = st[sp - 1];
		switch (op->op) {
		case OP_ADD:
			a = a + b;
			break;
		case OP_SUB:
			a = a - b;
			break;
		case OP_MUL:
			a = a * b;
			break;
		case OP_LT:
			a = a < b;
			break;
		case OP_LE:
			a = a <= b;
			break;
		case OP_GT:
			a = a > b;
			break;
		case OP_GE:
			a = a >= b;
			break;
		case OP_EQ:
			a = a == b;
			break;
		case OP_NE:
			a = a != b;
			break;
		case OP_AND:
			a = a != 0 && b != 0;
			break;
		case OP_OR:
			a = a != 0 || b != 0;
			break;
		default:
			a = 0;
		}
		st[sp - 1] = a;
	}
	return sp == 1 ? st[0] : 0;
}

static double eval_header(struct eval_ctx *c, const struct rule *r)
{
	const struct report *rep = c->in->report;
	struct rules_scratch *s = c->s;
	const char *subject;
	size_t len;
	int utf = -1;
	bool m;

	if (r->hook)
		return r->hook->fn(c->in, NULL, &r->args);
	if (r->hmode == HDR_EXISTS) {
		size_t i;

		if (strcmp(r->field, "EnvelopeFrom") == 0)
			return rep->envelope_from != NULL;
		if (strcmp(r->field, "EnvelopeTo") == 0)
			return rep->envelope_to != NULL;
		for (i = 0; i < rep->nheaders; i++)
			if (strcasecmp(rep->headers[i].name, r->field) == 0)
				return 1;
		return 0;
	}
	if (r->hmode == HDR_ALL) {
		if (!s->have_all) {
			build_all(rep, &s->all);
			s->have_all = true;
		}
		subject = sb_str(&s->all);
		len = s->all.len;
	} else {
		build_header(rep, r->field, r->hmode, &s->hdr);
		subject = sb_str(&s->hdr);
		len = s->hdr.len;
	}
	m = regex_match(c, r, subject, len, 0, &utf);
	return m != r->negate;
}

static double eval_text(struct eval_ctx *c, const struct rule *r)
{
	bool use_pf = r->pf.n && !(c->flags & RULES_NO_PREFILTER);
	struct rules_text t;
	size_t start = 0;

	/* the literal scan reads the lower-cased text, hooks may */
	target(c, r->type, use_pf || r->hook, &t);
	if (r->hook)
		return r->hook->fn(c->in, &t, &r->args);
	if (use_pf) {
		int m;

		start = prefilter_start(c, r, &t);
		if (start == SIZE_MAX) {
			c->res->prefiltered++;
			return 0;
		}
		if (r->code && !r->utf && (m = windowed_match(c, r, &t)) >= 0)
			return m;
	}
	return regex_match(c, r, t.text, t.len, start,
			   r->type == RULE_BODY ? &c->s->body_utf
						: &c->s->raw_utf);
}

static double eval_rule(struct eval_ctx *c, size_t i)
{
	const struct rule *r = &c->rs->rules[i];
	struct rules_result *res = c->res;
	double v = 0;

	if (res->state[i] == 2)
		return res->value[i];
	if (res->state[i] == 1)
		return 0; /* a cycle: rules_compile() reported it */
	res->state[i] = 1;
	switch (r->type) {
	case RULE_HEADER:
		v = eval_header(c, r);
		break;
	case RULE_BODY:
	case RULE_RAWBODY:
		v = eval_text(c, r);
		break;
	case RULE_META:
		v = eval_meta(c, r);
		break;
	default:
		break;
	}
	if (!isfinite(v))
		v = 0;
	res->value[i] = v;
	res->state[i] = 2;
	return v;
}

void rules_result_init(struct rules_result *res)
{
	memset(res, 0, sizeof(*res));
}

void rules_result_release(struct rules_result *res)
{
	struct rules_scratch *s = res->s;

	if (s) {
		pcre2_match_data_free(s->md);
		pcre2_match_context_free(s->wctx);
		sb_release(&s->body);
		sb_release(&s->raw);
		sb_release(&s->all);
		sb_release(&s->hdr);
		free(s->body_lower);
		free(s->raw_lower);
		for (int k = 0; k < 2; k++) {
			free(s->scan[k].first);
			free(s->scan[k].occ);
		}
		free(s);
	}
	free(res->value);
	free(res->state);
	memset(res, 0, sizeof(*res));
}

/*
 * counts_quoted - whether rule i's value can count for the whole text:
 * a scored rule with an ai or fuzzer score (what the quoted, after-a-
 * marker and attached text may earn; see RULES_WHOLE_TEXT)
 */
static bool counts_quoted(const struct ruleset *rs, size_t i)
{
	const struct rule_info *ri = &rs->rules[i].info;

	return !ri->helper &&
	       (ri->score[CLASS_FUZZER] != 0 || ri->score[CLASS_AI] != 0);
}

/*
 * rules_eval - evaluate every rule on one report
 *
 * Certain rules go first; when one fires, evaluation stops there
 * (res->certain) unless RULES_EVAL_ALL.  With RULES_WHOLE_TEXT only the
 * rules with an ai or fuzzer score and the rules they read are
 * evaluated; every other rule's value is 0.  A res may be reused.
 */
void rules_eval(const struct ruleset *rs, const struct rules_input *in,
		unsigned flags, struct rules_result *res)
{
	struct eval_ctx c;
	bool whole = flags & RULES_WHOLE_TEXT;
	size_t i;

	if (!res->value || res->n != rs->nrules) {
		/* (a fresh result for a ruleset without rules has none) */
		free(res->value);
		free(res->state);
		res->value = xcalloc(rs->nrules + 1, sizeof(*res->value));
		res->state = xcalloc(rs->nrules + 1, 1);
		res->n = rs->nrules;
	} else {
		memset(res->value, 0, rs->nrules * sizeof(*res->value));
		memset(res->state, 0, rs->nrules);
	}
	res->certain = false;
	res->limit_hits = res->regex_runs = res->prefiltered = 0;
	c.rs = rs;
	c.in = in;
	c.res = res;
	c.flags = flags;
	c.s = scratch_get(res, flags);
	for (i = 0; i < rs->nrules; i++) {
		if (!rs->rules[i].info.certain ||
		    (whole && !counts_quoted(rs, i)))
			continue;
		if (eval_rule(&c, i) != 0)
			res->certain = true;
	}
	if (res->certain && !(flags & RULES_EVAL_ALL))
		return;
	for (i = 0; i < rs->nrules; i++)
		if (!whole || counts_quoted(rs, i))
			eval_rule(&c, i);
}
