/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * names - the words of a report that may name a driver or a module
 *
 * DESCRIPTION
 *	Part of the evidence stage.  Many reports name the code they are
 *	about by a word and nothing else: "wifi: rtw89: ...", "hid-mcp2221
 *	stops working", "the ucsi_acpi module", "the UAS driver", "make
 *	xconfig crashes".  This module decides which words of a subject
 *	and of a prose line are candidates; it knows no kernel tree.  The
 *	symbol index keeps the candidates that name a module or a driver's
 *	directory ("module:NAME", symbols_resolve()), so a candidate costs
 *	a lookup and nothing more: the rules here keep English out, not
 *	every wrong word.
 *
 *	A candidate in lower case is a word of letters, digits, "_" and
 *	"-", a letter first, 3 to 32 long, not inside a path, an address
 *	or a file name.  It counts when it is marked as a name (a digit,
 *	"_" or "-" in it: "rtw89", "hid-mcp2221", "ucsi_acpi"; plain
 *	words are English), when it is a module's parameter as the
 *	kernel's command line spells it ("psmouse.synaptics_intertouch",
 *	"usbcore.autosuspend=-1": the module; not a file name or a host),
 *	when the text calls it a
 *	driver or a module ("the hidraw driver", "module btusb"; not "the
 *	driver", "this module"), or when it is a Kconfig configurator's
 *	make target ("menuconfig", "xconfig": a word ending in "config"
 *	after "make" and variables set on its command line).  A
 *	function's error prefix ("ext4_find_extent:936:") is no name: the
 *	evidence stage reads it as a function.
 *
 *	A candidate in capitals ("UAS", "XHCI", "USB4") or a capital and a
 *	generation ("Thunderbolt-5", "Wifi-6") is passed in lower case,
 *	the generation dropped; a report's tags and English words in
 *	capitals ("BUG", "NOT", "URGENT") are not.  In prose it counts only
 *	when called a driver ("the UAS driver": "XHCI" in a sentence is
 *	mostly the subsystem's acronym).
 *
 *	In a subject, a plain word counts also in the leading chain of
 *	"word: " prefixes after the tags ("iwlegacy: ..."; a commit title
 *	quoted in the subject starts a chain of its own), a configurator's
 *	target anywhere ("menuconfig"), and a word in capitals only when
 *	marked ("USB4", "A-DATA") or called a driver, never with a "_"
 *	(a macro or a Kconfig symbol: "O_TRUNC", "INTEL_VSEC" in a test
 *	robot's "unmet direct dependencies detected for INTEL_VSEC when
 *	selected by X86_CPU_RESCTRL", whose culprit is the selecting
 *	commit's): a plain acronym
 *	("USB", "RTC", "HID: amd_sfh: ...") is the subsystem's, which the
 *	subject prefix (evidence_subject_prefix()) and the map stage
 *	read, not a driver's name.  A compiler's "file.c:12:3: error:"
 *	in a test robot's subject starts no chain.
 *
 *	Lines that name every module loaded are skipped by
 *	names_in_line(): stack frames ("+0x"), "Modules linked in:" and
 *	the lines a console wrapped that list on (nothing but module
 *	names, four or more, half of them marked, or six and a third; no
 *	English word; after a console prefix such as "kern.warn: [12.3]");
 *	console output is the caller's to skip (it knows the line's
 *	prefixes).
 *
 *	Candidates are passed to the caller's add() in text order, each
 *	as often as it occurs (the caller keeps them unique); a lower-case
 *	one points into the text, one in capitals into a buffer valid for
 *	the call only.  Nothing is allocated; every buffer is bounded.
 */
#ifndef TRIAGE_NAMES_H
#define TRIAGE_NAMES_H

#include <stddef.h>

/* the longest candidate passed */
#define NAMES_WORD_MAX 32

typedef void names_add_fn(void *ctx, const char *name, size_t len);

/* names_in_line - the candidates of one prose line s[0..len) */
void names_in_line(const char *s, size_t len, names_add_fn *add, void *ctx);

/* names_in_subject - the candidates of a subject (NUL-terminated; NULL
 * is an empty one) */
void names_in_subject(const char *subject, names_add_fn *add, void *ctx);

/*
 * names_pairs_in_subject - two words of a subject next to each other
 * that together may name one module: a chip's, a board's or a
 * driver's name and its subsystem's word ("bcm2835 SPI": spi-bcm2835,
 * "mvebu GPIO": gpio-mvebu) or two links of the leading chain ("rtc:
 * zynqmp: ...": rtc-zynqmp).  Words are letters, digits, "_" and "-", a
 * letter first, 3 to NAMES_WORD_MAX long, not in a path, an address or
 * a file name, after the report's tags; next to each other means one
 * space apart, or ": " apart in the leading chain.  Outside the chain
 * one of the two is marked (a digit, "_" or "-") or in capitals, and
 * neither is English or a report's word ("BUG", "issue", "with").
 * Each pair is passed as "first second" in lower case, in a buffer
 * valid for the call; the symbol index keeps the pairs that, joined by
 * "_" in either order, name a module (symbols_resolve()), and the pair
 * then stands for its two words.
 */
#define NAMES_PAIR_MAX (2 * NAMES_WORD_MAX + 1)
void names_pairs_in_subject(const char *subject, names_add_fn *add, void *ctx);

#endif
