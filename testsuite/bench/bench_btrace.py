"""make bench-btrace: decode a 10M-instruction trace and print its
function-call history, three ways on the same trace, in one run.

The trace: bench_prog calls:28 recorded from `work` to `done` through
ptstub (`record btrace pt`, emulated), saved with `monitor btrace save`.
- GDB 13.1 on that trace, in the same session: `info record` (fetch
  and decode; `maint btrace clear` first to decode anew each time), then
  `record function-call-history` over the whole trace
  (function-call-history-size unlimited) with its output to /dev/null.
- ptbtrace --size=0 call-history BUNDLE > /dev/null: the whole job
  (load, image, decode, segments, print), wall time of the process, on
  both CPUs (its decoder and its inflating of debug sections have a
  thread each) and pinned to one; and ptbtrace info BUNDLE (the same
  without the history) to split it.
- blk_loop: libipt's bare block-decoder loop on the bundle's raw trace
  and image (the floor), timed as a whole process, as ptbtrace is (the
  target's base), and inside the process (the loop alone).
GDB runs on both CPUs too (it has worker threads of its own); the
single-threaded blk_loop is pinned.
Both programs are run directly, not through the build tree's libtool
wrapper scripts (which would add a shell's start to every figure).
ptbtrace info on a small trace (calls:18, about 90K instructions) gives
its fixed cost (symbols, line tables).  Best of several runs each
(median too), with the median CPU time (user plus system) beside.
Targets: ptbtrace >= 5x faster than GDB's decode plus history, and
within 2x of the bare loop's process.  GDB's
history is also written to a file once and compared with ptbtrace's."""

import filecmp
import os
import re
import shutil
import subprocess
import sys
import time

# Importing from the source tree must not leave __pycache__ in it.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as b  # noqa: E402

# GDB's rounds take seconds each; the others are cheap, so they get more
# runs (the machine is shared).
REPS = int(os.environ.get("BENCH_REPS", "3"))
FAST_REPS = int(os.environ.get("BENCH_FAST_REPS", "7"))
PROG = os.path.join(b.BENCH, "bench_prog")
ARG = "calls:" + os.environ.get("BENCH_CALLS_N", "28")
SMALL_ARG = "calls:18"
RING = 64 << 20
PTBTRACE = b.program(os.path.join(b.BUILD, "ptbtrace"))
BLK_LOOP = b.program(os.path.join(b.BENCH, "blk_loop"))


def gdb_record(arg, bundle, gdb_history, rounds):
    """Record ARG through the stub into BUNDLE; then ROUNDS timed rounds
    of GDB's decode and history (after one written to GDB_HISTORY)."""
    stub = b.Stub(PROG, arg)
    script = ("target remote 127.0.0.1:%d\n"
              "break work\n"
              "continue\n"
              "set record btrace pt buffer-size %d\n"
              "record btrace pt\n"
              "break done\n"
              "continue\n"
              "monitor btrace save %s\n"
              "set record function-call-history-size unlimited\n"
              "set logging overwrite on\n"
              "set logging redirect on\n" % (stub.port, RING, bundle))
    for rep in range(rounds + 1 if rounds else 0):
        # The first round writes the history to a file, for comparison.
        target = gdb_history if rep == 0 else "/dev/null"
        key = "file" if rep == 0 else ""
        script += ("maint btrace clear\n"
                   + b.gdb_time_wrap("info record", "decode" + key)
                   + "set logging file %s\n" % target
                   + "python import time; bench_t0 = time.perf_counter()\n"
                   "set logging enabled on\n"
                   "record function-call-history\n"
                   "set logging enabled off\n"
                   "python print('bench: history%s %%.6f' %% "
                   "(time.perf_counter() - bench_t0))\n" % key)
    script += "kill\n"
    try:
        out = b.gdb_batch(PROG, script, timeout=3600, cpu=None)
    finally:
        stub.close()
    counts = re.search(r"Recorded (\d+) instructions in (\d+) functions "
                       r"\((\d+) gaps\)", out)
    decode, history = b.timings(out, "decode"), b.timings(out, "history")
    if rounds and (not counts or len(decode) != rounds
                   or len(history) != rounds):
        raise RuntimeError("unexpected GDB output:\n" + out)
    return ([int(c) for c in counts.groups()] if rounds else None), \
        decode, history


def wall(argv, stdout, rss=None, cpu=None, pin=True):
    """Wall seconds of ARGV (pinned, or on every CPU) with its output to
    STDOUT; its peak resident size in KiB is appended to RSS, its CPU
    seconds to CPU."""
    t = time.perf_counter()
    with open(stdout, "w") as f:
        p = subprocess.Popen(b.pinned(b.CLIENT_CPU, argv) if pin else argv,
                             stdout=f)
        _, status, usage = os.wait4(p.pid, 0)
    t = time.perf_counter() - t
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode:
        raise RuntimeError("%s failed (%d)" % (" ".join(argv), p.returncode))
    if rss is not None:
        rss.append(usage.ru_maxrss)
    if cpu is not None:
        cpu.append(usage.ru_utime + usage.ru_stime)
    return t


