#!/bin/sh
# t0207-bugzilla-sender: a Bugzilla product/component steers the sections
# only on Bugzilla's own mail; X-Bugzilla-Component or "Component:" lines
# from anyone else change nothing, and with authserv_id the daemon's mail
# counts only when our server authenticated it
. "$(dirname "$0")/../lib.sh"
cat >"$T/MAINTAINERS" <<'MNT'
USB SUBSYSTEM
M:	Ursula Sb <us@example.org>
L:	linux-usb@vger.example.org
S:	Supported
F:	drivers/usb/

BLUETOOTH DRIVERS
M:	Blue Tooth <bt@example.org>
L:	linux-bluetooth@vger.example.org
S:	Supported
F:	drivers/bluetooth/

THE REST
M:	Linus <torvalds@example.org>
L:	linux-kernel@vger.example.org
S:	Buried alive in reporters
F:	*
F:	*/
MNT
cat >"$T/routes.conf" <<CONF
state_dir = $T/state
maintainers = $T/MAINTAINERS
rules_dir = $SRC/classifiers
router_address = triage@example.org
CONF
cat "$T/routes.conf" >"$T/auth.conf" &&
echo "authserv_id = mx.example.org" >>"$T/auth.conf"
export TRIAGE_CONFIG="$T/routes.conf"

# sections FILE: the section lines of explain's output, names and scores
cat >"$T/sections.sh" <<'SH'
sed -n '/^sections/,/^class/p' "$1" | sed '/^class/d' |
	sed 's/^sections//; s/^ *//'
SH

# mail FROM [HEADER]: a report filed as Drivers/Bluetooth, sent to the
# USB list, whose text names nothing of either
mail() {
	cat <<EML
From: $1
To: linux-usb@vger.example.org
Subject: [Bug 221400] New: laptop reboots when the dock is attached
Message-ID: <bug-221400-1@example.net>
Date: Thu, 01 Jan 2026 10:00:00 +0000
X-Bugzilla-Product: Drivers
X-Bugzilla-Component: Bluetooth
${2:-X-Mailer: composed}
MIME-Version: 1.0
Content-Type: text/plain; charset="UTF-8"

            Bug ID: 221400
           Product: Drivers
         Component: Bluetooth
          Reporter: someone@example.net

Since 6.18 my laptop reboots at once when I attach the dock; 6.17 was
fine.  It happens every time.
EML
}

test_setup 'the index of a composed MAINTAINERS' '
	"$TRIAGE" update >"$T/update.out" &&
	grep -q "^maintainers: 3 sections from" "$T/update.out"
'

test_expect_success 'kernel.org'\''s Bugzilla daemon: the component counts' '
	mail bugzilla-daemon@kernel.org >"$T/daemon.eml" &&
	"$TRIAGE" explain "$T/daemon.eml" >"$T/out.txt" &&
	sh "$T/sections.sh" "$T/out.txt" >"$T/daemon" &&
	head -n 1 "$T/daemon" | grep -q "^BLUETOOTH DRIVERS .*Bugzilla Drivers/Bluetooth 0.50"
'

test_expect_success 'a stranger'\''s X-Bugzilla-Component changes nothing' '
	mail "Mallory <mallory@example.net>" >"$T/forged.eml" &&
	"$TRIAGE" explain "$T/forged.eml" >"$T/out.txt" &&
	sh "$T/sections.sh" "$T/out.txt" >"$T/forged" &&
	mail "Mallory <mallory@example.net>" |
		grep -v "^X-Bugzilla-\|^ *Product:\|^ *Component:" >"$T/plain.eml" &&
	"$TRIAGE" explain "$T/plain.eml" >"$T/out.txt" &&
	sh "$T/sections.sh" "$T/out.txt" >"$T/plain" &&
	test_cmp "$T/plain" "$T/forged" &&
	head -n 1 "$T/forged" | grep -q "^USB SUBSYSTEM .*L: linux-usb@vger.example.org in To 0.40" &&
	! grep -q "Bugzilla\|BLUETOOTH" "$T/forged"
'

test_expect_success 'a daemon of another domain is a stranger' '
	mail bugzilla-daemon@example.net >"$T/other.eml" &&
	"$TRIAGE" explain "$T/other.eml" >"$T/out.txt" &&
	sh "$T/sections.sh" "$T/out.txt" >"$T/other" &&
	test_cmp "$T/plain" "$T/other"
'

test_expect_success 'with authserv_id, the daemon'\''s From must be authenticated' '
	TRIAGE_CONFIG="$T/auth.conf" "$TRIAGE" explain "$T/daemon.eml" >"$T/out.txt" &&
	sh "$T/sections.sh" "$T/out.txt" >"$T/unauth" &&
	test_cmp "$T/plain" "$T/unauth" &&
	mail bugzilla-daemon@kernel.org \
		"Authentication-Results: mx.evil.example; dkim=pass header.d=kernel.org" \
		>"$T/evil.eml" &&
	TRIAGE_CONFIG="$T/auth.conf" "$TRIAGE" explain "$T/evil.eml" >"$T/out.txt" &&
	sh "$T/sections.sh" "$T/out.txt" >"$T/evil" &&
	test_cmp "$T/plain" "$T/evil" &&
	mail bugzilla-daemon@kernel.org \
		"Authentication-Results: mx.example.org; dkim=pass header.d=kernel.org" \
		>"$T/auth.eml" &&
	TRIAGE_CONFIG="$T/auth.conf" "$TRIAGE" explain "$T/auth.eml" >"$T/out.txt" &&
	sh "$T/sections.sh" "$T/out.txt" >"$T/auth" &&
	test_cmp "$T/daemon" "$T/auth"
'

test_done
