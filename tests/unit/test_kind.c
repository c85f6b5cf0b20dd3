// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_kind - what a message is: the kinds of kernel list mail
 *
 * Every message here is composed for the test, modelled on the shape of
 * real list traffic (subjects, senders, trailers), never copied from it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kind.h"
#include "kind_msg.h"
#include "report.h"
#include "util.h"

/* expect_kind - the kind of a composed message is want (else: why not) */
#define expect_kind(r, want) expect_kind_at(r, want, __LINE__)
static void expect_kind_at(struct report *r, enum msg_kind want, int line)
{
	struct kind_result k;

	kind_classify(r, &k);
	if (k.kind != want)
		print_error("line %d: \"%s\": %s (%s), expected %s\n", line,
			    r->subject, kind_name(k.kind), k.why,
			    kind_name(want));
	assert_int_equal(k.kind, want);
	kind_result_release(&k);
	report_free(r);
}

static const char diff[] =
	"The reset path frees the queue before the last user is gone.\n"
	"\n"
	"Fixes: 0123456789ab (\"net: foo: add reset\")\n"
	"Reported-by: Some User <user@example.org>\n"
	"Closes: https://lore.kernel.org/r/abc123@example.org/\n"
	"Signed-off-by: A Developer <dev@example.com>\n"
	"---\n"
	" drivers/net/foo/foo.c | 2 +-\n"
	" 1 file changed, 1 insertion(+), 1 deletion(-)\n"
	"\n"
	"diff --git a/drivers/net/foo/foo.c b/drivers/net/foo/foo.c\n"
	"--- a/drivers/net/foo/foo.c\n"
	"+++ b/drivers/net/foo/foo.c\n"
	"@@ -10,7 +10,7 @@\n";

static void test_patches(void **state)
{
	(void)state;
	expect_kind(msg("A Developer <dev@example.com>",
			"[PATCH v2 2/3] net: foo: fix reset",
			"cover@example.com", diff),
		    KIND_PATCH);
	expect_kind(msg("A Developer <dev@example.com>",
			"[PATCH net-next v2 0/3] net: foo: resets", NULL,
			"This series fixes...\n"),
		    KIND_COVER);
	expect_kind(msg("A Developer <dev@example.com>",
			"[RFC PATCH 00/12] mm: a new allocator", NULL,
			"Hi all,\n"),
		    KIND_COVER);
	/* a patch without the tag: a diff with a Signed-off-by */
	expect_kind(msg("A Developer <dev@example.com>", "net: foo: fix reset",
			NULL, diff),
		    KIND_PATCH);
	/* and one posted in a report's thread, under its subject */
	expect_kind(msg("A Developer <dev@example.com>",
			"Re: [BUG] foo: oops on reset", "report@example.org",
			diff),
		    KIND_PATCH);
	/* an untagged cover letter: a diffstat, no diff */
	expect_kind(
		msg("A Developer <dev@example.com>", "cleanup the foo library",
		    NULL,
		    "Hi all,\n\nthis series cleans up foo.\n\n"
		    " lib/foo.c | 20 ++++----\n"
		    " 3 files changed, 92 insertions(+), 154 deletions(-)\n"),
		KIND_COVER);
	/* nor a diffstat: its version log says it */
	expect_kind(
		msg("A Developer <dev@example.com>",
		    "stop overriding the scratch devices v3", NULL,
		    "Hi all,\n\nthis series cleans up various tests; the "
		    "old setup breaks with zoned devices.\n\n"
		    "Changes since v2:\n - fix the error table in xfs/438\n"),
		KIND_COVER);
	/* nor a version log: its text presents the series */
	expect_kind(msg("A Developer <dev@example.com>",
			"a few more namespace scanning cleanups", NULL,
			"Hi all,\n\nthis series ties up a few more loose "
			"ends in the namespace scanning code.\n"),
		    KIND_COVER);
	/* ... not a report that blames a series */
	expect_kind(msg("Some User <user@example.org>",
			"namespace scanning hangs since 6.18", NULL,
			"Hi all,\n\nsince this series was merged the scan "
			"never ends.\n"),
		    KIND_REPORT);
	/* a kernel's version is no series' ("Changes since v6.1: ...") */
	expect_kind(msg("Some User <user@example.org>",
			"suspend fails on my laptop", NULL,
			"Changes since v6.1:\nthe laptop no longer resumes, "
			"the screen stays black.\n"),
		    KIND_REPORT);
}

static void test_replies(void **state)
{
	(void)state;
	expect_kind(msg("A Reviewer <rev@example.com>",
			"Re: [PATCH v2 2/3] net: foo: fix reset",
			"p2@example.com",
			"> -\tfree(q);\n\nReviewed-by: A Reviewer\n"),
		    KIND_REVIEW);
	/* a quoted diff is not the sender's own */
	expect_kind(msg("Some User <user@example.org>",
			"Re: [BUG] foo: oops on reset", "report@example.org",
			"> diff --git a/x b/x\n> +++ b/x\n"
			"It still crashes with this applied.\n"),
		    KIND_FOLLOWUP);
	/* a ping in a patch thread, without Re: and without a diff */
	expect_kind(msg("A Developer <dev@example.com>",
			"[PATCH] input: add keycodes", "patch@example.com",
			"Any comments on this patch?\n"),
		    KIND_REVIEW);
	/* a new version posted in reply to the old one is a patch */
	expect_kind(msg("A Developer <dev@example.com>",
			"Re: [PATCH v2] usb: gadget: fix", "v2@example.com",
			diff),
		    KIND_PATCH);
}

static void test_pull_and_stable(void **state)
{
	(void)state;
	expect_kind(msg("Maintainer <m@example.com>",
			"[GIT PULL] USB fixes for 7.1-rc6", NULL,
			"The following changes since commit abc:\n\n"
			"are available in the Git repository at:\n"),
		    KIND_PULL);
	expect_kind(msg("Maintainer <m@example.com>",
			"pull-request: wifi-2026-07-13", NULL, "Hi,\n"),
		    KIND_PULL);
	expect_kind(
		msg("Stable Bot <stable@example.com>",
		    "FAILED: Patch \"ext4: fix a leak\" failed to apply to 6.1-stable tree",
		    NULL, "The patch below does not apply\n"),
		KIND_STABLE);
	expect_kind(msg("A Developer <dev@example.com>",
			"[PATCH 6.6 012/345] ext4: fix a leak", "r@example.com",
			diff),
		    KIND_STABLE);
	expect_kind(msg("A Developer <dev@example.com>",
			"[PATCH v6.12] btrfs: fix a leak", NULL, diff),
		    KIND_STABLE);
	expect_kind(msg("A Developer <dev@example.com>",
			"[linux-6.12.y 1/4] HID: core: fix", NULL, diff),
		    KIND_STABLE);
	expect_kind(msg("A Developer <dev@example.com>",
			"[PATCH AUTOSEL 6.12 03/20] foo: fix", NULL, diff),
		    KIND_STABLE);
	/* a report of a bug in a stable release: no patch, a problem */
	expect_kind(
		msg("Some User <user@example.org>",
		    "[stable 6.6.y] commit 0123456789ab causes a suspend regression",
		    NULL, "Since 6.6.58 my laptop no longer resumes.\n"),
		KIND_REPORT);
	expect_kind(msg("Some User <user@example.org>",
			"[stable 6.6.y] please pick up commit 0123456789ab",
			NULL, "It fixes a leak on 6.6.\n"),
		    KIND_STABLE);
	/* a series version is not a release */
	expect_kind(msg("A Developer <dev@example.com>",
			"[PATCH v2 1/3] foo: fix", NULL, diff),
		    KIND_PATCH);
}

