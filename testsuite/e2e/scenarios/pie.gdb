# A PIE: GDB relocates symbols to where the stub says the program loaded.
# program: plain
# expect: ^Breakpoint 1 at 0x1169: file @SRC@/testsuite/programs/plain\.c, line 14\.$
# expect: ^Breakpoint 1, compute \(n=5\) at
# expect: ^\$1 = \{int \(int\)\} 0x5555555[0-9a-f]+ <compute>$
# expect: ^Symbol "compute" is a function at address 0x5555555[0-9a-f]+\.$
break compute
target remote @TARGET@
continue
print compute
info address compute
info symbol $pc
x/2i $pc
info proc
delete
continue
