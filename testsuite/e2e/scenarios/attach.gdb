# Attach to a running process, look around, detach: it must keep running
# (the runner feeds it a byte afterwards and waits for its answer).
# program: spin
# mode: attach
# after-detach: running
# expect: ^Attached; pid = <pid1>$
# expect: ^#\d+  0x[0-9a-f]+ in wait_for_byte \(\) at @SRC@/testsuite/programs/spin\.c:\d+$
# expect: ^#\d+  0x[0-9a-f]+ in main \(\) at @SRC@/testsuite/programs/spin\.c:\d+$
# expect: ^\$1 = 0$
# expect: ^\[Inferior 1 \(process <pid1>\) detached\]$
# expect: ^Detaching from process <pid1>$
# expect: ^=== attached process after detach: still running ===$
target remote @TARGET@
bt
print ticks
info threads
break wait_for_byte
info breakpoints
delete
detach
