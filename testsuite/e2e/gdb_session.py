"""Running GDB in batch mode on one script, with a hard timeout."""

import os
import subprocess

from processes import kill_tree


def gdb_command(gdb, script, program):
    # Absolute file names: how GCC was given the source (relative in an
    # in-tree build, absolute outside) must not change the transcript.
    argv = [gdb, "-nx", "-batch",
            "-iex", "set pagination off",
            "-iex", "set debuginfod enabled off",
            "-iex", "set filename-display absolute"]
    # A slower stub (check-sanitize's, check-valgrind's) may answer the
    # first packets after GDB's 2 s: GDB would give up on qSupported and
    # take its late reply for the next packet's.
    scale = float(os.environ.get("E2E_TIMEOUT_SCALE") or 1)
    if scale > 1:
        argv += ["-iex", f"set remotetimeout {int(2 * scale)}"]
    return argv + ["-x", script, program]


def run_gdb(gdb, script, program, cwd, timeout):
    """Returns (exit status or None on timeout, transcript).  GDB's stdout
    and stderr share one pipe so errors stay next to what caused them."""
    argv = gdb_command(gdb, script, program)
    proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
        return proc.returncode, out.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        kill_tree([proc.pid])
        out, _ = proc.communicate()
        return None, out.decode("utf-8", "replace")
