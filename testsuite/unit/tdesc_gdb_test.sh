#!/bin/sh
# GDB itself must read our target.xml exactly as it reads the reference:
# for this machine's XCR0 the description gdbserver serves, and for other
# XCR0 values one assembled from GDB's own feature files by xi:include.
# Compared: GDB's normalized description (maint print xml-tdesc) and its
# register map with remote numbers and g offsets (maint print
# remote-registers).
: "${GDB:=gdb}"
: "${top_builddir:=.}"
print="$top_builddir/testsuite/unit/tdesc_print"
features="${GDB_FEATURES:-/work/gdbsrc/gdb-13.1/gdb/features/i386}"

command -v "$GDB" >/dev/null 2>&1 || { echo "SKIP: no gdb"; exit 77; }
[ -x "$print" ] || { echo "FAIL: $print not built"; exit 1; }

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

wait_listening() {   # LOG: until the server says so, at most 10 s
	for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		grep -q '^Listening on port' "$1" 2>/dev/null && return 0
		sleep 0.5
	done
	echo "note: no 'Listening on port' in $1"
}
fail=0 checked=0

gdb_view() {   # FILE -> GDB's normalized view of the description in FILE
	"$GDB" -nx -batch -ex "set tdesc filename $1" \
		-ex 'maint print xml-tdesc' -ex 'maint print remote-registers' 2>&1
}

compare() {    # NAME REFERENCE-VIEW OUR-VIEW
	checked=$((checked + 1))
	if ! grep -q '<reg name="rip"' "$3" || ! grep -q 'g/G Offset' "$3"; then
		echo "FAIL: $1: GDB did not take our description"; head -5 "$3"
		fail=1
	elif cmp -s "$2" "$3"; then
		echo "PASS: $1"
	else
		echo "FAIL: $1"; diff "$2" "$3" | head -20; fail=1
	fi
}

# This machine, against what gdbserver serves.
host=$("$print" -x) || { echo "FAIL: cannot read XCR0"; exit 1; }
if [ -n "$GDBSERVER" ] && [ "$GDBSERVER" != no ] && [ -x "$GDBSERVER" ]; then
	port=$((20000 + $$ % 20000))
	"$GDBSERVER" --once "127.0.0.1:$port" /bin/true >"$tmp/gs.log" 2>&1 &
	gs=$!
	wait_listening "$tmp/gs.log"
	"$GDB" -nx -batch -ex "target remote 127.0.0.1:$port" \
		-ex 'maint print xml-tdesc' -ex 'maint print remote-registers' \
		-ex kill /bin/true 2>/dev/null |
		sed -n '/^<?xml/,$p' | grep -v '^\[Inferior\|^Kill the program' \
		>"$tmp/gs.view"
	wait "$gs" 2>/dev/null
	"$print" "$host" >"$tmp/host.xml"
	gdb_view "$tmp/host.xml" >"$tmp/host.view"
	compare "xcr0 $host vs gdbserver" "$tmp/gs.view" "$tmp/host.view"
else
	echo "note: no gdbserver; skipping the live comparison"
fi

# Other XCR0 values, against GDB's feature files.
# (AVX-512 without AVX is left out: GDB rejects that description.)
if [ -d "$features" ]; then
	# GDB resolves xi:include relative to the including file.
	cp "$features"/64bit-*.xml "$features"/pkeys.xml "$tmp"/ || exit 1
	for xcr0 in 3 7 1b 1f e7 207 2e7 2ff; do
		ref="$tmp/ref-$xcr0.xml"
		v=$((0x$xcr0))
		{
			echo '<?xml version="1.0"?>'
			echo '<!DOCTYPE target SYSTEM "gdb-target.dtd">'
			echo '<target version="1.0" xmlns:xi="http://www.w3.org/2001/XInclude">'
			echo '<architecture>i386:x86-64</architecture>'
			echo '<osabi>GNU/Linux</osabi>'
			for f in 64bit-core 64bit-sse 64bit-linux 64bit-segments; do
				echo "<xi:include href=\"$f.xml\"/>"
			done
			[ $((v & 0x4)) -ne 0 ] && echo "<xi:include href=\"64bit-avx.xml\"/>"
			[ $((v & 0x18)) -ne 0 ] && echo "<xi:include href=\"64bit-mpx.xml\"/>"
			[ $((v & 0xe0)) -ne 0 ] && echo "<xi:include href=\"64bit-avx512.xml\"/>"
			[ $((v & 0x200)) -ne 0 ] && echo "<xi:include href=\"pkeys.xml\"/>"
			echo '</target>'
		} >"$ref"
		"$print" "$xcr0" >"$tmp/ours-$xcr0.xml"
		gdb_view "$ref" >"$tmp/ref-$xcr0.view"
		gdb_view "$tmp/ours-$xcr0.xml" >"$tmp/ours-$xcr0.view"
		compare "xcr0 $xcr0 vs GDB's feature files" \
			"$tmp/ref-$xcr0.view" "$tmp/ours-$xcr0.view"
	done
else
	echo "note: no GDB source at $features; skipping those comparisons"
fi

[ "$checked" -gt 0 ] || { echo "SKIP: nothing to compare against"; exit 77; }
exit $fail
