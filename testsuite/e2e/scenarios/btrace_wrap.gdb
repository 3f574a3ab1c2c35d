# set record btrace pt buffer-size 4096, then record region 3 of program
# btrace: 3000 calls of sq through a pointer (a TIP each) write about
# three times that much trace, so the ring wraps.  GDB must decode the
# newest part from its oldest PSB without gaps or errors (PSB+ with the time and a FUP,
# since tracing is on there), find the end of the region intact (sq, back
# in spin, main, end_wrap), and the oldest recorded instruction is no
# longer the region's start in main.
# program: btrace
# reference: none -- gdbserver cannot record btrace on this machine (no Intel PT, no BTS)
# expect: ^Recording format: Intel Processor Trace\.\nBuffer size: 4kB\.\nRecorded [1-9]\d+ instructions in [1-9]\d+ functions \(0 gaps\) for thread 1
# expect: ^Thread <pid1>\.<pid1>: emulated PT, buffer 4096 bytes, (\d{5,}|[5-9]\d{3}) bytes recorded, 4096 held, [1-9]\d* wraps$
# expect: ^\d+\t    sq\n\d+\t  spin\n\d+\tmain\n\d+\t  end_wrap\n-- packets$
# expect: ^-- packets\n0\t0x0\tpsb\n1\t0x10\ttsc [0-9a-f]+\n2\t0x18\tmode\.exec cs\.l\n3\t0x1a\tfup 3: 0x[0-9a-f]+\n4\t0x21\tpsbend$
# expect: ^-- begin\n#0  (sq|spin) \(
# expect-not: Non-contiguous|decode error|Error while|Failed to synchronize|warning: 
# expect-not: ^-- begin\n#0  main
target remote @TARGET@
handle SIGUSR1 nostop noprint pass
break begin_wrap
continue
finish
set record btrace pt buffer-size 4096
record btrace pt
break end_wrap
continue
info record
monitor btrace status
record function-call-history /c
echo -- packets\n
maint btrace packet-history 0,4
echo -- begin\n
record goto begin
record goto end
record stop
