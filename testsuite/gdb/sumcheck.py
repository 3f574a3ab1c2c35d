#!/usr/bin/env python3
"""Judge DejaGnu .sum files of GDB's testsuite run through ptstub.

    sumcheck.py --expect FILE --out DIR [--stub ptstub] [--baseline gdbserver]

DIR holds one run per STUB/BOARD/SUITE/gdb.sum (as check-gdb.sh lays
them out).  Prints the DejaGnu summary of each run of STUB and of the
baseline, then every result of STUB that is not allowed:

  - FAIL, ERROR, UNRESOLVED, UNSUPPORTED, UNTESTED, XPASS, KPASS not
    listed in the expectations file;
  - a test that PASSes with the baseline stub on the same board but not
    with STUB (the differential rule; listed ones are allowed too);
  - a run that did not finish (no DejaGnu summary: killed by timeout).

Exit status 1 when anything unexpected is left, else 0.  Listed
expectations that did not occur are printed as stale (not an error).

Expectations file: one allowed result a line,

    STATUS BOARD PATTERN -- REASON

STATUS is a DejaGnu status (FAIL, UNSUPPORTED, ...) or MISSING (a
baseline PASS absent from STUB's run); BOARD a board name or *; PATTERN
an fnmatch pattern over the test name as the .sum prints it after
"STATUS: " (e.g. gdb.btrace/tsx.exp: *).  REASON is required.  Lines
starting with # and blank lines are ignored.
"""

import argparse
import fnmatch
import os
import re
import sys

BAD = ("FAIL", "ERROR", "UNRESOLVED", "UNSUPPORTED", "UNTESTED", "XPASS",
       "KPASS")
STATUSES = ("PASS", "FAIL", "XPASS", "XFAIL", "KPASS", "KFAIL",
            "UNRESOLVED", "UNSUPPORTED", "UNTESTED", "ERROR", "WARNING")
RESULT_RE = re.compile(r"^(%s): (.*)$" % "|".join(STATUSES))
RUNNING_RE = re.compile(r"^Running .*/((gdb\.[^/]+)/[^/]+\.exp) \.\.\.$")
# DejaGnu's own names for the summary lines.
LABELS = (("PASS", "expected passes"), ("FAIL", "unexpected failures"),
          ("XPASS", "unexpected successes"), ("XFAIL", "expected failures"),
          ("KPASS", "unknown successes"), ("KFAIL", "known failures"),
          ("UNRESOLVED", "unresolved testcases"),
          ("UNTESTED", "untested testcases"),
          ("UNSUPPORTED", "unsupported tests"), ("ERROR", "errors"),
          ("WARNING", "warnings"))


class Run:
    """One gdb.sum: its results, in order, and whether it finished."""

    def __init__(self, path):
        self.path = path
        self.results = []           # (status, name)
        self.finished = False
        current = None
        with open(path, errors="replace") as f:
            for line in f:
                line = line.rstrip("\n")
                m = RUNNING_RE.match(line)
                if m:
                    current = m.group(1)
                    continue
                if line.startswith("\t\t=== gdb Summary ==="):
                    self.finished = True
                    continue
                m = RESULT_RE.match(line)
                if not m:
                    continue
                status, name = m.groups()
                # ERROR and WARNING lines name no test: tie them to the
                # .exp that was running.
                if current and not name.startswith(current.split("/")[0]):
                    name = "%s: %s" % (current, name)
                self.results.append((status, name))
        self.last_exp = current

    def counts(self):
        c = {}
        for status, _ in self.results:
            c[status] = c.get(status, 0) + 1
        return c


class Expectation:
    def __init__(self, status, board, pattern, reason, lineno):
        self.status, self.board, self.pattern = status, board, pattern
        self.reason, self.lineno, self.used = reason, lineno, 0

    def matches(self, status, board, name):
        return (self.status == status
                and (self.board == "*" or self.board == board)
                and fnmatch.fnmatchcase(name, self.pattern))


