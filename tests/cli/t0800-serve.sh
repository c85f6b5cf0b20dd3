#!/bin/sh
# t0800-serve: 'triage serve' takes Bugzilla webhooks (token, size and
# time limits, strict JSON, durable and deduplicated), re-fetches each bug
# from a fake Bugzilla REST server and records a report and its forward;
# 'triage bugzilla poll' finds changed bugs without duplicates; 'triage
# deliver' sends the queued mail over SMTP (aiosmtpd) and retries a 4xx.
. "$(dirname "$0")/../lib.sh"

PY=python3
NET="$SRC/triage-net"
SERVE_PID=
BZ_PID=
SMTP_PID=

stop_servers() {
	for f in "$T/peer.pid" "$T/serve.pid"; do
		[ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
	done
	for p in $SERVE_PID $BZ_PID $SMTP_PID; do
		kill "$p" 2>/dev/null
	done
	for p in $SERVE_PID $BZ_PID $SMTP_PID; do
		wait "$p" 2>/dev/null
	done
	SERVE_PID= BZ_PID= SMTP_PID=
}
trap 'stop_servers; rm -rf "$T"' EXIT
trap 'exit 1' INT TERM

if ! [ -x "$NET" ] || ! command -v sqlite3 >/dev/null ||
   ! $PY -c 'import http.server' 2>/dev/null; then
	test_skip "needs triage-net, sqlite3 and python3"
	test_done
fi

# ---- fixtures of our own: a MAINTAINERS, the bug documents -------------

cat >"$T/MAINTAINERS" <<-\EOF
	List of maintainers

	INTEL WIRELESS WIFI LINK (iwlwifi)
	M:	Wifi Maintainer <wifi@example.org>
	L:	linux-wireless@vger.kernel.org
	S:	Supported
	F:	drivers/net/wireless/intel/iwlwifi/

	THE REST
	M:	Linus Torvalds <torvalds@example.org>
	L:	linux-kernel@vger.kernel.org
	S:	Buried alive in reporters
	F:	*
	F:	*/
EOF
mkdir -p "$T/bz"
# bug N, created at TIME, changed at CHANGED
make_bug() {
	cat >"$T/bz/bug-$1.json" <<-EOF
	{"faults": [], "bugs": [{"id": $1, "summary": "iwlwifi: wifi stops after resume ($1)",
	 "product": "Drivers", "component": "network-wireless", "version": "2.5",
	 "status": "NEW", "resolution": "", "severity": "normal", "priority": "P3",
	 "creator": "jane@example.net", "creator_detail": {"id": 7, "real_name": "Jane Reporter",
	 "name": "jane@example.net", "email": "jane@example.net"},
	 "assigned_to": "drivers_network-wireless@kernel-bugs.example.org",
	 "keywords": ["regression"], "creation_time": "2024-04-01T10:00:00Z",
	 "last_change_time": "$2", "is_private": false}]}
	EOF
	cat >"$T/bz/comments-$1.json" <<-EOF
	{"bugs": {"$1": {"comments": [
	 {"id": $(($1 * 10 + 1)), "bug_id": $1, "count": 1, "text": "Me too.",
	  "creator": "other@example.net", "creation_time": "2024-04-02T10:00:00Z",
	  "is_private": false, "attachment_id": null, "tags": []},
	 {"id": $(($1 * 10)), "bug_id": $1, "count": 0, "creator": "jane@example.net",
	  "creation_time": "2024-04-01T10:00:00Z", "is_private": false,
	  "attachment_id": null, "tags": [],
	  "text": "After upgrading from 6.7 to 6.8 on my ThinkPad X1 Carbon running Debian,\nthe wifi stops working after every resume from suspend. It worked fine\non 6.7.12. I bisected it to the first bad commit in\ndrivers/net/wireless/intel/iwlwifi/mvm/ops.c.\n\ndmesg shows:\n[  123.456789] iwlwifi 0000:00:14.3: Microcode SW error detected.\n"}]}},
	 "comments": {}}
	EOF
}
make_bug 4242 2024-04-03T08:00:00Z
make_bug 4243 2024-04-03T09:00:00Z
sed -i 's/"is_private": false}/"is_private": false, "groups": ["security"]}/' "$T/bz/bug-4243.json"
make_bug 4300 2024-04-05T12:00:00Z
make_bug 4301 2024-04-06T12:00:00Z
make_bug 4302 2024-04-07T10:00:00Z
# a syzbot report, for the digest
cat >"$T/syz.txt" <<-\EOF
	syzbot found the following issue on:

	HEAD commit:    abcdef012345 Merge tag
	git tree:       upstream
	dashboard link: https://syzkaller.appspot.com/bug?extid=0123456789abcdef

	IMPORTANT: if you fix the issue, please add the following tag to the commit:
	Reported-by: syzbot+0123456789abcdef@syzkaller.appspotmail.com

	==================================================================
	BUG: KASAN: use-after-free in iwl_mvm_rx+0x123/0x456 drivers/net/wireless/intel/iwlwifi/mvm/ops.c:1234
	Read of size 8 at addr ffff888012345678 by task syz-executor.0/1234

	CPU: 0 PID: 1234 Comm: syz-executor.0 Not tainted 6.8.0-syzkaller #0
	Hardware name: Google Google Compute Engine/Google Compute Engine, BIOS Google 01/01/2024
	Call Trace:
	 <TASK>
	 iwl_mvm_rx+0x123/0x456 drivers/net/wireless/intel/iwlwifi/mvm/ops.c:1234
	 </TASK>
EOF
$PY - "$T/syz.txt" "$T/bz" <<-\EOF
	import json, sys
	text, d = open(sys.argv[1]).read(), sys.argv[2]
	who = 'syzbot+0123456789abcdef@syzkaller.appspotmail.com'
	json.dump({'bugs': [{'id': 4400, 'summary': 'KASAN: use-after-free Read in iwl_mvm_rx',
	           'product': 'Drivers', 'creator': who, 'creation_time': '2024-04-08T10:00:00Z',
	           'last_change_time': '2024-04-08T12:00:00Z'}]}, open(d + '/bug-4400.json', 'w'))
	json.dump({'bugs': {'4400': {'comments': [{'id': 44000, 'count': 0, 'creator': who,
	           'text': text}]}}}, open(d + '/comments-4400.json', 'w'))
EOF
echo '{"bugs": [{"id": 4242, "last_change_time": "2024-04-03T08:00:00Z"},
 {"id": 4300, "last_change_time": "2024-04-05T12:00:00Z"}]}' >"$T/bz/search.json"

