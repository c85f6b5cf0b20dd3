// SPDX-License-Identifier: GPL-2.0-only
/*
 * kind_spam - junk that passed the site's filter, told as a mail admin
 * tells it: several independent marks that agree
 *
 * A list's archive of reports also holds advance-fee scams ("abandoned
 * funds", "next of kin", "compensation", "ATM card"), phishing and
 * insurance marketing dressed with an innocuous decoy paragraph, and
 * sales junk.  None of it names anything of the kernel, and a genuine
 * report always does, however poor its English: a path, a function, a
 * config option, a log line, a version, a model number or a word of the
 * kernel's world ("driver", "boot", "laptop", "dmesg").  So a message is
 * spam here only when
 *
 *   - its subject and own text (list footers left out, HTML renderings
 *     and inline text parts read too) name nothing of the kernel by the
 *     broad test below, and neither says that something went wrong
 *     (problem.h): a vague genuine report says so; and
 *   - at least two of these marks agree, one of them money, a scam's
 *     words or a disguised spelling:
 *       money     an amount ("$10.8 million", "450万美元", "1,456
 *                 points", "USD 5000");
 *       words     two or more distinct words of scams and marketing
 *                 ("beneficiary", "next of kin", "redeem", "Medicare",
 *                 "Erbschaft", ...);
 *       sender    a From: display name that claims a title or a
 *                 business ("Mrs.", "Barrister", "Support", "Bank",
 *                 all in capitals) that the address's domain does not
 *                 carry ("BANK MANAGER <kyra@vintage...>");
 *       disguise  words spelled to slip past filters: a capital I for an
 *                 l ("WaImart", "pIan"), letter O for zero ("1OO.OO"),
 *                 zero for O ("0maha"); or a decoy paragraph hidden in
 *                 the HTML (PART_HIDDEN: "display:none", "left:-9999px"),
 *                 whose plain alternative, which carries the decoy with
 *                 its kernel words and its story of a problem, is then
 *                 not read: the HTML shown is the message;
 *       appeal    the scammer's call ("reply strictly through",
 *                 "kindly", "your full name", "did you receive my
 *                 previous email", "redeem now");
 *       capitals  a subject in capital letters ("CONFIDENTIAL REQUEST").
 *
 * Everything is read within fixed bounds; nothing is allocated beyond
 * one bounded copy of the text.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "kind.h"
#include "kind_int.h"
#include "problem.h"
#include "report.h"
#include "util.h"

#define SPAM_PART_MAX (16u << 10) /* read of each text */
#define SPAM_TEXT_MAX (64u << 10) /* of all of them */

/*
 * kind_list_footer - where a mailing list's footer starts in t[0..len)
 * (kind_int.h): Mailman's line of underscores alone, then "... mailing
 * list" or its listinfo address within three lines; or len
 */
size_t kind_list_footer(const char *t, size_t len)
{
	const char *p = t, *end = t + len, *e, *q;
	int lines;

	for (; p < end; p = e + 1) {
		e = memchr(p, '\n', (size_t)(end - p));
		if (!e)
			e = end;
		for (q = p; q < e && *q == '_'; q++)
			;
		if (q - p >= 20 && (q == e || *q == '\r'))
			for (lines = 0, q = e; q < end && lines < 3; lines++) {
				const char *s = memchr(q + 1, '\n',
						       (size_t)(end - q - 1));

				if (!s)
					s = end;
				if (memmem(q, (size_t)(s - q), "mailing list",
					   12) ||
				    memmem(q, (size_t)(s - q), "/listinfo/",
					   10))
					return (size_t)(p - t);
				q = s;
			}
		if (e == end)
			break;
	}
	return len;
}

/* add - append t[0..n) (footer cut, bounded, NULs as spaces) to buf */
static void add(char *buf, size_t *len, const char *t, size_t n)
{
	size_t i;

	if (!t || *len + 2 >= SPAM_TEXT_MAX)
		return; /* full: '\n', then at least the NUL */
	if (n > SPAM_PART_MAX)
		n = SPAM_PART_MAX;
	n = kind_list_footer(t, n);
	if (*len + 2 + n > SPAM_TEXT_MAX)
		n = SPAM_TEXT_MAX - *len - 2;
	buf[(*len)++] = '\n';
	for (i = 0; i < n; i++)
		buf[(*len)++] = t[i] ? t[i] : ' ';
	buf[*len] = '\0';
}