static void test_bots(void **state)
{
	(void)state;
	expect_kind(msg("kernel test robot <lkp@intel.com>",
			"[usb:usb-testing] BUILD SUCCESS 22d91cef94b5", NULL,
			"tree/branch: ...\n"),
		    KIND_BOT);
	expect_kind(
		msg("kernel test robot <lkp@intel.com>",
		    "Re: [PATCH 2/2] foo: bar", "p@example.com",
		    "Hi,\n\nkernel test robot noticed the following build errors:\n"),
		KIND_REVIEW);
	/* the test robot's own report of a regression in a merged tree */
	expect_kind(
		msg("kernel test robot <oliver.sang@intel.com>",
		    "[linus:master] [mm] 0123456789: will-it-scale.per_process_ops -12.3% regression",
		    NULL, "Hello,\n"),
		KIND_REPORT);
	expect_kind(
		msg("syzbot <syzbot+0123abcd@syzkaller.appspotmail.com>",
		    "[syzbot] [ext4?] KASAN: use-after-free Read in ext4_foo",
		    NULL, "Hello,\n\nsyzbot found the following issue\n"),
		KIND_REPORT);
	expect_kind(msg("syzbot <syzbot+list0123@syzkaller.appspotmail.com>",
			"[syzbot] Monthly ext4 report (Mar 2026)", NULL,
			"Hello ext4 maintainers\n"),
		    KIND_BOT);
	expect_kind(msg("syzbot <syzbot+0123abcd@syzkaller.appspotmail.com>",
			"Re: [syzbot] KASAN: foo", "x@google.com",
			"syzbot has tested the proposed patch\n"),
		    KIND_BOT);
	expect_kind(
		msg("syzbot <syzbot+0123abcd@syzkaller.appspotmail.com>",
		    "Re: [syzbot] KASAN: foo", "x@google.com",
		    "syzbot has found a reproducer for the following issue\n"),
		KIND_FOLLOWUP);
	expect_kind(msg("patchwork-bot+netdevbpf@kernel.org",
			"Re: [PATCH net] foo: fix", "p@example.com",
			"This patch was applied\n"),
		    KIND_BOT);
	/* a sender that takes no reply: a build service, an invitation */
	expect_kind(
		msg("noreply@builds.example.org",
		    "[recipe build #40123] of ~team foo-daily in focal: Dependency wait",
		    NULL,
		    "Status: Dependency wait\nArchitecture: amd64\n"
		    "The build failed: libfoo-dev is missing.\n"),
		KIND_BOT);
	expect_kind(msg("Video Meetings <no-reply@meet.example.com>",
			"Reminder: kernel drivers sync starts in 1 hour", NULL,
			"Join the webinar about the usb driver updates.\n"),
		    KIND_BOT);
	expect_kind(msg("Someone <noreply@github.com>",
			"[bluez/bluez] 1b7e68: doc: add a footnote", NULL,
			"Branch: refs/heads/master\n"),
		    KIND_BOT);
}

/*
 * expect_forged_bugzilla - a message From a stranger is a report by its
 * text, with or without X-Bugzilla-Product and X-Bugzilla-Type headers
 * it wrote itself
 */
static void expect_forged_bugzilla(const char *from, const char *subject,
				   const char *body)
{
	struct report *r = msg(from, subject, NULL, body);

	expect_kind(r, KIND_REPORT);
	r = msg(from, subject, NULL, body);
	report_add_header(r, "X-Bugzilla-Product", "Drivers");
	report_add_header(r, "X-Bugzilla-Type", "changed");
	expect_kind(r, KIND_REPORT);
}

static void test_bugzilla(void **state)
{
	struct report *r;

	(void)state;
	r = msg("bugzilla-daemon@kernel.org",
		"[Bug 220818] New: iwlwifi: firmware crash on resume", NULL,
		"https://bugzilla.kernel.org/show_bug.cgi?id=220818\n");
	expect_kind(r, KIND_REPORT);
	r = msg("bugzilla-daemon@kernel.org",
		"[Bug 220818] iwlwifi: firmware crash on resume", NULL,
		"--- Comment #3 from Someone ---\n");
	expect_kind(r, KIND_BZ_UPDATE);
	/* kernel.org's bugspray bridge: comment 0 is the new bug's
	 * description, a later comment an update, a reply a follow-up */
	r = msg("Some User via Bugspray Bot <bugbot@kernel.org>",
		"sdhci: card not detected after resume", NULL,
		"Some User writes via Kernel.org Bugzilla:\n\n"
		"The card reader is gone after resume.\n\n"
		"View: https://bugzilla.kernel.org/show_bug.cgi?id=220841#c0\n");
	report_add_header(r, "X-Bugzilla-Product", "Drivers");
	expect_kind(r, KIND_REPORT);
	r = msg("Other Person via Bugspray Bot <bugbot@kernel.org>",
		"sdhci: card not detected after resume", NULL,
		"Other Person writes via Kernel.org Bugzilla:\n\nSame here.\n\n"
		"View: https://bugzilla.kernel.org/show_bug.cgi?id=220841#c03\n");
	report_add_header(r, "X-Bugzilla-Product", "Drivers");
	expect_kind(r, KIND_BZ_UPDATE);
	r = msg("Some User via Bugspray Bot <bugbot@kernel.org>",
		"sdhci: card not detected after resume", NULL,
		"View: https://bugzilla.kernel.org/show_bug.cgi?id=220841#c0\n");
	report_add_header(r, "X-Bugzilla-Product", "Drivers");
	r->in_reply_to = xstrdup("b220841c0@bugzilla.kernel.org");
	expect_kind(r, KIND_BZ_UPDATE);
	/* a stranger's X-Bugzilla-* header changes nothing of the kind:
	 * the same message without it is decided the same, a report */
	expect_forged_bugzilla(
		"Mallory <bugbot@kernel.org.example>",
		"sdhci: card not detected after resume",
		"View: https://bugzilla.kernel.org/show_bug.cgi?id=220841#c0\n");
	expect_forged_bugzilla(
		"Some User <user@example.org>",
		"rtl8821ce: wifi drops every few minutes",
		"Since 6.12 the connection drops every few minutes and\n"
		"dmesg says the firmware failed to respond.\n");
	/* a bug from Bugzilla itself (webhook, poll) is a report */
	r = msg("Someone <s@example.org>", "Re: anything", "x@y", "");
	r->source = "bugzilla";
	expect_kind(r, KIND_REPORT);
}

/* asks - whether kind_classify() reads a new message as a question */
static bool asks(const char *subject, const char *body)
{
	struct report *r =
		msg("Some User <user@example.org>", subject, NULL, body);
	struct kind_result k;
	bool q;

	kind_classify(r, &k);
	q = k.question;
	kind_result_release(&k);
	report_free(r);
	return q;
}

/* question_of - whether kind_classify() reads the subject as a question */
static bool question_of(const char *subject)
{
	return asks(subject, "My laptop hangs since the upgrade.\n");
}

static void test_questions(void **state)
{
	(void)state;
	/* the sender's own text opens with a question */
	assert_true(asks("NVMe over InfiniBand targets",
			 "Hi,\n\nis there really an NVMe/IB target anyone "
			 "runs in production?\nThe configfs accepts the "
			 "address type.\n"));
	assert_true(asks("a fix only on the stable branch",
			 "Keith,\nThe commit abc only landed in the 1.11 "
			 "branch, was that\nintended?\n"));
	/* ... or says, further on, that it asks */
	assert_true(asks("nvmem: core: use device_register",
			 "I stumbled over commit 0a1b2c3d4e5f in "
			 "driver-core-next.\n\nI have a question, isn't "
			 "dev_dbg() the reason for the split?\n"));
	assert_true(asks("bio size is limited to the readahead size",
			 "Hi all, I wonder why the block layer builds no bio "
			 "larger than the readahead size.\n\nThe target is "
			 "an NVMe-oF SSD.\n"));
	/* not in a quote, nor with a crash */
	assert_false(asks("bio size is limited to the readahead size",
			  "> I wonder why the block layer builds no bio "
			  "larger than that.\nThe target is an NVMe-oF SSD; "
			  "buffered reads are slow.\n"));
	assert_false(asks("hub dies on resume",
			  "BUG: kernel NULL pointer dereference\nCall Trace:"
			  "\n\nI wonder why this happens.\n"));
	/* junk that names nothing of the kernel stays junk */
	assert_false(asks("Partnership offer",
			  "Dear sir,\n\nAre you looking for a reliable "
			  "supplier of office chairs? We ship worldwide.\n"));
	/* ... not when it opens with what happened, or with a crash */
	assert_false(asks("eMMC stops answering",
			  "Hello all,\n\nMy eMMC stops responding after a "
			  "year of uptime. Any ideas?\n"));
	assert_false(
		asks("hub dies on resume",
		     "[   12.345678] BUG: kernel NULL pointer dereference\n"
		     "Call Trace:\n\nWhy does this happen?\n"));
	assert_true(
		question_of("Does io_uring_enter have anti-deadlock magic?"));
	assert_true(question_of("statx fails on a fixed file? "));
	assert_true(question_of("Need help increasing raid scan speed"));
	assert_true(question_of("[Help Needed] MMC stops working"));
	assert_true(question_of("Clarification on SD card power-off"));
	assert_true(question_of("Request for assistance: Error on rerun of "
				"the conversion after an interruption"));
	/* a subject that opens as a question, its "?" cut or never
	 * written */
	assert_true(question_of("Is it true that the watchdog keeps running"));
	assert_true(
		question_of("Do we want to clear drvdata when probe fails"));
	assert_true(question_of("What is the best way to grow a raid1 array"));
	assert_false(question_of("Whatever the port, the dock link drops"));
	assert_false(question_of("xhci_hcd dies on resume from suspend"));
	assert_false(question_of("[BUG] rtw89: is the firmware crashing"));
}

