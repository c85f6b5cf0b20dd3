#!/bin/sh
# t0010-layers: router/'s layers call only down (README "Layout")
#
# Run by 'make check-layers', which passes the build's layers and flags:
#   LAYER_LEVELS   the levels, lowest first; layers of one level (a,b)
#                  do not call each other: "lib stages store,net app cmd bin"
#   LINK_LAYERS    the archives in link order, highest first
#   LAYER_B        the build directory (objects, BUILD/L.a per layer)
#   LAYER_SKIP     objects linked alone, not checked (triage-client.o:
#                  without libc, its memcpy and the like are its own)
#   LAYER_CC, LAYER_CFLAGS, LAYER_LDFLAGS, LAYER_LIBS  compile and link
# The nm check finds every call in the wrong direction, between siblings
# too; the links show the archives' order alone refuses an upward call.
. "$(dirname "$0")/../lib.sh"

# every file under router/ but the commands has its line in README's
# "Layout" (a "name.[ch]" line names both)
test_expect_success 'README "Layout" names every file of router/ (the commands aside)' '
	sed -n "/^## Layout/,/^## /p" "$SRC/README.md" >"$T/layout" &&
	awk "/^ +[^ ]+\\.\\[ch\\] / { sub(/\\.\\[ch\\]/, \"\", \$1); print \$1 \".c\"; print \$1 \".h\"; next }
		/^ +[^ ]+\\.[ch] / { print \$1 }" "$T/layout" | sort -u >"$T/named" &&
	test -s "$T/named" &&
	(cd "$SRC/router" && find . -path ./cmd -prune -o -type f -name "*.[ch]" -print) |
		sed "s|.*/||" | sort -u >"$T/files" &&
	comm -23 "$T/files" "$T/named" >"$T/unnamed" &&
	{ test ! -s "$T/unnamed" || { echo "not in README Layout:"; cat "$T/unnamed"; false; }; }
'

if [ -z "$LAYER_LEVELS" ] || [ -z "$LINK_LAYERS" ] || [ -z "$LAYER_B" ]; then
	test_skip 'the layers: run by make check-layers (it passes the build and its flags)'
	test_done
fi

