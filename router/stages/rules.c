// SPDX-License-Identifier: GPL-2.0-only
/*
 * rules - SpamAssassin-style classification rules, kept as data
 * (see rules.h; the syntax reference is classifiers/README)
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <pcre2.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "experts_history.h"
#include "hash.h"
#include "report.h"
#include "rules_int.h"
#include "strbuf.h"
#include "util.h"

static const char *const class_names[CLASS_N + 1] = {
	[CLASS_USER] = "user",
	[CLASS_FUZZER] = "fuzzer",
	[CLASS_AI] = "ai",
	[CLASS_UNCERTAIN] = "uncertain",
};

static const char *const type_names[] = {
	[RULE_NONE] = "(undefined)", [RULE_HEADER] = "header",
	[RULE_BODY] = "body",	     [RULE_RAWBODY] = "rawbody",
	[RULE_META] = "meta",
};

/* rules_class_name - "user", "fuzzer", "ai", "uncertain" */
const char *rules_class_name(int cls)
{
	if (cls < 0 || cls > CLASS_UNCERTAIN)
		return "?";
	return class_names[cls];
}

/* rules_class_parse - a scored class by name, or -1 */
int rules_class_parse(const char *s)
{
	int c;

	for (c = 0; c < CLASS_N; c++)
		if (strcmp(s, class_names[c]) == 0)
			return c;
	return -1;
}

/* ---- problems ---------------------------------------------------------- */

static void PRINTF_LIKE(5, 6)
	problem(struct ruleset *rs, int file, unsigned line, bool warning,
		const char *fmt, ...)
{
	struct problem *p;
	va_list ap;
	char buf[512];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	ALLOC_GROW(rs->problems, rs->nproblems, rs->problems_alloc);
	p = &rs->problems[rs->nproblems++];
	p->file = file;
	p->line = line;
	p->warning = warning;
	p->compile_stage = rs->compiled;
	p->msg = xstrdup(buf);
}

/* ---- names ------------------------------------------------------------- */

static bool name_equal(const void *rs, uint32_t id, const void *name)
{
	return !strcmp(((const struct ruleset *)rs)->rules[id].name, name);
}

/* rules_find - index of a rule by name, or -1 */
int rules_find(const struct ruleset *rs, const char *name)
{
	uint32_t id = hashmap_get(&rs->names, hash_str(name), name);

	return id == HASHMAP_NONE ? -1 : (int)id;
}

bool rl_valid_name(const char *s)
{
	size_t n = 0;

	if (!isalpha((unsigned char)*s) && *s != '_')
		return false;
	for (; *s; s++, n++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return n <= RULES_NAME_MAX;
}

/* rule_get - the rule of that name, created undefined on first mention */
static size_t rule_get(struct ruleset *rs, const char *name, int file,
		       unsigned line, const char *what)
{
	int found = rules_find(rs, name);
	struct rule *r;

	if (found >= 0)
		return (size_t)found;
	ALLOC_GROW(rs->rules, rs->nrules, rs->rules_alloc);
	r = &rs->rules[rs->nrules];
	memset(r, 0, sizeof(*r));
	r->name = xstrdup(name);
	r->def_file = r->score_file = r->describe_file = r->tflags_file = -1;
	r->ref_file = file;
	r->ref_line = line;
	r->ref_what = what;
	r->certain_class = -1;
	hashmap_add(&rs->names, hash_str(name), (uint32_t)rs->nrules);
	return rs->nrules++;
}

/* ---- lifecycle --------------------------------------------------------- */

/* rules_new - an empty ruleset that knows these eval: hooks */
struct ruleset *rules_new(const struct rules_hook *hooks, size_t nhooks)
{
	struct ruleset *rs = xcalloc(1, sizeof(*rs));
	int i;

	rs->hooks = hooks;
	rs->nhooks = nhooks;
	hashmap_init(&rs->names, name_equal, rs, 0);
	rs->mctx = pcre2_match_context_create(NULL);
	if (!rs->mctx)
		die("out of memory");
	pcre2_set_match_limit(rs->mctx, RULES_MATCH_LIMIT);
	pcre2_set_depth_limit(rs->mctx, RULES_DEPTH_LIMIT);
	pcre2_set_heap_limit(rs->mctx, RULES_HEAP_LIMIT_KIB);
	rs->params.threshold[CLASS_USER] = 1.0;
	rs->params.threshold[CLASS_FUZZER] = 5.0;
	rs->params.threshold[CLASS_AI] = 5.0;
	rs->params.band = 1.0;
	rs->params.user_bias = 1.0;
	rs->params.quoted_weight = RULES_QUOTED_WEIGHT;
	for (i = 0; i < PARAM_N; i++)
		rs->param_file[i] = -1;
	return rs;
}

/* prefilter_free - its ids are the ruleset's (rs->ids) */
static void prefilter_free(struct prefilter *pf)
{
	int i;

	for (i = 0; i < pf->n; i++)
		free(pf->alt[i].s);
	free(pf->alt);
	pf->alt = NULL;
	pf->ids = NULL;
	pf->n = 0;
}

/* rule_clear_definition - forget how a rule matches (not its attributes) */
static void rule_clear_definition(struct rule *r)
{
	free(r->field);
	free(r->pattern);
	pcre2_code_free(r->code);
	prefilter_free(&r->pf);
	free(r->argbuf);
	free(r->ops);
	r->field = r->pattern = r->argbuf = NULL;
	r->code = NULL;
	r->ops = NULL;
	r->nops = 0;
	r->hook = NULL;
	memset(&r->args, 0, sizeof(r->args));
	r->options = 0;
	r->utf = r->negate = false;
	r->hmode = HDR_VALUE;
	r->type = RULE_NONE;
}

static void phrase_list_clear(struct phrase_list *l)
{
	size_t i;

	if (l->owned) {
		for (i = 0; i < l->pub.n; i++)
			free((char *)l->pub.v[i]);
		free((char **)l->pub.v);
		free(l->name);
	}
	memset(l, 0, sizeof(*l));
}

void rules_free(struct ruleset *rs)
{
	size_t i;

	if (!rs)
		return;
	for (i = 0; i < rs->nrules && rs->snap; i++)
		pcre2_code_free(rs->rules[i].code);
	for (i = 0; i < rs->nrules && !rs->snap; i++) {
		rule_clear_definition(&rs->rules[i]);
		free(rs->rules[i].name);
		free(rs->rules[i].describe);
	}
	while (rs->arena) {
		struct arena *next = rs->arena->next;

		free(rs->arena);
		rs->arena = next;
	}
	history_free(rs->history);
	free(rs->snap);
	free(rs->ids);
	free(rs->rules);
	hashmap_release(&rs->names);
	for (i = 0; i < rs->ntests; i++)
		free(rs->tests[i].text);
	free(rs->tests);
	for (i = 0; i < rs->nproblems; i++)
		free(rs->problems[i].msg);
	free(rs->problems);
	for (i = 0; i < rs->nlists; i++)
		phrase_list_clear(&rs->lists[i]);
	free(rs->lists);
	for (i = 0; i < rs->nfiles && !rs->snap; i++)
		free(rs->files[i]);
	free(rs->files);
	pcre2_match_context_free(rs->mctx);
	free(rs->lix.lits);
	free(rs->lix.ci);
	free(rs->lix.keys);
	free(rs->lix.bucket);
	free(rs);
}

/* ---- small parsing helpers -------------------------------------------- */

static char *skip_ws(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* next_word - cut the next blank-separated word out of *sp */
static char *next_word(char **sp)
{
	char *s = skip_ws(*sp), *w = s;

	if (!*s)
		return NULL;
	while (*s && *s != ' ' && *s != '\t')
		s++;
	if (*s)
		*s++ = '\0';
	*sp = s;
	return w;
}

static void rtrim(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = '\0';
}

static int parse_number(const char *s, double *out)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(d) || d < -1000 || d > 1000)
		return -1;
	*out = d;
	return 0;
}

