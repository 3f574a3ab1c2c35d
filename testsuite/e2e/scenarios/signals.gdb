# handle SIGUSR1 nopass, then nostop noprint pass; SIGUSR2 nostop noprint
# pass throughout.  GDB applies the setting in force when it resumes: the
# first SIGUSR1 is discarded, the second delivered: usr1=1, usr2=2.
# program: signals
# expect: ^Program received signal SIGUSR1, User defined signal 1\.\n(.*\n){2}Signal\s+Stop\s+Print\s+Pass to program\s+Description\nSIGUSR1\s+Yes\s+Yes\s+No\s+User defined signal 1\n\nProgram received signal SIGUSR1, User defined signal 1\.$
# expect-not: Program received signal SIGUSR2
# expect: ^usr1=1 usr2=2$
# expect: ^\[Inferior 1 \(process <pid1>\) exited normally\]$
target remote @TARGET@
handle SIGUSR1 stop print nopass
handle SIGUSR2 nostop noprint pass
continue
info signals SIGUSR1
continue
handle SIGUSR1 nostop noprint pass
continue
