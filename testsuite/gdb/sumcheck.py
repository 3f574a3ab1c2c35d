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

    sumcheck.py --differential --out DIR [--per-file FILE]
                [--hw-unavailable REASON]

judges a whole-suite run (make check-gdb-full) against the baseline test
by test, without expectations: a test is worse when it PASSes with the
baseline and not with STUB, or has a FAIL/ERROR/... with STUB that the
baseline does not have.  Results of hardware watchpoint and breakpoint
files (HW_FILES) are set aside with REASON when the machine's debug
registers do not trap, neither passes nor failures.  --per-file writes
one line per .exp: STUB's and the baseline's passes and failures, and
how many tests are worse.

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
# Files whose tests need debug registers that trap (set aside, with the
# probe's reason, where they do not).
HW_FILES = ("*watch*", "*hbreak*", "*hw*")
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


# What GDB's testsuite appends to a FAIL's name to say why; the test is
# the same one.
WHY_RE = re.compile(r" \((timeout|eof|the program exited|the program is no "
                    r"longer running|got interactive prompt|GDB internal "
                    r"error|unexpected output)\)$")


# The bug report a KFAIL or KPASS names, after the test's name.
PRMS_RE = re.compile(r" \(PRMS:? [^)]*\)$")


def as_compared(status, name):
    """A result as the differential compares it: the test's name without
    why it failed, a KPASS as the pass it is and a KFAIL as the failure
    it is.  Tests set known failures up by whether the stub is gdbserver
    (target_is_gdbserver reads `monitor help`): argv0-symlink.exp
    expects one from any other stub, so ptstub's pass is a KPASS where
    gdbserver's is a PASS; dprintf-detach.exp expects one from
    gdbserver only, so the same failure is a KFAIL there and a FAIL with
    ptstub.  The name then carries the bug's number."""
    name = PRMS_RE.sub("", WHY_RE.sub("", name))
    return {"KPASS": "PASS", "KFAIL": "FAIL"}.get(status, status), name


def exp_of(name):
    """The .exp file a test name starts with ("gdb.base/x.exp")."""
    return name.split(": ", 1)[0]


def differential(args, runs, base_runs):
    """The whole-suite verdict: STUB against the baseline, test by test."""
    worse = []
    aside = set()
    table = {}   # exp -> [stub pass, stub bad, base pass, base bad, worse]
    passed = 0

    def row(exp):
        return table.setdefault(exp, [0, 0, 0, 0, 0])

    def hw(name):
        return args.hw_unavailable and any(
            fnmatch.fnmatchcase(exp_of(name), "*/" + pat)
            for pat in HW_FILES)

    for key in sorted(set(runs) | set(base_runs)):
        board = key[0]
        run, base = runs.get(key), base_runs.get(key)
        if run is None or base is None:
            worse.append("ERROR: %s %s: no %s run to compare"
                         % (board, key[1], args.stub if run is None
                            else args.baseline))
            continue
        for r, who in ((run, args.stub), (base, args.baseline)):
            if not r.finished:
                worse.append("ERROR: %s %s: %s's run did not finish "
                             "(timed out during %s)"
                             % (board, key[1], who, r.last_exp or "start-up"))
        mine, theirs = {}, {}
        for results, into in ((run.results, mine), (base.results, theirs)):
            for status, name in results:
                status, name = as_compared(status, name)
                into.setdefault(name, set()).add(status)
        for name in sorted(set(mine) | set(theirs)):
            m, t = mine.get(name, set()), theirs.get(name, set())
            if hw(name):
                aside.add((board, name))
                continue
            r = row(exp_of(name))
            r[0] += "PASS" in m
            r[1] += bool(m & set(BAD))
            r[2] += "PASS" in t
            r[3] += bool(t & set(BAD))
            passed += "PASS" in m
            if "PASS" in t and "PASS" not in m:
                why = "/".join(sorted(m)) or "absent"
                worse.append("MISSING: %s: %s (%s; passes with %s)"
                             % (board, name, why, args.baseline))
            elif (m & set(BAD)) - t:
                worse.append("%s: %s: %s (not with %s)"
                             % ("/".join(sorted((m & set(BAD)) - t)),
                                board, name, args.baseline))
            else:
                continue
            r[4] += 1

    if args.per_file:
        with open(args.per_file, "w") as f:
            f.write("# exp: %s pass bad | %s pass bad | worse\n"
                    % (args.stub, args.baseline))
            for exp in sorted(table):
                r = table[exp]
                f.write("%-60s %5d %4d | %5d %4d | %d\n"
                        % (exp, r[0], r[1], r[2], r[3], r[4]))
    if aside:
        print("\nSet aside, %s (%d tests in %s files):"
              % (args.hw_unavailable, len(aside), "/".join(HW_FILES)))
        for exp in sorted({exp_of(n) for _, n in aside}):
            print("  " + exp)
    if worse:
        print("\nWhere %s does worse than %s:" % (args.stub, args.baseline))
        for w in worse:
            print("  " + w)
    else:
        print("\n%s does as well as %s on every test." % (args.stub,
                                                       args.baseline))
    print("check-gdb-full: %d passed, %d worse than %s, %d set aside"
          % (passed, len(worse), args.baseline, len(aside)))
    return 1 if worse else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--expect")
    ap.add_argument("--out", required=True)
    ap.add_argument("--stub", default="ptstub")
    ap.add_argument("--baseline", default="gdbserver")
    ap.add_argument("--differential", action="store_true")
    ap.add_argument("--per-file")
    ap.add_argument("--hw-unavailable")
    args = ap.parse_args()
    if not args.differential and not args.expect:
        ap.error("--expect is needed unless --differential")

    runs = find_runs(args.out, args.stub)
    base_runs = find_runs(args.out, args.baseline)
    if not runs:
        sys.exit("sumcheck: no %s runs under %s" % (args.stub, args.out))

    for key, run in sorted(base_runs.items()):
        print_summary(args.baseline, key[0], key[1], run)
    for key, run in sorted(runs.items()):
        print_summary(args.stub, key[0], key[1], run)
    if args.differential:
        return differential(args, runs, base_runs)
    expectations = read_expectations(args.expect)

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
