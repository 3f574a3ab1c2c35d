# extended-remote: attach, detach, attach to the same process again, and
# kill it (GDB's ext-attach.exp in all-stop).
# program: spin
# mode: multi-attach
# expect: ^Attached; pid = <pid1>\nDetaching from process <pid1>\nAttached; pid = <pid1>$
# expect: ^\[Inferior 1 \(process <pid1>\) detached\]$
# expect: ^#\d+  0x[0-9a-f]+ in wait_for_byte \(\) at @SRC@/testsuite/programs/spin\.c:\d+$(.|\n)*^#\d+  0x[0-9a-f]+ in wait_for_byte \(\) at @SRC@/testsuite/programs/spin\.c:\d+$
# expect: ^\[Inferior 1 \(process <pid1>\) killed\]$
# expect: ^\* 1 +<null> +1 \(extended-remote 127\.0\.0\.1:PORT\) @BIN@/spin$
target extended-remote @TARGET@
attach @PID@
bt
detach
info inferiors
attach @PID@
bt
kill
info inferiors