/*
 * The words of the kernel's world: subsystems, buses, hardware, crashes,
 * the distributions and the tools a reporter runs.  Sorted
 * (sorted_words_has), lower case.
 */
static const char *const kernel_words[] = {
	"aarch64",   "acpi",	    "alsa",	 "amd",		"amdgpu",
	"arch",	     "arm",	    "arm64",	 "audio",	"bios",
	"bluetooth", "bluez",	    "boot",	 "booting",	"boots",
	"broadcom",  "btrfs",	    "bug",	 "bugs",	"bugzilla",
	"camera",    "chipset",	    "clang",	 "commit",	"compile",
	"compiled",  "compiler",    "computer",	 "cpu",		"cpus",
	"crash",     "crashed",	    "crashes",	 "debian",	"device",
	"devices",   "display",	    "distro",	 "dma",		"dmesg",
	"driver",    "drivers",	    "drm",	 "ethernet",	"ext4",
	"fedora",    "filesystem",  "firmware",	 "gcc",		"geforce",
	"gentoo",    "git",	    "gpu",	 "graphics",	"grub",
	"hardware",  "hdd",	    "initramfs", "intel",	"ioctl",
	"irq",	     "journalctl",  "kasan",	 "kdump",	"kernel",
	"kernels",   "kexec",	    "keyboard",	 "kvm",		"laptop",
	"linux",     "lockdep",	    "lspci",	 "lsusb",	"mainline",
	"mediatek",  "mesa",	    "mint",	 "module",	"modules",
	"monitor",   "motherboard", "mouse",	 "network",	"nouveau",
	"nvidia",    "nvme",	    "oops",	 "opensuse",	"panic",
	"patch",     "patches",	    "pc",	 "pci",		"pcie",
	"printer",   "pulseaudio",  "qemu",	 "qualcomm",	"radeon",
	"raspberry", "realtek",	    "reboot",	 "regression",	"rockchip",
	"router",    "sata",	    "screen",	 "scsi",	"segfault",
	"soc",	     "sound",	    "ssd",	 "suspend",	"syscall",
	"sysfs",     "systemd",	    "touchpad",	 "touchscreen", "ubuntu",
	"udev",	     "uefi",	    "upstream",	 "usb",		"virtualbox",
	"vm",	     "wayland",	    "webcam",	 "wifi",	"wireless",
	"wlan",	     "x86",	    "xfs",	 "xorg",
};

/*
 * ... and words of everyday English that a report uses as well as junk
 * does ("error", "failed", "memory", "battery", "resume"): they name the
 * kernel's world in a text without junk's marks (KIND_NAMES_ALL), not in
 * one whose marks of junk agree (KIND_NAMES_SURE).  Sorted.
 */
static const char *const everyday_words[] = {
	"adapter",  "amd64",   "battery",    "block",  "build",
	"chip",	    "config",  "controller", "disk",   "disks",
	"error",    "errors",  "fail",	     "failed", "fails",
	"failure",  "gamepad", "hid",	     "inode",  "input",
	"joystick", "memory",  "mount",	     "nfs",    "partition",
	"raid",	    "resume",  "snapshot",   "stable", "subvolume",
};

/* trim_punct - the chunk c[0..*n) without trailing punctuation */
static void trim_punct(const char *c, size_t *n)
{
	while (*n && strchr(",.;:!?)]}\"'>", c[*n - 1]))
		(*n)--;
}

/* chunk_names - a whitespace-free chunk (lower case) that names the
 * kernel as a path, a file, a version or a kernel.org link */
