#!/bin/sh
# ptbtrace's command line on the corpus bundles: exit codes, GDB's texts,
# and damaged bundles rejected with the offset named.
set -u
build=${top_builddir:-.}
tool=$build/ptbtrace
mk=$build/testsuite/btrace/bt_mkcorpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() {
	echo "FAIL: $*"
	exit 1
}

if [ ! -x "$tool" ] || [ ! -x "$mk" ]; then
	echo "SKIP: ptbtrace or bt_mkcorpus not built"
	exit 77
fi
"$mk" calls "$tmp/calls.ptb"
rc=$?
if [ $rc = 77 ]; then
	echo "SKIP: the corpus program is not built"
	exit 77
fi
[ $rc = 0 ] || fail "bt_mkcorpus calls: exit $rc"
"$mk" error "$tmp/error.ptb" || fail "bt_mkcorpus error"

# info: GDB's `info record` lines.
"$tool" info "$tmp/calls.ptb" >"$tmp/info" || fail "info: exit $?"
sed -n 1p "$tmp/info" | grep -qx 'Active record target: record-btrace' ||
	fail "info line 1: $(sed -n 1p "$tmp/info")"
sed -n 2p "$tmp/info" | grep -qx 'Recording format: Intel Processor Trace\.' ||
	fail "info line 2"
sed -n 3p "$tmp/info" | grep -qx 'Buffer size: 16kB\.' || fail "info line 3"
grep -Eqx 'Recorded [0-9]+ instructions in 9 functions \(0 gaps\) for thread 1 \(Thread 4242\.4242\)\.' \
	"$tmp/info" || fail "info counts: $(sed -n 4p "$tmp/info")"

# --json says the same numbers.
"$tool" --json info "$tmp/calls.ptb" >"$tmp/info.json" || fail "json info"
insns=$(sed -n 's/^Recorded \([0-9]*\) .*/\1/p' "$tmp/info")
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["instructions"]==int(sys.argv[2]) and d["functions"]==9 else 1)' \
	"$tmp/info.json" "$insns" || fail "json info disagrees"

# call-history: the default window, numbered from 1, main first and last.
"$tool" call-history "$tmp/calls.ptb" >"$tmp/calls" || fail "call-history"
[ "$(wc -l <"$tmp/calls")" = 9 ] || fail "call-history: $(wc -l <"$tmp/calls") lines"
[ "$(sed -n 1p "$tmp/calls")" = "$(printf '1\tmain')" ] || fail "first line"
[ "$(sed -n 9p "$tmp/calls")" = "$(printf '9\tmain')" ] || fail "last line"
"$tool" call-history /c 3,3 "$tmp/calls.ptb" >"$tmp/c3" || fail "/c 3,3"
[ "$(cat "$tmp/c3")" = "$(printf '3\t    g')" ] || fail "/c 3,3: $(cat "$tmp/c3")"
"$tool" --size=2 call-history - "$tmp/calls.ptb" >"$tmp/s2" || fail "size 2"
[ "$(cut -f1 "$tmp/s2" | tr '\n' ' ')" = "8 9 " ] || fail "size 2 window"
"$tool" call-history /i "$tmp/error.ptb" >"$tmp/err" || fail "error trace"
grep -q '^8	\[decode error (-[0-9]*): .*\]$' "$tmp/err" || fail "gap line"

# insn-history: GDB's window of 10, ending before the pc (main's ret).
"$tool" insn-history "$tmp/calls.ptb" >"$tmp/insns" || fail "insn-history"
[ "$(wc -l <"$tmp/insns")" = 10 ] || fail "insn-history: $(wc -l <"$tmp/insns") lines"
tail -1 "$tmp/insns" | grep -Eq "^$insns	   0x[0-9a-f]{16} <main\+[0-9]+>:	leave\$" ||
	fail "insn-history last line: $(tail -1 "$tmp/insns")"
"$tool" --json insn-history /r 1,3 "$tmp/calls.ptb" >"$tmp/insns.json" ||
	fail "json insn-history"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if [x["index"] for x in d]==[1,2,3] and d[0]["insn"]=="push   %rbp" else 1)' \
	"$tmp/insns.json" || fail "json insn-history: $(cat "$tmp/insns.json")"
"$tool" insn-history /x "$tmp/calls.ptb" 2>"$tmp/stderr" >/dev/null
[ $? = 1 ] || fail "insn-history /x exit"
grep -qx 'Invalid modifier: x\.' "$tmp/stderr" || fail "insn-history /x message"

# replay: commands on stdin, the landing after each.
printf 'reverse-stepi\nbegin\nreverse-stepi\nfrobnicate\ngoto 0\nend\n' |
	"$tool" replay "$tmp/calls.ptb" >"$tmp/replay" 2>"$tmp/stderr"
