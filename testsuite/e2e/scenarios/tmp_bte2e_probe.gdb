# program: btrace
# reference: none -- gdbserver cannot record btrace here
# ground-truth: ground_truth/btrace_region.gdb
# expect: ^Recorded @GT:region1@ instructions in 16 functions
target remote @TARGET@
break begin_region
continue
finish
record btrace pt
break end_region
continue
info record