/* ---- regexes ----------------------------------------------------------- */

/*
 * parse_regex - "/re/flags" or "m{re}flags" (any delimiter after m):
 * the pattern runs to the last closing delimiter on the line
 */
static const char *parse_regex(char *s, char **pattern, uint32_t *options,
			       bool *utf)
{
	char close, *end, *f;

	s = skip_ws(s);
	if (*s == '/') {
		close = '/';
		s++;
	} else if (*s == 'm' && s[1] && ispunct((unsigned char)s[1])) {
		close = s[1] == '{'   ? '}'
			: s[1] == '(' ? ')'
			: s[1] == '<' ? '>'
			: s[1] == '[' ? ']'
				      : s[1];
		s += 2;
	} else {
		return "expected /regex/flags";
	}
	rtrim(s);
	end = strrchr(s, close);
	if (!end)
		return "regex has no closing delimiter";
	*end = '\0';
	*options = 0;
	*utf = false;
	for (f = end + 1; *f; f++) {
		switch (*f) {
		case 'i':
			*options |= PCRE2_CASELESS;
			break;
		case 'm':
			*options |= PCRE2_MULTILINE;
			break;
		case 's':
			*options |= PCRE2_DOTALL;
			break;
		case 'x':
			*options |= PCRE2_EXTENDED;
			break;
		case 'u':
			*options |= PCRE2_UTF;
			*utf = true;
			break;
		default:
			return "unknown regex flag (use i, m, s, x, u)";
		}
	}
	if (!*s)
		return "empty regex";
	if (strlen(s) > PATTERN_MAX)
		return "regex too long";
	*pattern = s;
	return NULL;
}

static const char *compile_regex(struct rule *r)
{
	static char msg[256];
	PCRE2_SIZE off;
	int err;
	char e[200];

	/*
	 * Rules never need captures, and the interpreter copies every
	 * capture slot with each backtracking frame: plain (...) groups do
	 * not capture (a backreference needs a named group).
	 */
	r->code = pcre2_compile((PCRE2_SPTR)r->pattern, PCRE2_ZERO_TERMINATED,
				r->options | PCRE2_NO_AUTO_CAPTURE |
					PCRE2_USE_OFFSET_LIMIT,
				&err, &off, NULL);
	if (!r->code) {
		pcre2_get_error_message(err, (PCRE2_UCHAR *)e, sizeof(e));
		snprintf(msg, sizeof(msg), "bad regex at offset %zu: %s",
			 (size_t)off, e);
		return msg;
	}
	rl_prefilter_build(r);
	return NULL;
}

/* ---- eval: hooks ------------------------------------------------------- */

const struct rules_hook *rl_hook_find(const struct ruleset *rs,
				      const char *name)
{
	size_t i;

	for (i = 0; i < rs->nhooks; i++)
		if (strcmp(rs->hooks[i].name, name) == 0)
			return &rs->hooks[i];
	return NULL;
}

/* parse_eval - "eval:name(a, 'b', 3)" into the rule */
static const char *parse_eval(struct ruleset *rs, struct rule *r,
			      enum rule_type type, char *s)
{
	char *name, *open, *close, *a;
	const struct rules_hook *h;
	const char *msg;
	char *buf;
	int argc = 0;

	rtrim(s);
	name = s + strlen("eval:");
	open = strchr(name, '(');
	close = strrchr(name, ')');
	if (!open || !close || close < open || close[1])
		return "expected eval:name(args)";
	*open = '\0';
	h = rl_hook_find(rs, name);
	if (!h)
		return "unknown eval hook";
	if (!(h->on & RULES_ON(type)))
		return "this eval hook cannot be used in this kind of rule";
	*close = '\0';
	buf = xstrdup(open + 1);
	a = buf;
	memset(&r->args, 0, sizeof(r->args));
	if (*skip_ws(a)) {
		for (;;) {
			char *comma = strchr(a, ',');
			char *v;
			size_t n;

			if (comma)
				*comma = '\0';
			v = skip_ws(a);
			rtrim(v);
			n = strlen(v);
			if (n >= 2 && (v[0] == '\'' || v[0] == '"') &&
			    v[n - 1] == v[0]) {
				v[n - 1] = '\0';
				v++;
			}
			if (argc == RULES_MAX_ARGS) {
				free(buf);
				return "too many arguments";
			}
			r->args.argv[argc++] = v;
			if (!comma)
				break;
			a = comma + 1;
		}
	}
	r->args.argc = argc;
	if (argc < h->min_args || argc > h->max_args) {
		free(buf);
		return "wrong number of arguments for this eval hook";
	}
	if (h->check && (msg = h->check(&r->args)) != NULL) {
		free(buf);
		return msg;
	}
	r->argbuf = buf;
	r->hook = h;
	return NULL;
}

