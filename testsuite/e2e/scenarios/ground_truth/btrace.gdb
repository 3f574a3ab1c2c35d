# Ground truth for the btrace scenarios on program btrace: instructions
# from the return of begin_region to end_region (region 1) and from the
# return of begin_sys to end_sys (region 2, a syscall and a signal), from
# the return of begin_misc to end_misc (region 4, rep stosb, a jump table)
# and from the return of begin_deep to end_deep (region 5, recursion 100 deep).
source @E2E@/stepi_count.py
target remote @TARGET@
handle SIGUSR1 stop print pass
break begin_region
break begin_sys
continue
finish
count-stepi region1 end_region
continue
finish
count-stepi region2 end_sys
break begin_misc
continue
finish
count-stepi region4 end_misc
break begin_deep
continue
finish
count-stepi region5 end_deep
