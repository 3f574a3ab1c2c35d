#!/usr/bin/env python3
"""The differential fuzzer over exact_diff and exact_threads.

Three sources of code nobody here wrote, each compared with single-step:
  csmith    random C programs (Debian's csmith), gcc -O0..-O3 with and
            without -march=native, traced from main's entry to its
            return; a program whose trace differs is kept under
            testsuite/exact/regress/ (its seed and flags in its name).
  programs  whole runs (exec to exit) of Debian programs on small inputs.
  threads   every thread recorded with all-stop rounds (exact_threads):
            the 64-thread barrier and a create/block/exit stress must
            end as they do unrecorded; threads sharing syscall sites
            (share) must each match their own single-step run.
  regress   the kept programs again.

  fuzz.py [--quick] [--seed N] [--count N] [--keep] [--max-insns N]
          [--programs NAME,...] [MODE ...]

Every run is compared on both engines (the ptrace engine, with and
without its shortcuts, and the code cache).  The whole runs hide the
vDSO (exact_diff -V): libc then asks the kernel for the time, so two
runs that read different clocks still go the same way in user space.

The whole runs stop at --max-insns single-stepped instructions (40M by
default, about 20 minutes here; 0: no limit, so jq's 172M run takes
about 80 minutes more) and a run past it is counted as not compared.

Prints one line per run and totals: programs tried, instructions
compared, differences.  Exit 0 when no difference was found, 1 else,
77 when nothing could run (no ptrace, no gcc).
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.environ.get("EXACT_BUILDDIR", HERE)
EXACT_DIFF = os.path.join(BUILD, "exact_diff")
EXACT_THREADS = os.path.join(BUILD, "exact_threads")
REGRESS = os.path.join(HERE, "regress")
CSMITH_INC = "/usr/include/csmith"

# Whole runs: (name, argv, stdin text).  Inputs are small so that the
# single-stepped run (about 40,000 instructions a second here) stays
# within a minute or two even with the dynamic loader's start-up.
LINES = "".join("line %d %s\n" % ((i * 7919) % 23, "xyz"[i % 3] * (i % 5))
                for i in range(20))
PROGRAMS = [
    ("gzip", ["/usr/bin/gzip", "-c"], LINES),
    ("sort", ["/usr/bin/sort"], LINES),
    ("grep", ["/usr/bin/grep", "-E", "line (1|2)[0-9]* x+"], LINES),
    ("sed", ["/usr/bin/sed", "-e", "s/line/L/;/z/d"], LINES),
    ("awk", ["/usr/bin/awk", "{ s += $2 } END { print s }"], LINES),
    ("bc", ["/usr/bin/bc"], "2^20 + 3*7\n"),
    ("jq", ["/usr/bin/jq", ".a + 1"], '{"a": 41}\n'),
    ("sqlite3", ["/usr/bin/sqlite3", ":memory:",
                 "select 6*7;"], ""),
    # Not -I: it ignores PYTHONHASHSEED, and a random hash seed makes
    # the two runs go different ways (run_diff sets it to 0).
    ("python3", ["/usr/bin/python3", "-s", "-S", "-c", "print(6*7)"], ""),
]
QUICK_PROGRAMS = ["gzip"]

OPTS = ["-O0", "-O1", "-O2", "-O3"]

# exact_diff's runs: the ptrace engine without and with its shortcuts,
# and the code-cache engine; the quick sample takes one of each engine.
CONFIGS = "none,both,cache"
QUICK_CONFIGS = "both,cache"


class Totals:
    def __init__(self):
        self.tried = 0
        self.compared = 0
        self.diffs = 0
        self.skipped = 0
        self.kept = []

    def line(self):
        return ("fuzz: programs tried %d, instructions compared %d, "
                "differences %d, not compared (too long, the clock "
                "decided, or the cache's mappings showed) %d%s" %
                (self.tried, self.compared, self.diffs, self.skipped,
                 "".join(", kept %s" % k for k in self.kept)))


def run_diff(totals, argv, label, timeout, stdin_text=None, func=None,
             max_insns=0, configs=None, no_vdso=False):
    """One exact_diff run; returns its exit code."""
    cmd = [EXACT_DIFF, "-q", "-o", "/dev/null", "-c", configs or CONFIGS]
    if no_vdso:
        cmd += ["-V"]
    if func:
        cmd += ["-f", func]
    if max_insns:
        cmd += ["-n", str(max_insns)]
    infile = None
    if stdin_text is not None:
        infile = tempfile.NamedTemporaryFile("w", delete=False,
                                             prefix="exact-in-")
        infile.write(stdin_text)
        infile.close()
        cmd += ["-i", infile.name]
    cmd += argv
    try:
        env = dict(os.environ, PYTHONHASHSEED="0")
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, env=env,
                              stderr=subprocess.STDOUT, text=True,
                              timeout=timeout, errors="replace")
        out, rc = proc.stdout, proc.returncode
    except subprocess.TimeoutExpired:
        out, rc = "timed out after %ds\n" % timeout, 3
    finally:
        if infile:
            os.unlink(infile.name)
    if rc == 77:
        print("fuzz: %s: SKIP %s" % (label, out.strip()))
        return rc
    totals.tried += 1
    m = re.search(r"truth=(\d+) compared=(\d+) diffs=(\d+)", out)
    if m:
        totals.compared += int(m.group(2))
    firsts = re.findall(r"^  >\[\d+\] step 0x[0-9a-f]+ (\S+)", out, re.M)
    if rc not in (0, 3) and firsts and all(f.startswith("[vdso]")
                                           for f in firsts):
        # Two runs, not one: where the single-stepped run first went
        # another way in the vDSO's clock code, the two read different
        # clocks, and nothing after compares.
        totals.skipped += 1
        print("fuzz: %s: not compared: the runs read different clocks "
              "(first difference in the vDSO)\n%s" % (label, out))
    elif rc == 3:
        totals.skipped += 1
        print("fuzz: %s: not compared: %s" % (label, out.strip()))
    elif rc == 0:
        print("fuzz: %s: ok, %s single-stepped instructions, %s compared"
              % (label, m.group(1) if m else "?", m.group(2) if m else "?"))
    else:
        totals.diffs += 1
        print("fuzz: %s: DIFFERENCE (exit %d)\n%s" % (label, rc, out))
    sys.stdout.flush()
    return rc


def csmith_program(seed, workdir):
    src = os.path.join(workdir, "csmith_%d.c" % seed)
    with open(src, "w") as f:
        subprocess.run(["csmith", "--seed", str(seed), "--max-funcs", "6",
                        "--max-block-depth", "3", "--no-volatiles"],
                       stdout=f, check=True, cwd=workdir)
    return src


def compile_c(src, exe, flags):
    cmd = ["gcc", "-w", "-g", "-I" + CSMITH_INC, "-o", exe, src] + flags
    return subprocess.run(cmd, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode == 0


def keep(totals, src, seed, flags):
    os.makedirs(REGRESS, exist_ok=True)
    name = "csmith_%d%s.c" % (seed, "".join(f.replace("=", "_")
                                            for f in flags))
    dest = os.path.join(REGRESS, name)
    with open(src) as f, open(dest, "w") as out:
        out.write("/* Kept by testsuite/exact/fuzz.py: its trace differed "
                  "from single-step.\n   flags: %s */\n" % " ".join(flags))
        out.write(f.read())
    totals.kept.append(os.path.relpath(dest, os.path.dirname(HERE)))
    print("fuzz: kept as %s" % dest)


def mode_csmith(totals, rng, count, quick, keep_diffs, workdir):
    if not shutil.which("csmith") or not os.path.isdir(CSMITH_INC):
        print("fuzz: csmith: SKIP csmith (Debian csmith, libcsmith-dev) "
              "is not installed")
        return
    for _ in range(count):
        seed = rng.randrange(1, 2**31)
        src = csmith_program(seed, workdir)
        levels = [rng.choice(OPTS)] if quick else OPTS
        for opt in levels:
            natives = [rng.choice([False, True])] if quick \
                else [False, True]
            for native in natives:
                flags = [opt] + (["-march=native"] if native else [])
                exe = os.path.join(workdir, "csmith_%d" % seed)
                if not compile_c(src, exe, flags):
                    print("fuzz: csmith %d %s: does not compile" %
                          (seed, " ".join(flags)))
                    continue
                label = "csmith seed %d %s" % (seed, " ".join(flags))
                rc = run_diff(totals, [exe], label, 240 if quick else 600,
                              func="main",
                              max_insns=150000 if quick else 600000,
                              configs=QUICK_CONFIGS if quick else CONFIGS)
                if rc == 1 and keep_diffs:
                    keep(totals, src, seed, flags)


def reads_own_maps(argv, text):
    """Whether the program opens its own /proc/PID/maps (grep does:
    gnulib's stack-overflow handler finds its stack there).  There the
    code cache's own mappings show, so the program reads other bytes
    than in the single-stepped run and goes another way: the cache's
    run is a second program, not compared.  None without strace."""
    if not shutil.which("strace"):
        return None
    with tempfile.NamedTemporaryFile("w+") as log:
        subprocess.run(["strace", "-f", "-qq", "-e", "trace=openat,open",
                        "-o", log.name] + argv, input=text, text=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=600)
        return re.search(r'"/proc/(self|\d+)/maps"', log.read()) is not None


def mode_programs(totals, quick, max_insns, only):
    for name, argv, text in PROGRAMS:
        if quick and name not in QUICK_PROGRAMS:
            continue
        if only and name not in only:
            continue
        if not os.path.exists(argv[0]):
            print("fuzz: %s: SKIP %s is not installed" % (name, argv[0]))
            continue
        configs = QUICK_CONFIGS if quick else CONFIGS
        if reads_own_maps(argv, text):
            configs = ",".join(c for c in configs.split(",")
                               if c != "cache")
            totals.skipped += 1
            print("fuzz: whole run of %s: the code cache's run not "
                  "compared: the program reads its own /proc/PID/maps, "
                  "where the cache's mappings show (configs %s only)"
                  % (" ".join(argv), configs))
        # About 40,000 single-steps a second, and the emulator's runs.
        run_diff(totals, argv, "whole run of %s" % " ".join(argv),
                 600 if quick else
                 (6 * 3600 if not max_insns else
                  max(3600, max_insns // 10000)), stdin_text=text,
                 max_insns=0 if quick else max_insns,
                 configs=configs, no_vdso=True)


def mode_threads(totals, rng, quick):
    runs = [("barrier", ["16", "3"]), ("barrier", ["64", "3"]),
            ("spawn", ["6", "8"]), ("share", ["16", "3"]),
            ("share", ["32", "3"]), ("share", ["16", "3"], "bts")]
    if quick:
        runs = [("barrier", ["64", "1"]), ("spawn", ["4", "3"]),
                ("share", ["8", "2"])]
    for run, engine in [(r, e) for r in runs for e in ("ptrace", "cache")]:
        name, args = run[0], run[1]
        exe = os.path.join(BUILD, name)
        seed = rng.randrange(1, 2**31)
        cmd = [EXACT_THREADS, "-e", engine, "-r", str(seed), "-n", "50",
               "-t", "240"]
        if name == "share":
            cmd += ["-c"]     # each worker against its single-step run
        if len(run) > 2:
            cmd += ["-F", run[2]]
        cmd += [exe] + args
        env = dict(os.environ, PYTHONHASHSEED="0")
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, env=env,
                              stderr=subprocess.STDOUT, text=True,
                              errors="replace")
        if proc.returncode == 77:
            print("fuzz: threads: SKIP " + proc.stdout.strip())
            continue
        totals.tried += 1
        summary = [l for l in proc.stdout.splitlines()
                   if l.startswith("exact_threads")]
        m = re.search(r"compared threads=\d+ insns=(\d+)", proc.stdout)
        if m:
            totals.compared += int(m.group(1))
        if proc.returncode:
            totals.diffs += 1
            print("fuzz: threads %s %s (%s): FAILED\n%s" %
                  (name, " ".join(args), engine, proc.stdout))
        else:
            print("fuzz: threads %s %s (%s): %s" %
                  (name, " ".join(args), engine,
                   " / ".join(summary[-2:])))
        sys.stdout.flush()


def mode_regress(totals, workdir):
    if not os.path.isdir(REGRESS):
        return
    for name in sorted(os.listdir(REGRESS)):
        if not name.endswith(".c"):
            continue
        src = os.path.join(REGRESS, name)
        with open(src) as f:
            m = re.search(r"flags: ([^*]*)\*/", f.read(400))
        flags = m.group(1).split() if m else ["-O2"]
        exe = os.path.join(workdir, name[:-2])
        if compile_c(src, exe, flags):
            run_diff(totals, [exe], "regress %s" % name, 900,
                     func="main")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("modes", nargs="*",
                    default=["csmith", "programs", "threads", "regress"])
    ap.add_argument("--quick", action="store_true",
                    help="the bounded sample make check runs")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--count", type=int, default=None,
                    help="csmith programs (default 1 quick, 12 long)")
    ap.add_argument("--keep", action="store_true",
                    help="keep differing csmith programs in regress/")
    ap.add_argument("--max-insns", type=int, default=40000000,
                    help="single-steps a whole run may take (0: no limit)")
    ap.add_argument("--programs", default="",
                    help="only these whole runs (comma-separated names)")
    args = ap.parse_args()
    if not os.access(EXACT_DIFF, os.X_OK):
        print("fuzz: SKIP %s is not built" % EXACT_DIFF)
        return 77
    seed = args.seed if args.seed is not None else \
        int.from_bytes(os.urandom(4), "little")
    print("fuzz: seed %d (rerun with --seed %d)" % (seed, seed))
    rng = random.Random(seed)
    count = args.count if args.count is not None else \
        (1 if args.quick else 12)
    totals = Totals()
    with tempfile.TemporaryDirectory(prefix="exact-fuzz-") as workdir:
        for mode in args.modes:
            if mode == "csmith":
                mode_csmith(totals, rng, count, args.quick, args.keep,
                            workdir)
            elif mode == "programs":
                mode_programs(totals, args.quick, args.max_insns,
                              [p for p in args.programs.split(",") if p])
            elif mode == "threads":
                mode_threads(totals, rng, args.quick)
            elif mode == "regress":
                mode_regress(totals, workdir)
            else:
                print("fuzz: unknown mode %s" % mode)
                return 2
    print(totals.line())
    if not totals.tried:
        return 77
    return 1 if totals.diffs else 0


if __name__ == "__main__":
    sys.exit(main())
