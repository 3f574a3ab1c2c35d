# extended-remote with --multi: set remote exec-file, run, kill, run again.
# program: plain
# mode: multi
# expect: ^Breakpoint 1, compute \(n=5\) at
# expect: ^\[Inferior 1 \(process <pid1>\) killed\]$
# expect: ^Breakpoint 1, compute \(n=2\) at
# expect: ^\[Inferior 1 \(process <pid2>\) exited normally\]$
# expect: ^compute=1 twice=0$
# expect: ^Listening on port PORT\nRemote debugging from host 127\.0\.0\.1, port PORT\nProcess @BIN@/plain created; pid = <pid1>\nProcess @BIN@/plain created; pid = <pid2>$
target extended-remote @TARGET@
set remote exec-file @PROG@
break compute
run 5
bt 1
kill
run 2
info inferiors
delete
continue
