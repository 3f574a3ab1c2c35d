#!/bin/sh
# `ptstub record -- PROG` starts PROG itself, as perf record and strace
# do: ptstub finds it along PATH as execvp would and execs it, no shell
# between.  The bundle's side-band then holds one exec, the program's
# own, and its trace starts in the program's loader, not in a shell.
# A program that cannot run is named with the cause, and ptstub exits
# as a shell would: 127 not found, 126 found but not runnable.
set -u
. "${top_srcdir:-.}/testsuite/rec/lib.sh"
prog=$build/testsuite/rec/loop
need_built "$stub" "$tool" "$prog"
dir=$(cd "$(dirname "$prog")" && pwd)

# Found along PATH by its bare name, run with its arguments.
# (Its exit status is a checksum, passed on.)
PATH="$dir:$PATH" "$stub" record --at-exit -o "$tmp/p.ptb" -- loop 2 \
	>"$tmp/p.out" 2>"$tmp/p.err"
grep -q "^ptstub: snapshot 0: exit" "$tmp/p.err" || fail "recording: $(cat "$tmp/p.err")"
grep -q "^round 1 " "$tmp/p.out" || fail "the program did not run: $(cat "$tmp/p.out")"
"$tool" --json info "$tmp/p.ptb" >"$tmp/p.json" || fail "info"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
e = d["execs"]
sys.exit(0 if len(e) == 1 and e[0]["path"] == sys.argv[2] else 1)' \
	"$tmp/p.json" "$dir/loop" || fail "not one exec of $dir/loop: $(cat "$tmp/p.json")"
echo "PASS: one exec, the program's"
# The whole run is in the ring: it starts at the loader's _start, with
# no shell's code before it.
"$tool" call-history --size=0 "$tmp/p.ptb" >"$tmp/p.h" 2>&1 || fail "history: $(cat "$tmp/p.h")"
head -n 1 "$tmp/p.h" | grep -q "	_start$" || fail "the trace starts at $(head -n 1 "$tmp/p.h")"
grep -q "	main$" "$tmp/p.h" || fail "no main in the history"
echo "PASS: the trace starts at the program's _start"

# expect STATUS PATTERN PROG: ptstub cannot run PROG, says PATTERN.
expect() {
	st=$1 pat=$2
	shift 2
	"$stub" record -o "$tmp/x.ptb" -- "$@" >"$tmp/x.out" 2>"$tmp/x.err"
	got=$?
	[ "$got" = "$st" ] || fail "$*: status $got, not $st: $(cat "$tmp/x.err")"
	grep -q "^ptstub: cannot run $pat" "$tmp/x.err" ||
		fail "$*: said $(cat "$tmp/x.err")"
	[ ! -e "$tmp/x.ptb" ] || fail "$*: a bundle was written"
	echo "PASS: $* ($(cat "$tmp/x.err"))"
}
mkdir "$tmp/bin"
touch "$tmp/bin/plainfile"
printf '#!/no/such/interpreter\n' >"$tmp/bin/script"
printf 'neither ELF nor a script\n' >"$tmp/bin/junk"
chmod +x "$tmp/bin/script" "$tmp/bin/junk"
expect 127 "no-such-program-here: not found in PATH" no-such-program-here
expect 127 "$tmp/none: no such file" "$tmp/none"
expect 126 "$tmp/bin/plainfile: not executable" "$tmp/bin/plainfile"
expect 126 "$tmp/bin: is a directory" "$tmp/bin"
expect 127 "$tmp/bin/script: its interpreter /no/such/interpreter" "$tmp/bin/script"
expect 126 "$tmp/bin/junk: not a program the kernel can run" "$tmp/bin/junk"
PATH="$tmp/bin:$PATH" expect 126 "plainfile: $tmp/bin/plainfile is not executable" plainfile
