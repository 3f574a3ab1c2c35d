#!/usr/bin/env python3
"""tally.py on .trs files made here: counts, failed names, closing line."""

import os
import subprocess
import sys
import tempfile
import unittest

TALLY = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                     "..", "tally.py")


def write(folder, name, *lines):
    path = os.path.join(folder, name + ".trs")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("".join(line + "\n" for line in lines))
    return path


def tally(*args):
    p = subprocess.run([sys.executable, TALLY, *args], capture_output=True,
                       text=True)
    return p.returncode, p.stdout.splitlines()


def names(lines):
    """The result lines, without the failed logs' tails."""
    return [l for l in lines if not l.startswith(("    ", "--- "))]


class TallyTest(unittest.TestCase):
    def test_counts_and_names(self):
        with tempfile.TemporaryDirectory() as d:
            write(d, "a/ok", ":test-result: PASS", ":global-test-result: PASS")
            write(d, "a/bad", ":test-result: FAIL", ":global-test-result: FAIL")
            write(d, "b/skip", ":test-result: SKIP", ":global-test-result: SKIP")
            write(d, "b/xfail", ":test-result: XFAIL",
                  ":global-test-result: XFAIL")
            write(d, "b/xpass", ":test-result: XPASS",
                  ":global-test-result: XPASS")
            rc, out = tally(d)
        self.assertEqual(out[-1], "check: 2 passed, 2 failed, 1 skipped")
        self.assertEqual(sorted(names(out[:-1])),
                         [f"FAIL: {d}/a/bad", f"XPASS: {d}/b/xpass"])
        self.assertEqual(rc, 1)

    def test_without_global_result(self):
        with tempfile.TemporaryDirectory() as d:
            write(d, "mixed", ":test-result: PASS", ":test-result: SKIP")
            write(d, "skips", ":test-result: SKIP", ":test-result: SKIP")
            write(d, "err", ":test-result: PASS", ":test-result: ERROR")
            rc, out = tally(d)
        self.assertEqual(out[-1], "check: 1 passed, 1 failed, 1 skipped")

    def test_named_log_without_result_fails(self):
        with tempfile.TemporaryDirectory() as d:
            ok = write(d, "ok", ":global-test-result: PASS")
            rc, out = tally(ok, os.path.join(d, "never.log"))
        self.assertEqual(names(out), [f"NOT RUN: {d}/never",
                                      "check: 1 passed, 1 failed, 0 skipped"])
        self.assertIn("    (no log)", out)

    def test_failed_log_tail_comes_first(self):
        with tempfile.TemporaryDirectory() as d:
            write(d, "bad", ":global-test-result: FAIL")
            with open(os.path.join(d, "bad.log"), "w") as f:
                f.writelines(f"line {i}\n" for i in range(100))
            rc, out = tally(d)
        self.assertEqual(out[0], f"--- the end of {d}/bad.log:")
        self.assertEqual(out[1:26], [f"    line {i}" for i in range(75, 100)])
        self.assertEqual(out[26:], [f"FAIL: {d}/bad",
                                    "check: 0 passed, 1 failed, 0 skipped"])

    def test_all_passing_exits_zero(self):
        with tempfile.TemporaryDirectory() as d:
            write(d, "ok", ":global-test-result: PASS")
            self.assertEqual(tally(d), (0, ["check: 1 passed, 0 failed, "
                                            "0 skipped"]))


if __name__ == "__main__":
    unittest.main(verbosity=2)
