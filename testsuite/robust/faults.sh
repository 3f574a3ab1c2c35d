#!/bin/sh
# Faults with real GDB:
# - a 2 GiB trace buffer asked for is reserved, not committed: ptstub's
#   resident memory stays small and grows with the trace recorded only;
# - the inferior SIGKILLed while stopped at a breakpoint (under record
#   btrace pt): GDB's next continue (breakpoints deleted: they cannot be
#   inserted in a dead process, with gdbserver either) reports it
#   killed, and ptstub ends cleanly;
# - the inferior SIGKILLed while running recorded: GDB's continue ends
#   with it killed, the same;
# - a 4 KiB ring wrapping over 1,000 times (4.8 MB of trace, the code
#   cache engine, which writes the same ring as the ptrace engine, for
#   speed): GDB decodes the newest 4 KiB without gap or error up to the
#   stop, and ptstub's resident memory does not grow with the wraps.
set -u
. "${top_srcdir:-.}/testsuite/robust/lib.sh"
# Sanitized, freed memory must be reused at once (ASan otherwise holds it
# in quarantine) for the resident sizes below to mean the stub's own.
[ -n "${ASAN_OPTIONS:-}" ] && export ASAN_OPTIONS="$ASAN_OPTIONS:quarantine_size_mb=0"
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
# Killed once it runs: under load GDB may take seconds from the touch to
# its vCont, and a kill before that meets GDB inserting breakpoints.  It
# runs once it switches (every emulator stop is a switch; a thread
# stopped for GDB makes none); its state alone said little, a recorded
# thread being mostly in its tracing stop ('t'), and under load a
# count of polls outlasted GDB's timeout.
switches() {
	sed -n 's/^voluntary_ctxt_switches:[[:space:]]*//p' "/proc/$1/status" 2>/dev/null
}
running_then_kill() {
	sw0=$(switches "$1")
	end=$(($(date +%s) + 60))
	while [ "$(date +%s)" -lt "$end" ]; do
		sw=$(switches "$1")
		[ -n "$sw" ] && [ -n "$sw0" ] && [ "$sw" -gt $((sw0 + 100)) ] && break
		sleep 0.05
	done
	sleep 0.3
	kill -9 "$1"
}
after_go 0 running_then_kill "$child"
gdb_timeout=120 run_gdb running "$prog"
wait "$killer"
{ echo "--- ptstub:"; cat "$tmp/stub.log"; } >>"$tmp/running.out"
expect running '^Program terminated with signal SIGKILL, Killed\.$' "the kill, reported"
wait "$spid"
rc=$?
spid=
[ "$rc" = 0 ] || fail "running: ptstub exit status $rc: $(cat "$tmp/stub.log")"
# 4. A ring wrapping over 1,000 times.
start_stub --once --btrace-source=emulated --btrace-engine=cache \
	":@PORT@" "$prog" dense:300000
{
	echo "target remote 127.0.0.1:$port"
	echo "break work"
	echo "continue"
	echo "set record btrace pt buffer-size 4096"
	echo "record btrace pt"
	echo "shell cat /proc/$spid/status > $tmp/before"
	echo "break done"
	echo "continue"
	echo "shell cat /proc/$spid/status > $tmp/after"
	echo "info record"
	echo "monitor btrace status"
	echo "record function-call-history"
	echo "kill"
} >"$tmp/wrap.gdb"
gdb_timeout=180 run_gdb wrap "$prog"
stop_stub
expect wrap '^Breakpoint 2, done ' "the stop after the wraps"
expect wrap '^Recorded [1-9][0-9]* instructions in [1-9][0-9]* functions \(0 gaps\)' "the newest trace decodes"
grep -Eq 'Decode error|Non-contiguous|Error while' "$tmp/wrap.out" &&
	fail "wrap: $(grep -E 'Decode error|Non-contiguous|Error while' "$tmp/wrap.out")"
# The newest segments are dense, then main: work tail-calls dense at -O1,
# unless the build keeps a call (a sanitized one does), then work is
# between them.  The program's own code says which.
want="dense main"
"$gdb" -batch -nx -ex "disassemble work" "$prog" 2>/dev/null |
	grep -Eq 'call .*<dense>' && want="dense work main"
n=$(echo "$want" | wc -w)
[ "$(grep -E '^[0-9]+	[a-z_]+$' "$tmp/wrap.out" | tail -"$n" | cut -f2 | tr '\n' ' ')" = "$want " ] ||
	fail "the history does not end with $want: $(tail -5 "$tmp/wrap.out")"
wraps=$(sed -n 's/^Thread .*: emulated PT, buffer 4096 bytes, .* held, \([0-9]*\) wraps$/\1/p' "$tmp/wrap.out")
[ -n "$wraps" ] && [ "$wraps" -ge 1000 ] ||
	fail "the ring wrapped ${wraps:-no} times: $(cat "$tmp/wrap.out")"
rss0=$(kib "$tmp/before" VmRSS)
rss1=$(kib "$tmp/after" VmRSS)
[ -n "$rss0" ] && [ -n "$rss1" ] && [ "$rss1" -lt $((rss0 + 8192)) ] ||
	fail "resident ${rss0:-?} kB before the wraps, ${rss1:-?} kB after"
echo "4 KiB ring: $wraps wraps, resident $rss0 kB, then $rss1 kB"
echo "PASS: a 2 GiB buffer is not committed; a SIGKILLed inferior, stopped or running, is reported; a ring wraps 1,000 times"
