# Recording across a fork (program fork), follow-fork-mode child: the
# parent is recorded from main; at the fork GDB follows the child and
# detaches the parent, so the stub must take its planted breakpoints out
# of both (the parent then runs to its end alone: "parent got 42"; the
# child must not trap on inherited ones).  GDB's record target belongs to
# the parent's inferior, so the child starts unrecorded; recorded anew
# from in_child, its history is in_child, then main calling printf
# through the PLT (fork.c line 21).
# program: fork
# reference: none -- gdbserver cannot record btrace on this machine (no Intel PT, no BTS)
# expect: ^Recorded [1-9]\d* instructions in [1-9]\d* functions \(0 gaps\) for thread 1 \(Thread <pid1>\.<pid1>\)\.$
# expect: ^\[Attaching after Thread <pid1>\.<pid1> fork to child Thread <pid2>\.<pid2>\]$
# expect: ^\[Detaching after fork from parent process <pid1>\]$
# expect: ^Thread 2\.1 "fork" hit Breakpoint 2, in_child \(v=40\) at
# expect: ^-- child\nNo recording is currently active\.$
# expect: ^Thread <pid2>\.<pid2>: emulated PT, buffer 16384 bytes
# expect: ^1\t  in_child\n2\tmain\n3\t  printf@plt$
# expect: ^\[Inferior 2 \(process <pid2>\) exited with code 03\]$
# expect: ^child got 41$
# expect: ^parent got 42, child status 3$
# expect-not: SIGTRAP|Trace/breakpoint trap
target remote @TARGET@
break main
continue
record btrace pt
next
info record
set follow-fork-mode child
break in_child
continue
echo -- child\n
info record
record btrace pt
monitor btrace status
next
next
record function-call-history /c 1,3
record stop
delete
continue
