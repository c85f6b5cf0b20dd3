# lib-mail.sh - mail through the real triage-filter, read back from the
# database: what the scripts that work a report by mail share
#
# A script sources it after lib.sh (. "$SRC/tests/cli/lib-mail.sh");
# tests/chainlint.py then checks the &&-chains of the functions here that
# a test body runs.  Everything reads the state in $T/state ($DB), the
# one routes_conf writes.
#
# need_tools WHAT TOOL... - skip the whole script when a TOOL is missing
#	(WHAT says what then goes untested: "fixes are not tested")
# routes_conf ROUTER [LINE...] - write $T/routes.conf (TRIAGE_CONFIG)
# q SQL - run SQL on $DB
# feed FILE - FILE through the filter, naming it when that fails
# msg WHERE - the outbox rows' messages as sent
# id_of MESSAGE-ID - the report that message became
# forwarded_to ID - the recipient of report ID's newest queued forward
# replies_to ADDR - how many reply rows go to ADDR
# reply FROM ID BODY [HEADER...] - a reply to bugs@ in the script's
#	thread, fed to the filter (the script sets REPLY_PARENT and
#	REPLY_SUBJECT)

DB="$T/state/triage.db"

# need_tools WHAT TOOL... - a test cannot run without each TOOL: with one
# missing, the script is one skip (counted in the summary), not failures
need_tools() {
	_what=$1 &&
	shift &&
	for _tool in "$@"; do
		if ! command -v "$_tool" >/dev/null; then
			test_skip "$_tool is not installed: $_what" &&
			test_done
		fi || return 1
	done
}

# routes_conf ROUTER [LINE...] - $T/routes.conf for a state in $T/state:
# the test MAINTAINERS (unless a LINE sets "maintainers = ..."), the
# shipped classifiers, router_address ROUTER, then each LINE as given
# (what the script needs besides), and no address-space cap.  ROUTER is
# a parameter: the forwards' X-Loop and the reports' own
# bugs+ID-TOKEN@ addresses the tests check come from it.
routes_conf() {
	_router=$1 &&
	shift &&
	_maint="maintainers = $SRC/tests/data/MAINTAINERS.kernel" &&
	for _line in "$@"; do
		case $_line in "maintainers ="*) _maint= ;; esac || return 1
	done &&
	{
		printf '%s\n' "state_dir = $T/state" ${_maint:+"$_maint"} \
			"rules_dir = $SRC/classifiers" \
			"router_address = $_router" &&
		if [ $# -gt 0 ]; then printf '%s\n' "$@"; fi &&
		echo "# AddressSanitizer reserves terabytes of address space (make SANITIZE=...)" &&
		echo "filter_memory_mb = 0"
	} >"$T/routes.conf"
}

# q SQL - SQL on the state's database, sqlite3's list output
q() { sqlite3 "$DB" "$1"; }

# feed FILE - FILE through the filter; a failure names the file (a loop
# over a corpus would not say which)
feed() { "$FILTER" <"$1" || { echo "filter failed on $1"; return 1; }; }

# msg WHERE - the outbox rows' messages as sent: schema 4 keeps of a
# forward only its head, which ends where the stored original goes on
msg() {
	sqlite3 "$DB" "SELECT cast(o.message || coalesce(substr(m.raw, o.raw_offset + 1), x'') as blob)
	  FROM outbox o LEFT JOIN messages m ON m.report = o.raw_report WHERE $1"
}

# id_of MESSAGE-ID - the report that message became (the newest of that id)
id_of() { q "SELECT max(id) FROM reports WHERE message_id = '$1'"; }

# forwarded_to ID - the recipient of report ID's newest queued forward
forwarded_to() {
	q "SELECT recipients FROM outbox WHERE report = $1 AND kind = 'forward'
	   AND state = 'queued' ORDER BY id DESC LIMIT 1"
}

# replies_to ADDR - reply rows (confirmations, requests, notes) to ADDR
replies_to() { q "SELECT count(*) FROM outbox WHERE kind = 'reply' AND recipients = '$1'"; }

# reply FROM ID BODY [HEADER...] - $T/ID.eml, a reply from FROM to
# bugs@example.org with Message-ID <ID>, in the thread of the report
# <$REPLY_PARENT>, Subject $REPLY_SUBJECT, each HEADER after its Date;
# then fed to the filter
reply() {
	_from=$1 _id=$2 _body=$3 &&
	shift 3 &&
	{
		printf 'From: %s\nTo: bugs@example.org\n' "$_from" &&
		printf 'Subject: %s\n' "$REPLY_SUBJECT" &&
		printf 'Message-ID: <%s>\nIn-Reply-To: <%s>\n' "$_id" "$REPLY_PARENT" &&
		printf 'References: <%s>\n' "$REPLY_PARENT" &&
		printf 'Date: Tue, 01 Dec 2026 10:00:00 +0000\n' &&
		for _h in "$@"; do printf '%s\n' "$_h" || return 1; done &&
		printf 'MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n' &&
		printf '%s\n' "$_body"
	} >"$T/$_id.eml" &&
	"$FILTER" <"$T/$_id.eml"
}
