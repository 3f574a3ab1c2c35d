# GDB stopping inside the recorded region must not change the trace:
# region 1 of program btrace with a breakpoint on sq's ret (where the
# emulator plants its own trap: the two share the site); the count is
# still the single-step ground truth.  btrace_stops_watch.gdb adds a
# hardware watchpoint.
# program: btrace
# reference: none -- gdbserver cannot record btrace on this machine (no Intel PT, no BTS); the instruction count comes from single-stepping under it (ground-truth)
# ground-truth: ground_truth/btrace.gdb
# expect: ^Breakpoint 2, 0x[0-9a-f]+ in sq \(x=1\) at @SRC@/testsuite/programs/btrace\.c:24$
# Memory reads see the program's bytes (ret, jle), never a planted trap:
# expect: ^-- sq\+14 holds 0xc3\n-- compute\+50 holds 0x7e$
# expect: ^Breakpoint 3, end_region \(\) at
# expect: ^Recorded @GT:region1@ instructions in 16 functions \(0 gaps\) for thread 1
target remote @TARGET@
handle SIGUSR1 nostop noprint pass
break begin_region
continue
finish
record btrace pt
break *sq+14
continue
delete 2
python gdb.write("-- sq+14 holds %#x\n" % int(gdb.parse_and_eval("*(unsigned char *) (sq + 14)")))
python gdb.write("-- compute+50 holds %#x\n" % int(gdb.parse_and_eval("*(unsigned char *) (compute + 50)")))
break end_region
continue
info record
