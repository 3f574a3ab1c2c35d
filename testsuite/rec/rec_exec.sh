#!/bin/sh
# A trace that spans an exec.  testsuite/programs/bin/exec prints a line
# and execs the plain program beside it; recorded with `ptstub record`,
# its thread's trace holds both programs.  The side-band places the exec
# in the trace, and ptbtrace decodes the part before against the old
# program's code and the part after against the new one's: the call
# history runs through exec.c's main into execve, then from the new
# program's _start through plain.c's main to _exit, with every function
# named (PT and BTS, a ring snapshot and --full).  Without randomization
# both programs sit at the same address: the part before the exec is
# then left out, said so, and what remains starts at the new program's
# _start, the same in PT and BTS.  Exports (perf, LLDB) get both
# programs' code, or are refused where they overlap.
set -u
build=${top_builddir:-.}
stub=${PTSTUB:-$build/ptstub}
tool=$build/ptbtrace
prog=$build/testsuite/programs/bin/exec
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() {
	echo "FAIL: $*"
	exit 1
}

for f in "$stub" "$tool" "$prog" "$build/testsuite/programs/bin/plain"; do
	[ -x "$f" ] || fail "$f is not built"
done
plain=$(cd "$build/testsuite/programs/bin" && pwd)/plain

# first FILE PATTERN: the line number of the first line matching.
first() {
	grep -n -m1 -- "$2" "$1" | cut -d: -f1
}

# spans WHAT FILE: FILE's history crosses the exec as it ran.
spans() {
	"$tool" info "$2" >"$tmp/info" 2>&1 || fail "$1: $(cat "$tmp/info")"
	grep -q "^Across 1 exec (of $plain): each part decoded" "$tmp/info" ||
		fail "$1: $(cat "$tmp/info")"
	"$tool" call-history /l --size=0 "$2" >"$tmp/h" 2>"$tmp/h.err" ||
		fail "$1: $(cat "$tmp/h.err")"
	[ ! -s "$tmp/h.err" ] || fail "$1: $(cat "$tmp/h.err")"
	m1=$(first "$tmp/h" "	main	at .*testsuite/programs/exec\.c:")
	ex=$(first "$tmp/h" "	__GI_execve	")
	st=$(first "$tmp/h" "	_start	")
	st2=$(sed -n "$((ex + 1)),\$p" "$tmp/h" | grep -n -m1 "	_start	" | cut -d: -f1)
	m2=$(first "$tmp/h" "	main	at .*testsuite/programs/plain\.c:")
	[ -n "$m1" ] && [ -n "$ex" ] && [ -n "$st2" ] && [ -n "$m2" ] ||
		fail "$1: exec.c's main ($m1), execve ($ex), _start after it ($st2), plain.c's main ($m2)"
	[ "$m1" -lt "$ex" ] && [ "$ex" -lt "$m2" ] ||
		fail "$1: out of order: exec.c's main $m1, execve $ex, plain.c's main $m2"
	[ "$(grep -c "	__GI_execve	" "$tmp/h")" = 1 ] ||
		fail "$1: execve $(grep -c "	__GI_execve	" "$tmp/h") times"
	# Right after execve (and PT's gap for the exec): the new _start.
	sed -n "$((ex + 1)),$((ex + st2 - 1))p" "$tmp/h" | grep -v "	_start	" |
		grep -qv "^[0-9]*	\[disabled\]$" &&
		fail "$1: between execve and _start: $(sed -n "$((ex + 1)),$((ex + st2))p" "$tmp/h")"
	tail -1 "$tmp/h" | grep -q "	__GI__exit	" ||
		fail "$1: the history ends in $(tail -1 "$tmp/h")"
	# Every function named, but libc's lazy-binding stub: code that has
	# none.
	if grep "	??" "$tmp/h" >/dev/null; then
		"$tool" call-history /i --size=0 "$2" | grep "	??	" |
			sed 's/.*inst \([0-9]*\),.*/\1/' >"$tmp/unnamed"
		while read -r i; do
			"$tool" insn-history "$i,+1" "$2" | head -1 |
				grep -q "0x[0-9a-f]*:	push " ||
				fail "$1: instruction $i is in no function: $("$tool" insn-history "$i,+1" "$2")"
		done <"$tmp/unnamed"
	fi
	echo "PASS: $1 ($(grep -o "Recorded [0-9]* instructions" "$tmp/info"))"
}

