#!/usr/bin/env python3
"""End-to-end test of one scenario (a GDB script, see scenario.py): run it
with real GDB against the stub under test and against gdbserver, normalize
both transcripts, check the scenario's assertions on each, and require the
two to be identical.

    run_gdb.py [--stub PATH] [--reference PATH] [--exact-addresses] SCENARIO.gdb
    run_gdb.py --show [--stub PATH] SCENARIO.gdb     (one run, printed)

The stub under test is --stub, else $PTSTUB; the reference is --reference,
else $GDBSERVER, else gdbserver.  Exit status: 0 pass, 1 fail, 77 skip."""

import argparse
import dataclasses
import functools
import os
import re
import shutil
import subprocess
import sys

# Importing from the source tree must not leave __pycache__ in it.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from compare import check_assertions, compare  # noqa: E402
from normalize import drop_lines, normalize  # noqa: E402
from processes import become_subreaper  # noqa: E402
from scenario import (REQUIREMENTS, ExpectedDifference,  # noqa: E402
                      ScenarioError, load_scenario)
from transcript import run_scenario  # noqa: E402

SKIP, FAIL, PASS = 77, 1, 0


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("scenario")
    p.add_argument("--stub", default=os.environ.get("PTSTUB"))
    p.add_argument("--reference",
                   default=os.environ.get("GDBSERVER") or
                   shutil.which("gdbserver"))
    p.add_argument("--gdb", default=os.environ.get("GDB") or
                   shutil.which("gdb"))
    p.add_argument("--builddir", default=os.environ.get("top_builddir", "."))
    p.add_argument("--srcdir", default=os.environ.get("top_srcdir"))
    p.add_argument("--exact-addresses", action="store_true",
                   help="compare libc, ld.so and stack addresses too "
                        "(stricter than the default normalization)")
    p.add_argument("--show", action="store_true",
                   help="run only the stub under test and print what GDB "
                        "prints; fail if GDB reports an error")
    return p.parse_args(argv)


def usable(path):
    return bool(path) and path != "no" and os.access(path, os.X_OK)


def skip(reason):
    print(f"SKIP: {reason}")
    return SKIP


def indent(text):
    return "".join("    " + line + "\n" for line in text.rstrip().split("\n"))


def run_role(role, stub, sc, args, program, outroot, paths):
    outdir = os.path.join(outroot, role)
    shutil.rmtree(outdir, ignore_errors=True)
    t = run_scenario(sc, stub, args.gdb, program, outdir, outroot)
    paths = dict(paths, **{os.path.abspath(outdir): "@OUT@",
                          os.path.abspath(outroot): "@CWD@",
                          os.path.abspath(stub): "@STUB@"})
    # Assertions always see the normalized text; the comparison may be
    # stricter.
    t.normalized = normalize(t.text, paths)
    t.compared = (normalize(t.text, paths, high_addresses=False)
                  if args.exact_addresses else t.normalized)
    with open(os.path.join(outdir, "transcript.norm"), "w") as f:
        f.write(t.compared)
    # The reference's own warnings on this machine (below) are not what
    # the scenario asserts about.
    asserted = t.normalized
    noise = reference_noise() if stub != args.stub else []
    if noise:
        asserted = "".join(l for l in asserted.splitlines(True)
                           if not any(r.match(l.rstrip("\n"))
                                      for r in noise))
    t.problems += check_assertions(sc, asserted, t.gdb_ran,
                                   t.gdb_status)
    print(f"--- {role}: {stub}")
    for command in t.commands:
        print(f"  $ {command}")
    return t


GROUND_TRUTH = re.compile(r"^ground-truth ([\w.-]+) = (.*?)\s*$", re.M)


