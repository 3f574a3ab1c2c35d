#!/usr/bin/env python3
"""Transcript test of one LLDB scenario: the same lldb-22 batch script run
against `lldb-server-22 gdbserver` (LLDB's own stub, the reference) and
against ptstub, both transcripts normalized (pids, ports, paths, library
and stack addresses), the scenario's assertions checked on each, and the
two required to be identical but for the lines each intended difference
names (with its reason).

    run_lldb.py [--stub PATH] SCENARIO.lldb

Header lines of a scenario (each optional):

    # program: plain              inferior in testsuite/programs/bin/
    # args: 5                     its arguments
    # mode: attach                the runner starts the program (stdin a
                                  pipe it keeps open) and the stub
                                  attaches to it; after lldb, the
                                  transcript says whether it still runs
    # expect: REGEX               must match the normalized transcript
                                  (multi-line; backreferences work)
    # expect-not: REGEX           must not match it
    # expected-difference: REGEX -- REASON
    # reference: none -- REASON   ptstub only (lldb-server cannot trace
                                  on a CPU without Intel PT)
    # ground-truth: FILE.lldb     run first against lldb-server; each
                                  "ground-truth KEY = VALUE" line it prints
                                  makes @GT:KEY@ in expect: lines VALUE
    # then: FILE.lldb             a second lldb, without a stub, run after
                                  the first (trace load); its transcript
                                  is appended
    # timeout: 30

In scripts @TARGET@ is the stub's HOST:PORT, @PROG@ the program, @OUT@ a
folder for this run's files, @HERE@ this folder (lldb_helpers.py),
@PTBTRACE@ the ptbtrace tool.  Exit status 0 pass, 1 fail, 77 skip."""

import argparse
import difflib
import os
import re
import shutil
import socket
import subprocess
import sys
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))

from normalize import normalize  # noqa: E402
from processes import become_subreaper, free_port, kill_orphans, \
    kill_tree  # noqa: E402

SKIP, FAIL, PASS = 77, 1, 0
DIRECTIVE = re.compile(r"^#\s*(program|args|mode|expect|expect-not|"
                       r"expected-difference|reference|ground-truth|then|"
                       r"timeout):\s*(.*?)\s*$")
GT_KEY = re.compile(r"@GT:([\w.-]+)@")
GT_LINE = re.compile(r"^ground-truth ([\w.-]+) = (\S+)$", re.M)

# LLDB's ways of naming a process or thread id.
PIDS = re.compile(r"\b(?P<pre>Process |process |tid = |pid = |pid: |"
                  r"tid: |\"tid\":)(?P<id>\d{2,})\b")
# The emulated trace's sizes and LLDB's timings vary from run to run.
TIMING = re.compile(r"(?<=: )\d+\.\d+s$", re.M)


class Scenario:
    def __init__(self, path):
        self.path = path
        self.name = os.path.splitext(os.path.basename(path))[0]
        self.program, self.args, self.mode = "plain", [], "remote"
        self.expect, self.expect_not, self.differences = [], [], []
        self.no_reference = self.ground_truth = self.then = ""
        self.timeout = 30.0
        with open(path) as f:
            self.body = f.read()
        for line in self.body.splitlines():
            m = DIRECTIVE.match(line)
            if not m:
                continue
            key, value = m.groups()
            if key == "program":
                self.program = value
            elif key == "args":
                self.args = value.split()
            elif key == "mode":
                self.mode = value
            elif key == "expect":
                self.expect.append(value)
            elif key == "expect-not":
                self.expect_not.append(value)
            elif key == "expected-difference":
                regex, _, reason = value.partition(" -- ")
                if not reason:
                    raise SystemExit(f"{path}: expected-difference "
                                     "without '-- REASON'")
                self.differences.append((re.compile(regex), reason))
            elif key == "reference":
                self.no_reference = value.partition(" -- ")[2] or value
            elif key == "ground-truth":
                self.ground_truth = value
            elif key == "then":
                self.then = value
            elif key == "timeout":
                self.timeout = float(value)
        # A slower stub (make check-sanitize's) gets E2E_TIMEOUT_SCALE
        # times the time.
        self.timeout *= float(os.environ.get("E2E_TIMEOUT_SCALE") or 1)


def listening(port):
    """Whether something listens on 127.0.0.1:PORT (without connecting:
    both stubs take a single connection)."""
    want = f"0100007F:{port:04X}"
    try:
        with open("/proc/net/tcp") as f:
            return any(line.split()[1] == want and line.split()[3] == "0A"
                       for line in f.readlines()[1:])
    except OSError:
        return False


