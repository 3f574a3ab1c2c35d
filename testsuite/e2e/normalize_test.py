#!/usr/bin/env python3
"""The normalizer on its own: two transcripts that differ only where runs
legitimately differ must normalize to the same text, and ones that differ
where stubs must agree must not."""

import os
import sys
import unittest

# Importing from the source tree must not leave __pycache__ in it.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from normalize import normalize  # noqa: E402

RUN = """\
Reading /lib64/ld-linux-x86-64.so.2 from remote target...
warning: File transfers from remote targets can be slow. Use "set sysroot" to access files locally instead.
Remote debugging using 127.0.0.1:{port}
0x00007ffff7fe{lib:04x} in _start () from target:/lib64/ld-linux-x86-64.so.2
Breakpoint 1, compute (n=5) at {build}/plain.c:14
rsp            0x7fffffffe{stack:03x}      {stack_dec}
rip            0x401146            0x401146 <square+11>
* 1    Thread 0x7ffff7d8{tls:04x} (LWP {pid}) "threads" parked () at threads.c:47
  2    Thread 0x7ffff7d8{tls2:04x} (LWP {lwp}) "threads" read () at read.c:26
[Attaching after Thread {pid}.{pid} fork to child Thread {child}.{child}]
Thread 2.1 "fork" hit Breakpoint 1.2, in_child (v=40) at fork.c:8
[Inferior 1 (process {pid}) exited normally]
Process {build}/plain created; pid = {pid}
Listening on port {port}
Remote debugging from host 127.0.0.1, port {client}
"""

PATHS_A = {"/tmp/build-a": "@BUILD@"}
PATHS_B = {"/home/x/b": "@BUILD@"}


def run(build="/tmp/build-a", port=4000, lib=0x4b70, stack=0x3a0, tls=0xa740,
        tls2=0x9640, pid=1234, lwp=1240, child=1250, client=50000, **kw):
    text = RUN.format(build=build, port=port, lib=lib, stack=stack,
                      stack_dec=0x7fffffffe000 + stack, tls=tls, tls2=tls2,
                      pid=pid, lwp=lwp, child=child, client=client)
    for old, new in kw.items():
        text = text.replace(old, new)
    return text


class NormalizeTest(unittest.TestCase):
    def test_run_to_run_differences_vanish(self):
        a = normalize(run(), PATHS_A)
        b = normalize(run(build="/home/x/b", port=4444, lib=0x1230,
                          stack=0x120, tls=0x1740, tls2=0x2640, pid=77777,
                          lwp=77780, child=77790, client=40000), PATHS_B)
        self.assertEqual(a, b)

    def test_fetch_messages_dropped(self):
        self.assertNotIn("remote target", normalize(run(), PATHS_A))
        self.assertNotIn("File transfers", normalize(run(), PATHS_A))

    def test_fixed_code_addresses_kept(self):
        a = normalize(run(), PATHS_A)
        b = normalize(run(**{"0x401146": "0x401150"}), PATHS_A)
        self.assertIn("0x401146 <square+11>", a)
        self.assertNotEqual(a, b)

    def test_equal_values_stay_equal(self):
        # rsp in hex and decimal is one value; two threads are two pids.
        norm = normalize(run(), PATHS_A)
        self.assertRegex(norm, r"rsp +(<addr\d+>) +\1\n")
        self.assertRegex(norm, r"LWP <pid1>\)")
        self.assertRegex(norm, r"LWP <pid2>\)")
        self.assertIn("Thread <pid1>.<pid1> fork to child Thread "
                      "<pid3>.<pid3>", norm)

    def test_gdb_thread_numbers_kept(self):
        self.assertIn('Thread 2.1 "fork" hit Breakpoint 1.2',
                      normalize(run(), PATHS_A))

    def test_changed_structure_still_differs(self):
        # The same pid where the reference has two distinct ones.
        a = normalize(run(), PATHS_A)
        b = normalize(run(child=1234), PATHS_A)
        self.assertNotEqual(a, b)

    def test_messages_still_differ(self):
        a = normalize(run(), PATHS_A)
        b = normalize(run(**{"exited normally": "exited with code 01"}),
                      PATHS_A)
        self.assertNotEqual(a, b)


if __name__ == "__main__":
    unittest.main(verbosity=2)
