#!/bin/sh
# The flight recorder's snapshots: SIGUSR2 three times to a looping
# program gives three bundles (FILE, FILE.1, FILE.2), each decodable,
# with the program's output and exit status what they are without
# ptstub; --trigger=FUNC --trigger-count=N snapshots at the Nth entry;
# --at-exit at the end; a library dlclose'd before a snapshot still
# decodes (side-band); --attach to a running program; --full with a ring
# too small reports what it lost; --full up to a trigger equals, in
# GDB's own call history, the trace a GDB session records over the same
# run.
set -u
. "${top_srcdir:-.}/testsuite/rec/lib.sh"
prog=$build/testsuite/rec/loop
gdb=${GDB:-gdb}
need_built "$stub" "$tool" "$prog"

# Three SIGUSR2, each once the program has printed more rounds.
"$prog" 30 50000 >"$tmp/native.out"
native=$?
"$stub" record -o "$tmp/s.ptb" -- "$prog" 30 50000 >"$tmp/rec.out" \
	2>"$tmp/rec.err" &
rpid=$!
for n in 3 8 13; do
	for i in $(seq 1 100); do
		grep -q "^round $n " "$tmp/rec.out" && break
		sleep 0.05
	done
	kill -USR2 "$rpid" || fail "the recorder is gone: $(cat "$tmp/rec.err")"
done
wait "$rpid"
status=$?
rpid=
[ "$status" = "$native" ] ||
	fail "ptstub record exits $status, the program $native"
cmp -s "$tmp/native.out" "$tmp/rec.out" ||
	fail "the program's output differs under the recorder"
[ "$(grep -c '^ptstub: snapshot [0-9]: request, 1 thread, [0-9]* bytes, ' "$tmp/rec.err")" = 3 ] ||
	fail "not three snapshot lines: $(cat "$tmp/rec.err")"
n=0
for f in s.ptb s.ptb.1 s.ptb.2; do
	[ -s "$tmp/$f" ] || fail "no $f"
	"$tool" info "$tmp/$f" >"$tmp/info" 2>&1 || fail "$f: $(cat "$tmp/info")"
	grep -q "^Trigger: request (snapshot $n)" "$tmp/info" ||
		fail "$f: $(cat "$tmp/info")"
	"$tool" call-history --size=0 "$tmp/$f" >"$tmp/hist" 2>&1 ||
		fail "$f does not decode: $(tail -3 "$tmp/hist")"
	grep -q "	work$" "$tmp/hist" || fail "$f: no call of work in its history"
	n=$((n + 1))
done
[ ! -e "$tmp/s.ptb.3" ] || fail "a fourth snapshot"
echo "PASS: three SIGUSR2 snapshots, program undisturbed"

# --trigger=checkpoint --trigger-count=3: checkpoint ran twice before.
"$stub" record --trigger=checkpoint --trigger-count=3 -o "$tmp/t.ptb" \
	-- "$prog" 5 >"$tmp/t.out" 2>"$tmp/t.err"
status=$?
"$prog" 5 >"$tmp/t.native"
[ "$status" = "$?" ] || fail "--trigger: exit status $status"
cmp -s "$tmp/t.native" "$tmp/t.out" || fail "--trigger: output differs"
grep -q "^ptstub: snapshot 0: function checkpoint in thread [0-9]*, 1 thread," \
	"$tmp/t.err" || fail "--trigger: $(cat "$tmp/t.err")"
"$tool" info "$tmp/t.ptb" | grep -q "^Trigger: function checkpoint at 0x" ||
	fail "--trigger: $("$tool" info "$tmp/t.ptb" 2>&1)"
calls=$("$tool" call-history --size=0 "$tmp/t.ptb" | grep -c "	checkpoint$")
[ "$calls" = 2 ] || fail "--trigger-count=3: $calls calls of checkpoint before it"
echo "PASS: --trigger=checkpoint --trigger-count=3"

# --at-exit: one snapshot when the program exits.
"$stub" record --at-exit -o "$tmp/e.ptb" -- "$prog" 2 >/dev/null 2>"$tmp/e.err"
grep -q "^ptstub: snapshot 0: exit, 1 thread," "$tmp/e.err" ||
	fail "--at-exit: $(cat "$tmp/e.err")"