/* ---- meta expressions --------------------------------------------------- */

struct meta_parser {
	struct ruleset *rs;
	const char *p;
	int file;
	unsigned line;
	struct meta_op *ops;
	size_t nops, alloc;
	int depth;
	const char *err;
};

static void emit(struct meta_parser *mp, enum meta_opcode op, size_t idx,
		 double num)
{
	if (mp->nops >= META_MAX_OPS) {
		mp->err = "meta expression too long";
		return;
	}
	ALLOC_GROW(mp->ops, mp->nops, mp->alloc);
	mp->ops[mp->nops].op = op;
	mp->ops[mp->nops].idx = idx;
	mp->ops[mp->nops].num = num;
	mp->nops++;
}

static void mp_ws(struct meta_parser *mp)
{
	while (*mp->p == ' ' || *mp->p == '\t')
		mp->p++;
}

static bool mp_eat(struct meta_parser *mp, const char *tok)
{
	size_t n = strlen(tok);

	mp_ws(mp);
	if (strncmp(mp->p, tok, n) != 0)
		return false;
	/* "<" must not take the first half of "<=", "!" of "!=" ... */
	if (n == 1 && (*tok == '<' || *tok == '>' || *tok == '!') &&
	    mp->p[1] == '=')
		return false;
	mp->p += n;
	return true;
}

static void mp_or(struct meta_parser *mp);

static void mp_primary(struct meta_parser *mp)
{
	mp_ws(mp);
	if (mp->err)
		return;
	if (*mp->p == '(') {
		mp->p++;
		if (++mp->depth > RULES_META_MAX_DEPTH) {
			mp->err = "meta expression nested too deeply";
			return;
		}
		mp_or(mp);
		mp->depth--;
		if (!mp->err && !mp_eat(mp, ")"))
			mp->err = "missing ')'";
		return;
	}
	if (isdigit((unsigned char)*mp->p)) {
		char *end;
		double d = strtod(mp->p, &end);

		mp->p = end;
		emit(mp, OP_NUM, 0, d);
		return;
	}
	if (isalpha((unsigned char)*mp->p) || *mp->p == '_') {
		char name[RULES_NAME_MAX + 2];
		size_t n = 0;

		while (isalnum((unsigned char)*mp->p) || *mp->p == '_') {
			if (n < sizeof(name) - 1)
				name[n++] = *mp->p;
			mp->p++;
		}
		name[n] = '\0';
		if (n > RULES_NAME_MAX) {
			mp->err = "rule name too long";
			return;
		}
		emit(mp, OP_RULE,
		     rule_get(mp->rs, name, mp->file, mp->line, "meta"), 0);
		return;
	}
	mp->err = *mp->p ? "unexpected character in meta expression"
			 : "meta expression ends too early";
}

static void mp_unary(struct meta_parser *mp)
{
	if (mp->err)
		return;
	if (mp_eat(mp, "!")) {
		if (++mp->depth > RULES_META_MAX_DEPTH) {
			mp->err = "meta expression nested too deeply";
			return;
		}
		mp_unary(mp);
		mp->depth--;
		emit(mp, OP_NOT, 0, 0);
	} else if (mp_eat(mp, "-")) {
		if (++mp->depth > RULES_META_MAX_DEPTH) {
			mp->err = "meta expression nested too deeply";
			return;
		}
		mp_unary(mp);
		mp->depth--;
		emit(mp, OP_NEG, 0, 0);
	} else {
		mp_primary(mp);
	}
}

static void mp_prod(struct meta_parser *mp)
{
	mp_unary(mp);
	while (!mp->err && mp_eat(mp, "*")) {
		mp_unary(mp);
		emit(mp, OP_MUL, 0, 0);
	}
}

static void mp_sum(struct meta_parser *mp)
{
	mp_prod(mp);
	while (!mp->err) {
		if (mp_eat(mp, "+")) {
			mp_prod(mp);
			emit(mp, OP_ADD, 0, 0);
		} else if (mp_eat(mp, "-")) {
			mp_prod(mp);
			emit(mp, OP_SUB, 0, 0);
		} else {
			break;
		}
	}
}

static void mp_cmp(struct meta_parser *mp)
{
	static const struct {
		const char *tok;
		enum meta_opcode op;
	} ops[] = {
		{ "<=", OP_LE }, { ">=", OP_GE }, { "==", OP_EQ },
		{ "!=", OP_NE }, { "<", OP_LT },  { ">", OP_GT },
	};
	size_t i;

	mp_sum(mp);
	if (mp->err)
		return;
	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		if (mp_eat(mp, ops[i].tok)) {
			mp_sum(mp);
			emit(mp, ops[i].op, 0, 0);
			return;
		}
	}
}

static void mp_and(struct meta_parser *mp)
{
	mp_cmp(mp);
	while (!mp->err && mp_eat(mp, "&&")) {
		mp_cmp(mp);
		emit(mp, OP_AND, 0, 0);
	}
}

static void mp_or(struct meta_parser *mp)
{
	mp_and(mp);
	while (!mp->err && mp_eat(mp, "||")) {
		mp_and(mp);
		emit(mp, OP_OR, 0, 0);
	}
}

static const char *parse_meta(struct ruleset *rs, size_t idx, char *expr,
			      int file, unsigned line)
{
	struct meta_parser mp = { 0 };

	mp.rs = rs;
	mp.p = expr;
	mp.file = file;
	mp.line = line;
	mp_ws(&mp);
	if (!*mp.p)
		return "empty meta expression";
	mp_or(&mp);
	mp_ws(&mp);
	if (!mp.err && *mp.p)
		mp.err = *mp.p == '&' || *mp.p == '|'
				 ? "use && and || in meta expressions"
				 : "unexpected text after the meta expression";
	if (mp.err) {
		free(mp.ops);
		return mp.err;
	}
	rs->rules[idx].ops = mp.ops;
	rs->rules[idx].nops = mp.nops;
	return NULL;
}

/* ---- directives ---------------------------------------------------------- */

/*
 * set_once - note that file sets attribute *slot_file; complain if the
 * same file already did
 */
