#!/bin/sh
# A trace that spans an exec decodes the old program's calls into its
# vDSO.  testsuite/rec/exec_vdso reads the clock (the vDSO's
# clock_gettime) and execs itself, which reads it again; with address
# randomization each program has its vDSO elsewhere, and the bundle
# holds a copy of the last one only.  The side-band says where each
# program's vDSO was, and ptbtrace decodes the older program's calls
# against the same copy there: no decode error, the vDSO's
# clock_gettime named before the exec and after it.
set -u
. "${top_srcdir:-.}/testsuite/rec/lib.sh"
prog=$build/testsuite/rec/exec_vdso
need_built "$stub" "$tool" "$prog"

for fmt in pt bts; do
	"$stub" record --format=$fmt --at-exit -o "$tmp/$fmt.ptb" -- "$prog" \
		>"$tmp/out" 2>"$tmp/err" || fail "$fmt: $(cat "$tmp/err")"
	[ "$(grep -c '^vdso ' "$tmp/out")" = 2 ] || fail "$fmt: the program did not run twice: $(cat "$tmp/out")"
	if [ "$(sort -u "$tmp/out" | wc -l)" = 1 ]; then
		echo "SKIP: both programs had their vDSO at one address (no address randomization here?)"
		exit 77
	fi
	"$tool" info "$tmp/$fmt.ptb" >"$tmp/info" 2>&1 || fail "$fmt: $(cat "$tmp/info")"
	grep -q "^Across 1 exec (of " "$tmp/info" || fail "$fmt: $(cat "$tmp/info")"
	"$tool" insn-history --size=0 "$tmp/$fmt.ptb" >"$tmp/i" 2>&1 ||
		fail "$fmt: insn-history: $(tail -n 3 "$tmp/i")"
	grep "decode error\|no memory mapped" "$tmp/i" &&
		fail "$fmt: the history has decode errors"
	"$tool" call-history --size=0 "$tmp/$fmt.ptb" >"$tmp/h" 2>&1 ||
		fail "$fmt: call-history: $(tail -n 3 "$tmp/h")"
	ex=$(grep -n -m1 "	__GI_execve$\|	execve$" "$tmp/h" | cut -d: -f1)
	[ -n "$ex" ] || fail "$fmt: no execve in the history"
	head -n "$ex" "$tmp/h" | grep -q "	clock_gettime$\|	__vdso_clock_gettime$" ||
		fail "$fmt: the old program's vDSO clock_gettime is not in the history: $(head -n "$ex" "$tmp/h" | grep -i clock)"
	sed -n "$ex,\$p" "$tmp/h" | grep -q "	clock_gettime$\|	__vdso_clock_gettime$" ||
		fail "$fmt: the new program's vDSO clock_gettime is not in the history"
	echo "PASS: $fmt: both programs' vDSO calls decode across the exec"
done
