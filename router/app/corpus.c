// SPDX-License-Identifier: GPL-2.0-only
/*
 * corpus - labelled reports for training and evaluation (see corpus.h)
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "audit.h"
#include "corpus.h"
#include "intake.h"
#include "model.h"
#include "parse.h"
#include "report.h"
#include "rules.h"
#include "strbuf.h"
#include "util.h"

#define INDEX_MAX    (4u << 20)
#define NAME_KEY_MIN 3

void corpus_init(struct corpus *c)
{
	memset(c, 0, sizeof(*c));
}

static void item_release(struct corpus_item *it)
{
	size_t i;

	free(it->name);
	free(it->notes);
	report_free(it->report);
	for (i = 0; i < it->nkeys; i++)
		free(it->keys[i]);
	free(it->keys);
	free(it->group);
}

void corpus_release(struct corpus *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		item_release(&c->items[i]);
	free(c->items);
	memset(c, 0, sizeof(*c));
}

/* ---- senders ------------------------------------------------------------ */

static bool is_relay(const char *addr)
{
	return starts_with(addr, "bugzilla-daemon@") ||
	       starts_with(addr, "bugbot@");
}

/* display_name - the name part of "Name <addr>", quotes dropped, in buf */
static void display_name(const struct report *r, char *buf, size_t size)
{
	const char *from = r->from ? r->from : "", *lt = strchr(from, '<');
	size_t n = lt ? (size_t)(lt - from) : 0, k = 0, i;

	for (i = 0; i < n && k + 1 < size; i++)
		if (from[i] != '"' && from[i] != '\'')
			buf[k++] = from[i];
	buf[k] = '\0';
	memmove(buf, trim(buf), strlen(trim(buf)) + 1);
}

/* list_rewrite - "'Jane' via kasan-dev": a list rewrote From (DMARC) */
static char *list_rewrite(char *name)
{
	return strstr(name, " via ");
}

/* bugzilla_reporter - X-Bugzilla-Who, else the body's "Reporter: x" */
static void bugzilla_reporter(const struct report *r, char *buf, size_t size)
{
	const char *who = report_header(r, "X-Bugzilla-Who"), *p;
	size_t n;

	buf[0] = '\0';
	if (who && *who) {
		snprintf(buf, size, "%s", who);
	} else if (r->body && (p = strstr(r->body, "Reporter: "))) {
		p += 10;
		n = strcspn(p, " \r\n");
		snprintf(buf, size, "%.*s", (int)n, p);
	}
	memmove(buf, trim(buf), strlen(trim(buf)) + 1);
	str_tolower(buf);
}

/* corpus_sender - the sender's bare address (see corpus.h) */
void corpus_sender(const struct report *r, char *buf, size_t size)
{
	const char *addr = r->from_addr ? r->from_addr : "";
	char *at, *plus;

	if (!size)
		return;
	if (is_relay(addr))
		bugzilla_reporter(r, buf, size);
	else
		snprintf(buf, size, "%s", addr);
	str_tolower(buf);
	at = strchr(buf, '@');
	plus = strchr(buf, '+');
	if (plus && at && plus < at)
		memmove(plus, at, strlen(at) + 1);
}

/*
 * The automated reporters of research/classification.md §6, by sender
 * identity: an exact address, an address ending, or a display name at a
 * domain.  "+tag" is removed from the address first (syzbot+extid@).
 */
