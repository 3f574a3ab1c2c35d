# Three threads: info threads, thread 2, thread apply all bt.
# program: threads
# expect: ^\[New Thread <pid1>\.<pid2>\]\n\[New Thread <pid1>\.<pid3>\]$
# expect: ^Thread 1 "threads" hit Breakpoint 1, parked \(\) at
# expect: ^\* 1\s+Thread <pid1>\.<pid1> "threads" parked \(\) at
# expect: ^  2\s+Thread <pid1>\.<pid2> "threads" __GI___libc_read \(.*fd=3\)
# expect: ^  3\s+Thread <pid1>\.<pid3> "threads" __GI___libc_read \(.*fd=3\)
# expect: ^\[Switching to thread 2 \(Thread <pid1>\.<pid2>\)\]$
# expect: ^Thread 3 \(Thread <pid1>\.<pid3> "threads"\):\n#0  __GI___libc_read
# expect: ^#2  0x[0-9a-f]+ in worker_block \(index=1\) at
# expect: ^#3  0x[0-9a-f]+ in worker \(arg=0x0\) at
# expect: ^Thread 1 \(Thread <pid1>\.<pid1> "threads"\):\n#0  parked \(\) at
# expect: ^all threads parked\njoined$
target remote @TARGET@
break parked
continue
info threads
thread 2
bt
frame 1
thread apply all bt
thread 1
delete
continue
