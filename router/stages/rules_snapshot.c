// SPDX-License-Identifier: GPL-2.0-only
/*
 * rules_snapshot - a compiled ruleset in one file
 * (see rules_int.h)
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "rules_int.h"
#include "util.h"

/* ---- the compiled snapshot -------------------------------------------------- */

/*
 * A snapshot is a clean, compiled ruleset in one file, so that a program
 * run once per message neither parses the rule files nor compiles every
 * regex (pcre2_compile() is about half of loading the text).  Host byte
 * order, with an endian mark:
 *
 *	"TRIAGERS", u32 version, u32 endian mark
 *	sources: str dir, str local, u32 n, n x (str path, u64 size,
 *		 u64 mtime s, u64 mtime ns, u64 inode)
 *	params: 5 x f64
 *	files: u32 n, n x str
 *	regexes: u32 n, u64 size, pcre2_serialize_encode() blob
 *	rules: u32 n, n x rule (put_rule())
 *	phrase lists: u32 n, n x (str name, u32 file, u32 line, u32 count,
 *		      count x str)
 *	u32 CRC-32C of everything before it (rules_crc32c())
 *
 * (str: u32 length, UINT32_MAX for none, then the bytes and a NUL; a
 * literal: u32 length, the bytes and a NUL, u64 maxpre.)  rules_open()
 * reads the file into one buffer that the ruleset keeps: its strings
 * are used in place.  A snapshot is
 * used only when it is intact, the directory still holds the same rule
 * files (names, sizes, times, inodes) and the site file is the same (or
 * still absent), every hook it names exists and pcre2 accepts the blob
 * (the same pcre2 build); otherwise rules_open() returns NULL and the
 * caller parses the text.
 */
