# info all-registers: the full list the target description gives.
# program: plain
# expect: ^rip\s+0x[0-9a-f]+\s+0x[0-9a-f]+ <compute\+\d+>$
# expect: ^st0\s+0\s+\(raw 0x0+\)$
# expect: ^mxcsr\s+0x1f80\s+\[ IM DM ZM OM UM PM \]$
# expect: ^zmm0\s+\{v32_bfloat16 = 
target remote @TARGET@
break compute
continue
info all-registers
delete
continue