def ground_truth(sc, args, program, outroot, paths):
    """Runs SC's ground-truth script against the reference stub; returns
    ({KEY: VALUE}, problems)."""
    with open(sc.ground_truth) as f:
        body = f.read()
    # Single-stepping every region is slower than the scenario itself.
    gt = dataclasses.replace(sc, body=body, expect=[], expect_not=[],
                             expect_gt=[], allow_error="",
                             timeout=max(sc.timeout, 20.0))
    t = run_role("ground-truth", args.reference, gt, args, program, outroot,
                 paths)
    values = dict(GROUND_TRUTH.findall(t.normalized))
    if not values:
        t.problems.append("the ground-truth script printed no "
                          "'ground-truth KEY = VALUE' line")
    for key, value in sorted(values.items()):
        print(f"  ground truth: {key} = {value}")
    return values, t.problems


def main_stub_only(sc, args, program, outroot, paths):
    """A scenario with `reference: none`: the stub's run alone, checked
    against the scenario's assertions and the ground truth's values."""
    print(f"--- no reference run: {sc.no_reference}")
    if usable(args.reference) and \
            os.path.realpath(args.stub) == os.path.realpath(args.reference):
        return skip(f"the stub under test is the reference {args.reference}"
                    f", which this scenario does without: "
                    f"{sc.no_reference}")
    if sc.ground_truth:
        if not usable(args.reference):
            return skip("gdbserver not found: it runs the ground truth "
                        "(install Debian package gdbserver)")
        values, problems = ground_truth(sc, args, program, outroot, paths)
        if problems:
            print(f"FAIL: ground truth {sc.ground_truth} against "
                  f"{args.reference} (fix the script):")
            for p in problems:
                print(f"  {p}")
            print(f"FAIL: {sc.name}")
            return FAIL
        expect, missing = sc.ground_truth_expect(values)
        sc = dataclasses.replace(sc, expect=sc.expect + expect)
        if missing:
            print(f"FAIL: the ground truth printed no value for "
                  f"{', '.join(sorted(set(missing)))}")
            return FAIL
    cand = run_role("stub", args.stub, sc, args, program, outroot, paths)
    print(f"--- normalized transcript of the stub under test "
          f"({outroot}/stub/transcript.norm):")
    print(indent(cand.compared), end="")
    if cand.problems:
        print(f"FAIL: against {args.stub}:")
        for p in cand.problems:
            print(f"  {p}")
    status = FAIL if cand.problems else PASS
    print(f"{'PASS' if status == PASS else 'FAIL'}: {sc.name}")
    return status


# gdbserver 13 reads AVX-512 state at Intel's fixed XSAVE offsets; where
# CPUID places it elsewhere (AMD without MPX) its values are wrong, so they
# cannot be the reference (regs_gdb_test checks ptstub's against the truth).
AVX512_LINES = re.compile(r"^ *(k[0-7]|zmm\d+h?|[xy]mm(1[6-9]|2\d|3[01])h?)\s")


GDBSERVER_AMX_WARNING = re.compile(
    r"^Warning: ptrace\(regsets_store_inferior_registers\): Bad address$")


@functools.lru_cache(maxsize=None)
def cpu_flags():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def reference_noise():
    """Lines the reference stub prints on this machine for its own bugs:
    left out of what the scenario's assertions see."""
    return [GDBSERVER_AMX_WARNING] if "amx_tile" in cpu_flags() else []


def machine_differences(bindir):
    found = []
    try:
        layout = subprocess.run([os.path.join(bindir, "xsave_layout")],
                                capture_output=True, text=True).stdout.strip()
    except OSError:
        layout = "unknown"
    if layout not in ("fixed", "none"):
        found.append(ExpectedDifference(AVX512_LINES,
                                        f"XSAVE layout '{layout}': "
                                        "gdbserver 13 misreads AVX-512 "
                                        "registers here"))
    found += [ExpectedDifference(r, "AMX tile state: gdbserver 13's "
                                 "xstate write fails here (EFAULT) and it "
                                 "warns") for r in reference_noise()]
    return found


