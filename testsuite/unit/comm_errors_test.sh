#!/bin/sh
# A COMM ptstub cannot listen on is refused before any program starts,
# in gdbserver's words (GDB's server-connect.exp waits for them): the
# same bad COMMs go to both stubs and what they print must match.
: "${top_builddir:=.}"
: "${PTSTUB:=$top_builddir/ptstub}"
if [ -z "$GDBSERVER" ] || [ "$GDBSERVER" = no ] || [ ! -x "$GDBSERVER" ]; then
	echo "SKIP: no gdbserver to compare with"; exit 77
fi
[ -x "$PTSTUB" ] || { echo "SKIP: $PTSTUB not built"; exit 77; }

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0

# What STUB prints for COMM (the program is never started).
run() {
	timeout 10 "$1" --once "$2" /bin/true >"$tmp/out" 2>&1 </dev/null
	echo "exit $?" >>"$tmp/out"
	# gdbserver exits 0 after "Exiting"; ptstub 1: only the text counts.
	sed 's/^exit [0-9]*$/exit/' "$tmp/out"
}

for comm in tcp8:123:2345 udp123:::2345 garbage:1234:2345 \
	    no-such-host.invalid:1 '[::1' '[::1]x:1' '::1]:1'; do
	want=$(run "$GDBSERVER" "$comm")
	got=$(run "$PTSTUB" "$comm")
	if [ "$want" != "$got" ]; then
		echo "FAIL: COMM '$comm'"
		echo "  gdbserver: $want" | tr '\n' ' '; echo
		echo "  ptstub:    $got" | tr '\n' ' '; echo
		fail=1
	else
		echo "ok: COMM '$comm': $(echo "$got" | head -n 1)"
	fi
	case $got in *"Process "*) echo "FAIL: a program was started"; fail=1 ;; esac
done

# A port in use: the same message, and again no program.
python3 -c '
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
print(s.getsockname()[1], flush=True); time.sleep(60)' >"$tmp/port" &
holder=$!
# Up to 30 s: python's start-up alone took over 2 s on a loaded machine.
for _ in $(seq 150); do [ -s "$tmp/port" ] && break; sleep 0.2; done
port=$(cat "$tmp/port")
[ -n "$port" ] || { echo "FAIL: the port holder did not start"; exit 1; }
got=$(run "$PTSTUB" "127.0.0.1:$port")
kill "$holder" 2>/dev/null
case $got in
"Can't bind address: Address already in use."*Exiting*) echo "ok: port in use" ;;
*) echo "FAIL: port in use: $got"; fail=1 ;;
esac
exit $fail
