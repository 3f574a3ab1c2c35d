#!/bin/sh
# A thread that ended keeps its trace in the recording.
# testsuite/rec/ended_threads runs threads one after another, each its
# own function (ended_work_0, _1, _2), each ending before the program
# does.  Recorded to its exit (--at-exit), with each engine and in PT
# and BTS, the bundle holds the main thread and every ended thread,
# marked ended, and an ended thread's call history runs through its
# function.  With --ended-size smaller than the ended threads' traces
# the oldest is dropped, and the bundle (ptbtrace info) and ptstub's
# log say so.  --full keeps an ended thread's stream, marked ended.
set -u
. "${top_srcdir:-.}/testsuite/rec/lib.sh"
prog=$build/testsuite/rec/ended_threads
need_built "$stub" "$tool" "$prog"

# info_json FILE EXPR: EXPR (Python, over d, the --json info) holds.
info_json() {
	"$tool" --json info "$1" >"$tmp/info.json" 2>&1 ||
		fail "info of $1: $(cat "$tmp/info.json")"
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2]) else 1)' "$tmp/info.json" "$2"
}

# ended_tids FILE: the ended threads' ids, in the bundle's order.
ended_tids() {
	"$tool" --json info "$1" | python3 -c '
import json, sys
print(" ".join(str(t["tid"]) for t in json.load(sys.stdin)["threads"] if t["ended"]))'
}

# history FILE TID FUNC: thread TID's call history runs through FUNC.
history() {
	"$tool" call-history --size=0 --thread="$2" "$1" >"$tmp/h" 2>"$tmp/h.err" ||
		fail "history of thread $2 in $1: $(cat "$tmp/h.err")"
	grep -q "	$3$" "$tmp/h" ||
		fail "thread $2 of $1 never ran $3: $(head -n 20 "$tmp/h")"
}

for case in ptrace:pt cache:pt ptrace:bts; do
	eng=${case%:*} fmt=${case#*:}
	out=$tmp/$eng-$fmt.ptb
	"$stub" record --btrace-engine="$eng" --format="$fmt" --at-exit \
		-o "$out" -- "$prog" 1 5000 >"$tmp/out" 2>"$tmp/err" ||
		fail "$case: $(cat "$tmp/err")"
	grep -q "^ptstub: snapshot 0: exit, 2 threads," "$tmp/err" ||
		fail "$case: $(cat "$tmp/err")"
	info_json "$out" 'len(d["threads"]) == 2 and not d["threads"][0]["ended"] and d["threads"][1]["ended"] and d["ended"]["budget"] == 64 << 20 and d["ended"]["dropped"] == 0' ||
		fail "$case: $(cat "$tmp/info.json")"
	tid=$(ended_tids "$out")
	history "$out" "$tid" ended_work_0
	main=$(sed 's/.*"tid": \([0-9]*\), "instructions".*/\1/' "$tmp/info.json")
	history "$out" "$main" main_goes_on
	"$tool" info "$out" | grep -q "^  Thread [0-9]*\.$tid: [0-9]* bytes of [a-z]*, ended\.$" ||
		fail "$case: info: $("$tool" info "$out")"
	echo "PASS: $case: the ended thread $tid is in the bundle, through ended_work_0"
done

# Three ended threads; a budget that holds two of them drops the first.
# Two runs differ a little in trace size (the TSC packets come with the
# time a stop takes), hence the margins.
"$stub" record --at-exit -o "$tmp/all.ptb" -- "$prog" 3 5000 \
	>"$tmp/out" 2>"$tmp/err" || fail "three threads: $(cat "$tmp/err")"
set -- $(ended_tids "$tmp/all.ptb")
[ $# = 3 ] || fail "three threads: ended $*"
first=$1
sizes=$("$tool" --json info "$tmp/all.ptb" | python3 -c '
import json, sys
t = [t["trace_bytes"] for t in json.load(sys.stdin)["threads"] if t["ended"]]
print(t[0], t[1] + t[2] + t[0] // 2)')
drop=${sizes% *} budget=${sizes#* }
"$stub" record --at-exit --ended-size="$budget" -o "$tmp/b.ptb" -- \
	"$prog" 3 5000 >"$tmp/out" 2>"$tmp/err" || fail "budget: $(cat "$tmp/err")"
grep -q "^ptstub: snapshot 0: exit, 3 threads," "$tmp/err" ||
	fail "budget $budget: $(cat "$tmp/err")"
grep -q "^ptstub: snapshot 0: 1 ended thread left out ([0-9]* bytes of trace), the oldest, to keep ended threads within --ended-size=$budget$" "$tmp/err" ||
	fail "budget $budget: the log does not say so: $(cat "$tmp/err")"
info_json "$tmp/b.ptb" "d['ended']['budget'] == $budget and d['ended']['dropped'] == 1 and abs(d['ended']['dropped_bytes'] - $drop) <= $drop // 10 + 64" ||
	fail "budget $budget: $(cat "$tmp/info.json")"
set -- $(ended_tids "$tmp/b.ptb")
[ $# = 2 ] || fail "budget $budget: ended $*"
history "$tmp/b.ptb" "$1" ended_work_1
history "$tmp/b.ptb" "$2" ended_work_2
"$tool" info "$tmp/b.ptb" | grep -q "^Ended threads: kept within [0-9]*[kM]*B* of trace; 1 dropped, the oldest ([0-9]* bytes of trace)\.$" ||
	fail "budget $budget: info: $("$tool" info "$tmp/b.ptb")"
echo "PASS: --ended-size=$budget kept the last two ended threads, dropped the oldest and said so"

# --full: the ended thread's whole stream, marked ended.
"$stub" record --full -o "$tmp/f.ptb" -- "$prog" 1 5000 >"$tmp/out" \
	2>"$tmp/err" || fail "--full: $(cat "$tmp/err")"
info_json "$tmp/f.ptb" 'len(d["threads"]) == 2 and sorted(t["ended"] for t in d["threads"]) == [False, True] and d["ended"]["budget"] == 0' ||
	fail "--full: $(cat "$tmp/info.json")"
history "$tmp/f.ptb" "$(ended_tids "$tmp/f.ptb")" ended_work_0
echo "PASS: --full keeps the ended thread's stream, marked ended"