static void test_tool_subjects(void **state)
{
	(void)state;
	/* a userspace tool's question or proposal, by its subject */
	expect_kind(msg("A Developer <dev@example.com>",
			"[nvme-cli] a fix only on the stable branch", NULL,
			"Keith,\nThe commit 0a1b2c3d4e5f only landed in the "
			"1.11 branch. Was that intended?\n"),
		    KIND_DISCUSSION);
	expect_kind(msg("Some User <user@example.org>",
			"mmc-utils: completion of error handling", NULL,
			"Hi,\n\nmany calls ignore the error returned by "
			"ioctl(); I would check each one.\n"),
		    KIND_DISCUSSION);
	expect_kind(
		msg("Some User <user@example.org>",
		    "nvmetcli: unable to run clear", NULL,
		    "# ./nvmetcli clear\nPermissionError: [Errno 1] "
		    "Operation not permitted: '/sys/kernel/config/nvmet'\n"),
		KIND_DISCUSSION);
	/* ... but a kernel crash the tool set off is a report */
	expect_kind(msg("Some User <user@example.org>",
			"nvmetcli: clear oopses the kernel", NULL,
			"BUG: kernel NULL pointer dereference, address: 0\n"
			"Call Trace:\n nvmet_port_release+0x1c/0x40\n"),
		    KIND_REPORT);
	expect_kind(msg("Some User <user@example.org>",
			"nvmet: oops during nvmetcli's tests", NULL,
			"Running make test in nvmetcli, the target oopses "
			"in nvmet_port_release().\n"),
		    KIND_REPORT);
}

static void test_list_business(void **state)
{
	(void)state;
	expect_kind(msg("Some User <user@example.org>", "subscribe linux-raid",
			NULL, "subscribe linux-raid\n"),
		    KIND_DISCUSSION);
	expect_kind(msg("Some User <user@example.org>",
			"linux-wireless+subscribe@vger.kernel.org", NULL,
			"please add me\n"),
		    KIND_DISCUSSION);
	expect_kind(
		msg("A Developer <dev@example.com>",
		    "linux-next: manual merge of the kbuild tree with the origin tree",
		    NULL,
		    "Hi all,\n\nToday's linux-next merge of the kbuild tree "
		    "got a conflict in:\n\n  scripts/Makefile.build\n\n"
		    "diff --cc scripts/Makefile.build\n"
		    "--- a/scripts/Makefile.build\n"
		    "+++ b/scripts/Makefile.build\n"),
		KIND_DISCUSSION);
	expect_kind(msg("A Developer <dev@example.com>",
			"Fixes tags need work in the crypto-current tree", NULL,
			"In commit 0a1b2c3d4e5f the Fixes tag has a wrong "
			"subject.\n"),
		    KIND_DISCUSSION);
	expect_kind(msg("A Developer <dev@example.com>",
			"BlueZ Face-to-Face Meetup - Nice, May 30-31", NULL,
			"We will meet to discuss the next BlueZ release.\n"),
		    KIND_DISCUSSION);
	expect_kind(msg("A Developer <dev@example.com>",
			"PSA: this list has moved to new infrastructure", NULL,
			"No action is required from subscribers.\n"),
		    KIND_DISCUSSION);
	/* ... not a report that names the list's words */
	expect_kind(msg("Some User <user@example.org>",
			"subscribe to uevents hangs the machine", NULL,
			"Since 6.18 udevadm monitor hangs the machine.\n"),
		    KIND_REPORT);
	expect_kind(msg("Some User <user@example.org>",
			"linux-next: build failure after merge of the kbuild "
			"tree",
			NULL,
			"scripts/Makefile.build:12: *** missing separator. "
			"Stop.\n"),
		    KIND_REPORT);
}

/*
 * announcements, proposals and the list's own business said without a
 * bracketed tag: a tag's word opening the subject with its colon ("RFC:",
 * "ANN:"), an invitation, a goodbye, bouncing MAINTAINERS addresses, an
 * idea, an Outlook recall, a bare "subscribe" under an empty subject;
 * never a report that says what went wrong, nor junk that names nothing
 */
static void test_talk_without_tags(void **state)
{
	(void)state;
	expect_kind(msg("A Developer <dev@example.com>",
			"RFC: booting from a fabrics target", NULL,
			"Hi all,\n\nI would like to discuss how the nvme "
			"driver could find its boot namespace.\n"),
		    KIND_DISCUSSION);
	expect_kind(msg("A Developer <dev@example.com>",
			"RFC sysext image context mounts", NULL,
			"I propose a new policy statement for the mounts of "
			"extension images in the kernel.\n"),
		    KIND_DISCUSSION);
	expect_kind(msg("A Maintainer <maint@example.com>",
			"ANN: policy tools 4.7.0", NULL,
			"A new release of the policy tools is available; it "
			"needs kernel 6.1 or later.\n"),
		    KIND_DISCUSSION);
	expect_kind(
		msg("A Maintainer <maint@example.com>",
		    "[ANNOUNCEMENT] Plumbers: Observability microconference",
		    NULL,
		    "The call for proposals for the kernel tracing "
		    "track is open.\n"),
		KIND_DISCUSSION);
	expect_kind(msg("A Developer <dev@example.com>",
			"[Q] call_rcu in module exit", NULL,
			"Is rcu_barrier() needed before the driver module "
			"unloads?\n"),
		    KIND_DISCUSSION);
	expect_kind(msg("A Standards Body <tc@example.org>",
			"Invitation to comment on the virtio 1.5 draft", NULL,
			"The virtio committee invites the kernel driver "
			"developers to review the draft.\n"),
		    KIND_DISCUSSION);
	expect_kind(msg("A Volunteer <vol@example.org>",
			"linux: Goodbye from a community volunteer", NULL,
			"After years of kernel bug triage I am stepping "
			"down.\n"),
		    KIND_DISCUSSION);
	expect_kind(msg("A Robot Keeper <keeper@example.org>",
			"Bouncing maintainers: Some One, Other One", NULL,
			"The MAINTAINERS addresses of the watchdog driver "
			"bounce; should they be removed?\n"),
		    KIND_DISCUSSION);
	expect_kind(msg("A User <user@example.org>",
			"Ideas for a RAIDZ-like layout in the filesystem", NULL,
			"What if the kernel kept a parity block per extent "
			"on the btrfs device?\n"),
		    KIND_DISCUSSION);
	expect_kind(msg("A User <user@example.org>",
			"Recall: eeprom: why is the i2c write limit 128 bytes",
			NULL,
			"The sender would like to recall the message about "
			"the at24 driver.\n"),
		    KIND_DISCUSSION);
	expect_kind(
		msg("A User <user@example.org>", "", NULL, "\nsubscribe\n\n"),
		KIND_DISCUSSION);
	expect_kind(msg("A User <user@example.org>", "", NULL,
			"unsubscribe linux-mmc\n"),
		    KIND_DISCUSSION);
	/* ... but not a report: its problem, its crash, a word only begun */
	expect_kind(msg("A User <user@example.org>",
			"RFC: nvme timeout after resume", NULL,
			"My laptop's nvme driver times out after resume.\n"),
		    KIND_REPORT);
	expect_kind(msg("A User <user@example.org>",
			"RFCOMM connection to my headset drops every minute",
			NULL,
			"Since 6.12 the bluetooth rfcomm link to my headset "
			"drops.\n"),
		    KIND_REPORT);
	expect_kind(msg("A User <user@example.org>",
			"Suggestion: the ext4 mount oopses", NULL,
			"BUG: kernel NULL pointer dereference, address: 0\n"
			"Call Trace:\n ext4_fill_super+0x1c/0x40\n"),
		    KIND_REPORT);
	expect_kind(msg("A User <user@example.org>", "", NULL,
			"subscribe me, my usb disk disconnects all the "
			"time on the xhci controller\n"),
		    KIND_REPORT);
	/* ... nor one whose subject names its failure in words the short
	 * list above lacks ("no longer", "reboots", "hung"): what
	 * problem_in_phrase() reads, as a question tag's subject is read */
	expect_kind(msg("A User <user@example.org>",
			"Inquiry: wifi no longer connects after resume", NULL,
			"Since 6.12 my laptop's iwlwifi card no longer "
			"associates after a suspend.\n"),
		    KIND_REPORT);
	expect_kind(msg("A User <user@example.org>",
			"RFC: laptop reboots when the lid closes", NULL,
			"My ThinkPad reboots instead of suspending on 6.12.3 "
			"with the i915 driver.\n"),
		    KIND_REPORT);
	expect_kind(msg("A User <user@example.org>",
			"Suggestion: nfs mount hung since 6.12", NULL,
			"The nfs client on my server is hung at boot.\n"),
		    KIND_REPORT);
	/* ... and junk that invites, naming nothing of the kernel, is spam */
	expect_kind(msg("Procurement <tenders@example.net>",
			"Invitation to register as an approved vendor", NULL,
			"Dear Sir,\nour company invites you to register "
			"for the tender of next year.\n"),
		    KIND_SPAM);
}

