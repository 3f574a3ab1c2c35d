# The stub on GDB's pipe (COMM '-'): GDB starts it with `target remote |`.
# program: plain
# mode: stdio
# expect: ^Process @BIN@/plain created; pid = <pid1>$
# expect: ^Remote debugging using stdio$
# expect: ^Breakpoint 1, compute \(n=2\) at
# expect: ^compute=1 twice=0$
# expect: ^\[Inferior 1 \(process <pid1>\) exited normally\]$
target remote | @STUB@ - @PROG@ 2
break compute
continue
bt
delete
continue
