#!/bin/sh
# make check's share of the differential fuzzer (testsuite/exact/fuzz.py
# --quick): about a minute; the seed is printed for a rerun.
here=$(cd "$(dirname "$0")" && pwd)
EXACT_BUILDDIR=${EXACT_BUILDDIR:-$(pwd)/testsuite/exact}
export EXACT_BUILDDIR
exec "${PYTHON3:-python3}" "$here/fuzz.py" --quick $EXACT_FLAGS
