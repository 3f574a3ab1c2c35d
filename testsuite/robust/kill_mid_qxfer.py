"""Run GDB (argv[3:]) against the stub at 127.0.0.1:argv[1] through a
relay on a free port (written into the GDB script argv[2] for @RELAY@),
and SIGKILL GDB once it has asked for a second chunk of
qXfer:btrace:read (an offset other than 0): GDB dies in the middle of
reading the trace.  GDB's output goes to argv[2] + ".out".  Exit status
0 if GDB was killed mid-transfer, 1 if it never got that far."""

import os
import re
import select
import signal
import socket
import subprocess
import sys

CHUNK = re.compile(rb"\$qXfer:btrace:read:[a-z]*:([0-9a-f]+),")


def main():
    stub_port, script = int(sys.argv[1]), sys.argv[2]
    relay = socket.socket()
    relay.bind(("127.0.0.1", 0))
    relay.listen(1)
    with open(script) as f:
        text = f.read().replace("@RELAY@", "127.0.0.1:%d" % relay.getsockname()[1])
    with open(script, "w") as f:
        f.write(text)
    out = open(script + ".out", "w")
    gdb = subprocess.Popen(sys.argv[3:] + ["-x", script], stdout=out,
                           stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    relay.settimeout(30)
    client, _ = relay.accept()
    stub = socket.create_connection(("127.0.0.1", stub_port))
    seen = b""
    killed = False
    while not killed:
        ready, _, _ = select.select([client, stub], [], [], 60)
        if not ready:
            break
        if client in ready:
            data = client.recv(65536)
            if not data:
                break
            stub.sendall(data)
            seen = (seen + data)[-4096:]
            for m in CHUNK.finditer(seen):
                if int(m.group(1), 16) != 0:
                    os.kill(gdb.pid, signal.SIGKILL)
                    killed = True
        if stub in ready and not killed:
            data = stub.recv(65536)
            if not data:
                break
            client.sendall(data)
    # The stub sees the connection drop as GDB's death would make it.
    client.close()
    stub.close()
    if not killed:
        gdb.kill()
    gdb.wait()
    return 0 if killed else 1


if __name__ == "__main__":
    sys.exit(main())