static const struct bot_sender {
	const char *bot;
	const char *addr;   /* exact bare address, or NULL */
	const char *domain; /* with name: "@intel.com", or NULL */
	const char *name;   /* display name (any case), or NULL */
} bot_senders[] = {
	{ "syzbot", "syzbot@syzkaller.appspotmail.com", NULL, NULL },
	{ "kernel test robot", "lkp@intel.com", NULL, NULL },
	{ "kernel test robot", NULL, "@intel.com", "kernel test robot" },
	{ "kernel test robot", NULL, "@intel.com", "kbuild test robot" },
	{ "KernelCI", "bot@kernelci.org", NULL, NULL },
	{ "CKI", "cki-project@redhat.com", NULL, NULL },
	{ "coverity-bot", NULL, "@chromium.org", "coverity-bot" },
	{ "BlueZ CI", "bluez.test.bot@gmail.com", NULL, NULL },
	{ "BPF CI", "bot@kernel.org", NULL, NULL }, /* bot+bpf-ci@ */
	{ "Patchwork CI", "patchwork@emeril.freedesktop.org", NULL, NULL },
};

/* corpus_bot_sender - the bot that sent r, or NULL */
const char *corpus_bot_sender(const struct report *r)
{
	char addr[512], name[512];
	size_t i;

	if (!r->from_addr || !*r->from_addr || is_relay(r->from_addr))
		return NULL;
	corpus_sender(r, addr, sizeof(addr));
	display_name(r, name, sizeof(name));
	for (i = 0; i < ARRAY_SIZE(bot_senders); i++) {
		const struct bot_sender *b = &bot_senders[i];

		if (b->addr && strcmp(addr, b->addr) == 0)
			return b->bot;
		if (b->name && strcasecmp(name, b->name) == 0 &&
		    ends_with(addr, b->domain))
			return b->bot;
	}
	return NULL;
}

/* ---- group keys ------------------------------------------------------------ */

