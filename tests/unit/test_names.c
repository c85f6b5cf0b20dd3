// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_names - the words of a subject and of a prose line that may name
 * a driver or a module: marked words, words called a driver, a subject's
 * prefix chain, words in capitals, configurators' make targets; what is
 * no candidate, and every word read within its buffer
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "strbuf.h"
#include "util.h"

/* the candidates joined by ",", in the order passed */
struct got {
	char buf[1024];
	size_t n;
};

static void append(struct got *g, const char *name, size_t len)
{
	assert_true(g->n + len + 2 < sizeof(g->buf));
	if (g->n)
		g->buf[g->n++] = ',';
	memcpy(g->buf + g->n, name, len);
	g->n += len;
	g->buf[g->n] = '\0';
}

static void collect(void *ctx, const char *name, size_t len)
{
	assert_true(len > 0 && len <= NAMES_WORD_MAX);
	append(ctx, name, len);
}

/* the line is copied to a buffer of its own length (no NUL): a read past
 * its end is the sanitizer's to catch */
static const char *line(struct got *g, const char *s)
{
	size_t len = strlen(s);
	char *copy = xmalloc(len ? len : 1);

	memcpy(copy, s, len);
	g->n = 0;
	g->buf[0] = '\0';
	names_in_line(copy, len, collect, g);
	free(copy);
	return g->buf;
}

typedef void subject_fn(const char *subject, names_add_fn *add, void *ctx);

/* in_subject - what fn passes to add for subject s, joined */
static const char *in_subject(struct got *g, subject_fn *fn, names_add_fn *add,
			      const char *s)
{
	g->n = 0;
	g->buf[0] = '\0';
	fn(s, add, g);
	return g->buf;
}

static const char *subject(struct got *g, const char *s)
{
	return in_subject(g, names_in_subject, collect, s);
}

/*
 * Prose: words with a digit, "_" or "-", words called a driver or a
 * module; not paths, file names, function calls, English words, a
 * function's error prefix, stack frames or the module list
 */
static void test_prose(void **state)
{
	struct got g;

	(void)state;
	assert_string_equal(
		line(&g,
		     "Since 6.14-rc1 the touchpad behind hid-mcp2221 stops"),
		"hid-mcp2221");
	assert_string_equal(line(&g, "ucsi_acpi reports nothing.  See "
				     "drivers/usb/typec/ucsi/ucsi.c"),
			    "ucsi_acpi");
	assert_string_equal(
		line(&g, "and amd_sfh_hid.ko; calling foo_bar() helps; x86_64"),
		"x86_64");
	assert_string_equal(line(&g, "EXT4-fs error (device sda1): "
				     "ext4_find_extent:936: inode #2"),
			    "sda1");
	assert_string_equal(line(&g, "the hidraw driver, module btusb and "
				     "nouveau drivers; the"),
			    "hidraw,btusb,nouveau");
	assert_string_equal(line(&g, "driver is old, some module is new"), "");
	assert_string_equal(line(&g, "Modules linked in: snd_hda_intel btusb"),
			    "");
	assert_string_equal(line(&g, " ? some_func+0x12/0x30 [rtw89_core]"),
			    "");
	assert_string_equal(line(&g, "mail me at rtw89_dev@example.org or "
				     "see https://x.org/rtw89-b"),
			    "");
	assert_string_equal(line(&g, ""), "");
}

/*
 * The module list a console wrapped over several lines (after "Modules
 * linked in:", each line with its own prefix) names every module
 * loaded: a line of nothing but module names is none; a sentence with
 * a few names is prose
 */
static void test_module_list_lines(void **state)
{
	struct got g;

	(void)state;
	assert_string_equal(line(&g, "kern.warn: [581015.892392]  "
				     "blake2b_generic libcrc32c crc32c_generic "
				     "crc32c_intel xor raid6_pq"),
			    "");
	assert_string_equal(line(&g, "[  12.345678]  drm_kms_helper drm "
				     "i2c_core drm_panel_orientation_quirks "
				     "fb loop btrfs"),
			    "");
	assert_string_equal(line(&g, " snd_hda_intel(E) btusb(E) "
				     "rtw89_pci(OE) cfg80211"),
			    "");
	assert_string_equal(line(&g, "I have tried the rtw89_pci and "
				     "rtw89_core modules"),
			    "rtw89_pci,rtw89_core");
	assert_string_equal(line(&g, "btusb_mtk btusb_rtl fail"),
			    "btusb_mtk,btusb_rtl");
}

