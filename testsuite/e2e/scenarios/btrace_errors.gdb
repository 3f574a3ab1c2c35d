# Bad btrace requests, over the wire (maint packet) and through GDB's
# commands, answered as gdbserver's btrace code answers them: disabling or
# reading a trace that is not enabled, enabling pt or bts on a thread
# already traced in pt, a bad annex, operation or size; GDB refuses a
# second record btrace by itself.  After record stop the stub has no trace
# left for the thread, and record btrace bts starts afresh; btrace packets
# need one thread selected with Hg.
# program: btrace
# reference: none -- gdbserver cannot record btrace on this machine (no Intel PT, no BTS), so it cannot show its answers to these packets
# allow-error: the error cases are caught in Python and printed
# expect: ^sending: Qbtrace:off\nreceived: "E\.Branch tracing not enabled\."\nsending: qXfer:btrace:read:all:0,fff\nreceived: "E\.Btrace not enabled\."\nsending: qXfer:btrace-conf:read::0,fff\nreceived: "E\.Btrace not enabled\."$
# expect: ^error: The process is already being recorded\.  Use "record stop" to stop recording first\.\nerror: The process is already being recorded\.  Use "record stop" to stop recording first\.$
# expect: ^sending: Qbtrace:bts\nreceived: "E\.Btrace already enabled\."\nsending: Qbtrace:pt\nreceived: "E\.Btrace already enabled\."$
# expect: ^sending: qXfer:btrace-conf:read::0,fff\nreceived: "l<!DOCTYPE btrace-conf SYSTEM "btrace-conf\.dtd">\\x0a<btrace-conf version="1\.0">\\x0a<pt size="0x4000"/>\\x0a</btrace-conf>\\x0a"$
# expect: ^sending: qXfer:btrace:read:bogus:0,fff\nreceived: "E\.Bad annex\."\nsending: Qbtrace:foo\nreceived: "E\.Bad Qbtrace operation\.  Use bts, pt, or off\."\nsending: Qbtrace-conf:pt:size=zz\nreceived: "E\.Bad size value\."$
# expect: ^Process record is stopped and all execution logs are deleted\.\nsending: Qbtrace:off\nreceived: "E\.Branch tracing not enabled\."$
# expect: ^sending: qXfer:btrace-conf:read::0,fff\nreceived: "l<!DOCTYPE btrace-conf SYSTEM "btrace-conf\.dtd">\\x0a<btrace-conf version="1\.0">\\x0a<bts size="0x10000" />\\x0a</btrace-conf>\\x0a"$
# From begin_region's breakpoint (line 51) next runs its nop, pop and ret:
# expect: ^Recording format: Branch Trace Store\.\nBuffer size: 64kB\.\nRecorded 3 instructions in 1 functions \(0 gaps\)
# expect: ^-- stopped\nNo recording is currently active\.\nerror: No recording is currently active\.
# expect: ^Thread <pid1>\.<pid1>: emulated PT, buffer 16384 bytes
# Last, since GDB does not know its general thread changed: Hg-1 is no
# single thread.
# expect: ^sending: Hg-1\nreceived: "OK"\nsending: Qbtrace:bts\nreceived: "E\.Must select a single thread\."\nsending: qXfer:btrace:read:all:0,fff\nreceived: "E\.Must select a single thread\."$
# expect-not: Error in sourced command file
target remote @TARGET@
break begin_region
continue
python
def attempt(command):
    try:
        gdb.execute(command)
    except gdb.error as e:
        print("error: %s" % e)
end
maint packet Qbtrace:off
maint packet qXfer:btrace:read:all:0,fff
maint packet qXfer:btrace-conf:read::0,fff
record btrace pt
monitor btrace status
python attempt("record btrace pt")
python attempt("record btrace bts")
maint packet Qbtrace:bts
maint packet Qbtrace:pt
maint packet qXfer:btrace-conf:read::0,fff
maint packet qXfer:btrace:read:bogus:0,fff
maint packet Qbtrace:foo
maint packet Qbtrace-conf:pt:size=zz
record stop
maint packet Qbtrace:off
record btrace bts
maint packet qXfer:btrace-conf:read::0,fff
next
info record
record stop
echo -- stopped\n
info record
python attempt("record function-call-history")
maint packet Hg-1
maint packet Qbtrace:bts
maint packet qXfer:btrace:read:all:0,fff