static void test_backport_requests(void **state)
{
	(void)state;
	/* a request that a stable tree take a commit */
	expect_kind(msg("Some User <user@example.org>",
			"btrfs: fix a deadlock waiting for a transaction", NULL,
			"Dear stable maintainers,\n\nPlease apply "
			"0a1b2c3d4e5f60718293 to stable kernels v5.10 - "
			"v6.18.\n\nIt fixes a lock-up we have seen a few "
			"times.\n"),
		    KIND_STABLE);
	expect_kind(msg("A Developer <dev@example.com>",
			"Please backport 0a1b2c3d4e5f (\"foo: zero the shared "
			"page\") to stable",
			NULL,
			"Hi,\n\nit has no Cc: stable tag; it fixes an "
			"information leak.\n"),
		    KIND_STABLE);
	expect_kind(msg("A Developer <dev@example.com>",
			"Apply 0a1b2c3d4e5f to 5.15, 6.1 and 6.6", NULL,
			"Hi stable folks,\n\nit fixes a -Wuninitialized "
			"error with clang-21.\n"),
		    KIND_STABLE);
	/* ... not a regression report that names its culprit */
	expect_kind(msg("Some User <user@example.org>",
			"laptop does not resume since 6.6.58", NULL,
			"Since 6.6.58 my laptop does not resume; reverting "
			"0a1b2c3d4e5f fixes it.\n"),
		    KIND_REPORT);
	expect_kind(msg("Some User <user@example.org>",
			"ext4: hang in the journal on 6.18", NULL,
			"Please apply some thought to this: ext4 hangs in "
			"jbd2 since 6.18, bisected to 0a1b2c3d4e5f.\n"),
		    KIND_REPORT);
}

/* with_patch - r with an attachment named name holding text */
static struct report *with_patch(struct report *r, const char *name,
				 const char *text)
{
	struct report_part *pt = report_add_part(r);

	pt->mime_type = xstrdup("text/x-patch");
	pt->filename = xstrdup(name);
	pt->text = xstrdup(text);
	pt->len = strlen(pt->text);
	pt->flags = PART_TEXT | PART_ATTACHMENT;
	return r;
}

static void test_attached_patches(void **state)
{
	static const char debug_diff[] = "--- a/drivers/net/can/m_can/m_can.c\n"
					 "+++ b/drivers/net/can/m_can/m_can.c\n"
					 "@@ -10,7 +10,7 @@\n";
	char signed_diff[512];

	(void)state;
	snprintf(signed_diff, sizeof(signed_diff), "%s%s",
		 "From: A Vendor <dev@example.com>\n"
		 "Subject: [PATCH] ALSA: hda: enable the mute LED\n\n"
		 "Signed-off-by: A Vendor <dev@example.com>\n---\n",
		 "diff --git a/sound/pci/hda/x.c b/sound/pci/hda/x.c\n"
		 "--- a/sound/pci/hda/x.c\n+++ b/sound/pci/hda/x.c\n");
	/* a patch sent as an attachment, as git makes it */
	expect_kind(with_patch(msg("A Vendor <dev@example.com>",
				   "Enable the mute LED for a new laptop", NULL,
				   "Hi Takashi,\n\nthe attached patch enables "
				   "the mute LED.\n"),
			       "0001-ALSA-hda-enable-the-mute-LED.patch",
			       signed_diff),
		    KIND_PATCH);
	/* ... not a reporter's debug diff, nor a report with its fix */
	expect_kind(with_patch(msg("Some User <user@example.org>",
				   "m_can: bus-off recovery", NULL,
				   "Hi,\n\nthe interface stops sending after a "
				   "long bus-off; the attached diff helps.\n"),
			       "debug.diff", debug_diff),
		    KIND_REPORT);
	expect_kind(
		with_patch(msg("Some User <user@example.org>",
			       "m_can: bus-off recovery issue", NULL,
			       "Hi,\n\nthe interface stops sending after a "
			       "long bus-off; the attached patch fixes it.\n"),
			   "0001-m_can-bus-off-recovery-fix.patch",
			   signed_diff),
		KIND_REPORT);
}

