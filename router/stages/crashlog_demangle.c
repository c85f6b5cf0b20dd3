// SPDX-License-Identifier: GPL-2.0-only
/*
 * crashlog_demangle - C++ (Itanium) and Rust (v0) symbol names in stack
 * frames, as a crash title shows them (see crashlog_int.h)
 *
 * Not libiberty's cplus_demangle(DMGL_AUTO): it gives the same names
 * (C++ ones with their "()") for 4.3 times the CPU a name
 * (bench/demangle.c, 100,000 rounds of six kernel names), and Debian
 * ships it only as a static archive, whose fixes would reach the filter
 * only through a rebuild.
 */
#include <ctype.h>
#include <stdio.h>

#include "crashlog_int.h"

/* ---- Rust v0 symbol names ("_RNvMs0_NtCs..._6kernel3foo3bar") ------ */

struct rdm {
	const char *s; /* the symbol after "_R" */
	size_t len, pos;
	char *out;
	size_t olen, cap;
	int depth;
	bool bad;
};

static void rdm_put(struct rdm *d, const char *p, size_t n)
{
	if (d->olen + n >= d->cap) {
		d->bad = true;
		return;
	}
	memcpy(d->out + d->olen, p, n);
	d->olen += n;
}

static void rdm_puts(struct rdm *d, const char *p)
{
	rdm_put(d, p, strlen(p));
}

static char rdm_peek(struct rdm *d)
{
	return d->pos < d->len ? d->s[d->pos] : '\0';
}

/* base-62 number ending in "_" ("_" alone is 0) */
static uint64_t rdm_b62(struct rdm *d)
{
	uint64_t v = 0;
	char c;

	if (rdm_peek(d) == '_') {
		d->pos++;
		return 0;
	}
	while ((c = rdm_peek(d)) != '_') {
		unsigned k;

		if (is_digit(c))
			k = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'z')
			k = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'Z')
			k = (unsigned)(c - 'A' + 36);
		else {
			d->bad = true;
			return 0;
		}
		v = v * 62 + k; /* disambiguators are hashes: may wrap */
		d->pos++;
	}
	d->pos++;
	return v + 1;
}

static void rdm_disambiguator(struct rdm *d)
{
	if (rdm_peek(d) == 's') {
		d->pos++;
		rdm_b62(d);
	}
}

/* identifier: [disambiguator] ["u"] decimal ["_"] bytes */
static void rdm_ident(struct rdm *d, bool print)
{
	size_t n = 0;

	rdm_disambiguator(d);
	if (rdm_peek(d) == 'u')
		d->pos++; /* punycode: shown raw */
	if (!is_digit(rdm_peek(d))) {
		d->bad = true;
		return;
	}
	while (is_digit(rdm_peek(d)) && n < 100000)
		n = n * 10 + (size_t)(d->s[d->pos++] - '0');
	if (rdm_peek(d) == '_')
		d->pos++;
	if (n > d->len - d->pos) {
		d->bad = true;
		return;
	}
	if (print)
		rdm_put(d, d->s + d->pos, n);
	d->pos += n;
}

static void rdm_path(struct rdm *d);
static void rdm_type(struct rdm *d);

static void rdm_backref(struct rdm *d, void (*fn)(struct rdm *))
{
	uint64_t at = rdm_b62(d);
	size_t save = d->pos;

	if (d->bad || at >= save || ++d->depth > 32) {
		d->bad = true;
		return;
	}
	d->pos = (size_t)at;
	fn(d);
	d->pos = save;
	d->depth--;
}

static void rdm_generic_args(struct rdm *d)
{
	bool first = true;

	rdm_puts(d, "<");
	while (!d->bad && rdm_peek(d) != 'E') {
		if (!first)
			rdm_puts(d, ", ");
		first = false;
		if (rdm_peek(d) == 'L') { /* lifetime */
			d->pos++;
			rdm_b62(d);
			rdm_puts(d, "'_");
		} else if (rdm_peek(d) == 'K') { /* const */
			d->pos++;
			while (rdm_peek(d) && rdm_peek(d) != '_')
				d->pos++;
			d->pos++;
			rdm_puts(d, "_");
		} else {
			rdm_type(d);
		}
		if (d->pos >= d->len)
			d->bad = true;
	}
	d->pos++;
	rdm_puts(d, ">");
}

