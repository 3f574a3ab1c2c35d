"""make bench-live: `ptbtrace info HOST:PORT` on a live stub beside GDB's
own fetch and decode of the same trace, in one run.

bench_prog dense:80000 (BENCH_LIVE_ARG to change it) is recorded from
`work` to `done` through ptstub (`record btrace pt`, emulated).  GDB,
still connected, then times `maint btrace clear` + `info record` (fetch
over qXfer:btrace and decode) several times and disconnects; the stub
keeps the program stopped and traced, and `ptbtrace info 127.0.0.1:PORT`
(connect, fetch the trace, /proc/PID/maps and the vDSO over the
protocol, decode) is timed as a whole process, several times.  Both
clients run on the client CPU, the stub on its own.  Best and median wall
time, and the ratio ptbtrace / GDB (target: <= 1).  The trace size and
both instruction counts are printed (they must agree)."""

import os
import re
import subprocess
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as b  # noqa: E402

REPS = int(os.environ.get("BENCH_REPS", "3"))
PROG = os.path.join(b.BENCH, "bench_prog")
ARG = os.environ.get("BENCH_LIVE_ARG", "dense:80000")
PTBTRACE = b.program(os.path.join(b.BUILD, "ptbtrace"))


def main():
    os.makedirs(b.OUT, exist_ok=True)
    port = b.free_port()
    log = open(os.path.join(b.OUT, "stub_live.log"), "w")
    # No --once: the stub must outlive GDB's disconnect for ptbtrace.
    stub = subprocess.Popen(
        b.pinned(b.STUB_CPU, [b.PTSTUB, "--no-startup-with-shell",
                              "--btrace-source=emulated",
                              "127.0.0.1:%d" % port, PROG, ARG]),
        stdout=log, stderr=log, stdin=subprocess.DEVNULL)
    try:
        script = ("target remote 127.0.0.1:%d\n"
                  "break work\n"
                  "continue\n"
                  "set record btrace pt buffer-size %d\n"
                  "record btrace pt\n"
                  "break done\n"
                  "continue\n"
                  # GDB prints monitor output on stderr; this goes to
                  # stdout.
                  "python print(gdb.execute('monitor btrace status', "
                  "to_string=True))\n" % (port, 64 << 20))
        for _ in range(REPS):
            script += ("maint btrace clear\n"
                       + b.gdb_time_wrap("info record", "fetch"))
        script += "disconnect\n"
        out = b.gdb_batch(PROG, script)
        gdb_times = b.timings(out, "fetch")
        m = re.search(r"Recorded (\d+) instructions", out)
        gdb_insns = int(m.group(1)) if m else -1
        m = re.search(r"buffer \d+ bytes, (\d+) bytes recorded", out)
        trace_bytes = int(m.group(1)) if m else -1
        ours = []
        our_insns = -1
        for _ in range(REPS):
            t0 = time.perf_counter()
            text = b.run(b.pinned(b.CLIENT_CPU, [PTBTRACE, "info",
                                                 "127.0.0.1:%d" % port]))
            ours.append(time.perf_counter() - t0)
            m = re.search(r"Recorded (\d+) instructions", text)
            our_insns = int(m.group(1)) if m else -1
    finally:
        stub.kill()
        stub.wait()
        log.close()
    gb, gm = b.best_median(gdb_times)
    ob, om = b.best_median(ours)
    b.table("live", ["client (info on a live stub)", "best s", "median s",
                     "instructions"],
            [["GDB 13.1: maint btrace clear + info record", "%.3f" % gb,
              "%.3f" % gm, gdb_insns],
             ["ptbtrace info 127.0.0.1:PORT (process)", "%.3f" % ob,
              "%.3f" % om, our_insns]],
            ["%s, %d bytes of trace; ptbtrace / GDB = %.2f (best), "
             "%.2f (median); target <= 1"
             % (ARG, trace_bytes, ob / gb, om / gm)])
    return 0


if __name__ == "__main__":
    sys.exit(main())
