#!/bin/sh
# t0205-explain-sections: how 'triage explain' ranks sections on composed
# reports: a test robot's compiler list (its error in a file MAINTAINERS
# does not know yet), the tree it built, a Bugzilla component's list
. "$(dirname "$0")/../lib.sh"
cat >"$T/MAINTAINERS" <<'MNT'
CLANG/LLVM BUILD SUPPORT
M:	Nora Clang <nc@example.org>
L:	llvm@lists.example.org
S:	Supported
F:	scripts/clang-tools/
K:	\b(?i:clang|llvm)\b

CLANG CONTROL FLOW INTEGRITY SUPPORT
M:	Cora Cfi <cc@example.org>
L:	llvm@lists.example.org
S:	Supported
F:	kernel/cfi.c

ZORP FILE SYSTEM CLIENT
M:	Zed Orp <zo@example.org>
L:	zorp-devel@vger.example.org
S:	Supported
T:	git git://git.example.org/zorp.git
F:	fs/zorp/

ZORP COMMON CODE
M:	Zed Orp <zo@example.org>
L:	zorp-devel@vger.example.org
S:	Supported
F:	net/zorp/

ZORP BLOCK DEVICE
M:	Zia Orp <zi@example.org>
L:	zorp-devel@vger.example.org
S:	Supported
F:	drivers/block/zorp.c

USB SUBSYSTEM
M:	Ursula Sb <us@example.org>
L:	linux-usb@vger.example.org
S:	Supported
F:	drivers/usb/

THUNDERBOLT DRIVER
M:	Theo Bolt <tb@example.org>
L:	linux-usb@vger.example.org
S:	Supported
F:	drivers/thunderbolt/

SECURITY SUBSYSTEM
M:	Sec Urity <su@example.org>
L:	linux-security-module@vger.example.org
S:	Supported
F:	security/

LANDLOCK SECURITY MODULE
M:	Lana Lock <ll@example.org>
L:	linux-security-module@vger.example.org
S:	Supported
F:	security/landlock/

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
export TRIAGE_CONFIG="$T/routes.conf"

# sections PICK: the section lines of explain's text output, names only
cat >"$T/sections.sh" <<'SH'
sed -n '/^sections/,/^class/p' "$1" | sed '/^class/d' |
	sed 's/^sections//; s/^ *//; s/  .*//'
SH

test_setup 'the index of a composed MAINTAINERS' '
	"$TRIAGE" update >"$T/update.out" &&
	grep -q "^maintainers: 10 sections from" "$T/update.out"
'

cat >"$T/robot.eml" <<'EML'
From: kernel test robot <lkp@intel.com>
To: Ada Author <ada@example.com>
Cc: llvm@lists.example.org, oe-kbuild-all@lists.linux.dev,
 zorp-devel@vger.example.org
Subject: [zorp:testing 3/7] include/linux/zlog/zlog.h:115:16: error: static
 assertion failed
Message-ID: <202601010000.robot1-lkp@intel.com>
Date: Thu, 01 Jan 2026 03:31:54 +0800
MIME-Version: 1.0
Content-Type: text/plain; charset=us-ascii

