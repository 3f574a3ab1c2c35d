#!/bin/sh
# The program's arguments reach it as given, with no expansion of
# variables, patterns or commands, whether startup-with-shell is on (the
# program is started through the shell, each argument quoted) or off,
# and whether they come from ptstub's command line or from GDB (run in
# extended-remote, vRun).  Real GDB; the program is printf, which shows
# each argument between <>.
set -u
. "${top_srcdir:-.}/testsuite/robust/lib.sh"
need_gdb
printf=$(command -v printf 2>/dev/null)
case $printf in /*) ;; *) printf=/usr/bin/printf ;; esac
[ -x "$printf" ] || skip "no printf program"
want='<$HOME><*><`id -u`><a b><;x><$(id)>'

# From the command line, with the shell and without.
for shell in --startup-with-shell --no-startup-with-shell; do
	start_stub --once "$shell" ":@PORT@" "$printf" '<%s>' '$HOME' '*' \
		'`id -u`' 'a b' ';x' '$(id)'
	{
		echo "target remote 127.0.0.1:$port"
		echo "continue"
	} >"$tmp/cmd.gdb"
	run_gdb cmd "$printf"
	stop_stub
	grep -qxF -- "$want" "$tmp/stub.log" ||
		fail "$shell, command line: the program got: $(cat "$tmp/stub.log")"
done

# From GDB's run, with GDB's startup-with-shell on and off.
for sws in on off; do
	start_stub --once --multi ":@PORT@"
	{
		echo "set startup-with-shell $sws"
		echo "target extended-remote 127.0.0.1:$port"
		echo "set remote exec-file $printf"
		echo "set args '<%s>' '\$HOME' '*' '\`id -u\`' 'a b' ';x' '\$(id)'"
		echo "run"
	} >"$tmp/run.gdb"
	run_gdb run "$printf"
	stop_stub
	grep -qxF -- "$want" "$tmp/stub.log" ||
		fail "startup-with-shell $sws, run: the program got: $(cat "$tmp/stub.log") (GDB: $(cat "$tmp/run.out"))"
done
echo "PASS: no argument is expanded, with the shell or without"
