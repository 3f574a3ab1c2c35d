# Two threads of program btrace_threads recorded separately: record
# btrace pt traces both; with scheduler-locking, thread 1 runs main_begin
# .. main_end (fact(3) recursing to depth 3: 9 segments), then thread 2
# runs from its read(2) (glibc's read, its cancellation epilogue, back
# into worker) through compute(2) (sq twice) to worker_end: 13 segments.
# Each thread's count equals single-stepping that thread (ground truth),
# and neither history holds the other thread's functions.
# program: btrace_threads
# reference: none -- gdbserver cannot record btrace on this machine (no Intel PT, no BTS); the instruction counts come from single-stepping under it (ground-truth)
# ground-truth: ground_truth/btrace_threads.gdb
# expect: ^Thread <pid1>\.<pid1>: emulated PT, buffer 16384 bytes.*\nThread <pid1>\.<pid2>: emulated PT, buffer 16384 bytes
# expect: ^-- thread 1\n(.*\n){3}Recorded @GT:t1@ instructions in 9 functions \(0 gaps\) for thread 1 \(Thread <pid1>\.<pid1>\)\.\n1\t  main_begin\n2\tmain\n3\t  fact\n4\t    fact\n5\t      fact\n6\t    fact\n7\t  fact\n8\tmain\n9\t  main_end$
# expect: ^-- thread 2\n(.*\n){3}Recorded @GT:t2@ instructions in 13 functions \(0 gaps\) for thread 2 \(Thread <pid1>\.<pid2>\)\.\n1\t  __GI___libc_read\n2\t    __GI___pthread_disable_asynccancel\n3\t  __GI___libc_read\n4\tworker\n5\t  worker_begin\n6\tworker\n7\t  compute\n8\t    sq\n9\t  compute\n10\t    sq\n11\t  compute\n12\tworker\n13\t  worker_end$
# expect: ^-- thread 1 again\n(.*\n){3}Recorded @GT:t1@ instructions in 9 functions
# expect: ^\[Inferior 1 \(process <pid1>\) exited normally\]$
target remote @TARGET@
break main_begin
continue
record btrace pt
monitor btrace status
set scheduler-locking on
break main_end
continue
echo -- thread 1\n
info record
record function-call-history /c 1,20
thread 2
break worker_end
continue
echo -- thread 2\n
info record
record function-call-history /c 1,20
thread 1
echo -- thread 1 again\n
info record
record stop
set scheduler-locking off
delete
continue
