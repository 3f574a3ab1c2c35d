# record btrace pt over region 1 of program btrace (main -> compute ->
# sq x3, then fact(3) recursing to depth 3, then end_region: 16 function
# segments).  info record must count what single-stepping counts (ground
# truth), before and after a stepi (a second read of the trace) and after
# maint btrace clear (GDB re-reads the whole buffer); the trace starts with
# PSB+ (with the time: TSC) and TIP.PGE, after the time, at the
# instruction where recording started; the stub
# says the emulator traces the thread; record stop ends it all.
# program: btrace
# reference: none -- gdbserver cannot record btrace on this machine (no Intel PT, no BTS); the instruction counts come from single-stepping under it (ground-truth)
# ground-truth: ground_truth/btrace.gdb
# expect: ^Recording format: Intel Processor Trace\.\nBuffer size: 16kB\.\nRecorded @GT:region1@ instructions in 16 functions \(0 gaps\) for thread 1 \(Thread <pid1>\.<pid1>\)\.$
# expect: ^Thread <pid1>\.<pid1>: emulated PT, buffer 16384 bytes, \d+ bytes recorded
# expect: ^\$1 = \(void \(\*\)\(\)\) (0x[0-9a-f]+) <main\+\d+>\n[\s\S]*^0\t0x0\tpsb\n1\t0x[0-9a-f]+\ttsc [0-9a-f]+\n2\t0x[0-9a-f]+\tmode\.exec cs\.l\n3\t0x[0-9a-f]+\tpsbend\n4\t0x[0-9a-f]+\ttsc [0-9a-f]+\n5\t0x[0-9a-f]+\tmode\.exec cs\.l\n6\t0x[0-9a-f]+\ttip\.pge \d: \1$
# expect: ^Format: Intel Processor Trace\.\nVersion: [\d.]+\.\nNumber of packets: [1-9]\d*\.$
# expect: ^-- after stepi\n(.*\n){3}Recorded @GT:region1+1@ instructions in 16 functions \(0 gaps\)
# expect: ^-- after maint btrace clear\n(.*\n){3}Recorded @GT:region1+1@ instructions in 16 functions \(0 gaps\)
# expect: ^Process record is stopped and all execution logs are deleted\.\nNo recording is currently active\.$
# expect: ^compute=14 fact=6 handled=1 spin=52500$
# expect: ^\[Inferior 1 \(process <pid1>\) exited normally\]$
# expect-not: Non-contiguous|decode error|Error while|Failed to synchronize
target remote @TARGET@
handle SIGUSR1 nostop noprint pass
break begin_region
continue
finish
print $pc
record btrace pt
monitor btrace status
break end_region
continue
info record
maint btrace packet-history 0,6
maint info btrace
stepi
echo -- after stepi\n
info record
maint btrace clear
echo -- after maint btrace clear\n
info record
record stop
info record
delete
continue
