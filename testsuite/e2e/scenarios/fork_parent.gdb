# catch fork, follow-fork-mode parent with detach-on-fork on.
# program: fork
# expect: ^Catchpoint 1 \(forked process <pid1>\), arch_fork \(ctid=<addr\d+>\) at
# expect: ^Breakpoint 2, in_parent \(v=40\) at
# expect: ^\[Detaching after fork from child process <pid1>\]$
# expect: ^child got 41$
# expect: ^parent got 42, child status 3$
target remote @TARGET@
catch fork
set follow-fork-mode parent
set detach-on-fork on
continue
info inferiors
break in_parent
break in_child
continue
bt 1
delete
continue
