#!/bin/sh
# `make check-gdb`: GDB's own gdb.btrace and gdb.server suites (from
# Debian's gdb source package) through ptstub, on the native-gdbserver and
# native-extended-gdbserver boards, and through Debian's gdbserver as the
# baseline; then sumcheck.py judges ptstub's .sum files against
# expectations and against gdbserver's.  See README.md beside this file.
#
# Environment (make check-gdb passes the first four):
#   top_srcdir top_builddir  the source and build trees of ptstub
#   PTSTUB      the stub under test          (default: $top_builddir/ptstub)
#   GDB         the gdb that drives the tests (default: gdb)
#   GDBSERVER   the baseline stub            (default: /usr/bin/gdbserver)
#   GDBTS_SRCDIR  an unpacked gdb-13.1 source tree to use as is
#   GDBTS_CACHE   where to fetch it otherwise
#                 (default: $top_builddir/testsuite/gdb/src)
#   GDBTS_STUBS   which stubs to run         (default: "ptstub gdbserver")
#   GDBTS_BOARDS  (default: "native-gdbserver native-extended-gdbserver")
#   GDBTS_SUITES  (default: "gdb.btrace gdb.server")
#   GDBTS_TESTS   only these .exp files, e.g. "gdb.btrace/step.exp"
#   GDBTS_TIMEOUT expect timeout of one test step, seconds (default: 30)
#   GDBTS_LIMIT   wall-clock limit of one runtest, seconds (default: 900)
set -u

top_srcdir=${top_srcdir:?top_srcdir is not set}
top_builddir=${top_builddir:?top_builddir is not set}
here=$top_srcdir/testsuite/gdb
work=$top_builddir/testsuite/gdb
PTSTUB=${PTSTUB:-$top_builddir/ptstub}
GDB=${GDB:-gdb}
GDBSERVER=${GDBSERVER:-/usr/bin/gdbserver}
stubs=${GDBTS_STUBS:-ptstub gdbserver}
boards=${GDBTS_BOARDS:-native-gdbserver native-extended-gdbserver}
suites=${GDBTS_SUITES:-gdb.btrace gdb.server}
step_timeout=${GDBTS_TIMEOUT:-30}
limit=${GDBTS_LIMIT:-900}

say() { echo "check-gdb: $*"; }

skip() {
	say "SKIP: $*"
	# CI must not pass by skipping.
	if [ "${CI:-}" = true ]; then exit 1; fi
	exit 77
}

command -v runtest >/dev/null 2>&1 || skip "runtest is missing (apt-get install dejagnu)"
command -v "$GDB" >/dev/null 2>&1 || skip "$GDB is missing"
[ -x "$PTSTUB" ] || { say "$PTSTUB is not built"; exit 1; }
case " $stubs " in *" gdbserver "*)
	if [ ! -x "$GDBSERVER" ]; then
		say "no gdbserver ($GDBSERVER): no baseline, only the expectations" \
		    "judge (apt-get install gdbserver)"
		stubs=$(echo " $stubs " | sed 's/ gdbserver / /')
	fi ;;
esac

# 1. GDB's testsuite sources.
if [ -n "${GDBTS_SRCDIR:-}" ]; then
	src=$GDBTS_SRCDIR
	[ -f "$src/gdb/testsuite/configure" ] ||
		{ say "GDBTS_SRCDIR=$src has no gdb/testsuite"; exit 1; }
else
	src=$(GDB=$GDB sh "$here/fetch-gdb-source.sh" "${GDBTS_CACHE:-$work/src}" | tail -n 1)
	rc=$?
	# A pipeline's status is tail's: check what fetch left instead.
	[ -n "$src" ] && [ -f "$src/gdb/testsuite/configure" ] ||
		skip "no GDB testsuite source (see fetch-gdb-source's message above)"
fi
tsrc=$(cd "$src/gdb/testsuite" && pwd)

# 2. Configure gdb/testsuite alone (no GDB build): it is enough for
# site.exp, which is all runtest needs.
build=$work/build
if [ ! -f "$build/site.exp" ] || ! grep -q "^set srcdir $tsrc\$" "$build/site.exp"; then
	say "configuring $tsrc in $build"
	rm -rf "$build" && mkdir -p "$build" &&
	(cd "$build" && "$tsrc/configure" -q >configure.log 2>&1 &&
	 make site.exp >/dev/null) ||
		{ say "configure failed, see $build/configure.log"; exit 1; }
fi

# 3. The runs: one runtest per stub, board and suite, each in its own
# folder (runtest's outputs/ and gdb.sum land in the current directory).
out=$work/out
times=$out/times.txt
rm -rf "$out" && mkdir -p "$out"
start_all=$(date +%s)
for stub in $stubs; do
	case $stub in
	ptstub) path=$PTSTUB ;;
	gdbserver) path=$GDBSERVER ;;
	*) path=$stub; stub=$(basename "$stub") ;;
	esac
	for board in $boards; do
		for suite in $suites; do
			tests=
			for t in ${GDBTS_TESTS:-}; do
				case $t in "$suite"/*) tests="$tests $t" ;; esac
			done
			if [ -n "${GDBTS_TESTS:-}" ] && [ -z "$tests" ]; then
				continue
			fi
			dir=$out/$stub/$board/$suite
			mkdir -p "$dir"
			cp "$build/site.exp" "$dir/site.exp"
			echo "set gdb_test_timeout $step_timeout" >>"$dir/site.exp"
			t0=$(date +%s)
			(cd "$dir" && timeout -k 10 "$limit" runtest \
			    GDB="$GDB" GDBSERVER="$path" \
			    --target_board="$board" --srcdir="$tsrc" \
			    ${tests:---directory=$suite} \
			    >runtest.out 2>&1 </dev/null)
			rc=$?
			t1=$(date +%s)
			[ $rc = 124 ] && rc="$rc (timed out after ${limit}s)"
			line=$(printf '%-10s %-26s %-11s %5ss  runtest exit %s' \
			    "$stub" "$board" "$suite" $((t1 - t0)) "$rc")
			say "$line"
			echo "$line" >>"$times"
		done
	done
done
say "all runs: $(( $(date +%s) - start_all ))s"

# 4. The verdict.
${PYTHON3:-python3} "$here/sumcheck.py" --expect "$here/expectations" \
    --out "$out" --stub ptstub --baseline gdbserver
