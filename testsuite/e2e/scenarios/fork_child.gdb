# follow-fork-mode child with detach-on-fork off: both stay under GDB.
# program: fork
# expect: ^\[Attaching after Thread <pid1>\.<pid1> fork to child Thread <pid2>\.<pid2>\]$
# expect: ^\[New inferior 2 \(process <pid2>\)\]$
# expect: ^Thread 2\.1 "fork" hit Breakpoint 1\.2, in_child \(v=40\) at
# expect: ^\[Inferior 2 \(process <pid2>\) exited with code 03\]$
# expect: ^\[Inferior 1 \(process <pid1>\) exited normally\]$
# expect: ^child got 41\nparent got 42, child status 3$
target remote @TARGET@
set follow-fork-mode child
set detach-on-fork off
break in_child
continue
info inferiors
bt 1
continue
inferior 1
bt 1
info inferiors
delete
continue
