"""Process plumbing for the end-to-end runner: free ports, the process
tree a test leaves behind, and killing all of it so that no test hangs."""

import ctypes
import os
import signal
import socket
import time

PR_SET_CHILD_SUBREAPER = 36


def become_subreaper():
    """Orphans of our stubs (inferiors, fork children) get reparented to us
    instead of init, so they can still be found and killed."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except OSError:
        pass


def free_port():
    """A TCP port nobody listens on right now (the stub binds it next)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _parent_of(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except OSError:
        return None
    # The command name may hold spaces and parentheses: split after it.
    fields = stat[stat.rindex(")") + 2:].split()
    return int(fields[1])


def process_state(pid):
    """The one-letter state from /proc/PID/stat, or None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except OSError:
        return None
    return stat[stat.rindex(")") + 2:].split()[0]


def descendants(root):
    """Every live process below ROOT (children first found, then theirs)."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            ppid = _parent_of(int(entry))
            if ppid is not None:
                parents.setdefault(ppid, []).append(int(entry))
    found, todo = [], [root]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def kill_tree(pids):
    """SIGKILL each pid and everything below it; ignore the already gone."""
    victims = []
    for pid in pids:
        if pid:
            victims.append(pid)
            victims.extend(descendants(pid))
    for pid in victims:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def kill_orphans():
    """Kill and reap whatever got reparented to us (we are a subreaper)."""
    kill_tree(descendants(os.getpid()))
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            if not descendants(os.getpid()):
                return
            time.sleep(0.02)