static void add_key(struct corpus_item *it, char *key)
{
	size_t i;

	str_tolower(key);
	for (i = 0; i < it->nkeys; i++) {
		if (strcmp(it->keys[i], key) == 0) {
			free(key);
			return;
		}
	}
	ALLOC_GROW(it->keys, it->nkeys + 1, it->akeys);
	it->keys[it->nkeys++] = key;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* name_key - the words of a display name, lower case, sorted */
static char *name_key(const char *name)
{
	char *copy = xstrdup(name), *words[16], *tok, *save = NULL;
	struct strbuf sb = STRBUF_INIT(1024);
	size_t n = 0, i;

	str_tolower(copy);
	for (tok = strtok_r(copy, " \t,", &save); tok && n < ARRAY_SIZE(words);
	     tok = strtok_r(NULL, " \t,", &save))
		words[n++] = tok;
	qsort(words, n, sizeof(*words), cmp_str);
	for (i = 0; i < n; i++) {
		if (i)
			sb_addc(&sb, ' ');
		sb_adds(&sb, words[i]);
	}
	free(copy);
	if (!sb.buf || sb.len < NAME_KEY_MIN) {
		sb_release(&sb);
		return NULL;
	}
	return sb.buf;
}

/* add_ids - a key for every <id> in a Message-ID/References value */
static void add_ids(struct corpus_item *it, const char *v)
{
	const char *p = v;

	while (p && (p = strchr(p, '<'))) {
		const char *e = strchr(p, '>');

		if (!e)
			break;
		if (e > p + 1)
			add_key(it,
				xasprintf("mid:%.*s", (int)(e - p - 1), p + 1));
		p = e + 1;
	}
}

static void item_keys(struct corpus_item *it)
{
	const struct report *r = it->report;
	char addr[512], name[512], *via, *key;
	const char *refs[16], *g;
	size_t n, i;

	display_name(r, name, sizeof(name));
	via = list_rewrite(name);
	if (via)
		*via = '\0'; /* "'Jane' via list": the list's address */
	corpus_sender(r, addr, sizeof(addr));
	if (*addr && !via)
		add_key(it, xasprintf("addr:%s", addr));
	if (*name && !(r->from_addr && is_relay(r->from_addr)) &&
	    (key = name_key(name))) {
		add_key(it, xasprintf("name:%s", key));
		free(key);
	}
	if (r->message_id && *r->message_id)
		add_key(it, xasprintf("mid:%s", r->message_id));
	if (r->in_reply_to && *r->in_reply_to)
		add_key(it, xasprintf("mid:%s", r->in_reply_to));
	n = report_header_all(r, "References", refs, ARRAY_SIZE(refs));
	for (i = 0; i < n; i++)
		add_ids(it, refs[i]);
	if (it->notes && (g = strstr(it->notes, "group="))) {
		size_t len = strcspn(g + 6, "; \t\n");

		if (len)
			add_key(it, xasprintf("tag:%.*s", (int)len, g + 6));
	}
}

/* ---- adding ------------------------------------------------------------------ */

/* corpus_add_report - add a parsed report (taken) labelled cls */
struct corpus_item *corpus_add_report(struct corpus *c, const char *name,
				      struct report *r, int cls,
				      const char *notes)
{
	struct corpus_item *it;

	ALLOC_GROW(c->items, c->n + 1, c->alloc);
	it = &c->items[c->n++];
	memset(it, 0, sizeof(*it));
	it->name = xstrdup(name);
	it->cls = cls;
	it->notes = xstrdup(notes ? notes : "");
	it->report = r;
	it->old_class = -1;
	it->bot = corpus_bot_sender(r);
	item_keys(it);
	return it;
}

/* parse_buf - intake and parse a message from memory, or NULL */
static struct report *parse_buf(const char *name, const char *raw, size_t len)
{
	struct report *r = report_new();

	r->source = "file";
	if (parse_init() < 0 || intake_read_buf(raw, len, NULL, r) < 0 ||
	    parse_report(r) < 0) {
		error("corpus: cannot parse %s", name);
		report_free(r);
		return NULL;
	}
	return r;
}

/* corpus_add_message - parse one message and add it */
int corpus_add_message(struct corpus *c, const char *name, const char *raw,
		       size_t len, int cls, const char *notes)
{
	struct report *r;

	if (cls < 0 || cls >= CLASS_N)
		return error("corpus: %s: no class", name);
	r = parse_buf(name, raw, len);
	if (!r)
		return -1;
	corpus_add_report(c, name, r, cls, notes);
	return 0;
}

static int add_file(struct corpus *c, const char *dir, const char *file,
		    int cls, const char *notes)
{
	char *path = xasprintf("%s/%s", dir, file), *raw;
	size_t len;
	int ret;

	if (read_file(path, CORPUS_MESSAGE_MAX, &raw, &len) < 0) {
		free(path);
		c->skipped++;
		return -1;
	}
	ret = corpus_add_message(c, file, raw, len, cls, notes);
	if (ret < 0)
		c->skipped++;
	free(raw);
	free(path);
	return ret;
}

static int load_index(struct corpus *c, const char *dir, const char *index)
{
	char *text, *line, *save = NULL;
	size_t len;
	unsigned lineno = 0;

	if (read_file(index, INDEX_MAX, &text, &len) < 0)
		return -1;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *f[5] = { NULL }, *p = line;
		int i, cls;

		lineno++;
		for (i = 0; i < 5 && p; i++) {
			f[i] = p;
			p = strchr(p, '\t');
			if (p)
				*p++ = '\0';
		}
		if (!f[1]) {
			warn("%s:%u: no class column", index, lineno);
			c->skipped++;
			continue;
		}
		cls = rules_class_parse(trim(f[1]));
		if (cls < 0 || cls >= CLASS_N) {
			if (lineno > 1 || strcmp(f[1], "class") != 0) {
				warn("%s:%u: unknown class '%s'", index, lineno,
				     f[1]);
				c->skipped++;
			}
			continue;
		}
		add_file(c, dir, trim(f[0]), cls, f[4]);
	}
	free(text);
	return 0;
}