static bool chunk_names(const char *c, size_t n)
{
	size_t i, slashes = 0, alpha = 0;
	bool money_chunk = false;

	if (memmem(c, n, "://", 3) || memmem(c, n, "www.", 4) ||
	    memchr(c, '@', n))
		return memmem(c, n, "kernel.org", 10) != NULL;
	trim_punct(c, &n);
	for (i = 0; i + 2 < n && !money_chunk; i++)
		money_chunk =
			c[i] == '$' || !strncmp(c + i, "\xe2\x82\xac", 3) ||
			!strncmp(c + i, "\xc2\xa3", 2) ||
			(isdigit((unsigned char)c[i]) && c[i + 1] == ',' &&
			 isdigit((unsigned char)c[i + 2]));
	for (i = 0; i < n; i++) {
		slashes += c[i] == '/';
		alpha += isalpha((unsigned char)c[i]) != 0;
		/* v6.1, 6.12.3, 6.19-rc2; not an amount ("$50,000.000.00") */
		if (!money_chunk && isdigit((unsigned char)c[i]) && i + 2 < n &&
		    c[i + 1] == '.' && isdigit((unsigned char)c[i + 2]) &&
		    ((i && c[i - 1] == 'v' &&
		      (i == 1 || !isalpha((unsigned char)c[i - 2]))) ||
		     memchr(c + i + 2, '.', n - i - 2) ||
		     memmem(c + i, n - i, "-rc", 3)))
			return true;
	}
	if (alpha && (slashes >= 2 || (slashes && c[0] == '/')))
		return true;
	if (n > 2 && c[n - 2] == '.' && (c[n - 1] == 'c' || c[n - 1] == 'h') &&
	    isalnum((unsigned char)c[n - 3]))
		return true;
	return n > 3 && !memcmp(c + n - 3, ".ko", 3);
}

/*
 * call_args - [a, cend) opens with a call's arguments closed within the
 * chunk: "()" or "(ptr)", "(dev->of_node)", "(&lock)": identifier
 * characters, '*', '&', "->" and commas; prose's "daily(risk free)"
 * and a name's initials "Kouame(M.K)" are none
 */
static bool call_args(const char *a, const char *cend)
{
	for (; a < cend && *a != ')'; a++)
		if (!isalnum((unsigned char)*a) &&
		    (!*a || !strchr("_*&->,", *a)))
			return false;
	return a < cend;
}

/*
 * word_names - a word (lower case, [a-z0-9_]) of the chunk ending at
 * cend that names the kernel: code (an identifier with an underscore
 * after a letter, 0x, a call "probe()", "kfree(ptr)": its parenthesis
 * closes within the chunk, as prose's "daily(risk free)" does not) or,
 * beyond KIND_NAMES_CODE, a model or driver name (letters then three
 * digits: "i915", "rk3399", "gt730") or one of kernel_words (and with
 * KIND_NAMES_ALL, of everyday_words)
 */
static bool word_names(const char *w, size_t n, const char *after,
		       const char *cend, enum kind_names how)
{
	char buf[16];
	size_t i, digits = 0, alpha = 0;

	for (i = 0; i < n; i++) {
		if (w[i] == '_' && alpha)
			return true;
		digits += isdigit((unsigned char)w[i]) != 0;
		alpha += isalpha((unsigned char)w[i]) != 0;
	}
	if (n > 2 && w[0] == '0' && w[1] == 'x')
		return true;
	if (alpha && after < cend && *after == '(' &&
	    call_args(after + 1, cend))
		return true;
	if (how == KIND_NAMES_CODE)
		return false;
	for (i = 0; i < n && isalpha((unsigned char)w[i]); i++)
		;
	if (i && digits >= 3 && i + digits + 1 >= n &&
	    strspn(w + i, "0123456789") == digits)
		return true;
	if (n >= sizeof(buf) || !alpha)
		return false;
	memcpy(buf, w, n);
	buf[n] = '\0';
	return sorted_words_has(kernel_words, ARRAY_SIZE(kernel_words), buf) ||
	       (how == KIND_NAMES_ALL &&
		sorted_words_has(everyday_words, ARRAY_SIZE(everyday_words),
				 buf));
}

