"""make bench-record: what the flight recorder costs a CPU-bound program.

The same program (bench_prog calls:N, recursion and a few libc calls)
run natively and under `ptstub record` in the same run, side by side:
snapshot mode (the default: rings in memory, nothing written unless a
trigger fires), --at-exit (one bundle written at the end) and --full
(the whole trace kept and written).  Each figure is the best (and the
median) of BENCH_REPS runs of the whole process, wall clock.  The
emulated source is the only one these machines have; a hardware row is
printed only where the kernel has intel_pt."""

import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

REPS = int(os.environ.get("BENCH_REPS", "5"))
N = int(os.environ.get("BENCH_RECORD_N", "20"))


def timed(argv):
    t0 = time.perf_counter()
    p = subprocess.run(benchlib.pinned(benchlib.STUB_CPU, argv),
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True, timeout=900)
    t = time.perf_counter() - t0
    if p.returncode:
        raise RuntimeError("%s failed (%d): %s" % (" ".join(argv),
                                                   p.returncode, p.stderr))
    return t


def main():
    os.makedirs(benchlib.OUT, exist_ok=True)
    prog = os.path.join(benchlib.BENCH, "bench_prog")
    arg = "calls:%d" % N
    out = os.path.join(benchlib.OUT, "record.ptb")
    sources = ["emulated"]
    if os.path.exists("/sys/bus/event_source/devices/intel_pt/type"):
        sources.append("hardware")
    modes = [("native", None)]
    for src in sources:
        rec = [benchlib.PTSTUB, "record", "--btrace-source=" + src,
               "-o", out]
        if src == "emulated":
            modes.append(("record (code cache)",
                          rec + ["--btrace-engine=cache", "--", prog, arg]))
        modes += [("record (%s)" % src, rec + ["--", prog, arg]),
                  ("record --at-exit (%s)" % src,
                   rec + ["--at-exit", "--", prog, arg]),
                  ("record --full (%s)" % src,
                   rec + ["--full", "--size=64M", "--", prog, arg])]
    times = {name: [] for name, _ in modes}
    # Interleaved, so that a burst of other load hits every mode alike.
    for _ in range(REPS):
        for name, argv in modes:
            times[name].append(timed(argv if argv else [prog, arg]))
    base = min(times["native"])
    rows = []
    for name, _ in modes:
        best, median = benchlib.best_median(times[name])
        rows.append([name, "%.4f" % best, "%.4f" % median,
                     "%.0fx" % (best / base) if name != "native" else "1x"])
    notes = ["bench_prog %s, whole process, wall clock, best of %d "
             "(BENCH_REPS); pinned to CPU %s." % (arg, REPS,
                                                   benchlib.STUB_CPU)]
    if len(sources) == 1:
        notes.append("No hardware row: this kernel has no intel_pt PMU.")
    benchlib.table("record", ["mode", "best s", "median s", "vs native"],
                   rows, notes)


if __name__ == "__main__":
    main()
