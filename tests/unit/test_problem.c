// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_problem - does a message say that something went wrong
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "problem.h"

static bool phrase(const char *s, char *what, size_t size)
{
	return problem_in_phrase(s, strlen(s), what, size);
}

static bool text(const char *s, char *what, size_t size)
{
	return problem_in_text(s, strlen(s), what, size);
}

static void test_subject(void **state)
{
	char what[32];

	(void)state;
	assert_true(phrase("iw scan hangs in a netlink ENOBUFS loop", what,
			   sizeof(what)));
	assert_string_equal(what, "hangs");
	assert_true(phrase("btrfs send: output file Corrupted after resume",
			   what, sizeof(what)));
	assert_string_equal(what, "corrupted");
	assert_true(phrase("Cancel of \"btrfs dev delete\" not working", what,
			   sizeof(what)));
	assert_string_equal(what, "not working");
	assert_true(phrase("touchpad doesn\xe2\x80\x99t work after resume",
			   what, sizeof(what)));
	assert_string_equal(what, "doesn't work");
	assert_true(phrase("wifi regression", NULL, 0));
	assert_true(phrase("LVM2 test breakage", what, sizeof(what)));
	assert_string_equal(what, "breakage");
	assert_true(phrase("Partition lost", NULL, 0));
	/* "issue" and "problem" are how most reporters name theirs: on
	 * the tuning labels 38 new reports and 6 discussions carry one in
	 * their subject */
	assert_true(
		phrase("m_can: bus-off recovery issue", what, sizeof(what)));
	assert_string_equal(what, "issue");
	assert_true(phrase("menuconfig problem with a 'comment' entry", what,
			   sizeof(what)));
	assert_string_equal(what, "problem");
	assert_true(phrase("boot partition not visible anymore", NULL, 0));
	assert_true(phrase("fan speed reported wrong after resume", NULL, 0));
	/* ... as whole words: "issuer", "problematic" are none */
	assert_false(phrase("the certificate issuer field", NULL, 0));
	/* a question, a plan, an announcement */
	assert_false(phrase("Btrfs encryption support progress?", what,
			    sizeof(what)));
	assert_false(
		phrase("BlueZ Face-to-Face Meetup - Nice, May 30-31", NULL, 0));
	assert_false(phrase("backup best practise?", NULL, 0));
	/* a word only contains a problem word: "debugfs", "errorless" */
	assert_false(phrase("debugfs entries for the hub", NULL, 0));
	assert_false(phrase("a failsafe mode", NULL, 0));
	assert_false(phrase("", NULL, 0));
}

