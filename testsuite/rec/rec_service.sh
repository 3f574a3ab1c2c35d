#!/bin/sh
# A threaded service under `ptstub record --attach` (issue 33): the
# service (testsuite/rec/service: a listening socket on loopback, four
# workers) is started alone and the recorder attached to it; a client
# sends requests before, during and after the recording.  Every request
# is answered, and with the same answer; a SIGUSR2 snapshot taken while
# the client runs holds the service's five threads, each with trace;
# after SIGINT to ptstub the service is no longer traced and still
# answers.
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

"$svc" "$tmp/port" 4 2>"$tmp/svc.err" &
spid=$!
for i in $(seq 1 200); do
	[ -s "$tmp/port" ] && break
	sleep 0.05
done
[ -s "$tmp/port" ] || fail "the service did not start: $(cat "$tmp/svc.err")"
port=$(cat "$tmp/port")
requests 40 4 before

"$stub" record -o "$tmp/s.ptb" --attach "$spid" 2>"$tmp/rec.err" &
rpid=$!
tracer() {
	sed -n 's/^TracerPid:[	 ]*//p' "/proc/$spid/status" 2>/dev/null
}
for i in $(seq 1 200); do
	[ "$(tracer)" = "$rpid" ] && break
	sleep 0.05
done
[ "$(tracer)" = "$rpid" ] || fail "not attached: $(cat "$tmp/rec.err")"

# Requests in turn reach every worker; then more, with the snapshot
# taken while they are served.
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

kill -INT "$rpid"
wait "$rpid"
status=$?
rpid=
[ "$status" = 0 ] || fail "ptstub exits $status: $(cat "$tmp/rec.err")"
[ "$(tracer)" = 0 ] || fail "the service is still traced after the detach"
requests 40 4 after
kill -0 "$spid" || fail "the service is gone"
echo "PASS: every request answered before, during and after the recording ($first_reply)"
