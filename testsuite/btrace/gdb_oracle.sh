#!/bin/sh
# GDB is the oracle: record testsuite programs through ptstub under real
# GDB (`record btrace`), save each trace with `monitor btrace save`, then
# ask GDB and ptbtrace the same questions about the same trace and require
# byte-identical answers (a diff is shown otherwise).
#
# Each question is a row of the table below: GDB's command and ptbtrace's
# arguments.  GDB's histories continue where the last command stopped;
# ptbtrace starts afresh every time, so GDB is reset before each question
# (`record goto end` clears the histories).  The packet window cannot be
# reset (`maint btrace clear-packet-history` drops the trace), so only the
# first packet question uses the default window.  Then the replay
# cursor: landings of scripts of steps (see run_replay).  ORACLE_KEEP=1
# keeps the transcripts.  Skips only without GDB.
#
# The libc case (bt_libc) asks about libc through its separate debug
# file (libc6-dbg): functions from assembler sources, inlined headers'
# lines, and windows of a few lines; every case's folded export must sum
# to `info record`'s count.
set -u
build=${top_builddir:-.}
src=${top_srcdir:-.}
tool=$build/ptbtrace
stub=${PTSTUB:-$build/ptstub}
gdb=${GDB:-gdb}
tmp=$(mktemp -d)
[ -n "${ORACLE_KEEP:-}" ] && echo "keeping $tmp" || trap 'rm -rf "$tmp"' EXIT

skip() {
	echo "SKIP: $*"
	exit 77
}

command -v "$gdb" >/dev/null 2>&1 || skip "no GDB"
for f in "$stub" "$tool" "$build/testsuite/btrace/bt_prog" \
	 "$build/testsuite/btrace/bt_libc" \
	 "$build/testsuite/programs/bin/btrace"; do
	[ -x "$f" ] || { echo "FAIL: $f is not built"; exit 1; }
done

# The questions of set $1 (all, or libc): GDB's command | ptbtrace's
# arguments.  "@" in GDB's column separates commands run before the
# marker (settings) from the question.
questions() {
	if [ "$1" = libc ]; then
		libc_questions
		return
	fi
	cat <<'EOF'
info record|info
maint info btrace|maint-info
record function-call-history|call-history
record function-call-history /i|call-history /i
record function-call-history /l|call-history /l
record function-call-history /c|call-history /c
record function-call-history /il|call-history /il
record function-call-history /ic|call-history /ic
record function-call-history /lc|call-history /lc
record function-call-history /ilc|call-history /ilc
record function-call-history -|call-history -
record function-call-history /ilc -|call-history /ilc -
record function-call-history /ilc 1|call-history /ilc 1
record function-call-history /ilc 2,5|call-history /ilc 2,5
record function-call-history /ilc 3,+4|call-history /ilc 3,+4
record function-call-history /ilc 6,-3|call-history /ilc 6,-3
record function-call-history /lc 1,1|call-history /lc 1,1
record function-call-history 999|call-history 999
set record function-call-history-size unlimited@record function-call-history /ilc|--size=0 call-history /ilc
set record function-call-history-size 3@record function-call-history /c -|--size=3 call-history /c -
set record function-call-history-size 4@record function-call-history|--size=4 call-history
set record function-call-history-size 4@record function-call-history /l 3|--size=4 call-history /l 3
set record function-call-history-size 2@record function-call-history /i -|--size=2 call-history /i -
record instruction-history|insn-history
record instruction-history /r|insn-history /r
record instruction-history /f|insn-history /f
record instruction-history /m|insn-history /m
record instruction-history /s|insn-history /s
record instruction-history /rf|insn-history /rf
record instruction-history /mr|insn-history /mr
record instruction-history -|insn-history -
record instruction-history 1|insn-history 1
record instruction-history /f 1,20|insn-history /f 1,20
record instruction-history /r 5,+8|insn-history /r 5,+8
record instruction-history 12,-4|insn-history 12,-4
set record instruction-history-size unlimited@record instruction-history /f|--size=0 insn-history /f
maint btrace packet-history|packets
maint btrace packet-history 0|packets 0
maint btrace packet-history 2,6|packets 2,6
maint btrace packet-history 1,+3|packets 1,+3
EOF
}