/*
 * A module's parameter as the kernel's command line spells it names the
 * module ("psmouse.synaptics_intertouch", "usbcore.autosuspend=-1"); a
 * file name or a host does not
 */
static void test_module_parameters(void **state)
{
	struct got g;

	(void)state;
	assert_string_equal(line(&g, "it works with psmouse.synaptics_"
				     "intertouch=1 and usbcore.autosuspend=-1"),
			    "psmouse,usbcore");
	assert_string_equal(line(&g, "see dmesg.txt, btusb.ko, x.org, "
				     "kernel.org and config.gz"),
			    "");
	assert_string_equal(line(&g, "psmouse.proto"), "");
	assert_string_equal(subject(&g, "Touchpad needs "
					"psmouse.synaptics_intertouch"),
			    "psmouse");
}

/*
 * Words in capitals: in prose only when called a driver ("XHCI" in a
 * sentence is the subsystem's acronym), lower case, a generation
 * dropped; not tags or English words in capitals
 */
static void test_capitals(void **state)
{
	struct got g;

	(void)state;
	assert_string_equal(line(&g, "The XHCI host is fine but the UAS "
				     "driver, which resets, see"),
			    "uas");
	assert_string_equal(line(&g, "CVE-2024-1234 and the NULL driver"), "");
	/* a proper noun called a driver is a candidate too (the symbol
	 * index keeps those that name a module: test_proper_nouns()) */
	assert_string_equal(line(&g, "the Thunderbolt-5 driver, the Wifi "
				     "driver, the Unreliable driver"),
			    "thunderbolt,wifi,unreliable");
	assert_string_equal(line(&g, "the BUG module, the URGENT driver"), "");
	/* a word longer than a name: none, and nothing read past it */
	assert_string_equal(
		line(&g, "the ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFG driver"), "");
	assert_string_equal(
		line(&g, "the ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEF driver"),
		"abcdefghijklmnopqrstuvwxyzabcdef");
	assert_string_equal(line(&g, "the UAS"), "");
	assert_string_equal(line(&g, "UAS driver"), "uas");
}

/*
 * A proper noun called a driver ("the Nouveau driver", "Nouveau driver
 * warns"): in lower case, in prose and in a subject; a capitalised
 * English word not called a driver, or a determiner before "driver"
 * ("The driver", "This module"), is none
 */
static void test_proper_nouns(void **state)
{
	struct got g;

	(void)state;
	assert_string_equal(line(&g, "With the Nouveau driver the screen "
				     "stays black."),
			    "nouveau");
	/* "warns" after "driver" is a candidate as "module btusb" is */
	assert_string_equal(subject(&g, "Nouveau driver warns on most "
					"xfstests in 6.19-rc2"),
			    "nouveau,warns");
	assert_string_equal(subject(&g, "Blender: text invisible, "
					"Zorpfs module loaded"),
			    "zorpfs");
	/* the word before the noun only: "driver Warns" names nothing */
	assert_string_equal(line(&g, "see the driver Warns about it"), "");
	assert_string_equal(line(&g, "The driver.  This module, "
				     "Nothing works."),
			    "");
	assert_string_equal(subject(&g, "Screen stays black after resume"), "");
	/* a name in a path or a file name is read as such */
	assert_string_equal(line(&g, "see Foo/Bar driver and Baz.c driver"),
			    "");
}

/*
 * A configurator's make target ("menuconfig", "xconfig"): in prose after
 * "make" and the variables set on its command line, in a subject
 * anywhere
 */
static void test_configurators(void **state)
{
	struct got g;

	(void)state;
	assert_string_equal(line(&g, "Run make O=out xconfig or `make "
				     "nconfig`;"),
			    "xconfig,nconfig");
	assert_string_equal(line(&g, "make ARCH=arm CROSS_COMPILE=x- "
				     "menuconfig"),
			    "menuconfig");
	assert_string_equal(line(&g, "gconfig alone is not named"), "");
	assert_string_equal(line(&g, "make -j8 xconfig: a flag is no variable"),
			    "");
	assert_string_equal(line(&g, "xconfig"), "");
	assert_string_equal(line(&g, "make config"), "");
	assert_string_equal(subject(&g, "crash in menuconfig search"),
			    "menuconfig");
	assert_string_equal(subject(&g, "my config is lost"), "");
}

