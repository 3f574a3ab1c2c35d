#!/bin/sh
# perf reads `ptbtrace export --format=perf`: perf's own Intel PT decoder
# (not libipt) is a second, independent decoder of the emulator's traces.
# For each corpus program, recorded once by single-stepping (the truth)
# and once through the emulator (bt_perf_record):
#  - perf script --itrace=i0ns -F tid,ip equals the single-step sequence;
#  - perf script --itrace=cr counts as many calls and returns as
#    ptbtrace's function-call history has segments entered by a call or a
#    return (the last instruction of the segment before, from ptbtrace's
#    instruction history);
#  - BTS: perf's branch samples are the truth's branches, in order;
#  - several threads in one file: each decoded as its own run.
# Then perf report names the hottest function ptbtrace's instruction
# counts name, export-to-sqlite.py's calls table has ptbtrace's calls
# (each call's stack), and bad input gets a clear error and no file.
set -u
build=${top_builddir:-.}
tool=$build/ptbtrace
rec=$build/testsuite/btrace/bt_perf_record
progs=$build/testsuite/emu/progs
sqlite_script=${PERF_EXPORT_SQLITE:-/usr/lib/perf-core/scripts/python/export-to-sqlite.py}
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
failed=0

fail() {
	echo "FAIL: $*"
	failed=1
}

command -v perf >/dev/null 2>&1 || { echo "SKIP: no perf (Debian's linux-perf)"; exit 77; }
perf script --help >/dev/null 2>&1 || perf version >/dev/null 2>&1 ||
	{ echo "SKIP: perf does not run here"; exit 77; }
for f in "$tool" "$rec" "$progs/recursion"; do
	[ -x "$f" ] || { echo "FAIL: $f is not built"; exit 1; }
done

# record NAME FORMAT PROG ARG: $tmp/NAME.ptb, .truth and .data, recorded
# by the engine $engine names (empty: the ptrace engine).
engine=
record() {
	"$rec" $engine "$2" "$progs/$3" "$4" "$tmp/$1.ptb" "$tmp/$1.truth" \
		>"$tmp/$1.rec" 2>&1
	rc=$?
	if [ $rc = 77 ]; then
		cat "$tmp/$1.rec"
		exit 77
	fi
	[ $rc = 0 ] || { fail "$1: recording: $(tail -3 "$tmp/$1.rec")"; return 1; }
	"$tool" export --format=perf -o "$tmp/$1.data" "$tmp/$1.ptb" ||
		{ fail "$1: export"; return 1; }
}

# The mnemonic after prefixes, for each instruction of ptbtrace's history.
count_py='
import json, sys
segs = json.load(open(sys.argv[1])); insns = json.load(open(sys.argv[2]))
text = {x["index"]: x.get("insn", "") for x in insns if "index" in x}
calls = rets = 0
for s in segs:
    words = [w for w in text.get(s.get("insn_end"), "").split()
             if w not in ("bnd", "notrack")]
    if words and words[0].startswith("call"):
        calls += 1
    elif words and words[0].startswith("ret"):
        rets += 1
print(calls, rets)
'

# check_pt_insns NAME: perf's instructions are the single-step run's.
check_pt_insns() {
	name=$1
	perf script -i "$tmp/$name.data" --itrace=i0ns -F tid,ip \
		2>"$tmp/$name.err" | awk '{ print $1, $2 }' >"$tmp/$name.perf"
	if cmp -s "$tmp/$name.truth" "$tmp/$name.perf"; then
		echo "ok: $name: perf decodes the $(wc -l <"$tmp/$name.truth") single-stepped instructions"
	else
		fail "$name: perf's instructions differ from single-step ($(wc -l <"$tmp/$name.perf") vs $(wc -l <"$tmp/$name.truth")):"
		diff "$tmp/$name.truth" "$tmp/$name.perf" | head -5
		head -3 "$tmp/$name.err"
	fi
}

