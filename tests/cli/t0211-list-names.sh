#!/bin/sh
# t0211-list-names: a report sent to a list MAINTAINERS does not have
# (issue 20): a list that moved keeps the stem of its old name
# ("widget-devel@" is linux-widget@'s), a list named after its driver's
# directory ("linux-acmecam-devel@" is drivers/media/usb/acmecam/'s)
# names that driver's section, and 'triage explain' shows the address
# and the directory with the weight; a person's address spelled like a
# directory names nothing
. "$(dirname "$0")/../lib.sh"
. "$SRC/tests/cli/lib-mail.sh"

export TZ=UTC TRIAGE_USER=alice
unset NO_COLOR PAGER

need_tools "list names are not tested" sqlite3

# mail FILE ID TO - a webcam report sent to TO
mail() {
	{
		printf "From: Sam Board <sam@users.example>\nTo: %s\n" "$3" &&
		printf "Subject: webcam stops streaming after a minute\n" &&
		printf "Message-ID: <%s@users.example>\n" "$2" &&
		printf "Date: Mon, 30 Nov 2026 09:00:00 +0000\n\n" &&
		printf "Hi,\n\nsince 6.13 my webcam stops streaming after about a minute,\n" &&
		printf "every time; the picture freezes and guvcview shows no error.\n" &&
		printf "With 6.12 it worked fine.  I can test patches.\n\nSam\n"
	} >"$1"
}

test_setup 'a MAINTAINERS, a small tree, the indexes' '
	mkdir -p "$T/tree/drivers/media/usb/acmecam" "$T/tree/drivers/widget" &&
	printf "int acmecam_probe(void) { return 0; }\n" >"$T/tree/drivers/media/usb/acmecam/acmecam_driver.c" &&
	printf "int widget_probe(void) { return 0; }\n" >"$T/tree/drivers/widget/core.c" &&
	cat >"$T/MAINTAINERS" <<-\EOF &&
	ACME USB CAMERA
	M:	Lau Cam <lau@cam.example.org>
	L:	linux-media@vger.kernel.org
	S:	Maintained
	F:	drivers/media/usb/acmecam/

	MEDIA INPUT INFRASTRUCTURE
	M:	Mau Media <mau@media.example.org>
	L:	linux-media@vger.kernel.org
	S:	Maintained
	F:	drivers/media/

	WIDGET SUBSYSTEM
	M:	Wi Dget <wi@widget.example.org>
	L:	linux-widget@vger.kernel.org
	S:	Maintained
	F:	drivers/widget/
	EOF
	routes_conf triage@example.org "maintainers = $T/MAINTAINERS" "kernel_tree = $T/tree" &&
	"$TRIAGE" update >"$T/out"
'

test_expect_success 'a list named after a driver'"'"'s directory: that driver'"'"'s section, shown with its weight' '
	mail "$T/01.eml" lists-01 linux-acmecam-devel@lists.example.net &&
	feed "$T/01.eml" &&
	id=$(id_of lists-01@users.example) &&
	test "$(q "SELECT section FROM reports WHERE id = $id")" = "ACME USB CAMERA" &&
	"$TRIAGE" explain "$T/01.eml" >"$T/explain1" &&
	grep "^sections  ACME USB CAMERA .*list or patchwork project named linux-acmecam-devel@lists.example.net in To, after directory acmecam 0.40" "$T/explain1"
'

test_expect_success 'a list that moved: the list of its name'"'"'s stem' '
	mail "$T/02.eml" lists-02 widget-devel@lists.example.net &&
	feed "$T/02.eml" &&
	id=$(id_of lists-02@users.example) &&
	test "$(q "SELECT section FROM reports WHERE id = $id")" = "WIDGET SUBSYSTEM"
'

test_expect_success 'a person'"'"'s address names no directory' '
	mail "$T/03.eml" lists-03 acmecam@users.example &&
	"$TRIAGE" explain "$T/03.eml" >"$T/explain3" &&
	! grep "ACME USB CAMERA" "$T/explain3"
'

test_done
