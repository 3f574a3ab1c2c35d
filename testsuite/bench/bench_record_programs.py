"""make bench-record, whole programs: what recording costs real
programs, each run natively, under `ptstub record --at-exit --stats`
with the code cache (the default engine) and with the ptrace engine,
side by side in one run and interleaved.

The ptrace engine runs a smaller input where the full one would take
minutes (about a million instructions a second); its native figure is
the same smaller input's.  For each row: the recorded run against the
native one (whole process, wall clock, best and median of the reps),
the code cache's traps per million instructions by cause, its
translation and drain time (from the --stats line ptstub prints at the
program's exit), and the trace bytes per instruction of the bundle
written at the exit (`ptbtrace info`: the bytes the rings held over
the instructions they decode to).  A program that is not installed,
or that the recorder cannot run, gets a row that says so."""

import hashlib
import os
import random
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

REPS = int(os.environ.get("BENCH_REPS", "5"))
# The ptrace rows are the slow ones (python3's start alone is about
# 20M instructions): fewer reps keep `make bench` within minutes.
PTRACE_REPS = int(os.environ.get("BENCH_PTRACE_REPS", str(min(REPS, 3))))
PYTHON = "/usr/bin/python3"  # not a pyenv shim: its shell would be timed
WORK = os.path.join(benchlib.OUT, "programs")
MIB = 1 << 20


def make_text(path, size, seed=1):
    """SIZE bytes of lines of pseudo-words, the same every run."""
    r = random.Random(seed)
    words = ["%s%x" % (r.choice("abcdefgh"), r.getrandbits(20))
             for _ in range(4000)]
    out, n = [], 0
    while n < size:
        line = " ".join(r.choice(words) for _ in range(r.randint(4, 14)))
        out.append(line + "\n")
        n += len(line) + 1
    with open(path, "w") as f:
        f.write("".join(out)[:size])


def make_words(path, text):
    with open(text) as f, open(path, "w") as g:
        g.write("\n".join(f.read().split()) + "\n")


def make_sql(path, n):
    """N inserts in one transaction and a query."""
    with open(path, "w") as f:
        f.write("create table t (k integer primary key, v text, "
                "w integer);\nbegin;\n")
        for i in range(n):
            f.write("insert into t values (%d, 'value %d', %d);\n"
                    % (i, i * 7919 % 10007, i % 97))
        f.write("commit;\nselect w, count(*), sum(length(v)) from t "
                "group by w order by 2 desc, 1 limit 3;\n")


def inputs():
    os.makedirs(WORK, exist_ok=True)
    f = {k: os.path.join(WORK, k) for k in
         ("text", "text8k", "words", "words4k", "ins5000.sql", "ins50.sql")}
    make_text(f["text"], MIB)
    make_text(f["text8k"], 8192)
    make_words(f["words"], f["text"])
    with open(f["words"]) as src, open(f["words4k"], "w") as dst:
        dst.write(src.read(4096).rsplit("\n", 1)[0] + "\n")
    make_sql(f["ins5000.sql"], 5000)
    make_sql(f["ins50.sql"], 50)
    return f


def workloads(f):
    """(name, program, (full input), (ptrace's input)); an input is
    (label, argv, stdin file or None)."""
    prog = os.path.join(benchlib.BENCH, "bench_prog")
    script = os.path.join(benchlib.SRC, "testsuite", "bench",
                          "record_work.py")
    return [
        ("gzip -c", "gzip",
         ("1 MiB", ["gzip", "-c", f["text"]], None),
         ("8 KiB", ["gzip", "-c", f["text8k"]], None)),
        ("python3", PYTHON,
         ("record_work.py", [PYTHON, script], None),
         ("-S -c pass", [PYTHON, "-S", "-c", "pass"], None)),
        ("sqlite3 :memory:", "sqlite3",
         ("5000 inserts", ["sqlite3", ":memory:"], f["ins5000.sql"]),
         ("50 inserts", ["sqlite3", ":memory:"], f["ins50.sql"])),
        ("sort", "sort",
         ("1 MiB words", ["sort", f["words"]], None),
         ("4 KiB words", ["sort", f["words4k"]], None)),
        ("bench_prog", prog,
         ("calls:28", [prog, "calls:28"], None),
         ("calls:23", [prog, "calls:23"], None)),
        ("bench_prog", prog,
         ("dense:1000000", [prog, "dense:1000000"], None),
         ("dense:100000", [prog, "dense:100000"], None)),
    ]


