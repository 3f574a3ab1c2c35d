# catch exec, then continue into the new image and stop in it.
# program: exec
# expect: ^process <pid1> is executing new program: @BIN@/plain$
# expect: ^Catchpoint 1 \(exec'd @BIN@/plain\), 
# expect: ^Breakpoint 2, compute \(n=3\) at @SRC@/testsuite/programs/plain\.c:14$
# expect: ^exec plain$
# expect: ^compute=5 twice=2$
target remote @TARGET@
catch exec
continue
info inferiors
break compute
continue
bt
delete
continue
