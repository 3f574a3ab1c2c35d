# extended-remote without vRun: `run` again falls back to the R packet,
# which kills the program and starts the last one run again, stopped at
# its first instruction.
# program: plain
# mode: multi
# expect: ^Breakpoint 1, compute \(n=5\) at
# expect: ^Breakpoint 1, compute \(n=5\) at (.|\n)*^Breakpoint 1, compute \(n=5\) at
# expect: ^compute=30 twice=28$
# expect: ^Process @BIN@/plain created; pid = <pid\d>\n(GDBserver|ptstub) restarting\nProcess @BIN@/plain created; pid = <pid\d>$
# expected-difference: ^(GDBserver|ptstub) restarting$ -- each stub says its own name
target extended-remote @TARGET@
set remote exec-file @PROG@
break compute
run
set remote run-packet off
set remote exec-file
run
bt 1
info inferiors
delete
continue