for format in pt bts; do
	"$stub" record --format=$format --at-exit -o "$tmp/$format.ptb" -- \
		"$prog" >"$tmp/out" 2>"$tmp/err" || fail "$format: $(cat "$tmp/err")"
	grep -q "^exec plain$" "$tmp/out" || fail "$format: the program did not run"
	spans "$format snapshot across an exec" "$tmp/$format.ptb"
	"$stub" record --format=$format --full -o "$tmp/$format.full.ptb" -- \
		"$prog" >"$tmp/out" 2>"$tmp/err" || fail "$format --full: $(cat "$tmp/err")"
	grep -q "could not be kept" "$tmp/err" && fail "$format --full: $(cat "$tmp/err")"
	spans "$format --full across an exec" "$tmp/$format.full.ptb"
done

# Without randomization, the old program's code is where the new one's
# is: only the new program's part is decoded.
for format in pt bts; do
	env -i PTSTUB_TEST=1 "$stub" record --disable-randomization \
		--format=$format --at-exit -o "$tmp/n$format.ptb" -- "$prog" \
		>/dev/null 2>"$tmp/err" || fail "$format: $(cat "$tmp/err")"
	"$tool" info "$tmp/n$format.ptb" >"$tmp/info" 2>"$tmp/info.err"
	grep -q "^Before the exec of $plain: left out (its code overlaps the new program's)\.$" \
		"$tmp/info" || fail "$format overlap: $(cat "$tmp/info")"
	grep -q "^ptbtrace: the trace before the exec of $plain is left out ([0-9]* \(bytes\|blocks\)): " \
		"$tmp/info.err" || fail "$format overlap: no note: $(cat "$tmp/info.err")"
	"$tool" call-history --size=0 "$tmp/n$format.ptb" 2>/dev/null |
		cut -f2 >"$tmp/n$format.h"
	[ "$(head -1 "$tmp/n$format.h")" = _start ] ||
		fail "$format overlap: the history starts with $(head -3 "$tmp/n$format.h")"
	grep -q "^main$" "$tmp/n$format.h" || fail "$format overlap: no main"
done
diff -u "$tmp/npt.h" "$tmp/nbts.h" >"$tmp/d" ||
	fail "overlap: PT and BTS differ: $(head -20 "$tmp/d")"
echo "PASS: an exec to the same address: the part before left out, PT = BTS ($(wc -l <"$tmp/npt.h") calls)"

# Exports carry the mappings, not the exec's place: perf gets both
# programs' code and decodes each part (where perf is here); the
# overlapping case is refused, not exported to be decoded wrongly.
"$tool" export --format=perf -o "$tmp/x.data" "$tmp/pt.ptb" 2>"$tmp/x.err" ||
	fail "export across an exec: $(cat "$tmp/x.err")"
if command -v perf >/dev/null 2>&1; then
	perf script -i "$tmp/x.data" --itrace=cr 2>/dev/null |
		grep -E "=> +[0-9a-f]+ main\+0x0 " >"$tmp/x.mains"
	grep -q "/bin/exec)\$" "$tmp/x.mains" && grep -q "/bin/plain)\$" "$tmp/x.mains" ||
		fail "perf across an exec: the calls of main: $(cat "$tmp/x.mains")"
fi
for format in perf lldb; do
	out="-o $tmp/n.data"
	[ $format = lldb ] && out=$tmp/ndir
	if "$tool" export --format=$format $out "$tmp/npt.ptb" 2>"$tmp/n.err"; then
		fail "export --format=$format of an overlapping exec was not refused"
	fi
	grep -q "^ptbtrace: cannot export a trace across the exec of $plain: the code before the exec overlaps" \
		"$tmp/n.err" || fail "export --format=$format: $(cat "$tmp/n.err")"
done
echo "PASS: exports across an exec: perf decodes both programs, an overlap is refused"
