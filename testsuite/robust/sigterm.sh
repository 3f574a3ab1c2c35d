#!/bin/sh
# ptstub sent SIGTERM with real GDB connected: a program it started is
# killed; a program it attached to is detached from, with the emulator's
# traps and GDB's breakpoints taken out, and runs on (no SIGTRAP, not
# stopped, no tracer), whether it was running under `record btrace pt`
# or stopped at a breakpoint.  ptstub says what it did and exits with
# 128 + 15.
set -u
. "${top_srcdir:-.}/testsuite/robust/lib.sh"
need_gdb
prog=$build/testsuite/bench/bench_prog
[ -x "$prog" ] || fail "$prog is not built"
victim=
extra_cleanup='[ -n "$victim" ] && kill -9 "$victim" 2>/dev/null'

# wait_exit: the stub's exit status in $stub_rc, or fail after 10 s.
wait_exit() {
	for i in $(seq 50); do
		kill -0 "$spid" 2>/dev/null || break
		sleep 0.2
	done
	kill -0 "$spid" 2>/dev/null && fail "$1: ptstub still runs 10 s after SIGTERM"
	wait "$spid"
	stub_rc=$?
	spid=
	[ "$stub_rc" = 143 ] || fail "$1: exit status $stub_rc, not 143: $(cat "$tmp/stub.log")"
	grep -q "^ptstub: Terminated: killing the programs it started, detaching from those it attached to\.$" "$tmp/stub.log" ||
		fail "$1: no message: $(cat "$tmp/stub.log")"
}

# runs_free PID WHAT: alive, traced by nobody, not stopped, and still
# alive a second later (a trap left in its code would kill it).
runs_free() {
	sleep 1
	kill -0 "$1" 2>/dev/null || fail "$2: the program died"
	grep -q '^TracerPid:[[:space:]]*0$' "/proc/$1/status" ||
		fail "$2: still traced: $(grep TracerPid "/proc/$1/status")"
	state=$(sed -n 's/^State:[[:space:]]*\([A-Za-z]\).*/\1/p' "/proc/$1/status")
	case $state in
	R|S) ;;
	*) fail "$2: state $state, not running" ;;
	esac
	sleep 1
	kill -0 "$1" 2>/dev/null || fail "$2: the program died after the detach"
}

# 1. Started, stopped at a breakpoint.
start_stub ":@PORT@" "$prog" dense:1000000000000
child=$(sed -n 's/^Process .* created; pid = \([0-9]*\)$/\1/p' "$tmp/stub.log")
[ -n "$child" ] || fail "no pid: $(cat "$tmp/stub.log")"
{
	echo "target remote 127.0.0.1:$port"
	echo "break negate"
	echo "continue"
	echo "shell kill -TERM $spid"
	echo "shell sleep 1"
	echo "info registers rip"
} >"$tmp/started.gdb"
run_gdb started "$prog"
expect started '^Breakpoint 1, ' "the breakpoint before SIGTERM"
wait_exit "started"
# Killed: gone, or a zombie its new parent has yet to reap.
for i in 1 2 3 4 5 6 7 8 9 10; do
	grep -q '^State:[[:space:]]*[^Z]' "/proc/$child/status" 2>/dev/null || break
	sleep 0.2
done
grep -q '^State:[[:space:]]*[^Z]' "/proc/$child/status" 2>/dev/null &&
	fail "started: the program $child survived"

# 2. Attached, running under record btrace pt (the emulator's traps in
# its code).
"$prog" dense:1000000000000 >/dev/null 2>&1 &
victim=$!
start_stub --attach ":@PORT@" "$victim"
{
	echo "target remote 127.0.0.1:$port"
	echo "record btrace pt"
	echo "break done"
	echo "shell touch $tmp/go"
	echo "continue"
} >"$tmp/running.gdb"
after_go 1 kill -TERM "$spid"
gdb_timeout=30 run_gdb running "$prog"
wait "$killer"
wait_exit "attached, running"
runs_free "$victim" "attached, running"

# 3. Attached, stopped at a breakpoint, recorded.
start_stub --attach ":@PORT@" "$victim"
{
	echo "target remote 127.0.0.1:$port"
	echo "record btrace pt"
	echo "break negate"
	echo "continue"
	echo "shell kill -TERM $spid"
	echo "shell sleep 1"
} >"$tmp/stopped.gdb"
run_gdb stopped "$prog"
expect stopped '^Breakpoint 1, ' "the breakpoint before SIGTERM"
wait_exit "attached, stopped"
runs_free "$victim" "attached, stopped"
kill -9 "$victim"
wait "$victim" 2>/dev/null
victim=
echo "PASS: SIGTERM kills what ptstub started and lets go of what it attached to"
