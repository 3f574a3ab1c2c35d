"""Starting a remote stub (gdbserver or ptstub: same command line) in one
of three modes, waiting until it listens, and collecting what it prints."""

import os
import re
import subprocess
import threading
import time

from processes import free_port, kill_tree

LISTENING = re.compile(r"^Listening on port (\d+)$", re.M)

# A slower stub (check-sanitize's, check-valgrind's) gets E2E_TIMEOUT_SCALE
# times the time to start listening and to exit after GDB.
SCALE = float(os.environ.get("E2E_TIMEOUT_SCALE") or 1)


class Pipe:
    """Reads one stream to the end in the background."""

    def __init__(self, stream):
        self.stream = stream
        self.chunks = []
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._pump, daemon=True)
        self.thread.start()

    def _pump(self):
        for chunk in iter(lambda: os.read(self.stream.fileno(), 4096), b""):
            with self.lock:
                self.chunks.append(chunk)

    def text(self):
        with self.lock:
            return b"".join(self.chunks).decode("utf-8", "replace")

    def wait_for(self, regex, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            match = regex.search(self.text())
            if match:
                return match
            if not self.thread.is_alive():
                return regex.search(self.text())
            time.sleep(0.01)
        return None


class Stub:
    """One stub process.  MODE is 'remote' (stub starts PROG), 'attach'
    (stub attaches to PID) or 'multi' (extended-remote, no program)."""

    def __init__(self, path, mode, program=None, args=(), pid=None,
                 cwd=None, start_timeout=5):
        self.path = path
        self.port = free_port()
        address = f"127.0.0.1:{self.port}"
        if mode == "remote":
            argv = [path, "--once", address, program, *args]
        elif mode == "attach":
            argv = [path, "--once", "--attach", address, str(pid)]
        elif mode == "multi":
            argv = [path, "--once", "--multi", address]
        else:
            raise ValueError(f"unknown stub mode {mode!r}")
        self.argv = argv
        self.address = address
        self.proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE,
                                     start_new_session=True)
        self.stdout = Pipe(self.proc.stdout)
        self.stderr = Pipe(self.proc.stderr)
        # gdbserver says it on stderr; accept stdout too, the diff shows it.
        deadline = time.monotonic() + start_timeout * SCALE
        self.listening = False
        while time.monotonic() < deadline and self.proc.poll() is None:
            if LISTENING.search(self.stderr.text()) or \
                    LISTENING.search(self.stdout.text()):
                self.listening = True
                break
            time.sleep(0.01)

    def inferior_pids(self):
        """Processes the stub started (not one it attached to)."""
        return [int(m) for m in
                re.findall(r"created; pid = (\d+)", self.stderr.text())]

    def finish(self, grace=3):
        """Wait up to GRACE s for the stub to exit by itself (it was run
        with --once), then kill it and all below it.  Returns a line for
        the transcript saying how it ended."""
        try:
            rc = self.proc.wait(timeout=grace * SCALE)
            how = f"stub exited with status {rc}"
        except subprocess.TimeoutExpired:
            how = f"stub still running {grace} s after GDB exited: killed"
        kill_tree([self.proc.pid, *self.inferior_pids()])
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            pass
        # An inferior that outlives the stub may hold the pipes open.
        self.stdout.thread.join(timeout=1)
        self.stderr.thread.join(timeout=1)
        return how