def unmet_requirement(sc, bindir):
    """Why this machine cannot run SC (the probe's own line), or None;
    a probe that cannot tell raises ScenarioError."""
    for need in sc.requires:
        probe = os.path.join(bindir, REQUIREMENTS[need])
        try:
            p = subprocess.run([probe], capture_output=True, text=True,
                               timeout=30)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise ScenarioError(f"probe {probe} did not run: {e}")
        if p.returncode == SKIP:
            return f"{need}: {p.stdout.strip()}"
        if p.returncode != 0:
            raise ScenarioError(f"probe {probe} failed ({p.returncode}): "
                                f"{p.stderr.strip()}")
    return None


def main(argv):
    args = parse_args(argv)
    # Stub and GDB run in the scenario's output folder: a relative path
    # given on the command line must still name the same file.
    for name in ("stub", "reference", "gdb"):
        path = getattr(args, name)
        if path and os.sep in path and os.path.exists(path):
            setattr(args, name, os.path.abspath(path))
    try:
        sc = load_scenario(args.scenario)
    except (OSError, ScenarioError) as e:
        print(f"ERROR: {e}")
        return 99
    if not usable(args.gdb):
        return skip("gdb not found (install Debian package gdb)")
    if not usable(args.stub):
        print(f"FAIL: stub under test {args.stub!r} is not an executable "
              "(give --stub or set PTSTUB)")
        return FAIL
    if not args.show and not sc.no_reference and not usable(args.reference):
        return skip("gdbserver not found (install Debian package gdbserver)")
    builddir = os.path.abspath(args.builddir)
    srcdir = os.path.abspath(args.srcdir or
                             os.path.join(os.path.dirname(__file__), "../.."))
    program = os.path.join(builddir, "testsuite/programs/bin", sc.program)
    if not os.access(program, os.X_OK):
        print(f"FAIL: inferior {program} not built (make check builds it)")
        return FAIL
    try:
        unmet = unmet_requirement(sc, os.path.dirname(program))
    except ScenarioError as e:
        print(f"FAIL: {e}")
        return FAIL
    if unmet:
        return skip(f"this machine lacks what the scenario requires: {unmet}")
    outroot = os.path.join(builddir, "testsuite/e2e/out", sc.name)
    # The inferiors' folder gets its own token so that a build in the
    # source tree (builddir == srcdir) normalizes like one outside it.
    paths = {os.path.dirname(program): "@BIN@", srcdir: "@SRC@"}
    if builddir != srcdir:
        paths[builddir] = "@BUILD@"
    become_subreaper()
    sc.expected_differences += machine_differences(os.path.dirname(program))

    if args.show:
        t = run_role("show", args.stub, sc, args, program, outroot, paths)
        # What GDB printed, less its file-fetch chatter (see normalize.py).
        print(drop_lines(t.text), end="")
        for p in t.problems:
            print(f"FAIL: {p}")
        return FAIL if t.problems else PASS

    if sc.no_reference:
        return main_stub_only(sc, args, program, outroot, paths)
    ref = run_role("reference", args.reference, sc, args, program, outroot,
                   paths)
    cand = run_role("stub", args.stub, sc, args, program, outroot, paths)
    status = PASS
    print(f"--- normalized transcript of the stub under test "
          f"({outroot}/stub/transcript.norm):")
    print(indent(cand.compared), end="")
    if ref.problems:
        status = FAIL
        print("FAIL: the scenario does not hold against the reference "
              f"{args.reference} (fix the scenario):")
        for p in ref.problems:
            print(f"  {p}")
    if cand.problems:
        status = FAIL
        print(f"FAIL: against {args.stub}:")
        for p in cand.problems:
            print(f"  {p}")
    same, report = compare(ref.compared, cand.compared,
                           sc.expected_differences,
                           (f"reference ({args.reference})",
                            f"stub ({args.stub})"))
    for line in report:
        print(line)
    if not same:
        status = FAIL
        print("FAIL: normalized transcripts differ (diff above)")
    print(f"{'PASS' if status == PASS else 'FAIL'}: {sc.name}")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
