#!/usr/bin/env python3
"""The tree's includes against the layer drawing in doc/HACKING.md.

Each folder is a layer; a file may include only from the folders its
layer may call (LAYERS below, the same table as the drawing).  The
trace bundle's library, libptbundle, is a layer of its own inside
btrace/ (BUNDLE: its files), below libptbtrace and below the stub,
which reaches it only through its headers for users (STUB_BUNDLE), and
nat/ only through its door (SERVER_NAT).  No two
headers may include each other, directly or through others.  Exits 1
naming every include that breaks the drawing."""
import os
import re
import subprocess
import sys

# layer -> the layers its files may include.  Keep in step with
# doc/HACKING.md.
LAYERS = {
    "common": {"common"},
    "xml": {"xml", "common"},
    "bundle": {"bundle"},
    "btrace": {"btrace", "bundle", "common"},
    "nat/emu": {"nat/emu", "nat", "common"},
    "nat": {"nat", "nat/emu", "xml", "common"},
    "rec": {"rec", "nat", "common", "bundle"},
    "server": {"server", "rec", "nat", "xml", "common", "bundle"},
    "main": {"main", "server", "rec", "nat", "common"},
}
# libptbundle's files (btrace/local.mk): its public header, the codec,
# the checks on load, the file writer, the error texts.
BUNDLE = re.compile(r"btrace/(ptbundle\.h|bt_bundle\w*\.[ch]|bt_error\.c)$")
# The only bundle headers the server and the recorder may include: the
# public one and the file writer's (the layout and the reader's
# internals are the library's own).
STUB_BUNDLE = {"btrace/ptbundle.h", "btrace/bt_bundle_file.h"}
# The only header of common/ libptbtrace may include: the array grower,
# inline there alone, so that libptbtrace links nothing of the stub.
BTRACE_COMMON = {"common/ps_array.h"}
# The server reaches the recorder only through the one snapshot of a
# stopped process: the two front ends stand side by side below main/.
SERVER_REC = {"rec/snapshot.h"}
# main/ starts a front end: of nat/ it names only the trace sources and
# engines its command line chooses.
MAIN_NAT = {"nat/btrace.h"}
# The only nat/ headers the server may include: its door to the native
# layer, each listed with its reason in doc/HACKING.md ("The server's
# door into nat/").  Keep in step with it.
SERVER_NAT = {
    "nat/target.h", "nat/btrace.h", "nat/amd64_regs.h",
    "nat/amd64_regs_image.h", "nat/auxv.h", "nat/svr4.h", "nat/maps.h",
    "nat/procinfo.h", "nat/osdata.h", "nat/osdata_sys.h",
    "nat/proc_root.h",
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer_of(path):
    """The layer a file belongs to: the bundle's for its files, else the
    longest folder prefix in LAYERS."""
    if BUNDLE.match(path):
        return "bundle"
    best = None
    for layer in LAYERS:
        if path.startswith(layer + "/") and (best is None
                                             or len(layer) > len(best)):
            best = layer
    return best


def sources(top):
    out = subprocess.run(["git", "-C", top, "ls-files", "*.c", "*.h"],
                         capture_output=True, text=True, check=True).stdout
    return [p for p in out.split() if layer_of(p)]


def includes(top, path):
    with open(os.path.join(top, path), encoding="utf-8",
              errors="replace") as f:
        return INCLUDE.findall(f.read())


def header_cycle(graph):
    """One include cycle among headers, as a list, or None."""
    state = {}

    def visit(node, stack):
        state[node] = 1
        stack.append(node)
        for nxt in graph.get(node, ()):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt, stack)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node, [])
            if found:
                return found
    return None


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..")
    problems = []
    graph = {}
    try:
        files = sources(top)
    except (OSError, subprocess.CalledProcessError):
        print("SKIP: layers: not a git checkout, no file list to check")
        return 77
    for path in files:
        layer = layer_of(path)
        for inc in includes(top, path):
            if "/" not in inc:
                continue            # config.h and the like
            target = layer_of(inc)
            if target is None:
                continue            # not one of the stub's layers
            if target not in LAYERS[layer]:
                problems.append(f"{path}: {layer} -> {target} ({inc})")
            elif layer in ("server", "rec") and target == "bundle" \
                    and inc not in STUB_BUNDLE:
                problems.append(f"{path}: {layer} -> {inc}: only the "
                                "bundle's headers for its users")
            elif layer == "btrace" and target == "common" \
                    and inc not in BTRACE_COMMON:
                problems.append(f"{path}: btrace -> {inc}: only "
                                "common/ps_array.h")
            elif layer == "server" and target == "rec" \
                    and inc not in SERVER_REC:
                problems.append(f"{path}: server -> {inc}: only the "
                                "snapshot's header, rec/snapshot.h")
            elif layer == "main" and target == "nat" \
                    and inc not in MAIN_NAT:
                problems.append(f"{path}: main -> {inc}: only nat/btrace.h")
            elif layer == "server" and target == "nat" \
                    and inc not in SERVER_NAT:
                problems.append(f"{path}: server -> {inc}: not one of the "
                                "nat headers of doc/HACKING.md's door")
            if path.endswith(".h") and inc.endswith(".h"):
                graph.setdefault(path, []).append(inc)
    cycle = header_cycle(graph)
    if cycle:
        problems.append("include cycle: " + " -> ".join(cycle))
    for p in problems:
        print("layers:", p)
    print(f"layers: {len(files)} files checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