"$tool" call-history --size=0 "$tmp/e.ptb" | grep -q "	main$" ||
	fail "--at-exit: the bundle does not decode"
echo "PASS: --at-exit"

# Across an exec: the snapshot's image is the new program's (the old
# one's libraries, in the side-band, are not mixed in), so its end
# decodes with symbols.
"$stub" record --at-exit -o "$tmp/x.ptb" -- \
	"$build/testsuite/programs/bin/exec" >/dev/null 2>"$tmp/x.err" ||
	fail "exec: $(cat "$tmp/x.err")"
last=$("$tool" call-history "$tmp/x.ptb" | tail -1 | cut -f2)
case $last in
*exit*) ;;
*) fail "exec: the history ends in '$last'" ;;
esac
echo "PASS: --at-exit after an exec"

# A library dlclose'd before the snapshot: the side-band keeps its
# mapping, so the trace through it decodes.
dl=$build/testsuite/rec/dlclose
"$stub" record --trigger=checkpoint -o "$tmp/d.ptb" -- "$dl" >/dev/null \
	2>"$tmp/d.err" || fail "dlclose: $(cat "$tmp/d.err")"
"$tool" info "$tmp/d.ptb" >"$tmp/d.info" 2>&1 || fail "dlclose: $(cat "$tmp/d.info")"
grep -q "(0 gaps)" "$tmp/d.info" || fail "dlclose: $(cat "$tmp/d.info")"
"$tool" call-history --size=0 "$tmp/d.ptb" >"$tmp/d.hist" 2>&1
grep -q "	__cos" "$tmp/d.hist" ||
	fail "dlclose: no call of cos in the history: $(grep -c . "$tmp/d.hist") lines"
echo "PASS: a dlclose'd library's code decodes from the side-band"

# --attach to a running loop, with --at-exit: SIGUSR2 gives a snapshot,
# SIGTERM ends the recording with one more; the loop, detached, runs on
# to its end with its output and status as without ptstub.
"$prog" 40 50000 >"$tmp/a.out" &
lpid=$!
for i in $(seq 1 100); do
	grep -q "^round 2 " "$tmp/a.out" && break
	sleep 0.05
done
"$stub" record --at-exit -o "$tmp/a.ptb" --attach "$lpid" 2>"$tmp/a.err" &
rpid=$!
# tracer PID: who traces the loop now.
tracer() {
	sed -n 's/^TracerPid:[	 ]*//p' "/proc/$lpid/status" 2>/dev/null
}
for i in $(seq 1 200); do
	[ "$(tracer)" = "$rpid" ] && break
	sleep 0.05
done
[ "$(tracer)" = "$rpid" ] || fail "--attach: not attached: $(cat "$tmp/a.err")"
n=$(grep -c "^round " "$tmp/a.out")
for i in $(seq 1 100); do
	[ "$(grep -c "^round " "$tmp/a.out")" -ge $((n + 2)) ] && break
	sleep 0.05
done
kill -USR2 "$rpid"
for i in $(seq 1 200); do
	grep -q "^ptstub: snapshot 0: " "$tmp/a.err" && break
	sleep 0.05
done
kill -TERM "$rpid"
wait "$rpid"
status=$?
rpid=
[ "$status" = 0 ] || fail "--attach: ptstub exits $status: $(cat "$tmp/a.err")"
[ "$(tracer)" = 0 ] || fail "--attach: the loop is still traced"
wait "$lpid"
status=$?
"$prog" 40 >"$tmp/a.native"
[ "$status" = "$?" ] || fail "--attach: the loop exits $status"
cmp -s "$tmp/a.native" "$tmp/a.out" || fail "--attach: the loop's output differs"
grep -q "^ptstub: snapshot 0: request, 1 thread, [0-9]* bytes, $tmp/a.ptb\$" \
	"$tmp/a.err" || fail "--attach: $(cat "$tmp/a.err")"
grep -q "^ptstub: snapshot 1: exit, 1 thread, [0-9]* bytes, $tmp/a.ptb.1\$" \
	"$tmp/a.err" || fail "--attach --at-exit: $(cat "$tmp/a.err")"