static bool set_once(struct ruleset *rs, int *slot_file, unsigned *slot_line,
		     int file, unsigned line, const char *what,
		     const char *name)
{
	if (*slot_file == file) {
		problem(rs, file, line, false, "duplicate %s for %s (line %u)",
			what, name, *slot_line);
		return false;
	}
	*slot_file = file;
	*slot_line = line;
	return true;
}

static void define_rule(struct ruleset *rs, enum rule_type type,
			const char *name, char *rest, int file, unsigned line)
{
	size_t idx = rule_get(rs, name, file, line, type_names[type]);
	struct rule *r = &rs->rules[idx];
	const char *msg = NULL;
	char *pattern = NULL;

	if (r->def_file == file) {
		problem(rs, file, line, false,
			"duplicate definition of %s (line %u)", name,
			r->def_line);
		return;
	}
	rule_clear_definition(r);
	r->def_file = file;
	r->def_line = line;
	rest = skip_ws(rest);
	if (type == RULE_META) {
		msg = parse_meta(rs, idx, rest, file, line);
		r = &rs->rules[idx]; /* rule_get() may have moved it */
	} else if (starts_with(rest, "eval:")) {
		msg = parse_eval(rs, r, type, rest);
	} else if (type == RULE_HEADER && starts_with(rest, "exists:")) {
		char *f = rest + strlen("exists:");

		rtrim(f);
		if (!*f || strpbrk(f, " \t:"))
			msg = "expected exists:Field";
		else {
			r->field = xstrdup(f);
			r->hmode = HDR_EXISTS;
		}
	} else if (type == RULE_HEADER) {
		char *field = next_word(&rest), *op = next_word(&rest), *colon;

		if (!field || !op)
			msg = "expected: header NAME Field =~ /regex/flags";
		else if (strcmp(op, "=~") != 0 && strcmp(op, "!~") != 0)
			msg = "expected =~ or !~ after the header field";
		else {
			r->negate = op[0] == '!';
			colon = strchr(field, ':');
			r->hmode = HDR_VALUE;
			if (colon) {
				if (strcmp(colon, ":addr") != 0)
					msg = "unknown header modifier (only :addr)";
				*colon = '\0';
				r->hmode = HDR_ADDR;
			}
			if (strcmp(field, "ALL") == 0) {
				if (colon)
					msg = "ALL takes no modifier";
				r->hmode = HDR_ALL;
			}
			if (!msg)
				msg = parse_regex(rest, &pattern, &r->options,
						  &r->utf);
			if (!msg)
				r->field = xstrdup(field);
		}
	} else {
		msg = parse_regex(rest, &pattern, &r->options, &r->utf);
	}
	if (!msg && pattern) {
		r->pattern = xstrdup(pattern);
		msg = compile_regex(r);
	}
	if (msg) {
		problem(rs, file, line, false, "%s %s: %s", type_names[type],
			name, msg);
		rule_clear_definition(r);
		r->def_file = file; /* still a duplicate if repeated */
		return;
	}
	r->type = type;
}

static void do_score(struct ruleset *rs, const char *name, char *rest, int file,
		     unsigned line)
{
	size_t idx = rule_get(rs, name, file, line, "score");
	struct rule *r = &rs->rules[idx];
	double score[CLASS_N] = { 0 };
	char *w;
	int n = 0;

	while ((w = next_word(&rest)) != NULL) {
		char *eq = strchr(w, '=');
		int c;
		double d;

		if (!eq && strcmp(w, "0") == 0 && n == 0) {
			n = -1;
			continue;
		}
		if (!eq || n < 0) {
			problem(rs, file, line, false,
				"score %s: expected CLASS=N, not '%s'", name,
				w);
			return;
		}
		*eq = '\0';
		c = rules_class_parse(w);
		if (c < 0) {
			problem(rs, file, line, false,
				"score %s: unknown class '%s'", name, w);
			return;
		}
		if (parse_number(eq + 1, &d) < 0) {
			problem(rs, file, line, false,
				"score %s: bad number '%s'", name, eq + 1);
			return;
		}
		score[c] = d;
		n++;
	}
	if (n == 0) {
		problem(rs, file, line, false,
			"score %s: give CLASS=N (user, fuzzer, ai) or 0", name);
		return;
	}
	if (!set_once(rs, &r->score_file, &r->score_line, file, line, "score",
		      name))
		return;
	memcpy(r->score, score, sizeof(score));
	r->scored = true;
}

/* unescape - \n \t \\ and \xHH in test texts */
static char *unescape(const char *s, size_t *len)
{
	char *out = xmalloc(strlen(s) + 1), *o = out;

	while (*s) {
		if (s[0] == '\\' && s[1]) {
			s++;
			switch (*s) {
			case 'n':
				*o++ = '\n';
				break;
			case 't':
				*o++ = '\t';
				break;
			case 'x':
				if (isxdigit((unsigned char)s[1]) &&
				    isxdigit((unsigned char)s[2])) {
					char h[3] = { s[1], s[2], 0 };

					*o++ = (char)strtol(h, NULL, 16);
					s += 2;
					break;
				}
				/* fall through */
			default:
				*o++ = *s;
			}
			s++;
			continue;
		}
		*o++ = *s++;
	}
	*o = '\0';
	*len = (size_t)(o - out);
	return out;
}

static void do_param(struct ruleset *rs, const char *directive, const char *arg,
		     char *rest, int file, unsigned line)
{
	int slot;
	double d, *dst;
	char *v;

	if (strcmp(directive, "threshold") == 0) {
		int c = rules_class_parse(arg);

		if (c < 0) {
			problem(rs, file, line, false,
				"threshold: unknown class '%s'", arg);
			return;
		}
		slot = PARAM_THRESHOLD + c;
		dst = &rs->params.threshold[c];
		v = next_word(&rest);
	} else {
		slot = strcmp(directive, "uncertain_band") == 0 ? PARAM_BAND
		       : strcmp(directive, "user_bias") == 0	? PARAM_BIAS
								: PARAM_QUOTED;
		dst = slot == PARAM_BAND   ? &rs->params.band
		      : slot == PARAM_BIAS ? &rs->params.user_bias
					   : &rs->params.quoted_weight;
		v = (char *)arg;
	}
	if (!v || next_word(&rest) || parse_number(v, &d) < 0) {
		problem(rs, file, line, false, "%s: expected a number",
			directive);
		return;
	}
	if ((slot == PARAM_BAND || slot == PARAM_BIAS) && d < 0) {
		problem(rs, file, line, false, "%s must not be negative",
			directive);
		return;
	}
	if (slot == PARAM_QUOTED && (d < 0 || d > 1)) {
		problem(rs, file, line, false, "%s must be 0 to 1", directive);
		return;
	}
	if (!set_once(rs, &rs->param_file[slot], &rs->param_line[slot], file,
		      line, directive, arg))
		return;
	*dst = d;
}