# The fake Bugzilla: GET bug, comments, search; PUT bug.  It logs one line
# per request: METHOD PATH?QUERY KEYS (where the API key came: header,
# param) and the body of a PUT.
cat >"$T/fakebz.py" <<-\EOF
	import http.server, json, os, sys, urllib.parse
	docs, portfile, log = sys.argv[1], sys.argv[2], sys.argv[3]
	KEY = 'bz-test-key-0123456789'
	class H(http.server.BaseHTTPRequestHandler):
	    def log_message(self, *a):
	        pass
	    def send(self, code, obj):
	        body = json.dumps(obj).encode()
	        self.send_response(code)
	        self.send_header('Content-Type', 'application/json')
	        self.send_header('Content-Length', str(len(body)))
	        self.end_headers()
	        self.wfile.write(body)
	    def note(self, extra=''):
	        u = urllib.parse.urlsplit(self.path)
	        q = urllib.parse.parse_qs(u.query)
	        keys = []
	        if self.headers.get('X-BUGZILLA-API-KEY') == KEY:
	            keys.append('header')
	        if q.get('api_key') == [KEY]:
	            keys.append('param')
	        shown = '&'.join('%s=%s' % (k, v) for k, vs in sorted(q.items())
	                         if k != 'api_key' for v in vs)
	        with open(log, 'a') as f:
	            f.write('%s %s?%s %s %s\n' % (self.command, u.path, shown,
	                    ','.join(keys) or 'nokey', extra))
	        return u.path, q
	    def doc(self, name):
	        p = os.path.join(docs, name)
	        if not os.path.exists(p):
	            return None
	        with open(p) as f:
	            return json.load(f)
	    def do_GET(self):
	        path, q = self.note()
	        parts = path.strip('/').split('/')
	        if parts[:2] != ['rest', 'bug']:
	            return self.send(404, {'error': True, 'code': 32614, 'message': 'no such method'})
	        if len(parts) == 2:
	            return self.send(200, self.doc('search.json'))
	        d = self.doc(('comments-%s.json' if len(parts) == 4 else 'bug-%s.json') % parts[2])
	        if d is None:
	            return self.send(404, {'error': True, 'code': 101,
	                                   'message': 'Bug #%s does not exist.' % parts[2]})
	        self.send(200, d)
	    def do_PUT(self):
	        n = int(self.headers.get('Content-Length', '0'))
	        body = self.rfile.read(n).decode()
	        self.note(body)
	        self.send(200, {'bugs': [{'id': 1, 'changes': {}}]})
	s = http.server.HTTPServer(('127.0.0.1', 0), H)
	with open(portfile + '.tmp', 'w') as f:
	    f.write('%d\n' % s.server_address[1])
	os.rename(portfile + '.tmp', portfile)
	s.serve_forever()
EOF