static int cmp_cstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int load_class_dir(struct corpus *c, const char *dir, int cls)
{
	const char *cname = rules_class_name(cls);
	char *sub = xasprintf("%s/%s", dir, cname), **names = NULL;
	size_t n = 0, alloc = 0, i;
	struct dirent *de;
	DIR *d = opendir(sub);

	if (!d) {
		free(sub);
		return 0;
	}
	while ((de = readdir(d))) {
		char *path;
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		path = xasprintf("%s/%s", sub, de->d_name);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
			ALLOC_GROW(names, n + 1, alloc);
			names[n++] = xasprintf("%s/%s", cname, de->d_name);
		}
		free(path);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_cstr);
	for (i = 0; i < n; i++) {
		add_file(c, dir, names[i], cls, NULL);
		free(names[i]);
	}
	free(names);
	free(sub);
	return 1;
}

/* corpus_load - the messages of DIR */
int corpus_load(struct corpus *c, const char *dir)
{
	char *index = xasprintf("%s/index.tsv", dir);
	int found = 0, cls, ret = 0;
	struct stat st;

	if (stat(index, &st) == 0) {
		ret = load_index(c, dir, index);
		free(index);
		return ret;
	}
	free(index);
	for (cls = 0; cls < CLASS_N; cls++)
		found += load_class_dir(c, dir, cls);
	if (!found)
		return error(
			"corpus: %s has no index.tsv and no user/, fuzzer/ or ai/ directory",
			dir);
	return 0;
}

/* ---- corrections --------------------------------------------------------- */

struct corrections_ctx {
	struct corpus *c;
	struct audit *db;
	size_t added, skipped;
};

/* report_from_text - a one-part report of a stored subject and body */
static struct report *report_from_text(const struct audit_record *rec,
				       const struct audit_correction *k)
{
	struct report *r = report_new();
	struct report_part *p;
	const char *subject = k->subject ? k->subject : "";

	r->source = "file";
	r->subject = xstrdup(subject);
	report_add_header(r, "Subject", subject);
	r->from = xstrdup(rec && rec->from_display ? rec->from_display : "");
	r->from_addr = xstrdup(rec && rec->from_addr ? rec->from_addr : "");
	if (rec && rec->message_id) {
		r->message_id = xstrdup(rec->message_id);
		report_add_header(r, "Message-ID", rec->message_id);
	}
	p = report_add_part(r);
	p->path = xstrdup("1");
	p->mime_type = xstrdup("text/plain");
	p->text = xmemdup0(k->body ? k->body : "", k->body ? k->body_len : 0);
	p->len = k->body ? k->body_len : 0;
	p->flags = PART_TEXT;
	r->body = xmemdup0(p->text, p->len);
	r->body_len = p->len;
	return r;
}

static int correction_cb(const struct audit_correction *k, void *arg)
{
	struct corrections_ctx *ctx = arg;
	int cls = k->new_class ? rules_class_parse(k->new_class) : -1;
	struct audit_record rec;
	struct report *r = NULL;
	struct corpus_item *it;
	char name[64];
	int got;

	if (cls < 0 || cls >= CLASS_N) {
		ctx->skipped++;
		return 0;
	}
	snprintf(name, sizeof(name), "correction %lld", (long long)k->report);
	memset(&rec, 0, sizeof(rec));
	got = audit_get_report(ctx->db, k->report, AUDIT_GET_RAW, &rec);
	if (got < 0)
		return -1;
	if (got == 1 && rec.raw && rec.raw_len)
		r = parse_buf(name, rec.raw, rec.raw_len);
	if (!r)
		r = report_from_text(got == 1 ? &rec : NULL, k);
	if (got == 1)
		audit_record_release(&rec);
	it = corpus_add_report(ctx->c, name, r, cls, NULL);
	it->report_id = k->report;
	if (k->old_class && strcmp(k->old_class, "uncertain") == 0)
		it->old_class = CLASS_UNCERTAIN;
	else
		it->old_class =
			k->old_class ? rules_class_parse(k->old_class) : -1;
	ctx->added++;
	return 0;
}

