#!/bin/sh
# Threads that fork while GDB steps another one with `next` (all-stop,
# ptstub --once --multi, program testsuite/robust/fork_next): a fork
# child is GDB's to know of only through its parent's fork event, as
# gdbserver has it.  A child listed in the thread list before that event
# was taken by GDB for a new inferior of its own (`[New Thread C.C]`,
# `[Switching to Thread C.C]`, then "Remote 'g' packet reply is too
# long" and the session's end).  Every `next` must land on the loop's
# next line, with the first process alone.
set -u
. "${top_srcdir:-.}/testsuite/robust/lib.sh"
need_gdb
prog=$build/testsuite/robust/fork_next
[ -x "$prog" ] || fail "$prog is not built"
prog=$(cd "$(dirname "$prog")" && pwd)/fork_next
src=$(cd "$src" && pwd)/testsuite/robust/fork_next.c
first=$(grep -n '/\* first \*/' "$src" | cut -d: -f1)
nexts=40

start_stub --once --multi ":@PORT@"
{
	echo "target extended-remote 127.0.0.1:$port"
	echo "set remote exec-file $prog"
	echo "set print inferior-events off"
	echo "break $first"
	echo "run"
	for i in $(seq $nexts); do echo "next"; done
	echo "info inferiors"
	echo "kill"
} >"$tmp/next.gdb"
gdb_timeout=120 run_gdb next "$prog"
stop_stub
grep -Eq "too long|Remote failure|internal-error" "$tmp/next.out" &&
	fail "$(grep -E 'too long|Remote failure|internal-error' "$tmp/next.out" | head -3 | cut -c1-200)"
n=$(grep -Ec "^$first[[:space:]]|^$((first + 1))[[:space:]]" "$tmp/next.out")
[ "$n" -ge "$nexts" ] ||
	fail "$n of $nexts nexts landed on the loop's lines: $(grep -v '^Detaching' "$tmp/next.out" | tail -30)"
inferiors=$(sed -n '/^  Num  Description/,$p' "$tmp/next.out" | grep -Ec '^[* ] +[0-9]+ +process')
[ "$inferiors" = 1 ] ||
	fail "$inferiors inferiors after the nexts: $(sed -n '/^  Num/,$p' "$tmp/next.out")"
echo "PASS: $nexts nexts over a loop while threads fork, the fork children never GDB's"
