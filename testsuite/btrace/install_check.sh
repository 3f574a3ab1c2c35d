#!/bin/sh
# Installed, libptbtrace serves a program outside the tree: `make install`
# into a temporary DESTDIR; doc/examples/call_history.c built there with
# `pkg-config --cflags --libs libptbtrace` alone (the installed header
# and library, not the build tree's: the compiler's dependencies and the
# loader say so); its output on a corpus bundle and on a crash the
# recorder writes equals the installed ptbtrace's `call-history /c 1,N`;
# then `make uninstall` leaves no file behind.  Skips without pkg-config
# or a C compiler, or where the prefix holds a space; the recorded bundle
# is left out (said so) where ptrace is not allowed.
set -u
build=${top_builddir:-.}
src=${top_srcdir:-.}
mk=$build/testsuite/btrace/bt_mkcorpus
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
root=$tmp/root

fail() {
	echo "FAIL: $*"
	exit 1
}

command -v pkg-config >/dev/null 2>&1 || { echo "SKIP: no pkg-config"; exit 77; }
cc=${CC:-cc}
command -v "$cc" >/dev/null 2>&1 || { echo "SKIP: no C compiler $cc"; exit 77; }
[ -x "$mk" ] || fail "$mk is not built"

# A make of its own: not the jobs of the make check that runs this.
unset MAKEFLAGS MFLAGS MAKELEVEL
make -C "$build" -s install DESTDIR="$root" >"$tmp/install.log" 2>&1 ||
	fail "make install: $(tail -5 "$tmp/install.log")"

case $(make -C "$build" -s --no-print-directory list-libdir) in
*[[:space:]]*)
	# make distcheck's prefix lies in a clone whose path may hold one.
	echo "SKIP: the prefix holds a space, which pkg-config's flags cannot carry"
	exit 77 ;;
esac
pc=$(find "$root" -name libptbtrace.pc)
[ -n "$pc" ] && [ "$(echo "$pc" | wc -l)" = 1 ] || fail "installed .pc: '$pc'"
export PKG_CONFIG_LIBDIR="$(dirname "$pc")" PKG_CONFIG_SYSROOT_DIR="$root"
unset PKG_CONFIG_PATH
# pkgconf puts the sysroot before variables too; freedesktop's did not.
libdir=$(pkg-config --variable=libdir libptbtrace) ||
	fail "pkg-config --variable=libdir"
case $libdir in "$root"/*) ;; *) libdir=$root$libdir ;; esac
bindir=$root$(make -C "$build" -s --no-print-directory list-bindir)
[ -x "$bindir/ptbtrace" ] || fail "no ptbtrace in $bindir"
[ "$(pkg-config --modversion libptbtrace)" = "$(sed -n 's/^Version: //p' "$pc")" ] ||
	fail "pkg-config --modversion"
flags=$(pkg-config --cflags --libs libptbtrace) || fail "pkg-config --cflags --libs"
echo "pkg-config: $flags"

# Built with the installed header and library only, and the tree's
# CFLAGS: a sanitized tree's library runs only in a sanitized program.
cflags=$(make -C "$build" -s --no-print-directory list-CFLAGS)
cp "$src/doc/examples/call_history.c" "$tmp/"
(cd "$tmp" && $cc $cflags -o call_history call_history.c $flags) 2>"$tmp/cc.err" ||
	fail "building the example: $(cat "$tmp/cc.err")"
(cd "$tmp" && $cc -M call_history.c $(pkg-config --cflags libptbtrace)) \
	>"$tmp/deps" || fail "cc -M"
grep -q "$root/[^ ]*/ptbtrace\.h" "$tmp/deps" ||
	fail "the example did not take the installed ptbtrace.h: $(grep ptbtrace "$tmp/deps")"
export LD_LIBRARY_PATH="$libdir"
ldd "$tmp/call_history" >"$tmp/ldd"
grep -q "libptbtrace\.so\.[0-9]* => $libdir/libptbtrace\.so\." "$tmp/ldd" ||
	fail "the example does not load the installed library: $(grep ptbtrace "$tmp/ldd")"

# compare BUNDLE: the example against the installed ptbtrace.
compare() {
	"$tmp/call_history" "$1" >"$tmp/example.out" 2>"$tmp/example.err" ||
		fail "call_history $1: $(cat "$tmp/example.err")"
	n=$("$bindir/ptbtrace" --json info "$1" |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["functions"])') ||
		fail "ptbtrace info $1"
	[ "$n" -gt 0 ] || fail "$1: no functions"
	[ "$(wc -l <"$tmp/example.out")" = "$n" ] ||
		fail "$1: the example printed $(wc -l <"$tmp/example.out") lines, not $n"
	"$bindir/ptbtrace" call-history /c "1,$n" "$1" >"$tmp/tool.out" ||
		fail "ptbtrace call-history $1"
	cmp -s "$tmp/example.out" "$tmp/tool.out" ||
		fail "$1: the example and ptbtrace differ: $(diff "$tmp/tool.out" "$tmp/example.out" | head -5)"
	echo "$(basename "$1"): $n segments alike"
}

"$mk" calls "$tmp/calls.ptb"
rc=$?
[ $rc = 77 ] && { echo "SKIP: the corpus program is not built"; exit 77; }
[ $rc = 0 ] || fail "bt_mkcorpus calls: exit $rc"
compare "$tmp/calls.ptb"

prog=$build/testsuite/rec/crash_chain
stub=$bindir/ptstub
[ -x "$prog" ] || fail "$prog is not built"
"$stub" record -o "$tmp/crash.ptb" -- "$prog" >/dev/null 2>"$tmp/rec.err"
if [ -s "$tmp/crash.ptb" ]; then
	compare "$tmp/crash.ptb"
elif grep -qi 'ptrace\|permission\|not permitted' "$tmp/rec.err"; then
	echo "note: no recorded bundle (ptrace is not allowed here): $(head -1 "$tmp/rec.err")"
else
	fail "ptstub record: $(cat "$tmp/rec.err")"
fi

unset LD_LIBRARY_PATH
make -C "$build" -s uninstall DESTDIR="$root" >"$tmp/uninstall.log" 2>&1 ||
	fail "make uninstall: $(tail -5 "$tmp/uninstall.log")"
left=$(find "$root" ! -type d)
[ -z "$left" ] || fail "make uninstall left: $left"
exit 0