/* phrase_check - why phrase p cannot be in a list, or NULL */
static const char *phrase_check(const char *p)
{
	size_t n = strlen(p), i;

	if (n < 2)
		return "shorter than 2 bytes";
	if (n > RULES_PHRASE_MAX)
		return "too long";
	for (i = 0; i < n; i++)
		if (p[i] >= 'A' && p[i] <= 'Z')
			return "has capitals (the text is matched in lower case)";
	return NULL;
}

/*
 * do_phrases - "phrases NAME a, b, c": the phrase list of the hook NAME;
 * a later file's list replaces an earlier one
 */
static void do_phrases(struct ruleset *rs, const char *name, char *rest,
		       int file, unsigned line)
{
	struct phrase_list l = { .file = file, .line = line, .owned = true };
	char **v = xcalloc(RULES_PHRASES_MAX, sizeof(*v));
	const char *msg = NULL;
	char *p = rest;
	size_t i;

	while (p && !msg) {
		char *comma = strchr(p, ',');

		if (comma)
			*comma = '\0';
		p = skip_ws(p);
		rtrim(p);
		if (l.pub.n == RULES_PHRASES_MAX)
			msg = "too many phrases";
		else if ((msg = phrase_check(p)) == NULL)
			v[l.pub.n++] = xstrdup(p);
		p = comma ? comma + 1 : NULL;
	}
	l.pub.v = (const char *const *)v;
	l.name = xstrdup(name);
	for (i = 0; !msg && i < rs->nlists; i++) {
		if (strcmp(rs->lists[i].name, name) != 0)
			continue;
		if (rs->lists[i].file == file) {
			problem(rs, file, line, false,
				"duplicate phrases %s (line %u)", name,
				rs->lists[i].line);
			phrase_list_clear(&l);
			return;
		}
		phrase_list_clear(&rs->lists[i]);
		rs->lists[i] = l;
		return;
	}
	if (msg && l.pub.n == RULES_PHRASES_MAX)
		problem(rs, file, line, false,
			"phrases %s: more than %d phrases", name,
			RULES_PHRASES_MAX);
	else if (msg)
		problem(rs, file, line, false, "phrases %s: phrase %zu %s",
			name, l.pub.n + 1, msg);
	if (msg) {
		phrase_list_clear(&l);
		return;
	}
	ALLOC_GROW(rs->lists, rs->nlists, rs->lists_alloc);
	rs->lists[rs->nlists++] = l;
}

static void parse_line(struct ruleset *rs, int file, unsigned line, char *s)
{
	char *directive = next_word(&s), *name;
	size_t idx;

	if (!directive)
		return;
	name = next_word(&s);
	if (!name) {
		problem(rs, file, line, false, "%s: missing argument",
			directive);
		return;
	}
	if (strcmp(directive, "threshold") == 0 ||
	    strcmp(directive, "uncertain_band") == 0 ||
	    strcmp(directive, "user_bias") == 0 ||
	    strcmp(directive, "quoted_weight") == 0) {
		do_param(rs, directive, name, s, file, line);
		return;
	}
	if (!rl_valid_name(name)) {
		problem(rs, file, line, false,
			"%s: bad rule name '%s' (letters, digits, _; at most %d)",
			directive, name, RULES_NAME_MAX);
		return;
	}
	if (strcmp(directive, "header") == 0)
		define_rule(rs, RULE_HEADER, name, s, file, line);
	else if (strcmp(directive, "body") == 0)
		define_rule(rs, RULE_BODY, name, s, file, line);
	else if (strcmp(directive, "rawbody") == 0)
		define_rule(rs, RULE_RAWBODY, name, s, file, line);
	else if (strcmp(directive, "meta") == 0)
		define_rule(rs, RULE_META, name, s, file, line);
	else if (strcmp(directive, "score") == 0)
		do_score(rs, name, s, file, line);
	else if (strcmp(directive, "phrases") == 0)
		do_phrases(rs, name, s, file, line);
	else if (strcmp(directive, "describe") == 0) {
		struct rule *r;

		s = skip_ws(s);
		rtrim(s);
		idx = rule_get(rs, name, file, line, "describe");
		r = &rs->rules[idx];
		if (!*s)
			problem(rs, file, line, false, "describe %s: no text",
				name);
		else if (strlen(s) > DESCRIBE_MAX)
			problem(rs, file, line, false,
				"describe %s: longer than %d characters", name,
				DESCRIBE_MAX);
		else if (set_once(rs, &r->describe_file, &r->describe_line,
				  file, line, "describe", name)) {
			free(r->describe);
			r->describe = xstrdup(s);
		}
	} else if (strcmp(directive, "tflags") == 0) {
		struct rule *r;
		bool certain = false;
		char *w;

		idx = rule_get(rs, name, file, line, "tflags");
		r = &rs->rules[idx];
		while ((w = next_word(&s)) != NULL) {
			if (strcmp(w, "certain") != 0) {
				problem(rs, file, line, false,
					"tflags %s: unknown flag '%s'", name,
					w);
				return;
			}
			certain = true;
		}
		if (set_once(rs, &r->tflags_file, &r->tflags_line, file, line,
			     "tflags", name))
			r->certain = certain;
	} else if (strcmp(directive, "test") == 0) {
		char *kind = next_word(&s);
		struct test *t;

		if (!kind ||
		    (strcmp(kind, "ok") != 0 && strcmp(kind, "fail") != 0)) {
			problem(rs, file, line, false,
				"test %s: expected ok or fail", name);
			return;
		}
		if (strlen(s) > TEST_TEXT_MAX) {
			problem(rs, file, line, false, "test %s: text too long",
				name);
			return;
		}
		idx = rule_get(rs, name, file, line, "test");
		ALLOC_GROW(rs->tests, rs->ntests, rs->tests_alloc);
		t = &rs->tests[rs->ntests++];
		t->rule = idx;
		t->ok = kind[0] == 'o';
		t->text = unescape(skip_ws(s), &t->len);
		t->file = file;
		t->line = line;
	} else {
		problem(rs, file, line, false, "unknown directive '%s'",
			directive);
	}
}

