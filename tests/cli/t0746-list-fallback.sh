#!/bin/sh
# t0746-list-fallback: a user report goes to its section's list when
# MAINTAINERS asks for reports there and the list is open (routes.conf(5),
# list_fallback); the overflow, a closed list, a say-so and a
# security-looking report are held; a list never gets a message twice
#
# The messages are composed here; the MAINTAINERS is this script's own.
. "$(dirname "$0")/../lib.sh"
. "$SRC/tests/cli/lib-mail.sh"

export TZ=UTC

need_tools "the list fallback is not tested" sqlite3

cat >"$T/MAINTAINERS" <<-\EOF
	List of maintainers

	FROBNICATOR DRIVER
	M:	Fred Frob <fred@frob.example.org>
	L:	frob-devel@lists.example.org
	S:	Maintained
	B:	mailto:frob-devel@lists.example.org
	F:	drivers/misc/frob/

	WIDGET DRIVER
	L:	widget@lists.example.org
	S:	Orphan
	F:	drivers/misc/widget/

	GADGET DRIVER
	M:	Gail Gadget <gail@gadget.example.org>
	L:	gadget@lists.example.org (moderated for non-subscribers)
	S:	Maintained
	B:	mailto:gadget@lists.example.org
	F:	drivers/misc/gadget/

	SPROCKET DRIVER
	M:	Sam Sprocket <sam@sprocket.example.org>
	L:	sprocket@lists.example.org
	S:	Maintained
	F:	drivers/misc/sprocket/

	THE REST
	M:	Linus <torvalds@example.org>
	L:	linux-kernel@vger.example.org
	S:	Buried alive in reporters
	F:	*
	F:	*/
EOF
# Sam takes no reports at all (day=0): his section overflows to its list
routes_conf triage@example.org "maintainers = $T/MAINTAINERS" \
	"cap sam@sprocket.example.org day=0"

# compose FILE ID DRIVER [HEADER] - a user's report of a hang in
# drivers/misc/DRIVER/DRIVER_core.c, told from their own machine
compose() {
	{
		printf '%s\n' "From: Uma User <uma-$2@users.example>" \
			"To: bugs@example.org" &&
		if [ -n "${4:-}" ]; then printf '%s\n' "$4"; fi &&
		printf '%s\n' "Subject: $3: machine hangs on resume since 6.12" \
			"Message-ID: <$2@users.example>" \
			"Date: Tue, 01 Dec 2026 10:00:00 +0000" \
			"MIME-Version: 1.0" \
			"Content-Type: text/plain; charset=utf-8" "" \
			"Hi," "" \
			"my laptop (ThinkPad T14 Gen 3) hangs on every resume since I" \
			"upgraded to 6.12.4; 6.11.10 worked fine.  The last lines before" \
			"the hang, from journalctl -k -b -1:" "" \
			"[  101.220311] $3 0000:03:00.0: resume timeout, status 0x40" \
			"[  101.220318] $3 0000:03:00.0: failed to restore state: -110" \
			"[  101.220330] PM: dpm_run_callback(): pci_pm_resume returns -110" "" \
			"The message comes from drivers/misc/$3/$3_core.c as far as I can" \
			"tell.  It happens every time after upgrading; I can test patches." \
			"" "Uma"
	} >"$1"
}

# reason ID - the report's decision reason
reason() { q "SELECT reason FROM decisions WHERE report = $1 AND action != 'pick'"; }
# held ID - report ID waits for a triager, nothing of it sent
held() {
	test "$(q "SELECT state FROM reports WHERE id = $1")" = held &&
	test "$(q "SELECT count(*) FROM outbox WHERE report = $1")" = 0
}

test_expect_success 'B: mailto: an open list: the user report is forwarded to it, said why' '
	compose "$T/frob.eml" frob1 frob &&
	feed "$T/frob.eml" &&
	id=$(id_of frob1@users.example) &&
	test "$(q "SELECT class, state FROM reports WHERE id = $id")" = "user|forwarded" &&
	test "$(forwarded_to $id)" = frob-devel@lists.example.org &&
	reason $id >"$T/why1" &&
	grep "user: MAINTAINERS B: asks for reports on frob-devel@lists.example.org, an open list: forwarded to it" "$T/why1" &&
	msg "o.report = $id AND o.kind = \"forward\"" >"$T/fwd1" &&
	sed -n "/^X-Triage-Reason:/,/^[^ ]/p" "$T/fwd1" | tr -d "\n" >"$T/hdr1" &&
	grep "MAINTAINERS B: asks for reports on frob-devel@lists.example.org, an open list" "$T/hdr1" &&
	"$TRIAGE" explain "$T/frob.eml" >"$T/explain1" &&
	grep "^recipient *frob-devel@lists.example.org" "$T/explain1" &&
	grep "^action *forward: user: MAINTAINERS B: asks for reports on frob-devel@lists.example.org, an open list" "$T/explain1"
