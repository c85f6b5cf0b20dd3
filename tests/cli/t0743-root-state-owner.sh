#!/bin/sh
# t0743-root-state-owner: root never writes into a state directory
# someone else can write (issue 21)
#
# The install's state directory belongs to a dedicated user (triage),
# group the triagers, mode 2770.  A triage command run as root becomes
# that user (groups, group, user, root checked gone) before it opens
# anything there; root's own directory that a group or anyone can write
# (the old root:triage 2770 install) is refused, saying how to fix it;
# root's own directory nobody else can write stays root's to write.
# Run as root (CI is); the user nobody plays the triage user, and the
# same commands are run as that user (setpriv) without root.
. "$(dirname "$0")/../lib.sh"
. "$SRC/tests/cli/lib-mail.sh"

C="$SRC/tests/corpus/abuse"
export TZ=UTC TRIAGE_USER=alice
unset TRIAGE_STATE_DIR # each case names its state directory in its routes.conf

if [ "$(id -u)" != 0 ] || ! id nobody >/dev/null 2>&1 || ! command -v setpriv >/dev/null; then
	test_skip "not root, or no user nobody or setpriv: root's state directory rules are not tested (t0740 has the non-root path)"
	test_done
fi
need_tools "root's state directory is not tested" sqlite3
# nobody runs the programs and reads what they read: public copies
test_public_copy tests/data classifiers tests/corpus/abuse
C="$SRC/tests/corpus/abuse"
routes_conf triage@example.org
NU=$(id -u nobody) && NG=$(id -g nobody)
# as_nobody CMD...: CMD as the user nobody, its own group alone
as_nobody() { setpriv --reuid "$NU" --regid "$NG" --clear-groups "$@"; }
# conf DIR: $T/DIR.conf, the state in $T/DIR
conf() { sed "s|^state_dir = .*|state_dir = $T/$1|" "$T/routes.conf" >"$T/$1.conf"; }
# root_files DIR: the files root owns in $T/DIR
root_files() { find "$T/$1" -mindepth 1 -user root | wc -l; }

test_expect_success 'setup: the install, a state directory nobody owns, group nogroup, 2770' '
	chmod 711 "$T" &&
	mkdir "$T/st" && chown "$NU:$NG" "$T/st" && chmod 2770 "$T/st" &&
	conf st &&
	as_nobody env TRIAGE_CONFIG="$T/st.conf" "$FILTER" <"$C/01-report.eml" &&
	test "$(stat -c %U "$T/st/triage.db")" = nobody
'

test_expect_success 'root: triage update becomes the owner, every file it makes is the owner'"'"'s' '
	TRIAGE_CONFIG="$T/st.conf" "$TRIAGE" update >"$T/update" &&
	test -s "$T/st/maintainers.idx" &&
	test "$(stat -c %U:%G "$T/st/maintainers.idx")" = "nobody:$(id -gn nobody)" &&
	test "$(root_files st)" = 0
'

test_expect_success 'root: the desk reads and writes as the owner (pending, approve, note)' '
	TRIAGE_CONFIG="$T/st.conf" "$TRIAGE" pending >"$T/pending" &&
	TRIAGE_CONFIG="$T/st.conf" "$TRIAGE" note 1 "seen as root" >"$T/note" &&
	test "$(sqlite3 "$T/st/triage.db" "SELECT detail FROM actions WHERE action = \"note\"")" = "seen as root" &&
	test "$(root_files st)" = 0
'

test_expect_success 'root: a command linked into another program (explain, triage-mime) runs as the owner too' '
	TRIAGE_CONFIG="$T/st.conf" "$TRIAGE" explain "$C/01-report.eml" >"$T/explain" &&
	grep "^class" "$T/explain" &&
	test "$(root_files st)" = 0
'

test_expect_success 'root: root'"'"'s own state directory a group can write (the old install) is refused, 73, and says how to fix it' '
	mkdir "$T/old" && chgrp "$NG" "$T/old" && chmod 2770 "$T/old" &&
	conf old &&
	test_exit 73 env TRIAGE_CONFIG="$T/old.conf" "$TRIAGE" update 2>"$T/err.old" &&
	test "$(wc -l <"$T/err.old")" = 1 &&
	grep "refusing to write as root into .*old.: root.s, group-writable (chown it to a dedicated user (e.g. .chown triage.), whom the triage commands run as root then become" "$T/err.old" &&
	test_exit 73 env TRIAGE_CONFIG="$T/old.conf" "$TRIAGE" pending 2>"$T/err.oldp" &&
	test -z "$(ls -A "$T/old")"
'

