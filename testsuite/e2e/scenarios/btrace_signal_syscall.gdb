# Region 2 of program btrace under record btrace pt: a raw getpid syscall,
# then a raw kill of ourselves whose SIGUSR1 handler runs on the way out of
# the syscall, then rt_sigreturn back.  As on hardware, tracing stops at
# each syscall and resumes where user code resumes: after getpid at the
# next instruction (no gap), after kill in the handler and after
# rt_sigreturn at the interrupted IP (a gap each, "Non-contiguous trace").
# info record counts each gap as an instruction: ground truth + 2.
# program: btrace
# reference: none -- gdbserver cannot record btrace on this machine (no Intel PT, no BTS); the instruction count comes from single-stepping under it (ground-truth)
# ground-truth: ground_truth/btrace.gdb
# expect: ^Recorded @GT:region2+2@ instructions in 11 functions \(2 gaps\) for thread 1
# expect: ^1\t *main\n2\t *raw_syscall2\n3\t *main\n4\t *raw_syscall2\n5\t\[disabled\]\n6\t *on_usr1\n7\t *__restore_rt\n8\t\[disabled\]\n9\t *raw_syscall2\n10\t *main\n11\t *end_sys$
# expect: ^(\d+)\t   0x[0-9a-f]+ <raw_syscall2\+\d+>:\tsyscall\n(\d+\t   .*\n)+(\d+)\t   0x[0-9a-f]+ <raw_syscall2\+\d+>:\tsyscall\n\d+\t\[disabled\]\n\d+\t   0x[0-9a-f]+ <on_usr1\+0>:\tpush   %rbp$
# expect: ^\d+\t   <addr\d+> <__restore_rt\+\d+>:\tsyscall\n\d+\t\[disabled\]\n\d+\t   0x[0-9a-f]+ <raw_syscall2\+\d+>:\tmov    %rax,-0x8\(%rbp\)$
# expect: ^compute=14 fact=6 handled=1 spin=52500$
# expect: ^\[Inferior 1 \(process <pid1>\) exited normally\]$
# expect-not: decode error|Error while|Failed to synchronize
target remote @TARGET@
handle SIGUSR1 nostop noprint pass
break begin_sys
continue
finish
record btrace pt
break end_sys
continue
info record
record function-call-history /c 1,20
set record instruction-history-size 100
record instruction-history 1,100
record stop
delete
continue