/* corpus_add_corrections - the triagers' corrections in db */
int corpus_add_corrections(struct corpus *c, struct audit *db, size_t *skipped)
{
	struct corrections_ctx ctx = { c, db, 0, 0 };

	if (audit_corrections(db, correction_cb, &ctx) < 0)
		return -1;
	if (skipped)
		*skipped = ctx.skipped;
	return (int)ctx.added;
}

/* ---- groups ---------------------------------------------------------------- */

struct keyref {
	const char *key;
	size_t item;
};

static int cmp_keyref(const void *a, const void *b)
{
	const struct keyref *x = a, *y = b;
	int r = strcmp(x->key, y->key);

	return r ? r : (x->item > y->item) - (x->item < y->item);
}

static size_t find(size_t *parent, size_t x)
{
	while (parent[x] != x) {
		parent[x] = parent[parent[x]];
		x = parent[x];
	}
	return x;
}

/* corpus_group - union of items sharing a key; group = first item's name */
size_t corpus_group(struct corpus *c)
{
	size_t *parent = xcalloc(c->n + 1, sizeof(*parent)), nk = 0, i, j;
	struct keyref *refs;

	for (i = 0; i < c->n; i++) {
		parent[i] = i;
		nk += c->items[i].nkeys;
	}
	refs = xcalloc(nk + 1, sizeof(*refs));
	nk = 0;
	for (i = 0; i < c->n; i++)
		for (j = 0; j < c->items[i].nkeys; j++)
			refs[nk++] = (struct keyref){ c->items[i].keys[j], i };
	qsort(refs, nk, sizeof(*refs), cmp_keyref);
	for (i = 1; i < nk; i++) {
		size_t a, b;

		if (strcmp(refs[i].key, refs[i - 1].key) != 0)
			continue;
		a = find(parent, refs[i - 1].item);
		b = find(parent, refs[i].item);
		if (a != b)
			parent[a > b ? a : b] = a < b ? a : b;
	}
	c->ngroups = 0;
	for (i = 0; i < c->n; i++) {
		size_t root = find(parent, i);

		free(c->items[i].group);
		c->items[i].group = xstrdup(c->items[root].name);
		c->ngroups += root == i;
	}
	free(refs);
	free(parent);
	return c->ngroups;
}

/* ---- the tuning/held-out split ------------------------------------------- */

struct mark {
	const char *id; /* points into the file's text */
	int part;
	unsigned line;
};

static int cmp_mark(const void *a, const void *b)
{
	const struct mark *x = a, *y = b;

	return strcmp(x->id, y->id);
}

const char *corpus_part_name(int part)
{
	switch (part) {
	case CORPUS_TUNE:
		return "tune";
	case CORPUS_HELD_OUT:
		return "held-out";
	default:
		return "unsplit";
	}
}

/* read_marks - the marks of a split file, sorted by id; -1 (printed) */
static int read_marks(const char *path, char *text, struct mark **out,
		      size_t *nout)
{
	struct mark *m = NULL;
	size_t n = 0, alloc = 0, i;
	unsigned lineno = 0;
	char *line = text, *next;

	for (; line && *line; line = next) {
		char *id, *part, *tab;

		lineno++;
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (*line == '#' || !*trim(line))
			continue;
		id = line;
		tab = strchr(id, '\t');
		if (!tab)
			goto bad;
		*tab = '\0';
		part = tab + 1;
		tab = strchr(part, '\t');
		if (tab)
			*tab = '\0';
		id = trim(id);
		part = trim(part);
		if (!*id || (strcmp(part, "tune") && strcmp(part, "held-out")))
			goto bad;
		ALLOC_GROW(m, n + 1, alloc);
		m[n].id = id;
		m[n].part =
			strcmp(part, "tune") ? CORPUS_HELD_OUT : CORPUS_TUNE;
		m[n].line = lineno;
		n++;
	}
	if (n)
		qsort(m, n, sizeof(*m), cmp_mark);
	for (i = 1; i < n; i++) {
		if (strcmp(m[i].id, m[i - 1].id) == 0) {
			error("%s:%u: %s is marked on line %u already", path,
			      m[i].line > m[i - 1].line ? m[i].line
							: m[i - 1].line,
			      m[i].id,
			      m[i].line > m[i - 1].line ? m[i - 1].line
							: m[i].line);
			free(m);
			return -1;
		}
	}
	*out = m;
	*nout = n;
	return 0;
bad:
	free(m);
	return error("%s:%u: expected MESSAGE-ID<TAB>tune|held-out", path,
		     lineno);
}

