"""make bench-stub: what ptstub adds on top of its trace emulator.

(a) GDB's `continue` to its prompt with about 1M instructions recorded
    (`record btrace pt`, emulated, bench_prog calls:23 from `work` to
    `done`), against the emulator alone tracing `work` to its return
    through its API (emu_alone); also the stub driven by rsp_bench's
    vCont;c without GDB.  Best and median of REPS runs each,
    interleaved.
(b) A 16 MiB trace (bench_prog dense, a full 16 MiB ring) produced and
    then fetched whole over loopback: rsp_bench sends the packets GDB
    sends (Qbtrace:pt, then qXfer:btrace:read:all in GDB's 4 KiB
    requests) so that GDB's own decoding of 16 MiB is not what is
    timed.  Against the emulator alone producing the same trace and
    reading it through its API.  Producing 16 MiB takes the emulator
    tens of seconds, so that part runs once each; the transfer is the
    best of REPS.

Overhead = through stub / emulator alone - 1; the target is <= 10%.
Both run the ptrace engine (emu_alone's), so that the stub's own cost
is what is measured; the default engine, the code cache, is measured
against native by bench-record and bench-emu.
The transfer is 4 KiB requests, each a loopback round trip between the
two CPUs; the stub answers each with one read and one write."""

import os
import re
import sys

# Importing from the source tree must not leave __pycache__ in it.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as b  # noqa: E402

# The engine emu_alone runs, so that the two sides do the same work.
ENGINE = ("--btrace-engine=ptrace",)

REPS = int(os.environ.get("BENCH_REPS", "7"))
PROG = os.path.join(b.BENCH, "bench_prog")
CALLS_ARG = "calls:23"
CALLS_RING = 4 << 20
DENSE_ARG = "dense:" + os.environ.get("BENCH_DENSE_N", "1100000")
DENSE_RING = 16 << 20


def emu_alone(arg, ring, count=False):
    argv = [os.path.join(b.BENCH, "emu_alone"), PROG, arg, "work", str(ring),
            "1"] + (["count"] if count else [])
    return b.keyvals(b.run(b.pinned(b.STUB_CPU, argv)))


def gdb_continue():
    stub = b.Stub(PROG, CALLS_ARG, ENGINE)
    script = ("target remote 127.0.0.1:%d\n"
              "break work\n"
              "continue\n"
              "set record btrace pt buffer-size %d\n"
              "record btrace pt\n"
              "break done\n" % (stub.port, CALLS_RING)
              + b.gdb_time_wrap("continue", "continue")
              + "info record\n"
              "kill\n")
    try:
        out = b.gdb_batch(PROG, script)
    finally:
        stub.close()
    secs = b.timings(out, "continue")
    insns = re.search(r"Recorded (\d+) instructions", out)
    if len(secs) != 1 or not insns:
        raise RuntimeError("unexpected GDB output:\n" + out)
    return secs[0], int(insns.group(1))


def rsp_client(arg, ring, reads):
    stub = b.Stub(PROG, arg, ENGINE)
    try:
        argv = [os.path.join(b.BENCH, "rsp_bench"), str(stub.port), PROG,
                str(ring), str(reads)]
        return b.keyvals(b.run(b.pinned(b.CLIENT_CPU, argv)))
    finally:
        stub.close()


def pct(stub, alone):
    return "%+.1f%%" % (100.0 * (stub / alone - 1))


def main():
    os.makedirs(b.OUT, exist_ok=True)
    open(os.path.join(b.OUT, "stub.log"), "w").close()

    # (a) continue with ~1M instructions recorded.
    counted = emu_alone(CALLS_ARG, CALLS_RING, count=True)
    alone, through, client = [], [], []
    insns_gdb = 0
    for _ in range(REPS):
        alone.append(emu_alone(CALLS_ARG, CALLS_RING)["best"])
        t, insns_gdb = gdb_continue()
        through.append(t)
        client.append(rsp_client(CALLS_ARG, CALLS_RING, 0)["emulate"])
    a_best, a_med = b.best_median(alone)
    s_best, s_med = b.best_median(through)
    c_best, c_med = b.best_median(client)

    # (b) a 16 MiB trace, produced and transferred.
    dense_alone = emu_alone(DENSE_ARG, DENSE_RING)
    x = rsp_client(DENSE_ARG, DENSE_RING, REPS)
    d_alone = dense_alone["best"]
    d_stub = x["emulate"] + x["xfer_best"]
    raw = dense_alone["bytes"]
    mib = raw / (1 << 20)

    rows = [
        ["continue, record btrace pt", "%d" % counted["insns"],
         "%.3f s" % a_best, "%.3f s" % s_best, pct(s_best, a_best)],
        ["  (medians)", "", "%.3f s" % a_med, "%.3f s" % s_med,
         pct(s_med, a_med)],
        ["same, rsp_bench's vCont;c (no GDB)", "", "%.3f s" % a_best,
         "%.3f s" % c_best, pct(c_best, a_best)],
        ["  (medians)", "", "%.3f s" % a_med, "%.3f s" % c_med,
         pct(c_med, a_med)],
        ["16 MiB trace: produce + fetch", "(%d stops)" % dense_alone["stops"],
         "%.3f s" % d_alone, "%.3f s" % d_stub, pct(d_stub, d_alone)],
        ["  of which: emulate", "", "%.3f s" % d_alone,
         "%.3f s" % x["emulate"], pct(x["emulate"], d_alone)],
        ["  of which: qXfer transfer", "", "",
         "%.3f s" % x["xfer_best"], "%+.1f%%" % (100 * x["xfer_best"]
                                                  / d_alone)],
    ]
    notes = [
        "work: bench_prog %s from work to done (GDB: `continue` to the "
        "prompt, %d instructions recorded by GDB's count; emulator alone: "
        "work to its return, instructions decoded by libipt); best of %d "
        "runs each, interleaved" % (CALLS_ARG, insns_gdb, REPS),
        "16 MiB: bench_prog %s, ring %d bytes; the emulator alone read %d "
        "bytes (%.2f MiB) of trace; the stub sent %d bytes of btrace XML in "
        "%d qXfer requests of 4 KiB (as GDB 13.1 asks): best %.3f s, mean "
        "%.3f s, %.1f MiB/s of raw trace, %.0f us per request; producing "
        "it: one run each"
        % (DENSE_ARG, DENSE_RING, raw, mib, x["xml_bytes"], x["requests"],
           x["xfer_best"], x["xfer_mean"], mib / x["xfer_best"],
           1e6 * x["xfer_best"] / x["requests"]),
        "pinned: stub and emulator alone on CPU %s, GDB and rsp_bench on "
        "CPU %s; overhead = through stub / emulator alone - 1, target <= 10%%"
        % (b.STUB_CPU, b.CLIENT_CPU),
    ]
    b.table("bench-stub",
            ["work", "instructions", "emulator alone", "through stub",
             "overhead"], rows, notes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
