# A bare program name that is a file in the stub's working folder runs
# by its absolute path (gdbserver's rule): the shell would otherwise look
# it up in PATH and not find it.
# program: plain
# mode: stdio
# expect: ^Process @BIN@/plain created; pid = <pid1>$
# expect: ^Breakpoint 1, compute \(n=2\) at
# expect: ^\$1 = \S+ "@BIN@/plain"$
target remote | cd @BIN@ && exec @STUB@ - plain 2
break compute
continue
up
print argv[0]
