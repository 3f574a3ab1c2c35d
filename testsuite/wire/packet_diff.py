#!/usr/bin/env python3
"""Wire-level differential test: the same packets, malformed ones among
them, go to gdbserver and to ptstub, each serving a fresh plain_nopie
stopped at its first instruction; the replies, normalized, must match.

    packet_diff.py [PACKETS.txt]

PACKETS.txt (default: packets.txt beside this script) has one step a line:
    PACKET                      send $PACKET#cs; replies must be equal
    len: PACKET                 only the replies' lengths must be equal
    differ: PACKET -- REASON    both replies are shown, not compared
                                (PACKET may be "raw: BYTES")
    raw: BYTES                  send BYTES as they are (Python escapes);
                                compare everything the stubs send back
                                within 0.3 s
    ptstub: PACKET              only ptstub is judged: it must give a
                                reply that is not an error (it is still
                                up after a step that ends gdbserver's)
    fresh:                      the steps after it go to new stubs and
                                programs (after one that ends a session)
In a packet, @TID@ is the thread qC names and @sym:NAME@ the address of
NAME in the program (hex).  Replies are compared after error replies
(Enn and E.text) become "E" and pPID.TID thread ids become "pP.T": ptstub
says what is wrong where gdbserver gives a number, by design.

Environment: PTSTUB, GDBSERVER, top_builddir.  Exit 0 pass, 1 fail,
77 skip."""

import os
import re
import socket
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
sys.path.insert(0, HERE)
from peers import peers  # noqa: E402
from processes import become_subreaper  # noqa: E402
from stub import Stub  # noqa: E402

ERROR = re.compile(r"^E(\.[^\n]*|[0-9a-fA-F]{2})$")
PTID = re.compile(r"p[0-9a-f]+\.[0-9a-f]+")
CORE = re.compile(r"core:[0-9a-f]+;")


def checksum(payload):
    return sum(payload) & 0xff


def frame(payload):
    return b"$" + payload + b"#%02x" % checksum(payload)


def expand_rle(data):
    """Undo the run-length encoding "X*n" (repeat X n-29 more times)."""
    out = bytearray()
    i = 0
    while i < len(data):
        if data[i:i + 1] == b"*" and out:
            out += out[-1:] * (data[i + 1] - 29)
            i += 2
        else:
            out.append(data[i])
            i += 1
    return bytes(out)


