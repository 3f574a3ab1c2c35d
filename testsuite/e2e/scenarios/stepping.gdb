# step, next, finish, until and advance through plain's functions.
# program: plain
# args: 3
# expect: ^Breakpoint 1, main \(argc=2, argv=<addr\d+>\) at
# expect: ^compute \(n=3\) at @SRC@/testsuite/programs/plain\.c:14$
# expect: ^square \(x=0\) at @SRC@/testsuite/programs/plain\.c:8$
# expect: ^Value returned is \$1 = 0$
# expect: ^15\t    for \(int i = 0; i < n; i\+\+\)\n17\t    return sum;\n18\t}$
# expect: ^Value returned is \$2 = 5$
# expect: ^twice \(v=2\) at @SRC@/testsuite/programs/plain\.c:22$
# expect: ^Value returned is \$4 = 2$
# expect: ^\$5 = 5\n\$6 = 2$
# expect: ^compute=5 twice=2$
target remote @TARGET@
break main
continue
next
step
next
next
step
finish
next
until
until
info line
finish
advance twice
step
finish
finish
next
print a
print b
continue
