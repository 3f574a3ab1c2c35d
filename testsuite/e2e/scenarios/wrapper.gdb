# --wrapper WRAPPER --: the program runs through `env`, which sets a
# variable the program then sees; the stub must count the wrapper's exec
# and stop at the program's first instruction, not in env.
# program: plain
# mode: stdio
# expect: ^Process @BIN@/plain created; pid = <pid1>$
# expect: ^Breakpoint 1, compute \(n=3\) at
# expect: ^\$1 = \S+ "wrapped"$
# expect: ^\[Inferior 1 \(process <pid1>\) exited normally\]$
target remote | @STUB@ --wrapper env E2E_WRAPPED=wrapped -- - @PROG@ 3
break compute
continue
print (char *) getenv("E2E_WRAPPED")
delete
continue
