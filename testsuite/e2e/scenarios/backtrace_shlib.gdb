# A backtrace from a qsort callback goes through libc; calls into libm.
# program: shlib
# expect: ^Breakpoint 1, compare_ints \(a=<addr\d+>, b=<addr\d+>\) at
# expect: ^#0  compare_ints \(a=<addr\d+>, b=<addr\d+>\) at @SRC@/testsuite/programs/shlib\.c:\d+$
# expect: ^#\d+  (<addr\d+> in )?__GI___qsort_r \(.*cmp=0x[0-9a-f]+ <compare_ints>
# expect: ^#\d+  0x[0-9a-f]{16} in main \(argc=1, argv=<addr\d+>\) at @SRC@/testsuite/programs/shlib\.c:\d+$
# expect: ^\$2 = 0\.99\d+$
# expect: ^first=1 last=9 root=0.998$
target remote @TARGET@
break compare_ints
continue
bt
frame 1
info frame
frame 0
finish
delete
tbreak shlib.c:19
continue
print root
continue
