#!/bin/sh
# make fuzz: each target under libFuzzer for SECONDS, built with clang
# -fsanitize=fuzzer,address,undefined over every source it reaches (the
# stub's libraries for the dispatcher and the framing, libptbtrace for the
# readers and the decoder); the sources' lists come from the Makefile
# (FUZZ_*_SOURCES).  Corpora grow in OUT/corpus/NAME from the committed
# seeds; a crash is OUT/crash-NAME-*, to be copied into
# testsuite/fuzz/regress/NAME/ (then make check replays it).  A table of
# runs and seconds per target ends the output and OUT/fuzz.txt.
#   fuzz.sh SRCDIR OUTDIR SECONDS [NAME...]
set -u
src=$1
out=$2
secs=$3
shift 3
names=${*:-rsp dispatch xml bundle pt}
cc=${FUZZ_CC:-clang}
flags="-g -O1 -fno-omit-frame-pointer -std=gnu11 -fsanitize=address,undefined \
-fno-sanitize-recover=undefined -fsanitize=fuzzer-no-link -I$src \
-I${top_builddir:-.} ${FUZZ_CFLAGS:-}"
flags=$(echo $flags)

command -v "$cc" >/dev/null 2>&1 || { echo "fuzz: no $cc (install clang and libclang-rt-14-dev)"; exit 2; }
echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }' >"$out.probe.c" 2>/dev/null ||
	{ mkdir -p "$out" && echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }' >"$out.probe.c"; }
"$cc" -fsanitize=fuzzer "$out.probe.c" -o "$out.probe" 2>/dev/null ||
	{ echo "fuzz: $cc cannot link libFuzzer (libclang-rt-14-dev)"; rm -f "$out.probe.c"; exit 2; }
rm -f "$out.probe" "$out.probe.c"
mkdir -p "$out/obj"

# objects SET SOURCES...: compile each source once into OUT/obj/SET/,
# two at a time; their names on stdout.
objects() {
	set=$1
	shift
	mkdir -p "$out/obj/$set"
	for s in "$@"; do
		o=$out/obj/$set/$(echo "$s" | tr / _ | sed 's/\.c$/.o/')
		if [ ! -f "$o" ] || [ "$src/$s" -nt "$o" ]; then
			echo "$src/$s $o"
		fi
	done | xargs -r -n 2 -P 2 sh -c "$cc $flags -c \"\$0\" -o \"\$1\" || exit 255" >&2 ||
		return 1
	for s in "$@"; do
		echo "$out/obj/$set/$(echo "$s" | tr / _ | sed 's/\.c$/.o/')"
	done
}

summary=
for name in $names; do
	case $name in
	rsp) set=rsp; srcs=$FUZZ_RSP_SOURCES; libs= ;;
	dispatch) set=srv; srcs=$FUZZ_SRV_SOURCES; libs=$FUZZ_SRV_LIBS ;;
	xml|bundle|pt) set=bt; srcs=$FUZZ_BT_SOURCES; libs=$FUZZ_BT_LIBS ;;
	*) echo "fuzz: no target $name"; exit 2 ;;
	esac
	objs=$(objects $set $srcs) || { echo "fuzz: $name does not build"; exit 1; }
	# shellcheck disable=SC2086
	"$cc" $flags -fsanitize=fuzzer "$src/testsuite/fuzz/fuzz_$name.c" $objs \
		$libs -o "$out/fuzz_$name" || { echo "fuzz: $name does not link"; exit 1; }
	mkdir -p "$out/corpus/$name"
	seeds=
	for d in "$src/testsuite/fuzz/regress/$name" "$src/testsuite/fuzz/corpus/$name"; do
		[ -d "$d" ] && seeds="$seeds $d"
	done
	echo "fuzz: $name for ${secs}s"
	(cd "$out" && "$out/fuzz_$name" -max_total_time="$secs" -timeout=20 \
		-rss_limit_mb=4096 -print_final_stats=1 \
		-artifact_prefix="$out/crash-$name-" "$out/corpus/$name" $seeds) \
		>"$out/fuzz-$name.log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/fuzz-$name.log" | tail -1)
	cov=$(grep -o 'cov: [0-9]*' "$out/fuzz-$name.log" | tail -1 | cut -d' ' -f2)
	files=$(ls "$out/corpus/$name" | wc -l)
	line=$(printf '%-9s %12s runs %6ss %8s edges %6s corpus files  %s' "$name" \
		"${runs:-?}" "$secs" "${cov:-?}" "$files" \
		"$([ $rc = 0 ] && echo ok || echo "CRASH (exit $rc): $(ls "$out"/crash-$name-* 2>/dev/null | head -1)")")
	echo "$line"
	summary="$summary$line
"
done
echo "fuzz: summary"
printf '%s' "$summary" | tee "$out/fuzz.txt"
! grep -q CRASH "$out/fuzz.txt"