[ $? = 1 ] || fail "replay exit with bad commands"
# One step back from the end is the last instruction executed.
sed -n 1p "$tmp/replay" | grep -Eq "^$insns	0x[0-9a-f]+\$" ||
	fail "replay: $(cat "$tmp/replay")"
grep -qx 'No more reverse-execution history\.' "$tmp/replay" ||
	fail "replay: no end of history"
grep -q "unknown replay command: frobnicate" "$tmp/stderr" || fail "replay stderr"
grep -qx "Target insn '0' not found\." "$tmp/stderr" || fail "replay goto 0"
[ "$(tail -1 "$tmp/replay" | cut -f1)" = end ] || fail "replay end"
printf 'begin\n' | "$tool" --json replay "$tmp/calls.ptb" |
	python3 -c 'import json,sys; d=json.loads(sys.stdin.readline()); sys.exit(0 if d["instruction"]==1 else 1)' ||
	fail "json replay"
"$tool" --json maint-info "$tmp/calls.ptb" | python3 -c 'import json,sys; sys.exit(0 if json.load(sys.stdin)["packets"]==7 else 1)' ||
	fail "json maint-info"

# packets and maint-info.
"$tool" packets "$tmp/calls.ptb" >"$tmp/pk" || fail "packets"
[ "$(sed -n 1p "$tmp/pk")" = "$(printf '0\t0x0\tpsb')" ] || fail "packets line 1"
"$tool" maint-info "$tmp/calls.ptb" >"$tmp/mi" || fail "maint-info"
grep -qx 'Number of packets: 7\.' "$tmp/mi" || fail "maint-info count"
"$tool" packets 99 "$tmp/calls.ptb" 2>"$tmp/stderr" >/dev/null
[ $? = 1 ] || fail "packets 99 exit"
grep -qx "'99' is out of range\." "$tmp/stderr" || fail "packets 99 message"

# export: folded stacks, and Chrome events that are valid JSON.
"$tool" export --format=folded "$tmp/calls.ptb" >"$tmp/folded" || fail "folded"
[ "$(cut -d' ' -f1 "$tmp/folded" | tr '\n' ' ')" = "main main;f main;f;g " ] ||
	fail "folded stacks: $(cat "$tmp/folded")"
"$tool" export --format=chrome "$tmp/error.ptb" >"$tmp/chrome" || fail "chrome"
python3 -c 'import json,sys; e=json.load(open(sys.argv[1]))["traceEvents"]; sys.exit(0 if any(x["cat"]=="gap" for x in e) else 1)' \
	"$tmp/chrome" || fail "chrome JSON"
"$tool" export --format=svg "$tmp/calls.ptb" >/dev/null 2>&1
[ $? = 2 ] || fail "unknown export format"

# GDB's argument errors, on stderr, exit 1.
"$tool" call-history /x "$tmp/calls.ptb" 2>"$tmp/stderr" >/dev/null
[ $? = 1 ] || fail "/x exit"
grep -qx 'Invalid modifier: x\.' "$tmp/stderr" || fail "/x message"
"$tool" call-history 0 "$tmp/calls.ptb" 2>"$tmp/stderr" >/dev/null
[ $? = 1 ] || fail "0 exit"
grep -qx 'Range out of bounds\.' "$tmp/stderr" || fail "0 message"

# Damaged bundles: exit 1, the offset named.
cp "$tmp/calls.ptb" "$tmp/bad.ptb"
printf '\377' | dd of="$tmp/bad.ptb" bs=1 seek=40 conv=notrunc 2>/dev/null
"$tool" info "$tmp/bad.ptb" >/dev/null 2>"$tmp/stderr"
[ $? = 1 ] || fail "damaged bundle accepted"
grep -q 'at offset 0x1c: checksum mismatch' "$tmp/stderr" ||
	fail "damaged: $(cat "$tmp/stderr")"
head -c 100 "$tmp/calls.ptb" >"$tmp/short.ptb"
"$tool" info "$tmp/short.ptb" >/dev/null 2>"$tmp/stderr"
[ $? = 1 ] || fail "truncated bundle accepted"
grep -q 'at offset 0x64: truncated' "$tmp/stderr" ||
	fail "truncated: $(cat "$tmp/stderr")"
"$tool" info "$tmp/none.ptb" >/dev/null 2>&1
[ $? = 1 ] || fail "missing file"

# Usage errors exit 2.
"$tool" >/dev/null 2>&1
[ $? = 2 ] || fail "no arguments"
"$tool" frobnicate "$tmp/calls.ptb" >/dev/null 2>&1
[ $? = 2 ] || fail "unknown command"
echo "PASS: ptbtrace command line"
