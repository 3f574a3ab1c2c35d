# Ground truth for the btrace scenarios on program btrace: instructions
# from the return of begin_region to end_region (region 1) and from the
# return of begin_sys to end_sys (region 2, a syscall and a signal).
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
