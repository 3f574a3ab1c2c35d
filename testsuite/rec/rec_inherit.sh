#!/bin/sh
# The flight recorder with --inherit: a fork child is traced as its own
# process, and every trigger covers it as it covers the program.  As perf
# keeps each process's side-band apart, each process's snapshot is a
# file of its own (the program's first, numbered on from there), and the
# line of a child's says whose it is.  SIGUSR2 (twice) gives one file per
# process each time; --trigger=FUNC counts each process's own entries;
# --at-exit and --full write one bundle per process when it exits.  Each
# bundle holds its process's threads only and decodes; the program's
# output (its lines sorted: two processes write them) and exit status are
# what they are without ptstub.  (A child's crash: rec_crash.sh.)
set -u
. "${top_srcdir:-.}/testsuite/rec/lib.sh"
prog=$build/testsuite/rec/fork_loop
need_built "$stub" "$tool" "$prog"

# same WHAT: the run's sorted output and status are the native run's.
same() {
	[ "$status" = "$native" ] ||
		fail "$1: exit status $status, not $native: $(cat "$tmp/rec.err")"
	sort "$tmp/rec.out" >"$tmp/rec.sorted"
	cmp -s "$tmp/native.sorted" "$tmp/rec.sorted" ||
		fail "$1: the program's output differs"
}

# pid_of FILE: the process a bundle is of (its selected thread's).
pid_of() {
	"$tool" info "$1" | sed -n 's/.*(Thread \([0-9]*\)\.[0-9]*)\.$/\1/p'
}

# calls FILE FUNC: how many calls of FUNC its history holds.
calls() {
	"$tool" call-history --size=0 "$1" | grep -c "	$2\$"
}

# SIGUSR2 twice: four files, the program's and the child's each time.
"$prog" 30 50000 >"$tmp/native.out"
native=$?
sort "$tmp/native.out" >"$tmp/native.sorted"
"$stub" record --inherit -o "$tmp/s.ptb" -- "$prog" 30 50000 \
	>"$tmp/rec.out" 2>"$tmp/rec.err" &
rpid=$!
for n in 3 8; do
	for i in $(seq 1 100); do
		grep -q "^child round $n " "$tmp/rec.out" &&
			grep -q "^parent round $n " "$tmp/rec.out" && break
		sleep 0.05
	done
	kill -USR2 "$rpid" || fail "the recorder is gone: $(cat "$tmp/rec.err")"
done
wait "$rpid"
status=$?
rpid=
same "SIGUSR2"
parent=
child=
n=0
for f in s.ptb s.ptb.1 s.ptb.2 s.ptb.3; do
	[ -s "$tmp/$f" ] || fail "SIGUSR2: no $f: $(cat "$tmp/rec.err")"
	p=$(pid_of "$tmp/$f")
	[ -n "$p" ] || fail "$f: $("$tool" info "$tmp/$f" 2>&1)"
	"$tool" info "$tmp/$f" | grep -q "^Threads in the bundle: 1\.$" ||
		fail "$f: not one thread: $("$tool" info "$tmp/$f")"
	[ "$(calls "$tmp/$f" work)" -gt 0 ] ||
		fail "$f: no call of work in its history"
	if [ $((n % 2)) = 0 ]; then
		[ -z "$parent" ] || [ "$p" = "$parent" ] ||
			fail "$f is of process $p, not the program $parent"
		parent=$p
		grep -q "^ptstub: snapshot $n: request, 1 thread, [0-9]* bytes, $tmp/$f\$" \
			"$tmp/rec.err" || fail "$f: $(cat "$tmp/rec.err")"
	else
		[ "$p" != "$parent" ] || fail "$f is the program's, not the child's"
		[ -z "$child" ] || [ "$p" = "$child" ] ||
			fail "$f is of process $p, not the child $child"
		child=$p
		grep -q "^ptstub: snapshot $n: request of process $p, 1 thread, [0-9]* bytes, $tmp/$f\$" \
			"$tmp/rec.err" || fail "$f: $(cat "$tmp/rec.err")"
	fi
	n=$((n + 1))
