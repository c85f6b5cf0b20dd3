#!/bin/sh
# t0100-map: 'triage map' and 'triage update' on a fixture MAINTAINERS
. "$(dirname "$0")/../lib.sh"
D="$SRC/tests/data"
M="$D/MAINTAINERS.quirks"

test_expect_success 'paths on stdin: one line per path, best section first' '
	"$TRIAGE" map --maintainers "$M" <"$D/map-paths" >"$T/actual" &&
	test_cmp "$D/map.expect" "$T/actual"
'

test_expect_success 'paths as arguments give the same lines' '
	"$TRIAGE" map --maintainers "$M" $(cat "$D/map-paths") >"$T/actual" &&
	test_cmp "$D/map.expect" "$T/actual"
'

test_expect_success 'triage update compiles an index that maps the same' '
	"$TRIAGE" update --maintainers "$M" --output "$T/m.idx" >"$T/update.out" &&
	grep -q "^maintainers: 8 sections from" "$T/update.out" &&
	"$TRIAGE" map --index "$T/m.idx" <"$D/map-paths" >"$T/actual" &&
	test_cmp "$D/map.expect" "$T/actual"
'

test_expect_success 'without options map uses the index in state_dir' '
	"$TRIAGE" update --maintainers "$M" &&
	test -f "$TRIAGE_STATE_DIR/maintainers.idx" &&
	"$TRIAGE" map <"$D/map-paths" >"$T/actual" &&
	test_cmp "$D/map.expect" "$T/actual"
'

test_expect_success 'a tree decides directory patterns on disk' '
	mkdir -p "$T/tree/drivers/cec" "$T/tree/drivers/misc" &&
	printf "drivers/cec-notifier.c\ndrivers/cec/core.c\n" >"$T/in" &&
	"$TRIAGE" map --maintainers "$M" --tree "$T/tree" <"$T/in" >"$T/actual" &&
	printf "drivers/cec-notifier.c\tTHE REST\ndrivers/cec/core.c\tDIRECTORY WITHOUT SLASH | THE REST\n" >"$T/expect" &&
	test_cmp "$T/expect" "$T/actual" &&
	"$TRIAGE" map --maintainers "$M" <"$T/in" >"$T/actual" &&
	printf "drivers/cec-notifier.c\tDIRECTORY WITHOUT SLASH | THE REST\ndrivers/cec/core.c\tDIRECTORY WITHOUT SLASH | THE REST\n" >"$T/expect" &&
	test_cmp "$T/expect" "$T/actual"
'

test_expect_success '--json lists status and M: R: L: B: per section' '
	"$TRIAGE" map --maintainers "$M" --json drivers/net/ethernet/acme/a.c >"$T/out.json" &&
	python3 - "$T/out.json" <<-PY
	import json, sys
	d = json.load(open(sys.argv[1]))
	assert len(d) == 1 and d[0]["path"] == "drivers/net/ethernet/acme/a.c", d
	s = d[0]["sections"]
	assert [x["name"] for x in s] == ["ACME NETWORK DRIVER", "NETWORKING DRIVERS", "THE REST"], s
	a = s[0]
	assert a["status"] == "Maintained"
	assert a["maintainers"] == ["Alice Acme <alice@acme.example>"]
	assert a["reviewers"] == ["Rob Reviewer <rob@acme.example>"]
	assert a["lists"] == ["netdev@vger.kernel.org"]
	assert a["bug_entries"] == ["mailto:acme-bugs@acme.example"]
	assert a["depth"] == 4 and s[2]["depth"] == -1
	PY
'

test_expect_success '--content adds sections whose K: keywords occur' '
	printf "static int poll(void)\n{\n\tnapi_schedule(&n);\n}\n" >"$T/c.c" &&
	"$TRIAGE" map --maintainers "$M" --content "$T/c.c" drivers/misc/x/y.c >"$T/actual" &&
	printf "drivers/misc/x/y.c\tTHE REST | NETWORKING [GENERAL]\n" >"$T/expect" &&
	test_cmp "$T/expect" "$T/actual"
'

test_expect_success 'control characters in a path do not reach the output' '
	printf "net/a\033[31mb.c\n" | "$TRIAGE" map --maintainers "$M" >"$T/actual" &&
	printf "net/a?[31mb.c\tNETWORKING [GENERAL] | THE REST\n" >"$T/expect" &&
	test_cmp "$T/expect" "$T/actual"
'

test_expect_success 'usage errors exit 64, a missing MAINTAINERS is reported' '
	test_exit 64 "$TRIAGE" map --no-such-option &&
	test_exit 64 "$TRIAGE" no-such-command &&
	test_exit 78 "$TRIAGE" map --maintainers "$T/missing" a.c 2>"$T/err" &&
	grep -q "cannot open" "$T/err"
'

test_expect_success 'a corrupt index is refused with advice' '
	head -c 100 "$T/m.idx" >"$T/bad.idx" &&
	test_exit 78 "$TRIAGE" map --index "$T/bad.idx" a.c 2>"$T/err" &&
	grep -q "triage update" "$T/err"
'

test_done