static void test_text(void **state)
{
	char what[32];

	(void)state;
	/* a first-person sentence that says what went wrong */
	assert_true(text("Hello,\n\nsince the update to 6.19 my NAS no\n"
			 "longer mounts the second volume.\n",
			 what, sizeof(what)));
	assert_string_equal(what, "no longer");
	assert_true(
		text("We see I/O errors on every boot.\n", what, sizeof(what)));
	assert_string_equal(what, "errors");
	/* a kernel message the writer pasted */
	assert_true(text("Seen on boot:\nEXT4-fs error (device sda1): "
			 "ext4_lookup:1855: inode #2\n",
			 what, sizeof(what)));
	assert_string_equal(what, "error");
	assert_true(text("[   12.345678] usb 1-2: device descriptor read/64, "
			 "error -71\n",
			 what, sizeof(what)));
	assert_true(text("hci0: command 0x0c03 tx timeout: resetting\n", what,
			 sizeof(what)));
	assert_string_equal(what, "timeout");
	/* a sentence that names the culprit commit (issue 20), as a
	 * full or an abbreviated hash */
	assert_true(text("Hi\n\nThe commit e879a0d9cb086c8e52ce6c04e5bfa63825a"
			 "6213c breaks the test\nshell/lvcreate-large-raid.sh "
			 "in the lvm2 testsuite.\n",
			 what, sizeof(what)));
	assert_string_equal(what, "breaks");
	assert_true(text("Since commit 4064b9827063 the counters are wrong.\n",
			 NULL, 0));
	/* ... not a commit's message, nor a number that is not one */
	assert_false(text("The commit message breaks the 75-column limit.\n",
			  NULL, 0));
	assert_false(
		text("Commit 1234567 of the plan fails nobody.\n", NULL, 0));
	assert_false(
		text("The value deadbeef01 breaks the parser.\n", NULL, 0));
	/* the commit and the problem in different sentences */
	assert_false(text("See commit e879a0d9cb08. The docs are wrong.\n",
			  NULL, 0));
	/* a dmesg line does not lend its kernel to the next sentence */
	assert_false(text("[    1.000000] usb 1-2: new device\n"
			  "The documentation is missing\n",
			  NULL, 0));
	/* a problem word, but nobody says it happens to them */
	assert_false(text("The function fails when the list is empty.\n"
			  "Do we want to keep it?\n",
			  NULL, 0));
	/* first person, no problem */
	assert_false(text("I wonder which capabilities HCI needs. Any idea?\n",
			  NULL, 0));
	/* the two in different sentences */
	assert_false(
		text("I run 6.19. The documentation is missing.\n", NULL, 0));
	/* the two in different paragraphs */
	assert_false(text("I have a question\n\nThe manual page is wrong\n",
			  NULL, 0));
	/* quoted text and the signature are not the writer's */
	assert_false(
		text("> I get a crash on boot\n\nThanks, applied.\n", NULL, 0));
	assert_false(text("Regards\n-- \nI fix broken laptops for a living\n",
			  NULL, 0));
	assert_false(text("Thanks\n--\nMy company: broken things repaired\n",
			  NULL, 0));
	/* nor what follows Outlook's "-----Original Message-----" line */
	assert_false(text("Thanks.\n-----Original Message-----\n"
			  "I get a crash on boot\n",
			  NULL, 0));
}

static bool failure(const char *s, char *what, size_t size)
{
	return problem_failure_in_phrase(s, strlen(s), what, size);
}

static void test_failure(void **state)
{
	char what[32];

	(void)state;
	/* a subject that says something failed */
	assert_true(failure("Out of tree module build fails without the "
			    "python helpers",
			    what, sizeof(what)));
	assert_string_equal(what, "fails");
	assert_true(failure("ubi0 error: ubi_wl_get_peb: no free PEBs", what,
			    sizeof(what)));
	assert_string_equal(what, "error");
	assert_true(failure("Resume of \"btrfs balance\" not working", what,
			    sizeof(what)));
	assert_string_equal(what, "not working");
	assert_true(
		failure("scrub marked inconsistent after a crash", NULL, 0));
	assert_true(failure("LVM2 test breakage", NULL, 0));
	/* a regression's time: a version, a commit, an upgrade */
	assert_true(failure("Since 6.18.x make deb-pkg does not strip modules",
			    what, sizeof(what)));
	assert_string_equal(what, "since");
	assert_true(failure("module signing gone after commit 0a1b2c3d4e5f",
			    what, sizeof(what)));
	assert_string_equal(what, "after");
	assert_true(failure("headset mic silent after 6a7b8c9d0e1f", NULL, 0));
	assert_true(failure("touchpad dead after upgrading to Linux-6.19", NULL,
			    0));
	assert_true(failure("no audio since v6.12", NULL, 0));
	/* a topic word names a topic as often as a failure */
	assert_true(
		phrase("Issues in the man pages of the raid tools", NULL, 0));
	assert_false(
		failure("Issues in the man pages of the raid tools", NULL, 0));
	assert_false(failure("Missing PCI ID for a new board?", NULL, 0));
	assert_false(failure("RAID 5 on modern drives, slow speeds", NULL, 0));
	assert_false(failure("xconfig problem with a comment entry", NULL, 0));
	assert_false(failure("ata timeout exceptions", NULL, 0));
	/* "since" and "after" without a version, a commit or an upgrade */
	assert_false(failure("Status since the last meeting", NULL, 0));
	assert_false(failure("Plans after 2026", NULL, 0));
	assert_false(failure("cleanup after abc", NULL, 0));
	assert_false(failure("aftermath since v", NULL, 0));
	assert_false(failure("", NULL, 0));
	assert_false(problem_failure_in_phrase(NULL, 0, NULL, 0));
}

