# record function-call-history over region 1 of program btrace, whose call
# tree the source fixes: main -> compute -> sq (i = 1..3) -> compute ->
# main -> fact(3) -> fact(2) -> fact(1), back up, main -> end_region.
# /c indents by call depth; /l gives each segment's source lines (compute
# runs lines 27-30 before its first call; fact 35-38 before recursing);
# /i gives instruction ranges that start at 1 (mov $3,%edi; call compute),
# tile the trace, and end with the current instruction (ground truth + 1).
# program: btrace
# reference: none -- gdbserver cannot record btrace on this machine (no Intel PT, no BTS); the instruction count comes from single-stepping under it (ground-truth)
# ground-truth: ground_truth/btrace.gdb
# expect: ^1\tmain\n2\t  compute\n3\t    sq\n4\t  compute\n5\t    sq\n6\t  compute\n7\t    sq\n8\t  compute\n9\tmain\n10\t  fact\n11\t    fact\n12\t      fact\n13\t    fact\n14\t  fact\n15\tmain\n16\t  end_region$
# expect: ^1\tmain\tinst 1,2\n2\tcompute\tinst 3,(\d+)\n3\tsq\tinst (\d+),
# expect: ^14\t  fact\tinst \d+,(\d+)\tat @SRC@/testsuite/programs/btrace\.c:38,39\n15\tmain\tinst \d+,\d+\tat @SRC@/testsuite/programs/btrace\.c:95,96\n16\t  end_region\tinst \d+,@GT:region1+1@\tat @SRC@/testsuite/programs/btrace\.c:54,55$
# expect: ^1\tmain\tat @SRC@/testsuite/programs/btrace\.c:94\n2\tcompute\tat @SRC@/testsuite/programs/btrace\.c:27,30\n3\tsq\tat @SRC@/testsuite/programs/btrace\.c:22,24\n4\tcompute\tat @SRC@/testsuite/programs/btrace\.c:29,30$
# expect: ^-- tiles\n1 3 .* \.\.\. @GT:region1+1@ ok$
# expect: ^-- default, then back\n7\tsq\n8\tcompute\n9\tmain\n10\tfact\n11\tfact\n12\tfact\n13\tfact\n14\tfact\n15\tmain\n16\tend_region\n1\tmain\n2\tcompute\n3\tsq\n4\tcompute\n5\tsq\n6\tcompute$
target remote @TARGET@
break begin_region
continue
finish
record btrace pt
break end_region
continue
echo -- default, then back\n
record function-call-history
record function-call-history -
record function-call-history /c 1,16
record function-call-history /i 1,3
record function-call-history /ilc 14,16
record function-call-history /l 1,4
# The /i ranges must tile 1..N: each segment starts one past the last.
python
out = gdb.execute("record function-call-history /i 1,16", to_string=True)
ranges = [tuple(map(int, l.split("inst ")[1].split(","))) for l in out.splitlines()]
ok = ranges[0][0] == 1 and all(b[0] == a[1] + 1 for a, b in zip(ranges, ranges[1:]))
gdb.write("-- tiles\n%s %s\n" % (" ".join(str(r[0]) for r in ranges) + " ... " + str(ranges[-1][1]), "ok" if ok else "BROKEN"))
end
