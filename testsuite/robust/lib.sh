# Helpers for the robustness tests (sourced): a ptstub on a free port,
# GDB in batch mode, failure and skip.  Each test sets $prog and calls
# start_stub; the EXIT trap stops the stub and removes $tmp.
build=${top_builddir:-.}
src=${top_srcdir:-.}
stub=${PTSTUB:-$build/ptstub}
gdb=${GDB:-gdb}
tmp=$(mktemp -d)
spid=
port=

cleanup() {
	[ -n "$spid" ] && kill -9 "$spid" 2>/dev/null && wait "$spid" 2>/dev/null
	[ -n "${extra_cleanup:-}" ] && eval "$extra_cleanup"
	rm -rf "$tmp"
}
trap cleanup EXIT

fail() {
	echo "FAIL: $*"
	exit 1
}

skip() {
	echo "SKIP: $*"
	exit 77
}

need_gdb() {
	command -v "$gdb" >/dev/null 2>&1 || skip "no GDB"
	[ -x "$stub" ] || fail "$stub is not built"
}

# start_stub [ENV=VAL...] -- [STUB ARGS...]: ptstub ARGS on a free
# loopback port (the port replaces @PORT@ in ARGS), its pid in $spid and
# its output in $tmp/stub.log.
start_stub() {
	for try in 1 2 3 4 5 6 7 8; do
		port=$((20000 + ($$ * 7 + try * 131) % 30000))
		args=
		for a in "$@"; do
			args="$args '$(printf %s "$a" | sed "s/@PORT@/$port/g; s/'/'\\\\''/g")'"
		done
		eval "exec \"\$stub\" $args" >"$tmp/stub.log" 2>&1 </dev/null &
		spid=$!
		for wait in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
			grep -q "^Listening on port" "$tmp/stub.log" 2>/dev/null && return 0
			kill -0 "$spid" 2>/dev/null || break
			sleep 0.2
		done
		kill -9 "$spid" 2>/dev/null
		wait "$spid" 2>/dev/null
		spid=
	done
	fail "no ptstub listening: $(cat "$tmp/stub.log")"
}

# stop_stub: SIGTERM, then SIGKILL after 3 s; its exit status in $stub_rc.
stop_stub() {
	kill "$spid" 2>/dev/null
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
		kill -0 "$spid" 2>/dev/null || break
		sleep 0.2
	done
	kill -9 "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
	stub_rc=$?
	spid=
}

# run_gdb NAME PROG: run $tmp/NAME.gdb in batch mode, output in
# $tmp/NAME.out (stdout and stderr, its first megabyte: a GDB in a loop
# of warnings must not fill the disk).
run_gdb() {
	timeout "${gdb_timeout:-60}" "$gdb" -nx -batch -iex 'set pagination off' \
		-iex 'set confirm off' -x "$tmp/$1.gdb" "$2" 2>&1 </dev/null |
		head -c 1000000 >"$tmp/$1.out"
}

# expect NAME REGEX WHAT: GDB's output NAME has a line matching REGEX.
expect() {
	grep -Eq -- "$2" "$tmp/$1.out" ||
		fail "$3: no line /$2/ in:
$(head -c 20000 "$tmp/$1.out")"
}

# after_go SECONDS COMMAND...: in the background, once GDB's script has
# run `shell touch $tmp/go` (just before its continue) and SECONDS more
# have passed, run COMMAND; its pid in $killer.  A fixed delay from the
# start would race a slow GDB.
after_go() {
	rm -f "$tmp/go"
	delay=$1
	shift
	(
		for i in $(seq 600); do
			[ -f "$tmp/go" ] && break
			sleep 0.1
		done
		sleep "$delay"
		"$@"
	) &
	killer=$!
}
