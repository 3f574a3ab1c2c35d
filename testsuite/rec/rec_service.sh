#!/bin/sh
# A threaded service under `ptstub record --attach` (issue 33): the
# service (testsuite/rec/service: a listening socket on loopback, four
# workers) is started alone and the recorder attached to it; a client
# sends requests before, during and after the recording.  Every request
# is answered, and with the same answer; a SIGUSR2 snapshot taken while
# the client runs holds the service's five threads, each with trace;
# after SIGINT to ptstub the service is no longer traced and still
# answers.  Then the same service with a thread per request: the
# threads that served during the recording, ended by the snapshot, are
# in it with their trace.
set -u
. "${top_srcdir:-.}/testsuite/rec/lib.sh"
svc=$build/testsuite/rec/service
client=$build/testsuite/rec/service_client
need_built "$stub" "$tool" "$svc" "$client"

spid=
cleanup_service() {
	[ -n "$spid" ] && kill "$spid" 2>/dev/null
	cleanup
}
trap cleanup_service EXIT

# requests N CONC LABEL: N requests from CONC threads, every one
# answered with the answer the first batch got.
requests() {
	timeout 300 "$client" "$port" "$1" "$2" >"$tmp/$3.out" 2>&1 ||
		fail "$3: not every request answered: $(cat "$tmp/$3.out")"
	reply=$(sed -n 's/.* reply=//p' "$tmp/$3.out")
	case $reply in
	pong_*) ;;
	*) fail "$3: the answer is '$reply'" ;;
	esac
	[ -z "${first_reply:-}" ] && first_reply=$reply
	[ "$reply" = "$first_reply" ] ||
		fail "$3: the answer is '$reply', it was '$first_reply'"
}

# start WORKERS: the service, alone, with 40 requests answered.
start() {
	rm -f "$tmp/port"
	"$svc" "$tmp/port" "$1" 2>"$tmp/svc.err" &
	spid=$!
	for i in $(seq 1 200); do
		[ -s "$tmp/port" ] && break
		sleep 0.05
	done
	[ -s "$tmp/port" ] || fail "the service did not start: $(cat "$tmp/svc.err")"
	port=$(cat "$tmp/port")
	requests 40 4 before
}

tracer() {
	sed -n 's/^TracerPid:[	 ]*//p' "/proc/$spid/status" 2>/dev/null
}

# record BUNDLE: the recorder attached; requests in turn reach every
# worker; then more, with a SIGUSR2 snapshot taken while they are
# served.
record() {
	rm -f "$tmp/rec.err"
	"$stub" record --stats -o "$1" --attach "$spid" 2>"$tmp/rec.err" &
	rpid=$!
	for i in $(seq 1 200); do
		[ "$(tracer)" = "$rpid" ] && break
		sleep 0.05
	done
	[ "$(tracer)" = "$rpid" ] || fail "not attached: $(cat "$tmp/rec.err")"
	requests 40 4 during
	timeout 300 "$client" "$port" 400 4 >"$tmp/snap.out" 2>&1 &
	cpid=$!
	sleep 0.2
	kill -USR2 "$rpid" || fail "the recorder is gone: $(cat "$tmp/rec.err")"
	for i in $(seq 1 400); do
		grep -q "^ptstub: snapshot 0: " "$tmp/rec.err" && break
		sleep 0.05
	done
	wait "$cpid" || fail "during the snapshot: not every request answered: $(cat "$tmp/snap.out")"
	grep -q "reply=$first_reply\$" "$tmp/snap.out" ||
		fail "during the snapshot: $(cat "$tmp/snap.out")"
}

# detach: SIGINT to ptstub; the service, untraced, still answers.
detach() {
	kill -INT "$rpid"
	wait "$rpid"
	status=$?
	rpid=
	[ "$status" = 0 ] || fail "ptstub exits $status: $(cat "$tmp/rec.err")"
	# --stats: the main thread's line when the recording ends.
	grep -q "^ptstub record: Thread $spid\.$spid: engine code cache, [1-9][0-9]* instructions recorded" \
		"$tmp/rec.err" ||
		fail "no --stats line at the detach: $(cat "$tmp/rec.err")"
	[ "$(tracer)" = 0 ] || fail "the service is still traced after the detach"
	requests 40 4 after
	kill -0 "$spid" || fail "the service is gone"
}

start 4
record "$tmp/s.ptb"
grep -q "^ptstub: snapshot 0: request, 5 threads, [0-9]* bytes, $tmp/s.ptb\$" \
	"$tmp/rec.err" || fail "the snapshot: $(cat "$tmp/rec.err")"
"$tool" info "$tmp/s.ptb" >"$tmp/info" 2>&1 || fail "$(cat "$tmp/info")"
grep -q "^Threads in the bundle: 5\.$" "$tmp/info" ||
	fail "not the service's 5 threads: $(cat "$tmp/info")"
for tid in $(ls "/proc/$spid/task"); do
	grep -q "^  Thread $spid\.$tid: [1-9][0-9]* bytes of trace" "$tmp/info" ||
		fail "thread $tid has no trace: $(cat "$tmp/info")"
done
"$tool" call-history --size=0 "$tmp/s.ptb" >"$tmp/hist" 2>&1 ||
	fail "the snapshot does not decode: $(tail -3 "$tmp/hist")"
echo "PASS: a SIGUSR2 snapshot holds the service's 5 threads, each with trace"

detach
echo "PASS: every request answered before, during and after the recording ($first_reply)"
kill "$spid"
wait "$spid" 2>/dev/null

# A thread per request: the snapshot holds the main thread and threads
# that served and ended, each with its trace.
start 0
record "$tmp/t.ptb"
grep -q "^ptstub: snapshot 0: request, [0-9]* threads, [0-9]* bytes, $tmp/t.ptb\$" \
	"$tmp/rec.err" || fail "thread per request: $(cat "$tmp/rec.err")"
"$tool" info "$tmp/t.ptb" >"$tmp/tinfo" 2>&1 || fail "$(cat "$tmp/tinfo")"
grep -q "^  Thread $spid\.$spid: [1-9][0-9]* bytes of trace" "$tmp/tinfo" ||
	fail "thread per request: no main thread: $(cat "$tmp/tinfo")"
ended=$(grep -c "^  Thread $spid\.[0-9]*: [1-9][0-9]* bytes of trace, ended\.\$" "$tmp/tinfo")
[ "$ended" -ge 40 ] ||
	fail "thread per request: $ended ended threads with trace: $(head -20 "$tmp/tinfo")"
# (A thread just created may not have run yet; one that ended has.)
! grep -q " 0 bytes of trace, ended" "$tmp/tinfo" ||
	fail "thread per request: an ended thread without trace: $(grep " 0 bytes" "$tmp/tinfo")"
detach
echo "PASS: a thread per request: $ended ended threads in the snapshot, each with trace; answered after the detach"