class StubRun:
    def __init__(self, kind, path, program, args, cwd, pid=None):
        self.port = free_port()
        address = f"127.0.0.1:{self.port}"
        if kind == "lldb-server" and pid:
            argv = [path, "gdbserver", address, "--attach", str(pid)]
        elif kind == "lldb-server":
            argv = [path, "gdbserver", address, program, *args]
        elif pid:
            argv = [path, "--once", "--attach", address, str(pid)]
        else:
            argv = [path, "--once", address, program, *args]
        self.proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL,
                                     start_new_session=True)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not listening(self.port):
            if self.proc.poll() is not None:
                break
            time.sleep(0.01)
        self.address = address

    def finish(self):
        try:
            self.proc.wait(timeout=3)
        except subprocess.TimeoutExpired:
            pass
        kill_tree([self.proc.pid])
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            pass


def run_lldb(lldb, script_text, subst, out_dir, tag, program, timeout,
             cwd):
    for key, value in subst.items():
        script_text = script_text.replace(key, value)
    script = os.path.join(out_dir, f"{tag}.lldb")
    with open(script, "w") as f:
        f.write("".join(l + "\n" for l in script_text.splitlines()
                        if not l.startswith("#")))
    # A command that fails does not end the script: later commands and
    # expect: lines say what must follow.
    argv = [lldb, "--no-lldbinit", "-b", "-O",
            "settings set interpreter.stop-command-source-on-error false",
            "-s", script]
    if program:
        argv.append(program)
    try:
        res = subprocess.run(argv, cwd=cwd, stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             timeout=timeout)
        text = res.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired as e:
        text = (e.stdout or b"").decode("utf-8", "replace")
        text += f"\n[lldb killed after {timeout} s]\n"
    with open(os.path.join(out_dir, f"{tag}.raw"), "w") as f:
        f.write(text)
    return text


def lldb_normalize(text, paths):
    ids = {}

    def pid(m):
        value = int(m.group("id"))
        ids.setdefault(value, f"<pid{len(ids) + 1}>")
        return m.group("pre") + ids[value]
    text = text.replace("\r", "")
    # The script's own echo names its file.
    text = re.sub(r"^\(lldb\) command source -s 0 .*\nExecuting commands "
                  r"in .*\n", "", text, flags=re.M)
    text = PIDS.sub(pid, text)
    text = TIMING.sub("<time>", text)
    return normalize(text, paths)


def set_aside(text, differences, counts):
    kept = []
    for line in text.split("\n"):
        for i, (regex, _) in enumerate(differences):
            if regex.search(line):
                counts[i] += 1
                break
        else:
            kept.append(line)
    return "\n".join(kept)


def check(name, text, scenario, gt):
    ok = True
    for pattern in scenario.expect:
        pattern = GT_KEY.sub(lambda m: re.escape(gt.get(m.group(1), "?")),
                             pattern)
        if not re.search(pattern, text, re.M):
            print(f"FAIL {name}: expected /{pattern}/")
            ok = False
    for pattern in scenario.expect_not:
        if re.search(pattern, text, re.M):
            print(f"FAIL {name}: unexpected /{pattern}/")
            ok = False
    return ok


