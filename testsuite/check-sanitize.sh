#!/bin/sh
# make check-sanitize: the whole make check with the tree built with
# -fsanitize=address,undefined, in a tree of their own (an in-tree
# configured source folder cannot host a second build).  The inferiors
# keep their fixed flags, so the same programs are traced.
#   check-sanitize.sh SRCDIR OUTDIR
set -eu
src=$1
out=$2
flags="-g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined
  -fno-sanitize-recover=undefined"

if ! git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
	echo "check-sanitize: $src is not a git checkout (it copies the" \
	     "tracked files)" >&2
	exit 2
fi
rm -rf "$out"
mkdir -p "$out/src" "$out/build"
# The tracked files as they are in the work tree, changes included.
(cd "$src" && git ls-files -z | tar --null -T - -cf -) | tar -x -C "$out/src"
(cd "$out/src" && autoreconf -fi >/dev/null 2>&1)
cd "$out/build"
../src/configure -q CFLAGS="$flags" CXXFLAGS="$flags"
make -s -j"$(nproc)"

# The whole of TESTS, as make expands it: the unit tests (the server's
# and the native layer's run real processes under the sanitized code),
# the oracle, and, with the sanitized ptstub, ptbtrace and libptbtrace,
# the end-to-end scenarios (GDB and LLDB), the robustness, recorder,
# client-library and wire tests and the bounded fuzzing.
# SANITIZE_E2E=0 keeps only the unit tests and the oracle;
# SANITIZE_LISTS names make variables whose tests run instead (CI:
# "unit_tests e2e_scenarios robust_tests", the oracle and the fuzzing
# added).
if [ -n "${SANITIZE_LISTS:-}" ]; then
	tests="testsuite/emu/emu_oracle_test testsuite/fuzz/fuzz_check.sh"
	for v in $SANITIZE_LISTS; do
		tests="$tests $(make -s --no-print-directory "list-$v")"
	done
else
	tests=$(make -s --no-print-directory list-TESTS)
fi
# SANITIZE_EXCLUDE: tests left out, each with its reason in .ci/run.
for x in ${SANITIZE_EXCLUDE:-}; do
	tests=$(echo "$tests" | tr ' ' '\n' | grep -vxF "$x" | tr '\n' ' ')
done
if [ "${SANITIZE_E2E:-1}" = 0 ]; then
	tests=$(echo "$tests" | tr ' ' '\n' |
		grep -E '^testsuite/(unit/.*_test|emu/emu_oracle_test)$' |
		tr '\n' ' ')
fi
rc=0
make -s -j"$(nproc)" check TESTS="$tests" \
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	E2E_TIMEOUT_SCALE=${E2E_TIMEOUT_SCALE:-4} TEST_TIME_LIMIT=3600 \
	>check.out 2>&1 || rc=$?
# Each failure with the end of its log, so a red CI run says why.
for t in $(sed -n 's/^\(FAIL\|ERROR\|XPASS\): //p' check.out | sort -u); do
	echo "== $t"
	tail -n 25 "${t%.*}.log" 2>/dev/null || tail -n 25 "$t.log" 2>/dev/null || true
done
# A sanitizer's report anywhere, even in a test that passed.
grep -rlE 'ERROR: (Address|Leak)Sanitizer|runtime error:' \
	--include='*.log' testsuite && rc=1
# automake names the results of X.gdb, X.sh, X.py and X.lldb X.trs.
python3 ../src/testsuite/tally.py $(for t in $tests; do
	case $t in *.gdb|*.sh|*.py|*.lldb) echo "${t%.*}.trs" ;; *) echo "$t.trs" ;; esac
done) |
	sed 's/^check:/check-sanitize:/'
exit $rc
