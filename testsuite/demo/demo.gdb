# The demo: what a user sees debugging a program through ptstub, then
# recording it with record btrace pt (the stub's trace emulator): the
# function-call-history of farthest's loop, the instruction-history
# before and after a reverse-step, and the first packets of the raw
# trace.  The echo lines are headings for the reader.
# program: demo
# expect: ^Breakpoint 1, farthest \(pts=
# expect: ^Value returned is \$\d+ = 2$
# expect: ^1\tfarthest\tinst 1,\d+\tat @SRC@/testsuite/demo/demo\.c:\d+,\d+\n2\t  distance2\tinst
# expect: ^0\t0x0\tpsb\n1\t0x[0-9a-f]+\ttsc [0-9a-f]+\n2\t0x[0-9a-f]+\tmode\.exec cs\.l\n3\t0x[0-9a-f]+\tpsbend$
# expect: ^distance2 \(a=\.\.\., b=\.\.\.\) at @SRC@/testsuite/demo/demo\.c:13\n13\t}$
# expect: ^\d+\t=> 0x[0-9a-f]+ <distance2\+\d+>:\tpop    %rbp$
# expect-not: decode error|Non-contiguous
echo \n=== Debugging through ptstub: stop in farthest ===\n
target remote @TARGET@
break farthest
continue
backtrace
echo \n=== record btrace pt: the stub traces farthest's loop ===\n
record btrace pt
next
next
step
info registers rip
finish
break 25
continue
print best_d
info record
echo \n=== record function-call-history /ilc: calls, instruction ranges, lines ===\n
record function-call-history /ilc
echo \n=== record instruction-history /m: the last instructions recorded ===\n
record instruction-history /m
echo \n=== reverse-step, three times: back into the last distance2 call ===\n
reverse-step
reverse-step
reverse-step
echo \n=== record instruction-history /m: around the replay position (=>) ===\n
record instruction-history /m
echo \n=== maint btrace packet-history 0,5: the raw Intel PT packets ===\n
maint btrace packet-history 0,5
echo \n=== back to the live end, record stop, run to the end ===\n
record goto end
record stop
finish
continue