static unsigned log_lines(const char *s)
{
	return problem_log_lines(s, strlen(s));
}

static bool told(const char *s, char *what, size_t size)
{
	return problem_failure_in_text(s, strlen(s), what, size);
}

/* a failure the writer tells of their own system, in a sentence that
 * neither asks nor wishes; a how-to question names none */
static void test_failure_in_text(void **state)
{
	char what[32];

	(void)state;
	assert_true(told("Hi,\n\nI built 6.19-rc3 for my board and the\n"
			 "HDMI output is not working at all.\n",
			 what, sizeof(what)));
	assert_string_equal(what, "not working");
	/* a line break ends the sentence without a '?' */
	assert_true(told("After resume we see the controller crash\n\n"
			 "Any idea?\n",
			 what, sizeof(what)));
	assert_string_equal(what, "crash");
	/* a pasted kernel message is the kernel's telling, not the
	 * writer's (problem_in_text() takes it) */
	assert_false(told("The mount ends with\n"
			  "[   12.345678] XFS (sdb1): log mount failed\n",
			  NULL, 0));
	assert_true(text("The mount ends with\n"
			 "[   12.345678] XFS (sdb1): log mount failed\n",
			 NULL, 0));
	/* a question, a wish, a supposition tell nothing failed */
	assert_false(told("Is it true that my system will crash on an "
			  "uncorrectable error?\n",
			  NULL, 0));
	assert_false(
		told("I want the machine to panic when the watchdog fires.\n",
		     NULL, 0));
	assert_false(told("We wonder whether our disks could fail "
			  "together.\n",
			  NULL, 0));
	/* a reboot the writer did is an action of theirs */
	assert_false(
		told("After a reboot I found this in kern.log:\n\n", NULL, 0));
	assert_true(
		text("After a reboot I found this in kern.log:\n\n", NULL, 0));
	/* a topic word names no failure ("an issue", "a problem") */
	assert_false(told("I have a question about this issue.\n", NULL, 0));
	/* a message cited in quotes is its name, not the writer's telling */
	assert_false(told("When I boot I see \"Correctable Errors collector "
			  "initialized\" in the log.\n",
			  NULL, 0));
	assert_false(told("I see \xe2\x80\x9c"
			  "error counters\xe2\x80\x9d"
			  " in "
			  "sysfs.\n",
			  NULL, 0));
	/* a how-to question with nothing broken */
	assert_false(told("How do I enable the second display on my board? "
			  "I use 6.12.\n",
			  NULL, 0));
	/* quoted lines and the signature are not the writer's */
	assert_false(told("> my laptop crashes\n\nThanks.\n-- \n"
			  "I fix what fails.\n",
			  NULL, 0));
	/* problem_in_text() still reads the whole text, questions too */
	assert_true(text("Is it true that my system will crash?\n", NULL, 0));
}

