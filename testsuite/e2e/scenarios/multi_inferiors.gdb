# extended-remote with two inferiors at once (multiprocess): each runs to
# its breakpoint, then each runs to its end.
# program: plain
# mode: multi
# expect: ^Breakpoint 1, compute \(n=2\) at
# expect: ^Thread 2\.1 "plain" hit Breakpoint 1\.2, compute \(n=3\) at
# expect: ^\[Inferior 1 \(process <pid1>\) exited normally\]$
# expect: ^\[Inferior 2 \(process <pid2>\) exited normally\]$
# expect: ^compute=1 twice=0\n(.|\n)*compute=5 twice=2$
target extended-remote @TARGET@
set remote exec-file @PROG@
break compute
run 2
add-inferior
inferior 2
file @PROG@
set remote exec-file @PROG@
run 3
info inferiors
inferior 1
delete
continue
inferior 2
continue
