#!/bin/sh
# GDB is the oracle: record bt_prog through ptstub, save the trace with
# `monitor btrace save`, and require ptbtrace to print exactly what GDB
# prints on it for `info record`, `record function-call-history /ilc`,
# `maint info btrace` and `maint btrace packet-history`.
# Skips (77) until the stub can serve and save traces.
set -u
build=${top_builddir:-.}
prog=$build/testsuite/btrace/bt_prog
tool=$build/ptbtrace
stub=${PTSTUB:-$build/ptstub}
gdb=${GDB:-gdb}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

skip() {
	echo "SKIP: $*"
	exit 77
}

[ -x "$stub" ] || skip "ptstub is not built"
[ -x "$prog" ] && [ -x "$tool" ] || skip "bt_prog or ptbtrace not built"
command -v "$gdb" >/dev/null 2>&1 || skip "no GDB"
command -v timeout >/dev/null 2>&1 || skip "no timeout(1)"
line=$(grep -n 'L:main_close' "${top_srcdir:-.}/testsuite/btrace/bt_prog.c" |
	cut -d: -f1)
[ -n "$line" ] || skip "no L:main_close marker in bt_prog.c"

status=0
for format in pt bts; do
	cat >"$tmp/cmds" <<EOF2
set pagination off
set confirm off
target remote | $stub - $prog
break main
continue
record btrace $format
break bt_prog.c:$line
continue
monitor btrace save $tmp/$format.ptb
echo ==info\n
info record
echo ==calls\n
record function-call-history /ilc
echo ==maint\n
maint info btrace
echo ==packets\n
maint btrace packet-history
echo ==end\n
kill
EOF2
	timeout 120 "$gdb" -nx -batch -x "$tmp/cmds" >"$tmp/gdb.out" \
		2>"$tmp/gdb.err" </dev/null
	if [ ! -s "$tmp/$format.ptb" ] || ! grep -q '^==end' "$tmp/gdb.out"
	then
		echo "$format: GDB transcript:"
		sed 's/^/  /' "$tmp/gdb.out" "$tmp/gdb.err" | tail -20
		skip "the stub cannot record and save a $format trace yet"
	fi

	sed -n '/^==info$/,/^==calls$/p' "$tmp/gdb.out" | sed '1d;$d' \
		>"$tmp/gdb.info"
	sed -n '/^==calls$/,/^==maint$/p' "$tmp/gdb.out" | sed '1d;$d' \
		>"$tmp/gdb.calls"
	sed -n '/^==maint$/,/^==packets$/p' "$tmp/gdb.out" | sed '1d;$d' \
		>"$tmp/gdb.maint"
	sed -n '/^==packets$/,/^==end$/p' "$tmp/gdb.out" | sed '1d;$d' \
		>"$tmp/gdb.packets"
	"$tool" info "$tmp/$format.ptb" >"$tmp/our.info" 2>&1
	"$tool" call-history /ilc "$tmp/$format.ptb" >"$tmp/our.calls" 2>&1
	"$tool" maint-info "$tmp/$format.ptb" >"$tmp/our.maint" 2>&1
	"$tool" packets "$tmp/$format.ptb" >"$tmp/our.packets" 2>&1

	for what in info calls maint packets; do
		if ! diff -u "$tmp/gdb.$what" "$tmp/our.$what"; then
			echo "FAIL: $format $what differs from GDB's"
			status=1
		fi
	done
done
[ $status = 0 ] && echo "PASS: ptbtrace prints what GDB prints"
exit $status