static void test_log_lines(void **state)
{
	(void)state;
	/* dmesg, the journal, syslog */
	assert_int_equal(
		log_lines("After reboot I found:\n"
			  "[    4.705255] EDAC MC0: Giving out device\n"
			  "  [ 4976.027119] mmc0: Timeout waiting for hardware "
			  "interrupt.\n"
			  "2026-02-05 14:56:44 kernel: critical target error, "
			  "dev sdg\n"
			  "2026-02-05T14:56:44+01:00 fex kernel: sd 3:0:0:0: "
			  "[sdg] tag#88 FAILED\n"
			  "Feb  5 14:56:44 fex kernel: sd 3:0:0:0: [sdg] "
			  "Attached SCSI disk\n"
			  "Any idea?\n"),
		5);
	/* quoted lines and the signature are not the writer's */
	assert_int_equal(log_lines("> [    4.705255] EDAC MC0: Giving out\n"
				   "Thanks\n-- \n"
				   "[    4.705255] EDAC MC0: Giving out\n"),
			 0);
	/* nor is what follows Outlook's "-----Original Message-----" line,
	 * as mail gives it (LF) or with its CR */
	assert_int_equal(log_lines("Any idea?\n-----Original Message-----\n"
				   "[    1.000000] usb 1-1: new device\n"
				   "[    2.000000] usb 1-1: reset\n"
				   "[    3.000000] usb 1-1: gone\n"),
			 0);
	assert_int_equal(log_lines("-----Original Message-----\r\n"
				   "[    1.000000] usb 1-1: new device\n"),
			 0);
	/* prose with a time, a kernel word, a bracket */
	assert_int_equal(log_lines("Feb 5 at 14:56 the kernel: it hung.\n"
				   "2026-02-05 14:56:44 the kernel paniced\n"
				   "[sdg] tag#88\n"),
			 0);
	assert_int_equal(problem_log_lines(NULL, 0), 0);
}

static size_t stamp(const char *s)
{
	return problem_dmesg_stamp(s, strlen(s));
}

static void test_dmesg_stamp(void **state)
{
	(void)state;
	/* dmesg, dmesg -H (the minute, then deltas) and dmesg -T */
	assert_int_equal(stamp("[   12.345678] usb 1-1: reset"), 14);
	assert_int_equal(stamp("[Apr11 19:28] bcache: stale pointer"), 13);
	assert_int_equal(stamp("[Apr 1 19:28] x"), 13);
	assert_int_equal(stamp("[  +0.014297] bcache: stale pointer"), 13);
	assert_int_equal(stamp("[Fri Apr 11 19:28:01 2025] x"), 26);
	assert_int_equal(stamp("[Fri Apr  1 19:28:01 2025] x"), 26);
	/* not stamps */
	assert_int_equal(stamp("[Apr11] x"), 0);
	assert_int_equal(stamp("[Apr11 19:28:01:00] x"), 0);
	assert_int_equal(stamp("[sdg] tag#88"), 0);
	assert_int_equal(stamp("[+] added"), 0);
	assert_int_equal(stamp("[1+2.3]"), 0);
	assert_int_equal(stamp("[Fri Apr 11 19:28:01 25] x"), 0);
	assert_int_equal(stamp("[   12.345678 no close"), 0);
	assert_int_equal(stamp(""), 0);
	/* dmesg -H's lines count as the kernel's log */
	assert_int_equal(log_lines("Have you seen this?\n"
				   "[Apr11 19:28] bcache: stale dirty pointer\n"
				   "[  +0.014297] bcache: stale dirty pointer\n"
				   "[Fri Apr 11 19:28:01 2025] md: resync\n"),
			 3);
}

static void test_bounds(void **state)
{
	char what[4];
	char *big;
	size_t n = PROBLEM_SCAN_MAX + 4096;

	(void)state;
	/* what is cut to its size */
	assert_true(phrase("it crashes", what, sizeof(what)));
	assert_string_equal(what, "cra");
	/* past the scan limit nothing is read */
	big = malloc(n + 1);
	assert_non_null(big);
	memset(big, 'x', n);
	memcpy(big + n - 20, " I see a crash. ", 16);
	big[n] = '\0';
	assert_false(text(big, NULL, 0));
	/* a word longer than any problem word never matches */
	memset(big, 'a', 200);
	memcpy(big + 200, "crash", 6);
	assert_false(phrase(big, NULL, 0));
	free(big);
	/* NULL text */
	assert_false(problem_in_text(NULL, 0, NULL, 0));
	assert_false(problem_in_phrase(NULL, 0, NULL, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_subject),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_failure),
		cmocka_unit_test(test_failure_in_text),
		cmocka_unit_test(test_log_lines),
		cmocka_unit_test(test_dmesg_stamp),
		cmocka_unit_test(test_bounds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
