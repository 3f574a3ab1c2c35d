#!/bin/sh
# The flight recorder on crashes at the end of a chain of calls (a NULL
# dereference three calls deep, abort() from a failed assert, a SIGSEGV in
# a second thread): `ptstub record` must keep the program's exit status
# and write a crash bundle; `ptstub --postmortem` serves it to GDB, whose
# `bt` must equal GDB's own for the same crash live under gdbserver; the
# call history must end in the function of frame #0, reverse-step must
# walk back to the line before the crash (GDB's first reverse-step goes to
# the start of the crashing line, the second to the line before; after
# abort() in libc, reverse-continue to the crash line first), and
# reverse-finish to the caller; the instruction history ends where the
# thread stopped (reverse-stepi goes to its last instruction, record goto
# begin and end come back); the auxiliary vector, registers, a local, the
# code at the PC and the thread count equal gdbserver's live; GDB given
# no program file finds it (exec-file); a BTS recording too.  With --inherit, a fork
# child's crash is kept too (and without, it is not).  Skips without GDB
# or gdbserver.
set -u
build=${top_builddir:-.}
stub=${PTSTUB:-$build/ptstub}
gdb=${GDB:-gdb}
gdbserver=${GDBSERVER:-gdbserver}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() {
	echo "FAIL: $*"
	exit 1
}

command -v "$gdb" >/dev/null 2>&1 || { echo "SKIP: no GDB"; exit 77; }
command -v "$gdbserver" >/dev/null 2>&1 ||
	{ echo "SKIP: no gdbserver"; exit 77; }

bt_lines() {
	grep '^#[0-9]' "$1"
}