def read_expectations(path):
    out = []
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            head, sep, reason = line.partition(" -- ")
            parts = head.split(None, 2)
            if not sep or not reason.strip() or len(parts) != 3:
                sys.exit("%s:%d: want 'STATUS BOARD PATTERN -- REASON'"
                         % (path, lineno))
            if parts[0] not in STATUSES + ("MISSING",):
                sys.exit("%s:%d: unknown status %s" % (path, lineno,
                                                        parts[0]))
            out.append(Expectation(parts[0], parts[1], parts[2],
                                   reason.strip(), lineno))
    return out


def find_runs(outdir, stub):
    """{(board, suite): Run} for OUTDIR/STUB/BOARD/SUITE/gdb.sum."""
    runs = {}
    base = os.path.join(outdir, stub)
    if not os.path.isdir(base):
        return runs
    for board in sorted(os.listdir(base)):
        for suite in sorted(os.listdir(os.path.join(base, board))):
            path = os.path.join(base, board, suite, "gdb.sum")
            if os.path.exists(path):
                runs[(board, suite)] = Run(path)
    return runs


def print_summary(stub, board, suite, run):
    c = run.counts()
    state = "" if run.finished else "  (DID NOT FINISH)"
    print("\t\t=== %s %s %s ===%s" % (stub, board, suite, state))
    for status, label in LABELS:
        if c.get(status):
            print("# of %-28s%d" % (label, c[status]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--expect", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--stub", default="ptstub")
    ap.add_argument("--baseline", default="gdbserver")
    args = ap.parse_args()

    expectations = read_expectations(args.expect)
    runs = find_runs(args.out, args.stub)
    base_runs = find_runs(args.out, args.baseline)
    if not runs:
        sys.exit("sumcheck: no %s runs under %s" % (args.stub, args.out))

    for key, run in sorted(base_runs.items()):
        print_summary(args.baseline, key[0], key[1], run)
    for key, run in sorted(runs.items()):
        print_summary(args.stub, key[0], key[1], run)

    def allowed(status, board, name):
        for e in expectations:
            if e.matches(status, board, name):
                e.used += 1
                return e
        return None

    unexpected = []
    passed = failed = 0
    for (board, suite), run in sorted(runs.items()):
        if not run.finished:
            unexpected.append("ERROR: %s %s: run did not finish "
                              "(timed out during %s)"
                              % (board, suite, run.last_exp or "start-up"))
        seen = {}
        for status, name in run.results:
            seen.setdefault(name, set()).add(status)
            if status == "PASS":
                passed += 1
            elif status in BAD:
                if allowed(status, board, name):
                    continue
                failed += 1
                unexpected.append("%s: %s: %s" % (status, board, name))
        base = base_runs.get((board, suite))
        if base is None:
            continue
        for status, name in base.results:
            if status != "PASS" or "PASS" in seen.get(name, ()):
                continue
            if allowed("MISSING", board, name):
                continue
            # A FAIL of the same name is already listed above.
            if not (seen.get(name, set()) & set(BAD)):
                failed += 1
                unexpected.append("MISSING: %s: %s (passes with %s)"
                                  % (board, name, args.baseline))

    stale = [e for e in expectations if not e.used]
    if stale:
        print("\nExpectations that did not occur (stale?):")
        for e in stale:
            print("  line %d: %s %s %s" % (e.lineno, e.status, e.board,
                                           e.pattern))
    if unexpected:
        print("\nUnexpected results of %s (not in %s):"
              % (args.stub, os.path.basename(args.expect)))
        for u in unexpected:
            print("  " + u)
    else:
        print("\nNo unexpected results.")
    allowed_n = sum(e.used for e in expectations)
    print("check-gdb: %d passed, %d failed, %d skipped"
          % (passed, len(unexpected), allowed_n))
    return 1 if unexpected else 0


if __name__ == "__main__":
    sys.exit(main())