static void rdm_type(struct rdm *d)
{
	static const char *const basic[26] = {
		['a' - 'a'] = "i8",    ['b' - 'a'] = "bool",
		['c' - 'a'] = "char",  ['d' - 'a'] = "f64",
		['e' - 'a'] = "str",   ['f' - 'a'] = "f32",
		['h' - 'a'] = "u8",    ['i' - 'a'] = "isize",
		['j' - 'a'] = "usize", ['l' - 'a'] = "i32",
		['m' - 'a'] = "u32",   ['n' - 'a'] = "i128",
		['o' - 'a'] = "u128",  ['p' - 'a'] = "_",
		['s' - 'a'] = "i16",   ['t' - 'a'] = "u16",
		['u' - 'a'] = "()",    ['v' - 'a'] = "...",
		['x' - 'a'] = "i64",   ['y' - 'a'] = "u64",
		['z' - 'a'] = "!",
	};
	char c = rdm_peek(d);

	if (++d->depth > 32) {
		d->bad = true;
		return;
	}
	if (c >= 'a' && c <= 'z' && basic[c - 'a']) {
		d->pos++;
		rdm_puts(d, basic[c - 'a']);
	} else if (c == 'R' || c == 'Q') {
		d->pos++;
		if (rdm_peek(d) == 'L') {
			d->pos++;
			rdm_b62(d);
		}
		rdm_puts(d, c == 'R' ? "&" : "&mut ");
		rdm_type(d);
	} else if (c == 'P' || c == 'O') {
		d->pos++;
		rdm_puts(d, c == 'P' ? "*const " : "*mut ");
		rdm_type(d);
	} else if (c == 'A' || c == 'S') {
		d->pos++;
		rdm_puts(d, "[");
		rdm_type(d);
		if (c == 'A') {
			while (rdm_peek(d) && rdm_peek(d) != '_')
				d->pos++;
			d->pos++;
			rdm_puts(d, "; _");
		}
		rdm_puts(d, "]");
	} else if (c == 'T') {
		d->pos++;
		rdm_puts(d, "(");
		while (!d->bad && rdm_peek(d) != 'E') {
			rdm_type(d);
			if (rdm_peek(d) != 'E')
				rdm_puts(d, ", ");
			if (d->pos >= d->len)
				d->bad = true;
		}
		d->pos++;
		rdm_puts(d, ")");
	} else if (c == 'B') {
		d->pos++;
		rdm_backref(d, rdm_type);
	} else if (c && strchr("CMXYNI", c)) {
		rdm_path(d);
	} else {
		d->bad = true; /* fn pointers, dyn traits: not shown */
	}
	d->depth--;
}

