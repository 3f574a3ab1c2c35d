# Hardware and software breakpoints, tbreak, a condition, delete.
# requires: debugregs
# program: plain
# args: 5
# expect: ^Breakpoint 1, compute \(n=5\) at @SRC@/testsuite/programs/plain\.c:\d+$
# expect: ^Hardware assisted breakpoint 2 at 0x[0-9a-f]+: file @SRC@/testsuite/programs/plain\.c
# expect: ^Breakpoint 2, square \(x=0\) at
# expect: ^Breakpoint 2, square \(x=3\) at
# expect: ^\$1 = 3$
# expect: ^Temporary breakpoint 3, twice \(v=4\) at
# expect: ^Breakpoint 1, compute \(n=4\) at
# expect: ^2\s+hw breakpoint\s+keep y .* in square at .*\n\s+stop only if x == 3.*\n\s+breakpoint already hit 2 times
# expect: ^1\s+breakpoint\s+keep y .* in compute at .*\n\s+breakpoint already hit 2 times
# expect: ^\[Inferior 1 \(process <pid1>\) exited normally\]$
# expect: ^compute=30 twice=28$
# expect: ^Process @BIN@/plain created; pid = <pid1>\nListening on port PORT\nRemote debugging from host 127\.0\.0\.1, port PORT$
# expect: ^=== stub exited with status 0 ===$
# expect-not: Breakpoint 2, square \(x=[124]\)
target remote @TARGET@
break compute
continue
hbreak square
continue
tbreak twice
condition 2 x == 3
continue
print x
info breakpoints
delete 2
continue
continue
info breakpoints
delete
continue
