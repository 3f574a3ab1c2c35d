"""The two stubs a wire test compares: ptstub under test and gdbserver
as the reference, from the environment make check sets."""

import os
import shutil


def peers():
    """(ptstub, gdbserver, None), or (None, None, EXIT) when the test
    cannot run: 77 (skip) without gdbserver, 1 without a built ptstub."""
    ptstub = os.environ.get("PTSTUB", "")
    gdbserver = os.environ.get("GDBSERVER", "") or "gdbserver"
    if gdbserver == "no" or not shutil.which(gdbserver):
        print("SKIP: no gdbserver to compare with")
        return None, None, 77
    if not os.access(ptstub, os.X_OK):
        print(f"FAIL: ptstub {ptstub!r} is not built")
        return None, None, 1
    return ptstub, gdbserver, None
