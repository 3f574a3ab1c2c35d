#!/bin/sh
# Time in the recorded trace.  testsuite/rec/sleepy runs a function,
# sleeps 150 ms in nanosleep, runs another.  Recorded to its exit with
# each engine, the bundle says what turns the TSC into time (ptbtrace
# info and its --json: the TSC's frequency, as perf's time_mult and
# time_shift), and
# the trace's TSC packets never go back and show the sleep: one step of
# at least 150 ms (less than 2 s), the run's whole span under 2 s.
# Exported to Chrome's JSON, the time is the trace's: the slice that
# holds the sleep (nanosleep's) lasts 150 ms to 2 s, and after_sleep
# starts 150 ms or more after before_sleep ends; a BTS recording has no
# time and keeps instruction numbers, saying so.
set -u
. "${top_srcdir:-.}/testsuite/rec/lib.sh"
prog=$build/testsuite/rec/sleepy
need_built "$stub" "$tool" "$prog"

for eng in ptrace cache; do
	out=$tmp/$eng.ptb
	"$stub" record --btrace-engine="$eng" --at-exit -o "$out" \
		-- "$prog" >"$tmp/out" 2>"$tmp/err" ||
		fail "$eng: $(cat "$tmp/err")"
	"$tool" info "$out" >"$tmp/info" 2>&1 || fail "$eng: $(cat "$tmp/info")"
	mhz=$(sed -n 's/^Time: TSC at \([0-9.]*\) MHz.*/\1/p' "$tmp/info")
	[ -n "$mhz" ] || fail "$eng: no time in the bundle: $(cat "$tmp/info")"
	# --json says the same (monitor btrace save's bundles say it there only).
	"$tool" --json info "$out" | python3 -c '
import json, sys
t = json.load(sys.stdin)["time"]
sys.exit(0 if "%.3f" % t["tsc_mhz"] == sys.argv[1] and t["mult"] > 0 else 1)
' "$mhz" || fail "$eng: --json info: $("$tool" --json info "$out" 2>&1)"
	"$tool" packets 0,100000000 "$out" >"$tmp/packets" 2>&1 ||
		fail "$eng: packets: $(tail -3 "$tmp/packets")"
	python3 - "$tmp/packets" "$mhz" "$eng" <<'PY' || fail "$eng: the time is wrong"
import sys
mhz = float(sys.argv[2])
tscs = [int(l.split()[3], 16) for l in open(sys.argv[1])
        if len(l.split()) > 3 and l.split()[2] == "tsc"]
if len(tscs) < 3:
    sys.exit(print(sys.argv[3], "only", len(tscs), "TSC packets") or 1)
back = [i for i in range(1, len(tscs)) if tscs[i] < tscs[i - 1]]
if back:
    sys.exit(print(sys.argv[3], "time goes back at TSC", back[0]) or 1)
step = max(b - a for a, b in zip(tscs, tscs[1:])) / mhz / 1000
span = (tscs[-1] - tscs[0]) / mhz / 1000
print(sys.argv[3], "largest step %.1f ms, span %.1f ms" % (step, span))
sys.exit(0 if 150 <= step < 2000 and span < 2000 else 1)
PY
	"$tool" export --format=chrome "$out" >"$tmp/chrome.json" 2>"$tmp/err" ||
		fail "$eng: chrome export: $(cat "$tmp/err")"
	python3 - "$tmp/chrome.json" "$eng" <<'PY' || fail "$eng: the chrome export's time is wrong"
import json, sys
doc = json.load(open(sys.argv[1]))
events, eng = doc["traceEvents"], sys.argv[2]
if doc.get("otherData", {}).get("time") != "tsc":
    sys.exit(print(eng, "not timed:", doc.get("otherData")) or 1)
def only(name):
    found = [e for e in events if e["name"] == name]
    if len(found) != 1:
        sys.exit(print(eng, len(found), "slices for", name) or 1)
    return found[0]
sleep = max((e for e in events if "nanosleep" in e["name"]
             and "@plt" not in e["name"]), key=lambda e: e["dur"])
before, after = only("before_sleep"), only("after_sleep")
apart = after["ts"] - (before["ts"] + before["dur"])
print(eng, "%s %.1f ms, the functions %.1f ms apart"
      % (sleep["name"], sleep["dur"] / 1000, apart / 1000))
ok = 150000 <= sleep["dur"] < 2000000 and apart >= 150000
# Microseconds to the nanosecond, as floats: a nanosecond's slack.
ok = ok and before["ts"] <= sleep["ts"] + 0.001 and \
    sleep["ts"] + sleep["dur"] <= after["ts"] + 0.001
sys.exit(0 if ok else 1)
PY
done

"$stub" record --format=bts --at-exit -o "$tmp/bts.ptb" -- "$prog" \
	>"$tmp/out" 2>"$tmp/err" || fail "bts: $(cat "$tmp/err")"
"$tool" export --format=chrome "$tmp/bts.ptb" >"$tmp/chrome.json" 2>"$tmp/err" ||
	fail "bts: chrome export: $(cat "$tmp/err")"
python3 - "$tmp/chrome.json" <<'PY' || fail "bts: the chrome export is not by instructions"
import json, sys
doc = json.load(open(sys.argv[1]))
events = doc["traceEvents"]
if doc.get("otherData", {}).get("time") != "instructions":
    sys.exit(print("bts:", doc.get("otherData")) or 1)
# Instruction numbers: integers, the first function at number 1.
ok = all(isinstance(e["ts"], int) and isinstance(e["dur"], int)
         for e in events) and min(e["ts"] for e in events) == 1
sys.exit(0 if ok else 1)
PY
echo "PASS: rec_time"
