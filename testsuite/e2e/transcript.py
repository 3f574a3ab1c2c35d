"""One run of a scenario against one stub: start the inferior (attach) or
let the stub start it, run GDB on the script, and gather everything that
was printed into one transcript with labelled sections."""

import ctypes
import os
import re
import subprocess
import time
from dataclasses import dataclass, field

from gdb_session import gdb_command, run_gdb
from processes import kill_orphans, kill_tree, process_state
from stub import Pipe, Stub


@dataclass
class Transcript:
    text: str = ""
    normalized: str = ""
    compared: str = ""
    gdb_ran: bool = False
    gdb_status: object = None
    problems: list = field(default_factory=list)
    commands: list = field(default_factory=list)


def _section(title, body):
    body = body.rstrip("\n")
    return f"=== {title} ===\n" + (body + "\n" if body else "")


def _no_aslr():
    """Like gdbserver for the programs it starts: no address randomization,
    so both runs of an attach scenario see the same addresses."""
    ADDR_NO_RANDOMIZE = 0x0040000
    libc = ctypes.CDLL(None)
    libc.personality(ADDR_NO_RANDOMIZE)


def _start_attach_target(program, args, cwd):
    """The process to attach to, started by us; it prints 'pid N' first,
    then waits for bytes on its stdin (see programs/spin.c)."""
    proc = subprocess.Popen([program, *args], cwd=cwd,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True,
                            preexec_fn=_no_aslr)
    out = Pipe(proc.stdout)
    if not out.wait_for(re.compile(r"^pid \d+$", re.M), 5):
        kill_tree([proc.pid])
        raise RuntimeError(f"{program} did not print its pid within 5 s")
    return proc, out


def _still_running(proc, out, timeout=2):
    """True if PROC is alive, not stopped, and answers a byte on its stdin
    with a new line of output."""
    state = process_state(proc.pid)
    if state is None or state in "TtZX":
        return False, f"state {state!r}"
    before = len(out.text())
    try:
        proc.stdin.write(b"x")
        proc.stdin.flush()
    except OSError as e:
        return False, f"cannot write to it: {e}"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if len(out.text()) > before:
            return True, "running"
        time.sleep(0.02)
    return False, f"no output for {timeout} s"


# A port found free may be taken by a parallel test before the stub binds.
BIND_FAILED = re.compile(r"in use|[Cc]an't bind")


def _start_stub(stub_path, scenario, program, target, cwd, attempts=3):
    for _ in range(attempts):
        if scenario.mode == "attach":
            stub = Stub(stub_path, "attach", pid=target.pid, cwd=cwd)
        elif scenario.mode in ("multi", "multi-attach"):
            stub = Stub(stub_path, "multi", cwd=cwd)
        else:
            stub = Stub(stub_path, "remote", program=program,
                        args=scenario.args, cwd=cwd)
        if stub.listening or stub.proc.poll() is None or \
                not BIND_FAILED.search(stub.stderr.text()):
            return stub
        stub.finish()
    return stub


def _collect(stub, gdb_text, target, target_out, scenario):
    """The transcript of a run with a stub we started: GDB's output, then
    the stub's, then how the stub (and an attached process) ended."""
    ending = stub.finish()
    sections = [_section("gdb", gdb_text),
                _section("stub stderr", stub.stderr.text()),
                _section("stub stdout (inferior output)", stub.stdout.text()),
                _section(ending, "")]
    if target is not None and scenario.after_detach == "running":
        ok, why = _still_running(target, target_out)
        sections.append(_section(
            "attached process after detach: " +
            ("still running" if ok else "NOT running (" + why + ")"), ""))
    return "".join(sections)


def run_scenario(scenario, stub_path, gdb, program, outdir, cwd):
    """Runs SCENARIO once against STUB_PATH; writes files into OUTDIR.
    Stub and GDB run in CWD, the same for every stub: the shell that
    starts the inferior exports PWD, which moves the stack."""
    os.makedirs(outdir, exist_ok=True)
    result = Transcript()
    target = target_out = stub = None
    try:
        if scenario.mode in ("attach", "multi-attach"):
            target, target_out = _start_attach_target(program, scenario.args,
                                                      cwd)
        if scenario.mode != "stdio":
            stub = _start_stub(stub_path, scenario, program, target, cwd)
        if stub is not None:
            result.commands.append(" ".join(stub.argv))
        gdb_text = ""
        if stub is not None and not stub.listening:
            rc = stub.proc.poll()
            result.problems.append(
                f"{stub_path} did not print 'Listening on port' " +
                (f"(it exited with status {rc})" if rc is not None
                 else "within 5 s") + "; GDB not run")
        else:
            script = os.path.join(outdir, scenario.name + ".gdb")
            with open(script, "w") as f:
                f.write(scenario.script_for(stub and stub.address, program,
                                            stub_path, target and target.pid))
            result.commands.append(" ".join(
                repr(a) if " " in a else a
                for a in gdb_command(gdb, script, program)))
            result.gdb_ran = True
            result.gdb_status, gdb_text = run_gdb(gdb, script, program,
                                                  cwd, scenario.timeout)
        if stub is None:
            # stdio: GDB ran the stub; all it printed is in GDB's output.
            result.text = _section("gdb", gdb_text)
        else:
            result.text = _collect(stub, gdb_text, target, target_out,
                                   scenario)
    except (OSError, RuntimeError) as e:
        result.problems.append(f"could not run the scenario: {e}")
    finally:
        if stub is not None:
            kill_tree([stub.proc.pid])
        if target is not None:
            kill_tree([target.pid])
            target.wait()
        kill_orphans()
    with open(os.path.join(outdir, "transcript.raw"), "w") as f:
        f.write(result.text)
    return result
