#!/bin/sh
# 64 threads created and exiting while recorded, every one traced: GDB
# meets each at a breakpoint in its start routine (ignored, so the run
# goes on) and record btrace enables tracing on it; the threads then run
# and exit while main goes on creating more.  The program must get every
# sum right, GDB its stop at done, and main's trace must decode without
# a decode error and without a gap.  (It failed until threads that run
# through a trap site another thread had lifted were stopped at the
# site's syscall: main's trace around clone had decode errors.  And in
# about 1 run of 4, GDB's all-stop SIGSTOP found main inside
# pthread_join's futex wait, which the kernel restarts: the trace
# resumed at the syscall it had closed in, which libipt reads as
# "Non-contiguous trace"; it now goes on where the syscall returns.)
set -u
. "${top_srcdir:-.}/testsuite/robust/lib.sh"
need_gdb
prog=$build/testsuite/robust/churn
[ -x "$prog" ] || fail "$prog is not built"

start_stub --once --btrace-source=emulated ":@PORT@" "$prog" threads:64
{
	echo "target remote 127.0.0.1:$port"
	echo "break churn"
	echo "continue"
	echo "record btrace pt"
	echo "break worker"
	echo "ignore 2 1000"
	echo "break done"
	echo "continue"
	echo "info breakpoints"
	echo "info record"
	echo "continue"
} >"$tmp/traced.gdb"
gdb_timeout=300 run_gdb traced "$prog"
wait "$spid"
rc=$?
spid=
cat "$tmp/stub.log" >>"$tmp/traced.out"
[ "$rc" = 0 ] || fail "ptstub exit status $rc: $(cat "$tmp/stub.log")"
expect traced '^	breakpoint already hit 64 times$' "GDB met every thread"
expect traced '^threads 64: 0 wrong$' "every thread returns its sum"
expect traced 'hit Breakpoint 3, done \(result=0\)' "the run reaches done"
# A decode error is a wrong trace.  Nothing here makes the engine lose
# track of main: a gap (GDB's "Non-contiguous trace", an OVF) fails too.
grep -Eq 'Decode error|Error while|Non-contiguous|Overflow at' "$tmp/traced.out" &&
	fail "main's trace: $(grep -E 'Decode error|Error while|Non-contiguous|Overflow at' "$tmp/traced.out")"
expect traced '^Recorded [1-9][0-9]* instructions in [0-9]+ functions \(0 gaps\) for thread 1 ' "main's trace, no gap"
expect traced '^\[Inferior 1 \(process [0-9]+\) exited normally\]$' "the program's end"
echo "PASS: 64 threads, each traced, created and exiting while recorded"