test_expect_success 'root: the filter run as root there writes nothing: 75 and one line (the MTA keeps the mail)' '
	test_exit 75 env TRIAGE_CONFIG="$T/old.conf" "$FILTER" <"$C/01-report.eml" >"$T/out.oldf" 2>"$T/err.oldf" &&
	test ! -s "$T/out.oldf" &&
	grep "refusing to write as root into .*old.: root.s, group-writable" "$T/err.oldf" &&
	test -z "$(ls -A "$T/old")"
'

test_expect_success 'root: world-writable, sticky or not, is refused too' '
	mkdir "$T/ww" && chmod 1777 "$T/ww" && conf ww &&
	test_exit 73 env TRIAGE_CONFIG="$T/ww.conf" "$TRIAGE" update 2>"$T/err.ww" &&
	grep "root.s, world-writable" "$T/err.ww" &&
	test_exit 75 env TRIAGE_CONFIG="$T/ww.conf" "$FILTER" <"$C/01-report.eml" 2>"$T/err.wwf" &&
	test -z "$(ls -A "$T/ww")"
'

test_expect_success 'root: the fix the message gives (chown to the user) makes it work' '
	chown -R "$NU" "$T/old" &&
	TRIAGE_CONFIG="$T/old.conf" "$TRIAGE" update >"$T/update.old" &&
	test "$(stat -c %U "$T/old/maintainers.idx")" = nobody &&
	test "$(root_files old)" = 0
'

test_expect_success 'root: root'"'"'s own directory nobody else can write (0755) stays root'"'"'s to write' '
	mkdir -m 755 "$T/mine" && conf mine &&
	TRIAGE_CONFIG="$T/mine.conf" "$TRIAGE" update >"$T/update.mine" &&
	TRIAGE_CONFIG="$T/mine.conf" "$FILTER" <"$C/01-report.eml" &&
	test "$(stat -c %U "$T/mine/maintainers.idx")" = root &&
	test "$(stat -c %U "$T/mine/triage.db")" = root
'

test_expect_success 'root: a "-h" that is a note'"'"'s text is no help request: root still becomes the owner' '
	TRIAGE_CONFIG="$T/st.conf" "$TRIAGE" note 1 -h >"$T/note.h" &&
	test "$(sqlite3 "$T/st/triage.db" "SELECT count(*) FROM actions WHERE action = \"note\" AND detail = \"-h\"")" = 1 &&
	test "$(root_files st)" = 0
'

test_expect_success 'root: experts import --git of root'"'"'s tree works after the drop (git trusts a root-owned repository)' '
	if ! command -v git >/dev/null; then
		echo "# git is not installed: the git case is not run" && return 0
	fi &&
	mkdir -p "$T/repo/fs/xfs" && echo x >"$T/repo/fs/xfs/xfs_inode.c" &&
	(cd "$T/repo" && export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null &&
	 git init -q && git add -A &&
	 git -c user.name=Alice -c user.email=alice@example.org commit -q -m "xfs: a fix

Reviewed-by: Bob <bob@example.org>") &&
	test "$(stat -c %U "$T/repo/.git")" = root &&
	TRIAGE_CONFIG="$T/st.conf" "$TRIAGE" experts import --git "$T/repo" --since all >"$T/imp.root" &&
	grep "^experts: 1 commits" "$T/imp.root" &&
	test "$(root_files st)" = 0 &&
	mkdir "$T/theirs" && cp -a "$T/repo/." "$T/theirs/" && chown -R 12345 "$T/theirs" &&
	test_exit 66 env TRIAGE_CONFIG="$T/st.conf" "$TRIAGE" experts import --git "$T/theirs" --since all 2>"$T/imp.theirs" &&
	grep "dubious ownership" "$T/imp.theirs" &&
	grep "git log in .*theirs. failed" "$T/imp.theirs"
'

test_expect_success 'not root: the owner runs the same commands as before (no check of root'"'"'s applies)' '
	as_nobody env TRIAGE_CONFIG="$T/st.conf" "$TRIAGE" update >"$T/update.nobody" &&
	as_nobody env TRIAGE_CONFIG="$T/st.conf" "$TRIAGE" pending >"$T/pending.nobody" &&
	mkdir "$T/grp" && chgrp "$NG" "$T/grp" && chmod 2770 "$T/grp" && conf grp &&
	as_nobody env TRIAGE_CONFIG="$T/grp.conf" "$FILTER" <"$C/01-report.eml" &&
	as_nobody env TRIAGE_CONFIG="$T/grp.conf" "$TRIAGE" update >"$T/update.grp" &&
	test "$(stat -c %U "$T/grp/triage.db")" = nobody
'

test_done
