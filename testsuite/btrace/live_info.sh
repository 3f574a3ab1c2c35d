#!/bin/sh
# ptbtrace on a live stub (HOST:PORT): GDB records bt_prog through ptstub,
# prints `info record` and the call history, and disconnects (the stub
# keeps the program stopped, still traced); ptbtrace then reads the same
# trace over the remote protocol and must print the same lines.  A second
# stub whose program is not traced: ptbtrace enables tracing, reads the
# empty trace and disables it again.  Skips only without GDB.
set -u
build=${top_builddir:-.}
tool=$build/ptbtrace
stub=${PTSTUB:-$build/ptstub}
prog=$build/testsuite/btrace/bt_prog
gdb=${GDB:-gdb}
tmp=$(mktemp -d)
spid=
cleanup() {
	[ -n "$spid" ] && kill "$spid" 2>/dev/null && wait "$spid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

fail() {
	echo "FAIL: $*"
	exit 1
}

command -v "$gdb" >/dev/null 2>&1 || { echo "SKIP: no GDB"; exit 77; }
for f in "$stub" "$tool" "$prog"; do
	[ -x "$f" ] || fail "$f is not built"
done

# start_stub: a ptstub for bt_prog on a free port, its pid in $spid.
start_stub() {
	for try in 1 2 3 4 5 6 7 8; do
		port=$((20000 + ($$ * 7 + try * 131) % 30000))
		"$stub" ":$port" "$prog" >"$tmp/stub.log" 2>&1 &
		spid=$!
		for wait in 1 2 3 4 5 6 7 8 9 10; do
			grep -q "^Listening on port" "$tmp/stub.log" && return 0
			kill -0 "$spid" 2>/dev/null || break
			sleep 0.2
		done
		kill "$spid" 2>/dev/null
		wait "$spid" 2>/dev/null
		spid=
	done
	fail "no ptstub listening: $(cat "$tmp/stub.log")"
}

stop_stub() {
	kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
	spid=
}

line=$(grep -n 'L:main_close' "${top_srcdir:-.}/testsuite/btrace/bt_prog.c" |
	cut -d: -f1)
start_stub
cat >"$tmp/cmds" <<EOF2
set pagination off
target remote 127.0.0.1:$port
break main
continue
record btrace pt
break bt_prog.c:$line
continue
echo ==info\n
info record
echo ==calls\n
record function-call-history /ilc
echo ==end\n
disconnect
EOF2
timeout 120 "$gdb" -nx -batch -x "$tmp/cmds" "$prog" >"$tmp/gdb.out" \
	2>"$tmp/gdb.err" </dev/null
sed -n '/^==info$/,/^==calls$/p' "$tmp/gdb.out" | sed '1d;$d' >"$tmp/gdb.info"
sed -n '/^==calls$/,/^==end$/p' "$tmp/gdb.out" | sed '1d;$d' >"$tmp/gdb.calls"
grep -q '^Recorded [1-9]' "$tmp/gdb.info" ||
	fail "GDB recorded nothing: $(tail -5 "$tmp/gdb.out" "$tmp/gdb.err")"

timeout 60 "$tool" info "127.0.0.1:$port" >"$tmp/our.info" 2>&1 ||
	fail "ptbtrace info: $(cat "$tmp/our.info")"
diff -u "$tmp/gdb.info" "$tmp/our.info" || fail "info differs from GDB's"
timeout 60 "$tool" call-history /ilc "127.0.0.1:$port" >"$tmp/our.calls" \
	2>&1 || fail "ptbtrace call-history: $(cat "$tmp/our.calls")"
diff -u "$tmp/gdb.calls" "$tmp/our.calls" ||
	fail "call-history differs from GDB's"
stop_stub

# Not traced: enabled, read (nothing yet) and disabled again.
start_stub
timeout 60 "$tool" --json info "127.0.0.1:$port" >"$tmp/fresh.json" 2>&1 ||
	fail "ptbtrace on an untraced thread: $(cat "$tmp/fresh.json")"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["format"]=="pt" and d["instructions"]==0 else 1)' \
	"$tmp/fresh.json" || fail "untraced: $(cat "$tmp/fresh.json")"
timeout 60 "$tool" --json info "127.0.0.1:$port" >"$tmp/again.json" 2>&1 ||
	fail "second read: tracing was not disabled? $(cat "$tmp/again.json")"
stop_stub

# Nothing listening: a clear error, exit 1.
"$tool" info 127.0.0.1:1 >/dev/null 2>"$tmp/stderr"
[ $? = 1 ] || fail "no stub: exit status"
grep -q "cannot connect" "$tmp/stderr" || fail "no stub: $(cat "$tmp/stderr")"
echo "PASS: ptbtrace reads a live stub as GDB does"
