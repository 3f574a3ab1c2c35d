# Reverse execution over region 1 of program btrace, from the end_region
# breakpoint (line 55; the two instructions before it are end_region's
# prologue, line 54), landings from the source: reverse-step leaves
# end_region for its call in main (96); reverse-next steps back over
# fact(3) to line 95; reverse-continue to a breakpoint in sq meets the
# three calls last first, then the start of the record (line 94);
# reverse-finish from sq lands on the call in compute (line 30).  Then
# forward: next/step through the replay (fact's lines 36, 38, 39), to the
# live end ("No more reverse-execution history" at end_region), and one
# live next more, after which the trace holds the three instructions
# nop, pop, ret of end_region more than the ground truth.
# program: btrace
# reference: none -- gdbserver cannot record btrace on this machine (no Intel PT, no BTS); the instruction count comes from single-stepping under it (ground-truth)
# ground-truth: ground_truth/btrace.gdb
# expect: ^55\t\}\n0x[0-9a-f]+\t54\t\{\n54\t\{\nmain \(\) at @SRC@/testsuite/programs/btrace\.c:96\n96\t\tend_region\(\);\n95\t\tb = fact\(3\);$
# expect: ^Breakpoint 3, sq \(x=<unavailable>\) at @SRC@/testsuite/programs/btrace\.c:23\n23\t\treturn x \* x;\n-- reverse-finish\n(Run back to call of #0  sq .*\n)?0x[0-9a-f]+ in compute \(n=<unavailable>\) at @SRC@/testsuite/programs/btrace\.c:30\n30\t\t\ttotal \+= sq\(i\);$
# expect: ^-- reverse-continue x3\n\nBreakpoint 3, sq .*\n23\t.*\n\nBreakpoint 3, sq .*\n23\t.*\n\nNo more reverse-execution history\.\nmain \(\) at @SRC@/testsuite/programs/btrace\.c:94\n94\t\ta = compute\(3\);$
# expect: ^-- forward\n95\t\tb = fact\(3\);\nfact \(n=<unavailable>\) at @SRC@/testsuite/programs/btrace\.c:36\n36\t\tif \(n <= 1\)\n38\t\treturn n \* fact\(n - 1\);\n39\t\}\nmain \(\) at @SRC@/testsuite/programs/btrace\.c:96\n96\t\tend_region\(\);\n\nNo more reverse-execution history\.\nend_region \(\) at @SRC@/testsuite/programs/btrace\.c:55\n55\t\}$
# expect: ^-- live\nmain \(\) at @SRC@/testsuite/programs/btrace\.c:97\n97\t\tbegin_sys\(\);\n(.*\n){3}Recorded @GT:region1+3@ instructions in 16 functions \(0 gaps\) for thread 1 \(Thread <pid1>\.<pid1>\)\.$
# expect-not: Replay in progress
target remote @TARGET@
break begin_region
continue
finish
record btrace pt
break end_region
continue
reverse-stepi
reverse-stepi
reverse-step
reverse-next
break sq
reverse-continue
echo -- reverse-finish\n
reverse-finish
echo -- reverse-continue x3\n
reverse-continue
reverse-continue
reverse-continue
delete
echo -- forward\n
next
step
next
next
next
next
echo -- live\n
next
info record