static void test_new_messages(void **state)
{
	struct report *r;

	(void)state;
	expect_kind(msg("Some User <user@example.org>",
			"[BUG] rtw89: 2.4 GHz packet loss since 7.1", NULL,
			"Hi,\n"),
		    KIND_REPORT);
	expect_kind(msg("Some User <user@example.org>",
			"xhci_hcd dies on resume from suspend", NULL,
			"After resume the controller is gone:\n"),
		    KIND_REPORT);
	expect_kind(msg("Some User <user@example.org>",
			"[ANNOUNCE] foo-utils 1.2 released", NULL, "Hi all,\n"),
		    KIND_DISCUSSION);
	expect_kind(msg("A Developer <dev@example.com>",
			"FYI: wireless-next rebased", NULL, "Hi,\n"),
		    KIND_DISCUSSION);
	/* someone passing a report on: a new report, not a reply */
	expect_kind(msg("Deb Maintainer <deb@debian.example>",
			"Fwd: Bug#1099999: bluetooth adapter gone after resume",
			NULL, "Forwarding a report from a Debian user.\n"),
		    KIND_REPORT);
	/* a question with words of a problem is a report */
	expect_kind(msg("Some User <user@example.org>",
			"Request for guidance: enumeration failure on a hub",
			NULL, "Hi,\n"),
		    KIND_REPORT);
	/* a question about a failure is a report; one about a plan is not */
	expect_kind(msg("Some User <user@example.org>",
			"[QUESTION] Order-4 allocation failures on reads", NULL,
			"Hi,\n"),
		    KIND_REPORT);
	expect_kind(msg("Some User <user@example.org>",
			"[QUESTION] encryption support progress", NULL,
			"Hi,\n"),
		    KIND_DISCUSSION);
	/* asking for a feature is no report of a bug */
	expect_kind(msg("Some User <user@example.org>",
			"[Feature Request] ath12k: faster wake from s2idle",
			NULL, "Hi,\n"),
		    KIND_DISCUSSION);
	expect_kind(msg("A Developer <dev@example.com>",
			"[RFC] ext4: rework the crash recovery path", NULL,
			"Hi,\n"),
		    KIND_DISCUSSION);
	/* a bisection quotes the culprit merge with its diffstat: a
	 * report, not a cover letter */
	expect_kind(
		msg("Some User <user@example.org>",
		    "Weird fan control change since 6.18", NULL,
		    "I bisected it:\n\n"
		    "0123456789abcdef0123456789abcdef01234567 is the first bad commit\n"
		    "commit 0123456789abcdef0123456789abcdef01234567\n"
		    "Merge: 1111111 2222222\n\n"
		    "    Merge tag 'pwm/for-6.18-rc1'\n\n"
		    " drivers/pwm/core.c | 120 +++++++++++-----\n"
		    " 12 files changed, 300 insertions(+), 80 deletions(-)\n"),
		KIND_REPORT);
	/* a tool's finding asked as a question is a report */
	expect_kind(msg("A Researcher <r@uni.example.edu>",
			"Question: foo GPIO can_sleep and pinctrl helpers",
			NULL,
			"Hi,\n\nI found a possible sleep-in-atomic problem.\n"
			"This was found by our static analysis tool and then\n"
			"confirmed by manual review.\n"),
		    KIND_REPORT);
	expect_kind(msg("Some User <user@example.org>",
			"Question: foo GPIO can_sleep and pinctrl helpers",
			NULL, "Hi,\n\nWhich contract is preferred?\n"),
		    KIND_DISCUSSION);
	/* a word of talk inside an identifier is no talk */
	expect_kind(
		msg("Some User <user@example.org>",
		    "Dead lock between prepare_lock and power.runtime_status",
		    NULL, "Hi,\n"),
		KIND_REPORT);
	expect_kind(msg("Some User <user@example.org>",
			"[Help Needed] MMC stops working after many writes",
			NULL, "Hi,\n"),
		    KIND_REPORT);
	/* a subject that reads as a plan or a status, a crash in the
	 * sender's own text: a report */
	expect_kind(msg("Some User <user@example.org>",
			"[RFC] foofs: mount hangs on 7.2-rc3", NULL,
			"Hi,\n\nMounting after an unclean shutdown:\n\n"
			"[  155.087260] BUG: kernel NULL pointer dereference, "
			"address: 0000000000000008\n"
			"[  155.088688] Oops: 0000 [#1] SMP\n"
			"[  155.099476] Call Trace:\n"
			"[  155.099480]  <TASK>\n"
			"[  155.099490]  foofs_open+0x1c/0x40\n"),
		    KIND_REPORT);
	expect_kind(
		msg("Some User <user@example.org>",
		    "Board X: foo-hcd did not stop within 32000 usec status = 0x0",
		    NULL,
		    "Mar 3 10:01:02 host kernel: WARNING: CPU: 3 PID: 1 at "
		    "drivers/usb/host/foo.c:120 foo_halt+0x50/0x90\n"
		    "Mar 3 10:01:02 host kernel: Call Trace:\n"),
		KIND_REPORT);
	/* the same subjects with no crash, or a crash quoted from
	 * someone else, stay what they say */
	expect_kind(
		msg("Some User <user@example.org>",
		    "Board X: foo-hcd did not stop within 32000 usec status = 0x0",
		    NULL, "Any idea what this means?\n"),
		KIND_DISCUSSION);
	expect_kind(msg("A Developer <dev@example.com>",
			"[RFC] foofs: a new journal format", NULL,
			"Hi,\n\nLast week's report said:\n"
			"> [  155.099476] Call Trace:\n"
			"> [  155.099490]  foofs_open+0x1c/0x40\n\n"
			"Here is a plan to avoid that class of bug.\n"),
		    KIND_DISCUSSION);
	/* a report tagged so, with the fix its sender proposes: a report;
	 * the same diff under a plain subject is a patch */
	expect_kind(msg("A Researcher <r@uni.example.edu>",
			"[REPORT] foo-rdma: integer overflow in a bounds check",
			NULL, diff),
		    KIND_REPORT);
	expect_kind(msg("A Developer <dev@example.com>",
			"foo-rdma: check the bounds before the copy", NULL,
			diff),
		    KIND_PATCH);
	/* the site's spam filter said so: spam, whatever it claims */
	r = msg("Spammer <s@example.net>", "[BUG] cheap watches", NULL, "");
	report_add_header(r, "X-Spam-Flag", "YES");
	expect_kind(r, KIND_SPAM);
}

/*
 * names_nothing: a new message whose text names nothing of the kernel
 * (held as uncertain by the pipeline, never forwarded as user)
 */
#define expect_nothing(r, want) \
	expect_nothing_at(r, want, KIND_REPORT, __LINE__)
#define expect_spam(r) expect_nothing_at(r, true, KIND_SPAM, __LINE__)
static void expect_nothing_at(struct report *r, bool want, enum msg_kind kind,
			      int line)
{
	struct kind_result k;

	kind_classify(r, &k);
	if (k.names_nothing != want || k.kind != kind)
		print_error("line %d: \"%s\": names_nothing %d kind %d, "
			    "expected %d kind %d\n",
			    line, r->subject, k.names_nothing, k.kind, want,
			    kind);
	assert_int_equal(k.kind, kind);
	assert_int_equal(k.names_nothing, want);
	kind_result_release(&k);
	report_free(r);
}

static void test_names_nothing(void **state)
{
	(void)state;
	expect_spam(msg("Vendor Desk <desk@vendor.example>",
			"Invitation to register as an approved supplier", NULL,
			"Dear Sir/Madam,\n\nWe are pleased to invite your "
			"esteemed company to register as an approved "
			"supplier for our 2027 projects. Kindly reply with "
			"your company profile.\n\nBest regards\n"));
	expect_spam(msg("Biuro <biuro@firma.example>", "Zwrot", NULL,
			"Dzien dobry,\nprosze o kontakt w sprawie zwrotu "
			"naleznosci za ostatni okres rozliczeniowy.\n"));
	/* the example: a subsystem in the subject alone is not
	 * enough; saying nothing went wrong and asking nothing, it is spam */
	expect_spam(msg("Someone <s@example.net>", "ext4: hello", NULL,
			"Hello dear, I am looking for a serious partner "
			"for a profitable business, please write back.\n"));
	/* a list's footer is not the writer's ("Linux MTD discussion
	 * mailing list"), nor is a code-like token in a link or an
	 * address */
	expect_spam(msg(
		"Mrs. Rice <rice@mail.example>", "Spende", NULL,
		"Attn: Sie erhalten eine Spende von 900.000,00 USD.\n"
		"Kontakt: harrison_leo1967@mail.example\n"
		"Details: https://promo.example/seminar_25?id=7\n\n"
		"______________________________________________________\n"
		"Linux MTD discussion mailing list\n"
		"http://lists.infradead.org/mailman/listinfo/linux-mtd/\n"));
	/* before the footer, the writer's words count */
	expect_nothing(msg("Some User <user@example.org>", "nand timeout", NULL,
			   "My NAND controller times out after resume.\n"
			   "_______________________________________________\n"
			   "linux-mtd mailing list\n"),
		       false);
	/* naming nothing but saying something went wrong, or asking: a
	 * vague genuine report, held for a triager, not spam */
	expect_nothing(msg("Some User <user@example.org>", "help please", NULL,
			   "Since the update yesterday my machine no longer "
			   "wakes up, what can I do?\n"),
		       true);
	expect_kind(msg("Some User <user@example.org>", "a question", NULL,
			"Is there a way to make my computer quieter?\n"),
		    KIND_DISCUSSION);
	/* one word of the kernel's world is enough */
	expect_nothing(msg("Some User <user@example.org>", "Partition lost",
			   NULL,
			   "After the power cut my btrfs volume does not show "
			   "up any more, what can I do?\n"),
		       false);
	/* so is code: a hex value, an identifier, a call */
	expect_nothing(msg("Some User <user@example.org>", "strange values",
			   NULL,
			   "Reading the counter gives 0xffff after a while, "
			   "is that expected?\n"),
		       false);
	expect_nothing(msg("Some User <user@example.org>", "stats repeat", NULL,
			   "Why does foo_get_stats return twice the same "
			   "value here?\n"),
		       false);
	expect_nothing(msg("Some User <user@example.org>", "odd values", NULL,
			   "Why does probe() run twice at start?\n"),
		       false);
	expect_nothing(
		msg("Some User <user@example.org>", "kfree twice", NULL,
		    "Calling kfree(ptr) twice here looks wrong to me.\n"),
		false);
	/* a model names the kernel's world; a word of its world that
	 * junk's marks also use counts when no such mark is there */
	expect_nothing(
		msg("Some User <user@example.org>", "two outputs", NULL,
		    "We are struggling to get RK3399 MIPI DSI 1 to "
		    "work on its own. Is this kind of setup possible?\n"),
		false);
	/* prose's parentheses are no call: "daily(risk free)", initials */
	expect_spam(msg("Trade Desk <desk@trade.example>", "Welcome", NULL,
			"Register today and earn daily(risk free) with "
			"Kouame(M.K) and our team, reply for more.\n"));
	/* nor one whose text says only that the report is attached */
	{
		struct report *r = msg("Some User <user@example.org>",
				       "wifi regression", NULL,
				       "the report is in the attached file, "
				       "thanks for looking\n");
		struct report_part *pt = report_add_part(r);

		pt->mime_type = xstrdup("text/plain");
		pt->filename = xstrdup("report.txt");
		pt->text = xstrdup("iwlwifi fails to load firmware on 6.18\n");
		pt->len = strlen(pt->text);
		pt->flags = PART_TEXT | PART_ATTACHMENT;
		expect_nothing(r, false);
	}
	/* a report that is all attachment is not judged by its empty text */
	expect_nothing(msg("Some User <user@example.org>",
			   "Instability with MT7922", NULL, "\n"),
		       false);
}