/*
 * A subject: marked words, the leading chain of "word: " prefixes (and a
 * quoted commit title's), words in capitals when marked or called a
 * driver; not a plain acronym, not a compiler's "error:"
 */
static void test_subjects(void **state)
{
	struct got g;

	(void)state;
	/* the leading "word: " prefixes are names; "new:" later is not;
	 * "Wifi-6" is "wifi" again (passed each time: the caller keeps it
	 * once) */
	assert_string_equal(
		subject(&g,
			"[BUG] wifi: iwlegacy: rtw89 fails, Wifi-6 and new: gone"),
		"wifi,iwlegacy,rtw89,wifi");
	assert_string_equal(subject(&g, "[BUG] HID: the UAS driver on A-DATA, "
					"USB4 and Thunderbolt-5, NOT in "
					"menuconfig; RTC fails"),
			    "uas,a-data,usb4,thunderbolt,menuconfig");
	assert_string_equal(subject(&g, "HID: amd_sfh: no sensors"), "amd_sfh");
	assert_string_equal(subject(&g, "USB stops after resume"), "");
	assert_string_equal(
		subject(&g, "[netfilter-nf:testing 7/9] "
			    "include/net/ip6_fib.h:663:33: error: invalid "
			    "storage class for function 'fib6_rules_init'"),
		"netfilter-nf,fib6_rules_init"); /* marked; "error" not */
	assert_string_equal(subject(&g, "[Bug report]: \"i2c: muxes: pca954x: "
					"Use reset controller only\" makes "
					"I2C break"),
			    "i2c,muxes,pca954x");
	/* a Kconfig symbol or a macro in capitals names no module */
	assert_string_equal(subject(&g,
				    "[tip:master 3/4] WARNING: unmet direct "
				    "dependencies detected for ACME_HUB2 "
				    "when selected by X86_ACME; O_TRUNC"),
			    "");
	assert_string_equal(subject(&g, NULL), "");
	assert_string_equal(subject(&g, ""), "");
}

static void collect_pair(void *ctx, const char *name, size_t len)
{
	assert_true(len > 0 && len <= NAMES_PAIR_MAX);
	assert_non_null(memchr(name, ' ', len));
	append(ctx, name, len);
}

static const char *pairs(struct got *g, const char *s)
{
	return in_subject(g, names_pairs_in_subject, collect_pair, s);
}

/*
 * A subject's pairs: a chip's name and its subsystem's word next to
 * each other, in lower case; two links of the leading chain; not two
 * plain words outside the chain, English, a report's words, paths,
 * file names, words apart by a comma, nor words past the chain
 */
static void test_subject_pairs(void **state)
{
	struct got g;

	(void)state;
	assert_string_equal(pairs(&g, "bcm2835 SPI issue"), "bcm2835 spi");
	assert_string_equal(pairs(&g, "[BUG] Question: mvebu GPIO can_sleep"),
			    "mvebu gpio,gpio can_sleep");
	assert_string_equal(pairs(&g, "[QUESTION] rtc: zynqmp: CALIB_RD "
				      "reset differs"),
			    "rtc zynqmp,zynqmp calib_rd,calib_rd reset");
	/* plain words, English and a report's words pair with nothing */
	assert_string_equal(pairs(&g, "suspend fails with the mt7612 card"),
			    "mt7612 card");
	assert_string_equal(pairs(&g, "BUG mt7612 ISSUE"), "");
	assert_string_equal(pairs(&g, "resume hangs since yesterday"), "");
	/* past the chain, ": " ends a pair */
	assert_string_equal(pairs(&g, "laptop hangs: foo bar"), "");
	/* a path, a file name, a comma: no pair */
	assert_string_equal(pairs(&g, "SPI drivers/spi/spi-bcm2835.c, "
				      "bcm2835.c SPI, bcm2835, SPI"),
			    "");
	assert_string_equal(pairs(&g, NULL), "");
	assert_string_equal(pairs(&g, ""), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prose),
		cmocka_unit_test(test_module_list_lines),
		cmocka_unit_test(test_module_parameters),
		cmocka_unit_test(test_capitals),
		cmocka_unit_test(test_proper_nouns),
		cmocka_unit_test(test_configurators),
		cmocka_unit_test(test_subjects),
		cmocka_unit_test(test_subject_pairs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
