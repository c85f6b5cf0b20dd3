#!/bin/sh
# t0458-eval-real-causes: tools/eval-real.py counts held user reports by
# the cause their hold reason names (hold_cause(): the class prefix and
# the message's own words left out; act.c's list fallback, "<why the
# list>, but <why held>: ...", by its "but" clause; a bare "held for a
# triager" by the class that held it).  Its examples are doctests.
. "$(dirname "$0")/../lib.sh"

test_expect_success 'the hold causes of eval-real.py are the documented ones' '
	python3 -m doctest -v "$SRC/tools/eval-real.py" >"$T/doctest" &&
	grep -q "^[1-9][0-9]* passed and 0 failed" "$T/doctest"
'

test_done
