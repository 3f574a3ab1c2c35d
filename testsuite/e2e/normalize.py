"""Normalizing a transcript so that runs against two stubs can be compared:
what legitimately differs between two runs (pids, ports, paths, where
libc, ld.so, the stack and thread areas sit) becomes a stable token; what
must agree (the program's own code addresses, values, messages) is left
alone."""

import re

# Lines that only say GDB fetched a file over the remote protocol; whether
# and when GDB reads a file depends on its caches, not on the stub.
DROPPED_LINES = [
    re.compile(r"^Reading .* from remote target\.\.\.$"),
    re.compile(r"^warning: File transfers from remote targets can be slow\."
               r" Use \"set sysroot\" to access files locally instead\.$"),
]

# Where a process or thread id appears in GDB's and gdbserver's messages,
# including GDB's "Thread PID.LWP" for programs without libpthread (three
# digits at least, so GDB's own "Thread 2.1" numbering is left alone).
# One pattern, so that ids are numbered in order of appearance.
PID = re.compile(r"\b(?P<pre>process |LWP |pid = |pid |pid=)"
                 r"(?P<a>\d+)\b"
                 r"|\bThread (?P<ta>\d{3,})\.(?P<tb>\d{3,})\b")

PORTS = [
    re.compile(r"(?<=127\.0\.0\.1:)(\d+)"),
    re.compile(r"(?<=localhost:)(\d+)"),
    re.compile(r"(?<=^Listening on port )(\d+)", re.M),
    re.compile(r"(?<=, port )(\d+)"),
]

# Shared libraries, ld.so, the stack, mmap'd thread stacks and TLS all live
# at 0x7f... on x86-64 Linux; the program itself (PIE at 0x5555..., non-PIE
# at 0x40....) and its heap sit lower and are compared as they are.
HIGH_LOW, HIGH_END = 0x7F0000000000, 0x800000000000
HEX = re.compile(r"\b0x([0-9a-fA-F]+)\b")
DECIMAL = re.compile(r"(?<![\w.])(\d{15})(?![\w.])")


class Numbering:
    """Gives each distinct value a token numbered by first appearance, so
    that equal values stay equal and distinct ones stay distinct."""

    def __init__(self, prefix):
        self.prefix = prefix
        self.tokens = {}

    def token(self, value):
        if value not in self.tokens:
            self.tokens[value] = f"<{self.prefix}{len(self.tokens) + 1}>"
        return self.tokens[value]


def drop_lines(text):
    """TEXT less DROPPED_LINES, and trailing blanks trimmed."""
    kept = [line.rstrip() for line in text.split("\n")]
    return "\n".join(l for l in kept
                     if not any(r.match(l) for r in DROPPED_LINES))


def _replace_paths(text, paths):
    # Longest first: the build folder may sit inside the source folder.
    for path, token in sorted(paths.items(), key=lambda p: -len(p[0])):
        if path:
            text = text.replace(path.rstrip("/"), token)
    return text


def _replace_pids(text):
    pids = Numbering("pid")

    def replace(m):
        if m.group("pre"):
            return m.group("pre") + pids.token(int(m.group("a")))
        return ("Thread " + pids.token(int(m.group("ta"))) + "." +
                pids.token(int(m.group("tb"))))
    return PID.sub(replace, text)


# `info threads` pads its Target Id column to the longest entry, so the
# width follows the number of digits in the pids: fold the padding.
THREAD_TABLE = re.compile(r"^(\s+Id\s+Target Id\s+Frame\s*|.*\bpid\d+\b.*)$",
                          re.M)


def _fold_thread_columns(text):
    return THREAD_TABLE.sub(lambda m: re.sub(r"(?<=\S)  +", " ",
                                             m.group(0)), text)


def _replace_ports(text):
    for regex in PORTS:
        text = regex.sub("PORT", text)
    return text


def _replace_high_addresses(text):
    addresses = Numbering("addr")

    def hex_value(match):
        value = int(match.group(1), 16)
        if HIGH_LOW <= value < HIGH_END:
            return addresses.token(value)
        return match.group(0)

    def decimal_value(match):
        value = int(match.group(1))
        if HIGH_LOW <= value < HIGH_END:
            return addresses.token(value)
        return match.group(0)

    # One numbering for both forms: `info registers` prints rsp as
    # 0x7ffe... and as the same number in decimal.
    text = HEX.sub(hex_value, text)
    return DECIMAL.sub(decimal_value, text)


def normalize(text, paths, high_addresses=True):
    """PATHS maps absolute folders (build, source, output) to tokens.
    HIGH_ADDRESSES false keeps libc/stack addresses as they are: both stubs
    disable randomization and start the program alike, so a faithful stub
    matches even so (run_gdb.py --exact-addresses)."""
    text = drop_lines(text)
    text = _replace_paths(text, paths)
    text = _replace_ports(text)
    text = _fold_thread_columns(_replace_pids(text))
    if high_addresses:
        text = _replace_high_addresses(text)
    return text
