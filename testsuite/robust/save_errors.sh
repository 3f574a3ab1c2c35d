#!/bin/sh
# `monitor btrace save` with real GDB: each failure names its cause (the
# errno's text and name) and leaves neither a partial bundle nor a
# temporary file, and an existing bundle is kept whole; no FILE is a usage
# line.  As root, in a mount namespace of its own: a full 8 KiB tmpfs
# (ENOSPC) and a read-only one (EROFS); as an unprivileged user, a folder
# it may not write (EACCES).  Everywhere: a missing folder (ENOENT), a
# folder as FILE (EISDIR), /dev/full (ENOSPC), and a good save that
# ptbtrace reads.
set -u
if [ "$(id -u)" = 0 ] && [ -z "${SAVE_ERRORS_NS:-}" ] &&
	command -v unshare >/dev/null 2>&1 &&
	unshare -m --propagation private true 2>/dev/null; then
	SAVE_ERRORS_NS=1 exec unshare -m --propagation private "$0" "$@"
fi
. "${top_srcdir:-.}/testsuite/robust/lib.sh"
need_gdb
prog=$build/testsuite/programs/bin/btrace
[ -x "$prog" ] || fail "$prog is not built"
[ -x "$build/ptbtrace" ] || fail "ptbtrace is not built"

mounted=
if [ -n "${SAVE_ERRORS_NS:-}" ]; then
	mkdir "$tmp/full" "$tmp/ro"
	mount -t tmpfs -o size=8k tmpfs "$tmp/full" &&
		mount -t tmpfs -o ro,size=8k tmpfs "$tmp/ro" && mounted=1
	extra_cleanup='umount "$tmp/full" "$tmp/ro" 2>/dev/null'
	# A bundle already there must survive a failed save whole.
	[ -n "$mounted" ] && echo "old bundle" >"$tmp/full/t.ptb"
fi
mkdir "$tmp/adir"

start_stub --once ":@PORT@" "$prog"
{
	echo "target remote 127.0.0.1:$port"
	echo "break begin_region"
	echo "continue"
	echo "record btrace pt"
	echo "next"
	echo "monitor btrace save"
	echo "monitor btrace save   "
	echo "monitor btrace save $tmp/missing/t.ptb"
	echo "monitor btrace save $tmp/adir"
	echo "monitor btrace save /dev/full"
	if [ -n "$mounted" ]; then
		echo "monitor btrace save $tmp/full/t.ptb"
		echo "monitor btrace save $tmp/full/new.ptb"
		echo "monitor btrace save $tmp/ro/t.ptb"
	fi
	echo "monitor btrace save $tmp/ok.ptb"
	echo "kill"
} >"$tmp/save.gdb"
run_gdb save "$prog"
stop_stub

out=save
expect $out '^Usage: monitor btrace save FILE$' "no FILE"
[ "$(grep -c '^Usage: monitor btrace save FILE$' "$tmp/$out.out")" = 2 ] ||
	fail "spaces alone as FILE: $(cat "$tmp/$out.out")"
grep -q 'Protocol error' "$tmp/$out.out" && fail "a protocol error: $(cat "$tmp/$out.out")"
expect $out "^Cannot save the trace to $tmp/missing/t.ptb: No such file or directory \\(ENOENT\\)\\.\$" "missing folder"
expect $out "^Cannot save the trace to $tmp/adir: Is a directory \\(EISDIR\\)\\.\$" "a folder"
expect $out "^Cannot save the trace to /dev/full: No space left on device \\(ENOSPC\\)\\.\$" "/dev/full"
[ -c /dev/full ] || fail "/dev/full is no longer a device"
[ -z "$(ls -A "$tmp/adir")" ] || fail "files left in the folder: $(ls -A "$tmp/adir")"
if [ -n "$mounted" ]; then
	expect $out "^Cannot save the trace to $tmp/full/t.ptb: No space left on device \\(ENOSPC\\)\\.\$" "full disk"
	expect $out "^Cannot save the trace to $tmp/full/new.ptb: No space left on device \\(ENOSPC\\)\\.\$" "full disk, new file"
	expect $out "^Cannot save the trace to $tmp/ro/t.ptb: Read-only file system \\(EROFS\\)\\.\$" "read-only"
	[ "$(cat "$tmp/full/t.ptb")" = "old bundle" ] || fail "the old bundle was changed"
	[ "$(ls -A "$tmp/full")" = t.ptb ] ||
		fail "partial or temporary files left: $(ls -A "$tmp/full")"
else
	echo "note: not root or no mount namespace: full and read-only file systems not tried"
fi
expect $out "^Saved [0-9]+ bytes of PT trace of thread [0-9]+\\.[0-9]+ and [0-9]+ mappings to $tmp/ok.ptb\\.\$" "good save"
[ "$(ls "$tmp" | grep -c 'ok\.ptb')" = 1 ] || fail "temporary files beside ok.ptb: $(ls "$tmp")"
"$build/ptbtrace" info "$tmp/ok.ptb" >"$tmp/info" 2>&1 ||
	fail "ptbtrace cannot read the saved bundle: $(cat "$tmp/info")"
grep -q '^Recorded [1-9]' "$tmp/info" || fail "ptbtrace info: $(cat "$tmp/info")"

# EACCES: a user who may not write the folder.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1 &&
	setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$prog" 2>/dev/null &&
	setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$stub" 2>/dev/null; then
	mkdir "$tmp/locked"
	chmod 755 "$tmp/locked"
	chmod 755 "$tmp"
	stub_wrap="setpriv --reuid=65534 --regid=65534 --clear-groups"
	saved=$stub
	stub="$stub_wrap $saved"
	start_stub() { :; }
	port=$((20000 + ($$ * 11) % 30000))
	$stub_wrap "$saved" --once "127.0.0.1:$port" "$prog" >"$tmp/stub.log" 2>&1 </dev/null &
	spid=$!
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
		grep -q "^Listening on port" "$tmp/stub.log" && break
		sleep 0.2
	done
	{
		echo "target remote 127.0.0.1:$port"
		echo "break begin_region"
		echo "continue"
		echo "record btrace pt"
		echo "next"
		echo "monitor btrace save $tmp/locked/t.ptb"
		echo "kill"
	} >"$tmp/acc.gdb"
	run_gdb acc "$prog"
	stop_stub
	expect acc "^Cannot save the trace to $tmp/locked/t.ptb: Permission denied \\(EACCES\\)\\.\$" "a folder the user may not write"
	[ -z "$(ls -A "$tmp/locked")" ] || fail "files left: $(ls -A "$tmp/locked")"
else
	echo "note: not root, or nobody cannot run the build: EACCES not tried"
fi
echo "PASS: monitor btrace save names each failure and leaves no partial bundle"
