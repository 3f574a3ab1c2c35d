#!/bin/sh
# ptstub warns, before "Listening on port", when the network can reach
# it (0.0.0.0, [::], a non-loopback address of this machine): anyone who
# connects can run programs as its user.  Loopback (:PORT, 127.0.0.1,
# [::1], localhost) and stdio get no warning.
set -u
. "${top_srcdir:-.}/testsuite/robust/lib.sh"
[ -x "$stub" ] || fail "$stub is not built"
prog=$build/testsuite/programs/bin/plain
[ -x "$prog" ] || fail "$prog is not built"
user=$(id -un)

# listen COMM: ptstub's stderr until it listens, in $tmp/err.
listen() {
	: >"$tmp/err"
	"$stub" --once "$1" "$prog" 2>"$tmp/err" >/dev/null </dev/null &
	spid=$!
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		grep -q '^Listening on port' "$tmp/err" && break
		kill -0 "$spid" 2>/dev/null || break
		sleep 0.1
	done
	stop_stub
	grep -q '^Listening on port' "$tmp/err" || return 1
	return 0
}

warned() {
	listen "$1" || fail "$1: no listener: $(cat "$tmp/err")"
	grep "^Warning: listening on " "$tmp/err" |
		grep -F "Warning: listening on $2 ($1): anyone who can reach port" |
		grep -Fq "can run programs and read or write files as user $user." ||
		fail "$1: no warning: $(cat "$tmp/err")"
	# Before the line tools wait for.
	[ "$(grep -n '' "$tmp/err" | grep -m1 'Warning' | cut -d: -f1)" -lt \
	  "$(grep -n '^Listening' "$tmp/err" | cut -d: -f1)" ] ||
		fail "$1: the warning comes after Listening: $(cat "$tmp/err")"
}

quiet() {
	listen "$1" || return 0    # e.g. no IPv6 here
	grep -q 'Warning' "$tmp/err" && fail "$1: a warning: $(cat "$tmp/err")"
	return 0
}

warned 0.0.0.0:0 "every network interface"
if listen '[::]:0'; then
	warned '[::]:0' "every network interface"
else
	echo "note: no IPv6 here, [::] not tried"
fi
ip=$(hostname -I 2>/dev/null | tr ' ' '\n' | grep -m1 -E '^[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+$' || true)
case $ip in
127.*|"") echo "note: no non-loopback IPv4 address here" ;;
*) warned "$ip:0" "a network address" ;;
esac
quiet :0
quiet 127.0.0.1:0
quiet '[::1]:0'
quiet localhost:0
echo "PASS: a warning when the network can reach ptstub, none on loopback"
