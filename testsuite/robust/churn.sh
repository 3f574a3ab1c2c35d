#!/bin/sh
# Processes and threads that come and go while recorded, with real GDB
# (program testsuite/robust/churn, main recorded from `churn` to `done`):
# - 100 forks: GDB detaches each child, which must run on without the
#   emulator's traps in its copy of the code (a trap left there kills it
#   with SIGTRAP, and the parent counts it wrong);
# - 64 threads created and exiting in waves of 8 (not traced: GDB meets
#   none of them at a stop);
# in both, the parent's trace decodes whole (no gap, no decode error, as
# many instructions as the stub counted) and only live threads are left
# in the stub's list.  churn_traced.sh traces every thread.
set -u
. "${top_srcdir:-.}/testsuite/robust/lib.sh"
need_gdb
prog=$build/testsuite/robust/churn
[ -x "$prog" ] || fail "$prog is not built"

# session NAME ARG [ENGINE]: record churn ARG from churn to done, with
# ENGINE (default: the stub's default, the code cache).
session() {
	start_stub --once --btrace-source=emulated \
		--btrace-engine="${3:-auto}" ":@PORT@" "$prog" "$2"
	{
		echo "target remote 127.0.0.1:$port"
		echo "break churn"
		echo "continue"
		# A ring that holds the whole run (about 40 kB, half of it
		# TSC packets at the ptrace engine's stops): the count below
		# compares GDB's decode with every instruction run.
		echo "set record btrace pt buffer-size 1048576"
		echo "record btrace pt"
		echo "break done"
		echo "continue"
		echo "info record"
		echo "monitor btrace status"
		echo "continue"
	} >"$tmp/$1.gdb"
	gdb_timeout=180 run_gdb "$1" "$prog"
	wait "$spid"
	rc=$?
	spid=
	[ "$rc" = 0 ] || fail "$1: ptstub exit status $rc: $(cat "$tmp/stub.log")"
	cat "$tmp/stub.log" >>"$tmp/$1.out"
}

# whole NAME [count]: the trace decodes (and, with count, is what the
# stub counted: the ptrace engine's count is exact; the code cache's
# misses a few instructions a run, a fixed number (11 in bench_prog,
# 59 in churn, whatever the run's length), not yet found).
whole() {
	expect "$1" '^Breakpoint 2, done \(result=0\)' "the run reaches done"
	expect "$1" '^Recorded [1-9][0-9]* instructions in [0-9]+ functions \(0 gaps\) for thread 1 ' "the parent's trace, whole"
	grep -Eq 'Decode error|Non-contiguous|Error while' "$tmp/$1.out" &&
		fail "$1: $(grep -E 'Decode error|Non-contiguous|Error while' "$tmp/$1.out")"
	n=$(sed -n 's/^Recorded \([0-9]*\) instructions.*/\1/p' "$tmp/$1.out")
	c=$(sed -n 's/^Thread [0-9.]*: \([0-9]*\) instructions run traced.*/\1/p' "$tmp/$1.out")
	w=$(sed -n 's/^Thread [0-9.]*: emulated PT, .* \([0-9]*\) wraps$/\1/p' "$tmp/$1.out")
	[ -z "${2:-}" ] || [ "$w" = 0 ] ||
		fail "$1: the ring wrapped ($w wraps): no count to compare"
	[ -z "${2:-}" ] || [ "$n" = "$c" ] ||
		fail "$1: GDB decodes $n instructions, the stub counted $c"
	t=$(grep -c '^Thread [0-9.]*: emulated PT' "$tmp/$1.out")
	[ "$t" = 1 ] || fail "$1: $t traced threads listed after the churn"
	expect "$1" '^\[Inferior 1 \(process [0-9]+\) exited normally\]$' "the program's end"
}

session forks forks:100 ptrace
expect forks '^forks 100: 0 wrong$' "every child exits as it should"
whole forks count

session forks_cache forks:100
expect forks_cache '^forks 100: 0 wrong$' "every child exits as it should"
expect forks_cache '^Thread [0-9.]*: engine code cache, [1-9][0-9]* instructions recorded: [1-9][0-9]* in the code cache' "the code cache ran it"
whole forks_cache

session threads threads:64 ptrace
expect threads '^threads 64: 0 wrong$' "every thread returns its sum"
whole threads count

session threads_cache threads:64
expect threads_cache '^threads 64: 0 wrong$' "every thread returns its sum"
whole threads_cache
echo "PASS: 100 forks and 64 threads while recorded"
