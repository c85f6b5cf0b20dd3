#!/bin/sh
# t0206-claims-site: a WARNING or BUG line's file:line is checked against
# the function it names in the tree indexed (claims_site.c), and so is a
# file.c:LINE of the prose against the functions its sentence names
# (claims_cited.c)
. "$(dirname "$0")/../lib.sh"
cat >"$T/routes.conf" <<CONF
state_dir = $T/state
maintainers = $SRC/tests/data/MAINTAINERS.kernel
rules_dir = $SRC/classifiers
router_address = triage@example.org
CONF
export TRIAGE_CONFIG="$T/routes.conf"
# a 6.12 tree: foo_helper (lines 1-4), inlined into foo_work (65-68);
# foo_other (129-132), which foo_work never calls
mkdir -p "$T/tree/drivers/foo"
cat >"$T/tree/Makefile" <<'EOF'
VERSION = 6
PATCHLEVEL = 12
SUBLEVEL = 3
EXTRAVERSION =
EOF
python3 - "$T/tree/drivers/foo/foo.c" <<'PY'
import sys
gap = "\n" * 60
open(sys.argv[1], "w").write(
    "static void foo_helper(int x)\n{\n\tWARN_ON(x);\n}\n" + gap +
    "void foo_work(void)\n{\n\tfoo_helper(1);\n}\n" + gap +
    "int foo_other(void)\n{\n\treturn 0;\n}\n")
PY
test_setup 'index the tree' '
	"$TRIAGE" update --kernel-tree "$T/tree" >"$T/update.out" &&
	grep -q "^symbols: " "$T/update.out"
'

# msg FILE LINE VERSION: a warning at drivers/foo/foo.c:LINE in foo_work
msg() {
	cat >"$1" <<EOF
From: Some One <someone@example.com>
To: bugs@example.org
Subject: foo: WARNING in foo_work
Message-ID: <site-$2-$3@example.com>

Seen once while idle:

[   12.345678] ------------[ cut here ]------------
[   12.345679] WARNING: CPU: 1 PID: 42 at drivers/foo/foo.c:$2 foo_work+0x12/0x40 [foo]
[   12.345690] CPU: 1 UID: 0 PID: 42 Comm: kworker/1:1 Not tainted $3 #1
[   12.345700] RIP: 0010:foo_work+0x12/0x40 [foo]
[   12.345710] Call Trace:
[   12.345711]  <TASK>
[   12.345712]  foo_work+0x12/0x40 [foo]
[   12.345713]  process_one_work+0x176/0x330
[   12.345714]  </TASK>
EOF
}

test_expect_success 'a site in a function the named one inlines holds' '
	msg "$T/inlined.eml" 3 6.12.3 &&
	"$TRIAGE" explain "$T/inlined.eml" >"$T/out.txt" &&
	grep -q "^claims    .*sites 0/1" "$T/out.txt" &&
	! grep -q AI_FALSE_SITE "$T/out.txt"
'

test_expect_success 'a site in a function the named one never calls fails, and says why against which tree' '
	msg "$T/false.eml" 131 6.12.3 &&
	"$TRIAGE" explain "$T/false.eml" >"$T/out.txt" &&
	grep -q "^claims    .*sites 1/1" "$T/out.txt" &&
	grep -q "drivers/foo/foo.c:131 (the report.s foo_work() site): in or near foo_other(), which foo_work() does not reach within the file in the tree indexed" "$T/out.txt" &&
	grep -q "against the tree indexed, Linux 6.12.3" "$T/out.txt" &&
	grep -q "AI_FALSE_SITE" "$T/out.txt" &&
	"$TRIAGE" explain --json "$T/false.eml" >"$T/out.json" &&
	python3 - "$T/out.json" <<-\PY
	import json, sys
	d = json.load(open(sys.argv[1]))
	c = d["claims"]
	assert c["kinds"]["sites"] == [1, 1], c
	# one false check of few, nothing else: not ai on its own
	assert d["class"] != "ai", d["class"]
	PY
'

test_expect_success 'a past-the-end site fails; another release is not checked' '
	msg "$T/end.eml" 7463 6.12.3 &&
	"$TRIAGE" explain "$T/end.eml" >"$T/out.txt" &&
	grep -q "foo.c:7463 .*: past its end (132 lines)" "$T/out.txt" &&
	msg "$T/newer.eml" 131 6.13.1 &&
	"$TRIAGE" explain "$T/newer.eml" >"$T/out.txt" &&
	! grep -q "sites" "$T/out.txt"
'

# cited FILE CITED VERSION: an analysis citing CITED beside foo_work()
cited() {
	cat >"$1" <<EOF
From: Some One <someone@example.com>
To: bugs@example.org
Subject: foo: use-after-free in foo_work
Message-ID: <cited-$2-$3@example.com>

Kernel: $3

Analysis:

The worker foo_work() touches the buffer after it was freed
($2). Moving the free after the loop fixes it.
EOF
}

test_expect_success 'a cited line in the function the sentence names holds' '
	cited "$T/inside.eml" drivers/foo/foo.c:66 6.12.3 &&
	"$TRIAGE" explain "$T/inside.eml" >"$T/out.txt" &&
	grep -q "^claims    .*cited_lines 0/1" "$T/out.txt" &&
	! grep -q AI_FALSE_CITED "$T/out.txt"
'

test_expect_success 'a cited line in a function the named one never reaches fails, and says why against which tree' '
	cited "$T/false.eml" foo.c:131 6.12.3 &&
	"$TRIAGE" explain "$T/false.eml" >"$T/out.txt" &&
	grep -q "^claims    .*cited_lines 1/1" "$T/out.txt" &&
	grep -q "foo.c:131 (cited beside foo_work()): in or near foo_other(), which foo_work() does not reach within the file in the tree indexed" "$T/out.txt" &&
	grep -q "against the tree indexed, Linux 6.12.3" "$T/out.txt" &&
	grep -q "AI_FALSE_CITED" "$T/out.txt" &&
	"$TRIAGE" explain --json "$T/false.eml" >"$T/out.json" &&
	python3 - "$T/out.json" <<-\PY
	import json, sys
	d = json.load(open(sys.argv[1]))
	c = d["claims"]
	assert c["kinds"]["cited_lines"] == [1, 1], c
	# one false check of few, nothing else: not ai on its own
	assert d["class"] != "ai", d["class"]
	PY
'

test_expect_success 'another release, or a vendor build of the release, is not checked' '
	cited "$T/newer.eml" drivers/foo/foo.c:131 6.13.1 &&
	"$TRIAGE" explain "$T/newer.eml" >"$T/out.txt" &&
	! grep -q "cited_lines" "$T/out.txt" &&
	cited "$T/vendor.eml" drivers/foo/foo.c:131 6.12.0-55.el10.x86_64 &&
	"$TRIAGE" explain "$T/vendor.eml" >"$T/out.txt" &&
	! grep -q "cited_lines" "$T/out.txt"
'

test_done
