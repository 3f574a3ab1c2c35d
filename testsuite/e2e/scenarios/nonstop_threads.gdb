# Non-stop (set non-stop on): each thread stops on its own while the
# others run: a breakpoint, interrupt of one thread, interrupt -a, then
# a breakpoint in the thread function and continue -a to the end.  Each
# foreground command ends at the next stop GDB takes from the stub, so
# every interrupt is of one running thread (two at once would stop in
# gdbserver's random order), a blocked thread is what goes on, and
# ns_stopped waits (on /proc, not on time) until an interrupted thread
# has stopped, so its stop comes before the next command's own.
# program: threads
# expect: ^\* 1\s+Thread <pid1>\.<pid1> "threads" parked \(\) at .*:47\n  2\s+Thread <pid1>\.<pid2> "threads" \(running\)\n  3\s+Thread <pid1>\.<pid3> "threads" \(running\)$
# expect: ^Thread 2 "threads" stopped\.\n__GI___libc_read
# expect: ^\* 1\s+Thread <pid1>\.<pid1> "threads" \(running\)\n  2\s+Thread <pid1>\.<pid2> "threads" __GI___libc_read
# expect: ^48\t}\n  Id\s+Target Id\s+Frame\n  1\s+Thread <pid1>\.<pid1> "threads" parked \(\) at @SRC@/testsuite/programs/threads\.c:48\n\* 2\s+Thread <pid1>\.<pid2> "threads" \(running\)\n  3\s+Thread <pid1>\.<pid3> "threads" \(running\)$
# expect: ^Thread 3 "threads" stopped\.\n__GI___libc_read
# expect: ^Thread 2 "threads" stopped\.\n__GI___libc_read .*\n26\tin 
# expect: ^Thread 2 \(Thread <pid1>\.<pid2> "threads"\):\n#0  __GI___libc_read
# expect: ^#2  0x[0-9a-f]+ in worker_block \(index=\.\.\.\) at @SRC@/testsuite/programs/threads\.c:18$
# expect: ^Thread 3 "threads" hit Breakpoint 2, worker_block \(index=\.\.\.\) at @SRC@/testsuite/programs/threads\.c:20$
# expect: ^\[Inferior 1 \(process <pid1>\) exited normally\]$
# expect: ^all threads parked\njoined$
set non-stop on
set print frame-arguments none
python
import time
def ns_stopped(num):
    thr = [t for t in gdb.selected_inferior().threads() if t.num == num][0]
    path = "/proc/%d/task/%d/status" % (thr.ptid[0], thr.ptid[1])
    while "(tracing stop)" not in open(path).read():
        time.sleep(0.001)
end
target remote @TARGET@
break parked
continue
info threads
thread 2
interrupt
python ns_stopped(2)
delete
thread 1
next
info threads
thread 2
continue
info threads
thread 3
interrupt
python ns_stopped(3)
interrupt -a
python ns_stopped(2)
thread 1
continue
break threads.c:20 thread 3
thread 3
continue
thread apply all -s bt
thread 2
continue
delete
continue -a