done
[ ! -e "$tmp/s.ptb.4" ] || fail "SIGUSR2: a fifth snapshot"
# Without --inherit, the program's alone.
"$stub" record -o "$tmp/u.ptb" -- "$prog" 30 50000 >"$tmp/rec.out" \
	2>"$tmp/rec.err" &
rpid=$!
for i in $(seq 1 100); do
	grep -q "^parent round 3 " "$tmp/rec.out" && break
	sleep 0.05
done
kill -USR2 "$rpid"
wait "$rpid"
status=$?
rpid=
same "SIGUSR2 without --inherit"
[ -s "$tmp/u.ptb" ] && [ ! -e "$tmp/u.ptb.1" ] ||
	fail "without --inherit: $(cat "$tmp/rec.err")"
echo "PASS: SIGUSR2 with --inherit: each process its own file"

# --trigger=checkpoint --trigger-count=2: each process at its own second
# entry, having called it once before.
"$prog" 4 >"$tmp/native.out"
native=$?
sort "$tmp/native.out" >"$tmp/native.sorted"
"$stub" record --inherit --trigger=checkpoint --trigger-count=2 \
	-o "$tmp/t.ptb" -- "$prog" 4 >"$tmp/rec.out" 2>"$tmp/rec.err"
status=$?
same "--trigger"
[ "$(grep -c "^ptstub: snapshot [01]: function checkpoint in thread [0-9]*, 1 thread," \
	"$tmp/rec.err")" = 2 ] || fail "--trigger: $(cat "$tmp/rec.err")"
[ ! -e "$tmp/t.ptb.2" ] || fail "--trigger: a third snapshot"
for f in t.ptb t.ptb.1; do
	tid=$(sed -n "s|.*function checkpoint in thread \([0-9]*\),.*$tmp/$f\$|\1|p" \
		"$tmp/rec.err")
	[ -n "$tid" ] && [ "$(pid_of "$tmp/$f")" = "$tid" ] ||
		fail "--trigger: $f is not the bundle of thread '$tid'"
	"$tool" info "$tmp/$f" | grep -q "^Trigger: function checkpoint at 0x.* in thread $tid " ||
		fail "--trigger: $f: $("$tool" info "$tmp/$f")"
	[ "$(calls "$tmp/$f" checkpoint)" = 1 ] ||
		fail "--trigger: $f: $(calls "$tmp/$f" checkpoint) calls of checkpoint before, not 1"
done
[ "$(pid_of "$tmp/t.ptb")" != "$(pid_of "$tmp/t.ptb.1")" ] ||
	fail "--trigger: both bundles are of one process"
echo "PASS: --trigger=checkpoint --trigger-count=2 with --inherit"

# --at-exit, then --full: one bundle per process as it exits, the child's
# first (the parent waits for it); each has all four rounds.
for mode in at-exit full; do
	rm -f "$tmp"/x.ptb*
	"$stub" record --inherit --$mode -o "$tmp/x.ptb" -- "$prog" 4 \
		>"$tmp/rec.out" 2>"$tmp/rec.err"
	status=$?
	same "--$mode"
	kind=exit
	[ $mode = full ] && kind=full
	c=$(sed -n "s|^ptstub: snapshot 0: $kind of process \([0-9]*\), 1 thread, [0-9]* bytes, $tmp/x.ptb\$|\1|p" \
		"$tmp/rec.err")
	[ -n "$c" ] && [ "$(pid_of "$tmp/x.ptb")" = "$c" ] ||
		fail "--$mode: no child's bundle: $(cat "$tmp/rec.err")"
	grep -q "^ptstub: snapshot 1: $kind, 1 thread, [0-9]* bytes, $tmp/x.ptb.1\$" \
		"$tmp/rec.err" || fail "--$mode: $(cat "$tmp/rec.err")"
	[ "$(pid_of "$tmp/x.ptb.1")" != "$c" ] ||
		fail "--$mode: the program's bundle is the child's"
	[ ! -e "$tmp/x.ptb.2" ] || fail "--$mode: a third bundle"
	for f in x.ptb x.ptb.1; do
		[ "$(calls "$tmp/$f" checkpoint)" = 4 ] ||
			fail "--$mode: $f: $(calls "$tmp/$f" checkpoint) calls of checkpoint, not 4"
	done
	echo "PASS: --$mode with --inherit: a bundle per process"
done
