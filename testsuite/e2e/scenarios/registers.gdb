# info registers, $pc and x/8i at a breakpoint in the program.
# program: plain_nopie
# expect: ^rip\s+(0x40[0-9a-f]{4})\s+\1 <square\+\d+>$
# expect: ^rsp\s+<addr\d+>\s+<addr\d+>$
# expect: ^eflags\s+0x[0-9a-f]+\s+\[ .*\]$
# expect: ^cs\s+0x33\s+51$
# expect: ^\$1 = \(void \(\*\)\(\)\) 0x40[0-9a-f]{4} <square\+\d+>$
# expect: ^=> 0x40[0-9a-f]{4} <square\+\d+>:\t
# expect: ^rdi\s+0x0\s+0$
target remote @TARGET@
break square
continue
info registers
print $pc
x/8i $pc
info registers rip rsp rdi
print $sp == $rsp
print/x $eflags
delete
continue