# layer_objects L - the objects of layer L: one per router/L/*.c (lib's
# with the embedded default configuration), each required to exist
layer_objects() {
	for c in "$SRC/router/$1"/*.c; do
		o=$LAYER_B/router/$1/$(basename "$c" .c).o &&
		case " $LAYER_SKIP " in
		*" $o "*) continue ;;
		esac &&
		{ test -f "$o" || { echo "$o: not built" >&2; return 1; }; } &&
		echo "$o" || return 1
	done &&
	if [ "$1" = lib ]; then
		echo "$LAYER_B/default_config.o"
	fi
}

# layer_symbols - "D SYMBOL LAYER LEVEL" for every global symbol an
# object of a layer defines, "U SYMBOL LAYER LEVEL OBJECT" for every one
# it needs from elsewhere
layer_symbols() {
	level=0 &&
	for group in $LAYER_LEVELS; do
		level=$((level + 1)) &&
		for l in $(echo "$group" | tr , " "); do
			layer_objects "$l" >"$T/objs" &&
			while read -r o; do
				nm -g --defined-only "$o" >"$T/nm" &&
				awk -v l="$l" -v n="$level" 'NF >= 3 { print "D", $3, l, n }' "$T/nm" &&
				nm -u "$o" >"$T/nm" &&
				awk -v l="$l" -v n="$level" -v o="${o#"$LAYER_B"/}" \
					'{ print "U", $NF, l, n, o }' "$T/nm" || return 1
			done <"$T/objs" || return 1
		done || return 1
	done
}

# wrong_calls - "OBJECT: SYMBOL, defined only in LAYER..." for every
# symbol an object needs that its own layer and the lower ones do not
# define, but a higher or a sibling layer does
wrong_calls() {
	layer_symbols >"$T/syms" &&
	awk '
		$1 == "D" { where[$2] = where[$2] " " $3; lvl[$2, $3] = $4; next }
		{
			if (!($2 in where)) next	# a library'"'"'s, or libc'"'"'s
			n = split(where[$2], ls, " "); ok = 0
			for (i = 1; i <= n; i++)
				if (ls[i] == $3 || lvl[$2, ls[i]] < $4) ok = 1
			if (!ok) print $5 ": " $2 ", defined only in" where[$2]
		}' "$T/syms"
}

test_expect_success 'no object calls a higher layer, or a sibling (nm -u of every object)' '
	wrong_calls >"$T/wrong" &&
	{ test ! -s "$T/wrong" || { cat "$T/wrong"; false; }; } &&
	# the check saw every layer, and calls between them
	for group in $LAYER_LEVELS; do
		for l in $(echo "$group" | tr , " "); do
			grep -q "^D [^ ]* $l " "$T/syms" || { echo "no symbol of $l"; return 1; }
		done || return 1
	done &&
	grep -q "^D audit_open store " "$T/syms" &&
	grep -q "^U audit_open app " "$T/syms"
'

test_expect_success 'the nm check finds a call up, and one between siblings' '
	cp "$T/syms" "$T/syms.real" &&
	{ cat "$T/syms.real" &&
	  echo "U audit_open lib 1 router/lib/probe.o" &&
	  echo "U smtp_client_new store 3 router/store/probe.o"; } >"$T/syms.fake" &&
	grep -q "^D audit_open store " "$T/syms.fake" &&
	grep -q "^D smtp_client_new net " "$T/syms.fake" &&
	layer_symbols() { cat "$T/syms.fake"; } &&
	wrong_calls >"$T/wrong" &&
	grep -qx "router/lib/probe.o: audit_open, defined only in store" "$T/wrong" &&
	grep -qx "router/store/probe.o: smtp_client_new, defined only in net" "$T/wrong" &&
	test "$(grep -c "/probe\.o: " "$T/wrong")" = 2
'

# probe_link LAYER SYMBOL - link a program whose one call, layer_probe(),
# is in an object added to LAYER's archive and calls SYMBOL; the
# archives in LINK_LAYERS order, never in a group; output in $T/link.out
probe_link() {
	rm -rf "$T/p" && mkdir "$T/p" &&
	printf "void %s(void);\nvoid layer_probe(void);\nvoid layer_probe(void) { %s(); }\n" \
		"$2" "$2" >"$T/p/probe.c" &&
	printf "void layer_probe(void);\nint main(void) { layer_probe(); return 0; }\n" \
		>"$T/p/main.c" &&
	$LAYER_CC $LAYER_CFLAGS -c -o "$T/p/probe.o" "$T/p/probe.c" &&
	$LAYER_CC $LAYER_CFLAGS -c -o "$T/p/main.o" "$T/p/main.c" &&
	archives= &&
	for l in $LINK_LAYERS; do
		if [ "$l" = "$1" ]; then
			cp "$LAYER_B/$l.a" "$T/p/$l.a" &&
			ar rcs "$T/p/$l.a" "$T/p/probe.o" &&
			archives="$archives $T/p/$l.a"
		else
			archives="$archives $LAYER_B/$l.a"
		fi || return 1
	done &&
	# shellcheck disable=SC2086
	$LAYER_CC $LAYER_LDFLAGS -o "$T/p/prog" "$T/p/main.o" $archives \
		$LAYER_LIBS >"$T/link.out" 2>&1
}

# first_function LAYER - a function LAYER's archive defines
first_function() {
	nm -g --defined-only "$LAYER_B/$1.a" >"$T/nm" &&
	awk '$2 == "T" { print $3; exit }' "$T/nm" | grep .
}

# refused SYMBOL - the last probe_link failed on SYMBOL (GNU ld, lld)
refused() {
	grep -Eq "undefined (reference to .|symbol: )$1" "$T/link.out" || {
		echo "the link did not fail on $1:" && cat "$T/link.out" && false
	}
}

test_expect_success 'lib calling audit_open (store) does not link; lib calling xstrdup (lib) does' '
	! probe_link lib audit_open &&
	refused audit_open &&
	probe_link lib xstrdup &&
	test -x "$T/p/prog"
'

test_expect_success 'each archive calling the one linked before it does not link; the other way does' '
	set -- $LINK_LAYERS &&
	test $# -ge 2 &&
	while [ $# -ge 2 ]; do
		high=$(first_function "$1") &&
		low=$(first_function "$2") &&
		echo "# $2 calling $high ($1): refused; $1 calling $low ($2): linked" &&
		{ ! probe_link "$2" "$high" || { echo "$2 -> $1 linked"; false; }; } &&
		refused "$high" &&
		{ probe_link "$1" "$low" || { cat "$T/link.out"; false; }; } &&
		shift || return 1
	done
'

test_done
