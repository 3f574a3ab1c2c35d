#!/usr/bin/env python3
"""Totals of an automake test run, for CI: the names of failed tests, then
one closing line `check: N passed, N failed, N skipped`.

    tally.py [PATH...]

Each PATH is a .trs file, a test's .log (its .trs beside it is read), or a
folder searched for .trs files (default: the current folder).  XFAIL counts
as passed; XPASS, ERROR and a named test without a .trs as failed.  Exit status 1 if any test failed,
2 if no results were found.  Each failed test's last lines come first."""

import os
import sys

PASSED = {"PASS", "XFAIL"}
FAILED = {"FAIL", "XPASS", "ERROR"}
SKIPPED = {"SKIP"}
TAIL_LINES = 25


def trs_files(paths):
    for path in paths or ["."]:
        if os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs.sort()
                for name in sorted(files):
                    if name.endswith(".trs"):
                        yield os.path.join(root, name)
        elif path.endswith(".log"):
            yield path[:-len(".log")] + ".trs"
        else:
            yield path


def global_result(trs):
    """The test's overall result: its :global-test-result:, else derived
    from its :test-result: lines as automake does (any hard failure wins,
    all-skipped is a skip, otherwise a pass)."""
    results = []
    with open(trs) as f:
        for line in f:
            key, _, value = line.partition(":")[2].partition(":")
            value = value.split()[0] if value.split() else ""
            if key == "global-test-result":
                return value
            if key == "test-result":
                results.append(value)
    for bad in ("ERROR", "FAIL", "XPASS"):
        if bad in results:
            return bad
    if results and all(r == "SKIP" for r in results):
        return "SKIP"
    return "PASS" if results else "ERROR"


def main(argv):
    passed, failed, skipped = 0, [], 0
    for trs in trs_files(argv):
        name = trs[:-len(".trs")] if trs.endswith(".trs") else trs
        try:
            result = global_result(trs)
        except OSError:
            result = "NOT RUN"  # named but has no result: counts as failed
        if result in PASSED:
            passed += 1
        elif result in SKIPPED:
            skipped += 1
        else:
            failed.append((f"{result}: {os.path.normpath(name)}",
                           name + ".log"))
    # A failed test's last lines, so that a CI log names the cause.
    for line, log in failed:
        print(f"--- the end of {log}:")
        try:
            with open(log, errors="replace") as f:
                for tail in f.readlines()[-TAIL_LINES:]:
                    print(f"    {tail.rstrip()}")
        except OSError:
            print("    (no log)")
    for line, _ in failed:
        print(line)
    print(f"check: {passed} passed, {len(failed)} failed, {skipped} skipped")
    if failed:
        return 1
    return 0 if passed or skipped else 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