/* add_file_name - a new file index; the ruleset needs compiling again */
static int add_file_name(struct ruleset *rs, const char *name)
{
	ALLOC_GROW(rs->files, rs->nfiles, rs->files_alloc);
	rs->files[rs->nfiles] = xstrdup(name);
	rs->compiled = false;
	return (int)rs->nfiles++;
}

/* rules_add_text - parse one rules file's text (name for messages) */
int rules_add_text(struct ruleset *rs, const char *name, const char *text,
		   size_t len)
{
	const char *p = text, *end = text + len;
	struct strbuf logical = STRBUF_INIT(64u << 10);
	unsigned lineno = 0, start = 0;
	int file;
	bool overflow = false;

	if (rs->snap)
		return error("%s: a compiled snapshot takes no more rules",
			     name);
	file = add_file_name(rs, name);

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end, *q = p;
		bool cont;

		lineno++;
		if (eol > p && eol[-1] == '\r')
			eol--;
		while (q < eol && (*q == ' ' || *q == '\t'))
			q++;
		cont = q > p;
		if (q == eol || *q == '#') {
			p = nl ? nl + 1 : end;
			continue; /* blank or comment */
		}
		if (!cont && logical.len) {
			if (!overflow)
				parse_line(rs, file, start, logical.buf);
			sb_reset(&logical);
			overflow = false;
		}
		if (cont && !logical.len) {
			problem(rs, file, lineno, false,
				"continuation line with nothing to continue");
			p = nl ? nl + 1 : end;
			continue;
		}
		if (!logical.len)
			start = lineno;
		else if (sb_addc(&logical, ' ') < 0)
			overflow = true;
		if (memchr(q, '\0', (size_t)(eol - q)) ||
		    sb_add(&logical, q, (size_t)(eol - q)) < 0) {
			if (!overflow)
				problem(rs, file, start, false,
					"line too long or contains NUL");
			overflow = true;
		}
		p = nl ? nl + 1 : end;
	}
	if (logical.len && !overflow)
		parse_line(rs, file, start, logical.buf);
	sb_release(&logical);
	return 0;
}

/* rules_add_file - parse one rules file */
int rules_add_file(struct ruleset *rs, const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	size_t n;
	int ret;

	if (!f) {
		int e = errno;

		problem(rs, add_file_name(rs, path), 0, false,
			"cannot open: %s", strerror(e));
		return -1;
	}
	buf = xmalloc(RULES_FILE_MAX + 1);
	n = fread(buf, 1, RULES_FILE_MAX + 1, f);
	if (ferror(f) || n > RULES_FILE_MAX) {
		problem(rs, add_file_name(rs, path), 0, false,
			ferror(f) ? "read error" : "larger than 1 MB");
		fclose(f);
		free(buf);
		return -1;
	}
	fclose(f);
	ret = rules_add_text(rs, path, buf, n);
	free(buf);
	return ret;
}

int rl_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * rl_rule_files - the paths of dir's NAME.rules files, in lexical (C
 * locale) order, in *names (n of them, each and the array to free);
 * -1 with errno when dir cannot be read
 */
int rl_rule_files(const char *dir, char ***names, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t alloc = 0;

	*names = NULL;
	*n = 0;
	if (!d)
		return -1;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' || !ends_with(de->d_name, ".rules"))
			continue;
		ALLOC_GROW(*names, *n, alloc);
		(*names)[(*n)++] = xasprintf("%s/%s", dir, de->d_name);
	}
	closedir(d);
	qsort(*names, *n, sizeof(**names), rl_cmp_str);
	return 0;
}

/* rules_add_dir - every *.rules file of dir, in lexical (C locale) order */
int rules_add_dir(struct ruleset *rs, const char *dir)
{
	char **names;
	size_t n, i;
	int ret = 0;

	if (rl_rule_files(dir, &names, &n) < 0) {
		int e = errno;

		problem(rs, add_file_name(rs, dir), 0, false, "cannot open: %s",
			strerror(e));
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (rules_add_file(rs, names[i]) < 0)
			ret = -1;
		free(names[i]);
	}
	free(names);
	return ret;
}

/* ---- compile: resolve names, check, fill the public view ---------------- */

/* meta_dfs - cycle and depth check; colour 0 white, 1 grey, 2 black */
static int meta_dfs(struct ruleset *rs, size_t i, unsigned char *colour,
		    int *depth)
{
	struct rule *r = &rs->rules[i];
	size_t k;
	int d = 0;

	if (colour[i] == 2)
		return depth[i];
	if (colour[i] == 1)
		return -1;
	colour[i] = 1;
	for (k = 0; k < r->nops; k++) {
		int sub;

		if (r->ops[k].op != OP_RULE)
			continue;
		if (rs->rules[r->ops[k].idx].type != RULE_META)
			continue;
		sub = meta_dfs(rs, r->ops[k].idx, colour, depth);
		if (sub < 0) {
			colour[i] = 2;
			depth[i] = -1;
			return -1;
		}
		if (sub + 1 > d)
			d = sub + 1;
	}
	colour[i] = 2;
	depth[i] = d;
	return d;
}

/* rules_compile - resolve names and check every rule; returns errors */
/*
 * link_phrases - give each rule whose hook reads a phrase list the list
 * of the hook's name; a list no hook reads is an error, one whose hook
 * no rule runs a warning
 */