static void rdm_path(struct rdm *d)
{
	char c = rdm_peek(d), ns;

	if (++d->depth > 32 || d->bad) {
		d->bad = true;
		return;
	}
	d->pos++;
	switch (c) {
	case 'C':
		rdm_ident(d, true);
		break;
	case 'M':
		rdm_disambiguator(d);
		{
			/* the impl path is not shown, only its type */
			size_t save = d->olen;

			rdm_path(d);
			d->olen = save;
		}
		rdm_puts(d, "<");
		rdm_type(d);
		rdm_puts(d, ">");
		break;
	case 'X':
		rdm_disambiguator(d);
		{
			size_t save = d->olen;

			rdm_path(d);
			d->olen = save;
		}
		/* fall through */
	case 'Y':
		rdm_puts(d, "<");
		rdm_type(d);
		rdm_puts(d, " as ");
		rdm_path(d);
		rdm_puts(d, ">");
		break;
	case 'N':
		ns = rdm_peek(d);
		d->pos++;
		rdm_path(d);
		if (ns >= 'A' && ns <= 'Z') {
			char tmp[32];
			size_t save = d->pos;

			rdm_disambiguator(d);
			d->pos = save;
			rdm_puts(d, "::{");
			rdm_puts(d, ns == 'C'	? "closure"
				    : ns == 'S' ? "shim"
						: "?");
			if (rdm_peek(d) == 's') {
				d->pos++;
				snprintf(tmp, sizeof(tmp), "#%llu",
					 (unsigned long long)rdm_b62(d));
			} else {
				snprintf(tmp, sizeof(tmp), "#0");
			}
			rdm_puts(d, tmp);
			/* a name of a closure is optional (length 0) */
			if (is_digit(rdm_peek(d)) || rdm_peek(d) == 'u') {
				size_t mark = d->olen;

				rdm_ident(d, true);
				if (d->olen > mark) {
					memmove(d->out + mark + 1,
						d->out + mark, d->olen - mark);
					d->out[mark] = ':';
					d->olen++;
				}
			}
			rdm_puts(d, "}");
		} else {
			rdm_puts(d, "::");
			rdm_ident(d, true);
		}
		break;
	case 'I':
		rdm_path(d);
		rdm_generic_args(d);
		break;
	case 'B':
		rdm_backref(d, rdm_path);
		break;
	default:
		d->bad = true;
	}
	d->depth--;
}

/* rust_demangle - "_R..." (v0) to "crate::path"; false when not one */
static bool rust_demangle(const char *s, size_t len, char *out, size_t cap,
			  size_t *olen)
{
	struct rdm d = { 0 };

	if (len < 4 || s[0] != '_' || s[1] != 'R')
		return false;
	d.s = s + 2;
	d.len = len - 2;
	d.out = out;
	d.cap = cap;
	if (is_digit(rdm_peek(&d))) /* encoding version */
		while (is_digit(rdm_peek(&d)))
			d.pos++;
	rdm_path(&d);
	if (d.bad || !d.olen)
		return false;
	*olen = d.olen;
	return true;
}

/*
 * cl_demangle - C++ (Itanium) names as the title shows them: "_Z8fooiii" is
 * "foo", "_ZN3ns3barEv" is "ns::bar" (a legacy Rust hash is dropped);
 * false when s is not such a name
 */
bool cl_demangle(const char *s, size_t len, struct frames *raw, struct sv *out)
{
	char buf[512];
	size_t i = 2, o = 0, last = 0;
	bool nested;

	if (len >= 4 && s[0] == '_' && s[1] == 'R') {
		if (!rust_demangle(s, len, buf, sizeof(buf), &o))
			return false;
		goto done;
	}
	if (len < 4 || s[0] != '_' || s[1] != 'Z')
		return false;
	nested = s[2] == 'N';
	if (nested)
		i++;
	do {
		size_t n = 0;

		if (i >= len || !is_digit(s[i]))
			break;
		while (i < len && is_digit(s[i]) && n < 1000)
			n = n * 10 + (size_t)(s[i++] - '0');
		if (!n || n > len - i || o + n + 2 >= sizeof(buf))
			return false;
		last = o;
		if (o) {
			buf[o++] = ':';
			buf[o++] = ':';
		}
		memcpy(buf + o, s + i, n);
		o += n;
		i += n;
	} while (nested && i < len && s[i] != 'E');
	if (!o)
		return false;
	/* legacy Rust: a trailing "h0123456789abcdef" hash component */
	if (nested && o - last >= 17 && buf[o - 17] == 'h') {
		size_t k;

		for (k = o - 16; k < o && isxdigit((unsigned char)buf[k]); k++)
			;
		if (k == o)
			o = last;
	}
done:
	if (raw->used + o > sizeof(raw->names))
		return false;
	memcpy(raw->names + raw->used, buf, o);
	out->s = raw->names + raw->used;
	out->len = o;
	raw->used += o;
	return true;
}
