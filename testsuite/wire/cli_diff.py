#!/usr/bin/env python3
"""Command-line differential test: ptstub and gdbserver run with the same
arguments (bad ones among them) must print the same lines and exit with
the same status, the stub's own name aside.  Each case says what is
compared: "all" (status and output), "status", or "status+first" (status
and the first line).

Environment: PTSTUB, GDBSERVER.  Exit 0 pass, 1 fail, 77 skip."""

import os
import re
import socket
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
sys.path.insert(0, HERE)
from peers import peers  # noqa: E402
from processes import free_port  # noqa: E402


def cases(port, busy_port):
    addr = f"127.0.0.1:{port}"
    return [
        ("no arguments", "status+first", []),
        ("an unknown option", "status", ["--bogus", addr, "/bin/true"]),
        ("COMM without a program", "status", ["--once", addr]),
        ("a program that does not exist", "all",
         ["--once", addr, "/nonexistent/prog"]),
        ("a program that does not exist, no shell", "all",
         ["--once", "--no-startup-with-shell", addr, "/nonexistent/prog"]),
        ("a program that exits at once", "all",
         ["--once", addr, "/bin/sh", "-c", "exit 3"]),
        ("attach to no such process", "all",
         ["--once", "--attach", addr, "999999999"]),
        ("attach without a pid", "status", ["--once", "--attach", addr]),
        ("the port is taken", "all",
         ["--once", f"127.0.0.1:{busy_port}", "/bin/true"]),
        ("--help", "status+first", ["--help"]),
        ("--version", "status", ["--version"]),
    ]


def run(stub, args):
    try:
        p = subprocess.run([stub, *args], stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=10)
    except subprocess.TimeoutExpired:
        return None, "<still running after 10 s>"
    name = os.path.basename(stub)
    out = (p.stdout + p.stderr).replace(stub, "STUB")
    out = re.sub(rf"\b{re.escape(name)}\b", "STUB", out)
    return p.returncode, out


def main():
    ptstub, gdbserver, status = peers()
    if status is not None:
        return status
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen(1)
    failures = 0
    for what, compare, args in cases(free_port(), busy.getsockname()[1]):
        ref, got = run(gdbserver, args), run(ptstub, args)
        if compare == "status":
            same = ref[0] == got[0]
        elif compare == "status+first":
            same = ref[0] == got[0] and \
                ref[1].split("\n")[0] == got[1].split("\n")[0]
        else:
            same = ref == got
        print(f"{'  ok  ' if same else 'FAIL  '}{what} ({compare})")
        if not same:
            failures += 1
            for side, (rc, out) in (("gdbserver", ref), ("ptstub", got)):
                print(f"    {side}: status {rc}")
                for line in out.rstrip("\n").split("\n")[:6]:
                    print(f"      | {line}")
    print(f"{'FAIL' if failures else 'PASS'}: {failures} of the cases differ")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
