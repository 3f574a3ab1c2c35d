"""A scenario: one GDB script whose leading comment lines say how to run it
and what its transcript must show.

    # program: plain              inferior in testsuite/programs/bin/
    # args: 5                     its arguments (remote mode)
    # mode: remote                remote | attach | multi | multi-attach |
    #                             stdio (multi-attach: a --multi stub and
    #                             a running process, @PID@, to `attach`;
    #                             stdio: the script starts the stub
    #                             itself with `target remote | @STUB@ ...`)
    # expect: REGEX               must match the normalized transcript
    # expect-not: REGEX           must not match it
    # expected-difference: REGEX -- REASON
    #                             lines matching REGEX may differ between
    #                             the stubs; REASON says why
    # allow-error: REASON         GDB errors are part of the scenario
    # after-detach: running       attach: the process must still run
    # timeout: 8                  seconds for each GDB run (default 8)
    # reference: none -- REASON   stub-only: no reference run and no
    #                             comparison (e.g. gdbserver cannot do
    #                             record btrace on this machine)
    # ground-truth: FILE.gdb      a script (beside this one) run against
    #                             the reference stub first; each line
    #                             "ground-truth KEY = VALUE" it prints
    #                             makes @GT:KEY@ in expect: regexes VALUE
    # requires: debugregs         hardware breakpoints/watchpoints: skipped
    #                             where the machine ignores debug registers
    #                             (testsuite/programs/debugregs_probe.c)

In the script, @TARGET@ is the stub's HOST:PORT, @PROG@ the inferior's
absolute path, @BIN@ the folder of all inferiors, @STUB@ the stub's path,
@PID@ the process to attach to and @E2E@ this folder (for helpers such
as stepi_count.py)."""

import os
import re
from dataclasses import dataclass, field

DIRECTIVE = re.compile(r"^#\s*(program|args|mode|expect|expect-not|"
                       r"expected-difference|allow-error|after-detach|"
                       r"timeout|reference|ground-truth|requires):\s*(.*?)\s*$")
# @GT:KEY@, or @GT:KEY+N@ for a value the scenario derives from it (e.g.
# info record counts each trace gap as one instruction).
GT_KEY = re.compile(r"@GT:([\w.-]+?)(?:\+(\d+))?@")
MODES = ("remote", "attach", "multi", "multi-attach", "stdio")
# What a scenario may require of the machine, and the probe (in the
# inferiors' folder) that tells: exit 0 yes, 77 no, with its reason.
REQUIREMENTS = {"debugregs": "debugregs_probe"}


@dataclass
class ExpectedDifference:
    regex: re.Pattern
    reason: str


@dataclass
class Scenario:
    name: str
    path: str
    body: str
    program: str = "plain"
    args: list = field(default_factory=list)
    mode: str = "remote"
    expect: list = field(default_factory=list)
    expect_not: list = field(default_factory=list)
    expected_differences: list = field(default_factory=list)
    allow_error: str = ""
    after_detach: str = ""
    timeout: float = 8.0
    # Stub-only scenarios: why there is no reference run ("" if there is).
    no_reference: str = ""
    ground_truth: str = ""
    requires: list = field(default_factory=list)
    # expect: patterns naming ground-truth values, compiled once known.
    expect_gt: list = field(default_factory=list)

    def ground_truth_expect(self, values):
        """EXPECT_GT with @GT:KEY@ replaced by VALUES (escaped); a key the
        ground truth did not print is an error the caller reports."""
        compiled, missing = [], []
        for pattern in self.expect_gt:
            def value(m):
                if m.group(1) not in values:
                    missing.append(m.group(1))
                    return "(?!)"
                if m.group(2):
                    return str(int(values[m.group(1)]) + int(m.group(2)))
                return re.escape(values[m.group(1)])
            compiled.append(re.compile(GT_KEY.sub(value, pattern), re.M))
        return compiled, missing

    def script_for(self, target, program_path, stub_path, pid):
        return (self.body.replace("@TARGET@", target or "")
                .replace("@PROG@", program_path)
                .replace("@BIN@", os.path.dirname(program_path))
                .replace("@STUB@", stub_path)
                .replace("@PID@", str(pid or ""))
                .replace("@E2E@", os.path.dirname(os.path.abspath(__file__))))


class ScenarioError(Exception):
    pass


def load_scenario(path):
    with open(path) as f:
        body = f.read()
    name = os.path.splitext(os.path.basename(path))[0]
    sc = Scenario(name=name, path=path, body=body)
    for number, line in enumerate(body.split("\n"), 1):
        if not line.startswith("#"):
            break
        m = DIRECTIVE.match(line)
        if not m:
            continue
        key, value = m.groups()
        where = f"{path}:{number}"
        try:
            if key == "program":
                sc.program = value
            elif key == "args":
                sc.args = value.split()
            elif key == "mode":
                if value not in MODES:
                    raise ScenarioError(f"{where}: mode must be one of {MODES}")
                sc.mode = value
            elif key == "expect" and GT_KEY.search(value):
                re.compile(GT_KEY.sub("x", value))
                sc.expect_gt.append(value)
            elif key == "expect":
                sc.expect.append(re.compile(value, re.M))
            elif key == "expect-not":
                sc.expect_not.append(re.compile(value, re.M))
            elif key == "expected-difference":
                regex, sep, reason = value.partition(" -- ")
                if not sep or not reason.strip():
                    raise ScenarioError(
                        f"{where}: expected-difference needs ' -- REASON'")
                sc.expected_differences.append(
                    ExpectedDifference(re.compile(regex), reason.strip()))
            elif key == "allow-error":
                sc.allow_error = value
            elif key == "after-detach":
                sc.after_detach = value
            elif key == "timeout":
                sc.timeout = float(value)
            elif key == "reference":
                kind, sep, reason = value.partition(" -- ")
                if kind.strip() != "none" or not sep or not reason.strip():
                    raise ScenarioError(
                        f"{where}: reference: takes 'none -- REASON'")
                sc.no_reference = reason.strip()
            elif key == "requires":
                if value not in REQUIREMENTS:
                    raise ScenarioError(f"{where}: requires: one of "
                                        f"{sorted(REQUIREMENTS)}")
                sc.requires.append(value)
            elif key == "ground-truth":
                sc.ground_truth = os.path.join(os.path.dirname(path), value)
        except re.error as e:
            raise ScenarioError(f"{where}: bad regex: {e}")
    if sc.expect_gt and not sc.ground_truth:
        raise ScenarioError(f"{path}: @GT:KEY@ without a ground-truth: line")
    if sc.ground_truth and not os.path.isfile(sc.ground_truth):
        raise ScenarioError(f"{path}: no ground-truth file {sc.ground_truth}")
    # A slower stub (make check-sanitize's) gets E2E_TIMEOUT_SCALE times
    # the time.
    sc.timeout *= float(os.environ.get("E2E_TIMEOUT_SCALE") or 1)
    return sc
