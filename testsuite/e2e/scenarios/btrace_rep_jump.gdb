# Region 4 of program btrace under record btrace pt: a rep stosb of 16
# bytes is one instruction in the trace however many iterations it runs
# (single-stepping folds its repeats: ground truth); pick's switch goes
# through a jump table (an indirect jmp, a TIP each) for k = 0..5, so the
# history is misc_region, then pick and back six times, then end_misc.
# program: btrace
# reference: none -- gdbserver cannot record btrace on this machine (no Intel PT, no BTS); the instruction count comes from single-stepping under it (ground-truth)
# ground-truth: ground_truth/btrace.gdb
# expect: ^Recorded @GT:region4@ instructions in 14 functions \(0 gaps\) for thread 1
# expect: ^1\tmisc_region\n2\t  pick\n3\tmisc_region\n4\t  pick\n5\tmisc_region\n6\t  pick\n7\tmisc_region\n8\t  pick\n9\tmisc_region\n10\t  pick\n11\tmisc_region\n12\t  pick\n13\tmisc_region\n14\t  end_misc$
# expect: ^-- rep\n\d+\t   0x[0-9a-f]+ <misc_region\+\d+>:\trep stos %al,%es:\(%rdi\)\n\d+\t   0x[0-9a-f]+ <misc_region\+\d+>:\t(?!rep)
# expect: ^-- rep count 1$
# expect: ^-- jmp count 5$
# expect-not: decode error|Non-contiguous|Error while
target remote @TARGET@
handle SIGUSR1 nostop noprint pass
break begin_misc
continue
finish
record btrace pt
break end_misc
continue
info record
record function-call-history /c 1,20
python
out = gdb.execute("record instruction-history 1,400", to_string=True).splitlines()
reps = [i for i, l in enumerate(out) if "\trep stos" in l]
gdb.write("-- rep\n" + "\n".join(out[reps[0]:reps[0] + 2]) + "\n" if reps else "-- no rep\n")
gdb.write("-- rep count %d\n" % len(reps))
gdb.write("-- jmp count %d\n" % sum("\tjmp    *%rax" in l for l in out))
end
