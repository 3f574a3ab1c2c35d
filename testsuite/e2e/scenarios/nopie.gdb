# A fixed-address program: its code addresses are compared exactly.
# program: plain_nopie
# expect: ^Breakpoint 1 at 0x40[0-9a-f]{4}: file @SRC@/testsuite/programs/plain\.c, line 14\.$
# expect: ^\$1 = \{int \(int\)\} 0x40[0-9a-f]{4} <compute>$
# expect: ^#1  0x[0-9a-f]+ in main \(argc=1, argv=<addr\d+>\) at
break compute
target remote @TARGET@
continue
print compute
info symbol $pc
bt
x/4i compute
p/x *(unsigned char *) compute
delete
continue