# check_pt NAME: the instruction sequence, then calls and returns.
check_pt() {
	name=$1
	check_pt_insns "$name"
	set -- $(perf script -i "$tmp/$name.data" --itrace=cr -F tid,flags \
		2>/dev/null | awk '$2 == "call" && NF == 2 { c++ }
			$2 == "return" && NF == 2 { r++ }
			END { print c + 0, r + 0 }')
	pcalls=$1 prets=$2
	"$tool" --json --size=0 call-history /i "$tmp/$name.ptb" >"$tmp/$name.segs" &&
	"$tool" --json --size=0 insn-history "$tmp/$name.ptb" >"$tmp/$name.insns" ||
		{ fail "$name: ptbtrace histories"; return; }
	set -- $(python3 -c "$count_py" "$tmp/$name.segs" "$tmp/$name.insns")
	# ptbtrace's history stops before the current instruction, run's
	# own ret (the recording ends where it returns); perf counts it.
	if [ "$pcalls" = "$1" ] && [ "$prets" = $(($2 + 1)) ] && [ "$1" -gt 0 ]; then
		echo "ok: $name: $pcalls calls and $prets returns, as ptbtrace's call history"
	else
		fail "$name: perf counts $pcalls calls, $prets returns; ptbtrace $1, $2 (+1)"
	fi
}

# check_bts NAME: every branch sample is a step of the truth that is not
# a fall-through, in order, and every jump of the truth is there.
check_bts() {
	name=$1
	perf script -i "$tmp/$name.data" -F tid,ip,addr 2>"$tmp/$name.err" |
		awk '{ print $1, $2, $4 }' >"$tmp/$name.perf"
	if python3 - "$tmp/$name.truth" "$tmp/$name.perf" <<'EOF'
import collections, sys
truth = collections.defaultdict(list)
for line in open(sys.argv[1]):
    tid, ip = line.split()
    truth[tid].append(int(ip, 16))
got = collections.defaultdict(list)
for line in open(sys.argv[2]):
    tid, ip, addr = line.split()
    got[tid].append((int(ip, 16), int(addr, 16)))
if set(got) != set(truth):
    sys.exit("threads %s, truth's %s" % (sorted(got), sorted(truth)))
for tid in truth:
    steps = list(zip(truth[tid], truth[tid][1:]))
    i = 0
    for g in got[tid]:
        while i < len(steps) and steps[i] != g:
            # Skipped steps fall through (an instruction is 1-15 bytes).
            if not 0 < steps[i][1] - steps[i][0] <= 15:
                sys.exit("%s: jump %x -> %x missing" % ((tid,) + steps[i]))
            i += 1
        if i == len(steps):
            sys.exit("%s: branch %x -> %x is not in the truth" % ((tid,) + g))
        i += 1
sys.exit(0 if got else "no branches")
EOF
	then
		echo "ok: $name: perf's $(wc -l <"$tmp/$name.perf") branch samples are the single-stepped branches"
	else
		fail "$name: BTS branch samples disagree with single-step"
	fi
}

# The synthetic corpus (bt_mkcorpus: traces encoded along bt_prog's real
# code, with an overflow and a decode error): perf's decoder and
# ptbtrace's (libipt) give the same instructions.  Its bundles name
# bt_prog relative to the build directory.
for corpus in calls overflow error loop=50; do
	(cd "$build" && ./testsuite/btrace/bt_mkcorpus "$corpus" "$tmp/c.ptb" &&
	 ./ptbtrace export --format=perf -o "$tmp/c.data" "$tmp/c.ptb" &&
	 perf script -i "$tmp/c.data" --itrace=i0ns -F ip 2>/dev/null) |
		awk '{ print $1 }' >"$tmp/c.perf"
	(cd "$build" && ./ptbtrace --json --size=0 insn-history "$tmp/c.ptb") |
		python3 -c '
import json, sys
for x in json.load(sys.stdin):
    if "address" in x:
        print("%x" % int(x["address"], 16))' >"$tmp/c.ours"
	if [ -s "$tmp/c.ours" ] && cmp -s "$tmp/c.ours" "$tmp/c.perf"; then
		echo "ok: corpus $corpus: perf and ptbtrace decode the same $(wc -l <"$tmp/c.ours") instructions"
	else
		fail "corpus $corpus: perf's instructions differ from ptbtrace's"
	fi
done

for spec in recursion:10 loops:- indirect:- libcalls:- longjmp:- \
	    signals:- syscalls:- threads:-; do
	prog=${spec%%:*}
	record "$prog" pt "$prog" "${spec#*:}" && check_pt "$prog"
done
for spec in recursion:10 libcalls:-; do
	prog=${spec%%:*}
	record "$prog-bts" bts "$prog" "${spec#*:}" && check_bts "$prog-bts"
done
# The code-cache engine's traces, decoded by perf, are single-step's too.
engine=--engine=cache
for spec in recursion:10 loops:- indirect:- libcalls:- signals:-; do
	prog=${spec%%:*}
	record "$prog-cache" pt "$prog" "${spec#*:}" && check_pt "$prog-cache"
done
record "recursion-cache-bts" bts recursion 10 && check_bts "recursion-cache-bts"
engine=

# Several threads: three runs of one program (ASLR off: mapped alike) put
# in one perf.data as threads of one process by the exporter's thread
# entry, each with its own trace queue, COMM and tid; perf decodes each
# thread's instructions (branches) as its own single-step run.
"$rec" --threads=3 pt "$progs/recursion" 10 "$tmp/3threads.data" \
	"$tmp/3threads.truth" >"$tmp/3threads.rec" 2>&1 &&
	check_pt_insns 3threads ||
	fail "3threads: recording: $(tail -3 "$tmp/3threads.rec")"
"$rec" --threads=2 bts "$progs/recursion" 10 "$tmp/2threads-bts.data" \
	"$tmp/2threads-bts.truth" >"$tmp/2threads-bts.rec" 2>&1 &&
	check_bts 2threads-bts ||
	fail "2threads-bts: recording: $(tail -3 "$tmp/2threads-bts.rec")"
[ "$(cut -d' ' -f1 "$tmp/3threads.truth" | uniq | wc -l)" = 3 ] ||
	fail "3threads: the truth does not have 3 threads"

# perf report's hottest symbol (sampled every 1000 instructions; perf's
# names keep GCC's clone suffixes) is ptbtrace's by instruction count.
for name in libcalls loops; do
	top_perf=$(perf report -i "$tmp/$name.data" --itrace=i1000i --stdio \
		--sort symbol -q 2>/dev/null | awk 'NF { print $3; exit }' |
		sed 's/\.\(part\|constprop\|isra\|cold\)\..*//')
	top_ours=$(python3 -c '
import collections, json, sys
c = collections.Counter()
for s in json.load(open(sys.argv[1])):
    if "insn_end" in s:
        c[s["function"]] += s["insn_end"] - s["insn_begin"] + 1
print(c.most_common(1)[0][0])' "$tmp/$name.segs")
	if [ -n "$top_perf" ] && [ "$top_perf" = "$top_ours" ]; then
		echo "ok: $name: perf report's hottest function is $top_perf"
	else
		fail "$name: perf report's hottest is '$top_perf', ptbtrace's '$top_ours'"
	fi
done

# export-to-sqlite.py: the calls table (call_id set: entered by a call in
# the trace) holds ptbtrace's calls, each with its call stack.
# perf runs the script with Debian's python (not one first in PATH).
if [ ! -r "$sqlite_script" ] ||
   ! /usr/bin/python3 -c 'import PySide2.QtSql' 2>/dev/null; then
	fail "export-to-sqlite.py cannot run: it needs $sqlite_script and python3-pyside2.qtsql (./bootstrap installs them)"
else
	# Function names agree where symbols do: not in the PLT and the
	# loader (perf names a PLT stub _init, GDB foo@plt).
	for name in recursion loops; do
		(cd "$tmp" && perf script -i "$name.data" --itrace=cr \
			-s "$sqlite_script" "$name.db" branches calls \
			>"$name.sqlite.log" 2>&1) ||
			{ fail "$name: export-to-sqlite.py: $(tail -3 "$tmp/$name.sqlite.log")"; continue; }
		if python3 - "$tmp/$name.db" "$tmp/$name.segs" "$tmp/$name.insns" <<'EOF'
import collections, json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
segs = json.load(open(sys.argv[2])); insns = json.load(open(sys.argv[3]))
sym = dict(db.execute("select id, name from symbols"))
paths = {i: (p, s) for i, p, s in
         db.execute("select id, parent_id, symbol_id from call_paths")}
def stack(cp):
    out = []
    while cp:
        p, s = paths[cp]
        out.append(sym.get(s, "?"))
        cp = p
    out.reverse()
    while out and out[0] == "unknown":
        out.pop(0)
    return ";".join(out)
perf = collections.Counter()
for cp, in db.execute("select call_path_id from calls "
                      "where id > 0 and call_id != 0"):
    s = stack(cp)
    if ";" in s:            # the traced function itself was not called
        perf[s] += 1
text = {x["index"]: x.get("insn", "") for x in insns if "index" in x}
def mnemonic(i):
    w = [t for t in text.get(i, "").split() if t not in ("bnd", "notrack")]
    return w[0] if w else ""
ours = collections.Counter()
st = [segs[0]["function"]]
for a, b in zip(segs, segs[1:]):
    m = mnemonic(a.get("insn_end"))
    if m.startswith("call"):
        st.append(b["function"])
        ours[";".join(st)] += 1
    elif m.startswith("ret") and len(st) > 1:
        st.pop()
    st[-1] = b["function"]
def norm(c):
    # perf keeps GCC's clone suffixes; GDB's names drop them.
    out = collections.Counter()
    for k, v in c.items():
        out[";".join(f.split(".part.")[0].split(".constprop.")[0]
                     .split(".isra.")[0] for f in k.split(";"))] += v
    return out
perf, ours = norm(perf), norm(ours)
if perf != ours or not ours:
    for k in list((perf - ours) + (ours - perf))[:5]:
        print("  %s: perf %d, ptbtrace %d" % (k[-150:], perf[k], ours[k]))
    sys.exit(1)
EOF
		then
			echo "ok: $name: export-to-sqlite.py's calls table ($(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from calls where call_id != 0").fetchone()[0])' "$tmp/$name.db") rows) holds ptbtrace's calls"
		else
			fail "$name: export-to-sqlite.py's calls table differs from ptbtrace's calls"
		fi
	done
