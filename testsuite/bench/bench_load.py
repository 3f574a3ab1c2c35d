"""make bench-load: ptstub's memory over a long session with real GDB,
10,000 breakpoint stops and 1,000 btrace reads in one connection.

bench_prog calls:22 (BENCH_LOAD_ARG to change it: fib must be entered
more than 11,000 times, and at -O1 calls:N enters it fib(N + 1) times)
runs to `work`; then GDB takes STOPS (10,000) stops at `fib` (a
breakpoint with an ignore count: every hit is a stop in the stub and a
resume from GDB), starts `record btrace pt` and takes 1,000 more stops
recorded, then reads the trace READS (1,000) times (`maint btrace
clear`, then `info record`: each a whole qXfer:btrace:read and decode).
ptstub's resident set (VmRSS, /proc) is printed at each step.  Memory is
constant when the resident set after the first 1,000 stops is the one
after all of them, and the reads add nothing: the table gives the
figures, the growth per 1,000 stops and per 1,000 reads, and the ratio
end / start.  Not timed."""

import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as b  # noqa: E402

PROG = os.path.join(b.BENCH, "bench_prog")
ARG = os.environ.get("BENCH_LOAD_ARG", "calls:22")
STOPS = int(os.environ.get("BENCH_LOAD_STOPS", "10000"))
READS = int(os.environ.get("BENCH_LOAD_READS", "1000"))
WARM = 1000   # stops before the first figure that should hold


def rss_line(pid, label):
    return ("shell echo \"load: %s $(sed -n 's/^VmRSS:[[:space:]]*"
            "\\([0-9]*\\) kB/\\1/p' /proc/%d/status)\"\n" % (label, pid))


def main():
    os.makedirs(b.OUT, exist_ok=True)
    stub = b.Stub(PROG, ARG)
    pid = stub.proc.pid   # taskset execs ptstub
    script = ("target remote 127.0.0.1:%d\n" % stub.port +
              "break work\n"
              "continue\n" +
              rss_line(pid, "start") +
              "break fib\n"
              "ignore 2 %d\n" % (WARM - 1) +
              "continue\n" +
              rss_line(pid, "stops_%d" % WARM) +
              "ignore 2 %d\n" % (STOPS - WARM - 1) +
              "continue\n" +
              rss_line(pid, "stops_%d" % STOPS) +
              "record btrace pt\n"
              "ignore 2 %d\n" % (WARM - 1) +
              "continue\n" +
              rss_line(pid, "recorded_%d" % WARM) +
              "python\n"
              "for i in range(%d):\n" % READS +
              "    gdb.execute('maint btrace clear')\n"
              "    last = gdb.execute('info record', to_string=True)\n"
              "print('load: last ' + last.splitlines()[-1])\n"
              "end\n" +
              rss_line(pid, "reads_%d" % READS) +
              "info breakpoints\n"
              "kill\n")
    out = b.gdb_batch(PROG, script, timeout=3600, cpu=None)
    stub.close()
    rss = {k: int(v) for k, v in re.findall(r"^load: (\w+) (\d+)$", out,
                                             re.M)}
    hits = re.findall(r"breakpoint already hit (\d+) times?", out)
    last = re.search(r"^load: last (.*)$", out, re.M)
    need = ["start", "stops_%d" % WARM, "stops_%d" % STOPS,
            "recorded_%d" % WARM, "reads_%d" % READS]
    if any(k not in rss for k in need) or not last:
        raise RuntimeError("no figures in GDB's output:\n" + out[-4000:])
    rows = [["ptstub started, stopped at work", "", rss["start"]],
            ["after breakpoint stops", WARM, rss[need[1]]],
            ["after breakpoint stops", STOPS, rss[need[2]]],
            ["after recorded stops", WARM, rss[need[3]]],
            ["after btrace reads", READS, rss[need[4]]]]
    per_stop = (rss[need[2]] - rss[need[1]]) * 1000.0 / (STOPS - WARM)
    per_read = (rss[need[4]] - rss[need[3]]) * 1000.0 / READS
    b.table("bench_load", ["step", "count", "VmRSS kB"], rows, [
        "bench_prog %s; fib's breakpoint hit %s times in all (GDB's count)."
        % (ARG, hits[-1] if hits else "?"),
        "growth: %.1f kB per 1,000 stops (after the first %d), %.1f kB per "
        "1,000 reads; end / start = %.2f."
        % (per_stop, WARM, per_read, rss[need[4]] / rss["start"]),
        "last read: %s" % last.group(1)])


if __name__ == "__main__":
    main()
