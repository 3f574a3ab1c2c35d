# Threads created while recording (program threads): record btrace pt in
# main before pthread_create; GDB enables tracing on each new thread as
# it appears.  A new thread runs over branch breakpoints the emulator
# planted for the traced main thread (e.g. in ld.so's lazy binding) before
# it is traced itself: those must be emulated, never reported to GDB as a
# SIGTRAP.  At parked() every thread is traced; GDB (all-stop) learns of
# the new threads, and so asks to trace them, only at that stop, while
# they wait in read(2): ptstub traced each from its first instruction (at
# the clone event, as GDB's own Linux target does), so a worker's trace
# holds its start-up there (gdbserver on hardware would have lost it:
# GDB's Qbtrace then keeps the trace rather than restarting it), and
# more once the worker has run on to the end of worker_block.
# program: threads
# reference: none -- gdbserver cannot record btrace on this machine (no Intel PT, no BTS)
# expect: ^Thread 1 "threads" hit Breakpoint 2, parked \(\) at
# expect: ^Thread <pid1>\.<pid1>: emulated PT.*\nThread <pid1>\.<pid2>: emulated PT.*\nThread <pid1>\.<pid3>: emulated PT
# expect: ^-- thread 2\n(.*\n){3}Recorded [1-9]\d* instructions in [1-9]\d* functions \(0 gaps\) for thread 2 \(Thread <pid1>\.<pid2>\)\.$
# expect: ^Thread <pid1>\.<pid2>: engine (ptrace|code cache), [1-9]\d* instructions recorded[.:]
# expect: ^Thread 2 "threads" hit Breakpoint 3, worker_block \(index=0\) at
# expect: ^-- thread 2 ran\n(.*\n){3}Recorded [1-9]\d* instructions in [1-9]\d* functions \(0 gaps\) for thread 2 \(Thread <pid1>\.<pid2>\)\.$
# expect: ^-- thread 1\n(.*\n){3}Recorded [1-9]\d* instructions in [1-9]\d* functions \(0 gaps\) for thread 1 \(Thread <pid1>\.<pid1>\)\.$
# expect: ^all threads parked\njoined$
# expect: ^\[Inferior 1 \(process <pid1>\) exited normally\]$
# expect-not: SIGTRAP|Trace/breakpoint trap
# timeout: 15
target remote @TARGET@
break main
continue
record btrace pt
break parked
continue
monitor btrace status
thread 2
echo -- thread 2\n
info record
thread 1
echo -- thread 1\n
info record
break threads.c:20 thread 2
continue
echo -- thread 2 ran\n
info record
record stop
delete
continue