/* whether a new message says what went wrong (problem.h), and where */
#define expect_problem(r, want) expect_problem_at(r, want, __LINE__)
static void expect_problem_at(struct report *r, const char *want, int line)
{
	struct kind_result k;

	kind_classify(r, &k);
	if (k.problem_stated != (want != NULL))
		print_error("line %d: \"%s\": problem \"%s\", expected %s\n",
			    line, r->subject, k.problem, want ? want : "none");
	assert_int_equal(k.problem_stated, want != NULL);
	if (want)
		assert_string_equal(k.problem, want);
	assert_non_null(strstr(k.why, want ? "it says what went wrong"
					   : "it does not say"));
	kind_result_release(&k);
	report_free(r);
}

static void test_sells(void **state)
{
	(void)state;
	/* hardware for sale: its wares are kernel words, but it sells */
	expect_kind(msg("Exceptional PC <support@example.com>",
			"WTS Available laptops and memory", NULL,
			"Hello,\n\nLooking for a buyer for the following "
			"items.\n\nUsed SSD 3.84TB U.2 NVMe\nQuantity 400, "
			"price $100 EACH\n"),
		    KIND_SPAM);
	/* an advance-fee scam that asks: no question of the kernel's */
	expect_kind(msg("A Banker <banker@example.com>",
			"Are you still on this email?", NULL,
			"i need your interest over a transaction of $10 "
			"million. The fund will be sent into your bank "
			"account.\n\nI wait your respond?\n"),
		    KIND_SPAM);
	expect_kind(msg("An Investor <ir@example.com>",
			"Thematic Funds Letter Of Intent", NULL,
			"Having been referred to your investment by my team, "
			"we would be honored to review your projects for our "
			"investors.\n"),
		    KIND_SPAM);
	/* ... not a report that talks money twice, nor one with code */
	expect_kind(msg("Some User <user@example.org>",
			"laptops hang at suspend after the update", NULL,
			"Our business runs 400 of these laptops; since the "
			"update each one hangs at suspend, and the price is a "
			"lost day.\n"),
		    KIND_REPORT);
	expect_kind(msg("Some User <user@example.org>",
			"btrfs: transaction aborts on a busy server", NULL,
			"Our business server aborts a transaction each night; "
			"the price of a restore is high and the offer of a "
			"new disk did not help:\nbtrfs_commit_transaction "
			"returned -28\n"),
		    KIND_REPORT);
	/* a procurement inquiry sent to a list as to a shop */
	expect_kind(msg("Info Trading <info@example.com>",
			"New October Order. 52113 Friday", NULL,
			"Hi Linux-serial,\n\nPlease provide a quote for "
			"your products:\n1.Pricing (per unit)\n2.Delivery "
			"cost\n\nThanks!\n"),
		    KIND_SPAM);
	expect_kind(msg("Export Manager <info@example.com>", "New order", NULL,
			"Dear linux-edac,\n\nPlease email us your company's "
			"most recent catalog. We would like to make a "
			"purchase from you.\n"),
		    KIND_SPAM);
	/* a price list whose part numbers read as code */
	expect_kind(msg("One PC <support@example.com>", "For sale", NULL,
			"WTS:\nSK Hynix 48GB 2RX8 PC5 REO_1010-XT\nQTY 239 "
			"$50 EACH\n\n7.68TB HDD -$200 PER\nQuantity 76, "
			"price $100\n"),
		    KIND_SPAM);
	/* assembly immediates and MIPS registers are no prices: code
	 * decides, a report */
	expect_kind(msg("Some User <user@example.org>",
			"x86: payment server oopses in memcpy_orig", NULL,
			"Our business runs a payment service; each "
			"transaction since 6.12 oopses in memcpy_orig():\n"
			"   mov $16,%edx\n   sub $24, %rsp\n"
			"   addiu $29,$29,-32\n   lw $31, 28($29)\n"),
		    KIND_REPORT);
	/* ... with one price, code decides: a report */
	expect_kind(msg("Some User <user@example.org>",
			"ext4: quota goes wrong after resize", NULL,
			"We bought the disk for $120 at the price of a "
			"business offer; after resize2fs the quota is wrong "
			"and ext4_quota_write returns -5\n"),
		    KIND_REPORT);
}

static void test_problem_stated(void **state)
{
	(void)state;
	expect_problem(msg("Some User <user@example.org>",
			   "iw scan hangs with 6.6.99", NULL, "Hi,\n"),
		       "subject: hangs");
	expect_problem(msg("Some User <user@example.org>", "ext4 on my NAS",
			   NULL,
			   "Since the update my NAS no longer mounts the "
			   "ext4 volume.\n"),
		       "text: no longer");
	expect_problem(msg("Some User <user@example.org>",
			   "Btrfs encryption support progress?", NULL,
			   "I saw the fscrypt patches land in 6.19. When "
			   "does the rest come?\n"),
		       NULL);
}

static void test_trailers(void **state)
{
	struct report *r = msg("A Developer <dev@example.com>",
			       "[PATCH] net: foo: fix reset", NULL, diff);
	struct kind_result k;

	(void)state;
	kind_classify(r, &k);
	assert_int_equal(k.kind, KIND_PATCH);
	assert_true(k.diff);
	assert_int_equal(k.nrefs, 3);
	assert_int_equal(k.refs[0].type, KREF_FIXES);
	assert_string_equal(k.refs[0].value,
			    "0123456789ab (\"net: foo: add reset\")");
	assert_int_equal(k.refs[1].type, KREF_REPORTED_BY);
	assert_string_equal(k.refs[1].value, "Some User <user@example.org>");
	assert_int_equal(k.refs[2].type, KREF_CLOSES);
	assert_string_equal(k.refs[2].value,
			    "https://lore.kernel.org/r/abc123@example.org/");
	kind_result_release(&k);
	report_free(r);

	/* quoted trailers are someone else's */
	r = msg("A Reviewer <rev@example.com>", "Re: [PATCH] foo", "p@x",
		"> Reported-by: Someone <s@x>\n> Closes: https://x/y\nLooks good.\n");
	kind_classify(r, &k);
	assert_int_equal(k.nrefs, 0);
	kind_result_release(&k);
	report_free(r);
}

static void test_tags(void **state)
{
	char buf[64];
	unsigned replies;

	(void)state;
	kind_subject_tags("Re: AW: [PATCH v2 1/3] [net-next] foo: bar", buf,
			  sizeof(buf), &replies);
	assert_string_equal(buf, "PATCH v2 1/3|net-next");
	assert_int_equal(replies, 2);
	/* a forward is no reply */
	kind_subject_tags("Fwd: WG: [BUG] foo", buf, sizeof(buf), &replies);
	assert_string_equal(buf, "BUG");
	assert_int_equal(replies, 0);
	/* bounded: a tag that does not fit is left out, nothing overflows */
	kind_subject_tags("[aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa] [b]",
			  buf, 8, &replies);
	assert_string_equal(buf, "b");
	kind_subject_tags("[unterminated", buf, sizeof(buf), &replies);
	assert_string_equal(buf, "");
	assert_int_equal(kind_from_name("review"), KIND_REVIEW);
	assert_int_equal(kind_from_name("nonsense"), -1);
	assert_string_equal(kind_name(KIND_FOLLOWUP), "follow-up");
}