class Conn:
    """A plain RSP client with acknowledgments on."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        self.buf = b""

    def _more(self, timeout):
        self.sock.settimeout(timeout)
        try:
            chunk = self.sock.recv(65536)
        except socket.timeout:
            return False
        if not chunk:
            raise ConnectionError("the stub closed the connection")
        self.buf += chunk
        return True

    def drain(self, timeout=0.3):
        """Everything that arrives within TIMEOUT of the last byte."""
        while self._more(timeout):
            pass
        data, self.buf = self.buf, b""
        return data

    def request(self, payload, timeout=10, send=True):
        if send:
            self.sock.sendall(frame(payload))
        deadline = time.monotonic() + timeout
        while True:
            m = re.search(rb"\$([^#]*)#([0-9a-f]{2})", self.buf, re.S)
            if m:
                self.buf = self.buf[m.end():]
                self.sock.sendall(b"+")
                return expand_rle(m.group(1)).decode("latin-1")
            if time.monotonic() > deadline or not self._more(
                    max(0.01, deadline - time.monotonic())):
                if time.monotonic() > deadline:
                    return "<no reply>"


    def monitor(self, payload):
        """qRcmd: the console output (O packets) and the final reply."""
        reply, out = self.request(payload), ""
        while re.fullmatch(r"O([0-9a-f]{2})+", reply):
            out += bytes.fromhex(reply[1:]).decode("latin-1")
            reply = self.request(b"", send=False)
        return out + reply


def symbols(program):
    out = subprocess.run(["nm", program], capture_output=True, text=True,
                         check=True).stdout
    return {f[2]: f[0].lstrip("0") for f in
            (line.split() for line in out.splitlines()) if len(f) == 3}


def parse_steps(path):
    steps = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            kind, sep, rest = line.partition(": ")
            if line == "fresh:":
                steps.append(("fresh", "", "", number))
                continue
            if sep and kind in ("len", "differ", "raw", "ptstub"):
                reason = ""
                if kind == "differ":
                    rest, sep, reason = rest.partition(" -- ")
                    if not sep:
                        sys.exit(f"{path}:{number}: differ needs ' -- REASON'")
                steps.append((kind, rest, reason.strip(), number))
            else:
                steps.append(("same", line, "", number))
    return steps


def substitute(text, tid, syms):
    text = text.replace("@TID@", tid)
    return re.sub(r"@sym:(\w+)@", lambda m: syms[m.group(1)], text)


def normalize(reply):
    if ERROR.match(reply):
        return "E"
    return CORE.sub("core:N;", PTID.sub("pP.T", reply))


def run(stub_path, program, steps, syms):
    """The replies of one stub, one per step, a session per fresh: part."""
    replies, part = [], []
    for step in steps + [("fresh", "", "", 0)]:
        if step[0] != "fresh":
            part.append(step)
            continue
        if part:
            replies += run_session(stub_path, program, part, syms)
        replies.append("")
        part = []
    return replies[:-1]


def run_session(stub_path, program, steps, syms):
    stub = Stub(stub_path, "remote", program)
    if not stub.listening:
        stub.finish()
        raise RuntimeError(f"{stub_path} did not start listening:\n"
                           f"{stub.stderr.text()}")
    replies = []
    try:
        conn = Conn(stub.port)
        conn.request(b"qSupported:multiprocess+;swbreak+;hwbreak+;"
                     b"vContSupported+;no-resumed+;xmlRegisters=i386")
        tid = conn.request(b"qC")[2:]
        for kind, text, _, _ in steps:
            text = substitute(text, tid, syms)
            try:
                if kind == "raw" or text.startswith("raw:"):
                    text = text[4:].lstrip() if kind != "raw" else text
                    conn.sock.sendall(text.encode("latin-1").decode(
                        "unicode_escape").encode("latin-1"))
                    replies.append(repr(conn.drain()))
                elif text.startswith("qRcmd,"):
                    replies.append(conn.monitor(text.encode("latin-1")))
                else:
                    replies.append(conn.request(text.encode("latin-1")))
            except (ConnectionError, OSError) as e:
                # The rest cannot be asked; the comparison shows where.
                replies += [f"<{e}>"] * (len(steps) - len(replies))
                break
    finally:
        stub.finish(grace=1)
    return replies


def main(argv):
    path = argv[0] if argv else os.path.join(HERE, "packets.txt")
    ptstub, gdbserver, status = peers()
    if status is not None:
        return status
    builddir = os.environ.get("top_builddir", ".")
    program = os.path.abspath(os.path.join(
        builddir, "testsuite/programs/bin/plain_nopie"))
    become_subreaper()
    steps = parse_steps(path)
    syms = symbols(program)
    ref = run(gdbserver, program, steps, syms)
    got = run(ptstub, program, steps, syms)
    failures = 0
    for (kind, text, reason, number), a, b in zip(steps, ref, got):
        if kind == "fresh":
            continue
        if kind == "differ":
            print(f"  differ  {text}\n    gdbserver: {a[:100]}\n"
                  f"    ptstub:    {b[:100]}\n    ({reason})")
            continue
        if kind == "len":
            same = len(a) == len(b)
        elif kind == "ptstub":
            same = not b.startswith("<") and normalize(b) != "E"
        else:
            same = normalize(a) == normalize(b)
        print(f"{'  ok    ' if same else 'FAIL    '}{text[:60]}"
              f"{'   (ptstub alone)' if kind == 'ptstub' else ''}")
        if not same:
            failures += 1
            print(f"    line {number}\n    gdbserver: {a[:200]}\n"
                  f"    ptstub:    {b[:200]}")
    print(f"{'FAIL' if failures else 'PASS'}: "
          f"{sum(s[0] != 'fresh' for s in steps)} steps, "
          f"{failures} different")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