def main():
    os.makedirs(b.OUT, exist_ok=True)
    open(os.path.join(b.OUT, "stub.log"), "w").close()
    bundle = os.path.join(b.OUT, "calls.bundle")
    gdb_history = os.path.join(b.OUT, "gdb-call-history.txt")
    pt_history = os.path.join(b.OUT, "ptbtrace-call-history.txt")

    (insns, functions, gaps), decode, history = gdb_record(
        ARG, bundle, gdb_history, REPS)
    # A small trace of the same program: ptbtrace's fixed costs.
    small = os.path.join(b.OUT, "calls-small.bundle")
    gdb_record(SMALL_ARG, small, None, 0)
    gdb_total = [d + h for d, h in zip(decode, history)]
    ptb_argv = [PTBTRACE, "--size=0", "call-history", bundle]
    wall(ptb_argv, pt_history, pin=False)   # also warms the page cache
    same = filecmp.cmp(gdb_history, pt_history, shallow=False)
    rss, cpu = [], {}

    def runs(key, argv, pin=False, rss=None):
        cpu[key] = []
        return [wall(argv, "/dev/null", rss, cpu[key], pin)
                for _ in range(FAST_REPS)]

    ptb = runs("ptb", ptb_argv, rss=rss)
    ptb_one = runs("ptb1", ptb_argv, pin=True)
    info = runs("info", [PTBTRACE, "info", bundle])
    small_rss = []
    fixed = runs("fixed", [PTBTRACE, "info", small], rss=small_rss)
    loop = b.keyvals(b.run(b.pinned(b.CLIENT_CPU, [
        BLK_LOOP, bundle, str(FAST_REPS)])))
    # The bare loop as ptbtrace is timed: a whole process, one decode.
    loop_proc = runs("loop", [BLK_LOOP, bundle, "1"], pin=True)

    # perf's own decoder on the same trace: ptbtrace writes perf.data
    # (export), perf decodes it into calls and returns (its call history).
    perf = shutil.which("perf")
    perf_rows, perf_note = [], "perf: not installed (linux-perf)"
    if perf:
        data = os.path.join(b.OUT, "calls.perf.data")
        export = runs("export", [PTBTRACE, "export", "--format=perf", "-o",
                                 data, bundle])
        perf_argv = [perf, "script", "-i", data, "--itrace=cr",
                     "-F", "tid,flags,ip,sym"]
        perf_out = os.path.join(b.OUT, "perf-calls.txt")
        wall(perf_argv, perf_out, pin=False)
        ncalls = sum(1 for line in open(perf_out)
                     if line.split()[1:2] == ["call"])
        # perf prints a line per call and return: GDB's number of runs.
        cpu["perf"] = []
        decode_perf = [wall(perf_argv, "/dev/null", None, cpu["perf"])
                       for _ in range(REPS)]
        perf_rows = [("ptbtrace export --format=perf", export, "export"),
                     ("perf script --itrace=cr (perf's decode)",
                      decode_perf, "perf")]
        perf_note = ("perf: perf.data %d bytes; perf script --itrace=cr "
                     "printed %d calls" % (os.path.getsize(data), ncalls))

    g_best, g_med = b.best_median(gdb_total)
    l_best = loop["best"]
    lp_best = min(loop_proc)

    def row(name, best, med, key=None):
        return [name, "%.3f s" % best, "%.3f s" % med,
                "%.3f s" % b.best_median(cpu[key])[1] if key else "",
                "%.2fx" % (g_best / best), "%.2fx" % (best / lp_best),
                "%.2fx" % (best / l_best)]

    rows = [
        row("libipt bare block loop, whole process",
            *b.best_median(loop_proc), "loop"),
        row("  the loop alone, inside the process", l_best, l_best),
        row("ptbtrace call-history", *b.best_median(ptb), "ptb"),
        row("  the same pinned to one CPU", *b.best_median(ptb_one), "ptb1"),
        row("  ptbtrace info (no history)", *b.best_median(info), "info"),
        row("  ptbtrace info, %s (fixed)" % SMALL_ARG, *b.best_median(fixed),
            "fixed"),
    ] + [row(name, *b.best_median(times), key)
         for name, times, key in perf_rows] + [
        row("GDB info record (fetch+decode)", *b.best_median(decode)),
        row("GDB function-call-history", *b.best_median(history)),
        row("GDB total", g_best, g_med),
    ]
    notes = [
        "trace: bench_prog %s, %d instructions in %d functions (%d gaps) "
        "by GDB's count, %d by the bare loop (%d blocks, %d decode errors); "
        "bundle %d bytes" % (ARG, insns, functions, gaps, loop["insns"],
                             loop["blocks"], loop["errors"],
                             os.path.getsize(bundle)),
        "ptbtrace's output %s GDB's (%d lines); ptbtrace's peak resident "
        "size %d KiB (%d KiB on the %s trace: %.1f bytes per instruction "
        "more)" % ("is identical to" if same else "DIFFERS from",
                   sum(1 for _ in open(gdb_history)), max(rss),
                   max(small_rss), SMALL_ARG,
                   1024.0 * (max(rss) - max(small_rss)) / insns),
        perf_note,
        "columns: best and median of %d runs for GDB, %d for the others "
        "(the loop alone: best only); cpu: median user plus system time; "
        "'GDB / this' is GDB total's best over this row's best (target for "
        "ptbtrace >= 5x); 'this / bare' is this row's best over the bare "
        "loop's whole process (target for ptbtrace <= 2x), 'this / loop' "
        "over the loop alone; GDB and ptbtrace run on every CPU, the rest "
        "pinned to CPU %s" % (REPS, FAST_REPS, b.CLIENT_CPU),
    ]
    b.table("bench-btrace",
            ["10M-instruction trace", "best", "median", "cpu", "GDB / this",
             "this / bare", "this / loop"], rows, notes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