# post.py MODE PORT HEADER VALUE FILE: prints the HTTP status, or "closed"
cat >"$T/post.py" <<-\EOF
	import http.client, select, socket, sys, time
	mode, port, header, value, path = sys.argv[1:6]
	body = open(path, 'rb').read() if path != '-' else b''
	if mode in ('plain', 'chunked'):
	    c = http.client.HTTPConnection('127.0.0.1', int(port), timeout=20)
	    hdrs = {'Content-Type': 'application/json', header: value}
	    if mode == 'chunked':
	        c.request('POST', '/bugzilla', body=iter([body[i:i + 65536]
	                  for i in range(0, len(body), 65536)]), headers=hdrs,
	                  encode_chunked=True)
	    else:
	        c.request('POST', '/bugzilla', body=body, headers=hdrs)
	    r = c.getresponse()
	    print(r.status, r.read().decode())
	    sys.exit(0)
	s = socket.create_connection(('127.0.0.1', int(port)), timeout=20)
	head = ('POST /bugzilla HTTP/1.1\r\nHost: x\r\n%s: %s\r\n'
	        'Content-Type: application/json\r\nContent-Length: %d\r\n\r\n'
	        % (header, value, 1000 if mode == 'headers' else 200)).encode()
	start = time.time()
	if mode == 'headers':
	    # no body at all: the answer must come before any is sent
	    s.sendall(head)
	    print(s.recv(100).split(b'\r\n')[0].decode())
	    sys.exit(0)
	# trickle: one byte every 0.3 s (the whole body would take 60 s);
	# trickle-head sends the headers that way too
	if mode == 'trickle-head':
	    s.sendall(head[:20])
	    head = head[20:] + b'x' * 200
	else:
	    s.sendall(head)
	    head = b'x' * 200
	for i in range(len(head)):
	    r, _, _ = select.select([s], [], [], 0.3)
	    if r:
	        try:
	            data = s.recv(100)
	        except OSError:
	            data = b''
	        print('closed' if not data else data.split(b'\r\n')[0].decode(),
	              'after %.1f s' % (time.time() - start))
	        sys.exit(0)
	    try:
	        s.send(head[i:i + 1])
	    except OSError:
	        print('closed after %.1f s' % (time.time() - start))
	        sys.exit(0)
	print('not cut after %.1f s' % (time.time() - start))
EOF

# wait_until CMD - true once CMD succeeds (15 s at most)
wait_until() { test_wait 15 eval "$1"; }

# value_is EXPECTED CMD... - CMD prints EXPECTED
value_is() { want=$1 && shift && test "$("$@")" = "$want"; }
# wait_value EXPECTED CMD... - true once CMD prints EXPECTED (15 s at most)
wait_value() {
	test_wait 15 value_is "$@" ||
	{ echo "waited for $1 from $(shift && echo "$*"), got $(shift && "$@")"; return 1; }
}

alive() { kill -0 "$1" 2>/dev/null && echo yes; }
listening() { grep -q "listening on" "$T/serve.err" && echo yes; }

$PY "$T/fakebz.py" "$T/bz" "$T/bz.port" "$T/bz.log" &
BZ_PID=$!
test_wait 10 test -s "$T/bz.port" || { echo "fake Bugzilla did not start"; exit 1; }
BZ_URL="http://127.0.0.1:$(cat "$T/bz.port")"

TOKEN=wh-token-abcdefghijklmnop
echo "$TOKEN" >"$T/token"
echo "bz-test-key-0123456789" >"$T/bzkey"
cat >>"$T/routes.conf" <<EOF
state_dir = $T/state
maintainers = $T/MAINTAINERS
rules_dir = $SRC/classifiers
local_rules =
router_address = triage@example.org
webhook_token_file = $T/token
webhook_max_body = 65536
webhook_deadline = 2
bugzilla_url = $BZ_URL
bugzilla_api_key_file = $T/bzkey
bugzilla_timeout = 5
bugzilla_comment = yes
bugzilla_cc = yes
smtp_host = 127.0.0.1
smtp_port = 1
smtp_connect_timeout = 5
smtp_timeout = 10
EOF
DB="$T/state/triage.db"
q() { sqlite3 "$DB" "$1"; }
# msg WHERE: the outbox rows' messages as sent (schema 4: a forward keeps
# only its head and ends with the stored original)
msg() {
	sqlite3 "$DB" "SELECT cast(o.message || coalesce(substr(m.raw, o.raw_offset + 1), x'') as blob)
	  FROM outbox o LEFT JOIN messages m ON m.report = o.raw_report WHERE $1"
}
events_handled() { q "SELECT count(*) FROM bugzilla_events WHERE state <> 'received'"; }
events_processed() {
	q "SELECT count(*) FROM bugzilla_events WHERE state = 'processed' AND bug_id = $1"
}
forward_state() {
	q "SELECT o.state FROM outbox o JOIN reports r ON r.id = o.report
	   WHERE r.bug_id = $1 AND o.kind = 'forward'"
}

# ---- serve ----------------------------------------------------------------

"$TRIAGE" serve --listen 127.0.0.1:0 --no-deliver 2>>"$T/serve.err" &
SERVE_PID=$!
i=0
: >"$T/serve.err"
until grep -q "listening on" "$T/serve.err"; do
	i=$((i + 1))
	if [ $i -gt 100 ] || ! kill -0 $SERVE_PID 2>/dev/null; then
		cat "$T/serve.err"; echo "serve did not start"; exit 1
	fi
	sleep 0.1
