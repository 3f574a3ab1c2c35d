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
#   GDBTS_JOBS    runtests at a time (default: 1); above 1 the suites
#                 are cut into parts of GDBTS_PART files (default: 6)
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

# One runtest in DIR with stub PATH on BOARD over TESTS (a suite's
# --directory when empty); its time in $times.
run_one() {
	label=$1 path=$2 board=$3 suite=$4 dir=$5
	shift 5
	mkdir -p "$dir"
	cp "$build/site.exp" "$dir/site.exp"
	echo "set gdb_test_timeout $step_timeout" >>"$dir/site.exp"
	t0=$(date +%s)
	(cd "$dir" && timeout -k 10 "$limit" runtest \
	    GDB="$GDB" GDBSERVER="$path" \
	    --target_board="$board" --srcdir="$tsrc" \
	    ${*:---directory=$suite} \
	    >runtest.out 2>&1 </dev/null)
	rc=$?
	t1=$(date +%s)
	[ $rc = 124 ] && rc="$rc (timed out after ${limit}s)"
	line=$(printf '%-10s %-26s %-11s %5ss  runtest exit %s' \
	    "$label" "$board" "$suite" $((t1 - t0)) "$rc")
	say "$line"
	echo "$line" >>"$times"
}

# The parallel runs' worker (step 3): one queue line, "LABEL PATH BOARD
# SUITE DIR TESTS...", from xargs, with the settings exported.
if [ "${GDBTS_RUN_ONE:-}" = 1 ]; then
	run_one "$@"
	exit 0
fi

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
# gdbserver 13's register writes fail with EFAULT where the XSAVE state
# has AMX tiles, and in the picked gdb.base and gdb.threads files its
# runs then time out step after step (sigall.exp alone took minutes):
# there it is no baseline for them, only the expectations judge.
no_base_picks=
if [ -z "$full" ] && grep -qw amx_tile /proc/cpuinfo; then
	no_base_picks=1
	say "gdbserver 13 cannot write registers on this CPU (AMX tile state):" \
	    "no baseline for the picked files of $picked"
fi

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
# With GDBTS_JOBS=N above 1, each suite's files are cut into parts of
# GDBTS_PART files, and N runtests take the parts of every stub, board
# and suite in turn (the stubs move to the next free port when two
# listen at once, as runtest expects); each part runs in DIR/part-K and
# its gdb.sum files are joined into DIR/gdb.sum.
out=$work/out${full:+-full}
times=$out/times.txt
jobs=${GDBTS_JOBS:-1}
part_size=${GDBTS_PART:-6}

rm -rf "$out" && mkdir -p "$out"
queue=$out/queue
: >"$queue"
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
				[ "$stub" = gdbserver ] && [ -n "$no_base_picks" ] &&
					continue
				if [ -z "${GDBTS_TESTS:-}" ]; then
					tests=$(picks_for "$board" "$suite")
					[ -n "$tests" ] || continue
				fi ;;
			esac
			dir=$out/$stub/$board/$suite
			if [ "$jobs" -le 1 ]; then
				run_one "$stub" "$path" "$board" "$suite" "$dir" $tests
				continue
			fi
			[ -n "$tests" ] || tests=$(cd "$tsrc" && ls "$suite"/*.exp)
			echo $tests | tr ' ' '\n' |
			awk -v n="$part_size" -v pre="$stub $path $board $suite $dir/part-" '
				{ k = int((NR - 1) / n)
				  line[k] = line[k] " " $0 }
				END { for (i = 0; i in line; i++)
					printf "%s%03d%s\n", pre, i, line[i] }' >>"$queue"
		done
	done
done
if [ "$jobs" -gt 1 ]; then
	say "$(wc -l <"$queue") parts, $jobs at a time"
	export build tsrc GDB step_timeout limit times
	# Each part with one stub, then with the next: both stubs meet the
	# same load, and a run cut short leaves comparable halves.
	awk '{ n = $5; sub(/.*part-/, "", n); print $3, $4, n, $0 }' "$queue" |
		sort -s -k1,1 -k2,2 -k3,3n | cut -d' ' -f4- |
		GDBTS_RUN_ONE=1 xargs -P "$jobs" -L 1 sh "$0"
	# A joined gdb.sum is finished when every part's is.
	for dir in $(sed 's/^[^ ]* [^ ]* [^ ]* [^ ]* \([^ ]*\)\/part-.*/\1/' \
	    "$queue" | sort -u); do
		cat "$dir"/part-*/gdb.sum 2>/dev/null |
			grep -v '=== gdb Summary ===' >"$dir/gdb.sum"
		unfinished=$(for part in "$dir"/part-*; do
			grep -qs '=== gdb Summary ===' "$part/gdb.sum" ||
				echo "$part"
		done)
		[ -z "$unfinished" ] &&
			printf '\t\t=== gdb Summary ===\n' >>"$dir/gdb.sum"
	done
fi
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