/* corpus_split - mark the items by Message-ID; the count left unmarked */
int corpus_split(struct corpus *c, const char *path)
{
	struct mark *m = NULL, key, *hit;
	char *text;
	size_t len, n = 0, i;
	int unmarked = 0;

	if (read_file(path, CORPUS_SPLIT_MAX, &text, &len) < 0)
		return -1;
	if (read_marks(path, text, &m, &n) < 0) {
		free(text);
		return -1;
	}
	for (i = 0; i < c->n; i++) {
		const char *id = c->items[i].report->message_id;

		c->items[i].part = CORPUS_UNSPLIT;
		if (id && *id && n) {
			key.id = id;
			hit = bsearch(&key, m, n, sizeof(*m), cmp_mark);
			if (hit)
				c->items[i].part = hit->part;
		}
		unmarked += c->items[i].part == CORPUS_UNSPLIT;
	}
	free(m);
	free(text);
	return unmarked;
}

/* corpus_drop_part - remove the items of a part, keeping the order */
size_t corpus_drop_part(struct corpus *c, int part)
{
	size_t i, k = 0;

	for (i = 0; i < c->n; i++) {
		if (c->items[i].part == part)
			item_release(&c->items[i]);
		else
			c->items[k++] = c->items[i];
	}
	i = c->n - k;
	c->n = k;
	return i;
}

static int cmp_item_group(const void *a, const void *b)
{
	const struct corpus_item *x = *(const struct corpus_item *const *)a;
	const struct corpus_item *y = *(const struct corpus_item *const *)b;
	int r = strcmp(x->group, y->group);

	return r ? r : (x > y) - (x < y);
}

/* corpus_split_crossing - an item whose group is on both sides, or NULL */
const struct corpus_item *corpus_split_crossing(const struct corpus *c)
{
	const struct corpus_item **by = xcalloc(c->n + 1, sizeof(*by));
	const struct corpus_item *found = NULL;
	size_t i, start = 0;
	unsigned seen = 0;

	for (i = 0; i < c->n; i++)
		by[i] = &c->items[i];
	if (c->n)
		qsort(by, c->n, sizeof(*by), cmp_item_group);
	for (i = 0; i < c->n && !found; i++) {
		if (strcmp(by[i]->group, by[start]->group)) {
			start = i;
			seen = 0;
		}
		if (by[i]->part != CORPUS_UNSPLIT)
			seen |= 1u << by[i]->part;
		if (seen == (1u << CORPUS_TUNE | 1u << CORPUS_HELD_OUT))
			found = by[i];
	}
	free(by);
	return found;
}

int corpus_split_check(struct corpus *c, const char *path, size_t n,
		       size_t max_named)
{
	const struct corpus_item *x;
	size_t i, unmarked = 0;

	if (corpus_split(c, path) < 0)
		return -1;
	for (i = 0; i < n && i < c->n; i++) {
		const struct corpus_item *it = &c->items[i];

		if (it->part != CORPUS_UNSPLIT)
			continue;
		if (unmarked++ < max_named)
			error("%s (Message-ID %s) is not in %s", it->name,
			      it->report->message_id ? it->report->message_id
						     : "none",
			      path);
	}
	if (unmarked)
		return error(
			"%zu messages are not in the split: add them with tools/split-reports.py",
			unmarked);
	x = corpus_split_crossing(c);
	if (x)
		return error(
			"%s: the author/thread group of %s (%s) has messages on both sides of the split",
			path, x->name, x->group);
	return 0;
}