def one_run(kind, stub_path, args, scenario, out_dir, gt_script=None):
    os.makedirs(out_dir, exist_ok=True)
    program = os.path.join(args.builddir, "testsuite", "programs", "bin",
                           scenario.program)
    inferior = None
    if scenario.mode == "attach":
        # Without address randomization, as both stubs start programs.
        inferior = subprocess.Popen(["setarch", "-R", program,
                                     *scenario.args], cwd=out_dir,
                                    stdin=subprocess.PIPE,
                                    stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
        time.sleep(0.2)
    stub = StubRun(kind, stub_path, program, scenario.args, out_dir,
                   inferior.pid if inferior else None)
    subst = {"@TARGET@": stub.address, "@PROG@": program, "@OUT@": out_dir,
             "@HERE@": HERE, "@PTBTRACE@": os.path.join(args.builddir,
                                                         "ptbtrace")}
    body = scenario.body
    if gt_script:
        with open(gt_script) as f:
            body = f.read()
    try:
        text = run_lldb(args.lldb, body, subst, out_dir,
                        "ground-truth" if gt_script else "session", program,
                        scenario.timeout, out_dir)
        if inferior:
            # A detached program runs on: a byte lets it read and tick.
            try:
                inferior.stdin.write(b"x")
                inferior.stdin.flush()
                time.sleep(0.2)
                alive = inferior.poll() is None
            except OSError:
                alive = False
            text += ("[program after the session: "
                     f"{'running' if alive else 'gone'}]\n")
    finally:
        stub.finish()
        if inferior:
            inferior.kill()
            inferior.wait()
        kill_orphans()
    if scenario.then and not gt_script:
        with open(os.path.join(os.path.dirname(scenario.path),
                               scenario.then)) as f:
            then = f.read()
        text += run_lldb(args.lldb, then, subst, out_dir, "then", None,
                         scenario.timeout, out_dir)
    return text


def main(argv):
    p = argparse.ArgumentParser()
    p.add_argument("scenario")
    p.add_argument("--stub", default=os.environ.get("PTSTUB"))
    p.add_argument("--reference", default=os.environ.get("LLDB_SERVER") or
                   shutil.which("lldb-server-22"))
    p.add_argument("--lldb", default=os.environ.get("LLDB") or
                   shutil.which("lldb-22"))
    p.add_argument("--builddir", default=os.environ.get("top_builddir", "."))
    p.add_argument("--srcdir", default=os.environ.get("top_srcdir"))
    args = p.parse_args(argv)
    args.builddir = os.path.abspath(args.builddir)
    srcdir = os.path.abspath(args.srcdir or os.path.join(HERE, "..", ".."))
    scenario = Scenario(args.scenario)
    for what, path in (("lldb-22", args.lldb), ("ptstub", args.stub)):
        if not path or not os.access(path, os.X_OK):
            print(f"SKIP: {what} not found (bootstrap installs lldb-22)")
            return SKIP
    need_ref = not scenario.no_reference or scenario.ground_truth
    if need_ref and (not args.reference or
                     not os.access(args.reference, os.X_OK)):
        print("SKIP: lldb-server-22 not found (Debian package lldb-22)")
        return SKIP
    become_subreaper()
    out = os.path.join(args.builddir, "testsuite", "lldb", "out",
                       scenario.name)
    shutil.rmtree(out, ignore_errors=True)
    paths = {out: "@OUT@", srcdir: "@SRC@", args.builddir: "@BUILD@",
             os.path.join(args.builddir, "testsuite", "programs", "bin"):
             "@BIN@"}

    gt = {}
    if scenario.ground_truth:
        text = one_run("lldb-server", args.reference, args, scenario,
                       os.path.join(out, "ground-truth"),
                       os.path.join(os.path.dirname(scenario.path),
                                    scenario.ground_truth))
        gt = dict(GT_LINE.findall(text))
        if not gt:
            print("FAIL: the ground-truth script printed no values")
            print(text)
            return FAIL
        for key, value in sorted(gt.items()):
            print(f"ground truth: {key} = {value}")

    stub_text = lldb_normalize(one_run("ptstub", args.stub, args, scenario,
                                       os.path.join(out, "stub")), paths)
    with open(os.path.join(out, "stub", "transcript.norm"), "w") as f:
        f.write(stub_text)
    ok = check("ptstub", stub_text, scenario, gt)
    if scenario.no_reference:
        print(f"no reference run: {scenario.no_reference}")
        if not ok:
            print(stub_text)
        return PASS if ok else FAIL

    ref_text = lldb_normalize(one_run("lldb-server", args.reference, args,
                                      scenario, os.path.join(out, "ref")),
                              paths)
    with open(os.path.join(out, "ref", "transcript.norm"), "w") as f:
        f.write(ref_text)
    ok = check("lldb-server", ref_text, scenario, gt) and ok
    counts = [0] * len(scenario.differences)
    a = set_aside(ref_text, scenario.differences, counts)
    b = set_aside(stub_text, scenario.differences, counts)
    for (regex, reason), n in zip(scenario.differences, counts):
        print(f"intended difference ({n} lines): /{regex.pattern}/ -- "
              f"{reason}")
    if a != b:
        print("FAIL: transcripts differ (lldb-server ---, ptstub +++)")
        sys.stdout.writelines(difflib.unified_diff(
            a.splitlines(True), b.splitlines(True), "lldb-server", "ptstub"))
        ok = False
    if not ok:
        print("---- ptstub transcript ----")
        print(stub_text)
    return PASS if ok else FAIL


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