/* hold - kind_hold_reason() of a composed message (in no thread) */
static const char *hold(struct report *r, enum msg_kind want)
{
	struct kind_result k;
	const char *why;

	kind_classify(r, &k);
	if (k.kind != want)
		print_error("\"%s\": %s (%s), expected %s\n", r->subject,
			    kind_name(k.kind), k.why, kind_name(want));
	assert_int_equal(k.kind, want);
	why = kind_hold_reason(&k, false);
	kind_result_release(&k);
	report_free(r);
	return why;
}

/*
 * A new message that only its subject's words make a discussion is
 * held (a first report under a misleading subject reads the same);
 * one its text or structure backs, a reply, or one in a known thread
 * is not
 */
static void test_subject_only(void **state)
{
	static const char *const user = "Petra <petra@example.net>";
	static const char report_text[] =
		"Since 6.12.1 the RTC alarm does not wake my laptop from "
		"s2idle; with 6.11.9 it did.\n";
	struct kind_result k;
	struct report *r;

	(void)state;
	assert_string_equal(
		hold(msg(user, "Question: rtc-cmos alarm after resume", NULL,
			 report_text),
		     KIND_DISCUSSION),
		KIND_SUBJECT_ONLY);
	assert_string_equal(hold(msg(user, "[RFC] rtc-cmos alarm semantics",
				     NULL, report_text),
				 KIND_DISCUSSION),
			    KIND_SUBJECT_ONLY);
	assert_string_equal(
		hold(msg(user, "[nvme-cli] list output", NULL, report_text),
		     KIND_DISCUSSION),
		KIND_SUBJECT_ONLY);
	assert_string_equal(
		hold(msg(user, "subscribe linux-rtc", NULL, report_text),
		     KIND_DISCUSSION),
		KIND_SUBJECT_ONLY);
	/* the text is a list command: its structure backs the kind */
	assert_null(hold(msg(user, "please take me off", NULL,
			     "unsubscribe linux-rtc\n"),
			 KIND_DISCUSSION));
	assert_null(hold(
		msg(user, "subscribe linux-rtc", NULL, "subscribe linux-rtc\n"),
		KIND_DISCUSSION));
	/* a reply, a patch, a report: nothing to hold here */
	assert_null(hold(msg(user, "Re: [RFC] rtc-cmos alarm semantics",
			     "<rfc@example.net>", report_text),
			 KIND_DISCUSSION));
	/* "Re:" with no In-Reply-To or References answers nothing we can
	 * tell: a first report under such a subject reads the same */
	assert_string_equal(
		hold(msg(user, "Re: rtc-cmos alarm fails after resume", NULL,
			 report_text),
		     KIND_FOLLOWUP),
		KIND_SUBJECT_ONLY);
	assert_null(hold(msg(user, "Re: rtc-cmos alarm fails after resume",
			     "<first@example.net>", report_text),
			 KIND_FOLLOWUP));
	assert_null(hold(
		msg(user, "[RFC PATCH] rtc: cmos: keep the alarm", NULL, diff),
		KIND_PATCH));
	assert_null(hold(msg(user, "rtc-cmos: alarm fails after resume", NULL,
			     report_text),
			 KIND_REPORT));
	/* a diff without a Signed-off-by is a patch by its tag alone */
	assert_string_equal(hold(msg(user,
				     "[RFC] AMD VM crashing on memory error "
				     "injection",
				     NULL,
				     "The guest panics; this change avoids "
				     "it:\n\ndiff --git a/x.c b/x.c\n--- "
				     "a/x.c\n+++ b/x.c\n"),
				 KIND_PATCH),
			    KIND_SUBJECT_ONLY);
	/* a subject that opens by asking, and names no problem */
	assert_string_equal(hold(msg(user,
				     "Clarification on kernel threads and "
				     "their labels",
				     NULL, "Hello, I read the policy.\n"),
				 KIND_DISCUSSION),
			    KIND_SUBJECT_ONLY);
	assert_string_equal(hold(msg(user,
				     "What is the best way to set up RAID-1 "
				     "on a new install",
				     NULL, "Hello, I have two disks.\n"),
				 KIND_DISCUSSION),
			    KIND_SUBJECT_ONLY);
	assert_null(
		hold(msg(user, "Why does my laptop hang at resume since 6.12",
			 NULL, report_text),
		     KIND_REPORT));
	/* a question that shows nothing of a system is a discussion, held
	 * with its own reason; one that shows a version, a log, a device
	 * id, code or a source file stays a report */
	assert_string_equal(
		hold(msg(user, "Pinning rtc interrupts to one cpu?", NULL,
			 "Hello,\n\nwe run a router and want all "
			 "interrupts of the nvme driver on one core.\n"
			 "Is there a kernel knob for it?\n"),
		     KIND_DISCUSSION),
		KIND_QUESTION_ONLY);
	assert_null(hold(msg(user, "Pinning rtc interrupts to one cpu?", NULL,
			     "Hello,\n\non 6.12 the rtc interrupts move "
			     "between cores.\n"),
			 KIND_REPORT));
	assert_null(hold(msg(user, "rtc alarm granularity?", NULL,
			     "Hello,\n\nthe alarm of my 1b21:0612 rtc "
			     "board rounds to the minute.\n"),
			 KIND_REPORT));
	assert_null(hold(msg(user, "rtc alarm granularity?", NULL,
			     "Hello,\n\nrtc_set_alarm() rounds to the "
			     "minute.\n"),
			 KIND_REPORT));
	assert_null(hold(msg(user, "rtc alarm granularity?", NULL,
			     "Hello,\n\ndmesg shows the alarm rounded to "
			     "the minute.\n"),
			 KIND_REPORT));
	assert_true(kind_shows_system("x", "[   12.345678] rtc0: alarm", 26));
	assert_true(kind_shows_system("since v6.1", NULL, 0));
	assert_true(kind_shows_system("Linux 5.4 and rtc", NULL, 0));
	assert_true(kind_shows_system("rtc-cmos.c: alarm", NULL, 0));
	assert_true(kind_shows_system("reads 0xffff", NULL, 0));
	assert_false(kind_shows_system("USB 3.0 and PCIe 4.0 docks", NULL, 0));
	assert_false(kind_shows_system("io_uring and 1.5 MB/s?", NULL, 0));
	assert_false(kind_shows_system("x", "> [   12.345678] quoted\n", 24));
	/* ... nor one whose text says what went wrong */
	assert_null(hold(msg(user, "Clarification on the RTC alarm", NULL,
			     "Since the upgrade my laptop no longer wakes "
			     "from the RTC alarm.\n"),
			 KIND_REPORT));
	/* a release's name and version alone is an announcement */
	assert_string_equal(hold(msg(user, "libpwm 1.0-rc2", NULL,
				     "Hello,\n\nthe second candidate is "
				     "out.\n"),
				 KIND_DISCUSSION),
			    KIND_SUBJECT_ONLY);
	assert_true(kind_subject_release("Linux 6.18-rc3"));
	assert_true(kind_subject_release("libgpiod v2.3"));
	assert_true(kind_subject_release("SETools 4.6.0"));
	assert_false(kind_subject_release("Broken since 6.12"));
	assert_false(kind_subject_release("xhci 6.12 hangs"));
	assert_false(kind_subject_release("libpwm 1"));
	assert_false(kind_subject_release("libpwm 1.0-foo"));
	assert_false(kind_subject_release("6.12.1"));
	assert_false(kind_subject_release(NULL));
	/* linux-next's merge notice: its text backs its subject */
	assert_null(hold(msg("Stephen <sfr@example.au>",
			     "linux-next: manual merge of the kbuild tree "
			     "with the origin tree",
			     NULL,
			     "Hi all,\n\nToday's linux-next merge of the "
			     "kbuild tree got a conflict in:\n\n  "
			     "Makefile\n"),
			 KIND_DISCUSSION));
	assert_string_equal(hold(msg(user,
				     "linux-next: manual merge of the kbuild "
				     "tree with the origin tree",
				     NULL, report_text),
				 KIND_DISCUSSION),
			    KIND_SUBJECT_ONLY);
	/* in a known thread (the caller joined it) it is not held */
	r = msg(user, "[ANNOUNCE] rtc-tools 1.2", NULL, "Released today.\n");
	kind_classify(r, &k);
	assert_int_equal(k.kind, KIND_DISCUSSION);
	assert_true(k.subject_only);
	assert_string_equal(kind_hold_reason(&k, false), KIND_SUBJECT_ONLY);
	assert_null(kind_hold_reason(&k, true));
	kind_result_release(&k);
	report_free(r);
}