# check PROG SIGNAL_NAME EXIT_STATUS CRASH_LINE_PATTERN FUNC VAR HOW
# FUNC is the program's function the crash line is in, VAR one of its
# locals.  HOW "step": frame #0 is FUNC, and two reverse-steps from the
# crash go to the line before; "break": frame #0 is a library's (abort
# from assert), and a breakpoint on the crash line and reverse-continue
# get there first, then one reverse-step.
check() {
	prog=$build/testsuite/rec/$1
	[ -x "$prog" ] || fail "$prog is not built"
	bundle=$tmp/$1.ptb

	"$prog" >"$tmp/native.out" 2>/dev/null
	native=$?
	[ "$native" = "$3" ] || fail "$1 exits $native natively, not $3"
	# The same environment for the recorder's run and gdbserver's: the
	# stack's addresses (in bt's arguments) depend on it.
	env -i PTSTUB_TEST=1 "$stub" record --disable-randomization \
		-o "$bundle" -- "$prog" \
		>"$tmp/rec.out" 2>"$tmp/rec.err"
	status=$?
	[ "$status" = "$native" ] ||
		fail "$1: ptstub record exits $status, the program $native"
	cmp -s "$tmp/native.out" "$tmp/rec.out" ||
		fail "$1: the output differs under the recorder"
	grep -q "^ptstub: snapshot 0: signal $2 in thread [0-9]*, [0-9]* threads*, [0-9]* bytes, $bundle\$" \
		"$tmp/rec.err" || fail "$1: no snapshot line: $(cat "$tmp/rec.err")"
	[ -s "$bundle" ] || fail "$1: no bundle"

	line=$(grep -n "$4" "${top_srcdir:-.}/testsuite/rec/$1.c" | cut -d: -f1)
	[ -n "$line" ] || fail "$1: no line '$4' in its source"
	back=reverse-step
	[ "$7" = break ] && back="break $1.c:$line
reverse-continue
delete"
	# What a stopped process shows, the same live and post-mortem: the
	# auxiliary vector, registers, a local, the code at the PC (from the
	# mapped file: the core has no copy of it), the threads.
	state="echo ==state==\n
info auxv
info registers rip rsp rbp
frame function $5
print $6
x/2i \$pc
print \$_inferior_thread_count"
	cat >"$tmp/pm.gdb" <<EOF2
set pagination off
set confirm off
target remote | $stub --postmortem $bundle -
bt
echo ==history==\n
record btrace pt
record function-call-history
echo ==rstep==\n
$back
reverse-step
info line *\$pc
reverse-finish
echo ==insn==\n
record goto end
record instruction-history
print/x \$pc
reverse-stepi
print/x \$pc
record goto begin
record goto end
print/x \$pc
echo ==cont==\n
record stop
continue
$state
EOF2
	timeout 120 "$gdb" -batch -nx -x "$tmp/pm.gdb" "$prog" \
		>"$tmp/pm.log" 2>&1 || fail "$1: GDB on the post-mortem image: $(tail -5 "$tmp/pm.log")"

	cat >"$tmp/live.gdb" <<EOF2
set pagination off
set confirm off
target remote | env -i PTSTUB_TEST=1 $gdbserver --no-startup-with-shell - $prog
continue
bt
$state
kill
EOF2
	timeout 120 "$gdb" -batch -nx -x "$tmp/live.gdb" "$prog" \
		>"$tmp/live.log" 2>&1 || fail "$1: GDB on gdbserver: $(tail -5 "$tmp/live.log")"

	sed -n '1,/==history==/p' "$tmp/pm.log" >"$tmp/pm.bt"
	bt_lines "$tmp/pm.bt" >"$tmp/pm.frames"
	sed -n '1,/==state==/p' "$tmp/live.log" | grep '^#[0-9]' >"$tmp/live.frames"
	[ -s "$tmp/live.frames" ] || fail "$1: gdbserver gave no bt: $(cat "$tmp/live.log")"
	diff -u "$tmp/live.frames" "$tmp/pm.frames" >"$tmp/bt.diff" ||
		fail "$1: bt differs from gdbserver's: $(cat "$tmp/bt.diff")"

	# The call history's last segment is frame #0's function.
	f0=$(head -1 "$tmp/pm.frames" | sed -E 's/^#0 +(0x[0-9a-f]+ in )?//; s/ .*//')
	last=$(sed -n '/==history==/,/==rstep==/p' "$tmp/pm.log" |
		grep -E '^[0-9]+	' | tail -1 | cut -f2)
	[ -n "$f0" ] && [ "$last" = "$f0" ] ||
		fail "$1: the call history ends in '$last', frame #0 is '$f0'"

	# Back to the crash line, then reverse-step: the line before.
	sed -n '/==rstep==/,/==insn==/p' "$tmp/pm.log" >"$tmp/rstep"
	grep -q "^Line $((line - 1)) of " "$tmp/rstep" ||
		fail "$1: reverse-step did not reach line $((line - 1)): $(cat "$tmp/rstep")"
	# reverse-finish: back to the call, in the caller of FUNC.
	caller=$(sed -n "/ $5 (/{n;p;q}" "$tmp/pm.frames" |
		sed -E 's/^#[0-9]+ +(0x[0-9a-f]+ in )?//; s/ .*//')
	[ -n "$caller" ] || fail "$1: no caller of $5 in bt"
	sed -n '/^Line /,$p' "$tmp/rstep" | grep -Eq "^(0x[0-9a-f]+ in )?$caller \(" ||
		fail "$1: reverse-finish did not return to $caller: $(cat "$tmp/rstep")"

	# The instruction history ends where the thread stopped; reverse-stepi
	# goes to its last instruction; record goto begin and end come back.
	sed -n '/==insn==/,/==cont==/p' "$tmp/pm.log" >"$tmp/insn"
	grep -E '^\$[0-9]+ = 0x' "$tmp/insn" | sed 's/.* = //' >"$tmp/pcs"
	[ "$(wc -l <"$tmp/pcs")" = 3 ] || fail "$1: not three PCs: $(cat "$tmp/insn")"
	pc=$(sed -n 1p "$tmp/pcs")
	stepped=$(sed -n 2p "$tmp/pcs")
	lastinsn=$(grep -E '^[0-9]+	 +(=> )?0x' "$tmp/insn" | tail -1 |
		sed -E 's/^[0-9]+	 *(=> )?0x0*([0-9a-f]+).*/0x\2/')
	[ "$stepped" = "$lastinsn" ] && [ "$pc" != "$stepped" ] ||
		fail "$1: reverse-stepi from $pc went to $stepped, the history's last instruction is $lastinsn"
	[ "$(sed -n 3p "$tmp/pcs")" = "$pc" ] ||
		fail "$1: record goto begin, end: at $(sed -n 3p "$tmp/pcs"), not $pc"
	# The trace starts with the thread: at the program's entry, or for
	# a second thread where clone3 returns in it.
	grep -Eq "^#0  (0x[0-9a-f]* in )?(_start|clone3) \(\)" "$tmp/insn" ||
		fail "$1: record goto begin is not the thread's start: $(cat "$tmp/insn")"

	grep -q "E.the process is a post-mortem image" "$tmp/pm.log" ||
		fail "$1: continue was not refused: $(sed -n '/==cont==/,$p' "$tmp/pm.log")"

	# The stopped process's state as gdbserver shows it.
	sed -n '/^==state==/,$p' "$tmp/pm.log" | grep -v "^\[Inferior" >"$tmp/pm.state"
	sed -n '/^==state==/,$p' "$tmp/live.log" | grep -v "^\[Inferior" >"$tmp/live.state"
	grep -q '^\$[0-9]* = ' "$tmp/live.state" ||
		fail "$1: gdbserver printed no $6: $(cat "$tmp/live.state")"
	sed -i 's/^\$[0-9]* = /$ = /' "$tmp/pm.state" "$tmp/live.state"
	diff -u "$tmp/live.state" "$tmp/pm.state" >"$tmp/state.diff" ||
		fail "$1: the stopped process differs from gdbserver's: $(cat "$tmp/state.diff")"
	# GDB given no program finds it through the image's exec-file.
	printf 'set pagination off\ntarget remote | %s --postmortem %s -\nbt\n' \
		"$stub" "$bundle" >"$tmp/nofile.gdb"
	timeout 120 "$gdb" -batch -nx -x "$tmp/nofile.gdb" >"$tmp/nofile.log" 2>&1
	grep '^#[0-9]' "$tmp/nofile.log" | diff -u "$tmp/pm.frames" - >"$tmp/nofile.diff" ||
		fail "$1: without the program, bt differs: $(cat "$tmp/nofile.diff")"
	echo "PASS: $1 ($(wc -l <"$tmp/pm.frames") frames, history ends in $last, $(grep -c . "$tmp/pm.state") lines of state)"
}

