# extended-remote: attach to a running process, detach, then run a new
# program on the same connection.
# program: spin
# mode: multi-attach
# after-detach: running
# expect: ^\#\d+  0x[0-9a-f]+ in wait_for_byte \(\) at @SRC@/testsuite/programs/spin\.c:\d+$
# expect: ^\[Inferior 1 \(process <pid1>\) detached\]$
# expect: ^Breakpoint 1, compute \(n=4\) at
# expect: ^compute=14 twice=10$
# expect: ^Attached; pid = <pid1>\nDetaching from process <pid1>\nProcess @BIN@/plain created; pid = <pid2>$
# expect: ^=== attached process after detach: still running ===$
target extended-remote @TARGET@
attach @PID@
bt
print ticks
detach
file @BIN@/plain
set remote exec-file @BIN@/plain
break compute
run 4
bt 1
delete
continue