static void link_phrases(struct ruleset *rs)
{
	size_t i, k;

	for (k = 0; k < rs->nlists; k++)
		rs->lists[k].used = false;
	for (i = 0; i < rs->nrules; i++) {
		struct rule *r = &rs->rules[i];

		if (r->type == RULE_NONE || !r->hook || !r->hook->phrases)
			continue;
		r->args.phrases = NULL;
		for (k = 0; k < rs->nlists; k++) {
			if (strcmp(rs->lists[k].name, r->hook->name) == 0) {
				r->args.phrases = &rs->lists[k].pub;
				rs->lists[k].used = true;
			}
		}
		if (!r->args.phrases)
			problem(rs, r->def_file, r->def_line, false,
				"%s %s: eval:%s() needs its phrase list "
				"(phrases %s ...)",
				type_names[r->type], r->name, r->hook->name,
				r->hook->name);
	}
	for (k = 0; k < rs->nlists; k++) {
		const struct phrase_list *l = &rs->lists[k];
		const struct rules_hook *h = rl_hook_find(rs, l->name);

		if (!h || !h->phrases)
			problem(rs, l->file, l->line, false,
				"phrases %s: no eval hook of that name reads "
				"a phrase list",
				l->name);
		else if (!l->used)
			problem(rs, l->file, l->line, true,
				"phrases %s: no rule uses %s()", l->name,
				l->name);
	}
}

int rules_compile(struct ruleset *rs)
{
	unsigned char *colour;
	int *depth;
	size_t i, k, w;

	if (rs->compiled)
		return rs->errors;
	/* drop the previous compile's findings */
	for (i = w = 0; i < rs->nproblems; i++) {
		if (rs->problems[i].compile_stage)
			free(rs->problems[i].msg);
		else
			rs->problems[w++] = rs->problems[i];
	}
	rs->nproblems = w;
	rs->compiled = true;

	for (i = 0; i < rs->nrules; i++) {
		struct rule *r = &rs->rules[i];

		r->used = false;
		if (r->type == RULE_NONE && r->def_file < 0)
			problem(rs, r->ref_file, r->ref_line, false,
				"%s: unknown rule %s", r->ref_what, r->name);
	}
	for (i = 0; i < rs->nrules; i++) {
		struct rule *r = &rs->rules[i];

		for (k = 0; k < r->nops; k++)
			if (r->ops[k].op == OP_RULE)
				rs->rules[r->ops[k].idx].used = true;
	}
	colour = xcalloc(rs->nrules + 1, 1);
	depth = xcalloc(rs->nrules + 1, sizeof(*depth));
	for (i = 0; i < rs->nrules; i++) {
		struct rule *r = &rs->rules[i];
		int d;

		if (r->type != RULE_META)
			continue;
		d = meta_dfs(rs, i, colour, depth);
		if (d < 0)
			problem(rs, r->def_file, r->def_line, false,
				"meta %s: depends on itself (a cycle)",
				r->name);
		else if (d >= RULES_META_MAX_DEPTH)
			problem(rs, r->def_file, r->def_line, false,
				"meta %s: metas nested deeper than %d", r->name,
				RULES_META_MAX_DEPTH);
	}
	free(colour);
	free(depth);
	link_phrases(rs);

	/* one literal index over every body and rawbody prefilter */
	rl_litindex_reset(&rs->lix);
	free(rs->ids);
	for (i = k = 0; i < rs->nrules; i++)
		k += (size_t)rs->rules[i].pf.n;
	rs->ids = xcalloc(k + 1, sizeof(*rs->ids));
	for (i = k = 0; i < rs->nrules; i++) {
		struct prefilter *pf = &rs->rules[i].pf;
		int j;

		pf->ids = NULL;
		if (!pf->n || (rs->rules[i].type != RULE_BODY &&
			       rs->rules[i].type != RULE_RAWBODY))
			continue;
		pf->ids = rs->ids + k;
		k += (size_t)pf->n;
		for (j = 0; j < pf->n; j++)
			pf->ids[j] =
				rl_litindex_add(&rs->lix, &pf->alt[j], pf->ci);
	}
	rl_litindex_finish(&rs->lix);

	for (i = 0; i < rs->nrules; i++) {
		struct rule *r = &rs->rules[i];
		bool helper = starts_with(r->name, "__");
		int c, pos = 0;

		r->certain_class = -1;
		if (r->type == RULE_NONE)
			continue;
		if (helper && r->scored)
			problem(rs, r->score_file, r->score_line, false,
				"score %s: helper rules (__NAME) are not scored",
				r->name);
		if (!helper && !r->scored)
			problem(rs, r->def_file, r->def_line, false,
				"%s has no score (score it, or call it __%s)",
				r->name, r->name);
		if (!helper && !r->describe)
			problem(rs, r->def_file, r->def_line, true,
				"%s has no describe line", r->name);
		if (helper && !r->used)
			problem(rs, r->def_file, r->def_line, true,
				"helper %s is not used by any meta", r->name);
		if (r->certain) {
			for (c = 0; c < CLASS_N; c++)
				if (r->score[c] > 0) {
					pos++;
					r->certain_class = c;
				}
			if (pos != 1) {
				problem(rs, r->tflags_file, r->tflags_line,
					false,
					"tflags %s certain: the rule needs a positive score for exactly one class",
					r->name);
				r->certain_class = -1;
			}
		}
		r->info.name = r->name;
		r->info.describe = r->describe ? r->describe : "";
		r->info.file = r->def_file >= 0 ? rs->files[r->def_file] : "";
		r->info.line = r->def_line;
		r->info.type = r->type;
		memcpy(r->info.score, r->score, sizeof(r->score));
		r->info.helper = helper;
		r->info.certain = r->certain && r->certain_class >= 0;
		r->info.certain_class = r->certain_class;
		r->info.hook = r->hook ? r->hook->name : NULL;
	}
	rs->errors = 0;
	for (i = 0; i < rs->nproblems; i++)
		if (!rs->problems[i].warning)
			rs->errors++;
	return rs->errors;
}

size_t rules_nproblems(const struct ruleset *rs)
{
	return rs->nproblems;
}

int rules_problem(const struct ruleset *rs, size_t i, char *buf, size_t size)
{
	const struct problem *p = &rs->problems[i];
	const char *file = p->file >= 0 ? rs->files[p->file] : "rules";
	const char *w = p->warning ? "warning: " : "";

	if (p->line)
		snprintf(buf, size, "%s:%u: %s%s", file, p->line, w, p->msg);
	else
		snprintf(buf, size, "%s: %s%s", file, w, p->msg);
	return p->warning;
}

/* rules_lint - compile if needed and print every problem; returns errors */
int rules_lint(struct ruleset *rs, FILE *out)
{
	int errors = rules_compile(rs);
	char buf[1024];
	size_t i;

	for (i = 0; i < rs->nproblems; i++) {
		rules_problem(rs, i, buf, sizeof(buf));
		fprintf(out, "%s\n", buf);
	}
	return errors;
}

