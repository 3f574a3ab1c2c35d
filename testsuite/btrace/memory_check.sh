#!/bin/sh
# Memory of the decoded trace (not time): a generated trace of about 10M
# instructions with a function segment every five instructions (bt_prog's
# calls, looped without gaps), decoded by ptbtrace, which reports the
# bytes its blocks and segments take.  Prints bytes per instruction.
# The target, and the limit the check fails above, is 4.
set -u
build=${top_builddir:-.}
tool=$build/ptbtrace
mk=$build/testsuite/btrace/bt_mkcorpus
runs=${BT_MEMORY_RUNS:-232559}
limit=${BT_MEMORY_LIMIT:-4.0}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for f in "$tool" "$mk"; do
	[ -x "$f" ] || { echo "FAIL: $f is not built"; exit 1; }
done
"$mk" "loop=$runs" "$tmp/loop.ptb"
rc=$?
[ $rc = 77 ] && { echo "SKIP: the corpus program is not built"; exit 77; }
[ $rc = 0 ] || { echo "FAIL: bt_mkcorpus loop=$runs: exit $rc"; exit 1; }
"$tool" --json info "$tmp/loop.ptb" >"$tmp/info.json" ||
	{ echo "FAIL: ptbtrace info"; exit 1; }
python3 - "$tmp/info.json" "$limit" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
limit = float(sys.argv[2])
per = d["memory_bytes"] / d["instructions"]
print("memory: %.2f bytes/insn (%d bytes, %d instructions, %d segments); "
      "limit %.1f" % (per, d["memory_bytes"], d["instructions"],
                                d["functions"], limit))
if d["instructions"] < 10_000_000:
    print("FAIL: the trace has only %d instructions" % d["instructions"])
    sys.exit(1)
sys.exit(0 if per <= limit else 1)
PY