done
PORT=$(sed -n 's/.*listening on 127.0.0.1:\([0-9]*\).*/\1/p' "$T/serve.err")

webhook() { # BUG TIME COMMENT
	cat <<-EOF
	{"webhook_id": 7, "webhook_name": "kernel",
	 "event": {"action": "create", "target": "bug", "routing_key": "bug.create",
	  "time": "$2", "user": {"id": 7, "login": "jane@example.net", "real_name": "Jane"}},
	 "bug": {"id": $1, "is_private": false, "product": "Drivers",
	  "summary": "forged summary the worker must not believe",
	  "comment": {"id": $3, "number": 0, "body": "forged", "is_private": false}}}
	EOF
}
webhook 4242 2024-04-01T10:00:00 42420 >"$T/ev1.json"
echo '{"webhook_id": 7, "webhook_name": "kernel", "event": {"action": "modify",
 "target": "bug", "routing_key": "bug.modify:status", "time": "2024-04-03T09:00:00"},
 "bug": {"id": 4243, "is_private": true}}' >"$T/ev-private.json"
webhook 9999 2024-04-01T10:00:00 99990 >"$T/ev-missing.json"

post() { $PY "$T/post.py" "$@"; }

test_expect_success 'a webhook with the right token is stored and answered 200' '
	post plain $PORT Authorization "Token $TOKEN" "$T/ev1.json" >"$T/r" &&
	grep "^200 .*\"duplicate\":false" "$T/r" &&
	test "$(q "SELECT count(*) FROM bugzilla_events WHERE bug_id = 4242")" = 1
'

test_expect_success 'the same event again is answered 200 and stored once' '
	post plain $PORT Authorization "Token $TOKEN" "$T/ev1.json" >"$T/r" &&
	grep "^200 .*\"duplicate\":true" "$T/r" &&
	test "$(q "SELECT count(*) FROM bugzilla_events WHERE bug_id = 4242")" = 1
'

test_expect_success 'a wrong or missing token is 401, before the body is read' '
	post plain $PORT Authorization "Token wrong-token-abcdefghij" "$T/ev1.json" >"$T/r" &&
	grep "^401 " "$T/r" &&
	post plain $PORT X-Api-Key "$TOKEN" "$T/ev1.json" >"$T/r" &&
	grep "^401 " "$T/r" &&
	post plain $PORT Authorization "$TOKEN" "$T/ev1.json" >"$T/r" &&
	grep "^401 " "$T/r" &&
	post headers $PORT Authorization "Token nope" - >"$T/r" &&
	grep "^HTTP/1.1 401" "$T/r"
'

test_expect_success 'bad JSON, duplicate keys and a wrong shape are 400' '
	printf "{\"webhook_id\": 7," >"$T/bad1.json" &&
	post plain $PORT Authorization "Token $TOKEN" "$T/bad1.json" >"$T/r" &&
	grep "^400 .*bad JSON" "$T/r" &&
	sed "s/\"webhook_id\": 7,/\"webhook_id\": 7, \"webhook_id\": 8,/" \
		"$T/ev1.json" >"$T/bad2.json" &&
	post plain $PORT Authorization "Token $TOKEN" "$T/bad2.json" >"$T/r" &&
	grep "^400 .*duplicate key" "$T/r" &&
	sed "s/\"id\": 4242,/\"id\": \"4242\",/" "$T/ev1.json" >"$T/bad3.json" &&
	post plain $PORT Authorization "Token $TOKEN" "$T/bad3.json" >"$T/r" &&
	grep "^400 .*bug.id" "$T/r" &&
	test "$(q "SELECT count(*) FROM bugzilla_events")" = 1
'

test_expect_success 'a body over webhook_max_body is 413, with Content-Length or chunked' '
	$PY -c "import sys; sys.stdout.write(\"{\\\"pad\\\": \\\"\" + \"x\" * 100000 + \"\\\"}\")" >"$T/big.json" &&
	post plain $PORT Authorization "Token $TOKEN" "$T/big.json" >"$T/r" &&
	grep "^413 " "$T/r" &&
	post chunked $PORT Authorization "Token $TOKEN" "$T/big.json" >"$T/r" &&
	grep "^413 " "$T/r"
'

test_expect_success 'webhook_max_body bytes exactly are read (400: not an event), one more is 413' '
	$PY -c "import sys; sys.stdout.write(\"{\\\"pad\\\": \\\"\" + \"x\" * (65536 - 11) + \"\\\"}\")" >"$T/at.json" &&
	test "$(wc -c <"$T/at.json")" = 65536 &&
	post plain $PORT Authorization "Token $TOKEN" "$T/at.json" >"$T/r" &&
	grep "^400 .*webhook_id" "$T/r" &&
	{ cat "$T/at.json" && printf " "; } >"$T/over.json" &&
	post plain $PORT Authorization "Token $TOKEN" "$T/over.json" >"$T/r" &&
	grep "^413 " "$T/r"
