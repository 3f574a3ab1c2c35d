"""make bench-record, services: a request's latency with and without
`ptstub record --attach` on the service, as a ratio (issue 33).

Services on loopback: testsuite/rec/service, a C service with a pool
of four workers, each connection handed to the next ("pool"), or a
thread per request ("thread/req"); and `/usr/bin/python3 -m
http.server` (a thread per request).  Each
is started once, alone, pinned to CPU 0 as the recorder is; the client
(testsuite/rec/service_client, on CPU 1) sends its requests one at a
time and then from four threads at once.  Each rep: a batch unrecorded,
the recorder attached, a first batch (the code met the first time is
translated then), the timed batch, SIGINT (the detach).  The ratio is
of the median latencies of the timed batches, best and median over the
reps.  Then one more attach with --stats, a batch, and the service
killed under the recorder, so that its --stats lines give the traps per
request: of the threads still listed when the main thread exits, the
other threads having gone by then (--stats prints at the program's
exit, not at a detach, and not for threads that ended)."""

import os
import signal
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402
from bench_record_programs import (  # noqa: E402
    CAUSES, PTRACE_REPS, parse_stats)

REPS = int(os.environ.get("BENCH_REPS", "5"))
PYTHON = "/usr/bin/python3"
REC = os.path.join(benchlib.BUILD, "testsuite", "rec")
WORK = os.path.join(benchlib.OUT, "service")


def wait_for(cond, what, seconds=20):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if cond():
            return
        time.sleep(0.02)
    raise RuntimeError("timed out: " + what)


