#!/usr/bin/env python3
"""libptbtrace's ABI: the installed library exports the functions its
installed headers declare (btrace/ptbtrace.h and the bundle's,
btrace/ptbundle.h, which it includes) and nothing else.

The version script (btrace/libptbtrace.map) must list exactly the
header's functions, and the built shared library must export exactly
those, each in the script's version node, under a soname
libptbtrace.so.N (the .la's dlname).  A function added to the header
but not the script, or an internal one leaking out, fails here naming
it.  SKIPs when the shared library is not built."""
import os
import re
import subprocess
import sys

SRC = os.environ.get("top_srcdir", ".")
BUILD = os.environ.get("top_builddir", ".")


def fail(text):
    print("FAIL: " + text)
    sys.exit(1)


def header_functions():
    text = "".join(open(os.path.join(SRC, h)).read()
                   for h in ("btrace/ptbtrace.h", "btrace/ptbundle.h"))
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"^#.*$", "", text, flags=re.M)
    typedefs = set(re.findall(r"typedef\s+[\w\s*]+?\b(\w+)\s*\(", text))
    names = set(re.findall(r"\b((?:bt|ptbtrace)_\w+)\s*\(", text))
    return names - typedefs


def map_functions():
    text = open(os.path.join(SRC, "btrace/libptbtrace.map")).read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    m = re.search(r"(\w+)\s*\{\s*global:(.*?)local:\s*\*;\s*\};", text,
                  flags=re.S)
    if not m:
        fail("btrace/libptbtrace.map: no 'NODE { global: ... local: *; };'")
    names = [n.strip() for n in m.group(2).split(";") if n.strip()]
    return m.group(1), set(names)


def main():
    so = os.path.join(BUILD, "btrace/.libs/libptbtrace.so")
    if not os.path.exists(so):
        print("SKIP: %s is not built" % so)
        return 77
    declared = header_functions()
    node, listed = map_functions()
    if "ptbtrace_version" not in declared:
        fail("the header parse found no ptbtrace_version: %s"
             % sorted(declared))
    if declared != listed:
        fail("ptbtrace.h and libptbtrace.map differ: only in the header %s,"
             " only in the map %s" % (sorted(declared - listed),
                                      sorted(listed - declared)))

    out = subprocess.run(["nm", "-D", "--defined-only", "--with-symbol-versions",
                          so], capture_output=True, text=True, check=True)
    exported = {}
    for line in out.stdout.splitlines():
        parts = line.split()
        if len(parts) != 3:
            continue
        name, _, version = parts[2].partition("@")
        if name == node and parts[1] == "A":
            continue    # the version node's own definition
        exported[name] = (parts[1], version.lstrip("@"))
    if set(exported) != declared:
        fail("the library exports %s beyond the header and lacks %s"
             % (sorted(set(exported) - declared),
                sorted(declared - set(exported))))
    for name, (kind, version) in sorted(exported.items()):
        if kind != "T" or version != node:
            fail("%s is exported as %s@%s, not a function of %s"
                 % (name, kind, version, node))

    dyn = subprocess.run(["readelf", "-d", so], capture_output=True,
                         text=True, check=True).stdout
    m = re.search(r"\(SONAME\)\s+Library soname: \[(.*)\]", dyn)
    if not m or not re.fullmatch(r"libptbtrace\.so\.\d+", m.group(1)):
        fail("soname: %s" % (m.group(1) if m else "none"))
    la = open(os.path.join(BUILD, "btrace/libptbtrace.la")).read()
    if "dlname='%s'" % m.group(1) not in la:
        fail("soname %s is not the .la's dlname" % m.group(1))
    print("%d functions exported in %s, soname %s"
          % (len(declared), node, m.group(1)))
    return 0


sys.exit(main())