'

test_expect_success 'a client trickling its body is cut off at the deadline' '
	post trickle $PORT Authorization "Token $TOKEN" - >"$T/r" &&
	cat "$T/r" &&
	grep "^closed after" "$T/r" &&
	secs=$(sed "s/.*after \([0-9]*\)\..*/\1/" "$T/r") &&
	echo "# trickling client cut after $secs s (webhook_deadline = 2)" &&
	test "$secs" -lt 10
'

test_expect_success 'a client trickling its headers is cut off too' '
	post trickle-head $PORT Authorization "Token $TOKEN" - >"$T/r" &&
	cat "$T/r" &&
	grep "^closed after" "$T/r" &&
	secs=$(sed "s/.*after \([0-9]*\)\..*/\1/" "$T/r") &&
	test "$secs" -lt 10
'

test_expect_success 'the worker re-fetches the bug and records a report and a forward' '
	wait_value processed q "SELECT state FROM bugzilla_events WHERE bug_id = 4242" &&
	q "SELECT source, bug_id, subject, from_addr, class, state, message_id FROM reports" >"$T/rep" &&
	echo "bugzilla|4242|[Bug 4242] iwlwifi: wifi stops after resume (4242)|jane@example.net|user|forwarded|bug-4242@127.0.0.1" >"$T/expect" &&
	test_cmp "$T/expect" "$T/rep" &&
	q "SELECT kind, recipients, state FROM outbox ORDER BY id" >"$T/ob" &&
	printf "forward|wifi@example.org|queued\nbugzilla|$BZ_URL/show_bug.cgi?id=4242|queued\n" >"$T/expect" &&
	test_cmp "$T/expect" "$T/ob" &&
	q "SELECT report FROM bugs WHERE bug_id = 4242" | grep -qx 1 &&
	grep "^GET /rest/bug/4242? header,param" "$T/bz.log" &&
	grep "^GET /rest/bug/4242/comment? header,param" "$T/bz.log" &&
	msg "o.kind = '"'"'forward'"'"'" >"$T/fwd" &&
	grep "^X-Bugzilla-Product: Drivers" "$T/fwd" &&
	grep "^I bisected\|bisected it" "$T/fwd" &&
	! grep forged "$T/fwd" &&
	! grep "^X-Triage-Archive:" "$T/fwd"
'

test_expect_success 'a private bug is fetched over REST and held; a missing one fails' '
	{ post plain $PORT X-Ignored x "$T/ev-private.json" >"$T/r" || true; } &&
	post plain $PORT Authorization "Token $TOKEN" "$T/ev-private.json" >"$T/r" &&
	grep "^200 " "$T/r" &&
	post plain $PORT Authorization "Token $TOKEN" "$T/ev-missing.json" >"$T/r" &&
	grep "^200 " "$T/r" &&
	wait_value 3 events_handled &&
	test "$(q "SELECT state FROM bugzilla_events WHERE bug_id = 9999")" = failed &&
	q "SELECT last_error FROM bugzilla_events WHERE bug_id = 9999" | grep "HTTP 404: error 101" &&
	test "$(q "SELECT count(*) FROM reports WHERE bug_id = 4243")" = 1 &&
	q "SELECT r.state, d.reason FROM reports r JOIN decisions d ON d.report = r.id WHERE r.bug_id = 4243" >"$T/r" &&
	echo "held|private bug: held for a triager (bugzilla_forward_private = no)" >"$T/expect" &&
	test_cmp "$T/expect" "$T/r"
'

test_expect_success 'a webhook retry after processing gives no second report' '
	sed "s/2024-04-01T10:00:00/2024-04-01T10:00:01/" "$T/ev1.json" >"$T/ev1b.json" &&
	post plain $PORT Authorization "Token $TOKEN" "$T/ev1b.json" >"$T/r" &&
	grep "^200 .*\"duplicate\":false" "$T/r" &&
	wait_value 2 events_processed 4242 &&
	test "$(q "SELECT count(*) FROM reports WHERE bug_id = 4242")" = 1 &&
	test "$(q "SELECT count(*) FROM outbox WHERE kind = '"'"'forward'"'"'")" = 1
'

test_expect_success 'other paths are 404, other methods 405; SIGTERM stops serve cleanly' '
	$PY -c "
