#!/bin/sh
# 16 threads created while GDB records, each running 1,500 loop
# iterations, then a stop (issue 33): GDB learns of the threads only at
# that stop, yet `thread apply all info record` shows a non-zero count
# for every new thread, with either engine: ptstub traces a thread
# created by a traced one from its first instruction (at the clone
# event), and GDB's Qbtrace for it keeps that trace.  With the code
# cache named, every thread ran in the cache (monitor btrace status
# names the engine per thread), and the program gets its sums right.
set -u
. "${top_srcdir:-.}/testsuite/robust/lib.sh"
need_gdb
prog=$build/testsuite/robust/churn
[ -x "$prog" ] || fail "$prog is not built"

for engine in cache ptrace; do
	start_stub --once --btrace-source=emulated --btrace-engine=$engine \
		":@PORT@" "$prog" spawn:16
	{
		echo "target remote 127.0.0.1:$port"
		echo "break churn"
		echo "continue"
		echo "record btrace pt"
		echo "break done"
		echo "continue"
		echo "thread apply all info record"
		echo "monitor btrace status"
		echo "record stop"
		echo "delete"
		echo "continue"
	} >"$tmp/$engine.gdb"
	gdb_timeout=300 run_gdb $engine "$prog"
	wait "$spid"
	rc=$?
	spid=
	cat "$tmp/stub.log" >>"$tmp/$engine.out"
	[ "$rc" = 0 ] || fail "$engine: ptstub exit status $rc: $(cat "$tmp/stub.log")"
	expect $engine 'hit Breakpoint 2, done \(result=0\)' "$engine: the run reaches done"
	expect $engine '^spawn 16: 0 wrong$' "$engine: every thread returns its sum"
	n=$(grep -Ec '^Recorded [1-9][0-9]* instructions in [0-9]+ functions \(0 gaps\) for thread [0-9]+ ' "$tmp/$engine.out")
	zero=$(grep -Ec '^Recorded 0 instructions' "$tmp/$engine.out")
	[ "$n" = 17 ] && [ "$zero" = 0 ] ||
		fail "$engine: $n of 17 threads with a trace, $zero empty:
$(grep -E '^Recorded' "$tmp/$engine.out")"
	# A thread's 1,500 iterations are some 15,000 instructions at -O0.
	small=$(sed -n 's/^Recorded \([0-9]*\) instructions.* for thread \([0-9]*\) .*/\2 \1/p' "$tmp/$engine.out" |
		awk '$1 != 1 && $2 < 15000' | wc -l)
	[ "$small" = 0 ] || fail "$engine: $small new threads recorded less than their loops:
$(grep -E '^Recorded' "$tmp/$engine.out")"
	if [ $engine = cache ]; then
		n=$(grep -Ec '^Thread [0-9]+\.[0-9]+: engine code cache, [1-9][0-9]* instructions recorded: [1-9][0-9]* in the code cache' "$tmp/$engine.out")
		[ "$n" = 17 ] || fail "cache: $n of 17 threads ran in the code cache:
$(grep -E ': engine ' "$tmp/$engine.out")"
	fi
	[ -n "${SPAWN_SHOW:-}" ] && cat "$tmp/$engine.out"
	echo "$engine: 16 new threads, each with its loops in its trace"
done
echo "PASS: threads created while recording are traced from their start"