/* arena_alloc - zeroed memory that lives as long as the ruleset */
static void *arena_alloc(struct ruleset *rs, size_t n)
{
	struct arena *a = rs->arena;
	void *p;

	n = (n + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
	if (!a || a->size - a->used < n) {
		size_t size = n > (16u << 10) ? n : 16u << 10;

		a = xmalloc(sizeof(*a) + size);
		a->size = size;
		a->used = 0;
		a->next = rs->arena;
		rs->arena = a;
	}
	p = (char *)a->data + a->used;
	a->used += n;
	return memset(p, 0, n);
}

#define SNAP_MAGIC   "TRIAGERS"
#define SNAP_VERSION 4 /* 3: phrase lists, 4: quoted_weight */
#define SNAP_ENDIAN  0x01020304u
#define SNAP_MAX     (64u << 20)

/* CRC-32C (Castagnoli, reflected polynomial 0x82f63b78), a byte at a time */
static const uint32_t crc32c_table[256] = {
	0x00000000u, 0xf26b8303u, 0xe13b70f7u, 0x1350f3f4u, 0xc79a971fu,
	0x35f1141cu, 0x26a1e7e8u, 0xd4ca64ebu, 0x8ad958cfu, 0x78b2dbccu,
	0x6be22838u, 0x9989ab3bu, 0x4d43cfd0u, 0xbf284cd3u, 0xac78bf27u,
	0x5e133c24u, 0x105ec76fu, 0xe235446cu, 0xf165b798u, 0x030e349bu,
	0xd7c45070u, 0x25afd373u, 0x36ff2087u, 0xc494a384u, 0x9a879fa0u,
	0x68ec1ca3u, 0x7bbcef57u, 0x89d76c54u, 0x5d1d08bfu, 0xaf768bbcu,
	0xbc267848u, 0x4e4dfb4bu, 0x20bd8edeu, 0xd2d60dddu, 0xc186fe29u,
	0x33ed7d2au, 0xe72719c1u, 0x154c9ac2u, 0x061c6936u, 0xf477ea35u,
	0xaa64d611u, 0x580f5512u, 0x4b5fa6e6u, 0xb93425e5u, 0x6dfe410eu,
	0x9f95c20du, 0x8cc531f9u, 0x7eaeb2fau, 0x30e349b1u, 0xc288cab2u,
	0xd1d83946u, 0x23b3ba45u, 0xf779deaeu, 0x05125dadu, 0x1642ae59u,
	0xe4292d5au, 0xba3a117eu, 0x4851927du, 0x5b016189u, 0xa96ae28au,
	0x7da08661u, 0x8fcb0562u, 0x9c9bf696u, 0x6ef07595u, 0x417b1dbcu,
	0xb3109ebfu, 0xa0406d4bu, 0x522bee48u, 0x86e18aa3u, 0x748a09a0u,
	0x67dafa54u, 0x95b17957u, 0xcba24573u, 0x39c9c670u, 0x2a993584u,
	0xd8f2b687u, 0x0c38d26cu, 0xfe53516fu, 0xed03a29bu, 0x1f682198u,
	0x5125dad3u, 0xa34e59d0u, 0xb01eaa24u, 0x42752927u, 0x96bf4dccu,
	0x64d4cecfu, 0x77843d3bu, 0x85efbe38u, 0xdbfc821cu, 0x2997011fu,
	0x3ac7f2ebu, 0xc8ac71e8u, 0x1c661503u, 0xee0d9600u, 0xfd5d65f4u,
	0x0f36e6f7u, 0x61c69362u, 0x93ad1061u, 0x80fde395u, 0x72966096u,
	0xa65c047du, 0x5437877eu, 0x4767748au, 0xb50cf789u, 0xeb1fcbadu,
	0x197448aeu, 0x0a24bb5au, 0xf84f3859u, 0x2c855cb2u, 0xdeeedfb1u,
	0xcdbe2c45u, 0x3fd5af46u, 0x7198540du, 0x83f3d70eu, 0x90a324fau,
	0x62c8a7f9u, 0xb602c312u, 0x44694011u, 0x5739b3e5u, 0xa55230e6u,
	0xfb410cc2u, 0x092a8fc1u, 0x1a7a7c35u, 0xe811ff36u, 0x3cdb9bddu,
	0xceb018deu, 0xdde0eb2au, 0x2f8b6829u, 0x82f63b78u, 0x709db87bu,
	0x63cd4b8fu, 0x91a6c88cu, 0x456cac67u, 0xb7072f64u, 0xa457dc90u,
	0x563c5f93u, 0x082f63b7u, 0xfa44e0b4u, 0xe9141340u, 0x1b7f9043u,
	0xcfb5f4a8u, 0x3dde77abu, 0x2e8e845fu, 0xdce5075cu, 0x92a8fc17u,
	0x60c37f14u, 0x73938ce0u, 0x81f80fe3u, 0x55326b08u, 0xa759e80bu,
	0xb4091bffu, 0x466298fcu, 0x1871a4d8u, 0xea1a27dbu, 0xf94ad42fu,
	0x0b21572cu, 0xdfeb33c7u, 0x2d80b0c4u, 0x3ed04330u, 0xccbbc033u,
	0xa24bb5a6u, 0x502036a5u, 0x4370c551u, 0xb11b4652u, 0x65d122b9u,
	0x97baa1bau, 0x84ea524eu, 0x7681d14du, 0x2892ed69u, 0xdaf96e6au,
	0xc9a99d9eu, 0x3bc21e9du, 0xef087a76u, 0x1d63f975u, 0x0e330a81u,
	0xfc588982u, 0xb21572c9u, 0x407ef1cau, 0x532e023eu, 0xa145813du,
	0x758fe5d6u, 0x87e466d5u, 0x94b49521u, 0x66df1622u, 0x38cc2a06u,
	0xcaa7a905u, 0xd9f75af1u, 0x2b9cd9f2u, 0xff56bd19u, 0x0d3d3e1au,
	0x1e6dcdeeu, 0xec064eedu, 0xc38d26c4u, 0x31e6a5c7u, 0x22b65633u,
	0xd0ddd530u, 0x0417b1dbu, 0xf67c32d8u, 0xe52cc12cu, 0x1747422fu,
	0x49547e0bu, 0xbb3ffd08u, 0xa86f0efcu, 0x5a048dffu, 0x8ecee914u,
	0x7ca56a17u, 0x6ff599e3u, 0x9d9e1ae0u, 0xd3d3e1abu, 0x21b862a8u,
	0x32e8915cu, 0xc083125fu, 0x144976b4u, 0xe622f5b7u, 0xf5720643u,
	0x07198540u, 0x590ab964u, 0xab613a67u, 0xb831c993u, 0x4a5a4a90u,
	0x9e902e7bu, 0x6cfbad78u, 0x7fab5e8cu, 0x8dc0dd8fu, 0xe330a81au,
	0x115b2b19u, 0x020bd8edu, 0xf0605beeu, 0x24aa3f05u, 0xd6c1bc06u,
	0xc5914ff2u, 0x37faccf1u, 0x69e9f0d5u, 0x9b8273d6u, 0x88d28022u,
	0x7ab90321u, 0xae7367cau, 0x5c18e4c9u, 0x4f48173du, 0xbd23943eu,
	0xf36e6f75u, 0x0105ec76u, 0x12551f82u, 0xe03e9c81u, 0x34f4f86au,
	0xc69f7b69u, 0xd5cf889du, 0x27a40b9eu, 0x79b737bau, 0x8bdcb4b9u,
	0x988c474du, 0x6ae7c44eu, 0xbe2da0a5u, 0x4c4623a6u, 0x5f16d052u,
	0xad7d5351u,
};

static uint32_t crc32c_sw(uint32_t crc, const unsigned char *p, size_t n)
{
	for (; n; p++, n--)
		crc = crc32c_table[(crc ^ *p) & 0xff] ^ (crc >> 8);
	return crc;
}

#if defined(__x86_64__) && defined(__GNUC__)
#define HAVE_CRC32C_HW 1
/* the same with the SSE4.2 crc32 instruction, eight bytes at a time */
__attribute__((target("sse4.2"))) static uint32_t crc32c_hw(
	uint32_t crc, const unsigned char *p, size_t n)
{
	uint64_t c = crc, w;

	for (; n >= 8; p += 8, n -= 8) {
		memcpy(&w, p, 8);
		c = __builtin_ia32_crc32di(c, w);
	}
	crc = (uint32_t)c;
	for (; n; p++, n--)
		crc = __builtin_ia32_crc32qi(crc, *p);
	return crc;
}
#endif

/* rules_crc32c - CRC-32C of data (the SSE4.2 instruction when present) */
uint32_t rules_crc32c(const void *data, size_t len)
{
	const unsigned char *p = data;

#ifdef HAVE_CRC32C_HW
	if (__builtin_cpu_supports("sse4.2"))
		return ~crc32c_hw(~0u, p, len);
#endif
	return ~crc32c_sw(~0u, p, len);
}

/* rules_crc32c_portable - the same without the instruction (tests) */
uint32_t rules_crc32c_portable(const void *data, size_t len)
{
	return ~crc32c_sw(~0u, data, len);
}

static void put(struct strbuf *sb, const void *p, size_t n)
{
	sb_add(sb, p, n);
}

static void put_u32(struct strbuf *sb, uint32_t v)
{
	put(sb, &v, sizeof(v));
}

static void put_u64(struct strbuf *sb, uint64_t v)
{
	put(sb, &v, sizeof(v));
}

static void put_f64(struct strbuf *sb, double v)
{
	put(sb, &v, sizeof(v));
}

static void put_str(struct strbuf *sb, const char *str)
{
	size_t n = str ? strlen(str) : 0;

	put_u32(sb, str ? (uint32_t)n : UINT32_MAX);
	if (str)
		put(sb, str, n + 1); /* with its NUL, read in place */
}

struct cursor {
	const unsigned char *p, *end;
	bool bad;
};

static void get(struct cursor *c, void *out, size_t n)
{
	if (c->bad || (size_t)(c->end - c->p) < n) {
		c->bad = true;
		memset(out, 0, n);
		return;
	}
	memcpy(out, c->p, n);
	c->p += n;
}

static uint32_t get_u32(struct cursor *c)
{
	uint32_t v;

	get(c, &v, sizeof(v));
	return v;
}

static uint64_t get_u64(struct cursor *c)
{
	uint64_t v;

	get(c, &v, sizeof(v));
	return v;
}

static double get_f64(struct cursor *c)
{
	double v;

	get(c, &v, sizeof(v));
	return v;
}

/*
 * get_str - a string in the snapshot's buffer (not a copy); NULL when
 * written as none or on error
 */
static char *get_str(struct cursor *c)
{
	uint32_t n = get_u32(c);
	char *str;

	if (c->bad || n == UINT32_MAX)
		return NULL;
	if ((size_t)(c->end - c->p) <= n || c->p[n] != '\0') {
		c->bad = true;
		return NULL;
	}
	str = (char *)c->p;
	c->p += n + 1;
	return str;
}

struct source {
	char *path;
	uint64_t size, ino, sec, nsec;
};

/* sources - the files rules_add_dir(dir) and the site file would read */
static int sources(const char *dir, const char *local, struct source **out,
		   size_t *n)
{
	char **names;
	size_t k, i;
	struct stat st;
	int ret = 0;

	*out = NULL;
	*n = 0;
	if (rl_rule_files(dir, &names, &k) < 0)
		return -1;
	if (local && *local && stat(local, &st) == 0) {
		names = xreallocarray(names, k + 1, sizeof(*names));
		names[k++] = xstrdup(local);
	}
	*out = xcalloc(k + 1, sizeof(**out));
	for (i = 0; i < k; i++) {
		(*out)[i].path = names[i];
		if (stat(names[i], &st) < 0) {
			ret = -1;
			continue;
		}
		(*out)[i].size = (uint64_t)st.st_size;
		(*out)[i].ino = (uint64_t)st.st_ino;
		(*out)[i].sec = (uint64_t)st.st_mtim.tv_sec;
		(*out)[i].nsec = (uint64_t)st.st_mtim.tv_nsec;
	}
	free(names);
	*n = k;
	return ret;
}

static void sources_free(struct source *src, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(src[i].path);
	free(src);
}

enum {
	SNAP_NEGATE = 1 << 8,
	SNAP_UTF = 1 << 9,
	SNAP_SCORED = 1 << 10,
	SNAP_CERTAIN = 1 << 11,
	SNAP_PF_CI = 1 << 16,
};

static void put_rule(struct strbuf *sb, const struct rule *r, int32_t code)
{
	size_t k;
	int i;

	put_str(sb, r->name);
	put_u32(sb, (uint32_t)r->type);
	put_u32(sb, (uint32_t)r->def_file);
	put_u32(sb, r->def_line);
	put_str(sb, r->field);
	put_u32(sb, (uint32_t)r->hmode | (r->negate ? SNAP_NEGATE : 0) |
			    (r->utf ? SNAP_UTF : 0) |
			    (r->scored ? SNAP_SCORED : 0) |
			    (r->certain ? SNAP_CERTAIN : 0));
	put_str(sb, r->pattern);
	put_u32(sb, r->options);
	put_u32(sb, (uint32_t)code);
	put_str(sb, r->hook ? r->hook->name : NULL);
	put_u32(sb, (uint32_t)r->args.argc);
	for (i = 0; i < r->args.argc; i++)
		put_str(sb, r->args.argv[i]);
	put_u32(sb, (uint32_t)r->nops);
	for (k = 0; k < r->nops; k++) {
		put_u32(sb, (uint32_t)r->ops[k].op);
		put_u64(sb, r->ops[k].idx);
		put_f64(sb, r->ops[k].num);
	}
	for (i = 0; i < CLASS_N; i++)
		put_f64(sb, r->score[i]);
	put_str(sb, r->describe);
	put_u32(sb, (uint32_t)r->pf.n | (r->pf.ci ? SNAP_PF_CI : 0));
	for (i = 0; i < r->pf.n; i++) {
		put_u32(sb, (uint32_t)r->pf.alt[i].len);
		put(sb, r->pf.alt[i].s, r->pf.alt[i].len);
		put(sb, "", 1);
		put_u64(sb, r->pf.alt[i].maxpre);
	}
}

/*
 * rules_save - write a clean ruleset, loaded from dir (and the site file
 * local, or NULL), to path atomically; -1 after a message
 */
int rules_save(struct ruleset *rs, const char *dir, const char *local,
	       const char *path)
{
	struct strbuf sb = STRBUF_INIT(SNAP_MAX);
	const pcre2_code **codes;
	int32_t *index;
	struct source *src;
	uint8_t *blob = NULL;
	PCRE2_SIZE blob_len = 0;
	size_t nsrc, i, ncodes = 0;
	int ret = -1;

	if (rules_compile(rs))
		return error("%s: the rules have errors; not saved", path);
	if (sources(dir, local, &src, &nsrc) < 0) {
		sources_free(src, nsrc);
		return error("%s: cannot read the rule files", dir);
	}
	codes = xcalloc(rs->nrules + 1, sizeof(*codes));
	index = xcalloc(rs->nrules + 1, sizeof(*index));
	for (i = 0; i < rs->nrules; i++) {
		index[i] = rs->rules[i].code ? (int32_t)ncodes : -1;
		if (rs->rules[i].code)
			codes[ncodes++] = rs->rules[i].code;
	}
	if (ncodes && pcre2_serialize_encode(codes, (int32_t)ncodes, &blob,
					     &blob_len, NULL) < 0) {
		error("%s: pcre2 cannot serialize the regexes", path);
		goto out;
	}
	put(&sb, SNAP_MAGIC, 8);
	put_u32(&sb, SNAP_VERSION);
	put_u32(&sb, SNAP_ENDIAN);
	put_str(&sb, dir);
	put_str(&sb, local && *local ? local : "");
	put_u32(&sb, (uint32_t)nsrc);
	for (i = 0; i < nsrc; i++) {
		put_str(&sb, src[i].path);
		put_u64(&sb, src[i].size);
		put_u64(&sb, src[i].sec);
		put_u64(&sb, src[i].nsec);
		put_u64(&sb, src[i].ino);
	}
	for (i = 0; i < CLASS_N; i++)
		put_f64(&sb, rs->params.threshold[i]);
	put_f64(&sb, rs->params.band);
	put_f64(&sb, rs->params.user_bias);
	put_f64(&sb, rs->params.quoted_weight);
	put_u32(&sb, (uint32_t)rs->nfiles);
	for (i = 0; i < rs->nfiles; i++)
		put_str(&sb, rs->files[i]);
	put_u32(&sb, (uint32_t)ncodes);
	put_u64(&sb, blob_len);
	put(&sb, blob, blob_len);
	put_u32(&sb, (uint32_t)rs->nrules);
	for (i = 0; i < rs->nrules; i++)
		put_rule(&sb, &rs->rules[i], index[i]);
	put_u32(&sb, (uint32_t)rs->nlists);
	for (i = 0; i < rs->nlists; i++) {
		const struct phrase_list *l = &rs->lists[i];
		size_t k;

		put_str(&sb, l->name);
		put_u32(&sb, (uint32_t)l->file);
		put_u32(&sb, l->line);
		put_u32(&sb, (uint32_t)l->pub.n);
		for (k = 0; k < l->pub.n; k++)
			put_str(&sb, l->pub.v[k]);
	}
	put_u32(&sb, rules_crc32c(sb.buf, sb.len));
	if (sb.len + 1 >= SNAP_MAX) {
		error("%s: the rules are too large to save", path);
		goto out;
	}
	ret = write_file_atomic(path, sb.buf, sb.len, 0644);
out:
	if (blob)
		pcre2_serialize_free(blob);
	free(codes);
	free(index);
	sources_free(src, nsrc);
	sb_release(&sb);
	return ret;
}

/* get_args - a rule's eval arguments, in the snapshot's buffer */
static bool get_args(struct cursor *c, struct rule *r)
{
	uint32_t n = get_u32(c), k;

	if (n > RULES_MAX_ARGS)
		return false;
	for (k = 0; k < n; k++) {
		const char *a = get_str(c);

		r->args.argv[k] = a ? a : "";
	}
	r->args.argc = (int)n;
	return !c->bad;
}

/* get_rule - one rule; takes its regex out of codes[] */
static bool get_rule(struct cursor *c, struct ruleset *rs, struct rule *r,
		     pcre2_code **codes, uint32_t ncodes)
{
	uint32_t flags, n, k;
	int32_t code;
	char *hook;
	int i;

	r->name = get_str(c);
	r->type = (enum rule_type)get_u32(c);
	r->def_file = (int)get_u32(c);
	r->def_line = get_u32(c);
	r->field = get_str(c);
	flags = get_u32(c);
	r->hmode = (enum hdr_mode)(flags & 0xff);
	r->negate = flags & SNAP_NEGATE;
	r->utf = flags & SNAP_UTF;
	r->scored = flags & SNAP_SCORED;
	r->certain = flags & SNAP_CERTAIN;
	r->pattern = get_str(c);
	r->options = get_u32(c);
	code = (int32_t)get_u32(c);
	hook = get_str(c);
	r->score_file = r->describe_file = r->tflags_file = r->ref_file = -1;
	r->certain_class = -1;
	if (c->bad || !r->name || !rl_valid_name(r->name) ||
	    r->type < RULE_HEADER || r->type > RULE_META || r->def_file < 0 ||
	    (size_t)r->def_file >= rs->nfiles || r->hmode > HDR_EXISTS ||
	    code < -1 ||
	    (code >= 0 && ((uint32_t)code >= ncodes || !codes[code])))
		return false;
	if (code >= 0) {
		r->code = codes[code];
		codes[code] = NULL; /* the rule owns it now */
	}
	if (hook) {
		r->hook = rl_hook_find(rs, hook);
		if (!r->hook)
			return false;
	}
	if (!get_args(c, r))
		return false;
	n = get_u32(c);
	if (n > META_MAX_OPS)
		return false;
	r->nops = n;
	r->ops = n ? arena_alloc(rs, n * sizeof(*r->ops)) : NULL;
	for (k = 0; k < n; k++) {
		r->ops[k].op = (enum meta_opcode)get_u32(c);
		r->ops[k].idx = get_u64(c);
		r->ops[k].num = get_f64(c);
		if (r->ops[k].op > OP_OR ||
		    (r->ops[k].op == OP_RULE && r->ops[k].idx >= rs->nrules))
			return false;
	}
	for (i = 0; i < CLASS_N; i++)
		r->score[i] = get_f64(c);
	r->describe = get_str(c);
	flags = get_u32(c);
	n = flags & 0xffff;
	if (n > PF_MAX_ALTS)
		return false;
	r->pf.ci = flags & SNAP_PF_CI;
	r->pf.alt = n ? arena_alloc(rs, n * sizeof(*r->pf.alt)) : NULL;
	for (k = 0; k < n; k++) {
		uint32_t len = get_u32(c);

		if (c->bad || len < RULES_PREFILTER_MIN ||
		    (size_t)(c->end - c->p) <= len || c->p[len] != '\0')
			return false;
		r->pf.alt[k].s = (char *)c->p;
		r->pf.alt[k].len = len;
		c->p += len + 1;
		r->pf.alt[k].maxpre = get_u64(c);
		r->pf.n = (int)k + 1;
	}
	/* each kind of rule has what it needs to run */
	if (r->type == RULE_META)
		return r->nops > 0 && !c->bad;
	if (r->hook)
		return !c->bad;
	if (r->hmode == HDR_EXISTS)
		return r->type == RULE_HEADER && r->field && !c->bad;
	return r->code && (r->type != RULE_HEADER || r->field) && !c->bad;
}

/* get_lists - the phrase lists, their strings in the snapshot's buffer */
static bool get_lists(struct cursor *c, struct ruleset *rs)
{
	uint32_t n = get_u32(c), i, k;

	if (c->bad || n > 10000)
		return false;
	rs->lists = xcalloc(n + 1, sizeof(*rs->lists));
	rs->lists_alloc = n + 1;
	for (i = 0; i < n; i++) {
		struct phrase_list *l = &rs->lists[i];
		const char **v;

		l->name = get_str(c);
		l->file = (int)get_u32(c);
		l->line = get_u32(c);
		l->pub.n = get_u32(c);
		if (c->bad || !l->name || l->file < 0 ||
		    (size_t)l->file >= rs->nfiles || !l->pub.n ||
		    l->pub.n > RULES_PHRASES_MAX)
			return false;
		v = arena_alloc(rs, l->pub.n * sizeof(*v));
		for (k = 0; k < l->pub.n; k++) {
			v[k] = get_str(c);
			if (!v[k] || strlen(v[k]) < 2)
				return false;
		}
		l->pub.v = v;
		rs->nlists = i + 1;
	}
	return !c->bad;
}

/*
 * rules_open - the ruleset rules_save() wrote to path, when it is intact
 * and still matches the rule files of dir and the site file local;
 * NULL (silently) otherwise
 */
struct ruleset *rules_open(const char *path, const char *dir, const char *local,
			   const struct rules_hook *hooks, size_t nhooks)
{
	struct ruleset *rs = NULL;
	struct source *src = NULL;
	pcre2_code **codes = NULL;
	char *buf;
	const char *sdir, *slocal;
	size_t len, nsrc = 0, i;
	uint32_t n, crc, ncodes = 0;
	uint64_t blob_len;
	struct cursor c;
	struct stat st;
	bool ok = false;
	FILE *f = fopen(path, "r");

	if (!f)
		return NULL;
	if (fstat(fileno(f), &st) < 0 || st.st_size < 8 + 3 * 4 ||
	    st.st_size >= SNAP_MAX) {
		fclose(f);
		return NULL;
	}
	buf = xmalloc((size_t)st.st_size + 1);
	len = fread(buf, 1, (size_t)st.st_size + 1, f);
	fclose(f);
	if (len != (size_t)st.st_size)
		goto out;
	memcpy(&crc, buf + len - 4, 4);
	if (crc != rules_crc32c(buf, len - 4) ||
	    memcmp(buf, SNAP_MAGIC, 8) != 0)
		goto out;
	c.p = (const unsigned char *)buf + 8;
	c.end = (const unsigned char *)buf + len - 4;
	c.bad = false;
	if (get_u32(&c) != SNAP_VERSION || get_u32(&c) != SNAP_ENDIAN)
		goto out;

	/* the same sources, unchanged */
	sdir = get_str(&c);
	slocal = get_str(&c);
	if (!sdir || !slocal || strcmp(sdir, dir) != 0 ||
	    strcmp(slocal, local && *local ? local : "") != 0 ||
	    sources(dir, local, &src, &nsrc) < 0 || get_u32(&c) != nsrc)
		goto out;
	for (i = 0; i < nsrc; i++) {
		const char *p = get_str(&c);

		if (!p || strcmp(p, src[i].path) != 0 ||
		    get_u64(&c) != src[i].size || get_u64(&c) != src[i].sec ||
		    get_u64(&c) != src[i].nsec || get_u64(&c) != src[i].ino)
			goto out;
	}

	rs = rules_new(hooks, nhooks);
	rs->snap = buf; /* the rules point into it from here on */
	buf = NULL;
	for (i = 0; i < CLASS_N; i++)
		rs->params.threshold[i] = get_f64(&c);
	rs->params.band = get_f64(&c);
	rs->params.user_bias = get_f64(&c);
	rs->params.quoted_weight = get_f64(&c);
	n = get_u32(&c);
	if (c.bad || n > 10000)
		goto out;
	for (i = 0; i < n; i++) {
		char *file = get_str(&c);

		if (!file)
			goto out;
		ALLOC_GROW(rs->files, rs->nfiles, rs->files_alloc);
		rs->files[rs->nfiles++] = file;
	}

	ncodes = get_u32(&c);
	blob_len = get_u64(&c);
	if (c.bad || ncodes > 1000000 || blob_len > (uint64_t)(c.end - c.p) ||
	    (ncodes && !blob_len))
		goto out;
	codes = xcalloc(ncodes + 1, sizeof(*codes));
	if (ncodes && pcre2_serialize_decode(codes, (int32_t)ncodes, c.p,
					     NULL) != (int32_t)ncodes)
		goto out;
	c.p += blob_len;

	n = get_u32(&c);
	if (c.bad || n > 1000000)
		goto out;
	rs->rules = xcalloc(n + 1, sizeof(*rs->rules));
	rs->rules_alloc = n + 1;
	rs->nrules = n;
	for (i = 0; i < n; i++)
		if (!get_rule(&c, rs, &rs->rules[i], codes, ncodes))
			goto out;
	if (!get_lists(&c, rs) || c.p != c.end)
		goto out;
	for (i = 0; i < n; i++)
		if (hashmap_put(&rs->names, hash_str(rs->rules[i].name),
				rs->rules[i].name, (uint32_t)i) != i)
			goto out; /* a name twice */
	ok = rules_compile(rs) == 0;
out:
	if (!ok && rs) {
		rules_free(rs);
		rs = NULL;
	}
	for (i = 0; codes && i < ncodes; i++)
		pcre2_code_free(codes[i]);
	free(codes);
	sources_free(src, nsrc);
	free(buf);
	return rs;
}
