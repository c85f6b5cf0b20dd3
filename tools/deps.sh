#!/bin/sh
# deps.sh [build|test|demo|bench] - make sure the Debian packages a target needs are installed
#
# As root, missing packages are installed (apt-get update once, then
# apt-get install).  Otherwise the exact apt-get line is printed and the
# script fails, so make stops before a confusing compiler error.
set -eu

build="gcc make pkg-config libgmime-3.0-dev libpcre2-dev libsqlite3-dev zlib1g-dev libcurl4-openssl-dev libjansson-dev libmicrohttpd-dev"
test="libcmocka-dev linux-source-6.12 postfix python3-aiosmtpd sqlite3 xz-utils"
bench="linux-source-6.12 perl xz-utils"

case "${1:-build}" in
build) want=$build ;;
test) want="$build $test" ;;
demo) want="$build linux-source-6.12 xz-utils sqlite3" ;;
bench) want="$build $bench" ;;
*) echo "deps.sh: unknown set '$1'" >&2; exit 64 ;;
esac

missing=
for p in $want; do
	s=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$s" = installed ] || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "missing Debian packages; as root run:" >&2
	echo "  apt-get update && apt-get install -y --no-install-recommends$missing" >&2
	exit 1
fi
echo "installing:$missing"
export DEBIAN_FRONTEND=noninteractive
case " $missing " in
*" postfix "*)
	# Local delivery only; CI and demo configure the rest themselves.
	echo "postfix postfix/main_mailer_type select Local only" | debconf-set-selections
	echo "postfix postfix/mailname string triage.localdomain" | debconf-set-selections
	;;
esac
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