fi

# Bad input: a clear error naming the cause, exit 1, and no perf.data.
bad() {
	what=$1 expect=$2
	shift 2
	out=$1
	shift
	"$tool" export --format=perf -o "$out" "$@" >/dev/null 2>"$tmp/bad.err"
	rc=$?
	if [ $rc != 1 ] || ! grep -q "$expect" "$tmp/bad.err"; then
		fail "$what: exit $rc, said: $(cat "$tmp/bad.err")"
	elif [ -e "$out" ] && [ ! -d "$out" ]; then
		fail "$what: left $out"
	elif ls "$(dirname "$out")" 2>/dev/null | grep -q '\.tmp'; then
		fail "$what: left a temporary file"
	else
		echo "ok: $what: $(head -1 "$tmp/bad.err")"
	fi
}
mkdir "$tmp/out" "$tmp/adir"
head -c 100 "$tmp/recursion.ptb" >"$tmp/short.ptb"
bad "truncated bundle" "truncated" "$tmp/out/a.data" "$tmp/short.ptb"
bad "directory as input" "not a regular file" "$tmp/out/b.data" "$tmp/adir"
bad "directory as output" "Is a directory" "$tmp/adir" "$tmp/recursion.ptb"
bad "output in a missing directory" "No such file or directory" \
	"$tmp/none/c.data" "$tmp/recursion.ptb"
# Fails part-way through writing (the file size limit): no partial file.
(ulimit -f 2; trap '' XFSZ;
 "$tool" export --format=perf -o "$tmp/out/d.data" "$tmp/libcalls.ptb") \
	>/dev/null 2>"$tmp/bad.err"
if [ $? = 1 ] && grep -q "File too large" "$tmp/bad.err" &&
   [ -z "$(ls "$tmp/out")" ]; then
	echo "ok: a write that fails part-way: $(cat "$tmp/bad.err")"
else
	fail "write failing part-way: $(cat "$tmp/bad.err"); left: $(ls "$tmp/out")"
fi
"$tool" export --format=perf "$tmp/recursion.ptb" >/dev/null 2>&1
[ $? = 2 ] || fail "export --format=perf without -o"

[ $failed = 0 ] && echo "PASS: perf reads ptbtrace's perf.data"
exit $failed