/* dmesg_line - "[   12.345678]" at p, within end */
static bool dmesg_line(const char *p, const char *end)
{
	if (p >= end || *p++ != '[')
		return false;
	while (p < end && *p == ' ')
		p++;
	if (p >= end || !isdigit((unsigned char)*p))
		return false;
	while (p < end && isdigit((unsigned char)*p))
		p++;
	if (p >= end || *p++ != '.' || p >= end || !isdigit((unsigned char)*p))
		return false;
	while (p < end && isdigit((unsigned char)*p))
		p++;
	return p < end && *p == ']';
}

/* chunk_code - the lower-cased chunk c[0..n) holds a word that names
 * the kernel (word_names), or a dmesg timestamp */
static bool chunk_code(const char *c, size_t n, enum kind_names how)
{
	const char *w = c, *end = c + n, *s;

	while (w < end) {
		if (how != KIND_NAMES_CODE && dmesg_line(w, end))
			return true;
		while (w < end && !isalnum((unsigned char)*w) && *w != '_')
			w++;
		for (s = w;
		     w < end && (isalnum((unsigned char)*w) || *w == '_'); w++)
			;
		if (w > s && word_names(s, (size_t)(w - s), w, end, how))
			return true;
	}
	return false;
}

/*
 * kind_names_kernel - t[0..len) (its list footer left out) names
 * something of the kernel (kind_int.h)
 */
bool kind_names_kernel(const char *t, size_t len, enum kind_names how)
{
	const char *p = t, *end = t + kind_list_footer(t, len), *c;
	char low[256];
	size_t n, i;

	while (p < end) {
		while (p < end && (isspace((unsigned char)*p) || !*p))
			p++;
		for (c = p; p < end && *p && !isspace((unsigned char)*p); p++)
			;
		if (p == c)
			break;
		/* a chunk longer than low[] is no word of prose: its start */
		n = (size_t)(p - c) < sizeof(low) ? (size_t)(p - c)
						  : sizeof(low) - 1;
		for (i = 0; i < n; i++)
			low[i] = (char)tolower((unsigned char)c[i]);
		if (how != KIND_NAMES_CODE && chunk_names(low, n))
			return true;
		if (memmem(low, n, "://", 3) || memchr(low, '@', n))
			continue; /* a link's or address's words: its host's */
		if (chunk_code(low, n, how))
			return true;
	}
	return false;
}

/* phrase_at - t (lower case) holds phrase at p, whole words (ASCII) */
static bool phrase_at(const char *t, const char *p, size_t n)
{
	return (p == t || !isalnum((unsigned char)p[-1]) ||
		(unsigned char)p[0] >= 0x80) &&
	       (!isalnum((unsigned char)p[n]) ||
		(unsigned char)p[n - 1] >= 0x80);
}

/* phrases - how many of list[] t holds (up to max); the first two go to
 * first[] */
static unsigned phrases(const char *t, const char *const *list, size_t nlist,
			const char **first)
{
	unsigned hits = 0;
	size_t i;

	for (i = 0; i < nlist; i++) {
		size_t n = strlen(list[i]);
		const char *p;

		for (p = t; (p = strstr(p, list[i])); p++)
			if (phrase_at(t, p, n)) {
				if (hits < 2)
					first[hits] = list[i];
				hits++;
				break;
			}
	}
	return hits;
}

/* the words of scams and marketing */
static const char *const scam_words[] = {
	"abandoned",
	"atm card",
	"beneficiary",
	"next of kin",
	"compensation",
	"inheritance",
	"late husband",
	"widow",
	"deceased",
	"fund",
	"funds",
	"donation",
	"donated",
	"lottery",
	"winning",
	"transaction",
	"bank",
	"banking",
	"confidential",
	"business proposal",
	"investment",
	"investor",
	"crypto",
	"bitcoin",
	"loan",
	"financing",
	"western union",
	"diplomat",
	"consignment",
	"barrister",
	"reward",
	"rewards",
	"redeem",
	"expire",
	"expires",
	"expiring",
	"voucher",
	"gift card",
	"medicare",
	"insurance",
	"coverage",
	"enrollment",
	"points",
	"exclusive offer",
	"dealers",
	"resellers",
	"wholesale",
	"free shipping",
	"congratulations",
	"shipping",
	"sampler",
	"account manager",
	"claim",
	"claimed",
	"cash",
	"prize",
	"spende",
	"erbschaft",
	"begünstigte",
	"entschädigung",
	"geldautomatenkarte",
	"millionen",
	"überweisung",
	"bankkonto",
	"gewinner",
	"händler",
	"lieferprogramm",
	"financiering",
	"herencia",
	"héritage",
	"银行",
	"资金",
	"帐户",
	"遗产",
	"寡妇",
	"投资",
};

