# record instruction-history over region 1 of program btrace.  From the
# function-call-history, segment 3 is the first sq call: its instructions
# are sq's whole body, push %rbp first and ret last; /m groups them under
# sq's source lines 22, 23, 24; /r shows the raw bytes (55 is push %rbp);
# /f drops the function name; N,+K and N,-K ranges count from N.
# program: btrace
# reference: none -- gdbserver cannot record btrace on this machine (no Intel PT, no BTS)
# expect: ^3\t    sq\tinst (\d+),(\d+)\n-- sq\n\1\t   0x[0-9a-f]+ <sq\+0>:\tpush   %rbp\n(\d+\t   0x[0-9a-f]+ <sq\+\d+>:\t.*\n)+\2\t   0x[0-9a-f]+ <sq\+\d+>:\tret$
# expect: ^-- /m\n@SRC@/testsuite/programs/btrace\.c:22\t\{\n16\t   0x[0-9a-f]+ <sq\+0>:\tpush   %rbp\n(.*\n)*@SRC@/testsuite/programs/btrace\.c:23\t\treturn x \* x;\n(.*\n)*@SRC@/testsuite/programs/btrace\.c:24\t\}\n(\d+\t.*\n)*22\t   0x[0-9a-f]+ <sq\+\d+>:\tret\n-- /r
# expect: ^-- /r\n16\t   0x[0-9a-f]+ <sq\+0>:\t55\s+\tpush   %rbp$
# expect: ^-- /f\n1\t   0x[0-9a-f]+ <\+33>:\tmov    \$0x3,%edi\n2\t   0x[0-9a-f]+ <\+38>:\tcall   0x[0-9a-f]+ <compute>$
# expect: ^-- 20,\+3\n20\t.*\n21\t.*\n22\t.*ret\n-- 22,-3\n20\t.*\n21\t.*\n22\t.*ret$
# expect: ^-- 1,1\n1\t   0x[0-9a-f]+ <main\+33>:\tmov    \$0x3,%edi\n-- end$
target remote @TARGET@
break begin_region
continue
finish
record btrace pt
break end_region
continue
record function-call-history /ic 3,3
echo -- sq\n
record instruction-history 16,22
echo -- /m\n
record instruction-history /m 16,22
echo -- /r\n
record instruction-history /r 16,16
echo -- /f\n
record instruction-history /f 1,2
echo -- 20,+3\n
record instruction-history 20,+3
echo -- 22,-3\n
record instruction-history 22,-3
echo -- 1,1\n
record instruction-history 1,1
echo -- end\n
