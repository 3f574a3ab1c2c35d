#!/bin/sh
# Faults with real GDB:
# - a 2 GiB trace buffer asked for is reserved, not committed: ptstub's
#   resident memory stays small and grows with the trace recorded only;
# - the inferior SIGKILLed while stopped at a breakpoint (under record
#   btrace pt): GDB's next continue (breakpoints deleted: they cannot be
#   inserted in a dead process, with gdbserver either) reports it
#   killed, and ptstub ends cleanly;
# - the inferior SIGKILLed while running recorded: GDB's continue ends
#   with it killed, the same.
set -u
. "${top_srcdir:-.}/testsuite/robust/lib.sh"
need_gdb
prog=$build/testsuite/bench/bench_prog
[ -x "$prog" ] || fail "$prog is not built"

kib() {
	sed -n "s/^$2:[[:space:]]*\\([0-9]*\\) kB\$/\\1/p" "$1"
}

# 1. A 2 GiB buffer.
start_stub --once ":@PORT@" "$prog" dense:100000
{
	echo "target remote 127.0.0.1:$port"
	echo "break work"
	echo "continue"
	echo "set record btrace pt buffer-size 2147483648"
	echo "record btrace pt"
	echo "shell cat /proc/$spid/status > $tmp/before"
	echo "break done"
	echo "continue"
	echo "shell cat /proc/$spid/status > $tmp/after"
	echo "python print(gdb.execute('monitor btrace status', to_string=True))"
	echo "info record"
	echo "kill"
} >"$tmp/big.gdb"
gdb_timeout=120 run_gdb big "$prog"
stop_stub
expect big '^Buffer size: 2GB\.$' "GDB's buffer size"
expect big '^Thread [0-9]+\.[0-9]+: emulated PT, buffer 2147483648 bytes, [0-9]+ bytes recorded' "the stub's buffer"
expect big '^Recorded [1-9][0-9]* instructions' "the trace decodes"
bytes=$(sed -n 's/.*buffer 2147483648 bytes, \([0-9]*\) bytes recorded.*/\1/p' "$tmp/big.out")
size=$(kib "$tmp/before" VmSize)
rss0=$(kib "$tmp/before" VmRSS)
rss1=$(kib "$tmp/after" VmRSS)
[ -n "$size" ] && [ -n "$rss0" ] && [ -n "$rss1" ] && [ -n "$bytes" ] ||
	fail "no figures: $(cat "$tmp/before" "$tmp/after")"
[ "$size" -ge 2097152 ] || fail "the 2 GiB are not even reserved: VmSize $size kB"
[ "$rss0" -lt 65536 ] || fail "2 GiB asked for, $rss0 kB resident before any trace"
# Growth: the trace itself, plus 16 MiB of slack.
[ "$rss1" -lt $((rss0 + bytes / 1024 + 16384)) ] ||
	fail "resident $rss0 kB to $rss1 kB for $bytes bytes of trace"
echo "2 GiB buffer: VmSize $size kB, resident $rss0 kB, then $rss1 kB after $bytes bytes of trace"

# 2. SIGKILLed while stopped at a breakpoint, recorded.
start_stub --once ":@PORT@" "$prog" dense:1000000000000
child=$(sed -n 's/^Process .* created; pid = \([0-9]*\)$/\1/p' "$tmp/stub.log")
{
	echo "target remote 127.0.0.1:$port"
	echo "break work"
	echo "continue"
	echo "record btrace pt"
	echo "break negate"
	echo "continue"
	echo "shell kill -9 $child"
	# Breakpoints cannot go back into a dead process (gdbserver's
	# answer too): without them the continue reaches the kill.
	echo "delete"
	echo "continue"
	echo "info record"
} >"$tmp/stopped.gdb"
run_gdb stopped "$prog"
expect stopped '^Breakpoint 2, negate ' "the stop before the kill"
expect stopped '^Program terminated with signal SIGKILL, Killed\.$' "the kill, reported"
wait "$spid"
rc=$?
spid=
[ "$rc" = 0 ] || fail "stopped: ptstub exit status $rc: $(cat "$tmp/stub.log")"
grep -Eq 'Child terminated with signal = (0x9|9)' "$tmp/stub.log" ||
	fail "stopped: ptstub did not report the kill: $(cat "$tmp/stub.log")"

# 3. SIGKILLed while running, recorded.
start_stub --once ":@PORT@" "$prog" dense:1000000000000
child=$(sed -n 's/^Process .* created; pid = \([0-9]*\)$/\1/p' "$tmp/stub.log")
{
	echo "target remote 127.0.0.1:$port"
	echo "break work"
	echo "continue"
	echo "record btrace pt"
	echo "break done"
	echo "shell touch $tmp/go"
	echo "continue"
} >"$tmp/running.gdb"
after_go 1 kill -9 "$child"
gdb_timeout=120 run_gdb running "$prog"
wait "$killer"
expect running '^Program terminated with signal SIGKILL, Killed\.$' "the kill, reported"
wait "$spid"
rc=$?
spid=
[ "$rc" = 0 ] || fail "running: ptstub exit status $rc: $(cat "$tmp/stub.log")"
echo "PASS: a 2 GiB buffer is not committed; a SIGKILLed inferior, stopped or running, is reported"
