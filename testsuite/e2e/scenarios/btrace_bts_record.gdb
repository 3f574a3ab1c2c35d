# record btrace bts over region 1 of program btrace: the same counts as
# single-stepping (ground truth) and the same 16 function segments as the
# call tree; the oldest block starts where recording started and ends at
# the first branch (call compute), the newest ends at the current pc (the
# end_region breakpoint); every other block ends at a branch, also where
# GDB single-stepped (stepi 4 at the start: BTS records branches, not
# steps); a stepi extends the trace by one instruction.
# program: btrace
# reference: none -- gdbserver cannot record btrace on this machine (no Intel PT, no BTS); the instruction counts come from single-stepping under it (ground-truth)
# ground-truth: ground_truth/btrace.gdb
# expect: ^Recording format: Branch Trace Store\.\nBuffer size: 64kB\.\nRecorded @GT:region1@ instructions in 16 functions \(0 gaps\) for thread 1 \(Thread <pid1>\.<pid1>\)\.$
# expect: ^Thread <pid1>\.<pid1>: emulated BTS, buffer 65536 bytes
# expect: ^\$1 = \(void \(\*\)\(\)\) (0x[0-9a-f]+) <main\+\d+>\n[\s\S]*^0\tbegin: \1, end: 0x[0-9a-f]+$[\s\S]*^-- end_region at (0x[0-9a-f]+)\n\d+\tbegin: 0x[0-9a-f]+, end: \2$
# expect: ^1\tmain\n2\t  compute\n3\t    sq\n4\t  compute\n5\t    sq\n6\t  compute\n7\t    sq\n8\t  compute\n9\tmain\n10\t  fact\n11\t    fact\n12\t      fact\n13\t    fact\n14\t  fact\n15\tmain\n16\t  end_region$
# expect: ^-- after stepi\n(.*\n){3}Recorded @GT:region1+1@ instructions in 16 functions \(0 gaps\)
# expect: ^-- blocks end at branches: yes$
# expect-not: Non-contiguous|decode error|Error while
target remote @TARGET@
break begin_region
continue
finish
print $pc
record btrace bts
monitor btrace status
stepi 4
break end_region
continue
info record
record function-call-history /c 1,16
maint btrace packet-history 0
python
n = int(gdb.execute("maint info btrace", to_string=True).split("Number of packets: ")[1].split(".")[0])
gdb.write("-- end_region at %#x\n" % int(gdb.parse_and_eval("$pc")))
gdb.execute("maint btrace packet-history %d" % (n - 1))
arch = gdb.selected_frame().architecture()
bad = []
for i in range(n - 1):
    line = gdb.execute("maint btrace packet-history %d" % i, to_string=True)
    end = int(line.split("end: ")[1].split()[0], 16)
    insn = arch.disassemble(end)[0]["asm"].split()[0]
    if not (insn.startswith("j") or insn in ("call", "ret", "syscall")):
        bad.append("%d ends at %#x: %s" % (i, end, insn))
gdb.write("-- blocks end at branches: %s\n" % ("yes" if not bad else "; ".join(bad)))
end
stepi
echo -- after stepi\n
info record
record stop
