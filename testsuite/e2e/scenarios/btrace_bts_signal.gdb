# Region 2 of program btrace (raw getpid, raw kill whose SIGUSR1 handler
# runs, rt_sigreturn) under record btrace bts: BTS keeps user-space
# branches only, so the blocks go on where user code resumes (after a
# syscall, in the handler, after the kill again) with no gaps, and the
# count is the single-step ground truth.  The handler is entered without
# a call, so GDB starts new segments for on_usr1 and __restore_rt.
# program: btrace
# reference: none -- gdbserver cannot record btrace on this machine (no Intel PT, no BTS); the instruction count comes from single-stepping under it (ground-truth)
# ground-truth: ground_truth/btrace.gdb
# expect: ^Recorded @GT:region2@ instructions in 9 functions \(0 gaps\) for thread 1
# expect: ^1\t *main\n2\t *raw_syscall2\n3\t *main\n4\t *raw_syscall2\n5\t *on_usr1\n6\t *__restore_rt\n7\t *raw_syscall2\n8\t *main\n9\t *end_sys$
# expect: ^compute=14 fact=6 handled=1 spin=52500$
target remote @TARGET@
handle SIGUSR1 nostop noprint pass
break begin_sys
continue
finish
record btrace bts
break end_sys
continue
info record
record function-call-history /c 1,20
record stop
delete
continue