def run_once(argv, stdin):
    """(seconds, stdout digest, stderr) of one pinned run."""
    with open(stdin or os.devnull, "rb") as inp:
        t0 = time.perf_counter()
        p = subprocess.run(benchlib.pinned(benchlib.STUB_CPU, argv),
                           stdin=inp, capture_output=True, timeout=900)
        t = time.perf_counter() - t0
    err = p.stderr.decode(errors="replace")
    if p.returncode:
        raise RuntimeError("exit %d: %s" % (p.returncode, err[-300:]))
    return t, hashlib.sha1(p.stdout).hexdigest(), err


NUM = r"([0-9]+(?:\.[0-9]+)?)"
CAUSES = ("to new blocks", "table misses", "left to ptrace", "log fills")


def parse_stats(err):
    """The --stats lines' counts summed over the threads: insns, engine
    names, and for the code cache the traps by cause, stops and times."""
    s = {"insns": 0, "engines": set(), "threads": 0, "stops": 0,
         "ms translating": 0.0, "ms draining": 0.0}
    for c in CAUSES:
        s[c] = 0
    for line in err.splitlines():
        # Each thread's line starts "ptstub record: ".
        m = re.match(r"(?:ptstub record: )?Thread [0-9.]+: engine (.+?), "
                     r"([0-9]+) instructions recorded", line)
        if not m:
            continue
        s["threads"] += 1
        s["engines"].add(m.group(1))
        s["insns"] += int(m.group(2))
        for key in CAUSES + ("ms translating", "ms draining"):
            v = re.search(NUM + " " + key, line)
            if v:
                s[key] += float(v.group(1))
        v = re.search(r"\(([0-9]+) stops\)", line)
        if v:
            s["stops"] += int(v.group(1))
    if not s["threads"]:
        raise RuntimeError("no --stats line: " + err[-300:])
    return s


def trace_density(bundle):
    """Trace bytes per instruction of BUNDLE, by ptbtrace info."""
    out = benchlib.run([benchlib.program(os.path.join(benchlib.BUILD,
                                                      "ptbtrace")),
                        "info", bundle])
    insns = re.search(r"Recorded ([0-9]+) instructions", out)
    nbytes = sum(int(b) for b in re.findall(r"([0-9]+) bytes of trace", out))
    if not insns or not int(insns.group(1)):
        return "?"
    return "%.3f%s" % (nbytes / int(insns.group(1)),
                       "*" if "some lost" in out else "")


