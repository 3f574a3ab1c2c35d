# Every thread traced and running at once (program threads, recorded from
# parked(), all three threads traced): main wakes the workers, which
# return and exit (glibc releases their stacks with madvise, a mapping
# change) while main binds pthread_join lazily in ld.so.  The emulator's
# planted traps are shared by the threads: one thread taking its traps
# out (or all of them, for a mapping change) while another has hit one
# must never turn into a SIGTRAP reported to GDB.
# program: threads
# reference: none -- gdbserver cannot record btrace on this machine (no Intel PT, no BTS)
# expect: ^Thread 1 "threads" hit Breakpoint 1, parked \(\) at
# expect: ^Thread <pid1>\.<pid1>: emulated PT.*\nThread <pid1>\.<pid2>: emulated PT.*\nThread <pid1>\.<pid3>: emulated PT
# expect: ^all threads parked\njoined$
# expect: ^\[Inferior 1 \(process <pid1>\) exited normally\]$
# expect-not: SIGTRAP|Trace/breakpoint trap
target remote @TARGET@
break parked
continue
record btrace pt
monitor btrace status
delete
continue