/* a community's events and elections, a maintainer handing over:
 * discussions by their subject, even when their text names nothing of
 * the kernel; a report of a failure at a workshop stays a report */
static void test_community_business(void **state)
{
	(void)state;
	expect_kind(msg("Board Member <board@foundation.example>",
			"Foundation Board Elections 2027", NULL,
			"Hi all,\n\nit is a new year and with that a new "
			"board election. Please renew your membership "
			"before the nomination period ends.\n"),
		    KIND_DISCUSSION);
	expect_kind(msg("Board Member <board@foundation.example>",
			"Reminder: Seeking nominations for the 2027 board",
			NULL,
			"The nomination period is open until April 16.\n"),
		    KIND_DISCUSSION);
	expect_kind(msg("Events <events@uni.example>",
			"Hotel blocks for the 2027 storage workshop", NULL,
			"Rates are $135/night; a shuttle runs to the venue.\n"),
		    KIND_DISCUSSION);
	expect_kind(msg("Some Maintainer <sm@example.org>",
			"FOO2835 maintainership", NULL,
			"I need to announce that I step back as maintainer "
			"at the end of the year.\n"),
		    KIND_DISCUSSION);
	expect_kind(msg("Events <events@uni.example>",
			"Save the Date! DevConf 2027 comes to Brno", NULL,
			"Registration opens soon, stay tuned.\n"),
		    KIND_DISCUSSION);
	expect_kind(msg("Some User <user@example.org>",
			"workshop demo board hangs on boot since 6.18", NULL,
			"My demo board hangs at boot with 6.18, 6.17 was "
			"fine.\n"),
		    KIND_REPORT);
	/* a license agreement, the list itself, a job offer, a reminder */
	expect_kind(msg("Legal <cla@corp.example>",
			"FooBMC Corporate CLA Submission - Example Corp", NULL,
			"Please find our signed CCLA attached; the people "
			"below contribute to the firmware.\n"),
		    KIND_DISCUSSION);
	expect_kind(msg("List Admin <admin@example.org>",
			"This list moves to the new server (no action "
			"required)",
			NULL, "The archive keeps its address.\n"),
		    KIND_DISCUSSION);
	expect_kind(msg("Recruiter <jobs@corp.example>",
			"We are hiring: kernel engineers", NULL,
			"Join our driver team.\n"),
		    KIND_DISCUSSION);
	expect_kind(msg("Events <events@uni.example>",
			"Reminder: last week to submit a talk", NULL,
			"The program committee meets in May.\n"),
		    KIND_DISCUSSION);
	/* ... whole words only, and not over a failure */
	expect_kind(msg("Some User <user@example.org>",
			"clang build of the claim table", NULL,
			"Since 6.18 my clang build stops at the table.\n"),
		    KIND_REPORT);
	expect_kind(msg("Some User <user@example.org>",
			"mails to this list bounce with an error", NULL,
			"My mails to the list bounce since Monday.\n"),
		    KIND_REPORT);
}

/* the sender says a question is what the mail is for */
static void test_wants_to_know(void **state)
{
	struct kind_result k;
	struct report *r;

	(void)state;
	r = msg("Some User <user@example.org>", "Pascal GPU", NULL,
		"Hi, i just built a PC from old parts.\n\nI just wanted to "
		"know how the driver project is doing for older cards.\n");
	kind_classify(r, &k);
	assert_true(k.question);
	assert_int_equal(k.kind, KIND_DISCUSSION);
	kind_result_release(&k);
	report_free(r);
	r = msg("Some User <user@example.org>", "Pascal GPU", NULL,
		"Hi, i just built a PC from old parts.\n\nHow is the driver "
		"project doing for older cards, I am curious.\n");
	kind_classify(r, &k);
	assert_false(k.question);
	kind_result_release(&k);
	report_free(r);
}

/*
 * the sender asks the readers for advice, an explanation or a change: a
 * question for the hold, never a discussion by itself, and the phrase
 * shows in the why
 */
static void test_asks_readers(void **state)
{
	static const char user[] = "Some User <user@example.org>";
	struct kind_result k;
	struct report *r;

	(void)state;
	r = msg(user, "rtc-cmos: alarm rounded to the minute", NULL,
		"Hello,\n\non 6.12 the alarm of my board is rounded to "
		"the minute.\nWould it be possible to add a finer mode to "
		"the driver?\n");
	kind_classify(r, &k);
	assert_true(k.question);
	assert_int_equal(k.kind, KIND_REPORT);
	assert_non_null(strstr(k.why, "it asks \"would it be possible\""));
	kind_result_release(&k);
	report_free(r);
	/* one that shows nothing of a system stays a report (held by
	 * its class, not recorded out of sight as a discussion) */
	r = msg(user, "rtc alarm granularity", NULL,
		"Hello,\n\nI would like to understand how the rtc driver "
		"rounds the alarm of my board.\n");
	kind_classify(r, &k);
	assert_true(k.question);
	assert_int_equal(k.kind, KIND_REPORT);
	assert_null(kind_hold_reason(&k, false));
	kind_result_release(&k);
	report_free(r);
	/* quoted, after a crash, or the reporter's "Any ideas?": no */
	assert_false(asks("rtc alarm granularity",
			  "> Would it be possible to add a finer mode?\n"
			  "On 6.12 the alarm of my board is rounded.\n"));
	assert_false(asks("rtc alarm oops",
			  "BUG: kernel NULL pointer dereference\nCall Trace:\n"
			  "\nIs there a reason the alarm is rounded?\n"));
	assert_false(asks("rtc alarm fires late",
			  "Since 6.12 the alarm of my board fires a minute "
			  "late.\nAny ideas?\n"));
	/* a word that only ends in the phrase does not ask */
	assert_false(asks("rtc alarm fires late",
			  "Since 6.12 my board fires late; that is "
			  "thereason. Xis there a reason for the fix.\n"));
}

/* KernelCI's own mail: a count of regressions or failures reports them;
 * a summary of passes is a notice, and so is its reply */
static void test_kernelci(void **state)
{
	(void)state;
	expect_kind(msg("\"kernelci.org bot\" <bot@kernelci.org>",
			"next/master baseline: 120 runs, 2 regressions "
			"(next-20270101)",
			NULL, "Regressions Summary\n"),
		    KIND_REPORT);
	expect_kind(msg("\"kernelci.org bot\" <bot@kernelci.org>",
			"next/master build: 200 builds: 1 failed, 199 passed",
			NULL, "Build Failure Detected:\n"),
		    KIND_REPORT);
	expect_kind(msg("\"kernelci.org bot\" <bot@kernelci.org>",
			"next/master baseline: 120 runs, 0 regressions "
			"(next-20270101)",
			NULL, "All passed\n"),
		    KIND_BOT);
	expect_kind(msg("\"kernelci.org bot\" <bot@kernelci.org>",
			"next/master build: 200 builds: 0 failed, 200 passed",
			NULL, "All passed\n"),
		    KIND_BOT);
	expect_kind(msg("\"kernelci.org bot\" <bot@kernelci.org>",
			"Re: next/master baseline: 1 regressions",
			"<a@kernelci.org>", "bisection result\n"),
		    KIND_BOT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_patches),
		cmocka_unit_test(test_replies),
		cmocka_unit_test(test_pull_and_stable),
		cmocka_unit_test(test_bots),
		cmocka_unit_test(test_bugzilla),
		cmocka_unit_test(test_new_messages),
		cmocka_unit_test(test_questions),
		cmocka_unit_test(test_tool_subjects),
		cmocka_unit_test(test_list_business),
		cmocka_unit_test(test_talk_without_tags),
		cmocka_unit_test(test_backport_requests),
		cmocka_unit_test(test_attached_patches),
		cmocka_unit_test(test_names_nothing),
		cmocka_unit_test(test_sells),
		cmocka_unit_test(test_problem_stated),
		cmocka_unit_test(test_trailers),
		cmocka_unit_test(test_tags),
		cmocka_unit_test(test_subject_only),
		cmocka_unit_test(test_community_business),
		cmocka_unit_test(test_wants_to_know),
		cmocka_unit_test(test_asks_readers),
		cmocka_unit_test(test_kernelci),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
