#!/bin/sh
# Snapshots that cannot be written: a missing directory, a full device
# (/dev/full), a full filesystem and a read-only one.  Each gives one
# clear line naming the file and the cause, leaves no file (not even a
# partial or temporary one), and the program runs on undisturbed: same
# output, same exit status.  The filesystems are tmpfs mounts in a mount
# namespace of their own (unshare -m); without one those cases skip.
# Bad command lines (an unknown --trigger function, a missing program, a
# bad size, a missing bundle) are refused with their cause.
set -u
. "${top_srcdir:-.}/testsuite/rec/lib.sh"
prog=$build/testsuite/rec/loop
need_built "$stub" "$prog"
"$prog" 12 40000 >"$tmp/native.out"
native=$?

# record_once WRAPPER OUT: the loop recorded, one SIGUSR2 at round 3.
record_once() {
	rm -f "$tmp/rec.out" "$tmp/rec.err" "$tmp/pid" "$tmp/left"
	$1 "$stub" record -o "$2" -- "$prog" 12 40000 >"$tmp/rec.out" \
		2>"$tmp/rec.err" &
	rpid=$!
	for i in $(seq 1 100); do
		grep -q "^round 3 " "$tmp/rec.out" 2>/dev/null && break
		sleep 0.05
	done
	# Under a wrapper the recorder says its pid: signal it, not sh.
	rec=$rpid
	[ -s "$tmp/pid" ] && rec=$(cat "$tmp/pid")
	kill -USR2 "$rec"
	wait "$rpid"
	status=$?
	rpid=
	[ "$status" = "$native" ] ||
		fail "$2: exit status $status, not $native: $(cat "$tmp/rec.err")"
	cmp -s "$tmp/native.out" "$tmp/rec.out" ||
		fail "$2: the program's output differs"
}

# expect OUT CAUSE: one error line for OUT naming CAUSE, no snapshot.
expect() {
	grep -q "^ptstub: cannot write snapshot 0 to $1: $2\$" "$tmp/rec.err" ||
		fail "$1: not '$2': $(cat "$tmp/rec.err")"
	if grep -q "^ptstub: snapshot" "$tmp/rec.err"; then
		fail "$1: a snapshot line for a failed write"
	fi
	echo "PASS: $1: $2"
}

record_once "" "$tmp/missing/s.ptb"
expect "$tmp/missing/s.ptb" "No such file or directory"
[ ! -e "$tmp/missing" ] || fail "the missing directory appeared"

if [ -w /dev/full ]; then
	record_once "" /dev/full
	expect /dev/full "No space left on device"
else
	echo "SKIP: /dev/full cannot be opened"
fi

mnt=$tmp/mnt
mkdir "$mnt"
if unshare -m true 2>/dev/null; then
	# A tmpfs of 16 KiB: the bundle (a few hundred KiB) cannot fit.
	# The wrappers say the recorder's pid, and what the filesystem
	# holds afterwards (it goes with the namespace).
	for opt in size=16k ro; do
		cat >"$tmp/$opt.sh" <<EOF2
mount -t tmpfs -o $opt none $mnt || exit 99
"\$@" &
echo \$! >$tmp/pid
wait \$!
st=\$?
ls -A $mnt >$tmp/left
exit \$st
EOF2
	done
	record_once "unshare -m sh $tmp/size=16k.sh" "$mnt/s.ptb"
	expect "$mnt/s.ptb" "No space left on device"
	[ -f "$tmp/left" ] && [ ! -s "$tmp/left" ] ||
		fail "files left in the full filesystem: $(cat "$tmp/left")"

	record_once "unshare -m sh $tmp/ro.sh" "$mnt/s.ptb"
	expect "$mnt/s.ptb" "Read-only file system"
elif [ "$(id -u)" != 0 ]; then
	chmod 555 "$mnt"
	record_once "" "$mnt/s.ptb"
	expect "$mnt/s.ptb" "Permission denied"
	[ -z "$(ls -A "$mnt")" ] || fail "files left in the read-only directory"
else
	echo "SKIP: full and read-only filesystems: no mount namespace"
fi

# Bad command lines: a clear error, nothing written, nothing run.
"$stub" record --trigger=no_such_function -o "$tmp/b.ptb" -- "$prog" 2 \
	>"$tmp/b.out" 2>"$tmp/b.err"
[ $? = 1 ] || fail "--trigger=no_such_function: exit status"
grep -q "^ptstub: --trigger=no_such_function: no such function" "$tmp/b.err" ||
	fail "--trigger=no_such_function: $(cat "$tmp/b.err")"
[ ! -s "$tmp/b.out" ] && [ ! -e "$tmp/b.ptb" ] ||
	fail "--trigger=no_such_function: the program ran or a file was written"
"$stub" record -o "$tmp/b.ptb" -- "$tmp/no_such_program" 2>"$tmp/b.err"
[ $? = 127 ] || fail "a missing program: not 127 as from a shell"
grep -q "cannot run $tmp/no_such_program: no such file" \
	"$tmp/b.err" || fail "a missing program: $(cat "$tmp/b.err")"
"$stub" record --size=12X -- "$prog" 2>"$tmp/b.err"
[ $? = 2 ] && grep -q "bad --size 12X" "$tmp/b.err" ||
	fail "--size=12X: $(cat "$tmp/b.err")"
"$stub" --postmortem "$tmp/none.ptb" - </dev/null 2>"$tmp/b.err"
[ $? = 1 ] && grep -q "^Cannot serve $tmp/none.ptb: .*No such file" "$tmp/b.err" ||
	fail "--postmortem of a missing file: $(cat "$tmp/b.err")"
echo "PASS: bad command lines"