# Whole libc histories with lines, and windows of N lines; the PLT jumps
# at the start (their GOT slots named NAME@got.plt, *ABS*@got.plt).
libc_questions() {
	cat <<'EOF'
info record|info
record function-call-history /ilc|call-history /ilc
set record function-call-history-size unlimited@record function-call-history /ilc|--size=0 call-history /ilc
set record function-call-history-size unlimited@record function-call-history /lc 100|--size=0 call-history /lc 100
set record function-call-history-size 1@record function-call-history /ilc|--size=1 call-history /ilc
set record function-call-history-size 1@record function-call-history /ilc -|--size=1 call-history /ilc -
set record function-call-history-size 2@record function-call-history /c -|--size=2 call-history /c -
set record function-call-history-size 2@record function-call-history /ilc 1|--size=2 call-history /ilc 1
set record function-call-history-size 5@record function-call-history /ilc|--size=5 call-history /ilc
set record function-call-history-size 5@record function-call-history /il 40|--size=5 call-history /il 40
set record function-call-history-size 7@record function-call-history /lc 150,+9|--size=7 call-history /lc 150,+9
set record function-call-history-size 3@record function-call-history /ilc 300,-6|--size=3 call-history /ilc 300,-6
set record instruction-history-size 1@record instruction-history|--size=1 insn-history
set record instruction-history-size 3@record instruction-history /f -|--size=3 insn-history /f -
set record instruction-history-size 6@record instruction-history /s 1|--size=6 insn-history /s 1
set record instruction-history-size 5@record instruction-history /m 3000|--size=5 insn-history /m 3000
set record instruction-history-size 3@record instruction-history 8|--size=3 insn-history 8
set record instruction-history-size 6@record instruction-history /r 718|--size=6 insn-history /r 718
EOF
}

# The GDB script that asks every question of set $1 after the recording
# commands in $tmp/record.
gdb_script() {
	n=0
	cat "$tmp/record"
	# An error would end GDB's sourced script: catch it, print its text.
	printf 'python\ndef q(c):\n  try:\n    gdb.execute(c)\n'
	printf '  except gdb.error as e:\n    print(e)\nend\n'
	questions "$1" | while IFS='|' read -r gdbcmd ours; do
		n=$((n + 1))
		case $gdbcmd in
		*@*) pre=${gdbcmd%%@*}; gdbcmd=${gdbcmd#*@} ;;
		*) pre= ;;
		esac
		echo "record goto end"
		echo "set record function-call-history-size 10"
		echo "set record instruction-history-size 10"
		[ -n "$pre" ] && echo "$pre"
		printf 'echo ==q%s\\n\n' $n
		echo "python q(\"$gdbcmd\")"
		printf 'echo ==e%s\\n\n' $n
	done
	echo "kill"
}

# record_script FORMAT PROGRAM BUNDLE: GDB's commands that record, with
# the recording commands on stdin, into $tmp/record.  Breakpoints go
# afterwards: replaying would stop at them.
record_script() {
	{
		echo "set pagination off"
		echo "set confirm off"
		echo "set width 0"
		echo "set height 0"
		echo "handle SIGUSR1 nostop noprint pass"
		# A loaded machine must not make GDB give up on a reply
		# (the default is 2 s) and lose its place in the protocol.
		echo "set remotetimeout 60"
		echo "target remote | $stub - $2"
		# GDB fetches its trace before the stub saves it: after a save,
		# ptstub's BTS delta read answers with the last block only.
		sed "s|@FORMAT@|$1|; s|^monitor btrace save @BUNDLE@|info record\\
monitor btrace save $3\\
delete|"
	} >"$tmp/record"
}

# run_gdb NAME: run $tmp/NAME.gdb; fails the case if no bundle was saved.
# GDB's error stream goes with its output, as ptbtrace's does below
# (GDB flushes its output before it writes an error, such as a source
# file it cannot open).
run_gdb() {
	timeout 300 "$gdb" -nx -batch -x "$tmp/$1.gdb" >"$tmp/$1.out" \
		2>&1 </dev/null
	[ -s "$tmp/$1.ptb" ] && return 0
	echo "FAIL: $1: no bundle saved; GDB said:"
	tail -20 "$tmp/$1.out" | sed 's/^/  /'
	echo x >>"$tmp/failed"
	return 1
}