for f in a.ptb a.ptb.1; do
	"$tool" info "$tmp/$f" | grep -q "(Thread $lpid\.$lpid)\.$" ||
		fail "--attach: $f is not the loop's"
	"$tool" call-history --size=0 "$tmp/$f" 2>&1 | grep -q "	work$" ||
		fail "--attach: $f: no call of work"
done
echo "PASS: --attach, SIGUSR2, SIGTERM: the loop runs on undisturbed"

# --full with a ring too small for what runs between two drains (BTS:
# 256 blocks, filled in well under a drain's 200 ms even on a loaded
# machine): the lost blocks are reported for the thread, marked in the
# bundle, and the trace decodes with a gap where they were, not with
# the blocks on both sides joined.
"$stub" record --format=bts --full --size=4K -o "$tmp/l.ptb" -- "$prog" 200 \
	>/dev/null 2>"$tmp/l.err"
grep -q "^ptstub: thread [0-9]*: [1-9][0-9]* trace blocks could not be kept (the ring of 4096 bytes wrapped before it was drained; try a larger --size)\$" \
	"$tmp/l.err" || fail "--full, a small ring: $(cat "$tmp/l.err")"
"$tool" info "$tmp/l.ptb" >"$tmp/l.info" 2>&1 || fail "--full, a small ring: $(cat "$tmp/l.info")"
grep -q "bytes of blocks, some lost" "$tmp/l.info" ||
	fail "--full, a small ring: not marked: $(cat "$tmp/l.info")"
grep -q "([1-9][0-9]* gaps)" "$tmp/l.info" ||
	fail "--full, a small ring: no gap: $(cat "$tmp/l.info")"
echo "PASS: --full with a small ring: what was lost is reported and marked"

# --full up to checkpoint's entry against a GDB session stopped at the
# same place.  The same environment and no output before it: the
# program then runs the same instructions.
if ! command -v "$gdb" >/dev/null 2>&1; then
	echo "SKIP: --full against GDB: no GDB"
	exit 0
fi
env -i PTSTUB_TEST=1 "$stub" record --disable-randomization --full \
	--trigger=checkpoint -o "$tmp/f.ptb" -- "$prog" 3 >/dev/null \
	2>"$tmp/f.err"
status=$?
"$prog" 3 >/dev/null
[ "$status" = "$?" ] || fail "--full: exit status $status: $(cat "$tmp/f.err")"
grep -q "^ptstub: snapshot 0: function checkpoint" "$tmp/f.err" ||
	fail "--full: $(cat "$tmp/f.err")"
cat >"$tmp/live.gdb" <<EOF2
set pagination off
set confirm off
target remote | env -i PTSTUB_TEST=1 $stub --no-startup-with-shell - $prog 3
set record btrace pt buffer-size 67108864
record btrace pt
break *checkpoint
continue
info record
set record function-call-history-size unlimited
record function-call-history /ilc
kill
EOF2
cat >"$tmp/pm.gdb" <<EOF2
set pagination off
set confirm off
target remote | $stub --postmortem $tmp/f.ptb -
record btrace pt
info record
set record function-call-history-size unlimited
record function-call-history /ilc
EOF2
timeout 120 "$gdb" -batch -nx -x "$tmp/live.gdb" "$prog" >"$tmp/live.log" 2>&1
timeout 120 "$gdb" -batch -nx -x "$tmp/pm.gdb" "$prog" >"$tmp/pm.log" 2>&1
grep -P "\tinst " "$tmp/live.log" >"$tmp/live.h"
grep -P "\tinst " "$tmp/pm.log" >"$tmp/pm.h"
[ -s "$tmp/live.h" ] || fail "--full: GDB recorded nothing: $(tail "$tmp/live.log")"
diff -u "$tmp/live.h" "$tmp/pm.h" >"$tmp/full.diff" ||
	fail "--full differs from GDB's session: $(head -20 "$tmp/full.diff")"
live=$(grep -o "Recorded [0-9]* instructions" "$tmp/live.log")
pm=$(grep -o "Recorded [0-9]* instructions" "$tmp/pm.log")
[ "$live" = "$pm" ] || fail "--full: GDB says '$live', the bundle '$pm'"
echo "PASS: --full equals GDB's session ($live, $(wc -l <"$tmp/pm.h") segments)"
