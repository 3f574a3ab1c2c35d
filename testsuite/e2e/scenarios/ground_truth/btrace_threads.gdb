# Ground truth for btrace_threads.gdb: with scheduler-locking, instructions
# thread 1 runs from main_begin to main_end, then thread 2 from its read(2)
# (restarted when it resumes; the syscall counts as one) to worker_end.
source @E2E@/stepi_count.py
target remote @TARGET@
break main_begin
continue
set scheduler-locking on
count-stepi t1 main_end
thread 2
count-stepi t2 worker_end