# run_case NAME FORMAT PROGRAM [SET]: recording commands on stdin.
run_case() {
	name=$1 format=$2 prog=$3 set=${4:-all}
	bundle=$tmp/$name.ptb
	record_script "$format" "$prog" "$bundle"
	gdb_script "$set" >"$tmp/$name.gdb"
	run_gdb "$name" || return
	check_folded "$name" "$bundle"

	n=0
	questions "$set" | while IFS='|' read -r gdbcmd ours; do
		n=$((n + 1))
		gdbcmd=${gdbcmd#*@}
		# GDB's errors are caught and printed (q in gdb_script), as
		# ptbtrace's stderr is taken with its stdout.
		sed -n "/^==q$n\$/,/^==e$n\$/p" "$tmp/$name.out" | sed '1d;$d' \
			>"$tmp/gdb.txt"
		# A transcript cut short: GDB died or timed out.
		grep -q "^==e$n\$" "$tmp/$name.out" || {
			echo "FAIL: $name: GDB stopped at '$gdbcmd':"
			tail -5 "$tmp/$name.out" | sed 's/^/  /'
			echo x >>"$tmp/failed"
			break
		}
		# shellcheck disable=SC2086
		"$tool" $ours "$bundle" >"$tmp/our.txt" 2>&1
		if cmp -s "$tmp/gdb.txt" "$tmp/our.txt"; then
			echo "ok: $name ($format): $gdbcmd"
			echo x >>"$tmp/passed"
		else
			echo "FAIL: $name ($format): '$gdbcmd' vs 'ptbtrace $ours':"
			diff -u "$tmp/gdb.txt" "$tmp/our.txt" | head -40 |
				sed 's/^/  /'
			echo x >>"$tmp/failed"
		fi
	done
}

# check_folded NAME BUNDLE: the folded stacks' instructions sum to the
# count of GDB's `info record` (taken as the trace was saved), gaps
# aside (GDB numbers a gap as an instruction).
check_folded() {
	rec=$(grep -m1 '^Recorded [0-9]* instructions' "$tmp/$1.out")
	insns=$(echo "$rec" | sed 's/^Recorded \([0-9]*\) .*/\1/')
	gaps=$(echo "$rec" | sed 's/.*(\([0-9]*\) gaps).*/\1/')
	sum=$("$tool" export --format=folded "$2" 2>&1 |
		awk '{ s += $NF } END { print s + 0 }')
	if [ -n "$insns" ] && [ "$sum" = $((insns - gaps)) ]; then
		echo "ok: $1: folded stacks sum to $sum instructions"
		echo x >>"$tmp/passed"
	else
		echo "FAIL: $1: folded stacks sum to $sum, GDB: $rec"
		echo x >>"$tmp/failed"
	fi
}

# The recording commands: from a breakpoint at START (then the commands
# of PRE, ";" between them) to one at STOP, where the trace is saved.
between() {
	printf 'break %s\ncontinue\n' "$1"
	[ -n "${3:-}" ] && echo "$3" | tr ';' '\n'
	printf 'record btrace @FORMAT@\nbreak %s\ncontinue\n' "$2"
	echo "monitor btrace save @BUNDLE@"
}

# The replay cursor: a script of replay commands run in one GDB session
# and by `ptbtrace replay`; after each, the landing instruction number
# (GDB's "Replay in progress.  At instruction N.", or "end" when not
# replaying) and pc must agree.  GDB's command for each of ours:
gdb_replay_cmd() {
	case $1 in
	begin|end) echo "record goto $1" ;;
	goto\ *) echo "record $1" ;;
	*) echo "$1" ;;
	esac
}

