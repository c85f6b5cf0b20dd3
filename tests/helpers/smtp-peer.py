# smtp-peer.py - a small SMTP peer for the fault tests (stdlib only)
#
#   python3 smtp-peer.py SPOOL
#
# Listens on 127.0.0.1 (a free port, written to SPOOL/port once ready)
# and keeps each message it accepts in SPOOL/msg.N (written aside, then
# renamed).  How it answers is read from SPOOL/mode at every command, so
# a test changes it without a restart:
#   ok        accept everything
#   421       greet with 421 and close (service not available)
#   451       answer RCPT with 451 (try again later)
#   550       answer RCPT with 550 (no such user)
#   data451   accept the data, then answer 451
#   stall     greet, then never answer MAIL (the client must time out)
#   slow      keep the message (and say so in SPOOL/kept.N), then wait
#             for SPOOL/release (10 s at most) before the 250
import os, socketserver, sys, threading, time

spool = sys.argv[1]
lock = threading.Lock()
seq = [0]


def mode():
    try:
        with open(os.path.join(spool, "mode")) as f:
            return f.read().strip() or "ok"
    except OSError:
        return "ok"


class Session(socketserver.StreamRequestHandler):
    def reply(self, line):
        self.wfile.write(line.encode() + b"\r\n")
        self.wfile.flush()

    def handle(self):
        if mode() == "421":
            self.reply("421 4.3.2 service not available, closing")
            return
        self.reply("220 peer.example ESMTP faults")
        rcpts = []
        while True:
            line = self.rfile.readline(4096)
            if not line:
                return
            cmd = line.decode("latin-1").strip()
            verb = cmd.split(" ", 1)[0].upper()
            m = mode()
            if verb in ("EHLO", "HELO"):
                self.reply("250-peer.example\r\n250-8BITMIME\r\n250 SIZE 10485760")
            elif verb == "MAIL":
                if m == "stall":
                    while self.rfile.readline(4096):
                        pass
                    return
                rcpts = []
                self.reply("250 2.1.0 ok")
            elif verb == "RCPT":
                if m == "451":
                    self.reply("451 4.3.0 try again later")
                elif m == "550":
                    self.reply("550 5.1.1 no such user")
                else:
                    rcpts.append(cmd[8:])
                    self.reply("250 2.1.5 ok")
            elif verb == "DATA":
                if not rcpts:
                    self.reply("554 5.5.1 no valid recipients")
                    continue
                self.reply("354 go ahead")
                data = []
                while True:
                    l = self.rfile.readline(1 << 20)
                    if not l:
                        return
                    if l == b".\r\n":
                        break
                    data.append(l[1:] if l.startswith(b".") else l)
                if mode() == "data451":
                    self.reply("451 4.3.0 queue full")
                    continue
                with lock:
                    seq[0] += 1
                    n = seq[0]
                tmp = os.path.join(spool, ".tmp.%d" % n)
                with open(tmp, "wb") as f:
                    f.write(b"RCPT " + " ".join(rcpts).encode() + b"\r\n")
                    f.writelines(data)
                os.rename(tmp, os.path.join(spool, "msg.%d" % n))
                if mode() == "slow":
                    open(os.path.join(spool, "kept.%d" % n), "w").close()
                    for i in range(200):
                        if os.path.exists(os.path.join(spool, "release")):
                            break
                        time.sleep(0.05)
                self.reply("250 2.0.0 queued as %d" % n)
            elif verb in ("RSET", "NOOP"):
                rcpts = []
                self.reply("250 2.0.0 ok")
            elif verb == "QUIT":
                self.reply("221 2.0.0 bye")
                return
            else:
                self.reply("502 5.5.2 not implemented")


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


srv = Server(("127.0.0.1", 0), Session)
with open(os.path.join(spool, ".port"), "w") as f:
    f.write("%d\n" % srv.server_address[1])
os.rename(os.path.join(spool, ".port"), os.path.join(spool, "port"))
srv.serve_forever()
