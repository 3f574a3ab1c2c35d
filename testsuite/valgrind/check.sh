#!/bin/sh
# make check-valgrind: the end-to-end scenarios once with ptstub under
# valgrind's memcheck (stub.sh), against gdbserver as always.  A scenario
# fails if its stub's exit status is not gdbserver's (99: an error or a
# definite leak); afterwards every transcript is read again for memcheck's
# reports (on the stub's standard error), since a stub killed after GDB's
# end never reaches its exit status.  Slow
# (memcheck runs the emulator some 30 times slower): not part of CI.
#   check.sh BUILDDIR SRCDIR
set -u
build=$1
src=$2
rm -f "$build/testsuite/valgrind/ptstub"
command -v valgrind >/dev/null 2>&1 || { echo "check-valgrind: no valgrind" >&2; exit 2; }
tests=$(sed -n '/^e2e_scenarios = /,/^$/p' "$build/Makefile" |
	tr -d '\\' | tr ' \t' '\n\n' | grep '\.gdb$' | tr '\n' ' ')
# A copy of ptstub: a rebuild during the long run must not change it.
cp "$build/ptstub" "$build/testsuite/valgrind/ptstub" || exit 2
rc=0
VALGRIND_PTSTUB=$build/testsuite/valgrind/ptstub \
	make -C "$build" -s check TESTS="$tests" \
	E2E_STUB="$src/testsuite/valgrind/stub.sh" \
	E2E_TIMEOUT_SCALE="${E2E_TIMEOUT_SCALE:-10}" \
	>"$build/testsuite/valgrind/check.out" 2>&1 || rc=$?
grep -E '^(FAIL|ERROR|XPASS):' "$build/testsuite/valgrind/check.out"
bad=$(grep -lE '^==[0-9]+== ' "$build"/testsuite/e2e/out/*/stub/transcript.raw \
	2>/dev/null)
if [ -n "$bad" ]; then
	echo "check-valgrind: memcheck reports in:"
	echo "$bad"
	rc=1
fi
runs=$(ls "$build"/testsuite/e2e/out/*/stub/transcript.raw 2>/dev/null | wc -l)
python3 "$src/testsuite/tally.py" $(for t in $tests; do echo "$build/${t%.gdb}.trs"; done) |
	sed 's/^check:/check-valgrind:/'
echo "check-valgrind: $runs scenarios' stubs under memcheck, $(echo "$bad" | grep -c .) with a report"
exit $rc