check crash_chain SIGSEGV 139 "the crash" level3 before step
check crash_assert SIGABRT 134 "assert(doubled" check doubled break
check crash_thread SIGSEGV 139 "the crash" deref step step

# --inherit: the child's crash, in the child's bundle; the parent's
# output and status as without ptstub.
prog=$build/testsuite/rec/fork_crash
"$prog" >"$tmp/native.out"
native=$?
"$stub" record --inherit -o "$tmp/f.ptb" -- "$prog" >"$tmp/rec.out" \
	2>"$tmp/rec.err"
status=$?
[ "$status" = "$native" ] || fail "--inherit: exit status $status, not $native"
cmp -s "$tmp/native.out" "$tmp/rec.out" || fail "--inherit: output differs"
grep -q "^ptstub: snapshot 0: signal SIGSEGV in thread" "$tmp/rec.err" ||
	fail "--inherit: $(cat "$tmp/rec.err")"
child=$(sed -n 's/.*signal SIGSEGV in thread \([0-9]*\),.*/\1/p' "$tmp/rec.err")
"$build/ptbtrace" info "$tmp/f.ptb" | grep -q "Thread $child\.$child" ||
	fail "--inherit: the bundle is not the child's"
"$build/ptbtrace" call-history "$tmp/f.ptb" | tail -1 | grep -q "	child_work$" ||
	fail "--inherit: the history does not end in child_work"
"$stub" record -o "$tmp/g.ptb" -- "$prog" >/dev/null 2>"$tmp/rec.err"
[ ! -e "$tmp/g.ptb" ] || fail "without --inherit, the child was recorded"
echo "PASS: --inherit keeps a fork child's crash"

# The same crash recorded as BTS: `record btrace bts` on the image.
prog=$build/testsuite/rec/crash_chain
"$stub" record --format=bts -o "$tmp/b.ptb" -- "$prog" >/dev/null 2>&1
cat >"$tmp/bts.gdb" <<EOF2
set pagination off
set confirm off
target remote | $stub --postmortem $tmp/b.ptb -
record btrace bts
record function-call-history
echo ==rstep==\n
reverse-step
reverse-step
info line *\$pc
EOF2
timeout 120 "$gdb" -batch -nx -x "$tmp/bts.gdb" "$prog" >"$tmp/bts.log" 2>&1 ||
	fail "BTS: $(tail -5 "$tmp/bts.log")"
sed '/==rstep==/,$d' "$tmp/bts.log" | grep -E '^[0-9]+	' | tail -1 |
	grep -q "	level3$" ||
	fail "BTS: the call history does not end in level3: $(tail "$tmp/bts.log")"
want=$(($(grep -n "the crash" "${top_srcdir:-.}/testsuite/rec/crash_chain.c" | cut -d: -f1) - 1))
grep -q "^Line $want of " "$tmp/bts.log" ||
	fail "BTS: reverse-step did not reach line $want: $(tail "$tmp/bts.log")"
echo "PASS: a BTS crash bundle on the post-mortem image"
