#!/bin/sh
# LLDB's timestamps on an exported recording.  testsuite/rec/sleepy
# (a function, a 150 ms sleep, another function) recorded to its exit
# and written as LLDB's trace bundle carries the bundle's TSC
# conversion (tscPerfZeroConversion), so that lldb-22's `thread trace
# dump instructions --time` gives every instruction a timestamp, they
# never go back, and after_sleep starts 150 ms to 2 s after before_sleep
# ends.  SKIPs without lldb-22.
set -u
. "${top_srcdir:-.}/testsuite/rec/lib.sh"
prog=$build/testsuite/rec/sleepy
need_built "$stub" "$tool" "$prog"
lldb=${LLDB:-$(command -v lldb-22)}
if [ -z "$lldb" ]; then
	echo "SKIP: rec_time_lldb: no lldb-22"
	exit 77
fi

"$stub" record --btrace-engine=cache --at-exit -o "$tmp/sleepy.ptb" \
	-- "$prog" >"$tmp/out" 2>"$tmp/err" || fail "record: $(cat "$tmp/err")"
"$tool" export --format=lldb "$tmp/lldb" "$tmp/sleepy.ptb" 2>"$tmp/err" ||
	fail "export: $(cat "$tmp/err")"
grep -q '"tscPerfZeroConversion"' "$tmp/lldb/trace.json" ||
	fail "no TSC conversion in trace.json"

# The newest instructions, back past before_sleep: the program's own
# part after the dynamic loader's start.
cat >"$tmp/cmds" <<EOC
trace load $tmp/lldb/trace.json
thread trace dump instructions --time --json -c 60000 -F $tmp/dump.json
EOC
timeout 300 "$lldb" --no-lldbinit -b -s "$tmp/cmds" >"$tmp/lldb.out" 2>&1 ||
	fail "lldb: $(tail -5 "$tmp/lldb.out")"
python3 - "$tmp/dump.json" <<'PY' || fail "LLDB's timestamps are wrong"
import json, sys
items = sorted((i for i in json.load(open(sys.argv[1])) if "loadAddress" in i),
               key=lambda i: i["id"])
untimed = [i["id"] for i in items if "timestamp_ns" not in i]
if not items or untimed:
    sys.exit(print(len(items), "instructions,", len(untimed), "untimed") or 1)
ns = [float(i["timestamp_ns"]) for i in items]
back = [items[k]["id"] for k in range(1, len(ns)) if ns[k] < ns[k - 1]]
if back:
    sys.exit(print("time goes back at", back[0]) or 1)
def where(name):
    return [k for k, i in enumerate(items) if i.get("symbol") == name]
before, after = where("before_sleep"), where("after_sleep")
if not before or not after:
    sys.exit(print("missing:", len(before), len(after)) or 1)
apart = ns[after[0]] - ns[before[-1]]
print("LLDB: after_sleep starts %.1f ms after before_sleep ends" % (apart / 1e6))
sys.exit(0 if 150e6 <= apart < 2e9 else 1)
PY
echo "PASS: rec_time_lldb"
