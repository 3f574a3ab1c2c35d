#!/bin/sh
# The code-cache engine records what the ptrace engine records: the same
# run of a looping program, recorded to its exit by each engine, gives
# the same call history, instruction ranges included, several times over
# (a stop or signal landing in the cache's glue would show as a run that
# differs), in PT and in BTS.  Address randomization is off for both:
# with it on, ld.so's strcmp takes an alignment-dependent path, so two
# runs of the same engine differ too.  The cache is seen in use (its
# mapping in the program's /proc/PID/maps), so a silent fallback to the
# ptrace engine cannot pass for agreement, and each bundle is the
# thread's exit (not a thread the engine lost on the way).
set -u
. "${top_srcdir:-.}/testsuite/rec/lib.sh"
prog=$build/testsuite/rec/loop
runs=${REC_ENGINES_RUNS:-5}
need_built "$stub" "$tool" "$prog"

# record ENGINE FORMAT OUT ARGS...: a whole run, its bundle decoded.
record() {
	eng=$1 fmt=$2 out=$3
	shift 3
	"$stub" record --btrace-engine="$eng" --format="$fmt" \
		--disable-randomization --at-exit -o "$tmp/$out.ptb" \
		-- "$prog" "$@" >"$tmp/$out.out" 2>"$tmp/$out.err"
	grep -q "^ptstub: snapshot 0: exit, 1 thread," "$tmp/$out.err" ||
		fail "$eng ($fmt): $(cat "$tmp/$out.err")"
	"$tool" call-history /i --size=0 "$tmp/$out.ptb" >"$tmp/$out.h" ||
		fail "$eng ($fmt): the bundle does not decode"
	[ -s "$tmp/$out.h" ] || fail "$eng ($fmt): an empty history"
	# The snapshot is the thread's exit, not the end of a wait with no
	# thread left running (a thread the engine lost).
	"$tool" info "$tmp/$out.ptb" | grep -q "^Trigger: exit in thread" ||
		fail "$eng ($fmt): the recording lost the thread:" \
			"$("$tool" info "$tmp/$out.ptb" | tail -n 1)"
}

# The cache is in use: its mapping shows while the program sleeps
# between rounds.
"$stub" record --btrace-engine=cache --disable-randomization --at-exit \
	-o "$tmp/m.ptb" -- "$prog" 4 200000 >"$tmp/m.out" 2>"$tmp/m.err" &
rpid=$!
seen=
for i in $(seq 1 200); do
	child=$(pgrep -P "$rpid" | head -n 1)
	if [ -n "$child" ] &&
	   grep -q "ptstub code cache" "/proc/$child/maps" 2>/dev/null; then
		seen=1
		break
	fi
	sleep 0.05
done
wait "$rpid"
rpid=
[ -n "$seen" ] || fail "the code cache never showed in the program's maps"
echo "PASS: the cache engine runs the program from its code cache"

for fmt in pt bts; do
	n=$runs
	[ "$fmt" = bts ] && n=2
	for r in $(seq 1 "$n"); do
		record ptrace "$fmt" p 2
		record cache "$fmt" c 2
		cmp -s "$tmp/p.out" "$tmp/c.out" ||
			fail "$fmt run $r: the program's output differs"
		cmp -s "$tmp/p.h" "$tmp/c.h" ||
			fail "$fmt run $r: the cache engine's history differs" \
				"from the ptrace engine's:" \
				"$(diff "$tmp/p.h" "$tmp/c.h" | head -n 5)"
	done
	echo "PASS: $fmt: $n runs, each engine's history the same"
done

# With a pause in every round (system calls leave the cache and come
# back in; ptstub's tick lands in the slower injected calls, which once
# lost the thread).
record ptrace pt p 3 1000
for r in $(seq 1 "$runs"); do
	record cache pt c 3 1000
	cmp -s "$tmp/p.h" "$tmp/c.h" ||
		fail "with pauses, run $r: the cache engine's history" \
			"differs: $(diff "$tmp/p.h" "$tmp/c.h" | head -n 5)"
done
echo "PASS: with pauses, $runs runs, the same history"