def tracer(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("TracerPid:"):
                return int(line.split()[1])
    return 0


class Service:
    def __init__(self, kind):
        self.kind, self.http = kind, kind == "http.server"
        workers = "0" if kind.endswith("thread/req") else "4"
        os.makedirs(WORK, exist_ok=True)
        self.name = kind.replace(" ", "_").replace("/", "_")
        self.log = open(os.path.join(WORK, self.name + ".log"), "w")
        if self.http:
            www = os.path.join(WORK, "www")
            os.makedirs(www, exist_ok=True)
            with open(os.path.join(www, "index.html"), "w") as f:
                f.write("<p>ptstub bench</p>\n" * 20)
            self.port = benchlib.free_port()
            argv = [PYTHON, "-m", "http.server", "--bind", "127.0.0.1",
                    "--directory", www, str(self.port)]
        else:
            portfile = os.path.join(WORK, "port")
            if os.path.exists(portfile):
                os.unlink(portfile)
            argv = [os.path.join(REC, "service"), portfile, workers]
        self.proc = subprocess.Popen(
            benchlib.pinned(benchlib.STUB_CPU, argv), stdin=subprocess.DEVNULL,
            stdout=self.log, stderr=self.log)
        if self.http:
            wait_for(self.listening, "http.server listening")
        else:
            wait_for(lambda: os.path.exists(portfile), "the service's port")
            with open(portfile) as f:
                self.port = int(f.read())

    def listening(self):
        try:
            socket.create_connection(("127.0.0.1", self.port), 1).close()
            return True
        except OSError:
            return False

    def requests(self, n, conc):
        """The client's figures for N requests from CONC threads; every
        request must be answered."""
        argv = [os.path.join(REC, "service_client"), str(self.port), str(n),
                str(conc)] + (["http"] if self.http else [])
        kv = benchlib.keyvals(benchlib.run(
            benchlib.pinned(benchlib.CLIENT_CPU, argv), timeout=600))
        if kv["answered"] != n:
            raise RuntimeError("%s: %d of %d answered" % (
                self.kind, kv["answered"], n))
        return kv

    def attach(self, extra=()):
        bundle = os.path.join(WORK, self.name + ".ptb")
        rec = subprocess.Popen(
            benchlib.pinned(benchlib.STUB_CPU, [
                benchlib.PTSTUB, "record", "--btrace-source=emulated",
                *extra, "-o", bundle, "--attach", str(self.proc.pid)]),
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE, text=True)
        wait_for(lambda: tracer(self.proc.pid) == rec.pid or
                 rec.poll() is not None, "ptstub attached")
        if rec.poll() is not None:
            raise RuntimeError("ptstub record --attach: " +
                               rec.stderr.read()[-300:])
        return rec

    def detach(self, rec):
        rec.send_signal(signal.SIGINT)
        _, err = rec.communicate(timeout=120)
        if rec.returncode:
            raise RuntimeError("ptstub record exits %d: %s" % (
                rec.returncode, err[-300:]))
        if tracer(self.proc.pid):
            raise RuntimeError("still traced after the detach")

    def stats(self, n, conc, engine):
        """Attached with --stats: N requests, then the service killed;
        its threads' --stats lines summed, and the number of threads."""
        rec = self.attach(["--stats", "--btrace-engine=" + engine])
        self.requests(n, conc)
        self.proc.terminate()
        _, err = rec.communicate(timeout=120)
        self.proc.wait()
        self.log.close()
        return parse_stats(err)

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        if not self.log.closed:
            self.log.close()


def bench(kind, engine, plans):
    """Rows for service KIND recorded by ENGINE, one per (label, n,
    conc) of PLANS, and a note of its --stats line."""
    svc = Service(kind)
    extra = ["--btrace-engine=" + engine]
    runs = {p[0]: {"native": [], "first": [], "rec": [], "tput": []}
            for p in plans}
    try:
        # Warm: http.server imports what a request needs at the first.
        svc.requests(plans[0][1], plans[0][2])
        for _ in range(REPS if engine == "cache" else PTRACE_REPS):
            for label, n, conc in plans:
                r = runs[label]
                nat = svc.requests(n, conc)
                r["native"].append(nat["median_us"])
                rec = svc.attach(extra)
                try:
                    r["first"].append(svc.requests(n, conc)["median_us"])
                    kv = svc.requests(n, conc)
                finally:
                    svc.detach(rec)
                r["rec"].append(kv["median_us"])
                r["tput"].append(kv["total_s"] / nat["total_s"])
        label, n, conc = plans[-1]
        s = svc.stats(n, conc, engine)
    finally:
        svc.close()
    rows = []
    for label, n, conc in plans:
        r = runs[label]
        nat, nat_median = benchlib.best_median(r["native"])
        rec, rec_median = benchlib.best_median(r["rec"])
        rows.append([kind, engine, label, "%.0f" % nat,
                     "%.0f" % min(r["first"]), "%.0f" % rec,
                     "%.1fx" % (rec / nat),
                     "%.1fx" % (rec_median / nat_median),
                     "%.1fx" % min(r["tput"])])
    if engine == "cache" and s["insns"]:
        per = ", ".join("%.0f %s" % (s[c] / n, c) for c in CAUSES)
        note = ("%s, --stats after %d requests (%s; the %d threads listed "
                "at the main thread's exit): per request %.0f instructions, "
                "%.0f stops; %s; "
                "%.0f ms translating, %.0f ms draining in all." % (
                    kind, n, label, s["threads"], s["insns"] / n,
                    s["stops"] / n, per, s["ms translating"],
                    s["ms draining"]))
    else:
        note = ("%s, %s engine, --stats after %d requests (the %d threads "
                "listed at the main thread's exit): %.0f instructions a "
                "request." % (kind, engine, n, s["threads"], s["insns"] / n))
    return rows, note


def main():
    os.makedirs(benchlib.OUT, exist_ok=True)
    rows, notes = [], []
    plans = {
        ("service pool", "cache"): [("1 at a time", 200, 1),
                                    ("4 at once", 400, 4)],
        ("service thread/req", "cache"): [("1 at a time", 100, 1),
                                          ("4 at once", 200, 4)],
        ("service pool", "ptrace"): [("1 at a time", 10, 1)],
        ("http.server", "cache"): [("1 at a time", 40, 1),
                                   ("4 at once", 80, 4)],
    }
    for (kind, engine), plan in plans.items():
        try:
            r, note = bench(kind, engine, plan)
            rows += r
            notes.append(note)
        except (RuntimeError, OSError, subprocess.TimeoutExpired) as e:
            rows.append([kind, engine, "failed: %s" % str(e)[:100]] +
                        [""] * 6)
    notes = [
        "Latency of one request (connect to the reply's end) as the "
        "client measures it, median of each batch in microseconds, best "
        "of %d reps (BENCH_REPS; %d for the ptrace engine, "
        "BENCH_PTRACE_REPS); ratio: recorded / native, of the best; "
        "median: the same of the medians over the reps; tput: the "
        "recorded batch's time over the native one's, best.  first: "
        "the first batch after the attach.  Service and recorder on "
        "CPU %s, client on CPU %s."
        % (REPS, PTRACE_REPS, benchlib.STUB_CPU,
           benchlib.CLIENT_CPU)] + notes
    benchlib.table("record-service",
                   ["service", "engine", "requests", "native us",
                    "first us", "rec us", "ratio", "median", "tput"],
                   rows, notes)


if __name__ == "__main__":
    main()