/* ---- queries ------------------------------------------------------------ */

size_t rules_count(const struct ruleset *rs)
{
	return rs->nrules;
}

/* rules_info - the public view of rule i (valid after rules_compile()) */
const struct rule_info *rules_info(const struct ruleset *rs, size_t i)
{
	return &rs->rules[i].info;
}

const struct rules_params *rules_params(const struct ruleset *rs)
{
	return &rs->params;
}

size_t rules_nfiles(const struct ruleset *rs)
{
	return rs->nfiles;
}

void rules_set_symbols(struct ruleset *rs, const struct symbols *symbols)
{
	rs->symbols = symbols;
}

void rules_set_evidence(struct ruleset *rs,
			struct evidence *(*extract)(const struct report *r),
			void (*release)(struct evidence *ev))
{
	rs->extract = extract;
	rs->release = release;
}

const struct symbols *rules_symbols(const struct ruleset *rs)
{
	return rs->symbols;
}

void rules_own_history(struct ruleset *rs, struct history *h)
{
	if (rs->history != h)
		history_free(rs->history);
	rs->history = h;
}

const struct history *rules_history(const struct ruleset *rs)
{
	return rs->history;
}

const struct rules_phrases *rules_phrases(const struct ruleset *rs,
					  const char *name)
{
	size_t i;

	for (i = 0; i < rs->nlists; i++)
		if (strcmp(rs->lists[i].name, name) == 0)
			return &rs->lists[i].pub;
	return NULL;
}

/* ---- inline tests ----------------------------------------------------------- */

static bool looks_like_header_line(const char *s)
{
	if (!isalpha((unsigned char)*s))
		return false;
	while (isalnum((unsigned char)*s) || *s == '-')
		s++;
	return s[0] == ':' && (s[1] == ' ' || s[1] == '\0' || s[1] == '\n');
}

/* add_header_lines - "Name: value" lines into the report */
static void add_header_lines(struct report *r, const char *s, size_t len)
{
	const char *end = s + len;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *eol = nl ? nl : end;
		char *line = xmemdup0(s, (size_t)(eol - s));
		char *colon = strchr(line, ':');

		if (colon) {
			*colon = '\0';
			report_add_header(r, trim(line), trim(colon + 1));
		}
		free(line);
		s = nl ? nl + 1 : end;
	}
	if (report_header(r, "Subject")) {
		free(r->subject);
		r->subject = xstrdup(report_header(r, "Subject"));
	}
	if (report_header(r, "From")) {
		struct strbuf a = STRBUF_INIT(1024);

		free(r->from);
		r->from = xstrdup(report_header(r, "From"));
		rules_addresses(r->from, &a);
		free(r->from_addr);
		r->from_addr = sb_detach(&a, NULL);
	}
}

static void set_body(struct report *r, const char *s, size_t len)
{
	struct report_part *p = report_add_part(r);

	p->path = xstrdup("1");
	p->mime_type = xstrdup("text/plain");
	p->text = xmemdup0(s, len);
	p->len = len;
	p->flags = PART_TEXT;
	r->body = xmemdup0(s, len);
	r->body_len = len;
}

/*
 * test_report - the report a test TEXT stands for: header lines for a
 * header rule, body text for the others; a meta test whose TEXT starts
 * with a "Name: value" line has headers up to the first empty line
 */
static struct report *test_report(const struct rule *rule, const struct test *t)
{
	struct report *r = report_new();
	const char *split;

	if (rule->type == RULE_HEADER) {
		add_header_lines(r, t->text, t->len);
	} else if (rule->type == RULE_META && looks_like_header_line(t->text)) {
		split = strstr(t->text, "\n\n");
		if (split) {
			add_header_lines(r, t->text, (size_t)(split - t->text));
			set_body(r, split + 2,
				 t->len - (size_t)(split + 2 - t->text));
		} else {
			add_header_lines(r, t->text, t->len);
		}
	} else {
		set_body(r, t->text, t->len);
	}
	r->source = "test";
	return r;
}

/* rules_run_tests - run the inline tests; returns the number that failed */
int rules_run_tests(struct ruleset *rs, FILE *out, unsigned *ntests)
{
	struct rules_result a, b;
	unsigned ran = 0;
	int failed = 0;
	size_t i, k;

	rules_compile(rs);
	rules_result_init(&a);
	rules_result_init(&b);
	for (i = 0; i < rs->ntests; i++) {
		const struct test *t = &rs->tests[i];
		const struct rule *rule = &rs->rules[t->rule];
		struct rules_input in = { 0 };
		struct evidence *ev;
		struct report *r;
		bool fired;

		if (rule->type == RULE_NONE || t->file < rule->def_file)
			continue; /* unknown (linted) or redefined later */
		r = test_report(rule, t);
		in.report = r;
		in.symbols = rs->symbols;
		ev = rs->extract ? rs->extract(r) : NULL;
		in.evidence = ev;
		rules_eval(rs, &in, RULES_EVAL_ALL, &a);
		rules_eval(rs, &in, RULES_EVAL_ALL | RULES_NO_PREFILTER, &b);
		ran++;
		fired = a.value[t->rule] != 0;
		if (fired != t->ok) {
			fprintf(out, "%s:%u: test %s %s: the rule %s\n",
				rs->files[t->file], t->line, rule->name,
				t->ok ? "ok" : "fail",
				fired ? "fired" : "did not fire");
			failed++;
		}
		for (k = 0; k < rs->nrules; k++) {
			if (a.value[k] == b.value[k])
				continue;
			fprintf(out,
				"%s:%u: test %s: the prefilter changes the value of %s\n",
				rs->files[t->file], t->line, rule->name,
				rs->rules[k].name);
			failed++;
			break;
		}
		if (a.limit_hits) {
			fprintf(out,
				"%s:%u: test %s: a regex hit the pcre2 match limit\n",
				rs->files[t->file], t->line, rule->name);
			failed++;
		}
		if (ev && rs->release)
			rs->release(ev);
		report_free(r);
	}
	rules_result_release(&a);
	rules_result_release(&b);
	if (ntests)
		*ntests = ran;
	return failed;
}