'

test_expect_success 'a section that names no person: its open list' '
	compose "$T/widget.eml" widget1 widget &&
	feed "$T/widget.eml" &&
	id=$(id_of widget1@users.example) &&
	test "$(q "SELECT state FROM reports WHERE id = $id")" = forwarded &&
	test "$(forwarded_to $id)" = widget@lists.example.org &&
	reason $id | grep "WIDGET DRIVER names no person, only its list widget@lists.example.org, an open list: forwarded to it"
'

test_expect_success 'a list moderated for non-subscribers is closed to outsiders: held' '
	compose "$T/gadget.eml" gadget1 gadget &&
	feed "$T/gadget.eml" &&
	id=$(id_of gadget1@users.example) &&
	held $id &&
	reason $id | grep "but MAINTAINERS marks it (moderated for non-subscribers): closed to outsiders; held for a triager"
'

test_expect_success 'every person at their cap: the overflow waits for a triager' '
	compose "$T/sprocket.eml" sprocket1 sprocket &&
	feed "$T/sprocket.eml" &&
	id=$(id_of sprocket1@users.example) &&
	held $id &&
	reason $id | grep "its people are unavailable: the overflow is a triager.s" &&
	"$TRIAGE" pending >"$T/pending" &&
	grep "machine hangs on resume" "$T/pending"
'

test_expect_success 'a security-looking report is never published on the list' '
	compose "$T/kasan.eml" widget2 widget &&
	sed -i "s/resume timeout, status 0x40/BUG: KASAN: slab-use-after-free in widget_resume+0x3c\/0x90/" "$T/kasan.eml" &&
	grep -q "KASAN" "$T/kasan.eml" &&
	feed "$T/kasan.eml" &&
	id=$(id_of widget2@users.example) &&
	held $id &&
	reason $id | grep "it looks security-sensitive"
'

test_expect_success 'a stranger naming a file with no sign of a bug: not published' '
	printf "%s\n" "From: Mallory <m@evil.example>" "To: bugs@example.org" \
		"Subject: widget problem" "Message-ID: <widget3@evil.example>" \
		"Date: Tue, 01 Dec 2026 11:00:00 +0000" "" \
		"drivers/misc/widget/widget_core.c" \
		"Cheap watches, today only: https://evil.example/shop" >"$T/say-so.eml" &&
	feed "$T/say-so.eml" &&
	id=$(id_of widget3@evil.example) &&
	held $id
'

test_expect_success 'a report whose sender put the list in Cc: recorded, not posted twice' '
	compose "$T/frob-cc.eml" frob2 frob "Cc: frob-devel@lists.example.org" &&
	grep -q "^Cc: frob-devel@" "$T/frob-cc.eml" &&
	feed "$T/frob-cc.eml" &&
	id=$(id_of frob2@users.example) &&
	test "$(q "SELECT class, state FROM reports WHERE id = $id")" = "user|recorded" &&
	test "$(q "SELECT count(*) FROM outbox WHERE report = $id")" = 0 &&
	reason $id | grep "its sender already sent it to frob-devel@lists.example.org (in its To: or Cc:): recorded, not posted there again" &&
	"$TRIAGE" pending >"$T/pending2" &&
	! grep "frob: machine hangs" "$T/pending2"
'

test_expect_success '"list_fallback user hold" keeps the old hold' '
	cp "$T/routes.conf" "$T/hold.conf" &&
	echo "list_fallback user hold" >>"$T/hold.conf" &&
	compose "$T/frob3.eml" frob3 frob &&
	TRIAGE_CONFIG="$T/hold.conf" "$FILTER" <"$T/frob3.eml" &&
	id=$(id_of frob3@users.example) &&
	held $id &&
	reason $id | grep "user: nobody but the section.s list to send it to; held for a triager (list_fallback user hold)"
'

test_done
