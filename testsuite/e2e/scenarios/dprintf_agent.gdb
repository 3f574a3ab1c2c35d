# dprintf with `set dprintf-style agent`: GDB hands the printf to the stub
# with the breakpoint (Z0 ";cmds:", BreakpointCommands+); the stub formats
# it (a %s read from the inferior) and prints it on its own stdout, and
# the program does not stop there.  A plain breakpoint still stops.
# program: plain
# args: 3
# expect: ^Dprintf 2 at 0x[0-9a-f]+: file .*plain\.c, line \d+\.$
# expect: ^\s+agent-printf "sq x=%d r=%d\\n", x, x \* x$
# expect: ^Breakpoint 5, main \(argc=2, argv=\S+\) at .*plain\.c:29$
# expect: ^2\s+dprintf\s+keep y .* in square at .*\n\s+agent-printf
# expect: ^\[Inferior 1 \(process <pid1>\) exited normally\]$
# expect: ^sq x=0 r=0\nsq x=1 r=1\nsq x=2 r=4\ntwice v=2\nsq x=0 r=0\nsq x=1 r=1\na=5 b=\|    2\|arg=3\|%\ncompute=5 twice=2$
# expect-not: ^Breakpoint [234],
# expect-not: cannot run dprintf
target remote @TARGET@
break main
continue
set dprintf-style agent
dprintf square,"sq x=%d r=%d\n", x, x * x
dprintf plain.c:30,"a=%d b=|%5d|arg=%s|%%\n", a, b, argv[1]
dprintf twice,"twice v=%d\n", v
info breakpoints
break plain.c:29
continue
print n
continue
info breakpoints