class Row:
    def __init__(self, name, engine, inp, exe):
        self.name, self.engine, (self.label, self.argv, self.stdin) = \
            name, engine, inp
        self.native, self.rec, self.stats, self.failed = [], [], [], None
        self.digest = None
        self.missing = shutil.which(exe) is None
        self.bundle = os.path.join(WORK, "%s-%s-%s.ptb" % (
            engine, os.path.basename(exe),
            re.sub(r"[^A-Za-z0-9]+", "_", self.label)))

    def recorder(self, engine=None, bundle=None):
        return [benchlib.PTSTUB, "record", "--at-exit", "--stats",
                "--btrace-source=emulated",
                "--btrace-engine=" + (engine or self.engine),
                "-o", bundle or self.bundle, "--"] + self.argv

    def density(self):
        """B/insn; for the ptrace engine, the code cache's on the same
        input beside it (one run, untimed): the two engines' traces of
        the same instructions."""
        mine = trace_density(self.bundle)
        if self.engine == "cache":
            return mine
        other = self.bundle[:-4] + "-cache.ptb"
        try:
            run_once(self.recorder("cache", other), self.stdin)
        except (RuntimeError, subprocess.TimeoutExpired):
            return mine + " (cache: failed)"
        return "%s (cache %s)" % (mine, trace_density(other))

    def rep(self):
        if self.missing or self.failed:
            return
        try:
            t, digest, _ = run_once(self.argv, self.stdin)
            self.native.append(t)
            self.digest = digest
            t, digest, err = run_once(self.recorder(), self.stdin)
            if digest != self.digest:
                raise RuntimeError("its output differs from the native run's")
            self.rec.append(t)
            self.stats.append((t, parse_stats(err)))
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            self.failed = str(e).splitlines()[0][:120]

    def cells(self):
        head = [self.name, self.label, self.engine]
        if self.missing:
            return head + ["not installed"] + [""] * 12
        if self.failed:
            return head + ["failed: " + self.failed] + [""] * 12
        s = min(self.stats, key=lambda x: x[0])[1]
        nat, _ = benchlib.best_median(self.native)
        best, median = benchlib.best_median(self.rec)
        per_m = 1e6 / s["insns"] if s["insns"] else 0
        engine = ", ".join(sorted(s["engines"]))
        cache = engine == "code cache"
        traps = ["%.1f" % (s[c] * per_m) if cache else "-"
                 for c in CAUSES + ("stops",)]
        times = ["%.1f" % s[k] if cache else "-"
                 for k in ("ms translating", "ms draining")]
        row = head + ["%.2f" % (s["insns"] / 1e6), "%.4f" % nat,
                      "%.4f" % best, "%.4f" % median,
                      "%.1fx" % (best / nat)] + traps + times + \
            [self.density()]
        if not cache and self.engine != "ptrace":
            row[2] += " (" + engine + ")"
        return row


def cpu_model():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return "an unknown CPU"


def main():
    f = inputs()
    rows = []
    for name, exe, full, small in workloads(f):
        rows.append(Row(name, "cache", full, exe))
        rows.append(Row(name, "ptrace", small, exe))
    # Interleaved, so that a burst of other load hits every row alike.
    for i in range(REPS):
        for r in rows:
            if r.engine == "cache" or i < PTRACE_REPS:
                r.rep()
    header = ["program", "input", "engine", "M insns", "native s",
              "best s", "median s", "rec/native", "new/M", "miss/M",
              "ptrace/M", "fill/M", "stops/M", "xlate ms", "drain ms",
              "B/insn"]
    notes = [
        "Whole processes, wall clock, pinned to CPU %s (%s); best and "
        "median of %d reps (BENCH_REPS), %d for the ptrace engine "
        "(BENCH_PTRACE_REPS), interleaved." % (
            benchlib.STUB_CPU, cpu_model(), REPS, PTRACE_REPS),
        "recorded: ptstub record --at-exit --stats --btrace-engine=ENGINE "
        "(a 4 MiB ring per thread, one bundle written at the exit); "
        "native: the same program and input without ptstub.",
        "M insns: instructions recorded (the --stats line).  new, miss, "
        "ptrace, fill: the code cache's exits to new blocks, table "
        "misses, instructions left to ptrace and log fills, per million "
        "instructions; stops: its ptrace stops (of every cause) per "
        "million.  The ptrace engine's line gives no counts ('-').",
        "xlate, drain: ms translating and draining (the --stats line).  "
        "B/insn: trace bytes over the instructions they decode to "
        "(ptbtrace info of the last bundle); * where the ring wrapped, "
        "the part it kept; beside the ptrace engine's, the code cache's "
        "on the same input.",
    ]
    benchlib.table("record-programs", header, [r.cells() for r in rows],
                   notes)


if __name__ == "__main__":
    main()
