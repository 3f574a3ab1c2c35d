#!/usr/bin/env python3
"""debian/control's Build-Depends against bootstrap's build list.

`./bootstrap --packages build` prints what building (and the package
build's unit tests) needs; the source package must ask for the same
packages, so that a library added to one and not the other fails here
naming it.  Two differences are by rule: build-essential is implied by
every Debian build and may not be named in Build-Depends, and
debhelper-compat belongs to the packaging alone (it brings dh and
dh-autoreconf)."""
import os
import re
import subprocess
import sys

SRC = os.environ.get("top_srcdir", ".")
IMPLIED = {"build-essential"}
PACKAGING = {"debhelper-compat"}


def fail(text):
    print("FAIL: " + text)
    sys.exit(1)


def build_depends(path):
    """The package names of the Build-Depends field (first of each
    alternative, without versions, architectures or profiles)."""
    text = open(path).read()
    m = re.search(r"^Build-Depends:(.*?)(?=^\S|\Z)", text, flags=re.M | re.S)
    if not m:
        fail("%s has no Build-Depends" % path)
    names = set()
    for item in m.group(1).split(","):
        item = item.split("|")[0].strip()
        if item:
            names.add(re.match(r"[a-z0-9][a-z0-9+.-]*", item).group(0))
    return names


def main():
    run = subprocess.run(["sh", os.path.join(SRC, "bootstrap"), "--packages",
                          "build"], capture_output=True, text=True)
    if run.returncode != 0:
        fail("./bootstrap --packages build: exit %d: %s"
             % (run.returncode, run.stderr.strip()))
    wanted = set(run.stdout.split())
    if not wanted:
        fail("./bootstrap --packages build printed no package")
    declared = build_depends(os.path.join(SRC, "debian/control"))
    named = declared & IMPLIED
    if named:
        fail("debian/control names %s, which every build implies"
             % sorted(named))
    wanted -= IMPLIED
    declared -= PACKAGING
    if wanted != declared:
        fail("Build-Depends lacks %s and has %s beyond bootstrap's build list"
             % (sorted(wanted - declared), sorted(declared - wanted)))
    print("Build-Depends: the %d packages of bootstrap's build list"
          % len(declared))
    return 0


sys.exit(main())