/* the scammer's call */
static const char *const appeal_words[] = {
	"reply strictly",
	"get back to me",
	"contact me",
	"reach me",
	"reach out to us",
	"whatsapp",
	"telegram",
	"your full name",
	"phone number",
	"home address",
	"is this email still active",
	"did you receive my",
	"did you get my",
	"my previous email",
	"my last email",
	"trying to reach you",
	"click here",
	"click the button",
	"click below",
	"redeem now",
	"claim now",
	"act now",
	"unsubscribe",
	"kindly",
	"urgent",
	"dear sir",
	"dear friend",
	"dear beneficiary",
	"i need your help",
	"sehr geehrte",
	"antworten sie",
	"请回复",
};

/* money - an amount in t (lower case): a currency sign or code by a
 * number, or a number by a unit of money ("2 million", "450万美元",
 * "1,456 points"); where it starts, or NULL */
static const char *money(const char *t)
{
	static const char *const units[] = {
		"million", "millions",	"billion", "dollars", "usd",
		"eur",	   "euro",	"euros",   "pounds",  "gbp",
		"points",  "millionen", "万美元",  "美元",    "欧元",
	};
	static const char *const signs[] = { "$", "\xe2\x82\xac", "\xc2\xa3",
					     "usd", "eur" };
	const char *p, *q;
	size_t i, n;

	for (p = t; *p; p++) {
		if (p > t && isalnum((unsigned char)p[-1]))
			continue;
		for (i = 0; i < ARRAY_SIZE(signs); i++) {
			n = strlen(signs[i]);
			q = p + n;
			if (!strncmp(p, signs[i], n) && (*q == ' ' ? q++ : q) &&
			    isdigit((unsigned char)*q))
				return p;
		}
		if (!isdigit((unsigned char)*p))
			continue;
		for (q = p;
		     isdigit((unsigned char)*q) || *q == ',' || *q == '.'; q++)
			;
		if (*q == ' ')
			q++;
		for (i = 0; i < ARRAY_SIZE(units); i++) {
			n = strlen(units[i]);
			if (!strncmp(q, units[i], n) && phrase_at(t, q, n))
				return p;
		}
	}
	return NULL;
}

/* link - the chunk around [s, e) in t is a link, an address or a
 * query ("fromId=..."): its camel case is code, not disguise */
static bool link(const char *t, const char *s, const char *e)
{
	while (s > t && !isspace((unsigned char)s[-1]))
		s--;
	for (; *e && !isspace((unsigned char)*e); e++)
		;
	for (; s < e; s++)
		if (*s == '/' || *s == '=' || *s == '@' || *s == '&')
			return true;
	return false;
}

/* disguised - a word spelled to slip past a filter in t (as written):
 * a capital I amid lower case ("WaImart", "SampIer"), O for zero in a
 * number ("1OO.OO", "5OO"), zero for O opening a word ("0maha") */
static const char *disguised(const char *t)
{
	const char *p, *s;

	for (p = t; *p;) {
		size_t upper = 0, lower = 0, digit = 0, oh = 0, iamid = 0;

		while (*p && !isalnum((unsigned char)*p))
			p++;
		for (s = p;
		     isalnum((unsigned char)*p) || *p == '.' || *p == ',';
		     p++) {
			upper += isupper((unsigned char)*p) != 0;
			lower += islower((unsigned char)*p) != 0;
			digit += isdigit((unsigned char)*p) != 0;
			oh += *p == 'O';
			iamid += *p == 'I' && p > s &&
				 islower((unsigned char)p[-1]) &&
				 islower((unsigned char)p[1]);
		}
		if (link(t, s, p))
			continue;
		if (iamid &&
		    upper == iamid + (isupper((unsigned char)*s) != 0) &&
		    lower >= 3)
			return s;
		if (digit && oh && upper == oh && !lower)
			return s;
		if (*s == '0' && p - s >= 4 && lower == (size_t)(p - s) - 1)
			return s;
	}
	return NULL;
}

