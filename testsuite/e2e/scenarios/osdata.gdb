# `info os` (qXfer:osdata:read): the list of types, then the inferior's
# rows in the processes, process groups and threads listings, in
# gdbserver's columns.  Other processes come and go, so only the
# inferior's rows are printed.
# program: plain
# mode: multi
# expect: ^Type +Description *\ncpus +Listing of all cpus/cores on the system *\nfiles +Listing of all file descriptors *\nmodules(.|\n)*^threads +Listing of all threads *$
# expect: ^processes: pid user command cores$
# expect: ^process <pid1>: user ours True, command @BIN@/plain 3, cores True$
# expect: ^procgroups: pgid leader command pid command line$
# expect: ^group of process <pid1>: pgid is pid True, leader plain, command @BIN@/plain 3$
# expect: ^threads: pid command tid core$
# expect: ^thread of process <pid1>: command plain, tid is pid True$
target extended-remote @TARGET@
set remote exec-file @PROG@
break compute
run 3
info os
python
import getpass, re
pid = str(gdb.selected_inferior().pid)
def rows(kind, columns):
    lines = gdb.execute("info os " + kind, to_string=True).splitlines()
    print(kind + ": " + " ".join(lines[0].split()))
    for line in lines[1:]:
        if line.split()[:1] == [pid]:
            yield line.split()
for f in rows("processes", 4):
    print("process %s: user ours %s, command %s, cores %s"
          % (f[0], f[1] == getpass.getuser(), " ".join(f[2:-1]),
             re.fullmatch(r"\d+(,\d+)*", f[-1]) is not None))
for f in rows("procgroups", 5):
    print("group of process %s: pgid is pid %s, leader %s, command %s"
          % (f[2], f[0] == f[2], f[1], " ".join(f[3:])))
for f in rows("threads", 4):
    print("thread of process %s: command %s, tid is pid %s"
          % (f[0], f[1], f[2] == f[0]))
end
delete
continue
