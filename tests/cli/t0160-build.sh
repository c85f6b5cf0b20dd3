#!/bin/sh
# t0160-build: the programs are hardened executables, and 'make' never
# installs a package (it names the missing ones); 'make deps' does
. "$(dirname "$0")/../lib.sh"

if ! command -v readelf >/dev/null; then
	test_skip 'readelf (binutils) is not installed: the programs are not inspected'
	test_done
	exit 0
fi

# hardened FILE: a PIE (ELF type DYN) with full RELRO (a GNU_RELRO
# segment, bound at start: BIND_NOW) and the stack protector
hardened() {
	readelf -hW "$1" >"$T/h" && grep -q "Type: *DYN " "$T/h" &&
	readelf -lW "$1" >"$T/l" && grep -q "GNU_RELRO" "$T/l" &&
	readelf -dW "$1" >"$T/d" &&
	grep -Eq "\(FLAGS\) +BIND_NOW|\(FLAGS_1\) +Flags: NOW" "$T/d" &&
	readelf -sW "$1" | grep -q " __stack_chk_fail"
}

test_expect_success 'triage, triage-filter, triage-mime, triage-net: hardened PIEs, fortified' '
	for p in triage triage-filter triage-mime triage-net; do
		test -x "$SRC/$p" &&
		{ hardened "$SRC/$p" || { echo "$p is not hardened"; false; }; } &&
		{ grep -q "INTERP" "$T/l" || { echo "$p has no loader"; false; }; } &&
		# _FORTIFY_SOURCE when the build used it (it needs -O)
		if grep -q -- "-D_FORTIFY_SOURCE=2" "$SRC/build/FLAGS"; then
			readelf -sW --dyn-syms "$SRC/$p" >"$T/syms" &&
			{ grep -Eq " __[a-z_]+_chk" "$T/syms" ||
				{ echo "$p: no fortified call"; false; }; }
		fi || return 1
	done &&
	readelf -dW "$SRC/triage-filter" | grep -q "NEEDED.*libgmime" &&
	readelf -dW "$SRC/triage-filter" | grep -q "NEEDED.*libsqlite3" &&
	readelf -dW "$SRC/triage-filter" | grep -q "NEEDED.*libc\.so"
'

test_expect_success 'triage-client: a PIE with RELRO and the stack protector (a static one without libc on x86-64)' '
	hardened "$SRC/triage-client" &&
	if readelf -hW "$SRC/triage-client" | grep -q "X86-64" &&
	   ! grep -q INTERP "$T/l"; then
		# no loader, no library: its own relocations, all relative
		! grep -q NEEDED "$T/d" &&
		readelf -rW "$SRC/triage-client" >"$T/r" &&
		! grep -E "^[0-9a-f]+ +[0-9a-f]+ R_" "$T/r" | grep -v R_X86_64_RELATIVE
	fi &&
	# and it runs: no resident filter, so triage-filter does the work
	"$SRC/triage-client" -s "$T/none.sock" <"$SRC/tests/corpus/explain/0001-user-xfs-oops.eml" &&
	test "$(sqlite3 "$T/state/triage.db" "select count(*) from reports")" = 1 &&
	test_exit 75 "$SRC/triage-client" -x 2>"$T/err" &&
	grep -q "^triage-client: usage" "$T/err"
'

# link_line ARGS: the command make would link triage-filter with
link_line() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$SRC" \
		--no-print-directory -n -B triage-filter "$@" >"$T/n" 2>&1 &&
	grep -e "-o triage-filter " "$T/n"
}

test_expect_success 'triage-filter: relative relocations packed only where the link it makes can' '
	link_line >"$T/link" &&
	if grep -q "pack-relative-relocs" "$T/link"; then
		readelf -SW "$SRC/triage-filter" | grep -q " \.relr\.dyn "
	fi &&
	# the probe links with the flags the link uses: gold has no DT_RELR
	if command -v ld.gold >/dev/null; then
		link_line LDFLAGS=-fuse-ld=gold >"$T/link" &&
		grep -q -- "-fuse-ld=gold" "$T/link" &&
		! grep -q "pack-relative-relocs" "$T/link"
	fi &&
	# and leaves no scratch file behind
	test -c /dev/null &&
	! ls "$SRC/build" | grep -q relr-probe
'

# A system where one build package is missing, as root: dpkg-query says
# so of libgmime-3.0-dev, id says 0, apt-get only records its calls.
mkdir -p "$T/bin" &&
cat >"$T/bin/dpkg-query" <<'EOF'
#!/bin/sh
for p; do :; done
[ "$p" = libgmime-3.0-dev ] && printf 'not-installed' || printf 'installed'
EOF
cat >"$T/bin/id" <<'EOF'
#!/bin/sh
echo 0
EOF
cat >"$T/bin/apt-get" <<EOF
#!/bin/sh
echo "apt-get \$*" >>"$T/apt-get.log"
EOF
chmod 755 "$T/bin/dpkg-query" "$T/bin/id" "$T/bin/apt-get"
# fresh_make ARGS: make in the source tree, not part of any outer make
fresh_make() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL PATH="$T/bin:$PATH" \
		make -C "$SRC" --no-print-directory "$@"
}

test_expect_success 'make (all) as root with a package missing: names it and the apt-get line, installs nothing' '
	test "$(PATH="$T/bin:$PATH" id -u)" = 0 &&
	rm -f "$T/apt-get.log" &&
	! fresh_make all >"$T/out" 2>"$T/err" &&
	grep -q "missing Debian packages: libgmime-3.0-dev" "$T/err" &&
	grep -q "apt-get install -y --no-install-recommends libgmime-3.0-dev" "$T/err" &&
	test ! -e "$T/apt-get.log" &&
	! fresh_make >"$T/out" 2>"$T/err" &&
	grep -q "libgmime-3.0-dev" "$T/err" &&
	test ! -e "$T/apt-get.log"
'

test_expect_success 'make deps as root installs what is missing' '
	fresh_make deps >"$T/out" 2>"$T/err" &&
	grep -q "^apt-get install .*libgmime-3.0-dev" "$T/apt-get.log" &&
	test "$(grep -c "^apt-get install" "$T/apt-get.log")" = 1
'

test_done