/* sender - a From: display name that claims a title or a business
 * (or is all capitals) that its address's domain does not carry */
static bool sender(const struct report *r, char *name, size_t size)
{
	static const char *const claims[] = {
		"mr",	     "mrs",	 "ms",	       "miss",	  "dr",
		"barrister", "sheikh",	 "sheikha",    "prince",  "princess",
		"rev",	     "pastor",	 "engr",       "hon",	  "bank",
		"manager",   "support",	 "team",       "service", "services",
		"rewards",   "account",	 "group",      "inc",	  "ltd",
		"llc",	     "capital",	 "trading",    "crypto",  "customer",
		"member",    "official", "hello",      "welcome", "from",
		"co",	     "partners", "foundation",
	};
	const char *from = r->from ? r->from : "", *lt = strchr(from, '<');
	const char *dom = r->from_addr ? strchr(r->from_addr, '@') : NULL;
	char disp[96], w[32];
	size_t n, i, k;
	bool claim = false, lower = false, related = false;
	unsigned nwords = 0;

	if (!lt || !dom)
		return false;
	n = (size_t)(lt - from) < sizeof(disp) - 1 ? (size_t)(lt - from)
						   : sizeof(disp) - 1;
	memcpy(disp, from, n);
	disp[n] = '\0';
	for (i = 0; i < n;) {
		while (i < n && !isalpha((unsigned char)disp[i]))
			i++;
		for (k = 0; i < n && isalpha((unsigned char)disp[i]); i++) {
			lower |= islower((unsigned char)disp[i]) != 0;
			if (k + 1 < sizeof(w))
				w[k++] = (char)tolower((unsigned char)disp[i]);
		}
		if (!k)
			continue;
		w[k] = '\0';
		nwords++;
		for (k = 0; k < ARRAY_SIZE(claims); k++)
			if (!strcmp(w, claims[k]))
				break;
		if (k < ARRAY_SIZE(claims))
			claim = true;
		else if (strlen(w) >= 4 && strstr(dom, w))
			related = true;
	}
	if (!(claim || (nwords >= 2 && !lower)) || related)
		return false;
	for (i = 0; disp[i] == '"' || isspace((unsigned char)disp[i]); i++)
		;
	for (n = strlen(disp); n > i && (disp[n - 1] == '"' ||
					 isspace((unsigned char)disp[n - 1]));
	     n--)
		disp[n - 1] = '\0';
	snprintf(name, size, "\"%.30s\" at %.30s", disp + i, dom + 1);
	return true;
}

/* capitals - a subject (tags and "Re:" left out) in capital letters */
static bool capitals(const char *subject)
{
	const char *p = kind_subject_rest(subject);
	size_t upper = 0;

	for (; *p; p++) {
		if (islower((unsigned char)*p))
			return false;
		upper += isupper((unsigned char)*p) != 0;
	}
	return upper >= 8;
}

/* excerpt - the word at p and the one after it (24 bytes at most) */
static void excerpt(const char *p, char *out, size_t size)
{
	size_t n = 0;

	unsigned spaces = 0;

	while (p[n] && p[n] != '\n' && n < 24 &&
	       !(p[n] == ' ' && ++spaces == 2))
		n++;
	while (n &&
	       (isspace((unsigned char)p[n - 1]) || strchr(",.;:!)", p[n - 1])))
		n--;
	snprintf(out, size, "%.*s", (int)n, p);
}

/*
 * hiding - the first inline HTML part whose HTML hid text from its
 * reader (PART_HIDDEN: a decoy paragraph for the filters), or NULL.
 * Its rendering is what the reader sees; its text/plain alternative
 * carries the decoy too, and is not read.
 */
static const struct report_part *hiding(const struct report *r)
{
	size_t i;

	for (i = 0; i < r->nparts; i++)
		if ((r->parts[i].flags & PART_HIDDEN) && r->parts[i].text &&
		    !(r->parts[i].flags & PART_ATTACHMENT))
			return &r->parts[i];
	return NULL;
}

