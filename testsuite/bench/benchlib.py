"""What the stub and client benchmarks share: where the built tree is,
starting ptstub and GDB pinned, parsing key=value lines, and printing a
table that also goes to testsuite/bench/out/.

The stub and the emulator-alone baseline run on CPU 0 (the emulator pins
the tracer and the tracee to the CPU it starts on; see emu_pin_cpu), GDB
and the RSP client on CPU 1, so a measured ratio compares the same
placement.  The machine is shared: every figure is the best (and the
median) of several runs taken in the same run of the benchmark."""

import os
import re
import socket
import statistics
import subprocess
import sys

BUILD = os.environ.get("top_builddir") or os.getcwd()
SRC = os.environ.get("top_srcdir") or os.path.join(os.path.dirname(__file__),
                                                   "..", "..")
GDB = os.environ.get("GDB") or "gdb"
PTSTUB = os.environ.get("PTSTUB") or os.path.join(BUILD, "ptstub")
BENCH = os.path.join(BUILD, "testsuite", "bench")
OUT = os.path.join(BENCH, "out")
STUB_CPU, CLIENT_CPU = "0", "1" if (os.cpu_count() or 1) > 1 else "0"


def program(path):
    """The program a libtool wrapper script at PATH runs (in .libs/), so
    that a timing is the program's, not the wrapper shell's (about 40 ms
    here); the build tree's libraries go on LD_LIBRARY_PATH for it.
    PATH itself if it is not a wrapper."""
    folder, name = os.path.split(path)
    for candidate in ("lt-" + name, name):
        real = os.path.join(folder, ".libs", candidate)
        if os.path.isfile(real):
            with open(real, "rb") as f:
                if f.read(4) != b"\x7fELF":
                    continue
            libs = [os.path.join(BUILD, d, ".libs") for d in ("btrace",)]
            old = os.environ.get("LD_LIBRARY_PATH")
            os.environ["LD_LIBRARY_PATH"] = ":".join(
                libs + ([old] if old else []))
            return real
    return path


def pinned(cpu, argv):
    return ["taskset", "-c", cpu] + argv


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def keyvals(text):
    """The last line of TEXT with key=value pairs, as a dict of floats
    (or strings)."""
    for line in reversed(text.splitlines()):
        pairs = re.findall(r"(\w+)=(\S+)", line)
        if pairs:
            out = {}
            for k, v in pairs:
                try:
                    out[k] = float(v)
                except ValueError:
                    out[k] = v
            return out
    raise RuntimeError("no key=value line in:\n" + text)


def run(argv, timeout=900, **kw):
    p = subprocess.run(argv, capture_output=True, text=True,
                       timeout=timeout, **kw)
    if p.returncode:
        raise RuntimeError("%s failed (%d):\n%s%s" % (
            " ".join(argv), p.returncode, p.stdout[-2000:], p.stderr[-2000:]))
    return p.stdout


class Stub:
    """ptstub --once on a free loopback port, emulated btrace, pinned;
    its output goes to OUT/stub.log."""

    def __init__(self, prog, arg, extra=()):
        self.port = free_port()
        self.log = open(os.path.join(OUT, "stub.log"), "a")
        argv = [PTSTUB, "--once", "--no-startup-with-shell",
                "--btrace-source=emulated", *extra,
                "127.0.0.1:%d" % self.port, prog]
        if arg:
            argv.append(arg)
        self.proc = subprocess.Popen(pinned(STUB_CPU, argv),
                                     stdout=self.log, stderr=self.log,
                                     stdin=subprocess.DEVNULL)
        # GDB (tcp auto-retry) and rsp_bench retry until it listens.

    def close(self):
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


def gdb_batch(prog, script, timeout=900, cpu=CLIENT_CPU):
    """Run GDB in batch mode on PROG with SCRIPT, pinned to CPU (every
    CPU if None); its output."""
    path = os.path.join(OUT, "last.gdb")
    with open(path, "w") as f:
        f.write(script)
    argv = [GDB, "-nx", "-batch", "-iex", "set pagination off",
            "-iex", "set confirm off", "-x", path, prog]
    return run(pinned(cpu, argv) if cpu else argv, timeout=timeout)


def timings(text, key):
    """Values of 'bench: KEY SECONDS' lines GDB printed."""
    return [float(v) for v in
            re.findall(r"^bench: %s ([0-9.]+)$" % re.escape(key), text, re.M)]


def best_median(values):
    return min(values), statistics.median(values)


def table(name, header, rows, notes):
    """Print a table and write it to OUT/NAME.txt."""
    widths = [max(len(str(r[i])) for r in [header] + rows)
              for i in range(len(header))]
    lines = ["  ".join(str(c).rjust(w) if i else str(c).ljust(w)
                       for i, (c, w) in enumerate(zip(r, widths)))
             for r in [header] + rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    notes = notes + ["load average at the end: %.2f %.2f %.2f (on %d CPUs; "
                     "other load makes every figure noisier)"
                     % (os.getloadavg() + (os.cpu_count() or 1,))]
    text = "\n".join(lines + [""] + notes) + "\n"
    sys.stdout.write(text)
    with open(os.path.join(OUT, name + ".txt"), "w") as f:
        f.write(text)
    return text


def gdb_time_wrap(command, key):
    """GDB script lines that time COMMAND to its prompt."""
    return ("python import time; bench_t0 = time.perf_counter()\n"
            "%s\n"
            "python print('bench: %s %%.6f' %% (time.perf_counter() - bench_t0))\n"
            % (command, key))
