#!/bin/sh
# make check's bounded fuzzing: each target (testsuite/fuzz/fuzz_*.c,
# built beside driver.c with the tree's flags: ASan and UBSan under
# make check-sanitize) runs its committed
# regression inputs (regress/NAME, every crash found so far) and seed
# corpus (corpus/NAME), then FUZZ_CHECK_SECONDS (3) of random mutations
# of them.  A sanitizer report or a crash fails, and the input is kept
# in testsuite/fuzz/out/crash-NAME for a regression file.
set -u
build=${top_builddir:-.}
src=${top_srcdir:-.}
secs=${FUZZ_CHECK_SECONDS:-3}
out=$build/testsuite/fuzz/out
mkdir -p "$out"
rc=0
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export top_builddir=$build
for name in rsp dispatch xml bundle pt; do
	drv=$build/testsuite/fuzz/drv_$name
	[ -x "$drv" ] || { echo "FAIL: $drv is not built"; rc=1; continue; }
	dirs=
	for d in "$src/testsuite/fuzz/regress/$name" "$src/testsuite/fuzz/corpus/$name"; do
		[ -d "$d" ] && dirs="$dirs $d"
	done
	FUZZ_LAST=$out/last-$name timeout $((secs + 60)) "$drv" -t "$secs" $dirs \
		>"$out/check-$name.log" 2>&1
	r=$?
	if [ $r != 0 ]; then
		echo "FAIL: $name (exit $r): $(tail -30 "$out/check-$name.log")"
		[ -f "$out/last-$name" ] && mv "$out/last-$name" "$out/crash-$name" &&
			echo "the input: $out/crash-$name"
		rc=1
	else
		echo "$name: $(tail -1 "$out/check-$name.log")"
	fi
done
[ $rc = 0 ] && echo "PASS: every fuzz target on its corpus and ${secs}s of mutations"
exit $rc