tree:   https://git.example.org/zorp.git testing
head:   0123456789abcdef0123456789abcdef01234567
commit: 89abcdef0123456789abcdef0123456789abcdef [3/7] zlog: add a logger
config: x86_64-allyesconfig (https://download.example.org/config)
compiler: clang version 17.0.6 (https://github.com/llvm/llvm-project 6009708b)
reproduce (this is a W=1 build): (https://download.example.org/reproduce)

If you fix the issue in a separate patch/commit (i.e. not just a new version of
the same patch/commit), kindly add following tags
| Reported-by: kernel test robot <lkp@intel.com>

All errors (new ones prefixed by >>):

>> include/linux/zlog/zlog.h:115:16: error: static assertion failed due to requirement
   115 |         static_assert(sizeof(x) == sizeof(unsigned long));

--
0-DAY CI Kernel Test Service
https://github.com/intel/lkp-tests/wiki
EML

test_expect_success 'the compiler of a robot build counts a quarter: its list speaks for how, not what' '
	"$TRIAGE" explain "$T/robot.eml" >"$T/out.txt" &&
	sh "$T/sections.sh" "$T/out.txt" >"$T/got" &&
	head -n 3 "$T/got" | sort >"$T/first" &&
	printf "ZORP BLOCK DEVICE\nZORP COMMON CODE\nZORP FILE SYSTEM CLIENT\n" >"$T/want" &&
	test_cmp "$T/want" "$T/first" &&
	grep -q "L: llvm@lists.example.org in Cc (the build.s compiler) 0.0" "$T/out.txt"
'

test_expect_success 'the reporter who writes of clang is heard in full' '
	sed "s/^All errors (new ones prefixed by >>):/Only clang builds fail this way./" \
		"$T/robot.eml" >"$T/robot2.eml" &&
	"$TRIAGE" explain "$T/robot2.eml" >"$T/out.txt" &&
	grep "CLANG/LLVM BUILD SUPPORT " "$T/out.txt" >"$T/clang" &&
	grep -q "L: llvm@lists.example.org in Cc 0.15" "$T/clang" &&
	grep -q "K: keyword in the text 0.15" "$T/clang" &&
	! grep -q "the build.s compiler" "$T/out.txt"
'

test_expect_success 'the tree a test robot built is its section'\''s T: and shown' '
	"$TRIAGE" explain "$T/robot.eml" >"$T/out.txt" &&
	sh "$T/sections.sh" "$T/out.txt" >"$T/got" &&
	head -n 1 "$T/got" >"$T/first" &&
	echo "ZORP FILE SYSTEM CLIENT" >"$T/want" &&
	test_cmp "$T/want" "$T/first" &&
	grep -q "T: tree the report built: git.example.org/zorp 0.75" "$T/out.txt"
'

test_expect_success 'mainline as the tree names no section' '
	sed "s|^tree:   .*|tree:   https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git master|" \
		"$T/robot.eml" >"$T/robot3.eml" &&
	"$TRIAGE" explain "$T/robot3.eml" >"$T/out.txt" &&
	! grep -q "T: tree" "$T/out.txt"
'

cat >"$T/bz.eml" <<'EML'
From: bugzilla-daemon@kernel.org
To: linux-usb@vger.example.org
Subject: [Bug 221399] New: dock reboots the laptop when a display is attached
Message-ID: <bug-221399-208809@https.bugzilla.kernel.org/>
Date: Thu, 01 Jan 2026 10:00:00 +0000
MIME-Version: 1.0
Content-Type: text/plain; charset="UTF-8"

https://bugzilla.kernel.org/show_bug.cgi?id=221399

            Bug ID: 221399
           Summary: dock reboots the laptop when a display is attached
           Product: Drivers
           Version: 2.5
          Hardware: All
                OS: Linux
            Status: NEW
          Severity: normal
          Priority: P3
         Component: USB
          Assignee: drivers_usb@kernel-bugs.kernel.org
          Reporter: someone@example.net
        Regression: No

With my USB4 dock attached, plugging a display into it reboots the
laptop at once.  Before the reboot the log shows the tunnel being set
up; I think drivers/thunderbolt/tunnel.c is where it goes wrong, since
reverting the DP tunnel change there makes it go away.

--
You may reply to this email to add a comment.
EML

test_expect_success 'a section on the Bugzilla component'\''s list with evidence of its own takes the component' '
	"$TRIAGE" explain "$T/bz.eml" >"$T/out.txt" &&
	sh "$T/sections.sh" "$T/out.txt" >"$T/got" &&
	printf "THUNDERBOLT DRIVER\nUSB SUBSYSTEM\n" >"$T/want" &&
	test_cmp "$T/want" "$T/got" &&
	grep -q "on the list of Bugzilla Drivers/USB: linux-usb@vger.example.org 0.50" "$T/out.txt"
'

test_done
