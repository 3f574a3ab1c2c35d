# Region 5 of program btrace under record btrace pt: down() recurses 100
# deep, beyond the 64 calls a PT decoder keeps to pair compressed
# returns, so returns must be written so that GDB still decodes them: the
# count is the single-step ground truth, with no gap, and the segments are
# deep_region, 101 calls of down, 100 returns into down, deep_region,
# end_deep: 204.
# program: btrace
# reference: none -- gdbserver cannot record btrace on this machine (no Intel PT, no BTS); the instruction count comes from single-stepping under it (ground-truth)
# ground-truth: ground_truth/btrace.gdb
# expect: ^Recorded @GT:region5@ instructions in 204 functions \(0 gaps\) for thread 1
# expect: ^1\tdeep_region\n2\t  down\n3\t    down\n[\s\S]*^101\t {200}down\n102\t {202}down\n103\t {200}down\n
# expect: ^201\t    down\n202\t  down\n203\tdeep_region\n204\t  end_deep$
# expect-not: decode error|Non-contiguous|Error while
target remote @TARGET@
handle SIGUSR1 nostop noprint pass
break begin_deep
continue
finish
record btrace pt
break end_deep
continue
info record
record function-call-history /c 1,3
record function-call-history /c 101,103
record function-call-history /c 201,204
