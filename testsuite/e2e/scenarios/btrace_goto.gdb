# record goto over region 1 of program btrace: begin is the first
# recorded instruction (main, line 94), instruction 16 is the entry of the
# first sq call (function-call-history /i says so in the same run), end
# is the live position at the end_region breakpoint; info record says
# where the replay stands, and nothing once back at the end.
# program: btrace
# reference: none -- gdbserver cannot record btrace on this machine (no Intel PT, no BTS)
# expect: ^-- begin\n#0  main \(\) at @SRC@/testsuite/programs/btrace\.c:94\n94\t\ta = compute\(3\);\n(.*\n){4}Replay in progress\.  At instruction 1\.$
# expect: ^3\t    sq\tinst 16,\d+\n-- 16\n#0  sq \(x=<unavailable>\) at @SRC@/testsuite/programs/btrace\.c:22\n22\t\{\n(.*\n){4}Replay in progress\.  At instruction 16\.$
# expect: ^-- 3\n#0  compute \(n=<unavailable>\) at @SRC@/testsuite/programs/btrace\.c:27\n27\t\{$
# expect: ^-- end\n#0  end_region \(\) at @SRC@/testsuite/programs/btrace\.c:55\n55\t\}\n(.*\n){3}Recorded \d+ instructions in 16 functions \(0 gaps\) for thread 1 \(Thread <pid1>\.<pid1>\)\.\n-- live$
# expect: ^-- live\n#0  end_region \(\) at
target remote @TARGET@
break begin_region
continue
finish
record btrace pt
break end_region
continue
echo -- begin\n
record goto begin
info record
record function-call-history /ic 3,3
echo -- 16\n
record goto 16
info record
echo -- 3\n
record goto 3
echo -- end\n
record goto end
info record
echo -- live\n
backtrace 1
