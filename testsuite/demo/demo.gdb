# The demo: what a user sees debugging a program through ptstub, then
# recording it with record btrace pt (the stub's trace emulator): the
# function-call-history of farthest's loop, the instruction-history
# around a reverse-step, and the first packets of the raw trace.
# program: demo
# expect: ^Breakpoint 1, farthest \(pts=
# expect: ^Value returned is \$\d+ = 2$
# expect: ^1\tfarthest\tinst 1,\d+\tat @SRC@/testsuite/demo/demo\.c:\d+,\d+\n2\t  distance2\tinst
# expect: ^0\t0x0\tpsb\n1\t0x[0-9a-f]+\tmode\.exec cs\.l\n2\t0x[0-9a-f]+\tpsbend$
# expect-not: decode error|Non-contiguous
target remote @TARGET@
break farthest
continue
backtrace
record btrace pt
next
next
step
info registers rip
finish
next
print best_d
info record
record function-call-history /ilc
reverse-step
record instruction-history /m
maint btrace packet-history 0,5
record goto end
record stop
finish
continue