# run_replay NAME PROGRAM COMMANDS: recording commands on stdin.
run_replay() {
	name=$1 prog=$2 cmds=$3
	record_script pt "$prog" "$tmp/$name.ptb"
	{
		cat "$tmp/record"
		printf 'python\ndef q(c):\n  try:\n    gdb.execute(c)\n'
		printf '  except gdb.error as e:\n    print(e)\nend\n'
		n=0
		for c in $cmds; do
			n=$((n + 1))
			printf 'python q("%s")\n' \
				"$(gdb_replay_cmd "$(echo "$c" | tr _ ' ')")"
			printf 'echo ==r%s\\n\ninfo record\np/x $pc\n' $n
		done
		printf 'echo ==r%s\\n\nkill\n' $((n + 1))
	} >"$tmp/$name.gdb"
	run_gdb "$name" || return
	# GDB's landings in ptbtrace's format.
	awk '/^==r[0-9]+$/ { if (started) print (at == "" ? "end" : at) "\t" pc
			    started = 1; at = ""; pc = ""; next }
	     /^Replay in progress\.  At instruction / {
		at = $NF; sub(/\.$/, "", at) }
	     /^\$[0-9]+ = 0x/ { pc = $3 }' "$tmp/$name.out" >"$tmp/gdb.txt"
	for c in $cmds; do echo "$c" | tr _ ' '; done |
		"$tool" replay "$tmp/$name.ptb" 2>"$tmp/$name.replay-err" |
		grep -v '^No more reverse-execution history\.$' >"$tmp/our.txt"
	n=0
	for c in $cmds; do
		n=$((n + 1))
		g=$(sed -n "${n}p" "$tmp/gdb.txt")
		o=$(sed -n "${n}p" "$tmp/our.txt")
		if [ -n "$g" ] && [ "$g" = "$o" ]; then
			echo "ok: $name replay step $n ($c): $g"
			echo x >>"$tmp/passed"
		else
			echo "FAIL: $name replay step $n ($c): GDB '$g'," \
			     "ptbtrace '$o'"
			echo x >>"$tmp/failed"
		fi
	done
}

btp=$build/testsuite/programs/bin/btrace
prog=$build/testsuite/btrace/bt_prog
close=bt_prog.c:$(grep -n 'L:main_close' "$src/testsuite/btrace/bt_prog.c" |
	cut -d: -f1)

between main "$close" | run_case bt_prog pt "$prog"
between begin_region end_region finish | run_case region1 pt "$btp"
between begin_sys end_sys | run_case syscall_signal pt "$btp"
between misc_region end_deep | run_case misc_deep pt "$btp"
between begin_wrap end_wrap "set record btrace pt buffer-size 4096" |
	run_case spin_wrap pt "$btp"
between main "$close" | run_case bt_prog_bts bts "$prog"
# The libc case is about libc's separate debug file (bootstrap installs
# libc6-dbg); without it the case would ask nothing new.
libc_id=$(readelf -n "$(ldd "$build/testsuite/btrace/bt_libc" 2>/dev/null |
	awk '/libc\.so/ { print $3 }')" 2>/dev/null |
	awk '/Build ID/ { print $3 }')
libc_debug=/usr/lib/debug/.build-id/$(echo "$libc_id" | cut -c1-2)/$(echo "$libc_id" | cut -c3-).debug
if [ -n "$libc_id" ] && [ -f "$libc_debug" ]; then
	between begin_libc end_libc |
		run_case libc pt "$build/testsuite/btrace/bt_libc" libc
else
	echo "SKIP: libc case: no separate debug file for libc (libc6-dbg)"
fi
between begin_region end_region finish | run_case region1_bts bts "$btp"

# No forward command may start at the live end: GDB would run the
# program on (recording more), which no trace can tell.
between begin_region end_region finish | run_replay replay_region1 "$btp" \
	"reverse-stepi reverse-stepi reverse-step reverse-next reverse-step
	 reverse-step reverse-finish reverse-next reverse-step stepi step next
	 next step finish next step step reverse-finish goto_50 reverse-step
	 step next begin next next step reverse-step reverse-next
	 reverse-finish goto_80 finish step next reverse-next reverse-step
	 reverse-stepi next"
between misc_region end_deep | run_replay replay_misc_deep "$btp" \
	"reverse-step reverse-step reverse-next reverse-finish reverse-step
	 reverse-step reverse-finish reverse-next reverse-next reverse-step
	 finish next step step next goto_40 step step reverse-finish next
	 finish reverse-next reverse-stepi step next"
between main "$close" | run_replay replay_bt_prog "$prog" \
	"reverse-stepi reverse-stepi reverse-step reverse-next reverse-step
	 reverse-step reverse-finish reverse-next reverse-step stepi step next
	 reverse-next reverse-step finish reverse-finish begin step step
	 finish next step reverse-stepi next goto_30 reverse-finish
	 reverse-step next end reverse-next reverse-finish"

passed=$(cat "$tmp/passed" 2>/dev/null | wc -l)
failed=$(cat "$tmp/failed" 2>/dev/null | wc -l)
echo "gdb_oracle: $passed identical, $failed different"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
