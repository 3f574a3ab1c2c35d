# Memory and register writes, and a call into the inferior from GDB.
# program: plain_nopie
# expect: ^\$1 = 49$
# expect: ^\$2 = 2$
# expect: ^Value returned is \$3 = 1$
# expect: ^0x40[0-9a-f]{4} <compute>:(\t0x[0-9a-f]{2}){4}$
# expect: ^\$4 = 7$
# expect: ^\$5 = 7$
# expect: ^compute=7 twice=28$
target remote @TARGET@
break compute
continue
print square(7)
set var n = 2
print n
delete
finish
set var $rax = 7
print $rax
next
print a
x/4xb compute
continue