/* corpus_count - items of class cls */
size_t corpus_count(const struct corpus *c, int cls)
{
	size_t i, n = 0;

	for (i = 0; i < c->n; i++)
		n += c->items[i].cls == cls;
	return n;
}

/* corpus_model_input - the model's view of an item */
void corpus_model_input(const struct corpus_item *it, struct model_input *in)
{
	model_input_from_report(in, it->report);
}

/* ---- figures ------------------------------------------------------------ */

/* corpus_eval_add - count one verdict */
void corpus_eval_add(struct corpus_eval *ev, int truth, int verdict)
{
	if (truth < 0 || truth >= CLASS_N || verdict < 0 || verdict > CLASS_N)
		return;
	ev->confusion[truth][verdict]++;
	ev->uncertain += verdict == CLASS_UNCERTAIN;
	ev->n++;
}

/* corpus_eval_finish - uncertain: a miss for recall, no verdict for P */
void corpus_eval_finish(struct corpus_eval *ev)
{
	unsigned right = 0;
	int c, d;

	ev->macro_f1 = 0;
	for (c = 0; c < CLASS_N; c++) {
		unsigned tp = ev->confusion[c][c], verdicts = 0, reports = 0;

		for (d = 0; d < CLASS_N; d++)
			verdicts += ev->confusion[d][c];
		for (d = 0; d <= CLASS_N; d++)
			reports += ev->confusion[c][d];
		ev->precision[c] = verdicts ? (double)tp / verdicts : 0;
		ev->recall[c] = reports ? (double)tp / reports : 0;
		ev->f1[c] = ev->precision[c] + ev->recall[c] > 0
				    ? 2 * ev->precision[c] * ev->recall[c] /
					      (ev->precision[c] + ev->recall[c])
				    : 0;
		ev->macro_f1 += ev->f1[c] / CLASS_N;
		right += tp;
	}
	ev->accuracy = ev->n ? (double)right / (double)ev->n : 0;
}

/* corpus_eval_print - the figures as a table */
void corpus_eval_print(FILE *fp, const char *prefix,
		       const struct corpus_eval *ev)
{
	int c, d;

	fprintf(fp, "%s%-10s %9s %6s %6s %5s %9s\n", prefix, "class",
		"precision", "recall", "F1", "n", "uncertain");
	for (c = 0; c < CLASS_N; c++) {
		unsigned reports = 0;

		for (d = 0; d <= CLASS_N; d++)
			reports += ev->confusion[c][d];
		fprintf(fp, "%s%-10s %9.2f %6.2f %6.2f %5u %9u\n", prefix,
			rules_class_name(c), ev->precision[c], ev->recall[c],
			ev->f1[c], reports, ev->confusion[c][CLASS_UNCERTAIN]);
	}
	fprintf(fp, "%smacro-F1 %.3f, accuracy %.3f, uncertain %u of %zu\n",
		prefix, ev->macro_f1, ev->accuracy, ev->uncertain, ev->n);
	fprintf(fp, "%sconfusion (rows: true class; columns: verdict)\n",
		prefix);
	fprintf(fp, "%s%-10s", prefix, "");
	for (d = 0; d <= CLASS_N; d++)
		fprintf(fp, " %9s", rules_class_name(d));
	fputc('\n', fp);
	for (c = 0; c < CLASS_N; c++) {
		fprintf(fp, "%s%-10s", prefix, rules_class_name(c));
		for (d = 0; d <= CLASS_N; d++)
			fprintf(fp, " %9u", ev->confusion[c][d]);
		fputc('\n', fp);
	}
}
