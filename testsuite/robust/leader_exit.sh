#!/bin/sh
# A program whose thread-group leader has exited (a zombie the kernel
# reports only with the process's last thread) while a second thread
# lives, under ptstub --once --multi with real GDB (program
# testsuite/robust/leader_exit):
# 1. all-stop: the second thread's breakpoint is reported (stopping
#    every thread must not wait for the zombie's stop, which never
#    comes), `info threads` shows that thread alone, as with gdbserver,
#    and its exec is followed into the new image, with and without
#    scheduler-locking;
# 2. SIGTERM while the program is stopped there ends ptstub within a
#    second and kills the program.
set -u
. "${top_srcdir:-.}/testsuite/robust/lib.sh"
need_gdb
prog=$build/testsuite/robust/leader_exit
[ -x "$prog" ] || fail "$prog is not built"
prog=$(cd "$(dirname "$prog")" && pwd)/leader_exit

# session NAME [GDB COMMANDS BEFORE THE EXEC'S CONTINUE...]
session() {
	name=$1
	shift
	start_stub --once --multi ":@PORT@"
	{
		echo "target extended-remote 127.0.0.1:$port"
		echo "set remote exec-file $prog"
		echo "break main"
		echo "run"
		echo "break hit"
		echo "continue"
		echo "info threads"
		for c in "$@"; do echo "$c"; done
		echo "continue"
		echo "info threads"
		echo "kill"
	} >"$tmp/$name.gdb"
	gdb_timeout=30 run_gdb "$name" "$prog"
	expect "$name" '^Thread 2 .* hit Breakpoint 2, .*hit \(\)' "the second thread's breakpoint, with the leader gone"
	grep -Eq '^[* ] 1 +Thread ' "$tmp/$name.out" &&
		fail "$name: the exited leader is listed: $(cat "$tmp/$name.out")"
	expect "$name" 'is executing new program: ' "the exec"
	expect "$name" '^Thread [0-9]* .* hit Breakpoint 1, main \(argc=2' "main of the new image"
	stop_stub
}

session plain
session schedlock "set scheduler-locking on"

# 2. SIGTERM with the leader a zombie and the second thread stopped.
start_stub --once --multi ":@PORT@"
{
	echo "target extended-remote 127.0.0.1:$port"
	echo "set remote exec-file $prog"
	echo "break hit"
	echo "run"
	echo "shell touch $tmp/go"
	echo "shell sleep 3"
} >"$tmp/term.gdb"
after_go 0 true
gdb_timeout=30 run_gdb term "$prog" &
gdbpid=$!
wait "$killer"
child=$(sed -n 's/^Process .* created; pid = \([0-9]*\)$/\1/p' "$tmp/stub.log")
[ -n "$child" ] || fail "no pid: $(cat "$tmp/stub.log")"
kill -TERM "$spid"
for i in 1 2 3 4 5 6 7 8 9 10; do
	kill -0 "$spid" 2>/dev/null || break
	sleep 0.1
done
kill -0 "$spid" 2>/dev/null &&
	fail "ptstub still runs a second after SIGTERM: $(cat "$tmp/stub.log")"
wait "$spid"
spid=
wait "$gdbpid"
expect term '^Thread 2 .* hit Breakpoint 1, .*hit \(\)' "the breakpoint before SIGTERM"
grep -q '^State:[[:space:]]*[^Z]' "/proc/$child/status" 2>/dev/null &&
	fail "the program $child survived"
echo "PASS: a zombie leader stops nothing, an exec after it is followed, SIGTERM ends it all"
