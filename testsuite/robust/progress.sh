#!/bin/sh
# Progress lines with real GDB: a recorded `continue` that lasts longer
# than the delay prints "ptstub: recording for ..." lines on GDB's
# console (O packets) with the instructions and trace bytes so far and
# the engine, both growing, and GDB still gets its stop and decodes the
# trace; the emulator's instruction count at the stop (monitor btrace
# status) is the one GDB decodes from the whole trace, and the last
# line's is no more; `monitor set progress off` and an unrecorded run
# print none.  PTSTUB_PROGRESS_MS=200,200 stands in for
# the 5 s defaults.
set -u
. "${top_srcdir:-.}/testsuite/robust/lib.sh"
need_gdb
prog=$build/testsuite/bench/bench_prog
[ -x "$prog" ] || fail "$prog is not built"

# session NAME SETTING: dense:N under `record btrace pt` from work to done
# (a second or more recorded, so that several 200 ms lines are due on a
# machine where a ptrace stop is cheap).
session() {
	PTSTUB_PROGRESS_MS=200,200 start_stub --once \
		--btrace-source=emulated ":@PORT@" "$prog" dense:100000
	{
		echo "target remote 127.0.0.1:$port"
		echo "break work"
		echo "continue"
		[ -n "$2" ] && echo "$2"
		# Large enough not to wrap: GDB decodes the whole run.
		echo "set record btrace pt buffer-size 67108864"
		echo "record btrace pt"
		echo "break done"
		echo "continue"
		echo "info record"
		echo "monitor btrace status"
		echo "kill"
	} >"$tmp/$1.gdb"
	gdb_timeout=180 run_gdb "$1" "$prog"
	stop_stub
}

export PTSTUB_PROGRESS_MS=200,200
session on ""
expect on '^ptstub: recording for [0-9]+\.[0-9] s with the emulator \(PT\): [1-9][0-9]* instructions, [1-9][0-9]* bytes of trace, [1-9][0-9]* stops, [0-9]+ branches followed \(monitor set progress off to hide\)\.$' "a long recorded run"
lines=$(grep -c '^ptstub: recording for' "$tmp/on.out")
[ "$lines" -ge 2 ] || fail "one progress line only: $(cat "$tmp/on.out")"
expect on '^Breakpoint 2, done ' "the stop after the progress lines"
expect on '^Recorded [1-9][0-9]* instructions' "the trace decodes"
# The instructions and bytes grow from line to line.
grep '^ptstub: recording for' "$tmp/on.out" |
	sed 's/.* \([0-9]*\) bytes of trace.*/\1/' | sort -n -c 2>/dev/null ||
	fail "the byte counts do not grow: $(grep '^ptstub' "$tmp/on.out")"
grep '^ptstub: recording for' "$tmp/on.out" |
	sed 's/.*: \([0-9]*\) instructions,.*/\1/' | sort -n -c 2>/dev/null ||
	fail "the instruction counts do not grow: $(grep '^ptstub' "$tmp/on.out")"
# The count is the trace's: GDB's at the stop, the last line's no more.
gdb_insns=$(sed -n 's/^Recorded \([0-9]*\) instructions .*/\1/p' "$tmp/on.out")
stub_insns=$(sed -n 's/^Thread [0-9.]*: \([0-9]*\) instructions run traced under ptrace.*/\1/p' "$tmp/on.out")
last_insns=$(grep '^ptstub: recording for' "$tmp/on.out" | tail -1 |
	sed 's/.*: \([0-9]*\) instructions,.*/\1/')
[ -n "$gdb_insns" ] && [ "$gdb_insns" = "$stub_insns" ] ||
	fail "GDB decodes ${gdb_insns:-no} instructions, the stub counted ${stub_insns:-none}: $(cat "$tmp/on.out")"
[ "$last_insns" -le "$gdb_insns" ] ||
	fail "the last progress line says $last_insns instructions, the whole trace has $gdb_insns"

session off "monitor set progress off"
expect off '^Progress lines disabled\.$' "monitor set progress off"
grep -q '^ptstub: recording' "$tmp/off.out" &&
	fail "progress lines after monitor set progress off: $(cat "$tmp/off.out")"
expect off '^Breakpoint 2, done ' "the stop"

# Not recorded: nothing to report however long it runs.
PTSTUB_PROGRESS_MS=0,50 start_stub --once ":@PORT@" "$prog" dense:3000000
{
	echo "target remote 127.0.0.1:$port"
	echo "break done"
	echo "continue"
	echo "kill"
} >"$tmp/plain.gdb"
run_gdb plain "$prog"
stop_stub
expect plain '^Breakpoint 1, done ' "the stop"
grep -q '^ptstub: recording' "$tmp/plain.out" &&
	fail "progress lines without a trace: $(cat "$tmp/plain.out")"
echo "PASS: progress lines during a recorded run, off on request"
