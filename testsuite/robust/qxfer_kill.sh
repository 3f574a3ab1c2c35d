#!/bin/sh
# GDB SIGKILLed in the middle of reading the trace (after its first
# qXfer:btrace:read chunk, through a relay, kill_mid_qxfer.py): ptstub
# waits for the next connection with the program stopped and the trace
# whole.  A second GDB sees the same bytes recorded (monitor btrace
# status) and ptbtrace decodes the trace from the live stub without a
# gap, as many instructions as the first GDB would have read.
set -u
. "${top_srcdir:-.}/testsuite/robust/lib.sh"
need_gdb
prog=$build/testsuite/bench/bench_prog
[ -x "$prog" ] || fail "$prog is not built"
[ -x "$build/ptbtrace" ] || fail "ptbtrace is not built"

# The expected instruction count: the same recording, read whole.
start_stub --once ":@PORT@" "$prog" dense:50000
{
	echo "target remote 127.0.0.1:$port"
	echo "break work"
	echo "continue"
	echo "set record btrace pt buffer-size 16777216"
	echo "record btrace pt"
	echo "break done"
	echo "continue"
	echo "info record"
	echo "kill"
} >"$tmp/whole.gdb"
run_gdb whole "$prog"
stop_stub
insns=$(sed -n 's/^Recorded \([0-9]*\) instructions.*/\1/p' "$tmp/whole.out")
[ -n "$insns" ] || fail "no count from a whole read: $(cat "$tmp/whole.out")"

# Killed mid-transfer (no --once: the stub waits for the next client).
start_stub ":@PORT@" "$prog" dense:50000
{
	echo "set pagination off"
	echo "target remote @RELAY@"
	echo "break work"
	echo "continue"
	echo "set record btrace pt buffer-size 16777216"
	echo "record btrace pt"
	echo "break done"
	echo "continue"
	echo "python print(gdb.execute('monitor btrace status', to_string=True))"
	echo "info record"
} >"$tmp/killed.gdb"
timeout 120 python3 "$src/testsuite/robust/kill_mid_qxfer.py" "$port" \
	"$tmp/killed.gdb" "$gdb" -nx -batch "$prog" ||
	fail "GDB was not killed mid-transfer: $(cat "$tmp/killed.gdb.out")"
bytes=$(sed -n 's/.*, \([0-9]*\) bytes recorded.*/\1/p' "$tmp/killed.gdb.out")
[ -n "$bytes" ] || fail "no status before the kill: $(cat "$tmp/killed.gdb.out")"
grep -q '^Recorded' "$tmp/killed.gdb.out" &&
	fail "GDB finished reading before it was killed"
for i in $(seq 25); do
	[ "$(grep -c '^Listening on port' "$tmp/stub.log")" -ge 2 ] && break
	sleep 0.2
done
grep -q '^Remote side has terminated connection' "$tmp/stub.log" ||
	fail "ptstub did not take the connection's end: $(cat "$tmp/stub.log")"
kill -0 "$spid" 2>/dev/null || fail "ptstub died: $(cat "$tmp/stub.log")"

# The next client finds the trace whole.
{
	echo "target remote 127.0.0.1:$port"
	echo "python print(gdb.execute('monitor btrace status', to_string=True))"
	echo "disconnect"
} >"$tmp/again.gdb"
run_gdb again "$prog"
expect again "^Thread [0-9]+\\.[0-9]+: emulated PT, buffer 16777216 bytes, $bytes bytes recorded, $bytes held, 0 wraps\$" "the same trace after the kill"
timeout 60 "$build/ptbtrace" info "127.0.0.1:$port" >"$tmp/live" 2>&1 ||
	fail "ptbtrace on the stub after the kill: $(cat "$tmp/live")"
grep -q "^Recorded $insns instructions in [0-9]* functions (0 gaps)" "$tmp/live" ||
	fail "ptbtrace: not the $insns instructions of a whole read: $(cat "$tmp/live")"
stop_stub
echo "PASS: GDB killed mid-qXfer leaves the trace whole for the next client ($bytes bytes, $insns instructions)"
