# stepi and nexti over a syscall instruction in the program's own code.
# program: syscall
# expect: ^=> 0x[0-9a-f]+ <raw_write\+\d+>:\tsyscall\s*$
# expect: ^\$1 = 1$
# expect: ^\$2 = 5$
# expect: ^\$3 = 1$
# expect: ^\$4 = 5$
# expect: ^tick\ntick\ntick$
# expect: ^\[Inferior 1 \(process <pid1>\) exited normally\]$
target remote @TARGET@
break raw_write
continue
display/i $pc
stepi
stepi
stepi
stepi
stepi
print $rax
stepi
print $rax
info line *$pc
continue
stepi
stepi
stepi
stepi
stepi
print $rax
nexti
print $rax
undisplay 1
delete
continue