import http.client, sys
c = http.client.HTTPConnection(\"127.0.0.1\", $PORT, timeout=5)
c.request(\"GET\", \"/bugzilla\"); r = c.getresponse(); r.read(); print(r.status)
c.request(\"POST\", \"/other\", body=b\"{}\"); r = c.getresponse(); r.read(); print(r.status)
" >"$T/r" &&
	printf "405\n404\n" >"$T/expect" &&
	test_cmp "$T/expect" "$T/r" &&
	kill -TERM $SERVE_PID &&
	wait_value "" alive $SERVE_PID &&
	cat "$T/serve.err" &&
	grep "stopping" "$T/serve.err" &&
	test "$(q "PRAGMA integrity_check")" = ok
'

# (the test above sends the SIGTERM; again here, should --run skip it)
kill -TERM $SERVE_PID 2>/dev/null
wait $SERVE_PID
SERVE_RC=$?
SERVE_PID=
test_expect_success 'serve exits 0 after SIGTERM' 'test "$SERVE_RC" = 0'

# ---- poll -------------------------------------------------------------------

test_expect_success 'poll records new bugs once, skips known ones, keeps a cursor' '
	: >"$T/bz.log" &&
	"$TRIAGE" bugzilla poll --url "$BZ_URL" --product Drivers --since 2024-04-01T00:00:00Z >"$T/p1" &&
	cat "$T/p1" &&
	grep "^poll: 2 changed since 2024-04-01T00:00:00Z: 1 new, 1 known" "$T/p1" &&
	grep "^GET /rest/bug?include_fields=id,last_change_time&last_change_time=2024-04-01T00:00:00Z&limit=50&offset=0&order=changeddate,bug_id&product=Drivers header,param" "$T/bz.log" &&
	test "$(q "SELECT count(*) FROM reports WHERE bug_id = 4300")" = 1 &&
	"$TRIAGE" bugzilla poll --url "$BZ_URL" --product Drivers >"$T/p2" &&
	cat "$T/p2" &&
	grep "^poll: 2 changed since 2024-04-05T12:00:00Z: 0 new, 2 known" "$T/p2" &&
	test "$(q "SELECT count(*) FROM reports")" = 3 &&
	test "$(q "SELECT count(*) FROM reports WHERE bug_id = 4300")" = 1 &&
	test "$(q "SELECT count(*) FROM outbox WHERE kind = '"'"'forward'"'"'")" = 2
'

# ---- deliver ------------------------------------------------------------------

free_port() {
	$PY -c "import socket; s = socket.socket(); s.bind((\"127.0.0.1\", 0)); print(s.getsockname()[1])"
}
HAVE_AIOSMTPD=
$PY -c 'import aiosmtpd' 2>/dev/null && HAVE_AIOSMTPD=yes

# peer.py MODE PORT SPOOL: ok stores messages, soft answers RCPT with 451
cat >"$T/peer.py" <<-\EOF
	import asyncio, os, signal, sys
	from aiosmtpd.controller import Controller
	mode, port, spool = sys.argv[1], int(sys.argv[2]), sys.argv[3]
	n = [0]
	class Handler:
	    async def handle_RCPT(self, server, session, envelope, address, options):
	        if mode == 'soft':
	            return '451 4.3.0 try again later'
	        envelope.rcpt_tos.append(address)
	        return '250 2.1.5 OK'
	    async def handle_DATA(self, server, session, envelope):
	        n[0] += 1
	        with open(os.path.join(spool, 'msg.%d' % n[0]), 'wb') as f:
	            f.write(b'RCPT ' + ' '.join(envelope.rcpt_tos).encode() + b'\n')
	            f.write(envelope.original_content)
	        return '250 2.0.0 queued'
	c = Controller(Handler(), hostname='127.0.0.1', port=port)
	c.start()
	open(os.path.join(spool, 'ready'), 'w').close()
	signal.sigwait([signal.SIGTERM, signal.SIGINT])
	c.stop()
EOF

start_peer() { # MODE
	{ [ ! -f "$T/peer.pid" ] || stop_peer; } && # one a failed test left
	rm -rf "$T/spool" &&
	mkdir -p "$T/spool" &&
	SMTP_PORT=$(free_port) &&
	{ $PY "$T/peer.py" "$1" "$SMTP_PORT" "$T/spool" 2>"$T/peer.err" & } &&
	SMTP_PID=$! &&
	echo $SMTP_PID >"$T/peer.pid" &&
	test_wait 15 test -e "$T/spool/ready" &&
	sed -i "s/^smtp_port = .*/smtp_port = $SMTP_PORT/" "$T/routes.conf" ||
	{ cat "$T/peer.err"; return 1; }
}

# stop_peer - tests run in subshells: the pid is in a file, and the peer
# may stay a zombie where nobody reaps orphans
gone() {
	! kill -0 "$1" 2>/dev/null ||
	grep -q "^State:.*Z" "/proc/$1/status" 2>/dev/null
}
stop_peer() {
	pid=$(cat "$T/peer.pid") &&
	{ kill "$pid" 2>/dev/null || :; } &&
	{ wait "$pid" 2>/dev/null || :; } &&
	test_wait 10 gone "$pid" &&
	rm -f "$T/peer.pid"
}

if [ -n "$HAVE_AIOSMTPD" ]; then
test_expect_success 'deliver sends the forwards over SMTP and runs the write-backs' '
	start_peer ok &&
	: >"$T/bz.log" &&
	"$TRIAGE" deliver --once >"$T/d1" &&
	cat "$T/d1" &&
	grep "^deliver: 4 sent, 0 to retry, 0 failed" "$T/d1" &&
	test "$(q "SELECT count(*) FROM outbox WHERE state = '"'"'sent'"'"'")" = 4 &&
	test "$(ls "$T/spool" | grep -c "^msg\.")" = 2 &&
	grep -l "^RCPT wifi@example.org" "$T/spool"/msg.* >"$T/l" &&
	test "$(wc -l <"$T/l")" = 2 &&
	grep -h "^Resent-To: .*wifi@example.org" "$T/spool"/msg.* &&
	grep -h "^Subject: \[triage #[0-9]*-[a-z2-7]*\] \[Bug 4300\]" "$T/spool"/msg.* &&
	grep "^PUT /rest/bug/4242? header,param .*\"cc\":{\"add\":\[\"wifi@example.org\"\]}" "$T/bz.log" &&
	grep "^PUT /rest/bug/4242? .*triage forwarded this bug to Wifi Maintainer <wifi@example.org>" "$T/bz.log" &&
	stop_peer
'

test_expect_success 'a 4xx peer: the forward is retried later with backoff' '
	start_peer soft &&
	echo "{\"bugs\": [{\"id\": 4301, \"last_change_time\": \"2024-04-06T12:00:00Z\"}]}" >"$T/bz/search.json" &&
	"$TRIAGE" bugzilla poll --url "$BZ_URL" --product Drivers >"$T/p3" &&
	grep "1 new" "$T/p3" &&
	now=$(date +%s) &&
	"$TRIAGE" deliver >"$T/d2" &&
	cat "$T/d2" &&
	grep "^deliver: 1 sent, 1 to retry, 0 failed" "$T/d2" &&
	q "SELECT state, attempts, next_attempt_at - $now >= 60, last_error LIKE '"'"'%451%'"'"' FROM outbox WHERE kind = '"'"'forward'"'"' AND state <> '"'"'sent'"'"'" >"$T/ob" &&
	echo "queued|1|1|1" >"$T/expect" &&
	test_cmp "$T/expect" "$T/ob" &&
	"$TRIAGE" deliver >"$T/d3" &&
	grep "^deliver: 0 sent, 0 to retry, 0 failed" "$T/d3" &&
	test "$(ls "$T/spool" | grep -c "^msg\.")" = 0 &&
	stop_peer
'
test_expect_success 'serve with its delivery thread sends a new forward itself' '
	start_peer ok &&
	: >"$T/serve.err" &&
	{ "$NET" serve --listen 127.0.0.1:0 2>>"$T/serve.err" & } &&
	echo $! >"$T/serve.pid" &&
	wait_value yes listening &&
	port=$(sed -n "s/.*listening on 127.0.0.1:\([0-9]*\).*/\1/p" "$T/serve.err") &&
	webhook 4302 2024-04-07T10:00:00 43020 >"$T/ev4302.json" &&
	post plain $port Authorization "Token $TOKEN" "$T/ev4302.json" >"$T/r" &&
	grep "^200 " "$T/r" &&
	wait_value sent forward_state 4302 &&
	grep -l "^Subject: \[triage #[0-9]*-[a-z2-7]*\] \[Bug 4302\]" "$T/spool"/msg.* &&
	kill -TERM $(cat "$T/serve.pid") &&
	wait_value "" alive "$(cat "$T/serve.pid")" &&
	stop_peer
'
test_expect_success 'deliver queues a due fuzzer digest and sends it' '
	start_peer ok &&
	echo "{\"bugs\": [{\"id\": 4400, \"last_change_time\": \"2024-04-08T12:00:00Z\"}]}" >"$T/bz/search.json" &&
	"$TRIAGE" bugzilla poll --url "$BZ_URL" >"$T/p4" &&
	test "$(q "SELECT state, class FROM reports WHERE bug_id = 4400")" = "digest|fuzzer" &&
	q "UPDATE reports SET received_at = received_at - 2 * 86400 WHERE bug_id = 4400" &&
	"$TRIAGE" deliver >"$T/d4" &&
	cat "$T/d4" &&
	test "$(q "SELECT state || '"'"' '"'"' || recipients FROM outbox WHERE kind = '"'"'digest'"'"'")" = "sent wifi@example.org" &&
	grep -l "iwl_mvm_rx" "$T/spool"/msg.* &&
	stop_peer
'
else
	test_skip "digest: needs python3-aiosmtpd"
	test_skip "serve with delivery: needs python3-aiosmtpd"
	test_skip "deliver over SMTP: needs python3-aiosmtpd"
	test_skip "deliver retry: needs python3-aiosmtpd"
fi

test_expect_success 'deliver --daemon passes, sleeps, and stops on SIGTERM' '
	sed -i "s/^smtp_port = .*/smtp_port = 1/" "$T/routes.conf" &&
	{ "$NET" deliver --daemon 2>"$T/dd.err" & } &&
	echo $! >"$T/serve.pid" &&
	sleep 1 &&
	wait_value yes alive "$(cat "$T/serve.pid")" &&
	kill -TERM "$(cat "$T/serve.pid")" &&
	wait_value "" alive "$(cat "$T/serve.pid")" &&
	rm -f "$T/serve.pid" &&
	test "$(q "PRAGMA integrity_check")" = ok
'

test_expect_success 'a bug with the crash of an earlier bug joins its crash group' '
	$PY - "$T/bz" <<-\PY &&
	import json, sys
	d = sys.argv[1]
	bug = json.load(open(d + "/bug-4400.json"))
	com = json.load(open(d + "/comments-4400.json"))
	bug["bugs"][0]["id"] = 4401
	bug["bugs"][0]["creator"] = "tester@example.net"
	bug["bugs"][0]["last_change_time"] = "2024-04-09T12:00:00Z"
	c = com["bugs"].pop("4400")
	c["comments"][0]["id"] = 44010
	com["bugs"]["4401"] = c
	json.dump(bug, open(d + "/bug-4401.json", "w"))
	json.dump(com, open(d + "/comments-4401.json", "w"))
	PY
	echo "{\"bugs\": [{\"id\": 4400, \"last_change_time\": \"2024-04-08T12:00:00Z\"},
	 {\"id\": 4401, \"last_change_time\": \"2024-04-09T12:00:00Z\"}]}" >"$T/bz/search.json" &&
	"$TRIAGE" bugzilla poll --url "$BZ_URL" --since 2024-04-01T00:00:00Z >"$T/p5" &&
	cat "$T/p5" &&
	first=$(q "SELECT id FROM reports WHERE bug_id = 4400") &&
	test -n "$first" &&
	test "$(q "SELECT same_crash_as FROM reports WHERE bug_id = 4401")" = "$first" &&
	test "$(q "SELECT syzbot_id FROM reports WHERE bug_id = 4401")" = 0123456789abcdef &&
	test "$(q "SELECT count(*) FROM outbox o JOIN reports r ON r.id = o.report WHERE r.bug_id = 4401")" = 0
'

test_expect_success 'squatting: a mail with the Message-ID a bug would get makes no duplicate of the bug' '
	printf "%s\n" "From: Squatter <squat@evil.example>" "To: bugs@example.org" \
		"Subject: nothing" "Message-ID: <bug-4402@127.0.0.1>" \
		"Date: Mon, 08 Apr 2024 09:00:00 +0000" "" "Cheap licences." >"$T/squat.eml" &&
	"$SRC/triage-filter" <"$T/squat.eml" &&
	test "$(q "SELECT count(*) FROM reports WHERE message_id = \"bug-4402@127.0.0.1\"")" = 1 &&
	$PY - "$T/bz" <<-\PY &&
	import json, sys
	d = sys.argv[1]
	bug = json.load(open(d + "/bug-4401.json"))
	com = json.load(open(d + "/comments-4401.json"))
	bug["bugs"][0]["id"] = 4402
	bug["bugs"][0]["summary"] = "a bug of its own"
	bug["bugs"][0]["creator"] = "squat@evil.example"
	bug["bugs"][0]["last_change_time"] = "2024-04-10T12:00:00Z"
	c = com["bugs"].pop("4401")
	c["comments"][0]["id"] = 44020
	c["comments"][0]["text"] = "the wifi stops after resume; no crash log"
	com["bugs"]["4402"] = c
	json.dump(bug, open(d + "/bug-4402.json", "w"))
	json.dump(com, open(d + "/comments-4402.json", "w"))
	PY
	echo "{\"bugs\": [{\"id\": 4402, \"last_change_time\": \"2024-04-10T12:00:00Z\"}]}" >"$T/bz/search.json" &&
	"$TRIAGE" bugzilla poll --url "$BZ_URL" --since 2024-04-01T00:00:00Z >"$T/p6" &&
	test "$(q "SELECT count(*) FROM reports WHERE bug_id = 4402")" = 1 &&
	# (the same Message-ID as the squatter'"'"'s: the bug is its id, not that)
	test "$(q "SELECT message_id FROM reports WHERE bug_id = 4402")" = bug-4402@127.0.0.1 &&
	test "$(q "SELECT coalesce(duplicate_of, 0), state != \"duplicate\" FROM reports WHERE bug_id = 4402")" = "0|1" &&
	test "$(q "SELECT bugzilla_url FROM bugs WHERE bug_id = 4402")" = "$BZ_URL" &&
	test "$(q "SELECT r.bug_id FROM bugs b JOIN reports r ON r.id = b.report WHERE b.bug_id = 4402")" = 4402
'

stop_servers
test_done
