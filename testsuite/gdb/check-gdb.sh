#!/bin/sh
# `make check-gdb`: GDB's own gdb.btrace and gdb.server suites (from
# Debian's gdb source package), and the gdb.base and gdb.threads files that
# `picks` lists, through ptstub, on the native-gdbserver and
# native-extended-gdbserver boards, and through Debian's gdbserver as the
# baseline; then sumcheck.py judges ptstub's .sum files against
# expectations and against gdbserver's.  `make check-gdb-full`
# (GDBTS_FULL=1) runs gdb.base, gdb.threads, gdb.python and gdb.server
# whole and judges ptstub only where it does worse than gdbserver, test by
# test.  See README.md beside this file.
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
#   GDBTS_SUITES  (default: "gdb.btrace gdb.server gdb.base gdb.threads";
#                 with GDBTS_FULL: "gdb.base gdb.threads gdb.python
#                 gdb.server")
#   GDBTS_PICKED  suites run only as far as `picks` lists them, per
#                 board (default: "gdb.base gdb.threads"; none with
#                 GDBTS_FULL)
#   GDBTS_TESTS   only these .exp files, e.g. "gdb.btrace/step.exp"
#   GDBTS_FULL    1: whole suites, differential verdict, out-full/
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
full=${GDBTS_FULL:-}
if [ -n "$full" ]; then
	suites=${GDBTS_SUITES:-gdb.base gdb.threads gdb.python gdb.server}
	picked=${GDBTS_PICKED-}
else
	suites=${GDBTS_SUITES:-gdb.btrace gdb.server gdb.base gdb.threads}
	picked=${GDBTS_PICKED-gdb.base gdb.threads}
fi
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

# The files `picks` lists for BOARD in SUITE ("BOARD FILE" lines, BOARD
# may be *), space-separated.
picks_for() {
	sed -e 's/#.*//' "$here/picks" |
	awk -v b="$1" -v s="$2/" '
		NF == 2 && ($1 == b || $1 == "*") && index($2, s) == 1 {
			printf " %s", $2
		}'
}

# 3. The runs: one runtest per stub, board and suite, each in its own
# folder (runtest's outputs/ and gdb.sum land in the current directory).
out=$work/out${full:+-full}
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
			case " $picked " in *" $suite "*)
				if [ -z "${GDBTS_TESTS:-}" ]; then
					tests=$(picks_for "$board" "$suite")
					[ -n "$tests" ] || continue
				fi ;;
			esac
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

# 4. The verdict.  The full run is judged against gdbserver test by test
# (the expectations speak of the CI files only); hardware watchpoint and
# breakpoint results are set aside where the probe says the debug
# registers never trap here.
if [ -n "$full" ]; then
	hw=
	probe=$top_builddir/testsuite/programs/bin/debugregs_probe
	if [ -x "$probe" ]; then
		line=$("$probe")
		[ $? = 77 ] && hw="debug registers $line (testsuite/programs/debugregs_probe)"
	fi
	${PYTHON3:-python3} "$here/sumcheck.py" --differential \
	    ${hw:+--hw-unavailable "$hw"} --per-file "$out/per-file.txt" \
	    --out "$out" --stub ptstub --baseline gdbserver
else
	${PYTHON3:-python3} "$here/sumcheck.py" --expect "$here/expectations" \
	    --out "$out" --stub ptstub --baseline gdbserver
fi
