#!/bin/sh
# deps.sh check|install SET - the Debian packages a target needs
#
#   check SET    never changes the system: names the missing packages
#                and the apt-get line that installs them, and fails
#                (make, make all, make bench)
#   install SET  as root, installs what is missing (apt-get update once,
#                then apt-get install); otherwise as check (make deps,
#                make demo, make check)
# SET is build, test, demo, bench, ci or fuzz.
set -eu

build="gcc make pkg-config libgmime-3.0-dev libpcre2-dev libsqlite3-dev zlib1g-dev libcurl4-openssl-dev libjansson-dev libmicrohttpd-dev"
# tmux, less: the desk's terminal tests (tests/cli/lib-tmux.sh) run it in
# tmux, through less, at 160 and 80 columns, as a triager does
test="libcmocka-dev postfix python3 python3-aiosmtpd sqlite3 xz-utils git openssl tmux less"
bench="perl xz-utils git time sqlite3"
# .ci/run: the clang build and the format check
ci="clang clang-format"
# make fuzz / fuzz-ci: clang and its libFuzzer and sanitizer run-times
fuzz="clang libclang-rt-dev"
# The kernel source tree (symbol index, --tree tests, get_maintainer.pl
# baseline) comes from bookworm-security; tests that need it skip with a
# message when the archive does not offer it.
optional="linux-source-6.12"

case "${1:-}" in
check | install) mode=$1 ;;
*) echo "usage: deps.sh check|install build|test|demo|bench|ci" >&2; exit 64 ;;
esac
case "${2:-build}" in
build) want=$build; optional= ;;
test) want="$build $test" ;;
demo) want="$build xz-utils sqlite3 linux-source-6.12"; optional= ;;
bench) want="$build $bench" ;;
ci) want="$build $ci"; optional= ;;
fuzz) want="$build $fuzz"; optional= ;;
*) echo "deps.sh: unknown set '$2'" >&2; exit 64 ;;
esac

installed() {
	[ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = installed ]
}

missing=
for p in $want; do
	installed "$p" || missing="$missing $p"
done
missing_opt=
for p in $optional; do
	installed "$p" || missing_opt="$missing_opt $p"
done
[ -z "$missing$missing_opt" ] && exit 0

if [ "$mode" = check ] || [ "$(id -u)" != 0 ]; then
	if [ "$mode" = check ]; then
		how="install them as root with 'make deps', or"
	else
		how="as root, run"
	fi
	if [ -z "$missing" ]; then
		echo "note: without$missing_opt some tests and benchmarks are skipped; as root, run:" >&2
		echo "  apt-get update && apt-get install -y --no-install-recommends$missing_opt" >&2
		exit 0
	fi
	echo "missing Debian packages:$missing; $how:" >&2
	echo "  apt-get update && apt-get install -y --no-install-recommends$missing$missing_opt" >&2
	exit 1
fi
echo "installing:$missing$missing_opt"
export DEBIAN_FRONTEND=noninteractive
case " $missing " in
*" postfix "*)
	# Local delivery only; CI and demo configure the rest themselves.
	echo "postfix postfix/main_mailer_type select Local only" | debconf-set-selections
	echo "postfix postfix/mailname string triage.localdomain" | debconf-set-selections
	;;
esac
apt-get update -qq
if [ -n "$missing" ]; then
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
for p in $missing_opt; do
	if apt-cache show "$p" >/dev/null 2>&1; then
		apt-get install -y -qq --no-install-recommends "$p" >/dev/null
	else
		echo "note: Debian package $p is not available here; tests that need it are skipped" >&2
	fi
done