/* said - the text the reader sees (the body, or what a hiding part
 * shows), or the subject, says that something went wrong */
static bool said(const struct report *r, const char *subject,
		 const struct report_part *hid)
{
	const char *rest = kind_subject_rest(subject);
	const char *t = hid ? hid->text : r->body;
	size_t len = hid ? hid->len : r->body ? r->body_len : 0;

	if (len > SPAM_PART_MAX)
		len = SPAM_PART_MAX;
	return problem_in_phrase(rest, strlen(rest), NULL, 0) ||
	       (len && problem_in_text(t, kind_list_footer(t, len), NULL, 0));
}

bool kind_spam_signals(const struct report *r, const char *subject, char *why,
		       size_t size)
{
	char *text, *low, what[64], name[96];
	const char *first[2] = { NULL, NULL }, *call[2] = { NULL, NULL };
	const struct report_part *hid = hiding(r);
	const char *cash, *odd;
	size_t len = 0, i;
	unsigned marks = 0, core, words, appeals;
	bool from, caps, told, spam = false;

	if (!subject)
		subject = "";
	text = xmalloc(SPAM_TEXT_MAX);
	text[0] = '\0';
	add(text, &len, kind_subject_rest(subject),
	    strlen(kind_subject_rest(subject)));
	if (!hid)
		add(text, &len, r->body, r->body ? r->body_len : 0);
	for (i = 0; i < r->nparts; i++) {
		const struct report_part *pt = &r->parts[i];

		if ((pt->flags & PART_TEXT) && pt->text &&
		    pt->text != r->body && !(pt->flags & PART_ATTACHMENT) &&
		    (!hid || (pt->flags & PART_HTML)))
			add(text, &len, pt->text, pt->len);
	}
	low = xmalloc(len + 1);
	for (i = 0; i <= len; i++)
		low[i] = (char)tolower((unsigned char)text[i]);
	if (kind_names_kernel(text, len, KIND_NAMES_SURE))
		goto out;
	told = said(r, subject, hid);
	cash = money(low);
	words = phrases(low, scam_words, ARRAY_SIZE(scam_words), first);
	odd = disguised(text);
	from = sender(r, name, sizeof(name));
	appeals = phrases(low, appeal_words, ARRAY_SIZE(appeal_words), call);
	caps = capitals(subject);
	/* hidden text is a disguise too: words for the filters alone */
	core = !!cash + (words >= 2) + (odd || hid);
	marks = core + from + !!appeals + caps;
	/* two marks of what junk is about (money, a scam's words, a
	 * disguise), or one of them and two of how it is sent (a sender
	 * that claims a title or business, an appeal, capitals): a price
	 * from an events team is not junk.  A text that says something
	 * went wrong takes three marks, one a scam's words or a disguise:
	 * a newcomer's plea ("urgent, I paid $300") is not junk. */
	if ((core < 2 && !(core == 1 && marks >= 3)) ||
	    (told && (marks < 3 || !(words >= 2 || odd || hid))))
		goto out;
	spam = true;
	snprintf(why, size, "%u marks, no kernel word:", marks);
#define MARK(...) snprintf(why + strlen(why), size - strlen(why), __VA_ARGS__)
	if (cash) {
		excerpt(text + (cash - low), what, sizeof(what));
		MARK(" money \"%s\";", what);
	}
	if (words >= 2)
		MARK(" words \"%s\", \"%s\";", first[0], first[1]);
	if (odd) {
		excerpt(odd, what, sizeof(what));
		what[strcspn(what, " ")] = '\0';
		MARK(" disguised \"%s\";", what);
	} else if (hid) {
		MARK("%s", " text hidden in its HTML;");
	}
	if (from)
		MARK(" sender %s;", name);
	if (caps)
		MARK("%s", " subject in capitals;");
	if (appeals)
		MARK(" appeal \"%s\";", call[0]);
#undef MARK
	if (strlen(why) && why[strlen(why) - 1] == ';')
		why[strlen(why) - 1] = '\0';
out:
	free(low);
	free(text);
	return spam;
}
